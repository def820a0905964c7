"""wordbias.datasets.censor: bleep-censoring of slurs as in Swinger et al. (2019), Appendix A.

Content warning: the assertions necessarily name the slurs that the censor must catch.
"""

from __future__ import annotations

import pytest
import yaml

from wordbias.core import paths
from wordbias.datasets.censor import CENSOR_FILE, bleep, censor, censor_terms


def test_term_file():
    text = CENSOR_FILE.read_text(encoding="utf-8")
    assert text.startswith("# CONTENT WARNING")
    doc = yaml.safe_load(text)
    assert "Swinger" in doc["citation"] and "Appendix A" in doc["citation"]
    terms = {t for t, _ in censor_terms()}
    # the terms Appendix A names
    assert {"shemale", "faggot", "twink", "mentally retarded", "rednecks"} <= terms
    assert len({t for t in terms if t.startswith("nig")}) >= 3  # "three variants on the n word"
    assert dict(censor_terms())["mentally retarded"] == ("retarded",)
    assert CENSOR_FILE.parent == paths.STIMULI


def test_bleep():
    assert bleep("faggot") == "f*****"
    assert bleep("Shemale") == "S******"
    assert bleep("x") == "x" and bleep("") == ""
    assert bleep("twink's") == "t****'*"  # letters only; the apostrophe stays


def test_single_word():
    assert censor("faggot") == "f*****"
    assert censor("nigger") == "n*****"
    assert censor("dreads, niggas, busty") == "dreads, n*****, busty"
    assert censor("rednecks") == "r*******"
    assert censor("the twink said") == "the t**** said"


def test_multi_word_slur_bleeps_only_the_slur_word():
    assert censor("blacks, academically, mentally retarded") == "blacks, academically, mentally r*******"
    assert censor("mentally_retarded") == "mentally_r*******"  # word2vec phrase token
    assert censor("mentally  retarded") == "mentally  r*******"
    # only the listed phrase: the second word alone is not in Appendix A's list
    assert censor("retarded") == "retarded"
    assert censor("mentally ill") == "mentally ill"


def test_case_insensitive_first_letter_kept():
    assert censor("SHEMALE") == "S******"
    assert censor("Twink") == "T****"
    assert censor("Mentally Retarded") == "Mentally R*******"
    assert censor("FaGgOt") == "F*****"


def test_no_false_positives_on_substrings():
    kept = ["twinkle", "twinkling", "Twinkies", "snigger", "sniggers", "niggardly", "fagottist", "retardant",
            "mentally retardedness", "redneckery", "nigeria", "shemaleish"]
    for word in kept:
        assert censor(word) == word, word
    assert censor(kept) == kept
    assert censor("twinkle, twinkle, little star") == "twinkle, twinkle, little star"
    # a digit ends a word: this is a whole-word match
    assert censor("shemales2go") == "s*******2go"


def test_lists_and_disabled():
    words = ["dreads", "faggot", "twinkle", "mentally retarded"]
    out = censor(words)
    assert out == ["dreads", "f*****", "twinkle", "mentally r*******"]
    assert words[1] == "faggot"  # input untouched
    assert censor(("Twink", "ok")) == ["T****", "ok"]
    assert censor(w for w in ["twink"]) == ["t****"]
    off = censor(words, enabled=False)
    assert off == words and off is not words
    assert censor("faggot, twink", enabled=False) == "faggot, twink"
    assert censor([]) == []


def test_idempotent_and_every_default_term_is_censored():
    for term, to_bleep in censor_terms():
        once = censor(term)
        assert once != term, term
        assert censor(once) == once, term
        for word in term.split():
            if word in to_bleep:
                assert bleep(word) in once, term
            else:
                assert word in once, term
    # the paper's printed (already censored) cells pass through unchanged
    assert censor("younger brother, twin brother, mentally r******") == \
        "younger brother, twin brother, mentally r******"


def test_custom_terms():
    assert censor("a twinkle star", terms=["twinkle"]) == "a t****** star"
    assert censor("twink", terms=["twinkle"]) == "twink"  # custom list replaces the default
    assert censor("little twinkle star", terms={"twinkle star": "star"}) == "little twinkle s***"
    assert censor("little twinkle star", terms=[("twinkle star", ["twinkle", "star"])]) == "little t****** s***"
    with pytest.raises(ValueError):
        censor("x", terms=[("twinkle star", "moon")])
    with pytest.raises(TypeError):
        censor("x", terms="twinkle")
    with pytest.raises(TypeError):
        censor(5)
    with pytest.raises(TypeError):
        censor(["ok", 5])
