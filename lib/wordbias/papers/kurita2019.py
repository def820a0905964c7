"""Kurita, Vyas, Pareek, Black & Tsvetkov (2019), Tables 3 and 5: what the notebook ``kurita2019`` shows.

The five WEAT categories (:func:`categories`) and §3.1's lists reduced to the BERT vocabulary
(:func:`reduce_to_vocabulary`); Table 3's three methods side by side with the paper (:func:`table3`: WEAT on
GloVe, WEAT on contextual vectors, the log-probability bias score of §3.2); Table 5's share of attributes
that favour *he* (:func:`table5`); loading the models the notebook names (:func:`load_models`). Section 4
(GAP, Tables 4 and 6) is :mod:`wordbias.papers.kurita2019_gap`.

Uncertainty (issue 14): Table 3 gives each effect size a bootstrap interval over the words, the two-sided p
and Holm and Benjamini-Hochberg adjusted p-values per method (:func:`table3`); and both contextual methods are
also run template by template, the per-template effect sizes pooled by CEAT's random-effects model (Guo &
Caliskan 2021, https://doi.org/10.1145/3461702.3462536; :mod:`wordbias.measures.ceat`) with the
between-template variance τ² (:func:`template_tables`, :func:`template_figure`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from wordbias.core.permutation import P_METHODS
from wordbias.core import figures as plots
from wordbias.core import tables as _tables
from wordbias.core import multiple, paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.permutation import ALTERNATIVES
from wordbias.core.validation import check_int, check_option, check_probability, check_real, check_seed
from wordbias.datasets import stimuli
from wordbias.measures import bootstrap, ceat, mlm, weat
from wordbias.models import contextual

ROLES = ("X", "Y", "A", "B")
#: the static embedding of Table 3's first column in the committed runs (the authors' GloVe 840B vectors of the
#: stimuli); a run on another one gets its own output folder
DEFAULT_GLOVE = "glove-840b-caliskan"
#: significance level of Table 3 ("* indicates significant at p < 0.01")
ALPHA = 0.01
#: Table 3's three methods, as its rows name them
GLOVE_WEAT = "WEAT on GloVe (reduced lists)"
CONTEXTUAL_WEAT = "WEAT on BERT (contextual vectors)"
LOG_PROB = "log probability bias score"
#: bootstrap resamples for the intervals of d in Table 3 (BCa; 10,000 take about 0.01 s a test)
N_RESAMPLES = 10_000
#: the within-template variances the template spread is pooled with (:func:`wordbias.measures.ceat.weat_variance`)
TEMPLATE_VARIANCES = ceat.VARIANCE_METHODS
#: the label of the pooled row of a template table
POOLED = "pooled (random effects)"


# --------------------------------------------------------------------------------------------------
# the notebook's parameters
# --------------------------------------------------------------------------------------------------


def check_parameters(*, mlm_model, encoder_model, fallback_encoder, glove, seed, permutations, batch_size,
                     gap_seeds) -> None:
    """The notebook's parameters (papermill ``-p``) checked before any model is loaded, naming the parameter,
    the value and what is allowed (``-p seed abc`` arrives as the string ``'abc'``): model and embedding names
    are non-empty strings, ``seed`` an integer ≥ 0, ``permutations``, ``batch_size`` and ``gap_seeds``
    integers ≥ 1.

    Examples
    --------
    >>> ok = dict(mlm_model="bert-base-uncased", encoder_model="bert-base-uncased",
    ...           fallback_encoder="all-minilm-l6-v2", glove="glove-840b-caliskan", seed=0, permutations=100_000,
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
    check_int("permutations", permutations, min=1)
    check_int("batch_size", batch_size, min=1)
    check_int("gap_seeds", gap_seeds, min=1)


# --------------------------------------------------------------------------------------------------
# the models
# --------------------------------------------------------------------------------------------------


def try_load(loader: Callable[[str], contextual.Model], name: str) -> tuple[contextual.Model | None, str | None]:
    """``(loader(name), None)``, or ``(None, reason)`` when the model is not on this machine
    (:class:`wordbias.models.contextual.ModelUnavailable`, whose message names the model and where to get it).
    Other errors propagate.

    Examples
    --------
    >>> def absent(name):
    ...     raise contextual.ModelUnavailable(f"model {name!r} is not available")
    >>> try_load(absent, "bert-base-uncased")
    (None, "model 'bert-base-uncased' is not available")
    """
    try:
        return loader(name), None
    except contextual.ModelUnavailable as exc:
        return None, str(exc)


@dataclass(frozen=True)
class Models:
    """The models of a notebook run (:func:`load_models`): ``masked_lm`` and ``encoder`` (None when not on
    this machine), ``status`` the reason for each missing one (by role), ``mlm_name`` the masked LM asked for."""

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
        """Markdown lines: the models used, the result folder and why any model is missing."""
        lines = [f"- masked LM: **{self.masked_lm.label if self.masked_lm else 'none'}**",
                 f"- encoder: **{self.encoder.label if self.encoder else 'none'}**",
                 f"- results: `results/kurita2019/{self.run}/`"]
        lines += [f"- {k}: {v}" for k, v in self.status.items() if v]
        return "\n".join(lines)


def load_models(mlm_model: str, encoder_model: str, fallback_encoder: str) -> Models:
    """Load the masked LM and the encoder the notebook names, never substituting silently: an encoder that is
    not on this machine is replaced by ``fallback_encoder`` (the bundled MiniLM) and the status says so; a
    missing masked LM stays None (its sections say why)."""
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
# Table 3
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Category:
    """One row of Table 3: word sets in Caliskan et al.'s roles, the Table 1 templates (with the slot each
    set fills) and the Table 2 templates with their target pairs (for the log-probability score, the
    words of the two ``log_prob_attributes`` roles fill ATTRIBUTE)."""

    key: str
    title: str
    caliskan_weat: str
    names: Mapping[str, str]
    sets: Mapping[str, tuple[str, ...]]
    slots: Mapping[str, str]
    cosine_templates: tuple[str, ...]
    log_prob_attributes: tuple[str, str]
    log_prob_templates: tuple[mlm.TemplatePairs, ...]
    paper: Mapping[str, object]


def categories() -> list[Category]:
    """The five categories of Table 3, in its order."""
    data = stimuli.load_stimuli("kurita2019")
    out = []
    for key, c in data["categories"].items():
        out.append(Category(
            key=key, title=c["title"], caliskan_weat=c["caliskan_weat"], names=c["names"],
            sets={r: tuple(c[r]) for r in ROLES}, slots=c["weat_on_bert"]["slots"],
            cosine_templates=tuple(c["weat_on_bert"]["templates"]),
            log_prob_attributes=(c["log_prob"]["attributes"]["A"], c["log_prob"]["attributes"]["B"]),
            log_prob_templates=tuple(mlm.TemplatePairs.from_dict(t) for t in c["log_prob"]["templates"]),
            paper=c["paper"]))
    return out


def reduce_to_vocabulary(cat: Category, model: contextual.Model, seed: int = 0) -> dict[str, weat.WordSet]:
    """§3.1: drop target words (X, Y) that are not one WordPiece of ``model``'s vocabulary, then balance
    the targets by deleting random words (seeded) from the larger set. Attributes are kept whole.
    Words keep their spelling in the lists (names capitalised), so cased embeddings can use them."""
    seed = check_seed("seed", seed)
    sets = {}
    for role in ROLES:
        words = cat.sets[role]
        if role in ("X", "Y"):
            ok = contextual.in_vocabulary(model, words)
            kept = tuple(w for w, k in zip(words, ok) if k)
            missing = tuple(w for w, k in zip(words, ok) if not k)
        else:
            kept, missing = tuple(words), ()
        if len(kept) < weat.MIN_TARGET_SIZE:
            raise weat.DegenerateSetError(f"{cat.title}: only {len(kept)} words of {cat.names[role]!r} are in the "
                                          f"vocabulary of {model.name!r}")
        sets[role] = weat.WordSet(cat.names[role], tuple(words), kept, missing)
    sets["X"], sets["Y"] = weat.balance(sets["X"], sets["Y"], "random", np.random.default_rng(seed))
    return sets


def weat_on_embedding(cat: Category, reduced: Mapping[str, weat.WordSet], embedding, *, case_fold: bool = False,
                      seed: int = 0, p_method: str = "auto", n_permutations: int = 100_000) -> weat.WeatResult:
    """WEAT on a static embedding with the reduced lists (§3.1, "WEAT on GloVe with the reduced vocabulary").
    Words the embedding lacks are dropped and reported, and the targets rebalanced (seeded)."""
    return weat.weat(embedding, *(reduced[r].words for r in ROLES), names=dict(cat.names), case_fold=case_fold,
                     seed=seed, p_method=p_method, n_permutations=n_permutations)


def contextual_vectors_by_template(cat: Category, reduced: Mapping[str, weat.WordSet], encoder: contextual.Model, *,
                                   batch_size: int = 64, progress: bool = False) -> dict[str, np.ndarray]:
    """Each word's final-layer vector in each Table 1 template, the other slot masked (§3.1): word → array
    [templates, hidden], templates in the order of ``cat.cosine_templates``.

    :func:`wordbias.models.contextual.word_in_template_embeddings` is called with one template at a time (it
    averages over the templates it is given); the mean over templates of these vectors is the vector of
    :func:`contextual_vectors` (the same sentences, run in other batches: equal up to float rounding).
    """
    check_int("batch_size", batch_size, min=1)
    vectors: dict[str, list[np.ndarray]] = {}
    for role in ROLES:
        slot = cat.slots[role]
        other = mlm.ATTRIBUTE if slot == mlm.TARGET else mlm.TARGET
        words = reduced[role].words
        per = [contextual.word_in_template_embeddings(encoder, words, [t], slot=slot, other=other,
                                                      batch_size=batch_size, progress=progress)
               for t in cat.cosine_templates]
        vectors.update(zip(words, np.stack(per, axis=1)))
    return vectors


def template_vectors(cats: Sequence[Category], encoder: contextual.Model, vocabulary_model: contextual.Model, *,
                     seed: int = 0, batch_size: int = 64, progress: bool = False) -> dict[str, dict[str, np.ndarray]]:
    """:func:`contextual_vectors_by_template` of every category (by ``cat.key``) on its reduced lists
    (:func:`reduce_to_vocabulary` with ``vocabulary_model`` and ``seed``, as :func:`table3` reduces them):
    computed once, they serve both :func:`table3` (their mean over templates) and :func:`template_tables`."""
    return {cat.key: contextual_vectors_by_template(cat, reduce_to_vocabulary(cat, vocabulary_model, seed=seed),
                                                    encoder, batch_size=batch_size, progress=progress)
            for cat in cats}


def _averaged(cat: Category, reduced: Mapping[str, weat.WordSet], by_template: Mapping[str, np.ndarray]) -> dict:
    """The mean over templates of :func:`contextual_vectors_by_template`'s vectors (= :func:`contextual_vectors`)."""
    words = [w for r in ROLES for w in reduced[r].words]
    missing = [w for w in words if w not in by_template]
    if missing:
        raise InvalidParameterError(f"{cat.title}: the template vectors lack {missing[:10]}; compute them with "
                                    "template_vectors() on the same vocabulary model and seed")
    return {w: np.asarray(by_template[w], dtype=np.float64).mean(axis=0) for w in words}


def contextual_vectors(cat: Category, reduced: Mapping[str, weat.WordSet], encoder: contextual.Model, *,
                       batch_size: int = 64, progress: bool = False) -> dict[str, np.ndarray]:
    """Each word's final-layer vector, averaged over the Table 1 templates, with the other slot masked (§3.1)."""
    vectors: dict[str, np.ndarray] = {}
    for role in ROLES:
        slot = cat.slots[role]
        other = mlm.ATTRIBUTE if slot == mlm.TARGET else mlm.TARGET
        words = reduced[role].words
        v = contextual.word_in_template_embeddings(encoder, words, cat.cosine_templates, slot=slot, other=other,
                                                   batch_size=batch_size, progress=progress)
        vectors.update(zip(words, v))
    return vectors


def _weat_on_vectors(cat: Category, reduced: Mapping[str, weat.WordSet], vectors, *, seed, p_method,
                     n_permutations) -> weat.WeatResult:
    return weat.weat(vectors, *(reduced[r].words for r in ROLES), names=dict(cat.names), balance_targets="raise",
                     seed=seed, p_method=p_method, n_permutations=n_permutations)


def weat_on_contextual(cat: Category, reduced: Mapping[str, weat.WordSet], encoder: contextual.Model, *,
                       seed: int = 0, p_method: str = "auto", n_permutations: int = 100_000,
                       batch_size: int = 64) -> weat.WeatResult:
    """WEAT on BERT (§3.1): the WEAT core on the contextual vectors of :func:`contextual_vectors`;
    the p-value permutes the targets."""
    vectors = contextual_vectors(cat, reduced, encoder, batch_size=batch_size)
    return _weat_on_vectors(cat, reduced, vectors, seed=seed, p_method=p_method, n_permutations=n_permutations)


def log_prob_test(cat: Category, model: contextual.Model, *, seed: int = 0, p_method: str = "auto",
                  n_permutations: int = 100_000, prior_mask: str = "per_piece", batch_size: int = 32,
                  progress: bool = False, n_resamples: int = N_RESAMPLES,
                  confidence_level: float = 0.95) -> mlm.AttributeTest:
    """§3.2: mean log-probability bias score of every attribute over the Table 2 templates and target
    pairs, then the effect size and the permutation test over attributes. ``n_resamples`` and
    ``confidence_level`` go to :func:`wordbias.measures.mlm.attribute_test`'s bootstrap interval of d where it
    has one (its ``effect_size_ci``)."""
    role_a, role_b = cat.log_prob_attributes
    A, B = cat.sets[role_a], cat.sets[role_b]
    scores, noise = mlm.log_prob_bias_scores(model, list(A) + list(B), cat.log_prob_templates,
                                             prior_mask=prior_mask, batch_size=batch_size, progress=progress,
                                             return_noise=True)
    return mlm.attribute_test(scores[:len(A)], scores[len(A):], A=A, B=B, p_method=p_method, n_permutations=n_permutations,
                              seed=seed, noise=noise, n_resamples=n_resamples, confidence_level=confidence_level)


_NAN = float("nan")


def _row(cat: Category, method: str, model: str, paper_d, paper_sig, d=None, p=None, p_method=None, n=None,
         note: str = "", ci_low=_NAN, ci_high=_NAN, p_two_sided=_NAN, alternative=None) -> dict:
    return {"category": cat.title, "method": method, "model": model, "paper_effect_size": paper_d,
            "paper_significant": paper_sig, "effect_size": d, "effect_size_ci_low": ci_low,
            "effect_size_ci_high": ci_high, "p_value": p, "p_method": p_method, "alternative": alternative,
            "p_two_sided": p_two_sided, "significant": None if p is None else bool(p < ALPHA), "n": n, "note": note}


def _weat_uncertainty(result: weat.WeatResult, vectors, *, seed, n_permutations, n_resamples,
                      confidence_level) -> dict:
    """The bootstrap interval of d (:func:`wordbias.measures.bootstrap.weat_bootstrap` on ``vectors``, the words of
    ``result``) and the two-sided p by the same p method."""
    ci = bootstrap.weat_bootstrap(vectors, result, n_resamples=n_resamples, confidence_level=confidence_level,
                                  seed=seed).effect_size
    two = weat.p_value(result.s_x, result.s_y, p_method=result.p_method, n_permutations=n_permutations, seed=seed,
                       alternative="two-sided")
    return {"ci_low": ci.low, "ci_high": ci.high, "p_two_sided": two.p_value, "alternative": result.alternative}


def _attribute_uncertainty(t: mlm.AttributeTest) -> dict:
    """The attribute test's bootstrap interval of d (``effect_size_ci``) and its two-sided p."""
    ci = t.effect_size_ci
    return {"ci_low": _NAN if ci is None else float(ci.low), "ci_high": _NAN if ci is None else float(ci.high),
            "alternative": t.alternative, "p_two_sided": _NAN if t.p is None else float(t.p_two_sided)}


def table3_family(method: str, n: int) -> str:
    """The name of Table 3's family of tests for ``method``: the ``n`` categories run by that method.

    Examples
    --------
    >>> table3_family("log probability bias score", 5)
    'Table 3, log probability bias score: 5 categories (one-sided p)'
    """
    return f"Table 3, {method}: {n} categor{'y' if n == 1 else 'ies'} (one-sided p)"


def adjust_per_method(t3: pd.DataFrame) -> pd.DataFrame:
    """``t3`` with ``p_holm``, ``p_bh`` (Holm 1979; Benjamini & Hochberg 1995; :func:`wordbias.core.multiple.adjust`)
    and ``p_family``: the one-sided ``p_value`` adjusted within each method over its categories.

    One family per method, because each method (a column of the paper's Table 3) is its own replication
    question, "does this measure find the five WEAT biases?", asked of its own model; the three methods test
    the same five hypotheses on the same word lists, so one family of all rows would count each hypothesis
    three times and penalise a method for the others being run beside it. Rows without a p (no model, or an
    undefined test) are not in any family (NaN).

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


def table3(cats: Sequence[Category], *, embedding, embedding_name: str, encoder: contextual.Model | None,
           masked_lm: contextual.Model | None, vocabulary_model: contextual.Model, case_fold: bool = False,
           seed: int = 0, p_method: str = "auto", n_permutations: int = 100_000, unavailable: str = "",
           n_resamples: int = N_RESAMPLES, confidence_level: float = 0.95,
           template_vectors: Mapping[str, Mapping[str, np.ndarray]] | None = None) -> pd.DataFrame:
    """Table 3, long format: one row per category and method, paper next to ours, with the model used.

    ``vocabulary_model`` decides the reduced lists (its tokenizer; MiniLM shares bert-base-uncased's).
    A method whose model is ``None`` gets a row with empty numbers and ``unavailable`` as its note.
    ``seed``, ``p_method``, ``n_permutations``, ``n_resamples`` and ``confidence_level`` are checked before any work.
    ``template_vectors`` (:func:`template_vectors`, by category key) reuses vectors already computed for the
    template spread: the contextual WEAT then runs on their mean over templates, which is
    :func:`contextual_vectors` (same sentences; equal up to float rounding).

    Uncertainty (issue 14): ``p_value`` is one-sided (``alternative`` "greater", the paper's test) and
    ``p_two_sided`` the two-sided p of the same method (SciPy's doubling rule). ``effect_size_ci_low`` /
    ``effect_size_ci_high``: the BCa bootstrap interval of d at ``confidence_level`` over the words (each set
    resampled, ``n_resamples`` resamples seeded by ``seed``): for the WEAT rows
    :func:`wordbias.measures.bootstrap.weat_bootstrap` on the GloVe vectors or on the contextual vectors, for the
    log-probability rows the attribute test's ``effect_size_ci`` where :mod:`wordbias.measures.mlm` gives one
    (else NaN). ``p_holm``, ``p_bh`` and ``p_family``: the one-sided p adjusted within each method
    (:func:`adjust_per_method`, which says why a family per method).
    """
    check_seed("seed", seed)
    check_option("p_method", p_method, P_METHODS)
    check_int("n_permutations", n_permutations, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    confidence_level = check_probability("confidence_level", confidence_level)
    unc = dict(seed=seed, n_permutations=n_permutations)
    rows = []
    for cat in cats:
        reduced = reduce_to_vocabulary(cat, vocabulary_model, seed=seed)
        n = f"{len(reduced['X'].words)}x2 targets"
        g = weat_on_embedding(cat, reduced, embedding, case_fold=case_fold, seed=seed, p_method=p_method,
                              n_permutations=n_permutations)
        rows.append(_row(cat, GLOVE_WEAT, embedding_name, cat.paper["glove"],
                         cat.paper["glove_significant"], g.effect_size, g.p_value, g.p_method,
                         f"{len(g.X.words)}x2 targets",
                         "; ".join(f"not in {embedding_name}: {' '.join(v)}" for v in g.missing.values()),
                         **_weat_uncertainty(g, embedding, n_resamples=n_resamples,
                                             confidence_level=confidence_level, **unc)))
        if encoder is not None:
            if template_vectors is not None and cat.key in template_vectors:
                vectors = _averaged(cat, reduced, template_vectors[cat.key])
            else:
                vectors = contextual_vectors(cat, reduced, encoder)
            c = _weat_on_vectors(cat, reduced, vectors, seed=seed, p_method=p_method, n_permutations=n_permutations)
            rows.append(_row(cat, CONTEXTUAL_WEAT, encoder.label, cat.paper["bert_weat"],
                             cat.paper["bert_weat_significant"], c.effect_size, c.p_value, c.p_method, n,
                             **_weat_uncertainty(c, vectors, n_resamples=n_resamples,
                                                 confidence_level=confidence_level, **unc)))
        else:
            rows.append(_row(cat, CONTEXTUAL_WEAT, "-", cat.paper["bert_weat"],
                             cat.paper["bert_weat_significant"], note=unavailable))
        if masked_lm is not None:
            t = log_prob_test(cat, masked_lm, seed=seed, p_method=p_method, n_permutations=n_permutations,
                              n_resamples=n_resamples, confidence_level=confidence_level)
            rows.append(_row(cat, LOG_PROB, masked_lm.label, cat.paper["log_prob"],
                             cat.paper["log_prob_significant"], t.effect_size, None if t.p is None else t.p_value,
                             t.p_method, f"{len(t.A)}+{len(t.B)} attributes", t.undefined,
                             **_attribute_uncertainty(t)))
        else:
            rows.append(_row(cat, LOG_PROB, "-", cat.paper["log_prob"],
                             cat.paper["log_prob_significant"], note=unavailable))
    return adjust_per_method(pd.DataFrame(rows))


def _interval_text(low, high) -> str:
    return "-" if pd.isna(low) or pd.isna(high) else f"[{low:.2f}, {high:.2f}]"


def table3_shown(t3: pd.DataFrame) -> pd.DataFrame:
    """Table 3 for display: ``paper`` and ``ours`` as effect sizes with "*" when significant, ``p`` rounded
    (a "-" where a method had no model); where ``t3`` has them, ``ci`` the interval of d as "[lo, hi]", and
    ``p two-sided``, ``p Holm`` and ``p BH`` rounded.

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

    out = t3.assign(paper=[f"{d:.3f}{'*' if s else ''}" for d, s in zip(t3.paper_effect_size, t3.paper_significant)],
                    ours=[("-" if pd.isna(d) else f"{d:.3f}{'*' if s else ''}")
                          for d, s in zip(t3.effect_size, t3.significant)],
                    p=p_text(t3.p_value))
    if {"effect_size_ci_low", "effect_size_ci_high"} <= set(t3.columns):
        out["ci"] = [_interval_text(lo, hi) for lo, hi in zip(t3.effect_size_ci_low, t3.effect_size_ci_high)]
    for column, shown in (("p_two_sided", "p two-sided"), ("p_holm", "p Holm"), ("p_bh", "p BH")):
        if column in t3.columns:
            out[shown] = p_text(t3[column])
    return out


def table3_student(t3: pd.DataFrame) -> pd.DataFrame:
    """Table 3 for a student (6 columns, indexed by category and method): the model behind the number, the
    paper's d and ours ("*" where p < 0.01, the paper's asterisk), our 95% interval of d, the one-sided p and the
    Holm-adjusted p, each p on one line (:func:`wordbias.core.tables.p_text`; "-" where a method had no model).
    The two-sided and Benjamini-Hochberg p, the p method and the notes are :func:`table3_details`."""
    shown = t3.assign(d_paper=[f"{d:.3f}{'*' if s else ''}" for d, s in zip(t3.paper_effect_size,
                                                                            t3.paper_significant)],
                      d_ours=[(_tables.MISSING if pd.isna(d) else f"{d:.3f}{'*' if s else ''}")
                              for d, s in zip(t3.effect_size, t3.significant)])
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
    """The rest of Table 3 for display, indexed as :func:`table3_student`: the two-sided and Benjamini-Hochberg
    p, how p was computed, the words used and the note (why a value is missing, words the embedding lacks)."""
    out = pd.DataFrame({
        "Category": t3.category, "Method": t3.method.str.split(" (", regex=False).str[0],
        "p (two-sided)": _tables.p_column(t3.p_two_sided) if "p_two_sided" in t3 else _tables.MISSING,
        "p Benjamini-Hochberg": _tables.p_column(t3.p_bh) if "p_bh" in t3 else _tables.MISSING,
        "p computed": t3.p_method.fillna(_tables.MISSING),
        "words": t3.n.fillna(_tables.MISSING), "note": t3.note.fillna("")})
    return out.set_index(["Category", "Method"])


def table3_figure(t3: pd.DataFrame, *, title: str):
    """Paper vs ours, one row per category and method (:func:`wordbias.core.figures.effect_size_comparison`)."""
    fig_t = t3.assign(test=t3.category.str.replace(" (", "\n(", regex=False) + " | "
                      + t3.method.str.split(" (", regex=False).str[0])
    ci = {"low": "effect_size_ci_low", "high": "effect_size_ci_high"} if "effect_size_ci_low" in t3 else {}
    return plots.effect_size_comparison(fig_t, title=title, **ci)


# --------------------------------------------------------------------------------------------------
# the template spread (issue 14, item 7): per-template effect sizes pooled by CEAT's random-effects model
# --------------------------------------------------------------------------------------------------


def template_associations(vectors: Mapping[str, np.ndarray], X: Sequence[str], Y: Sequence[str], A: Sequence[str],
                          B: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """s(w, A_t, B_t) of every target word in every template t (Caliskan et al. 2017, Methods, on Kurita et
    al.'s §3.1 contextual vectors): ``vectors`` maps each word to its vectors [templates, dim]
    (:func:`contextual_vectors_by_template`); within template t, each target's vector in t is compared with
    the attributes' vectors in t. Returns (scores_x [templates, |X|], scores_y [templates, |Y|]), the input of
    :func:`wordbias.measures.ceat.pool_templates`.

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
    """Kurita et al.'s log probability bias score (§2) of every attribute, template by template: each Table 2
    template with its own target pairs (:func:`wordbias.measures.mlm.log_prob_bias_scores` on that one template,
    the mean over its pairs). Returns (scores of the first attribute set [templates, |A|], of the second
    [templates, |B|], rounding noise: the largest :func:`wordbias.measures.mlm.rounding_noise` of the templates).
    The §3.2 score of :func:`log_prob_test` is the mean over all (template, pair) rows, so with a template of two
    pairs it is not the plain mean of these rows."""
    role_a, role_b = cat.log_prob_attributes
    A, B = list(cat.sets[role_a]), list(cat.sets[role_b])
    rows, noise = [], 0.0
    for tp in cat.log_prob_templates:
        s, n = mlm.log_prob_bias_scores(model, A + B, [tp], prior_mask=prior_mask, batch_size=batch_size,
                                        progress=progress, return_noise=True)
        rows.append(s)
        noise = max(noise, n)
    scores = np.stack(rows)
    return scores[:, :len(A)], scores[:, len(A):], noise


@dataclass(frozen=True)
class TemplateSpread:
    """One category and method run template by template: the per-template effect sizes d_t pooled by CEAT's
    random-effects model (Guo & Caliskan 2021), once per within-template variance (``pooled``, by
    :data:`TEMPLATE_VARIANCES` name: "ceat", CEAT's own, and "hedges_olkin", the sampling variance of d; see
    :func:`wordbias.measures.ceat.weat_variance` for why Q and I² under "ceat" mislead). ``effect_sizes`` has
    NaN for a template where d is undefined, and then ``pooled`` is empty and ``undefined`` says why."""

    category: str
    method: str
    model: str
    templates: tuple[str, ...]
    effect_sizes: np.ndarray = field(repr=False)
    pooled: Mapping[str, ceat.PooledTemplates] = field(repr=False)
    undefined: str = ""

    def to_frame(self) -> pd.DataFrame:
        """The tidy table: per variance method, one row per template (template, d, variance, weight
        1/(v + τ²), relative_weight) and the pooled row (template :data:`POOLED`; d the pooled estimate, variance
        its SE², low/high its Wald interval, tau2, i2, q, p_value (two-sided z test), k). With ``pooled``
        empty, one row per template (d, NaN where undefined) and ``note`` says why."""
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
        return pd.concat(frames, ignore_index=True).assign(note=self.undefined)[FRAME_COLUMNS]


#: the columns of :meth:`TemplateSpread.to_frame`
FRAME_COLUMNS = ["category", "method", "model", "variance_method", "template", "d", "variance", "weight",
                 "relative_weight", "low", "high", "tau2", "i2", "q", "p_value", "k", "note"]


def template_spread(scores_x, scores_y, *, templates: Sequence[str], category: str = "", method: str = "",
                    model: str = "", noise: float = 0.0, confidence_level: float = 0.95,
                    alternative: str = "two-sided") -> TemplateSpread:
    """Per-template effect sizes d_t = [mean_X s − mean_Y s] / std_{X∪Y} s and their random-effects pooling
    (CEAT: Guo & Caliskan 2021, §"Random-effects model"; :func:`wordbias.measures.ceat.pool_templates`), under
    each within-template variance of :data:`TEMPLATE_VARIANCES`.

    ``scores_x`` [templates, n_X] and ``scores_y`` [templates, n_Y]: one score per word per template (s(w, A, B)
    of the targets for WEAT on contextual vectors, :func:`template_associations`; the bias scores of the two
    attribute sets for the log-probability score, :func:`log_prob_template_scores`). ``noise``: a template
    whose scores all lie within ``noise`` of each other has no d (its differences are float rounding, as in
    :func:`wordbias.measures.mlm.attribute_test`); then nothing is pooled and ``undefined`` says which.

    A single template is pooled as itself: d, its variance, τ² = Q = I² = 0 (no between-template variance can
    be estimated; :func:`wordbias.measures.ceat.random_effects` with k = 1).

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


def contextual_template_spread(cat: Category, reduced: Mapping[str, weat.WordSet], encoder: contextual.Model, *,
                               vectors: Mapping[str, np.ndarray] | None = None, batch_size: int = 64,
                               confidence_level: float = 0.95) -> TemplateSpread:
    """WEAT on contextual vectors (§3.1) template by template, pooled (:func:`template_spread`): each target's
    and attribute's vector in one Table 1 template (:func:`contextual_vectors_by_template`, or ``vectors``
    already computed by it) gives s(w, A, B) per template (:func:`template_associations`)."""
    if vectors is None:
        vectors = contextual_vectors_by_template(cat, reduced, encoder, batch_size=batch_size)
    sx, sy = template_associations(vectors, *(reduced[r].words for r in ROLES))
    return template_spread(sx, sy, templates=cat.cosine_templates, category=cat.title, method=CONTEXTUAL_WEAT,
                           model=encoder.label, confidence_level=confidence_level)


def _template_label(tp: mlm.TemplatePairs) -> str:
    return f"{tp.template} ({', '.join('/'.join(p) for p in tp.pairs)})"


def log_prob_template_spread(cat: Category, masked_lm: contextual.Model, *, prior_mask: str = "per_piece",
                             batch_size: int = 32, confidence_level: float = 0.95) -> TemplateSpread:
    """The log probability bias score (§3.2) template by template, pooled (:func:`template_spread`): d per
    Table 2 template over the attributes, the first attribute set against the second (the roles of X and Y in
    :func:`wordbias.measures.ceat.per_template_weat`), from :func:`log_prob_template_scores`. Templates are
    labelled with their target pairs."""
    sa, sb, noise = log_prob_template_scores(cat, masked_lm, prior_mask=prior_mask, batch_size=batch_size)
    return template_spread(sa, sb, templates=[_template_label(t) for t in cat.log_prob_templates],
                           category=cat.title, method=LOG_PROB, model=masked_lm.label, noise=noise,
                           confidence_level=confidence_level)


def template_table(cat: Category, reduced: Mapping[str, weat.WordSet], *, encoder: contextual.Model | None,
                   masked_lm: contextual.Model | None, vectors: Mapping[str, np.ndarray] | None = None,
                   batch_size: int = 32, confidence_level: float = 0.95) -> pd.DataFrame:
    """One category's tidy template table (:meth:`TemplateSpread.to_frame`): WEAT on contextual vectors
    (with ``encoder``) and the log probability bias score (with ``masked_lm``), template by template, pooled.
    A method whose model is None is left out."""
    spreads = []
    if encoder is not None:
        spreads.append(contextual_template_spread(cat, reduced, encoder, vectors=vectors,
                                                  confidence_level=confidence_level))
    if masked_lm is not None:
        spreads.append(log_prob_template_spread(cat, masked_lm, batch_size=batch_size,
                                                confidence_level=confidence_level))
    if not spreads:
        return pd.DataFrame(columns=FRAME_COLUMNS)
    return pd.concat([s.to_frame() for s in spreads], ignore_index=True)


def template_tables(cats: Sequence[Category], *, encoder: contextual.Model | None, masked_lm: contextual.Model | None,
                    vocabulary_model: contextual.Model, seed: int = 0,
                    template_vectors: Mapping[str, Mapping[str, np.ndarray]] | None = None, batch_size: int = 32,
                    confidence_level: float = 0.95) -> pd.DataFrame:
    """:func:`template_table` of every category (its reduced lists as :func:`table3` makes them), one long table.
    ``template_vectors`` (:func:`template_vectors`) reuses the contextual vectors already computed."""
    seed = check_seed("seed", seed)
    check_int("batch_size", batch_size, min=1)
    check_probability("confidence_level", confidence_level)
    frames = []
    for cat in cats:
        reduced = reduce_to_vocabulary(cat, vocabulary_model, seed=seed)
        vectors = None if template_vectors is None else template_vectors.get(cat.key)
        frames.append(template_table(cat, reduced, encoder=encoder, masked_lm=masked_lm, vectors=vectors,
                                     batch_size=batch_size, confidence_level=confidence_level))
    return pd.concat(frames, ignore_index=True)


def template_notes(table: pd.DataFrame) -> str:
    """Markdown computed from :func:`template_tables`' table, one line per method: the largest between-template
    spread τ under each within-template variance, how far apart the templates' d's are (the median over categories
    of the range of d) against the typical standard error of one template's d from drawing the words alone
    (Hedges & Olkin's variance), and the median of CEAT's within-template variance (the variance of the scores,
    whose unit sets CEAT's interval). Nothing here is a stated fact of one model.

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
    """The pooled rows of :func:`template_tables`, one per category and method, narrow for display: the
    per-template d's (``per template``), the pooled d with its interval and τ, I² under CEAT's variance
    (``ceat``) and under Hedges & Olkin's (``HO``).

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
            row[f"pooled ({short})"] = (f"{p.d.item():.2f} {_interval_text(p.low.item(), p.high.item())}"
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


def template_figure(table: pd.DataFrame, *, title: str):
    """A forest plot of :func:`template_tables`: one panel per method (the same d axis), one block per category
    (its name as a header); each template's d as a dot (with ±1.96·SE of Hedges & Olkin's variance as a thin
    bar: the spread expected from drawing the words alone), then the pooled d with its 95% interval under
    CEAT's variance (black diamond) and under Hedges & Olkin's (open square), labelled with τ. Templates are
    labelled in full; a category whose d is undefined gets one row saying so."""
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


def vocabulary_report(cats: Sequence[Category], vocabulary_model: contextual.Model, seed: int = 0) -> pd.DataFrame:
    """For each category and target set: how many words are in the vocabulary, which were removed, and
    which were cut to balance the sets (§3.1, §3.3: "only 5 of the African American names")."""
    rows = []
    for cat in cats:
        reduced = reduce_to_vocabulary(cat, vocabulary_model, seed=seed)
        for role in ("X", "Y"):
            s = reduced[role]
            rows.append({"category": cat.title, "set": s.name, "listed": len(s.requested),
                         "in_vocabulary": len(s.requested) - len(s.missing), "kept": len(s.words),
                         "not_in_vocabulary": " ".join(s.missing), "cut_to_balance": " ".join(s.balanced_out)})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------
# Table 5
# --------------------------------------------------------------------------------------------------

def _read_lines(path) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [line.strip() for line in fh if line.strip()]


def table5_attributes() -> dict[str, list[str]]:
    """The attribute lists of Table 5, lower-cased and de-duplicated in file order (as the authors'
    notebook reads them). Job titles are the distinct titles of the employee-salary table; a title with
    no letters (the table has one ".") is not a job title and is left out."""
    spec = stimuli.load_stimuli("kurita2019")["table5"]["sets"]
    out = {}
    for key, s in spec.items():
        path = paths.DATA / "kurita2019" / s["file"]
        if path.suffix == ".csv":
            words = pd.read_csv(path, keep_default_na=False)["job_title"].astype(str).tolist()
        else:
            words = _read_lines(path)
        words = [w.strip().lower() for w in words]
        out[key] = list(dict.fromkeys(w for w in words if any(ch.isalpha() for ch in w)))
    return out


def table5(masked_lm: contextual.Model | None, *, batch_size: int = 32, progress: bool = False,
           unavailable: str = "") -> tuple[pd.DataFrame, dict[str, np.ndarray]]:
    """Table 5: the percentage of attributes whose log-probability bias score favours *he* over *she*.
    Returns the table and each set's per-attribute scores (empty when no masked LM is given), with the
    scores within float rounding of 0 (:func:`wordbias.mlm.rounding_noise`) set to 0 and counted in
    ``tied_within_rounding``."""
    check_int("batch_size", batch_size, min=1)
    data = stimuli.load_stimuli("kurita2019")["table5"]
    attributes = table5_attributes()
    x, y = data["targets"][0]
    rows, scores = [], {}
    for key, s in data["sets"].items():
        row = {"set": s["title"], "template": s["template"], "n_attributes": len(attributes[key]),
               "paper_percent_male": s["paper_percent"], "model": "-", "percent_male": None,
               "note": s.get("note", "")}
        if masked_lm is not None:
            sc, noise = mlm.log_prob_bias_scores(masked_lm, attributes[key],
                                                 [mlm.TemplatePairs(s["template"], ((x, y),))],
                                                 batch_size=batch_size, progress=progress, return_noise=True)
            scores[key] = mlm.without_noise(sc, noise)
            tied = int((np.abs(sc) <= noise).sum())
            row.update(model=masked_lm.label, percent_male=100 * mlm.share_favouring_first(sc, noise),
                       tied_within_rounding=tied)
            if tied == len(sc):
                row["note"] = "; ".join(filter(None, [row["note"], "undefined: every score is 0 up to float rounding"]))
        else:
            row["note"] = "; ".join(filter(None, [unavailable, row["note"]]))
        rows.append(row)
    return pd.DataFrame(rows), scores


def table5_score_tables(scores: Mapping[str, np.ndarray]) -> dict[str, pd.DataFrame]:
    """Each Table 5 set's attributes with their bias scores (as :func:`table5` returns them), lowest first."""
    attributes = table5_attributes()
    out = {}
    for key, sc in scores.items():
        order = np.argsort(sc, kind="stable")
        out[key] = pd.DataFrame({"attribute": np.array(attributes[key])[order], "bias_score": sc[order]})
    return out


def table5_extremes(scores: Mapping[str, np.ndarray], n: int = 5) -> pd.DataFrame:
    """The ``n`` most male and most female attributes of each Table 5 set (one row per set)."""
    attributes = table5_attributes()
    ends = {key: (", ".join(np.array(attributes[key])[np.argsort(sc, kind="stable")[-n:][::-1]]),
                  ", ".join(np.array(attributes[key])[np.argsort(sc, kind="stable")[:n]]))
            for key, sc in scores.items()}
    return pd.DataFrame(ends, index=["most male", "most female"]).T


def table5_figure(scores: Mapping[str, np.ndarray]):
    """A histogram of the bias scores of each Table 5 set (seaborn's ``histplot``, 30 bins), titled with the share
    above 0."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, axes = plt.subplots(1, len(scores), figsize=(3 * len(scores), 2.6), sharey=False)
    for ax, (key, sc) in zip(np.atleast_1d(axes), scores.items()):
        sns.histplot(x=np.asarray(sc, dtype=float), bins=30, color="#4c72b0", alpha=1.0, ax=ax)
        ax.set_ylabel("attributes")
        ax.axvline(0, color="black", lw=0.6)
        ax.set_title(f"{key} ({100 * np.mean(sc > 0):.1f}% > 0)")
        ax.set_xlabel("bias score he − she")
    fig.tight_layout()
    return fig
