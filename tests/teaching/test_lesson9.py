"""Lesson 9 (measuring the measures): its checks (a measure's validity rho on a planted-bias ladder, the
false-positive rate at one rate, a split-half correlation stepped up by Spearman-Brown, the measures whose validity
interval covers 0) accept the right answer, name each recognised mistake, ask to fill in the placeholder and refuse
bad data; their worked solutions run; and the lesson is a core lesson that calls these checks."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
import yaml
from check_helpers import assert_status, fresh_checks  # noqa: F401, E402
from scipy import stats

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.teaching import checks

LESSONS = paths.ROOT / "notebooks" / "lessons"
LESSON = LESSONS / "src" / "09_measuring_the_measures.ipynb"

RATES = [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 0.25, 0.75]
D = [0.30, 0.10, -0.05, 0.02, -0.30, -0.10, 0.20, -0.25]
P = [0.20, 0.01, 0.03, 0.04, 0.20, 0.01, 0.50, 0.05]


def ladder_runs(measure="weat"):
    """A toy per-run table of one measure: two seeds at rates 0, 0.5 and 1, one at 0.25 and 0.75."""
    return pd.DataFrame({"measure": measure, "rate": RATES, "run": [0, 1, 0, 1, 0, 1, 0, 0], "effect_size": D,
                         "p_value": P})


def test_ladder_validity_right_and_its_mistakes():
    runs = pd.concat([ladder_runs(), ladder_runs("mac").assign(effect_size=np.abs(D))])
    rho = stats.spearmanr(D, RATES).statistic
    assert_status(checks.ladder_validity(rho, runs), "correct")
    assert_status(checks.ladder_validity(round(rho, 2), runs), "correct")
    assert_status(checks.ladder_validity(-rho, runs), "wrong", "sign is flipped")
    assert_status(checks.ladder_validity(float(np.corrcoef(D, RATES)[0, 1]), runs), "wrong", "Pearson's r")
    strength = np.abs(1 - 2 * np.array(RATES))
    assert_status(checks.ladder_validity(stats.spearmanr(D, strength).statistic, runs), "wrong", "other planted")
    means = pd.Series(D).groupby(RATES).mean()
    assert_status(checks.ladder_validity(stats.spearmanr(means, means.index).statistic, runs), "wrong",
                  "means per rate")
    assert_status(checks.ladder_validity(..., runs), "unanswered", "fill in ...")
    assert_status(checks.ladder_validity("-0.8", runs), "invalid", "expected a number")
    # a measure blind to the sign is judged against the strength |1 - 2p|
    assert_status(checks.ladder_validity(stats.spearmanr(np.abs(D), strength).statistic, runs, measure="mac"),
                  "correct", "strength")


def test_ladder_validity_refuses_what_is_no_ladder():
    with pytest.raises(InvalidParameterError, match="lacks the columns"):
        checks.ladder_validity(0.5, pd.DataFrame({"measure": ["weat"], "rate": [0.0]}))
    with pytest.raises(InvalidParameterError, match="no row of measure 'ripa'"):
        checks.ladder_validity(0.5, ladder_runs(), measure="ripa")
    with pytest.raises(InvalidParameterError, match="2 rates or more"):
        checks.ladder_validity(0.5, ladder_runs()[lambda t: t.rate == 0])


def test_false_positive_rate_right_and_its_mistakes():
    runs = ladder_runs("sc_weat")
    # at rate 0.5: p = 0.03 and 0.04, both below 0.05; over every rate 4 of 8; at p <= 0.05 at 0.75 too
    assert_status(checks.false_positive_rate(1.0, runs), "correct", "the 2 runs of sc_weat at rate 0.5")
    assert_status(checks.false_positive_rate(2, runs), "wrong", "number of runs")
    assert_status(checks.false_positive_rate(0.0, runs), "wrong", "NOT flagged")
    assert_status(checks.false_positive_rate(0.5, runs), "wrong", "share over every rate")
    at0 = checks.false_positive_rate(0.5, runs, rate=0.0)
    assert_status(at0, "correct", "rate 0 with p < 0.05")
    edge = pd.DataFrame({"measure": "sc_weat", "rate": 0.5, "p_value": [0.05, 0.01, 0.5, 0.6]})
    assert_status(checks.false_positive_rate(0.25, edge), "correct")
    assert_status(checks.false_positive_rate(0.5, edge), "wrong", "not p <= alpha")
    assert_status(checks.false_positive_rate(1.0, runs, alpha=0.035), "wrong")
    assert_status(checks.false_positive_rate(..., runs), "unanswered")
    with pytest.raises(InvalidParameterError, match="no run with a p-value at rate 0.3"):
        checks.false_positive_rate(0.5, runs, rate=0.3)


def test_spearman_brown_right_and_its_mistakes():
    first, second = np.array([0.1, 0.4, 0.2, 0.5, 0.9, 0.3]), np.array([0.2, 0.1, 0.3, 0.6, 0.7, 0.8])
    r = np.corrcoef(first, second)[0, 1]
    assert 0 < r < 1
    assert_status(checks.spearman_brown(2 * r / (1 + r), first, second), "correct")
    assert_status(checks.spearman_brown(round(2 * r / (1 + r), 3), first, second), "correct")
    assert_status(checks.spearman_brown(r, first, second), "wrong", "step it up")
    assert_status(checks.spearman_brown(2 * r, first, second), "wrong", "divide it by (1 + r)")
    rho = stats.spearmanr(first, second).statistic
    assert not math.isclose(rho, r, rel_tol=1e-3)
    assert_status(checks.spearman_brown(2 * rho / (1 + rho), first, second), "wrong", "Spearman's rank")
    assert_status(checks.spearman_brown(..., first, second), "unanswered")
    assert_status(checks.spearman_brown(1.0, first, second), "wrong", "diagonal of the correlation matrix")
    for bad in ([1.0, 2.0], [1.0, 2.0, math.nan, 4.0, 5.0, 6.0], [1.0] * 6, [1.0, 2.0, 3.0]):
        with pytest.raises(InvalidParameterError):
            checks.spearman_brown(0.5, bad, second[:len(bad)] if len(bad) != 3 else second)


def test_validity_covers_zero_reads_the_interval_ends():
    table = pd.DataFrame({"validity low": [-0.9, -0.3, 0.0, 0.1, math.nan],
                          "validity high": [-0.5, 0.7, 0.4, 0.8, math.nan]},
                         index=pd.Index(["weat", "rnsb", "mac", "rnd", "ube"], name="measure"))
    assert_status(checks.validity_covers_zero(["rnsb", "mac"], table), "correct")
    assert_status(checks.validity_covers_zero(["mac", " rnsb"], table), "correct")
    assert_status(checks.validity_covers_zero(["rnsb"], table), "wrong", "missing ['mac']")
    assert_status(checks.validity_covers_zero(["rnsb", "mac", "ube"], table), "wrong", "['ube'] should not")
    assert_status(checks.validity_covers_zero("rnsb", table), "invalid")
    assert_status(checks.validity_covers_zero(..., table), "unanswered")
    with pytest.raises(InvalidParameterError, match="validity low"):
        checks.validity_covers_zero([], table.drop(columns="validity low"))


def test_worked_solutions_run():
    runs = pd.concat([ladder_runs(), ladder_runs("sc_weat")])
    first, second = [0.1, 0.4, 0.2, 0.5], [0.2, 0.1, 0.3, 0.6]
    table = pd.DataFrame({"validity low": [-0.9, -0.3], "validity high": [-0.5, 0.7]}, index=["weat", "rnsb"])
    namespace = {"runs": runs, "stats": stats, "split": pd.DataFrame({"half 1": first, "half 2": second}),
                 "table": table}
    r = np.corrcoef(first, second)[0, 1]
    for result, name, expected in [
            (checks.ladder_validity(0.0, runs), "rho", stats.spearmanr(D, RATES).statistic),
            (checks.false_positive_rate(0.0, runs), "false_positives", 1.0),
            (checks.spearman_brown(0.0, first, second), "r_sb", 2 * r / (1 + r))]:
        exec(checks._SOLUTIONS[result.exercise], namespace)
        assert namespace[name] == pytest.approx(expected)
    result = checks.validity_covers_zero([], table)
    exec(checks._SOLUTIONS[result.exercise], namespace)
    assert namespace["covering"] == ["rnsb"]


@pytest.mark.skipif(not LESSON.is_file(), reason="needs a checkout of the repository")
def test_the_lesson_is_core_and_uses_its_checks():
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    entry = {e["file"]: e for e in yaml.safe_load((LESSONS / "lessons.yaml").read_text(encoding="utf-8"))
             ["lessons"]}[LESSON.name]
    assert entry["needs"] == "core"
    text = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    used = [m for t in text for m in re.findall(r"^ex\d+ = checks\.(\w+)\(", t, re.M)]
    assert used == ["prediction", "ladder_validity", "false_positive_rate", "spearman_brown",
                    "validity_covers_zero", "written"]
    assert sum("checks.reveal(ex1" in t for t in text) == 1
    params = text[0]
    assert re.search(r"^seed = 0\b", params, re.M) and re.search(r"^tested = \"\w+\"", params, re.M)
