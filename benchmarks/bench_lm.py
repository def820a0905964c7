"""Benchmark the hot path of the language-model measures: scoring sentences with a causal language model.

On the same CrowS-Pairs sentences (both sentences of a seeded sample of ``--pairs`` pairs, stratified by bias type:
:func:`wordbias.datasets.crows_pairs.sample` with seed 0) and for each model of ``--models``, times in one run:

- :func:`wordbias.models.log_prob.causal_log_probs` (batched, sentences sorted by token count, no cache) at batch
  sizes 1, 8, 16 and 32, with one torch thread;
- the loop a user would write with transformers alone: one sentence at a time,
  ``model(**tokenizer(bos + text))``, ``log_softmax``, gather, sum; one torch thread;
- ``causal_log_probs`` at batch 16 with two torch threads (against the row with one);
- ``causal_log_probs`` reading the same sentences from a :class:`~wordbias.models.log_prob.LogProbCache` in a
  temporary folder (filled by an untimed first call; the timed call must find every sentence there).

Each setting runs ``--repeat`` times, the settings taken in turn within a round (and in reverse order in every
other round) so that a disturbance of the shared machine hits all of them alike; the best time is kept and
reported as sentences per second, with the median beside it. The column ``x plain loop`` is a setting's speed over
the plain loop's (best against best); the line printed last names the fastest batch size and its ratio. The
sentence totals of every uncached setting are checked against the plain loop's: the column ``max abs diff vs
plain`` holds the largest difference (float32 logits of other batch shapes round differently) and the column
``within 1e-4`` whether it is at most 1e-4 (a warning is printed when not). Each row records the CPU, the cores,
the torch and transformers versions and the load average before and after. Writes
``benchmarks/results/bench_lm/lm_times.csv`` (``--out``) and prints it.
The defaults take about two minutes of CPU time (four minutes' wall time on a shared 2-core machine at a load of
5; ``--pairs 60``, 120 sentences, about eight); ``--pairs 9 --repeat 1`` (the smallest sample, one pair per bias
type) is a smoke run of about half a minute.

    python benchmarks/bench_lm.py [--models smollm2-135m,gemma-3-270m] [--pairs 20] [--repeat 3] [--out PATH]
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: the batch sizes of the batched scorer, with one thread
BATCHES = (1, 8, 16, 32)
#: the batch size of the two-thread and cache rows
BATCH_THREADS = 16
#: the largest difference allowed between a sentence total of the scorer and of the plain loop
TOLERANCE = 1e-4


def _plain_loop(m, texts: list[str]) -> list[float]:
    """Each sentence's log-probability as a user would compute it with transformers alone, one at a time.

    The logits are normalised in float64, as the scorer does: in float32 the totals of CrowS-Pairs sentences come
    out about 1e-4 higher, whatever the batch."""
    import torch

    tok = m.tokenizer
    bos = tok.bos_token if tok.bos_token is not None else tok.eos_token
    totals = []
    with torch.inference_mode():
        for text in texts:
            enc = tok(bos + text, add_special_tokens=False, return_tensors="pt")
            logits = m.model(**enc).logits[0, :-1]
            lp = logits.double().log_softmax(-1).gather(1, enc["input_ids"][0, 1:, None])
            totals.append(float(lp.sum()))
    return totals


def _settings(m, texts: list[str], cache_dir: str) -> dict[str, tuple[dict, Callable[[], list[float]]]]:
    """The settings timed: name -> (their columns, a call returning the sentence totals)."""
    from wordbias.models.causal import torch_threads
    from wordbias.models.log_prob import LogProbCache, causal_log_probs

    def scorer(batch: int, threads: int, cache=None) -> Callable[[], list[float]]:
        return lambda: [r.total for r in causal_log_probs(m, texts, batch_size=batch, threads=threads, cache=cache)]

    def plain() -> list[float]:
        with torch_threads(1):
            return _plain_loop(m, texts)

    cache = LogProbCache(cache_dir)
    scorer(BATCH_THREADS, 1, cache)()   # fill the cache (untimed)
    out = {f"causal_log_probs batch {b}": ({"batch": b, "threads": 1}, scorer(b, 1)) for b in BATCHES}
    out["plain transformers loop"] = ({"batch": 1, "threads": 1}, plain)
    out[f"causal_log_probs batch {BATCH_THREADS}, 2 threads"] = ({"batch": BATCH_THREADS, "threads": 2},
                                                                  scorer(BATCH_THREADS, 2))
    out["cache read"] = ({"batch": BATCH_THREADS, "threads": 1}, _cache_read(cache, scorer(BATCH_THREADS, 1, cache),
                                                                                len(texts)))
    return out


def _cache_read(cache, call: Callable[[], list[float]], n: int) -> Callable[[], list[float]]:
    """A call that must read all ``n`` sentences from the cache (an error otherwise)."""
    def read() -> list[float]:
        misses = cache.misses
        totals = call()
        if cache.misses != misses:
            raise SystemExit(f"the cache read scored {cache.misses - misses} of {n} sentences again")
        return totals
    return read


def _timed(settings: dict, repeat: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each setting's wall times over ``repeat`` rounds (alternated) and its last sentence totals."""
    times: dict[str, list[float]] = {name: [] for name in settings}
    totals: dict[str, list[float]] = {}
    names = list(settings)
    for r in range(repeat):
        for name in names if r % 2 == 0 else names[::-1]:
            start = time.perf_counter()
            totals[name] = settings[name][1]()
            times[name].append(time.perf_counter() - start)
    return times, totals


