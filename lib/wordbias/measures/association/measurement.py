"""A test measured once, with everything a reader needs: :func:`weat` (``wordbias.weat``), :func:`wefat`
(``wordbias.wefat``), :func:`weats` (a battery of WEATs with adjusted p) and their :class:`Result`.

:func:`wordbias.measures.association.weat.weat` computes the statistic, d and one p-value; a researcher also needs the
interval, the two-sided p, and what happened to each word list. :func:`weat` runs the test once and returns a
:class:`Result` that carries all of it: d (Caliskan et al. 2017, Methods) with its bootstrap interval
(:func:`wordbias.measures.association.bootstrap.weat_bootstrap`), the permutation p one- and two-sided with their method
(and, when asked, by other methods too: ``p_values``), per set the words asked for, used, missing from the
vocabulary and balanced out, the coverage and its flag, and the warnings the test gave. Printing it, showing it
in a notebook (``_repr_html_``), :meth:`Result.to_frame`, the tidy rows of :mod:`wordbias.battery` and the
papers' tables (:mod:`wordbias.papers.caliskan2017`) are views of those values; none recomputes.

Examples
--------
>>> import numpy as np
>>> from wordbias.embeddings import to_keyed_vectors
>>> words = ["rose", "tulip", "lily", "ant", "wasp", "moth", "love", "joy", "hate", "ugly"]
>>> V = np.array([[1, .1], [.9, .3], [.8, .2], [.1, 1], [.2, .8], [.3, .9], [1, 0], [.9, .1], [0, 1], [.1, .9]])
>>> kv = to_keyed_vectors(words, V.astype(np.float32))
>>> r = weat(kv, words[:3], words[3:6], words[6:8], words[8:], resampling=Resampling(n_resamples=1000))
>>> round(r.effect_size, 3), r.p_method, round(r.p_value, 3), round(r.p_two_sided, 3)
(1.807, 'exact', 0.05, 0.1)
>>> print(r)                                              # doctest: +NORMALIZE_WHITESPACE
WEAT: X vs Y, A vs B
  d = 1.807, 95% CI [1.80, 1.81] (BCa 95%, 1,000 resamples of XYAB)
  p = 0.05 one-sided (greater, exact), 0.1 two-sided
  words found/asked: X 3/3, Y 3/3, A 2/2, B 2/2
  note: low coverage: X 3/3 (below 4 words), Y 3/3 (below 4 words), A 2/2 (below 4 words), B 2/2 (below 4 words)
  note: target sets 'X' (3 words) and 'Y' (3 words) are so small that the smallest attainable p is 1/C(6, 3) =
  0.05 >= alpha = 0.05: the test cannot reach significance (p < alpha)

The interval's bounds carry two decimals here because 1,000 resamples pin so narrow an interval that well
(:func:`wordbias.core.tables.interval_digits`; one when they do not).
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Mapping, Sequence

import numpy as np

from wordbias.core.errors import (
    DegenerateSetError,
    InvalidParameterError,
    LowCoverageWarning,
    LowPowerWarning,
    TooCostlyError,
)
from wordbias.core.identity import apply_policy, identity_notes, with_identity
from wordbias.core.tidy import (
    MIN_FRACTION,
    MIN_WORDS,
    coverage,
    coverage_flag,
    not_run_note,
    part_missing_note,
)
from wordbias.core.validation import check_bool, check_option
from wordbias.datasets import stimuli
from wordbias.options import Resampling, Words
from wordbias.result import Caught, Result, SetCoverage
from wordbias.stats import multiple

__all__ = ["MIN_WORDS", "MIN_FRACTION", "NOT_RUN_ERRORS", "DEFAULT_RESAMPLING", "DEFAULT_WORDS", "weat",
           "weats", "wefat", "wefats", "adjusted", "low_coverage", "weat_result"]

#: the errors that make one test of a battery not run (a result with NaN numbers and the reason in
#: ``not_run``) rather than stop the battery: a list left too small (``DegenerateSetError`` is a ``ValueError``),
#: a word with no vector
NOT_RUN_ERRORS = (ValueError, KeyError)
#: the resampling of :func:`weat`, :func:`weats`, :func:`wefat` and :func:`wefats` when none is given: 10,000
#: bootstrap resamples of a 95% BCa interval, 100,000 Monte Carlo permutations where p is not counted exactly,
#: seed 0
DEFAULT_RESAMPLING = Resampling(n_permutations=100_000)
#: their word policy when none is given (:class:`wordbias.options.Words`' defaults): unknown words dropped, case
#: folded for an uncased vocabulary, target sets balanced at random, low coverage below 4 words or half a list
DEFAULT_WORDS = Words()
#: the errors that leave a test without its interval (d and p stand): a set too small to resample, a
#: bootstrap too costly to run
NO_INTERVAL_ERRORS = (DegenerateSetError, TooCostlyError, ValueError)


def low_coverage(kept: int, asked: int, *, min_words: int = MIN_WORDS, min_fraction: float = MIN_FRACTION) -> bool:
    """Say whether a word set kept too few of its list's words to trust.

    The one rule of :func:`wordbias.core.tidy.coverage_flag`: fewer than ``min_words`` words (default
    :data:`~wordbias.core.tidy.MIN_WORDS`), or less than ``min_fraction`` of the list (default
    :data:`~wordbias.core.tidy.MIN_FRACTION`); the reasons for the thresholds are given there.

    Parameters
    ----------
    kept : int
        Words of the list found in the embedding (words balanced out to equalise two target sets count as
        kept).
    asked : int
        Words the list asked for.
    min_words : int, default MIN_WORDS
        The fewest words a set may keep without being flagged (4). A set at the threshold is not flagged.
    min_fraction : float, default MIN_FRACTION
        The smallest share of its list a set may keep without being flagged (a half). A set at the threshold
        is not flagged.

    Returns
    -------
    bool
        True when the set is too depleted to trust.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``kept`` or ``asked`` is not an integer >= 0, ``kept`` exceeds ``asked``, or a threshold is out of
        range.

    See Also
    --------
    wordbias.core.tidy.coverage_flag : The rule itself, with its reasons.

    Examples
    --------
    >>> low_coverage(1, 12), low_coverage(5, 25), low_coverage(4, 8), low_coverage(3, 3)
    (True, True, False, True)
    """
    return coverage_flag(kept, asked, min_words=min_words, min_fraction=min_fraction)


def _ci_text(interval) -> str:
    """How an interval was computed: ``"BCa 95%, 10,000 resamples of XYAB"`` (a WEFAT's: ``"... of W (with the
    property) and A, B"``)."""
    of = "".join(interval.resampled)
    if tuple(interval.resampled) == ("W", "A", "B"):
        of = "W (with the property) and A, B"
    return f"{interval.method} {interval.confidence_level:.0%}, {interval.n_resamples:,} resamples of {of}"


