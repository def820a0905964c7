"""How honest is the bootstrap interval of WEAT's effect size? A coverage study (issue 14, item 1).

Word sets of the papers' sizes (n = 8, 12, 16, 25 words in each of X, Y, A and B; Caliskan et al. 2017,
Table 1) are drawn at random, without replacement, from four larger *pools* of words (400 each), many times
(``--reps``); on each draw the bootstrap interval of d
(:func:`wordbias.measures.bootstrap.weat_bootstrap_from_cosines`, nominal 95%, ``--resamples`` resamples,
BCa and percentile) is computed, and we count how often it covers

- **theta_pool**, the population effect size: d with each set the whole pool
  (:func:`wordbias.measures.bootstrap.pool_effect_size`, equal weight for the two target pools). This is
  what the bootstrap estimates: the statistic's value on the population the words are drawn from;
- **E[d_n]**, the expected d of lists of n words drawn from the pools (Monte Carlo over ``--draws`` draws).
  With few attribute words, s(w, A, B) is noisy and d shrinks towards 0, so E[d_n] differs from theta_pool,
  and an interval cannot cover both at the nominal rate.

It also reports the mean width of the interval against the true spread of d over draws (the distance
between the 2.5% and 97.5% quantiles of d_n), and the mean bootstrap standard error against the true
standard deviation of d_n.

Pools
-----
``synthetic``: 50-dimensional Gaussian vectors, seeded: every vector is a shared mean m (norm 3) plus a
bias component along one unit direction u orthogonal to m (+delta for X, -delta for Y, +gamma for A, -gamma
for B) plus standard normal noise; ``synthetic``: delta = 0.6, gamma = 1.5 (theta_pool = 1.06);
``synthetic-noisy``: delta = gamma = 0.5 (theta_pool = 0.83, but E[d_8] = 0.28: the attribute sets are too
small to measure s(w, A, B)).

``glove``: words of the bundled GloVe 6B 50d (``embeddings.load("glove-6b-50d")``): candidates are the
lower-case alphabetic words of frequency ranks 1,000 to 30,000, minus WEAT 1's stimuli; the flower-insect
direction is the mean of WEAT 1's flowers minus the mean of its insects, the pleasant-unpleasant direction the
mean of its pleasant words minus its unpleasant words (lower-cased, those in GloVe 6B). Pool A is the 400
candidates with the largest cosine with the pleasant direction, B the 400 with the smallest; X and Y the
400 largest and smallest on the flower direction among the remaining candidates. They are fixed word
pools ("flower-like", "insect-like", "pleasant-like", "unpleasant-like"), listed with ``--show-pools``.

    python benchmarks/coverage_bootstrap.py [--reps 500] [--resamples 2000] [--out /tmp/coverage.csv]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np
import pandas as pd

from wordbias.measures import bootstrap as bs
from wordbias.measures.weat import cosine_matrix

SIZES = (8, 12, 16, 25)
POOL = 400
METHODS = ("BCa", "percentile")


#: the synthetic settings: (delta, gamma); "synthetic" has a pool d near 1 and E[d_25] about 0.9 (as in the
#: issue's check), "synthetic-noisy" a weak attribute signal, so that d shrinks a lot with few words
SYNTHETIC = {"synthetic": (0.6, 1.5), "synthetic-noisy": (0.5, 0.5)}


def synthetic_pools(pool: int = POOL, dim: int = 50, delta: float = 0.6, gamma: float = 1.5,
                    mean_norm: float = 3.0, seed: int = 0):
    """The four synthetic pools (X, Y, A, B) as vector matrices."""
    rng = np.random.default_rng(seed)
    m = rng.normal(size=dim)
    m *= mean_norm / np.linalg.norm(m)
    u = rng.normal(size=dim)
    u -= (u @ m) / (m @ m) * m
    u /= np.linalg.norm(u)
    return [m + sign * shift * u + rng.normal(size=(pool, dim))
            for sign, shift in ((1, delta), (-1, delta), (1, gamma), (-1, gamma))]


def glove_pool_words(pool: int = POOL):
    """The four GloVe 6B 50d word pools (X, Y, A, B) and the embedding (see the module docstring)."""
    from wordbias import embeddings
    from wordbias.datasets import stimuli
    kv = embeddings.load("glove-6b-50d", progress=False)
    t = stimuli.weat_tests("caliskan2017")[0]
    used = {w.lower() for w in (*t.X, *t.Y, *t.A, *t.B)}

    def mean(words):
        return np.mean([kv[w.lower()] for w in words if w.lower() in kv], axis=0)

    cand = [w for w in kv.index_to_key[1000:30000] if w.isalpha() and w.islower() and w not in used]
    V = np.asarray(kv[cand], dtype=np.float64)
    pa = cosine_matrix(V, (mean(t.A) - mean(t.B))[None, :])[:, 0]
    order = np.argsort(-pa, kind="stable")
    A, B = order[:pool], order[::-1][:pool]
    rest = np.setdiff1d(np.arange(len(cand)), np.r_[A, B])
    fx = cosine_matrix(V[rest], (mean(t.X) - mean(t.Y))[None, :])[:, 0]
    order = rest[np.argsort(-fx, kind="stable")]
    X, Y = order[:pool], order[::-1][:pool]
    return [[cand[i] for i in s] for s in (X, Y, A, B)], kv


def pool_cosines(mats):
    """The pool cosine matrix (rows X then Y pools, columns A then B pools), computed once."""
    return bs.target_attribute_cosines(*mats)


def draws(rng, pool: int, n: int, reps: int) -> np.ndarray:
    """``reps`` draws of ``n`` of ``pool`` indices without replacement, shape (reps, n)."""
    return np.argsort(rng.random((reps, pool)), axis=1)[:, :n]


def truth(C, pool: int, n: int, n_draws: int, rng) -> dict:
    """theta_pool, and E[d_n], its sd and 2.5/97.5% quantiles over ``n_draws`` draws of n words a set."""
    ix, iy, ia, ib = (draws(rng, pool, n, n_draws) for _ in range(4))
    d = np.concatenate([bs.resampled_weat(C, pool, pool, *(i[k:k + 5000] for i in (ix, iy, ia, ib)))[1]
                        for k in range(0, n_draws, 5000)])
    d = d[np.isfinite(d)]
    return dict(theta_pool=bs.pool_effect_size_from_cosines(C, pool, pool), mean_d=d.mean(), sd_d=d.std(ddof=1),
                q_low=np.quantile(d, 0.025), q_high=np.quantile(d, 0.975))


def study(C, pool: int, sizes=SIZES, reps: int = 500, n_resamples: int = 2000, n_draws: int = 100_000,
          methods=METHODS, seed: int = 0, label: str = "") -> pd.DataFrame:
    """One row per (set size, method): coverage of theta_pool and of E[d_n], widths and spreads."""
    rows = []
    for n in sizes:
        rng = np.random.default_rng([seed, n])
        tr = truth(C, pool, n, n_draws, rng)
        ix, iy, ia, ib = (draws(rng, pool, n, reps) for _ in range(4))
        for method in methods:
            lo, hi, se, est = (np.empty(reps) for _ in range(4))
            t0 = time.perf_counter()
            for r in range(reps):
                sub = C[np.r_[ix[r], pool + iy[r]]][:, np.r_[ia[r], pool + ib[r]]]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    b = bs.weat_bootstrap_from_cosines(sub, n, n, n_resamples=n_resamples, method=method,
                                                       seed=r).effect_size
                lo[r], hi[r], se[r], est[r] = b.low, b.high, b.standard_error, b.estimate
            ok = np.isfinite(lo) & np.isfinite(hi)
            rows.append(dict(
                vectors=label, n=n, method=method, reps=reps, n_resamples=n_resamples,
                theta_pool=tr["theta_pool"], mean_d=tr["mean_d"],
                cover_theta_pool=np.mean((lo <= tr["theta_pool"]) & (tr["theta_pool"] <= hi)),
                cover_mean_d=np.mean((lo <= tr["mean_d"]) & (tr["mean_d"] <= hi)),
                miss_low_mean_d=np.mean(hi < tr["mean_d"]), miss_high_mean_d=np.mean(lo > tr["mean_d"]),
                mean_width=np.mean(hi[ok] - lo[ok]), true_spread=tr["q_high"] - tr["q_low"],
                mean_se=np.mean(se[ok]), true_sd=tr["sd_d"], undefined=int((~ok).sum()),
                seconds=time.perf_counter() - t0))
            print(pd.DataFrame(rows[-1:]).round(3).to_string(index=False, header=len(rows) == 1), flush=True)
    return pd.DataFrame(rows)


def main(argv=None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=500)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--draws", type=int, default=100_000)
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--methods", nargs="+", default=list(METHODS))
    ap.add_argument("--vectors", nargs="+", default=["synthetic", "synthetic-noisy", "glove"])
    ap.add_argument("--out", help="also write the table as CSV here (e.g. /tmp/coverage_bootstrap.csv)")
    ap.add_argument("--show-pools", action="store_true")
    a = ap.parse_args(argv)
    frames = []
    for label in a.vectors:
        if label in SYNTHETIC:
            delta, gamma = SYNTHETIC[label]
            mats = synthetic_pools(delta=delta, gamma=gamma)
        else:
            words, kv = glove_pool_words()
            if a.show_pools:
                for k, w in zip("XYAB", words):
                    print(k, " ".join(w))
            mats = [np.asarray(kv[w], dtype=np.float64) for w in words]
        C = pool_cosines(mats)
        frames.append(study(C, POOL, a.sizes, a.reps, a.resamples, a.draws, a.methods, label=label))
    table = pd.concat(frames, ignore_index=True)
    print(table.round(3).to_string(index=False))
    if a.out:
        table.to_csv(a.out, index=False)
    return table


if __name__ == "__main__":
    main(sys.argv[1:])
