"""Pins the outputs of the compiled kernels (wordbias.stats.kernels), through the public functions that call
them: exact subset counts, Monte Carlo counts, p-values and sums for fixed seeds (UBE's kernels:
tests/measures/enumeration/test_ube_kernels.py).

The values were recorded before the kernels moved out of ``permutation.py``; any change to the kernels must
keep them bit for bit (the committed results depend on them). The Monte Carlo pins of that time are the
partial Fisher–Yates draws (``kernels._mc_blocks``), still used for N > 128 or a small side under N/4, and
checked here with every draw forced through it; the bit-mask draws (``kernels._mc_mask_blocks``, N ≤ 128)
have their own pins, recorded when they were introduced. The inputs avoid platform differences: the
counts and draws are scalar float64 code (no BLAS).
"""

import hashlib
import itertools

import numpy as np
import pytest

from wordbias.stats import exact_count, montecarlo, permutation


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("threshold,count", [(None, 136), (0.0, 926), (-1.5, 1977), (2.5, 41)])
def test_exact_counts_small(threshold, count):
    values = np.random.default_rng(0).normal(size=14)
    threshold = values[:7].sum() if threshold is None else threshold
    assert exact_count.count_subsets_at_least(values, 7, threshold) == count


def test_exact_counts_pruned_and_complement():
    v64 = np.random.default_rng(4).normal(size=64)
    srt = np.sort(v64)
    assert exact_count.count_subsets_at_least(v64, 32, srt[-32:].sum() - 4.0) == 673498815          # upper tail
    assert exact_count.count_subsets_at_least(v64, 32, srt[:32].sum() + 4.0) == 1832624140269091740  # lower tail
    v40 = np.random.default_rng(1).normal(size=40)
    assert exact_count.count_subsets_at_least(v40, 13, v40[:13].sum()) == 2852257694


@pytest.fixture
def fisher_yates(monkeypatch):
    """Every draw by the partial Fisher–Yates shuffle (the only method before the bit masks)."""
    monkeypatch.setattr(montecarlo, "mc_uses_mask", lambda n, k: False)


@pytest.mark.usefixtures("fisher_yates")
@pytest.mark.parametrize("k,seed,R,extreme,p,se", [
    (15, 5, 3 * 2 ** 14 + 17, 31715, "0x1.4a4109e712564p-1", "0x1.1ad8b07249687p-9"),
    (20, 2, 50_000, 23316, "0x1.dd85c9bd446adp-2", "0x1.246bafa36e962p-9"),   # draws the complement
    (7, 123, 10_001, 9994, "0x1.ffa4449822cf2p-1", "0x1.1549d7613359dp-12"),
])
@pytest.mark.parametrize("workers", [1, 3])
def test_monte_carlo_counts_and_p_values(k, seed, R, extreme, p, se, workers):
    values = np.random.default_rng(8).normal(size=30)
    res = permutation.subset_sum_tail_mc(values, k, values[:k].sum(), n_permutations=R, seed=seed, workers=workers)
    assert res.n_extreme == extreme
    assert res.p_value == float.fromhex(p) and res.se == float.fromhex(se)


@pytest.mark.usefixtures("fisher_yates")
def test_monte_carlo_seeded_from_a_generator():
    values = np.random.default_rng(8).normal(size=30)
    res = permutation.subset_sum_tail_mc(values, 10, values[:10].sum(), n_permutations=20_000,
                                         seed=np.random.default_rng(7))
    assert res.n_extreme == 18581


@pytest.mark.usefixtures("fisher_yates")
@pytest.mark.parametrize("k,sha,picked", [
    (11, "eca9cd2aaa5eabc8", ["-0x1.0c0c2bf36d70cp+2", "-0x1.372ff5ffe7c6cp+2", "-0x1.8952a2d830920p-2",
                              "-0x1.62d104aafd924p-1"]),
    (19, "80d2c84867f69f3e", ["0x1.433be0a282f90p+0", "0x1.efcb08d46c510p+0", "-0x1.4550133a9352cp+1",
                              "-0x1.1dc6266ada007p+1"]),
])
def test_monte_carlo_sums(k, sha, picked):
    values = np.random.default_rng(8).normal(size=30)
    sums = montecarlo.random_subset_sums(values, k, 2 * 2 ** 14 + 5, 9)
    assert [x.hex() for x in sums[[0, 1, 2 ** 14, -1]]] == picked
    assert digest(sums) == sha


@pytest.mark.parametrize("k,seed,R,extreme,p,se", [
    (15, 5, 3 * 2 ** 14 + 17, 31851, "0x1.4bab9294ecb48p-1", "0x1.1a5882eb51464p-9"),
    (20, 2, 50_000, 23158, "0x1.da496df8644f2p-2", "0x1.244a2c6b275c3p-9"),
    (10, 3, 20_000, 18461, "0x1.d89a838d443bcp-1", "0x1.ee0170e5c8a54p-10"),
])
@pytest.mark.parametrize("workers", [1, 3])
def test_monte_carlo_bit_mask_counts_and_p_values(k, seed, R, extreme, p, se, workers):
    values = np.random.default_rng(8).normal(size=30)
    assert montecarlo.mc_uses_mask(30, k)
    res = permutation.subset_sum_tail_mc(values, k, values[:k].sum(), n_permutations=R, seed=seed, workers=workers)
    assert res.n_extreme == extreme
    assert res.p_value == float.fromhex(p) and res.se == float.fromhex(se)
    gen = permutation.subset_sum_tail_mc(values, 10, values[:10].sum(), n_permutations=20_000,
                                         seed=np.random.default_rng(7))
    assert gen.n_extreme == 18561


