"""The on-disk cache of UBE's rotational null (wordbias.measures.enumeration.ube_null.rotational_null's cache_dir): the null read
back is the one computed, nothing is computed when it is read back, every input is in the key, and a damaged or
foreign file is reported and computed again, never returned."""
import warnings

import numpy as np
import pytest

from wordbias.core.errors import CacheRebuiltWarning
from wordbias.measures.enumeration import ube_null


def _inputs(seed=0, M=300, d=8, n=3, m=4):
    rng = np.random.default_rng(seed)
    W = rng.normal(size=(M, d)).astype(np.float32)
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    category = (np.arange(M) % m).astype(np.int32)
    Abar = np.stack([W[category == j].mean(axis=0) for j in range(m)])
    Xbar = rng.normal(size=(n, d))
    return W, category, Xbar, Abar


def _null(cache_dir, inputs=None, *, t=2, R=40, seed=5):
    W, category, Xbar, Abar = inputs or _inputs()
    return ube_null.rotational_null(W, category, Xbar, Abar, t, R, seed=seed, progress=False, workers=1,
                                    cache_dir=cache_dir)


def test_read_back_is_the_computed_null_and_computes_nothing(tmp_path, monkeypatch):
    plain = _null(None)
    first = _null(tmp_path)
    assert np.array_equal(first, plain) and first.dtype == np.float32
    (cached,) = tmp_path.glob("null-*.npz")

    def no_work(*args, **kwargs):
        raise AssertionError("the null was computed again")

    monkeypatch.setattr(ube_null, "run_tasks", no_work)
    again = _null(tmp_path)
    assert np.array_equal(again, plain)
    assert list(tmp_path.glob("null-*.npz")) == [cached]
    with np.load(cached, allow_pickle=False) as z:    # no pickle inside
        assert np.array_equal(z["null"], plain)


@pytest.mark.parametrize("change", ["seed", "R", "t", "W", "category", "Xbar", "Abar"])
def test_every_input_is_in_the_key(tmp_path, change):
    W, category, Xbar, Abar = _inputs()
    base = dict(t=2, R=40, seed=5)
    key = ube_null.null_cache_key(W, category, Xbar, Abar, **base)
    if change in ("seed", "R", "t"):
        other = ube_null.null_cache_key(W, category, Xbar, Abar, **{**base, change: base[change] + 1})
    else:
        arrays = dict(W=W.copy(), category=category.copy(), Xbar=Xbar.copy(), Abar=Abar.copy())
        a = arrays[change]
        a.flat[0] = a.flat[1] if change == "category" and a.flat[0] != a.flat[1] else a.flat[0] + 1
        other = ube_null.null_cache_key(**arrays, **base)
    assert other != key
    # and a run with the change computes its own null beside the first
    _null(tmp_path)
    if change == "seed":
        _null(tmp_path, seed=6)
        assert len(list(tmp_path.glob("null-*.npz"))) == 2


def test_a_damaged_file_is_reported_and_computed_again(tmp_path):
    plain = _null(tmp_path)
    (cached,) = tmp_path.glob("null-*.npz")
    cached.write_bytes(cached.read_bytes()[:100])           # truncated
    with pytest.warns(CacheRebuiltWarning, match="unreadable"):
        again = _null(tmp_path)
    assert np.array_equal(again, plain)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                      # rewritten whole: read back without a warning
        assert np.array_equal(_null(tmp_path), plain)


def test_a_file_of_another_key_or_shape_is_not_returned(tmp_path):
    plain = _null(tmp_path)
    (cached,) = tmp_path.glob("null-*.npz")
    np.savez(cached, key=np.array("0" * 64), null=np.zeros_like(plain))
    with pytest.warns(CacheRebuiltWarning, match="another|expected key"):
        assert np.array_equal(_null(tmp_path), plain)
    with np.load(cached, allow_pickle=False) as z:
        key = str(z["key"])
    np.savez(cached, key=np.array(key), null=np.zeros((3, 2, 2), dtype=np.float32))
    with pytest.warns(CacheRebuiltWarning, match="shape"):
        assert np.array_equal(_null(tmp_path), plain)
