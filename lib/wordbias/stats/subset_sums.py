"""The subset-sum problem every permutation tail here solves: N pooled values, a subset size k, an observed sum.

A test statistic such as WEAT's s(X_i, Y_i, A, B) = 2 Σ_{w∈X_i} s(w) − Σ_{w∈X∪Y} s(w) (Caliskan et al. 2017,
Methods) increases with the subset sum over X_i, so its permutation p is the fraction of the size-k subsets of
the N values whose sum reaches the observed one (:mod:`wordbias.stats.permutation`). This module holds what the
exact count (:mod:`wordbias.stats.exact_count`), the Monte Carlo draws (:mod:`wordbias.stats.montecarlo`) and the
normal approximation share: the checks of their inputs, the tolerance under which two sums tie, and the exact
moments of a random subset sum.

The inputs every public function of the engine takes, and the errors its checks raise:

- ``values`` (array_like of float): the N pooled values, raveled; each finite
  (:class:`~wordbias.core.errors.InvalidParameterError` naming the positions of NaN or infinity), at least 2 of
  them (:class:`~wordbias.core.errors.DegenerateSetError`);
- ``k`` (int): the subset size, in [1, N − 1] (:class:`~wordbias.core.errors.InvalidParameterError` otherwise);
- ``observed_sum``, ``observed`` or ``threshold`` (float): the observed subset sum, or the sum to reach, finite;
- any option out of its range or not one of its choices: :class:`~wordbias.core.errors.InvalidParameterError`.

:func:`check_values_and_k` and :func:`check_observed` make these checks.
"""

from __future__ import annotations

from math import sqrt

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import as_float_array, check_finite, check_int, check_real

#: relative tolerance (times the sum of |values|) under which two subset sums count as tied
TIE_RTOL = 1e-10


def check_values_and_k(values, k) -> tuple[np.ndarray, int]:
    """The pooled values and the subset size, checked at the boundary of every public function of the
    permutation engine: the values as a finite float64 array (raveled;
    :func:`~wordbias.core.validation.as_float_array`, NaN or infinity refused naming the positions), at least 2
    of them (:class:`~wordbias.core.errors.DegenerateSetError`), and ``k`` as a Python ``int`` in [1, N − 1]
    (:func:`~wordbias.core.validation.check_int`: a numpy integer is converted, so an unsigned one cannot wrap
    around in ``k − j``; a float, a bool or a string is refused).

    Examples
    --------
    >>> check_values_and_k([[1, 2], [3, 4]], 2)
    (array([1., 2., 3., 4.]), 2)
    """
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


def check_observed(name: str, value) -> float:
    """The observed sum (or threshold) as a finite float (:func:`~wordbias.core.validation.check_real`)."""
    return check_real(name, value)


def check_workers(workers) -> int | None:
    """``workers``: None (the CPUs available) or an integer (at least 1 is used)."""
    return None if workers is None else max(1, check_int("workers", workers))


def tie_tolerance(values: np.ndarray) -> float:
    """How close two subset sums of ``values`` must be to tie: :data:`TIE_RTOL` times the sum of |values|
    (rounding differs between summation orders, so the observed subset always counts itself)."""
    return TIE_RTOL * max(float(np.abs(values).sum()), 1e-300)


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
    values, k = check_values_and_k(values, k)
    n = values.size
    mu = values.mean()
    var = values.var(ddof=0)
    return k * mu, sqrt(k * var * (n - k) / (n - 1))
