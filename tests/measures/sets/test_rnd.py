"""RND (Garg et al. 2018): hand-computed values, sign, options (WEFE's variants), the permutation test."""
import numpy as np
import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.sets.rnd import rnd, rnd_statistic
from wordbias.options import Resampling


def test_by_hand():
    T1, T2 = [[3.0, 0.0], [1.0, 0.0]], [[0.0, 2.0]]          # unit means (1, 0) and (0, 1)
    A = [[0.0, 5.0], [2.0, 2.0]]                            # unit (0, 1): √2 − 0; (1,1)/√2: equal distances
    assert rnd_statistic(T1, T2, A) == pytest.approx(np.sqrt(2))
    assert rnd_statistic(T1, T2, A, aggregate="mean") == pytest.approx(np.sqrt(2) / 2)
    # raw vectors: means (2, 0), (0, 2); a = (0, 5): √29 − 3; a = (2, 2): 2 − 2
    assert rnd_statistic(T1, T2, A, normalize=False) == pytest.approx(np.sqrt(29) - 3)
    # cosine distance: (1 − 0) − (1 − 1) and (1 − .7071) − (1 − .7071)
    assert rnd_statistic(T1, T2, A, distance="cosine") == pytest.approx(1.0)


def test_sign_swap_and_scale():
    rng = np.random.default_rng(0)
    T1, T2, A = rng.normal(size=(5, 7)), rng.normal(size=(4, 7)), rng.normal(size=(9, 7))
    v = rnd_statistic(T1, T2, A)
    assert rnd_statistic(T2, T1, A) == pytest.approx(-v)
    assert rnd_statistic(T1 * 4, T2 * 0.5, A * rng.uniform(1, 3, size=(9, 1))) == pytest.approx(v)  # unit vectors
    wefe_cos = np.mean([np.dot(a, T1.mean(0)) / np.linalg.norm(a) / np.linalg.norm(T1.mean(0))
                        - np.dot(a, T2.mean(0)) / np.linalg.norm(a) / np.linalg.norm(T2.mean(0)) for a in A])
    assert -rnd_statistic(T1, T2, A, distance="cosine", normalize=False, aggregate="mean") == pytest.approx(wefe_cos)


def test_validation():
    with pytest.raises(InvalidParameterError):
        rnd_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]], distance="cos")
    with pytest.raises(InvalidParameterError):
        rnd_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[1.0, np.inf]])
    with pytest.raises(InvalidParameterError):
        rnd_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]], aggregate="median")


def _kv(rng, shift):
    words = [f"m{i}" for i in range(6)] + [f"f{i}" for i in range(6)] + [f"a{i}" for i in range(10)]
    V = rng.normal(size=(22, 6))
    V[:6, 0] -= shift
    V[6:, 0] += shift                                       # the neutral words lean to the second group
    return to_keyed_vectors(words, V), words


def test_permutation_null_and_bias():
    ps = [rnd(*((kv := _kv(np.random.default_rng(s), 0.0))[:1]), kv[1][:6], kv[1][6:12], kv[1][12:],
              resampling=Resampling(n_resamples=0, n_permutations=999), warn=False).p_value for s in range(40)]
    ps = np.array(ps)
    assert 0.25 < ps.mean() < 0.75 and (ps < 0.05).mean() <= 0.2
    kv, w = _kv(np.random.default_rng(0), 3.0)
    r = rnd(kv, w[:6], w[6:12], w[12:], resampling=Resampling(n_resamples=500, n_permutations=999), warn=False)
    assert r.effect_size > 0 and r.p_value < 0.01 and r.ci_low <= r.effect_size <= r.ci_high
    assert r.p_method == "exact" and r.alternative == "two-sided"          # C(12, 6) = 924 splits, counted


def test_the_statistics_options_pass_through_and_an_unknown_one_is_refused():
    kv, w = _kv(np.random.default_rng(3), 1.0)
    none = Resampling(n_resamples=0, n_permutations=50)
    r = rnd(kv, w[:6], w[6:12], w[12:], normalize=False, aggregate="mean", distance="cosine", resampling=none,
            warn=False)
    m = {k: kv[v].astype(np.float64) for k, v in (("T1", w[:6]), ("T2", w[6:12]), ("A", w[12:]))}
    assert r.effect_size == pytest.approx(rnd_statistic(m["T1"], m["T2"], m["A"], distance="cosine",
                                                        normalize=False, aggregate="mean"))
    assert "cosine distance, mean over the words, raw vectors" in r.notes[0]
    with pytest.raises(InvalidParameterError, match="'agregate'"):
        rnd(kv, w[:6], w[6:12], w[12:], agregate="mean", resampling=none, warn=False)
    with pytest.raises(InvalidParameterError, match="aggregate"):
        rnd(kv, w[:6], w[6:12], w[12:], aggregate="median", resampling=none, warn=False)
