"""Pins the outputs of UBE's compiled kernel (wordbias.measures.ube_kernels, Swinger et al. 2019, Sections
3.3-3.4) through the function that calls it, :func:`wordbias.measures.ube_null.null_sigma_batch`: Step 3's
scores for a batch of rotations.

The values were recorded before the kernel moved out of ``ube.py`` (and kept when it moved from
``core/kernels.py`` to ``measures/ube_kernels.py``); any change to it must keep them bit for bit (the committed
results depend on them). The inputs are dyadic fractions, so the one matrix product involved is exact in float32
whatever the summation order.
"""

import hashlib

import numpy as np
import pytest

from wordbias.measures import ube_null


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
