"""One import path per exception: every exception and warning class of wordbias is defined in
:mod:`wordbias.core.errors` and imported from there only.

Two checks, each shown able to fail:

- importing every module of the package, each exception or warning class found as a module attribute is defined
  in ``wordbias.core.errors``, and no other module lists one in its ``__all__`` (a re-export is a second path);
- reading the sources (the package, the tests, the notebook and lesson sources, scripts, benchmarks, tools, the
  docs and the README, doctest examples included), no code names an error through another module:
  ``from wordbias.measures.association.weat import DegenerateSetError`` or ``weat.DegenerateSetError`` is refused,
  ``from wordbias.core.errors import DegenerateSetError`` and ``errors.DegenerateSetError`` are not.

Private classes (a leading underscore: e.g. the command's internal ``_RunError``, caught where it is raised)
are not part of the package's interface and are left where they are used.
"""
from __future__ import annotations

import inspect
import re
import types

import import_paths
import pytest

from wordbias.core import errors

ROOT = import_paths.ROOT
HOME = "wordbias.core.errors"
#: every public exception and warning class of wordbias, by name
ERRORS = {name for name in errors.__all__ if isinstance(getattr(errors, name), type)
          and issubclass(getattr(errors, name), BaseException)}


# ------------------------------------------------------------------------------------ the modules' namespaces

def misplaced(modules) -> list[str]:
    """``module.Name`` for each public exception or warning class of wordbias held by a module but defined
    outside ``wordbias.core.errors``, and each such class another module lists in its ``__all__``."""
    bad = set()
    for module in modules:
        for name, obj in vars(module).items():
            if (isinstance(obj, type) and issubclass(obj, BaseException) and not name.startswith("_")
                    and obj.__module__.split(".")[0] == "wordbias" and obj.__module__ != HOME):
                bad.add(f"{module.__name__}.{name} (defined in {obj.__module__})")
        if module.__name__ != HOME:
            bad |= {f"{module.__name__}.__all__ lists {name}" for name in getattr(module, "__all__", ())
                    if name in ERRORS}
    return sorted(bad)


def test_every_exception_and_warning_is_defined_in_core_errors():
    modules = import_paths.modules()
    assert len(modules) > 40, "the walk missed the package's modules"
    assert not misplaced(modules), "define these in wordbias.core.errors, import them from there: " \
                                   f"{misplaced(modules)}"


def test_errors_holds_the_classes_once_in_its_all():
    assert len(errors.__all__) == len(set(errors.__all__))
    defined = {name for name, obj in vars(errors).items() if inspect.isclass(obj) and issubclass(obj, BaseException)
               and obj.__module__ == HOME and not name.startswith("_")}
    assert defined == ERRORS, f"in wordbias.core.errors but not in its __all__ (or the reverse): {defined ^ ERRORS}"


def test_the_namespace_check_can_fail():
    """An error class defined in another module, and a module re-exporting one in its ``__all__``, are caught."""
    stray = types.ModuleType("wordbias.measures.fake")
    stray.FakeError = type("FakeError", (ValueError,), {"__module__": "wordbias.measures.fake"})
    stray._Private = type("_Private", (Exception,), {"__module__": "wordbias.measures.fake"})
    stray.DegenerateSetError = errors.DegenerateSetError            # imported to be raised: fine
    stray.__all__ = ["DegenerateSetError"]                           # ... listed as its own: a re-export
    assert misplaced([stray]) == ["wordbias.measures.fake.FakeError (defined in wordbias.measures.fake)",
                                  "wordbias.measures.fake.__all__ lists DegenerateSetError"]


# ------------------------------------------------------------------------------------------------ the sources

_TEXT_PATH = re.compile(r"\bwordbias((?:\.\w+)+)\.(" + "|".join(sorted(ERRORS)) + r")\b")


def wrong_paths(code: str) -> list[str]:
    """Where ``code`` reaches an error through another module than ``wordbias.core.errors``."""
    return import_paths.wrong_paths(code, ERRORS, HOME)


def test_every_error_is_imported_from_core_errors_only():
    bad = [f"{path.relative_to(ROOT)} {where}" for path, code in import_paths.python_sources()
           for where in wrong_paths(code)]
    bad += [f"{path.relative_to(ROOT)}: wordbias{m.group(1)}.{m.group(2)}" for path, text in import_paths.prose()
            for m in _TEXT_PATH.finditer(text) if f"wordbias{m.group(1)}" != HOME]
    assert not bad, f"import these from {HOME}: {bad}"


@pytest.mark.parametrize("code, found", [
    ("from wordbias.measures.association.weat import DegenerateSetError",
     ["line 1: from wordbias.measures.association.weat import DegenerateSetError"]),
    ("from wordbias.measures.association import weat\nweat.DegenerateSetError",
     ["line 2: wordbias.measures.association.weat.DegenerateSetError"]),
    ("from wordbias.stats import permutation as P\ntry:\n    pass\nexcept P.ExactCountTooLarge:\n    pass",
     ["line 4: wordbias.stats.permutation.ExactCountTooLarge"]),
    ("import wordbias.embeddings\nwordbias.embeddings.EmbeddingNotFoundError",
     ["line 2: wordbias.embeddings.EmbeddingNotFoundError"]),
    ("from wordbias.core.errors import DegenerateSetError\nDegenerateSetError", []),
    ("from wordbias.core import errors as E\nE.CacheError", []),
    ("import wordbias.core.errors\nwordbias.core.errors.CacheError", []),
    ("from wordbias.measures.association import weat\nweat.effect_size", []),
    ("err.DegenerateSetError", []),                                  # not a wordbias module: cannot tell
])
def test_the_source_check_can_fail(code, found):
    assert wrong_paths(code) == found


def test_the_text_check_can_fail():
    assert [m.group(0) for m in _TEXT_PATH.finditer(
        "raises :class:`wordbias.models.contextual.ModelUnavailable`, or "
        ":class:`wordbias.core.errors.ModelFileError`")] == ["wordbias.models.contextual.ModelUnavailable",
                                                             "wordbias.core.errors.ModelFileError"]
