"""Catalogue cases for UBE (Swinger et al. 2019) and its notebook's parameters: each bad input
raises a clear error naming the parameter, the value and what is allowed, or warns."""
import dataclasses
import functools

import numpy as np
import pytest
from catalogue import Case, check

from wordbias.core.errors import InvalidParameterError, LowPowerWarning, TooCostlyError
from wordbias.measures.enumeration import ube
from wordbias.papers import swinger2019

TOKENS = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]   # 120 letter-only tokens


@functools.cache
def _kv():
    from wordbias.embeddings import to_keyed_vectors

    return to_keyed_vectors(TOKENS, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))


def _run(**changes):
    """ube.run on the toy embedding of its doctest (20 names, n=2, m=3, M=60, t=2, R=50, no case rule: its
    two-letter tokens are not English words) with ``changes``."""
    options = dict(n=2, m=3, M=60, t=2, R=50, svm_top_words=120, progress=False, case_source=None)
    options.update(changes)
    def call():
        parameters, rest = _split(options)
        return ube.run(_kv(), TOKENS[:20], parameters, **rest)
    return call


#: the fields of ube.UBEParameters; the other options are ube.run's own
FIELDS = {f.name for f in dataclasses.fields(ube.UBEParameters)}


def _split(options):
    """(UBEParameters, ube.run's other options) of one dict of options; the parameters made (and checked) here."""
    parameters = ube.UBEParameters(**{k: v for k, v in options.items() if k in FIELDS})
    return parameters, {k: v for k, v in options.items() if k not in FIELDS}


NOTEBOOK_OK = dict(embedding="glove-6b-50d", names_source="first", n=12, m=64, M=30_000, t=3, alpha=0.05, R=10_000,
                   seed=0, debiased="auto", last_names=True, censor_slurs=True)


def _notebook(**changes):
    """The notebook's check: UBEParameters from its UBE options, then swinger2019.check_parameters."""
    def call():
        options = {**NOTEBOOK_OK, **changes}
        parameters, rest = _split(options)
        return swinger2019.check_parameters(parameters=parameters, **rest)
    return call


E = InvalidParameterError
CASES_UBE = [
    Case("UBE", "alpha 0", _run(alpha=0), E, match=r"alpha must be > 0\.0, not 0\.0"),
    Case("UBE", "alpha 1.5", _run(alpha=1.5), E, match=r"alpha must be < 1\.0, not 1\.5"),
    Case("UBE", "alpha NaN", _run(alpha=float("nan")), E, match="alpha must be finite, not nan"),
    Case("UBE", "t larger than any category", _run(t=50), E,
         match=r"t = 50 is larger than every word category: the largest of the m = 3 categories has \d+ words"),
    Case("UBE", "t 0 (ZeroDivisionError in the kernel)", _run(t=0), E, match="t must be >= 1, not 0"),
    Case("UBE", "t -1", _run(t=-1), E, match="t must be >= 1, not -1"),
    Case("UBE", "n 1", _run(n=1), E, match=r"n must be >= 2, not 1 \(UBE compares groups"),
    Case("UBE", "n 0", _run(n=0), E, match="n must be >= 2, not 0"),
    Case("UBE", "M 0 (read as the whole vocabulary)", _run(M=0), E,
         match=r"M must be an integer >= m or None \(every candidate word of the vocabulary\), not 0"),
    Case("UBE", "M below m", _run(M=2), E, match="M must be >= 3, not 2"),
    Case("UBE", "batch_size 0", _run(batch_size=0), E, match="batch_size must be >= 1, not 0"),
    Case("UBE", "R 0", _run(R=0), E, match="R must be >= 1, not 0"),
    Case("UBE", "R 1.5", _run(R=1.5), E, match="R must be an integer, not 1.5"),
    Case("UBE", "seed -1", _run(seed=-1), E, match="seed must be an integer >= 0"),
    Case("UBE", "seed 1.5", _run(seed=1.5), E, match=r"seed must be .*not 1\.5"),
    Case("UBE", "seed 'abc'", _run(seed="abc"), E, match="seed must be .*not 'abc'"),
    Case("UBE", "clean_fraction 1", _run(clean_fraction=1.0), E, match=r"clean_fraction must be < 1\.0"),
    Case("UBE", "workers 0", _run(workers=0), E, match="workers must be >= 1, not 0"),
    Case("UBE", "name list given as a string",
         lambda: ube.run(_kv(), "aa", ube.UBEParameters(n=2, m=3, M=60, t=2, R=50)), E,
         match="name_tokens must be a list of words, not the string 'aa'"),
    Case("UBE", "name_exclusions as a string", _run(name_exclusions="ab"), E,
         match="name_exclusions must be a list of words, not the string 'ab'"),
    Case("UBE", "R too small for any significance", _run(R=10), warning=LowPowerWarning,
         match=r"smallest p-value is 1/\(R \+ 1\) = 0\.0909, above alpha = 0\.05"),
    Case("UBE", "case_source misspelt", _run(case_source="Wordlist"), E,
         match="case_source must be one of 'auto', 'embedding', 'wordlist' or None, not 'Wordlist'"),
    Case("UBE", "case_source 'none' (a string, not None)", _run(case_source="none"), E,
         match="case_source must be one of .* not 'none'"),
    Case("UBE", "case_source True", _run(case_source=True), E, match="case_source must be one of .* not True"),
    Case("UBE", "case_source 'embedding' on an uncased vocabulary (C.4 would drop nothing)",
         _run(case_source="embedding"), E, match="case_source 'embedding' .* this vocabulary is uncased"),
    Case("UBE", "wordlist given without the word-list rule", _run(wordlist=["dog"]), E,
         match="wordlist is used only by case_source 'wordlist'"),
    Case("UBE", "wordlist without a lower-case word", _run(case_source="wordlist", wordlist=["Texas", "TV"]), E,
         match="wordlist has no word spelt in lower case"),
    Case("UBE", "wordlist given as a string", _run(case_source="wordlist", wordlist="dog"), E,
         match="words must be a collection of words, not the string 'dog'"),
    Case("UBE", "the word list leaves fewer than M words", _run(case_source="auto"), warning=LowPowerWarning,
         match=r"only \d+ candidate words found \(asked for M = 60\)"),
    Case("UBE", "rotational_null batch_size 0",
         lambda: ube.rotational_null(np.eye(4), np.arange(4) % 2, np.eye(2, 4), np.eye(2, 4), 1, 5, batch_size=0),
         E, match="batch_size must be >= 1, not 0"),
    Case("UBE", "rotational_null t 0 (ZeroDivisionError in the kernel)",
         lambda: ube.rotational_null(np.eye(4), np.arange(4) % 2, np.eye(2, 4), np.eye(2, 4), 0, 5),
         E, match="t must be >= 1, not 0"),
]

