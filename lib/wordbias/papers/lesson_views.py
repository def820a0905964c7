"""Lesson-size views of the paper notebooks' committed results.

The lessons show what the paper modules show. The Swinger et al. (2019) views are in
:mod:`wordbias.papers.swinger2019` (:func:`~wordbias.papers.swinger2019.ube_summary`,
:func:`~wordbias.papers.swinger2019.ube_groups`, :func:`~wordbias.papers.swinger2019.ube_associations`); this
module has the others:

* :func:`results_file`, :func:`read_results`: a committed results table, with a clear error when it is missing
  (where the notebooks write is :mod:`wordbias.papers.outputs`);
* :func:`weat_table`: Caliskan et al.'s (2017) Table 1 from ``table1.csv``, narrow
  (:mod:`wordbias.papers.caliskan2017`, whose ``show_table1`` and ``show_adjusted_p`` show the table in two parts);
* :func:`direction_table`, :func:`plot_projections`: the racial-bias report's Table 1, narrow, and each target
  word's projection on the racial direction (:mod:`wordbias.papers.racial_bias_report`);
* :func:`professions`, :func:`direct_bias`, :func:`debias_checks_table`, :func:`show_debias_checks`: Lesson 7's
  checks of a debiased embedding side by side, each with the value it would take if the bias were gone
  (:data:`DEBIAS_TARGETS`; the full table is :mod:`wordbias.papers.debias2019`'s).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError

__all__ = ["DEBIAS_TARGETS", "debias_checks_table", "direct_bias", "direction_table", "plot_projections",
           "professions", "read_results", "results_file", "show_debias_checks", "weat_table"]


def results_file(paper: str, name: str, *, embedding: str = "glove-6b-50d") -> Path:
    """``results/<paper>/<embedding>/<name>``, a table a paper notebook wrote.

    Parameters
    ----------
    paper : str
        The paper's notebook (e.g. ``"caliskan2017"``).
    name : str
        The file's name (e.g. ``"table1.csv"``).
    embedding : str, default "glove-6b-50d"
        The embedding (or models) label of the run.

    Returns
    -------
    pathlib.Path
        The file.

    Raises
    ------
    FileNotFoundError
        When the file is missing (the message says which notebook writes it).
    """
    path = paths.COMMITTED_RESULTS / paper / embedding / name
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: it is written by notebooks/{paper}.ipynb on {embedding} "
                                f"(`make` runs it; the repository commits it)")
    return path


def read_results(paper: str, name: str, *, embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """A committed results table as a DataFrame (:func:`results_file`).

    Parameters
    ----------
    paper, name, embedding : str
        The paper's notebook, the file's name and the run's label, as :func:`results_file` takes them
        (``embedding`` default "glove-6b-50d").

    Returns
    -------
    pandas.DataFrame
        The table.

    Raises
    ------
    FileNotFoundError
        When the file is missing.
    """
    return pd.read_csv(results_file(paper, name, embedding=embedding))


def weat_table(table1: pd.DataFrame) -> pd.DataFrame:
    """The Caliskan notebook's ``table1.csv`` (Caliskan et al. 2017, Table 1) narrow, with plain column names.

    Per test, the paper's d and ours with its 95% bootstrap interval, the one- and two-sided p and Holm's
    adjusted p (over the table's tests).

    Parameters
    ----------
    table1 : pandas.DataFrame
        The notebook's ``table1.csv`` (:func:`wordbias.papers.caliskan2017.table1`).

    Returns
    -------
    pandas.DataFrame
        Indexed by test.
    """
    def p_text(p):
        return "" if pd.isna(p) else f"{p:.2g}"
    return pd.DataFrame({
        "test": table1["test"], "d (paper)": table1["paper_effect_size"], "d": table1["effect_size"].round(2),
        "95% interval of d": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(table1["effect_size_ci_low"],
                                                                        table1["effect_size_ci_high"])],
        "p one-sided": table1["p_value"].map(p_text), "p two-sided": table1["p_two_sided"].map(p_text),
        "p Holm": table1["p_holm"].map(p_text)}).set_index("test")


def direction_table(table: pd.DataFrame) -> pd.DataFrame:
    """The racial-bias report's Table 1 with plain column names, narrow.

    One row per attribute set; the interval of the bias, and the report's interval on p, which covers only the
    Monte Carlo error of p.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`wordbias.papers.racial_bias_report.table1`'s ``table``.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``attributes``.
    """
    return pd.DataFrame({
        "attributes": table["attributes"],
        "words (white/black)": [f"{a}/{b}" for a, b in zip(table["n_A1"], table["n_A2"])],
        "bias cos(r, s)": table["bias"].round(3),
        "95% interval of the bias": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(table["bias_ci_low"],
                                                                               table["bias_ci_high"])],
        "angle (°)": table["angle"].round(1),
        "p one-sided": table["p"].map(lambda p: f"{p:.3g}"),
        "precision of p (95%)": [f"[{lo:.3g}, {hi:.3g}]" for lo, hi in zip(table["p_ci_low"], table["p_ci_high"])],
        "p two-sided": table["p_two_sided"].map(lambda p: f"{p:.3g}"),
    }).set_index("attributes")


def plot_projections(result, kind: str, *, label: str | None = None, ax=None):
    """Each target word's projection on the racial direction r = mean(A1) − mean(A2).

    For the attribute set ``kind``, the positive (T1) and negative (T2) words in two rows (a seaborn strip plot
    without jitter, so the figure is the same on every machine, and each row's mean as a diamond).

    Parameters
    ----------
    result : Table1
        A :class:`wordbias.papers.racial_bias_report.Table1`.
    kind : {"implicit", "explicit", "stereotypical"}
        The attribute set.
    label : str or None, default None
        The embedding's label; ``None`` takes the first.
    ax : matplotlib.axes.Axes or None, default None
        Where to draw; ``None`` makes a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on (that of ``ax`` when one is given).

    Raises
    ------
    InvalidParameterError
        When ``result`` has no projections for ``(label, kind)``.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    label = label or result.labels[0]
    if (label, kind) not in result.projections:
        raise InvalidParameterError(f"no projections for ({label!r}, {kind!r}); have {list(result.projections)}")
    (t1, t2), p1, p2 = result.projections[label, kind]
    frame = pd.DataFrame({"projection on r": np.concatenate([p1, p2]),
                          "target words": ["positive (T1)"] * len(t1) + ["negative (T2)"] * len(t2)})
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.2))
    palette = {"positive (T1)": "tab:blue", "negative (T2)": "tab:red"}
    sns.stripplot(data=frame, x="projection on r", y="target words", hue="target words", palette=palette,
                  jitter=False, alpha=0.55, size=6, legend=False, ax=ax)
    sns.pointplot(data=frame, x="projection on r", y="target words", hue="target words", palette=palette,
                  estimator="mean", errorbar=None, markers="D", markersize=9, linestyle="none", legend=False, ax=ax)
    ax.axvline(0, ls=":", color="black")
    ax.set_ylabel("")
    ax.set_xlabel(f"projection on the racial direction ({kind} attributes): towards A1 (white) →")
    ax.figure.tight_layout()
    return ax.figure


