"""Benchmark: checks and measures on very large word lists (linear-time overlap and duplicate checks).

For ``--sizes`` words per list (default 10,000, 40,000 and 100,000; random words of a random 20-d embedding)
this times, best of ``--repeats``:

* ``check_sets``: :func:`wordbias.measures.association.weat.check_sets` on X, Y, A, B of that size each (every list
  checked for duplicates, X/Y and A/B for shared words, targets against attributes);
* ``overlap_error``: the same with every word of X also in Y, up to the error naming them all;
* ``weat_normal``: :func:`wordbias.measures.association.weat.weat` with X, Y of that size, 50 attribute words a side, the
  normal-approximation p-value (everything from the word lists to the result; not the bootstrap interval of
  ``wordbias.weat``, whose cost grows with resamples x words and is refused beyond its budget);
* ``read_user_lists``: :func:`wordbias.datasets.user_lists.read_user_lists` on a YAML file with X and Y of
  that size (parsed by libyaml under wordbias's checks, :mod:`wordbias.core.yaml_io`).

A check that compared every word with every other would take hours at 100,000 words (10^10 comparisons); the
overlap check of ``wordbias.weat`` took 44 s on 40,000 + 40,000 words when it rebuilt a set for each word.
Printed and written to ``results/benchmarks/large_lists.csv``. Run from the repository root:
``python benchmarks/bench_large_lists.py [--sizes 10000 40000 100000] [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model  # noqa: E402

from wordbias.core import paths  # noqa: E402
from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.datasets.user_lists import read_user_lists  # noqa: E402
from wordbias.embeddings import to_keyed_vectors  # noqa: E402
from wordbias.measures.association import weat as W  # noqa: E402

N_ATTRIBUTES = 50


def best_of(fn, repeats: int) -> float:
    """The shortest of ``repeats`` calls, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def overlap_error(x, y, a, b) -> None:
    try:
        W.check_sets(x, x, a, b)
    except InvalidParameterError:
        return
    raise AssertionError("shared words were not refused")


def write_yaml(path: Path, x: list[str], y: list[str], a: list[str], b: list[str]) -> None:
    lines = ["weat:\n  - id: large\n    targets:\n"]
    for role, ws in (("X", x), ("Y", y)):
        lines.append(f"      {role}:\n        name: {role}\n        words:\n")
        lines.append("".join(f"          - {w}\n" for w in ws))
    lines.append(f"    attributes:\n      A: [{', '.join(a)}]\n      B: [{', '.join(b)}]\n")
    path.write_text("".join(lines), encoding="utf-8")


def run(sizes: list[int], repeats: int) -> list[dict]:
    rows = []
    rng = np.random.default_rng(0)
    for n in sizes:
        vocab = [f"w{i}" for i in rng.permutation(2 * n + 2 * N_ATTRIBUTES)]
        kv = to_keyed_vectors(vocab, rng.normal(size=(len(vocab), 20)).astype(np.float32))
        x, y = vocab[:n], vocab[n:2 * n]
        a, b = vocab[2 * n:2 * n + N_ATTRIBUTES], vocab[2 * n + N_ATTRIBUTES:]
        big_a, big_b = [f"a{i}" for i in range(n)], [f"b{i}" for i in range(n)]
        tasks = {
            "check_sets": lambda: W.check_sets(x, y, big_a, big_b),
            "overlap_error": lambda: overlap_error(x, y, big_a, big_b),
            "weat_normal": lambda: W.weat(kv, x, y, a, b, p_method="normal"),
        }
        with tempfile.TemporaryDirectory(prefix="wordbias-bench-") as tmp:
            path = Path(tmp) / "large.yaml"
            write_yaml(path, x, y, a, b)
            tasks["read_user_lists"] = lambda: read_user_lists(path)
            for task, fn in tasks.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    seconds = best_of(fn, repeats)
                rows.append({"task": task, "words_per_list": n, "seconds": round(seconds, 3), "cpu": cpu_model()})
                print(f"{task:16s} {n:>8,} words per list: {seconds:7.3f} s", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 40_000, 100_000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, default=paths.ROOT / "results" / "benchmarks" / "large_lists.csv")
    args = ap.parse_args()
    rows = run(args.sizes, args.repeats)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
