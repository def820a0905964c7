"""The direction permutation test (the report "Racial bias in pre-trained word embeddings", Section 3 and
Appendix A) on vectors by hand, and measured once on an embedding's words (direction_test, direction_tests)."""

import warnings

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, LowCoverageWarning, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.directions import direction_permutation as dp
from wordbias.measures.directions.bootstrap_direction import direction_bootstrap_from_vectors
from wordbias.options import Resampling, Words


def test_cosine_bias_hand_computed():
    c = dp.cosine_bias([1.0, 0.0], [1.0, 1.0])
    assert c.cosine == pytest.approx(1 / np.sqrt(2))
    assert c.angle == pytest.approx(45.0)
    assert dp.cosine_bias([0, 0, 2], [0, 3, 0]).angle == pytest.approx(90.0)
    with pytest.raises(DegenerateSetError):
        dp.cosine_bias([0.0, 0.0], [1.0, 0.0])



def test_permutation_test_directions_unequal_sizes_hand_computed():
    # A1 = {(2,0,0)}, A2 = {(0,1,0), (0,-1,0), (0,0,2)}: r = (2,0,0) - (0,0,2/3);
    # T1 = {(1,1,0)}, T2 = {(1,0,0), (1,0,0)+...}
    A1 = np.array([[2.0, 0, 0]])
    A2 = np.array([[0, 1.0, 0], [0, -1.0, 0], [0, 0, 2.0]])
    T1 = np.array([[1.0, 1, 0], [3.0, 1, 0]])
    T2 = np.array([[0, 0, 1.0]])
    res = dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=100, seed=0)
    r = np.array([2, 0, -2 / 3])
    s = np.array([2, 1, -1])
    assert res.cosine == pytest.approx(r @ s / np.linalg.norm(r) / np.linalg.norm(s))
    # 4 ways to choose A1's single element; the null takes those values only
    values = []
    A = np.vstack([A1, A2])
    for i in range(4):
        d = A[i] - np.delete(A, i, axis=0).mean(axis=0)
        values.append(d @ s / np.linalg.norm(d) / np.linalg.norm(s))
    assert np.all(np.min(np.abs(res.null[:, None] - np.array(values)[None, :]), axis=1) < 1e-12)
    assert res.n_extreme == np.sum(res.null >= res.cosine - 1e-12)



def test_permutation_test_deterministic_and_ci():
    rng = np.random.default_rng(3)
    A1, A2 = rng.normal(size=(12, 8)), rng.normal(size=(9, 8))
    T1, T2 = rng.normal(size=(5, 8)), rng.normal(size=(6, 8))
    a = dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=2000, seed=7)
    b = dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=2000, seed=7, batch_size=2000)
    assert a.p == b.p and np.array_equal(a.null, b.null)
    assert 0 < a.p <= 1
    assert a.ci[0] <= a.p <= a.ci[1]
    from scipy import stats
    outcomes = (a.null >= a.cosine - 1e-12).astype(float)
    lo, hi = stats.norm.interval(0.95, loc=outcomes.mean(), scale=outcomes.std(ddof=1) / np.sqrt(len(outcomes)))
    assert a.ci == pytest.approx((lo, hi))
    assert dp.p_value_ci(outcomes) == pytest.approx((lo, hi))
    # the report's Table 1 row Google (Implicit): p = 0.0748 over 10,000 -> (0.0696, 0.08)
    assert np.round(dp.p_value_ci(748, 10_000), 4).tolist() == [0.0696, 0.08]



def test_permutation_test_planted_and_null():
    rng = np.random.default_rng(0)
    d = 10
    axis = np.eye(d)[0]
    A1 = rng.normal(size=(15, d)) + 2 * axis
    A2 = rng.normal(size=(15, d)) - 2 * axis
    T1 = rng.normal(size=(8, d)) + 2 * axis
    T2 = rng.normal(size=(8, d)) - 2 * axis
    planted = dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=1000, seed=1)
    assert planted.cosine > 0.8 and planted.p < 0.01
    ps = []
    for i in range(40):
        g = np.random.default_rng(100 + i)
        ps.append(dp.direction_permutation_test(g.normal(size=(8, d)), g.normal(size=(8, d)),
                                                    g.normal(size=(10, d)), g.normal(size=(12, d)),
                                                    n_permutations=200, seed=i).p)
    ps = np.array(ps)
    assert 0.2 < ps.mean() < 0.8 and np.mean(ps < 0.05) < 0.25



