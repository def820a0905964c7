"""INLP (Ravfogel et al. 2020): the projection on synthetic data and on a toy embedding with a planted gender
direction."""

import numpy as np
import pytest

import wordbias as wb
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import inlp as I
from wordbias.options import Resampling

LETTERS = "abcdefghij"


def _names(prefix, n):
    return [prefix + a + b for a in LETTERS for b in LETTERS][:n]


def _toy_embedding(seed=0, d=12):
    """'he'/'she' and 60 male, 60 female, 200 neutral words; gender planted along e_0 (and weakly e_1)."""
    rng = np.random.default_rng(seed)
    male, female, neutral = _names("m", 60), _names("f", 60), _names("n", 200)
    words = ["he", "she"] + male + female + neutral
    vecs = rng.normal(size=(len(words), d))
    vecs[0, 0], vecs[1, 0] = 4.0, -4.0
    vecs[2:62, 0] += 2.5
    vecs[2:62, 1] += 0.8
    vecs[62:122, 0] -= 2.5
    vecs[62:122, 1] -= 0.8
    vecs[122:, 0] *= 0.05
    return to_keyed_vectors(words, vecs.astype(np.float32)), {"male": male, "female": female}


def test_projection_properties_and_accuracy_falls_to_chance():
    rng = np.random.default_rng(0)
    z = np.repeat([0, 1], 200)
    X = rng.normal(size=(400, 10))
    X[:, 0] += 3 * z - 1.5  # centred: the authors' classifier has no intercept
    X[:, 3] += z - 0.5
    P, report = I.inlp(X, z, n_iterations=6)
    assert np.allclose(P, P.T) and np.allclose(P @ P, P, atol=1e-10)
    assert np.allclose(report.basis.T @ report.basis, np.eye(report.rank), atol=1e-10)
    assert report.rank == 6 and report.iterations[0].dev_accuracy > 0.9
    assert report.accuracy_after < report.majority_accuracy + 0.12
    assert np.allclose(P @ report.basis, 0, atol=1e-10)


def test_three_classes_remove_up_to_three_dimensions_an_iteration():
    rng = np.random.default_rng(1)
    z = np.repeat([0, 1, 2], 100)
    X = rng.normal(size=(300, 20))
    X[:, 0] += 3 * (z == 0) - 1
    X[:, 1] += 3 * (z == 1) - 1
    _, report = I.inlp(X, z, n_iterations=2)  # one-vs-rest: k rows
    assert [it.rank_removed for it in report.iterations] == [3, 6]
    _, report = I.inlp(X, z, n_iterations=2, classifier="logistic")  # multinomial: k rows of rank k - 1
    assert [it.rank_removed for it in report.iterations] == [2, 4]


def test_stops_before_removing_every_dimension():
    rng = np.random.default_rng(2)
    z = np.repeat([0, 1, 2], 30)
    X = rng.normal(size=(90, 4))
    X[:, 0] += 2 * z - 2
    P, report = I.inlp(X, z, n_iterations=10)
    assert report.rank < 4 and report.stopped_early
    assert np.linalg.matrix_rank(P) >= 1


def test_min_accuracy_skips_classifiers():
    rng = np.random.default_rng(3)
    z = np.repeat([0, 1], 50)
    X = rng.normal(size=(100, 5))  # nothing to learn
    _, report = I.inlp(X, z, n_iterations=3, min_accuracy=0.99)
    assert report.rank == 0 and not any(it.used for it in report.iterations)


def test_same_seed_same_bytes_other_seed_other_split():
    kv, classes = _toy_embedding()
    a, ra = I.inlp_debias(kv, classes, n_iterations=3, seed=5)
    b, rb = I.inlp_debias(kv, classes, n_iterations=3, seed=5)
    assert a.vectors.tobytes() == b.vectors.tobytes() and ra.basis.tobytes() == rb.basis.tobytes()
    _, rc = I.inlp_debias(kv, classes, n_iterations=3, seed=6)
    assert [it.dev_accuracy for it in rc.iterations] != [it.dev_accuracy for it in ra.iterations]


