"""Catalogue cases for the embedding loaders ("Silent wrong results" and "Raw or misleading errors"
of embedding files): each malformed file raises EmbeddingFormatError naming the file, the line or byte offset
and the reason; bad arguments raise InvalidParameterError. Right answers (a BOM is skipped, zero vectors kept
when asked) are plain tests below the table."""
import gzip
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from catalogue import Case, check

from wordbias import embeddings as E
from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError

F = "loaders"


def _file(name: str, data: bytes) -> Path:
    """A new file ``name`` holding ``data`` in a fresh temporary folder (each case gets its own)."""
    path = Path(tempfile.mkdtemp(prefix="wb-loaders-")) / name
    path.write_bytes(data)
    return path


def _load(name: str, data: bytes, **kwargs):
    return lambda: E.load(_file(name, data), progress=False, **kwargs)


def _binary(words, rows) -> bytes:
    rows = np.asarray(rows, dtype="<f4")
    return f"{len(words)} {rows.shape[1]}\n".encode() + b"".join(
        w.encode() + b" " + r.tobytes() for w, r in zip(words, rows))


GOOD = b"the 0.1 0.2 0.3\nof 0.4 0.5 0.6\n"
TEXT_W2V = b"2 3\nthe 0.1 0.2 0.3\nof 0.4 0.5 0.6\n"

CASES_LOADERS = [
    Case(F, "empty file", _load("empty.txt", b""), EmbeddingFormatError, match=r"empty\.txt: no vectors"),
    Case(F, "blank-line file", _load("blank.txt", b"\n\n  \n"), EmbeddingFormatError, match=r"blank\.txt: no vectors"),
    Case(F, "header '0 5' (text)", _load("zero.vec", b"0 5\n"), EmbeddingFormatError, match=r"zero\.vec: no vectors"),
    Case(F, "header '0 5' (binary)", _load("zero.bin", b"0 5\n"), EmbeddingFormatError,
         match=r"zero\.bin, byte offset 0: no vectors"),
    Case(F, "header '0 5' without cache", _load("zero.vec", b"0 5\n", cache=False), EmbeddingFormatError,
         match="no vectors"),
    Case(F, "header '3 2' over 3-value rows", _load("h.txt", b"3 2\na 1 2 3\nb 4 5 6\nc 7 8 9\n",
                                                    format="word2vec-text"),
         EmbeddingFormatError, match=r"h\.txt, line 2: wrong number of values: expected a word and 2 values, found 3"),
    Case(F, "GloVe row with one extra value", _load("x.txt", b"the 0.1 0.2\nof 0.3 0.4 0.5\n"), EmbeddingFormatError,
         match=r"x\.txt, line 2: wrong number of values.*found 3"),
    Case(F, "GloVe row with one value missing", _load("m.txt", b"the 0.1 0.2\nof 0.3\n"), EmbeddingFormatError,
         match=r"m\.txt, line 2: wrong number of values.*found 1 value"),
    Case(F, "NaN value", _load("nan.txt", b"the 0.1 0.2\nof nan 0.4\n"), EmbeddingFormatError,
         match=r"nan\.txt, line 2: word b'of': non-finite value"),
    Case(F, "inf value", _load("inf.txt", b"the 0.1 0.2\nof 0.3 -inf\n"), EmbeddingFormatError,
         match=r"inf\.txt, line 2: word b'of': non-finite value"),
    Case(F, "1e40 (float32 overflow)", _load("big.txt", b"the 1e40 0.2\nof 0.3 0.4\n"), EmbeddingFormatError,
         match=r"big\.txt, line 1: word b'the': non-finite value.*float32 range"),
    Case(F, "NaN in a word2vec binary file", _load("nan.bin", _binary(["a", "b"], [[1, 2], [np.nan, 1]])),
         EmbeddingFormatError, match=r"nan\.bin, record 2 .*word b'b': non-finite"),
    Case(F, "all-zero row", _load("zero.txt", b"the 0.1 0.2\n\nof 0 0\n"), EmbeddingFormatError,
         match=r"zero\.txt, line 3: word b'of': the vector is all zeros.*zero_vectors='keep'"),
    Case(F, "all-zero row (binary)", _load("zero.bin", _binary(["a", "b"], [[0, 0], [1, 1]])), EmbeddingFormatError,
         match=r"record 1 .*word b'a': the vector is all zeros"),
    Case(F, "format='word2vec-binary' on a text file", _load("t.txt", TEXT_W2V, format="word2vec-binary"),
         EmbeddingFormatError, match=r"t\.txt, byte offset 4: the file is text.*format='word2vec-text'"),
    Case(F, "a .bin file that is text", _load("t.bin", TEXT_W2V), EmbeddingFormatError, match="the file is text"),
    Case(F, "truncated .gz", _load("cut.txt.gz", gzip.compress(GOOD * 200)[:-30]), EmbeddingFormatError,
         match=r"cut\.txt\.gz: the compressed file ends early"),
    Case(F, "truncated .gz without cache", _load("cut.txt.gz", gzip.compress(GOOD * 200)[:-30], cache=False),
         EmbeddingFormatError, match=r"cut\.txt\.gz: the compressed file ends early"),
    Case(F, "BadGzipFile", _load("bad.txt.gz", b"this is not gzip data\n"), EmbeddingFormatError,
         match=r"bad\.txt\.gz: damaged compressed file \(BadGzipFile"),
    Case(F, "BadZipFile", _load("bad.zip", b"PK this is not a zip"), EmbeddingFormatError,
         match=r"bad\.zip: damaged compressed file \(BadZipFile"),
    Case(F, "load(None)", lambda: E.load(None), InvalidParameterError,
         match="name_or_path must be a registered embedding name .* a path, .*; not None"),
    Case(F, "load(3)", lambda: E.load(3), InvalidParameterError, match="not 3 \\(int\\)"),
    Case(F, "unknown format", _load("g.txt", GOOD, format="glvoe"), InvalidParameterError,
         match="unknown embedding format 'glvoe'"),
    Case(F, "zero_vectors='drop'", _load("g.txt", GOOD, zero_vectors="drop"), InvalidParameterError,
         match="zero_vectors must be 'error' or 'keep'"),
]


