"""``wordbias report``: every static-embedding test of the four papers as one tidy table.

:func:`report` measures everything of the four papers that applies to a static embedding, each test once, and
shows it one row per test in the schema of :mod:`wordbias.core.tidy` (a user's own lists are
:func:`wordbias.battery.weat.weat_battery`):

* Caliskan, Bryson & Narayanan (2017): the ten WEATs (the "glove" word lists) with d, its BCa bootstrap
  interval, the one- and two-sided permutation p (:func:`wordbias.measures.association.measurement.weats`), and the two
  WEFATs with Pearson's r and its interval (:func:`~wordbias.measures.association.measurement.wefats`);
* the racial bias report: the three direction tests, cos(r, s) with its bootstrap interval and the permutation
  p, each measured once (:func:`wordbias.battery.direction.measure_directions`), and Bolukbasi et al.'s (2016,
  §5.2) DirectBias_1 of the debiaswe professions on the PCA gender direction (as the report's Section 2), with a
  bootstrap interval over the professions (the direction held fixed; :func:`wordbias.battery.direction.direct_bias_row`);
* Ethayarajh, Duvenaud & Hirst (2019): RIPA of the professions on each debiaswe definitional gender pair,
  their mean with a bootstrap interval over the pairs, the spread across pairs and the sign-flip test
  (:func:`wordbias.measures.directions.ripa.ripa`);
* WEFE's family of measures (:mod:`wordbias.battery.metrics`): ECT (Dev & Phillips 2019), RND (Garg et al.
  2018), MAC (Manzini et al. 2019) and SemAxis (An et al. 2018) on the gender WEATs 6-8, RNSB (Sweeney &
  Najafian 2019) on WEAT3's names and sentiment lists, and Bolukbasi et al.'s (2016, §5.2) indirect bias of
  softball and football with the professions at their extremes, each with its interval and, where the paper's
  null makes sense, its permutation p;
* Swinger et al. (2019): one UBE run on first names, with n, m, M scaled to the vocabulary
  (:func:`wordbias.battery.ube.ube_parameters`), summarised as the number of significant (group, category) cells and a global
  p-value (Simes' test over the cells, the smallest Benjamini-Hochberg adjusted p).

Holm and Benjamini-Hochberg adjusted p are computed over the whole table (the family is named in
``p_family``). A test the embedding cannot run (words missing, a list left too small) gets a row with NA
numbers and the reason in ``note``; the words dropped are listed in ``dropped``. The same ``seed`` gives the
same table.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping

import pandas as pd

from wordbias import embeddings as _embeddings
from wordbias.battery import weat as _weat
from wordbias.battery.direction import direct_bias_row, direction_rows, measure_directions, ripa_row
from wordbias.battery.metrics import metric_rows
from wordbias.battery.ube import first_names_row as _ube_row
from wordbias.battery.weat import as_keyed_vectors
from wordbias.core import tidy as _tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.parallel import ForkedCall, default_workers, fork_available
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_bool, check_int, check_option, check_seed
from wordbias.datasets import stimuli
from wordbias.embeddings.keyed_vectors import measuring
from wordbias.measures.association import measurement as _measurement
from wordbias.options import BALANCE_POLICIES, Resampling, Words
from wordbias.stats.multiple import adjust_family

__all__ = ["report"]


def _label(embedding, label) -> str:
    if label is not None:
        if not isinstance(label, str) or not label:
            raise InvalidParameterError(f"label must be a non-empty string, not {label!r}")
        return label
    if isinstance(embedding, (str, os.PathLike)):
        return _embeddings.label(embedding)
    return "embedding"


def _weat_rows(kv, *, base: dict, case_fold: bool, seed: int, n_permutations: int, n_resamples: int,
               cov: Mapping, balance_targets: str = "random") -> list[dict]:
    """Caliskan et al.'s ten WEATs (the "glove" lists), measured once each, as tidy rows (adjusted later, over
    the whole report)."""
    specs = stimuli.weat_tests("caliskan2017", "glove")
    results = _measurement.weats(kv, specs, resampling=Resampling(n_resamples=n_resamples,
                                                                  n_permutations=n_permutations, seed=seed),
                                 words=Words(case_fold=case_fold, balance_targets=balance_targets, **cov))
    return [_weat.weat_row(m, base=base, note=_weat.paper_note(s, "glove")) for m, s in zip(results, specs)]


def _wefat_rows(kv, *, base: dict, case_fold: bool, seed: int, n_resamples: int, cov: Mapping) -> list[dict]:
    """Caliskan et al.'s two WEFATs, measured once each, as tidy rows."""
    specs = stimuli.wefat_tests("caliskan2017")
    results = _measurement.wefats(kv, specs, resampling=Resampling(n_resamples=n_resamples, seed=seed),
                                  words=Words(case_fold=case_fold, **cov))
    notes = [f"paper: r = {r:.2f}" if (r := ((s.paper or {}).get("glove") or {}).get("r")) is not None else ""
             for s in specs]
    return [_weat.wefat_row(m, base=base, note=n) for m, n in zip(results, notes)]


