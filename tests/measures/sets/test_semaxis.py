"""SemAxis (An et al. 2018): the axis and scores by hand, invariances, the test against brute force."""
import itertools

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.sets.semaxis import semaxis, semaxis_axis, semaxis_scores
from wordbias.options import Resampling


def test_axis_and_scores_by_hand():
    np.testing.assert_allclose(semaxis_axis([[2.0, 0.0], [0.0, 2.0]], [[0.0, -1.0]]), [1.0, 2.0])
    s = semaxis_scores([[1.0, 2.0], [2.0, -1.0], [-3.0, -6.0]], [[2.0, 0.0], [0.0, 2.0]], [[0.0, -1.0]])
    np.testing.assert_allclose(s, [1.0, 0.0, -1.0], atol=1e-12)
    with pytest.raises(DegenerateSetError):
        semaxis_axis([[1.0, 0.0], [0.0, 1.0]], [[0.5, 0.5]])                     # equal means: no axis
    # swapping the poles flips every score; scaling the words changes none
    rng = np.random.default_rng(0)
    W, P, N = rng.normal(size=(5, 4)), rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    np.testing.assert_allclose(semaxis_scores(W, N, P), -semaxis_scores(W, P, N))
    np.testing.assert_allclose(semaxis_scores(W * 7, P, N), semaxis_scores(W, P, N))


def test_difference_and_exact_p_against_brute_force():
    rng = np.random.default_rng(3)
    words = [f"t{i}" for i in range(8)] + ["p0", "p1", "p2", "n0", "n1", "n2"]
    V = rng.normal(size=(14, 5))
    kv = to_keyed_vectors(words, V)
    r = semaxis(kv, words[:4], words[4:8], words[8:11], words[11:], resampling=Resampling(n_resamples=300), alternative="greater",
                warn=False)
    s = semaxis_scores(V[:8], V[8:11], V[11:])
    assert r.effect_size == pytest.approx(s[:4].mean() - s[4:].mean())
    diffs = [s[list(c)].mean() - np.delete(s, list(c)).mean() for c in itertools.combinations(range(8), 4)]
    assert r.p_method == "exact"
    assert r.p_value == pytest.approx(np.mean(np.array(diffs) >= r.effect_size - 1e-12))
    swapped = semaxis(kv, words[4:8], words[:4], words[8:11], words[11:], resampling=Resampling(n_resamples=300), warn=False)
    assert swapped.effect_size == pytest.approx(-r.effect_size)
    assert swapped.p_two_sided == pytest.approx(r.p_two_sided)


def test_planted_bias_and_null():
    def kv_of(seed, shift):
        rng = np.random.default_rng(seed)
        V = rng.normal(size=(28, 6))
        V[:8, 0] += shift
        V[8:16, 0] -= shift
        V[16:22, 0] += 2
        V[22:, 0] -= 2
        return to_keyed_vectors([f"w{i}" for i in range(28)], V)
    w = [f"w{i}" for i in range(28)]
    ps = np.array([semaxis(kv_of(s, 0.0), w[:8], w[8:16], w[16:22], w[22:], resampling=Resampling(n_resamples=0), warn=False).p_value
                   for s in range(40)])
    assert 0.25 < ps.mean() < 0.75 and (ps < 0.05).mean() <= 0.2
    r = semaxis(kv_of(0, 2.0), w[:8], w[8:16], w[16:22], w[22:], resampling=Resampling(n_resamples=1000), warn=False)
    assert r.effect_size > 0.3 and r.p_value < 0.01 and r.ci_low <= r.effect_size <= r.ci_high
