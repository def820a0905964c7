"""Benchmark: loading a GloVe-format text file with gensim vs wordbias.embeddings.

Writes a synthetic GloVe text file (``--n-words`` x ``--dim``, seeded, values printed with 5 significant
digits like the real GloVe files) to a temporary folder and times

* ``gensim_load_word2vec_format``: ``KeyedVectors.load_word2vec_format(path, no_header=True)``;
* ``wordbias_parse_in_memory``: ``wordbias.embeddings.load(path, cache=False)``;
* ``wordbias_first_load_with_cache``: first ``load(path)``, which parses the text and writes the
  ``.npy`` + ``vocab.txt`` cache, then opens it;
* ``wordbias_cached_open``: a later ``load(path)``, which memory-maps the cache (best of 3).

``ratio_vs_gensim`` is gensim's time divided by the task's time (the speed-up; gensim's own row is 1.0).
Results are printed and written to ``results/benchmarks/embeddings.csv``. Run from the repository root:
``python benchmarks/bench_embeddings.py [--n-words 200000] [--dim 300]``.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from pathlib import Path

import numpy as np

from wordbias import embeddings
from wordbias.core import paths


def write_synthetic_glove(path: Path, n_words: int, dim: int, seed: int, rows_per_block: int = 5000) -> None:
    """Write ``n_words`` lines ``w<i> v1 ... v<dim>`` of seeded normal values with 5 significant digits."""
    rng = np.random.default_rng(seed)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for start in range(0, n_words, rows_per_block):
            stop = min(start + rows_per_block, n_words)
            block = rng.standard_normal((stop - start, dim)) * 0.4
            text = [
                f"w{start + i} " + " ".join(map(str, row)) + "\n"
                for i, row in enumerate(np.round(block, 5).tolist())
            ]
            f.write("".join(text))


def timed(fn):
    """``(seconds, result)`` of one call."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def run(n_words: int, dim: int, seed: int, out: Path, skip_gensim: bool = False) -> list[dict]:
    """Run the benchmark and return the rows written to ``out``."""
    from gensim.models import KeyedVectors

    rows: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="wordbias-bench-") as tmp:
        path = Path(tmp) / f"synthetic_{n_words}x{dim}.txt"
        seconds, _ = timed(lambda: write_synthetic_glove(path, n_words, dim, seed))
        print(f"wrote {path.name}: {path.stat().st_size / 1e6:.0f} MB in {seconds:.1f} s")

        gensim_kv = None
        if not skip_gensim:
            seconds, gensim_kv = timed(
                lambda: KeyedVectors.load_word2vec_format(path, binary=False, no_header=True)
            )
            rows.append(("gensim_load_word2vec_format", seconds))
            print(f"gensim load_word2vec_format:      {seconds:8.2f} s")

        seconds, memory_kv = timed(lambda: embeddings.load(path, cache=False, progress=False))
        rows.append(("wordbias_parse_in_memory", seconds))
        print(f"wordbias parse in memory:         {seconds:8.2f} s")
        del memory_kv

        seconds, first_kv = timed(lambda: embeddings.load(path, progress=False))
        rows.append(("wordbias_first_load_with_cache", seconds))
        print(f"wordbias first load (+ cache):    {seconds:8.2f} s")

        opens = [timed(lambda: embeddings.load(path, progress=False)) for _ in range(3)]
        seconds, cached_kv = min(opens, key=lambda pair: pair[0])
        rows.append(("wordbias_cached_open", seconds))
        print(f"wordbias cached open (mmap):      {seconds:8.3f} s")

        assert isinstance(cached_kv.vectors, np.memmap)
        assert cached_kv.vectors.shape == (n_words, dim)
        assert np.array_equal(np.asarray(first_kv.vectors), np.asarray(cached_kv.vectors))
        if gensim_kv is not None:
            same = gensim_kv.index_to_key == cached_kv.index_to_key and np.array_equal(
                gensim_kv.vectors, np.asarray(cached_kv.vectors)
            )
            print(f"identical words and float32 values to gensim: {same}")
            assert same
        del first_kv, cached_kv, gensim_kv

    base = rows[0][1] if not skip_gensim else float("nan")
    table = [
        {"task": task, "seconds": round(seconds, 4), "ratio_vs_gensim": round(base / seconds, 2)}
        for task, seconds in rows
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["task", "seconds", "ratio_vs_gensim"])
        writer.writeheader()
        writer.writerows(table)
    print()
    for row in table:
        print(f"{row['task']:34s} {row['seconds']:9.3f} s   {row['ratio_vs_gensim']:7.1f}x vs gensim")
    print(f"written to {out}")
    return table


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n-words", type=int, default=200_000, help="rows of the synthetic file (default 200000)")
    parser.add_argument("--dim", type=int, default=300, help="dimension (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-gensim", action="store_true", help="do not time gensim (ratios become NaN)")
    parser.add_argument(
        "--out", type=Path, default=paths.RESULTS / "benchmarks" / "embeddings.csv", help="CSV written"
    )
    args = parser.parse_args(argv)
    run(args.n_words, args.dim, args.seed, args.out, skip_gensim=args.skip_gensim)


if __name__ == "__main__":
    main()
