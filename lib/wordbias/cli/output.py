"""What the commands put out: the files of a run (tidy.csv, summary.html, the figures), the short table on
stdout, and on stderr each test not run or run only in part, with the exit status that says so."""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _fmt(x, digits: int = 3) -> str:
    import math

    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    try:
        import pandas as pd

        if x is pd.NA:
            return ""
    except ImportError:  # pragma: no cover
        pass
    x = float(x)
    if x != 0 and abs(x) < 10 ** -digits:
        return f"{x:.1e}"
    return f"{x:.{digits}f}"


def short_table(frame) -> str:
    """The few columns of a tidy table shown on stdout: (embedding,) test, set sizes, effect size with its
    interval, p with its method, two-sided p, Holm's adjusted p and the number of words dropped, then a legend:
    what ``n`` and the sign of d mean, and, when a test ran on too few of its words (``low_coverage``, marked
    ``!`` after its n), the rule that flagged it.

    Examples
    --------
    >>> from wordbias.core.tidy import tidy_frame
    >>> print(short_table(tidy_frame([{"test": "WEAT1", "n_x": 8, "n_y": 8, "effect_size_name": "d",
    ...     "effect_size": 1.5, "ci_low": 0.9, "ci_high": 1.8, "p_value": 2e-4, "p_method": "exact",
    ...     "p_holm": 4e-4, "dropped": "X: aster", "coverage": "X 8/9; Y 8/8", "low_coverage": False},
    ...     {"test": "WEAT2", "n_x": 3, "n_y": 3, "effect_size_name": "d", "effect_size": 0.5,
    ...     "coverage": "X 3/8; Y 3/8", "low_coverage": True}])))
    test   n     effect   95% CI        p               p two-sided  p Holm  dropped
    WEAT1  8/8   d=1.500  [0.90, 1.80]  0.0002 (exact)               0.0004  1
    WEAT2  3/3!  d=0.500
    n = words used per set: X/Y/A/B (WEFAT W/A/B; direction tests T1/T2/A1/A2; direct bias and RIPA professions/pairs)
    d > 0: X is closer to A (relative to B) than Y is
    ! = low coverage: a set kept fewer than 4 of its words or less than 50% of its list (note column of tidy.csv)

    An interval's bounds carry the decimals their Monte Carlo error supports
    (:func:`wordbias.core.tables.interval_digits`; 2 when the number of resamples is not in the table).
    """
    import pandas as pd

    from wordbias.core import tidy
    from wordbias.core.tables import interval_bounds_text

    several = frame["embedding"].nunique(dropna=True) > 1
    by_measure = frame.duplicated(["embedding", "test"]).any()     # a test run by several measures: name them
    # a test of several batteries (StereoSet's two tasks, BEC-Pro's two languages): name the battery too
    by_battery = "battery" in frame and frame.duplicated(["embedding", "test", "measure"]).any()
    rows, flagged = [], 0
    for _, r in frame.iterrows():
        sizes = "/".join(str(int(v)) for v in (r.n_x, r.n_y, r.n_a, r.n_b) if not pd.isna(v))
        ci = "" if pd.isna(r.ci_low) or pd.isna(r.ci_high) else interval_bounds_text(   # the digits its MC error supports
            r.ci_low, r.ci_high, level=r.ci_level if pd.notna(r.ci_level) else 0.95, n_resamples=r.n_resamples)
        note = r.note if isinstance(r.note, str) else ""
        low = r.get("low_coverage")
        low = low is not None and not pd.isna(low) and bool(low) and not note.startswith(tidy.NOT_RUN)
        if low:
            flagged += 1
            sizes += "!"
        if pd.notna(r.effect_size):
            effect = f"{r.effect_size_name}={_fmt(r.effect_size)}"
        else:
            effect = "not run" if note.startswith("not run") else ""
        method = r.p_method.split(",")[0].strip() if isinstance(r.p_method, str) else ""
        dropped = r.dropped if isinstance(r.dropped, str) else ""
        n_dropped = sum(len(part.split(":", 1)[-1].split()) for part in dropped.split(";") if part.strip())
        test = f"{r.test} ({r.measure})" if by_measure and isinstance(r.measure, str) else str(r.test)
        if by_battery and isinstance(r.battery, str):
            test = f"{r.battery} {test}"
        row = [test, sizes, effect, ci, _fmt(r.p_value, 4) + (f" ({method})" if method and pd.notna(r.p_value)
                                                                     else ""),
               _fmt(r.p_two_sided, 4), _fmt(r.p_holm, 4), str(n_dropped or "")]
        rows.append(([str(r.embedding)] if several else []) + row)
    if not rows:
        return "(no tests)"
    header = (["embedding"] if several else []) + ["test", "n", "effect", "95% CI", "p", "p two-sided", "p Holm",
                                                   "dropped"]
    widths = [max(len(x[i]) for x in rows + [header]) for i in range(len(header))]
    lines = ["  ".join(x[i].ljust(widths[i]) for i in range(len(header))).rstrip() for x in [header] + rows]
    lines.append("n = words used per set: X/Y/A/B (WEFAT W/A/B; direction tests T1/T2/A1/A2; direct bias and RIPA "
                 "professions/pairs)")
    if (frame["effect_size_name"] == "d").fillna(False).any():
        lines.append("d > 0: X is closer to A (relative to B) than Y is")
    if flagged:
        params = frame.attrs.get("parameters") or {}
        params = next((v for v in params.values() if isinstance(v, dict)), params)   # compare: per embedding
        min_words = params.get("min_words", tidy.MIN_WORDS)
        min_fraction = params.get("min_fraction", tidy.MIN_FRACTION)
        lines.append(f"! = low coverage: a set kept fewer than {min_words} of its words or less than "
                     f"{min_fraction:.0%} of its list (note column of tidy.csv)")
    return "\n".join(lines)


