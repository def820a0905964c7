"""Kurita, Vyas, Pareek, Black & Tsvetkov (2019), "Measuring Bias in Contextualized Word Representations"
(GeBNLP, https://doi.org/10.18653/v1/W19-3823): the notebook ``kurita2019``'s parameters and models, and Table 3.

Table 3 compares three methods on five WEAT categories (:func:`categories`, data of
:mod:`wordbias.datasets.contextual_tests`) with the lists reduced to the BERT vocabulary (§3.1): WEAT on GloVe,
WEAT on contextual vectors (§3.1) and the log probability bias score's test (§3.2). :func:`table3` measures each
of these tests once (:func:`wordbias.measures.language_models.contextual.measure`, which also holds the methods named here for the
notebook and lesson 5: :func:`reduce_to_vocabulary`, :func:`contextual_vectors`, :func:`log_prob_test`) into a
:class:`Table3`; the paper-vs-ours table (:meth:`Table3.to_frame`, with a bootstrap interval of each d, the
two-sided p and Holm and Benjamini-Hochberg adjusted p per method: :func:`adjust_per_method`), the tidy table
(:func:`wordbias.battery.contextual.tidy_table` of :attr:`Table3.contextual`), the reduced lists
(:func:`vocabulary_report`) and the template spread (:mod:`wordbias.papers.kurita2019_templates`) are views of it.

The rest of the paper: Table 5 in :mod:`wordbias.papers.kurita2019_table5`, Section 4 (GAP, Tables 4 and 6) in
:mod:`wordbias.papers.kurita2019_gap`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from wordbias.core import figures as plots
from wordbias.core import tables as _tables
from wordbias.core.errors import InvalidParameterError, ModelUnavailable
from wordbias.core.validation import check_int
from wordbias.datasets.contextual_tests import ROLES, Category
from wordbias.datasets.contextual_tests import kurita2019_categories as categories
from wordbias.measures.language_models import mlm
from wordbias.measures.language_models.contextual import (
    N_RESAMPLES,
    CategoryResult,
    contextual_vectors,
    log_prob_test,
    measure,
    reduce_to_vocabulary,
)
from wordbias.models import contextual
from wordbias.options import Resampling, Words
from wordbias.stats import multiple

__all__ = [
    # the notebook's parameters and models
    "DEFAULT_GLOVE", "check_parameters", "try_load", "Models", "load_models",
    # the categories and the §3.1/§3.2 methods (defined in datasets.contextual_tests and measures.contextual)
    "ROLES", "Category", "categories", "reduce_to_vocabulary", "contextual_vectors", "log_prob_test",
    # Table 3: measured once, then shown
    "ALPHA", "GLOVE_WEAT", "CONTEXTUAL_WEAT", "LOG_PROB", "METHODS", "N_RESAMPLES", "Table3", "table3",
    "table3_row", "table3_family", "adjust_per_method", "vocabulary_report", "table3_shown", "table3_student",
    "table3_details", "table3_figure",
]

#: the static embedding of Table 3's first column in the committed runs (the authors' GloVe 840B vectors of the
#: stimuli); a run on another one gets its own output folder
DEFAULT_GLOVE = "glove-840b-caliskan"
#: significance level of Table 3 ("* indicates significant at p < 0.01")
ALPHA = 0.01
#: Table 3's three methods, as its rows name them
GLOVE_WEAT = "WEAT on GloVe (reduced lists)"
CONTEXTUAL_WEAT = "WEAT on BERT (contextual vectors)"
LOG_PROB = "log probability bias score"
#: Table 3's method for each measure of :func:`wordbias.measures.language_models.contextual.measure`
METHODS = {"weat": GLOVE_WEAT, "contextual_weat": CONTEXTUAL_WEAT, "mlm_log_prob": LOG_PROB}
#: the paper's numbers of each measure in a category's ``paper`` (effect size, whether significant)
_PAPER = {"weat": ("glove", "glove_significant"), "contextual_weat": ("bert_weat", "bert_weat_significant"),
          "mlm_log_prob": ("log_prob", "log_prob_significant")}
#: the columns of :meth:`Table3.to_frame` before the adjusted p
COLUMNS = ["category", "method", "model", "paper_effect_size", "paper_significant", "effect_size",
           "effect_size_ci_low", "effect_size_ci_high", "p_value", "p_method", "alternative", "p_two_sided",
           "significant", "n", "note"]
_NAN = float("nan")


# --------------------------------------------------------------------------------------------------
# the notebook's parameters
# --------------------------------------------------------------------------------------------------


def check_parameters(*, mlm_model, encoder_model, fallback_encoder, glove, seed, n_permutations, batch_size,
                     gap_seeds) -> None:
    """Check the notebook's parameters before any model is loaded.

    The parameters arrive through papermill ``-p`` (``-p seed abc`` arrives as the string ``'abc'``); an error
    names the parameter, the value and what is allowed.

    Parameters
    ----------
    mlm_model, encoder_model, fallback_encoder : str
        The masked LM, the encoder and the encoder used when that one is not on this machine (non-empty model
        names or paths).
    glove : str
        The static embedding's name or path (non-empty).
    seed : int
        The seed (>= 0).
    n_permutations : int
        Random partitions of the Monte Carlo p (>= 1).
    batch_size : int
        Sentences per model batch (>= 1).
    gap_seeds : int
        Seeds of the GAP experiment (>= 1).

    Raises
    ------
    InvalidParameterError
        When a parameter has the wrong type or value.

    Examples
    --------
    >>> ok = dict(mlm_model="bert-base-uncased", encoder_model="bert-base-uncased",
    ...           fallback_encoder="all-minilm-l6-v2", glove="glove-840b-caliskan", seed=0, n_permutations=100_000,
    ...           batch_size=32, gap_seeds=5)
    >>> check_parameters(**ok)
    >>> check_parameters(**{**ok, "seed": "abc"})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: seed must be an integer, not 'abc' (str)
    """
    for name, value in (("mlm_model", mlm_model), ("encoder_model", encoder_model),
                        ("fallback_encoder", fallback_encoder), ("glove", glove)):
        if not isinstance(value, str) or not value.strip():
            raise InvalidParameterError(f"{name} must be a model or embedding name or path (a non-empty string), "
                                        f"not {value!r}")
    check_int("seed", seed, min=0)
    check_int("n_permutations", n_permutations, min=1)
    check_int("batch_size", batch_size, min=1)
    check_int("gap_seeds", gap_seeds, min=1)


# --------------------------------------------------------------------------------------------------
# the models
# --------------------------------------------------------------------------------------------------


def try_load(loader: Callable[[str], contextual.Model], name: str) -> tuple[contextual.Model | None, str | None]:
    """Load a model, or say why it is not on this machine.

    Parameters
    ----------
    loader : callable
        Loads a model from its name (e.g. :func:`wordbias.measures.language_models.mlm.load_mlm`).
    name : str
        The model's name or path.

    Returns
    -------
    model : Model or None
        ``loader(name)``, or ``None`` when the model is not on this machine.
    reason : str or None
        ``None``, or the message of the :class:`~wordbias.core.errors.ModelUnavailable` raised (it names the
        model and where to get it). Other errors propagate.

    Examples
    --------
    >>> def absent(name):
    ...     raise ModelUnavailable(f"model {name!r} is not available")
    >>> try_load(absent, "bert-base-uncased")
    (None, "model 'bert-base-uncased' is not available")
    """
    try:
        return loader(name), None
    except ModelUnavailable as exc:
        return None, str(exc)


@dataclass(frozen=True)
class Models:
    """The models of a notebook run (:func:`load_models`).

    Attributes
    ----------
    masked_lm : Model or None
        The masked LM (``None`` when not on this machine).
    encoder : Model or None
        The encoder (``None`` when neither it nor the fallback is on this machine).
    status : mapping of str to str or None
        The reason for each missing model, by role.
    mlm_name : str
        The masked LM asked for.
    """

    masked_lm: contextual.Model | None
    encoder: contextual.Model | None
    status: Mapping[str, str | None]
    mlm_name: str

    @property
    def vocabulary_model(self) -> contextual.Model | None:
        """The model whose tokenizer decides the reduced lists: the encoder, else the masked LM."""
        return self.encoder if self.encoder is not None else self.masked_lm

    @property
    def run(self) -> str:
        """The run's name (the result folder): the labels of the loaded models, e.g. ``all-minilm-l6-v2``."""
        return "+".join(dict.fromkeys(m.label for m in (self.encoder, self.masked_lm) if m is not None))

    @property
    def no_mlm(self) -> str:
        """The note for the masked-LM columns when there is no masked LM ("" when there is one)."""
        return f"no masked LM: {self.mlm_name!r} is not available" if self.masked_lm is None else ""

    def describe(self) -> str:
        """Markdown lines: the models used, the result folder and why any model is missing.

        Returns
        -------
        str
            A Markdown list.
        """
        lines = [f"- masked LM: **{self.masked_lm.label if self.masked_lm else 'none'}**",
                 f"- encoder: **{self.encoder.label if self.encoder else 'none'}**",
                 f"- results: `results/kurita2019/{self.run}/`"]
        lines += [f"- {k}: {v}" for k, v in self.status.items() if v]
        return "\n".join(lines)


