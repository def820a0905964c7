import itertools
from math import comb, sqrt

import numpy as np
import pytest
from scipy import stats as sps

from wordbias.core.errors import ExactCountTooLarge
from wordbias.stats import exact_count, montecarlo, permutation, subset_sums


def brute_count(values, k, threshold):
    values = np.asarray(values, dtype=float)
    return sum(1 for c in itertools.combinations(range(len(values)), k)
               if values[list(c)].sum() >= threshold - 1e-9)


@pytest.mark.parametrize("n,k,seed", [(4, 2, 0), (9, 4, 1), (12, 6, 2), (13, 5, 3), (14, 7, 4)])
def test_meet_in_the_middle_matches_enumeration(n, k, seed):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=n)
    for threshold in (values[:k].sum(), 0.0, values.max() * k, -10.0):
        assert exact_count.count_subsets_at_least(values, k, threshold) == brute_count(values, k, threshold)


def test_ties_are_counted_as_extreme():
    values = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])  # many equal subset sums
    for thr in (0, 1, 2, 3):
        assert exact_count.count_subsets_at_least(values, 3, thr) == brute_count(values, 3, thr)
    p = permutation.subset_sum_tail_exact(values, 3, 3.0)
    assert p.p_value == 1 / comb(6, 3)  # only the observed partition reaches the maximum


def test_exact_p_is_never_zero_and_has_resolution():
    values = np.arange(10.0)
    p = permutation.subset_sum_tail_exact(values, 5, values[5:].sum())
    assert p.p_value == 1 / comb(10, 5) == p.resolution


def test_monte_carlo_agrees_with_exact_within_error():
    rng = np.random.default_rng(7)
    values = rng.normal(size=16)
    obs = np.sort(values)[-8:].sum() - 1.5
    exact = permutation.subset_sum_tail_exact(values, 8, obs)
    mc = permutation.subset_sum_tail_mc(values, 8, obs, n_permutations=200_000, seed=3)
    assert mc.p_method == "monte-carlo" and mc.n_permutations == 200_000
    assert abs(mc.p_value - exact.p_value) < 4 * mc.se + 1 / 200_001


def test_monte_carlo_add_one_rule_and_determinism():
    values = np.arange(20.0)
    top = values[10:].sum()
    mc = permutation.subset_sum_tail_mc(values, 10, top, n_permutations=1000, seed=1)
    # the maximum is one partition in 184756: almost surely never drawn, so p = 1/(R+1)
    assert mc.p_value == pytest.approx((mc.n_extreme + 1) / 1001)
    again = permutation.subset_sum_tail_mc(values, 10, 95.0, n_permutations=5000, seed=11)
    same = permutation.subset_sum_tail_mc(values, 10, 95.0, n_permutations=5000, seed=11)
    other = permutation.subset_sum_tail_mc(values, 10, 95.0, n_permutations=5000, seed=12)
    assert again == same
    assert again.n_extreme != other.n_extreme or again.p_value != other.p_value


def test_random_subsets_are_uniform():
    # each element should be in a random k-subset with probability k/N
    values = np.eye(6)[0]  # only element 0 counts
    sums = montecarlo.random_subset_sums(values, 2, 60_000, np.random.default_rng(0))
    assert abs(sums.mean() - 2 / 6) < 0.01


def test_normal_moments_match_enumeration():
    rng = np.random.default_rng(5)
    values = rng.normal(size=10)
    sums = np.array([values[list(c)].sum() for c in itertools.combinations(range(10), 4)])
    mean, sd = subset_sums.subset_sum_moments(values, 4)
    assert mean == pytest.approx(sums.mean())
    assert sd == pytest.approx(sums.std(ddof=0))


def test_normal_approximation_close_for_large_sets():
    rng = np.random.default_rng(9)
    values = rng.normal(size=40)
    obs = values[:20].sum() + 2.0
    exact = permutation.subset_sum_tail_exact(values, 20, obs).p_value
    normal = permutation.subset_sum_tail_normal(values, 20, obs).p_value
    assert abs(exact - normal) < 0.02


