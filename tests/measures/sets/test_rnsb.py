"""RNSB (Sweeney & Najafian 2019): KL by hand, the classifier against scikit-learn, seed determinism."""
import math

import numpy as np
import pytest
from scipy import stats

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.sets import rnsb as R
from wordbias.options import Resampling


def _data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(20, 10)) - 0.4, rng.normal(size=(20, 10)) + 0.4, rng.normal(size=(12, 10))


def test_kl_by_hand_and_against_scikit_learn():
    from sklearn.linear_model import LogisticRegression

    neg, pos, T = _data()
    clf = LogisticRegression(solver="newton-cholesky", max_iter=1000, tol=1e-10).fit(
        np.vstack([neg, pos]), np.r_[np.ones(20), np.zeros(20)])
    p = clf.predict_proba(T)[:, 1]
    ref = stats.entropy(p / p.sum(), np.full(12, 1 / 12))
    assert R.rnsb_statistic([T[:6], T[6:]], neg, pos) == pytest.approx(ref, rel=1e-6)
    assert R.rnsb_statistic([T], neg, pos, solver="lbfgs", max_iter=10_000) == pytest.approx(ref, rel=1e-3)
    np.testing.assert_allclose(R._kl_uniform(np.array([1.0, 1.0, 2.0])), (0.25 * np.log(0.75) * 2
                                                                           + 0.5 * np.log(1.5)))


def test_deterministic_for_a_seed_and_holdout():
    neg, pos, T = _data(1)
    a = R.rnsb_statistic([T], neg, pos, holdout=0.2, seed=3)
    assert a == R.rnsb_statistic([T], neg, pos, holdout=0.2, seed=3)
    assert a != R.rnsb_statistic([T], neg, pos, holdout=0.2, seed=4)          # another split
    assert R.rnsb_statistic([T], neg, pos, seed=3) == R.rnsb_statistic([T], neg, pos, seed=4)   # no random step


def test_validation():
    neg, pos, T = _data()
    with pytest.raises(InvalidParameterError):
        R.rnsb_statistic([T], neg, pos, solver="adam")
    with pytest.raises(InvalidParameterError):
        R.rnsb_statistic([T], neg, pos, holdout=1.0)
    with pytest.raises(DegenerateSetError):
        R.rnsb_statistic([T], neg[:1], pos)
    with pytest.raises(ValueError, match="share"):
        R.rnsb_statistic([T], neg, np.vstack([pos, neg[:1]]))


def test_measurement_interval_and_determinism():
    rng = np.random.default_rng(2)
    words = [f"g{i}" for i in range(10)] + [f"n{i}" for i in range(12)] + [f"p{i}" for i in range(12)]
    V = rng.normal(size=(34, 6))
    V[:5, 0] -= 1.5                                       # the first group leans negative
    V[10:22, 0] -= 2
    V[22:, 0] += 2
    kv = to_keyed_vectors(words, V)
    few = R.DEFAULT_RESAMPLING.replace(n_resamples=60, seed=5)
    a = R.rnsb(kv, [words[:5], words[5:10]], words[10:22], words[22:], resampling=few, warn=False)
    b = R.rnsb(kv, [words[:5], words[5:10]], words[10:22], words[22:], resampling=few, warn=False)
    assert (a.effect_size, a.ci_low, a.ci_high) == (b.effect_size, b.ci_low, b.ci_high)
    assert a.effect_size > 0.05 and a.ci_low < a.ci_high and math.isnan(a.p_value)
    assert a.result.distribution[:5].mean() > a.result.distribution[5:].mean()
    assert a.result.replicates.size == 60 and a.n_resamples == 60



def test_its_interval_is_a_percentile_one_and_its_classifier_options_are_checked():
    rng = np.random.default_rng(4)
    words = [f"g{i}" for i in range(8)] + [f"n{i}" for i in range(10)] + [f"p{i}" for i in range(10)]
    V = rng.normal(size=(28, 5)) + np.outer([0] * 8 + [-2] * 10 + [2] * 10, np.eye(5)[0])
    kv = to_keyed_vectors(words, V)
    sets = ([words[:4], words[4:8]], words[8:18], words[18:])
    none = Resampling(n_resamples=0)
    with pytest.raises(InvalidParameterError, match="ci_method must be 'percentile'"):
        R.rnsb(kv, *sets, resampling=Resampling(n_resamples=20), warn=False)
    with pytest.raises(InvalidParameterError, match="'solvr'"):
        R.rnsb(kv, *sets, solvr="lbfgs", resampling=none, warn=False)
    a = R.rnsb(kv, *sets, C=0.5, resampling=none, warn=False)
    T = [V[:4], V[4:8]]
    assert a.interval is None and a.effect_size == pytest.approx(R.rnsb_statistic(T, V[8:18], V[18:], C=0.5))
    assert a.effect_size != pytest.approx(R.rnsb_statistic(T, V[8:18], V[18:]))
