"""The exact count of a subset-sum tail: how many of the C(N, k) size-k subsets of N values reach a sum, by a
pruned meet in the middle (:func:`count_subsets_at_least`), and the check that refuses, before any work, a count
that cannot finish within its budget (:func:`check_exact_reach`). The loops are in :mod:`wordbias.stats.kernels`;
the p-value built on the count is :func:`wordbias.stats.permutation.subset_sum_tail_exact`.
"""

from __future__ import annotations

import threading
from math import comb, log10, sqrt

import numpy as np
from scipy import stats as _sps

from wordbias.core.costs import bytes_text, check_cost, count_text, draws_text, log10_comb, power_text
from wordbias.core.errors import ExactCountTooLarge
from wordbias.core.parallel import default_workers, run_tasks
from wordbias.core.validation import check_int
from wordbias.stats.subset_sums import check_observed, check_values_and_k, check_workers, tie_tolerance

#: the most subset sums kept per half by the exact count (two float64 buffers of this length per half:
#: 2 GiB in all at the default 2^26, which keeps every subset sum for N ≤ 52)
EXACT_MAX_SUMS = 2 ** 26


def _top_sums(vals: np.ndarray) -> np.ndarray:
    """best[i, r] = the largest sum of r values among vals[i:] (−inf where r > len(vals) − i)."""
    m = vals.size
    best = np.full((m + 1, m + 1), -np.inf)
    for i in range(m + 1):
        tail = np.sort(vals[i:])[::-1]
        best[i, :m - i + 1] = np.concatenate([[0.0], np.cumsum(tail)])
    return best


#: the most counts :func:`_count_at_least` remembers (:data:`_MEMO`): a one-sided and a two-sided p of the same
#: statistic, as a test reports both, ask for the same count twice
_MEMO_SIZE = 32
_MEMO: dict = {}
_MEMO_LOCK = threading.Lock()


def _memo_key(values: np.ndarray, k: int, thr: float, strict: bool, max_sums: int) -> tuple:
    return (values.dtype.str, values.tobytes(), int(k), float(thr), bool(strict), int(max_sums))


def _count_at_least(values: np.ndarray, k: int, requests, max_sums: int, workers: int) -> list[int]:
    """For each ``(thr, strict)`` of ``requests``: #{size-k subsets with sum ≥ thr} (> thr when ``strict``), by
    the pruned meet in the middle, the subset sums built once for all of them.

    The values, largest first, are dealt into two alike halves. For each half the kernel
    :func:`~wordbias.stats.kernels.subset_sums_by_size` builds the subset sums of every size j it can
    contribute, each size sorted, dropping the partial sums that cannot reach the lowest ``thr`` even with the
    largest completion from both halves (branch and bound). Then for each threshold and each pair of sizes
    (j, k − j) a two-pointer sweep (:func:`~wordbias.stats.kernels.count_pairs`) counts the pairs whose sum
    reaches it. The sums kept for the lowest threshold are a superset of those kept for a higher one, with the
    same values (pruning only drops sums; it never changes how a kept one is added up), so each count is the
    one a build for its own threshold gives. Counts already made are remembered (:data:`_MEMO`, keyed by the
    values' bytes, ``k``, the threshold, ``strict`` and ``max_sums``; an exact count does not depend on
    ``workers``).
    """
    keys = [_memo_key(values, k, thr, strict, max_sums) for thr, strict in requests]
    with _MEMO_LOCK:
        known = [_MEMO.get(key) for key in keys]
    todo = [i for i, c in enumerate(known) if c is None]
    if todo:
        counts = _count_pairs_at_least(values, k, [requests[i] for i in todo], max_sums, workers)
        with _MEMO_LOCK:
            for i, c in zip(todo, counts):
                known[i] = _MEMO[keys[i]] = c
            while len(_MEMO) > _MEMO_SIZE:
                del _MEMO[next(iter(_MEMO))]
    return known


