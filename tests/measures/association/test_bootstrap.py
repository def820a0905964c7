"""The bootstraps (wordbias.measures.association.bootstrap, bootstrap_wefat, bootstrap_direction, resampling): the vectorised
statistics against brute force, the intervals against scipy.stats.bootstrap run on a brute-force (non-vectorised)
statistic, seeds, checks."""

import warnings

import numpy as np
import pytest
from scipy import stats as sps

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.vectors import cosine_matrix
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import bootstrap as bs
from wordbias.measures.association import bootstrap_wefat as bw
from wordbias.measures.association import weat
from wordbias.measures.directions import bootstrap_direction as bd
from wordbias.options import Resampling
from wordbias.stats import resampling


def problem(n_x=6, n_y=5, n_a=4, n_b=7, dim=6, seed=0):
    rng = np.random.default_rng(seed)
    u = np.eye(dim)[0]
    return (rng.normal(size=(n_x, dim)) + u, rng.normal(size=(n_y, dim)) - u,
            rng.normal(size=(n_a, dim)) + u, rng.normal(size=(n_b, dim)) - u)


def brute_weat(X, Y, A, B, ddof=1):
    """s(X, Y, A, B) and d from the vectors by the public functions of weat.py (no cosine matrix)."""
    s_x, s_y = weat.association(X, A, B), weat.association(Y, A, B)
    return weat.test_statistic(s_x, s_y), weat.effect_size(s_x, s_y, ddof=ddof)


def test_index_counts_by_hand():
    idx = np.array([[[0, 0, 1]], [[2, 2, 2]]])
    assert resampling.index_counts(idx, 4).tolist() == [[[2, 1, 0, 0]], [[0, 0, 3, 0]]]


def test_cosines_layout():
    X, Y, A, B = problem()
    C = bs.target_attribute_cosines(X, Y, A, B)
    np.testing.assert_allclose(C, cosine_matrix(np.vstack([X, Y]), np.vstack([A, B])))


@pytest.mark.parametrize("ddof", [0, 1])
def test_resampled_weat_equals_brute_force(ddof):
    X, Y, A, B = problem()
    C = bs.target_attribute_cosines(X, Y, A, B)
    rng = np.random.default_rng(1)
    idx = [rng.integers(0, len(m), (50, len(m))) for m in (X, Y, A, B)]
    stat, d = bs.resampled_weat(C, len(X), len(A), *idx, ddof=ddof)
    assert stat.shape == d.shape == (50,)
    for r in range(50):
        ref = brute_weat(*(m[i[r]] for m, i in zip((X, Y, A, B), idx)), ddof=ddof)
        assert stat[r] == pytest.approx(ref[0], abs=1e-12)
        assert d[r] == pytest.approx(ref[1], abs=1e-12)


def test_resampled_weat_broadcasts_like_scipy_jackknife():
    # SciPy's BCa passes leave-one-out samples of shape (n, n-1) with the other samples as (1, n_k)
    X, Y, A, B = problem()
    C = bs.target_attribute_cosines(X, Y, A, B)
    jack = np.array([np.delete(np.arange(len(A)), i) for i in range(len(A))])
    stat, d = bs.resampled_weat(C, len(X), len(A), np.arange(len(X))[None], np.arange(len(Y))[None], jack,
                                np.arange(len(B))[None])
    assert d.shape == (len(A),)
    for i in range(len(A)):
        assert d[i] == pytest.approx(brute_weat(X, Y, np.delete(A, i, 0), B)[1], abs=1e-12)


def test_undefined_d_is_nan():
    C = np.array([[0.5, 0.1], [0.5, 0.1], [0.5, 0.1], [0.5, 0.1]])
    stat, d = bs.resampled_weat(C, 2, 1, np.arange(2), np.arange(2), np.arange(1), np.arange(1))
    assert stat == 0 and np.isnan(d)


