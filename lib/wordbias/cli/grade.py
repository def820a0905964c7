"""``wordbias grade``: a class's lesson notebooks executed and graded into tables
(:func:`wordbias.teaching.grade.grade_class`)."""

from __future__ import annotations

import sys

#: the most failed check cells named one by one on stderr (all are in the grades table)
_FAILED_SHOWN = 20


def run_grade(args) -> int:
    """``wordbias grade SUBMISSIONS --out grades.csv``: execute a copy of every student's notebook, grade each
    exercise, write the grades, the totals and the written answers, name on stderr the files not graded and the
    check cells that failed as cells, print a summary; return 0."""
    from wordbias.teaching import grade

    out, executed = grade.output_paths(args.submissions, args.out, args.executed)     # before any work
    progress = None if args.quiet else (lambda line: print(f"graded {line}", file=sys.stderr, flush=True))
    result = grade.grade_class(args.submissions, lessons=args.lessons, executed=executed, timeout=args.timeout,
                               kernel=args.kernel, jobs=args.jobs, progress=progress)
    written = grade.write_grades(result, out)
    for name in result.unmatched:
        print(f"wordbias: not graded: {name}: not a lesson notebook of a student (SUBMISSIONS/<student>/<lesson "
              "file>.ipynb)", file=sys.stderr)
    _name_failed(result.rows)
    if not args.quiet:
        print(summary(result, written, executed))
    return 0


def _name_failed(rows) -> None:
    """Name on stderr each check cell that failed as a cell (missing, edited, error, no record, not reached)."""
    from wordbias.teaching.grade import FAILED

    failed = rows[rows.status.isin(FAILED)]
    for r in failed.head(_FAILED_SHOWN).itertuples():
        print(f"wordbias: {r.student}/{r.lesson}: {r.grade_id}: {r.status}: {r.message}", file=sys.stderr)
    if len(failed) > _FAILED_SHOWN:
        print(f"wordbias: ... and {len(failed) - _FAILED_SHOWN} more (the status column of the grades)",
              file=sys.stderr)


def summary(result, written, executed) -> str:
    """The lines printed after grading: students, notebooks, exercises by status, the time, the files.

    Examples
    --------
    >>> import pandas as pd
    >>> from wordbias.teaching.grade import Grades
    >>> rows = pd.DataFrame({"student": ["al", "al"], "status": ["correct", "wrong"]})
    >>> print(summary(Grades(rows, None, None, (), 1, 2.04), [], "x_executed"))
    1 student, 1 notebook, 2 exercises (1 correct, 1 wrong) in 2.0 s
    executed copies in x_executed
    """
    from wordbias.teaching.grade import STATUSES

    counts = result.rows.status.value_counts()
    rows_by_status = ", ".join(f"{counts[s]} {s}" for s in STATUSES if s in counts)
    students = result.rows.student.nunique()
    lines = [f"{students} student{'s' * (students != 1)}, {result.notebooks} notebook"
             f"{'s' * (result.notebooks != 1)}, {len(result.rows)} exercises ({rows_by_status}) in "
             f"{result.seconds:.1f} s"]
    if written:
        lines.append("wrote " + ", ".join(str(p) for p in written))
    lines.append(f"executed copies in {executed}")
    return "\n".join(lines)
