"""Independent jobs run in parallel: local processes by default, or a Dask cluster with one option.

Training runs of an ensemble, the runs of an ensemble measured, the embeddings of a comparison: each is a job
that needs nothing from the others. :func:`run_jobs` runs them with joblib: in ``workers`` local processes
(joblib's ``loky`` backend), or, given a Dask scheduler's address, on that cluster through joblib's Dask backend
(Dask's distributed scheduler, https://distributed.dask.org; ``pip install "wordbias[dask]"``). The results come
back in the order of the jobs whatever order they finish in, so the outcome does not depend on the number of
workers or where they ran.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from wordbias.core.errors import InvalidParameterError
from wordbias.core.progress import progress_bar

__all__ = ["run_jobs", "check_workers"]


def check_workers(workers, n_jobs: int) -> int:
    """The number of local worker processes: ``workers`` (None: the CPUs this process may use), at most one per
    job.

    Parameters
    ----------
    workers : int or None
        The processes asked for (>= 1), or None.
    n_jobs : int
        The number of jobs.

    Returns
    -------
    int
        The processes to start (1 means: run in this process).

    Examples
    --------
    >>> check_workers(8, 3), check_workers(1, 10)
    (3, 1)
    """
    from wordbias.core.parallel import default_workers

    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidParameterError(f"workers must be an integer >= 1 (or None for every CPU), not {workers!r}")
    return max(1, min(workers, n_jobs))


#: seconds to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = 20


def _dask_client(scheduler: str):
    """A ``distributed.Client`` connected to the scheduler at ``scheduler`` (the optional extra ``wordbias[dask]``)."""
    try:
        import distributed
    except ImportError as exc:
        raise ImportError("a Dask scheduler needs the optional extra: pip install \"wordbias[dask]\" (dask and "
                          "distributed); or leave the scheduler out to run on this machine") from exc
    try:
        return distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler!r} ({exc}); is it running (dask "
                              "scheduler) and is the address right, e.g. tcp://127.0.0.1:8786?") from exc


def run_jobs(function: Callable, jobs: Sequence[tuple], *, workers: int | None = 1, scheduler: str | None = None,
             progress: bool = False, desc: str = "jobs", unit: str = "job",
             on_result: Callable | None = None) -> list:
    """``[function(*job) for job in jobs]``, run in parallel, in the order of ``jobs``.

    Parameters
    ----------
    function : callable
        A module-level function (it is sent to other processes by reference) of the job's arguments.
    jobs : sequence of tuple
        The arguments of each call.
    workers : int or None, default 1
        Local processes (None: every CPU this process may use; 1: in this process, no pool). Ignored with
        ``scheduler``.
    scheduler : str, optional
        The address of a Dask scheduler (``"tcp://host:8786"``): the jobs run on its cluster through joblib's
        Dask backend. The function's module and its data must be importable and readable on the workers.
    progress : bool, default False
        Show a progress bar advancing as jobs finish.
    desc, unit : str
        The progress bar's text.
    on_result : callable, optional
        Called in this process as each job finishes, ``on_result(i, value)`` (``i`` its position in ``jobs``), in
        the order they finish: to store large results as they come; the list returned then holds None.

    Returns
    -------
    list
        The results, one per job, in the order of ``jobs``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        When ``workers`` is not a positive integer.
    ImportError
        When ``scheduler`` is given and Dask's ``distributed`` is not installed (the message names the extra).
    ConnectionError
        When the scheduler cannot be reached.

    Examples
    --------
    >>> import operator
    >>> run_jobs(operator.mul, [(2, 3), (4, 5)])
    [6, 20]
    """
    jobs = list(jobs)
    if not jobs:
        return []
    if scheduler is None:
        workers = check_workers(workers, len(jobs))
    results: list = [None] * len(jobs)

    def take(i: int, value) -> None:
        if on_result is None:
            results[i] = value
        else:
            on_result(i, value)
        bar.update(1)

    with progress_bar(len(jobs), desc=desc, unit=unit, enabled=progress) as bar:
        if scheduler is None and workers == 1:
            for i, job in enumerate(jobs):
                take(i, function(*job))
            return results
        import joblib

        if scheduler is not None:
            indexed = [joblib.delayed(_indexed)(function, i, job) for i, job in enumerate(jobs)]
            client = _dask_client(scheduler)
            try:
                n_jobs = -1 if workers is None else workers
                with joblib.parallel_config(backend="dask", client=client):
                    for i, value in joblib.Parallel(n_jobs=n_jobs, batch_size=1,
                                                    return_as="generator_unordered")(indexed):
                        take(i, value)
            finally:
                client.close()
        else:   # the workers end with this process, on a signal or when it is killed (core.parallel)
            from wordbias.core.parallel import workers_end_with_caller

            parent = os.getpid()
            local = [joblib.delayed(_indexed_local)(function, i, job, parent) for i, job in enumerate(jobs)]
            with workers_end_with_caller():
                for i, value in joblib.Parallel(n_jobs=workers, backend="loky", batch_size=1,
                                                return_as="generator_unordered")(local):
                    take(i, value)
    return results


def _indexed(function: Callable, i: int, job: tuple):
    return i, function(*job)


def _indexed_local(function: Callable, i: int, job: tuple, parent: int):
    """A job in a local worker process, which Linux kills if ``parent`` ends first
    (:func:`wordbias.core.parallel.die_with_parent`)."""
    from wordbias.core.parallel import die_with_parent

    die_with_parent(parent)
    return i, function(*job)
