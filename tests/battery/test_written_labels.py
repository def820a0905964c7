"""Labels are free text in every output of a battery: the HTML summary escapes every user string, the figures draw
a label with ``$`` as it is (no mathtext), and an ensemble's run rows are told from the combined rows by the table's
attrs, never by a ``/`` in a label (the command's exit status 3 for a test not run depends on it)."""
import html
import io
from types import SimpleNamespace

import matplotlib.pyplot as plt
import pytest
from matplotlib import cbook
from matplotlib.text import Text

from wordbias.battery import compare, ensemble, summary
from wordbias.cli import inputs, output
from wordbias.core import tidy

PAYLOADS = ["<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "'><svg onload=alert(1)>",
            "=HYPERLINK(\"http://x\",\"y\")", "a &amp; b", "$x_$"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _row(embedding, test, **kw):
    return {"embedding": embedding, "paper": "user", "battery": "user:toy", "test": test, "measure": "weat",
            "effect_size_name": "d", "effect_size": 0.8, "ci_low": 0.2, "ci_high": 1.4, "ci_level": 0.95,
            "p_value": 0.01, "p_holm": 0.02, "alternative": "greater", "dropped": "", **kw}


def _math(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(Text) if cbook.is_math_text(t.get_text())]


def _drawn(fig) -> None:
    fig.savefig(io.BytesIO(), format="png")       # a mathtext error would be raised here


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_summary_page_escapes_every_user_string(tmp_path, payload):
    rows = [_row(payload, payload, title=payload, note=payload, dropped=f"X: {payload}", coverage=f"X {payload}",
                 p_method=payload),
            _row("other", "t2", title="t2", note=tidy.not_run_note(payload), effect_size=None, ci_low=None,
                 ci_high=None, p_value=None, p_holm=None)]
    frame = tidy.tidy_frame(rows)
    frame.attrs["parameters"] = {payload: {"vocabulary": 10, "ensemble": payload, "runs": [payload]},
                                 "other": {"vocabulary": 12}}
    frame.attrs["timings"] = {payload: {"WEAT": 1.0}}
    page = summary.write_html(frame, tmp_path / "summary.html", title=payload).read_text(encoding="utf-8")
    if set("<>&\"'") & set(payload):
        assert payload not in page
    assert page.count(html.escape(payload)) >= 6      # title, heading, parameters, table, notes, dropped


@pytest.mark.parametrize("label", ["$x_$", "$\\alpha$", "a/$b$/c", "_mine"])
def test_figures_draw_labels_as_given(label):
    frame = tidy.tidy_frame([_row(label, f"{label} test", title=label), _row("other", f"{label} test", title=label),
                             _row(label, "t2", note=tidy.not_run_note(label), effect_size=None, ci_low=None,
                                  ci_high=None)])
    forest = summary.forest_plot(frame, title=label)
    heat = compare.heatmap(frame, title=label)
    for fig in (forest, heat):
        _drawn(fig)
        assert not _math(fig)
    legend = [t.get_text() for t in forest.axes[0].get_legend().get_texts()]
    assert len(legend) == 2 and legend[0].lstrip("\u200b").replace("\\$", "$") == label     # "_mine" kept too
    assert any(label in t.get_text().replace("\\$", "$") for t in heat.axes[0].get_xticklabels())


def _ensemble_table(label: str):
    runs = [ensemble.run_label(label, f"seed-{i}") for i in (1, 2)]
    frame = tidy.tidy_frame([_row(r, "T", effect_size=d) for r, d in zip(runs, (0.7, 0.9))]
                            + [_row(r, "ghost", effect_size=None, ci_low=None, ci_high=None, p_value=None,
                                    note=tidy.not_run_note("too few words")) for r in runs]
                            + [_row(label, "T"), _row(label, "ghost", effect_size=None, ci_low=None, ci_high=None,
                                                      p_value=None, note=tidy.not_run_note("ran in 0 of 2 runs"))])
    frame.attrs[ensemble.ENSEMBLE_RUNS] = {r: f"seed-{i}" for i, r in enumerate(runs, 1)}
    return frame


@pytest.mark.parametrize("label", ["a/b", "$x/y$", "runs"])
def test_an_ensembles_runs_are_told_by_the_table_whatever_its_label(label):
    frame = _ensemble_table(label)
    assert ensemble.run_rows(frame).tolist() == [True] * 4 + [False] * 2
    assert ensemble.combined_only(frame).embedding.tolist() == [label, label]
    fig = ensemble.runs_figure(frame, title=label)
    _drawn(fig)
    assert not _math(fig)


def _one_embedding():
    """One embedding labelled ``a/b``: a test that ran and one that did not."""
    return tidy.tidy_frame([_row("a/b", "T"), _row("a/b", "ghost", effect_size=None,
                                                   note=tidy.not_run_note("too few words"))])


def test_a_single_embedding_whose_label_holds_a_slash_has_no_run_rows():
    frame = _one_embedding()
    assert not ensemble.run_rows(frame).any()
    assert ensemble.combined_only(frame).embedding.tolist() == ["a/b", "a/b"]


@pytest.mark.parametrize("frame", [
    _one_embedding(),
    _ensemble_table("a/b")], ids=["one embedding labelled a/b", "an ensemble labelled a/b"])
def test_a_test_not_run_gives_exit_status_3_whatever_the_label(frame, capsys):
    assert output.finish(frame, [], SimpleNamespace(quiet=False)) == output.EXIT_NOT_RUN
    err = capsys.readouterr().err
    assert "not run: ghost (weat): too few words" in err or "not run: ghost (weat): ran in 0 of 2 runs" in err


def test_two_files_of_the_same_name_get_two_labels(tmp_path):
    a, b = tmp_path / "a" / "vectors.txt", tmp_path / "b" / "vectors.txt"
    for p in (a, b):
        p.parent.mkdir()
        p.write_text("x 1.0 0.0\ny 0.0 1.0\n")
    labels = inputs.embedding_labels([str(a), str(b)])
    assert labels == [str(a), str(b)] and len(set(labels)) == 2
