"""battery.lm and ``wordbias lm``: CrowS-Pairs under each convention as tidy rows, the command's outputs and its
refusals, on the tiny causal model built offline."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

import tiny_causal as tc  # noqa: E402
from tiny_causal import tiny_causal  # noqa: E402, F401

from wordbias import cli  # noqa: E402
from wordbias.battery.lm import crows_pairs_table  # noqa: E402
from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.core.tidy import check_tidy, read_tidy  # noqa: E402

PAIRS = tc.crows_pairs()


def test_each_convention_gives_its_rows_and_the_difference_follows(tiny_causal):
    t = check_tidy(crows_pairs_table([tiny_causal, tiny_causal], pairs=PAIRS, label="tiny"))
    assert set(t.embedding) == {"tiny"} and set(t.paper) == {"nangia2020"}
    for conv in ("harness", "shared-tokens"):
        rows = t[t.battery == f"crows_pairs:{conv}"].set_index("test")
        # overall, the four types present (Holm across them), both directions, the length confound
        assert {"overall", "socioeconomic", "race-color", "gender", "age", "stereo", "antistereo"} <= set(rows.index)
        assert rows.n_x["overall"] == 5 and rows.n_x["gender"] == 2 and rows.coverage["overall"] == "S 5/5"
        types = rows.loc[["socioeconomic", "race-color", "gender", "age"]]
        assert types.p_holm.notna().all() and (types.p_holm >= types.p_value - 1e-12).all()
        assert rows.p_holm[["overall", "stereo", "antistereo"]].isna().all()    # the family is the types
    diff = t[t.measure == "crows_pairs_difference"]
    assert len(diff) == 1 and diff.battery.iloc[0] == "crows_pairs:difference"
    shares = t[t.test == "overall"].set_index("battery").effect_size
    assert diff.effect_size.iloc[0] == pytest.approx(shares["crows_pairs:harness"] - shares["crows_pairs:shared-tokens"])


def test_one_model_per_convention_each_convention_once(tiny_causal):
    with pytest.raises(InvalidParameterError, match="one model per convention"):
        crows_pairs_table([tiny_causal], conventions=["harness", "shared-tokens"], pairs=PAIRS)
    with pytest.raises(InvalidParameterError, match="one model per convention"):
        crows_pairs_table([tiny_causal, tiny_causal], conventions=["harness", "harness"], pairs=PAIRS)


def test_the_command_writes_the_usual_outputs_from_a_sample(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))
    folder = tc.build(tmp_path / "model")
    out = tmp_path / "out"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = cli.main(["lm", str(folder), "--pairs", "18", "--out", str(out), "--quiet", "--label", "tiny"])
    assert code == 0, capsys.readouterr().err
    assert {p.name for p in out.iterdir()} >= {"tidy.csv", "summary.html", "forest.png", "forest.pdf"}
    t = pd.read_csv(out / "tidy.csv")
    overall = t[t.test == "overall"]
    assert len(overall) == 2 and set(overall.n_x) == {18} and set(overall.embedding) == {"tiny"}
    # every bias type is in the stratified sample, at least one pair each
    assert set(t[t.battery == "crows_pairs:harness"].test) >= {"race-color", "age", "disability", "religion"}
    assert "CrowS-Pairs" in (out / "summary.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, message", [
    (["--n-resamples", "500"], "do not apply"),
    (["--convention", "pll", "--convention", "harness"], "not both"),
])
def test_the_command_refuses_options_that_do_not_fit(tmp_path, capsys, argv, message):
    code = cli.main(["lm", "smollm2-135m", "--out", str(tmp_path / "o"), *argv])
    assert code == 1 and message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_the_page_reads_the_catalogue_no_bias_at_one_half(tiny_causal, tmp_path):
    from wordbias.battery.summary import forest_plot, write_html

    t = crows_pairs_table([tiny_causal, tiny_causal], pairs=PAIRS, label="tiny")
    fig = forest_plot(t)
    shares = [ax for ax in fig.axes if ax.get_xlabel() and "share stereotyped" in ax.get_xlabel()][0]
    assert [line.get_xdata()[0] for line in shares.get_lines()] == [0.5]      # no bias is half the pairs, not 0
    difference = [ax for ax in fig.axes if "difference" in ax.get_xlabel()][0]
    assert [line.get_xdata()[0] for line in difference.get_lines()] == [0.0]
    page = write_html(t, tmp_path / "summary.html", title="t").read_text(encoding="utf-8")
    assert "exact binomial (Clopper-Pearson) interval over the pairs" in page and "over the words" not in page


def _stereoset_examples():
    from wordbias.datasets.stereoset import StereoSetExample

    return [StereoSetExample(str(i), "intrasentence", "t", bias, context, *options, ("1", "2", "3"), (5, 5, 5),
                             (5, 5, 5))
            for i, (context, *options, bias) in enumerate([
                ("she is a BLANK", "she is a nurse", "she is a doctor", "she is a drive", "gender"),
                ("the BLANK are lazy", "the poor are lazy", "the rich are lazy", "the well are lazy", "profession"),
                ("BLANK kids are lazy", "black kids are lazy", "white kids are lazy", "drive kids are lazy", "race"),
                ("he is a BLANK", "he is a doctor", "he is a nurse", "he is a well", "profession")])]


def test_stereoset_gives_ss_lms_icat_per_type_and_only_ss_is_tested(tiny_causal):
    from wordbias.battery.lm import stereoset_table

    t = check_tidy(stereoset_table(tiny_causal, [_stereoset_examples()], label="tiny", n_resamples=200))
    assert set(t.battery) == {"stereoset:intrasentence:mean"} and set(t.paper) == {"nadeem2021"}
    assert len(t) == 3 * 4                          # overall and the three types present, three metrics each
    overall = t[t.test == "overall"].set_index("measure")
    assert overall.n_x.tolist() == [4, 4, 4] and set(overall.coverage) == {"S 4/4"}
    assert overall.p_value["stereoset_ss"] > 0 and overall.p_value[["stereoset_lms", "stereoset_icat"]].isna().all()
    ss = t[(t.measure == "stereoset_ss") & (t.test != "overall")]
    assert ss.p_holm.notna().all() and (ss.p_holm >= ss.p_value - 1e-12).all()
    # ICAT = LMS min(SS, 100 - SS) / 50, from the overall rows
    lms, s = overall.effect_size["stereoset_lms"], overall.effect_size["stereoset_ss"]
    assert overall.effect_size["stereoset_icat"] == pytest.approx(lms * min(s, 100 - s) / 50)
    # gender and race hold one example each, profession two (too few for BCa): no ICAT interval, and the note says so
    icat = t[(t.measure == "stereoset_icat") & (t.test != "overall")]
    assert icat.ci_low.isna().all() and icat.note.str.startswith("no bootstrap interval: ").all()
    with pytest.raises(InvalidParameterError, match="each task's examples once"):
        stereoset_table(tiny_causal, [_stereoset_examples()] * 2)


#: six of BEC-Pro's professions, each written as one of the tiny model's words (the model knows no profession)
#: (their shares of women differ in both columns: a tie would leave some resamples without a correlation)
JOBS = {"secretary": "nurse", "electrician": "doctor", "statistician": "people", "dispatcher": "kids",
        "roofer": "poor", "hairdresser": "drive"}


def _job_sentences():
    from wordbias.datasets.bec_pro import BecProSentence

    return [BecProSentence(i, f"{person} is a {word}", "", "", "", "<person subject> is a <profession>.", person,
                           gender, word, "balanced", job)
            for i, (job, word, person, gender) in enumerate(
                (j, w, *g) for j, w in JOBS.items() for g in (("he", "male"), ("she", "female")))]


def test_bec_pro_gives_one_correlation_per_column_over_the_professions_asked(tiny_causal):
    from wordbias.battery.lm import bec_pro_table
    from wordbias.options import Resampling

    sentences = _job_sentences()
    t = check_tidy(bec_pro_table(tiny_causal, sentences, columns=("US", "DE"), label="tiny",
                                 resampling=Resampling(n_resamples=200, seed=1)))
    assert t.test.tolist() == ["US", "DE"] and set(t.measure) == {"bec_pro"} and set(t.paper) == {"bartl2020"}
    # the coverage counts the six professions asked, not BEC-Pro's sixty
    assert set(t.coverage) == {"W 6/6"} and set(t.effect_size_name) == {"spearman correlation"}
    assert ((-1 <= t.ci_low) & (t.ci_low <= t.effect_size) & (t.effect_size <= t.ci_high) & (t.ci_high <= 1)).all()
    assert t.effect_size.nunique() == 2                 # the US and German shares rank the professions apart
    assert set(t.battery) == {"bec_pro:en"}
    with pytest.raises(InvalidParameterError, match="columns must name"):
        bec_pro_table(tiny_causal, sentences, columns=("UK",))


def test_bec_pro_scores_the_sentences_once_for_all_columns(tiny_causal, monkeypatch):
    from wordbias.battery.lm import bec_pro_table
    from wordbias.measures.language_models import bec_pro as bp
    from wordbias.options import Resampling

    sentences = _job_sentences()
    calls = []
    real = bp.causal_associations
    monkeypatch.setattr(bp, "causal_associations", lambda *a, **k: calls.append(1) or real(*a, **k))
    bec_pro_table(tiny_causal, sentences, columns=("US", "DE"), resampling=Resampling(n_resamples=100))
    assert len(calls) == 1


@pytest.mark.parametrize("benchmark, sample, tests", [
    ("stereoset", "8", {"overall", "gender", "profession", "race", "religion"}),
    ("bec-pro", "12", {"US"}),
])
def test_the_command_runs_each_benchmark_on_a_sample(tmp_path, capsys, monkeypatch, benchmark, sample, tests):
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))
    folder = tc.build(tmp_path / "model")
    out = tmp_path / "out"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bec_pro = ["--columns", "US", "--persons", "all"] if benchmark == "bec-pro" else []
        code = cli.main(["lm", str(folder), "--benchmark", benchmark, "--sample", sample, "--n-resamples", "200",
                         "--out", str(out), "--quiet", "--label", "tiny", *bec_pro])
    assert code in (0, 3), capsys.readouterr().err  # 3: a type of one example has no ICAT interval (run in part)
    assert {p.name for p in out.iterdir()} >= {"tidy.csv", "summary.html", "forest.png", "forest.pdf"}
    t = read_tidy(out / "tidy.csv")                 # the schema's check included
    assert set(t.test) == tests and set(t.embedding) == {"tiny"}
    if benchmark == "stereoset":                    # both tasks of a causal model, N examples each
        assert set(t.battery) == {"stereoset:intrasentence:mean", "stereoset:intersentence:mean"}
        assert set(t[t.test == "overall"].n_x) == {8}
    else:
        assert t.coverage.tolist() == [f"W {sample}/{sample}"]
    name = {"stereoset": "StereoSet", "bec-pro": "BEC-Pro"}[benchmark]
    assert name in (out / "summary.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("argv, message", [
    (["--benchmark", "stereoset", "--convention", "harness"], "--convention applies to --benchmark crows-pairs"),
    (["--benchmark", "bec-pro", "--n-permutations", "500"], "--n-permutations does not apply"),
    (["--benchmark", "bec-pro", "--sample", "3"], "--sample 3 is too small for bec-pro"),
    (["--sample", "8"], "--sample 8 is too small for crows-pairs"),
])
def test_the_command_refuses_what_does_not_fit_the_benchmark(tmp_path, capsys, argv, message):
    code = cli.main(["lm", "smollm2-135m", "--out", str(tmp_path / "o"), *argv])
    assert code == 1 and message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_bec_pro_interval_the_resamples_cannot_make_is_noted_as_missing():
    from wordbias.measures.language_models.bec_pro import correlation
    from wordbias.options import Resampling

    # six professions: about 1 in 7,800 resamples draws one profession six times, which has no correlation
    assoc = {"a": 1.0, "b": 2.0, "c": 2.0, "d": 3.0, "e": 0.5, "f": 0.1}
    share = {"a": 10.0, "b": 20.0, "c": 30.0, "d": 40.0, "e": 50.0, "f": 60.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = correlation(assoc, share, resampling=Resampling(n_resamples=10_000, seed=0))
    assert pd.isna(r.ci_low) and r.notes[0].startswith("no bootstrap interval: ")
    assert r.to_row({"embedding": "m", "paper": "bartl2020", "battery": "b"})["note"].startswith("no bootstrap")
