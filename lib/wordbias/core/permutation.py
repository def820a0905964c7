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
from fractions import Fraction
from math import comb, lgamma, log, log10, sqrt

import numpy as np
from scipy import stats as _sps

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, TooCostlyError
from wordbias.core.validation import (as_float_array, check_finite, check_int, check_option, check_real, check_seed,
                                     degenerate_spread, spread_tolerance)

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


# --------------------------------------------------------------------------------------------------
# counts too large for a float (issue 23, item 2): C(10000, 5000) has 3,009 digits
# --------------------------------------------------------------------------------------------------

def log10_count(count: int) -> float:
    """log10 of a positive integer of any size, without converting it to a float (which overflows past
    ~1.8e308): from its top 53 bits and its bit length.

    Examples
    --------
    >>> round(log10_count(comb(10_000, 5_000)), 3)
    3008.202
    """
    count = int(count)
    if count <= 0:
        raise ValueError(f"log10_count needs a positive integer, not {count}")
    shift = max(0, count.bit_length() - 53)
    return log10(count >> shift) + shift * log10(2.0)


def log10_comb(n: int, k: int) -> float:
    """log10 C(n, k) = [lnΓ(n + 1) − lnΓ(k + 1) − lnΓ(n − k + 1)] / ln 10, for sizes whose count would
    overflow a float (to about 1e-12 relative; :func:`log10_count` of ``math.comb`` is exact to rounding).

    Examples
    --------
    >>> round(log10_comb(10_000, 5_000), 3)
    3008.202
    """
    return (lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)) / log(10.0)


#: integers up to this are shown in full or with ``:.3g``; larger ones as a power of ten
_FLOAT_SAFE = 2 ** 1000


def count_text(count: int) -> str:
    """A count for a message: as ``:.3g`` would show it (``1.26e+14``) when a float holds it, else
    ``~10^3008`` (never an ``OverflowError``, nor Python's limit on the digits of ``str(int)``).

    Examples
    --------
    >>> count_text(comb(50, 25)), count_text(comb(10_000, 5_000))
    ('1.26e+14', '~1.59x10^3008')
    """
    count = int(count)
    if count < _FLOAT_SAFE:
        return f"{count:.3g}"
    return power_text(log10_count(count))


