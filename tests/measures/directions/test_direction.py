"""Directions (Bolukbasi et al. 2016): PCA of centred pairs, projection/rejection, direct bias, by hand."""

import math

import numpy as np
import pytest

from wordbias.core.errors import DegenerateSetError
from wordbias.core.vectors import unit_rows
from wordbias.measures.directions import direction as R

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


def test_projections():
    X = np.array([[1.0, 2.0], [-3.0, 0.0]])
    assert R.projections(X, [2.0, 0.0]).tolist() == [1.0, -3.0]
    assert R.projections(X, [0.0, 1.0], normalize=True) == pytest.approx([2 / np.sqrt(5), 0.0])


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
    An, Bn = unit_rows(A), unit_rows(B)
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


def test_direct_bias_boundary_errors_are_wordbias_errors():
    """Found by the fuzzing pass: plain ValueError / TypeError from direct_bias and the directions."""
    from wordbias.core.errors import InvalidParameterError

    for kwargs, match in (({"c": "1"}, r"c must be a number"), ({"c": float("inf")}, r"c must be finite"),
                          ({"c": True}, r"c must be a number"), ({"atol": -1.0}, r"atol must be >= 0"),
                          ({"atol": "0"}, r"atol must be a number")):
        with pytest.raises(InvalidParameterError, match=match):
            R.direct_bias([[1.0, 0.0]], [1.0, 0.0], **kwargs)
    with pytest.raises(InvalidParameterError, match=r"X: expected a 2-D array"):
        R.direct_bias([1.0, 0.0], [1.0, 0.0])
    with pytest.raises(InvalidParameterError, match=r"direction: expected a 1-D vector"):
        R.direct_bias([[1.0, 0.0]], [[1.0, 0.0]])
    with pytest.raises(InvalidParameterError, match=r"do not match a direction of dimension 1"):
        R.direct_bias([[1.0, 0.0]], [1.0])
    with pytest.raises(InvalidParameterError, match=r"X must be a set of word vectors"):
        R.direct_bias("ab", [1.0])
    with pytest.raises(InvalidParameterError, match=r"do not match a direction of dimension 2"):
        R.cosines([1.0, 0.0, 0.0], [1.0, 0.0])
    with pytest.raises(InvalidParameterError, match=r"different dimensions: \{'A': 2, 'B': 1\}"):
        R.mean_difference_direction([[1.0, 0.0]], [[1.0]])
    # valid inputs: the same numbers as before (c converted to float, an int c included)
    X = [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [-2.0, 0.0]]
    assert R.direct_bias(X, [1.0, 0.0], c=np.int64(2)) == R.direct_bias(X, [1.0, 0.0], c=2.0)


def test_direct_bias_test_is_direct_bias_of_the_words_on_the_pairs_direction():
    from wordbias.core.errors import InvalidParameterError
    from wordbias.embeddings import to_keyed_vectors
    from wordbias.options import Resampling, Words

    words = ["she", "he", "woman", "man", "nurse", "pilot", "tree", "doctor"]
    V = np.array([[1, .2], [-1, .2], [.9, .1], [-.9, .1], [1, 1], [-1, 1], [0, 1], [.3, 1]], dtype=np.float32)
    kv = to_keyed_vectors(words, V)
    pairs = [("she", "he"), ("woman", "man"), ("girl", "boy")]
    m = R.direct_bias_test(kv, ["nurse", "pilot", "tree", "doctor", "zebra"], pairs, warn=False,
                           resampling=Resampling(n_resamples=300, seed=1))
    g = R.pca_direction(V[[0, 2]], V[[1, 3]]).direction              # the two pairs found
    cos = np.abs(V[[4, 5, 6, 7]] @ g / np.linalg.norm(V[[4, 5, 6, 7]], axis=1))
    assert m.effect_size == pytest.approx(cos.mean()) and m.measure == "direct_bias"
    assert m.ci_low <= m.effect_size <= m.ci_high and m.ci_method.startswith("BCa 95%, 300 resamples of the prof")
    assert math.isnan(m.p_value) and "no test (a descriptive measure)" in m.notes
    assert m.coverage == "N 4/5; pairs 2/3" and m.dropped == "N: zebra; pairs: girl/boy"
    row = m.to_row({"embedding": "toy"})
    assert (row["n_x"], row["n_a"], row["n_b"], row["alternative"], row["p_value"]) == (4, 2, 2, None, None)
    # c = 2: the mean of the squared cosines
    assert R.direct_bias_test(kv, ["nurse", "pilot", "tree", "doctor"], pairs, c=2, warn=False,
                              resampling=Resampling(n_resamples=0)).effect_size == pytest.approx((cos ** 2).mean())
    with pytest.raises(KeyError):
        R.direct_bias_test(kv, ["nurse", "zebra"], pairs[:2], words=Words(on_missing="raise"), warn=False)
    with pytest.raises(InvalidParameterError, match="words must be"):
        R.direct_bias_test(kv, ["nurse"], pairs[:2], words={"case_fold": True})