def load_models(mlm_model: str, encoder_model: str, fallback_encoder: str) -> Models:
    """Load the masked LM and the encoder the notebook names, never substituting silently.

    An encoder that is not on this machine is replaced by ``fallback_encoder`` (the bundled MiniLM) and the
    status says so; a missing masked LM stays ``None`` (its sections say why).

    Parameters
    ----------
    mlm_model : str
        The masked LM's name or path.
    encoder_model : str
        The encoder's name or path.
    fallback_encoder : str
        The encoder loaded when ``encoder_model`` is not on this machine.

    Returns
    -------
    Models
        The models and the status of each.
    """
    status: dict[str, str | None] = {}
    masked_lm, status["masked LM"] = try_load(mlm.load_mlm, mlm_model)
    if masked_lm is None:
        status["masked LM"] += (" Without a masked LM, the log-probability column of Table 3 and Table 5 stay empty "
                                "and the GAP topic scores use the encoder's cosine stand-in; to run them, pass "
                                "`-p mlm_model <hub id or folder>` once the model is on this machine.")
    encoder, status["encoder"] = try_load(contextual.load_encoder, encoder_model)
    if encoder is None:
        encoder, status["fallback encoder"] = try_load(contextual.load_encoder, fallback_encoder)
        status["encoder"] += f" Falling back to {fallback_encoder!r}."
    return Models(masked_lm=masked_lm, encoder=encoder, status=status, mlm_name=mlm_model)