#: every file a measuring command may write into ``--out``, in the order they are listed (checked before any work
#: by :func:`wordbias.cli.inputs.out_dir`, and written by :func:`write_outputs`)
RUN_FILES = ("tidy.csv", "summary.html", "ensemble.csv", "runs.png", "runs.pdf", "forest.png", "forest.pdf",
             "heatmap.png", "heatmap.pdf")


def prepare_out(out: str, names: Iterable[str], *, force: bool = False, create: bool = True,
                force_option: str | None = "--force") -> Path:
    """``--out`` of a command that writes, checked by the one output rule before any work, then created.

    Where it may be: :func:`wordbias.core.paths.check_output_dir` (never empty, the checkout's root, ``~`` or
    ``/``, nor inside the package, the data, results/ or figures/; a symbolic link only to a folder of
    wordbias's). Whether it may receive the files ``names``: :func:`wordbias.core.ownership.check_output_folder`
    (absent, empty, or a folder wordbias made, where only the files its run manifest lists, unchanged, are
    replaced; ``force`` allows a folder of the user's and replacing its files of those names). With ``create``
    the folder is created (with its parents) and, new or empty, marked as wordbias's
    (:mod:`wordbias.core.ownership`); a run that then fails leaves no empty folder behind
    (:func:`no_empty_folder_left`, around every command).

    Parameters
    ----------
    out : str
        The folder as the user gave it.
    names : iterable of str
        The files the command may write there.
    force : bool, default False
        The command's ``--force``.
    create : bool, default True
        Create the folder after the checks (``False`` where the command puts the folder in place itself, as
        ``train`` does).
    force_option : str or None, default "--force"
        The option named in a refusal as the way out; ``None`` for a command that offers none.

    Returns
    -------
    pathlib.Path
        The folder, resolved.

    Examples
    --------
    >>> import tempfile
    >>> mine = Path(tempfile.mkdtemp())
    >>> _ = (mine / "notes.txt").write_text("mine")
    >>> prepare_out(str(mine), RUN_FILES)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.FolderNotOursError: refusing to write into ...: wordbias did not create it ...--force...
    >>> prepare_out(str(mine), RUN_FILES, force=True) == mine.resolve()
    True
    """
    from wordbias.core import ownership, paths

    folder = paths.check_output_dir(out, what="--out")
    ownership.check_output_folder(folder, names, force=force, force_option=force_option)
    if not create:
        return folder
    folder = paths.check_output_dir(out, what="--out", create=True)
    if ownership.owner(folder) is None and not any(folder.iterdir()):
        ownership.mark(folder, "output")     # an empty folder the user gave: wordbias's from now on
    return folder


