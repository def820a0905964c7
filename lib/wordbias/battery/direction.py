"""Direction tests, the direct bias and RIPA as tidy rows (:mod:`wordbias.core.tidy`): views of results.

* The racial bias report's three direction tests (Section 3, Appendix A; the lists of
  :func:`wordbias.datasets.stimuli.direction_tests`), or any list of direction specs, measured once each by
  :func:`wordbias.measures.directions.direction_permutation.direction_tests`; :func:`direction_rows` and
  :func:`direction_frame` lay the results out as rows and never recompute (the racial report's notebook shows
  Table 1 and writes ``tidy.csv`` from the same results); :func:`direction_battery` measures and shows.
* Bolukbasi et al.'s (2016, §5.2) DirectBias_1 of the debiaswe professions on the PCA gender direction (the
  report's Section 2), with a bootstrap interval over the professions (:func:`direct_bias_row`), and
  Ethayarajh, Duvenaud & Hirst's (2019) RIPA of the professions on each definitional gender pair with the
  sign-flip test (:func:`ripa_row`).

:func:`report_words` lists the words :func:`wordbias.battery.report.report` looks up. This module builds on
:mod:`wordbias.measures` and :mod:`wordbias.datasets` only (no paper module).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np  # noqa: F401 - the examples use it
import pandas as pd

from wordbias import embeddings as _embeddings
from wordbias.battery.weat import as_keyed_vectors, check_names
from wordbias.core import tidy as _tidy
from wordbias.core.validation import check_int, check_seed
from wordbias.datasets import stimuli
from wordbias.measures.association.measurement import NOT_RUN_ERRORS
from wordbias.measures.debiasing import debias
from wordbias.measures.directions import direction
from wordbias.measures.directions import ripa as _ripa
from wordbias.measures.directions.direction_permutation import direction_tests
from wordbias.options import Resampling, Words
from wordbias.stats.multiple import adjust_family

__all__ = ["REPORT", "measure_directions", "direction_row", "direction_rows", "direction_frame",
           "direction_battery", "direct_bias_row", "ripa_row", "report_words"]

#: the paper and battery of the racial bias report's rows (its direction tests and the direct bias)
REPORT = "racial_bias_report"


# --------------------------------------------------------------------------------------------------
# direction tests: measured once, shown as rows
# --------------------------------------------------------------------------------------------------

def measure_directions(embedding, *, seed: int = 0, n_permutations: int = 10_000, n_resamples: int = 10_000,
                       min_words: int = _tidy.MIN_WORDS, min_fraction: float = _tidy.MIN_FRACTION) -> list:
    """Measure the racial bias report's three direction tests on ``embedding``, each once.

    The tests are :func:`wordbias.datasets.stimuli.direction_tests` (names lower-cased for an uncased
    vocabulary), measured by :func:`wordbias.measures.directions.direction_permutation.direction_tests`.

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        The embedding (anything :func:`~wordbias.battery.weat.as_keyed_vectors` takes).
    seed : int, default 0
        The seed of the permutations and the bootstrap.
    n_permutations : int, default 10000
        The random permutations of each test's p.
    n_resamples : int, default 10000
        The bootstrap resamples of each interval.
    min_words : int, default 4
        A set keeping fewer words than this is flagged as low coverage.
    min_fraction : float, default 0.5
        A set keeping less than this fraction of its list is flagged as low coverage.

    Returns
    -------
    list of Result
        One :class:`~wordbias.result.Result` per test (implicit, explicit, stereotypical);
        a test that cannot run has the reason in ``not_run`` instead of numbers.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = sorted({w for s in stimuli.direction_tests(REPORT, cased=False)
    ...                 for k in ("T1", "T2", "A1", "A2") for w in getattr(s, k)})
    >>> kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 5)))
    >>> results = measure_directions(kv, n_permutations=200, n_resamples=100)
    >>> [(m.test, round(m.effect_size, 3), m.p_method) for m in results]
    [('implicit', 0.072, 'monte-carlo'), ('explicit', 0.625, 'monte-carlo'), ('stereotypical', -0.32, 'monte-carlo')]
    """
    kv = as_keyed_vectors(embedding)
    specs = stimuli.direction_tests(REPORT, cased=_embeddings.is_cased(kv))
    return direction_tests(kv, specs,
                           resampling=Resampling(n_resamples=n_resamples, n_permutations=n_permutations, seed=seed),
                           words=Words(min_words=min_words, min_fraction=min_fraction))


def direction_row(m, *, base: Mapping) -> dict:
    """Return the tidy row of one measured direction test.

    A view of the :class:`~wordbias.result.Result`: ``base``, the words used per set (T1, T2
    as ``n_x``, ``n_y``; A1, A2 as ``n_a``, ``n_b``), cos(r, s) with its interval, p one- and two-sided with the
    number of permutations, the words dropped, the coverage; the note gives the angle and Appendix A's interval
    on p. A test not run has NA numbers and the reason.

    Parameters
    ----------
    m : Result
        One measured direction test (an item of :func:`measure_directions`).
    base : mapping
        The row's leading columns: embedding, paper, battery.

    Returns
    -------
    dict
        One row of the tidy schema (:data:`wordbias.core.tidy.COLUMNS`), with ``coverage`` and
        ``low_coverage``.

    Examples
    --------
    On random vectors of the report's words, the row of the implicit test (its first):

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = sorted({w for s in stimuli.direction_tests(REPORT, cased=False)
    ...                 for k in ("T1", "T2", "A1", "A2") for w in getattr(s, k)})
    >>> kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 5)))
    >>> m = measure_directions(kv, n_permutations=200, n_resamples=100)[0]
    >>> row = direction_row(m, base={"embedding": "toy", "paper": REPORT, "battery": REPORT})
    >>> row["test"], row["n_x"], row["n_a"], round(row["effect_size"], 3), row["p_value"], row["coverage"]
    ('implicit', 12, 37, 0.072, 0.465, 'T1 12/12; T2 12/12; A1 37/37; A2 37/37')
    >>> row["note"][:20]
    'angle 85.9 degrees; '
    """
    return m.to_row(base)


def direction_rows(results: Sequence, *, label: str, paper: str = REPORT, battery: str = REPORT) -> list[dict]:
    """Return one :func:`direction_row` per measured test, for the embedding ``label``.

    The rows carry no adjusted p: the caller adjusts over its family (:func:`direction_frame` over the three
    tests, :func:`wordbias.battery.report.report` over the whole report).

    Parameters
    ----------
    results : sequence of Result
        The measured direction tests (:func:`measure_directions`).
    label : str
        The embedding's name (the ``embedding`` column).
    paper : str, default "racial_bias_report"
        The ``paper`` column.
    battery : str, default "racial_bias_report"
        The ``battery`` column.

    Returns
    -------
    list of dict
        The tidy rows, one per result, in their order.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(30)], np.random.default_rng(0).normal(size=(30, 5)))
    >>> rows = direction_rows(measure_directions(kv, n_resamples=100), label="random")
    >>> [(r["embedding"], r["test"], r["note"][:8]) for r in rows]     # none of the report's words is known
    [('random', 'implicit', 'not run:'), ('random', 'explicit', 'not run:'), ('random', 'stereotypical', 'not run:')]
    """
    return [direction_row(m, base=dict(embedding=label, paper=paper, battery=battery)) for m in results]


def direction_frame(results: Sequence, *, label: str, paper: str = REPORT, battery: str = REPORT) -> pd.DataFrame:
    """Return the tidy table of measured direction tests on one embedding.

    The rows are :func:`direction_rows`, with Holm's and Benjamini-Hochberg's adjusted p over them
    (:func:`wordbias.stats.multiple.adjust_family`) and one :class:`~wordbias.core.errors.LowCoverageWarning` per
    flagged test that ran. Nothing is measured again.

    Parameters
    ----------
    results, label, paper
        As :func:`direction_rows`.
    battery : str, default "racial_bias_report"
        The ``battery`` column; it also names the family of the adjusted p.

    Returns
    -------
    pandas.DataFrame
        The tidy table, one row per result, with ``p_holm``, ``p_bh`` and ``p_family``.

    Raises
    ------
    InvalidParameterError
        When ``label``, ``paper`` or ``battery`` is not a valid name
        (:func:`~wordbias.battery.weat.check_names`).

    Warns
    -----
    LowCoverageWarning
        Once per flagged direction test that ran (:func:`wordbias.core.tidy.warn_low_coverage`).

    Examples
    --------
    The three tests on random vectors of the report's words:

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = sorted({w for s in stimuli.direction_tests(REPORT, cased=False)
    ...                 for k in ("T1", "T2", "A1", "A2") for w in getattr(s, k)})
    >>> kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 5)))
    >>> results = measure_directions(kv, n_permutations=200, n_resamples=100)
    >>> t = direction_frame(results, label="toy")
    >>> t[["test", "p_value", "p_holm"]].round(3).values.tolist()
    [['implicit', 0.465, 0.93], ['explicit', 0.155, 0.465], ['stereotypical', 0.76, 0.93]]
    >>> t.p_family[0]
    'racial_bias_report on toy: the 3 direction tests with a p-value (one-sided p)'
    """
    check_names(label=label, paper=paper, battery=battery)
    frame = _tidy.tidy_frame(direction_rows(results, label=label, paper=paper, battery=battery))
    _tidy.warn_low_coverage(frame)
    n_p = int(frame.p_value.notna().sum())
    return adjust_family(frame, f"{battery} on {label}: the {n_p} direction tests with a p-value "
                                      "(one-sided p)")


def direction_battery(embedding, *, label: str, seed: int = 0, n_permutations: int = 10_000,
                      n_resamples: int = 10_000, min_words: int = _tidy.MIN_WORDS,
                      min_fraction: float = _tidy.MIN_FRACTION) -> pd.DataFrame:
    """Measure the racial bias report's three direction tests on ``embedding`` and show them as a tidy table.

    The tests (implicit, explicit, stereotypical attribute sets) are measured once (:func:`measure_directions`)
    and shown by :func:`direction_frame`: the cosine bias with its bootstrap interval, the report's one-sided
    permutation p and the two-sided p, Holm's and Benjamini-Hochberg's adjusted p over the three tests. Each
    row's ``coverage`` gives T1, T2, A1, A2's words in the vocabulary of those asked; a set keeping fewer than
    ``min_words`` words or less than ``min_fraction`` of its list flags the row
    (:func:`wordbias.core.tidy.coverage_flag`).

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        The embedding (anything :func:`~wordbias.battery.weat.as_keyed_vectors` takes).
    label : str
        The embedding's name in the table.
    seed, n_permutations, n_resamples, min_words, min_fraction
        As :func:`measure_directions` (defaults 0, 10000, 10000, 4, 0.5), with at least 2 resamples.

    Returns
    -------
    pandas.DataFrame
        The tidy table, one row per test.

    Raises
    ------
    InvalidParameterError
        When ``label``, ``seed``, ``n_permutations`` or ``n_resamples`` is invalid.

    Warns
    -----
    LowCoverageWarning
        As :func:`direction_frame`.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(30)], np.random.default_rng(0).normal(size=(30, 5)))
    >>> t = direction_battery(kv, label="random", n_resamples=100)
    >>> t.test.tolist(), t.note.str.startswith("not run").all()          # none of the report's words is known
    (['implicit', 'explicit', 'stereotypical'], np.True_)
    """
    check_names(label=label)
    results = measure_directions(embedding, seed=check_seed("seed", seed),
                                 n_permutations=check_int("n_permutations", n_permutations, min=1),
                                 n_resamples=check_int("n_resamples", n_resamples, min=2), min_words=min_words,
                                 min_fraction=min_fraction)
    return direction_frame(results, label=label)


# --------------------------------------------------------------------------------------------------
# the direct bias and RIPA of the debiaswe professions
# --------------------------------------------------------------------------------------------------

def _not_run(embedding, err: BaseException, *, measure: str, statistic_name: str, title: str, test: str,
             resampling: Resampling, words: Words):
    """The result of a measure of the debiaswe professions (N) and definitional pairs that could not run: NA
    numbers, the reason, and the words and pairs (a pair counts when both its words are known) the embedding
    lacks."""
    from wordbias.core.tidy import coverage
    from wordbias.result import Result

    lists = debias.word_lists_for(embedding)
    index = embedding.key_to_index
    pairs = [tuple(p) for p in lists.definitional_pairs]
    sets = _ripa.ripa_sets(lists.professions, pairs, fold=False,
                           missing_words=tuple(w for w in lists.professions if w not in index),
                           missing_pairs=[p for p in pairs if not all(w in index for w in p)])
    flagged = coverage({s.letter: (s.in_vocabulary, len(s.asked)) for s in sets}, min_words=words.min_words,
                       min_fraction=words.min_fraction).low
    return Result(measure=measure, test=test, title=title, statistic_name=statistic_name, statistic=math.nan,
                  effect_size_name=measure, effect_size=math.nan, ci_low=math.nan, ci_high=math.nan,
                  ci_level=math.nan, ci_method="none", p_value=math.nan, alternative="two-sided", p_method="none",
                  p_two_sided=math.nan, n_permutations=None, n_resamples=resampling.n_resamples,
                  seed=resampling.seed, sets=sets, flagged=flagged, not_run=_tidy.not_run_note(err))


def _professions_row(embedding, run, *, base: Mapping, paper: str, seed: int, n_resamples: int, cov: Mapping,
                     **labels) -> dict:
    """The tidy row of :func:`direct_bias_row` or :func:`ripa_row`.

    ``run(lists, resampling, words)`` measures the debiaswe lists of ``embedding``
    (:func:`wordbias.measures.debiasing.debias.word_lists_for`) with ``n_resamples`` for the bootstrap and the
    random sign patterns alike, the words as given and ``cov``'s thresholds; a measure that cannot run gives
    :func:`_not_run`'s result, labelled by ``labels`` (its ``measure``, ``statistic_name``, ``title``, ``test``).
    ``paper`` fills the ``paper`` and ``battery`` columns.
    """
    resampling = Resampling(n_resamples=n_resamples, n_permutations=n_resamples, seed=seed)
    words = Words(case_fold=False, **cov)
    try:
        r = run(debias.word_lists_for(embedding), resampling, words)
    except NOT_RUN_ERRORS as err:
        r = _not_run(embedding, err, resampling=resampling, words=words, **labels)
    return r.to_row({**base, "paper": paper, "battery": paper})


def direct_bias_row(embedding, *, base: Mapping, seed: int, n_resamples: int, cov: Mapping) -> dict:
    """Return the tidy row of Bolukbasi et al.'s DirectBias_1 of the debiaswe professions.

    Bolukbasi et al.'s (2016, §5.2) DirectBias_1 of the debiaswe professions on the PCA gender direction of the
    definitional pairs, as the report's Section 2, measured by
    :func:`wordbias.measures.directions.direction.direct_bias_test` (a BCa interval over the professions, the
    direction held fixed): the row of its :class:`~wordbias.result.Result`, with the coverage of the professions
    (N) and pairs. A descriptive measure: no p. A measure the embedding cannot make gives a row with NA numbers
    and the reason.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    base : mapping
        The row's leading columns (embedding, seed, n_resamples); paper and battery are set to
        :data:`REPORT`.
    seed : int
        The seed of the bootstrap.
    n_resamples : int
        The bootstrap resamples of the interval.
    cov : mapping
        The coverage thresholds, ``min_words`` and ``min_fraction`` (:func:`wordbias.core.tidy.coverage`).

    Returns
    -------
    dict
        The row of the :class:`~wordbias.result.Result` (:meth:`~wordbias.result.Result.to_row`), with
        ``coverage`` and ``low_coverage``.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.measures.debiasing import debias
    >>> lists = debias.word_lists(False)          # the uncased lists
    >>> words = sorted(set(lists.professions) | {w for p in lists.definitional_pairs for w in p})
    >>> kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 5)))
    >>> row = direct_bias_row(kv, base={"embedding": "toy"}, seed=0, n_resamples=100,
    ...                       cov={"min_words": 4, "min_fraction": 0.5})
    >>> row["statistic_name"], round(row["effect_size"], 3), row["coverage"]
    ('DirectBias_1', 0.388, 'N 320/320; pairs 10/10')
    """
    title = "Professions on the PCA gender direction: DirectBias_1 (Bolukbasi et al. 2016)"

    def run(lists, resampling, words):
        return direction.direct_bias_test(embedding, lists.professions, lists.definitional_pairs, title=title,
                                          test="direct_bias", resampling=resampling, words=words, warn=False)

    return _professions_row(embedding, run, base=base, paper=REPORT, seed=seed, n_resamples=n_resamples, cov=cov,
                            measure="direct_bias", statistic_name="DirectBias_1", title=title, test="direct_bias")


def ripa_row(embedding, *, base: Mapping, seed: int, n_resamples: int, cov: Mapping) -> dict:
    """Return the tidy row of RIPA of the debiaswe professions on the definitional gender pairs.

    Ethayarajh, Duvenaud & Hirst's (2019) RIPA of the debiaswe professions on each definitional gender pair
    (:func:`wordbias.measures.directions.ripa.ripa`): the mean over pairs with a BCa interval over the pairs, the
    spread across pairs and the two-sided sign-flip test over the pairs; the row of its
    :class:`~wordbias.result.Result`, with the coverage. A measure the embedding cannot make gives a row with NA
    numbers and the reason.

    Parameters
    ----------
    embedding, base, seed, n_resamples, cov
        As :func:`direct_bias_row`, but paper and battery are set to ``"ethayarajh2019"``, and ``seed`` and
        ``n_resamples`` also serve a sign-flip test that cannot be counted exactly (Monte Carlo).

    Returns
    -------
    dict
        The row of RIPA's :class:`~wordbias.result.Result`, as :func:`direct_bias_row`'s.

    Examples
    --------
    On random vectors of the uncased lists' words:

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.measures.debiasing import debias
    >>> lists = debias.word_lists(False)
    >>> words = sorted(set(lists.professions).union(*lists.definitional_pairs))
    >>> kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 5)))
    >>> row = ripa_row(kv, base={"embedding": "toy"}, seed=0, n_resamples=100, cov=dict(min_words=4, min_fraction=0.5))
    >>> round(row["effect_size"], 3), round(row["p_value"], 3), row["p_method"], row["n_a"]
    (0.009, 0.74, 'exact', 10)
    """
    test, title = "RIPA:definitional_pairs", "Professions on each definitional gender pair (debiaswe)"

    def run(lists, resampling, words):
        return _ripa.ripa(embedding, lists.professions, lists.definitional_pairs, units="pairs",
                          alternative="two-sided", title=title, test=test, resampling=resampling, words=words,
                          warn=False)

    return _professions_row(embedding, run, base=base, paper="ethayarajh2019", seed=seed, n_resamples=n_resamples,
                            cov=cov, measure="ripa", statistic_name="mean beta over pairs", title=title, test=test)


def report_words(embedding) -> set[str]:
    """Return the words :func:`wordbias.battery.report.report` looks up in ``embedding`` for its word-set tests.

    The words are spelled as the report looks them up (case-folded for an uncased vocabulary): Caliskan et al.'s
    WEAT ("glove" lists) and WEFAT lists, the racial bias report's target and attribute sets, the debiaswe
    professions and definitional pairs, and the words of the indirect biases
    (:data:`wordbias.battery.metrics.INDIRECT_SETS`). UBE's names and words (the vocabulary's own) are not among them.
    :func:`wordbias.battery.compare.compare` uses it to measure every embedding on the words they share
    (``common_vocabulary=True``).

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding; its casing decides the spelling of the words and the debiaswe lists used.

    Returns
    -------
    set of str
        The words.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = report_words(to_keyed_vectors(["a", "b"], np.eye(2)))
    >>> len(words), {"aster", "programmer", "she"} <= words
    (830, True)
    """
    case_fold = not _embeddings.is_cased(embedding)
    fold = str.lower if case_fold else (lambda w: w)
    words: set[str] = set()
    for spec in stimuli.weat_tests("caliskan2017", "glove"):
        words.update(fold(w) for r in "XYAB" for w in getattr(spec, r))
    for spec in stimuli.wefat_tests("caliskan2017"):
        words.update(fold(w) for r in ("W", "A", "B") for w in getattr(spec, r))
    for spec in stimuli.direction_tests(REPORT, cased=not case_fold):
        words.update(w for k in ("T1", "T2", "A1", "A2") for w in getattr(spec, k))
    lists = debias.word_lists_for(embedding)
    words.update(lists.professions)
    words.update(w for p in lists.definitional_pairs for w in p)
    from wordbias.battery.metrics import INDIRECT_SETS  # the indirect biases' words (lower case)

    words.update(w for sport, others in INDIRECT_SETS.items() for w in (sport, *others))
    return words
