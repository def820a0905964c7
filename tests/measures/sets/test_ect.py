"""ECT (Dev & Phillips 2019): hand-computed rho, invariances, the permutation test under a planted null and bias."""
import numpy as np
import pytest
from scipy import stats

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.sets.ect import ect, ect_statistic
from wordbias.options import Resampling, Words


def _cos(A, m):
    return A @ m / np.linalg.norm(A, axis=1) / np.linalg.norm(m)


def test_rho_by_hand_and_against_scipy():
    rng = np.random.default_rng(0)
    T1, T2, A = rng.normal(size=(4, 6)), rng.normal(size=(5, 6)), rng.normal(size=(9, 6))
    ref = stats.spearmanr(_cos(A, T1.mean(0)), _cos(A, T2.mean(0))).correlation
    assert ect_statistic(T1, T2, A) == pytest.approx(ref, abs=1e-12)
    # the toy of the docstring: cosines (1, .8, .6) against (0, .6, .8): opposite orders
    assert ect_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 0.0], [0.8, 0.6], [0.6, 0.8]]) == -1.0


def test_invariances():
    rng = np.random.default_rng(1)
    T1, T2, A = rng.normal(size=(4, 6)), rng.normal(size=(4, 6)), rng.normal(size=(10, 6))
    rho = ect_statistic(T1, T2, A)
    assert ect_statistic(T2, T1, A) == pytest.approx(rho)                       # symmetric in the groups
    assert ect_statistic(T1, T2, A * rng.uniform(0.1, 5, size=(10, 1))) == pytest.approx(rho)   # A's scale
    assert ect_statistic(3 * T1, 3 * T2, A) == pytest.approx(rho)               # a common scale
    assert ect_statistic(T1, T2, A[::-1]) == pytest.approx(rho)                 # the order of A


def test_validation():
    with pytest.raises(DegenerateSetError):
        ect_statistic([[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]])                 # one attribute word
    with pytest.raises(InvalidParameterError):
        ect_statistic([[1.0, np.nan]], [[0.0, 1.0]], [[1.0, 1.0], [2.0, 1.0]])
    with pytest.raises(InvalidParameterError):
        ect_statistic([1.0, 0.0], [[0.0, 1.0]], [[1.0, 1.0], [2.0, 1.0]])       # 1-D
    with pytest.raises(InvalidParameterError):
        ect_statistic([[1.0, 0.0]], [[0.0, 1.0, 0.0]], [[1.0, 1.0], [2.0, 1.0]])
    with pytest.raises(ValueError, match="share"):
        ect_statistic([[1.0, 0.0]], [[1.0, 0.0]], [[1.0, 1.0], [2.0, 1.0]])
    with pytest.raises(DegenerateSetError):
        ect_statistic(np.empty((0, 2)), [[0.0, 1.0]], [[1.0, 1.0], [2.0, 1.0]])


def _kv(rng, shift):
    words = [f"m{i}" for i in range(6)] + [f"f{i}" for i in range(6)] + [f"a{i}" for i in range(12)]
    V = rng.normal(size=(24, 8))
    V[:6, 0] += shift
    V[6:12, 0] -= shift
    V[12:, 0] += np.linspace(-shift, shift, 12)          # attributes spread along the group axis
    return to_keyed_vectors(words, V), words


def test_permutation_p_under_null_and_bias():
    ps = []
    for s in range(40):
        kv, w = _kv(np.random.default_rng(s), 0.0)
        none = Resampling(n_resamples=0, n_permutations=2000)
        ps.append(ect(kv, w[:6], w[6:12], w[12:], resampling=none, warn=False).p_value)
    ps = np.array(ps)
    assert 0.25 < ps.mean() < 0.75 and (ps < 0.05).mean() <= 0.2               # roughly uniform under H0
    kv, w = _kv(np.random.default_rng(0), 4.0)
    r = ect(kv, w[:6], w[6:12], w[12:], resampling=Resampling(n_resamples=500, n_permutations=2000), warn=False)
    assert r.effect_size < 0 and r.p_value < 0.01 and r.p_method == "exact"       # C(12, 6) = 924 splits
    assert r.ci_low <= r.effect_size <= r.ci_high


def test_measurement_reports_words_and_is_deterministic():
    kv, w = _kv(np.random.default_rng(2), 1.0)
    with pytest.warns(UserWarning, match="zz"):
        r = ect(kv, w[:6], w[6:12], w[12:] + ["zz"], resampling=Resampling(n_resamples=300))
    assert r.coverage == "T1 6/6; T2 6/6; A 12/13" and r.dropped == "A: zz"
    again = ect(kv, w[:6], w[6:12], w[12:] + ["zz"], resampling=Resampling(n_resamples=300), warn=False)
    assert (r.effect_size, r.ci_low, r.p_value) == (again.effect_size, again.ci_low, again.p_value)
    with pytest.raises(InvalidParameterError, match="share"):
        ect(kv, w[:6], w[5:12], w[12:], warn=False)
    with pytest.raises(InvalidParameterError):
        ect(kv, w[:6], w[6:12], w[12:] + [w[12]], warn=False)                   # a repeated word
    with pytest.raises(KeyError):
        ect(kv, w[:6], w[6:12], w[12:] + ["zz"], words=Words(on_missing="raise"), warn=False)


def test_options_come_as_their_objects():
    kv, w = _kv(np.random.default_rng(1), 1.0)
    with pytest.raises(InvalidParameterError, match="resampling must be a wordbias.options.Resampling"):
        ect(kv, w[:6], w[6:12], w[12:], resampling={"n_resamples": 0}, warn=False)
    with pytest.raises(InvalidParameterError, match="words must be a wordbias.options.Words"):
        ect(kv, w[:6], w[6:12], w[12:], words="drop", warn=False)
    with pytest.raises(InvalidParameterError, match="alternative"):
        ect(kv, w[:6], w[6:12], w[12:], alternative="lower", warn=False)
    r = ect(kv, w[:6], w[6:12], w[12:], words=Words(min_words=7),
            resampling=Resampling(n_resamples=0, n_permutations=10, seed=4), warn=False)
    assert (r.p_method, r.n_permutations, r.seed, r.interval) == ("monte-carlo", 10, 4, None)
    assert r.flagged[:2] == ("T1 6/6 (below 7 words)", "T2 6/6 (below 7 words)")
