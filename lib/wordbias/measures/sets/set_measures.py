"""What the measures of word sets in WEFE's family share: ECT, RND, RNSB, MAC, SemAxis and indirect bias.

Each of :mod:`~wordbias.measures.sets.ect`, :mod:`~wordbias.measures.sets.rnd`, :mod:`~wordbias.measures.sets.rnsb`,
:mod:`~wordbias.measures.sets.mac`, :mod:`~wordbias.measures.sets.semaxis` and :mod:`~wordbias.measures.directions.indirect_bias`
defines its statistic on arrays of word vectors (one row per word) and measures it once on an embedding's words
into a :class:`~wordbias.result.Result`. The parts they share are here:

* :func:`vector_sets`: the arrays checked on entry (2-D, finite, non-empty, no zero row, one dimension, and no
  vector in two sets that must be disjoint), each error naming the set;
* :func:`look_up`: the word lists looked up (:func:`wordbias.core.lookup.word_set`: a list that is a string or
  repeats a word refused, unknown words dropped with a warning or ``on_missing="raise"``, case folded for an
  uncased vocabulary), the sets required to be disjoint;
* :func:`word_bootstrap`: the multi-sample bootstrap over the words of each set (Efron & Tibshirani 1993, ch. 8;
  as :mod:`wordbias.stats.resampling`), by :func:`scipy.stats.bootstrap` on index arrays;
* :func:`two_set_permutation_test`: the permutation test of two target sets, the WEAT's null (Caliskan et al.
  2017, Methods): the target words are exchangeable between T1 and T2; exact over every split when there are no
  more splits than ``n_permutations``, else Monte Carlo with the add-one rule;
* :func:`measured`: the :class:`~wordbias.result.Result` with the sets' coverage and the
  warnings.

The keywords the measures share mean the same in each (each measure's docstring says what is its own):
``embedding`` is a KeyedVectors, or a name, path or mapping loaded by :func:`wordbias.embeddings.load`;
``names`` maps a set's key (``"T1"``, ``"A"``, ...) to its display name; ``title`` is by default built from the
names; ``test`` is an id kept in the result; ``alternative`` ({"two-sided", "greater", "less"}) is the tail of
``p_value`` (the two-sided p is given too); ``resampling`` is a :class:`~wordbias.options.Resampling` (None: the
measure's ``DEFAULT_RESAMPLING``); ``words`` a :class:`~wordbias.options.Words` (case folding, unknown words
``on_missing``, the low-coverage thresholds; None: ``Words()``); ``warn=False`` keeps the warnings (missing words,
low coverage) in the result only. Each raises :class:`~wordbias.core.errors.InvalidParameterError` if an option is
out of range, a list is a string or repeats a word, or two sets share a word;
:class:`~wordbias.core.errors.DegenerateSetError` if a set is left empty; ``KeyError`` if ``on_missing="raise"``
and a word is unknown.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as _sps

from wordbias.core import lookup
from wordbias.core.errors import DegenerateSetError, LowCoverageWarning
from wordbias.core.identity import IdentityCheck, apply_policy, identity_notes, with_identity
from wordbias.core.tidy import coverage, part_missing_note
from wordbias.core.validation import (
    check_bool,
    check_disjoint,
    check_int,
    check_option,
    check_same_dimension,
    check_seed,
)
from wordbias.measures.directions.direction import vector_set
from wordbias.options import Resampling, Words, options_or_default
from wordbias.stats.permutation import ALTERNATIVES
from wordbias.stats.resampling import BootstrapInterval, bootstrap_interval, index_counts

# the other names here (resampled_means, gather, Call, options, call, bootstrap, permutation_test, measured,
# interval_or_note) are the parts the
# measures share; the public API is:
__all__ = ["PermutationTest", "LookedUp", "vector_sets", "look_up", "word_bootstrap", "two_set_permutation_test"]

#: permutations evaluated at once
BATCH = 4096


def vector_sets(sets: Mapping[str, object], *, disjoint: Sequence[tuple[str, str]] = (),
                least: Mapping[str, int] | None = None) -> dict[str, np.ndarray]:
    """The sets of word vectors, checked: each a 2-D array of finite numbers, non-empty, without a zero row, all
    of one dimension; the pairs in ``disjoint`` share no vector; a set has at least ``least[name]`` rows.

    Parameters
    ----------
    sets : mapping of str to array-like
        Each set's name -> its vectors, one row per word.
    disjoint : sequence of (str, str), default ()
        Pairs of sets that may not share a vector (the same word in both).
    least : mapping of str to int, optional
        The fewest rows a set may have (default 1).

    Returns
    -------
    dict of str to numpy.ndarray
        The sets as float64 arrays, in the order given.

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, or the sets differ in dimension.
    DegenerateSetError
        If a set is empty, has too few rows or holds a zero vector.
    ValueError
        If two sets that must be disjoint share a vector.

    Examples
    --------
    >>> vector_sets({"T1": [[1.0, 0.0]], "T2": [[0.0, 1.0]]})["T2"]
    array([[0., 1.]])
    """
    out = {k: vector_set(v, k) for k, v in sets.items()}
    check_same_dimension(out, "the sets " + ", ".join(out))
    for k, n in (least or {}).items():
        if len(out[k]) < n:
            raise DegenerateSetError(f"set {k} has {len(out[k])} word(s); at least {n} needed")
    for a, b in disjoint:
        X, Y = out[a], out[b]
        same = np.flatnonzero((X[:, None, :] == Y[None, :, :]).all(axis=2).any(axis=1))
        if same.size:
            raise ValueError(f"sets {a} and {b} share vectors (rows {same.tolist()[:10]} of {a}): a word may not be "
                             "in both")
    return out


@dataclass(frozen=True)
class PermutationTest:
    """A permutation test of two target sets (:func:`two_set_permutation_test`).

    Attributes
    ----------
    statistic : float
        The observed statistic.
    p_value : float
        The p-value of ``alternative``.
    p_two_sided : float
        The two-sided p-value, min(1, 2·min of the one-sided ones), over the same splits.
    alternative : {"greater", "less", "two-sided"}
        The tail of ``p_value``.
    p_method : {"exact", "monte-carlo"}
        ``"exact"``: every split of the target words counted; ``"monte-carlo"``: random splits, p = (1 + B)/(1 + R).
    n_permutations : int
        The splits counted (all of them when exact).
    """

    statistic: float
    p_value: float
    p_two_sided: float
    alternative: str
    p_method: str
    n_permutations: int


def _tails(observed: float, null: np.ndarray, exact: bool, alternative: str) -> tuple[float, float]:
    """(p of ``alternative``, p two-sided) from the null statistics; ties within a relative 1e-10 count."""
    tol = 1e-10 * max(float(np.max(np.abs(null), initial=0.0)), abs(observed), 1e-300)
    hi = int(np.count_nonzero(null >= observed - tol))
    lo = int(np.count_nonzero(null <= observed + tol))
    n = null.size
    p_hi, p_lo = ((hi / n, lo / n) if exact else ((hi + 1) / (n + 1), (lo + 1) / (n + 1)))
    two = min(1.0, 2 * min(p_hi, p_lo))
    return {"greater": p_hi, "less": p_lo, "two-sided": two}[alternative], two


def two_set_permutation_test(T1: np.ndarray, T2: np.ndarray, statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
                             *, alternative: str = "two-sided", n_permutations: int = 10_000,
                             seed=0) -> PermutationTest:
    """Permutation test of a statistic of the means of two target sets, the target words exchangeable under H0.

    Under the WEAT's null (Caliskan et al. 2017, Methods) the labels T1/T2 of the pooled target words are
    exchangeable: each split of the ∣T1∣ + ∣T2∣ rows into sets of the sizes observed is as likely. When there
    are at most ``n_permutations`` splits, every one is counted (exact p, the observed split among them);
    otherwise ``n_permutations`` random splits are drawn (seeded) and p = (1 + B)/(1 + R). Two-sided p is
    min(1, 2·min of the one-sided p) (as :func:`scipy.stats.permutation_test`).

    Parameters
    ----------
    T1, T2 : numpy.ndarray of shape (n1, d) and (n2, d)
        The target vectors (checked by the caller).
    statistic : callable
        ``statistic(M1, M2)`` of two arrays of shape (k, d) of mean vectors of T1 and T2 returns the k values.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The tail of ``p_value``.
    n_permutations : int, default 10_000
        The random splits when they cannot all be counted; an integer >= 1.
    seed : int or numpy.random.Generator, default 0
        Seeds the random splits.

    Returns
    -------
    PermutationTest
        The observed statistic, the p-values and how they were counted.

    Examples
    --------
    >>> T1, T2 = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([[0.0, 1.0], [0.0, 2.0]])
    >>> t = two_set_permutation_test(T1, T2, lambda M1, M2: M1[:, 0] - M2[:, 0], alternative="greater")
    >>> t.statistic, t.p_method, t.n_permutations, round(t.p_value, 4)        # 1 of the 6 splits is as large
    (1.5, 'exact', 6, 0.1667)
    """
    check_option("alternative", alternative, ALTERNATIVES)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    n1, n2 = len(T1), len(T2)
    P = np.vstack([T1, T2])
    n = n1 + n2
    observed = float(np.asarray(statistic(T1.mean(axis=0)[None], T2.mean(axis=0)[None]))[0])
    total = math.comb(n, n1)
    exact = total <= n_permutations
    sums = P.sum(axis=0)
    null = np.empty(total if exact else n_permutations)
    if exact:
        combos = itertools.combinations(range(n), n1)
        done = 0
        while done < total:
            block = np.array(list(itertools.islice(combos, BATCH)), dtype=np.int64).reshape(-1, n1)
            S1 = P[block].sum(axis=1)
            null[done:done + len(block)] = statistic(S1 / n1, (sums - S1) / n2)
            done += len(block)
    else:
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        for start in range(0, n_permutations, BATCH):
            k = min(BATCH, n_permutations - start)
            pick = rng.permuted(np.tile(np.arange(n), (k, 1)), axis=1)[:, :n1]
            S1 = P[pick].sum(axis=1)
            null[start:start + k] = statistic(S1 / n1, (sums - S1) / n2)
    p, two = _tails(observed, null, exact, alternative)
    return PermutationTest(observed, p, two, alternative, "exact" if exact else "monte-carlo", null.size)


def gather(D: np.ndarray, idx) -> np.ndarray:
    """``D[..., idx]`` per leading index: the values of each resample's words, with the leading shapes of ``D``
    (shape (..., n)) and of the index arrays ``idx`` (shape (..., k)) broadcast together."""
    idx = np.asarray(idx)
    lead = np.broadcast_shapes(D.shape[:-1], idx.shape[:-1])
    return np.take_along_axis(np.broadcast_to(D, lead + D.shape[-1:]), np.broadcast_to(idx, lead + idx.shape[-1:]),
                              axis=-1)


def resampled_means(X: np.ndarray, idx) -> np.ndarray:
    """The means of the rows of ``X`` picked by the index arrays ``idx`` (shape (..., k)): shape (..., d)."""
    idx = np.asarray(idx)
    return index_counts(idx, len(X)) @ X / idx.shape[-1]


def word_bootstrap(statistic: Callable, sizes: Mapping[str, int], *, estimate: float, name: str,
                   n_resamples: int, confidence_level: float, method: str, seed,
                   batch: int = 2_000) -> BootstrapInterval:
    """The bootstrap interval of a statistic of several word sets, each set of two words or more resampled
    separately with replacement (a set of one word held fixed), by :func:`scipy.stats.bootstrap` on index arrays.

    Parameters
    ----------
    statistic : callable
        ``statistic(**{set: index array of shape (..., k)})`` returns the statistic of each resample (leading
        shapes broadcast); a set not resampled gets ``arange(size)``.
    sizes : mapping of str to int
        Each set's name -> its number of words, in order.
    estimate : float
        The statistic on the sets given.
    name : str
        The statistic's name in the interval.
    n_resamples : int
        The resamples (>= 2).
    confidence_level : float
        The interval's level.
    method : {"BCa", "percentile", "basic"}
        The interval's method.
    seed : int or numpy.random.Generator
        Seeds the resamples.
    batch : int, default 2_000
        The resamples evaluated at once.

    Returns
    -------
    BootstrapInterval
        The interval (``resampled`` names the sets resampled).

    Raises
    ------
    DegenerateSetError
        If no set has two words.

    Examples
    --------
    >>> v = np.array([1.0, 2.0, 4.0, 8.0])
    >>> ci = word_bootstrap(lambda X: v[np.asarray(X)].mean(axis=-1), {"X": 4}, estimate=3.75, name="mean",
    ...                     n_resamples=500, confidence_level=0.9, method="percentile", seed=0)
    >>> ci.resampled, bool(1 <= ci.low < 3.75 < ci.high <= 8)
    (('X',), True)
    """
    full = {k: np.arange(n) for k, n in sizes.items()}
    resampled = tuple(k for k, n in sizes.items() if n >= 2)
    if not resampled:
        raise DegenerateSetError("every set has one word: there is nothing to resample")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)

    def stat(*args, axis=-1):
        got = dict(zip(resampled, args))
        return statistic(**{k: got.get(k, full[k]) for k in sizes})

    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", _sps.DegenerateDataWarning)
        res = _sps.bootstrap(tuple(full[k] for k in resampled), stat, n_resamples=n_resamples, vectorized=True,
                             paired=False, axis=-1, confidence_level=confidence_level, method=method, rng=rng,
                             batch=batch)
    return bootstrap_interval(name, estimate, res, confidence_level, method, n_resamples, resampled)


@dataclass(frozen=True)
class Call:
    """What the caller of a measure of word sets chose (:func:`call`): its resampling and word options, the tail
    of its test, its id and whether it gives its warnings.

    Attributes
    ----------
    resampling : Resampling
        The bootstrap interval's and the permutation test's options.
    words : Words
        How the word lists are treated.
    alternative : str
        The tail of ``p_value``.
    test_id : str
        The id kept in the result.
    warn : bool
        Give the warnings again to the caller.
    """

    resampling: Resampling
    words: Words
    alternative: str = "two-sided"
    test_id: str = ""
    warn: bool = True


def options(resampling, words, default: Resampling) -> tuple[Resampling, Words]:
    """The resampling and word options of a call: each checked to be a :class:`~wordbias.options.Resampling` /
    :class:`~wordbias.options.Words` (or None: ``default`` and ``Words()``).

    Raises
    ------
    InvalidParameterError
        If either is of another type.

    Examples
    --------
    >>> options(None, None, Resampling(n_permutations=5))[0].n_permutations
    5
    """
    return options_or_default(resampling, words, default, Words())


def call(resampling, words, *, default: Resampling, alternative: str = "two-sided", test: str = "",
         warn: bool = True) -> Call:
    """The options of a call of a measure of word sets, checked on entry (:class:`Call`); ``resampling=None`` is
    the measure's ``default``, ``words=None`` is ``Words()``.

    Raises
    ------
    InvalidParameterError
        If ``resampling`` or ``words`` is of another type, ``alternative`` is unknown or ``warn`` is not a bool.
    """
    resampling, words = options(resampling, words, default)
    check_option("alternative", alternative, ALTERNATIVES)
    return Call(resampling, words, alternative, test, check_bool("warn", warn))


def bootstrap(statistic: Callable, sizes: Mapping[str, int], *, estimate: float, name: str,
              resampling: Resampling):
    """(interval, note) of :func:`word_bootstrap` with the call's resampling options (:func:`interval_or_note`)."""
    r = resampling
    return interval_or_note(lambda: word_bootstrap(
        statistic, sizes, estimate=estimate, name=name, n_resamples=r.n_resamples,
        confidence_level=r.confidence_level, method=r.ci_method, seed=r.seed), r.n_resamples)


