"""Compiled kernels (numba): the loops of the permutation engine (:mod:`wordbias.stats.permutation`) and the
Adam step of the GAP classifier (:mod:`wordbias.models.mlp`).

Each kernel compiles on its first call and is cached on disk (``cache=True``, next to this file's
bytecode), so later processes load it in a fraction of a second. The kernels trust their inputs: the
public functions that call them check shapes, dtypes and values. Importing this module imports numba
(about 0.3 s), so its callers import it when they first need a kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

# --------------------------------------------------------------------------------------------------
# the exact count: sorted, pruned subset sums of one half, and the two-pointer count of pairs
# --------------------------------------------------------------------------------------------------


@njit(inline="always")
def _lowest_useful_sum(tau, best, i, j, k_lo, k_hi, rem):  # pragma: no cover - compiled
    """The smallest partial sum of size j (after i + 1 values, ``rem`` still to come) from which some
    final size J in [k_lo, k_hi] can still reach tau[J]: min_J tau[J] − best[i + 1, J − j] (inf if none)."""
    need = np.inf
    for J in range(max(j, k_lo), min(j + rem, k_hi) + 1):
        t = tau[J] - best[i + 1, J - j]
        if t < need:
            need = t
    return need


@njit(inline="always")
def _merge_with_shift(src, a0, a1, b0, b1, v, dst, p):  # pragma: no cover - compiled
    """Merge the sorted runs src[a0:a1] and src[b0:b1] + v into dst from position p; returns the end."""
    while a0 < a1 and b0 < b1:     # branch-free step
        x = src[a0]
        y = src[b0] + v
        take = x <= y
        dst[p] = x if take else y
        a0 += np.int64(take)
        b0 += np.int64(not take)
        p += 1
    while a0 < a1:
        dst[p] = src[a0]
        a0 += 1
        p += 1
    while b0 < b1:
        dst[p] = src[b0] + v
        b0 += 1
        p += 1
    return p


@njit(nogil=True, cache=True)
def subset_sums_by_size(vals, k_lo, k_hi, tau, best, out, scratch):  # pragma: no cover - compiled
    """Subset sums of ``vals`` of each size j ≤ k_hi, each size sorted ascending, keeping only the partial
    sums s (after i values) from which some final size J in [k_lo, k_hi] can still reach tau[J]:
    s + best[i, J − j] ≥ tau[J], best[i, r] being the largest sum of r of vals[i:].

    Values are added one at a time; the sums of size j after value i are the merge of those of size j
    before it and those of size j − 1 plus the value (Horowitz & Sahni's sorted lists: nothing is ever
    sorted). ``out`` and ``scratch`` take turns as source and destination. Returns (offsets, which, ok):
    size j lies at offsets[j]:offsets[j+1] of ``out`` (which = 0) or ``scratch`` (which = 1); ok is False
    when ``out`` was too short.
    """
    m = vals.size
    cap = out.size
    off_old = np.zeros(k_hi + 2, np.int64)
    off_new = np.zeros(k_hi + 2, np.int64)
    bufs = (out, scratch)
    cur = 0
    out[0] = 0.0
    off_old[1] = 1
    for i in range(m):
        v = vals[i]
        src = bufs[cur]
        dst = bufs[1 - cur]
        top_old = min(i, k_hi)
        top_new = min(i + 1, k_hi)
        rem = m - i - 1                      # values still to come after this one
        p = 0
        off_new[0] = 0
        for j in range(top_new + 1):
            need = _lowest_useful_sum(tau, best, i, j, k_lo, k_hi, rem)
            a0 = off_old[j] if j <= top_old else 0      # size j without v
            a1 = off_old[j + 1] if j <= top_old else 0
            b0 = off_old[j - 1] if j >= 1 else 0        # size j − 1, plus v
            b1 = off_old[j] if j >= 1 else 0
            if need == np.inf:
                a0 = a1
                b0 = b1
            else:
                while a0 < a1 and src[a0] < need:
                    a0 += 1
                while b0 < b1 and src[b0] + v < need:
                    b0 += 1
            if p + (a1 - a0) + (b1 - b0) > cap:
                return off_new, 1 - cur, False
            p = _merge_with_shift(src, a0, a1, b0, b1, v, dst, p)
            off_new[j + 1] = p
        for j in range(top_new + 1, k_hi + 1):
            off_new[j + 1] = p
        for j in range(k_hi + 2):
            off_old[j] = off_new[j]
        cur = 1 - cur
    return off_old, cur, True


@njit(nogil=True, cache=True)
def count_pairs(a, b, thr, strict):  # pragma: no cover - compiled
    """#{(x, y) in a × b : y ≥ thr − x} (or > when ``strict``), a and b sorted ascending: one sweep of a
    pointer down b while x goes up a."""
    nb = b.size
    p = nb
    count = 0
    if strict:
        for i in range(a.size):
            t = thr - a[i]
            while p > 0 and b[p - 1] > t:
                p -= 1
            count += nb - p
    else:
        for i in range(a.size):
            t = thr - a[i]
            while p > 0 and b[p - 1] >= t:
                p -= 1
            count += nb - p
    return count


# --------------------------------------------------------------------------------------------------
# Monte Carlo: xoshiro256** streams; partial Fisher–Yates shuffles, and random bit masks for N ≤ 128
# --------------------------------------------------------------------------------------------------


@intrinsic
def _popcount(typingctx, x):  # pragma: no cover - compiled
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction where the CPU has one)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(inline="always")
def _rotl(x, r):  # pragma: no cover - compiled
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


@njit(inline="always")
def _mix64(z):  # pragma: no cover - compiled
    """SplitMix64's finaliser (Steele, Lea & Flood 2014)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def _xoshiro(s0, s1, s2, s3):  # pragma: no cover - compiled
    """xoshiro256** (Blackman & Vigna 2018): 64 random bits and the next state."""
    res = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return res, s0, s1, s2, s3


