"""Catalogue cases for the WEAT family's parameters and for cost checked before work: ddof, balance_targets,
n_permutations, seeds, p_method, WEFAT's property, and requests out of
proportion (Monte Carlo draws, the report's direction test, exact counts)."""
import numpy as np
import pytest
from _fixtures import FLOWERS, INSECTS, PLEASANT, UNPLEASANT, small_kv
from catalogue import Case, check

from wordbias.core.errors import DegenerateSetError, ExactCountTooLarge, InvalidParameterError, TooCostlyError
from wordbias.measures.association import weat as W
from wordbias.measures.association.wefat import wefat
from wordbias.measures.directions import direction_permutation as dp
from wordbias.options import loose_options
from wordbias.papers import kurita2019_gap as kgap
from wordbias.papers import racial_bias_report as report
from wordbias.stats import montecarlo, multiple
from wordbias.stats import permutation as P

KV = small_kv()
PROP = {w: float(i) for i, w in enumerate(FLOWERS + INSECTS)}
M = "measures"
C = "cost"
RNG = np.random.default_rng(0)
VALUES = RNG.normal(size=16)
T1, T2, A1, A2 = (RNG.normal(size=(20, 50)) for _ in range(4))


def _weat(**kw):
    return lambda: W.weat(KV, FLOWERS, INSECTS, PLEASANT, UNPLEASANT,
                          **loose_options(W.DEFAULT_RESAMPLING, W.DEFAULT_WORDS, **kw))


def _wefat(prop=PROP, **kw):
    return lambda: wefat(KV, FLOWERS + INSECTS, PLEASANT, UNPLEASANT, prop, **kw)


CASES_MEASURES = [
    Case(M, "weat ddof 20", _weat(ddof=20), InvalidParameterError, match=r"ddof must be one of 0, 1; not 20"),
    Case(M, "weat ddof -3", _weat(ddof=-3), InvalidParameterError, match=r"ddof must be one of 0, 1; not -3"),
    Case(M, "effect_size ddof 0.5", lambda: W.effect_size([1.0, 0.0], [0.5, 0.2], ddof=0.5), InvalidParameterError,
         match=r"ddof must be an integer"),
    Case(M, "balance_targets 'randm' with equal sizes", _weat(balance_targets="randm"), InvalidParameterError,
         match=r"balance_targets must be one of 'random', 'none', 'raise'; not 'randm'"),
    Case(M, "n_permutations 10.7", _weat(n_permutations=10.7), InvalidParameterError,
         match=r"n_permutations must be an integer, not 10\.7"),
    Case(M, "n_permutations '1000'", _weat(n_permutations="1000"), InvalidParameterError,
         match=r"n_permutations must be an integer, not '1000'"),
    Case(M, "n_permutations 0", _weat(n_permutations=0), InvalidParameterError, match=r"n_permutations must be >= 1"),
    Case(M, "weat seed -1", _weat(seed=-1), InvalidParameterError, match=r"seed must be an integer >= 0 .* not -1"),
    Case(M, "weat seed 1.5", _weat(seed=1.5), InvalidParameterError, match=r"seed must be .* not 1\.5"),
    Case(M, "weat seed 'abc'", _weat(seed="abc"), InvalidParameterError, match=r"seed must be .* not 'abc'"),
    Case(M, "p_value seed -1 (Monte Carlo)", lambda: W.p_value(VALUES[:8], VALUES[8:], p_method="monte-carlo", seed=-1),
         InvalidParameterError, match=r"seed must be an integer >= 0"),
    Case(M, "p_method 'bogus'", _weat(p_method="bogus"), InvalidParameterError,
         match=r"p_method must be one of 'auto', 'exact', 'monte-carlo', 'mc', 'normal'; not 'bogus'"),
    Case(M, "on_missing 'fail'", _weat(on_missing="fail"), InvalidParameterError,
         match=r"on_missing must be one of 'drop', 'raise'; not 'fail'"),
    Case(M, "case_fold 'yes'", _weat(case_fold="yes"), InvalidParameterError, match=r"case_fold must be True or False"),
    Case(M, "wefat constant property", _wefat({w: 50.0 for w in PROP}), DegenerateSetError,
         match=r"the property is the same \(50\) for all 8 target words kept: a correlation with it is undefined"),
    Case(M, "wefat property as a list", _wefat(list(range(8))), InvalidParameterError,
         match=r"prop must map each target word to a number \(a dict .* or a pandas\.Series indexed by word\), not list"),
    Case(M, "wefat property of strings", _wefat({w: "high" for w in PROP}), InvalidParameterError,
         match=r"prop must map each target word to a number"),
    Case(M, "wefat ddof 2", _wefat(ddof=2), InvalidParameterError, match=r"ddof must be one of 0, 1"),
    Case(M, "direction test n_permutations 1.5",
         lambda: dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=1.5), InvalidParameterError,
         match=r"n_permutations must be an integer, not 1\.5"),
    Case(M, "direction test seed -1", lambda: dp.direction_permutation_test(T1, T2, A1, A2, seed=-1),
         InvalidParameterError, match=r"seed must be an integer >= 0"),
    Case(M, "racial notebook -p seed abc", lambda: report.check_parameters("glove-6b-50d", [], 10_000, "abc"),
         InvalidParameterError, match=r"seed must be .* not 'abc'"),
    Case(M, "racial notebook -p n_permutations 1e4", lambda: report.check_parameters("glove-6b-50d", [], 1e4, 0),
         InvalidParameterError, match=r"n_permutations must be an integer, not 10000\.0"),
]

