"""papers.training_runs: the notebook's tables and figure as views of one measurement of an ensemble, on small
synthetic ensembles (seed runs and bootstrap runs told apart), and one tiny trained ensemble end to end."""

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from wordbias.battery.ensemble import weat_battery
from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError, WordbiasWarning
from wordbias.embeddings import to_keyed_vectors
from wordbias.embeddings.ensemble import Ensemble, load_ensemble
from wordbias.measures import ensemble as ens_measures
from wordbias.measures.association.measurement import DEFAULT_RESAMPLING, weats
from wordbias.models.train import TrainingSettings, train_ensemble
from wordbias.papers import outputs, training_runs

X = ["rose", "tulip", "lily", "daisy", "iris"]
Y = ["ant", "wasp", "moth", "flea", "gnat"]
A = ["love", "joy", "peace"]
B = ["hate", "war", "pain"]
SPEC = {"id": "flowers", "title": "Flowers vs insects", "X": X, "Y": Y, "A": A, "B": B,
        "names": {"X": "Flowers", "Y": "Insects", "A": "Pleasant", "B": "Unpleasant"}}


def _base():
    """A 4-d embedding with X near A and Y near B along the first axis."""
    rng = np.random.default_rng(7)
    words = X + Y + A + B + ["filler"]
    base = rng.normal(0, 1, (len(words), 4))
    base[:5, 0] += 1.0
    base[5:10, 0] -= 1.0
    base[10:13, 0] += 3.0
    base[13:16, 0] -= 3.0
    return words, base


def _ensemble(n_seed=3, n_boot=3, *, seed_noise=0.05, boot_noise=0.4, drop=None):
    """Seed runs with little noise, bootstrap runs with more; ``drop``: a word the first bootstrap run lacks."""
    words, base = _base()
    rng = np.random.default_rng(11)
    sources, runs, kinds = [], [], []
    for kind, n, noise in (("seed", n_seed, seed_noise), ("bootstrap", n_boot, boot_noise)):
        for i in range(n):
            w, v = list(words), base + rng.normal(0, noise, base.shape)
            if drop and kind == "bootstrap" and i == 0:
                keep = [j for j, x in enumerate(w) if x != drop]
                w, v = [w[j] for j in keep], v[keep]
            sources.append(to_keyed_vectors(w, v))
            runs.append(f"{kind}-{i + 1}")
            kinds.append(kind)
    return Ensemble(label="toy", runs=tuple(runs), kinds=tuple(kinds), sources=tuple(sources))


@pytest.fixture(scope="module")
def toy():
    return _ensemble(drop="iris")


@pytest.fixture(scope="module")
def measured(toy):
    specs, coverage = training_runs.shared_lists(toy, [SPEC])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        frame = weat_battery(toy, specs, battery="user:toy", paper="user",
                             resampling=DEFAULT_RESAMPLING.replace(n_resamples=500))
    return specs, coverage, frame


def test_the_committed_ensemble_writes_to_the_repository_and_others_to_runs():
    assert training_runs.output_label(3, 3) == "brown" and training_runs.output_label(5, 5) == "brown-s5-b5"
    assert outputs.output_folders("training_runs", "brown").committed
    assert not outputs.output_folders("training_runs", training_runs.output_label(3, 2)).committed
    assert outputs.output_folders("training_runs", "brown").results == paths.RESULTS / "training_runs" / "brown"
    with pytest.raises(InvalidParameterError):
        training_runs.output_label(-1, 5)


def test_shared_lists_keep_the_words_every_run_knows_and_say_what_was_left_out(measured):
    specs, coverage, _ = measured
    assert specs[0].X == ("rose", "tulip", "lily", "daisy")          # iris: missing from one bootstrap run
    assert specs[0].Y == tuple(Y) and specs[0].title == SPEC["title"]
    x = coverage[coverage.set == "X"].iloc[0]
    assert (x.asked, x.in_every_run, x.in_some_runs, x.in_no_run) == (5, 4, 1, 0)
    assert x.missing_in_some == "iris" and bool(x.runs)
    assert coverage.set.tolist() == ["X", "Y", "A", "B"]


