"""Gonen & Goldberg's (2019) checks (wordbias.measures.debiasing.debias_checks) on toy embeddings with a planted gender
direction: near-perfect before; after the direction is projected out, the clusters fall apart while a classifier
still recovers the bias planted, weaker, in a second direction (the paper's point). Also: the word selection,
missing words reported, seed determinism, the intervals, validation errors."""
from __future__ import annotations

import string

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import debias_checks as dc


def _names(n: int, rng) -> list[str]:
    """n distinct lower-case ASCII 'words' (7 letters: no clash with the gender-specific lists)."""
    out: dict[str, None] = {}
    while len(out) < n:
        out["".join(rng.choice(list(string.ascii_lowercase), 7))] = None
    return list(out)


@pytest.fixture(scope="module")
def planted():
    """he/she on axis 0; 150 words a side with bias s on axis 0 (strong) and on axis 1 (weak, little noise);
    8 noise axes. ``flat`` is the same embedding with axis 0 projected out of every word but he and she."""
    rng = np.random.default_rng(0)
    n, d = 300, 10
    s = np.r_[rng.uniform(0.3, 1, n // 2), -rng.uniform(0.3, 1, n // 2)]
    X = rng.normal(size=(n, d))
    X[:, 0] = 3 * s
    X[:, 1] = 0.5 * s + rng.normal(0, 0.05, n)
    he, she = np.zeros(d), np.zeros(d)
    he[0], she[0] = 3, -3
    he[2] = she[2] = 1
    words = ["he", "she"] + _names(n, rng)
    V = np.vstack([he, she, X]).astype(np.float32)
    flat = V.copy()
    flat[2:, 0] = 0
    return to_keyed_vectors(words, V), to_keyed_vectors(words, flat), words[2:], s


def test_candidate_words_filters_like_the_paper():
    words = ["the", "he", "she", "Paris", "co2", "don't", "nurse", "café", "x" * 21, "x" * 20, "actress"]
    kv = to_keyed_vectors(words, np.eye(len(words), dtype=np.float32))
    assert dc.candidate_words(kv) == ("the", "nurse", "x" * 20)
    assert dc.candidate_words(kv, restrict=3, exclude=()) == ("the", "he", "she")
    assert dc.candidate_words(kv, max_length=25, exclude=["the"]) == ("he", "she", "nurse", "x" * 21, "x" * 20,
                                                                       "actress")
    with pytest.raises(InvalidParameterError):
        dc.candidate_words(kv, exclude="the")
    with pytest.raises(InvalidParameterError):
        dc.candidate_words(kv, restrict=0)


def test_most_biased_words_ranks_by_the_original_projection(planted):
    kv, _, words, s = planted
    sel = dc.most_biased_words(kv, 20)
    assert len(sel.male) == len(sel.female) == 20 and sel.n_candidates == 300
    bias = sel.bias
    assert list(sel.male) == list(bias.sort_values(ascending=False).index[:20])
    assert list(sel.female) == list(bias.sort_values().index[:20])
    assert (bias[list(sel.male)] > 0).all() and (bias[list(sel.female)] < 0).all()
    assert sel.labels.tolist() == [1] * 20 + [0] * 20
    flipped = dc.most_biased_words(kv, 20, direction=("she", "he"))
    assert flipped.male == sel.female
    with pytest.raises(DegenerateSetError):
        dc.most_biased_words(kv, 151)
    with pytest.raises(KeyError):
        dc.most_biased_words(kv, 5, direction=("he", "zzz"))
    with pytest.raises(InvalidParameterError):
        dc.most_biased_words(kv, 5, direction="he")
    with pytest.raises(InvalidParameterError):
        dc.most_biased_words(kv, 0)


def test_original_bias_is_the_cosine_with_he_minus_she(planted):
    kv, _, words, _ = planted
    b = dc.original_bias(kv, words[:5])
    g = kv["he"] - kv["she"]
    want = [float(kv[w] @ g / np.linalg.norm(kv[w]) / np.linalg.norm(g)) for w in words[:5]]
    assert np.allclose(b.to_numpy(), want, atol=1e-6)
    with pytest.raises(KeyError):
        dc.original_bias(kv, ["nowhere"])


def test_before_and_after_projection(planted):
    """The paper's point on a toy: the clusters go, the classifier still finds the bias, the neighbours keep some."""
    kv, flat, _, _ = planted
    sel = dc.most_biased_words(kv, 150)
    before = dc.cluster_accuracy(kv, kv, n_per_side=100, selection=sel, n_resamples=30)
    after = dc.cluster_accuracy(kv, flat, n_per_side=100, selection=sel, n_resamples=30)
    assert before.estimate == 1.0 and before.ci_low >= 0.95
    assert after.estimate < 0.75
    clf_before = dc.classifier_accuracy(kv, kv, n_per_side=150, n_train=100, selection=sel, gamma="scale")
    clf_after = dc.classifier_accuracy(kv, flat, n_per_side=150, n_train=100, selection=sel, gamma="scale")
    assert clf_before.estimate >= 0.98
    assert clf_after.estimate > 0.8 and clf_after.ci_low > after.estimate
    assert clf_after.n == 200 and clf_after.extra["n_train"] == 100
    nb_before = dc.neighbour_bias(kv, kv, n_per_side=150, selection=sel, k=20, n_resamples=200)
    nb_after = dc.neighbour_bias(kv, flat, n_per_side=150, selection=sel, k=20, n_resamples=200)
    assert nb_before.estimate > 0.8 and nb_after.estimate < nb_before.estimate
    assert nb_after.ci_low <= nb_after.estimate <= nb_after.ci_high


def test_cluster_accuracy_is_the_better_matching():
    """Flipping every label gives the same accuracy: a clustering has no 'male' cluster."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    X[:20, 0] += 10
    y = np.r_[np.ones(20, dtype=int), np.zeros(20, dtype=int)]
    assert dc._kmeans_accuracy(X, y, 0, 10) == dc._kmeans_accuracy(X, 1 - y, 0, 10) == 1.0


def test_seed_determinism_and_intervals(planted):
    kv, flat, _, _ = planted
    sel = dc.most_biased_words(kv, 150)
    a = dc.cluster_accuracy(kv, flat, n_per_side=50, selection=sel, n_resamples=40, seed=5)
    b = dc.cluster_accuracy(kv, flat, n_per_side=50, selection=sel, n_resamples=40, seed=5)
    assert (a.estimate, a.ci_low, a.ci_high) == (b.estimate, b.ci_low, b.ci_high)
    c1 = dc.classifier_accuracy(kv, flat, n_per_side=150, n_train=100, selection=sel, seed=1)
    c2 = dc.classifier_accuracy(kv, flat, n_per_side=150, n_train=100, selection=sel, seed=1)
    c3 = dc.classifier_accuracy(kv, flat, n_per_side=150, n_train=100, selection=sel, seed=2)
    assert c1.estimate == c2.estimate and c1.items.equals(c2.items)
    assert not c1.items["train"].equals(c3.items["train"])
    n1 = dc.neighbour_bias(kv, flat, n_per_side=100, selection=sel, k=10, n_resamples=100, seed=7)
    n2 = dc.neighbour_bias(kv, flat, n_per_side=100, selection=sel, k=10, n_resamples=100, seed=7)
    assert (n1.ci_low, n1.ci_high) == (n2.ci_low, n2.ci_high)
    none = dc.cluster_accuracy(kv, flat, n_per_side=50, selection=sel, n_resamples=0)
    assert np.isnan(none.ci_low) and none.ci_method == "none"


def test_wilson_matches_scipy():
    for k, n in [(0, 10), (3, 10), (90, 100), (3990, 4000), (10, 10)]:
        ci = binomtest(k, n).proportion_ci(0.95, method="wilson")
        assert np.allclose(dc.wilson_interval(k, n), (ci.low, ci.high), atol=1e-12)
    with pytest.raises(InvalidParameterError):
        dc.wilson_interval(11, 10)


def test_words_missing_from_the_checked_embedding_are_reported(planted):
    kv, flat, words, _ = planted
    sel = dc.most_biased_words(kv, 150)
    drop = set(sel.male[:3])
    keep = [w for w in kv.index_to_key if w not in drop]
    smaller = to_keyed_vectors(keep, np.vstack([flat[w] for w in keep]))
    with pytest.warns(MissingWordsWarning, match="3 male-biased words missing"):
        r = dc.cluster_accuracy(kv, smaller, n_per_side=50, selection=sel, n_resamples=0)
    assert set(r.missing) == drop and r.n == 97 and r.extra["n_male"] == 47
    with pytest.raises(KeyError, match="missing from the embedding checked"):
        dc.classifier_accuracy(kv, smaller, n_per_side=150, n_train=100, selection=sel, on_missing="raise")
    with pytest.warns(MissingWordsWarning):
        nb = dc.neighbour_bias(kv, smaller, words=list(sel.male[:10]), selection=sel, k=5, n_resamples=0)
    assert nb.n == 7 and set(nb.missing) == drop


def test_neighbour_bias_of_given_words_and_the_items(planted):
    kv, _, words, _ = planted
    r = dc.neighbour_bias(kv, kv, words=words[135:165], k=10, n_resamples=0)
    assert isinstance(r.items, pd.DataFrame) and list(r.items["word"]) == words[135:165]
    assert r.items["male_neighbours"].between(0, 1).all()
    assert np.isclose(r.estimate, np.corrcoef(r.items["bias"], r.items["male_neighbours"])[0, 1])
    with pytest.raises(InvalidParameterError, match="k = 400"):
        dc.neighbour_bias(kv, kv, words=words[135:165], k=400)
    with pytest.raises(DegenerateSetError):
        dc.neighbour_bias(kv, kv, words=words[:2], k=5)


def test_validation_errors(planted):
    kv, flat, _, _ = planted
    sel = dc.most_biased_words(kv, 50)
    with pytest.raises(InvalidParameterError, match="n_train"):
        dc.classifier_accuracy(kv, flat, n_per_side=50, n_train=100, selection=sel)
    with pytest.raises(InvalidParameterError, match="selection holds"):
        dc.cluster_accuracy(kv, flat, n_per_side=100, selection=sel)
    with pytest.raises(InvalidParameterError, match="BiasedWords"):
        dc.cluster_accuracy(kv, flat, selection=("a", "b"))
    with pytest.raises(InvalidParameterError, match="seed"):
        dc.cluster_accuracy(kv, flat, n_per_side=10, selection=sel, seed=-1)
    with pytest.raises(InvalidParameterError, match="confidence_level"):
        dc.neighbour_bias(kv, flat, n_per_side=10, selection=sel, confidence_level=95)
    with pytest.raises(InvalidParameterError, match="on_missing"):
        dc.cluster_accuracy(kv, flat, n_per_side=10, selection=sel, on_missing="skip")
    with pytest.raises(InvalidParameterError, match="gamma"):
        dc.classifier_accuracy(kv, flat, n_per_side=50, n_train=20, selection=sel, gamma="wide")
    with pytest.raises(InvalidParameterError, match="KeyedVectors"):
        dc.cluster_accuracy(kv, 42)


def test_result_views(planted):
    kv, flat, _, _ = planted
    r = dc.cluster_accuracy(kv, flat, n_per_side=20, n_resamples=20, candidates=dc.Candidates(exclude=()))
    assert str(r).startswith("cluster accuracy = ") and "n = 40" in str(r)
    d = r.to_dict()
    assert d["check"] == "cluster accuracy" and d["n"] == 40 and d["n_missing"] == 0 and "seed_min" in d


def test_neighbours_tied_at_the_kth_are_taken_in_pool_order_whatever_the_selection_algorithm():
    """Four pool words share one vector, so a target's 2nd to 5th neighbours tie: k = 3 takes the nearest and the
    first two of the tied ones in pool order (argpartition alone leaves that choice to the CPU's sort)."""
    from wordbias.embeddings import to_keyed_vectors

    near = [1.0, 0.0, 0.0]
    tied = [0.8, 0.6, 0.0]
    far = [0.0, 0.0, 1.0]
    words = ["t", "n", "a", "b", "c", "d", "f"]
    kv = to_keyed_vectors(words, np.array([near, near, tied, tied, tied, tied, far], dtype=np.float32))
    male = np.array([0, 1, 1, 0, 0, 1, 0])                     # pool: n, a, b, c, d, f (t is the target)
    pool = words[1:]
    share = dc._male_share(kv, ["t"], pool, male[1:], 3)
    assert share.tolist() == [(1 + 1 + 0) / 3]                 # n, then a and b of the four tied ones
    flipped = dc._male_share(kv, ["t"], pool[::-1], male[1:][::-1], 3)
    assert flipped.tolist() == [(1 + 1 + 0) / 3]               # n, then d and c: the first two in this order
    assert dc._k_nearest(np.array([[0.2, 0.7, 0.7, 0.7]]), 2).tolist() == [[False, True, True, False]]


def test_candidates_are_checked_when_made_and_choose_the_words():
    with pytest.raises(InvalidParameterError, match="restrict"):
        dc.Candidates(restrict=0)
    with pytest.raises(InvalidParameterError, match="exclude must be a collection of words"):
        dc.Candidates(exclude="he")
    with pytest.raises(InvalidParameterError, match="direction"):
        dc.Candidates(direction="he")
    assert dc.DEFAULT_CANDIDATES == dc.Candidates(restrict=dc.DEFAULT_RESTRICT, exclude=None, direction=("he", "she"))
    kv = to_keyed_vectors(["he", "she"] + [f"{a}{b}x" for a in "abcdefgh" for b in "abcdefgh"],
                          np.random.default_rng(0).normal(size=(66, 5)).astype(np.float32))
    with pytest.raises(InvalidParameterError, match="candidates must be a Candidates or None, not dict"):
        dc.neighbour_bias(kv, kv, n_per_side=5, k=3, candidates={"exclude": ()})
    # restrict=20: only the first 20 rows are candidates, the same words most_biased_words picks
    r = dc.classifier_accuracy(kv, kv, n_per_side=8, n_train=4, candidates=dc.Candidates(restrict=20, exclude=()))
    want = dc.most_biased_words(kv, 8, restrict=20, exclude=())
    assert r.words == tuple(want.male) + tuple(want.female) and set(r.words) <= set(kv.index_to_key[:20])
