"""LEACE (Belrose et al. 2023): the closed-form eraser on synthetic data and a toy embedding with a planted
gender direction."""

import numpy as np
import pytest

import wordbias as wb
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import leace as L
from wordbias.options import Resampling


def _data(seed=0, n=300, d=8, k=2):
    rng = np.random.default_rng(seed)
    z = rng.integers(0, k, size=n)
    X = rng.normal(size=(n, d)) @ rng.normal(size=(d, d))  # correlated features
    X[:, 0] += 3.0 * z
    X[:, 1] -= 1.5 * (z == 1)
    return X, z


def _toy_embedding(seed=0, n_neutral=200, d=10):
    """Words with a planted gender direction e_0: 'm*' at +2, 'f*' at −2, neutral words around 0."""
    rng = np.random.default_rng(seed)
    male = [f"m{i}" for i in range(40)]
    female = [f"f{i}" for i in range(40)]
    neutral = [f"n{i}" for i in range(n_neutral)]
    words = male + female + neutral
    vecs = rng.normal(size=(len(words), d))
    vecs[:40, 0] += 2.0
    vecs[40:80, 0] -= 2.0
    vecs[80:, 0] += rng.normal(scale=0.5, size=n_neutral) + 0.3 * vecs[80:, 1]  # neutral words lean a little
    return to_keyed_vectors(words, vecs.astype(np.float32)), {"male": male, "female": female}


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("method", ["leace", "orth"])
def test_class_means_equal_after_erasure(k, method):
    X, z = _data(k=k)
    eraser = L.leace_fit(X, z, method=method)
    Xe = eraser.apply(X)
    assert eraser.rank == k - 1
    assert L.class_mean_gap(X, z) > 0.5
    assert L.class_mean_gap(Xe, z) < 1e-10
    # the cross-covariance with the one-hot labels is zero: no linear classifier beats the constant on the fit data
    Z = np.eye(k)[z]
    assert np.abs((Xe - Xe.mean(0)).T @ (Z - Z.mean(0))).max() < 1e-9


def test_no_linear_classifier_beats_chance_after_erasure():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    X, z = _data(n=1000)
    Xe = L.leace_fit(X, z).apply(X)
    majority = np.bincount(z).max() / len(z)
    assert LinearDiscriminantAnalysis().fit(X, z).score(X, z) > 0.9
    # LDA is the Bayes-optimal linear rule for equal-covariance classes; with equal class means it is left with
    # the prior
    assert LinearDiscriminantAnalysis().fit(Xe, z).score(Xe, z) <= majority + 0.02


def test_leace_changes_less_than_orth():
    X, z = _data()
    d_leace = np.mean(np.sum((L.leace_fit(X, z).apply(X) - X) ** 2, axis=1))
    d_orth = np.mean(np.sum((L.leace_fit(X, z, method="orth").apply(X) - X) ** 2, axis=1))
    assert d_leace <= d_orth + 1e-12  # Theorem 4.3: LEACE is the least-squares eraser


def test_projection_is_idempotent_and_rank_one_change():
    X, z = _data()
    e = L.leace_fit(X, z)
    assert np.allclose(e.P @ e.P, e.P, atol=1e-10)
    assert np.linalg.matrix_rank(np.eye(X.shape[1]) - e.P) == 1
    assert np.allclose(e.apply(e.apply(X)), e.apply(X), atol=1e-9)


def test_singular_covariance_is_fine():
    rng = np.random.default_rng(3)
    z = np.repeat([0, 1], 5)
    X = np.zeros((10, 20))
    X[:, :6] = rng.normal(size=(10, 6))
    X[:, 0] += 2 * z
    Xe = L.leace_fit(X, z).apply(X)
    assert L.class_mean_gap(Xe, z) < 1e-10


def test_apply_in_blocks_float32_and_in_place():
    X, z = _data()
    e = L.leace_fit(X, z)
    full = e.apply(X)
    blocks = e.apply(X, chunk_rows=7)
    assert np.allclose(full, blocks, rtol=0, atol=1e-12)  # BLAS may round differently by block size
    X32 = X.astype(np.float32)
    assert e.apply(X32).dtype == np.float32
    inplace = X32.copy()
    e.apply(inplace, out=inplace, chunk_rows=13)
    assert np.array_equal(inplace, e.apply(X32, chunk_rows=13))


def test_leace_debias_toy_embedding_is_a_keyed_vectors_weat_accepts():
    kv, classes = _toy_embedding()
    out, report = L.leace_debias(kv, classes, label="toy")
    assert report.label == "toy+leace" and report.rank == 1
    assert report.mean_gap_before > 1.5 and report.mean_gap_after < 1e-5
    assert out.vectors.dtype == np.float32 and out.vectors.shape == kv.vectors.shape
    assert out.index_to_key == kv.index_to_key
    assert np.array_equal(kv.vectors, _toy_embedding()[0].vectors)  # input untouched
    m = [f"m{i}" for i in range(8)]
    f = [f"f{i}" for i in range(8)]
    before = wb.weat(kv, m, f, ["n0", "n1", "n2", "n3"], ["n4", "n5", "n6", "n7"],
                     resampling=Resampling(n_resamples=0, n_permutations=100_000))
    after = wb.weat(out, m, f, ["n0", "n1", "n2", "n3"], ["n4", "n5", "n6", "n7"],
                    resampling=Resampling(n_resamples=0, n_permutations=100_000))
    assert np.isfinite(before.effect_size) and np.isfinite(after.effect_size)


def test_leace_debias_is_deterministic():
    kv, classes = _toy_embedding()
    a, _ = L.leace_debias(kv, classes)
    b, _ = L.leace_debias(kv, classes)
    assert a.vectors.tobytes() == b.vectors.tobytes()


def test_leace_debias_reports_missing_words_and_validates():
    kv, classes = _toy_embedding()
    with pytest.warns(MissingWordsWarning, match="zzz"):
        _, report = L.leace_debias(kv, {"male": classes["male"] + ["zzz"], "female": classes["female"]})
    assert report.missing_words == {"male": ("zzz",)}
    with pytest.raises(DegenerateSetError):
        L.leace_debias(kv, {"male": ["m0"], "female": classes["female"]})
    with pytest.raises(InvalidParameterError, match="two classes"):
        L.leace_debias(kv, {"male": ["m0", "m1"], "female": ["m1", "f0"]})
    with pytest.raises(InvalidParameterError):
        L.leace_debias(kv, {"male": classes["male"]})
    with pytest.raises(InvalidParameterError, match="out"):
        L.leace_debias(kv, classes, out=np.empty((3, 3), dtype=np.float32))


def test_fit_validation():
    X, z = _data()
    with pytest.raises(InvalidParameterError, match="one label per row"):
        L.leace_fit(X, z[:-1])
    with pytest.raises(DegenerateSetError):
        L.leace_fit(X, np.zeros(len(X)))
    with pytest.raises(InvalidParameterError):
        L.leace_fit(X[:, :, None], z)
    with pytest.raises(InvalidParameterError):
        L.leace_fit(X, z, method="nope")
    e = L.leace_fit(X, z)
    with pytest.raises(InvalidParameterError, match="shape"):
        e.apply(X[:, :3])
