"""Directions in an embedding space: a concept as a unit vector, projections on it, and bias along it.

Bolukbasi, Chang, Zou, Saligrama & Kalai (2016), "Man is to Computer Programmer as Woman is to Homemaker?
Debiasing Word Embeddings", NIPS 2016:

- the gender direction g: the first principal component of the definitional pairs after each pair is
  centred on its own mean (Section 5.1; Section 6, Step 1: C = Σ_i Σ_{w∈D_i} (w − μ_i)ᵀ(w − μ_i)/|D_i|,
  B = the first rows of SVD(C))                                                          (:func:`pca_direction`)
- w_B = (w·g) g, the component of w along g, and w − w_B, what is left    (:func:`project`, :func:`reject`)
- DirectBias_c = (1/|N|) Σ_{w∈N} |cos(w, g)|^c over gender-neutral words N (Section 5.2) (:func:`direct_bias`)

A second way to get a direction, the difference between the means of two sets of normalised vectors, is
:func:`mean_difference_direction` (a simple version: later work on racial bias adds to this module).

The report "Racial bias in pre-trained word embeddings" (``data/stimuli/racial_bias_report.yaml``), Section 3
and Appendix A: the racial direction r = mean(A1) − mean(A2) of two attribute sets (white, black), the
semantic direction s = mean(T1) − mean(T2) of two target sets (positive, negative), the bias cos(r, s) and
its angle (:func:`cosine_bias`), a one-sided permutation test permuting the attribute words between A1 and A2
with a 95% CI on its p (:func:`direction_permutation_test`, :func:`p_value_ci`), and the projections of
target words on r (its Figures 1-2; :func:`projections`).

Conventions
-----------
* Everything here works on vectors (rows of 2-D arrays), in float64. Word vectors are normalised to unit
  length before a direction is computed (Bolukbasi et al. normalise the whole embedding first), unless
  ``normalize=False``. A zero row is an error (:class:`DegenerateSetError`, naming the rows).
* A *direction* is a 1-D unit vector of the embedding's dimension. :func:`project` and :func:`reject` also
  accept a 2-D array whose rows are an orthonormal basis of a subspace (Bolukbasi's B with k > 1).
* Words -> vectors: :func:`pair_vectors` looks pairs up in a ``KeyedVectors`` (or a dict word -> vector),
  drops the pairs with a missing word and reports which word of which pair was missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from wordbias.measures.weat import DegenerateSetError, unit_rows

__all__ = [
    "DegenerateSetError",
    "PCADirection",
    "PairVectors",
    "unit_rows",
    "unit_vector",
    "scalar_projection",
    "project",
    "reject",
    "cosines",
    "pair_centred",
    "pca_direction",
    "mean_difference_direction",
    "direct_bias",
    "pair_vectors",
    "cosine_bias",
    "CosineBias",
    "PermutationResult",
    "direction_permutation_test",
    "p_value_ci",
    "projections",
    "SetVectors",
    "set_vectors",
]

#: how far from 1 the norm of a "unit" direction (or from orthonormal a basis) may be
UNIT_TOLERANCE = 1e-6


# --------------------------------------------------------------------------------------------------
# unit vectors, projection, rejection, cosines
# --------------------------------------------------------------------------------------------------

def unit_vector(v, name: str = "direction") -> np.ndarray:
    """``v / ‖v‖`` as a 1-D float64 array. A zero, non-finite or non-1-D ``v`` is an error."""
    v = np.asarray(v, dtype=np.float64)
    if v.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D vector, got shape {v.shape}")
    norm = np.linalg.norm(v)
    if not (np.isfinite(norm) and norm > 0):
        raise DegenerateSetError(f"{name} is a zero or non-finite vector; it has no direction")
    return v / norm


def _basis(g, name: str = "direction") -> np.ndarray:
    """``g`` as a float64 1-D unit vector or a 2-D array of orthonormal rows (checked, not normalised)."""
    g = np.asarray(g, dtype=np.float64)
    if g.ndim == 1:
        norm = np.linalg.norm(g)
        if not abs(norm - 1.0) <= UNIT_TOLERANCE:
            raise ValueError(f"{name} must have unit length (norm {norm:.6g}); normalise it with unit_vector()")
    elif g.ndim == 2:
        gram = g @ g.T
        if not np.allclose(gram, np.eye(len(g)), rtol=0, atol=UNIT_TOLERANCE):
            raise ValueError(f"the rows of {name} must be orthonormal (a basis of the subspace)")
    else:
        raise ValueError(f"{name}: expected a 1-D unit vector or a 2-D orthonormal basis, got shape {g.shape}")
    return g


def _rows(X, g: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim not in (1, 2) or X.shape[-1] != g.shape[-1]:
        raise ValueError(f"vectors of shape {X.shape} do not match a direction of dimension {g.shape[-1]}")
    return X


def scalar_projection(X, g) -> np.ndarray:
    """The coordinate ``x·g`` of each row x of ``X`` along the unit direction ``g``.

    Shape ``(n,)`` for ``X`` of shape ``(n, d)`` and ``g`` of shape ``(d,)``; with a basis ``g`` of shape
    ``(k, d)`` the result has shape ``(n, k)``. A 1-D ``X`` is one vector.
    """
    g = _basis(g)
    return _rows(X, g) @ g.T


def project(X, g) -> np.ndarray:
    """x_B = (x·g) g for each row x of ``X``: the component along the unit direction ``g`` (Section 6,
    v_B = Σ_j (v·b_j) b_j when ``g`` holds the orthonormal rows b_j of a subspace). Same shape as ``X``."""
    g = _basis(g)
    X = _rows(X, g)
    coords = X @ g.T
    if g.ndim == 1:
        return np.multiply.outer(coords, g)
    return coords @ g


def reject(X, g) -> np.ndarray:
    """x − x_B for each row x of ``X``: what is left after removing the component along ``g``
    (orthogonal to ``g``; not renormalised). Same shape as ``X``."""
    X = _rows(X, _basis(g))
    return X - project(X, g)


def cosines(X, g) -> np.ndarray:
    """cos(x, g) for each row x of ``X`` (``g`` need not be unit length; zero rows are an error)."""
    g = unit_vector(g)
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        return unit_rows(X[None, :], "vectors")[0] @ g
    return unit_rows(_rows(X, g), "vectors") @ g


# --------------------------------------------------------------------------------------------------
# directions
# --------------------------------------------------------------------------------------------------

class PCADirection(NamedTuple):
    """The result of :func:`pca_direction`: ``direction, ratios = pca_direction(...)`` unpacks it."""

    #: the first principal component, unit length, float64, oriented as documented in pca_direction
    direction: np.ndarray
    #: variance explained by each principal component, in decreasing order; sums to 1
    explained_variance_ratio: np.ndarray


def _as_pairs(A, B) -> tuple[np.ndarray, np.ndarray]:
    """Two ``(k, d)`` float64 arrays from ``(A, B)`` or from one ``(k, 2, d)`` array / sequence of pairs."""
    if B is None:
        P = np.asarray(A, dtype=np.float64)
        if P.size == 0:
            raise DegenerateSetError("no pairs: a direction needs at least one pair of vectors")
        if P.ndim != 3 or P.shape[1] != 2:
            raise ValueError(f"expected pairs of vectors, shape (k, 2, d); got shape {P.shape}")
        return P[:, 0, :], P[:, 1, :]
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    if A.size == 0 or B.size == 0:
        raise DegenerateSetError("no pairs: a direction needs at least one pair of vectors")
    if A.ndim != 2 or A.shape != B.shape:
        raise ValueError(
            f"A and B must be 2-D arrays of the same shape (one row per pair); got {A.shape} and {B.shape}")
    return A, B


def pair_centred(A, B=None, *, normalize: bool = True) -> np.ndarray:
    """The 2k pair-centred vectors of Section 5.1: for pair i, a_i − μ_i and b_i − μ_i, μ_i = (a_i + b_i)/2.

    ``A`` and ``B`` hold the first and second words' vectors, one row per pair (or ``A`` is a sequence of
    pairs and ``B`` is omitted). Rows are normalised first unless ``normalize=False``. The result has the
    rows a_1 − μ_1, b_1 − μ_1, a_2 − μ_2, ... (shape ``(2k, d)``), where a_i − μ_i = (a_i − b_i)/2
    = −(b_i − μ_i).
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
    A, B
        ``(k, d)`` arrays of the first and second word of each of k pairs, or ``A`` alone as a sequence of k
        pairs of vectors (shape ``(k, 2, d)``).
    normalize
        Normalise each vector to unit length first (default; the authors normalise the embedding).

    Returns
    -------
    :class:`PCADirection` ``(direction, explained_variance_ratio)``: a unit float64 vector and the share of
    the variance of each of the min(2k, d) components (at most k are non-zero: each pair adds ± one vector).

    Sign convention: a principal component has no sign of its own. The direction returned is oriented so
    that the first word of the pairs lies on its positive side on average, Σ_i (a_i − b_i)·g > 0 (with the
    normalised vectors). With ``data/debiaswe/definitional_pairs.json``, whose pairs are female-male
    (``["woman", "man"]``, ``["she", "he"]``, ...), g therefore points from male to female, like Bolukbasi's
    "she − he". If the sum is exactly zero, the largest-magnitude coordinate of g is made positive.
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

    Returns the unit vector of that difference (``unit=False``: the difference itself), pointing from the
    mean of ``B`` to the mean of ``A``. Empty sets, zero rows and equal means are errors.
    """
    means = []
    for name, X in (("A", A), ("B", B)):
        X = np.asarray(X, dtype=np.float64)
        if X.size == 0:
            raise DegenerateSetError(f"set {name} is empty: a mean-difference direction needs vectors in both sets")
        if X.ndim != 2:
            raise ValueError(f"set {name}: expected a 2-D array of vectors, got shape {X.shape}")
        means.append((unit_rows(X, f"set {name}") if normalize else X).mean(axis=0))
    if means[0].shape != means[1].shape:
        raise ValueError(
            f"sets A and B have vectors of different dimensions: {means[0].shape[0]} and {means[1].shape[0]}")
    diff = means[0] - means[1]
    return unit_vector(diff, "mean(A) - mean(B)") if unit else diff


# --------------------------------------------------------------------------------------------------
# bias along a direction
# --------------------------------------------------------------------------------------------------

def direct_bias(X, g, c: float = 1.0, *, atol: float = 0.0) -> float:
    """DirectBias_c = (1/|N|) Σ_{w∈N} |cos(w, g)|^c over the rows of ``X`` (Section 5.2).

    ``X`` holds the vectors of the gender-neutral words N (e.g. the professions), ``g`` the direction (not
    necessarily unit length). ``c`` ≥ 0 sets how strict the measure is; for c = 0 the paper counts a word
    as 1 if it has any overlap with g and 0 otherwise (the fraction of words not orthogonal to g), which is
    what is computed (not 0**0 = 1). Cosines with |cos| ≤ ``atol`` count as 0 (use e.g. 1e-6 with c = 0 on
    a debiased embedding, where float rounding leaves cosines of order 1e-8).
    """
    if not c >= 0:
        raise ValueError(f"c must be >= 0, not {c!r}")
    X = np.asarray(X, dtype=np.float64)
    if X.size == 0:
        raise DegenerateSetError("direct bias of an empty set of words is undefined")
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D array of word vectors, got shape {X.shape}")
    a = np.abs(cosines(X, g))
    a[a <= atol] = 0.0
    if c == 0:
        return float(np.mean(a > 0))
    return float(np.mean(a**c))


# --------------------------------------------------------------------------------------------------
# words -> vectors
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PairVectors:
    """Pairs of words looked up in an embedding: the vectors of the pairs kept, and what was missing."""

    #: the pairs whose two words are both in the embedding, in the order given
    pairs: tuple[tuple[str, str], ...]
    #: vectors of the first / second words of ``pairs`` (float64, not normalised), shape (len(pairs), d)
    A: np.ndarray
    B: np.ndarray
    #: the pairs dropped, each with the tuple of its words that were missing
    missing: tuple[tuple[tuple[str, str], tuple[str, ...]], ...] = ()

    @property
    def missing_words(self) -> tuple[str, ...]:
        """Every missing word, once, in order of appearance."""
        return tuple(dict.fromkeys(w for _, words in self.missing for w in words))


def _index(embedding):
    return embedding.key_to_index if hasattr(embedding, "key_to_index") else embedding


def _gather(embedding, words: Sequence[str]) -> np.ndarray:
    """The vectors of ``words`` (all present, at least one) as a float64 matrix."""
    if hasattr(embedding, "key_to_index"):
        idx = [embedding.key_to_index[w] for w in words]
        return np.asarray(embedding.vectors[idx], dtype=np.float64)
    return np.asarray([embedding[w] for w in words], dtype=np.float64)


def pair_vectors(embedding, pairs: Sequence[Sequence[str]], *, on_missing: str = "drop",
                 name: str = "pairs") -> PairVectors:
    """Look each pair of words up in ``embedding`` (gensim ``KeyedVectors`` or a dict word -> vector).

    ``on_missing="drop"`` drops the pairs with a missing word and records them (:attr:`PairVectors.missing`);
    ``"raise"`` raises ``KeyError`` listing each incomplete pair and its missing words. If no pair is left,
    :class:`DegenerateSetError` names the missing words. A pair must have two distinct words.
    """
    if on_missing not in ("drop", "raise"):
        raise ValueError(f"on_missing must be 'drop' or 'raise', not {on_missing!r}")
    index = _index(embedding)
    kept, missing = [], []
    for pair in pairs:
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"{name}: {pair!r} is not a pair of two words")
        a, b = pair
        if a == b:
            raise ValueError(f"{name}: the pair {pair!r} has the same word twice")
        absent = tuple(w for w in (a, b) if w not in index)
        (missing.append(((a, b), absent)) if absent else kept.append((a, b)))
    if missing and on_missing == "raise":
        detail = "; ".join(f"{p[0]}/{p[1]} (missing {', '.join(ws)})" for p, ws in missing)
        raise KeyError(f"{name}: {len(missing)} pair(s) with words not in the embedding: {detail}")
    if not kept:
        words = [w for _, ws in missing for w in ws]
        detail = f" (missing: {words})" if words else " (no pairs given)"
        raise DegenerateSetError(f"{name}: no pair has both words in the embedding{detail}")
    A = _gather(embedding, [a for a, _ in kept])
    B = _gather(embedding, [b for _, b in kept])
    return PairVectors(pairs=tuple(kept), A=A, B=B, missing=tuple(missing))


# --------------------------------------------------------------------------------------------------
# the racial bias report: cosine between a racial and a semantic direction, permutation test
# --------------------------------------------------------------------------------------------------

class CosineBias(NamedTuple):
    """cos(r, s) and the angle between r and s in degrees (arccos of the cosine)."""

    cosine: float
    angle: float


def cosine_bias(racial_direction, semantic_direction) -> CosineBias:
    """The report's bias: the cosine of the racial direction r and the semantic direction s (Section 3,
    step 7; Appendix A's ``inner_product``), and its angle in degrees (the "linear scale" of Section 3).

    A positive cosine is a bias in favour of A1 (white) when r = mean(A1) − mean(A2) and s points from the
    negative to the positive target words. Zero vectors are an error.
    """
    r = unit_vector(racial_direction, "racial direction")
    s = unit_vector(semantic_direction, "semantic direction")
    if r.shape != s.shape:
        raise ValueError(f"directions of different dimensions: {r.shape[0]} and {s.shape[0]}")
    c = float(np.clip(r @ s, -1.0, 1.0))
    return CosineBias(c, float(np.degrees(np.arccos(c))))


def p_value_ci(hits, n: int | None = None, level: float = 0.95) -> tuple[float, float]:
    """The report's confidence interval on a permutation p-value (Appendix A):
    ``pval + sd(results)/sqrt(N) * qnorm(c(0.025, 0.975))`` - a Wald interval p ± z·sd/√N where sd is the
    sample standard deviation (R's ``sd``, denominator N − 1) of the N 0/1 outcomes. Not clipped to [0, 1].

    ``hits`` is either the count of permutations at least as extreme (with ``n``) or the array of 0/1
    outcomes (``n`` omitted).
    """
    from scipy import stats

    if n is None:
        x = np.asarray(hits, dtype=np.float64)
        n, k = x.size, float(x.sum())
    else:
        k = float(hits)
    if n < 2:
        raise ValueError(f"a CI on p needs at least 2 permutations, not {n}")
    if not 0 <= k <= n:
        raise ValueError(f"count {k} is not between 0 and n = {n}")
    p = k / n
    sd = np.sqrt((k * (1 - p) ** 2 + (n - k) * p**2) / (n - 1))
    if sd == 0:  # p = 0 or p = 1: every outcome the same, the interval is the point
        return float(p), float(p)
    lo, hi = stats.norm.interval(level, loc=p, scale=sd / np.sqrt(n))
    return float(lo), float(hi)


class PermutationResult(NamedTuple):
    """The result of :func:`direction_permutation_test`."""

    cosine: float
    angle: float
    p: float
    ci: tuple[float, float]
    #: permutations with a cosine at least the observed one, and permutations drawn
    n_extreme: int
    n: int
    #: the cosine of each permutation, in the order drawn
    null: np.ndarray


def _set(X, name: str, normalize: bool) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.size == 0:
        raise DegenerateSetError(f"set {name} is empty")
    if X.ndim != 2:
        raise ValueError(f"set {name}: expected a 2-D array of vectors, got shape {X.shape}")
    if normalize:
        return unit_rows(X, f"set {name}")
    zero = np.flatnonzero(~(np.linalg.norm(X, axis=1) > 0))
    if zero.size:
        raise DegenerateSetError(f"set {name}: zero vector(s) at row(s) {zero.tolist()}")
    return X


def _disjoint(X, Y, nx: str, ny: str) -> None:
    same = np.flatnonzero((X[:, None, :] == Y[None, :, :]).all(axis=2).any(axis=1))
    if same.size:
        raise ValueError(f"sets {nx} and {ny} share vectors (rows {same.tolist()} of {nx}): a word may not be in "
                         "both sets of a pair (the report removes the intersection)")


def direction_permutation_test(T1, T2, A1, A2, n: int = 10_000, seed: int = 0, *, normalize: bool = False,
                               chunk: int = 2_000) -> PermutationResult:
    """The report's bias and permutation test (Section 3, steps 1-8; Appendix A ``bias``/``permutation_test``).

    r = mean(A1) − mean(A2) (racial direction, attribute sets), s = mean(T1) − mean(T2) (semantic direction,
    target sets); the sets may differ in size. The bias is cos(r, s). Under the null the attribute words are
    exchangeable between A1 and A2: each of ``n`` random permutations (``numpy`` generator seeded by ``seed``)
    reassigns the |A1| + |A2| attribute vectors to sets of the same sizes, and
    p = (number of permutations with cos(r_perm, s) ≥ cos(r, s)) / n, one-sided as in Appendix A (p may be 0).
    The 95% CI is :func:`p_value_ci`. ``normalize=False`` (default) uses the raw vectors like Appendix A
    (gensim ``get_vector``); ``True`` normalises each vector first.

    Vectorised: each chunk of permutations is a (chunk, |A1|+|A2|) matrix of weights ±1/|A_i|, and all
    their mean differences are one matrix product with the stacked attribute vectors.
    """
    if n < 2:
        raise ValueError(f"n must be at least 2, not {n}")
    T1, T2 = _set(T1, "T1", normalize), _set(T2, "T2", normalize)
    A1, A2 = _set(A1, "A1", normalize), _set(A2, "A2", normalize)
    if len({X.shape[1] for X in (T1, T2, A1, A2)}) != 1:
        raise ValueError("the four sets have vectors of different dimensions")
    _disjoint(T1, T2, "T1", "T2")
    _disjoint(A1, A2, "A1", "A2")
    s = unit_vector(T1.mean(axis=0) - T2.mean(axis=0), "semantic direction mean(T1) - mean(T2)")
    r = A1.mean(axis=0) - A2.mean(axis=0)
    observed = cosine_bias(unit_vector(r, "racial direction mean(A1) - mean(A2)"), s)
    A = np.vstack([A1, A2])
    l1, m = len(A1), len(A1) + len(A2)
    proj = A @ s
    rng = np.random.default_rng(seed)
    null = np.empty(n)
    for start in range(0, n, chunk):
        k = min(chunk, n - start)
        perm = rng.permuted(np.tile(np.arange(m), (k, 1)), axis=1)
        W = np.empty((k, m))
        rows = np.arange(k)[:, None]
        W[rows, perm[:, :l1]] = 1.0 / l1
        W[rows, perm[:, l1:]] = -1.0 / (m - l1)
        diffs = W @ A
        norms = np.linalg.norm(diffs, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            null[start:start + k] = np.where(norms > 0, (W @ proj) / norms, 0.0)
    # compare with a tolerance so that a permutation equal to the observed split counts as "as extreme"
    hits = int(np.sum(null >= observed.cosine - 1e-12))
    return PermutationResult(observed.cosine, observed.angle, hits / n, p_value_ci(hits, n), hits, n, null)


def projections(X, direction, *, normalize: bool = False) -> np.ndarray:
    """x·r/‖r‖ for each row x of ``X``: the position of each target word along the racial direction r
    (the report's Figures 1-2; 0 is the race-neutral line). ``normalize=True`` projects unit vectors
    (then the projection is cos(x, r))."""
    r = unit_vector(direction, "direction")
    X = _rows(X, r)
    if normalize:
        X = unit_rows(X[None, :] if X.ndim == 1 else X, "vectors")
    return X @ r


@dataclass(frozen=True)
class SetVectors:
    """Two word sets looked up in an embedding: the words kept, their vectors and the words missing."""

    words: tuple[tuple[str, ...], tuple[str, ...]]
    A: np.ndarray
    B: np.ndarray
    missing: tuple[tuple[str, ...], tuple[str, ...]]


def set_vectors(embedding, words_a: Sequence[str], words_b: Sequence[str], *, name: str = "sets") -> SetVectors:
    """Look two word sets up in ``embedding`` (``KeyedVectors`` or dict), dropping (and recording) the missing
    words. A word in both sets, or twice in one, is an error naming the words; so is a set with no word left."""
    common = sorted(set(words_a) & set(words_b))
    if common:
        raise ValueError(f"{name}: words in both sets: {common}")
    index = _index(embedding)
    kept, missing = [], []
    for label, words in (("first", words_a), ("second", words_b)):
        dup = sorted({w for w in words if list(words).count(w) > 1})
        if dup:
            raise ValueError(f"{name}: words repeated in the {label} set: {dup}")
        kept.append(tuple(w for w in words if w in index))
        missing.append(tuple(w for w in words if w not in index))
        if not kept[-1]:
            raise DegenerateSetError(f"{name}: no word of the {label} set is in the embedding (missing: {missing[-1]})")
    return SetVectors(tuple(kept), _gather(embedding, kept[0]), _gather(embedding, kept[1]), tuple(missing))
