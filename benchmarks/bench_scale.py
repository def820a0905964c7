"""Scale benchmark: a GoogleNews-shaped word2vec binary, its first load, the cached open and
``wordbias report`` end to end, with wall time and peak memory of each step.

The file has ``--n-words`` words (default 3,000,000, GoogleNews' size) x ``--dim`` (300) float32, in word2vec binary
format (``"<n> <dim>\\n"`` then ``word<space><dim float32><newline>`` per word; 3.6 GB at the default size). So that
the report measures something, its first words are GloVe 6B 50d's 400,000 words (in their frequency order) and the
485 cased words of the Caliskan GloVe 840B subset, whose vectors are their real vectors mapped into ``--dim``
dimensions by a fixed random orthonormal map (cosines kept) plus a little noise; the rest are filler words
``w_<i>`` with random vectors. Everything is seeded.

Each step runs in its own process, timed from outside, its peak resident memory read by a fresh wrapper process
with ``resource.getrusage(RUSAGE_CHILDREN)`` (so each peak is that step's alone; memory-mapped pages that were read
count as resident):

* ``read_file``: reading the file in 16 MiB blocks and nothing else (from the page cache, just after writing it:
  the fastest a byte can come in);
* ``copy_file``: reading the file and writing a copy of it (the floor for any conversion that writes a cache of
  the same size, as ours does: its float32 matrix is the file's bytes without the words);
* ``first_load``: ``wordbias.embeddings.load(path)`` with an empty cache (parse, write the float32 cache, open it);
* ``cached_open``: the same call again (the cache is memory-mapped and verified);
* ``report``: ``python -m wordbias report PATH --out DIR`` (every static-embedding test of the four papers,
  UBE included, with the command's defaults).

Goals: conversion at about the speed of reading the file, cached open under 1 s, the whole report
under 5 minutes, peak memory under 1.5x the float32 matrix. Results: printed and written to
``results/benchmarks/scale.csv``. Run from the repository root: ``python benchmarks/bench_scale.py`` (needs about
2x the file size of free disk in ``--workdir``; ``--keep`` keeps the files).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from wordbias import embeddings
from wordbias.core import paths


def write_word2vec_binary(path: Path, n_words: int, dim: int, seed: int, block: int = 100_000) -> int:
    """Write the synthetic file (see the module docstring); return the number of real words at its start."""
    rng = np.random.default_rng(seed)
    glove = embeddings.load("glove-6b-50d", progress=False)
    cased = embeddings.load("glove-840b-caliskan", progress=False)
    real_words = list(glove.index_to_key) + [w for w in cased.index_to_key if w not in glove.key_to_index]
    q, _ = np.linalg.qr(rng.normal(size=(dim, dim)))
    to_dim_glove = q[:, :glove.vector_size].T                    # (50, dim), orthonormal rows
    to_dim_cased = q[:, :cased.vector_size].T if cased.vector_size <= dim else None
    n_real = min(len(real_words), n_words)
    with open(path, "wb") as f:
        f.write(f"{n_words} {dim}\n".encode())
        for start in range(0, n_words, block):
            stop = min(start + block, n_words)
            vecs = rng.normal(scale=0.05, size=(stop - start, dim)).astype(np.float32)
            words = []
            for i in range(start, stop):
                if i < len(glove.index_to_key):
                    w = real_words[i]
                    vecs[i - start] += glove[w] @ to_dim_glove
                elif i < n_real:
                    w = real_words[i]
                    v = cased[w]
                    vecs[i - start] += (v @ to_dim_cased) if to_dim_cased is not None else v[:dim]
                else:
                    w = f"w_{i}"
                    vecs[i - start] += rng.normal(scale=0.4, size=dim).astype(np.float32)
                words.append(w.encode("utf-8"))
            rows = vecs.astype("<f4")
            f.write(b"".join(w + b" " + r.tobytes() + b"\n" for w, r in zip(words, rows)))
    return n_real


READ = """
import sys
with open(sys.argv[1], "rb", buffering=0) as f:
    while f.read(16 << 20):
        pass
"""

COPY = """
import os, sys
with open(sys.argv[1], "rb", buffering=0) as f, open(sys.argv[2], "wb") as g:
    while True:
        block = f.read(16 << 20)
        if not block:
            break
        g.write(block)
    g.flush()
    os.fsync(g.fileno())
