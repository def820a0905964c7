"""Tests for wordbias.ube_report (Tables 3/4/6 and the Section 4.1 crowdsourcing materials of Swinger et al.
2019) and plots.zipf_names (Figure 1), on hand-made tables, a tiny embedding of real names and a small
synthetic UBE run whose name tokens are real SSA first names (so demographics exist)."""

import string

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from wordbias.core import paths  # noqa: E402
from wordbias.core import figures as plots
from wordbias.measures import ube
from wordbias.papers import swinger2019 as ube_report
from wordbias.embeddings import to_keyed_vectors  # noqa: E402

DATA = paths.DATA / "swinger2019"


def _read_ssa():
    return pd.read_csv(DATA / "ssa_first_names_1938_2017.csv", keep_default_na=False, na_values=[])


def _read_census():
    return pd.read_csv(DATA / "census2010_surnames.csv.gz", keep_default_na=False,
                       na_values={c: [""] for c in ["pctwhite", "pctblack", "pctapi", "pctaian", "pct2prace",
                                                    "pcthispanic"]})


def _read_tzioumis():
    return pd.read_csv(DATA / "tzioumis2018_first_names.csv", keep_default_na=False, na_values=[])


def unit(x):
    x = np.asarray(x, dtype=np.float64)
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


# --------------------------------------------------------------------------------------------------
# labels, display_order
# --------------------------------------------------------------------------------------------------

def test_labels():
    assert ube_report.labels("first", 3) == ["F1", "F2", "F3"]
    assert ube_report.labels("last", 12)[-1] == "L12"
    assert ube_report.labels("last", 2) == ["L1", "L2"]
    assert ube_report.labels("first", 0) == []


def test_display_order_first_by_decreasing_pct_female_nan_last():
    demo = pd.DataFrame(dict(pct_female=[10.0, np.nan, 90.0, 50.0, 0.0],
                             pct_white=[99.0, 98.0, 97.0, 96.0, 95.0]))
    assert ube_report.display_order(demo, "first") == [2, 3, 0, 4, 1]


def test_display_order_last_by_decreasing_pct_white_nan_last_and_stable_ties():
    demo = pd.DataFrame(dict(pct_female=[np.nan] * 6,
                             pct_white=[20.0, np.nan, 70.0, 20.0, np.nan, 80.0]))
    # ties keep their input order (stable), NaN rows go last, in input order
    assert ube_report.display_order(demo, "last") == [5, 2, 0, 3, 1, 4]
    # first-name ordering ignores pct_white
    demo2 = pd.DataFrame(dict(pct_female=[50.0, 50.0, 60.0], pct_white=[0.0, 100.0, 50.0]))
    assert ube_report.display_order(demo2, "first") == [2, 0, 1]
    assert ube_report.display_order(demo2, "last") == [1, 2, 0]


# --------------------------------------------------------------------------------------------------
# name_list on a tiny embedding of real names
# --------------------------------------------------------------------------------------------------

def _tiny_kv(tokens, seed=0):
    rng = np.random.default_rng(seed)
    return to_keyed_vectors(list(tokens), rng.normal(size=(len(tokens), 5)).astype(np.float32))


def _expected(table, vocab, cased):
    form = (lambda s: s.capitalize()) if cased else (lambda s: s.lower())
    sub = table[table["count"] >= 1000]
    hit = sub[sub["name"].map(form).isin(set(vocab))]
    return [form(s) for s in hit["name"]], hit["count"].tolist(), len(sub)