@pytest.mark.parametrize("method", ["percentile", "BCa", "basic"])
@pytest.mark.parametrize("resample", ["XYAB", "XY"])
def test_interval_equals_scipy_with_brute_force_statistic(method, resample):
    X, Y, A, B = problem()
    sets = dict(zip("XYAB", (X, Y, A, B)))
    got = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=300, method=method, resample=resample, seed=7)

    # reference: SciPy on the vectors themselves, a loop over resamples (vectorized=False), no cosine matrix
    def d_of(*samples):
        m = dict(sets)
        m.update(zip(resample, samples))
        return np.array(brute_weat(m["X"], m["Y"], m["A"], m["B"]))

    data = tuple(np.arange(len(sets[k])) for k in resample)

    def stat(*idx):
        return d_of(*(sets[k][np.asarray(i, int)] for k, i in zip(resample, idx)))

    ref = sps.bootstrap(data, stat, n_resamples=300, vectorized=False, method=method,
                        rng=np.random.default_rng(7))
    assert got.effect_size.low == pytest.approx(ref.confidence_interval.low[1], rel=1e-10)
    assert got.effect_size.high == pytest.approx(ref.confidence_interval.high[1], rel=1e-10)
    assert got.statistic.low == pytest.approx(ref.confidence_interval.low[0], rel=1e-10)
    assert got.statistic.high == pytest.approx(ref.confidence_interval.high[0], rel=1e-10)
    assert got.effect_size.standard_error == pytest.approx(ref.standard_error[1], rel=1e-10)
    assert got.effect_size.estimate == pytest.approx(brute_weat(X, Y, A, B)[1])
    assert got.effect_size.resampled == tuple(resample)


def test_percentile_interval_by_hand():
    # the percentile interval is the 2.5% and 97.5% quantiles of d over resamples drawn as SciPy draws them
    X, Y, A, B = problem()
    got = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=400, method="percentile", seed=3)
    rng = np.random.default_rng(3)
    idx = [rng.integers(0, len(m), size=(400, len(m))) for m in (X, Y, A, B)]
    d = np.array([brute_weat(*(m[i[r]] for m, i in zip((X, Y, A, B), idx)))[1] for r in range(400)])
    assert got.effect_size.low == pytest.approx(np.percentile(d, 2.5), rel=1e-10)
    assert got.effect_size.high == pytest.approx(np.percentile(d, 97.5), rel=1e-10)


def test_seeded_and_deterministic():
    X, Y, A, B = problem()
    a = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=500, seed=11)
    b = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=500, seed=11)
    c = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=500, seed=12)
    g = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=500, seed=np.random.default_rng(11))
    assert a == b == g
    assert a.effect_size.low != c.effect_size.low
    assert a.effect_size.confidence_level == 0.95 and a.effect_size.method == "BCa"
    assert a.effect_size.n_resamples == 500 and a.sizes == (6, 5, 4, 7)
    frame = a.to_frame()
    assert frame["statistic"].tolist() == ["effect_size", "statistic"]
    assert frame.loc[0, "resampled"] == "XYAB"


def test_wider_at_higher_level_and_more_words_narrower():
    X, Y, A, B = problem(20, 20, 20, 20)
    r90 = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=2000, confidence_level=0.9, seed=0)
    r99 = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=2000, confidence_level=0.99, seed=0)
    assert r99.effect_size.low < r90.effect_size.low < r90.effect_size.high < r99.effect_size.high
    # resampling only the targets ignores the attribute words' variability: a narrower interval here
    rt = bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=2000, resample="XY", seed=0)
    assert rt.effect_size.standard_error < r90.effect_size.standard_error


def test_pool_effect_size():
    X, Y, A, B = problem(5, 5, 3, 3)
    s = weat.association(np.vstack([X, Y]), A, B)
    assert bs.pool_effect_size(X, Y, A, B) == pytest.approx(weat.effect_size(s[:5], s[5:], ddof=0))
    assert bs.pool_effect_size(X, Y, A, B, ddof=1) == pytest.approx(weat.effect_size(s[:5], s[5:], ddof=1))
    # unequal pools: equal weight for the two target pools, not for their words
    X2 = np.vstack([X, X])                      # the same population, each word twice
    assert bs.pool_effect_size(X2, Y, A, B) == pytest.approx(bs.pool_effect_size(X, Y, A, B))


