"""Double-hard debias (Wang et al. 2020) on a toy embedding with a planted gender direction and a planted
high-variance "frequency" direction."""

import dataclasses

import numpy as np
import pytest

import wordbias as wb
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import debias as D
from wordbias.measures.debiasing import double_hard as DH
from wordbias.options import Resampling

PAIRS = [("she", "he"), ("woman", "man"), ("girl", "boy"), ("mother", "father")]
SPECIFIC = [w for p in PAIRS for w in p]


def _names(prefix, n):
    letters = "abcdefghij"
    return [prefix + a + b for a in letters for b in letters][:n]


def _toy_embedding(seed=0, d=8):
    """Gender along e_0 (female words of the definitional pairs at +2, male at −2, 'f*'/'m*' words at ±1), a frequency-like direction e_1 of
    large variance that also shifts the gendered words, and neutral words 'n*'."""
    rng = np.random.default_rng(seed)
    male, female, neutral = _names("m", 40), _names("f", 40), _names("n", 120)
    words = SPECIFIC + male + female + neutral
    vecs = rng.normal(scale=0.5, size=(len(words), d))
    for i in range(len(PAIRS)):
        vecs[2 * i, 0] += 2.0
        vecs[2 * i + 1, 0] -= 2.0
    vecs[8:48, 0] -= 1.0  # male words lean to 'he' (−e_0)
    vecs[48:88, 0] += 1.0
    vecs[:, 1] += rng.normal(scale=3.0, size=len(words))  # "frequency"
    return to_keyed_vectors(words, vecs.astype(np.float32)), male, female, neutral


def _run(kv, **kw):
    """double_hard_debias on ``kv`` with 4 candidate components and 20 biased words a gender, changed by ``kw``
    (the fields of DoubleHardOptions, or the function's own keywords)."""
    fields = {f.name for f in dataclasses.fields(DH.DoubleHardOptions)}
    args = dict(n_components=4, n_biased=20, seed=0)
    args.update(kw)
    options = DH.DoubleHardOptions(**{k: v for k, v in args.items() if k in fields})
    return DH.double_hard_debias(kv, PAIRS, SPECIFIC, [], options=options,
                                 **{k: v for k, v in args.items() if k not in fields})


def test_embedding_pca_matches_numpy():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(500, 6)) @ rng.normal(size=(6, 6))
    mean, comps, ratio = DH.embedding_pca(X.astype(np.float32), chunk_rows=37)
    Xc = X - X.mean(0)
    lam, V = np.linalg.eigh(np.cov(Xc.T, bias=True))
    assert np.allclose(mean, X.mean(0), atol=1e-5)
    assert np.allclose(np.abs(comps @ V[:, ::-1]), np.eye(6), atol=1e-4)
    assert np.isclose(ratio.sum(), 1.0) and np.all(np.diff(ratio) <= 0)


def test_selection_table_and_the_debiased_embedding():
    kv, male, female, neutral = _toy_embedding()
    out, report = _run(kv, label="toy")
    table = report.table()
    assert len(table) == 4 and table["chosen"].sum() == 1
    assert report.chosen_component == int(np.argmin(report.component_accuracy))
    assert all(0.5 <= a <= 1.0 for a in report.component_accuracy)
    assert len(set(report.male_words) & set(male)) >= 12 and len(set(report.female_words) & set(female)) >= 12
    assert report.label == "toy+double-hard"
    assert out.vectors.dtype == np.float32 and out.index_to_key == kv.index_to_key
    assert np.allclose(np.linalg.norm(out.vectors, axis=1), 1.0, atol=1e-5)
    g = report.hard_debias.direction
    rows = np.array([kv.key_to_index[w] for w in male + female + neutral])
    assert np.abs(out.vectors[rows] @ g).max() < 1e-6  # the gender direction removed from every neutral word
    # the planted gender (e_0) of the 'm*' and 'f*' words is mostly gone
    unit = kv.vectors / np.linalg.norm(kv.vectors, axis=1, keepdims=True)
    m, f = [np.array([kv.key_to_index[w] for w in ws]) for ws in (male, female)]
    gap = lambda v: v[f, 0].mean() - v[m, 0].mean()  # noqa: E731
    assert gap(unit) > 0.3 and abs(gap(out.vectors)) < 0.1
    # the frequency direction chosen is one of the embedding's principal components
    _, comps, _ = DH.embedding_pca(kv.vectors, 4)
    assert np.allclose(report.frequency_direction, comps[report.chosen_component])


def test_in_place_hard_debias_equals_a_copy():
    kv, *_ = _toy_embedding()
    out, report = _run(kv)
    u, mean = report.frequency_direction, report.mean
    X = kv.vectors.astype(np.float64)
    shifted = to_keyed_vectors(list(kv.index_to_key), (X - mean - np.outer(X @ u, u)).astype(np.float32))
    ref, _ = D.hard_debias(shifted, PAIRS, SPECIFIC, [])
    assert np.allclose(out.vectors, ref.vectors, atol=1e-6)


def test_orthogonal_removal():
    kv, *_ = _toy_embedding()
    out, report = _run(kv, frequency_removal="orthogonal")
    assert report.frequency_removal == "orthogonal"
    assert np.isfinite(out.vectors).all()


def test_same_seed_same_bytes():
    kv, *_ = _toy_embedding()
    a, ra = _run(kv, seed=3)
    b, rb = _run(kv, seed=3)
    assert a.vectors.tobytes() == b.vectors.tobytes()
    assert ra.component_accuracy == rb.component_accuracy


def test_weat_accepts_the_result():
    kv, male, female, neutral = _toy_embedding()
    out, _ = _run(kv)
    r = wb.weat(out, male[:6], female[:6], neutral[:4], neutral[4:8],
                resampling=Resampling(n_resamples=0, n_permutations=100_000))
    assert np.isfinite(r.effect_size)


def test_validation():
    kv, *_ = _toy_embedding()
    with pytest.raises(DegenerateSetError, match="candidate words"):
        _run(kv, n_biased=500)
    with pytest.raises(KeyError, match="xx"):
        _run(kv, bias_pair=("he", "xx"))
    with pytest.raises(InvalidParameterError):
        _run(kv, n_components=99)
    with pytest.raises(InvalidParameterError):
        _run(kv, frequency_removal="both")
    with pytest.raises(InvalidParameterError, match="out"):
        _run(kv, out=np.empty((2, 2), dtype=np.float32))
    with pytest.raises(DegenerateSetError):
        DH.double_hard_debias(kv, [("xx", "yy")], SPECIFIC, [], options=DH.DoubleHardOptions(n_components=2,
                                                                                            n_biased=5))
    for name, bad in (("n_biased", 0), ("vocab_limit", 0), ("n_components", 0), ("bias_pair", "he")):
        with pytest.raises(InvalidParameterError, match=name):
            DH.DoubleHardOptions(**{name: bad})
    with pytest.raises(InvalidParameterError, match="options must be a DoubleHardOptions or None, not dict"):
        DH.double_hard_debias(kv, PAIRS, SPECIFIC, [], options={"n_biased": 5})
