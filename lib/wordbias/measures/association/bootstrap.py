"""Confidence intervals for WEAT by a bootstrap over the words.

Caliskan, Bryson & Narayanan (2017, *Science* 356:183, doi:10.1126/science.aal4230, Methods) define, for
target sets X, Y and attribute sets A, B, the association s(w, A, B), the test statistic s(X, Y, A, B) and
the effect size d (:mod:`wordbias.measures.association.weat`). Their permutation p-value asks only whether the target
labels could be shuffled; it says nothing about how d would move with other, equally valid word lists.
Here each of the four word lists is treated as a sample of words from a larger population of words that
could have been chosen, and resampled separately with replacement: the *multi-sample* nonparametric
bootstrap (Efron & Tibshirani 1993, *An Introduction to the Bootstrap*, Chapman & Hall, ch. 8 and 14,
doi:10.1201/9780429246593), the same resampling unit as the R package cbn's ``weat_boot`` (Lowe, 2018,
https://github.com/conjugateprior/cbn), which resamples words but gives only the raw statistic.

The intervals are computed by :func:`scipy.stats.bootstrap` (multi-sample, ``vectorized=True``, methods
``"BCa"``, ``"percentile"`` and ``"basic"``, ``rng`` from ``seed``). SciPy resamples the data it is given;
here the data are the *indices* 0..n-1 of each word set, and the statistic maps a batch of index arrays to
d by gathers on the cosine matrix of every target word with every attribute word, computed once
(:func:`target_attribute_cosines`). A resampled mean over an attribute set is a product with the counts of
each index (:func:`resampled_association`), so 10,000 resamples of a 25x25 test cost a few million
multiply-adds and no look-up.

**What the interval estimates.** The bootstrap estimates the sampling distribution of d for lists of the
sizes used, drawn from the empirical distribution of the lists given. Its target is therefore the
*population* d: the same formula with infinitely many words from each population (with equal target
sets, d computed on the whole pools; :func:`pool_effect_size`). d is not unbiased for it: with few
attribute words s(w, A, B) is noisy, which inflates the standard deviation in d's denominator and shrinks d
towards 0; the expected d of lists of size n, E[d_n], is smaller in magnitude than the pool's d. The
coverage study (``benchmarks/coverage_bootstrap.py``, ``tests/measures/association/test_bootstrap_coverage.py``)
measures the actual coverage of both estimands per set size.

Scores already computed (:func:`effect_size_bootstrap`): the two-sample bootstrap of the effect size of two
score arrays and of their mean difference, e.g. Kurita et al.'s (2019) attribute test over the bias scores of
the attributes (:func:`wordbias.measures.language_models.mlm.attribute_test`).

The same resampling gives WEFAT's correlation an interval (:mod:`wordbias.measures.association.bootstrap_wefat`) and the
cosine of two mean-difference directions, the racial bias report's bias
(:mod:`wordbias.measures.directions.bootstrap_direction`); the parts they share (the interval record, the option and cost
checks) are in :mod:`wordbias.stats.resampling`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from wordbias.core import lookup
from wordbias.core.costs import MAX_SECONDS
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import (
    as_float_array,
    check_ddof,
    check_finite,
    check_int,
    check_same_dimension,
    check_spread,
    degenerate_spread,
    spread_tolerance,
)
from wordbias.core.vectors import cosine_matrix
from wordbias.measures.association import weat as _weat
from wordbias.options import Resampling
from wordbias.stats.resampling import (
    BootstrapInterval,
    ResultRow,
    bootstrap_interval,
    check_bootstrap_cost,
    check_bootstrap_options,
    check_resampled_sizes,
    index_counts,
    run_bootstrap,
    word_vector_sets,
    word_vectors,
)

__all__ = [
    "WeatBootstrap",
    "target_attribute_cosines",
    "resampled_association",
    "resampled_weat",
    "pool_effect_size",
    "pool_effect_size_from_cosines",
    "weat_bootstrap_from_vectors",
    "weat_bootstrap",
    "weat_bootstrap_from_cosines",
    "effect_size_bootstrap",
]

#: the WEAT word sets, in the paper's notation
WEAT_SETS = ("X", "Y", "A", "B")


@dataclass(frozen=True)
class WeatBootstrap:
    """Bootstrap intervals of one WEAT: the effect size d and the test statistic s(X, Y, A, B).

    From :func:`effect_size_bootstrap`, the intervals are those of the effect size of two score samples and of
    their mean difference.

    Attributes
    ----------
    effect_size : BootstrapInterval
        The interval of the effect size d.
    statistic : BootstrapInterval
        The interval of the test statistic s(X, Y, A, B), or of the mean difference of two score samples.
    sizes : tuple of int
        The sizes of X, Y, A, B (or of the two samples).
    """

    effect_size: BootstrapInterval
    statistic: BootstrapInterval
    sizes: tuple[int, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per statistic.

        Returns
        -------
        pandas.DataFrame
            Two rows, the effect size then the statistic, with the columns of
            :meth:`BootstrapInterval.to_dict <wordbias.stats.resampling.BootstrapInterval.to_dict>`.
        """
        return pd.DataFrame([self.effect_size.to_dict(), self.statistic.to_dict()])


