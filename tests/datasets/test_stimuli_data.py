"""Consistency checks of the Caliskan et al. (2017) stimuli and property data, and of wordbias.stimuli.

The yaml records the lists as printed in the Supplementary Materials with the italic (deleted) words; the
authoritative final lists the authors ran on GloVe are those of Will Lowe's ``cbn`` package, copied to
``data/stimuli/caliskan2017_cbn_items.csv``. These tests check that the two agree.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import math
import re

import pandas as pd
import pytest
import yaml

from wordbias.core import paths
from wordbias.datasets.stimuli import WeatSpec, WefatSpec, load_stimuli, weat_tests, wefat_tests

YAML_PATH = paths.STIMULI / "caliskan2017.yaml"
CBN_PATH = paths.STIMULI / "caliskan2017_cbn_items.csv"
PROP_DIR = paths.DATA / "caliskan2017"
VECTORS = paths.DATA / "vectors" / "glove840B_300d_cbn_caliskan_items_485.txt.gz"

ROLES = ("X", "Y", "A", "B")
WEAT_IDS = [f"WEAT{i}" for i in range(1, 11)]
# Science Table 1 (GloVe): effect sizes, N_T and N_A (per side), p as numbers
GLOVE_D = [1.50, 1.53, 1.41, 1.50, 1.28, 1.81, 1.06, 1.24, 1.38, 1.21]
GLOVE_NT = [25, 25, 32, 16, 16, 8, 8, 8, 6, 8]
GLOVE_NA = [25, 25, 25, 25, 8, 8, 8, 8, 7, 8]
GLOVE_P = [1e-7, 1e-7, 1e-8, 1e-4, 1e-3, 1e-3, 0.018, 1e-2, 1e-2, 1e-2]
# Supplementary Table S1 (word2vec)
W2V_D = [1.54, 1.63, 0.58, 1.24, 0.72, 1.89, 0.97, 1.24, 1.30, -0.08]
W2V_NT = [25, 25, 32, 18, 18, 8, 8, 8, 6, 8]
W2V_NA = [25, 25, 25, 25, 8, 8, 8, 8, 7, 8]
W2V_P = [1e-7, 1e-8, 1e-2, 1e-3, 1e-2, 1e-4, 0.027, 1e-2, 0.012, 0.57]
# printed (original) list sizes X, Y, A, B
ORIGINAL_SIZES = {"WEAT3": (50, 50, 25, 25), "WEAT4": (18, 18, 25, 25), "WEAT5": (18, 18, 8, 8)}


@pytest.fixture(scope="module")
def doc() -> dict:
    with open(YAML_PATH, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@pytest.fixture(scope="module")
def cbn() -> pd.DataFrame:
    return pd.read_csv(CBN_PATH)


def cbn_list(cbn: pd.DataFrame, study: str, condition: str) -> list[str]:
    words = cbn.loc[(cbn.Study == study) & (cbn.Condition == condition), "Word"].tolist()
    assert words, f"no cbn rows for {study}/{condition}"
    return words


# ---------------------------------------------------------------------------------------------------- the yaml


def test_top_level(doc):
    assert "10.1126/science.aal4230" in doc["citation"]["paper"]
    assert doc["citation"]["doi"] == "10.1126/science.aal4230"
    assert "Supplementary" in doc["citation"]["supplementary"]
    assert doc["sources"]
    assert [t["id"] for t in doc["weat"]] == WEAT_IDS
    assert [t["id"] for t in doc["wefat"]] == ["WEFAT1", "WEFAT2"]


@pytest.mark.parametrize("i", range(10))
def test_weat_lists_and_deletions(doc, i):
    t = doc["weat"][i]
    for r in ROLES:
        words = t[r]
        assert all(isinstance(w, str) and w for w in words), (t["id"], r)
        assert len(set(words)) == len(words), (t["id"], r, "duplicate words")
        assert set(t["glove_deleted"][r]) <= set(words), (t["id"], r)
        assert set(t["word2vec_deleted"][r]) <= set(words), (t["id"], r)
    assert set(t["targets"]) == {"X", "Y"} and set(t["attributes"]) == {"A", "B"}
    sizes = tuple(len(t[r]) for r in ROLES)
    if t["id"] in ORIGINAL_SIZES:
        assert sizes == ORIGINAL_SIZES[t["id"]]
    else:  # printed lists of equal size per side, as in Table 1
        assert sizes == (GLOVE_NT[i], GLOVE_NT[i], GLOVE_NA[i], GLOVE_NA[i])
    final = {r: [w for w in t[r] if w not in t["glove_deleted"][r]] for r in ROLES}
    assert len(final["X"]) == len(final["Y"]) == GLOVE_NT[i] == t["paper"]["glove"]["n_target"]
    assert len(final["A"]) == len(final["B"]) == GLOVE_NA[i] == t["paper"]["glove"]["n_attribute"]


@pytest.mark.parametrize("i", range(10))
def test_weat_final_lists_equal_cbn(doc, cbn, i):
    """Printed list minus glove_deleted == the authors' final list (cbn_items.csv), as a set."""
    t = doc["weat"][i]
    for r in ROLES:
        final = {w for w in t[r] if w not in t["glove_deleted"][r]}
        assert final == set(cbn_list(cbn, t["id"], t["cbn_conditions"][r])), (t["id"], r)


