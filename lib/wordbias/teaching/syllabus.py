"""How long each lesson of the path takes a class: an estimate from what the lesson holds.

A lesson's time is three parts, each counted from the notebook itself:

* **reading**: the words of its markdown cells (link targets, HTML tags and markup left out) read at
  :data:`READING_WPM` words a minute. Carver (1992, "Reading rate: theory, research, and practical implications",
  *Journal of Reading* 36(2):84-95) measures college students' rates by purpose: about 300 words a minute when
  reading to understand a passage ("rauding"), 200 when reading to learn it, 138 when reading to remember it. A
  lesson's text is read to learn and to use at once (formulas, code to run, numbers to compute), so the path
  takes 140, at the slow end;
* **exercises**: minutes per exercise (:data:`EXERCISE_MINUTES`) by its kind (:data:`CHECK_KINDS`, from the check
  that follows it): a number computed by hand, a choice among options, a word list of one's own, a prediction, a
  written answer. These minutes are stated, not measured in a class: a teacher who times a class can change them;
* **computing**: the lesson's run time, the sum of its cells' run times when the executed notebook stores them
  (papermill's ``duration``, or Jupyter's execution timestamps), else the ``compute_seconds`` the lesson index
  ``lessons.yaml`` states for the lesson (the committed executed lessons keep no timings, so that ``make``
  rewrites them byte for byte).

The sum, rounded up to the next 5 minutes, is the lesson's ``minutes`` in ``lessons.yaml`` (a test keeps them
equal). ``python -m wordbias.teaching.syllabus notebooks/lessons`` prints the table of every lesson;
``--executed DIR`` reads the cell timings of lessons executed into DIR (e.g. by papermill) instead of the stated
seconds.
"""
from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import yaml

from wordbias.core.errors import InvalidParameterError

__all__ = ["READING_WPM", "EXERCISE_MINUTES", "CHECK_KINDS", "ROUND_TO", "LessonTime", "markdown_words",
           "exercise_kinds", "cell_seconds", "estimate", "estimated_minutes", "path_times", "format_table", "main"]

#: reading rate of a lesson's markdown, words a minute (Carver 1992: 138 to remember, 200 to learn; see above)
READING_WPM = 140
#: minutes a student spends on one exercise of each kind (stated, not measured in a class)
#: (a number: write one line, run it and its check, perhaps twice; a word list: choose six words or more, replace
#: those the embedding lacks, run the test again; a written answer: 30-40 words or more, composed)
EXERCISE_MINUTES: dict[str, float] = {"number": 3.0, "choice": 2.0, "word list": 8.0, "prediction": 1.0,
                                      "written": 5.0}
#: the kind of exercise each check of :mod:`wordbias.teaching.checks` marks
CHECK_KINDS: dict[str, str] = {
    **dict.fromkeys(["number", "cosine", "association", "test_statistic", "effect_size", "exact_floor",
                     "two_sided", "monte_carlo_floor", "angle", "significant_associations", "run_spread",
                     "combined_variance", "share_significant", "direct_bias", "neighbour_correlation",
                     "sentence_log_prob", "pair_margin", "ladder_validity", "false_positive_rate",
                     "spearman_brown"], "number"),
    **dict.fromkeys(["choice", "same_set", "intervals_including_zero", "most_influential", "differ_in_frequency",
                     "interval_or_runs", "nearer_target", "value_in_interval", "shorter_wins_more",
                     "validity_covers_zero"], "choice"),
    "word_list": "word list", "prediction": "prediction", "written": "written"}
#: a lesson's minutes are rounded up to a multiple of this
ROUND_TO = 5

_CHECK_CALL = re.compile(r"(?<![\w.])checks\.(\w+)\(")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"<[^>]+>")
_WORD = re.compile(r"[^\W_]")


@dataclass(frozen=True)
class LessonTime:
    """The estimated time of one lesson and what it is made of.

    Attributes
    ----------
    file : str
        The notebook's file name.
    words : int
        Words in its markdown cells.
    exercises : dict
        Exercise kind -> how many the lesson has.
    compute_seconds : float
        Its cells' run time, in seconds.
    compute_source : str
        Where that time comes from: ``"cell timings"`` or ``"lessons.yaml"``.
    """

    file: str
    words: int
    exercises: dict
    compute_seconds: float
    compute_source: str

    @property
    def reading_minutes(self) -> float:
        """Minutes to read the markdown at :data:`READING_WPM`."""
        return self.words / READING_WPM

    @property
    def exercise_minutes(self) -> float:
        """Minutes of the exercises, by :data:`EXERCISE_MINUTES`."""
        return sum(EXERCISE_MINUTES[kind] * n for kind, n in self.exercises.items())

    @property
    def minutes(self) -> int:
        """Reading, exercises and computing, rounded up to a multiple of :data:`ROUND_TO` minutes."""
        total = self.reading_minutes + self.exercise_minutes + self.compute_seconds / 60
        return ROUND_TO * math.ceil(round(total, 9) / ROUND_TO)


