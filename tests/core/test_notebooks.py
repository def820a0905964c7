"""Tests for wordbias.core.notebooks: executed notebooks cleaned of what varies from run to run."""
import copy
import json
from pathlib import Path

from wordbias.core import notebooks

ROOT = Path(__file__).resolve().parents[2]


def _stream(name, *lines):
    return {"output_type": "stream", "name": name, "text": list(lines)}


def test_split_streams_are_merged_whatever_the_split():
    one = [_stream("stderr", "a\n", "b\n", "c\n")]
    split = [_stream("stderr", "a\n"), _stream("stderr", "b\n", "c\n")]
    assert notebooks.merge_streams(copy.deepcopy(split)) == one
    assert notebooks.merge_streams(copy.deepcopy(one)) == one


def test_different_streams_and_other_outputs_stay_apart():
    outs = [_stream("stdout", "x\n"), _stream("stderr", "y\n"), {"output_type": "display_data", "data": {}},
            _stream("stderr", "z\n")]
    assert notebooks.merge_streams(copy.deepcopy(outs)) == outs


def test_clean_removes_timestamps_and_merges_streams():
    nb = {"metadata": {"papermill": {"start_time": "t", "duration": 1.0, "parameters": {}}},
          "cells": [{"cell_type": "code", "metadata": {"execution": {"x": 1}, "papermill": {"duration": 2}},
                     "outputs": [_stream("stderr", "a\n"), _stream("stderr", "b\n")]}]}
    out = notebooks.clean(nb)
    assert out["metadata"]["papermill"] == {"parameters": {}}
    assert out["cells"][0]["metadata"] == {"papermill": {}}
    assert out["cells"][0]["outputs"] == [_stream("stderr", "a\n", "b\n")]


def test_committed_notebooks_are_clean():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert notebooks.clean(copy.deepcopy(nb)) == nb, f"{path.name} is not cleaned"