def test_cbn_covers_exactly_the_yaml(doc, cbn):
    used = {(t["id"], c) for t in doc["weat"] + doc["wefat"] for c in t["cbn_conditions"].values()}
    assert used == set(map(tuple, cbn[["Study", "Condition"]].drop_duplicates().to_numpy()))
    assert len(cbn) == 730


def test_known_discrepancies_recorded(doc):
    w = {t["id"]: t for t in doc["weat"]}
    # WEAT3: the supplementary sets Katie in italics, but the authors kept her (32 names per side)
    assert "Katie" in w["WEAT3"]["X"] and "Katie" not in w["WEAT3"]["glove_deleted"]["X"]
    assert "Katie" in w["WEAT3"]["notes"]
    assert len(w["WEAT3"]["glove_deleted"]["X"]) == len(w["WEAT3"]["glove_deleted"]["Y"]) == 18
    # WEAT1/2 Unpleasant has agony, prison; WEAT3/4 have bomb, evil instead
    u12, u34 = set(w["WEAT1"]["B"]), set(w["WEAT3"]["B"])
    assert w["WEAT2"]["B"] == w["WEAT1"]["B"] and w["WEAT4"]["B"] == w["WEAT3"]["B"]
    assert u12 - u34 == {"agony", "prison"} and u34 - u12 == {"bomb", "evil"}
    # WEAT9: short-term is kept for GloVe and replaced by 'short' for word2vec
    assert w["WEAT9"]["word2vec_substitutions"] == {"short-term": "short"}
    assert w["WEAT9"]["glove_deleted"]["A"] == []
    assert all(t["word2vec_substitutions"] == {} for k, t in w.items() if k != "WEAT9")
    assert w["WEAT4"]["original_finding"] is None and w["WEAT5"]["original_finding"] is None


def test_paper_numbers(doc):
    for i, t in enumerate(doc["weat"]):
        g, v = t["paper"]["glove"], t["paper"]["word2vec"]
        assert g["d"] == pytest.approx(GLOVE_D[i]), t["id"]
        assert g["p"] == pytest.approx(GLOVE_P[i]), t["id"]
        assert (g["n_target"], g["n_attribute"]) == (GLOVE_NT[i], GLOVE_NA[i]), t["id"]
        assert v["d"] == pytest.approx(W2V_D[i]), t["id"]
        assert v["p"] == pytest.approx(W2V_P[i]), t["id"]
        assert (v["n_target"], v["n_attribute"]) == (W2V_NT[i], W2V_NA[i]), t["id"]
        for block in (g, v):
            assert isinstance(block["p"], float) and isinstance(block["p_text"], str)
        assert isinstance(v["d_text"], str) and float(v["d_text"]) == pytest.approx(v["d"])
        if t["original_finding"] is not None:
            of = t["original_finding"]
            assert isinstance(of["n"], str) and isinstance(of["d"], float) and isinstance(of["p"], float)
            assert of["ref"] == doc["citation"]["references"][of["ref_number"]]
    # p wording of the arXiv "Our Finding" paragraphs
    arxiv = ["< 10^-7", "< 10^-7", "< 10^-8", "< 10^-4", "< 10^-3", "< 10^-3", "10^-2", "10^-2", None, None]
    assert [t["paper"]["glove"]["arxiv_p_text"] for t in doc["weat"]] == arxiv
    assert doc["weat"][6]["paper"]["glove"]["p_text"] == ".018"
    f1, f2 = doc["wefat"]
    assert (f1["paper"]["glove"]["r"], f1["paper"]["glove"]["p"], f1["paper"]["glove"]["n"]) == (0.90, 1e-18, 50)
    assert (f1["paper"]["word2vec"]["pearson_glove_vs_w2v"], f1["paper"]["word2vec"]["spearman"]) == (0.88, 0.86)
    assert (f2["paper"]["glove"]["r"], f2["paper"]["glove"]["p"]) == (0.84, 1e-13)


