"""CrowS-Pairs (Nangia, Vania, Bhalerao & Bowman 2020, doi:10.18653/v1/2020.emnlp-main.154): how often a language
model prefers the more-stereotyping sentence of a pair.

Three conventions of scoring a sentence (:data:`CONVENTIONS`):

- ``"harness"``: a causal LM's log-probability of the whole sentence (the sum over its tokens), as the
  language-model evaluation harness's ``crows_pairs`` task scores it;
- ``"shared-tokens"``: a causal LM's log-probability of the tokens the two sentences share, each conditioned on
  everything before it (the edit included): the causal analogue of the paper's "unmodified tokens", found by the
  same difflib alignment of the two token sequences as the paper's code (:func:`shared_tokens`);
- ``"pll"``: a masked LM's pseudo-log-likelihood of the shared tokens, each masked in turn (the paper's §3 metric).

:func:`crows_pairs` measures a model on the pairs and gives its overall :class:`~wordbias.result.Result`;
:func:`summarise` gives, from the scores (:func:`score_pairs`), overall and per bias type, the share of pairs whose more-stereotyping sentence scores
higher, with its exact (Clopper-Pearson) interval and two-sided exact binomial p against 0.5, Holm's and
Benjamini-Hochberg's adjusted p across the nine types, the split by ``stereo``/``antistereo`` and the length
confound (:func:`length_confound`); :func:`paired_difference` compares two models on the same pairs.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import check_int
from wordbias.datasets.crows_pairs import BIAS_TYPES, DIRECTIONS, CrowsPair
from wordbias.result import Result

__all__ = ["CONVENTIONS", "MEASURE", "PairScores", "CrowsPairsResult", "shared_tokens", "score_pairs",
           "crows_pairs", "summarise", "share_result", "length_confound", "paired_difference"]

#: the conventions of scoring a sentence
CONVENTIONS = ("harness", "shared-tokens", "pll")
#: the measure's name in results
MEASURE = "crows_pairs"
_FAMILY = "CrowS-Pairs bias types"


def shared_tokens(ids_a: Sequence[int], ids_b: Sequence[int]) -> tuple[list[int], list[int]]:
    """The positions of the tokens two sentences share, aligned by difflib as in Nangia et al.'s code.

    ``difflib.SequenceMatcher`` (default settings) over the token ids as strings; the positions of every
    ``equal`` block, in order.

    Parameters
    ----------
    ids_a, ids_b : sequence of int
        The two sentences' token ids.

    Returns
    -------
    positions_a, positions_b : list of int
        The shared tokens' positions in each sentence (equally long; ``ids_a[positions_a[k]] ==
        ids_b[positions_b[k]]``).

    Examples
    --------
    >>> shared_tokens([5, 1, 7, 8], [5, 2, 3, 7, 8])
    ([0, 2, 3], [0, 3, 4])
    """
    matcher = difflib.SequenceMatcher(None, [str(x) for x in ids_a], [str(x) for x in ids_b])
    pa, pb = [], []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            pa += range(a0, a1)
            pb += range(b0, b1)
    return pa, pb


@dataclass(frozen=True)
class PairScores:
    """The scores of each pair's two sentences under one model and convention.

    Attributes
    ----------
    model : str
        The model's label.
    convention : str
        One of :data:`CONVENTIONS`.
    more, less : numpy.ndarray
        The score (a log-probability, float64) of each pair's more- and less-stereotyping sentence.
    tokens_more, tokens_less : numpy.ndarray
        Each sentence's length in the model's tokens (special tokens excluded).
    bias_type, direction : tuple of str
        Each pair's bias type and ``stereo``/``antistereo``.
    index : tuple of int
        Each pair's row in the data set.
    """

    model: str
    convention: str
    more: np.ndarray
    less: np.ndarray
    tokens_more: np.ndarray
    tokens_less: np.ndarray
    bias_type: tuple[str, ...]
    direction: tuple[Literal["stereo", "antistereo"], ...]
    index: tuple[int, ...]

    @property
    def noise(self) -> np.ndarray:
        """Per pair, the width below which its two scores are equal up to float32 rounding
        (:func:`wordbias.measures.language_models.mlm.rounding_noise` of the larger absolute score): two sentences
        whose shared tokens have the same context (an edit at the end) score alike in exact arithmetic, and only the
        rounding of their batches would otherwise decide between them."""
        from wordbias.measures.language_models.mlm import rounding_noise

        return np.array([rounding_noise(max(abs(a), abs(b))) for a, b in zip(self.more, self.less)], dtype=float)

    @property
    def tied(self) -> np.ndarray:
        """Per pair, whether its two scores are equal up to rounding (:attr:`noise`)."""
        return np.abs(self.more - self.less) <= self.noise

    @property
    def stereotyped(self) -> np.ndarray:
        """Per pair, whether the more-stereotyping sentence scores higher by more than rounding (a tie is not)."""
        return (self.more - self.less) > self.noise


def _check_pairs(pairs) -> list[CrowsPair]:
    pairs = list(pairs)
    if not pairs or not all(isinstance(p, CrowsPair) for p in pairs):
        raise InvalidParameterError("pairs must be a non-empty list of CrowsPair (wordbias.datasets.crows_pairs.load())")
    return pairs


def score_pairs(m, pairs: Sequence[CrowsPair], *, convention: str = "harness", batch_size: int = 16,
                cache=None, threads: int | None = 1, progress: bool = False) -> PairScores:
    """Score both sentences of every pair under one convention (:data:`CONVENTIONS`).

    Parameters
    ----------
    m : wordbias.models.causal.CausalModel or wordbias.models.contextual.Model
        A causal LM for ``"harness"`` and ``"shared-tokens"``, a masked LM (``load_mlm``) for ``"pll"``.
    pairs : sequence of CrowsPair
        The pairs (:func:`wordbias.datasets.crows_pairs.load`).
    convention : {"harness", "shared-tokens", "pll"}, default "harness"
        How a sentence is scored (module docstring).
    batch_size : int, default 16
        Sentences per batch of a causal LM.
    cache : wordbias.models.log_prob.LogProbCache, optional
        The per-sentence cache of a causal LM.
    threads : int or None, default 1
        The torch threads.
    progress : bool, default False
        Show a progress bar over the sentences (a causal LM) or the pairs (a masked LM).

    Returns
    -------
    PairScores
        The scores.

    Raises
    ------
    InvalidParameterError
        When ``convention`` is unknown, or does not fit the model (a masked LM for a causal convention).

    Examples
    --------
    On a packaged causal model (:func:`wordbias.models.causal.load_causal`; the first load converts its GGUF file,
    about 40 s, so these lines are not run as tests):

    >>> from wordbias.datasets import crows_pairs as data
    >>> from wordbias.models.causal import load_causal
    >>> m = load_causal("smollm2-135m")                                                   # doctest: +SKIP
    >>> scores = score_pairs(m, data.load()[:4], convention="shared-tokens")             # doctest: +SKIP
    >>> scores.more.shape, scores.convention                                             # doctest: +SKIP
    ((4,), 'shared-tokens')
    """
    from wordbias.models.causal import CausalModel, torch_threads

    pairs = _check_pairs(pairs)
    if convention not in CONVENTIONS:
        raise InvalidParameterError(f"convention must be one of {CONVENTIONS}, not {convention!r}")
    causal = isinstance(m, CausalModel)
    if causal == (convention == "pll"):
        raise InvalidParameterError(f"convention {convention!r} needs a "
                                    f"{'masked' if convention == 'pll' else 'causal'} language model; "
                                    f"{getattr(m, 'name', m)!r} is {'causal' if causal else 'not causal'}")
    if causal:
        scores = _causal_scores(m, pairs, convention, batch_size, cache, threads, progress)
    else:
        from wordbias.core.progress import progress_bar

        with torch_threads(threads), progress_bar(len(pairs), desc=f"pairs scored by {m.name}", unit="pair",
                                                  enabled=progress) as bar:
            scores = []
            for p in pairs:
                scores.append(_pll_pair(m, p))
                bar.update(1)
    more, less, n_more, n_less = (np.array(col) for col in zip(*scores))
    return PairScores(model=m.label, convention=convention, more=more.astype(np.float64),
                      less=less.astype(np.float64), tokens_more=n_more.astype(np.int64),
                      tokens_less=n_less.astype(np.int64), bias_type=tuple(p.bias_type for p in pairs),
                      direction=tuple(p.stereo_antistereo for p in pairs), index=tuple(p.index for p in pairs))


def _causal_scores(m, pairs, convention, batch_size, cache, threads, progress) -> list[tuple[float, float, int, int]]:
    from wordbias.models.log_prob import causal_log_probs

    texts = [s for p in pairs for s in (p.sent_more, p.sent_less)]
    scored = causal_log_probs(m, texts, batch_size=batch_size, cache=cache, threads=threads, progress=progress)
    out = []
    for a, b in zip(scored[::2], scored[1::2]):
        if convention == "harness":
            sa, sb = a.total, b.total
        else:
            pa, pb = shared_tokens(a.token_ids, b.token_ids)
            sa, sb = math.fsum(a.log_probs[pa]), math.fsum(b.log_probs[pb])
        out.append((sa, sb, len(a.token_ids), len(b.token_ids)))
    return out


def _pll_pair(m, p: CrowsPair) -> tuple[float, float, int, int]:
    """The pseudo-log-likelihood of a pair's shared, non-special tokens (Nangia et al. 2020, §3)."""
    from wordbias.models.log_prob import pseudo_log_likelihood

    tok = m.tokenizer
    ids_a, ids_b = list(tok(p.sent_more)["input_ids"]), list(tok(p.sent_less)["input_ids"])
    special = set(tok.all_special_ids)
    pa, pb = shared_tokens(ids_a, ids_b)
    keep = [k for k in range(len(pa)) if ids_a[pa[k]] not in special]
    sa, _ = pseudo_log_likelihood(m, p.sent_more, [pa[k] for k in keep])
    sb, _ = pseudo_log_likelihood(m, p.sent_less, [pb[k] for k in keep])
    real = lambda ids: sum(t not in special for t in ids)  # noqa: E731
    return sa, sb, real(ids_a), real(ids_b)


