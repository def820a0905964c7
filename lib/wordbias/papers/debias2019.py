"""Debiasing and its limits: Gonen & Goldberg's (2019) checks of what hard debias leaves, on four methods.

The notebook ``notebooks/src/debias.ipynb`` (and ``wordbias debias``) reproduce on the bundled GloVe 6B 50d:

- Gonen & Goldberg (2019), "Lipstick on a Pig: Debiasing Methods Cover up Systematic Gender Biases in Word
  Embeddings But do not Remove Them", NAACL, pp. 609-614, doi:10.18653/v1/N19-1061: after hard debias the
  formerly biased words still cluster by gender, a classifier still recovers their gender, and their neighbours
  still reveal their old bias;
- with the later methods: double-hard debias (Wang et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.484), INLP
  (Ravfogel et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.647) and LEACE (Belrose et al. 2023, NeurIPS,
  arXiv:2306.03819), beside Bolukbasi et al.'s (2016) hard debias.

:data:`~wordbias.battery.debias.METHODS` names the four methods;
:func:`~wordbias.battery.debias.debias_methods` runs them (timed) on one embedding,
:func:`~wordbias.battery.debias.inlp_iterations` scales INLP's 35 iterations (GloVe 300d) to another dimension
(both importable from here too). The checks are :func:`wordbias.battery.debias.debias_table`'s (run with
:data:`SETTINGS`); the views of its table in :mod:`wordbias.battery.debias`:
:func:`~wordbias.battery.debias.methods_table` (what each method removed),
:func:`~wordbias.battery.debias.show_checks` (one row per check, one column per method, estimates with intervals),
:func:`~wordbias.battery.debias.mark_chance` (chance marked on
:func:`~wordbias.battery.debias.debias_figure`'s figure); here, the paper's: :func:`gap_notes` ("the measure
improved" against "the information is gone", as sentences generated from the table), :func:`paper_table` (the
numbers the papers report, ``data/debias2019/reported.csv``, beside ours) and :func:`timing_table`.
"""
from __future__ import annotations

import math

import pandas as pd

# the methods and the views of the checks table are the battery's (a user's embedding runs there, through
# ``wordbias debias``); the notebook reads them from here
from wordbias.battery.debias import CITATIONS as CITATIONS
from wordbias.battery.debias import METHODS as METHODS
from wordbias.battery.debias import DebiasRun as DebiasRun
from wordbias.battery.debias import _checks
from wordbias.battery.debias import debias_methods as debias_methods
from wordbias.battery.debias import inlp_iterations as inlp_iterations
from wordbias.battery.debias import mark_chance as mark_chance
from wordbias.battery.debias import methods_table as methods_table
from wordbias.battery.debias import show_checks as show_checks
from wordbias.battery.debias import write_checks as write_checks
from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError

__all__ = ["PAPER", "EMBEDDING", "REPORTED", "SETTINGS", "gap_notes", "reported_numbers", "paper_table",
           "timing_table"]

#: the outputs' paper folder (results/debias2019/, figures/debias2019/)
PAPER = "debias2019"
#: the committed run's embedding
EMBEDDING = "glove-6b-50d"
#: the reported numbers (with their citations: SOURCE.md beside it)
REPORTED = paths.DATA / "debias2019" / "reported.csv"
#: the notebook's settings of the checks: 1,000 bootstrap resamples (100 for the clustering, which refits K-means
#: on each), the analogies among the 30,000 most frequent words (word2vec's compute-accuracy threshold)
SETTINGS = {"n_resamples": 1000, "n_cluster_resamples": 100, "restrict_vocab": 30_000}


#: the labels of the papers' checks that are not ours
_THEIR_CHECKS = {"linear_svm_acc": "linear SVM accuracy (theirs only)", "mlp_acc": "MLP accuracy (theirs only)",
                 "cluster_v_measure": "K-means V-measure (theirs only)"}


def _covers(lo, hi, value) -> bool:
    return not (pd.isna(lo) or pd.isna(hi)) and lo <= value <= hi


