"""Worker threads: the default worker count, a thread pool that reports progress as tasks finish, and one call run
in a forked process beside the caller's work (:class:`ForkedCall`)."""
from __future__ import annotations

import os
import time
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


def fork_available() -> bool:
    """Whether this platform starts processes by ``fork`` (Linux and the other Unixes; not Windows, and on macOS
    Python's default is spawn, so :class:`ForkedCall` is not used there).

    Examples
    --------
    >>> isinstance(fork_available(), bool)
    True
    """
    import multiprocessing
    import sys

    return sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods()


def _forked_target(fn: Callable[[], object], conn) -> None:  # pragma: no cover - runs in the child
    """The child of :class:`ForkedCall`: ``fn()``'s value (or exception), its wall and CPU seconds, sent back."""
    start, start_cpu = time.perf_counter(), time.process_time()
    try:
        message = ("ok", fn())
    except BaseException as err:  # noqa: BLE001 - every failure goes back to the parent, which raises it
        message = ("error", err)
    seconds = (time.perf_counter() - start, time.process_time() - start_cpu)
    try:
        conn.send((*message, seconds))
    except Exception as err:  # noqa: BLE001 - a value or exception that cannot be sent: say so
        conn.send(("error", RuntimeError(f"the forked call's {message[0]} could not be sent back: {err!r}"), seconds))
    conn.close()


class ForkedCall:
    """``fn()`` run in a forked child process while the caller goes on; :meth:`result` waits for it.

    The child starts as a copy of the caller (its imports, loaded data and memory maps, shared copy-on-write: no
    loading again), so a call that is independent of the caller's next steps runs beside them on another core.
    Being another process, its warning filters, random state and threads are its own: nothing it does can reach
    the caller's warnings (Python's warning filters are process-wide, so a thread could not promise that). Its
    value comes back through a pipe. Use it only where :func:`fork_available`, from a process whose threads hold
    no lock the call needs (a command-line run: :mod:`wordbias.battery.report` forks only when asked).

    Parameters
    ----------
    fn : callable
        Called with no arguments in the child; its value must be picklable.

    Examples
    --------
    >>> call = ForkedCall(lambda: sum(range(10))) if fork_available() else None
    >>> call.result() if call is not None else 45
    45
    """

    def __init__(self, fn: Callable[[], object]):
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self._receive, send = ctx.Pipe(duplex=False)
        self._process = ctx.Process(target=_forked_target, args=(fn, send), daemon=True)
        self._process.start()
        send.close()
        #: the child's (wall, CPU) seconds, set by :meth:`result`
        self.seconds: tuple[float, float] | None = None

    def result(self):
        """Wait for the child and return ``fn()``'s value, or raise the exception it raised.

        Returns
        -------
        object
            What ``fn()`` returned.

        Raises
        ------
        RuntimeError
            When the child ended without sending a result (killed, or out of memory).
        """
        try:
            status, value, self.seconds = self._receive.recv()
        except EOFError:
            self._process.join()
            raise RuntimeError(f"the forked call ended without a result (exit code {self._process.exitcode})") from None
        finally:
            self._receive.close()
        self._process.join()
        if status == "error":
            raise value
        return value

    def cancel(self) -> None:
        """Stop the child if it still runs (the caller failed before it needed the value)."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._receive.close()