def test_shared_lists_fold_case_for_an_uncased_vocabulary_and_flag_a_test_that_cannot_run(toy):
    spec = {"id": "t", "X": ["Rose", "TULIP", "mole"], "Y": ["ant", "vole"], "A": ["love"], "B": ["hate"]}
    [s], cov = training_runs.shared_lists(toy, [spec])
    assert s.X == ("rose", "tulip") and s.Y == ("ant",)
    assert not cov.runs.any()
    y = cov[cov.set == "Y"].iloc[0]
    assert y.missing_in_all == "vole" and bool(y.low_coverage)
    assert "cannot run: Y keeps 1 of 2" in training_runs.coverage_notes(cov)
    [kept], _ = training_runs.shared_lists(toy, [spec], case_fold=False)
    assert kept.X == ()                                              # no run knows "Rose" or "TULIP"


def test_runs_table_is_a_view_of_the_run_rows_with_the_kinds(toy, measured):
    _, _, frame = measured
    runs = training_runs.runs_table(frame, toy)
    rows = frame[frame.embedding.str.contains("/")]
    assert runs.run.tolist() == list(toy.runs) and runs.kind.tolist() == list(toy.kinds)
    np.testing.assert_array_equal(runs.effect_size.to_numpy(), rows.effect_size.to_numpy(float))
    np.testing.assert_array_equal(runs.p_value, rows.p_value.to_numpy(float))
    np.testing.assert_array_equal(runs.p_two_sided, rows.p_two_sided.to_numpy(float))
    assert not any(c.startswith("significant") for c in runs.columns)       # p < alpha is asked where it is counted
    assert (runs.n_x == 4).all() and (runs.n_y == 4).all()           # 5 insects balanced to 4 flowers


def test_ensemble_table_reads_the_summary_and_adds_the_spread_by_kind(toy, measured):
    _, _, frame = measured
    runs = training_runs.runs_table(frame, toy)
    table = training_runs.ensemble_table(frame, toy)
    summary = frame.attrs["ensemble"].iloc[0]
    row = table.iloc[0]
    for column in ("effect_size", "ci_low", "ci_high", "p_value", "test_retest", "effect_size_sd"):
        assert row[column] == summary[column]
    assert row.sd_seed == pytest.approx(runs.effect_size[runs.kind == "seed"].std(ddof=1))
    assert row.sd_bootstrap == pytest.approx(runs.effect_size[runs.kind == "bootstrap"].std(ddof=1))
    assert row.share_significant == (runs.p_value < 0.05).mean()
    assert row.share_significant_two_sided == (runs.p_two_sided < 0.05).mean()
    c = ens_measures.combine_runs(runs.effect_size, runs.ci_low, runs.ci_high,
                                  within_variance=summary.within_variance)
    assert row.p_two_sided == pytest.approx(c.p_value("two-sided"))
    assert (row.effect_size, row.ci_low, row.ci_high) == pytest.approx((c.estimate, c.ci_low, c.ci_high))
    bare = frame.copy()
    bare.attrs = {}
    with pytest.raises(InvalidParameterError, match="attrs"):
        training_runs.ensemble_table(bare, toy)


def test_bootstrap_runs_spread_more_here_and_the_ratio_has_its_f_interval(toy, measured):
    _, _, frame = measured
    runs = training_runs.runs_table(frame, toy)
    spread = training_runs.spread_table(runs).iloc[0]
    s = runs.effect_size[runs.kind == "seed"].to_numpy()
    b = runs.effect_size[runs.kind == "bootstrap"].to_numpy()
    ratio = b.var(ddof=1) / s.var(ddof=1)
    assert spread.variance_ratio == pytest.approx(ratio) and ratio > 1
    assert spread.ratio_low == pytest.approx(ratio / stats.f.ppf(0.975, 2, 2))
    assert spread.ratio_high == pytest.approx(ratio / stats.f.ppf(0.025, 2, 2))
    shown = training_runs.show_spread(training_runs.spread_table(runs), training_runs.reliability_by_kind(toy, [SPEC]))
    assert list(shown.index) == ["flowers"]


def test_spread_table_skips_a_test_without_two_runs_of_each_kind():
    r = pd.DataFrame({"test": ["T", "T", "T"], "kind": ["seed", "seed", "bootstrap"], "effect_size": [1, 2, 3.0]})
    assert training_runs.spread_table(r).empty


