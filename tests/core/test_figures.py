"""core.figures: the paper-vs-ours effect-size figure, labels that do not overlap and do not move with the last
digits of the data, legends off the data, full test names."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from wordbias import embeddings
from wordbias.core import figures
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import stimuli
from wordbias.papers import caliskan2017


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture(scope="module")
def kv():
    return embeddings.load("glove-840b-caliskan", progress=False)


@pytest.fixture(scope="module")
def wefat(kv):
    return caliskan2017.wefat_table(kv, stimuli.wefat_tests("caliskan2017"), n_resamples=20)[1]


def _positions(fig):
    return np.array([t.get_position() for t in fig.axes[0].texts], dtype=float)


def _wefat_figure(res, perturb=0.0):
    table = res.table.copy()
    # a different small change of every word's score (computed, so it may move on another CPU; the property is
    # read from a file and does not)
    table["s"] = table["s"] + perturb * np.sin(np.arange(len(table)) + 1.0)
    return figures.wefat_scatter(table, xlabel="x", ylabel="y", title="t", r=res.pearson_r, p=res.p_value)


def test_effect_size_comparison_draws_our_interval_and_the_papers_circle_beside_ours():
    table = pd.DataFrame({"test": ["T1", "T2"], "paper_effect_size": [1.5, 0.4], "effect_size": [1.5, -0.3],
                          "lo": [1.0, -1.2], "hi": [1.8, 2.3]})
    fig = figures.effect_size_comparison(table, title="t", low="lo", high="hi")
    ax = fig.axes[0]
    bars = [c for c in ax.collections if c.get_label() == "ours, 95% interval"][0]
    segs = sorted(tuple(np.round(s[:, 0], 6)) for s in bars.get_segments())
    assert segs == [(-1.2, 2.3), (1.0, 1.8)]
    paper = [c for c in ax.collections if c.get_label() == "paper"][0]
    ours = [c for c in ax.collections if c.get_label() == "ours"][0]
    assert paper.get_zorder() > ours.get_zorder()
    # T1: the paper's d equals ours, yet the two markers do not sit on each other (the paper's row is above)
    (px, py), (ox, oy) = paper.get_offsets()[0], ours.get_offsets()[0]
    assert px == ox == 1.5 and py > oy
    fig.canvas.draw()
    to_pixels = ax.transData.transform
    assert to_pixels((px, py))[1] - to_pixels((ox, oy))[1] > 4          # more than a marker's radius apart
    lo, hi = ax.get_xlim()
    assert lo <= -1.2 and hi >= 2.3                    # the whole interval is visible
    assert figures.points_under_legend(ax) == 0        # the legend sits off the data
    # without intervals: a grey line joins the paper's d and ours
    fig2 = figures.effect_size_comparison(table, title="t")
    assert not [c for c in fig2.axes[0].collections if c.get_label() == "ours, 95% interval"]
    assert len(fig2.axes[0].lines) >= 2


def test_effect_size_labels_are_wrapped_never_cut():
    specs = stimuli.weat_tests("caliskan2017")
    names = [f"{s.id} {s.title}" for s in specs]
    assert max(map(len, names)) > 2 * figures.WRAP_WIDTH  # WEAT5's name is long: it must wrap, not be cut
    table = pd.DataFrame({"test": names, "paper_effect_size": np.linspace(1, 1.8, len(names)),
                          "effect_size": np.linspace(1, 1.8, len(names))})
    fig = figures.effect_size_comparison(table, title="t")
    shown = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert [" ".join(s.split()) for s in shown] == names             # every word of every name is there
    assert max(len(line) for s in shown for line in s.split("\n")) <= figures.WRAP_WIDTH
    assert len({s for s in shown}) == len(names)                     # WEAT3, 4 and 5 no longer read the same
    first_lines = [s.split("\n")[0] for s in shown]                   # and they differ on their first line
    assert len(set(first_lines)) == len(names)
    # wrapped rows get room: the tick labels of neighbouring rows do not overlap
    assert figures.overlapping_labels(fig.axes[0].get_yticklabels()) == []


def test_wrap_label_keeps_every_word_and_line_break():
    label = "Career/Family\n(Male/Female) | log probability bias score of a long label"
    wrapped = figures.wrap_label(label, 20)
    assert " ".join(wrapped.split()) == " ".join(label.split())
    assert wrapped.startswith("Career/Family\n") and max(map(len, wrapped.split("\n"))) <= 20


@pytest.mark.parametrize("test", ["WEFAT1", "WEFAT2"])
def test_wefat_labels_do_not_overlap_and_do_not_move_with_the_last_digits(wefat, test):
    fig = _wefat_figure(wefat[test])
    texts = fig.axes[0].texts
    assert sorted(t.get_text() for t in texts) == sorted(wefat[test].table.word)   # every word is labelled
    assert figures.overlapping_labels(texts) == []
    # another CPU moves the scores by ~1e-7: 1e-6 leaves every label where it was
    np.testing.assert_array_equal(_positions(_wefat_figure(wefat[test], 1e-6)), _positions(fig))
    # and a visible change does move them (the test above can fail)
    assert not np.array_equal(_positions(_wefat_figure(wefat[test], 5e-2)), _positions(fig))


def test_figure3_labels_and_legend(kv):
    male, female = caliskan2017.figure3_pairs(kv)
    fig = figures.pca_pairs(male, female, kv[male], kv[female], title="t")
    ax = fig.axes[0]
    assert len(ax.texts) == len(male) + len(female)
    assert figures.overlapping_labels(ax.texts) == []
    assert figures.points_under_legend(ax) == 0
    wiggle = 1e-6 * np.cos(np.arange(kv.vector_size))
    again = figures.pca_pairs(male, female, kv[male] + wiggle, kv[female] - wiggle, title="t")
    np.testing.assert_array_equal(_positions(again), _positions(fig))


def test_a_legend_over_points_is_counted():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.scatter([0.05, 0.5], [0.95, 0.5], label="points")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left")
    assert figures.points_under_legend(ax) == 1
    figures.legend_outside(ax)
    assert figures.points_under_legend(ax) == 0


def test_place_labels_refuses_bad_input():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.scatter([0, 1], [0, 1])
    with pytest.raises(InvalidParameterError, match="as many labels as points"):
        figures.place_labels(ax, [0, 1], [0, 1], ["a"])
    with pytest.raises(InvalidParameterError, match=r"\['b'\] are not finite"):
        figures.place_labels(ax, [0, np.nan], [0, 1], ["a", "b"])
    with pytest.raises(InvalidParameterError, match="no span"):
        figures.label_grid(1.0, 1.0)
    assert figures.label_grid(0, 3.2) == pytest.approx(1e-3)


def test_word_scores_swarm_shows_every_word_and_each_sets_mean(kv):
    from wordbias.measures.association import weat

    spec = stimuli.weat_tests("caliskan2017")[0]
    res = weat.weat(kv, spec.X, spec.Y, spec.A, spec.B, names=spec.names, p_method="normal")
    scores = caliskan2017.word_scores(res)
    fig = figures.word_scores_swarm(scores, title="t")
    ax = fig.axes[0]
    assert sum(len(c.get_offsets()) for c in ax.collections) == len(scores)
    bars = sorted(line.get_xdata()[0] for line in ax.lines if line.get_color() == "black")
    assert bars == pytest.approx(sorted([res.s_x.mean(), res.s_y.mean()]))
    with pytest.raises(InvalidParameterError, match="needs the columns"):
        figures.word_scores_swarm(scores.rename(columns={"set": "group"}), title="t")


def test_remove_crossings_swaps_as_adjusttext_does():
    """figures.remove_crossings (vectorised) against adjustText's own loop: the same boxes after every call, on
    random labels and on rounded ones (ties, parallel and touching segments)."""
    import adjustText

    rng = np.random.default_rng(0)
    swapped = 0
    for trial in range(200):
        n = int(rng.integers(2, 40))
        boxes, points = rng.normal(size=(n, 4)) * 50, rng.normal(size=(n, 2)) * 50
        if trial % 3 == 0:
            boxes, points = np.round(boxes / 10), np.round(points / 10)
        theirs = adjustText.remove_crossings(boxes.copy(), points, 0)
        ours = figures.remove_crossings(boxes.copy(), points, 0)
        np.testing.assert_array_equal(ours, theirs)
        swapped += not np.array_equal(ours, boxes)
    assert swapped > 100                                   # most cases had crossings to remove
    assert adjustText.remove_crossings is not figures.remove_crossings   # place_labels put adjustText's back


def _constrained_figure():
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 4), layout="constrained")
    for i, ax in enumerate(fig.subplots(2, 1)):
        ax.plot(np.arange(10) ** (i + 1), label=f"series {i}")
        ax.set_ylabel("a long label that the layout must make room for " * (i + 1))
        ax.legend()
    return fig


def test_save_beside_gives_the_same_bytes_with_a_fork_or_without(tmp_path, monkeypatch):
    """The PDF drawn in a forked process and the one drawn from a copy (one core) are byte-identical, and so are
    the PNGs: both come from the figure as given, whatever the machine's cores."""
    figures.save(_constrained_figure(), tmp_path, "forked", tight=False, beside=True)
    monkeypatch.setenv("WORDBIAS_WORKERS", "1")
    figures.save(_constrained_figure(), tmp_path, "copied", tight=False, beside=True)
    for ext in ("png", "pdf"):
        assert (tmp_path / f"forked.{ext}").read_bytes() == (tmp_path / f"copied.{ext}").read_bytes(), ext
    # drawn one after the other instead, the PDF follows the PNG's layout pass: beside is what keeps them apart
    figures.save(_constrained_figure(), tmp_path, "sequential", tight=False)
    assert (tmp_path / "sequential.png").read_bytes() == (tmp_path / "forked.png").read_bytes()
