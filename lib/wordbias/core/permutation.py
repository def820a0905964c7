"""The permutation engine: one- and two-sided p-values over the partitions of a pooled set (WEAT, Kurita, GAP).

A test statistic such as WEAT's s(X_i, Y_i, A, B) = 2 Σ_{w∈X_i} s(w) − Σ_{w∈X∪Y} s(w) (Caliskan et al. 2017,
Methods) increases with the subset sum over X_i, so each p-value here is a *subset-sum tail*: the fraction
of the size-k subsets of N values whose sum reaches the observed one. Three ways to get it: exact
(:func:`subset_sum_tail_exact`), Monte Carlo (:func:`subset_sum_tail_mc`) and the normal approximation
(:func:`subset_sum_tail_normal`); :func:`subset_sum_tail` chooses. The loops are in :mod:`wordbias.core.kernels`.

Every tail takes ``alternative`` as :func:`scipy.stats.permutation_test` does: ``"greater"`` (the default,
Pr[S ≥ s_obs]), ``"less"`` (Pr[S ≤ s_obs]) or ``"two-sided"``. The two-sided p is SciPy's: twice the smaller
one-sided p, capped at 1, p₂ = min(1, 2·min(p_≥, p_≤)) (SciPy's ``permutation_test``, "alternative"; the
"doubling" rule of Kulinskaya 2008, arXiv:0810.2124, and of Good, *Permutation, Parametric and Bootstrap
Tests of Hypotheses*, 3rd ed., Springer 2005, §3.2). It is chosen over the "as far from the mean"
rule Pr[|S − E S| ≥ |s_obs − E S|] because it needs no symmetry of the permutation distribution (a
subset-sum distribution is skewed when the values are), it is the one a reader can check with SciPy, and each
one-sided count it doubles is one the engine already makes: the exact count of the lower tail is the
upper-tail count on the negated values, and one Monte Carlo pass counts both tails of the same draws.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from math import comb, sqrt

import numpy as np
from scipy import stats as _sps

from wordbias.core.errors import TooCostlyError
from wordbias.core.validation import check_int, check_option, check_real, check_seed

# default_workers is used below and stays importable from here (wordbias.datasets.gap used to import it so)
from wordbias.core.parallel import default_workers, run_tasks

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


#: the p-value methods of :func:`subset_sum_tail` ("mc" is an alias of "monte-carlo")
P_METHODS = ("auto", "exact", "monte-carlo", "mc", "normal")

#: the alternatives of every tail, as :func:`scipy.stats.permutation_test` names them
ALTERNATIVES = ("greater", "less", "two-sided")

#: the default time budget of one Monte Carlo p-value (seconds): a request estimated to take longer is
#: refused up front (:func:`check_mc_cost`); pass ``max_seconds`` to allow more (``float("inf")``: no limit)
MAX_SECONDS = 600.0

#: drawn values per second and thread of :func:`~wordbias.core.kernels.mc_blocks`, measured on a laptop
#: core (5-6e8 for N = 16 to 200); an estimate's time is (draws x (smaller side + 1)) / (rate x threads)
MC_VALUES_PER_SECOND = 5e8


class ExactCountTooLarge(TooCostlyError):
    """The exact count would need more subset sums than its budget allows (use Monte Carlo or the normal
    approximation). A :class:`~wordbias.core.errors.TooCostlyError` (hence still a ``ValueError``)."""


#: the most memory one request may allocate by default (bytes), capped at half the machine's memory
MAX_BYTES = 4 * 2 ** 30


def memory_limit() -> int:
    """The most one request may allocate: :data:`MAX_BYTES`, or half the machine's physical memory if less."""
    try:
        half = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):  # not POSIX
        half = MAX_BYTES
    return min(MAX_BYTES, half)


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if n < 1024 or unit == "EiB":
            return f"{n:.3g} {unit}"
        n /= 1024


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.3g} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.3g} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.3g} h"
    return f"{seconds / 86400:.3g} days"


