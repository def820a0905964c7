"""Steps 3 and 4 of Unsupervised Bias Enumeration (Swinger et al. 2019): the tests and their rotational null.

Step 3 (Section 3.3): :func:`select_words` picks, for each name group i and word category j, the t words A_ij of
the group's Voronoi set (:func:`voronoi`) that best fit the group, and their score σ_ij. Step 4 (Section 3.4):
:func:`rotational_null` re-runs Step 3 for R Haar-random rotations of the names (:func:`rotation_frames`; the
compiled loop is :func:`wordbias.measures.enumeration.ube_kernels.ube_null_sigma`), :func:`p_values` compares σ with it, and
:func:`bh_rejections` applies Benjamini & Hochberg's false discovery rate α. :func:`check_null_cost` refuses a null
that would take hours or too much memory, before any work.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordbias.core import paths
from wordbias.core.errors import TooCostlyError
from wordbias.core.keyed_arrays import read_keyed_array, write_keyed_array
from wordbias.core.parallel import default_workers, run_tasks
from wordbias.core.validation import check_int, check_probability

__all__ = ["CACHE_DIR", "MAX_NULL_BYTES", "MAX_NULL_SECONDS", "NULL_MACS_PER_SECOND", "ROTATION_BLOCK", "NullCost",
           "bh_rejections", "check_null_cost", "haar_frames", "haar_rotation", "null_cache_key", "null_cost",
           "null_sigma_batch", "p_values", "rotation_frames", "rotational_null", "select_words", "span_factors",
           "voronoi"]


# --------------------------------------------------------------------------------------------------
# Step 3: Voronoi sets and word selection
# --------------------------------------------------------------------------------------------------

def voronoi(W: np.ndarray, Xbar: np.ndarray) -> np.ndarray:
    """argmax_i w̄·X̄_i for every (unit) word row of W: the group whose Voronoi set holds the word.

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The unit vectors of the words, one row per word.
    Xbar : numpy.ndarray of shape (n, d)
        The group means X̄_i, one row per group.

    Returns
    -------
    numpy.ndarray of int, shape (M,)
        The group (row of ``Xbar``) of each word.

    Examples
    --------
    >>> voronoi(np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0]]), np.array([[1.0, 0.0], [0.0, 1.0]]))
    array([0, 0, 1])
    """
    return np.argmax(W @ Xbar.T, axis=1)


def select_words(W: np.ndarray, category: np.ndarray, Xbar: np.ndarray, Abar: np.ndarray, t: int):
    """Step 3 (Section 3.3) for all groups and categories at once.

    The Voronoi set V_ij = {w ∈ 𝒜_j : i = argmax_i' w̄·X̄_i'} gives A_ij, its t words maximising
    (X̄_i − μ)·(w̄ − 𝒜̄_j), with μ = Σ_i X̄_i / n. A Voronoi set with fewer than t words gives no test
    (σ = −inf, p = 1): a test has exactly t words per group; its words are still listed in ``selected``.

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The unit vectors of the candidate words, one row per word.
    category : numpy.ndarray of int, shape (M,)
        The category j (0..m-1) of each word.
    Xbar : numpy.ndarray of shape (n, d)
        The group means X̄_i.
    Abar : numpy.ndarray of shape (m, d)
        The category means 𝒜̄_j.
    t : int
        The words per test.

    Returns
    -------
    selected : list of list of numpy.ndarray
        ``selected[i][j]``: the indices (rows of W) of A_ij, best first.
    sigma : numpy.ndarray of shape (n, m)
        ``sigma[i, j]`` = (X̄_i − μ)·(Ā_ij − 𝒜̄_j), the mean criterion over A_ij; −inf for a cell without a
        test.

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
    """X̄ = C B with B (r×d) an orthonormal basis of the span of the group means.

    Parameters
    ----------
    Xbar : array-like of shape (n, d)
        The group means.
    tol : float, default 1e-10
        Singular values below ``tol`` times the largest are taken as zero (they set the rank r).

    Returns
    -------
    C : numpy.ndarray of shape (n, r)
        The coordinates of the group means in the basis.
    B : numpy.ndarray of shape (r, d)
        The orthonormal basis (rows).

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
    """``count`` Haar-random r-frames of R^d (count×r×d, orthonormal rows).

    A frame is the first r rows of a Haar rotation, from the QR decomposition of Gaussian matrices with the
    signs of R's diagonal fixed (Mezzadri 2007). Row k of frame c depends only on the first k+1 Gaussian rows.

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator of the Gaussian matrices.
    count : int
        The number of frames.
    d : int
        The dimension of the space.
    r : int
        The rows of each frame (r ≤ d).

    Returns
    -------
    numpy.ndarray of shape (count, r, d)
        The frames, each with orthonormal rows.

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

    Parameters
    ----------
    rng : numpy.random.Generator
        The generator.
    d : int
        The dimension.

    Returns
    -------
    numpy.ndarray of shape (d, d)
        The orthogonal matrix.

    Examples
    --------
    >>> U = haar_rotation(np.random.default_rng(0), 3)
    >>> bool(np.allclose(U @ U.T, np.eye(3)))
    True
    """
    return haar_frames(rng, 1, d, d)[0]


def null_sigma_batch(W: np.ndarray, category: np.ndarray, Z: np.ndarray, Abar: np.ndarray, t: int, *,
                     chunk: int | None = None) -> np.ndarray:
    """σ_ijr of Step 3 for a batch of b rotated group-mean matrices Z (b×n×d): b×n×m (float64).

    By default (``chunk=None``) the matrix product W Zᵀ is taken in W's dtype (float32 for speed), one rotation
    at a time (a stacked ``matmul`` makes one n×d by d×M product per rotation): the shape of every product is the
    same whatever the batch size, so BLAS takes the same code path and σ does not depend on ``b``. With
    ``chunk`` = L, it is taken as one (b·n)×d by d×L product per run of about L words instead (:func:`word_runs`),
    each consumed by the kernel while it is still in cache; the BLAS packs W once per batch instead of once per
    rotation, which is much faster, but whether its dots round exactly like the per-rotation products depends on
    the BLAS's kernels (:func:`rotational_null` checks that they do before using it, :func:`exact_chunk`: runs of
    :data:`WORD_CHUNK` words, else one product over all the words, else the per-rotation products). The compiled kernels
    (:mod:`wordbias.measures.enumeration.ube_kernels`) then take, for each word, its Voronoi group and score and keep a
    running top-t per (group, category).

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The unit vectors of the candidate words (float32 for speed).
    category : numpy.ndarray of int32, shape (M,)
        The category of each word.
    Z : numpy.ndarray of shape (b, n, d)
        The rotated group means, one n×d matrix per rotation.
    Abar : numpy.ndarray of shape (m, d)
        The category means.
    t : int
        The words per test.
    chunk : int, optional
        Words per (b·n)×d product (:func:`word_runs`); by default one n×d product per rotation over all the words.

    Returns
    -------
    numpy.ndarray of shape (b, n, m)
        σ of every (rotation, group, category), float64.

    Examples
    --------
    One rotation (b = 1) of n = 2 group means, one category (m = 1), t = 2 words per test:

    >>> W = np.array([[1.0, 0.0], [0.5, 0.25], [0.0, 1.0], [-0.5, 0.5]], dtype=np.float32)
    >>> Z = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    >>> null_sigma_batch(W, np.zeros(4, dtype=np.int32), Z, np.zeros((1, 2)), 2)
    array([[[0.3125],
            [0.5   ]]])
    """
    from wordbias.measures.enumeration import ube_kernels  # imports numba (0.3 s): only when the null is computed

    b, n, d = Z.shape
    m = len(Abar)
    M = W.shape[0]
    Z = Z.astype(W.dtype, copy=False)
    const = np.einsum("bnd,md->bnm", Z - Z.mean(axis=1, keepdims=True), Abar)
    cat = np.ascontiguousarray(category, dtype=np.int32)
    top = np.full((b, n * m, t), -np.inf, dtype=W.dtype)
    if chunk is None:
        P = np.matmul(Z, W.T).reshape(b * n, M)
        ube_kernels.ube_null_select(P, n, cat, m, top)
    else:
        Zf = np.ascontiguousarray(Z.reshape(b * n, d))
        for c0, c1 in word_runs(M, chunk):
            ube_kernels.ube_null_select(Zf @ W[c0:c1].T, n, cat[c0:c1], m, top)
    out = np.empty((b, n, m))
    ube_kernels.ube_null_finish(top, n, m, const, out)
    return out


def word_runs(M: int, chunk: int) -> list[tuple[int, int]]:
    """The runs of words the chunked products of :func:`null_sigma_batch` take: ``chunk`` words each from word 0,
    the last run joined to the one before it when it is shorter than ``chunk // 2``.

    A BLAS tiles a product over M words into blocks of words (OpenBLAS: ``GEMM_P`` of them, 320 for its AVX2
    kernels' float32 products), all of one size except the last two, which split what is left in halves when
    fewer than two blocks' worth remain. How a dot product is summed can depend on where it falls in its block, so
    runs of a multiple of the block size give the same dots as the product over all the words only if the last
    run is as long as a block; joining a run shorter than ``chunk // 2`` to the one before keeps it so for any
    block of at most ``chunk // 2`` words. :func:`chunked_product_is_exact` checks that the runs do.

    Parameters
    ----------
    M : int
        The number of words.
    chunk : int
        Words per run.

    Returns
    -------
    list of (int, int)
        The (start, stop) of each run, covering 0..M in order.

    Examples
    --------
    >>> word_runs(5000, 1920)            # the last run, 1,160 words, is at least 960
    [(0, 1920), (1920, 3840), (3840, 5000)]
    >>> word_runs(4000, 1920)            # 160 words left: joined to the run before
    [(0, 1920), (1920, 4000)]
    """
    starts = list(range(0, M, chunk))
    if len(starts) > 1 and M - starts[-1] < chunk // 2:
        starts.pop()
    return list(zip(starts, starts[1:] + [M]))


def chunked_product_is_exact(W: np.ndarray, Z: np.ndarray, chunk: int) -> bool:
    """Whether this BLAS computes W Zᵀ by (b·n)×d products over the runs of :func:`word_runs` exactly as it does
    by one n×d product per rotation (the default of :func:`null_sigma_batch`), for these shapes.

    The order in which a BLAS sums a dot product depends on its kernels and on where the dot falls in the blocks
    it tiles a product into, not on the values. OpenBLAS 0.3's AVX-512 kernels sum every dot the same way; its
    AVX2 kernels sum the rows of an n×d product with n not a multiple of 4 otherwise, and sum the dots near the
    edges of its blocks of 320 words otherwise, so runs of words round like the product over all the words only
    when they are made of whole blocks (:func:`word_runs`). Comparing the two products on one batch of real data
    (b·n·M dots, every position of the shape) tells which holds here.

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The words, in the precision of the products.
    Z : numpy.ndarray of shape (b, n, d)
        A batch of rotated group means, in W's dtype.
    chunk : int
        Words per run (:func:`word_runs`).

    Returns
    -------
    bool
        True when every dot is the same bit for bit.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> W = rng.normal(size=(100, 8)).astype(np.float32)
    >>> chunked_product_is_exact(W, W[:8].reshape(2, 4, 8), chunk=64)
    True
    """
    b, n, d = Z.shape
    ref = np.matmul(Z, W.T)
    Zf = np.ascontiguousarray(Z.reshape(b * n, d))
    for c0, c1 in word_runs(W.shape[0], chunk):
        part = (Zf @ W[c0:c1].T).reshape(b, n, -1)
        if not np.array_equal(part.view(np.uint8), ref[:, :, c0:c1].view(np.uint8)):
            return False
    return True


#: words per run of the null's products when the chunked product is exact (:func:`chunked_product_is_exact`):
#: a (8·12)×d by d×1,920 float32 product is 0.70 MiB, within a core's second-level cache, so the compiled
#: selection reads it back from there instead of from memory. 1,920 is a multiple of OpenBLAS's AVX2 blocks of
#: 320 words (so runs of it round like the whole product there), and its rows (7,680 bytes apart) do not all
#: fall on the same cache sets, as rows a power of two apart (2,048 words: 8 KiB) do, which made the selection
#: as slow as reading the whole product from memory
WORD_CHUNK = 1920


def exact_chunk(W: np.ndarray, Z: np.ndarray) -> int | None:
    """The fastest products :func:`null_sigma_batch` can take that give the same dots as one product per rotation,
    bit for bit, on this BLAS and for these shapes: runs of :data:`WORD_CHUNK` words, else one product over all
    the words (``len(W)``), else ``None`` (one product per rotation), as :func:`chunked_product_is_exact` finds.

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The words, in the precision of the products.
    Z : numpy.ndarray of shape (b, n, d)
        A full batch of rotated group means, in W's dtype.

    Returns
    -------
    int or None
        The ``chunk`` to pass to :func:`null_sigma_batch`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> W = rng.normal(size=(100, 8)).astype(np.float32)
    >>> exact_chunk(W, W[:8].reshape(2, 4, 8))     # 100 words: one run of WORD_CHUNK is all of them
    1920
    """
    return next((c for c in (WORD_CHUNK, len(W)) if chunked_product_is_exact(W, Z, c)), None)


#: rotations are drawn in blocks of this many, block k from ``default_rng([seed, k])``
ROTATION_BLOCK = 64


def rotation_frames(seed: int, block: int, d: int, r: int, count: int = ROTATION_BLOCK) -> np.ndarray:
    """The Haar r-frames of rotations ``block·ROTATION_BLOCK ...`` (the first ``count`` of the block).

    Each block has its own generator, ``numpy.random.default_rng([seed, block])``, so blocks can be drawn
    in any order and on any thread and the null is the same whatever the batch size and worker count.

    Parameters
    ----------
    seed : int
        The seed of the null.
    block : int
        The block number.
    d : int
        The dimension of the space.
    r : int
        The rows of each frame (the rank of the group means).
    count : int, default ROTATION_BLOCK
        How many of the block's frames to draw (fewer for the last block).

    Returns
    -------
    numpy.ndarray of shape (count, r, d)
        The frames.

    Examples
    --------
    >>> rotation_frames(seed=0, block=3, d=5, r=2).shape
    (64, 2, 5)
    """
    return haar_frames(np.random.default_rng([int(seed), int(block)]), count, d, r)


def rotational_null(W: np.ndarray, category: np.ndarray, Xbar: np.ndarray, Abar: np.ndarray, t: int,
                    R: int, *, seed: int = 0, batch_size: int = 8, workers: int | None = None,
                    progress: bool = True, dtype=np.float32, cache_dir: str | Path | None = None) -> np.ndarray:
    """Step 4 (Section 3.4): σ_ijr for R Haar-random rotations U applied to the names only.

    Step 3 is re-run for each rotation (R×n×m, float32).

    Only the n group means X̄_i enter Step 3, and they span a space of dimension r ≤ n. Write X̄ = C B with
    B an r×d orthonormal basis of that span (:func:`span_factors`). B U is a Haar-random r-frame of R^d, so
    the rotated means are X̄ U = C F with F drawn directly (:func:`rotation_frames`): O(d r²) per rotation
    instead of a d×d Haar matrix. Blocks of :data:`ROTATION_BLOCK` rotations run on ``workers`` threads,
    each with single-threaded BLAS (a multi-threaded BLAS interleaved with the kernel spends its time
    handing cores back and forth), in sub-batches of ``batch_size`` rotations per matrix product
    (:func:`null_sigma_batch`). The same seed gives the same null whatever ``batch_size`` and ``workers``
    are. ``benchmarks/bench_ube.py`` compares the whole null with the matrix products alone.

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The unit vectors of the candidate words.
    category : numpy.ndarray of int, shape (M,)
        The category of each word.
    Xbar : numpy.ndarray of shape (n, d)
        The group means.
    Abar : numpy.ndarray of shape (m, d)
        The category means.
    t : int
        The words per test; an integer >= 1.
    R : int
        The number of rotations; an integer >= 1.
    seed : int, default 0
        The seed of the rotations (:func:`rotation_frames`).
    batch_size : int, default 8
        Rotations per matrix product; an integer >= 1 (the result does not depend on it).
    workers : int, optional
        Threads; by default :func:`wordbias.core.parallel.default_workers` (the result does not depend on it).
    progress : bool, default True
        Show a progress bar.
    dtype : numpy dtype, default numpy.float32
        The precision of the matrix products.
    cache_dir : str or path-like, optional
        Where to keep the null on disk (:data:`CACHE_DIR` is wordbias's place for it): a run with the same
        inputs, R, t, seed and precision on the same kernels reads it back instead of computing it
        (:func:`null_cache_key`; ``null-<key>.npz``, R·n·m float32 values: 31 MB at Swinger et al.'s R = 10,000,
        n = 12, m = 64; no pickle, written atomically). A damaged or mismatched file gives a
        :class:`~wordbias.core.errors.CacheRebuiltWarning` and is computed again. By default nothing is cached.

    Returns
    -------
    numpy.ndarray of shape (R, n, m), float32
        σ of every (rotation, group, category).

    Raises
    ------
    InvalidParameterError
        If ``R``, ``t`` or ``batch_size`` is not an integer >= 1.

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
    cache_file = key = None
    if cache_dir is not None:
        key = null_cache_key(Wd, cat, Xbar, Ad, t, R, seed)
        cache_file = Path(cache_dir) / f"null-{key[:24]}.npz"
        cached = _read_null(cache_file, key, (R, n, len(Abar)))
        if cached is not None:
            return cached
    out = np.empty((R, n, len(Abar)), dtype=np.float32)

    def frames(block: int) -> np.ndarray:
        F = rotation_frames(seed, block, d, r, min(ROTATION_BLOCK, R - block * ROTATION_BLOCK))
        return np.einsum("nr,brd->bnd", C, F)             # rotated group means X̄ U

    chunk = None

    def task(block: int) -> int:
        s0 = block * ROTATION_BLOCK
        Z = frames(block)
        for b0 in range(0, len(Z), batch_size):
            Zb = Z[b0:b0 + batch_size]
            k = len(Zb)
            if chunk is not None and k < batch_size:   # zero rotations pad every chunked product to one shape
                Zb = np.concatenate([Zb, np.zeros((batch_size - k, n, d))])
            out[s0 + b0:s0 + b0 + k] = null_sigma_batch(Wd, cat, Zb, Ad, t, chunk=chunk)[:k]
        return len(Z)

    blocks = range((R + ROTATION_BLOCK - 1) // ROTATION_BLOCK)
    with threadpool_limits(1, user_api="blas"):
        Z0 = frames(0)[:batch_size].astype(dtype)
        if len(Z0) == batch_size:   # the fastest products that give the same dots, bit for bit
            chunk = exact_chunk(Wd, Z0)
        run_tasks(task, blocks, workers=workers, total=R, desc="rotational null", unit="rotation", progress=progress)
    if cache_file is not None:
        write_keyed_array(cache_file, key, "null", out, what="the UBE null cache")
    return out


#: wordbias's place for cached rotational nulls (:func:`rotational_null`'s ``cache_dir``)
CACHE_DIR = paths.CACHE / "ube"
#: bumped when what the null computes changes in a way its module sources would not show
_NULL_CACHE_VERSION = 1


def null_cache_key(W: np.ndarray, category: np.ndarray, Xbar: np.ndarray, Abar: np.ndarray, t: int, R: int,
                   seed: int) -> str:
    """sha256 of everything :func:`rotational_null` depends on: the words' vectors (in the products' precision),
    their categories, the group and category means, t, R, the seed, the source of this module and of its compiled
    kernels, numba's version and the compute fingerprint (:func:`wordbias.core.paths.compute_fingerprint`: kernel
    settings, library versions) with the CPU features numpy sees, which decide the float rounding of the products.

    Parameters
    ----------
    W : numpy.ndarray of shape (M, d)
        The words' unit vectors, in the precision of the products.
    category : numpy.ndarray of int32, shape (M,)
        The category of each word.
    Xbar : numpy.ndarray of shape (n, d)
        The group means.
    Abar : numpy.ndarray of shape (m, d)
        The category means, in the precision of the products.
    t : int
        The words per test.
    R : int
        The number of rotations.
    seed : int
        The seed of the rotations.

    Returns
    -------
    str
        The key: 64 hexadecimal digits.

    Examples
    --------
    >>> W = np.eye(3, dtype=np.float32)
    >>> a = null_cache_key(W, np.zeros(3, np.int32), W[:2], W[:1], 1, 10, 0)
    >>> a == null_cache_key(W, np.zeros(3, np.int32), W[:2], W[:1], 1, 10, 1), len(a)
    (False, 64)
    """
    from importlib import metadata

    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:   # pragma: no cover - numpy >= 2 has it; the kernel settings are in the key anyway
        __cpu_features__ = {}
    try:
        numba_version = metadata.version("numba")
    except metadata.PackageNotFoundError:   # pragma: no cover - numba is a dependency
        numba_version = None
    here = Path(__file__).resolve()
    h = hashlib.sha256(json.dumps([_NULL_CACHE_VERSION, int(t), int(R), int(seed), paths.compute_fingerprint(),
                                   numba_version, sorted(k for k, v in __cpu_features__.items() if v)],
                                  sort_keys=True).encode())
    for source in (here, here.with_name("ube_kernels.py")):
        h.update(source.read_bytes())
    for a in (W, category, Xbar, Abar):
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _read_null(path: Path, key: str, shape: tuple[int, int, int]) -> np.ndarray | None:
    """The cached null at ``path`` if it holds ``key`` and a float32 array of ``shape``; ``None`` if the file is
    absent, or (with a :class:`~wordbias.core.errors.CacheRebuiltWarning`) damaged or mismatched."""
    return read_keyed_array(path, key, "null", shape, what="UBE null cache")


def p_values(sigma: np.ndarray, null: np.ndarray) -> np.ndarray:
    """p_ij = (1 + #{r : σ_ijr ≥ σ_ij}) / (R + 1), the add-one Monte Carlo p-value (Section 3.4).

    A cell without a test (fewer than t words in its Voronoi set, σ = −inf) gets p = 1. The comparison is
    made at the null's precision (float32).

    Parameters
    ----------
    sigma : numpy.ndarray of shape (n, m)
        The observed σ_ij.
    null : numpy.ndarray of shape (R, n, m)
        The rotational null (:func:`rotational_null`).

    Returns
    -------
    numpy.ndarray of shape (n, m)
        The p-values.

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
    """Benjamini & Hochberg (1995) over all the p-values (any shape).

    The adjusted p-values are :func:`wordbias.stats.multiple.benjamini_hochberg` (equal to the bit to
    ``scipy.stats.false_discovery_control(p, method="bh")``); a p-value is significant when its adjusted
    value is at most α.

    Parameters
    ----------
    p : array-like of float
        The p-values, of any shape.
    alpha : float
        The false discovery rate, in (0, 1).

    Returns
    -------
    significant : numpy.ndarray of bool
        Which p-values are significant, in the shape of ``p``.
    critical : float
        The critical p: the largest p_(k) ≤ kα/N (0 when nothing is significant).

    Raises
    ------
    InvalidParameterError
        If ``alpha`` is not a probability.

    Examples
    --------
    >>> significant, critical = bh_rejections(np.array([0.001, 0.01, 0.03, 0.5]), alpha=0.05)
    >>> significant, critical
    (array([ True,  True,  True, False]), 0.03)
    """
    from wordbias.stats.multiple import benjamini_hochberg as adjusted_bh

    alpha = check_probability("alpha", alpha)
    flat = np.asarray(p, dtype=np.float64).ravel()
    adjusted = adjusted_bh(flat)
    significant = adjusted <= alpha
    critical = float(flat[significant].max()) if significant.any() else 0.0
    return significant.reshape(np.shape(p)), critical


# --------------------------------------------------------------------------------------------------
# what the null costs, checked before any work
# --------------------------------------------------------------------------------------------------

#: the rotational null is refused up front when it would take longer than this (seconds, estimated) ...
MAX_NULL_SECONDS = 6 * 3600
#: ... or hold more than this many bytes (the R×n×m float32 null and the M×d float32 word matrix)
MAX_NULL_BYTES = 8 * 2**30
#: multiply-adds per second one worker is assumed to do in the null (``benchmarks/bench_ube.py`` measured
#: about 4e10 at d = 300; a quarter of that keeps the estimate on the safe side for slower machines)
NULL_MACS_PER_SECOND = 1e10


@dataclass(frozen=True)
class NullCost:
    """The estimated cost of the rotational null (:func:`null_cost`).

    Attributes
    ----------
    seconds, bytes, workers : float, int, int
        The estimated time (on ``workers`` threads), the memory held (in bytes) and the threads the estimate
        assumes.
    """

    seconds: float
    bytes: int
    workers: int


def null_cost(R: int, n: int, m: int, M: int, d: int, workers: int) -> NullCost:
    """Estimated time and memory of :func:`rotational_null`.

    For R rotations of n group means against M words of dimension d in m categories: R·n·M·(d + 8)
    multiply-adds (the products and the kernel's per-word work) at :data:`NULL_MACS_PER_SECOND` per worker; R·n·m float32 values of the null plus the M×d float32 words.

    Parameters
    ----------
    R : int
        The rotations.
    n : int
        The name groups.
    m : int
        The word categories.
    M : int
        The candidate words.
    d : int
        The dimension of the embedding.
    workers : int
        The threads.

    Returns
    -------
    NullCost
        The estimated seconds and bytes.

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
    """Refuse a rotational null estimated (:func:`null_cost`) to be too costly, before any work.

    The limits are :data:`MAX_NULL_SECONDS` and :data:`MAX_NULL_BYTES`; the error gives the estimate and
    what to lower.

    Parameters
    ----------
    R, n, m, M, d, workers : int
        The rotations, name groups, word categories, candidate words, dimension and threads, as in
        :func:`null_cost`.

    Returns
    -------
    NullCost
        The estimate, when it is within the limits.

    Raises
    ------
    TooCostlyError
        If the null would run longer than :data:`MAX_NULL_SECONDS` or hold more than :data:`MAX_NULL_BYTES`.

    Examples
    --------
    >>> check_null_cost(R=10**9, n=12, m=64, M=30_000, d=300, workers=2)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.TooCostlyError: the rotational null with R = 1000000000 rotations, n = 12 groups, m = 64 categories and M = 30000 words of dimension 300 would take about 1540.0 hours on 2 workers and hold 2861.1 GiB; the limits are 6.0 hours and 8 GiB (MAX_NULL_SECONDS, MAX_NULL_BYTES in wordbias.measures.enumeration.ube_null). Lower R (the paper uses 10,000; the smallest p is 1/(R + 1)) or M.
    """
    cost = null_cost(R, n, m, M, d, workers)
    if cost.seconds > MAX_NULL_SECONDS or cost.bytes > MAX_NULL_BYTES:
        raise TooCostlyError(
            f"the rotational null with R = {R} rotations, n = {n} groups, m = {m} categories and M = {M} words "
            f"of dimension {d} would take about {_duration(cost.seconds)} on {workers} worker"
            f"{'s' if workers != 1 else ''} and hold {cost.bytes / 2**30:.1f} GiB; the limits are "
            f"{_duration(MAX_NULL_SECONDS)} and {MAX_NULL_BYTES / 2**30:.0f} GiB (MAX_NULL_SECONDS, MAX_NULL_BYTES in "
            f"wordbias.measures.enumeration.ube_null). Lower R (the paper uses 10,000; the smallest p is 1/(R + 1)) or M.")
    return cost