@dataclass(frozen=True)
class Share:
    """The measure's own numbers for one group of pairs (``Result.result``).

    Attributes
    ----------
    k : int
        Pairs whose more-stereotyping sentence scored higher.
    n : int
        Pairs.
    ties : int
        Pairs whose two scores are equal up to rounding (:attr:`PairScores.tied`; counted as not stereotyped).
    by_direction : dict
        ``{"stereo": (k, n), "antistereo": (k, n)}``.
    """

    k: int
    n: int
    ties: int
    by_direction: dict = field(default_factory=dict)


def share_result(stereotyped, *, title: str, test: str = "", confidence_level: float = 0.95,
                 ties: int = 0, by_direction: dict | None = None, notes: Sequence[str] = (),
                 pairs: Sequence[int] | None = None, name: str = "share stereotyped") -> Result:
    """The :class:`~wordbias.result.Result` of a share of pairs: the share stereotyped, its exact
    (Clopper-Pearson) interval and the two-sided exact binomial p against 0.5 (``scipy.stats.binomtest``).

    Parameters
    ----------
    stereotyped : array_like of bool
        Per pair, whether the more-stereotyping sentence scored higher.
    title : str
        The result's title.
    test : str, default ""
        Its id (e.g. the bias type).
    confidence_level : float, default 0.95
        The interval's level.
    ties : int, default 0
        Pairs whose scores were equal (a note).
    by_direction : dict, optional
        ``{"stereo": (k, n), "antistereo": (k, n)}``.
    notes : sequence of str, default ()
        More notes.
    pairs : sequence of int, optional
        The data set's indices of the pairs, for the coverage (set ``"S"``; default 0 to n - 1).
    name : str, default "share stereotyped"
        What the share counts (the statistic's and effect size's name).

    Returns
    -------
    Result
        ``statistic`` = ``effect_size`` = k/n; no bias is 0.5.

    Examples
    --------
    >>> r = share_result([True] * 7 + [False] * 3, title="7 of 10")
    >>> r.effect_size, round(r.ci_low, 4), round(r.ci_high, 4), round(r.p_value, 4)   # p = 2 * 176 / 1024
    (0.7, 0.3475, 0.9333, 0.3438)
    """
    from scipy.stats import binomtest

    from wordbias.core.validation import check_probability
    from wordbias.result import SetCoverage

    confidence_level = check_probability("confidence_level", confidence_level)
    x = np.asarray(stereotyped, dtype=bool)
    n, k = int(x.size), int(x.sum())
    if n == 0:
        raise InvalidParameterError(f"{title}: no pairs")
    scored = tuple(str(i) for i in (range(n) if pairs is None else pairs))
    if len(scored) != n:
        raise InvalidParameterError(f"{title}: {len(scored)} pair indices for {n} pairs")
    bt = binomtest(k, n, 0.5)
    ci = bt.proportion_ci(confidence_level=confidence_level, method="exact")
    extra = (f"{ties} tied pair{'s' if ties != 1 else ''} counted as not stereotyped",) if ties else ()
    return Result(
        measure=MEASURE, test=test, title=title, statistic_name=name, statistic=k / n,
        effect_size_name=name, effect_size=k / n, ci_low=float(ci.low), ci_high=float(ci.high),
        ci_level=confidence_level, ci_method=f"Clopper-Pearson exact {confidence_level:.0%}, {k}/{n} pairs",
        interval=ci, p_value=float(bt.pvalue), alternative="two-sided", p_method="exact binomial",
        p_two_sided=float(bt.pvalue), n_permutations=None, n_resamples=None, seed=0,   # None: not resampled
        sets=(SetCoverage("S", "sentence pairs", scored, scored),),
        notes=tuple(notes) + extra, result=Share(k, n, ties, dict(by_direction or {})))