CASES_ALTERNATIVES = [
    Case("measures", "alternative 'two_sided' (misspelt)",
         lambda: W.p_value(np.arange(3.0), np.arange(3.0) + 1, alternative="two_sided"), InvalidParameterError,
         match=r"alternative must be one of 'greater', 'less', 'two-sided'"),
    Case("measures", "Holm with a p of 1.5", lambda: multiple.holm([0.1, 1.5]), InvalidParameterError,
         match=r"positions \[1\] hold \[1\.5\]"),
    Case("measures", "Benjamini-Hochberg with a NaN p", lambda: multiple.benjamini_hochberg([0.1, float("nan")]),
         InvalidParameterError, match=r"p-values in \[0, 1\]"),
]

CASES_COST = [
    Case(C, "Monte Carlo n_permutations=10**12",
         lambda: P.subset_sum_tail_mc(VALUES, 8, 0.0, n_permutations=10 ** 12), TooCostlyError,
         match=r"n_permutations=1,000,000,000,000 .* estimated to take .* h.* p_method='normal'.*max_seconds"),
    Case(C, "Monte Carlo n_permutations=10**20 (43 PiB)",
         lambda: P.subset_sum_tail_mc(np.arange(50.0), 25, 0.0, n_permutations=10 ** 20), TooCostlyError,
         match=r"and 43\.4 PiB of memory"),
    Case(C, "weat Monte Carlo n_permutations=10**12",
         _weat(p_method="monte-carlo", n_permutations=10 ** 12), TooCostlyError, match=r"refused before any work"),
    Case(C, "random_subset_sums storing 10**10 sums",
         lambda: montecarlo.random_subset_sums(VALUES, 8, 10 ** 10, seed=0), TooCostlyError, match=r"GiB of memory"),
    Case(C, "direction test n_permutations=10**9",
         lambda: dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=10 ** 9), TooCostlyError,
         match=r"direction permutation test with n_permutations=1,000,000,000 .* estimated to take .*fewer "
               r"permutations.*max_seconds"),
    Case(C, "GAP gender test n_permutations=10**12",
         lambda: kgap.gender_permutation_test(np.linspace(0, 1, 100), np.array(["female", "male"] * 50),
                                              n_permutations=10 ** 12), TooCostlyError, match=r"estimated to take"),
    Case(C, "exact count over budget",
         lambda: P.subset_sum_tail_exact(np.random.default_rng(1).normal(size=60), 30, 0.0, max_sums=2 ** 10),
         TooCostlyError, match=r"subset sums per half \(16 KiB; without pruning up to .*p_method='normal'"),
]


@pytest.mark.parametrize("case", CASES_MEASURES + CASES_ALTERNATIVES + CASES_COST, ids=lambda c: c.id)
def test_case(case):
    check(case)


def test_override_lets_a_costly_request_through():
    """``max_seconds`` is the documented way past the budget: a small request with a tiny budget is refused,
    and passes with ``max_seconds=inf``."""
    with pytest.raises(TooCostlyError):
        P.subset_sum_tail_mc(VALUES, 8, 0.0, n_permutations=10 ** 6, max_seconds=1e-6)
    assert P.subset_sum_tail_mc(VALUES, 8, 0.0, n_permutations=1000, max_seconds=float("inf")).n_permutations == 1000


def test_exact_count_too_large_is_still_a_value_error():
    assert issubclass(ExactCountTooLarge, TooCostlyError) and issubclass(ExactCountTooLarge, ValueError)
