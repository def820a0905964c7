"""The Monte Carlo's bit-mask draws (``kernels._mc_mask_blocks``, N ≤ 128): every k-subset equally likely
(chi-square over all subsets of small N, and over the patterns of 8 positions across the two words of
N = 70 and 100), the same p and sums on 1, 2 and 4 threads, and the choice of method."""

import itertools
from math import comb

import numpy as np
import pytest
from scipy import stats as sps

from wordbias.stats import montecarlo, permutation


def subset_codes(n, k, sums):
    """Values 2^i make each subset's sum its bit mask: the index of each sum among the C(n, k) masks."""
    masks = np.sort([sum(1 << i for i in c) for c in itertools.combinations(range(n), k)])
    codes = np.searchsorted(masks, sums.astype(np.int64))
    assert np.array_equal(masks[codes], sums.astype(np.int64))      # every draw is a k-subset
    return codes, masks.size


@pytest.mark.parametrize("n,k", [(4, 2), (6, 3), (7, 2), (8, 6), (9, 3), (10, 5), (11, 4), (12, 9)])
def test_bit_masks_draw_every_subset_equally_often_and_independently(n, k):
    """Chi-square of the frequencies of all C(n, k) subsets (q/8 = 1/2, 1/4, 3/8, 3/4, ... : the law of the
    result must not depend on q), and of pairs of consecutive draws."""
    assert montecarlo.mc_uses_mask(n, k)
    sums = montecarlo.random_subset_sums(2.0 ** np.arange(n), k, 300_000, 5)
    codes, m = subset_codes(n, k, sums)
    assert sps.chisquare(np.bincount(codes, minlength=m)).pvalue > 1e-3
    if m <= 40:
        assert sps.chisquare(np.bincount(codes[:-1] * m + codes[1:], minlength=m * m)).pvalue > 1e-3


def test_bit_masks_first_draw_of_many_seeds_is_uniform():
    first = np.array([montecarlo.random_subset_sums(2.0 ** np.arange(6), 3, 1, seed)[0] for seed in range(4000)])
    codes, m = subset_codes(6, 3, first)
    assert sps.chisquare(np.bincount(codes, minlength=m)).pvalue > 1e-3


@pytest.mark.parametrize("n,k", [(70, 35), (100, 50), (100, 30), (128, 64)])
def test_bit_masks_two_words_are_uniform(n, k):
    """The masks do not depend on the values, so runs with the same seed, with 2^i on 50 positions at a time
    (exact in float64), give each draw's whole subset. Each has k members; each position is in with
    probability k/n; the pattern of the 8 positions across the words' boundary (60..67) has the law of a
    uniform k-subset: Pr[pattern with j ones] = C(n − 8, k − j) / C(n, k)."""
    assert montecarlo.mc_uses_mask(n, k)
    R = 200_000
    parts = []
    for a in range(0, n, 50):
        b = min(a + 50, n)
        values = np.zeros(n)
        values[a:b] = 2.0 ** np.arange(b - a)
        s = montecarlo.random_subset_sums(values, k, R, 11).astype(np.uint64)
        parts.append((s[:, None] >> np.arange(b - a, dtype=np.uint64)) & np.uint64(1))
    bits = np.concatenate(parts, axis=1).astype(np.int64)
    assert np.all(bits.sum(axis=1) == k)
    freq = bits.mean(axis=0)
    assert np.all(np.abs(freq - k / n) < 5 * np.sqrt(k / n * (1 - k / n) / R))
    window = bits[:, 60:68]
    codes = window @ (1 << np.arange(8))
    ones = np.array([bin(c).count("1") for c in range(256)])
    expected = np.array([comb(n - 8, k - j) / comb(n, k) for j in ones]) * R
    assert sps.chisquare(np.bincount(codes, minlength=256), expected).pvalue > 1e-3


@pytest.mark.parametrize("n,k", [(16, 8), (50, 25), (64, 32), (100, 50), (100, 40), (128, 64)])
def test_bit_masks_same_p_and_sums_on_1_2_and_4_threads(n, k):
    values = np.random.default_rng(n).normal(size=n)
    R = 3 * montecarlo.MC_BLOCK + 17
    obs = values[:k].sum()
    runs = [permutation.subset_sum_tail_mc(values, k, obs, n_permutations=R, seed=5, workers=w,
                                           alternative="two-sided") for w in (1, 2, 4)]
    assert runs[0] == runs[1] == runs[2]
    sums = [montecarlo.random_subset_sums(values, k, R, 5, workers=w) for w in (1, 2, 4)]
    assert np.array_equal(sums[0], sums[1]) and np.array_equal(sums[0], sums[2])
    longer = montecarlo.random_subset_sums(values, k, 5 * montecarlo.MC_BLOCK, 5)
    assert np.array_equal(longer[:R], sums[0])        # the first R draws do not depend on how many follow


def test_method_choice_and_parameters():
    assert montecarlo.mc_uses_mask(100, 50) and montecarlo.mc_uses_mask(128, 32)
    assert not montecarlo.mc_uses_mask(129, 64)       # more than two 64-bit words: Fisher–Yates
    assert not montecarlo.mc_uses_mask(100, 24)       # a small side: Fisher–Yates is cheaper
    assert montecarlo.mc_mask_parameters(100, 50) == (4, 2)
    for n in range(2, 129):
        for k in range(1, n):
            q, window = montecarlo.mc_mask_parameters(n, k)
            assert 1 <= q <= 7 and window >= 2


def test_bit_masks_agree_with_the_exact_p():
    values = np.random.default_rng(3).normal(size=40)
    obs = np.sort(values)[-20:].sum() - 3.0
    exact = permutation.subset_sum_tail_exact(values, 20, obs)
    mc = permutation.subset_sum_tail_mc(values, 20, obs, n_permutations=400_000, seed=2)
    assert abs(mc.p_value - exact.p_value) < 4 * mc.se + 1 / 400_001