def _count_pairs_at_least(values: np.ndarray, k: int, requests, max_sums: int, workers: int) -> list[int]:
    """:func:`_count_at_least` without the memory: one build, one count per request."""
    from wordbias.stats import kernels  # imports numba (0.3 s): only when a count is needed

    thr = min(t for t, _ in requests)             # the lowest threshold prunes least: its sums serve them all

    n = values.size
    margin = tie_tolerance(values)                   # slack for rounding in the pruning bounds
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
                f"the exact count of the {count_text(comb(n, k))} partitions (N={n}, k={k}) needs more than "
                f"{max_sums:,} subset sums per half ({bytes_text(16.0 * max_sums)}; without pruning up to "
                f"{draws_text(full)} sums, {bytes_text(16 * full)}): the observed statistic is not far enough in a tail for the pruning to "
                f"keep fewer. Use p_method='monte-carlo' (n_permutations random partitions), p_method='normal', "
                f"or a larger max_sums (16 bytes each, per half)")
        built[h] = (out if which == 0 else scratch), off
        return 1

    # below 2^16 sums a half, a second thread costs more than it saves
    run_tasks(build, (0, 1), workers=2 if workers > 1 and min(m) > 16 else 1, total=2, desc="subset sums",
              unit="half", progress=False)
    (s0, off0), (s1, off1) = built
    js = range(lo0, hi0 + 1)
    results = []
    for t, strict in requests:
        counts = [0] * len(js)

        def count(j: int, t=t, strict=strict, counts=counts) -> int:
            counts[j - lo0] = int(kernels.count_pairs(s0[off0[j]:off0[j + 1]], s1[off1[k - j]:off1[k - j + 1]],
                                                      t, strict))
            return 1

        run_tasks(count, js, workers=workers if off0[-1] + off1[-1] > 1 << 20 else 1, total=len(js),
                  desc="pairs of sizes", unit="size", progress=False)
        results.append(sum(counts))
    return results


def count_subsets_at_least(values, k: int, threshold: float, *, max_sums: int = EXACT_MAX_SUMS,
                           workers: int | None = None) -> int:
    """Number of size-``k`` subsets of ``values`` whose sum is ≥ ``threshold`` (within
    :data:`~wordbias.stats.subset_sums.TIE_RTOL`).

    An exact integer count of the C(N, k) subsets by meet in the middle: subset sums of each half of the
    values, sorted by size, then a two-pointer count of the pairs (j, k − j) whose sum reaches the
    threshold. Partial sums that cannot reach it whatever the remaining values are dropped while the
    lists are built, so the work is the number of subset sums that can still take part, at most 2^(N/2)
    per half. When the threshold is below the mean subset sum, the subsets *below* it are counted instead
    (on the negated values) and subtracted from C(N, k), so the work follows the smaller tail.

    Ties: a sum within :data:`~wordbias.stats.subset_sums.TIE_RTOL` times Σ|values| of the threshold counts as
    reaching it (rounding differs between summation orders), so the observed subset always counts itself. Uses
    two threads when ``workers`` allows; the count does not depend on it.

    Parameters
    ----------
    values, k, threshold : array_like of float, int, float
        The N values, the subset size and the sum to reach (:mod:`~wordbias.stats.subset_sums`).
    max_sums : int, default EXACT_MAX_SUMS
        The most subset sums kept per half (:data:`EXACT_MAX_SUMS`, 16 bytes each).
    workers : int, optional
        The threads to use (default: the CPUs available).

    Returns
    -------
    int
        The number of subsets whose sum reaches ``threshold``.

    Raises
    ------
    ExactCountTooLarge
        When more than ``max_sums`` subset sums of one half can take part: never for N ≤ 52 at the default
        budget; beyond, only when the threshold is not far enough in a tail (some requests are refused before
        any work, :func:`check_exact_reach`).
    TooCostlyError
        When the pruning bounds would not fit in memory.
    DegenerateSetError, InvalidParameterError
        On input the engine refuses (:mod:`~wordbias.stats.subset_sums`).

    Examples
    --------
    >>> count_subsets_at_least([1.0, 2.0, 3.0, 4.0], 2, 5.0)     # {1, 4}, {2, 3}, {2, 4}, {3, 4}
    4
    >>> count_subsets_at_least([1.0, 2.0, 3.0, 4.0], 2, 7.0)     # {3, 4}
    1
    """
    values, k, threshold, max_sums, workers = _checked(values, k, "threshold", threshold, max_sums, workers)
    negated, thr, strict = _plan(values, k, threshold, max_sums)
    [count] = _count_at_least(-values if negated else values, k, [(thr, strict)], max_sums, workers)
    return comb(values.size, k) - count if negated else count


def _checked(values, k, sum_name: str, observed, max_sums, workers) -> tuple:
    """The inputs of a count, checked: (values, k, the sum as a float, max_sums, workers, None -> every CPU)."""
    values, k = check_values_and_k(values, k)
    observed = float(check_observed(sum_name, observed))
    max_sums = check_int("max_sums", max_sums, min=1)
    workers = check_workers(workers)
    return values, k, observed, max_sums, default_workers() if workers is None else workers


def _plan(values: np.ndarray, k: int, threshold: float, max_sums: int) -> tuple[bool, float, bool]:
    """How :func:`count_subsets_at_least` counts the subsets reaching ``threshold``: (negated, thr, strict), the
    count being C(N, k) minus #{sums of −values > thr} when ``negated``, else #{sums of values ≥ thr}."""
    thr = float(threshold) - tie_tolerance(values)
    check_exact_reach(values, k, thr, max_sums)
    if thr >= k * values.mean():
        return False, thr, False
    # sum ≥ thr  ⇔  not (sum < thr)  ⇔  not (−sum > −thr): count the lower tail on the negated values
    return True, -thr, True