# --------------------------------------------------------------------------------------------------
# Table 3: each test measured once, then shown
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table3:
    """Table 3's tests, each measured once (:func:`table3`).

    Per category, in Table 3's order, WEAT on the static embedding, WEAT on contextual vectors and the
    log-probability test. The views read them and compute no test: :meth:`to_frame` (paper vs ours),
    :attr:`contextual` (for :func:`wordbias.battery.contextual.tidy_table`), :func:`vocabulary_report` and
    :func:`wordbias.papers.kurita2019_templates.template_tables`.

    Attributes
    ----------
    results : tuple of CategoryResult
        The tests (:class:`wordbias.measures.language_models.contextual.CategoryResult`: the reduced lists, the test, its
        interval and two-sided p, the per-template vectors).
    """

    results: tuple[CategoryResult, ...]

    @property
    def contextual(self) -> list[CategoryResult]:
        """The results of the two contextual measures (WEAT on contextual vectors, the log-probability test)."""
        return [r for r in self.results if r.measure != "weat"]

    def to_frame(self) -> pd.DataFrame:
        """Table 3, long format (``table3.csv``): one row per category and method, paper next to ours.

        Rows are :func:`table3_row`, with Holm and Benjamini-Hochberg adjusted p per method
        (:func:`adjust_per_method`).

        Returns
        -------
        pandas.DataFrame
            The columns of ``COLUMNS``, then ``p_holm``, ``p_bh`` and ``p_family``.
        """
        return adjust_per_method(pd.DataFrame([table3_row(r) for r in self.results], columns=COLUMNS))


