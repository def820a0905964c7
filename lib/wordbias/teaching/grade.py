"""Grade a class's lesson notebooks into tables: one row per student, lesson and exercise.

The submissions are one folder per student, each holding the student's notebooks named like the lessons' files
(``SUBMISSIONS/<student>/02_significance_and_size.ipynb``). Every notebook is read as handed in and a copy of it is
executed top to bottom (:func:`execute`: nbclient, the environment ``WORDBIAS_SOLUTIONS=off``, the checks not
strict, errors allowed, one time limit for the whole notebook after which its kernel is killed); the submission
itself is never written. The executed copies are kept for the teacher to read.

Each exercise of a lesson is a check cell of its instructor source (cell tag ``check``, nbgrader metadata with a
``grade_id``). The student's cell of the same ``grade_id`` (the student versions keep nbgrader's metadata) is
compared with the instructor's by :func:`check_hash` (a check cell is locked: a student has no reason to change
it), and the result its check displayed in the executed copy is read from the machine-readable record
(:data:`wordbias.teaching.checks.RECORD_MIME`). A check cell that is missing, was edited, raised an error, showed
no record, or was not reached within the time limit earns no points, and its row says which (:data:`STATUSES`).
Points are nbgrader's (``points`` of a check cell with ``grade: true``); a prediction or a written answer's check
earns none: predictions are recorded, not graded, and written answers are graded by hand, from
:func:`grade_class`'s ``written`` table (the cells tagged ``written``, or nbgrader's manually graded answers).

``wordbias grade SUBMISSIONS --out grades.csv`` is the command (:mod:`wordbias.cli.grade`); the teacher's guide,
section "Grading a class", says how its tables relate to nbgrader's.
"""

from __future__ import annotations

import ast
import asyncio
import copy
import hashlib
import json
import math
import os
import re
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.teaching.checks import RECORD_MIME, SOLUTIONS_ENV, STRICT_ENV

__all__ = ["STATUSES", "FAILED", "COLUMNS", "TOTAL_COLUMNS", "WRITTEN_COLUMNS", "Exercise", "Lesson", "Submission",
           "Execution", "Grades", "check_hash", "check_kernel", "read_lesson", "read_lessons", "default_lessons",
           "find_submissions", "execute", "grade_notebook", "written_answers", "totals", "output_paths",
           "grade_class", "write_grades"]

#: the status of an exercise in the table: the check's own (``correct``, ``wrong``, ``unanswered``, ``invalid``,
#: ``recorded``), or the grader's: ``error`` (the check cell raised, or the notebook could not run), ``missing``
#: (no cell of its grade_id), ``edited`` (the check cell's source differs from the lesson's), ``timeout`` (not
#: reached within the time limit), ``no-record`` (the check cell ran but showed no check result)
STATUSES = ("correct", "wrong", "unanswered", "invalid", "recorded", "error", "missing", "edited", "timeout",
            "no-record")
#: the statuses that name a check cell that failed as a cell (not as an answer)
FAILED = ("error", "missing", "edited", "timeout", "no-record")
#: the columns of the grades table
COLUMNS = ("student", "lesson", "grade_id", "exercise", "status", "points", "max_points", "given", "tries",
           "check_hash_ok", "message")
#: the columns of the totals table
TOTAL_COLUMNS = ("student", "lesson", "points", "max_points")
#: the columns of the table of written answers, for grading by hand
WRITTEN_COLUMNS = ("student", "lesson", "grade_id", "answer", "score", "max_points", "note")
#: the cell tags the grader reads
CHECK_TAG, WRITTEN_TAG, PREDICTION_TAG = "check", "written", "prediction"
#: a check cell whose check is never scored (a prediction, a written answer's length check)
_UNSCORED = re.compile(r"\bchecks\.(prediction|written)\s*\(")
_HEADING = re.compile(r"^#{2,4}\s*✎?\s*Exercise\s+(\d+)\s*:\s*(.+?)\s*$", re.M)
_RECORD_STATUSES = ("correct", "wrong", "unanswered", "invalid", "recorded")