@pytest.mark.parametrize("cased", [True, False])
def test_name_list_first(cased):
    vocab = ["Mary", "John", "Smith", "Zzqxv", "the", "James"] if cased else \
        ["mary", "john", "smith", "zzqxv", "the", "james"]
    kv = _tiny_kv(vocab)
    nl = ube_report.name_list("first", kv, cased=cased)
    ssa = _read_ssa()
    tokens, counts, n_source = _expected(ssa, vocab, cased)
    assert nl.kind == "first"
    assert nl.tokens == tokens
    # SSA frequency order: James (3.78M) > John (3.55M) > Mary (2.10M) > Smith (2,750)
    j = "James" if cased else "james"
    assert nl.tokens[0] == j and len(nl.tokens) == 4
    assert list(nl.counts.index) == nl.tokens
    assert nl.counts.tolist() == counts
    assert int(nl.counts[j]) == int(ssa.loc[ssa["name"] == "James", "count"].iloc[0])
    assert nl.n_source == n_source == len(ssa)
    assert len(nl.missing) == n_source - 4
    assert "Michael" in nl.missing and "Mary" not in nl.missing


@pytest.mark.parametrize("cased", [True, False])
def test_name_list_last(cased):
    vocab = ["Smith", "Johnson", "John", "Mary", "Qqqzx"] if cased else ["smith", "johnson", "john", "mary",
                                                                         "qqqzx"]
    kv = _tiny_kv(vocab, seed=1)
    nl = ube_report.name_list("last", kv, cased=cased)
    census = _read_census()
    tokens, counts, n_source = _expected(census, vocab, cased)
    assert nl.kind == "last"
    assert nl.tokens == tokens and len(tokens) == 4
    assert nl.tokens[:2] == (["Smith", "Johnson"] if cased else ["smith", "johnson"])
    assert nl.counts.tolist() == counts
    s = "Smith" if cased else "smith"
    assert int(nl.counts[s]) == int(census.loc[census["name"] == "SMITH", "count"].iloc[0])
    assert nl.n_source == n_source
    assert len(nl.missing) == n_source - 4
    assert "WILLIAMS" in nl.missing and "SMITH" not in nl.missing


def test_name_list_case_mismatch_finds_nothing_and_bad_kind_raises():
    kv = _tiny_kv(["mary", "john"])
    nl = ube_report.name_list("first", kv, cased=True)     # looks up "Mary", the embedding has "mary"
    assert nl.tokens == [] and len(nl.counts) == 0 and len(nl.missing) == nl.n_source
    with pytest.raises(ValueError, match="first' or 'last"):
        ube_report.name_list("middle", kv, cased=True)


# --------------------------------------------------------------------------------------------------
# a small UBE run on real SSA first names
# --------------------------------------------------------------------------------------------------

GROUP_SIZE = 40


def _pick_names():
    ssa = _read_ssa()   # sorted by count, descending
    ok = ssa["name"].str.fullmatch(r"[A-Z][a-z]+")
    female = ssa[ok & (ssa["frac_female"] > 0.95)]["name"].head(GROUP_SIZE).tolist()
    male = ssa[ok & (ssa["frac_female"] < 0.05)]["name"].head(GROUP_SIZE).tolist()
    unisex = ssa[ok & ssa["frac_female"].between(0.35, 0.65)]["name"].head(GROUP_SIZE).tolist()
    return [female, unisex, male]


def _token(rng, k=7):
    return "".join(rng.choice(list(string.ascii_lowercase), size=k))


def _name_embedding(seed=0, d=24, m=4, words_per_cat=60, other=400):
    """Three planted groups of real names (female, unisex, male), m word categories, the first two with
    thirds shifted towards each group, and random lower-case 'other' words (SVM non-names) at the end."""
    rng = np.random.default_rng(seed)
    planted = _pick_names()
    n = len(planted)
    basis = np.linalg.qr(rng.normal(size=(d, 1 + n + m)))[0].T
    name_dir, group_dirs, cat_dirs = basis[0], basis[1:1 + n], basis[1 + n:]
    tokens, vecs, names = [], [], []
    for i, grp in enumerate(planted):
        for w in grp:
            names.append(w)
            tokens.append(w)
            vecs.append(2.0 * name_dir + 2.5 * group_dirs[i] + 0.4 * rng.normal(size=d))
    n_cat_words = 0
    for j in range(m):
        for q in range(words_per_cat):
            w = _token(rng)
            v = 4.0 * cat_dirs[j] + 0.3 * rng.normal(size=d)
            if j < 2:
                v += 2.0 * (group_dirs[q % n] - group_dirs.mean(axis=0))
            tokens.append(w)
            vecs.append(v)
            n_cat_words += 1
    order = list(rng.permutation(len(tokens)))     # names and category words first (most frequent)
    for _ in range(other):
        order.append(len(tokens))
        tokens.append(_token(rng))
        vecs.append(rng.normal(size=d))
    assert len(set(tokens)) == len(tokens)
    kv = to_keyed_vectors([tokens[k] for k in order], np.asarray(vecs, dtype=np.float32)[order])
    return kv, names, planted, n_cat_words


