"""WEATs and WEFATs as tidy rows (:mod:`wordbias.core.tidy`): views of :class:`~wordbias.measures.measurement.
Measurement` results, and :func:`weat_battery`, which measures a list of WEAT specs once and shows them so.

A battery is a list of specs, the papers' (:func:`wordbias.datasets.stimuli.weat_tests`) and a user's YAML
(:func:`wordbias.datasets.user_lists.load_user_lists`) alike; the measuring is
:func:`wordbias.measures.measurement.weats` and :func:`~wordbias.measures.measurement.wefats`; this module only
lays the results out as rows (the words dropped, the coverage and its flag, the notes), and never recomputes.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from wordbias import embeddings as _embeddings
from wordbias.core import tidy as _tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import check_bool, check_int, check_seed
from wordbias.datasets import stimuli
from wordbias.measures import measurement as _measurement

__all__ = ["CONFIDENCE_LEVEL", "paper_note", "weat_row", "wefat_row", "weat_rows", "weat_battery", "check_names",
           "as_keyed_vectors"]

#: the level of every interval of the batteries and the report
CONFIDENCE_LEVEL = 0.95


def as_keyed_vectors(embedding):
    """``embedding`` as gensim ``KeyedVectors`` (:func:`wordbias.embeddings.load`: a name or a path is loaded, a
    ``KeyedVectors`` or gensim model passed through, a word -> vector mapping converted)."""
    return _embeddings.load(embedding, progress=False)


def check_names(**names) -> None:
    """Each of ``names`` (label, battery, paper) must be a non-empty string; ``paper`` one of
    :data:`wordbias.core.tidy.PAPERS`."""
    for key, value in names.items():
        if not isinstance(value, str) or not value:
            raise InvalidParameterError(f"{key} must be a non-empty string, not {value!r}")
    if "paper" in names and names["paper"] not in _tidy.PAPERS:
        raise InvalidParameterError(f"paper must be one of {', '.join(_tidy.PAPERS)}, not {names['paper']!r}")


def paper_note(spec, paper_key: str) -> str:
    """``"paper: d = 1.50, p 1e-07"`` for a spec that carries the paper's numbers under ``paper_key``, else
    ``""``."""
    paper = (getattr(spec, "paper", None) or {}).get(paper_key) or {}
    if paper.get("d") is None:
        return ""
    return f"paper: d = {paper['d']:.2f}, p {paper.get('p_text') or paper.get('p')}"


def _join(*parts: str) -> str | None:
    text = "; ".join(p for p in parts if p)
    return text or None


def _coverage(m: _measurement.Measurement) -> _tidy.Coverage:
    return _tidy.Coverage(sets={s.letter: (s.in_vocabulary, len(s.asked)) for s in m.sets}, low=tuple(m.flagged))


def _adjusted(m: _measurement.Measurement) -> dict:
    return {"p_holm": m.p_holm, "p_bh": m.p_bh, "p_family": m.p_family} if m.p_family else {}


def weat_row(m: _measurement.Measurement, *, base: Mapping, note: str = "") -> dict:
    """The tidy row of one measured WEAT: ``base`` (embedding, paper, battery, seed, n_resamples), the sizes of
    the sets used, s and d with its interval, p one- and two-sided with their method, the words dropped, the
    coverage; ``note`` (e.g. the paper's numbers) with the low-power warnings the test gave. A test run without
    its interval keeps d and p and says why; a test not run has NA numbers and the reason."""
    head = {**base, "test": m.test, "title": m.title, "measure": "weat", "statistic_name": m.statistic_name,
            "effect_size_name": m.effect_size_name, "alternative": m.alternative, "seed": m.seed,
            "n_resamples": m.n_resamples or None}
    if m.not_run:
        return _tidy.with_coverage({**head, "dropped": m.dropped, "note": m.not_run}, _coverage(m))
    sizes = {f"n_{s.letter.lower()}": len(s.used) for s in m.sets}
    row = {**head, **sizes, "statistic": m.statistic, "effect_size": m.effect_size, "p_value": m.p_value,
           "p_method": m.p_method, "p_two_sided": m.p_two_sided, "dropped": m.dropped,
           "n_permutations": m.n_permutations, **_adjusted(m)}
    if m.interval is None:                  # d and p stand; the note says why there is no interval
        row.update(n_resamples=None, note=_join(*m.notes))
    else:
        row.update(ci_low=m.ci_low, ci_high=m.ci_high, ci_level=m.ci_level, ci_method=m.ci_method,
                   note=_join(note, *m.warned()))
    return _tidy.with_coverage(row, _coverage(m))


def wefat_row(m: _measurement.Measurement, *, base: Mapping, note: str = "") -> dict:
    """The tidy row of one measured WEFAT: Pearson's r with its interval and two-sided p, n the target words
    with a score and a property, the words dropped (W, A, B), the coverage; ``note`` with the low-power
    warnings."""
    head = {**base, "test": m.test, "title": m.title, "measure": "wefat", "statistic_name": m.statistic_name,
            "effect_size_name": m.effect_size_name, "alternative": m.alternative, "seed": m.seed,
            "n_resamples": m.n_resamples or None}
    if m.not_run:
        return _tidy.with_coverage({**head, "dropped": m.dropped, "note": m.not_run}, _coverage(m))
    w, a, b = m.sets
    row = {**head, "n_x": len(w.used), "n_a": len(a.used), "n_b": len(b.used), "statistic": m.statistic,
           "effect_size": m.effect_size, "p_value": m.p_value, "p_method": m.p_method,
           "p_two_sided": m.p_two_sided,
           "dropped": _tidy.dropped_text({"W": w.missing, "A": a.missing, "B": b.missing}), **_adjusted(m)}
    if m.interval is None:
        row.update(n_resamples=None, note=_join(*m.notes))
    else:
        row.update(ci_low=m.ci_low, ci_high=m.ci_high, ci_level=m.ci_level, ci_method=m.ci_method,
                   note=_join(note, *m.warned()))
    return _tidy.with_coverage(row, _coverage(m))


def weat_rows(results: Sequence[_measurement.Measurement], *, label: str, battery: str, paper: str,
              specs: Sequence | None = None, paper_key: str = "glove") -> pd.DataFrame:
    """The tidy table of measured WEATs (:func:`wordbias.measures.measurement.weats`): one :func:`weat_row` per
    result, with the adjusted p the results carry, and one :class:`~wordbias.core.errors.LowCoverageWarning` per
    flagged test that ran. ``specs`` (the same tests, in order) add the paper's numbers to each note."""
    check_names(label=label, battery=battery, paper=paper)
    if specs is not None and [s.id for s in specs] != [m.test for m in results]:
        raise InvalidParameterError("specs must be the tests of results, in the same order")
    base = dict(embedding=label, paper=paper, battery=battery)
    rows = [weat_row(m, base=base, note=paper_note(s, paper_key) if s is not None else "")
            for m, s in zip(results, specs if specs is not None else [None] * len(results))]
    frame = _tidy.tidy_frame(rows)
    _tidy.warn_low_coverage(frame)
    return frame


def weat_battery(embedding, specs: Sequence, *, label: str, battery: str, paper: str = "user", seed: int = 0,
                 n_permutations: int = 100_000, n_resamples: int = 10_000, case_fold: bool | None = None,
                 progress: bool = False, min_words: int = _tidy.MIN_WORDS,
                 min_fraction: float = _tidy.MIN_FRACTION) -> pd.DataFrame:
    """The WEATs of ``specs`` on ``embedding`` measured once (:func:`wordbias.measures.measurement.weats`) and
    shown as a tidy table (:func:`weat_rows`), one row per test.

    Each row has d (Caliskan et al. 2017, Methods) with its BCa bootstrap interval over the words
    (:func:`wordbias.measures.bootstrap.weat_bootstrap`), the one-sided permutation p (the paper's test;
    exact where it can be counted, else Monte Carlo with ``n_permutations`` draws) and the two-sided p, and
    Holm's and Benjamini-Hochberg's adjusted p over the battery. ``specs`` are
    :class:`~wordbias.datasets.stimuli.WeatSpec` (or mappings with ``id``, ``X``, ``Y``, ``A``, ``B``, and
    optionally ``title``, ``names``, ``paper``). ``case_fold=None`` folds case for an uncased vocabulary
    (:func:`wordbias.embeddings.is_cased`). Unknown and balanced-out words go to ``dropped`` (``"X: w1; A:
    w2"``); a test whose lists are left too small gets NA numbers and the reason in ``note``. ``coverage`` gives
    each set's words in the vocabulary of those asked; a set keeping fewer than ``min_words`` words or less than
    ``min_fraction`` of its list (:func:`wordbias.core.tidy.coverage_flag`, defaults 4 and 0.5, justified at
    :data:`wordbias.core.tidy.MIN_WORDS`) flags the row (``low_coverage``, the note begins ``"low coverage:"``)
    and warns :class:`~wordbias.core.errors.LowCoverageWarning`.

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["rose", "tulip", "ant", "wasp", "love", "hate"],
    ...     np.array([[1, 0.1], [0.9, 0.2], [0.1, 1], [0.2, 0.9], [1, 0], [0, 1]], dtype=np.float32))
    >>> spec = {"id": "flowers", "X": ["rose", "tulip", "lily"], "Y": ["ant", "wasp"], "A": ["love"], "B": ["hate"]}
    >>> t = weat_battery(kv, [spec], label="toy", battery="user:toy", paper="user", n_resamples=200)
    >>> t.loc[0, ["test", "effect_size_name", "p_method", "dropped"]].tolist(), int(t.loc[0, "n_x"])
    (['flowers', 'd', 'exact', 'X: lily'], 2)
    >>> round(float(t.effect_size[0]), 3), round(float(t.p_value[0]), 3), bool(t.p_holm[0] == t.p_value[0])
    (1.726, 0.167, True)
    >>> t.loc[0, "note"][:71]                  # one word per attribute set: d and p, but no interval
    'no bootstrap interval: ValueError: each sample in `data` must contain t'
    >>> t.loc[0, "coverage"], bool(t.loc[0, "low_coverage"])       # and so few words are flagged
    ('X 2/3; Y 2/2; A 1/1; B 1/1', True)
    >>> t.loc[0, "note"].split("; low coverage: ")[1][:35]
    'X 2/3 (below 4 words), Y 2/2 (below'

    """
    check_names(label=label, battery=battery, paper=paper)
    seed = check_seed("seed", seed)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence) or not specs:
        raise InvalidParameterError(f"specs must be a non-empty list of WEAT specs, not {type(specs).__name__}")
    specs = [stimuli.as_weat_spec(s) for s in specs]
    kv = as_keyed_vectors(embedding)
    case_fold = (not _embeddings.is_cased(kv)) if case_fold is None else check_bool("case_fold", case_fold)
    paper_key = "word2vec" if all(s.variant == "word2vec" for s in specs) else "glove"
    results = _measurement.weats(kv, specs, family=f"{battery} on {label}",
                                 n_resamples=n_resamples, n_permutations=n_permutations, seed=seed,
                                 case_fold=case_fold, min_words=min_words, min_fraction=min_fraction,
                                 progress=progress)
    return weat_rows(results, label=label, battery=battery, paper=paper, specs=specs, paper_key=paper_key)
