"""Every static-embedding test of the four papers as one tidy table (issue 15, ``wordbias weat`` / ``report``).

:func:`weat_battery` runs a list of WEATs (Caliskan et al.'s, or a user's own lists) and :func:`report` runs
everything of the four papers that applies to a static embedding, one row per test in the schema of
:mod:`wordbias.core.tidy`:

* Caliskan, Bryson & Narayanan (2017): the ten WEATs (the "glove" word lists) with d, its BCa bootstrap
  interval, the one- and two-sided permutation p (:func:`wordbias.papers.caliskan2017.weat_table`), and the two
  WEFATs with Pearson's r and its interval (:func:`~wordbias.papers.caliskan2017.wefat_table`);
* the racial bias report: the three direction tests, cos(r, s) with its bootstrap interval and the permutation
  p (:func:`wordbias.papers.racial_bias_report.table1`), and Bolukbasi et al.'s (2016, §5.2) DirectBias_1 of
  the debiaswe professions on the PCA gender direction (as the report's Section 2), with a bootstrap interval
  over the professions (the direction held fixed);
* Ethayarajh, Duvenaud & Hirst (2019): RIPA of the professions on each debiaswe definitional gender pair,
  their mean with a bootstrap interval over the pairs, the spread across pairs and the sign-flip test
  (:func:`wordbias.measures.ripa.ripa`);
* Swinger et al. (2019): one UBE run on first names, with n, m, M scaled to the vocabulary
  (:func:`ube_parameters`), summarised as the number of significant (group, category) cells and a global
  p-value (Simes' test over the cells, the smallest Benjamini-Hochberg adjusted p).

Holm and Benjamini-Hochberg adjusted p are computed over the whole table (the family is named in
``p_family``). A test the embedding cannot run (words missing, a list left too small) gets a row with NA
numbers and the reason in ``note``; the words dropped are listed in ``dropped``. The same ``seed`` gives the
same table.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _sps

from wordbias import embeddings as _embeddings
from wordbias.core import lookup, multiple
from wordbias.core import tidy as _tidy
from wordbias.core.errors import InvalidParameterError, LowPowerWarning
from wordbias.core.parallel import default_workers
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_bool, check_int, check_seed
from wordbias.datasets import stimuli
from wordbias.measures import debias, direction, ube
from wordbias.measures import ripa as _ripa

__all__ = ["CONFIDENCE_LEVEL", "UBE_DEFAULTS", "UBE_NULL_SECONDS", "ube_parameters", "ube_row", "ube_battery", "weat_battery", "direction_battery",
           "report", "report_words"]

#: the level of every interval of the report
CONFIDENCE_LEVEL = 0.95
#: Swinger et al.'s Table 2 defaults, the upper bounds of :func:`ube_parameters`
UBE_DEFAULTS = dict(n=12, m=64, M=30_000, t=3, R=10_000)
#: the rotational null's estimated time (:func:`wordbias.measures.ube.null_cost`, itself a pessimistic
#: estimate) that :func:`ube_parameters` keeps the run under, by lowering M
UBE_NULL_SECONDS = 60.0
#: the errors that make one test of a battery not run (a row with NA and the reason) rather than stop it
_NOT_RUN = (ValueError, KeyError)


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------

def _as_keyed_vectors(embedding):
    """``embedding`` as gensim ``KeyedVectors``: a name or path is loaded, a word -> vector mapping converted."""
    if isinstance(embedding, (str, os.PathLike)):
        return _embeddings.load(embedding, progress=False)
    if hasattr(embedding, "index_to_key") and hasattr(embedding, "key_to_index"):
        return embedding
    if isinstance(embedding, Mapping):
        if not embedding:
            raise InvalidParameterError("embedding is empty (no word vectors)")
        words = list(embedding)
        return _embeddings.to_keyed_vectors(words, np.stack([np.asarray(embedding[w], dtype=np.float32)
                                                             for w in words]))
    raise InvalidParameterError(f"embedding must be a name, a path, KeyedVectors or a word -> vector mapping, not "
                                f"{type(embedding).__name__}")


def _label(embedding, label) -> str:
    if label is not None:
        if not isinstance(label, str) or not label:
            raise InvalidParameterError(f"label must be a non-empty string, not {label!r}")
        return label
    if isinstance(embedding, (str, os.PathLike)):
        return _embeddings.label(embedding)
    return "embedding"


def _not_run(base: dict, test: str, title: str, measure: str, err: BaseException, **extra) -> dict:
    """The row of a test that could not run: NA numbers, the reason in ``note``
    (:func:`wordbias.core.tidy.not_run_note`; the command reports such rows on stderr and exits with 3)."""
    return {**base, "test": test, "title": title, "measure": measure, **extra, "note": _tidy.not_run_note(err)}


def _warned(caught) -> str:
    """The low-power warnings caught while running a test, for its ``note`` (dropped words go to ``dropped``)."""
    msgs = dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, LowPowerWarning))
    return "; ".join(msgs)


def _join(*parts: str) -> str | None:
    text = "; ".join(p for p in parts if p)
    return text or None


def _sizes(n) -> tuple[int, int]:
    """``weat_table``'s ``n_target``/``n_attribute`` (``25`` or ``"25x24"``) as two integers."""
    if isinstance(n, str) and "x" in n:
        a, b = n.split("x")
        return int(a), int(b)
    return int(n), int(n)


