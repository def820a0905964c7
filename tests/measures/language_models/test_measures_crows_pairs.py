"""CrowS-Pairs measures (wordbias.measures.language_models.crows_pairs): the alignment, the binomial interval and
Holm on hand examples, the three conventions on tiny models built offline."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import tiny_causal as tc  # noqa: E402
from tiny_causal import tiny_causal  # noqa: E402, F401

from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.datasets.crows_pairs import CrowsPair  # noqa: E402
from wordbias.measures.language_models import crows_pairs as cp  # noqa: E402
from wordbias.models.log_prob import causal_log_probs  # noqa: E402

PAIRS = tc.crows_pairs()


def scores(more, less, *, types=None, directions=None, n_more=None, n_less=None) -> cp.PairScores:
    n = len(more)
    return cp.PairScores("m", "harness", np.asarray(more, float), np.asarray(less, float),
                         np.asarray(n_more if n_more is not None else [5] * n),
                         np.asarray(n_less if n_less is not None else [5] * n),
                         tuple(types or ["gender"] * n), tuple(directions or ["stereo"] * n), tuple(range(n)))


def test_shared_tokens_on_a_hand_pair():
    # "the poor are lazy ." / "the very rich are lazy .": one token replaced, one inserted
    a, b = [1, 2, 3, 4, 5], [1, 9, 8, 3, 4, 5]
    pa, pb = cp.shared_tokens(a, b)
    assert (pa, pb) == ([0, 2, 3, 4], [0, 3, 4, 5])
    assert [a[i] for i in pa] == [b[i] for i in pb]


def test_share_interval_and_p_by_hand():
    # 7 of 10: Clopper-Pearson 95% [0.3475, 0.9333]; two-sided exact p = 2 * P(X >= 7 | 10, 1/2) = 2 * 176/1024
    r = cp.share_result([True] * 7 + [False] * 3, title="t")
    assert r.effect_size == 0.7
    assert (r.ci_low, r.ci_high) == pytest.approx((0.34754, 0.93326), abs=1e-5)
    assert r.p_two_sided == pytest.approx(2 * 176 / 1024)
    row = r.to_row()
    assert row["ci_low"] == r.ci_low and row["p_method"] == "exact binomial"
    assert "95% CI [0.35, 0.93]" in str(r)   # an exact interval: printed with the tables' 2 decimals


def test_holm_across_bias_types_by_hand():
    # gender 10/10 (p = 2/1024), age 5/10 (p = 1), race-color 9/10 (p = 22/1024)
    more = [1.0] * 10 + [1.0] * 5 + [0.0] * 5 + [1.0] * 9 + [0.0]
    types = ["gender"] * 10 + ["age"] * 10 + ["race-color"] * 10
    res = cp.summarise(scores(more, [0.5] * 30, types=types))
    p = {t: r.p_two_sided for t, r in res.by_type.items()}
    assert p == pytest.approx({"gender": 2 / 1024, "age": 1.0, "race-color": 22 / 1024})
    holm = {t: r.p_holm for t, r in res.by_type.items()}
    # sorted: gender (x3), race-color (x2, at least gender's), age (x1)
    assert holm == pytest.approx({"gender": 6 / 1024, "race-color": 44 / 1024, "age": 1.0})
    assert res.overall.effect_size == pytest.approx(24 / 30)
    assert all(r.p_family == "CrowS-Pairs bias types (3)" for r in res.by_type.values())


def test_ties_are_not_stereotyped_and_are_noted():
    r = cp.summarise(scores([1.0, 0.0, 0.5], [0.5, 0.5, 0.5])).overall
    assert r.effect_size == pytest.approx(1 / 3) and r.result.ties == 1
    assert any("1 tied pair" in n for n in r.notes)


def test_length_confound_by_hand():
    # pairs 0-2 unequal: the shorter wins in 0 and 1; pair 3 equal length, stereotyped
    s = scores([-10.0, -20.0, -20.0, -5.0], [-12.0, -15.0, -25.0, -6.0], n_more=[4, 7, 7, 5], n_less=[6, 5, 3, 5])
    lc = cp.length_confound(s)
    assert lc.shorter_wins.result.k == 2 and lc.shorter_wins.result.n == 3
    assert lc.equal_length.effect_size == 1.0 and lc.share_equal_length == 0.25


def test_split_by_direction():
    res = cp.summarise(scores([1, 1, 0, 1], [0, 0, 1, 0], directions=["stereo", "stereo", "antistereo",
                                                                        "antistereo"]))
    assert res.by_direction["stereo"].effect_size == 1.0 and res.by_direction["antistereo"].effect_size == 0.5
    assert res.overall.result.by_direction == {"stereo": (2, 2), "antistereo": (1, 2)}


def test_paired_difference():
    a = scores([1, 1, 1, 1, 0, 0] * 5, [0] * 30)      # share 4/6
    b = scores([1, 0, 0, 1, 0, 0] * 5, [0] * 30)      # share 2/6
    r = cp.paired_difference(a, b, n_resamples=2000, seed=3)
    assert r.effect_size == pytest.approx(1 / 3)
    assert r.ci_low < 1 / 3 < r.ci_high and r.ci_low > 0
    assert r.p_two_sided == pytest.approx(2 / 2 ** 10)    # 10 discordant pairs, all one way
    assert cp.paired_difference(a, b, n_resamples=2000, seed=3).ci_low == r.ci_low   # seeded
    with pytest.raises(InvalidParameterError, match="same pairs"):
        cp.paired_difference(a, scores([0] * 29, [0] * 29))


def test_harness_and_shared_tokens_on_the_tiny_causal_model(tiny_causal):
    h = cp.score_pairs(tiny_causal, PAIRS, convention="harness", batch_size=3)
    s = cp.score_pairs(tiny_causal, PAIRS, convention="shared-tokens", batch_size=3)
    lp = causal_log_probs(tiny_causal, [PAIRS[0].sent_more, PAIRS[0].sent_less])
    assert h.more[0] == pytest.approx(lp[0].total) and h.less[0] == pytest.approx(lp[1].total)
    # "the poor are lazy ." vs "the rich are lazy .": every token but the second is shared
    shared = [0, 2, 3, 4]
    assert s.more[0] == pytest.approx(math.fsum(lp[0].log_probs[shared]))
    assert s.less[0] == pytest.approx(math.fsum(lp[1].log_probs[shared]))
    assert list(h.tokens_more) == [5, 4, 6, 5, 4]
    res = cp.summarise(h)
    assert res.overall.result.n == 5 and set(res.by_type) == {"socioeconomic", "race-color", "gender", "age"}


def test_a_convention_must_fit_the_model(tiny_causal):
    with pytest.raises(InvalidParameterError, match="masked"):
        cp.score_pairs(tiny_causal, PAIRS, convention="pll")
    with pytest.raises(InvalidParameterError, match="convention"):
        cp.score_pairs(tiny_causal, PAIRS, convention="sentence")


def test_pll_on_the_planted_masked_lm(tmp_path):
    from wordbias.models import tiny_mlm
    from wordbias.models.contextual import load_mlm
    from wordbias.models.log_prob import pseudo_log_likelihood

    m = load_mlm(str(tiny_mlm.build(tmp_path / "mlm", male=["engineer"], female=["nurse"], seed=0)), device="cpu")
    pair = CrowsPair(0, "she is a nurse", "he is a nurse", "stereo", "gender")
    got = cp.score_pairs(m, [pair], convention="pll")
    # shared non-special tokens: "is a nurse" at positions 2, 3, 4 of [CLS] x is a nurse [SEP]
    assert got.more[0] == pytest.approx(pseudo_log_likelihood(m, pair.sent_more, [2, 3, 4])[0])
    assert got.less[0] == pytest.approx(pseudo_log_likelihood(m, pair.sent_less, [2, 3, 4])[0])
    assert (got.tokens_more[0], got.tokens_less[0]) == (4, 4)


def test_scores_equal_up_to_rounding_are_a_tie_not_a_preference():
    # -30 in float32 has a spacing of 2**-19: 64 ULPs are 1.2e-4; 1e-6 apart is rounding, 1e-3 apart is a preference
    s = scores([-30.0 + 1e-6, -30.0 + 1e-3, -30.0 - 1e-6, -30.0], [-30.0, -30.0, -30.0, -30.0])
    assert s.tied.tolist() == [True, False, True, True]
    assert s.stereotyped.tolist() == [False, True, False, False]
    overall = cp.summarise(s).overall
    assert overall.effect_size == 0.25 and "3 tied pairs counted as not stereotyped" in overall.notes
