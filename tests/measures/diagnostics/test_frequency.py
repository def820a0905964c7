"""Frequency diagnostics: ranks from the embedding's order or from counts, Spearman and Mann-Whitney against
SciPy and brute force."""
import numpy as np
import pytest
from scipy import stats

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, MissingWordsWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import weat
from wordbias.measures.diagnostics.frequency import (
    EMBEDDING_ORDER,
    counts_to_ranks,
    frequency_diagnostics,
    frequency_ranks,
    plot_frequency,
    rank_biserial,
    reference_counts,
)

WORDS = ["the", "good", "bad", "x1", "y1", "x2", "x3", "y2", "y3", "x4", "y4"]


@pytest.fixture
def kv():
    rng = np.random.default_rng(4)
    return to_keyed_vectors(WORDS, rng.normal(size=(len(WORDS), 5)).astype(np.float32))


def test_ranks_are_row_index_plus_one(kv):
    words, ranks = frequency_ranks(kv, ["y4", "the", "x2"])
    assert words == ("y4", "the", "x2")
    np.testing.assert_array_equal(ranks, [11, 1, 6])
    # a dict keeps its insertion order
    emb = {w: np.ones(2) for w in ["c", "a", "b"]}
    np.testing.assert_array_equal(frequency_ranks(emb, ["a", "b"])[1], [2, 3])


def test_counts_to_ranks_matches_scipy():
    rng = np.random.default_rng(0)
    counts = {f"w{i}": int(c) for i, c in enumerate(rng.integers(0, 20, 200))}
    got = counts_to_ranks(counts)
    want = stats.rankdata(-np.array(list(counts.values())), method="min")
    assert list(got.values()) == want.astype(int).tolist()
    with pytest.raises(InvalidParameterError):
        counts_to_ranks({"a": -1})
    with pytest.raises(InvalidParameterError):
        counts_to_ranks([("a", 1)])


def test_ranks_from_counts_and_missing(kv):
    counts = {"x1": 10, "y1": 30, "the": 1000}
    with pytest.warns(MissingWordsWarning):
        words, ranks = frequency_ranks(kv, ["x1", "y1", "x2"], counts=counts)
    assert words == ("x1", "y1") and ranks.tolist() == [3, 2]
    with pytest.raises(KeyError):
        frequency_ranks(kv, ["zz"], on_missing="raise")


def test_rank_biserial_is_probability_difference():
    rng = np.random.default_rng(1)
    for _ in range(20):
        x, y = rng.integers(0, 30, 6), rng.integers(0, 30, 9)
        u = stats.mannwhitneyu(x, y).statistic
        brute = np.mean(x[:, None] > y[None, :]) - np.mean(x[:, None] < y[None, :])
        assert rank_biserial(u, 6, 9) == pytest.approx(brute)


def test_diagnostics_against_scipy(kv):
    X, Y, A, B = ["x1", "x2", "x3", "x4"], ["y1", "y2", "y3", "y4"], ["good"], ["bad"]
    rep = frequency_diagnostics(kv, X, Y, A, B)
    rx, ry = np.array([4, 6, 7, 10]), np.array([5, 8, 9, 11])
    frame = rep.to_frame()
    assert list(frame["set"]) == ["X"] * 4 + ["Y"] * 4 + ["A", "B"]
    np.testing.assert_array_equal(frame["rank"], list(rx) + list(ry) + [2, 3])
    np.testing.assert_allclose(frame["log10_rank"], np.log10(frame["rank"]))
    r = weat.weat(kv, X, Y, A, B)
    s = np.concatenate([r.s_x, r.s_y])
    np.testing.assert_allclose(frame["s"][:8], s)
    assert frame["s"][8:].isna().all()
    rho, p = stats.spearmanr(s, np.concatenate([rx, ry]))     # log is monotone: same rho as on ranks
    assert rep.spearman_rho == pytest.approx(rho) and rep.spearman_p == pytest.approx(p)
    mw = stats.mannwhitneyu(rx, ry, alternative="two-sided")
    assert rep.mann_whitney_u == mw.statistic and rep.mann_whitney_p == pytest.approx(mw.pvalue)
    # brute force: P(x > y) - P(x < y) over the 16 pairs
    brute = np.mean(rx[:, None] > ry[None, :]) - np.mean(rx[:, None] < ry[None, :])
    assert rep.rank_biserial == pytest.approx(brute)
    assert rep.flagged == (mw.pvalue < 0.05)
    table = rep.rank_table()
    assert list(table.columns) == ["X", "Y", "A", "B"]
    assert table.loc["median", "X"] == np.median(rx) and table.loc["max", "Y"] == 11
    assert rep.summary()["rank_source"].startswith("embedding order")


def test_flag_on_separated_sets():
    # X are the 8 most frequent words, Y the 8 rarest: U = 0, r = -1, exact p = 2/C(16, 8)
    words = [f"x{i}" for i in range(8)] + ["a", "b"] + [f"y{i}" for i in range(8)]
    rng = np.random.default_rng(2)
    kv = to_keyed_vectors(words, rng.normal(size=(18, 4)).astype(np.float32))
    rep = frequency_diagnostics(kv, words[:8], words[10:], ["a"], ["b"])
    assert rep.rank_biserial == -1.0 and rep.mann_whitney_u == 0
    assert rep.mann_whitney_p == pytest.approx(2 / 12870)
    assert rep.flagged
    assert not frequency_diagnostics(kv, words[:8], words[10:], ["a"], ["b"], alpha=1e-4).flagged


