"""SC-WEAT (Caliskan et al. 2022, AIES): effect size and permutation test by hand and by brute force."""
import itertools
import math
from math import sqrt

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association.scweat import sc_weat, sc_weat_difference, sc_weat_effect_size, sc_weat_p_value


def _brute(cos_a, cos_b, alternative):
    """Enumerate every re-partition of A ∪ B into sets of the sizes of A and B."""
    pooled = np.concatenate([cos_a, cos_b])
    k, n = len(cos_a), len(pooled)
    obs = np.mean(cos_a) - np.mean(cos_b)
    diffs = []
    for idx in itertools.combinations(range(n), k):
        mask = np.zeros(n, bool)
        mask[list(idx)] = True
        diffs.append(pooled[mask].mean() - pooled[~mask].mean())
    diffs = np.array(diffs)
    tol = 1e-9
    if alternative == "greater":
        return np.mean(diffs >= obs - tol)
    if alternative == "less":
        return np.mean(diffs <= obs + tol)
    return np.mean(np.abs(diffs) >= abs(obs) - tol)


def test_effect_size_by_hand():
    # cosines with A: (0.9, 0.5), with B: (0.1, 0.3); difference 0.7 - 0.2 = 0.5
    ca, cb = [0.9, 0.5], [0.1, 0.3]
    pooled = np.array(ca + cb)                    # mean 0.45
    sd1 = sqrt(((pooled - 0.45) ** 2).sum() / 3)
    sd0 = sqrt(((pooled - 0.45) ** 2).sum() / 4)
    assert sc_weat_difference(ca, cb) == pytest.approx(0.5)
    assert sc_weat_effect_size(ca, cb) == pytest.approx(0.5 / sd1)
    assert sc_weat_effect_size(ca, cb, ddof=0) == pytest.approx(0.5 / sd0)
    assert sc_weat_effect_size(cb, ca) == pytest.approx(-0.5 / sd1)
    with pytest.raises(DegenerateSetError):
        sc_weat_effect_size([0.2, 0.2], [0.2])
    with pytest.raises(InvalidParameterError):
        sc_weat_effect_size(ca, cb, ddof=2)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_p_value_matches_enumeration(alternative):
    rng = np.random.default_rng(7)
    for na, nb in ((2, 2), (3, 4), (5, 3), (6, 6)):
        ca, cb = rng.uniform(-0.2, 0.8, na), rng.uniform(-0.3, 0.6, nb)
        p = sc_weat_p_value(ca, cb, alternative=alternative)
        assert p.p_method == "exact"
        assert p.p_value == pytest.approx(_brute(ca, cb, alternative), abs=1e-12)


def test_p_value_hand_case():
    # cosines (1, .5) with A, (0, -.5) with B: the 6 re-partitions' A-sums are 1.5, 1, .5, .5, 0, -.5;
    # only the observed reaches 1.5, only one reaches the opposite extreme
    assert sc_weat_p_value([1.0, 0.5], [0.0, -0.5]).p_value == pytest.approx(1 / 6)
    assert sc_weat_p_value([1.0, 0.5], [0.0, -0.5], alternative="less").p_value == pytest.approx(1.0)
    assert sc_weat_p_value([1.0, 0.5], [0.0, -0.5], alternative="two-sided").p_value == pytest.approx(2 / 6)
    assert sc_weat_p_value([0.0, -0.5], [1.0, 0.5], alternative="less").p_value == pytest.approx(1 / 6)


def test_p_value_monte_carlo_two_sided_close_to_exact():
    rng = np.random.default_rng(2)
    ca, cb = rng.uniform(0, 0.6, 8), rng.uniform(-0.1, 0.5, 8)
    exact = sc_weat_p_value(ca, cb, alternative="two-sided")
    mc = sc_weat_p_value(ca, cb, alternative="two-sided", p_method="monte-carlo", n_permutations=20_000, seed=3)
    assert mc.p_method == "monte-carlo"
    assert mc.p_value == pytest.approx(exact.p_value, abs=0.02)
    assert mc.p_value == sc_weat_p_value(ca, cb, alternative="two-sided", p_method="monte-carlo",
                                         n_permutations=20_000, seed=3).p_value