def permutation_test(T1: np.ndarray, T2: np.ndarray, statistic: Callable, c: Call) -> PermutationTest:
    """:func:`two_set_permutation_test` with the call's tail and resampling options."""
    return two_set_permutation_test(T1, T2, statistic, alternative=c.alternative,
                                    n_permutations=c.resampling.n_permutations, seed=c.resampling.seed)


def _vectors(embedding):
    if hasattr(embedding, "key_to_index"):
        return embedding
    from wordbias import embeddings

    return embeddings.load(embedding, progress=False)


def _case_fold(kv, case_fold) -> bool:
    from wordbias import embeddings

    return (not embeddings.is_cased(kv)) if case_fold is None else check_bool("case_fold", case_fold)


@dataclass(frozen=True)
class LookedUp:
    """Word sets looked up in an embedding (:func:`look_up`).

    Attributes
    ----------
    kv : KeyedVectors
        The embedding.
    sets : dict of str to WordSet
        Each set's letter -> its words kept and missing.
    mats : dict of str to numpy.ndarray
        Each set's letter -> the vectors of its words kept.
    asked : dict of str to tuple of str
        Each set's letter -> the words asked for (case-folded when folding).
    names : dict of str to str
        Each set's letter -> its display name.
    identity : IdentityCheck
        The words whose vector is not their own (:func:`wordbias.core.identity.check_sets`).
    shared_vectors : str
        What was done with them (``Words.shared_vectors``).
    """

    kv: object
    sets: dict
    mats: dict
    asked: dict
    names: dict
    identity: IdentityCheck = field(default_factory=IdentityCheck)
    shared_vectors: str = "keep"