@pytest.fixture(scope="module")
def ube_run():
    kv, names, planted, M = _name_embedding()
    res = ube.run(kv, names, n=3, m=4, M=M, t=3, R=100, seed=0, svm_top_words=len(kv.index_to_key),
                  clean_fraction=0.1, name_exclusions=names, cased=True, progress=False)
    return kv, res, planted


@pytest.fixture(scope="module")
def ordered(ube_run):
    kv, res, planted = ube_run
    demo = ube_report.demographics(res, "first")
    return kv, res.reorder(ube_report.display_order(demo, "first")), planted


def _independent_first_demographics(group):
    ssa = _read_ssa().assign(key=lambda d: d["name"].str.upper()).set_index("key")
    tz = _read_tzioumis().set_index("firstname")
    keys = [w.upper() for w in group]
    found = ssa.loc[[k for k in keys if k in ssa.index]]
    race = tz.loc[[k for k in keys if k in tz.index]]
    return dict(n_ssa=len(found), pct_female=float((found["frac_female"] * 100).mean()),
                mean_year=float(found["mean_year"].mean()), n_race=len(race),
                pct_white=float(race["pctwhite"].mean()) if len(race) else np.nan,
                pct_black=float(race["pctblack"].mean()) if len(race) else np.nan)


def test_run_recovers_the_planted_groups(ube_run):
    _, res, planted = ube_run
    truth = {w: i for i, grp in enumerate(planted) for w in grp}
    groups = res.groups()
    assert len(groups) == 3
    assert sorted(len({truth[w] for w in grp}) for grp in groups) == [1, 1, 1]
    assert res.n_significant() > 0


def test_demographics_equal_independent_computation(ube_run):
    _, res, _ = ube_run
    demo = ube_report.demographics(res, "first")
    assert list(demo.index) == [0, 1, 2]
    for i, grp in enumerate(res.groups()):
        exp = _independent_first_demographics(grp)
        assert demo.loc[i, "size"] == len(grp)
        assert demo.loc[i, "n_ssa"] == exp["n_ssa"] == len(grp)     # every name is a real SSA name
        assert demo.loc[i, "pct_female"] == pytest.approx(exp["pct_female"], rel=1e-9)
        assert demo.loc[i, "mean_year"] == pytest.approx(exp["mean_year"], rel=1e-9)
        assert demo.loc[i, "n_race"] == exp["n_race"]
        assert demo.loc[i, "pct_white"] == pytest.approx(exp["pct_white"], rel=1e-9, nan_ok=True)
        assert demo.loc[i, "pct_black"] == pytest.approx(exp["pct_black"], rel=1e-9, nan_ok=True)


def test_demographics_last_names(ube_run):
    _, res, _ = ube_run
    demo = ube_report.demographics(res, "last")
    census = _read_census().set_index("name")
    assert demo["pct_female"].isna().all() and demo["mean_year"].isna().all()
    for i, grp in enumerate(res.groups()):
        keys = [w.upper() for w in grp if w.upper() in census.index]
        assert demo.loc[i, "n_race"] == len(keys)
        exp = census.loc[keys, "pctwhite"].mean() if keys else np.nan
        assert demo.loc[i, "pct_white"] == pytest.approx(exp, rel=1e-9, nan_ok=True)


