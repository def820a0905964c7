"""The word-lookup resolver: membership, vectors, word sets, pairs and two sets, with the unknown-word policy."""

import numpy as np
import pytest

from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError
from wordbias.embeddings import to_keyed_vectors


@pytest.fixture
def kv():
    return to_keyed_vectors(["a", "b", "c", "D"], np.arange(8, dtype=np.float32).reshape(4, 2))


# --------------------------------------------------------------------------------------------------
# membership and vectors
# --------------------------------------------------------------------------------------------------


def test_vocabulary_of_every_kind(kv):
    assert lookup.vocabulary(kv) is kv.key_to_index
    d = {"a": [1.0]}
    assert lookup.vocabulary(d) is d
    s = {"a"}
    assert lookup.vocabulary(s) is s
    assert lookup.vocabulary(["a", "b"]) == {"a", "b"}
    assert lookup.vocabulary(w for w in ["a", "b"]) == {"a", "b"}


def test_present_keeps_order(kv):
    assert lookup.present(kv, ["c", "zz", "a", "d"]) == (("c", "a"), ("zz", "d"))
    assert lookup.present(["x"], []) == ((), ())


def test_vectors_are_float64_in_word_order(kv):
    v = lookup.vectors(kv, ["c", "a"])
    assert v.dtype == np.float64
    np.testing.assert_array_equal(v, [[4.0, 5.0], [0.0, 1.0]])
    d = {"a": np.array([1, 2], dtype=np.float32), "b": [3, 4]}
    np.testing.assert_array_equal(lookup.vectors(d, ["b", "a"]), [[3.0, 4.0], [1.0, 2.0]])
    assert lookup.vectors(d, ["a"]).dtype == np.float64


# --------------------------------------------------------------------------------------------------
# word sets
# --------------------------------------------------------------------------------------------------


def test_word_set_drops_and_reports(kv):
    s = lookup.word_set(kv, ["c", "zz", "a"], name="X")
    assert (s.name, s.requested, s.words, s.missing, s.balanced_out) == ("X", ("c", "zz", "a"), ("c", "a"), ("zz",), ())
    with pytest.raises(KeyError, match=r"set 'X': 1 word\(s\) not in the embedding: \['zz'\]"):
        lookup.word_set(kv, ["c", "zz", "a"], name="X", on_missing="raise")
    with pytest.raises(ValueError, match="on_missing"):
        lookup.word_set(kv, ["a"], on_missing="fail")


def test_word_set_case_fold_duplicates_and_size(kv):
    s = lookup.word_set(kv, ["A", "B", "D"], case_fold=True)
    assert s.requested == ("a", "b", "d") and s.words == ("a", "b") and s.missing == ("d",)
    assert lookup.word_set(kv, ["D"]).words == ("D",)  # without folding, case is kept
    with pytest.raises(ValueError, match=r"more than once: \['a'\]"):
        lookup.word_set(kv, ["A", "a"], case_fold=True)
    with pytest.raises(DegenerateSetError, match=r"set 'X' is left with 1 word\(s\) \['a'\].*at least 2"):
        lookup.word_set(kv, ["a", "zz"], name="X", min_size=2)
    with pytest.raises(DegenerateSetError, match="set 'X' is empty"):
        lookup.word_set(kv, ["zz"], name="X")


# --------------------------------------------------------------------------------------------------
# pairs
# --------------------------------------------------------------------------------------------------


def test_pair_vectors_reports_missing_words():
    emb = {"she": np.array([1.0, 0.0]), "he": np.array([0.0, 1.0]), "her": np.array([2.0, 0.0])}
    found = lookup.pair_vectors(emb, [("she", "he"), ("her", "his"), ("gal", "guy")])
    assert found.pairs == (("she", "he"),)
    assert found.missing == ((("her", "his"), ("his",)), (("gal", "guy"), ("gal", "guy")))
    assert found.missing_words == ("his", "gal", "guy")
    np.testing.assert_array_equal(found.A, [[1.0, 0.0]])
    np.testing.assert_array_equal(found.B, [[0.0, 1.0]])
    with pytest.raises(KeyError, match=r"her/his \(missing his\); gal/guy \(missing gal, guy\)"):
        lookup.pair_vectors(emb, [("she", "he"), ("her", "his"), ("gal", "guy")], on_missing="raise")
    with pytest.raises(DegenerateSetError, match=r"missing: \['his', 'x'\]"):
        lookup.pair_vectors(emb, [("her", "his"), ("x", "she")])
    with pytest.raises(DegenerateSetError, match="no pairs given"):
        lookup.pair_vectors(emb, [])
    with pytest.raises(ValueError, match="same word twice"):
        lookup.pair_vectors(emb, [("she", "she")])
    with pytest.raises(ValueError, match="not a pair"):
        lookup.pair_vectors(emb, [("she", "he", "her")])


def test_pair_vectors_keyed_vectors():
    from wordbias.embeddings import to_keyed_vectors

    kv = to_keyed_vectors(["a", "b", "c"], np.arange(6, dtype=np.float32).reshape(3, 2))
    found = lookup.pair_vectors(kv, [("c", "a"), ("b", "z")])
    assert found.A.dtype == np.float64
    np.testing.assert_array_equal(found.A, [[4.0, 5.0]])
    np.testing.assert_array_equal(found.B, [[0.0, 1.0]])
    assert found.missing_words == ("z",)


def test_pair_vectors_case_fold_and_no_minimum(kv):
    found = lookup.pair_vectors(kv, [("C", "A"), ("B", "ZZ")], case_fold=True)
    assert found.pairs == (("c", "a"),) and found.missing == ((("b", "zz"), ("zz",)),)
    none = lookup.pair_vectors(kv, [("x", "y")], min_pairs=0)
    assert none.pairs == () and none.A.shape == (0, 2) and none.missing_words == ("x", "y")


# --------------------------------------------------------------------------------------------------
# two sets
# --------------------------------------------------------------------------------------------------


def test_set_vectors():
    x = np.eye(3)
    with pytest.raises(ValueError, match=r"\['b'\]"):
        lookup.set_vectors({"a": x[0], "b": x[1]}, ["a", "b"], ["b"])
    sv = lookup.set_vectors({"a": x[0], "b": x[1]}, ["a", "zz"], ["b"])
    assert sv.words == (("a",), ("b",)) and sv.missing == (("zz",), ())
    np.testing.assert_array_equal(sv.A, [x[0]])
    np.testing.assert_array_equal(sv.B, [x[1]])


def test_set_vectors_errors_and_policy(kv):
    with pytest.raises(ValueError, match="more than once"):
        lookup.set_vectors(kv, ["a", "a"], ["b"])
    with pytest.raises(DegenerateSetError, match="second set' is empty"):
        lookup.set_vectors(kv, ["a"], ["zz"], name="s")
    with pytest.raises(KeyError, match="zz"):
        lookup.set_vectors(kv, ["a"], ["b", "zz"], on_missing="raise")
    folded = lookup.set_vectors(kv, ["A"], ["B", "C"], case_fold=True)
    assert folded.words == (("a",), ("b", "c"))
    with pytest.raises(ValueError, match="share words"):
        lookup.set_vectors(kv, ["A"], ["a"], case_fold=True)
