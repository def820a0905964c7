"""Directions in an embedding space: a concept as a unit vector, projections on it, and bias along it.

Bolukbasi, Chang, Zou, Saligrama & Kalai (2016), "Man is to Computer Programmer as Woman is to Homemaker?
Debiasing Word Embeddings", NIPS 2016: the gender direction as the first principal component of centred
definitional pairs (Sections 5.1 and 6, :func:`pca_direction`), projection and rejection (:func:`project`,
:func:`reject`) and DirectBias_c (Section 5.2, :func:`direct_bias`); and the difference of two set means
(:func:`mean_difference_direction`). Everything works on float64 vectors (rows of 2-D arrays); words are
looked up by :mod:`wordbias.core.lookup`. A zero row is an error (:class:`DegenerateSetError`). Inputs are
checked on entry through :mod:`wordbias.core.validation` (``as_float_array``, ``check_real``,
``check_same_dimension``): a wrong type, shape or value is an
:class:`~wordbias.core.errors.InvalidParameterError` naming the parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import (
    as_float_array,
    check_int,
    check_probability,
    check_real,
    check_same_dimension,
    check_seed,
)
from wordbias.core.vectors import unit_rows
from wordbias.options import Resampling, Words

__all__ = [
    "PCADirection",
    "unit_vector",
    "vector_set",
    "scalar_projection",
    "project",
    "reject",
    "cosines",
    "projections",
    "pair_centred",
    "pca_direction",
    "mean_difference_direction",
    "direct_bias",
    "direct_bias_percentile",
    "DIRECT_BIAS_RESAMPLING",
    "direct_bias_test",
]

def vector_set(X, name: str, normalize: bool = False) -> np.ndarray:
    """One word set as a checked, finite 2-D float64 array of non-zero rows.

    Parameters
    ----------
    X : array-like of shape (n, d)
        The vectors of the set, one row per word.
    name : str
        The name of the set, used in error messages (e.g. ``"A"``).
    normalize : bool, default False
        Scale every row to unit length.

    Returns
    -------
    numpy.ndarray of shape (n, d)
        The rows as float64 (unit rows with ``normalize``).

    Raises
    ------
    DegenerateSetError
        If the set is empty or holds a zero row.
    InvalidParameterError
        If ``X`` is not a 2-D array of numbers or holds non-finite values.

    Examples
    --------
    >>> vector_set([[3.0, 4.0]], "A", normalize=True)
    array([[0.6, 0.8]])
    """
    X = as_float_array(f"set {name}", X, what="a set of word vectors (one row per word)")
    if X.size == 0:
        raise DegenerateSetError(f"set {name} is empty")
    if X.ndim != 2:
        raise InvalidParameterError(f"set {name}: expected a 2-D array of vectors (one row per word), got shape "
                                    f"{X.shape}")
    if not np.all(np.isfinite(X)):
        raise InvalidParameterError(f"set {name} holds non-finite values")
    zero = np.flatnonzero(~(np.linalg.norm(X, axis=1) > 0))
    if zero.size:
        raise DegenerateSetError(f"set {name}: zero vector(s) at row(s) {zero.tolist()[:10]}")
    return X / np.linalg.norm(X, axis=1, keepdims=True) if normalize else X


#: how far from 1 the norm of a "unit" direction (or from orthonormal a basis) may be
UNIT_TOLERANCE = 1e-6


# --------------------------------------------------------------------------------------------------
# unit vectors, projection, rejection, cosines
# --------------------------------------------------------------------------------------------------

def unit_vector(v, name: str = "direction") -> np.ndarray:
    """``v / ‖v‖`` as a 1-D float64 array.

    Parameters
    ----------
    v : array-like of shape (d,)
        The vector.
    name : str, default "direction"
        What the vector is, used in error messages.

    Returns
    -------
    numpy.ndarray of shape (d,)
        The unit vector of ``v``.

    Raises
    ------
    DegenerateSetError
        If ``v`` is a zero or non-finite vector (it has no direction).
    InvalidParameterError
        If ``v`` is anything but a 1-D vector of numbers.

    Examples
    --------
    >>> unit_vector([3.0, 4.0])
    array([0.6, 0.8])
    """
    v = as_float_array(name, v, what="a vector (a 1-D list of numbers)")
    if v.ndim != 1:
        raise InvalidParameterError(f"{name}: expected a 1-D vector, got shape {v.shape}")
    norm = np.linalg.norm(v)
    if not (np.isfinite(norm) and norm > 0):
        raise DegenerateSetError(f"{name} is a zero or non-finite vector; it has no direction")
    return v / norm


def _basis(g, name: str = "direction") -> np.ndarray:
    """``g`` as a float64 1-D unit vector or a 2-D array of orthonormal rows (checked, not normalised)."""
    g = as_float_array(name, g, what="a unit vector or an orthonormal basis (rows)")
    if g.ndim == 1:
        norm = np.linalg.norm(g)
        if not abs(norm - 1.0) <= UNIT_TOLERANCE:
            raise InvalidParameterError(f"{name} must have unit length (norm {norm:.6g}); normalise it with "
                                        f"unit_vector()")
    elif g.ndim == 2:
        gram = g @ g.T
        if not np.allclose(gram, np.eye(len(g)), rtol=0, atol=UNIT_TOLERANCE):
            raise InvalidParameterError(f"the rows of {name} must be orthonormal (a basis of the subspace)")
    else:
        raise InvalidParameterError(f"{name}: expected a 1-D unit vector or a 2-D orthonormal basis, got shape "
                                    f"{g.shape}")
    return g


def _rows(X, g: np.ndarray, name: str = "vectors") -> np.ndarray:
    """``X`` (one vector or rows of vectors) as float64, of the dimension of the direction ``g``."""
    X = as_float_array(name, X, what="a vector or a set of vectors (one row per word)")
    if X.ndim not in (1, 2) or X.shape[-1] != g.shape[-1]:
        raise InvalidParameterError(f"vectors of shape {X.shape} do not match a direction of dimension "
                                    f"{g.shape[-1]}")
    return X


def scalar_projection(X, g) -> np.ndarray:
    """The coordinate ``x·g`` of each row x of ``X`` along the unit direction ``g``.

    Parameters
    ----------
    X : array-like of shape (n, d) or (d,)
        The vectors, one row per word; a 1-D ``X`` is one vector.
    g : array-like of shape (d,) or (k, d)
        A unit direction, or the orthonormal rows of a basis of a subspace (checked, not normalised: see
        :func:`unit_vector`).

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)`` for ``X`` of shape ``(n, d)`` and ``g`` of shape ``(d,)``; with a basis ``g`` of shape
        ``(k, d)`` the result has shape ``(n, k)``.

    Raises
    ------
    InvalidParameterError
        If ``g`` is not of unit length (or its rows not orthonormal), or ``X`` does not match its dimension.

    Examples
    --------
    >>> scalar_projection([[1.0, 2.0], [3.0, -1.0]], [1.0, 0.0])
    array([1., 3.])
    """
    g = _basis(g)
    return _rows(X, g) @ g.T


def project(X, g) -> np.ndarray:
    """x_B = (x·g) g for each row x of ``X``: the component along the unit direction ``g``.

    With ``g`` holding the orthonormal rows b_j of a subspace B, this is Section 6's
    v_B = Σ_j (v·b_j) b_j.

    Parameters
    ----------
    X : array-like of shape (n, d) or (d,)
        The vectors, one row per word; a 1-D ``X`` is one vector.
    g : array-like of shape (d,) or (k, d)
        A unit direction, or the orthonormal rows of a basis of a subspace.

    Returns
    -------
    numpy.ndarray
        The projections, of the same shape as ``X``.

    Raises
    ------
    InvalidParameterError
        If ``g`` is not of unit length (or its rows not orthonormal), or ``X`` does not match its dimension.

    See Also
    --------
    reject : The component orthogonal to ``g``.

    Examples
    --------
    >>> project([[1.0, 2.0], [3.0, -1.0]], [1.0, 0.0])
    array([[1., 0.],
           [3., 0.]])
    """
    g = _basis(g)
    X = _rows(X, g)
    coords = X @ g.T
    if g.ndim == 1:
        return np.multiply.outer(coords, g)
    return coords @ g


def reject(X, g) -> np.ndarray:
    """x − x_B for each row x of ``X``: what is left after removing the component along ``g``.

    The result is orthogonal to ``g`` and not renormalised.

    Parameters
    ----------
    X, g
        The vectors and the unit direction (or orthonormal basis), as :func:`project` takes them.

    Returns
    -------
    numpy.ndarray
        The rejections, of the same shape as ``X``.

    Raises
    ------
    InvalidParameterError
        For a ``g`` or an ``X`` that :func:`project` refuses.

    See Also
    --------
    project : The component along ``g``.

    Examples
    --------
    >>> reject([[1.0, 2.0], [3.0, -1.0]], [1.0, 0.0])
    array([[ 0.,  2.],
           [ 0., -1.]])
    """
    X = _rows(X, _basis(g))
    return X - project(X, g)


def cosines(X, g) -> np.ndarray:
    """cos(x, g) for each row x of ``X``.

    Parameters
    ----------
    X : array-like of shape (n, d) or (d,)
        The vectors, one row per word; a 1-D ``X`` is one vector.
    g : array-like of shape (d,)
        The direction; it need not be of unit length.

    Returns
    -------
    numpy.ndarray of shape (n,), or float64 for a 1-D ``X``
        The cosine of each row with ``g``.

    Raises
    ------
    DegenerateSetError
        If ``g`` or a row of ``X`` is a zero vector.
    InvalidParameterError
        If ``X`` does not match the dimension of ``g``.

    Examples
    --------
    >>> cosines([[1.0, 1.0], [0.0, 2.0], [-3.0, 0.0]], [2.0, 0.0]).round(4)
    array([ 0.7071,  0.    , -1.    ])
    """
    g = unit_vector(g)
    X = _rows(X, g)
    if X.ndim == 1:
        return unit_rows(X[None, :], "vectors")[0] @ g
    return unit_rows(_rows(X, g), "vectors") @ g


def projections(X, direction, *, normalize: bool = False) -> np.ndarray:
    """x·r/‖r‖ for each row x of ``X``: the position of each word along a direction r of any length.

    This is, e.g., the racial bias report's Figures 1-2, where 0 is the race-neutral line.

    Parameters
    ----------
    X : array-like of shape (n, d) or (d,)
        The vectors, one row per word; a 1-D ``X`` is one vector.
    direction : array-like of shape (d,)
        The direction r, of any (non-zero) length.
    normalize : bool, default False
        Project the unit vectors of the rows instead (then the projection is cos(x, r)).

    Returns
    -------
    numpy.ndarray of shape (n,), or float64 for a 1-D ``X``
        The position of each row along r.

    Raises
    ------
    DegenerateSetError
        If ``direction`` is a zero vector, or (with ``normalize``) a row of ``X`` is.
    InvalidParameterError
        If ``X`` does not match the dimension of ``direction``.

    Examples
    --------
    >>> projections([[1.0, 1.0], [3.0, 0.0]], [2.0, 0.0])
    array([1., 3.])
    >>> projections([[1.0, 1.0], [3.0, 0.0]], [2.0, 0.0], normalize=True).round(4)
    array([0.7071, 1.    ])
    """
    r = unit_vector(direction, "direction")
    X = _rows(X, r)
    if normalize:
        X = unit_rows(X[None, :] if X.ndim == 1 else X, "vectors")
    return X @ r


# --------------------------------------------------------------------------------------------------
# directions
# --------------------------------------------------------------------------------------------------

class PCADirection(NamedTuple):  # a NamedTuple, not a dataclass: callers unpack it
    """The result of :func:`pca_direction`: ``direction, ratios = pca_direction(...)`` unpacks it.

    Attributes
    ----------
    direction : numpy.ndarray of shape (d,)
        The first principal component, unit length, float64, oriented as documented in
        :func:`pca_direction`.
    explained_variance_ratio : numpy.ndarray
        The variance explained by each principal component, in decreasing order; sums to 1.
    """

    #: the first principal component, unit length, float64, oriented as documented in pca_direction
    direction: np.ndarray
    #: variance explained by each principal component, in decreasing order; sums to 1
    explained_variance_ratio: np.ndarray


def _as_pairs(A, B) -> tuple[np.ndarray, np.ndarray]:
    """Two ``(k, d)`` float64 arrays from ``(A, B)`` or from one ``(k, 2, d)`` array / sequence of pairs."""
    if B is None:
        P = as_float_array("A", A, what="a sequence of pairs of vectors, shape (k, 2, d)")
        if P.size == 0:
            raise DegenerateSetError("no pairs: a direction needs at least one pair of vectors")
        if P.ndim != 3 or P.shape[1] != 2:
            raise InvalidParameterError(f"expected pairs of vectors, shape (k, 2, d); got shape {P.shape}")
        return P[:, 0, :], P[:, 1, :]
    A = as_float_array("A", A, what="the first words' vectors (one row per pair)")
    B = as_float_array("B", B, what="the second words' vectors (one row per pair)")
    if A.size == 0 or B.size == 0:
        raise DegenerateSetError("no pairs: a direction needs at least one pair of vectors")
    if A.ndim != 2 or A.shape != B.shape:
        raise InvalidParameterError(
            f"A and B must be 2-D arrays of the same shape (one row per pair); got {A.shape} and {B.shape}")
    return A, B


def pair_centred(A, B=None, *, normalize: bool = True) -> np.ndarray:
    """The 2k pair-centred vectors of Section 5.1: for pair i, a_i − μ_i and b_i − μ_i, μ_i = (a_i + b_i)/2.

    Parameters
    ----------
    A : array-like of shape (k, d), or (k, 2, d) when ``B`` is omitted
        The first words' vectors, one row per pair; or, with ``B`` omitted, a sequence of k pairs of vectors.
    B : array-like of shape (k, d), optional
        The second words' vectors, one row per pair.
    normalize : bool, default True
        Normalise each vector to unit length first.

    Returns
    -------
    numpy.ndarray of shape (2k, d)
        The rows a_1 − μ_1, b_1 − μ_1, a_2 − μ_2, ..., where a_i − μ_i = (a_i − b_i)/2 = −(b_i − μ_i).

    Raises
    ------
    DegenerateSetError
        If there are no pairs, or (with ``normalize``) a vector is zero.
    InvalidParameterError
        If ``A`` and ``B`` are not 2-D arrays of the same shape (or ``A`` alone not of shape ``(k, 2, d)``).

    Examples
    --------
    >>> pair_centred([[2.0, 0.0]], [[0.0, 1.0]])
    array([[ 0.5, -0.5],
           [-0.5,  0.5]])
    """
    A, B = _as_pairs(A, B)
    if normalize:
        A, B = unit_rows(A, "first words of the pairs"), unit_rows(B, "second words of the pairs")
    half = (A - B) / 2.0
    out = np.empty((2 * len(A), A.shape[1]), dtype=np.float64)
    out[0::2] = half
    out[1::2] = -half
    return out


def pca_direction(A, B=None, *, normalize: bool = True) -> PCADirection:
    """Bolukbasi et al.'s direction of a set of definitional pairs (Section 5.1 and Section 6, Step 1).

    Each pair is centred on its own mean (:func:`pair_centred`), and the direction is the first principal
    component of the 2k centred vectors (what the authors' code obtains with scikit-learn's PCA: the centred
    vectors already have mean zero, so PCA is the SVD of their matrix). For the authors' ten definitional
    pairs on word2vec the first component explains far more variance than the others (their Figure 6).

    Parameters
    ----------
    A, B : array-like of shape (k, d)
        The first and second word of each of k pairs; or ``A`` alone as a sequence of k pairs of vectors
        (shape ``(k, 2, d)``) and ``B`` omitted (None, the default).
    normalize : bool, default True
        Normalise each vector to unit length first (the authors normalise the embedding).

    Returns
    -------
    PCADirection
        ``(direction, explained_variance_ratio)``: a unit float64 vector and the share of the variance of
        each of the min(2k, d) components (at most k are non-zero: each pair adds ± one vector).

    Raises
    ------
    DegenerateSetError
        If there are no pairs, a vector is zero, or every pair consists of two identical (normalised) vectors.
    InvalidParameterError
        If the arrays have the wrong shapes.

    Notes
    -----
    Sign convention: a principal component has no sign of its own. The direction returned is oriented so
    that the first word of the pairs lies on its positive side on average, Σ_i (a_i − b_i)·g > 0 (with the
    normalised vectors). With ``data/debiaswe/definitional_pairs.json``, whose pairs are female-male
    (``["woman", "man"]``, ``["she", "he"]``, ...), g therefore points from male to female, like Bolukbasi's
    "she − he". If the sum is exactly zero, the largest-magnitude coordinate of g is made positive.

    Examples
    --------
    Two pairs that differ along the first axis (the second pair also a little along the second):

    >>> g, ratios = pca_direction([[1.0, 0.0], [0.6, 0.8]], [[-1.0, 0.0], [0.6, -0.8]])
    >>> g.round(6) + 0.0, ratios.round(4)
    (array([1., 0.]), array([0.6098, 0.3902]))
    """
    A, B = _as_pairs(A, B)
    if normalize:
        A, B = unit_rows(A, "first words of the pairs"), unit_rows(B, "second words of the pairs")
    centred = pair_centred(A, B, normalize=False)
    centred = centred - centred.mean(axis=0)  # zero already, up to rounding; PCA centres the data
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    variance = s**2
    total = variance.sum()
    if not total > 0:
        raise DegenerateSetError("every pair consists of two identical (normalised) vectors: no direction")
    g = vt[0]
    side = float(np.sum((A - B) @ g))
    if side < 0 or (side == 0 and g[np.argmax(np.abs(g))] < 0):
        g = -g
    return PCADirection(unit_vector(g), variance / total)


def mean_difference_direction(A, B, *, normalize: bool = True, unit: bool = True) -> np.ndarray:
    """mean(A) − mean(B) over the (normalised) rows of two sets of vectors, which may differ in size.

    Parameters
    ----------
    A, B : array-like of shape (n_A, d) and (n_B, d)
        The two sets of vectors, one row per word.
    normalize : bool, default True
        Normalise each row to unit length before taking the means.
    unit : bool, default True
        Return the unit vector of the difference; ``False`` returns the difference itself.

    Returns
    -------
    numpy.ndarray of shape (d,)
        The direction, pointing from the mean of ``B`` to the mean of ``A``.

    Raises
    ------
    DegenerateSetError
        If a set is empty, holds a zero row (with ``normalize``), or (with ``unit``) the two means are equal.
    InvalidParameterError
        If a set is not a 2-D array, or the two sets differ in dimension.

    Examples
    --------
    >>> mean_difference_direction([[2.0, 0.0]], [[0.0, 3.0]]).round(4)
    array([ 0.7071, -0.7071])
    >>> mean_difference_direction([[2.0, 0.0], [4.0, 0.0]], [[0.0, 3.0]], normalize=False, unit=False)
    array([ 3., -3.])
    """
    sets = {}
    for name, X in (("A", A), ("B", B)):
        X = as_float_array(f"set {name}", X, what="a set of word vectors (one row per word)")
        if X.size == 0:
            raise DegenerateSetError(f"set {name} is empty: a mean-difference direction needs vectors in both sets")
        if X.ndim != 2:
            raise InvalidParameterError(f"set {name}: expected a 2-D array of vectors, got shape {X.shape}")
        sets[name] = X
    check_same_dimension(sets, "sets A and B")
    means = [(unit_rows(X, f"set {name}") if normalize else X).mean(axis=0) for name, X in sets.items()]
    diff = means[0] - means[1]
    return unit_vector(diff, "mean(A) - mean(B)") if unit else diff


# --------------------------------------------------------------------------------------------------
# bias along a direction
# --------------------------------------------------------------------------------------------------

def direct_bias(X, g, c: float = 1.0, *, atol: float = 0.0) -> float:
    """``DirectBias_c = (1/|N|) Σ_{w∈N} |cos(w, g)|^c`` over the rows of ``X`` (Section 5.2).

    For c = 0 the paper counts a word as 1 if it has any overlap with g and 0 otherwise (the fraction of
    words not orthogonal to g), which is what is computed (not 0**0 = 1).

    Parameters
    ----------
    X : array-like of shape (n, d)
        The vectors of the gender-neutral words N (e.g. the professions), one row per word; non-empty.
    g : array-like of shape (d,)
        The direction, not necessarily of unit length.
    c : float, default 1.0
        How strict the measure is; a finite number >= 0.
    atol : float, default 0.0
        Cosines with ``|cos| ≤ atol`` count as 0 (use e.g. 1e-6 with c = 0 on a debiased embedding, where
        float rounding leaves cosines of order 1e-8); a finite number >= 0.

    Returns
    -------
    float
        DirectBias_c of the words.

    Raises
    ------
    DegenerateSetError
        If ``X`` is empty, or ``g`` or a row of ``X`` is a zero vector.
    InvalidParameterError
        If ``c`` or ``atol`` is not a finite number >= 0, or ``X`` is not a 2-D array of the dimension of ``g``.

    Examples
    --------
    >>> X = [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [-2.0, 0.0]]   # |cos| with g: 1, 1/√2, 0, 1
    >>> round(direct_bias(X, [1.0, 0.0]), 4), direct_bias(X, [1.0, 0.0], c=0)
    (0.6768, 0.75)
    """
    c = check_real("c", c, low=0)
    atol = check_real("atol", atol, low=0)
    X = as_float_array("X", X, what="a set of word vectors (one row per word)")
    if X.size == 0:
        raise DegenerateSetError("direct bias of an empty set of words is undefined")
    if X.ndim != 2:
        raise InvalidParameterError(f"X: expected a 2-D array of word vectors, got shape {X.shape}")
    a = np.abs(cosines(X, g))
    a[a <= atol] = 0.0
    if c == 0:
        return float(np.mean(a > 0))
    return float(np.mean(a**c))


def direct_bias_percentile(X, g, *, n_resamples: int, seed: int, level: float) -> tuple[float, float, float]:
    """DirectBias_1 of the rows of ``X`` (:func:`direct_bias`, c = 1, Section 5.2) with a percentile bootstrap
    interval over the words (the rows resampled with replacement, the direction held fixed).

    Parameters
    ----------
    X, g
        As :func:`direct_bias`.
    n_resamples : int
        The bootstrap resamples of the words.
    seed : int
        The seed of the bootstrap.
    level : float
        The interval's level, e.g. 0.95.

    Returns
    -------
    tuple of float
        DirectBias_1, and the interval's lower and upper ends.

    Raises
    ------
    InvalidParameterError
        If ``n_resamples`` is below 1, ``seed`` is not a seed or ``level`` is not strictly between 0 and 1.

    Examples
    --------
    >>> X = [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [-2.0, 0.0]]
    >>> [round(v, 4) for v in direct_bias_percentile(X, [1.0, 0.0], n_resamples=200, seed=0, level=0.95)]
    [0.6768, 0.25, 1.0]
    """
    n_resamples, seed = check_int("n_resamples", n_resamples, min=1), check_seed("seed", seed)
    level = check_probability("level", level)
    a = np.abs(cosines(X, g))
    value = direct_bias(X, g, c=1)
    rng = np.random.default_rng(seed)
    means = a[rng.integers(0, len(a), size=(n_resamples, len(a)))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return value, float(lo), float(hi)


#: DirectBias's resampling options when the call gives none (it has no test: ``n_permutations`` is not used)
DIRECT_BIAS_RESAMPLING = Resampling()


def direct_bias_test(embedding, N: Sequence[str], pairs: Sequence[Sequence[str]] | None = None, *, c: float = 1.0,
                     title: str | None = None, test: str = "", resampling: Resampling | None = None,
                     words: Words | None = None, warn: bool = True):
    """Bolukbasi et al.'s DirectBias_c of the words ``N`` on the PCA gender direction of ``pairs``, measured once,
    with a bootstrap interval over the words (the direction held fixed); a descriptive measure, no test.

    DirectBias_c = (1/abs(N)) Σ_{w∈N} abs(cos(w, g))^c (Bolukbasi et al. 2016, Section 5.2; :func:`direct_bias`),
    g the first principal component of the definitional pairs
    (:func:`wordbias.measures.debiasing.debias.gender_direction`). The interval is a bootstrap of the mean over
    the words (:func:`wordbias.measures.directions.ripa.mean_interval`).

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    N : sequence of str
        The gender-neutral words (set ``"N"``; the paper's professions).
    pairs : sequence of (str, str), optional
        The definitional pairs (set ``"pairs"``); by default the debiaswe definitional pairs in ``embedding``'s
        form (:func:`wordbias.measures.debiasing.debias.word_lists_for`).
    c : float, default 1.0
        The strictness c >= 0.
    title : str, optional
        The title; by default ``"DirectBias_c of the words on the PCA gender direction"``.
    test : str, default ""
        An id kept in the result.
    resampling : Resampling, optional
        The bootstrap resamples of the interval (0 for none), its level, method and seed; None:
        :data:`DIRECT_BIAS_RESAMPLING`.
    words : Words, optional
        Case folding (None: fold for an uncased vocabulary), unknown words and pairs (``on_missing``), the words
        whose vector is not their own (``shared_vectors``: a pair with one is flagged, left out whole or refused)
        and the low-coverage thresholds; None: the words as given (no case folding).
    warn : bool, default True
        Give the warnings (missing words, low coverage); False keeps them in the result only.

    Returns
    -------
    wordbias.result.Result
        DirectBias_c (``effect_size``) with its interval and the coverage of the words and the pairs; no p; the
        notes give the share of the pairs' variance the direction explains. ``result`` is the
        :class:`PCADirection`.

    Raises
    ------
    KeyError
        With ``on_missing="raise"``, if the embedding lacks a word.
    DegenerateSetError
        If no word or pair is left.
    InvalidParameterError
        If an option is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["she", "he", "woman", "man", "nurse", "pilot", "tree"],
    ...                       np.array([[1, .2], [-1, .2], [.9, .1], [-.9, .1], [1, 1], [-1, 1], [0, 1]]))
    >>> r = direct_bias_test(kv, ["nurse", "pilot", "tree"], [("she", "he"), ("woman", "man")], warn=False,
    ...                      resampling=Resampling(n_resamples=0))
    >>> round(r.effect_size, 3), r.coverage, r.p_method          # (cos 45° + cos 45° + 0) / 3
    (0.471, 'N 3/3; pairs 2/2', 'none')
    """
    import math
    import warnings

    from wordbias import embeddings as _embeddings
    from wordbias.catalogue import spec
    from wordbias.core import lookup
    from wordbias.core.identity import apply_pair_policy, identity_notes, with_identity
    from wordbias.core.tidy import coverage
    from wordbias.core.validation import check_bool
    from wordbias.measures.debiasing import debias
    from wordbias.measures.directions.ripa import interval_fields, mean_interval, ripa_sets, warn_again
    from wordbias.measures.sets.set_measures import options
    from wordbias.result import Caught, Result

    c = check_real("c", c, low=0)
    resampling, words = options(resampling, Words(case_fold=False) if words is None else words,
                                DIRECT_BIAS_RESAMPLING)
    warn = check_bool("warn", warn)
    fold = (not _embeddings.is_cased(embedding)) if words.case_fold is None else words.case_fold
    pairs = debias.word_lists_for(embedding).definitional_pairs if pairs is None else pairs
    identity, kept, kept_pairs = apply_pair_policy(embedding, {"N": N}, pairs, words.shared_vectors, case_fold=fold)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g, pv = debias.gender_direction(embedding, [(a.lower(), b.lower()) if fold else (a, b) for a, b in kept_pairs],
                                        on_missing=words.on_missing)
        found = lookup.word_set(embedding, kept["N"], name="professions", on_missing=words.on_missing,
                                case_fold=fold)
    X = lookup.set_matrix(embedding, found.words, "professions")
    value = direct_bias(X, g.direction, c=c)
    cos = np.abs(cosines(X, g.direction))
    of = "the professions (direction fixed)"
    interval, no_interval = mean_interval(cos ** c if c > 0 else (cos > 0).astype(float), name="direct_bias", of=of,
                                          resampling=resampling)
    sets = with_identity(ripa_sets(N, pairs, fold=fold, missing_words=found.missing,
                                   missing_pairs=[p for p, _ in pv.missing], used=(found.words, pv.pairs),
                                   names=("professions", "definitional pairs")), identity, words.shared_vectors)
    flagged = coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}, min_words=words.min_words,
                       min_fraction=words.min_fraction).low
    notes = (no_interval, "no test (a descriptive measure)",
             f"PC1 explains {g.explained_variance_ratio[0]:.0%} of the {len(pv.pairs)} definitional pairs' variance")
    m = Result(
        measure="direct_bias", test=test, title=title or f"DirectBias_{c:g} of the words on the PCA gender direction",
        statistic_name=f"DirectBias_{c:g}", statistic=value, effect_size_name=spec("direct_bias").effect_size_name,
        effect_size=value, **interval_fields(interval, resampling, of), p_value=math.nan, alternative="two-sided",
        p_method="none", p_two_sided=math.nan, n_permutations=None, sets=sets, flagged=flagged,
        warnings=tuple(Caught(w.category, str(w.message)) for w in caught),
        notes=tuple(n for n in notes if n) + identity_notes(identity), result=g)
    if warn:
        warn_again(m, stacklevel=2)
    return m
