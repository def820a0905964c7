"""battery.summary: the forest plot and the self-contained HTML page."""

import base64
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from wordbias.battery import summary
from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.stats.multiple import adjust_family


def _frame(embeddings=("e",)):
    rows = []
    for k, e in enumerate(embeddings):
        for i in range(1, 4):
            rows.append({"embedding": e, "paper": "caliskan2017", "battery": "caliskan2017", "test": f"WEAT{i}",
                         "title": f"test <{i}>", "measure": "weat", "n_x": 8, "n_y": 8, "n_a": 8, "n_b": 8,
                         "statistic_name": "s(X,Y,A,B)", "statistic": 0.1 * i, "effect_size_name": "d",
                         "effect_size": 0.5 * i - k, "ci_low": 0.5 * i - k - 0.4, "ci_high": 0.5 * i - k + 0.3,
                         "ci_level": 0.95, "p_value": 10.0 ** -i, "alternative": "greater", "p_method": "exact",
                         "dropped": "X: aster; A: caress" if i == 1 else "", "seed": 0})
        rows.append({"embedding": e, "paper": "caliskan2017", "battery": "caliskan2017", "test": "WEFAT1",
                     "measure": "wefat", "effect_size_name": "r", "effect_size": 0.6, "ci_low": 0.4, "ci_high": 0.8,
                     "p_value": 0.2, "alternative": "two-sided", "dropped": ""})
        rows.append({"embedding": e, "paper": "swinger2019", "battery": "swinger2019", "test": "UBE:first_names",
                     "measure": "ube", "statistic_name": "significant cells", "statistic": 7.0, "p_value": 0.01,
                     "note": "no effect size"})
        rows.append({"embedding": e, "paper": "racial_bias_report", "battery": "racial_bias_report",
                     "test": "explicit", "measure": "direction", "effect_size_name": "cos",
                     "note": "not run: DegenerateSetError: set explicit is empty"})
    frame = tidy.tidy_frame(rows)
    out = []
    for e in embeddings:
        out.append(adjust_family(frame[frame.embedding == e].reset_index(drop=True), f"report on {e}"))
    return pd.concat(out, ignore_index=True)


def test_format_p():
    assert summary.format_p(np.nan) == "NA" and summary.format_p(None) == "NA"
    assert summary.format_p(0.0) == "0" and summary.format_p(1.0) == "1"
    assert summary.format_p(0.04567) == "0.046" and summary.format_p(2.5e-7) == "2.5e-07"


def test_forest_plot_one_panel_per_kind_of_effect_size():
    fig = summary.forest_plot(_frame())
    xlabels = [ax.get_xlabel() for ax in fig.axes]
    assert xlabels[:2] == ["WEAT effect size d", "WEFAT Pearson r"]
    weat = fig.axes[0]
    assert [t.get_text()[:5] for t in weat.get_yticklabels()] == ["WEAT1", "WEAT2", "WEAT3"]
    # the interval lines span [ci_low, ci_high]
    segs = weat.collections[0].get_segments()
    np.testing.assert_allclose([s[:, 0] for s in segs], [[0.1, 0.8], [0.6, 1.3], [1.1, 1.8]])
    foot = " ".join(t.get_text() for t in fig.axes[-1].texts)
    assert "e / UBE:first_names: no effect size" in foot and "e / explicit: not run" in foot


def test_forest_plot_several_embeddings_get_a_legend():
    fig = summary.forest_plot(_frame(("a", "b")))
    legend = fig.axes[0].get_legend()
    assert legend is not None and [t.get_text() for t in legend.get_texts()] == ["a", "b"]


def test_forest_plot_without_any_effect_size_draws_only_the_reasons():
    # every test not run (a user's lists on a small corpus): no empty panel with axes from 0 to 1, only the reasons
    frame = _frame()
    frame = frame.assign(effect_size=np.nan, ci_low=np.nan, ci_high=np.nan)
    fig = summary.forest_plot(frame)
    assert len(fig.axes) == 1 and not fig.axes[0].axison
    assert fig.axes[0].texts[0].get_text().startswith("No effect size:")


def test_forest_plot_refuses_an_empty_table():
    with pytest.raises(InvalidParameterError, match="empty"):
        summary.forest_plot(tidy.tidy_frame([]))