def test_group_table_in_display_order(ordered):
    kv, res, planted = ordered
    table = ube_report.group_table(res, kv, "first")
    groups = res.groups()
    assert len(table) == res.n == 3
    assert table["group"].tolist() == ["F1", "F2", "F3"]
    assert table["more"].tolist() == [len(g) - 5 for g in groups]
    pf = table["pct_female"].to_numpy()
    assert np.all(np.diff(pf) <= 0)
    # the planted female / unisex / male groups come out in that order, with clear gaps
    truth = {w: i for i, grp in enumerate(planted) for w in grp}
    assert [truth[g[0]] for g in groups] == [0, 1, 2]
    assert pf[0] > 90 and 30 < pf[1] < 70 and pf[2] < 10
    for i, grp in enumerate(groups):
        shown = table.loc[i, "illustrative"].split(", ")
        assert len(shown) == len(set(shown)) == 5
        assert set(shown) <= {w.capitalize() for w in grp}
        exp = _independent_first_demographics(grp)
        assert table.loc[i, "pct_female"] == pytest.approx(exp["pct_female"], rel=1e-9)
        assert table.loc[i, "mean_year"] == pytest.approx(exp["mean_year"], rel=1e-9)
        assert table.loc[i, "n_race"] == exp["n_race"]
    assert set(table.columns) >= {"group", "illustrative", "more", "pct_female", "mean_year", "pct_black",
                                  "pct_hispanic", "pct_asian", "pct_white", "n_race"}
    # the illustrative names are the greedy choice on the group's unit vectors
    g0 = groups[0]
    pick = ube.illustrative_names(unit(kv[g0]), 5)
    assert table.loc[0, "illustrative"] == ", ".join(g0[j] for j in pick)
    # k changes the number shown and "more"
    t3 = ube_report.group_table(res, kv, "first", k=3)
    assert t3["more"].tolist() == [len(g) - 3 for g in groups]
    assert ube_report.group_cards(res, kv, "first").equals(table[["group", "illustrative"]])


def test_significance_summary(ordered):
    _, res, _ = ordered
    s = ube_report.significance_summary(res)
    assert set(s) == {"n_significant", "n_tests", "n_cells", "critical_p", "min_p", "fourtuples",
                      "pct_indirect_bias"}
    assert s["n_significant"] == int(res.significant.sum()) > 0
    assert s["n_tests"] == int(np.isfinite(res.sigma).sum())
    assert s["n_cells"] == res.n * res.m == 12
    assert s["min_p"] == pytest.approx(float(res.p.min()))
    assert s["min_p"] >= 1 / (res.params["R"] + 1)
    assert np.all(res.p[res.significant] <= s["critical_p"])
    hits, total = res.indirect_bias()
    assert s["fourtuples"] == total
    if total:
        assert s["pct_indirect_bias"] == pytest.approx(100 * hits / total)
    else:
        assert np.isnan(s["pct_indirect_bias"])


