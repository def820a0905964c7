"""wordbias.teaching.answer_key: the answer key is read from the check records of executed notebooks (never
typed in), names the precision shown and accepted and the worked solution, refuses unexecuted or failed
checks, and the committed docs/answer_key.md is the one the executed lessons give."""

import json
import math

import pytest

from wordbias.core import paths
from wordbias.teaching import answer_key, checks


@pytest.fixture(autouse=True)
def no_tries():
    checks.reset_tries()
    yield
    checks.reset_tries()


def markdown(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text, tags=(), outputs=(), grade_id=None):
    meta = {"tags": list(tags)}
    if grade_id:
        meta["nbgrader"] = {"grade_id": grade_id, "grade": "check" in tags, "solution": "solution" in tags}
    return {"cell_type": "code", "metadata": meta, "source": text, "outputs": list(outputs), "execution_count": 1}


def shown(result):
    """The output a Jupyter kernel stores for a check's display."""
    return {"output_type": "display_data", "metadata": {}, "data": result._repr_mimebundle_()}


def executed_lesson(folder, name="01_demo.ipynb", result=None):
    result = result if result is not None else checks.exact_floor(1 / math.comb(8, 4), 4, 4)
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        markdown("# Lesson 1: A demo\n\nText."),
        code("# Parameters\nseed = 0", tags=["parameters"]),
        markdown("### ✎ Exercise 1: the smallest possible p\n\nCount."),
        code("### BEGIN SOLUTION\nsmallest_p = 1 / math.comb(8, 4)\n### END SOLUTION", tags=["solution"],
             grade_id="l01-ex1"),
        code("ex1 = checks.exact_floor(smallest_p, 4, 4)", tags=["check"], outputs=[shown(result)],
             grade_id="l01-ex1-check"),
    ]}
    (folder / name).write_text(json.dumps(nb), encoding="utf-8")
    return folder / name


def test_answer_key_from_check_records(tmp_path):
    executed_lesson(tmp_path)
    (tmp_path / "lessons.yaml").write_text("lessons:\n  - file: 01_demo.ipynb\n    title: A demo lesson\n")
    [answer] = answer_key.answers(tmp_path / "01_demo.ipynb")
    assert answer.number == 1 and answer.title == "the smallest possible p" and answer.check == "exact_floor"
    assert answer.expected == pytest.approx(1 / 70) and answer.expected_text == "0.0143"
    assert answer.shown == "4 decimals" and "2 significant figures" in answer.accepted
    assert answer.solution == "smallest_p = 1 / math.comb(8, 4)" and answer.grade_id == "l01-ex1-check"
    text = answer_key.answer_key(tmp_path)
    assert "## A demo lesson (`01_demo.ipynb`)" in text and "Parameters: `seed = 0`." in text
    assert "| 1. the smallest possible p | 0.0143 (0.0142857) | 4 decimals |" in text
    assert "```python\nsmallest_p = 1 / math.comb(8, 4)\n```" in text


def test_unexecuted_or_failed_checks_are_refused(tmp_path):
    path = executed_lesson(tmp_path)
    nb = json.loads(path.read_text())
    nb["cells"][-1]["outputs"] = []
    path.write_text(json.dumps(nb))
    with pytest.raises(ValueError, match="01_demo.ipynb, cell 4: the check cell has no check record"):
        answer_key.answers(path)
    executed_lesson(tmp_path, result=checks.exact_floor(0.5, 4, 4))
    with pytest.raises(ValueError, match="did not pass its check"):
        answer_key.answers(path)
    assert "expected" not in json.dumps(json.loads(path.read_text())["cells"][-1]["outputs"][0]["data"]
                                        [checks.RECORD_MIME])      # a wrong answer's record holds no answer


def test_recorded_predictions_and_written_answers_are_listed_without_a_value(tmp_path):
    predicted = checks.prediction("a", {"a": "up", "b": "down"}, exercise="predict")
    path = executed_lesson(tmp_path, result=predicted)
    [answer] = answer_key.answers(path)
    assert answer.status == "recorded" and answer.expected is None
    assert "— (a prediction: recorded, not scored)" in answer_key.answer_key(tmp_path)
    words = checks.written("one two three four five", exercise="why", points=["a point"], min_words=5)
    executed_lesson(tmp_path, result=words)
    assert "— (graded by hand; the model answer below)" in answer_key.answer_key(tmp_path)
    executed_lesson(tmp_path, result=checks.written("too short", exercise="why", points=["a point"], min_words=5))
    with pytest.raises(ValueError, match="did not pass its check"):
        answer_key.answers(path)


def test_main_writes_the_page(tmp_path, capsys):
    executed_lesson(tmp_path)
    out = tmp_path / "docs" / "key.md"
    capsys.readouterr()
    answer_key.main([str(tmp_path), str(out)])
    assert capsys.readouterr().out.strip() == str(out)
    assert f"`python -m wordbias.teaching.answer_key {tmp_path} {out}`" in out.read_text()
    with pytest.raises(SystemExit):
        answer_key.main([str(tmp_path / "empty"), str(out)])


LESSONS = paths.ROOT / "notebooks" / "lessons"
KEY = paths.ROOT / "docs" / "answer_key.md"


@pytest.mark.skipif(not KEY.is_file(), reason="needs a checkout with the executed lessons")
def test_committed_answer_key_is_the_executed_lessons():
    """docs/answer_key.md is what the executed lessons give (make regenerates it), and it holds every check."""
    text = answer_key.answer_key(LESSONS, command="python -m wordbias.teaching.answer_key notebooks/lessons "
                                                  "docs/answer_key.md")
    assert KEY.read_text(encoding="utf-8") == text, "docs/answer_key.md is stale: make lessons"
    for path in sorted(LESSONS.glob("[0-9][0-9]_*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        n_checks = sum("check" in c["metadata"].get("tags", []) for c in nb["cells"])
        assert len(answer_key.answers(path)) == n_checks >= 1
    lesson2 = {a.number: a for a in answer_key.answers(LESSONS / "02_significance_and_size.ipynb")}
    assert lesson2[1].expected == pytest.approx(1 / math.comb(8, 4))     # computed by the check, from the data