def _interval_fields(interval, confidence_level: float) -> dict:
    """The interval's fields of a :class:`~wordbias.result.Result`: NaN bounds and standard error, and the method
    ``"none"``, when there is no interval (None)."""
    return dict(ci_low=float(interval.low) if interval else math.nan,
                ci_high=float(interval.high) if interval else math.nan,
                ci_level=confidence_level, ci_method=_ci_text(interval) if interval else "none",
                effect_size_se=float(interval.standard_error) if interval else math.nan, interval=interval)


def _low_power(kept) -> tuple[str, ...]:
    """The distinct messages of the :class:`LowPowerWarning` among the warnings ``kept``, as notes."""
    return tuple(dict.fromkeys(w.message for w in kept if issubclass(w.category, LowPowerWarning)))


def _replay(caught: Sequence[Caught]) -> None:
    for w in caught:
        warnings.warn(w.category(w.message), stacklevel=3)


def _unmeasured_sets(kv, sets: Mapping[str, Sequence[str]], case_fold: bool,
                     names: Mapping[str, str]) -> tuple[SetCoverage, ...]:
    """The sets of a test that did not run: per set, the words asked and those the embedding lacks."""
    fold = str.lower if case_fold else (lambda w: w)
    index = kv.key_to_index
    out = []
    for letter, words in sets.items():
        asked = tuple(fold(w) for w in words)
        out.append(SetCoverage(letter, names.get(letter, letter), asked, (),
                               tuple(w for w in asked if w not in index)))
    return tuple(out)


def _judge(sets: Sequence[SetCoverage], *, min_words: int, min_fraction: float):
    return coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}, min_words=min_words,
                    min_fraction=min_fraction)


def _warn_low(title: str, flagged: Sequence[str]) -> Caught:
    from wordbias.core.lookup import warn_user

    text = (f"{title} ran on too few of its words: {', '.join(flagged)} (words in the vocabulary/asked); its "
            "result describes the words that survived rather than the lists it is named after")
    warn_user(LowCoverageWarning(text))
    return Caught(LowCoverageWarning, text)


def _check_choices(**choices) -> None:
    """Check the choices of the measuring calls (``p_method``, ``p_methods``, ``alternative``) before any test
    runs, so that a misspelt option is an error and never a battery of tests "not run"."""
    from wordbias.stats.permutation import ALTERNATIVES, P_METHODS

    for name, value in choices.items():
        if name == "p_methods":
            if isinstance(value, str):
                raise InvalidParameterError(f"p_methods must be a list of methods, such as ('monte-carlo',), "
                                            f"not the string {value!r}")
            for method in value:
                check_option("p_methods", method, P_METHODS)
        else:
            check_option(name, value, {"p_method": P_METHODS, "alternative": ALTERNATIVES}[name])


def _p_methods(p_method) -> tuple[str, tuple[str, ...]]:
    """``p_method`` of :func:`weat` as the method of ``p_value`` and the others of ``p_values``."""
    if isinstance(p_method, str):
        return p_method, ()
    if not isinstance(p_method, Sequence) or not p_method:
        raise InvalidParameterError(f"p_method must be a method or a non-empty list of methods, not {p_method!r}")
    return p_method[0], tuple(p_method[1:])


def _options(resampling, words) -> tuple[Resampling, Words]:
    """The options a measuring call runs with: the caller's, or :data:`DEFAULT_RESAMPLING` and
    :data:`DEFAULT_WORDS`."""
    from wordbias.measures.association.weat import options_or_default

    return options_or_default(resampling, words, DEFAULT_RESAMPLING, DEFAULT_WORDS)


def _load(embedding, progress: bool):
    from wordbias import embeddings as _embeddings

    return _embeddings.load(embedding, progress=progress)


def _refuse_ensemble(embedding, measure: str) -> None:
    """Refuse an ensemble (an :class:`~wordbias.embeddings.ensemble.Ensemble`, or the manifest of ``wordbias train``
    or its folder) where one embedding is measured, naming the one path over the runs
    (:func:`wordbias.measures.ensemble.on_runs`)."""
    from wordbias.embeddings.ensemble import Ensemble, is_ensemble

    if isinstance(embedding, Ensemble) or is_ensemble(embedding):
        raise InvalidParameterError(
            f"{measure} measures one embedding, and {embedding!r} is an ensemble of training runs: measure every run "
            f"and combine them with wordbias.measures.ensemble.on_runs({measure}, ensemble, ...) (as a tidy table: "
            f"wordbias.battery.ensemble.on_runs), or `wordbias weat` on the ensemble's folder")


def _case_fold(kv, case_fold) -> bool:
    from wordbias import embeddings as _embeddings

    return (not _embeddings.is_cased(kv)) if case_fold is None else check_bool("case_fold", case_fold)


# --------------------------------------------------------------------------------------------------
# WEAT (Caliskan et al. 2017, Methods)
# --------------------------------------------------------------------------------------------------