@contextmanager
def no_empty_folder_left(out: str | None) -> Iterator[None]:
    """Around a command writing into ``out`` (its ``--out``; ``None`` for one that writes no folder): if the
    command fails, the folders it created on the way to ``out`` (``out`` and the parents that were missing)
    are removed again, deepest first, while each holds nothing but wordbias's marker. A folder that existed
    before the command, or that holds anything else, is kept.

    Examples
    --------
    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> try:
    ...     with no_empty_folder_left(str(base / "a" / "b")):
    ...         _ = prepare_out(str(base / "a" / "b"), RUN_FILES)
    ...         raise RuntimeError("the embedding is not there")
    ... except RuntimeError:
    ...     pass
    >>> list(base.iterdir())
    []
    """
    if out is None or not str(out).strip():
        yield
        return
    target = Path(os.path.abspath(Path(out).expanduser()))
    created = [p for p in (target, *target.parents) if not os.path.lexists(p)]    # deepest first
    try:
        yield
    except BaseException:
        _remove_empty(created)
        raise


def _remove_empty(folders: list[Path]) -> None:
    """Remove each of ``folders`` (deepest first) that is a folder holding nothing, or only wordbias's marker;
    stop at the first that holds anything else."""
    from wordbias.core.ownership import MARKER, owner

    for folder in folders:
        if not os.path.lexists(folder):
            continue
        try:
            if folder.is_symlink() or not folder.is_dir():
                return
            names = {p.name for p in folder.iterdir()}
            if names == {MARKER} and owner(folder) is not None:
                (folder / MARKER).unlink()
            elif names:
                return
            folder.rmdir()
        except OSError:     # removed or filled meanwhile: keep what is there
            return


def write_outputs(frame, out: Path, title: str, *, heatmap: bool = False, force: bool = False) -> list[Path]:
    """tidy.csv, summary.html, the forest plot (forest.png, forest.pdf), for several embeddings the heat map
    (heatmap.png, heatmap.pdf: ``summary.write_html`` draws it whenever the table has several, so ``heatmap``
    only names compare's intent), for an ensemble ensemble.csv and runs.png/.pdf; returns the files written.

    One writer for all of them (:func:`wordbias.core.atomic.run_files`): each file is written to a temporary
    name and they are moved into place together once all are written, so a failure (a full disk:
    :class:`~wordbias.core.errors.DiskFullError` naming the file) leaves an earlier result in ``out`` whole.
    Only files wordbias wrote there and the user has not changed are replaced (a user's ``summary.html``, an
    edited ``tidy.csv`` or a symbolic link raises :class:`~wordbias.core.errors.FolderNotOursError` naming it),
    unless ``force`` (the command's ``--force``) says to replace them; nothing else in ``out`` is touched."""
    import matplotlib.pyplot as plt

    from wordbias.core.atomic import run_files

    try:
        with run_files(out, names=RUN_FILES, force=force) as run:
            _write_files(frame, out, title)
    finally:
        plt.close("all")
    return sorted(run.written, key=lambda p: RUN_FILES.index(p.name) if p.name in RUN_FILES else len(RUN_FILES))


def _write_files(frame, out: Path, title: str) -> None:
    """The files of :func:`write_outputs`, each through :func:`wordbias.core.atomic.atomic_file`."""
    from wordbias.battery import summary
    from wordbias.core import tidy

    tidy.write_tidy(frame, out / "tidy.csv")
    summary.write_html(frame, out / "summary.html", title=title, figure_dir=out)    # and runs.png, runs.pdf
    if tidy.ensemble_run_rows(frame).any():     # an ensemble's runs (recorded in attrs; a "/" in a label is text)
        summary_table = frame.attrs.get("ensemble")
        if summary_table is not None and len(summary_table):
            _write_csv(summary_table, out / "ensemble.csv")


def _write_csv(frame, path: Path) -> Path:
    """A summary table as CSV, written atomically (six significant digits, NA for missing values, as tidy.csv),
    safe to open in a spreadsheet (:func:`wordbias.core.tidy.write_csv`)."""
    from wordbias.core.tidy import FLOAT_FORMAT, write_csv

    return write_csv(frame, path, what=path.name, float_format=FLOAT_FORMAT, na_rep="NA")


