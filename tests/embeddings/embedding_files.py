"""Helpers for the tests of wordbias.embeddings: tiny embedding files written in each format."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import numpy as np

WORDS = ["the", ",", "café", "Adam", "line\u2028sep", "nel\x85x", "nbsp\xa0x", "a.b"]


def make_matrix(n: int = len(WORDS), dim: int = 5, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)


def _fmt(x: np.float32) -> str:
    return np.format_float_positional(np.float32(x), unique=True, trim="-")


def _text_lines(words, vectors, trailing_space: bool = False) -> list[str]:
    end = " " if trailing_space else ""
    return [w + " " + " ".join(_fmt(v) for v in row) + end for w, row in zip(words, vectors)]


def text_bytes(words, vectors, *, header: bool, trailing_space: bool = False) -> bytes:
    lines = _text_lines(words, vectors, trailing_space)
    if header:
        lines.insert(0, f"{len(words)} {vectors.shape[1]}")
    return ("\n".join(lines) + "\n").encode("utf-8")


def binary_bytes(words, vectors, *, newline_after: bool = False) -> bytes:
    parts = [f"{len(words)} {vectors.shape[1]}\n".encode()]
    for w, row in zip(words, vectors):
        parts.append(w.encode("utf-8") + b" " + row.astype("<f4").tobytes() + (b"\n" if newline_after else b""))
    return b"".join(parts)


def write_file(path: Path, data: bytes, *, member: str | None = None) -> Path:
    """Write ``data`` plain, gzipped (``.gz``) or as the only member of a zip (``.zip``)."""
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(data))
    elif path.suffix == ".zip":
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(member or path.stem, data)
    else:
        path.write_bytes(data)
    return path


def assert_same(kv, words, vectors):
    assert kv.index_to_key == list(words)
    assert kv.vectors.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(kv.vectors), vectors)
    for i, w in enumerate(words):
        assert kv.key_to_index[w] == i


FORMAT_CASES = {
    "glove": (".txt", lambda w, v: text_bytes(w, v, header=False)),
    "word2vec-text": (".txt", lambda w, v: text_bytes(w, v, header=True)),
    "fasttext-vec": (".vec", lambda w, v: text_bytes(w, v, header=True, trailing_space=True)),
    "word2vec-binary": (".bin", lambda w, v: binary_bytes(w, v)),
}
