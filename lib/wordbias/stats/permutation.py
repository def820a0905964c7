"""The permutation engine: one- and two-sided p-values over the partitions of a pooled set (WEAT, Kurita, GAP).

A test statistic such as WEAT's s(X_i, Y_i, A, B) = 2 Σ_{w∈X_i} s(w) − Σ_{w∈X∪Y} s(w) (Caliskan et al. 2017,
Methods) increases with the subset sum over X_i, so each p-value here is a *subset-sum tail*: the fraction
of the size-k subsets of N values whose sum reaches the observed one. Three ways to get it: exact
(:func:`subset_sum_tail_exact`), Monte Carlo (:func:`subset_sum_tail_mc`) and the normal approximation
(:func:`subset_sum_tail_normal`); :func:`subset_sum_tail` chooses. This module turns counts into p-values
(:class:`TailProbability`); the counting is in :mod:`wordbias.stats.exact_count` (meet in the middle) and
:mod:`wordbias.stats.montecarlo` (random subsets), their loops in :mod:`wordbias.stats.kernels`, the checks of
their inputs in :mod:`wordbias.stats.subset_sums` and the budgets that refuse a request out of proportion in
:mod:`wordbias.core.costs`.

Every tail takes ``alternative`` as :func:`scipy.stats.permutation_test` does: ``"greater"`` (the default,
Pr[S ≥ s_obs]), ``"less"`` (Pr[S ≤ s_obs]) or ``"two-sided"``. The two-sided p is SciPy's: twice the smaller
one-sided p, capped at 1, p₂ = min(1, 2·min(p_≥, p_≤)) (SciPy's ``permutation_test``, "alternative"; the
"doubling" rule of Kulinskaya 2008, arXiv:0810.2124, and of Good, *Permutation, Parametric and Bootstrap
Tests of Hypotheses*, 3rd ed., Springer 2005, §3.2). It is chosen over the "as far from the mean"
rule ``Pr[|S − E S| ≥ |s_obs − E S|]`` because it needs no symmetry of the permutation distribution (a
subset-sum distribution is skewed when the values are), it is the one a reader can check with SciPy, and each
one-sided count it doubles is one the engine already makes: the exact count of the lower tail is the
upper-tail count on the negated values, and one Monte Carlo pass counts both tails of the same draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, sqrt

import numpy as np
from scipy import stats as _sps

from wordbias.core.costs import MAX_SECONDS, ratio
from wordbias.core.errors import DegenerateSetError, ExactCountTooLarge, InvalidParameterError
from wordbias.core.parallel import default_workers
from wordbias.core.validation import (
    ALTERNATIVES,
    check_int,
    check_option,
    check_real,
    check_seed,
    degenerate_spread,
    spread_tolerance,
)
from wordbias.stats.exact_count import EXACT_MAX_SUMS, tail_counts
from wordbias.stats.montecarlo import check_mc_cost, count_random_subsets, mc_key
from wordbias.stats.subset_sums import (
    check_observed,
    check_values_and_k,
    check_workers,
    subset_sum_moments,
    tie_tolerance,
)

#: the largest ``N = |X ∪ Y|`` for which ``p_method="auto"`` always counts exactly (every 25+25 test)
EXACT_MAX_N = 50

#: for N > :data:`EXACT_MAX_N`, ``p_method="auto"`` tries the tail-pruned exact count with this budget
#: per half (a few tenths of a second at most) and falls back to Monte Carlo when the tail is too large for it
AUTO_TAIL_SUMS = 2 ** 20

#: ``p_method="auto"`` attempts the tail-pruned exact count only up to this N
EXACT_TAIL_MAX_N = 128

#: the p-value methods of :func:`subset_sum_tail` ("mc" is an alias of "monte-carlo")
P_METHODS = ("auto", "exact", "monte-carlo", "mc", "normal")


@dataclass(frozen=True)
class TailProbability:
    """A p-value with how it was obtained.

    Attributes
    ----------
    p_value : float
        The p-value.
    p_method : {"exact", "monte-carlo", "normal"}
        How it was obtained.
    n_partitions : int
        C(N, k), the number of partitions of the pooled set.
    n_permutations : int or None
        For Monte Carlo, the number of random partitions drawn; None otherwise.
    n_extreme : int or None
        For the exact count, the number of partitions at least as extreme as the observed one; for Monte
        Carlo, how many of the random partitions reached the observed statistic; None for the normal
        approximation. Two-sided, the count of the smaller tail (the one doubled).
    se : float or None
        For Monte Carlo, the binomial standard error of the estimate (two-sided, twice that of the smaller
        tail); None otherwise.
    alternative : {"greater", "less", "two-sided"}
        The tail: ``"greater"`` (Pr[S ≥ s_obs]), ``"less"`` (Pr[S ≤ s_obs]) or ``"two-sided"``, min(1, 2·min
        of the two one-sided p) as in :func:`scipy.stats.permutation_test`.
    resolution : float
        The smallest p the method can report (1/C(N,k) exact, 1/(R+1) Monte Carlo, 0 for the normal
        approximation; twice these when two-sided). A property.

    Examples
    --------
    >>> t = TailProbability(p_value=0.05, p_method="exact", n_partitions=20, n_extreme=1)
    >>> t.resolution, TailProbability(0.1, "exact", 20, n_extreme=1, alternative="two-sided").resolution
    (0.05, 0.1)
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


