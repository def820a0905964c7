"""The lesson path (notebooks/lessons/): the index agrees with the sources, every lesson has its parameters cell,
goals, time and wrap-up, no `def` in a cell, the core lessons (1-4, 6, 7 and 9) need no torch, each of them and the
language-model lesson (8) has at least two exercises with checks, and the student versions built from the real
sources hold no solution."""

import json
import re
import subprocess
import sys

import pytest
import yaml

from wordbias.core import paths
from wordbias.teaching import assign

LESSONS = paths.ROOT / "notebooks" / "lessons"
pytestmark = pytest.mark.skipif(not (LESSONS / "lessons.yaml").is_file(), reason="needs a checkout of the repository")


def index():
    return yaml.safe_load((LESSONS / "lessons.yaml").read_text(encoding="utf-8"))["lessons"]


def load(name):
    return json.loads((LESSONS / "src" / name).read_text(encoding="utf-8"))


def source(cell):
    return "".join(cell["source"])


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def test_index_schema_and_files():
    lessons = index()
    assert [entry["file"] for entry in lessons] == sorted(p.name for p in (LESSONS / "src").glob("*.ipynb"))
    for entry in lessons:
        assert set(entry) >= {"file", "title", "minutes", "needs", "goals"}
        assert entry["needs"] in ("core", "contextual", "lm")
        assert isinstance(entry["minutes"], int) and entry["minutes"] > 0
        assert len(entry["goals"]) >= 2 and all(isinstance(g, str) and g for g in entry["goals"])
    core = [e for e in lessons if e["needs"] == "core"]
    assert len(core) == 7
    doc = yaml.safe_load((LESSONS / "lessons.yaml").read_text(encoding="utf-8"))
    assert sum(e["minutes"] for e in lessons) == doc["total_minutes"]   # tests/teaching/test_syllabus.py: each the estimate


@pytest.mark.parametrize("entry", index(), ids=lambda e: e["file"])
def test_lesson_structure(entry):
    nb = load(entry["file"])
    assert nb["metadata"]["kernelspec"]["name"] == "wordbias"
    header = source(nb["cells"][0])
    assert header.startswith("# ") and entry["title"].replace(" (optional)", "") in header.splitlines()[0]
    assert f"About {entry['minutes']} minutes" in header and "Learning goals" in header
    assert "Wrap-up" in source([c for c in nb["cells"] if c["cell_type"] == "markdown"][-1])
    cells = code_cells(nb)
    assert "parameters" in cells[0]["metadata"].get("tags", [])
    for cell in cells:
        text = source(cell)
        assert not re.search(r"^\s*(def|class)\s", text, re.M), text      # notebooks are thin: no algorithm in a cell
        assert "lambda" not in text
        assert not cell.get("outputs"), f"{entry['file']}: the source keeps no outputs"
    if entry["needs"] == "core":
        for cell in cells:
            assert not re.search(r"\b(torch|transformers|wordbias\.models)\b", source(cell)), source(cell)


@pytest.mark.parametrize("entry", [e for e in index() if e["needs"] in ("core", "lm")], ids=lambda e: e["file"])
def test_lessons_have_checked_exercises(entry):
    cells = load(entry["file"])["cells"]
    solutions = [i for i, c in enumerate(cells) if "solution" in c["metadata"].get("tags", [])]
    assert len(solutions) >= 2
    grade_ids, scored = set(), 0
    for i in solutions:
        nbg = cells[i]["metadata"]["nbgrader"]
        check = cells[i + 1]
        check_nbg, check_tags = check["metadata"]["nbgrader"], check["metadata"]["tags"]
        assert "check" in check_tags and "checks." in source(check)
        if "written" in cells[i]["metadata"]["tags"]:       # a manually graded answer; its check only records
            assert nbg["solution"] is True and nbg["grade"] is True and nbg["points"] == 2
            assert "checks.written(" in source(check)
        else:
            assert nbg["solution"] is True and nbg["grade"] is False
        unscored = "checks.written(" in source(check) or "checks.prediction(" in source(check)
        assert ("prediction" in check_tags) == ("checks.prediction(" in source(check))
        if unscored:                                        # predictions and written answers earn no free point
            assert check_nbg["grade"] is False and "points" not in check_nbg
        else:
            assert check_nbg["grade"] is True and check_nbg["points"] > 0
            scored += 1
        grade_ids |= {nbg["grade_id"], check_nbg["grade_id"]}
    assert len(grade_ids) == 2 * len(solutions) and scored >= 2


def test_content_warning_where_ube_is_shown():
    for entry in index():
        text = json.dumps(load(entry["file"]))
        if "ube_associations" in text:
            assert "Content warning" in text and "censor" in text and entry.get("content_warning")


def test_student_versions_of_the_real_lessons(tmp_path):
    written = assign.assign_dir(LESSONS / "src", tmp_path)
    assert [p.name for p in written] == [e["file"] for e in index()]
    for path in written:
        student = json.loads(path.read_text(encoding="utf-8"))
        instructor = load(path.name)
        assert len(student["cells"]) == len(instructor["cells"])
        text = json.dumps(student)
        assert "BEGIN SOLUTION" not in text
        for cell in instructor["cells"]:
            body = source(cell)
            for region in re.findall(r"### BEGIN SOLUTION\n(.*?)\n### END SOLUTION", body, re.S):
                for line in region.splitlines():
                    rhs = line.split("=", 1)[-1].strip()
                    assert rhs and rhs not in text, (path.name, line)
        for cell in student["cells"]:
            if "solution" in cell["metadata"].get("tags", []):
                assert "...  # your answer here" in source(cell)


def test_core_lesson_imports_do_not_load_torch():
    """Lessons 1-4 import these; a light environment without torch must run them."""
    imports = set()
    for entry in index():
        if entry["needs"] == "core":
            for cell in code_cells(load(entry["file"])):
                imports |= set(re.findall(r"^(?:from|import) (wordbias[\w.]*)", source(cell), re.M))
    assert "wordbias.teaching" in imports
    code = "import sys, importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in sorted(imports)) + \
           "import wordbias.teaching.checks, wordbias.teaching.explorer, wordbias.papers.swinger2019\n" \
           "assert 'torch' not in sys.modules and 'transformers' not in sys.modules, 'torch imported'\n"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_untouched_student_notebook_runs_to_the_end():
    """Run All on a student version, untouched: every placeholder gives a "fill in" message, and the cell that
    uses Exercise 1's word list (lesson 3) skips with "fill in ... first" instead of stopping the run."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    path = LESSONS / "student" / "03_your_own_word_lists.ipynb"
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()        # raises CellExecutionError if a cell fails
    text = json.dumps([c.get("outputs", []) for c in nb.cells], ensure_ascii=False)
    assert text.count("fill in ...") >= 3 and '"output_type": "error"' not in text
    assert 'fill in \\"word list\\" first (its check has to pass)' in text
