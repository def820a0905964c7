"""MAC (Manzini et al. 2019): hand-computed values, invariances, the bootstrap, no test."""
import math

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.measures.sets.mac import mac, mac_statistic
from wordbias.options import Resampling


def test_by_hand():
    # t1 = (1, 0): A1 distances 0, 1 (mean .5), A2 distance 2; t2 = (0, 1): A1 1, 0 (.5), A2 1
    T = [[[1.0, 0.0]], [[0.0, 1.0]]]
    A = [[[1.0, 0.0], [0.0, 1.0]], [[-1.0, 0.0]]]
    assert mac_statistic(T, A) == pytest.approx((0.5 + 2 + 0.5 + 1) / 4)
    assert mac_statistic(np.array([[1.0, 0.0], [0.0, 1.0]]), A) == pytest.approx(1.0)   # one array: one set


def test_invariances():
    rng = np.random.default_rng(0)
    T1, T2, A1, A2 = (rng.normal(size=(n, 5)) for n in (3, 4, 5, 2))
    v = mac_statistic([T1, T2], [A1, A2])
    assert mac_statistic([T2, T1], [A2, A1]) == pytest.approx(v)
    assert mac_statistic([np.vstack([T1, T2])], [A1, A2]) == pytest.approx(v)   # grouping of target words
    assert mac_statistic([T1 * 3, T2], [A1 * 0.2, A2]) == pytest.approx(v)


def test_validation():
    with pytest.raises(InvalidParameterError):
        mac_statistic([], [[[1.0, 0.0]]])
    with pytest.raises(DegenerateSetError):
        mac_statistic([[[0.0, 0.0]]], [[[1.0, 0.0]]])
    with pytest.raises(InvalidParameterError):
        mac({"a": [1.0, 0.0], "b": [0.0, 1.0]}, "a", [["b"]])


def test_measurement_has_an_interval_and_no_p():
    rng = np.random.default_rng(1)
    emb = {f"w{i}": rng.normal(size=4) for i in range(20)}
    w = list(emb)
    r = mac(emb, [w[:5], w[5:10]], [w[10:15], w[15:]], resampling=Resampling(n_resamples=500), warn=False)
    assert r.effect_size == pytest.approx(mac_statistic([np.array([emb[x] for x in w[:10]])],
                                                        [np.array([emb[x] for x in w[10:15]]),
                                                         np.array([emb[x] for x in w[15:]])]))
    assert r.ci_low <= r.effect_size <= r.ci_high and math.isnan(r.p_value) and r.p_method == "none"
    assert any(n.startswith("no test:") for n in r.notes)