def check_cost(what: str, seconds: float, n_bytes: float, max_seconds: float, way_out: str) -> None:
    """Refuse, before any work, a request estimated to take more than ``max_seconds`` or to allocate more
    than :func:`memory_limit` (raise :data:`MAX_BYTES` to allow more): :class:`~wordbias.core.errors.TooCostlyError` with the estimate and
    ``way_out``.

    Examples
    --------
    >>> check_cost("10 draws", 1.0, 80, max_seconds=60, way_out="-")     # within budget: nothing happens
    """
    max_seconds = check_real("max_seconds", max_seconds, low=0, low_open=True) if max_seconds != float("inf") \
        else max_seconds
    limit = memory_limit()
    if seconds > max_seconds or n_bytes > limit:
        raise TooCostlyError(
            f"{what} is estimated to take {_duration(seconds)} and {_bytes(n_bytes)} of memory, over the budget "
            f"(max_seconds={max_seconds:g}, memory {_bytes(limit)}: wordbias.core.permutation.MAX_BYTES or half "
            f"this machine's); refused before any work. {way_out}")


def mc_cost(n: int, k: int, n_permutations: int, workers: int, store: bool = False) -> tuple[float, float]:
    """(seconds, bytes) estimated for ``n_permutations`` Monte Carlo draws of size-k subsets of N = ``n``
    values: time from :data:`MC_VALUES_PER_SECOND`, memory for the per-block counts (and the sums if stored).

    Examples
    --------
    >>> seconds, n_bytes = mc_cost(50, 25, 10 ** 20, workers=1)
    >>> f"{n_bytes / 2 ** 50:.0f} PiB"
    '43 PiB'
    """
    kk = min(k, n - k)
    seconds = n_permutations * (kk + 1) / (MC_VALUES_PER_SECOND * max(1, workers))
    n_bytes = 8.0 * (n_permutations / MC_BLOCK + 1) + (8.0 * n_permutations if store else 0.0)
    return seconds, n_bytes


def check_mc_cost(n: int, k: int, n_permutations: int, *, workers: int | None = None, store: bool = False,
                  max_seconds: float = MAX_SECONDS) -> None:
    """Refuse a Monte Carlo request out of proportion (:func:`mc_cost` over ``max_seconds`` or memory),
    saying how long and how much memory it would take and what to do instead."""
    workers = default_workers() if workers is None else max(1, int(workers))
    seconds, n_bytes = mc_cost(n, k, n_permutations, workers, store)
    check_cost(f"a Monte Carlo p-value with n_permutations={n_permutations:,} (N={n}, k={k}, {workers} thread(s))",
               seconds, n_bytes, max_seconds,
               "Use fewer permutations (10**5 to 10**7 resolve p to 1e-5 to 1e-7), p_method='normal' (the normal "
               "approximation, instant), or pass a larger max_seconds if you mean it.")