def test_sc_weat_on_embedding_by_hand():
    kv = to_keyed_vectors(["w", "v", "a1", "a2", "b1", "b2"],
                          np.array([[1, 0], [0, 1], [1, 0], [1, 1], [0, 1], [-1, 1]], dtype=np.float32))
    m = sc_weat(kv, ["w", "v"], ["a1", "a2"], ["b1", "b2"], alternative="two-sided", warn=False)
    r = m.result
    h = 1 / sqrt(2)
    cos = {"w": ([1.0, h], [0.0, -h]), "v": ([0.0, h], [1.0, h])}
    for i, word in enumerate(("w", "v")):
        ca, cb = cos[word]
        assert r.difference[i] == pytest.approx(np.mean(ca) - np.mean(cb))
        assert r.effect_size[i] == pytest.approx(sc_weat_effect_size(ca, cb))
        assert r.p_values[i] == pytest.approx(_brute(np.array(ca), np.array(cb), "two-sided"))
    # category test: sign flips of the 2 differences, exact over 4 patterns
    assert r.category.n_resamples == 4 and r.category.alternative == "two-sided"
    frame = r.to_frame()
    assert list(frame.columns) == ["word", "difference", "effect_size", "p_value", "p_method", "alternative"]
    assert list(frame["word"]) == ["w", "v"]
    # the category: mean difference and mean effect size, the sign-flip p, no interval from two words
    assert m.statistic == pytest.approx(r.difference.mean()) and m.effect_size == pytest.approx(r.effect_size.mean())
    assert m.p_value == r.category.p_value == m.p_two_sided and m.p_method == "exact"
    assert math.isnan(m.ci_low) and any("no bootstrap interval: 2 value(s)" in n for n in m.notes)
    assert m.coverage == "W 2/2; A 2/2; B 2/2" and m.measure == "sc_weat"


def test_sc_weat_missing_and_validation():
    kv = to_keyed_vectors(["w", "a1", "a2", "b1"], np.array([[1, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32))
    with pytest.warns(MissingWordsWarning):
        m = sc_weat(kv, ["w"], ["a1", "a2"], ["b1", "b9"])
    assert m.result.missing == {"B": ("b9",)} and m.result.category is None
    assert m.coverage == "W 1/1; A 2/2; B 1/2" and m.dropped == "B: b9"
    # one word is a whole category (W not flagged); B lost half its list and has one word
    assert m.flagged == ("A 2/2 (below 4 words)", "B 1/2 (below 4 words)")
    with pytest.raises(InvalidParameterError):
        sc_weat(kv, ["w"], ["a1"], ["a1"])               # A and B share a word
    with pytest.raises(InvalidParameterError):
        sc_weat(kv, ["a1"], ["a1", "a2"], ["b1"])        # the word is an attribute
    with pytest.raises(InvalidParameterError):
        sc_weat(kv, ["w"], ["a1"], ["b1"], alternative="greater-or-less")


def test_auto_uses_monte_carlo_beyond_exact_max_n():
    rng = np.random.default_rng(9)
    ca, cb = rng.uniform(0, 0.5, 8), rng.uniform(0, 0.5, 8)
    exact = sc_weat_p_value(ca, cb, exact_max_n=16)
    mc = sc_weat_p_value(ca, cb, exact_max_n=10, n_permutations=50_000, seed=1)
    assert exact.p_method == "exact" and mc.p_method in ("exact", "monte-carlo")
    assert mc.p_value == pytest.approx(exact.p_value, abs=0.01)
    with pytest.raises(InvalidParameterError):
        sc_weat_p_value(ca, cb, exact_max_n=1.5)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_the_p_value_names_its_alternative(alternative):
    """Each per-word p carries the tail it was computed for (it said "greater" for every tail)."""
    p = sc_weat_p_value([0.9, 0.5, 0.4], [0.0, -0.5, 0.1], alternative=alternative)
    assert p.alternative == alternative
