"""Kurita et al. (2019): how much the templates move Table 3's contextual results.

Both contextual methods put the words into templates (§3.1, Table 1; §3.2, Table 2). Here each is run template by
template: for WEAT on contextual vectors, each word's vector in one template (the vectors Table 3's WEAT was
measured on, :class:`wordbias.measures.language_models.contextual.CategoryResult`) gives s(w, A, B) per template
(:func:`template_associations`); for the log probability bias score, each attribute's score in one template
(:func:`log_prob_template_scores`). The per-template effect sizes d_t are pooled by CEAT's random-effects model
(Guo & Caliskan 2021, §"Random-effects model", https://doi.org/10.1145/3461702.3462536;
:func:`wordbias.measures.association.ceat.pool_templates`) under two within-template variances, with the between-template
variance τ² (:func:`template_spread`, :func:`template_tables`); :func:`template_summary`, :func:`template_notes`
and :func:`template_figure` show them. Table 3 itself is :mod:`wordbias.papers.kurita2019`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from wordbias.core import tables as _tables
from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import check_int, check_option, check_probability, check_real
from wordbias.datasets.contextual_tests import ROLES, Category, PairedTemplate
from wordbias.measures.association import ceat, weat
from wordbias.measures.language_models import mlm
from wordbias.measures.language_models.contextual import CategoryResult
from wordbias.models import contextual
from wordbias.papers.kurita2019 import CONTEXTUAL_WEAT, LOG_PROB
from wordbias.stats.permutation import ALTERNATIVES

__all__ = ["TEMPLATE_VARIANCES", "POOLED", "FRAME_COLUMNS", "TemplateSpread", "template_associations",
           "log_prob_template_scores", "template_spread", "contextual_template_spread", "log_prob_template_spread",
           "template_table", "template_tables", "template_notes", "template_summary", "template_rows",
           "template_figure"]

#: the within-template variances the template spread is pooled with (:func:`wordbias.measures.association.ceat.weat_variance`)
TEMPLATE_VARIANCES = ceat.VARIANCE_METHODS
#: the label of the pooled row of a template table
POOLED = "pooled (random effects)"
_NAN = float("nan")


def template_associations(vectors: Mapping[str, np.ndarray], X: Sequence[str], Y: Sequence[str], A: Sequence[str],
                          B: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """s(w, A_t, B_t) of every target word in every template t.

    Caliskan et al. (2017), Methods, on Kurita et al.'s §3.1 contextual vectors: within template t, each
    target's vector in t is compared with the attributes' vectors in t.

    Parameters
    ----------
    vectors : mapping of str to array-like
        Each word's vectors, shape ``[templates, dim]``
        (:func:`wordbias.measures.language_models.contextual.vectors_by_template`).
    X, Y : sequence of str
        The target words.
    A, B : sequence of str
        The attribute words.

    Returns
    -------
    scores_x : numpy.ndarray
        Shape ``[templates, n_X]``.
    scores_y : numpy.ndarray
        Shape ``[templates, n_Y]``; with ``scores_x``, the input of :func:`wordbias.measures.association.ceat.pool_templates`.

    Raises
    ------
    InvalidParameterError
        When a set is empty or a string, a word has no vectors, or the vectors' shapes differ.

    Examples
    --------
    Two templates (rows); in the second, x's vector turns from a towards b:

    >>> v = {"x": [[1, 0], [0, 1]], "y": [[0, 1], [0, 1]], "a": [[1, 0], [1, 0]], "b": [[0, 1], [0, 1]]}
    >>> sx, sy = template_associations(v, ["x"], ["y"], ["a"], ["b"])
    >>> sx.tolist(), sy.tolist()
    ([[1.0], [-1.0]], [[-1.0], [-1.0]])
    """
    sets = {}
    for role, words in zip(ROLES, (X, Y, A, B)):
        if isinstance(words, str) or not len(words):
            raise InvalidParameterError(f"{role} must be a non-empty list of words, not {words!r}")
        missing = [w for w in words if w not in vectors]
        if missing:
            raise InvalidParameterError(f"set {role}: no template vectors for {missing[:10]}")
        sets[role] = np.stack([np.asarray(vectors[w], dtype=np.float64) for w in words], axis=1)  # [T, n, dim]
    shapes = {r: m.shape for r, m in sets.items()}
    if len({(s[0], s[2]) for s in shapes.values()}) != 1 or sets["X"].ndim != 3:
        raise InvalidParameterError(f"every word needs vectors of the same shape [templates, dim]; got {shapes}")
    T = sets["X"].shape[0]
    return (np.stack([weat.association(sets["X"][t], sets["A"][t], sets["B"][t]) for t in range(T)]),
            np.stack([weat.association(sets["Y"][t], sets["A"][t], sets["B"][t]) for t in range(T)]))


def log_prob_template_scores(cat: Category, model: contextual.Model, *, prior_mask: str = "per_piece",
                             batch_size: int = 32, progress: bool = False) -> tuple[np.ndarray, np.ndarray, float]:
    """Kurita et al.'s log probability bias score (§2) of every attribute, template by template.

    Each Table 2 template with its own target pairs (:func:`wordbias.measures.language_models.mlm.log_prob_bias_scores` on that
    one template, the mean over its pairs). The §3.2 score of :func:`wordbias.measures.language_models.contextual.log_prob_test`
    is the mean over all (template, pair) rows, so with a template of two pairs it is not the plain mean of these
    rows.

    Parameters
    ----------
    cat : Category
        The category (:class:`wordbias.datasets.contextual_tests.Category`).
    model : Model
        The masked LM.
    prior_mask : str, default "per_piece"
        How the prior sentence is masked (as :func:`wordbias.measures.language_models.mlm.log_prob_bias_scores` takes it).
    batch_size : int, default 32
        Sentences per model batch.
    progress : bool, default False
        Whether to show a progress bar.

    Returns
    -------
    scores_a : numpy.ndarray
        The scores of the first attribute set, shape ``[templates, n_A]``.
    scores_b : numpy.ndarray
        The scores of the second, shape ``[templates, n_B]``.
    noise : float
        The rounding noise: the largest :func:`wordbias.measures.language_models.mlm.rounding_noise` of the templates.
    """
    role_a, role_b = cat.log_prob_attributes
    A, B = list(cat.sets[role_a]), list(cat.sets[role_b])
    rows, noise = [], 0.0
    for tp in cat.log_prob_templates:
        s, n = mlm.log_prob_bias_scores(model, A + B, [mlm.TemplatePairs(tp.template, tp.pairs)], prior_mask=prior_mask, batch_size=batch_size,
                                        progress=progress, return_noise=True)
        rows.append(s)
        noise = max(noise, n)
    scores = np.stack(rows)
    return scores[:, :len(A)], scores[:, len(A):], noise


@dataclass(frozen=True)
class TemplateSpread:
    """One category and method run template by template, pooled.

    The per-template effect sizes d_t are pooled by CEAT's random-effects model (Guo & Caliskan 2021), once per
    within-template variance.

    Attributes
    ----------
    category : str
        The category's title.
    method : str
        The method (a row name of Table 3).
    model : str
        The model's label.
    templates : tuple of str
        The templates' labels.
    effect_sizes : numpy.ndarray
        d per template; NaN for a template where d is undefined.
    pooled : mapping of str to PooledTemplates
        The pooling by :data:`TEMPLATE_VARIANCES` name: "ceat", CEAT's own, and "hedges_olkin", the sampling
        variance of d (see :func:`wordbias.measures.association.ceat.weat_variance` for why Q and I² under "ceat" mislead);
        empty when a d is undefined.
    undefined : str, default ""
        Why nothing was pooled ("" when it was).
    """

    category: str
    method: str
    model: str
    templates: tuple[str, ...]
    effect_sizes: np.ndarray = field(repr=False)
    pooled: Mapping[str, ceat.PooledTemplates] = field(repr=False)
    undefined: str = ""

    def to_frame(self) -> pd.DataFrame:
        """The tidy table of the spread.

        Per variance method, one row per template (template, d, variance, weight 1/(v + τ²), relative_weight) and
        the pooled row (template :data:`POOLED`; d the pooled estimate, variance its SE², low/high its Wald
        interval, tau2, i2, q, p_value (two-sided z test), k). With ``pooled`` empty, one row per template (d, NaN
        where undefined) and ``note`` says why.

        Returns
        -------
        pandas.DataFrame
            The columns of :data:`FRAME_COLUMNS`.
        """
        head = {"category": self.category, "method": self.method, "model": self.model}
        if not self.pooled:
            return pd.DataFrame([{**head, "variance_method": None, "template": t, "d": d, "note": self.undefined}
                                 for t, d in zip(self.templates, self.effect_sizes)], columns=FRAME_COLUMNS)
        frames = []
        for name, r in self.pooled.items():
            per = r.to_frame().rename(columns={"effect_size": "d"})
            p = r.pooled
            pooled = pd.DataFrame([{"template": POOLED, "d": p.pooled, "variance": p.se ** 2, "low": p.low,
                                    "high": p.high, "tau2": p.tau2, "i2": p.i2, "q": p.q, "p_value": p.p_value,
                                    "k": p.k}])
            frames.append(pd.concat([per, pooled], ignore_index=True).assign(variance_method=name, **head))
        one = next((r.pooled.note for r in self.pooled.values() if r.pooled.note), "")    # one template: why no CI
        return pd.concat(frames, ignore_index=True).assign(note=self.undefined or one)[FRAME_COLUMNS]


#: the columns of :meth:`TemplateSpread.to_frame`
FRAME_COLUMNS = ["category", "method", "model", "variance_method", "template", "d", "variance", "weight",
                 "relative_weight", "low", "high", "tau2", "i2", "q", "p_value", "k", "note"]


def template_spread(scores_x, scores_y, *, templates: Sequence[str], category: str = "", method: str = "",
                    model: str = "", noise: float = 0.0, confidence_level: float = 0.95,
                    alternative: str = "two-sided") -> TemplateSpread:
    """Per-template effect sizes and their random-effects pooling.

    d_t = [mean_X s − mean_Y s] / std_{X∪Y} s, pooled by CEAT's random-effects model (Guo & Caliskan 2021,
    §"Random-effects model"; :func:`wordbias.measures.association.ceat.pool_templates`) under each within-template variance
    of :data:`TEMPLATE_VARIANCES`.

    A single template is not pooled: its pooled row has its d and no interval, p, τ² or I² (NaN), and the note
    says that one template has no between-template variance to estimate
    (:func:`wordbias.measures.association.ceat.random_effects` with k = 1).

    Parameters
    ----------
    scores_x, scores_y : array-like of float
        One score per word per template, shapes ``[templates, n_X]`` and ``[templates, n_Y]``: s(w, A, B) of the
        targets for WEAT on contextual vectors (:func:`template_associations`); the bias scores of the two
        attribute sets for the log-probability score (:func:`log_prob_template_scores`).
    templates : sequence of str
        The templates' labels, one per row.
    category : str, default ""
        The category's title.
    method : str, default ""
        The method's name.
    model : str, default ""
        The model's label.
    noise : float, default 0.0
        A template whose scores all lie within ``noise`` of each other has no d (its differences are float
        rounding, as in :func:`wordbias.measures.language_models.mlm.attribute_test`); then nothing is pooled and ``undefined``
        says which.
    confidence_level : float, default 0.95
        Confidence level of the pooled intervals.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The alternative of the pooled z test.

    Returns
    -------
    TemplateSpread
        The per-template d and the pooling.

    Raises
    ------
    InvalidParameterError
        When an option is invalid, ``templates`` is a string, or the scores and templates differ in rows.

    Examples
    --------
    >>> sx, sy = [[1.0, 0.0], [2.0, 1.0]], [[-1.0, -0.5], [0.0, 0.5]]
    >>> r = template_spread(sx, sy, templates=["t1", "t2"])
    >>> r.effect_sizes.round(4).tolist(), round(r.pooled["ceat"].pooled.pooled, 4), r.pooled["ceat"].pooled.tau2
    ([1.4639, 1.4639], 1.4639, 0.0)
    >>> template_spread([[1.0, 1.0]], [[1.0, 1.0]], templates=["t"], noise=1e-6).undefined
    "undefined: the scores of template(s) ['t'] are all equal up to float rounding (within 1.0e-06)"
    """
    noise = check_real("noise", noise, low=0.0)
    check_probability("confidence_level", confidence_level)
    check_option("alternative", alternative, ALTERNATIVES)
    if isinstance(templates, str):
        raise InvalidParameterError(f"templates must be a list of labels, not the string {templates!r}")
    labels = tuple(str(t) for t in templates)
    sx, sy = ceat._scores("scores_x", scores_x), ceat._scores("scores_y", scores_y)
    if not (sx.shape[0] == sy.shape[0] == len(labels)) or sx.shape[0] < 1:
        raise InvalidParameterError(f"scores_x, scores_y and templates must have one row per template each, not "
                                    f"{sx.shape[0]}, {sy.shape[0]} and {len(labels)}")
    flat = [np.ptp(np.concatenate([a, b])) <= noise for a, b in zip(sx, sy)]
    head = dict(category=category, method=method, model=model, templates=labels)
    if any(flat):
        d = np.array([_NAN if f else weat.effect_size(a, b) for f, a, b in zip(flat, sx, sy)])
        bad = [t for t, f in zip(labels, flat) if f]
        return TemplateSpread(**head, effect_sizes=d, pooled={},
                              undefined=f"undefined: the scores of template(s) {bad} are all equal up to float "
                                        f"rounding (within {noise:.1e})")
    pooled = {v: ceat.pool_templates(sx, sy, templates=labels, variance=v, confidence_level=confidence_level,
                                     alternative=alternative) for v in TEMPLATE_VARIANCES}
    return TemplateSpread(**head, effect_sizes=pooled[TEMPLATE_VARIANCES[0]].effect_sizes, pooled=pooled)


def contextual_template_spread(result: CategoryResult, *, confidence_level: float = 0.95) -> TemplateSpread:
    """WEAT on contextual vectors (§3.1) template by template, pooled (:func:`template_spread`).

    From a measured contextual WEAT (:func:`wordbias.measures.language_models.contextual.measure`): each target's and
    attribute's vector in one Table 1 template (the result's ``vectors``, the same the WEAT averaged) gives
    s(w, A, B) per template (:func:`template_associations`).

    Parameters
    ----------
    result : CategoryResult
        A contextual WEAT that ran (measure ``"contextual_weat"``, with its vectors).
    confidence_level : float, default 0.95
        Confidence level of the pooled intervals.

    Returns
    -------
    TemplateSpread
        The spread.

    Raises
    ------
    InvalidParameterError
        When ``result`` is not a contextual WEAT that ran with its vectors.
    """
    if result.measure != "contextual_weat" or result.vectors is None:
        raise InvalidParameterError(f"{result.category.title}: the template spread needs a contextual WEAT that ran "
                                    f"(measure 'contextual_weat' with its vectors), not {result.measure!r}"
                                    + (f" ({result.not_run})" if result.not_run else ""))
    cat, reduced = result.category, result.reduced
    sx, sy = template_associations(result.vectors, *(reduced[r].words for r in ROLES))
    return template_spread(sx, sy, templates=cat.cosine_templates, category=cat.title, method=CONTEXTUAL_WEAT,
                           model=result.model, confidence_level=confidence_level)


def _template_label(tp: PairedTemplate) -> str:
    return f"{tp.template} ({', '.join('/'.join(p) for p in tp.pairs)})"


def log_prob_template_spread(cat: Category, masked_lm: contextual.Model, *, prior_mask: str = "per_piece",
                             batch_size: int = 32, confidence_level: float = 0.95) -> TemplateSpread:
    """The log probability bias score (§3.2) template by template, pooled (:func:`template_spread`).

    d per Table 2 template over the attributes, the first attribute set against the second (the roles of X
    and Y in :func:`wordbias.measures.association.ceat.per_template_weat`), from :func:`log_prob_template_scores`. Templates
    are labelled with their target pairs.

    Parameters
    ----------
    cat : Category
        The category.
    masked_lm : Model
        The masked LM.
    prior_mask : str, default "per_piece"
        How the prior sentence is masked.
    batch_size : int, default 32
        Sentences per model batch.
    confidence_level : float, default 0.95
        Confidence level of the pooled intervals.

    Returns
    -------
    TemplateSpread
        The spread of d over the Table 2 templates.
    """
    sa, sb, noise = log_prob_template_scores(cat, masked_lm, prior_mask=prior_mask, batch_size=batch_size)
    return template_spread(sa, sb, templates=[_template_label(t) for t in cat.log_prob_templates],
                           category=cat.title, method=LOG_PROB, model=masked_lm.label, noise=noise,
                           confidence_level=confidence_level)


def template_table(cat: Category, *, contextual_result: CategoryResult | None, masked_lm: contextual.Model | None,
                   batch_size: int = 32, confidence_level: float = 0.95) -> pd.DataFrame:
    """One category's tidy template table (:meth:`TemplateSpread.to_frame`).

    WEAT on contextual vectors (from ``contextual_result``, its measured vectors per template) and the log
    probability bias score (with ``masked_lm``), template by template, pooled. A method without a result that
    ran, or without a model, is left out.

    Parameters
    ----------
    cat : Category
        The category.
    contextual_result : CategoryResult or None
        The category's measured contextual WEAT.
    masked_lm : Model or None
        The masked LM.
    batch_size, confidence_level : int, float
        As in :func:`log_prob_template_spread` (defaults 32 and 0.95).

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`FRAME_COLUMNS` (no rows when neither method can run).
    """
    spreads = []
    if contextual_result is not None and contextual_result.ran:
        spreads.append(contextual_template_spread(contextual_result, confidence_level=confidence_level))
    if masked_lm is not None:
        spreads.append(log_prob_template_spread(cat, masked_lm, batch_size=batch_size,
                                                confidence_level=confidence_level))
    if not spreads:
        return pd.DataFrame(columns=FRAME_COLUMNS)
    return pd.concat([s.to_frame() for s in spreads], ignore_index=True)


def template_tables(results: Sequence[CategoryResult], *, masked_lm: contextual.Model | None, batch_size: int = 32,
                    confidence_level: float = 0.95) -> pd.DataFrame:
    """:func:`template_table` of every category of ``results``, in their order, as one long table.

    The contextual WEAT's spread comes from the vectors it was measured on (no model runs again for it), the
    log-probability spread from ``masked_lm`` (its own per-template scores, :func:`log_prob_template_scores`).

    Parameters
    ----------
    results : sequence of CategoryResult
        :func:`wordbias.measures.language_models.contextual.measure`'s results, or
        :class:`wordbias.papers.kurita2019.Table3`'s ``results``.
    masked_lm : Model or None
        The masked LM; ``None`` leaves the log-probability spread out.
    batch_size : int, default 32
        Sentences per model batch (>= 1).
    confidence_level : float, default 0.95
        Confidence level of the pooled intervals.

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`FRAME_COLUMNS`.

    Raises
    ------
    InvalidParameterError
        When ``batch_size`` or ``confidence_level`` is invalid.
    """
    check_int("batch_size", batch_size, min=1)
    check_probability("confidence_level", confidence_level)
    by_category: dict[str, dict] = {}
    for r in results:
        by_category.setdefault(r.category.key, {"cat": r.category, "contextual": None})
        if r.measure == "contextual_weat":
            by_category[r.category.key]["contextual"] = r
    frames = [template_table(c["cat"], contextual_result=c["contextual"], masked_lm=masked_lm, batch_size=batch_size,
                             confidence_level=confidence_level) for c in by_category.values()]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=FRAME_COLUMNS)


def template_notes(table: pd.DataFrame) -> str:
    """Markdown computed from :func:`template_tables`' table, one line per method.

    The largest between-template spread τ under each within-template variance, how far apart the templates'
    d's are (the median over categories of the range of d) against the typical standard error of one
    template's d from drawing the words alone (Hedges & Olkin's variance), and the median of CEAT's
    within-template variance (the variance of the scores, whose unit sets CEAT's interval). Nothing here is a
    stated fact of one model.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`template_tables`' long table (the columns of :data:`FRAME_COLUMNS`).

    Returns
    -------
    str
        A Markdown list.

    Examples
    --------
    >>> t = pd.DataFrame({"category": ["c"] * 6, "method": ["m"] * 6, "model": ["x"] * 6,
    ...                   "variance_method": ["ceat"] * 3 + ["hedges_olkin"] * 3,
    ...                   "template": ["a", "b", POOLED] * 2, "d": [0.4, 0.6, 0.5, 0.4, 0.6, 0.5],
    ...                   "variance": [0.001, 0.001, None, 0.25, 0.25, None],
    ...                   "tau2": [None, None, 0.01, None, None, 0.0]})
    >>> print(template_notes(t))
    - **m**: τ at most 0.10 under CEAT's variance and 0.00 under Hedges & Olkin's; the templates' d's lie 0.20 apart (median range), one template's d has a standard error of 0.50 from the words alone, so the choice of words matters more than the choice among these templates; CEAT's within-template variance is 0.001 (median).
    """
    lines = []
    for method, g in table.groupby("method", sort=False):
        pooled = g[g.template == POOLED]
        per = g[g.template != POOLED]
        tau = {v: np.sqrt(pooled[pooled.variance_method == v].tau2.max()) for v in TEMPLATE_VARIANCES}
        if per.d.notna().sum() == 0 or pooled.empty:
            lines.append(f"- **{method}**: no category has a defined d in every template.")
            continue
        ranges = per[per.variance_method == TEMPLATE_VARIANCES[0]].groupby("category").d.agg(lambda d: d.max() - d.min())
        se = np.sqrt(per[per.variance_method == "hedges_olkin"].variance.median())
        spread = ranges.median()
        verdict = ("the choice of words matters more than the choice among these templates" if spread < se
                   else "the templates move d at least as much as drawing other words would")
        lines.append(f"- **{method}**: τ at most {tau['ceat']:.2f} under CEAT's variance and {tau['hedges_olkin']:.2f} "
                     f"under Hedges & Olkin's; the templates' d's lie {spread:.2f} apart (median range), one "
                     f"template's d has a standard error of {se:.2f} from the words alone, so {verdict}; CEAT's "
                     f"within-template variance is {per[per.variance_method == 'ceat'].variance.median():.3g} (median).")
    return "\n".join(lines)


def template_summary(table: pd.DataFrame) -> pd.DataFrame:
    """The pooled rows of :func:`template_tables`, one per category and method, narrow for display.

    The per-template d's (``per template``), the pooled d with its interval and τ, I² under CEAT's variance
    (``ceat``) and under Hedges & Olkin's (``HO``).

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`template_tables`' long table, whose pooled rows are shown.

    Returns
    -------
    pandas.DataFrame
        One row per category and method.

    Examples
    --------
    >>> t = pd.DataFrame({"category": ["c"] * 6, "method": ["m"] * 6, "model": ["x"] * 6,
    ...                   "variance_method": ["ceat"] * 3 + ["hedges_olkin"] * 3,
    ...                   "template": ["a", "b", POOLED] * 2, "d": [0.4, 0.6, 0.5, 0.4, 0.6, 0.5],
    ...                   "low": [None, None, 0.3, None, None, 0.1], "high": [None, None, 0.7, None, None, 0.9],
    ...                   "tau2": [None, None, 0.01, None, None, 0.0], "i2": [None, None, 0.9, None, None, 0.0],
    ...                   "note": [""] * 6})
    >>> template_summary(t).iloc[0].tolist()
    ['c', 'm', 'x', '0.40, 0.60', '0.50 [0.30, 0.70]', '0.10', '0.90', '0.50 [0.10, 0.90]', '0.00', '0.00', '']
    """
    rows = []
    for (category, method), g in table.groupby(["category", "method"], sort=False):
        per = g[(g.template != POOLED) & (g.variance_method.isna() | (g.variance_method == TEMPLATE_VARIANCES[0]))]
        row = {"category": category, "method": method, "model": g.model.iloc[0],
               "per template": ", ".join("-" if pd.isna(d) else f"{d:.2f}" for d in per.d)}
        for v, short in zip(TEMPLATE_VARIANCES, ("ceat", "HO")):
            p = g[(g.template == POOLED) & (g.variance_method == v)]
            ok = len(p) == 1
            row[f"pooled ({short})"] = (f"{p.d.item():.2f} {_tables.interval_text(p.low.item(), p.high.item())}"
                                        if ok else "-")
            row[f"tau ({short})"] = f"{np.sqrt(p.tau2.item()):.2f}" if ok else "-"
            if short == "ceat":
                row["I2 (ceat)"] = f"{p.i2.item():.2f}" if ok else "-"
            else:
                row["I2 (HO)"] = f"{p.i2.item():.2f}" if ok else "-"
        note = g.note.iloc[0] or ""
        row["note"] = "undefined: scores equal up to float rounding" if note.startswith("undefined") else note
        rows.append(row)
    return pd.DataFrame(rows)


def template_rows(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`template_tables` under CEAT's variance (and the log-probability rows, which have none),
    for display: the numbers to 3 decimals, Q to 1, the pooled p as text (``p_value``:
    :func:`wordbias.core.tables.p_column`, so a tiny p reads 1.0e-05, not a rounded 0.000). The model, the variance
    method, k and the weights 1/(v + τ²) stay in the CSV.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`template_tables`' long table.

    Returns
    -------
    pandas.DataFrame
        Its CEAT-variance rows without ``model``, ``variance_method``, ``k`` and ``weight``.

    Examples
    --------
    >>> t = pd.DataFrame({"category": ["c"] * 2, "model": ["x"] * 2, "variance_method": ["ceat", "hedges_olkin"],
    ...                   "template": [POOLED] * 2, "d": [0.51234] * 2, "k": [2] * 2, "weight": [1.0] * 2,
    ...                   "q": [12.345] * 2, "p_value": [2e-06] * 2})
    >>> [str(v) for v in template_rows(t).iloc[0]]
    ['c', 'pooled (random effects)', '0.512', '12.3', '2.0e-06']
    """
    rows = table[table.variance_method.isin([TEMPLATE_VARIANCES[0], None]) | table.variance_method.isna()]
    out = rows.drop(columns=["model", "variance_method", "k", "weight"], errors="ignore").round(3)
    if "q" in out:
        out["q"] = rows.q.round(1)
    if "p_value" in out:
        out["p_value"] = _tables.p_column(rows.p_value)
    return out


def template_figure(table: pd.DataFrame, *, title: str):
    """A forest plot of :func:`template_tables`.

    One panel per method (the same d axis), one block per category (its name as a header); each template's d
    as a dot (with ±1.96·SE of Hedges & Olkin's variance as a thin bar: the spread expected from drawing the
    words alone), then the pooled d with its 95% interval under CEAT's variance (black diamond) and under
    Hedges & Olkin's (open square), labelled with τ. Templates are labelled in full; a category whose d is
    undefined gets one row saying so.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`template_tables`' long table (the columns of :data:`FRAME_COLUMNS`).
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure, one panel per method.
    """
    import matplotlib.pyplot as plt

    methods = list(dict.fromkeys(table.method))
    blocks = {m: table[table.method == m] for m in methods}

    def n_rows(b):
        return sum(1 + (len(g[g.template != POOLED].template.unique()) + 2 if g.d.notna().any() else 1)
                   for _, g in b.groupby("category", sort=False))

    heights = [n_rows(b) for b in blocks.values()] or [1]
    fig, axes = plt.subplots(len(methods) or 1, 1, figsize=(10, 0.24 * sum(heights) + 0.9 * len(heights) + 0.9),
                             gridspec_kw={"height_ratios": heights}, squeeze=False, sharex=True)
    styles = {"ceat": ("D", "black", "pooled, CEAT's variance (95% CI)", "CEAT"),
              "hedges_olkin": ("s", "none", "pooled, Hedges–Olkin variance (95% CI)", "Hedges–Olkin")}
    for ax, method in zip(axes[:, 0], methods):
        labels, y = [], 0.0
        for category, g in blocks[method].groupby("category", sort=False):
            labels.append((-y, category, True))
            y += 1
            if not g.d.notna().any():
                labels.append((-y, "undefined (scores equal up to float rounding)", False))
                y += 1.5
                continue
            per = g[g.template != POOLED]
            ho = per[per.variance_method == "hedges_olkin"].set_index("template")
            for template, d in per.drop_duplicates("template")[["template", "d"]].itertuples(index=False):
                if template in ho.index and not pd.isna(d):
                    half = 1.96 * np.sqrt(ho.loc[template, "variance"])
                    ax.hlines(-y, d - half, d + half, color="#4c72b0", lw=0.9, alpha=0.6)
                ax.plot([d], [-y], "o", color="#4c72b0", ms=5, label="one template's d (±1.96 SE, Hedges–Olkin)")
                labels.append((-y, template, False))
                y += 1
            for v, (marker, face, name, short) in styles.items():
                p = g[(g.template == POOLED) & (g.variance_method == v)]
                if len(p) == 1:
                    r = p.iloc[0]
                    ax.hlines(-y, r.low, r.high, color="black", lw=1.4)
                    ax.plot([r.d], [-y], marker, mfc=face, mec="black", color="black", ms=6, label=name)
                    labels.append((-y, f"pooled ({short}): d = {r.d:.2f}, τ = {np.sqrt(r.tau2):.2f}", False))
                y += 1
            y += 0.5
        ax.axvline(0, color="black", lw=0.5)
        ax.set_yticks([t for t, _, _ in labels], [lab for _, lab, _ in labels], fontsize=8)
        for tick, (_, _, bold) in zip(ax.get_yticklabels(), labels):
            tick.set_fontweight("bold" if bold else "normal")
        ax.tick_params(axis="y", length=0)
        ax.set_ylim(-y + 0.2, 0.8)
        ax.set_title(f"{method} ({', '.join(dict.fromkeys(blocks[method].model))})", fontsize=10, loc="left")
        ax.grid(axis="x", color="#dddddd", lw=0.5)
    axes[-1, 0].set_xlabel("effect size d")
    handles = {}
    for ax in axes[:, 0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(handles.values(), handles.keys(), frameon=False, fontsize=8, loc="lower center", ncol=3)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0.04, 1, 0.98))
    return fig