@dataclass(frozen=True)
class TailProbability:
    """A p-value with how it was obtained.

    ``p_method`` is ``"exact"``, ``"monte-carlo"`` or ``"normal"``. ``n_partitions`` is C(N, k), the
    number of partitions of the pooled set. For the exact count, ``n_extreme`` is the number of
    partitions at least as extreme as the observed one. For Monte Carlo, ``n_permutations`` is the number of
    random partitions drawn, ``n_extreme`` how many reached the observed statistic, and ``se`` the
    binomial standard error of the estimate; ``resolution`` is the smallest p the method can report
    (1/C(N,k) exact, 1/(R+1) Monte Carlo, 0 for the normal approximation; twice these when two-sided).

    ``alternative`` names the tail: ``"greater"`` (Pr[S ≥ s_obs]), ``"less"`` (Pr[S ≤ s_obs]) or
    ``"two-sided"``, min(1, 2·min of the two one-sided p) as in :func:`scipy.stats.permutation_test`; then
    ``n_extreme`` counts the smaller tail (the one doubled) and ``se`` is twice its standard error.
    """

    p_value: float
    p_method: str
    n_partitions: int
    n_permutations: int | None = None
    n_extreme: int | None = None
    se: float | None = None
    alternative: str = "greater"

    @property
    def resolution(self) -> float:
        sides = 2.0 if self.alternative == "two-sided" else 1.0
        if self.p_method == "exact":
            return sides / self.n_partitions
        if self.p_method == "monte-carlo":
            return sides / (self.n_permutations + 1)
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
    """#{size-k subsets with sum ≥ thr} (> thr when ``strict``) by the pruned meet in the middle.

    The values, largest first, are dealt into two alike halves. For each half the kernel
    :func:`~wordbias.core.kernels.subset_sums_by_size` builds the subset sums of every size j it can
    contribute, each size sorted, dropping the partial sums that cannot reach ``thr`` even with the largest
    completion from both halves (branch and bound). Then for each pair of sizes (j, k − j) a two-pointer
    sweep (:func:`~wordbias.core.kernels.count_pairs`) counts the pairs whose sum reaches ``thr``.
    """
    from wordbias.core import kernels     # imports numba (0.3 s): only when a count is needed

    n = values.size
    margin = _tolerance(values)                   # slack for rounding in the pruning bounds
    order = np.argsort(-values, kind="stable")    # largest first: the bounds prune early
    halves = [values[order[0::2]], values[order[1::2]]]   # interleaved: two alike halves
    m = [h.size for h in halves]
    lo0, hi0 = max(0, k - m[1]), min(m[0], k)     # sizes taken from half 0; half 1 gives k − j
    ranges = [(lo0, hi0), (k - hi0, k - lo0)]
    tops = [_top_sums(h) for h in halves]
    built = [None, None]                          # (sorted sums, offsets by size) of each half

    def build(h: int) -> int:
        vals, (k_lo, k_hi), best = halves[h], ranges[h], tops[h]
        other_best = tops[1 - h][0]               # the other half's largest sum of r values
        tau = np.full(k_hi + 1, np.inf)
        for J in range(k_lo, k_hi + 1):
            tau[J] = thr - other_best[k - J] - margin
        full = sum(comb(m[h], j) for j in range(k_hi + 1))
        cap = min(full, max_sums)
        out, scratch = np.empty(cap), np.empty(cap)
        off, which, ok = kernels.subset_sums_by_size(vals, k_lo, k_hi, tau, best, out, scratch)
        if not ok:
            raise ExactCountTooLarge(
                f"the exact count of the {comb(n, k):.3g} partitions (N={n}, k={k}) needs more than {max_sums:,} "
                f"subset sums per half ({_bytes(16.0 * max_sums)}; without pruning up to {full:,} sums, "
                f"{_bytes(16.0 * full)}): the observed statistic is not far enough in a tail for the pruning to "
                f"keep fewer. Use p_method='monte-carlo' (n_permutations random partitions), p_method='normal', "
                f"or a larger max_sums (16 bytes each, per half)")
        built[h] = (out if which == 0 else scratch), off
        return 1

    # below 2^16 sums a half, a second thread costs more than it saves
    run_tasks(build, (0, 1), workers=2 if workers > 1 and min(m) > 16 else 1, total=2, desc="subset sums",
              unit="half", progress=False)
    (s0, off0), (s1, off1) = built
    js = range(lo0, hi0 + 1)
    counts = [0] * len(js)

    def count(j: int) -> int:
        counts[j - lo0] = int(kernels.count_pairs(s0[off0[j]:off0[j + 1]], s1[off1[k - j]:off1[k - j + 1]], thr,
                                                  strict))
        return 1

    run_tasks(count, js, workers=workers if off0[-1] + off1[-1] > 1 << 20 else 1, total=len(js),
              desc="pairs of sizes", unit="size", progress=False)
    return sum(counts)