def look_up(embedding, sets: Mapping[str, Sequence[str]], *, names: Mapping[str, str] | None = None,
            case_fold=None, on_missing: str = "drop", disjoint: bool = True,
            shared_vectors: str = "keep") -> LookedUp:
    """Look the word lists up: each checked (a string or a repeated word refused), case-folded for an uncased
    vocabulary (``case_fold=None``), unknown words dropped with a warning (or ``on_missing="raise"``), the words
    whose vector is not their own flagged, left out or refused (``shared_vectors``,
    :func:`wordbias.core.identity.apply_policy`), every set left with at least one word, the sets pairwise
    disjoint (``disjoint``).

    Parameters
    ----------
    embedding : KeyedVectors or str or path-like or mapping
        The embedding (a name, path or mapping is loaded by :func:`wordbias.embeddings.load`).
    sets : mapping of str to sequence of str
        Each set's letter -> its words.
    names : mapping of str to str, optional
        Display names of the sets (default: the letters).
    case_fold : bool or None, default None
        Lower-case the words; None: when the vocabulary is uncased.
    on_missing : {"drop", "raise"}, default "drop"
        What to do with unknown words.
    disjoint : bool, default True
        Refuse a word in two sets.
    shared_vectors : {"keep", "drop", "raise"}, default "keep"
        What a word whose vector is not its own does (``Words.shared_vectors``).

    Returns
    -------
    LookedUp
        The embedding, the sets, their vectors, the words asked and the names.

    Raises
    ------
    InvalidParameterError
        If a list is a string, repeats a word, or two sets share a word.
    DegenerateSetError
        If a set is left empty, or holds a zero vector, or (``shared_vectors="raise"``) a word's vector is not its
        own.
    KeyError
        If ``on_missing="raise"`` and a word is unknown.

    Examples
    --------
    >>> got = look_up({"he": [1.0, 0.0], "she": [0.0, 1.0]}, {"T1": ["he"], "T2": ["she"]}, case_fold=False)
    >>> got.mats["T2"], got.sets["T1"].words
    (array([[0., 1.]]), ('he',))
    """
    kv = _vectors(embedding)
    fold = _case_fold(kv, case_fold)
    lookup.check_on_missing(on_missing)
    names = {k: (names or {}).get(k, k) for k in sets}
    checked = {k: lookup.check_word_list(f"set {names[k]!r}", words, fold) for k, words in sets.items()}
    if disjoint:
        for a, b in itertools.combinations(checked, 2):
            check_disjoint(names[a], checked[a], names[b], checked[b])
    identity, kept = apply_policy(kv, checked, shared_vectors)
    found = {k: lookup.word_set(kv, words, name=names[k], on_missing=on_missing) for k, words in kept.items()}
    mats = {k: lookup.set_matrix(kv, s.words, names[k]) for k, s in found.items()}
    return LookedUp(kv, found, mats, checked, names, identity, shared_vectors)