def check_hash(source) -> str:
    """The SHA-256 of a cell's source with the trailing white space of each line (and trailing empty lines)
    removed: what a check cell's copy must keep to count.

    Parameters
    ----------
    source : str or list of str
        The cell's source (a notebook file's list of lines, or one string).

    Returns
    -------
    str
        The hexadecimal digest.

    Examples
    --------
    >>> check_hash("ex1 = checks.cosine(x, a, b)  \\n") == check_hash(["ex1 = checks.cosine(x, a, b)"])
    True
    >>> check_hash("ex1 = checks.cosine(x, a, b)") == check_hash("ex1 = checks.cosine(x,  a, b)")
    False
    """
    text = "".join(source) if isinstance(source, list) else str(source)
    lines = [line.rstrip() for line in text.splitlines()]
    return hashlib.sha256("\n".join(lines).rstrip("\n").encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Exercise:
    """One graded item of a lesson: a check cell, or a written answer graded by hand.

    Attributes
    ----------
    grade_id : str
        nbgrader's id of the cell.
    title : str
        The exercise's name (``"1. cosine similarity"``, from its ``Exercise N: ...`` heading; else the grade_id).
    max_points : float
        The points it is worth (0 for a prediction or a written answer's check).
    sha256 : str
        :func:`check_hash` of the instructor's cell.
    """

    grade_id: str
    title: str
    max_points: float
    sha256: str


@dataclass(frozen=True)
class Lesson:
    """The graded items of one instructor lesson.

    Attributes
    ----------
    file : str
        The notebook's file name (a student's notebook has the same name).
    exercises : tuple of Exercise
        Its check cells, in cell order.
    written : tuple of Exercise
        Its written answers graded by hand (cells tagged ``written``, or nbgrader's manually graded answers).
    """

    file: str
    exercises: tuple[Exercise, ...]
    written: tuple[Exercise, ...] = ()

    @property
    def name(self) -> str:
        """The lesson's name in the tables: its file name without ``.ipynb``."""
        return Path(self.file).stem


@dataclass(frozen=True)
class Submission:
    """One student's notebook of one lesson.

    Attributes
    ----------
    student : str
        The student's folder name.
    lesson : str
        The lesson's file name.
    path : pathlib.Path
        The notebook handed in, or None when the student handed in none.
    """

    student: str
    lesson: str
    path: Path | None


@dataclass
class Execution:
    """A notebook executed by :func:`execute`.

    Attributes
    ----------
    notebook : nbformat.NotebookNode
        The executed copy.
    completed : set of int
        The indices of the cells whose execution completed.
    stopped : str
        Why the run stopped before the end: ``""`` (it did not), ``"timeout"``, ``"died"`` (the kernel died) or
        ``"failed"`` (the kernel did not start, or the notebook could not be read).
    stopped_at : int or None
        The cell it stopped in.
    detail : str
        What stopped it, in words.
    seconds : float
        The wall time.
    """

    notebook: object
    completed: set[int] = field(default_factory=set)
    stopped: str = ""
    stopped_at: int | None = None
    detail: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class Grades:
    """A class graded by :func:`grade_class`.

    Attributes
    ----------
    rows : pandas.DataFrame
        One row per student, lesson and exercise (:data:`COLUMNS`), by student, lesson and cell order.
    totals : pandas.DataFrame
        Points per student and lesson, and per student over all lessons (lesson ``all``): :func:`totals`.
    written : pandas.DataFrame
        The written answers to grade by hand (:data:`WRITTEN_COLUMNS`; ``score`` empty).
    unmatched : tuple of str
        The files of the submissions folder that are no student's lesson notebook (not graded).
    notebooks : int
        The notebooks executed.
    seconds : float
        The wall time of the grading.
    """

    rows: object
    totals: object
    written: object
    unmatched: tuple[str, ...]
    notebooks: int
    seconds: float


# --------------------------------------------------------------------------------------------------
# the lessons
# --------------------------------------------------------------------------------------------------

def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _meta(cell) -> tuple[list, dict]:
    metadata = cell.get("metadata", {}) or {}
    return list(metadata.get("tags", []) or []), dict(metadata.get("nbgrader", {}) or {})


def _points(nbgrader: dict) -> float:
    try:
        value = float(nbgrader.get("points", 0) or 0)
    except (TypeError, ValueError):
        return 0.0
    return value if math.isfinite(value) and value > 0 else 0.0


def _read_notebook(path: Path) -> dict:
    """The notebook at ``path`` as nbformat version 4 (read only)."""
    import nbformat

    with open(path, "rb") as handle:
        return nbformat.reads(handle.read().decode("utf-8"), as_version=4)


def read_lesson(path) -> Lesson:
    """The graded items of an instructor lesson.

    Parameters
    ----------
    path : str or os.PathLike
        The instructor source (``notebooks/lessons/src/NN_*.ipynb``).

    Returns
    -------
    Lesson
        Its check cells (tag ``check`` with a ``grade_id``) and its written answers.

    Raises
    ------
    InvalidParameterError
        When the notebook cannot be read, a check cell has no ``grade_id``, or a ``grade_id`` appears twice.
    """
    path = Path(path)
    try:
        nb = _read_notebook(path)
    except Exception as exc:
        raise InvalidParameterError(f"lesson {path}: not a readable notebook ({exc})") from None
    exercises, written, heading, seen = [], [], None, set()
    for index, cell in enumerate(nb.cells):
        tags, nbgrader = _meta(cell)
        if cell.cell_type == "markdown":
            found = _HEADING.findall(_source(cell))
            heading = f"{found[-1][0]}. {found[-1][1]}" if found else heading
        grade_id = nbgrader.get("grade_id")
        is_check = CHECK_TAG in tags and cell.cell_type == "code"
        is_written = WRITTEN_TAG in tags or (nbgrader.get("solution") and nbgrader.get("grade"))
        if (is_check or is_written) and not grade_id:
            raise InvalidParameterError(f"lesson {path}, cell {index}: a graded cell without nbgrader's grade_id")
        if grade_id and grade_id in seen and (is_check or is_written):
            raise InvalidParameterError(f"lesson {path}, cell {index}: grade_id {grade_id!r} appears twice")
        seen.add(grade_id)
        if is_written:
            written.append(Exercise(grade_id, heading or grade_id, _points(nbgrader), check_hash(_source(cell))))
        elif is_check:
            unscored = PREDICTION_TAG in tags or not nbgrader.get("grade") or _UNSCORED.search(_source(cell))
            exercises.append(Exercise(grade_id, heading or grade_id, 0.0 if unscored else _points(nbgrader),
                                      check_hash(_source(cell))))
            heading = None
    return Lesson(path.name, tuple(exercises), tuple(written))


def _visible(path: Path) -> bool:
    return not path.name.startswith(".")


def read_lessons(folder) -> dict[str, Lesson]:
    """Every instructor lesson (``*.ipynb``) of a folder, by file name.

    Parameters
    ----------
    folder : str or os.PathLike
        The folder of instructor sources (``notebooks/lessons/src``).

    Returns
    -------
    dict of str to Lesson
        The lessons, by file name, in name order.

    Raises
    ------
    InvalidParameterError
        When the folder does not exist or holds no notebook.
    """
    folder = paths.given_path(folder, "lessons")
    if not folder.is_dir():
        raise InvalidParameterError(f"lessons {os.fspath(folder)!r}: no such folder; give the folder of the "
                                    "instructor sources (notebooks/lessons/src of the checkout)")
    found = sorted(p for p in folder.glob("*.ipynb") if _visible(p))
    if not found:
        raise InvalidParameterError(f"lessons {os.fspath(folder)!r}: holds no notebook (*.ipynb); give the folder "
                                    "of the instructor sources")
    return {p.name: read_lesson(p) for p in found}


def default_lessons() -> Path:
    """The checkout's instructor sources, ``notebooks/lessons/src``.

    Returns
    -------
    pathlib.Path
        The folder.

    Raises
    ------
    InvalidParameterError
        When there is none (an installed wheel without the checkout): the lessons must then be given.
    """
    folder = paths.ROOT / "notebooks" / "lessons" / "src"
    if not folder.is_dir():
        raise InvalidParameterError(f"no instructor lessons at {folder} (wordbias runs outside its checkout): give "
                                    "the folder of the instructor sources (notebooks/lessons/src of the repository)")
    return folder


# --------------------------------------------------------------------------------------------------
# the submissions
# --------------------------------------------------------------------------------------------------

def find_submissions(folder, lessons) -> tuple[list[Submission], list[str]]:
    """The students' lesson notebooks of a submissions folder (``<student>/<lesson file>.ipynb``).

    Every lesson that some student handed in is graded for every student: a student without it gets a
    :class:`Submission` whose ``path`` is None (its exercises are ``missing``).

    Parameters
    ----------
    folder : str or os.PathLike
        The submissions folder: one folder per student.
    lessons : iterable of str
        The lessons' file names.

    Returns
    -------
    list of Submission
        By student, then lesson.
    list of str
        The other files and folders (paths relative to ``folder``): reported, never guessed at. Hidden ones
        (``.ipynb_checkpoints``) are left out.

    Raises
    ------
    InvalidParameterError
        When the folder does not exist or holds no lesson notebook.
    """
    folder = paths.given_path(folder, "submissions")
    if not folder.is_dir():
        raise InvalidParameterError(f"submissions {os.fspath(folder)!r}: no such folder; give the folder holding "
                                    "one folder per student (SUBMISSIONS/<student>/<lesson file>.ipynb)")
    names = set(lessons)
    handed, unmatched = {}, []
    for entry in sorted(p for p in folder.iterdir() if _visible(p)):
        if not entry.is_dir():
            unmatched.append(entry.name)
            continue
        for item in sorted(p for p in entry.iterdir() if _visible(p)):
            if item.is_file() and item.name in names:
                handed[(entry.name, item.name)] = item
            else:
                unmatched.append(f"{entry.name}/{item.name}")
    if not handed:
        raise InvalidParameterError(f"submissions {os.fspath(folder)!r}: no student notebook named like a lesson "
                                    f"(expected <student>/<lesson file>, e.g. alice/{min(names, default='NN.ipynb')})")
    students = sorted({s for s, _ in handed})
    graded = sorted({lesson for _, lesson in handed})
    return [Submission(s, lesson, handed.get((s, lesson))) for s in students for lesson in graded], unmatched


# --------------------------------------------------------------------------------------------------
# executing a copy
# --------------------------------------------------------------------------------------------------

def _kernel_env() -> dict:
    """The kernel's environment: this one, worked solutions off and the checks not strict."""
    env = {k: v for k, v in os.environ.items() if k != STRICT_ENV}
    env[SOLUTIONS_ENV] = "off"
    return env


def check_kernel(name: str) -> str:
    """``name`` if it is a Jupyter kernel of this machine.

    Parameters
    ----------
    name : str
        The kernel's name (``python3``).

    Returns
    -------
    str
        The name.

    Raises
    ------
    InvalidParameterError
        When there is no such kernel (the message lists those there are).
    """
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    manager = KernelSpecManager()
    try:
        manager.get_kernel_spec(name)
    except NoSuchKernel:
        known = ", ".join(sorted(manager.find_kernel_specs())) or "none"
        raise InvalidParameterError(f"kernel {name!r}: no such Jupyter kernel here (kernels: {known})") from None
    return name


def _kernel_manager(kernel: str, folder: str):
    """A kernel manager of its own for one notebook: on a POSIX system the kernel's channels are Unix sockets in
    ``folder`` (no TCP ports, which kernels started at the same time by other programs could also pick)."""
    from jupyter_client.manager import AsyncKernelManager

    if os.name != "posix":
        return AsyncKernelManager(kernel_name=kernel)
    return AsyncKernelManager(kernel_name=kernel, transport="ipc", ip=os.path.join(folder, "kernel"))


def _run_client(client, **options) -> None:
    """Run ``client`` in an event loop of its own (its tasks cancelled at the end, a cell stopped by the time limit
    included); where a loop already runs (a Jupyter kernel), through nbclient's own runner."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(client.async_execute(**options))
        return
    client.execute(**options)


def execute(notebook, *, timeout: float, kernel: str = "python3", cwd=None) -> Execution:
    """Execute a copy of a notebook top to bottom, within one time limit.

    The kernel runs with :func:`_kernel_env` (``WORDBIAS_SOLUTIONS=off``, no strict checks); a cell that raises
    does not stop the run (nbclient's ``allow_errors``). Each cell may run for what is left of ``timeout``; the
    cell that runs past it is stopped and the kernel killed.

    Parameters
    ----------
    notebook : nbformat.NotebookNode
        The notebook (not changed).
    timeout : float
        The time limit of the whole notebook, in seconds (the kernel's start included).
    kernel : str, default "python3"
        The Jupyter kernel.
    cwd : str or os.PathLike, optional
        The kernel's working folder (default: the current one).

    Returns
    -------
    Execution
        The executed copy and where it stopped.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    run = Execution(copy.deepcopy(notebook))
    started = time.monotonic()
    deadline = started + timeout
    current = {"index": None}

    def on_start(cell=None, cell_index=None, **_):
        current["index"] = cell_index

    def on_done(cell=None, cell_index=None, **_):
        run.completed.add(cell_index)

    sockets = tempfile.TemporaryDirectory(prefix="wordbias-kernel-")
    client = NotebookClient(run.notebook, km=_kernel_manager(kernel, sockets.name), allow_errors=True,
                            shutdown_kernel="immediate", startup_timeout=max(1, math.ceil(timeout)),
                            timeout_func=lambda cell: max(1, math.ceil(deadline - time.monotonic())),
                            on_cell_start=on_start, on_cell_executed=on_done)
    try:
        _run_client(client, env=_kernel_env(), cwd=os.fspath(cwd) if cwd is not None else None, cleanup_kc=True,
                    stderr=subprocess.DEVNULL)     # the kernel's own log lines; the cells' output is kept
    except CellTimeoutError:
        run.stopped, run.detail = "timeout", f"the notebook ran past its time limit of {timeout:g} s"
    except DeadKernelError:
        run.stopped, run.detail = "died", "the kernel died (the notebook crashed it, or it ran out of memory)"
    except Exception as exc:  # noqa: BLE001 - a kernel that does not start: the notebook's checks did not run
        run.stopped, run.detail = "failed", f"the notebook did not run ({type(exc).__name__}: {exc})"
    finally:
        sockets.cleanup()
    if run.stopped:
        run.stopped_at = current["index"]
    run.seconds = time.monotonic() - started
    return run


# --------------------------------------------------------------------------------------------------
# reading the checks' results
# --------------------------------------------------------------------------------------------------

def _record(cell) -> tuple[dict | None, str]:
    """The last check record among a cell's outputs, and the first line of the check's message."""
    found, message = None, ""
    for output in cell.get("outputs", []) if cell is not None else []:
        data = output.get("data", {}) or {}
        if RECORD_MIME in data:
            record = data[RECORD_MIME]
            try:
                found = json.loads(record) if isinstance(record, str) else dict(record)
            except (TypeError, ValueError):
                continue
            text = data.get("text/plain", "")
            text = "".join(text) if isinstance(text, list) else str(text)
            first = text.strip().splitlines()[0] if text.strip() else ""
            name = f"{found.get('exercise', '')}: "
            message = first.split(name, 1)[1] if found.get("exercise") and name in first else first
    return found, message


def _error(cell) -> str:
    """``ename: evalue`` of a cell's first error output, or ``""``."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            return f"{output.get('ename', 'Error')}: {output.get('evalue', '')}".strip().splitlines()[0]
    return ""


def _given(record: dict | None) -> str:
    value = (record or {}).get("given")
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _tries(record: dict | None):
    value = (record or {}).get("try")
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _by_grade_id(nb) -> dict[str, list[int]]:
    cells: dict[str, list[int]] = {}
    for index, cell in enumerate(nb.get("cells", [])):
        grade_id = _meta(cell)[1].get("grade_id")
        if grade_id:
            cells.setdefault(str(grade_id), []).append(index)
    return cells


def _status(exercise: Exercise, index: int, run: Execution, hash_ok: bool) -> tuple[str, str, dict | None]:
    """The status of a check cell found at ``index``, its message and its record."""
    cell = run.notebook.cells[index]
    record, message = _record(cell)
    if index not in run.completed and run.stopped:
        where = f" in cell {run.stopped_at}" if run.stopped_at is not None else ""
        status = "timeout" if run.stopped == "timeout" else "error"
        return status, f"not reached: {run.detail}{where}", record
    if not hash_ok:
        said = f"; its check said: {message}" if message else ""
        return "edited", f"the check cell differs from the lesson's (it was edited): not counted{said}", record
    error = _error(cell)
    if error:
        return "error", error, record
    if record is None:
        return "no-record", "the check cell ran but showed no check result (no record)", None
    status = record.get("status")
    if status not in _RECORD_STATUSES:
        return "no-record", f"the check's record has an unknown status {status!r}", record
    return status, message, record


def grade_notebook(lesson: Lesson, student: str, submitted, run: Execution | None) -> list[dict]:
    """The rows of one student's notebook of one lesson (:data:`COLUMNS`).

    Parameters
    ----------
    lesson : Lesson
        The instructor lesson.
    student : str
        The student's name.
    submitted : nbformat.NotebookNode or None
        The notebook as handed in (its check records give the tries of the student's own session); None when
        there is none.
    run : Execution or None
        Its executed copy (:func:`execute`); None when there is none.

    Returns
    -------
    list of dict
        One row per exercise, in cell order.
    """
    cells = _by_grade_id(submitted) if submitted is not None else {}
    rows = []
    for exercise in lesson.exercises:
        row = {"student": student, "lesson": lesson.name, "grade_id": exercise.grade_id, "exercise": exercise.title,
               "points": 0.0, "max_points": exercise.max_points, "given": "", "tries": None, "check_hash_ok": None}
        found = cells.get(exercise.grade_id, [])
        if submitted is None or run is None:
            why = "no notebook handed in" if submitted is None else "the notebook could not be read"
            row.update(status="missing" if submitted is None else "error", message=why)
        elif not found:
            row.update(status="missing", message="no cell with this grade_id: the check cell was deleted")
        elif len(found) > 1:
            row.update(status="edited", check_hash_ok=False,
                       message=f"the check cell appears {len(found)} times (cells {found}): not counted")
        else:
            index = found[0]
            hash_ok = (submitted.cells[index].cell_type == "code"
                       and check_hash(_source(submitted.cells[index])) == exercise.sha256)
            status, message, record = _status(exercise, index, run, hash_ok)
            row.update(status=status, message=message, check_hash_ok=hash_ok, given=_given(record),
                       tries=_tries(_record(submitted.cells[index])[0]))
            if status == "correct":
                row["points"] = exercise.max_points
        rows.append(row)
    return rows


def _answer_text(cell) -> tuple[str, str]:
    """The written answer of a cell, and a note: ``unanswered`` for the untouched placeholder."""
    source = _source(cell)
    if cell.get("cell_type") != "code":
        return source.strip(), "" if source.strip() else "unanswered"
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source.strip(), "not valid Python: the cell's source as written"
    values = [node.value.value for node in tree.body
              if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant)]
    texts = [v for v in values if isinstance(v, str)]
    if texts:
        return "\n\n".join(t.strip() for t in texts), ""
    if values and all(v is Ellipsis for v in values):
        return "", "unanswered"
    return source.strip(), "not a text: the cell's source as written"


def written_answers(lesson: Lesson, student: str, submitted) -> list[dict]:
    """The written answers of one student's notebook, to grade by hand (:data:`WRITTEN_COLUMNS`).

    Parameters
    ----------
    lesson : Lesson
        The instructor lesson.
    student : str
        The student's name.
    submitted : nbformat.NotebookNode or None
        The notebook as handed in; None when there is none.

    Returns
    -------
    list of dict
        One row per written answer of the lesson: the text of the string the cell assigns (or a markdown
        cell's text), an empty ``score`` and the answer's points.
    """
    cells = _by_grade_id(submitted) if submitted is not None else {}
    rows = []
    for item in lesson.written:
        found = cells.get(item.grade_id, [])
        if not found:
            answer, note = "", "no notebook handed in" if submitted is None else "missing: no cell with this grade_id"
        else:
            answer, note = _answer_text(submitted.cells[found[0]])
        rows.append({"student": student, "lesson": lesson.name, "grade_id": item.grade_id, "answer": answer,
                     "score": None, "max_points": item.max_points, "note": note})
    return rows


# --------------------------------------------------------------------------------------------------
# the class
# --------------------------------------------------------------------------------------------------

def totals(rows):
    """The points of each student per lesson, and over all lessons (lesson ``all``, after the student's lessons).

    Parameters
    ----------
    rows : pandas.DataFrame
        The grades table (:data:`COLUMNS`).

    Returns
    -------
    pandas.DataFrame
        :data:`TOTAL_COLUMNS`.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"student": ["bo", "bo", "al"], "lesson": ["01", "02", "01"],
    ...                      "points": [1.0, 0.0, 1.0], "max_points": [1.0, 2.0, 1.0]})
    >>> totals(rows).to_dict("records")[-1]
    {'student': 'bo', 'lesson': 'all', 'points': 1.0, 'max_points': 3.0}
    """
    import pandas as pd

    sums = ["points", "max_points"]
    per_lesson = rows.groupby(["student", "lesson"], sort=True)[sums].sum().reset_index()
    overall = rows.groupby("student", sort=True)[sums].sum().reset_index().assign(lesson="all")
    both = pd.concat([per_lesson.assign(_last=0), overall.assign(_last=1)], ignore_index=True)
    both = both.sort_values(["student", "_last", "lesson"], kind="stable").drop(columns="_last")
    return both[list(TOTAL_COLUMNS)].reset_index(drop=True)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _check_apart(path: Path, submissions: Path, what: str) -> None:
    """Refuse an output inside the submissions, or holding them."""
    if _inside(path, submissions) or _inside(submissions, path):
        raise InvalidParameterError(f"{what} {path}: inside the submissions {submissions} (or holding them); the "
                                    "submissions are never written: choose a place outside them")


def output_paths(submissions, out, executed=None) -> tuple[Path, Path]:
    """The grades file and the folder of executed copies, checked before any work.

    Parameters
    ----------
    submissions : str or os.PathLike
        The submissions folder: nothing is written inside it.
    out : str or os.PathLike
        The grades table (``grades.csv``); its totals and written answers go beside it
        (``grades_totals.csv``, ``grades_written.csv``).
    executed : str or os.PathLike, optional
        The folder of the executed copies (default: ``<out stem>_executed`` beside ``out``).

    Returns
    -------
    pathlib.Path
        ``out``, resolved.
    pathlib.Path
        The folder of executed copies, resolved (not created).

    Raises
    ------
    InvalidParameterError
        When ``out`` or the folder is inside the submissions (or is them), or is refused by the output rule
        (:func:`wordbias.core.paths.check_output_file`, :func:`wordbias.core.paths.check_output_dir`).
    FolderNotOursError
        When the folder holds files wordbias did not write, or a table of those names is a file wordbias did not
        write (:func:`wordbias.core.ownership.check_files_ours`).
    """
    from wordbias.core import ownership

    base = paths.given_path(submissions, "submissions").resolve()
    out = paths.check_output_file(out, what="--out")
    if out.suffix.lower() != ".csv":
        raise InvalidParameterError(f"--out {os.fspath(out)!r}: give a .csv file for the grades (e.g. grades.csv)")
    folder = (paths.given_path(executed, "--executed") if executed is not None
              else out.parent / f"{out.stem}_executed")
    folder = paths.check_output_dir(folder, what="--executed")
    for what, path in (("--out", out), ("--executed", folder)):
        _check_apart(path, base, what)
    if out.parent.is_dir():
        ownership.check_files_ours(out.parent, [p.name for p in _table_paths(out)])
    ownership.check_output_folder(folder, force_option=None)
    return out, folder


def _table_paths(out: Path) -> list[Path]:
    return [out, out.with_name(f"{out.stem}_totals.csv"), out.with_name(f"{out.stem}_written.csv")]


class _Copies:
    """The folder of executed copies: created (marked as wordbias's), each copy written atomically, and its run
    manifest listing them."""

    def __init__(self, folder: Path, names: list[str]):
        from wordbias.core import ownership

        ownership.check_output_folder(folder, names, force_option=None)
        self.folder = paths.check_output_dir(folder, what="--executed", create=True)
        self.files: dict[str, list[str]] = {}
        self.lock = threading.Lock()

    def write(self, student: str, lesson: str, nb) -> None:
        import nbformat

        from wordbias.core.atomic import atomic_file

        target = self.folder / student / lesson
        target.parent.mkdir(exist_ok=True)
        with atomic_file(target, what="an executed notebook") as tmp:
            nbformat.write(nb, os.fspath(tmp))
        with self.lock:
            self.files[f"{student}/{lesson}"] = [hashlib.sha256(target.read_bytes()).hexdigest()]

    def record(self) -> None:
        from wordbias.core import ownership
        from wordbias.core.atomic import atomic_file

        old = ownership.read_run_manifest(self.folder)
        files = {**{k: v for k, v in old["files"].items() if (self.folder / k).exists()}, **self.files}
        folders = set(old["folders"]) | {k.split("/")[0] for k in self.files}
        with atomic_file(self.folder / ownership.RUN_MANIFEST) as tmp:
            ownership.record_files(self.folder, files, folders, into=tmp)


def _grade_one(sub: Submission, lesson: Lesson, copies: _Copies, options: dict) -> tuple[list, list, float]:
    """Read, execute, grade one submission; write its executed copy."""
    if sub.path is None:
        return grade_notebook(lesson, sub.student, None, None), written_answers(lesson, sub.student, None), 0.0
    try:
        submitted = _read_notebook(sub.path)
    except Exception as exc:  # noqa: BLE001 - a broken file is graded as a notebook that did not run
        rows = grade_notebook(lesson, sub.student, {"cells": []}, None)
        for row in rows:
            row["message"] = f"the notebook cannot be read ({type(exc).__name__}: {str(exc)[:200]})"
        return rows, written_answers(lesson, sub.student, None), 0.0
    cwd = copies.folder / sub.student
    cwd.mkdir(exist_ok=True)
    run = execute(submitted, timeout=options["timeout"], kernel=options["kernel"], cwd=cwd)
    copies.write(sub.student, sub.lesson, run.notebook)
    rows = grade_notebook(lesson, sub.student, submitted, run)
    return rows, written_answers(lesson, sub.student, submitted), run.seconds


def _progress_line(sub: Submission, rows: list[dict], seconds: float) -> str:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    shown = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=lambda kv: STATUSES.index(kv[0])))
    return f"{sub.student}/{sub.lesson}: {seconds:.1f} s ({shown or 'no exercises'})"


def _check_limits(timeout, jobs) -> None:
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout < math.inf:
        raise InvalidParameterError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise InvalidParameterError(f"jobs must be an integer >= 1, not {jobs!r}")


def _grade_all(found: list[Submission], known: dict, copies: _Copies, options: dict, jobs: int,
               progress) -> dict:
    """Every submission graded, ``jobs`` at once (threads: each notebook runs in its own kernel process)."""
    results = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_grade_one, sub, known[sub.lesson], copies, options): sub for sub in found}
        for future in as_completed(futures):
            sub = futures[future]
            results[sub] = future.result()
            if progress is not None and sub.path is not None:
                progress(_progress_line(sub, results[sub][0], results[sub][2]))
    return results


def grade_class(submissions, *, executed, lessons=None, timeout: float = 300, kernel: str = "python3",
                jobs: int = 1, progress: Callable[[str], None] | None = None) -> Grades:
    """Grade every student's lesson notebooks of a submissions folder.

    Parameters
    ----------
    submissions : str or os.PathLike
        The folder of one folder per student, each holding the student's notebooks named like the lessons.
    executed : str or os.PathLike
        The folder the executed copies are written to (``<student>/<lesson file>``): a new or empty folder, or
        one this function wrote; never inside the submissions.
    lessons : str or os.PathLike, optional
        The instructor sources (default :func:`default_lessons`).
    timeout : float, default 300
        The time limit of each notebook, in seconds.
    kernel : str, default "python3"
        The Jupyter kernel the notebooks run in.
    jobs : int, default 1
        Notebooks run at once (each in its own kernel).
    progress : callable, optional
        Called with one line per notebook graded (its time and its statuses).

    Returns
    -------
    Grades
        The tables.

    Raises
    ------
    InvalidParameterError
        When an argument is refused (a missing folder, an unknown kernel, a limit that is not positive, the
        executed copies' folder inside the submissions).
    """
    import pandas as pd

    _check_limits(timeout, jobs)
    started = time.monotonic()
    known = read_lessons(lessons if lessons is not None else default_lessons())
    found, unmatched = find_submissions(submissions, known)
    folder = paths.check_output_dir(executed, what="executed")
    _check_apart(folder, paths.given_path(submissions, "submissions").resolve(), "executed")
    options = {"timeout": float(timeout), "kernel": check_kernel(kernel)}
    copies = _Copies(folder, [f"{s.student}/{s.lesson}" for s in found if s.path is not None])
    try:
        results = _grade_all(found, known, copies, options, jobs, progress)
    finally:
        copies.record()        # the copies written so far are listed, also when the run stops early
    rows = pd.DataFrame([r for sub in found for r in results[sub][0]], columns=list(COLUMNS))
    rows = rows.astype({"points": float, "max_points": float, "tries": "Int64", "check_hash_ok": "boolean"})
    written = pd.DataFrame([r for sub in found for r in results[sub][1]], columns=list(WRITTEN_COLUMNS))
    return Grades(rows, totals(rows), written, tuple(unmatched), sum(s.path is not None for s in found),
                  time.monotonic() - started)


def write_grades(grades: Grades, out) -> list[Path]:
    """Write the grades table to ``out`` and its totals and written answers beside it, together.

    Parameters
    ----------
    grades : Grades
        The tables (:func:`grade_class`).
    out : str or os.PathLike
        The grades table (``grades.csv``); beside it ``<stem>_totals.csv`` and ``<stem>_written.csv``. A file of
        those names that wordbias did not write (or that was changed since, e.g. scores typed into the written
        answers) is refused, not replaced.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    from wordbias.core.atomic import run_files
    from wordbias.core.tidy import write_csv

    out = paths.check_output_file(out, what="--out")
    out.parent.mkdir(parents=True, exist_ok=True)
    tables = _table_paths(out)
    with run_files(out.parent, names=[p.name for p in tables]) as run:
        for frame, path in zip((grades.rows, grades.totals, grades.written), tables):
            write_csv(frame, path, what=path.name, float_format="%g")
    return list(run.written)
