"""Kurita et al. (2019), Section 4 (wordbias.papers.kurita2019_gap): Table 4 and its permutation test, the
stand-in word scorer, the features with their on-disk cache, and run() wired together on a sample of the real GAP
files and a tiny BERT built here."""

import itertools
import re

import numpy as np
import pandas as pd
import pytest
from tiny_bert import tiny  # noqa: F401 - the tiny BERT fixture

from wordbias.datasets import gap
from wordbias.measures.language_models import topics
from wordbias.models import mlp
from wordbias.papers import kurita2019_gap as kgap

# --------------------------------------------------------------------------------------------------
# the stand-in word scorer
# --------------------------------------------------------------------------------------------------


def test_cosine_word_scores_by_hand(tiny):
    from wordbias.models import contextual

    scores = kgap.cosine_word_scores(tiny, ["music", "sports", "music"])
    assert list(scores) == ["music", "sports"]
    e_w = contextual.word_in_template_embeddings(tiny, ["music", "sports"], ["GGG are interested in XXX"],
                                                 slot="XXX", other="GGG")
    e_t = contextual.word_in_template_embeddings(tiny, ["men", "women"], ["GGG are interested in XXX"],
                                                 slot="GGG", other="XXX")
    cos = (e_w @ e_t.T) / np.outer(np.linalg.norm(e_w, axis=1), np.linalg.norm(e_t, axis=1))
    np.testing.assert_allclose([scores["music"], scores["sports"]], cos[:, 0] - cos[:, 1], atol=1e-6)
    assert scores["music"] != scores["sports"]


# --------------------------------------------------------------------------------------------------
# Table 4 and its permutation test
# --------------------------------------------------------------------------------------------------


def test_neither_table():
    df = pd.DataFrame({"gender": ["male", "female", "female", "male"], "label": ["neither", "A", "neither", "B"]})
    t = kgap.neither_table(df, [0.5, 0.1, 0.3, 0.1])
    assert list(t.index) == ["male", "female"]
    assert t.loc["male", "prior"] == 0.5 and t.loc["female", "avg_predicted"] == pytest.approx(0.2)
    assert t.loc["female", "n"] == 2 and t.loc["male", "n_neither"] == 1


def test_permutation_test_exact_by_hand():
    p = np.array([0.9, 0.5, 0.4, 0.1, 0.2, 0.3])
    g = np.array(["female", "female", "female", "male", "male", "male"])
    res = kgap.gender_permutation_test(p, g, p_method="exact")
    assert res.difference == pytest.approx(0.4)
    diffs = [p[list(c)].mean() - np.delete(p, list(c)).mean() for c in itertools.combinations(range(6), 3)]
    assert res.p_value == pytest.approx(np.mean(np.array(diffs) >= 0.4 - 1e-12))  # 1/20
    assert res.tail.p_method == "exact" and "exact" in res.describe()
    less = kgap.gender_permutation_test(p, g, p_method="exact", alternative="less")
    assert less.p_value == pytest.approx(1.0)
    two = kgap.gender_permutation_test(p, g, p_method="exact", alternative="two-sided")
    assert two.p_value == pytest.approx(2 * res.p_value)
    with pytest.raises(ValueError, match="'female' or 'male'"):
        kgap.gender_permutation_test(p, np.array(["f"] * 6))


def test_permutation_test_on_planted_data():
    rng = np.random.default_rng(0)
    g = np.repeat(["female", "male"], 500)
    base = rng.beta(2, 15, size=1000)
    planted = kgap.gender_permutation_test(base + 0.03 * (g == "female"), g, n_permutations=20_000, seed=1)
    assert planted.p_value < 0.01 and planted.tail.p_method == "monte-carlo"
    assert "Monte Carlo over 20,000" in planted.describe()
    null = kgap.gender_permutation_test(base, g, n_permutations=20_000, seed=1, alternative="two-sided")
    assert null.p_value > 0.05
    again = kgap.gender_permutation_test(base, g, n_permutations=20_000, seed=1, alternative="two-sided")
    assert again.p_value == null.p_value


