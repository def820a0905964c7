"""wordbias.weat: one call, one Result with the interval, both p-values and the word sets."""
from __future__ import annotations

import math

import numpy as np
import pytest

import wordbias as wb
from wordbias.core.errors import InvalidParameterError, LowCoverageWarning, MissingWordsWarning
from wordbias.datasets import stimuli
from wordbias.measures.association import bootstrap
from wordbias.measures.association import weat as weat_measure
from wordbias.measures.association.measurement import low_coverage
from wordbias.options import Resampling, Words, loose_options
from wordbias.result import Result

WEAT1 = stimuli.weat_tests("caliskan2017")[0]


@pytest.fixture(scope="module")
def glove():
    return wb.load("glove-6b-50d", progress=False)


@pytest.fixture(scope="module")
def weat1(glove):
    with pytest.warns(MissingWordsWarning):
        return wb.weat(glove, WEAT1.X, WEAT1.Y, WEAT1.A, WEAT1.B,
                       resampling=Resampling(n_resamples=2000, n_permutations=100_000))


def test_one_call_gives_what_two_modules_gave(glove, weat1):
    """The same d, p and interval as the two-step route (measures.weat.weat, then bootstrap.weat_bootstrap)."""
    r = weat_measure.weat(glove, WEAT1.X, WEAT1.Y, WEAT1.A, WEAT1.B, words=Words(case_fold=True))
    boot = bootstrap.weat_bootstrap(glove, r, resampling=Resampling(n_resamples=2000), case_fold=True)
    assert isinstance(weat1, Result) and weat1.result is not None
    assert weat1.effect_size == r.effect_size and weat1.p_value == r.p_value and weat1.p_method == "exact"
    assert (weat1.ci_low, weat1.ci_high) == (boot.effect_size.low, boot.effect_size.high)
    assert weat1.ci_low < weat1.effect_size < weat1.ci_high
    two = weat_measure.p_value(r.s_x, r.s_y, p_method="exact", alternative="two-sided")
    assert weat1.p_two_sided == two.p_value


def test_the_word_sets_are_part_of_the_result(weat1):
    x = weat1.sets[0]
    assert x.letter == "X" and len(x.asked) == 25 and x.missing == ("gladiola",) and len(x.used) == 24
    assert weat1.coverage.startswith("X 24/25; Y 25/25") and not weat1.low_coverage
    assert sum(len(s.balanced_out) for s in weat1.sets) == 1   # 25 insects balanced to 24
    assert any("gladiola" in str(w) for w in weat1.warnings)


def test_views_never_recompute_and_read_well(weat1):
    text = str(weat1)
    assert len(text) < 800 and "d = 1.094, 95% CI [0.6, 1.5] (BCa 95%, 2,000 resamples of XYAB)" in text
    assert "X missing: gladiola" in text and "two-sided" in text
    assert "words found/asked: X 24/25, Y 25/25, A 25/25, B 25/25; used after balancing: 24/24/25/25" in text
    frame = weat1.to_frame()
    assert frame.shape[0] == 1 and frame.loc[0, "effect_size"] == weat1.effect_size
    assert {"ci_low", "ci_high", "p_two_sided", "coverage", "low_coverage", "dropped"} <= set(frame.columns)
    page = weat1._repr_html_()
    assert page.startswith("<table>") and "gladiola" in page and "two-sided" in page


def test_a_nearly_empty_list_is_flagged_and_warned(glove):
    """The trap the flag guards against: a confident number from lists mostly missing from the vocabulary."""
    X = list(WEAT1.X[:5]) + [f"zzunknown{i}" for i in range(20)]
    with pytest.warns(LowCoverageWarning, match=r"ran on too few of its words: X 5/25 \(below 50% of the list\)"):
        r = wb.weat(glove, X, WEAT1.Y, WEAT1.A, WEAT1.B,
                    resampling=Resampling(n_resamples=200, n_permutations=100_000))
    assert r.low_coverage and r.flagged == ("X 5/25 (below 50% of the list)",)
    assert "note: low coverage: X 5/25 (below 50% of the list)" in str(r)
    assert r.to_frame().loc[0, "low_coverage"]


def test_thresholds_are_the_users(glove):
    X = list(WEAT1.X[:5]) + [f"zzunknown{i}" for i in range(20)]
    with pytest.warns(MissingWordsWarning):
        r = wb.weat(glove, X, WEAT1.Y, WEAT1.A, WEAT1.B, resampling=Resampling(n_resamples=0, n_permutations=100_000),
                    words=Words(min_fraction=0.2))
    assert not r.low_coverage and math.isnan(r.ci_low) and r.ci_method == "none"
    for bad in ({"min_words": -1}, {"min_fraction": 1.5}, {"n_resamples": 1}):
        with pytest.raises(InvalidParameterError, match=next(iter(bad))):
            wb.weat(glove, WEAT1.X, WEAT1.Y, WEAT1.A, WEAT1.B, **_options(bad))