#: the name of UBE's part in ``frame.attrs["timings"]`` when it ran in a forked process beside the other parts
FORKED_UBE = "UBE (own process, beside the others)"


def report(embedding, *, label: str | None = None, seed: int = 0, n_permutations: int = 100_000,
           n_resamples: int = 10_000, ube: bool = True, progress: bool = True, min_words: int = _tidy.MIN_WORDS,
           min_fraction: float = _tidy.MIN_FRACTION, balance_targets: str = "random", concurrent: bool = False,
           while_waiting: Callable[[], object] | None = None) -> pd.DataFrame:
    """Measure every test of the four papers that applies to a static embedding and return one tidy table.

    The rows, in order: Caliskan et al.'s ten WEATs (the "glove" lists) and two WEFATs; the racial bias
    report's three direction tests and the direct bias of the professions; RIPA on the gender pairs; ECT, RND, MAC
    and SemAxis on WEAT6-8, RNSB on WEAT3 and two indirect biases (:func:`wordbias.battery.metrics.metric_rows`);
    one UBE run on first names with parameters scaled to the vocabulary (:func:`~wordbias.battery.ube.ube_parameters`;
    ``ube=False`` leaves it out). See the module docstring for what each computes. Case is folded for an
    uncased vocabulary. Holm and Benjamini-Hochberg adjusted p are over every row with a p-value (the family
    is named in ``p_family``).

    Each row's ``coverage`` gives its sets' words in the vocabulary of those asked (WEAT X, Y, A, B; WEFAT W, A,
    B; direction T1, T2, A1, A2; direct bias and RIPA the professions N and the definitional pairs; NA for UBE,
    which samples the vocabulary); a set keeping fewer than ``min_words`` words or less than ``min_fraction`` of
    its list flags the row (``low_coverage``, the note begins ``"low coverage:"``, one
    :class:`~wordbias.core.errors.LowCoverageWarning` per flagged test that ran;
    :func:`wordbias.core.tidy.coverage_flag`).

    Parameters
    ----------
    embedding : str or path-like or KeyedVectors or mapping
        A registry name, a path (loaded by :func:`wordbias.embeddings.load`), ``KeyedVectors`` or a
        word -> vector mapping.
    label : str, optional
        The embedding's name in the table (default: the name's label, :func:`wordbias.embeddings.label`, or
        ``"embedding"`` for vectors already loaded).
    seed : int, default 0
        The seed of every random draw; the same seed gives the same table.
    n_permutations : int, default 100000
        The Monte Carlo draws of a permutation p that cannot be counted exactly.
    n_resamples : int, default 10000
        The bootstrap resamples of each interval (at least 2).
    ube : bool, default True
        Whether to run UBE on first names.
    progress : bool, default True
        Whether to show a progress bar over the parts.
    min_words : int, default 4
        A set keeping fewer words than this is flagged as low coverage.
    min_fraction : float, default 0.5
        A set keeping less than this fraction of its list is flagged as low coverage.
    balance_targets : {"random", "none", "raise"}, default "random"
        How the WEATs treat target sets of unequal size (:data:`wordbias.options.BALANCE_POLICIES`): delete words
        of the larger set at random (Caliskan et al.'s rule, seeded by ``seed``), keep both whole, or refuse
        them; recorded in ``frame.attrs["parameters"]`` when not ``"random"``.
    concurrent : bool, default False
        Whether UBE runs in a forked process (:class:`wordbias.core.parallel.ForkedCall`) beside the other
        tests, where the platform forks and more than one worker is allowed
        (:func:`~wordbias.core.parallel.default_workers`): the same table, about 2 s sooner on GloVe 6B 50d on
        2 cores. ``wordbias report`` and ``compare`` ask for it; it is off by default because forking a
        process that has threads of its own (a Jupyter kernel, OpenMP's) is safe only if none of them holds a
        lock the child needs.
    while_waiting : callable or None, default None
        With ``concurrent``, called once in this process when the other tests are done and the forked UBE still
        runs (the command imports its plotting modules there, which its pages need next).

    Returns
    -------
    pandas.DataFrame
        The tidy table (:mod:`wordbias.core.tidy`). The time each part took is in ``frame.attrs["timings"]``
        (UBE's under :data:`FORKED_UBE` when it ran in its own process; ``"total"``: all the parts' wall time)
        (wall-clock seconds; the process's CPU seconds, all threads, in ``frame.attrs["cpu_timings"]``), the
        parameters in ``frame.attrs["parameters"]``.

    Raises
    ------
    InvalidParameterError
        When an option is invalid (a seed, a count, a flag, the coverage thresholds, an empty label, a
        ``while_waiting`` that is not callable).

    Warns
    -----
    LowCoverageWarning
        Once per flagged test of the report that ran (:func:`wordbias.core.tidy.warn_low_coverage`).

    See Also
    --------
    wordbias.battery.weat.weat_battery : The WEATs of a user's own lists.
    wordbias.battery.compare.compare : The report on several embeddings.

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors([f"w{i}" for i in range(50)], np.random.default_rng(0).normal(size=(50, 5)))
    >>> t = report(kv, label="random", ube=False, n_resamples=100, progress=False)
    >>> len(t), int(t.effect_size.notna().sum()), t.note.str.startswith("not run").all()   # no word is known
    (32, 0, np.True_)
    """
    seed = check_seed("seed", seed)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    ube = check_bool("ube", ube)
    progress = check_bool("progress", progress)
    concurrent = check_bool("concurrent", concurrent)
    if while_waiting is not None and not callable(while_waiting):
        raise InvalidParameterError(f"while_waiting must be a function of no arguments or None, not "
                                    f"{type(while_waiting).__name__}")
    min_words, min_fraction = _tidy.check_coverage_thresholds(min_words, min_fraction)
    cov = dict(min_words=min_words, min_fraction=min_fraction)
    check_option("balance_targets", balance_targets, BALANCE_POLICIES)
    label = _label(embedding, label)
    kv = as_keyed_vectors(embedding)   # loaded, or its matrix checked, once
    with measuring(kv):               # every part measures this object: no part checks it or reads its case again
        frame = _measure(kv, label=label, seed=seed, n_permutations=n_permutations, n_resamples=n_resamples,
                         ube=ube, progress=progress, cov=cov, concurrent=concurrent, while_waiting=while_waiting,
                         balance_targets=balance_targets)
    return frame


