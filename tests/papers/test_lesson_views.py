"""wordbias.lesson_views.lesson_views: committed results read in lesson size, with clear errors when missing, and the
projection figure (folded from wordbias.teaching.papers)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from wordbias.core import paths  # noqa: E402
from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.papers import lesson_views  # noqa: E402

TABLE1 = paths.RESULTS / "caliskan2017" / "glove-840b-caliskan" / "table1.csv"
needs_results = pytest.mark.skipif(not TABLE1.is_file(), reason="needs the committed results")


def test_missing_results_name_the_notebook(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "COMMITTED_RESULTS", tmp_path)
    with pytest.raises(FileNotFoundError, match=r"notebooks/caliskan2017.ipynb on glove-6b-50d"):
        lesson_views.read_results("caliskan2017", "table1.csv")


@needs_results
def test_weat_table_narrow():
    table1 = lesson_views.read_results("caliskan2017", "table1.csv", embedding="glove-840b-caliskan")
    shown = lesson_views.weat_table(table1)
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
    shown = lesson_views.direction_table(fake_table1().table)
    assert shown.loc["implicit", "words (white/black)"] == "3/3"
    assert shown.loc["implicit", "95% interval of the bias"] == "[0.29, 0.69]"
    assert shown.loc["implicit", "precision of p (95%)"] == "[0.0536, 0.0628]"


def test_plot_projections():
    fig = lesson_views.plot_projections(fake_table1(), "implicit")
    ax = fig.axes[0]
    offsets = np.concatenate([c.get_offsets()[:, 0] for c in ax.collections if len(c.get_offsets())])
    assert sorted(offsets.tolist()) == sorted([0.2, 0.1, -0.1, 0.0, -0.3])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["positive (T1)", "negative (T2)"]
    plt.close(fig)
    with pytest.raises(InvalidParameterError, match="no projections"):
        lesson_views.plot_projections(fake_table1(), "explicit")
