"""Worker threads: the default worker count, a thread pool that reports progress as tasks finish, and one call run
in a forked process beside the caller's work (:class:`ForkedCall`); worker processes that end with their parent
(:func:`die_with_parent`, :func:`workers_end_with_caller`).

**Workers end with their parent.** A worker process (a training run of :mod:`wordbias.models.train`, a run of an
ensemble measured, the forked UBE call) must not outlive the command that started it: left running after the
command was stopped, it would hold cores and memory for nothing, and finish work nobody reads. Two mechanisms see
to it, on every way the parent can end:

* while the workers run, :func:`workers_end_with_caller` turns SIGTERM and SIGHUP to the parent (a ``kill``, a
  closed terminal, a batch system's time limit) into an exception in its main thread, which stops the pool
  (joblib terminates its worker processes when the loop over its results is left by an exception, as it does
  for the KeyboardInterrupt of SIGINT); then the signal is raised again, so the parent ends as the signal asks
  (exit status 128 + the signal's number) and the workers have already ended;
* in each worker :func:`die_with_parent` asks Linux to kill it when its parent ends
  (``prctl(PR_SET_PDEATHSIG, SIGKILL)``), which covers a parent killed by SIGKILL or by the out-of-memory
  killer, where no handler runs.

Nothing a worker does is kept half-done: a run's results are written by the parent, each atomically, so a
command run again after a stop trains or measures what was not finished and reuses the rest.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
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


#: ``prctl``'s option that sets the signal a process gets when its parent ends (``<linux/prctl.h>``)
_PR_SET_PDEATHSIG = 1
#: the parent for which this process has asked to be killed when it ends (:func:`die_with_parent`), if any
_dies_with: int | None = None


def die_with_parent(parent_pid: int) -> bool:
    """In a worker process: ask Linux to kill this process (SIGKILL) when its parent ends, however it ends (a
    SIGKILL or the out-of-memory killer included, where the parent's own handlers cannot run); and end at once
    if the parent has already ended. Idempotent and cheap: a worker calls it at the start of each job.

    ``prctl(PR_SET_PDEATHSIG)`` (Linux's ``prctl(2)``) through :mod:`ctypes`. Elsewhere, and in the parent itself
    (a job run in the calling process), nothing happens.

    Parameters
    ----------
    parent_pid : int
        The process that started the workers (its ``os.getpid()``, passed with the job).

    Returns
    -------
    bool
        Whether the request is in place (always False off Linux or in the parent itself).

    Examples
    --------
    >>> die_with_parent(os.getpid())          # in the parent itself: nothing to do
    False
    """
    global _dies_with
    if os.getpid() == parent_pid or not sys.platform.startswith("linux"):
        return False
    if _dies_with == parent_pid:
        return True
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):   # no C library or no prctl to call
        return False
    _dies_with = parent_pid
    if os.getppid() != parent_pid:     # the parent ended before the request was in place: no one waits for us
        os._exit(1)
    return True


class _Terminated(BaseException):
    """A terminating signal, raised in the main thread while workers run (:func:`workers_end_with_caller`); a
    ``BaseException``, so that no ``except Exception`` keeps the workers going."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


#: the signals whose default action ends the process and that :func:`workers_end_with_caller` handles (SIGINT
#: is Python's KeyboardInterrupt already)
_TERMINATING = ("SIGTERM", "SIGHUP")


@contextlib.contextmanager
def workers_end_with_caller() -> Iterator[None]:
    """Around a pool of worker processes: a SIGTERM or SIGHUP to this process ends the workers, then this process.

    While the block runs, each of those signals whose action is the default one (ending the process) is
    handled: the handler raises an exception in the main thread, which stops the pool in the block (joblib
    terminates its workers when the loop over its results is left by an exception; so does KeyboardInterrupt,
    for SIGINT); when the exception leaves the block the handlers are restored and the signal is raised again,
    so the process ends as the signal asked, its workers gone before it. A second signal meanwhile ends the
    process at once (the workers then end by :func:`die_with_parent`). A signal ignored (``nohup``) or handled by
    the caller's own handler is left to it; outside the main thread nothing is installed (Python runs signal
    handlers there only).

    Examples
    --------
    >>> with workers_end_with_caller():
    ...     pass
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    installed: dict[int, object] = {}

    def handler(signum, frame):
        for number, previous in installed.items():   # a second signal ends the process at once
            signal.signal(number, previous)
        raise _Terminated(signum)

    for name in _TERMINATING:
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            if signal.getsignal(number) is signal.SIG_DFL:
                installed[number] = signal.signal(number, handler)
        except (OSError, ValueError):   # not settable here
            continue
    try:
        yield
    except _Terminated as exc:
        for number, previous in installed.items():
            signal.signal(number, previous)
        installed.clear()
        signal.raise_signal(exc.signum)   # ends the process (the default action), its workers already gone
        raise
    finally:
        for number, previous in installed.items():
            signal.signal(number, previous)


def _forked_target(fn: Callable[[], object], conn, parent_pid: int | None = None
                   ) -> None:  # pragma: no cover - runs in the child
    """The child of :class:`ForkedCall`: ``fn()``'s value (or exception), its wall and CPU seconds, sent back;
    killed if its parent ends first (:func:`die_with_parent`)."""
    if parent_pid is not None:
        die_with_parent(parent_pid)
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
        self._process = ctx.Process(target=_forked_target, args=(fn, send, os.getpid()), daemon=True)
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