def table3(cats: Sequence[Category], *, embedding, embedding_name: str, encoder: contextual.Model | None,
           masked_lm: contextual.Model | None, vocabulary_model: contextual.Model | None, words: Words | None = None,
           p_method: str = "auto", resampling: Resampling | None = None, unavailable: str = "",
           batch_size: int = 32, progress: bool = False) -> Table3:
    """Measure every test of Table 3 once (:func:`wordbias.measures.language_models.contextual.measure`).

    Per category: WEAT on ``embedding`` with the reduced lists, WEAT on ``encoder``'s contextual vectors and
    the log-probability test on ``masked_lm``.

    Uncertainty: each WEAT's p is one-sided ("greater", the paper's test) with the two-sided p of the same
    method (SciPy's doubling rule) beside it; each d has its BCa bootstrap interval at
    ``resampling.confidence_level`` over the words (each set resampled, ``resampling.n_resamples`` resamples
    seeded by ``resampling.seed``):
    :func:`wordbias.measures.association.bootstrap.weat_bootstrap` on the GloVe vectors or on the contextual vectors, and for
    the log-probability test the attribute test's own ``effect_size_ci``. :meth:`Table3.to_frame` adds the p
    adjusted within each method (:func:`adjust_per_method`, which says why a family per method).

    Parameters
    ----------
    cats : sequence of Category
        The categories (:func:`categories`).
    embedding : KeyedVectors or str or path-like
        The static embedding.
    embedding_name : str
        The static embedding's name in the table.
    encoder : Model or None
        The encoder of the contextual vectors; ``None`` leaves that method not run.
    masked_lm : Model or None
        The masked LM of the log-probability test; ``None`` leaves that method not run.
    vocabulary_model : Model or None
        The model whose tokenizer decides the reduced lists (§3.1; MiniLM shares bert-base-uncased's).
    words : Words, optional
        How the WEAT on ``embedding`` treats its lists; ``Words(case_fold=True)`` looks words up
        case-insensitively (for an uncased embedding). None:
        :data:`wordbias.measures.language_models.contextual.DEFAULT_WORDS` (exact case).
    p_method : str, default "auto"
        How the p-values are computed (as :func:`wordbias.measures.language_models.contextual.measure` takes it).
    resampling : Resampling, optional
        The seed of the permutations and the bootstrap, the random partitions of a Monte Carlo p
        (``n_permutations``), the bootstrap resamples of each interval (``n_resamples``) and their
        ``confidence_level``. None: :data:`wordbias.measures.language_models.contextual.DEFAULT_RESAMPLING`
        (100,000 permutations, 10,000 resamples, 95%, seed 0).
    unavailable : str, default ""
        The reason recorded for a method whose model is ``None``.
    batch_size, progress : int, bool
        Sentences per model batch (default 32) and whether to show a progress bar (default False).

    Returns
    -------
    Table3
        The measured tests.

    Raises
    ------
    InvalidParameterError
        When ``p_method``, ``resampling``, ``words`` or ``batch_size`` is invalid (checked before any work).
    """
    results = measure(cats, encoder=encoder, masked_lm=masked_lm, vocabulary_model=vocabulary_model,
                      embedding=embedding, embedding_name=embedding_name, p_method=p_method, resampling=resampling,
                      words=words, batch_size=batch_size, progress=progress,
                      why_not_run={"contextual_weat": unavailable, "mlm_log_prob": unavailable})
    return Table3(tuple(results))


