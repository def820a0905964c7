"""Compiled kernels (numba) of UBE's rotational null (Swinger et al. 2019, Sections 3.3-3.4): Step 3 re-run for
a batch of rotations, called by :func:`wordbias.measures.ube_null.null_sigma_batch`.

Each kernel compiles on its first call and is cached on disk (``cache=True``, next to this file's bytecode), so
later sessions load it in a fraction of a second. The kernels trust their inputs: the public functions that call
them check shapes, dtypes and values. Importing this module imports numba (about 0.3 s), so its caller imports it
when it first needs the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["ube_null_sigma"]


@njit(inline="always")
def _voronoi_scores(P, k, n, category, m, best, tot, arg):  # pragma: no cover - compiled
    """For rotation k (rows k·n .. k·n+n−1 of P hold w̄·Z_ki): each word's score in ``best``,
    s = w̄·Z_ki* − mean_i w̄·Z_ki with i* its Voronoi group (first maximum, as ``numpy.argmax``), and its
    bucket i*·m + category in ``arg``."""
    M = P.shape[1]
    inv_n = P.dtype.type(1.0 / n)
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


@njit(inline="always")
def _keep_top_t(score, bucket, top, t):  # pragma: no cover - compiled
    """Scalar pass: a running top-t (descending) per bucket (the insertion branch is rarely taken)."""
    for w in range(score.size):
        s = score[w]
        bk = bucket[w]
        if s > top[bk, t - 1]:
            pos = t - 1
            while pos > 0 and top[bk, pos - 1] < s:
                top[bk, pos] = top[bk, pos - 1]
                pos -= 1
            top[bk, pos] = s


@njit(nogil=True, cache=True)
def ube_null_sigma(P, n, category, m, t, const, out):  # pragma: no cover - compiled
    """σ_kij for a batch of b rotations: out[k, i, j] = mean of the top t scores in V_ij minus
    const[k, i, j] = (Z_ki − μ_k)·𝒜̄_j, or −inf when the Voronoi set V_ij holds fewer than t words
    (no test). P is (b·n)×M, the dots w̄·Z_ki of every word with every rotated group mean."""
    b = out.shape[0]
    M = P.shape[1]
    best = np.empty(M, dtype=P.dtype)
    tot = np.empty(M, dtype=P.dtype)
    arg = np.zeros(M, dtype=np.int32)
    top = np.empty((n * m, t), dtype=np.float64)
    for k in range(b):
        top[:] = -np.inf
        _voronoi_scores(P, k, n, category, m, best, tot, arg)
        _keep_top_t(best, arg, top, t)
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