os.remove(sys.argv[2])
"""

LOAD = """
import sys, time
import numpy as np
from wordbias import embeddings
t = time.perf_counter()
kv = embeddings.load(sys.argv[1], progress=False, cache_dir=sys.argv[2])
_ = float(np.asarray(kv.vectors[-1]).sum())
print(f"{time.perf_counter() - t:.3f} {len(kv)} {kv.vector_size}")
"""


WRAP = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:]).returncode
if code not in (0, 3):  # 3: the report ran, some tests were not run (named on stderr): still a timing
    sys.exit(code)
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * (1 / 1024 if sys.platform == "darwin" else 1)
print(f"PEAK_KIB {kib:.0f}", file=sys.stderr)
"""


def run_step(args: list[str], env: dict | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in GiB, stdout) of one command, run under a fresh wrapper process so that the
    peak (``RUSAGE_CHILDREN``, the largest child so far) is this command's alone."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", WRAP, *args], check=True, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    peak = next(int(line.split()[1]) for line in out.stderr.splitlines() if line.startswith("PEAK_KIB"))
    return wall, peak / 2**20, out.stdout


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n-words", type=int, default=3_000_000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", default=None, help="where the file and caches go (default: a temporary folder)")
    ap.add_argument("--skip-report", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the file, cache and report")
    ap.add_argument("--out", default=str(paths.ROOT / "results" / "benchmarks" / "scale.csv"))
    args = ap.parse_args(argv)
    work = Path(args.workdir or tempfile.mkdtemp(prefix="wordbias-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    path, cache, report_dir = work / "synthetic-googlenews.bin", work / "cache", work / "report"
    matrix_gib = args.n_words * args.dim * 4 / 2**30
    rows = []
    try:
        t = time.perf_counter()
        n_real = write_word2vec_binary(path, args.n_words, args.dim, args.seed)
        size_gib = path.stat().st_size / 2**30
        print(f"wrote {path.name}: {args.n_words:,} words x {args.dim} ({n_real:,} real), {size_gib:.2f} GiB in "
              f"{time.perf_counter() - t:.0f} s; float32 matrix {matrix_gib:.2f} GiB", flush=True)
        wall, peak, _ = run_step([sys.executable, "-c", READ, str(path)])
        rows.append({"step": "read_file", "seconds": wall, "peak_rss_gib": peak})
        wall, peak, _ = run_step([sys.executable, "-c", COPY, str(path), str(work / "copy.bin")])
        rows.append({"step": "copy_file", "seconds": wall, "peak_rss_gib": peak})
        wall, peak, out = run_step([sys.executable, "-c", LOAD, str(path), str(cache)])
        rows.append({"step": "first_load", "seconds": wall, "peak_rss_gib": peak,
                     "inner_seconds": float(out.split()[0])})
        wall, peak, out = run_step([sys.executable, "-c", LOAD, str(path), str(cache)])
        rows.append({"step": "cached_open", "seconds": wall, "peak_rss_gib": peak,
                     "inner_seconds": float(out.split()[0])})
        if not args.skip_report:
            env = {**os.environ, "WORDBIAS_CACHE": str(work)}
            wall, peak, _ = run_step([sys.executable, "-m", "wordbias", "report", str(path), "--out", str(report_dir),
                                      "--cache-dir", str(cache), "--quiet"], env=env)
            rows.append({"step": "report", "seconds": wall, "peak_rss_gib": peak})
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    read = next(r["seconds"] for r in rows if r["step"] == "read_file")
    copy = next(r["seconds"] for r in rows if r["step"] == "copy_file")
    for r in rows:
        r.update(n_words=args.n_words, dim=args.dim, file_gib=round(size_gib, 3), matrix_gib=round(matrix_gib, 3),
                 ratio_to_read=r["seconds"] / read, ratio_to_copy=r["seconds"] / copy,
                 peak_over_matrix=r["peak_rss_gib"] / matrix_gib)
        print(f"{r['step']:12s} {r['seconds']:8.2f} s  ({r['ratio_to_read']:.2f}x reading the file, "
              f"{r['ratio_to_copy']:.2f}x copying it)"
              + (f"  inside the process {r['inner_seconds']:.2f} s" if "inner_seconds" in r else "")
              + f"  peak RSS {r['peak_rss_gib']:.2f} GiB = {r['peak_over_matrix']:.2f}x the float32 matrix")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fields = ["step", "seconds", "inner_seconds", "ratio_to_read", "ratio_to_copy", "peak_rss_gib", "peak_over_matrix", "n_words", "dim",
              "file_gib", "matrix_gib"]
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