def count_subsets_at_least(values, k: int, threshold: float, *, max_sums: int = EXACT_MAX_SUMS,
                           workers: int | None = None) -> int:
    """Number of size-``k`` subsets of ``values`` whose sum is ≥ ``threshold`` (within :data:`TIE_RTOL`).

    An exact integer count of the C(N, k) subsets by meet in the middle: subset sums of each half of the
    values, sorted by size, then a two-pointer count of the pairs (j, k − j) whose sum reaches the
    threshold. Partial sums that cannot reach it whatever the remaining values are dropped while the
    lists are built, so the work is the number of subset sums that can still take part, at most 2^(N/2)
    per half. When the threshold is below the mean subset sum, the subsets *below* it are counted instead
    (on the negated values) and subtracted from C(N, k), so the work follows the smaller tail.

    Ties: a sum within :data:`TIE_RTOL` times Σ|values| of the threshold counts as reaching it (rounding
    differs between summation orders), so the observed subset always counts itself. Raises
    :class:`ExactCountTooLarge` when more than ``max_sums`` subset sums of one half can take part: never
    for N ≤ 52 at the default budget; beyond, only when the threshold is not far enough in a tail. Uses
    two threads when ``workers`` (default: the CPUs available) allows; the count does not depend on it.

    Examples
    --------
    >>> count_subsets_at_least([1.0, 2.0, 3.0, 4.0], 2, 5.0)     # {1, 4}, {2, 3}, {2, 4}, {3, 4}
    4
    >>> count_subsets_at_least([1.0, 2.0, 3.0, 4.0], 2, 7.0)     # {3, 4}
    1
    """
    values = _check(values, k)
    n = values.size
    thr = float(threshold) - _tolerance(values)
    workers = default_workers() if workers is None else max(1, int(workers))
    if thr >= k * values.mean():
        return _count_at_least(values, k, thr, False, max_sums, workers)
    # sum ≥ thr  ⇔  not (sum < thr)  ⇔  not (−sum > −thr): count the lower tail on the negated values
    return comb(n, k) - _count_at_least(-values, k, -thr, True, max_sums, workers)


def _two_sided(p_greater: float, p_less: float) -> float:
    """SciPy's two-sided p (``scipy.stats.permutation_test``): twice the smaller one-sided p, capped at 1."""
    return min(1.0, 2 * min(p_greater, p_less))