def test_from_weat_result_equals_from_lists():
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(14)]
    kv = to_keyed_vectors(words, rng.normal(size=(14, 5)).astype(np.float32))
    X, Y, A, B = words[:4], words[4:8], words[8:11], words[11:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = weat.weat(kv, X + ["nope"], Y, A, B)
    a = bs.weat_bootstrap(kv, res, resampling=Resampling(n_resamples=300, seed=1))
    b = bs.weat_bootstrap(kv, X, Y, A, B, resampling=Resampling(n_resamples=300, seed=1))
    assert a == b
    assert a.effect_size.estimate == pytest.approx(res.effect_size)
    assert a.statistic.estimate == pytest.approx(res.statistic)


def test_bad_input():
    X, Y, A, B = problem()
    with pytest.raises(InvalidParameterError, match="n_resamples"):
        bs.weat_bootstrap_from_vectors(X, Y, A, B, n_resamples=10.5)
    with pytest.raises(InvalidParameterError, match="confidence_level"):
        bs.weat_bootstrap_from_vectors(X, Y, A, B, confidence_level=95)
    with pytest.raises(InvalidParameterError, match="method"):
        bs.weat_bootstrap_from_vectors(X, Y, A, B, method="bca")
    with pytest.raises(InvalidParameterError, match="resample"):
        bs.weat_bootstrap_from_vectors(X, Y, A, B, resample="XZ")
    with pytest.raises(InvalidParameterError, match="resample"):
        bs.weat_bootstrap_from_vectors(X, Y, A, B, resample="")
    with pytest.raises(InvalidParameterError, match="seed"):
        bs.weat_bootstrap_from_vectors(X, Y, A, B, seed=-1)
    with pytest.raises(DegenerateSetError, match="set X"):
        bs.weat_bootstrap_from_vectors(X[:1], Y, A, B)
    with pytest.raises(DegenerateSetError, match="same association"):
        bs.weat_bootstrap_from_vectors(np.ones((2, 3)), np.ones((2, 3)), A[:, :3], B[:, :3])
    kv = to_keyed_vectors(["a", "b", "c", "d", "e", "f"], np.eye(6, dtype=np.float32))
    with pytest.raises(KeyError, match="nope"):
        bs.weat_bootstrap(kv, ["a", "nope"], ["b", "c"], ["d"], ["e"])
    with pytest.raises(InvalidParameterError, match="four word lists"):
        bs.weat_bootstrap(kv, ["a", "b"], ["c", "d"])
    with pytest.raises(InvalidParameterError):
        bs.weat_bootstrap(kv, "ab", ["c", "d"], ["e"], ["f"])


# --------------------------------------------------------------------------------------------------
# WEFAT
# --------------------------------------------------------------------------------------------------

def wefat_problem(n_w=12, seed=0):
    rng = np.random.default_rng(seed)
    A, B = rng.normal(0.5, 1, (5, 4)), rng.normal(-0.5, 1, (6, 4))
    t = rng.uniform(-1, 1, n_w)
    W = np.outer(t, np.ones(4)) + rng.normal(size=(n_w, 4))
    return W, A, B, 50 + 40 * t + rng.normal(0, 10, n_w)


@pytest.mark.parametrize("ddof", [0, 1])
def test_resampled_normalized_association_equals_wefat(ddof):
    from wordbias.measures.association import wefat
    W, A, B, _ = wefat_problem()
    C_a, C_b = cosine_matrix(W, A), cosine_matrix(W, B)
    rng = np.random.default_rng(2)
    ia, ib = rng.integers(0, 5, (20, 5)), rng.integers(0, 6, (20, 6))
    s = bw.resampled_normalized_association(C_a, C_b, ia, ib, ddof=ddof)
    for r in range(20):
        np.testing.assert_allclose(s[r], wefat.normalized_association(W, A[ia[r]], B[ib[r]], ddof=ddof), atol=1e-12)


@pytest.mark.parametrize("resample", ["WAB", "W"])
def test_wefat_interval_equals_scipy_with_brute_force_statistic(resample):
    from wordbias.measures.association import wefat
    W, A, B, prop = wefat_problem()
    sets = {"W": W, "A": A, "B": B}
    got = bw.wefat_bootstrap_from_vectors(W, A, B, prop, n_resamples=300, method="BCa", resample=resample, seed=5)

    def r_of(*idx):
        m = dict(sets)
        iw = np.arange(len(W))
        for k, i in zip(resample, idx):
            i = np.asarray(i, int)
            if k == "W":
                iw = i
            m[k] = sets[k][i]
        s = wefat.normalized_association(W[iw], m["A"], m["B"])
        return sps.pearsonr(s, prop[iw]).statistic

    ref = sps.bootstrap(tuple(np.arange(len(sets[k])) for k in resample), r_of, n_resamples=300,
                        vectorized=False, method="BCa", rng=np.random.default_rng(5))
    assert got.low == pytest.approx(ref.confidence_interval.low, rel=1e-9)
    assert got.high == pytest.approx(ref.confidence_interval.high, rel=1e-9)
    s0 = wefat.normalized_association(W, A, B)
    assert got.estimate == pytest.approx(sps.pearsonr(s0, prop).statistic)
    assert got.resampled == tuple(resample)


def test_wefat_bootstrap_from_result_and_bad_input():
    from wordbias.measures.association import wefat
    W, A, B, prop = wefat_problem()
    words = [f"w{i}" for i in range(len(W))] + ["a0", "a1", "a2", "a3", "a4"] + [f"b{i}" for i in range(6)]
    kv = to_keyed_vectors(words, np.vstack([W, A, B]).astype(np.float32))
    res = wefat.wefat(kv, words[:12], words[12:17], words[17:], dict(zip(words[:12], prop)))
    r = bw.wefat_bootstrap(kv, res, n_resamples=200, seed=1)
    W32, A32, B32 = (m.astype(np.float32) for m in (W, A, B))     # the vectors as the embedding holds them
    assert r == bw.wefat_bootstrap_from_vectors(W32, A32, B32, prop, n_resamples=200, seed=1)
    assert r.estimate == pytest.approx(res.pearson_r)
    with pytest.raises(InvalidParameterError, match="WefatResult"):
        bw.wefat_bootstrap(kv, "nope")
    with pytest.raises(InvalidParameterError, match="prop"):
        bw.wefat_bootstrap_from_vectors(W, A, B, prop[:-1])
    with pytest.raises(InvalidParameterError, match="resample"):
        bw.wefat_bootstrap_from_vectors(W, A, B, prop, resample="X")


# --------------------------------------------------------------------------------------------------
# two samples of scores (Kurita's attribute test)
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["percentile", "BCa", "basic"])
def test_effect_size_bootstrap_equals_scipy_with_brute_force_statistic(method):
    rng = np.random.default_rng(4)
    a, b = rng.normal(0.5, 1, 7), rng.normal(0, 1, 9)
    got = bs.effect_size_bootstrap(a, b, n_resamples=300, method=method, seed=5)

    def stat(x, y):                          # one resample at a time, the public weat.effect_size
        return np.array([weat.effect_size(x, y), np.mean(x) - np.mean(y)])

    ref = sps.bootstrap((a, b), stat, n_resamples=300, vectorized=False, method=method, rng=np.random.default_rng(5))
    for i, r in enumerate((got.effect_size, got.statistic)):
        assert r.low == pytest.approx(ref.confidence_interval.low[i], rel=1e-10)
        assert r.high == pytest.approx(ref.confidence_interval.high[i], rel=1e-10)
        assert r.standard_error == pytest.approx(ref.standard_error[i], rel=1e-10)
    assert got.effect_size.estimate == pytest.approx(weat.effect_size(a, b))
    assert got.statistic.estimate == pytest.approx(a.mean() - b.mean())
    assert got.sizes == (7, 9) and got.statistic.statistic == "mean_difference"
    assert got.effect_size.resampled == ("a", "b")


