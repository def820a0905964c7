"""Time and peak memory of the four debiasing methods: hard (Bolukbasi et al. 2016), double-hard (Wang et al. 2020),
INLP (Ravfogel et al. 2020) and LEACE (Belrose et al. 2023), on GloVe 6B 50d (400,000 x 50) and on a synthetic
GoogleNews-shaped embedding (``--n-words`` x ``--dim``, default 3,000,000 x 300).

The synthetic matrix follows the recipe of ``bench_scale.py`` (its first words are GloVe 6B 50d's 400,000 words,
their vectors mapped into ``--dim`` dimensions by a fixed random orthonormal map plus a little noise; the rest are
filler words ``w_<i>`` with random vectors; seeded), written straight to a float32 ``.npy`` in ``--workdir`` and
memory-mapped, as a cached embedding is. Each (method, embedding) runs in its own process: ``seconds`` is the
method's call alone (loading excluded), ``peak_gib`` the process's peak resident memory
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``; memory-mapped pages that were read count), ``base_gib`` its
resident memory just before the call (the embedding opened, words loaded). Every method writes one new float32
matrix (``out`` not given), so the floor is about base + one matrix (+ the input's pages as they are read).

Methods run with their defaults, except INLP on GloVe 6B 50d (6 iterations, not 35: 35 iterations of a
3-class SVM would remove 46 of its 50 dimensions; 6 remove 18/50, the share that 35 remove of 300). Results are
printed and written to ``benchmarks/results/bench_debias/debias.csv``. Run from the repository root:
``python benchmarks/bench_debias.py [--n-words 1000000]`` (needs the matrix's size of free disk in ``--workdir``).
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("hard", "double-hard", "inlp", "leace")

RUN = r"""
import json, resource, sys, time, warnings
import numpy as np
from wordbias import embeddings
method, source, words_file = sys.argv[1], sys.argv[2], sys.argv[3]
warnings.simplefilter("ignore")
if source == "glove-6b-50d":
    kv = embeddings.load(source, progress=False)
    n_iter = 6
else:
    with open(words_file, encoding="utf-8") as f:
        words = f.read().split("\n")
    kv = embeddings.to_keyed_vectors(words, np.load(source, mmap_mode="r"))
    n_iter = 35
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
import psutil
base_now = psutil.Process().memory_info().rss / 1024
t = time.perf_counter()
if method == "hard":
    from wordbias.measures.debiasing.debias import hard_debias
    out, rep = hard_debias(kv)
elif method == "double-hard":
    from wordbias.measures.debiasing.double_hard import double_hard_debias
    out, rep = double_hard_debias(kv)
elif method == "inlp":
    from wordbias.measures.debiasing.inlp import inlp_debias
    out, rep = inlp_debias(kv, n_iterations=n_iter)
else:
    from wordbias.measures.debiasing.leace import leace_debias
    out, rep = leace_debias(kv)
_ = float(out.vectors[-1].sum())
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_kib": peak, "base_kib": base_now}))
"""


def write_synthetic(folder: Path, n_words: int, dim: int, seed: int, block: int = 200_000) -> tuple[Path, Path]:
    """The synthetic matrix (float32 .npy, memory-mappable) and its words (one a line)."""
    from numpy.lib.format import open_memmap

    from wordbias import embeddings

    rng = np.random.default_rng(seed)
    glove = embeddings.load("glove-6b-50d", progress=False)
    q, _ = np.linalg.qr(rng.normal(size=(dim, dim)))
    to_dim = q[:, :glove.vector_size].T
    n_real = min(len(glove.index_to_key), n_words)
    path, words_path = folder / "synthetic.npy", folder / "synthetic.words.txt"
    mat = open_memmap(path, mode="w+", dtype=np.float32, shape=(n_words, dim))
    for start in range(0, n_words, block):
        stop = min(start + block, n_words)
        vecs = rng.normal(scale=0.05, size=(stop - start, dim))
        real = max(0, min(stop, n_real) - start)
        if real:
            vecs[:real] += np.asarray(glove.vectors[start:start + real], dtype=np.float64) @ to_dim
        vecs[real:] += rng.normal(scale=0.4, size=(stop - start - real, dim))
        mat[start:stop] = vecs
    mat.flush()
    del mat
    with open(words_path, "w", encoding="utf-8") as f:
        f.write("\n".join(list(glove.index_to_key[:n_real]) + [f"w_{i}" for i in range(n_real, n_words)]))
    return path, words_path


def run(method: str, source: str, words: str) -> dict:
    out = subprocess.run([sys.executable, "-c", RUN, method, source, words], check=True, capture_output=True,
                         text=True, cwd=ROOT)
    return __import__("json").loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n-words", type=int, default=3_000_000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    ap.add_argument("--skip-glove", action="store_true")
    ap.add_argument("--skip-synthetic", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "bench_debias" / "debias.csv"))
    args = ap.parse_args(argv)
    machine = f"{platform.machine()} {os.cpu_count()} cpus; {platform.system()} {platform.release()}"
    rows = []

    def record(method, shape, res, matrix_gib):
        row = {"method": method, "shape": f"{shape[0]}x{shape[1]}", "seconds": round(res["seconds"], 2),
               "peak_gib": round(res["peak_kib"] / 2**20, 3), "base_gib": round(res["base_kib"] / 2**20, 3),
               "matrix_gib": round(matrix_gib, 3), "machine": machine}
        rows.append(row)
        print(f"{method:12s} {row['shape']:>12s} {row['seconds']:8.2f} s  peak {row['peak_gib']:.2f} GiB "
              f"(before the call {row['base_gib']:.2f}; one float32 matrix {row['matrix_gib']:.2f})", flush=True)

    if not args.skip_glove:
        for m in args.methods:
            record(m, (400_000, 50), run(m, "glove-6b-50d", ""), 400_000 * 50 * 4 / 2**30)
    if not args.skip_synthetic:
        work = Path(args.workdir or tempfile.mkdtemp(prefix="wordbias-debias-"))
        work.mkdir(parents=True, exist_ok=True)
        try:
            t = time.perf_counter()
            path, words = write_synthetic(work, args.n_words, args.dim, args.seed)
            print(f"wrote the synthetic {args.n_words:,} x {args.dim} matrix in {time.perf_counter() - t:.0f} s",
                  flush=True)
            for m in args.methods:
                record(m, (args.n_words, args.dim), run(m, str(path), str(words)),
                       args.n_words * args.dim * 4 / 2**30)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