def _measure_weat(kv, X, Y, A, B, *, test: str, title: str | None, names, resampling: Resampling, words: Words,
                  p_method: str, p_methods: Sequence[str], alternative: str, progress: bool,
                  ddof: int = 1, check_identity: bool = True) -> Result:
    """One WEAT on loaded vectors ``kv``, measured once: the test, the two-sided p, the p of each method in
    ``p_methods``, the bootstrap interval, the sets and the coverage. The warnings the test gave are kept in the
    result, not given again (the callers decide). ``words.case_fold`` is resolved (a bool). ``check_identity``:
    the words whose vector is not their own are flagged, and treated as ``words.shared_vectors`` says
    (:func:`wordbias.core.identity.apply_policy`); a SEAT, whose "words" are sentences, passes False."""
    from wordbias.measures.association import bootstrap as _bootstrap
    from wordbias.measures.association import weat as _weat

    n_permutations, seed, n_resamples = resampling.n_permutations, resampling.seed, resampling.n_resamples
    identity, kept_sets = apply_policy(kv, dict(zip("XYAB", (X, Y, A, B))),
                                       words.shared_vectors if check_identity else "keep",
                                       case_fold=bool(words.case_fold), check=check_identity)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = _weat.weat(kv, *kept_sets.values(), names=names, resampling=resampling, words=words, p_method=p_method,
                       alternative=alternative, progress=progress, ddof=ddof)
        two = r.p if alternative == "two-sided" else _weat.p_value(
            r.s_x, r.s_y, p_method=r.p_method, n_permutations=n_permutations, seed=seed, alternative="two-sided")
        p_values = {r.p_method: r.p}
        for method in p_methods:
            if method not in p_values:
                p_values[method] = _weat.p_value(r.s_x, r.s_y, p_method=method, n_permutations=n_permutations,
                                                 seed=seed, alternative=alternative)
    kept = tuple(Caught(w.category, str(w.message)) for w in caught)
    notes, interval = [], None
    if n_resamples:
        try:
            interval = _bootstrap.weat_bootstrap(kv, r, resampling=resampling, ddof=ddof).effect_size
        except NO_INTERVAL_ERRORS as exc:
            notes.append(part_missing_note("bootstrap interval", exc))
    asked = [tuple(w.lower() for w in ws) if words.case_fold else tuple(ws) for ws in (X, Y, A, B)]
    sets = tuple(SetCoverage(letter, s.name, a, tuple(s.words), tuple(s.missing),
                             tuple(getattr(s, "balanced_out", ()) or ()), identity.shared(letter),
                             identity.drop.get(letter, ()) if words.shared_vectors == "drop" else ())
                 for letter, s, a in zip("XYAB", (r.X, r.Y, r.A, r.B), asked))
    flagged = _judge(sets, min_words=words.min_words, min_fraction=words.min_fraction).low
    low_power = _low_power(kept)
    return Result(
        measure="weat", test=test, title=title or f"{r.X.name} vs {r.Y.name}, {r.A.name} vs {r.B.name}",
        statistic_name="s(X,Y,A,B)", statistic=float(r.statistic), effect_size_name="d",
        effect_size=float(r.effect_size),
        **_interval_fields(interval, resampling.confidence_level),
        p_value=float(r.p_value), alternative=r.alternative, p_method=r.p_method, p_two_sided=float(two.p_value),
        p_values=p_values, n_permutations=n_permutations if r.p_method == "monte-carlo" else None,
        n_resamples=n_resamples, seed=seed, sets=sets, flagged=flagged, warnings=kept,
        notes=tuple(notes) + low_power + ((identity.note(),) if identity else ()), result=r)


def _weat_not_run(kv, spec, err: BaseException, *, case_fold: bool, alternative: str, seed: int,
                  min_words: int, min_fraction: float) -> Result:
    """The result of a WEAT that could not run: NaN numbers, the reason, and per set the words the embedding
    lacks."""
    sets = _unmeasured_sets(kv, {r: getattr(spec, r) for r in "XYAB"}, case_fold, spec.names or {})
    return Result(
        measure="weat", test=spec.id, title=spec.title, statistic_name="s(X,Y,A,B)", statistic=math.nan,
        effect_size_name="d", effect_size=math.nan, ci_low=math.nan, ci_high=math.nan, ci_level=math.nan,
        ci_method="none", p_value=math.nan, alternative=alternative, p_method="none", p_two_sided=math.nan,
        n_permutations=None, n_resamples=0, seed=seed, sets=sets,
        flagged=_judge(sets, min_words=min_words, min_fraction=min_fraction).low, not_run=not_run_note(err))


