"""Measuring the measures on a planted-bias ladder: which static bias measure finds a known gender bias, how
reliably and with what power.

The ladder is a set of embeddings trained on one corpus in which a share p (the *rate*) of the sentences has its
gendered words swapped for their counterparts (he <-> she, man <-> woman, ...): at rate 0 the corpus keeps its own
gender associations, at rate 1 they are mirrored, at rate 0.5 the corpus is symmetric under the swap; several
training seeds per rate. The planted bias is thus 1 − 2p along the corpus's own gender associations.

* :func:`ladder_tests` gives one gender test per static measure of :data:`wordbias.catalogue.CATALOGUE`, built
  from the (male, female) pairs and fixed attribute lists (:func:`ladder_lists`: Caliskan et al.'s (2017)
  career/family and pleasant/unpleasant words, their WEFAT occupations with the share of women, the debiaswe
  professions), each calling the library's own measure function. UBE is left out (:data:`LEFT_OUT`).
* :func:`measure_ladder` loads each run once and measures every test on it: the tidy rows of the
  :class:`~wordbias.result.Result` s with ``rate`` and ``run`` columns, the per-item scores each measure is built
  from, and the measure's value on random halves of the pairs (:class:`Ladder`; :func:`ladder_rows` gives the
  rows alone).
* :func:`validity_table` reads a :class:`Ladder`: per measure its validity (Spearman's rho of its value with the
  planted rate, or with the planted strength ∣1 − 2p∣ for a measure blind to the bias's sign,
  :data:`AGAINST`), its test-retest reliability over seeds (ICC(A,1) of the item scores, Du, Fang & Nguyen 2021,
  §3.1, doi:10.18653/v1/2021.emnlp-main.785), its internal consistency over words (split-half with the
  Spearman-Brown correction) and its power (the share of runs its own test flags at each rate, at rate 0.5 the
  false-positive rate; the share of rate pairs a Welch t test over seeds tells apart at each difference in rate),
  each with its interval, as tidy rows; :func:`validity_wide` is one row per measure, :func:`ladder_figure` the
  value of every run against the rate.
* :func:`ladder_validity` is the one call from a trained ladder (:func:`wordbias.models.ladder.load_ladder`, the
  folder of ``wordbias train --swap-rate``) to its validity table, on the pairs every run knows
  (:func:`shared_pairs`); ``wordbias validity`` runs it and writes the tables and the figure.

This module builds on :mod:`wordbias.measures`, :mod:`wordbias.models`, :mod:`wordbias.datasets` and
:mod:`wordbias.stats` only.
"""
from __future__ import annotations

import functools
import math
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from wordbias import catalogue as _catalogue
from wordbias.core import tidy as _tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_int, check_real, check_seed
from wordbias.measures.association.measurement import NOT_RUN_ERRORS
from wordbias.options import Resampling, Words
from wordbias.stats.reliability import half_correlation, icc_a1, random_halves

__all__ = ["BATTERY", "LEFT_OUT", "AGAINST", "PAPER", "LadderTest", "Ladder", "ladder_lists", "ladder_tests",
           "measure_ladder", "ladder_rows", "validity_table", "validity_wide", "rate_means", "ladder_figure",
           "shared_pairs", "LadderValidity", "ladder_validity"]

#: the ``battery`` column of the ladder's rows and of its validity table
BATTERY = "ladder"
#: the static measures of the catalogue the ladder leaves out, with the reason
LEFT_OUT = {"ube": "not measured: UBE (Swinger et al. 2019) enumerates groups of first names sampled from the "
                   "vocabulary and their associated words; it takes no gender word pairs, so it has no test of the "
                   "planted bias"}
#: what each measure's validity correlates with: ``"rate"`` (a signed measure: the mirrored corpus gives the
#: opposite sign) or ``"strength"`` (∣1 − 2p∣: a measure whose value is the same for the corpus and its mirror
#: image, so that it can only see how much bias there is, not towards which pole)
AGAINST = {m: "strength" if m in _catalogue.SIGN_BLIND else "rate"
           for m in ("weat", "sc_weat", "wefat", "direction", "direct_bias", "ripa", "ect", "rnd", "rnsb", "mac",
                     "semaxis", "indirect_bias")}
#: the ``paper`` column of each measure's rows
PAPER = {"weat": "caliskan2017", "sc_weat": "caliskan2017", "wefat": "caliskan2017", "direction": "racial_bias_report",
         "direct_bias": "bolukbasi2016", "ripa": "ethayarajh2019", "ect": "dev2019", "rnd": "garg2018",
         "rnsb": "sweeney2019", "mac": "manzini2019", "semaxis": "an2018", "indirect_bias": "bolukbasi2016"}
#: the most bootstrap replicates (classifier fits) of RNSB's interval per run
RNSB_RESAMPLES = 100


# --------------------------------------------------------------------------------------------------
# the word lists and one run's vectors
# --------------------------------------------------------------------------------------------------

@functools.cache
def ladder_lists() -> dict[str, tuple[str, ...]]:
    """Return the ladder's fixed attribute lists (lower case).

    ``career`` and ``family``: Caliskan et al.'s (2017) WEAT 6 attributes; ``pleasant`` and ``unpleasant``: their
    WEAT 3 attributes; ``occupations``: their WEFAT 1 occupations (the share of women per occupation is
    :func:`wordbias.datasets.stimuli.wefat_tests`' ``property``); ``professions``: the debiaswe professions
    (Bolukbasi et al. 2016).

    Returns
    -------
    dict of str to tuple of str
        The lists by name.

    Examples
    --------
    >>> lists = ladder_lists()
    >>> sorted(lists), lists["career"][:3], len(lists["professions"])
    (['career', 'family', 'occupations', 'pleasant', 'professions', 'unpleasant'], ('executive', 'management', 'professional'), 320)
    """
    from wordbias.datasets import stimuli
    from wordbias.measures.debiasing import debias

    weat = {s.id: s for s in stimuli.weat_tests("caliskan2017", "glove")}
    wefat = stimuli.wefat_tests("caliskan2017")[0]
    return {"career": weat["WEAT6"].A, "family": weat["WEAT6"].B, "pleasant": weat["WEAT3"].A,
            "unpleasant": weat["WEAT3"].B, "occupations": tuple(wefat.W),
            "professions": tuple(debias.word_lists(False).professions)}


@functools.cache
def _percent_women() -> pd.Series:
    from wordbias.datasets import stimuli

    return stimuli.wefat_tests("caliskan2017")[0].property