def test_effect_size_bootstrap_percentile_by_hand_and_as_a_weat():
    a, b = np.array([0.5, 0.9, 0.7, 0.4]), np.array([0.1, -0.2, 0.3, 0.0])
    got = bs.effect_size_bootstrap(a, b, n_resamples=400, method="percentile", seed=2)
    # sum of squared deviations from 0.3375 is 0.93875: d = 0.575 / sqrt(0.93875 / 7)
    assert got.effect_size.estimate == pytest.approx(0.575 / np.sqrt(0.93875 / 7), rel=1e-12)
    rng = np.random.default_rng(2)                                         # SciPy's draws: a, then b
    ia, ib = rng.integers(0, 4, (400, 4)), rng.integers(0, 4, (400, 4))
    d = [weat.effect_size(a[i], b[j]) for i, j in zip(ia, ib)]
    assert got.effect_size.low == pytest.approx(np.percentile(d, 2.5), rel=1e-12)
    assert got.effect_size.high == pytest.approx(np.percentile(d, 97.5), rel=1e-12)
    # the same resamples as WEAT's bootstrap with the scores as the associations s(w, A, B) (one column
    # A holding the scores, B zero) and only the targets resampled: the same d; s(X, Y, A, B) = 4 x mean difference
    C = np.column_stack([np.concatenate([a, b]), np.zeros(8)])
    w = bs.weat_bootstrap_from_cosines(C, 4, 1, n_resamples=400, method="percentile", resample="XY", seed=2)
    assert (w.effect_size.low, w.effect_size.high) == pytest.approx((got.effect_size.low, got.effect_size.high))
    assert (w.statistic.low / 4, w.statistic.high / 4) == pytest.approx((got.statistic.low, got.statistic.high))


