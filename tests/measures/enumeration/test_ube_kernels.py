"""Pins the outputs of UBE's compiled kernel (wordbias.measures.enumeration.ube_kernels, Swinger et al. 2019, Sections
3.3-3.4) through the function that calls it, :func:`wordbias.measures.enumeration.ube_null.null_sigma_batch`: Step 3's
scores for a batch of rotations.

The values were recorded before the kernel moved out of ``ube.py`` (and kept when it moved from
``stats/kernels.py`` to ``measures/enumeration/ube_kernels.py``); any change to it must keep them bit for bit (the committed
results depend on them). The inputs are dyadic fractions, so the one matrix product involved is exact in float32
whatever the summation order.
"""

import hashlib

import numpy as np
import pytest

from wordbias.measures.enumeration import ube_null


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("seed,n_words,d,m,b,first_row,n_inf,sha", [
    (3, 300, 6, 5, 3, [0.607421875, 1.115234375, 1.0885416666666667], 0, "fdb3f8a31e1d5d6d"),
    # 40 categories over 200 words: most Voronoi sets hold fewer than t = 3 words (σ = −inf)
    (5, 200, 5, 40, 2, None, 279, "6652a1b6ac6490f0"),
])
def test_ube_step3_scores(seed, n_words, d, m, b, first_row, n_inf, sha):
    rng = np.random.default_rng(seed)
    W = (rng.integers(-8, 9, size=(n_words, d)) / 8).astype(np.float32)
    category = rng.integers(0, m, size=n_words).astype(np.int32)
    Z = rng.integers(-8, 9, size=(b, 4, d)) / 8
    Abar = rng.integers(-8, 9, size=(m, d)) / 16
    out = ube_null.null_sigma_batch(W, category, Z, Abar, 3)
    assert out.dtype == np.float64 and out.shape == (b, 4, m)
    if first_row is not None:
        assert out[0, 0, :3].tolist() == first_row
    assert int(np.isinf(out).sum()) == n_inf
    assert digest(out) == sha


def _dyadic_problem(seed, n_words, d, n, m, b):
    rng = np.random.default_rng(seed)
    W = (rng.integers(-8, 9, size=(n_words, d)) / 8).astype(np.float32)
    category = rng.integers(0, m, size=n_words).astype(np.int32)
    Z = rng.integers(-8, 9, size=(b, n, d)) / 8
    Abar = rng.integers(-8, 9, size=(m, d)) / 16
    return W, category, Z, Abar


# Recorded with a reference kernel that makes one Voronoi pass over all the words, then a branchy insertion:
# more words than a kernel block (ube_kernels.WORD_BLOCK), t from 1 to 7 (t = 3 has its own insertion), n not a
# multiple of 4, and a case where most cells have no test. The chunked product (several runs of words) must give
# the same bits, and so must any chunk size.
@pytest.mark.parametrize("problem,t,n_inf,sha", [
    ((7, 1500, 6, 4, 5, 3), 1, 0, "56ee5fac10d8269e"),
    ((7, 1500, 6, 4, 5, 3), 2, 0, "6b5bfb91da81461f"),
    ((7, 1500, 6, 4, 5, 3), 3, 0, "ae310498de4fa9ad"),
    ((7, 1500, 6, 4, 5, 3), 4, 0, "294a17c82ac7a32d"),
    ((7, 1500, 6, 4, 5, 3), 7, 0, "9dd218edcb14fde8"),
    ((8, 1300, 5, 5, 9, 2), 1, 0, "9c84e93ad9a6a11d"),
    ((8, 1300, 5, 5, 9, 2), 3, 0, "68ab9fd4abe82b84"),
    ((8, 1300, 5, 5, 9, 2), 7, 0, "14fc3ce34d90f48f"),
    ((9, 1300, 5, 5, 150, 2), 1, 329, "3ebe83c56ff260aa"),
    ((9, 1300, 5, 5, 150, 2), 2, 765, "ee0a583c04918534"),
    ((9, 1300, 5, 5, 150, 2), 3, 1109, "15d5096a5476a9c2"),
    ((9, 1300, 5, 5, 150, 2), 4, 1320, "bbc75b28fa4f162e"),
])
@pytest.mark.parametrize("chunk", [None, 256, 700, 5000])
def test_ube_scores_are_those_of_the_earlier_kernel_for_any_t_and_chunk(problem, t, n_inf, sha, chunk):
    W, category, Z, Abar = _dyadic_problem(*problem)
    out = ube_null.null_sigma_batch(W, category, Z, Abar, t, chunk=chunk)
    assert int(np.isinf(out).sum()) == n_inf
    assert digest(out) == sha


def test_the_kernel_pieces_equal_the_whole_product_kernel():
    from wordbias.measures.enumeration import ube_kernels

    W, category, Z, Abar = _dyadic_problem(4, 1100, 6, 4, 7, 3)
    Z32 = Z.astype(np.float32)
    P = np.matmul(Z32, W.T).reshape(12, -1)
    const = np.einsum("bnd,md->bnm", Z32 - Z32.mean(axis=1, keepdims=True), Abar.astype(np.float32))
    for t in (2, 3, 5):
        whole = np.empty((3, 4, 7))
        ube_kernels.ube_null_sigma(P, 4, category, 7, t, const, whole)
        top = np.full((3, 28, t), -np.inf, dtype=np.float32)
        for c0 in (0, 300, 301, 1000):       # uneven runs of words, one of a single word
            c1 = {0: 300, 300: 301, 301: 1000, 1000: 1100}[c0]
            ube_kernels.ube_null_select(np.ascontiguousarray(P[:, c0:c1]), 4, category[c0:c1], 7, top)
        pieces = np.empty((3, 4, 7))
        ube_kernels.ube_null_finish(top, 4, 7, const, pieces)
        assert np.array_equal(whole, pieces)
        assert np.all(np.diff(top, axis=2)[np.isfinite(top[:, :, 1:])] <= 0)   # each top t is descending


