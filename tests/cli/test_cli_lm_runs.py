"""``wordbias lm`` over several models: the jobs in local processes write the same table as one by one, BEC-Pro's
options choose the sentences and the columns, and bad options are refused before any work, naming the option."""

from __future__ import annotations

import sys
import warnings

import pandas as pd
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

import tiny_causal as tc  # noqa: E402

from wordbias import cli  # noqa: E402
from wordbias.core.tidy import read_tidy  # noqa: E402


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Two tiny causal models of different weights, in the folders ``one`` and ``two``."""
    root = tmp_path_factory.mktemp("cli-lm-runs")
    return [str(tc.build(root / name, seed=seed)) for name, seed in (("one", 0), ("two", 1))]


def _lm(argv, capsys) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = cli.main(["lm", *argv, "--quiet"])
    assert code in (0, 3), capsys.readouterr().err
    return code


def test_two_models_write_each_model_s_rows_and_their_difference(folders, tmp_path, capsys, monkeypatch):
    from wordbias.battery.lm_runs import crows_pairs_runs
    from wordbias.datasets import crows_pairs

    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))
    _lm([*folders, "--pairs", "9", "--out", str(tmp_path / "o")], capsys)
    written = read_tidy(tmp_path / "o" / "tidy.csv")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = crows_pairs_runs(folders, crows_pairs.sample(crows_pairs.load(), 9, seed=0))
    pd.testing.assert_frame_equal(written, read_tidy(_written(frame, tmp_path)))
    assert written.embedding.drop_duplicates().tolist() == ["one", "two", "one - two"]
    assert written[written.battery == "crows_pairs:models"].test.tolist() == ["harness", "shared-tokens"]
    assert "wordbias lm on one, two: CrowS-Pairs" in (tmp_path / "o" / "summary.html").read_text(encoding="utf-8")


def _written(frame, tmp_path):
    from wordbias.core.tidy import write_tidy

    return write_tidy(frame, tmp_path / "library.csv")


def test_workers_and_scheduler_reach_the_jobs(tmp_path, monkeypatch):
    asked = []

    def capture(models, pairs, *, settings, **_):
        asked.append((models, settings.workers, settings.scheduler, settings.log_probs))
        raise RuntimeError("captured")

    monkeypatch.setattr("wordbias.battery.lm_runs.crows_pairs_runs", capture)
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))
    base = ["lm", "smollm2-135m", "gemma-3-270m", "--pairs", "9", "--quiet"]
    assert cli.main([*base, "--workers", "2", "--out", str(tmp_path / "a")]) == 1
    assert cli.main([*base, "--scheduler", "tcp://h:8786", "--out", str(tmp_path / "b")]) == 1
    models = ["smollm2-135m", "gemma-3-270m"]
    lp = str(tmp_path / "cache" / "log-probs")
    assert asked == [(models, 2, None, lp), (models, 1, "tcp://h:8786", lp)]


def test_bec_pro_options_choose_the_languages_persons_and_columns(tmp_path, capsys, monkeypatch):
    asked = []

    def capture(models, sentences, *, columns, **_):
        asked.append((models, {k: sorted({s.person for s in v}) for k, v in sentences.items()}, columns,
                      {k: len({s.profession_en for s in v}) for k, v in sentences.items()}))
        raise RuntimeError("captured")

    monkeypatch.setattr("wordbias.battery.lm_runs.bec_pro_runs", capture)
    base = ["lm", "smollm2-135m", "gemma-3-270m", "--benchmark", "bec-pro", "--quiet"]
    assert cli.main([*base, "--out", str(tmp_path / "a")]) == 1
    assert cli.main([*base, "--language", "en", "de", "--persons", "all", "--columns", "DE", "US", "--sample", "6",
                     "--out", str(tmp_path / "b")]) == 1
    assert "captured" in capsys.readouterr().err
    default, chosen = asked
    assert default == (["smollm2-135m", "gemma-3-270m"], {"en": ["He", "She"]}, ("US", "DE", "BLS"), {"en": 60})
    assert chosen[0] == default[0] and list(chosen[1]) == ["en", "de"] and chosen[2] == ["DE", "US"]
    assert len(chosen[1]["en"]) == 18 and {"Er", "Sie", "Bruder"} <= set(chosen[1]["de"])
    assert chosen[3] == {"en": 6, "de": 6}


@pytest.mark.parametrize("argv, message", [
    (["--benchmark", "bec-pro", "--language", "fr"], "--language takes some of en de"),
    (["--benchmark", "bec-pro", "--language", "en", "en"], "--language takes some of en de, each once"),
    (["--benchmark", "bec-pro", "--persons", "some"], "--persons is pronouns"),
    (["--benchmark", "bec-pro", "--columns", "UK"], "--columns takes some of US DE BLS"),
    (["--benchmark", "bec-pro", "--sample", "12"], "--columns BLS: 3 of the 12 professions sampled"),
    (["--language", "de"], "--language apply to --benchmark bec-pro only"),
    (["--benchmark", "stereoset", "--columns", "US", "--persons", "all"], "--columns and --persons apply to"),
    (["--label", "mine"], "--label names one model; 2 are given"),
])
def test_bad_options_are_refused_before_any_work(tmp_path, capsys, argv, message):
    code = cli.main(["lm", "smollm2-135m", "gemma-3-270m", "--out", str(tmp_path / "o"), *argv])
    assert code == 1 and message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_model_twice_or_two_folders_of_one_name_are_refused(tmp_path, capsys):
    assert cli.main(["lm", "smollm2-135m", "smollm2-135m", "--out", str(tmp_path / "o")]) == 1
    assert "MODEL: each model once" in capsys.readouterr().err
    assert cli.main(["lm", str(tmp_path / "a" / "m"), str(tmp_path / "b" / "M"), "--out", str(tmp_path / "o")]) == 1
    assert "would share a name in the tables (['m', 'm'])" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_a_scheduler_without_distributed_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    code = cli.main(["lm", "smollm2-135m", "--pairs", "9", "--scheduler", "tcp://127.0.0.1:1", "--quiet",
                     "--out", str(tmp_path / "o")])
    assert code == 1 and 'pip install "wordbias[dask]"' in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