def _max_seconds(max_seconds) -> float:
    """The time budget: a number > 0 or infinity (no limit), checked on entry (as
    :func:`wordbias.core.costs.check_cost` does)."""
    if isinstance(max_seconds, float) and max_seconds == float("inf"):
        return max_seconds
    return check_real("max_seconds", max_seconds, low=0, low_open=True)


def _two_sided(p_greater: float, p_less: float) -> float:
    """SciPy's two-sided p (``scipy.stats.permutation_test``): twice the smaller one-sided p, capped at 1."""
    return min(1.0, 2 * min(p_greater, p_less))


# --------------------------------------------------------------------------------------------------
# exact, Monte Carlo and normal tails
# --------------------------------------------------------------------------------------------------

def subset_sum_tail_exact(values, k: int, observed_sum: float, *, max_sums: int = EXACT_MAX_SUMS,
                          workers: int | None = None, alternative: str = "greater") -> TailProbability:
    """Return the exact Pr[sum of a uniformly random size-k subset ≥ observed_sum].

    All C(N, k) subsets are counted as :func:`~wordbias.stats.exact_count.count_subsets_at_least` does
    (:func:`~wordbias.stats.exact_count.tail_counts`: both tails from one build, remembered). The
    observed partition counts as at least as extreme, so p is never 0. ``alternative="less"`` gives
    Pr[sum ≤ observed_sum] (the upper-tail count of the negated values), and ``"two-sided"``
    min(1, 2·min(p_≥, p_≤)), SciPy's convention (see the module docstring); its ``n_extreme`` is the count of
    the smaller tail.

    Parameters
    ----------
    values, k, observed_sum : array_like of float, int, float
        The N pooled values, the subset size and the observed sum (:mod:`~wordbias.stats.subset_sums`).
    max_sums : int, default EXACT_MAX_SUMS
        The most subset sums kept per half by the count (:data:`~wordbias.stats.exact_count.EXACT_MAX_SUMS`).
    workers : int, optional
        The threads of the count (default: the CPUs available); the count does not depend on it.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail.

    Returns
    -------
    TailProbability
        The p-value, ``p_method="exact"``, with ``n_extreme`` and ``n_partitions``.

    Raises
    ------
    ExactCountTooLarge
        When the count needs more than ``max_sums`` subset sums per half.
    DegenerateSetError, InvalidParameterError
        On input the engine refuses (:mod:`~wordbias.stats.subset_sums`).

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
    values, k = check_values_and_k(values, k)
    observed_sum = check_observed("observed_sum", observed_sum)
    max_sums = check_int("max_sums", max_sums, min=1)
    workers = check_workers(workers)
    check_option("alternative", alternative, ALTERNATIVES)
    total = comb(values.size, k)
    # sum ≤ obs  ⇔  (−sum) ≥ −obs: the lower tail is the upper one's count on the negated values (the same
    # tolerance, Σ|values|); both tails share one build of the subset sums where they are counted on the same
    # values, and the tail not asked for is then remembered for a two-sided p (exact_count.tail_counts)
    wanted = {"greater": ("upper",), "less": ("lower",)}.get(alternative, ("upper", "lower"))
    tails = tail_counts(values, k, float(observed_sum), wanted, max_sums,
                        default_workers() if workers is None else workers)
    if alternative == "greater":
        return TailProbability(p_value=tails["upper"] / total, p_method="exact", n_partitions=total,
                               n_extreme=tails["upper"])
    if alternative == "less":
        return TailProbability(p_value=tails["lower"] / total, p_method="exact", n_partitions=total,
                               n_extreme=tails["lower"], alternative="less")
    upper, lower = tails["upper"], tails["lower"]
    count = min(upper, lower)
    return TailProbability(p_value=_two_sided(upper / total, lower / total), p_method="exact",
                           n_partitions=total, n_extreme=count, alternative="two-sided")


def subset_sum_tail_mc(values, k: int, observed_sum: float, n_permutations: int = 100_000,
                       seed: int | np.random.Generator = 0, progress: bool = False,
                       workers: int | None = None, max_seconds: float = MAX_SECONDS,
                       alternative: str = "greater") -> TailProbability:
    """Return the Monte Carlo Pr[random size-k subset sum ≥ observed_sum], with the add-one rule.

    p = (1 + B) / (1 + R), where B of the R random partitions reach the observed sum (within
    :data:`~wordbias.stats.subset_sums.TIE_RTOL`). This is a valid (slightly conservative) p-value: it cannot be 0,
    and its resolution is 1/(R+1). ``seed`` is an integer (through ``numpy.random.SeedSequence``) or a
    ``numpy.random.Generator`` (one 64-bit draw is taken from it).

    Each partition is a partial Fisher–Yates shuffle (a uniformly random size-k subset; the smaller side of the
    partition is drawn) with a xoshiro256** generator. Draws come in blocks of
    :data:`~wordbias.stats.montecarlo.MC_BLOCK`, block b seeded from (seed, b) alone, so the result is bit for bit
    the same for any ``workers`` (default: the CPUs available). A request estimated
    (:func:`~wordbias.stats.montecarlo.mc_cost`) to take more than ``max_seconds`` or too much memory is refused
    before any draw (:class:`~wordbias.core.errors.TooCostlyError`).

    ``alternative="less"`` counts the draws with sum ≤ observed_sum (+ the tie tolerance) instead, and
    ``"two-sided"`` counts both tails of the *same* draws in one pass and returns min(1, 2·min(p_≥, p_≤)),
    each one-sided p with the add-one rule, as :func:`scipy.stats.permutation_test` does; ``n_extreme`` is
    then the smaller tail's count and ``se`` twice its standard error. The draws do not depend on
    ``alternative``, so its "greater" and "less" results are those of the two-sided call.

    Parameters
    ----------
    values, k, observed_sum : array_like of float, int, float
        The N pooled values, the subset size and the observed sum (:mod:`~wordbias.stats.subset_sums`).
    n_permutations : int, default 100000
        R, the random partitions drawn (at least 1).
    seed : int or numpy.random.Generator, default 0
        The seed of the draws.
    progress : bool, default False
        Whether to show a progress bar.
    workers : int, optional
        The threads drawing (default: the CPUs available); the result does not depend on it.
    max_seconds : float, default MAX_SECONDS
        The time budget (:data:`wordbias.core.costs.MAX_SECONDS`); a request estimated to take longer is
        refused.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail.

    Returns
    -------
    TailProbability
        The p-value, ``p_method="monte-carlo"``, with ``n_permutations``, ``n_extreme`` and ``se``.

    Raises
    ------
    TooCostlyError
        When the draws are estimated to take more than ``max_seconds`` or too much memory.
    DegenerateSetError, InvalidParameterError
        On input the engine refuses (:mod:`~wordbias.stats.subset_sums`).

    Examples
    --------
    >>> p = subset_sum_tail_mc([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0, n_permutations=1000, seed=0)
    >>> p.n_extreme, round(p.p_value, 4), round(p.se, 4)   # (1 + 46) / 1001; exact: 1 / C(6, 3) = 0.05
    (46, 0.047, 0.0067)
    >>> two = subset_sum_tail_mc([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0, n_permutations=1000, seed=0,
    ...                          alternative="two-sided")
    >>> two.n_extreme, round(two.p_value, 4)                 # 2 · (1 + 46) / 1001
    (46, 0.0939)
    """
    values, k = check_values_and_k(values, k)
    observed_sum = check_observed("observed_sum", observed_sum)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    workers = check_workers(workers)
    check_option("alternative", alternative, ALTERNATIVES)
    check_mc_cost(values.size, k, n_permutations, workers=workers, max_seconds=max_seconds)
    tol = tie_tolerance(values)
    thr = observed_sum - tol
    n_partitions = comb(values.size, k)
    if alternative == "greater":
        extreme, _ = count_random_subsets(values, k, thr, int(n_permutations), mc_key(seed), False, workers, progress)
        p = (extreme + 1) / (n_permutations + 1)
        se = sqrt(p * (1 - p) / n_permutations)
        return TailProbability(p_value=p, p_method="monte-carlo", n_partitions=n_partitions,
                               n_permutations=n_permutations, n_extreme=extreme, se=se)
    # the lower tail: sum ≤ obs + tol, i.e. −sum ≥ −obs − tol, the "greater" rule on the negated values
    upper, _, lower = count_random_subsets(values, k, thr, int(n_permutations), mc_key(seed), False, workers,
                                           progress, thr_lo=float(observed_sum) + tol)
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


def subset_sum_tail_normal(values, k: int, observed_sum: float, alternative: str = "greater") -> TailProbability:
    """Return the tail by the normal approximation of the permutation distribution.

    p = 1 − Φ(z), z = (observed − mean) / sd, with the exact mean and standard deviation of
    :func:`~wordbias.stats.subset_sums.subset_sum_moments`. ``alternative="less"``: Φ(z); ``"two-sided"``:
    min(1, 2·min(1 − Φ(z), Φ(z))) = ``2·(1 − Φ(|z|))``.

    Parameters
    ----------
    values, k, observed_sum : array_like of float, int, float
        The N pooled values, the subset size and the observed sum (:mod:`~wordbias.stats.subset_sums`).
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail.

    Returns
    -------
    TailProbability
        The p-value, ``p_method="normal"``.

    Raises
    ------
    DegenerateSetError
        When there are fewer than 2 values, or all values are equal (up to rounding): the distribution is
        degenerate.
    InvalidParameterError
        When a value is not finite, ``k`` is out of range, or ``alternative`` is invalid.

    Examples
    --------
    >>> round(subset_sum_tail_normal([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0).p_value, 4)
    0.0248
    >>> round(subset_sum_tail_normal([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], 3, 12.0, alternative="two-sided").p_value, 4)
    0.0495
    """
    values, k = check_values_and_k(values, k)
    observed_sum = check_observed("observed_sum", observed_sum)
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


# --------------------------------------------------------------------------------------------------
# dispatch
# --------------------------------------------------------------------------------------------------

def subset_sum_tail(values, k: int, observed_sum: float, p_method: str = "auto",
                    n_permutations: int = 100_000, seed: int | np.random.Generator = 0,
                    exact_max_n: int = EXACT_MAX_N, progress: bool = False,
                    max_seconds: float = MAX_SECONDS, alternative: str = "greater") -> TailProbability:
    """Return a subset-sum tail by the exact, Monte Carlo or normal method.

    ``p_method="auto"`` counts exactly when N ≤ ``exact_max_n`` or when C(N, k) ≤ ``n_permutations`` (then
    enumeration is no dearer than sampling); for larger N (up to :data:`EXACT_TAIL_MAX_N`) it tries the
    tail-pruned exact count with a budget of :data:`AUTO_TAIL_SUMS` subset sums per half, which succeeds when
    the observed statistic is far in a tail, and otherwise uses Monte Carlo with ``n_permutations`` draws.
    ``p_method="exact"`` raises :class:`~wordbias.core.errors.ExactCountTooLarge` rather than fall back.

    Parameters
    ----------
    values, k, observed_sum : array_like of float, int, float
        The N pooled values, the subset size and the observed sum (:mod:`~wordbias.stats.subset_sums`).
    p_method : {"auto", "exact", "monte-carlo", "mc", "normal"}, default "auto"
        The method (:data:`P_METHODS`; ``"mc"`` is an alias of ``"monte-carlo"``).
    n_permutations : int, default 100000
        The Monte Carlo draws (at least 1).
    seed : int or numpy.random.Generator, default 0
        The seed of the Monte Carlo draws (an integer >= 0 or a generator).
    exact_max_n : int, default EXACT_MAX_N
        The largest N that ``"auto"`` always counts exactly (:data:`EXACT_MAX_N`).
    progress : bool, default False
        Whether to show a progress bar for the Monte Carlo draws.
    max_seconds : float, default MAX_SECONDS
        The time budget of the Monte Carlo draws; a request over it is refused up front
        (:func:`~wordbias.stats.montecarlo.check_mc_cost`).
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail (two-sided: SciPy's doubling rule, see the module docstring); the result names it.

    Returns
    -------
    TailProbability
        The p-value and how it was obtained.

    Raises
    ------
    ExactCountTooLarge
        With ``p_method="exact"``, when the count needs more subset sums than its budget.
    TooCostlyError
        When Monte Carlo draws are estimated to take more than ``max_seconds``.
    DegenerateSetError
        When there are fewer than 2 values (or, for the normal approximation, all are equal).
    InvalidParameterError
        When a value is not finite, ``k`` is out of range, or an option is invalid.

    Examples
    --------
    >>> values = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]     # observed: {3, 4, 5}, the largest of the 20 subsets
    >>> subset_sum_tail(values, 3, 12.0)
    TailProbability(p_value=0.05, p_method='exact', n_partitions=20, n_permutations=None, n_extreme=1, se=None, alternative='greater')
    >>> subset_sum_tail(values, 3, 12.0, p_method="monte-carlo", n_permutations=1000, seed=0).n_extreme
    46
    >>> subset_sum_tail(values, 3, 12.0, alternative="two-sided").p_value     # 2 · 1/20
    0.1
    """
    values, k = check_values_and_k(values, k)
    observed_sum = check_observed("observed_sum", observed_sum)
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
