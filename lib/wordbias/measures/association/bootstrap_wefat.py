"""A bootstrap interval for WEFAT's correlation (Caliskan et al. 2017, Methods, WEFAT).

The correlation between s(w, A, B) and the property p_w is resampled over the target words W, each word keeping
its property (pairs (s_w, p_w), as for any correlation; Efron & Tibshirani 1993, §6.3), and, by default, over the
attribute words A and B as well, since they are a sample of words in the same sense as W and change every
s(w, A, B). The resampling is :mod:`wordbias.stats.resampling`'s: :func:`scipy.stats.bootstrap` on index
arrays, a resampled mean a product with the index counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from wordbias.core import lookup
from wordbias.core.costs import MAX_SECONDS
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import SPREAD_SLACK, as_float_array, degenerate_spread, spread_tolerance
from wordbias.core.vectors import cosine_matrix
from wordbias.measures.association import weat as _weat
from wordbias.measures.association import wefat as _wefat
from wordbias.stats import resampling as _resampling
from wordbias.stats.resampling import BootstrapInterval, index_counts

__all__ = ["WEFAT_SETS", "resampled_normalized_association", "wefat_bootstrap_from_vectors", "wefat_bootstrap"]

#: the WEFAT word sets, in the paper's notation
WEFAT_SETS = ("W", "A", "B")


def resampled_normalized_association(C_a, C_b, ia, ib, ddof: int = 1) -> np.ndarray:
    """WEFAT's normalized association s(w, A*, B*) of every target word with every resample A*, B*.

    s(w, A*, B*) = [mean_{a∈A*} cos(w, a) − mean_{b∈B*} cos(w, b)] / std-dev_{x∈A*∪B*} cos(w, x)
    (Caliskan et al. 2017, Methods, WEFAT), a repeated word counting as often as it is drawn. A standard
    deviation at rounding level (:func:`wordbias.core.validation.spread_tolerance`) gives NaN.

    Parameters
    ----------
    C_a, C_b, ia, ib : numpy.ndarray
        The cosines of each target word with A and with B, and the resamples of A and of B as index arrays, as
        for :func:`~wordbias.measures.association.bootstrap.resampled_association`.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation over A* ∪ B*.

    Returns
    -------
    numpy.ndarray of float, shape (..., n_w)
        s(w, A*, B*) for each resample and target word (NaN where the spread is at rounding level).

    Raises
    ------
    InvalidParameterError
        When ``ddof`` is not 0 or 1 (:func:`wordbias.core.validation.check_ddof`).

    Examples
    --------
    Without resampling it is :func:`wordbias.measures.association.wefat.normalized_association`:

    >>> rng = np.random.default_rng(0)
    >>> W, A, B = rng.normal(size=(3, 4)), rng.normal(size=(2, 4)), rng.normal(size=(3, 4))
    >>> s = resampled_normalized_association(cosine_matrix(W, A), cosine_matrix(W, B),
    ...                                      np.arange(2), np.arange(3))
    >>> bool(np.allclose(s, _wefat.normalized_association(W, A, B)))
    True
    """
    ddof = _weat.check_ddof(ddof)
    ia, ib = np.asarray(ia), np.asarray(ib)
    k_a, k_b = ia.shape[-1], ib.shape[-1]
    ca, cb = index_counts(ia, C_a.shape[1]), index_counts(ib, C_b.shape[1])
    sum_a, sum_b = ca @ C_a.T, cb @ C_b.T
    sq = ca @ (C_a ** 2).T + cb @ (C_b ** 2).T
    n = k_a + k_b
    mean = (sum_a + sum_b) / n
    var = np.maximum(sq / n - mean ** 2, 0.0) * n / (n - ddof)
    sd = np.sqrt(var)
    # the rounding level of each word's spread: (k_a + k_b + slack)·eps·max |cos(w, ·)| (one tolerance for all)
    tol = spread_tolerance(np.concatenate([C_a, C_b], axis=1), axis=1) * (n + SPREAD_SLACK) / (
        C_a.shape[1] + C_b.shape[1] + SPREAD_SLACK)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (sum_a / k_a - sum_b / k_b) / np.where(sd > tol, sd, np.nan)


def _pearson(s, p) -> np.ndarray:
    """Pearson's r along the last axis (NaN where either is constant, up to rounding:
    :func:`wordbias.core.validation.degenerate_spread` of each standard deviation)."""
    flat = [degenerate_spread(np.sqrt(((v - v.mean(-1, keepdims=True)) ** 2).mean(-1)), v, axis=-1) for v in (s, p)]
    s = s - s.mean(-1, keepdims=True)
    p = p - p.mean(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (s * p).sum(-1) / np.sqrt((s * s).sum(-1) * (p * p).sum(-1))
    return np.where(flat[0] | flat[1], np.nan, r)


def wefat_bootstrap_from_vectors(W, A, B, prop, *, n_resamples: int = 10_000, confidence_level: float = 0.95,
                                 method: str = "BCa", resample: Sequence[str] = WEFAT_SETS, seed=0,
                                 ddof: int = 1, max_seconds: float = MAX_SECONDS) -> BootstrapInterval:
    """Bootstrap interval of WEFAT's Pearson correlation between s(w, A, B) and the property p_w, from vectors.

    The correlation is Caliskan et al.'s (2017, Methods, WEFAT), on the vectors of W, A, B (rows) and ``prop``
    (one value per row of W).

    The target words W are resampled as pairs (w, p_w) (the correlation's sampling unit; Efron & Tibshirani
    1993, §6.3); the attribute words A and B, by default, separately as well: they are a sample of words
    like W, and every s(w, A, B) depends on them (``resample="W"`` keeps them fixed, as the paper's
    regression p-value does). :func:`scipy.stats.bootstrap`, ``vectorized=True``, on index arrays.

    Parameters
    ----------
    W : array_like of float, shape (n_w, dim)
        The vectors of the target words, one row per word (at least 3).
    A, B : array_like of float, shape (n_set, dim)
        The vectors of the attribute sets, one row per word.
    prop : array_like of float, shape (n_w,)
        The property p_w of each target word, finite, in the order of the rows of ``W``.
    n_resamples, confidence_level, method, seed, max_seconds : optional
        The bootstrap's options (:mod:`wordbias.stats.resampling`).
    resample : sequence of str, default ("W", "A", "B")
        The sets to resample; the others are held fixed.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation in s(w, A, B).

    Returns
    -------
    BootstrapInterval
        The interval of the correlation (``statistic`` is ``"pearson_r"``).

    Raises
    ------
    InvalidParameterError
        When a set is not a 2-D array of numbers, the sets differ in dimension, ``prop`` does not hold one
        finite value per row of ``W``, or an option is out of range.
    DegenerateSetError
        When a set is empty, there are fewer than 3 target words, or the correlation is undefined (the scores
        or the property are constant).
    TooCostlyError
        When the request is estimated to take more than ``max_seconds`` or too much memory.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> A, B = rng.normal(0.5, 1, (8, 5)), rng.normal(-0.5, 1, (8, 5))
    >>> t = rng.uniform(-1, 1, 30)
    >>> W = np.outer(t, np.ones(5)) * 0.5 + rng.normal(size=(30, 5))
    >>> r = wefat_bootstrap_from_vectors(W, A, B, t, n_resamples=1000, seed=0)
    >>> r.statistic, r.low < r.estimate < r.high, r.resampled
    ('pearson_r', True, ('W', 'A', 'B'))
    """
    n_resamples, confidence_level, ddof, resampled, rng = _resampling.check_bootstrap_options(
        n_resamples, confidence_level, method, ddof, resample, seed, WEFAT_SETS)
    W, A, B = _resampling.word_vector_sets(WEFAT_SETS, (W, A, B), (1, 1, 1), "the three sets", "WEFAT's bootstrap")
    prop = as_float_array("prop", prop, what="one property value per row of W")
    if prop.shape != (W.shape[0],) or not np.all(np.isfinite(prop)):
        raise InvalidParameterError(f"prop must hold one finite value per row of W ({W.shape[0]}), "
                                    f"not shape {prop.shape}")
    if W.shape[0] < _wefat.MIN_WORDS:
        raise DegenerateSetError(f"WEFAT needs at least {_wefat.MIN_WORDS} target words, got {W.shape[0]}")
    prop = _wefat.power_of_two_scaled(prop)[0]      # r is the same; squares of a property near 1e155 would overflow
    n_w, n_v = W.shape[0], A.shape[0] + B.shape[0]
    _resampling.check_resampled_sizes(zip(WEFAT_SETS, (n_w, A.shape[0], B.shape[0])), resampled)
    _resampling.check_bootstrap_cost("a WEFAT bootstrap", n_resamples,
                                     [n for k, n in zip(WEFAT_SETS, (n_w, A.shape[0], B.shape[0])) if k in resampled],
                                     3 * n_v * n_w + 20 * n_w, 8.0 * (3 * n_v + 14 * n_w), method=method,
                                     max_seconds=max_seconds)
    C_a, C_b = cosine_matrix(W, A), cosine_matrix(W, B)
    full = {"W": np.arange(W.shape[0]), "A": np.arange(A.shape[0]), "B": np.arange(B.shape[0])}

    def r_of(*args, axis=-1):
        got = dict(zip(resampled, args))
        iw, ia, ib = (got.get(k, full[k]) for k in WEFAT_SETS)
        lead = np.broadcast_shapes(*(np.shape(i)[:-1] for i in (iw, ia, ib)))
        iw, ia, ib = (np.broadcast_to(i, lead + np.shape(i)[-1:]) for i in (iw, ia, ib))
        s = resampled_normalized_association(C_a, C_b, ia, ib, ddof=ddof)
        return _pearson(np.take_along_axis(s, iw, axis=-1), prop[iw])

    r0 = float(r_of(*(full[k] for k in resampled)))
    if not np.isfinite(r0):
        raise DegenerateSetError("the correlation of s(w, A, B) with the property is undefined (a constant)")
    res = _resampling.run_bootstrap(tuple(full[k] for k in resampled), r_of, n_resamples=n_resamples,
                                    confidence_level=confidence_level, method=method, rng=rng)
    return _resampling.bootstrap_interval("pearson_r", r0, res, confidence_level, method, n_resamples, resampled)


def wefat_bootstrap(embedding, result: _wefat.WefatResult, *, n_resamples: int = 10_000,
                    confidence_level: float = 0.95, method: str = "BCa", resample: Sequence[str] = WEFAT_SETS,
                    seed=0, ddof: int = 1, max_seconds: float = MAX_SECONDS) -> BootstrapInterval:
    """Bootstrap interval of the Pearson correlation of a :class:`~wordbias.measures.association.wefat.WefatResult`.

    The words and property values are the result's (after unknown words and the name filter), their vectors
    ``embedding``'s; the interval is :func:`wefat_bootstrap_from_vectors`'s.

    With one attribute word a side, s(w, A, B) = ±sqrt(2) for every word, so a resample of words on one side
    has s equal up to rounding and no correlation (NaN, counted in ``n_undefined``): use two words or more.

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        The embedding the WEFAT was run on.
    result : WefatResult
        A result of :func:`wordbias.measures.association.wefat.wefat`.
    n_resamples, confidence_level, method, resample, seed, max_seconds : optional
        As for :func:`wefat_bootstrap_from_vectors`.
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation in s(w, A, B): the one the WEFAT was run with.

    Returns
    -------
    BootstrapInterval
        :func:`wefat_bootstrap_from_vectors`'s interval, on the result's words and property values.

    Raises
    ------
    InvalidParameterError
        When ``result`` is not a ``WefatResult``, or an option is out of range.
    DegenerateSetError
        When the correlation is undefined.
    TooCostlyError
        When the request is estimated to take more than ``max_seconds`` or too much memory.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.measures.association.wefat import wefat
    >>> women = {"nurse": 90.0, "teacher": 70.0, "clerk": 60.0, "cook": 40.0, "judge": 30.0, "pilot": 8.0,
    ...          "miner": 2.0}
    >>> V = np.array([[0.9, 0.2], [0.6, 0.5], [0.7, 0.6], [0.55, 0.45], [0.4, 0.7], [0.3, 0.9], [0.1, 1.0],
    ...               [1.0, 0.0], [0.0, 1.0], [0.9, 0.3], [0.2, 1.0]])
    >>> kv = to_keyed_vectors([*women, "she", "he", "woman", "man"], V.astype(np.float32))
    >>> res = wefat(kv, list(women), ["she", "woman"], ["he", "man"], women)
    >>> r = wefat_bootstrap(kv, res, n_resamples=500, resample="W", method="percentile")
    >>> bool(np.isclose(r.estimate, res.pearson_r)), r.resampled, r.low < r.estimate < r.high
    (True, ('W',), True)
    """
    if not isinstance(result, _wefat.WefatResult):
        raise InvalidParameterError(f"result must be a WefatResult, not {type(result).__name__}")
    words = list(result.table["word"])
    W = lookup.vectors(embedding, words)
    A, B = (lookup.vectors(embedding, list(s.words)) for s in (result.A, result.B))
    return wefat_bootstrap_from_vectors(W, A, B, result.table["property"].to_numpy(), n_resamples=n_resamples,
                                        confidence_level=confidence_level, method=method, resample=resample,
                                        seed=seed, ddof=ddof, max_seconds=max_seconds)