def test_dispatch_and_errors():
    values = np.arange(8.0)
    assert permutation.subset_sum_tail(values, 4, 20.0).p_method == "exact"
    big = np.arange(60.0)
    assert permutation.subset_sum_tail(big, 30, 900.0, n_permutations=1000).p_method == "monte-carlo"
    with pytest.raises(ValueError, match="p_method must be one of"):
        permutation.subset_sum_tail(values, 4, 1.0, p_method="bogus")
    with pytest.raises(ValueError, match="between 1 and N-1"):
        permutation.subset_sum_tail(values, 0, 1.0)
    with pytest.raises(ValueError, match=r"non-finite values at positions \[1\]"):
        permutation.subset_sum_tail(np.array([1.0, np.nan, 2.0]), 1, 1.0)
    with pytest.raises(ValueError, match="degenerate"):
        permutation.subset_sum_tail_normal(np.ones(6), 3, 3.0)


def test_exact_matches_scipy_permutation_test():
    """Differential test: SciPy enumerates all partitions when n_resamples exceeds their number."""
    rng = np.random.default_rng(11)
    x, y = rng.normal(0.4, 1, size=7), rng.normal(0, 1, size=7)
    res = sps.permutation_test((x, y), lambda a, b, axis: a.sum(axis=axis) - b.sum(axis=axis),
                               permutation_type="independent", alternative="greater",
                               n_resamples=10**6, vectorized=True)
    ours = permutation.subset_sum_tail_exact(np.concatenate([x, y]), 7, x.sum())
    assert ours.p_value == pytest.approx(res.pvalue, rel=1e-12)


# --------------------------------------------------------------------------------------------------
# the exact count beyond plain enumeration: checked against an independent dynamic programme
# --------------------------------------------------------------------------------------------------

def dp_count(values, k, threshold):
    """#{size-k subsets with sum >= threshold} for values that are multiples of 1/4 (exact in floats),
    by dynamic programming over (size, sum): independent of the meet in the middle."""
    q = np.round(np.asarray(values) * 4).astype(np.int64)
    lo = int(q[q < 0].sum())
    width = int(np.abs(q).sum()) + 1
    table = np.zeros((k + 1, width), dtype=np.int64)  # table[j, s - lo]: subsets of size j with sum s
    table[0, -lo] = 1
    for v in q:
        shifted = np.zeros_like(table)
        if v >= 0:
            shifted[1:, v:] = table[:-1, :width - v]
        else:
            shifted[1:, :width + v] = table[:-1, -v:]
        table = table + shifted
    sums = (np.arange(width) + lo) / 4
    return int(table[k, sums >= threshold].sum())