def weat(embedding, X: Sequence[str], Y: Sequence[str], A: Sequence[str], B: Sequence[str], *,
         names: Mapping[str, str] | None = None, title: str | None = None, resampling: Resampling | None = None,
         words: Words | None = None, p_method: str | Sequence[str] = "auto", alternative: str = "greater",
         convention: str = "caliskan") -> Result:
    """Measure a WEAT in one call: d with its bootstrap interval, p one- and two-sided, and every word list's fate.

    The Word Embedding Association Test of Caliskan et al. (2017, Methods). The test is
    :func:`wordbias.measures.association.weat.weat`: unknown words dropped with a warning, target sets balanced at random,
    the permutation p exact where it can be counted, else Monte Carlo with ``resampling.n_permutations`` draws;
    the p of other methods too when ``p_method`` lists them. The interval is
    :func:`wordbias.measures.association.bootstrap.weat_bootstrap` over the words of the four sets. A set that keeps fewer
    than ``words.min_words`` words or less than ``words.min_fraction`` of its list is flagged (:func:`low_coverage`), in the
    result and with a :class:`~wordbias.core.errors.LowCoverageWarning`. The test's warnings are given to the
    caller and kept in the result.

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        Anything :func:`wordbias.embeddings.load` takes: a registered name, a path, a gensim ``KeyedVectors``
        or model, a word -> vector mapping.
    X, Y : sequence of str
        The two target word lists (e.g. flowers and insects).
    A, B : sequence of str
        The two attribute word lists (e.g. pleasant and unpleasant words).
    names : mapping of str to str, optional
        Display names of the sets: some of ``"X"``, ``"Y"``, ``"A"``, ``"B"`` -> a non-empty name, used in the
        title, the messages and the result.
    title : str, optional
        The test's title; by default ``"<X> vs <Y>, <A> vs <B>"`` with the sets' names.
    resampling : Resampling, optional
        The bootstrap interval of d (``n_resamples``, 0: no interval; ``confidence_level``; ``ci_method``), the
        Monte Carlo draws where the permutation p is not counted exactly (``n_permutations``) and the seed of the
        balancing, the Monte Carlo p and the bootstrap (``seed``: the same call gives the same result)
        (:class:`~wordbias.options.Resampling`). None: :data:`DEFAULT_RESAMPLING` (10,000 resamples of a 95%
        BCa interval, 100,000 permutations, seed 0).
    words : Words, optional
        How the word lists are treated (:class:`~wordbias.options.Words`): ``case_fold`` (None: fold when the
        vocabulary is uncased, :func:`wordbias.embeddings.is_cased`), ``on_missing`` (drop a word not in the
        embedding with a :class:`~wordbias.core.errors.MissingWordsWarning`, or raise), ``balance_targets`` (how
        unequal target sets are treated, :func:`wordbias.measures.association.weat.balance`: delete words at
        random from the larger one, keep them unequal, or raise), ``min_words`` and ``min_fraction`` (a set
        keeping fewer words, or less of its list, is flagged for low coverage). None: :data:`DEFAULT_WORDS`.
    p_method : str or sequence of str, default "auto"
        How the permutation p is computed (:data:`wordbias.stats.permutation.P_METHODS`); ``"auto"``: exact
        where the partitions can be counted, else Monte Carlo. A list, e.g. ``("auto", "monte-carlo",
        "normal")``: the first gives ``p_value``, and every p computed is in ``r.p_values``.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The alternative hypothesis of ``p_value`` (``"greater"``: the paper's one-sided test); the two-sided p
        is always given too.
    convention : {"caliskan", "cbn", "wefe"}, default "caliskan"
        Which standard deviation of s(w, A, B) over X ∪ Y divides d
        (:data:`wordbias.measures.association.conventions.WEAT_CALL_CONVENTIONS`): ``"caliskan"`` the sample std (ddof = 1),
        which reproduces Caliskan et al.'s Table 1 (``"cbn"`` is the same); ``"wefe"`` the population std
        (ddof = 0) of WEFE 1.0.1 (Badilla et al. 2020, doi:10.24963/ijcai.2020/60), larger d by
        sqrt(N/(N − 1)). The interval resamples that d; p does not depend on it. For WEFE's number keep every
        target word too (``words=Words(balance_targets="none")``: WEFE does not balance).

    Returns
    -------
    Result
        d (``effect_size``) with its interval (``ci_low``, ``ci_high``), the statistic, ``p_value`` and
        ``p_two_sided`` with their method, the word sets (``sets``, ``coverage``, ``dropped``), the coverage
        flags, the warnings and notes, and the :class:`~wordbias.measures.association.weat.WeatResult` (``result``).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If an option is not one of its allowed values (a ``p_method`` that does not exist, an ``alternative``
        misspelt, ``resampling`` not a Resampling, ...), a word list is a string or
        repeats a word, X and Y (or A and B) share a word, or a target word is also an attribute word.
    wordbias.core.errors.DegenerateSetError
        If a set is left too small after dropping unknown words (targets fewer than 2, attributes none),
        ``words.balance_targets`` is ``"raise"`` and the target sets differ in size, or the target words' associations are
        equal up to the rounding of the vectors (:func:`wordbias.measures.association.weat.effect_size`).
    KeyError
        If ``words.on_missing`` is ``"raise"`` and a word is not in the embedding.
    wordbias.core.errors.TooCostlyError
        If a Monte Carlo p would take too long; it is refused before any work.
    FileNotFoundError
        If ``embedding`` is neither a registered name nor an existing path
        (:class:`~wordbias.core.errors.EmbeddingNotFoundError` when a registered embedding's file is absent).

    See Also
    --------
    weats : A battery of WEATs, with adjusted p.
    wordbias.measures.association.weat.weat : The test alone: the statistic, d and one p.
    wordbias.measures.association.bootstrap.weat_bootstrap : The interval.

    Notes
    -----
    A bootstrap that cannot run (a set too small to resample, a bootstrap too costly) leaves the test without
    its interval (NaN bounds, ``ci_method="none"``) and says why in ``notes``; d and p stand.

    Examples
    --------
    Any embedding will do: a registered name, a path, gensim ``KeyedVectors``, or a word -> vector mapping.

    >>> import wordbias as wb
    >>> from wordbias.options import Resampling
    >>> emb = {"rose": [1, .2], "tulip": [.7, .5], "lily": [.9, .3], "daisy": [.5, .6],
    ...        "ant": [.3, 1], "wasp": [.6, .7], "moth": [.4, .8], "flea": [.2, 1],
    ...        "love": [1, 0], "joy": [.9, .2], "peace": [.8, .3], "cheer": [1, .3],
    ...        "hate": [0, 1], "ugly": [.2, .9], "war": [.1, 1], "grief": [.3, .9]}
    >>> r = wb.weat(emb, ["rose", "tulip", "lily", "daisy"], ["ant", "wasp", "moth", "flea"],
    ...             ["love", "joy", "peace", "cheer"], ["hate", "ugly", "war", "grief"],
    ...             resampling=Resampling(n_resamples=2000, n_permutations=100_000),
    ...             names={"X": "flowers", "Y": "insects", "A": "pleasant", "B": "unpleasant"})
    >>> print(r)
    WEAT: flowers vs insects, pleasant vs unpleasant
      d = 1.531, 95% CI [0.9, 1.7] (BCa 95%, 2,000 resamples of XYAB)
      p = 0.0286 one-sided (greater, exact), 0.0571 two-sided
      words found/asked: X 4/4, Y 4/4, A 4/4, B 4/4
    >>> round(r.effect_size, 2), round(r.ci_low, 2), round(r.ci_high, 2), round(r.p_value, 4)
    (1.53, 0.85, 1.74, 0.0286)

    The printed bounds carry only the decimals their Monte Carlo error supports
    (:func:`wordbias.core.tables.interval_digits`); the attributes keep every digit.

    The numbers are also a table row:

    >>> r.to_frame()[["effect_size", "p_value", "coverage"]].round(3)
       effect_size  p_value                    coverage
    0        1.531    0.029  X 4/4; Y 4/4; A 4/4; B 4/4
    """
    _refuse_ensemble(embedding, "weat")
    resampling, words = _options(resampling, words)
    p_method, p_methods = _p_methods(p_method)
    _check_choices(p_method=p_method, p_methods=p_methods, alternative=alternative)
    from wordbias.measures.association import conventions as _conventions

    ddof = _conventions.weat_ddof(convention)
    kv = _load(embedding, False)
    words = words.replace(case_fold=_case_fold(kv, words.case_fold))
    _conventions.check_weat_lists(X, Y, A, B, names=names, case_fold=words.case_fold)
    m = _measure_weat(kv, X, Y, A, B, test="", title=title, names=names, resampling=resampling, words=words,
                      p_method=p_method, p_methods=p_methods, alternative=alternative, progress=False, ddof=ddof)
    if convention != "caliskan":                         # the result says whose d it is
        m = dataclasses.replace(m, notes=m.notes + (_conventions.weat_note(convention),))
    _replay(m.warnings)                                  # given again to the caller, and kept in the result
    if m.flagged:
        m = dataclasses.replace(m, warnings=m.warnings + (_warn_low(m.title, m.flagged),))
    return m


