"""The views read the catalogue: the heat map colours each value by its distance from no bias on its measure's own
scale and marks low coverage; an ensemble's page leads with its combined result and shows the runs figure."""

import base64
import re

import matplotlib
import numpy as np
import pandas as pd
import pytest

from wordbias.battery import compare, summary
from wordbias.core import tidy

matplotlib.use("Agg")


def _row(embedding, test, measure, name, value, **more):
    return {"embedding": embedding, "battery": "b", "test": test, "measure": measure, "effect_size_name": name,
            "effect_size": value, **more}


@pytest.fixture(scope="module")
def mixed():
    """ECT's rho (no bias at 1), WEAT's d (no bias at 0), MAC (no value of no bias), RIPA (unbounded) on two
    embeddings, one WEAT of low coverage."""
    return tidy.tidy_frame([
        _row("a", "ECT", "ect", "rho", 1.0, ci_low=0.9, ci_high=1.0), _row("b", "ECT", "ect", "rho", -1.0),
        _row("a", "WEAT1", "weat", "d", 0.0), _row("b", "WEAT1", "weat", "d", -1.0),
        _row("a", "MAC", "mac", "mac", 0.9), _row("b", "MAC", "mac", "mac", 0.8),
        _row("a", "RIPA", "ripa", "ripa", 0.2, ci_low=-0.1, ci_high=0.4), _row("b", "RIPA", "ripa", "ripa", -0.1),
        _row("a", "WEAT2", "weat", "d", 1.0, low_coverage=True, note="low coverage: X kept 3 of 8 words"),
        _row("b", "WEAT2", "weat", "d", 1.2, low_coverage=False)])


def _cell(cells, test, embedding):
    return cells.tests.index(("b", test)), cells.embeddings.index(embedding)


def test_the_colour_is_the_distance_from_no_bias_on_each_measures_scale(mixed):
    cells = compare.heat_cells(mixed)
    assert cells.colour[_cell(cells, "ECT", "a")] == 0.0          # rho = 1: no bias, white
    assert cells.colour[_cell(cells, "ECT", "b")] == 1.0          # rho = -1: the most, full colour
    assert cells.colour[_cell(cells, "WEAT1", "a")] == 0.0        # d = 0: no bias
    assert cells.colour[_cell(cells, "WEAT1", "b")] == -0.5       # d = -1: half-way to d = -2
    # RIPA has no bound: full colour at the largest distance from 0 of its values and interval ends (0.4)
    assert cells.scales == {"ripa": pytest.approx(0.4)}
    assert cells.colour[_cell(cells, "RIPA", "a")] == pytest.approx(0.5)
    # the annotation is the measure's own value
    assert cells.text[_cell(cells, "ECT", "a")] == "1.00\n[0.90, 1.00]"
    assert "no bias at 1" in cells.labels[cells.tests.index(("b", "ECT"))]


def test_the_drawn_colours_are_the_distances(mixed):
    fig = compare.heatmap(mixed)
    drawn = np.ma.filled(fig.axes[0].collections[0].get_array(), np.nan).reshape(-1, 2)
    np.testing.assert_array_equal(drawn[0], [0.0, 1.0])                # ECT: rho = 1 white, rho = -1 full colour
    np.testing.assert_array_equal(drawn[1], [0.0, -0.5])               # WEAT: d = 0 white, d = -1 half-way
    np.testing.assert_array_equal(drawn, compare.heat_cells(mixed).colour)
    assert fig.axes[1].get_ylabel() == "distance from no bias (each measure's own scale)"


def test_a_measure_without_a_value_of_no_bias_is_not_coloured_but_written(mixed):
    cells = compare.heat_cells(mixed)
    i, j = _cell(cells, "MAC", "a")
    assert np.isnan(cells.colour[i, j]) and cells.no_null[i, j] and cells.value[i, j] == 0.9
    fig = compare.heatmap(mixed)
    ax = fig.axes[0]
    assert "0.90" in [t.get_text() for t in ax.texts]
    assert any(p.get_hatch() for p in ax.patches)
    assert "MAC has no value that means no bias" in " ".join(t.get_text() for t in fig.texts)


