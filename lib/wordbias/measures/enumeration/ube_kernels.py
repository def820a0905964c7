"""Compiled kernels (numba) of UBE's rotational null (Swinger et al. 2019, Sections 3.3-3.4): Step 3 re-run for
a batch of rotations, called by :func:`wordbias.measures.enumeration.ube_null.null_sigma_batch`.

:func:`ube_null_select` takes the dots of a batch of rotations with a run of words (one chunk of the matrix
product) and updates each rotation's running top t per (group, category); :func:`ube_null_finish` turns the top t
into σ; :func:`ube_null_sigma` does both for the whole product at once. The words are taken in blocks of
:data:`WORD_BLOCK`, so that each block's Voronoi group and score stay in the first-level cache between the
vectorised pass that finds them and the scalar pass that keeps the top t; the top t is kept by a branch-free
insertion (selects, no data-dependent branch: a word enters a bucket's top t about one time in four, too often
and too unpredictably for a branch), with the three registers of t = 3 written out.

The results are the same bit for bit as those of the earlier kernel (one pass for the Voronoi groups of all the
words, then a branchy insertion): the same float operations in the same order for each word's score, and the
same values kept in each top t (the insertion keeps values only, so ties need no rule), summed in the same
(descending) order in float64. The scores stay in the matrix product's precision (float32 for speed) in the top t;
converting a float32 to float64 is exact, so comparing and summing them is unchanged.

Each kernel compiles on its first call and is cached on disk (``cache=True``, next to this file's bytecode), so
later processes load it in a fraction of a second. The kernels trust their inputs: the public functions that call
them check shapes, dtypes and values. Importing this module imports numba (about 0.3 s), so its caller imports it
when it first needs the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

__all__ = ["SIGNATURES", "WORD_BLOCK", "compile_all", "ube_null_finish", "ube_null_select", "ube_null_sigma"]

#: words per block of :func:`ube_null_select` (three arrays of this many 4-byte values stay in L1)
WORD_BLOCK = 512


@njit(inline="always")
def _take(v, i, bw, tw, aw):  # pragma: no cover - compiled
    """One more group i for a word whose dot with it is v: v joins the sum tw, and replaces the maximum bw (and
    i the group aw) only when greater, so the first maximum wins. Returns the new (bw, tw, aw)."""
    g = v > bw
    return (v if g else bw), tw + v, (i if g else aw)


@njit(inline="always")
def _voronoi_block(P, k, n, w0, L, category, m, best, tot, arg):  # pragma: no cover - compiled
    """For rotation k (rows k·n .. k·n+n−1 of P hold w̄·Z_ki) and words w0 .. w0+L−1: each word's score in
    ``best``, s = w̄·Z_ki* − mean_i w̄·Z_ki with i* its Voronoi group (first maximum, as ``numpy.argmax``), and
    its bucket i*·m + category in ``arg``.

    The groups are taken four at a time, each word's running maximum, sum and group kept in registers across the
    four (at n = 12, three trips through ``best``, ``tot`` and ``arg`` instead of twelve); the operations on each
    word are the same, in the same order (the sum over the groups 0, 1, ..., n−1; a group replaces the maximum
    only when greater). Each loop over the words is branch-free, so that it vectorises."""
    base = k * n
    if n >= 4:                         # groups 0-3 start the maxima and sums
        r0 = P[base, w0:w0 + L]
        r1 = P[base + 1, w0:w0 + L]
        r2 = P[base + 2, w0:w0 + L]
        r3 = P[base + 3, w0:w0 + L]
        for w in range(L):
            bw, tw, aw = _take(r1[w], np.int32(1), r0[w], r0[w], np.int32(0))
            bw, tw, aw = _take(r2[w], np.int32(2), bw, tw, aw)
            best[w], tot[w], arg[w] = _take(r3[w], np.int32(3), bw, tw, aw)
        i = 4
    else:
        r0 = P[base, w0:w0 + L]
        for w in range(L):
            best[w] = r0[w]
            tot[w] = r0[w]
            arg[w] = 0
        i = 1
    while i + 3 < n:                   # the next four
        r0 = P[base + i, w0:w0 + L]
        r1 = P[base + i + 1, w0:w0 + L]
        r2 = P[base + i + 2, w0:w0 + L]
        r3 = P[base + i + 3, w0:w0 + L]
        i0 = np.int32(i)               # the group numbers as int32, as ``arg`` holds them
        i1 = np.int32(i + 1)
        i2 = np.int32(i + 2)
        i3 = np.int32(i + 3)
        for w in range(L):
            bw, tw, aw = _take(r0[w], i0, best[w], tot[w], arg[w])
            bw, tw, aw = _take(r1[w], i1, bw, tw, aw)
            bw, tw, aw = _take(r2[w], i2, bw, tw, aw)
            best[w], tot[w], arg[w] = _take(r3[w], i3, bw, tw, aw)
        i += 4
    while i < n:                       # the last (n − 4) mod 4 groups (n − 1 when n < 4), one at a time
        row = P[base + i, w0:w0 + L]
        ii = np.int32(i)
        for w in range(L):
            best[w], tot[w], arg[w] = _take(row[w], ii, best[w], tot[w], arg[w])
        i += 1
    inv_n = P.dtype.type(1.0 / n)
    cat = category[w0:w0 + L]
    for w in range(L):      # score and bucket of every word
        best[w] -= tot[w] * inv_n
        arg[w] = arg[w] * m + cat[w]


@njit(inline="always")
def _keep_top_3(score, bucket, L, top):  # pragma: no cover - compiled
    """t = 3: insert each score into its bucket's descending top 3, branch-free."""
    for w in range(L):
        x = score[w]
        bk = bucket[w]
        a = top[bk, 0]
        b = top[bk, 1]
        c = top[bk, 2]
        g = x > a
        top[bk, 0] = x if g else a
        y = a if g else x       # the smaller of the two goes on down
        g = y > b
        top[bk, 1] = y if g else b
        z = b if g else y
        top[bk, 2] = z if z > c else c


