"""Lesson 7 (did debiasing remove the bias?): its checks (the direct bias by hand, bias by neighbours, which method
comes nearer the target) accept the right answer, name each recognised mistake and ask to fill in the
placeholder; its views (the professions, the direct bias with an interval, the table of checks) on toy embeddings;
and the lesson's predictions are each revealed."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from check_helpers import assert_status, fresh_checks  # noqa: F401, E402

from wordbias.core import paths
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import debias_checks
from wordbias.measures.directions import direction
from wordbias.papers import lesson_views
from wordbias.teaching import checks

LESSON = paths.ROOT / "notebooks" / "lessons" / "src" / "07_debiasing.ipynb"






@pytest.fixture
def professions_and_g():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 8))
    X[:, 0] += np.linspace(-1, 2, 30)           # the words lean, unevenly, along the first axis
    X *= rng.uniform(0.5, 3.0, size=(30, 1))    # of unequal lengths, so projections differ from cosines
    g = np.zeros(8)
    g[0], g[1] = 1.0, 0.3
    return X, g / np.linalg.norm(g)


def test_direct_bias_right_and_its_mistakes(professions_and_g):
    X, g = professions_and_g
    cos = (X @ g) / np.linalg.norm(X, axis=1)
    expected = direction.direct_bias(X, g)
    assert expected == pytest.approx(np.abs(cos).mean())
    assert_status(checks.direct_bias(expected, X, g), "correct")
    assert_status(checks.direct_bias(round(expected, 3), X, g), "correct")
    assert_status(checks.direct_bias(..., X, g), "unanswered", "fill in ...")
    assert_status(checks.direct_bias("0.2", X, g), "invalid", "expected a number")
    for wrong, fragment in [(cos.mean(), "signed cosines"), (np.abs(X @ g).mean(), "projections"),
                            ((cos ** 2).mean(), "squared cosines"), (np.abs(cos).max(), "largest |cos|")]:
        assert_status(checks.direct_bias(float(wrong), X, g), "wrong", fragment)
    assert_status(checks.direct_bias(expected * 1.7, X, g), "wrong", "Look at:")


def test_direct_bias_accepts_any_length_of_g(professions_and_g):
    X, g = professions_and_g
    assert_status(checks.direct_bias(direction.direct_bias(X, g), X, 5 * g), "correct")


def test_neighbour_correlation_right_and_its_mistakes():
    from scipy import stats

    rng = np.random.default_rng(4)
    bias = np.r_[rng.uniform(-0.6, -0.35, 40), rng.uniform(0.35, 0.6, 40)]
    share = np.clip(0.5 + bias + rng.normal(0, 0.25, 80), 0, 1)
    r = float(np.corrcoef(bias, share)[0, 1])
    assert r == pytest.approx(pd.Series(bias).corr(pd.Series(share)))
    assert_status(checks.neighbour_correlation(r, bias, share), "correct")
    assert_status(checks.neighbour_correlation(round(r, 3), bias, share), "correct")
    assert_status(checks.neighbour_correlation(..., bias, share), "unanswered")
    assert_status(checks.neighbour_correlation(-r, bias, share), "wrong", "sign is flipped")
    assert_status(checks.neighbour_correlation(r ** 2, bias, share), "wrong", "r²")
    assert_status(checks.neighbour_correlation(float(np.cov(bias, share)[0, 1]), bias, share), "wrong",
                  "covariance")
    assert 0.5 < r < 0.95                  # 1.0 lies within half a unit of r: once misread as "too few figures"
    diagonal = checks.neighbour_correlation(float(np.corrcoef(bias, share)[0, 0]), bias, share)
    assert_status(diagonal, "wrong", "the diagonal of the correlation matrix, a variable with itself", "take [0, 1]")
    assert "few figures" not in diagonal.message
    rho = float(stats.spearmanr(bias, share)[0])
    if not math.isclose(rho, r, rel_tol=1e-3):
        assert_status(checks.neighbour_correlation(rho, bias, share), "wrong", "Spearman")


@pytest.fixture
def table():
    results = {"original": {"WEAT 6 d": 1.7, "direct bias": 0.17, "cluster accuracy": 1.0, "SimLex-999 ρ": 0.26},
               "hard debias": {"WEAT 6 d": 0.96, "direct bias": 0.0, "cluster accuracy": 0.91, "SimLex-999 ρ": 0.26},
               "LEACE": {"WEAT 6 d": 0.91, "direct bias": 0.13, "cluster accuracy": 0.69, "SimLex-999 ρ": 0.20}}
    return lesson_views.debias_checks_table(results)


def test_nearer_target(table):
    assert_status(checks.nearer_target(["direct bias"], table, "hard debias", "LEACE"), "correct")
    assert_status(checks.nearer_target(["direct bias", "cluster accuracy"], table, "hard debias", "LEACE"), "wrong",
                  "should not be there")
    assert_status(checks.nearer_target([], table, "hard debias", "LEACE"), "wrong", "missing ['direct bias']")
    assert_status(checks.nearer_target(..., table, "hard debias", "LEACE"), "unanswered")
    # the other way round: LEACE is nearer on WEAT 6 and the clustering; the utility row never counts
    assert_status(checks.nearer_target(["WEAT 6 d", "cluster accuracy"], table, "LEACE", "hard debias"), "correct")
    with pytest.raises(Exception, match="not in the table"):
        checks.nearer_target([], table, "INLP", "LEACE")


def test_nearer_target_worked_solution_runs(table):
    result = checks.nearer_target(["direct bias"], table, "hard debias", "LEACE")
    namespace = {"table": table}
    exec(checks._SOLUTIONS[result.exercise], namespace)
    assert namespace["nearer"] == ["direct bias"]


def test_debias_checks_table_and_its_view():
    measured = debias_checks.CheckResult(check="cluster accuracy", estimate=0.9, ci_low=0.85, ci_high=0.93,
                                         ci_level=0.95, ci_method="x", n=10, words=())
    table = lesson_views.debias_checks_table({"original": {"direct bias": 0.17, "cluster accuracy": measured,
                                                           "family analogies": 0.7}})
    assert list(table.columns) == ["method", "check", "estimate", "ci_low", "ci_high", "target"]
    assert table.target.tolist()[:2] == [0.0, 0.5] and math.isnan(table.target.iloc[2])
    shown = lesson_views.show_debias_checks(table)
    assert list(shown.index) == ["direct bias", "cluster accuracy", "family analogies"]
    assert shown.loc["cluster accuracy", "original"] == "0.90 [0.85, 0.93]"
    assert shown.loc["direct bias", "original"] == "0.17"
    assert shown["if the bias were gone"].tolist() == ["0", "0.5 (chance)", "as the original"]


def test_professions_and_direct_bias_view():
    words = ["he", "she", "nurse", "architect", "actress", "carpenter", "table"]
    rng = np.random.default_rng(5)
    kv = to_keyed_vectors(words, rng.normal(size=(len(words), 4)).astype(np.float32))
    found = lesson_views.professions(kv)
    assert "nurse" in found and "architect" in found and "carpenter" in found
    assert "actress" not in found and "table" not in found          # gender-specific; not a profession
    g = kv["he"] - kv["she"]
    result = lesson_views.direct_bias(kv, found, g, n_resamples=200)
    assert result.estimate == pytest.approx(direction.direct_bias(kv[found], g))
    assert result.ci_low <= result.estimate <= result.ci_high and result.n == len(found)


@pytest.mark.skipif(not LESSON.is_file(), reason="needs a checkout of the repository")
def test_every_prediction_is_revealed_and_every_check_is_a_lesson7_check():
    cells = json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
    text = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    predictions = [m for t in text for m in re.findall(r"^(ex\d+) = checks\.prediction\(", t, re.M)]
    revealed = [m for t in text for m in re.findall(r"checks\.reveal\((ex\d+),", t)]
    assert predictions == revealed == ["ex1", "ex3", "ex5"]
    used = {m for t in text for m in re.findall(r"\bchecks\.(\w+)\(", t)}
    assert {"direct_bias", "neighbour_correlation", "nearer_target", "written"} <= used
    assert all(hasattr(checks, name) for name in used)
