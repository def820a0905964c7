"""Tests for wordbias.papers.swinger2019 (Tables 3-8, Figure 1 and the Section 4.1 crowdsourcing materials of
Swinger et al. 2019) and figures.zipf_names (Figure 1), on hand-made tables, a tiny embedding of real names and a
small synthetic UBE run whose name tokens are real SSA first names (so demographics exist)."""

import dataclasses
import string
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from wordbias.core import figures, paths  # noqa: E402
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import (
    censor,  # noqa: E402
    stimuli,  # noqa: E402
)
from wordbias.embeddings import to_keyed_vectors  # noqa: E402
from wordbias.measures.association import weat
from wordbias.measures.enumeration import ube, ube_names  # noqa: E402
from wordbias.papers import swinger2019  # noqa: E402

DATA = paths.DATA / "swinger2019"


def _read_ssa():
    return pd.read_csv(DATA / "ssa_first_names_1938_2017.csv", keep_default_na=False, na_values=[])


def _read_census():
    return pd.read_csv(DATA / "census2010_surnames.csv.gz", keep_default_na=False,
                       na_values={c: [""] for c in ["pctwhite", "pctblack", "pctapi", "pctaian", "pct2prace",
                                                    "pcthispanic"]})


def _read_tzioumis():
    return pd.read_csv(DATA / "tzioumis2018_first_names.csv", keep_default_na=False, na_values=[])


def _tiny_kv(tokens, seed=0):
    rng = np.random.default_rng(seed)
    return to_keyed_vectors(list(tokens), rng.normal(size=(len(tokens), 5)).astype(np.float32))


def unit(x):
    x = np.asarray(x, dtype=np.float64)
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


# --------------------------------------------------------------------------------------------------
# labels, display_order
# --------------------------------------------------------------------------------------------------

def test_labels():
    assert swinger2019.labels("first", 3) == ["F1", "F2", "F3"]
    assert swinger2019.labels("last", 12)[-1] == "L12"
    assert swinger2019.labels("last", 2) == ["L1", "L2"]
    assert swinger2019.labels("first", 0) == []


def test_display_order_first_by_decreasing_pct_female_nan_last():
    demo = pd.DataFrame(dict(pct_female=[10.0, np.nan, 90.0, 50.0, 0.0],
                             pct_white=[99.0, 98.0, 97.0, 96.0, 95.0]))
    assert swinger2019.display_order(demo, "first") == [2, 3, 0, 4, 1]


def test_display_order_last_by_decreasing_pct_white_nan_last_and_stable_ties():
    demo = pd.DataFrame(dict(pct_female=[np.nan] * 6,
                             pct_white=[20.0, np.nan, 70.0, 20.0, np.nan, 80.0]))
    # ties keep their input order (stable), NaN rows go last, in input order
    assert swinger2019.display_order(demo, "last") == [5, 2, 0, 3, 1, 4]
    # first-name ordering ignores pct_white
    demo2 = pd.DataFrame(dict(pct_female=[50.0, 50.0, 60.0], pct_white=[0.0, 100.0, 50.0]))
    assert swinger2019.display_order(demo2, "first") == [2, 0, 1]
    assert swinger2019.display_order(demo2, "last") == [1, 2, 0]


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
    parameters = ube.UBEParameters(n=3, m=4, M=M, t=3, R=100, seed=0, svm_top_words=len(kv.index_to_key),
                                   clean_fraction=0.1)
    res = ube.run(kv, names, parameters, name_exclusions=names, cased=True, progress=False)
    return kv, res, planted


@pytest.fixture(scope="module")
def ordered(ube_run):
    kv, res, planted = ube_run
    demo = swinger2019.demographics(res, "first")
    return kv, res.reorder(swinger2019.display_order(demo, "first")), planted


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
    demo = swinger2019.demographics(res, "first")
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
    demo = swinger2019.demographics(res, "last")
    census = _read_census().set_index("name")
    assert demo["pct_female"].isna().all() and demo["mean_year"].isna().all()
    for i, grp in enumerate(res.groups()):
        keys = [w.upper() for w in grp if w.upper() in census.index]
        assert demo.loc[i, "n_race"] == len(keys)
        exp = census.loc[keys, "pctwhite"].mean() if keys else np.nan
        assert demo.loc[i, "pct_white"] == pytest.approx(exp, rel=1e-9, nan_ok=True)


