"""The planted-bias ladder's battery and validity table, on a synthetic ladder: the swap moves the pairs' words
along one axis by (1 - 2p) b, the attribute words keep a fixed component there, each seed adds its noise."""
import math

import numpy as np
import pandas as pd
import pytest

from wordbias import catalogue
from wordbias.battery import validity as V
from wordbias.core.errors import InvalidParameterError
from wordbias.embeddings import to_keyed_vectors

PAIRS = [("he", "she"), ("man", "woman"), ("boy", "girl"), ("father", "mother"), ("son", "daughter"),
         ("brother", "sister")]
LISTS = V.ladder_lists()
WORDS = sorted({w for p in PAIRS for w in p} | {w for ws in LISTS.values() for w in ws})
MALE = {f: m for m, f in PAIRS}
GENDER = {**{m: 1.0 for m, _ in PAIRS}, **{f: -1.0 for _, f in PAIRS}}
_signs = np.random.default_rng(5).choice([-1.0, 1.0], len(LISTS["professions"]))
FIXED = {**{w: 1.0 for w in LISTS["career"] + LISTS["pleasant"]}, **{w: -1.0 for w in LISTS["family"] + LISTS["unpleasant"]},
         **dict(zip(LISTS["professions"], _signs)),
         **{w: (50 - s) / 50 for w, s in V._percent_women().items()}}
BASE = dict(zip(WORDS, np.random.default_rng(9).normal(size=(len(WORDS), 12))))
RATES = (0.0, 0.5, 1.0)
FAST = dict(n_resamples=10, n_permutations=50, n_splits=3)


def run(p, seed, *, b=1.0, noise=0.05):
    """One run: a pair's two words share a base vector; the planted component along axis 0."""
    vectors = np.array([BASE[MALE.get(w, w)] for w in WORDS])
    vectors += noise * np.random.default_rng(seed).normal(size=vectors.shape)
    vectors[:, 0] += [b * ((1 - 2 * p) * GENDER[w] if w in GENDER else FIXED.get(w, 0.0)) for w in WORDS]
    return to_keyed_vectors(WORDS, vectors)


def ladder(*, b=1.0, noise=0.05, measures=None, seeds=2):
    return V.measure_ladder({p: [run(p, s, b=b, noise=noise) for s in range(seeds)] for p in RATES}, PAIRS,
                            measures=measures, **FAST)


@pytest.fixture(scope="module")
def planted():
    return ladder()


@pytest.fixture(scope="module")
def table(planted):
    return V.validity_table(planted, n_resamples=200)


def _figure(t, measure, test):
    return t[(t.measure == measure) & (t.test == test)].iloc[0]


SIGNED = ("weat", "sc_weat", "semaxis", "rnd", "direction", "ripa", "wefat")


@pytest.mark.parametrize("measure", SIGNED + ("ect",))
def test_planted_measures_are_valid(table, measure):
    v = _figure(table, measure, "validity")
    assert abs(v.effect_size) > 0.8
    assert v.ci_low > 0 or v.ci_high < 0
    assert "excludes 0" in v.note


def test_without_a_planted_component_the_interval_covers_zero():
    t = V.validity_table(ladder(b=0.0, measures=["weat", "semaxis", "rnd"]), n_resamples=200)
    for m in ("weat", "semaxis", "rnd"):
        v = _figure(t, m, "validity")
        assert v.ci_low <= 0 <= v.ci_high, m


def test_every_value_function_gives_the_measures_own_effect_size(planted):
    """The values on halves of the pairs (split-half) are the measure the rows report, on fewer pairs."""
    one = V._Run(run(0.0, 0), PAIRS)
    rows = planted.rows[(planted.rows.rate == 0.0) & (planted.rows.run == 0)].set_index("measure")
    for m, t in V.ladder_tests().items():
        assert t.value(one) == pytest.approx(rows.loc[m, "effect_size"], rel=1e-6), m


