"""The stored vocabulary index (wordbias.embeddings.vocab_index) and caches that use it."""

import pickle

import numpy as np
import pytest

from wordbias import embeddings as E
from wordbias.embeddings import vocab_index as V


def test_fnv1a_published_vectors():
    # test vectors of the FNV reference (http://www.isthe.com/chongo/src/fnv/test_fnv.c): FNV-1a 64-bit
    assert V.fnv1a_64(b"") == 0xCBF29CE484222325
    assert V.fnv1a_64(b"a") == 0xAF63DC4C8601EC8C
    assert V.fnv1a_64(b"foobar") == 0x85944171F73967E8


def test_vectorised_hash_equals_scalar():
    rng = np.random.default_rng(0)
    alphabet = list("abcxyzé_ñ漢字") + ["\u2028", "😀"]
    words = ["".join(rng.choice(alphabet, size=rng.integers(1, 40))) for _ in range(2000)] + ["a", "ab"]
    data = "".join(w + "\n" for w in words).encode("utf-8")
    table = V.build_index(data)
    expected = np.array([V.fnv1a_64(w.encode("utf-8")) for w in words], dtype=np.uint64)
    assert np.array_equal(table[0], np.sort(expected))
    assert np.array_equal(expected[table[1].astype(np.int64)], table[0])  # each row's hash is its word's


def test_empty_vocabulary():
    table = V.build_index(b"")
    assert table.shape == (2, 0)
    index = V.VocabularyIndex([], table)
    assert len(index) == 0 and "a" not in index and index.get("a") is None


def _index(words):
    return V.VocabularyIndex(words, V.build_index("".join(w + "\n" for w in words).encode("utf-8")))


def test_lookups_agree_with_a_dict():
    words = [f"w{i}" for i in range(5000)] + ["Paris", "paris", "naïve", "new_york", "u.s."]
    index, truth = _index(words), {w: i for i, w in enumerate(words)}
    probes = words + ["W1", "absent", "", "w50000", "naive", 3, None, b"w1", "\ud800"]
    for w in probes:
        assert index.get(w, -1) == truth.get(w, -1), w
        assert (w in index) == (w in truth), w
    assert len(index) == len(truth) and list(index) == list(truth) and dict(index.items()) == truth
    with pytest.raises(KeyError):
        index["absent"]


def test_collisions_are_resolved_by_the_word(monkeypatch):
    """Words sharing a hash (forced here: the hash is the word's length) each find their own row."""
    words = ["ab", "cd", "ef", "xyz", "q"]
    lengths = np.array([len(w) for w in words], dtype=np.uint64)
    order = np.argsort(lengths, kind="stable")
    table = np.stack([lengths[order], order.astype(np.uint64)])
    monkeypatch.setattr(V, "fnv1a_64", lambda data: len(data))
    index = V.VocabularyIndex(words, table)
    assert [index[w] for w in words] == [0, 1, 2, 3, 4]
    assert "gh" not in index  # same hash as ab/cd/ef, another word


def test_a_wrong_index_never_gives_another_word():
    """An index pointing a word at the wrong row (damage the checksums would catch first) finds nothing."""
    words = ["king", "queen"]
    table = V.build_index(b"king\nqueen\n")
    table[1] = table[1][::-1].copy()
    index = V.VocabularyIndex(words, table)
    assert index.get("king", -1) == -1 and index.get("queen", -1) == -1


def test_switches_to_a_dict_after_its_budget():
    words = [f"w{i}" for i in range(8000)]
    index = _index(words)
    assert index._dict is None
    for w in words[:2000]:  # the budget is max(1024, n // 4) = 2000 hashed lookups
        assert index[w] == int(w[1:])
    assert index._dict is None
    assert index["w7999"] == 7999 and index._dict is not None
    assert index.get("absent", -1) == -1 and len(index) == 8000


def test_writes_and_pickle_give_a_plain_dict():
    words = ["a", "b"]
    index = _index(words)
    index["c"] = 2
    words.append("c")
    assert index["c"] == 2 and len(index) == 3 and dict(index.items()) == {"a": 0, "b": 1, "c": 2}
    del index["a"]
    assert "a" not in index
    restored = pickle.loads(pickle.dumps(_index(["x", "y"])))
    assert type(restored) is dict and restored == {"x": 0, "y": 1}


def test_cache_opens_with_the_index_and_gensim_works(tmp_path):
    rng = np.random.default_rng(1)
    words = [f"word{i}" for i in range(300)] + ["Paris", "paris"]
    vectors = rng.normal(size=(len(words), 8)).astype(np.float32)
    folder = E.save(E.to_keyed_vectors(words, vectors), tmp_path / "c")
    kv = E.open_cache(folder)
    assert isinstance(kv.key_to_index, V.VocabularyIndex)
    plain = E.to_keyed_vectors(list(words), vectors.copy())
    assert np.array_equal(kv["Paris"], vectors[300]) and np.array_equal(kv["paris"], vectors[301])
    assert "PARIS" not in kv and kv.get_index(5) == 5  # gensim: an int is a row
    assert kv.most_similar("word3", topn=5) == plain.most_similar("word3", topn=5)
    assert kv.rank("word1", "word2") == plain.rank("word1", "word2")
    kv2 = E.open_cache(folder, mmap_mode=None)
    kv2.add_vectors(["new"], np.ones((1, 8), dtype=np.float32))  # gensim writes key_to_index
    assert kv2.get_index("new") == len(words) and np.array_equal(kv2["new"], np.ones(8, dtype=np.float32))


def test_version_2_caches_still_open(tmp_path):
    """A cache written before the index (version 2) opens with a dict."""
    import json

    folder = E.save(E.to_keyed_vectors(["a", "b"], np.eye(2, dtype=np.float32)), tmp_path / "c")
    (folder / "vocab_index.npy").unlink()
    meta = json.loads((folder / "meta.json").read_text())
    meta["wordbias_cache_version"] = 2
    for key in ("index_bytes", "index_sha256"):
        del meta["checksums"][key]
    (folder / "meta.json").write_text(json.dumps(meta))
    kv = E.open_cache(folder)
    assert type(kv.key_to_index) is dict and kv.get_index("b") == 1