def measured(measure: str, got: LookedUp, c: Call, *, title: str, statistic_name: str, statistic: float,
             interval: BootstrapInterval | None, test: PermutationTest | None, caught, notes: Sequence[str] = (),
             result=None, judged: Sequence[str] | None = None):
    """The :class:`~wordbias.result.Result` of a measure of word sets: the statistic (also the effect size, named
    as the catalogue names it), its interval, the p of the permutation test (NaN when the measure has none: the
    notes say why), the sets' coverage and flags (over the sets ``judged``, default all), the warnings (given
    again to the caller when ``c.warn``)."""
    from wordbias.catalogue import spec
    from wordbias.result import Caught, Result, SetCoverage

    kept = tuple(Caught(w.category, str(w.message)) for w in caught)
    sets = with_identity([SetCoverage(k, got.names[k], got.asked[k], s.words, s.missing)
                          for k, s in got.sets.items()], got.identity, got.shared_vectors)
    flagged = coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets
                        if judged is None or s.letter in judged}, min_words=c.words.min_words,
                       min_fraction=c.words.min_fraction).low
    ci = (f"{interval.method} {interval.confidence_level:.0%}, {interval.n_resamples:,} resamples of "
          f"{', '.join(interval.resampled)}") if interval is not None else "none"
    seed, r = c.resampling.seed, c.resampling
    m = Result(
        measure=measure, test=c.test_id, title=title, statistic_name=statistic_name, statistic=float(statistic),
        effect_size_name=spec(measure).effect_size_name, effect_size=float(statistic),
        ci_low=interval.low if interval else math.nan, ci_high=interval.high if interval else math.nan,
        ci_level=r.confidence_level, ci_method=ci, interval=interval,
        effect_size_se=interval.standard_error if interval else math.nan,
        p_value=test.p_value if test else math.nan, alternative=c.alternative if test else "two-sided",
        p_method=test.p_method if test else "none", p_two_sided=test.p_two_sided if test else math.nan,
        p_values={test.p_method: test.p_value} if test else {},
        n_permutations=test.n_permutations if test and test.p_method == "monte-carlo" else None,
        n_resamples=r.n_resamples if interval else 0, seed=seed if isinstance(seed, int) else 0, sets=sets,
        flagged=flagged, warnings=kept, notes=tuple(n for n in notes if n) + identity_notes(got.identity),
        result=result)
    if c.warn:
        for w in kept:
            warnings.warn(w.category(w.message), stacklevel=3)
        if flagged:
            warnings.warn(LowCoverageWarning(f"{title} ran on too few of its words: {', '.join(flagged)} (words in "
                                             "the vocabulary/asked)"), stacklevel=3)
    return m


def interval_or_note(run: Callable[[], BootstrapInterval], n_resamples: int):
    """(interval, None) from ``run()``, or (None, note) when it cannot be computed (or ``n_resamples`` is 0)."""
    from wordbias.measures.association.measurement import NO_INTERVAL_ERRORS

    if not n_resamples:
        return None, None
    try:
        return run(), None
    except NO_INTERVAL_ERRORS as exc:
        return None, part_missing_note("bootstrap interval", exc)