def test_permutation_test_errors():
    x = np.eye(3)
    with pytest.raises(DegenerateSetError, match="A1"):
        dp.direction_permutation_test(x[:1], x[1:2], np.empty((0, 3)), x)
    with pytest.raises(ValueError, match="share"):
        dp.direction_permutation_test(x[:1], x[1:2], x[:2], x[1:])
    with pytest.raises(DegenerateSetError, match="zero"):
        dp.direction_permutation_test(x[:1], x[1:2], np.zeros((1, 3)), x)



def test_direction_test_cost_is_checked_before_work():
    from wordbias.core.errors import TooCostlyError

    rng = np.random.default_rng(0)
    T1, T2, A1, A2 = (rng.normal(size=(5, 8)) for _ in range(4))
    with pytest.raises(TooCostlyError, match="max_seconds"):
        dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=10 ** 9)
    with pytest.raises(TooCostlyError):
        dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=10_000, max_seconds=1e-9)
    assert dp.direction_permutation_test(T1, T2, A1, A2, n_permutations=100).n_permutations == 100



def test_permutation_test_alternatives_share_the_permutations():
    rng = np.random.default_rng(3)
    A1, A2 = rng.normal(size=(12, 8)), rng.normal(size=(9, 8))
    T1, T2 = rng.normal(size=(5, 8)), rng.normal(size=(6, 8))
    kw = dict(n_permutations=2000, seed=7)
    g = dp.direction_permutation_test(T1, T2, A1, A2, **kw)
    same = dp.direction_permutation_test(T1, T2, A1, A2, alternative="greater", **kw)
    assert (same.p, same.n_extreme, same.ci, same.cosine) == (g.p, g.n_extreme, g.ci, g.cosine)
    le = dp.direction_permutation_test(T1, T2, A1, A2, alternative="less", **kw)
    two = dp.direction_permutation_test(T1, T2, A1, A2, alternative="two-sided", **kw)
    assert np.array_equal(g.null, le.null) and np.array_equal(g.null, two.null)
    assert g.alternative == "greater" and le.alternative == "less" and two.alternative == "two-sided"
    assert le.n_extreme == np.sum(le.null <= le.cosine + 1e-12) and le.p == le.n_extreme / 2000
    assert two.p == min(1.0, 2 * min(g.p, le.p)) and two.n_extreme == min(g.n_extreme, le.n_extreme)
    assert two.ci == pytest.approx(tuple(2 * x for x in dp.p_value_ci(two.n_extreme, 2000)))
    with pytest.raises(ValueError, match="alternative"):
        dp.direction_permutation_test(T1, T2, A1, A2, alternative="two_sided", **kw)




# ---------------------------------------------------------------------- measured once on an embedding's words


def _toy(seed: int = 0, shift: float = 2.0, missing: tuple = ("zz",)):
    """8 target and 12 attribute words with a planted shared axis; the words of ``missing`` are not in it."""
    rng = np.random.default_rng(seed)
    words = [f"t{i}" for i in range(8)] + [f"a{i}" for i in range(12)]
    sign = np.array([1] * 4 + [-1] * 4 + [1] * 6 + [-1] * 6)
    V = rng.normal(size=(20, 6)) + shift * np.outer(sign, np.eye(6)[0])
    kv = to_keyed_vectors(words, V.astype(np.float32))
    sets = dict(T1=words[:4], T2=words[4:8], A1=words[8:14], A2=words[14:] + list(missing))
    return kv, sets


