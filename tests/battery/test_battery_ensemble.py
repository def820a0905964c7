"""Batteries on an ensemble: the runs' rows, one combined row per test, the same in parallel, and compare."""
import warnings

import numpy as np
import pandas as pd
import pytest

from wordbias.battery import compare as battery_compare
from wordbias.battery import ensemble as battery_ensemble
from wordbias.core import tidy
from wordbias.embeddings import cache, to_keyed_vectors
from wordbias.embeddings.ensemble import load_ensemble
from wordbias.measures import ensemble as measures_ensemble
from wordbias.measures.association import measurement

WORDS = ["rose", "tulip", "lily", "daisy", "ant", "wasp", "moth", "flea",
         "love", "joy", "peace", "cheer", "hate", "war", "ugly", "grief"]
SPECS = [{"id": "flowers", "X": WORDS[:4], "Y": WORDS[4:8], "A": WORDS[8:12], "B": WORDS[12:]},
         {"id": "swapped", "X": WORDS[4:8], "Y": WORDS[:4], "A": WORDS[8:12], "B": WORDS[12:]}]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Three runs saved as cache folders (what `wordbias train` writes): paths travel to worker processes."""
    rng = np.random.default_rng(0)
    base = rng.normal(size=(16, 10))
    base[:4, 0] += 2
    base[8:12, 0] += 2
    root = tmp_path_factory.mktemp("runs")
    return [str(cache.save(to_keyed_vectors(WORDS, (base + rng.normal(0, .3, base.shape)).astype(np.float32)),
                           root / f"run{i}")) for i in range(3)]


def R(n_resamples: int):
    """The measures' own resampling with ``n_resamples`` bootstrap resamples."""
    return measurement.DEFAULT_RESAMPLING.replace(n_resamples=n_resamples)


def quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


def test_weat_battery_rows_are_views_of_the_ensemble_measurement(folders):
    ens = load_ensemble(folders, label="toy")
    t = quiet(battery_ensemble.weat_battery, ens, SPECS, battery="user:toy", resampling=R(300))
    tidy.check_tidy(t)
    assert list(t.embedding) == [f"toy/{r}" for r in ens.runs for _ in SPECS] + ["toy", "toy"]
    measured = quiet(measures_ensemble.on_runs, measurement.weats, ens, SPECS, resampling=R(300))
    combined = battery_ensemble.combined_only(t)
    assert combined.effect_size.tolist() == [m.effect_size for m in measured]
    assert combined.ci_low.tolist() == [m.ci_low for m in measured]
    assert combined.effect_size[0] == pytest.approx(-combined.effect_size[1])
    assert combined.p_holm.notna().all() and "combined p" in combined.p_family[0]
    assert "runs significant" in combined.note[0] and "test-retest ICC(2,1)" in combined.note[0]
    summary = t.attrs["ensemble"]
    assert list(summary.test) == ["flowers", "swapped"] and (summary.n_runs == 3).all()


def test_parallel_runs_give_the_same_table(folders):
    one = quiet(battery_ensemble.weat_battery, folders, SPECS, battery="user:toy", label="toy", resampling=R(200))
    two = quiet(battery_ensemble.weat_battery, folders, SPECS, battery="user:toy", label="toy", resampling=R(200),
                workers=2)
    pd.testing.assert_frame_equal(one, two)


def test_report_on_an_ensemble_combines_each_test_from_the_runs_rows(folders):
    t = quiet(battery_ensemble.report, folders, label="toy", ube=False, n_resamples=100)
    runs = t[t.embedding != "toy"]
    combined = battery_ensemble.combined_only(t)
    assert len(runs) == 3 * len(combined)
    # the toy words are WEAT1's (flowers, insects, pleasant, unpleasant) and none of the other tests'
    weat1 = combined[combined.test == "WEAT1"].iloc[0]
    rows1 = runs[runs.test == "WEAT1"]
    assert weat1.effect_size == pytest.approx(rows1.effect_size.mean()) and "mean of 3 runs" in weat1.note
    others = combined[combined.test != "WEAT1"]
    assert others.effect_size.isna().all() and others.note.str.contains("ran in 0 of 3 runs").all()


