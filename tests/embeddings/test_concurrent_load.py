"""Concurrent first loads of the same new embedding file: N processes load it at the same moment,
all convert it, and every one must get the right vectors: no FileNotFoundError while another process puts its
cache in place, no half-written or mismatched cache, no temporary folder left behind. Every other run the
source is rewritten under an existing cache, so the processes also rebuild and swap a stale cache while the
others open it.

Bounded and parameterizable: ``WORDBIAS_CONCURRENT_RUNS`` (default 20) runs of ``WORDBIAS_CONCURRENT_PROCS``
(default 4) processes. The full check is 200 runs in a row: ``WORDBIAS_CONCURRENT_RUNS=200 pytest
tests/embeddings/test_concurrent_load.py``.
"""
from __future__ import annotations

import hashlib
import multiprocessing as mp
import os
import sys

import numpy as np
import pytest

from wordbias import embeddings as E

RUNS = int(os.environ.get("WORDBIAS_CONCURRENT_RUNS", "20"))
PROCS = int(os.environ.get("WORDBIAS_CONCURRENT_PROCS", "4"))
N_WORDS, DIM = 3000, 25


def _write_source(path, seed: int) -> str:
    """A GloVe file of N_WORDS x DIM random vectors; returns the digest of (words, float32 values)."""
    rng = np.random.default_rng(seed)
    matrix = (rng.standard_normal((N_WORDS, DIM)) + 0.01).astype(np.float32)
    words = [f"w{seed}_{i}" for i in range(N_WORDS)]
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "w") as f:
        for w, row in zip(words, matrix):
            f.write(w + " " + " ".join(np.format_float_positional(x, unique=True, trim="-") for x in row) + "\n")
    os.replace(tmp, path)
    return _digest(words, matrix)


def _digest(words, matrix) -> str:
    h = hashlib.sha256("\n".join(words).encode())
    h.update(np.ascontiguousarray(matrix, dtype=np.float32).tobytes())
    return h.hexdigest()


def _worker(tasks, results, barrier):
    """Load each path sent, all workers at once; report the digest or the error."""
    while True:
        path = tasks.get()
        if path is None:
            return
        barrier.wait()
        try:
            kv = E.load(path, progress=False)
            results.put(_digest(kv.index_to_key, np.asarray(kv.vectors)))
        except BaseException as exc:  # noqa: BLE001 - any failure is the finding
            results.put(f"ERROR {type(exc).__name__}: {exc}")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork start method")
def test_concurrent_first_loads(tmp_path):
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(PROCS)
    tasks = [ctx.Queue() for _ in range(PROCS)]
    results = ctx.Queue()
    workers = [ctx.Process(target=_worker, args=(q, results, barrier), daemon=True) for q in tasks]
    for w in workers:
        w.start()
    failures = []
    try:
        for run in range(RUNS):
            folder = tmp_path / f"run{run // 2}"
            folder.mkdir(exist_ok=True)
            path = folder / "vectors.txt"
            # even runs: a new file, no cache; odd runs: the same name rewritten under the previous run's cache
            expected = _write_source(path, seed=run)
            for q in tasks:
                q.put(path)
            got = [results.get(timeout=120) for _ in range(PROCS)]
            bad = [g for g in got if g != expected]
            if bad:
                failures.append(f"run {run}: {bad}")
            cache = E.cache_dir_for(path)
            leftovers = [p.name for p in cache.parent.iterdir() if p.name.startswith(f".tmp-{cache.name}-")]
            if leftovers:
                failures.append(f"run {run}: temporary folders left: {leftovers}")
    finally:
        for q in tasks:
            q.put(None)
        for w in workers:
            w.join(10)
    assert not failures, f"{len(failures)} of {RUNS} runs failed: {failures[:5]}"