@njit(inline="always")
def _keep_top_t(score, bucket, L, top, t):  # pragma: no cover - compiled
    """Any t: insert each score into its bucket's descending top t, branch-free (the smaller value bubbles down)."""
    for w in range(L):
        x = score[w]
        bk = bucket[w]
        for q in range(t):
            cur = top[bk, q]
            g = x > cur
            top[bk, q] = x if g else cur
            x = cur if g else x


@njit(nogil=True, cache=True)
def ube_null_select(P, n, category, m, top):  # pragma: no cover - compiled
    """Update the running top t of a batch of b rotations with a run of L words.

    P is (b·n)×L, the dots w̄·Z_ki of the words with every rotated group mean; ``category`` (L) their
    categories; ``top`` (b × n·m × t, P's dtype, −inf where empty) holds, descending, the t best scores of each
    (rotation, group·m + category) bucket seen so far."""
    b = top.shape[0]
    t = top.shape[2]
    M = P.shape[1]
    B = min(WORD_BLOCK, M)
    best = np.empty(B, dtype=P.dtype)
    tot = np.empty(B, dtype=P.dtype)
    arg = np.zeros(B, dtype=np.int32)
    for k in range(b):
        tk = top[k]
        for w0 in range(0, M, B):
            L = min(B, M - w0)
            _voronoi_block(P, k, n, w0, L, category, m, best, tot, arg)
            if t == 3:
                _keep_top_3(best, arg, L, tk)
            else:
                _keep_top_t(best, arg, L, tk, t)


@njit(nogil=True, cache=True)
def ube_null_finish(top, n, m, const, out):  # pragma: no cover - compiled
    """σ_kij = out[k, i, j] = mean of the top t scores in V_ij minus const[k, i, j] = (Z_ki − μ_k)·𝒜̄_j, or −inf
    when the Voronoi set V_ij holds fewer than t words (no test)."""
    b = top.shape[0]
    t = top.shape[2]
    for k in range(b):
        for i in range(n):
            for j in range(m):
                bk = i * m + j
                if top[k, bk, t - 1] == -np.inf:   # fewer than t words in V_ij: no test
                    out[k, i, j] = -np.inf
                else:
                    acc = 0.0
                    for q in range(t):
                        acc += np.float64(top[k, bk, q])
                    out[k, i, j] = acc / t - const[k, i, j]


@njit(nogil=True, cache=True)
def ube_null_sigma(P, n, category, m, t, const, out):  # pragma: no cover - compiled
    """σ_kij for a batch of b rotations from the whole product at once: out[k, i, j] = mean of the top t scores
    in V_ij minus const[k, i, j] = (Z_ki − μ_k)·𝒜̄_j, or −inf when the Voronoi set V_ij holds fewer than t words
    (no test). P is (b·n)×M, the dots w̄·Z_ki of every word with every rotated group mean."""
    top = np.full((out.shape[0], n * m, t), -np.inf, dtype=P.dtype)
    ube_null_select(P, n, category, m, top)
    ube_null_finish(top, n, m, const, out)


#: the argument types :func:`wordbias.measures.enumeration.ube_null.null_sigma_batch` calls the kernels with (float32, the
#: null's default, and float64), compiled ahead by :func:`compile_all`;
#: a test checks that real calls compile nothing else (:func:`ube_null_sigma`, the reference loop the tests
#: compare with, is not among them)
SIGNATURES = {
    "ube_null_select": [(types.float32[:, ::1], types.int64, types.int32[::1], types.int64, types.float32[:, :, ::1]),
                        (types.float64[:, ::1], types.int64, types.int32[::1], types.int64, types.float64[:, :, ::1])],
    "ube_null_finish": [(types.float32[:, :, ::1], types.int64, types.int64, types.float32[:, :, ::1],
                         types.float64[:, :, ::1]),
                        (types.float64[:, :, ::1], types.int64, types.int64, types.float64[:, :, ::1],
                         types.float64[:, :, ::1])],
}


def compile_all() -> int:
    """Compile the UBE kernels for :data:`SIGNATURES` with :func:`wordbias.stats.kernels.compile_all`, loading
    each from the disk cache where it is there.

    Returns
    -------
    int
        How many (kernel, argument types) pairs were compiled or loaded: one per entry of :data:`SIGNATURES`.

    Examples
    --------
    >>> compile_all() == sum(map(len, SIGNATURES.values()))
    True
    """
    from wordbias.stats import kernels

    return kernels.compile_all(SIGNATURES, globals())
