"""Directions (Bolukbasi et al. 2016): PCA of centred pairs, projection/rejection, direct bias, by hand."""

import math

import numpy as np
import pytest

from wordbias.measures import direction as R
from wordbias.measures.direction import DegenerateSetError

# --------------------------------------------------------------------------------------------------
# unit vectors, projection, rejection, cosines
# --------------------------------------------------------------------------------------------------


def test_unit_vector():
    np.testing.assert_allclose(R.unit_vector([3.0, 4.0]), [0.6, 0.8])
    with pytest.raises(DegenerateSetError, match="zero"):
        R.unit_vector([0.0, 0.0])
    with pytest.raises(ValueError, match="1-D"):
        R.unit_vector([[1.0, 0.0]])


def test_project_reject_by_hand():
    g = np.array([1.0, 0.0])
    X = np.array([[3.0, 4.0], [-2.0, 1.0]])
    np.testing.assert_allclose(R.scalar_projection(X, g), [3.0, -2.0])
    np.testing.assert_allclose(R.project(X, g), [[3.0, 0.0], [-2.0, 0.0]])
    np.testing.assert_allclose(R.reject(X, g), [[0.0, 4.0], [0.0, 1.0]])
    # one vector, a diagonal direction: (2, 0) on (1, 1)/√2 is (1, 1), leaving (1, -1)
    d = np.array([1.0, 1.0]) / math.sqrt(2)
    np.testing.assert_allclose(R.project([2.0, 0.0], d), [1.0, 1.0])
    np.testing.assert_allclose(R.reject([2.0, 0.0], d), [1.0, -1.0])
    assert R.scalar_projection([2.0, 0.0], d) == pytest.approx(math.sqrt(2))


def test_project_reject_algebra():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 7))
    g = R.unit_vector(rng.normal(size=7))
    P, Q = R.project(X, g), R.reject(X, g)
    np.testing.assert_allclose(P + Q, X, atol=1e-12)
    np.testing.assert_allclose(Q @ g, 0.0, atol=1e-12)  # the rejection is orthogonal to g
    np.testing.assert_allclose(np.cross(P[:, :3], g[:3]), 0.0, atol=1e-12)  # the projection is along g
    np.testing.assert_allclose(R.project(P, g), P, atol=1e-12)  # idempotent
    np.testing.assert_allclose(R.reject(Q, g), Q, atol=1e-12)
    np.testing.assert_allclose((P * Q).sum(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(P, axis=1) ** 2 + np.linalg.norm(Q, axis=1) ** 2,
                               np.linalg.norm(X, axis=1) ** 2)


def test_project_reject_subspace():
    B = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_allclose(R.scalar_projection(X, B), [[1.0, 2.0], [4.0, 5.0]])
    np.testing.assert_allclose(R.project(X, B), [[1.0, 2.0, 0.0], [4.0, 5.0, 0.0]])
    np.testing.assert_allclose(R.reject(X, B), [[0.0, 0.0, 3.0], [0.0, 0.0, 6.0]])
    with pytest.raises(ValueError, match="orthonormal"):
        R.project(X, np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0]]))


def test_project_rejects_non_unit_or_mismatched_direction():
    with pytest.raises(ValueError, match="unit length"):
        R.project([[1.0, 2.0]], [2.0, 0.0])
    with pytest.raises(ValueError, match="unit length"):
        R.reject([[1.0, 2.0]], [0.0, 0.0])
    with pytest.raises(ValueError, match="dimension"):
        R.project([[1.0, 2.0, 3.0]], [1.0, 0.0])


def test_cosines():
    np.testing.assert_allclose(R.cosines([[1.0, 1.0], [0.0, 2.0], [-3.0, 0.0]], [2.0, 0.0]),
                               [1 / math.sqrt(2), 0.0, -1.0])
    with pytest.raises(DegenerateSetError, match=r"rows \[1\]"):
        R.cosines([[1.0, 1.0], [0.0, 0.0]], [1.0, 0.0])


# --------------------------------------------------------------------------------------------------
# the PCA direction
# --------------------------------------------------------------------------------------------------


def test_pair_centred_by_hand():
    A = np.array([[1.0, 0.0], [0.0, 3.0]])
    B = np.array([[0.0, 1.0], [0.0, -3.0]])
    C = R.pair_centred(A, B)  # normalised: (1,0)/(0,1) and (0,1)/(0,-1)
    np.testing.assert_allclose(C, [[0.5, -0.5], [-0.5, 0.5], [0.0, 1.0], [0.0, -1.0]])
    np.testing.assert_allclose(R.pair_centred(A, B, normalize=False)[2:], [[0.0, 3.0], [0.0, -3.0]])