def test_inlp_debias_removes_the_planted_direction():
    kv, classes = _toy_embedding()
    out, report = I.inlp_debias(kv, classes, n_iterations=4, label="toy")
    assert report.label == "toy+inlp" and report.rank == 4
    assert report.iterations[0].dev_accuracy > 0.95
    assert report.accuracy_after < 0.75
    # every vector, neutral words included, has no component left in the removed space
    assert np.abs(out.vectors @ report.basis).max() < 1e-5
    # the planted direction is (mostly) in the removed space: the gap between the classes along it closes
    m = np.array([kv.key_to_index[w] for w in classes["male"]])
    f = np.array([kv.key_to_index[w] for w in classes["female"]])
    gap = lambda v: v[m, 0].mean() - v[f, 0].mean()  # noqa: E731
    assert gap(kv.vectors) > 4.5 and abs(gap(out.vectors)) < 0.5
    assert out.vectors.dtype == np.float32 and out.index_to_key == kv.index_to_key
    m, f = classes["male"][:8], classes["female"][:8]
    r = wb.weat(out, m, f, _names("n", 4), _names("n", 8)[4:],
                resampling=Resampling(n_resamples=0, n_permutations=100_000))
    assert np.isfinite(r.effect_size)


def test_in_place_equals_new_matrix():
    kv, classes = _toy_embedding()
    a, _ = I.inlp_debias(kv, classes, n_iterations=2)
    own = kv.vectors.copy()
    kv2 = to_keyed_vectors(list(kv.index_to_key), own)
    b, _ = I.inlp_debias(kv2, classes, n_iterations=2, out=own)
    assert b.vectors is own and np.array_equal(a.vectors, own)


def test_biased_words_selection():
    kv, _ = _toy_embedding()
    b = I.biased_words(kv, n_per_class=10, n_neutral=5, neutral_eps=0.2)
    assert b.male[0] == "he" and b.female[0] == "she"
    assert sum(w.startswith("m") for w in b.male[1:]) == 9 and sum(w.startswith("f") for w in b.female[1:]) == 9
    assert len(b.neutral) == 5 and all(w.startswith("n") for w in b.neutral)
    assert I.biased_words(kv, n_per_class=10, n_neutral=5, neutral_eps=0.2) == b
    assert set(b.as_classes(neutral=False)) == {"male", "female"}
    with pytest.raises(DegenerateSetError):
        I.biased_words(kv, n_per_class=1000)
    # a small vocabulary: the biased classes reach into |cos| < neutral_eps; no word is both, and by default the
    # neutral class takes every neutral candidate left when there are fewer than n_per_class
    wide = I.biased_words(kv, n_per_class=len(kv.index_to_key) // 3, neutral_eps=0.9)
    assert not set(wide.neutral) & (set(wide.male) | set(wide.female))
    assert 0 < len(wide.neutral) <= len(kv.index_to_key) // 3
    with pytest.raises(KeyError, match="xx"):
        I.biased_words(kv, pair=("he", "xx"))


def test_validation():
    kv, classes = _toy_embedding()
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(InvalidParameterError, match="one label per row"):
        I.inlp(X, np.zeros(19))
    with pytest.raises(DegenerateSetError):
        I.inlp(X, np.zeros(20))
    with pytest.raises(InvalidParameterError):
        I.inlp(X, np.repeat([0, 1], 10), classifier="rbf")
    with pytest.raises(InvalidParameterError):
        I.inlp(X, np.repeat([0, 1], 10), n_iterations=0)
    with pytest.raises(DegenerateSetError, match="no (training|held-out) row"):
        I.inlp(X, np.r_[np.zeros(19), 1], dev_fraction=0.1)
    with pytest.warns(MissingWordsWarning, match="zzz"):
        _, report = I.inlp_debias(kv, {"male": classes["male"] + ["zzz"], "female": classes["female"]},
                                  n_iterations=1)
    assert report.missing_words == {"male": ("zzz",)}
    with pytest.raises(InvalidParameterError, match="two classes"):
        I.inlp_debias(kv, {"a": ["maa", "mab"], "b": ["mab", "faa"]})
    with pytest.raises(InvalidParameterError):
        I.debiased_label("", "inlp")
