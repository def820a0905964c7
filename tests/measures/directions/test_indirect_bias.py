"""Indirect bias (Bolukbasi et al. 2016, §5.2): beta by hand, its properties, the mean with its interval."""
import math

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError
from wordbias.measures.directions.indirect_bias import (
    indirect_bias,
    indirect_bias_matrix,
    indirect_biases,
    mean_indirect_bias,
)
from wordbias.options import Resampling


def test_by_hand():
    # w = (1,1,0)/√2, v = (1,1,1)/√3: w.v = 2/√6; w⊥ = (0,1,0), v⊥ ∝ (0,1,1): cos 1/√2
    wv = 2 / np.sqrt(6)
    assert indirect_bias([1, 1, 0], [1, 1, 1], [1, 0, 0]) == pytest.approx((wv - 1 / np.sqrt(2)) / wv)
    # orthogonal to g: removing g changes nothing
    assert indirect_bias([0, 1, 0.2], [0, 1, 1], [1, 0, 0]) == pytest.approx(0.0, abs=1e-12)
    # scale-free and symmetric; g's sign and length do not matter
    rng = np.random.default_rng(0)
    w, v, g = rng.normal(size=(3, 6))
    b = indirect_bias(w, v, g)
    assert indirect_bias(3 * w, v / 2, -5 * g) == pytest.approx(b) and indirect_bias(v, w, g) == pytest.approx(b)


def test_degenerate():
    with pytest.raises(DegenerateSetError):
        indirect_bias([1, 0, 0], [1, 1, 0], [1, 0, 0])             # w along g
    with pytest.raises(DegenerateSetError):
        indirect_bias([1, 1, 0], [1, -1, 0], [0, 0, 1])            # w.v = 0


def test_mean_and_interval():
    rng = np.random.default_rng(1)
    emb = {f"w{i}": rng.normal(size=5) + [2, 2, 0, 0, 0] for i in range(9)}
    w = list(emb)
    g = np.array([1.0, 0, 0, 0, 0])
    B = indirect_bias_matrix([np.float32(emb[x]) for x in w[:3]], [np.float32(emb[x]) for x in w[3:]], g)
    r = mean_indirect_bias(emb, w[:3], w[3:], g=g, resampling=Resampling(n_resamples=500), warn=False)
    assert r.effect_size == pytest.approx(B.mean()) and r.ci_low <= r.effect_size <= r.ci_high
    assert math.isnan(r.p_value) and r.ci_method.endswith("of W, V")
    s = indirect_biases(emb, w[0], w[3:], g)
    np.testing.assert_allclose(s.to_numpy(), B[0], rtol=1e-5)          # the embedding stores float32
    assert list(s.index) == w[3:]


def test_glove_softball_football():
    from wordbias import embeddings

    kv = embeddings.load("glove-6b-50d", progress=False)
    profs = ["receptionist", "businessman", "maestro"]
    soft, foot = indirect_biases(kv, "softball", profs), indirect_biases(kv, "football", profs)
    assert list(soft.index) == profs and np.isfinite(soft).all() and np.isfinite(foot).all()
    # the gender component adds to football's similarity with the male-leaning professions
    assert foot["businessman"] > 0 and foot["maestro"] > 0
