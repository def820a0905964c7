"""Catalogue cases for the tidy schema, users' word lists, the battery and the command."""
import numpy as np
import pandas as pd
import pytest
from catalogue import Case, check

from wordbias import embeddings as E
from wordbias.battery import compare, summary
from wordbias.battery import ube as battery_ube
from wordbias.battery import weat as battery_weat
from wordbias.core import tidy
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.datasets import stimuli, user_lists

F = "battery and command"


def _kv():
    words = ["x1", "x2", "y1", "y2", "a", "b"]
    return E.to_keyed_vectors(words, np.random.default_rng(0).normal(size=(6, 4)).astype(np.float32))


def _lists(text):
    """A lists file in a temporary folder (written when the cases are built, at import)."""
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp(prefix="wordbias-lists-")) / "lists.yaml"
    path.write_text(text)
    return path


def _spec():
    return stimuli.weat_tests("caliskan2017")[0]


def _cases():
    shared = _lists("battery: b\nweat:\n  - id: t1\n    title: T\n"
                                      "    targets: {X: [x1, x2], Y: [y1, y2]}\n    attributes: {A: [love, a], B: [love, b]}\n")
    boolean = _lists("battery: b\nweat:\n  - id: t1\n    title: T\n"
                                       "    targets: {X: [a, yes], Y: [y1, y2]}\n    attributes: {A: [a], B: [b]}\n")
    no_note = tidy.tidy_frame([{"embedding": "e", "paper": "user", "battery": "b", "test": "t", "measure": "weat"}])
    return [
        Case(F, "tidy_frame with an unknown column", lambda: tidy.tidy_frame([{"pvalue": 0.1}]), InvalidParameterError,
             match=r"keys that are not tidy columns"),
        Case(F, "check_tidy without the note column", lambda: tidy.check_tidy(no_note.drop(columns="note")),
             InvalidParameterError, match=r"columns missing: \['note'\]"),
        Case(F, "user lists: a word in both A and B", lambda: user_lists.load_user_lists(shared), InvalidParameterError,
             match=r"test 't1': attributes A and B share words"),
        Case(F, "user lists: yes read as a boolean", lambda: user_lists.load_user_lists(boolean), InvalidParameterError,
             match=r"is True \(bool\), not a string"),
        Case(F, "user lists: no such file", lambda: user_lists.load_user_lists("/nonexistent/lists.yaml"),
             FileNotFoundError, match=r"no word-list file at"),
        Case(F, "weat_battery: unknown paper", lambda: battery_weat.weat_battery(_kv(), [_spec()], label="e", battery="b",
                                                                           paper="mine"),
             InvalidParameterError, match=r"paper must be one of"),
        Case(F, "weat_battery: empty label", lambda: battery_weat.weat_battery(_kv(), [_spec()], label="", battery="b",
                                                                         paper="user"),
             InvalidParameterError, match=r"label"),
        Case(F, "compare: a label twice", lambda: compare.compare([("x", _kv()), ("x", _kv())]), InvalidParameterError,
             match=r"unique; \['x'\] given more than once"),
        Case(F, "compare: nothing to compare", lambda: compare.compare({}), InvalidParameterError, match=r"empty"),
        Case(F, "forest_plot: empty table", lambda: summary.forest_plot(tidy.tidy_frame([])), InvalidParameterError,
             match=r"empty"),
        Case(F, "write_html: not a tidy table", lambda: summary.write_html(pd.DataFrame({"a": [1]}), "/tmp/x.html",
                                                                           title="t"),
             InvalidParameterError, match=r"tidy"),
        Case(F, "ube_parameters: too few names", lambda: battery_ube.ube_parameters(10_000, 50, 300), DegenerateSetError,
             match=r"first names"),
    ]


CASES_BATTERY_COMMAND = _cases()


@pytest.mark.parametrize("case", CASES_BATTERY_COMMAND, ids=lambda c: c.id)
def test_case(case):
    check(case)