def test_group_table_in_display_order(ordered):
    kv, res, planted = ordered
    table = swinger2019.group_table(res, kv, "first")
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
    t3 = swinger2019.group_table(res, kv, "first", k=3)
    assert t3["more"].tolist() == [len(g) - 3 for g in groups]
    assert swinger2019.group_cards(res, kv, "first").equals(table[["group", "illustrative"]])


def test_significance_summary(ordered):
    _, res, _ = ordered
    s = swinger2019.significance_summary(res)
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
    lab = swinger2019.labels("first", res.n)
    where = {w.capitalize(): lab[i] for i, grp in enumerate(res.groups()) for w in grp}
    cards = swinger2019.group_cards(res, kv, "first")
    shown = [c.split(", ") for c in cards["illustrative"]]      # cased tokens: "Mary" is the token
    exam = swinger2019.qualification_exam(res, "first", seed=0, exclude=shown)
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
    again = swinger2019.qualification_exam(res, "first", seed=0, exclude=shown)
    assert exam.equals(again)
    other = swinger2019.qualification_exam(res, "first", seed=1, exclude=shown)
    assert set(other["name"]) != set(exam["name"])
    # per_group
    ex5 = swinger2019.qualification_exam(res, "first", per_group=5, seed=2)
    assert len(ex5) == 5 * res.n and ex5["answer"].value_counts().to_dict() == {g: 5 for g in lab}
    # a group too small for per_group
    smallest = min(len(g) for g in res.groups())
    with pytest.raises(ValueError, match="only"):
        swinger2019.qualification_exam(res, "first", per_group=smallest + 1)
    # excluding names shrinks the pool: a pool of exactly per_group names still works, one fewer fails
    g0 = res.groups()[0]
    keep3 = [g0[:-3]] + [[] for _ in range(res.n - 1)]
    ex = swinger2019.qualification_exam(res, "first", per_group=3, exclude=keep3)
    assert set(ex.loc[ex["answer"] == lab[0], "name"]) == {w.capitalize() for w in g0[-3:]}
    with pytest.raises(ValueError, match="group 1 has only 2"):
        swinger2019.qualification_exam(res, "first", per_group=3, exclude=[g0[:-2]] + [[]] * (res.n - 1))


def test_matching_and_rating_tasks(ordered):
    _, res, _ = ordered
    lab = swinger2019.labels("first", res.n)
    match = swinger2019.matching_tasks(res, "first")
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
    one = swinger2019.matching_tasks(res, "first", top=1)
    assert set(one["weat"]) == {1}
    assert set(one["category"]) == {f"A{top_cats[0]}"}
    assert len(one) == int(res.significant[:, top_cats[0]].sum())

    rate = swinger2019.rating_tasks(match)
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
    fig = figures.zipf_names(rank, log_prob, kept, labels, title="t", annotate=3)
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
    fig = figures.zipf_names(rank, log_prob, kept, title="no labels")
    try:
        assert fig.axes[0].texts == [] or len(fig.axes[0].texts) == 0
    finally:
        plt.close(fig)


def test_matching_tasks_choices_follow_a_partial_significance_pattern(ordered):
    """Same run with a hand-set significance pattern, so that WEATs have different sets of choices."""
    _, res, _ = ordered
    pattern = np.array([[True, False, True, False],
                        [False, False, True, True],
                        [True, False, False, False]])
    r = dataclasses.replace(res, significant=pattern)
    lab = swinger2019.labels("first", 3)
    match = swinger2019.matching_tasks(r, "first")
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
    s = swinger2019.significance_summary(r)
    assert s["n_significant"] == 5
    # fourtuples: groups (F1, F2) share only A2, (F1, F3) share only A0, (F2, F3) nothing -> none
    assert s["fourtuples"] == r.indirect_bias()[1] == 0 and np.isnan(s["pct_indirect_bias"])
    pattern2 = pattern.copy()
    pattern2[1, 0] = True                              # F1 and F2 now share A0 and A2: one fourtuple
    s2 = swinger2019.significance_summary(dataclasses.replace(res, significant=pattern2))
    assert s2["fourtuples"] == 1 and s2["pct_indirect_bias"] in (0.0, 100.0)
    # make that fourtuple point one way, then the other: eq. (1) counts it as a potential indirect bias or not
    e = np.zeros(res.Xbar.shape[1])
    e[0] = 1.0
    for sign, pct in ((1.0, 100.0), (-1.0, 0.0)):
        Asel = dict(res.Asel)
        Asel[(0, 0)], Asel[(1, 0)] = e, -e
        Asel[(0, 2)], Asel[(1, 2)] = sign * e, -sign * e
        s3 = swinger2019.significance_summary(dataclasses.replace(res, significant=pattern2, Asel=Asel))
        assert s3["fourtuples"] == 1 and s3["pct_indirect_bias"] == pct