def test_direction_test_is_the_vector_test_on_the_words_used():
    kv, sets = _toy()
    with pytest.warns(MissingWordsWarning, match="zz"):
        m = dp.direction_test(kv, **sets, resampling=Resampling(n_permutations=500, seed=3, n_resamples=300))
    used = {k: [w for w in v if w in kv.key_to_index] for k, v in sets.items()}
    mats = [kv[used[k]].astype(np.float64) for k in dp.SETS]
    one = dp.direction_permutation_test(*mats, n_permutations=500, seed=3)
    two = dp.direction_permutation_test(*mats, n_permutations=500, seed=3, alternative="two-sided")
    ci = direction_bootstrap_from_vectors(*mats, n_resamples=300, seed=3)
    assert (m.effect_size, m.statistic, m.p_value, m.p_two_sided) == (one.cosine, one.cosine, one.p, two.p)
    assert np.array_equal(m.result.test.null, one.null) and m.result.test.ci == one.ci
    assert (m.ci_low, m.ci_high, m.interval.resampled) == (ci.low, ci.high, ("T1", "T2", "A1", "A2"))
    assert m.ci_method == "BCa 95%, 300 resamples of T1, T2, A1, A2" and m.n_resamples == 300
    assert (m.p_method, m.alternative, m.n_permutations, m.measure) == ("monte-carlo", "greater", 500, "direction")
    # the words asked, used and missing per set, and the coverage
    assert [s.letter for s in m.sets] == ["T1", "T2", "A1", "A2"]
    assert m.sets[3].asked == tuple(sets["A2"]) and m.sets[3].used == tuple(used["A2"])
    assert m.sets[3].missing == ("zz",) and m.dropped == "A2: zz"
    assert m.coverage == "T1 4/4; T2 4/4; A1 6/6; A2 6/7" and not m.low_coverage
    # the projections of the target words on r = mean(A1) - mean(A2), by hand
    r = mats[2].mean(axis=0) - mats[3].mean(axis=0)
    np.testing.assert_allclose(m.result.projections[0], mats[0] @ r / np.linalg.norm(r))
    np.testing.assert_allclose(m.result.projections[1], mats[1] @ r / np.linalg.norm(r))
    assert m.notes[0] == f"angle {one.angle:.1f} degrees" and f"[{one.ci[0]:.4f}, {one.ci[1]:.4f}]" in m.notes[1]
    assert str(m).startswith("DIRECTION: A1 vs A2 on T1 vs T2\n  cos = ")


def test_one_draw_of_permutations_gives_both_tails(monkeypatch):
    kv, sets = _toy()
    calls = []
    real = dp._null_cosines
    monkeypatch.setattr(dp, "_null_cosines", lambda *a, **k: calls.append(1) or real(*a, **k))
    m = dp.direction_test(kv, **sets, resampling=Resampling(n_permutations=400, n_resamples=0), warn=False)
    assert len(calls) == 1 and m.result.two_sided.alternative == "two-sided"
    assert np.array_equal(m.result.test.null, m.result.two_sided.null)
    assert m.p_two_sided == min(1.0, 2 * min(m.p_value, np.mean(m.result.test.null <= m.effect_size + 1e-12)))
    assert m.interval is None and np.isnan(m.ci_low) and m.n_resamples == 0


def test_direction_test_is_deterministic_and_seeded():
    kv, sets = _toy()
    a, b = (dp.direction_test(kv, **sets, resampling=Resampling(n_permutations=300, n_resamples=200, seed=1),
                              warn=False) for _ in "ab")
    c = dp.direction_test(kv, **sets, resampling=Resampling(n_permutations=300, n_resamples=200, seed=2), warn=False)
    assert (a.p_value, a.ci_low, a.ci_high) == (b.p_value, b.ci_low, b.ci_high)
    assert not np.array_equal(a.result.test.null, c.result.test.null) and a.effect_size == c.effect_size


def test_a_planted_association_is_found_and_a_random_one_is_not():
    kv, sets = _toy(shift=3.0)
    planted = dp.direction_test(kv, **sets, resampling=Resampling(n_permutations=2000, n_resamples=500), warn=False)
    assert planted.effect_size > 0.8 and planted.p_value < 0.05 and planted.ci_low > 0
    kv0, _ = _toy(shift=0.0, seed=5)
    null = dp.direction_test(kv0, **sets, resampling=Resampling(n_permutations=2000, n_resamples=0), warn=False)
    assert null.p_value > 0.05


