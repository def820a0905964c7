"""The teachers' answer key, written from the executed instructor notebooks.

Each check cell of an executed lesson (``notebooks/lessons/NN_*.ipynb``, solutions in) shows its result with a
machine-readable record (:data:`wordbias.teaching.checks.RECORD_MIME`): the exercise, the precision the lesson
shows, the answers accepted and the expected value the check computed from the lesson's data. :func:`answer_key`
collects those records, the exercise titles (the ``### ✎ Exercise N: ...`` headings) and the worked solutions
(the instructor's marked solution regions, :mod:`wordbias.teaching.assign`) into one markdown page; no value is typed in.

``python -m wordbias.teaching.answer_key notebooks/lessons docs/answer_key.md`` writes it (``make`` does, whenever an
executed lesson changes). A check cell without a record (the lesson was not executed) or with a check that is not
done (the instructor's solution is wrong) is an error naming the notebook and the cell. A prediction or an answer in
words is done when recorded (:data:`wordbias.teaching.checks.DONE`): it has no expected value, and the key says
so (a prediction is not scored; an answer in words is graded by hand against the model answer shown).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wordbias.teaching.assign import BEGIN, END, SOLUTION_TAG
from wordbias.teaching.checks import DONE, RECORD_MIME

__all__ = ["Answer", "answers", "answer_key", "write", "main"]

_HEADING = re.compile(r"^#{2,4}\s*✎?\s*Exercise\s+(\d+)\s*:\s*(.+?)\s*$", re.M)
_LESSON_FILE = re.compile(r"^\d\d_.+\.ipynb$")


@dataclass(frozen=True)
class Answer:
    """One exercise of a lesson, as its executed check recorded it.

    Attributes
    ----------
    notebook : str
        The notebook's file name.
    number : int or None
        The exercise's number in the lesson (from its heading).
    title : str
        The exercise's title (from its heading), else the check's exercise name.
    exercise : str
        The check's exercise name.
    check : str
        The check function (``cosine``, ``choice``, ...).
    grade_id : str
        nbgrader's id of the check cell.
    expected : object
        The expected value (JSON data).
    expected_text : str
        The expected value at the precision the lesson shows.
    shown : str
        The precision the lesson shows.
    accepted : str
        The answers accepted.
    solution : str
        The instructor's worked solution (the marked region of the solution cell).
    status : str
        The check's status: ``"correct"``, or ``"recorded"`` for a prediction or an answer in words.
    """

    notebook: str
    number: int | None
    title: str
    exercise: str
    check: str
    grade_id: str
    expected: object
    expected_text: str
    shown: str
    accepted: str
    solution: str
    status: str = "correct"


def _source(cell: dict) -> str:
    return "".join(cell.get("source", ""))


def _record(cell: dict) -> dict | None:
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if RECORD_MIME in data:
            record = data[RECORD_MIME]
            return json.loads(record) if isinstance(record, str) else record
    return None


def _solution(cell: dict | None) -> str:
    if cell is None:
        return ""
    regions, region = [], None
    for line in _source(cell).split("\n"):
        if line.strip() == BEGIN:
            region = []
        elif line.strip() == END:
            regions.append("\n".join(region or []))
            region = None
        elif region is not None:
            region.append(line)
    return "\n".join(regions).strip()


def answers(path: str | Path) -> list[Answer]:
    """The exercises of one executed lesson, in order.

    Parameters
    ----------
    path : str or Path
        The executed notebook.

    Returns
    -------
    list of Answer
        One per check cell (cell tag ``check``).

    Raises
    ------
    ValueError
        A check cell without a record (not executed) or whose check is not done (neither correct nor recorded).
    """
    path = Path(path)
    nb = json.loads(path.read_text(encoding="utf-8"))
    out, heading, solution_cell = [], None, None
    for index, cell in enumerate(nb.get("cells", [])):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.get("cell_type") == "markdown":
            found = _HEADING.findall(_source(cell))
            if found:
                heading = (int(found[-1][0]), found[-1][1])
            continue
        if SOLUTION_TAG in tags:
            solution_cell = cell
        if "check" not in tags:
            continue
        record = _record(cell)
        where = f"{path.name}, cell {index}"
        if record is None:
            raise ValueError(f"{where}: the check cell has no check record; execute the lesson first (make lessons)")
        if record.get("status") not in DONE:
            raise ValueError(f"{where}: the instructor's answer to {record.get('exercise')!r} did not pass its check "
                             f"(status {record.get('status')!r})")
        nbgrader = cell.get("metadata", {}).get("nbgrader", {})
        out.append(Answer(notebook=path.name, number=heading[0] if heading else None,
                          title=heading[1] if heading else record["exercise"], exercise=record["exercise"],
                          check=record.get("check", ""), grade_id=nbgrader.get("grade_id", ""),
                          expected=record.get("expected"), expected_text=record.get("expected_text", ""),
                          shown=record.get("shown", ""), accepted=record.get("accepted", ""),
                          solution=_solution(solution_cell), status=record["status"]))
        heading, solution_cell = None, None
    return out


def _parameters(nb: dict) -> str:
    """The parameters the lesson ran with: its ``parameters`` cell, overridden by papermill's injected ones."""
    values: dict[str, str] = {}
    for cell in nb.get("cells", []):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.get("cell_type") == "code" and ("parameters" in tags or "injected-parameters" in tags):
            try:
                tree = ast.parse(_source(cell))
            except SyntaxError:
                continue
            for node in tree.body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    values[node.targets[0].id] = ast.unparse(node.value)
    return ", ".join(f"`{k} = {v}`" for k, v in values.items())


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _title_of(path: Path, index: dict[str, str]) -> str:
    if path.name in index:
        return index[path.name]
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            first = _source(cell).strip().splitlines()[0] if _source(cell).strip() else ""
            return first.lstrip("# ").strip() or path.stem
    return path.stem