@njit(inline="always")
def _block_state(key, blk):  # pragma: no cover - compiled
    """The xoshiro256** state of block ``blk``: SplitMix64 steps from a hash of (key, blk)."""
    gamma = np.uint64(0x9E3779B97F4A7C15)
    x = _mix64(key + _mix64(np.uint64(blk) + gamma))
    x += gamma
    s0 = _mix64(x)
    x += gamma
    s1 = _mix64(x)
    x += gamma
    s2 = _mix64(x)
    x += gamma
    s3 = _mix64(x)
    return s0, s1, s2, s3


@njit(inline="always")
def _swap_in(w, i, bits, s0, s1, s2, s3):  # pragma: no cover - compiled
    """One Fisher–Yates step: swap w[i] with w[j], j uniform in i..N−1, from 32 random ``bits`` mapped
    without bias by Lemire's multiply-and-reject (a rejection draws fresh bits). Returns the new w[i] and
    the generator state."""
    mask32 = np.uint64(0xFFFFFFFF)
    two32 = np.uint64(0x100000000)
    sh32 = np.uint64(32)
    bound = np.uint64(w.size - i)
    mprod = bits * bound
    if (mprod & mask32) < bound:
        reject = (two32 - bound) % bound
        while (mprod & mask32) < reject:
            r2, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
            mprod = (r2 >> sh32) * bound
    j = i + np.int64(mprod >> sh32)
    tmp = w[i]
    w[i] = w[j]
    w[j] = tmp
    return w[i], s0, s1, s2, s3


@njit(inline="always")
def _draw_sum(w, kk, s0, s1, s2, s3):  # pragma: no cover - compiled
    """The sum of a uniformly random kk-subset of w (a partial Fisher–Yates shuffle of its first kk
    positions, whatever order w was left in). Each 64-bit output gives two 32-bit halves, the high half
    for one step and the low half for the next; two accumulators shorten the dependency chain."""
    mask32 = np.uint64(0xFFFFFFFF)
    sh32 = np.uint64(32)
    acc0 = 0.0
    acc1 = 0.0
    i = 0
    while i < kk:
        res, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        x, s0, s1, s2, s3 = _swap_in(w, i, res >> sh32, s0, s1, s2, s3)
        acc0 += x
        i += 1
        if i < kk:
            x, s0, s1, s2, s3 = _swap_in(w, i, res & mask32, s0, s1, s2, s3)
            acc1 += x
            i += 1
    return acc0 + acc1, s0, s1, s2, s3