def subset_sum_tail_exact(values, k: int, observed_sum: float, *, max_sums: int = EXACT_MAX_SUMS,
                          workers: int | None = None, alternative: str = "greater") -> TailProbability:
    """Exact Pr[sum of a uniformly random size-k subset ≥ observed_sum], counting all C(N, k) subsets
    with :func:`count_subsets_at_least`. The observed partition counts as at least as extreme, so p is
    never 0.

    ``alternative="less"`` gives Pr[sum ≤ observed_sum] (the upper-tail count of the negated values), and
    ``"two-sided"`` min(1, 2·min(p_≥, p_≤)), SciPy's convention (see the module docstring); its
    ``n_extreme`` is the count of the smaller tail.

    Examples
    --------
    >>> p = subset_sum_tail_exact([1.0, 2.0, 3.0, 4.0], 2, 7.0)   # only {3, 4} of the 6 pairs
    >>> p.p_value, p.n_extreme, p.n_partitions
    (0.16666666666666666, 1, 6)
    >>> subset_sum_tail_exact([1.0, 2.0, 3.0, 4.0], 2, 7.0, alternative="less").n_extreme   # all 6 are ≤ 7
    6
    >>> subset_sum_tail_exact([1.0, 2.0, 3.0, 4.0], 2, 7.0, alternative="two-sided").p_value   # 2 · 1/6
    0.3333333333333333
    """
    values = _check(values, k)
    check_option("alternative", alternative, ALTERNATIVES)
    total = comb(values.size, k)
    if alternative == "greater":
        count = count_subsets_at_least(values, k, observed_sum, max_sums=max_sums, workers=workers)
        return TailProbability(p_value=count / total, p_method="exact", n_partitions=total, n_extreme=count)
    # sum ≤ obs  ⇔  (−sum) ≥ −obs: the same count on the negated values (the same tolerance, Σ|values|)
    lower = count_subsets_at_least(-values, k, -float(observed_sum), max_sums=max_sums, workers=workers)
    if alternative == "less":
        return TailProbability(p_value=lower / total, p_method="exact", n_partitions=total, n_extreme=lower,
                               alternative="less")
    upper = count_subsets_at_least(values, k, observed_sum, max_sums=max_sums, workers=workers)
    count = min(upper, lower)
    return TailProbability(p_value=_two_sided(upper / total, lower / total), p_method="exact",
                           n_partitions=total, n_extreme=count, alternative="two-sided")


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
            workers: int | None, progress: bool, thr_lo: float | None = None
            ) -> tuple[int, np.ndarray | None] | tuple[int, np.ndarray | None, int]:
    """Draw ``n_permutations`` random size-k subsets with :func:`~wordbias.core.kernels.mc_blocks`, in
    blocks of :data:`MC_BLOCK` spread over ``workers`` threads; returns (#{sums ≥ thr}, the sums or None),
    and also #{sums ≤ thr_lo} of the same draws when ``thr_lo`` is given.
    Each block writes its own slice of the preallocated outputs, so the order in which they finish does
    not matter."""
    from wordbias.core import kernels     # imports numba (0.3 s): only when draws are needed

    n = values.size
    complement = (n - k) < k                      # draw the smaller side of the partition
    kk = n - k if complement else k
    total = float(values.sum())
    n_blocks = (n_permutations + MC_BLOCK - 1) // MC_BLOCK
    counts = np.zeros(n_blocks, dtype=np.int64)
    counts_lo = np.zeros(n_blocks if thr_lo is not None else 0, dtype=np.int64)
    lo = float(thr_lo) if thr_lo is not None else -np.inf
    sums = np.empty(n_permutations if store else 0, dtype=np.float64)
    workers = default_workers() if workers is None else max(1, int(workers))
    per_task = max(1, min(64, -(-n_blocks // (4 * workers))))
    tasks = [(b, min(b + per_task, n_blocks)) for b in range(0, n_blocks, per_task)]

    def run(task) -> int:
        b0, b1 = task
        kernels.mc_blocks(values, kk, complement, total, thr, key, b0, b1, n_permutations, MC_BLOCK, sums, counts,
                          lo, counts_lo)
        return min(b1 * MC_BLOCK, n_permutations) - b0 * MC_BLOCK

    run_tasks(run, tasks, workers=workers, total=n_permutations, desc="random partitions", unit="partition",
              progress=progress)
    if thr_lo is not None:
        return int(counts.sum()), (sums if store else None), int(counts_lo.sum())
    return int(counts.sum()), (sums if store else None)


def random_subset_sums(values, k: int, n_permutations: int, seed: np.random.Generator | int, *,
                       progress: bool = False, workers: int | None = None,
                       max_seconds: float = MAX_SECONDS) -> np.ndarray:
    """Sums over ``n_permutations`` uniformly random size-``k`` subsets (words drawn without replacement).

    The draws are the ones :func:`subset_sum_tail_mc` makes for the same generator or seed, so the sums
    depend only on the seed (not on ``workers``), and the first R sums do not depend on how many follow.

    Examples
    --------
    >>> random_subset_sums([0.0, 1.0, 2.0, 3.0], 2, 5, seed=0)
    array([3., 4., 5., 5., 4.])
    """
    values = _check(values, k)
    n_permutations = check_int("n_permutations", n_permutations, min=0)
    check_seed("seed", seed)
    check_mc_cost(values.size, k, n_permutations, workers=workers, store=True, max_seconds=max_seconds)
    _, sums = _mc_run(values, k, np.inf, n_permutations, _mc_key(seed), True, workers, progress)
    return sums


def subset_sum_tail_mc(values, k: int, observed_sum: float, n_permutations: int = 100_000,
                       seed: int | np.random.Generator = 0, progress: bool = False,
                       workers: int | None = None, max_seconds: float = MAX_SECONDS,
                       alternative: str = "greater") -> TailProbability:
    """Monte Carlo Pr[random size-k subset sum ≥ observed_sum] with the add-one rule.

    p = (1 + B) / (1 + R), where B of the R random partitions reach the observed sum (within
    :data:`TIE_RTOL`). This is a valid (slightly conservative) p-value: it cannot be 0, and its resolution
    is 1/(R+1). ``seed`` is an integer (through ``numpy.random.SeedSequence``) or a
    ``numpy.random.Generator`` (one 64-bit draw is taken from it).

    Each partition is a partial Fisher–Yates shuffle (a uniformly random size-k subset; the smaller side
    of the partition is drawn) with a xoshiro256** generator. Draws come in blocks of :data:`MC_BLOCK`,
    block b seeded from (seed, b) alone, so the result is bit for bit the same for any ``workers``
    (default: the CPUs available). A request estimated (:func:`mc_cost`) to take more than ``max_seconds``
    or too much memory is refused before any draw (:class:`~wordbias.core.errors.TooCostlyError`).

    ``alternative="less"`` counts the draws with sum ≤ observed_sum (+ the tie tolerance) instead, and
    ``"two-sided"`` counts both tails of the *same* draws in one pass and returns min(1, 2·min(p_≥, p_≤)),
    each one-sided p with the add-one rule, as :func:`scipy.stats.permutation_test` does; ``n_extreme`` is
    then the smaller tail's count and ``se`` twice its standard error. The draws do not depend on
    ``alternative``, so its "greater" and "less" results are those of the two-sided call.

    Examples
    --------
    >>> p = subset_sum_tail_mc([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0, n_permutations=1000, seed=0)
    >>> p.n_extreme, round(p.p_value, 4), round(p.se, 4)   # (1 + 43) / 1001; exact: 1 / C(6, 3) = 0.05
    (43, 0.044, 0.0065)
    >>> two = subset_sum_tail_mc([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0, n_permutations=1000, seed=0,
    ...                          alternative="two-sided")
    >>> two.n_extreme, round(two.p_value, 4)                 # 2 · (1 + 43) / 1001
    (43, 0.0879)
    """
    values = _check(values, k)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    check_seed("seed", seed)
    check_option("alternative", alternative, ALTERNATIVES)
    check_mc_cost(values.size, k, n_permutations, workers=workers, max_seconds=max_seconds)
    tol = _tolerance(values)
    thr = observed_sum - tol
    n_partitions = comb(values.size, k)
    if alternative == "greater":
        extreme, _ = _mc_run(values, k, thr, int(n_permutations), _mc_key(seed), False, workers, progress)
        p = (extreme + 1) / (n_permutations + 1)
        se = sqrt(p * (1 - p) / n_permutations)
        return TailProbability(p_value=p, p_method="monte-carlo", n_partitions=n_partitions,
                               n_permutations=n_permutations, n_extreme=extreme, se=se)
    # the lower tail: sum ≤ obs + tol, i.e. −sum ≥ −obs − tol, the "greater" rule on the negated values
    upper, _, lower = _mc_run(values, k, thr, int(n_permutations), _mc_key(seed), False, workers, progress,
                              thr_lo=float(observed_sum) + tol)
    p_hi = (upper + 1) / (n_permutations + 1)
    p_lo = (lower + 1) / (n_permutations + 1)
    if alternative == "less":
        return TailProbability(p_value=p_lo, p_method="monte-carlo", n_partitions=n_partitions,
                               n_permutations=n_permutations, n_extreme=lower,
                               se=sqrt(p_lo * (1 - p_lo) / n_permutations), alternative="less")
    extreme, q = (upper, p_hi) if p_hi <= p_lo else (lower, p_lo)
    return TailProbability(p_value=_two_sided(p_hi, p_lo), p_method="monte-carlo", n_partitions=n_partitions,
                           n_permutations=n_permutations, n_extreme=extreme,
                           se=min(1.0, 2 * sqrt(q * (1 - q) / n_permutations)), alternative="two-sided")


# --------------------------------------------------------------------------------------------------
# normal approximation and dispatch
# --------------------------------------------------------------------------------------------------

def subset_sum_moments(values, k: int) -> tuple[float, float]:
    """Exact mean and standard deviation of the sum of a random size-k subset drawn without replacement.

    mean = k·μ, var = k·σ²·(N−k)/(N−1), with μ and σ² the mean and population variance of the N values
    (the finite-population correction of sampling without replacement).

    Examples
    --------
    >>> mean, sd = subset_sum_moments([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3)
    >>> float(mean), round(sd, 4)
    (7.5, 2.2913)
    """
    values = _check(values, k)
    n = values.size
    mu = values.mean()
    var = values.var(ddof=0)
    return k * mu, sqrt(k * var * (n - k) / (n - 1))


def subset_sum_tail_normal(values, k: int, observed_sum: float, alternative: str = "greater") -> TailProbability:
    """Normal approximation of the permutation distribution: 1 − Φ((observed − mean) / sd), with the exact
    mean and standard deviation of :func:`subset_sum_moments`.

    ``alternative="less"``: Φ(z); ``"two-sided"``: min(1, 2·min(1 − Φ(z), Φ(z))) = 2·(1 − Φ(|z|)).

    Examples
    --------
    >>> round(subset_sum_tail_normal([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0).p_value, 4)
    0.0248
    >>> round(subset_sum_tail_normal([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0, alternative="two-sided").p_value, 4)
    0.0495
    """
    values = _check(values, k)
    check_option("alternative", alternative, ALTERNATIVES)
    mean, sd = subset_sum_moments(values, k)
    if sd == 0:
        raise ValueError("all values are equal: the permutation distribution is degenerate")
    z = (observed_sum - mean) / sd
    p_hi = float(_sps.norm.sf(z))
    if alternative == "greater":
        return TailProbability(p_value=p_hi, p_method="normal", n_partitions=comb(values.size, k))
    p_lo = float(_sps.norm.cdf(z))
    p = p_lo if alternative == "less" else _two_sided(p_hi, p_lo)
    return TailProbability(p_value=p, p_method="normal", n_partitions=comb(values.size, k), alternative=alternative)


def subset_sum_tail(values, k: int, observed_sum: float, p_method: str = "auto",
                    n_permutations: int = 100_000, seed: int | np.random.Generator = 0,
                    exact_max_n: int = EXACT_MAX_N, progress: bool = False,
                    max_seconds: float = MAX_SECONDS, alternative: str = "greater") -> TailProbability:
    """Dispatch to the exact, Monte Carlo or normal tail.

    ``p_method="auto"`` counts exactly when N ≤ ``exact_max_n`` or when C(N, k) ≤ ``n_permutations`` (then
    enumeration is no dearer than sampling); for larger N (up to :data:`EXACT_TAIL_MAX_N`) it tries
    the tail-pruned exact count with a budget of :data:`AUTO_TAIL_SUMS` subset sums per half, which
    succeeds when the observed statistic is far in a tail, and otherwise uses Monte Carlo with
    ``n_permutations`` draws. ``p_method="exact"`` raises :class:`ExactCountTooLarge` rather than fall back.
    ``p_method`` is one of :data:`P_METHODS`, ``n_permutations`` an integer >= 1, ``seed`` an integer >= 0 or
    a generator; a Monte Carlo request over ``max_seconds`` is refused up front (:func:`check_mc_cost`).
    ``alternative`` is ``"greater"`` (the default), ``"less"`` or ``"two-sided"`` (SciPy's doubling rule,
    see the module docstring); the result names it.

    Examples
    --------
    >>> values = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]     # observed: {3, 4, 5}, the largest of the 20 subsets
    >>> subset_sum_tail(values, 3, 12.0)
    TailProbability(p_value=0.05, p_method='exact', n_partitions=20, n_permutations=None, n_extreme=1, se=None, alternative='greater')
    >>> subset_sum_tail(values, 3, 12.0, p_method="monte-carlo", n_permutations=1000, seed=0).n_extreme
    43
    >>> subset_sum_tail(values, 3, 12.0, alternative="two-sided").p_value     # 2 · 1/20
    0.1
    """
    values = _check(values, k)
    check_option("p_method", p_method, P_METHODS)
    check_option("alternative", alternative, ALTERNATIVES)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    check_seed("seed", seed)
    n = values.size
    if p_method == "auto":
        if n <= exact_max_n or comb(n, k) <= n_permutations:
            p_method = "exact"
        else:
            if n <= EXACT_TAIL_MAX_N:
                try:
                    return subset_sum_tail_exact(values, k, observed_sum, max_sums=AUTO_TAIL_SUMS,
                                                 alternative=alternative)
                except ExactCountTooLarge:
                    pass
            p_method = "monte-carlo"
    if p_method == "exact":
        return subset_sum_tail_exact(values, k, observed_sum, alternative=alternative)
    if p_method in ("monte-carlo", "mc"):
        return subset_sum_tail_mc(values, k, observed_sum, n_permutations=n_permutations, seed=seed, progress=progress,
                                  max_seconds=max_seconds, alternative=alternative)
    if p_method == "normal":
        return subset_sum_tail_normal(values, k, observed_sum, alternative=alternative)
    raise ValueError(f"unknown p-value method {p_method!r}; use 'auto', 'exact', 'monte-carlo' or 'normal'")
