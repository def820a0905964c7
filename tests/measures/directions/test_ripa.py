"""RIPA (Ethayarajh, Duvenaud & Hirst 2019, ACL) and the sign-flip test, against hand computations
and brute force."""
import itertools
from math import sqrt

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.directions.ripa import mean_interval, relation_vector, ripa, ripa_scores, sign_flip_test
from wordbias.options import Resampling, Words
from wordbias.result import Result

WORDS = ["he", "she", "man", "woman", "king", "queen", "nurse", "pilot", "tree"]
VECS = np.array([[1, 0, 0], [0, 1, 0], [2, 0, 1], [0, 2, 1], [3, 1, 0], [1, 1, 2],
                 [1, 3, 0], [3, 1, 1], [0, 0, 5]], dtype=np.float32)


@pytest.fixture
def kv():
    return to_keyed_vectors(WORDS, VECS.copy())


def test_relation_vector_is_unit_difference():
    np.testing.assert_allclose(relation_vector([1, 0, 0], [0, 1, 0]), [1 / sqrt(2), -1 / sqrt(2), 0])
    with pytest.raises(DegenerateSetError):
        relation_vector([1.0, 2.0], [1.0, 2.0])


def test_ripa_scores_by_hand(kv):
    # pairs: he-she b = (1,-1,0)/sqrt2; man-woman b = (2,-2,0)/sqrt8 = same; king-queen b = (2,0,-2)/sqrt8
    r = ripa(kv, ["nurse", "pilot", "tree"], [("he", "she"), ("man", "woman"), ("king", "queen")], warn=False).result
    expected = np.array([
        [(1 - 3) / sqrt(2), (1 - 3) / sqrt(2), (1 - 0) / sqrt(2)],      # nurse (1, 3, 0)
        [(3 - 1) / sqrt(2), (3 - 1) / sqrt(2), (3 - 1) / sqrt(2)],      # pilot (3, 1, 1)
        [0.0, 0.0, (0 - 5) / sqrt(2)],                                   # tree (0, 0, 5)
    ])
    np.testing.assert_allclose(r.scores, expected, atol=1e-12)
    per_pair = expected.mean(axis=0)
    np.testing.assert_allclose(r.per_pair, per_pair)
    np.testing.assert_allclose(r.per_word, expected.mean(axis=1))
    assert r.mean == pytest.approx(expected.mean())
    assert r.sd == pytest.approx(np.std(per_pair, ddof=1))
    assert r.range == pytest.approx((per_pair.min(), per_pair.max()))
    frame = r.to_frame()
    assert list(frame["pair"]) == ["he - she", "man - woman", "king - queen"]
    np.testing.assert_allclose(frame["score"], per_pair)
    np.testing.assert_allclose(frame["pilot"], expected[1])
    # the test flips the 3 per-pair scores: exact over 8 patterns
    assert r.test.p_method == "exact" and r.test.n_resamples == 8 and r.units == "pairs"


def test_ripa_sign_is_towards_first_word(kv):
    r1 = ripa(kv, ["pilot"], [("he", "she")], warn=False).result
    r2 = ripa(kv, ["pilot"], [("she", "he")], warn=False).result
    assert r1.mean > 0
    assert r2.mean == pytest.approx(-r1.mean)


def test_ripa_normalize_words_divides_by_norm(kv):
    raw = ripa(kv, ["tree", "pilot"], [("king", "queen")], warn=False).result
    unit = ripa(kv, ["tree", "pilot"], [("king", "queen")], normalize="words", warn=False).result
    norms = np.linalg.norm(VECS[[8, 7]].astype(float), axis=1)
    np.testing.assert_allclose(unit.scores[:, 0], raw.scores[:, 0] / norms)
    assert unit.normalize == "words" and raw.normalize == "none"


def test_ripa_single_pair_test_cannot_reject(kv):
    r = ripa(kv, ["pilot", "nurse"], [("he", "she")], warn=False).result
    assert np.isnan(r.sd)
    assert r.test.p_value == 1.0      # one unit: both signs give the same |mean|


