"""Debiasing and its limits: Gonen & Goldberg's (2019) checks of what hard debias leaves, on four methods.

The notebook ``notebooks/src/debias.ipynb`` (and ``wordbias debias``) reproduce on the bundled GloVe 6B 50d:

- Gonen & Goldberg (2019), "Lipstick on a Pig: Debiasing Methods Cover up Systematic Gender Biases in Word
  Embeddings But do not Remove Them", NAACL, pp. 609-614, doi:10.18653/v1/N19-1061: after hard debias the
  formerly biased words still cluster by gender, a classifier still recovers their gender, and their neighbours
  still reveal their old bias;
- with the later methods: double-hard debias (Wang et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.484), INLP
  (Ravfogel et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.647) and LEACE (Belrose et al. 2023, NeurIPS,
  arXiv:2306.03819), beside Bolukbasi et al.'s (2016) hard debias.

:data:`METHODS` names the four methods; :func:`debias_methods` runs them (timed) on one embedding,
:func:`inlp_iterations` scales INLP's 35 iterations (GloVe 300d) to another dimension. The checks are
:func:`wordbias.battery.debias.debias_table`'s (run with :data:`SETTINGS`); the views of its table:
:func:`methods_table` (what each method removed), :func:`show_checks` (one row per check, one column per method,
estimates with intervals), :func:`mark_chance` (chance marked on
:func:`~wordbias.battery.debias.debias_figure`'s figure), :func:`gap_notes` ("the measure improved" against "the
information is gone", as sentences generated from the table), :func:`paper_table` (the numbers the papers report,
``data/debias2019/reported.csv``, beside ours) and :func:`timing_table`.
"""
from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.tables import interval_digits
from wordbias.core.validation import check_int, check_seed

__all__ = ["PAPER", "EMBEDDING", "METHODS", "CITATIONS", "REPORTED", "SETTINGS", "DebiasRun", "inlp_iterations",
           "debias_methods", "methods_table", "write_checks", "show_checks", "mark_chance", "gap_notes",
           "reported_numbers", "paper_table", "timing_table"]

#: the outputs' paper folder (results/debias2019/, figures/debias2019/)
PAPER = "debias2019"
#: the committed run's embedding
EMBEDDING = "glove-6b-50d"
#: the methods, in the order of the tables
METHODS = ("hard", "double-hard", "inlp", "leace")
#: each method's paper
CITATIONS = {
    "hard": "Bolukbasi et al. 2016, NIPS (hard debias: neutralize and equalize)",
    "double-hard": "Wang et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.484",
    "inlp": "Ravfogel et al. 2020, ACL, doi:10.18653/v1/2020.acl-main.647",
    "leace": "Belrose et al. 2023, NeurIPS, arXiv:2306.03819",
}
#: the reported numbers (with their citations: SOURCE.md beside it)
REPORTED = paths.DATA / "debias2019" / "reported.csv"
#: the notebook's settings of the checks: 1,000 bootstrap resamples (100 for the clustering, which refits K-means
#: on each), the analogies among the 30,000 most frequent words (word2vec's compute-accuracy threshold)
SETTINGS = {"n_resamples": 1000, "n_cluster_resamples": 100, "restrict_vocab": 30_000}

#: the checks whose interval is a bootstrap (the others' are Wilson score intervals: no Monte Carlo error)
_BOOTSTRAPPED = ("weat6_d", "direct_bias", "cluster_acc", "neighbour_r", "profession_r", "wordsim_rho",
                 "simlex_rho")


#: the labels of the papers' checks that are not ours
_THEIR_CHECKS = {"linear_svm_acc": "linear SVM accuracy (theirs only)", "mlp_acc": "MLP accuracy (theirs only)",
                 "cluster_v_measure": "K-means V-measure (theirs only)"}


@dataclass(frozen=True)
class DebiasRun:
    """The debiased embeddings of :func:`debias_methods`, with what each method did and how long it took.

    Attributes
    ----------
    embeddings : dict
        Method -> debiased ``KeyedVectors`` (the original's vocabulary and order).
    reports : dict
        Method -> the method's report (:class:`~wordbias.measures.debiasing.debias.HardDebiasReport`,
        :class:`~wordbias.measures.debiasing.double_hard.DoubleHardDebiasReport`, :class:`~wordbias.measures.debiasing.inlp.InlpReport`,
        :class:`~wordbias.measures.debiasing.leace.LeaceReport`).
    seconds : dict
        Method -> wall seconds.
    label : str
        The original embedding's label.
    seed : int
        The seed every method used.
    inlp_iterations : int
        INLP's iterations.
    """

    embeddings: dict = field(repr=False)
    reports: dict = field(repr=False)
    seconds: dict
    label: str
    seed: int
    inlp_iterations: int


