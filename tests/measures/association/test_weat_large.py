"""WEAT with 5,000 words per target set: counts of partitions past a float's range are
kept in integers or logarithms, so every p_method either works or refuses clearly."""
import time
import warnings
from math import comb

import numpy as np
import pytest

from wordbias.core import costs
from wordbias.core.errors import TooCostlyError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import weat as W
from wordbias.options import Resampling
from wordbias.stats import permutation as P

N_TARGET, N_ATTRIBUTE, DIM = 5_000, 10, 50


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(2 * N_TARGET + 2 * N_ATTRIBUTE)]
    kv = to_keyed_vectors(words, rng.normal(size=(len(words), DIM)).astype(np.float32))
    n, m = N_TARGET, N_ATTRIBUTE
    return kv, words[:n], words[n:2 * n], words[2 * n:2 * n + m], words[2 * n + m:]


def test_smallest_p_past_the_float_range():
    assert W.smallest_p(3, 3) == 0.05
    assert W.smallest_p(515, 515) == pytest.approx(1 / comb(1030, 515), rel=1e-15) and W.smallest_p(515, 515) > 0
    assert W.smallest_p(5_000, 5_000) == 0.0           # 10^-3008 is below the smallest float


def test_counts_past_the_float_range_in_messages_and_resolution():
    total = comb(10_000, 5_000)
    assert costs.count_text(total) == "~1.59x10^3008"
    assert costs.log10_comb(10_000, 5_000) == pytest.approx(costs.log10_count(total), abs=1e-9)
    tp = P.TailProbability(p_value=0.5, p_method="exact", n_partitions=total, alternative="two-sided")
    assert tp.resolution == 0.0
    small = P.TailProbability(p_value=0.5, p_method="exact", n_partitions=comb(50, 25))
    assert small.resolution == 1.0 / comb(50, 25)        # unchanged for counts a float holds


@pytest.mark.parametrize("p_method", ["normal", "monte-carlo", "auto"])
def test_a_5000_word_weat_works(big, p_method):
    kv, X, Y, A, B = big
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # no low-power warning, nothing else either
        r = W.weat(kv, X, Y, A, B, p_method=p_method, resampling=Resampling(n_permutations=10_000))
    elapsed = time.perf_counter() - start
    assert r.p.n_partitions == comb(2 * N_TARGET, N_TARGET)
    assert 0 < r.p_value <= 1 and np.isfinite(r.effect_size)
    summary = r.summary()
    assert summary["n_target"] == N_TARGET and summary["p_method"] in ("normal", "monte-carlo")
    assert elapsed < 60, f"{p_method}: {elapsed:.1f} s"


def test_a_5000_word_weat_refuses_the_exact_count_before_any_work(big):
    kv, X, Y, A, B = big
    start = time.perf_counter()
    with pytest.raises(TooCostlyError, match=r"exact count of the ~1\.59x10\^3008 partitions .* cannot succeed"):
        W.weat(kv, X, Y, A, B, p_method="exact")
    assert time.perf_counter() - start < 10


def test_a_huge_number_of_permutations_is_refused_not_overflowed():
    values = np.arange(20.0)
    with pytest.raises(TooCostlyError, match=r"n_permutations=~1x10\^400"):
        P.subset_sum_tail_mc(values, 10, 100.0, n_permutations=10 ** 400)