def test_ripa_matrix_function_matches():
    W = np.array([[1.0, 2.0], [0.0, 1.0]])
    s = ripa_scores(W, [[3.0, 0.0]], [[0.0, 4.0]])
    np.testing.assert_allclose(s[:, 0], [(3 - 8) / 5, -4 / 5])


def test_ripa_missing_words_and_pairs_warn(kv):
    with pytest.warns(MissingWordsWarning) as rec:
        m = ripa(kv, ["pilot", "zebra"], [("he", "she"), ("his", "her")])
    r = m.result
    assert r.missing_words == ("zebra",)
    assert r.missing_pairs == (("his", "her"),)
    assert sum(issubclass(w.category, MissingWordsWarning) for w in rec) == 2
    assert m.coverage == "N 1/2; pairs 1/2" and m.dropped == "N: zebra; pairs: his/her"
    assert sum(issubclass(w.category, MissingWordsWarning) for w in m.warnings) == 2
    with pytest.raises(KeyError):
        ripa(kv, ["pilot", "zebra"], [("he", "she")], words=Words(on_missing="raise"))


def test_ripa_validates(kv):
    with pytest.raises(InvalidParameterError):
        ripa(kv, ["pilot"], [("he", "she")], units="both")
    with pytest.raises(InvalidParameterError):
        ripa(kv, ["pilot"], [("he", "she")], alternative="bigger")
    with pytest.raises(InvalidParameterError):
        ripa(kv, "pilot", [("he", "she")])


def _brute_sign_flip(v, alternative):
    v = np.asarray(v, float)
    obs = v.mean()
    means = np.array([np.mean(np.array(s) * v) for s in itertools.product([1, -1], repeat=v.size)])
    tol = 1e-9
    if alternative == "greater":
        return np.mean(means >= obs - tol)
    if alternative == "less":
        return np.mean(means <= obs + tol)
    return np.mean(np.abs(means) >= abs(obs) - tol)


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_sign_flip_exact_matches_brute_force(alternative):
    rng = np.random.default_rng(3)
    for n in (1, 2, 5, 9):
        v = rng.normal(0.3, 1.0, size=n)
        t = sign_flip_test(v, alternative=alternative)
        assert t.p_method == "exact" and t.n_resamples == 2 ** n
        assert t.p_value == pytest.approx(_brute_sign_flip(v, alternative))
        assert t.statistic == pytest.approx(v.mean())


def test_sign_flip_hand_values():
    # 4 positive values: only the all-plus pattern reaches the mean; two-sided adds the all-minus one
    assert sign_flip_test([1.0, 2.0, 3.0, 4.0], alternative="greater").p_value == 1 / 16
    assert sign_flip_test([1.0, 2.0, 3.0, 4.0]).p_value == 2 / 16
    assert sign_flip_test([1.0, 2.0, 3.0, 4.0], alternative="less").p_value == 1.0
    # ties: {1, 1} -> means 1, 0, 0, -1; P(mean >= 1) = 1/4
    assert sign_flip_test([1.0, 1.0], alternative="greater").p_value == 0.25


def test_sign_flip_monte_carlo_seeded_and_close():
    rng = np.random.default_rng(0)
    v = rng.normal(0.2, 1.0, size=12)
    exact = sign_flip_test(v, alternative="greater")
    mc = sign_flip_test(v, alternative="greater", exact_max_n=0, n_resamples=20_000, seed=5)
    again = sign_flip_test(v, alternative="greater", exact_max_n=0, n_resamples=20_000, seed=5)
    assert mc.p_method == "monte-carlo" and mc.p_value == again.p_value
    assert mc.p_value == pytest.approx(exact.p_value, abs=4 * sqrt(exact.p_value * (1 - exact.p_value) / 20_000))
    assert mc.p_value == (mc.n_extreme + 1) / (20_000 + 1)