@pytest.mark.parametrize("n", [12, 5])
def test_rotational_null_equals_the_per_rotation_products_bit_for_bit(n):
    """Whether the null takes the chunked products (where this BLAS rounds them like the per-rotation ones) or
    not, its values are those of one n×d product per rotation over all the words."""
    rng = np.random.default_rng(n)
    M, d, m, t, R = 5000, 20, 6, 3, 80                      # R: one full block of 64 and a ragged one
    W = rng.normal(size=(M, d))
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    cat = rng.integers(0, m, size=M)
    Xbar = rng.normal(size=(n, d)) * 0.3 + rng.normal(size=d)
    Abar = np.stack([W[cat == j].mean(axis=0) for j in range(m)])
    null = ube_null.rotational_null(W, cat, Xbar, Abar, t, R, seed=4, progress=False, workers=2)
    C, _ = ube_null.span_factors(Xbar)
    W32, A32 = W.astype(np.float32), Abar.astype(np.float32)
    expected = []
    for block in range(2):
        F = ube_null.rotation_frames(4, block, d, C.shape[1], min(64, R - 64 * block))
        Z = np.einsum("nr,brd->bnd", C, F)
        expected += [ube_null.null_sigma_batch(W32, cat.astype(np.int32), Z[k:k + 1], A32, t)[0]
                     for k in range(len(Z))]
    assert np.array_equal(null, np.array(expected, dtype=np.float32))


def test_chunked_product_check_agrees_with_the_scores():
    """Where the check passes, the chunked products give the per-rotation scores bit for bit on real-valued
    (inexact) data; where it fails (AVX2 OpenBLAS, n not a multiple of 4) the null does not use them."""
    rng = np.random.default_rng(0)
    for n in (4, 5):
        W = rng.normal(size=(3000, 30)).astype(np.float32)
        Z = rng.normal(size=(8, n, 30))
        cat = rng.integers(0, 7, size=3000).astype(np.int32)
        Abar = rng.normal(size=(7, 30)).astype(np.float32)
        exact = ube_null.chunked_product_is_exact(W, Z.astype(np.float32), 1024)
        assert isinstance(exact, bool)
        if exact:
            assert np.array_equal(ube_null.null_sigma_batch(W, cat, Z, Abar, 3),
                                  ube_null.null_sigma_batch(W, cat, Z, Abar, 3, chunk=1024))


@pytest.mark.parametrize("chunk", [1, 2, 7, 1920])
def test_word_runs_cover_the_words_in_order_with_no_short_last_run(chunk):
    for M in [1, 2, 3, chunk - 1, chunk, chunk + 1, chunk + chunk // 2 - 1, chunk + chunk // 2, 3 * chunk + 5,
              30_000]:
        if M < 1:
            continue
        runs = ube_null.word_runs(M, chunk)
        assert runs[0][0] == 0 and runs[-1][1] == M
        assert all(a[1] == b[0] for a, b in zip(runs, runs[1:]))
        assert all(b - a == chunk for a, b in runs[:-1])
        last = runs[-1][1] - runs[-1][0]
        assert chunk // 2 <= last <= chunk + max(chunk // 2 - 1, 0) or len(runs) == 1 and last == M


def _openblas_cores():
    from threadpoolctl import threadpool_info

    return {i.get("architecture") for i in threadpool_info() if i.get("internal_api") == "openblas"}


@pytest.mark.parametrize("M", [30_000, 5000, 4000, 2200, 1921])
@pytest.mark.parametrize("d", [50, 300])
def test_the_null_takes_runs_of_words_on_openblas_avx2_and_avx512(M, d):
    """The finding behind :data:`ube_null.WORD_CHUNK`: OpenBLAS's AVX2 (Haswell) and AVX-512 (SkylakeX)
    kernels, the two it was measured on, round (8·12)×d by d×L products over the runs of ``word_runs`` exactly like
    one 12×d product per rotation over all the words, on real-valued data, for word counts whose last run is
    shorter or longer than a run. Under the AVX2 kernels runs of 2,048 words do not (their blocks are 320 words), which is
    why the runs are 1,920 words."""
    cores = _openblas_cores()
    if not cores & {"Haswell", "SkylakeX"}:
        pytest.skip(f"the finding is about OpenBLAS's Haswell and SkylakeX kernels, not {cores or 'this BLAS'}")
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(M + d)
    W = rng.normal(size=(M, d)).astype(np.float32)
    Z = rng.normal(size=(8, 12, d)).astype(np.float32)
    with threadpool_limits(1, user_api="blas"):
        assert ube_null.exact_chunk(W, Z) == ube_null.WORD_CHUNK
        if "Haswell" in cores and M == 30_000:
            assert not ube_null.chunked_product_is_exact(W, Z, 2048)