# --------------------------------------------------------------------------------------------------
# the functions the notebook calls: each against a reference implementation written out in the test
# --------------------------------------------------------------------------------------------------

PAPER = stimuli.load_stimuli("swinger2019")


def _names_of(kv, tokens, kind="first"):
    """A NameList of the given tokens (cased SSA names), with their SSA counts."""
    ssa = _read_ssa().set_index("name")["count"]
    counts = pd.Series([int(ssa[w]) for w in tokens], index=list(tokens), name="count")
    return ube_names.NameList(kind=kind, tokens=list(tokens), counts=counts, missing=(), n_source=len(ssa))


def _old_save_run(res, kv, kind, out, tag):
    """What the notebook's cells wrote for one run before the block moved to save_run."""
    cl = res.cleaning
    pd.DataFrame(dict(token=cl.tokens, margin=cl.margin, kept=cl.kept)).to_csv(
        out / f"{tag}_cleaning.csv", index=False, float_format="%.6g")
    groups = swinger2019.group_table(res, kv, kind)
    groups.to_csv(out / f"{tag}_groups.csv", index=False, float_format="%.4g")
    lab = swinger2019.labels(kind, res.n)
    res.grid(top=12, labels=lab).to_csv(out / f"{tag}_top12.csv")
    res.tests().assign(group=lambda d: d["group"].map(dict(enumerate(lab)))).to_csv(
        out / f"{tag}_tests.csv", index=False, float_format="%.6g")


def test_run_is_ube_run_in_display_order(ube_run, ordered):
    kv, _, _ = ube_run
    _, expected, _ = ordered
    names = _names_of(kv, [w for grp in _pick_names() for w in grp])
    res = swinger2019.run(kv, names, cased=True, n=3, m=4, M=expected.params["M"], t=3, R=100, seed=0,
                          svm_top_words=len(kv.index_to_key), clean_fraction=0.1)
    assert res.groups() == expected.groups()
    np.testing.assert_array_equal(res.sigma, expected.sigma)
    np.testing.assert_array_equal(res.p, expected.p)
    np.testing.assert_array_equal(res.significant, expected.significant)
    pf = swinger2019.demographics(res, "first")["pct_female"].to_numpy()
    assert np.all(np.diff(pf) <= 0)
    with pytest.raises(TypeError):
        swinger2019.run(kv, names, cased=True, n=3, R_typo=5)


def test_describe_run(ordered):
    _, res, _ = ordered
    line = swinger2019.describe_run(res)
    cl = res.cleaning
    assert line.startswith(f"{len(cl.tokens):,} names -> {len(res.names):,} after cleaning "
                           f"({(~cl.kept).sum():,} removed); ")
    assert (f"{len(res.words):,} words (Appendix C.4 on the embedding's case) in 4 categories; "
            f"{np.isfinite(res.sigma).sum()} of 12 ") in line
    assert line.endswith("(>= 3 words in the Voronoi set)")