@pytest.mark.parametrize("case", CASES_LOADERS, ids=lambda c: c.id)
def test_case(case):
    check(case)


def _zipped(name: str, member: str, data: bytes) -> Path:
    path = Path(tempfile.mkdtemp(prefix="wb-loaders-")) / name
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(member, data)
    return path


@pytest.mark.parametrize("cache", [False, True])
@pytest.mark.parametrize("name, data, fmt", [
    ("bom.txt", b"\xef\xbb\xbf" + GOOD, None),
    ("bom.vec", b"\xef\xbb\xbf" + TEXT_W2V, None),  # before a word2vec header: still detected as one
    ("bom.bin", b"\xef\xbb\xbf" + _binary(["the", "of"], [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]), None),
    ("bom.txt.gz", gzip.compress(b"\xef\xbb\xbf" + TEXT_W2V, mtime=0), None),
])
def test_bom_is_skipped(name, data, fmt, cache):
    path = _file(name, data)
    if path.suffix == ".vec":
        assert E.detect_format(path) == "fasttext-vec"
    kv = E.load(path, cache=cache, format=fmt, progress=False)
    assert kv.index_to_key == ["the", "of"]
    np.testing.assert_array_equal(kv.vectors, np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], dtype=np.float32))


def test_bom_in_a_zip_member():
    kv = E.load(_zipped("v.zip", "v.txt", b"\xef\xbb\xbf" + GOOD), progress=False)
    assert kv.index_to_key == ["the", "of"]


@pytest.mark.parametrize("cache", [False, True])
def test_zero_vectors_kept_when_asked(cache):
    path = _file("zero.txt", b"the 0.1 0.2\nof 0 0\n")
    kv = E.load(path, zero_vectors="keep", cache=cache, progress=False)
    assert kv.index_to_key == ["the", "of"] and not kv["of"].any()
    if cache:  # a strict load afterwards does not get the cache built with zero rows kept
        with pytest.raises(EmbeddingFormatError, match="all zeros"):
            E.load(path, progress=False)


def test_glove_840b_words_with_spaces_still_load():
    kv = E.load(_file("v.txt", b", 1 2 3\n. . . 4 5 6\nat name@domain.com 7 8 9\n"), progress=False)
    assert kv.index_to_key == [",", ". . .", "at name@domain.com"]
