"""Benchmarks of a language model as one tidy table (:mod:`wordbias.core.tidy`): CrowS-Pairs (Nangia et al. 2020,
doi:10.18653/v1/2020.emnlp-main.154) under each scoring convention (:func:`crows_pairs_table`), StereoSet (Nadeem
et al. 2021, :func:`stereoset_table`) and BEC-Pro (Bartl et al. 2020, :func:`bec_pro_table`).

For each convention: the overall share of pairs whose more-stereotyping sentence the model scores higher, each bias
type's (with Holm's and Benjamini-Hochberg's adjusted p across the types, one family per convention), each
direction's (``stereo``, ``antistereo``), and the length confound (test ``length``: among pairs of unequal token
length, the share won by the shorter sentence; ``equal-length``: the share stereotyped among pairs of equal length).
With two conventions, their paired difference on the same pairs (``crows_pairs_difference``). Each row is a view of
a :class:`~wordbias.result.Result` (:meth:`~wordbias.result.Result.to_row`); nothing is computed here.

StereoSet: per task, SS, LMS and ICAT overall and per bias type (Holm's adjusted p of SS across the types).
BEC-Pro: per share-of-women column, Spearman's correlation of the professions' associations with the share.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pandas as pd

from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError

__all__ = ["BENCHMARKS", "crows_pairs_table", "crows_pairs_rows", "stereoset_table", "bec_pro_table", "professions_sample", "load_model"]

#: the benchmarks of ``wordbias lm``
BENCHMARKS = ("crows-pairs", "stereoset", "bec-pro")


def load_model(name: str, *, convention: str, cache_dir=None, device: str = "cpu"):
    """The model a convention needs: a causal LM (:func:`wordbias.models.causal.load_causal`: a registered name or a
    folder) for ``"harness"`` and ``"shared-tokens"``, a masked LM (:func:`wordbias.models.contextual.load_mlm`) for
    ``"pll"``.

    Parameters
    ----------
    name : str
        A registered causal model (``smollm2-135m``, ``gemma-3-270m``) or a model folder.
    convention : str
        One of :data:`wordbias.measures.language_models.crows_pairs.CONVENTIONS`.
    cache_dir : str or path-like, optional
        Where converted models are kept (default the project's cache).
    device : str, default "cpu"
        The torch device.

    Returns
    -------
    object
        The model.

    Raises
    ------
    InvalidParameterError
        When the convention is unknown.

    Examples
    --------
    >>> load_model("smollm2-135m", convention="guess")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: convention must be one of ('harness', 'shared-tokens', 'pll'), not 'guess'
    """
    from wordbias.measures.language_models.crows_pairs import CONVENTIONS

    if convention not in CONVENTIONS:
        raise InvalidParameterError(f"convention must be one of {CONVENTIONS}, not {convention!r}")
    if convention == "pll":
        from wordbias.models.contextual import load_mlm

        return load_mlm(name, device=device)
    from wordbias.models.causal import load_causal

    return load_causal(name, device=device, cache_dir=cache_dir)


def crows_pairs_table(models: Sequence, *, conventions: Sequence[str] = ("harness", "shared-tokens"),
                      pairs=None, label: str | None = None, confidence_level: float = 0.95, batch_size: int = 16,
                      cache=None, seed: int = 0, progress: bool = False) -> pd.DataFrame:
    """CrowS-Pairs on a model under each convention, as tidy rows (one model per convention: the same causal model
    for ``"harness"`` and ``"shared-tokens"``).

    Parameters
    ----------
    models : sequence
        One model per convention, in the order of ``conventions`` (:func:`load_model`).
    conventions : sequence of str, default ("harness", "shared-tokens")
        The scoring conventions (:data:`wordbias.measures.language_models.crows_pairs.CONVENTIONS`).
    pairs : sequence of CrowsPair, optional
        The pairs (default all 1,508; :func:`wordbias.datasets.crows_pairs.sample` for a stratified sample).
    label : str, optional
        The model's name in the table's ``embedding`` column (default the first model's label).
    confidence_level : float, default 0.95
        The intervals' level.
    batch_size, cache
        As :func:`wordbias.measures.language_models.crows_pairs.score_pairs`.
    seed : int, default 0
        The seed of the paired difference's bootstrap.
    progress : bool, default False
        Show a progress bar over the sentences each convention scores.

    Returns
    -------
    pandas.DataFrame
        The tidy rows: per convention (``battery`` ``crows_pairs:<convention>``) overall, per type, per direction
        and the length confound; then the difference between the first two conventions.

    Raises
    ------
    InvalidParameterError
        When ``models`` and ``conventions`` differ in length or ``conventions`` is empty or repeats one.

    Examples
    --------
    With a causal model ``m`` (:func:`load_model`; not run as tests: a model takes seconds to load):

    >>> from wordbias.datasets import crows_pairs as data
    >>> t = crows_pairs_table([m, m], pairs=data.sample(data.load(), 90))                 # doctest: +SKIP
    >>> t.groupby("battery").size().to_dict()                                             # doctest: +SKIP
    {'crows_pairs:harness': 14, 'crows_pairs:shared-tokens': 14, 'crows_pairs:difference': 1}
    """
    from wordbias.datasets.crows_pairs import load
    from wordbias.measures.language_models import crows_pairs as cp

    conventions = list(conventions)
    if not conventions or len(set(conventions)) != len(conventions) or len(models) != len(conventions):
        raise InvalidParameterError(f"give one model per convention, each convention once; got {len(models)} "
                                    f"model(s) for {conventions}")
    pairs = load() if pairs is None else list(pairs)
    scores = [cp.score_pairs(m, pairs, convention=c, batch_size=batch_size, cache=cache, progress=progress)
              for m, c in zip(models, conventions)]
    return tidy.tidy_frame(crows_pairs_rows(scores, label=label or scores[0].model,
                                            confidence_level=confidence_level, seed=seed))


def crows_pairs_rows(scores: Sequence, *, label: str, confidence_level: float = 0.95, seed: int = 0) -> list[dict]:
    """One model's CrowS-Pairs rows from its scores under each convention, as
    :func:`crows_pairs_table` gives them: each convention's summary, then the paired difference
    between the first two conventions.

    Parameters
    ----------
    scores : sequence of PairScores
        The model's scores, one per convention, of the same pairs.
    label : str
        The model's name in the ``embedding`` column.
    confidence_level : float, default 0.95
        The intervals' level.
    seed : int, default 0
        The seed of the paired difference's bootstrap.

    Returns
    -------
    list of dict
        The tidy rows.

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.measures.language_models.crows_pairs import PairScores
    >>> s = [PairScores("m", c, np.array([-5.0, -9.0, -7.0]), np.array([-6.0, -8.0, -8.0]), np.array([4, 4, 4]),
    ...                 np.array([4, 4, 4]), ("age",) * 3, ("stereo",) * 3, (0, 1, 2)) for c in ("harness", "pll")]
    >>> rows = crows_pairs_rows(s, label="m")
    >>> [r["battery"] for r in rows if r["test"] in ("overall", "difference")]
    ['crows_pairs:harness', 'crows_pairs:pll', 'crows_pairs:difference']
    """
    from wordbias.measures.language_models import crows_pairs as cp

    rows = []
    for s in scores:
        base = {"embedding": label, "paper": "nangia2020", "battery": f"crows_pairs:{s.convention}"}
        rows += [r.to_row(base) for r in cp.summarise(s, confidence_level=confidence_level).results()]
    if len(scores) > 1:
        d = cp.paired_difference(scores[0], scores[1], seed=seed, confidence_level=confidence_level)
        rows.append(d.to_row({"embedding": label, "paper": "nangia2020", "battery": "crows_pairs:difference"}))
    return rows


def stereoset_table(model, examples: Sequence, *, label: str | None = None, normalisation: str = "mean",
                    confidence_level: float = 0.95, n_resamples: int = 10_000, seed: int = 0, batch_size: int = 16,
                    cache=None) -> pd.DataFrame:
    """StereoSet on a model, as tidy rows: per task, SS, LMS and ICAT overall and per bias type.

    Parameters
    ----------
    model : object
        A causal LM, or a masked LM for the intrasentence task only
        (:func:`wordbias.measures.language_models.stereoset.score_examples`).
    examples : sequence of sequence of StereoSetExample
        One list of examples per task (:func:`wordbias.datasets.stereoset.load`).
    label : str, optional
        The model's name in the ``embedding`` column (default its own label).
    normalisation : {"mean", "sum"}, default "mean"
        How an option's token log-probabilities make its score.
    confidence_level : float, default 0.95
        The intervals' level.
    n_resamples, seed
        ICAT's bootstrap (BCa) over examples.
    batch_size, cache
        As :func:`~wordbias.measures.language_models.stereoset.score_examples`.

    Returns
    -------
    pandas.DataFrame
        The tidy rows (``paper`` ``nadeem2021``, ``battery`` ``stereoset:<task>:<normalisation>``, ``test``
        ``overall`` or the bias type; ``measure`` ``stereoset_ss``, ``stereoset_lms``, ``stereoset_icat``).

    Raises
    ------
    InvalidParameterError
        When a task repeats, or an option or the examples are refused by the measure.

    Examples
    --------
    With a causal model ``m`` (:func:`load_model`; not run as tests):

    >>> from wordbias.datasets import stereoset as data
    >>> t = stereoset_table(m, [data.load("intrasentence")[:40]])                        # doctest: +SKIP
    >>> sorted(set(t.measure))                                                           # doctest: +SKIP
    ['stereoset_icat', 'stereoset_lms', 'stereoset_ss']
    """
    from wordbias.measures.language_models import stereoset as st

    tasks = [e[0].task if e else None for e in examples]
    if len(set(tasks)) != len(tasks):
        raise InvalidParameterError(f"give each task's examples once; got the tasks {tasks}")
    rows = []
    for task_examples in examples:
        r = st.stereoset_ss(model, task_examples, normalisation=normalisation, confidence_level=confidence_level,
                            n_resamples=n_resamples, seed=seed, batch_size=batch_size, cache=cache).result
        base = {"embedding": label or r.scores.model, "paper": "nadeem2021",
                "battery": f"stereoset:{r.scores.task}:{normalisation}"}
        rows += [x.to_row(base) for x in r.results()]
    return tidy.tidy_frame(rows)


def professions_sample(sentences: Sequence, n: int, *, seed: int = 0) -> list:
    """The sentences of a seeded sample of ``n`` BEC-Pro professions, stratified by the profession's group (mostly
    male, mostly female, balanced; as :func:`wordbias.datasets.crows_pairs.sample` stratifies by bias type), each
    with all its sentences, in the data set's order.

    Parameters
    ----------
    sentences : sequence of BecProSentence
        The sentences (:func:`wordbias.datasets.bec_pro.load`).
    n : int
        The professions to keep, from the number of groups present up to all of them.
    seed : int, default 0
        The seed of the draw within each group.

    Returns
    -------
    list of BecProSentence
        The sentences of the professions drawn.

    Raises
    ------
    InvalidParameterError
        As :func:`wordbias.datasets.crows_pairs.sample`.

    Examples
    --------
    >>> from wordbias.datasets.bec_pro import load
    >>> s = professions_sample(load("en"), 6, seed=0)
    >>> len({x.profession_en for x in s}), sorted({x.prof_group for x in s}), len(s)
    (6, ['balanced', 'female', 'male'], 540)
    """
    from types import SimpleNamespace

    from wordbias.datasets.crows_pairs import sample

    groups = {s.profession_en: s.prof_group for s in sentences}
    drawn = sample([SimpleNamespace(name=p, bias_type=g) for p, g in groups.items()], n, seed=seed)
    kept = {p.name for p in drawn}
    return [s for s in sentences if s.profession_en in kept]


def bec_pro_table(model, sentences: Sequence | None = None, *, columns: Sequence[str] = ("US",),
                  label: str | None = None, resampling=None, neutral: str | None = None, batch_size: int = 16,
                  cache=None) -> pd.DataFrame:
    """BEC-Pro on a model, as tidy rows: per share-of-women column, Spearman's correlation of the professions'
    associations with the share (:func:`wordbias.measures.language_models.bec_pro.bec_pro`).

    Parameters
    ----------
    model : object
        A causal or masked LM.
    sentences : sequence of BecProSentence, optional
        The sentences (default all the English ones; :func:`professions_sample` for a sample).
    columns : sequence of {"US", "DE", "BLS"}, default ("US",)
        The shares of women (:func:`wordbias.measures.language_models.bec_pro.share_columns`; BLS only for the
        professions Winogender's statistics name).
    label : str, optional
        The model's name in the ``embedding`` column (default its own label).
    resampling : Resampling, optional
        The bootstrap over professions (:class:`wordbias.options.Resampling`).
    neutral, batch_size, cache
        As :func:`~wordbias.measures.language_models.bec_pro.bec_pro`.

    Returns
    -------
    pandas.DataFrame
        The tidy rows (``paper`` ``bartl2020``, ``battery`` ``bec_pro:<language>``, ``test`` the column); the
        coverage counts the professions of the sentences that the column gives a share. The sentences are scored
        once for all the columns.

    Raises
    ------
    InvalidParameterError
        When a column is unknown or repeats, or as
        :func:`~wordbias.measures.language_models.bec_pro.bec_pro`.
    DegenerateSetError
        When fewer than 4 professions have both sentences and a share.

    Examples
    --------
    >>> t = bec_pro_table(m, columns=("US", "BLS"))                                       # doctest: +SKIP
    >>> t.test.tolist()                                                                   # doctest: +SKIP
    ['US', 'BLS']
    """
    from wordbias.datasets.bec_pro import load, load_occupations, load_professions
    from wordbias.measures.language_models import bec_pro as bp

    columns = list(columns)
    shares = bp.share_columns(load_professions(), load_occupations())
    if not columns or len(set(columns)) != len(columns) or set(columns) - set(shares):
        raise InvalidParameterError(f"columns must name some of {tuple(shares)}, each once; got {columns}")
    sentences = load("en") if sentences is None else list(sentences)
    asked = {s.profession_en for s in sentences}     # a sample's professions: the others are not missing
    language = sentences[0].language if sentences else "en"
    label = label or getattr(model, "label", None) or str(getattr(model, "name", model))
    a = bp.associations(model, sentences, neutral=neutral, batch_size=batch_size, cache=cache)
    rows = []
    for c in columns:
        share = {p: v for p, v in shares[c].items() if p in asked}
        r = bp.correlation(a, share, resampling=resampling)
        r = dataclasses.replace(r, test=c, title=f"BEC-Pro ({language}) {label}: association vs {c} share of women "
                                                 "(spearman)")
        rows.append(r.to_row({"embedding": label, "paper": "bartl2020", "battery": f"bec_pro:{language}"}))
    return tidy.tidy_frame(rows)
