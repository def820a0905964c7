"""Swinger et al. (2019), "What are the biases in my word embedding?": what its notebook shows.

UBE itself, and the names of Appendix C.1/C.2 mapped to an embedding, are :mod:`wordbias.measures.enumeration.ube` (a user
runs it there on any embedding); this module runs it with the paper's group order (:func:`run`), and builds and
writes the tables (3-8), Figure 1, Section 4.2's indirect-bias count and Section 4.1's crowdsourcing files, each
beside the paper's numbers (``data/stimuli/swinger2019.yaml``). Demographics never enter the algorithm: they are
computed after it, from the bundled SSA, Tzioumis and Census tables (:mod:`wordbias.datasets.names`).
:func:`ube_summary`, :func:`ube_groups` and :func:`ube_associations` read the notebook's committed results back
in lesson size (``notebooks/lessons/``; the UBE run takes minutes, too long for a class).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias import embeddings
from wordbias.core import figures
from wordbias.core.errors import InvalidParameterError
from wordbias.core.tidy import write_csv
from wordbias.core.validation import check_bool, check_option
from wordbias.core.vectors import unit_rows
from wordbias.datasets import censor as _censor
from wordbias.datasets import names as _names
from wordbias.measures.association import weat
from wordbias.measures.debiasing import debias
from wordbias.measures.enumeration import ube, ube_null
from wordbias.measures.enumeration.ube_names import NAME_SOURCES, NameList
from wordbias.measures.enumeration.ube_result import UBEResult, illustrative_names
from wordbias.papers.lesson_views import read_results

__all__ = [
    "CASE_RULES", "Crowdsourcing", "Lemma1Check", "RunTables", "case_effect_table", "case_tag", "cells_table",
    "check_parameters", "cleaning_table", "comparison_case_source", "crowdsourcing", "debias_summary",
    "debiased_embedding", "debiasing_by_group", "demographics", "describe_run", "display_order", "figure1", "grid",
    "group_cards", "group_shares", "group_table", "indirect_bias_table", "labels", "lemma1_check", "matching_tasks",
    "n_significant_one_sex", "natural_key", "paper_grid", "paper_table3", "paper_table6", "pct_female_table",
    "qualification_exam", "rating_tasks", "run", "save_run", "shares_table", "significance_summary", "summary_row",
    "table4", "table_words", "ube_associations", "ube_groups", "ube_summary", "write_summary",
]


# --------------------------------------------------------------------------------------------------
# the notebook's parameters
# --------------------------------------------------------------------------------------------------

def _check_name(name: str, value, what: str, *, empty_ok: bool = False) -> str:
    if not isinstance(value, (str, Path)) or (not empty_ok and not str(value)):
        raise InvalidParameterError(f"{name} must be {what}, not {value!r}")
    return str(value)


def check_parameters(*, embedding, names_source, parameters: ube.UBEParameters, debiased, last_names,
                     censor_slurs) -> dict:
    """Check the notebook's parameters before any work and return UBE's options.

    The notebook's parameters arrive through papermill ``-p``, so ``-p seed abc`` arrives as the string ``'abc'``;
    each one is checked, with the parameter, the value and what is allowed in the message. UBE's own options are
    checked when ``parameters`` is made (:class:`wordbias.measures.enumeration.ube.UBEParameters`); the cost of
    the null is checked by :func:`run`.

    Parameters
    ----------
    embedding : str or path-like
        The embedding's name or path (non-empty).
    names_source : {"first", "last"}
        Which names UBE clusters (one of ``wordbias.measures.enumeration.ube_names.NAME_SOURCES``).
    parameters : UBEParameters
        UBE's inputs (Section 3, Table 2: n, m, M, t, alpha, R, seed, and Step 2's case rule ``case_source``).
    debiased : str or path-like
        Table 7's embedding: ``"auto"`` (hard-debias the embedding), an embedding name or path, or ``""`` to
        skip Table 7.
    last_names : bool
        Whether the notebook also runs UBE on last names.
    censor_slurs : bool
        Whether the displayed tables bleep-censor slurs.

    Returns
    -------
    dict
        UBE's options ``n``, ``m``, ``M``, ``t``, ``alpha``, ``R``, ``seed`` and ``case_source``, for :func:`run`.

    Raises
    ------
    InvalidParameterError
        When a parameter has the wrong type or value (``parameters`` not a UBEParameters among them).

    Examples
    --------
    >>> ok = dict(embedding="glove-6b-50d", names_source="first", parameters=ube.UBEParameters(),
    ...           debiased="auto", last_names=True, censor_slurs=True)
    >>> check_parameters(**ok)
    {'n': 12, 'm': 64, 'M': 30000, 't': 3, 'alpha': 0.05, 'R': 10000, 'seed': 0, 'case_source': 'auto'}
    >>> check_parameters(**{**ok, "last_names": "yes"})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: last_names must be True or False, not 'yes'
    """
    _check_name("embedding", embedding, "an embedding name or path (a non-empty string)")
    check_option("names_source", names_source, NAME_SOURCES)
    _check_name("debiased", debiased, "'auto', an embedding name or path, or '' to skip Table 7", empty_ok=True)
    check_bool("last_names", last_names)
    check_bool("censor_slurs", censor_slurs)
    if not isinstance(parameters, ube.UBEParameters):
        raise InvalidParameterError(f"parameters must be a UBEParameters, not {type(parameters).__name__}")
    return {k: getattr(parameters, k) for k in ("n", "m", "M", "t", "alpha", "R", "seed", "case_source")}


# --------------------------------------------------------------------------------------------------
# Section 2.1: Lemma 1 on one WEAT
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lemma1Check:
    """Lemma 1 on one WEAT: the test statistic and UBE's g for two groups of ``k`` words.

    Attributes
    ----------
    k : int
        The size of each group, ``|X| = |Y| = k``.
    s : float
        The WEAT test statistic s(X, A, Y, B).
    g : float
        UBE's statistic g(X, A, Y, B).
    """

    k: int
    s: float
    g: float

    @property
    def two_x_g(self) -> float:
        """2|X| g(X, A, Y, B), which Lemma 1 says equals ``s``."""
        return 2 * self.k * self.g


def lemma1_check(embedding, spec, *, cased: bool) -> Lemma1Check:
    """Check Lemma 1 (``s = 2|X| g`` for two equal-sized groups) on one WEAT.

    Words the embedding lacks are dropped (lower-cased first when the embedding is not ``cased``), then X and Y
    are cut to the shorter one's length.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    spec : WeatSpec
        The WEAT (a :class:`wordbias.datasets.stimuli.WeatSpec`, or anything with ``X``, ``Y``, ``A`` and ``B``).
    cased : bool
        Whether the embedding is cased; if not, the words are lower-cased before the look-up.

    Returns
    -------
    Lemma1Check
        ``k``, ``s`` and ``g``; its ``two_x_g`` should equal ``s``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> embedding = to_keyed_vectors(["x1", "x2", "y1", "a", "b"],
    ...                       np.array([[1, 0], [1, 1], [0, 1], [1, 0.2], [0.1, 1]], dtype=np.float32))
    >>> spec = SimpleNamespace(X=("X1", "X2"), Y=("Y1", "Y2"), A=("A",), B=("B",))
    >>> check = lemma1_check(embedding, spec, cased=False)
    >>> check.k, round(check.s, 6) == round(check.two_x_g, 6)
    (1, True)
    """
    X, Y, A, B = ([w for w in (ws if cased else [v.lower() for v in ws]) if w in embedding.key_to_index]
                  for ws in (spec.X, spec.Y, spec.A, spec.B))
    k = min(len(X), len(Y))
    X, Y = X[:k], Y[:k]
    s_stat = weat.test_statistic(weat.association(embedding[X], embedding[A], embedding[B]), weat.association(embedding[Y], embedding[A], embedding[B]))
    g_val = ube.g([embedding[X], embedding[Y]], [embedding[A], embedding[B]])
    return Lemma1Check(k=k, s=s_stat, g=g_val)


# --------------------------------------------------------------------------------------------------
# one UBE run in the paper's group order (the names: wordbias.measures.enumeration.ube_names), Figure 1
# --------------------------------------------------------------------------------------------------

def demographics(res: UBEResult, kind: str) -> pd.DataFrame:
    """Demographics of the result's groups, in the result's group order.

    Parameters
    ----------
    res : UBEResult
        A UBE run (:class:`wordbias.measures.enumeration.ube_result.UBEResult`).
    kind : {"first", "last"}
        Whether the run's names are first or last names.

    Returns
    -------
    pandas.DataFrame
        :func:`wordbias.datasets.names.group_demographics` of ``res.groups()``, one row per group, indexed 0..n-1.
    """
    return _names.group_demographics(res.groups(), kind=kind).reset_index(drop=True)


def display_order(demo: pd.DataFrame, kind: str) -> list[int]:
    """The paper's group order: first names by decreasing % female (Tables 3, 6).

    The paper does not say how it orders last-name groups, so those go by decreasing % White (a choice of
    ours). NaN goes last.

    Parameters
    ----------
    demo : pandas.DataFrame
        The groups' demographics (:func:`demographics`), with a ``pct_female`` (first names) or ``pct_white``
        (last names) column.
    kind : {"first", "last"}
        Whether the groups are of first or last names; anything but ``"first"`` sorts by ``pct_white``.

    Returns
    -------
    list of int
        The row positions of ``demo`` in display order.

    Examples
    --------
    >>> demo = pd.DataFrame(dict(pct_female=[10.0, np.nan, 90.0], pct_white=[50.0, 90.0, 10.0]))
    >>> display_order(demo, "first"), display_order(demo, "last")
    ([2, 0, 1], [1, 0, 2])
    """
    key = "pct_female" if kind == "first" else "pct_white"
    values = demo[key].to_numpy(dtype=float)
    return [int(i) for i in np.argsort(-np.nan_to_num(values, nan=-np.inf), kind="stable")]  # positions


def labels(kind: str, n: int) -> list[str]:
    """The paper's group labels: F1..Fn for first names, L1..Ln for last names.

    Parameters
    ----------
    kind : {"first", "last"}
        Whether the groups are of first names (anything else gives L labels).
    n : int
        The number of groups.

    Returns
    -------
    list of str
        The ``n`` labels.

    Examples
    --------
    >>> labels("first", 3), labels("last", 2)
    (['F1', 'F2', 'F3'], ['L1', 'L2'])
    """
    return [f"{'F' if kind == 'first' else 'L'}{i + 1}" for i in range(n)]


def run(embedding, names: NameList, *, cased: bool, progress: bool = False, cache_dir=ube_null.CACHE_DIR,
        **options) -> UBEResult:
    """Run UBE on ``names`` with the groups in the paper's order.

    Runs :func:`wordbias.measures.enumeration.ube.run` on ``names`` (which are also kept out of the SVM's non-names), then
    puts the groups in the paper's order (:func:`display_order` of their :func:`demographics`).

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like
        The embedding, as :func:`wordbias.measures.enumeration.ube.run` takes it.
    names : NameList
        The name list (:class:`wordbias.measures.enumeration.ube_names.NameList`) whose tokens UBE clusters.
    cased : bool
        Whether the embedding is cased.
    progress : bool, default False
        Whether to show a progress bar.
    cache_dir : str or path-like or None, default wordbias.measures.enumeration.ube_null.CACHE_DIR
        Where the rotational null is cached (None: not cached): the notebook run again reads it back.
    **options
        The fields of :class:`~wordbias.measures.enumeration.ube.UBEParameters` (n, m, M, t, alpha, R, seed, ...);
        a misspelt one raises ``TypeError``.

    Returns
    -------
    UBEResult
        The run, its groups in display order.
    """
    res = ube.run(embedding, names.tokens, ube.UBEParameters(**options), name_exclusions=names.tokens, cased=cased,
                  progress=progress, cache_dir=cache_dir)
    demo = demographics(res, names.kind)
    return res.reorder(display_order(demo, names.kind))


#: how :func:`describe_run` and :func:`case_effect_table` name Step 2's case rules
#: (:func:`wordbias.measures.enumeration.ube.case_rule`)
CASE_RULES = {"embedding": "Appendix C.4 on the embedding's case",
              "wordlist": "stand-in for C.4: lower case in a cased word list",
              None: "no case rule"}


def comparison_case_source(case_source):
    """The case rule the notebook compares a run with.

    Parameters
    ----------
    case_source : str or None
        The run's case rule (as :func:`wordbias.measures.enumeration.ube.case_rule` takes it).

    Returns
    -------
    str or None
        No case rule (``None``) when ``case_source`` applies one, else the default ``"auto"``.

    Raises
    ------
    InvalidParameterError
        When ``case_source`` is not a case rule (the same check as :func:`run`'s).

    Examples
    --------
    >>> comparison_case_source("auto"), comparison_case_source("wordlist"), comparison_case_source(None)
    (None, None, 'auto')
    """
    ube.case_rule(case_source, cased=True)          # the same check as run's (a bad value raises here)
    return "auto" if case_source is None else None


def case_tag(rule) -> str:
    """File tag of a run made with a case rule (:func:`save_run`'s ``tag`` suffix).

    Parameters
    ----------
    rule : str or None
        The case rule; ``None`` for none.

    Returns
    -------
    str
        ``"no_case_rule"`` for ``None``, else ``"case_<rule>"``.

    Examples
    --------
    >>> case_tag(None), case_tag("wordlist")
    ('no_case_rule', 'case_wordlist')
    """
    return "no_case_rule" if rule is None else f"case_{rule}"


def describe_run(res: UBEResult) -> str:
    """Describe a run in one line.

    Parameters
    ----------
    res : UBEResult
        A UBE run.

    Returns
    -------
    str
        The names before and after cleaning, the words (with the case rule) and categories, and how many
        (group, category) cells have a test.
    """
    cl = res.cleaning
    rule = CASE_RULES.get(res.params.get("case_source", "embedding" if res.params.get("cased") else None), "?")
    return (f"{len(cl.tokens):,} names -> {len(res.names):,} after cleaning ({(~cl.kept).sum():,} removed); "
            f"{len(res.words):,} words ({rule}) in {res.m} categories; "
            f"{np.isfinite(res.sigma).sum()} of {res.n * res.m} "
            f"(group, category) cells have a test (>= {res.params['t']} words in the Voronoi set)")


def figure1(res: UBEResult, names: NameList, kv, embedding: str):
    """Figure 1 for the names a run cleaned.

    Plots (:func:`wordbias.core.figures.zipf_names`) each name's log share of the name data against its index
    in ``kv``'s vocabulary, kept vs removed.

    Parameters
    ----------
    res : UBEResult
        A UBE run, whose cleaning is shown.
    names : NameList
        The run's name list, with the names' counts.
    kv : KeyedVectors
        The embedding, whose vocabulary order gives each name's index.
    embedding : str
        The embedding's label in the title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    cl = res.cleaning
    counts = names.counts.loc[cl.tokens].to_numpy(dtype=float)
    rank = np.array([kv.key_to_index[w] for w in cl.tokens])
    return figures.zipf_names(rank, np.log(counts / names.counts.sum()), cl.kept,
                              [w.capitalize() for w in cl.tokens],
                              title=f"Figure 1 ({names.kind} names, {embedding})")


# --------------------------------------------------------------------------------------------------
# Tables 3, 5, 6, 7, 8: one run's tables and their CSV files
# --------------------------------------------------------------------------------------------------

def group_table(res: UBEResult, kv, kind: str, *, k: int = 5) -> pd.DataFrame:
    """Tables 3 / 6 for a result whose groups are already in display order.

    Each group's k illustrative names (Section 4's greedy choice), "+N" (the group's other names), % female and
    mean year of birth (first names), and % Black, Hispanic, Asian/Pacific Islander and White, with how many names
    had data.

    Parameters
    ----------
    res : UBEResult
        A UBE run, groups in display order.
    kv : KeyedVectors
        The embedding (for the illustrative names).
    kind : {"first", "last"}
        Whether the names are first or last names (labels and columns).
    k : int, default 5
        The number of illustrative names per group.

    Returns
    -------
    pandas.DataFrame
        One row per group: ``group``, ``illustrative``, ``more``, then the demographic columns.
    """
    demo = demographics(res, kind)
    rows = []
    for i, grp in enumerate(res.groups()):
        X = unit_rows(kv[grp], f"group {i + 1}")
        pick = illustrative_names(X, k)
        rows.append(dict(group=labels(kind, res.n)[i],
                         illustrative=", ".join(grp[j].capitalize() for j in pick),
                         more=len(grp) - len(pick)))
    out = pd.DataFrame(rows)
    cols = ["pct_female", "mean_year"] if kind == "first" else []
    cols += ["pct_black", "pct_hispanic", "pct_asian", "pct_white", "n_race"]
    return pd.concat([out, demo[cols]], axis=1)


def grid(res: UBEResult, kind: str, *, top: int = 12, censor=None, central: int = 3) -> pd.DataFrame:
    """Tables 5 / 8: the ``top`` WEATs with the paper's group labels.

    :meth:`~wordbias.measures.enumeration.ube_result.UBEResult.grid` with the paper's group labels in natural order (F1,
    F2, ..., F12), each row labelled by the ``central`` most central words of its category (the paper does not
    name its categories).

    Parameters
    ----------
    res, kind : UBEResult, {"first", "last"}
        A UBE run and the kind of its names, as :func:`cells_table` takes them.
    top : int, default 12
        The number of WEATs (categories) shown.
    censor : callable or None, default None
        Maps each non-empty cell and label to its displayed form (e.g.
        :func:`wordbias.datasets.censor.censor`); ``None`` shows the words.
    central : int, default 3
        The number of central words that label a row.

    Returns
    -------
    pandas.DataFrame
        One row per WEAT, one column per group, each cell the significant words.
    """
    return res.grid(top=top, labels=labels(kind, res.n), censor=censor, central=central)


def natural_key(label: str) -> tuple:
    """Sort key that orders the numbers inside a label by value: F2 before F10.

    A string sort puts F10 first.

    Parameters
    ----------
    label : str
        The label (anything is turned into a string).

    Returns
    -------
    tuple
        The key: the label's digit runs as numbers, the rest as text.

    Examples
    --------
    >>> sorted(["F10", "F2", "F1", "F12", "L3"], key=natural_key)
    ['F1', 'F2', 'F10', 'F12', 'L3']
    """
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", str(label)) if part)


def cells_table(res: UBEResult, kind: str) -> pd.DataFrame:
    """All n·m (group, category) cells with the paper's group labels.

    Parameters
    ----------
    res : UBEResult
        A UBE run.
    kind : {"first", "last"}
        Whether the names are first or last names.

    Returns
    -------
    pandas.DataFrame
        :meth:`~wordbias.measures.enumeration.ube_result.UBEResult.tests`, its ``group`` column mapped to the labels.
    """
    lab = labels(kind, res.n)
    return res.tests().assign(group=lambda d: d["group"].map(dict(enumerate(lab))))


def cleaning_table(res: UBEResult) -> pd.DataFrame:
    """Appendix C.3's cleaning of the names.

    Parameters
    ----------
    res : UBEResult
        A UBE run (its ``cleaning``).

    Returns
    -------
    pandas.DataFrame
        Each name token (``token``), its SVM margin (``margin``) and whether it was kept (``kept``).
    """
    cl = res.cleaning
    return pd.DataFrame(dict(token=cl.tokens, margin=cl.margin, kept=cl.kept))


@dataclass(frozen=True)
class RunTables:
    """The tables of one UBE run, as :func:`save_run` writes them.

    Attributes
    ----------
    cleaning : pandas.DataFrame
        :func:`cleaning_table`.
    groups : pandas.DataFrame
        :func:`group_table` (Table 3/6).
    tests : pandas.DataFrame
        :func:`cells_table` (every cell).
    top12 : pandas.DataFrame
        :func:`grid` of the top 12 WEATs (Table 5/8), uncensored.
    """

    cleaning: pd.DataFrame
    groups: pd.DataFrame
    tests: pd.DataFrame
    top12: pd.DataFrame


def save_run(res: UBEResult, kv, kind: str, folder, tag: str) -> RunTables:
    """Build one run's tables and write them as CSV files.

    The files are ``{tag}_cleaning.csv``, ``{tag}_groups.csv`` (Table 3/6), ``{tag}_tests.csv`` (every cell)
    and ``{tag}_top12.csv`` (Table 5/8, uncensored).

    Parameters
    ----------
    res, kv, kind : UBEResult, KeyedVectors, {"first", "last"}
        The run (groups in display order), the embedding and the kind of names, as :func:`group_table` takes
        them.
    folder : str or path-like
        An existing folder to write to.
    tag : str
        The files' name prefix.

    Returns
    -------
    RunTables
        The four tables written.
    """
    folder = Path(folder)
    tables = RunTables(cleaning=cleaning_table(res), groups=group_table(res, kv, kind),
                       tests=cells_table(res, kind), top12=grid(res, kind))
    write_csv(tables.cleaning, folder / f"{tag}_cleaning.csv", float_format="%.6g")     # each safe to open in a
    write_csv(tables.groups, folder / f"{tag}_groups.csv", float_format="%.4g")         # spreadsheet
    write_csv(tables.tests, folder / f"{tag}_tests.csv", float_format="%.6g")
    write_csv(tables.top12, folder / f"{tag}_top12.csv", index=True)
    return tables


# --------------------------------------------------------------------------------------------------
# Tables 3 and 6: ours beside the paper's
# --------------------------------------------------------------------------------------------------

def paper_table3(paper: dict) -> pd.DataFrame:
    """The paper's Table 3 (w2v first names), illustrative names joined.

    Parameters
    ----------
    paper : dict
        The paper's numbers (``data/stimuli/swinger2019.yaml``), with a ``table3`` entry.

    Returns
    -------
    pandas.DataFrame
        One row per group; ``illustrative`` is a comma-separated string.
    """
    p3 = pd.DataFrame(paper["table3"]["groups"])
    p3["illustrative"] = p3["illustrative"].map(", ".join)
    return p3


def paper_table6(paper: dict, embedding: str) -> pd.DataFrame:
    """The a-posteriori statistics of one embedding's groups in the paper's Table 6.

    Parameters
    ----------
    paper : dict
        The paper's numbers (``data/stimuli/swinger2019.yaml``), with a ``table6`` entry.
    embedding : {"fast", "glove", "deb", "w2v_last"}
        Which of Table 6's embeddings.

    Returns
    -------
    pandas.DataFrame
        One column per group; rows ``more``, the percentages and (first names) ``mean_year``.
    """
    p6 = pd.DataFrame(paper["table6"][embedding]["groups"]).set_index("group")
    return p6[[c for c in p6.columns if c.startswith("pct_") or c in ("mean_year", "more")]].T


def group_shares(groups: pd.DataFrame) -> dict:
    """How the groups split by sex and race.

    Parameters
    ----------
    groups : pandas.DataFrame
        One row per group, with ``pct_black``, ``pct_hispanic``, ``pct_asian`` and, for first names,
        ``pct_female``.

    Returns
    -------
    dict
        ``pct_female_range`` (e.g. ``"3-95"``), ``majority_black``, ``majority_hispanic``, ``majority_asian``
        (numbers of groups over 50%) and ``groups_over_90pct_one_sex``; the sex entries are ``None`` when
        ``groups`` has no ``pct_female`` (last names).

    Examples
    --------
    >>> groups = pd.DataFrame(dict(pct_female=[95.0, 40.0, 3.0], pct_black=[60.0, 5.0, 10.0],
    ...                            pct_hispanic=[1.0, 2.0, 3.0], pct_asian=[0.0, 55.0, 0.0]))
    >>> shares = group_shares(groups)
    >>> shares["pct_female_range"], shares["majority_black"], shares["groups_over_90pct_one_sex"]
    ('3-95', 1, 2)
    >>> group_shares(groups.drop(columns="pct_female"))["pct_female_range"] is None
    True
    """
    df = groups
    first = "pct_female" in df
    return dict(
        pct_female_range=f'{df["pct_female"].min():.0f}-{df["pct_female"].max():.0f}' if first else None,
        majority_black=int((df["pct_black"] > 50).sum()), majority_hispanic=int((df["pct_hispanic"] > 50).sum()),
        majority_asian=int((df["pct_asian"] > 50).sum()),
        groups_over_90pct_one_sex=int(((df["pct_female"] > 90) | (df["pct_female"] < 10)).sum()) if first else None)


def shares_table(groups: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """:func:`group_shares` of our first-name groups beside those of the paper's Table 3.

    Parameters
    ----------
    groups : pandas.DataFrame
        Our first-name groups (:func:`group_table`).
    paper : dict
        The paper's numbers (``data/stimuli/swinger2019.yaml``).

    Returns
    -------
    pandas.DataFrame
        Columns ``ours`` and ``paper (w2v)``, one row per entry of :func:`group_shares`.
    """
    return pd.DataFrame({"ours": group_shares(groups), "paper (w2v)": group_shares(paper_table3(paper))})


def pct_female_table(groups: pd.DataFrame, paper: dict, embedding: str) -> pd.DataFrame:
    """% female of each first-name group, ours beside the paper's.

    Ours (rounded), the paper's w2v (Table 3) and its fast, glove and deb. embeddings (Table 6).

    Parameters
    ----------
    groups, paper : pandas.DataFrame, dict
        Our first-name groups and the paper's numbers, as :func:`shares_table` takes them.
    embedding : str
        Our embedding's label.

    Returns
    -------
    pandas.DataFrame
        One row per embedding, one column per group (in natural order).
    """
    p3 = paper_table3(paper)
    table6 = {f"{e} (Table 6)": pd.DataFrame(paper["table6"][e]["groups"]).set_index("group")["pct_female"]
              for e in ("fast", "glove", "deb")}
    pct_f = pd.DataFrame({f"ours ({embedding})": groups.set_index("group")["pct_female"].round(0),
                          "w2v (Table 3)": p3.set_index("group")["pct_female"]} | table6)
    return pct_f.T[sorted(pct_f.index, key=natural_key)]


def paper_grid(table: dict) -> pd.DataFrame:
    """The paper's Table 5 or 8 in :func:`grid`'s layout.

    The rows are named by our topic labels (the paper does not name them).

    Parameters
    ----------
    table : dict
        ``paper["table5"]`` or ``paper["table8"]``: its ``columns`` (group labels) and ``rows`` (each with
        ``topic_ours`` and ``cells``, a group's words).

    Returns
    -------
    pandas.DataFrame
        One row per topic, one column per group; cells are comma-separated words, ``""`` where empty.

    Examples
    --------
    >>> table = dict(columns=["F1", "F2"], rows=[dict(topic_ours="food", cells={"F2": ["rice", "tea"]}),
    ...                                          dict(topic_ours="sport", cells={"F1": ["golf"]})])
    >>> paper_grid(table).to_dict(orient="index")
    {'food': {'F1': '', 'F2': 'rice, tea'}, 'sport': {'F1': 'golf', 'F2': ''}}
    """
    rows = [{g: ", ".join(ws) for g, ws in row["cells"].items()} | {"topic (our label)": row["topic_ours"]}
            for row in table["rows"]]
    return pd.DataFrame(rows).set_index("topic (our label)").reindex(columns=table["columns"]).fillna("")


# --------------------------------------------------------------------------------------------------
# Table 4, Section 4.2 and the summary
# --------------------------------------------------------------------------------------------------

def significance_summary(res: UBEResult) -> dict:
    """Table 4's "# significant" and Section 4.2's potential indirect biases (eq. 1) for one run.

    Parameters
    ----------
    res : UBEResult
        A UBE run (its p-values, its critical p and its fourtuples).

    Returns
    -------
    dict
        ``n_significant``, ``n_tests`` (cells with a test), ``n_cells``, ``critical_p``, ``min_p``,
        ``fourtuples`` (significant fourtuples) and ``pct_indirect_bias`` (NaN when there are none).
    """
    hits, total = res.indirect_bias()
    return dict(n_significant=res.n_significant(), n_tests=int(np.isfinite(res.sigma).sum()),
                n_cells=res.n * res.m, critical_p=res.critical_p,
                min_p=float(res.p.min()), fourtuples=total,
                pct_indirect_bias=(100.0 * hits / total) if total else float("nan"))


def summary_row(res: UBEResult, run: str) -> dict:
    """One row of ``summary.csv``.

    Parameters
    ----------
    res : UBEResult
        A UBE run.
    run : str
        The run's name.

    Returns
    -------
    dict
        ``run``, then the entries of :func:`significance_summary`.
    """
    return dict(run=run, **significance_summary(res))


def write_summary(rows: Sequence[dict], embedding: str, folder) -> pd.DataFrame:
    """Write the runs' summary rows to ``folder/summary.csv``.

    Parameters
    ----------
    rows : sequence of dict
        The :func:`summary_row` of every run.
    embedding : str
        The embedding's label, inserted as the second column.
    folder : str or path-like
        An existing folder to write to.

    Returns
    -------
    pandas.DataFrame
        The summary written.
    """
    summary = pd.DataFrame(list(rows))
    summary.insert(1, "embedding", embedding)
    write_csv(summary, Path(folder) / "summary.csv", float_format="%.6g")
    return summary


def table4(summary: dict, paper: dict, embedding: str) -> pd.DataFrame:
    """Table 4: our number of significant associations beside the paper's three embeddings.

    The accuracy and offensiveness columns need crowd workers.

    Parameters
    ----------
    summary : dict
        Our run's :func:`significance_summary`.
    paper : dict
        The paper's numbers (``data/stimuli/swinger2019.yaml``).
    embedding : str
        Our embedding's label.

    Returns
    -------
    pandas.DataFrame
        One row for ours and one per paper embedding.
    """
    p4 = pd.DataFrame(paper["table4"]).set_index("embedding")
    ours = {"embedding": embedding, "# significant": summary["n_significant"],
            "% accurate": "needs crowd workers", "% offensive": "needs crowd workers"}
    theirs = {f"paper: {e}": {"embedding": e, "# significant": r.n_significant, "% accurate": r.pct_accurate,
                              "% offensive": r.pct_offensive} for e, r in p4.iterrows()}
    return pd.DataFrame({"ours": ours} | theirs).T


def indirect_bias_table(summary: dict, paper: dict, embedding: str) -> pd.DataFrame:
    """Section 4.2: significant fourtuples and % potential indirect bias, ours beside the paper's.

    Parameters
    ----------
    summary, paper, embedding : dict, dict, str
        Our run's :func:`significance_summary`, the paper's numbers and our embedding's label, as :func:`table4`
        takes them.

    Returns
    -------
    pandas.DataFrame
        One row per embedding, ours first.
    """
    pi = pd.DataFrame(paper["indirect_bias"]).set_index("embedding")
    ours = f"ours ({embedding})"
    return pd.DataFrame({
        "significant fourtuples": {ours: summary["fourtuples"], **pi["n_fourtuples"].to_dict()},
        "% potential indirect bias": {ours: round(summary["pct_indirect_bias"], 1),
                                      **pi["pct_potential_indirect_bias"].to_dict()}})


# --------------------------------------------------------------------------------------------------
# Table 7: a hard-debiased embedding
# --------------------------------------------------------------------------------------------------

def debiased_embedding(debiased: str, kv):
    """Table 7's embedding and the debiasing report.

    Parameters
    ----------
    debiased : str
        ``"auto"`` hard-debiases ``kv`` (:func:`wordbias.measures.debiasing.debias.hard_debias`); another non-empty
        string is an embedding name or path to load; ``""`` skips Table 7.
    kv : KeyedVectors
        The original embedding.

    Returns
    -------
    embedding : KeyedVectors or None
        The debiased embedding (``None`` for ``""``).
    report : HardDebiasReport or None
        The debiasing report (``None`` unless ``"auto"``).
    """
    if debiased == "auto":
        return debias.hard_debias(kv)
    if debiased:
        return embeddings.load(debiased, progress=False), None
    return None, None


def debias_summary(report) -> dict:
    """The scalar entries of a debiasing report, floats to 4 decimals.

    Parameters
    ----------
    report : HardDebiasReport
        A :class:`~wordbias.measures.debiasing.debias.HardDebiasReport`.

    Returns
    -------
    dict
        The entries of ``report.summary()`` that are not lists or dicts.
    """
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in report.summary().items()
            if not isinstance(v, (list, dict))}


def debiasing_by_group(groups: pd.DataFrame, res: UBEResult, groups_deb: pd.DataFrame,
                       res_deb: UBEResult) -> pd.DataFrame:
    """Table 7's comparison: per first-name group, % female and # significant, original and hard-debiased.

    Group k of one run sits beside group k of the other, both in display order.

    Parameters
    ----------
    groups : pandas.DataFrame
        The original run's first-name groups (:func:`group_table`).
    res : UBEResult
        The original run.
    groups_deb : pandas.DataFrame
        The debiased run's first-name groups.
    res_deb : UBEResult
        The debiased run.

    Returns
    -------
    pandas.DataFrame
        One row per group (F1..Fn), four columns.
    """
    return pd.DataFrame({
        "original: % female": groups["pct_female"].round(0).to_numpy(),
        "original: # significant": res.significant.sum(axis=1),
        "debiased: % female": groups_deb["pct_female"].round(0).to_numpy(),
        "debiased: # significant": res_deb.significant.sum(axis=1)}, index=labels("first", res.n))


def table_words(res: UBEResult, *, top: int | None = 12) -> list[str]:
    """The words of the significant cells of the ``top`` categories (Table 5's words).

    One entry per word of each cell, in the grid's order (category in output order, then group).

    Parameters
    ----------
    res : UBEResult
        A UBE run.
    top : int or None, default 12
        The number of categories with a significant cell; ``None`` takes every significant cell.

    Returns
    -------
    list of str
        The words.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> fake = SimpleNamespace(n=2, significant=np.array([[True, False], [True, True]]),
    ...                        category_order=lambda: [1, 0], selected_words=lambda i, j: [f"w{i}{j}"])
    >>> table_words(fake), table_words(fake, top=1)
    (['w11', 'w00', 'w10'], ['w11'])
    """
    cats = [j for j in res.category_order() if res.significant[:, j].any()]
    cats = cats if top is None else cats[:top]
    return [w for j in cats for i in range(res.n) if res.significant[i, j] for w in res.selected_words(i, j)]


def case_effect_table(runs: dict, *, top: int | None = 12, counts: pd.DataFrame | None = None) -> pd.DataFrame:
    """What Step 2's case rule changes, one row per run.

    For each run: the rule, the number of candidate words, # significant (Table 4), the words of Table 5
    (:func:`table_words` of the ``top`` categories) and the share of them that are proper nouns as judged by their
    capitalisation in the middle of sentences of the GAP passages
    (:func:`wordbias.datasets.casing.judge_proper_nouns`), a source independent of the word list the stand-in
    filters with. ``judged`` counts the words GAP has at least twice; the share is over them.

    Parameters
    ----------
    runs : dict
        Maps a run's name to its :class:`~wordbias.measures.enumeration.ube_result.UBEResult`.
    top : int or None, default 12
        The number of categories whose words are judged (``None``: all significant cells).
    counts : pandas.DataFrame or None, default None
        Capitalisation counts that replace GAP's (as :func:`wordbias.datasets.casing.judge_proper_nouns` takes
        them).

    Returns
    -------
    pandas.DataFrame
        One row per run, indexed by ``run``.
    """
    from wordbias.datasets import casing

    rows = []
    for run_name, res in runs.items():
        words = table_words(res, top=top)
        share = casing.proper_noun_share(casing.judge_proper_nouns(words, counts))
        rows.append({"run": run_name, "case rule": CASE_RULES.get(res.params.get("case_source"), "?"),
                     "candidate words": len(res.words), "# significant": res.n_significant(),
                     "words in Table 5": len(words), "judged (in GAP)": share["judged"],
                     "% proper nouns (GAP)": round(100 * share["share"], 1)})
    return pd.DataFrame(rows).set_index("run")


def n_significant_one_sex(groups: pd.DataFrame, res: UBEResult) -> int:
    """Significant associations of the groups over 90% or under 10% female.

    Parameters
    ----------
    groups : pandas.DataFrame
        The run's first-name groups, with ``pct_female``, in the run's group order.
    res : UBEResult
        The run.

    Returns
    -------
    int
        The number of significant cells of those groups.
    """
    return int(res.significant[((groups["pct_female"] > 90) | (groups["pct_female"] < 10)).to_numpy()].sum())


# --------------------------------------------------------------------------------------------------
# Section 4.1: crowdsourcing materials
# --------------------------------------------------------------------------------------------------

def group_cards(res: UBEResult, kv, kind: str, *, k: int = 5) -> pd.DataFrame:
    """What crowd workers see for each group: its label and k illustrative names.

    Parameters
    ----------
    res : UBEResult
        A UBE run, groups in display order.
    kv : KeyedVectors
        The embedding.
    kind : {"first", "last"}
        Whether the names are first or last names.
    k : int, default 5
        The number of illustrative names.

    Returns
    -------
    pandas.DataFrame
        Columns ``group`` and ``illustrative``.
    """
    t = group_table(res, kv, kind, k=k)
    return t[["group", "illustrative"]]


def qualification_exam(res: UBEResult, kind: str, *, per_group: int = 3, seed: int = 0,
                       exclude: Sequence[Sequence[str]] | None = None) -> pd.DataFrame:
    """Section 4.1's qualification exam: a worker must name each name's group.

    ``per_group`` random names are drawn from each group (36 for n = 12) and put in random order.

    Parameters
    ----------
    res, kind : UBEResult, {"first", "last"}
        A UBE run and the kind of its names, as :func:`cells_table` takes them.
    per_group : int, default 3
        Names drawn from each group.
    seed : int, default 0
        Seed of the draws and of the order.
    exclude : sequence of sequence of str or None, default None
        ``exclude[i]`` are names of group i never drawn (e.g. those the group cards show), compared
        case-insensitively.

    Returns
    -------
    pandas.DataFrame
        Columns ``question``, ``name`` and ``answer`` (the group's label).

    Raises
    ------
    ValueError
        When a group has fewer than ``per_group`` names left to draw.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for i, grp in enumerate(res.groups()):
        skip = {w.lower() for w in exclude[i]} if exclude is not None else set()
        pool = [w for w in grp if w.lower() not in skip]
        if len(pool) < per_group:
            raise ValueError(f"group {i + 1} has only {len(pool)} names to draw {per_group} from")
        for w in rng.choice(pool, size=per_group, replace=False):
            rows.append(dict(name=str(w).capitalize(), answer=labels(kind, res.n)[i]))
    exam = pd.DataFrame(rows).iloc[rng.permutation(len(rows))].reset_index(drop=True)
    exam.insert(0, "question", np.arange(1, len(exam) + 1))
    return exam


def matching_tasks(res: UBEResult, kind: str, *, top: int = 12) -> pd.DataFrame:
    """Section 4.1's main task: match each significant word triple to a group.

    For each of the ``top`` WEATs, each significant word triple is to be matched to one of the c groups that
    have a significant triple in that WEAT (the choices). ``answer`` is the group the algorithm generated; keep
    it from the workers.

    Parameters
    ----------
    res, kind : UBEResult, {"first", "last"}
        A UBE run and the kind of its names, as :func:`cells_table` takes them.
    top : int, default 12
        The number of WEATs.

    Returns
    -------
    pandas.DataFrame
        Columns ``weat``, ``category``, ``words``, ``choices``, ``n_choices`` and ``answer``.
    """
    lab = labels(kind, res.n)
    cats = [j for j in res.category_order() if res.significant[:, j].any()][:top]
    rows = []
    for rank, j in enumerate(cats, start=1):
        groups = [i for i in range(res.n) if res.significant[i, j]]
        for i in groups:
            rows.append(dict(weat=rank, category=f"A{j}", words=", ".join(res.selected_words(i, j)),
                             choices=" ".join(lab[g] for g in groups), n_choices=len(groups), answer=lab[i]))
    return pd.DataFrame(rows)


def rating_tasks(matching: pd.DataFrame) -> pd.DataFrame:
    """Section 4.1's offensiveness rating of each association (group, triple).

    On a 1–7 scale, 7 = "politically incorrect, possibly very offensive", 1 = "politically correct, inoffensive,
    or just random". The paper rates only associations whose crowd plurality matched ``answer``: filter after
    collecting the matches.

    Parameters
    ----------
    matching : pandas.DataFrame
        :func:`matching_tasks`.

    Returns
    -------
    pandas.DataFrame
        Columns ``weat``, ``category``, ``group``, ``words`` and an empty ``rating_1_to_7``.
    """
    out = matching[["weat", "category", "answer", "words"]].rename(columns={"answer": "group"}).copy()
    out["rating_1_to_7"] = ""
    return out


@dataclass(frozen=True)
class Crowdsourcing:
    """Section 4.1's materials for one run.

    Attributes
    ----------
    cards, exam, matching, rating : pandas.DataFrame
        :func:`group_cards`, :func:`qualification_exam`, :func:`matching_tasks` and :func:`rating_tasks`.
    """

    cards: pd.DataFrame
    exam: pd.DataFrame
    matching: pd.DataFrame
    rating: pd.DataFrame

    def write(self, folder) -> None:
        """Write the four tables to ``folder`` as CSV files.

        The files are ``group_cards.csv``, ``qualification_exam.csv``, ``matching_tasks.csv`` and
        ``rating_tasks.csv``.

        Parameters
        ----------
        folder : str or path-like
            The folder, created if needed.
        """
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for frame, name in ((self.cards, "group_cards.csv"), (self.exam, "qualification_exam.csv"),
                            (self.matching, "matching_tasks.csv"), (self.rating, "rating_tasks.csv")):
            write_csv(frame, folder / name)      # safe to open in a spreadsheet (a name never runs as a formula)


def crowdsourcing(res: UBEResult, kv, kind: str, *, seed: int = 0) -> Crowdsourcing:
    """All of Section 4.1's materials; the exam draws no name that the group cards show.

    Parameters
    ----------
    res, kv, kind : UBEResult, KeyedVectors, {"first", "last"}
        The run, the embedding and the kind of names, as :func:`group_cards` takes them.
    seed : int, default 0
        Seed of the qualification exam.

    Returns
    -------
    Crowdsourcing
        The cards, exam, matching and rating tables.
    """
    cards = group_cards(res, kv, kind)
    shown = [g.lower().split(", ") for g in cards["illustrative"]]
    exam = qualification_exam(res, kind, seed=seed, exclude=shown)
    matching = matching_tasks(res, kind)
    return Crowdsourcing(cards=cards, exam=exam, matching=matching, rating=rating_tasks(matching))


# --------------------------------------------------------------------------------------------------
# the notebook's committed results in lesson size (notebooks/lessons/04_beyond_one_test.ipynb)
# --------------------------------------------------------------------------------------------------

def ube_summary(*, embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """The Swinger notebook's runs, one row per run.

    Names clustered, significant associations of all tests, and the share of significant four-tuples that are
    potential indirect biases (Table 4, Section 4.2), read from the notebook's committed ``summary.csv``.

    Parameters
    ----------
    embedding : str, default "glove-6b-50d"
        The embedding whose results are read.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``run``.

    Raises
    ------
    FileNotFoundError
        When the committed results are missing.
    """
    s = read_results("swinger2019", "summary.csv", embedding=embedding)
    return pd.DataFrame({"run": s["run"], "significant associations": s["n_significant"],
                         "tests": s["n_tests"], "smallest possible p": s["min_p"],
                         "% potential indirect bias": s["pct_indirect_bias"]}).set_index("run")


def ube_groups(kind: str = "first", *, embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """The name groups UBE found (Table 3), with statistics the algorithm never saw.

    % female (first names), mean year of birth, and the largest of the % Black, Hispanic, Asian, White shares.

    Parameters
    ----------
    kind : {"first", "last"}, default "first"
        Which run's groups.
    embedding : str, default "glove-6b-50d"
        The embedding whose results are read.

    Returns
    -------
    pandas.DataFrame
        One row per group, indexed by ``group``.

    Raises
    ------
    InvalidParameterError
        When ``kind`` is not a name source.
    FileNotFoundError
        When the committed results are missing.
    """
    check_option("kind", kind, NAME_SOURCES)
    g = read_results("swinger2019", f"{kind}_groups.csv", embedding=embedding)
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
    """The ``top`` WEATs UBE found, one row per significant association.

    Table 5's rows, strongest first: the word category, the name group, its illustrative names and the three
    words; slurs bleep-censored unless ``censored=False`` (the CSV keeps the words).

    Parameters
    ----------
    kind : {"first", "last"}, default "first"
        Which run's WEATs.
    top : int, default 5
        The number of WEATs (>= 1).
    embedding : str, default "glove-6b-50d"
        The embedding whose results are read.
    censored : bool, default True
        Whether slurs are bleep-censored.

    Returns
    -------
    pandas.DataFrame
        Columns ``category``, ``group``, ``group's names (first 3)``, ``group (a posteriori)`` and ``words``.

    Raises
    ------
    InvalidParameterError
        When ``top`` is not an integer >= 1 or ``kind`` is not a name source.
    FileNotFoundError
        When the committed results are missing.
    """
    if not isinstance(top, int) or isinstance(top, bool) or top < 1:
        raise InvalidParameterError(f"top must be an integer >= 1, not {top!r}")
    check_option("kind", kind, NAME_SOURCES)
    top12 = read_results("swinger2019", f"{kind}_top12.csv", embedding=embedding).head(top)
    groups = ube_groups(kind, embedding=embedding)
    rows = []
    label = top12.columns[0]  # "category" or, since the categories are named, "category: most central words"
    for _, row in top12.iterrows():
        for group in top12.columns[1:]:
            words = row[group]
            if isinstance(words, str) and words:
                g = groups.loc[group]
                about = (f"{g['% female']}% female, " if "% female" in groups else "") + g["largest share"]
                rows.append({"category": row[label], "group": group,
                             "group's names (first 3)": ", ".join(g["illustrative names"].split(", ")[:3]),
                             "group (a posteriori)": about, "words": _censor.censor(words, enabled=censored)})
    return pd.DataFrame(rows)
