"""May et al. (2019) layout (wordbias.papers.may2019): the comparison table and the figure beside the paper's
reported d (data/seat/may2019_reported.csv), with the shipped BERT column and with a second, synthetic encoder
column, so that adding an encoder's column of Table 3 to the file needs no code change."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from wordbias.datasets import seat
from wordbias.papers import may2019


def _tidy(tests, shift=0.0):
    """A tidy table as seat_battery lays it out (only the columns comparison and figure read)."""
    d = np.linspace(-0.5, 1.0, len(tests)) + shift
    return pd.DataFrame({"test": tests, "effect_size": d, "ci_low": d - 0.2, "ci_high": d + 0.2,
                         "p_value": np.full(len(tests), 0.01), "p_holm": np.full(len(tests), 0.05)})


@pytest.fixture
def frames():
    tests = may2019.default_tests()
    return {"MiniLM": _tidy(tests), "CBoW glove-6b-50d": _tidy(tests, 0.1)}


@pytest.fixture
def two_encoders(monkeypatch):
    """The shipped file plus a made-up encoder "SYNTH" (not the paper's numbers) on all but the last test."""
    real = seat.reported()
    synth = real.iloc[:-1].assign(encoder="SYNTH", d=np.arange(len(real) - 1) / 10)
    both = pd.concat([real, synth], ignore_index=True)
    monkeypatch.setattr(may2019._data, "reported", lambda: both)
    return both


def test_default_tests_are_table3_in_order():
    tests = may2019.default_tests()
    assert len(tests) == 14 and tests[:2] == ["weat1", "sent-weat1"]
    assert tests[-1] == "heilman_double_bind_likable_one_sentence"


def test_comparison_sets_the_papers_bert_beside_ours(frames):
    t = may2019.comparison(frames).set_index("test")
    assert [c for c in t.columns if c.startswith("paper ") and c != "paper row"] == ["paper BERT d"]
    assert t.loc["weat1", "paper BERT d"] == 0.22 and t.loc["sent-weat6", "paper BERT d"] == 0.08
    assert t.loc["sent-weat6", "paper row"] == "C6: M/F Names; Career" and t.loc["sent-weat6", "context"] == "sent"
    assert {"MiniLM d", "CBoW glove-6b-50d d", "CBoW glove-6b-50d p Holm"} <= set(t.columns)


def test_comparison_gives_one_column_per_paper_encoder(frames, two_encoders):
    t = may2019.comparison(frames).set_index("test")
    assert list(t.columns[-2:]) == ["paper BERT d", "paper SYNTH d"]
    assert t.loc["weat1", "paper BERT d"] == 0.22 and t.loc["weat1", "paper SYNTH d"] == 0.0
    assert t.loc["sent-weat1", "paper SYNTH d"] == 0.1
    assert np.isnan(t.loc["heilman_double_bind_likable_one_sentence", "paper SYNTH d"])  # no row: NaN, not 0


def test_figure_marks_each_paper_encoder_with_its_own_shape(frames, two_encoders):
    import matplotlib.pyplot as plt

    fig = may2019.figure(frames)
    try:
        handles, labels = fig.axes[0].get_legend_handles_labels()
        assert sorted(labels) == ["CBoW glove-6b-50d (95% CI)", "MiniLM (95% CI)", "paper: BERT", "paper: SYNTH"]
        paper = [c for c in fig.axes[0].collections if c.get_label().startswith("paper: ")]
        assert [len(c.get_offsets()) for c in paper] == [14, 13]
        shapes = [c.get_paths()[0].vertices for c in paper]
        assert not (shapes[0].shape == shapes[1].shape and np.allclose(shapes[0], shapes[1]))
        assert len(handles) == 4
    finally:
        plt.close(fig)
