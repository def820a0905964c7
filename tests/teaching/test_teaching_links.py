"""Links in the lesson notebooks: every relative link of every lesson notebook (instructor sources, executed
copies, student versions) resolves from the folder the notebook is in; assign rewrites links for the folder it
writes to, idempotently, to the published pages when that folder is outside the checkout; the student versions link
no teachers' page; assign writes nothing outside its folder."""

import json
import re
from pathlib import Path

import pytest

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.teaching import assign

LESSONS = paths.ROOT / "notebooks" / "lessons"
NOTEBOOKS = sorted([*LESSONS.glob("[0-9][0-9]_*.ipynb"), *(LESSONS / "src").glob("*.ipynb"),
                    *(LESSONS / "student").glob("*.ipynb")])
# [text](target), ![alt](target), <a href="target">, <img src="target">
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)|\b(?:href|src)=[\"']([^\"']+)")


def relative_links(nb):
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for m in LINK.finditer("".join(cell["source"])):
            target = m.group(1) or m.group(2)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^#|^/", target):
                continue                       # a URL, an anchor in the notebook, an absolute path
            yield index, target


@pytest.mark.skipif(not NOTEBOOKS, reason="needs a checkout of the repository")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(LESSONS)))
def test_every_relative_link_resolves_from_the_notebook_s_folder(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    links = list(relative_links(nb))
    assert links, "each lesson links the teacher's guide"
    broken = [(i, t) for i, t in links if not (path.parent / t.partition("#")[0]).exists()]
    assert not broken, f"{path.relative_to(LESSONS)}: links that do not resolve (cell, target): {broken}"


def test_all_three_folders_are_covered():
    if not NOTEBOOKS:
        pytest.skip("needs a checkout of the repository")
    assert {p.parent for p in NOTEBOOKS} == {LESSONS, LESSONS / "src", LESSONS / "student"}


def test_relink_source(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("x")
    src, out = tmp_path / "a" / "b" / "src", tmp_path / "a" / "b"
    src.mkdir(parents=True)
    text = ("[guide](../../../docs/guide.md#grading) ![fig](../../../docs/guide.md) "
            '<a href="../../../docs/guide.md">g</a> [web](https://x.org/a.md) [here](#top) [gone](../nothing.md)')
    moved = assign.relink_source(text, src, out)
    assert moved == ("[guide](../../docs/guide.md#grading) ![fig](../../docs/guide.md) "
                     '<a href="../../docs/guide.md">g</a> [web](https://x.org/a.md) [here](#top) [gone](../nothing.md)')
    assert assign.relink_source(moved, src, out) == moved            # a second run changes nothing
    deeper = tmp_path / "a" / "b" / "c" / "d"
    deeper.mkdir(parents=True)
    assert assign.relink_source("[g](../../../docs/guide.md)", src, deeper) == "[g](../../../../docs/guide.md)"


TEACHER_TARGET = re.compile(r"(^|/)docs/(teaching|answer_key|developing_lessons)\.(md|html)|(^|/)docs/teacher/"
                            r"|/(teaching|answer_key|developing_lessons)\.html|/teacher/")


def all_links(nb):
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            for m in LINK.finditer("".join(cell["source"])):
                yield index, m.group(1) or m.group(2)


STUDENT = sorted((LESSONS / "student").glob("*.ipynb"))


@pytest.mark.skipif(not STUDENT, reason="needs a checkout of the repository")
@pytest.mark.parametrize("path", STUDENT, ids=lambda p: p.name)
def test_student_versions_link_the_students_page_not_the_teachers(path):
    links = list(all_links(json.loads(path.read_text(encoding="utf-8"))))
    assert (0, "../../../docs/syllabus.md") in links          # the header's link
    assert not [(i, t) for i, t in links if TEACHER_TARGET.search(t)]


def test_assign_outside_the_checkout_links_the_published_pages(tmp_path):
    """Student versions written to a course folder outside the checkout link the published site and repository,
    never a path into the teacher's checkout, and no teachers' page."""
    out = tmp_path / "course" / "week1"
    written = assign.assign_dir(LESSONS / "src", out)
    urls = assign.project_urls()
    for path in written:
        links = list(all_links(json.loads(path.read_text(encoding="utf-8"))))
        assert (0, f"{urls['Documentation']}/syllabus.html") in links, path.name      # the header's link
        for index, target in links:
            assert not TEACHER_TARGET.search(target), (path.name, index, target)
            if not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^#", target):
                assert (out / target.partition("#")[0]).resolve().is_relative_to(out), (path.name, target)
    debias = json.loads((out / "07_debiasing.ipynb").read_text(encoding="utf-8"))
    assert f"{urls['Repository']}/blob/main/notebooks/src/debias.ipynb" in dict(all_links(debias)).values()


def test_assign_inside_the_checkout_links_the_students_page(tmp_path):
    """Within a checkout (here a copy of its layout) the student versions link docs/syllabus.md relatively."""
    (tmp_path / "docs" / "teacher").mkdir(parents=True)
    for page in ("teaching.md", "syllabus.md", "teacher/lectures.md"):
        (tmp_path / "docs" / page).write_text("x")
    src = tmp_path / "notebooks" / "lessons" / "src"
    src.mkdir(parents=True)
    text = ("part of the path ([teacher's guide](../../../docs/teaching.md#grading)); [notes](../../../docs/teacher/"
            'lectures.md) <a href="../../../docs/teaching.md">guide</a> [key](../../../docs/answer_key.md)')
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": text}], "metadata": {}, "nbformat": 4,
          "nbformat_minor": 5}
    (src / "01_a.ipynb").write_text(json.dumps(nb))
    out = src.parent / "student"
    assign.assign_dir(src, out)
    student = "".join(json.loads((out / "01_a.ipynb").read_text())["cells"][0]["source"])
    assert student == ("part of the path ([syllabus](../../../docs/syllabus.md)); [syllabus](../../../docs/syllabus.md)"
                       ' <a href="../../../docs/syllabus.md">guide</a> [syllabus](../../../docs/syllabus.md)')
    # the instructor notebooks and the executed lessons keep their links to the teacher's guide
    assert assign.relink_notebook(nb, src, src.parent)["cells"][0]["source"].startswith(
        "part of the path ([teacher's guide](../../docs/teaching.md#grading))")


def test_student_links_keeps_other_links():
    text = "[paper](https://doi.org/x) [data](../../data/x.md) [here](#top) ![fig](../../../docs/teaching.md)"
    assert assign.student_links(text, "/c/notebooks/lessons/src") == text   # an image is not a link to a page


def test_public_url():
    urls = assign.project_urls()
    assert assign.public_url("docs/guide/data.md", "sources") == f"{urls['Documentation']}/guide/data.html#sources"
    assert assign.public_url("notebooks/src") == f"{urls['Repository']}/tree/main/notebooks/src"
    assert assign.public_url(paths.ROOT / "README.md") == f"{urls['Repository']}/blob/main/README.md"
    with pytest.raises(InvalidParameterError, match="is not a file of the checkout"):
        assign.public_url("/etc/passwd")


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_assign_writes_nothing_outside_its_folder(tmp_path, capsys):
    """python -m wordbias.teaching.assign SRC OUT: the checkout's lesson folders and docs/, and the rest of
    tmp_path, are unchanged; only OUT's notebooks are new."""
    watched = [LESSONS, paths.ROOT / "docs"]
    before = [snapshot(f) for f in watched]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    out = tmp_path / "course" / "week1"
    assign.main([str(LESSONS / "src"), str(out)])
    assert [snapshot(f) for f in watched] == before
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    names = sorted(p.name for p in (LESSONS / "src").glob("*.ipynb"))
    assert written == sorted(["other/keep.txt"] + [f"course/week1/{n}" for n in names])
    assert capsys.readouterr().out.split() == [str(out / n) for n in names]


def test_assign_refuses_links_and_solutions_in_its_folder(tmp_path):
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "outputs": [], "execution_count": None,
                     "source": "### BEGIN SOLUTION\nx = 1\n### END SOLUTION"}], "metadata": {}, "nbformat": 4,
          "nbformat_minor": 5}
    (src / "a.ipynb").write_text(json.dumps(nb))
    elsewhere = tmp_path / "elsewhere.ipynb"
    elsewhere.write_text("{}")
    (out / "a.ipynb").symlink_to(elsewhere)
    with pytest.raises(ValueError, match="is a link to .*writes only into the output folder"):
        assign.assign_dir(src, out)
    assert elsewhere.read_text() == "{}"
    (out / "a.ipynb").unlink()
    (out / "a.ipynb").write_text(json.dumps(nb))        # an instructor lesson copied into the folder
    with pytest.raises(ValueError, match="holds solutions"):
        assign.assign_dir(src, out)
    assert "BEGIN SOLUTION" in (out / "a.ipynb").read_text()


def test_relink_in_place_command(tmp_path, capsys):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("x")
    (tmp_path / "n" / "src").mkdir(parents=True)
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["see [the guide](../../docs/guide.md)"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "n" / "lesson.ipynb"
    path.write_text(json.dumps(nb))
    assign.main(["--relink-from", str(tmp_path / "n" / "src"), str(path)])
    assert json.loads(path.read_text())["cells"][0]["source"] == "see [the guide](../docs/guide.md)"
