"""Benchmark the UBE rotational null (Swinger et al. 2019, Step 4) against its matrix-product floor.

For R rotations, M words, n groups and m categories, the null must score every word against every
rotated group mean: R matrix products of (n×d) by (d×M). That product is the unavoidable floor. This
script times, in one run and on the same data:

- ``floor``: the R products alone (the best of one multi-threaded BLAS call per batch and of the same
  single-threaded products spread over worker threads, whichever is faster here);
- ``null``: :func:`wordbias.measures.ube.rotational_null`, everything included (Haar frames, rotated means, the
  products, Voronoi argmax, segmented top-t, σ);
- ``naive``: the textbook way for a few rotations (a d×d Haar matrix from scipy.stats.ortho_group,
  every name rotated, numpy selection), extrapolated to R.

Real GloVe 6B 50d words (the bundled embedding) for d = 50, random unit vectors for d = 300. Writes
``results/benchmarks/ube_null.csv``.

    python benchmarks/bench_ube.py [--rotations 10000] [--words 30000]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from wordbias.core import paths
from wordbias.core.parallel import default_workers
from wordbias.measures import ube


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
    args = ap.parse_args()
    R, M, n, m, t = args.rotations, args.words, args.groups, args.categories, args.t
    workers = default_workers()
    batch = 8
    rows = []
    for d in (50, 300):
        W, category, Xbar, Abar, names, labels, source = problem(d, M, n, m)
        W32 = np.ascontiguousarray(W, dtype=np.float32)
        ube.rotational_null(W, category, Xbar, Abar, t, 16, progress=False)   # compile / warm up
        t_floor = floor_time(W32, n, R, batch, workers)
        t0 = time.perf_counter()
        ube.rotational_null(W, category, Xbar, Abar, t, R, seed=0, batch_size=batch, workers=workers, progress=False)
        t_null = time.perf_counter() - t0
        t_naive = naive_time(W, category, names, labels, Abar, t, n) * R
        rows.append(dict(d=d, words=source, M=M, n=n, m=m, t=t, R=R, workers=workers,
                         floor_s=t_floor, null_s=t_null, null_over_floor=t_null / t_floor,
                         naive_s_extrapolated=t_naive, naive_over_null=t_naive / t_null))
        print(f"d={d:3d} ({source}): matrix-product floor {t_floor:6.2f} s | rotational null {t_null:6.2f} s "
              f"| ratio {t_null / t_floor:4.2f} | naive d×d rotations ≈ {t_naive:7.1f} s "
              f"({t_naive / t_null:.0f}x slower)")
    out = paths.RESULTS / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(out / "ube_null.csv", index=False, float_format="%.4g")
    print(f"wrote {out / 'ube_null.csv'}")


if __name__ == "__main__":
    main()
