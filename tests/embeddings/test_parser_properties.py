"""Property-based tests of the embedding parsers: any list of distinct words with finite, non-zero
float32 vectors written as GloVe text, word2vec text or word2vec binary parses back to the same words and the
same float32 values; and corrupting the bytes of such a file never fails with anything but
EmbeddingFormatError (or a clean load)."""
from __future__ import annotations

import gzip
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordbias import embeddings as E
from wordbias.core.errors import CacheError, EmbeddingFormatError

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# words: no ASCII whitespace (the field separator), no BOM, not all digits (a GloVe first line "12 3" would
# read as a word2vec header), no surrogates
_CHARS = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
                       blacklist_characters=" \t\n\r\x0b\x0c\ufeff\x85")
WORD = st.text(_CHARS, min_size=1, max_size=8).filter(lambda w: not w.isdigit() and w.strip() == w)
FLOAT = st.floats(width=32, allow_nan=False, allow_infinity=False)


@st.composite
def embeddings(draw):
    dim = draw(st.integers(1, 5))
    words = draw(st.lists(WORD, min_size=1, max_size=8, unique=True))
    rows = draw(st.lists(st.lists(FLOAT, min_size=dim, max_size=dim).filter(any), min_size=len(words),
                         max_size=len(words)))
    return words, np.array(rows, dtype=np.float32).reshape(len(words), dim)


def _fmt(x) -> str:
    return np.format_float_positional(np.float32(x), unique=True, trim="-")


def _text(words, matrix, header: bool) -> bytes:
    lines = [w + " " + " ".join(_fmt(x) for x in row) for w, row in zip(words, matrix)]
    if header:
        lines.insert(0, f"{len(words)} {matrix.shape[1]}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _binary(words, matrix) -> bytes:
    return f"{len(words)} {matrix.shape[1]}\n".encode() + b"".join(
        w.encode("utf-8") + b" " + row.astype("<f4").tobytes() for w, row in zip(words, matrix))


WRITERS = {
    "glove": lambda w, m: _text(w, m, header=False),
    "word2vec-text": lambda w, m: _text(w, m, header=True),
    "word2vec-binary": _binary,
}


def _round_trip(tmp_path, fmt, words, matrix, suffix=""):
    path = tmp_path / f"e-{fmt}.txt{suffix}"
    data = WRITERS[fmt](words, matrix)
    path.write_bytes(gzip.compress(data) if suffix == ".gz" else data)
    got_words, got = E.read_vectors(path, format=fmt, progress=False)
    assert got_words == words
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, matrix)


@SETTINGS
@given(emb=embeddings())
def test_glove_text_round_trip(tmp_path, emb):
    _round_trip(tmp_path, "glove", *emb)


@SETTINGS
@given(emb=embeddings())
def test_word2vec_text_round_trip(tmp_path, emb):
    _round_trip(tmp_path, "word2vec-text", *emb)


@SETTINGS
@given(emb=embeddings())
def test_word2vec_binary_round_trip(tmp_path, emb):
    _round_trip(tmp_path, "word2vec-binary", *emb)
    _round_trip(tmp_path, "word2vec-binary", *emb, suffix=".gz")


@SETTINGS
@given(emb=embeddings(), fmt=st.sampled_from(sorted(WRITERS)), detect=st.booleans())
def test_detection_and_cache_round_trip(tmp_path, emb, fmt, detect):
    words, matrix = emb
    path = tmp_path / ("e.bin" if fmt == "word2vec-binary" else "e.txt")
    path.write_bytes(WRITERS[fmt](words, matrix))
    kv = E.load(path, format=None if detect else fmt, progress=False)
    assert kv.index_to_key == words
    np.testing.assert_array_equal(np.asarray(kv.vectors), matrix)


@st.composite
def corruptions(draw):
    """A list of edits: (kind, position as a fraction of the length, byte)."""
    return draw(st.lists(st.tuples(st.sampled_from(["flip", "insert", "delete", "truncate"]),
                                   st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=4))


def _corrupt(data: bytes, edits) -> bytes:
    out = bytearray(data)
    for kind, where, byte in edits:
        i = min(int(where * len(out)), max(len(out) - 1, 0))
        if kind == "flip" and out:
            out[i] = byte
        elif kind == "insert":
            out.insert(i, byte)
        elif kind == "delete" and out:
            del out[i]
        elif kind == "truncate":
            del out[i:]
    return bytes(out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(emb=embeddings(), fmt=st.sampled_from(sorted(WRITERS)), edits=corruptions(), gz=st.booleans(),
       detect=st.booleans(), cache=st.booleans())
def test_corrupted_bytes_fail_cleanly(tmp_path, emb, fmt, edits, gz, detect, cache):
    data = WRITERS[fmt](*emb)
    if gz:
        data = _corrupt(gzip.compress(data), edits)
    else:
        data = _corrupt(data, edits)
    path = tmp_path / ("c.bin" if fmt == "word2vec-binary" else "c.txt")
    if gz:
        path = path.with_name(path.name + ".gz")
    path.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate words, invalid UTF-8: warned about, not the point here
        try:
            kv = E.load(path, format=None if detect else fmt, progress=False, cache=cache)
        except (EmbeddingFormatError, CacheError):
            return
    assert len(kv.index_to_key) == kv.vectors.shape[0] > 0
    assert np.isfinite(np.asarray(kv.vectors)).all()
