"""wordbias.datasets.casing and the stand-in for Appendix C.4 of Swinger et al. (2019) on an uncased vocabulary:
the shipped word list (data/casing/), the rule on a small hand-made vocabulary (a proper noun dropped,
a common noun kept, tokens that are both), determinism, and the GAP capitalisation judge with its hand check."""

import gzip
import hashlib
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from wordbias.core import paths
from wordbias.core.errors import CasingDataError, InvalidParameterError
from wordbias.datasets import casing
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.enumeration import ube

DATA = paths.DATA / "casing"


# --------------------------------------------------------------------------------------------------
# the shipped files
# --------------------------------------------------------------------------------------------------

def test_wordlist_file_is_the_documented_one():
    """SOURCE.md states the uncompressed sha256 and the number of words; the file is letters only, sorted."""
    raw = gzip.decompress(casing.WORDLIST_FILE.read_bytes())
    source = (DATA / "SOURCE.md").read_text()
    assert hashlib.sha256(raw).hexdigest() in source
    words = raw.decode("ascii").split("\n")
    assert words[-1] == "" and words[:-1] == sorted(set(words[:-1]))
    assert f"{len(words) - 1:,}" in source
    assert len(casing.cased_wordlist()) == len(words) - 1
    assert casing.WORDLIST_FILE.stat().st_size < 300_000          # small: SOURCE.md says about 200 kB


def test_wordlist_keeps_case():
    words = casing.cased_wordlist()
    assert {"bill", "Bill", "may", "May", "rose", "Rose", "dog", "Texas", "TV"} <= words
    assert not {"texas", "tv", "Dog"} & words
    lower = casing.lowercase_words()
    assert "bill" in lower and "Bill" not in lower and all(w.islower() for w in lower)
    assert 60_000 < len(lower) < len(words)


def test_bad_wordlist_files_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("dog\ncat's\n")
    with pytest.raises(CasingDataError, match=r"bad\.txt, line 2: \"cat's\" is not a word of ASCII letters"):
        casing.cased_wordlist(str(bad))
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    with pytest.raises(CasingDataError, match="holds no words"):
        casing.cased_wordlist(str(empty))
    ok = tmp_path / "ok.txt.gz"
    ok.write_bytes(gzip.compress(b"Dog\ndog\nTexas\n"))
    assert casing.cased_wordlist(str(ok)) == frozenset({"Dog", "dog", "Texas"})


def test_make_wordlist_rebuilds_the_file_from_two_lists(tmp_path):
    """The derivation script: letters-only entries of both lists, union, sorted, deterministic gzip."""
    am, br = tmp_path / "american-english", tmp_path / "british-english"
    am.write_text("Bill\nBill's\nbill\ncolor\ncafé\n")
    br.write_text("bill\ncolour\nTexas\n")
    out1, out2 = tmp_path / "a.txt.gz", tmp_path / "b.txt.gz"
    for out in (out1, out2):
        subprocess.run([sys.executable, str(DATA / "make_wordlist.py"), str(am), str(br), str(out)], check=True,
                       capture_output=True)
    assert gzip.decompress(out1.read_bytes()).decode() == "Bill\nTexas\nbill\ncolor\ncolour\n"
    assert out1.read_bytes() == out2.read_bytes()


# --------------------------------------------------------------------------------------------------
# the stand-in on a hand-made vocabulary
# --------------------------------------------------------------------------------------------------

VOCAB = ["the", "bill", "texas", "may", "lufthansa", "dog", "tv", "sinopec", "rose", "ceo", "mark", "houses"]


def _uncased():
    return to_keyed_vectors(VOCAB, np.random.default_rng(0).normal(size=(len(VOCAB), 4)).astype(np.float32))


def test_stand_in_drops_proper_nouns_keeps_common_nouns_and_words_that_are_both():
    words = ube.candidate_words(_uncased(), None)                          # "auto" on an uncased vocabulary
    assert words == ["the", "bill", "may", "dog", "rose", "mark", "houses"]
    assert ube.candidate_words(_uncased(), None, case_source="wordlist") == words
    # proper nouns (capitalised only) and acronyms (upper case only) go; so do tokens the list lacks
    assert not {"texas", "lufthansa", "sinopec", "tv", "ceo"} & set(words)
    # no case rule: every lower-case token, as before the stand-in
    assert ube.candidate_words(_uncased(), None, case_source=None) == VOCAB


def test_stand_in_takes_the_M_most_frequent_that_pass_and_honours_exclude():
    assert ube.candidate_words(_uncased(), 3) == ["the", "bill", "may"]
    assert ube.candidate_words(_uncased(), 3, exclude=["bill", "may"]) == ["the", "dog", "rose"]


def test_stand_in_with_a_users_word_list_and_phrases():
    kv = to_keyed_vectors(["new_york", "ice_cream", "paris", "apple"], np.eye(4, dtype=np.float32))
    mine = ["New", "new", "York", "ice", "cream", "Paris", "apple"]
    assert ube.candidate_words(kv, None, case_source="wordlist", wordlist=mine) == ["ice_cream", "apple"]