def _load(notebook) -> dict:
    path = Path(notebook)
    if not path.is_file():
        raise InvalidParameterError(f"no notebook at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def markdown_words(nb: Mapping) -> int:
    """The words of a notebook's markdown cells.

    A word is a run of non-blank characters holding a letter or digit; link and image targets and HTML tags are
    left out (the link's text counts), formulas count by their symbols.

    Parameters
    ----------
    nb : mapping
        The notebook (its JSON).

    Returns
    -------
    int

    Examples
    --------
    >>> markdown_words({"cells": [{"cell_type": "markdown", "source": "A [link](https://x.org/a b) and $d$ -"},
    ...                           {"cell_type": "code", "source": "x = 1"}]})
    4
    """
    words = 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            text = _TAG.sub(" ", _LINK.sub(r"\1", _source(cell)))
            words += sum(1 for token in text.split() if _WORD.search(token))
    return words


def exercise_kinds(nb: Mapping, *, name: str = "notebook") -> dict[str, int]:
    """How many exercises of each kind a lesson has: one per cell tagged ``check``, of the kind of the check it
    calls (:data:`CHECK_KINDS`).

    Parameters
    ----------
    nb : mapping
        The notebook (its JSON).
    name : str
        The notebook's name, for the error message.

    Returns
    -------
    dict
        Kind -> count, in the order of :data:`EXERCISE_MINUTES`, kinds the lesson lacks left out.

    Raises
    ------
    InvalidParameterError
        A check cell that calls no check, or a check of no known kind.
    """
    counts = dict.fromkeys(EXERCISE_MINUTES, 0)
    for i, cell in enumerate(nb["cells"]):
        if "check" not in cell.get("metadata", {}).get("tags", []):
            continue
        calls = [c for c in _CHECK_CALL.findall(_source(cell)) if c in CHECK_KINDS]
        unknown = sorted(set(_CHECK_CALL.findall(_source(cell))) - set(CHECK_KINDS) - {"needs", "reveal"})
        if unknown:
            raise InvalidParameterError(f"{name}, cell {i}: checks.{unknown[0]} is of no known kind; add it to "
                                        f"wordbias.teaching.syllabus.CHECK_KINDS as one of {list(EXERCISE_MINUTES)}")
        if not calls:
            raise InvalidParameterError(f"{name}, cell {i} is tagged check but calls no exercise check")
        counts[CHECK_KINDS[calls[0]]] += 1
    return {kind: n for kind, n in counts.items() if n}


def _timestamp(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def cell_seconds(nb: Mapping) -> float | None:
    """The summed run time of an executed notebook's code cells, from the timings it stores.

    Parameters
    ----------
    nb : mapping
        The executed notebook (its JSON).

    Returns
    -------
    float or None
        Seconds: each cell's papermill ``duration``, else its Jupyter execution timestamps (``shell.execute_reply``
        minus ``iopub.execute_input``); None when no code cell stores either.

    Examples
    --------
    >>> cell_seconds({"cells": [{"cell_type": "code", "metadata": {"papermill": {"duration": 1.5}}},
    ...                         {"cell_type": "code", "metadata": {"execution": {
    ...                             "iopub.execute_input": "2024-01-01T00:00:00Z",
    ...                             "shell.execute_reply": "2024-01-01T00:00:02.5Z"}}}]})
    4.0
    >>> cell_seconds({"cells": [{"cell_type": "code", "metadata": {}}]}) is None
    True
    """
    total, found = 0.0, False
    for cell in nb["cells"]:
        meta = cell.get("metadata", {})
        duration = meta.get("papermill", {}).get("duration")
        times = meta.get("execution", {})
        if cell["cell_type"] != "code":
            continue
        if isinstance(duration, (int, float)):
            total, found = total + duration, True
        elif "iopub.execute_input" in times and "shell.execute_reply" in times:
            span = _timestamp(times["shell.execute_reply"]) - _timestamp(times["iopub.execute_input"])
            total, found = total + span.total_seconds(), True
    return total if found else None


def estimate(source, *, executed=None, stated_seconds: float | None = None) -> LessonTime:
    """Estimate one lesson's time from its instructor source, and its computing time from the executed lesson's
    cell timings or, where it stores none, from the stated seconds.

    Parameters
    ----------
    source : str or Path
        The instructor source (``notebooks/lessons/src/NN_*.ipynb``): its words and exercises.
    executed : str, Path or None
        The executed lesson, read for its cell timings; None to use ``stated_seconds``.
    stated_seconds : float or None
        The computing time to use when ``executed`` is None or stores no timings.

    Returns
    -------
    LessonTime

    Raises
    ------
    InvalidParameterError
        No notebook at a path, a check of no known kind, or no computing time (no timings and none stated).
    """
    nb = _load(source)
    name = Path(source).name
    seconds = cell_seconds(_load(executed)) if executed is not None else None
    where = "cell timings"
    if seconds is None:
        if stated_seconds is None or not isinstance(stated_seconds, (int, float)) or stated_seconds < 0:
            raise InvalidParameterError(f"{name}: no computing time: the executed lesson stores no cell timings, "
                                        f"and stated_seconds is {stated_seconds!r} (give a number of seconds >= 0, "
                                        "e.g. compute_seconds in lessons.yaml)")
        seconds, where = float(stated_seconds), "lessons.yaml"
    return LessonTime(name, markdown_words(nb), exercise_kinds(nb, name=name), seconds, where)


def _index(folder: Path) -> dict:
    path = folder / "lessons.yaml"
    if not path.is_file():
        raise InvalidParameterError(f"no lesson index at {path}")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _lesson_paths(notebook: Path) -> tuple[Path, Path]:
    """(the lessons folder, the executed lesson) of an instructor source in ``lessons/src/``."""
    folder = notebook.parent.parent if notebook.parent.name == "src" else notebook.parent
    return folder, folder / notebook.name


def estimated_minutes(notebook) -> int:
    """A lesson's estimated minutes in class (see the module's docstring), from its instructor source.

    Parameters
    ----------
    notebook : str or Path
        The instructor source, ``notebooks/lessons/src/NN_*.ipynb``; its computing time is read from the
        executed lesson beside ``src/`` when that stores cell timings, else from ``compute_seconds`` of its entry
        in the lessons folder's ``lessons.yaml``.

    Returns
    -------
    int
        Minutes, a multiple of :data:`ROUND_TO`.
    """
    path = Path(notebook)
    folder, executed = _lesson_paths(path)
    entry = {e["file"]: e for e in _index(folder)["lessons"]}.get(path.name, {})
    return estimate(path, executed=executed if executed.is_file() else None,
                    stated_seconds=entry.get("compute_seconds")).minutes


def path_times(folder, *, executed=None) -> list[LessonTime]:
    """Every lesson of a lessons folder, in the order of its ``lessons.yaml``.

    Parameters
    ----------
    folder : str or Path
        The lessons folder (``notebooks/lessons``, with ``lessons.yaml`` and ``src/``).
    executed : str, Path or None
        A folder of executed lessons whose cell timings to read (e.g. papermill's output); None: each entry's
        ``compute_seconds``.

    Returns
    -------
    list of LessonTime
    """
    folder = Path(folder)
    out = []
    for entry in _index(folder)["lessons"]:
        run = Path(executed) / entry["file"] if executed is not None else None
        out.append(estimate(folder / "src" / entry["file"], executed=run,
                            stated_seconds=entry.get("compute_seconds")))
    return out


def format_table(times: Sequence[LessonTime], stated: Mapping[str, int] | None = None) -> str:
    """The lesson times as a markdown table (with the index's minutes beside the estimate, when given).

    Parameters
    ----------
    times : sequence of LessonTime
        The lessons.
    stated : mapping or None
        File -> the minutes ``lessons.yaml`` states.

    Returns
    -------
    str
    """
    rows = ["| lesson | words | reading (min) | exercises | exercises (min) | computing (s) | estimate (min) | "
            "lessons.yaml (min) |", "|---|---|---|---|---|---|---|---|"]
    for t in times:
        kinds = ", ".join(f"{n} {kind}" for kind, n in t.exercises.items())
        rows.append(f"| {t.file} | {t.words} | {t.reading_minutes:.1f} | {kinds} | {t.exercise_minutes:g} | "
                    f"{t.compute_seconds:.0f} ({t.compute_source}) | {t.minutes} | "
                    f"{(stated or {}).get(t.file, '')} |")
    rows.append(f"| total | {sum(t.words for t in times)} | | | | | {sum(t.minutes for t in times)} | "
                f"{sum((stated or {}).values()) if stated else ''} |")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``python -m wordbias.teaching.syllabus LESSONS_DIR [--executed DIR]``: print every lesson's estimate.

    Parameters
    ----------
    argv : sequence of str or None
        The arguments; None for ``sys.argv[1:]``.
    """
    ap = argparse.ArgumentParser(prog="python -m wordbias.teaching.syllabus",
                                 description="estimate each lesson's minutes: reading, exercises, computing")
    ap.add_argument("folder", help="the lessons folder (e.g. notebooks/lessons)")
    ap.add_argument("--executed", help="a folder of executed lessons whose cell timings to read")
    args = ap.parse_args(argv)
    try:
        times = path_times(args.folder, executed=args.executed)
        stated = {e["file"]: e["minutes"] for e in _index(Path(args.folder))["lessons"]}
    except (InvalidParameterError, KeyError) as err:
        ap.exit(2, f"error: {err}\n")
    print(f"reading at {READING_WPM} words a minute; exercise minutes {EXERCISE_MINUTES}; "
          f"rounded up to {ROUND_TO} minutes")
    print(format_table(times, stated))


if __name__ == "__main__":
    main()
