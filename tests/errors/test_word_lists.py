"""Catalogue cases for word lists and unknown words: a string where a list belongs,
sets, duplicates, overlaps, words dropped or balanced out, sets too small, case, zero vectors."""
import numpy as np
import pytest
from _fixtures import FLOWERS, INSECTS, PLEASANT, UNPLEASANT, small_kv
from catalogue import Case, check

from wordbias.core import lookup
from wordbias.core.errors import (
    BalancedOutWarning,
    DegenerateSetError,
    InvalidParameterError,
    LowPowerWarning,
    MissingWordsWarning,
)
from wordbias.measures.association.weat import DEFAULT_RESAMPLING, DEFAULT_WORDS, weat
from wordbias.measures.association.wefat import wefat
from wordbias.measures.debiasing import debias
from wordbias.options import loose_options
from wordbias.papers import racial_bias_report as report

KV = small_kv()
UPPER = small_kv(lower=True)          # an "uncased" vocabulary: every key lower-case
ZERO = small_kv({"nil": [0.0] * 6, "nan": [np.nan] + [0.0] * 5})
PROP = {w: float(i) for i, w in enumerate(FLOWERS + INSECTS)}
F = "word lists"
U = "unknown words"


def _weat(X=FLOWERS, Y=INSECTS, A=PLEASANT, B=UNPLEASANT, kv=KV, **kw):
    return lambda: weat(kv, X, Y, A, B, **loose_options(DEFAULT_RESAMPLING, DEFAULT_WORDS, **kw))


CASES_WORD_LISTS = [
    Case(F, "weat X a string", _weat(X="rose"), InvalidParameterError, match=r"X must be a list of words, not the string 'rose'"),
    Case(F, "weat A a string", _weat(A="love"), InvalidParameterError, match=r"A must be a list of words, not the string"),
    Case(F, "wefat W a string", lambda: wefat(KV, "rose", PLEASANT, UNPLEASANT, PROP), InvalidParameterError,
         match=r"set 'W' must be a list of words, not the string 'rose'"),
    Case(F, "set_vectors with strings", lambda: lookup.set_vectors(KV, "man", "woe"), InvalidParameterError,
         match=r"first set' must be a list of words, not the string 'man'"),
    Case(F, "word_set with a string", lambda: lookup.word_set(KV, "rose", name="flowers"), InvalidParameterError,
         match=r"set 'flowers' must be a list of words, not the string"),
    Case(F, "pair_vectors with a string", lambda: lookup.pair_vectors(KV, "she he"), InvalidParameterError,
         match=r"pairs must be a list of word pairs"),
    Case(F, "pair_vectors with a pair of strings", lambda: lookup.pair_vectors(KV, ["she", "he"]), InvalidParameterError,
         match=r"item 0, 'she', is not a pair of two words"),
    Case(F, "gender_direction with a string", lambda: debias.gender_direction(KV, "she he"), InvalidParameterError,
         match=r"definitional pairs must be a list of word pairs"),
    Case(F, "racial notebook -p compare_with /path",
         lambda: report.check_parameters("glove-6b-50d", "/data/vectors.txt", 10_000, 0),
         InvalidParameterError, match=r"compare_with must be a list of embedding names or paths, not the string"),
    Case(F, "words that are not strings", _weat(X=["rose", 3]), InvalidParameterError, match=r"item 1 is 3 \(int\)"),
    Case(F, "duplicates in X", _weat(X=["rose", "tulip", "rose"]), InvalidParameterError,
         match=r"X lists these words more than once: \['rose'\]"),
    Case(F, "duplicates after case folding", _weat(X=["Rose", "rose", "tulip"], case_fold=True), InvalidParameterError,
         match=r"lower-cased, case_fold=True\) lists these words more than once: \['rose'\]"),
    Case(F, "X and Y overlap", _weat(X=["rose", "tulip", "ant"], Y=["ant", "wasp", "flea"]), InvalidParameterError,
         match=r"target sets X and Y share words: \['ant'\]"),
    Case(F, "A and B overlap", _weat(A=["love", "peace", "war"], B=["war", "hate"]), InvalidParameterError,
         match=r"attribute sets A and B share words: \['war'\]"),
    Case(F, "wefat A and B overlap", lambda: wefat(KV, FLOWERS + INSECTS, ["love", "war"], ["war"], PROP),
         InvalidParameterError, match=r"share words: \['war'\]"),
    Case(F, "set_vectors sets overlap", lambda: lookup.set_vectors(KV, ["love", "war"], ["war", "hate"]),
         InvalidParameterError, match=r"share words: \['war'\]"),
    Case(F, "python sets of unequal size (sorted, then balanced, said so)",
         _weat(X={"rose", "tulip", "daisy", "lily", "iris"}, Y=set(INSECTS)), warning=BalancedOutWarning,
         match=r"1 word\(s\) of 'X' deleted at random to balance them"),
]

