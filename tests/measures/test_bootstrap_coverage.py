"""Is the bootstrap interval of WEAT's d honest? A small coverage study on synthetic vectors with a known
estimand (the full study, on GloVe 6B 50d as well: benchmarks/coverage_bootstrap.py).

Four pools of 200 Gaussian vectors (a shared mean, a bias along one direction, noise). The estimand is the
population effect size theta_pool: d with each set the whole pool (bootstrap.pool_effect_size). Word sets of
n words are drawn from the pools without replacement, many times; the nominal 95% interval must cover
theta_pool in about 95% of the draws, and its width must match the true 95% spread of d over draws. The
interval does *not* estimate E[d_n] (the mean d of lists of n words), which is smaller than theta_pool.
"""

import numpy as np
import pytest

from wordbias.measures import bootstrap as bs

POOL = 200


def pools(delta=0.6, gamma=1.5, dim=50, seed=0):
    rng = np.random.default_rng(seed)
    m = rng.normal(size=dim)
    m *= 3 / np.linalg.norm(m)
    u = rng.normal(size=dim)
    u -= (u @ m) / (m @ m) * m
    u /= np.linalg.norm(u)
    mats = [m + s * shift * u + rng.normal(size=(POOL, dim))
            for s, shift in ((1, delta), (-1, delta), (1, gamma), (-1, gamma))]
    return bs.target_attribute_cosines(*mats)


def draw(rng, n, reps):
    return [np.argsort(rng.random((reps, POOL)), axis=1)[:, :n] for _ in range(4)]


def study(C, n, reps, resample="XYAB", seed=0):
    rng = np.random.default_rng(seed)
    ix, iy, ia, ib = draw(rng, n, reps)
    lo, hi = np.empty(reps), np.empty(reps)
    for r in range(reps):
        sub = C[np.r_[ix[r], POOL + iy[r]]][:, np.r_[ia[r], POOL + ib[r]]]
        b = bs.weat_bootstrap_from_cosines(sub, n, n, n_resamples=1000, method="percentile", resample=resample,
                                           seed=r).effect_size
        lo[r], hi[r] = b.low, b.high
    # the true spread of d for sets of n words: many more draws, vectorised
    tx, ty, ta, tb = draw(rng, n, 20_000)
    d = bs.resampled_weat(C, POOL, POOL, tx, ty, ta, tb)[1]
    return lo, hi, d


@pytest.fixture(scope="module")
def C():
    return pools()


@pytest.mark.parametrize("n", [8, 16])
def test_coverage_of_the_pool_effect_size(C, n):
    theta = bs.pool_effect_size_from_cosines(C, POOL, POOL)
    assert theta == pytest.approx(1.03, abs=0.1)           # the design: a pool d near 1
    lo, hi, d = study(C, n, reps=150)
    coverage = np.mean((lo <= theta) & (theta <= hi))
    # 150 draws: the binomial sd of a 95% coverage is 0.018; 0.88 is four sd below
    assert 0.88 <= coverage <= 1.0
    # the width against the true spread of d (2.5% to 97.5% quantiles over 20,000 draws): the bootstrap is
    # somewhat too wide at these sizes (about 1.1-1.2 times), never narrower
    ratio = np.mean(hi - lo) / (np.quantile(d, 0.975) - np.quantile(d, 0.025))
    assert 0.95 <= ratio <= 1.4
    # and d shrinks with few words: E[d_n] < theta_pool, the reason to name the estimand
    assert d.mean() < theta - 0.05


def test_resampling_only_targets_is_too_narrow(C):
    # leaving the attribute words fixed ignores their variability: the interval is narrower than the true
    # spread of d (about 0.91 of it at n = 8, against 1.18 when all four sets are resampled) and covers less
    theta = bs.pool_effect_size_from_cosines(C, POOL, POOL)
    lo, hi, d = study(C, 8, reps=150, resample="XY")
    assert np.mean(hi - lo) / (np.quantile(d, 0.975) - np.quantile(d, 0.025)) < 1.0
    assert np.mean((lo <= theta) & (theta <= hi)) <= 0.93
