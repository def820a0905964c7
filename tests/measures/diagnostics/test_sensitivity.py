"""Word-list sensitivity: leave-one-out influence and the dropping curve, against brute-force recomputation
of WEAT's d with wordbias.measures.association.weat."""
import itertools

import matplotlib
import numpy as np
import pytest

from wordbias.core.errors import InvalidParameterError, MissingWordsWarning
from wordbias.measures.association import weat
from wordbias.measures.diagnostics.sensitivity import (
    drop_curve,
    effect_sizes,
    influence,
    plot_drop_curve,
    plot_influence,
    weat_cosines,
)
from wordbias.options import Words

matplotlib.use("Agg")

X, Y = ["x0", "x1", "x2", "x3"], ["y0", "y1", "y2"]
A, B = ["a0", "a1", "a2"], ["b0", "b1"]


@pytest.fixture
def emb():
    rng = np.random.default_rng(11)
    words = X + Y + A + B
    vecs = rng.normal(size=(len(words), 6))
    vecs[:4, 0] += 1.0
    vecs[7:10, 0] += 2.0
    return {w: v for w, v in zip(words, vecs)}


def _d(emb, x, y, a, b, ddof=1):
    def m(ws):
        return np.array([emb[w] for w in ws])

    return weat.effect_size(weat.association(m(x), m(a), m(b)), weat.association(m(y), m(a), m(b)), ddof=ddof)


def test_cosines_match_weat(emb):
    c = weat_cosines(emb, X, Y, A, B)
    r = weat.weat(emb, X, Y, A, B, words=Words(balance_targets="none", case_fold=False))
    np.testing.assert_allclose(c.s_x, r.s_x)
    np.testing.assert_allclose(c.s_y, r.s_y)


def test_effect_sizes_columns_match_weat():
    rng = np.random.default_rng(0)
    sx, sy = rng.normal(size=(5, 7)), rng.normal(size=(4, 7))
    for ddof in (0, 1):
        got = effect_sizes(sx, sy, ddof)
        want = [weat.effect_size(sx[:, j], sy[:, j], ddof=ddof) for j in range(7)]
        np.testing.assert_allclose(got, want)
    mask_x = (rng.random((5, 7)) < 0.7).astype(float)
    mask_x[:2] = 1
    got = effect_sizes(sx, sy, 1, w_x=mask_x)
    want = [weat.effect_size(sx[mask_x[:, j] > 0, j], sy[:, j]) for j in range(7)]
    np.testing.assert_allclose(got, want)


@pytest.mark.parametrize("ddof", [0, 1])
def test_influence_matches_brute_force(emb, ddof):
    inf = influence(weat_cosines(emb, X, Y, A, B), ddof=ddof)
    full = _d(emb, X, Y, A, B, ddof)
    assert inf.d == pytest.approx(full)
    frame = inf.to_frame()
    assert list(frame["set"]) == ["X"] * 4 + ["Y"] * 3 + ["A"] * 3 + ["B"] * 2
    assert list(frame["word"]) == X + Y + A + B
    sets = {"X": X, "Y": Y, "A": A, "B": B}
    for _, row in frame.iterrows():
        lists = {k: [w for w in v if w != row["word"]] for k, v in sets.items()}
        want = _d(emb, lists["X"], lists["Y"], lists["A"], lists["B"], ddof)
        assert row["d_without"] == pytest.approx(want, abs=1e-12)
        assert row["change"] == pytest.approx(want - full, abs=1e-12)


def test_influence_too_small_sets_give_nan_and_sort_last(emb):
    inf = influence(weat_cosines(emb, X, ["y0", "y1"], ["a0"], B))
    frame = inf.to_frame().set_index("word")
    assert np.isnan(frame.loc["y0", "d_without"]) and np.isnan(frame.loc["a0", "change"])
    top = inf.top(20)
    assert top["change"].isna().to_numpy()[-3:].all() and not top["change"].isna().to_numpy()[:-3].any()


