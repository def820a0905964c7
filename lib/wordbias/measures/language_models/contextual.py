r"""Kurita et al.'s (2019) tests of a category (:class:`wordbias.datasets.contextual_tests.Category`) on
contextual models, each test measured once into a :class:`CategoryResult` (:func:`measure`).

§3.1, WEAT on contextual vectors: the target lists reduced to the words that are one WordPiece of the model's
vocabulary and balanced (:func:`reduce_to_vocabulary`); each word's final-layer vector in each Table 1 template
with the other slot masked (:func:`vectors_by_template`), averaged over the templates
(:func:`mean_over_templates`; :func:`contextual_vectors` computes the average in one pass); the WEAT of
Caliskan et al. (2017) on those vectors, with its bootstrap interval and two-sided p (:func:`weat_uncertainty`).
The same reduced lists serve WEAT on a static embedding (Table 3's first column).
§3.2, the log probability bias score of every attribute over the Table 2 templates and target pairs, and the
permutation test over attributes (:func:`log_prob_test`, :func:`wordbias.measures.language_models.mlm.attribute_test`).

A :class:`CategoryResult` carries everything a reader needs (the lists as reduced, the test with its effect
size and p, the interval, the two-sided p, the per-template vectors, or why the test did not run); the paper's
Table 3 (:func:`wordbias.papers.kurita2019.table3`) and the tidy table
(:func:`wordbias.battery.contextual.tidy_table`) are views of these results and never run a test again. Its notes
name the words of its sets that the measured model's tokenizer splits into several tokens
(:func:`wordbias.core.identity.split_words_note`): the attributes, kept whole, and a target only when the model
that reduced the lists is another; a flag, the numbers are the ones measured.

Kurita, Vyas, Pareek, Black & Tsvetkov (2019), "Measuring Bias in Contextualized Word Representations", GeBNLP,
https://doi.org/10.18653/v1/W19-3823.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from wordbias.core import tidy
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.identity import split_words_note
from wordbias.core.lookup import WordSet
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_int, check_option, check_seed
from wordbias.datasets.contextual_tests import ROLES, Category
from wordbias.measures.association import bootstrap, weat
from wordbias.measures.language_models import mlm
from wordbias.models import contextual
from wordbias.options import Resampling, Words
from wordbias.result import Result, SetCoverage
from wordbias.stats.permutation import P_METHODS
from wordbias.stats.resampling import BootstrapInterval

__all__ = ["MEASURES", "N_RESAMPLES", "DEFAULT_RESAMPLING", "DEFAULT_WORDS", "CategoryResult", "contextual_weat", "mlm_log_prob", "reduce_to_vocabulary", "vectors_by_template",
           "mean_over_templates", "contextual_vectors", "weat_uncertainty", "log_prob_test", "measure"]

#: the measures of a :class:`CategoryResult`: WEAT on a static embedding with the reduced lists, WEAT on
#: contextual vectors (§3.1) and the log probability bias score's attribute test (§3.2); the names of
#: :data:`wordbias.core.tidy.MEASURES`
MEASURES = ("weat", "contextual_weat", "mlm_log_prob")
#: bootstrap resamples for the intervals of d (BCa; 10,000 take about 0.01 s a test)
N_RESAMPLES = 10_000
#: :func:`measure`'s resampling: 100,000 Monte Carlo permutations, :data:`N_RESAMPLES` BCa resamples, 95%, seed 0
DEFAULT_RESAMPLING = Resampling(n_resamples=N_RESAMPLES, n_permutations=100_000)
#: :func:`measure`'s treatment of the static embedding's lists: exact case, missing words dropped, unequal targets
#: balanced at random
DEFAULT_WORDS = Words(case_fold=False)
#: the contextual WEAT's: its reduced lists are balanced already (:func:`reduce_to_vocabulary`)
_CONTEXTUAL_WORDS = Words(case_fold=False, balance_targets="raise")
_NAN = float("nan")


# --------------------------------------------------------------------------------------------------
# §3.1: the reduced lists and the contextual vectors
# --------------------------------------------------------------------------------------------------


def reduce_to_vocabulary(cat: Category, model: contextual.Model, *, seed: int = 0) -> dict[str, WordSet]:
    """§3.1: the category's word lists reduced to ``model``'s vocabulary, targets balanced.

    Target words (X, Y) that are not one WordPiece of ``model``'s vocabulary are dropped
    (:func:`wordbias.models.contextual.in_vocabulary`), then the targets are balanced by deleting random
    words (seeded) from the larger set. Attributes are kept whole. Words keep their spelling in the lists
    (names capitalised), so cased embeddings can use them.

    Parameters
    ----------
    cat : wordbias.datasets.contextual_tests.Category
        The category.
    model : wordbias.models.contextual.Model
        The model whose vocabulary reduces the lists; only its tokenizer (and ``name``) is used.
    seed : int, default 0
        Seeds the balancing.

    Returns
    -------
    dict of str to wordbias.core.lookup.WordSet
        The four lists by role (``"X"``, ``"Y"``, ``"A"``, ``"B"``), with the words kept, missing and
        balanced out.

    Raises
    ------
    DegenerateSetError
        If a target set is left with fewer than :data:`wordbias.measures.association.weat.MIN_TARGET_SIZE` words (the
        error names the set and the model).

    Warns
    -----
    BalancedOutWarning
        When words are deleted to balance the targets.

    Examples
    --------
    >>> from wordbias.datasets.contextual_tests import kurita2019_categories
    >>> from wordbias.models.stand_in import stand_in_model     # a tokenizer that knows only the words given
    >>> cat = kurita2019_categories()[2]                                # Career/Family (Male/Female)
    >>> words = [w.lower() for r in ROLES for w in cat.sets[r] if w not in ("Greg", "Kate", "Donna")]
    >>> model = stand_in_model(words)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")                  # BalancedOutWarning: one male name deleted
    ...     reduced = reduce_to_vocabulary(cat, model)
    >>> reduced["X"].missing, reduced["X"].balanced_out, reduced["Y"].missing
    (('Greg',), ('Jeff',), ('Kate', 'Donna'))
    >>> len(reduced["X"].words), len(reduced["Y"].words), len(reduced["A"].words)
    (6, 6, 8)
    """
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
    """Each word's final-layer vector in each Table 1 template, the other slot masked (§3.1).

    The result maps each word to an array [templates, hidden], templates in the order of
    ``cat.cosine_templates``.

    :func:`wordbias.models.contextual.word_in_template_embeddings` is called with one template at a time (it
    averages over the templates it is given); the mean over templates of these vectors
    (:func:`mean_over_templates`) is :func:`contextual_vectors`' vector (the same sentences, run in other
    batches: equal up to float rounding).

    Parameters
    ----------
    cat : wordbias.datasets.contextual_tests.Category
        The category.
    reduced : mapping of str to wordbias.core.lookup.WordSet
        The reduced lists (:func:`reduce_to_vocabulary`).
    encoder : wordbias.models.contextual.Model
        The encoder.
    batch_size : int, default 32
        Sentences per forward pass; an integer >= 1.
    progress : bool, default False
        Show progress bars.

    Returns
    -------
    dict of str to numpy.ndarray
        Each word's vectors, shape ``(n_templates, hidden)``.

    Raises
    ------
    InvalidParameterError
        If ``batch_size`` is not an integer >= 1.

    Examples
    --------
    The vectors come from a BERT encoder loaded with :func:`wordbias.models.contextual.load_encoder` (torch
    and transformers; a model takes seconds to load, so these lines are not run as tests). Here a tiny BERT
    (:func:`wordbias.models.tiny_mlm.build`, hidden size 32):

    >>> import tempfile
    >>> from wordbias.datasets.contextual_tests import kurita2019_categories
    >>> from wordbias.models import tiny_mlm
    >>> cat = kurita2019_categories()[2]                                # Career/Family (Male/Female)
    >>> folder = tiny_mlm.build(tempfile.mkdtemp())                                       # doctest: +SKIP
    >>> encoder = contextual.load_encoder(str(folder), device="cpu")                      # doctest: +SKIP
    >>> reduced = reduce_to_vocabulary(cat, encoder)                                      # doctest: +SKIP
    >>> by_template = vectors_by_template(cat, reduced, encoder)                          # doctest: +SKIP
    >>> len(by_template), by_template["executive"].shape          # 32 words, 3 templates  # doctest: +SKIP
    (32, (3, 32))
    """
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

    Parameters
    ----------
    cat : wordbias.datasets.contextual_tests.Category
        The category (named in errors).
    reduced : mapping of str to wordbias.core.lookup.WordSet
        The reduced lists (:func:`reduce_to_vocabulary`).
    by_template : mapping of str to array-like
        Each word's vectors per template, ``(n_templates, hidden)``.

    Returns
    -------
    dict of str to numpy.ndarray
        Each word of the reduced lists and its mean vector (float64).

    Raises
    ------
    InvalidParameterError
        If ``by_template`` lacks a word of the reduced lists.

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
    """Each word's final-layer vector averaged over the Table 1 templates, the other slot masked (§3.1).

    All the templates run in one pass of :func:`wordbias.models.contextual.word_in_template_embeddings`.

    Parameters
    ----------
    cat, reduced, encoder
        As :func:`vectors_by_template`.
    batch_size : int, default 64
        Sentences per forward pass.
    progress : bool, default False
        Show progress bars.

    Returns
    -------
    dict of str to numpy.ndarray
        Each word's mean vector, shape ``(hidden,)``.

    Examples
    --------
    With ``cat``, ``encoder`` and ``reduced`` as in :func:`vectors_by_template`'s example (not run as tests):

    >>> vectors = contextual_vectors(cat, reduced, encoder)                               # doctest: +SKIP
    >>> len(vectors), vectors["executive"].shape                                         # doctest: +SKIP
    (32, (32,))
    """
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
    """The bootstrap interval of a WEAT's effect size d and its two-sided p.

    The interval resamples the words of ``result``, each set separately
    (:func:`wordbias.measures.association.bootstrap.weat_bootstrap` on ``vectors``, BCa); the two-sided p is by the same
    p method (:func:`wordbias.measures.association.weat.p_value`, SciPy's doubling rule).

    Parameters
    ----------
    vectors : mapping of str to array-like, or KeyedVectors
        The vectors the WEAT ran on.
    result : wordbias.measures.association.weat.WeatResult
        The WEAT.
    seed : int
        Seeds the bootstrap and any random permutations.
    n_permutations : int
        Random permutations when the p method is not exact.
    n_resamples : int
        Bootstrap resamples.
    confidence_level : float
        The level of the interval.

    Returns
    -------
    interval : wordbias.stats.resampling.BootstrapInterval
        The interval of d.
    p_two_sided : float
        The two-sided p.

    Examples
    --------
    >>> from wordbias.measures.association import weat
    >>> rng = np.random.default_rng(0)
    >>> vectors = {w: rng.normal(size=4) + (2 if w in "abef" else 0) for w in "abcdefgh"}
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")                   # LowPowerWarning: 2 words a set
    ...     result = weat.weat(vectors, ["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"])
    >>> interval, p_two_sided = weat_uncertainty(vectors, result, seed=0, n_permutations=1000, n_resamples=1000,
    ...                                          confidence_level=0.95)
    >>> round(result.effect_size, 3), result.p_value, p_two_sided, interval.method
    (1.73, 0.16666666666666666, 0.3333333333333333, 'BCa')
    """
    ci = bootstrap.weat_bootstrap(vectors, result, resampling=Resampling(
        n_resamples=n_resamples, confidence_level=confidence_level, seed=seed)).effect_size
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
    """§3.2: the log probability bias score's test of a category on a masked language model.

    The mean log-probability bias score of every attribute over the Table 2 templates and target pairs
    (:func:`wordbias.measures.language_models.mlm.log_prob_bias_scores`), then the effect size and the permutation test over
    attributes (:func:`wordbias.measures.language_models.mlm.attribute_test`). ``n_resamples`` and
    ``confidence_level`` go to :func:`wordbias.measures.language_models.mlm.attribute_test`'s bootstrap interval of d where it
    has one (its ``effect_size_ci``).

    Parameters
    ----------
    cat : wordbias.datasets.contextual_tests.Category
        The category: its ``log_prob_attributes`` roles are the attributes, its ``log_prob_templates`` the
        templates and target pairs.
    model : wordbias.models.contextual.Model
        The masked language model.
    seed : int, default 0
        Seeds the permutations and the bootstrap.
    p_method : str, default "auto"
        The p-value method (:data:`wordbias.stats.permutation.P_METHODS`).
    n_permutations : int, default 100_000
        Random permutations when p is not exact.
    prior_mask : {"per_piece", "single"}, default "per_piece"
        How the attribute is masked in the prior sentence (:func:`wordbias.measures.language_models.mlm.increased_log_probability`).
    batch_size : int, default 32
        Sentences per forward pass.
    progress : bool, default False
        Show a progress bar.
    n_resamples : int, default N_RESAMPLES
        Bootstrap resamples of the interval of d; 0 for none.
    confidence_level : float, default 0.95
        The level of the interval.

    Returns
    -------
    wordbias.measures.language_models.mlm.AttributeTest
        The scores, effect size, p-values and interval.

    Examples
    --------
    A masked LM is loaded with :func:`wordbias.models.contextual.load_mlm` (torch and transformers; a model
    takes seconds to load, so these lines are not run as tests). Here a tiny BERT with the category's career
    words planted male and its family words female (:func:`wordbias.models.tiny_mlm.build`):

    >>> import tempfile
    >>> from wordbias.datasets.contextual_tests import kurita2019_categories
    >>> from wordbias.models import tiny_mlm
    >>> cat = kurita2019_categories()[2]                                # Career/Family (Male/Female)
    >>> folder = tiny_mlm.build(tempfile.mkdtemp(), male=cat.sets["A"], female=cat.sets["B"])  # doctest: +SKIP
    >>> test = log_prob_test(cat, contextual.load_mlm(str(folder), device="cpu"))          # doctest: +SKIP
    >>> round(test.effect_size, 2), test.p_method, round(test.p_value, 4)                 # doctest: +SKIP
    (1.2, 'exact', 0.0065)
    """
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
    """One category measured once by one measure on one model.

    The measure is one of :data:`MEASURES`, the model ``model`` (its label; "" when the measure had no
    model). The result holds the lists as reduced (``reduced``), the test (``test``: a
    :class:`~wordbias.measures.association.weat.WeatResult` or a :class:`~wordbias.measures.language_models.mlm.AttributeTest`), the
    bootstrap interval of d (``interval``), the two-sided p, the options it ran with, for WEAT on contextual
    vectors each word's vectors per template (``vectors``, [templates, hidden]), and ``not_run``: why the test
    did not run ("" when it ran; with ``model`` "" the reason is the missing model). The properties read the
    numbers off the test; nothing here computes.

    Attributes
    ----------
    category : wordbias.datasets.contextual_tests.Category
        The category.
    measure : str
        The measure, one of :data:`MEASURES`.
    model : str
        The model's label ("" when the measure had no model).
    seed : int
        The seed it ran with.
    n_permutations : int
        The random permutations it was allowed.
    n_resamples : int
        The bootstrap resamples of the interval.
    confidence_level : float
        The level of the interval.
    reduced : mapping of str to wordbias.core.lookup.WordSet or None, default None
        The lists as reduced (:func:`reduce_to_vocabulary`).
    test : wordbias.measures.association.weat.WeatResult or wordbias.measures.language_models.mlm.AttributeTest or None, default None
        The test; None when it did not run.
    interval : wordbias.stats.resampling.BootstrapInterval or None, default None
        The bootstrap interval of d.
    p_two_sided : float, default nan
        The two-sided p.
    vectors : mapping of str to numpy.ndarray or None, default None
        For WEAT on contextual vectors, each word's vectors per template ([templates, hidden]).
    not_run : str, default ""
        Why the test did not run ("" when it ran).
    split_words : str, default ""
        The note on the words of the sets that the measured model's tokenizer splits into several tokens
        (:func:`wordbias.core.identity.split_words_note`; "" when none is split or the measure has no model).
    """

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
    split_words: str = field(default="", repr=False)

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

    def _sets(self) -> tuple[SetCoverage, ...]:
        """The word sets: for WEAT on contextual vectors the targets and attributes as reduced (§3.1), for the
        log-probability test the attribute words A and B (§3.2)."""
        if self.measure == "mlm_log_prob":
            return tuple(SetCoverage(k, k, tuple(w), tuple(w)) for k, w in (("A", self.test.A), ("B", self.test.B)))
        return tuple(SetCoverage(r, self.category.names.get(r, r), tuple(self.reduced[r].requested),
                                 tuple(getattr(self.test, r).words), tuple(self.reduced[r].missing),
                                 tuple(self.reduced[r].balanced_out)) for r in ROLES)

    def _notes(self) -> tuple[str, ...]:
        cat = self.category
        if self.measure == "contextual_weat":
            notes = (f"templates: {' | '.join(cat.cosine_templates)}", _paper_note(cat, "bert_weat"))
        else:
            notes = (f"{len(cat.log_prob_templates)} templates, {cat.n_template_pairs} (template, target pair)s",
                     _paper_note(cat, "log_prob"), self.undefined)
        return tuple(n for n in (*notes, self.split_words) if n)

    def to_result(self) -> Result:
        """The test as the one :class:`~wordbias.result.Result` every measure returns (this object in ``result``).

        WEAT on contextual vectors (Kurita et al. 2019, §3.1) has the statistic s(X,Y,A,B) and d; the
        log-probability test (§3.2) the difference of the attribute words' mean bias scores and d. Both have the
        bootstrap interval of d and p one- and two-sided; an undefined score has NaN numbers and the reason in
        ``notes``; a test that did not run has its reason in ``not_run``.

        Returns
        -------
        Result
            The result.
        """
        cat, ci = self.category, self.interval
        weat_like = self.measure == "contextual_weat"
        ran = self.ran
        sets = self._sets() if ran else ()
        resampled = "".join(ci.resampled) if weat_like and ci is not None else "the attribute words A, B"
        flagged = tidy.coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}).low if weat_like else ()
        return Result(
            measure=self.measure, title=cat.title, test=cat.key,
            statistic_name=("s(X,Y,A,B)" if weat_like else "mean score(A) - mean score(B)") if ran else None,
            statistic=self.statistic, effect_size_name="d", effect_size=self.effect_size, ci_low=self.ci_low,
            ci_high=self.ci_high, ci_level=self.confidence_level,
            ci_method="none" if ci is None else
            f"{ci.method} {self.confidence_level:.0%}, {self.n_resamples:,} resamples of {resampled}",
            p_value=self.p_value, alternative=self.alternative, p_method=self.p_method,
            p_two_sided=self.p_two_sided if self.defined else _NAN, n_permutations=self.n_permutations,
            n_resamples=self.n_resamples, seed=self.seed, sets=sets, flagged=tuple(flagged),
            notes=self._notes() if ran else (), result=self, interval=ci, not_run=None if ran else self.not_run)


def _paper_note(cat: Category, key: str) -> str:
    """The paper's d for the category, as a note (``""`` when the paper gives none)."""
    d = (cat.paper or {}).get(key)
    return "" if d is None else f"paper: d = {d}"


def _weat_result(cat: Category, reduced, vectors, *, measure: str, model: str, opts: dict, words: Words,
                 by_template=None) -> CategoryResult:
    """WEAT (Caliskan et al. 2017) on ``vectors`` with the reduced lists, its interval and two-sided p."""
    res = weat.weat(vectors, *(reduced[r].words for r in ROLES), names=dict(cat.names), p_method=opts["p_method"],
                    resampling=Resampling(n_permutations=opts["n_permutations"], seed=opts["seed"]),
                    words=words)
    ci, two = weat_uncertainty(vectors, res, seed=opts["seed"], n_permutations=opts["n_permutations"],
                               n_resamples=opts["n_resamples"], confidence_level=opts["confidence_level"])
    return CategoryResult(cat, measure, model, **_kept(opts), reduced=reduced, test=res, interval=ci,
                          p_two_sided=two, vectors=by_template)


def _measure_options(p_method: str, resampling: Resampling | None) -> dict:
    """:func:`measure`'s p method and resampling checked, as the dict its helpers read."""
    resampling = DEFAULT_RESAMPLING if resampling is None else resampling
    if not isinstance(resampling, Resampling):
        raise InvalidParameterError(f"resampling must be a Resampling or None, not {type(resampling).__name__}")
    if resampling.n_resamples < 2:
        raise InvalidParameterError(f"resampling.n_resamples must be >= 2 (every d has its interval), not "
                                    f"{resampling.n_resamples}")
    if resampling.ci_method != "BCa":
        raise InvalidParameterError(f"resampling.ci_method must be 'BCa' (the intervals of the contextual tests), "
                                    f"not {resampling.ci_method!r}")
    return {"seed": resampling.seed, "p_method": check_option("p_method", p_method, P_METHODS),
            "n_permutations": resampling.n_permutations, "n_resamples": resampling.n_resamples,
            "confidence_level": resampling.confidence_level}


def _why_not_run(why_not_run: Mapping[str, str] | None) -> tuple[str, str]:
    """(why no encoder, why no masked LM) of :func:`measure`'s ``why_not_run``, its keys checked."""
    why = {} if why_not_run is None else why_not_run
    if not isinstance(why, Mapping):
        raise InvalidParameterError(f"why_not_run must map measure names to reasons, not {type(why).__name__}")
    unknown = sorted(set(why) - {"contextual_weat", "mlm_log_prob"})
    if unknown:
        raise InvalidParameterError(f"why_not_run names measures that need a model: 'contextual_weat', "
                                    f"'mlm_log_prob'; not {unknown}")
    return str(why.get("contextual_weat", "")), str(why.get("mlm_log_prob", ""))


def _with_split_words(r: CategoryResult, model) -> CategoryResult:
    """The result with the note on the words of its sets that ``model``'s tokenizer splits into several tokens: a
    flag, the numbers as measured (:func:`wordbias.core.identity.split_words_note`)."""
    return replace(r, split_words=split_words_note(model.tokenizer, {s.letter: s.used for s in r._sets()}))


def _kept(opts: dict) -> dict:
    return {k: opts[k] for k in ("seed", "n_permutations", "n_resamples", "confidence_level")}


def _log_prob_result(cat: Category, reduced, masked_lm, *, opts: dict, batch_size: int) -> CategoryResult:
    t = log_prob_test(cat, masked_lm, seed=opts["seed"], p_method=opts["p_method"],
                      n_permutations=opts["n_permutations"], batch_size=batch_size, n_resamples=opts["n_resamples"],
                      confidence_level=opts["confidence_level"])
    return CategoryResult(cat, "mlm_log_prob", masked_lm.label, **_kept(opts), reduced=reduced, test=t,
                          interval=t.effect_size_ci, p_two_sided=_NAN if t.p is None else float(t.p_two_sided))


def _measure_category(cat: Category, *, vocabulary_model, embedding, embedding_name, words, encoder, masked_lm,
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
                                                     opts=opts, words=words)]
    if encoder is None:
        out.append(CategoryResult(cat, "contextual_weat", "", **kept, reduced=reduced, not_run=why_no_encoder))
    else:
        by_template = vectors_by_template(cat, reduced, encoder, batch_size=batch_size)
        out.append(_with_split_words(_weat_result(cat, reduced, mean_over_templates(cat, reduced, by_template),
                                                  measure="contextual_weat", model=encoder.label, opts=opts,
                                                  by_template=by_template, words=_CONTEXTUAL_WORDS), encoder))
    if masked_lm is None:
        out.append(CategoryResult(cat, "mlm_log_prob", "", **kept, reduced=reduced, not_run=why_no_mlm))
    else:
        out.append(_with_split_words(_log_prob_result(cat, reduced, masked_lm, opts=opts, batch_size=batch_size),
                                     masked_lm))
    return out