def count_both_tails(values, k: int, observed: float, *, max_sums: int = EXACT_MAX_SUMS,
                     workers: int | None = None) -> tuple[int, int]:
    """The two tails of a subset-sum test at once: (#{sums ≥ observed}, #{sums ≤ observed}), each within
    :data:`~wordbias.stats.subset_sums.TIE_RTOL` as in :func:`count_subsets_at_least`.

    The same two counts as ``count_subsets_at_least(values, k, observed)`` and
    ``count_subsets_at_least(-values, k, -observed)``: when both are counted on the same values (the observed sum
    is not within the tie tolerance of the mean, on either side of it), the subset sums are built once for both,
    so a two-sided p costs about one count, not two.

    Parameters
    ----------
    values, k, observed : array_like of float, int, float
        The N values, the subset size and the observed sum (:mod:`~wordbias.stats.subset_sums`).
    max_sums : int, default EXACT_MAX_SUMS
        The most subset sums kept per half.
    workers : int, optional
        The threads to use (default: the CPUs available); the counts do not depend on it.

    Returns
    -------
    tuple of int
        The upper and the lower tail's counts.

    Raises
    ------
    ExactCountTooLarge, TooCostlyError, DegenerateSetError, InvalidParameterError
        As :func:`count_subsets_at_least`.

    Examples
    --------
    >>> count_both_tails([1.0, 2.0, 3.0, 4.0], 2, 5.0)   # ≥ 5: {1,4} {2,3} {2,4} {3,4}; ≤ 5: {1,2} {1,3} {1,4} {2,3}
    (4, 4)
    """
    values, k, observed, max_sums, workers = _checked(values, k, "observed", observed, max_sums, workers)
    out = tail_counts(values, k, observed, ("upper", "lower"), max_sums, workers)
    return out["upper"], out["lower"]


def tail_counts(values: np.ndarray, k: int, observed: float, wanted, max_sums: int, workers: int) -> dict:
    """The counts of the ``wanted`` tails (``"upper"``: sums ≥ observed, ``"lower"``: sums ≤ observed, each within
    the tie tolerance), on checked inputs; a tail not wanted is counted too, and remembered, when it is counted on
    the same array as a wanted one (it then costs one more sweep of the pairs, not a build), so that a two-sided p
    asked after a one-sided one is already known.

    The upper tail is :func:`count_subsets_at_least` on the values, the lower one on −values, each planned the
    same way (:func:`_plan`): counted on that array, or as the complement of the strict count on its negation
    (negating twice gives the values back, bit for bit). The counts on the same array share one build.

    Parameters
    ----------
    values : numpy.ndarray
        The N values, float64, checked (:func:`~wordbias.stats.subset_sums.check_values_and_k`).
    k : int
        The subset size, in [1, N − 1].
    observed : float
        The observed subset sum.
    wanted : collection of str
        ``"upper"``, ``"lower"`` or both.
    max_sums : int
        The most subset sums kept per half.
    workers : int
        The threads to use; the counts do not depend on it.

    Returns
    -------
    dict
        ``"upper"`` and/or ``"lower"`` to its count: every wanted tail, and the other where it came free.

    Examples
    --------
    >>> tail_counts(np.array([1.0, 2.0, 3.0, 4.0]), 2, 6.0, ("upper",), 1000, 1)   # the lower tail came free
    {'upper': 2, 'lower': 5}
    >>> tail_counts(np.array([1.0, 2.0, 3.0, 4.0]), 2, 5.0, ("upper",), 1000, 1)   # at the mean: another array
    {'upper': 4}
    """
    plans = {"upper": (False, _plan(values, k, observed, max_sums)), "lower": (True, _plan(-values, k, -observed,
                                                                                                 max_sums))}
    groups: dict[bool, list] = {}                 # on −values? -> [(tail, thr, strict, complement)]
    for name, (base_negated, (negated, thr, strict)) in plans.items():
        groups.setdefault(base_negated != negated, []).append((name, thr, strict, negated))
    n_all = comb(values.size, k)
    out = {}
    for on_negated, reqs in groups.items():
        if not any(name in wanted for name, *_ in reqs):
            continue
        counts = _count_at_least(-values if on_negated else values, k, [(t, st) for _, t, st, _ in reqs], max_sums,
                                 workers)
        for (name, _, _, negated), c in zip(reqs, counts):
            out[name] = n_all - c if negated else c
    return out


