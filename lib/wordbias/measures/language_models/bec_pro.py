"""Kurita et al.'s (2019) log-probability association on BEC-Pro (Bartl, Nissim & Gatt 2020, §4), in a masked and
a causal form, and its correlation with the share of women per profession.

The association of a sentence with person word w is the *increased log probability* of w (Kurita et al. 2019, §2;
Bartl et al. 2020, §4.1): a = log P(w | S) - log P(w | prior), the prior correcting for how likely w is anywhere.
A profession's association (:func:`profession_associations`) is the mean of a over its sentences with a female
person word minus the mean over those with a male one: positive when the model ties the profession to women more
than its prior does.

- Masked form (:func:`masked_associations`, Bartl et al. 2020, §4.1): P(w | S) is the masked LM's probability of
  w at the person slot with the profession visible, P(w | prior) with the profession masked too (one mask per
  whitespace word of the profession, as BEC-Pro's ``Sent_TAM``).
- Causal form (:func:`causal_associations`), an adaptation, not a replication: a causal LM cannot fill a slot in
  mid-sentence, so the whole sentence is scored, and the prior sentence is the same sentence with the profession
  replaced by a fixed neutral noun (:data:`NEUTRAL`: "person", German "Person"). By Bayes' rule
  log P(w | S) = log P(S with w) - log P(S with w') + const over the two words of a pair, so the per-profession
  difference female minus male is a difference-in-differences, log P(S_she) - log P(S_he) - [log P(prior_she) -
  log P(prior_he)]. The prior sentence does not depend on the profession; its term is the same for every
  profession (each has every template and person word once), so it moves every profession's association by one
  constant: the level depends on the neutral noun chosen, the correlations of :func:`correlation` do not.

:func:`correlation` gives Spearman's or Pearson's correlation of the professions' associations with a share of
women (BEC-Pro's US and German columns, Winogender's BLS column for the professions that match,
:func:`wordbias.datasets.bec_pro.match_occupations`) with a BCa bootstrap interval over professions;
:func:`wefat_on_professions` gives Caliskan et al.'s (2017) WEFAT correlation for word vectors on the same
professions, to be shown beside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.tidy import part_missing_note
from wordbias.core.validation import check_option
from wordbias.datasets.bec_pro import BecProSentence, Profession
from wordbias.options import Resampling
from wordbias.result import Result, SetCoverage

__all__ = ["NEUTRAL", "MEASURE", "masked_sentences", "prior_sentence", "masked_associations", "causal_associations",
           "profession_associations", "associations", "correlation", "share_columns", "correlations", "wefat_on_professions",
           "bec_pro"]

MEASURE = "bec_pro"
#: the neutral noun standing in for the profession in the causal form's prior sentence, per language
NEUTRAL = {"en": "person", "de": "Person"}
METHODS = ("spearman", "pearson")


def _whole_word(text: str, word: str, replacement: str, where: str) -> tuple[str, int]:
    """``text`` with the first whole-word occurrence of ``word`` replaced, and its character offset."""
    match = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)
    if match is None:
        raise InvalidParameterError(f"{where}: {word!r} is not a whole word of {text!r}")
    return text[:match.start()] + replacement + text[match.end():], match.start()


def masked_sentences(s: BecProSentence, mask: str, n_person: int = 1) -> tuple[str, str, int]:
    """The two sentences of the masked form: the person word masked, and the profession masked too.

    They are built from ``s.sentence`` by whole-word replacement, not read from the file's ``Sent_TM`` and
    ``Sent_TAM``: in ten rows of the file those mask a part of another word ("lodging [MASK]ager" for the person
    "man", "[MASK]nährungsberater" for "Er").

    Parameters
    ----------
    s : BecProSentence
        The sentence.
    mask : str
        The model's mask token.
    n_person : int, default 1
        The masks for the person word (its word pieces).

    Returns
    -------
    target : str
        The sentence with the person word masked.
    prior : str
        The same with the profession masked too, one mask per whitespace word of the profession.
    first : int
        The index of the person's first mask among the prior sentence's masks.

    Raises
    ------
    InvalidParameterError
        When ``s.person`` or ``s.profession`` is not a whole word of ``s.sentence`` (bounded by non-word characters).

    Examples
    --------
    >>> from wordbias.datasets.bec_pro import load
    >>> s = load("en")[3625]
    >>> s.sentence
    'This man is a lodging manager.'
    >>> masked_sentences(s, "[MASK]")
    ('This [MASK] is a lodging manager.', 'This [MASK] is a [MASK] [MASK].', 0)
    """
    where = f"BEC-Pro sentence {s.index}"
    masks = " ".join([mask] * n_person)
    target, at = _whole_word(s.sentence, s.person, masks, where)
    prior, prof_at = _whole_word(target, s.profession, " ".join([mask] * len(s.profession.split())), where)
    first = 0 if at < prof_at else prior[:at].count(mask) - target[:at].count(mask)
    return target, prior, first


def prior_sentence(s: BecProSentence, neutral: str) -> str:
    """The causal form's prior sentence: ``s.sentence`` with its profession replaced by the neutral noun.

    Parameters
    ----------
    s : BecProSentence
        The sentence.
    neutral : str
        The neutral noun (:data:`NEUTRAL`).

    Returns
    -------
    str
        The prior sentence.

    Examples
    --------
    >>> from wordbias.datasets.bec_pro import load
    >>> prior_sentence(load("en")[0], "person"), prior_sentence(load("de")[0], "Person")
    ('He is a person.', 'Er ist Person.')
    """
    return _whole_word(s.sentence, s.profession, neutral, f"BEC-Pro sentence {s.index}")[0]


def _check_sentences(sentences) -> list[BecProSentence]:
    sentences = list(sentences)
    if not sentences or not all(isinstance(s, BecProSentence) for s in sentences):
        raise InvalidParameterError("sentences must be a non-empty list of BecProSentence "
                                    "(wordbias.datasets.bec_pro.load)")
    return sentences


def masked_associations(m, sentences: Sequence[BecProSentence], *, batch_size: int = 32,
                        progress: bool = False) -> np.ndarray:
    """Per sentence, log P(person | target) - log P(person | prior) under a masked LM (Bartl et al. 2020, §4.1).

    The person word gets one mask per word piece, filled jointly (:func:`wordbias.measures.language_models.mlm.
    masked_log_probs`); the sentences are :func:`masked_sentences`.

    Parameters
    ----------
    m : wordbias.models.contextual.Model
        The masked LM (:func:`wordbias.models.contextual.load_mlm`).
    sentences : sequence of BecProSentence
        The sentences.
    batch_size, progress
        As :func:`wordbias.measures.language_models.mlm.masked_log_probs`.

    Returns
    -------
    numpy.ndarray
        One association per sentence, in order (float64): log P(person | target) - log P(person | prior), natural
        log, the person's word pieces summed.

    Examples
    --------
    A masked LM takes seconds to load; see the tests for the tiny planted one
    (:func:`wordbias.models.tiny_mlm.build`):

    >>> from wordbias.models.contextual import load_mlm            # doctest: +SKIP
    >>> from wordbias.datasets.bec_pro import load                 # doctest: +SKIP
    >>> a = masked_associations(load_mlm("bert-base-uncased"), load("en"))   # doctest: +SKIP
    """
    from wordbias.measures.language_models.mlm import masked_log_probs, word_pieces

    sentences = _check_sentences(sentences)
    mask = m.tokenizer.mask_token
    requests: dict[str, list] = {}
    keys = []
    for s in sentences:
        ids = tuple(word_pieces(m, s.person))
        target, prior, first = masked_sentences(s, mask, len(ids))
        requests.setdefault(target, []).append((0, ids))
        requests.setdefault(prior, []).append((first, ids))
        keys.append(((target, 0, ids), (prior, first, ids)))
    logp = masked_log_probs(m, requests, batch_size=batch_size, progress=progress)
    return np.array([logp[t] - logp[p] for t, p in keys], dtype=np.float64)


def causal_associations(m, sentences: Sequence[BecProSentence], *, neutral: str | None = None, batch_size: int = 16,
                        cache=None, threads: int | None = 1) -> np.ndarray:
    """Per sentence, log P(S) - log P(prior) under a causal LM: the causal adaptation of the module's docstring.

    The prior sentences (:func:`prior_sentence`) depend on the template and person word only, so each is scored
    once; every sentence is scored whole (:func:`wordbias.models.log_prob.causal_log_probs`, batched and
    cached).

    Parameters
    ----------
    m : wordbias.models.causal.CausalModel
        The model (:func:`wordbias.models.causal.load_causal`).
    sentences : sequence of BecProSentence
        The sentences.
    neutral : str, optional
        The neutral noun of the prior sentences (default :data:`NEUTRAL` of the sentences' language).
    batch_size : int, default 16
        Sentences per forward pass.
    cache : wordbias.models.log_prob.LogProbCache, optional
        The log-probability cache (None: none).
    threads : int or None, default 1
        The torch threads.

    Returns
    -------
    numpy.ndarray
        One association per sentence, in order (float64): log P(S) - log P(prior), natural log, each the sum over
        the sentence's tokens.

    Examples
    --------
    >>> from wordbias.models.causal import load_causal             # doctest: +SKIP
    >>> from wordbias.datasets.bec_pro import load                 # doctest: +SKIP
    >>> a = causal_associations(load_causal("smollm2-135m"), load("en"))   # doctest: +SKIP
    """
    from wordbias.models.log_prob import causal_log_probs

    sentences = _check_sentences(sentences)
    neutral = _neutral(sentences) if neutral is None else neutral
    if not isinstance(neutral, str) or not neutral.strip():
        raise InvalidParameterError(f"neutral must be a non-empty word, not {neutral!r}")
    priors = [prior_sentence(s, neutral) for s in sentences]
    texts = list(dict.fromkeys([s.sentence for s in sentences] + priors))
    scored = causal_log_probs(m, texts, batch_size=batch_size, cache=cache, threads=threads)
    total = {t.text: float(np.sum(t.log_probs, dtype=np.float64)) for t in scored}
    return np.array([total[s.sentence] - total[p] for s, p in zip(sentences, priors)], dtype=np.float64)


def _neutral(sentences: Sequence[BecProSentence]) -> str:
    """The neutral noun of the sentences' one language (:data:`NEUTRAL`)."""
    languages = sorted({s.language for s in sentences})
    if len(languages) != 1 or languages[0] not in NEUTRAL:
        raise InvalidParameterError(f"give the sentences of one language of {sorted(NEUTRAL)}, not {languages}")
    return NEUTRAL[languages[0]]


def profession_associations(sentences: Sequence[BecProSentence], associations) -> dict[str, float]:
    """Per profession (English name), the mean association of its sentences with a female person word minus the
    mean of those with a male one (positive: tied to women).

    Parameters
    ----------
    sentences : sequence of BecProSentence
        The sentences.
    associations : array_like of float
        One association per sentence (:func:`masked_associations`, :func:`causal_associations`).

    Returns
    -------
    dict of str to float
        By ``profession_en``, in the order first met.

    Raises
    ------
    InvalidParameterError
        When the lengths differ, an association is not finite, or a profession lacks a male or female sentence.

    Examples
    --------
    >>> from wordbias.datasets.bec_pro import load
    >>> en = load("en")
    >>> [(s.sentence, s.gender) for s in (en[0], en[300])]
    [('He is a taper.', 'male'), ('My mother is a taper.', 'female')]
    >>> profession_associations([en[0], en[300]], [-2.0, -0.5])     # -0.5 - (-2.0)
    {'taper': 1.5}
    """
    sentences = _check_sentences(sentences)
    a = np.asarray(associations, dtype=np.float64)
    if a.shape != (len(sentences),) or not np.all(np.isfinite(a)):
        raise InvalidParameterError(f"associations must be {len(sentences)} finite numbers, one per sentence; got "
                                    f"shape {a.shape}")
    groups: dict[str, dict[str, list[float]]] = {}
    for s, x in zip(sentences, a):
        groups.setdefault(s.profession_en, {"male": [], "female": []})[s.gender].append(float(x))
    lacking = [p for p, g in groups.items() if not g["male"] or not g["female"]]
    if lacking:
        raise InvalidParameterError(f"professions without both a male and a female sentence: {lacking[:5]}")
    return {p: float(np.mean(g["female"]) - np.mean(g["male"])) for p, g in groups.items()}


def _rank(v: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata

    return rankdata(v, axis=-1)


def _pearson_last(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson's r along the last axis (NaN where a side is constant)."""
    x = x - x.mean(axis=-1, keepdims=True)
    y = y - y.mean(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (x * y).sum(axis=-1) / np.sqrt((x * x).sum(axis=-1) * (y * y).sum(axis=-1))


def _statistic(x: np.ndarray, y: np.ndarray, method: str):
    """The vectorised correlation of the professions indexed by ``idx`` (a resample of 0..n-1)."""
    def stat(idx, axis=-1):
        xs, ys = x[idx], y[idx]
        if method == "spearman":
            xs, ys = _rank(xs), _rank(ys)
        return _pearson_last(xs, ys)
    return stat


def correlation(associations: Mapping[str, float], share: Mapping[str, float], *, method: str = "spearman",
                resampling: Resampling | None = None, title: str = "", test: str = "") -> Result:
    """The correlation of the professions' associations with their share of women, with a bootstrap interval over
    professions (resampled with their share, as pairs; seeded).

    Parameters
    ----------
    associations : mapping of str to float
        Per profession, its association (:func:`profession_associations`).
    share : mapping of str to float
        Per profession, the share of women (e.g. :func:`share_columns`); only the professions in both are used.
    method : {"spearman", "pearson"}, default "spearman"
        The correlation.
    resampling : Resampling, optional
        ``n_resamples`` (0: no interval), ``confidence_level``, ``ci_method`` (default BCa) and ``seed``
        (:class:`wordbias.options.Resampling`).
    title, test : str, default ""
        The result's title and id.

    Returns
    -------
    Result
        The correlation (``statistic`` = ``effect_size``) with its interval and the two-sided p of
        :func:`scipy.stats.spearmanr` (t approximation) or :func:`scipy.stats.pearsonr` (exact); the professions
        asked, used and missing as the set ``W``. No bias is 0; a model that follows the shares gives > 0.

    Raises
    ------
    InvalidParameterError
        When ``method`` is unknown.
    DegenerateSetError
        When fewer than 4 professions are in both, or one side is constant.

    Examples
    --------
    Five professions ranked alike but for two neighbours: rho = 1 - 6 * 2 / (5 * 24) = 0.9.

    >>> assoc = {"nurse": 1.0, "teacher": 0.1, "judge": 0.5, "pilot": -0.2, "miner": -1.0}
    >>> women = {"nurse": 90.0, "teacher": 70.0, "judge": 50.0, "pilot": 8.0, "miner": 2.0, "taper": 1.0}
    >>> r = correlation(assoc, women, resampling=Resampling(n_resamples=200, ci_method="percentile", seed=1))
    >>> round(r.effect_size, 6), r.sets[0].missing, r.ci_low <= 0.9 <= r.ci_high
    (0.9, ('taper',), True)
    """
    from scipy import stats

    from wordbias.stats.resampling import bootstrap_interval, bootstrap_rng, run_bootstrap

    check_option("method", method, METHODS)
    resampling = resampling if resampling is not None else Resampling()
    used = [p for p in share if p in associations]
    x = np.array([associations[p] for p in used], dtype=np.float64)
    y = np.array([share[p] for p in used], dtype=np.float64)
    if len(used) < 4 or np.ptp(x) == 0 or np.ptp(y) == 0:
        raise DegenerateSetError(f"a correlation needs at least 4 professions with varying associations and shares;"
                                 f" {len(used)} in both, {len(set(x.tolist()))} distinct associations")
    test_fn = stats.spearmanr if method == "spearman" else stats.pearsonr
    estimate, p = (float(v) for v in test_fn(x, y))
    low = high = se = float("nan")
    interval = None
    n = resampling.n_resamples
    if n:
        res = run_bootstrap((np.arange(len(used)),), _statistic(x, y, method), n_resamples=n,
                            confidence_level=resampling.confidence_level, method=resampling.ci_method,
                            rng=bootstrap_rng(resampling.seed))
        interval = bootstrap_interval(method, estimate, res, resampling.confidence_level, resampling.ci_method, n,
                                      ("W",))
        low, high, se = interval.low, interval.high, interval.standard_error
    notes = () if not n or np.isfinite([low, high]).all() else (part_missing_note(
        "bootstrap interval", "some resamples hold one profession's association or share only (no correlation)"),)
    missing = tuple(p for p in share if p not in associations)
    return Result(
        measure=MEASURE, test=test, title=title or f"BEC-Pro association vs share of women ({method})",
        statistic_name=f"{method} correlation", statistic=estimate, effect_size_name=f"{method} correlation",
        effect_size=estimate, ci_low=low, ci_high=high, ci_level=resampling.confidence_level,
        ci_method=(f"{resampling.ci_method} {resampling.confidence_level:.0%}, {n:,} resamples of professions"
                   if n else "no interval (n_resamples=0)"), interval=interval, effect_size_se=se, p_value=p,
        alternative="two-sided", p_method="t" if method == "spearman" else "exact", p_two_sided=p,
        n_permutations=None, n_resamples=n, seed=resampling.seed if isinstance(resampling.seed, int) else 0,
        sets=(SetCoverage("W", "professions", tuple(share), tuple(used), missing),), notes=notes,
        result={"associations": dict(zip(used, x.tolist())), "share": dict(zip(used, y.tolist()))})


def bec_pro(m, sentences: Sequence[BecProSentence] | None = None, share: Mapping[str, float] | None = None, *,
            method: str = "spearman", resampling: Resampling | None = None, neutral: str | None = None,
            batch_size: int = 16, cache=None, threads: int | None = 1) -> Result:
    """BEC-Pro on a language model, measured once: the correlation of the professions' associations (the masked
    form for a masked LM, the causal form for a causal one; module docstring) with their share of women.

    Parameters
    ----------
    m : wordbias.models.causal.CausalModel or wordbias.models.contextual.Model
        A causal LM (:func:`causal_associations`) or a masked LM (:func:`masked_associations`).
    sentences : sequence of BecProSentence, optional
        The sentences; default all the English ones (:func:`wordbias.datasets.bec_pro.load`).
    share : mapping of str to float, optional
        Per profession, the share of women; default BEC-Pro's US column (:func:`share_columns`).
    method, resampling
        As :func:`correlation` (checked before any scoring).
    neutral : str, optional
        The causal form's neutral noun (default :data:`NEUTRAL` of the sentences' language).
    batch_size, cache, threads
        Sentences per forward pass, and a causal LM's cache and torch threads (:func:`causal_associations`).

    Returns
    -------
    wordbias.result.Result
        The correlation (:func:`correlation`): -1 to 1, no bias 0.

    Raises
    ------
    InvalidParameterError
        When ``method`` is unknown or a profession lacks a male or female sentence.
    DegenerateSetError
        As :func:`correlation`.

    Examples
    --------
    >>> from wordbias.models.causal import load_causal                                    # doctest: +SKIP
    >>> r = bec_pro(load_causal("smollm2-135m"))                                          # doctest: +SKIP
    >>> r.measure, r.coverage                                                             # doctest: +SKIP
    ('bec_pro', 'W 60/60')
    """
    from wordbias.datasets.bec_pro import load, load_professions

    check_option("method", method, METHODS)
    sentences = load("en") if sentences is None else sentences
    a = associations(m, sentences, neutral=neutral, batch_size=batch_size, cache=cache, threads=threads)
    share = share_columns(load_professions())["US"] if share is None else share
    return correlation(a, share, method=method, resampling=resampling)


def associations(m, sentences: Sequence[BecProSentence], *, neutral: str | None = None, batch_size: int = 16,
                 cache=None, threads: int | None = 1) -> dict[str, float]:
    """Per profession, the association of :func:`profession_associations` under a model: the causal form for a
    causal LM (:func:`causal_associations`), the masked form for a masked one (:func:`masked_associations`).

    Parameters
    ----------
    m : wordbias.models.causal.CausalModel or wordbias.models.contextual.Model
        The model.
    sentences : sequence of BecProSentence
        The sentences, of one language.
    neutral, batch_size, cache, threads
        As :func:`causal_associations` (``batch_size`` also for a masked LM).

    Returns
    -------
    dict of str to float
        Per English profession name, female minus male.

    Raises
    ------
    InvalidParameterError
        As :func:`causal_associations` and :func:`profession_associations`.

    Examples
    --------
    >>> from wordbias.datasets.bec_pro import load, pronoun_sentences                       # doctest: +SKIP
    >>> from wordbias.models.causal import load_causal                                      # doctest: +SKIP
    >>> a = associations(load_causal("smollm2-135m"), pronoun_sentences(load("de")))        # doctest: +SKIP
    >>> len(a)                                                                              # doctest: +SKIP
    60
    """
    from wordbias.models.causal import CausalModel

    if isinstance(m, CausalModel):
        a = causal_associations(m, sentences, neutral=neutral, batch_size=batch_size, cache=cache, threads=threads)
    else:
        a = masked_associations(m, sentences, batch_size=batch_size)
    return profession_associations(sentences, a)


def share_columns(professions: Sequence[Profession], occupations=None) -> dict[str, dict[str, float]]:
    """The shares of women per profession: BEC-Pro's ``"US"`` and ``"DE"`` columns and, given Winogender's
    occupations, ``"BLS"`` for the professions that match by name
    (:func:`wordbias.datasets.bec_pro.match_occupations`).

    Parameters
    ----------
    professions : sequence of Profession
        BEC-Pro's professions (:func:`wordbias.datasets.bec_pro.load_professions`).
    occupations : sequence of Occupation, optional
        Winogender's occupations (:func:`wordbias.datasets.bec_pro.load_occupations`); None: no ``"BLS"``.

    Returns
    -------
    dict of str to dict
        Per column, the share (per cent) by English profession.

    Examples
    --------
    >>> from wordbias.datasets.bec_pro import load_occupations, load_professions
    >>> cols = share_columns(load_professions(), load_occupations())
    >>> len(cols["US"]), len(cols["DE"]), len(cols["BLS"]), cols["BLS"]["plumber"]
    (60, 60, 12, 0.7)
    """
    from wordbias.datasets.bec_pro import match_occupations

    out = {"US": {p.name: p.percent_us for p in professions}, "DE": {p.name: p.percent_de for p in professions}}
    if occupations is not None:
        out["BLS"] = match_occupations([p.name for p in professions], occupations)
    return out


def correlations(associations: Mapping[str, float], columns: Mapping[str, Mapping[str, float]], *,
                 resampling: Resampling | None = None, label: str = "") -> dict[str, Result]:
    """:func:`correlation` for each share column (:func:`share_columns`) and each method, keyed
    ``"<column> <method>"``.

    Parameters
    ----------
    associations : mapping of str to float
        Per profession, its association.
    columns : mapping of str to mapping
        Per column name, the share of women by profession.
    resampling : Resampling, optional
        As in :func:`correlation`.
    label : str, default ""
        The model and form, for the titles.

    Returns
    -------
    dict of str to Result
        E.g. ``"US spearman"``, ``"US pearson"``, ``"DE spearman"``.

    Examples
    --------
    >>> assoc = {"nurse": 1.0, "teacher": 0.5, "judge": 0.1, "pilot": -0.2, "miner": -1.0}
    >>> cols = {"US": {"nurse": 90.0, "teacher": 70.0, "judge": 50.0, "pilot": 8.0, "miner": 2.0}}
    >>> sorted(correlations(assoc, cols, resampling=Resampling(n_resamples=0)))
    ['US pearson', 'US spearman']
    """
    return {f"{c} {m}": correlation(associations, share, method=m, resampling=resampling, test=f"{c} {m}",
                                    title=f"BEC-Pro {label + ', ' if label else ''}{c} share of women ({m})")
            for c, share in columns.items() for m in METHODS}


def wefat_on_professions(professions: Sequence[Profession], embedding="glove-6b-50d", *, column: str = "US",
                         resampling: Resampling | None = None) -> Result:
    """Caliskan et al.'s (2017) WEFAT on BEC-Pro's professions: Pearson's r of s(w, female, male) with the share
    of women, for the professions that are one word (the vocabulary decides the rest: missing words are dropped
    and listed), with WEFAT 1's attribute lists (:func:`wordbias.datasets.stimuli.wefat_tests`).

    Parameters
    ----------
    professions : sequence of Profession
        BEC-Pro's professions.
    embedding : str or KeyedVectors, default "glove-6b-50d"
        Anything :func:`wordbias.load` takes.
    column : {"US", "DE"}, default "US"
        The share of women.
    resampling : Resampling, optional
        The interval of r (:func:`wordbias.measures.association.measurement.wefat`).

    Returns
    -------
    Result
        WEFAT's result (``result.table`` the per-word scores; Spearman's rho in ``result.spearman_r``).

    Examples
    --------
    >>> from wordbias.datasets.bec_pro import load_professions                     # doctest: +SKIP
    >>> r = wefat_on_professions(load_professions())                              # doctest: +SKIP
    """
    import wordbias
    from wordbias.datasets.stimuli import wefat_tests
    from wordbias.options import Words

    check_option("column", column, ("US", "DE"))
    share = share_columns(professions)[column]
    single = [p for p in share if len(p.split()) == 1]
    spec = wefat_tests()[0]
    return wordbias.wefat(embedding, single, list(spec.A), list(spec.B), {p: share[p] for p in single},
                          names={"W": "BEC-Pro single-word professions", "A": "female", "B": "male"},
                          title=f"WEFAT: BEC-Pro professions vs {column} share of women", resampling=resampling,
                          words=Words(case_fold=True))
