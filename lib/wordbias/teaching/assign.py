"""Student versions of the lessons: solutions replaced by placeholders, outputs cleared.

The instructor sources (``notebooks/lessons/src/*.ipynb``) hold the solutions in code cells between
nbgrader's markers::

    ### BEGIN SOLUTION
    cos_rose_love = np.dot(rose, love) / (np.linalg.norm(rose) * np.linalg.norm(love))
    ### END SOLUTION

and such cells carry the cell tag ``solution``. :func:`student_source` replaces each marked region by one
placeholder line per assignment it makes, keeping the target (``cos_rose_love = ...  # your answer here``), or
by ``...  # your answer here`` when it assigns nothing; :func:`student_notebook` does it for every cell and clears
the outputs; ``python -m wordbias.teaching.assign SRC_DIR OUT_DIR`` writes every notebook of SRC_DIR to OUT_DIR.
A marker without its pair, a nested BEGIN, a solution that is not valid Python, a marked cell without the tag or
a tagged cell without markers is an error naming the notebook, the cell and the line.

The markers are nbgrader's (https://nbgrader.readthedocs.io, "Autograded answer" cells), so the same sources can be
released with nbgrader instead (see ``docs/teaching.md``).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

from wordbias.core.errors import SolutionMarkerError

__all__ = ["BEGIN", "END", "PLACEHOLDER", "SOLUTION_TAG", "student_source",
           "student_notebook", "assign_dir", "main"]

BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
#: what a marked region becomes (after ``target = `` when it assigns)
PLACEHOLDER = "...  # your answer here"
#: the cell tag of a cell holding a solution
SOLUTION_TAG = "solution"

_MARKER = re.compile(r"^\s*###\s*(BEGIN|END)\s+SOLUTION\s*$")


def _placeholders(region: list[str], where: str) -> list[str]:
    """One placeholder line per top-level assignment of ``region`` (its targets kept), at its indentation."""
    code = textwrap.dedent("\n".join(region))
    indent = next((re.match(r"\s*", line).group(0) for line in region if line.strip()), "")
    try:
        tree = ast.parse(code)
    except SyntaxError as err:
        raise SolutionMarkerError(f"{where}: the solution is not valid Python ({err.msg}, line {err.lineno} of the "
                                  "region), so its assignment targets cannot be kept") from None
    lines = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            lines.append(" = ".join(ast.unparse(t) for t in node.targets) + " = " + PLACEHOLDER)
        elif isinstance(node, ast.AnnAssign):
            lines.append(f"{ast.unparse(node.target)}: {ast.unparse(node.annotation)} = {PLACEHOLDER}")
        elif isinstance(node, ast.AugAssign):
            lines.append(f"{ast.unparse(node.target)} = {PLACEHOLDER}")
    lines = list(dict.fromkeys(lines)) or [PLACEHOLDER]
    return [indent + line for line in lines]


def student_source(source: str, where: str = "cell") -> str:
    """``source`` with every ``### BEGIN SOLUTION`` ... ``### END SOLUTION`` region (markers included) replaced
    by placeholders that keep the assignment targets. Unpaired or nested markers raise
    :class:`SolutionMarkerError` naming ``where`` and the line.

    Examples
    --------
    >>> print(student_source("x = 1\\n### BEGIN SOLUTION\\nd = (a - b) / s\\n### END SOLUTION\\nprint(d)"))
    x = 1
    d = ...  # your answer here
    print(d)
    """
    out: list[str] = []
    region: list[str] | None = None
    start = 0
    for i, line in enumerate(source.split("\n"), start=1):
        m = _MARKER.match(line)
        if m and m.group(1) == "BEGIN":
            if region is not None:
                raise SolutionMarkerError(f"{where}, line {i}: {BEGIN} inside the region opened on line {start} "
                                          f"(close it with {END} first)")
            region, start = [], i
        elif m:
            if region is None:
                raise SolutionMarkerError(f"{where}, line {i}: {END} without a {BEGIN} before it")
            out += _placeholders(region, f"{where}, lines {start}-{i}")
            region = None
        elif region is not None:
            region.append(line)
        else:
            out.append(line)
    if region is not None:
        raise SolutionMarkerError(f"{where}, line {start}: {BEGIN} without an {END} after it")
    return "\n".join(out)


#: the kernel the student versions ask for: Jupyter's default Python kernel, present in every environment
STUDENT_KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def _has_markers(source: str) -> bool:
    return any(_MARKER.match(line) for line in source.split("\n"))


def student_notebook(nb: dict, name: str = "notebook") -> dict:
    """The student version of a notebook (nbformat 4 as a dict): solutions replaced in code cells, every
    output and execution count cleared, papermill's metadata dropped, and the kernel set to the generic
    :data:`STUDENT_KERNEL` (``python3``: the kernel of whatever environment Jupyter, Binder or Colab runs in,
    where the sources name the ``wordbias`` kernel that ``make env`` registers). A code cell with markers must
    carry the ``solution`` tag and a cell with the tag must have markers; markers in a markdown cell are refused
    (the lessons keep written answers in code cells, as strings)."""
    nb = copy.deepcopy(nb)
    nb.get("metadata", {}).pop("papermill", None)
    nb.setdefault("metadata", {})["kernelspec"] = dict(STUDENT_KERNEL)
    for index, cell in enumerate(nb.get("cells", [])):
        where = f"{name}, cell {index}"
        source = "".join(cell.get("source", ""))
        tags = cell.get("metadata", {}).get("tags", [])
        marked = _has_markers(source)
        if cell.get("cell_type") != "code":
            if marked:
                raise SolutionMarkerError(f"{where}: solution markers in a {cell.get('cell_type')} cell; put "
                                          "solutions in code cells")
            continue
        if marked and SOLUTION_TAG not in tags:
            raise SolutionMarkerError(f"{where}: has solution markers but not the cell tag {SOLUTION_TAG!r}")
        if SOLUTION_TAG in tags and not marked:
            raise SolutionMarkerError(f"{where}: tagged {SOLUTION_TAG!r} but has no {BEGIN} ... {END} region")
        if marked:
            cell["source"] = student_source(source, where)
        cell["outputs"] = []
        cell["execution_count"] = None
        cell.get("metadata", {}).pop("papermill", None)
        cell.get("metadata", {}).pop("execution", None)
    return nb


def assign_dir(src: str | Path, out: str | Path) -> list[Path]:
    """Write the student version of every ``*.ipynb`` of ``src`` (sorted) to ``out`` (created); returns the
    paths written. Every notebook is checked before any is written."""
    src, out = Path(src), Path(out)
    if not src.is_dir():
        raise FileNotFoundError(f"{src} is not a folder of instructor notebooks")
    if src.resolve() == out.resolve():
        raise ValueError(f"the output folder {out} is the source folder: the solutions would be overwritten")
    notebooks = sorted(src.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"no .ipynb in {src}")
    students = [(p.name, student_notebook(json.loads(p.read_text(encoding="utf-8")), p.name)) for p in notebooks]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, nb in students:
        path = out / name
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m wordbias.teaching.assign SRC_DIR OUT_DIR``."""
    ap = argparse.ArgumentParser(prog="python -m wordbias.teaching.assign",
                                 description="write the student versions of the lessons (solutions replaced by "
                                             "placeholders, outputs cleared)")
    ap.add_argument("src", help="folder of instructor notebooks (e.g. notebooks/lessons/src)")
    ap.add_argument("out", help="folder to write the student notebooks to (e.g. notebooks/lessons/student)")
    args = ap.parse_args(argv)
    try:
        written = assign_dir(args.src, args.out)
    except (SolutionMarkerError, FileNotFoundError, ValueError) as err:
        ap.exit(2, f"error: {err}\n")
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