def inlp_iterations(dim: int, *, paper_iterations: int = 35, paper_dim: int = 300) -> int:
    """INLP's iterations scaled to an embedding's dimension: the paper's 35 for GloVe 300d, in proportion.

    Ravfogel et al. (2020, Section 6.1) ran 35 iterations of a 3-class linear SVM on GloVe 300d; each iteration
    removes up to 3 dimensions (one per class, one-vs-rest), so 35 iterations may remove up to 105 of 300
    (they removed 92: rank 300 -> 208 in their notebook). Keeping the share of dimensions the same,
    ``round(35 * dim / 300)``, at least 1: 6 iterations (up to 18 of 50 dimensions) for GloVe 6B 50d.

    Parameters
    ----------
    dim : int
        The embedding's dimension.
    paper_iterations : int, default 35
        The iterations of the paper's run.
    paper_dim : int, default 300
        The dimension of the paper's embedding.

    Returns
    -------
    int
        The iterations.

    Examples
    --------
    >>> inlp_iterations(50), inlp_iterations(300), inlp_iterations(2)
    (6, 35, 1)
    """
    dim = check_int("dim", dim, min=1)
    paper_iterations = check_int("paper_iterations", paper_iterations, min=1)
    paper_dim = check_int("paper_dim", paper_dim, min=1)
    return max(1, round(paper_iterations * dim / paper_dim))


def _check_methods(methods) -> tuple[str, ...]:
    if isinstance(methods, str) or not isinstance(methods, Sequence) or not methods:
        raise InvalidParameterError(f"methods must be a non-empty list of {list(METHODS)}, not {methods!r}")
    bad = [m for m in methods if m not in METHODS]
    if bad:
        raise InvalidParameterError(f"unknown debiasing method(s) {bad}: choose among {list(METHODS)}")
    if len(set(methods)) != len(methods):
        raise InvalidParameterError(f"a method is given twice: {list(methods)}")
    return tuple(methods)


#: Ravfogel et al.'s words per class (their released notebook: 7,500 male- and 7,500 female-biased words and as many
#: neutral ones among the 150,000 most frequent)
WORDS_PER_CLASS = 7_500