def test_combine_rows_uses_combine_runs():
    rows = [{"embedding": f"e/r{i}", "battery": "b", "test": "T", "measure": "weat", "effect_size_name": "d",
             "effect_size": d, "ci_low": d - w, "ci_high": d + w, "ci_level": 0.95, "p_value": 0.01,
             "alternative": "greater", "n_x": n, "n_y": 8} for i, (d, w, n) in enumerate([(1.0, .5, 8), (.6, .4, 7),
                                                                                           (.8, .45, 8)])]
    row = battery_ensemble.combine_rows(tidy.tidy_frame(rows), label="e").iloc[0]
    c = measures_ensemble.combine_runs([1.0, .6, .8], [.5, .2, .35], [1.5, 1.0, 1.25])
    assert (row.effect_size, row.ci_low, row.ci_high) == pytest.approx((c.estimate, c.ci_low, c.ci_high))
    assert row.n_x == 7 and row.p_value == pytest.approx(c.p_value("greater"))


def test_a_test_without_an_effect_size_that_ran_is_summed_up_not_called_not_run():
    """UBE gives its significant cells and a p, no effect size: an ensemble row said "not run: ran in 0 of 2 runs"
    for a UBE that had run in both (found training two Brown runs as a new user)."""
    base = {"battery": "swinger2019", "test": "UBE:first_names", "measure": "ube", "statistic_name": "significant cells"}
    rows = [{**base, "embedding": "e/seed-1", "statistic": 37.0, "p_value": 0.001, "note": "37 of 37 cells"},
            {**base, "embedding": "e/seed-2", "statistic": 30.0, "p_value": 0.2, "note": "30 of 37 cells"},
            {**base, "embedding": "e/seed-3", "note": "not run: DegenerateSetError: too few names"}]
    row = battery_ensemble.combine_rows(tidy.tidy_frame(rows), label="e").iloc[0]
    assert row.statistic == pytest.approx(33.5) and pd.isna(row.effect_size) and pd.isna(row.p_value)
    assert not row.note.startswith(tidy.NOT_RUN) and tidy.not_run(tidy.tidy_frame([row.to_dict()])).empty
    assert "37 (seed-1), 30 (seed-2)" in row.note and "p < 0.05 in 1 of 2 runs" in row.note
    assert "1 of 3 runs could not run it" in row.note
    # in one run only: still nothing to summarise across runs
    one = battery_ensemble.combine_rows(tidy.tidy_frame(rows[:1] + rows[2:]), label="e").iloc[0]
    assert one.note.startswith(tidy.NOT_RUN)


def test_compare_takes_an_ensemble_beside_an_embedding(folders, tmp_path):
    from wordbias.datasets.stimuli import as_weat_spec
    from wordbias.datasets.user_lists import UserLists

    lists = UserLists(battery="toy", weat=tuple(as_weat_spec(s) for s in SPECS))
    ens = load_ensemble(folders, label="ens")
    t = quiet(battery_compare.compare, {"ens": ens, "one": folders[0]}, lists=lists, n_resamples=200)
    assert list(t.embedding) == ["ens", "ens", "one", "one"]
    assert t.p_method[0] == "combined t over runs" and "combined" not in t.p_method[2]


def test_runs_figure_draws_every_run(folders):
    t = quiet(battery_ensemble.weat_battery, folders, SPECS, battery="user:toy", label="toy", resampling=R(200))
    fig = battery_ensemble.runs_figure(t)
    ax = fig.axes[0]
    assert [tick.get_text() for tick in ax.get_yticklabels()] == ["swapped", "flowers"]
    dots = [line for line in ax.get_lines() if line.get_marker() == "o"]
    assert len(dots) == 3 * 2



@pytest.fixture(scope="module")
def one_run(tmp_path_factory):
    """What `wordbias train CORPUS --seeds 1` writes (tiny settings): a manifest of one run (a list of one
    embedding is refused as an ensemble; a manifest of one run is what a user gets)."""
    from wordbias.models.train import TrainingSettings, train_ensemble

    root = tmp_path_factory.mktemp("one")
    return train_ensemble("inaugural", root / "ens", settings=TrainingSettings(vector_size=10, epochs=1), seeds=1,
                          bootstrap=0, workers=1, progress=False, cache_dir=root / "cache")


NATION = [{"id": "nation", "X": ["he", "him", "his", "man"], "Y": ["she", "her", "woman", "women"],
           "A": ["war", "army", "force"], "B": ["peace", "home", "family"]},
          {"id": "unknown", "X": ["zzzq", "yyyq"], "Y": ["she", "her"], "A": ["war"], "B": ["peace"]}]


