"""The report "Racial bias in pre-trained word embeddings": its Table 1, figures and direct bias.

Section 3 and Appendix A: the racial direction r = mean(A1) − mean(A2) of two attribute sets (white, black),
the semantic direction s = mean(T1) − mean(T2) of two target sets (positive, negative), the bias cos(r, s)
and its angle, and a one-sided permutation test of the attribute words with Appendix A's Wald 95% CI on p.
The test itself is generic and lives in :mod:`wordbias.measures.directions.direction_permutation`
(:func:`~wordbias.measures.directions.direction_permutation.direction_test`); the report's word lists are data
(``data/stimuli/racial_bias_report.yaml``, read by :func:`wordbias.datasets.stimuli.direction_tests`).
:func:`table1` measures each of the report's tests once per embedding; Table 1 (:func:`table1_view`,
:func:`show_table1`, :func:`show_adjusted_p`), :func:`figure1`, :func:`figure2` and the tidy rows
(:func:`wordbias.battery.direction.direction_frame` of :attr:`Table1.measurements`) are views of those results.
:func:`direct_bias_table` gives Bolukbasi et al.'s direct bias (the report's Section 2).

Uncertainty, not in the report: Table 1 also gives a bootstrap interval of the bias over the words
(:func:`wordbias.measures.directions.bootstrap_direction.direction_bootstrap_from_vectors`: how far the bias would move with other,
equally valid word lists of the same sizes), as distinct from Appendix A's interval, which is on the Monte Carlo
p only (its precision for a finite number of permutations; named ``p_ci_low``/``p_ci_high`` here); the
two-sided p of the same permutations; and Holm and Benjamini-Hochberg adjusted p over the family of the
table's rows (:func:`wordbias.stats.multiple.adjust`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from gensim.models import KeyedVectors

from wordbias import embeddings
from wordbias.core import figures as plots
from wordbias.core import lookup
from wordbias.core import tables as _tables
from wordbias.core.costs import MAX_SECONDS
from wordbias.core.errors import InvalidParameterError
from wordbias.core.tidy import write_csv
from wordbias.core.validation import check_int, check_seed
from wordbias.datasets import stimuli
from wordbias.measures.debiasing import debias
from wordbias.measures.directions import direction
from wordbias.measures.directions.direction_permutation import direction_test
from wordbias.options import Resampling
from wordbias.stats import multiple

__all__ = [
    "KINDS",
    "check_parameters",
    "attribute_sets",
    "target_sets",
    "Table1",
    "table1",
    "table1_view",
    "reported_table1",
    "show_table1",
    "show_adjusted_p",
    "show_reported",
    "figure1",
    "figure2",
    "direct_bias_table",
    "differences",
    "describe_embeddings",
]

#: the report's three pairs of attribute sets (Appendix B.1-B.3)
KINDS = ("implicit", "explicit", "stereotypical")



def check_parameters(embedding, compare_with, n_permutations, seed) -> tuple[list[str], int, int]:
    """Check the notebook's parameters (its first cell after the parameters cell calls this).

    A string where the list belongs (papermill's ``-p compare_with /path``) is refused, saying how to pass a
    list (its letters would otherwise be read as embedding names).

    Parameters
    ----------
    embedding : str or path-like
        One embedding name or path.
    compare_with : list of str or path-like
        More embedding names or paths to put beside it in Table 1 (possibly empty).
    n_permutations : int
        Permutations of the test (>= 2).
    seed : int
        The seed (>= 0).

    Returns
    -------
    names : list of str
        The embeddings' names, ``embedding`` first.
    n_permutations : int
        ``n_permutations``, checked.
    seed : int
        ``seed``, checked.

    Raises
    ------
    InvalidParameterError
        When a parameter has the wrong type or value, or an embedding is named twice.

    Examples
    --------
    >>> check_parameters("glove-6b-50d", [], 10_000, 0)
    (['glove-6b-50d'], 10000, 0)
    >>> check_parameters("glove-6b-50d", "/x/v.txt", 10_000, 0)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: compare_with must be a list of embedding names or paths, not the string '/x/v.txt': write ['/x/v.txt'] (papermill: -y "compare_with: [/x/v.txt]")
    """
    if not isinstance(embedding, (str, Path)) or not str(embedding):
        raise InvalidParameterError(f"embedding must be one embedding name or path (a non-empty string), not "
                                    f"{embedding!r:.80}")
    if isinstance(compare_with, (str, bytes)):
        raise InvalidParameterError(
            f"compare_with must be a list of embedding names or paths, not the string {compare_with!r}: write "
            f"[{compare_with!r}] (papermill: -y \"compare_with: [{compare_with}]\")")
    if not isinstance(compare_with, (list, tuple)):
        raise InvalidParameterError(f"compare_with must be a list of embedding names or paths (possibly empty), "
                                    f"not {compare_with!r:.80}")
    bad = [e for e in compare_with if not isinstance(e, (str, Path)) or not str(e)]
    if bad:
        raise InvalidParameterError(f"compare_with must hold names or paths (non-empty strings), not {bad!r:.80}")
    names = [str(embedding), *map(str, compare_with)]
    if len(set(names)) != len(names):
        raise InvalidParameterError(f"an embedding is named twice in embedding and compare_with: {names}")
    return names, check_int("n_permutations", n_permutations, min=2), check_seed("seed", seed)


def describe_embeddings(kvs: Mapping[str, KeyedVectors]) -> str:
    """One line per embedding with the facts the comparison with the report depends on.

    Dimension, vocabulary size, cased or not, computed from the vectors.

    Parameters
    ----------
    kvs : mapping of str to KeyedVectors
        The embeddings by label.

    Returns
    -------
    str
        The lines.
    """
    return "\n".join(f"{label}: {kv.vector_size} dimensions, {len(kv):,} words, "
                     f"{'cased' if embeddings.is_cased(kv) else 'uncased (names are lower-cased, as in Appendix A)'}"
                     for label, kv in kvs.items())


# --------------------------------------------------------------------------------------------------
# word lists (Appendix B)
# --------------------------------------------------------------------------------------------------

def _spec(kind: str, *, cased: bool = True) -> stimuli.DirectionSpec:
    specs = {s.id: s for s in stimuli.direction_tests("racial_bias_report", cased=cased)}
    if kind not in specs:
        raise KeyError(f"unknown attribute set {kind!r}; choose from {list(specs)}")
    return specs[kind]


def attribute_sets(kind: str, *, cased: bool = True) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attribute sets A1 (white) and A2 (black) of one kind (Appendix B).

    The printed lists minus the names the report removed, and, where the report applies its intersection
    rule, minus the words in both sets (:func:`wordbias.datasets.stimuli.direction_tests`).

    Parameters
    ----------
    kind : {"implicit", "explicit", "stereotypical"}
        Which pair of attribute sets (:data:`KINDS`).
    cased : bool, default True
        ``False`` lower-cases the words for an uncased embedding (GloVe 6B).

    Returns
    -------
    A1, A2 : tuple of str
        The white and the black attribute words.

    Raises
    ------
    KeyError
        When ``kind`` is not one of :data:`KINDS` (the message lists them).

    Examples
    --------
    >>> attribute_sets("explicit", cased=False)
    (('white', 'caucasian', 'european', 'light'), ('black', 'african', 'dark', 'negro'))
    """
    spec = _spec(kind, cased=cased)
    return spec.A1, spec.A2


def target_sets() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The target sets T1 (positive) and T2 (negative) of Appendix B.4, as printed (lower case).

    Returns
    -------
    T1, T2 : tuple of str
        The positive and the negative target words.

    Examples
    --------
    >>> T1, T2 = target_sets()
    >>> len(T1) > 0 and len(T2) > 0 and all(w == w.lower() for w in T1 + T2)
    True
    """
    spec = _spec(KINDS[0])
    return spec.T1, spec.T2


# --------------------------------------------------------------------------------------------------
# Table 1 (Section 4)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table1:
    """Table 1 over one or more embeddings, and what it is a view of.

    The words each embedding lacks, the projections for the figures, and the measurements they are all views
    of.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per embedding and attribute set: ``n_A1``, ``n_A2``, ``bias``, ``bias_ci_low``,
        ``bias_ci_high``, ``angle``, ``p``, ``p_ci_low``, ``p_ci_high``, ``p_two_sided``, ``bias_ci_resampled``,
        ``p_holm``, ``p_bh``, ``p_family`` (see :func:`table1`).
    missing : pandas.DataFrame
        The words dropped as missing, one row per embedding and word set (A1/A2 columns).
    projections : mapping
        ``(label, kind)`` to ``((T1 words, T2 words), projections of T1, projections of T2)`` on the racial
        direction.
    measurements : mapping, default {}
        Label to the embedding's tests, each measured once
        (:class:`~wordbias.result.Result`, in the report's order).
    """

    #: one row per embedding and attribute set: n_A1, n_A2, bias, bias_ci_low, bias_ci_high, angle, p, p_ci_low,
    #: p_ci_high, p_two_sided, bias_ci_resampled, p_holm, p_bh, p_family (see :func:`table1`)
    table: pd.DataFrame = field(repr=False)
    #: the words dropped as missing, one row per embedding and word set (A1/A2 columns)
    missing: pd.DataFrame = field(repr=False)
    #: (label, kind) -> ((T1 words, T2 words), projections of T1, projections of T2) on the racial direction
    projections: Mapping = field(repr=False)
    #: label -> the embedding's tests, each measured once
    #: (:class:`~wordbias.result.Result`, in the report's order)
    measurements: Mapping = field(default_factory=dict, repr=False)

    @property
    def labels(self) -> list[str]:
        """The embeddings' labels, in order."""
        return list(dict.fromkeys(self.table.embedding))

    def to_frame(self) -> pd.DataFrame:
        """Table 1 as a DataFrame.

        Returns
        -------
        pandas.DataFrame
            A copy of :attr:`table`.
        """
        return self.table.copy()

    def save(self, folder: Path | str) -> Path:
        """Write the table (every embedding's rows) to ``folder/table1.csv``.

        Parameters
        ----------
        folder : str or path-like
            The folder, created if needed.

        Returns
        -------
        pathlib.Path
            The file written.
        """
        path = Path(folder) / "table1.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_csv(self.table, path, what="Table 1", float_format="%.6g")     # safe to open in a spreadsheet
        return path


def _row(label: str, m) -> dict:
    """Table 1's row of one measured test (a view: nothing is computed again)."""
    details = m.result
    return dict(embedding=label, attributes=m.test, n_A1=len(m.sets[2].used), n_A2=len(m.sets[3].used),
                bias=m.effect_size, bias_ci_low=m.ci_low, bias_ci_high=m.ci_high, angle=details.angle, p=m.p_value,
                p_ci_low=details.test.ci[0], p_ci_high=details.test.ci[1], p_two_sided=m.p_two_sided,
                bias_ci_resampled="".join(m.interval.resampled) if m.interval is not None else "")


def table1_view(measurements: Mapping[str, Sequence]) -> Table1:
    """Table 1, the words missing and the projections, from tests already measured.

    Only the adjusted p (Holm, Benjamini-Hochberg over every row) are computed here; no test is run again.

    Parameters
    ----------
    measurements : mapping of str to sequence of Result
        Each embedding's label to its
        :func:`~wordbias.measures.directions.direction_permutation.direction_test` results (one per attribute set,
        ``test`` naming it).

    Returns
    -------
    Table1
        The table and what it is a view of.
    """
    rows, missing, proj = [], [], {}
    for label, tests in measurements.items():
        for m in tests:
            rows.append(_row(label, m))
            missing.append(dict(embedding=label, set=m.test, missing_A1=", ".join(m.sets[2].missing),
                                missing_A2=", ".join(m.sets[3].missing)))
            proj[label, m.test] = ((m.sets[0].used, m.sets[1].used), *m.result.projections)
        if tests:
            missing.append(dict(embedding=label, set="targets", missing_A1=", ".join(tests[0].sets[0].missing),
                                missing_A2=", ".join(tests[0].sets[1].missing)))
    table = pd.DataFrame(rows)
    if len(table):
        labels = list(dict.fromkeys(table.embedding))
        family = (f"Table 1: {len(table)} tests ({len(KINDS)} attribute sets x {len(labels)} embedding"
                  f"{'s' if len(labels) > 1 else ''}: {', '.join(map(str, labels))}), one-sided p")
        adj = multiple.adjust(table.p.to_numpy(), [f"{e} / {k}" for e, k in zip(table.embedding, table.attributes)],
                              family=family)
        table["p_holm"], table["p_bh"], table["p_family"] = adj.p_holm, adj.p_bh, adj.family
    return Table1(table, pd.DataFrame(missing), proj, dict(measurements))


def table1(kvs: Mapping[str, KeyedVectors], *, n_permutations: int = 10_000, seed: int = 0,
           max_seconds: float = MAX_SECONDS, n_resamples: int = 10_000) -> Table1:
    """Table 1 for each embedding of ``kvs``: the report's three tests, each measured once.

    Each test (:func:`wordbias.datasets.stimuli.direction_tests`, names lower-cased for an uncased embedding,
    Appendix A's ``tolower``) is measured once by
    :func:`wordbias.measures.directions.direction_permutation.direction_test` (raw vectors, ``n_permutations``
    permutations and ``n_resamples`` bootstrap resamples, both seeded by ``seed``), then shown by
    :func:`table1_view`. Words missing from an embedding warn :class:`~wordbias.core.errors.MissingWordsWarning`
    and are listed in ``Table1.missing``.

    Columns: ``bias`` cos(r, s) with ``bias_ci_low``, ``bias_ci_high``, its BCa 95% bootstrap interval over the
    words (each of T1, T2, A1, A2 resampled separately: how far the bias would move with other word lists of
    the same sizes); ``angle``; ``p`` (one-sided, the report's) with ``p_ci_low``, ``p_ci_high``, Appendix
    A's Wald interval, which covers only the Monte Carlo error of p
    (:func:`~wordbias.measures.directions.direction_permutation.p_value_ci`), not the bias; ``p_two_sided`` (the same
    permutations, SciPy's doubling rule); ``bias_ci_resampled``: the sets the interval resampled (all four,
    except a set left with one word, which cannot be resampled and is then held fixed, so the interval is
    narrower than it would be); ``p_holm``, ``p_bh``: the one-sided p (the report's directional hypothesis)
    adjusted by Holm (1979) and Benjamini-Hochberg (1995) over the family of all the table's rows (every
    attribute set x embedding of this call), named in ``p_family`` (:func:`wordbias.stats.multiple.adjust`).

    Parameters
    ----------
    kvs : mapping of str to KeyedVectors
        The embeddings by label.
    n_permutations : int, default 10000
        Permutations of each test (>= 2).
    seed : int, default 0
        Seed of the permutations and the bootstrap.
    max_seconds : float, default MAX_SECONDS
        The longest a test may be expected to take; a longer request is refused before any work.
    n_resamples : int, default 10000
        Bootstrap resamples of the interval of the bias (>= 2).

    Returns
    -------
    Table1
        The table and the measurements it is a view of.

    Raises
    ------
    InvalidParameterError
        When ``kvs`` is not a mapping or an option is invalid.
    """
    if not isinstance(kvs, Mapping):
        raise InvalidParameterError(f"kvs must map labels to embeddings, e.g. {{'GloVe': kv}}, not "
                                    f"{type(kvs).__name__}")
    n_permutations, seed = check_int("n_permutations", n_permutations, min=2), check_seed("seed", seed)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    resampling = Resampling(n_permutations=n_permutations, seed=seed, n_resamples=n_resamples)
    measured = {label: [direction_test(kv, s.T1, s.T2, s.A1, s.A2, test=s.id, title=s.title, names=s.names,
                                       resampling=resampling, max_seconds=max_seconds)
                        for s in stimuli.direction_tests("racial_bias_report", cased=embeddings.is_cased(kv))]
                for label, kv in kvs.items()}
    return table1_view(measured)


def reported_table1() -> pd.DataFrame:
    """The report's Table 1 as printed, with the angle arccos(bias) computed here.

    Returns
    -------
    pandas.DataFrame
        One row per model and attribute set; its CI on p (Appendix A) as text in ``p_ci`` and its upper bound
        as ``p_ci_high``.
    """
    rep = pd.DataFrame(stimuli.load_stimuli("racial_bias_report")["table1"]["rows"])
    rep["angle"] = np.degrees(np.arccos(rep["bias"]))
    rep["p_ci_high"] = rep["ci"].map(lambda c: c[1] if c else np.nan)
    rep["ci"] = rep["ci"].map(lambda c: f"({c[0]}, {c[1]})")
    return rep.rename(columns={"ci": "p_ci"})


def _index(table: pd.DataFrame, out: pd.DataFrame) -> pd.DataFrame:
    """Index ``out`` by attribute set, and by embedding first when ``table`` has more than one."""
    out.insert(0, "Attributes", list(table.attributes))
    if table.embedding.nunique() > 1:
        out.insert(0, "Embedding", list(table.embedding))
        return out.set_index(["Embedding", "Attributes"])
    return out.set_index("Attributes")


def show_table1(table: pd.DataFrame) -> pd.DataFrame:
    """:attr:`Table1.table` for a student.

    Six columns, indexed by attribute set, and embedding when there are several: the words per attribute set,
    the bias cos(r, s) with its 95% bootstrap interval (over the words: how far the bias moves with other
    lists), the angle, the one-sided p and the report's 95% interval on p (Appendix A: the Monte Carlo
    precision of p only, not an interval on the bias). Adjusted p: :func:`show_adjusted_p`; every column stays
    in the CSV.

    Parameters
    ----------
    table : pandas.DataFrame
        :attr:`Table1.table`.

    Returns
    -------
    pandas.DataFrame
        The narrow table.
    """
    out = pd.DataFrame({
        "Words (A1/A2)": [f"{a}/{b}" for a, b in zip(table.n_A1, table.n_A2)],
        "Bias cos(r, s)": table.bias.map(lambda v: _tables.number_text(v, 3)),
        "95% interval of the bias": _tables.interval_column(table.bias_ci_low, table.bias_ci_high),
        "Angle": [f"{a:.1f}°" for a in table.angle],
        "p (one-sided)": _tables.p_column(table.p),
        "95% interval of p (Monte Carlo)": [f"[{_tables.small_number_text(lo)}, {_tables.small_number_text(hi)}]"
                                            for lo, hi in zip(table.p_ci_low, table.p_ci_high)],
    })
    return _index(table, out)


def show_adjusted_p(table: pd.DataFrame) -> pd.DataFrame:
    """The p-values of :attr:`Table1.table` for a student.

    One-sided (the report's test), two-sided, and the one-sided p adjusted over the table's tests by Holm and
    by Benjamini-Hochberg.

    Parameters
    ----------
    table : pandas.DataFrame
        :attr:`Table1.table`, whose p-value columns are shown.

    Returns
    -------
    pandas.DataFrame
        Indexed by attribute set, and embedding when there are several.
    """
    out = pd.DataFrame({
        "p (one-sided)": _tables.p_column(table.p),
        "p (two-sided)": _tables.p_column(table.p_two_sided),
        "p Holm": _tables.p_column(table.p_holm),
        "p Benjamini-Hochberg": _tables.p_column(table.p_bh),
    })
    return _index(table, out)


def show_reported(reported: pd.DataFrame) -> pd.DataFrame:
    """:func:`reported_table1` for a student.

    For each model and attribute set, the report's bias, its angle (computed here), p and its 95% interval on p
    (Appendix A; Monte Carlo precision only).

    Parameters
    ----------
    reported : pandas.DataFrame
        :func:`reported_table1`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``Model`` and ``Attributes``.
    """
    out = pd.DataFrame({
        "Model": reported.model, "Attributes": reported.attributes,
        "Bias cos(r, s)": reported.bias.map(lambda v: _tables.number_text(v, 3)),
        "Angle": [f"{a:.1f}°" for a in reported.angle],
        "p (one-sided)": _tables.p_column(reported.p),
        "95% interval of p (Monte Carlo)": reported.p_ci.str.replace("(", "[", regex=False).str.replace(
            ")", "]", regex=False)})
    return out.set_index(["Model", "Attributes"])


# --------------------------------------------------------------------------------------------------
# Figures 1 and 2, the direct bias, what differs
# --------------------------------------------------------------------------------------------------

def _panel(ax, result: Table1, label: str, kind: str, seed: int) -> tuple[np.ndarray, np.ndarray, list, list]:
    """One panel: each target word at its projection on the racial direction, with a seeded jitter. Returns the
    points and their words and colours, to be labelled once the figure's layout is final."""
    words, p1, p2 = result.projections[label, kind]
    rng = np.random.default_rng(seed)
    sets = ((words[0], p1, "tab:blue", "positive (T1)"), (words[1], p2, "tab:red", "negative (T2)"))
    xs, ys, ws, colours = [], [], [], []
    for w, ps, colour, name in sets:
        y = rng.uniform(0, 1, len(ps))
        ax.scatter(ps, y, s=12, color=colour, label=name)
        xs.append(np.asarray(ps, dtype=float))
        ys.append(y)
        ws += list(w)
        colours += [colour] * len(ps)
    ax.axvline(0, ls=":", color="k")
    ax.set_yticks([])
    ax.set_ylim(-0.08, 1.08)
    ax.margins(x=0.06)
    ax.set_title(f"{label}: {kind}", fontsize=9)
    ax.set_xlabel("projection on the racial direction (white →)")
    return np.concatenate(xs), np.concatenate(ys), ws, colours


def _panels(result: Table1, layout: list[list[tuple[str, str]]], title: str, seed: int):
    """Figures 1-2: one panel per (embedding label, attribute kind) of ``layout`` (rows of panels), the legend
    outside the top right panel, the words labelled without overlaps (:func:`wordbias.core.figures.place_labels`)."""
    n_rows, n_cols = len(layout), max(len(row) for row in layout)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(6.5 * n_cols + 1.2, 3.8 * n_rows), squeeze=False)
    points = []
    for row_axes, row in zip(axes, layout):
        for ax, (label, kind) in zip(row_axes, row):
            points.append((ax, _panel(ax, result, label, kind, seed)))
    plots.legend_outside(axes[0][-1], fontsize=7)
    fig.suptitle(title)
    for ax, _ in points:
        plots.freeze_limits(ax)  # before the layout, so that it does not move with the data's last digits
    fig.tight_layout()
    for ax, (xs, ys, ws, colours) in points:
        plots.place_labels(ax, xs, ys, ws, colors=colours, fontsize=7)
    return fig


def figure1(result: Table1, seed: int = 0):
    """Figure 1: the target words on the implicit racial direction, one panel per embedding.

    Parameters
    ----------
    result : Table1
        The measured table (its projections).
    seed : int, default 0
        Seed of the vertical jitter.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    return _panels(result, [[(label, "implicit") for label in result.labels]],
                   "Figure 1: target words on the implicit racial direction", seed)


def figure2(result: Table1, seed: int = 0):
    """Figure 2: the target words on the explicit and stereotypical racial directions, a row per embedding.

    Parameters
    ----------
    result, seed : Table1, int
        The measured table and the seed of the jitter, as :func:`figure1` takes them (seed default 0).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    return _panels(result, [[(label, kind) for kind in ("explicit", "stereotypical")] for label in result.labels],
                   "Figure 2: target words on the explicit and stereotypical racial directions", seed)


def direct_bias_table(kvs: Mapping[str, KeyedVectors]) -> pd.DataFrame:
    """Bolukbasi et al.'s DirectBias_1 of the debiaswe professions in each embedding.

    Along the PCA gender direction of the definitional pairs (Section 2 of the report).

    Parameters
    ----------
    kvs : mapping of str to KeyedVectors
        The embeddings by label, each measured on its own.

    Returns
    -------
    pandas.DataFrame
        One row per embedding: ``embedding``, ``professions``, ``pairs``, ``pc1_share`` and
        ``direct_bias_c1``.
    """
    rows = []
    for label, kv in kvs.items():
        g, pairs = debias.gender_direction(kv)
        profs = lookup.word_set(kv, debias.word_lists_for(kv).professions, name="professions")
        X = lookup.vectors(kv, profs.words)
        rows.append(dict(embedding=label, professions=len(profs.words), pairs=len(pairs.pairs),
                         pc1_share=g.explained_variance_ratio[0],
                         direct_bias_c1=direction.direct_bias(X, g.direction, c=1)))
    return pd.DataFrame(rows)


#: the report's Wikipedia model (Section 1): GloVe 6B 300d, trained on Wikipedia 2014 + Gigaword 5, uncased
REPORT_WIKIPEDIA = {"dimensions": 300, "words": 400_000, "cased": False}
#: the registry's embeddings trained on the same corpus as the report's Wikipedia model
SAME_CORPUS = ("glove-6b-50d", "glove-wiki-gigaword-300")


def differences(result: Table1, reported: pd.DataFrame, n_permutations: int,
                kvs: Mapping[str, KeyedVectors] | None = None) -> str:
    """Markdown: ours beside the report's Wikipedia GloVe 300d row for each attribute set, and why they differ.

    The facts of each embedding (dimension, vocabulary, case) are computed from ``kvs`` when given; the corpus
    is named only for the registry's embeddings known to share the report's (:data:`SAME_CORPUS`).

    Parameters
    ----------
    result : Table1
        Our Table 1.
    reported : pandas.DataFrame
        :func:`reported_table1`.
    n_permutations : int
        The permutations of our tests (for the Monte Carlo error named).
    kvs : mapping of str to KeyedVectors or None, default None
        The embeddings by label, for their facts.

    Returns
    -------
    str
        The Markdown text.
    """
    lines = []
    ours = result.table
    for label in result.labels:
        o = ours[ours.embedding == label].set_index("attributes")
        w = reported[reported.model == "Wikipedia"].set_index("attributes")
        facts = []
        if kvs is not None and label in kvs:
            kv = kvs[label]
            facts.append(f"{kv.vector_size} vs {REPORT_WIKIPEDIA['dimensions']} dimensions, {len(kv):,} vs "
                         f"{REPORT_WIKIPEDIA['words']:,} words, "
                         + ("uncased like it" if not embeddings.is_cased(kv) else "cased, it is not"))
        facts.append("the same corpus (Wikipedia 2014 + Gigaword 5)" if label in SAME_CORPUS
                     else "another corpus, or one not known here")
        lines.append(f"**{label}** vs the report's Wikipedia GloVe 300d ({'; '.join(facts)}):")
        for kind in KINDS:
            lines.append(f"- {kind}: bias {o.bias[kind]:.4f} (95% bootstrap interval {o.bias_ci_low[kind]:.4f} to "
                         f"{o.bias_ci_high[kind]:.4f}; report {w.bias[kind]:.4f}), angle {o.angle[kind]:.1f}° "
                         f"(report {w.angle[kind]:.1f}°), p {o.p[kind]:.4f} (report {w.p[kind]:.4f}); "
                         f"|A1|, |A2| = {o.n_A1[kind]}, {o.n_A2[kind]}; "
                         f"significant at 5% (upper bound of the CI on p < 0.05): ours {o.p_ci_high[kind] < 0.05}, "
                         f"report {w.p_ci_high[kind] < 0.05}; Holm-adjusted p {o.p_holm[kind]:.4f}")
    n_missing = sum(bool(m) for m in result.missing[["missing_A1", "missing_A2"]].to_numpy().ravel())
    lines.append("")
    lines.append("Why it differs: (1) another embedding (see the facts above; even on the same corpus another "
                 "dimension is a different fit of the same co-occurrences); (2) the "
                 "report's permutations come from R's `sample` with `set.seed(0)`, ours from numpy's generator with "
                 "the same seed number, so p agrees only up to Monte Carlo error "
                 f"(≈ ±{1.96 * np.sqrt(0.05 * 0.95 / n_permutations):.4f} near p = 0.05); "
                 f"(3) set/embedding pairs with words dropped as missing here: {n_missing} (table above); "
                 "(4) Google word2vec and Twitter GloVe are not available here, so their six rows are not reproduced.")
    return "\n".join(lines)
