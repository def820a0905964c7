"""wordbias.teaching.grade and ``wordbias grade``: a tiny lesson, three students' notebooks (right answers; a wrong
answer, an unanswered prediction, an edited check cell, a solution that raises, a deleted check cell; an endless
loop), graded once: the statuses, points, hash flags, tries, totals, the written answers, the time limit, and the
submissions left as they were."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from wordbias.cli import main
from wordbias.core.errors import FolderNotOursError, InvalidParameterError
from wordbias.teaching import grade
from wordbias.teaching.checks import RECORD_MIME

LESSON = "01_demo.ipynb"
#: (grade_id, heading, solution, check, nbgrader points of the check: None for an unscored one)
EXERCISES = [
    ("l01-ex1", "one half", "half = 1 / 2",
     'ex1 = checks.number(half, 0.5, exercise="one half", what="one half", hint="divide by two")', 1),
    ("l01-ex2", "predict", 'guess = "a"',
     'ex2 = checks.prediction(guess, {"a": "up", "b": "down"}, exercise="predict")', None),
    ("l01-ex3", "the double", "double = 2 * half",
     'ex3 = checks.number(double, 1.0, exercise="the double", what="twice a half", hint="multiply")', 2),
    ("l01-ex4", "a third", "third = 1 / 3",
     'ex4 = checks.number(third, 1 / 3, exercise="a third", what="one third", hint="divide by three")', 1),
    ("l01-ex5", "a quarter", "quarter = half / 2",
     'ex5 = checks.number(quarter, 0.25, exercise="a quarter", what="one quarter", hint="halve it")', 1),
]
ESSAY = 'essay = """A half is one of two equal parts, and twice a half is one whole."""'


def _meta(grade_id: str, *, tags: list[str], solution: bool, graded: bool, points: float = 0) -> dict:
    nbgrader = {"grade": graded, "grade_id": grade_id, "locked": not solution, "schema_version": 3,
                "solution": solution, "task": False}
    if graded:
        nbgrader["points"] = points
    return {"tags": tags, "nbgrader": nbgrader}


def instructor() -> nbformat.NotebookNode:
    """The tiny lesson: five checked exercises (one a prediction, 0 points) and a written answer (2 points by hand)."""
    cells = [new_markdown_cell("# Lesson 1: A demo"), new_code_cell("from wordbias.teaching import checks")]
    for grade_id, heading, solution, check, points in EXERCISES:
        cells.append(new_markdown_cell(f"### ✎ Exercise {grade_id[-1]}: {heading}"))
        cells.append(new_code_cell(f"### BEGIN SOLUTION\n{solution}\n### END SOLUTION",
                                   metadata=_meta(grade_id, tags=["solution"], solution=True, graded=False)))
        tags = ["check"] if points is not None else ["check", "prediction"]
        cells.append(new_code_cell(check, metadata=_meta(f"{grade_id}-check", tags=tags, solution=False,
                                                         graded=points is not None, points=points or 0)))
    cells.append(new_markdown_cell("### ✎ Exercise 6: in words"))
    cells.append(new_code_cell(f"### BEGIN SOLUTION\n{ESSAY}\n### END SOLUTION",
                               metadata=_meta("l01-ex6", tags=["solution", "written"], solution=True, graded=True,
                                              points=2)))
    cells.append(new_code_cell('ex6 = checks.written(essay, exercise="in words", points=["two halves"], '
                               'min_words=5)',
                               metadata=_meta("l01-ex6-check", tags=["check"], solution=False, graded=False)))
    return new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                              "language": "python"}})


def student(answers: dict[str, str], *, edit: dict[str, str] = (), delete: tuple[str, ...] = ()):
    """A student's notebook: the lesson with each solution cell's source replaced by ``answers[grade_id]``, the
    check cells of ``edit`` rewritten and those of ``delete`` removed."""
    nb = instructor()
    kept = []
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in delete:
            continue
        if grade_id in answers:
            cell.source = answers[grade_id]
        if grade_id in dict(edit):
            cell.source = dict(edit)[grade_id]
        kept.append(cell)
    nb.cells = kept
    return nb


def _session_record(nb, grade_id: str, tries: int) -> None:
    """A check record in the handed-in notebook, as the student's own session left it (their tries)."""
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    record = {"exercise": "one half", "check": "number", "status": "correct", "shown": "", "accepted": "",
              "given": 0.5, "try": tries, "points": 1}
    cell.outputs = [new_output("display_data", data={"text/plain": "✔ one half: right", RECORD_MIME: record})]