#: exit status of a run whose outputs were written but some of whose tests were not run, or ran only in part
EXIT_NOT_RUN = 3
#: the most tests not run named one by one on stderr (the rest are counted; all are in tidy.csv's note)
_NOT_RUN_SHOWN = 20
#: the most characters of a reason shown on stderr (tidy.csv's note has it in full)
_REASON_WIDTH = 700
#: the command's way out of a test refused for its cost (the reason names the library's)
_COSTLY_HINT = ("With the command: lower --n-permutations or --n-resamples (or leave UBE out with --no-ube), "
                "then run again.")


def _reason_line(note: str, prefix: str) -> str:
    """The reason of a ``note`` after ``prefix``, on one line, shortened, with the command's way out of a cost
    refusal."""
    reason = textwrap.shorten(one_line(note[len(prefix):].lstrip(": ")), _REASON_WIDTH,
                              placeholder=" ... (in full in tidy.csv)")
    if any(f"{name}:" in reason for name in ("TooCostlyError", "ExactCountTooLarge")):
        reason += f" {_COSTLY_HINT}"
    return reason


def report_not_run(frame, written: list[Path]) -> int:
    """Name on stderr each test of ``frame`` that did not run, or ran without a part (its interval), with the
    embedding, the test, the measure and the reason (which says what to do, e.g. a cost refusal's estimate
    and way out), and return :data:`EXIT_NOT_RUN`; 0 when every test ran in full."""
    from wordbias.core import tidy

    skipped, partial = tidy.not_run(frame), tidy.run_in_part(frame)
    if skipped.empty and partial.empty:
        return 0
    several = frame["embedding"].nunique(dropna=True) > 1
    lines = [("not run", r, _reason_line(str(r.note), tidy.NOT_RUN)) for r in skipped.itertuples()]
    lines += [("run in part", r, _reason_line(str(r.note), "")) for r in partial.itertuples()]
    for kind, r, reason in lines[:_NOT_RUN_SHOWN]:
        who = f"{r.embedding} / {r.test}" if several else str(r.test)
        measure = f" ({r.measure})" if isinstance(r.measure, str) else ""
        print(f"wordbias: {kind}: {who}{measure}: {reason}", file=sys.stderr)
    if len(lines) > _NOT_RUN_SHOWN:
        print(f"wordbias: ... and {len(lines) - _NOT_RUN_SHOWN} more", file=sys.stderr)
    csv = next((str(p) for p in written if p.name == "tidy.csv"), "tidy.csv")
    counts = ([f"{len(skipped)} were not run"] if len(skipped) else []) + \
        ([f"{len(partial)} ran only in part"] if len(partial) else [])
    print(f"wordbias: of {len(frame)} tests, {' and '.join(counts)} (the reasons above, also in the note column of {csv}); exit status "
          f"{EXIT_NOT_RUN}", file=sys.stderr)
    return EXIT_NOT_RUN


def finish(frame, written: list[Path], args) -> int:
    """Print the short table and the files written (unless ``--quiet``), report the tests not run on stderr
    (always); return the exit status: 0, or :data:`EXIT_NOT_RUN` when some tests were not run."""
    from wordbias.battery.ensemble import combined_only, run_rows

    runs = run_rows(frame)
    shown = combined_only(frame) if runs.any() else frame      # an ensemble: each test once, combined over runs
    if not args.quiet:
        print(short_table(shown))
        ensemble_runs = frame.attrs.get("parameters", {}).get("runs")
        if ensemble_runs is not None and len(ensemble_runs) == 1:
            print("(an ensemble of one training run: each test is that run's result, its interval over the words "
                  "only; train several runs, e.g. --seeds 5, to see how far the results move between runs)")
        elif runs.any():
            print(f"(each test combined over the runs of the ensemble: interval over words and runs; the "
                  f"{int(runs.sum())} rows of the single runs are in tidy.csv)")
        print()
        print("wrote " + ", ".join(str(p) for p in written))
    return report_not_run(shown, written)


def one_line(text: str) -> str:
    """``text`` on one line (its lines stripped and joined by spaces)."""
    return " ".join(line.strip() for line in str(text).splitlines() if line.strip())
