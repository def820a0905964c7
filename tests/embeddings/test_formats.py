"""Tests for wordbias.embeddings.formats (with .text_format and .binary_format) and .reader: every format and
container, and errors that name the file and the line or byte offset at fault."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from embedding_files import FORMAT_CASES, WORDS, assert_same, binary_bytes, make_matrix, text_bytes, write_file

from wordbias import embeddings as E
from wordbias.core.errors import DuplicateWordsWarning, EmbeddingFormatError
from wordbias.embeddings import binary_format, formats, reader, text_format

# --------------------------------------------------------------------------------------------------
# Round trips in every format and container
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("container", ["", ".gz", ".zip"])
@pytest.mark.parametrize("fmt", list(FORMAT_CASES))
@pytest.mark.parametrize("cache", [False, True])
def test_round_trip(tmp_path, fmt, container, cache):
    ext, writer = FORMAT_CASES[fmt]
    vectors = make_matrix()
    name = "vectors" + ext
    path = write_file(tmp_path / (name + container), writer(WORDS, vectors), member=name)
    assert E.detect_format(path) == fmt
    kv = E.load(path, cache=cache, progress=False)
    assert_same(kv, WORDS, vectors)
    assert E.cache_dir_for(path, member=name if container == ".zip" else None).exists() == cache
    # explicit format gives the same
    assert_same(E.load(path, format=fmt, cache=False), WORDS, vectors)


def test_binary_with_newline_after_each_record(tmp_path):
    vectors = make_matrix()
    path = write_file(tmp_path / "c_tool.bin", binary_bytes(WORDS, vectors, newline_after=True))
    assert_same(E.load(path, cache=False), WORDS, vectors)


def test_binary_without_bin_extension_is_detected(tmp_path):
    path = write_file(tmp_path / "vectors.w2v", binary_bytes(WORDS, make_matrix()))
    assert E.detect_format(path) == "word2vec-binary"


def test_read_vectors_returns_words_and_matrix(tmp_path):
    vectors = make_matrix()
    path = write_file(tmp_path / "v.txt", text_bytes(WORDS, vectors, header=False))
    words, matrix = E.read_vectors(path)
    assert words == WORDS
    np.testing.assert_array_equal(matrix, vectors)


@pytest.mark.parametrize("fmt", ["glove", "word2vec-text", "word2vec-binary"])
def test_many_blocks(tmp_path, monkeypatch, fmt):
    """Files spanning many read blocks parse identically (block boundaries fall inside lines/records)."""
    monkeypatch.setattr(formats, "_BLOCK_BYTES", 997)
    n = 3000
    words = [f"w{i}" for i in range(n)]
    vectors = make_matrix(n, 7, seed=1)
    ext, writer = FORMAT_CASES[fmt]
    path = write_file(tmp_path / ("many" + ext), writer(words, vectors))
    for cache in (False, True):
        assert_same(E.load(path, format=fmt, cache=cache, progress=False), words, vectors)


def test_text_variants_crlf_tabs_blank_lines_scientific(tmp_path):
    data = b"a 1 2 3\r\nb\t4\t5\t6\n\nc 1e-3 -2.5E+2 7\n   \nd 7 8 9 \n"
    path = write_file(tmp_path / "v.txt", data)
    kv = E.load(path, cache=False)
    assert kv.index_to_key == ["a", "b", "c", "d"]
    np.testing.assert_array_equal(kv.vectors[:2], np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32))
    assert kv.vectors[2, 0] == np.float32(1e-3) and kv.vectors[2, 1] == np.float32(-250.0)
    # a NaN is refused, naming the line (blank lines counted)
    write_file(path, data.replace(b" 7\n", b" nan\n"))
    with pytest.raises(EmbeddingFormatError, match=r"v\.txt, line 4: word b'c': non-finite value"):
        E.load(path, cache=False)


def test_words_with_spaces_glove_840b_style(tmp_path):
    data = b", 1 2 3\n. . . 4 5 6\nat name@domain.com 7 8 9\nx 1 1 1\n"
    path = write_file(tmp_path / "v.txt", data)
    kv = E.load(path, cache=True)
    assert kv.index_to_key == [",", ". . .", "at name@domain.com", "x"]
    np.testing.assert_array_equal(kv[". . ."], [4, 5, 6])
    # through the cache too
    assert E.load(path).index_to_key == kv.index_to_key


def test_duplicates_keep_first_and_warn(tmp_path):
    data = b"a 1 2\nb 3 4\na 5 6\nc 7 8\n"
    path = write_file(tmp_path / "dup.txt", data)
    with pytest.warns(DuplicateWordsWarning, match="'a'"):
        kv = E.load(path, cache=False)
    assert kv.index_to_key == ["a", "b", "c"]
    np.testing.assert_array_equal(kv["a"], [1, 2])
    np.testing.assert_array_equal(kv["c"], [7, 8])
    with pytest.warns(DuplicateWordsWarning):
        kv2 = E.load(path, cache=True)
    np.testing.assert_array_equal(np.asarray(kv2.vectors), kv.vectors)
    meta = json.loads((E.cache_dir_for(path) / "meta.json").read_text())
    assert meta["duplicates_dropped"] == 1


def test_zip_with_several_members(tmp_path):
    vectors = make_matrix()
    path = tmp_path / "glove.6B.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("glove.6B.50d.txt", text_bytes(WORDS, vectors[:, :2], header=False))
        zf.writestr("glove.6B.300d.txt", text_bytes(WORDS, vectors, header=False))
    with pytest.raises(ValueError, match="member="):
        E.load(path)
    assert_same(E.load(path, member="glove.6B.300d.txt"), WORDS, vectors)
    assert_same(E.load(path, member="glove.6B.50d.txt", cache=False), WORDS, vectors[:, :2])


# --------------------------------------------------------------------------------------------------
# Malformed files: errors name the file and the line / byte offset
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content, fmt, pattern",
    [
        ("a 1 2 3\nb 4 5\nc 7 8 9\n", "glove", r"line 2: wrong number of values.*a word and 3 values, found 2"),
        ("a 1 2 3\nb 4 5 6\nc 7 x 9\n", "glove", r"line 3: non-numeric value b'x'"),
        ("a 1 2 3\nb 4 5 6\nc\n", "glove", r"line 3: wrong number of values.*found 0 values"),
        ("3 3\na 1 2 3\nb 4 5 6 7 8\nc 7 8 9\n", "word2vec-text", r"line 3: wrong number of values.*found 5"),
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
    path = write_file(tmp_path / "bad.txt", content.encode())
    for cache in (False, True):
        with pytest.raises(ValueError, match=pattern) as info:
            E.load(path, format=fmt, cache=cache)
        assert str(path) in str(info.value)
    assert not E.cache_dir_for(path).exists()  # no half-written cache left behind


def test_malformed_line_far_into_a_gz_file(tmp_path, monkeypatch):
    monkeypatch.setattr(formats, "_BLOCK_BYTES", 4096)
    lines = [f"w{i} 1 2 3" for i in range(5000)]
    lines[4321] = "w4321 1 2 3 oops"  # too many fields -> word 'w4321 1', value 'oops'
    path = write_file(tmp_path / "big.txt.gz", ("\n".join(lines) + "\n").encode())
    with pytest.raises(ValueError, match=r"big\.txt\.gz, line 4322: wrong number of values"):
        E.load(path, cache=False)
    lines[4321] = "w4321 1 2"
    path = write_file(tmp_path / "big.txt.gz", ("\n".join(lines) + "\n").encode())
    with pytest.raises(ValueError, match=r"line 4322: wrong number of values"):
        E.load(path, cache=False)


def _bin_error(tmp_path, data: bytes, pattern: str):
    path = write_file(tmp_path / "bad.bin", data)
    with pytest.raises(ValueError, match=pattern) as info:
        E.load(path, cache=False)
    assert str(path) in str(info.value)


def test_malformed_binary_truncated_record(tmp_path):
    vectors = make_matrix(3, 4)
    data = binary_bytes(["a", "b", "c"], vectors)
    header = len(b"3 4\n")
    offset_c = header + 2 * (2 + 16)
    _bin_error(tmp_path, data[:-5], rf"byte offset {offset_c}: truncated binary record for word b'c'.*found 11")


def test_malformed_binary_header_count(tmp_path):
    vectors = make_matrix(3, 4)
    data = binary_bytes(["a", "b", "c"], vectors)
    _bin_error(tmp_path, b"4 4\n" + data[4:], r"byte offset \d+: header count mismatch: header says 4.*after 3")
    _bin_error(tmp_path, b"2 4\n" + data[4:], rf"byte offset {4 + 2 * 18}: header count mismatch: data after")


def test_binary_data_read_as_glove_fails_cleanly(tmp_path, monkeypatch):
    monkeypatch.setattr(text_format, "_MAX_LINE_BYTES", 1000)
    path = write_file(tmp_path / "noise.txt", b"x" * 5000)
    with pytest.raises(ValueError, match=r"noise\.txt, line 1: longer than 1000 bytes"):
        E.load(path, format="glove", cache=False)


def test_malformed_binary_header(tmp_path):
    _bin_error(tmp_path, b"abc\n" + b"\x00" * 40, r"byte offset 0: expected a header line")


def test_malformed_binary_no_space(tmp_path, monkeypatch):
    monkeypatch.setattr(binary_format, "_MAX_WORD_BYTES", 64)
    _bin_error(tmp_path, b"1 4\n" + b"x" * 200, r"byte offset 4: malformed record: no space")


@pytest.mark.parametrize("container", ["", ".gz"])
def test_binary_chunks_count_every_byte(tmp_path, container):
    """The chunks of a binary file (memory-mapped or streamed) cover its records, and their byte counts (which
    drive the progress bar) add up to the bytes after the header."""
    words = [f"w{i}" for i in range(50)]
    data = binary_bytes(words, make_matrix(50, 3), newline_after=True)
    path = write_file(tmp_path / ("v.bin" + container), data)
    with formats.open_source(path, None) as (stream, _total, _tell):
        chunks = list(binary_format.iter_binary(stream, str(path), None, records_per_chunk=7,
                                                 block_bytes=formats._BLOCK_BYTES))
    assert [len(w) for w, _block, _n in chunks] == [7] * 7 + [1]
    assert sum(n for _w, _block, n in chunks) == len(data) - len(b"50 3\n") - 1  # the last newline is not a record's


def test_progress_bar_for_large_sources_only(tmp_path, monkeypatch, capsys):
    path = write_file(tmp_path / "v.txt", text_bytes(WORDS, make_matrix(), header=False))
    E.load(path, cache=False)
    assert "reading v.txt" not in capsys.readouterr().err  # smaller than 20 MB: no bar
    monkeypatch.setattr(reader, "_PROGRESS_MIN_BYTES", 0)
    E.load(path, cache=False)
    assert "reading v.txt" in capsys.readouterr().err
    E.load(path, cache=False, progress=False)
    assert "reading v.txt" not in capsys.readouterr().err