CASES_UNKNOWN_WORDS = [
    Case(U, "weat drops unknown words", _weat(X=FLOWERS + ["orchid"]), warning=MissingWordsWarning,
         match=r"set 'X': 1 of 5 word\(s\) not in the embedding, dropped: \['orchid'\]"),
    Case(U, "weat balances 8 vs 3 targets", _weat(X=FLOWERS + ["iris", "poppy", "aster", "lotus"],
                                                  Y=["ant", "wasp", "flea"]),
         warning=BalancedOutWarning, match=r"'X' had 8 words and 'Y' 3: 5 word\(s\) of 'X' deleted at random"),
    Case(U, "weat left with 3 targets a side", _weat(X=FLOWERS[:3], Y=INSECTS[:3]), warning=LowPowerWarning,
         match=r"smallest attainable p is 1/C\(6, 3\) = 0\.05 >= alpha = 0\.05"),
    Case(U, "uncased embedding, cased stimuli (set empty)",
         _weat(X=["Rose", "Tulip"], Y=["Ant", "Wasp"], kv=UPPER), DegenerateSetError,
         match=r"set 'X' is empty .* pass case_fold=True"),
    Case(U, "uncased embedding, cased stimuli (words dropped)",
         _weat(X=["Rose", "tulip", "daisy"], kv=UPPER), warning=MissingWordsWarning,
         match=r"dropped: \['Rose'\]; 1 of them are in the embedding in lower case .* pass case_fold=True"),
    Case(U, "on_missing='raise' with cased stimuli", _weat(X=["Rose", "tulip"], kv=UPPER, on_missing="raise"),
         KeyError, match=r"\['Rose'\].*pass case_fold=True"),
    Case(U, "zero vector", _weat(X=["nil", "rose", "tulip"], kv=ZERO), DegenerateSetError,
         match=r"set 'X': the vectors of \['nil'\] are zero or not finite"),
    Case(U, "non-finite vector", _weat(A=["love", "nan"], kv=ZERO), DegenerateSetError,
         match=r"set 'A': the vectors of \['nan'\] are zero or not finite"),
    Case(U, "wefat drops words without a property", lambda: wefat(KV, FLOWERS + INSECTS + ["iris"], PLEASANT,
                                                                   UNPLEASANT, PROP),
         warning=MissingWordsWarning, match=r"set 'W': 1 of 9 word\(s\) have no \(finite\) property value, dropped: \['iris'\]"),
    Case(U, "wefat drops unknown words", lambda: wefat(KV, FLOWERS + INSECTS + ["orchid"], PLEASANT, UNPLEASANT,
                                                       dict(PROP, orchid=3.0)),
         warning=MissingWordsWarning, match=r"set 'W': 1 of 9 word\(s\) not in the embedding, dropped: \['orchid'\]"),
    Case(U, "set_vectors drops unknown words", lambda: lookup.set_vectors(KV, ["love", "bliss"], ["hate"], name="v"),
         warning=MissingWordsWarning, match=r"set 'v, first set': 1 of 2 word\(s\) .* dropped: \['bliss'\]"),
    Case(U, "pair_vectors drops pairs", lambda: lookup.pair_vectors(KV, [("she", "he"), ("hers", "his")]),
         warning=MissingWordsWarning, match=r"1 of 2 pair\(s\) dropped, .*hers/his \(missing hers\)"),
    Case(U, "word_set drops unknown words", lambda: lookup.word_set(KV, ["rose", "orchid"], name="flowers"),
         warning=MissingWordsWarning, match=r"set 'flowers': 1 of 2 .* dropped: \['orchid'\]"),
]


@pytest.mark.parametrize("case", CASES_WORD_LISTS + CASES_UNKNOWN_WORDS, ids=lambda c: c.id)
def test_case(case):
    check(case)
