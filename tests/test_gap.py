"""The GAP case study of Kurita et al. (2019), Section 4: data, features, the Kaggle MLP, Table 4's permutation
test, the topic bias of Table 6 and the stand-in word scorer, on the real GAP files, a tiny BERT built here
and planted data."""

import hashlib
import itertools
import re

import numpy as np
import pandas as pd
import pytest

from wordbias.datasets import gap
from wordbias.core import paths

# --------------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------------

HEADER = "\t".join(gap.COLUMNS)


def _row(id_="t-1", text="Alice met Bob before she left.", pronoun="she", a="Alice", b="Bob", a_coref="TRUE",
         b_coref="FALSE", p_off=None, a_off=None, b_off=None):
    p_off = text.index(f" {pronoun} ") + 1 if p_off is None else p_off
    a_off = text.index(a) if a_off is None else a_off
    b_off = text.index(b) if b_off is None else b_off
    return "\t".join(map(str, [id_, text, pronoun, p_off, a, a_off, a_coref, b, b_off, b_coref, "http://x"]))


def _write(tmp_path, *rows, name="mini.tsv"):
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def test_files_match_source_md():
    assert gap.DATA_DIR == paths.DATA / "gap"
    source = (gap.DATA_DIR / "SOURCE.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `(gap-[a-z]+\.tsv)` \| `([0-9a-f]{64})`", source, flags=re.M))
    assert sorted(listed) == sorted(f"gap-{s}.tsv" for s in gap.SPLITS)
    for file, sha in listed.items():
        assert hashlib.sha256((gap.DATA_DIR / file).read_bytes()).hexdigest() == sha, file
    assert "/work/shared" not in open(gap.__file__, encoding="utf-8").read()


@pytest.mark.parametrize("split, n, counts, n_female, neither_fm", [
    ("development", 2000, (874, 925, 201), 1000, (98, 103)),
    ("test", 2000, (918, 855, 227), 1000, (116, 111)),
    ("validation", 454, (187, 205, 62), 227, (23, 39)),
])
def test_load_counts(split, n, counts, n_female, neither_fm):
    df = gap.load(split)
    assert len(df) == n and df.attrs["split"] == split
    assert tuple(df["label"].value_counts().reindex(list(gap.LABELS))) == counts
    assert (df["gender"] == "female").sum() == n_female
    neither = df[df["label"] == "neither"]["gender"].value_counts()
    assert (neither["female"], neither["male"]) == neither_fm
    assert df["A-offset"].dtype == np.int64 and df["A-coref"].dtype == bool
    # the labels follow the coref columns and the gender the pronoun
    assert ((df["label"] == "A") == df["A-coref"]).all() and ((df["label"] == "B") == df["B-coref"]).all()
    assert set(df.loc[df["gender"] == "female", "Pronoun"].str.lower()) <= {"she", "her", "hers"}


def test_read_tsv_good_and_unknown_split(tmp_path):
    df = gap.read_tsv(_write(tmp_path, _row(), _row("t-2", "Max saw Tom and he ran.", "he", "Max", "Tom", "FALSE",
                                                     "FALSE")))
    assert df["label"].tolist() == ["A", "neither"] and df["gender"].tolist() == ["female", "male"]
    assert df.at[0, "Pronoun-offset"] == 21
    with pytest.raises(ValueError, match="unknown GAP split"):
        gap.load("train")


def test_corrupted_offset_names_the_row(tmp_path):
    path = _write(tmp_path, _row(), _row("t-2", a_off=1))
    with pytest.raises(gap.GapFormatError, match=r"mini\.tsv, line 3: row t-2: Text\[A-offset=1"):
        gap.read_tsv(path)
    # the real file with one offset shifted by one character
    lines = (gap.DATA_DIR / "gap-development.tsv").read_text(encoding="utf-8").split("\n")
    fields = lines[10].split("\t")
    fields[5] = str(int(fields[5]) + 1)
    lines[10] = "\t".join(fields)
    bad = tmp_path / "gap-development.tsv"
    bad.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(gap.GapFormatError, match=f"line 11: row {fields[0]}"):
        gap.read_tsv(bad)