def test_drop_curve_draws_are_subsets_uniformly():
    """Keep 2 of 3 targets a side and 1 of 2 attributes a side: 3·3·2·2 = 36 equally likely subsets. Every
    drawn d is one of theirs, and the mean of the draws approaches their mean."""
    rng = np.random.default_rng(5)
    words = ["x0", "x1", "x2", "y0", "y1", "y2", "a0", "a1", "b0", "b1"]
    emb = {w: v for w, v in zip(words, rng.normal(size=(10, 4)))}
    x, y, a, b = words[:3], words[3:6], words[6:8], words[8:]
    c = weat_cosines(emb, x, y, a, b)
    curve = drop_curve(c, fractions=[0.5], n_draws=20_000, seed=1)
    assert curve.kept[0] == {"X": 2, "Y": 2, "A": 1, "B": 1}
    all_d = np.array([_d(emb, xs, ys, aa, bb) for xs in itertools.combinations(x, 2)
                      for ys in itertools.combinations(y, 2) for aa in itertools.combinations(a, 1)
                      for bb in itertools.combinations(b, 1)])
    draws = curve.draws[0]
    assert np.all(np.min(np.abs(draws[:, None] - all_d[None, :]), axis=1) < 1e-10)
    assert len(np.unique(np.round(draws, 10))) == len(np.unique(np.round(all_d, 10)))
    assert draws.mean() == pytest.approx(all_d.mean(), abs=4 * all_d.std() / np.sqrt(20_000))
    frame = curve.to_frame()
    assert frame.loc[0, "mean"] == pytest.approx(draws.mean())
    assert frame.loc[0, "sd"] == pytest.approx(draws.std(ddof=1))
    assert frame.loc[0, "q0.5"] == pytest.approx(np.quantile(draws, 0.5))


def test_drop_curve_seeded_and_sizes(emb):
    c = weat_cosines(emb, X, Y, A, B)
    c1 = drop_curve(c, n_draws=200, seed=3)
    c2 = drop_curve(c, n_draws=200, seed=3)
    np.testing.assert_array_equal(c1.draws, c2.draws)
    assert not np.array_equal(c1.draws, drop_curve(c, n_draws=200, seed=4).draws)
    frame = c1.to_frame()
    assert list(frame["fraction"]) == [0.1, 0.2, 0.3, 0.4, 0.5]
    # ceil((1 - f) n), at least 2 targets and 1 attribute: X has 4 words -> 4, 4, 3, 3, 2
    assert list(frame["n_X"]) == [4, 4, 3, 3, 2]
    assert list(frame["n_B"]) == [2, 2, 2, 2, 1]
    assert c1.d == pytest.approx(_d(emb, X, Y, A, B))
    assert np.allclose(drop_curve(c, fractions=[0.0], n_draws=5).draws, c1.d)


def test_drop_curve_keeping_every_word_has_sd_exactly_zero(emb):
    """Draws that keep every word all equal d in exact arithmetic; their ULP-level differences (summation order
    picked by the BLAS) are rounded away, so the sd is exactly 0 on every run, not 0 or 2e-16."""
    c = weat_cosines(emb, X, Y, A, B)
    curve = drop_curve(c, fractions=[0.0], n_draws=50, seed=0)
    assert np.unique(curve.draws).size == 1
    assert curve.to_frame()["sd"].iloc[0] == 0.0


def test_validation(emb):
    c = weat_cosines(emb, X, Y, A, B)
    with pytest.raises(InvalidParameterError):
        drop_curve(c, fractions=[1.0])
    with pytest.raises(InvalidParameterError):
        drop_curve(c, n_draws=1)
    with pytest.raises(InvalidParameterError):
        drop_curve(c, seed=-3)
    with pytest.raises(InvalidParameterError):
        influence(c, ddof=2)
    with pytest.raises(InvalidParameterError):
        weat_cosines(emb, X, X, A, B)
    with pytest.warns(MissingWordsWarning):
        assert weat_cosines(emb, X + ["zz"], Y, A, B).missing == {"X": ("zz",)}


def test_figures(emb):
    c = weat_cosines(emb, X, Y, A, B)
    inf = influence(c)
    fig = plot_influence(inf, top_k=5)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    top = inf.top(5)
    assert labels == [f"{s}: {w}" for s, w in zip(top["set"][::-1], top["word"][::-1])]
    bars = [p.get_width() for p in fig.axes[0].patches]
    np.testing.assert_allclose(bars, top["change"][::-1])
    fig2 = plot_drop_curve(drop_curve(c, n_draws=50))
    assert fig2.axes[0].get_ylabel() == "effect size d"
    import matplotlib.pyplot as plt
    plt.close(fig)
    plt.close(fig2)


def test_case_fold(emb):
    upper = {w.upper(): v for w, v in emb.items()}
    lower = weat_cosines(emb, X, Y, A, B)
    folded = weat_cosines({w.lower(): v for w, v in upper.items()}, [w.upper() for w in X], Y, A, B,
                          case_fold=True)
    np.testing.assert_allclose(folded.XA, lower.XA)
    assert folded.X == tuple(X)
