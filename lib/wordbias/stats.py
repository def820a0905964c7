"""Permutation tests over equal-size partitions, shared by WEAT and its relatives.

The WEAT p-value (Caliskan et al. 2017, Methods) is the probability, over all partitions
(X_i, Y_i) of X ∪ Y into two sets of the sizes of X and Y, that the test statistic
s(X_i, Y_i, A, B) is at least the observed s(X, Y, A, B). Because

    s(X_i, Y_i, A, B) = sum_{w in X_i} s(w) - sum_{w in Y_i} s(w) = 2 sum_{w in X_i} s(w) - sum_{w in X ∪ Y} s(w),

the statistic is an increasing function of the subset sum over X_i. Every p-value in this module is
therefore a *subset-sum tail*: the fraction of the size-k subsets of N real values whose sum is at
least a threshold. Three ways to get it:

- :func:`subset_sum_tail_exact`: an exact count of all C(N, k) subsets, by meet in the middle
  (all subset sums of each half, grouped by subset size, combined by sorted search). Cost and memory
  grow as 2^(N/2), so it covers N up to about 44 in seconds.
- :func:`subset_sum_tail_mc`: seeded Monte Carlo over random partitions (each draw a uniformly random
  size-k subset, i.e. words drawn without replacement), with the add-one rule
  p = (1 + #{draws ≥ observed}) / (1 + R), which is a valid p-value for any R.
- :func:`subset_sum_tail_normal`: the normal approximation with the exact mean and variance of the
  permutation distribution (sampling without replacement from a finite population).

Ties: the observed partition is one of the partitions and counts as "at least as extreme", so the exact
p-value is never 0. A relative tolerance absorbs floating-point differences between summation orders.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb, sqrt

import numpy as np
from scipy import stats as _sps

#: relative tolerance (times the sum of |values|) under which two subset sums count as tied
TIE_RTOL = 1e-10

#: the largest N = |X ∪ Y| for which ``method="auto"`` uses the exact count
EXACT_MAX_N = 44


@dataclass(frozen=True)
class TailProbability:
    """A p-value with how it was obtained.

    ``method`` is ``"exact"``, ``"monte-carlo"`` or ``"normal"``. ``n_partitions`` is C(N, k), the
    number of partitions of the pooled set. For Monte Carlo, ``n_samples`` is the number of random
    partitions drawn, ``n_extreme`` how many reached the observed statistic, and ``se`` the binomial
    standard error of the estimate; ``resolution`` is the smallest p the method can report (1/C(N,k)
    exact, 1/(R+1) Monte Carlo, 0 for the normal approximation).
    """

    p_value: float
    method: str
    n_partitions: int
    n_samples: int | None = None
    n_extreme: int | None = None
    se: float | None = None

    @property
    def resolution(self) -> float:
        if self.method == "exact":
            return 1.0 / self.n_partitions
        if self.method == "monte-carlo":
            return 1.0 / (self.n_samples + 1)
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


def _all_subset_sums(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sums and sizes of all 2^n subsets of ``values``, by doubling (one numpy step per element)."""
    sums = np.zeros(1, dtype=np.float64)
    sizes = np.zeros(1, dtype=np.int8)
    for v in values:
        sums = np.concatenate([sums, sums + v])
        sizes = np.concatenate([sizes, sizes + 1])
    return sums, sizes


def count_subsets_at_least(values, k: int, threshold: float) -> int:
    """Number of size-``k`` subsets of ``values`` whose sum is ≥ ``threshold`` (within :data:`TIE_RTOL`).

    Meet in the middle: the values are split into halves L and R; for every j the subset sums of size j
    in L are matched against the sorted subset sums of size k-j in R with one ``searchsorted``.
    Exact integer count; memory and time O(2^(N/2)).
    """
    values = _check(values, k)
    n = values.size
    thr = float(threshold) - _tolerance(values)
    h = n // 2
    left_sums, left_sizes = _all_subset_sums(values[:h])
    right_sums, right_sizes = _all_subset_sums(values[h:])
    left_order = np.argsort(left_sizes, kind="stable")  # group the left sums by subset size
    left_sums = left_sums[left_order]
    left_bounds = np.searchsorted(left_sizes[left_order], np.arange(h + 2), side="left")
    order = np.lexsort((right_sums, right_sizes))  # by size, then by sum
    right_sums = right_sums[order]
    right_bounds = np.searchsorted(right_sizes[order], np.arange(n - h + 2), side="left")
    count = 0
    for j in range(max(0, k - (n - h)), min(h, k) + 1):
        a = left_sums[left_bounds[j]:left_bounds[j + 1]]
        b = right_sums[right_bounds[k - j]:right_bounds[k - j + 1]]
        # for each a, the number of b with a + b >= thr
        count += int((b.size - np.searchsorted(b, thr - a, side="left")).sum())
    return count