@njit(inline="always")
def _counted(s, thr, lower, thr_lo, cnt, cnt_lo):  # pragma: no cover - compiled
    """The tail counts of a block of Monte Carlo draws with one more draw's sum s: cnt + 1 when s ≥ thr, and
    cnt_lo + 1 when ``lower`` and s ≤ thr_lo. (Its caller stores s itself: a store inside this helper
    halves the speed of the draws.)"""
    if s >= thr:
        cnt += 1
    if lower and s <= thr_lo:
        cnt_lo += 1
    return cnt, cnt_lo


@njit(inline="always")
def _close_block(counts, counts_lo, blk, cnt, cnt_lo, lower):  # pragma: no cover - compiled
    """Block ``blk``'s tail counts into ``counts`` (and ``counts_lo`` when ``lower``)."""
    counts[blk] = cnt
    if lower:
        counts_lo[blk] = cnt_lo


@njit(nogil=True, cache=True)
def _mc_blocks(values, kk, complement, total, thr, key, b0, b1, n_permutations, block, sums, counts, thr_lo,
              counts_lo):
    # pragma: no cover - compiled
    """Blocks b0..b1−1 of the Monte Carlo draws: draws ``blk·block`` up to ``min((blk + 1)·block,
    n_permutations)``. Each draw's sum (or ``total`` minus it, when ``complement``) is stored in ``sums``
    (when not empty) and compared with ``thr``; ``counts[blk]`` gets the number reaching it (s ≥ thr).
    When ``counts_lo`` is not empty, the same draws are also compared with ``thr_lo`` and
    ``counts_lo[blk]`` gets the number at or below it (s ≤ thr_lo): both tails of a two-sided test in one
    pass. Block ``blk`` restarts from ``values`` with xoshiro256** seeded from (key, blk), so it does not
    depend on which thread runs it."""
    n = values.size
    w = np.empty(n, np.float64)
    store = sums.size > 0
    lower = counts_lo.size > 0
    for blk in range(b0, b1):
        for i in range(n):
            w[i] = values[i]
        s0, s1, s2, s3 = _block_state(key, blk)
        cnt = cnt_lo = 0
        for d in range(blk * block, min((blk + 1) * block, n_permutations)):
            acc, s0, s1, s2, s3 = _draw_sum(w, kk, s0, s1, s2, s3)
            s = total - acc if complement else acc
            if store:
                sums[d] = s
            cnt, cnt_lo = _counted(s, thr, lower, thr_lo, cnt, cnt_lo)
        _close_block(counts, counts_lo, blk, cnt, cnt_lo, lower)


# --------------------------------------------------------------------------------------------------
# Monte Carlo for N ≤ 128: a random bit mask, brought to k set bits, summed by byte tables
# --------------------------------------------------------------------------------------------------

@njit(nogil=True, cache=True)
def mask_sum_table(values):  # pragma: no cover - compiled
    """The byte tables of :func:`_mc_mask_blocks`: entry 256·g + b is the sum of the values 8g + i for the set
    bits i of b (added in ascending i, so the table is the same on every platform)."""
    n = values.size
    ng = (n + 7) // 8
    tab = np.zeros(ng * 256)
    for g in range(ng):
        for b in range(1, 256):
            pos = 0
            while ((b >> pos) & 1) == 0:
                pos += 1
            idx = 8 * g + pos
            v = values[idx] if idx < n else 0.0
            tab[g * 256 + b] = tab[g * 256 + (b & (b - 1))] + v
    return tab


@njit(inline="always")
def _bits(q, s0, s1, s2, s3):  # pragma: no cover - compiled
    """64 independent random bits, each 1 with probability q/8 (q in 1..7): for each bit of q from its lowest
    set bit up, r = x at that bit, then r | x where q's bit is 1 and r & x where it is 0 (x fresh random
    words), which takes Pr[1] from P to (1 + P)/2 or P/2: 1/2, then on to q/8."""
    r, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
    if q & 1:
        x, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        r = (r | x) if q & 2 else (r & x)
    if q & 3:
        x, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        r = (r | x) if q & 4 else (r & x)
    return r, s0, s1, s2, s3


