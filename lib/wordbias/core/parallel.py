"""Worker threads: the default worker count and a thread pool that reports progress as tasks finish."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from wordbias.core.progress import progress_bar

#: the environment variable that sets :func:`default_workers` (``make`` sets it to 1 while it runs two notebooks
#: at a time: each then keeps to its own core instead of taking a core from the other)
WORKERS_VARIABLE = "WORDBIAS_WORKERS"


def default_workers() -> int:
    """Workers (threads or processes) for parallel work: ``$WORDBIAS_WORKERS`` where it is set, else the CPUs
    this process may use (its affinity mask, so `taskset` and container CPU limits count).

    The work is split the same way whatever the count, so no result depends on it (tested), except where a run
    is sized to a time budget on this many workers: the report's UBE run lowers M on fewer
    (:func:`wordbias.battery.ube.ube_parameters`; not on GloVe 6B 50d, whose run fits on one).

    Returns
    -------
    int
        The number of workers, at least 1.

    Raises
    ------
    InvalidParameterError
        When ``$WORDBIAS_WORKERS`` is set to something other than a positive integer.

    Examples
    --------
    >>> default_workers() >= 1
    True
    """
    value = os.environ.get(WORKERS_VARIABLE, "").strip()
    if value:
        if not value.isdigit() or int(value) < 1:
            from wordbias.core.errors import InvalidParameterError

            raise InvalidParameterError(f"{WORKERS_VARIABLE} must be a positive integer (the workers for parallel "
                                        f"work), not {value!r}")
        return int(value)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def run_tasks(task: Callable[[object], int], tasks: Iterable, *, workers: int, total: int, desc: str, unit: str,
              progress: bool) -> None:
    """Run ``task`` on each of ``tasks`` (in a pool of ``workers`` threads when more than 1), advancing a bar
    of ``total`` units by the count each task returns. Tasks must write their results themselves (into
    preallocated arrays), so the outcome does not depend on the order in which they finish.

    Examples
    --------
    >>> out = [0] * 4
    >>> def square(i):
    ...     out[i] = i * i
    ...     return 1
    >>> run_tasks(square, range(4), workers=2, total=4, desc="squares", unit="n", progress=False)
    >>> out
    [0, 1, 4, 9]
    """
    tasks = list(tasks)
    with progress_bar(total, desc=desc, unit=unit, enabled=progress) as bar:
        if workers == 1 or len(tasks) <= 1:
            for t in tasks:
                bar.update(task(t))
            return
        with ThreadPoolExecutor(min(workers, len(tasks))) as pool:
            for n in pool.map(task, tasks):
                bar.update(n)