def test_a_row_of_low_coverage_is_marked_and_the_mark_explained(mixed):
    fig = compare.heatmap(mixed)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "1.00 \u2020" in texts and "1.20" in texts                 # a dagger after the value of low coverage only
    assert "\u2020 (outlined): low coverage" in " ".join(t.get_text() for t in fig.texts)
    cells = compare.heat_cells(mixed)
    assert cells.low[_cell(cells, "WEAT2", "a")] and not cells.low[_cell(cells, "WEAT2", "b")]
    outlined = [p for p in fig.axes[0].patches if not p.get_fill()]
    assert [(p.get_x() // 1, p.get_y() // 1) for p in outlined] == [(0, cells.tests.index(("b", "WEAT2")))]


def test_a_test_not_run_is_not_marked_low():
    frame = tidy.tidy_frame([_row("a", "T", "weat", "d", np.nan, low_coverage=True, note="not run: too few words"),
                             _row("b", "T", "weat", "d", 0.5)])
    cells = compare.heat_cells(frame)
    assert not cells.low.any() and cells.text[0, 0] == "not run"


def _ensemble(n_runs=3):
    rows = [_row(f"e/seed-{k}", t, "weat", "d", 0.5 + 0.1 * k, ci_low=0.1, ci_high=1.2, p_value=0.01)
            for k in range(1, n_runs + 1) for t in ("WEAT1", "WEAT2")]
    rows += [_row("e", t, "weat", "d", 0.75, ci_low=0.2, ci_high=1.1, p_value=0.001) for t in ("WEAT1", "WEAT2")]
    frame = tidy.tidy_frame(rows)
    frame.attrs[tidy.ENSEMBLE_RUNS] = {f"e/seed-{k}": f"seed-{k}" for k in range(1, n_runs + 1)}
    return frame


def test_an_ensembles_page_leads_with_the_combined_table(tmp_path):
    frame = _ensemble()
    page = summary.write_html(frame, tmp_path / "s.html", title="t").read_text(encoding="utf-8")
    results = page[page.index("<h2>Results</h2>"):page.index("<h2>Dropped words</h2>")]
    combined, _, runs = results.partition("<details>")
    # the combined rows (each test once, 0.750) first; every single run's row after them, in the collapsed section
    assert combined.count("<td>WEAT1</td>") == 1 and combined.count("d = 0.750") == 2 and "seed-" not in combined
    assert all(runs.count(f"<td>e/seed-{k}</td>") == 2 for k in (1, 2, 3)) and "d = 0.750" not in runs
    assert "<summary>The single runs (6 rows)</summary>" in runs


def test_an_ensembles_page_shows_the_runs_figure_it_writes(tmp_path):
    from wordbias.cli.output import write_outputs

    written = write_outputs(_ensemble(), tmp_path / "out", "t")
    assert {"runs.png", "runs.pdf", "summary.html"} <= {p.name for p in written}
    page = (tmp_path / "out" / "summary.html").read_text(encoding="utf-8")
    runs_png = (tmp_path / "out" / "runs.png").read_bytes()

    images = [base64.b64decode(x) for x in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)]
    assert runs_png in images and images[0] == runs_png                # shown, and first
    assert "Each test in every training run" in page


def test_a_plain_page_has_no_runs_section(tmp_path):
    frame = tidy.tidy_frame([_row("a", "WEAT1", "weat", "d", 0.5), _row("b", "WEAT1", "weat", "d", 0.2)])
    page = summary.write_html(frame, tmp_path / "s.html", title="t", figure_dir=tmp_path).read_text()
    assert "<details>" not in page and not (tmp_path / "runs.png").exists()
    assert pd.Series(["forest.png", "heatmap.png"]).map(lambda n: (tmp_path / n).exists()).all()