def _index(folder: Path) -> dict[str, str]:
    """File name -> title, from the folder's ``lessons.yaml`` where there is one."""
    path = folder / "lessons.yaml"
    if not path.is_file():
        return {}
    import yaml

    doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {e["file"]: e.get("title", e["file"]) for e in doc.get("lessons", []) if "file" in e}


def answer_key(folder: str | Path, *, command: str | None = None) -> str:
    """The answer key of every executed lesson of a folder, as markdown (MyST).

    Parameters
    ----------
    folder : str or Path
        The folder of executed lessons (``notebooks/lessons``): its ``NN_*.ipynb``, in order.
    command : str or None
        The command named in the page's header as the one that wrote it.

    Returns
    -------
    str
        The page.
    """
    folder = Path(folder)
    notebooks = sorted(p for p in folder.glob("*.ipynb") if _LESSON_FILE.match(p.name))
    if not notebooks:
        raise FileNotFoundError(f"no executed lessons (NN_*.ipynb) in {folder}")
    index = _index(folder)
    command = command or f"python -m wordbias.teaching.answer_key {folder.as_posix()} docs/answer_key.md"
    lines = ["# Answer key for teachers", "",
             f"Generated by `{command}` from the executed instructor notebooks (`NN_*.ipynb`, solutions in); "
             "do not edit it by hand: `make` writes it again whenever an executed lesson changes. "
             "Every value below is the one the lesson's check computed from the lesson's data at the parameters "
             "shown; with other parameters (another embedding or seed) the values change, and the checks follow "
             "them. How the checks judge an answer: [the teacher's guide](teaching.md), section \"How the checks "
             "behave\".", "",
             "**Accepted** says which answers pass: a number within the tolerance, or correctly rounded to the "
             "decimals the student wrote, keeping at least 2 significant figures; **the lesson shows** is the "
             "precision the lesson prints the value with.", ""]
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        found = answers(path)
        lines += [f"## {_title_of(path, index)} (`{path.name}`)", ""]
        params = _parameters(nb)
        if params:
            lines += [f"Parameters: {params}.", ""]
        if not found:
            lines += ["No checked exercises.", ""]
            continue
        lines += ["| exercise | expected | the lesson shows | accepted | check |", "|---|---|---|---|---|"]
        for a in found:
            name = f"{a.number}. {a.title}" if a.number is not None else a.title
            expected = a.expected_text or json.dumps(a.expected, ensure_ascii=False)
            if a.status == "recorded":
                expected = ("— (a prediction: recorded, not scored)" if a.check == "prediction" else
                            "— (graded by hand; the model answer below)")
            if isinstance(a.expected, float) and a.expected_text and a.expected_text != repr(a.expected):
                expected = f"{a.expected_text} ({a.expected:.6g})"
            lines.append(f"| {_cell(name)} | {_cell(expected)} | {_cell(a.shown or '—')} | {_cell(a.accepted)} | "
                         f"`checks.{a.check}` |")
        lines.append("")
        for a in found:
            if a.solution:
                name = f"Exercise {a.number}: {a.title}" if a.number is not None else a.title
                lines += [f"**{name}** (worked solution)", "", "```python", a.solution, "```", ""]
    return "\n".join(lines).rstrip() + "\n"


def write(folder: str | Path, out: str | Path, *, command: str | None = None) -> Path:
    """Write :func:`answer_key` of ``folder`` to ``out`` (its folder created).

    Parameters
    ----------
    folder : str or Path
        The folder of executed lessons.
    out : str or Path
        The markdown file to write.
    command : str or None
        The command named in the page's header.

    Returns
    -------
    Path
        ``out``.
    """
    out = Path(out)
    text = answer_key(folder, command=command)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``python -m wordbias.teaching.answer_key LESSONS_DIR OUT.md``.

    Parameters
    ----------
    argv : sequence of str or None
        The arguments; None for ``sys.argv[1:]``.
    """
    ap = argparse.ArgumentParser(prog="python -m wordbias.teaching.answer_key",
                                 description="write the teachers' answer key from the executed instructor notebooks")
    ap.add_argument("folder", help="folder of executed lessons (e.g. notebooks/lessons)")
    ap.add_argument("out", help="markdown file to write (e.g. docs/answer_key.md)")
    args = ap.parse_args(argv)
    try:
        path = write(args.folder, args.out,
                     command=f"python -m wordbias.teaching.answer_key {args.folder} {args.out}")
    except (ValueError, FileNotFoundError) as err:
        ap.exit(2, f"error: {err}\n")
    print(path)


if __name__ == "__main__":
    main()
