"""core.figures: the paper-vs-ours effect-size figure with intervals."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd

from wordbias.core import figures


def test_effect_size_comparison_draws_our_interval_and_the_papers_circle_on_top():
    table = pd.DataFrame({"test": ["T1", "T2"], "paper_effect_size": [1.5, 0.4], "effect_size": [1.4, -0.3],
                          "lo": [1.0, -1.2], "hi": [1.8, 2.3]})
    fig = figures.effect_size_comparison(table, title="t", low="lo", high="hi")
    ax = fig.axes[0]
    bars = [c for c in ax.collections if c.get_label() == "ours, 95% interval"][0]
    segs = sorted(tuple(np.round(s[:, 0], 6)) for s in bars.get_segments())
    assert segs == [(-1.2, 2.3), (1.0, 1.8)]
    paper = [c for c in ax.collections if c.get_label() == "paper"][0]
    ours = [c for c in ax.collections if c.get_label() == "ours"][0]
    assert paper.get_zorder() > ours.get_zorder()
    lo, hi = ax.get_xlim()
    assert lo <= -1.2 and hi >= 2.3                    # the whole interval is visible
    # without intervals: a grey line joins the paper's d and ours
    fig2 = figures.effect_size_comparison(table, title="t")
    assert not [c for c in fig2.axes[0].collections if c.get_label() == "ours, 95% interval"]
    assert len(fig2.axes[0].lines) >= 2
