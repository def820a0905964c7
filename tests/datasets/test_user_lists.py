"""A user's word-list YAML: parsing, every validation error, the template, and the shipped batteries."""

import textwrap

import pandas as pd
import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import stimuli, user_lists

GOOD = """\
battery: study_1
citation: "Me (2025)."
weat:
  - id: careers
    title: Career vs family
    targets:
      X: {name: Male names, words: [john, paul]}
      Y: {name: Female names, words: [amy, joan]}
    attributes:
      A: {name: Career, words: [career, salary]}
      B: [home, family]
"""


def _write(tmp_path, text, name="lists.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _weat(**sets):
    """A one-test file with the given sets (flow lists) replacing the defaults."""
    s = {"X": "[a, b]", "Y": "[c, d]", "A": "[e, f]", "B": "[g, h]", **sets}
    return (f"weat:\n  - id: t1\n    targets: {{X: {s['X']}, Y: {s['Y']}}}\n"
            f"    attributes: {{A: {s['A']}, B: {s['B']}}}\n")


def test_good_file_gives_weat_specs(tmp_path):
    path = _write(tmp_path, GOOD)
    specs = user_lists.load_user_lists(path)
    assert user_lists.read_user_lists(path).battery == "study_1" and len(specs) == 1
    s = specs[0]
    assert isinstance(s, stimuli.WeatSpec)
    assert (s.id, s.title, s.X, s.Y, s.A, s.B) == ("careers", "Career vs family", ("john", "paul"), ("amy", "joan"),
                                                   ("career", "salary"), ("home", "family"))
    assert s.names == {"X": "Male names", "Y": "Female names", "A": "Career", "B": "B"}
    assert s.paper == {} and s.original_finding is None and s.variant == "user"
    lists = user_lists.read_user_lists(path)
    assert lists.citation == "Me (2025)." and lists.wefat == () and lists.path == path


def test_defaults_battery_from_file_name_and_tests_alias(tmp_path):
    path = _write(tmp_path, _weat().replace("weat:", "tests:"), name="my-lists.v2.yaml")
    lists = user_lists.read_user_lists(path)
    assert lists.battery == "my-lists" and lists.weat[0].title == "X vs Y, A vs B"


def test_template_is_valid_and_has_weat_and_wefat():
    lists = user_lists.read_user_lists(user_lists.TEMPLATE)
    assert lists.battery == "my_study"
    assert [s.id for s in lists.weat] == ["career_family", "flowers_insects"]
    assert all(len(getattr(s, r)) == 8 for s in lists.weat for r in "XYAB")
    (w,) = lists.wefat
    assert isinstance(w, stimuli.WefatSpec) and w.property.name == "percent women"
    assert w.property["nurse"] == 90.0 and list(w.property.index) == list(w.W)
    assert user_lists.load_user_wefat(user_lists.TEMPLATE)[0].id == "occupations"


def test_wefat_property_checks(tmp_path):
    base = """\
    wefat:
      - id: jobs
        targets: {W: [nurse, engineer]}
        attributes: {A: [she], B: [he]}
        property: {name: pct, values: VALUES}
    """
    with pytest.raises(InvalidParameterError, match=r"test 'jobs': property.values: must give one value per word of W; "
                                                    r"missing: \['engineer'\], not in W: \['cook'\]"):
        user_lists.read_user_lists(_write(tmp_path, base.replace("VALUES", "{nurse: 1, cook: 2}")))
    with pytest.raises(InvalidParameterError, match=r"property.values: values must be numbers; 'engineer' has 'x'"):
        user_lists.read_user_lists(_write(tmp_path, base.replace("VALUES", "{nurse: 1, engineer: x}")))
    lists = user_lists.read_user_lists(_write(tmp_path, base.replace("VALUES", "{nurse: 90, engineer: 14.5}")))
    assert lists.wefat[0].property.tolist() == [90.0, 14.5] and lists.weat == ()


@pytest.mark.parametrize("text, fragment", [
    # YAML syntax, with its line
    ("weat:\n  - id: t1\n    targets: {X: [a, b}\n", r"lists.yaml, line 3, column \d+: YAML syntax error"),
    ("", "must be a YAML mapping .* not an empty file"),
    ("- a\n- b\n", "must be a YAML mapping .* not list"),
    # top level
    ("battery: x\n", "has no tests"),
    ("wet:\n  - id: t1\n", r"unknown key\(s\) \['wet'\]"),
    (_weat() + "tests: []\n", "under 'weat' or under 'tests', not both"),
    ("battery: 'my study'\n" + _weat(), "battery: must be a name of letters"),
    ("weat: []\n", "weat: must be a non-empty list of tests"),
    ("weat: {id: t1}\n", "weat: must be a non-empty list of tests"),
    ("citation: 3\n" + _weat(), "citation: must be a non-empty string, not 3"),
    # tests
    ("weat:\n  - [a, b]\n", "weat: item 1 must be a mapping"),
    ("weat:\n  - targets: {}\n", "weat: item 1 has no 'id'"),
    ("weat:\n  - id: 'my test'\n", "item 1: id must be a string of letters"),
    (_weat() + _weat().replace("weat:\n", ""), "weat: two tests have the id 't1'"),
    (_weat().replace("    attributes", "    attribute"), r"test 't1': unknown key\(s\) \['attribute'\]"),
    ("weat:\n  - id: t1\n    targets: {X: [a], Y: [b]}\n", r"test 't1': missing key\(s\) \['attributes'\]"),
    (_weat().replace("{X: [a, b], Y: [c, d]}", "{X: [a, b]}"), r"test 't1': targets: missing key\(s\) \['Y'\]"),
    (_weat().replace("{X: [a, b], Y: [c, d]}", "{X: [a, b], Y: [c], Z: [d]}"),
     r"test 't1': targets: unknown key\(s\) \['Z'\]"),
    (_weat().replace("targets: {X: [a, b], Y: [c, d]}", "targets: [a, b]"), "test 't1': targets: must be a mapping"),
    (_weat(X="{name: Men, words: [a], colour: red}"), r"targets.X: unknown key\(s\) \['colour'\]"),
    (_weat(X="{name: Men}"), r"targets.X: missing key\(s\) \['words'\]"),
    (_weat(X="a"), "targets.X: must be a list of words or a mapping"),
    (_weat(X="{name: '', words: [a]}"), "targets.X.name: must be a non-empty string"),
    # word lists
    (_weat(A="[]"), "test 't1': attributes.A: is empty: a set needs at least one word"),
    (_weat(Y="{name: F, words: []}"), "test 't1': targets.Y.words: is empty"),
    (_weat(X="[a, b, a]"), r"test 't1': targets.X: lists these words more than once: \['a'\]"),
    (_weat(B="[g, yes]"), r"attributes.B: item 2 is True \(bool\), not a string .*quote the word"),
    (_weat(A="[e, 12]"), r"attributes.A: item 2 is 12 \(int\), not a string"),
    (_weat(A="[e, null]"), r"attributes.A: item 2 is None \(NoneType\)"),
    (_weat(A="[e, [f]]"), r"attributes.A: item 2 is \['f'\] \(list\)"),
    (_weat(A="[e, '']"), "attributes.A: item 2 is an empty string"),
    (_weat(A="[e, ' f']"), "item 2 ' f' has leading or trailing spaces"),
    (_weat(Y="[c, b]"), r"test 't1': targets X and Y share words \['b'\]"),
    (_weat(B="[g, e]"), r"test 't1': attributes A and B share words \['e'\]"),
    # extra text fields
    (_weat().replace("  - id: t1\n", "  - id: t1\n    title: 5\n"), "test 't1': title: must be a non-empty string"),
])
def test_errors_name_file_test_and_field(tmp_path, text, fragment):
    path = _write(tmp_path, text)
    with pytest.raises(InvalidParameterError, match=fragment) as info:
        user_lists.read_user_lists(path)
    assert str(info.value).startswith(str(path))


def test_missing_file_folder_and_bad_encoding(tmp_path):
    with pytest.raises(FileNotFoundError, match="no word-list file at .*nope.yaml"):
        user_lists.load_user_lists(tmp_path / "nope.yaml")
    with pytest.raises(FileNotFoundError, match="it is a folder"):
        user_lists.load_user_lists(tmp_path)
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("weat: caf\xe9\n".encode("latin-1"))
    with pytest.raises(InvalidParameterError, match="latin1.yaml: not UTF-8 text"):
        user_lists.load_user_lists(bad)


def test_words_keep_case_and_order(tmp_path):
    path = _write(tmp_path, _weat(X="[Zoe, amy, 'New York']"))
    (s,) = user_lists.load_user_lists(path)
    assert s.X == ("Zoe", "amy", "New York")


def test_batteries_list_what_ships_with_citations():
    table = user_lists.batteries()
    assert table["name"].tolist() == ["caliskan2017", "racial_bias_report", "swinger2019", "kurita2019"]
    cits = table.set_index("name")["citation"]
    assert cits["caliskan2017"].startswith("Caliskan, A., Bryson, J. J., & Narayanan, A. (2017)")
    assert "10.1145/3306618.3314270" in cits["swinger2019"]
    assert cits["kurita2019"].startswith("Kurita, K.")
    assert cits["racial_bias_report"].startswith("Racial bias in pre-trained word embeddings")
    assert table.set_index("name").loc["caliskan2017", "n_tests"] == 12


def test_battery_words_match_the_stimuli():
    t = user_lists.battery_words("caliskan2017", variant="word2vec")
    specs = {s.id: s for s in stimuli.weat_tests("caliskan2017", "word2vec")}
    for _, r in t[t.test.str.startswith("WEAT")].iterrows():
        assert r.words == getattr(specs[r.test], r.set) and r.n_words == len(r.words)
    assert set(t.test) == set(specs) | {"WEFAT1", "WEFAT2"}
    r = user_lists.battery_words("racial_bias_report").set_index(["test", "set"])
    doc = stimuli.load_stimuli("racial_bias_report")
    assert r.loc[("stereotypical", "A2"), "words"] == tuple(doc["attributes"]["stereotypical"]["A2"])
    assert "Percell" in r.loc[("stereotypical", "A2"), "note"]
    k = user_lists.battery_words("kurita2019").set_index(["test", "set"])
    assert k.loc[("career_family", "X"), "n_words"] == 8
    assert k.loc[("table5:pos_traits", "attributes"), "words"][0] == "Accessible"
    s = user_lists.battery_words("swinger2019").set_index("test")
    assert s.loc["first_names", "words"][:2] == ("Michael", "James")
    with pytest.raises(InvalidParameterError, match="variant must be one of"):
        user_lists.battery_words("caliskan2017", variant="w2v")
    assert isinstance(t, pd.DataFrame)