@njit(inline="always")
def _mask_draw(n, k, q, window, lo_mask, hi_mask, thr16, s0, s1, s2, s3):  # pragma: no cover - compiled
    """A uniformly random k-subset of 0..n−1 (n ≤ 128) as two 64-bit words (m0, m1), and the state.

    1. m = n independent bits, each set with probability q/8 (q/8 near k/n); redrawn while the number of
       set bits c is more than ``window`` from k (a rare redraw is cheaper than a long repair).
    2. While c ≠ k: a position t uniform in 0..n−1 (16 random bits, Lemire's multiply-shift with rejection:
       unbiased) is flipped if it is set and c > k, or clear and c < k; four positions come from each 64-bit
       output, and those drawn after c reached k are discarded.

    Why every k-subset is equally likely: the bits of step 1 are independent and identically distributed,
    so the law of m is the same under every permutation of the positions, and so is the event
    |c − k| ≤ window; step 2 removes (or adds) uniformly random set (clear) positions, which commutes with
    permuting positions. The law of the result is therefore invariant under every permutation, and the
    permutations act transitively on the k-subsets: it is uniform. (q only sets how often steps 1 and 2
    repeat, never the law of the result.)"""
    nn = np.uint64(n)
    m16 = np.uint64(0xFFFF)
    one = np.uint64(1)
    while True:
        m0, s0, s1, s2, s3 = _bits(q, s0, s1, s2, s3)
        m0 &= lo_mask
        m1 = np.uint64(0)
        if n > 64:
            m1, s0, s1, s2, s3 = _bits(q, s0, s1, s2, s3)
            m1 &= hi_mask
        dd = np.int64(_popcount(m0)) + np.int64(_popcount(m1)) - k
        if abs(dd) <= window:
            break
    want = np.uint64(dd > 0)                 # flip set bits when there are too many, clear ones otherwise
    dd = abs(dd)
    while dd > 0:
        buf, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        for _ in range(4):
            m = (buf & m16) * nn
            buf >>= np.uint64(16)
            t = m >> np.uint64(16)
            hi = t >= np.uint64(64)
            sh = t & np.uint64(63)
            word = m1 if hi else m0
            hit = (((word >> sh) & one) == want) & ((m & m16) >= thr16) & (dd > 0)
            flip = np.uint64(hit) << sh
            if hi:
                m1 ^= flip
            else:
                m0 ^= flip
            dd -= np.int64(hit)
    return m0, m1, s0, s1, s2, s3


@njit(nogil=True, cache=True)
def _mc_mask_blocks(values, k, q, window, tab, thr, key, b0, b1, n_permutations, block, sums, counts, thr_lo,
                   counts_lo):
    # pragma: no cover - compiled
    """:func:`_mc_blocks` for N ≤ 128 (two 64-bit words): each draw is a random k-subset as a bit mask
    (:func:`_mask_draw`, with q/8 the probability of a bit and ``window`` the largest |c − k| kept), its sum
    read from the byte tables ``tab`` (:func:`mask_sum_table`: one lookup per 8 values). Block ``blk`` uses
    xoshiro256** seeded from (key, blk), as in :func:`_mc_blocks`, so it does not depend on which thread
    runs it; the outputs are as in :func:`_mc_blocks`."""
    n = values.size
    ng = (n + 7) // 8
    one = np.uint64(1)
    lo_mask = ~np.uint64(0) if n >= 64 else (one << np.uint64(n)) - one
    hi_mask = np.uint64(0) if n <= 64 else (~np.uint64(0) if n == 128 else (one << np.uint64(n - 64)) - one)
    nn = np.uint64(n)
    thr16 = (np.uint64(65536) - nn) % nn          # Lemire's rejection threshold for 16-bit draws below n
    store = sums.size > 0
    lower = counts_lo.size > 0
    b255 = np.uint64(255)
    for blk in range(b0, b1):
        s0, s1, s2, s3 = _block_state(key, blk)
        cnt = cnt_lo = 0
        for d in range(blk * block, min((blk + 1) * block, n_permutations)):
            m0, m1, s0, s1, s2, s3 = _mask_draw(n, k, q, window, lo_mask, hi_mask, thr16, s0, s1, s2, s3)
            a0 = 0.0
            a1 = 0.0
            g = 0
            while g < ng:
                w = m0 if g < 8 else m1
                sh = np.uint64(8 * (g & 7))
                a0 += tab[g * 256 + np.int64((w >> sh) & b255)]
                if g + 1 < ng:
                    a1 += tab[(g + 1) * 256 + np.int64((w >> (sh + np.uint64(8))) & b255)]
                g += 2
            s = a0 + a1
            if store:
                sums[d] = s
            cnt, cnt_lo = _counted(s, thr, lower, thr_lo, cnt, cnt_lo)
        _close_block(counts, counts_lo, blk, cnt, cnt_lo, lower)


