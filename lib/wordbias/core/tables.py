"""Student-facing views of the papers' tables: few columns, plain names, numbers that fit on one line.

The full tables stay in the CSVs the notebooks write; these functions only format what a notebook displays
(:func:`p_text` for p-values, :func:`interval_text` for intervals, :func:`number_text` for estimates)."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from wordbias.core.errors import InvalidParameterError

__all__ = ["MISSING", "p_text", "number_text", "interval_text", "interval_digits", "interval_bounds_text", "p_column", "interval_column", "yes_no", "small_number_text"]

#: what a cell shows when there is no value (a method without a model, a p not computed)
MISSING = "-"
#: below this a p-value is shown in scientific notation with two significant digits
SCIENTIFIC_BELOW = 1e-3


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or (
        not isinstance(value, str) and pd.isna(value))


def p_text(p) -> str:
    """Format a p-value as short text that fits one line.

    Three significant digits from 0.001 up (``0.0157``,
    ``0.359``, ``1``), two in scientific notation below (``1.5e-09``), ``0`` for 0 and :data:`MISSING` where
    there is none.

    Parameters
    ----------
    p : float or None
        The p-value, in [0, 1] (None or NaN for none).

    Returns
    -------
    str
        The text.

    Raises
    ------
    InvalidParameterError
        When ``p`` is outside [0, 1].

    Examples
    --------
    >>> [p_text(p) for p in (1.46e-9, 0.015678, 0.35917, 1.0, 0.001, 0.0, float("nan"))]
    ['1.5e-09', '0.0157', '0.359', '1', '0.001', '0', '-']
    """
    if _missing(p):
        return MISSING
    if not 0 <= float(p) <= 1:
        raise InvalidParameterError(f"a p-value must lie in [0, 1], not {p}")
    return small_number_text(p)


def small_number_text(value) -> str:
    """Format a number of any sign as :func:`p_text` formats p-values.

    A number formatted as :func:`p_text` formats p-values, of any sign: for the ends of an interval on p,
    which Appendix A's Wald interval does not clip to [0, 1].

    Parameters
    ----------
    value : float or None
        The number (None or NaN for none).

    Returns
    -------
    str
        ``0`` for 0, two significant digits in scientific notation below 0.001 in absolute value, else three
        significant digits; :data:`MISSING` where there is no value.

    Examples
    --------
    >>> small_number_text(-0.00012), small_number_text(0.0536), small_number_text(0)
    ('-1.2e-04', '0.0536', '0')
    """
    if _missing(value):
        return MISSING
    v = float(value)
    if v == 0:
        return "0"
    if abs(v) < SCIENTIFIC_BELOW:
        return f"{v:.1e}"
    return f"{v:.3g}"


def number_text(value, decimals: int = 2) -> str:
    """Format an estimate rounded to ``decimals`` places.

    An estimate rounded to ``decimals`` places (``1.50``, ``-0.08``), :data:`MISSING` where there is none.

    Parameters
    ----------
    value : float or None
        The estimate (None or NaN for none).
    decimals : int, default 2
        The decimal places.

    Returns
    -------
    str
        The text, e.g. ``1.50`` or ``-0.08``; :data:`MISSING` where there is no value.

    Examples
    --------
    >>> number_text(1.4987), number_text(-0.0812, 3), number_text(None)
    ('1.50', '-0.081', '-')
    """
    if _missing(value):
        return MISSING
    return f"{float(value):.{decimals}f}"


def interval_text(low, high, decimals: int = 2) -> str:
    """Format an interval as ``[low, high]`` rounded to ``decimals`` places.

    An interval as ``[low, high]`` rounded to ``decimals`` places, :data:`MISSING` if either end is missing.

    Parameters
    ----------
    low, high : float or None
        The interval's ends (None or NaN for none).
    decimals : int, default 2
        The decimal places.

    Returns
    -------
    str
        The text; :data:`MISSING` if either end is missing.

    Examples
    --------
    >>> interval_text(1.0931, 1.7544), interval_text(-0.0812, 1.74), interval_text(None, 1)
    ('[1.09, 1.75]', '[-0.08, 1.74]', '-')
    """
    if _missing(low) or _missing(high):
        return MISSING
    return f"[{float(low):.{decimals}f}, {float(high):.{decimals}f}]"


def p_column(values: Iterable) -> list[str]:
    """Format each p-value of a column with :func:`p_text`.

    :func:`p_text` of each value.

    Parameters
    ----------
    values : iterable of float
        The p-values.

    Returns
    -------
    list of str
        The texts, in order.

    Raises
    ------
    InvalidParameterError
        When a value is outside [0, 1].

    Examples
    --------
    >>> p_column([0.5, 1e-9, None])
    ['0.5', '1.0e-09', '-']
    """
    return [p_text(p) for p in values]


def interval_column(lows: Iterable, highs: Iterable, decimals: int = 2) -> list[str]:
    """Format each interval of two columns with :func:`interval_text`.

    :func:`interval_text` of each pair; the two columns must have the same length.

    Parameters
    ----------
    lows, highs : iterable of float
        The lower and upper ends, of the same length.
    decimals : int, default 2
        The decimal places.

    Returns
    -------
    list of str
        The texts, one per (low, high) pair, in order.

    Raises
    ------
    InvalidParameterError
        When the two columns differ in length.

    Examples
    --------
    >>> interval_column([0.1, None], [0.5, 1.0])
    ['[0.10, 0.50]', '-']
    """
    lows, highs = list(lows), list(highs)
    if len(lows) != len(highs):
        raise InvalidParameterError(f"{len(lows)} lower and {len(highs)} upper ends of intervals")
    return [interval_text(lo, hi, decimals) for lo, hi in zip(lows, highs)]


def yes_no(values: Iterable) -> list[str]:
    """Format true/false values as ``"yes"``/``"no"``.

    ``"yes"``/``"no"`` for true/false values, :data:`MISSING` where there is none.

    Parameters
    ----------
    values : iterable
        The values (None or NaN for none).

    Returns
    -------
    list of str
        ``"yes"``, ``"no"``, or :data:`MISSING` where there is no value.

    Examples
    --------
    >>> yes_no([True, False, None])
    ['yes', 'no', '-']
    """
    return [MISSING if _missing(v) else ("yes" if bool(v) else "no") for v in np.asarray(list(values), dtype=object)]


def interval_digits(low, high, *, level: float = 0.95, n_resamples, most: int = 2, least: int = 0) -> int:
    """The decimals a bootstrap interval's bounds can carry: no more than its Monte Carlo error supports.

    A bound is a quantile q of ``n_resamples`` bootstrap estimates (q = (1 - level) / 2 for a percentile
    interval; BCa shifts it a little), and a sample quantile's standard error is sqrt(q (1 - q) / B) / f(x_q)
    (the asymptotic variance of a sample quantile; e.g. Efron & Tibshirani 1993, *An Introduction to the
    Bootstrap*, ch. 19, on the Monte Carlo error of interval endpoints). With the estimates roughly normal, the
    bootstrap standard error is about (high - low) / (2 z) and f(x_q) = phi(z) / that, z the normal quantile of
    (1 + level) / 2. The last decimal shown is the first one that error does not swamp: floor(-log10(error)),
    kept within [``least``, ``most``]. With 10,000 resamples and an interval 0.8 wide, the error is 0.005 and
    two decimals are shown; with 1,000 resamples, 0.017 and one. ``most`` is 2 because a third decimal of a bound
    can flip with the floating-point rounding of another CPU's kernels even when the Monte Carlo error is smaller
    (seen under ``KERNELS=x86-64-v2``: 1.813 vs 1.814), and an effect size's third decimal is rarely news.

    Parameters
    ----------
    low, high : float
        The interval's bounds.
    level : float, default 0.95
        The interval's confidence level.
    n_resamples : int
        B, the bootstrap resamples.
    most : int, default 2
        The most decimals returned.
    least : int, default 0
        The fewest decimals returned (also what a missing bound or fewer than 2 resamples give).

    Returns
    -------
    int
        The decimals, in [``least``, ``most``] (``most`` for an interval of zero width).

    Examples
    --------
    >>> interval_digits(0.63, 1.43, n_resamples=10_000), interval_digits(0.63, 1.43, n_resamples=1_000)
    (2, 1)
    >>> interval_digits(0.100, 0.104, n_resamples=10_000), interval_digits(1.0, 1.0, n_resamples=100)
    (2, 2)
    """
    from scipy.stats import norm

    if _missing(low) or _missing(high) or _missing(n_resamples) or int(n_resamples) < 2:
        return least
    z = float(norm.ppf((1 + level) / 2))
    q = (1 - level) / 2
    sd = (float(high) - float(low)) / (2 * z)
    error = sd * math.sqrt(q * (1 - q) / int(n_resamples)) / float(norm.pdf(z))
    if not error > 0:
        return most
    return int(min(most, max(least, math.floor(-math.log10(error)))))


def interval_bounds_text(low, high, *, level: float = 0.95, n_resamples) -> str:
    """Format a bootstrap interval with the decimals its Monte Carlo error supports.

    ``[low, high]`` with the decimals :func:`interval_digits` allows (2 when ``n_resamples`` is missing), :data:`MISSING`
    if either bound is missing.

    Parameters
    ----------
    low, high : float or None
        The interval's bounds (None or NaN for none).
    level : float, default 0.95
        The interval's confidence level.
    n_resamples : int or None
        The bootstrap resamples; missing gives 2 decimals.

    Returns
    -------
    str
        ``[low, high]`` with the decimals :func:`interval_digits` allows, :data:`MISSING` if either bound is
        missing.

    Examples
    --------
    >>> interval_bounds_text(0.6312, 1.4371, n_resamples=10_000), interval_bounds_text(0.6312, 1.4371, n_resamples=500)
    ('[0.63, 1.44]', '[0.6, 1.4]')
    """
    if _missing(low) or _missing(high):
        return MISSING
    if _missing(n_resamples):                # not a bootstrap interval (or its size unknown): the tables' 2 decimals
        return interval_text(low, high)
    return interval_text(low, high, decimals=interval_digits(low, high, level=level, n_resamples=n_resamples))
