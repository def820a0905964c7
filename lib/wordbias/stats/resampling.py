"""What every bootstrap of :mod:`wordbias.measures` shares: the interval record, the checks of the options and of
the cost, and resamples given as index arrays.

Each word list is treated as a sample of words from a larger population of words that could have been chosen,
and resampled separately with replacement: the *multi-sample* nonparametric bootstrap (Efron & Tibshirani 1993,
*An Introduction to the Bootstrap*, Chapman & Hall, ch. 8 and 14, doi:10.1201/9780429246593). The intervals are
computed by :func:`scipy.stats.bootstrap` (multi-sample, ``vectorized=True``, methods ``"BCa"``,
``"percentile"`` and ``"basic"``, ``rng`` from ``seed``). SciPy resamples the data it is given; here the data
are the *indices* 0..n-1 of each word set, and each statistic maps a batch of index arrays to its value, a
resampled mean being a product with the counts of each index (:func:`index_counts`).

The bootstraps built on these parts: WEAT's d and statistic, and the effect size of two score samples
(:mod:`wordbias.measures.association.bootstrap`), WEFAT's correlation (:mod:`wordbias.measures.association.bootstrap_wefat`) and the
cosine of two mean-difference directions (:mod:`wordbias.measures.directions.bootstrap_direction`).

The options those bootstraps share, documented here once:

``n_resamples`` : int, default 10000
    The number of bootstrap resamples (>= 2).
``confidence_level`` : float, default 0.95
    The confidence level of the two-sided interval(s).
``method`` : {"BCa", "percentile", "basic"}, default "BCa"
    The interval method of :func:`scipy.stats.bootstrap` (:data:`BOOTSTRAP_METHODS`).
``seed`` : int or numpy.random.Generator, default 0
    Seed or generator of the resamples: the same seed gives the same intervals.
``max_seconds`` : float, default 600.0
    The longest the request may be estimated to take (:data:`wordbias.core.costs.MAX_SECONDS`); a request
    estimated to take longer, or more memory than :func:`wordbias.core.costs.memory_limit`, is refused before any
    resample (:func:`check_bootstrap_cost`, :class:`~wordbias.core.errors.TooCostlyError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wordbias.core.costs import check_resampling_cost, float_or_inf
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import (
    as_float_array,
    check_ddof,
    check_int,
    check_option,
    check_probability,
    check_same_dimension,
    check_seed,
)

# the other names here are the parts the bootstrap modules share; the public API is:
__all__ = ["BOOTSTRAP_METHODS", "BootstrapInterval", "index_counts"]

#: the interval methods of :func:`scipy.stats.bootstrap`
BOOTSTRAP_METHODS = ("BCa", "percentile", "basic")


@dataclass(frozen=True)
class BootstrapInterval:
    """A bootstrap confidence interval for one statistic.

    ``estimate`` is the statistic on the word lists given; [``low``, ``high``] the two-sided interval at
    ``confidence_level`` by ``method``; ``standard_error`` the standard deviation of the ``n_resamples``
    bootstrap replicates; ``resampled`` the word sets resampled (each separately, with replacement);
    ``n_undefined`` the replicates where the statistic was undefined (a zero standard deviation); when there
    are any, SciPy's interval is NaN.

    Attributes
    ----------
    statistic : str
        The name of the statistic (e.g. ``"effect_size"``, ``"statistic"``, ``"mean_difference"``).
    estimate : float
        The statistic on the word lists (or scores) given.
    low, high : float
        The bounds of the two-sided interval (NaN when a replicate was undefined).
    confidence_level : float
        The confidence level of the interval.
    method : {"BCa", "percentile", "basic"}
        The interval method of :func:`scipy.stats.bootstrap`.
    n_resamples : int
        The number of bootstrap resamples.
    resampled : tuple of str
        The sets resampled, each separately, with replacement.
    standard_error : float
        The standard deviation of the defined bootstrap replicates (NaN with fewer than two).
    n_undefined : int, default 0
        The number of replicates where the statistic was undefined.
    """

    statistic: str
    estimate: float
    low: float
    high: float
    confidence_level: float
    method: str
    n_resamples: int
    resampled: tuple[str, ...]
    standard_error: float
    n_undefined: int = 0

    def to_dict(self) -> dict:
        """A flat dict for one table row.

        Returns
        -------
        dict
            The fields by name; ``resampled`` joined into one string (``"XYAB"``).
        """
        return {"statistic": self.statistic, "estimate": self.estimate, "low": self.low, "high": self.high,
                "confidence_level": self.confidence_level, "method": self.method, "n_resamples": self.n_resamples,
                "resampled": "".join(self.resampled), "standard_error": self.standard_error,
                "n_undefined": self.n_undefined}


# --------------------------------------------------------------------------------------------------
# word vectors and resamples as index arrays
# --------------------------------------------------------------------------------------------------

def word_vectors(name: str, vectors) -> np.ndarray:
    """One set of word vectors (rows) as float64 (:func:`wordbias.core.validation.as_float_array`)."""
    return as_float_array(f"set {name}", vectors, what="a set of word vectors (one row per word)")


def word_vector_sets(names: Sequence[str], values: Sequence, least: Sequence[int], what: str,
                     who: str) -> list[np.ndarray]:
    """Several sets of word vectors, each as a 2-D float64 array of rows (one vector, 1-D, is one row), checked
    on entry: another shape (:class:`~wordbias.core.errors.InvalidParameterError`), fewer rows than ``least``
    (:class:`~wordbias.core.errors.DegenerateSetError`, naming the set and ``who`` needs them), and vectors of
    different dimensions (:func:`wordbias.core.validation.check_same_dimension`, naming each set's, as
    ``what``)."""
    mats = []
    for k, v, n_min in zip(names, values, least):
        m = word_vectors(k, v)
        if m.ndim > 2:
            raise InvalidParameterError(f"set {k}: expected a 2-D array of word vectors (one row per word), got "
                                        f"shape {m.shape}")
        n = 0 if m.size == 0 else np.atleast_2d(m).shape[0]
        if n < n_min:
            raise DegenerateSetError(f"set {k} has {n} word(s); {who} needs at least {n_min}")
        mats.append(np.atleast_2d(m))
    check_same_dimension(dict(zip(names, mats)), what)
    return mats


def index_counts(idx, n: int) -> np.ndarray:
    """How many times each of 0..n-1 occurs in each row of the integer array ``idx``.

    A resample given as indices, as counts (one bincount for all rows).

    Parameters
    ----------
    idx : array_like of int, shape (..., k)
        Resamples, each row ``k`` indices in 0..n-1.
    n : int
        The number of distinct indices (the size of the set resampled).

    Returns
    -------
    numpy.ndarray of int, shape (..., n)
        For each row of ``idx``, the count of each index.

    Examples
    --------
    >>> index_counts(np.array([[0, 0, 2], [1, 2, 2]]), 3).tolist()
    [[2, 0, 1], [0, 1, 2]]
    """
    idx = np.asarray(idx)
    lead = idx.shape[:-1]
    flat = idx.reshape(-1, idx.shape[-1])
    rows = flat.shape[0]
    counts = np.bincount((flat + n * np.arange(rows)[:, None]).ravel(), minlength=rows * n)
    return counts.reshape(*lead, n)


# --------------------------------------------------------------------------------------------------
# options, cost and the interval
# --------------------------------------------------------------------------------------------------

def check_resample(resample, sets: Sequence[str]) -> tuple[str, ...]:
    """The sets to resample (a sequence of names from ``sets``, or a string of one-letter names), each once, in
    the order of ``sets``."""
    if isinstance(resample, str):
        resample = tuple(resample)
    try:
        out = tuple(resample)
    except TypeError:
        raise InvalidParameterError(f"resample must be a sequence of set names from {list(sets)}, "
                                    f"not {resample!r}") from None
    for k in out:
        check_option("resample", k, sets)
    if not out or len(set(out)) != len(out):
        raise InvalidParameterError(f"resample must name at least one of {list(sets)}, each once; not {resample!r}")
    return tuple(k for k in sets if k in out)


def check_resampled_sizes(sizes, resampled: Sequence[str]) -> None:
    """Refuse to resample a set of fewer than two words (:class:`~wordbias.core.errors.DegenerateSetError`
    naming the set and the way out): a resample of one word is that word again, and SciPy's bootstrap refuses
    such a sample ("two or more observations") after the work has begun. ``sizes`` maps each set's name to
    its number of words; ``resampled`` names the sets resampled."""
    small = [(k, n) for k, n in dict(sizes).items() if k in resampled and n < 2]
    if small:
        k, n = small[0]
        rest = tuple(r for r in resampled if r not in dict(small))
        if all(len(r) == 1 for r in rest):
            rest = "".join(rest)
        hint = f", e.g. resample={rest!r}" if rest else ""
        raise DegenerateSetError(f"set {k} has {n} word{'' if n == 1 else 's'}: resampling it changes nothing "
                                 f"(leave it out of resample{hint}, or give it more words)")


def bootstrap_rng(seed):
    """The generator of the resamples: ``seed`` itself if it is a ``numpy.random.Generator``, else one seeded by
    it (an integer >= 0)."""
    seed = check_seed("seed", seed)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def check_bootstrap_options(n_resamples, confidence_level, method, ddof, resample, seed, sets: Sequence[str]):
    """The bootstrap options checked once: (n_resamples, confidence_level, ddof, resampled sets, generator)."""
    check_option("method", method, BOOTSTRAP_METHODS)
    return (check_int("n_resamples", n_resamples, min=2), check_probability("confidence_level", confidence_level),
            check_ddof(ddof), check_resample(resample, sets), bootstrap_rng(seed))


def check_bootstrap_cost(what: str, n_resamples: int, sizes: Sequence[int], ops_per_draw: float,
                         bytes_per_draw: float, *, method: str, max_seconds: float, batch: int | None = None) -> None:
    """Refuse a bootstrap out of proportion before any resample
    (:func:`wordbias.core.costs.check_resampling_cost`, :class:`~wordbias.core.errors.TooCostlyError`).

    :func:`scipy.stats.bootstrap` holds ``batch`` resamples at once (all of them by default), each an index
    array per resampled set (``sizes``) and the statistic's intermediates (``bytes_per_draw``), plus one float
    per replicate; BCa adds a jackknife over each set, as many leave-one-out samples as the largest set.

    Examples
    --------
    >>> check_bootstrap_cost("a WEAT bootstrap", 10 ** 9, [25, 25], 5_000, 8_000, method="BCa", max_seconds=600)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.TooCostlyError: a WEAT bootstrap with n_resamples=1,000,000,000 is estimated to take 6.94 h and 7.65 TiB of memory, over the budget (max_seconds=600, memory 4 GiB: wordbias.core.costs.MAX_BYTES or half this machine's); refused before any work. Use a smaller n_resamples (10,000 is the usual number), or pass a larger max_seconds if you mean it.
    """
    held = n_resamples if batch is None else min(batch, n_resamples)
    if method == "BCa":
        held = max(held, max(sizes))
    per_draw = bytes_per_draw + 8.0 * sum(sizes)
    check_resampling_cost(what, "n_resamples", n_resamples, ops_per_draw, per_draw, max_seconds=max_seconds,
                          held_draws=held, fixed_bytes=8.0 * float_or_inf(n_resamples),
                          way_out="a batch (resamples held at once)" if batch is not None else "")


class ResultRow:
    """Row ``i`` of a multi-output :class:`scipy.stats.BootstrapResult`."""

    def __init__(self, res, i):
        self.bootstrap_distribution = np.asarray(res.bootstrap_distribution)[i]
        self.confidence_interval = type(res.confidence_interval)(res.confidence_interval.low[i],
                                                                 res.confidence_interval.high[i])


def run_bootstrap(data: tuple, statistic, *, n_resamples: int, confidence_level: float, method: str, rng,
                  batch: int | None = None, quiet_degenerate: bool = False):
    """:func:`scipy.stats.bootstrap` of a vectorised ``statistic`` of the samples ``data`` (index arrays into the
    word sets, or scores), each resampled separately (``paired=False``, along the last axis); a resample where the
    statistic is undefined (NaN) is left to :func:`bootstrap_interval` to count, without NumPy's warning.
    ``quiet_degenerate``: a caller that reports an interval SciPy could not compute (NaN ends) in its result's notes
    asks for SciPy's DegenerateDataWarning to be left out."""
    import warnings

    from scipy import stats  # here: SciPy is loaded by the bootstraps only

    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        if quiet_degenerate:
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        return stats.bootstrap(data, statistic, n_resamples=n_resamples, vectorized=True, paired=False, axis=-1,
                               confidence_level=confidence_level, method=method, rng=rng, batch=batch)


def bootstrap_interval(name, estimate, res, confidence_level, method, n_resamples, resampled) -> BootstrapInterval:
    """The :class:`BootstrapInterval` of statistic ``name`` from SciPy's result ``res`` (or a :class:`ResultRow`
    of it): its interval, and the standard error and count of the replicates that are defined."""
    dist = np.asarray(res.bootstrap_distribution)
    ok = np.isfinite(dist)
    return BootstrapInterval(statistic=name, estimate=float(estimate), low=float(res.confidence_interval.low),
                             high=float(res.confidence_interval.high), confidence_level=confidence_level,
                             method=method, n_resamples=n_resamples, resampled=resampled,
                             standard_error=float(dist[ok].std(ddof=1)) if ok.sum() > 1 else float("nan"),
                             n_undefined=int((~ok).sum()))
