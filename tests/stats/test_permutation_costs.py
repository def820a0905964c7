"""One cost check for every resampling entry point."""
import numpy as np
import pytest

from wordbias.core import costs
from wordbias.core.errors import TooCostlyError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import bootstrap, bootstrap_wefat
from wordbias.measures.diagnostics import sensitivity
from wordbias.measures.directions import bootstrap_direction, ripa
from wordbias.stats import permutation as P

RNG = np.random.default_rng(0)
T1, T2, A1, A2 = (RNG.normal(size=(8, 5)) for _ in range(4))
HUGE = 10 ** 12


def _cosines():
    words = [f"w{i}" for i in range(12)]
    kv = to_keyed_vectors(words, RNG.normal(size=(12, 5)).astype(np.float32))
    return sensitivity.weat_cosines(kv, words[:3], words[3:6], words[6:9], words[9:])


@pytest.mark.parametrize("call,name", [
    (lambda n: bootstrap.weat_bootstrap_from_vectors(T1, T2, A1, A2, n_resamples=n), "n_resamples"),
    (lambda n: bootstrap_wefat.wefat_bootstrap_from_vectors(T1, A1, A2, np.arange(8.0), n_resamples=n), "n_resamples"),
    (lambda n: bootstrap.effect_size_bootstrap([0.1, 0.5, 0.3], [0.9, 0.7], n_resamples=n), "n_resamples"),
    (lambda n: bootstrap_direction.direction_bootstrap_from_vectors(T1, T2, A1, A2, n_resamples=n, batch=1000),
     "n_resamples"),
    (lambda n: ripa.sign_flip_test(np.arange(1.0, 40.0), n_resamples=n), "n_resamples"),
    (lambda n: sensitivity.drop_curve(_cosines(), n_draws=n), "n_draws"),
    (lambda n: P.subset_sum_tail_mc(np.arange(20.0), 10, 100.0, n_permutations=n), "n_permutations"),
])
def test_huge_resampling_is_refused_before_any_work(call, name):
    with pytest.raises(TooCostlyError, match=rf"{name}=1,000,000,000,000.* is estimated to take .* refused before any "
                                             rf"work"):
        call(HUGE)
    with pytest.raises(TooCostlyError, match=rf"{name}=~1x10\^400"):
        call(10 ** 400)


def test_max_seconds_lets_a_long_request_through_the_check():
    with pytest.raises(TooCostlyError):
        costs.check_resampling_cost("a bootstrap", "n_resamples", 10 ** 9, 1_000, 8, held_draws=1000, max_seconds=60)
    costs.check_resampling_cost("a bootstrap", "n_resamples", 10 ** 9, 1_000, 8, held_draws=1000, max_seconds=1e6)


def test_ordinary_requests_pass():
    bootstrap.weat_bootstrap_from_vectors(T1, T2, A1, A2, n_resamples=200)
    ripa.sign_flip_test(np.arange(1.0, 40.0), n_resamples=10_000)
