"""papers.nadeem2021: the StereoSet notebook's views of its results (nothing recomputed) and its checks."""

from __future__ import annotations

import numpy as np
import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.measures.language_models import stereoset as st
from wordbias.papers import nadeem2021


def _results():
    """Two models x two tasks x one normalisation of made-up scores: 12 examples over the four bias types."""
    rng = np.random.default_rng(0)
    types = ("gender", "profession", "race", "religion") * 3
    out = {}
    for model in ("a", "b"):
        for task in ("intrasentence", "intersentence"):
            s = st.OptionScores(model, task, "mean", rng.normal(size=12), rng.normal(size=12), rng.normal(size=12) - 1,
                                types, tuple(f"t{i % 5}" for i in range(12)), tuple(map(str, range(12))))
            out[(model, task, "mean")] = st.stereoset(s, method="percentile", n_resamples=200)
    return out


def test_the_overall_table_reads_each_result():
    results = _results()
    table = nadeem2021.overall_table(results)
    assert len(table) == 4 and list(table.model) == ["a", "a", "b", "b"]
    first = results[("a", "intrasentence", "mean")].overall
    assert table["SS [95% CI]"][0].startswith(f"{first.ss.effect_size:.1f} [")
    assert table["SS / LMS / ICAT, averaged over targets"][0].split(" / ")[0] == \
        f"{first.ss.result.macro_over_targets:.1f}"


def test_the_paper_table_puts_the_authors_gpt2_beside_each_model():
    table = nadeem2021.paper_table(_results())
    assert list(table.columns[:3]) == ["task", "bias type", "SS paper"]
    overall = table[(table.task == "intrasentence") & (table["bias type"] == "overall")].iloc[0]
    assert overall["SS paper"] == "61.9" and overall["LMS paper"] == "91.1" and overall["ICAT paper"] == "69.4"
    assert {"SS a", "SS b", "ICAT b"} <= set(table.columns) and len(table) == 10
    with pytest.raises(InvalidParameterError, match="paper_model"):
        nadeem2021.paper_table(_results(), paper_model="GPT-3")


def test_the_types_table_has_holm_p_and_the_figure_a_panel_per_task():
    results = _results()
    table = nadeem2021.types_table(results)
    assert len(table) == 8 and set(table.examples) == {3}
    assert all("p_Holm" in c for c in table[["SS a", "SS b"]].to_numpy().ravel())
    fig = nadeem2021.figure(results)
    assert [ax.get_title() for ax in fig.axes] == ["intrasentence, mean", "intersentence, mean"]
    rows = nadeem2021.tidy_rows(results)
    assert set(rows.battery) == {"stereoset:intrasentence:mean", "stereoset:intersentence:mean"} and len(rows) == 60


@pytest.mark.parametrize("kwargs, match", [
    ({"models": [], "n_examples": {"intrasentence": 10}, "seed": 0}, "one or more models"),
    ({"models": ["a"], "n_examples": {"intra": 10}, "seed": 0}, "unknown tasks"),
    ({"models": ["a"], "n_examples": {"intrasentence": 3}, "seed": 0}, "n_examples"),
    ({"models": ["a"], "n_examples": {"intrasentence": 0, "intersentence": 0}, "seed": 0}, "no task"),
])
def test_the_parameters_are_checked_before_any_model_loads(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        nadeem2021.check_parameters(**kwargs)


def test_the_sample_is_stratified_and_seeded():
    a = nadeem2021.sample({"intrasentence": 40}, 0)["intrasentence"]
    assert a == nadeem2021.sample({"intrasentence": 40}, 0)["intrasentence"]
    assert {e.bias_type for e in a} == {"gender", "profession", "race", "religion"}
    assert [e.id for e in a] != [e.id for e in nadeem2021.sample({"intrasentence": 40}, 1)["intrasentence"]]