@dataclass(frozen=True)
class LengthConfound:
    """How often the shorter sentence (in tokens) scores higher.

    Attributes
    ----------
    shorter_wins : Result
        Among pairs of unequal token length, the share whose shorter sentence scores higher.
    equal_length : Result
        Among pairs of equal token length, the share stereotyped.
    share_equal_length : float
        The share of pairs of equal token length.
    """

    shorter_wins: Result | None
    equal_length: Result | None
    share_equal_length: float


def length_confound(scores: PairScores, confidence_level: float = 0.95) -> LengthConfound:
    """The length confound of a scoring: a whole-sentence log-probability favours the shorter sentence.

    Parameters
    ----------
    scores : PairScores
        The scores.
    confidence_level : float, default 0.95
        The intervals' level.

    Returns
    -------
    LengthConfound
        The share of unequal-length pairs won by the shorter sentence and the share stereotyped among pairs of
        equal length (each None when there are no such pairs), with exact intervals and binomial p.

    Examples
    --------
    Four pairs: in the two of unequal length the shorter sentence scores higher once.

    >>> s = PairScores("toy", "harness", np.array([-5.0, -9.0, -7.0, -6.0]), np.array([-6.0, -8.0, -7.5, -5.0]),
    ...                np.array([3, 5, 4, 4]), np.array([4, 4, 4, 4]), ("gender",) * 4, ("stereo",) * 4,
    ...                (0, 1, 2, 3))
    >>> c = length_confound(s)
    >>> c.shorter_wins.effect_size, c.equal_length.effect_size, c.share_equal_length
    (1.0, 0.5, 0.5)
    """
    unequal = scores.tokens_more != scores.tokens_less
    shorter_more = scores.tokens_more < scores.tokens_less
    margin = scores.more - scores.less
    shorter_wins = np.where(shorter_more, margin > scores.noise, -margin > scores.noise)[unequal]
    label = f"{scores.model}, {scores.convention}"
    won = share_result(shorter_wins, title=f"CrowS-Pairs: shorter sentence wins ({label})", test="length",
                       confidence_level=confidence_level, name="share won by the shorter sentence",
                       pairs=np.array(scores.index)[unequal].tolist()) if unequal.any() else None
    equal = share_result(scores.stereotyped[~unequal], title=f"CrowS-Pairs: pairs of equal length ({label})",
                         test="equal-length", confidence_level=confidence_level,
                         pairs=np.array(scores.index)[~unequal].tolist()) if (~unequal).any() else None
    return LengthConfound(won, equal, float(np.mean(~unequal)))