#: :func:`check_exact_reach` refuses only when the smaller tail holds at least this share of the partitions
#: by the normal approximation (the statistic is not in a tail: there the approximation is sound) ...
REACH_MIN_TAIL = 1e-3
#: ... and the partitions outnumber the pairs of subset sums the budget can form by this many orders of ten
REACH_MARGIN_DECADES = 8.0


def check_exact_reach(values, k: int, threshold: float, max_sums: int = EXACT_MAX_SUMS) -> None:
    """Refuse, before any work, an exact count that cannot succeed: :class:`~wordbias.core.errors.ExactCountTooLarge` (a
    :class:`~wordbias.core.errors.TooCostlyError`).

    The meet in the middle counts each qualifying subset as a pair of kept subset sums, one per half, so it can
    count at most ``max_sums**2`` subsets; when the observed sum is not in a tail (its smaller tail holds at least
    :data:`REACH_MIN_TAIL` of the partitions by the normal approximation,
    :func:`~wordbias.stats.subset_sums.subset_sum_moments`) and C(N, k) exceeds ``max_sums**2`` by
    :data:`REACH_MARGIN_DECADES` orders of ten, the tail holds far more subsets than that and the count would run
    for a while only to fail. The decision uses logarithms (:func:`~wordbias.core.costs.log10_comb`), so N = 10,000
    is refused at once; it never applies for N ≤ 52 at the default budget, where every subset sum is kept. The
    pruning bounds of each half, a table of (N/2 + 1)² floats, must also fit in
    :func:`~wordbias.core.costs.memory_limit` (N = 40,000 would need 6 GiB).

    Parameters
    ----------
    values, k, threshold : array_like of float, int, float
        The N values, the subset size and the sum to reach (the observed sum; :mod:`~wordbias.stats.subset_sums`).
    max_sums : int, default EXACT_MAX_SUMS
        The most subset sums kept per half.

    Raises
    ------
    ExactCountTooLarge
        When the count cannot succeed within ``max_sums`` (a :class:`~wordbias.core.errors.TooCostlyError`).
    TooCostlyError
        When the pruning bounds would not fit in memory.
    DegenerateSetError, InvalidParameterError
        On input the engine refuses (:mod:`~wordbias.stats.subset_sums`), ``max_sums`` included.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> check_exact_reach(rng.normal(size=200), 100, 0.0)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.ExactCountTooLarge: the exact count of the 9.05e+58 partitions (N=200, k=100) needs more than 67,108,864 subset sums per half (1 GiB; without pruning up to 1.27e+30 sums, 1.76e+13 EiB) and cannot succeed: by the normal approximation about 41% of them (~3.72x10^58) reach the observed sum, and the meet in the middle can count at most 67,108,864² = 4.5e+15 (max_sums per half, squared); refused before any work. Use p_method='monte-carlo' (n_permutations random partitions), p_method='normal', or a larger max_sums.
    """
    values, k = check_values_and_k(values, k)
    threshold = check_observed("threshold", threshold)
    max_sums = check_int("max_sums", max_sums, min=1)
    n = values.size
    half = (n + 1) // 2                 # the pruning bounds of each half: an (m + 1) x (m + 1) float64 table
    check_cost(f"the exact count of the partitions of N={n} values", 0.0, 2 * 8.0 * (half + 1) ** 2, float("inf"),
               "Use p_method='monte-carlo' (n_permutations random partitions) or p_method='normal'.")
    log_count = log10_comb(n, k)
    if log_count <= 2 * log10(max_sums) + REACH_MARGIN_DECADES:
        return
    mean, sd = k * float(values.mean()), sqrt(k * float(values.var()) * (n - k) / (n - 1))
    if not sd > 0:
        return
    tail = float(_sps.norm.sf(abs(float(threshold) - mean) / sd))
    if tail < REACH_MIN_TAIL:
        return
    m = half                                   # the larger half: every subset sum of size <= k it could keep
    full = 2 ** m if k >= m else sum(comb(m, j) for j in range(k + 1))
    raise ExactCountTooLarge(
        f"the exact count of the {count_text(comb(n, k))} partitions (N={n}, k={k}) needs more than {max_sums:,} "
        f"subset sums per half ({bytes_text(16.0 * max_sums)}; without pruning up to {draws_text(full)} sums, "
        f"{bytes_text(16 * full)}) and cannot succeed: by the normal approximation about {tail:.0%} of them "
        f"({power_text(log_count + log10(tail))}) reach the observed sum, and the meet in the middle can count at most "
        f"{max_sums:,}² = {float(max_sums) ** 2:.2g} (max_sums per half, squared); refused before any work. Use "
        f"p_method='monte-carlo' (n_permutations random partitions), p_method='normal', or a larger max_sums.")
