"""UBE runs as tidy rows (:mod:`wordbias.core.tidy`): Swinger et al.'s (2019) Unsupervised Bias Enumeration on any
static embedding, summed up one row a run.

:func:`ube_row` lays out a run already made (:func:`wordbias.measures.enumeration.ube.run`, or the paper notebook's
:func:`wordbias.papers.swinger2019.run`) and :func:`ube_battery` several of them; :func:`first_names_row` makes the
report's run: UBE on the SSA first names the embedding has (:func:`wordbias.measures.enumeration.ube_names.name_list`), with
n, m, M scaled to the vocabulary (:func:`ube_parameters`). The row's statistic is the number of significant
(group, category) cells (UBE has no single effect size) and its p-value Simes' global p over the testable cells.
Everything here builds on :mod:`wordbias.measures`; nothing goes through a paper's module.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from wordbias import embeddings as _embeddings
from wordbias.core import tidy as _tidy
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, LowPowerWarning
from wordbias.core.parallel import default_workers
from wordbias.core.validation import check_int, check_seed
from wordbias.measures.enumeration import ube
from wordbias.stats.multiple import adjust_family

__all__ = ["UBE_DEFAULTS", "UBE_NULL_SECONDS", "REPORT_UBE_ROTATIONS", "first_names_row", "ube_battery", "ube_parameters", "ube_row"]

#: Swinger et al.'s Table 2 defaults (:data:`wordbias.measures.enumeration.ube.DEFAULTS`), the upper bounds of
#: :func:`ube_parameters`
UBE_DEFAULTS = {k: ube.DEFAULTS[k] for k in ("n", "m", "M", "t", "R")}
#: the rotational null's estimated time (:func:`wordbias.measures.enumeration.ube_null.null_cost`, itself a pessimistic
#: estimate) that :func:`ube_parameters` keeps the run under, by lowering M
UBE_NULL_SECONDS = 60.0
#: the rotations R of the report's UBE run (:func:`first_names_row`), sized for speed: the paper's 10,000 (Table 2;
#: the Swinger notebook and :func:`wordbias.measures.enumeration.ube.run` keep them) made the rotational null half of ``wordbias report``'s
#: time. What 3,000 gives up: the smallest p is 1/3,001 instead of 1/10,001, so Benjamini-Hochberg over the n·m
#: cells (768 at n = 12, m = 64) calls no cell significant unless at least 6 cells reach that floor together (2 at
#: R = 10,000): a bias confined to a handful of cells can go unseen. On GloVe 6B 50d: 74 significant cells against 75
#: at R = 10,000 (measured, seed 0), and the run took 3.0 s instead of 6.0 s on 2 cores
REPORT_UBE_ROTATIONS = 3_000
#: the errors that make the report's UBE run not run (a row with NA and the reason) rather than stop the report
_NOT_RUN = (ValueError, KeyError)
#: the report's run: its test id and title
_FIRST_NAMES = ("UBE:first_names", "UBE: first-name groups x word categories (rotational null)")


def _join(*parts: str) -> str | None:
    text = "; ".join(p for p in parts if p)
    return text or None


def ube_parameters(vocabulary: int, n_names: int, dimension: int, *, workers: int = 2,
                   max_null_seconds: float = UBE_NULL_SECONDS, rotations: int = UBE_DEFAULTS["R"]) -> dict:
    """Return UBE's n, m, M, t, R scaled to an embedding's vocabulary.

    For an embedding of ``vocabulary`` words of ``dimension``, ``n_names`` of whose tokens are first names: the
    paper's Table 2 values (n = 12, m = 64, M = 30,000, t = 3, R = 10,000) where the vocabulary allows, scaled
    down where it does not.

    The rule:

    * M = min(30,000, vocabulary // 4): the candidate words, at most a quarter of the vocabulary;
    * m = clip(round(64 · M / 30,000), 4, 64): about 470 words per category, as the paper's 30,000 / 64;
    * n = clip(n_names // 50, 2, 12): at least 50 names per group before cleaning;
    * t = 3, and R = ``rotations`` (the paper's 10,000 unless asked; R sets the smallest p, 1/(R+1), and with it
      the power of Benjamini-Hochberg over n·m cells);
    * then, if the rotational null's estimated time (:func:`wordbias.measures.enumeration.ube_null.null_cost`, R·n·M·(d + 8)
      multiply-adds at a pessimistic rate) exceeds ``max_null_seconds`` on ``workers`` threads, M is lowered
      until it fits (and m with it).

    Parameters
    ----------
    vocabulary : int
        The number of words in the embedding (at least 1).
    n_names : int
        The number of its tokens that are first names (:func:`wordbias.measures.enumeration.ube_names.name_list`).
    dimension : int
        The embedding's dimension (at least 1).
    workers : int, default 2
        The threads the rotational null will run on.
    max_null_seconds : float, default 60.0
        The rotational null's estimated time (:data:`UBE_NULL_SECONDS`) that M is lowered to keep under.
    rotations : int, default 10000
        R, the random rotations of the null.

    Returns
    -------
    dict
        ``{"n": ..., "m": ..., "M": ..., "t": ..., "R": ...}``, the keyword arguments of
        :func:`wordbias.measures.enumeration.ube.run`.

    Raises
    ------
    DegenerateSetError
        When there are fewer than 100 names (n would be below 2).
    InvalidParameterError
        When ``vocabulary``, ``n_names``, ``dimension`` or ``workers`` is not an integer in its range.

    Examples
    --------
    >>> ube_parameters(400_000, 7_071, 50)          # GloVe 6B 50d: the paper's values
    {'n': 12, 'm': 64, 'M': 30000, 't': 3, 'R': 10000}
    >>> ube_parameters(10_000, 600, 100)            # a small user embedding
    {'n': 12, 'm': 5, 'M': 2500, 't': 3, 'R': 10000}
    >>> ube_parameters(3_000_000, 9_000, 300, workers=1, max_null_seconds=30)["M"]   # time-bounded
    8116
    """
    vocabulary = check_int("vocabulary", vocabulary, min=1)
    n_names = check_int("n_names", n_names, min=0)
    dimension = check_int("dimension", dimension, min=1)
    workers = check_int("workers", workers, min=1)
    if n_names < 100:
        raise DegenerateSetError(f"only {n_names} first names are in the embedding; UBE needs at least 100 "
                                 "(2 groups of 50)")
    d = UBE_DEFAULTS
    n = int(np.clip(n_names // 50, 2, d["n"]))
    M = min(d["M"], vocabulary // 4)
    rotations = check_int("rotations", rotations, min=1)
    cost = ube.null_cost(rotations, n, d["m"], M, dimension, workers).seconds
    if cost > max_null_seconds:
        M = int(M * max_null_seconds / cost)
    m = int(np.clip(round(d["m"] * M / d["M"]), 4, d["m"]))
    return dict(n=n, m=m, M=int(M), t=d["t"], R=rotations)


def ube_row(res, *, base: dict, test: str, title: str, note: str = "") -> dict:
    """Return one tidy row summing up a UBE run.

    The run is Swinger et al.'s (2019) :class:`~wordbias.measures.enumeration.ube_result.UBEResult`; the row (a dict of
    :data:`wordbias.core.tidy.COLUMNS`) has the number of significant (group, category) cells as the statistic
    (UBE has no single effect size), and Simes' global p over the testable cells' rotational-null p (the
    smallest Benjamini-Hochberg adjusted p) as the p-value. The row does not depend on the order of the groups
    (:meth:`~wordbias.measures.enumeration.ube_result.UBEResult.reorder`). It is the run's
    :meth:`~wordbias.measures.enumeration.ube_result.UBEResult.to_result` as :meth:`wordbias.result.Result.to_row`,
    with coverage NA (the names and words are the vocabulary's own).

    Parameters
    ----------
    res : UBEResult
        The run (:func:`wordbias.measures.enumeration.ube.run`).
    base : dict
        The row's embedding, paper, battery and seed.
    test : str
        The row's test id (e.g. ``"UBE:first_names"``).
    title : str
        The row's title.
    note : str, default ""
        Added to the row's note, after the count of significant cells.

    Returns
    -------
    dict
        The tidy row.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> kv = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> parameters = ube.UBEParameters(n=2, m=3, M=60, t=2, R=50, svm_top_words=120, case_source=None)
    >>> res = ube.run(kv, tokens[:20], parameters, progress=False)
    >>> row = ube_row(res, base={"embedding": "toy", "paper": "user", "battery": "toy", "seed": 0},
    ...               test="UBE:toy", title="UBE on random vectors")
    >>> row["statistic_name"], row["statistic"], round(row["p_value"], 3), row["p_method"]
    ('significant cells', 0.0, 0.745, 'rotational null, Simes over 6 cells')
    """
    row = res.to_result(test=test, title=title).to_row(base, note=note)
    # the battery's seed column; coverage NA: the names and words are the vocabulary's own
    return _tidy.with_coverage({**row, "seed": base.get("seed", row["seed"])}, None)


def ube_battery(runs: Mapping, *, label: str, seed: int = 0) -> pd.DataFrame:
    """Return UBE runs already made as a tidy table.

    One :func:`ube_row` per run of Swinger et al.'s (2019) UBE (:func:`wordbias.measures.enumeration.ube.run`), test
    ``UBE:<name>``, with Holm and Benjamini-Hochberg over their global p.

    Parameters
    ----------
    runs : mapping of str to UBEResult
        The runs by name, e.g. ``{"first names": res, "last names": res_last}``.
    label : str
        The embedding's name in the table.
    seed : int, default 0
        The seed the runs were made with (the ``seed`` column).

    Returns
    -------
    pandas.DataFrame
        The tidy table, one row per run, in the order of ``runs``.

    Raises
    ------
    InvalidParameterError
        When ``label`` is not a non-empty string, ``runs`` is not a non-empty mapping, or ``seed`` is invalid.

    Examples
    --------
    One run on random vectors, the first 20 tokens as the names:

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> kv = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> parameters = ube.UBEParameters(n=2, m=3, M=60, t=2, R=50, svm_top_words=120, case_source=None)
    >>> res = ube.run(kv, tokens[:20], parameters, progress=False)
    >>> t = ube_battery({"first names": res}, label="toy")
    >>> t.test[0], round(float(t.p_holm[0]), 3)
    ('UBE:first_names', 0.745)
    """
    if not isinstance(label, str) or not label:
        raise InvalidParameterError(f"label must be a non-empty string, not {label!r}")
    if not isinstance(runs, Mapping) or not runs:
        raise InvalidParameterError(f"runs must map names to UBE results, not {type(runs).__name__}")
    base = dict(embedding=label, paper="swinger2019", battery="swinger2019", seed=check_seed("seed", seed))
    rows = [ube_row(res, base=base, test="UBE:" + "_".join(name.replace(",", " ").split()),
                    title=f"UBE: {name} groups x word categories (rotational null)") for name, res in runs.items()]
    frame = _tidy.tidy_frame(rows)
    return adjust_family(frame, f"swinger2019 on {label}: the {len(frame)} UBE runs (Simes' global p)")


def first_names_row(embedding, *, base: dict, seed: int, progress: bool) -> dict:
    """Run UBE on the first names ``embedding`` has and return the report's row.

    The run is :func:`wordbias.measures.enumeration.ube.run` on the SSA first names ``embedding`` has (Appendix C.1,
    :func:`~wordbias.measures.enumeration.ube_names.name_list`; they are also kept out of the SVM's non-names), with
    :func:`ube_parameters` scaled to the vocabulary, shown as :func:`ube_row`. The note gives the parameters,
    the names before and after cleaning, the case rule and the low-power warnings; a run the embedding cannot
    make (too few names, words or categories) gives a row with NA numbers and the reason.

    Parameters
    ----------
    embedding : KeyedVectors
        The embedding.
    base : dict
        The row's embedding and seed (paper and battery are set to ``"swinger2019"``).
    seed : int
        The seed of the run.
    progress : bool
        Whether to show the run's progress bars.

    Returns
    -------
    dict
        The tidy row (coverage NA: the names and words are the vocabulary's own).

    Examples
    --------
    A toy vocabulary holds too few first names, so the row says why UBE did not run:

    >>> from wordbias.embeddings import to_keyed_vectors
    >>> tokens = [a + b for a in "abcdefghij" for b in "abcdefghijkl"]
    >>> kv = to_keyed_vectors(tokens, np.random.default_rng(0).normal(size=(120, 8)).astype(np.float32))
    >>> row = first_names_row(kv, base={"embedding": "toy", "seed": 0}, seed=0, progress=False)
    >>> row["test"], row["note"][:55]
    ('UBE:first_names', 'not run: DegenerateSetError: only 7 first names are in ')
    """
    base = {**base, "paper": "swinger2019", "battery": "swinger2019"}
    test, title = _FIRST_NAMES
    workers = default_workers()
    try:
        cased = _embeddings.is_cased(embedding)
        names = ube.name_list("first", embedding, cased=cased)
        params = ube_parameters(len(embedding.index_to_key), len(names.tokens), embedding.vector_size, workers=workers,
                                rotations=REPORT_UBE_ROTATIONS)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = ube.run(embedding, names.tokens, ube.UBEParameters(seed=seed, **params), name_exclusions=names.tokens,
                          cased=cased, workers=workers, progress=progress)
    except _NOT_RUN as err:
        return {**base, "test": test, "title": title, "measure": "ube", "statistic_name": "significant cells",
                "alternative": "greater", "note": _tidy.not_run_note(err)}
    warned = "; ".join(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, LowPowerWarning)))
    return ube_row(res, base=base, test=test, title=title,  # coverage NA: the names and words are the vocabulary's
                   note=_join(f"parameters scaled to the vocabulary: n={params['n']}, m={params['m']}, "
                              f"M={params['M']}, t={params['t']}, R={params['R']} (sized for speed: the paper's "
                              f"R=10,000 in wordbias.measures.enumeration.ube.run); {len(names.tokens):,} first "
                              f"names in the vocabulary, {len(res.names):,} after cleaning; case rule "
                              f"{res.params.get('case_source')!s}; the words' anisotropy (mean cosine of 2,000 "
                              f"random pairs) {ube.anisotropy(embedding, seed=seed):.2f}: the higher, the more easily "
                              "every cell beats the rotational null", warned))
