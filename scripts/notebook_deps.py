#!/usr/bin/env python3
"""Print the library files a notebook depends on: the wordbias modules its code cells import, and the modules
those import in turn (relative imports), found by reading the sources (nothing is imported or executed).

Used by the Makefile for true prerequisites, all notebooks in one call (one run of this script instead of one per
notebook: about 0.3 s instead of 4 s for every `make` command):
`python3 scripts/notebook_deps.py --make notebooks/src/*.ipynb notebooks/lessons/src/*.ipynb` prints one word per
notebook, `<name>=<file>,<file>,...`, the name being the source's stem (`caliskan2017`) or, for a lesson,
`lesson_<file name>` (`lesson_01_words_as_vectors.ipynb`). With plain paths it prints the files of all of them.
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


_IMPORTS: dict[Path, set[str]] = {}


def module_imports(path: Path) -> set[str]:
    """The wordbias modules one library file imports (each file parsed once per run)."""
    if path not in _IMPORTS:
        rel = path.relative_to(LIB.parent).with_suffix("")
        package = ".".join(rel.parts[:-1])
        _IMPORTS[path] = imported(ast.parse(path.read_text(encoding="utf-8")), package)
    return _IMPORTS[path]


def closure(start: set[str]) -> set[Path]:
    """Files of the modules in ``start`` and of everything they import, transitively."""
    seen: set[Path] = set()
    todo = list(start)
    while todo:
        path = module_file(todo.pop())
        if path is None or path in seen:
            continue
        seen.add(path)
        todo += module_imports(path)
    return seen


def notebook_imports(path: Path) -> set[str]:
    """wordbias modules imported by a notebook's code cells (IPython magics are skipped)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = "\n".join(line for c in nb["cells"] if c["cell_type"] == "code"
                     for line in "".join(c["source"]).splitlines() if not line.lstrip().startswith(("%", "!")))
    return imported(ast.parse(code), "wordbias") | {"wordbias"}


def make_name(path: Path) -> str:
    """The Makefile's name of a notebook source: ``lesson_<file name>`` for a lesson, else the file's stem."""
    return f"lesson_{path.name}" if path.parent.parent.name == "lessons" else path.stem


if __name__ == "__main__":
    root = LIB.parents[1]
    if sys.argv[1:2] == ["--make"]:
        words = []
        for arg in sys.argv[2:]:
            deps = sorted(str(f.relative_to(root)) for f in closure(notebook_imports(Path(arg))))
            words.append(f"{make_name(Path(arg))}={','.join(deps)}")
        print(" ".join(words))
    else:
        files = set()
        for arg in sys.argv[1:]:
            files |= closure(notebook_imports(Path(arg)))
        print(" ".join(sorted(str(f.relative_to(root)) for f in files)))
