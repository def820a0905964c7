"""Holm (1979) and Benjamini-Hochberg (1995) adjusted p-values: against hand-computed values, against the
procedures' own definitions (step-down / step-up rejection at every alpha), and against SciPy."""

import itertools

import numpy as np
import pytest
from scipy import stats as sps

from wordbias.core.errors import InvalidParameterError
from wordbias.stats import multiple


def test_holm_by_hand():
    # sorted 0.001 0.01 0.02 0.04 0.3, m = 5: times 5 4 3 2 1 -> 0.005 0.04 0.06 0.08 0.3 (already increasing)
    p = [0.04, 0.001, 0.3, 0.02, 0.01]
    assert multiple.holm(p) == pytest.approx([0.08, 0.005, 0.3, 0.06, 0.04], abs=1e-15)
    # the running maximum: sorted 0.01 0.011 0.5, times 3 2 1 -> 0.03 0.022 0.5 -> 0.03 0.03 0.5
    assert multiple.holm([0.5, 0.011, 0.01]) == pytest.approx([0.5, 0.03, 0.03], abs=1e-15)
    # capped at 1
    assert multiple.holm([0.6, 0.7]).tolist() == [1.0, 1.0]
    assert multiple.holm([0.2]).tolist() == [0.2]


def test_bh_by_hand():
    # sorted 0.001 0.01 0.02 0.04 0.3, m = 5: times 5, 5/2, 5/3, 5/4, 1 -> 0.005 0.025 0.0333 0.05 0.3
    p = [0.04, 0.001, 0.3, 0.02, 0.01]
    assert multiple.benjamini_hochberg(p) == pytest.approx([0.05, 0.005, 0.3, 0.1 / 3, 0.025], abs=1e-15)
    # the running minimum from the top: sorted 0.02 0.03 0.035, times 3, 3/2, 1 -> 0.06 0.045 0.035 -> all 0.035
    assert multiple.benjamini_hochberg([0.035, 0.02, 0.03]) == pytest.approx([0.035] * 3, abs=1e-15)
    assert multiple.benjamini_hochberg([0.9, 0.8]).tolist() == [0.9, 0.9]


def holm_rejects(p, alpha):
    """Holm's procedure as stated (1979): step down while p_(j) <= alpha / (m - j + 1)."""
    order = np.argsort(p)
    out = np.zeros(len(p), bool)
    for j, i in enumerate(order):
        if p[i] <= alpha / (len(p) - j):
            out[i] = True
        else:
            break
    return out


def bh_rejects(p, alpha):
    """BH as stated (1995): reject the k smallest, k the largest with p_(k) <= k alpha / m."""
    srt = np.sort(p)
    ok = np.flatnonzero(srt <= np.arange(1, len(p) + 1) * alpha / len(p))
    return p <= srt[ok[-1]] if ok.size else np.zeros(len(p), bool)


@pytest.mark.parametrize("seed", range(8))
def test_adjusted_p_reproduce_the_procedures_at_every_alpha(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 25))
    p = np.concatenate([rng.uniform(size=m), rng.uniform(0, 0.01, size=m // 3)])
    p[: m // 4] = p[-1]                           # ties
    holm, bh = multiple.holm(p), multiple.benjamini_hochberg(p)
    for alpha in (0.001, 0.01, 0.05, 0.1, 0.25, 0.5):
        assert ((holm <= alpha) == holm_rejects(p, alpha)).all()
        assert ((bh <= alpha) == bh_rejects(p, alpha)).all()
    assert (bh <= holm + 1e-15).all() and (holm >= p).all() and (bh >= p).all()   # BH never stricter


@pytest.mark.parametrize("seed", range(10))
def test_bh_equals_scipy_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=int(rng.integers(1, 200))) ** 3
    np.testing.assert_array_equal(multiple.benjamini_hochberg(p), sps.false_discovery_control(p, method="bh"))
    grid = np.round(p, 2)                          # many ties
    np.testing.assert_array_equal(multiple.benjamini_hochberg(grid), sps.false_discovery_control(grid, method="bh"))


def test_holm_against_brute_force_closed_testing():
    """Holm is closed testing with Bonferroni local tests: the adjusted p of H_i is the max over the
    intersections I containing i of |I| * min_{j in I} p_j (Marcus, Peritz & Gabriel 1976)."""
    p = np.array([0.012, 0.04, 0.002, 0.3, 0.025])
    m = p.size
    brute = [max(min(1.0, len(comb) * p[list(comb)].min()) for r in range(1, m + 1)
                 for comb in itertools.combinations(range(m), r) if i in comb) for i in range(m)]
    assert multiple.holm(p) == pytest.approx(brute, abs=1e-15)


def test_shape_kept():
    p = np.array([[0.01, 0.2], [0.03, 0.04]])
    assert multiple.holm(p).shape == (2, 2) and multiple.benjamini_hochberg(p).shape == (2, 2)
    assert multiple.benjamini_hochberg(p).ravel() == pytest.approx(multiple.benjamini_hochberg(p.ravel()))


def test_adjust_names_the_family():
    res = multiple.adjust([0.01, 0.04, 0.03], ["a", "b", "c"], family="battery")
    frame = res.to_frame()
    assert list(frame.columns) == ["test", "p", "p_holm", "p_bh", "family"]
    assert frame.family.unique().tolist() == ["battery"] and res.m == 3
    assert frame.p_holm.tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert frame.p_bh.tolist() == pytest.approx([0.03, 0.04, 0.04])
    import pandas as pd
    from_series = multiple.adjust(pd.Series({"a": 0.01, "b": 0.04, "c": 0.03}), family="battery")
    assert from_series.tests == ("a", "b", "c") and (from_series.p_bh == res.p_bh).all()
    assert multiple.adjust([0.2, 0.3], family="f").tests == ("1", "2")


@pytest.mark.parametrize("call,match", [
    (lambda: multiple.holm([0.1, float("nan")]), r"\[0, 1\]"),
    (lambda: multiple.benjamini_hochberg([1.2]), r"\[0, 1\]"),
    (lambda: multiple.holm([]), "empty"),
    (lambda: multiple.holm(["a"]), "numbers"),
    (lambda: multiple.adjust([0.1], family=""), "family"),
    (lambda: multiple.adjust([0.1, 0.2], ["a"], family="f"), "1 test names for 2"),
    (lambda: multiple.adjust([0.1, 0.2], ["a", "a"], family="f"), "distinct"),
    (lambda: multiple.adjust({"a": 0.1}, ["a"], family="f"), "not both"),
    (lambda: multiple.adjust([[0.1, 0.2]], family="f"), "1-D"),
])
def test_bad_input(call, match):
    with pytest.raises(InvalidParameterError, match=match):
        call()
