"""Unsupervised Bias Enumeration (UBE) of Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019), "What are
the biases in my word embedding?" (AIES 2019), in the paper's notation: n groups of names, m categories of
the M candidate words, t words per test, false discovery rate α, R rotations. Vectors are unit length
(Section 3); S̄ is the mean unit vector of a token set S.

:func:`g` is the generalised WEAT (Section 2.1). :func:`run` is the algorithm (Section 3): Step 1
:func:`clean_names` and :func:`cluster`, Step 2 :func:`candidate_words`, Step 3 :func:`select_words`, Step 4
:func:`rotational_null`, :func:`p_values` and :func:`bh_rejections`. Section 4: :func:`illustrative_names`
and :func:`indirect_bias`.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import numpy as np

from wordbias.core.errors import InvalidParameterError, LowPowerWarning, TooCostlyError
from wordbias.core.lookup import DegenerateSetError
from wordbias.core.parallel import default_workers, run_tasks
from wordbias.core.validation import check_bool, check_int, check_probability, check_real, check_seed
from wordbias.measures.weat import unit_rows

#: Table 2 of the paper: the algorithm's inputs and their defaults
DEFAULTS = dict(n=12, m=64, M=30_000, t=3, alpha=0.05, R=10_000)


# --------------------------------------------------------------------------------------------------
# Section 2.1: the generalised WEAT
# --------------------------------------------------------------------------------------------------

def mean_unit(vectors, name: str = "set") -> np.ndarray:
    """S̄ = Σ_{v∈S} v̄ / |S|, the mean of the unit vectors of a token set (Section 2).

    Examples
    --------
    >>> mean_unit([[3.0, 0.0], [0.0, 2.0]])
    array([0.5, 0.5])
    """
    u = unit_rows(vectors, name)
    if len(u) == 0:
        raise DegenerateSetError(f"{name} is empty")
    return u.mean(axis=0)


def g(X_groups: Sequence, A_groups: Sequence, *, names=None, words=None) -> float:
    """The generalised WEAT of Section 2.1: g(X_1, A_1, ..., X_n, A_n) = Σ_i (X̄_i − μ)·(Ā_i − 𝒜̄).

    ``X_groups`` and ``A_groups`` are n arrays of vectors (rows). For n = 1, μ = 𝒳̄ is the mean of all
    ``names`` (the universe 𝒳) and 𝒜̄ the mean of all ``words`` (𝒜): both are required. For n ≥ 2,
    μ = Σ_i X̄_i / n; 𝒜̄ cancels (Σ_i (X̄_i − μ) = 0), so ``words`` is optional.

    Examples
    --------
    Two groups of one name each, and a word near each name; swapping the words flips the sign.

    >>> X1, X2 = [[1.0, 0.0]], [[0.0, 1.0]]
    >>> A1, A2 = [[1.0, 0.1]], [[0.1, 1.0]]
    >>> round(g([X1, X2], [A1, A2]), 4), round(g([X1, X2], [A2, A1]), 4)
    (0.8955, -0.8955)
    """
    n = len(X_groups)
    if n == 0 or len(A_groups) != n:
        raise ValueError(f"need n ≥ 1 name groups and as many word groups, got {n} and {len(A_groups)}")
    Xbar = np.stack([mean_unit(x, f"X_{i + 1}") for i, x in enumerate(X_groups)])
    Abar = np.stack([mean_unit(a, f"A_{i + 1}") for i, a in enumerate(A_groups)])
    if n == 1:
        if names is None or words is None:
            raise ValueError("g with n = 1 needs the universes: names (𝒳) and words (𝒜)")
        mu = mean_unit(names, "names (𝒳)")
    else:
        mu = Xbar.mean(axis=0)
    A_all = mean_unit(words, "words (𝒜)") if words is not None else np.zeros(Xbar.shape[1])
    return float(np.sum((Xbar - mu) * (Abar - A_all)))


# --------------------------------------------------------------------------------------------------
# Step 1: cleaning names (Appendix C.3) and clustering (Section 3.1)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cleaning:
    """Result of :func:`clean_names`: which names were kept and each name's SVM margin."""

    tokens: list[str]          # the input name tokens, in input order
    margin: np.ndarray         # signed distance to the SVM hyperplane (larger = more name-like)
    kept: np.ndarray           # bool, True for the names kept
    non_names: list[str]       # the random non-names the SVM was trained against

    @property
    def kept_tokens(self) -> list[str]:
        return [w for w, k in zip(self.tokens, self.kept) if k]

    @property
    def removed_tokens(self) -> list[str]:
        """Removed names, least name-like first."""
        order = np.argsort(self.margin, kind="stable")
        return [self.tokens[i] for i in order if not self.kept[i]]