@pytest.mark.parametrize("row, message", [
    (_row() + "\textra", r"mini\.tsv, line 3: 12 tab-separated fields, expected 11"),
    ("\t".join(_row().split("\t")[:-1]), r"mini\.tsv, line 3: 10 tab-separated fields"),
    (_row(p_off="22x"), r"mini\.tsv, line 3 \(ID t-1\): Pronoun-offset = '22x' is not a non-negative integer"),
    (_row(a_coref="yes"), r"line 3 \(ID t-1\): A-coref = 'yes', expected TRUE or FALSE"),
    (_row(b_coref="TRUE"), r"line 3: row t-1 has both A-coref and B-coref TRUE"),
    (_row(text="Alice met Bob before they left.", pronoun="they"), r"line 3: row t-1 has pronoun 'they'"),
])
def test_malformed_rows_name_file_and_line(tmp_path, row, message):
    with pytest.raises(gap.GapFormatError, match=message):
        gap.read_tsv(_write(tmp_path, _row("t-0"), row))


def test_bad_header_and_duplicate_ids(tmp_path):
    path = tmp_path / "h.tsv"
    path.write_text(HEADER.replace("Pronoun-offset", "P-offset") + "\n" + _row() + "\n")
    with pytest.raises(gap.GapFormatError, match=r"h\.tsv, line 1: header"):
        gap.read_tsv(path)
    with pytest.raises(gap.GapFormatError, match="duplicate ID 't-1'"):
        gap.read_tsv(_write(tmp_path, _row(), _row()))


# --------------------------------------------------------------------------------------------------
# a tiny BERT built here (2 layers, hidden 32) for the features and the stand-in scorer
# --------------------------------------------------------------------------------------------------

WORDS = ["alice", "met", "bob", "before", "she", "he", "left", "mary", "ann", "saw", "tom", "and", "ran", ".",
         "men", "women", "are", "interested", "in", "music", "sports", "ro", "##bert", "his", "her", "the"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    from wordbias.models import contextual

    folder = tmp_path_factory.mktemp("tiny-bert")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = BertTokenizerFast(vocab={w: i for i, w in enumerate(vocab)}, do_lower_case=True)
    assert tok.tokenize("Alice met Robert") == ["alice", "met", "ro", "##bert"]
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=512)
    BertModel(cfg).save_pretrained(folder)
    tok.save_pretrained(folder)
    return contextual.load_encoder(str(folder), device="cpu")


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
    X = gap.features(tiny, df, batch_size=2)
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
    Xc = gap.features(tiny, df, cache_dir=tmp_path)
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1 and files[0].name.startswith(f"{tiny.label}-mini-")
    with np.load(files[0], allow_pickle=False) as z:
        assert sorted(z.files) == ["features", "key"]
    np.testing.assert_allclose(Xc, X, atol=1e-5)
    from wordbias.models import contextual

    monkeypatch.setattr(contextual, "span_embeddings", lambda *a, **k: pytest.fail("cache not used"))
    np.testing.assert_array_equal(gap.features(tiny, df, cache_dir=tmp_path), Xc)
    other = df.copy()
    other.loc[0, "Text"] = "Alice met Bob before she ran."
    with pytest.raises(pytest.fail.Exception):  # different texts: a different key, so the model must run
        gap.features(tiny, other, cache_dir=tmp_path)


def test_cosine_word_scores_by_hand(tiny):
    from wordbias.models import contextual

    scores = gap.cosine_word_scores(tiny, ["music", "sports", "music"])
    assert list(scores) == ["music", "sports"]
    e_w = contextual.word_in_template_embeddings(tiny, ["music", "sports"], ["GGG are interested in XXX"],
                                                 slot="XXX", other="GGG")
    e_t = contextual.word_in_template_embeddings(tiny, ["men", "women"], ["GGG are interested in XXX"],
                                                 slot="GGG", other="XXX")
    cos = (e_w @ e_t.T) / np.outer(np.linalg.norm(e_w, axis=1), np.linalg.norm(e_t, axis=1))
    np.testing.assert_allclose([scores["music"], scores["sports"]], cos[:, 0] - cos[:, 1], atol=1e-6)
    assert scores["music"] != scores["sports"]


# --------------------------------------------------------------------------------------------------
# the MLP
# --------------------------------------------------------------------------------------------------