@pytest.mark.parametrize("n,k,seed", [(40, 20, 0), (41, 13, 1), (64, 32, 2), (61, 25, 3)])
def test_exact_count_matches_dynamic_programme(n, k, seed):
    """Many ties (values on a grid of 1/4), thresholds on attained sums, both tails, N up to 64."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-12, 13, size=n) / 4
    srt = np.sort(values)
    lo_tail, hi_tail = srt[:k].sum() + 1.0, srt[-k:].sum() - 1.0   # a handful of subsets each
    thresholds = [hi_tail, lo_tail]
    if n <= 41:  # every subset sum is kept: thresholds anywhere
        thresholds += [values[:k].sum(), k * values.mean(), srt[-k:].sum(), srt[:k].sum()]
    for thr in thresholds:
        assert exact_count.count_subsets_at_least(values, k, thr) == dp_count(values, k, thr), thr
    assert exact_count.count_subsets_at_least(values, k, srt[-k:].sum()) >= 1  # the top subset reaches its own sum


def test_exact_count_does_not_depend_on_order_or_threads():
    rng = np.random.default_rng(4)
    values = rng.normal(size=64)
    obs = np.sort(values)[-32:].sum() - 4.0   # far in the upper tail: the pruned count
    counts = {exact_count.count_subsets_at_least(values[rng.permutation(64)], 32, obs, workers=w) for w in (1, 2)
              for _ in range(2)}
    assert len(counts) == 1 and counts.pop() > 0


def test_exact_count_too_large_is_reported_and_auto_falls_back():
    rng = np.random.default_rng(6)
    values = rng.normal(size=64)
    with pytest.raises(ExactCountTooLarge, match="monte-carlo"):
        exact_count.count_subsets_at_least(values, 32, values[:32].sum(), max_sums=10_000)
    auto = permutation.subset_sum_tail(values, 32, values[:32].sum(), n_permutations=1000)
    assert auto.p_method == "monte-carlo"
    far = permutation.subset_sum_tail(values, 32, np.sort(values)[-32:].sum() - 2.0, n_permutations=1000)
    assert far.p_method == "exact" and far.n_extreme >= 1  # far in the tail: the pruned count is cheap
    assert permutation.EXACT_MAX_N >= 50  # "auto" counts every 25+25 test exactly


# --------------------------------------------------------------------------------------------------
# Monte Carlo: reproducible on any number of threads, uniform draws
# --------------------------------------------------------------------------------------------------

def test_monte_carlo_bit_identical_on_any_number_of_threads():
    rng = np.random.default_rng(8)
    values = rng.normal(size=30)
    runs = [permutation.subset_sum_tail_mc(values, 15, values[:15].sum(), n_permutations=3 * montecarlo.MC_BLOCK + 17, seed=5,
                                     workers=w) for w in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]
    sums = [montecarlo.random_subset_sums(values, 11, 2 * montecarlo.MC_BLOCK + 5, 9, workers=w) for w in (1, 3)]
    assert np.array_equal(sums[0], sums[1])
    # the first R draws do not depend on how many follow
    longer = montecarlo.random_subset_sums(values, 11, 4 * montecarlo.MC_BLOCK, 9)
    assert np.array_equal(longer[:sums[0].size], sums[0])


def test_monte_carlo_seed_from_generator_is_reproducible():
    values = np.arange(12.0)
    a = permutation.subset_sum_tail_mc(values, 6, 40.0, n_permutations=5000, seed=np.random.default_rng(3))
    b = permutation.subset_sum_tail_mc(values, 6, 40.0, n_permutations=5000, seed=np.random.default_rng(3))
    g = np.random.default_rng(3)
    c1 = permutation.subset_sum_tail_mc(values, 6, 40.0, n_permutations=5000, seed=g)
    assert a == b == c1
    # the generator has moved on: the next call's draws differ (compared draw by draw, not by a count that
    # two streams can share by chance)
    g = np.random.default_rng(3)
    s1 = montecarlo.random_subset_sums(values, 6, 5000, g)
    s2 = montecarlo.random_subset_sums(values, 6, 5000, g)
    assert np.array_equal(s1, montecarlo.random_subset_sums(values, 6, 5000, np.random.default_rng(3)))
    assert not np.array_equal(s1, s2)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_monte_carlo_draws_every_subset_equally_often_and_independently(k):
    """Values 1, 2, 4, ... make every subset's sum distinct. Chi-square of the subset frequencies, and of
    the pairs of consecutive draws (the working copy is not reset between draws, so a biased swap would
    show up as dependence), and of the first draw of many seeds. k = 4 of 6 draws the complement."""
    values = 2.0 ** np.arange(6)
    expected = np.sort([sum(values[list(c)]) for c in itertools.combinations(range(6), k)])
    m = expected.size
    sums = montecarlo.random_subset_sums(values, k, 200_000, 0)
    codes = np.searchsorted(expected, sums)
    assert np.array_equal(expected[codes], sums)
    assert sps.chisquare(np.bincount(codes, minlength=m)).pvalue > 1e-3
    assert sps.chisquare(np.bincount(codes[:-1] * m + codes[1:], minlength=m * m)).pvalue > 1e-3
    first = [montecarlo.random_subset_sums(values, k, 1, seed)[0] for seed in range(3000)]
    assert sps.chisquare(np.bincount(np.searchsorted(expected, first), minlength=m)).pvalue > 1e-3


# --------------------------------------------------------------------------------------------------
# differential tests against scipy.permutation.permutation_test on the same data
# --------------------------------------------------------------------------------------------------

def _weat_d(a, b, axis):
    pooled = np.concatenate([a, b], axis=axis)
    return (a.mean(axis=axis) - b.mean(axis=axis)) / pooled.std(axis=axis, ddof=1)


def _weat_s(a, b, axis):
    return a.sum(axis=axis) - b.sum(axis=axis)


@pytest.mark.parametrize("nx,ny,seed", [(7, 7, 12), (6, 9, 13)])
def test_statistic_effect_size_and_exact_p_match_scipy(nx, ny, seed):
    """SciPy enumerates every partition when n_resamples exceeds their number; both the statistic s and
    the effect size d are monotone in the subset sum, so both give our exact p."""
    from wordbias.measures.association import weat

    rng = np.random.default_rng(seed)
    x, y = rng.normal(0.5, 1, size=nx), rng.normal(0, 1, size=ny)
    s, d, p = weat.weat_from_scores(x, y)
    assert p.p_method == "exact"
    for fn, ours in ((_weat_s, s), (_weat_d, d)):
        res = sps.permutation_test((x, y), fn, permutation_type="independent", alternative="greater",
                                   n_resamples=10**6, vectorized=True)
        assert res.statistic == pytest.approx(ours, rel=1e-12)
        assert res.pvalue == pytest.approx(p.p_value, rel=1e-12)


def test_25_plus_25_exact_against_dp_and_monte_carlo_against_scipy():
    """N = 50 near the centre of the distribution, where every subset sum is needed: the exact count
    against the dynamic programme; then, at equal numbers of random partitions, SciPy's and our Monte
    Carlo p (both add-one) agree with the exact p within their binomial errors."""
    from wordbias.measures.association import weat

    rng = np.random.default_rng(14)
    x = np.round(rng.normal(0.2, 1, size=25) * 4) / 4    # a grid of 1/4: exact sums, ties, DP-checkable
    y = np.round(rng.normal(0, 1, size=25) * 4) / 4
    exact = weat.p_value(x, y)
    assert exact.p_method == "exact" and 0.01 < exact.p_value < 0.5
    assert exact.n_extreme == dp_count(np.concatenate([x, y]), 25, x.sum())
    R = 20_000
    ours = weat.p_value(x, y, p_method="monte-carlo", n_permutations=R, seed=1)
    res = sps.permutation_test((x, y), _weat_s, permutation_type="independent", alternative="greater",
                               n_resamples=R, vectorized=True, random_state=1)
    se = sqrt(exact.p_value * (1 - exact.p_value) / R)
    assert abs(ours.p_value - exact.p_value) < 4 * se + 1 / (R + 1)
    assert abs(res.pvalue - exact.p_value) < 4 * se + 1 / (R + 1)


# cost checked before work
def test_mc_cost_estimates_and_refusals():
    from wordbias.core.errors import TooCostlyError

    seconds, n_bytes = montecarlo.mc_cost(50, 25, 10 ** 20, workers=1)
    assert 4.8e16 < n_bytes < 4.9e16 and seconds > 1e12          # 43 PiB of block counts
    seconds, n_bytes = montecarlo.mc_cost(16, 8, 10 ** 7, workers=2, store=True)
    assert seconds < 1 and n_bytes == pytest.approx(8e7 + 8 * (10 ** 7 / montecarlo.MC_BLOCK + 1))
    montecarlo.check_mc_cost(50, 25, 10 ** 7)                    # the Caliskan notebook's request: accepted
    with pytest.raises(TooCostlyError, match=r"estimated to take .* p_method='normal'"):
        montecarlo.check_mc_cost(16, 8, 10 ** 12)
    with pytest.raises(TooCostlyError, match="p_method='normal'"):
        permutation.subset_sum_tail_exact(np.random.default_rng(1).normal(size=60), 30, 0.0, max_sums=2 ** 10)


# --------------------------------------------------------------------------------------------------
# alternatives: "less" and "two-sided" (SciPy's doubling rule), against enumeration and SciPy
# --------------------------------------------------------------------------------------------------

def brute_tails(values, k, obs):
    sums = np.array([np.asarray(values)[list(c)].sum() for c in itertools.combinations(range(len(values)), k)])
    p_ge, p_le = np.mean(sums >= obs - 1e-9), np.mean(sums <= obs + 1e-9)
    return p_ge, p_le, min(1.0, 2 * min(p_ge, p_le))


@pytest.mark.parametrize("n,k,seed", [(6, 3, 0), (9, 4, 1), (12, 6, 2), (13, 5, 3)])
def test_exact_alternatives_match_enumeration(n, k, seed):
    rng = np.random.default_rng(seed)
    values = rng.exponential(size=n)                     # skewed: the two tails differ
    for obs in (values[:k].sum(), values[-k:].sum(), np.sort(values)[:k].sum(), np.median(values) * k):
        p_ge, p_le, p_two = brute_tails(values, k, obs)
        got = {a: permutation.subset_sum_tail_exact(values, k, obs, alternative=a) for a in permutation.ALTERNATIVES}
        assert got["greater"].p_value == pytest.approx(p_ge, rel=1e-12)
        assert got["less"].p_value == pytest.approx(p_le, rel=1e-12)
        assert got["two-sided"].p_value == pytest.approx(p_two, rel=1e-12)
        assert [got[a].alternative for a in permutation.ALTERNATIVES] == list(permutation.ALTERNATIVES)
        assert got["two-sided"].n_extreme == min(got["greater"].n_extreme, got["less"].n_extreme)


def test_exact_alternatives_by_hand():
    # the C(4, 2) = 6 sums of {1, 2, 3, 4}: 3, 4, 5, 5, 6, 7
    values = [1.0, 2.0, 3.0, 4.0]
    tail = lambda obs, a: permutation.subset_sum_tail_exact(values, 2, obs, alternative=a).p_value  # noqa: E731
    assert tail(4.0, "less") == 2 / 6 and tail(4.0, "greater") == 5 / 6 and tail(4.0, "two-sided") == 4 / 6
    assert tail(5.0, "less") == 4 / 6 and tail(5.0, "greater") == 4 / 6 and tail(5.0, "two-sided") == 1.0  # capped
    assert tail(3.0, "two-sided") == 2 / 6


@pytest.mark.parametrize("alternative", ["less", "two-sided", "greater"])
@pytest.mark.parametrize("seed,shift", [(21, 0.6), (22, -0.6), (23, 0.0)])
def test_exact_alternatives_match_scipy_permutation_test(alternative, seed, shift):
    rng = np.random.default_rng(seed)
    x, y = rng.gamma(2.0, size=7) + shift, rng.gamma(2.0, size=6)
    res = sps.permutation_test((x, y), lambda a, b, axis: a.sum(axis=axis), permutation_type="independent",
                               alternative=alternative, n_resamples=10**6, vectorized=True)
    ours = permutation.subset_sum_tail(np.concatenate([x, y]), 7, x.sum(), alternative=alternative)
    assert ours.p_method == "exact" and ours.alternative == alternative
    assert ours.p_value == pytest.approx(res.pvalue, rel=1e-12)


def test_exact_alternatives_with_ties_match_scipy():
    values = np.array([0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 2.0, 3.0])   # many equal subset sums
    x, y = values[[1, 2, 5, 7]], values[[0, 3, 4, 6]]
    for alternative in permutation.ALTERNATIVES:
        res = sps.permutation_test((x, y), lambda a, b, axis: a.sum(axis=axis), permutation_type="independent",
                                   alternative=alternative, n_resamples=10**6, vectorized=True)
        ours = permutation.subset_sum_tail_exact(np.concatenate([x, y]), 4, x.sum(), alternative=alternative)
        assert ours.p_value == pytest.approx(res.pvalue, rel=1e-12)


def test_monte_carlo_default_unchanged_and_tails_share_draws():
    values = np.random.default_rng(8).normal(size=30)
    obs = values[:12].sum() - 1.5
    kw = dict(n_permutations=3 * montecarlo.MC_BLOCK + 11, seed=4)
    default = permutation.subset_sum_tail_mc(values, 12, obs, **kw)
    greater = permutation.subset_sum_tail_mc(values, 12, obs, alternative="greater", **kw)
    less = permutation.subset_sum_tail_mc(values, 12, obs, alternative="less", **kw)
    two = permutation.subset_sum_tail_mc(values, 12, obs, alternative="two-sided", **kw)
    assert default == greater and default.alternative == "greater"
    # the same draws, stored, counted by numpy
    sums = montecarlo.random_subset_sums(values, 12, kw["n_permutations"], 4)
    tol = subset_sums.TIE_RTOL * np.abs(values).sum()
    assert greater.n_extreme == int((sums >= obs - tol).sum())
    assert less.n_extreme == int((sums <= obs + tol).sum())
    R = kw["n_permutations"]
    assert less.p_value == (less.n_extreme + 1) / (R + 1)
    assert two.p_value == min(1.0, 2 * min(greater.p_value, less.p_value))
    assert two.n_extreme == min(greater.n_extreme, less.n_extreme) and two.resolution == 2 / (R + 1)
    # "less" is "greater" on the negated values, bit for bit (the same draws, negated sums)
    neg = permutation.subset_sum_tail_mc(-values, 12, -obs, **kw)
    assert (neg.n_extreme, neg.p_value, neg.se) == (less.n_extreme, less.p_value, less.se)
    # workers do not matter
    assert permutation.subset_sum_tail_mc(values, 12, obs, alternative="two-sided", workers=3, **kw) == two
    # draws the complement side (k > N − k) as well
    big = permutation.subset_sum_tail_mc(values, 20, values[:20].sum(), alternative="less", **kw)
    sums20 = montecarlo.random_subset_sums(values, 20, R, 4)
    assert big.n_extreme == int((sums20 <= values[:20].sum() + tol).sum())


@pytest.mark.parametrize("alternative", ["less", "two-sided"])
def test_monte_carlo_alternatives_near_exact_and_scipy(alternative):
    rng = np.random.default_rng(31)
    x, y = rng.exponential(size=9) - 0.2, rng.exponential(size=9)
    values, obs = np.concatenate([x, y]), x.sum()
    exact = permutation.subset_sum_tail_exact(values, 9, obs, alternative=alternative).p_value
    R = 40_000
    mc = permutation.subset_sum_tail_mc(values, 9, obs, n_permutations=R, seed=2, alternative=alternative)
    res = sps.permutation_test((x, y), lambda a, b, axis: a.sum(axis=axis), permutation_type="independent",
                               alternative=alternative, n_resamples=R, vectorized=True, random_state=2)
    se = 2 * sqrt(exact * (1 - min(exact, 0.999)) / R) + 2 / (R + 1)
    assert 0.02 < exact < 0.9
    assert abs(mc.p_value - exact) < 4 * se and abs(res.pvalue - exact) < 4 * se


def test_normal_alternatives():
    values = np.random.default_rng(5).normal(size=20)
    mean, sd = subset_sums.subset_sum_moments(values, 8)
    for obs in (mean + 1.3 * sd, mean - 0.7 * sd):
        z = (obs - mean) / sd
        g, le, two = (permutation.subset_sum_tail_normal(values, 8, obs, alternative=a).p_value
                      for a in permutation.ALTERNATIVES)
        assert g == pytest.approx(sps.norm.sf(z)) and le == pytest.approx(sps.norm.cdf(z))
        assert two == pytest.approx(2 * sps.norm.sf(abs(z)))


def test_auto_pruned_exact_two_sided_for_large_n():
    values = np.random.default_rng(4).normal(size=64)
    obs = np.sort(values)[:32].sum() + 2.0                  # far in the lower tail: the pruned count finishes
    less = permutation.subset_sum_tail(values, 32, obs, alternative="less", n_permutations=1000)
    two = permutation.subset_sum_tail(values, 32, obs, alternative="two-sided", n_permutations=1000)
    assert less.p_method == "exact" and two.p_method == "exact"
    assert less.n_extreme == exact_count.count_subsets_at_least(-values, 32, -obs)
    assert two.p_value == 2 * less.p_value and two.n_extreme == less.n_extreme


def test_alternative_is_checked():
    with pytest.raises(ValueError, match="alternative"):
        permutation.subset_sum_tail(np.arange(6.0), 3, 3.0, alternative="both")
    with pytest.raises(ValueError, match="alternative"):
        permutation.subset_sum_tail_mc(np.arange(6.0), 3, 3.0, alternative="two_sided")


@pytest.mark.parametrize("k", [np.uint8(1), np.uint16(1), np.uint64(1), np.int8(1), np.int64(1)])
def test_numpy_integer_k_is_a_python_int(k):
    """Found by the fuzzing pass: an unsigned numpy k wrapped around in k - j (IndexError, OverflowError).
    Every method gives the result of the Python int k, bit for bit."""
    values = [0.0, 1.0, 2.0, 3.0]
    assert permutation.subset_sum_tail(values, k, 3.0).p_value == 0.25
    assert permutation.subset_sum_tail_exact(values, k, 3.0) == permutation.subset_sum_tail_exact(values, 1, 3.0)
    assert exact_count.count_subsets_at_least(values, k, 3.0) == 1
    assert (permutation.subset_sum_tail_mc(values, k, 3.0, n_permutations=500, seed=np.uint8(3))
            == permutation.subset_sum_tail_mc(values, 1, 3.0, n_permutations=500, seed=3))
    assert permutation.subset_sum_tail_normal(values, k, 3.0) == permutation.subset_sum_tail_normal(values, 1, 3.0)
    assert subset_sums.subset_sum_moments(values, k) == subset_sums.subset_sum_moments(values, 1)


def test_boundary_errors_are_wordbias_errors():
    from wordbias.core.errors import DegenerateSetError, InvalidParameterError

    with pytest.raises(DegenerateSetError, match=r"values holds 0 value\(s\)"):
        permutation.subset_sum_tail([], 0, 0.0)
    with pytest.raises(InvalidParameterError, match=r"k must be an integer, not '1'"):
        permutation.subset_sum_tail([0.0, 1.0], "1", 0.0)
    with pytest.raises(InvalidParameterError, match=r"observed_sum must be a number, not None"):
        permutation.subset_sum_tail([0.0, 0.0], 1, None)
    with pytest.raises(InvalidParameterError, match=r"observed_sum must be finite"):
        permutation.subset_sum_tail_mc([0.0, 1.0, 2.0], 1, float("nan"), n_permutations=10)
    with pytest.raises(InvalidParameterError, match=r"between 1 and N-1 \(N=2\)"):
        permutation.subset_sum_tail([0.0, 1.0], 2 ** 64, 0.0)


def _separately(values, k, obs):
    exact_count._MEMO.clear()
    upper = exact_count.count_subsets_at_least(values, k, obs, workers=1)
    exact_count._MEMO.clear()
    lower = exact_count.count_subsets_at_least(-np.asarray(values, dtype=float), k, -obs, workers=1)
    exact_count._MEMO.clear()
    return upper, lower


def test_both_tails_from_one_build_are_the_two_separate_counts():
    """count_both_tails shares one build of the subset sums between the two tails (and remembers counts): the
    integers must be those of two separate counts, whatever side of the mean the statistic lies on, at the mean,
    with ties, and for sizes where pruning keeps few or all sums."""
    rng = np.random.default_rng(7)
    cases = []
    for n, k in ((6, 3), (10, 5), (16, 8), (20, 7), (24, 12)):
        v = rng.normal(size=n)
        sums = [v[rng.choice(n, k, replace=False)].sum() for _ in range(6)]
        cases += [(v, k, s) for s in sums] + [(v, k, k * v.mean()), (v, k, v[:k].sum())]
        t = np.round(rng.normal(size=n), 1)                      # many tied subset sums
        cases += [(t, k, t[:k].sum()), (t, k, np.sort(t)[-k:].sum()), (t, k, np.sort(t)[:k].sum())]
    for v, k, obs in cases:
        expected = _separately(v, k, obs)
        exact_count._MEMO.clear()
        assert exact_count.count_both_tails(v, k, obs, workers=1) == expected, (v, k, obs)
        assert exact_count.count_both_tails(v, k, obs, workers=1) == expected     # from the memory


def test_the_two_sided_exact_p_is_that_of_its_two_one_sided_counts():
    rng = np.random.default_rng(3)
    v = rng.normal(size=22)
    for obs in (v[:11].sum(), v[11:].sum(), 11 * v.mean() + 1e-3):
        upper, lower = _separately(v, 11, obs)
        p = permutation.subset_sum_tail_exact(v, 11, obs, alternative="two-sided", workers=1)
        total = comb(22, 11)
        assert p.p_value == min(1.0, 2 * min(upper / total, lower / total)) and p.n_extreme == min(upper, lower)
        assert permutation.subset_sum_tail_exact(v, 11, obs, workers=1).n_extreme == upper
        assert permutation.subset_sum_tail_exact(v, 11, obs, alternative="less", workers=1).n_extreme == lower


def test_the_memory_keys_every_input_of_a_count():
    def brute(v, k, thr):
        return sum(sum(c) >= thr - 1e-9 for c in itertools.combinations(v, k))

    v = np.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    exact_count._MEMO.clear()
    for values, k, thr in ((v, 3, 6.0), (v, 3, 6.5), (v, 2, 4.0), (2 * v, 3, 6.0), (v, 3, 6.0)):
        assert exact_count.count_subsets_at_least(values, k, thr) == brute(values, k, thr), (values, k, thr)
    assert len(exact_count._MEMO) == 4                                   # the repeated count was remembered
    rng = np.random.default_rng(0)
    for _ in range(exact_count._MEMO_SIZE + 5):
        exact_count.count_subsets_at_least(rng.normal(size=8), 4, 0.0)
    assert len(exact_count._MEMO) == exact_count._MEMO_SIZE              # bounded