def clean_names(kv, tokens: Sequence[str], *, fraction: float = 0.2, top_words: int = 50_000,
                seed: int = 0, exclude: Sequence[str] = ()) -> Cleaning:
    """Appendix C.3: train scikit-learn's ``LinearSVC`` (default parameters) to separate the names from
    an equal number of random non-names among the ``top_words`` most frequent tokens, and drop the
    ``fraction`` of names with the smallest margin.

    ``exclude`` lists further tokens that must not be drawn as non-names (for example every name of the
    source list, including those the embedding has but that are not among ``tokens``).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> kv = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> cleaning = clean_names(kv, tokens[:20], top_words=120)
    >>> len(cleaning.kept_tokens), len(cleaning.removed_tokens), len(cleaning.non_names)
    (16, 4, 20)
    """
    from sklearn.svm import LinearSVC

    tokens = list(dict.fromkeys(tokens))
    if len(tokens) < 10:
        raise DegenerateSetError(f"only {len(tokens)} names to clean; need at least 10")
    if not 0 <= fraction < 1:
        raise ValueError(f"fraction must be in [0, 1), got {fraction}")
    banned = set(tokens) | set(exclude)
    pool = [w for w in kv.index_to_key[:top_words] if w not in banned]
    if len(pool) < len(tokens):
        raise DegenerateSetError(
            f"only {len(pool)} non-names among the {top_words} most frequent tokens for {len(tokens)} names")
    rng = np.random.default_rng(seed)
    non_names = [pool[i] for i in np.sort(rng.choice(len(pool), size=len(tokens), replace=False))]
    Xn = unit_rows(kv[tokens], "names")
    Xo = unit_rows(kv[non_names], "non-names")
    svm = LinearSVC(random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # default max_iter may not converge; the margin ranking is what is used
        svm.fit(np.vstack([Xn, Xo]), np.r_[np.ones(len(Xn)), np.zeros(len(Xo))])
    margin = svm.decision_function(Xn) / np.linalg.norm(svm.coef_)
    n_drop = int(round(fraction * len(tokens)))
    kept = np.ones(len(tokens), dtype=bool)
    kept[np.argsort(margin, kind="stable")[:n_drop]] = False
    return Cleaning(tokens=tokens, margin=margin, kept=kept, non_names=non_names)


def cluster(unit_vectors: np.ndarray, k: int, *, seed: int = 0) -> np.ndarray:
    """K-means++ (scikit-learn ``KMeans`` with its default parameters and ``random_state=seed``) on unit
    vectors; returns labels 0..k-1 (Sections 3.1 and 3.2).

    Runs on one OpenMP thread: scikit-learn sums the cluster centres per thread and then adds the threads'
    partial sums, so the labels could depend on the machine's core count.

    Examples
    --------
    >>> labels = cluster(np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]]), 2)
    >>> bool(labels[0] == labels[1] != labels[2] == labels[3])
    True
    """
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    if len(unit_vectors) < k:
        raise DegenerateSetError(f"cannot form {k} clusters from {len(unit_vectors)} vectors")
    km = KMeans(n_clusters=k, init="k-means++", random_state=seed)
    with threadpool_limits(1):
        labels = km.fit_predict(np.ascontiguousarray(unit_vectors, dtype=np.float64))
    sizes = np.bincount(labels, minlength=k)
    if np.any(sizes == 0):
        raise DegenerateSetError(f"K-means left clusters {np.flatnonzero(sizes == 0).tolist()} empty")
    return labels


# --------------------------------------------------------------------------------------------------
# Step 2: candidate words (Appendix C.4)
# --------------------------------------------------------------------------------------------------

_LOWER = re.compile(r"^[a-z]+(?:[ _][a-z]+)*$")

#: where Step 2 takes case from (:func:`case_rule`): "auto" (the embedding's own case when it is cased, else the
#: word list), "embedding" (Appendix C.4 itself), "wordlist" (the stand-in for uncased vocabularies) or None (no
#: case rule: every lower-case token is a candidate)
CASE_SOURCES = ("auto", "embedding", "wordlist", None)


def case_rule(case_source, cased: bool) -> str | None:
    """The case rule Step 2 applies: ``"embedding"`` (Appendix C.4: drop a lower-case token whose capitalised
    or upper-case form is more frequent in the embedding), ``"wordlist"`` (the stand-in for an uncased
    vocabulary, a deviation from the paper: keep a token only when a cased English word list spells it in lower
    case; :mod:`wordbias.datasets.casing`) or ``None`` (no rule). ``"auto"`` is ``"embedding"`` on a ``cased``
    vocabulary and ``"wordlist"`` on an uncased one. ``"embedding"`` on an uncased vocabulary is refused: it has
    no capitalised forms, so C.4 would silently drop nothing.

    Examples
    --------
    >>> case_rule("auto", cased=True), case_rule("auto", cased=False), case_rule(None, cased=False)
    ('embedding', 'wordlist', None)
    >>> case_rule("embedding", cased=False)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: case_source 'embedding' applies Appendix C.4 with the embedding's own capitalisation, but this vocabulary is uncased (no token has an upper-case letter); use 'wordlist' (the stand-in: a cased English word list) or None (no case rule)
    """
    if not (case_source is None or (isinstance(case_source, str) and case_source in CASE_SOURCES)):
        raise InvalidParameterError(f"case_source must be one of 'auto', 'embedding', 'wordlist' or None, "
                                    f"not {case_source!r}")
    if case_source == "auto":
        return "embedding" if cased else "wordlist"
    if case_source == "embedding" and not cased:
        raise InvalidParameterError("case_source 'embedding' applies Appendix C.4 with the embedding's own "
                                    "capitalisation, but this vocabulary is uncased (no token has an upper-case "
                                    "letter); use 'wordlist' (the stand-in: a cased English word list) or None "
                                    "(no case rule)")
    return case_source


def candidate_words(kv, M: int | None, *, exclude: Sequence[str] = (), cased: bool | None = None,
                    case_source: str | None = "auto", wordlist=None) -> list[str]:
    """Appendix C.4: the M most frequent tokens (every such token when ``M`` is None) made only of the 26
    lower-case letters (and spaces or underscores, for embeddings with phrases) that pass the case rule
    :func:`case_rule` picks from ``case_source``. The embedding's vocabulary must be in frequency order (true of
    every embedding this project loads). Tokens in ``exclude`` (e.g. the cleaned names) are never candidates.

    * ``"embedding"``, the paper's rule: omit a lower-case token whose capitalised or upper-case form is more
      frequent ("john" is dropped because "John" comes first);
    * ``"wordlist"``, the stand-in for an uncased embedding (e.g. GloVe 6B), a deviation from the paper: keep a
      token only when a cased English word list spells it (each part of a phrase) in lower case. ``wordlist``
      is that list (any collection of words, case kept); by default SCOWL size 50
      (:func:`wordbias.datasets.casing.cased_wordlist`): "bill" and "may" stay ("bill" and "Bill" are both
      listed), "texas", "lufthansa" and "tv" go, and so does a token the list lacks;
    * ``None``: no case rule.

    ``cased`` (default: :func:`wordbias.embeddings.is_cased`) says whether the vocabulary has case.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["the", "John", "john", "new_york", "u.s.", "city"], np.ones((6, 2)))
    >>> candidate_words(kv, 3)           # "john" comes after "John"; "u.s." is not letters only
    ['the', 'new_york', 'city']
    >>> kv = to_keyed_vectors(["the", "texas", "bill", "lufthansa", "dog"], np.ones((5, 2)))   # uncased
    >>> candidate_words(kv, None), candidate_words(kv, None, case_source=None)
    (['the', 'bill', 'dog'], ['the', 'texas', 'bill', 'lufthansa', 'dog'])
    """
    vocab = kv.index_to_key
    if cased is None:
        from wordbias.embeddings import is_cased
        cased = is_cased(kv)
    rule = case_rule(case_source, bool(cased))
    if wordlist is not None and rule != "wordlist":
        raise InvalidParameterError(f"wordlist is used only by case_source 'wordlist' (here the rule is {rule!r}); "
                                    f"leave it None or set case_source='wordlist'")
    lower = None
    if rule == "wordlist":
        from wordbias.datasets import casing
        lower = casing.lowercase_words(wordlist)
        if not lower:
            raise InvalidParameterError("wordlist has no word spelt in lower case, so the stand-in would drop "
                                        "every token")
    rank = kv.key_to_index
    excluded = set(exclude)
    out: list[str] = []
    for i, w in enumerate(vocab):
        if not _LOWER.match(w) or w in excluded:
            continue
        if rule == "embedding":
            title = "_".join(p[:1].upper() + p[1:] for p in w.split("_")) if "_" in w else w.capitalize()
            if rank.get(title, 1 << 62) < i or rank.get(w.upper(), 1 << 62) < i:
                continue
        elif rule == "wordlist" and not all(part in lower for part in re.split(r"[_ ]", w)):
            continue
        out.append(w)
        if len(out) == M:
            break
    if M is not None and len(out) < M:
        warnings.warn(f"only {len(out)} candidate words found (asked for M = {M})", LowPowerWarning)
    return out


# --------------------------------------------------------------------------------------------------
# Step 3: Voronoi sets and word selection
# --------------------------------------------------------------------------------------------------

def voronoi(W: np.ndarray, Xbar: np.ndarray) -> np.ndarray:
    """argmax_i w̄·X̄_i for every (unit) word row of W: the group whose Voronoi set holds the word.

    Examples
    --------
    >>> voronoi(np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]))
    array([0, 0, 1])
    """
    return np.argmax(W @ Xbar.T, axis=1)


def select_words(W: np.ndarray, category: np.ndarray, Xbar: np.ndarray, Abar: np.ndarray, t: int):
    """Step 3 (Section 3.3) for all groups and categories at once.

    The Voronoi set V_ij = {w ∈ 𝒜_j : i = argmax_i' w̄·X̄_i'} gives A_ij, its t words maximising
    (X̄_i − μ)·(w̄ − 𝒜̄_j), with μ = Σ_i X̄_i / n. Returns ``(selected, sigma)``: ``selected[i][j]`` the
    indices (rows of W) of A_ij, best first, and ``sigma[i, j]`` = (X̄_i − μ)·(Ā_ij − 𝒜̄_j), the mean
    criterion over A_ij. A Voronoi set with fewer than t words gives no test (σ = −inf, p = 1): a test
    has exactly t words per group; its words are still listed in ``selected``.

    Examples
    --------
    Two groups along the axes; words 0-2 in category 0, word 3 in category 1 (in group 1's Voronoi set).

    >>> W = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [-0.6, 0.8]])
    >>> category = np.array([0, 0, 0, 1])
    >>> Abar = np.stack([W[category == j].mean(axis=0) for j in range(2)])
    >>> selected, sigma = select_words(W, category, np.eye(2), Abar, t=1)
    >>> [[s.tolist() for s in row] for row in selected]
    [[[0], []], [[2], [3]]]
    >>> sigma.round(4)
    array([[0.4667,   -inf],
           [0.5333, 0.    ]])
    """
    n, m = len(Xbar), len(Abar)
    P = W @ Xbar.T
    vor = np.argmax(P, axis=1)
    s = P[np.arange(len(W)), vor] - P.mean(axis=1)
    const = (Xbar - Xbar.mean(axis=0)) @ Abar.T          # (X̄_i − μ)·𝒜̄_j
    sigma = np.full((n, m), -np.inf)
    selected = [[np.empty(0, dtype=np.int64) for _ in range(m)] for _ in range(n)]
    bucket = vor * m + category
    order = np.lexsort((np.arange(len(W)), -s, bucket))  # by bucket, then score descending, then index
    starts = np.searchsorted(bucket[order], np.arange(n * m + 1))
    for b in range(n * m):
        idx = order[starts[b]:starts[b + 1]][:t]
        if len(idx):
            i, j = divmod(b, m)
            selected[i][j] = idx
            if len(idx) == t:
                sigma[i, j] = s[idx].mean() - const[i, j]
    return selected, sigma


# --------------------------------------------------------------------------------------------------
# Step 4: the rotational null
# --------------------------------------------------------------------------------------------------

def span_factors(Xbar: np.ndarray, tol: float = 1e-10):
    """X̄ = C B with B (r×d) an orthonormal basis of the span of the group means; returns (C, B).

    Examples
    --------
    >>> Xbar = np.array([[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]])      # the two means span a line: r = 1
    >>> C, B = span_factors(Xbar)
    >>> C.shape, B.shape, bool(np.allclose(C @ B, Xbar))
    ((2, 1), (1, 3), True)
    """
    U, S, Vt = np.linalg.svd(np.asarray(Xbar, dtype=np.float64), full_matrices=False)
    r = int(np.sum(S > tol * max(S[0], 1e-300)))
    return U[:, :r] * S[:r], Vt[:r]


def haar_frames(rng: np.random.Generator, count: int, d: int, r: int) -> np.ndarray:
    """``count`` Haar-random r-frames of R^d (count×r×d, orthonormal rows): the first r rows of Haar
    rotations, from the QR decomposition of Gaussian matrices with the signs of R's diagonal fixed
    (Mezzadri 2007). Row k of frame c depends only on the first k+1 Gaussian rows.

    Examples
    --------
    >>> F = haar_frames(np.random.default_rng(0), 4, 5, 2)
    >>> F.shape, bool(np.allclose(F[0] @ F[0].T, np.eye(2)))
    ((4, 2, 5), True)
    """
    G = rng.standard_normal((count, r, d))
    Q, R = np.linalg.qr(np.swapaxes(G, 1, 2))            # (count, d, r), (count, r, r)
    signs = np.sign(np.diagonal(R, axis1=1, axis2=2))
    signs[signs == 0] = 1.0
    return np.swapaxes(Q * signs[:, None, :], 1, 2)


def haar_rotation(rng: np.random.Generator, d: int) -> np.ndarray:
    """One d×d Haar-random orthogonal matrix, drawn exactly like :func:`haar_frames` with r = d.

    Examples
    --------
    >>> U = haar_rotation(np.random.default_rng(0), 3)
    >>> bool(np.allclose(U @ U.T, np.eye(3)))
    True
    """
    return haar_frames(rng, 1, d, d)[0]


def null_sigma_batch(W: np.ndarray, category: np.ndarray, Z: np.ndarray, Abar: np.ndarray, t: int) -> np.ndarray:
    """σ_ijr of Step 3 for a batch of b rotated group-mean matrices Z (b×n×d): b×n×m (float64).

    The matrix product W Zᵀ is taken in W's dtype (float32 for speed), one rotation at a time (a stacked
    ``matmul`` makes one n×d by d×M product per rotation): the shape of every product is the same whatever
    the batch size, so BLAS takes the same code path and σ does not depend on ``b`` (a (b·n)×d product may
    round differently for different b). The compiled kernel :func:`wordbias.core.kernels.ube_null_sigma`
    then takes, for each word, its Voronoi group and score and keeps a running top-t per (group,
    category). ``category`` must be int32.

    Examples
    --------
    One rotation (b = 1) of n = 2 group means, one category (m = 1), t = 2 words per test:

    >>> W = np.array([[1.0, 0.0], [0.5, 0.25], [0.0, 1.0], [-0.5, 0.5]], dtype=np.float32)
    >>> Z = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> null_sigma_batch(W, np.zeros(4, dtype=np.int32), Z, np.zeros((1, 2)), 2)
    array([[[0.3125],
            [0.5   ]]])
    """
    from wordbias.core import kernels     # imports numba (0.3 s): only when the null is computed

    b, n, d = Z.shape
    m = len(Abar)
    Z = Z.astype(W.dtype, copy=False)
    const = np.einsum("bnd,md->bnm", Z - Z.mean(axis=1, keepdims=True), Abar)
    P = np.matmul(Z, W.T).reshape(b * n, W.shape[0])
    out = np.empty((b, n, m))
    kernels.ube_null_sigma(P, n, np.ascontiguousarray(category, dtype=np.int32), m, t, const, out)
    return out


#: rotations are drawn in blocks of this many, block k from ``default_rng([seed, k])``
ROTATION_BLOCK = 64


def rotation_frames(seed: int, block: int, d: int, r: int, count: int = ROTATION_BLOCK) -> np.ndarray:
    """The Haar r-frames of rotations ``block·ROTATION_BLOCK ...`` (the first ``count`` of the block).

    Each block has its own generator, ``numpy.random.default_rng([seed, block])``, so blocks can be drawn
    in any order and on any thread and the null is the same whatever the batch size and worker count.

    Examples
    --------
    >>> rotation_frames(seed=0, block=3, d=5, r=2).shape
    (64, 2, 5)
    """
    return haar_frames(np.random.default_rng([int(seed), int(block)]), count, d, r)


def rotational_null(W: np.ndarray, category: np.ndarray, Xbar: np.ndarray, Abar: np.ndarray, t: int,
                    R: int, *, seed: int = 0, batch_size: int = 8, workers: int | None = None,
                    progress: bool = True, dtype=np.float32) -> np.ndarray:
    """Step 4 (Section 3.4): σ_ijr for R Haar-random rotations U applied to the names only, Step 3 re-run
    for each (R×n×m, float32).

    Only the n group means X̄_i enter Step 3, and they span a space of dimension r ≤ n. Write X̄ = C B with
    B an r×d orthonormal basis of that span (:func:`span_factors`). B U is a Haar-random r-frame of R^d, so
    the rotated means are X̄ U = C F with F drawn directly (:func:`rotation_frames`): O(d r²) per rotation
    instead of a d×d Haar matrix. Blocks of :data:`ROTATION_BLOCK` rotations run on ``workers`` threads,
    each with single-threaded BLAS (a multi-threaded BLAS interleaved with the kernel spends its time
    handing cores back and forth), in sub-batches of ``batch_size`` rotations per matrix product
    (:func:`null_sigma_batch`). The same seed gives the same null whatever ``batch_size`` and ``workers``
    are. ``benchmarks/bench_ube.py`` compares the whole null with the matrix products alone.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> W = rng.normal(size=(40, 5))
    >>> W /= np.linalg.norm(W, axis=1, keepdims=True)
    >>> category = np.arange(40) % 2
    >>> Abar = np.stack([W[category == j].mean(axis=0) for j in range(2)])
    >>> null = rotational_null(W, category, rng.normal(size=(3, 5)), Abar, 2, 100, progress=False)
    >>> null.shape, null.dtype
    ((100, 3, 2), dtype('float32'))
    """
    from threadpoolctl import threadpool_limits

    R = check_int("R", R, min=1)
    t = check_int("t", t, min=1)
    batch_size = check_int("batch_size", batch_size, min=1)
    C, _ = span_factors(Xbar)
    n, r = C.shape
    d = W.shape[1]
    Wd = np.ascontiguousarray(W, dtype=dtype)
    Ad = np.ascontiguousarray(Abar, dtype=dtype)
    cat = np.ascontiguousarray(category, dtype=np.int32)
    workers = workers or default_workers()
    out = np.empty((R, n, len(Abar)), dtype=np.float32)

    def task(block: int) -> int:
        s0 = block * ROTATION_BLOCK
        F = rotation_frames(seed, block, d, r, min(ROTATION_BLOCK, R - s0))
        Z = np.einsum("nr,brd->bnd", C, F)                # rotated group means X̄ U
        for b0 in range(0, len(F), batch_size):
            Zb = Z[b0:b0 + batch_size]
            out[s0 + b0:s0 + b0 + len(Zb)] = null_sigma_batch(Wd, cat, Zb, Ad, t)
        return len(F)

    blocks = range((R + ROTATION_BLOCK - 1) // ROTATION_BLOCK)
    with threadpool_limits(1, user_api="blas"):
        run_tasks(task, blocks, workers=workers, total=R, desc="rotational null", unit="rotation", progress=progress)
    return out


def p_values(sigma: np.ndarray, null: np.ndarray) -> np.ndarray:
    """p_ij = (1 + #{r : σ_ijr ≥ σ_ij}) / (R + 1), the add-one Monte Carlo p-value (Section 3.4).
    A cell without a test (fewer than t words in its Voronoi set, σ = −inf) gets p = 1.

    Examples
    --------
    >>> sigma = np.array([[0.3, -np.inf]])                        # n = 1 group, m = 2 categories
    >>> null = np.array([[[0.1, 0.0]], [[0.35, 0.0]], [[0.2, 0.0]]], dtype=np.float32)   # R = 3
    >>> p_values(sigma, null)                                     # (1 + 1) / (3 + 1); no test
    array([[0.5, 1. ]])
    """
    sigma32 = sigma.astype(np.float32)  # compare at the null's precision
    exceed = (null >= sigma32[None]).sum(axis=0)
    p = (1.0 + exceed) / (null.shape[0] + 1.0)
    p[~np.isfinite(sigma)] = 1.0
    return p


def bh_rejections(p: np.ndarray, alpha: float) -> tuple[np.ndarray, float]:
    """Benjamini & Hochberg (1995) over all the p-values (any shape): returns (significant, critical p),
    the critical p being the largest p_(k) ≤ kα/N (0 when nothing is significant). The adjusted p-values are
    :func:`wordbias.core.multiple.benjamini_hochberg` (equal to the bit to
    ``scipy.stats.false_discovery_control(p, method="bh")``, which this used before).

    Examples
    --------
    >>> significant, critical = bh_rejections(np.array([0.001, 0.01, 0.03, 0.5]), alpha=0.05)
    >>> significant, critical
    (array([ True,  True,  True, False]), 0.03)
    """
    from wordbias.core.multiple import benjamini_hochberg as adjusted_bh

    alpha = check_probability("alpha", alpha)
    flat = np.asarray(p, dtype=np.float64).ravel()
    adjusted = adjusted_bh(flat)
    significant = adjusted <= alpha
    critical = float(flat[significant].max()) if significant.any() else 0.0
    return significant.reshape(np.shape(p)), critical


# --------------------------------------------------------------------------------------------------
# Section 4: illustrative names and potential indirect biases
# --------------------------------------------------------------------------------------------------

def illustrative_names(unit_vectors: np.ndarray, k: int = 5) -> np.ndarray:
    """Section 4's greedy heuristic: the (j+1)-th name minimises the distance between the mean of the
    first j+1 unit vectors and the group mean X̄_i. The first is the name closest to the mean. Returns
    row indices.

    Examples
    --------
    >>> illustrative_names(np.array([[1.0, 0.0], [0.0, 1.0], [0.8, 0.6]]), k=2)
    array([2, 1])
    """
    X = np.asarray(unit_vectors, dtype=np.float64)
    centre = X.mean(axis=0)
    chosen: list[int] = []
    total = np.zeros_like(centre)
    available = np.ones(len(X), dtype=bool)
    for j in range(min(k, len(X))):
        cand = (total[None, :] + X) / (j + 1)
        dist = np.einsum("ij,ij->i", cand - centre, cand - centre)
        dist[~available] = np.inf
        best = int(np.argmin(dist))
        chosen.append(best)
        available[best] = False
        total += X[best]
    return np.array(chosen, dtype=np.int64)


def indirect_bias(Abar_sel: Mapping[tuple[int, int], np.ndarray], significant: np.ndarray) -> tuple[int, int]:
    """Eq. (1): over all fourtuples of significant associations (i < i', j < j', all four cells
    significant), count those with (Ā_ij − Ā_i'j)·(Ā_ij' − Ā_i'j') > 0.

    ``Abar_sel[(i, j)]`` is the mean unit vector of A_ij. Returns (potential indirect biases, fourtuples).

    Examples
    --------
    Two groups, two categories, all four cells significant: one fourtuple, and it is a potential
    indirect bias (both categories' words differ between the groups in the same direction).

    >>> Abar_sel = {(0, 0): np.array([1.0, 0.0]), (1, 0): np.array([0.0, 1.0]),
    ...             (0, 1): np.array([1.0, 0.2]), (1, 1): np.array([0.1, 1.0])}
    >>> indirect_bias(Abar_sel, np.ones((2, 2), dtype=bool))
    (1, 1)
    """
    n, m = significant.shape
    hits = total = 0
    for i in range(n):
        for i2 in range(i + 1, n):
            both = np.flatnonzero(significant[i] & significant[i2])
            if len(both) < 2:
                continue
            D = np.stack([Abar_sel[(i, j)] - Abar_sel[(i2, j)] for j in both])
            G = D @ D.T
            iu = np.triu_indices(len(both), 1)
            hits += int(np.sum(G[iu] > 0))
            total += len(iu[0])
    return hits, total


def central_words(W: np.ndarray, category: np.ndarray, Abar: np.ndarray, k: int = 5) -> list[np.ndarray]:
    """For each category j, the (row) indices of its k words closest to the category mean 𝒜̄_j (largest
    w̄·𝒜̄_j, i.e. cosine, since the rows of W are unit vectors), ties broken by row (frequency) order. The paper
    leaves its categories unnamed; their most central words say what each is about, as a cluster's medoid does.
    The scores are rounded to 6 decimals before sorting, so a 1e-7 difference in the vectors (another CPU's
    BLAS) leaves the labels alone unless two words tie to 6 decimals.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [0.8, 0.6]])
    >>> category = np.array([0, 0, 1, 0])
    >>> Abar = np.stack([W[category == j].mean(axis=0) for j in range(2)])
    >>> [c.tolist() for c in central_words(W, category, Abar, k=2)]
    [[3, 1], [2]]
    """
    score = np.round(np.einsum("wd,wd->w", W, Abar[category]), 6)
    out = []
    for j in range(len(Abar)):
        idx = np.flatnonzero(category == j)
        out.append(idx[np.lexsort((idx, -score[idx]))][:k])
    return out


# --------------------------------------------------------------------------------------------------
# the whole algorithm
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class UBEResult:
    """Everything UBE produces. Groups are indexed 0..n-1 in ``group_order`` display order after
    :meth:`reorder`; categories 0..m-1 as K-means labelled them."""

    params: dict
    cleaning: Cleaning
    names: list[str]                 # cleaned names (tokens), rows of X
    name_group: np.ndarray           # group of each cleaned name
    words: list[str]                 # candidate words 𝒜, frequency order
    word_category: np.ndarray        # category of each candidate word
    word_group: np.ndarray           # Voronoi group of each candidate word (argmax_i w̄·X̄_i)
    Xbar: np.ndarray                 # n×d group means
    Abar: np.ndarray                 # m×d category means
    selected: list                   # selected[i][j]: indices into words, best first
    sigma: np.ndarray                # n×m
    null: np.ndarray                 # R×n×m (float32)
    p: np.ndarray                    # n×m
    significant: np.ndarray          # n×m bool
    critical_p: float
    Asel: dict = field(repr=False, default_factory=dict)   # (i, j) -> mean unit vector of A_ij
    central: list = field(repr=False, default_factory=list)  # central[j]: indices into words, most central first

    @property
    def n(self) -> int:
        return len(self.Xbar)

    @property
    def m(self) -> int:
        return len(self.Abar)

    def groups(self) -> list[list[str]]:
        """The names of each group, in input (frequency) order."""
        return [[w for w, g_ in zip(self.names, self.name_group) if g_ == i] for i in range(self.n)]

    def selected_words(self, i: int, j: int) -> list[str]:
        return [self.words[k] for k in self.selected[i][j]]

    def category_order(self) -> list[int]:
        """Categories ordered by the total σ over their significant cells (Section 3.4), then those with
        no significant cell (by total σ as well)."""
        sig_total = np.where(self.significant, self.sigma, 0.0).sum(axis=0)
        n_sig = self.significant.sum(axis=0)
        return sorted(range(self.m), key=lambda j: (n_sig[j] == 0, -sig_total[j], j))

    def n_significant(self) -> int:
        return int(self.significant.sum())

    def reorder(self, order: Sequence[int]) -> "UBEResult":
        """The same result with the groups permuted: new group k is old group ``order[k]``."""
        order = list(order)
        if sorted(order) != list(range(self.n)):
            raise ValueError(f"order must be a permutation of 0..{self.n - 1}")
        inv = np.empty(self.n, dtype=np.int64)
        inv[order] = np.arange(self.n)
        return replace(
            self, name_group=inv[self.name_group], word_group=inv[self.word_group], Xbar=self.Xbar[order],
            selected=[self.selected[o] for o in order], sigma=self.sigma[order], null=self.null[:, order],
            p=self.p[order], significant=self.significant[order],
            Asel={(int(inv[i]), j): v for (i, j), v in self.Asel.items()},
        )

    def central_words(self, j: int, k: int = 3) -> list[str]:
        """The k words of category j closest to its mean (largest w̄·𝒜̄_j, ties by frequency): a label for
        what the category is about (the paper does not name its categories; :func:`central_words`)."""
        if not self.central:
            raise ValueError("this result has no central words (made before they were recorded); re-run UBE")
        return [self.words[w] for w in self.central[j][:k]]

    def category_label(self, j: int, k: int = 3) -> str:
        """``"A{j}: w1, w2, w3"``: the category's K-means label and its k most central words (k = 0: ``"A{j}"``).

        Examples
        --------
        >>> from types import SimpleNamespace
        >>> fake = SimpleNamespace(words=["ceo", "firm", "company"], central=[[2, 1, 0]],
        ...                        central_words=lambda j, k: UBEResult.central_words(fake, j, k))
        >>> UBEResult.category_label(fake, 0, 2)
        'A0: company, firm'
        """
        return f"A{j}: {', '.join(self.central_words(j, k))}" if k else f"A{j}"

    def tests(self):
        """All n·m (group, category) cells as a tidy DataFrame: the category's most central words, the words
        A_ij, the size of the Voronoi set, whether the cell has a test (≥ t words), σ, p and significance.
        A cell without a test has σ and p missing (NaN), not the −inf and 1 the algorithm uses internally."""
        import pandas as pd

        rank = {j: r for r, j in enumerate(self.category_order())}
        rows = []
        for j in range(self.m):
            central = ", ".join(self.central_words(j)) if self.central else ""
            for i in range(self.n):
                tested = bool(np.isfinite(self.sigma[i, j]))
                rows.append(dict(category=j, category_rank=rank[j] + 1, central_words=central, group=i,
                                 words=", ".join(self.selected_words(i, j)),
                                 n_voronoi=int(np.sum((self.word_group == i) & (self.word_category == j))),
                                 tested=tested, sigma=self.sigma[i, j] if tested else np.nan,
                                 p=self.p[i, j] if tested else np.nan,
                                 significant=bool(self.significant[i, j])))
        return pd.DataFrame(rows).sort_values(["category_rank", "group"], kind="stable").reset_index(drop=True)

    def grid(self, top: int = 12, labels: Sequence[str] | None = None, censor=None, central: int = 3):
        """The paper's Table 5 layout: rows are the ``top`` categories in output order, columns the groups,
        a cell holds A_ij when significant and is empty otherwise. Rows are labelled by :meth:`category_label`
        (the ``central`` most central words of the category; 0 gives the bare ``A{j}``). ``censor`` maps a
        cell's or label's text to its displayed form (e.g. :func:`wordbias.censor.censor`)."""
        import pandas as pd

        labels = list(labels) if labels is not None else [f"G{i + 1}" for i in range(self.n)]
        cats = [j for j in self.category_order() if self.significant[:, j].any()][:top]
        body = []
        for j in cats:
            row = []
            for i in range(self.n):
                text = ", ".join(self.selected_words(i, j)) if self.significant[i, j] else ""
                row.append(censor(text) if (censor and text) else text)
            body.append(row)
        names = [self.category_label(j, central if self.central else 0) for j in cats]
        names = [censor(x) for x in names] if censor else names
        return pd.DataFrame(body, columns=labels, index=pd.Index(names, name="category: most central words"
                                                                 if central and self.central else "category"))

    def indirect_bias(self) -> tuple[int, int]:
        """(potential indirect biases, significant fourtuples): eq. (1) over all significant fourtuples."""
        return indirect_bias(self.Asel, self.significant)


def _name_groups(kv, name_tokens: Sequence[str], n: int, *, clean_fraction: float, svm_top_words: int,
                 name_exclusions: Sequence[str], s_clean: int, s_names: int):
    """Step 1: the names the embedding has, cleaned (:func:`clean_names`) and clustered into n groups
    (:func:`cluster`). Returns (cleaning, group of each kept name, n×d group means X̄)."""
    present = [w for w in dict.fromkeys(name_tokens) if w in kv.key_to_index]
    if len(present) < n:
        raise DegenerateSetError(f"only {len(present)} of the names are in the embedding; need at least n = {n}")
    cleaning = clean_names(kv, present, fraction=clean_fraction, top_words=svm_top_words, seed=s_clean,
                           exclude=name_exclusions)
    X = unit_rows(kv[cleaning.kept_tokens], "names")
    name_group = cluster(X, n, seed=s_names)
    Xbar = np.stack([X[name_group == i].mean(axis=0) for i in range(n)])
    return cleaning, name_group, Xbar


def _word_categories(kv, M: int, m: int, *, exclude: Sequence[str], cased: bool, s_words: int,
                     case_source="auto", wordlist=None):
    """Step 2: the M candidate words (:func:`candidate_words`, with ``case_source``'s rule) clustered into m
    categories. Returns (words, their M×d unit vectors W, category of each word, m×d category means 𝒜̄)."""
    words = candidate_words(kv, M, exclude=exclude, cased=cased, case_source=case_source, wordlist=wordlist)
    W = unit_rows(kv[words], "words")
    category = cluster(W, m, seed=s_words)
    Abar = np.stack([W[category == j].mean(axis=0) for j in range(m)])
    return words, W, category, Abar


#: the rotational null is refused up front when it would take longer than this (seconds, estimated) ...
MAX_NULL_SECONDS = 6 * 3600
#: ... or hold more than this many bytes (the R×n×m float32 null and the M×d float32 word matrix)
MAX_NULL_BYTES = 8 * 2**30
#: multiply-adds per second one worker is assumed to do in the null (``benchmarks/bench_ube.py`` measured
#: about 4e10 at d = 300; a quarter of that keeps the estimate on the safe side for slower machines)
NULL_MACS_PER_SECOND = 1e10


@dataclass(frozen=True)
class NullCost:
    """The estimated cost of the rotational null: ``seconds`` on ``workers`` threads and ``bytes`` held."""

    seconds: float
    bytes: int
    workers: int


def null_cost(R: int, n: int, m: int, M: int, d: int, workers: int) -> NullCost:
    """Estimated time and memory of :func:`rotational_null` for R rotations of n group means against M words
    of dimension d in m categories: R·n·M·(d + 8) multiply-adds (the products and the kernel's per-word work)
    at :data:`NULL_MACS_PER_SECOND` per worker; R·n·m float32 values of the null plus the M×d float32 words.

    Examples
    --------
    >>> cost = null_cost(R=10_000, n=12, m=64, M=30_000, d=300, workers=1)   # Table 2 defaults, 300-d
    >>> round(cost.seconds), cost.bytes // 2**20                            # about 2 minutes, 63 MiB
    (111, 63)
    """
    macs = float(R) * n * M * (d + 8)
    return NullCost(seconds=macs / (NULL_MACS_PER_SECOND * workers), bytes=4 * (R * n * m + M * d), workers=workers)


def _duration(seconds: float) -> str:
    return f"{seconds / 3600:.1f} hours" if seconds >= 3600 else f"{seconds / 60:.1f} minutes"


def check_null_cost(R: int, n: int, m: int, M: int, d: int, workers: int) -> NullCost:
    """Refuse (:class:`TooCostlyError`) a rotational null estimated (:func:`null_cost`) to run longer than
    :data:`MAX_NULL_SECONDS` or to hold more than :data:`MAX_NULL_BYTES`, with the estimate and what to lower.

    Examples
    --------
    >>> check_null_cost(R=10**9, n=12, m=64, M=30_000, d=300, workers=2)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.TooCostlyError: the rotational null with R = 1000000000 rotations, n = 12 groups, m = 64 categories and M = 30000 words of dimension 300 would take about 1540.0 hours on 2 workers and hold 2861.1 GiB; the limits are 6.0 hours and 8 GiB (MAX_NULL_SECONDS, MAX_NULL_BYTES in wordbias.measures.ube). Lower R (the paper uses 10,000; the smallest p is 1/(R + 1)) or M.
    """
    cost = null_cost(R, n, m, M, d, workers)
    if cost.seconds > MAX_NULL_SECONDS or cost.bytes > MAX_NULL_BYTES:
        raise TooCostlyError(
            f"the rotational null with R = {R} rotations, n = {n} groups, m = {m} categories and M = {M} words "
            f"of dimension {d} would take about {_duration(cost.seconds)} on {workers} worker"
            f"{'s' if workers != 1 else ''} and hold {cost.bytes / 2**30:.1f} GiB; the limits are "
            f"{_duration(MAX_NULL_SECONDS)} and {MAX_NULL_BYTES / 2**30:.0f} GiB (MAX_NULL_SECONDS, MAX_NULL_BYTES in "
            f"wordbias.measures.ube). Lower R (the paper uses 10,000; the smallest p is 1/(R + 1)) or M.")
    return cost


def _check_words_or_none(name: str, words):
    from wordbias.core.validation import check_words

    return None if words is None else list(check_words(name, words, allow_duplicates=True))


def check_run_parameters(*, n, m, M, t, alpha, R, seed, clean_fraction, svm_top_words, batch_size, workers,
                         cased, progress, case_source="auto") -> dict:
    """The parameters of :func:`run` checked once (Table 2's meanings), returned normalised.

    - ``n`` ≥ 2: Step 3 measures each group against the mean of the group means; with one group X̄_1 − μ = 0
      and every test is empty (the n = 1 WEAT of Section 2.1 is :func:`g` with ``names`` and ``words``);
    - ``m`` ≥ 1; ``M`` an integer ≥ m, or None for every candidate word of the vocabulary (0 is refused: it
      reads as "no words", and a magic 0 for "all" is how a typo goes unnoticed);
    - ``t`` ≥ 1 (t = 0 has no words to average; t larger than every category is refused after Step 2);
    - ``alpha`` a false discovery rate in (0, 1); ``R`` ≥ 1 rotations; ``seed`` an integer ≥ 0 or a
      ``numpy.random.Generator`` (an integer seed is drawn from it);
    - ``clean_fraction`` in [0, 1); ``svm_top_words``, ``batch_size`` ≥ 1; ``workers`` None or ≥ 1;
      ``cased`` None or a bool; ``progress`` a bool;
    - ``case_source`` one of :data:`CASE_SOURCES` (Step 2's case rule, :func:`case_rule`).

    Examples
    --------
    >>> check_run_parameters(n=1, m=4, M=100, t=3, alpha=0.05, R=10, seed=0, clean_fraction=0.2,
    ...                      svm_top_words=100, batch_size=8, workers=None, cased=None, progress=False)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: n must be >= 2, not 1 (UBE compares groups of names; for a single group use ube.g with names= and words=, the n = 1 WEAT of Section 2.1)
    """
    if isinstance(n, int) and not isinstance(n, bool) and n == 1:
        raise InvalidParameterError("n must be >= 2, not 1 (UBE compares groups of names; for a single group use "
                                    "ube.g with names= and words=, the n = 1 WEAT of Section 2.1)")
    out = dict(n=check_int("n", n, min=2), m=check_int("m", m, min=1), t=check_int("t", t, min=1),
               alpha=check_probability("alpha", alpha), R=check_int("R", R, min=1),
               clean_fraction=check_real("clean_fraction", clean_fraction, low=0.0, high=1.0, high_open=True),
               svm_top_words=check_int("svm_top_words", svm_top_words, min=1),
               batch_size=check_int("batch_size", batch_size, min=1),
               workers=None if workers is None else check_int("workers", workers, min=1),
               cased=None if cased is None else check_bool("cased", cased), progress=check_bool("progress", progress))
    if not (case_source is None or (isinstance(case_source, str) and case_source in CASE_SOURCES)):
        raise InvalidParameterError(f"case_source must be one of 'auto', 'embedding', 'wordlist' or None, "
                                    f"not {case_source!r}")
    out["case_source"] = case_source
    if M is not None:
        if isinstance(M, int) and not isinstance(M, bool) and M == 0:
            raise InvalidParameterError("M must be an integer >= m or None (every candidate word of the "
                                        "vocabulary), not 0")
        M = check_int("M", M, min=out["m"])
    out["M"] = M
    seed = check_seed("seed", seed)
    out["seed"] = int(seed.integers(2**63)) if isinstance(seed, np.random.Generator) else seed
    if 1.0 / (out["R"] + 1) > out["alpha"]:
        warnings.warn(f"with R = {out['R']} rotations the smallest p-value is 1/(R + 1) = {1 / (out['R'] + 1):.3g}, "
                      f"above alpha = {out['alpha']}: no test can be significant; raise R", LowPowerWarning,
                      stacklevel=3)
    return out


def _check_t_fits(t: int, category: np.ndarray, m: int) -> None:
    """Refuse a t larger than every category of Step 2 (no (group, category) cell could hold t words)."""
    largest = int(np.bincount(category, minlength=m).max())
    if t > largest:
        raise InvalidParameterError(f"t = {t} is larger than every word category: the largest of the m = {m} "
                                    f"categories has {largest} words, so no test could have t words per group; "
                                    f"use t <= {largest} (the paper uses 3) or fewer categories m")


def run(kv, name_tokens: Sequence[str], *, n: int = 12, m: int = 64, M: int | None = 30_000, t: int = 3,
        alpha: float = 0.05, R: int = 10_000, seed: int = 0, clean_fraction: float = 0.2,
        svm_top_words: int = 50_000, name_exclusions: Sequence[str] = (), word_exclusions=None,
        cased: bool | None = None, batch_size: int = 8, workers: int | None = None,
        progress: bool = True, case_source: str | None = "auto", wordlist=None) -> UBEResult:
    """Run the UBE algorithm (Section 3, Table 2 defaults) on embedding ``kv`` with the given name tokens.

    ``name_exclusions``: tokens never drawn as non-names for the SVM (e.g. the whole name list).
    ``word_exclusions``: tokens kept out of the word categories; by default the *cleaned* names (so targets
    and attributes are disjoint; names the SVM removed, like "may", stay available as words).
    Seeds for the SVM sample, the two K-means runs and the rotations are derived from ``seed``.
    ``batch_size`` and ``workers`` go to :func:`rotational_null` (the result does not depend on them).
    ``M=None`` takes every candidate word of the vocabulary. ``case_source`` picks Step 2's case rule
    (:func:`case_rule`): by default Appendix C.4 on a cased embedding and, on an uncased one, the word-list
    stand-in (a deviation from the paper; ``wordlist`` replaces the shipped list); None applies no case rule.
    Parameters are checked up front
    (:func:`check_run_parameters`), and so is the cost of the null (:func:`check_null_cost`): a request that
    would take hours or more memory than :data:`MAX_NULL_BYTES` is refused before any work.

    Examples
    --------
    A toy embedding of random vectors (no bias to find): 20 of its tokens are the names.

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> kv = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> res = run(kv, tokens[:20], n=2, m=3, M=60, t=2, R=50, svm_top_words=120, progress=False, case_source=None)
    >>> len(res.names), res.sigma.shape, res.null.shape, res.n_significant()
    (16, (2, 3), (50, 2, 3), 0)
    """
    from wordbias.core.validation import check_words
    from wordbias.embeddings import is_cased

    p = check_run_parameters(n=n, m=m, M=M, t=t, alpha=alpha, R=R, seed=seed, clean_fraction=clean_fraction,
                             svm_top_words=svm_top_words, batch_size=batch_size, workers=workers, cased=cased,
                             progress=progress, case_source=case_source)
    n, m, M, t, alpha, R, seed = (p[k] for k in ("n", "m", "M", "t", "alpha", "R", "seed"))
    name_tokens = list(check_words("name_tokens", name_tokens, allow_duplicates=True))
    name_exclusions = _check_words_or_none("name_exclusions", name_exclusions)
    word_exclusions = _check_words_or_none("word_exclusions", word_exclusions)
    vocabulary = len(kv.index_to_key)
    check_null_cost(R, n, m, vocabulary if M is None else min(M, vocabulary), kv.vector_size,
                    p["workers"] or default_workers())
    if cased is None:
        cased = is_cased(kv)
    rule = case_rule(case_source, bool(cased))      # refused up front, before the names are cleaned
    s_clean, s_names, s_words, s_null = (int(x) for x in np.random.SeedSequence(seed).generate_state(4))
    cleaning, name_group, Xbar = _name_groups(kv, name_tokens, n, clean_fraction=clean_fraction,
                                              svm_top_words=svm_top_words, name_exclusions=name_exclusions,
                                              s_clean=s_clean, s_names=s_names)
    names = cleaning.kept_tokens
    exclude = names if word_exclusions is None else word_exclusions
    words, W, category, Abar = _word_categories(kv, M, m, exclude=exclude, cased=cased, s_words=s_words,
                                                case_source=rule, wordlist=wordlist)
    _check_t_fits(t, category, m)

    selected, sigma = select_words(W, category, Xbar, Abar, t)
    if not np.isfinite(sigma).any():
        warnings.warn(f"no (group, category) cell has t = {t} words in its Voronoi set: UBE has no test to "
                      f"make (every p is 1); lower t or m", LowPowerWarning, stacklevel=2)
    null = rotational_null(W, category, Xbar, Abar, t, R, seed=s_null, batch_size=batch_size, workers=workers,
                           progress=progress)
    p = p_values(sigma, null)
    significant, critical = bh_rejections(p, alpha)
    significant &= np.isfinite(sigma)
    Asel = {(i, j): W[selected[i][j]].mean(axis=0) for i in range(n) for j in range(m) if len(selected[i][j])}
    central = central_words(W, category, Abar)
    params = dict(n=n, m=m, M=M, t=t, alpha=alpha, R=R, seed=seed, clean_fraction=clean_fraction,
                  svm_top_words=svm_top_words, cased=cased, case_source=rule)
    return UBEResult(params=params, cleaning=cleaning, names=names, name_group=name_group, words=words,
                     word_category=category, word_group=voronoi(W, Xbar), Xbar=Xbar, Abar=Abar,
                     selected=selected, sigma=sigma, null=null, p=p, significant=significant,
                     critical_p=critical, Asel=Asel, central=central)
