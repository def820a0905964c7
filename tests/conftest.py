"""Shared fixtures: tiny hand-built embeddings (plain dicts word -> vector)."""

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Every test gets its own embedding-cache root (``WORDBIAS_CACHE``), so that no test sees a cache another
    test (or the user) left, and none writes into the user's per-user cache folder."""
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path_factory.mktemp("wordbias-cache")))


@pytest.fixture
def tiny():
    """A 2-D embedding whose WEAT values are computed by hand in test_weat.py."""
    return {
        "a": np.array([1.0, 0.0]),
        "b": np.array([0.0, 1.0]),
        "x1": np.array([1.0, 0.0]),
        "x2": np.array([1.0, 1.0]),
        "y1": np.array([0.0, 1.0]),
        "y2": np.array([1.0, 2.0]),
    }


@pytest.fixture
def random_embedding():
    """60 random 10-d words w0..w59 with a planted direction: w0..w9 lean to a0..a4."""
    rng = np.random.default_rng(42)
    vecs = rng.normal(size=(60, 10))
    vecs[:10, 0] += 1.5   # X leans to A
    vecs[40:45, 0] += 3.0  # A words
    vecs[45:50, 0] -= 3.0  # B words
    return {f"w{i}": v for i, v in enumerate(vecs)}