def _weat_dropped(spec, missing: str, balanced: str) -> str:
    """``"X: w1 w2; A: w3; X balanced out: w4"`` from ``weat_table``'s ``missing``/``balanced_out`` columns,
    whose sets are named by the spec's display names (mapped back to X, Y, A, B)."""
    names = getattr(spec, "names", None) or {}
    role = {names.get(r, r): r for r in "XYAB"}
    out = []
    for text, suffix in ((missing, ""), (balanced, " balanced out")):
        for part in filter(None, (text or "").split("; ")):
            name, _, words = part.partition(": ")
            out.append(f"{role.get(name, name)}{suffix}: {words}")
    return "; ".join(out)


def _in_vocabulary(kv, words, case_fold: bool = False) -> int:
    """How many of ``words`` the embedding has (case-folded first if asked), as the measures look them up."""
    index = kv.key_to_index
    return sum((w.lower() if case_fold else w) in index for w in words)


def _coverage(kv, sets: Mapping[str, Sequence], cov: Mapping, case_fold: bool = False) -> _tidy.Coverage:
    """The coverage of a test's sets (name -> the words asked; a pair counts when both its words are known),
    judged by ``cov`` (``min_words``, ``min_fraction``; :func:`wordbias.core.tidy.coverage`)."""
    counts = {}
    for name, words in sets.items():
        words = list(words)
        if words and not isinstance(words[0], str):             # pairs
            kept = sum(_in_vocabulary(kv, p, case_fold) == len(p) for p in words)
        else:
            kept = _in_vocabulary(kv, words, case_fold)
        counts[name] = (kept, len(words))
    return _tidy.coverage(counts, **cov)


def _thresholds(min_words, min_fraction) -> dict:
    min_words, min_fraction = _tidy.check_coverage_thresholds(min_words, min_fraction)
    return dict(min_words=min_words, min_fraction=min_fraction)


def _as_spec(spec) -> stimuli.WeatSpec:
    """A :class:`~wordbias.datasets.stimuli.WeatSpec`, or a mapping / object with ``id``, ``X``, ``Y``, ``A``,
    ``B`` (and optionally ``title``, ``names``, ``paper``), as a ``WeatSpec``."""
    if isinstance(spec, stimuli.WeatSpec):
        return spec
    get = (lambda k, d=None: spec.get(k, d)) if isinstance(spec, Mapping) else (lambda k, d=None: getattr(spec, k, d))
    missing = [k for k in ("id", "X", "Y", "A", "B") if get(k) is None]
    if missing:
        raise InvalidParameterError(f"a WEAT spec needs id, X, Y, A and B; {spec!r:.80} lacks {missing}")
    return stimuli.WeatSpec(id=str(get("id")), title=str(get("title") or get("id")), X=tuple(get("X")),
                            Y=tuple(get("Y")), A=tuple(get("A")), B=tuple(get("B")), names=dict(get("names") or {}),
                            paper=dict(get("paper") or {}), original_finding=None, notes=get("notes"),
                            variant=get("variant") or "glove")


def _paper_note(spec, paper_key: str) -> str:
    paper = (spec.paper or {}).get(paper_key) or {}
    if paper.get("d") is None:
        return ""
    return f"paper: d = {paper['d']:.2f}, p {paper.get('p_text') or paper.get('p')}"