@pytest.mark.parametrize("n,k,sha,picked", [
    (30, 11, "98d84cbbe02067f5", ["-0x1.c5c6aa7291a97p+1", "0x1.90b4d38bfed47p+1", "0x1.2bbd7cbec0a30p-2",
                                  "0x1.1a397f3bb700bp+1"]),
    (30, 19, "3a85fc083990eec8", ["-0x1.a472bd8ad6370p-1", "-0x1.3a1d831d5acefp+2", "-0x1.b1ec5fe93e160p-2",
                                  "-0x1.0a6c5160b554dp+3"]),
])
def test_monte_carlo_bit_mask_sums(n, k, sha, picked):
    values = np.random.default_rng(8).normal(size=n)
    sums = montecarlo.random_subset_sums(values, k, 2 * 2 ** 14 + 5, 9)
    assert [x.hex() for x in sums[[0, 1, 2 ** 14, -1]]] == picked
    assert digest(sums) == sha


@pytest.mark.parametrize("n,sha,ends", [
    (64, "d7f8de89a49331be", ["-0x1.06ae918d6f95bp+3", "0x1.e9db34700dc86p+1"]),
    (65, "0220b35e72280a4e", ["-0x1.ac21f4ad7f5d2p+2", "-0x1.6f25c5c9a5e60p+0"]),
    (100, "55498ad1856f561f", ["-0x1.78f8aa7905720p+1", "0x1.80ac3a85fc9e1p+2"]),
])
def test_monte_carlo_bit_mask_sums_one_and_two_words(n, sha, ends):
    values = np.random.default_rng(8).normal(size=100)[:n]
    sums = montecarlo.random_subset_sums(values, n // 2, 2 ** 14 + 3, 9)
    assert [x.hex() for x in sums[[0, -1]]] == ends and digest(sums) == sha


# --------------------------------------------------------------------------------------------------
# the exact-count kernels called directly, against brute force
# --------------------------------------------------------------------------------------------------

def test_subset_sums_by_size_without_pruning_lists_every_sum_sorted():
    from wordbias.stats import kernels

    vals = np.array([3.0, 1.0, 2.0, 5.0])
    k_hi = 3
    tau = np.full(k_hi + 1, -np.inf)                   # every partial sum can still reach the threshold
    best = np.zeros((vals.size + 1, vals.size + 1))
    out, scratch = np.empty(16), np.empty(16)
    off, which, ok = kernels.subset_sums_by_size(vals, 0, k_hi, tau, best, out, scratch)
    sums = out if which == 0 else scratch
    assert ok
    for j in range(k_hi + 1):
        expected = sorted(sum(c) for c in itertools.combinations(vals, j))
        assert sums[off[j]:off[j + 1]].tolist() == expected
    _, _, ok = kernels.subset_sums_by_size(vals, 0, k_hi, tau, best, np.empty(4), np.empty(4))
    assert not ok                                      # 15 sums do not fit in 4


@pytest.mark.parametrize("strict", [False, True])
def test_count_pairs_matches_brute_force(strict):
    from wordbias.stats import kernels

    rng = np.random.default_rng(1)
    a, b = np.sort(rng.integers(0, 6, size=9)).astype(float), np.sort(rng.integers(0, 6, size=7)).astype(float)
    for thr in (-1.0, 3.0, 5.0, 12.0):
        expected = sum((x + y > thr) if strict else (x + y >= thr) for x in a for y in b)
        assert kernels.count_pairs(a, b, thr, strict) == expected


def test_monte_carlo_lower_tail_count_leaves_the_upper_count_alone():
    """_mc_blocks counts both tails of the same draws in one pass when given a lower threshold; the
    upper count (the pinned one-sided p) must not change, and the lower count must equal the stored sums'."""
    from wordbias.stats import kernels

    values = np.random.default_rng(8).normal(size=30)
    key, R, blk = montecarlo.mc_key(5), 3 * 2 ** 14 + 17, 2 ** 14
    nb = -(-R // blk)
    thr, thr_lo = values[:15].sum(), values[:15].sum() - 0.5
    up1, up2, lo2 = np.zeros(nb, np.int64), np.zeros(nb, np.int64), np.zeros(nb, np.int64)
    sums = np.empty(R)
    kernels._mc_blocks(values, 15, False, float(values.sum()), thr, key, 0, nb, R, blk, np.empty(0), up1, 0.0,
                      np.zeros(0, np.int64))
    kernels._mc_blocks(values, 15, False, float(values.sum()), thr, key, 0, nb, R, blk, sums, up2, thr_lo, lo2)
    assert int(up1.sum()) == int(up2.sum()) == 31715     # the pinned count of test_monte_carlo_counts_and_p_values
    assert int(lo2.sum()) == int((sums <= thr_lo).sum()) and int(up2.sum()) == int((sums >= thr).sum())