def test_save_run_writes_the_notebooks_files_byte_for_byte(ordered, tmp_path):
    kv, res, _ = ordered
    new, old = tmp_path / "new", tmp_path / "old"
    new.mkdir()
    old.mkdir()
    tables = swinger2019.save_run(res, kv, "first", new, "first")
    _old_save_run(res, kv, "first", old, "first")
    files = sorted(p.name for p in old.iterdir())
    assert files == ["first_cleaning.csv", "first_groups.csv", "first_tests.csv", "first_top12.csv"]
    assert sorted(p.name for p in new.iterdir()) == files
    for name in files:
        assert (new / name).read_bytes() == (old / name).read_bytes(), name
    assert tables.groups.equals(swinger2019.group_table(res, kv, "first"))
    assert tables.top12.equals(swinger2019.grid(res, "first"))
    assert list(tables.cleaning.columns) == ["token", "margin", "kept"]
    assert set(tables.tests["group"]) == {"F1", "F2", "F3"}
    assert len(tables.tests) == res.n * res.m
    with pytest.raises(dataclasses.FrozenInstanceError):
        tables.groups = None


def test_grid_and_cells_table_use_the_papers_labels(ordered):
    _, res, _ = ordered
    g = swinger2019.grid(res, "last", top=1)
    assert list(g.columns) == ["L1", "L2", "L3"] and len(g) == 1
    assert g.equals(res.grid(top=1, labels=["L1", "L2", "L3"]))
    shouted = swinger2019.grid(res, "first", censor=str.upper)
    plain = swinger2019.grid(res, "first")
    assert shouted.equals(plain.apply(lambda col: col.str.upper()).set_axis(plain.index.str.upper()))  # labels too
    cells = swinger2019.cells_table(res, "first")
    raw = res.tests()
    assert cells.drop(columns="group").equals(raw.drop(columns="group"))
    assert cells["group"].tolist() == [f"F{i + 1}" for i in raw["group"]]


def test_figure1_plots_the_cleaned_names(ordered):
    kv, res, planted = ordered
    names = _names_of(kv, [w for grp in planted for w in grp])
    fig = swinger2019.figure1(res, names, kv, "toy")
    try:
        ax = fig.axes[0]
        assert ax.get_title() == "Figure 1 (first names, toy)"
        cl = res.cleaning
        counts = names.counts.loc[cl.tokens].to_numpy(dtype=float)
        rank = np.array([kv.key_to_index[w] for w in cl.tokens])
        y = np.log(counts / names.counts.sum())
        kept, removed = (np.asarray(c.get_offsets()) for c in ax.collections)
        np.testing.assert_array_equal(kept, np.c_[rank[cl.kept], y[cl.kept]])
        np.testing.assert_array_equal(removed, np.c_[rank[~cl.kept], y[~cl.kept]])
        assert [t.get_text() for t in ax.texts] == \
            [cl.tokens[k].capitalize() for k in np.flatnonzero(~cl.kept)[np.argsort(rank[~cl.kept])][:12]]
    finally:
        plt.close(fig)


def test_lemma1_check_equals_weat_and_folds_case():
    rng = np.random.default_rng(3)
    words = ["x1", "x2", "x3", "y1", "y2", "a1", "a2", "b1", "b2"]
    kv = to_keyed_vectors(words, rng.normal(size=(len(words), 4)).astype(np.float32))
    spec = SimpleNamespace(X=("X1", "X2", "X3", "Xnone"), Y=("Y1", "Y2"), A=("A1", "A2"), B=("B1", "B2"))
    check = swinger2019.lemma1_check(kv, spec, cased=False)
    assert check.k == 2
    X, Y, A, B = ["x1", "x2"], ["y1", "y2"], ["a1", "a2"], ["b1", "b2"]
    assert check.s == weat.test_statistic(weat.association(kv[X], kv[A], kv[B]),
                                          weat.association(kv[Y], kv[A], kv[B]))
    assert check.g == ube.g([kv[X], kv[Y]], [kv[A], kv[B]])
    assert check.two_x_g == 2 * 2 * check.g
    assert check.two_x_g == pytest.approx(check.s, rel=1e-5)      # Lemma 1
    # a cased embedding is looked up as is: upper-case words are missing, X and Y become empty
    assert swinger2019.lemma1_check(kv, SimpleNamespace(X=("x1", "x2"), Y=("y1",), A=("a1",), B=("b1",)),
                                    cased=True).k == 1


