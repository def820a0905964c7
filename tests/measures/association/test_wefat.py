from math import sqrt

import numpy as np
import pytest
from scipy import stats as sps

from wordbias.core.errors import DegenerateSetError
from wordbias.measures.association import wefat


def test_normalized_association_by_hand():
    # w = (1, 0); A = {(1,0), (1,1)}; B = {(0,1)}
    # cosines: A -> 1, 1/sqrt2 ; B -> 0
    W = np.array([[1.0, 0.0]])
    A = np.array([[1.0, 0.0], [1.0, 1.0]])
    B = np.array([[0.0, 1.0]])
    c = np.array([1.0, 1 / sqrt(2), 0.0])
    expected = ((1 + 1 / sqrt(2)) / 2 - 0) / c.std(ddof=1)
    assert wefat.normalized_association(W, A, B)[0] == pytest.approx(expected)
    assert wefat.normalized_association(W, A, B, ddof=0)[0] == pytest.approx((1 + 1 / sqrt(2)) / 2 / c.std())


def planted(n=30, seed=0):
    """Words whose lean towards A is a known linear function of a property."""
    rng = np.random.default_rng(seed)
    prop = np.linspace(0, 100, n)
    emb = {"a1": np.array([1.0, 0, 0, 0]), "a2": np.array([1.0, 0.2, 0, 0]),
           "b1": np.array([-1.0, 0, 0, 0]), "b2": np.array([-1.0, 0, 0.2, 0])}
    for i in range(n):
        v = rng.normal(scale=0.3, size=4)
        v[0] += (prop[i] - 50) / 50
        v[3] += 2
        emb[f"w{i}"] = v
    return emb, {f"w{i}": p for i, p in enumerate(prop)}


def test_wefat_recovers_planted_property_and_matches_scipy():
    emb, prop = planted()
    r = wefat.wefat(emb, list(prop), ["a1", "a2"], ["b1", "b2"], prop)
    assert r.n == 30
    assert r.pearson_r > 0.8 and r.p_value < 1e-6
    ref = sps.pearsonr(r.table["s"], r.table["property"])
    assert r.pearson_r == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
    # swapping A and B negates every score and the correlation
    rs = wefat.wefat(emb, list(prop), ["b1", "b2"], ["a1", "a2"], prop)
    np.testing.assert_allclose(rs.table["s"], -r.table["s"])
    assert rs.pearson_r == pytest.approx(-r.pearson_r)


def test_wefat_missing_words_and_properties_reported():
    emb, prop = planted()
    words = list(prop) + ["unknown_word", "no_prop"]
    emb["no_prop"] = np.ones(4)
    r = wefat.wefat(emb, words, ["a1", "a2", "zz"], ["b1", "b2"], prop)
    assert set(r.W.missing) == {"unknown_word", "no_prop"}
    assert r.A.missing == ("zz",)
    with pytest.raises(KeyError, match="no_prop"):
        wefat.wefat(emb, words, ["a1"], ["b1"], prop, on_missing="raise")


def test_wefat_degenerate_sets():
    emb, prop = planted()
    with pytest.raises(DegenerateSetError, match="set 'W'"):
        wefat.wefat(emb, ["w1", "w2", "zz"], ["a1"], ["b1"], prop)
    with pytest.raises(DegenerateSetError, match="set 'A' is empty"):
        wefat.wefat(emb, list(prop), ["zz"], ["b1"], prop)
    with pytest.raises(DegenerateSetError, match="set 'B' is empty"):
        wefat.wefat(emb, list(prop), ["a1"], ["zz"], prop)


def test_name_likeness_filter_drops_the_outliers():
    rng = np.random.default_rng(1)
    V = rng.normal(scale=0.1, size=(10, 5)) + np.array([1, 1, 0, 0, 0])
    V[3] = [-5, 0, 0, 0, 5]  # a "word", far from the names
    V[7] = [0, -4, 3, 0, 0]
    words = [f"n{i}" for i in range(10)]
    kept, dropped = wefat.name_likeness_filter(words, V, 0.2)
    assert sorted(dropped) == ["n3", "n7"] and len(kept) == 8
    kept_c, dropped_c = wefat.name_likeness_filter(words, V, 0.2, metric="cosine")
    assert sorted(dropped_c) == ["n3", "n7"]
    assert wefat.name_likeness_filter(words, V, 0.0) == (words, [])
    with pytest.raises(ValueError):
        wefat.name_likeness_filter(words, V, 1.0)


def test_wefat_with_filter_and_case_fold():
    emb, prop = planted()
    emb["w5"] = np.array([0, 0, 9.0, -9.0])  # an outlier that the filter should remove
    upper = {k.upper(): v for k, v in prop.items()}
    r = wefat.wefat(emb, list(upper), ["A1", "A2"], ["B1", "B2"], upper, case_fold=True, name_filter=0.2)
    assert "w5" in r.dropped_by_filter and r.n == 24


# the property, checked at the boundary
def test_property_must_be_a_mapping_and_vary():
    import warnings as _w

    import pandas as pd

    from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
    from wordbias.embeddings import to_keyed_vectors
    from wordbias.measures.association.wefat import wefat

    women = {"nurse": 90.0, "teacher": 70.0, "pilot": 8.0, "miner": 2.0}
    V = np.array([[0.9, 0.2], [0.6, 0.5], [0.3, 0.9], [0.1, 1.0], [1.0, 0.0], [0.0, 1.0]])
    kv = to_keyed_vectors([*women, "she", "he"], V.astype(np.float32))
    as_dict = wefat(kv, list(women), ["she"], ["he"], women)
    as_series = wefat(kv, list(women), ["she"], ["he"], pd.Series(women))
    assert as_dict.pearson_r == as_series.pearson_r
    with pytest.raises(InvalidParameterError, match="prop must map each target word to a number"):
        wefat(kv, list(women), ["she"], ["he"], list(women.values()))
    with pytest.raises(DegenerateSetError, match="the property is the same"):
        wefat(kv, list(women), ["she"], ["he"], dict.fromkeys(women, 5.0))
    with pytest.warns(MissingWordsWarning, match=r"no \(finite\) property value, dropped: \['miner'\]"):
        wefat(kv, list(women), ["she"], ["he"], {**women, "miner": float("nan")})
    with _w.catch_warnings():
        _w.simplefilter("error")              # nothing dropped: no warning
        wefat(kv, list(women), ["she"], ["he"], women)
