"""The Swinger notebook's committed results read back in lesson size (wordbias.papers.swinger2019.ube_summary,
ube_groups, ube_associations; folded from wordbias.teaching.papers), with clear errors when they are missing."""

import pandas as pd
import pytest

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import censor
from wordbias.papers import swinger2019

SWINGER = paths.RESULTS / "swinger2019" / "glove-6b-50d"
needs_results = pytest.mark.skipif(not (SWINGER / "summary.csv").is_file(), reason="needs the committed results")


def test_missing_results_name_the_notebook(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "COMMITTED_RESULTS", tmp_path)
    with pytest.raises(FileNotFoundError, match=r"notebooks/swinger2019.ipynb"):
        swinger2019.ube_summary()


@needs_results
def test_ube_tables_follow_the_csvs():
    raw = pd.read_csv(SWINGER / "summary.csv")
    summary = swinger2019.ube_summary()
    assert list(summary.index) == list(raw.run)
    assert summary["significant associations"].tolist() == raw.n_significant.tolist()
    groups = swinger2019.ube_groups("first")
    raw_groups = pd.read_csv(SWINGER / "first_groups.csv")
    assert list(groups.index) == list(raw_groups.group)
    assert groups["% female"].tolist() == raw_groups.pct_female.round(0).astype(int).tolist()
    assert "% female" not in swinger2019.ube_groups("last").columns


@needs_results
def test_ube_associations_one_row_per_filled_cell_and_censored():
    grid = pd.read_csv(SWINGER / "first_top12.csv").head(3)
    rows = swinger2019.ube_associations("first", top=3)
    assert len(rows) == int(grid.iloc[:, 1:].notna().sum().sum())
    assert set(rows.category) == set(grid.iloc[:, 0])  # the first column labels the categories
    raw = swinger2019.ube_associations("first", top=12, censored=False)
    shown = swinger2019.ube_associations("first", top=12, censored=True)
    assert shown.words.tolist() == censor.censor(raw.words.tolist())
    with pytest.raises(InvalidParameterError):
        swinger2019.ube_associations("middle")
    with pytest.raises(InvalidParameterError):
        swinger2019.ube_associations("first", top=0)