CASES_UBE_COST = [
    Case("UBE cost", "R = 10**10 (the null would hold hundreds of GiB)", _run(R=10**10), TooCostlyError,
         match=r"R = 10000000000 rotations.*would take about .* and hold \d+\.\d GiB.*Lower R"),
    Case("UBE cost", "R = 10**9 at the paper's size (hours)",
         lambda: ube.check_null_cost(R=10**9, n=12, m=64, M=30_000, d=300, workers=2), TooCostlyError,
         match=r"would take about 1540\.0 hours on 2 workers.*Lower R"),
    Case("UBE cost", "M = 10**8 words (hours)",
         lambda: ube.check_null_cost(R=10_000, n=12, m=64, M=10**8, d=300, workers=4), TooCostlyError,
         match=r"M = 100000000 words of dimension 300 would take about \d+\.\d hours.*or M\."),
]

CASES_SWINGER_NOTEBOOK = [
    Case("Swinger notebook", "-p seed abc", _notebook(seed="abc"), E, match="seed must be .*not 'abc'"),
    Case("Swinger notebook", "-p n abc", _notebook(n="abc"), E, match="n must be an integer, not 'abc'"),
    Case("Swinger notebook", "-p R 0", _notebook(R=0), E, match="R must be >= 1, not 0"),
    Case("Swinger notebook", "-p alpha 5", _notebook(alpha=5), E, match=r"alpha must be < 1\.0, not 5\.0"),
    Case("Swinger notebook", "-p M 0", _notebook(M=0), E, match="M must be an integer >= m or None"),
    Case("Swinger notebook", "-p names_source middle", _notebook(names_source="middle"), E,
         match="names_source must be one of 'first', 'last'; not 'middle'"),
    Case("Swinger notebook", "-p last_names yes", _notebook(last_names="yes"), E,
         match="last_names must be True or False, not 'yes'"),
    Case("Swinger notebook", "-p embedding ''", _notebook(embedding=""), E, match="embedding must be an embedding name"),
    Case("Swinger notebook", "-p case_source word-list", _notebook(case_source="word-list"), E,
         match="case_source must be one of 'auto', 'embedding', 'wordlist' or None, not 'word-list'"),
]


@pytest.mark.parametrize("case", CASES_UBE + CASES_UBE_COST + CASES_SWINGER_NOTEBOOK, ids=lambda c: c.id)
def test_case(case):
    check(case)


def test_M_none_takes_every_candidate_word():
    """M=None is the documented way to ask for the whole vocabulary (0 is refused above)."""
    res = _run(M=None)()
    assert len(res.words) == len(TOKENS) - len(res.names)
    assert res.params["M"] is None


def test_a_generator_seed_is_accepted_and_reproducible():
    a = _run(seed=np.random.default_rng(5))()
    b = _run(seed=np.random.default_rng(5))()
    np.testing.assert_array_equal(a.null, b.null)
    assert a.params["seed"] == b.params["seed"]