def test_paper_tables():
    p3 = swinger2019.paper_table3(PAPER)
    raw = PAPER["table3"]["groups"]
    assert len(p3) == len(raw) and p3["illustrative"].tolist() == [", ".join(g["illustrative"]) for g in raw]
    deb = swinger2019.paper_table6(PAPER, "deb")
    assert list(deb.columns) == [g["group"] for g in PAPER["table6"]["deb"]["groups"]]
    assert set(deb.index) == {"more", "pct_female", "mean_year", "pct_black", "pct_hispanic", "pct_asian",
                              "pct_white"}
    last = swinger2019.paper_table6(PAPER, "w2v_last")
    assert set(last.index) == {"more", "pct_black", "pct_hispanic", "pct_asian", "pct_white"}
    for key in ("table5", "table8"):
        g = swinger2019.paper_grid(PAPER[key])
        assert list(g.columns) == PAPER[key]["columns"]
        assert g.index.tolist() == [row["topic_ours"] for row in PAPER[key]["rows"]]
        row = PAPER[key]["rows"][0]
        for col, words in row["cells"].items():
            assert g.loc[row["topic_ours"], col] == ", ".join(words)


def test_shares_and_pct_female_tables(ordered):
    kv, res, _ = ordered
    groups = swinger2019.group_table(res, kv, "first")
    shares = swinger2019.group_shares(groups)
    pf = groups["pct_female"]
    assert shares["pct_female_range"] == f"{pf.min():.0f}-{pf.max():.0f}"
    assert shares["groups_over_90pct_one_sex"] == 2               # the planted female and male groups
    assert shares["majority_black"] == int((groups["pct_black"] > 50).sum())
    last = swinger2019.group_shares(swinger2019.group_table(res, kv, "last"))
    assert last["pct_female_range"] is None and last["groups_over_90pct_one_sex"] is None
    table = swinger2019.shares_table(groups, PAPER)
    assert list(table.columns) == ["ours", "paper (w2v)"]
    assert table["ours"].to_dict() == shares
    assert table["paper (w2v)"].to_dict() == swinger2019.group_shares(swinger2019.paper_table3(PAPER))
    pct = swinger2019.pct_female_table(groups, PAPER, "toy")
    assert pct.index.tolist() == ["ours (toy)", "w2v (Table 3)", "fast (Table 6)", "glove (Table 6)",
                                  "deb (Table 6)"]
    assert set(pct.columns) == {g["group"] for g in PAPER["table3"]["groups"]}     # F1..F12, ours F1..F3
    assert pct.loc["ours (toy)", ["F1", "F2", "F3"]].tolist() == pf.round(0).tolist()
    assert pct.loc["w2v (Table 3)", "F1"] == PAPER["table3"]["groups"][0]["pct_female"]


def test_table4_indirect_bias_and_summary(ordered, tmp_path):
    _, res, _ = ordered
    row = swinger2019.summary_row(res, "first names")
    assert row == {"run": "first names", **swinger2019.significance_summary(res)}
    t4 = swinger2019.table4(row, PAPER, "toy")
    assert t4.index.tolist() == ["ours", "paper: w2v", "paper: fast", "paper: glove"]
    assert t4.loc["ours", "# significant"] == res.n_significant()
    assert t4.loc["paper: w2v", "# significant"] == 235 and t4.loc["ours", "% accurate"] == "needs crowd workers"
    ib = swinger2019.indirect_bias_table(row, PAPER, "toy")
    assert ib.index.tolist() == ["ours (toy)", "w2v", "fast", "glove"]
    assert ib.loc["ours (toy)", "significant fourtuples"] == row["fourtuples"]
    assert ib.loc["w2v", "% potential indirect bias"] == 99
    rows = [row, swinger2019.summary_row(res, "again")]
    summary = swinger2019.write_summary(rows, "toy", tmp_path)
    assert summary.columns[:2].tolist() == ["run", "embedding"] and (summary["embedding"] == "toy").all()
    old = pd.DataFrame(rows)
    old.insert(1, "embedding", "toy")
    old.to_csv(tmp_path / "old.csv", index=False, float_format="%.6g")
    assert (tmp_path / "summary.csv").read_bytes() == (tmp_path / "old.csv").read_bytes()


