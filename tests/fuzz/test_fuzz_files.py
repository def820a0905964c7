"""Fuzzing the readers of a user's files: YAML word lists (:func:`wordbias.datasets.user_lists.read_user_lists`)
and embedding text files (:func:`wordbias.embeddings.load`, always with a temporary ``cache_dir``).

A word-list file either parses into lists satisfying the documented format (non-empty sets of distinct,
stripped, non-empty strings; X and Y, A and B disjoint; unique ids) or fails with InvalidParameterError naming
the file. An embedding file either loads into a KeyedVectors whose words and float32 rows agree (finite,
non-zero rows: ``zero_vectors="error"`` is the default), the same on a second load (through the cache), or
fails with wordbias's own error.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import strategies as fz
from hypothesis import given, note
from hypothesis import strategies as st

from wordbias import embeddings
from wordbias.datasets import user_lists


def _check_lists(lists) -> None:
    assert isinstance(lists, user_lists.UserLists)
    assert lists.weat or lists.wefat
    assert isinstance(lists.battery, str) and lists.battery
    ids = [s.id for s in lists.weat] + [s.id for s in lists.wefat]
    assert len(ids) == len(set(ids)), ids
    for spec in lists.weat:
        for role in "XYAB":
            ws = getattr(spec, role)
            assert isinstance(ws, tuple) and ws, (role, ws)
            assert all(isinstance(w, str) and w and w == w.strip() for w in ws), ws
            assert len(set(ws)) == len(ws), ws
        assert not set(spec.X) & set(spec.Y) and not set(spec.A) & set(spec.B)
    for spec in lists.wefat:
        assert len(spec.property) == len(spec.W)


@fz.fuzz(120)
@given(data=fz.yaml_documents(), name=st.sampled_from(["lists.yaml", "my lists.yml", "ünï.yaml", ".yaml",
                                                        "a.b.yaml", "lists"]))
def test_read_user_lists(data, name):
    note(f"file {name!r}: {data!r}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        status, lists = fz.outcome(user_lists.read_user_lists, path)
        if status == "ok":
            _check_lists(lists)
        status, out = fz.outcome(user_lists.load_user_lists, str(path))
        if status == "ok":
            assert out[1] == list(lists.weat)


def test_read_user_lists_deep_nesting():
    """Found by a long run, kept as a fixed case: a YAML file nested 1,000 deep."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "lists.yaml"
        path.write_text("weat: " + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
        status, lists = fz.outcome(user_lists.read_user_lists, path)
        if status == "ok":
            _check_lists(lists)


@fz.fuzz(100)
@given(file=fz.embedding_files(), fmt=st.sampled_from([None, None, None, "glove", "word2vec-text", "fasttext-vec",
                                                       "word2vec-binary", "npy-cache", "GloVe", 3]),
       zero=st.sampled_from(["error", "error", "keep", "drop"]), cache=st.sampled_from([True, True, False]))
def test_load_embedding_file(file, fmt, zero, cache):
    data, suffix = file
    note(f"file (suffix {suffix!r}): {data!r}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"vectors{suffix}"
        path.write_bytes(data)
        cache_dir = Path(tmp) / "cache"
        opts = dict(format=fmt, zero_vectors=zero, cache=cache, cache_dir=cache_dir, progress=False)
        status, kv = fz.outcome(embeddings.load, path, **opts)
        if status != "ok":
            return
        vectors = np.asarray(kv.vectors)
        assert vectors.ndim == 2 and vectors.shape[0] == len(kv.index_to_key) >= 1, vectors.shape
        assert vectors.dtype == np.float32
        assert len(set(kv.index_to_key)) == len(kv.index_to_key)
        assert all(kv.key_to_index[w] == i for i, w in enumerate(kv.index_to_key))
        assert np.all(np.isfinite(vectors)), "non-finite values loaded"
        if zero == "error":
            assert np.all(np.linalg.norm(vectors.astype(np.float64), axis=1) > 0), "a zero vector loaded"
        status2, kv2 = fz.outcome(embeddings.load, path, **opts)          # the second load: from the cache
        assert status2 == "ok", kv2
        assert kv2.index_to_key == kv.index_to_key
        np.testing.assert_array_equal(np.asarray(kv2.vectors), vectors)