def test_pca_direction_2d_by_hand():
    # centred rows ±(1, 0) and ±(0, 0.8): CᵀC = diag(2, 1.28), so g = (1, 0) and the ratios are 2/3.28, 1.28/3.28
    A = np.array([[1.0, 0.0], [0.6, 0.8]])
    B = np.array([[-1.0, 0.0], [0.6, -0.8]])
    g, ratio = R.pca_direction(A, B)
    np.testing.assert_allclose(g, [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(ratio, [2 / 3.28, 1.28 / 3.28])
    # swapping the words of the pairs flips the sign only (the first word projects positively)
    g2, ratio2 = R.pca_direction(B, A)
    np.testing.assert_allclose(g2, [-1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(ratio2, ratio)


def test_pca_direction_3d_by_hand():
    # u_i = (a_i - b_i)/2: u1 = (0.3, -0.3, 0), u2 = (0.1, 0.1, 0), orthogonal; eigenvalues 2|u1|² = 0.36 and
    # 2|u2|² = 0.04 with eigenvectors along u1 and u2: ratios 0.9, 0.1, 0; g = (1, -1, 0)/√2 (a1 - b1 has
    # positive projection on it, a2 - b2 zero)
    h = math.sqrt(1 - 0.02)
    A = np.array([[0.6, 0.0, 0.8], [0.1, 0.1, h]])
    B = np.array([[0.0, 0.6, 0.8], [-0.1, -0.1, h]])
    result = R.pca_direction(A, B)
    np.testing.assert_allclose(result.direction, np.array([1.0, -1.0, 0.0]) / math.sqrt(2), atol=1e-12)
    np.testing.assert_allclose(result.explained_variance_ratio, [0.9, 0.1, 0.0], atol=1e-12)
    # the same pairs as one (k, 2, d) array, and scaled vectors (normalised first)
    same = R.pca_direction(np.stack([A, B], axis=1))
    np.testing.assert_allclose(same.direction, result.direction)
    scaled = R.pca_direction(A * [[3.0], [0.5]], B * [[7.0], [2.0]])
    np.testing.assert_allclose(scaled.direction, result.direction, atol=1e-12)
    # without normalisation the scaled vectors give another direction
    raw = R.pca_direction(A * [[3.0], [0.5]], B * [[7.0], [2.0]], normalize=False)
    assert abs(raw.direction @ result.direction) < 0.99


def test_pca_direction_one_pair_is_the_difference():
    a, b = np.array([2.0, 0.0, 0.0]), np.array([0.0, 0.0, 5.0])
    g, ratio = R.pca_direction([a], [b])
    np.testing.assert_allclose(g, np.array([1.0, 0.0, -1.0]) / math.sqrt(2), atol=1e-12)
    np.testing.assert_allclose(ratio, [1.0, 0.0], atol=1e-12)


def test_pca_direction_matches_sklearn_pca():
    from sklearn.decomposition import PCA

    rng = np.random.default_rng(3)
    base = rng.normal(size=(10, 25))
    gender = rng.normal(size=25)
    A = base + gender + 0.3 * rng.normal(size=(10, 25))
    B = base - gender + 0.3 * rng.normal(size=(10, 25))
    g, ratio = R.pca_direction(A, B)
    assert np.linalg.norm(g) == pytest.approx(1.0)
    pca = PCA(n_components=10).fit(R.pair_centred(A, B))
    assert abs(pca.components_[0] @ g) == pytest.approx(1.0, abs=1e-10)
    np.testing.assert_allclose(ratio[:10], pca.explained_variance_ratio_, atol=1e-10)
    assert ratio.sum() == pytest.approx(1.0)
    assert np.all(ratio[10:] < 1e-20)  # rank at most k = 10
    assert ratio[0] > 0.5  # the planted direction dominates
    # orientation: the first words lie on the positive side on average
    An, Bn = R.unit_rows(A), R.unit_rows(B)
    assert np.sum((An - Bn) @ g) > 0
    assert abs(g @ R.unit_vector(gender)) > 0.9


def test_pca_direction_errors():
    with pytest.raises(DegenerateSetError, match="no pairs"):
        R.pca_direction(np.zeros((0, 3)), np.zeros((0, 3)))
    with pytest.raises(DegenerateSetError, match="no pairs"):
        R.pca_direction([])
    with pytest.raises(DegenerateSetError, match="identical"):
        R.pca_direction([[1.0, 0.0]], [[2.0, 0.0]])  # the same word up to scale
    with pytest.raises(DegenerateSetError, match=r"rows \[1\]"):
        R.pca_direction([[1.0, 0.0], [0.0, 0.0]], [[0.0, 1.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="same shape"):
        R.pca_direction([[1.0, 0.0]], [[1.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=r"\(k, 2, d\)"):
        R.pca_direction([[1.0, 0.0, 2.0]])


# --------------------------------------------------------------------------------------------------
# mean difference
# --------------------------------------------------------------------------------------------------


def test_mean_difference_direction_by_hand():
    A = [[1.0, 0.0], [3.0, 0.0]]  # normalised: both (1, 0)
    B = [[0.0, 2.0]]  # unequal sizes are allowed
    np.testing.assert_allclose(R.mean_difference_direction(A, B), np.array([1.0, -1.0]) / math.sqrt(2))
    np.testing.assert_allclose(R.mean_difference_direction(A, B, unit=False), [1.0, -1.0])
    np.testing.assert_allclose(R.mean_difference_direction(A, B, normalize=False, unit=False), [2.0, -2.0])
    np.testing.assert_allclose(R.mean_difference_direction(B, A), np.array([-1.0, 1.0]) / math.sqrt(2))


def test_mean_difference_direction_errors():
    with pytest.raises(DegenerateSetError, match="set B is empty"):
        R.mean_difference_direction([[1.0, 0.0]], np.zeros((0, 2)))
    with pytest.raises(DegenerateSetError, match="set A"):
        R.mean_difference_direction([[0.0, 0.0]], [[1.0, 0.0]])
    with pytest.raises(DegenerateSetError, match="no direction"):
        R.mean_difference_direction([[1.0, 0.0]], [[2.0, 0.0]])
    with pytest.raises(ValueError, match="dimensions"):
        R.mean_difference_direction([[1.0, 0.0]], [[1.0, 0.0, 0.0]])


# --------------------------------------------------------------------------------------------------
# direct bias
# --------------------------------------------------------------------------------------------------


def test_direct_bias_by_hand():
    X = [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [-2.0, 0.0]]  # cos with g: 1, 1/√2, 0, -1
    g = [1.0, 0.0]
    assert R.direct_bias(X, g) == pytest.approx((1 + 1 / math.sqrt(2) + 0 + 1) / 4)
    assert R.direct_bias(X, g, c=2) == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    assert R.direct_bias(X, g, c=0) == pytest.approx(3 / 4)  # words with any overlap, not 0**0 = 1
    assert R.direct_bias(X, [5.0, 0.0]) == R.direct_bias(X, g)  # g need not be unit length
    assert R.direct_bias([[0.0, 1.0]], g) == 0.0


def test_direct_bias_atol():
    X = [[1e-9, 1.0], [1.0, 1.0]]
    assert R.direct_bias(X, [1.0, 0.0], c=0) == 1.0
    assert R.direct_bias(X, [1.0, 0.0], c=0, atol=1e-6) == 0.5


def test_direct_bias_errors():
    with pytest.raises(DegenerateSetError, match="empty"):
        R.direct_bias(np.zeros((0, 2)), [1.0, 0.0])
    with pytest.raises(ValueError, match="c must be"):
        R.direct_bias([[1.0, 0.0]], [1.0, 0.0], c=-1)
    with pytest.raises(DegenerateSetError, match="zero"):
        R.direct_bias([[1.0, 0.0]], [0.0, 0.0])


# --------------------------------------------------------------------------------------------------
# words -> vectors
# --------------------------------------------------------------------------------------------------


def test_pair_vectors_reports_missing_words():
    emb = {"she": np.array([1.0, 0.0]), "he": np.array([0.0, 1.0]), "her": np.array([2.0, 0.0])}
    found = R.pair_vectors(emb, [("she", "he"), ("her", "his"), ("gal", "guy")])
    assert found.pairs == (("she", "he"),)
    assert found.missing == ((("her", "his"), ("his",)), (("gal", "guy"), ("gal", "guy")))
    assert found.missing_words == ("his", "gal", "guy")
    np.testing.assert_array_equal(found.A, [[1.0, 0.0]])
    np.testing.assert_array_equal(found.B, [[0.0, 1.0]])
    with pytest.raises(KeyError, match=r"her/his \(missing his\); gal/guy \(missing gal, guy\)"):
        R.pair_vectors(emb, [("she", "he"), ("her", "his"), ("gal", "guy")], on_missing="raise")
    with pytest.raises(DegenerateSetError, match=r"missing: \['his', 'x'\]"):
        R.pair_vectors(emb, [("her", "his"), ("x", "she")])
    with pytest.raises(DegenerateSetError, match="no pairs given"):
        R.pair_vectors(emb, [])
    with pytest.raises(ValueError, match="same word twice"):
        R.pair_vectors(emb, [("she", "she")])
    with pytest.raises(ValueError, match="not a pair"):
        R.pair_vectors(emb, [("she", "he", "her")])


def test_pair_vectors_keyed_vectors():
    from wordbias.embeddings import to_keyed_vectors

    kv = to_keyed_vectors(["a", "b", "c"], np.arange(6, dtype=np.float32).reshape(3, 2))
    found = R.pair_vectors(kv, [("c", "a"), ("b", "z")])
    assert found.A.dtype == np.float64
    np.testing.assert_array_equal(found.A, [[4.0, 5.0]])
    np.testing.assert_array_equal(found.B, [[0.0, 1.0]])
    assert found.missing_words == ("z",)


# ---------------------------------------------------------------------- the racial bias report (Section 3, App. A)

from wordbias.measures import direction as _D  # noqa: E402


def test_cosine_bias_hand_computed():
    c = _D.cosine_bias([1.0, 0.0], [1.0, 1.0])
    assert c.cosine == pytest.approx(1 / np.sqrt(2))
    assert c.angle == pytest.approx(45.0)
    assert _D.cosine_bias([0, 0, 2], [0, 3, 0]).angle == pytest.approx(90.0)
    with pytest.raises(_D.DegenerateSetError):
        _D.cosine_bias([0.0, 0.0], [1.0, 0.0])


def test_permutation_test_directions_unequal_sizes_hand_computed():
    # A1 = {(2,0,0)}, A2 = {(0,1,0), (0,-1,0), (0,0,2)}: r = (2,0,0) - (0,0,2/3); T1 = {(1,1,0)}, T2 = {(1,0,0), (1,0,0)+...}
    A1 = np.array([[2.0, 0, 0]])
    A2 = np.array([[0, 1.0, 0], [0, -1.0, 0], [0, 0, 2.0]])
    T1 = np.array([[1.0, 1, 0], [3.0, 1, 0]])
    T2 = np.array([[0, 0, 1.0]])
    res = _D.direction_permutation_test(T1, T2, A1, A2, n=100, seed=0)
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
    a = _D.direction_permutation_test(T1, T2, A1, A2, n=2000, seed=7)
    b = _D.direction_permutation_test(T1, T2, A1, A2, n=2000, seed=7, chunk=2000)
    assert a.p == b.p and np.array_equal(a.null, b.null)
    assert 0 < a.p <= 1
    assert a.ci[0] <= a.p <= a.ci[1]
    from scipy import stats
    outcomes = (a.null >= a.cosine - 1e-12).astype(float)
    lo, hi = stats.norm.interval(0.95, loc=outcomes.mean(), scale=outcomes.std(ddof=1) / np.sqrt(len(outcomes)))
    assert a.ci == pytest.approx((lo, hi))
    assert _D.p_value_ci(outcomes) == pytest.approx((lo, hi))
    # the report's Table 1 row Google (Implicit): p = 0.0748 over 10,000 -> (0.0696, 0.08)
    assert np.round(_D.p_value_ci(748, 10_000), 4).tolist() == [0.0696, 0.08]


def test_permutation_test_planted_and_null():
    rng = np.random.default_rng(0)
    d = 10
    axis = np.eye(d)[0]
    A1 = rng.normal(size=(15, d)) + 2 * axis
    A2 = rng.normal(size=(15, d)) - 2 * axis
    T1 = rng.normal(size=(8, d)) + 2 * axis
    T2 = rng.normal(size=(8, d)) - 2 * axis
    planted = _D.direction_permutation_test(T1, T2, A1, A2, n=1000, seed=1)
    assert planted.cosine > 0.8 and planted.p < 0.01
    ps = []
    for i in range(40):
        g = np.random.default_rng(100 + i)
        ps.append(_D.direction_permutation_test(g.normal(size=(8, d)), g.normal(size=(8, d)),
                                                g.normal(size=(10, d)), g.normal(size=(12, d)), n=200, seed=i).p)
    ps = np.array(ps)
    assert 0.2 < ps.mean() < 0.8 and np.mean(ps < 0.05) < 0.25


def test_permutation_test_errors():
    x = np.eye(3)
    with pytest.raises(_D.DegenerateSetError, match="A1"):
        _D.direction_permutation_test(x[:1], x[1:2], np.empty((0, 3)), x)
    with pytest.raises(ValueError, match="share"):
        _D.direction_permutation_test(x[:1], x[1:2], x[:2], x[1:])
    with pytest.raises(_D.DegenerateSetError, match="zero"):
        _D.direction_permutation_test(x[:1], x[1:2], np.zeros((1, 3)), x)
    with pytest.raises(ValueError, match=r"\['b'\]"):
        _D.set_vectors({"a": x[0], "b": x[1]}, ["a", "b"], ["b"])
    sv = _D.set_vectors({"a": x[0], "b": x[1]}, ["a", "zz"], ["b"])
    assert sv.words == (("a",), ("b",)) and sv.missing == (("zz",), ())


def test_projections():
    X = np.array([[1.0, 2.0], [-3.0, 0.0]])
    assert _D.projections(X, [2.0, 0.0]).tolist() == [1.0, -3.0]
    assert _D.projections(X, [0.0, 1.0], normalize=True) == pytest.approx([2 / np.sqrt(5), 0.0])