def subset_sum_tail_exact(values, k: int, observed_sum: float) -> TailProbability:
    """Exact Pr[sum of a uniformly random size-k subset ≥ observed_sum], counting all C(N, k) subsets."""
    values = _check(values, k)
    total = comb(values.size, k)
    count = count_subsets_at_least(values, k, observed_sum)
    return TailProbability(p_value=count / total, method="exact", n_partitions=total, n_extreme=count)


def random_subset_sums(values, k: int, n_samples: int, rng: np.random.Generator,
                       chunk: int = 65536, progress: bool = False) -> np.ndarray:
    """Sums over ``n_samples`` uniformly random size-``k`` subsets (words drawn without replacement).

    Each draw ranks N independent uniforms and takes the k smallest (``argpartition``), which gives a
    uniformly random k-subset. Draws are made in chunks; the sequence depends only on ``rng``'s seed and
    ``chunk``.
    """
    values = _check(values, k)
    n = values.size
    out = np.empty(n_samples, dtype=np.float64)
    starts = range(0, n_samples, chunk)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc="random partitions", unit="chunk", leave=False)
    for start in starts:
        m = min(chunk, n_samples - start)
        keys = rng.random((m, n))
        idx = np.argpartition(keys, k - 1, axis=1)[:, :k] if k < n else np.broadcast_to(np.arange(n), (m, n))
        out[start:start + m] = values[idx].sum(axis=1)
    return out


def subset_sum_tail_mc(values, k: int, observed_sum: float, n_samples: int = 100_000,
                       seed: int | np.random.Generator = 0, progress: bool = False) -> TailProbability:
    """Monte Carlo Pr[random size-k subset sum ≥ observed_sum] with the add-one rule.

    p = (1 + B) / (1 + R), where B of the R random partitions reach the observed sum. This is a valid
    (slightly conservative) p-value: it cannot be 0, and its resolution is 1/(R+1).
    """
    values = _check(values, k)
    if n_samples < 1:
        raise ValueError("n_samples must be at least 1")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    sums = random_subset_sums(values, k, n_samples, rng, progress=progress)
    extreme = int(np.count_nonzero(sums >= observed_sum - _tolerance(values)))
    p = (extreme + 1) / (n_samples + 1)
    se = sqrt(p * (1 - p) / n_samples)
    return TailProbability(p_value=p, method="monte-carlo", n_partitions=comb(values.size, k),
                           n_samples=n_samples, n_extreme=extreme, se=se)


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
    return TailProbability(p_value=p, method="normal", n_partitions=comb(values.size, k))


def subset_sum_tail(values, k: int, observed_sum: float, method: str = "auto",
                    n_samples: int = 100_000, seed: int | np.random.Generator = 0,
                    exact_max_n: int = EXACT_MAX_N, progress: bool = False) -> TailProbability:
    """Dispatch to the exact, Monte Carlo or normal tail.

    ``method="auto"`` counts exactly when N ≤ ``exact_max_n`` or when C(N, k) ≤ ``n_samples`` (then
    enumeration is no dearer than sampling), and otherwise uses Monte Carlo with ``n_samples`` draws.
    """
    values = _check(values, k)
    if method == "auto":
        small = values.size <= exact_max_n or comb(values.size, k) <= n_samples
        method = "exact" if small else "monte-carlo"
    if method == "exact":
        return subset_sum_tail_exact(values, k, observed_sum)
    if method in ("monte-carlo", "mc"):
        return subset_sum_tail_mc(values, k, observed_sum, n_samples=n_samples, seed=seed, progress=progress)
    if method == "normal":
        return subset_sum_tail_normal(values, k, observed_sum)
    raise ValueError(f"unknown p-value method {method!r}; use 'auto', 'exact', 'monte-carlo' or 'normal'")