def test_wefat_lists_equal_cbn(doc, cbn):
    for t in doc["wefat"]:
        assert len(t["W"]) == 50 and len(set(t["W"])) == 50
        assert len(t["A"]) == len(t["B"]) == 8
        for r in ("W", "A", "B"):
            assert t[r] == cbn_list(cbn, t["id"], t["cbn_conditions"][r]), (t["id"], r)
    assert doc["wefat"][0]["A"][:2] == ["female", "woman"] and doc["wefat"][0]["B"][:2] == ["male", "man"]
    assert doc["wefat"][0]["name_filter"] is None
    assert doc["wefat"][1]["name_filter"]["drop_fraction"] == 0.2


def test_final_words_have_glove_vectors(doc):
    if not VECTORS.exists():
        pytest.skip(f"{VECTORS.name} not present")
    with gzip.open(VECTORS, "rt", encoding="utf-8") as fh:
        vocab = {line.split(" ", 1)[0] for line in fh if line.strip()}
    missing = []
    for t in doc["weat"]:
        for r in ROLES:
            missing += [(t["id"], w) for w in t[r] if w not in t["glove_deleted"][r] and w not in vocab]
    for t in doc["wefat"]:
        missing += [(t["id"], w) for r in ("W", "A", "B") for w in t[r] if w not in vocab]
    assert not missing


# ------------------------------------------------------------------------------------------- property tables


def test_occupations_table(doc):
    occ = pd.read_csv(PROP_DIR / "occupations_bls2015.csv")
    assert occ.occupation.tolist() == doc["wefat"][0]["W"]
    assert occ.percent_women.between(0, 100).all()
    assert (occ.n_bls_categories >= 1).all()
    agree = (occ.percent_women - occ.winogender_bls_pct_female).abs() < 0.0051
    assert (agree == occ.agrees_with_winogender).all()
    # the Winogender value is the 2015 one exactly where Winogender says 2015
    assert (agree == (occ.winogender_bls_year == 2015)).all()
    assert set(occ.occupation[~agree]) == {"worker", "inspector", "specialist", "officer", "pathologist",
                                           "planner", "examiner"}


def test_names_table(doc):
    nm = pd.read_csv(PROP_DIR / "androgynous_names_census1990.csv")
    assert nm.name.tolist() == doc["wefat"][1]["W"]
    assert (nm.census_name == nm.name.str.upper()).all()
    f, m = nm.pct_in_female_population, nm.pct_in_male_population
    assert ((100 * f / (f + m)) - nm.percent_female).abs().max() < 1e-4
    pw = 100 * f * 127_470_455 / (f * 127_470_455 + m * 121_239_418)
    assert (pw - nm.percent_female_popweighted).abs().max() < 1e-4
    # the file's score column is (m - f) / (m + f), to its 4 decimals
    assert (((m - f) / (m + f)) - nm.gender_score).abs().max() < 5.1e-5
    # and agrees with Caliskan et al.'s census file (copied byte for byte)
    census = pd.read_csv(PROP_DIR / "censusNames1990.tsv", sep="\t")
    assert len(census) == 60
    census = census.set_index("Name")
    for _, r in nm.iterrows():
        row = census.loc[r.census_name]
        assert row["Percentage in female population"] == r.pct_in_female_population
        assert row["Percentage in male population"] == r.pct_in_male_population
        assert row["Female-1Male1Unisex0"] == r.gender_score