# --------------------------------------------------------------------------------------------------
# Lesson 7: did debiasing remove the bias? (Gonen & Goldberg 2019)
# --------------------------------------------------------------------------------------------------

#: Lesson 7's checks and the value each would take if the bias were gone: 0 for an effect size, a direct bias or a
#: correlation; 0.5 (chance) for the accuracy of recovering a word's old side; None for a utility check, whose
#: target is the original embedding's own value
DEBIAS_TARGETS = {"WEAT 6 d": 0.0, "direct bias": 0.0, "cluster accuracy": 0.5, "classifier accuracy": 0.5,
                  "neighbour r": 0.0, "SimLex-999 ρ": None, "family analogies": None}


def professions(embedding) -> list[str]:
    """Bolukbasi et al.'s (2016) professions that are no gender-specific word, in the embedding.

    The words the direct bias is measured on (``data/debiaswe/professions.json`` in the embedding's form, less
    Gonen & Goldberg's gender-specific words, :func:`wordbias.measures.debiasing.debias_checks.gender_specific_words`: so
    "nurse" and "engineer" stay, "actress" and "businessman" go), in the list's order.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.

    Returns
    -------
    list of str
        The professions.
    """
    from wordbias.measures.debiasing import debias, debias_checks

    specific = set(debias_checks.gender_specific_words(embedding))
    return [w for w in debias.word_lists_for(embedding).professions
            if w in embedding.key_to_index and w not in specific]