def test_effect_size_bootstrap_seeded_and_bad_input():
    a, b = [0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0]
    assert bs.effect_size_bootstrap(a, b, n_resamples=200, seed=1) == bs.effect_size_bootstrap(a, b, n_resamples=200,
                                                                                                seed=1)
    assert bs.effect_size_bootstrap(a, b, n_resamples=200, seed=1) != bs.effect_size_bootstrap(a, b, n_resamples=200,
                                                                                                seed=2)
    with pytest.raises(DegenerateSetError, match="s_a has 1 score"):
        bs.effect_size_bootstrap([1.0], b)
    with pytest.raises(DegenerateSetError, match="every score of s_a and s_b is 1.0"):
        bs.effect_size_bootstrap([1.0, 1.0], [1.0, 1.0])
    with pytest.raises(InvalidParameterError, match="non-finite"):
        bs.effect_size_bootstrap(a, [0.1, np.nan])
    with pytest.raises(InvalidParameterError, match="1-D"):
        bs.effect_size_bootstrap(np.ones((2, 2)), b)
    with pytest.raises(InvalidParameterError, match="n_resamples"):
        bs.effect_size_bootstrap(a, b, n_resamples=1)
    with pytest.raises(InvalidParameterError, match="method"):
        bs.effect_size_bootstrap(a, b, method="BCA")
    with pytest.raises(InvalidParameterError, match="ddof"):
        bs.effect_size_bootstrap(a, b, ddof=2)


# --------------------------------------------------------------------------------------------------
# the cosine of two mean-difference directions (the racial bias report)
# --------------------------------------------------------------------------------------------------