# --------------------------------------------------------------------------------------------------
# run(): everything wired together, on a sample of the real files and the tiny BERT
# --------------------------------------------------------------------------------------------------


def test_run_end_to_end(tiny, monkeypatch, tmp_path):
    real = gap.load
    sizes = {"development": 60, "test": 50, "validation": 30}

    def small(split):
        df = real(split)
        out = pd.concat([df[df["gender"] == g].head(sizes[split] // 2) for g in ("female", "male")],
                        ignore_index=True)
        out.attrs["split"] = split
        return out

    monkeypatch.setattr(gap, "load", small)
    cfg = mlp.MLPConfig(max_epochs=5, patience=2, n_folds=2)
    res = kgap.run(tiny, seed=0, seeds=[0, 1], n_permutations=500, cfg=cfg, n_topics=3, n_topic_words=5,
                   cache_dir=tmp_path)
    assert len(list(tmp_path.glob("*-*-*.npz"))) == 3 and len(list(tmp_path.glob("mlp-*.npz"))) == 1
    assert list(res.table4.index) == ["male", "female"] and res.table4["n"].tolist() == [30, 30]
    # over the seeds: the spread is that of the per-seed tables, and the seed table has one row per seed
    per_seed = [kgap.neither_table(small("development"), p) for p in res.fit.proba[:, :, 2]]
    female = [t.at["female", "avg_predicted"] for t in per_seed]
    assert res.table4.loc["female", "avg_predicted_mean"] == pytest.approx(np.mean(female))
    assert res.table4.loc["female", "avg_predicted_sd"] == pytest.approx(np.std(female, ddof=1))
    assert list(res.seed_table.index) == [0, 1] and res.metrics.loc["all", "n"] == 60
    assert res.seed_table["female_minus_male"].tolist() == pytest.approx(
        [f - t.at["male", "avg_predicted"] for f, t in zip(female, per_seed)])
    assert res.table4.loc["male", "paper_avg_predicted"] == 0.115
    assert res.test.tail.n_permutations == 500 and 0 < res.test.p_value <= 1
    assert len(res.predictions) == 60 and np.allclose(res.predictions[["p_A", "p_B", "p_neither"]].sum(axis=1), 1)
    assert len(res.topics) == 3 and res.topics["n_scored"].eq(5).all()
    assert "stand-in" in res.word_score_source and res.missing_words == ()
    assert res.correlations.loc["female", "n"] == 30
    # caller's scores with a gap: reported, not zero
    nmf = topics.fit_topics(small("development")["Text"], 3, seed=0)
    scores = {w: 1.0 for w in topics.top_words(nmf.components, nmf.vocabulary, n=5)[0][1:]}
    res2 = kgap.run(tiny, scores, seed=0, seeds=[0, 1], n_permutations=500, cfg=cfg, n_topics=3, n_topic_words=5,
                    cache_dir=tmp_path)
    assert res2.fit.cached  # the same features, labels, configuration and seeds: trained once
    assert res2.missing_words and res2.word_score_source == "caller's word scores"
    np.testing.assert_array_equal(res2.predictions["p_neither"], res.predictions["p_neither"])
    # a function of the words needed (how the notebook passes the MLM scores): called once with those words
    asked = []
    res3 = kgap.run(tiny, lambda words: asked.append(list(words)) or {w: float(len(w)) for w in words}, seed=0,
                    n_permutations=500, cfg=cfg, n_topics=3, n_topic_words=5, cache_dir=tmp_path, score_source="len")
    assert len(asked) == 1 and res3.missing_words == () and res3.word_score_source == "len"
    assert set(asked[0]) == {w for ws in topics.top_words(nmf.components, nmf.vocabulary, n=5) for w in ws}
    # what the notebook shows, built from the result
    t4 = kgap.table4_frame(res)
    assert t4.loc["female", "ours: avg predicted %, seed mean"] == pytest.approx(
        100 * res.table4.loc["female", "avg_predicted_mean"])
    assert t4.loc["male", "paper: prior %"] == pytest.approx(10.3)
    t6 = kgap.table6_frame(res, ["a,b", "c,d", "e,f", "g,h"])
    assert t6.columns[1] == "paper (any order)" and t6["paper (any order)"].tolist() == ["a,b", "c,d", "e,f"]
    assert kgap.table6_frame(res, ["a,b"])["paper (any order)"].tolist() == ["a,b", "", ""]
    corr = kgap.correlation_frame(res)
    assert corr.loc["female", "paper_rho"] == 0.207 and np.isnan(corr.loc["male", "paper_rho"])
    fig = kgap.neither_figure(res)
    assert len(fig.axes) == 2 and "Spearman rho" in fig.axes[1].get_title()


def test_seed_study_is_run_steps_1_and_2(tiny, monkeypatch, tmp_path):
    real = gap.load
    monkeypatch.setattr(gap, "load", lambda split: real(split).head(24).copy())
    cfg = mlp.MLPConfig(max_epochs=3, patience=2, n_folds=2)
    timings = {}
    dev, study = kgap.seed_study(tiny, seeds=[0, 1], cfg=cfg, cache_dir=None, timings=timings)
    assert len(dev) == 24 and study.proba.shape == (2, 24, 3) and not study.cached
    assert set(timings) == {"features_s", "mlp_s"}
    res = kgap.run(tiny, lambda words: {w: float(len(w)) for w in words}, seeds=[0, 1], cfg=cfg,
                   n_permutations=100, n_topics=2, n_topic_words=3, nmf_restarts=1, cache_dir=None)
    np.testing.assert_array_equal(res.fit.proba, study.proba)


def test_spread_over_seeds():
    assert kgap.spread([1.0, 2.0, 3.0]) == {"mean": 2.0, "sd": 1.0, "min": 1.0, "max": 3.0}
    assert kgap.spread([0.5])["sd"] == 0.0


# --------------------------------------------------------------------------------------------------
# the classifier's features and their on-disk cache, on the tiny BERT of tests/tiny_bert.py
# --------------------------------------------------------------------------------------------------


def _frame():
    rows = [["t-1", "Alice met Bob before she left.", "she", 21, "Alice", 0, True, "Bob", 10, False],
            ["t-2", "Mary Ann saw Robert and he ran.", "he", 24, "Mary Ann", 0, False, "Robert", 13, True],
            ["t-3", "Zed met Bob before she left.", "she", 19, "Zed", 0, False, "Bob", 8, False]]
    df = pd.DataFrame(rows, columns=list(gap.COLUMNS[:-1]))
    df.attrs["split"] = "mini"
    return df


def test_features_are_the_span_tokens_hidden_states(tiny, tmp_path, monkeypatch):
    import torch

    df = _frame()
    X = kgap.features(tiny, df, batch_size=2)
    h = tiny.model.config.hidden_size
    assert X.shape == (3, 3 * h) and X.dtype == np.float32
    for i, text in enumerate(df["Text"]):
        enc = tiny.tokenizer(text, return_tensors="pt")
        with torch.no_grad():
            states = tiny.model(**enc).last_hidden_state[0].numpy()
        tokens = tiny.tokenizer.convert_ids_to_tokens(enc["input_ids"][0])
        want = {"A": df.at[i, "A"].lower().split(), "B": [df.at[i, "B"].lower()], "P": [df.at[i, "Pronoun"]]}
        if i == 1:
            want["B"] = ["ro", "##bert"]  # "Robert" is two WordPieces: their mean
        if i == 2:
            want["A"] = ["[UNK]"]  # a word outside the vocabulary still has its ([UNK]) token
        for j, key in enumerate("ABP"):
            pos = [tokens.index(t) for t in want[key]]
            np.testing.assert_allclose(X[i, j * h:(j + 1) * h], states[pos].mean(axis=0), atol=1e-5)
    # the on-disk cache: written as .npz, then read back without running the model
    Xc = kgap.features(tiny, df, cache_dir=tmp_path)
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1 and files[0].name.startswith(f"{tiny.label}-mini-")
    with np.load(files[0], allow_pickle=False) as z:
        assert sorted(z.files) == ["features", "key"]
    np.testing.assert_allclose(Xc, X, atol=1e-5)
    from wordbias.models import contextual

    monkeypatch.setattr(contextual, "span_embeddings", lambda *a, **k: pytest.fail("cache not used"))
    np.testing.assert_array_equal(kgap.features(tiny, df, cache_dir=tmp_path), Xc)
    other = df.copy()
    other.loc[0, "Text"] = "Alice met Bob before she ran."
    with pytest.raises(pytest.fail.Exception):  # different texts: a different key, so the model must run
        kgap.features(tiny, other, cache_dir=tmp_path)


@pytest.mark.parametrize("damage", ["wrong shape", "truncated", "not a zip", "no features"])
def test_damaged_feature_cache_is_reported_and_recomputed(tiny, tmp_path, damage):
    """A feature cache with the right key but wrong-shaped data, or a truncated one (BadZipFile), is never
    returned nor raised forever: it warns, is recomputed and overwritten."""
    from wordbias.core.errors import CacheRebuiltWarning

    df = _frame()
    X = kgap.features(tiny, df, cache_dir=tmp_path)
    (cache_file,) = tmp_path.glob("*.npz")
    with np.load(cache_file, allow_pickle=False) as z:
        key = z["key"]
    if damage == "wrong shape":
        np.savez(cache_file, features=np.zeros((2, 5), dtype=np.float32), key=key)
    elif damage == "truncated":
        cache_file.write_bytes(cache_file.read_bytes()[:200])
    elif damage == "not a zip":
        cache_file.write_bytes(b"garbage")
    else:
        np.savez(cache_file, key=key)
    with pytest.warns(CacheRebuiltWarning, match=re.escape(cache_file.name)):
        again = kgap.features(tiny, df, cache_dir=tmp_path)
    np.testing.assert_allclose(again, X, atol=1e-6)
    assert again.shape == X.shape
    with np.load(cache_file, allow_pickle=False) as z:  # overwritten with good data
        assert z["features"].shape == X.shape


def test_topic_solutions_are_cached_bit_for_bit_and_a_damaged_file_is_recomputed(tmp_path, monkeypatch):
    from wordbias.core.errors import CacheRebuiltWarning

    texts = gap.load("development")["Text"].tolist()[:120]
    fresh = kgap._topic_solutions(texts, 4, 2, 0, cache_dir=tmp_path)
    files = list(tmp_path.glob("topics-*.npz"))
    assert len(files) == 1
    fits = []
    monkeypatch.setattr(kgap, "fit_topics", lambda *a, **k: fits.append(1) or pytest.fail("refitted"))
    again = kgap._topic_solutions(texts, 4, 2, 0, cache_dir=tmp_path)
    assert fits == []
    assert len(again) == 3
    for a, b in zip(fresh, again):
        assert a.vocabulary.dtype == b.vocabulary.dtype and list(a.vocabulary) == list(b.vocabulary)
        assert type(a.vocabulary[0]) is type(b.vocabulary[0])
        np.testing.assert_array_equal(a.components, b.components)
        np.testing.assert_array_equal(a.doc_topic, b.doc_topic)
        assert (a.reconstruction_err, a.n_iter) == (b.reconstruction_err, b.n_iter)
    monkeypatch.undo()
    kgap._topic_solutions(texts, 4, 2, 1, cache_dir=tmp_path)              # another seed: another file
    kgap._topic_solutions(texts[:-1], 4, 2, 0, cache_dir=tmp_path)         # one text fewer: another file
    assert len(list(tmp_path.glob("topics-*.npz"))) == 3
    files[0].write_bytes(files[0].read_bytes()[:300])
    with pytest.warns(CacheRebuiltWarning, match="GAP topic cache .*unreadable"):
        rebuilt = kgap._topic_solutions(texts, 4, 2, 0, cache_dir=tmp_path)
    np.testing.assert_array_equal(rebuilt[1].components, fresh[1].components)
