"""Coverage study of the bootstrap interval of the racial bias report's cosine bias.

The bias is cos(r, s), r = mean(A1) - mean(A2), s = mean(T1) - mean(T2) (the report "Racial bias in pre-trained
word embeddings", Section 3 and Appendix A). Synthetic pools (``--dim`` dimensions, ``--pool`` words a set): the
targets lean +-``scale`` along u, the attributes along v, with cos(u, v) = 0.5, plus N(0, 1) noise in every
dimension; lists of the report's implicit-test sizes (12, 12, 37, 37) are drawn without replacement ``--draws``
times, and each gets a BCa and a percentile interval (``--resamples`` resamples,
:func:`wordbias.measures.directions.bootstrap_direction.direction_bootstrap_from_vectors`). Printed per scale: the pool's cosine
(theta_pool), the mean cosine of the drawn lists (E[cos_n]), the true spread of the cosine over draws, the mean
bootstrap standard error, and how often each interval covers theta_pool and E[cos_n].

Run from the repository root: ``python benchmarks/coverage_direction.py`` (about a minute on 2 cores).
The numbers quoted in the docstring of ``direction_bootstrap_from_vectors`` and in the README come from it.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

from wordbias.measures.directions import bootstrap_direction as bd

SIZES = (12, 12, 37, 37)      # T1, T2, A1, A2 of the report's implicit test


def study(scale: float, *, dim: int, pool: int, draws: int, resamples: int, rng: np.random.Generator) -> dict:
    """One row of the study at one ``scale`` of the planted directions."""
    e = np.eye(dim)
    u, v = e[0], 0.5 * e[0] + np.sqrt(0.75) * e[1]
    mu = rng.normal(size=dim) * 0.5
    pools = [mu + sign * vec * scale + rng.normal(size=(pool, dim)) for sign, vec in ((1, u), (-1, u), (1, v), (-1, v))]
    r, s = pools[2].mean(0) - pools[3].mean(0), pools[0].mean(0) - pools[1].mean(0)
    theta = float(r @ s / np.linalg.norm(r) / np.linalg.norm(s))
    drawn = [[p[rng.choice(pool, n, replace=False)] for p, n in zip(pools, SIZES)] for _ in range(draws)]
    cos = np.array([bd.resampled_mean_difference_cosine(*d, *(np.arange(n) for n in SIZES)) for d in drawn])
    row = {"scale": scale, "theta_pool": theta, "E_cos_n": float(cos.mean()), "true_sd": float(cos.std(ddof=1))}
    for method in ("BCa", "percentile"):
        cis = [bd.direction_bootstrap_from_vectors(*d, n_resamples=resamples, method=method, seed=k)
               for k, d in enumerate(drawn)]
        row[f"{method}_covers_theta_pool"] = float(np.mean([c.low <= theta <= c.high for c in cis]))
        row[f"{method}_covers_E_cos_n"] = float(np.mean([c.low <= row["E_cos_n"] <= c.high for c in cis]))
        row[f"{method}_mean_se"] = float(np.mean([c.standard_error for c in cis]))
    return row


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scales", type=float, nargs="+", default=[1.0, 3.0, 6.0])
    ap.add_argument("--dim", type=int, default=50)
    ap.add_argument("--pool", type=int, default=2000)
    ap.add_argument("--draws", type=int, default=150)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    warnings.simplefilter("ignore")
    for scale in args.scales:
        r = study(scale, dim=args.dim, pool=args.pool, draws=args.draws, resamples=args.resamples, rng=rng)
        mc = np.sqrt(0.95 * 0.05 / args.draws)
        print(f"scale {r['scale']}: theta_pool {r['theta_pool']:.3f}, E[cos_n] {r['E_cos_n']:.3f}, true sd "
              f"{r['true_sd']:.3f}, bootstrap se {r['BCa_mean_se']:.3f} ({r['BCa_mean_se'] / r['true_sd']:.2f} of it); "
              f"coverage of theta_pool / E[cos_n] (Monte Carlo error about +-{mc:.2f}): "
              f"BCa {r['BCa_covers_theta_pool']:.2f} / {r['BCa_covers_E_cos_n']:.2f}, percentile "
              f"{r['percentile_covers_theta_pool']:.2f} / {r['percentile_covers_E_cos_n']:.2f}")


if __name__ == "__main__":
    main()