def test_low_coverage_is_flagged_and_warned():
    kv, sets = _toy()
    few = {**sets, "T2": sets["T2"][:1] + [f"x{i}" for i in range(11)]}
    with pytest.warns(LowCoverageWarning, match=r"T2 1/12"):
        m = dp.direction_test(kv, **few, resampling=Resampling(n_permutations=200, n_resamples=200))
    assert m.low_coverage and m.flagged[0].startswith("T2 1/12") and m.coverage.startswith("T1 4/4; T2 1/12")
    # a set of one word cannot be resampled: the interval holds it fixed and says so
    assert m.interval.resampled == ("T1", "A1", "A2") and m.ci_method.endswith("resamples of T1, A1, A2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = dp.direction_test(kv, **few, resampling=Resampling(n_permutations=200, n_resamples=200), warn=False)
    assert quiet.flagged == m.flagged and any(issubclass(w.category, MissingWordsWarning) for w in quiet.warnings)
    ok = dp.direction_test(kv, **few, resampling=Resampling(n_permutations=200, n_resamples=0),
                           words=Words(min_words=1, min_fraction=0.05), warn=False)
    assert not ok.low_coverage


def test_a_test_without_an_interval_keeps_its_p_and_says_why():
    kv, sets = _toy()
    one_each = dict(T1=sets["T1"][:1], T2=sets["T2"][:1], A1=sets["A1"][:1], A2=sets["A2"][:1])
    m = dp.direction_test(kv, **one_each, resampling=Resampling(n_permutations=100, n_resamples=100), warn=False)
    assert np.isfinite(m.p_value) and m.interval is None and np.isnan(m.ci_high)
    assert m.notes[0].startswith("no bootstrap interval: ")


def test_case_is_folded_for_an_uncased_vocabulary():
    kv, sets = _toy()
    upper = {k: [w.upper() for w in v] for k, v in sets.items()}
    m = dp.direction_test(kv, **upper, resampling=Resampling(n_permutations=200, n_resamples=0), warn=False)
    assert m.coverage == "T1 4/4; T2 4/4; A1 6/6; A2 6/7" and m.sets[0].asked == tuple(sets["T1"])
    with pytest.raises(DegenerateSetError, match="empty"):
        dp.direction_test(kv, **upper, words=Words(case_fold=False),
                          resampling=Resampling(n_permutations=200, n_resamples=0), warn=False)


def test_direction_test_checks_its_options():
    kv, sets = _toy()
    with pytest.raises(InvalidParameterError, match="n_resamples must be 0"):
        dp.direction_test(kv, **sets, resampling=Resampling(n_resamples=1))
    with pytest.raises(InvalidParameterError, match="alternative"):
        dp.direction_test(kv, **sets, alternative="bigger")
    with pytest.raises(InvalidParameterError, match="n_permutations"):
        dp.direction_test(kv, **sets, resampling=Resampling(n_permutations=1))
    with pytest.raises(InvalidParameterError, match="'n_permutation'"):
        dp.direction_test(kv, **sets, n_permutation=500)                     # not an option of the test
    with pytest.raises(InvalidParameterError, match="resampling must be"):
        dp.direction_test(kv, **sets, resampling={"n_permutations": 500})
    with pytest.raises(InvalidParameterError, match="batch_size"):
        dp.direction_test(kv, **sets, batch_size=0)
    with pytest.raises(InvalidParameterError, match="lacks"):
        dp.direction_tests(kv, [{k: v for k, v in sets.items() if k != "A2"}])
    with pytest.raises(InvalidParameterError, match="non-empty list"):
        dp.direction_tests(kv, sets)


def test_direction_tests_report_a_test_not_run_and_adjust_the_others():
    from wordbias.stats import multiple

    kv, sets = _toy()
    specs = [dict(sets, id="a"), dict(sets, id="b", T1=sets["A1"], T2=sets["A2"]), dict(sets, id="none", A1=["qq"])]
    a, b, none = dp.direction_tests(kv, specs, resampling=Resampling(n_permutations=300, n_resamples=0),
                                    family="toy")
    assert none.not_run.startswith("not run: DegenerateSetError") and np.isnan(none.p_value)
    assert none.coverage == "T1 4/4; T2 4/4; A1 0/1; A2 6/7" and none.low_coverage and none.dropped == "A1: qq; A2: zz"
    np.testing.assert_array_equal([a.p_holm, b.p_holm], multiple.holm(np.array([a.p_value, b.p_value])))
    assert a.p_family == b.p_family == "toy" and np.isnan(none.p_holm)
    # each test as direction_test measures it alone
    alone = dp.direction_test(kv, **sets, test="a", resampling=Resampling(n_permutations=300, n_resamples=0),
                              warn=False)
    assert (alone.effect_size, alone.p_value, alone.p_two_sided) == (a.effect_size, a.p_value, a.p_two_sided)
    # too few permutations is a bad option, refused before any test runs (not every test "not run")
    with pytest.raises(InvalidParameterError, match="n_permutations"):
        dp.direction_tests(kv, specs[:1], resampling=Resampling(n_permutations=1, n_resamples=0))
    assert a.to_dict()["coverage"] == a.coverage and none.to_dict()["note"].startswith(none.not_run)
