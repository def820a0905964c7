"""``wordbias grade``'s refusals, before any notebook runs: the grades or the executed copies inside the
submissions, a folder of the user's for the copies, a file that is no CSV, an unknown kernel, no lesson
notebook to grade. (The graded run itself: tests/teaching/test_grade.py.)"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from wordbias.cli import main

LESSON = "01_demo.ipynb"


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A one-cell lesson and one student's copy of it."""
    check = new_code_cell("ex1 = checks.number(x, 1.0, exercise='one', what='one', hint='count')",
                          metadata={"tags": ["check"], "nbgrader": {"grade": True, "grade_id": "l01-ex1-check",
                                                                    "points": 1, "solution": False}})
    for folder in (tmp_path / "src", tmp_path / "subs" / "alice"):
        folder.mkdir(parents=True)
        nbformat.write(new_notebook(cells=[check]), folder / LESSON)
    return tmp_path


def _run(capsys, course: Path, *argv) -> tuple[int, str]:
    code = main(["grade", str(course / "subs"), "--lessons", str(course / "src"), *map(str, argv)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("option, inside", [("--out", "subs/grades.csv"), ("--executed", "subs/alice/run")],
                         ids=["out", "executed"])
def test_nothing_is_written_inside_the_submissions(capsys, course, option, inside):
    argv = ["--out", course / "grades.csv"] if option == "--executed" else []
    code, err = _run(capsys, course, *argv, option, course / inside)
    assert code == 1 and "inside the submissions" in err and "never written" in err, err
    assert sorted(p.name for p in (course / "subs").rglob("*")) == [LESSON, "alice"]


def test_a_folder_of_the_users_is_refused_for_the_executed_copies(capsys, course):
    mine = course / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    code, err = _run(capsys, course, "--out", course / "grades.csv", "--executed", mine)
    assert code == 1 and f"refusing to write into {mine}" in err and "give a new or an empty folder" in err, err
    assert not (course / "grades.csv").exists()


def test_the_grades_must_be_a_csv_file(capsys, course):
    code, err = _run(capsys, course, "--out", course / "grades.xlsx")
    assert code == 1 and "give a .csv file" in err, err


def test_an_unknown_kernel_is_named_with_those_there_are(capsys, course):
    code, err = _run(capsys, course, "--out", course / "grades.csv", "--kernel", "no-such-kernel")
    assert code == 1 and "kernel 'no-such-kernel': no such Jupyter kernel here (kernels:" in err, err
    assert "python3" in err and not (course / "grades.csv").exists()


def test_submissions_without_a_lesson_notebook_are_refused(capsys, course):
    (course / "subs" / "alice" / LESSON).rename(course / "subs" / "alice" / "lesson1.ipynb")
    code, err = _run(capsys, course, "--out", course / "grades.csv")
    assert code == 1 and "no student notebook named like a lesson" in err and "alice/01_demo.ipynb" in err, err


@pytest.mark.parametrize("value, message", [("0", "must be a positive number of seconds, not 0"),
                                            ("soon", "must be a number of seconds, not 'soon'")])
def test_the_time_limit_must_be_positive(capsys, course, value, message):
    code, err = _run(capsys, course, "--out", course / "grades.csv", "--timeout", value)
    assert code == 2 and f"argument --timeout: {message}" in err, err