@pytest.mark.parametrize("source_md", [paths.STIMULI / "SOURCE.md", PROP_DIR / "SOURCE.md"])
def test_source_md_hashes(source_md):
    text = source_md.read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*`([^`]+)`\s*\|\s*`([0-9a-f]{64})`", text, re.M)
    assert rows, "no sha256 table"
    for name, digest in rows:
        path = source_md.parent / name
        assert path.exists(), name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, name


# -------------------------------------------------------------------------------------------- wordbias.stimuli


def test_load_stimuli_is_cached_copy():
    a = load_stimuli()
    a["weat"].clear()
    b = load_stimuli("caliskan2017")
    assert len(b["weat"]) == 10
    with pytest.raises(FileNotFoundError):
        load_stimuli("no_such_paper")


def test_weat_tests_variants(cbn):
    glove = weat_tests("caliskan2017")
    assert [t.id for t in glove] == WEAT_IDS
    assert all(isinstance(t, WeatSpec) and t.variant == "glove" for t in glove)
    for i, t in enumerate(glove):
        assert len(t.X) == len(t.Y) == GLOVE_NT[i]
        assert len(t.A) == len(t.B) == GLOVE_NA[i]
        assert t.paper["glove"]["d"] == pytest.approx(GLOVE_D[i])
        assert set(t.names) == set(ROLES)
    w3 = glove[2]
    assert w3.X[:3] == ("Adam", "Harry", "Josh") and "Katie" in w3.X and "Chip" not in w3.X
    assert set(w3.Y) == set(cbn_list(cbn, "WEAT3", "AfricanAmericanNames"))
    assert glove[0].names == {"X": "Flowers", "Y": "Insects", "A": "Pleasant", "B": "Unpleasant"}
    assert glove[3].original_finding is None and glove[0].original_finding["d"] == 1.35
    assert "Katie" in w3.notes

    original = weat_tests(variant="original")
    assert [tuple(len(getattr(original[i], r)) for r in ROLES) for i in (2, 3, 4)] == [
        ORIGINAL_SIZES[k] for k in ("WEAT3", "WEAT4", "WEAT5")]
    assert "Chip" in original[2].X and "short-term" in original[8].A

    w2v = weat_tests(variant="word2vec")
    for i, t in enumerate(w2v):
        assert len(t.X) == len(t.Y) == W2V_NT[i], t.id
        assert len(t.A) == len(t.B) == W2V_NA[i], t.id
    assert "short" in w2v[8].A and "short-term" not in w2v[8].A
    assert w2v[8].A.index("short") == original[8].A.index("short-term")

    with pytest.raises(ValueError):
        weat_tests(variant="fasttext")
    with pytest.raises(dataclasses.FrozenInstanceError):
        glove[0].X = ()  # type: ignore[misc]


def test_wefat_tests():
    f1, f2 = wefat_tests("caliskan2017")
    assert isinstance(f1, WefatSpec) and (f1.id, f2.id) == ("WEFAT1", "WEFAT2")
    assert f1.property.index.tolist() == list(f1.W) and f1.property.name == "percent_women"
    assert f2.property.index.tolist() == list(f2.W) and f2.property.name == "percent_female"
    assert f1.property["nurse"] == pytest.approx(89.58) and f1.property["engineer"] == pytest.approx(10.72)
    assert f2.property["Kris"] == pytest.approx(50.0) and f2.property["Joan"] > 97
    assert not f1.property.isna().any() and not f2.property.isna().any()
    assert f1.name_filter is None and f2.name_filter["drop_fraction"] == 0.2
    assert f1.paper["glove"]["r"] == 0.90 and f2.paper["glove"]["r"] == 0.84
    assert f1.A[0] == "female" and f1.B[0] == "male"
    assert not math.isnan(f1.property.mean())