def gap_notes(table: pd.DataFrame) -> str:
    """One sentence per method: did the measures it is judged by improve, and is the gender information gone?

    "The measure improved": DirectBias_1's interval lies below the original's, and WEAT 6's d is closer to 0
    (whether its interval now reaches 0 is said). "The information is gone" (to these checks): the clustering and
    the classifier are at chance (their intervals reach 0.5); otherwise the sentence says how much is still
    recoverable, and how much of the bias-by-neighbours correlation is left.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`wordbias.battery.debias.debias_table`'s table (with an ``original`` row).

    Returns
    -------
    str
        Markdown: a bullet per debiased method.

    Examples
    --------
    >>> cols = ["direct_bias", "direct_bias_low", "direct_bias_high", "cluster_acc", "cluster_acc_low",
    ...         "cluster_acc_high"]
    >>> t = pd.DataFrame([[0.17, 0.16, 0.19, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.9, 0.87, 0.93]], columns=cols,
    ...                  index=pd.Index(["original", "hard"], name="method"))
    >>> print(gap_notes(t))
    - **hard**: the measure improved (DirectBias_1 0.170 -> 0.000); the information is not gone: K-means still sorts 90% of the most biased words by their original gender (chance: 50%).
    """
    if "original" not in table.index:
        raise InvalidParameterError("the table needs an 'original' row (debias_table)")
    o = table.loc["original"]
    lines = []
    for method, r in table.drop(index="original").iterrows():
        improved, kept = [], []
        if "direct_bias" in table and pd.notna(r.direct_bias):
            better = r.direct_bias_high < o.direct_bias_low
            improved.append((better, f"DirectBias_1 {o.direct_bias:.3f} -> {r.direct_bias:.3f}"))
        if "weat6_d" in table and pd.notna(r.weat6_d):
            closer = abs(r.weat6_d) < abs(o.weat6_d)
            zero = "its interval reaches 0" if _covers(r.weat6_d_low, r.weat6_d_high, 0) else "its interval excludes 0"
            improved.append((closer, f"WEAT 6 d {o.weat6_d:.2f} -> {r.weat6_d:.2f}, {zero}"))
        if "cluster_acc" in table and pd.notna(r.cluster_acc):
            gone = _covers(r.cluster_acc_low, r.cluster_acc_high, 0.5)
            kept.append((gone, f"K-means still sorts {r.cluster_acc:.0%} of the most biased words by their original "
                               "gender (chance: 50%)"))
        if "classifier_acc" in table and pd.notna(r.classifier_acc):
            gone = _covers(r.classifier_acc_low, r.classifier_acc_high, 0.5)
            kept.append((gone, f"an RBF-SVM recovers the gender of {r.classifier_acc:.0%} of unseen biased words "
                               "(chance: 50%)"))
        if "neighbour_r" in table and pd.notna(r.neighbour_r):
            kept.append((_covers(r.neighbour_r_low, r.neighbour_r_high, 0.0),
                         f"a word's neighbours still correlate with its original bias at r = {r.neighbour_r:.2f} "
                         f"(original {o.neighbour_r:.2f})"))
        if not improved:
            head = "no measure of the bias was computed"
        elif all(ok for ok, _ in improved):
            head = "the measure improved (" + "; ".join(t for _, t in improved) + ")"
        else:
            head = "the measures did not all improve (" + "; ".join(t for _, t in improved) + ")"
        not_gone = [t for gone, t in kept if not gone]
        if kept and not not_gone:
            tail = "and the gender information is gone to these checks (each at chance)"
        elif not_gone:
            tail = "the information is not gone: " + "; ".join(not_gone)
        else:
            tail = ""
        lines.append(f"- **{method}**: {head}" + (f"; {tail}." if tail else "."))
    return "\n".join(lines)


def reported_numbers(path=None) -> pd.DataFrame:
    """The numbers Gonen & Goldberg (2019) and Ravfogel et al. (2020) report, as data (``data/debias2019``).

    Parameters
    ----------
    path : path-like, optional
        The CSV; by default :data:`REPORTED`.

    Returns
    -------
    pandas.DataFrame
        One row per reported number: ``paper``, ``their_embedding``, ``method`` (ours it compares with),
        ``check`` (a key of :data:`wordbias.battery.debias.CHECKS`, or another check they ran), ``before``,
        ``after``, ``where`` (section, figure or notebook cell), ``confirmed`` (``paper``, ``notebook`` or
        ``no``), ``note``.

    Examples
    --------
    >>> r = reported_numbers()
    >>> sorted(r.confirmed.unique())
    ['notebook', 'paper']
    """
    frame = pd.read_csv(REPORTED if path is None else path, comment="#")
    missing = {"paper", "their_embedding", "method", "check", "before", "after", "where", "confirmed",
               "note"} - set(frame.columns)
    if missing:
        raise InvalidParameterError(f"{path or REPORTED}: columns {sorted(missing)} missing")
    return frame


def paper_table(table: pd.DataFrame, reported: pd.DataFrame | None = None) -> pd.DataFrame:
    """The papers' numbers beside ours: one row per reported number.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`wordbias.battery.debias.debias_table`'s table (ours, on our embedding).
    reported : pandas.DataFrame, optional
        :func:`reported_numbers`'s frame (by default read from :data:`REPORTED`).

    Returns
    -------
    pandas.DataFrame
        Columns ``paper``, ``their embedding``, ``method``, ``check``, ``theirs before``, ``theirs after``,
        ``confirmed``, ``ours before``, ``ours after`` (our original's and our method's estimates; empty where we
        do not run that check or method).
    """
    reported = reported_numbers() if reported is None else reported
    rows = []
    for _, r in reported.iterrows():
        key, method = r["check"], r["method"]
        ours = key in table.columns
        labels = _checks(table).get(key, (_THEIR_CHECKS.get(key, key), ""))[0]
        rows.append({
            "paper": r["paper"], "their embedding": r["their_embedding"], "method": method, "check": labels,
            "theirs before": r["before"], "theirs after": r["after"], "confirmed": r["confirmed"],
            "ours before": table.loc["original", key] if ours and "original" in table.index else math.nan,
            "ours after": table.loc[method, key] if ours and method in table.index else math.nan,
        })
    return pd.DataFrame(rows)


def timing_table(run: DebiasRun, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Seconds: each method's run and, with the checks table, each check on each embedding.

    Parameters
    ----------
    run : DebiasRun
        :func:`debias_methods`'s run.
    table : pandas.DataFrame, optional
        :func:`wordbias.battery.debias.debias_table`'s table (its ``attrs["seconds"]``).

    Returns
    -------
    pandas.DataFrame
        Indexed by method (``original`` first when the checks are given): ``debias`` seconds, then one column per
        check, ``checks, total`` and ``checks cached`` (True where the table was read from the cache: its seconds
        are then those of the run that measured it).
    """
    frame = pd.DataFrame({"debias": pd.Series(run.seconds, dtype=float)})
    if table is not None and "seconds" in table.attrs:
        checks = pd.DataFrame(table.attrs["seconds"]).T
        checks["checks, total"] = checks.sum(axis=1)
        frame = checks.join(frame, how="left")[["debias", *checks.columns]]
        frame["checks cached"] = bool(table.attrs.get("cached", False))
    frame.index.name = "method"
    return frame.round(2)