def _n_text(r: CategoryResult) -> str | None:
    """The words a test ran on, as Table 3's ``n`` says it."""
    if r.measure == "mlm_log_prob":
        return f"{len(r.test.A)}+{len(r.test.B)} attributes"
    words = r.test.X.words if r.measure == "weat" else r.reduced["X"].words
    return f"{len(words)}x2 targets"


def _note(r: CategoryResult) -> str:
    """Why a value is missing, or the words the static embedding lacks."""
    if not r.ran:
        return r.not_run
    if r.measure == "weat":
        return "; ".join(f"not in {r.model}: {' '.join(v)}" for v in r.test.missing.values())
    return r.undefined


def table3_row(r: CategoryResult) -> dict:
    """One row of Table 3 (the columns ``COLUMNS``) read off one measured test.

    The paper's effect size and asterisk, ours with "significant" at :data:`ALPHA`, the interval, p one- and
    two-sided with the method, the words used (``n``) and ``note`` (why a value is missing; words the static
    embedding lacks). A method without its model reads ``model`` "-".

    Parameters
    ----------
    r : CategoryResult
        One measured test.

    Returns
    -------
    dict
        The row.
    """
    cat = r.category
    paper_d, paper_sig = (cat.paper[k] for k in _PAPER[r.measure])
    row = dict.fromkeys(COLUMNS)
    row.update(category=cat.title, method=METHODS[r.measure], model=r.model or "-", paper_effect_size=paper_d,
               paper_significant=paper_sig, effect_size_ci_low=r.ci_low, effect_size_ci_high=r.ci_high,
               p_two_sided=r.p_two_sided, note=_note(r))
    if r.ran:
        row.update(effect_size=r.effect_size, alternative=r.alternative, n=_n_text(r))
    if r.defined:
        row.update(p_value=r.p_value, p_method=r.p_method, significant=bool(r.p_value < ALPHA))
    return row


def table3_family(method: str, n: int) -> str:
    """The name of Table 3's family of tests for one method.

    Parameters
    ----------
    method : str
        The method (a row name of Table 3).
    n : int
        The number of categories run by that method.

    Returns
    -------
    str
        The family's name.

    Examples
    --------
    >>> table3_family("log probability bias score", 5)
    'Table 3, log probability bias score: 5 categories (one-sided p)'
    """
    return f"Table 3, {method}: {n} categor{'y' if n == 1 else 'ies'} (one-sided p)"


def adjust_per_method(t3: pd.DataFrame) -> pd.DataFrame:
    """Adjust the one-sided p of Table 3 within each method over its categories.

    Adds ``p_holm``, ``p_bh`` (Holm 1979; Benjamini & Hochberg 1995; :func:`wordbias.stats.multiple.adjust`) and
    ``p_family``.

    One family per method, because each method (a column of the paper's Table 3) is its own replication
    question, "does this measure find the five WEAT biases?", asked of its own model; the three methods test
    the same five hypotheses on the same word lists, so one family of all rows would count each hypothesis
    three times and penalise a method for the others being run beside it. Rows without a p (no model, or an
    undefined test) are not in any family (NaN).

    Parameters
    ----------
    t3 : pandas.DataFrame
        Table 3 rows with ``category``, ``method`` and ``p_value``.

    Returns
    -------
    pandas.DataFrame
        A copy of ``t3`` with ``p_holm``, ``p_bh`` and ``p_family``.

    Examples
    --------
    Method m1: Holm 3·0.01, max(2·0.02, 0.03), 0.04; BH 3·0.01/1, 3·0.02/2, 3·0.04/3. m2 has one p:

    >>> t = pd.DataFrame({"category": ["a", "b", "c", "a", "b"], "method": ["m1", "m1", "m1", "m2", "m2"],
    ...                   "p_value": [0.01, 0.02, 0.04, 0.02, float("nan")]})
    >>> a = adjust_per_method(t)
    >>> a[["p_holm", "p_bh"]].round(3).values.tolist()
    [[0.03, 0.03], [0.04, 0.03], [0.04, 0.04], [0.02, 0.02], [nan, nan]]
    >>> a.p_family.tolist()[2:]
    ['Table 3, m1: 3 categories (one-sided p)', 'Table 3, m2: 1 category (one-sided p)', None]
    """
    out = t3.assign(p_holm=np.nan, p_bh=np.nan, p_family=None)
    for method, rows in out.groupby("method", sort=False):
        rows = rows[rows.p_value.notna()]
        if rows.empty:
            continue
        adj = multiple.adjust(rows.p_value.to_numpy(float), tests=[str(c) for c in rows.category],
                              family=table3_family(str(method), len(rows)))
        out.loc[rows.index, "p_holm"] = adj.p_holm
        out.loc[rows.index, "p_bh"] = adj.p_bh
        out.loc[rows.index, "p_family"] = adj.family
    return out


