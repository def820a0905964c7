"""Tests for wordbias.embeddings.cache (and cache_format): conversion, reuse, invalidation and the files of a cache
folder."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest
from embedding_files import WORDS, assert_same, make_matrix, text_bytes, write_file

from wordbias import embeddings as E
from wordbias.embeddings import cache as embedding_cache
from wordbias.embeddings.cache_format import open_cache


def test_cache_created_then_reused(tmp_path, monkeypatch):
    vectors = make_matrix()
    path = write_file(tmp_path / "v.txt", text_bytes(WORDS, vectors, header=False))
    kv1 = E.load(path)
    cache_dir = E.cache_dir_for(tmp_path / "v.txt")
    assert {p.name for p in cache_dir.iterdir()} == {".wordbias-folder", "vectors.npy", "vocab.txt", "vocab_index.npy", "meta.json"}
    meta = json.loads((cache_dir / "meta.json").read_text())
    assert meta["source"]["file"] == "v.txt"
    assert meta["source"]["size"] == path.stat().st_size
    assert meta["shape"] == [len(WORDS), 5] and meta["format"] == "glove"
    assert np.load(cache_dir / "vectors.npy").dtype == np.float32
    # vocab: one word per line, words with U+2028 / U+0085 survive
    assert (cache_dir / "vocab.txt").read_bytes().decode("utf-8").split("\n")[:-1] == WORDS

    def no_convert(*args, **kwargs):
        raise AssertionError("the second load should use the cache")

    monkeypatch.setattr(embedding_cache, "convert", no_convert)
    kv2 = E.load(path)
    assert isinstance(kv2.vectors, np.memmap)
    assert_same(kv2, kv1.index_to_key, np.asarray(kv1.vectors))
    assert_same(kv2, WORDS, vectors)
    # the cache folder itself loads as a path, and mmap_mode=None gives a writable in-memory copy
    kv3 = E.load(cache_dir, mmap_mode=None)
    assert_same(kv3, WORDS, vectors)
    kv3.vectors[0] = 0  # does not touch the file
    assert_same(E.load(cache_dir), WORDS, vectors)


def test_cache_invalidated_when_source_changes(tmp_path, monkeypatch):
    path = write_file(tmp_path / "v.txt", text_bytes(WORDS, make_matrix(seed=1), header=False))
    E.load(path)
    calls = []
    real_convert = embedding_cache.convert
    monkeypatch.setattr(embedding_cache, "convert", lambda *a, **k: calls.append(a) or real_convert(*a, **k))
    E.load(path)
    assert calls == []
    new = make_matrix(seed=2)
    write_file(path, text_bytes(WORDS, new, header=False))  # same size is likely; force a new mtime too
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    kv = E.load(path)
    assert len(calls) == 1
    assert_same(kv, WORDS, new)
    E.load(path)
    assert len(calls) == 1


def test_save_and_load_cache_folder(tmp_path):
    kv = E.load("glove-840b-caliskan")
    out = E.save(kv, tmp_path / "subset", name="caliskan-copy")
    assert E.detect_format(out) == "npy-cache"
    assert_same(E.load(out), kv.index_to_key, kv.vectors)


def test_no_pickle_in_cache(tmp_path):
    path = write_file(tmp_path / "v.txt", text_bytes(WORDS, make_matrix(), header=False))
    E.load(path)
    cache_dir = E.cache_dir_for(path)
    np.load(cache_dir / "vectors.npy", allow_pickle=False)  # would raise if the array needed pickle
    assert not list(cache_dir.glob("*.pkl"))


def test_convert_and_open_cache(tmp_path):
    vectors = make_matrix()
    path = write_file(tmp_path / "v.vec.gz", text_bytes(WORDS, vectors, header=True, trailing_space=True))
    out = E.convert(path, tmp_path / "my-cache", progress=False)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["format"] == "fasttext-vec" and meta["source"]["file"] == "v.vec.gz"
    assert_same(E.open_cache(out), WORDS, vectors)
    assert_same(E.open_cache(out, mmap_mode=None), WORDS, vectors)


@pytest.mark.parametrize("other_is_complete", [True, False])
def test_convert_accepts_a_concurrent_conversion_that_finished_first(tmp_path, monkeypatch, other_is_complete):
    """If another process renames its complete cache into place just before ours, ours is discarded; if what
    is there is not a complete cache, ours replaces it (atomically). No temporary folder is left behind."""
    path = write_file(tmp_path / "v.txt", text_bytes(WORDS, make_matrix(), header=False))
    other = embedding_cache.convert(path, tmp_path / "other", progress=False)
    if not other_is_complete:
        (other / "meta.json").unlink()
    other_inode = other.stat().st_ino
    target = tmp_path / "cache"
    real_rename = os.rename

    def racing_rename(src, dst):  # the other writer wins the race, then our rename fails
        monkeypatch.setattr(os, "rename", real_rename)
        real_rename(other, dst)
        raise OSError("target exists")

    monkeypatch.setattr(os, "rename", racing_rename)
    assert embedding_cache.convert(path, target, progress=False) == target
    assert_same(open_cache(target), WORDS, make_matrix())
    assert (target.stat().st_ino == other_inode) == other_is_complete
    assert not list(tmp_path.glob(".tmp-*")) and not list(tmp_path.glob(".old-*"))


def test_caches_live_in_the_user_cache_folder_and_can_be_listed_and_cleared(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("WORDBIAS_CACHE", str(root))
    data = tmp_path / "data"
    data.mkdir()
    a = write_file(data / "a.txt", text_bytes(WORDS, make_matrix(), header=False))
    b = write_file(data / "b.txt", text_bytes(WORDS, make_matrix(), header=False))
    E.load(a, progress=False)
    E.load(b, progress=False)
    assert sorted(p.name for p in data.iterdir()) == ["a.txt", "b.txt"]          # nothing beside the files
    assert E.cache_dir_for(a).parent == root / "embeddings"
    table = E.list_caches()
    assert sorted(table.name.str.split("-").str[0]) == ["a.txt", "b.txt"] or table.valid.all()
    assert table.valid.all() and set(table.source) == {str(a.resolve()), str(b.resolve())}
    assert (table.bytes > 0).all()
    # a folder that is not a cache is never removed
    (root / "embeddings" / "notes").mkdir()
    (root / "embeddings" / "notes" / "mine.txt").write_text("keep me")
    removed = E.clear_caches([E.cache_dir_for(a).name])
    assert removed == [E.cache_dir_for(a)] and not E.cache_dir_for(a).exists() and E.cache_dir_for(b).exists()
    assert E.clear_caches() == [E.cache_dir_for(b)]
    assert (root / "embeddings" / "notes" / "mine.txt").read_text() == "keep me"
    kv = E.load(a, progress=False)                                               # rebuilt from the source
    assert kv.index_to_key == list(WORDS)
    with pytest.raises(Exception, match="names must be a list"):
        E.clear_caches("a.txt")


def test_cache_dir_parameter_and_platform_default(tmp_path, monkeypatch):
    from wordbias.core import paths

    path = write_file(tmp_path / "v.txt", text_bytes(WORDS, make_matrix(), header=False))
    E.load(path, progress=False, cache_dir=tmp_path / "mine")
    assert (tmp_path / "mine" / E.cache_dir_for(path).name / "meta.json").exists()
    monkeypatch.delenv("WORDBIAS_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert paths.cache_dir() == tmp_path / "xdg" / "wordbias"
    with pytest.raises(Exception, match="cache_dir must be a folder path"):
        E.load(path, cache_dir=3)