def weats(embedding, specs: Sequence, *, family: str | None = None, resampling: Resampling | None = None,
          words: Words | None = None, p_methods: Sequence[str] = (), progress: bool = False) -> list[Result]:
    """Measure a battery of WEATs, each once, with Holm's and Benjamini-Hochberg's adjusted p.

    Each test is measured as by :func:`weat` (one-sided, ``alternative="greater"``, ``p_method="auto"``); the
    p-values of the tests that ran are adjusted together (:func:`wordbias.stats.multiple.adjust`), the family
    named in ``p_family``: ``"<family>: the <n> WEATs with a p-value (one-sided p)"``. A test that cannot run
    (a list left too small, :data:`NOT_RUN_ERRORS`) gives a result with NaN numbers and the reason in
    ``not_run`` instead of stopping the battery. The warnings are kept in each result, not given again (the
    battery's views report them); low coverage is flagged in each result as in :func:`weat`.

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        Anything :func:`wordbias.embeddings.load` takes, loaded once for all the tests.
    specs : sequence of WeatSpec or mapping
        The tests: :class:`~wordbias.datasets.stimuli.WeatSpec` or mappings with ``id``, ``X``, ``Y``, ``A``,
        ``B`` (and optionally ``title``, ``names``): the papers' batteries
        (:func:`wordbias.datasets.stimuli.weat_tests`) and a user's YAML
        (:func:`wordbias.datasets.user_lists.load_user_lists`) alike.
    family : str, optional
        What names the family of the adjusted p (e.g. the battery and the embedding).
    resampling : Resampling, optional
        Each interval of d (``n_resamples``, 0: no interval; ``confidence_level``; ``ci_method``), the Monte
        Carlo draws where a p is not counted exactly (``n_permutations``) and the seed of the balancing, the
        Monte Carlo p and the bootstrap, the same for every test (:class:`~wordbias.options.Resampling`). None:
        :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        How the word lists are treated, as in :func:`weat` (:class:`~wordbias.options.Words`; with
        ``on_missing="raise"`` a missing word makes its test not run). None: :data:`DEFAULT_WORDS`.
    p_methods : sequence of str, default ()
        Other methods to compute each one-sided p by as well (in each result's ``p_values``).
    progress : bool, default False
        Show a progress bar over the tests.

    Returns
    -------
    list of Result
        One per spec, in order, with ``p_holm``, ``p_bh`` and ``p_family`` set for the tests that ran.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``specs`` is not a non-empty list of specs, a spec lacks one of ``id``, ``X``, ``Y``, ``A``, ``B``,
        ``resampling`` is not a Resampling, ``words`` not a Words, or a method of ``p_methods`` does not exist.
    FileNotFoundError
        If ``embedding`` is neither a registered name nor an existing path.

    See Also
    --------
    weat : One test.
    adjusted : The adjustment of a family of results.

    Examples
    --------
    >>> kv = {"rose": [1, 0.1], "tulip": [0.9, 0.2], "ant": [0.1, 1], "wasp": [0.2, 0.9],    # any embedding
    ...       "love": [1, 0], "hate": [0, 1]}
    >>> ok = {"id": "flowers", "X": ["rose", "tulip"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    >>> bad = {"id": "none", "X": ["lily"], "Y": ["moth"], "A": ["love"], "B": ["hate"]}
    >>> a, b = weats(kv, [ok, bad], resampling=Resampling(n_resamples=0))
    >>> round(a.effect_size, 3), a.p_holm == a.p_value, b.not_run[:27], b.coverage
    (1.726, True, 'not run: DegenerateSetError', 'X 0/1; Y 0/1; A 1/1; B 1/1')
    """
    _refuse_ensemble(embedding, "weats")
    resampling, words = _options(resampling, words)
    _check_choices(p_methods=p_methods)
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence) or not specs:
        raise InvalidParameterError(f"specs must be a non-empty list of WEAT specs, not {type(specs).__name__}")
    specs = [stimuli.as_weat_spec(s) for s in specs]
    kv = _load(embedding, progress)
    words = words.replace(case_fold=_case_fold(kv, words.case_fold))
    from wordbias.core.progress import progress_bar

    out = []
    with progress_bar(len(specs), desc="WEATs", unit="test", enabled=progress) as bar:
        for spec in specs:
            try:
                out.append(_measure_weat(
                    kv, spec.X, spec.Y, spec.A, spec.B, test=spec.id, title=spec.title, names=spec.names,
                    resampling=resampling, words=words, p_method="auto", p_methods=p_methods,
                    alternative="greater", progress=False))
            except NOT_RUN_ERRORS as err:
                out.append(_weat_not_run(kv, spec, err, case_fold=words.case_fold, alternative="greater",
                                         seed=resampling.seed, min_words=words.min_words,
                                         min_fraction=words.min_fraction))
            bar.update(1)
    n_ran = sum(math.isfinite(m.p_value) for m in out)
    what = f"the {n_ran} WEATs with a p-value (one-sided p)"
    return adjusted(out, family=f"{family}: {what}" if family else what)


