"""SEATs (May et al. 2019) as tidy rows (:mod:`wordbias.core.tidy`): a view of the
:class:`~wordbias.result.Result` results of :func:`wordbias.measures.association.seat.seats`, and
:func:`seat_battery`, which measures a battery once and lays it out so.

Each row is a WEAT row (:func:`wordbias.battery.weat.weat_row`) with ``measure="seat"``: d with its 95% bootstrap
interval over the sentences, the one- and two-sided p with their method, Holm's and Benjamini-Hochberg's adjusted
p over the battery, the test words the encoder does not see in ``dropped``, the coverage (test words seen /
asked, :mod:`wordbias.measures.association.seat`), the sentences used in ``n_x`` ... ``n_b`` and, in ``note``, the encoder's
sentence representation, the sentences left out and May et al.'s reported d where the paper gives one.
"""
from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from wordbias import __version__
from wordbias.battery.weat import weat_row
from wordbias.core import tidy as _tidy
from wordbias.datasets import seat as _data
from wordbias.measures.association import seat as _seat
from wordbias.options import Resampling, Words

__all__ = ["CONFIDENCE_LEVEL", "paper_notes", "seat_rows", "seat_battery"]

#: the level of every interval of the battery
CONFIDENCE_LEVEL = 0.95


def paper_notes() -> dict[str, str]:
    """Test -> the note giving May et al.'s reported d for it (:func:`wordbias.datasets.seat.reported`).

    Returns
    -------
    dict of str to str
        E.g. ``{"sent-weat6": "May et al. 2019 Table 3 (C6: M/F Names; Career, sent): BERT d = 0.08"}``.

    Examples
    --------
    >>> paper_notes()["sent-weat6"]
    'May et al. 2019 Table 3 (C6: M/F Names; Career, sent): BERT d = 0.08'
    """
    out: dict[str, list[str]] = {}
    heads: dict[str, str] = {}
    for r in _data.reported().itertuples():
        heads[r.test] = f"May et al. 2019 Table {r.table} ({r.row}, {r.context})"
        out.setdefault(r.test, []).append(f"{r.encoder} d = {r.d:g}")
    return {t: f"{heads[t]}: {', '.join(v)}" for t, v in out.items()}


def seat_rows(results: Sequence, *, label: str, pooling: str, battery: str = "may2019",
              paper: str = "may2019") -> pd.DataFrame:
    """Return the tidy table of measured SEATs (one row per result, in order; nothing measured again).

    Parameters
    ----------
    results : sequence of Result
        The SEATs of :func:`wordbias.measures.association.seat.seats` (or :func:`~wordbias.measures.association.seat.seat`).
    label : str
        The encoder's name (the ``embedding`` column).
    pooling : str
        The sentence representation (``"mean"``, ``"cls"``, ``"cbow"``), written in each note.
    battery : str, default "may2019"
        The ``battery`` column.
    paper : str, default "may2019"
        The ``paper`` column (``"user"`` for a user's sentence sets).

    Returns
    -------
    pandas.DataFrame
        The tidy table (:func:`wordbias.core.tidy.tidy_frame`).

    Examples
    --------
    On toy word vectors (sentences as CBoW):

    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.measures.association.seat import seats
    >>> words = ["rose", "tulip", "ant", "wasp", "love", "hate", "this", "is", "."]
    >>> V = np.array([[1, .1, 0], [.9, .2, 0], [.1, 1, 0], [.2, .9, 0], [1, 0, 0], [0, 1, 0],
    ...               [0, 0, 1], [0, 0, 1], [0, 0, 1]], dtype=np.float32)
    >>> sets = {"id": "flowers", "X": ["This is rose.", "This is tulip."], "Y": ["This is ant.", "This is wasp."],
    ...         "A": ["This is love."], "B": ["This is hate."]}
    >>> from wordbias.options import Resampling
    >>> results, _ = seats(to_keyed_vectors(words, V), [sets], resampling=Resampling(n_resamples=0), cache=False)
    >>> t = seat_rows(results, label="toy", pooling="cbow", paper="user")
    >>> t.loc[0, ["test", "embedding", "measure"]].tolist(), round(float(t.loc[0, "effect_size"]), 2)
    (['flowers', 'toy', 'seat'], 1.72)
    """
    notes = paper_notes() if paper == "may2019" else {}
    rows = []
    for m in results:
        base = {"embedding": label, "paper": paper, "battery": battery, "wordbias_version": __version__}
        note = "; ".join(x for x in (f"sentence vector: {pooling}", notes.get(m.test, "")) if x)
        row = weat_row(m, base=base, note=note)
        row["measure"] = "seat"
        rows.append(row)
    return _tidy.tidy_frame(rows)


