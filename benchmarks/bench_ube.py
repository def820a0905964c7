"""Benchmark the UBE rotational null (Swinger et al. 2019, Step 4) against its matrix-product floor.

For R rotations, M words, n groups and m categories, the null must score every word against every
rotated group mean: R matrix products of (n×d) by (d×M). That product is the unavoidable floor. This
script times, in one run and on the same data:

- ``floor``: the R products alone (the best of one multi-threaded BLAS call per batch and of the same
  single-threaded products spread over worker threads, whichever is faster here);
- ``null``: :func:`wordbias.measures.enumeration.ube.rotational_null`, everything included (Haar frames, rotated means, the
  products, Voronoi argmax, segmented top-t, σ);
- ``naive``: the textbook way for a few rotations (a d×d Haar matrix from scipy.stats.ortho_group,
  every name rotated, numpy selection), extrapolated to R.

Each floor and null is timed ``--repeat`` times (default 3), alternated, and the best of each is the reported time
(the medians are recorded too): on a shared machine one run can move the ratio by 0.1 or more.

Real GloVe 6B 50d words (the bundled embedding) for d = 50, random unit vectors for d = 300, on 1 and 2 worker
threads. Each row records the CPU (``/proc/cpuinfo``'s model name), the kernel setting (``WORDBIAS_KERNELS``, as
``eval "$(make -s kernel-env KERNELS=...)"`` exports it), the BLAS's kernels, which products the null took (words per
(8·n)×d product, or per-rotation: :func:`wordbias.measures.enumeration.ube_null.exact_chunk`) and the load
average before and after, so a disturbed run shows. Writes ``results/benchmarks/ube_null.csv``, replacing the rows of the same CPU and
kernel setting (run it once per setting).

    python benchmarks/bench_ube.py [--rotations 10000] [--words 30000] [--workers 1,2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from wordbias.core import paths
from wordbias.measures.enumeration import ube, ube_null

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import cpu_model  # noqa: E402


def load1() -> float:
    return os.getloadavg()[0]


def blas_kernels() -> str:
    from threadpoolctl import threadpool_info

    return ";".join(f"{i['internal_api']}:{i.get('architecture')}" for i in threadpool_info() if i["user_api"] == "blas")


def problem(d: int, M: int, n: int, m: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    if d == 50:
        from wordbias import embeddings

        kv = embeddings.load("glove-6b-50d")
        W = np.asarray(kv.vectors[:M], dtype=np.float64)
        names = np.asarray(kv.vectors[M:M + 3000], dtype=np.float64)
        source = "glove-6b-50d"
    else:
        W = rng.normal(size=(M, d))
        names = rng.normal(size=(3000, d)) + rng.normal(size=d)
        source = "random"
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    names /= np.linalg.norm(names, axis=1, keepdims=True)
    category = rng.integers(0, m, size=M)
    labels = rng.integers(0, n, size=len(names))
    Xbar = np.stack([names[labels == i].mean(axis=0) for i in range(n)])
    Abar = np.stack([W[category == j].mean(axis=0) for j in range(m)])
    return W, category, Xbar, Abar, names, labels, source


def floor_time(W32: np.ndarray, n: int, R: int, batch: int, workers: int) -> float:
    """Time of the R products (n×d)·(d×M) in float32, the best of two ways of running them."""
    rng = np.random.default_rng(1)
    Zs = [rng.normal(size=(min(batch, R - s) * n, W32.shape[1])).astype(np.float32) for s in range(0, R, batch)]
    t0 = time.perf_counter()
    for Z in Zs:                                   # one multi-threaded BLAS call per batch
        Z @ W32.T
    t_blas = time.perf_counter() - t0
    t0 = time.perf_counter()
    with threadpool_limits(1, user_api="blas"), ThreadPoolExecutor(workers) as pool:
        for _ in pool.map(lambda Z: (Z @ W32.T)[0, 0], Zs):
            pass
    t_pool = time.perf_counter() - t0
    return min(t_blas, t_pool)


def naive_time(W, category, names, labels, Abar, t: int, n: int, rotations: int = 5) -> float:
    """Seconds per rotation the textbook way: an explicit d×d Haar matrix, every name rotated."""
    from scipy.stats import ortho_group

    d = W.shape[1]
    t0 = time.perf_counter()
    for k in range(rotations):
        U = ortho_group.rvs(d, random_state=k)
        rotated = names @ U
        Xr = np.stack([rotated[labels == i].mean(axis=0) for i in range(n)])
        ube.select_words(W, category, Xr, Abar, t)
    return (time.perf_counter() - t0) / rotations


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rotations", type=int, default=10_000)
    ap.add_argument("--words", type=int, default=30_000)
    ap.add_argument("--groups", type=int, default=12)
    ap.add_argument("--categories", type=int, default=64)
    ap.add_argument("--t", type=int, default=3)
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--no-naive", action="store_true", help="skip the textbook way")
    ap.add_argument("--repeat", type=int, default=3,
                    help="floor and null alternated this many times; the best of each is reported (and the medians)")
    args = ap.parse_args()
    R, M, n, m, t = args.rotations, args.words, args.groups, args.categories, args.t
    batch = 8
    cpu, kernels, blas = cpu_model(), os.environ.get("WORDBIAS_KERNELS", "unset"), blas_kernels()
    print(f"CPU {cpu}; kernels {kernels}; BLAS {blas}")
    rows = []
    for d in (50, 300):
        W, category, Xbar, Abar, names, labels, source = problem(d, M, n, m)
        W32 = np.ascontiguousarray(W, dtype=np.float32)
        ube.rotational_null(W, category, Xbar, Abar, t, 16, progress=False)   # compile / warm up
        C, _ = ube_null.span_factors(Xbar)
        Z0 = np.einsum("nr,brd->bnd", C, ube_null.rotation_frames(0, 0, d, C.shape[1], batch)).astype(np.float32)
        with threadpool_limits(1, user_api="blas"):
            chunk = ube_null.exact_chunk(W32, Z0)
            chunked = "per-rotation" if chunk is None else f"{min(chunk, M)} words"
        t_naive = None if args.no_naive else naive_time(W, category, names, labels, Abar, t, n) * R
        for workers in (int(w) for w in args.workers.split(",")):
            load_before = load1()
            floors, nulls = [], []
            for _ in range(args.repeat):    # alternated, so that a disturbance hits both alike
                floors.append(floor_time(W32, n, R, batch, workers))
                t0 = time.perf_counter()
                ube.rotational_null(W, category, Xbar, Abar, t, R, seed=0, batch_size=batch, workers=workers,
                                    progress=False)
                nulls.append(time.perf_counter() - t0)
            t_floor, t_null = min(floors), min(nulls)
            rows.append(dict(cpu=cpu, kernels=kernels, blas=blas, d=d, words=source, M=M, n=n, m=m, t=t, R=R,
                             workers=workers, products=chunked, repeats=args.repeat, floor_s=t_floor, null_s=t_null,
                             null_over_floor=t_null / t_floor, floor_median_s=float(np.median(floors)),
                             null_median_s=float(np.median(nulls)),
                             median_null_over_floor=float(np.median(nulls) / np.median(floors)),
                             load1_before=load_before, load1_after=load1(),
                             naive_s_extrapolated=t_naive,
                             naive_over_null=None if t_naive is None else t_naive / t_null))
            naive = "" if t_naive is None else f" | naive d×d rotations ≈ {t_naive:7.1f} s ({t_naive / t_null:.0f}x slower)"
            print(f"d={d:3d} ({source}), {workers} worker{'s' if workers > 1 else ''}: matrix-product floor "
                  f"{t_floor:6.2f} s | rotational null {t_null:6.2f} s | ratio {t_null / t_floor:4.2f} (best of "
                  f"{args.repeat}; medians {np.median(nulls) / np.median(floors):4.2f}) "
                  f"| load {load_before:.2f} -> {load1():.2f}{naive}", flush=True)
    out = paths.RESULTS / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    new = pd.DataFrame(rows)
    csv = out / "ube_null.csv"
    if csv.exists():
        old = pd.read_csv(csv)
        if {"cpu", "kernels"} <= set(old.columns):
            old = old[~((old["cpu"] == cpu) & (old["kernels"] == kernels))]
            new = pd.concat([old, new], ignore_index=True)
    new.to_csv(csv, index=False, float_format="%.4g")
    print(f"wrote {csv}")


if __name__ == "__main__":
    main()
