"""WEATs and WEFATs as tidy rows (:mod:`wordbias.core.tidy`): views of :class:`~wordbias.measures.association.measurement.
Result` results, and :func:`weat_battery`, which measures a list of WEAT specs once and shows them so.

A battery is a list of specs, the papers' (:func:`wordbias.datasets.stimuli.weat_tests`) and a user's YAML
(:func:`wordbias.datasets.user_lists.load_user_lists`) alike; the measuring is
:func:`wordbias.measures.association.measurement.weats` and :func:`~wordbias.measures.association.measurement.wefats`; this module only
lays the results out as rows (the words dropped, the coverage and its flag, the notes), and never recomputes.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from wordbias import embeddings as _embeddings
from wordbias import result as _result
from wordbias.core import tidy as _tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import stimuli
from wordbias.measures.association import measurement as _measurement
from wordbias.options import Resampling, Words

__all__ = ["CONFIDENCE_LEVEL", "paper_note", "weat_row", "wefat_row", "weat_rows", "weat_battery", "check_names",
           "as_keyed_vectors"]

#: the level of every interval of the batteries and the report
CONFIDENCE_LEVEL = 0.95


def as_keyed_vectors(embedding):
    """Return ``embedding`` as gensim ``KeyedVectors``.

    The conversion is :func:`wordbias.embeddings.load` (without a progress bar): a name or a path is loaded, a
    ``KeyedVectors`` or gensim model passed through, a word -> vector mapping converted.

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        A registry name, a path, gensim ``KeyedVectors`` or a gensim model, or a mapping word -> vector.

    Returns
    -------
    KeyedVectors
        The embedding's words and vectors.

    See Also
    --------
    wordbias.embeddings.load : The loader behind it.

    Examples
    --------
    >>> kv = as_keyed_vectors({"rose": [1.0, 0.1], "ant": [0.1, 1.0]})
    >>> kv.index_to_key, kv.vector_size
    (['rose', 'ant'], 2)
    """
    return _embeddings.load(embedding, progress=False)


def check_names(**names) -> None:
    """Check the names that label a battery's rows.

    Each of ``names`` (label, battery, paper) must be a non-empty string, and ``paper`` one of
    :data:`wordbias.core.tidy.PAPERS`.

    Parameters
    ----------
    **names : str
        The names to check, by the name of their parameter (e.g. ``label="glove"``, ``paper="user"``); the
        keyword ``paper`` is also checked against :data:`wordbias.core.tidy.PAPERS`.

    Raises
    ------
    InvalidParameterError
        When a name is not a non-empty string, or ``paper`` is not one of :data:`wordbias.core.tidy.PAPERS`.

    Examples
    --------
    >>> check_names(label="toy", battery="user:toy", paper="user")     # all good: nothing to say
    >>> try:
    ...     check_names(label="")
    ... except InvalidParameterError as err:
    ...     print(err)
    label must be a non-empty string, not ''
    """
    for key, value in names.items():
        if not isinstance(value, str) or not value:
            raise InvalidParameterError(f"{key} must be a non-empty string, not {value!r}")
    if "paper" in names and names["paper"] not in _tidy.PAPERS:
        raise InvalidParameterError(f"paper must be one of {', '.join(_tidy.PAPERS)}, not {names['paper']!r}")


def paper_note(spec, paper_key: str) -> str:
    """Return the note that gives a paper's own numbers for a test.

    Parameters
    ----------
    spec : WeatSpec or object
        A test spec (:class:`~wordbias.datasets.stimuli.WeatSpec`); its ``paper`` attribute, where it has one,
        maps a key to the paper's numbers (``d``, and ``p_text`` or ``p``).
    paper_key : str
        The key of the paper's numbers in ``spec.paper``, e.g. ``"glove"`` or ``"word2vec"``.

    Returns
    -------
    str
        ``"paper: d = 1.50, p < 10^-7"`` for a spec that carries the paper's d under ``paper_key``, else ``""``.

    Examples
    --------
    >>> from wordbias.datasets import stimuli
    >>> spec = stimuli.weat_tests("caliskan2017", "glove")[0]
    >>> paper_note(spec, "glove")
    'paper: d = 1.50, p < 10^-7'
    >>> paper_note(spec, "fasttext")                 # no numbers under that key
    ''
    """
    paper = (getattr(spec, "paper", None) or {}).get(paper_key) or {}
    if paper.get("d") is None:
        return ""
    return f"paper: d = {paper['d']:.2f}, p {paper.get('p_text') or paper.get('p')}"


def weat_row(m: _result.Result, *, base: Mapping, note: str = "") -> dict:
    """Return the tidy row of one measured WEAT.

    The row holds ``base``, the sizes of the sets used, s and d with its interval, p one- and two-sided with
    their method, the adjusted p the result carries, the words dropped and the coverage; its note is ``note``
    with the low-power warnings the test gave. A test run without its interval keeps d and p and its note says
    why there is no interval, then ``note``; a test not run has NA numbers and the reason.

    Parameters
    ----------
    m : Result
        One measured WEAT (:func:`wordbias.measures.association.measurement.weat` or an item of
        :func:`~wordbias.measures.association.measurement.weats`).
    base : mapping
        The row's leading columns: embedding, paper, battery (and optionally seed, n_resamples).
    note : str, default ""
        A note to begin the row's note with, e.g. the paper's numbers (:func:`paper_note`).

    Returns
    -------
    dict
        One row of the tidy schema (:data:`wordbias.core.tidy.COLUMNS`), with ``coverage`` and
        ``low_coverage`` (:func:`wordbias.core.tidy.with_coverage`).

    See Also
    --------
    weat_rows : The rows of a battery, as a table.

    Examples
    --------
    >>> from wordbias.measures.association.measurement import weats
    >>> kv = {"rose": [1, 0.1], "tulip": [0.9, 0.2], "ant": [0.1, 1], "wasp": [0.2, 0.9], "love": [1, 0],
    ...       "hate": [0, 1]}
    >>> spec = {"id": "flowers", "X": ["rose", "tulip"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    >>> m, = weats(kv, [spec], resampling=Resampling(n_resamples=0))
    >>> row = weat_row(m, base={"embedding": "toy", "paper": "user", "battery": "user:toy"})
    >>> row["test"], row["n_x"], round(row["effect_size"], 3), round(row["p_value"], 3), row["coverage"]
    ('flowers', 2, 1.726, 0.167, 'X 2/2; Y 2/2; A 1/1; B 1/1')
    """
    return m.to_row(base, note=note)


def wefat_row(m: _result.Result, *, base: Mapping, note: str = "") -> dict:
    """Return the tidy row of one measured WEFAT.

    The row holds ``base``, Pearson's r with its interval and two-sided p, n the target words with a score and
    a property (``n_x``), the words dropped (W, A, B) and the coverage; its note is ``note`` with the low-power
    warnings. A test run without its interval keeps r and p and its note says why there is no interval; a test
    not run has NA numbers and the reason.

    Parameters
    ----------
    m : Result
        One measured WEFAT (:func:`wordbias.measures.association.measurement.wefat` or an item of
        :func:`~wordbias.measures.association.measurement.wefats`).
    base, note
        As :func:`weat_row` (``note``: e.g. the paper's r).

    Returns
    -------
    dict
        One row of the tidy schema, as :func:`weat_row`'s.

    Examples
    --------
    >>> from wordbias.measures.association.measurement import wefat
    >>> kv = {"rose": [1, 0.1], "tulip": [0.9, 0.2], "ant": [0.1, 1], "wasp": [0.2, 0.9], "love": [1, 0],
    ...       "hate": [0, 1]}
    >>> prop = {"rose": 4.0, "tulip": 3.0, "ant": 2.0, "wasp": 1.0}
    >>> m = wefat(kv, ["rose", "tulip", "ant", "wasp"], ["love"], ["hate"], prop, resampling=Resampling(n_resamples=0))
    >>> row = wefat_row(m, base={"embedding": "toy", "paper": "user", "battery": "user:toy"})
    >>> row["effect_size_name"], round(row["effect_size"], 3), row["n_x"], row["coverage"]
    ('r', 0.894, 4, 'W 4/4; A 1/1; B 1/1')
    """
    return m.to_row(base, note=note)


def weat_rows(results: Sequence[_result.Result], *, label: str, battery: str, paper: str,
              specs: Sequence | None = None, paper_key: str = "glove") -> pd.DataFrame:
    """Return the tidy table of measured WEATs.

    One :func:`weat_row` per result of :func:`wordbias.measures.association.measurement.weats`, with the adjusted p the
    results carry, and one :class:`~wordbias.core.errors.LowCoverageWarning` per flagged test that ran. Nothing
    is measured again.

    Parameters
    ----------
    results : sequence of Result
        The measured WEATs.
    label : str
        The embedding's name in the table (the ``embedding`` column).
    battery : str
        The battery's name (the ``battery`` column).
    paper : str
        The paper of the lists, one of :data:`wordbias.core.tidy.PAPERS` (``"user"`` for a user's lists).
    specs : sequence of WeatSpec, optional
        The same tests as ``results``, in the same order; they add the paper's numbers to each note
        (:func:`paper_note`).
    paper_key : str, default "glove"
        The key of the paper's numbers in each spec's ``paper``.

    Returns
    -------
    pandas.DataFrame
        The tidy table (:func:`wordbias.core.tidy.tidy_frame`), one row per result, in their order.

    Raises
    ------
    InvalidParameterError
        When ``label``, ``battery`` or ``paper`` is not a valid name (:func:`check_names`), or ``specs`` are not
        the tests of ``results`` in the same order.

    Warns
    -----
    LowCoverageWarning
        Once per flagged WEAT that ran (:func:`wordbias.core.tidy.warn_low_coverage`).

    Examples
    --------
    >>> import warnings
    >>> from wordbias.measures.association.measurement import weats
    >>> kv = {"rose": [1, 0.1], "tulip": [0.9, 0.2], "ant": [0.1, 1], "wasp": [0.2, 0.9], "love": [1, 0],
    ...       "hate": [0, 1]}
    >>> spec = {"id": "flowers", "X": ["rose", "tulip"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    >>> results = weats(kv, [spec], resampling=Resampling(n_resamples=0))
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")                  # four words a set: flagged as low coverage
    ...     t = weat_rows(results, label="toy", battery="user:toy", paper="user")
    >>> t.loc[0, ["embedding", "test", "p_method"]].tolist(), bool(t.loc[0, "low_coverage"])
    (['toy', 'flowers', 'exact'], True)
    """
    check_names(label=label, battery=battery, paper=paper)
    if specs is not None and [s.id for s in specs] != [m.test for m in results]:
        raise InvalidParameterError("specs must be the tests of results, in the same order")
    base = dict(embedding=label, paper=paper, battery=battery)
    rows = [weat_row(m, base=base, note=paper_note(s, paper_key) if s is not None else "")
            for m, s in zip(results, specs if specs is not None else [None] * len(results))]
    frame = _tidy.tidy_frame(rows)
    _tidy.warn_low_coverage(frame)
    return frame


def weat_battery(embedding, specs: Sequence, *, label: str, battery: str, paper: str = "user",
                 resampling: Resampling | None = None, words: Words | None = None,
                 progress: bool = False) -> pd.DataFrame:
    """Measure the WEATs of ``specs`` on ``embedding`` once and show them as a tidy table, one row per test.

    The measuring is :func:`wordbias.measures.association.measurement.weats`, the table :func:`weat_rows`. Each row has d
    (Caliskan et al. 2017, Methods) with its BCa bootstrap interval over the words
    (:func:`wordbias.measures.association.bootstrap.weat_bootstrap`), the one-sided permutation p (the paper's test; exact
    where it can be counted, else Monte Carlo with ``resampling.n_permutations`` draws) and the two-sided p, and Holm's and
    Benjamini-Hochberg's adjusted p over the battery. Unknown and balanced-out words go to ``dropped``
    (``"X: w1; A: w2"``); a test whose lists are left too small gets NA numbers and the reason in ``note``.
    ``coverage`` gives each set's words in the vocabulary of those asked; a set keeping fewer than
    ``words.min_words`` words or less than ``words.min_fraction`` of its list (:func:`wordbias.core.tidy.coverage_flag`, defaults 4 and
    0.5, justified at :data:`wordbias.core.tidy.MIN_WORDS`) flags the row (``low_coverage``, the note begins
    ``"low coverage:"``) and warns :class:`~wordbias.core.errors.LowCoverageWarning`.

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        The embedding (anything :func:`as_keyed_vectors` takes).
    specs : sequence of WeatSpec or mapping
        The tests: :class:`~wordbias.datasets.stimuli.WeatSpec`, or mappings with ``id``, ``X``, ``Y``, ``A``,
        ``B``, and optionally ``title``, ``names``, ``paper``. The paper's numbers are read under
        ``"word2vec"`` when every spec is of that variant, else under ``"glove"``.
    label : str
        The embedding's name in the table.
    battery : str
        The battery's name in the table (e.g. ``"user:<lists>"``).
    paper : str, default "user"
        The paper of the lists, one of :data:`wordbias.core.tidy.PAPERS`.
    resampling : Resampling, optional
        ``seed`` (of the balancing, the Monte Carlo p and the bootstrap), ``n_permutations`` (the Monte Carlo
        draws of a p that cannot be counted exactly), ``n_resamples`` (the bootstrap resamples of each interval,
        at least 2), ``confidence_level`` and ``ci_method`` (:class:`~wordbias.options.Resampling`). None:
        :data:`wordbias.measures.association.measurement.DEFAULT_RESAMPLING` (100,000 permutations, 10,000
        resamples, seed 0).
    words : Words, optional
        ``case_fold`` (None folds case for an uncased vocabulary, :func:`wordbias.embeddings.is_cased`),
        ``on_missing``, ``balance_targets`` (unequal target sets: deleted from at random, or kept whole with
        ``"none"``), ``min_words`` and ``min_fraction`` (the low-coverage flag) (:class:`~wordbias.options.Words`).
        None: ``Words()``.
    progress : bool, default False
        Whether to show a progress bar.

    Returns
    -------
    pandas.DataFrame
        The tidy table (:mod:`wordbias.core.tidy`), one row per spec, in their order.

    Raises
    ------
    InvalidParameterError
        When a name is invalid, ``resampling`` is not a Resampling or has fewer than 2 resamples, ``words`` is not
        a Words, or ``specs`` is not a non-empty list of WEAT specs.

    Warns
    -----
    LowCoverageWarning
        As :func:`weat_rows`.

    See Also
    --------
    wordbias.measures.association.measurement.weats : The measuring, one result per test.
    wordbias.battery.report.report : Every static-embedding test of the four papers.

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["rose", "tulip", "ant", "wasp", "love", "hate"],
    ...     np.array([[1, 0.1], [0.9, 0.2], [0.1, 1], [0.2, 0.9], [1, 0], [0, 1]], dtype=np.float32))
    >>> spec = {"id": "flowers", "X": ["rose", "tulip", "lily"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    >>> from wordbias.options import Resampling
    >>> t = weat_battery(kv, [spec], label="toy", battery="user:toy", paper="user",
    ...                  resampling=Resampling(n_resamples=200, n_permutations=100_000))
    >>> t.loc[0, ["test", "effect_size_name", "p_method", "dropped"]].tolist(), int(t.loc[0, "n_x"])
    (['flowers', 'd', 'exact', 'X: lily'], 2)
    >>> round(float(t.effect_size[0]), 3), round(float(t.p_value[0]), 3), bool(t.p_holm[0] == t.p_value[0])
    (1.726, 0.167, True)
    >>> t.loc[0, "note"][:71]                  # one word per attribute set: d and p, but no interval
    'no bootstrap interval: DegenerateSetError: set A has 1 word: resampling'
    >>> t.loc[0, "coverage"], bool(t.loc[0, "low_coverage"])       # and so few words are flagged
    ('X 2/3; Y 2/2; A 1/1; B 1/1', True)
    >>> t.loc[0, "note"].split("; low coverage: ")[1][:35]
    'X 2/3 (below 4 words), Y 2/2 (below'

    """
    check_names(label=label, battery=battery, paper=paper)
    resampling, words = _measurement._options(resampling, words)
    if resampling.n_resamples < 2:
        raise InvalidParameterError(f"n_resamples must be an integer >= 2 (a battery's rows have intervals), not "
                                    f"{resampling.n_resamples}")
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence) or not specs:
        raise InvalidParameterError(f"specs must be a non-empty list of WEAT specs, not {type(specs).__name__}")
    specs = [stimuli.as_weat_spec(s) for s in specs]
    kv = as_keyed_vectors(embedding)
    paper_key = "word2vec" if all(s.variant == "word2vec" for s in specs) else "glove"
    results = _measurement.weats(kv, specs, family=f"{battery} on {label}", resampling=resampling, words=words,
                                 progress=progress)
    return weat_rows(results, label=label, battery=battery, paper=paper, specs=specs, paper_key=paper_key)