def measure(cats: Sequence[Category], *, encoder: contextual.Model | None, masked_lm: contextual.Model | None,
            vocabulary_model: contextual.Model | None = None, embedding=None, embedding_name: str = "embedding",
            p_method: str = "auto", resampling: Resampling | None = None, words: Words | None = None,
            batch_size: int = 32, why_not_run: Mapping[str, str] | None = None,
            progress: bool = False) -> list[CategoryResult]:
    """Every test of every category, each measured once.

    Per category, in this order: WEAT on ``embedding`` with the reduced lists (only when an embedding is
    given: Table 3's first column; words it lacks are dropped and the targets rebalanced, seeded), WEAT on
    ``encoder``'s contextual vectors (§3.1) and the log probability bias score's test on ``masked_lm`` (§3.2).

    ``vocabulary_model`` decides the reduced lists (§3.1, its tokenizer; default the encoder, else the masked
    LM). A measure whose model is None gets a result with ``model`` "" and its entry of ``why_not_run`` as
    ``not_run``; a category whose targets fall below two words of the vocabulary gets results that say so. Each
    WEAT has its BCa bootstrap interval of d over the words (``resampling.n_resamples`` resamples at
    ``resampling.confidence_level``, seeded by ``resampling.seed``) and its two-sided p
    (:func:`weat_uncertainty`); the attribute test
    has its own (:func:`wordbias.measures.language_models.mlm.attribute_test`). The contextual WEAT runs on each word's vectors
    per template (:func:`vectors_by_template`, kept in the result for the template spread) averaged over the
    templates. Options are checked before any work.

    Parameters
    ----------
    cats : sequence of wordbias.datasets.contextual_tests.Category
        The categories.
    encoder : wordbias.models.contextual.Model or None
        The encoder of WEAT on contextual vectors; None skips that measure (with ``why_not_run``).
    masked_lm : wordbias.models.contextual.Model or None
        The masked LM of the log probability test; None skips that measure (with ``why_not_run``).
    vocabulary_model : wordbias.models.contextual.Model, optional
        The model whose tokenizer reduces the lists; default the encoder, else the masked LM.
    embedding : KeyedVectors or mapping of str to array-like, optional
        A static embedding for WEAT with the reduced lists (Table 3's first column); None skips it.
    embedding_name : str, default "embedding"
        The embedding's label in the results.
    p_method : str, default "auto"
        The p-value method (:data:`wordbias.stats.permutation.P_METHODS`).
    resampling : Resampling, optional
        ``seed`` seeds the balancing, the permutations and the bootstraps; ``n_permutations`` random
        permutations when p is not exact; ``n_resamples`` (>= 2) bootstrap resamples of each interval at
        ``confidence_level``. The intervals are BCa (another ``ci_method`` is refused). None:
        :data:`DEFAULT_RESAMPLING` (100,000 permutations, :data:`N_RESAMPLES` resamples, 95%, seed 0).
    words : Words, optional
        How the static WEAT on ``embedding`` treats its lists (:func:`wordbias.measures.association.weat.weat`);
        None: :data:`DEFAULT_WORDS` (exact case, missing words dropped, unequal targets balanced at random).
    batch_size : int, default 32
        Sentences per forward pass.
    why_not_run : mapping of str to str, optional
        The ``not_run`` of a measure whose model is None, by measure: ``"contextual_weat"`` (no ``encoder``) and
        ``"mlm_log_prob"`` (no ``masked_lm``); a measure not named gets "".
    progress : bool, default False
        Show a progress bar over the categories.

    Returns
    -------
    list of CategoryResult
        Per category, in order: the static WEAT (with an embedding), the contextual WEAT and the log
        probability test.

    Raises
    ------
    InvalidParameterError
        If an option is out of range, or no model is given to reduce the lists.

    Examples
    --------
    Without models, the lists are reduced to a vocabulary (here a stand-in tokenizer's) and only the static
    WEAT runs; the two contextual measures say why they did not:

    >>> from wordbias.datasets.contextual_tests import kurita2019_categories
    >>> from wordbias.models.stand_in import stand_in_model     # a tokenizer that knows only the words given
    >>> cat = kurita2019_categories()[2]                                # Career/Family (Male/Female)
    >>> words = [w.lower() for r in ROLES for w in cat.sets[r] if w not in ("Greg", "Kate", "Donna")]
    >>> model = stand_in_model(words)
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> all_words = [w for r in ROLES for w in cat.sets[r]]
    >>> kv = to_keyed_vectors(all_words, np.random.default_rng(0).normal(size=(32, 5)).astype(np.float32))
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")                  # BalancedOutWarning: one male name deleted
    ...     results = measure([cat], encoder=None, masked_lm=None, vocabulary_model=model, embedding=kv,
    ...                       embedding_name="toy", resampling=DEFAULT_RESAMPLING.replace(n_resamples=1000),
    ...                       why_not_run={"mlm_log_prob": "no masked LM given"})
    >>> [(r.measure, r.model, r.ran, r.not_run) for r in results]
    [('weat', 'toy', True, ''), ('contextual_weat', '', False, ''), ('mlm_log_prob', '', False, 'no masked LM given')]
    >>> round(results[0].effect_size, 3), round(results[0].p_value, 3), results[0].p_method
    (-0.052, 0.529, 'exact')
    """
    opts = _measure_options(p_method, resampling)
    words = DEFAULT_WORDS if words is None else words
    if not isinstance(words, Words):
        raise InvalidParameterError(f"words must be a Words or None, not {type(words).__name__}")
    why_no_encoder, why_no_mlm = _why_not_run(why_not_run)
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
                                     embedding_name=embedding_name, words=words, encoder=encoder,
                                     masked_lm=masked_lm, why_no_encoder=why_no_encoder, why_no_mlm=why_no_mlm,
                                     batch_size=batch_size, opts=opts)
            bar.update(1)
    return out