def test_paper_rule_is_unchanged_on_a_cased_vocabulary():
    kv = to_keyed_vectors(["the", "John", "john", "Texas", "texas", "bill", "Bill", "dog"], np.ones((8, 2)))
    assert ube.candidate_words(kv, None) == ["the", "bill", "dog"]                      # auto = C.4
    assert ube.candidate_words(kv, None, case_source="embedding") == ["the", "bill", "dog"]
    # the stand-in can also be asked for on a cased vocabulary: "john" is a lower-case word in the list
    assert ube.candidate_words(kv, None, case_source="wordlist") == ["the", "john", "bill", "dog"]


def test_case_rule_resolution_and_errors():
    assert ube.case_rule("auto", cased=True) == "embedding"
    assert ube.case_rule("auto", cased=False) == "wordlist"
    assert ube.case_rule("wordlist", cased=True) == "wordlist"
    assert ube.case_rule(None, cased=True) is None
    for bad in ("Auto", "", 0, True, "none"):
        with pytest.raises(InvalidParameterError, match="case_source must be one of"):
            ube.case_rule(bad, cased=False)
    with pytest.raises(InvalidParameterError, match="vocabulary is uncased"):
        ube.candidate_words(_uncased(), None, case_source="embedding")
    with pytest.raises(InvalidParameterError, match="wordlist is used only by case_source 'wordlist'"):
        ube.candidate_words(_uncased(), None, case_source=None, wordlist=["dog"])


def test_stand_in_is_deterministic_across_processes():
    """The result is a function of the vocabulary's order, not of set iteration order (hash seeds)."""
    code = ("from wordbias.datasets import casing; from wordbias.measures.enumeration import ube; "
            "from wordbias.embeddings import to_keyed_vectors; import numpy as np; "
            f"v = {VOCAB!r} * 1; kv = to_keyed_vectors(v, np.eye(len(v), dtype=np.float32)); "
            "print(ube.candidate_words(kv, None))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**__import__("os").environ, "PYTHONHASHSEED": str(h)}).stdout for h in (1, 2)}
    assert len(outs) == 1
    assert ube.candidate_words(_uncased(), None) == ube.candidate_words(_uncased(), None)


# --------------------------------------------------------------------------------------------------
# the independent judge
# --------------------------------------------------------------------------------------------------

def test_capitalisation_counts_skip_sentence_starts():
    counts = casing.capitalisation_counts(['Bill paid. "Rose met Bill." (Dog) and May, the may tree; Texas is big'])
    assert "rose" not in counts.index and "dog" not in counts.index        # after a quote / bracket: skipped
    assert counts.loc["bill"].tolist() == [0, 1]       # the first "Bill" starts the text
    assert counts.loc["may"].tolist() == [1, 1] and "texas" not in counts.index   # "Texas" follows ";"
    with pytest.raises(InvalidParameterError, match="texts must be strings"):
        casing.capitalisation_counts([None])


def test_judge_and_share():
    counts = casing.capitalisation_counts(["x Texas x Texas x dog x dog x Bill x bill x Zed"])
    j = casing.judge_proper_nouns(["texas", "dog", "bill", "zed", "absent"], counts)
    assert j.tolist() == ["proper", "common", "common", "unknown", "unknown"]
    assert casing.proper_noun_share(j) == dict(proper=1, common=2, unknown=2, judged=3, share=1 / 3)
    assert np.isnan(casing.proper_noun_share(pd.Series(["unknown"]))["share"])
    with pytest.raises(InvalidParameterError, match="judgements must be among"):
        casing.proper_noun_share(pd.Series(["noun"]))
    with pytest.raises(InvalidParameterError, match="min_count must be >= 1"):
        casing.judge_proper_nouns(["dog"], counts, min_count=0)


def test_gap_judge_on_wikipedia_text():
    counts = casing.gap_capitalisation()
    assert counts["lower"].sum() + counts["capitalised"].sum() > 250_000
    j = casing.judge_proper_nouns(["london", "married", "actor", "john", "she"])
    assert j.tolist() == ["proper", "common", "common", "proper", "common"]


def test_hand_check_file_and_the_judges_error_rate():
    hand = casing.hand_check()
    assert len(hand) == 50 and set(hand["hand"]) == {"proper", "common"}
    e = casing.judge_errors(hand)
    assert e["sample"] == 50 and 0 < e["judged"] <= 50
    assert e["errors"] == e["common_called_proper"] + e["proper_called_common"]
    # recomputed by hand from the judge and the file, independently of judge_errors
    judge = casing.judge_proper_nouns(hand.index)
    mask = judge != "unknown"
    assert e["errors"] == int((judge[mask].to_numpy() != hand["hand"][mask.to_numpy()].to_numpy()).sum())
    assert f"{e['errors']} wrong" in casing.describe_judge_errors(hand)


def test_hand_check_errors(tmp_path):
    bad = tmp_path / "h.csv"
    bad.write_text("token,hand\ndog,maybe\n")
    with pytest.raises(CasingDataError, match="must be 'proper' or 'common', not \\['maybe'\\]"):
        casing.hand_check(bad)
    bad.write_text("token,hand\ndog,common\ndog,proper\n")
    with pytest.raises(CasingDataError, match=r"tokens judged twice: \['dog'\]"):
        casing.hand_check(bad)
    bad.write_text("token,verdict\ndog,common\n")
    with pytest.raises(CasingDataError, match=r"lacks the column\(s\) \['hand'\]"):
        casing.hand_check(bad)