def adjusted(results: Sequence[Result], *, family: str) -> list[Result]:
    """Adjust the p-values of a family of results: Holm's (1979) and Benjamini-Hochberg's (1995).

    The adjustment (:func:`wordbias.stats.multiple.adjust`) is over the results that have a p-value; the
    others keep NaN.

    Parameters
    ----------
    results : sequence of Result
        The family's results (from :func:`weat`, :func:`weats`, :func:`wefat`, ...).
    family : str
        What names the family, stored in each adjusted result's ``p_family``.

    Returns
    -------
    list of Result
        The results in the same order, with ``p_holm``, ``p_bh`` and ``p_family`` set where there is a
        p-value (the inputs are not changed).

    Examples
    --------
    >>> kv = {"rose": [1, .1], "tulip": [.9, .2], "ant": [.1, 1], "wasp": [.2, .9], "love": [1, 0], "hate": [0, 1]}
    >>> specs = [{"id": "flowers", "X": ["rose", "tulip"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]},
    ...          {"id": "mixed", "X": ["rose", "ant"], "Y": ["tulip", "wasp"], "A": ["love"], "B": ["hate"]}]
    >>> results = adjusted(weats(kv, specs, resampling=Resampling(n_resamples=0)), family="two tests")
    >>> [(round(r.p_value, 3), round(r.p_holm, 3), round(r.p_bh, 3)) for r in results], results[0].p_family
    ([(0.167, 0.333, 0.333), (0.667, 0.667, 0.667)], 'two tests')
    """
    ran = [i for i, m in enumerate(results) if math.isfinite(m.p_value)]
    out = list(results)
    if ran:
        adj = multiple.adjust(np.array([results[i].p_value for i in ran]), tests=[str(i) for i in ran],
                              family=family)
        for j, i in enumerate(ran):
            out[i] = dataclasses.replace(results[i], p_holm=float(adj.p_holm[j]), p_bh=float(adj.p_bh[j]),
                                         p_family=family)
    return out


# --------------------------------------------------------------------------------------------------
# WEFAT (Caliskan et al. 2017, Methods)
# --------------------------------------------------------------------------------------------------

def _measure_wefat(kv, W, A, B, prop, *, test: str, title: str | None, names, case_fold: bool, on_missing: str,
                   name_filter: float | None, seed: int, n_resamples: int, confidence_level: float,
                   ci_method: str, min_words: int, min_fraction: float, shared_vectors: str = "keep") -> Result:
    """One WEFAT on loaded vectors ``kv``, measured once: Pearson's r of s(w, A, B) and the property with its
    two-sided p (:func:`wordbias.measures.association.wefat.wefat`), its bootstrap interval
    (:func:`wordbias.measures.association.bootstrap_wefat.wefat_bootstrap`), the sets and the coverage; the words
    whose vector is not their own treated as ``shared_vectors`` says (:func:`wordbias.core.identity.apply_policy`)."""
    from wordbias.measures.association import bootstrap_wefat as _bootstrap_wefat
    from wordbias.measures.association import wefat as _wefat

    identity, kept_sets = apply_policy(kv, {"W": W, "A": A, "B": B}, shared_vectors, case_fold=case_fold)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = _wefat.wefat(kv, *kept_sets.values(), prop, names=names, on_missing=on_missing, case_fold=case_fold,
                         name_filter=name_filter)
    kept = tuple(Caught(w.category, str(w.message)) for w in caught)
    notes, interval = [], None
    if n_resamples:
        try:
            interval = _bootstrap_wefat.wefat_bootstrap(kv, r, n_resamples=n_resamples,
                                                        confidence_level=confidence_level, method=ci_method,
                                                        seed=seed)
        except NO_INTERVAL_ERRORS as exc:
            notes.append(part_missing_note("bootstrap interval", exc))
    asked = [tuple(w.lower() for w in ws) if case_fold else tuple(ws) for ws in (W, A, B)]
    used_w = tuple(r.table["word"]) if "word" in r.table else tuple(r.W.words)
    sets = with_identity((SetCoverage("W", r.W.name, asked[0], used_w, tuple(r.W.missing), tuple(r.dropped_by_filter)),
                          SetCoverage("A", r.A.name, asked[1], tuple(r.A.words), tuple(r.A.missing)),
                          SetCoverage("B", r.B.name, asked[2], tuple(r.B.words), tuple(r.B.missing))),
                         identity, shared_vectors)
    flagged = _judge(sets, min_words=min_words, min_fraction=min_fraction).low
    low_power = _low_power(kept)
    return Result(
        measure="wefat", test=test, title=title or f"{r.W.name}: {r.A.name} vs {r.B.name}",
        statistic_name="Pearson r", statistic=float(r.pearson_r), effect_size_name="r",
        effect_size=float(r.pearson_r),
        **_interval_fields(interval, confidence_level),
        p_value=float(r.p_value), alternative="two-sided", p_method="t", p_two_sided=float(r.p_value),
        n_permutations=None, n_resamples=n_resamples, seed=seed, sets=sets, flagged=flagged,
        warnings=kept, notes=tuple(notes) + low_power + identity_notes(identity), result=r)


def _wefat_options(kv, resampling: Resampling, words: Words) -> dict:
    """The options of :func:`_measure_wefat` from ``resampling`` and ``words``, case folding decided on ``kv``."""
    return dict(case_fold=_case_fold(kv, words.case_fold), on_missing=words.on_missing, seed=resampling.seed,
                n_resamples=resampling.n_resamples, confidence_level=resampling.confidence_level,
                ci_method=resampling.ci_method, min_words=words.min_words, min_fraction=words.min_fraction,
                shared_vectors=words.shared_vectors)


