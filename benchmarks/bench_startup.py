"""Benchmark how soon the ``wordbias`` command answers: ``--help``, ``--version``, ``lists --template`` and
``report glove-6b-50d``, the code of this checkout against the code of another commit, in one run.

Each command runs as a fresh process (``python -m wordbias ...``, the interpreter's start-up and every import
included), the two codes alternated (before, after, before, after...) so that a disturbance of the shared
machine hits both alike; the best and the median wall time of ``--repeat`` runs (``--report-repeat`` for the
report) are kept. The light commands are also run once with ``python -X importtime`` and the heavy libraries they
import (numpy, pandas, gensim, torch, matplotlib, scipy, sklearn) are listed. The two reports' ``tidy.csv``
(``--seed 0``) are compared byte for byte: the column ``tidy.csv identical`` says whether they are.

The other commit's code runs from a git worktree (``--before``, default ``/tmp/wb_before``; made with ``git
worktree add --detach PATH REF`` from ``--before-ref``, default ``HEAD``, when it does not exist), with
``PYTHONPATH`` set to its ``lib/``. Each row records the commit, the CPU, the cores and the load average before and
after. Writes ``results/benchmarks/startup.csv`` (``--out``) and prints it.

    python benchmarks/bench_startup.py [--before /tmp/wb_before] [--before-ref HEAD] [--after CHECKOUT] [--repeat 5]
                                       [--report-repeat 3] [--no-report] [--out PATH]
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: the libraries a light command should not import
HEAVY = ("numpy", "pandas", "gensim", "torch", "matplotlib", "scipy", "sklearn")
#: the commands that should answer at once (the argument lists after ``wordbias``)
LIGHT = (("--help",), ("--version",), ("lists", "--template"))


def _worktree(path: Path, ref: str) -> Path:
    """The checkout of the code compared against (a git worktree of ``ref`` at ``path``, made if absent)."""
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), ref], check=True,
                       capture_output=True)
    if not (path / "lib" / "wordbias" / "__init__.py").is_file():
        raise SystemExit(f"{path} is not a checkout of wordbias (no lib/wordbias/__init__.py)")
    return path


def _commit(checkout: Path) -> str:
    done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False)
    dirty = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, check=False).stdout.strip()
    return done.stdout.strip() + (" + changes" if dirty else "")


def _run(checkout: Path, argv: tuple[str, ...], *, importtime: bool = False) -> tuple[float, str]:
    """Run ``python -m wordbias ARGV`` on ``checkout``'s code; its wall time and stderr."""
    env = {**os.environ, "PYTHONPATH": str(checkout / "lib")}
    cmd = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "wordbias", *argv]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 3):   # 3: outputs written, some tests not run
        raise SystemExit(f"wordbias {' '.join(argv)} on {checkout} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds, done.stderr


def _heavy(checkout: Path, argv: tuple[str, ...]) -> str:
    """The heavy libraries ``wordbias ARGV`` imports on ``checkout``'s code (from ``-X importtime``)."""
    _, log = _run(checkout, argv, importtime=True)
    names = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in log.splitlines()
             if line.startswith("import time:")}
    return " ".join(sorted(names & set(HEAVY))) or "none"


def _alternated(sides: dict[str, Path], argv: tuple[str, ...], repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {side: [] for side in sides}
    for _ in range(repeat):
        for side, checkout in sides.items():
            times[side].append(_run(checkout, argv)[0])
    return times


def _rows(what: str, commits: dict[str, str], times: dict[str, list[float]], extra: dict[str, dict]) -> list[dict]:
    return [{"command": what, "code": side, "commit": commit, "best s": round(min(times[side]), 3),
             "median s": round(statistics.median(times[side]), 3), "runs": len(times[side]), **extra[side]}
            for side, commit in commits.items()]


def main() -> None:
    sys.path.insert(0, str(HERE))
    from machine import cpu_model

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, default=Path("/tmp/wb_before"))
    parser.add_argument("--before-ref", default="HEAD")
    parser.add_argument("--after", type=Path, default=ROOT, help="the checkout measured after (default: this one)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--report-repeat", type=int, default=3)
    parser.add_argument("--no-report", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "benchmarks" / "startup.csv")
    args = parser.parse_args()
    sides = {"before": _worktree(args.before, args.before_ref), "after": args.after.resolve()}
    commits = {side: _commit(checkout) for side, checkout in sides.items()}   # the code as the run starts
    machine = {"cpu": cpu_model(), "cores": os.cpu_count(), "load before": round(os.getloadavg()[0], 2)}
    rows = []
    for argv in LIGHT:
        extra = {side: {"heavy imports": _heavy(checkout, argv)} for side, checkout in sides.items()}
        rows += _rows("wordbias " + " ".join(argv), commits, _alternated(sides, argv, args.repeat), extra)
    if not args.no_report:
        with tempfile.TemporaryDirectory() as tmp:
            outs = {side: Path(tmp, side) for side in sides}
            times: dict[str, list[float]] = {side: [] for side in sides}
            for _ in range(args.report_repeat):
                for side, checkout in sides.items():
                    argv = ("report", "glove-6b-50d", "--out", str(outs[side]), "--seed", "0", "-q")
                    times[side].append(_run(checkout, argv)[0])
            same = (outs["before"] / "tidy.csv").read_bytes() == (outs["after"] / "tidy.csv").read_bytes()
            extra = {side: {"tidy.csv identical": same} for side in sides}
            rows += _rows("wordbias report glove-6b-50d --seed 0", commits, times, extra)
    load_after = round(os.getloadavg()[0], 2)
    rows = [{**row, **machine, "load after": load_after} for row in rows]
    fields = list(dict.fromkeys(key for row in rows for key in row))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    for row in rows:
        print(", ".join(f"{k}: {v}" for k, v in row.items() if k not in ("cpu", "cores")))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