def test_icc_is_near_one_with_little_noise_and_near_zero_when_noise_dominates():
    quiet = V.validity_table(ladder(noise=0.001, measures=["semaxis"]), n_resamples=50)
    loud = V.validity_table(ladder(noise=20.0, measures=["semaxis"]), n_resamples=50)
    assert _figure(quiet, "semaxis", "test-retest ICC at rate 0").effect_size > 0.99
    assert abs(_figure(loud, "semaxis", "test-retest ICC at rate 0").effect_size) < 0.3


def test_the_false_positive_share_is_the_count_of_the_rows(planted, table):
    rows = planted.rows
    for m in ("weat", "rnd", "direction"):
        at_half = rows[(rows.measure == m) & (rows.rate == 0.5)]
        expected = (at_half.p_value < 0.05).sum() / len(at_half)
        assert _figure(table, m, "flagged at rate 0.5").effect_size == expected


def test_a_measure_without_a_test_has_no_flagged_share(table):
    row = _figure(table, "direct_bias", "flagged")
    assert math.isnan(row.effect_size) and row.note.startswith("no test")


def test_every_static_measure_is_in_the_table_and_ube_says_why(table):
    static = {"weat", "wefat", "direction", "direct_bias", "ripa", "ube", "sc_weat", "ect", "rnd", "rnsb", "mac",
              "semaxis", "indirect_bias"}
    assert static <= set(table.measure)
    assert static - {"ube"} == set(V.ladder_tests())
    ube = table[table.measure == "ube"]
    assert len(ube) == 1 and "first names" in ube.note.iloc[0]
    wide = V.validity_wide(table)
    assert set(wide.index) == static and wide.loc["ube", "note"] == V.LEFT_OUT["ube"]


def test_rows_carry_rate_run_and_coverage(planted):
    rows = planted.rows
    assert list(rows.columns[-2:]) == ["rate", "run"]
    assert len(rows) == len(RATES) * 2 * len(V.ladder_tests())
    assert rows.coverage.notna().all() and (rows.battery == "ladder").all()


def test_the_same_seed_gives_the_same_ladder():
    a, b = ladder(measures=["weat", "rnsb"]), ladder(measures=["weat", "rnsb"])
    pd.testing.assert_frame_equal(a.rows.drop(columns="wordbias_version"), b.rows.drop(columns="wordbias_version"))
    pd.testing.assert_frame_equal(a.halves, b.halves)


def test_smallest_difference_told_apart(table):
    assert _figure(table, "weat", "smallest difference told apart").effect_size == 0.5
    assert _figure(table, "weat", "told apart at difference 1").effect_size == 1.0


def test_figure_has_a_panel_per_measure(planted):
    some = ["weat", "ect", "mac"]
    fig = V.ladder_figure(planted.rows[planted.rows.measure.isin(some)])
    assert [ax.get_title() for ax in fig.axes if ax.get_visible()] == [catalogue.spec(m).name for m in
                                                                      ["weat", "ect", "mac"]]
    no_bias = [line.get_ydata()[0] for line in fig.axes[0].lines if line.get_linestyle() == "--"]
    assert no_bias == [0.0]


@pytest.mark.parametrize("runs, pairs, match", [
    ({0.0: [None]}, PAIRS, "at least 2 rates"),
    ({0.0: [], 1.0: []}, PAIRS, "at least one run"),
    ({0.0: [1], 2.0: [1]}, PAIRS, "rate"),
    ({0.0: [1], 1.0: [1]}, PAIRS[:3], "at least 4 pairs"),
    ({0.0: [1], 1.0: [1]}, [("he", "he")] * 4, "two different"),
])
def test_bad_ladders_are_refused(runs, pairs, match):
    with pytest.raises(InvalidParameterError, match=match):
        V.measure_ladder(runs, pairs)


def test_unknown_and_left_out_measures_are_refused():
    with pytest.raises(InvalidParameterError, match="first names"):
        V.measure_ladder({0.0: [1], 1.0: [1]}, PAIRS, measures=["ube"])


def test_against_covers_every_measure_of_the_battery():
    assert set(V.AGAINST) == set(V.ladder_tests())
    assert all(catalogue.spec(m).more_bias == "either" for m, a in V.AGAINST.items()
               if a == "rate")