def words_per_class(kv) -> int:
    """The biased words per class INLP and LEACE are fit on: Ravfogel et al.'s 7,500, or a quarter of a smaller
    vocabulary (three classes of that size must fit among its words), so that an embedding trained on a small
    corpus (the Brown corpus: 13,919 words) can be debiased too; the reports say how many were used.

    Parameters
    ----------
    kv : KeyedVectors
        The embedding.

    Returns
    -------
    int
        min(7,500, vocabulary // 4).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words_per_class(to_keyed_vectors([f"w{i}" for i in range(13_919)], np.zeros((13_919, 2), np.float32)))
    3479
    """
    return max(1, min(WORDS_PER_CLASS, len(kv.index_to_key) // 4))


def debias_methods(embedding, methods: Sequence[str] = METHODS, *, seed: int = 0, label: str | None = None,
                   n_iterations: int | None = None, progress=None) -> DebiasRun:
    """Run debiasing methods on one embedding, each with its defaults (the authors' word lists and settings).

    ``hard``: :func:`wordbias.measures.debiasing.debias.hard_debias`; ``double-hard``:
    :func:`wordbias.measures.debiasing.double_hard.double_hard_debias`; ``inlp``: :func:`wordbias.measures.debiasing.inlp.inlp_debias`
    (3 classes, male/female/neutral words of Ravfogel et al.'s Section 6.1, ``n_iterations`` iterations);
    ``leace``: :func:`wordbias.measures.debiasing.leace.leace_debias` (the male and female words). Each returns a new float32
    matrix; the original is not modified.

    Parameters
    ----------
    embedding : KeyedVectors or str
        The embedding (anything :func:`wordbias.embeddings.load` takes).
    methods : sequence of str, default METHODS
        Among :data:`METHODS`, each once.
    seed : int, default 0
        The seed of every random step (double-hard's K-means, INLP's split and classifiers, the neutral words).
    label : str, optional
        The embedding's label (the reports' ``<label>+<method>``); default: its registered name or ``"embedding"``.
    n_iterations : int, optional
        INLP's iterations; by default :func:`inlp_iterations` of the dimension.
    progress : callable, optional
        Called with one line per method as it ends (e.g. ``print``).

    Returns
    -------
    DebiasRun
        The debiased embeddings, the reports and the times.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If a method is unknown or given twice, or an option is out of range.

    Examples
    --------
    >>> debias_methods("glove-6b-50d", ["hard", "lipstick"])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: unknown debiasing method(s) ['lipstick']: choose among ['hard', 'double-hard', 'inlp', 'leace']
    """
    from wordbias import embeddings as _embeddings
    from wordbias.measures.debiasing import debias, double_hard, inlp, leace

    methods = _check_methods(methods)
    seed = check_seed("seed", seed)
    if isinstance(seed, np.random.Generator):
        raise InvalidParameterError("seed must be an integer here")
    if progress is not None and not callable(progress):
        raise InvalidParameterError(f"progress must be a callable (e.g. print) or None, not {progress!r}")
    if label is None:
        label = embedding if isinstance(embedding, str) and embedding in _embeddings.REGISTRY else "embedding"
    kv = inlp._as_kv(embedding)
    iterations = (inlp_iterations(kv.vector_size) if n_iterations is None
                  else check_int("n_iterations", n_iterations, min=1))
    n_class = words_per_class(kv)
    chosen: dict = {}

    def words(neutral: bool):  # Ravfogel et al.'s selection, sized to the vocabulary, chosen once
        if "b" not in chosen:
            chosen["b"] = inlp.biased_words(kv, n_per_class=n_class, seed=seed)
        return chosen["b"].as_classes(neutral=neutral)

    runners = {
        "hard": lambda: debias.hard_debias(kv),
        "double-hard": lambda: double_hard.double_hard_debias(kv, seed=seed, label=label,
                                                              n_biased=min(1000, n_class)),
        "inlp": lambda: inlp.inlp_debias(kv, words(True), n_iterations=iterations, seed=seed, label=label),
        "leace": lambda: leace.leace_debias(kv, words(False), seed=seed, label=label),
    }
    out, reports, seconds = {}, {}, {}
    for m in methods:
        start = time.perf_counter()
        out[m], reports[m] = runners[m]()
        seconds[m] = time.perf_counter() - start
        if progress is not None:
            progress(f"{label}+{m}: {seconds[m]:.1f} s")
    return DebiasRun(out, reports, seconds, label, seed, iterations)


def _removed(method: str, report) -> str:
    if method == "hard":
        return (f"1 direction (PCA of {len(report.definitional_pairs)} definitional pairs, "
                f"{report.explained_variance_ratio[0]:.0%} of their variance), from {report.n_neutralized:,} words; "
                f"{len(report.equalized_pairs)} pairs equalized")
    if method == "double-hard":
        return (f"principal component {report.chosen_component + 1} (the frequency direction chosen by "
                f"K-means on {len(report.male_words):,} + {len(report.female_words):,} biased words), then hard "
                f"debias")
    if method == "inlp":
        its = len(report.iterations)
        return (f"{report.rank} dimensions ({its} iterations of a linear SVM on {len(report.classes)} classes); "
                f"held-out accuracy {report.accuracy_before:.2f} -> {report.accuracy_after:.2f} "
                f"(majority {report.majority_accuracy:.2f})")
    if method == "leace":
        n = sum(len(v) for v in report.words_by_class.values())
        after = "< 1e-6" if report.mean_gap_after < 1e-6 else f"{report.mean_gap_after:.2g}"
        return (f"rank {report.rank} (LEACE fitted on {n:,} male/female words); class-mean gap "
                f"{report.mean_gap_before:.2f} -> {after}")
    return ""


def methods_table(run: DebiasRun) -> pd.DataFrame:
    """What each method removed, and its paper.

    Parameters
    ----------
    run : DebiasRun
        :func:`debias_methods`'s run.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``method``: ``paper`` and ``removed`` (text; no times, which change from run to run:
        :func:`timing_table`).
    """
    if not isinstance(run, DebiasRun):
        raise InvalidParameterError(f"run must be a DebiasRun (debias_methods), not {type(run).__name__}")
    rows = [{"method": m, "paper": CITATIONS[m], "removed": _removed(m, r)} for m, r in run.reports.items()]
    return pd.DataFrame(rows).set_index("method")


def write_checks(table: pd.DataFrame, path) -> None:
    """Write the checks table as CSV (``method`` then every column, 6 significant digits), each value rounded to
    8 decimals first: a value below 5e-9 is the floating-point rounding of 0 (hard debias's DirectBias_1 is
    about 3e-9 on GloVe 6B 50d) and would differ in its digits from one CPU's kernels to another's.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`wordbias.battery.debias.debias_table`'s table.
    path : path-like
        The CSV file (written atomically).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> t = pd.DataFrame({"direct_bias": [0.17349, 2.7e-09]}, index=pd.Index(["original", "hard"], name="method"))
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "checks.csv"
    >>> write_checks(t, f)
    >>> print(f.read_text().strip())
    method,direct_bias
    original,0.17349
    hard,0
    """
    from wordbias.core.tidy import write_csv  # atomic, safe to open in a spreadsheet

    write_csv(table.round(8).reset_index(), path, what="the checks table", float_format="%.6g")


def _checks(table: pd.DataFrame) -> dict:
    """The table's checks: key -> (label, goal), as ``debias_table`` stores them in ``attrs["checks"]``."""
    checks = table.attrs.get("checks")
    if isinstance(checks, Mapping) and checks:
        return dict(checks)
    return {k[:-4]: (k[:-4], "") for k in table.columns if k.endswith("_low")}


def _resamples(table: pd.DataFrame, key: str) -> int | None:
    if key == "cluster_acc":
        return table.attrs.get("n_cluster_resamples")
    return table.attrs.get("n_resamples") if key in _BOOTSTRAPPED else None


def show_checks(table: pd.DataFrame) -> pd.DataFrame:
    """The checks table as text: one row per check, one column per method, ``estimate [low, high]``.

    A bootstrap interval's bounds carry the decimals its Monte Carlo error supports
    (:func:`wordbias.core.tables.interval_digits`, from the resamples in ``table.attrs``); a Wilson interval
    (analogies, classifier) has none and is shown to 3 decimals; estimates to 3.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`wordbias.battery.debias.debias_table`'s table.

    Returns
    -------
    pandas.DataFrame
        Indexed by the check's label (``table.attrs["checks"]``, else its key), with a ``debiased: ...`` column
        (what a debiased embedding should show) and one column per method.

    Examples
    --------
    >>> t = pd.DataFrame({"cluster_acc": [1.0, 0.9], "cluster_acc_low": [0.99, 0.871],
    ...                   "cluster_acc_high": [1.0, 0.923]}, index=pd.Index(["original", "hard"], name="method"))
    >>> t.attrs.update(n_cluster_resamples=100, checks={"cluster_acc": ("cluster accuracy", "towards 0.5")})
    >>> show_checks(t).loc["cluster accuracy", "hard"]
    '0.900 [0.87, 0.92]'
    """
    if not isinstance(table, pd.DataFrame):
        raise InvalidParameterError(f"table must be a DataFrame (debias_table), not {type(table).__name__}")
    checks = {k: v for k, v in _checks(table).items() if k in table.columns}
    if not checks:
        raise InvalidParameterError(f"the table holds none of the checks {list(_checks(table))}")
    rows = []
    for key, (label, goal) in checks.items():
        row = {"check": label, "debiased:": goal}
        n = _resamples(table, key)
        for method, r in table.iterrows():
            est, lo, hi = r[key], r.get(f"{key}_low", math.nan), r.get(f"{key}_high", math.nan)
            if pd.isna(est):
                row[method] = "not run"
                continue
            if pd.isna(lo) or pd.isna(hi):
                row[method] = f"{est:.3f}"
                continue
            d = interval_digits(lo, hi, n_resamples=n, most=2) if n else 3
            row[method] = f"{est:.3f} [{lo:.{d}f}, {hi:.{d}f}]"
        rows.append(row)
    return pd.DataFrame(rows).set_index("check")


def mark_chance(fig, *, title: str | None = None):
    """Mark chance (0.5) in the clustering and classifier panels of
    :func:`wordbias.battery.debias.debias_figure`'s figure, and give it a title.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure (one panel per check, titled ``... (debiased: towards 0.5)`` where chance is the goal).
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        ``fig``, chance dotted red in the panels whose goal is 0.5 (their x axis widened to show it).
    """
    for ax in fig.axes:                      # chance, where a debiased embedding's checks should land
        if ax.get_visible() and "towards 0.5" in ax.get_title():
            ax.axvline(0.5, color="tab:red", ls=":", lw=1.2)
            lo, hi = ax.get_xlim()
            ax.set_xlim(min(lo, 0.47), max(hi, 0.53))
            ax.text(0.5, 1.0, " chance", color="tab:red", fontsize=8, va="top", ha="left",
                    transform=ax.get_xaxis_transform())
    if title:
        fig.suptitle(title, fontsize=11)
        fig.tight_layout()
    return fig


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
