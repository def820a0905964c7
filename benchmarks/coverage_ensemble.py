"""The coverage of the combined interval over words and training runs, in a simulation.

:func:`wordbias.measures.ensemble.combine_runs` gives the mean of WEAT's effect size d over m training runs of
an embedding an interval over words and runs together: d̄ ± t_ν sqrt(W + B/m), W the mean within-run variance
over words (read from each run's word-bootstrap interval, half-width / z), B the between-run variance of d, ν
Satterthwaite's degrees of freedom. Its claimed target is the mean over training runs of d for the population
of words the lists sample. Here a generative model of "training runs" has that target known, and we count how
often the nominal 95% interval covers it.

The model
---------
*Population.* Four pools of ``POOL`` = 400 words each (X, Y, A, B), latent vectors in ``DIM`` = 50 dimensions,
seeded: a shared mean m (norm 3), a unit bias direction u orthogonal to it, standard normal noise, and a planted
association along u: X at +``DELTA`` u, Y at −``DELTA`` u (the targets), A at +``GAMMA`` u, B at −``GAMMA`` u
(the attributes), i.e. X shifted toward A's mean direction and Y toward B's (as in
``benchmarks/coverage_bootstrap.py``'s synthetic pools).

*Training runs.* Run r gives word w of set S the vector

    v_{w,r} = v_w + sigma_run e_{w,r} + tau_run z_{S,r} u,     e_{w,r} ~ N(0, I_50), z_{S,r} ~ N(0, 1),

two kinds of run noise: the word × run interaction (each word moves on its own, sd ``sigma_run`` per
dimension) and a run main effect (a shift of the whole set along the bias direction, shared by the set's words;
in a real corpus, e.g., a bootstrap sample of its documents in which the target words as a group co-occur more
or less with the attribute contexts). The settings (:data:`SETTINGS`; the spreads quoted are the full run's,
n = 8 / 16):

- ``no run noise``: sigma_run = tau_run = 0: every run is the same embedding; the combined interval should then
  match the word bootstrap's coverage;
- ``interaction`` (sigma_run 0.6): word × run noise only. d of the whole population hardly moves between runs
  (sd 0.03: 400 words average the noise out), but d of the drawn words does (sd 0.30 / 0.19, against a word
  half-width of 0.98 / 0.68): a single run's word bootstrap already covers the truth;
- ``run shifts`` (tau_run 0.6): the run main effect only: d of the population moves (sd 0.58), and d of the
  drawn words by about half the word interval's half-width (0.45 against 0.91) or more (0.50 against 0.61);
- ``realistic`` (sigma_run 0.5, tau_run 0.4): both kinds; the between-run sd of d of the drawn words (0.38 /
  0.35) is about half the word bootstrap's half-width (0.96 / 0.66), as on the Brown corpus, where two seeds
  moved d from 1.16 to 0.84 (a between-run sd near 0.23) against a word interval of about [0.28, 1.60]
  (half-width 0.66);
- ``large run noise`` (sigma_run 1.0, tau_run 1.4): the between-run sd of d of the drawn words (0.71 / 0.73) is
  about the word bootstrap's half-width (0.94 / 0.65).

*The truth.* theta = the mean over ``--truth-runs`` (5,000) runs of d on the whole pools in that run
(:func:`pool_effect_size`, equal to :func:`wordbias.measures.association.bootstrap.pool_effect_size_from_cosines`: every word
of each pool, equal weight for the two target pools, the population standard deviation), i.e. E_r[d_pop,r]: the
mean over training runs of d for the population of words (0.93, 0.81, 0.82, 0.80 and 0.43 in the five settings:
the word × run noise lowers the population's d). Its Monte Carlo standard error, sd_r(d_pop,r) / sqrt(runs), is
printed and stored: at most 0.013 (large run noise), against mean interval widths of 1.0 and more.

With 8 or 16 attribute words, s(w, A, B) is noisy and d shrinks towards 0: E[d_8] is about 0.30 below theta
here (``benchmarks/coverage_bootstrap.py``'s point). The mean over runs does not remove that bias; the intervals
cover theta only through their width. ``--gamma 3`` (stronger attribute words, E[d_8] about 0.1 below theta)
gives the same conclusions.

*One replication* (one setting, one list size n): n words are drawn from each pool without replacement (n = 8,
Caliskan et al.'s size, and 16), then ``max(RUNS)`` = 20 runs of those words; on each run d and its word
bootstrap interval (:func:`wordbias.measures.association.bootstrap.weat_bootstrap_from_vectors`, which
:func:`wordbias.measures.association.bootstrap.weat_bootstrap` and so ``wordbias.weat`` call on the words' vectors; the
default BCa, nominal 95%, all four sets resampled, but ``--resamples`` = 1,000 resamples instead of the default
10,000, for speed; the same bootstrap seed on every run of a replication, as
:func:`wordbias.measures.ensemble.on_runs` passes the same options to every run). The first m = 5, 10 and 20 runs
give three ensembles (nested: the coverages at different m share replications, each is valid on its own). The
intervals checked against theta:

- ``one run, word bootstrap``: the first run's word-bootstrap interval, what users report today (m = 1);
- ``over runs only``: the t interval of the m d's, d̄ ± t_{m−1} sd(d)/sqrt(m) (``combine_runs`` without the
  runs' intervals);
- ``combined, W from the runs' intervals``: ``combine_runs`` with them (W + B/m), what ``report`` and ``compare``
  give on an ensemble (they combine the runs' tidy rows);
- ``combined, joint word bootstrap``: ``combine_runs`` with W = V, the word-bootstrap variance of the run-averaged
  d when each resample of the words is applied to every run
  (:func:`wordbias.measures.ensemble.joint_word_variance`), what ``on_runs(wordbias.weat, ...)`` and
  ``wordbias weat`` give on an ensemble.

Every random draw of a replication comes from ``np.random.default_rng([seed, setting, n, replication])``, so
any replication can be rerun alone, and the table does not depend on ``--jobs``.

What it finds (1,000 replications, seed 0)
------------------------------------------
- The combined interval never under-covers: 0.942-0.945 without run noise (the word bootstrap 0.947 / 0.933),
  0.947-0.956 with run shifts only, 0.958-0.985 in the realistic setting, 0.97-0.98 with the interaction only,
  0.983-0.999 with large run noise.
- It is conservative wherever words move on their own between runs: W, each run's variance over words, counts
  each word's run-to-run noise as word sampling, and B counts it again, while in d̄ it is averaged over the m runs.
  With large run noise (n = 16, m = 20) its standard error is 0.38 against a true sd of d̄ of 0.22, and it is
  1.5 times as wide as the joint bootstrap's (1.50 against 1.00), which covers 0.96; the joint word bootstrap
  (the library's default for WEATs) covers 0.92-0.97 in every setting.
- The single run's word interval under-covers as soon as the runs move the population's d: 0.84 / 0.72 (run
  shifts), 0.90 / 0.83 (realistic), 0.80 / 0.57 (large); the interval over runs only misses the words'
  sampling and covers 0.0-0.94, worse with more runs.

Output
------
Into ``--out`` (default ``benchmarks/results/coverage_ensemble/``, made if missing): ``coverage_ensemble.csv``
(one row per setting, n, m and interval: coverage, its Wilson 95% interval, the share missing below / above, the
mean width, the replications; and theta, its Monte Carlo error, the mean estimate and its sd over replications,
the mean standard error the interval implies, the between-run sd of d of the drawn words and the word
half-width) and ``coverage_ensemble.png`` (coverage against m, one panel per setting and n, Wilson error bars,
the nominal 95% line). The Monte Carlo standard error of a coverage near 95% is sqrt(0.95 · 0.05 / reps): 0.0069
at the default 1,000 replications (Wilson 95% half-width about 0.014).

Run from the repository root::

    python benchmarks/coverage_ensemble.py [--replications 1000] [--seed 0] [--out DIR] [--jobs 2]

The full run took 14 minutes on a 2-core machine that other work shared (14 minutes of CPU time in all); the
cells that ran alone suggest 8 to 9 minutes on 2 free cores; ``--replications 600`` takes 0.6 of the time
(Monte Carlo se 0.009).

The fast check with a fixed seed: ``tests/measures/test_ensemble_coverage.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from wordbias.measures.association import bootstrap as bs
from wordbias.measures.ensemble import combine_runs, joint_word_variance

POOL = 400
DIM = 50
#: the targets' and the attributes' offsets along the bias direction u (theta about 0.8 in the realistic setting)
DELTA, GAMMA = 0.5, 1.5
MEAN_NORM = 3.0
SIZES = (8, 16)
RUNS = (5, 10, 20)
N_RESAMPLES = 1000
LEVEL = 0.95
TRUTH_RUNS = 5000
OUT = Path(__file__).resolve().parent / "results" / "coverage_ensemble"

NAIVE, RUNS_ONLY = "one run, word bootstrap", "over runs only"
#: combine_runs with W read from the runs' intervals: what `report` and `compare` on an ensemble give (tidy rows)
COMBINED = "combined, W from the runs' intervals"
#: combine_runs with W = joint_word_variance: what wordbias.weat / `wordbias weat` on an ensemble give
PROPOSED = "combined, joint word bootstrap"
INTERVALS = (NAIVE, RUNS_ONLY, COMBINED, PROPOSED)


@dataclass(frozen=True)
class Setting:
    """How training runs move the word vectors.

    Attributes
    ----------
    name : str
        The setting's label.
    sigma_run : float
        The sd, per dimension, of each word's own noise in each run (the word × run interaction).
    tau_run : float
        The sd of each set's shift along the bias direction in each run (the run main effect).
    """

    name: str
    sigma_run: float
    tau_run: float


#: the settings of the study (see the module docstring)
SETTINGS = (Setting("no run noise", 0.0, 0.0), Setting("interaction", 0.6, 0.0), Setting("run shifts", 0.0, 0.6),
            Setting("realistic", 0.5, 0.4), Setting("large run noise", 1.0, 1.4))


def setting(name: str) -> Setting:
    """The setting of :data:`SETTINGS` called ``name``."""
    for s in SETTINGS:
        if s.name == name:
            return s
    raise ValueError(f"unknown setting {name!r}: one of {[s.name for s in SETTINGS]}")


@dataclass(frozen=True)
class Population:
    """The four pools of latent word vectors (X, Y, A, B) and the bias direction u."""

    sets: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    u: np.ndarray

    @property
    def size(self) -> int:
        """The words in each pool."""
        return self.sets[0].shape[0]


def population(pool: int = POOL, dim: int = DIM, delta: float = DELTA, gamma: float = GAMMA,
               mean_norm: float = MEAN_NORM, seed: int = 0) -> Population:
    """The latent vectors of the four pools: m ± offset · u + N(0, I) (see the module docstring).

    Parameters
    ----------
    pool : int, default 400
        The words in each pool.
    dim : int, default 50
        The dimension.
    delta, gamma : float
        The targets' (X +, Y −) and the attributes' (A +, B −) offsets along u.
    mean_norm : float, default 3.0
        The norm of the shared mean m (orthogonal to u).
    seed : int, default 0
        Seed of the draws.

    Returns
    -------
    Population
        The pools and u.
    """
    rng = np.random.default_rng(seed)
    m = rng.normal(size=dim)
    m *= mean_norm / np.linalg.norm(m)
    u = rng.normal(size=dim)
    u -= (u @ m) / (m @ m) * m
    u /= np.linalg.norm(u)
    sets = tuple(m + sign * shift * u + rng.normal(size=(pool, dim))
                 for sign, shift in ((1, delta), (-1, delta), (1, gamma), (-1, gamma)))
    return Population(sets=sets, u=u)


def run_vectors(base, u: np.ndarray, s: Setting, rng: np.random.Generator) -> list[np.ndarray]:
    """One training run's vectors of the given words: each word's own noise plus its set's shift along u.

    Parameters
    ----------
    base : sequence of 4 numpy.ndarray, shape (k_S, dim)
        The latent vectors of the words of X, Y, A, B in the run.
    u : numpy.ndarray, shape (dim,)
        The bias direction.
    s : Setting
        The run noise.
    rng : numpy.random.Generator
        The draws: the four sets' word noise (in order), then the four sets' shifts.

    Returns
    -------
    list of numpy.ndarray
        The run's vectors of X, Y, A, B.
    """
    noise = [s.sigma_run * rng.normal(size=b.shape) for b in base]
    shift = s.tau_run * rng.normal(size=len(base))
    return [b + e + z * u for b, e, z in zip(base, noise, shift)]


def pool_effect_size(X, Y, A, B) -> float:
    """d on whole pools from their vectors: :func:`~wordbias.measures.association.bootstrap.pool_effect_size_from_cosines`
    without the cosine matrix.

    s(w, A, B) = mean_a cos(w, a) − mean_b cos(w, b) = ŵ · (mean_a â − mean_b b̂), hats the unit vectors, so the
    400 × 400 cosines are not needed (the test checks it against the library's function). Equal weight for the
    two target pools, the population standard deviation.
    """
    unit = [V / np.linalg.norm(V, axis=1, keepdims=True) for V in (X, Y, A, B)]
    direction = unit[2].mean(0) - unit[3].mean(0)
    s_x, s_y = unit[0] @ direction, unit[1] @ direction
    mean = (s_x.mean() + s_y.mean()) / 2
    var = (((s_x - mean) ** 2).mean() + ((s_y - mean) ** 2).mean()) / 2
    return float((s_x.mean() - s_y.mean()) / np.sqrt(var))


def population_effect_sizes(pop: Population, s: Setting, runs: int, seed: int = 0) -> np.ndarray:
    """d on the whole pools in each of ``runs`` training runs (d_pop,r).

    Parameters
    ----------
    pop : Population
        The pools.
    s : Setting
        The run noise.
    runs : int
        The runs drawn.
    seed : int, default 0
        Seed of the runs (their generator is ``default_rng([seed, 26])``, apart from the replications').

    Returns
    -------
    numpy.ndarray, shape (runs,)
        :func:`pool_effect_size` of each run's pools.
    """
    rng = np.random.default_rng([seed, 26])
    return np.array([pool_effect_size(*run_vectors(pop.sets, pop.u, s, rng)) for _ in range(runs)])


def truth(pop: Population, s: Setting, runs: int = TRUTH_RUNS, seed: int = 0) -> dict:
    """theta = the mean over ``runs`` runs of d on the whole pools, its Monte Carlo error and the runs' sd.

    Returns
    -------
    dict
        ``theta``, ``theta_mcse`` (sd / sqrt(runs)), ``sd_pop_runs`` (the sd of d_pop,r over runs) and ``runs``.
    """
    d = population_effect_sizes(pop, s, runs, seed)
    return {"theta": float(d.mean()), "theta_mcse": float(d.std(ddof=1) / np.sqrt(runs)),
            "sd_pop_runs": float(d.std(ddof=1)), "runs": runs}


def replication_rng(seed: int, setting_index: int, n: int, rep: int) -> np.random.Generator:
    """The generator of one replication's draws (words, runs, bootstrap seed)."""
    return np.random.default_rng([seed, setting_index, n, rep])


@dataclass(frozen=True)
class Simulation:
    """The replications of one setting and n.

    Attributes
    ----------
    runs : numpy.ndarray, shape (reps, 3, max_runs)
        Per replication, each run's d, word-bootstrap low and high.
    joint_variance : numpy.ndarray, shape (reps, len(ms))
        Per replication and m, the joint word bootstrap's variance of the mean d of the first m runs
        (:func:`joint_bootstrap_variance`).
    ms : tuple of int
        The ensemble sizes m.
    """

    runs: np.ndarray
    joint_variance: np.ndarray
    ms: tuple[int, ...]


def joint_bootstrap_variance(cosines, n: int, ms, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The word-bootstrap variance of the mean d over the first m runs, the same resample of the words in every run.

    Each resample draws the four sets' words once (with replacement) and applies that draw to every run
    (:func:`wordbias.measures.association.bootstrap.resampled_weat` on each run's cosine matrix); the run-averaged d of each
    resample varies only with the words, and each word's run-to-run noise is averaged over the m runs, as in d̄.

    Parameters
    ----------
    cosines : sequence of numpy.ndarray, shape (2n, 2n)
        Each run's cosines of the drawn target words with the drawn attribute words.
    n : int
        The words a set.
    ms : sequence of int
        The ensemble sizes (the first m runs).
    n_resamples : int
        The resamples.
    rng : numpy.random.Generator
        The resamples' generator.

    Returns
    -------
    numpy.ndarray, shape (len(ms),)
        The variance (ddof = 1) over resamples of the run-averaged d*, for each m.
    """
    seed = int(rng.integers(2**63))
    return np.array([joint_word_variance(cosines[:m], n, n, n_resamples=n_resamples, seed=seed) for m in ms])


def replicate(pop: Population, s: Setting, n: int, ms, rng: np.random.Generator,
              n_resamples: int = N_RESAMPLES, method: str = "BCa") -> tuple[np.ndarray, np.ndarray]:
    """One replication: n words a set, max(ms) runs of them, each run's d and word-bootstrap interval.

    Parameters
    ----------
    pop : Population
        The pools.
    s : Setting
        The run noise.
    n : int
        The words drawn from each pool (without replacement).
    ms : sequence of int
        The ensemble sizes; max(ms) runs are drawn.
    rng : numpy.random.Generator
        The replication's generator (:func:`replication_rng`): the words, then the bootstrap seed, then the runs.
    n_resamples : int, default 1000
        The bootstrap resamples of each run's interval.
    method : str, default "BCa"
        The bootstrap interval method.

    Returns
    -------
    runs : numpy.ndarray, shape (3, max(ms))
        Each run's d, interval low and interval high (nominal 95%).
    joint_variance : numpy.ndarray, shape (len(ms),)
        :func:`joint_bootstrap_variance` for each m.
    """
    idx = [rng.choice(pop.size, n, replace=False) for _ in range(4)]
    words = [p[i] for p, i in zip(pop.sets, idx)]
    boot_seed = int(rng.integers(2**31))
    out, cosines = np.empty((3, max(ms))), []
    for r in range(max(ms)):
        vecs = run_vectors(words, pop.u, s, rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            b = bs.weat_bootstrap_from_vectors(*vecs, n_resamples=n_resamples, confidence_level=LEVEL,
                                               method=method, seed=boot_seed).effect_size
        out[:, r] = b.estimate, b.low, b.high
        cosines.append(bs.target_attribute_cosines(*vecs))
    joint = joint_bootstrap_variance(cosines, n, ms, n_resamples, np.random.default_rng([boot_seed, 1]))
    return out, joint


def _chunk(args) -> list:
    pop, s, setting_index, n, ms, seed, reps, n_resamples, method = args
    return [replicate(pop, s, n, ms, replication_rng(seed, setting_index, n, k), n_resamples, method) for k in reps]


def simulate(pop: Population, s: Setting, n: int, reps: int, ms=RUNS, *, seed: int = 0, setting_index: int = 0,
             n_resamples: int = N_RESAMPLES, method: str = "BCa", jobs: int = 1) -> Simulation:
    """``reps`` replications (:func:`replicate`), in ``jobs`` processes; the result does not depend on ``jobs``.

    Parameters
    ----------
    pop : Population
        The pools.
    s : Setting
        The run noise.
    n : int
        The words a set.
    reps : int
        The replications.
    ms : sequence of int, default (5, 10, 20)
        The ensemble sizes.
    seed : int, default 0
        The study's seed; replication k of setting i draws from ``default_rng([seed, i, n, k])``.
    setting_index : int, default 0
        The setting's index i in that seed.
    n_resamples : int, default 1000
        The bootstrap resamples.
    method : str, default "BCa"
        The runs' bootstrap interval method.
    jobs : int, default 1
        Processes.

    Returns
    -------
    Simulation
        The runs' estimates and intervals, and the joint bootstrap variances.
    """
    ms = tuple(ms)
    k = max(1, 4 * jobs) if jobs > 1 else 1
    parts = [p for p in (range(i, reps, k) for i in range(k)) if len(p)]
    args = [(pop, s, setting_index, n, ms, seed, part, n_resamples, method) for part in parts]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            chunks = list(ex.map(_chunk, args))
    else:
        chunks = [_chunk(a) for a in args]
    runs, joint = np.empty((reps, 3, max(ms))), np.empty((reps, len(ms)))
    for part, chunk in zip(parts, chunks):
        for i, (r, j) in zip(part, chunk):
            runs[i], joint[i] = r, j
    return Simulation(runs=runs, joint_variance=joint, ms=ms)


def intervals(sim: Simulation, m: int) -> dict[str, np.ndarray]:
    """The intervals of each replication for the first ``m`` runs.

    Parameters
    ----------
    sim : Simulation
        :func:`simulate`'s output.
    m : int
        The runs combined, one of ``sim.ms``.

    Returns
    -------
    dict
        Interval name -> array (reps, 3): estimate, low, high. ``one run, word bootstrap`` is the first run's
        (it does not depend on m); ``over runs only`` and ``combined`` are :func:`combine_runs` without and with
        the runs' intervals; ``joint bootstrap (proposed)`` is :func:`combine_runs`'s formula with W replaced by
        the joint bootstrap variance V (each run given the interval d_r ± z sqrt(V), so that W = V).
    """
    z = stats.norm.ppf(0.5 + LEVEL / 2)
    nan = np.full(m, np.nan)
    V = sim.joint_variance[:, sim.ms.index(m)]
    out = {NAIVE: sim.runs[:, :, 0].copy()}
    rows = {RUNS_ONLY: [], COMBINED: [], PROPOSED: []}
    for (d, lo, hi), v in zip(sim.runs[:, :, :m], V):
        for name, (low, high) in ((RUNS_ONLY, (nan, nan)), (COMBINED, (lo, hi)),
                                  (PROPOSED, (d - z * np.sqrt(v), d + z * np.sqrt(v)))):
            c = combine_runs(d, low, high, ci_level=LEVEL)
            rows[name].append((c.estimate, c.ci_low, c.ci_high))
    return out | {name: np.array(r) for name, r in rows.items()}


def wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval of a binomial proportion k / n."""
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def coverage(est_low_high: np.ndarray, theta: float) -> float:
    """The share of the intervals (rows: estimate, low, high) that contain theta (a NaN bound misses)."""
    _, lo, hi = np.asarray(est_low_high).T
    return float(np.mean((lo <= theta) & (theta <= hi)))


def coverage_row(est_low_high: np.ndarray, theta: float) -> dict:
    """Coverage of theta by the intervals (reps, 3), its Wilson interval, misses below / above, widths."""
    est, lo, hi = np.asarray(est_low_high).T
    reps = len(est)
    ok = np.isfinite(lo) & np.isfinite(hi)
    hits = int(np.sum(ok & (lo <= theta) & (theta <= hi)))
    w_lo, w_hi = wilson(hits, reps)
    return {"coverage": hits / reps, "wilson_low": w_lo, "wilson_high": w_hi,
            "miss_below": float(np.mean(hi < theta)), "miss_above": float(np.mean(lo > theta)),
            "mean_width": float(np.mean(hi[ok] - lo[ok])), "replications": reps, "undefined": int((~ok).sum()),
            "mean_estimate": float(est.mean()), "sd_estimate": float(est.std(ddof=1)),
            "mean_se": float(np.mean((hi[ok] - lo[ok]) / (2 * stats.norm.ppf(0.5 + LEVEL / 2))))}


def summarise(sim: Simulation, theta: float) -> list[dict]:
    """One row per interval and m (the single-run interval once, with m = 1)."""
    rows = [{"m": 1, "method": NAIVE, **coverage_row(sim.runs[:, :, 0], theta)}]
    for m in sim.ms:
        iv = intervals(sim, m)
        rows += [{"m": m, "method": name, **coverage_row(iv[name], theta)} for name in (RUNS_ONLY, COMBINED, PROPOSED)]
    return rows


def run_spread(sim: Simulation) -> dict:
    """The between-run sd of d on the drawn words and the word bootstrap's half-width, averaged over replications."""
    d, lo, hi = sim.runs[:, 0], sim.runs[:, 1], sim.runs[:, 2]
    return {"sd_runs_sample": float(np.mean(d.std(axis=1, ddof=1))),
            "word_half_width": float(np.nanmean((hi - lo) / 2))}


def study(settings=SETTINGS, sizes=SIZES, ms=RUNS, reps: int = 1000, *, seed: int = 0,
          n_resamples: int = N_RESAMPLES, method: str = "BCa", truth_runs: int = TRUTH_RUNS, jobs: int = 1,
          pop: Population | None = None) -> pd.DataFrame:
    """The whole study: one row per setting, n, m and interval (the columns of :func:`coverage_row`)."""
    pop = pop or population()
    rows = []
    for i, s in enumerate(settings):
        t0 = time.perf_counter()
        tr = truth(pop, s, truth_runs, seed)
        print(f"[{s.name}] sigma_run {s.sigma_run}, tau_run {s.tau_run}: theta {tr['theta']:.4f} "
              f"(Monte Carlo se {tr['theta_mcse']:.4f}; sd of d_pop over runs {tr['sd_pop_runs']:.3f}; "
              f"{truth_runs} runs)", flush=True)
        for n in sizes:
            t1 = time.perf_counter()
            sim = simulate(pop, s, n, reps, ms, seed=seed, setting_index=SETTINGS.index(s) if s in SETTINGS else i,
                           n_resamples=n_resamples, method=method, jobs=jobs)
            spread = run_spread(sim)
            new = [{"setting": s.name, "n": n, **r, "theta": tr["theta"], "theta_mcse": tr["theta_mcse"],
                    "sd_pop_runs": tr["sd_pop_runs"], "sigma_run": s.sigma_run, "tau_run": s.tau_run, **spread,
                    "n_resamples": n_resamples, "bootstrap": method} for r in summarise(sim, tr["theta"])]
            rows += new
            print(f"  n = {n}: between-run sd of d on the drawn words {spread['sd_runs_sample']:.3f}, word "
                  f"half-width {spread['word_half_width']:.3f} ({time.perf_counter() - t1:.0f} s)", flush=True)
            for r in new:
                print(f"    {r['method']:<26} m = {r['m']:>2}: coverage {r['coverage']:.3f} "
                      f"[{r['wilson_low']:.3f}, {r['wilson_high']:.3f}], width {r['mean_width']:.3f}, miss below / "
                      f"above {r['miss_below']:.3f} / {r['miss_above']:.3f}; estimate {r['mean_estimate']:.3f}, "
                      f"sd {r['sd_estimate']:.3f}, se {r['mean_se']:.3f}", flush=True)
        print(f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    return pd.DataFrame(rows)


def plot(table: pd.DataFrame, path: Path, level: float = LEVEL, floor: float = 0.5) -> None:
    """Coverage against m, one panel per setting (columns) and n (rows), Wilson error bars, the nominal line.

    A coverage below ``floor`` is drawn at the floor as a downward triangle labelled with its value.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = list(dict.fromkeys(table["setting"]))
    sizes = sorted(table["n"].unique())
    ms = sorted(table["m"].unique())
    style = {NAIVE: ("#444444", "s", 0.0), RUNS_ONLY: ("#e08214", "o", -0.15), COMBINED: ("#2166ac", "D", 0.0),
             PROPOSED: ("#1b9e77", "^", 0.15)}
    fig, axes = plt.subplots(len(sizes), len(settings), figsize=(2.9 * len(settings), 2.9 * len(sizes) + 1.0),
                             sharex=True, sharey=True, squeeze=False)
    for row, n in zip(axes, sizes):
        for ax, name in zip(row, settings):
            for method in INTERVALS:
                colour, marker, dx = style[method]
                sub = table[(table["n"] == n) & (table["setting"] == name) & (table["method"] == method)]
                sub = sub.sort_values("m")
                x = np.array([ms.index(m) for m in sub["m"]]) + dx
                cov, low, high = (sub[k].to_numpy() for k in ("coverage", "wilson_low", "wilson_high"))
                shown = cov >= floor + 0.02
                ax.errorbar(x[shown], cov[shown], yerr=[cov[shown] - low[shown], high[shown] - cov[shown]],
                            fmt=marker + ("-" if method != NAIVE else ""), color=colour, ms=4.5, capsize=2, lw=1,
                            label=method)
                for xi, c in zip(x[~shown], cov[~shown]):
                    ax.plot(xi, floor + 0.008, "v", color=colour, ms=5)
                    ax.annotate(f"{c:.2f}", (xi, floor + 0.02), ha="center", va="bottom", fontsize=7, color=colour)
            ax.axhline(level, color="k", ls="--", lw=0.8)
            ax.grid(axis="y", alpha=0.3)
            ax.set_title(f"{name}, n = {n}", fontsize=9)
            ax.set_xticks(range(len(ms)), [str(m) for m in ms])
            ax.set_ylim(floor, 1.005)
        row[0].set_ylabel("coverage of theta")
    for ax in axes[-1]:
        ax.set_xlabel("runs m (1: a single run)")
    reps = int(table["replications"].iloc[0])
    fig.suptitle(f"Nominal {level:.0%} intervals for the mean over training runs of WEAT's d: coverage in {reps:,} "
                 f"replications (Wilson 95% bars; dashed: {level:.0%})", fontsize=10)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(INTERVALS), fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    fig.savefig(path, dpi=130)
    plt.close(fig)


def main(argv=None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--replications", type=int, default=1000, help="replications per setting and n (1000)")
    ap.add_argument("--seed", type=int, default=0, help="the study's seed (0)")
    ap.add_argument("--out", type=Path, default=OUT, help=f"folder of the CSV and the figure ({OUT})")
    ap.add_argument("--resamples", type=int, default=N_RESAMPLES, help="bootstrap resamples per run (1000)")
    ap.add_argument("--method", default="BCa", choices=("BCa", "percentile"), help="the runs' bootstrap interval")
    ap.add_argument("--truth-runs", type=int, default=TRUTH_RUNS, help="runs averaged for theta (5000)")
    ap.add_argument("--settings", nargs="+", help=f"a subset of {[s.name for s in SETTINGS]}")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="words a set (8 16)")
    ap.add_argument("--jobs", type=int, default=2, help="processes (2)")
    ap.add_argument("--delta", type=float, default=DELTA, help=f"the targets' offset along u ({DELTA})")
    ap.add_argument("--gamma", type=float, default=GAMMA, help=f"the attributes' offset along u ({GAMMA})")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    chosen = [setting(name) for name in a.settings] if a.settings else list(SETTINGS)
    table = study(chosen, a.sizes, RUNS, a.replications, seed=a.seed, n_resamples=a.resamples, method=a.method,
                  truth_runs=a.truth_runs, jobs=a.jobs, pop=population(delta=a.delta, gamma=a.gamma))
    a.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(a.out / "coverage_ensemble.csv", index=False)
    plot(table, a.out / "coverage_ensemble.png")
    mc = np.sqrt(LEVEL * (1 - LEVEL) / a.replications)
    cols = ["setting", "n", "m", "method", "coverage", "wilson_low", "wilson_high", "mean_width", "replications"]
    print(table[cols].round(3).to_string(index=False))
    print(f"Monte Carlo se of a coverage near {LEVEL:.0%}: {mc:.4f}; wrote {a.out / 'coverage_ensemble.csv'} and "
          f"{a.out / 'coverage_ensemble.png'}; wall time {time.perf_counter() - t0:.0f} s")
    return table


if __name__ == "__main__":
    main(sys.argv[1:])
