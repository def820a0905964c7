"""StereoSet measures (wordbias.measures.language_models.stereoset): SS, LMS, ICAT, the intervals and Holm by hand,
the two normalisations from per-token log-probabilities of the tiny causal model."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_causal import tiny_causal  # noqa: E402, F401

from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.datasets.stereoset import StereoSetExample  # noqa: E402
from wordbias.measures.language_models import stereoset as st  # noqa: E402
from wordbias.models.log_prob import causal_log_probs  # noqa: E402


def example(task, context, s, a, u, i=0):
    return StereoSetExample(str(i), task, "t", "gender", context, s, a, u, ("1", "2", "3"), (3, 3, 3), (5, 5, 5))


def scores(s, a, u, types=None, targets=None):
    n = len(s)
    return st.OptionScores("m", "intrasentence", "mean", np.asarray(s, float), np.asarray(a, float),
                           np.asarray(u, float), tuple(types or ["gender"] * n), tuple(targets or ["x"] * n),
                           tuple(map(str, range(n))))


def test_ss_lms_icat_by_hand():
    # 4 examples: stereotyped in 3 (ex. 3 a tie, counted as not); related comparisons 2+2+1+0 = 5 of 8
    s = scores([-1, -1, -2, -3], [-2, -3, -3, -3], [-3, -4, -2.5, -1])
    r = st.stereoset(s, method="percentile", n_resamples=500).overall
    assert r.ss.effect_size == 75.0 and r.ss.result.ties == 1
    assert r.lms.effect_size == pytest.approx(62.5) and (r.lms.result.k, r.lms.result.n) == (5, 8)
    assert r.icat.effect_size == pytest.approx(62.5 * 25 / 50)
    # Clopper-Pearson 3/4: [0.19412, 0.99369]; p = 2 * 5/16
    assert (r.ss.ci_low, r.ss.ci_high) == pytest.approx((19.412, 99.369), abs=1e-3)
    assert r.ss.p_two_sided == pytest.approx(10 / 16)


def test_options_within_float32_rounding_are_tied():
    from wordbias.measures.language_models.mlm import rounding_noise

    # 20.0 has float32 spacing 2**-19; 64 of them (rounding_noise) = 1.2e-4: a difference of 1e-5 is rounding, one
    # of 1e-3 is a preference
    gap = rounding_noise(20.0)
    s = scores([-20.0, -20.0, -20.0], [-20.0 - gap / 2, -20.0 - 10 * gap, -20.0 + gap / 2],
               [-20.0 - gap / 3, -30.0, -30.0])
    assert s.stereotyped.tolist() == [False, True, False]
    assert s.related.tolist() == [0, 2, 2]          # example 0: both meaningful options tied with the unrelated one
    r = st.stereoset(s, method="percentile", n_resamples=200).overall
    assert r.ss.result.ties == 2 and r.lms.result.ties == 2


def test_macro_over_targets_as_the_authors_evaluation():
    # target a: 2/2 stereotyped, target b: 0/1 -> macro SS 50, pooled 66.7
    s = scores([-1, -1, -3], [-2, -2, -1], [-9, -9, -9], targets=["a", "a", "b"])
    r = st.stereoset(s, method="percentile", n_resamples=200).overall
    assert r.ss.effect_size == pytest.approx(200 / 3) and r.ss.result.macro_over_targets == 50.0
    assert r.icat.result.macro_over_targets == pytest.approx(100.0)


def test_holm_across_bias_types_and_seeded_icat():
    # gender 10/10 (p = 2/1024), race 5/10 (p = 1)
    s = scores([1.0] * 15 + [0.0] * 5, [0.5] * 20, [0.7] * 20, types=["gender"] * 10 + ["race"] * 10)
    r = st.stereoset(s, n_resamples=1000, seed=4)
    assert r.by_type["gender"].ss.p_two_sided == pytest.approx(2 / 1024)
    assert r.by_type["gender"].ss.p_holm == pytest.approx(4 / 1024) and r.by_type["race"].ss.p_holm == 1.0
    icat = r.overall.icat
    assert icat.ci_low <= icat.effect_size <= icat.ci_high and icat.ci_low < icat.ci_high
    assert st.stereoset(s, n_resamples=1000, seed=4).overall.icat.ci_low == icat.ci_low


def test_normalisations_by_hand():
    lp = np.log([0.5, 0.25, 0.125])
    assert st.sentence_score(lp, "mean") == pytest.approx(-2.0)
    assert st.sentence_score(lp, "sum") == pytest.approx(math.log(0.5 * 0.25 * 0.125))
    with pytest.raises(InvalidParameterError, match="normalisation"):
        st.sentence_score(lp, "max")


def test_intrasentence_on_the_tiny_causal_model(tiny_causal):
    e = example("intrasentence", "she is a BLANK", "she is a nurse", "she is a doctor", "she is a drive")
    lp = causal_log_probs(tiny_causal, [e.stereotype, e.anti_stereotype, e.unrelated])
    for norm in st.NORMALISATIONS:
        got = st.score_examples(tiny_causal, [e], normalisation=norm, batch_size=2)
        want = [math.fsum(x.log_probs) / (math.log(2) * 4 if norm == "mean" else 1) for x in lp]
        assert [got.stereotype[0], got.anti_stereotype[0], got.unrelated[0]] == pytest.approx(want)


def test_intersentence_conditions_on_the_context(tiny_causal):
    e = example("intersentence", "old people can drive", "the poor are lazy .", "the rich are lazy .", "he is .")
    got = st.score_examples(tiny_causal, [e], normalisation="sum")
    full = causal_log_probs(tiny_causal, [st.joined(e.context, e.stereotype)])[0]
    # "old people can drive ." is 5 tokens (a full stop added), then the candidate's 5
    assert got.stereotype[0] == pytest.approx(math.fsum(full.log_probs[5:]))
    mean = st.score_examples(tiny_causal, [e], normalisation="mean")
    assert mean.stereotype[0] == pytest.approx(got.stereotype[0] / 5 / math.log(2))


def test_examples_of_one_task(tiny_causal):
    a = example("intrasentence", "she is a BLANK", "she is a nurse", "she is a doctor", "she is a drive")
    b = example("intersentence", "he is", "a nurse", "a doctor", "a drive")
    with pytest.raises(InvalidParameterError, match="one task"):
        st.score_examples(tiny_causal, [a, b])


def test_a_degenerate_icat_interval_is_a_note_not_a_warning():
    import warnings

    s = scores([-1, -1, -1], [-2, -2, -2], [-3, -3, -3])           # every resample gives the same ICAT
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        icat = st.stereoset(s, n_resamples=200).overall.icat
    assert np.isnan(icat.ci_low) and any("could not be computed" in n for n in icat.notes)