# --------------------------------------------------------------------------------------------------
# Adam's step for F stacked models (wordbias.models.mlp), each model's parameters a row of a [F, n] array
# --------------------------------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def adam_moments(m1, m2, g, active, c2, b1, omb1, b2, omb2, v):  # pragma: no cover - compiled
    """Adam's moments of the rows f where ``active[f]``, in place: m1 ← m1·β1 + (1 − β1)·g and
    m2 ← m2·β2 + ((1 − β2)·g)·g; and v ← m2·c2 (c2[f] = 1 / (1 − β2^t), the bias correction of v̂).

    All float32, each product and sum rounded on its own (no fused multiply-add), in the order of the
    PyTorch expressions it replaces (:meth:`wordbias.models.mlp._Adam.step`), so the bits are theirs.
    Rows that are not active are left as they are (v's included).
    """
    F, n = m1.shape
    for f in range(F):
        if active[f]:
            cf2 = c2[f]
            for i in range(n):
                gi = g[f, i]
                m1[f, i] = m1[f, i] * b1 + omb1 * gi
                s = m2[f, i] * b2 + (omb2 * gi) * gi
                m2[f, i] = s
                v[f, i] = s * cf2


@njit(nogil=True, cache=True)
def adam_apply(p, m1, root, active, c1, eps):  # pragma: no cover - compiled
    """Adam's update of the rows f where ``active[f]``, in place: p ← p − (m1·c1) / (root + ε), with
    c1[f] = lr / (1 − β1^t) and root = √v̂ (taken by the caller, with PyTorch's own square root)."""
    F, n = p.shape
    for f in range(F):
        if active[f]:
            cf1 = c1[f]
            for i in range(n):
                p[f, i] = p[f, i] - (m1[f, i] * cf1) / (root[f, i] + eps)


# --------------------------------------------------------------------------------------------------
# the argument types the library calls the kernels with, compiled ahead by :func:`compile_all`
# --------------------------------------------------------------------------------------------------

_F8, _I8 = types.float64[::1], types.int64[::1]
_S2, _S1 = types.float32[:, ::1], types.float32[::1]
#: every kernel's argument types as its callers (:mod:`wordbias.stats.exact_count`,
#: :mod:`wordbias.stats.montecarlo`, :mod:`wordbias.models.mlp`) pass them; a test checks that real calls compile
#: nothing else
SIGNATURES = {
    "subset_sums_by_size": [(_F8, types.int64, types.int64, _F8, types.float64[:, ::1], _F8, _F8)],
    "count_pairs": [(_F8, _F8, types.float64, types.boolean)],
    "_mc_blocks": [(_F8, types.int64, types.boolean, types.float64, types.float64, types.uint64, types.int64,
                   types.int64, types.int64, types.int64, _F8, _I8, types.float64, _I8)],
    "mask_sum_table": [(_F8,)],
    "_mc_mask_blocks": [(_F8, types.int64, types.int64, types.int64, _F8, types.float64, types.uint64, types.int64,
                        types.int64, types.int64, types.int64, _F8, _I8, types.float64, _I8)],
    "adam_moments": [(_S2, _S2, _S2, types.boolean[::1], _S1, types.float32, types.float32, types.float32,
                      types.float32, _S2)],
    "adam_apply": [(_S2, _S2, _S2, types.boolean[::1], _S1, types.float32)],
}


def compile_all(signatures: dict | None = None, namespace: dict | None = None) -> int:
    """Compile every kernel for the argument types it is called with, loading each from the disk cache where
    it is there (``make`` runs this once before the notebooks, which would otherwise each compile the
    kernels they use: about 4 s a notebook on a fresh clone).

    Parameters
    ----------
    signatures : dict or None, default None
        ``{kernel name: [argument types, ...]}``; None: :data:`SIGNATURES`.
    namespace : dict or None, default None
        Where the kernels are looked up by name; None: this module's.

    Returns
    -------
    int
        The number of (kernel, argument types) pairs compiled or loaded.

    Examples
    --------
    >>> compile_all() == sum(len(v) for v in SIGNATURES.values())
    True
    """
    signatures = SIGNATURES if signatures is None else signatures
    namespace = globals() if namespace is None else namespace
    n = 0
    for name, sigs in signatures.items():
        for sig in sigs:
            namespace[name].compile(sig)
            n += 1
    return n