def test_reliability_by_kind_measures_each_kind_as_an_ensemble(toy, measured):
    specs, _, _ = measured
    rel = training_runs.reliability_by_kind(toy, specs, seed=0)
    assert rel.kind.tolist() == ["seed", "bootstrap"] and (rel.n_runs == 3).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        [seed_only] = ens_measures.on_runs(weats, toy.subset("seed"), specs,
                                           resampling=DEFAULT_RESAMPLING.replace(n_resamples=0))
    assert rel.test_retest.iloc[0] == pytest.approx(seed_only.test_retest)
    assert rel.test_retest.iloc[0] > rel.test_retest.iloc[1]          # less noise across seeds
    table = training_runs.with_reliability(training_runs.ensemble_table(measured[2], toy), rel)
    assert table.test_retest_seed.iloc[0] == rel.test_retest.iloc[0]


def test_the_figure_draws_every_run_in_its_kinds_colour(toy, measured):
    import matplotlib
    import matplotlib.pyplot as plt

    _, _, frame = measured
    fig = training_runs.runs_figure(frame, toy, title="toy")
    ax = fig.axes[0]
    dots = [line for line in ax.lines if line.get_marker() == "o"]
    colours = [matplotlib.colors.to_hex(d.get_color()) for d in dots]
    assert colours.count(matplotlib.colors.to_hex("tab:blue")) == 3
    assert colours.count(matplotlib.colors.to_hex("tab:orange")) == 3
    assert sorted(round(float(d.get_xdata()[0]), 9) for d in dots) == sorted(
        round(float(v), 9) for v in training_runs.runs_table(frame, toy).effect_size)
    assert any("of 6 runs" in t.get_text() for t in ax.texts)
    with pytest.raises(InvalidParameterError):
        training_runs.runs_figure(frame, toy, tests=["nope"])
    plt.close(fig)


def _runs(test, ps, two, ds):
    n = len(ps)
    return pd.DataFrame({"test": [test] * n, "run": [f"seed-{i + 1}" for i in range(n)], "kind": ["seed"] * n,
                         "effect_size": ds, "p_value": ps, "p_two_sided": two})


def _table(test, d, low, high, n):
    return pd.DataFrame([{"test": test, "title": "a test", "n_runs": n, "effect_size": d, "ci_low": low,
                          "ci_high": high, "effect_size_min": -1.0, "effect_size_max": 1.0}])


def test_disagreement_notes_name_a_run_that_says_significant_and_one_that_does_not():
    runs = _runs("T", [0.01, 0.2, 0.6], [0.02, 0.4, 0.8], [1.2, 0.5, 0.1])
    text = training_runs.disagreement_notes(runs, _table("T", 0.6, -0.2, 1.4, 3))
    assert "run seed-1 alone says *significant*" in text and "run seed-3 says not" in text
    assert "1 of 3 runs are significant in the paper's direction" in text and "which includes 0" in text
    agree = _runs("T", [0.01, 0.02], [0.02, 0.04], [1.2, 1.1])
    text = training_runs.disagreement_notes(agree, _table("T", 1.15, 0.5, 1.8, 2))
    assert "every run is significant" in text and "which excludes 0" in text
    reversed_ = _runs("T", [0.99, 0.6], [0.01, 0.8], [-1.4, -0.2])
    text = training_runs.disagreement_notes(reversed_, _table("T", -0.8, -2, 0.4, 2))
    assert "two-sided p = 0.01, against the paper's direction" in text


def test_report_and_paper_notes_are_built_from_the_tables(toy, measured):
    _, _, frame = measured
    runs = training_runs.runs_table(frame, toy)
    table = training_runs.ensemble_table(frame, toy)
    rel = training_runs.reliability_by_kind(toy, [SPEC])
    report = training_runs.report_notes(table, n_seed=3, n_bootstrap=3)
    assert f"mean d = {table.effect_size.iloc[0]:.2f}".replace("-", "−") in report
    assert "6 runs (3 seeds, 3 bootstrap samples of the documents)" in report
    notes = training_runs.paper_notes(table, training_runs.spread_table(runs), rel, tests=["flowers"])
    assert "in 1 of the 1 tests that ran" in notes and f"flowers {table.test_retest.iloc[0]:.2f}" in notes
    assert "Antoniak & Mimno (2018)" in notes and "Du, Fang & Nguyen (2021)" in notes


