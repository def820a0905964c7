"""Topic bias (Kurita et al. 2019, Section 4, Table 6): topic and sample bias by hand, missing word scores,
seeded NMF topics that separate planted themes, Spearman on planted data, topic stability by hand."""

import numpy as np
import pytest

from wordbias.measures.language_models import topics


def test_topic_bias_and_sample_bias_by_hand():
    H = np.array([[0.5, 0.3, 0.0, 0.2],
                  [0.0, 0.1, 0.9, 0.4]])
    vocab = ["goal", "team", "wife", "son"]
    s = {"goal": 1.0, "team": 2.0, "wife": -1.0, "son": 0.5}
    tb = topics.topic_bias(H, vocab, s, n_words=2)
    # topic 1: goal (0.5), team (0.3) -> 0.5*1 + 0.3*2; topic 2: wife (0.9), son (0.4) -> -0.9 + 0.2
    np.testing.assert_allclose(tb["bias"], [1.1, -0.7])
    assert tb["n_scored"].tolist() == [2, 2] and list(tb.index) == [1, 2]
    W = np.array([[1.0, 0.0], [0.5, 2.0], [0.0, 0.0]])
    np.testing.assert_allclose(topics.sample_bias(W, tb["bias"]), [1.1, 0.55 - 1.4, 0.0])
    with pytest.raises(ValueError, match="does not match"):
        topics.sample_bias(W, [1.0, 2.0, 3.0])


def test_missing_word_scores_are_reported_not_zero():
    H = np.array([[0.5, 0.3, 0.2]])
    vocab = ["goal", "kruse", "team"]
    with pytest.raises(KeyError, match=r"1 top topic words have no bias score: \['kruse'\]"):
        topics.topic_bias(H, vocab, {"goal": 1.0, "team": 1.0})
    tb = topics.topic_bias(H, vocab, {"goal": 1.0, "team": 1.0}, on_missing="drop")
    assert tb.loc[1, "missing"] == ("kruse",) and tb.loc[1, "n_scored"] == 2
    assert tb.loc[1, "bias"] == pytest.approx(0.7) and tb.loc[1, "weight_scored"] == pytest.approx(0.7)
    with pytest.raises(ValueError, match="on_missing must be 'raise' or 'drop', not 'zero'"):
        topics.topic_bias(H, vocab, {}, on_missing="zero")


_THEMES = [["team", "won", "match", "season", "final", "round", "club", "league"],
           ["married", "son", "daughter", "wife", "died", "born", "husband", "mother"],
           ["album", "songs", "band", "solo", "song", "record", "singer", "guitar"]]
CORPUS = [" ".join(np.random.default_rng(i).choice(_THEMES[i % 3], size=12)) for i in range(30)]


def test_nmf_topics_are_seeded_and_separate_the_themes():
    a = topics.fit_topics(CORPUS, n_topics=3, seed=0)
    b = topics.fit_topics(CORPUS, n_topics=3, seed=0)
    np.testing.assert_array_equal(a.components, b.components)
    np.testing.assert_array_equal(a.doc_topic, b.doc_topic)
    assert a.doc_topic.shape == (30, 3) and a.components.shape == (3, len(a.vocabulary))
    themes = [set(w) for w in topics.top_words(a.components, a.vocabulary, n=3)]
    for theme in _THEMES:  # each topic's top words come from one theme
        assert sum(t <= set(theme) for t in themes) == 1
    table = topics.topics_table(a, n=5)
    assert list(table.index) == [1, 2, 3] and table["top_words"].str.count(",").eq(4).all()
    # each document loads on its own theme's topic
    assert len({int(np.argmax(a.doc_topic[i])) for i in (0, 1, 2)}) == 3


def test_spearman_on_planted_data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    y = x + rng.normal(size=400)
    mask = np.arange(400) < 200
    r = topics.bias_correlation(x, y, mask)
    assert r.n == 200 and r.rho > 0.5 and r.p_value < 1e-10 and r.subset == "female"
    null = topics.bias_correlation(x, rng.normal(size=400))
    assert abs(null.rho) < 0.15 and null.p_value > 0.01


def test_topic_stability_by_hand():
    vocab = np.array(list("abcdefgh"))

    def solution(*rows):
        H = np.zeros((len(rows), len(vocab)))
        for k, words in enumerate(rows):
            for rank, w in enumerate(words):  # heavier first
                H[k, list(vocab).index(w)] = 10 - rank
        return topics.Topics(vocabulary=vocab, components=H, doc_topic=np.ones((1, len(rows))),
                             reconstruction_err=0.0, n_iter=1)

    ref = solution("abcde", "fghab")
    same = solution("edcba", "hgfba")       # both topics recur (order does not matter)
    other = solution("abfgh", "fghab")     # no topic shares 3 of a,b,c,d,e; both match f,g,h,a,b
    st = topics.topic_stability(ref, [same, other], n=5, min_shared=3)
    assert st.tolist() == [0.5, 1.0]
    assert np.isnan(topics.topic_stability(ref, [])).all()
