"""Lessons outside a checkout: the committed tables the lessons read ship in the wheel (``results/`` as the package
data ``wordbias/results``, pyproject.toml), and an installed wheel reads them from there (``paths.COMMITTED_RESULTS``; what a run writes still goes to ``paths.RESULTS``, under the current folder)."""

import ast
import json
import re
import tomllib
from pathlib import Path

import pytest

from wordbias.core import paths

ROOT = paths.ROOT
LESSON_SOURCES = sorted((ROOT / "notebooks" / "lessons" / "src").glob("*.ipynb"))
pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file() or not LESSON_SOURCES,
                                reason="needs a checkout of the repository")


def setuptools_config():
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]


def packaged_results() -> set[Path]:
    """The files of results/ the wheel ships: every file matched by a package-data glob of wordbias.results."""
    config = setuptools_config()
    assert "wordbias.results" in config["packages"]
    folder = ROOT / config["package-dir"]["wordbias.results"]
    return {p for pattern in config["package-data"]["wordbias.results"] for p in folder.glob(pattern) if p.is_file()}


def code_lines(nb: dict):
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            yield "\n".join(line for line in source.split("\n") if not line.lstrip().startswith(("%", "!")))


def read_results_calls(path: Path) -> list[tuple[str, str, str]]:
    """(paper, file, embedding) of every ``read_results`` call of a lesson source; a name argument is looked up
    among the notebook's assignments of a string (its parameters)."""
    trees = [ast.parse(code) for code in code_lines(json.loads(path.read_text(encoding="utf-8")))]
    strings = {t.id: n.value.value for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Assign)
               for t in n.targets if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant)
               and isinstance(n.value.value, str)}

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name) and node.id in strings:
            return strings[node.id]
        raise AssertionError(f"{path.name}: read_results argument {ast.unparse(node)} is not a known string")

    calls = []
    for tree in trees:
        for node in ast.walk(tree):
            func = node.func if isinstance(node, ast.Call) else None
            if func is not None and (getattr(func, "attr", None) or getattr(func, "id", None)) == "read_results":
                keywords = {k.arg: value(k.value) for k in node.keywords}
                calls.append((value(node.args[0]), value(node.args[1]), keywords.get("embedding", "glove-6b-50d")))
    return calls


def test_every_committed_result_is_package_data():
    tracked = {p for p in (ROOT / "results").rglob("*") if p.is_file()}
    assert tracked, "results/ is empty"
    missing = sorted(p.relative_to(ROOT).as_posix() for p in tracked - packaged_results())
    assert not missing, f"results/ files the wheel would leave out (add a glob to pyproject.toml): {missing}"


def test_every_table_a_lesson_reads_is_packaged():
    calls = [c for p in LESSON_SOURCES for c in read_results_calls(p)]
    assert ("caliskan2017", "table1.csv", "glove-840b-caliskan") in calls          # Lesson 2's table
    packaged = packaged_results()
    for paper, name, embedding in calls:
        assert ROOT / "results" / paper / embedding / name in packaged, (paper, name, embedding)


def test_swinger_views_read_packaged_tables():
    """Lesson 4 reads UBE's committed tables through wordbias.papers.swinger2019."""
    source = (Path(paths.__file__).parents[1] / "papers" / "swinger2019.py").read_text(encoding="utf-8")
    names = set(re.findall(r'read_results\("swinger2019", f?"([^"]+)"', source))
    assert "summary.csv" in names
    packaged = packaged_results()
    for name in names:
        for kind in ("first", "last"):
            path = ROOT / "results" / "swinger2019" / "glove-6b-50d" / name.replace("{kind}", kind)
            assert path in packaged, path


def test_an_installed_wheel_reads_its_packaged_results(tmp_path, monkeypatch):
    package = tmp_path / "site-packages" / "wordbias"
    (package / "results" / "caliskan2017").mkdir(parents=True)
    monkeypatch.setattr(paths, "IN_CHECKOUT", False)
    monkeypatch.delenv("WORDBIAS_ROOT", raising=False)
    monkeypatch.setattr(paths.resources, "files", lambda name: package)
    assert paths._results_dir(tmp_path / "cwd") == package / "results"
    monkeypatch.setenv("WORDBIAS_ROOT", str(tmp_path / "mine"))      # WORDBIAS_ROOT: its own results/
    assert paths._results_dir(tmp_path / "mine") == tmp_path / "mine" / "results"
    monkeypatch.delenv("WORDBIAS_ROOT")
    (package / "results" / "caliskan2017").rmdir()
    (package / "results").rmdir()                                    # a wheel without them: the root's
    assert paths._results_dir(tmp_path / "cwd") == tmp_path / "cwd" / "results"
    monkeypatch.setattr(paths, "IN_CHECKOUT", True)                  # a checkout: its results/
    assert paths._results_dir(ROOT) == ROOT / "results"
