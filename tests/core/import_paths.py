"""Reading the repository's Python sources for the path a name is imported by (one place per thing). Used by
test_errors.py (every error from :mod:`wordbias.core.errors`) and test_vectors.py (the vector
helpers from :mod:`wordbias.core.vectors`)."""
from __future__ import annotations

import ast
import doctest
import importlib
import json
import pkgutil
import types
from collections.abc import Collection, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the optional extras a module may need (without them it is skipped)
OPTIONAL = ("torch", "transformers")


def modules() -> list[types.ModuleType]:
    """Every module of the installed package, imported (one that needs a missing optional extra is skipped)."""
    import wordbias

    found = [wordbias]
    for info in pkgutil.walk_packages(wordbias.__path__, prefix="wordbias."):
        if info.name.endswith("__main__"):
            continue
        try:
            found.append(importlib.import_module(info.name))
        except ImportError as exc:  # pragma: no cover - only without the contextual extra
            if exc.name is None or exc.name.split(".")[0] not in OPTIONAL:
                raise
    return found


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Local name -> the wordbias module or object it stands for (``from wordbias.core import errors as E``: E ->
    wordbias.core.errors; ``import wordbias.core.errors``: wordbias -> wordbias)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "wordbias":
                    out[a.asname or "wordbias"] = a.name if a.asname else "wordbias"
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "wordbias":
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """``a.b.c`` as the wordbias path it names, or None when its base is not a wordbias import."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return ".".join([aliases[node.id], *reversed(parts)])


def wrong_paths(code: str, names: Collection[str], home: str) -> list[str]:
    """The places in Python ``code`` that reach one of ``names`` through a wordbias module other than ``home``:
    ``from wordbias.X import name``, and ``X.name`` where X is a wordbias module imported under any alias. An
    attribute of something that is not a wordbias import (``err.name``) cannot be told and is not reported."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    aliases, bad = _aliases(tree), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "wordbias":
            bad += [f"line {node.lineno}: from {node.module} import {a.name}" for a in node.names
                    if a.name in names and node.module != home]
        elif isinstance(node, ast.Attribute) and node.attr in names:
            path = _dotted(node.value, aliases)
            if path is not None and path != home:
                bad.append(f"line {node.lineno}: {path}.{node.attr}")
    return sorted(bad, key=lambda s: int(s.split()[1].rstrip(":")))


def python_sources() -> Iterator[tuple[Path, str]]:
    """(file, code) for every Python text of the repository: the package, tests, scripts, benchmarks and tools
    (each file, then its doctest examples), the notebook and lesson sources (their code cells, IPython magics
    left out), and the doctest examples of the README and docs/."""
    files = [p for folder in ("lib/wordbias", "tests", "scripts", "benchmarks", "tools")
             for p in sorted((ROOT / folder).rglob("*.py"))]
    for path in files:
        text = path.read_text(encoding="utf-8")
        yield path, text
        yield path, "\n".join(e.source for e in doctest.DocTestParser().get_examples(text))
    for folder in ("notebooks/src", "notebooks/lessons/src"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
            yield path, "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        yield path, "\n".join(e.source for e in doctest.DocTestParser().get_examples(path.read_text("utf-8")))


def prose() -> Iterator[tuple[Path, str]]:
    """(file, text) of what names things by their dotted path in prose: the README, docs/, the package's
    docstrings and comments."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
                 *sorted((ROOT / "lib" / "wordbias").rglob("*.py"))]:
        yield path, path.read_text(encoding="utf-8")
