"""Iterative nullspace projection, INLP (Ravfogel, Elazar, Gonen, Twiton & Goldberg 2020).

"Null It Out: Guarding Protected Attributes by Iterative Nullspace Projection", ACL 2020, pp. 7237-7256,
doi:10.18653/v1/2020.acl-main.647. Algorithm 1: train a linear classifier W_i to predict the protected attribute z
from the vectors, project the vectors onto the nullspace of W_i, and repeat on the projected vectors; the final
projection is onto the intersection of the nullspaces, N(W_1) ∩ ... ∩ N(W_n) = N(P_R(W_1) + ... + P_R(W_n))
(Section 3 and the authors' ``get_projection_to_intersection_of_nullspaces``, after Ben-Israel), that is
P = I − U Uᵀ with U an orthonormal basis of the span of every classifier's rows.

:func:`inlp` learns P from vectors and labels; :func:`inlp_debias` learns it from the words of an embedding and
applies it to every vector, in row blocks (x − (x·U) Uᵀ), into one new float32 matrix. :func:`biased_words` is the
word selection of the paper's Section 6.1 as the authors' notebook (``notebooks/word_vectors_debiasing.ipynb`` of
https://github.com/shauli-ravfogel/nullspace_projection) runs it. This is a re-implementation from the paper, not
the authors' code; :func:`inlp` lists how the two differ. The low-rank block update is shared with
:mod:`wordbias.measures.debiasing.leace` and the vocabulary filter with :mod:`wordbias.measures.debiasing.double_hard`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from gensim.models import KeyedVectors

from wordbias import embeddings
from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import as_float_array, check_int, check_option, check_out, check_real, check_seed

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "CLASSIFIERS",
    "BiasedWords",
    "InlpIteration",
    "InlpReport",
    "biased_words",
    "inlp",
    "inlp_debias",
    "debiased_label",
]

DEFAULT_CHUNK_ROWS = 1 << 14
#: the linear classifiers INLP can train (scikit-learn, deterministic for a seed)
CLASSIFIERS = ("svm", "logistic")
_PUNCT = set(string.punctuation)
_DIGITS = set("0123456789")


# --------------------------------------------------------------------------------------------------
# shared helpers: the embedding, the vocabulary filter, the low-rank block update, the label
# --------------------------------------------------------------------------------------------------

def _as_kv(embedding) -> KeyedVectors:
    """``embedding`` as a KeyedVectors: a KeyedVectors as it is, anything else through ``embeddings.load``."""
    if isinstance(embedding, KeyedVectors):
        if embedding.vectors.ndim != 2 or embedding.vectors.shape[0] != len(embedding.index_to_key):
            raise InvalidParameterError(f"the embedding has {len(embedding.index_to_key)} words but a matrix of "
                                        f"shape {embedding.vectors.shape}")
        return embedding
    return embeddings.load(embedding, progress=False)


def debiased_label(label: str | None, method: str) -> str:
    """The label of a debiased embedding: ``<label>+<method>``.

    Parameters
    ----------
    label : str or None
        The label of the embedding debiased (e.g. ``"glove-6b-50d"``); None: ``"embedding"``.
    method : str
        The method's short name (``"hard"``, ``"double-hard"``, ``"inlp"``, ``"leace"``).

    Returns
    -------
    str
        The label, e.g. ``"glove-6b-50d+inlp"``.

    Examples
    --------
    >>> debiased_label("glove-6b-50d", "inlp")
    'glove-6b-50d+inlp'
    """
    if label is not None and (not isinstance(label, str) or not label):
        raise InvalidParameterError(f"label must be a non-empty string or None, not {label!r}")
    return f"{label or 'embedding'}+{method}"


def _clean_word(w: str, max_len: int | None) -> bool:
    """The authors' vocabulary filter (``limit_vocab`` of Double-Hard Debias, ``filter_vecs.py`` of INLP): lower
    case, no digit, no punctuation except ``_`` between clean non-empty parts (a bare ``_`` is refused), shorter
    than ``max_len``."""
    if w.lower() != w or (max_len is not None and len(w) >= max_len) or _DIGITS.intersection(w):
        return False
    if "_" in w:
        return all(part and not _PUNCT.intersection(part) for part in w.split("_"))
    return bool(w) and not _PUNCT.intersection(w)


def _candidate_rows(kv: KeyedVectors, vocab_limit: int | None, exclude, max_len: int | None) -> np.ndarray:
    """Row indices of the first ``vocab_limit`` words that pass :func:`_clean_word` and are not in ``exclude``."""
    stop = len(kv.index_to_key) if vocab_limit is None else min(vocab_limit, len(kv.index_to_key))
    excluded = set(exclude)
    return np.fromiter((i for i, w in enumerate(kv.index_to_key[:stop])
                        if w not in excluded and _clean_word(w, max_len)), dtype=np.int64)


def _gather_rows(src: np.ndarray, rows: np.ndarray, chunk_rows: int = DEFAULT_CHUNK_ROWS) -> np.ndarray:
    """``src[rows]`` as float64 (rows sorted first, so a memory-mapped matrix is read in order)."""
    return np.asarray(src[np.asarray(rows)], dtype=np.float64).reshape(len(rows), src.shape[1])


def _subtract_low_rank(src: np.ndarray, left: np.ndarray, right: np.ndarray, bias: np.ndarray | None,
                       out: np.ndarray, chunk_rows: int) -> None:
    """``out[i] = x_i − L R (x_i − b)`` for every row x_i of ``src``, ``chunk_rows`` rows at a time (float64 inside
    a block, ``out``'s dtype outside). ``L`` is (d, r), ``R`` (r, d); ``out`` may be ``src`` itself."""
    lt, rt = np.ascontiguousarray(left.T), np.ascontiguousarray(right.T)
    for start in range(0, src.shape[0], chunk_rows):
        stop = min(start + chunk_rows, src.shape[0])
        x = np.array(src[start:stop], dtype=np.float64)
        coords = (x - bias) @ rt if bias is not None else x @ rt
        x -= coords @ lt
        out[start:stop] = x


def _check_out(out, shape) -> np.ndarray:
    """``out`` checked (:func:`wordbias.core.validation.check_out`: a writable float32 array of ``shape``), or a
    new array when None."""
    if out is None:
        return np.empty(shape, dtype=np.float32)
    return check_out("out", out, shape)


def _labels(z, n: int) -> tuple[np.ndarray, tuple]:
    """Class labels ``z`` (one per row) as integer codes 0..k-1 and the classes in sorted order."""
    z = np.asarray(z)
    if z.ndim != 1 or len(z) != n:
        raise InvalidParameterError(f"z must hold one label per row of X ({n}), not shape {z.shape}")
    classes, codes = np.unique(z, return_inverse=True)
    if len(classes) < 2:
        raise DegenerateSetError(f"z holds {len(classes)} class(es); at least 2 are needed")
    return codes, tuple(classes.tolist())


def _words_by_class(kv: KeyedVectors, words_by_class: Mapping[str, Sequence[str]], min_words: int = 2):
    """Look the class word lists up: (X float64, codes, class names, words kept per class, missing per class)."""
    if not isinstance(words_by_class, Mapping) or len(words_by_class) < 2:
        raise InvalidParameterError("words_by_class must be a mapping of at least two class names to word lists, "
                                    f"not {words_by_class!r:.80}")
    seen: dict[str, str] = {}
    kept, missing, rows, codes = {}, {}, [], []
    for c, (name, words) in enumerate(words_by_class.items()):
        ws = lookup.word_set(kv, words, name=str(name), min_size=min_words)
        for w in ws.words:
            if w in seen:
                raise InvalidParameterError(f"{w!r} is in two classes, {seen[w]!r} and {name!r}")
            seen[w] = name
        kept[name], missing[name] = ws.words, ws.missing
        rows.extend(kv.key_to_index[w] for w in ws.words)
        codes.extend([c] * len(ws.words))
    X = _gather_rows(kv.vectors, np.array(rows, dtype=np.int64))
    if not np.all(np.isfinite(X)):
        raise DegenerateSetError("the vectors of the class words hold non-finite values")
    return X, np.array(codes), tuple(words_by_class), kept, missing


# --------------------------------------------------------------------------------------------------
# the words (Section 6.1)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BiasedWords:
    """The words :func:`biased_words` selected.

    Attributes
    ----------
    male : tuple of str
        The words most similar to the direction he − she, most similar first.
    female : tuple of str
        The words most similar to she − he, most similar first.
    neutral : tuple of str
        Words with ``|cos(w, he − she)| < neutral_eps``, drawn at random (in vocabulary order).
    n_candidates : int
        The words the selection was made from.
    """

    male: tuple[str, ...]
    female: tuple[str, ...]
    neutral: tuple[str, ...]
    n_candidates: int

    def as_classes(self, neutral: bool = True) -> dict[str, tuple[str, ...]]:
        """The classes as a mapping for :func:`inlp_debias` or :func:`wordbias.measures.debiasing.leace.leace_debias`.

        Parameters
        ----------
        neutral : bool, default True
            Include the neutral class.

        Returns
        -------
        dict of str to tuple of str
            ``{"male": ..., "female": ...}`` and ``"neutral"`` if asked and not empty.
        """
        out = {"male": self.male, "female": self.female}
        if neutral and self.neutral:
            out["neutral"] = self.neutral
        return out


def biased_words(embedding, *, n_per_class: int = 7500, n_neutral: int | None = None, vocab_limit: int = 150_000,
                 pair: tuple[str, str] = ("he", "she"), neutral_eps: float = 0.03, exclude: Sequence[str] = (),
                 seed: int = 0) -> BiasedWords:
    """The male-, female-biased and neutral words of Ravfogel et al. (2020, Section 6.1).

    As the authors' notebook does it: among the ``vocab_limit`` most frequent words (rows, for an embedding in
    frequency order) that are lower case, without digits or punctuation (their ``filter_vecs.py``; gendered words
    and names are kept), the ``n_per_class`` words of highest cosine with g = he − she are "male", those of
    highest cosine with −g "female", and ``n_neutral`` words drawn at random among those with
    ``|cos(w, g)| < neutral_eps`` "neutral". The paper used uncased GloVe 300d (Common Crawl, 42B tokens), 150,000
    words and 7,500 words per class (the notebook's ``num_vectors_per_class = 7500``; its helper's default is
    2,500).

    Parameters
    ----------
    embedding : KeyedVectors or str
        The embedding (or a name or path :func:`wordbias.embeddings.load` takes).
    n_per_class : int, default 7500
        Words per gendered class.
    n_neutral : int, optional
        Neutral words; by default ``n_per_class``, or every neutral candidate when a small vocabulary has fewer
        (an embedding trained on a small corpus); 0: none.
    vocab_limit : int, default 150_000
        How many of the first rows to select from.
    pair : (str, str), default ("he", "she")
        The words whose difference is g (male first).
    neutral_eps : float, default 0.03
        The largest ``|cos(w, g)|`` of a neutral word.
    exclude : sequence of str, default ()
        Words never selected.
    seed : int, default 0
        Seed of the draw of the neutral words.

    Returns
    -------
    BiasedWords
        The three classes.

    Raises
    ------
    KeyError
        If a word of ``pair`` is not in the embedding.
    DegenerateSetError
        If there are fewer than ``2 * n_per_class`` candidate words, or fewer neutral candidates than
        ``n_neutral``.
    InvalidParameterError
        If a parameter is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["he", "she", "king", "queen", "table", "chair"],
    ...     np.array([[1, .1], [-1, .1], [.8, .5], [-.8, .5], [.01, 1], [-.02, 1]], dtype=np.float32))
    >>> b = biased_words(kv, n_per_class=2, n_neutral=2)
    >>> b.male, b.female, b.neutral
    (('he', 'king'), ('she', 'queen'), ('table', 'chair'))
    """
    kv = _as_kv(embedding)
    n_per_class = check_int("n_per_class", n_per_class, min=1)
    n_neutral = None if n_neutral is None else check_int("n_neutral", n_neutral, min=0)
    vocab_limit = check_int("vocab_limit", vocab_limit, min=1)
    neutral_eps = check_real("neutral_eps", neutral_eps, low=0.0, low_open=True)
    seed = check_seed("seed", seed)
    a, b = lookup.check_word_list("pair", pair)
    for w in (a, b):
        if w not in kv.key_to_index:
            raise KeyError(f"pair: {w!r} is not in the embedding")
    g = kv.vectors[kv.key_to_index[a]].astype(np.float64) - kv.vectors[kv.key_to_index[b]]
    g /= np.linalg.norm(g)
    rows = _candidate_rows(kv, vocab_limit, exclude, None)
    if len(rows) < 2 * n_per_class:
        raise DegenerateSetError(f"{len(rows)} candidate words among the first {vocab_limit}; {2 * n_per_class} "
                                 "needed (lower n_per_class)")
    cos = np.empty(len(rows))
    for start in range(0, len(rows), DEFAULT_CHUNK_ROWS):
        x = _gather_rows(kv.vectors, rows[start:start + DEFAULT_CHUNK_ROWS])
        norms = np.linalg.norm(x, axis=1)
        cos[start:start + len(x)] = np.divide(x @ g, norms, out=np.zeros(len(x)), where=norms > 0)
    order = np.argsort(-cos, kind="stable")
    male = rows[order[:n_per_class]]
    female = rows[order[::-1][:n_per_class]]
    neutral_pool = rows[np.abs(cos) < neutral_eps]
    # in a small vocabulary the most biased n_per_class can reach into |cos| < neutral_eps: a word is in one class
    neutral_pool = neutral_pool[~np.isin(neutral_pool, np.concatenate([male, female]))]
    if n_neutral is None:
        n_neutral = min(n_per_class, len(neutral_pool))
    if n_neutral > len(neutral_pool):
        raise DegenerateSetError(f"{len(neutral_pool)} words with |cos| < {neutral_eps}; {n_neutral} neutral words "
                                 "asked for")
    rng = np.random.default_rng(seed)
    neutral = np.sort(rng.choice(neutral_pool, size=n_neutral, replace=False)) if n_neutral else rows[:0]
    words = kv.index_to_key
    return BiasedWords(tuple(words[i] for i in male), tuple(words[i] for i in female),
                       tuple(words[i] for i in neutral), len(rows))


# --------------------------------------------------------------------------------------------------
# INLP (Algorithm 1)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class InlpIteration:
    """One iteration of :func:`inlp`.

    Attributes
    ----------
    iteration : int
        The iteration, from 1.
    dev_accuracy : float
        The classifier's accuracy on the held-out rows (the vectors projected by the previous iterations).
    train_accuracy : float
        Its accuracy on the rows it was trained on.
    used : bool
        Whether its directions were removed (``dev_accuracy >= min_accuracy``).
    rank_removed : int
        The dimension of the space removed so far, after this iteration.
    """

    iteration: int
    dev_accuracy: float
    train_accuracy: float
    used: bool
    rank_removed: int


@dataclass(frozen=True)
class InlpReport:
    """What :func:`inlp` (and :func:`inlp_debias`) did.

    Attributes
    ----------
    basis : numpy.ndarray
        U, shape (d, r): an orthonormal basis of the space removed; P = I − U Uᵀ.
    classes : tuple
        The class labels, in the order of their codes.
    iterations : tuple of InlpIteration
        One row per iteration run.
    majority_accuracy : float
        The accuracy of always predicting the most frequent class on the held-out rows (chance).
    accuracy_before : float
        A fresh classifier's held-out accuracy on the vectors before projection (the first iteration's).
    accuracy_after : float
        A fresh classifier's held-out accuracy on the projected vectors.
    classifier : str
        ``"svm"`` or ``"logistic"``.
    n_train : int
        Rows the classifiers were trained on.
    n_dev : int
        Rows held out.
    stopped_early : str
        Why iterations stopped before ``n_iterations`` ("" if they did not).
    seed : int
        The seed.
    n_words : int, default 0
        The words the projection was applied to (:func:`inlp_debias`; 0 for :func:`inlp`).
    words_by_class : dict, default {}
        The words of each class used (:func:`inlp_debias`).
    missing_words : dict, default {}
        The words of each class not in the embedding (:func:`inlp_debias`).
    label : str, default ""
        The debiased embedding's label (:func:`inlp_debias`).
    """

    basis: np.ndarray = field(repr=False)
    classes: tuple
    iterations: tuple[InlpIteration, ...] = field(repr=False)
    majority_accuracy: float
    accuracy_before: float
    accuracy_after: float
    classifier: str
    n_train: int
    n_dev: int
    stopped_early: str
    seed: int
    n_words: int = 0
    words_by_class: dict = field(default_factory=dict, repr=False)
    missing_words: dict = field(default_factory=dict, repr=False)
    label: str = ""

    @property
    def rank(self) -> int:
        """The dimension of the space removed."""
        return self.basis.shape[1]

    @property
    def projection(self) -> np.ndarray:
        """P = I − U Uᵀ, shape (d, d)."""
        return np.eye(self.basis.shape[0]) - self.basis @ self.basis.T

    def table(self):
        """The iterations as a :class:`pandas.DataFrame`.

        Returns
        -------
        pandas.DataFrame
            One row per iteration: iteration, dev_accuracy, train_accuracy, used, rank_removed.
        """
        import pandas as pd

        return pd.DataFrame([it.__dict__ for it in self.iterations])


def _make_classifier(kind: str, seed: int):
    """Algorithm 1's linear classifier: the authors' ``LinearSVC(fit_intercept=False, dual=False)`` or a logistic
    regression (lbfgs); both deterministic (no random coordinate order)."""
    if kind == "svm":
        from sklearn.svm import LinearSVC

        return LinearSVC(fit_intercept=False, dual=False, max_iter=5000, random_state=seed)
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(fit_intercept=False, max_iter=2000, random_state=seed)


def _fit_score(kind: str, seed: int, Xtr, ytr, Xdev, ydev):
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    clf = _make_classifier(kind, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(Xtr, ytr)
    return clf, float(clf.score(Xdev, ydev)), float(clf.score(Xtr, ytr))


def _orth(M: np.ndarray, d: int) -> np.ndarray:
    """An orthonormal basis (d, r) of the span of the rows of ``M`` (scipy.linalg.orth's rank rule)."""
    if M.size == 0:
        return np.zeros((d, 0))
    u, s, _ = np.linalg.svd(M.T, full_matrices=False)
    tol = s.max(initial=0.0) * max(M.shape) * np.finfo(np.float64).eps
    u = u[:, s > tol]
    return u * np.where(u[np.argmax(np.abs(u), axis=0), np.arange(u.shape[1])] < 0, -1.0, 1.0)  # a fixed sign


def inlp(X, z, *, n_iterations: int = 35, classifier: str = "svm", min_accuracy: float = 0.0,
         dev_fraction: float = 0.3, seed: int = 0) -> tuple[np.ndarray, InlpReport]:
    """Learn INLP's projection P from vectors ``X`` and their protected attribute ``z`` (Algorithm 1).

    The rows are split at random (``seed``) into training and held-out rows. At iteration i a linear classifier
    W_i is trained to predict z from the training rows projected by P_{i−1} (the authors' "autoregressive"
    setting) and scored on the held-out rows; if its held-out accuracy is at least ``min_accuracy`` its rows
    are added to the span removed, and P_i = I − U_i U_iᵀ with U_i an orthonormal basis of the span of W_1..W_i
    (the projection onto N(W_1) ∩ ... ∩ N(W_i), Section 3). With k classes the one-vs-rest SVM has k rows (one for
    k = 2) and the multinomial logistic regression k rows of rank k − 1, so an iteration removes up to k (or
    k − 1) dimensions. Iterations stop early if the space left
    would have no dimension.

    Differences from the authors' ``get_debiasing_projection``: the train/held-out split is one seeded
    permutation (they use two scikit-learn splits, 70/30 then 70/30, and score on the middle part); the basis is
    computed from the classifiers' rows (the same space as their sum of rowspace projections); a classifier
    below ``min_accuracy`` is skipped as theirs is.

    Parameters
    ----------
    X : array-like of shape (n, d)
        The vectors.
    z : array-like of shape (n,)
        The protected attribute of each row (any labels; at least two classes).
    n_iterations : int, default 35
        Classifiers to train (the paper: 35 for GloVe 300d; each removes up to k dimensions, so use fewer on
        low-dimensional embeddings).
    classifier : {"svm", "logistic"}, default "svm"
        ``"svm"``: scikit-learn's ``LinearSVC(fit_intercept=False, dual=False)``, the authors' setting;
        ``"logistic"``: ``LogisticRegression(fit_intercept=False)``.
    min_accuracy : float, default 0.0
        A classifier scoring below this on the held-out rows is not used (the authors' ``min_acc = 0``).
    dev_fraction : float, default 0.3
        The share of rows held out, in (0, 1).
    seed : int, default 0
        Seed of the split and of the classifiers: the same seed gives the same bytes.

    Returns
    -------
    P : numpy.ndarray of shape (d, d)
        The projection I − U Uᵀ (symmetric, idempotent).
    report : InlpReport
        The basis U, the accuracy of every iteration and before and after.

    Raises
    ------
    InvalidParameterError
        If ``X`` is not a finite 2-D array, ``z`` does not have one label per row, or a parameter is out of range.
    DegenerateSetError
        If ``z`` has fewer than two classes, or a class has no training or held-out row.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> z = np.repeat([0, 1], 100)
    >>> X = rng.normal(size=(200, 5)); X[:, 0] += 4 * z - 2
    >>> P, report = inlp(X, z, n_iterations=3)
    >>> round(report.accuracy_before, 2), report.rank, bool(abs(P @ [1, 0, 0, 0, 0]).max() < 0.1)
    (0.97, 3, True)
    >>> [round(it.dev_accuracy, 2) for it in report.iterations]
    [0.97, 0.78, 0.52]
    """
    X = as_float_array("X", X, ndim=2, what="the vectors (one row per example)")
    if not np.all(np.isfinite(X)) or X.shape[0] < 4 or X.shape[1] < 1:
        raise InvalidParameterError(f"X must be a finite (n, d) array with n >= 4, not shape {X.shape}")
    codes, classes = _labels(z, len(X))
    n_iterations = check_int("n_iterations", n_iterations, min=1)
    classifier = check_option("classifier", classifier, CLASSIFIERS)
    min_accuracy = check_real("min_accuracy", min_accuracy, low=0.0, high=1.0)
    dev_fraction = check_real("dev_fraction", dev_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    seed = check_seed("seed", seed)
    if isinstance(seed, np.random.Generator):
        raise InvalidParameterError("seed must be an integer here (scikit-learn's random_state)")
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(X))
    n_dev = max(1, int(round(dev_fraction * len(X))))
    dev, train = np.sort(perm[:n_dev]), np.sort(perm[n_dev:])
    for name, part in (("training", train), ("held-out", dev)):
        absent = [classes[c] for c in range(len(classes)) if not np.any(codes[part] == c)]
        if absent:
            raise DegenerateSetError(f"no {name} row of class(es) {absent}; give more rows per class")
    Xtr, ytr, Xdev, ydev = X[train], codes[train], X[dev], codes[dev]
    d = X.shape[1]
    U = np.zeros((d, 0))
    rows: list[np.ndarray] = []
    its: list[InlpIteration] = []
    stopped = ""
    acc_before = float("nan")
    for i in range(1, n_iterations + 1):
        Ptr = Xtr - (Xtr @ U) @ U.T
        Pdev = Xdev - (Xdev @ U) @ U.T
        clf, acc, tr_acc = _fit_score(classifier, seed, Ptr, ytr, Pdev, ydev)
        if i == 1:
            acc_before = acc
        used = acc >= min_accuracy
        if used:
            W = np.atleast_2d(clf.coef_)
            new_U = _orth(np.vstack([*rows, W]), d)
            if new_U.shape[1] >= d:
                stopped = (f"iteration {i} would leave no dimension ({d}); stopped with {U.shape[1]} removed")
                its.append(InlpIteration(i, acc, tr_acc, False, U.shape[1]))
                break
            rows.append(W)
            U = new_U
        its.append(InlpIteration(i, acc, tr_acc, used, U.shape[1]))
    Ptr = Xtr - (Xtr @ U) @ U.T
    Pdev = Xdev - (Xdev @ U) @ U.T
    _, acc_after, _ = _fit_score(classifier, seed, Ptr, ytr, Pdev, ydev)
    majority = float(np.bincount(ydev, minlength=len(classes)).max() / len(ydev))
    report = InlpReport(basis=U, classes=classes, iterations=tuple(its), majority_accuracy=majority,
                        accuracy_before=acc_before, accuracy_after=acc_after, classifier=classifier,
                        n_train=len(train), n_dev=len(dev), stopped_early=stopped, seed=seed)
    return report.projection, report


def inlp_debias(embedding, words_by_class: Mapping[str, Sequence[str]] | None = None, *, n_iterations: int = 35,
                classifier: str = "svm", min_accuracy: float = 0.0, dev_fraction: float = 0.3, seed: int = 0,
                label: str | None = None, chunk_rows: int = DEFAULT_CHUNK_ROWS,
                out: np.ndarray | None = None) -> tuple[KeyedVectors, InlpReport]:
    """INLP-debias an embedding: learn P from the words of each class (:func:`inlp`) and apply it to every vector.

    Every vector x becomes P x = x − U (Uᵀ x) (the vectors are not normalised, as in the authors' notebook),
    computed ``chunk_rows`` rows at a time into one float32 matrix.

    Parameters
    ----------
    embedding : KeyedVectors or str
        The embedding (not modified unless ``out`` is its own matrix), or a name or path
        :func:`wordbias.embeddings.load` takes.
    words_by_class : mapping of str to sequence of str, optional
        The words of each value of the protected attribute; by default :func:`biased_words` ``(embedding)``'s
        three classes (male, female, neutral: Section 6.1). Words not in the embedding are dropped with a
        :class:`~wordbias.core.errors.MissingWordsWarning` and reported.
    n_iterations : int, default 35
        See :func:`inlp`.
    classifier : {"svm", "logistic"}, default "svm"
        See :func:`inlp`.
    min_accuracy : float, default 0.0
        See :func:`inlp`.
    dev_fraction : float, default 0.3
        See :func:`inlp`.
    seed : int, default 0
        Seed of the word draw, the split and the classifiers.
    label : str, optional
        The label of the embedding; the report's ``label`` is ``<label>+inlp``.
    chunk_rows : int, default DEFAULT_CHUNK_ROWS
        Rows projected at a time.
    out : numpy.ndarray, optional
        A float32 array of the embedding's shape to write into (a memory-mapped ``.npy``, or the embedding's own
        writable matrix to project in place); by default a new array.

    Returns
    -------
    debiased : KeyedVectors
        The projected float32 vectors, the vocabulary in the embedding's order.
    report : InlpReport
        :func:`inlp`'s report, with the words used and missing.

    Raises
    ------
    InvalidParameterError
        If ``words_by_class`` is not a mapping of two or more classes, a word is in two classes, or a parameter
        is invalid.
    DegenerateSetError
        If a class keeps fewer than two words in the embedding.

    Examples
    --------
    Three classes, as Section 6.1's:

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(1)
    >>> vecs = rng.normal(size=(60, 4)).astype(np.float32); vecs[:20, 0] += 3; vecs[20:40, 0] -= 3
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(60)], vecs)
    >>> classes = {c: [f"w{i}" for i in range(20 * k, 20 * k + 20)] for k, c in enumerate(["male", "female", "neutral"])}
    >>> out, report = inlp_debias(kv, classes, n_iterations=2, label="toy")
    >>> report.label, report.rank, out.vectors.dtype
    ('toy+inlp', 3, dtype('float32'))
    """
    kv = _as_kv(embedding)
    chunk_rows = check_int("chunk_rows", chunk_rows, min=1)
    if words_by_class is None:
        words_by_class = biased_words(kv, seed=seed).as_classes()
    X, codes, names, kept, missing = _words_by_class(kv, words_by_class)
    _, rep = inlp(X, codes, n_iterations=n_iterations, classifier=classifier, min_accuracy=min_accuracy,
                  dev_fraction=dev_fraction, seed=seed)
    n, d = kv.vectors.shape
    out = _check_out(out, (n, d))
    _subtract_low_rank(kv.vectors, rep.basis, rep.basis.T, None, out, chunk_rows)
    report = InlpReport(**{**rep.__dict__, "classes": names, "n_words": n, "words_by_class": kept,
                           "missing_words": {k: v for k, v in missing.items() if v},
                           "label": debiased_label(label, "inlp")})
    return embeddings.to_keyed_vectors(list(kv.index_to_key), out, dict(kv.key_to_index.items())), report
