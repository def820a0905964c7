"""The lesson-time estimates (wordbias.teaching.syllabus): words, exercises and computing time counted from a
notebook, rounded up to 5 minutes; the minutes of the lesson index equal the estimate of every source."""

import json
import re

import pytest
import yaml

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.teaching import syllabus

LESSONS = paths.ROOT / "notebooks" / "lessons"


def markdown(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text, tags=(), duration=None):
    meta = {"tags": list(tags)}
    if duration is not None:
        meta["papermill"] = {"duration": duration}
    return {"cell_type": "code", "metadata": meta, "source": text, "outputs": []}


def write(path, cells):
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


@pytest.fixture
def lesson(tmp_path):
    """A lessons folder with one source: 280 words, a number, a choice and a written exercise."""
    (tmp_path / "src").mkdir()
    cells = [markdown("word " * 200), markdown("[seen](https://not.counted/x y) " + "more " * 79),
             code("x = 1"), code("ex1 = checks.cosine(x, u, v)", ["check"]),
             code("ex2 = checks.choice(a, 'b', {'a': 'no', 'b': 'yes'})", ["check"]),
             code("if checks.needs(ex1):\n    ex3 = checks.written(t, exercise='w', points=['p'])", ["check"])]
    write(tmp_path / "src" / "01_demo.ipynb", cells)
    (tmp_path / "lessons.yaml").write_text(yaml.safe_dump(
        {"lessons": [{"file": "01_demo.ipynb", "minutes": 15, "compute_seconds": 90}]}))
    return tmp_path


def test_counts_words_and_exercises(lesson):
    nb = json.loads((lesson / "src" / "01_demo.ipynb").read_text())
    assert syllabus.markdown_words(nb) == 280
    assert syllabus.exercise_kinds(nb) == {"number": 1, "choice": 1, "written": 1}


def test_estimate_adds_reading_exercises_and_stated_computing(lesson):
    t = syllabus.estimate(lesson / "src" / "01_demo.ipynb", stated_seconds=90)
    assert t.reading_minutes == pytest.approx(280 / syllabus.READING_WPM)
    assert t.exercise_minutes == sum(syllabus.EXERCISE_MINUTES[k] for k in ("number", "choice", "written"))
    assert t.compute_source == "lessons.yaml"
    expected = t.reading_minutes + t.exercise_minutes + 1.5          # 2.0 + 10 + 1.5 = 13.5 -> 15
    assert t.minutes == 15 and 10 < expected <= 15
    assert syllabus.estimated_minutes(lesson / "src" / "01_demo.ipynb") == 15


def test_cell_timings_win_over_the_stated_seconds(lesson):
    write(lesson / "01_demo.ipynb", [code("x = 1", duration=200.0), code("y = 2", duration=400.0)])
    t = syllabus.estimate(lesson / "src" / "01_demo.ipynb", executed=lesson / "01_demo.ipynb", stated_seconds=90)
    assert (t.compute_seconds, t.compute_source) == (600.0, "cell timings")
    assert t.minutes == 25                                            # 2.0 + 10 + 10 = 22 -> 25
    assert syllabus.estimated_minutes(lesson / "src" / "01_demo.ipynb") == 25


def test_bad_input_is_named(lesson):
    src = lesson / "src" / "01_demo.ipynb"
    with pytest.raises(InvalidParameterError, match="no computing time"):
        syllabus.estimate(src)
    with pytest.raises(InvalidParameterError, match="no notebook"):
        syllabus.estimate(lesson / "src" / "missing.ipynb", stated_seconds=1)
    write(src, [code("ex = checks.brand_new(x)", ["check"])])
    with pytest.raises(InvalidParameterError, match="checks.brand_new is of no known kind"):
        syllabus.estimate(src, stated_seconds=1)
    write(src, [code("x = 1", ["check"])])
    with pytest.raises(InvalidParameterError, match="calls no exercise check"):
        syllabus.estimate(src, stated_seconds=1)


def test_main_prints_the_table(lesson, capsys):
    syllabus.main([str(lesson)])
    out = capsys.readouterr().out
    assert "| 01_demo.ipynb | 280 | 2.0 | 1 number, 1 choice, 1 written | 10 | 90 (lessons.yaml) | 15 | 15 |" in out


@pytest.mark.skipif(not (LESSONS / "lessons.yaml").is_file(), reason="needs a checkout of the repository")
def test_the_index_minutes_are_the_estimates():
    doc = yaml.safe_load((LESSONS / "lessons.yaml").read_text(encoding="utf-8"))
    for entry in doc["lessons"]:
        assert entry["minutes"] == syllabus.estimated_minutes(LESSONS / "src" / entry["file"]), entry["file"]
    assert doc["total_minutes"] == sum(e["minutes"] for e in doc["lessons"])


def _table_minutes(page: str, pattern: str) -> dict[str, int]:
    """{lesson file: minutes} from the rows of a guide's table that name a lesson's file."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(pattern, page, re.M)}


def test_the_guides_tables_state_the_indexs_minutes():
    root = paths.ROOT
    index = {e["file"]: e["minutes"]
             for e in yaml.safe_load((root / "notebooks/lessons/lessons.yaml").read_text(encoding="utf-8"))["lessons"]}
    teaching = (root / "docs/teaching.md").read_text(encoding="utf-8")
    path = _table_minutes(teaching, r"^\| \d \| [^|]*\(`(\d\d_\w+\.ipynb)`[^|]*\| (\d+) \|")
    assert path == index
    lessons = (root / "docs/lessons.md").read_text(encoding="utf-8")
    listed = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^\| (\d)\. [^|]*\| (\d+) \|", lessons, re.M)}
    assert listed == {int(f[:2]): v for f, v in index.items()}