def test_one_run_gives_the_runs_own_result_once_not_a_not_run(one_run, folders):
    """A user who trained one run and measures its folder gets each test once, the run's own estimate, interval
    and p, with a note that the interval is over words only (it was 'not run: 2 needed to combine' for every
    test); a test the run cannot measure keeps the run's own reason."""
    from wordbias.embeddings import load
    from wordbias.measures.association import measurement

    ens = load_ensemble(one_run, label="one")
    t = quiet(battery_ensemble.weat_battery, ens, NATION, battery="user:toy", resampling=R(300))
    tidy.check_tidy(t)
    assert list(t.embedding) == ["one", "one"] and list(t.test) == ["nation", "unknown"]
    alone = quiet(measurement.weats, load(ens.sources[0], progress=False), NATION[:1], resampling=R(300))[0]
    assert (t.effect_size[0], t.ci_low[0], t.ci_high[0], t.p_value[0]) == \
        (alone.effect_size, alone.ci_low, alone.ci_high, alone.p_value)
    assert t.note[0].startswith(battery_ensemble.ONE_RUN_NOTE) and pd.notna(t.p_holm[0])
    assert pd.isna(t.effect_size[1]) and t.note[1].startswith(tidy.NOT_RUN) and "combine" not in t.note[1]
    r = quiet(battery_ensemble.report, ens, ube=False, n_resamples=100)
    assert set(r.embedding) == {"one"} and not r.note.str.contains("needed to combine", na=False).any()
    # two runs: still combined
    two = quiet(battery_ensemble.weat_battery, folders[:2], SPECS, battery="user:toy", label="two", resampling=R(100))
    assert "runs significant" in battery_ensemble.combined_only(two).note[0]


def test_the_command_on_one_run_says_what_its_interval_is(one_run, tmp_path, capsys):
    from wordbias.cli import main

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        status = main(["weat", str(one_run.parent), "--out", str(tmp_path / "out"), "--n-resamples", "200"])
    out = capsys.readouterr().out
    assert status in (0, 3) and "an ensemble of one training run" in out and "combined over the runs" not in out
    written = pd.read_csv(tmp_path / "out" / "tidy.csv")   # Caliskan's lists: the tiny corpus lacks most words
    assert written.embedding.nunique() == 1 and len(written) == 10
    assert not written.note.str.contains("needed to combine", na=False).any()


def test_compare_with_an_ensemble_writes_its_page(one_run, folders, tmp_path):
    """compare's timings nest one level deeper for an ensemble (embedding -> run -> part): the page listed them as
    if they were flat and `wordbias compare DIR other` stopped with 'unsupported format string passed to dict'."""
    from wordbias.battery import summary

    t = quiet(battery_compare.compare, {"ens": str(one_run), "emb": folders[0]}, ube=False, n_resamples=50)
    quiet(summary.write_html, t, tmp_path / "s.html", title="t", figure_dir=tmp_path)
    html = (tmp_path / "s.html").read_text()
    assert "time ens/seed-" in html and "time emb" in html


def test_the_page_of_an_ensemble_names_its_runs_and_what_its_intervals_cover(folders, tmp_path):
    """The page said "embedding: ube = True" for an ensemble, counted its rows as tests and called every interval one
    over the words; a plain embedding's page keeps its vocabulary line and says nothing of runs."""
    from wordbias.battery import summary
    from wordbias.battery.report import report

    t = quiet(battery_ensemble.report, folders, label="toy", ube=False, n_resamples=50)
    quiet(summary.write_html, t, tmp_path / "e.html", title="t")
    html = (tmp_path / "e.html").read_text()
    assert "<dt>ensemble</dt><dd>toy: 3 training runs (" in html and "UBE left out" in html
    assert "ube = " not in html and "over the words and the training runs" in html
    assert f"{len(t)} rows (" in html and "tests on 4 embeddings, training runs and ensembles combined" in html
    from wordbias.embeddings import load

    one = quiet(report, load(folders[0]), label="one", ube=False, n_resamples=50, progress=False)
    quiet(summary.write_html, one, tmp_path / "o.html", title="o")
    page = (tmp_path / "o.html").read_text()
    assert "training runs" not in page and "vocabulary = 16, dimension = 10" in page and f"{len(one)} tests," in page


def test_on_runs_table_leads_with_the_combined_row_and_keeps_the_weat_extras(folders):
    from wordbias import weat

    spec = SPECS[0]
    t = quiet(battery_ensemble.on_runs, weat, folders, spec["X"], spec["Y"], spec["A"], spec["B"], label="toy",
              resampling=R(200))
    assert t.embedding.iloc[0] == "toy" and len(t) == 4 and not battery_ensemble.run_rows(t)[0]
    assert t.effect_size.iloc[0] == pytest.approx(t.effect_size.iloc[1:].mean())
    summary = t.attrs["ensemble"]
    assert len(summary) == 1 and summary.n_runs[0] == 3 and 0 < summary.test_retest[0] <= 1
    assert "one word bootstrap of 200 resamples" in summary.ci_method[0]