@dataclass(frozen=True)
class CrowsPairsResult:
    """CrowS-Pairs for one model and convention: made by :func:`summarise` from one :class:`PairScores`, its
    results the views (tables, pages) read without computing again.

    Attributes
    ----------
    overall : Result
        All pairs.
    by_type : dict of str to Result
        Per bias type (:data:`~wordbias.datasets.crows_pairs.BIAS_TYPES` present), with Holm's and
        Benjamini-Hochberg's adjusted p across them.
    by_direction : dict of str to Result
        Per ``stereo``/``antistereo``.
    length : LengthConfound
        The length confound.
    scores : PairScores
        The per-pair scores.
    """

    overall: Result
    by_type: dict
    by_direction: dict
    length: LengthConfound
    scores: PairScores

    def results(self) -> list[Result]:
        """Every result, overall first, for tidy rows (``[r.to_row(base) for r in res.results()]``).

        Returns
        -------
        list of Result
            Overall, per bias type, per direction, then the length confound's.
        """
        extra = [r for r in (self.length.shorter_wins, self.length.equal_length) if r is not None]
        return [self.overall, *self.by_type.values(), *self.by_direction.values(), *extra]


def _group(scores: PairScores, select: np.ndarray, *, title: str, test: str, level: float) -> Result:
    x = scores.stereotyped[select]
    ties = int(np.sum(scores.tied[select]))
    direction = np.array(scores.direction)[select]
    split = {d: (int(x[direction == d].sum()), int((direction == d).sum())) for d in DIRECTIONS}
    return share_result(x, title=title, test=test, confidence_level=level, ties=ties, by_direction=split,
                        pairs=np.array(scores.index)[select].tolist())


