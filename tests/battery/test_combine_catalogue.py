"""Combining training runs reads the catalogue: no p for a measure without a test, intervals inside the range."""
import math

import numpy as np
import pytest

from wordbias import catalogue
from wordbias.battery.ensemble import combine_rows
from wordbias.core.tidy import tidy_frame
from wordbias.stats.multiple import adjust_family


def _runs(measure, values, half, p=None, name="x"):
    p = [math.nan] * len(values) if p is None else p
    return tidy_frame([{"embedding": f"e/seed-{i}", "battery": "report", "test": "T", "measure": measure,
                        "effect_size_name": name, "effect_size": v, "ci_low": v - half, "ci_high": v + half,
                        "ci_level": 0.95, "p_value": pv, "alternative": "greater"}
                       for i, (v, pv) in enumerate(zip(values, p))])


def test_a_descriptive_measure_gets_no_combined_p_and_stays_out_of_the_family():
    # direct bias is >= 0 by construction: a t test of its mean against 0 is significant for any embedding
    row = combine_rows(_runs("direct_bias", [0.17, 0.18, 0.16, 0.175], 0.01), label="e")
    assert math.isnan(row.p_value.iloc[0]) and math.isnan(row.p_two_sided.iloc[0])
    assert "descriptive" in row.note.iloc[0]
    adjusted = adjust_family(row, "runs")
    assert math.isnan(adjusted.p_holm.iloc[0])


def test_a_test_some_run_could_not_test_gets_no_combined_p():
    row = combine_rows(_runs("direction", [0.4, 0.5, 0.45], 0.1, p=[0.01, math.nan, 0.02], name="cos"), label="e")
    assert math.isnan(row.p_value.iloc[0])
    assert "1 of 3 runs gave no p" in row.note.iloc[0]


@pytest.mark.parametrize("measure, values, half", [
    ("ect", [0.95, 0.6, 0.99, 0.7], 0.3),           # rho near its maximum 1 with wide intervals
    ("rnsb", [0.02, 0.3, 0.05, 0.01], 0.05),        # a divergence near its minimum 0
    ("direct_bias", [0.02, 0.3, 0.01, 0.04], 0.01),
])
def test_a_bounded_measures_combined_interval_stays_in_its_range(measure, values, half):
    runs = _runs(measure, values, half)
    runs["ci_low"] = np.maximum(runs.ci_low, catalogue.spec(measure).low + 1e-3)
    runs["ci_high"] = np.minimum(runs.ci_high, catalogue.spec(measure).high - 1e-3)
    row = combine_rows(runs, label="e").iloc[0]
    s = catalogue.spec(measure)
    assert s.low <= row.ci_low < row.effect_size < row.ci_high <= s.high
    assert "logit scale" in row.ci_method


def test_an_interval_touching_the_edge_is_clipped_and_says_so():
    row = combine_rows(_runs("ect", [1.0, 0.7, 0.98], 0.3), label="e").iloc[0]
    assert -1 <= row.ci_low and row.ci_high <= 1
    assert "clipped to the range [-1, 1]" in row.ci_method


def test_ect_gets_no_combined_t_its_null_has_no_fixed_value():
    # ECT's rho = 1 is no bias, but its permutation null's rho is not 1: a t of the mean against 0 (or 1) is no test
    row = combine_rows(_runs("ect", [0.999, 0.998, 0.9995], 0.0005, p=[0.5, 0.6, 0.4], name="rho"),
                       label="e").iloc[0]
    assert math.isnan(row.p_value) and "no fixed value" in row.note


def test_a_measure_with_a_test_and_every_runs_p_gets_the_combined_t():
    weat = combine_rows(_runs("weat", [1.0, 1.1, 0.9], 0.2, p=[0.01, 0.01, 0.02], name="d"), label="e").iloc[0]
    assert weat.p_value < 0.01 and weat.p_method == "combined t over runs"


def test_a_weat_d_past_two_from_unequal_sets_is_not_forced_into_the_range():
    # with unequal target sets (balance_targets="none") d can pass 2: sqrt(N (N - 1) / (n_x n_y)) for 1 vs 10 words
    row = combine_rows(_runs("weat", [2.4, 2.6, 2.5], 0.3, p=[0.01, 0.01, 0.01], name="d"), label="e").iloc[0]
    assert row.ci_high > 2.5 and "outside [-2, 2]" in row.ci_method
