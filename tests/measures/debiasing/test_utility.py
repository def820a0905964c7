"""wordbias.measures.debiasing.utility: analogy accuracy (3CosAdd) and word similarity, checked by hand on toy sets and
against gensim's own evaluate_word_analogies / evaluate_word_pairs on the same vectors."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.datasets import utility as data
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import utility as ut

WORDS = ["man", "woman", "king", "queen", "boy", "girl", "prince"]
X = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1], [0, 1, 1], [1, 0, -1], [0, 1, -1.2], [1, 0.1, 0.9]],
             dtype=np.float32)


def _q(rows):
    return pd.DataFrame(rows, columns=["section", "a", "b", "c", "d"])


def test_analogy_by_hand():
    """man:woman::king:? -> b - a + c = (-1, 1, 1): queen (cos 1.0 after unit vectors); boy -> girl; prince ->
    the nearest to woman - man + prince excluding man, woman, prince: queen, so 'princess' would be wrong."""
    kv = to_keyed_vectors(WORDS, X)
    q = _q([("family", "man", "woman", "king", "queen"), ("family", "man", "woman", "boy", "girl"),
            ("gram1-x", "man", "woman", "prince", "girl"), ("gram1-x", "man", "woman", "emperor", "empress")])
    r = ut.analogy_accuracy(kv, q)
    assert r.items["predicted"].tolist()[:3] == ["queen", "girl", "queen"]
    assert r.items["correct"].tolist() == [True, True, False, False]
    assert r.n == 3 and np.isclose(r.estimate, 2 / 3) and r.missing == ("emperor", "empress")
    t = r.table.set_index("section")
    assert t.loc["family", "accuracy"] == 1.0 and t.loc["gram1-x", "scored"] == 1 and t.loc["gram1-x", "oov"] == 1
    assert t.loc["semantic", "correct"] == 2 and t.loc["syntactic", "accuracy"] == 0.0
    assert t.loc["total", "ci_low"] < r.estimate < t.loc["total", "ci_high"]


def test_analogy_case_and_restrict():
    """Case folding skips a casing of a question word (as gensim's top-5 loop does); restrict_vocab makes
    questions out of vocabulary."""
    words = WORDS + ["Queen", "KING"]
    V = np.vstack([X, X[3] * 1.01, X[2]]).astype(np.float32)
    V[7] = X[3] + np.array([0, 0, 0.01], dtype=np.float32)
    kv = to_keyed_vectors(words, V)
    q = _q([("family", "man", "woman", "king", "queen")])
    assert ut.analogy_accuracy(kv, q).estimate == 1.0                       # 'Queen' counts as queen
    assert ut.analogy_accuracy(kv, q, case_insensitive=False).items["predicted"][0] in ("queen", "Queen")
    r = ut.analogy_accuracy(kv, q, restrict_vocab=3)
    assert r.n == 0 and np.isnan(r.estimate) and r.missing == ("queen",)


def _gensim_file(tmp_path, q: pd.DataFrame):
    lines = []
    for section, group in q.groupby("section", sort=False):
        lines.append(f": {section}")
        lines += [" ".join(row) for row in group[["a", "b", "c", "d"]].itertuples(index=False)]
    path = tmp_path / "q.txt"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_analogy_matches_gensim(tmp_path):
    q = data.analogy_questions()
    q = q[q["section"].isin(["family", "gram3-comparative", "capital-common-countries"])]
    vocab = list(dict.fromkeys(w.lower() for c in "abcd" for w in q[c]))
    rng = np.random.default_rng(0)
    V = rng.normal(size=(len(vocab), 8)).astype(np.float32)
    kv = to_keyed_vectors(vocab[5:] + ["filler"] + vocab[:5], np.vstack([V[5:], V[:1], V[:5]]))
    for restrict in (None, len(vocab) - 20):
        ours = ut.analogy_accuracy(kv, q, restrict_vocab=restrict)
        score, sections = kv.evaluate_word_analogies(_gensim_file(tmp_path, q), restrict_vocab=restrict or 10**9)
        assert len(sections[-1]["correct"]) == int(ours.table.iloc[-1]["correct"])
        assert len(sections[-1]["incorrect"]) == int(ours.table.iloc[-1]["scored"] - ours.table.iloc[-1]["correct"])
        assert np.isclose(score, ours.estimate)


def test_word_similarity_matches_gensim_and_reports_oov(tmp_path):
    pairs = data.word_pairs("wordsim353")
    vocab = list(dict.fromkeys(list(pairs["word1"]) + list(pairs["word2"])))[:-5]   # 5 words out of vocabulary
    rng = np.random.default_rng(1)
    kv = to_keyed_vectors(vocab, rng.normal(size=(len(vocab), 6)).astype(np.float32))
    ours = ut.word_similarity(kv, "wordsim353", n_resamples=300)
    _, spearman, oov_ratio = kv.evaluate_word_pairs(str(data.DATA_DIR / data.FILES["wordsim353"]))
    assert np.isclose(ours.estimate, spearman.statistic)
    assert np.isclose(100 * ours.extra["oov_pairs"] / 353, oov_ratio)
    assert len(ours.missing) == 5 and ours.n == 353 - ours.extra["oov_pairs"]
    assert ours.ci_low <= ours.estimate <= ours.ci_high
    again = ut.word_similarity(kv, "wordsim353", n_resamples=300)
    assert (again.ci_low, again.ci_high) == (ours.ci_low, ours.ci_high)


def test_validation():
    kv = to_keyed_vectors(WORDS, X)
    with pytest.raises(InvalidParameterError):
        ut.word_similarity(kv, "men3000")
    with pytest.raises(InvalidParameterError):
        ut.analogy_accuracy(kv, pd.DataFrame({"a": ["man"]}))
    with pytest.raises(InvalidParameterError):
        ut.analogy_accuracy(kv, restrict_vocab=0)
    with pytest.raises(DegenerateSetError):
        ut.word_similarity(kv, pd.DataFrame({"word1": ["man"], "word2": ["woman"], "score": [1.0]}))