def test_crowdsourcing_materials_and_files(ordered, tmp_path):
    kv, res, _ = ordered
    crowd = swinger2019.crowdsourcing(res, kv, "first", seed=4)
    cards = swinger2019.group_cards(res, kv, "first")
    shown = [g.lower().split(", ") for g in cards["illustrative"]]
    assert crowd.cards.equals(cards)
    assert crowd.exam.equals(swinger2019.qualification_exam(res, "first", seed=4, exclude=shown))
    assert crowd.matching.equals(swinger2019.matching_tasks(res, "first"))
    assert crowd.rating.equals(swinger2019.rating_tasks(crowd.matching))
    crowd.write(tmp_path / "crowdsourcing")
    for name, table in [("group_cards", cards), ("qualification_exam", crowd.exam),
                        ("matching_tasks", crowd.matching), ("rating_tasks", crowd.rating)]:
        assert (tmp_path / "crowdsourcing" / f"{name}.csv").read_text() == table.to_csv(index=False)


def test_debiased_embedding_choices(monkeypatch):
    kv = _tiny_kv(["he", "she"])
    assert swinger2019.debiased_embedding("", kv) == (None, None)
    monkeypatch.setattr(swinger2019.debias, "hard_debias", lambda k: ("debiased", "report") if k is kv else None)
    assert swinger2019.debiased_embedding("auto", kv) == ("debiased", "report")
    monkeypatch.setattr(swinger2019.embeddings, "load", lambda name, progress: (name, progress))
    assert swinger2019.debiased_embedding("my-vectors", kv) == (("my-vectors", False), None)


def test_debias_summary_keeps_scalars_rounded():
    report = SimpleNamespace(summary=lambda: dict(n_words=10, mean=0.123456, pairs=[["a", "b"]], info={"x": 1},
                                                  how="input"))
    assert swinger2019.debias_summary(report) == {"n_words": 10, "mean": 0.1235, "how": "input"}


def test_debiasing_by_group_and_one_sex_counts(ordered):
    kv, res, _ = ordered
    groups = swinger2019.group_table(res, kv, "first")
    pattern = np.zeros_like(res.significant)
    pattern[2, :2] = True
    res_deb = dataclasses.replace(res, significant=pattern)
    table = swinger2019.debiasing_by_group(groups, res, groups, res_deb)
    assert table.index.tolist() == ["F1", "F2", "F3"]
    assert table["original: # significant"].tolist() == res.significant.sum(axis=1).tolist()
    assert table["debiased: # significant"].tolist() == [0, 0, 2]
    assert table["original: % female"].tolist() == groups["pct_female"].round(0).tolist()
    one_sex = (groups["pct_female"] > 90) | (groups["pct_female"] < 10)
    assert one_sex.tolist() == [True, False, True]
    assert swinger2019.n_significant_one_sex(groups, res) == int(res.significant[[0, 2]].sum())
    assert swinger2019.n_significant_one_sex(groups, res_deb) == 2


def test_bleep_censoring_of_a_displayed_grid(ordered):
    """The notebook passes censor.censor as the grid's censor: cells are censored, the CSV's grid is not."""
    _, res, _ = ordered
    plain = swinger2019.grid(res, "first")
    shown = swinger2019.grid(res, "first", censor=censor.censor)
    assert shown.equals(plain.apply(lambda col: [censor.censor(c) if c else c for c in col]))


# --------------------------------------------------------------------------------------------------
# readable Table 5, natural group order, the case rule's effect
# --------------------------------------------------------------------------------------------------

def test_natural_key_orders_group_labels_by_number():
    labels = [f"F{i}" for i in range(1, 13)]
    assert sorted(sorted(labels), key=swinger2019.natural_key) == labels      # string order undone
    assert sorted(["L2", "F10", "F2"], key=swinger2019.natural_key) == ["F2", "F10", "L2"]


def test_pct_female_table_columns_in_natural_order(ordered):
    """A run with fewer groups than the paper's twelve printed F1, F10, F11, F12, F2, ... (a pandas union sort)."""
    kv, res, _ = ordered
    pct = swinger2019.pct_female_table(swinger2019.group_table(res, kv, "first"), PAPER, "toy")
    assert list(pct.columns) == [f"F{i}" for i in range(1, 13)]