def summarise(scores: PairScores, *, confidence_level: float = 0.95) -> CrowsPairsResult:
    """The CrowS-Pairs score: the share of pairs whose more-stereotyping sentence scores higher (Nangia et al. 2020,
    §3), overall, per bias type (with Holm and Benjamini-Hochberg across the types), per direction, and the length
    confound.

    Parameters
    ----------
    scores : PairScores
        Both sentences' scores of every pair (:func:`score_pairs`).
    confidence_level : float, default 0.95
        The level of every exact interval.

    Returns
    -------
    CrowsPairsResult
        The results; no bias is a share of 0.5, the range 0 to 1.

    Examples
    --------
    >>> s = PairScores("toy", "harness", np.array([-5.0, -9.0, -7.0, -6.0]), np.array([-6.0, -8.0, -7.5, -5.0]),
    ...                np.array([4, 4, 4, 4]), np.array([4, 4, 4, 4]), ("gender", "gender", "age", "age"),
    ...                ("stereo", "antistereo", "stereo", "stereo"), (0, 1, 2, 3))
    >>> r = summarise(s)
    >>> r.overall.effect_size, r.by_type["age"].effect_size, r.by_type["age"].p_holm
    (0.5, 0.5, 1.0)
    """
    from wordbias.stats.multiple import benjamini_hochberg, holm

    label = f"{scores.model}, {scores.convention}"
    everything = np.ones(len(scores.more), dtype=bool)
    overall = _group(scores, everything, title=f"CrowS-Pairs ({label})", test="overall", level=confidence_level)
    types = np.array(scores.bias_type)
    present = [t for t in BIAS_TYPES if (types == t).any()]
    by_type = [_group(scores, types == t, title=f"CrowS-Pairs {t} ({label})", test=t, level=confidence_level)
               for t in present]
    p = [r.p_two_sided for r in by_type]
    fam = f"{_FAMILY} ({len(by_type)})"
    by_type = {r.test: _with_adjusted(r, h, b, fam) for r, h, b in zip(by_type, holm(p), benjamini_hochberg(p))}
    directions = np.array(scores.direction)
    by_direction = {d: _group(scores, directions == d, title=f"CrowS-Pairs {d} ({label})", test=d,
                              level=confidence_level) for d in DIRECTIONS if (directions == d).any()}
    return CrowsPairsResult(overall, by_type, by_direction, length_confound(scores, confidence_level), scores)