def seat_battery(encoder, tests: Sequence | None = None, *, label: str | None = None, battery: str | None = None,
                 paper: str = "may2019", pooling: str | None = None, resampling: Resampling | None = None,
                 words: Words | None = None, batch_size: int = 32, cache: bool = True, device: str | None = None,
                 progress: bool = False):
    """Measure a battery of SEATs on one encoder and return its tidy table and the sentence vectors.

    Parameters
    ----------
    encoder : str or Model or KeyedVectors or sentence encoder
        As :func:`wordbias.measures.association.seat.seat` (a transformer, or a static embedding as CBoW).
    tests : sequence, optional
        As :func:`wordbias.measures.association.seat.seats` (default: the 46 shipped tests).
    label : str, optional
        The encoder's name in the table (default: the encoder's label).
    battery : str, optional
        The battery's name (default ``"may2019"``); it also names the family of the adjusted p.
    paper : str, default "may2019"
        The ``paper`` column (``"user"`` for a user's sets).
    pooling : {"mean", "cls"} or None, default None
        A transformer's pooling.
    resampling, words, batch_size, cache, device, progress
        As :func:`wordbias.measures.association.seat.seats` (:class:`~wordbias.options.Resampling`,
        :class:`~wordbias.options.Words`; None: that module's ``DEFAULT_RESAMPLING`` and ``DEFAULT_WORDS``).

    Returns
    -------
    frame : pandas.DataFrame
        The tidy table, one row per test.
    vectors : SentenceVectors
        The battery's sentence vectors (the encoding time and rate).

    Examples
    --------
    The flowers and insects on toy word vectors, each sentence their mean (CBoW):

    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> from wordbias.options import Resampling
    >>> sets = {"id": "flowers", "X": ["This is rose.", "This is tulip."], "Y": ["This is ant.", "This is wasp."],
    ...         "A": ["This is love."], "B": ["This is hate."]}
    >>> words = ["rose", "tulip", "ant", "wasp", "love", "hate", "this", "is", "."]
    >>> V = np.array([[1, .1, 0], [.9, .2, 0], [.1, 1, 0], [.2, .9, 0], [1, 0, 0], [0, 1, 0],
    ...               [0, 0, 1], [0, 0, 1], [0, 0, 1]], dtype=np.float32)
    >>> frame, vectors = seat_battery(to_keyed_vectors(words, V), [sets], label="toy", paper="user",
    ...                               resampling=Resampling(n_resamples=0), cache=False)
    >>> frame.loc[0, ["test", "embedding"]].tolist(), round(float(frame.loc[0, "p_value"]), 3), vectors.pooling
    (['flowers', 'toy'], 0.167, 'cbow')
    """
    from wordbias.models import sentence

    enc = sentence.load_sentence_encoder(encoder, pooling=pooling, device=device)
    label = label or enc.label
    battery = battery or "may2019"
    results, vectors = _seat.seats(enc, tests, family=f"{battery} on {label}", resampling=resampling, words=words,
                                   batch_size=batch_size, cache=cache, progress=progress)
    return seat_rows(results, label=label, pooling=enc.pooling, battery=battery, paper=paper), vectors
