"""wordbias.teaching.assign: solutions replaced by placeholders that keep the assignment targets, outputs
cleared, unpaired markers refused, and the command line on a folder."""

import json

import pytest

from wordbias.core.errors import SolutionMarkerError
from wordbias.teaching import assign


def cell(source, tags=(), cell_type="code", outputs=None):
    c = {"cell_type": cell_type, "metadata": {"tags": list(tags)}, "source": source}
    if cell_type == "code":
        c["outputs"] = outputs if outputs is not None else [{"output_type": "stream", "name": "stdout",
                                                              "text": "42\n"}]
        c["execution_count"] = 3
    return c


def notebook(*cells):
    return {"cells": list(cells), "metadata": {"kernelspec": {"name": "wordbias"}, "papermill": {"x": 1}},
            "nbformat": 4, "nbformat_minor": 5}


SOLVED = cell("rose = kv['rose']\n### BEGIN SOLUTION\nsecret_cos = np.dot(rose, love) / 7\n### END SOLUTION\n"
              "print(secret_cos)", tags=["solution"])


def test_student_source_keeps_targets():
    src = "### BEGIN SOLUTION\nd = (a - b) / s\nS: float = a.sum()\nx, y = 1, 2\nz += 1\n### END SOLUTION"
    assert assign.student_source(src).split("\n") == [
        "d = ...  # your answer here", "S: float = ...  # your answer here", "(x, y) = ...  # your answer here",
        "z = ...  # your answer here"]


def test_student_source_without_assignment_and_indented():
    assert assign.student_source("### BEGIN SOLUTION\nprint(1)\n### END SOLUTION") == "...  # your answer here"
    src = "if True:\n    ### BEGIN SOLUTION\n    answer = 'b'\n    ### END SOLUTION\n"
    assert assign.student_source(src) == "if True:\n    answer = ...  # your answer here\n"


def test_student_source_several_regions_and_repeated_targets():
    src = ("a = 1\n### BEGIN SOLUTION\nx = 1\nx = x + 1\n### END SOLUTION\nb = 2\n"
           "### BEGIN SOLUTION\ny = 3\n### END SOLUTION")
    assert assign.student_source(src) == "a = 1\nx = ...  # your answer here\nb = 2\ny = ...  # your answer here"


@pytest.mark.parametrize("src, message", [
    ("### BEGIN SOLUTION\nx = 1\n", "without an ### END SOLUTION"),
    ("x = 1\n### END SOLUTION", "line 2: ### END SOLUTION without a ### BEGIN SOLUTION"),
    ("### BEGIN SOLUTION\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION", "inside the region opened on line 1"),
    ("### BEGIN SOLUTION\nx = = 1\n### END SOLUTION", "not valid Python"),
])
def test_unpaired_or_bad_markers_are_refused(src, message):
    with pytest.raises(SolutionMarkerError, match=message):
        assign.student_source(src, where="lesson.ipynb, cell 4")


def test_student_notebook_round_trip():
    nb = notebook(cell("# Parameters\nseed = 0", tags=["parameters"]), SOLVED,
                  cell("ex1 = checks.cosine(secret_cos, rose, love)", tags=["check"]),
                  cell("Text with `...`", cell_type="markdown"))
    student = assign.student_notebook(nb, "l.ipynb")
    assert nb["cells"][1]["outputs"]          # the input is not modified
    assert [c["cell_type"] for c in student["cells"]] == ["code", "code", "code", "markdown"]
    assert student["cells"][1]["source"] == "rose = kv['rose']\nsecret_cos = ...  # your answer here\nprint(secret_cos)"
    assert student["cells"][1]["metadata"]["tags"] == ["solution"]     # students see which cells are theirs
    assert student["cells"][0]["source"] == nb["cells"][0]["source"]
    assert student["cells"][2]["source"] == nb["cells"][2]["source"]
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in student["cells"] if c["cell_type"] == "code")
    assert "papermill" not in student["metadata"]
    # the sources ask for the kernel `make env` registers; the student versions for Jupyter's default one, so
    # that they open in any environment with wordbias installed (Binder, Colab, a pip install)
    assert nb["metadata"]["kernelspec"] == {"name": "wordbias"}
    assert student["metadata"]["kernelspec"]["name"] == "python3"
    text = json.dumps(student)
    assert "np.dot" not in text and "BEGIN SOLUTION" not in text and "END SOLUTION" not in text


def test_list_sources_are_accepted():
    nb = notebook(cell(["### BEGIN SOLUTION\n", "k = 5\n", "### END SOLUTION"], tags=["solution"]))
    assert assign.student_notebook(nb)["cells"][0]["source"] == "k = ...  # your answer here"


@pytest.mark.parametrize("bad, message", [
    (cell("### BEGIN SOLUTION\nx = 1\n### END SOLUTION"), "not the cell tag 'solution'"),
    (cell("x = 1", tags=["solution"]), "tagged 'solution' but has no"),
    (cell("### BEGIN SOLUTION\nanswer\n### END SOLUTION", cell_type="markdown"), "in a markdown cell"),
    (cell("### BEGIN SOLUTION\nx = 1", tags=["solution"]), "cell 1, line 1"),
])
def test_student_notebook_refuses(bad, message):
    with pytest.raises(SolutionMarkerError, match=message):
        assign.student_notebook(notebook(cell("a = 1"), bad), "lesson.ipynb")


def test_assign_dir_and_main(tmp_path, capsys):
    src, out = tmp_path / "src", tmp_path / "student"
    src.mkdir()
    (src / "b.ipynb").write_text(json.dumps(notebook(SOLVED)))
    (src / "a.ipynb").write_text(json.dumps(notebook(cell("x = 1"))))
    assign.main([str(src), str(out)])
    assert capsys.readouterr().out.split() == [str(out / "a.ipynb"), str(out / "b.ipynb")]
    student = json.loads((out / "b.ipynb").read_text())
    assert "np.dot" not in json.dumps(student) and student["cells"][0]["outputs"] == []


def test_assign_dir_checks_every_notebook_before_writing(tmp_path):
    src, out = tmp_path / "src", tmp_path / "student"
    src.mkdir()
    (src / "a.ipynb").write_text(json.dumps(notebook(cell("x = 1"))))
    (src / "b.ipynb").write_text(json.dumps(notebook(cell("### END SOLUTION", tags=["solution"]))))
    with pytest.raises(SolutionMarkerError, match="b.ipynb, cell 0"):
        assign.assign_dir(src, out)
    assert not out.exists()


def test_main_errors_are_clear(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        assign.main([str(tmp_path / "none"), str(tmp_path / "out")])
    assert exc.value.code == 2 and "is not a folder" in capsys.readouterr().err
    (tmp_path / "src").mkdir()
    with pytest.raises(SystemExit):
        assign.main([str(tmp_path / "src"), str(tmp_path / "out")])
    assert "no .ipynb" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        assign.main([str(tmp_path / "src"), str(tmp_path / "src")])
    assert "the solutions would be overwritten" in capsys.readouterr().err
