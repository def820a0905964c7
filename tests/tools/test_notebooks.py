"""Tests for tools.notebooks: executed notebooks cleaned of what varies from run to run."""
import copy
import json
from pathlib import Path

from tools import notebooks

ROOT = Path(__file__).resolve().parents[2]


def _stream(name, *lines):
    return {"output_type": "stream", "name": name, "text": list(lines)}


def test_split_streams_are_merged_whatever_the_split():
    one = [_stream("stderr", "a\n", "b\n", "c\n")]
    split = [_stream("stderr", "a\n"), _stream("stderr", "b\n", "c\n")]
    assert notebooks.merge_streams(copy.deepcopy(split)) == one
    assert notebooks.merge_streams(copy.deepcopy(one)) == one


def test_different_streams_and_other_outputs_stay_apart():
    outs = [_stream("stderr", "y\n"), _stream("stdout", "x\n"), {"output_type": "display_data", "data": {}},
            _stream("stderr", "z\n")]
    assert notebooks.merge_streams(copy.deepcopy(outs)) == outs


def test_the_race_between_stdout_and_stderr_gives_one_order():
    """A print and a warning issued close together arrive in either order (separate channels): the cleaned
    outputs are the same, stderr first, each stream's text in its own order; a display output ends the run."""
    a = [_stream("stdout", "templates\n"), _stream("stderr", "Warning\n"), _stream("stdout", "more\n")]
    b = [_stream("stderr", "Warning\n"), _stream("stdout", "templates\n", "more\n")]
    want = [_stream("stderr", "Warning\n"), _stream("stdout", "templates\n", "more\n")]
    assert notebooks.merge_streams(copy.deepcopy(a)) == want == notebooks.merge_streams(copy.deepcopy(b))
    shown = {"output_type": "display_data", "data": {}}
    c = [_stream("stdout", "1\n"), shown, _stream("stderr", "2\n")]
    assert notebooks.merge_streams(copy.deepcopy(c)) == c


def test_clean_removes_timestamps_and_merges_streams():
    nb = {"metadata": {"papermill": {"start_time": "t", "duration": 1.0, "parameters": {}}},
          "cells": [{"cell_type": "code", "metadata": {"execution": {"x": 1}, "papermill": {"duration": 2}},
                     "outputs": [_stream("stderr", "a\n"), _stream("stderr", "b\n")]}]}
    out = notebooks.clean(nb)
    assert out["metadata"]["papermill"] == {"parameters": {}}
    assert out["cells"][0]["metadata"] == {"papermill": {}}
    assert out["cells"][0]["outputs"] == [_stream("stderr", "a\n", "b\n")]


def test_the_outputs_of_timing_cells_are_dropped():
    """A cell tagged `timing` prints a wall time, which changes from run to run: its outputs go, its source and the
    other cells' outputs stay."""
    def run(seconds):
        return {"metadata": {}, "cells": [
            {"cell_type": "code", "metadata": {"tags": [notebooks.TIMING_TAG, "nbval-ignore-output"]},
             "source": ["print(took)"], "outputs": [_stream("stdout", f"trained in {seconds} s\n")]},
            {"cell_type": "code", "metadata": {}, "source": ["x"], "outputs": [_stream("stdout", "1\n")]}]}
    a, b = notebooks.clean(run(61.2)), notebooks.clean(run(0.3))
    assert a == b
    assert a["cells"][0]["outputs"] == [] and a["cells"][0]["source"] == ["print(took)"]
    assert a["cells"][1]["outputs"] == [_stream("stdout", "1\n")]


