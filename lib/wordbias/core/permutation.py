"""Permutation tests over equal-size partitions, shared by WEAT and its relatives.

The WEAT p-value (Caliskan et al. 2017, Methods) is the probability, over all partitions
(X_i, Y_i) of X ∪ Y into two sets of the sizes of X and Y, that the test statistic
s(X_i, Y_i, A, B) is at least the observed s(X, Y, A, B). Because

    s(X_i, Y_i, A, B) = sum_{w in X_i} s(w) - sum_{w in Y_i} s(w) = 2 sum_{w in X_i} s(w) - sum_{w in X ∪ Y} s(w),

the statistic is an increasing function of the subset sum over X_i. Every p-value in this module is
therefore a *subset-sum tail*: the fraction of the size-k subsets of N real values whose sum is at
least a threshold. Three ways to get it:

- :func:`subset_sum_tail_exact`: an exact integer count of the C(N, k) subsets, by meet in the middle.
  The N values are split into two halves; for each half a compiled kernel builds the subset sums of
  every size j, each size already sorted (adding one value at a time and merging, as in Horowitz &
  Sahni's sorted subset-sum lists, so nothing is ever sorted); then for each pair of sizes (j, k − j)
  a two-pointer sweep counts the pairs whose sum reaches the threshold. Partial sums that cannot reach
  the threshold whatever the remaining values are dropped while the lists are built (a branch-and-bound
  bound: the partial sum plus the largest possible completion), so the work is the number of subset
  sums that can still take part, at most 2^(N/2) per half. Every subset is kept for N ≤ 52, which
  covers every 25+25 test; beyond that the count is exact when the observed statistic is far enough in
  a tail (WEAT 3's 32+32 names), and fails with :class:`ExactCountTooLarge` otherwise. When the
  observed sum is below the mean, the complement (the lower tail) is counted instead.
- :func:`subset_sum_tail_mc`: seeded Monte Carlo over random partitions, with the add-one rule
  p = (1 + #{draws ≥ observed}) / (1 + R), a valid p-value for any R. A compiled kernel draws each
  partition as a partial Fisher–Yates shuffle (a uniformly random size-k subset: words drawn without
  replacement) with a xoshiro256** generator; draws come in blocks of :data:`MC_BLOCK`, block b seeded
  from (seed, b) alone, so the result is bit-for-bit the same on any number of threads.
- :func:`subset_sum_tail_normal`: the normal approximation with the exact mean and variance of the
  permutation distribution (sampling without replacement from a finite population).

Ties: the observed partition is one of the partitions and counts as "at least as extreme", so the exact
p-value is never 0. A relative tolerance (:data:`TIE_RTOL` times the sum of |values|) absorbs the
floating-point differences between summation orders.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from math import comb, sqrt

import numpy as np
from scipy import stats as _sps

#: relative tolerance (times the sum of |values|) under which two subset sums count as tied
TIE_RTOL = 1e-10

#: the largest N = |X ∪ Y| for which ``p_method="auto"`` always counts exactly (every 25+25 test)
EXACT_MAX_N = 50

#: the most subset sums kept per half by the exact count (two float64 buffers of this length per half:
#: 2 GiB in all at the default 2^26, which keeps every subset sum for N ≤ 52)
EXACT_MAX_SUMS = 2 ** 26

#: for N > :data:`EXACT_MAX_N`, ``p_method="auto"`` tries the tail-pruned exact count with this budget
#: per half (a few tenths of a second at most) and falls back to Monte Carlo when the tail is too large for it
AUTO_TAIL_SUMS = 2 ** 20

#: ``p_method="auto"`` attempts the tail-pruned exact count only up to this N
EXACT_TAIL_MAX_N = 128

#: Monte Carlo draws per block; block b uses its own generator seeded from (seed, b)
MC_BLOCK = 2 ** 14


class ExactCountTooLarge(ValueError):
    """The exact count would need more subset sums than its budget allows (use Monte Carlo)."""


@dataclass(frozen=True)
class TailProbability:
    """A p-value with how it was obtained.

    ``p_method`` is ``"exact"``, ``"monte-carlo"`` or ``"normal"``. ``n_partitions`` is C(N, k), the
    number of partitions of the pooled set. For the exact count, ``n_extreme`` is the number of
    partitions at least as extreme as the observed one. For Monte Carlo, ``n_permutations`` is the number of
    random partitions drawn, ``n_extreme`` how many reached the observed statistic, and ``se`` the
    binomial standard error of the estimate; ``resolution`` is the smallest p the method can report
    (1/C(N,k) exact, 1/(R+1) Monte Carlo, 0 for the normal approximation).
    """

    p_value: float
    p_method: str
    n_partitions: int
    n_permutations: int | None = None
    n_extreme: int | None = None
    se: float | None = None

    @property
    def resolution(self) -> float:
        if self.p_method == "exact":
            return 1.0 / self.n_partitions
        if self.p_method == "monte-carlo":
            return 1.0 / (self.n_permutations + 1)
        return 0.0


def _check(values: np.ndarray, k: int) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64).ravel()
    n = values.size
    if not 0 < k < n:
        raise ValueError(f"subset size k={k} must be between 1 and N-1 (N={n})")
    if not np.all(np.isfinite(values)):
        raise ValueError("values contain NaN or infinity")
    return values


def _tolerance(values: np.ndarray) -> float:
    return TIE_RTOL * max(float(np.abs(values).sum()), 1e-300)


def default_workers() -> int:
    """Workers (threads or processes) for parallel work: the CPUs this process may use (its affinity mask, so
    `taskset` and container CPU limits count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# --------------------------------------------------------------------------------------------------
# compiled kernels (numba, compiled on first use and cached on disk)
# --------------------------------------------------------------------------------------------------

_KERNELS = None


def _kernels():
    """The numba kernels: ``sums`` (sorted, pruned subset sums by size), ``pairs`` (two-pointer count)
    and ``mc`` (Monte Carlo blocks)."""
    global _KERNELS
    if _KERNELS is not None:
        return _KERNELS
    from numba import njit

    @njit(nogil=True, cache=True)
    def sums_by_size(vals, k_lo, k_hi, tau, best, out, scratch):  # pragma: no cover - compiled
        """Subset sums of ``vals`` of each size j ≤ k_hi, each size sorted ascending, keeping only the
        partial sums s (after i values) for which some final size J in [k_lo, k_hi] can still reach
        tau[J]: s + best[i, J − j] ≥ tau[J], best[i, r] being the largest sum of r of vals[i:].
        Returns (offsets, which, ok): size j lies at offsets[j]:offsets[j+1] of ``out`` (which = 0) or
        ``scratch`` (which = 1); ok is False when ``out`` was too short."""
        m = vals.size
        cap = out.size
        off_old = np.zeros(k_hi + 2, np.int64)
        off_new = np.zeros(k_hi + 2, np.int64)
        bufs = (out, scratch)
        cur = 0
        out[0] = 0.0
        off_old[1] = 1
        for i in range(m):
            v = vals[i]
            src = bufs[cur]
            dst = bufs[1 - cur]
            top_old = min(i, k_hi)
            top_new = min(i + 1, k_hi)
            rem = m - i - 1                      # values still to come after this one
            p = 0
            off_new[0] = 0
            for j in range(top_new + 1):
                # the smallest partial sum of size j that can still reach some tau[J]
                need = np.inf
                for J in range(max(j, k_lo), min(j + rem, k_hi) + 1):
                    t = tau[J] - best[i + 1, J - j]
                    if t < need:
                        need = t
                a0 = off_old[j] if j <= top_old else 0
                a1 = off_old[j + 1] if j <= top_old else 0
                b0 = off_old[j - 1] if j >= 1 else 0
                b1 = off_old[j] if j >= 1 else 0
                if need == np.inf:
                    a0 = a1
                    b0 = b1
                else:
                    while a0 < a1 and src[a0] < need:
                        a0 += 1
                    while b0 < b1 and src[b0] + v < need:
                        b0 += 1
                if p + (a1 - a0) + (b1 - b0) > cap:
                    return off_new, 1 - cur, False
                while a0 < a1 and b0 < b1:     # merge two sorted runs (branch-free step)
                    x = src[a0]
                    y = src[b0] + v
                    take = x <= y
                    dst[p] = x if take else y
                    a0 += np.int64(take)
                    b0 += np.int64(not take)
                    p += 1
                while a0 < a1:
                    dst[p] = src[a0]
                    a0 += 1
                    p += 1
                while b0 < b1:
                    dst[p] = src[b0] + v
                    b0 += 1
                    p += 1
                off_new[j + 1] = p
            for j in range(top_new + 1, k_hi + 1):
                off_new[j + 1] = p
            for j in range(k_hi + 2):
                off_old[j] = off_new[j]
            cur = 1 - cur
        return off_old, cur, True

    @njit(nogil=True, cache=True)
    def count_pairs(a, b, thr, strict):  # pragma: no cover - compiled
        """#{(x, y) in a × b : y ≥ thr − x} (or > when ``strict``), a and b sorted ascending."""
        nb = b.size
        p = nb
        count = 0
        if strict:
            for i in range(a.size):
                t = thr - a[i]
                while p > 0 and b[p - 1] > t:
                    p -= 1
                count += nb - p
        else:
            for i in range(a.size):
                t = thr - a[i]
                while p > 0 and b[p - 1] >= t:
                    p -= 1
                count += nb - p
        return count

    @njit(inline="always")
    def rotl(x, r):  # pragma: no cover - compiled
        return (x << np.uint64(r)) | (x >> np.uint64(64 - r))

    @njit(inline="always")
    def mix64(z):  # pragma: no cover - compiled
        # SplitMix64's finaliser (Steele, Lea & Flood 2014)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))

    @njit(inline="always")
    def xoshiro(s0, s1, s2, s3):  # pragma: no cover - compiled
        # xoshiro256** (Blackman & Vigna 2018): 64 random bits and the next state
        res = rotl(s1 * np.uint64(5), 7) * np.uint64(9)
        t = s1 << np.uint64(17)
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return res, s0, s1, s2, s3

    @njit(nogil=True, cache=True)
    def mc_blocks(values, kk, complement, total, thr, key, b0, b1, n_permutations, block, sums, counts):
        # pragma: no cover - compiled
        """Blocks b0..b1−1 of the Monte Carlo draws. Each draw is a partial Fisher–Yates shuffle of a
        working copy of ``values`` over its first kk positions (position i swapped with a uniform
        position in i..N−1: a uniformly random kk-subset, whatever order the copy was left in); its sum
        (or ``total`` minus it, when ``complement``) is stored in ``sums`` (when not empty) and
        compared with ``thr``. Block b restarts from ``values`` with xoshiro256** seeded from (key, b),
        so it does not depend on which thread runs it. Each 64-bit output gives two 32-bit halves,
        mapped to 0..N−i−1 without bias by Lemire's multiply-and-reject."""
        n = values.size
        w = np.empty(n, np.float64)
        gamma = np.uint64(0x9E3779B97F4A7C15)
        mask32 = np.uint64(0xFFFFFFFF)
        two32 = np.uint64(0x100000000)
        sh32 = np.uint64(32)
        store = sums.size > 0
        for blk in range(b0, b1):
            for i in range(n):
                w[i] = values[i]
            x = mix64(key + mix64(np.uint64(blk) + gamma))
            x += gamma
            s0 = mix64(x)
            x += gamma
            s1 = mix64(x)
            x += gamma
            s2 = mix64(x)
            x += gamma
            s3 = mix64(x)
            start = blk * block
            stop = min(start + block, n_permutations)
            cnt = 0
            for d in range(start, stop):
                acc0 = 0.0
                acc1 = 0.0                          # two accumulators: shorter dependency chain
                i = 0
                while i < kk:
                    res, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
                    bound = np.uint64(n - i)
                    mprod = (res >> sh32) * bound   # high half
                    if (mprod & mask32) < bound:
                        reject = (two32 - bound) % bound
                        while (mprod & mask32) < reject:
                            r2, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
                            mprod = (r2 >> sh32) * bound
                    j = i + np.int64(mprod >> sh32)
                    tmp = w[i]
                    w[i] = w[j]
                    w[j] = tmp
                    acc0 += w[i]
                    i += 1
                    if i < kk:
                        bound = np.uint64(n - i)
                        mprod = (res & mask32) * bound  # low half
                        if (mprod & mask32) < bound:
                            reject = (two32 - bound) % bound
                            while (mprod & mask32) < reject:
                                r2, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
                                mprod = (r2 >> sh32) * bound
                        j = i + np.int64(mprod >> sh32)
                        tmp = w[i]
                        w[i] = w[j]
                        w[j] = tmp
                        acc1 += w[i]
                        i += 1
                acc = acc0 + acc1
                s = total - acc if complement else acc
                if store:
                    sums[d] = s
                if s >= thr:
                    cnt += 1
            counts[blk] = cnt

    class _K:
        sums = sums_by_size
        pairs = count_pairs
        mc = mc_blocks

    _KERNELS = _K
    return _KERNELS


# --------------------------------------------------------------------------------------------------
# exact count
# --------------------------------------------------------------------------------------------------

def _top_sums(vals: np.ndarray) -> np.ndarray:
    """best[i, r] = the largest sum of r values among vals[i:] (−inf where r > len(vals) − i)."""
    m = vals.size
    best = np.full((m + 1, m + 1), -np.inf)
    for i in range(m + 1):
        tail = np.sort(vals[i:])[::-1]
        best[i, :m - i + 1] = np.concatenate([[0.0], np.cumsum(tail)])
    return best


def _count_at_least(values: np.ndarray, k: int, thr: float, strict: bool, max_sums: int,
                    workers: int) -> int:
    """#{size-k subsets with sum ≥ thr} (> thr when ``strict``) by the pruned meet in the middle."""
    K = _kernels()
    n = values.size
    margin = _tolerance(values)                   # slack for rounding in the pruning bounds
    order = np.argsort(-values, kind="stable")    # largest first: the bounds prune early
    halves = [values[order[0::2]], values[order[1::2]]]   # interleaved: two alike halves
    m = [h.size for h in halves]
    lo0, hi0 = max(0, k - m[1]), min(m[0], k)     # sizes taken from half 0; half 1 gives k − j
    ranges = [(lo0, hi0), (k - hi0, k - lo0)]
    tops = [_top_sums(h) for h in halves]

    def build(h: int):
        vals, (k_lo, k_hi), best = halves[h], ranges[h], tops[h]
        other_best = tops[1 - h][0]               # the other half's largest sum of r values
        tau = np.full(k_hi + 1, np.inf)
        for J in range(k_lo, k_hi + 1):
            tau[J] = thr - other_best[k - J] - margin
        full = sum(comb(m[h], j) for j in range(k_hi + 1))
        cap = min(full, max_sums)
        out, scratch = np.empty(cap), np.empty(cap)
        off, which, ok = K.sums(vals, k_lo, k_hi, tau, best, out, scratch)
        if not ok:
            raise ExactCountTooLarge(
                f"the exact count of the {comb(n, k):.3g} partitions (N={n}, k={k}) needs more than {max_sums:,} "
                f"subset sums per half (the observed statistic is not far enough in a tail for the pruning to "
                f"keep fewer); use p_method='monte-carlo' or a larger max_sums (16 bytes each, per half)")
        return (out if which == 0 else scratch), off

    if workers > 1 and min(m) > 16:   # below 2^16 sums a half, a thread costs more than it saves
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(2) as pool:
            (s0, off0), (s1, off1) = pool.map(build, (0, 1))
    else:
        (s0, off0), (s1, off1) = build(0), build(1)
    js = range(lo0, hi0 + 1)

    def count(j: int) -> int:
        return int(K.pairs(s0[off0[j]:off0[j + 1]], s1[off1[k - j]:off1[k - j + 1]], thr, strict))

    if workers > 1 and off0[-1] + off1[-1] > 1 << 20:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(min(workers, len(js))) as pool:
            return sum(pool.map(count, js))
    return sum(count(j) for j in js)


def count_subsets_at_least(values, k: int, threshold: float, *, max_sums: int = EXACT_MAX_SUMS,
                           workers: int | None = None) -> int:
    """Number of size-``k`` subsets of ``values`` whose sum is ≥ ``threshold`` (within :data:`TIE_RTOL`).

    Meet in the middle with branch-and-bound pruning (see the module docstring): exact integer count.
    When the threshold is below the mean subset sum, the subsets *below* it are counted instead (on the
    negated values) and subtracted from C(N, k), so the work follows the smaller tail. Raises
    :class:`ExactCountTooLarge` when more than ``max_sums`` subset sums of one half can take part
    (never for N ≤ 52 at the default budget). Uses two threads when ``workers`` (default: the CPUs
    available) allows; the count does not depend on it.
    """
    values = _check(values, k)
    n = values.size
    thr = float(threshold) - _tolerance(values)
    workers = default_workers() if workers is None else max(1, int(workers))
    if thr >= k * values.mean():
        return _count_at_least(values, k, thr, False, max_sums, workers)
    # sum ≥ thr  ⇔  not (sum < thr)  ⇔  not (−sum > −thr): count the lower tail on the negated values
    return comb(n, k) - _count_at_least(-values, k, -thr, True, max_sums, workers)


def subset_sum_tail_exact(values, k: int, observed_sum: float, *, max_sums: int = EXACT_MAX_SUMS,
                          workers: int | None = None) -> TailProbability:
    """Exact Pr[sum of a uniformly random size-k subset ≥ observed_sum], counting all C(N, k) subsets."""
    values = _check(values, k)
    total = comb(values.size, k)
    count = count_subsets_at_least(values, k, observed_sum, max_sums=max_sums, workers=workers)
    return TailProbability(p_value=count / total, p_method="exact", n_partitions=total, n_extreme=count)


# --------------------------------------------------------------------------------------------------
# Monte Carlo
# --------------------------------------------------------------------------------------------------

def _mc_key(seed) -> np.uint64:
    """The 64-bit key of the Monte Carlo streams: from a seed via ``SeedSequence``, or drawn from a
    ``numpy.random.Generator`` (advancing it)."""
    if isinstance(seed, np.random.Generator):
        return np.uint64(seed.integers(0, 2 ** 64, dtype=np.uint64))
    return np.uint64(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])