def _write(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Alice and Bob graded by the command (two kernels at once), Carol's endless loop by the library with a 3 s
    limit, at the same time."""
    base = tmp_path_factory.mktemp("class")
    _write(instructor(), base / "src" / LESSON)
    right = {g: s for g, _, s, _, _ in EXERCISES} | {"l01-ex6": ESSAY}
    alice = student(right)
    _session_record(alice, "l01-ex1-check", tries=3)
    _write(alice, base / "subs" / "alice" / LESSON)
    _write(student({"l01-ex1": "half = 0.25", "l01-ex2": "guess = ...  # your answer here",
                    "l01-ex4": "third = 1 / 0", "l01-ex6": "essay = ...  # your answer here"},
                   edit={"l01-ex3-check": 'ex3 = checks.number(double, double, exercise="the double", '
                                          'what="twice a half", hint="multiply")'},
                   delete=("l01-ex5-check",)), base / "subs" / "bob" / LESSON)
    (base / "subs" / "bob" / "notes.txt").write_text("not a notebook")
    _write(student({"l01-ex1": "while True:\n    pass"}), base / "loop" / "carol" / LESSON)
    before = _digests(base / "subs")
    with ThreadPoolExecutor(1) as pool:
        looping = pool.submit(grade.grade_class, base / "loop", executed=base / "loop_run", lessons=base / "src",
                              timeout=3)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["grade", str(base / "subs"), "--lessons", str(base / "src"), "--out",
                         str(base / "grades" / "g.csv"), "--jobs", "2", "--timeout", "120"])
        carol = looping.result()
    rows = pd.read_csv(base / "grades" / "g.csv", keep_default_na=False).set_index(["student", "grade_id"])
    return {"base": base, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue(), "rows": rows,
            "before": before, "carol": carol}


def test_the_command_grades_and_reports(graded):
    assert graded["code"] == 0, graded["stderr"]
    assert "2 students, 2 notebooks, 12 exercises" in graded["stdout"]
    err = graded["stderr"]
    assert "not graded: bob/notes.txt" in err
    assert "graded alice/01_demo.ipynb:" in err and "graded bob/01_demo.ipynb:" in err     # progress, one a notebook
    for grade_id, status in [("l01-ex3-check", "edited"), ("l01-ex4-check", "error"), ("l01-ex5-check", "missing")]:
        assert f"bob/01_demo: {grade_id}: {status}:" in err                                   # each failed cell named


def test_right_answers_earn_every_point_and_predictions_none(graded):
    alice = graded["rows"].loc["alice"]
    assert list(alice.index) == [f"l01-ex{i}-check" for i in range(1, 7)]                   # cell order
    assert list(alice.status[["l01-ex1-check", "l01-ex3-check", "l01-ex4-check", "l01-ex5-check"]]) == ["correct"] * 4
    assert set(alice.status[["l01-ex2-check", "l01-ex6-check"]]) <= {"correct", "recorded"}
    assert list(alice.points) == [1, 0, 2, 1, 1, 0] and list(alice.max_points) == [1, 0, 2, 1, 1, 0]
    assert alice.check_hash_ok.tolist() == ["True"] * 6
    assert alice.exercise["l01-ex1-check"] == "1. one half"
    assert alice.tries["l01-ex1-check"] == "3" and alice.tries["l01-ex3-check"] == ""      # the student's session


def test_wrong_edited_erroring_and_deleted_cells_earn_nothing_and_are_named(graded):
    bob = graded["rows"].loc["bob"]
    assert dict(bob.status) == {"l01-ex1-check": "wrong", "l01-ex2-check": "unanswered", "l01-ex3-check": "edited",
                                "l01-ex4-check": "error", "l01-ex5-check": "missing", "l01-ex6-check": "unanswered"}
    assert bob.points.sum() == 0 and bob.max_points.sum() == 5
    assert bob.check_hash_ok.tolist() == ["True", "True", "False", "True", "", "True"]
    assert bob.message["l01-ex4-check"].startswith("NameError")
    assert "edited" in bob.message["l01-ex3-check"] and "deleted" in bob.message["l01-ex5-check"]
    assert "not yet" in bob.message["l01-ex1-check"]


def test_totals_and_written_answers(graded):
    base = graded["base"]
    totals = pd.read_csv(base / "grades" / "g_totals.csv")
    assert totals.values.tolist() == [["alice", "01_demo", 5, 5], ["alice", "all", 5, 5],
                                      ["bob", "01_demo", 0, 5], ["bob", "all", 0, 5]]
    written = pd.read_csv(base / "grades" / "g_written.csv", keep_default_na=False)
    assert list(written.columns) == list(grade.WRITTEN_COLUMNS)
    assert written.answer.tolist() == ["A half is one of two equal parts, and twice a half is one whole.", ""]
    assert written.note.tolist() == ["", "unanswered"] and written.score.tolist() == ["", ""]
    assert written.max_points.tolist() == [2, 2] and written.grade_id.tolist() == ["l01-ex6", "l01-ex6"]


def test_the_submissions_are_untouched_and_the_executed_copies_kept(graded):
    base = graded["base"]
    assert _digests(base / "subs") == graded["before"]
    executed = nbformat.read(base / "grades" / "g_executed" / "alice" / LESSON, as_version=4)
    records = [o["data"][RECORD_MIME] for c in executed.cells for o in c.get("outputs", [])
               if RECORD_MIME in o.get("data", {})]
    assert len(records) == 6
    manifest = json.loads((base / "grades" / "g_executed" / ".wordbias-run.json").read_text())
    assert sorted(manifest["files"]) == ["alice/01_demo.ipynb", "bob/01_demo.ipynb"]


def test_a_notebook_past_its_time_limit_is_stopped(graded):
    carol = graded["carol"]
    assert carol.rows.status.tolist() == ["timeout"] * 6
    assert all("time limit of 3 s" in m for m in carol.rows.message)
    assert carol.rows.points.sum() == 0 and carol.totals.points.tolist() == [0, 0]
    assert carol.seconds < 30                                    # the kernel was killed, not waited for


def test_a_rerun_refuses_to_replace_hand_scores(graded, tmp_path):
    shutil.copytree(graded["base"] / "grades", tmp_path / "grades")
    grade.output_paths(graded["base"] / "subs", tmp_path / "grades" / "g.csv")       # its own files: replaced
    written = tmp_path / "grades" / "g_written.csv"
    written.write_text(written.read_text().replace(",,2,", ",2,2,", 1))      # a teacher's score typed in
    with pytest.raises(FolderNotOursError, match="g_written.csv was changed since wordbias wrote it"):
        grade.output_paths(graded["base"] / "subs", tmp_path / "grades" / "g.csv")


def test_check_hash_ignores_trailing_white_space_only():
    assert grade.check_hash("a = 1   \nb = 2\n\n") == grade.check_hash(["a = 1\n", "b = 2"])
    assert grade.check_hash("a = 1\nb = 2") != grade.check_hash("a = 1\n b = 2")


def test_a_lesson_check_cell_without_grade_id_is_refused(tmp_path):
    nb = instructor()
    del nb.cells[4].metadata["nbgrader"]["grade_id"]
    _write(nb, tmp_path / LESSON)
    with pytest.raises(InvalidParameterError, match="cell 4: a graded cell without nbgrader's grade_id"):
        grade.read_lesson(tmp_path / LESSON)
