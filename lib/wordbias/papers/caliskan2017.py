"""Paper-vs-ours tables: run a paper's battery of tests and put its reported numbers beside ours."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _sps

from wordbias.measures import weat as _weat
from wordbias.measures import wefat as _wefat

#: significance level used to say whether "significance agrees" with the paper
ALPHA = 0.05


def round_up_to_power_of_ten(p: float) -> float:
    """The smallest power of ten ≥ p: how the paper's "p < 10^-k" bounds look if read off a p-value."""
    if not p > 0:
        return 0.0
    return 10.0 ** math.ceil(math.log10(p) - 1e-12)


def weat_table(embedding, specs: Sequence, *, paper_key: str = "glove", case_fold: bool = False,
               on_missing: str = "drop", balance_targets: str = "random", n_permutations: int = 100_000,
               seed: int = 0, alpha: float = ALPHA, progress: bool = False) -> pd.DataFrame:
    """Run every WEAT in ``specs`` (``wordbias.stimuli.WeatSpec``) and tabulate ours beside the paper's.

    Each test reports the effect size and p-values by every method: ``p_exact`` (all partitions counted,
    with ``p_exact_count`` of them at least as extreme, where ``stats.subset_sum_tail``'s ``"auto"`` counts
    exactly: always when |X ∪ Y| ≤ ``stats.EXACT_MAX_N``, beyond when the observed statistic is far enough
    in a tail), ``p_monte_carlo`` (``n_permutations`` seeded random partitions, add-one rule) with its standard
    error and ``mc_vs_exact_binomial_p`` (the two-sided binomial test of the Monte Carlo count against the
    exact p: small values would mean they disagree), and ``p_normal`` (normal approximation) with that
    value rounded up to a power of ten. ``p_value``/``p_method`` is the exact value where available, else
    Monte Carlo.
    ``paper_key`` picks the paper column (``"glove"``: Table 1, ``"word2vec"``: Table S1).
    """
    rows = []
    iterator = specs
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(specs, desc="WEATs", leave=False)
    for spec in iterator:
        res = _weat.weat(embedding, spec.X, spec.Y, spec.A, spec.B, names=spec.names, on_missing=on_missing,
                         case_fold=case_fold, balance_targets=balance_targets, p_method="auto",
                         n_permutations=n_permutations, seed=seed)
        pooled_n = len(res.s_x) + len(res.s_y)
        mc = res.p if res.p.p_method == "monte-carlo" else _weat.p_value(
            res.s_x, res.s_y, p_method="monte-carlo", n_permutations=n_permutations, seed=seed)
        normal = _weat.p_value(res.s_x, res.s_y, p_method="normal")
        exact = res.p if res.p.p_method == "exact" else None
        agreement = (_sps.binomtest(mc.n_extreme, mc.n_permutations, exact.p_value).pvalue if exact else np.nan)
        paper = (spec.paper or {}).get(paper_key) or {}
        paper_d = paper.get("d")
        paper_p = paper.get("p")
        row = {
            "test": spec.id,
            "title": spec.title,
            **{k: v for k, v in res.summary().items() if k not in ("p_value", "p_method", "p_resolution")},
            "effect_size_population_std": _weat.effect_size(res.s_x, res.s_y, ddof=0),
            "p_value": res.p_value,
            "p_method": res.p_method,
            "p_exact": exact.p_value if exact else np.nan,
            "p_exact_count": exact.n_extreme if exact else None,
            "p_monte_carlo": mc.p_value,
            "p_monte_carlo_se": mc.se,
            "mc_vs_exact_binomial_p": agreement,
            "p_normal": normal.p_value,
            "p_normal_rounded": round_up_to_power_of_ten(normal.p_value),
            "n_partitions": res.p.n_partitions if pooled_n < 1000 else np.nan,
            "paper_n_target": paper.get("n_target"),
            "paper_n_attribute": paper.get("n_attribute"),
            "paper_effect_size": paper_d,
            "paper_p_value": paper_p,
            "paper_p_text": paper.get("p_text"),
        }
        if paper_d is not None:
            row["d_difference"] = res.effect_size - paper_d
            row["sign_agrees"] = bool(np.sign(res.effect_size) == np.sign(paper_d))
        if paper_p is not None:
            row["significance_agrees"] = bool((res.p_value < alpha) == (paper_p < alpha))
        rows.append(row)
    table = pd.DataFrame(rows)
    # exact integer counts (may exceed float precision and int64): Python ints, empty where not counted
    table["p_exact_count"] = pd.Series([r["p_exact_count"] for r in rows], dtype=object)
    return table


def wefat_table(embedding, specs: Sequence, *, paper_key: str = "glove", case_fold: bool = False,
                on_missing: str = "drop", name_filter: bool = False) -> tuple[pd.DataFrame, dict]:
    """Run every WEFAT in ``specs`` (``wordbias.stimuli.WefatSpec``): one summary row per test, and the
    per-word results (``WefatResult``) by test id for the figures. ``name_filter=True`` applies each
    spec's name-likeness filter (``spec.name_filter['drop_fraction']``) where it has one."""
    rows, results = [], {}
    for spec in specs:
        drop = (spec.name_filter or {}).get("drop_fraction") if name_filter else None
        res = _wefat.wefat(embedding, spec.W, spec.A, spec.B, spec.property, on_missing=on_missing,
                           case_fold=case_fold, name_filter=drop)
        paper = (spec.paper or {}).get(paper_key) or {}
        results[spec.id] = res
        rows.append({
            "test": spec.id,
            "title": spec.title,
            "n": res.n,
            "pearson_r": res.pearson_r,
            "p_value": res.p_value,
            "spearman_r": res.spearman_r,
            "slope": res.slope,
            "intercept": res.intercept,
            "missing": " ".join(res.W.missing),
            "dropped_by_filter": " ".join(res.dropped_by_filter),
            "paper_r": paper.get("r"),
            "paper_p_value": paper.get("p"),
            "paper_p_text": paper.get("p_text"),
        })
    return pd.DataFrame(rows), results


__all__ = ["ALPHA", "round_up_to_power_of_ten", "weat_table", "wefat_table"]
