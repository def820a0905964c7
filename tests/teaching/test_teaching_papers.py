"""wordbias.teaching.papers: the committed results read in lesson size, with clear errors when missing, and the
projection figure."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from wordbias.core import paths  # noqa: E402
from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.teaching import papers  # noqa: E402

SWINGER = paths.RESULTS / "swinger2019" / "glove-6b-50d"
needs_results = pytest.mark.skipif(not (SWINGER / "summary.csv").is_file(), reason="needs the committed results")


def test_missing_results_name_the_notebook(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "RESULTS", tmp_path)
    with pytest.raises(FileNotFoundError, match=r"notebooks/swinger2019.ipynb"):
        papers.ube_summary()


@needs_results
def test_ube_tables_follow_the_csvs():
    raw = pd.read_csv(SWINGER / "summary.csv")
    summary = papers.ube_summary()
    assert list(summary.index) == list(raw.run)
    assert summary["significant associations"].tolist() == raw.n_significant.tolist()
    groups = papers.ube_groups("first")
    raw_groups = pd.read_csv(SWINGER / "first_groups.csv")
    assert list(groups.index) == list(raw_groups.group)
    assert groups["% female"].tolist() == raw_groups.pct_female.round(0).astype(int).tolist()
    assert "% female" not in papers.ube_groups("last").columns


@needs_results
def test_ube_associations_one_row_per_filled_cell_and_censored():
    grid = pd.read_csv(SWINGER / "first_top12.csv").head(3)
    rows = papers.ube_associations("first", top=3)
    assert len(rows) == int(grid.iloc[:, 1:].notna().sum().sum())
    assert set(rows.category) == set(grid.iloc[:, 0])  # the first column labels the categories
    raw = papers.ube_associations("first", top=12, censored=False)
    shown = papers.ube_associations("first", top=12, censored=True)
    from wordbias.core import censor
    assert shown.words.tolist() == censor.censor(raw.words.tolist())
    with pytest.raises(InvalidParameterError):
        papers.ube_associations("middle")
    with pytest.raises(InvalidParameterError):
        papers.ube_associations("first", top=0)


@needs_results
def test_weat_table_narrow():
    table1 = papers.read_results("caliskan2017", "table1.csv", "glove-840b-caliskan")
    shown = papers.weat_table(table1)
    assert list(shown.index) == list(table1.test) and len(shown.columns) <= 7
    assert shown.loc["WEAT1", "d"] == round(table1.effect_size[0], 2)


def fake_table1():
    """The two parts of a racial_bias_report.Table1 that the helpers read."""
    table = pd.DataFrame({"attributes": ["implicit"], "n_A1": [3], "n_A2": [3], "bias": [0.4213],
                          "bias_ci_low": [0.29], "bias_ci_high": [0.69], "angle": [65.08], "p": [0.0582],
                          "p_ci_low": [0.0536], "p_ci_high": [0.0628], "p_two_sided": [0.1164]})

    class Result:
        labels = ["emb"]
        projections = {("emb", "implicit"): ((("good", "nice"), ("bad", "evil", "ugly")), np.array([0.2, 0.1]),
                                             np.array([-0.1, 0.0, -0.3]))}
    Result.table = table
    return Result()


def test_direction_table():
    shown = papers.direction_table(fake_table1().table)
    assert shown.loc["implicit", "words (white/black)"] == "3/3"
    assert shown.loc["implicit", "95% interval of the bias"] == "[0.29, 0.69]"
    assert shown.loc["implicit", "precision of p (95%)"] == "[0.0536, 0.0628]"


def test_plot_projections():
    fig = papers.plot_projections(fake_table1(), "implicit")
    ax = fig.axes[0]
    offsets = np.concatenate([c.get_offsets()[:, 0] for c in ax.collections if len(c.get_offsets())])
    assert sorted(offsets.tolist()) == sorted([0.2, 0.1, -0.1, 0.0, -0.3])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["positive (T1)", "negative (T2)"]
    plt.close(fig)
    with pytest.raises(InvalidParameterError, match="no projections"):
        papers.plot_projections(fake_table1(), "explicit")
