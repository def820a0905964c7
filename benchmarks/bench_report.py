"""Benchmark what a researcher waits for most: ``wordbias report`` on GloVe 6B 50d and ``compare`` of two embeddings.

Times, in one run and on the same machine:

- ``wordbias report glove-6b-50d --out DIR -q`` end to end (a fresh process: imports, loading the cached embedding,
  every test, ``tidy.csv``, the HTML page and the forest plot), as the command runs (the rows "now": UBE in a forked
  process beside the other tests, the quick exit) and sequentially (the rows "before": UBE after the other tests,
  the interpreter's usual exit), alternated, best of ``--repeat``;
- the same with the report's UBE run at the paper's R = 10,000 rotations instead of
  :data:`wordbias.battery.ube.REPORT_UBE_ROTATIONS` (a larger sizing than the report's; set through an environment variable
  read only by this script's child, see ``_child``);
- ``wordbias compare`` of a 13,919-word word2vec run trained on the Brown corpus (``wordbias train``'s default
  settings, seed 1, trained here if it is not in the cache) and GloVe 6B 50d;
- the report's parts (WEAT, WEFAT, direction, direct bias, RIPA, the WEFE metrics, UBE) in this process, from
  ``frame.attrs["timings"]``, with each UBE sizing, and the number of significant UBE cells each finds.

Each row records the CPU, the kernel setting (``WORDBIAS_KERNELS``: run ``eval "$(make -s kernel-env)"`` first) and
the load average before and after, so a disturbed run can be told from a quiet one. Writes
``benchmarks/results/bench_report/report_times.csv`` (``--out``) and prints it.

    python benchmarks/bench_report.py [--repeat 3] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROTATIONS_ENV = "WORDBIAS_BENCH_REPORT_ROTATIONS"
BEFORE_ENV = "WORDBIAS_BENCH_REPORT_BEFORE"



def _child(argv: list[str]) -> None:
    """Run the command line in this process as the ``wordbias`` command does (:func:`wordbias.cli.run`), with the
    report's UBE rotations from ROTATIONS_ENV if set; with BEFORE_ENV set, sequentially (UBE after
    the other tests in this process, and the interpreter's usual exit)."""
    if os.environ.get(ROTATIONS_ENV):
        from wordbias.battery import ube
        ube.REPORT_UBE_ROTATIONS = int(os.environ[ROTATIONS_ENV])
    from wordbias.cli import main, run
    if os.environ.get(BEFORE_ENV):
        from wordbias.battery import report
        report.fork_available = lambda: False
        sys.exit(main(argv))
    sys.argv = ["wordbias", *argv]
    run()


def _wall(args: list[str], rotations: int | None = None, before: bool = False) -> float:
    env = dict(os.environ)
    env.pop(ROTATIONS_ENV, None)
    env.pop(BEFORE_ENV, None)
    if rotations is not None:
        env[ROTATIONS_ENV] = str(rotations)
    if before:
        env[BEFORE_ENV] = "1"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--child", *args], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 3):  # 3: outputs written, some tests not run on a small vocabulary
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds


def _brown_run() -> str:
    from wordbias.papers import training_runs
    manifest = training_runs.brown_ensemble(seeds=1, bootstrap=0)
    return str(manifest.parent / "runs" / "seed-1")


def _parts(rotations: int) -> dict:
    from wordbias import embeddings
    from wordbias.battery import report, ube
    ube.REPORT_UBE_ROTATIONS = rotations
    frame = report.report(embeddings.load("glove-6b-50d", progress=False), label="glove-6b-50d", progress=False)
    row = frame.set_index("test").loc["UBE:first_names"]
    return {**{f"part {k} s": round(v, 3) for k, v in frame.attrs["timings"].items()},
            "ube significant cells": int(row.statistic)}


def main() -> None:
    # imported here, not at the top: the timed child (this file with --child) imports only what the command does
    import pandas as pd

    sys.path.insert(0, str(HERE))
    from machine import cpu_model

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "bench_report" / "report_times.csv")
    args = parser.parse_args()
    import warnings
    warnings.simplefilter("ignore")
    from wordbias.battery.ube import REPORT_UBE_ROTATIONS
    brown = _brown_run()
    common = dict(cpu=cpu_model(), cores=os.cpu_count(), kernels=os.environ.get("WORDBIAS_KERNELS", "unset"),
                  load_before=round(os.getloadavg()[0], 2))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        runs = [("wordbias report glove-6b-50d", ["report", "glove-6b-50d", "--out", f"{tmp}/r", "-q"],
                 REPORT_UBE_ROTATIONS),
                ("wordbias report glove-6b-50d", ["report", "glove-6b-50d", "--out", f"{tmp}/r", "-q"], 10_000),
                ("wordbias compare brown-seed-1 glove-6b-50d",
                 ["compare", f"brown={brown}", "glove-6b-50d", "--out", f"{tmp}/c", "-q"], REPORT_UBE_ROTATIONS)]
        for what, argv, rotations in runs:
            times = {True: [], False: []}   # before and now alternated: a disturbance hits both alike
            for _ in range(args.repeat):
                for before in (True, False):
                    times[before].append(_wall(argv, rotations, before))
            for before in (True, False):
                rows.append({"what": what, "ube rotations": rotations,
                             "route": "before: UBE after the others, usual exit" if before else
                             "now: UBE in a forked process beside the others, quick exit",
                             "best s": round(min(times[before]), 2),
                             "median s": round(sorted(times[before])[len(times[before]) // 2], 2)})
    for rotations in (REPORT_UBE_ROTATIONS, 10_000):
        rows.append({"what": "report() parts, this process", "ube rotations": rotations, **_parts(rotations)})
    frame = pd.DataFrame(rows).assign(**common, load_after=round(os.getloadavg()[0], 2))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(args.out, index=False)
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(frame.to_string(index=False))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2:])
    else:
        main()