def direction_problem(n=(5, 6, 7, 8), dim=30, seed=0):
    rng = np.random.default_rng(seed)
    u = np.eye(dim)[0] * 1.5
    return tuple(rng.normal(size=(k, dim)) + sign * u for k, sign in zip(n, (1, -1, 1, -1)))


def brute_cosine(T1, T2, A1, A2):
    r, s = A1.mean(0) - A2.mean(0), T1.mean(0) - T2.mean(0)
    return r @ s / np.linalg.norm(r) / np.linalg.norm(s)


def test_span_coordinates_keep_inner_products():
    mats = direction_problem()
    Z = bd._span_coordinates(mats)
    assert [z.shape for z in Z] == [(5, 26), (6, 26), (7, 26), (8, 26)]     # 26 words < 30 dimensions
    X, ZZ = np.vstack(mats), np.vstack(Z)
    np.testing.assert_allclose(ZZ @ ZZ.T, X @ X.T, atol=1e-10)
    low = direction_problem(dim=3)
    assert all(z is m for z, m in zip(bd._span_coordinates(low), low))      # already fewer dimensions than words


def test_resampled_mean_difference_cosine_equals_brute_force():
    mats = direction_problem()
    rng = np.random.default_rng(1)
    idx = [rng.integers(0, len(m), (40, len(m))) for m in mats]
    got = bd.resampled_mean_difference_cosine(*mats, *idx)
    got_span = bd.resampled_mean_difference_cosine(*bd._span_coordinates(mats), *idx)
    ref = [brute_cosine(*(m[i[r]] for m, i in zip(mats, idx))) for r in range(40)]
    np.testing.assert_allclose(got, ref, atol=1e-12)
    np.testing.assert_allclose(got_span, ref, atol=1e-12)
    # a resample with mean(A1*) = mean(A2*) has no direction: NaN
    same = np.ones((2, 3))
    assert np.isnan(bd.resampled_mean_difference_cosine(np.eye(3)[:1], np.eye(3)[1:2], same, same, [0], [0], [0], [0]))


@pytest.mark.parametrize("method", ["percentile", "BCa", "basic"])
@pytest.mark.parametrize("resample", [("T1", "T2", "A1", "A2"), ("A1", "A2")])
def test_direction_interval_equals_scipy_with_brute_force_statistic(method, resample):
    mats = direction_problem()
    sets = dict(zip(bd.DIRECTION_SETS, mats))
    got = bd.direction_bootstrap_from_vectors(*mats, n_resamples=300, method=method, resample=resample, seed=7)

    def stat(*idx):                          # on the vectors themselves, one resample at a time
        m = dict(sets)
        m.update({k: sets[k][np.asarray(i, int)] for k, i in zip(resample, idx)})
        return brute_cosine(m["T1"], m["T2"], m["A1"], m["A2"])

    ref = sps.bootstrap(tuple(np.arange(len(sets[k])) for k in resample), stat, n_resamples=300, vectorized=False,
                        method=method, rng=np.random.default_rng(7))
    assert got.low == pytest.approx(ref.confidence_interval.low, rel=1e-10)
    assert got.high == pytest.approx(ref.confidence_interval.high, rel=1e-10)
    assert got.standard_error == pytest.approx(ref.standard_error, rel=1e-10)
    assert got.estimate == pytest.approx(brute_cosine(*mats))
    assert got.statistic == "cosine_bias" and got.resampled == resample and got.n_undefined == 0