def direct_bias(embedding, words, g, *, n_resamples: int = 1000, seed: int = 0, confidence_level: float = 0.95):
    """Bolukbasi et al.'s DirectBias_1 of ``words``, the mean ∣cos(w, g)∣, with a percentile bootstrap over the words.

    :func:`wordbias.measures.directions.direction.direct_bias` (c = 1) as a
    :class:`~wordbias.measures.debiasing.debias_checks.CheckResult`, so that Lesson 7's table shows it with an interval like
    the other checks.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding measured.
    words : sequence of str
        The gender-neutral words (:func:`professions`).
    g : array_like
        The gender direction (e.g. :class:`~wordbias.measures.debiasing.debias.HardDebiasReport`'s ``direction``).
    n_resamples : int, default 1000
        Bootstrap resamples of the words.
    seed : int, default 0
        Seed of the bootstrap.
    confidence_level : float, default 0.95
        The interval's level.

    Returns
    -------
    wordbias.measures.debiasing.debias_checks.CheckResult
        The direct bias, its interval, the words.
    """
    from wordbias.core import lookup
    from wordbias.measures.debiasing import debias_checks
    from wordbias.measures.directions import direction as _direction

    words = list(words)
    X = lookup.set_matrix(embedding, words, "words")
    value, lo, hi = _direction.direct_bias_percentile(X, g, n_resamples=n_resamples, seed=seed,
                                                      level=confidence_level)
    return debias_checks.CheckResult(
        check="direct bias", estimate=value, ci_low=lo, ci_high=hi, ci_level=confidence_level,
        ci_method=f"percentile bootstrap over words, {n_resamples:,} resamples", n=len(words), words=tuple(words),
        seed=seed)


def _estimate(value) -> tuple[float, float, float]:
    """(estimate, low, high) of a check result, a measured WEAT or a bare number."""
    if hasattr(value, "estimate"):
        return float(value.estimate), float(value.ci_low), float(value.ci_high)
    if hasattr(value, "effect_size"):
        return float(value.effect_size), float(value.ci_low), float(value.ci_high)
    return float(value), float("nan"), float("nan")


def debias_checks_table(results) -> pd.DataFrame:
    """Lesson 7's checks of each embedding, one row per (embedding, check), with the target of each check.

    Parameters
    ----------
    results : mapping of str to mapping of str to result
        Embedding (``"original"``, ``"hard debias"``, ...) -> check name (a key of :data:`DEBIAS_TARGETS`, or
        another) -> its result: a :class:`~wordbias.measures.debiasing.debias_checks.CheckResult`, a measured WEAT
        (:class:`~wordbias.result.Result`) or a number.

    Returns
    -------
    pandas.DataFrame
        Columns ``method``, ``check``, ``estimate``, ``ci_low``, ``ci_high`` and ``target`` (NaN for a check
        without one: utility, or a check not in :data:`DEBIAS_TARGETS`), in the order given.
    """
    rows = []
    for method, checks_ in results.items():
        for check, value in checks_.items():
            est, lo, hi = _estimate(value)
            target = DEBIAS_TARGETS.get(check)
            rows.append({"method": method, "check": check, "estimate": est, "ci_low": lo, "ci_high": hi,
                         "target": np.nan if target is None else float(target)})
    return pd.DataFrame(rows, columns=["method", "check", "estimate", "ci_low", "ci_high", "target"])


def show_debias_checks(table: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """:func:`debias_checks_table` wide: one row per check, its target, and one column per embedding, each cell
    "estimate [low, high]".

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`debias_checks_table`'s table.
    digits : int, default 2
        Decimals shown.

    Returns
    -------
    pandas.DataFrame
        Indexed by check, in the order of the table.
    """
    def cell(row):
        if pd.isna(row.ci_low):
            return f"{row.estimate:.{digits}f}"
        return f"{row.estimate:.{digits}f} [{row.ci_low:.{digits}f}, {row.ci_high:.{digits}f}]"

    shown = table.assign(text=[cell(r) for r in table.itertuples()])
    wide = shown.pivot(index="check", columns="method", values="text")
    order = list(dict.fromkeys(table["check"]))
    wide = wide.loc[order, list(dict.fromkeys(table["method"]))]
    targets = table.drop_duplicates("check").set_index("check")["target"]
    wide.insert(0, "if the bias were gone", [("as the original" if pd.isna(targets[c]) else
                                              "0.5 (chance)" if targets[c] == 0.5 else f"{targets[c]:g}")
                                             for c in order])
    wide.columns.name = None
    return wide