def vocabulary_report(measured: Table3) -> pd.DataFrame:
    """The reduced lists of a measured Table 3, per category and target set.

    How many words are in the vocabulary, which were removed, and which were cut to balance the sets (§3.1,
    §3.3: "only 5 of the African American names"), read off the reduced lists the tests ran on. A category
    whose lists could not be reduced has no rows (Table 3's note says why).

    Parameters
    ----------
    measured : Table3
        The measured tests (:func:`table3`).

    Returns
    -------
    pandas.DataFrame
        One row per category and target set.
    """
    rows, seen = [], set()
    for r in measured.results:
        if r.reduced is None or r.category.key in seen:
            continue
        seen.add(r.category.key)
        for role in ("X", "Y"):
            s = r.reduced[role]
            rows.append({"category": r.category.title, "set": s.name, "listed": len(s.requested),
                         "in_vocabulary": len(s.requested) - len(s.missing), "kept": len(s.words),
                         "not_in_vocabulary": " ".join(s.missing), "cut_to_balance": " ".join(s.balanced_out)})
    return pd.DataFrame(rows)


def _starred(effects, significant, *, missing: str | None = None) -> list[str]:
    """Each d to three decimals with "*" where significant; ``missing`` (when given) stands for a NaN d."""
    return [missing if missing is not None and pd.isna(d) else f"{d:.3f}{'*' if s else ''}"
            for d, s in zip(effects, significant)]


def table3_shown(t3: pd.DataFrame) -> pd.DataFrame:
    """Table 3 for display.

    ``paper`` and ``ours`` as effect sizes with "*" when significant, ``p`` rounded (a "-" where a method had
    no model); where ``t3`` has them, ``ci`` the interval of d as "[lo, hi]", and ``p two-sided``, ``p Holm``
    and ``p BH`` rounded.

    Parameters
    ----------
    t3 : pandas.DataFrame
        Table 3, long format (:meth:`Table3.to_frame`).

    Returns
    -------
    pandas.DataFrame
        ``t3`` with the display columns added.

    Examples
    --------
    >>> t = pd.DataFrame({"paper_effect_size": [1.2], "paper_significant": [True], "effect_size": [0.5],
    ...                   "significant": [False], "p_value": [0.0123]})
    >>> table3_shown(t)[["paper", "ours", "p"]].values.tolist()
    [['1.200*', '0.500', '0.012']]
    >>> t = t.assign(effect_size_ci_low=[0.1], effect_size_ci_high=[0.93], p_two_sided=[0.0246], p_holm=[0.0369],
    ...              p_bh=[0.0123])
    >>> table3_shown(t)[["ci", "p two-sided", "p Holm", "p BH"]].values.tolist()
    [['[0.10, 0.93]', '0.025', '0.037', '0.012']]
    """
    def p_text(values):
        return [("-" if pd.isna(p) else f"{p:.2g}") for p in values]

    out = t3.assign(paper=_starred(t3.paper_effect_size, t3.paper_significant),
                    ours=_starred(t3.effect_size, t3.significant, missing="-"), p=p_text(t3.p_value))
    if {"effect_size_ci_low", "effect_size_ci_high"} <= set(t3.columns):
        out["ci"] = _tables.interval_column(t3.effect_size_ci_low, t3.effect_size_ci_high)
    for column, shown in (("p_two_sided", "p two-sided"), ("p_holm", "p Holm"), ("p_bh", "p BH")):
        if column in t3.columns:
            out[shown] = p_text(t3[column])
    return out