def test_diagnostics_with_counts_and_validation(kv):
    counts = {w: 100 - i for i, w in enumerate(reversed(WORDS))}     # reverse the order
    rep = frequency_diagnostics(kv, ["x1", "x2"], ["y1", "y2"], ["good"], ["bad"], counts=counts)
    assert rep.source == "counts"
    assert rep.to_frame()["rank"].tolist() == [8, 6, 7, 4, 10, 9]     # 12 - (row index + 1)
    with pytest.raises(InvalidParameterError):
        frequency_diagnostics(kv, ["x1", "x2"], ["y1", "y2"], ["good"], ["bad"], alpha=1.5)
    with pytest.raises(InvalidParameterError):
        frequency_diagnostics(kv, ["x1", "x2"], ["x1", "y2"], ["good"], ["bad"])
    with pytest.raises(DegenerateSetError):
        frequency_diagnostics(kv, ["x1", "zz"], ["y1", "y2"], ["good"], ["bad"])


def test_alphabetical_vocabulary_is_refused():
    words = sorted(f"w{i:03d}" for i in range(30))
    kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(30, 3)).astype(np.float32))
    with pytest.raises(InvalidParameterError, match="alphabetical"):
        frequency_ranks(kv, ["w001"])
    # with counts it is fine
    assert frequency_ranks(kv, ["w001"], counts={"w001": 3, "w002": 9})[1].tolist() == [2]


def test_rank_statistics_depend_only_on_relative_order(kv):
    """A subset of the vocabulary in the same relative order (as the bundled word2vec subset) gives other rank
    values but the same Spearman rho, U and rank-biserial r."""
    X, Y, A, B = ["x1", "x2", "x3", "x4"], ["y1", "y2", "y3", "y4"], ["good"], ["bad"]
    full = frequency_diagnostics(kv, X, Y, A, B)
    keep = ["good", "bad"] + X[:2] + ["y1"] + X[2:] + Y[1:]
    kv_sub = to_keyed_vectors([w for w in WORDS if w in keep], np.array([kv[w] for w in WORDS if w in keep]))
    sub = frequency_diagnostics(kv_sub, X, Y, A, B)
    assert not np.array_equal(sub.rank, full.rank)
    assert (sub.spearman_rho, sub.mann_whitney_u, sub.rank_biserial) == pytest.approx(
        (full.spearman_rho, full.mann_whitney_u, full.rank_biserial))


def test_reference_counts_borrow_another_embeddings_order():
    ref = to_keyed_vectors(["the", "of", "rose", "tulip", "daisy"], np.eye(5, dtype=np.float32))
    mine = to_keyed_vectors(["Daisy", "Rose", "rose", "aardvark"], np.eye(4, dtype=np.float32))
    counts = reference_counts(mine, ref)
    assert counts == {"Daisy": 1 / 5, "Rose": 1 / 3, "rose": 1 / 3}        # aardvark has no rank
    assert reference_counts(mine, ref, case_fold=False) == {"rose": 1 / 3}
    assert counts_to_ranks(counts) == {"Rose": 1, "rose": 1, "Daisy": 3}   # the reference's order, ties shared
    with pytest.raises(InvalidParameterError, match="no word of the embedding"):
        reference_counts(to_keyed_vectors(["zz"], np.eye(1, dtype=np.float32)), ref)
    with pytest.raises(InvalidParameterError, match="case_fold"):
        reference_counts(mine, ref, case_fold="yes")


def test_source_names_the_counts_and_missing_ranks_warn(kv):
    X, Y, A, B = ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["good"], ["bad"]
    counts = {w: 100.0 - i for i, w in enumerate(["good", "bad", "x1", "x2", "y1", "y2", "y3"])}   # no x3
    with pytest.warns(MissingWordsWarning, match=r"set 'X': 1 of 3 word\(s\) without a vector or a frequency rank "
                                                 r"\(counts\), dropped: \['x3'\]"):
        rep = frequency_diagnostics(kv, X, Y, A, B, counts=counts, source="my corpus counts")
    assert rep.source == "my corpus counts" and rep.missing == {"X": ("x3",)}
    with pytest.raises(InvalidParameterError, match="source"):
        frequency_diagnostics(kv, X, Y, A, B, counts=counts, source=3)
    assert frequency_diagnostics(kv, X, Y, A, B).source == EMBEDDING_ORDER


def test_plot_frequency_draws_both_target_sets(kv):
    import matplotlib
    matplotlib.use("Agg")
    rep = frequency_diagnostics(kv, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["good"], ["bad"])
    fig = plot_frequency(rep, names={"X": "Flowers", "Y": "Insects"}, title="t")
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0].startswith("Flowers (median rank") and labels[1].startswith("Insects (median rank")
    assert ax.get_xscale() == "log" and "of the embedding" in ax.get_xlabel()
    np.testing.assert_array_equal(np.concatenate([c.get_offsets()[:, 0] for c in ax.collections]), rep.rank[:6])


@pytest.mark.parametrize("args", [(0.0, 0, 3), (1.0, 3, -1), (10.0, 3, 3), (-1.0, 3, 3)])
def test_rank_biserial_refuses_impossible_input(args):
    """An empty sample gave a ZeroDivisionError; a U outside [0, n_x n_y] an r outside [-1, 1]."""
    from wordbias.core.errors import InvalidParameterError
    from wordbias.measures.diagnostics.frequency import rank_biserial

    with pytest.raises(InvalidParameterError):
        rank_biserial(*args)
