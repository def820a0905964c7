"""The package's layer order, held by reading every module's imports (ast):

    core  <-  stats  <-  catalogue, result, embeddings, datasets, models  <-  measures  <-  battery, papers, teaching
          <-  cli

A module may import its own sub-package and any lower layer, never a higher one; within one layer, only the
imports listed in KNOWN_SAME_LAYER are allowed. KNOWN_DEBT lists the imports that break the order today, each
to be removed: the test fails on any import outside these lists, and on a listed one that is gone (so
the list only shrinks)."""
from __future__ import annotations

import ast
from pathlib import Path

import wordbias

ROOT = Path(wordbias.__file__).parent
LAYERS = {"core": 0, "stats": 1, "catalogue": 2, "result": 2, "options": 2, "embeddings": 2, "datasets": 2, "models": 2,
          "measures": 3, "battery": 4, "papers": 4, "teaching": 4, "cli": 5, "__main__": 6, "__init__": 6}
#: imports between sub-packages of one layer that are part of the design
#: a model reads the data sets it is trained or planted on; a trained embedding is written as an embedding cache
#: the one result reads the catalogue (which measures have a test); a paper runs the battery's methods and views on
#: the paper's embedding (never the other way round: a user's embedding does not pass through papers/)
KNOWN_SAME_LAYER = {("models", "datasets"), ("models", "embeddings"), ("result", "catalogue"), ("papers", "battery")}
#: (importing module, imported sub-package): imports that break the order today, to be removed
KNOWN_DEBT: set[tuple[str, str]] = set()  # none left


def _imports(path: Path) -> set[str]:
    """The wordbias sub-packages ``path`` imports (lazily inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "wordbias":
            names = [node.module] + ([f"wordbias.{a.name}" for a in node.names] if node.module == "wordbias" else [])
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] == "wordbias"]
        found |= {n.split(".")[1] for n in names if len(n.split(".")) > 1 and n.split(".")[1] in LAYERS}
    return found


def _violations() -> set[tuple[str, str]]:
    bad = set()
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        own = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        for target in _imports(path) - {own}:
            if LAYERS[target] > LAYERS[own] or (LAYERS[target] == LAYERS[own]
                                                and (own, target) not in KNOWN_SAME_LAYER):
                bad.add((rel.as_posix(), target))
    return bad


def test_no_import_breaks_the_layer_order():
    new = _violations() - KNOWN_DEBT
    assert not new, f"imports against the layer order (core <- stats <- catalogue, result, embeddings, datasets, " \
                    f"models <- measures <- battery, papers, teaching <- cli): {sorted(new)}"


def test_the_debt_list_only_shrinks():
    gone = KNOWN_DEBT - _violations()
    assert not gone, f"these imports are gone: remove them from KNOWN_DEBT: {sorted(gone)}"


def test_the_check_sees_a_violation(tmp_path, monkeypatch):
    """The check can fail: a core module importing a measure is caught."""
    fake = tmp_path / "wordbias"
    (fake / "core").mkdir(parents=True)
    (fake / "core" / "bad.py").write_text("def f():\n    from wordbias.measures import weat\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", fake)
    assert _violations() == {("core/bad.py", "measures")}
