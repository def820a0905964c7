"""The public API's docstrings are numpydoc (tools/api_reference.py lists the modules): every parameter documented
under Parameters and nothing documented that the signature lacks, a Returns section for what returns a value, the
fields of a result class documented, an Examples section (run by pytest as a doctest) for the functions of the
measuring modules, and no issue numbers or project history."""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import warnings

import pytest
from numpydoc.docscrape import ClassDoc, FunctionDoc

from tools import api_reference

HISTORY = re.compile(r"\bissues?\s+#?\d+|\(#\d+\)|\bsession \d+", re.I)


def _documented(entries) -> set[str]:
    names = set()
    for entry in entries:
        for name in entry.name.split(","):
            name = name.strip()
            if name:
                names.add(name)
    return names


def _signature_names(func) -> list[str]:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return []
    names = []
    for p in sig.parameters.values():
        if p.name in ("self", "cls"):
            continue
        names.append({p.VAR_POSITIONAL: f"*{p.name}", p.VAR_KEYWORD: f"**{p.name}"}.get(p.kind, p.name))
    return names


def _returns_none(func) -> bool:
    ann = inspect.signature(func).return_annotation
    return ann is None or ann == "None"


def _check_function(qualname, func, *, examples: bool, problems: list[str]):
    doc = inspect.getdoc(func)
    if not doc:
        problems.append(f"{qualname}: no docstring")
        return
    if HISTORY.search(doc):
        problems.append(f"{qualname}: names an issue or the project's history ({HISTORY.search(doc).group(0)!r})")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = FunctionDoc(func, doc=doc)
    wanted = _signature_names(func)
    documented = _documented(parsed["Parameters"]) | _documented(parsed["Other Parameters"])
    missing = [n for n in wanted if n not in documented and n.lstrip("*") not in documented]
    extra = sorted(n for n in documented if n not in wanted and f"*{n}" not in wanted and f"**{n}" not in wanted)
    if missing:
        problems.append(f"{qualname}: Parameters lacks {', '.join(missing)}")
    if extra:
        problems.append(f"{qualname}: Parameters documents {', '.join(extra)}, not in the signature")
    if not (parsed["Returns"] or parsed["Yields"]) and not _returns_none(func):
        problems.append(f"{qualname}: no Returns section")
    if examples and not parsed["Examples"]:
        problems.append(f"{qualname}: no Examples section")


def _fields(cls) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls) if f.init and not f.name.startswith("_")]
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return [f for f in cls._fields if not f.startswith("_")]
    return []


def _check_class(qualname, cls, problems: list[str]):
    doc = inspect.getdoc(cls)
    if not doc or cls.__doc__ is None:
        problems.append(f"{qualname}: no docstring")
        return
    if HISTORY.search(doc):
        problems.append(f"{qualname}: names an issue or the project's history ({HISTORY.search(doc).group(0)!r})")
    if issubclass(cls, BaseException):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = ClassDoc(cls, doc=doc, config={"show_class_members": False})
    fields = _fields(cls)
    documented = _documented(parsed["Parameters"]) | _documented(parsed["Attributes"])
    missing = [f for f in fields if f not in documented]
    if missing:
        problems.append(f"{qualname}: fields not under Parameters or Attributes: {', '.join(missing)}")
    for name, member in vars(cls).items():
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        _check_function(f"{qualname}.{name}", member, examples=False, problems=problems)


def _problems(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    problems = []
    if module.__doc__ and HISTORY.search(module.__doc__):
        problems.append(f"{module_name}: module docstring names an issue ({HISTORY.search(module.__doc__).group(0)!r})")
    examples = module_name in api_reference.EXAMPLES_REQUIRED
    for name in api_reference.public_names(module_name):
        obj = getattr(module, name)
        qualname = f"{module_name}.{name}"
        if inspect.isclass(obj):
            _check_class(qualname, obj, problems)
        elif inspect.isfunction(obj):
            _check_function(qualname, obj, examples=examples, problems=problems)
    return problems


@pytest.mark.parametrize("module_name", api_reference.MODULES)
def test_public_docstrings_are_numpydoc(module_name):
    problems = _problems(module_name)
    assert not problems, f"{len(problems)} docstring problems:\n" + "\n".join(problems)


def test_the_checker_finds_what_it_should():
    """A docstring that lacks a parameter, documents a stray one and has no Returns is reported on all three."""
    def f(a, b, *, c=1):
        """Sum.

        Parameters
        ----------
        a : int
            One.
        z : int
            Stray.
        """
        return a + b + c

    problems: list[str] = []
    _check_function("f", f, examples=True, problems=problems)
    assert any("lacks b, c" in p for p in problems) and any("documents z" in p for p in problems)
    assert any("no Returns" in p for p in problems) and any("no Examples" in p for p in problems)
