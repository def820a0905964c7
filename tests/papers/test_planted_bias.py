"""The planted-bias notebook's module: the measured ladder's cache gives back exactly what was measured, never a
damaged or another ladder's frames; the outputs' labels; the notes read from the table."""

import warnings

import numpy as np
import pandas as pd
import pytest

from wordbias.core import tidy
from wordbias.core.errors import CacheRebuiltWarning
from wordbias.papers import planted_bias


def _frames():
    rows = tidy.tidy_frame([
        {"embedding": "ladder rate 0 run 0", "measure": "weat", "test": "WEAT", "effect_size": 0.1064757819,
         "ci_low": -0.4, "p_value": 0.719281, "n_x": 28, "low_coverage": False, "dropped": "", "note": "a, b"},
        {"embedding": "ladder rate 1 run 0", "measure": "mac", "effect_size": 1 / 3, "note": None}])
    rows["rate"], rows["run"] = [0.0, 1.0], [0, 0]
    items = pd.DataFrame({"measure": pd.array(["weat", "mac"], dtype="string"), "rate": [0.0, 1.0],
                          "run": [0, 0], "item": pd.array(["he", None], dtype="string"), "score": [np.pi, np.nan]})
    halves = pd.DataFrame({"measure": pd.array(["weat"], dtype="string"), "rate": [0.25], "run": [2], "split": [0],
                           "half": [1], "value": [-1e-300]})
    return rows, items, halves


def test_the_cache_gives_back_exactly_what_was_written(tmp_path):
    frames = _frames()
    planted_bias._write_frames(tmp_path / "m.npz", "key-1", frames)
    back = planted_bias._read_frames(tmp_path / "m.npz", "key-1")
    for a, b in zip(frames, back):
        pd.testing.assert_frame_equal(a, b)            # values to the last bit, dtypes, missing values, "" vs NA
    assert back[0]["dropped"].tolist()[0] == "" and back[0]["note"].isna().tolist() == [False, True]


def test_another_key_or_a_damaged_file_is_measured_again(tmp_path):
    path = tmp_path / "m.npz"
    assert planted_bias._read_frames(path, "key-1") is None          # absent: nothing, silently
    planted_bias._write_frames(path, "key-1", _frames())
    with pytest.warns(CacheRebuiltWarning):
        assert planted_bias._read_frames(path, "key-2") is None      # another ladder's, options' or code's
    path.write_bytes(path.read_bytes()[:200])                          # truncated
    with pytest.warns(CacheRebuiltWarning):
        assert planted_bias._read_frames(path, "key-1") is None


def test_output_labels_keep_the_committed_run_apart():
    assert planted_bias.output_label() == "brown-cbow"
    assert planted_bias.output_label((0, 0.5, 1), 3) == "brown-cbow-r3-s3"
    assert planted_bias.ladder_folder() != planted_bias.ladder_folder(seeds=4)


def test_tracking_notes_read_the_intervals():
    table = pd.DataFrame({"measure": ["weat", "mac", "ube"], "test": ["validity"] * 3,
                          "effect_size": [-0.7, 0.4, np.nan], "ci_low": [-0.9, -0.03, np.nan],
                          "ci_high": [-0.5, 0.8, np.nan], "note": ["", "", "not measured: no pairs"]})
    wide = pd.DataFrame({"test-retest ICC at rate 0": [0.9, 0.97], "flagged at rate 0.5": [0.0, np.nan]},
                        index=["weat", "mac"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = planted_bias.tracking_notes(wide, table)
    assert "**Track the planted bias** (the validity interval excludes 0): weat (rho -0.70 [-0.90, -0.50])" in text
    assert "**Do not** (the interval covers 0): mac" in text and "ube (not measured: no pairs)" in text
    assert "lowest weat 0.90, highest mac 0.97" in text and "of the 1 measures with a test: none above 0.05." in text
