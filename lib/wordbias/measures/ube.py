"""Unsupervised Bias Enumeration (UBE) of Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019),
"What are the biases in my word embedding?" (AIES 2019).

Notation follows the paper. All vectors are normalised to unit length first (Section 3); for a token
set S, S̄ is the mean of its unit vectors.

- Generalised WEAT (Section 2.1):  g(X_1, A_1, ..., X_n, A_n) = Σ_i (X̄_i − μ)·(Ā_i − 𝒜̄),
  μ = 𝒳̄ for n = 1 and μ = Σ_i X̄_i / n for n ≥ 2                                 (:func:`g`)
- Step 1 (Section 3.1, Appendix C.3): clean the names with a linear SVM against random frequent non-names,
  drop the 20% with the smallest margin (:func:`clean_names`), K-means++ into n groups (:func:`cluster`).
- Step 2 (Section 3.2, Appendix C.4): the M most frequent lower-case tokens (:func:`candidate_words`),
  K-means++ into m categories 𝒜_j.
- Step 3 (Section 3.3): Voronoi sets V_ij = {w ∈ 𝒜_j : i = argmax_i' w̄·X̄_i'} and the t words of V_ij
  maximising (X̄_i − μ)·(w̄ − 𝒜̄_j); the score σ_ij = (X̄_i − μ)·(Ā_ij − 𝒜̄_j)        (:func:`select_words`)
- Step 4 (Section 3.4): the rotational null (R Haar rotations applied to the names only, Step 3 re-run for
  each), add-one p-values, Benjamini–Hochberg at α over all n·m p-values, tests ordered by the total σ of
  their significant cells                                                       (:func:`rotational_null`)
- Section 4: greedy illustrative names (:func:`illustrative_names`), potential indirect biases, eq. (1)
  (:func:`indirect_bias`).

The fast null. Only the n group means X̄_i enter Step 3, and they span a space of dimension r ≤ n. Write
X̄ = C B with B an r×d orthonormal basis of that span. For a Haar rotation U, B U is a Haar-random r-frame
of R^d, so the rotated means are X̄ U = C F with F = (QR of a d×r Gaussian)ᵀ: O(d r²) per rotation instead
of a d×d Haar matrix. Per rotation the words are then scored by one matrix product W (C F)ᵀ (M×n), and a
compiled kernel takes, for each word, its Voronoi group and score and keeps a running top-t per
(group, category). ``benchmarks/bench_ube.py`` compares the whole null with the matrix products alone.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from wordbias.core.permutation import default_workers
from wordbias.measures.weat import DegenerateSetError, unit_rows

#: Table 2 of the paper: the algorithm's inputs and their defaults
DEFAULTS = dict(n=12, m=64, M=30_000, t=3, alpha=0.05, R=10_000)


# --------------------------------------------------------------------------------------------------
# Section 2.1: the generalised WEAT
# --------------------------------------------------------------------------------------------------

def mean_unit(vectors, name: str = "set") -> np.ndarray:
    """S̄ = Σ_{v∈S} v̄ / |S|, the mean of the unit vectors of a token set (Section 2)."""
    u = unit_rows(vectors, name)
    if len(u) == 0:
        raise DegenerateSetError(f"{name} is empty")
    return u.mean(axis=0)


def g(X_groups: Sequence, A_groups: Sequence, *, names=None, words=None) -> float:
    """The generalised WEAT g(X_1, A_1, ..., X_n, A_n) of Section 2.1.

    ``X_groups`` and ``A_groups`` are n arrays of vectors (rows). For n = 1, μ = 𝒳̄ is the mean of all
    ``names`` (the universe 𝒳) and 𝒜̄ the mean of all ``words`` (𝒜): both are required. For n ≥ 2,
    μ = Σ_i X̄_i / n; 𝒜̄ cancels (Σ_i (X̄_i − μ) = 0), so ``words`` is optional.
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

@dataclass
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
    partial sums, so the labels could depend on the machine's core count."""
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