def test_write_html_is_self_contained(tmp_path):
    frame = _frame()
    frame.attrs["timings"] = {"WEAT": 1.5, "UBE": 10.0}
    path = summary.write_html(frame, tmp_path / "out" / "summary.html", title="Report on <mine>")
    page = path.read_text(encoding="utf-8")
    assert not re.search(r"https?:", page) and "<script" not in page and "<link" not in page
    assert "<title>Report on &lt;mine&gt;</title>" in page
    for test in frame.test:
        assert f"<td>{test}</td>" in page
    assert "test &lt;1&gt;" in page                                # titles are escaped
    assert "X: aster; A: caress" in page                           # the dropped words
    assert "<td class='num'>0.001 <span class='small'>(exact, greater)</span></td>" in page and "report on e" in page   # formatted p, the family
    assert "WEAT 1.5 s, UBE 10.0 s (total 11.5 s)" in page         # the timings of attrs
    images = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert len(images) == 1 and base64.b64decode(images[0])[:8] == b"\x89PNG\r\n\x1a\n"


def test_write_html_several_embeddings_has_the_heatmap(tmp_path):
    page = summary.write_html(_frame(("a", "b")), tmp_path / "s.html", title="t").read_text()
    assert len(re.findall(r"data:image/png;base64,", page)) == 2 and "<td>a</td>" in page and "<td>b</td>" in page


def test_write_html_checks_its_arguments(tmp_path):
    with pytest.raises(InvalidParameterError, match="title"):
        summary.write_html(_frame(), tmp_path / "s.html", title="")
    with pytest.raises(InvalidParameterError, match="tidy"):
        summary.write_html(pd.DataFrame({"x": [1]}), tmp_path / "s.html", title="t")


def test_figure_png_is_deterministic():
    a = summary.figure_png(summary.forest_plot(_frame()))
    b = summary.figure_png(summary.forest_plot(_frame()))
    assert a == b


class _Tags(HTMLParser):
    """Checks that every opened element (but the void ones) is closed, in order."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def test_write_html_is_well_formed(tmp_path):
    page = summary.write_html(_frame(("a", "b")), tmp_path / "s.html", title="t & <u>").read_text()
    parser = _Tags()
    parser.feed(page)
    assert parser.errors == [] and parser.stack == []
    assert page.count("<tr") == 1 + len(_frame(("a", "b")))      # the header and one row per test



def test_the_page_gives_the_report_wall_time_when_parts_ran_side_by_side(tmp_path):
    """A report whose UBE ran beside the other parts gives its wall time as "total"; the page shows it, not the sum
    of the parts (which ran side by side)."""
    frame = _frame()
    frame.attrs["timings"] = {"WEAT": 1.5, "UBE (own process, beside the others)": 3.0, "total": 3.2}
    page = summary.write_html(frame, tmp_path / "summary.html", title="t").read_text(encoding="utf-8")
    assert "WEAT 1.5 s, UBE (own process, beside the others) 3.0 s (total 3.2 s)" in page


def test_a_test_of_two_batteries_gets_a_line_each_in_the_forest_plot():
    from wordbias.battery.summary import forest_plot
    from wordbias.core.tidy import tidy_frame

    rows = [{"embedding": "m", "battery": f"stereoset:{task}:mean", "test": "overall", "measure": "stereoset_ss",
             "effect_size_name": "SS", "effect_size": v, "ci_low": v - 5, "ci_high": v + 5}
            for task, v in (("intrasentence", 60.0), ("intersentence", 50.0))]
    ax = forest_plot(tidy_frame(rows)).axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == 2 and "intrasentence" in labels[0] and "intersentence" in labels[1]
    one = forest_plot(tidy_frame(rows[:1])).axes[0]
    assert [t.get_text() for t in one.get_yticklabels()][0].startswith("overall")


@pytest.mark.parametrize("methods, expected", [
    (["BCa 95%, 10,000 resamples of X, Y"], "a bootstrap interval over the words"),
    (["Clopper-Pearson exact 95%, 12/16 pairs", "paired bootstrap percentile 95%, 10,000 resamples of pairs"],
     "an exact binomial (Clopper-Pearson) interval over the pairs, or a bootstrap interval over the pairs"),
    (["Clopper-Pearson exact 95%, 3/4 comparisons", "bootstrap BCa 95%, 10,000 resamples of examples"],
     "an exact binomial (Clopper-Pearson) interval over the comparisons, or a bootstrap interval over the examples"),
    (["BCa 95%, 10,000 resamples of professions", "BCa 95%, 10,000 resamples of W (with the property) and A, B"],
     "a bootstrap interval over the words"),
])
def test_the_page_names_what_its_intervals_resample(methods, expected):
    import pandas as pd

    from wordbias.battery.summary import _interval_kind

    assert _interval_kind(pd.Series(methods)) == expected
