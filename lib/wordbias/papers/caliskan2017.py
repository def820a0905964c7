"""Caliskan, Bryson & Narayanan (2017), *Science* 356:183: the tables and checks ``notebooks/caliskan2017.ipynb`` shows.

Table 1 / Table S1 (ten WEATs, with the p-value computed exactly, by Monte Carlo and by the normal
approximation, beside the paper's numbers: :func:`weat_table`, :func:`sd_check`, :func:`p_value_table`), the
WEFATs of Figures 1-2 and the name-likeness filter (:func:`wefat_table`, :func:`name_filter_table`), the gender
pairs of Figure 3 (:func:`figure3_pairs`) and what agrees with the paper (:func:`agreement`). The word lists and
the paper's numbers are data (``data/stimuli/caliskan2017.yaml``, :mod:`wordbias.datasets.stimuli`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _sps

from wordbias.core import lookup
from wordbias.core import tables as _tables
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import check_int, check_probability
from wordbias.datasets import stimuli
from wordbias.measures.association import measurement as _measurement
from wordbias.measures.association import weat as _weat
from wordbias.measures.association import wefat as _wefat
from wordbias.measures.diagnostics import frequency as _frequency
from wordbias.options import Resampling, Words

__all__ = ["ALPHA", "N_RESAMPLES", "P_METHODS", "round_up_to_power_of_ten", "measure_table1", "table1", "weat_table",
           "measure_wefats", "wefat_summary", "show_table1", "show_adjusted_p", "show_wefat", "show_frequency", "word_scores", "replication_notes", "sd_check",
           "p_value_table", "show_p_values", "p_value_notes", "wefat_table", "name_filter_table", "figure3_pairs",
           "agreement", "frequency_counts", "frequency_table",
           "trust_notes", "REFERENCE_EMBEDDING"]

#: significance level used to say whether "significance agrees" with the paper
ALPHA = 0.05
#: bootstrap resamples for the intervals of d and of WEFAT's r (BCa; 10,000 takes about 0.01 s a test)
N_RESAMPLES = 10_000


def round_up_to_power_of_ten(p: float) -> float:
    """The smallest power of ten >= p: how the paper's "p < 10^-k" bounds look if read off a p-value.

    Parameters
    ----------
    p : float
        A p-value.

    Returns
    -------
    float
        The smallest power of ten at least ``p``; 0.0 when ``p`` is not positive (or NaN).

    Examples
    --------
    >>> round_up_to_power_of_ten(0.003), round_up_to_power_of_ten(0.01), round_up_to_power_of_ten(0.0)
    (0.01, 0.01, 0.0)
    """
    if not p > 0:
        return 0.0
    return 10.0 ** math.ceil(math.log10(p) - 1e-12)


#: the p-value methods Table 1 shows beside each other (the exact count where it can be made, always)
P_METHODS = ("monte-carlo", "normal")


def measure_table1(embedding, specs: Sequence, *, case_fold: bool = False, on_missing: str = "drop",
                   balance_targets: str = "random", n_permutations: int = 100_000, seed: int = 0,
                   n_resamples: int = N_RESAMPLES, confidence_level: float = 0.95, family: str | None = None,
                   progress: bool = False) -> list:
    """Measure every WEAT of ``specs`` once, with the p-value of every method Table 1 compares.

    Runs :func:`wordbias.measures.association.measurement.weats` with the methods of :data:`P_METHODS` (and the exact count
    where it can be made): the results that :func:`table1` and the tidy table
    (:func:`wordbias.battery.weat.weat_rows`) both show.

    Parameters
    ----------
    embedding, specs : KeyedVectors or str or path-like, sequence of WeatSpec
        The embedding (or the name or path of one to load) and the WEATs
        (:class:`wordbias.datasets.stimuli.WeatSpec`).
    case_fold, on_missing, balance_targets : optional
        How words are looked up and target sets of unequal size balanced: see :class:`~wordbias.options.Words`
        (defaults here False, "drop" and "random").
    n_permutations : int, default 100000
        Random partitions of the Monte Carlo p.
    seed : int, default 0
        Seed of the Monte Carlo p, the balancing and the bootstrap.
    n_resamples : int, default N_RESAMPLES
        Bootstrap resamples of the interval of d (>= 2).
    confidence_level : float, default 0.95
        Confidence level of the interval.
    family : str or None, default None
        Names the family of the adjusted p (e.g. ``"caliskan2017:glove on glove-6b-50d"``).
    progress : bool, default False
        Whether to show a progress bar.

    Returns
    -------
    list of Result
        One :class:`wordbias.result.Result` per spec, in order.

    Raises
    ------
    InvalidParameterError
        When ``n_resamples`` or ``confidence_level`` (or another option) is invalid.
    """
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    confidence_level = check_probability("confidence_level", confidence_level)
    return _measurement.weats(embedding, specs, family=family, p_methods=P_METHODS,
                              resampling=Resampling(n_resamples=n_resamples, confidence_level=confidence_level,
                                                    n_permutations=n_permutations, seed=seed),
                              words=Words(case_fold=case_fold, on_missing=on_missing,
                                          balance_targets=balance_targets),
                              progress=progress)


def weat_table(embedding, specs: Sequence, *, paper_key: str = "glove", case_fold: bool = False,
               on_missing: str = "drop", balance_targets: str = "random", n_permutations: int = 100_000,
               seed: int = 0, alpha: float = ALPHA, n_resamples: int = N_RESAMPLES,
               confidence_level: float = 0.95, progress: bool = False) -> pd.DataFrame:
    """Measure the WEATs of ``specs`` once and show them beside the paper's numbers.

    :func:`measure_table1` then :func:`table1` (Table 1, or Table S1 on word2vec).

    Parameters
    ----------
    embedding, specs : KeyedVectors or str or path-like, sequence of WeatSpec
        As in :func:`measure_table1`.
    paper_key : str, default "glove"
        Which of the paper's numbers to compare with (``"word2vec"`` for Table S1).
    case_fold, on_missing, balance_targets, n_permutations, seed : optional
        As in :func:`measure_table1` (defaults False, "drop", "random", 100000 and 0).
    alpha : float, default ALPHA
        Significance level at which significance is compared with the paper's.
    n_resamples, confidence_level, progress : optional
        As in :func:`measure_table1` (defaults N_RESAMPLES, 0.95 and False).

    Returns
    -------
    pandas.DataFrame
        :func:`table1`: one row per test.

    Raises
    ------
    InvalidParameterError
        When an option is invalid or a test could not be measured.
    """
    results = measure_table1(embedding, specs, case_fold=case_fold, on_missing=on_missing,
                             balance_targets=balance_targets, n_permutations=n_permutations, seed=seed,
                             n_resamples=n_resamples, confidence_level=confidence_level, progress=progress)
    return table1(results, specs, paper_key=paper_key, alpha=alpha)


def table1(results: Sequence, specs: Sequence, *, paper_key: str = "glove", alpha: float = ALPHA) -> pd.DataFrame:
    """Table 1 (or Table S1) as a view of measured WEATs: ours beside the paper's, one row per test.

    Nothing is recomputed from the results of :func:`measure_table1`.

    Each test reports the effect size and p-values by every method: ``p_exact`` (all partitions counted,
    with ``p_exact_count`` of them at least as extreme, where
    :func:`wordbias.stats.permutation.subset_sum_tail`'s ``"auto"`` counts exactly: always when
    ``|X ∪ Y| <= EXACT_MAX_N``, beyond when the observed statistic is far enough in a tail), ``p_monte_carlo``
    (``n_permutations`` seeded random partitions, add-one rule) with its standard error and
    ``mc_vs_exact_binomial_p`` (the two-sided binomial test of the Monte Carlo count against the exact p:
    small values would mean they disagree), and ``p_normal`` (normal approximation) with that value rounded
    up to a power of ten. ``p_value``/``p_method`` is the exact value where available, else Monte Carlo; it
    is one-sided (``alternative`` = "greater", the paper's test), and ``p_two_sided`` is the two-sided p of
    the same method (SciPy's doubling rule, :func:`wordbias.measures.association.weat.p_value`).

    Uncertainty: ``effect_size_ci_low``/``effect_size_ci_high`` is the BCa bootstrap interval of
    d over the words (X, Y, A and B each resampled; :func:`wordbias.measures.association.bootstrap.weat_bootstrap`), with
    its standard error ``effect_size_se``; ``p_holm`` and ``p_bh`` are Holm's and Benjamini-Hochberg's adjusted
    ``p_value`` over the family the results were measured in (named in ``p_family``).

    Parameters
    ----------
    results : sequence of Result
        :func:`measure_table1`'s results.
    specs : sequence of WeatSpec
        The tests of ``results``, in the same order (for the paper's numbers).
    paper_key : str, default "glove"
        Which of the paper's numbers to compare with (``"word2vec"`` for Table S1).
    alpha : float, default ALPHA
        Significance level at which ``significance_agrees`` compares our p with the paper's.

    Returns
    -------
    pandas.DataFrame
        One row per test, ours beside the paper's.

    Raises
    ------
    InvalidParameterError
        When ``alpha`` is not a probability, ``specs`` are not the tests of ``results`` in order, or a test
        was not run.
    """
    alpha = check_probability("alpha", alpha)
    if [s.id for s in specs] != [m.test for m in results]:
        raise InvalidParameterError("specs must be the tests of results, in the same order")
    not_run = [m.test for m in results if m.not_run]
    if not_run:
        raise InvalidParameterError("Table 1 needs every test measured; not run: "
                                    + "; ".join(f"{m.test} ({m.not_run})" for m in results if m.not_run))
    rows = [_table1_row(m, spec, paper_key=paper_key, alpha=alpha) for m, spec in zip(results, specs)]
    table = pd.DataFrame(rows)
    # exact integer counts (may exceed float precision and int64): Python ints, empty where not counted
    table["p_exact_count"] = pd.Series([r["p_exact_count"] for r in rows], dtype=object)
    table["p_holm"], table["p_bh"], table["p_family"] = ([m.p_holm for m in results], [m.p_bh for m in results],
                                                          [m.p_family for m in results])
    return table


def _table1_row(m, spec, *, paper_key: str, alpha: float) -> dict:
    """One row of :func:`table1`: a measured WEAT by every p method, beside the paper's numbers."""
    res = m.result
    pooled_n = len(res.s_x) + len(res.s_y)
    mc, normal, exact = m.p_values["monte-carlo"], m.p_values["normal"], m.p_values.get("exact")
    agreement = (_sps.binomtest(mc.n_extreme, mc.n_permutations, exact.p_value).pvalue if exact else np.nan)
    ci = m.interval
    paper = (spec.paper or {}).get(paper_key) or {}
    paper_d = paper.get("d")
    paper_p = paper.get("p")
    row = {
        "test": spec.id,
        "title": spec.title,
        **{k: v for k, v in res.summary().items() if k not in ("p_value", "p_method", "p_resolution")},
        "effect_size_population_std": _weat.effect_size(res.s_x, res.s_y, ddof=0),
        "effect_size_ci_low": m.ci_low,
        "effect_size_ci_high": m.ci_high,
        "effect_size_se": m.effect_size_se,
        "effect_size_ci": m.ci_method if ci is not None else None,
        "p_value": m.p_value,
        "p_method": m.p_method,
        "alternative": m.alternative,
        "p_two_sided": m.p_two_sided,
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
        row["d_difference"] = m.effect_size - paper_d
        row["sign_agrees"] = bool(np.sign(m.effect_size) == np.sign(paper_d))
    if paper_p is not None:
        row["significance_agrees"] = bool((m.p_value < alpha) == (paper_p < alpha))
    return row


def measure_wefats(embedding, specs: Sequence, *, case_fold: bool = False, on_missing: str = "drop",
                   name_filter: bool = False, n_resamples: int = N_RESAMPLES, confidence_level: float = 0.95,
                   seed: int = 0) -> list:
    """Measure every WEFAT of ``specs`` once (:func:`wordbias.measures.association.measurement.wefats`).

    Parameters
    ----------
    embedding, specs : KeyedVectors or str or path-like, sequence of WefatSpec
        The embedding (or the name or path of one to load) and the WEFATs
        (:class:`wordbias.datasets.stimuli.WefatSpec`).
    case_fold, on_missing : optional
        How words are looked up: see :class:`~wordbias.options.Words` (defaults here False and "drop").
    name_filter : bool, default False
        Whether to apply each spec's name-likeness filter (``spec.name_filter['drop_fraction']``) where it has one.
    n_resamples : int, default N_RESAMPLES
        Bootstrap resamples of the interval of r (>= 2).
    confidence_level : float, default 0.95
        Confidence level of the interval.
    seed : int, default 0
        Seed of the bootstrap.

    Returns
    -------
    list of Result
        One :class:`wordbias.result.Result` per spec, in order (its ``result`` the per-word ``WefatResult``).

    Raises
    ------
    InvalidParameterError
        When ``n_resamples`` or ``confidence_level`` is invalid.
    """
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    return _measurement.wefats(embedding, specs, name_filter=name_filter,
                               resampling=Resampling(n_resamples=n_resamples, confidence_level=confidence_level,
                                                     seed=seed),
                               words=Words(case_fold=case_fold, on_missing=on_missing))


def wefat_table(embedding, specs: Sequence, *, paper_key: str = "glove", case_fold: bool = False,
                on_missing: str = "drop", name_filter: bool = False, n_resamples: int = N_RESAMPLES,
                confidence_level: float = 0.95, seed: int = 0) -> tuple[pd.DataFrame, dict]:
    """Measure the WEFATs of ``specs`` once and show them with :func:`wefat_summary`.

    Parameters
    ----------
    embedding, specs : KeyedVectors or str or path-like, sequence of WefatSpec
        As in :func:`measure_wefats`.
    paper_key : str, default "glove"
        Which of the paper's numbers to compare with.
    case_fold, on_missing, name_filter, n_resamples, confidence_level, seed : optional
        As in :func:`measure_wefats` (defaults False, "drop", False, N_RESAMPLES, 0.95 and 0).

    Returns
    -------
    summary : pandas.DataFrame
        One summary row per test (:func:`wefat_summary`).
    results : dict
        The per-word results (``WefatResult``) by test id, for the figures.

    Raises
    ------
    InvalidParameterError
        When an option is invalid or a test could not be measured.
    """
    results = measure_wefats(embedding, specs, case_fold=case_fold, on_missing=on_missing, name_filter=name_filter,
                             n_resamples=n_resamples, confidence_level=confidence_level, seed=seed)
    return wefat_summary(results, specs, paper_key=paper_key), {m.test: m.result for m in results}


def wefat_summary(results: Sequence, specs: Sequence, *, paper_key: str = "glove") -> pd.DataFrame:
    """Figures 1-2's tests as a view of measured WEFATs, beside the paper's r and p.

    Pearson's r with its BCa bootstrap interval (``pearson_r_ci_low``/``pearson_r_ci_high``: the target words
    with their property resampled as pairs, and the attribute words;
    :func:`wordbias.measures.association.bootstrap_wefat.wefat_bootstrap`), p, Spearman's ρ, the line, the words missing and
    filtered.

    Parameters
    ----------
    results : sequence of Result
        :func:`measure_wefats`'s results.
    specs : sequence of WefatSpec
        The tests of ``results``, in the same order.
    paper_key : str, default "glove"
        Which of the paper's numbers to compare with.

    Returns
    -------
    pandas.DataFrame
        One row per test.

    Raises
    ------
    InvalidParameterError
        When a test was not measured.
    """
    rows = []
    for m, spec in zip(results, specs):
        if m.not_run:
            raise InvalidParameterError(f"{m.test} was not measured: {m.not_run}")
        res, paper = m.result, (spec.paper or {}).get(paper_key) or {}
        rows.append({
            "test": spec.id, "title": spec.title, "n": res.n, "pearson_r": res.pearson_r,
            "pearson_r_ci_low": m.ci_low, "pearson_r_ci_high": m.ci_high, "p_value": res.p_value,
            "spearman_r": res.spearman_r, "slope": res.slope, "intercept": res.intercept,
            "missing": " ".join(res.W.missing), "dropped_by_filter": " ".join(res.dropped_by_filter),
            "paper_r": paper.get("r"), "paper_p_value": paper.get("p"), "paper_p_text": paper.get("p_text"),
        })
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------
# Table 1 checks: the scores of one test, the standard deviation, the p-values three ways
# --------------------------------------------------------------------------------------------------

def _p_text(p) -> str:
    return _tables.p_text(p)


def show_table1(table1: pd.DataFrame) -> pd.DataFrame:
    """:func:`weat_table` for a student, narrow enough for a laptop.

    Seven columns, indexed by test: what the test compares, the words per target/attribute set, the paper's d
    and ours with its 95% interval, our one-sided p (the paper's test) and the paper's p, each p on one line
    (:func:`wordbias.core.tables.p_text`). The two-sided and adjusted p are :func:`show_adjusted_p`; every
    column, and more, stays in the CSV.

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table` (or :func:`table1`).

    Returns
    -------
    pandas.DataFrame
        The narrow table, indexed by ``Test``.
    """
    out = pd.DataFrame({
        "Test": table1.test,
        "Compares": table1.title,
        "Words (target/attribute set)": [f"{a}/{b}" for a, b in zip(table1.n_target, table1.n_attribute)],
        "d (paper)": table1.paper_effect_size.map(_tables.number_text),
        "d (ours)": table1.effect_size.map(_tables.number_text),
        "95% interval of d": _tables.interval_column(table1.effect_size_ci_low, table1.effect_size_ci_high),
        "p (one-sided)": _tables.p_column(table1.p_value),
        "p (paper)": table1.paper_p_text.fillna(_tables.MISSING),
    })
    return out.set_index("Test")


def show_adjusted_p(table1: pd.DataFrame) -> pd.DataFrame:
    """The p-values of :func:`weat_table` for a student, indexed by test.

    One-sided (the paper's test), two-sided, adjusted for the table's tests by Holm and by
    Benjamini-Hochberg, and how the one-sided p was computed.

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table` (or :func:`table1`), whose p-value columns are shown.

    Returns
    -------
    pandas.DataFrame
        The p-values, indexed by ``Test``.
    """
    out = pd.DataFrame({
        "Test": table1.test,
        "p (one-sided)": _tables.p_column(table1.p_value),
        "p (two-sided)": _tables.p_column(table1.p_two_sided),
        "p Holm": _tables.p_column(table1.p_holm),
        "p Benjamini-Hochberg": _tables.p_column(table1.p_bh),
        "computed": table1.p_method,
    })
    return out.set_index("Test")


def show_wefat(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`wefat_table`'s summary for a student, indexed by test.

    n, the paper's r and ours with its 95% interval, p and the paper's p, Spearman's ρ; a column of the words
    missing from the embedding only when some are.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`wefat_summary` (the first item of :func:`wefat_table`).

    Returns
    -------
    pandas.DataFrame
        The narrow table, indexed by ``Test``.
    """
    out = pd.DataFrame({
        "Test": summary.test, "n": summary.n, "r (paper)": summary.paper_r.map(_tables.number_text),
        "r (ours)": summary.pearson_r.map(_tables.number_text),
        "95% interval of r": _tables.interval_column(summary.pearson_r_ci_low, summary.pearson_r_ci_high),
        "p (ours)": _tables.p_column(summary.p_value), "p (paper)": summary.paper_p_text.fillna(_tables.MISSING),
        "Spearman ρ": summary.spearman_r.map(_tables.number_text)})
    missing = summary.missing.fillna("")
    if (missing != "").any():
        out["missing words"] = missing
    return out.set_index("Test")


def show_frequency(frequency: pd.DataFrame) -> pd.DataFrame:
    """:func:`frequency_table` for display: the X-vs-Y rank test and the association-frequency correlation.

    Parameters
    ----------
    frequency : pandas.DataFrame
        :func:`frequency_table`: each WEAT's rank test and frequency correlation.

    Returns
    -------
    pandas.DataFrame
        One row per WEAT, indexed by ``test``.
    """
    out = pd.DataFrame({
        "test": frequency.test,
        "ranks X vs Y: p": _tables.p_column(frequency.mann_whitney_p),
        "rank-biserial r": frequency.rank_biserial.round(2),
        "differ in frequency": frequency.frequency_flag.map({True: "yes", False: "no"}),
        "Spearman ρ (s, log rank)": frequency.spearman_rho.round(2),
        "ρ's p": _tables.p_column(frequency.spearman_p),
        "no rank": frequency.no_rank})
    return out.set_index("test")


def word_scores(result: _weat.WeatResult) -> pd.DataFrame:
    """s(w, A, B) of every target word of a WEAT, in decreasing order of s.

    Parameters
    ----------
    result : WeatResult
        A WEAT's result (:class:`wordbias.measures.association.weat.WeatResult`).

    Returns
    -------
    pandas.DataFrame
        Indexed by the word, with columns ``s(w,A,B)`` and ``set`` (the target set's name).
    """
    s = pd.concat([pd.Series(result.s_x, index=result.X.words, name="s(w,A,B)").to_frame().assign(set=result.X.name),
                   pd.Series(result.s_y, index=result.Y.words, name="s(w,A,B)").to_frame().assign(set=result.Y.name)])
    return s.sort_values("s(w,A,B)", ascending=False)


def replication_notes(table1: pd.DataFrame, alpha: float = ALPHA) -> str:
    """How close :func:`weat_table`'s effect sizes are to the paper's.

    Agreement in sign and significance, and the words dropped as unknown or balanced out (the replication
    target on the authors' vectors is ``|d - paper d| <= 0.005``).

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table`.
    alpha : float, default ALPHA
        The significance level named in the notes (the agreement is ``table1``'s).

    Returns
    -------
    str
        The notes, one per line.
    """
    diff = (table1.effect_size - table1.paper_effect_size)
    lines = [f"largest |d - paper d| = {diff.abs().max():.4f} ({table1.test[diff.abs().idxmax()]})",
             f"within 0.005 of the paper: {int((diff.abs() <= 0.005).sum())} of {len(table1)}",
             f"same sign as the paper: {int(table1.sign_agrees.sum())} of {len(table1)}; "
             f"same significance at alpha = {alpha}: {int(table1.significance_agrees.sum())} of {len(table1)}"]
    for _, r in table1.iterrows():
        if r.missing or r.balanced_out:
            lines.append(f"{r.test}: dropped as unknown: {r.missing or '-'}; balanced out at random: "
                         f"{r.balanced_out or '-'}")
    return "\n".join(lines)


def sd_check(table1: pd.DataFrame) -> pd.DataFrame:
    """d with the sample and with the population standard deviation beside the paper's d.

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table` (or :func:`table1`), with d under both standard deviations.

    Returns
    -------
    pandas.DataFrame
        Columns ``test``, ``paper_d``, ``d_sample_std``, ``d_population_std`` and ``closer`` (which of the two is
        closer to the paper's d).
    """
    out = pd.DataFrame({
        "test": table1.test,
        "paper_d": table1.paper_effect_size,
        "d_sample_std": table1.effect_size.round(4),
        "d_population_std": table1.effect_size_population_std.round(4),
    })
    out["closer"] = np.where((out.d_sample_std - out.paper_d).abs()
                             <= (out.d_population_std - out.paper_d).abs(), "sample", "population")
    return out


#: the p-value columns of :func:`p_value_table`, shown in scientific notation
P_COLUMNS = ["paper_p_value", "p_exact", "p_monte_carlo", "p_monte_carlo_se", "mc_vs_exact_binomial_p", "p_normal",
             "p_normal_rounded"]


def p_value_table(table1: pd.DataFrame) -> pd.DataFrame:
    """The p-values three ways beside the paper's.

    With whether the paper's bound equals the normal p rounded up to a power of ten and whether it holds for
    the exact (else Monte Carlo) p.

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table` (or :func:`table1`), with the p-values of every method.

    Returns
    -------
    pandas.DataFrame
        ``test``, ``paper_p_text``, the columns of :data:`P_COLUMNS`, ``paper_bound_matches_normal`` and
        ``paper_bound_holds_exact_or_mc``.
    """
    pv = table1[["test", "paper_p_text", *P_COLUMNS]].copy()
    pv["paper_bound_matches_normal"] = np.isclose(pv.paper_p_value, pv.p_normal_rounded)
    pv["paper_bound_holds_exact_or_mc"] = np.where(pv.p_exact.notna(), pv.p_exact, pv.p_monte_carlo) <= pv.paper_p_value
    return pv


def show_p_values(pv: pd.DataFrame) -> pd.DataFrame:
    """:func:`p_value_table` for a student, indexed by test.

    The paper's p, ours exactly, by Monte Carlo and by the normal approximation, that approximation rounded up
    to a power of ten, and whether the paper's p is that rounded value. The Monte Carlo standard error, its
    agreement with the exact p and whether the paper's bound holds are summarised by :func:`p_value_notes`
    (and are in :func:`p_value_table`).

    Parameters
    ----------
    pv : pandas.DataFrame
        :func:`p_value_table`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``Test``.
    """
    out = pd.DataFrame({
        "Test": pv.test,
        "p (paper)": pv.paper_p_text.fillna(_tables.MISSING),
        "exact": _tables.p_column(pv.p_exact),
        "Monte Carlo": _tables.p_column(pv.p_monte_carlo),
        "normal approx.": _tables.p_column(pv.p_normal),
        "normal, rounded up": _tables.p_column(pv.p_normal_rounded),
        "paper = rounded normal?": _tables.yes_no(pv.paper_bound_matches_normal),
    })
    return out.set_index("Test")


def p_value_notes(table1: pd.DataFrame, n_permutations: int) -> str:
    """What the p-values three ways say, in a few lines.

    Which tests have an exact p, the Monte Carlo floor 1/(R+1), the agreement of Monte Carlo with the exact p,
    the ratio of the normal approximation to it, and how often the paper's p is the rounded normal p.

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table` (or :func:`table1`).
    n_permutations : int
        R, the random partitions of the Monte Carlo p.

    Returns
    -------
    str
        The notes, one per line.
    """
    pv = p_value_table(table1)
    has_exact = table1.p_exact.notna()
    lines = [f"exact p for {int(has_exact.sum())} of {len(table1)} tests"
             + (f"; Monte Carlo only for {', '.join(table1.test[~has_exact])}" if (~has_exact).any() else ""),
             f"Monte Carlo: R = {n_permutations:,} random partitions, floor 1/(R+1) = {1 / (n_permutations + 1):.1e}"]
    if has_exact.any():
        agree = table1.mc_vs_exact_binomial_p[has_exact] > 1e-3
        ratio = table1.p_normal[has_exact] / table1.p_exact[has_exact]
        lines.append(f"Monte Carlo consistent with the exact p (binomial test p > 0.001) in {int(agree.sum())} of "
                     f"{int(has_exact.sum())} tests")
        lines.append(f"normal approximation / exact p: {ratio.min():.2g} to {ratio.max():.3g}")
    lines.append(f"paper's p equals the normal p rounded up to a power of ten in "
                 f"{int(pv.paper_bound_matches_normal.sum())} of {len(pv)} tests")
    lines.append(f"the paper's p is an upper bound of ours (exact, else Monte Carlo) in "
                 f"{int(pv.paper_bound_holds_exact_or_mc.sum())} of {len(pv)} tests")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# WEFAT 2's name-likeness filter, Figure 3's pairs, what agrees
# --------------------------------------------------------------------------------------------------

def name_filter_table(embedding, spec, unfiltered, *, case_fold: bool = False) -> pd.DataFrame:
    """WEFAT 2 three ways: with and without the name-likeness filter, on the printed and the census names.

    On the printed 50 names (``unfiltered``: the WEFAT already measured on them, read and not run again), with
    the name-likeness filter applied again to them, and with the filter applied to the 60 candidates of the
    authors' census file (:func:`wordbias.datasets.stimuli.androgynous_name_candidates`) that the embedding has.
    A run left without enough names gets a row with n = 0 and the reason.

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like
        The embedding, or the name or path of one to load.
    spec : WefatSpec
        WEFAT 2 (:class:`wordbias.datasets.stimuli.WefatSpec`).
    unfiltered : WefatResult
        WEFAT 2 on the printed names without the filter, e.g. :func:`wefat_table`'s ``results["WEFAT2"]``.
    case_fold : bool, default False
        Whether to look words up case-insensitively.

    Returns
    -------
    pandas.DataFrame
        One row per way: ``names``, ``n``, ``pearson_r``, ``p_value``, ``dropped`` (and ``missing``).

    Raises
    ------
    InvalidParameterError
        When ``unfiltered`` is not a ``WefatResult`` measured without the name filter.
    """
    if not isinstance(unfiltered, _wefat.WefatResult) or unfiltered.dropped_by_filter:
        raise InvalidParameterError("unfiltered must be the WefatResult of WEFAT 2 on the printed names, without "
                                    "the name filter (wefat_table's results['WEFAT2'])")
    cand = stimuli.androgynous_name_candidates()
    rows = [_filter_row("printed 50 names (no further filter)", unfiltered)]
    for what, words, prop in [("printed 50, filter again (euclidean)", spec.W, spec.property),
                              ("60 census candidates, filter (euclidean)", tuple(cand.index), cand["percent_female"])]:
        try:
            res = _wefat.wefat(embedding, words, spec.A, spec.B, prop, case_fold=case_fold, name_filter=0.2)
        except DegenerateSetError as err:
            rows.append({"names": what, "n": 0, "pearson_r": np.nan, "p_value": np.nan, "dropped": str(err)})
            continue
        rows.append(_filter_row(what, res))
    return pd.DataFrame(rows)


def _filter_row(what: str, res) -> dict:
    return {"names": what, "n": res.n, "pearson_r": round(res.pearson_r, 3), "p_value": f"{res.p_value:.1e}",
            "dropped": " ".join(res.dropped_by_filter), "missing": " ".join(res.W.missing)}


def figure3_pairs(embedding, *, case_fold: bool = False) -> tuple[list[str], list[str]]:
    """The male and female words of Figure 3's gender pairs whose two words ``embedding`` has.

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like
        The embedding, or the name or path of one to load.
    case_fold : bool, default False
        Whether to look words up case-insensitively.

    Returns
    -------
    male : list of str
        The pairs' male words.
    female : list of str
        The pairs' female words, in the same order.

    Raises
    ------
    DegenerateSetError
        When the embedding has no complete pair.
    """
    pairs = stimuli.load_stimuli("caliskan2017")["figure3_pairs"]
    found = lookup.pair_vectors(embedding, pairs, name="figure 3 pairs", case_fold=case_fold)
    return [m for m, _ in found.pairs], [f for _, f in found.pairs]


def agreement(table1: pd.DataFrame, wefat_summary: pd.DataFrame, alpha: float = ALPHA) -> str:
    """Markdown: what agrees with the paper.

    The WEATs that agree with the paper in sign and significance, those that differ, the spread of
    ``|d - paper d|``, and each WEFAT's ρ beside the paper's.

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table`.
    wefat_summary : pandas.DataFrame
        :func:`wefat_summary` (the first item of :func:`wefat_table`).
    alpha : float, default ALPHA
        The significance level named in the text (the agreement is ``table1``'s).

    Returns
    -------
    str
        A Markdown list.
    """
    lines = []
    diff = (table1.effect_size - table1.paper_effect_size)
    agree = table1[table1.sign_agrees & table1.significance_agrees]
    differ = table1[~(table1.sign_agrees & table1.significance_agrees)]
    lines.append(f"* **{len(agree)} of {len(table1)} WEATs agree with the paper in sign and significance** "
                 f"(alpha = {alpha}): {', '.join(agree.test)}.")
    if len(differ):
        for _, r in differ.iterrows():
            lines.append(f"* {r.test} ({r.title}) differs: d = {r.effect_size:.2f} (paper {r.paper_effect_size:.2f}), "
                         f"p = {r.p_value:.2g} ({r.p_method}; paper {r.paper_p_text}).")
    lines.append(f"* Effect sizes: median |d − paper d| = {diff.abs().median():.3f}, largest {diff.abs().max():.3f}.")
    for _, r in wefat_summary.iterrows():
        lines.append(f"* {r.test}: ρ = {r.pearson_r:.2f} (paper {r.paper_r:.2f}), p = {r.p_value:.1e} "
                     f"(paper {r.paper_p_text}), n = {r.n}.")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# How much should we trust these numbers? Word influence, shorter lists, frequency
# --------------------------------------------------------------------------------------------------

#: the embedding whose frequency order stands in for one that has none (the alphabetical 840B subset)
REFERENCE_EMBEDDING = "glove-6b-50d"


def frequency_counts(embedding, reference=None) -> tuple[dict | None, str]:
    """The word counts and their source for :func:`frequency_table`.

    ``(None, "embedding order")`` when the embedding's own rows are in frequency order, else Zipf pseudo-counts
    from the order of ``reference`` with a ``source`` that says it is a proxy
    (:func:`wordbias.measures.diagnostics.frequency.reference_counts`).

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like
        The embedding, or the name or path of one to load.
    reference : KeyedVectors or str or path-like or None, default None
        The embedding whose frequency order stands in; ``None`` is the bundled :data:`REFERENCE_EMBEDDING`,
        loaded offline.

    Returns
    -------
    counts : dict or None
        The pseudo-counts, or ``None`` when the embedding's order is used.
    source : str
        Where the frequencies come from.
    """
    from wordbias import embeddings

    if not _frequency.looks_alphabetical(list(lookup.vocabulary(embedding))):
        return None, _frequency.EMBEDDING_ORDER
    name = REFERENCE_EMBEDDING if reference is None else embeddings.label(reference)
    ref = embeddings.load(REFERENCE_EMBEDDING if reference is None else reference, progress=False)
    return (_frequency.reference_counts(embedding, ref, case_fold=True),
            f"proxy: the frequency order of {name} (lower-cased look-up), since this embedding's rows are "
            "alphabetical")


def frequency_table(embedding, results: Sequence, *, counts=None, source: str | None = None,
                    alpha: float = ALPHA) -> pd.DataFrame:
    """Frequency checks of each measured WEAT, one row per test.

    Do the two target sets differ in frequency (two-sided Mann-Whitney p, the rank-biserial r > 0 when X is
    the rarer set, ``frequency_flag`` when p < ``alpha``), and does s(w, A, B) follow frequency (Spearman's ρ
    with log rank over X ∪ Y); ``no_rank`` lists the words without a rank.

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like
        The embedding, or the name or path of one to load.
    results : sequence of Result
        :func:`measure_table1`'s results.
    counts : dict or None, default None
        Word counts (:func:`frequency_counts`); ``None`` uses the embedding's order.
    source : str or None, default None
        Where the counts come from (:func:`frequency_counts`).
    alpha : float, default ALPHA
        Significance level of ``frequency_flag``.

    Returns
    -------
    pandas.DataFrame
        One row per test (:func:`wordbias.measures.diagnostics.frequency.weat_frequency`'s summary).
    """
    rows = []
    for m in results:
        rep = _frequency.weat_frequency(embedding, m, counts=counts, source=source, alpha=alpha)
        rows.append({"test": m.test, "title": m.title, **rep.summary(),
                     "no_rank": " ".join(w for ws in rep.missing.values() for w in ws)})
    return pd.DataFrame(rows)


def trust_notes(table1: pd.DataFrame, frequency: pd.DataFrame, influence, curve, test: str) -> str:
    """Markdown: how much to trust the numbers, computed from the tables.

    What the intervals, the adjusted p, one test's most influential words and drop curve, and the frequency
    checks say (nothing here is a stated fact of one embedding).

    Parameters
    ----------
    table1 : pandas.DataFrame
        :func:`weat_table`.
    frequency : pandas.DataFrame
        :func:`frequency_table`.
    influence : Influence
        One test's word influence (:func:`wordbias.measures.diagnostics.sensitivity.influence`).
    curve : DropCurve
        The same test's drop curve (:func:`wordbias.measures.diagnostics.sensitivity.drop_curve`).
    test : str
        That test's id.

    Returns
    -------
    str
        A Markdown list.
    """
    wide = table1.assign(width=table1.effect_size_ci_high - table1.effect_size_ci_low)
    crosses = wide[wide.effect_size_ci_low <= 0]
    holm_sig = int((table1.p_holm < ALPHA).sum())
    lines = [f"* **Intervals.** The 95% intervals of d run from {wide.width.min():.2f} "
             f"({wide.test[wide.width.idxmin()]}) to {wide.width.max():.2f} ({wide.test[wide.width.idxmax()]}) "
             f"wide; {len(crosses)} of {len(table1)} include 0"
             + (f" ({', '.join(crosses.test)})" if len(crosses) else "") + ".",
             f"* **Ten tests at once.** {int((table1.p_value < ALPHA).sum())} of {len(table1)} one-sided p are below "
             f"{ALPHA}; after Holm's correction {holm_sig}, after Benjamini-Hochberg's "
             f"{int((table1.p_bh < ALPHA).sum())}."]
    top = influence.top(3)
    lines.append(f"* **{test}'s words.** Without *{top.word[0]}* ({top.set[0]}) d would be "
                 f"{top.d_without[0]:.2f} instead of {influence.d:.2f}; the next most influential words are "
                 f"*{top.word[1]}* ({top.change[1]:+.2f}) and *{top.word[2]}* ({top.change[2]:+.2f}).")
    c = curve.to_frame()
    half = c.iloc[(c.fraction - 0.5).abs().argmin()]
    lines.append(f"* **Shorter lists.** Keeping {1 - half.fraction:.0%} of each list, d ranges over "
                 f"[{half['q0.025']:.2f}, {half['q0.975']:.2f}] (95% of {curve.n_draws:,} draws).")
    flagged = frequency[frequency.frequency_flag]
    lines.append(f"* **Frequency.** {len(flagged)} of {len(frequency)} tests have target sets that differ in "
                 f"frequency (Mann-Whitney p < {ALPHA})" + (f": {', '.join(flagged.test)}" if len(flagged) else "")
                 + f"; |Spearman ρ| of s(w, A, B) with log rank is at most {frequency.spearman_rho.abs().max():.2f}.")
    return "\n".join(lines)