def test_the_tidy_table_of_two_batteries_keeps_both_and_drops_the_attrs(toy, measured):
    _, _, frame = measured
    other = frame.copy()
    other["battery"] = "user:other"
    other.attrs = dict(frame.attrs)
    both = training_runs.tidy_table(frame, other)
    assert len(both) == 2 * len(frame) and both.attrs == {}
    assert "ensemble" in frame.attrs                                  # the caller's table is left as it was


def test_balancing_notes_name_the_words_left_out(measured):
    _, _, frame = measured
    assert training_runs.balancing_notes(frame).startswith("* **flowers**: Y balanced out:")


def test_manifest_summary_and_timings_read_the_files_train_ensemble_writes(tmp_path):
    out = tmp_path / "ens"
    settings = TrainingSettings(vector_size=8, epochs=1)
    manifest = train_ensemble("inaugural", out, settings=settings, seeds=2, bootstrap=1, workers=1, progress=False,
                              cache_dir=tmp_path / "cache")
    summary = training_runs.manifest_summary(manifest).set_index("what").value
    assert summary["corpus"] == "inaugural: 59 documents, 137,751 tokens, lower-cased"
    assert summary["corpus SHA-256 (its documents as read)"] == json.loads(manifest.read_text())["corpus"]["sha256"]
    assert summary["vocabulary (min_count 5)"].startswith("seed runs: 2,744 words; bootstrap runs: ")
    assert "2 seed runs on the whole corpus (training seeds 1-2); 1 bootstrap runs" in summary["runs"]
    overview = training_runs.runs_overview(manifest)
    assert overview.index.tolist() == ["seed-1", "seed-2", "bootstrap-1"]
    assert overview.training_seed.tolist()[:2] == [1, 2] and pd.isna(overview.sample_seed.iloc[0])
    assert "vectors_sha256" not in training_runs.runs_overview(manifest, checksums=False)
    assert training_runs.training_note(manifest, 1.5).startswith("3 of 3 runs trained now")
    again = train_ensemble("inaugural", out, settings=settings, seeds=2, bootstrap=1, workers=1, progress=False,
                           cache_dir=tmp_path / "cache")
    assert training_runs.training_note(again, 0.1).startswith("all 3 runs read from the cache")


def test_a_tiny_trained_ensemble_end_to_end(tmp_path):
    """Training (inaugural addresses, 10-d, one epoch), the shared lists, the measurement, every view."""
    manifest = train_ensemble("inaugural", tmp_path / "ens", settings=TrainingSettings(vector_size=10, epochs=1),
                              seeds=2, bootstrap=2, workers=1, progress=False, cache_dir=tmp_path / "cache")
    ens = load_ensemble(manifest, label="inaugural")
    spec = {"id": "nation", "X": ["he", "him", "his", "man"], "Y": ["she", "her", "woman", "women"],
            "A": ["war", "army", "force"], "B": ["peace", "home", "family"]}
    [s], cov = training_runs.shared_lists(ens, [spec])
    assert bool(cov.runs.all())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        frame = weat_battery(ens, [s], battery="user:tiny", paper="user",
                             resampling=DEFAULT_RESAMPLING.replace(n_resamples=200))
    runs = training_runs.runs_table(frame, ens)
    assert runs.kind.tolist() == ["seed", "seed", "bootstrap", "bootstrap"]
    table = training_runs.ensemble_table(frame, ens)
    assert table.n_runs.iloc[0] == 4 and math.isfinite(table.ci_low.iloc[0])
    assert list(training_runs.show_ensemble(table).index) == ["nation nation"]
    assert training_runs.show_runs(runs).shape == (4, 1)