def test_sign_flip_null_is_uniform_ish():
    """Under H0 (symmetric values) P(p <= 0.05) is at most 0.05 (the test is valid)."""
    rng = np.random.default_rng(1)
    ps = np.array([sign_flip_test(rng.normal(size=8), alternative="greater").p_value for _ in range(2000)])
    assert np.mean(ps <= 0.05) <= 0.05 + 3 * sqrt(0.05 * 0.95 / 2000)


def test_sign_flip_validates():
    with pytest.raises(DegenerateSetError):
        sign_flip_test([])
    with pytest.raises(InvalidParameterError):
        sign_flip_test([1.0, np.nan])
    with pytest.raises(InvalidParameterError):
        sign_flip_test([1.0], n_resamples=0)
    with pytest.raises(InvalidParameterError):
        sign_flip_test([1.0], seed=-1)


def test_sign_flip_exact_blocks_match_brute_force_at_18():
    """2^18 patterns are enumerated in blocks; count them independently as (signs of the first 8) x (signs of
    the last 10) sums."""
    v = np.random.default_rng(8).normal(0.4, 1.0, size=18)
    t = sign_flip_test(v, alternative="greater")
    assert t.p_method == "exact" and t.n_resamples == 2 ** 18
    head = np.array(list(itertools.product([1.0, -1.0], repeat=8))) @ v[:8]
    tail = np.array(list(itertools.product([1.0, -1.0], repeat=10))) @ v[8:]
    means = (head[:, None] + tail[None, :]).ravel() / 18
    assert t.n_extreme == int(np.count_nonzero(means >= v.mean() - 1e-10 * np.abs(v).max()))


def test_ripa_units_words_flips_word_scores(kv):
    r = ripa(kv, ["nurse", "pilot", "tree"], [("he", "she"), ("king", "queen")], units="words",
             alternative="greater", warn=False).result
    assert r.test.n == 3 and r.test.n_resamples == 8
    assert r.test.p_value == pytest.approx(_brute_sign_flip(r.per_word, "greater"))


def test_ripa_is_measured_once_into_the_one_result(kv):
    pairs = [("he", "she"), ("man", "woman"), ("king", "queen")]
    m = ripa(kv, ["nurse", "pilot", "tree"], pairs, alternative="greater", warn=False,
             resampling=Resampling(n_resamples=300, seed=2))
    r = m.result
    assert isinstance(m, Result) and m.measure == "ripa" and m.effect_size_name == "ripa"
    assert m.effect_size == m.statistic == pytest.approx(r.mean)
    # one-sided p of the sign-flip test over the pairs, and the two-sided p of the same 8 patterns
    assert m.p_value == pytest.approx(_brute_sign_flip(r.per_pair, "greater"))
    assert m.p_two_sided == pytest.approx(_brute_sign_flip(r.per_pair, "two-sided"))
    assert (m.p_method, m.n_permutations, m.alternative) == ("exact", 8, "greater")
    # the interval is the bootstrap of the mean over the 3 pairs, as mean_interval computes it
    ci, _ = mean_interval(r.per_pair, name="ripa", of="the 3 base pairs", resampling=Resampling(n_resamples=300,
                                                                                                seed=2))
    assert (m.ci_low, m.ci_high) == (ci.low, ci.high) and m.ci_low <= m.effect_size <= m.ci_high
    assert m.ci_method == "BCa 95%, 300 resamples of the 3 base pairs" and m.n_resamples == 300
    assert m.coverage == "N 3/3; pairs 3/3" and m.sets[1].used == ("he/she", "man/woman", "king/queen")


def test_ripa_interval_needs_three_units_and_takes_its_options(kv):
    m = ripa(kv, ["nurse", "pilot"], [("he", "she"), ("man", "woman")], warn=False)
    assert m.interval is None and np.isnan(m.ci_low) and m.notes[0] == (
        "no bootstrap interval: 2 value(s) of the 2 base pairs")
    with pytest.raises(InvalidParameterError, match="resampling"):
        ripa(kv, ["nurse"], [("he", "she")], resampling={"n_resamples": 10})
    with pytest.raises(InvalidParameterError, match="ci_method"):
        ripa(kv, ["nurse"], [("he", "she")], resampling=Resampling(ci_method="bca"))
