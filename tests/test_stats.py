import itertools
from math import comb

import numpy as np
import pytest
from scipy import stats as sps

from wordbias import stats


def brute_count(values, k, threshold):
    values = np.asarray(values, dtype=float)
    return sum(1 for c in itertools.combinations(range(len(values)), k)
               if values[list(c)].sum() >= threshold - 1e-9)


@pytest.mark.parametrize("n,k,seed", [(4, 2, 0), (9, 4, 1), (12, 6, 2), (13, 5, 3), (14, 7, 4)])
def test_meet_in_the_middle_matches_enumeration(n, k, seed):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=n)
    for threshold in (values[:k].sum(), 0.0, values.max() * k, -10.0):
        assert stats.count_subsets_at_least(values, k, threshold) == brute_count(values, k, threshold)


def test_ties_are_counted_as_extreme():
    values = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])  # many equal subset sums
    for thr in (0, 1, 2, 3):
        assert stats.count_subsets_at_least(values, 3, thr) == brute_count(values, 3, thr)
    p = stats.subset_sum_tail_exact(values, 3, 3.0)
    assert p.p_value == 1 / comb(6, 3)  # only the observed partition reaches the maximum


def test_exact_p_is_never_zero_and_has_resolution():
    values = np.arange(10.0)
    p = stats.subset_sum_tail_exact(values, 5, values[5:].sum())
    assert p.p_value == 1 / comb(10, 5) == p.resolution


def test_monte_carlo_agrees_with_exact_within_error():
    rng = np.random.default_rng(7)
    values = rng.normal(size=16)
    obs = np.sort(values)[-8:].sum() - 1.5
    exact = stats.subset_sum_tail_exact(values, 8, obs)
    mc = stats.subset_sum_tail_mc(values, 8, obs, n_samples=200_000, seed=3)
    assert mc.method == "monte-carlo" and mc.n_samples == 200_000
    assert abs(mc.p_value - exact.p_value) < 4 * mc.se + 1 / 200_001


def test_monte_carlo_add_one_rule_and_determinism():
    values = np.arange(20.0)
    top = values[10:].sum()
    mc = stats.subset_sum_tail_mc(values, 10, top, n_samples=1000, seed=1)
    # the maximum is one partition in 184756: almost surely never drawn, so p = 1/(R+1)
    assert mc.p_value == pytest.approx((mc.n_extreme + 1) / 1001)
    again = stats.subset_sum_tail_mc(values, 10, 95.0, n_samples=5000, seed=11)
    same = stats.subset_sum_tail_mc(values, 10, 95.0, n_samples=5000, seed=11)
    other = stats.subset_sum_tail_mc(values, 10, 95.0, n_samples=5000, seed=12)
    assert again == same
    assert again.n_extreme != other.n_extreme or again.p_value != other.p_value


def test_random_subsets_are_uniform():
    # each element should be in a random k-subset with probability k/N
    values = np.eye(6)[0]  # only element 0 counts
    sums = stats.random_subset_sums(values, 2, 60_000, np.random.default_rng(0))
    assert abs(sums.mean() - 2 / 6) < 0.01


def test_normal_moments_match_enumeration():
    rng = np.random.default_rng(5)
    values = rng.normal(size=10)
    sums = np.array([values[list(c)].sum() for c in itertools.combinations(range(10), 4)])
    mean, sd = stats.subset_sum_moments(values, 4)
    assert mean == pytest.approx(sums.mean())
    assert sd == pytest.approx(sums.std(ddof=0))


def test_normal_approximation_close_for_large_sets():
    rng = np.random.default_rng(9)
    values = rng.normal(size=40)
    obs = values[:20].sum() + 2.0
    exact = stats.subset_sum_tail_exact(values, 20, obs).p_value
    normal = stats.subset_sum_tail_normal(values, 20, obs).p_value
    assert abs(exact - normal) < 0.02


def test_dispatch_and_errors():
    values = np.arange(8.0)
    assert stats.subset_sum_tail(values, 4, 20.0).method == "exact"
    big = np.arange(60.0)
    assert stats.subset_sum_tail(big, 30, 900.0, n_samples=1000).method == "monte-carlo"
    with pytest.raises(ValueError, match="unknown p-value method"):
        stats.subset_sum_tail(values, 4, 1.0, method="bogus")
    with pytest.raises(ValueError, match="between 1 and N-1"):
        stats.subset_sum_tail(values, 0, 1.0)
    with pytest.raises(ValueError, match="NaN"):
        stats.subset_sum_tail(np.array([1.0, np.nan, 2.0]), 1, 1.0)
    with pytest.raises(ValueError, match="degenerate"):
        stats.subset_sum_tail_normal(np.ones(6), 3, 3.0)


def test_exact_matches_scipy_permutation_test():
    """Differential test: SciPy enumerates all partitions when n_resamples exceeds their number."""
    rng = np.random.default_rng(11)
    x, y = rng.normal(0.4, 1, size=7), rng.normal(0, 1, size=7)
    res = sps.permutation_test((x, y), lambda a, b, axis: a.sum(axis=axis) - b.sum(axis=axis),
                               permutation_type="independent", alternative="greater",
                               n_resamples=10**6, vectorized=True)
    ours = stats.subset_sum_tail_exact(np.concatenate([x, y]), 7, x.sum())
    assert ours.p_value == pytest.approx(res.pvalue, rel=1e-12)
