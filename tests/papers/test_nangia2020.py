"""papers.nangia2020: the CrowS-Pairs notebook's views of the committed run (nothing recomputed) and its checks."""

from __future__ import annotations

import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.papers import nangia2020


def test_the_overall_table_is_a_view_of_the_committed_rows():
    frames = nangia2020.committed()
    table = nangia2020.overall_table(frames)
    assert list(table.model) == ["smollm2-135m"] * 2 + ["gemma-3-270m"] * 2
    assert list(table.convention) == ["harness", "shared-tokens"] * 2
    for row in table.itertuples():
        rows = frames[row.model]
        overall = rows[(rows.battery == f"crows_pairs:{row.convention}") & (rows.test == "overall")].iloc[0]
        assert row.pairs == overall.n_x and row._4 == f"{overall.effect_size:.2f}"
        assert 0 <= overall.ci_low <= overall.effect_size <= overall.ci_high <= 1


def test_the_types_table_has_every_type_and_its_holm_p():
    table = nangia2020.types_table(nangia2020.committed())
    assert len(table) == 9 and table.pairs.sum() == 300
    assert all("p_Holm" in cell for cell in table.iloc[:, 2:].to_numpy().ravel())


def test_the_figure_has_a_panel_per_convention():
    fig = nangia2020.figure(nangia2020.committed())
    assert [ax.get_title() for ax in fig.axes] == ["harness", "shared-tokens"]
    assert all(ax.get_xlim() == (0.0, 1.0) for ax in fig.axes)


@pytest.mark.parametrize("kwargs, match", [
    ({"models": [], "n_pairs": 300, "seed": 0}, "one or more models"),
    ({"models": ["a", "a"], "n_pairs": 300, "seed": 0}, "each once"),
    ({"models": ["a"], "n_pairs": 5, "seed": 0}, "n_pairs"),
    ({"models": ["a"], "n_pairs": 300, "seed": -1}, "seed"),
])
def test_the_parameters_are_checked_before_any_model_loads(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        nangia2020.check_parameters(**kwargs)


def test_the_papers_numbers_are_the_masked_lms_of_table_2():
    rep = nangia2020.reported()
    assert set(rep.convention) == {"pll"} and rep.share_stereotyped.between(0.5, 1).all()