def wefat(embedding, W: Sequence[str], A: Sequence[str], B: Sequence[str], prop, *,
          names: Mapping[str, str] | None = None, title: str | None = None, resampling: Resampling | None = None,
          words: Words | None = None, name_filter: float | None = None, progress: bool = False) -> Result:
    """Measure a WEFAT in one call: Pearson's r of association and property, with its interval and p.

    The Word Embedding Factual Association Test of Caliskan et al. (2017, Methods): Pearson's r between each
    target word's association s(w, A, B) and its property ``prop``, with its bootstrap interval (the words with
    their property resampled as pairs, and the attribute words;
    :func:`wordbias.measures.association.bootstrap_wefat.wefat_bootstrap`) and the two-sided p of the regression
    (:func:`wordbias.measures.association.wefat.wefat`); per set the words asked for, used and missing, and the coverage (a
    set below ``words.min_words`` or ``words.min_fraction`` of its list is flagged and warned, as in :func:`weat`). The
    per-word scores are in ``r.result.table``.

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        Anything :func:`wordbias.embeddings.load` takes: a registered name, a path, a gensim ``KeyedVectors``
        or model, a word -> vector mapping.
    W : sequence of str
        The target words (e.g. occupations).
    A, B : sequence of str
        The two attribute word lists (e.g. female and male words).
    prop : mapping of str to float or pandas.Series
        The property of each target word (e.g. the percentage of women in the occupation); target words
        without one are dropped.
    names : mapping of str to str, optional
        Display names of some of the sets ``"W"``, ``"A"``, ``"B"``.
    title : str, optional
        The test's title; by default ``"<W>: <A> vs <B>"`` with the sets' names.
    resampling : Resampling, optional
        The bootstrap interval of r (``n_resamples``, 0: no interval; ``confidence_level``; ``ci_method``) and
        its ``seed`` (:class:`~wordbias.options.Resampling`; ``n_permutations`` is not used: the p is the
        regression's). None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        How the word lists are treated (:class:`~wordbias.options.Words`): ``case_fold`` (lower-case every word
        and the property's words; None: fold when the vocabulary is uncased), ``on_missing`` (drop a word not in
        the embedding, or without a property value, with a warning, or raise), ``min_words`` and
        ``min_fraction`` (the low-coverage flag); ``balance_targets`` is not used. None: :data:`DEFAULT_WORDS`.
    name_filter : float, optional
        Drop this fraction (e.g. 0.2) of the least name-like target vectors first (the paper's WEFAT 2;
        :func:`wordbias.measures.association.wefat.name_likeness_filter`); they are listed as the W set's
        ``balanced_out``. None: no filter.
    progress : bool, default False
        Show a progress bar while loading the embedding.

    Returns
    -------
    Result
        r (``effect_size`` and ``statistic``) with its interval, the two-sided ``p_value`` (``p_method="t"``),
        the word sets and coverage, the warnings, and the :class:`~wordbias.measures.association.wefat.WefatResult`
        (``result``, its per-word scores in ``result.table``).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``prop`` is not a mapping of words to numbers, a word list is a string or repeats a word, A and B
        share a word, a word of W is also in A or B, or an option is out of range.
    wordbias.core.errors.DegenerateSetError
        If fewer than 3 target words with a property are left, an attribute set is left empty, or the property
        or the associations are all equal, up to the rounding of the vectors (the correlation is undefined).
    KeyError
        If ``words.on_missing`` is ``"raise"`` and a word is not in the embedding.
    FileNotFoundError
        If ``embedding`` is neither a registered name nor an existing path.

    See Also
    --------
    wefats : Several WEFATs.
    wordbias.measures.association.wefat.wefat : The test alone.

    Examples
    --------
    >>> import wordbias as wb
    >>> emb = {"nurse": [.9, .2, .3], "teacher": [.7, .4, .1], "clerk": [.6, .5, .4], "baker": [.5, .4, .6],
    ...        "lawyer": [.5, .6, .5], "chef": [.4, .6, .2], "pilot": [.2, .9, .1], "plumber": [.1, 1, .3],
    ...        "she": [1, 0, .2], "her": [.9, .1, .5], "woman": [.8, .2, .1], "girl": [1, .3, .4],
    ...        "he": [0, 1, .2], "him": [.1, .9, .5], "man": [.2, .8, .1], "boy": [.3, 1, .4]}
    >>> women = {"nurse": 90, "teacher": 75, "clerk": 60, "baker": 55, "lawyer": 40, "chef": 20, "pilot": 8,
    ...          "plumber": 2}                                       # % women in each occupation
    >>> r = wb.wefat(emb, list(women), ["she", "her", "woman", "girl"], ["he", "him", "man", "boy"], women,
    ...              names={"W": "occupations", "A": "female", "B": "male"},
    ...              resampling=Resampling(n_resamples=2000))
    >>> print(r)
    WEFAT: occupations: female vs male
      r = 0.969, 95% CI [0.88, 1.00] (BCa 95%, 2,000 resamples of W (with the property) and A, B)
      p = 7.2e-05 two-sided (t)
      words found/asked: W 8/8, A 4/4, B 4/4
    >>> r.result.table.round(2).head(3)
          word     s  property
    0    nurse  1.81      90.0
    1  teacher  1.68      75.0
    2    clerk  1.02      60.0

    Without an interval (``Resampling(n_resamples=0)``), on vectors in a ``KeyedVectors``:

    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> words = [f"job{i}" for i in range(8)] + ["she", "her", "he", "him"]
    >>> kv = to_keyed_vectors(words, rng.normal(size=(12, 5)).astype(np.float32))
    >>> prop = {w: float(i) for i, w in enumerate(words[:8])}
    >>> r = wefat(kv, words[:8], ["she", "her"], ["he", "him"], prop, resampling=Resampling(n_resamples=0))
    >>> r.effect_size_name, r.coverage, r.alternative
    ('r', 'W 8/8; A 2/2; B 2/2', 'two-sided')
    """
    _refuse_ensemble(embedding, "wefat")
    resampling, words = _options(resampling, words)
    kv = _load(embedding, progress)
    m = _measure_wefat(kv, W, A, B, prop, test="", title=title, names=names, name_filter=name_filter,
                       **_wefat_options(kv, resampling, words))
    _replay(m.warnings)
    if m.flagged:
        m = dataclasses.replace(m, warnings=m.warnings + (_warn_low(m.title, m.flagged),))
    return m


