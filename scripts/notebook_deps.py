#!/usr/bin/env python3
"""Print the library files a notebook depends on: the wordbias modules its code cells import, and the modules
those import in turn (relative imports), found by reading the sources (nothing is imported or executed).

Used by the Makefile for true prerequisites: `python3 scripts/notebook_deps.py notebooks/src/caliskan2017.ipynb`.
"""
from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

LIB = Path(__file__).resolve().parents[1] / "lib" / "wordbias"


def module_file(dotted: str) -> Path | None:
    """lib/wordbias/<a>/<b>.py or .../__init__.py for 'wordbias.a.b', if it exists."""
    parts = dotted.split(".")[1:]
    base = LIB.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported(tree: ast.AST, package: str) -> set[str]:
    """Dotted names of the wordbias modules a syntax tree imports (``package``: the importing module's package)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.split(".")[0] == "wordbias"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "wordbias":
                continue
            names.add(mod)
            names |= {f"{mod}.{a.name}" for a in node.names}  # `from wordbias import weat` names a module
    return names


def closure(start: set[str]) -> set[Path]:
    """Files of the modules in ``start`` and of everything they import, transitively."""
    seen: set[Path] = set()
    todo = list(start)
    while todo:
        path = module_file(todo.pop())
        if path is None or path in seen:
            continue
        seen.add(path)
        rel = path.relative_to(LIB.parent).with_suffix("")
        package = ".".join(rel.parts[:-1] if rel.name != "__init__" else rel.parts[:-1])
        if rel.name == "__init__":
            package = ".".join(rel.parts[:-1])
        todo += imported(ast.parse(path.read_text(encoding="utf-8")), package)
    return seen


def notebook_imports(path: Path) -> set[str]:
    """wordbias modules imported by a notebook's code cells (IPython magics are skipped)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = "\n".join(line for c in nb["cells"] if c["cell_type"] == "code"
                     for line in "".join(c["source"]).splitlines() if not line.lstrip().startswith(("%", "!")))
    return imported(ast.parse(code), "wordbias") | {"wordbias"}


if __name__ == "__main__":
    files = set()
    for arg in sys.argv[1:]:
        files |= closure(notebook_imports(Path(arg)))
    root = LIB.parents[1]
    print(" ".join(sorted(str(f.relative_to(root)) for f in files)))