def test_direction_percentile_by_hand_and_the_report():
    from wordbias.measures.directions.direction_permutation import direction_permutation_test

    mats = direction_problem()
    got = bd.direction_bootstrap_from_vectors(*mats, n_resamples=500, method="percentile", seed=3)
    rng = np.random.default_rng(3)
    idx = [rng.integers(0, len(m), size=(500, len(m))) for m in mats]
    c = [brute_cosine(*(m[i[r]] for m, i in zip(mats, idx))) for r in range(500)]
    assert got.low == pytest.approx(np.percentile(c, 2.5), rel=1e-10)
    assert got.high == pytest.approx(np.percentile(c, 97.5), rel=1e-10)
    assert got.estimate == pytest.approx(direction_permutation_test(*mats, n_permutations=10).cosine)
    # normalize=True is the bootstrap of the unit vectors
    unit = [m / np.linalg.norm(m, axis=1, keepdims=True) for m in mats]
    a = bd.direction_bootstrap_from_vectors(*mats, n_resamples=300, normalize=True, seed=1)
    b = bd.direction_bootstrap_from_vectors(*unit, n_resamples=300, seed=1)
    assert (a.estimate, a.low, a.high) == pytest.approx((b.estimate, b.low, b.high), rel=1e-10)
    # batch= (SciPy's) draws the resamples batch by batch: other draws, the same distribution
    big = bd.direction_bootstrap_from_vectors(*mats, n_resamples=4000, seed=1)
    batched = bd.direction_bootstrap_from_vectors(*mats, n_resamples=4000, seed=1, batch=500)
    assert batched.estimate == big.estimate and batched.low != big.low
    assert batched.standard_error == pytest.approx(big.standard_error, rel=0.1)


def test_direction_bootstrap_seeded_and_deterministic():
    mats = direction_problem()
    a = bd.direction_bootstrap_from_vectors(*mats, n_resamples=400, seed=11)
    assert a == bd.direction_bootstrap_from_vectors(*mats, n_resamples=400, seed=11)
    assert a == bd.direction_bootstrap_from_vectors(*mats, n_resamples=400, seed=np.random.default_rng(11))
    assert a.low != bd.direction_bootstrap_from_vectors(*mats, n_resamples=400, seed=12).low
    assert a.method == "BCa" and a.confidence_level == 0.95 and a.low < a.estimate < a.high


def test_direction_bootstrap_bad_input():
    T1, T2, A1, A2 = direction_problem(dim=4)
    f = bd.direction_bootstrap_from_vectors
    with pytest.raises(DegenerateSetError, match="set A1 is empty"):
        f(T1, T2, np.empty((0, 4)), A2)
    with pytest.raises(DegenerateSetError, match=r"set T2: zero vector\(s\) at row\(s\) \[1\]"):
        f(T1, np.vstack([T2[:1], np.zeros(4)]), A1, A2)
    with pytest.raises(DegenerateSetError, match="set T2: zero"):
        f(T1, np.vstack([T2[:1], np.zeros(4)]), A1, A2, normalize=True)
    with pytest.raises(InvalidParameterError, match="different dimensions"):
        f(T1, T2, A1[:, :3], A2)
    with pytest.raises(InvalidParameterError, match="2-D"):
        f(T1, T2, A1[0], A2)
    with pytest.raises(InvalidParameterError, match="non-finite"):
        f(T1, T2, A1, np.full((2, 4), np.inf))
    with pytest.raises(InvalidParameterError, match="n_resamples"):
        f(T1, T2, A1, A2, n_resamples=0)
    with pytest.raises(InvalidParameterError, match="method must be one of 'BCa'"):
        f(T1, T2, A1, A2, method="bca")
    with pytest.raises(InvalidParameterError, match="resample"):
        f(T1, T2, A1, A2, resample=("A1", "A3"))
    with pytest.raises(InvalidParameterError, match="normalize"):
        f(T1, T2, A1, A2, normalize="yes")
    with pytest.raises(InvalidParameterError, match="batch"):
        f(T1, T2, A1, A2, batch=0)
    with pytest.raises(DegenerateSetError, match="set A1 has 1 word"):
        f(T1, T2, A1[:1], A2)
    assert f(T1, T2, A1[:1], A2, resample=("T1", "T2", "A2"), n_resamples=100).resampled == ("T1", "T2", "A2")
    with pytest.raises(DegenerateSetError, match="zero direction"):
        f(T1, T2, A1, A1 + 0.0)