def contextual_weat(category: Category, encoder: contextual.Model, *, vocabulary_model=None,
                    p_method: str = "auto", resampling: Resampling | None = None, batch_size: int = 32) -> Result:
    """WEAT on contextual vectors (Kurita et al. 2019, §3.1, https://doi.org/10.18653/v1/W19-3823) of one
    category, measured once: :func:`measure`'s contextual WEAT as the one :class:`~wordbias.result.Result`.

    Parameters
    ----------
    category : wordbias.datasets.contextual_tests.Category
        The category (its word sets and templates).
    encoder : wordbias.models.contextual.Model
        The encoder.
    vocabulary_model : wordbias.models.contextual.Model, optional
        The model whose tokenizer reduces the lists; default ``encoder``.
    p_method, resampling, batch_size
        As :func:`measure`.

    Returns
    -------
    wordbias.result.Result
        s(X,Y,A,B) and d with its BCa interval, p one- and two-sided, the reduced lists' coverage; ``result`` is
        the :class:`CategoryResult`.

    Examples
    --------
    On the tiny planted BERT (:func:`wordbias.models.tiny_mlm.build`; loading a model takes seconds, so these lines
    are not run as tests):

    >>> import tempfile
    >>> from wordbias.datasets.contextual_tests import kurita2019_categories
    >>> from wordbias.models import tiny_mlm
    >>> folder = tiny_mlm.build(tempfile.mkdtemp())                                       # doctest: +SKIP
    >>> encoder = contextual.load_encoder(str(folder), device="cpu")                      # doctest: +SKIP
    >>> r = contextual_weat(kurita2019_categories()[2], encoder)                          # doctest: +SKIP
    >>> r.measure, r.effect_size_name                                                     # doctest: +SKIP
    ('contextual_weat', 'd')
    """
    return _one_measure("contextual_weat", category, encoder, vocabulary_model=vocabulary_model,
                        p_method=p_method, resampling=resampling, batch_size=batch_size)