def _mc_run(values: np.ndarray, k: int, thr: float, n_permutations: int, key: np.uint64, store: bool,
            workers: int | None, progress: bool) -> tuple[int, np.ndarray | None]:
    K = _kernels()
    n = values.size
    complement = (n - k) < k                      # draw the smaller side of the partition
    kk = n - k if complement else k
    total = float(values.sum())
    n_blocks = (n_permutations + MC_BLOCK - 1) // MC_BLOCK
    counts = np.zeros(n_blocks, dtype=np.int64)
    sums = np.empty(n_permutations if store else 0, dtype=np.float64)
    workers = default_workers() if workers is None else max(1, int(workers))
    per_task = max(1, min(64, -(-n_blocks // (4 * workers))))
    tasks = [(b, min(b + per_task, n_blocks)) for b in range(0, n_blocks, per_task)]

    def run(task):
        b0, b1 = task
        K.mc(values, kk, complement, total, thr, key, b0, b1, n_permutations, MC_BLOCK, sums, counts)
        return min(b1 * MC_BLOCK, n_permutations) - b0 * MC_BLOCK

    if workers == 1 or len(tasks) == 1:
        done = map(run, tasks)
        pool = None
    else:
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(min(workers, len(tasks)))
        done = pool.map(run, tasks)
    try:
        if progress:
            from tqdm.auto import tqdm

            with tqdm(total=n_permutations, desc="random partitions", unit="partition", leave=False) as bar:
                for m in done:
                    bar.update(m)
        else:
            for _ in done:
                pass
    finally:
        if pool is not None:
            pool.shutdown()
    return int(counts.sum()), (sums if store else None)


def random_subset_sums(values, k: int, n_permutations: int, rng: np.random.Generator | int,
                       chunk: int | None = None, progress: bool = False, workers: int | None = None) -> np.ndarray:
    """Sums over ``n_permutations`` uniformly random size-``k`` subsets (words drawn without replacement).

    The draws are the ones :func:`subset_sum_tail_mc` makes for the same generator or seed: partial
    Fisher–Yates shuffles in blocks of :data:`MC_BLOCK`, each block with its own xoshiro256** stream,
    so the sums depend only on the seed (not on ``workers``). ``chunk`` is accepted for compatibility
    and ignored.
    """
    values = _check(values, k)
    if n_permutations < 0:
        raise ValueError("n_permutations must be non-negative")
    _, sums = _mc_run(values, k, np.inf, n_permutations, _mc_key(rng), True, workers, progress)
    return sums


def subset_sum_tail_mc(values, k: int, observed_sum: float, n_permutations: int = 100_000,
                       seed: int | np.random.Generator = 0, progress: bool = False,
                       workers: int | None = None) -> TailProbability:
    """Monte Carlo Pr[random size-k subset sum ≥ observed_sum] with the add-one rule.

    p = (1 + B) / (1 + R), where B of the R random partitions reach the observed sum. This is a valid
    (slightly conservative) p-value: it cannot be 0, and its resolution is 1/(R+1). ``seed`` is an
    integer (through ``numpy.random.SeedSequence``) or a ``numpy.random.Generator`` (one 64-bit draw is
    taken from it). The result is the same for any ``workers`` (default: the CPUs available).
    """
    values = _check(values, k)
    if n_permutations < 1:
        raise ValueError("n_permutations must be at least 1")
    thr = observed_sum - _tolerance(values)
    extreme, _ = _mc_run(values, k, thr, int(n_permutations), _mc_key(seed), False, workers, progress)
    p = (extreme + 1) / (n_permutations + 1)
    se = sqrt(p * (1 - p) / n_permutations)
    return TailProbability(p_value=p, p_method="monte-carlo", n_partitions=comb(values.size, k),
                           n_permutations=n_permutations, n_extreme=extreme, se=se)


# --------------------------------------------------------------------------------------------------
# normal approximation and dispatch
# --------------------------------------------------------------------------------------------------

def subset_sum_moments(values, k: int) -> tuple[float, float]:
    """Exact mean and standard deviation of the sum of a random size-k subset drawn without replacement.

    mean = k·μ, var = k·σ²·(N−k)/(N−1), with μ and σ² the mean and population variance of the N values
    (the finite-population correction of sampling without replacement).
    """
    values = _check(values, k)
    n = values.size
    mu = values.mean()
    var = values.var(ddof=0)
    return k * mu, sqrt(k * var * (n - k) / (n - 1))


def subset_sum_tail_normal(values, k: int, observed_sum: float) -> TailProbability:
    """Normal approximation of the permutation distribution: 1 − Φ((observed − mean) / sd)."""
    values = _check(values, k)
    mean, sd = subset_sum_moments(values, k)
    if sd == 0:
        raise ValueError("all values are equal: the permutation distribution is degenerate")
    p = float(_sps.norm.sf((observed_sum - mean) / sd))
    return TailProbability(p_value=p, p_method="normal", n_partitions=comb(values.size, k))


def subset_sum_tail(values, k: int, observed_sum: float, p_method: str = "auto",
                    n_permutations: int = 100_000, seed: int | np.random.Generator = 0,
                    exact_max_n: int = EXACT_MAX_N, progress: bool = False) -> TailProbability:
    """Dispatch to the exact, Monte Carlo or normal tail.

    ``p_method="auto"`` counts exactly when N ≤ ``exact_max_n`` or when C(N, k) ≤ ``n_permutations`` (then
    enumeration is no dearer than sampling); for larger N (up to :data:`EXACT_TAIL_MAX_N`) it tries
    the tail-pruned exact count with a budget of :data:`AUTO_TAIL_SUMS` subset sums per half, which
    succeeds when the observed statistic is far in a tail, and otherwise uses Monte Carlo with
    ``n_permutations`` draws. ``p_method="exact"`` raises :class:`ExactCountTooLarge` rather than fall back.
    """
    values = _check(values, k)
    n = values.size
    if p_method == "auto":
        if n <= exact_max_n or comb(n, k) <= n_permutations:
            p_method = "exact"
        else:
            if n <= EXACT_TAIL_MAX_N:
                try:
                    return subset_sum_tail_exact(values, k, observed_sum, max_sums=AUTO_TAIL_SUMS)
                except ExactCountTooLarge:
                    pass
            p_method = "monte-carlo"
    if p_method == "exact":
        return subset_sum_tail_exact(values, k, observed_sum)
    if p_method in ("monte-carlo", "mc"):
        return subset_sum_tail_mc(values, k, observed_sum, n_permutations=n_permutations, seed=seed, progress=progress)
    if p_method == "normal":
        return subset_sum_tail_normal(values, k, observed_sum)
    raise ValueError(f"unknown p-value method {p_method!r}; use 'auto', 'exact', 'monte-carlo' or 'normal'")
