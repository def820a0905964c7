"""wordbias.teaching.explorer: the pure function agrees with the library's WEAT, bootstrap and two-sided p; the
bar chart; the widget's callback, driven without a browser, shows results and clear messages for bad input."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from wordbias import embeddings  # noqa: E402
from wordbias.measures.association import bootstrap, weat  # noqa: E402
from wordbias.options import Resampling  # noqa: E402
from wordbias.stats import montecarlo  # noqa: E402
from wordbias.teaching import explorer  # noqa: E402


@pytest.fixture
def lists(random_embedding):
    w = list(random_embedding)
    return w[:8], w[20:28], w[40:45], w[45:50]


def test_explore_matches_the_library(random_embedding, lists):
    X, Y, A, B = lists
    e = explorer.explore(random_embedding, X, Y, A, B, seed=3, n_resamples=500)
    kv = embeddings.load(random_embedding)     # a word -> vector mapping becomes float32 KeyedVectors, as everywhere
    ref = weat.weat(kv, X, Y, A, B, resampling=Resampling(seed=3, n_permutations=100_000))
    assert e.d == ref.effect_size
    assert e.p_one_sided == ref.p_value and e.p_method == ref.p_method
    ci = bootstrap.weat_bootstrap(kv, ref, resampling=Resampling(n_resamples=500, seed=3)).effect_size
    assert e.ci == (ci.low, ci.high)
    two = weat.p_value(ref.s_x, ref.s_y, p_method=ref.p_method, seed=3, alternative="two-sided")
    assert e.p_two_sided == two.p_value
    scores = e.scores
    assert list(scores.columns) == ["set", "group", "word", "s"]
    assert scores.s.is_monotonic_decreasing
    by_word = dict(zip(scores.word, scores.s))
    assert [by_word[w] for w in X] == pytest.approx(ref.s_x) and [by_word[w] for w in Y] == pytest.approx(ref.s_y)
    s = e.summary()
    assert s["n_X"] == 8 and s["d"] == e.d and s["dropped"] == ""
    assert "d = " in e.text() and "exact" in e.text()


def test_explore_reports_dropped_and_balanced_words(random_embedding, lists):
    X, Y, A, B = lists
    e = explorer.explore(random_embedding, X + ["nope"], Y[:7], A, B + ["zilch"], names={"X": "xs"},
                         n_resamples=200)
    assert e.dropped == {"xs": ("nope",), "B": ("zilch",)}
    assert sum(len(v) for v in e.balanced_out.values()) == 1
    assert any("nope" in n for n in e.notes) and any("balance" in n for n in e.notes)
    assert "not in the embedding, dropped: xs: nope; B: zilch" in e.text()
    assert "deleted at random" in e.text()


def test_explore_errors_are_the_library_s(random_embedding, lists):
    X, Y, A, B = lists
    with pytest.raises(ValueError, match="share"):
        explorer.explore(random_embedding, X, X[:2] + Y, A, B)
    with pytest.raises(ValueError):
        explorer.explore(random_embedding, "w0", Y, A, B)


def test_permutation_null_is_the_monte_carlo_draws(random_embedding, lists):
    res = weat.weat(random_embedding, *lists)
    null = explorer.permutation_null(res.s_x, res.s_y, n_permutations=2000, seed=1)
    assert null.shape == (2000,)
    # the same draws as the Monte Carlo p-value: its count of statistics >= the observed one
    mc = weat.p_value(res.s_x, res.s_y, p_method="monte-carlo", n_permutations=2000, seed=1)
    assert (1 + np.sum(null >= res.statistic - 1e-12)) / 2001 == pytest.approx(mc.p_value)
    pooled = np.concatenate([res.s_x, res.s_y])
    # every draw is the statistic of some relabelling: 2 * (sum over a subset of size |X|) - total
    sums = montecarlo.random_subset_sums(pooled, len(res.s_x), 2000, seed=1)
    assert np.allclose(null, 2 * sums - pooled.sum())
    fig = explorer.plot_null(null, res.statistic)
    assert fig.axes[0].get_legend() is not None
    plt.close(fig)


def test_plot_scores_one_bar_per_target_word(random_embedding, lists):
    e = explorer.explore(random_embedding, *lists, names={"X": "xs", "Y": "ys"}, n_resamples=200)
    fig = explorer.plot_scores(e)
    ax = fig.axes[0]
    assert len([p for p in ax.patches if p.get_width() != 0]) == 16
    assert [t.get_text() for t in ax.get_yticklabels()] == list(e.scores.word)
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["xs", "ys"]
    assert legend.get_bbox_to_anchor().x0 > ax.get_window_extent().x1 - 1   # the legend sits right of the bars
    assert "d = " in ax.get_title()
    plt.close(fig)


def test_plot_scores_is_stable_under_tiny_perturbations(random_embedding, lists):
    """No iterative placement: a 1e-6 change of the vectors leaves the same bar order and labels."""
    e1 = explorer.explore(random_embedding, *lists, n_resamples=200)
    moved = {w: v + 1e-6 for w, v in random_embedding.items()}
    e2 = explorer.explore(moved, *lists, n_resamples=200)
    f1, f2 = explorer.plot_scores(e1), explorer.plot_scores(e2)
    t1 = [t.get_text() for t in f1.axes[0].get_yticklabels()]
    t2 = [t.get_text() for t in f2.axes[0].get_yticklabels()]
    assert t1 == t2
    plt.close(f1)
    plt.close(f2)


def test_parse_words():
    assert explorer.parse_words(" a, b;c\n\nd  e ") == ["a", "b", "c", "d", "e"]
    assert explorer.parse_words(" , ;") == []
    with pytest.raises(TypeError):
        explorer.parse_words(["a"])


def test_word_lists_table():
    t = explorer.word_lists(["a", "b"], ["c"], ["d"], ["e", "f", "g"], names={"A": "good"})
    assert t.loc["A", "name"] == "good" and t.loc["B", "words"] == 3 and t.loc["X", "list"] == "a, b"


# ---------------------------------------------------------------------------------------------------------
# the widget, without a browser
# ---------------------------------------------------------------------------------------------------------

pytest.importorskip("ipywidgets")


def test_widget_runs_on_construction_and_on_click(random_embedding, lists):
    X, Y, A, B = lists
    ui = explorer.weat_explorer(random_embedding, X, Y, A, B, n_resamples=200)
    assert ui.exploration is not None
    assert ui.exploration.d == pytest.approx(weat.weat(random_embedding, X, Y, A, B).effect_size)
    assert ui.message.startswith("d = ")
    ui.areas["Y"].value = ", ".join(Y[:6])
    ui.button.click()                           # the button's callback, as a browser would trigger it
    assert ui.exploration.summary()["n_Y"] == 6 and ui.exploration.summary()["n_X"] == 6   # balanced
    assert "deleted at random" in ui.message
    plt.close("all")


@pytest.mark.parametrize("edit, fragment", [
    ({"A": "   "}, "A (A) is empty"),
    ({"X": "w0"}, "has one word"),
    ({"Y": "w0, w21, w22"}, "in both X (X) and Y (Y)"),
    ({"B": "w45, w46, nope1, nope2"}, None),           # unknown words: dropped and named, the test still runs
    ({"X": "nope1, nope2, nope3"}, "Cannot run the test"),
    ({"A": "w40, w45", "B": "w45, w46"}, "in both A (A) and B (B)"),
])
def test_widget_bad_input_gives_a_message_not_a_traceback(random_embedding, lists, edit, fragment):
    ui = explorer.weat_explorer(random_embedding, *lists, n_resamples=200, run=False)
    for key, text in edit.items():
        ui.areas[key].value = text
    ui.update()
    if fragment is None:
        assert ui.exploration is not None and "nope1" in ui.message and "dropped" in ui.message
    else:
        assert ui.exploration is None
        assert ui.message.startswith("Cannot run the test:") and fragment in ui.message, ui.message
    plt.close("all")


def test_widget_live_update(random_embedding, lists):
    ui = explorer.weat_explorer(random_embedding, *lists, n_resamples=200, live=True, run=False)
    assert ui.exploration is None
    ui.areas["X"].value = ", ".join(lists[0][:5])      # an edit reruns the test
    assert ui.exploration is not None and ui.exploration.summary()["n_X"] == 5
    plt.close("all")


def test_plot_runs_draws_each_run_and_each_mean():
    from wordbias.embeddings import to_keyed_vectors
    from wordbias.measures import ensemble
    from wordbias.measures.association import measurement

    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(16)]
    base = rng.normal(size=(16, 5))
    base[12:, 0] += 2.0
    runs = [to_keyed_vectors(words, base + rng.normal(0, 0.2, base.shape)) for _ in range(3)]
    lists, resampling = (words[:4], words[4:8], words[8:12], words[12:]), Resampling(n_resamples=200)
    a = ensemble.on_runs(measurement.weat, runs, *lists, resampling=resampling, label="a")
    b = ensemble.on_runs(measurement.weat, runs[:2], *lists, resampling=resampling, label="b")
    fig = explorer.plot_runs({"seeds": a, "documents": b})
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == ["run-1", "run-2", "run-3", "mean of 3 runs (seeds)", "run-1", "run-2", "mean of 2 runs (documents)"]
    plt.close(fig)
    fig = explorer.plot_runs(a)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()][-1] == "mean of 3 runs"
    plt.close(fig)
    with pytest.raises(ValueError):
        explorer.plot_runs([])