# --------------------------------------------------------------------------------------------------
# the vectorised statistic on index arrays
# --------------------------------------------------------------------------------------------------

def target_attribute_cosines(X, Y, A, B) -> np.ndarray:
    """cos(w, v) for every target word w of X ∪ Y and attribute word v of A ∪ B.

    This is the only quantity WEAT needs from the vectors (Caliskan et al. 2017, Methods). The four sets must
    have vectors of one dimension (:func:`wordbias.core.validation.check_same_dimension`, naming each set's).

    Parameters
    ----------
    X, Y, A, B : array_like of float, shape (n_set, dim)
        The vectors of the target sets X, Y and of the attribute sets A, B, one row per word.

    Returns
    -------
    numpy.ndarray of float, shape (n_x + n_y, n_a + n_b)
        The cosines; rows: X then Y; columns: A then B.

    Raises
    ------
    InvalidParameterError
        When a set is not an array of numbers, or the sets differ in dimension.
    DegenerateSetError
        When a vector is zero or not finite.

    Examples
    --------
    >>> C = target_attribute_cosines([[1, 0]], [[0, 1]], [[1, 0]], [[1, 1]])
    >>> np.round(C, 4).tolist()
    [[1.0, 0.7071], [0.0, 0.7071]]
    """
    X, Y, A, B = (word_vectors(k, v) for k, v in zip(WEAT_SETS, (X, Y, A, B)))
    check_same_dimension(dict(zip(WEAT_SETS, (X, Y, A, B))), "the four sets")
    return cosine_matrix(np.vstack([X, Y]), np.vstack([A, B]))


def resampled_association(C_a, C_b, ia, ib) -> np.ndarray:
    """The association s(w, A*, B*) of every target word with every resample A*, B* of the attribute sets.

    s(w, A*, B*) = mean_{a∈A*} cos(w, a) − mean_{b∈B*} cos(w, b) (Methods, WEAT). The mean over a resample is a
    product with its index counts (:func:`~wordbias.stats.resampling.index_counts`).

    Parameters
    ----------
    C_a, C_b : numpy.ndarray of float, shape (n_w, n_a) and (n_w, n_b)
        The cosines cos(w, A) and cos(w, B) of each target word w (rows) with the attribute words.
    ia, ib : array_like of int, shape (..., k_a) and (..., k_b)
        The resamples of A and of B as index arrays into the columns of ``C_a`` and ``C_b``, of the same
        leading shape.

    Returns
    -------
    numpy.ndarray of float, shape (..., n_w)
        s(w, A*, B*) for each resample and target word.

    Examples
    --------
    >>> C_a, C_b = np.array([[0.5, 0.1]]), np.array([[0.2]])
    >>> resampled_association(C_a, C_b, np.array([[0, 0], [0, 1]]), np.array([[0], [0]])).round(4).tolist()
    [[0.3], [0.1]]
    """
    ia, ib = np.asarray(ia), np.asarray(ib)
    ca = index_counts(ia, C_a.shape[1]) / ia.shape[-1]
    cb = index_counts(ib, C_b.shape[1]) / ib.shape[-1]
    return ca @ C_a.T - cb @ C_b.T