def candidate_words(kv, M: int, *, exclude: Sequence[str] = (), cased: bool | None = None) -> list[str]:
    """Appendix C.4: the M most frequent tokens made only of the 26 lower-case letters (and spaces or
    underscores, for embeddings with phrases), omitting a lower-case token whose capitalised or
    upper-case form is more frequent ("john" is dropped because "John" comes first). The embedding's
    vocabulary must be in frequency order (true of every embedding this project loads).

    For an uncased embedding (every token lower case, e.g. GloVe 6B) the capitalisation rule cannot be
    applied; ``exclude`` then keeps the name tokens out of the categories (see the notebook).
    """
    vocab = kv.index_to_key
    if cased is None:
        from wordbias.embeddings import is_cased
        cased = is_cased(kv)
    rank = kv.key_to_index
    excluded = set(exclude)
    out: list[str] = []
    for i, w in enumerate(vocab):
        if not _LOWER.match(w) or w in excluded:
            continue
        if cased:
            title = "_".join(p[:1].upper() + p[1:] for p in w.split("_")) if "_" in w else w.capitalize()
            if rank.get(title, 1 << 62) < i or rank.get(w.upper(), 1 << 62) < i:
                continue
        out.append(w)
        if len(out) == M:
            break
    if len(out) < M:
        warnings.warn(f"only {len(out)} candidate words found (asked for M = {M})")
    return out


# --------------------------------------------------------------------------------------------------
# Step 3: Voronoi sets and word selection
# --------------------------------------------------------------------------------------------------

def voronoi(W: np.ndarray, Xbar: np.ndarray) -> np.ndarray:
    """argmax_i w̄·X̄_i for every (unit) word row of W: the group whose Voronoi set holds the word."""
    return np.argmax(W @ Xbar.T, axis=1)


