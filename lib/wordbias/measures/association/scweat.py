"""SC-WEAT, the single-category WEAT: the association of ONE word with two attribute sets, and its test.

Caliskan, A., Ajay, P. P., Charlesworth, T., Wolfe, R. & Banaji, M. R. (2022). "Gender Bias in Word
Embeddings: A Comprehensive Analysis of Frequency, Syntax, and Semantics". In *Proceedings of the 2022
AAAI/ACM Conference on AI, Ethics, and Society (AIES '22)*, https://doi.org/10.1145/3514094.3534162 (the
SC-WEAT of its methods); earlier Toney-Wails & Caliskan (2021), "ValNorm Quantifies Semantics to Reveal
Consistent Valence Biases Across Languages and Over Centuries", EMNLP 2021, arXiv:2006.03950, who use it to
score each word's valence. For a word w and
attribute sets A and B:

    ES(w, A, B) = [mean_{a∈A} cos(w, a) − mean_{b∈B} cos(w, b)] / std-dev_{x∈A∪B} cos(w, x)

and its one-sided p-value is that of a permutation test over the attribute words: the fraction of the
re-partitions {A_i, B_i} of A ∪ B into sets of the sizes of A and B for which mean cos(w, A_i) − mean
cos(w, B_i) is at least the observed difference (Caliskan et al. 2022, following the WEAT test of
Caliskan et al. 2017 with the roles of targets and attributes exchanged). That difference is
``S_i (1/|A| + 1/|B|) − Σ_{A∪B} cos(w, x)/|B|`` with S_i the sum of cos(w, ·) over A_i, increasing in S_i, so the
test is the subset-sum tail of :mod:`wordbias.stats.permutation` (the same engine as WEAT's,
:func:`wordbias.measures.association.weat.p_value`: exact for ``|A ∪ B| ≤ 50``, else Monte Carlo).

For a CATEGORY of words (several w), :func:`sc_weat` also reports a one-sample sign-flip test of the per-word
differences s(w, A, B) (:func:`wordbias.measures.directions.ripa.sign_flip_test`): under H0 the category is no closer to A
than to B, each word's difference is symmetric about 0. This is the single-category test of the R packages
sweater (Chan 2022, JOSS, https://doi.org/10.21105/joss.04036) and PsychWordVec (Bao 2022), which flip the
signs of the per-word differences.

The standard deviation is the sample one (``ddof=1``), as this package's WEAT (which reproduces Caliskan et al.
2017's Table 1); ``ddof=0`` gives the population one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError
from wordbias.core.identity import apply_policy, identity_notes, with_identity
from wordbias.core.validation import (
    as_float_array,
    check_disjoint,
    check_int,
    check_option,
    check_real,
    check_spread,
    float_eps,
)
from wordbias.core.vectors import cosine_matrix
from wordbias.measures.association.weat import case_folded, check_ddof, options_or_default, vector_eps
from wordbias.measures.directions.ripa import ALTERNATIVES, SignFlipTest, sign_flip_test
from wordbias.options import Resampling, Words
from wordbias.stats import permutation as _stats

__all__ = ["ScWeatResult", "sc_weat_effect_size", "sc_weat_difference", "sc_weat_p_value", "sc_weat",
           "DEFAULT_RESAMPLING", "DEFAULT_WORDS"]

#: the resampling of :func:`sc_weat` when none is given: 100,000 Monte Carlo re-partitions, 10,000 sign flips of
#: the category's test, seed 0
DEFAULT_RESAMPLING = Resampling(n_permutations=100_000)
#: the word policy of :func:`sc_weat` when none is given: unknown words dropped, no case folding
DEFAULT_WORDS = Words(case_fold=False)


def _cosines(name: str, values) -> np.ndarray:
    """A word's cosines with one attribute set as a flat float64 array (a tensor or Series converted, a
    DataFrame, dict or ragged list refused: :func:`wordbias.core.validation.as_float_array`)."""
    return as_float_array(name, values, what="the cosines of the word with the attribute words").ravel()


def sc_weat_difference(cos_a, cos_b) -> float:
    """mean_{a∈A} cos(w, a) − mean_{b∈B} cos(w, b), the numerator of SC-WEAT (Caliskan et al. 2022).

    Parameters
    ----------
    cos_a, cos_b : array_like of float
        The cosines of the word with each attribute word of A and of B.

    Returns
    -------
    float
        The difference of the mean cosines.

    Raises
    ------
    InvalidParameterError
        When the cosines are not an array of numbers.

    Examples
    --------
    >>> sc_weat_difference([0.9, 0.7], [0.1, 0.3, 0.2])
    0.6
    """
    return float(np.mean(_cosines("cos_a", cos_a)) - np.mean(_cosines("cos_b", cos_b)))


def sc_weat_effect_size(cos_a, cos_b, ddof: int = 1, *, input_eps: float | None = None) -> float:
    """ES(w, A, B) = [mean cos(w, A) − mean cos(w, B)] / std-dev_{x∈A∪B} cos(w, x) (Caliskan et al. 2022).

    Parameters
    ----------
    cos_a, cos_b : array_like of float
        The cosines of the word with each attribute word of A and of B (at least one each).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation: 1 (sample) or 0 (population).
    input_eps : float, optional
        The precision of the word vectors the cosines come from (:func:`wordbias.measures.association.weat.vector_eps`;
        float32: 1.19e-7): each cosine may be off by about 2·``input_eps``, so cosines within
        :func:`wordbias.core.validation.spread_tolerance` of each other (scale 1) are equal up to rounding.
        Default: the cosines' own precision (a float32 array: float32's; otherwise float64's).

    Returns
    -------
    float
        The effect size ES(w, A, B).

    Raises
    ------
    DegenerateSetError
        When an attribute set has no cosine, or the word has the same cosine (up to rounding) with every
        attribute word.
    InvalidParameterError
        When ``ddof`` is not 0 or 1, or the cosines are not an array of numbers.

    Examples
    --------
    Cosines (1, 0) with A and (0, 0) with B: difference 0.5, sample sd of {1, 0, 0, 0} = 0.5:

    >>> sc_weat_effect_size([1.0, 0.0], [0.0, 0.0])
    1.0
    >>> round(sc_weat_effect_size([1.0, 0.0], [0.0, 0.0], ddof=0), 6)      # population sd sqrt(3)/4
    1.154701
    """
    ddof = check_ddof(ddof)
    input_eps = float_eps(cos_a, cos_b) if input_eps is None else check_real("input_eps", input_eps, low=0)
    cos_a, cos_b = _cosines("cos_a", cos_a), _cosines("cos_b", cos_b)
    if cos_a.size < 1 or cos_b.size < 1:
        raise DegenerateSetError("SC-WEAT needs at least one word in each attribute set")
    pooled = np.concatenate([cos_a, cos_b])
    sd = pooled.std(ddof=ddof)
    check_spread(pooled, sd, "the word has the same cosine with every attribute word: the SC-WEAT effect "
                             "size is undefined", input_eps=input_eps, scale=1.0)   # equal, or equal up to rounding
    return float((cos_a.mean() - cos_b.mean()) / sd)


#: ``p_method="auto"`` counts SC-WEAT's partitions exactly up to this |A ∪ B| (beyond: the tail-pruned exact
#: count when the word is far in a tail, else Monte Carlo). Lower than WEAT's 50: SC-WEAT runs one test per
#: word, and the full count at N = 50 takes seconds per word (95 s for the 25 flowers of WEAT 1, two-sided)
SC_WEAT_EXACT_MAX_N = 30


def sc_weat_p_value(cos_a, cos_b, *, alternative: str = "greater", p_method: str = "auto",
                    n_permutations: int = 100_000, seed=0,
                    exact_max_n: int = SC_WEAT_EXACT_MAX_N) -> _stats.TailProbability:
    """The permutation p-value of SC-WEAT over the re-partitions of A ∪ B (Caliskan et al. 2022).

    ``"greater"`` (the paper's one-sided test): Pr_i[mean cos(w, A_i) − mean cos(w, B_i) ≥ observed];
    ``"less"``: ≤ observed; ``"two-sided"``: the probability of a difference at least as far from its
    permutation mean (0) as the observed one, in either direction (the sum of the two tails beyond ``±|observed deviation|``,
    capped at 1). The observed partition counts, so p > 0. ``p_method`` as
    :func:`wordbias.stats.permutation.subset_sum_tail`, except that ``"auto"`` counts exactly only up to
    ``|A ∪ B|`` = ``exact_max_n`` (default 30; the ``TailProbability`` it returns; for two-sided, its
    ``n_extreme`` is the sum of the two tails' counts, ``se`` the larger of their standard errors).

    Parameters
    ----------
    cos_a, cos_b : array_like of float
        The cosines of the word with each attribute word of A and of B.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of the test.
    p_method : {"auto", "exact", "monte-carlo", "mc", "normal"}, default "auto"
        How the p-value is computed (:func:`wordbias.stats.permutation.subset_sum_tail`).
    n_permutations : int, default 100000
        The number of random re-partitions drawn by Monte Carlo.
    seed : int or numpy.random.Generator, default 0
        Seed or generator of the Monte Carlo draws.
    exact_max_n : int, default 30
        ``"auto"`` counts exactly up to this ``|A ∪ B|`` (>= 2; :data:`SC_WEAT_EXACT_MAX_N`).

    Returns
    -------
    wordbias.stats.permutation.TailProbability
        The p-value and how it was obtained.

    Raises
    ------
    InvalidParameterError
        When an option or number is out of range, or the cosines are not an array of numbers.
    TooCostlyError
        When a Monte Carlo request is estimated to take too long.

    Examples
    --------
    A word with cosines (1, 0.5) with A and (0, −0.5) with B: of the C(4, 2) = 6 re-partitions only the
    observed one reaches its difference, and only its mirror image the opposite one:

    >>> sc_weat_p_value([1.0, 0.5], [0.0, -0.5]).p_value
    0.16666666666666666
    >>> sc_weat_p_value([1.0, 0.5], [0.0, -0.5], alternative="two-sided").p_value
    0.3333333333333333
    """
    check_option("alternative", alternative, ALTERNATIVES)
    cos_a = _cosines("cos_a", cos_a)
    pooled = np.concatenate([cos_a, _cosines("cos_b", cos_b)])
    k, observed = cos_a.size, float(cos_a.sum())
    opts = dict(p_method=p_method, n_permutations=n_permutations, seed=seed,
                exact_max_n=check_int("exact_max_n", exact_max_n, min=2))
    if alternative == "greater":
        return _stats.subset_sum_tail(pooled, k, observed, **opts)
    if alternative == "less":
        return dataclasses.replace(_stats.subset_sum_tail(-pooled, k, -observed, **opts), alternative="less")
    centre = k * float(pooled.mean())
    dev = abs(observed - centre)
    upper = _stats.subset_sum_tail(pooled, k, centre + dev, **opts)
    lower = _stats.subset_sum_tail(-pooled, k, -(centre - dev), **opts)
    if upper.p_method != lower.p_method:       # "auto" chose differently for the two tails: redo both by MC
        opts["p_method"] = "monte-carlo"
        upper = _stats.subset_sum_tail(pooled, k, centre + dev, **opts)
        lower = _stats.subset_sum_tail(-pooled, k, -(centre - dev), **opts)
    if upper.p_method == "monte-carlo":
        n_ext = upper.n_extreme + lower.n_extreme
        p = min(1.0, (n_ext + 1) / (upper.n_permutations + 1))
    else:
        n_ext = None if upper.n_extreme is None else upper.n_extreme + lower.n_extreme
        p = min(1.0, upper.p_value + lower.p_value)
    se = None if upper.se is None else max(upper.se, lower.se)
    return _stats.TailProbability(p_value=p, p_method=upper.p_method, n_partitions=upper.n_partitions,
                                  n_permutations=upper.n_permutations, n_extreme=n_ext, se=se,
                                  alternative="two-sided")


@dataclass(frozen=True)
class ScWeatResult:
    """SC-WEAT of each word of a list, and the sign-flip test of the category (the words together).

    Attributes
    ----------
    words : tuple of str
        The words tested (found in the embedding), in order.
    A, B : tuple of str
        The attribute words used.
    difference : numpy.ndarray of float
        mean cos(w, A) − mean cos(w, B) of each word (:func:`sc_weat_difference`).
    effect_size : numpy.ndarray of float
        ES(w, A, B) of each word (:func:`sc_weat_effect_size`).
    p : tuple of wordbias.stats.permutation.TailProbability
        The p-value of each word (:func:`sc_weat_p_value`).
    alternative : str
        The tail of the tests: "greater", "less" or "two-sided".
    category : wordbias.measures.directions.ripa.SignFlipTest or None
        The sign-flip test of the mean per-word difference; ``None`` with a single word.
    missing : dict of str to tuple of str
        The unknown words dropped, under the keys "words", "A" and "B" (only those that lost words).
    cosines : tuple of numpy.ndarray
        (cos(w, a) for a in A, cos(w, b) for b in B): one row per word.
    """

    words: tuple[str, ...]
    A: tuple[str, ...]
    B: tuple[str, ...]
    difference: np.ndarray = field(repr=False)
    effect_size: np.ndarray = field(repr=False)
    p: tuple[_stats.TailProbability, ...] = field(repr=False)
    alternative: str
    category: SignFlipTest | None
    missing: dict = field(default_factory=dict)
    cosines: tuple = field(default=(), repr=False, compare=False)

    @property
    def p_values(self) -> np.ndarray:
        """The p-value of each word, as an array."""
        return np.array([p.p_value for p in self.p])

    def to_frame(self):
        """One row per word.

        Returns
        -------
        pandas.DataFrame
            The columns ``word``, ``difference``, ``effect_size``, ``p_value``, ``p_method`` and
            ``alternative``.
        """
        import pandas as pd

        return pd.DataFrame({"word": list(self.words), "difference": self.difference,
                             "effect_size": self.effect_size, "p_value": self.p_values,
                             "p_method": [p.p_method for p in self.p], "alternative": self.alternative})


def sc_weat(embedding, targets: Sequence[str], A: Sequence[str], B: Sequence[str], *,
            alternative: str = "greater", p_method: str = "auto", resampling: Resampling | None = None,
            words: Words | None = None, ddof: int = 1, exact_max_n: int = SC_WEAT_EXACT_MAX_N,
            warn: bool = True):
    """SC-WEAT of the category ``targets`` against attribute sets ``A`` and ``B`` (Caliskan et al. 2022), measured
    once: the mean effect size over the words with a bootstrap interval, the test of the words together, and
    each word's own numbers.

    For each word: the difference of mean cosines, the effect size (:func:`sc_weat_effect_size`) and the
    permutation p-value over the re-partitions of A ∪ B (:func:`sc_weat_p_value`, ``alternative`` as SciPy;
    the paper's is ``"greater"``; ``p_method``, ``resampling.n_permutations`` and ``exact_max_n`` as there). The
    category's effect size is the mean of the words' effect sizes, with a bootstrap interval over the words
    (:func:`wordbias.measures.directions.ripa.mean_interval`; none under 3 words). Its test, with two words or
    more, is the sign-flip test of the mean per-word difference
    (:func:`wordbias.measures.directions.ripa.sign_flip_test`, same ``alternative``, exact up to 20 words, else
    ``resampling.n_resamples`` seeded draws); with one word it is that word's permutation test. Words are looked
    up by :func:`wordbias.core.lookup.word_set` and :func:`~wordbias.core.lookup.set_vectors` (unknown words
    dropped with a warning, or ``words.on_missing="raise"``), and a set that keeps too few of its words is
    flagged (``words.min_words``, ``words.min_fraction``).

    Parameters
    ----------
    embedding : KeyedVectors or mapping of str to array_like
        A gensim ``KeyedVectors`` or any word → vector mapping.
    targets : sequence of str
        The words to test (the category, set ``"W"``).
    A, B : sequence of str
        The attribute word sets.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of the per-word tests and of the category's test; the two-sided p is always given too.
    p_method : {"auto", "exact", "monte-carlo", "mc", "normal"}, default "auto"
        How each word's p-value is computed (:func:`sc_weat_p_value`).
    resampling : Resampling, optional
        See :class:`~wordbias.options.Resampling`: ``n_permutations`` (the re-partitions drawn by Monte Carlo),
        ``n_resamples`` (the bootstrap resamples of the interval and the random sign flips beyond 20 words),
        ``confidence_level``, ``ci_method`` and ``seed``. None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        See :class:`~wordbias.options.Words` (``balance_targets`` is not used: one category has no target set to
        balance). None: :data:`DEFAULT_WORDS` (drop, no case folding).
    ddof : {1, 0}, default 1
        Delta degrees of freedom of the standard deviation of the effect size.
    exact_max_n : int, default 30
        ``"auto"`` counts exactly up to this number of attribute words (A and B together).
    warn : bool, default True
        Give the warnings (missing words, low coverage); False keeps them in the result only.

    Returns
    -------
    wordbias.result.Result
        The mean per-word difference (``statistic``), the mean effect size with its interval, p one- and
        two-sided, the coverage of W, A and B; ``result`` is the :class:`ScWeatResult` (each word's difference,
        effect size and p-value, and the category's test).

    Raises
    ------
    InvalidParameterError
        When an option or number is out of range, a word list is not valid, or a word is both tested and
        an attribute.
    KeyError
        When ``words.on_missing`` is ``"raise"`` and a word is not in ``embedding``.
    DegenerateSetError
        When a set is left empty, a vector is zero, or a word has the same cosine with every attribute word.
    TooCostlyError
        When a Monte Carlo p-value is estimated to take too long.

    See Also
    --------
    wordbias.measures.association.weat.weat : the two-category test.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["w", "a1", "a2", "b1", "b2"],
    ...                       np.array([[1, 0], [1, 0], [1, 1], [0, 1], [-1, 1]], dtype=np.float32))
    >>> r = sc_weat(kv, ["w"], ["a1", "a2"], ["b1", "b2"], warn=False)   # cosines (1, .7071) with A, (0, -.7071) B
    >>> round(r.statistic, 4), round(r.effect_size, 4), round(r.p_value, 4), r.coverage
    (1.2071, 1.5805, 0.1667, 'W 1/1; A 2/2; B 2/2')
    >>> r.result.category is None                             # one word: its own test, no category test
    True

    With two words or more, the test is of the words together; each word's numbers are in ``result``:

    >>> kv2 = to_keyed_vectors(["w1", "w2", "a1", "a2", "b1", "b2"],
    ...                        np.array([[1, 0], [1, .5], [1, 0], [1, 1], [0, 1], [-1, 1]], dtype=np.float32))
    >>> r2 = sc_weat(kv2, ["w1", "w2"], ["a1", "a2"], ["b1", "b2"], warn=False)
    >>> r2.result.to_frame()[["word", "p_value"]].round(4).values.tolist()
    [['w1', 0.1667], ['w2', 0.1667]]
    >>> r2.p_method, r2.p_value
    ('exact', 0.25)
    """
    import warnings

    from wordbias.core.validation import check_bool
    from wordbias.result import SetCoverage

    check_option("alternative", alternative, ALTERNATIVES)
    check_option("p_method", p_method, _stats.P_METHODS)
    resampling, words = options_or_default(resampling, words, DEFAULT_RESAMPLING, DEFAULT_WORDS)
    check_int("n_resamples", resampling.n_resamples, min=1)
    check_ddof(ddof)
    warn, fold = check_bool("warn", warn), case_folded(embedding, words.case_fold)
    identity, kept = apply_policy(embedding, {"W": targets, "A": A, "B": B}, words.shared_vectors, case_fold=fold)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = _per_word(embedding, *kept.values(), alternative=alternative, p_method=p_method, resampling=resampling,
                      on_missing=words.on_missing, fold=fold, ddof=ddof, exact_max_n=exact_max_n)
    sets = with_identity([SetCoverage(letter, letter, lookup.check_word_list(f"set {letter!r}", asked, fold), used,
                                      r.missing.get(key, ()))
                          for letter, key, asked, used in (("W", "words", targets, r.words), ("A", "A", A, r.A),
                                                           ("B", "B", B, r.B))], identity, words.shared_vectors)
    return _category_result(r, sets, p_method=p_method, resampling=resampling, words=words,
                            exact_max_n=exact_max_n, caught=caught, warn=warn, notes=identity_notes(identity))


def _per_word(embedding, targets, A, B, *, alternative, p_method, resampling, on_missing, fold, ddof, exact_max_n):
    """The :class:`ScWeatResult` of :func:`sc_weat`: each word's difference, effect size and p, and the sign-flip
    test of the category."""
    n_permutations, seed = resampling.n_permutations, resampling.seed
    ws = lookup.word_set(embedding, targets, name="words", on_missing=on_missing, case_fold=fold)
    attrs = lookup.set_vectors(embedding, A, B, name="attributes", on_missing=on_missing, case_fold=fold)
    (a_words, b_words), (miss_a, miss_b) = attrs.words, attrs.missing
    check_disjoint("words", ws.words, "attributes", a_words + b_words)
    W = lookup.set_matrix(embedding, ws.words, "words")
    ca, cb = cosine_matrix(W, attrs.A), cosine_matrix(W, attrs.B)
    rng = np.random.default_rng(seed) if not isinstance(seed, np.random.Generator) else seed
    diff = ca.mean(axis=1) - cb.mean(axis=1)
    eps = vector_eps(embedding, ws.words + a_words + b_words)      # cosines 1e-8 apart from float32 vectors: noise
    es = np.array([sc_weat_effect_size(ca[i], cb[i], ddof=ddof, input_eps=eps) for i in range(len(ws.words))])
    ps = tuple(sc_weat_p_value(ca[i], cb[i], alternative=alternative, p_method=p_method,
                               n_permutations=n_permutations, seed=rng, exact_max_n=exact_max_n)
               for i in range(len(ws.words)))
    category = (sign_flip_test(diff, alternative=alternative, n_resamples=resampling.n_resamples, seed=rng)
                if diff.size >= 2 else None)
    missing = {k: v for k, v in (("words", ws.missing), ("A", miss_a), ("B", miss_b)) if v}
    return ScWeatResult(words=ws.words, A=a_words, B=b_words, difference=diff, effect_size=es, p=ps,
                        alternative=alternative, category=category, missing=missing, cosines=(ca, cb))


def _two_sided(r: ScWeatResult, *, p_method, resampling, exact_max_n) -> float:
    """The two-sided p of the category's test (of the one word's test with one word), by the same method."""
    if r.alternative == "two-sided":
        return r.category.p_value if r.category is not None else r.p[0].p_value
    seed = resampling.seed
    if r.category is not None:
        return sign_flip_test(r.difference, alternative="two-sided", n_resamples=resampling.n_resamples,
                              seed=seed).p_value
    ca, cb = r.cosines
    return sc_weat_p_value(ca[0], cb[0], alternative="two-sided", p_method=p_method,
                           n_permutations=resampling.n_permutations, seed=seed, exact_max_n=exact_max_n).p_value


def _category_result(r: ScWeatResult, sets, *, p_method, resampling, words, exact_max_n, caught, warn: bool,
                     notes: Sequence[str] = ()):
    """The :class:`~wordbias.result.Result` of :func:`sc_weat` from its per-word numbers (``notes``: more notes,
    after its own)."""
    import math
    import warnings

    from wordbias.catalogue import spec
    from wordbias.core.errors import LowCoverageWarning
    from wordbias.core.tidy import coverage
    from wordbias.measures.directions.ripa import mean_interval
    from wordbias.result import Caught, Result

    # one word is a whole category for SC-WEAT: W is judged by the share of its list found, A and B by both rules
    flagged = tuple(f for s in sets for f in coverage(
        {s.letter: (s.in_vocabulary, len(s.asked))}, min_words=0 if s.letter == "W" else words.min_words,
        min_fraction=words.min_fraction).low)
    of = "the one word" if len(r.words) == 1 else f"the {len(r.words)} words"
    interval, no_interval = mean_interval(r.effect_size, name="sc_weat", of=of, resampling=resampling)
    test = r.category if r.category is not None else r.p[0]
    one_word = r.category is None
    notes = (no_interval, "test: " + ("the word's permutation test over the re-partitions of A and B" if one_word
                                      else "sign-flip test of the words' differences"),
             "effect size: the mean of the words' SC-WEAT effect sizes", *notes)
    seed = resampling.seed
    m = Result(
        measure="sc_weat", title=f"{r.words[0] if len(r.words) == 1 else of[4:]} on A vs B", statistic_name="mean difference of mean cosines",
        statistic=float(r.difference.mean()), effect_size_name=spec("sc_weat").effect_size_name,
        effect_size=float(r.effect_size.mean()), ci_low=interval.low if interval else math.nan,
        ci_high=interval.high if interval else math.nan, ci_level=resampling.confidence_level, interval=interval,
        ci_method=(f"{interval.method} {interval.confidence_level:.0%}, {interval.n_resamples:,} resamples of {of}"
                   if interval else "none"),
        effect_size_se=interval.standard_error if interval else math.nan, p_value=test.p_value,
        alternative=r.alternative, p_method=test.p_method,
        p_two_sided=_two_sided(r, p_method=p_method, resampling=resampling, exact_max_n=exact_max_n),
        p_values={test.p_method: test.p_value},
        n_permutations=(getattr(test, "n_permutations", None) or getattr(test, "n_resamples", None)
                        if test.p_method == "monte-carlo" else None),
        n_resamples=resampling.n_resamples if interval else 0, seed=seed if isinstance(seed, int) else 0,
        sets=sets, flagged=flagged, warnings=tuple(Caught(w.category, str(w.message)) for w in caught),
        notes=tuple(n for n in notes if n), result=r)
    if warn:
        for w in m.warnings:
            warnings.warn(w.category(w.message), stacklevel=3)
        if flagged:
            warnings.warn(LowCoverageWarning(f"{m.title} ran on too few of its words: {', '.join(flagged)} (words "
                                             "in the vocabulary/asked)"), stacklevel=3)
    return m