#: the compiled kernels (:mod:`wordbias.stats.kernels`) the report's tests other than UBE call
_REPORT_KERNELS = ("subset_sums_by_size", "count_pairs", "mask_sum_table", "_mc_mask_blocks")


def _load_kernels() -> None:
    """Before UBE's process is forked: load the kernels this process's tests call (from numba's disk cache,
    compiled where absent), and with them numba and its compiler's set-up (about 0.5 s), which the forked process
    then shares instead of repeating for its own kernels."""
    from wordbias.stats import kernels

    kernels.compile_all({name: kernels.SIGNATURES[name] for name in _REPORT_KERNELS})


def _own_core(forked: bool):
    """While the forked UBE runs beside this process: BLAS on one thread here, so the two processes keep to a core
    each instead of taking turns on both (OpenBLAS's threads spin while they wait for work)."""
    if not forked:
        return contextlib.nullcontext()
    from threadpoolctl import threadpool_limits

    return threadpool_limits(1, user_api="blas")


def _measure(kv, *, label: str, seed: int, n_permutations: int, n_resamples: int, ube: bool, progress: bool,
             cov: Mapping, concurrent: bool, while_waiting, balance_targets: str = "random") -> pd.DataFrame:
    """The report's parts on ``kv`` (loaded and checked by :func:`report`), then the table with its adjusted p,
    timings and parameters."""
    case_fold = not _embeddings.is_cased(kv)
    base = dict(embedding=label, seed=seed, n_resamples=n_resamples)
    cal = {**base, "paper": "caliskan2017", "battery": "caliskan2017"}
    parts = [
        ("WEAT", lambda: _weat_rows(kv, base=cal, case_fold=case_fold, seed=seed, n_permutations=n_permutations,
                                    n_resamples=n_resamples, cov=cov, balance_targets=balance_targets)),
        ("WEFAT", lambda: _wefat_rows(kv, base=cal, case_fold=case_fold, seed=seed, n_resamples=n_resamples,
                                      cov=cov)),
        ("direction", lambda: direction_rows(measure_directions(kv, seed=seed, n_permutations=n_permutations,
                                                                n_resamples=n_resamples, **cov), label=label)),
        ("direct bias", lambda: [direct_bias_row(kv, base=base, seed=seed, n_resamples=n_resamples, cov=cov)]),
        ("RIPA", lambda: [ripa_row(kv, base=base, seed=seed, n_resamples=n_resamples, cov=cov)]),
        ("metrics", lambda: metric_rows(kv, base=base, case_fold=case_fold, seed=seed, n_permutations=n_permutations,
                                        n_resamples=n_resamples, cov=cov)),
    ]
    rows, timings, cpu = [], {}, {}
    started = time.perf_counter()
    forked = None
    if ube:
        def ube_part():
            return [_ube_row(kv, base={**base, "n_resamples": None}, seed=seed, progress=False)]

        if concurrent and fork_available() and default_workers() > 1:
            _load_kernels()
            forked = ForkedCall(ube_part)   # its row takes its place after the others: the same table
        else:
            parts.append(("UBE", ube_part))
    try:
        with _own_core(forked is not None), progress_bar(len(parts) + (forked is not None), desc=f"report on {label}",
                                                          unit="part", enabled=progress) as bar:
            for name, run in parts:
                if hasattr(bar, "set_postfix_str"):
                    bar.set_postfix_str(name)
                start, start_cpu = time.perf_counter(), time.process_time()
                rows += run()
                timings[name] = time.perf_counter() - start
                cpu[name] = time.process_time() - start_cpu
                bar.update(1)
            if forked is not None:
                if hasattr(bar, "set_postfix_str"):
                    bar.set_postfix_str("UBE (in its own process)")
                if while_waiting is not None:
                    while_waiting()
                rows += forked.result()
                # the child's own seconds, under its own name: its run overlapped the others
                timings[FORKED_UBE], cpu[FORKED_UBE] = forked.seconds
                bar.update(1)
    finally:
        if forked is not None:
            forked.cancel()
    timings["total"] = time.perf_counter() - started   # the wall time of all parts (not their sum with a fork)
    frame = _tidy.tidy_frame(rows)
    _tidy.warn_low_coverage(frame)
    n_p = int(frame.p_value.notna().sum())
    frame = adjust_family(frame, f"report on {label}: the {n_p} tests with a p-value (WEAT and direction "
                                       "one-sided; WEFAT and RIPA two-sided; UBE Simes' global p; ECT one-sided, "
                                       "less; RND and SemAxis two-sided)")
    frame.attrs["timings"] = timings
    frame.attrs["cpu_timings"] = cpu
    frame.attrs["parameters"] = dict(embedding=label, vocabulary=len(kv.index_to_key), dimension=kv.vector_size,
                                     cased=not case_fold, seed=seed, n_permutations=n_permutations,
                                     n_resamples=n_resamples, ube=ube, **cov,
                                     **({} if balance_targets == "random" else {"balance_targets": balance_targets}))
    return frame
