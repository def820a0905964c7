"""battery.lm_runs: one benchmark over several models and specifications, one job per (model, specification), with
the same frame in this process, in two local processes and on a local Dask cluster; on two seeds of the tiny
causal model, saved to two folders."""

from __future__ import annotations

import sys
import warnings

import pandas as pd
import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

import tiny_causal as tc  # noqa: E402

from wordbias.battery.lm import bec_pro_table, crows_pairs_table, load_model, stereoset_table  # noqa: E402
from wordbias.battery.lm_runs import RunSettings, bec_pro_runs, crows_pairs_runs, stereoset_runs  # noqa: E402
from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.core.tidy import check_tidy  # noqa: E402
from wordbias.options import Resampling  # noqa: E402

PAIRS = tc.crows_pairs()


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Two tiny causal models of different weights (seeds 0 and 1), each in its folder (labels ``one``, ``two``)."""
    root = tmp_path_factory.mktemp("lm-runs")
    return [str(tc.build(root / name, seed=seed)) for name, seed in (("one", 0), ("two", 1))]


@pytest.fixture(scope="module")
def local(folders):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return crows_pairs_runs(folders, PAIRS, settings=RunSettings(workers=1))


def test_each_model_gives_crows_pairs_table_s_rows_and_the_models_their_difference(folders, local):
    check_tidy(local)
    for label, folder in zip(("one", "two"), folders):
        m = load_model(folder, convention="harness")
        own = local[local.embedding == label].reset_index(drop=True)
        pd.testing.assert_frame_equal(own, crows_pairs_table([m, m], pairs=PAIRS, label=label))
    diff = local[local.battery == "crows_pairs:models"].set_index("test")
    assert diff.index.tolist() == ["harness", "shared-tokens"] and set(diff.embedding) == {"one - two"}
    shares = local[local.test == "overall"].set_index(["embedding", "battery"]).effect_size
    for convention in ("harness", "shared-tokens"):
        expected = shares["one", f"crows_pairs:{convention}"] - shares["two", f"crows_pairs:{convention}"]
        assert diff.effect_size[convention] == pytest.approx(expected)
    assert diff.effect_size.ne(0).any()               # the two seeds score the pairs apart


def test_a_local_dask_cluster_gives_the_same_frame(folders, local, tmp_path):
    # the jobs cross a process boundary here (pickled, run in worker processes that import torch afresh); the
    # local-process route of the same run_jobs is tested on light jobs in tests/core/test_jobs.py
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # distributed's own deprecation and port warnings
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster:
            remote = crows_pairs_runs(folders, PAIRS, settings=RunSettings(scheduler=cluster.scheduler_address,
                                                                           log_probs=str(tmp_path / "lp")))
    pd.testing.assert_frame_equal(remote, local)
    assert any((tmp_path / "lp").rglob("*.json"))      # the workers filled the cache whose folder was passed


def test_without_distributed_the_scheduler_names_the_extra(folders, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r'pip install "wordbias\[dask\]"'):
        crows_pairs_runs(folders, PAIRS, settings=RunSettings(scheduler="tcp://127.0.0.1:1"))


def test_models_labels_and_specifications_are_checked_before_any_job(folders):
    with pytest.raises(InvalidParameterError, match="models must name one or more, each once"):
        crows_pairs_runs([folders[0], folders[0]], PAIRS)
    with pytest.raises(InvalidParameterError, match="one label per model, each once"):
        crows_pairs_runs(folders, PAIRS, labels=["same", "same"])
    with pytest.raises(InvalidParameterError, match="conventions must name one or more"):
        crows_pairs_runs(folders, PAIRS, conventions=[])
    with pytest.raises(InvalidParameterError, match="normalisations must name one or more, each once"):
        stereoset_runs(folders, [], normalisations=["mean", "mean"])
    with pytest.raises(InvalidParameterError, match="one language or more"):
        bec_pro_runs(folders, {})


def _stereoset_examples():
    from wordbias.datasets.stereoset import StereoSetExample

    return [StereoSetExample(str(i), "intrasentence", "t", bias, context, *options, ("1", "2", "3"), (5, 5, 5),
                             (5, 5, 5))
            for i, (context, *options, bias) in enumerate([
                ("she is a BLANK", "she is a nurse", "she is a doctor", "she is a drive", "gender"),
                ("the BLANK are lazy", "the poor are lazy", "the rich are lazy", "the well are lazy", "race"),
                ("he is a BLANK", "he is a doctor", "he is a nurse", "he is a well", "gender")])]


def test_stereoset_normalisations_are_specifications_named_in_the_battery(folders):
    examples = [_stereoset_examples()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = stereoset_runs(folders, examples, normalisations=("mean", "sum"), n_resamples=50)
        ref = stereoset_table(load_model(folders[1], convention="harness"), examples, label="two",
                              normalisation="sum", n_resamples=50)
    assert t.embedding.drop_duplicates().tolist() == ["one", "two"]
    assert t.battery.drop_duplicates().tolist() == ["stereoset:intrasentence:mean", "stereoset:intrasentence:sum"]
    mine = t[(t.embedding == "two") & (t.battery == "stereoset:intrasentence:sum")].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, ref)


#: four of BEC-Pro's professions with a US, a German and a BLS share, each written as one of the tiny model's words
JOBS = {"secretary": "nurse", "electrician": "doctor", "dispatcher": "kids", "hairdresser": "drive",
        "plumber": "poor"}


def _sentences(language: str):
    from wordbias.datasets.bec_pro import BecProSentence

    return [BecProSentence(i, f"{person} is a {word}", "", "", "", "<person subject> is a <profession>.", person,
                           gender, word, "balanced", job, language)
            for i, (job, word, person, gender) in enumerate(
                (j, w, *g) for j, w in JOBS.items() for g in (("he", "male"), ("she", "female")))]


def test_bec_pro_languages_are_specifications_each_as_bec_pro_table(folders):
    sentences = {"en": _sentences("en"), "de": _sentences("de")}
    resampling = Resampling(n_resamples=100, seed=1)
    t = bec_pro_runs(folders, sentences, columns=("US", "BLS"), resampling=resampling,
                     settings=RunSettings(batch_size=4))
    assert t.battery.drop_duplicates().tolist() == ["bec_pro:en", "bec_pro:de"]
    assert t.test.tolist() == ["US", "BLS"] * 4 and t.embedding.tolist() == ["one"] * 4 + ["two"] * 4
    m = load_model(folders[0], convention="harness")
    ref = bec_pro_table(m, sentences["de"], columns=("US", "BLS"), label="one", resampling=resampling, batch_size=4)
    pd.testing.assert_frame_equal(t.iloc[2:4].reset_index(drop=True), ref)
    assert set(t.coverage) == {"W 5/5"}

