"""papers.bartl2020: the BEC-Pro notebook's views of its runs (nothing recomputed) and its checks."""

from __future__ import annotations

import math

import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.datasets.bec_pro import load_professions
from wordbias.measures.language_models import bec_pro as bp
from wordbias.options import Resampling
from wordbias.papers import bartl2020


def _runs():
    """Two made-up models on English: one following the US share of women, one against it."""
    professions = load_professions()
    shares = bartl2020._shares()
    out = {}
    for model, sign in (("follows", 1.0), ("against", -1.0)):
        a = {p.name: sign * (p.percent_us - 50) / 50 + 0.05 * math.sin(i) for i, p in enumerate(professions)}
        corr = {c: bp.correlation(a, shares[c], resampling=Resampling(n_resamples=200, seed=0), test=c)
                for c in bartl2020.COLUMNS}
        out[(model, "en")] = bartl2020.LanguageRun(model, "en", a, {p.name: p.group for p in professions}, corr, 600)
    return out


def test_the_correlation_table_reads_each_run():
    table = bartl2020.correlation_table(_runs())
    assert list(table.model) == ["follows", "against"] and list(table.columns[3:]) == ["US", "DE", "BLS"]
    assert table.US[0].startswith("+0.9") and table.US[1].startswith("-0.9") and table.US[0].endswith("(n=60)")


def test_the_groups_table_orders_the_groups_as_the_model_does():
    table = bartl2020.groups_table(_runs())
    follows = table.iloc[0, 2:].astype(float).tolist()
    against = table.iloc[1, 2:].astype(float).tolist()
    assert follows == sorted(follows) and against == sorted(against, reverse=True) and follows[0] < 0 < follows[-1]


def test_the_figure_has_a_panel_per_language_and_refuses_an_unknown_column():
    fig = bartl2020.figure(_runs())
    assert [ax.get_title() for ax in fig.axes] == ["English"]
    with pytest.raises(InvalidParameterError, match="column"):
        bartl2020.figure(_runs(), "UK")
    rows = bartl2020.tidy_rows(_runs())
    assert set(rows.battery) == {"bec_pro:en"} and len(rows) == 6


@pytest.mark.parametrize("kwargs, match", [
    ({"models": [], "languages": ["en"], "persons": "pronouns", "seed": 0}, "models"),
    ({"models": ["a"], "languages": ["fr"], "persons": "pronouns", "seed": 0}, "languages"),
    ({"models": ["a"], "languages": ["en", "en"], "persons": "pronouns", "seed": 0}, "languages"),
    ({"models": ["a"], "languages": ["en"], "persons": "some", "seed": 0}, "persons"),
])
def test_the_parameters_are_checked_before_any_model_loads(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        bartl2020.check_parameters(**kwargs)