class _Run:
    """One run's vectors of the ladder's words: the pairs found (both words in the vocabulary) and each list's
    words found, case folded for an uncased vocabulary."""

    def __init__(self, kv, pairs: Sequence[tuple[str, str]]):
        from wordbias.embeddings import is_cased

        fold = (lambda w: w) if is_cased(kv) else str.lower
        self.kv = kv
        index = kv.key_to_index
        self.pairs = tuple((fold(m), fold(f)) for m, f in pairs)
        self.found = np.array([m in index and f in index for m, f in self.pairs])
        self.words = {k: tuple(w for w in map(fold, ws) if w in index) for k, ws in ladder_lists().items()}

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        return np.asarray(self.kv[list(words)], dtype=float) if len(words) else np.zeros((0, self.kv.vector_size))

    def list(self, name: str) -> np.ndarray:
        return self.vectors(self.words[name])

    def pair_words(self, mask=None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        keep = self.found if mask is None else self.found & mask
        kept = [p for p, k in zip(self.pairs, keep) if k]
        return tuple(m for m, _ in kept), tuple(f for _, f in kept)

    def pair_vectors(self, mask=None) -> tuple[np.ndarray, np.ndarray]:
        males, females = self.pair_words(mask)
        return self.vectors(males), self.vectors(females)


# --------------------------------------------------------------------------------------------------
# the tests: the library's measure, its value on some pairs, its item scores
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LadderTest:
    """One measure's gender test on the ladder.

    Attributes
    ----------
    measure : str
        The catalogue's measure.
    title : str
        What the test compares.
    items : str
        What the item scores of its test-retest reliability are.
    against : str
        ``"rate"`` or ``"strength"`` (:data:`AGAINST`).
    result : callable
        ``result(run, resampling, words)``: the library's measure on one run, its
        :class:`~wordbias.result.Result`.
    value : callable
        ``value(run, mask)``: the effect size on the pairs in ``mask`` (None: all), from the vectors.
    item_scores : callable
        ``item_scores(run)``: the items' labels and scores on all pairs.
    """

    measure: str
    title: str
    items: str
    against: str
    result: Callable
    value: Callable
    item_scores: Callable


def _cos(X, Y) -> np.ndarray:
    from wordbias.core.vectors import cosine_matrix

    return cosine_matrix(X, Y)


def _g(M, F) -> np.ndarray:
    """The PCA gender direction of the pairs (Bolukbasi et al. 2016, §5.1), towards the male words."""
    from wordbias.measures.directions.direction import pca_direction

    return pca_direction(M, F).direction


def _opts(resampling: Resampling, words: Words) -> dict:
    return dict(resampling=resampling, words=words)


def _weat_test() -> LadderTest:
    from wordbias.measures.association import measurement
    from wordbias.measures.association.weat import association, effect_size

    def result(run, resampling, words):
        males, females = run.pair_words()
        return measurement.weat(run.kv, males, females, run.words["career"], run.words["family"],
                                names={"X": "male", "Y": "female", "A": "career", "B": "family"},
                                alternative="two-sided", **_opts(resampling, words))

    def value(run, mask=None):
        M, F = run.pair_vectors(mask)
        A, B = run.list("career"), run.list("family")
        return effect_size(association(M, A, B), association(F, A, B))

    def items(run):
        males, females = run.pair_words()
        return (*males, *females), association(run.vectors(males + females), run.list("career"), run.list("family"))

    return LadderTest("weat", "male vs female words, career vs family", "s(w, career, family) per pair word",
                      AGAINST["weat"], result, value, items)


def _sc_weat_test() -> LadderTest:
    from wordbias.measures.association.scweat import sc_weat, sc_weat_effect_size

    def result(run, resampling, words):
        males, females = run.pair_words()
        return sc_weat(run.kv, run.words["career"], males, females, alternative="two-sided", warn=False,
                       **_opts(resampling, words))

    def per_word(run, mask=None):
        M, F = run.pair_vectors(mask)
        C = run.list("career")
        return np.array([sc_weat_effect_size(a, b) for a, b in zip(_cos(C, M), _cos(C, F))])

    return LadderTest("sc_weat", "career words, male vs female words", "the effect size of each career word",
                      AGAINST["sc_weat"], result, lambda run, mask=None: float(per_word(run, mask).mean()),
                      lambda run: (run.words["career"], per_word(run)))


def _wefat_test() -> LadderTest:
    from wordbias.measures.association import measurement
    from wordbias.measures.association.wefat import normalized_association

    def result(run, resampling, words):
        males, females = run.pair_words()
        return measurement.wefat(run.kv, run.words["occupations"], males, females, _percent_women(),
                                 names={"W": "occupations", "A": "male", "B": "female"}, **_opts(resampling, words))

    def scores(run, mask=None):
        M, F = run.pair_vectors(mask)
        return normalized_association(run.list("occupations"), M, F)

    def value(run, mask=None):
        share = _percent_women().reindex(run.words["occupations"]).to_numpy(float)
        return float(np.corrcoef(scores(run, mask), share)[0, 1])

    return LadderTest("wefat", "occupations' association with male vs female words against their share of women",
                      "the normalised association of each occupation", AGAINST["wefat"], result, value,
                      lambda run: (run.words["occupations"], scores(run)))


def _direction_test() -> LadderTest:
    from wordbias.measures.directions.direction_permutation import direction_test

    def result(run, resampling, words):
        males, females = run.pair_words()
        return direction_test(run.kv, males, females, run.words["career"], run.words["family"], test="ladder",
                              title="male - female words on career - family", alternative="two-sided", warn=False,
                              **_opts(resampling, words))

    def r(run):
        return run.list("career").mean(axis=0) - run.list("family").mean(axis=0)

    def value(run, mask=None):
        M, F = run.pair_vectors(mask)
        return float(_cos((M.mean(axis=0) - F.mean(axis=0))[None], r(run)[None])[0, 0])

    def items(run):
        M, F = run.pair_vectors()
        return _pair_labels(run), _cos(M - F, r(run)[None])[:, 0]

    return LadderTest("direction", "male - female words on the career - family direction",
                      "cos(m - f, career - family) per pair", AGAINST["direction"], result, value, items)


def _pair_labels(run) -> tuple[str, ...]:
    return tuple(f"{m}/{f}" for m, f in zip(*run.pair_words()))


def _direct_bias_test() -> LadderTest:
    from wordbias.measures.directions.direction import direct_bias_test

    def result(run, resampling, words):
        return direct_bias_test(run.kv, run.words["professions"], list(zip(*run.pair_words())), test="ladder",
                                warn=False, **_opts(resampling, words))

    def cosines(run, mask=None):
        return np.abs(_cos(run.list("professions"), _g(*run.pair_vectors(mask))[None])[:, 0])

    return LadderTest("direct_bias", "professions on the PCA direction of the pairs",
                      "abs(cos(w, g)) per profession", AGAINST["direct_bias"], result,
                      lambda run, mask=None: float(cosines(run, mask).mean()),
                      lambda run: (run.words["professions"], cosines(run)))


def _ripa_test() -> LadderTest:
    from wordbias.measures.directions.ripa import ripa, ripa_scores

    def result(run, resampling, words):
        return ripa(run.kv, run.words["professions"], list(zip(*run.pair_words())), units="pairs",
                    alternative="two-sided", test="ladder", warn=False, **_opts(resampling, words))

    def scores(run, mask=None):
        return np.asarray(ripa_scores(run.list("professions"), *run.pair_vectors(mask)))

    return LadderTest("ripa", "professions on each pair", "beta per profession (its mean over the pairs)",
                      AGAINST["ripa"], result, lambda run, mask=None: float(scores(run, mask).mean()),
                      lambda run: (run.words["professions"], scores(run).mean(axis=1)))


def _ect_test() -> LadderTest:
    from wordbias.measures.sets.ect import ect, ect_statistic

    def result(run, resampling, words):
        males, females = run.pair_words()
        return ect(run.kv, males, females, run.words["career"] + run.words["family"], test="ladder", warn=False,
                   names={"T1": "male", "T2": "female", "A": "career + family"}, **_opts(resampling, words))

    def value(run, mask=None):
        return ect_statistic(*run.pair_vectors(mask), np.vstack([run.list("career"), run.list("family")]))

    def items(run):
        M, F = run.pair_vectors()
        A = np.vstack([run.list("career"), run.list("family")])
        return _pair_labels(run), np.array([ect_statistic(M[i:i + 1], F[i:i + 1], A) for i in range(len(M))])

    return LadderTest("ect", "male vs female words on career + family", "ECT of each single pair (m, f)",
                      AGAINST["ect"], result, value, items)


def _rnd_test() -> LadderTest:
    from wordbias.measures.sets.rnd import rnd, rnd_statistic

    def result(run, resampling, words):
        males, females = run.pair_words()
        return rnd(run.kv, males, females, run.words["career"], test="ladder", warn=False,
                   names={"T1": "male", "T2": "female", "A": "career"}, **_opts(resampling, words))

    def items(run):
        M, F = run.pair_vectors()
        C = run.list("career")
        return run.words["career"], np.array([rnd_statistic(M, F, C[j:j + 1]) for j in range(len(C))])

    return LadderTest("rnd", "male vs female words on the career words",
                      "each career word's term of the sum", AGAINST["rnd"], result,
                      lambda run, mask=None: rnd_statistic(*run.pair_vectors(mask), run.list("career")), items)


def _rnsb_test(seed: int) -> LadderTest:
    from wordbias.measures.sets.rnsb import DEFAULT_RESAMPLING, rnsb, rnsb_statistic

    def result(run, resampling, words):
        males, females = run.pair_words()
        own = DEFAULT_RESAMPLING.replace(n_resamples=min(resampling.n_resamples, RNSB_RESAMPLES), seed=resampling.seed)
        return rnsb(run.kv, [males, females], run.words["unpleasant"], run.words["pleasant"], test="ladder",
                    warn=False, resampling=own, words=words)

    def value(run, mask=None):
        M, F = run.pair_vectors(mask)
        return rnsb_statistic([M, F], run.list("unpleasant"), run.list("pleasant"), seed=seed)

    def items(run):
        M, F = run.pair_vectors()
        U, P = run.list("unpleasant"), run.list("pleasant")
        return _pair_labels(run), np.array([rnsb_statistic([M[i:i + 1], F[i:i + 1]], U, P, seed=seed)
                                            for i in range(len(M))])

    return LadderTest("rnsb", "male and female words, unpleasant vs pleasant", "RNSB of each single pair (m, f)",
                      AGAINST["rnsb"], result, value, items)


def _mac_test() -> LadderTest:
    from wordbias.measures.sets.mac import mac, mac_statistic

    def result(run, resampling, words):
        males, females = run.pair_words()
        return mac(run.kv, [males, females], [run.words["career"], run.words["family"]], test="ladder", warn=False,
                   **_opts(resampling, words))

    def items(run):
        males, females = run.pair_words()
        attributes = [run.list("career"), run.list("family")]
        return males + females, np.array([mac_statistic(v[None], attributes)
                                          for v in run.vectors(males + females)])

    return LadderTest("mac", "male and female words, career and family", "MAC of each pair word",
                      AGAINST["mac"], result,
                      lambda run, mask=None: mac_statistic(list(run.pair_vectors(mask)),
                                                           [run.list("career"), run.list("family")]), items)


def _semaxis_test() -> LadderTest:
    from wordbias.measures.sets.semaxis import semaxis, semaxis_scores

    def result(run, resampling, words):
        males, females = run.pair_words()
        return semaxis(run.kv, males, females, run.words["career"], run.words["family"], test="ladder", warn=False,
                       names={"T1": "male", "T2": "female", "A_pos": "career", "A_neg": "family"},
                       **_opts(resampling, words))

    def value(run, mask=None):
        M, F = run.pair_vectors(mask)
        A, B = run.list("career"), run.list("family")
        return float(semaxis_scores(M, A, B).mean() - semaxis_scores(F, A, B).mean())

    def items(run):
        males, females = run.pair_words()
        return males + females, semaxis_scores(run.vectors(males + females), run.list("career"), run.list("family"))

    return LadderTest("semaxis", "male vs female words on the career - family axis", "the score of each pair word",
                      AGAINST["semaxis"], result, value, items)


def _indirect_bias_test() -> LadderTest:
    from wordbias.measures.directions.indirect_bias import indirect_bias_matrix, mean_indirect_bias

    def result(run, resampling, words):
        return mean_indirect_bias(run.kv, run.words["career"], run.words["family"], pairs=list(zip(*run.pair_words())),
                                  names={"W": "career", "V": "family"}, test="ladder", warn=False,
                                  **_opts(resampling, words))

    def matrix(run, mask=None):
        return indirect_bias_matrix(run.list("career"), run.list("family"), _g(*run.pair_vectors(mask)))

    return LadderTest("indirect_bias", "career words with family words on the PCA direction of the pairs",
                      "each career word's mean beta with the family words", AGAINST["indirect_bias"], result,
                      lambda run, mask=None: float(matrix(run, mask).mean()),
                      lambda run: (run.words["career"], matrix(run).mean(axis=1)))


def ladder_tests(*, seed: int = 0) -> dict[str, LadderTest]:
    """Return the ladder's gender test of every static measure of the catalogue but UBE (:data:`LEFT_OUT`).

    The pairs' male words are the first target set (X, T1) and their female words the second (Y, T2); for SC-WEAT
    and WEFAT they are the attribute sets (A male, B female); for the direct bias, RIPA and the indirect bias they
    define the direction (its PCA direction for the direct and indirect bias, each pair for RIPA). The attributes
    (:func:`ladder_lists`): career vs family (WEAT, SC-WEAT's targets the career words, direction, ECT pooled,
    RND the career words, MAC, SemAxis, the indirect bias of the career with the family words), unpleasant vs
    pleasant (RNSB's classifier, as Sweeney & Najafian's sentiment), the WEFAT occupations with their share of
    women, the debiaswe professions (direct bias, RIPA). Tests are two-sided where the measure offers it (ECT's is
    one-sided, "less": its permutation null's rho lies below 1, so a two-sided test would flag no bias).

    Parameters
    ----------
    seed : int, default 0
        The seed of RNSB's classifier in its value and item scores.

    Returns
    -------
    dict of str to LadderTest
        By measure, in the catalogue's order.

    Examples
    --------
    >>> tests = ladder_tests()
    >>> list(tests)[:4], tests["ect"].against, tests["weat"].items
    (['weat', 'wefat', 'direction', 'direct_bias'], 'strength', 's(w, career, family) per pair word')
    """
    seed = check_seed("seed", seed)
    made = {t.measure: t for t in (_weat_test(), _sc_weat_test(), _wefat_test(), _direction_test(),
                                   _direct_bias_test(), _ripa_test(), _ect_test(), _rnd_test(), _rnsb_test(seed),
                                   _mac_test(), _semaxis_test(), _indirect_bias_test())}
    return {m: made[m] for m in _catalogue.CATALOGUE if m in made}


# --------------------------------------------------------------------------------------------------
# measuring the ladder
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Ladder:
    """The ladder measured: every run's rows, item scores and values on halves of the pairs.

    Attributes
    ----------
    rows : pandas.DataFrame
        The tidy rows (:mod:`wordbias.core.tidy`), one per (run, measure), with two more columns at the end:
        ``rate`` and ``run`` (the run's position among its rate's runs). ``rows[list(tidy.COLUMNS)]`` is tidy.
    items : pandas.DataFrame
        ``measure``, ``rate``, ``run``, ``item``, ``score``: the item scores (:attr:`LadderTest.items`).
    halves : pandas.DataFrame
        ``measure``, ``rate``, ``run``, ``split``, ``half`` (1 or 2), ``value``: the measure on each half of the
        pairs of each split (:func:`wordbias.stats.reliability.random_halves`).
    label : str
        The ladder's name (the rows' ``embedding`` begins with it).
    """

    rows: pd.DataFrame
    items: pd.DataFrame
    halves: pd.DataFrame
    label: str


def _check_runs(runs) -> list[tuple[float, list]]:
    if not isinstance(runs, Mapping) or len(runs) < 2:
        raise InvalidParameterError(f"runs must map at least 2 rates to their runs, not {type(runs).__name__}"
                                    f"{' of ' + str(len(runs)) if isinstance(runs, Mapping) else ''}")
    out = []
    for rate, seq in runs.items():
        r = check_real("rate", rate, low=0, high=1)
        n = len(seq) if hasattr(seq, "__len__") and not isinstance(seq, (str, bytes)) else 0
        if n < 1:
            raise InvalidParameterError(f"rate {rate!r} needs a sequence of at least one run (an embedding each), "
                                        f"not {seq!r:.60}")
        out.append((r, seq))
    return sorted(out, key=lambda x: x[0])


def _check_pairs(pairs) -> tuple[tuple[str, str], ...]:
    if isinstance(pairs, (str, bytes)) or not isinstance(pairs, Sequence):
        raise InvalidParameterError(f"pairs must be a sequence of (male, female) word pairs, not "
                                    f"{type(pairs).__name__}")
    out = []
    for p in pairs:
        if (isinstance(p, (str, bytes)) or not isinstance(p, Sequence) or len(p) != 2
                or not all(isinstance(w, str) and w for w in p) or p[0] == p[1]):
            raise InvalidParameterError(f"each pair must be two different non-empty words (male, female), not {p!r}")
        out.append((p[0], p[1]))
    if len(out) < 4:
        raise InvalidParameterError(f"the ladder needs at least 4 pairs (2 per half of a split), not {len(out)}")
    return tuple(out)


def _load(seq, i: int):
    from wordbias.battery.weat import as_keyed_vectors

    return seq.load(i) if hasattr(seq, "load") and hasattr(seq, "sources") else as_keyed_vectors(seq[i])


def _quiet(f, *args):
    """``f(*args)``, its warnings silenced; NaN when the measure cannot be made (words missing, a set too
    small)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*args)
    except NOT_RUN_ERRORS:
        return None


def _not_run_row(test: LadderTest, err: BaseException) -> dict:
    return {"title": test.title, "measure": test.measure, "note": _tidy.not_run_note(err)}


def _measure_run(run: _Run, tests: Mapping[str, LadderTest], *, base: dict, splits: np.ndarray,
                 resampling: Resampling, words: Words):
    """Every test on one run: its rows, item scores and half values."""
    from threadpoolctl import threadpool_limits

    rows, items, halves = [], [], []
    with threadpool_limits(1):
        for m, t in tests.items():
            head = {**base, "paper": PAPER[m], "battery": BATTERY, "test": f"ladder:{m}"}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    rows.append(t.result(run, resampling, words).to_row(head))
            except NOT_RUN_ERRORS as err:
                rows.append({**head, **_not_run_row(t, err)})
            got = _quiet(t.item_scores, run)
            if got is not None:
                items += [(m, w, float(s)) for w, s in zip(*got)]
            for k, first in enumerate(splits):
                for half, mask in ((1, first), (2, ~first)):
                    v = _quiet(t.value, run, mask)
                    halves.append((m, k, half, math.nan if v is None else float(v)))
    return rows, items, halves


def _chosen(tests: dict[str, LadderTest], measures) -> dict[str, LadderTest]:
    if measures is None:
        return tests
    if isinstance(measures, str) or not isinstance(measures, Sequence) or not measures:
        raise InvalidParameterError(f"measures must be a non-empty sequence of measure names, not {measures!r}")
    unknown = [m for m in measures if m not in tests]
    if unknown:
        why = "; ".join(LEFT_OUT[m] for m in unknown if m in LEFT_OUT)
        raise InvalidParameterError(f"the ladder has no test of {unknown} (its measures: {', '.join(tests)})"
                                    + (f"; {why}" if why else ""))
    return {m: t for m, t in tests.items() if m in measures}


def measure_ladder(runs: Mapping, pairs: Sequence[tuple[str, str]], *, label: str = "ladder", seed: int = 0,
                   n_permutations: int = 1_000, n_resamples: int = 200, n_splits: int = 20,
                   measures: Sequence[str] | None = None, progress: bool = False) -> Ladder:
    """Measure every test of :func:`ladder_tests` on every run of the ladder, each run loaded once.

    Per run: each measure's :class:`~wordbias.result.Result` (its rows), its item scores (for the test-retest
    reliability) and its value on each half of ``n_splits`` random splits of the pairs (for the split-half
    reliability; the splits are the same for every run). A measure a run cannot make gives a row with NA numbers
    and the reason; coverage per set is in every row.

    Parameters
    ----------
    runs : mapping of float to sequence
        Rate in [0, 1] -> the runs trained at that rate: a sequence of embeddings (``KeyedVectors``, or anything
        :func:`wordbias.embeddings.load` takes) or an :class:`~wordbias.embeddings.ensemble.Ensemble`. At least 2
        rates.
    pairs : sequence of (str, str)
        The (male, female) word pairs, at least 4.
    label : str, default "ladder"
        The rows' ``embedding`` begins with it (``"<label> rate 0.25 run 1"``).
    seed : int, default 0
        The seed of every random draw (the bootstraps, the Monte Carlo tests, the splits, RNSB's classifier).
    n_permutations : int, default 1000
        The Monte Carlo draws of a permutation test that cannot be counted exactly.
    n_resamples : int, default 200
        The bootstrap resamples of each interval (RNSB: at most :data:`RNSB_RESAMPLES`).
    n_splits : int, default 20
        The random splits of the pairs into halves.
    measures : sequence of str, optional
        The measures to run (some of :func:`ladder_tests`'); default: all.
    progress : bool, default False
        Show a progress bar over the runs.

    Returns
    -------
    Ladder
        The rows, item scores and half values.

    Raises
    ------
    InvalidParameterError
        When the runs, pairs or an option are invalid.

    Examples
    --------
    See :func:`validity_table`.
    """
    if not isinstance(label, str) or not label:
        raise InvalidParameterError(f"label must be a non-empty string, not {label!r}")
    rates = _check_runs(runs)
    pairs = _check_pairs(pairs)
    seed = check_seed("seed", seed)
    resampling = Resampling(n_resamples=check_int("n_resamples", n_resamples, min=2),
                            n_permutations=check_int("n_permutations", n_permutations, min=1), seed=seed)
    splits = random_halves(len(pairs), check_int("n_splits", n_splits, min=1), seed=seed)
    tests = _chosen(ladder_tests(seed=seed), measures)
    words = Words(min_words=2, min_fraction=0.5)
    rows, items, halves, where = [], [], [], []
    with progress_bar(sum(len(s) for _, s in rates), desc=f"ladder {label}", unit="run", enabled=progress) as bar:
        for rate, seq in rates:
            for i in range(len(seq)):
                base = {"embedding": f"{label} rate {rate:g} run {i}", "seed": seed}
                r, it, hv = _measure_run(_Run(_load(seq, i), pairs), tests, base=base, splits=splits,
                                         resampling=resampling, words=words)
                rows += r
                where += [(rate, i)] * len(r)
                items += [(m, rate, i, w, s) for m, w, s in it]
                halves += [(m, rate, i, k, h, v) for m, k, h, v in hv]
                bar.update(1)
    frame = _tidy.tidy_frame(rows)
    frame["rate"] = [r for r, _ in where]
    frame["run"] = [i for _, i in where]
    return Ladder(frame, pd.DataFrame(items, columns=["measure", "rate", "run", "item", "score"]),
                  pd.DataFrame(halves, columns=["measure", "rate", "run", "split", "half", "value"]), label)


def ladder_rows(runs: Mapping, pairs: Sequence[tuple[str, str]], *, seed: int = 0, n_permutations: int = 1_000,
                n_resamples: int = 200, progress: bool = False) -> pd.DataFrame:
    """Return the tidy rows of every ladder test on every run, with ``rate`` and ``run`` columns.

    :attr:`Ladder.rows` of :func:`measure_ladder` (one split of the pairs: the rows do not depend on the splits).

    Parameters
    ----------
    runs, pairs, seed, n_permutations, n_resamples, progress
        As :func:`measure_ladder`.

    Returns
    -------
    pandas.DataFrame
        The rows.

    Examples
    --------
    See :func:`validity_table`.
    """
    return measure_ladder(runs, pairs, seed=seed, n_permutations=n_permutations, n_resamples=n_resamples,
                          n_splits=1, progress=progress).rows


# --------------------------------------------------------------------------------------------------
# the validity table
# --------------------------------------------------------------------------------------------------

def _values(rows: pd.DataFrame) -> pd.Series:
    """Each row's value: its effect size, or its statistic where it has none."""
    return rows["effect_size"].where(rows["effect_size"].notna(), rows["statistic"]).astype(float)


def _planted(rates: np.ndarray, against: str) -> np.ndarray:
    return rates if against == "rate" else np.abs(1 - 2 * rates)


def _stratified(rates: np.ndarray, n_resamples: int, rng) -> np.ndarray:
    """Bootstrap indices of the runs, resampled within each rate: shape (n_resamples, n_runs)."""
    idx = np.empty((n_resamples, len(rates)), dtype=int)
    for r in np.unique(rates):
        where = np.flatnonzero(rates == r)
        idx[:, where] = rng.choice(where, size=(n_resamples, len(where)))
    return idx


def _spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row of the values x with the same row of the planted rates y (NaN where a row is
    constant). The rates' ties take average ranks; the values' ties are broken by position: in a bootstrap
    resample the copies of one run are distinct observations, and ranking them alike would shrink the spread
    within a rate and bias every resample's rho away from the estimate's."""
    from scipy.stats import rankdata

    rx, ry = rankdata(x, axis=-1, method="ordinal"), rankdata(y, axis=-1)
    rx, ry = rx - rx.mean(axis=-1, keepdims=True), ry - ry.mean(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (rx * ry).sum(-1) / np.sqrt((rx ** 2).sum(-1) * (ry ** 2).sum(-1))


def _interval(estimates: np.ndarray, level: float) -> tuple[float, float]:
    e = estimates[np.isfinite(estimates)]
    if len(e) < 2:
        return math.nan, math.nan
    return tuple(float(q) for q in np.quantile(e, [(1 - level) / 2, (1 + level) / 2]))


@dataclass(frozen=True)
class _Opts:
    rate: float
    alpha: float
    n_resamples: int
    seed: int
    level: float

    @property
    def method(self) -> str:
        return f"percentile {self.level:.0%}, {self.n_resamples:,} resamples"


def _row(measure: str, test: str, name: str, value: float, lo: float = math.nan, hi: float = math.nan, *,
         method: str = "none", opts: _Opts | None = None, note: str = "", **extra) -> dict:
    return {"paper": PAPER.get(measure), "battery": BATTERY, "test": test, "measure": measure,
            "effect_size_name": name, "effect_size": value, "ci_low": lo, "ci_high": hi, "ci_method": method,
            "ci_level": opts.level if opts is not None and method != "none" else None, "note": note, **extra}


def _validity(measure: str, runs: pd.DataFrame, o: _Opts) -> dict:
    against = AGAINST[measure]
    ok = runs[_values(runs).notna()]
    v, rates = _values(ok).to_numpy(), ok["rate"].to_numpy(float)
    x = _planted(rates, against)
    what = "the planted rate p" if against == "rate" else "the planted strength abs(1 - 2p)"
    if len(np.unique(rates)) < 2 or len(v) < 3:
        return _row(measure, "validity", "validity rho", math.nan, note=f"not computed: fewer than 2 rates or 3 runs "
                    f"with a value (rho against {what})", n_x=len(v))
    rho = float(_spearman_rows(v, x))
    idx = _stratified(rates, o.n_resamples, np.random.default_rng(o.seed))
    lo, hi = _interval(_spearman_rows(v[idx], x[idx]), o.level)
    excludes = bool(lo > 0 or hi < 0)
    note = (f"Spearman rho of the value with {what} over {len(v)} runs, runs resampled within each rate; the "
            f"interval {'excludes' if excludes else 'covers'} 0")
    if lo == hi:
        note += ("; every resample gives the same rho: the runs of each rate lie wholly above or below those of the "
                 "next, which a resample of the same runs cannot undo, so the interval cannot show how often more "
                 "seeds would keep that order")
    return _row(measure, "validity", "validity rho", rho, lo=lo, hi=hi, method=o.method + " of the runs within "
                "each rate", opts=o, note=note, n_x=len(v))


def _item_cube(items: pd.DataFrame, rates: Sequence[float]) -> tuple[np.ndarray, int]:
    """The item scores as (rates, items, seeds), the items and seeds every rate has; seeds cut to the fewest."""
    per = [items[items.rate == r].pivot_table(index="item", columns="run", values="score", aggfunc="first")
           for r in rates]
    common = sorted(set.intersection(*(set(p.dropna().index) for p in per)))
    k = min(p.shape[1] for p in per)
    return np.stack([p.loc[common].iloc[:, :k].to_numpy(float) for p in per]), len(common)


def _icc_rows(measure: str, items: pd.DataFrame, what: str, o: _Opts) -> list[dict]:
    rates = sorted(items.rate.unique()) if len(items) else []
    label = {"rate": f"test-retest ICC at rate {o.rate:g}", "mean": "test-retest ICC, mean over rates"}
    if len(rates) == 0 or o.rate not in rates:
        why = "no item scores" if not rates else f"rate {o.rate:g} not in the ladder"
        return [_row(measure, t, "test-retest ICC", math.nan, note=f"not computed: {why}") for t in label.values()]
    cube, n_items = _item_cube(items, rates)
    if n_items < 2 or cube.shape[2] < 2:
        return [_row(measure, t, "test-retest ICC", math.nan, note=f"not computed: {n_items} items and "
                     f"{cube.shape[2]} seeds (2 of each needed)") for t in label.values()]
    rng = np.random.default_rng(o.seed)
    draws = rng.integers(0, n_items, size=(o.n_resamples, n_items))
    at = rates.index(o.rate)
    icc = np.array([icc_a1(c) for c in cube])
    boot = np.array([[icc_a1(c[d]) if np.ptp(c[d]) > 0 else math.nan for c in cube] for d in draws])
    note = (f"ICC(A,1) (Du et al. 2021, section 3.1): the {n_items} items ({what}) as subjects, the "
            f"{cube.shape[2]} seeds as raters; items resampled")
    common = dict(method=o.method + " of the items", opts=o, n_x=n_items, n_y=cube.shape[2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean_boot = np.nanmean(boot, axis=1)
    return [_row(measure, label["rate"], "test-retest ICC", float(icc[at]), *_interval(boot[:, at], o.level),
                 note=note, **common),
            _row(measure, label["mean"], "test-retest ICC", float(np.mean(icc)), *_interval(mean_boot, o.level),
                 note=note + f"; the mean over {len(rates)} rates", **common)]


def _split_half(measure: str, halves: pd.DataFrame, o: _Opts) -> dict:
    wide = halves.pivot_table(index=["rate", "run"], columns=["split", "half"], values="value", aggfunc="first")
    wide = wide.dropna()
    n_splits = len({k for k, _ in wide.columns})
    if len(wide) < 3 or n_splits == 0:
        return _row(measure, "split-half", "split-half r_SB", math.nan,
                    note=f"not computed: {len(wide)} runs with a value on every half (3 needed)")
    first = np.stack([wide[(k, 1)].to_numpy() for k in range(n_splits) if (k, 1) in wide])
    second = np.stack([wide[(k, 2)].to_numpy() for k in range(n_splits) if (k, 2) in wide])
    rates = wide.index.get_level_values("rate").to_numpy(float)
    value = half_correlation(first, second)
    how = (f"the pairs split at random into halves {n_splits} times; Pearson r of the halves' values over "
           f"{len(wide)} runs averaged over the splits, then 2r/(1 + r)")
    r = value / (2 - value) if math.isfinite(value) else math.nan      # the mean r back from 2r / (1 + r)
    if not r >= 0:
        # the Spearman-Brown step-up assumes halves that measure the same thing; halves that disagree (r < 0) have no
        # consistency to step up, and 2r/(1 + r) would only exaggerate the disagreement (it has a pole at r = -1)
        return _row(measure, "split-half", "split-half r_SB", math.nan, n_x=len(wide),
                    note=f"NA: the halves disagree (mean r = {r:.2f} over the splits, negative), so there is no "
                         f"internal consistency to step up; {how}")
    idx = _stratified(rates, o.n_resamples, np.random.default_rng(o.seed))
    boot = np.array([_safe_half(first[:, i], second[:, i]) for i in idx])
    return _row(measure, "split-half", "split-half r_SB", value, *_interval(boot, o.level),
                method=o.method + " of the runs within each rate", opts=o, n_x=len(wide),
                note=f"{how}; mean r = {r:.2f}")


def _safe_half(a: np.ndarray, b: np.ndarray) -> float:
    try:
        return half_correlation(a, b)
    except InvalidParameterError:
        return math.nan


def _flagged_rows(measure: str, runs: pd.DataFrame, o: _Opts) -> list[dict]:
    from scipy.stats import binomtest

    if not _catalogue.has_test(measure):
        return [_row(measure, "flagged", "share flagged", math.nan,
                     note=f"no test: {_catalogue.spec(measure).name} is descriptive (catalogue), so no share of runs "
                          "can be flagged")]
    out = []
    for rate, g in runs.groupby("rate"):
        p = g["p_value"].dropna().to_numpy(float)
        if len(p) == 0:
            out.append(_row(measure, f"flagged at rate {rate:g}", "share flagged", math.nan,
                            note="not computed: no run with a p-value"))
            continue
        k = int((p < o.alpha).sum())
        ci = binomtest(k, len(p)).proportion_ci(o.level, method="exact")
        fp = " (the false-positive rate: the corpus is symmetric under the swap)" if rate == 0.5 else ""
        out.append(_row(measure, f"flagged at rate {rate:g}", "share flagged", k / len(p), lo=ci.low, hi=ci.high,
                        method=f"Clopper-Pearson {o.level:.0%}", opts=o, n_x=len(p),
                        note=f"{k} of {len(p)} runs with p < {o.alpha:g} ({_alternative(g)}){fp}"))
    return out


def _alternative(runs: pd.DataFrame) -> str:
    alternatives = sorted(set(runs["alternative"].dropna()))
    return "the test's alternative: " + (", ".join(alternatives) if alternatives else "NA")


def _told_apart_rows(measure: str, runs: pd.DataFrame, o: _Opts) -> list[dict]:
    """The share of pairs of rungs told apart at each difference in the planted value: the rate for a signed
    measure, the strength ∣1 − 2p∣ for a measure blind to the sign (whose rates p and 1 − p plant the same value,
    and are not compared)."""
    from scipy.stats import ttest_ind

    against = AGAINST[measure]
    by: dict[float, list] = {}
    for r, g in runs.groupby("rate"):
        by.setdefault(round(float(_planted(np.array([float(r)]), against)[0]), 10), []).extend(_values(g).dropna())
    levels = sorted(by)
    what = "rates" if against == "rate" else "strengths ∣1 − 2p∣"
    found: dict[float, list[bool]] = {}
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            x, y = np.asarray(by[a]), np.asarray(by[b])
            if len(x) < 2 or len(y) < 2:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                p = ttest_ind(x, y, equal_var=False).pvalue
            found.setdefault(round(b - a, 10), []).append(bool(p < o.alpha))
    out = [_row(measure, f"told apart at difference {d:g}", "share told apart", float(np.mean(v)), n_x=len(v),
                note=f"{sum(v)} of {len(v)} pairs of {what} {d:g} apart whose values over seeds a Welch t test tells "
                     f"apart at alpha {o.alpha:g} (an undefined t, both values constant, counts as not)")
           for d, v in sorted(found.items())]
    all_apart = [d for d, v in sorted(found.items()) if all(v)]
    out.append(_row(measure, "smallest difference told apart", "smallest difference told apart",
                    all_apart[0] if all_apart else math.nan,
                    note=(f"the smallest difference in planted {what.removesuffix('s')} at which every pair is told "
                          "apart" if all_apart else f"NA: at no difference in planted {what.removesuffix('s')} are "
                          "all pairs told apart")))
    return out


def validity_table(ladder: Ladder, *, rate: float = 0.0, alpha: float = 0.05, n_resamples: int = 1_000,
                   seed: int = 0, confidence_level: float = 0.95) -> pd.DataFrame:
    """Return the validity, reliability and power of every ladder measure as tidy rows.

    Per measure (the catalogue's static measures; UBE with its reason, :data:`LEFT_OUT`):

    * ``validity``: Spearman's rho of the measure's value (its effect size; its statistic where it has none) with
      the planted rate over all runs (with ∣1 − 2p∣ for a measure blind to the sign, :data:`AGAINST`), with a
      percentile bootstrap interval over the runs resampled within each rate; the note says whether it excludes 0;
    * ``test-retest ICC at rate <rate>`` and ``..., mean over rates``: ICC(A,1) with the items
      (:attr:`LadderTest.items`) as subjects and the seeds as raters (Du et al. 2021, §3.1), the interval a
      bootstrap over the items (those scored in every run);
    * ``split-half``: the pairs split at random into halves, the measure on each half of every run, Pearson's r
      of the halves over the runs averaged over the splits and stepped up by Spearman-Brown, 2r/(1 + r); a bootstrap
      over the runs within each rate;
    * ``flagged at rate <p>``: the share of runs whose own test has p < ``alpha`` (two-sided where the measure
      offers it, :func:`ladder_tests`; ECT's one-sided "less", its null's rho lying below 1), with its
      Clopper-Pearson interval; at rate 0.5 the false-positive rate (one NA row for a measure without a test);
    * ``told apart at difference <d>``: the share of pairs of rates d apart whose values over seeds a Welch t test
      tells apart at ``alpha``; ``smallest difference told apart``: the smallest d at which all are (NA if none).

    Parameters
    ----------
    ladder : Ladder
        The measured ladder (:func:`measure_ladder`).
    rate : float, default 0.0
        The rate of the test-retest reliability (its mean over the rates is given too).
    alpha : float, default 0.05
        The level of the tests counted as power.
    n_resamples : int, default 1000
        The bootstrap resamples of each interval.
    seed : int, default 0
        The seed of the bootstraps.
    confidence_level : float, default 0.95
        The intervals' level.

    Returns
    -------
    pandas.DataFrame
        The tidy table (``embedding`` is the ladder's label, ``battery`` ``"ladder"``), the figure's name in
        ``effect_size_name``, the number of runs, items or pairs in ``n_x`` (seeds in ``n_y``).

    Raises
    ------
    InvalidParameterError
        When ``ladder`` is not a :class:`Ladder` or an option is invalid.

    Examples
    --------
    A ladder of random vectors: a gender component (1 − 2p) along one axis in the pairs' words (the swap moves
    them), a fixed one in the career (+1) and family (−1) words:

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> pairs = [("he", "she"), ("man", "woman"), ("boy", "girl"), ("father", "mother"), ("son", "daughter")]
    >>> lists = ladder_lists()
    >>> words = sorted({w for p in pairs for w in p} | set(lists["career"] + lists["family"]))
    >>> gender = {**{m: 1 for m, _ in pairs}, **{f: -1 for _, f in pairs}}
    >>> attribute = {**{w: 1 for w in lists["career"]}, **{w: -1 for w in lists["family"]}}
    >>> male = {f: m for m, f in pairs}
    >>> base = dict(zip(words, np.random.default_rng(9).normal(size=(len(words), 10))))
    >>> def run(p, seed):
    ...     V = np.array([base[male.get(w, w)] for w in words])          # a pair's words alike but for gender
    ...     V += 0.05 * np.random.default_rng(seed).normal(size=V.shape)
    ...     V[:, 0] += [(1 - 2 * p) * gender[w] if w in gender else attribute[w] for w in words]
    ...     return to_keyed_vectors(words, V)
    >>> ladder = measure_ladder({p: [run(p, s) for s in range(3)] for p in (0, 0.5, 1)}, pairs, n_resamples=20,
    ...                         n_permutations=100, n_splits=3, measures=["weat", "semaxis"])
    >>> t = validity_table(ladder, n_resamples=100)
    >>> v = t[(t.measure == "weat") & (t.test == "validity")].iloc[0]
    >>> bool(v.effect_size < -0.8), bool(v.ci_high < 0)
    (True, True)
    >>> validity_wide(t).loc["weat", "flagged at rate 0.5"]          # the false-positive rate
    np.float64(0.0)
    """
    if not isinstance(ladder, Ladder):
        raise InvalidParameterError(f"ladder must be a Ladder (measure_ladder), not {type(ladder).__name__}")
    o = _Opts(rate=check_real("rate", rate, low=0, high=1),
              alpha=check_real("alpha", alpha, low=0, high=1, low_open=True, high_open=True),
              n_resamples=check_int("n_resamples", n_resamples, min=2), seed=check_seed("seed", seed),
              level=check_real("confidence_level", confidence_level, low=0, high=1, low_open=True, high_open=True))
    tests = ladder_tests(seed=0)
    rows = []
    for m in _catalogue.CATALOGUE:
        if m in LEFT_OUT:
            rows.append(_row(m, "validity", "validity rho", math.nan, note=LEFT_OUT[m]))
        if m not in tests or not (ladder.rows.measure == m).any():
            continue
        runs = ladder.rows[ladder.rows.measure == m]
        rows.append(_validity(m, runs, o))
        rows += _icc_rows(m, ladder.items[ladder.items.measure == m], tests[m].items, o)
        rows.append(_split_half(m, ladder.halves[ladder.halves.measure == m], o))
        rows += _flagged_rows(m, runs, o) + _told_apart_rows(m, runs, o)
    frame = _tidy.tidy_frame([{"embedding": ladder.label, "seed": o.seed, "n_resamples": o.n_resamples, **r}
                              for r in rows])
    return frame


def rate_means(rows: pd.DataFrame) -> pd.DataFrame:
    """Return each measure's mean value and its standard deviation over the runs at each rate.

    Parameters
    ----------
    rows : pandas.DataFrame
        :attr:`Ladder.rows`.

    Returns
    -------
    pandas.DataFrame
        ``measure``, ``rate``, ``mean``, ``sd``, ``n`` (runs with a value).

    Examples
    --------
    >>> rows = pd.DataFrame({"measure": ["weat"] * 4, "rate": [0, 0, 1, 1], "effect_size": [1.0, 1.2, -1.0, -0.8],
    ...                      "statistic": [0.0] * 4})
    >>> rate_means(rows)["mean"].round(2).tolist()
    [1.1, -0.9]
    """
    frame = rows.assign(value=_values(rows))
    g = frame.dropna(subset=["value"]).groupby(["measure", "rate"], sort=False)["value"]
    return g.agg(mean="mean", sd="std", n="count").reset_index()


def validity_wide(table: pd.DataFrame) -> pd.DataFrame:
    """Return :func:`validity_table` as one row per measure: each figure with its interval.

    Parameters
    ----------
    table : pandas.DataFrame
        The tidy validity table.

    Returns
    -------
    pandas.DataFrame
        Indexed by measure; per figure (the test names of the table) a column ``<test>`` and, where it has an
        interval, ``<test> low`` and ``<test> high``; ``against``, ``items``, ``note`` (UBE's reason).

    Examples
    --------
    See :func:`validity_table`.
    """
    tests = ladder_tests()
    cols: dict[str, dict] = {}
    for r in table.itertuples():
        row = cols.setdefault(r.measure, {"against": AGAINST.get(r.measure, pd.NA),
                                          "items": tests[r.measure].items if r.measure in tests else pd.NA,
                                          "note": LEFT_OUT.get(r.measure, "")})
        row[r.test] = r.effect_size
        if pd.notna(r.ci_low):
            row[f"{r.test} low"], row[f"{r.test} high"] = r.ci_low, r.ci_high
    return pd.DataFrame.from_dict(cols, orient="index").rename_axis("measure")


def ladder_figure(rows: pd.DataFrame, *, seed: int = 0, columns: int = 4):
    """Draw one small panel per measure: every run's value against the rate (points jittered a little), the mean
    per rate with one standard deviation either side, and the measure's no-bias line (catalogue ``no_bias``).

    Parameters
    ----------
    rows : pandas.DataFrame
        :attr:`Ladder.rows`.
    seed : int, default 0
        The seed of the jitter.
    columns : int, default 4
        Panels per line.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    InvalidParameterError
        When ``rows`` has no measured value.

    Examples
    --------
    >>> rows = pd.DataFrame({"measure": ["weat"] * 4, "rate": [0, 0, 1, 1], "effect_size": [1.0, 1.2, -1.0, -0.8],
    ...                      "statistic": [0.0] * 4, "effect_size_name": ["d"] * 4})
    >>> len(ladder_figure(rows).axes)
    1
    """
    import matplotlib.pyplot as plt

    columns = check_int("columns", columns, min=1)
    frame = rows.assign(value=_values(rows)).dropna(subset=["value"])
    if frame.empty:
        raise InvalidParameterError("rows has no measured value to draw")
    measures = [m for m in _catalogue.CATALOGUE if m in set(frame.measure)]
    n_rows = math.ceil(len(measures) / columns)
    fig, axes = plt.subplots(n_rows, min(columns, len(measures)), figsize=(2.6 * min(columns, len(measures)),
                                                                           2.2 * n_rows), squeeze=False,
                             constrained_layout=True)
    rng = np.random.default_rng(check_seed("seed", seed))
    means = rate_means(frame)
    for ax, m in zip(axes.flat, measures):
        g, s = frame[frame.measure == m], means[means.measure == m]
        span = float(np.ptp(frame.rate.unique())) or 1.0
        ax.scatter(g.rate + rng.uniform(-0.02, 0.02, len(g)) * span, g.value, s=10, alpha=0.6, color="tab:blue",
                   linewidths=0)
        ax.errorbar(s.rate, s["mean"], yerr=s.sd.fillna(0), color="black", marker="_", markersize=10, capsize=2,
                    linewidth=1)
        no_bias = _catalogue.spec(m).no_bias
        if no_bias is not None:
            ax.axhline(no_bias, color="grey", linewidth=0.8, linestyle="--")
        name = g.effect_size_name.dropna().iloc[0] if "effect_size_name" in g and g.effect_size_name.notna().any() \
            else "value"
        ax.set_title(_catalogue.spec(m).name, fontsize=9)
        ax.set_ylabel(name, fontsize=8)
        ax.set_xlabel("rate swapped", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(measures):]:
        ax.set_visible(False)
    return fig


# --------------------------------------------------------------------------------------------------
# the one call: a trained ladder to its validity table
# --------------------------------------------------------------------------------------------------

def shared_pairs(ladder) -> tuple[tuple[str, str], ...]:
    """Return the ladder's pairs whose two words every run knows.

    A swap moves counts between a pair's words, so a word too rare for ``min_count`` in the original corpus can
    pass it at another rate (*spokeswoman* borrows *spokesman*'s sentences): measured on the pairs every run knows,
    the runs of every rate measure the same words, and differ in their training only.

    Parameters
    ----------
    ladder : wordbias.models.ladder.Ladder
        The trained ladder.

    Returns
    -------
    tuple of (str, str)
        The pairs, in the ladder's order.

    Examples
    --------
    See :func:`ladder_validity`.
    """
    known = None
    for ensemble in ladder.ensembles:
        for i in range(len(ensemble)):
            words = set(ensemble.load(i).key_to_index)
            known = words if known is None else known & words
    return tuple(p for p in ladder.pairs if p[0] in known and p[1] in known)


class LadderValidity(NamedTuple):
    """What :func:`ladder_validity` returns (a tuple: ``measured, table, pairs = ladder_validity(...)``).

    Attributes
    ----------
    measured : Ladder
        The measured ladder (:func:`measure_ladder`): every run's rows, item scores and half values.
    table : pandas.DataFrame
        The validity table's tidy rows (:func:`validity_table`; :func:`validity_wide` is one row per measure).
    pairs : tuple of (str, str)
        The pairs measured: those every run knows (:func:`shared_pairs`).
    """

    measured: Ladder
    table: pd.DataFrame
    pairs: tuple[tuple[str, str], ...]


def _trained_ladder(ladder):
    """A trained ladder as given, or opened from its folder or ``ladder.json``."""
    from wordbias.models import ladder as ladders

    if isinstance(ladder, ladders.Ladder):
        return ladder
    if isinstance(ladder, (str, os.PathLike)):
        return ladders.load_ladder(ladder)
    raise InvalidParameterError(f"ladder must be a trained ladder (wordbias.models.ladder.Ladder), its folder or its "
                                f"{ladders.LADDER_FILE}, not {type(ladder).__name__}")


def ladder_validity(ladder, *, label: str | None = None, rate: float | None = None, seed: int = 0,
                    n_permutations: int = 1_000, n_resamples: int = 200, n_splits: int = 20,
                    table_resamples: int = 1_000, measures: Sequence[str] | None = None,
                    progress: bool = False) -> LadderValidity:
    """Measure a trained ladder and return its validity table: :func:`measure_ladder` on every run of every rate,
    on the pairs every run knows (:func:`shared_pairs`), then :func:`validity_table`.

    Parameters
    ----------
    ladder : wordbias.models.ladder.Ladder, str or path-like
        The trained ladder (:func:`wordbias.models.ladder.train_ladder`, ``wordbias train --swap-rate``), or its
        folder, or its ``ladder.json``.
    label : str, optional
        The rows' ``embedding`` begins with it (default: the name of the ladder's folder).
    rate : float, optional
        The rate of the test-retest reliability (default: the ladder's lowest rate, 0 for a ladder from 0).
    seed : int, default 0
        The seed of every random draw of the measures and of the table's bootstraps.
    n_permutations, n_resamples, n_splits, measures, progress
        As :func:`measure_ladder` (``n_resamples``: each run's intervals).
    table_resamples : int, default 1000
        The bootstrap resamples of the validity table's intervals (:func:`validity_table`'s ``n_resamples``).

    Returns
    -------
    LadderValidity
        The measured ladder, the validity table's tidy rows and the pairs measured.

    Raises
    ------
    wordbias.core.errors.EnsembleError
        When a path is not a ladder's folder or ``ladder.json`` (:func:`wordbias.models.ladder.load_ladder`).
    InvalidParameterError
        When ``ladder`` is of another type, fewer than 4 pairs are known to every run, ``rate`` is not one of the
        ladder's rates, or an option is invalid.

    Examples
    --------
    A tiny ladder: random sentences of four gender pairs and the career and family words, 3 rates x 2 seeds:

    >>> import tempfile, pathlib
    >>> from wordbias.models.ladder import LadderSpec, train_ladder
    >>> from wordbias.models.train import TrainingSettings
    >>> base = pathlib.Path(tempfile.mkdtemp())
    >>> pairs = [("he", "she"), ("man", "woman"), ("boy", "girl"), ("father", "mother")]
    >>> words = [w for p in pairs for w in p] + list(ladder_lists()["career"] + ladder_lists()["family"])
    >>> rng = np.random.default_rng(0)
    >>> _ = (base / "corpus.txt").write_text("".join(" ".join(rng.choice(words, 8)) + "\\n" for _ in range(200)))
    >>> path = train_ladder(str(base / "corpus.txt"), base / "ladder", LadderSpec((0, 0.5, 1), pairs), seeds=2,
    ...                     settings=TrainingSettings(vector_size=10, epochs=1, min_count=1), workers=1,
    ...                     progress=False, cache_dir=base / "cache")
    >>> measured, table, used = ladder_validity(path, measures=["weat", "semaxis"], n_permutations=100,
    ...                                         n_resamples=20, n_splits=3, table_resamples=100)
    >>> len(used), len(measured.rows), sorted(set(measured.rows.rate)), measured.label
    (4, 12, [0.0, 0.5, 1.0], 'ladder')
    >>> table[table.measure == "weat"].test.tolist()[:4]
    ['validity', 'test-retest ICC at rate 0', 'test-retest ICC, mean over rates', 'split-half']
    """
    trained = _trained_ladder(ladder)
    if label is None:
        label = trained.path.parent.name or "ladder"
    rate = min(trained.rates) if rate is None else check_real("rate", rate, low=0, high=1)
    if rate not in trained.rates:
        raise InvalidParameterError(f"rate {rate:g} is not one of the ladder's rates "
                                    f"({', '.join(f'{r:g}' for r in trained.rates)})")
    pairs = shared_pairs(trained)
    if len(pairs) < 4:
        raise InvalidParameterError(f"only {len(pairs)} of the ladder's {len(trained.pairs)} pairs have both words in "
                                    "every run (at least 4 are needed, 2 per half of a split): train on a larger "
                                    "corpus or with a lower min_count")
    measured = measure_ladder(dict(zip(trained.rates, trained.ensembles)), pairs, label=label, seed=seed,
                              n_permutations=n_permutations, n_resamples=n_resamples, n_splits=n_splits,
                              measures=measures, progress=progress)
    table = validity_table(measured, rate=rate, n_resamples=table_resamples, seed=seed)
    return LadderValidity(measured, table, pairs)
