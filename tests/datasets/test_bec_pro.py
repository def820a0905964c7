"""The BEC-Pro and Winogender readers (wordbias.datasets.bec_pro): the bundled files, the checks of a user's file,
the matching of professions to Winogender's occupations."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import bec_pro as bp

HEADER = "\tSentence\tSent_TM\tSent_AM\tSent_TAM\tTemplate\tPerson\tGender\tProfession\tProf_Gender\n"
ROW = "0\tHe is a taper.\t[MASK] is a taper.\tHe is a [MASK].\t[MASK] is a [MASK].\t<person subject> is a <profession>.\tHe\t{g}\ttaper\t{pg}\n"


@pytest.mark.parametrize("name", ["en", "de", "professions", "occupations"])
def test_the_bundled_files_are_listed_with_their_sha256(name):
    f = bp.data_file(name)
    digest = hashlib.sha256(f.read_bytes()).hexdigest()
    assert digest in (f.parent / "SOURCE.md").read_text(encoding="utf-8")


def test_the_bundled_files_are_inside_the_repository():
    for name in ("en", "de", "professions", "occupations"):
        assert "shared" not in Path(bp.data_file(name)).resolve().parts


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_bundled_sentences(language):
    rows = bp.load(language)
    assert len(rows) == 5400                                       # Bartl et al. 2020, §3
    assert Counter(s.gender for s in rows) == {"male": 2700, "female": 2700}
    assert Counter(s.prof_group for s in rows) == {"male": 1800, "female": 1800, "balanced": 1800}
    assert len({s.profession_en for s in rows}) == 60
    assert len({s.template for s in rows}) == (5 if language == "en" else 6)   # German: "der"/"die" in one
    assert [s.index for s in rows] == list(range(5400))


def test_german_rows_carry_the_english_profession():
    de = bp.load("de")
    assert (de[2].profession, de[2].profession_en) == ("Mechaniker für mobile Geräte", "mobile equipment mechanic")
    assert Counter(s.person for s in de)["Frau"] == 600            # "woman" and "wife" are both "Frau"


def test_the_professions_table():
    ps = bp.load_professions()
    assert len(ps) == 60 and Counter(p.group for p in ps) == {"male": 20, "female": 20, "balanced": 20}
    taper = next(p for p in ps if p.name == "taper")
    assert (taper.percent_us, taper.percent_de, taper.german_f) == (0.7, 6.72, "Trockenbaumonteurin")
    assert {p.name for p in ps} == {s.profession_en for s in bp.load("en")}


def test_the_winogender_occupations():
    occ = bp.load_occupations()
    assert len(occ) == 60 and Counter(o.bls_year for o in occ) == {2015: 51, 2016: 9}
    assert next(o for o in occ if o.name == "engineer").bls_percent_female == 10.72


def test_matching_is_exact_up_to_case_and_spaces():
    occ = [bp.Occupation("nurse", 90.0, 95.0, 2015), bp.Occupation("sales person", 40.0, 50.0, 2015)]
    assert bp.match_occupations(["registered nurse", "Nurse", "sales  Person", "salesperson"], occ) == {
        "Nurse": 90.0, "sales  Person": 40.0}


def test_the_bundled_professions_that_match_winogender():
    names = [p.name for p in bp.load_professions()]
    matched = bp.match_occupations(names, bp.load_occupations())
    assert sorted(matched) == ["bartender", "carpenter", "dietitian", "dispatcher", "electrician", "firefighter",
                               "hairdresser", "paralegal", "plumber", "receptionist", "salesperson", "secretary"]


@pytest.mark.parametrize("g, pg, message", [
    ("man", "male", "Gender is 'man'"),
    ("male", "mixed", "Prof_Gender is 'mixed'"),
])
def test_bad_sentence_rows_are_named(tmp_path, g, pg, message):
    f = tmp_path / "b.tsv"
    f.write_text(HEADER + ROW.format(g=g, pg=pg), encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=message):
        bp.load("en", f)


def test_a_sentence_without_its_person_is_refused(tmp_path):
    f = tmp_path / "b.tsv"
    f.write_text(HEADER + ROW.format(g="male", pg="male").replace("\tHe\t", "\tShe\t"), encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="does not hold its person 'She'"):
        bp.load("en", f)


def test_a_german_file_needs_profession_en(tmp_path):
    f = tmp_path / "b.tsv"
    f.write_text(HEADER + ROW.format(g="male", pg="male"), encoding="utf-8")
    assert len(bp.load("en", f)) == 1
    with pytest.raises(InvalidParameterError, match="missing column.*Profession_EN"):
        bp.load("de", f)


def test_unknown_language_and_missing_file():
    with pytest.raises(InvalidParameterError, match="no language 'fr'"):
        bp.load("fr")
    with pytest.raises(FileNotFoundError):
        bp.load("en", "/nonexistent/b.tsv")


def test_a_share_outside_0_100_is_refused(tmp_path):
    text = bp.data_file("professions").read_text(encoding="utf-8").splitlines()
    cells = text[1].split("\t")
    cells[2] = "120"
    f = tmp_path / "p.tsv"
    f.write_text("\n".join([text[0], "\t".join(cells)]) + "\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="percent_us is 120.0, outside"):
        bp.load_professions(f)


def test_a_repeated_occupation_is_refused(tmp_path):
    f = tmp_path / "o.tsv"
    f.write_text("occupation\tbergsma_pct_female\tbls_pct_female\tbls_year\nnurse\t1\t2\t2015\nnurse\t1\t2\t2015\n",
                 encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="more than once.*nurse"):
        bp.load_occupations(f)


def test_pronoun_sentences_keep_he_and_she_of_every_template_and_profession():
    for language, pronouns in (("en", {"He", "She"}), ("de", {"Er", "Sie"})):
        s = bp.pronoun_sentences(bp.load(language))
        assert {x.person for x in s} == pronouns and {x.language for x in s} == {language}
        # each profession once per template and pronoun: 5 templates x 2 (German: the sentence's template names
        # the article, der or die, so it is counted by profession and pronoun)
        assert set(Counter((x.profession_en, x.person) for x in s).values()) == {5}
    with pytest.raises(InvalidParameterError, match="pronoun"):
        bp.pronoun_sentences([x for x in bp.load("en") if x.person == "man"])
