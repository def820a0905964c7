"""wordbias.core.vectors: unit rows and cosine matrices, in one place (no measure defines its own)."""
import types

import import_paths
import numpy as np
import pytest

from wordbias.core import vectors
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.vectors import cosine_matrix, unit_rows

HOME = "wordbias.core.vectors"
HELPERS = set(vectors.__all__)


def test_unit_rows_have_length_one_and_keep_their_direction():
    m = np.array([[3.0, 4.0], [0.0, -2.0], [1e-3, 1e-3]])
    u = unit_rows(m)
    np.testing.assert_allclose(np.linalg.norm(u, axis=1), 1.0)
    np.testing.assert_allclose(u[:2], [[0.6, 0.8], [0.0, -1.0]])
    assert u.dtype == np.float64 and np.all(np.sign(u) == np.sign(m))


def test_a_zero_or_non_finite_row_is_named():
    with pytest.raises(DegenerateSetError, match=r"set A: rows \[1, 2\] are zero or not finite"):
        unit_rows([[1.0, 0.0], [0.0, 0.0], [np.inf, 1.0]], "set A")


def test_unit_rows_wants_a_matrix():
    with pytest.raises(InvalidParameterError, match="expected a 2-D array"):
        unit_rows([1.0, 2.0])


def test_cosine_matrix_by_hand():
    W = [[1.0, 0.0], [1.0, 1.0]]
    V = [[0.0, 3.0], [2.0, 0.0], [-1.0, -1.0]]
    h = np.sqrt(0.5)
    np.testing.assert_allclose(cosine_matrix(W, V), [[0.0, 1.0, -h], [h, h, -1.0]], atol=1e-15)


def test_cosine_matrix_refuses_vectors_of_other_dimensions():
    with pytest.raises(InvalidParameterError, match="dimension"):
        cosine_matrix(np.ones((2, 3)), np.ones((2, 4)))


def test_the_weat_uses_these_cosines():
    from wordbias.measures.association import weat

    rng = np.random.default_rng(0)
    W, A, B = rng.normal(size=(4, 5)), rng.normal(size=(3, 5)), rng.normal(size=(2, 5))
    np.testing.assert_allclose(weat.association(W, A, B),
                               cosine_matrix(W, A).mean(axis=1) - cosine_matrix(W, B).mean(axis=1))


# ------------------------------------------------------------------------------------------------- one place

def exporters(modules) -> list[str]:
    """The modules other than core.vectors that hold a function of a helper's name that is not the helper, or
    list a helper in their ``__all__`` (a second path to it)."""
    bad = []
    for module in modules:
        if module.__name__ == HOME:
            continue
        bad += [f"{module.__name__}.__all__ lists {n}" for n in getattr(module, "__all__", ()) if n in HELPERS]
        bad += [f"{module.__name__}.{n} is its own function" for n in sorted(HELPERS)
                if callable(getattr(module, n, None)) and getattr(module, n) is not getattr(vectors, n)]
    return bad


def test_no_other_module_defines_or_exports_the_helpers():
    modules = import_paths.modules()
    assert len(modules) > 40 and not exporters(modules), exporters(modules)


def test_the_export_check_can_fail():
    fake = types.ModuleType("wordbias.measures.fake")
    fake.unit_rows = vectors.unit_rows                               # imported to be used: fine
    fake.cosine_matrix = lambda W, V: None                            # a second definition
    fake.__all__ = ["unit_rows"]                                      # ... and a re-export
    assert exporters([fake]) == ["wordbias.measures.fake.__all__ lists unit_rows",
                                 "wordbias.measures.fake.cosine_matrix is its own function"]


def test_every_use_imports_them_from_core_vectors():
    bad = [f"{path.relative_to(import_paths.ROOT)} {where}" for path, code in import_paths.python_sources()
           for where in import_paths.wrong_paths(code, HELPERS, HOME)]
    assert not bad, f"import these from {HOME}: {bad}"


def test_the_use_check_can_fail():
    code = ("from wordbias.measures.association.weat import unit_rows\n"
            "from wordbias.measures.association import weat as W\nW.cosine_matrix")
    assert import_paths.wrong_paths(code, HELPERS, HOME) == [
        "line 1: from wordbias.measures.association.weat import unit_rows",
        "line 3: wordbias.measures.association.weat.cosine_matrix"]
    assert import_paths.wrong_paths("from wordbias.core.vectors import unit_rows\nfrom wordbias.core import "
                                    "vectors\nvectors.cosine_matrix", HELPERS, HOME) == []
