r"""Kurita et al.'s (2019) tests of a category (:class:`wordbias.datasets.contextual_tests.Category`) on
contextual models, each test measured once into a :class:`CategoryResult` (:func:`measure`).

§3.1, WEAT on contextual vectors: the target lists reduced to the words that are one WordPiece of the model's
vocabulary and balanced (:func:`reduce_to_vocabulary`); each word's final-layer vector in each Table 1 template
with the other slot masked (:func:`vectors_by_template`), averaged over the templates
(:func:`mean_over_templates`; :func:`contextual_vectors` computes the average in one pass); the WEAT of
Caliskan et al. (2017) on those vectors, with its bootstrap interval and two-sided p (:func:`weat_uncertainty`).
The same reduced lists serve WEAT on a static embedding (Table 3's first column).
§3.2, the log probability bias score of every attribute over the Table 2 templates and target pairs, and the
permutation test over attributes (:func:`log_prob_test`, :func:`wordbias.measures.mlm.attribute_test`).

A :class:`CategoryResult` carries everything a reader needs (the lists as reduced, the test with its effect
size and p, the interval, the two-sided p, the per-template vectors, or why the test did not run); the paper's
Table 3 (:func:`wordbias.papers.kurita2019.table3`) and the tidy table
(:func:`wordbias.battery.contextual.tidy_table`) are views of these results and never run a test again.

Kurita, Vyas, Pareek, Black & Tsvetkov (2019), "Measuring Bias in Contextualized Word Representations", GeBNLP,
https://doi.org/10.18653/v1/W19-3823.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.lookup import WordSet
from wordbias.core.permutation import P_METHODS
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_int, check_option, check_probability, check_seed
from wordbias.datasets.contextual_tests import ROLES, Category
from wordbias.measures import bootstrap, mlm, weat
from wordbias.measures.resampling import BootstrapInterval
from wordbias.models import contextual

__all__ = ["MEASURES", "N_RESAMPLES", "CategoryResult", "reduce_to_vocabulary", "vectors_by_template",
           "mean_over_templates", "contextual_vectors", "weat_uncertainty", "log_prob_test", "measure"]

#: the measures of a :class:`CategoryResult`: WEAT on a static embedding with the reduced lists, WEAT on
#: contextual vectors (§3.1) and the log probability bias score's attribute test (§3.2); the names of
#: :data:`wordbias.core.tidy.MEASURES`
MEASURES = ("weat", "contextual_weat", "mlm_log_prob")
#: bootstrap resamples for the intervals of d (BCa; 10,000 take about 0.01 s a test)
N_RESAMPLES = 10_000
_NAN = float("nan")


# --------------------------------------------------------------------------------------------------
# §3.1: the reduced lists and the contextual vectors
# --------------------------------------------------------------------------------------------------


def reduce_to_vocabulary(cat: Category, model: contextual.Model, *, seed: int = 0) -> dict[str, WordSet]:
    """§3.1: drop target words (X, Y) that are not one WordPiece of ``model``'s vocabulary, then balance
    the targets by deleting random words (seeded) from the larger set. Attributes are kept whole.
    Words keep their spelling in the lists (names capitalised), so cased embeddings can use them.
    A target set left with fewer than :data:`wordbias.measures.weat.MIN_TARGET_SIZE` words raises
    :class:`~wordbias.core.errors.DegenerateSetError` naming the set and the model."""
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
            raise DegenerateSetError(f"{cat.title}: only {len(kept)} words of {cat.names[role]!r} are in the "
                                     f"vocabulary of {model.name!r}")
        sets[role] = WordSet(cat.names[role], tuple(words), kept, missing)
    sets["X"], sets["Y"] = weat.balance(sets["X"], sets["Y"], "random", np.random.default_rng(seed))
    return sets


def _slots(cat: Category, role: str) -> tuple[str, str]:
    """The slot a set fills in the Table 1 templates and the slot masked meanwhile (§3.1: "We mask the TARGET
    to compute the embedding for the ATTRIBUTE and vice versa")."""
    slot = cat.slots[role]
    return slot, (mlm.ATTRIBUTE if slot == mlm.TARGET else mlm.TARGET)


def vectors_by_template(cat: Category, reduced: Mapping[str, WordSet], encoder: contextual.Model, *,
                        batch_size: int = 32, progress: bool = False) -> dict[str, np.ndarray]:
    """Each word's final-layer vector in each Table 1 template, the other slot masked (§3.1): word → array
    [templates, hidden], templates in the order of ``cat.cosine_templates``.

    :func:`wordbias.models.contextual.word_in_template_embeddings` is called with one template at a time (it
    averages over the templates it is given); the mean over templates of these vectors
    (:func:`mean_over_templates`) is :func:`contextual_vectors`' vector (the same sentences, run in other
    batches: equal up to float rounding)."""
    check_int("batch_size", batch_size, min=1)
    vectors: dict[str, np.ndarray] = {}
    for role in ROLES:
        slot, other = _slots(cat, role)
        words = reduced[role].words
        per = [contextual.word_in_template_embeddings(encoder, words, [t], slot=slot, other=other,
                                                      batch_size=batch_size, progress=progress)
               for t in cat.cosine_templates]
        vectors.update(zip(words, np.stack(per, axis=1)))
    return vectors


def mean_over_templates(cat: Category, reduced: Mapping[str, WordSet],
                        by_template: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each word's vector averaged over the templates (§3.1), from :func:`vectors_by_template`'s vectors.

    Examples
    --------
    >>> from wordbias.datasets.contextual_tests import kurita2019_categories
    >>> cat = kurita2019_categories()[2]
    >>> reduced = {r: WordSet(r, (r.lower(),), (r.lower(),)) for r in ROLES}
    >>> v = mean_over_templates(cat, reduced, {w: [[0.0, 2.0], [2.0, 0.0]] for w in "xyab"})
    >>> v["x"].tolist()
    [1.0, 1.0]
    """
    words = [w for r in ROLES for w in reduced[r].words]
    missing = [w for w in words if w not in by_template]
    if missing:
        raise InvalidParameterError(f"{cat.title}: the template vectors lack {missing[:10]}; compute them with "
                                    "vectors_by_template() on the same reduced lists")
    return {w: np.asarray(by_template[w], dtype=np.float64).mean(axis=0) for w in words}


def contextual_vectors(cat: Category, reduced: Mapping[str, WordSet], encoder: contextual.Model, *,
                       batch_size: int = 64, progress: bool = False) -> dict[str, np.ndarray]:
    """Each word's final-layer vector, averaged over the Table 1 templates, with the other slot masked (§3.1),
    all templates in one pass of :func:`wordbias.models.contextual.word_in_template_embeddings`."""
    vectors: dict[str, np.ndarray] = {}
    for role in ROLES:
        slot, other = _slots(cat, role)
        words = reduced[role].words
        v = contextual.word_in_template_embeddings(encoder, words, cat.cosine_templates, slot=slot, other=other,
                                                   batch_size=batch_size, progress=progress)
        vectors.update(zip(words, v))
    return vectors


def weat_uncertainty(vectors, result: weat.WeatResult, *, seed: int, n_permutations: int, n_resamples: int,
                     confidence_level: float) -> tuple[BootstrapInterval, float]:
    """The bootstrap interval of d over the words of ``result`` (each set resampled separately;
    :func:`wordbias.measures.bootstrap.weat_bootstrap` on ``vectors``, BCa) and the two-sided p by the same p
    method (:func:`wordbias.measures.weat.p_value`, SciPy's doubling rule)."""
    ci = bootstrap.weat_bootstrap(vectors, result, n_resamples=n_resamples, confidence_level=confidence_level,
                                  seed=seed).effect_size
    two = weat.p_value(result.s_x, result.s_y, p_method=result.p_method, n_permutations=n_permutations, seed=seed,
                       alternative="two-sided")
    return ci, two.p_value


# --------------------------------------------------------------------------------------------------
# §3.2: the log probability bias score's test
# --------------------------------------------------------------------------------------------------


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
    templates = [mlm.TemplatePairs(t.template, t.pairs) for t in cat.log_prob_templates]
    scores, noise = mlm.log_prob_bias_scores(model, list(A) + list(B), templates, prior_mask=prior_mask,
                                             batch_size=batch_size, progress=progress, return_noise=True)
    return mlm.attribute_test(scores[:len(A)], scores[len(A):], A=A, B=B, p_method=p_method,
                              n_permutations=n_permutations, seed=seed, noise=noise, n_resamples=n_resamples,
                              confidence_level=confidence_level)


# --------------------------------------------------------------------------------------------------
# one result per test
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CategoryResult:
    """One category measured once by one measure (:data:`MEASURES`) on one model (``model``, its label; ""
    when the measure had no model): the lists as reduced (``reduced``), the test (``test``: a
    :class:`~wordbias.measures.weat.WeatResult` or a :class:`~wordbias.measures.mlm.AttributeTest`), the
    bootstrap interval of d (``interval``), the two-sided p, the options it ran with, for WEAT on contextual
    vectors each word's vectors per template (``vectors``, [templates, hidden]), and ``not_run``: why the test
    did not run ("" when it ran; with ``model`` "" the reason is the missing model). The properties read the
    numbers off the test; nothing here computes."""

    category: Category
    measure: str
    model: str
    seed: int
    n_permutations: int
    n_resamples: int
    confidence_level: float
    reduced: Mapping[str, WordSet] | None = field(default=None, repr=False)
    test: weat.WeatResult | mlm.AttributeTest | None = field(default=None, repr=False)
    interval: BootstrapInterval | None = None
    p_two_sided: float = _NAN
    vectors: Mapping[str, np.ndarray] | None = field(default=None, repr=False)
    not_run: str = ""

    @property
    def ran(self) -> bool:
        """Whether the test ran (it may still be undefined: :attr:`undefined`)."""
        return self.test is not None

    @property
    def undefined(self) -> str:
        """Why the effect size and p are undefined (the log-probability scores equal up to float rounding)."""
        return getattr(self.test, "undefined", "") or ""

    @property
    def defined(self) -> bool:
        """Whether the test ran and has an effect size and a p."""
        return self.ran and getattr(self.test, "p", True) is not None

    def _number(self, name: str) -> float:
        return float(getattr(self.test, name)) if self.defined else _NAN

    @property
    def statistic(self) -> float:
        return self._number("statistic")

    @property
    def effect_size(self) -> float:
        return self._number("effect_size")

    @property
    def p_value(self) -> float:
        return self._number("p_value")

    @property
    def p_method(self) -> str | None:
        return self.test.p_method if self.defined else None

    @property
    def alternative(self) -> str | None:
        return self.test.alternative if self.ran else None

    @property
    def ci_low(self) -> float:
        return _NAN if self.interval is None else float(self.interval.low)

    @property
    def ci_high(self) -> float:
        return _NAN if self.interval is None else float(self.interval.high)


def _weat_result(cat: Category, reduced, vectors, *, measure: str, model: str, opts: dict, by_template=None,
                 **weat_options) -> CategoryResult:
    """WEAT (Caliskan et al. 2017) on ``vectors`` with the reduced lists, its interval and two-sided p."""
    res = weat.weat(vectors, *(reduced[r].words for r in ROLES), names=dict(cat.names), seed=opts["seed"],
                    p_method=opts["p_method"], n_permutations=opts["n_permutations"], **weat_options)
    ci, two = weat_uncertainty(vectors, res, seed=opts["seed"], n_permutations=opts["n_permutations"],
                               n_resamples=opts["n_resamples"], confidence_level=opts["confidence_level"])
    return CategoryResult(cat, measure, model, **_kept(opts), reduced=reduced, test=res, interval=ci,
                          p_two_sided=two, vectors=by_template)


def _kept(opts: dict) -> dict:
    return {k: opts[k] for k in ("seed", "n_permutations", "n_resamples", "confidence_level")}


def _log_prob_result(cat: Category, reduced, masked_lm, *, opts: dict, batch_size: int) -> CategoryResult:
    t = log_prob_test(cat, masked_lm, seed=opts["seed"], p_method=opts["p_method"],
                      n_permutations=opts["n_permutations"], batch_size=batch_size, n_resamples=opts["n_resamples"],
                      confidence_level=opts["confidence_level"])
    return CategoryResult(cat, "mlm_log_prob", masked_lm.label, **_kept(opts), reduced=reduced, test=t,
                          interval=t.effect_size_ci, p_two_sided=_NAN if t.p is None else float(t.p_two_sided))


def _measure_category(cat: Category, *, vocabulary_model, embedding, embedding_name, case_fold, encoder, masked_lm,
                      why_no_encoder, why_no_mlm, batch_size, opts) -> list[CategoryResult]:
    """:func:`measure` of one category: [static WEAT (with an embedding)], contextual WEAT, log-probability test."""
    kept = _kept(opts)
    try:
        reduced = reduce_to_vocabulary(cat, vocabulary_model, seed=opts["seed"])
    except DegenerateSetError as err:
        out = [] if embedding is None else [CategoryResult(cat, "weat", embedding_name, **kept, not_run=str(err))]
        out.append(CategoryResult(cat, "contextual_weat", encoder.label if encoder else "", **kept,
                                  not_run=str(err) if encoder else why_no_encoder))
        out.append(CategoryResult(cat, "mlm_log_prob", masked_lm.label if masked_lm else "", **kept,
                                  not_run=str(err) if masked_lm else why_no_mlm))
        return out
    out = [] if embedding is None else [_weat_result(cat, reduced, embedding, measure="weat", model=embedding_name,
                                                     opts=opts, case_fold=case_fold)]
    if encoder is None:
        out.append(CategoryResult(cat, "contextual_weat", "", **kept, reduced=reduced, not_run=why_no_encoder))
    else:
        by_template = vectors_by_template(cat, reduced, encoder, batch_size=batch_size)
        out.append(_weat_result(cat, reduced, mean_over_templates(cat, reduced, by_template),
                                measure="contextual_weat", model=encoder.label, opts=opts, by_template=by_template,
                                balance_targets="raise"))
    if masked_lm is None:
        out.append(CategoryResult(cat, "mlm_log_prob", "", **kept, reduced=reduced, not_run=why_no_mlm))
    else:
        out.append(_log_prob_result(cat, reduced, masked_lm, opts=opts, batch_size=batch_size))
    return out


def measure(cats: Sequence[Category], *, encoder: contextual.Model | None, masked_lm: contextual.Model | None,
            vocabulary_model: contextual.Model | None = None, embedding=None, embedding_name: str = "embedding",
            case_fold: bool = False, seed: int = 0, p_method: str = "auto", n_permutations: int = 100_000,
            n_resamples: int = N_RESAMPLES, confidence_level: float = 0.95, batch_size: int = 32,
            why_no_encoder: str = "", why_no_mlm: str = "", progress: bool = False) -> list[CategoryResult]:
    """Every test of every category, each measured once: per category, in this order, WEAT on ``embedding``
    with the reduced lists (only when an embedding is given: Table 3's first column; words it lacks are
    dropped and the targets rebalanced, seeded), WEAT on ``encoder``'s contextual vectors (§3.1) and the log
    probability bias score's test on ``masked_lm`` (§3.2).

    ``vocabulary_model`` decides the reduced lists (§3.1, its tokenizer; default the encoder, else the masked
    LM). A measure whose model is None gets a result with ``model`` "" and ``why_no_encoder`` /
    ``why_no_mlm`` as ``not_run``; a category whose targets fall below two words of the vocabulary gets results
    that say so. Each WEAT has its BCa bootstrap interval of d over the words (``n_resamples`` resamples at
    ``confidence_level``, seeded by ``seed``) and its two-sided p (:func:`weat_uncertainty`); the attribute test
    has its own (:func:`wordbias.measures.mlm.attribute_test`). The contextual WEAT runs on each word's vectors
    per template (:func:`vectors_by_template`, kept in the result for the template spread) averaged over the
    templates. Options are checked before any work.
    """
    opts = {"seed": check_seed("seed", seed), "p_method": check_option("p_method", p_method, P_METHODS),
            "n_permutations": check_int("n_permutations", n_permutations, min=1),
            "n_resamples": check_int("n_resamples", n_resamples, min=2),
            "confidence_level": check_probability("confidence_level", confidence_level)}
    batch_size = check_int("batch_size", batch_size, min=1)
    cats = list(cats)
    vocabulary_model = vocabulary_model or encoder or masked_lm
    if vocabulary_model is None and cats:
        raise InvalidParameterError("measuring needs a model whose vocabulary reduces the lists (§3.1): give an "
                                    "encoder, a masked LM or a vocabulary_model")
    out: list[CategoryResult] = []
    label = encoder.label if encoder is not None else getattr(masked_lm, "label", "")
    with progress_bar(len(cats), desc=f"contextual tests on {label}", unit="category", enabled=progress) as bar:
        for cat in cats:
            out += _measure_category(cat, vocabulary_model=vocabulary_model, embedding=embedding,
                                     embedding_name=embedding_name, case_fold=case_fold, encoder=encoder,
                                     masked_lm=masked_lm, why_no_encoder=why_no_encoder, why_no_mlm=why_no_mlm,
                                     batch_size=batch_size, opts=opts)
            bar.update(1)
    return out