def select_words(W: np.ndarray, category: np.ndarray, Xbar: np.ndarray, Abar: np.ndarray, t: int):
    """Step 3 for all groups and categories at once.

    Returns ``(selected, sigma)``: ``selected[i][j]`` the indices (rows of W) of A_ij, best first, and
    ``sigma[i, j]`` = (X̄_i − μ)·(Ā_ij − 𝒜̄_j), the mean criterion over A_ij. A Voronoi set with fewer than
    t words gives no test (σ = −inf, p = 1): a test has exactly t words per group (Section 3.3); its
    words are still listed in ``selected``.
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
    """X̄ = C B with B (r×d) an orthonormal basis of the span of the group means; returns (C, B)."""
    U, S, Vt = np.linalg.svd(np.asarray(Xbar, dtype=np.float64), full_matrices=False)
    r = int(np.sum(S > tol * max(S[0], 1e-300)))
    return U[:, :r] * S[:r], Vt[:r]


def haar_frames(rng: np.random.Generator, count: int, d: int, r: int) -> np.ndarray:
    """``count`` Haar-random r-frames of R^d (count×r×d, orthonormal rows): the first r rows of Haar
    rotations, from the QR decomposition of Gaussian matrices with the signs of R's diagonal fixed
    (Mezzadri 2007). Row k of frame c depends only on the first k+1 Gaussian rows."""
    G = rng.standard_normal((count, r, d))
    Q, R = np.linalg.qr(np.swapaxes(G, 1, 2))            # (count, d, r), (count, r, r)
    signs = np.sign(np.diagonal(R, axis1=1, axis2=2))
    signs[signs == 0] = 1.0
    return np.swapaxes(Q * signs[:, None, :], 1, 2)


def haar_rotation(rng: np.random.Generator, d: int) -> np.ndarray:
    """One d×d Haar-random orthogonal matrix, drawn exactly like :func:`haar_frames` with r = d."""
    return haar_frames(rng, 1, d, d)[0]


def _kernel():
    """Compile (once; cached on disk by numba) the per-rotation selection kernel.

    For each rotation k of the batch (rows k·n .. k·n+n−1 of P hold w̄·Z_ki for every word w), one pass
    over the n rows finds each word's Voronoi group (first maximum, as ``numpy.argmax``) and the sum of
    its n dots; a second pass scores each word, s = w̄·Z_ki* − mean_i w̄·Z_ki, and keeps a sorted top-t
    per (group, category). σ_ijr = mean of the top t − (Z_ki − μ_k)·𝒜̄_j, or −inf for fewer than t words.
    """
    global _KERNEL
    if _KERNEL is None:
        from numba import njit

        @njit(nogil=True, cache=True)
        def kernel(P, n, category, m, t, const, out):  # pragma: no cover - compiled
            b = out.shape[0]
            M = P.shape[1]
            best = np.empty(M, dtype=P.dtype)
            tot = np.empty(M, dtype=P.dtype)
            arg = np.zeros(M, dtype=np.int32)
            top = np.empty((n * m, t), dtype=np.float64)
            inv_n = P.dtype.type(1.0 / n)
            for k in range(b):
                top[:] = -np.inf
                r0 = P[k * n]
                for w in range(M):
                    best[w] = r0[w]
                    tot[w] = r0[w]
                    arg[w] = 0
                for i in range(1, n):
                    row = P[k * n + i]
                    ii = np.int32(i)
                    for w in range(M):  # branch-free so that it vectorises
                        v = row[w]
                        tot[w] += v
                        gt = v > best[w]
                        best[w] = v if gt else best[w]
                        arg[w] = ii if gt else arg[w]
                for w in range(M):      # vectorised: score and bucket of every word
                    best[w] -= tot[w] * inv_n
                    arg[w] = arg[w] * m + category[w]
                for w in range(M):      # scalar: running top-t per bucket (rarely taken branch)
                    s = best[w]
                    bk = arg[w]
                    if s > top[bk, t - 1]:
                        pos = t - 1
                        while pos > 0 and top[bk, pos - 1] < s:
                            top[bk, pos] = top[bk, pos - 1]
                            pos -= 1
                        top[bk, pos] = s
                for i in range(n):
                    for j in range(m):
                        bk = i * m + j
                        if top[bk, t - 1] == -np.inf:   # fewer than t words in V_ij: no test
                            out[k, i, j] = -np.inf
                        else:
                            acc = 0.0
                            for q in range(t):
                                acc += top[bk, q]
                            out[k, i, j] = acc / t - const[k, i, j]

        _KERNEL = kernel
    return _KERNEL


_KERNEL = None


def null_sigma_batch(W: np.ndarray, category: np.ndarray, Z: np.ndarray, Abar: np.ndarray, t: int) -> np.ndarray:
    """σ_ijr of Step 3 for a batch of b rotated group-mean matrices Z (b×n×d): b×n×m (float64).

    The matrix product W Zᵀ is taken in W's dtype (float32 for speed), one rotation at a time (a stacked
    ``matmul`` makes one n×d by d×M product per rotation): the shape of every product is the same whatever
    the batch size, so BLAS takes the same code path and σ does not depend on ``b`` (a (b·n)×d product may
    round differently for different b). ``category`` must be int32.
    """
    b, n, d = Z.shape
    m = len(Abar)
    Z = Z.astype(W.dtype, copy=False)
    const = np.einsum("bnd,md->bnm", Z - Z.mean(axis=1, keepdims=True), Abar)
    P = np.matmul(Z, W.T).reshape(b * n, W.shape[0])
    out = np.empty((b, n, m))
    _kernel()(P, n, np.ascontiguousarray(category, dtype=np.int32), m, t, const, out)
    return out


#: rotations are drawn in blocks of this many, block k from ``default_rng([seed, k])``
ROTATION_BLOCK = 64


def rotation_frames(seed: int, block: int, d: int, r: int, count: int = ROTATION_BLOCK) -> np.ndarray:
    """The Haar r-frames of rotations ``block·ROTATION_BLOCK ...`` (the first ``count`` of the block).

    Each block has its own generator, ``numpy.random.default_rng([seed, block])``, so blocks can be drawn
    in any order and on any thread and the null is the same whatever the batch size and worker count."""
    return haar_frames(np.random.default_rng([int(seed), int(block)]), count, d, r)


def rotational_null(W: np.ndarray, category: np.ndarray, Xbar: np.ndarray, Abar: np.ndarray, t: int,
                    R: int, *, seed: int = 0, batch: int = 8, workers: int | None = None, progress: bool = True,
                    dtype=np.float32) -> np.ndarray:
    """Step 4: σ_ijr for R Haar-random rotations applied to the names only (R×n×m, float32).

    Each rotation maps the group means X̄ to X̄ U = C (B U); B U is drawn directly as a Haar r-frame
    (:func:`rotation_frames`), so no d×d matrix is formed. Blocks of :data:`ROTATION_BLOCK` rotations run
    on ``workers`` threads, each with single-threaded BLAS (a multi-threaded BLAS interleaved with the
    kernel spends its time handing cores back and forth), in sub-batches of ``batch`` rotations per
    matrix product. The same seed gives the same null whatever ``batch`` and ``workers`` are.
    """
    from concurrent.futures import ThreadPoolExecutor

    from threadpoolctl import threadpool_limits

    if R < 1:
        raise ValueError(f"R must be ≥ 1, got {R}")
    C, _ = span_factors(Xbar)
    n, r = C.shape
    d = W.shape[1]
    Wd = np.ascontiguousarray(W, dtype=dtype)
    Ad = np.ascontiguousarray(Abar, dtype=dtype)
    cat = np.ascontiguousarray(category, dtype=np.int32)
    workers = workers or default_workers()
    _kernel()
    out = np.empty((R, n, len(Abar)), dtype=np.float32)

    def task(block: int) -> int:
        s0 = block * ROTATION_BLOCK
        F = rotation_frames(seed, block, d, r, min(ROTATION_BLOCK, R - s0))
        Z = np.einsum("nr,brd->bnd", C, F)                # rotated group means X̄ U
        for b0 in range(0, len(F), batch):
            out[s0 + b0:s0 + b0 + len(Z[b0:b0 + batch])] = null_sigma_batch(Wd, cat, Z[b0:b0 + batch], Ad, t)
        return len(F)

    blocks = range((R + ROTATION_BLOCK - 1) // ROTATION_BLOCK)
    with threadpool_limits(1, user_api="blas"), ThreadPoolExecutor(workers) as pool:
        done = pool.map(task, blocks)
        if progress:
            from tqdm.auto import tqdm
            with tqdm(total=R, desc="rotational null", unit="rotation", leave=False) as bar:
                for k in done:
                    bar.update(k)
        else:
            for _ in done:
                pass
    return out


def p_values(sigma: np.ndarray, null: np.ndarray) -> np.ndarray:
    """p_ij = (1 + #{r : σ_ijr ≥ σ_ij}) / (R + 1), the add-one Monte Carlo p-value (Section 3.4).
    A cell without a test (fewer than t words in its Voronoi set, σ = −inf) gets p = 1."""
    sigma32 = sigma.astype(np.float32)  # compare at the null's precision
    exceed = (null >= sigma32[None]).sum(axis=0)
    p = (1.0 + exceed) / (null.shape[0] + 1.0)
    p[~np.isfinite(sigma)] = 1.0
    return p


def benjamini_hochberg(p: np.ndarray, alpha: float) -> tuple[np.ndarray, float]:
    """Benjamini & Hochberg (1995) over all the p-values (any shape): returns (significant, critical p),
    the critical p being the largest p_(k) ≤ kα/N (0 when nothing is significant). Uses
    ``scipy.stats.false_discovery_control`` for the adjusted p-values."""
    from scipy.stats import false_discovery_control

    flat = np.asarray(p, dtype=np.float64).ravel()
    adjusted = false_discovery_control(flat, method="bh")
    significant = adjusted <= alpha
    critical = float(flat[significant].max()) if significant.any() else 0.0
    return significant.reshape(np.shape(p)), critical


# --------------------------------------------------------------------------------------------------
# Section 4: illustrative names and potential indirect biases
# --------------------------------------------------------------------------------------------------

def illustrative_names(unit_vectors: np.ndarray, k: int = 5) -> np.ndarray:
    """Section 4's greedy heuristic: the (j+1)-th name minimises the distance between the mean of the
    first j+1 unit vectors and the group mean X̄_i. The first is the name closest to the mean. Returns
    row indices."""
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


# --------------------------------------------------------------------------------------------------
# the whole algorithm
# --------------------------------------------------------------------------------------------------

@dataclass
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
        return UBEResult(
            params=self.params, cleaning=self.cleaning, names=self.names, name_group=inv[self.name_group],
            words=self.words, word_category=self.word_category, word_group=inv[self.word_group], Xbar=self.Xbar[order], Abar=self.Abar,
            selected=[self.selected[o] for o in order], sigma=self.sigma[order], null=self.null[:, order],
            p=self.p[order], significant=self.significant[order], critical_p=self.critical_p,
            Asel={(int(inv[i]), j): v for (i, j), v in self.Asel.items()},
        )

    def tests(self):
        """All n·m (group, category) cells as a tidy DataFrame: words, σ, p, significance."""
        import pandas as pd

        rank = {j: r for r, j in enumerate(self.category_order())}
        rows = []
        for j in range(self.m):
            for i in range(self.n):
                rows.append(dict(category=j, category_rank=rank[j] + 1, group=i,
                                 words=", ".join(self.selected_words(i, j)),
                                 n_voronoi=int(np.sum((self.word_group == i) & (self.word_category == j))),
                                 sigma=self.sigma[i, j], p=self.p[i, j],
                                 significant=bool(self.significant[i, j])))
        return pd.DataFrame(rows).sort_values(["category_rank", "group"], kind="stable").reset_index(drop=True)

    def grid(self, top: int = 12, labels: Sequence[str] | None = None, censor=None):
        """The paper's Table 5 layout: rows are the ``top`` categories in output order, columns the groups,
        a cell holds A_ij when significant and is empty otherwise. ``censor`` maps a cell's text to its
        displayed form (e.g. :func:`wordbias.censor.censor`)."""
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
        return pd.DataFrame(body, columns=labels, index=pd.Index([f"A{j}" for j in cats], name="category"))

    def indirect_bias(self) -> tuple[int, int]:
        """(potential indirect biases, significant fourtuples): eq. (1) over all significant fourtuples."""
        return indirect_bias(self.Asel, self.significant)


def run(kv, name_tokens: Sequence[str], *, n: int = 12, m: int = 64, M: int = 30_000, t: int = 3,
        alpha: float = 0.05, R: int = 10_000, seed: int = 0, clean_fraction: float = 0.2,
        svm_top_words: int = 50_000, name_exclusions: Sequence[str] = (), word_exclusions=None,
        cased: bool | None = None, batch: int = 8, workers: int | None = None,
        progress: bool = True) -> UBEResult:
    """Run the UBE algorithm (Section 3, Table 2 defaults) on embedding ``kv`` with the given name tokens.

    ``name_exclusions``: tokens never drawn as non-names for the SVM (e.g. the whole name list).
    ``word_exclusions``: tokens kept out of the word categories; by default the *cleaned* names (so targets
    and attributes are disjoint; names the SVM removed, like "may", stay available as words).
    Seeds for the SVM sample, the two K-means runs and the rotations are derived from ``seed``.
    """
    from wordbias.embeddings import is_cased

    if cased is None:
        cased = is_cased(kv)
    s_clean, s_names, s_words, s_null = (int(x) for x in np.random.SeedSequence(seed).generate_state(4))
    present = [w for w in dict.fromkeys(name_tokens) if w in kv.key_to_index]
    if len(present) < n:
        raise DegenerateSetError(f"only {len(present)} of the names are in the embedding; need at least n = {n}")
    cleaning = clean_names(kv, present, fraction=clean_fraction, top_words=svm_top_words, seed=s_clean,
                           exclude=name_exclusions)
    names = cleaning.kept_tokens
    X = unit_rows(kv[names], "names")
    name_group = cluster(X, n, seed=s_names)
    Xbar = np.stack([X[name_group == i].mean(axis=0) for i in range(n)])

    excl = names if word_exclusions is None else word_exclusions
    words = candidate_words(kv, M, exclude=excl, cased=cased)
    W = unit_rows(kv[words], "words")
    category = cluster(W, m, seed=s_words)
    Abar = np.stack([W[category == j].mean(axis=0) for j in range(m)])

    selected, sigma = select_words(W, category, Xbar, Abar, t)
    null = rotational_null(W, category, Xbar, Abar, t, R, seed=s_null, batch=batch, workers=workers,
                           progress=progress)
    p = p_values(sigma, null)
    significant, critical = benjamini_hochberg(p, alpha)
    significant &= np.isfinite(sigma)
    Asel = {(i, j): W[selected[i][j]].mean(axis=0) for i in range(n) for j in range(m) if len(selected[i][j])}
    params = dict(n=n, m=m, M=M, t=t, alpha=alpha, R=R, seed=seed, clean_fraction=clean_fraction,
                  svm_top_words=svm_top_words, cased=cased)
    return UBEResult(params=params, cleaning=cleaning, names=names, name_group=name_group, words=words,
                    word_category=category, word_group=voronoi(W, Xbar), Xbar=Xbar, Abar=Abar, selected=selected, sigma=sigma, null=null,
                    p=p, significant=significant, critical_p=critical, Asel=Asel)
