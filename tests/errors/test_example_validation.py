"""Catalogue cases for the shared validation helpers."""
import pytest
from catalogue import Case, check

from wordbias.core import validation as V
from wordbias.core.errors import InvalidParameterError

CASES_VALIDATION = [
    Case("parameters", "seed -1", lambda: V.check_seed("seed", -1), InvalidParameterError, match=r"seed must be"),
    Case("parameters", "seed 1.5", lambda: V.check_seed("seed", 1.5), InvalidParameterError, match=r"1\.5"),
    Case("parameters", "seed 'abc'", lambda: V.check_seed("seed", "abc"), InvalidParameterError, match="'abc'"),
    Case("parameters", "count 10.7", lambda: V.check_int("n_permutations", 10.7, min=1), InvalidParameterError,
         match="n_permutations must be an integer"),
    Case("word lists", "a string as a word list", lambda: V.check_words("X", "rose"), InvalidParameterError,
         match="not the string 'rose'"),
]


@pytest.mark.parametrize("case", CASES_VALIDATION, ids=lambda c: c.id)
def test_case(case):
    check(case)