def test_period_coverage_counts_the_words_of_each_period_without_training():
    from wordbias.datasets.corpora import read_corpus

    spec = {"id": "t", "X": ["he", "him"], "Y": ["she", "hers"], "A": ["war"], "B": ["peace"]}
    periods = {"early": ("17*", "18[0-4]*"), "late": ("19[5-9]*",)}
    cov = training_runs.period_coverage([spec], periods=periods, corpus="inaugural")
    assert cov.period.tolist() == ["early", "late"]
    for row, patterns in zip(cov.itertuples(), periods.values()):
        counts = read_corpus("inaugural", select=list(patterns)).word_counts
        for role in "XYAB":
            kept = sum(counts.get(w, 0) >= 5 for w in spec[role])
            assert getattr(row, role) == f"{kept}/{len(spec[role])}"
    assert cov.missing.tolist() == ["Y", "X, Y"] and not cov.runs.any()       # "she" is rare in the addresses
    note = training_runs.period_notes(cov)
    assert note.startswith("**Left out.**") and "t: X, Y" in note
    assert "could run in both periods" in training_runs.period_notes(cov.assign(runs=True))


def test_the_notebook_source_holds_no_function_and_takes_the_parameters():
    nb = json.loads((paths.ROOT / "notebooks/src/training_runs.ipynb").read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert not any("def " in c or "lambda" in c for c in code)
    [params] = [c for c in nb["cells"] if "parameters" in c["metadata"].get("tags", [])]
    text = "".join(params["source"])
    for name in (f"seeds = {training_runs.DEFAULT_SEEDS}", f"bootstrap = {training_runs.DEFAULT_BOOTSTRAP}",
                 "seed = 0", "n_resamples", "output = None"):
        assert name in text
    timing = [c for c in nb["cells"] if "timing" in c["metadata"].get("tags", [])]
    assert len(timing) == 1 and "nbval-ignore-output" in timing[0]["metadata"]["tags"]


@pytest.mark.parametrize(("rel", "column"), [("results/training_runs/brown/runs.csv", "effect_size"),
                                             ("results/training_runs/brown/runs.csv", "p_two_sided"),
                                             ("results/training_runs/brown/ensemble.csv", "ci_low"),
                                             ("results/training_runs/brown/ensemble.csv", "test_retest"),
                                             ("results/training_runs/brown/tidy.csv", "p_holm")])
def test_the_stated_tolerances_of_the_outputs_catch_a_change_beyond_them(rel, column):
    """The rules of tools/repro_tolerances.yaml for this notebook's outputs: a cell moved by half its tolerance
    passes, by twice fails."""
    import io

    from tools import repro, tolerances

    path = paths.ROOT / rel
    if not path.exists():
        pytest.skip(f"{rel} not generated")
    tol = tolerances.load_tolerances(tolerances.DEFAULT_TOLERANCES)
    committed = path.read_bytes()
    frame = pd.read_csv(io.BytesIO(committed))
    row = int(frame[column].notna().to_numpy().argmax())
    rule = tol.rule_for(rel, column)
    assert rule.files.startswith("results/training_runs/")
    step = rule.atol + rule.rtol * abs(frame.loc[row, column])
    for factor, expected in ((0.5, "within tolerance"), (2.0, "different")):
        moved = frame.copy()
        moved.loc[row, column] = frame.loc[row, column] + factor * step
        now = moved.to_csv(index=False, float_format="%.10g").encode()
        assert repro.compare_file(rel, committed, now, tol).status == expected, (column, factor)


def test_the_tidy_text_may_change_its_numbers_not_its_words():
    import io

    from tools import repro, tolerances

    rel = "results/training_runs/brown/tidy.csv"
    path = paths.ROOT / rel
    if not path.exists():
        pytest.skip(f"{rel} not generated")
    tol = tolerances.load_tolerances(tolerances.DEFAULT_TOLERANCES)
    committed = path.read_bytes()
    frame = pd.read_csv(io.BytesIO(committed), keep_default_na=True)
    notes = frame.note.astype(str)
    row = int(notes.str.startswith("mean of").to_numpy().argmax())
    note = notes[row]
    assert frame.loc[row, "p_method"] == "combined t over runs"        # no run-dependent number in p_method
    sd = note.split("sd ")[1].split(" ")[0]
    for text, expected in ((note.replace(f"sd {sd} ", "sd 9.99 ", 1), "within tolerance"),
                           (note.replace("mean of", "median over").replace("across runs", "between corpora")
                            .replace("range", "span").replace("significant", "rejected"), "different")):
        moved = frame.copy()
        moved.loc[row, "note"] = text
        now = moved.to_csv(index=False, float_format="%.6g").encode()
        assert repro.compare_file(rel, committed, now, tol).status == expected, text