def wefats(embedding, specs: Sequence, *, name_filter: bool = False, resampling: Resampling | None = None,
           words: Words | None = None, progress: bool = False) -> list[Result]:
    """Measure several WEFATs, each once, as :func:`wefat` does.

    A test that cannot run (a list left too small, :data:`NOT_RUN_ERRORS`) gives a result with NaN numbers and
    the reason in ``not_run`` instead of stopping the others. The warnings are kept in each result, not given
    again.

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        Anything :func:`wordbias.embeddings.load` takes, loaded once for all the tests.
    specs : sequence of WefatSpec or mapping
        The tests: :class:`~wordbias.datasets.stimuli.WefatSpec` (e.g. from
        :func:`wordbias.datasets.stimuli.wefat_tests`) or mappings with ``id``, ``W``, ``A``, ``B`` and
        ``property`` (:func:`wordbias.datasets.stimuli.as_wefat_spec`).
    name_filter : bool, default False
        Apply each spec's name-likeness filter where it has one (its ``name_filter["drop_fraction"]``).
    resampling : Resampling, optional
        Each interval of r and its seed, as in :func:`wefat`. None: :data:`DEFAULT_RESAMPLING`.
    words : Words, optional
        How the word lists are treated, as in :func:`wefat` (with ``on_missing="raise"`` a missing word makes its
        test not run). None: :data:`DEFAULT_WORDS`.
    progress : bool, default False
        Show a progress bar while loading the embedding.

    Returns
    -------
    list of Result
        One per spec, in order.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``resampling`` is not a Resampling or ``words`` not a Words.
    FileNotFoundError
        If ``embedding`` is neither a registered name nor an existing path.

    See Also
    --------
    wefat : One test.

    Examples
    --------
    >>> import pandas as pd
    >>> from wordbias.datasets.stimuli import WefatSpec
    >>> emb = {"nurse": [.9, .2, .3], "teacher": [.7, .4, .1], "clerk": [.6, .5, .4], "pilot": [.2, .9, .1],
    ...        "plumber": [.1, 1, .3], "she": [1, 0, .2], "her": [.9, .1, .5], "he": [0, 1, .2], "him": [.1, .9, .5]}
    >>> women = pd.Series({"nurse": 90, "teacher": 75, "clerk": 60, "pilot": 8, "plumber": 2}, dtype=float)
    >>> jobs = WefatSpec(id="jobs", title="occupations", W=tuple(women.index), A=("she", "her"), B=("he", "him"),
    ...                  property=women, name_filter=None, paper={})
    >>> few = WefatSpec(id="few", title="two occupations", W=("nurse", "pilot"), A=("she", "her"),
    ...                 B=("he", "him"), property=women, name_filter=None, paper={})
    >>> a, b = wefats(emb, [jobs, few], resampling=Resampling(n_resamples=0))
    >>> a.test, round(a.effect_size, 3), a.coverage
    ('jobs', 0.985, 'W 5/5; A 2/2; B 2/2')
    >>> b.not_run[:31]
    'not run: DegenerateSetError: se'
    """
    _refuse_ensemble(embedding, "wefats")
    resampling, words = _options(resampling, words)
    kv = _load(embedding, progress)
    options = _wefat_options(kv, resampling, words)
    case_fold, seed, min_words, min_fraction = (options[k] for k in ("case_fold", "seed", "min_words",
                                                                     "min_fraction"))
    out = []
    for spec in [stimuli.as_wefat_spec(s) for s in specs]:
        drop = (spec.name_filter or {}).get("drop_fraction") if name_filter else None
        try:
            out.append(_measure_wefat(kv, spec.W, spec.A, spec.B, spec.property, test=spec.id, title=spec.title,
                                      names=None, name_filter=drop, **options))
        except NOT_RUN_ERRORS as err:
            sets = _unmeasured_sets(kv, {"W": spec.W, "A": spec.A, "B": spec.B}, case_fold, {})
            out.append(Result(
                measure="wefat", test=spec.id, title=spec.title, statistic_name="Pearson r", statistic=math.nan,
                effect_size_name="r", effect_size=math.nan, ci_low=math.nan, ci_high=math.nan, ci_level=math.nan,
                ci_method="none", p_value=math.nan, alternative="two-sided", p_method="none",
                p_two_sided=math.nan, n_permutations=None, n_resamples=0, seed=seed, sets=sets,
                flagged=_judge(sets, min_words=min_words, min_fraction=min_fraction).low,
                not_run=not_run_note(err)))
    return out


def weat_result(measured):
    """The :class:`~wordbias.measures.association.weat.WeatResult` of a measured WEAT.

    Analyses of a test's words (word influence, frequency) read the words it used from here, so they never run
    the test again.

    Parameters
    ----------
    measured : Result or WeatResult or object
        A :class:`Result` (from :func:`weat` or :func:`weats`), anything else that carries a
        ``WeatResult`` as ``result`` (the teaching explorer's), or a ``WeatResult`` itself.

    Returns
    -------
    WeatResult
        The test's result: its word sets, scores, statistic, d and p.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If the test did not run (``not_run``), or ``measured`` carries no ``WeatResult``.

    Examples
    --------
    >>> kv = {"rose": [1, .1], "tulip": [.9, .2], "ant": [.1, 1], "wasp": [.2, .9], "love": [1, 0], "hate": [0, 1]}
    >>> r = weat_result(weat(kv, ["rose", "tulip"], ["ant", "wasp"], ["love"], ["hate"],
    ...                      resampling=Resampling(n_resamples=0)))
    >>> type(r).__name__, r.X.words, round(float(r.s_x[0]), 3)
    ('WeatResult', ('rose', 'tulip'), 0.896)
    """
    from wordbias.measures.association.weat import WeatResult

    if getattr(measured, "not_run", None):
        raise InvalidParameterError(f"{measured.test or measured.title} did not run: {measured.not_run}")
    result = measured if isinstance(measured, WeatResult) else getattr(measured, "result", None)
    if not isinstance(result, WeatResult):
        raise InvalidParameterError(f"expected a measured WEAT (wordbias.weat's Result or a WeatResult), not "
                                    f"{type(measured).__name__}")
    return result