def test_qualification_exam(ordered):
    kv, res, _ = ordered
    lab = ube_report.labels("first", res.n)
    where = {w.capitalize(): lab[i] for i, grp in enumerate(res.groups()) for w in grp}
    cards = ube_report.group_cards(res, kv, "first")
    shown = [c.split(", ") for c in cards["illustrative"]]      # cased tokens: "Mary" is the token
    exam = ube_report.qualification_exam(res, "first", seed=0, exclude=shown)
    assert list(exam.columns) == ["question", "name", "answer"]
    assert len(exam) == 3 * res.n
    assert exam["question"].tolist() == list(range(1, 3 * res.n + 1))
    assert exam["name"].is_unique
    for name, answer in zip(exam["name"], exam["answer"]):
        assert where[name] == answer
    assert exam["answer"].value_counts().to_dict() == {g: 3 for g in lab}
    excluded = {w for s in shown for w in s}
    assert not set(exam["name"]) & excluded
    # deterministic per seed, different across seeds
    again = ube_report.qualification_exam(res, "first", seed=0, exclude=shown)
    assert exam.equals(again)
    other = ube_report.qualification_exam(res, "first", seed=1, exclude=shown)
    assert set(other["name"]) != set(exam["name"])
    # per_group
    ex5 = ube_report.qualification_exam(res, "first", per_group=5, seed=2)
    assert len(ex5) == 5 * res.n and ex5["answer"].value_counts().to_dict() == {g: 5 for g in lab}
    # a group too small for per_group
    smallest = min(len(g) for g in res.groups())
    with pytest.raises(ValueError, match="only"):
        ube_report.qualification_exam(res, "first", per_group=smallest + 1)
    # excluding names shrinks the pool: a pool of exactly per_group names still works, one fewer fails
    g0 = res.groups()[0]
    keep3 = [g0[:-3]] + [[] for _ in range(res.n - 1)]
    ex = ube_report.qualification_exam(res, "first", per_group=3, exclude=keep3)
    assert set(ex.loc[ex["answer"] == lab[0], "name"]) == {w.capitalize() for w in g0[-3:]}
    with pytest.raises(ValueError, match="group 1 has only 2"):
        ube_report.qualification_exam(res, "first", per_group=3, exclude=[g0[:-2]] + [[]] * (res.n - 1))


def test_matching_and_rating_tasks(ordered):
    _, res, _ = ordered
    lab = ube_report.labels("first", res.n)
    match = ube_report.matching_tasks(res, "first")
    assert list(match.columns) == ["weat", "category", "words", "choices", "n_choices", "answer"]
    top_cats = [j for j in res.category_order() if res.significant[:, j].any()][:12]
    assert len(match) == int(res.significant[:, top_cats].sum()) == res.n_significant()
    expected_cells = {(j, i) for j in top_cats for i in range(res.n) if res.significant[i, j]}
    got_cells = set()
    for row in match.itertuples():
        j = int(row.category[1:])
        i = lab.index(row.answer)
        got_cells.add((j, i))
        assert res.significant[i, j]
        assert row.weat == top_cats.index(j) + 1
        choices = row.choices.split(" ")
        assert choices == [lab[g] for g in range(res.n) if res.significant[g, j]]
        assert row.answer in choices
        assert row.n_choices == len(choices)
        assert row.words == ", ".join(res.selected_words(i, j))
        assert len(row.words.split(", ")) == res.params["t"]
    assert got_cells == expected_cells
    assert match["weat"].tolist() == sorted(match["weat"].tolist())
    # top restricts to the first WEATs
    one = ube_report.matching_tasks(res, "first", top=1)
    assert set(one["weat"]) == {1}
    assert set(one["category"]) == {f"A{top_cats[0]}"}
    assert len(one) == int(res.significant[:, top_cats[0]].sum())

    rate = ube_report.rating_tasks(match)
    assert list(rate.columns) == ["weat", "category", "group", "words", "rating_1_to_7"]
    assert len(rate) == len(match)
    assert rate["group"].tolist() == match["answer"].tolist()
    assert rate["words"].tolist() == match["words"].tolist()
    assert (rate["rating_1_to_7"] == "").all()
    assert "answer" in match.columns   # rating_tasks does not modify its input


# --------------------------------------------------------------------------------------------------
# Figure 1
# --------------------------------------------------------------------------------------------------