def resampled_weat(C, n_x: int, n_a: int, ix, iy, ia, ib, ddof: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The test statistic s(X*, Y*, A*, B*) and the effect size d* (Methods, WEAT) of each resample.

    A resample whose s(w, A*, B*) are all equal, up to rounding
    (:func:`wordbias.core.validation.degenerate_spread`), has d* = NaN.

    Parameters
    ----------
    C : numpy.ndarray of float, shape (n_x + n_y, n_a + n_b)
        The cosine matrix of :func:`target_attribute_cosines`.
    n_x : int
        The number of words of X: the first ``n_x`` rows of ``C``.
    n_a : int
        The number of words of A: the first ``n_a`` columns of ``C``.
    ix, iy, ia, ib : array_like of int
        The resamples of X, Y, A and B as index arrays (into each set, from 0), of shape (..., k) with leading
        shapes that broadcast.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d*.

    Returns
    -------
    statistic : numpy.ndarray of float
        s(X*, Y*, A*, B*) of each resample (the broadcast leading shape).
    effect_size : numpy.ndarray of float
        d* of each resample, NaN where it is undefined.

    Raises
    ------
    InvalidParameterError
        When ``ddof`` is not 0 or 1.

    Examples
    --------
    Without resampling (the identity indices) it is :func:`wordbias.measures.association.weat.effect_size`:

    >>> rng = np.random.default_rng(0)
    >>> C = rng.uniform(-1, 1, (5, 4))
    >>> s, d = resampled_weat(C, 2, 2, np.arange(2), np.arange(3), np.arange(2), np.arange(2))
    >>> sw = C[:, :2].mean(1) - C[:, 2:].mean(1)
    >>> bool(np.isclose(d, _weat.effect_size(sw[:2], sw[2:])))
    True
    """
    ddof = check_ddof(ddof)
    lead = np.broadcast_shapes(*(np.shape(i)[:-1] for i in (ix, iy, ia, ib)))
    ix, iy, ia, ib = (np.broadcast_to(i, lead + np.shape(i)[-1:]) for i in (ix, iy, ia, ib))
    s = resampled_association(C[:, :n_a], C[:, n_a:], ia, ib)            # (..., n_x + n_y)
    s_x = np.take_along_axis(s, ix, axis=-1)
    s_y = np.take_along_axis(s, iy + n_x, axis=-1)
    stat = s_x.sum(-1) - s_y.sum(-1)
    pooled = np.concatenate([s_x, s_y], axis=-1)
    sd = pooled.std(axis=-1, ddof=ddof)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = (s_x.mean(-1) - s_y.mean(-1)) / np.where(degenerate_spread(sd, pooled, axis=-1), np.nan, sd)
    return stat, d


def pool_effect_size(X, Y, A, B, ddof: int = 0) -> float:
    """The population effect size: d (Methods, WEAT) with each set the whole pool of words it is drawn from.

    The standard deviation is taken over X ∪ Y with *equal weight* for the two target populations (the limit
    of d for equal target sets of growing size). It is the target of the bootstrap interval, and not
    E[d] of small lists drawn from the pools (see the module docstring).

    Parameters
    ----------
    X, Y, A, B : array_like of float, shape (n_set, dim)
        The vectors of the pools of X, Y, A and B, one row per word.
    ddof : {0, 1}, default 0
        Delta degrees of freedom of the standard deviation: 0 (population, the default) or 1, which scales
        the variance by N / (N − 1) for N = ``|X| + |Y|``.

    Returns
    -------
    float
        The pools' effect size.

    Raises
    ------
    DegenerateSetError
        When all target words have the same association (up to rounding), or a vector is zero.
    InvalidParameterError
        When ``ddof`` is not 0 or 1, or the sets are not arrays of one dimension.

    See Also
    --------
    pool_effect_size_from_cosines

    Examples
    --------
    >>> X, Y = [[1, 0], [1, 0.2]], [[0, 1], [0.2, 1]]
    >>> round(pool_effect_size(X, Y, [[1, 0]], [[0, 1]]), 4)
    1.9856
    """
    return pool_effect_size_from_cosines(target_attribute_cosines(X, Y, A, B), len(X), len(A), ddof)


def pool_effect_size_from_cosines(C, n_x: int, n_a: int, ddof: int = 0) -> float:
    """:func:`pool_effect_size` from the cosine matrix of :func:`target_attribute_cosines`.

    Parameters
    ----------
    C : array_like of float, shape (n_x + n_y, n_a + n_b)
        The cosines of the target pools (rows) with the attribute pools (columns).
    n_x : int
        The size of the X pool: the first ``n_x`` rows of ``C``.
    n_a : int
        The size of the A pool: the first ``n_a`` columns of ``C``.
    ddof : {0, 1}, default 0
        Delta degrees of freedom of the standard deviation (:func:`pool_effect_size`).

    Returns
    -------
    float
        The pools' effect size (:func:`pool_effect_size`).

    Raises
    ------
    DegenerateSetError
        When all target words have the same association (up to rounding).
    InvalidParameterError
        When ``ddof`` is not 0 or 1, or ``C`` is not a 2-D array of numbers.

    Examples
    --------
    With pools of equal sizes it is d with the population standard deviation:

    >>> C = np.array([[.9, .1], [.7, .2], [.2, .8], [.1, .5]])
    >>> s = C[:, 0] - C[:, 1]
    >>> bool(np.isclose(pool_effect_size_from_cosines(C, 2, 1), _weat.effect_size(s[:2], s[2:], ddof=0)))
    True
    """
    ddof = check_ddof(ddof)
    C = as_float_array("C", C, ndim=2, what="a cosine matrix (targets x attributes)")
    s = C[:, :n_a].mean(1) - C[:, n_a:].mean(1)
    s_x, s_y = s[:n_x], s[n_x:]
    mean = (s_x.mean() + s_y.mean()) / 2
    var = (((s_x - mean) ** 2).mean() + ((s_y - mean) ** 2).mean()) / 2
    if ddof:
        var *= s.size / (s.size - ddof)
    check_spread(s, np.sqrt(var), "all target words have the same association s(w, A, B): the pool's effect size "
                                  "is undefined")
    return float((s_x.mean() - s_y.mean()) / np.sqrt(var))


# --------------------------------------------------------------------------------------------------
# the intervals
# --------------------------------------------------------------------------------------------------

def weat_bootstrap_from_cosines(C, n_x: int, n_a: int, *, n_resamples: int = 10_000,
                                confidence_level: float = 0.95, method: str = "BCa",
                                resample: Sequence[str] = WEAT_SETS, seed=0, ddof: int = 1,
                                max_seconds: float = MAX_SECONDS) -> WeatBootstrap:
    """:func:`weat_bootstrap_from_vectors` from the cosine matrix ``C`` of :func:`target_attribute_cosines`.

    Parameters
    ----------
    C : array_like of float, shape (n_x + n_y, n_a + n_b)
        The finite cosine matrix; rows: the ``n_x`` words of X, then Y; columns: the ``n_a`` words of A,
        then B.
    n_x : int
        The number of words of X (at least 2, and at least 2 rows left for Y).
    n_a : int
        The number of words of A (at least 1, and at least 1 column left for B).
    n_resamples, confidence_level, method, seed, max_seconds : optional
        The bootstrap's options (:mod:`wordbias.stats.resampling`).
    resample : sequence of str, default ("X", "Y", "A", "B")
        The sets to resample (each separately, with replacement); a string of letters such as ``"AB"`` works.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d.

    Returns
    -------
    WeatBootstrap
        The intervals of d and of s(X, Y, A, B), and the sizes of X, Y, A, B.

    Raises
    ------
    InvalidParameterError
        When ``C`` is not a finite 2-D matrix, or an option or size is out of range.
    DegenerateSetError
        When all target words have the same association (d is undefined).
    TooCostlyError
        When the request is estimated to take more than ``max_seconds`` or too much memory.

    Examples
    --------
    >>> C = np.array([[.9, .8, .1, .2], [.7, .9, .3, .1], [.2, .1, .8, .9], [.3, .2, .7, .6]])
    >>> r = weat_bootstrap_from_cosines(C, 2, 2, n_resamples=500, method="percentile", seed=3)
    >>> round(r.statistic.estimate, 4), r.sizes
    (2.4, (2, 2, 2, 2))
    """
    n_resamples, confidence_level, ddof, resampled, rng = check_bootstrap_options(
        n_resamples, confidence_level, method, ddof, resample, seed, WEAT_SETS)
    C = as_float_array("C", C, what="a cosine matrix (targets x attributes)")
    if C.ndim != 2 or not np.all(np.isfinite(C)):
        raise InvalidParameterError(f"C must be a finite 2-D cosine matrix, not an array of shape {C.shape}")
    n_x = check_int("n_x", n_x, min=2, max=C.shape[0] - 2)
    n_a = check_int("n_a", n_a, min=1, max=C.shape[1] - 1)
    sizes = (n_x, C.shape[0] - n_x, n_a, C.shape[1] - n_a)
    check_resampled_sizes(zip(WEAT_SETS, sizes), resampled)
    n_t, n_v = C.shape
    check_bootstrap_cost("a WEAT bootstrap", n_resamples, [n for k, n in zip(WEAT_SETS, sizes) if k in resampled],
                         n_v * n_t + 10 * n_t, 8.0 * (3 * n_v + 8 * n_t), method=method, max_seconds=max_seconds)
    full = {k: np.arange(n) for k, n in zip(WEAT_SETS, sizes)}
    stat0, d0 = resampled_weat(C, n_x, n_a, *full.values(), ddof=ddof)
    if not np.isfinite(d0):
        raise DegenerateSetError("all target words have the same association s(w, A, B): the effect size is undefined")

    def indices(args):
        got = dict(zip(resampled, args))
        return [got.get(k, full[k]) for k in WEAT_SETS]

    def both(*args, axis=-1):               # one call, the same resamples for d and s(X, Y, A, B)
        stat, d = resampled_weat(C, n_x, n_a, *indices(args), ddof=ddof)
        return np.stack([d, stat])

    res = run_bootstrap(tuple(full[k] for k in resampled), both, n_resamples=n_resamples,
                        confidence_level=confidence_level, method=method, rng=rng)
    out = {name: bootstrap_interval(name, est, ResultRow(res, i), confidence_level, method, n_resamples, resampled)
           for i, (name, est) in enumerate((("effect_size", d0), ("statistic", stat0)))}
    return WeatBootstrap(effect_size=out["effect_size"], statistic=out["statistic"], sizes=sizes)


def weat_bootstrap_from_vectors(X, Y, A, B, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                                method: str = "BCa", resample: Sequence[str] = WEAT_SETS, seed=0,
                                ddof: int = 1, max_seconds: float = MAX_SECONDS) -> WeatBootstrap:
    """Bootstrap intervals of WEAT's effect size d and test statistic s(X, Y, A, B) from word vectors.

    The statistics are Caliskan et al.'s (2017, Methods), on the vectors of the four word sets (rows); each set
    named in ``resample`` is resampled separately, with replacement (multi-sample bootstrap; Efron & Tibshirani
    1993, ch. 8), by :func:`scipy.stats.bootstrap` with ``vectorized=True`` on index arrays (see the module
    docstring).

    ``method`` is ``"BCa"`` (bias-corrected and accelerated; Efron 1987, JASA 82:171,
    doi:10.1080/01621459.1987.10478410), ``"percentile"`` or ``"basic"``. The same ``seed`` gives the same
    intervals. A resample where d is undefined (all s(w, A*, B*) equal; possible only with tiny sets) makes
    SciPy's interval of d NaN (with its ``DegenerateDataWarning``); ``n_undefined`` counts them. A request
    estimated to take more than ``max_seconds`` or more memory than
    :func:`wordbias.core.costs.memory_limit` is refused before any resample
    (:func:`~wordbias.stats.resampling.check_bootstrap_cost`, :class:`~wordbias.core.errors.TooCostlyError`).

    Parameters
    ----------
    X, Y : array_like of float, shape (n_set, dim)
        The vectors of the target sets, one row per word (at least 2 each).
    A, B : array_like of float, shape (n_set, dim)
        The vectors of the attribute sets, one row per word (at least 1 each).
    n_resamples, confidence_level, method, resample, seed, ddof, max_seconds : optional
        As for :func:`weat_bootstrap_from_cosines`.

    Returns
    -------
    WeatBootstrap
        :func:`weat_bootstrap_from_cosines`'s intervals and sizes, on the cosines of the four sets.

    Raises
    ------
    InvalidParameterError
        When a set is not a 2-D array of numbers, the sets differ in dimension, or an option is out of range.
    DegenerateSetError
        When a set is too small, a vector is zero, or all target words have the same association.
    TooCostlyError
        When the request is estimated to take more than ``max_seconds`` or too much memory.

    See Also
    --------
    weat_bootstrap : the same from an embedding and word lists.
    pool_effect_size : the population effect size the interval estimates.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> X, Y = rng.normal(0.3, 1, (8, 5)), rng.normal(-0.3, 1, (8, 5))
    >>> A, B = rng.normal(0.3, 1, (8, 5)), rng.normal(-0.3, 1, (8, 5))
    >>> r = weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=2000, seed=0)
    >>> r.effect_size.low < r.effect_size.estimate < r.effect_size.high, r.effect_size.method
    (True, 'BCa')
    """
    mats = word_vector_sets(WEAT_SETS, (X, Y, A, B), (2, 2, 1, 1), "the four sets", "WEAT's bootstrap")
    return weat_bootstrap_from_cosines(target_attribute_cosines(*mats), mats[0].shape[0], mats[2].shape[0],
                                       n_resamples=n_resamples, confidence_level=confidence_level, method=method,
                                       resample=resample, seed=seed, ddof=ddof, max_seconds=max_seconds)


def weat_bootstrap(embedding, X, Y: Sequence[str] | None = None, A: Sequence[str] | None = None,
                   B: Sequence[str] | None = None, *, resampling: Resampling | None = None,
                   resample: Sequence[str] = WEAT_SETS, ddof: int = 1, case_fold: bool = False,
                   max_seconds: float = MAX_SECONDS) -> WeatBootstrap:
    """Bootstrap intervals of a WEAT's d and s(X, Y, A, B) on ``embedding``.

    The statistics are Caliskan et al.'s (2017, Methods); the intervals are :func:`weat_bootstrap_from_vectors`'s.

    ``X`` is either a :class:`~wordbias.measures.association.weat.WeatResult` (its words, after unknown words were
    dropped and the targets balanced, are used; ``Y``, ``A``, ``B`` stay ``None``) or the first of four word
    lists, which must then all be in ``embedding`` (run :func:`wordbias.measures.association.weat.weat` first to apply
    the unknown-word policy).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        A gensim ``KeyedVectors`` or any word → vector mapping.
    X : WeatResult or sequence of str
        A result of :func:`wordbias.measures.association.weat.weat`, or the target words X.
    Y : sequence of str, optional
        The target words Y (``None`` with a ``WeatResult``).
    A, B : sequence of str, optional
        The attribute words A and B (``None`` with a ``WeatResult``).
    resampling : Resampling, optional
        Its ``n_resamples``, ``confidence_level``, ``ci_method`` (the ``method``) and ``seed`` are the bootstrap's
        (:class:`~wordbias.options.Resampling`). None: ``Resampling()`` (10,000 resamples, 95%, BCa, seed 0).
    resample, ddof, max_seconds : optional
        As for :func:`weat_bootstrap_from_cosines`.
    case_fold : bool, default False
        Lower-case the four word lists first (not used with a ``WeatResult``).

    Returns
    -------
    WeatBootstrap
        :func:`weat_bootstrap_from_vectors`'s intervals and sizes, on the words' vectors.

    Raises
    ------
    InvalidParameterError
        When a ``WeatResult`` comes with other word lists, word lists are missing, a word list is not valid,
        or an option is out of range.
    KeyError
        When a word is not in ``embedding``.
    DegenerateSetError
        When a set is too small, a vector is zero, or all target words have the same association.
    TooCostlyError
        When the request is estimated to take more than ``max_seconds`` or too much memory.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["rose", "tulip", "lily", "ant", "wasp", "moth", "love", "joy", "hate", "ugly"]
    >>> V = np.array([[1, .1], [.9, .3], [.8, .2], [.1, 1], [.2, .8], [.3, .9], [1, 0], [.9, .1], [0, 1], [.1, .9]])
    >>> kv = to_keyed_vectors(words, V.astype(np.float32))
    >>> from wordbias.options import Resampling
    >>> r = weat_bootstrap(kv, words[:3], words[3:6], words[6:8], words[8:],
    ...                    resampling=Resampling(n_resamples=1000, ci_method="percentile"))
    >>> r.sizes, round(r.effect_size.estimate, 4), r.effect_size.resampled
    ((3, 3, 2, 2), 1.8069, ('X', 'Y', 'A', 'B'))
    """
    resampling, _ = _weat.options_or_default(resampling, None, Resampling(), _weat.DEFAULT_WORDS)
    if isinstance(X, _weat.WeatResult):
        if not (Y is None and A is None and B is None):
            raise InvalidParameterError("with a WeatResult, give no other word list (Y, A, B must be None)")
        sets = [X.X, X.Y, X.A, X.B]
        lists, names = [s.words for s in sets], [s.name for s in sets]
    else:
        if Y is None or A is None or B is None:
            raise InvalidParameterError("give a WeatResult, or the four word lists X, Y, A, B")
        names = list(WEAT_SETS)
        lists = list(_weat.check_sets(X, Y, A, B, dict(zip(WEAT_SETS, WEAT_SETS)), case_fold))
    vecs = []
    for words, name in zip(lists, names):
        missing = [w for w in words if w not in embedding]
        if missing:
            raise KeyError(f"set {name!r}: {missing} not in the embedding (run weat() first to drop them)")
        vecs.append(lookup.set_matrix(embedding, list(words), name))
    return weat_bootstrap_from_vectors(*vecs, n_resamples=resampling.n_resamples,
                                       confidence_level=resampling.confidence_level, method=resampling.ci_method,
                                       resample=resample, seed=resampling.seed, ddof=ddof, max_seconds=max_seconds)


# --------------------------------------------------------------------------------------------------
# the effect size of two samples of scores already computed
# --------------------------------------------------------------------------------------------------

def _scores(v, name: str) -> np.ndarray:
    v = as_float_array(name, v, what="a 1-D list of scores")
    if v.ndim != 1:
        raise InvalidParameterError(f"{name} must be a 1-D array of scores, not an array of shape {v.shape}")
    check_finite(name, v, "scores")
    if v.size < 2:
        raise DegenerateSetError(f"{name} has {v.size} score(s); the bootstrap needs at least 2 per sample")
    return v


def effect_size_bootstrap(s_a, s_b, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                          method: str = "BCa", seed=0, ddof: int = 1,
                          max_seconds: float = MAX_SECONDS) -> WeatBootstrap:
    """Bootstrap intervals of the effect size and the mean difference of two samples of scores.

    The effect size is d = [mean(s_a) − mean(s_b)] / std-dev(s_a ∪ s_b)
    (:func:`wordbias.measures.association.weat.effect_size`, Caliskan et al. 2017, Methods) and the mean difference
    mean(s_a) − mean(s_b), of two samples of scores already computed, each sample resampled separately with
    replacement (the two-sample bootstrap; Efron & Tibshirani 1993, §8.3) by :func:`scipy.stats.bootstrap`
    (``vectorized=True``, on the scores themselves).

    What it covers: only the choice of the scored items (e.g. the attribute words of Kurita et al.'s test,
    :func:`wordbias.measures.language_models.mlm.attribute_test`); whatever produced each score (templates, targets, the other word
    sets) is held fixed. ``effect_size.statistic`` is ``"effect_size"``, ``statistic.statistic``
    ``"mean_difference"``; ``sizes`` is (len(s_a), len(s_b)). All the scores equal is an error
    (:class:`~wordbias.core.errors.DegenerateSetError`); a resample whose scores are all equal has d = NaN, counted
    in ``n_undefined`` (SciPy's interval of d is then NaN). "Equal" is up to rounding
    (:func:`wordbias.core.validation.spread_tolerance`): a spread of 1e-17 around 0.3 is refused, as the d it would
    give is a ratio of noise. A request out of proportion is refused
    (:func:`~wordbias.stats.resampling.check_bootstrap_cost`).

    Parameters
    ----------
    s_a, s_b : array_like of float
        The two samples of scores, 1-D and finite, at least 2 each.
    n_resamples, confidence_level, method, seed, max_seconds : optional
        The bootstrap's options (:mod:`wordbias.stats.resampling`).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of d.

    Returns
    -------
    WeatBootstrap
        ``effect_size``: the interval of d; ``statistic``: that of the mean difference; ``sizes``:
        (len(s_a), len(s_b)).

    Raises
    ------
    InvalidParameterError
        When the scores are not 1-D finite numbers, or an option is out of range.
    DegenerateSetError
        When a sample has fewer than 2 scores, or all the scores are equal (up to rounding).
    TooCostlyError
        When the request is estimated to take more than ``max_seconds`` or too much memory.

    Examples
    --------
    >>> r = effect_size_bootstrap([0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0], n_resamples=2000,
    ...                           method="percentile", seed=0)
    >>> round(r.effect_size.estimate, 3), round(r.statistic.estimate, 3), r.sizes, r.statistic.statistic
    (1.57, 0.575, (4, 4), 'mean_difference')
    >>> bool(r.statistic.low < 0.575 < r.statistic.high)
    True
    """
    n_resamples, confidence_level, ddof, resampled, rng = check_bootstrap_options(
        n_resamples, confidence_level, method, ddof, ("a", "b"), seed, ("a", "b"))
    a, b = _scores(s_a, "s_a"), _scores(s_b, "s_b")
    pooled = np.concatenate([a, b])
    exact = np.ptp(pooled) == 0
    check_spread(pooled, 0.0 if exact else pooled.std(ddof=ddof),
                 f"every score of s_a and s_b is {float(a[0])!r}{'' if exact else ' up to rounding'}: the effect size is "
                 f"undefined")
    check_bootstrap_cost("an effect-size bootstrap", n_resamples, [a.size, b.size], 12 * pooled.size,
                         8.0 * 6 * pooled.size, method=method, max_seconds=max_seconds)
    d0 = _weat.effect_size(a, b, ddof=ddof)
    tol = spread_tolerance(pooled)          # a resample's values are among these: the same rounding level

    def both(x, y, axis=-1):                # one call, the same resamples for d and the mean difference
        lead = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
        x, y = np.broadcast_to(x, lead + x.shape[-1:]), np.broadcast_to(y, lead + y.shape[-1:])
        diff = x.mean(-1) - y.mean(-1)
        sd = np.concatenate([x, y], axis=-1).std(axis=-1, ddof=ddof)
        with np.errstate(divide="ignore", invalid="ignore"):
            d = diff / np.where(sd > tol, sd, np.nan)
        return np.stack([d, diff])

    res = run_bootstrap((a, b), both, n_resamples=n_resamples, confidence_level=confidence_level, method=method,
                        rng=rng)
    out = [bootstrap_interval(name, est, ResultRow(res, i), confidence_level, method, n_resamples, resampled)
           for i, (name, est) in enumerate((("effect_size", d0), ("mean_difference", a.mean() - b.mean())))]
    return WeatBootstrap(effect_size=out[0], statistic=out[1], sizes=(a.size, b.size))
