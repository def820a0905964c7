"""The paper notebooks' committed results, in lesson size: narrow tables with plain column names, read from
``results/`` (the full tables stay in the CSVs), and the one figure lesson 4 draws.

* Swinger, De-Arteaga, Heffernan, Leiserson & Kalai (2019), "What are the biases in my word embedding?", AIES,
  https://doi.org/10.1145/3306618.3314270: :func:`ube_summary`, :func:`ube_groups`, :func:`ube_associations`
  read what ``notebooks/swinger2019.ipynb`` wrote (its UBE run takes minutes, too long for a class); the words
  are bleep-censored as in the paper's Appendix A (:func:`wordbias.core.censor.censor`).
* The racial-bias report's direction test: :func:`plot_projections` draws each target word's projection on the
  racial direction from :func:`wordbias.papers.racial_bias_report.table1`'s ``projections``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.core import censor as _censor
from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError

__all__ = ["results_file", "read_results", "weat_table", "ube_summary", "ube_groups", "ube_associations", "direction_table",
           "plot_projections", "NAME_KINDS"]

#: the name lists of the Swinger notebook's runs
NAME_KINDS = ("first", "last")


def results_file(paper: str, name: str, embedding: str = "glove-6b-50d") -> Path:
    """``results/<paper>/<embedding>/<name>``, which a paper notebook wrote; a clear error when it is missing."""
    path = paths.RESULTS / paper / embedding / name
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: it is written by notebooks/{paper}.ipynb on {embedding} "
                                f"(`make` runs it; the repository commits it)")
    return path


def read_results(paper: str, name: str, embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """A committed results table as a DataFrame (:func:`results_file`)."""
    return pd.read_csv(results_file(paper, name, embedding))


def weat_table(table1: pd.DataFrame) -> pd.DataFrame:
    """The Caliskan notebook's ``table1.csv`` (Caliskan et al. 2017, Table 1) narrow, with plain column names:
    per test, the paper's d and ours with its 95% bootstrap interval, the one- and two-sided p and Holm's
    adjusted p (over the table's tests); indexed by test."""
    def p_text(p):
        return "" if pd.isna(p) else f"{p:.2g}"
    return pd.DataFrame({
        "test": table1["test"], "d (paper)": table1["paper_effect_size"], "d": table1["effect_size"].round(2),
        "95% interval of d": [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(table1["effect_size_ci_low"],
                                                                        table1["effect_size_ci_high"])],
        "p one-sided": table1["p_value"].map(p_text), "p two-sided": table1["p_two_sided"].map(p_text),
        "p Holm": table1["p_holm"].map(p_text)}).set_index("test")


def _kind(kind: str) -> str:
    if kind not in NAME_KINDS:
        raise InvalidParameterError(f"kind must be one of {NAME_KINDS}, not {kind!r}")
    return kind


def ube_summary(embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """The Swinger notebook's runs: names clustered, significant associations of all tests, and the share of
    significant four-tuples that are potential indirect biases (Table 4, Section 4.2), one row per run."""
    s = read_results("swinger2019", "summary.csv", embedding)
    return pd.DataFrame({"run": s["run"], "significant associations": s["n_significant"],
                         "tests": s["n_tests"], "smallest possible p": s["min_p"],
                         "% potential indirect bias": s["pct_indirect_bias"]}).set_index("run")


def ube_groups(kind: str = "first", embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """The name groups UBE found (Table 3), with statistics the algorithm never saw: % female (first names),
    mean year of birth, and the largest of the % Black, Hispanic, Asian, White shares."""
    g = read_results("swinger2019", f"{_kind(kind)}_groups.csv", embedding)
    shares = {"Black": "pct_black", "Hispanic": "pct_hispanic", "Asian": "pct_asian", "White": "pct_white"}
    largest = g[list(shares.values())].idxmax(axis=1).map({v: k for k, v in shares.items()})
    out = pd.DataFrame({"group": g["group"], "illustrative names": g["illustrative"],
                        "more names": g["more"]})
    if "pct_female" in g:
        out["% female"] = g["pct_female"].round(0).astype(int)
        out["mean birth year"] = g["mean_year"].round(0).astype(int)
    out["largest share"] = [f"{name} {g.loc[i, col]:.0f}%" for i, (name, col) in
                            enumerate(zip(largest, largest.map(shares)))]
    return out.set_index("group")


def ube_associations(kind: str = "first", *, top: int = 5, embedding: str = "glove-6b-50d",
                     censored: bool = True) -> pd.DataFrame:
    """The ``top`` WEATs UBE found (Table 5's rows, strongest first) as one row per significant association:
    the word category, the name group, its illustrative names and the three words; slurs bleep-censored unless
    ``censored=False`` (the CSV keeps the words)."""
    if not isinstance(top, int) or isinstance(top, bool) or top < 1:
        raise InvalidParameterError(f"top must be an integer >= 1, not {top!r}")
    grid = read_results("swinger2019", f"{_kind(kind)}_top12.csv", embedding).head(top)
    groups = ube_groups(kind, embedding)
    rows = []
    label = grid.columns[0]  # "category" or, since the categories are named, "category: most central words"
    for _, row in grid.iterrows():
        for group in grid.columns[1:]:
            words = row[group]
            if isinstance(words, str) and words:
                g = groups.loc[group]
                about = (f"{g['% female']}% female, " if "% female" in groups else "") + g["largest share"]
                rows.append({"category": row[label], "group": group,
                             "group's names (first 3)": ", ".join(g["illustrative names"].split(", ")[:3]),
                             "group (a posteriori)": about, "words": _censor.censor(words, enabled=censored)})
    return pd.DataFrame(rows)


def direction_table(table: pd.DataFrame) -> pd.DataFrame:
    """The racial-bias report's Table 1 (:func:`wordbias.papers.racial_bias_report.table1`'s ``table``) with
    plain column names, narrow: one row per attribute set; the interval of the bias, and the report's interval on
    p, which covers only the Monte Carlo error of p."""
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
    """Each target word's projection on the racial direction r = mean(A1) − mean(A2) for the attribute set
    ``kind``, the positive (T1) and negative (T2) words in two rows (a seaborn strip plot without jitter, so the
    figure is the same on every machine, and each row's mean as a diamond). ``result`` is a :class:`wordbias.papers.racial_bias_report.Table1`."""
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