def _bootstrap_mean(values, *, n_resamples: int, seed: int):
    """BCa interval of the mean of ``values`` (one sample, :func:`scipy.stats.bootstrap`), or (NaN, NaN)
    when there are fewer than 3 values or they are all equal."""
    v = np.asarray(values, dtype=np.float64)
    if v.size < 3 or np.ptp(v) == 0:
        return math.nan, math.nan
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = _sps.bootstrap((v,), np.mean, n_resamples=n_resamples, confidence_level=CONFIDENCE_LEVEL,
                             method="BCa", vectorized=True, rng=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


# --------------------------------------------------------------------------------------------------
# WEAT and WEFAT rows (Caliskan et al. 2017)
# --------------------------------------------------------------------------------------------------

def _weat_rows(kv, specs, *, base: dict, paper_key: str, case_fold: bool, seed: int, n_permutations: int,
               n_resamples: int, progress: bool, cov: Mapping) -> list[dict]:
    from wordbias.papers import caliskan2017

    rows = []
    with progress_bar(len(specs), desc="WEATs", unit="test", enabled=progress) as bar:
        for spec in specs:
            spec = _as_spec(spec)
            cover = _coverage(kv, {r: getattr(spec, r) for r in "XYAB"}, cov, case_fold)
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    t = caliskan2017.weat_table(kv, [spec], paper_key=paper_key, case_fold=case_fold,
                                                n_permutations=n_permutations, seed=seed, n_resamples=n_resamples,
                                                confidence_level=CONFIDENCE_LEVEL).iloc[0]
            except _NOT_RUN as err:
                rows.append(_tidy.with_coverage(_weat_without_interval(
                    kv, spec, err, base=base, case_fold=case_fold, seed=seed, n_permutations=n_permutations), cover))
                bar.update(1)
                continue
            (n_x, n_y), (n_a, n_b) = _sizes(t.n_target), _sizes(t.n_attribute)
            rows.append(_tidy.with_coverage({**base, "test": spec.id, "title": spec.title, "measure": "weat",
                         "n_x": n_x, "n_y": n_y,
                         "n_a": n_a, "n_b": n_b, "statistic_name": "s(X,Y,A,B)", "statistic": t.statistic,
                         "effect_size_name": "d", "effect_size": t.effect_size, "ci_low": t.effect_size_ci_low,
                         "ci_high": t.effect_size_ci_high, "ci_level": CONFIDENCE_LEVEL,
                         "ci_method": t.effect_size_ci, "p_value": t.p_value, "alternative": t.alternative,
                         "p_method": t.p_method, "p_two_sided": t.p_two_sided,
                         "dropped": _weat_dropped(spec, t.missing, t.balanced_out),
                         "n_permutations": n_permutations if t.p_method == "monte-carlo" else None,
                         "note": _join(_paper_note(spec, paper_key), _warned(caught))}, cover))
            bar.update(1)
    return rows


def _weat_without_interval(kv, spec, err: BaseException, *, base: dict, case_fold: bool, seed: int,
                           n_permutations: int) -> dict:
    """The row of a WEAT that :func:`~wordbias.papers.caliskan2017.weat_table` could not run: d and p without an
    interval when only the bootstrap failed (e.g. a set of one word), else NA and the reason."""
    from wordbias.measures import weat as _weat

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = _weat.weat(kv, spec.X, spec.Y, spec.A, spec.B, names=spec.names, case_fold=case_fold,
                             n_permutations=n_permutations, seed=seed)
            two = _weat.p_value(res.s_x, res.s_y, p_method=res.p_method, n_permutations=n_permutations, seed=seed,
                                alternative="two-sided")
    except _NOT_RUN as err2:
        return _not_run(base, spec.id, spec.title, "weat", err2, statistic_name="s(X,Y,A,B)",
                        effect_size_name="d", alternative="greater",
                        dropped=_unknown(kv, {r: getattr(spec, r) for r in "XYAB"}, case_fold))
    s = res.summary()
    return {**base, "test": spec.id, "title": spec.title, "measure": "weat", "n_x": len(res.X.words),
            "n_y": len(res.Y.words), "n_a": len(res.A.words), "n_b": len(res.B.words),
            "statistic_name": "s(X,Y,A,B)", "statistic": res.statistic, "effect_size_name": "d",
            "effect_size": res.effect_size, "p_value": res.p_value, "alternative": res.alternative,
            "p_method": res.p_method, "p_two_sided": two.p_value,
            "dropped": _weat_dropped(spec, s["missing"], s["balanced_out"]),
            "n_permutations": n_permutations if res.p_method == "monte-carlo" else None, "n_resamples": None,
            "note": _join(_tidy.part_missing_note("bootstrap interval", err), _warned(caught))}


def _unknown(kv, sets: Mapping[str, Sequence[str]], case_fold: bool) -> str:
    """The ``dropped`` cell of a test that did not run: the words of each set the embedding lacks."""
    fold = str.lower if case_fold else (lambda w: w)
    index = kv.key_to_index
    return _tidy.dropped_text({k: [w for w in words if fold(w) not in index] for k, words in sets.items()})


def _wefat_rows(kv, *, base: dict, case_fold: bool, seed: int, n_resamples: int, cov: Mapping) -> list[dict]:
    from wordbias.papers import caliskan2017

    rows = []
    for spec in stimuli.wefat_tests("caliskan2017"):
        cover = _coverage(kv, {"W": spec.W, "A": spec.A, "B": spec.B}, cov, case_fold)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                table, results = caliskan2017.wefat_table(kv, [spec], case_fold=case_fold, n_resamples=n_resamples,
                                                          confidence_level=CONFIDENCE_LEVEL, seed=seed)
        except _NOT_RUN as err:
            rows.append(_tidy.with_coverage(_not_run(
                base, spec.id, spec.title, "wefat", err, statistic_name="Pearson r", effect_size_name="r",
                alternative="two-sided", dropped=_unknown(kv, {"W": spec.W, "A": spec.A, "B": spec.B}, case_fold)),
                cover))
            continue
        t, res = table.iloc[0], results[spec.id]
        paper = (spec.paper or {}).get("glove") or {}
        rows.append(_tidy.with_coverage({**base, "test": spec.id, "title": spec.title, "measure": "wefat",
                     "n_x": int(t.n),
                     "n_a": len(res.A.words), "n_b": len(res.B.words), "statistic_name": "Pearson r",
                     "statistic": t.pearson_r, "effect_size_name": "r", "effect_size": t.pearson_r,
                     "ci_low": t.pearson_r_ci_low, "ci_high": t.pearson_r_ci_high, "ci_level": CONFIDENCE_LEVEL,
                     "ci_method": f"BCa {CONFIDENCE_LEVEL:.0%}, {n_resamples:,} resamples of W (with the property) "
                                  "and A, B",
                     "p_value": t.p_value, "alternative": "two-sided", "p_method": "t", "p_two_sided": t.p_value,
                     "dropped": _tidy.dropped_text({"W": res.W.missing, "A": res.A.missing, "B": res.B.missing}),
                     "n_resamples": n_resamples,
                     "note": _join(f"paper: r = {paper['r']:.2f}" if paper.get("r") is not None else "",
                                   _warned(caught))}, cover))
    return rows


def weat_battery(embedding, specs: Sequence, *, label: str, battery: str, paper: str, seed: int = 0,
                 n_permutations: int = 100_000, n_resamples: int = 10_000, case_fold: bool | None = None,
                 progress: bool = False, min_words: int = _tidy.MIN_WORDS,
                 min_fraction: float = _tidy.MIN_FRACTION) -> pd.DataFrame:
    """The WEATs of ``specs`` on ``embedding`` as a tidy table (:mod:`wordbias.core.tidy`), one row per test.

    Each row has d (Caliskan et al. 2017, Methods) with its BCa bootstrap interval over the words
    (:func:`wordbias.measures.bootstrap.weat_bootstrap`), the one-sided permutation p (the paper's test;
    exact where it can be counted, else Monte Carlo with ``n_permutations`` draws) and the two-sided p, and
    Holm's and Benjamini-Hochberg's adjusted p over the battery (:func:`wordbias.core.tidy.adjust_family`),
    all through :func:`wordbias.papers.caliskan2017.weat_table`. ``specs`` are
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
    _check_names(label=label, battery=battery, paper=paper)
    seed = check_seed("seed", seed)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    cov = _thresholds(min_words, min_fraction)
    if isinstance(specs, (str, bytes, Mapping)) or not isinstance(specs, Sequence) or not specs:
        raise InvalidParameterError(f"specs must be a non-empty list of WEAT specs, not {type(specs).__name__}")
    kv = _as_keyed_vectors(embedding)
    case_fold = (not _embeddings.is_cased(kv)) if case_fold is None else check_bool("case_fold", case_fold)
    base = dict(embedding=label, paper=paper, battery=battery, seed=seed, n_resamples=n_resamples)
    paper_key = "word2vec" if all(getattr(_as_spec(s), "variant", "glove") == "word2vec" for s in specs) else "glove"
    rows = _weat_rows(kv, specs, base=base, paper_key=paper_key, case_fold=case_fold, seed=seed,
                      n_permutations=n_permutations, n_resamples=n_resamples, progress=progress, cov=cov)
    frame = _tidy.tidy_frame(rows)
    _tidy.warn_low_coverage(frame)
    n_p = int(frame.p_value.notna().sum())
    return _tidy.adjust_family(frame, f"{battery} on {label}: the {n_p} WEATs with a p-value (one-sided p)")


def direction_battery(embedding, *, label: str, seed: int = 0, n_permutations: int = 10_000,
                      n_resamples: int = 10_000, min_words: int = _tidy.MIN_WORDS,
                      min_fraction: float = _tidy.MIN_FRACTION) -> pd.DataFrame:
    """The racial bias report's three direction tests (implicit, explicit, stereotypical attribute sets) on
    ``embedding`` as a tidy table: the cosine bias with its bootstrap interval, the report's one-sided
    permutation p and the two-sided p, Holm's and Benjamini-Hochberg's adjusted p over the three tests (the
    family of :func:`wordbias.papers.racial_bias_report.table1` on one embedding), through that table. Each
    row's ``coverage`` gives T1, T2, A1, A2's words in the vocabulary of those asked; ``min_words`` and
    ``min_fraction`` flag a row as in :func:`weat_battery`.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(30)], np.random.default_rng(0).normal(size=(30, 5)))
    >>> t = direction_battery(kv, label="random", n_resamples=100)
    >>> t.test.tolist(), t.note.str.startswith("not run").all()          # none of the report's words is known
    (['implicit', 'explicit', 'stereotypical'], np.True_)
    """
    _check_names(label=label)
    seed = check_seed("seed", seed)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    cov = _thresholds(min_words, min_fraction)
    kv = _as_keyed_vectors(embedding)
    rows = _direction_rows(kv, label, base=dict(embedding=label, seed=seed, n_resamples=n_resamples), seed=seed,
                           n_permutations=n_permutations, n_resamples=n_resamples, cov=cov)
    frame = _tidy.tidy_frame(rows)
    _tidy.warn_low_coverage(frame)
    n_p = int(frame.p_value.notna().sum())
    return _tidy.adjust_family(frame, f"racial_bias_report on {label}: the {n_p} direction tests with a p-value "
                                      "(one-sided p)")


def ube_battery(runs: Mapping, *, label: str, seed: int = 0) -> pd.DataFrame:
    """UBE runs already made (Swinger et al. 2019; :func:`wordbias.papers.swinger2019.run`), by name (e.g.
    ``{"first names": res, "last names": res_last}``), as a tidy table: one :func:`ube_row` each (test
    ``UBE:<name>``), with Holm and Benjamini-Hochberg over their global p."""
    _check_names(label=label)
    if not isinstance(runs, Mapping) or not runs:
        raise InvalidParameterError(f"runs must map names to UBE results, not {type(runs).__name__}")
    base = dict(embedding=label, paper="swinger2019", battery="swinger2019", seed=check_seed("seed", seed))
    rows = [ube_row(res, base=base, test="UBE:" + "_".join(name.replace(",", " ").split()),
                    title=f"UBE: {name} groups x word categories (rotational null)") for name, res in runs.items()]
    frame = _tidy.tidy_frame(rows)
    return _tidy.adjust_family(frame, f"swinger2019 on {label}: the {len(frame)} UBE runs (Simes' global p)")


def _check_names(**names) -> None:
    for k, v in names.items():
        if not isinstance(v, str) or not v:
            raise InvalidParameterError(f"{k} must be a non-empty string, not {v!r}")
    if "paper" in names and names["paper"] not in _tidy.PAPERS:
        raise InvalidParameterError(f"paper must be one of {', '.join(_tidy.PAPERS)}, not {names['paper']!r}")


# --------------------------------------------------------------------------------------------------
# the racial bias report: direction tests and direct bias; RIPA
# --------------------------------------------------------------------------------------------------

_KIND_TITLES = {"implicit": "Race direction from names vs positive-negative words",
                "explicit": "Race direction from race words vs positive-negative words",
                "stereotypical": "Race direction from stereotypical words vs positive-negative words"}


def _direction_rows(kv, label: str, *, base: dict, seed: int, n_permutations: int, n_resamples: int,
                    cov: Mapping) -> list[dict]:
    from wordbias.papers import racial_bias_report as rbr

    base = {**base, "paper": "racial_bias_report", "battery": "racial_bias_report"}
    T1, T2 = rbr.target_sets()
    cased = _embeddings.is_cased(kv)
    cover = {kind: _coverage(kv, dict(zip(("T1", "T2", "A1", "A2"), (T1, T2, *rbr.attribute_sets(kind, cased=cased)))),
                             cov) for kind in rbr.KINDS}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = rbr.table1({label: kv}, n_permutations=n_permutations, seed=seed, n_resamples=n_resamples)
            targets = lookup.set_vectors(kv, *rbr.target_sets(), name="targets", warn=False)
    except _NOT_RUN as err:
        return [_tidy.with_coverage(_not_run(
                    base, kind, _KIND_TITLES[kind], "direction", err, statistic_name="cos(r, s)",
                    effect_size_name="cos", alternative="greater",
                    dropped=_unknown(kv, dict(zip(("T1", "T2", "A1", "A2"),
                                                  (T1, T2, *rbr.attribute_sets(kind, cased=cased)))), False)),
                    cover[kind])
                for kind in rbr.KINDS]
    miss = result.missing.set_index("set")
    t_drop = {"T1": targets.missing[0], "T2": targets.missing[1]}
    rows = []
    for _, t in result.table.iterrows():
        m = miss.loc[t.attributes]
        dropped = _tidy.dropped_text({**t_drop, "A1": [w for w in m.missing_A1.split(", ") if w],
                                      "A2": [w for w in m.missing_A2.split(", ") if w]})
        rows.append(_tidy.with_coverage({**base, "test": t.attributes,
                     "title": _KIND_TITLES.get(t.attributes, t.attributes),
                     "measure": "direction", "n_x": len(targets.words[0]), "n_y": len(targets.words[1]),
                     "n_a": int(t.n_A1), "n_b": int(t.n_A2), "statistic_name": "cos(r, s)", "statistic": t.bias,
                     "effect_size_name": "cos", "effect_size": t.bias, "ci_low": t.bias_ci_low,
                     "ci_high": t.bias_ci_high, "ci_level": CONFIDENCE_LEVEL,
                     "ci_method": f"BCa {CONFIDENCE_LEVEL:.0%}, {n_resamples:,} resamples of "
                                  + ", ".join(k for k in ("T1", "T2", "A1", "A2") if k in t.bias_ci_resampled),
                     "p_value": t.p, "alternative": "greater", "p_method": "monte-carlo",
                     "p_two_sided": t.p_two_sided, "dropped": dropped, "n_permutations": n_permutations,
                     "note": f"angle {t.angle:.1f} degrees; p as the report computes it (no add-one rule, may be 0), "
                             f"Appendix A's Wald interval on p [{t.p_ci_low:.4f}, {t.p_ci_high:.4f}]"},
                    cover.get(t.attributes)))
    return rows


def report_words(kv) -> set[str]:
    """The words :func:`report` looks up in ``kv`` for its word-set tests, as it looks them up (case-folded for an
    uncased vocabulary): Caliskan et al.'s WEAT ("glove" lists) and WEFAT lists, the racial bias report's target
    and attribute sets, the debiaswe professions and definitional pairs. UBE's names and words (the vocabulary's
    own) are not among them. :func:`wordbias.battery.compare.compare` uses it to measure every embedding on the
    words they share (``common_vocabulary=True``)."""
    from wordbias.papers import racial_bias_report as rbr

    case_fold = not _embeddings.is_cased(kv)
    fold = str.lower if case_fold else (lambda w: w)
    words: set[str] = set()
    for spec in stimuli.weat_tests("caliskan2017", "glove"):
        words.update(fold(w) for r in "XYAB" for w in getattr(spec, r))
    for spec in stimuli.wefat_tests("caliskan2017"):
        words.update(fold(w) for r in ("W", "A", "B") for w in getattr(spec, r))
    for t in rbr.target_sets():
        words.update(t)
    for kind in rbr.KINDS:
        for a in rbr.attribute_sets(kind, cased=not case_fold):
            words.update(a)
    lists = debias.word_lists_for(kv)
    words.update(lists.professions)
    words.update(w for p in lists.definitional_pairs for w in p)
    return words


def _professions_coverage(kv, cov: Mapping) -> _tidy.Coverage:
    """The coverage of the debiaswe professions (N) and definitional pairs (a pair counts when both words are
    known), for the direct bias and RIPA."""
    lists = debias.word_lists_for(kv)
    return _coverage(kv, {"N": lists.professions, "pairs": lists.definitional_pairs}, cov)


def _direct_bias_row(kv, *, base: dict, seed: int, n_resamples: int, cov: Mapping) -> dict:
    return _tidy.with_coverage(_direct_bias(kv, base=base, seed=seed, n_resamples=n_resamples),
                               _professions_coverage(kv, cov))


def _direct_bias(kv, *, base: dict, seed: int, n_resamples: int) -> dict:
    base = {**base, "paper": "racial_bias_report", "battery": "racial_bias_report"}
    title = "Professions on the PCA gender direction: DirectBias_1 (Bolukbasi et al. 2016)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lists = debias.word_lists_for(kv)
            g, pairs = debias.gender_direction(kv)
            profs = lookup.word_set(kv, lists.professions, name="professions", warn=False)
        X = lookup.set_matrix(kv, profs.words, "professions")
        value = direction.direct_bias(X, g.direction, c=1)
        lo, hi = _bootstrap_mean(np.abs(direction.cosines(X, g.direction)), n_resamples=n_resamples, seed=seed)
    except _NOT_RUN as err:
        lists = debias.word_lists_for(kv)
        return _not_run(base, "direct_bias", title, "direct_bias", err, statistic_name="DirectBias_1",
                        effect_size_name="direct_bias", dropped=_unknown(kv, {
                            "N": lists.professions, "pairs": [w for p in lists.definitional_pairs for w in p]}, False))
    return {**base, "test": "direct_bias", "title": title, "measure": "direct_bias", "n_x": len(profs.words),
            "n_a": len(pairs.pairs), "n_b": len(pairs.pairs), "statistic_name": "DirectBias_1", "statistic": value,
            "effect_size_name": "direct_bias", "effect_size": value, "ci_low": lo, "ci_high": hi,
            "ci_level": CONFIDENCE_LEVEL,
            "ci_method": f"BCa {CONFIDENCE_LEVEL:.0%}, {n_resamples:,} resamples of the professions (direction fixed)",
            "dropped": _tidy.dropped_text({"N": profs.missing, "pairs": [f"{a}/{b}" for (a, b), _ in pairs.missing]}),
            "note": f"no test (a descriptive measure); PC1 explains {g.explained_variance_ratio[0]:.0%} of the "
                    f"{len(pairs.pairs)} definitional pairs' variance"}


def _ripa_row(kv, *, base: dict, seed: int, n_resamples: int, cov: Mapping) -> dict:
    return _tidy.with_coverage(_ripa_only(kv, base=base, seed=seed, n_resamples=n_resamples),
                               _professions_coverage(kv, cov))


def _ripa_only(kv, *, base: dict, seed: int, n_resamples: int) -> dict:
    base = {**base, "paper": "ethayarajh2019", "battery": "ethayarajh2019"}
    test, title = "RIPA:definitional_pairs", "Professions on each definitional gender pair (debiaswe)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lists = debias.word_lists_for(kv)
            r = _ripa.ripa(kv, lists.professions, lists.definitional_pairs, units="pairs", alternative="two-sided",
                           n_resamples=n_resamples, seed=seed)
        lo, hi = _bootstrap_mean(r.per_pair, n_resamples=n_resamples, seed=seed)
    except _NOT_RUN as err:
        lists = debias.word_lists_for(kv)
        return _not_run(base, test, title, "ripa", err, statistic_name="mean beta over pairs",
                        effect_size_name="ripa", alternative="two-sided", dropped=_unknown(kv, {
                            "N": lists.professions, "pairs": [w for p in lists.definitional_pairs for w in p]}, False))
    first = r.pairs[0][0] if r.pairs else "the first words"
    low, high = r.range
    return {**base, "test": test, "title": title, "measure": "ripa", "n_x": len(r.words), "n_a": len(r.pairs),
            "n_b": len(r.pairs), "statistic_name": "mean beta over pairs", "statistic": r.mean,
            "effect_size_name": "ripa", "effect_size": r.mean, "ci_low": lo, "ci_high": hi,
            "ci_level": CONFIDENCE_LEVEL,
            "ci_method": f"BCa {CONFIDENCE_LEVEL:.0%}, {n_resamples:,} resamples of the {len(r.pairs)} base pairs",
            "p_value": r.p_value, "alternative": "two-sided", "p_method": r.test.p_method,
            "p_two_sided": r.p_value, "dropped": _tidy.dropped_text(
                {"N": r.missing_words, "pairs": [f"{a}/{b}" for a, b in r.missing_pairs]}),
            "n_permutations": r.test.n_resamples,
            "note": f"sign-flip test over the base pairs; spread across pairs: sd {r.sd:.3f}, range "
                    f"[{low:.3f}, {high:.3f}]; positive = towards the pairs' first words ({first}, ...)"}


# --------------------------------------------------------------------------------------------------
# UBE (Swinger et al. 2019), scaled to the vocabulary
# --------------------------------------------------------------------------------------------------

def ube_parameters(vocabulary: int, n_names: int, dimension: int, *, workers: int = 2,
                   max_null_seconds: float = UBE_NULL_SECONDS) -> dict:
    """UBE's n, m, M, t, R for an embedding of ``vocabulary`` words of ``dimension``, ``n_names`` of whose
    tokens are first names: the paper's Table 2 values (n = 12, m = 64, M = 30,000, t = 3, R = 10,000) where
    the vocabulary allows, scaled down where it does not.

    The rule:

    * M = min(30,000, vocabulary // 4): the candidate words, at most a quarter of the vocabulary;
    * m = clip(round(64 · M / 30,000), 4, 64): about 470 words per category, as the paper's 30,000 / 64;
    * n = clip(n_names // 50, 2, 12): at least 50 names per group before cleaning;
    * t = 3 and R = 10,000 always (R sets the smallest p, 1/(R+1), and with it the power of
      Benjamini-Hochberg over n·m cells);
    * then, if the rotational null's estimated time (:func:`wordbias.measures.ube.null_cost`, R·n·M·(d + 8)
      multiply-adds at a pessimistic rate) exceeds ``max_null_seconds`` on ``workers`` threads, M is lowered
      until it fits (and m with it).

    Fewer than 100 names (n would be below 2) is an error (:class:`~wordbias.core.errors.DegenerateSetError`).

    Examples
    --------
    >>> ube_parameters(400_000, 7_071, 50)          # GloVe 6B 50d: the paper's values
    {'n': 12, 'm': 64, 'M': 30000, 't': 3, 'R': 10000}
    >>> ube_parameters(10_000, 600, 100)            # a small user embedding
    {'n': 12, 'm': 5, 'M': 2500, 't': 3, 'R': 10000}
    >>> ube_parameters(3_000_000, 9_000, 300, workers=1, max_null_seconds=30)["M"]   # time-bounded
    8116
    """
    from wordbias.core.errors import DegenerateSetError

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
    cost = ube.null_cost(d["R"], n, d["m"], M, dimension, workers).seconds
    if cost > max_null_seconds:
        M = int(M * max_null_seconds / cost)
    m = int(np.clip(round(d["m"] * M / d["M"]), 4, d["m"]))
    return dict(n=n, m=m, M=int(M), t=d["t"], R=d["R"])


def _ube_row(kv, *, base: dict, seed: int, progress: bool) -> dict:
    from wordbias.papers import swinger2019 as sw

    base = {**base, "paper": "swinger2019", "battery": "swinger2019"}
    test, title = "UBE:first_names", "UBE: first-name groups x word categories (rotational null)"
    workers = default_workers()
    try:
        cased = _embeddings.is_cased(kv)
        names = sw.name_list("first", kv, cased=cased)
        params = ube_parameters(len(kv.index_to_key), len(names.tokens), kv.vector_size, workers=workers)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = sw.run(kv, names, cased=cased, seed=seed, workers=workers, progress=progress, **params)
    except _NOT_RUN as err:
        return _not_run(base, test, title, "ube", err, statistic_name="significant cells",
                        alternative="greater")
    return ube_row(res, base=base, test=test, title=title,  # coverage NA: the names and words are the vocabulary's
                   note=_join(f"parameters scaled to the vocabulary: n={params['n']}, m={params['m']}, "
                              f"M={params['M']}, t={params['t']}, R={params['R']}; {len(names.tokens):,} first "
                              f"names in the vocabulary, {len(res.names):,} after cleaning; case rule "
                              f"{res.params.get('case_source')!s}", _warned(caught)))


def ube_row(res, *, base: dict, test: str, title: str, note: str = "") -> dict:
    """One tidy row (a dict of :data:`wordbias.core.tidy.COLUMNS`) summing up a UBE run (Swinger et al.
    2019; :func:`wordbias.papers.swinger2019.run`): the number of significant (group, category) cells as the
    statistic (UBE has no single effect size), and Simes' global p over the testable cells' rotational-null p
    (the smallest Benjamini-Hochberg adjusted p) as the p-value. ``base`` holds the row's embedding, paper,
    battery and seed."""
    from wordbias.papers import swinger2019 as sw

    finite = np.isfinite(res.sigma)
    summary = sw.significance_summary(res)
    simes = float(multiple.benjamini_hochberg(res.p[finite]).min()) if finite.any() else math.nan
    return {**base, "test": test, "title": title, "measure": "ube", "n_x": len(res.names), "n_a": len(res.words),
            "statistic_name": "significant cells", "statistic": float(summary["n_significant"]),
            "p_value": simes, "alternative": "greater",
            "p_method": f"rotational null, Simes over {int(finite.sum())} cells", "dropped": "",
            "n_permutations": res.params["R"],
            "note": _join(f"no effect size; {summary['n_significant']} of {summary['n_tests']} testable cells "
                          f"significant (Benjamini-Hochberg, alpha {res.params['alpha']})", note)}


# --------------------------------------------------------------------------------------------------
# the report
# --------------------------------------------------------------------------------------------------

def report(embedding, *, label: str | None = None, seed: int = 0, n_permutations: int = 100_000,
           n_resamples: int = 10_000, ube: bool = True, progress: bool = True, min_words: int = _tidy.MIN_WORDS,
           min_fraction: float = _tidy.MIN_FRACTION) -> pd.DataFrame:
    """Every test of the four papers that applies to a static embedding, as one tidy table (issue 15).

    The rows, in order: Caliskan et al.'s ten WEATs (the "glove" lists) and two WEFATs; the racial bias
    report's three direction tests and the direct bias of the professions; RIPA on the gender pairs; one UBE
    run on first names with parameters scaled to the vocabulary (:func:`ube_parameters`; ``ube=False``
    leaves it out). See the module docstring for what each computes. ``embedding`` is a registry name, a
    path (loaded by :func:`wordbias.embeddings.load`), ``KeyedVectors`` or a word -> vector mapping;
    ``label`` names it in the table (default: the name's label, or ``"embedding"``). Case is folded for an
    uncased vocabulary. Holm and Benjamini-Hochberg adjusted p are over every row with a p-value (the
    family is named in ``p_family``). The time each part took is in ``frame.attrs["timings"]`` (wall-clock
    seconds; the process's CPU seconds, all threads, in ``frame.attrs["cpu_timings"]``), the parameters in
    ``frame.attrs["parameters"]``.

    Each row's ``coverage`` gives its sets' words in the vocabulary of those asked (WEAT X, Y, A, B; WEFAT W, A,
    B; direction T1, T2, A1, A2; direct bias and RIPA the professions N and the definitional pairs; NA for UBE,
    which samples the vocabulary); a set keeping fewer than ``min_words`` words or less than ``min_fraction`` of
    its list flags the row (``low_coverage``, the note begins ``"low coverage:"``, one
    :class:`~wordbias.core.errors.LowCoverageWarning` per flagged test that ran;
    :func:`wordbias.core.tidy.coverage_flag`).

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(50)], np.random.default_rng(0).normal(size=(50, 5)))
    >>> t = report(kv, label="random", ube=False, n_resamples=100, progress=False)
    >>> len(t), int(t.effect_size.notna().sum()), t.note.str.startswith("not run").all()   # no word is known
    (17, 0, np.True_)
    """
    seed = check_seed("seed", seed)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    ube = check_bool("ube", ube)
    progress = check_bool("progress", progress)
    cov = _thresholds(min_words, min_fraction)
    label = _label(embedding, label)
    kv = _as_keyed_vectors(embedding)
    case_fold = not _embeddings.is_cased(kv)
    base = dict(embedding=label, seed=seed, n_resamples=n_resamples)
    cal = {**base, "paper": "caliskan2017", "battery": "caliskan2017"}
    parts = [
        ("WEAT", lambda: _weat_rows(kv, stimuli.weat_tests("caliskan2017", "glove"), base=cal, paper_key="glove",
                                    case_fold=case_fold, seed=seed, n_permutations=n_permutations,
                                    n_resamples=n_resamples, progress=False, cov=cov)),
        ("WEFAT", lambda: _wefat_rows(kv, base=cal, case_fold=case_fold, seed=seed, n_resamples=n_resamples,
                                      cov=cov)),
        ("direction", lambda: _direction_rows(kv, label, base=base, seed=seed, n_permutations=n_permutations,
                                              n_resamples=n_resamples, cov=cov)),
        ("direct bias", lambda: [_direct_bias_row(kv, base=base, seed=seed, n_resamples=n_resamples, cov=cov)]),
        ("RIPA", lambda: [_ripa_row(kv, base=base, seed=seed, n_resamples=n_resamples, cov=cov)]),
    ]
    if ube:
        parts.append(("UBE", lambda: [_ube_row(kv, base={**base, "n_resamples": None}, seed=seed,
                                               progress=False)]))
    rows, timings, cpu = [], {}, {}
    with progress_bar(len(parts), desc=f"report on {label}", unit="part", enabled=progress) as bar:
        for name, run in parts:
            if hasattr(bar, "set_postfix_str"):
                bar.set_postfix_str(name)
            start, start_cpu = time.perf_counter(), time.process_time()
            rows += run()
            timings[name] = time.perf_counter() - start
            cpu[name] = time.process_time() - start_cpu
            bar.update(1)
    frame = _tidy.tidy_frame(rows)
    _tidy.warn_low_coverage(frame)
    n_p = int(frame.p_value.notna().sum())
    frame = _tidy.adjust_family(frame, f"report on {label}: the {n_p} tests with a p-value (WEAT and direction "
                                       "one-sided; WEFAT and RIPA two-sided; UBE Simes' global p)")
    frame.attrs["timings"] = timings
    frame.attrs["cpu_timings"] = cpu
    frame.attrs["parameters"] = dict(embedding=label, vocabulary=len(kv.index_to_key), dimension=kv.vector_size,
                                     cased=not case_fold, seed=seed, n_permutations=n_permutations,
                                     n_resamples=n_resamples, ube=ube, **cov)
    return frame
