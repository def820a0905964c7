"""How honest are the bootstrap intervals of WEAT's effect size and WEFAT's correlation? Coverage studies.

Word sets of the papers' sizes (n = 8, 12, 16, 25 words in each of X, Y, A and B; Caliskan et al. 2017,
Table 1) are drawn at random, without replacement, from four larger *pools* of words (400 each), many times
(``--reps``); on each draw the bootstrap interval of d
(:func:`wordbias.measures.association.bootstrap.weat_bootstrap_from_cosines`, nominal 95%, ``--resamples`` resamples,
BCa and percentile) is computed, and we count how often it covers

- **theta_pool**, the population effect size: d with each set the whole pool
  (:func:`wordbias.measures.association.bootstrap.pool_effect_size`, equal weight for the two target pools). This is
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

WEFAT (``--study wefat``)
-----------------------
The same for WEFAT's Pearson correlation r between s(w, A, B) and the property p_w
(:func:`wordbias.measures.association.bootstrap_wefat.wefat_bootstrap_from_vectors`): n_W target words with their property
and n_A + n_A attribute words are drawn from pools (cells n_W x n_A: 25, 50, 100 x 8, then 50 x 16, 25,
50; the paper's WEFAT 1 and 2 have 50 targets and 8 + 8 attribute words), ``--reps`` times (300 by default); each draw's interval (nominal 95%, BCa and percentile resampling W, A and B, and BCa resampling W
only) is checked against three estimands:

- **r_pool**, the correlation over the whole W pool of s(w, A_pool, B_pool) with p_w: the target of the
  default interval (the statistic on the populations the words are drawn from);
- **E[r_n]**, the mean r of draws of these sizes (``--draws``, 20,000 by default): smaller than r_pool,
  because s(w, A, B) of a few attribute words carries word-specific noise, which attenuates r (as an
  error in a regressor attenuates a correlation). ``shrink_over_sd`` = (r_pool − E[r_n]) / sd(r_n) says how
  large the shrinkage is against the spread of r_n: the interval covers r_pool where it is below about 1;
- **r_{W|A,B}**, the correlation over the whole W pool with the drawn attribute words fixed: the target
  of the interval that resamples W only (the paper's regression p-value also treats A and B as fixed).

Each coverage comes with its Monte Carlo standard error sqrt(c (1 − c) / reps); the width of the interval
is compared with the true 2.5-97.5% spread of r_n, its bootstrap standard error with the true sd of r_n.

WEFAT pools: ``synthetic-clean``, ``synthetic``, ``synthetic-noisy`` (:func:`wefat_synthetic_pools`: a latent
property t_w moves each target word along a bias direction, p_w = t_w; attribute words at ±gamma along it,
gamma = 3, 1.5, 0.5; pools of 2,000 targets and 400 + 400 attribute words); ``glove-planted`` and
``glove-logrank`` (:func:`wefat_glove_pools`: GloVe 6B 50d, 1,000 "occupation-like" target words, 400
"female-like" and 400 "male-like" attribute words; the property planted from the pool association with a
pool correlation of 0.86, or the word's log frequency rank).

    python benchmarks/coverage_bootstrap.py [--reps 500] [--resamples 2000] [--out /tmp/coverage.csv]
    python benchmarks/coverage_bootstrap.py --study wefat [--reps 300] [--vectors glove-planted] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np
import pandas as pd

from wordbias.core.vectors import cosine_matrix
from wordbias.measures.association import bootstrap as bs
from wordbias.measures.association import bootstrap_wefat as bw

SIZES = (8, 12, 16, 25)
POOL = 400
METHODS = ("BCa", "percentile")


#: the synthetic settings: (delta, gamma); "synthetic" has a pool d near 1 and E[d_25] about 0.9 (as in the
#: issue's check), "synthetic-noisy" a weak attribute signal, so that d shrinks a lot with few words
SYNTHETIC = {"synthetic": (0.6, 1.5), "synthetic-noisy": (0.5, 0.5)}


def mean_and_direction(rng: np.random.Generator, dim: int, mean_norm: float) -> tuple[np.ndarray, np.ndarray]:
    """A shared mean m of norm ``mean_norm`` and a unit bias direction u orthogonal to it (in this order of draws)."""
    m = rng.normal(size=dim)
    m *= mean_norm / np.linalg.norm(m)
    u = rng.normal(size=dim)
    u -= (u @ m) / (m @ m) * m
    return m, u / np.linalg.norm(u)


def synthetic_pools(pool: int = POOL, dim: int = 50, delta: float = 0.6, gamma: float = 1.5,
                    mean_norm: float = 3.0, seed: int = 0):
    """The four synthetic pools (X, Y, A, B) as vector matrices."""
    rng = np.random.default_rng(seed)
    m, u = mean_and_direction(rng, dim, mean_norm)
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


# ==================================================================================================
# WEFAT: the interval of the correlation between s(w, A, B) and the property p_w
# ==================================================================================================

#: (n_W, n_A) cells of the WEFAT study: the paper's 50 targets and 8 + 8 attribute words (WEFAT 1 and 2),
#: fewer and more targets, and more attribute words
WEFAT_SIZES = ((25, 8), (50, 8), (100, 8), (50, 16), (50, 25), (50, 50))
#: interval rows of the WEFAT study: (method, resampled sets); the last one ignores the attribute sampling
WEFAT_METHODS = (("BCa", "WAB"), ("percentile", "WAB"), ("BCa", "W"))
#: the synthetic WEFAT settings: (beta, gamma) = (property signal of the targets, attribute signal)
#: "synthetic-clean": 8 + 8 attribute words measure the direction well (r shrinks by less than its spread);
#: "synthetic": as much shrinkage as on the GloVe pools; "synthetic-noisy": s(w, A, B) of a few attribute words
#: is dominated by which words are drawn
WEFAT_SYNTHETIC = {"synthetic-clean": (2.5, 3.0), "synthetic": (2.5, 1.5), "synthetic-noisy": (2.5, 0.5)}
#: the GloVe WEFAT settings: the property of each pool word (see wefat_glove_pools)
WEFAT_GLOVE = ("glove-planted", "glove-logrank")
WEFAT_POOL_W, WEFAT_POOL_A = 2000, 400


def wefat_synthetic_pools(pool_w: int = WEFAT_POOL_W, pool_a: int = WEFAT_POOL_A, dim: int = 50,
                          beta: float = 0.5, gamma: float = 1.5, mean_norm: float = 3.0, seed: int = 0):
    """Synthetic WEFAT pools: (W, A, B) vector matrices and the property of each W word.

    A latent t_w ~ N(0, 1) is the property (p_w = t_w) and moves the word along the bias direction u:
    w = m + beta t_w u + e_w; a = m + gamma u + e_a, b = m − gamma u + e_b (e standard normal in ``dim``
    dimensions, m a shared mean of norm ``mean_norm`` orthogonal to u). beta sets how well s(w, A, B) can track
    p_w at all; gamma how well a few attribute words measure the direction (small gamma: s(w, A, B) of
    8 + 8 words is dominated by which words are drawn, and r shrinks).
    """
    rng = np.random.default_rng(seed)
    m, u = mean_and_direction(rng, dim, mean_norm)
    t = rng.normal(size=pool_w)
    W = m + beta * t[:, None] * u + rng.normal(size=(pool_w, dim))
    A, B = (m + sign * gamma * u + rng.normal(size=(pool_a, dim)) for sign in (1, -1))
    return W, A, B, t


def wefat_glove_pools(prop: str = "planted", pool_w: int = 1000, pool_a: int = WEFAT_POOL_A,
                      noise: float = 0.6, seed: int = 0):
    """GloVe 6B 50d WEFAT pools: (W, A, B) vector matrices, the property of each W word, and the words.

    Candidates: the lower-case alphabetic words of frequency ranks 1,000 to 30,000, minus WEFAT 1's stimuli.
    The female-male direction is the mean of WEFAT 1's female attribute words minus the mean of its male ones;
    pool A is the ``pool_a`` candidates with the largest cosine with it, B those with the smallest. Pool W is
    the ``pool_w`` remaining candidates closest (cosine) to the centroid of WEFAT 1's 50 occupations: an
    "occupation-like" pool of real words.

    The property p_w of each pool word (real words have no census figure; two constructions):

    - ``"planted"``: p_w = z(s_pool(w)) + ``noise`` · N(0, 1), drawn once (``seed``), where s_pool(w) =
      s(w, A_pool, B_pool) is the word's association with the whole attribute pools and z standardises it
      over the W pool. A property that the pool-level association predicts with a known, paper-like
      correlation (about 1 / sqrt(1 + noise²) = 0.86; the paper's WEFATs have r = 0.90 and 0.84), as census
      percentages are assumed to be predicted by the population association; everything else (which
      words, how their associations vary with the attribute words drawn) is the real vectors';
    - ``"logrank"``: p_w = log of the word's frequency rank in GloVe 6B (the file is in frequency order): a
      real, measured property with a weak association, to check coverage near r = 0.
    """
    from wordbias import embeddings
    from wordbias.datasets import stimuli
    kv = embeddings.load("glove-6b-50d", progress=False)
    t = stimuli.wefat_tests("caliskan2017")[0]
    used = {w.lower() for w in (*t.W, *t.A, *t.B)}

    def mean(words):
        return np.mean([kv[w.lower()] for w in words if w.lower() in kv], axis=0)

    first = 1000
    cand = [w for w in kv.index_to_key[first:30000] if w.isalpha() and w.islower() and w not in used]
    V = np.asarray(kv[cand], dtype=np.float64)
    fm = cosine_matrix(V, (mean(t.A) - mean(t.B))[None, :])[:, 0]
    order = np.argsort(-fm, kind="stable")
    A, B = order[:pool_a], order[::-1][:pool_a]
    rest = np.setdiff1d(np.arange(len(cand)), np.r_[A, B])
    occ = cosine_matrix(V[rest], mean(t.W)[None, :])[:, 0]
    W = rest[np.argsort(-occ, kind="stable")][:pool_w]
    words = [[cand[i] for i in s] for s in (W, A, B)]
    if prop == "planted":
        s = bw.resampled_normalized_association(cosine_matrix(V[W], V[A]), cosine_matrix(V[W], V[B]),
                                                np.arange(pool_a), np.arange(pool_a), ddof=0)
        p = (s - s.mean()) / s.std() + noise * np.random.default_rng(seed).normal(size=pool_w)
    elif prop == "logrank":
        p = np.log([kv.key_to_index[w] + 1.0 for w in words[0]])
    else:
        raise ValueError(f"prop must be 'planted' or 'logrank', not {prop!r}")
    return V[W], V[A], V[B], p, words


def wefat_pool_cosines(W, A, B):
    """cos(w, a) and cos(w, b) for every pool word, computed once: (C_a, C_b)."""
    return cosine_matrix(W, A), cosine_matrix(W, B)


def wefat_pool_r(C_a, C_b, p) -> float:
    """r_pool: the Pearson correlation over the whole W pool of s(w, A_pool, B_pool) with p_w."""
    s = bw.resampled_normalized_association(C_a, C_b, np.arange(C_a.shape[1]), np.arange(C_b.shape[1]), ddof=0)
    return float(np.corrcoef(s, p)[0, 1])


def wefat_drawn_r(C_a, C_b, p, iw, ia, ib, ddof: int = 1) -> np.ndarray:
    """WEFAT's r for each draw: the rows of ``iw`` (target words), ``ia``, ``ib`` (attribute words) index the
    pools; s(w, A, B) from the pool cosines (Methods, WEFAT), then Pearson's r with p_w. Shape (draws,)."""
    ca = C_a[iw[:, :, None], ia[:, None, :]]
    cb = C_b[iw[:, :, None], ib[:, None, :]]
    sd = np.concatenate([ca, cb], axis=-1).std(axis=-1, ddof=ddof)
    s = (ca.mean(-1) - cb.mean(-1)) / sd
    s = s - s.mean(-1, keepdims=True)
    q = p[iw] - p[iw].mean(-1, keepdims=True)
    return (s * q).sum(-1) / np.sqrt((s * s).sum(-1) * (q * q).sum(-1))


def wefat_truth(C_a, C_b, p, n_w: int, n_a: int, n_draws: int, rng) -> dict:
    """r_pool, and E[r_n], its sd and 2.5/97.5% quantiles over ``n_draws`` draws of n_W targets, n_A + n_A
    attribute words (each draw of the targets with its own draw of the attributes)."""
    (pw, pa), pb = C_a.shape, C_b.shape[1]
    r = []
    step = max(1, 2_000_000 // (n_w * 2 * n_a))
    for k in range(0, n_draws, step):
        m = min(step, n_draws - k)
        r.append(wefat_drawn_r(C_a, C_b, p, draws(rng, pw, n_w, m), draws(rng, pa, n_a, m), draws(rng, pb, n_a, m)))
    r = np.concatenate(r)
    r = r[np.isfinite(r)]
    return dict(r_pool=wefat_pool_r(C_a, C_b, p), mean_r=r.mean(), sd_r=r.std(ddof=1),
                q_low=np.quantile(r, 0.025), q_high=np.quantile(r, 0.975))


def wefat_conditional_r(C_a, C_b, p, ia, ib) -> np.ndarray:
    """r_{W|A,B}: for each row of ``ia``, ``ib`` (attribute words drawn), the correlation over the whole W pool
    of s(w, A, B) with p_w, these attribute words fixed: the estimand of an interval that resamples W only."""
    s = bw.resampled_normalized_association(C_a, C_b, ia, ib)
    s = s - s.mean(-1, keepdims=True)
    q = p - p.mean()
    return (s @ q) / np.sqrt((s * s).sum(-1) * (q @ q))


def _mcse(c: float, reps: int) -> float:
    """Monte Carlo standard error of a coverage c estimated from ``reps`` independent draws (binomial)."""
    return float(np.sqrt(c * (1 - c) / reps))


def wefat_study(W, A, B, p, sizes=WEFAT_SIZES, reps: int = 300, n_resamples: int = 2000, n_draws: int = 20_000,
                methods=WEFAT_METHODS, seed: int = 0, label: str = "") -> pd.DataFrame:
    """One row per ((n_W, n_A), method, resampled sets): coverage of r_pool, of E[r_n] and of r_{W|A,B} by the
    nominal 95% interval of :func:`wordbias.measures.association.bootstrap_wefat.wefat_bootstrap_from_vectors`, each with its
    Monte Carlo standard error, the interval's mean width against the true 2.5-97.5% spread of r_n, its bootstrap
    standard error against the true sd of r_n."""
    C_a, C_b = wefat_pool_cosines(W, A, B)
    rows = []
    for n_w, n_a in sizes:
        rng = np.random.default_rng([seed, n_w, n_a])
        tr = wefat_truth(C_a, C_b, p, n_w, n_a, n_draws, rng)
        iw, ia, ib = draws(rng, len(W), n_w, reps), draws(rng, len(A), n_a, reps), draws(rng, len(B), n_a, reps)
        r_cond = wefat_conditional_r(C_a, C_b, p, ia, ib)
        for method, resample in methods:
            lo, hi, se, est = (np.empty(reps) for _ in range(4))
            t0 = time.perf_counter()
            for r in range(reps):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    b = bw.wefat_bootstrap_from_vectors(W[iw[r]], A[ia[r]], B[ib[r]], p[iw[r]], method=method,
                                                        resample=resample, n_resamples=n_resamples, seed=r)
                lo[r], hi[r], se[r], est[r] = b.low, b.high, b.standard_error, b.estimate
            ok = np.isfinite(lo) & np.isfinite(hi)
            c_pool = np.mean((lo <= tr["r_pool"]) & (tr["r_pool"] <= hi))
            c_mean = np.mean((lo <= tr["mean_r"]) & (tr["mean_r"] <= hi))
            c_cond = np.mean((lo <= r_cond) & (r_cond <= hi))
            width, spread = np.mean(hi[ok] - lo[ok]), tr["q_high"] - tr["q_low"]
            rows.append(dict(
                vectors=label, n_W=n_w, n_A=n_a, method=method, resampled=resample, reps=reps,
                r_pool=tr["r_pool"], mean_r=tr["mean_r"], mean_estimate=est.mean(),
                shrink_over_sd=(tr["r_pool"] - tr["mean_r"]) / tr["sd_r"],
                cover_r_pool=c_pool, mcse_r_pool=_mcse(c_pool, reps),
                miss_below_r_pool=np.mean(hi < tr["r_pool"]), miss_above_r_pool=np.mean(lo > tr["r_pool"]),
                cover_mean_r=c_mean, mcse_mean_r=_mcse(c_mean, reps),
                cover_r_given_AB=c_cond, mcse_r_given_AB=_mcse(c_cond, reps),
                mean_width=width, true_spread=spread, width_ratio=width / spread,
                mean_se=np.mean(se[ok]), true_sd=tr["sd_r"], undefined=int((~ok).sum()),
                seconds=time.perf_counter() - t0))
            print(pd.DataFrame(rows[-1:]).round(3).to_string(index=False, header=len(rows) == 1), flush=True)
    return pd.DataFrame(rows)


def wefat_pools(label: str, show: bool = False):
    """(W, A, B, p) for one WEFAT setting name (WEFAT_SYNTHETIC or WEFAT_GLOVE)."""
    if label in WEFAT_SYNTHETIC:
        beta, gamma = WEFAT_SYNTHETIC[label]
        return wefat_synthetic_pools(beta=beta, gamma=gamma)
    if label in WEFAT_GLOVE:
        W, A, B, p, words = wefat_glove_pools(label.split("-", 1)[1])
        if show:
            for k, w in zip("WAB", words):
                print(k, " ".join(w))
        return W, A, B, p
    raise ValueError(f"unknown WEFAT setting {label!r}: one of {[*WEFAT_SYNTHETIC, *WEFAT_GLOVE]}")



def _size_pair(text: str) -> tuple[int, int]:
    """"50x8" -> (50, 8): a WEFAT cell (n_W, n_A)."""
    try:
        n_w, n_a = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a WEFAT size is n_W x n_A, e.g. 50x8, not {text!r}") from None
    return n_w, n_a


def main(argv=None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--study", choices=("weat", "wefat"), default="weat",
                    help="WEAT's d (default) or WEFAT's correlation r")
    ap.add_argument("--reps", type=int, help="draws of word sets per row (WEAT 500, WEFAT 300)")
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--draws", type=int, help="draws for the truth (WEAT 100,000, WEFAT 20,000)")
    ap.add_argument("--sizes", nargs="+", help="WEAT: n per set (8 12 16 25); WEFAT: n_W x n_A cells (50x8 ...)")
    ap.add_argument("--methods", nargs="+", help="WEAT: BCa percentile; WEFAT: method:sets, e.g. BCa:WAB BCa:W")
    ap.add_argument("--vectors", nargs="+", help="WEAT: synthetic synthetic-noisy glove; WEFAT: "
                    + " ".join([*WEFAT_SYNTHETIC, *WEFAT_GLOVE]))
    ap.add_argument("--quick", action="store_true", help="a smoke run: 100 draws, 1000 resamples, two sizes")
    ap.add_argument("--out", help="also write the table as CSV here (e.g. /tmp/coverage_bootstrap.csv)")
    ap.add_argument("--show-pools", action="store_true")
    a = ap.parse_args(argv)
    wefat_run = a.study == "wefat"
    if a.quick:
        a.reps, a.resamples = a.reps or 100, 1000
        a.draws = a.draws or 5000
        a.sizes = a.sizes or (["50x8", "50x25"] if wefat_run else ["8", "25"])
    a.reps = a.reps or (300 if wefat_run else 500)
    a.draws = a.draws or (20_000 if wefat_run else 100_000)
    frames = []
    t0 = time.perf_counter()
    if wefat_run:
        sizes = [_size_pair(v) for v in a.sizes] if a.sizes else list(WEFAT_SIZES)
        methods = [tuple(m.split(":")) for m in a.methods] if a.methods else list(WEFAT_METHODS)
        for label in a.vectors or [*WEFAT_SYNTHETIC, *WEFAT_GLOVE]:
            W, A, B, p = wefat_pools(label, show=a.show_pools)
            frames.append(wefat_study(W, A, B, p, sizes, a.reps, a.resamples, a.draws, methods, label=label))
    else:
        for label in a.vectors or ["synthetic", "synthetic-noisy", "glove"]:
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
            frames.append(study(C, POOL, [int(v) for v in a.sizes] if a.sizes else SIZES, a.reps, a.resamples,
                                a.draws, a.methods or METHODS, label=label))
    table = pd.concat(frames, ignore_index=True)
    print(table.round(3).to_string(index=False))
    print(f"wall time {time.perf_counter() - t0:.0f} s")
    if a.out:
        table.to_csv(a.out, index=False)
    return table


if __name__ == "__main__":
    main(sys.argv[1:])
