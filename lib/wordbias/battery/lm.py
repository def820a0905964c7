"""Benchmarks of a language model as one tidy table (:mod:`wordbias.core.tidy`): CrowS-Pairs (Nangia et al. 2020,
doi:10.18653/v1/2020.emnlp-main.154) under each scoring convention.

For each convention: the overall share of pairs whose more-stereotyping sentence the model scores higher, each bias
type's (with Holm's and Benjamini-Hochberg's adjusted p across the types, one family per convention), each
direction's (``stereo``, ``antistereo``), and the length confound (test ``length``: among pairs of unequal token
length, the share won by the shorter sentence; ``equal-length``: the share stereotyped among pairs of equal length).
With two conventions, their paired difference on the same pairs (``crows_pairs_difference``). Each row is a view of
a :class:`~wordbias.result.Result` (:meth:`~wordbias.result.Result.to_row`); nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError

__all__ = ["BENCHMARKS", "crows_pairs_table", "load_model"]

#: the benchmarks of :func:`crows_pairs_table` and ``wordbias lm``
BENCHMARKS = ("crows-pairs",)


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
    label = label or scores[0].model
    rows = []
    for s in scores:
        base = {"embedding": label, "paper": "nangia2020", "battery": f"crows_pairs:{s.convention}"}
        rows += [r.to_row(base) for r in cp.summarise(s, confidence_level=confidence_level).results()]
    if len(scores) > 1:
        d = cp.paired_difference(scores[0], scores[1], seed=seed, confidence_level=confidence_level)
        rows.append(d.to_row({"embedding": label, "paper": "nangia2020", "battery": "crows_pairs:difference"}))
    return tidy.tidy_frame(rows)