def test_grid_rows_are_labelled_by_central_words(ordered):
    _, res, _ = ordered
    g = swinger2019.grid(res, "first")
    cats = [j for j in res.category_order() if res.significant[:, j].any()][:12]
    assert g.index.tolist() == [f"A{j}: {', '.join(res.central_words(j))}" for j in cats]
    assert swinger2019.grid(res, "first", central=0).index.tolist() == [f"A{j}" for j in cats]
    assert swinger2019.grid(res, "first", censor=str.upper).index.tolist() == [x.upper() for x in g.index]


def test_table_words_are_the_grids_words(ordered):
    _, res, _ = ordered
    g = swinger2019.grid(res, "first")
    from_grid = [w for _, row in g.iterrows() for cell in row if cell for w in cell.split(", ")]
    assert swinger2019.table_words(res) == from_grid
    every = swinger2019.table_words(res, top=None)
    assert len(every) == res.params["t"] * res.n_significant()


def test_case_effect_table_counts_with_a_given_judge(ordered):
    _, res, _ = ordered
    words = swinger2019.table_words(res)
    counts = pd.DataFrame({"lower": [0, 5], "capitalised": [5, 0]}, index=pd.Index(words[:2], name="word"))
    table = swinger2019.case_effect_table({"a": res}, counts=counts)
    row = table.loc["a"]
    assert row["case rule"] == swinger2019.CASE_RULES["embedding"]
    assert row["# significant"] == res.n_significant() and row["words in Table 5"] == len(words)
    proper = int(words[0] == words[0]) if len(set(words[:2])) == 2 else None
    if proper is not None:                      # two distinct words judged: one proper, one common
        n0 = words.count(words[0])
        n1 = words.count(words[1])
        assert row["judged (in GAP)"] == n0 + n1
        assert row["% proper nouns (GAP)"] == round(100 * n0 / (n0 + n1), 1)


def test_case_source_is_a_notebook_parameter_passed_to_run(ordered):
    ok = dict(embedding="glove-6b-50d", names_source="first", debiased="auto", last_names=True, censor_slurs=True)
    parameters = ube.UBEParameters()
    assert swinger2019.check_parameters(**ok, parameters=parameters)["case_source"] == "auto"
    assert swinger2019.check_parameters(**ok, parameters=parameters.replace(case_source=None))["case_source"] is None
    with pytest.raises(InvalidParameterError, match="case_source must be one of"):
        parameters.replace(case_source="dictionary")
    with pytest.raises(InvalidParameterError, match="parameters must be a UBEParameters, not dict"):
        swinger2019.check_parameters(**ok, parameters={"n": 12})
    assert swinger2019.comparison_case_source("auto") is None and swinger2019.comparison_case_source(None) == "auto"
    assert swinger2019.case_tag(None) == "no_case_rule"
    _, res, _ = ordered
    assert "Appendix C.4 on the embedding's case" in swinger2019.describe_run(res)


def test_zipf_names_labels_do_not_overlap_and_survive_tiny_changes():
    """Figure 1's labels on its log-scaled x axis: a crowded cluster of removed names gets labels that do not
    overlap, the legend covers no point, and log-probabilities moved by 1e-9 (another CPU's last digits) give the
    same label positions (the placement rounds in the axis' own, logarithmic, coordinates)."""
    rng = np.random.default_rng(1)
    rank = np.r_[np.arange(16, 40, 2), np.arange(100, 4000, 13)].astype(float)
    log_prob = -rng.uniform(9, 12.5, size=len(rank))
    kept = np.ones(len(rank), dtype=bool)
    kept[:12] = False  # twelve removed names crowded at small ranks, as in GloVe 6B's Figure 1
    labels = [f"Name{k}" for k in range(len(rank))]

    def positions(lp):
        fig = figures.zipf_names(rank, lp, kept, labels, title="t", annotate=12)
        try:
            ax = fig.axes[0]
            assert figures.overlapping_labels(ax.texts) == []
            assert figures.points_under_legend(ax) == 0
            return [t.get_position() for t in ax.texts]
        finally:
            plt.close(fig)

    base = positions(log_prob)
    assert len(base) == 12
    assert positions(log_prob + 1e-9) == base
