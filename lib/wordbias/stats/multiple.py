"""Multiple testing: adjusted p-values for a family (a battery) of tests.

A run of the papers' tests is a family: ten WEATs of Table 1, a Kurita battery, the report's attribute sets.
Each test's own p answers for that test alone; over a family of m tests some p fall below α by chance.
Two standard adjustments, as adjusted p-values (reject a test at level α when its adjusted p ≤ α):

* :func:`holm` — Holm (1979), "A simple sequentially rejective multiple test procedure", *Scandinavian
  Journal of Statistics* 6(2):65–70 (https://www.jstor.org/stable/4615733): controls the family-wise error
  rate (the chance of any false rejection) under any dependence between the tests.
* :func:`benjamini_hochberg` — Benjamini & Hochberg (1995), "Controlling the false discovery rate: a
  practical and powerful approach to multiple testing", *Journal of the Royal Statistical Society B*
  57(1):289–300 (https://doi.org/10.1111/j.2517-6161.1995.tb02031.x): controls the false discovery rate
  (the expected share of false rejections among the rejections) for independent or positively dependent
  tests (Benjamini & Yekutieli 2001, https://doi.org/10.1214/aos/1013699998).

The adjusted p-values are those of Wright (1992), "Adjusted p-values for simultaneous inference",
*Biometrics* 48(4):1005–1013 (https://doi.org/10.2307/2532694), as in R's ``p.adjust`` and
``scipy.stats.false_discovery_control``. :func:`adjust` gives both for a named family
(:class:`AdjustedPValues`, with ``to_frame()``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import as_float_array

__all__ = ["adjust_family", "AdjustedPValues", "adjust", "benjamini_hochberg", "holm"]


def _check_p(p, name: str = "p") -> np.ndarray:
    """The p-values as a 1-D float64 array: finite, in [0, 1], at least one."""
    arr = as_float_array(name, p, what="numbers (p-values)").ravel()
    if arr.size == 0:
        raise InvalidParameterError(f"{name} is empty: a family needs at least one test")
    bad = np.flatnonzero(~((arr >= 0) & (arr <= 1)))      # NaN fails both comparisons
    if bad.size:
        raise InvalidParameterError(f"{name} must be p-values in [0, 1]; positions {bad.tolist()[:10]} hold "
                                    f"{arr[bad][:10].tolist()}")
    return arr


def _in_given_order(p, adjust_sorted) -> np.ndarray:
    """The adjusted p-values of ``p`` (checked by :func:`_check_p`), in its order and shape: ``adjust_sorted`` maps
    the p-values sorted in ascending order (a stable sort, so ties keep their order) to their adjusted values."""
    shape = np.shape(p)
    flat = _check_p(p)
    order = np.argsort(flat, kind="stable")
    out = np.empty(flat.size)
    out[order] = adjust_sorted(flat[order])
    return out.reshape(shape)


def holm(p) -> np.ndarray:
    """Return Holm's (1979) step-down adjusted p-values, in the order given (any shape).

    With p_(1) ≤ … ≤ p_(m) sorted, the adjusted p_(i) is max_{j ≤ i} min(1, (m − j + 1)·p_(j)) (Holm 1979,
    §2; Wright 1992, §3.2): Holm rejects H_(1), …, H_(i) at level α while (m − j + 1)·p_(j) ≤ α, i.e. while
    the adjusted p ≤ α. Ties get equal adjusted values.

    Parameters
    ----------
    p : array_like of float
        The p-values of the family, in [0, 1] (any shape, at least one).

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order and shape of ``p``.

    Raises
    ------
    InvalidParameterError
        When ``p`` is empty or holds a value outside [0, 1] (or NaN).

    See Also
    --------
    benjamini_hochberg : The false-discovery-rate adjustment.
    adjust : Both adjustments for a named family.

    Examples
    --------
    m = 4; sorted 0.01, 0.02, 0.03, 0.5 times 4, 3, 2, 1 gives 0.04, 0.06, 0.06, 0.5, then the running max:

    >>> holm([0.03, 0.01, 0.5, 0.02]).round(6).tolist()
    [0.06, 0.04, 0.5, 0.06]
    """
    def step_down(p_sorted: np.ndarray) -> np.ndarray:
        scaled = p_sorted * np.arange(p_sorted.size, 0, -1)          # (m − j + 1)·p_(j), j = 1..m
        return np.minimum(np.maximum.accumulate(scaled), 1.0)

    return _in_given_order(p, step_down)


def benjamini_hochberg(p) -> np.ndarray:
    """Return Benjamini–Hochberg (1995) adjusted p-values, in the order given (any shape).

    They are the "q-values" of the step-up FDR procedure.

    With p_(1) ≤ … ≤ p_(m) sorted, the adjusted p_(i) is min_{j ≥ i} min(1, p_(j)·m / j) (Benjamini &
    Hochberg 1995, §3; Wright 1992): the procedure rejects H_(1), …, H_(k) for the largest k with
    p_(k) ≤ k·α/m, which are the tests whose adjusted p ≤ α. The arithmetic is p_(j)·(m / j), in that
    order, as ``scipy.stats.false_discovery_control(p, method="bh")`` computes it, so the two agree to the
    bit (the tests check it).

    Parameters
    ----------
    p : array_like of float
        As in :func:`holm`.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values (q-values), in the order and shape of ``p``.

    Raises
    ------
    InvalidParameterError
        As :func:`holm` does.

    See Also
    --------
    holm : The family-wise error rate adjustment.
    adjust : Both adjustments for a named family.

    Examples
    --------
    m = 4; sorted 0.001, 0.01, 0.03, 0.5 times 4/1, 4/2, 4/3, 4/4 gives 0.004, 0.02, 0.04, 0.5 (already
    increasing, so the running minimum from the top changes nothing):

    >>> benjamini_hochberg([0.01, 0.001, 0.5, 0.03]).round(6).tolist()
    [0.02, 0.004, 0.5, 0.04]
    >>> benjamini_hochberg([0.04, 0.03, 0.02]).round(6).tolist()    # 0.02·3 = 0.06 > 0.04: all three become 0.04
    [0.04, 0.04, 0.04]
    """
    def step_up(p_sorted: np.ndarray) -> np.ndarray:
        m = p_sorted.size
        scaled = p_sorted * (m / np.arange(1, m + 1))      # p_(j)·(m / j)
        return np.clip(np.minimum.accumulate(scaled[::-1])[::-1], 0.0, 1.0)

    return _in_given_order(p, step_up)


@dataclass(frozen=True)
class AdjustedPValues:
    """A family of tests with their p-values adjusted by Holm (1979) and Benjamini–Hochberg (1995).

    Attributes
    ----------
    family : str
        The family's name: which tests were counted together (the adjustment depends on it).
    tests : tuple of str
        The name of each test.
    p : numpy.ndarray
        The p-values, in the order of ``tests``.
    p_holm : numpy.ndarray
        Holm's adjusted p-values (:func:`holm`), in the order of ``tests``.
    p_bh : numpy.ndarray
        Benjamini–Hochberg's adjusted p-values (:func:`benjamini_hochberg`), in the order of ``tests``.
    m : int
        The number of tests in the family (a property).
    """

    family: str
    tests: tuple[str, ...]
    p: np.ndarray = field(repr=False)
    p_holm: np.ndarray = field(repr=False)
    p_bh: np.ndarray = field(repr=False)

    @property
    def m(self) -> int:
        """The number of tests in the family."""
        return len(self.tests)

    def to_frame(self) -> pd.DataFrame:
        """Return the family as a table, one row per test.

        Returns
        -------
        pandas.DataFrame
            The columns test, p, p_holm, p_bh and family.
        """
        return pd.DataFrame({"test": list(self.tests), "p": self.p, "p_holm": self.p_holm, "p_bh": self.p_bh,
                             "family": self.family})


def adjust(p, tests: Sequence[str] | None = None, *, family: str) -> AdjustedPValues:
    """Return Holm and Benjamini–Hochberg adjusted p-values for a named family of tests.

    Parameters
    ----------
    p : sequence of float or mapping of str to float or pandas.Series
        The p-values, one per test (1-D): a sequence (then ``tests`` names them), or a mapping (or a pandas
        Series) from test name to p-value.
    tests : sequence of str, optional
        The names of the tests of a sequence ``p``, distinct (default "1", "2", …).
    family : str
        Names the family in the result, since an adjusted p means nothing without the list of tests it was
        adjusted over.

    Returns
    -------
    AdjustedPValues
        The family, its tests and their p-values, raw and adjusted.

    Raises
    ------
    InvalidParameterError
        When ``family`` is empty, ``p`` is empty, not 1-D or holds a value outside [0, 1], names are given both
        as keys and as ``tests``, or the names do not match the p-values one to one.

    Examples
    --------
    >>> r = adjust({"WEAT 1": 1e-8, "WEAT 2": 0.004, "WEAT 3": 0.03}, family="Table 1")
    >>> r.p_holm.round(6).tolist(), r.p_bh.round(6).tolist()    # Holm: 3·1e-8, 2·0.004; BH: 3·0.004/2
    ([0.0, 0.008, 0.03], [0.0, 0.006, 0.03])
    >>> r.to_frame().columns.tolist(), r.family, r.m
    (['test', 'p', 'p_holm', 'p_bh', 'family'], 'Table 1', 3)
    """
    if not isinstance(family, str) or not family.strip():
        raise InvalidParameterError(f"family must be a non-empty string naming the family of tests, not {family!r}")
    if isinstance(p, (Mapping, pd.Series)):
        if tests is not None:
            raise InvalidParameterError("give the test names either as the keys of p or as tests, not both")
        items = list(p.items())
        tests, p = [str(k) for k, _ in items], [v for _, v in items]
    arr = _check_p(p)
    if np.ndim(p) > 1:
        raise InvalidParameterError(f"p must be one p-value per test (1-D), not of shape {np.shape(p)}")
    if tests is None:
        tests = [str(i + 1) for i in range(arr.size)]
    tests = tuple(str(t) for t in tests) if not isinstance(tests, str) else (tests,)
    if len(tests) != arr.size:
        raise InvalidParameterError(f"{len(tests)} test names for {arr.size} p-values")
    if len(set(tests)) != len(tests):
        dup = sorted({t for t in tests if tests.count(t) > 1})
        raise InvalidParameterError(f"test names must be distinct; repeated: {dup}")
    return AdjustedPValues(family=family, tests=tests, p=arr.copy(), p_holm=holm(arr), p_bh=benjamini_hochberg(arr))


def adjust_family(frame: pd.DataFrame, family: str) -> pd.DataFrame:
    """Return a copy of ``frame`` with the adjusted p-values of a family filled in.

    ``p_holm``, ``p_bh`` and ``p_family`` are filled over the rows that have a ``p_value`` (the family), by Holm
    (1979) and Benjamini–Hochberg (1995) (:func:`wordbias.stats.multiple.adjust`); rows without a p get NA in the
    three columns.

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy table.
    family : str
        The family's name (``p_family``), which should say which tests were counted together.

    Returns
    -------
    pandas.DataFrame
        The adjusted copy.

    Raises
    ------
    InvalidParameterError
        When ``frame`` is not a tidy table, or ``family`` is not a non-empty string while a row has a p-value.

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> t = tidy_frame([{"test": "a", "p_value": 0.01}, {"test": "b", "p_value": 0.04}, {"test": "c"}])
    >>> a = adjust_family(t, "my battery")
    >>> a["p_holm"].tolist()[:2], a["p_bh"].tolist()[:2], a["p_family"].tolist()   # m = 2: Holm 2·0.01, 1·0.04
    ([0.02, 0.04], [0.02, 0.04], ['my battery', 'my battery', <NA>])
    """
    import pandas as pd

    from wordbias.core.tidy import check_tidy

    check_tidy(frame)
    out = frame.copy()
    has_p = out["p_value"].notna().to_numpy()
    out["p_holm"] = np.nan
    out["p_bh"] = np.nan
    out["p_family"] = pd.array([pd.NA] * len(out), dtype="string")
    if has_p.any():
        result = adjust(out.loc[has_p, "p_value"].to_numpy(), [str(i) for i in range(int(has_p.sum()))], family=family)
        out.loc[has_p, "p_holm"] = result.p_holm
        out.loc[has_p, "p_bh"] = result.p_bh
        out.loc[has_p, "p_family"] = family
    return out
