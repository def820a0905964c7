"""SEAT counts the test words slotted into its sentences: a CBoW encoder that lacks a word drops its sentences,
the coverage and the not-run rule are the word-level WEAT's for the same word lists."""
import numpy as np
import pytest

import wordbias as wb
from wordbias.core.errors import DegenerateSetError, LowCoverageWarning
from wordbias.datasets import seat as data
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import seat as ms
from wordbias.measures.association.measurement import weats
from wordbias.models import sentence
from wordbias.options import Resampling, Words

TEMPLATES = ("This is {}.", "That is {}.", "Here is {}.")
FLOWERS, INSECTS = ["rose", "tulip", "lily", "daisy", "iris"], ["ant", "wasp", "moth", "flea", "gnat"]
GOOD, BAD = ["love", "joy", "peace", "gift"], ["hate", "war", "pain", "filth"]
TEMPLATE_WORDS = ["this", "that", "here", "is", "."]


def _kv(words):
    V = np.random.default_rng(7).normal(size=(len(words), 8)).astype(np.float32)
    return to_keyed_vectors(list(words), V)


def _sets(x=FLOWERS, y=INSECTS, a=GOOD, b=BAD):
    s = lambda ws: [t.format(w) for w in ws for t in TEMPLATES]  # noqa: E731
    return {"id": "toy", "X": s(x), "Y": s(y), "A": s(a), "B": s(b)}


def test_a_target_set_whose_words_are_all_unknown_is_not_run():
    """The template words alone give every insect sentence a vector; the insects themselves are unknown."""
    kv = _kv(TEMPLATE_WORDS + FLOWERS + GOOD + BAD)
    with pytest.raises(DegenerateSetError, match=r"set 'Y' is empty after dropping unknown words \['ant', 'wasp'"):
        ms.seat(kv, _sets(), resampling=Resampling(n_resamples=0, n_permutations=100_000), cache=False)
    (r,), _ = ms.seats(kv, [_sets()], resampling=Resampling(n_resamples=0, n_permutations=100_000), cache=False)
    (w,) = weats(kv, [{"id": "toy", "X": FLOWERS, "Y": INSECTS, "A": GOOD, "B": BAD}],
                 resampling=Resampling(n_resamples=0, n_permutations=100_000))
    assert r.not_run == w.not_run and r.not_run.startswith("not run: DegenerateSetError: set 'Y' is empty")
    assert np.isnan(r.effect_size) and r.coverage == w.coverage == "X 5/5; Y 0/5; A 4/4; B 4/4"


def test_coverage_counts_words_and_the_sentences_of_a_missing_word_are_dropped():
    kv = _kv(TEMPLATE_WORDS + FLOWERS[:4] + INSECTS + GOOD + BAD)        # no "iris"
    r = ms.seat(kv, _sets(), resampling=Resampling(n_resamples=0, n_permutations=100_000), cache=False)
    x = r.sets[0]
    assert r.coverage == "X 4/5; Y 5/5; A 4/4; B 4/4"                    # words, not 15/15 sentences
    assert x.missing == ("iris",) and r.dropped.startswith("X: iris")
    assert not any("iris" in s for s in x.used) and len(x.used) == 12    # 4 words x 3 templates
    assert r.to_dict()["n_x"] == 12 and r.to_dict()["n_a"] == 12
    assert any(n.startswith("3 sentence(s) left out") for n in r.notes)


def test_low_coverage_is_judged_on_words_as_the_word_level_weat():
    """3 of 4 words is below MIN_WORDS for both; 9 of 12 sentences would not be."""
    kv = _kv(TEMPLATE_WORDS + FLOWERS[:3] + INSECTS + GOOD + BAD)
    sets = _sets(x=FLOWERS[:4], y=INSECTS[:4])
    with pytest.warns(LowCoverageWarning, match=r"X 3/4 \(below 4 words\)"):
        r = ms.seat(kv, sets, resampling=Resampling(n_resamples=0, n_permutations=100_000), cache=False)
    w = wb.weat(kv, FLOWERS[:4], INSECTS[:4], GOOD, BAD, resampling=Resampling(n_resamples=0, n_permutations=100_000),
                words=Words(case_fold=False))
    assert r.flagged == w.flagged == ("X 3/4 (below 4 words)",)
    assert r.low_coverage and r.coverage == w.coverage


def test_sentence_and_word_twins_agree_on_a_shipped_test():
    """sent-weat7b and weat7b on an embedding that has every template word but no arts word and no female name:
    both not run, with the same reason and coverage."""
    test = data.load_test("sent-weat7b")
    terms = test.terms
    gone = {tok for role in "YB" for term, text in terms[role].values()
            for tok in sentence.tokenize(term) + sentence.tokenize(text)}
    vocab = dict.fromkeys(tok for s in test.sentences for tok in sentence.tokenize(s) if tok not in gone)
    kv = _kv(vocab)
    (s, w), _ = ms.seats(kv, ["sent-weat7b", "weat7b"], resampling=Resampling(n_resamples=0, n_permutations=100_000),
                         cache=False)
    assert s.not_run is not None and s.not_run == w.not_run
    assert s.coverage == w.coverage == "X 8/8; Y 0/8; A 8/8; B 0/8"


def test_a_word_seen_but_its_written_form_not_drops_only_those_sentences():
    test = data.load_test("sent-weat1")
    assert test.terms["X"]["These are asters."] == ("aster", "asters")
    vocab = dict.fromkeys(tok for s in test.sentences for tok in sentence.tokenize(s) if tok != "asters")
    kv = _kv(vocab)
    r = ms.seat(kv, test, resampling=Resampling(n_resamples=0, n_permutations=100), cache=False)
    x = r.sets[0]
    assert r.coverage.startswith("X 25/25; Y 25/25")
    assert not any("asters" in s for s in x.used) and any("aster." in s for s in x.used)
    assert any("(as written: asters" in n for n in r.notes)


def test_the_encoders_rule():
    kv = _kv(["white", "woman"])
    static = sentence.StaticEncoder(kv, "toy")
    assert static.sees("white woman") and not static.sees("woman of color") and not static.sees("")
    assert sentence.TransformerEncoder(None, "mean").sees("qqxzzy")    # a subword tokeniser never misses a word


def test_terms_cut_the_template_of_a_pair():
    t = data.load_test("heilman_double_bind_competent_one_sentence")
    assert t.terms["X"]["John is an engineer."] == ("John", "John")
    assert t.terms["A"]["The engineer is competent."] == ("competent", "competent")
    assert data.load_test("weat3b").terms["X"]["European American"] == ("European American",) * 2