def test_widget_ids_become_positions_and_the_saved_state_goes():
    """Two runs of a widget cell differ only in the kernel's random model id: cleaned, they are identical."""
    def run(model_id):
        view = {"model_id": model_id, "version_major": 2, "version_minor": 0}
        return {"metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {model_id: {}}}}},
                "cells": [{"cell_type": "markdown", "metadata": {}, "source": "x"},
                          {"cell_type": "code", "metadata": {}, "outputs": [
                              _stream("stdout", "a\n"),
                              {"output_type": "display_data", "metadata": {},
                               "data": {notebooks.WIDGET_VIEW: view, "text/plain": "VBox()"}}]}]}
    a, b = notebooks.clean(run("485422017549474d9cc3209207d46688")), notebooks.clean(run("0f1e2d3c"))
    assert a == b and "widgets" not in a["metadata"]
    assert a["cells"][1]["outputs"][1]["data"][notebooks.WIDGET_VIEW]["model_id"] == "cell1-output1"
    assert a["cells"][1]["outputs"][1]["data"]["text/plain"] == "VBox()"


def test_committed_notebooks_are_clean():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks" / "lessons").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert notebooks.clean(copy.deepcopy(nb)) == nb, f"{path.name} is not cleaned"


def _cell(tag, lines):
    return {"cell_type": "code", "metadata": {"tags": [tag]}, "source": lines, "outputs": [], "execution_count": 1}


def test_fold_parameters_makes_the_parameters_cell_hold_the_values_run():
    from tools.notebooks import fold_parameters

    nb = {"cells": [_cell("parameters", ["embedding = \"glove-840b-caliskan\"   # which vectors\n", "seed = 0\n",
                                         "lists = [\"a\",\n", "         \"b\"]\n"]),
                    {"cell_type": "markdown", "metadata": {}, "source": ["text"]},
                    _cell("injected-parameters", ["# Parameters\n", "embedding = \"/data/mine.w2v.txt\"\n",
                                                  "seed = 7\n", "lists = [\"c\"]\n", "unknown = 1\n"])]}
    fold_parameters(nb)
    assert [c["cell_type"] for c in nb["cells"]] == ["code", "markdown"]       # the injected cell is gone
    assert "".join(nb["cells"][0]["source"]) == (
        "embedding = \"/data/mine.w2v.txt\"    # which vectors\n"    # the comment stays in its column
        "seed = 7\n"
        "lists = [\"a\",\n         \"b\"]\n"                          # a multi-line value is not edited in place...
        "lists = [\"c\"]\n"                                           # ...the new value follows it and wins
        "unknown = 1   # passed to papermill; not a parameter of this notebook\n")
    # executing the folded cell gives the values papermill injected
    env = {}
    exec("".join(nb["cells"][0]["source"]), env)
    assert (env["embedding"], env["seed"], env["lists"], env["unknown"]) == ("/data/mine.w2v.txt", 7, ["c"], 1)


def test_fold_parameters_keeps_the_comment_column_when_the_value_is_shorter():
    from tools.notebooks import fold_parameters

    nb = {"cells": [_cell("parameters", ["embedding = \"glove-840b-caliskan\"   # which\n"]),
                    _cell("injected-parameters", ["embedding = \"x\"\n"])]}
    line = "".join(fold_parameters(nb)["cells"][0]["source"])
    assert line == "embedding = \"x\"" + " " * 21 + "# which\n"
    assert line.index("#") == "embedding = \"glove-840b-caliskan\"   # which\n".index("#")


def test_fold_parameters_leaves_a_notebook_without_injected_cell_alone():
    from tools.notebooks import fold_parameters

    nb = {"cells": [_cell("parameters", ["seed = 0\n"])]}
    assert fold_parameters(nb) == {"cells": [_cell("parameters", ["seed = 0\n"])]}


def test_a_line_cut_in_two_chunks_is_one_line():
    """The kernel may send a printed line and its newline as two chunks: cleaned, the same as one."""
    a = [_stream("stdout", "right: 9.999e-05\n")]
    b = [_stream("stdout", "right: 9.999e-05", "\n")]
    assert notebooks.merge_streams(copy.deepcopy(a)) == notebooks.merge_streams(copy.deepcopy(b)) == a


def test_the_examples_in_the_docstrings_hold():
    """tools/ is outside pytest's doctest paths (tests, lib/wordbias): its examples run here."""
    import doctest

    failed, tried = doctest.testmod(notebooks)
    assert tried >= 2 and failed == 0