def crows_pairs(m, pairs: Sequence[CrowsPair] | None = None, *, convention: str = "harness",
                confidence_level: float = 0.95, batch_size: int = 16, cache=None, threads: int | None = 1) -> Result:
    """CrowS-Pairs (Nangia et al. 2020) on a language model, measured once: the share of pairs whose
    more-stereotyping sentence the model scores higher, with its exact interval and binomial p against 0.5.

    The pairs are scored by :func:`score_pairs` and summarised by :func:`summarise`; the overall
    :class:`~wordbias.result.Result` is returned, its ``result`` the :class:`CrowsPairsResult` (per bias type with
    Holm's adjusted p, per direction, the length confound and the scores).

    Parameters
    ----------
    m : wordbias.models.causal.CausalModel or wordbias.models.contextual.Model
        A causal LM (conventions ``"harness"``, ``"shared-tokens"``) or a masked LM (``"pll"``).
    pairs : sequence of CrowsPair, optional
        The pairs; default all 1,508 (:func:`wordbias.datasets.crows_pairs.load`; a stratified sample:
        :func:`wordbias.datasets.crows_pairs.sample`).
    convention, batch_size, cache, threads
        As :func:`score_pairs`.
    confidence_level : float, default 0.95
        The intervals' level.

    Returns
    -------
    wordbias.result.Result
        The overall share; ``result`` is the :class:`CrowsPairsResult`.

    Raises
    ------
    InvalidParameterError
        When ``confidence_level`` is not a probability, or ``pairs``, ``convention``, ``batch_size`` or ``threads``
        is not what :func:`score_pairs` accepts (a convention that does not fit the model included).

    Examples
    --------
    With ``m`` and ``data`` as in :func:`score_pairs`' example (not run as tests):

    >>> r = crows_pairs(m, data.sample(data.load(), 90, seed=0))                          # doctest: +SKIP
    >>> r.measure, r.coverage, len(r.result.by_type)                                      # doctest: +SKIP
    ('crows_pairs', 'S 90/90', 9)
    """
    from wordbias.core.validation import check_probability
    from wordbias.datasets.crows_pairs import load

    confidence_level = check_probability("confidence_level", confidence_level)
    summary = summarise(score_pairs(m, load() if pairs is None else pairs, convention=convention,
                                    batch_size=batch_size, cache=cache, threads=threads),
                        confidence_level=confidence_level)
    return dataclasses.replace(summary.overall, result=summary)