def test_zipf_names_scatter_counts():
    rng = np.random.default_rng(0)
    rank = np.arange(1, 31) * 7
    log_prob = -np.sort(rng.uniform(3, 12, size=30))
    kept = np.ones(30, dtype=bool)
    kept[[1, 4, 9, 17, 25]] = False
    labels = [f"N{k}" for k in range(30)]
    fig = plots.zipf_names(rank, log_prob, kept, labels, title="t", annotate=3)
    try:
        ax = fig.axes[0]
        assert len(ax.collections) == 2
        a, b = (c.get_offsets() for c in ax.collections)
        assert len(a) == 25 and len(b) == 5
        np.testing.assert_allclose(np.asarray(a), np.c_[rank[kept], log_prob[kept]])
        np.testing.assert_allclose(np.asarray(b), np.c_[rank[~kept], log_prob[~kept]])
        # the 3 removed names with the smallest vocabulary index are labelled
        assert [t.get_text() for t in ax.texts] == ["N1", "N4", "N9"]
        assert ax.get_xscale() == "log"
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend == ["kept (25)", "removed by cleaning (5)"]
        assert ax.get_title() == "t"
    finally:
        plt.close(fig)
    fig = plots.zipf_names(rank, log_prob, kept, title="no labels")
    try:
        assert fig.axes[0].texts == [] or len(fig.axes[0].texts) == 0
    finally:
        plt.close(fig)


def test_matching_tasks_choices_follow_a_partial_significance_pattern(ordered):
    """Same run with a hand-set significance pattern, so that WEATs have different sets of choices."""
    import dataclasses

    _, res, _ = ordered
    pattern = np.array([[True, False, True, False],
                        [False, False, True, True],
                        [True, False, False, False]])
    r = dataclasses.replace(res, significant=pattern)
    lab = ube_report.labels("first", 3)
    match = ube_report.matching_tasks(r, "first")
    assert len(match) == pattern.sum() == 5
    assert "A1" not in set(match["category"])          # no significant cell: no WEAT
    by_cat = {c: sub for c, sub in match.groupby("category")}
    assert set(by_cat) == {"A0", "A2", "A3"}
    assert set(by_cat["A0"]["answer"]) == {"F1", "F3"} and set(by_cat["A0"]["choices"]) == {"F1 F3"}
    assert set(by_cat["A2"]["answer"]) == {"F1", "F2"} and set(by_cat["A2"]["choices"]) == {"F1 F2"}
    assert by_cat["A3"]["answer"].tolist() == ["F2"] and by_cat["A3"]["choices"].tolist() == ["F2"]
    assert by_cat["A3"]["n_choices"].tolist() == [1]
    assert (by_cat["A0"]["n_choices"] == 2).all()
    # WEAT rank follows category_order (total σ of the significant cells)
    order = [j for j in r.category_order() if pattern[:, j].any()]
    assert [int(c[1:]) for c in match.drop_duplicates("weat")["category"]] == order
    for row in match.itertuples():
        assert row.answer in row.choices.split(" ")
        assert row.words == ", ".join(r.selected_words(lab.index(row.answer), int(row.category[1:])))
    s = ube_report.significance_summary(r)
    assert s["n_significant"] == 5
    # fourtuples: groups (F1, F2) share only A2, (F1, F3) share only A0, (F2, F3) nothing -> none
    assert s["fourtuples"] == r.indirect_bias()[1] == 0 and np.isnan(s["pct_indirect_bias"])
    pattern2 = pattern.copy()
    pattern2[1, 0] = True                              # F1 and F2 now share A0 and A2: one fourtuple
    s2 = ube_report.significance_summary(dataclasses.replace(res, significant=pattern2))
    assert s2["fourtuples"] == 1 and s2["pct_indirect_bias"] in (0.0, 100.0)
    # make that fourtuple point one way, then the other: eq. (1) counts it as a potential indirect bias or not
    e = np.zeros(res.Xbar.shape[1])
    e[0] = 1.0
    for sign, pct in ((1.0, 100.0), (-1.0, 0.0)):
        Asel = dict(res.Asel)
        Asel[(0, 0)], Asel[(1, 0)] = e, -e
        Asel[(0, 2)], Asel[(1, 2)] = sign * e, -sign * e
        s3 = ube_report.significance_summary(dataclasses.replace(res, significant=pattern2, Asel=Asel))
        assert s3["fourtuples"] == 1 and s3["pct_indirect_bias"] == pct
