"""Embeddings a researcher already holds: gensim's own files and objects, word->vector maps."""
from __future__ import annotations

import numpy as np
import pytest
from gensim.models import FastText, KeyedVectors, Word2Vec

from wordbias import cli
from wordbias import embeddings as E
from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError

SENTENCES = [["the", "king", "rules", "the", "land"], ["the", "queen", "rules", "too"]] * 20


@pytest.fixture(scope="module")
def model():
    return Word2Vec(SENTENCES, vector_size=8, min_count=1, seed=1, workers=1)


def test_gensim_files_load_by_suffix_and_by_content(tmp_path, model):
    model.save(str(tmp_path / "w.model"))
    model.wv.save(str(tmp_path / "w.kv"))
    model.wv.save(str(tmp_path / "w.pkl-named-anything"))
    for name in ("w.model", "w.kv", "w.pkl-named-anything"):
        assert E.detect_format(tmp_path / name) == "gensim"
        kv = E.load(tmp_path / name)
        assert kv.index_to_key == model.wv.index_to_key
        assert np.array_equal(kv.vectors, model.wv.vectors) and kv.vectors.dtype == np.float32


def test_large_arrays_are_memory_mapped(tmp_path):
    big = KeyedVectors(300)
    big.add_vectors([f"w{i}" for i in range(1_000)], np.random.default_rng(0).normal(size=(1_000, 300)))
    big.save(str(tmp_path / "big.kv"), sep_limit=1_000)  # gensim stores the matrix in big.kv.vectors.npy
    kv = E.load(tmp_path / "big.kv")
    assert isinstance(kv.vectors, np.memmap) and not kv.vectors.flags.writeable
    (tmp_path / "big.kv.vectors.npy").unlink()
    with pytest.raises(EmbeddingFormatError, match=r"big\.kv: gensim's file refers to .*big\.kv\.vectors\.npy"):
        E.load(tmp_path / "big.kv")


def test_objects_in_memory(model):
    assert E.load(model.wv) is model.wv                   # float32 KeyedVectors: passed through
    assert E.load(model).index_to_key == model.wv.index_to_key
    ft = FastText(SENTENCES, vector_size=6, min_count=1, seed=1, workers=1)
    assert E.load(ft).vectors.shape == (len(ft.wv.index_to_key), 6)
    kv = E.load({"king": np.array([1.0, 2.0]), "queen": [2, 1]})
    assert kv.index_to_key == ["king", "queen"] and kv.vectors.dtype == np.float32


def test_float64_keyed_vectors_become_float32():
    kv64 = E.to_keyed_vectors(["a", "b"], np.array([[1.0, 2.0], [3.0, 4.0]]))
    kv = E.load(kv64)
    assert kv.vectors.dtype == np.float32 and kv.index_to_key == ["a", "b"]


@pytest.mark.parametrize("bad, match", [
    ({"a": [1, 2], "b": [1]}, r"vectors of different lengths \(2 for 'a', 1 for 'b'\)"),
    ({"a": [1, 2], 3: [1, 2]}, r"every key must be a non-empty word"),
    ({}, r"mapping is empty"),
    ({"a": [0.0, 0.0]}, r"the vector of 'a' \(row 0\) is all zeros"),
    ({"a": [np.nan, 1.0]}, r"the vector of 'a' \(row 0\) holds a non-finite value"),
    ({"a": "one two"}, r"the vector of 'a' must be a list of numbers, not the string"),
    ({"a": [[1.0, 2.0]]}, r"the vector of 'a' must be a list of numbers \(1-D\), not an array of shape \(1, 2\)"),
    (42, r"name_or_path must be a registered embedding name"),
])
def test_bad_objects_are_refused_clearly(bad, match):
    with pytest.raises(InvalidParameterError, match=match):
        E.load(bad)


def test_a_damaged_gensim_file(tmp_path):
    (tmp_path / "junk.kv").write_bytes(b"\x80\x04garbage")
    with pytest.raises(EmbeddingFormatError, match=r"junk\.kv: not a file gensim can load"):
        E.load(tmp_path / "junk.kv")


def test_the_command_reads_a_gensim_file(tmp_path, model, capsys):
    """`wordbias weat gap.kv` reads gensim's pickle, not word2vec text (which fails: "wrong number of values")."""
    model.wv.save(str(tmp_path / "gap.kv"))
    cli.main(["weat", str(tmp_path / "gap.kv"), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    # read as an embedding: the tests run and stop at the lists' words this toy vocabulary lacks
    assert "wrong number of values" not in err and "set 'Flowers' is empty after dropping unknown words" in err