def _model_rows(name: str, texts: list[str], repeat: int) -> list[dict]:
    from wordbias.models.causal import load_causal

    m = load_causal(name)
    _plain_loop(m, texts[:2])   # warm-up: first calls allocate
    with tempfile.TemporaryDirectory() as tmp:
        settings = _settings(m, texts, tmp)
        times, totals = _timed(settings, repeat)
    plain = totals["plain transformers loop"]
    plain_best = min(times["plain transformers loop"])
    rows = []
    for setting, (columns, _) in settings.items():
        diff = max(abs(a - b) for a, b in zip(totals[setting], plain))
        best = min(times[setting])
        rows.append({"model": name, "setting": setting, **columns, "sentences": len(texts),
                     "best s": round(best, 4), "median s": round(statistics.median(times[setting]), 4),
                     "sentences/s": round(len(texts) / best, 1), "x plain loop": round(plain_best / best, 2),
                     "max abs diff vs plain": f"{diff:.2e}", f"within {TOLERANCE:g}": diff <= TOLERANCE,
                     "runs": len(times[setting])})
    return rows


def _summary(rows: list[dict]) -> list[str]:
    """A line per model: its fastest batch size of the one-thread scorer and its speed over the plain loop."""
    lines = []
    for model in dict.fromkeys(row["model"] for row in rows):
        batched = [row for row in rows if row["model"] == model
                   and row["setting"] in {f"causal_log_probs batch {b}" for b in BATCHES}]
        top = max(batched, key=lambda row: row["sentences/s"])
        lines.append(f"{model}: causal_log_probs at its best batch ({top['batch']}) runs "
                     f"{top['x plain loop']}x the plain loop's sentences/s")
    return lines


def main() -> None:
    sys.path.insert(0, str(HERE))
    import torch
    import transformers
    from machine import cpu_model

    from wordbias.datasets import crows_pairs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="smollm2-135m", help="comma-separated registered causal models")
    parser.add_argument("--pairs", type=int, default=20, help="CrowS-Pairs pairs sampled (two sentences each)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "bench_lm" / "lm_times.csv")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    pairs = crows_pairs.sample(crows_pairs.load(), args.pairs, seed=0)
    texts = [s for p in pairs for s in (p.sent_more, p.sent_less)]
    machine = {"cpu": cpu_model(), "cores": os.cpu_count(), "torch": torch.__version__,
               "transformers": transformers.__version__, "load before": round(os.getloadavg()[0], 2)}
    rows = [row for name in args.models.split(",") for row in _model_rows(name.strip(), texts, args.repeat)]
    load_after = round(os.getloadavg()[0], 2)
    rows = [{**row, **machine, "load after": load_after} for row in rows]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for row in rows:
        print(", ".join(f"{k}: {v}" for k, v in row.items() if k not in ("cpu", "cores", "torch", "transformers")))
    print("\n".join(_summary(rows)))
    for row in rows:
        if not row[f"within {TOLERANCE:g}"]:
            print(f"warning: {row['model']}, {row['setting']}: sentence totals differ from the plain loop's by "
                  f"{row['max abs diff vs plain']} (more than {TOLERANCE:g})")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