def power_text(log10_value: float) -> str:
    """A positive number given by its log10, as ``~1.59x10^3008`` (for numbers past a float's range).

    Examples
    --------
    >>> power_text(3008.2014)
    '~1.59x10^3008'
    """
    whole = int(log10_value // 1)
    return f"~{10 ** (log10_value - whole):.3g}x10^{whole}"


def ratio(numerator: float, count: int) -> float:
    """``numerator / count`` as a float for an integer ``count`` of any size: the same float as before when the
    count fits in a float, else correctly rounded through :class:`fractions.Fraction` (down to 0.0 below the
    smallest float) instead of ``OverflowError: int too large to convert to float``.

    Examples
    --------
    >>> ratio(1.0, 20), ratio(2.0, comb(1_030, 515)), ratio(1.0, comb(10_000, 5_000))    # 515 + 515 words: 7e-309
    (0.05, 6.99388398449197e-309, 0.0)
    """
    if isinstance(count, int) and abs(count) >= _FLOAT_SAFE:
        return float(Fraction(numerator) / count)
    return numerator / count


def _as_float(n) -> float:
    """``float(n)``, or infinity when the integer is too large for a float (cost estimates)."""
    try:
        return float(n)
    except OverflowError:
        return float("inf")


def _bytes(n: float) -> str:
    n = _as_float(n)
    if n == float("inf"):
        return "more than 10^300 B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if n < 1024 or unit == "EiB":
            return f"{n:.3g} {unit}"
        n /= 1024


def _duration(seconds: float) -> str:
    seconds = _as_float(seconds)
    if seconds == float("inf"):
        return "forever (an estimate past 10^300 s)"
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
    n, k = check_int("n", n, min=0), check_int("k", k, min=0)
    kk = min(k, n - k)
    draws = _as_float(check_int("n_permutations", n_permutations, min=1))              # 10**400 draws: an infinite estimate, not an OverflowError
    seconds = draws * (kk + 1) / (MC_VALUES_PER_SECOND * max(1, workers))
    n_bytes = 8.0 * (draws / MC_BLOCK + 1) + (8.0 * draws if store else 0.0)
    return seconds, n_bytes


def check_mc_cost(n: int, k: int, n_permutations: int, *, workers: int | None = None, store: bool = False,
                  max_seconds: float = MAX_SECONDS) -> None:
    """Refuse a Monte Carlo request out of proportion (:func:`mc_cost` over ``max_seconds`` or memory),
    saying how long and how much memory it would take and what to do instead."""
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n, k = check_int("n", n, min=0), check_int("k", k, min=0)
    workers = _workers(workers)
    workers = default_workers() if workers is None else workers
    seconds, n_bytes = mc_cost(n, k, n_permutations, workers, store)
    check_cost(f"a Monte Carlo p-value with n_permutations={_draws_text(n_permutations)} (N={n}, k={k}, "
               f"{workers} thread(s))", seconds, n_bytes, max_seconds,
               "Use fewer permutations (10**5 to 10**7 resolve p to 1e-5 to 1e-7), p_method='normal' (the normal "
               "approximation, instant), or pass a larger max_seconds if you mean it.")


def _draws_text(n: int) -> str:
    return f"{n:,}" if n < 10 ** 15 else count_text(n)


#: multiply-adds per second of numpy's vectorised resampling statistics (gathers, index counts, matrix
#: products over a batch of resamples), a conservative figure for one laptop core
RESAMPLE_OPS_PER_SECOND = 2e8


def resampling_cost(n_draws: int, ops_per_draw: float, bytes_per_draw: float, *, held_draws: int | None = None,
                    fixed_bytes: float = 0.0, rate: float = RESAMPLE_OPS_PER_SECOND) -> tuple[float, float]:
    """(seconds, bytes) of ``n_draws`` resamples (bootstrap replicates, random partitions, sign patterns,
    random subsets of a word list): time = n_draws × ``ops_per_draw`` / ``rate``; memory = ``held_draws``
    (the resamples held at once: all of them unless the computation goes in batches) × ``bytes_per_draw`` +
    ``fixed_bytes``. Integers of any size give an infinite estimate, not an ``OverflowError``.

    Examples
    --------
    >>> resampling_cost(10_000, 2_000, 800)
    (0.1, 8000000.0)
    """
    draws = _as_float(check_int("n_draws", n_draws, min=1))
    held = draws if held_draws is None else min(draws, _as_float(held_draws))
    return draws * ops_per_draw / rate, held * bytes_per_draw + fixed_bytes


def check_resampling_cost(what: str, name: str, n_draws: int, ops_per_draw: float, bytes_per_draw: float, *,
                          max_seconds: float = MAX_SECONDS, held_draws: int | None = None, fixed_bytes: float = 0.0,
                          rate: float = RESAMPLE_OPS_PER_SECOND, way_out: str = "") -> None:
    """The one cost check of every resampling entry point (bootstraps, sign-flip draws, the random word
    lists of the sensitivity curve): refuse, before any work, ``n_draws`` resamples whose estimate
    (:func:`resampling_cost`) is over ``max_seconds`` or :func:`memory_limit`, with
    :class:`~wordbias.core.errors.TooCostlyError` naming ``name`` = ``n_draws``, the estimate and the way out
    (a smaller ``name``, ``way_out``, or a larger ``max_seconds``). The Monte Carlo p-value has its own
    estimate (:func:`check_mc_cost`) through the same :func:`check_cost`.

    Examples
    --------
    >>> check_resampling_cost("a bootstrap", "n_resamples", 10 ** 12, 1_000, 800)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.TooCostlyError: a bootstrap with n_resamples=1,000,000,000,000 is estimated to take 57.9 days and 728 TiB of memory, over the budget (max_seconds=600, memory 4 GiB: wordbias.core.permutation.MAX_BYTES or half this machine's); refused before any work. Use a smaller n_resamples (10,000 is the usual number), or pass a larger max_seconds if you mean it.
    """
    n_draws = check_int(name, n_draws, min=1)
    seconds, n_bytes = resampling_cost(n_draws, ops_per_draw, bytes_per_draw, held_draws=held_draws,
                                       fixed_bytes=fixed_bytes, rate=rate)
    usual = "10,000 is the usual number" if name == "n_resamples" else "a few thousand are usually enough"
    check_cost(f"{what} with {name}={_draws_text(n_draws)}", seconds, n_bytes, max_seconds,
               f"Use a smaller {name} ({usual}){', ' + way_out if way_out else ''}, or pass a larger max_seconds "
               f"if you mean it.")


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
            return ratio(sides, self.n_partitions)
        if self.p_method == "monte-carlo":
            return sides / (self.n_permutations + 1)
        return 0.0


def _check(values, k) -> tuple[np.ndarray, int]:
    """The pooled values and the subset size, checked at the boundary of every public function here: the
    values as a finite float64 array (raveled; :func:`~wordbias.core.validation.as_float_array`, NaN or infinity
    refused naming the positions), at least 2 of them (:class:`~wordbias.core.errors.DegenerateSetError`), and
    ``k`` as a Python ``int`` in [1, N − 1] (:func:`~wordbias.core.validation.check_int`: a numpy integer is
    converted, so an unsigned one cannot wrap around in ``k − j``; a float, a bool or a string is refused)."""
    values = as_float_array("values", values, what="a list of numbers (the pooled scores)").ravel()
    check_finite("values", values)
    k = check_int("k", k)
    n = values.size
    if n < 2:
        raise DegenerateSetError(f"values holds {n} value(s): a partition into a size-k subset and the rest needs "
                                 f"at least 2")
    if not 0 < k < n:
        raise InvalidParameterError(f"subset size k={k} must be between 1 and N-1 (N={n})")
    return values, k


def _observed(name: str, value) -> float:
    """The observed sum (or threshold) as a finite float (:func:`~wordbias.core.validation.check_real`)."""
    return check_real(name, value)


def _workers(workers) -> int | None:
    """``workers``: None (the CPUs available) or an integer (at least 1 is used)."""
    return None if workers is None else max(1, check_int("workers", workers))


def _max_seconds(max_seconds) -> float:
    """The time budget: a number > 0 or infinity (no limit), checked on entry (as :func:`check_cost` does)."""
    if isinstance(max_seconds, float) and max_seconds == float("inf"):
        return max_seconds
    return check_real("max_seconds", max_seconds, low=0, low_open=True)


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
                f"the exact count of the {count_text(comb(n, k))} partitions (N={n}, k={k}) needs more than "
                f"{max_sums:,} subset sums per half ({_bytes(16.0 * max_sums)}; without pruning up to "
                f"{_draws_text(full)} sums, {_bytes(16 * full)}): the observed statistic is not far enough in a tail for the pruning to "
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
    values, k = _check(values, k)
    threshold = _observed("threshold", threshold)
    max_sums = check_int("max_sums", max_sums, min=1)
    workers = _workers(workers)
    n = values.size
    thr = float(threshold) - _tolerance(values)
    check_exact_reach(values, k, thr, max_sums)
    workers = default_workers() if workers is None else workers
    if thr >= k * values.mean():
        return _count_at_least(values, k, thr, False, max_sums, workers)
    # sum ≥ thr  ⇔  not (sum < thr)  ⇔  not (−sum > −thr): count the lower tail on the negated values
    return comb(n, k) - _count_at_least(-values, k, -thr, True, max_sums, workers)


#: :func:`check_exact_reach` refuses only when the smaller tail holds at least this share of the partitions
#: by the normal approximation (the statistic is not in a tail: there the approximation is sound) ...
REACH_MIN_TAIL = 1e-3
#: ... and the partitions outnumber the pairs of subset sums the budget can form by this many orders of ten
REACH_MARGIN_DECADES = 8.0


def check_exact_reach(values, k: int, threshold: float, max_sums: int = EXACT_MAX_SUMS) -> None:
    """Refuse, before any work, an exact count that cannot succeed: :class:`ExactCountTooLarge` (a
    :class:`~wordbias.core.errors.TooCostlyError`).

    The meet in the middle counts each qualifying subset as a pair of kept subset sums, one per half, so it
    can count at most ``max_sums``² subsets; when the observed sum is not in a tail (its smaller tail holds at
    least :data:`REACH_MIN_TAIL` of the partitions by the normal approximation,
    :func:`subset_sum_moments`) and C(N, k) exceeds ``max_sums``² by :data:`REACH_MARGIN_DECADES` orders of
    ten, the tail holds far more subsets than that and the count would run for a while only to fail. The
    decision uses logarithms (:func:`log10_comb`), so N = 10,000 is refused at once; it never applies for
    N ≤ 52 at the default budget, where every subset sum is kept. The pruning bounds of each half, a table of
    (N/2 + 1)² floats, must also fit in :func:`memory_limit` (N = 40,000 would need 6 GiB).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> check_exact_reach(rng.normal(size=200), 100, 0.0)
    Traceback (most recent call last):
    ...
    wordbias.core.permutation.ExactCountTooLarge: the exact count of the 9.05e+58 partitions (N=200, k=100) needs more than 67,108,864 subset sums per half (1 GiB; without pruning up to 1.27e+30 sums, 1.76e+13 EiB) and cannot succeed: by the normal approximation about 41% of them (~3.72x10^58) reach the observed sum, and the meet in the middle can count at most 67,108,864² = 4.5e+15 (max_sums per half, squared); refused before any work. Use p_method='monte-carlo' (n_permutations random partitions), p_method='normal', or a larger max_sums.
    """
    values, k = _check(values, k)
    threshold = _observed("threshold", threshold)
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
        f"subset sums per half ({_bytes(16.0 * max_sums)}; without pruning up to {_draws_text(full)} sums, "
        f"{_bytes(16 * full)}) and cannot succeed: by the normal approximation about {tail:.0%} of them "
        f"({power_text(log_count + log10(tail))}) reach the observed sum, and the meet in the middle can count at most "
        f"{max_sums:,}² = {float(max_sums) ** 2:.2g} (max_sums per half, squared); refused before any work. Use "
        f"p_method='monte-carlo' (n_permutations random partitions), p_method='normal', or a larger max_sums.")


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
    values, k = _check(values, k)
    observed_sum = _observed("observed_sum", observed_sum)
    max_sums = check_int("max_sums", max_sums, min=1)
    workers = _workers(workers)
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
    values, k = _check(values, k)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    workers = _workers(workers)
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
    values, k = _check(values, k)
    observed_sum = _observed("observed_sum", observed_sum)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    workers = _workers(workers)
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
    values, k = _check(values, k)
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
    values, k = _check(values, k)
    observed_sum = _observed("observed_sum", observed_sum)
    check_option("alternative", alternative, ALTERNATIVES)
    mean, sd = subset_sum_moments(values, k)
    if degenerate_spread(values.std(), values):      # sd is that spread times sqrt(k (N − k) / (N − 1))
        raise DegenerateSetError(f"all values are equal{'' if sd == 0 else ' up to rounding'} (spread "
                                 f"{values.std():.3g}, rounding level {spread_tolerance(values):.3g}): the "
                                 f"permutation distribution is degenerate and the normal approximation undefined")
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
    values, k = _check(values, k)
    observed_sum = _observed("observed_sum", observed_sum)
    check_option("p_method", p_method, P_METHODS)
    check_option("alternative", alternative, ALTERNATIVES)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    exact_max_n = check_int("exact_max_n", exact_max_n, min=0)
    max_seconds = _max_seconds(max_seconds)
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
    raise InvalidParameterError(f"unknown p-value method {p_method!r}; use 'auto', 'exact', 'monte-carlo' or "
                                f"'normal'")
