"""Links in the lesson notebooks: every relative link of every lesson notebook (instructor sources, executed
copies, student versions) resolves from the folder the notebook is in; assign rewrites links for the folder it
writes to, idempotently."""

import json
import re
from pathlib import Path

import pytest

from wordbias.core import paths
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


def test_assign_rewrites_links_for_its_output_folder(tmp_path):
    """The student versions written elsewhere (a course folder) keep a working link to the guide."""
    out = tmp_path / "course" / "week1"
    written = assign.assign_dir(LESSONS / "src", out)
    for path in written:
        for _, target in relative_links(json.loads(path.read_text(encoding="utf-8"))):
            assert (Path(path).parent / target.partition("#")[0]).resolve().exists(), (path.name, target)


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
