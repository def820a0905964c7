"""Worker processes end with their parent (wordbias.core.parallel): die_with_parent in each worker (Linux's
parent-death signal), workers_end_with_caller around a pool (SIGTERM and SIGHUP end the workers, then the parent),
as run_jobs and ForkedCall use them."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import processes
import pytest

from wordbias.core import parallel
from wordbias.core.parallel import die_with_parent, workers_end_with_caller

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl and /proc are Linux's")


def test_die_with_parent_does_nothing_in_the_parent_itself():
    assert die_with_parent(os.getpid()) is False
    assert parallel._dies_with is None


def _pdeathsig_in_child(parent_pid, conn):
    import ctypes

    ok = parallel.die_with_parent(parent_pid)
    value = ctypes.c_int(0)
    ctypes.CDLL(None).prctl(2, ctypes.byref(value), 0, 0, 0)   # PR_GET_PDEATHSIG
    conn.send((ok, value.value))
    conn.close()


@linux
def test_a_worker_asks_to_be_killed_with_its_parent():
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_pdeathsig_in_child, args=(os.getpid(), send))
    child.start()
    assert receive.recv() == (True, signal.SIGKILL)
    child.join(timeout=30)
    assert child.exitcode == 0


@linux
def test_a_worker_whose_parent_has_already_ended_ends():
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_pdeathsig_in_child, args=(1, send))    # "its parent" is not its parent: gone
    child.start()
    child.join(timeout=30)
    assert child.exitcode == 1


def test_the_handlers_are_installed_only_inside_the_block():
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    with workers_end_with_caller():
        assert callable(signal.getsignal(signal.SIGTERM))
        assert callable(signal.getsignal(signal.SIGHUP))
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_DFL


def test_an_ignored_signal_and_the_callers_own_handler_are_left_alone():
    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN), signal.signal(signal.SIGTERM, mine)
    try:
        with workers_end_with_caller():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN     # nohup: still ignored
            assert signal.getsignal(signal.SIGTERM) is mine
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGHUP, previous[0])
        signal.signal(signal.SIGTERM, previous[1])


def test_outside_the_main_thread_nothing_is_installed():
    seen = []

    def run():
        with workers_end_with_caller():
            seen.append(signal.getsignal(signal.SIGTERM))
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [signal.SIG_DFL]


POOL = textwrap.dedent("""
    import time
    from wordbias.core.jobs import run_jobs

    def nap(seconds):
        time.sleep(seconds)
        return seconds

    if __name__ == "__main__":
        print("started", flush=True)
        run_jobs(nap, [(60,), (60,), (60,)], workers=2)
        print("finished", flush=True)
""")
FORKED = textwrap.dedent("""
    import time
    from wordbias.core.parallel import ForkedCall

    call = ForkedCall(lambda: time.sleep(60))
    print("started", flush=True)
    time.sleep(60)
""")


def _start(tmp_path: Path, script: str, n_children: int) -> tuple[subprocess.Popen, list[int]]:
    path = tmp_path / "script.py"
    path.write_text(script)
    proc = subprocess.Popen([sys.executable, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = [c for c in processes.children(proc.pid) if "resource_tracker" not in processes.cmdline(c)]
        if len(workers) >= n_children:
            time.sleep(1.0)           # each has taken its job (and asked to end with its parent)
            return proc, processes.children(proc.pid)
        if proc.poll() is not None:
            pytest.fail(f"the script ended early: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.02)
    proc.kill()
    pytest.fail("no children within 60 s")


def _assert_all_end(pids: list[int], within: float = 8.0) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(processes.alive(p) for p in pids):
        time.sleep(0.05)
    left = [p for p in pids if processes.alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, f"outlived their parent: {[(p, processes.cmdline(p)[:80]) for p in left]}"


@linux
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=["SIGTERM", "SIGHUP", "SIGKILL"])
def test_run_jobs_workers_end_with_their_parent(tmp_path, signum):
    proc, children = _start(tmp_path, POOL, 2)
    proc.send_signal(signum)
    proc.wait(timeout=20)
    assert proc.returncode == -signum          # the signal's own ending, after the workers'
    assert b"finished" not in proc.stdout.read()
    _assert_all_end(children)


@linux
def test_a_forked_call_ends_with_its_parent(tmp_path):
    proc, children = _start(tmp_path, FORKED, 1)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=20)
    _assert_all_end(children)