def _planted(n=600, d=12, seed=1):
    """Features whose class is the argmax of three fixed linear functions of the input."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    y = np.argmax(X @ rng.normal(size=(d, 3)), axis=1)
    return X, y


SMALL = gap.MLPConfig(hidden=16, dropout=0.2, max_epochs=60, patience=10, n_folds=3)


def test_mlp_learns_a_planted_signal_and_is_deterministic():
    import torch

    X, y = _planted()
    threads, det = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    state = torch.random.get_rng_state()
    a = gap.fit_predict(X[:450], y[:450], X[450:], cfg=SMALL, seed=3)
    assert gap.scores(y[450:], a.proba)["accuracy"] > 0.75  # chance is about 1/3
    assert np.allclose(a.proba.sum(axis=1), 1) and a.proba.shape == (150, 3)
    b = gap.fit_predict(X[:450], y[:450], X[450:], cfg=SMALL, seed=3)
    np.testing.assert_array_equal(a.proba, b.proba)  # bit for bit
    c = gap.fit_predict(X[:450], y[:450], X[450:], cfg=SMALL, seed=4)
    assert not np.array_equal(a.proba, c.proba)
    # global torch state is left as it was
    assert torch.get_num_threads() == threads and torch.are_deterministic_algorithms_enabled() == det
    assert torch.equal(torch.random.get_rng_state(), state)
    # shuffled labels: nothing to learn
    rng = np.random.default_rng(0)
    d = gap.fit_predict(X[:450], rng.permutation(y[:450]), X[450:], cfg=SMALL, seed=3)
    assert gap.scores(y[450:], d.proba)["accuracy"] < 0.5


def test_early_stopping_restores_the_best_weights():
    import torch

    X, y = _planted(n=300)
    folds = gap.fold_indices(len(X), SMALL, seed=0)
    ens = gap.train_ensemble(X, y, folds, cfg=SMALL, seed=0)
    assert ens.n_models == 3
    held = ens.fold_proba(X)
    pen = SMALL.l2 * (ens.params["W2"] ** 2).sum(dim=(1, 2)).detach().numpy()
    for k, (tr, va) in enumerate(folds):
        assert gap.log_loss(y[va], held[k, va]) + pen[k] == pytest.approx(ens.best_val_loss[k], rel=1e-4)
        assert ens.epochs_run[k] == min(ens.best_epochs[k] + SMALL.patience, SMALL.max_epochs)
        assert len(np.intersect1d(tr, va)) == 0 and len(tr) + len(va) == len(X)
    # the folds partition the rows; one-fold mode holds out a seeded fraction
    assert np.array_equal(np.sort(np.concatenate([va for _, va in folds])), np.arange(len(X)))
    (tr, va), = gap.fold_indices(100, gap.MLPConfig(n_folds=1, holdout=0.2), seed=0)
    assert len(va) == 20 and len(tr) == 80
    assert isinstance(ens.params["W1"], torch.Tensor)
    with pytest.raises(ValueError, match="class indices"):
        gap.train_ensemble(X, y + 3, folds, cfg=SMALL)


def test_training_matches_a_plain_torch_model():
    """With one batch per epoch and no dropout, the stacked trainer is Keras' model written with torch.nn and
    torch.optim.Adam: same initial weights, same steps, same weights and BatchNorm statistics after them."""
    import torch
    from torch import nn

    X, y = _planted(n=80, d=6)
    cfg = gap.MLPConfig(hidden=5, dropout=0.0, max_epochs=4, patience=10, batch_size=64, n_folds=1)
    tr, va = np.arange(64), np.arange(64, 80)
    ens = gap.train_ensemble(X, y, [(tr, va)], cfg=cfg, seed=7)
    steps = ens.best_epochs[0]
    assert steps >= 1
    P0 = gap._init_params(1, 6, cfg, torch.Generator().manual_seed(7))  # the trainer's first draws
    net = nn.Sequential(nn.Linear(6, 5), nn.BatchNorm1d(5, eps=1e-3, momentum=0.01), nn.ReLU(), nn.Linear(5, 3))
    with torch.no_grad():
        net[0].weight.copy_(P0["W1"][0].T)
        net[0].bias.zero_()
        net[3].weight.copy_(P0["W2"][0].T)
        net[3].bias.zero_()
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=cfg.adam_eps)
    Xt, yt = torch.as_tensor(X[tr]), torch.as_tensor(y[tr])
    for _ in range(steps):
        loss = nn.functional.cross_entropy(net(Xt), yt) + 0.1 * (net[3].weight ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    close = dict(rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(ens.params["W1"][0].T.numpy(), net[0].weight.detach().numpy(), **close)
    np.testing.assert_allclose(ens.params["W2"][0].T.numpy(), net[3].weight.detach().numpy(), **close)
    np.testing.assert_allclose(ens.params["gamma"][0, 0].numpy(), net[1].weight.detach().numpy(), **close)
    # the hidden bias b1 has a zero gradient in exact arithmetic (BatchNorm removes it); Adam turns the float
    # noise of that gradient into ±lr steps that differ between the two implementations. b1 cancels in the
    # output but enters the moving mean, hence the looser tolerance there (Keras has the same quirk).
    np.testing.assert_allclose(ens.running_mean[0, 0].numpy(), net[1].running_mean.numpy(), atol=1e-4)
    np.testing.assert_allclose(ens.running_var[0, 0].numpy(), net[1].running_var.numpy(), **close)
    # inference: our trained weights and statistics in the torch model give our probabilities
    with torch.no_grad():
        net[0].bias.copy_(ens.params["b1"][0, 0])
        net[1].bias.copy_(ens.params["beta"][0, 0])
        net[3].bias.copy_(ens.params["b2"][0, 0])
        net[1].running_mean.copy_(ens.running_mean[0, 0])
        net[1].running_var.copy_(ens.running_var[0, 0])
        for i, k in ((0, "W1"), (3, "W2")):
            net[i].weight.copy_(ens.params[k][0].T)
        net[1].weight.copy_(ens.params["gamma"][0, 0])
    net.eval()
    with torch.no_grad():
        ref = torch.softmax(net(torch.as_tensor(X[va])).double(), dim=1).numpy()
    np.testing.assert_allclose(ens.predict_proba(X[va]), ref, rtol=1e-5, atol=1e-7)


def test_scores_and_label_codes():
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
    s = gap.scores(["A", "B"], proba)
    assert s["accuracy"] == 0.5 and s["log_loss"] == pytest.approx(-(np.log(0.7) + np.log(0.1)) / 2)
    assert gap.label_codes(["neither", "A", "B"]).tolist() == [2, 0, 1]
    with pytest.raises(ValueError, match="unknown label 'C'"):
        gap.label_codes(["A", "C"])


# --------------------------------------------------------------------------------------------------
# Table 4 and its permutation test
# --------------------------------------------------------------------------------------------------


def test_neither_table():
    df = pd.DataFrame({"gender": ["male", "female", "female", "male"], "label": ["neither", "A", "neither", "B"]})
    t = gap.neither_table(df, [0.5, 0.1, 0.3, 0.1])
    assert list(t.index) == ["male", "female"]
    assert t.loc["male", "prior"] == 0.5 and t.loc["female", "avg_predicted"] == pytest.approx(0.2)
    assert t.loc["female", "n"] == 2 and t.loc["male", "n_neither"] == 1


def test_permutation_test_exact_by_hand():
    p = np.array([0.9, 0.5, 0.4, 0.1, 0.2, 0.3])
    g = np.array(["female", "female", "female", "male", "male", "male"])
    res = gap.gender_permutation_test(p, g, p_method="exact")
    assert res.difference == pytest.approx(0.4)
    diffs = [p[list(c)].mean() - np.delete(p, list(c)).mean() for c in itertools.combinations(range(6), 3)]
    assert res.p_value == pytest.approx(np.mean(np.array(diffs) >= 0.4 - 1e-12))  # 1/20
    assert res.tail.p_method == "exact" and "exact" in res.describe()
    less = gap.gender_permutation_test(p, g, p_method="exact", alternative="less")
    assert less.p_value == pytest.approx(1.0)
    two = gap.gender_permutation_test(p, g, p_method="exact", alternative="two-sided")
    assert two.p_value == pytest.approx(2 * res.p_value)
    with pytest.raises(ValueError, match="'female' or 'male'"):
        gap.gender_permutation_test(p, np.array(["f"] * 6))


def test_permutation_test_on_planted_data():
    rng = np.random.default_rng(0)
    g = np.repeat(["female", "male"], 500)
    base = rng.beta(2, 15, size=1000)
    planted = gap.gender_permutation_test(base + 0.03 * (g == "female"), g, n_permutations=20_000, seed=1)
    assert planted.p_value < 0.01 and planted.tail.p_method == "monte-carlo"
    assert "Monte Carlo over 20,000" in planted.describe()
    null = gap.gender_permutation_test(base, g, n_permutations=20_000, seed=1, alternative="two-sided")
    assert null.p_value > 0.05
    again = gap.gender_permutation_test(base, g, n_permutations=20_000, seed=1, alternative="two-sided")
    assert again.p_value == null.p_value


# --------------------------------------------------------------------------------------------------
# topics (Table 6), topic bias, sample bias, Spearman
# --------------------------------------------------------------------------------------------------


def test_topic_bias_and_sample_bias_by_hand():
    H = np.array([[0.5, 0.3, 0.0, 0.2],
                  [0.0, 0.1, 0.9, 0.4]])
    vocab = ["goal", "team", "wife", "son"]
    s = {"goal": 1.0, "team": 2.0, "wife": -1.0, "son": 0.5}
    tb = gap.topic_bias(H, vocab, s, n_words=2)
    # topic 1: goal (0.5), team (0.3) -> 0.5*1 + 0.3*2; topic 2: wife (0.9), son (0.4) -> -0.9 + 0.2
    np.testing.assert_allclose(tb["bias"], [1.1, -0.7])
    assert tb["n_scored"].tolist() == [2, 2] and list(tb.index) == [1, 2]
    W = np.array([[1.0, 0.0], [0.5, 2.0], [0.0, 0.0]])
    np.testing.assert_allclose(gap.sample_bias(W, tb["bias"]), [1.1, 0.55 - 1.4, 0.0])
    with pytest.raises(ValueError, match="does not match"):
        gap.sample_bias(W, [1.0, 2.0, 3.0])


def test_missing_word_scores_are_reported_not_zero():
    H = np.array([[0.5, 0.3, 0.2]])
    vocab = ["goal", "kruse", "team"]
    with pytest.raises(KeyError, match=r"1 top topic words have no bias score: \['kruse'\]"):
        gap.topic_bias(H, vocab, {"goal": 1.0, "team": 1.0})
    tb = gap.topic_bias(H, vocab, {"goal": 1.0, "team": 1.0}, on_missing="drop")
    assert tb.loc[1, "missing"] == ("kruse",) and tb.loc[1, "n_scored"] == 2
    assert tb.loc[1, "bias"] == pytest.approx(0.7) and tb.loc[1, "weight_scored"] == pytest.approx(0.7)


_THEMES = [["team", "won", "match", "season", "final", "round", "club", "league"],
           ["married", "son", "daughter", "wife", "died", "born", "husband", "mother"],
           ["album", "songs", "band", "solo", "song", "record", "singer", "guitar"]]
CORPUS = [" ".join(np.random.default_rng(i).choice(_THEMES[i % 3], size=12)) for i in range(30)]


def test_nmf_topics_are_seeded_and_separate_the_themes():
    a = gap.fit_topics(CORPUS, n_topics=3, seed=0)
    b = gap.fit_topics(CORPUS, n_topics=3, seed=0)
    np.testing.assert_array_equal(a.components, b.components)
    np.testing.assert_array_equal(a.doc_topic, b.doc_topic)
    assert a.doc_topic.shape == (30, 3) and a.components.shape == (3, len(a.vocabulary))
    themes = [set(w) for w in gap.top_words(a.components, a.vocabulary, n=3)]
    for theme in _THEMES:  # each topic's top words come from one theme
        assert sum(t <= set(theme) for t in themes) == 1
    table = gap.topics_table(a, n=5)
    assert list(table.index) == [1, 2, 3] and table["top_words"].str.count(",").eq(4).all()
    # each document loads on its own theme's topic
    assert len({int(np.argmax(a.doc_topic[i])) for i in (0, 1, 2)}) == 3


def test_spearman_on_planted_data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=400)
    y = x + rng.normal(size=400)
    mask = np.arange(400) < 200
    r = gap.bias_correlation(x, y, mask)
    assert r.n == 200 and r.rho > 0.5 and r.p_value < 1e-10 and r.subset == "female"
    null = gap.bias_correlation(x, rng.normal(size=400))
    assert abs(null.rho) < 0.15 and null.p_value > 0.01


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
    cfg = gap.MLPConfig(max_epochs=5, patience=2, n_folds=2)
    res = gap.run(tiny, seed=0, seeds=[0, 1], n_permutations=500, cfg=cfg, n_topics=3, n_topic_words=5,
                  cache_dir=tmp_path)
    assert len(list(tmp_path.glob("*-*-*.npz"))) == 3 and len(list(tmp_path.glob("mlp-*.npz"))) == 1
    assert list(res.table4.index) == ["male", "female"] and res.table4["n"].tolist() == [30, 30]
    # over the seeds: the spread is that of the per-seed tables, and the seed table has one row per seed
    per_seed = [gap.neither_table(small("development"), p) for p in res.fit.proba[:, :, 2]]
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
    topics = gap.fit_topics(small("development")["Text"], 3, seed=0)
    scores = {w: 1.0 for w in gap.top_words(topics.components, topics.vocabulary, n=5)[0][1:]}
    res2 = gap.run(tiny, scores, seed=0, seeds=[0, 1], n_permutations=500, cfg=cfg, n_topics=3, n_topic_words=5,
                   cache_dir=tmp_path)
    assert res2.fit.cached  # the same features, labels, configuration and seeds: trained once
    assert res2.missing_words and res2.word_score_source == "caller's word scores"
    np.testing.assert_array_equal(res2.predictions["p_neither"], res.predictions["p_neither"])
    # a function of the words needed (how the notebook passes the MLM scores): called once with those words
    asked = []
    res3 = gap.run(tiny, lambda words: asked.append(list(words)) or {w: float(len(w)) for w in words}, seed=0,
                   n_permutations=500, cfg=cfg, n_topics=3, n_topic_words=5, cache_dir=tmp_path, score_source="len")
    assert len(asked) == 1 and res3.missing_words == () and res3.word_score_source == "len"
    assert set(asked[0]) == {w for ws in gap.top_words(topics.components, topics.vocabulary, n=5) for w in ws}


def test_seed_study_equals_lone_fits_whatever_the_workers(tmp_path):
    X, y = _planted()
    lone = [gap.fit_predict(X[:450], y[:450], X[450:], cfg=SMALL, seed=s).proba for s in (3, 4)]
    one = gap.fit_predict_seeds(X[:450], y[:450], X[450:], cfg=SMALL, seeds=[3, 4], workers=1)
    two = gap.fit_predict_seeds(X[:450], y[:450], X[450:], cfg=SMALL, seeds=[3, 4], workers=2, cache_dir=tmp_path)
    for study in (one, two):
        assert study.proba.shape == (2, 150, 3) and study.best_epochs.shape == (2, SMALL.n_folds)
        for k in range(2):
            np.testing.assert_array_equal(study.proba[k], lone[k])  # bit for bit
    again = gap.fit_predict_seeds(X[:450], y[:450], X[450:], cfg=SMALL, seeds=[3, 4], cache_dir=tmp_path)
    assert again.cached and not two.cached
    np.testing.assert_array_equal(again.proba, two.proba)
    # another configuration is another key: never served from the cache
    other = gap.fit_predict_seeds(X[:450], y[:450], X[450:], cfg=gap.MLPConfig(**{**vars(SMALL), "hidden": 8}),
                                  seeds=[3, 4], cache_dir=tmp_path, workers=1)
    assert not other.cached
    # a damaged cache file is recomputed, not returned or raised
    for f in tmp_path.glob("mlp-*.npz"):
        f.write_bytes(f.read_bytes()[:100])
    fixed = gap.fit_predict_seeds(X[:450], y[:450], X[450:], cfg=SMALL, seeds=[3, 4], cache_dir=tmp_path, workers=1)
    assert not fixed.cached
    np.testing.assert_array_equal(fixed.proba, two.proba)
    with pytest.raises(ValueError, match="distinct"):
        gap.fit_predict_seeds(X[:450], y[:450], X[450:], cfg=SMALL, seeds=[3, 3])


def test_spread_over_seeds():
    assert gap.spread([1.0, 2.0, 3.0]) == {"mean": 2.0, "sd": 1.0, "min": 1.0, "max": 3.0}
    assert gap.spread([0.5])["sd"] == 0.0


def test_topic_stability_by_hand():
    vocab = np.array(list("abcdefgh"))

    def topics(*rows):
        H = np.zeros((len(rows), len(vocab)))
        for k, words in enumerate(rows):
            for rank, w in enumerate(words):  # heavier first
                H[k, list(vocab).index(w)] = 10 - rank
        return gap.Topics(vocabulary=vocab, components=H, doc_topic=np.ones((1, len(rows))),
                          reconstruction_err=0.0, n_iter=1)

    ref = topics("abcde", "fghab")
    same = topics("edcba", "hgfba")       # both topics recur (order does not matter)
    other = topics("abfgh", "fghab")     # no topic shares 3 of a,b,c,d,e; both match f,g,h,a,b
    st = gap.topic_stability(ref, [same, other], n=5, min_shared=3)
    assert st.tolist() == [0.5, 1.0]
    assert np.isnan(gap.topic_stability(ref, [])).all()
