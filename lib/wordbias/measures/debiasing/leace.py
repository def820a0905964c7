"""LEACE, least-squares concept erasure in closed form (Belrose, Schneider-Joseph, Ravfogel, Cotterell, Raff &
Biderman 2023).

"LEACE: Perfect linear concept erasure in closed form", NeurIPS 2023, arXiv:2306.03819. Section 3: a
representation X linearly guards a concept Z (no linear classifier predicts Z from X better than a constant) if
and only if the cross-covariance Cov(X, Z) is zero, i.e. every class-conditional mean of X equals the mean.
Theorem 4.3 (the LEACE eraser): among affine erasers r(x) = P x + b that make Cov(r(X), Z) = 0, the one that
changes X least in the mean squared (Mahalanobis) sense is

    r(x) = x − W⁺ P_{W Σ_XZ} W (x − E[X]),

with W = (Σ_XX^{1/2})⁺ the whitening matrix, W⁺ = Σ_XX^{1/2} its pseudo-inverse (unwhitening) and P_{W Σ_XZ}
the orthogonal projection onto the column space of the whitened cross-covariance W Σ_XZ. The eraser is a
rank-r change of the identity, r ≤ k − 1 for k classes, stored as r(x) = x − L R (x − μ) with L = W⁺ U (d, r)
and R = Uᵀ W (r, d), U an orthonormal basis of that column space (as the authors' ``concept_erasure/leace.py``
of https://github.com/EleutherAI/concept-erasure stores it). A re-implementation from the paper in numpy, not the
authors' code: no covariance shrinkage and no trace constraint (both options of theirs, off here, so that the
guarantee holds exactly on the fit data).

:func:`leace_fit` fits the eraser on vectors and labels; :meth:`LeaceEraser.apply` applies it in row blocks;
:func:`leace_debias` fits it on the words of each class of an embedding and applies it to every vector into one
new float32 matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from gensim.models import KeyedVectors

from wordbias import embeddings
from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import as_float_array, check_int, check_option, check_out
from wordbias.measures.debiasing.inlp import (
    DEFAULT_CHUNK_ROWS,
    _as_kv,
    _check_out,
    _labels,
    _subtract_low_rank,
    _words_by_class,
    biased_words,
    debiased_label,
)

__all__ = ["LeaceEraser", "LeaceReport", "leace_fit", "leace_debias", "class_mean_gap"]

METHODS = ("leace", "orth")


@dataclass(frozen=True)
class LeaceEraser:
    """The affine eraser r(x) = x − L R (x − μ) of :func:`leace_fit` (Belrose et al. 2023, Theorem 4.3).

    Attributes
    ----------
    mean : numpy.ndarray
        μ = E[X], shape (d,).
    proj_left : numpy.ndarray
        L = W⁺ U, shape (d, r) (W⁺ the unwhitening matrix, U an orthonormal basis of W Σ_XZ's column space).
    proj_right : numpy.ndarray
        R = Uᵀ W, shape (r, d) (W the whitening matrix).
    whitening : numpy.ndarray
        W = (Σ_XX^{1/2})⁺, shape (d, d) (the identity for ``method="orth"``).
    classes : tuple
        The classes of the concept, in the order of the columns of Z.
    method : str
        ``"leace"`` or ``"orth"``.
    """

    mean: np.ndarray = field(repr=False)
    proj_left: np.ndarray = field(repr=False)
    proj_right: np.ndarray = field(repr=False)
    whitening: np.ndarray = field(repr=False)
    classes: tuple = ()
    method: str = "leace"

    @property
    def rank(self) -> int:
        """r, the rank of the change (at most the number of classes − 1)."""
        return self.proj_left.shape[1]

    @property
    def P(self) -> np.ndarray:
        """The linear part I − L R, shape (d, d) (an oblique projection: P² = P)."""
        return np.eye(len(self.mean)) - self.proj_left @ self.proj_right

    def apply(self, X, *, out: np.ndarray | None = None, chunk_rows: int = DEFAULT_CHUNK_ROWS) -> np.ndarray:
        """r(x) = x − L R (x − μ) for every row x of ``X``, ``chunk_rows`` rows at a time.

        Parameters
        ----------
        X : numpy.ndarray of shape (n, d)
            The vectors (a memory-mapped matrix is read block by block).
        out : numpy.ndarray, optional
            Where to write the result (float32 or float64, ``X``'s shape; may be ``X`` itself); by default a new
            array of ``X``'s float dtype (float64 for integer input).
        chunk_rows : int, default DEFAULT_CHUNK_ROWS
            Rows computed at a time (in float64).

        Returns
        -------
        numpy.ndarray
            The erased vectors (``out``).

        Raises
        ------
        InvalidParameterError
            If ``X`` is not 2-D with d columns, or ``out`` does not match it.
        """
        chunk_rows = check_int("chunk_rows", chunk_rows, min=1)
        if not isinstance(X, np.ndarray):
            X = as_float_array("X", X, ndim=2, what="the vectors (one row per example)")
        if X.ndim != 2 or X.shape[1] != len(self.mean):
            raise InvalidParameterError(f"X must have shape (n, {len(self.mean)}), not {X.shape}")
        if out is None:
            out = np.empty(X.shape, dtype=X.dtype if X.dtype in (np.float32, np.float64) else np.float64)
        else:
            check_out("out", out, X.shape, dtypes=(np.float32, np.float64), what="a float array")
        _subtract_low_rank(X, self.proj_left, self.proj_right, self.mean, out, chunk_rows)
        return out


def _one_hot(z, n: int) -> tuple[np.ndarray, tuple]:
    codes, classes = _labels(z, n)
    Z = np.zeros((n, len(classes)))
    Z[np.arange(n), codes] = 1.0
    return Z, classes


def leace_fit(X, z, *, method: str = "leace") -> LeaceEraser:
    """Fit the LEACE eraser of concept ``z`` on vectors ``X`` (Belrose et al. 2023, Theorem 4.3).

    1. μ = mean of X; Σ_XX = cov(X); Σ_XZ = cov(X, Z) with Z the one-hot coding of ``z``.
    2. Whitening: Σ_XX = V Λ Vᵀ; W = V Λ^{−1/2} Vᵀ and W⁺ = V Λ^{1/2} Vᵀ over the eigenvalues above
       ``λ_max · d · eps`` (numpy's pseudo-inverse rule; a singular Σ_XX is fine).
    3. U: an orthonormal basis of the column space of W Σ_XZ (its left singular vectors above the same rank
       rule).
    4. r(x) = x − W⁺ U Uᵀ W (x − μ).

    On the fit data Cov(r(X), Z) = 0 (to rounding), so every class has the same mean after erasure and no linear
    classifier beats the constant predictor there (the guarantee of Section 3). ``method="orth"`` uses W = I: the
    orthogonal projection removing the span of Σ_XZ (the authors' simpler option; same guarantee, larger change).

    Parameters
    ----------
    X : array-like of shape (n, d)
        The vectors.
    z : array-like of shape (n,)
        The concept's label of each row (at least two classes).
    method : {"leace", "orth"}, default "leace"
        The eraser.

    Returns
    -------
    LeaceEraser
        The eraser.

    Raises
    ------
    InvalidParameterError
        If ``X`` is not a finite 2-D array with at least two rows, or ``z`` does not have one label per row.
    DegenerateSetError
        If ``z`` has fewer than two classes.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat(["f", "m"], 50)
    >>> X = rng.normal(size=(100, 3)); X[z == "m", 0] += 2
    >>> eraser = leace_fit(X, z)
    >>> Xe = eraser.apply(X)
    >>> eraser.rank, bool(np.allclose(Xe[z == "f"].mean(0), Xe[z == "m"].mean(0)))
    (1, True)
    """
    X = as_float_array("X", X, ndim=2, what="the vectors (one row per example)")
    if X.shape[0] < 2 or X.shape[1] < 1 or not np.all(np.isfinite(X)):
        raise InvalidParameterError(f"X must be a finite (n, d) array with n >= 2, not shape {X.shape}")
    method = check_option("method", method, METHODS)
    Z, classes = _one_hot(z, len(X))
    n, d = X.shape
    mu = X.mean(axis=0)
    Xc = X - mu
    sigma_xz = Xc.T @ (Z - Z.mean(axis=0)) / n
    if method == "leace":
        sigma = Xc.T @ Xc / n
        sigma = (sigma + sigma.T) / 2
        lam, V = np.linalg.eigh(sigma)
        keep = lam > lam[-1] * d * np.finfo(np.float64).eps
        lam = np.clip(lam, 0.0, None)
        W = (V * np.where(keep, 1.0 / np.sqrt(np.where(keep, lam, 1.0)), 0.0)) @ V.T
        W_inv = (V * np.where(keep, np.sqrt(lam), 0.0)) @ V.T
    else:
        W = W_inv = np.eye(d)
    u, s, _ = np.linalg.svd(W @ sigma_xz, full_matrices=False)
    tol = s.max(initial=0.0) * max(d, Z.shape[1]) * np.finfo(np.float64).eps
    u = u[:, s > tol] if s.size and s.max() > 0 else u[:, :0]
    u = u * np.where(u[np.argmax(np.abs(u), axis=0), np.arange(u.shape[1])] < 0, -1.0, 1.0)  # a fixed sign
    return LeaceEraser(mean=mu, proj_left=W_inv @ u, proj_right=u.T @ W, whitening=W, classes=classes,
                       method=method)


def class_mean_gap(X, z) -> float:
    """The largest distance between a class-conditional mean of ``X`` and the overall mean.

    Zero (to rounding) if and only if no linear classifier predicts ``z`` from ``X`` better than a constant
    (Belrose et al. 2023, Section 3).

    Parameters
    ----------
    X : array-like of shape (n, d)
        The vectors.
    z : array-like of shape (n,)
        The label of each row.

    Returns
    -------
    float
        max over classes c of ‖E[X | z = c] − E[X]‖.

    Raises
    ------
    InvalidParameterError
        If ``z`` does not have one label per row.

    Examples
    --------
    >>> class_mean_gap([[0.0, 1.0], [2.0, 1.0]], ["a", "b"])
    1.0
    """
    X = as_float_array("X", X, ndim=2, what="the vectors (one row per example)")
    codes, classes = _labels(z, len(X))
    mu = X.mean(axis=0)
    return float(max(np.linalg.norm(X[codes == c].mean(axis=0) - mu) for c in range(len(classes))))


@dataclass(frozen=True)
class LeaceReport:
    """What :func:`leace_debias` did.

    Attributes
    ----------
    eraser : LeaceEraser
        The fitted eraser.
    classes : tuple of str
        The class names.
    words_by_class : dict
        The words of each class the eraser was fitted on.
    missing_words : dict
        The words of each class not in the embedding.
    mean_gap_before : float
        :func:`class_mean_gap` of the fit words before erasure.
    mean_gap_after : float
        The same after (of the float32 result).
    n_words : int
        The words erased (the whole vocabulary).
    label : str
        The debiased embedding's label, ``<label>+leace``.
    """

    eraser: LeaceEraser = field(repr=False)
    classes: tuple
    words_by_class: dict = field(repr=False)
    missing_words: dict = field(repr=False)
    mean_gap_before: float
    mean_gap_after: float
    n_words: int
    label: str

    @property
    def rank(self) -> int:
        """The rank of the change (:attr:`LeaceEraser.rank`)."""
        return self.eraser.rank


def leace_debias(embedding, words_by_class: Mapping[str, Sequence[str]] | None = None, *, method: str = "leace",
                 seed: int = 0, label: str | None = None, chunk_rows: int = DEFAULT_CHUNK_ROWS,
                 out: np.ndarray | None = None) -> tuple[KeyedVectors, LeaceReport]:
    """Erase a concept from every vector of an embedding with LEACE fitted on the words of each class.

    The eraser (:func:`leace_fit`) is fitted on the vectors of the class words (not normalised) and applied to
    every vector, ``chunk_rows`` rows at a time, into one float32 matrix.

    Parameters
    ----------
    embedding : KeyedVectors or str
        As :func:`~wordbias.measures.debiasing.inlp.inlp_debias` takes it.
    words_by_class : mapping of str to sequence of str, optional
        The words of each class of the concept; by default the male- and female-biased words of
        :func:`wordbias.measures.debiasing.inlp.biased_words` (Ravfogel et al. 2020, Section 6.1, without the neutral
        class: the concept erased is the gender of the gendered words). Words not in the embedding are dropped
        with a :class:`~wordbias.core.errors.MissingWordsWarning` and reported.
    method : {"leace", "orth"}, default "leace"
        See :func:`leace_fit`.
    seed : int, default 0
        Seed of the default word selection (LEACE itself has no random step).
    label : str, optional
        The label of the embedding; the report's ``label`` is ``<label>+leace``.
    chunk_rows : int, default DEFAULT_CHUNK_ROWS
        Rows erased at a time.
    out : numpy.ndarray, optional
        A float32 array of the embedding's shape to write into (may be the embedding's own writable matrix);
        by default a new array.

    Returns
    -------
    debiased : KeyedVectors
        The erased float32 vectors, the vocabulary in the embedding's order.
    report : LeaceReport
        The eraser and the class-mean gap of the fit words before and after.

    Raises
    ------
    InvalidParameterError, DegenerateSetError
        If a parameter is invalid, or ``words_by_class`` is, as
        :func:`~wordbias.measures.debiasing.inlp.inlp_debias` says.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(1)
    >>> vecs = rng.normal(size=(40, 4)).astype(np.float32); vecs[:20, 0] += 3
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(40)], vecs)
    >>> classes = {"a": [f"w{i}" for i in range(20)], "b": [f"w{i}" for i in range(20, 40)]}
    >>> out, report = leace_debias(kv, classes, label="toy")
    >>> report.label, report.rank, report.mean_gap_before > 1, report.mean_gap_after < 1e-5
    ('toy+leace', 1, True, True)
    """
    kv = _as_kv(embedding)
    chunk_rows = check_int("chunk_rows", chunk_rows, min=1)
    if words_by_class is None:
        words_by_class = biased_words(kv, seed=seed).as_classes(neutral=False)
    X, codes, names, kept, missing = _words_by_class(kv, words_by_class)
    eraser = leace_fit(X, codes, method=method)
    eraser = LeaceEraser(**{**eraser.__dict__, "classes": names})
    n, d = kv.vectors.shape
    out = _check_out(out, (n, d))
    gap_before = class_mean_gap(X, codes)
    eraser.apply(kv.vectors, out=out, chunk_rows=chunk_rows)
    rows = np.array([kv.key_to_index[w] for ws in kept.values() for w in ws])
    gap_after = class_mean_gap(np.asarray(out[rows], dtype=np.float64), codes)
    report = LeaceReport(eraser=eraser, classes=names, words_by_class=kept,
                         missing_words={k: v for k, v in missing.items() if v}, mean_gap_before=gap_before,
                         mean_gap_after=gap_after, n_words=n, label=debiased_label(label, "leace"))
    return embeddings.to_keyed_vectors(list(kv.index_to_key), out, dict(kv.key_to_index.items())), report