def mlm_log_prob(category: Category, masked_lm: contextual.Model, *, vocabulary_model=None,
                 p_method: str = "auto", resampling: Resampling | None = None, batch_size: int = 32) -> Result:
    """The log probability bias score's test (Kurita et al. 2019, §3.2, https://doi.org/10.18653/v1/W19-3823) of
    one category, measured once: :func:`measure`'s log-probability test as the one
    :class:`~wordbias.result.Result`.

    Parameters
    ----------
    masked_lm : wordbias.models.contextual.Model
        The masked language model (also the default ``vocabulary_model``).
    category, vocabulary_model, p_method, resampling, batch_size
        As :func:`contextual_weat`.

    Returns
    -------
    wordbias.result.Result
        The difference of the attribute words' mean scores and d with its interval, p one- and two-sided;
        ``result`` is the :class:`CategoryResult`.

    Examples
    --------
    With ``folder`` as in :func:`contextual_weat`'s example (not run as tests):

    >>> masked_lm = contextual.load_mlm(str(folder), device="cpu")                        # doctest: +SKIP
    >>> r = mlm_log_prob(kurita2019_categories()[2], masked_lm)                           # doctest: +SKIP
    >>> r.measure, r.statistic_name                                                       # doctest: +SKIP
    ('mlm_log_prob', 'mean score(A) - mean score(B)')
    """
    return _one_measure("mlm_log_prob", category, masked_lm, vocabulary_model=vocabulary_model, p_method=p_method,
                        resampling=resampling, batch_size=batch_size)


def _one_measure(name: str, category, model, *, vocabulary_model, p_method, resampling, batch_size) -> Result:
    """One category's ``name`` measure by :func:`measure`, as a Result."""
    if not isinstance(category, Category):
        raise InvalidParameterError(f"category must be a Category (wordbias.datasets.contextual_tests), not "
                                    f"{type(category).__name__}")
    if model is None:
        raise InvalidParameterError(f"{name} needs a model, not None")
    models = {"encoder": model, "masked_lm": None} if name == "contextual_weat" else {"encoder": None,
                                                                                       "masked_lm": model}
    results = measure([category], **models, vocabulary_model=vocabulary_model or model, p_method=p_method,
                      resampling=resampling, batch_size=batch_size)
    (one,) = [r for r in results if r.measure == name]
    return one.to_result()