def table3_student(t3: pd.DataFrame) -> pd.DataFrame:
    """Table 3 for a student (6 columns, indexed by category and method).

    The model behind the number, the paper's d and ours ("*" where p < 0.01, the paper's asterisk), our 95%
    interval of d, the one-sided p and the Holm-adjusted p, each p on one line
    (:func:`wordbias.core.tables.p_text`; "-" where a method had no model). The two-sided and
    Benjamini-Hochberg p, the p method and the notes are :func:`table3_details`.

    Parameters
    ----------
    t3 : pandas.DataFrame
        Table 3, long format (:meth:`Table3.to_frame`), with its intervals and p-values.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``Category`` and ``Method``.
    """
    shown = t3.assign(d_paper=_starred(t3.paper_effect_size, t3.paper_significant),
                      d_ours=_starred(t3.effect_size, t3.significant, missing=_tables.MISSING))
    out = pd.DataFrame({
        "Category": t3.category, "Method": t3.method.str.split(" (", regex=False).str[0],
        "Model": t3.model, "d (paper)": shown.d_paper, "d (ours)": shown.d_ours,
        "95% interval of d": (_tables.interval_column(t3.effect_size_ci_low, t3.effect_size_ci_high)
                              if "effect_size_ci_low" in t3 else _tables.MISSING),
        "p (one-sided)": _tables.p_column(t3.p_value),
        "p Holm": _tables.p_column(t3.p_holm) if "p_holm" in t3 else _tables.MISSING,
    })
    return out.set_index(["Category", "Method"])


def table3_details(t3: pd.DataFrame) -> pd.DataFrame:
    """The rest of Table 3 for display, indexed as :func:`table3_student`.

    The two-sided and Benjamini-Hochberg p, how p was computed, the words used and the note (why a value is
    missing, words the embedding lacks).

    Parameters
    ----------
    t3 : pandas.DataFrame
        Table 3, long format (:meth:`Table3.to_frame`), with its p-values, methods and notes.

    Returns
    -------
    pandas.DataFrame
        The detail columns, indexed by ``Category`` and ``Method``.
    """
    out = pd.DataFrame({
        "Category": t3.category, "Method": t3.method.str.split(" (", regex=False).str[0],
        "p (two-sided)": _tables.p_column(t3.p_two_sided) if "p_two_sided" in t3 else _tables.MISSING,
        "p Benjamini-Hochberg": _tables.p_column(t3.p_bh) if "p_bh" in t3 else _tables.MISSING,
        "p computed": t3.p_method.fillna(_tables.MISSING),
        "words": t3.n.fillna(_tables.MISSING), "note": t3.note.fillna("")})
    return out.set_index(["Category", "Method"])


def table3_figure(t3: pd.DataFrame, *, title: str):
    """Paper vs ours, one row per category and method (:func:`wordbias.core.figures.effect_size_comparison`).

    Parameters
    ----------
    t3 : pandas.DataFrame
        Table 3, long format (:meth:`Table3.to_frame`).
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    fig_t = t3.assign(test=t3.category.str.replace(" (", "\n(", regex=False) + " | "
                      + t3.method.str.split(" (", regex=False).str[0])
    ci = {"low": "effect_size_ci_low", "high": "effect_size_ci_high"} if "effect_size_ci_low" in t3 else {}
    return plots.effect_size_comparison(fig_t, title=title, **ci)
