"""wordbias.names and the names data of Swinger et al. (2019), Appendix C (data/swinger2019/), plus consistency
checks of the paper's name-group numbers transcribed in data/stimuli/swinger2019.yaml (Tables 3, 4, 6).

Expected values are computed here straight from the bundled CSV files with the ``csv`` module, independently of
the pandas loaders under test.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import re

import numpy as np
import pytest
import yaml

from wordbias.core import paths
from wordbias.datasets import names

DATA = paths.DATA / "swinger2019"
N_SSA, N_CENSUS, N_TZIOUMIS = 9670, 24889, 4250  # documented in data/swinger2019/SOURCE.md
RACE = {"pct_black": "pctblack", "pct_hispanic": "pcthispanic", "pct_asian": "pctapi", "pct_white": "pctwhite"}


def _rows(name: str) -> list[dict[str, str]]:
    path = DATA / name
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def ssa_rows():
    return {r["name"].upper(): r for r in _rows(names.SSA_FILE)}


@pytest.fixture(scope="module")
def census_rows():
    return {r["name"]: r for r in _rows(names.CENSUS_FILE)}


@pytest.fixture(scope="module")
def tz_rows():
    return {r["firstname"]: r for r in _rows(names.TZIOUMIS_FILE)}


@pytest.fixture(scope="module")
def paper():
    with open(paths.STIMULI / "swinger2019.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


# --------------------------------------------------------------------------------------------- the files


def test_source_md_hashes_and_counts():
    text = (DATA / "SOURCE.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*`([^`]+)`\s*\|\s*`([0-9a-f]{64})`\s*\|([^|]*)\|", text, re.M)
    assert {r[0] for r in rows} == {names.SSA_FILE, names.CENSUS_FILE, names.TZIOUMIS_FILE, "make_names.py"}
    documented = {names.SSA_FILE: N_SSA, names.CENSUS_FILE: N_CENSUS, names.TZIOUMIS_FILE: N_TZIOUMIS}
    for name, digest, n in rows:
        path = DATA / name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, name
        if name in documented:  # data rows, header excluded
            assert int(n.strip().replace(",", "")) == documented[name] == len(_rows(name)), name
    assert "/work/shared" not in text  # provenance, not a run-time path


# --------------------------------------------------------------------------------------------- SSA


def test_ssa_first_names():
    df = names.ssa_first_names()
    assert len(df) == N_SSA
    assert list(df.columns) == ["name", "count", "count_female", "count_male", "frac_female", "mean_year"]
    assert (df["count"] >= 1000).all()
    assert (df["count"] == df["count_female"] + df["count_male"]).all()
    assert df["frac_female"].between(0, 1).all()
    assert np.allclose(df["frac_female"], df["count_female"] / df["count"], atol=5e-7)
    assert df["mean_year"].between(1938, 2017).all()
    assert not df["name"].str.upper().duplicated().any()
    assert df["name"].str.fullmatch(r"[A-Z][a-z]+").all()
    # sorted by count descending, then name
    order = sorted(zip(-df["count"], df["name"]))
    assert [n for _, n in order] == df["name"].tolist()
    assert df["name"].iloc[0] == "Michael"
    # a real name that pandas would otherwise read as missing
    assert "Nan" in set(df["name"])
    # App. C.1: the mean fraction female over names is well above 50%
    assert df["frac_female"].mean() > 0.55


def test_ssa_min_count_and_copies():
    full = names.ssa_first_names()
    sub = names.ssa_first_names(min_count=5000)
    assert (sub["count"] >= 5000).all()
    assert len(sub) == (full["count"] >= 5000).sum() < len(full)
    for bad in (999, 5, 0):
        with pytest.raises(ValueError, match="1000"):
            names.ssa_first_names(min_count=bad)
    full.loc[0, "count"] = -1
    assert names.ssa_first_names()["count"].iloc[0] > 0


def test_ssa_values_match_file(ssa_rows):
    df = names.ssa_first_names().set_index("name")
    for n in ("Mary", "Jordan", "Cj", "Nan"):
        r = ssa_rows[n.upper()]
        assert df.loc[n, "count"] == int(r["count"])
        assert df.loc[n, "mean_year"] == pytest.approx(float(r["mean_year"]))
    # Jordan: a mixed-sex name
    assert 0.1 < df.loc["Jordan", "frac_female"] < 0.5


# --------------------------------------------------------------------------------------------- Census, Tzioumis


def test_census_surnames():
    df = names.census_surnames()
    assert len(df) == N_CENSUS
    assert list(df.columns) == ["name", "count", "pctwhite", "pctblack", "pctapi", "pctaian", "pct2prace",
                                "pcthispanic"]
    assert (df["count"] >= 1000).all()
    assert df["name"].iloc[0] == "SMITH" and df["count"].iloc[0] == 2442977
    assert "ALL OTHER NAMES" not in set(df["name"])
    assert df["name"].str.fullmatch(r"[A-Z]+").all() and not df["name"].duplicated().any()
    assert {"NULL", "TRUE"} <= set(df["name"])  # surnames, not missing values / booleans
    pct = df.iloc[:, 2:]
    values = pct.to_numpy().ravel()
    values = values[~np.isnan(values)]
    assert len(values) > 0.8 * pct.size and values.min() >= 0 and values.max() <= 100
    assert pct["pctblack"].isna().sum() > 1000  # '(S)' suppressed -> NaN
    assert df["count"].is_monotonic_decreasing
    sub = names.census_surnames(min_count=10_000)
    assert (sub["count"] >= 10_000).all() and 0 < len(sub) < len(df)
    with pytest.raises(ValueError):
        names.census_surnames(min_count=100)


def test_tzioumis_first_names(tz_rows):
    df = names.tzioumis_first_names()
    assert len(df) == N_TZIOUMIS and df.index.name == "name"
    assert "ALL OTHER FIRST NAMES" not in df.index
    assert df.index.str.fullmatch(r"[A-Z]+").all()
    assert "NAN" in df.index
    assert df["obs"].sum() == 2_449_240
    assert df.loc["AARON", "pcthispanic"] == pytest.approx(2.88)
    assert df.loc["AARON", "pctwhite"] == pytest.approx(float(tz_rows["AARON"]["pctwhite"]))
    shares = df[["pcthispanic", "pctwhite", "pctblack", "pctapi", "pctaian", "pct2prace"]].sum(axis=1)
    assert shares.between(99, 101).all()


# --------------------------------------------------------------------------------------------- tokens


def test_name_tokens_cased():
    vocab = {"Mary", "Smith", "Mcdonald", "mary", "John"}
    res = names.name_tokens(["Mary", "SMITH", "MCDONALD", "McDonald", "Zzyzx", "john"], vocab, cased=True)
    assert res.table.columns.tolist() == ["name", "token"]
    assert res.names == ["Mary", "SMITH", "MCDONALD", "john"]
    assert res.tokens == ["Mary", "Smith", "Mcdonald", "John"]
    assert res.missing == ("Zzyzx",) and res.n_missing == 1
    assert res.duplicates == ("McDonald",)  # same token as MCDONALD: each name once
    assert len(res) == 4


def test_name_tokens_uncased_and_keyedvectors():
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=2)
    kv.add_vectors(["mary", "smith", "Keisha"], np.eye(3, 2, dtype=np.float32))
    res = names.name_tokens(["Mary", "SMITH", "Keisha"], kv, cased=False)
    assert res.tokens == ["mary", "smith"] and res.missing == ("Keisha",)
    res = names.name_tokens(["Mary", "SMITH", "Keisha"], kv, cased=True)
    assert res.tokens == ["Keisha"] and res.missing == ("Mary", "SMITH")
    # a plain list as vocabulary
    assert names.name_tokens(["MARY"], ["mary"], cased=False).tokens == ["mary"]
    assert names.name_tokens([], ["mary"], cased=False).tokens == []


# --------------------------------------------------------------------------------------------- demographics


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else float("nan")


def test_group_demographics_first(ssa_rows, tz_rows):
    groups = [["Mary", "JOHN", "keisha", "Yehudis", "Mary", "Notaname"], ["Jordan"], ["Notaname"]]
    out = names.group_demographics(groups, kind="first")
    assert out.index.tolist() == [0, 1, 2]
    assert out.columns.tolist() == ["size", "n_ssa", "pct_female", "mean_year", "pct_black", "pct_hispanic",
                                    "pct_asian", "pct_white", "n_race"]
    for i, g in enumerate(groups):
        keys = list(dict.fromkeys(n.upper() for n in g))
        in_ssa = [ssa_rows[k] for k in keys if k in ssa_rows]
        in_tz = [tz_rows[k] for k in keys if k in tz_rows]
        row = out.loc[i]
        assert row["size"] == len(keys)
        assert row["n_ssa"] == len(in_ssa) and row["n_race"] == len(in_tz)
        exp_f = 100 * _mean([float(r["frac_female"]) for r in in_ssa])
        exp_y = _mean([float(r["mean_year"]) for r in in_ssa])
        np.testing.assert_allclose([row["pct_female"], row["mean_year"]], [exp_f, exp_y], atol=1e-5)
        for col, src in RACE.items():
            exp = _mean([float(r[src]) for r in in_tz])
            np.testing.assert_allclose(row[col], exp, atol=1e-9, err_msg=col)
    # the hand-made group: 4 distinct SSA names (Mary counted once), Yehudis has no Tzioumis data
    assert out.loc[0, "size"] == 5 and out.loc[0, "n_ssa"] == 4
    assert "YEHUDIS" not in tz_rows and out.loc[0, "n_race"] == 3
    assert 40 < out.loc[0, "pct_female"] < 80
    assert out.loc[2].drop(["size", "n_ssa", "n_race"]).isna().all()


def test_group_demographics_last(census_rows):
    suppressed = next(k for k, r in census_rows.items() if r["pctblack"] == "" and r["pctapi"] != "")
    groups = {"asian": ["Yu", "NAKAMURA", "feng"], "mixed": ["Smith", suppressed, "Mendez", "Notaname"]}
    out = names.group_demographics(groups, kind="last")
    assert out.index.tolist() == ["asian", "mixed"]
    assert "n_ssa" not in out.columns and out["pct_female"].isna().all() and out["mean_year"].isna().all()
    for label, g in groups.items():
        rows = [census_rows[n.upper()] for n in g if n.upper() in census_rows]
        assert out.loc[label, "n_race"] == len(rows)
        for col, src in RACE.items():
            exp = _mean([float(r[src]) if r[src] != "" else None for r in rows])
            assert out.loc[label, col] == pytest.approx(exp), (label, col)
            exp0 = _mean([float(r[src]) if r[src] != "" else 0.0 for r in rows])
            zero = names.group_demographics(groups, kind="last", suppressed="zero")
            assert zero.loc[label, col] == pytest.approx(exp0), (label, col)
    assert out.loc["asian", "pct_asian"] > 50
    # the suppressed pctblack is left out of the mean by default, counted as 0 with suppressed="zero"
    zero = names.group_demographics(groups, kind="last", suppressed="zero")
    assert zero.loc["mixed", "pct_black"] < out.loc["mixed", "pct_black"]


def test_group_demographics_errors():
    with pytest.raises(ValueError):
        names.group_demographics([["Mary"]], kind="middle")
    with pytest.raises(ValueError):
        names.group_demographics([["Smith"]], kind="last", suppressed="drop")
    with pytest.raises(TypeError):
        names.group_demographics(["Mary", "John"])


# --------------------------------------------------------------------------------------------- the paper's groups


def _groups(paper):
    yield "w2v", "first", paper["table3"]["groups"]
    for emb, block in paper["table6"].items():
        yield emb, block["kind"], block["groups"]


def test_transcribed_groups_are_consistent(paper):
    for emb, kind, groups in _groups(paper):
        prefix = "F" if kind == "first" else "L"
        assert [g["group"] for g in groups] == [f"{prefix}{i}" for i in range(1, 13)], emb
        for g in groups:
            assert ("illustrative" in g) != ("illustrative_legible" in g), (emb, g["group"])
            if "illustrative" in g:
                assert len(g["illustrative"]) == 5, (emb, g["group"])
            race = [g[c] for c in RACE]
            if None not in race:  # B + H + A + W (+ AIAN + 2 races, small) ~ 100
                assert 96 <= sum(race) <= 102, (emb, g["group"], race)
        if kind == "first":
            pf = [g["pct_female"] for g in groups]
            assert pf == sorted(pf, reverse=True), emb  # F1..F12 by decreasing % female
            assert all(1960 < g["mean_year"] < 2000 for g in groups), emb
    sizes = {emb: sum(5 + g["more"] for g in groups) for emb, kind, groups in _groups(paper) if kind == "first"}
    assert sizes == paper["group_sizes_derived"]
    assert sizes["w2v"] == sizes["deb"] == 6340


def test_transcribed_names_exist_in_bundled_data(paper):
    ssa = set(names.ssa_first_names()["name"])
    census = set(names.census_surnames()["name"].str.capitalize())
    for emb, kind, groups in _groups(paper):
        pool = ssa if kind == "first" else census
        for g in groups:
            shown = g.get("illustrative") or g["illustrative_legible"]
            legible = [n for n in shown if "..." not in n and "(sic)" not in n]
            assert set(legible) <= pool, (emb, g["group"], set(legible) - pool)
            for fragment, likely in (g.get("likely") or {}).items():
                assert fragment in shown and likely in pool
                assert likely.lower().endswith(fragment.strip(".").lower())


def test_paper_reported_numbers(paper):
    assert paper["table2_defaults"] == {"embedding": "w2v", "names": "SSA", "n": 12, "m": 64, "M": 30000,
                                        "t": 3, "alpha": 0.05, "R": 10000}
    t4 = {r["embedding"]: (r["n_significant"], r["pct_accurate"], r["pct_offensive"]) for r in paper["table4"]}
    assert t4 == {"w2v": (235, 72, 35), "fast": (160, 80, 38), "glove": (442, 48, 24)}
    ib = {r["embedding"]: (r["pct_potential_indirect_bias"], r["n_fourtuples"]) for r in paper["indirect_bias"]}
    assert ib == {"w2v": (99, 2713), "fast": (98, 1125), "glove": (97, 1796)}
    assert paper["table3"]["groups"][1]["illustrative"] == ["Janice", "Jeanette", "Lenna", "Mattie", "Marylynn"]
    assert paper["table6"]["w2v_last"]["groups"][11]["illustrative"] == ["Yu", "Tamashiro", "Heng", "Feng",
                                                                         "Nakamura"]
    assert paper["table6"]["w2v_last"]["groups"][11]["more"] == 393


def test_transcribed_word_tables(paper):
    assert len(paper["table1"]) == 9 and all(len(c["words"]) == 3 for c in paper["table1"])
    for key, n_cols in (("table5", 11), ("table7", 10), ("table8", 12)):
        table = paper[key]
        assert len(table["columns"]) == n_cols and len(table["rows"]) == 12, key
        assert [r["row"] for r in table["rows"]] == list(range(1, 13)), key
        for r in table["rows"]:
            uncertain = r.get("uncertain") or {}
            for group, words in r["cells"].items():
                assert group in table["columns"], (key, r["row"], group)
                assert all(isinstance(w, str) and w and "- " not in w for w in words), (key, r["row"], group)
                # t = 3 words per cell unless the cell is marked uncertain
                assert len(words) == 3 or group in uncertain, (key, r["row"], group)
            assert set(uncertain) <= set(r["cells"]) | {"all"}, (key, r["row"])
    assert "F10" not in paper["table5"]["columns"]  # no significant biases for w2v F10
    cells5 = {(r["row"], g): w for r in paper["table5"]["rows"] for g, w in r["cells"].items()}
    assert cells5[(3, "F2")] == ["registered nurse", "homemaker", "chairwoman"]  # Section 4.1
    t1 = {(c["embedding"], c["group"]): c["words"] for c in paper["table1"]}
    # Table 1's w2v F11 and F6 triples are Table 5 cells
    assert t1[("w2v", "F11")] in cells5.values() and t1[("w2v", "F6")] in cells5.values()