def _options(option: dict) -> dict:
    """The keywords of a measuring call from loose options (an option out of range raises here, as its object is
    made)."""
    from wordbias.measures.association import measurement

    return loose_options(measurement.DEFAULT_RESAMPLING, measurement.DEFAULT_WORDS, **option)


@pytest.mark.parametrize("call", ["weat", "weats", "wefat", "wefats"])
@pytest.mark.parametrize("option, names", [({"resampling": 1000}, "resampling"),
                                           ({"words": {"on_missing": "raise"}}, "words")])
def test_options_must_be_the_options_objects(call, option, names):
    """A loose value where a Resampling or a Words belongs is refused, naming the option."""
    from wordbias.measures.association import measurement

    kv = {"rose": [1, .1], "tulip": [.9, .2], "ant": [.1, 1], "wasp": [.2, .9], "love": [1, 0], "hate": [0, 1]}
    spec = {"id": "t", "X": ["rose", "tulip"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    with pytest.raises(InvalidParameterError, match=names):
        if call == "weat":
            measurement.weat(kv, spec["X"], spec["Y"], spec["A"], spec["B"], **option)
        elif call == "weats":
            measurement.weats(kv, [spec], **option)
        elif call == "wefat":
            measurement.wefat(kv, ["rose", "ant"], ["love"], ["hate"], {"rose": 0.2, "ant": 0.8}, **option)
        else:
            measurement.wefats(kv, [], **option)


def test_p_method_lists_the_p_values_to_compute():
    """``p_method`` as a list: the first gives ``p_value``, every method's p is in ``p_values``."""
    kv = {"rose": [1, .1], "tulip": [.9, .2], "ant": [.1, 1], "wasp": [.2, .9], "love": [1, 0], "hate": [0, 1]}
    r = wb.weat(kv, ["rose", "tulip"], ["ant", "wasp"], ["love"], ["hate"], p_method=("exact", "normal"),
                resampling=Resampling(n_resamples=0))
    assert r.p_method == "exact" and set(r.p_values) == {"exact", "normal"}
    assert r.p_values["exact"].p_value == r.p_value and r.p_values["normal"].p_method == "normal"
    with pytest.raises(InvalidParameterError, match="p_method"):
        wb.weat(kv, ["rose", "tulip"], ["ant", "wasp"], ["love"], ["hate"], p_method=())


def test_low_coverage_rule():
    assert low_coverage(1, 12) and low_coverage(5, 25) and low_coverage(3, 3)
    assert not low_coverage(4, 8) and not low_coverage(24, 25)
    assert not low_coverage(2, 3, min_words=2, min_fraction=0.5)


def test_any_embedding_the_loader_takes(tmp_path):
    words = {"rose": [1, .1], "tulip": [.9, .3], "lily": [.8, .2], "daisy": [.9, .1], "ant": [.1, 1],
             "wasp": [.2, .8], "moth": [.3, .9], "flea": [.2, 1], "love": [1, 0], "joy": [.9, .1],
             "peace": [.8, .1], "cheer": [1, .2], "hate": [0, 1], "ugly": [.1, .9], "war": [.1, 1],
             "grief": [.2, .9]}
    sets = [list(words)[i:i + 4] for i in range(0, 16, 4)]
    path = tmp_path / "toy.txt"
    path.write_text("".join(f"{w} {v[0]} {v[1]}\n" for w, v in words.items()))
    a = wb.weat(words, *sets, resampling=Resampling(n_resamples=200, n_permutations=100_000))
    b = wb.weat(path, *sets, resampling=Resampling(n_resamples=200, n_permutations=100_000))
    assert a.effect_size == pytest.approx(b.effect_size, abs=1e-6) and a.p_value == b.p_value


def test_a_battery_is_measured_once_each_with_adjusted_p(glove):
    """weats: one Result per spec, Holm/BH over those that ran, a test that cannot run kept with its reason."""
    from wordbias.measures.association.measurement import weats
    from wordbias.stats import multiple

    specs = stimuli.weat_tests("caliskan2017")[:3]
    empty = {"id": "empty", "X": ["zzq1"], "Y": ["zzq2"], "A": list(WEAT1.A), "B": list(WEAT1.B)}
    rs = weats(glove, [*specs, empty], family="mine", resampling=Resampling(n_resamples=200, n_permutations=100_000))       # warnings kept, not given again
    assert any("gladiola" in str(w) and w.category is MissingWordsWarning for w in rs[0].warnings)
    assert [m.test for m in rs] == ["WEAT1", "WEAT2", "WEAT3", "empty"]
    ran = [m.p_value for m in rs[:3]]
    np.testing.assert_array_equal([m.p_holm for m in rs[:3]], multiple.holm(np.array(ran)))
    assert rs[0].p_family == "mine: the 3 WEATs with a p-value (one-sided p)"
    assert rs[3].not_run.startswith("not run: ") and math.isnan(rs[3].p_holm) and rs[3].coverage.startswith("X 0/1")
    assert "not run" in str(rs[3]) and rs[3].to_dict()["note"].startswith("not run")
    one = wb.weat(glove, specs[1].X, specs[1].Y, specs[1].A, specs[1].B,
                  resampling=Resampling(n_resamples=200, n_permutations=100_000))
    assert one.effect_size == rs[1].effect_size and one.ci_low == rs[1].ci_low     # the same test, the same numbers


def test_wefat_in_one_call(glove):
    spec = stimuli.wefat_tests("caliskan2017")[0]
    r = wb.wefat(glove, spec.W, spec.A, spec.B, spec.property, resampling=Resampling(n_resamples=500))
    assert r.measure == "wefat" and r.alternative == "two-sided" and r.ci_low < r.effect_size < r.ci_high
    assert r.coverage.startswith("W ") and r.result.n == len(r.sets[0].used)
    assert "two-sided (t)" in str(r)


@pytest.mark.parametrize("call, option", [
    ("weat", {"ci_method": "bogus"}), ("weat", {"p_method": ("exact", "bogus")}), ("weats", {"p_methods": "normal"}),
    ("weats", {"ci_method": "bogus"}), ("weats", {"on_missing": "skip"}), ("weats", {"balance_targets": "even"}),
    ("wefat", {"ci_method": "bogus"}), ("wefats", {"on_missing": "skip"}),
])
def test_a_misspelt_option_is_an_error_not_a_result_without_its_interval(call, option):
    """A bad option is refused before any test runs: before, a bad ci_method gave a result with no interval and a
    bad on_missing marked every test of a battery "not run"."""
    from wordbias.core.errors import InvalidParameterError
    from wordbias.measures.association import measurement

    kv = {"rose": [1, .1], "tulip": [.9, .2], "ant": [.1, 1], "wasp": [.2, .9], "love": [1, 0], "hate": [0, 1]}
    spec = {"id": "t", "X": ["rose", "tulip"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    with pytest.raises(InvalidParameterError, match=next(iter(option))):
        if call == "weat":
            measurement.weat(kv, spec["X"], spec["Y"], spec["A"], spec["B"], **_options(option))
        elif call == "weats":
            measurement.weats(kv, [spec], **_options(option))
        elif call == "wefat":
            measurement.wefat(kv, ["rose", "ant"], ["love"], ["hate"], [0.2, 0.8], **_options(option))
        else:
            import pandas as pd

            from wordbias.datasets.stimuli import WefatSpec
            spec = WefatSpec(id="w", title="w", W=("rose", "ant"), A=("love",), B=("hate",),
                             property=pd.Series([0.2, 0.8], index=["rose", "ant"]), name_filter=None, paper={})
            measurement.wefats(kv, [spec], **_options(option))


def test_wefats_takes_mappings_as_weats_does():
    """A WEFAT battery of plain mappings gives the same result as of WefatSpec objects."""
    import pandas as pd

    from wordbias.datasets.stimuli import as_wefat_spec
    from wordbias.measures.association import measurement

    kv = {"nurse": [1, .1], "pilot": [.1, 1], "maid": [.9, .2], "judge": [.2, .9], "she": [1, 0], "he": [0, 1]}
    spec = {"id": "jobs", "W": ["nurse", "pilot", "maid", "judge"], "A": ["she"], "B": ["he"],
            "property": {"nurse": 90.0, "pilot": 5.0, "maid": 88.0, "judge": 30.0}}
    (a,) = measurement.wefats(kv, [spec], resampling=Resampling(n_resamples=0))
    (b,) = measurement.wefats(kv, [as_wefat_spec(spec)], resampling=Resampling(n_resamples=0))
    assert a.test == "jobs" and a.effect_size == b.effect_size and not a.not_run
    assert isinstance(as_wefat_spec(spec).property, pd.Series)
    from wordbias.core.errors import InvalidParameterError
    with pytest.raises(InvalidParameterError, match="lacks"):
        as_wefat_spec({"id": "x", "W": ["a"]})


def test_the_balancing_spread_is_on_the_result_and_not_in_its_notes():
    """Random balancing's spread (d over the balancing draws, d unbalanced) is read from the Result; its notes
    and tidy row stay as they are."""
    kv = {"rose": [1, .1], "tulip": [.9, .2], "lily": [.8, .3], "ant": [.1, 1], "wasp": [.2, .9], "love": [1, 0],
          "hate": [0, 1]}
    with pytest.warns(Warning):
        r = wb.weat(kv, ["rose", "tulip", "lily"], ["ant", "wasp"], ["love"], ["hate"],
                    resampling=Resampling(n_resamples=0))
    assert r.balancing is r.result.balancing and r.balancing is not None
    assert "balanc" in r.balancing.text() and not any(r.balancing.text() in n for n in r.all_notes)
    with pytest.warns(Warning):
        whole = wb.weat(kv, ["rose", "tulip", "lily"], ["ant", "wasp"], ["love"], ["hate"],
                        resampling=Resampling(n_resamples=0), words=Words(balance_targets="none"))
    assert whole.balancing is None and len(whole.sets[0].used) == 3