def _with_adjusted(r: Result, p_holm: float, p_bh: float, family: str) -> Result:
    return dataclasses.replace(r, p_holm=float(p_holm), p_bh=float(p_bh), p_family=family)


def paired_difference(a: PairScores, b: PairScores, *, n_resamples: int = 10_000, seed: int = 0,
                      confidence_level: float = 0.95) -> Result:
    """The difference between two models' shares stereotyped on the same pairs, with a paired bootstrap interval
    (pairs resampled, seeded; percentile) and the exact McNemar p (a binomial test on the discordant pairs).

    Parameters
    ----------
    a, b : PairScores
        The two models' scores of the same pairs, in the same order.
    n_resamples : int, default 10000
        Bootstrap resamples.
    seed : int, default 0
        The bootstrap's seed.
    confidence_level : float, default 0.95
        The interval's level.

    Returns
    -------
    Result
        ``statistic`` = share(a) - share(b).

    Raises
    ------
    InvalidParameterError
        When the two scorings are not of the same pairs.

    See Also
    --------
    summarise : each model's own share, with its exact interval.

    Examples
    --------
    >>> a = PairScores("a", "harness", np.array([-5.0, -9.0, -7.0]), np.array([-6.0, -8.0, -8.0]),
    ...                np.array([4, 4, 4]), np.array([4, 4, 4]), ("age",) * 3, ("stereo",) * 3, (0, 1, 2))
    >>> b = PairScores("b", "harness", np.array([-7.0, -9.0, -9.0]), np.array([-6.0, -8.0, -8.0]),
    ...                np.array([4, 4, 4]), np.array([4, 4, 4]), ("age",) * 3, ("stereo",) * 3, (0, 1, 2))
    >>> d = paired_difference(a, b, n_resamples=200)
    >>> round(d.effect_size, 4), d.p_value                       # 2 of 3 under a, none under b
    (0.6667, 0.5)
    """
    from scipy.stats import binomtest

    from wordbias.core.validation import check_probability

    n_resamples = check_int("n_resamples", n_resamples, min=1)
    seed = check_int("seed", seed, min=0)
    from wordbias.result import SetCoverage

    confidence_level = check_probability("confidence_level", confidence_level)
    if a.index != b.index:
        raise InvalidParameterError("paired_difference needs the same pairs in the same order in both scorings")
    scored = tuple(str(i) for i in a.index)
    d = a.stereotyped.astype(np.float64) - b.stereotyped.astype(np.float64)
    rng = np.random.default_rng(seed)
    means = np.concatenate([d[rng.integers(0, d.size, (min(1000, n_resamples - s), d.size))].mean(axis=1)
                            for s in range(0, n_resamples, 1000)])
    alpha = (1 - confidence_level) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    only_a, only_b = int(np.sum(d > 0)), int(np.sum(d < 0))
    p = float(binomtest(only_a, only_a + only_b, 0.5).pvalue) if only_a + only_b else 1.0
    return Result(
        measure="crows_pairs_difference", test="difference",
        title=f"CrowS-Pairs: {a.model} ({a.convention}) - {b.model} ({b.convention})",
        statistic_name="difference in share stereotyped", statistic=float(d.mean()),
        effect_size_name="difference in share stereotyped", effect_size=float(d.mean()), ci_low=float(low),
        ci_high=float(high), ci_level=confidence_level,
        ci_method=f"paired bootstrap percentile {confidence_level:.0%}, {n_resamples:,} resamples of pairs",
        interval=(float(low), float(high)), effect_size_se=float(means.std(ddof=1)) if n_resamples > 1 else math.nan,
        p_value=p, alternative="two-sided", p_method="exact McNemar", p_two_sided=p, n_permutations=None,
        n_resamples=n_resamples, seed=seed, sets=(SetCoverage("S", "sentence pairs", scored, scored),),
        notes=(f"{only_a} pairs stereotyped under {a.model} only, {only_b} under {b.model} only",))
