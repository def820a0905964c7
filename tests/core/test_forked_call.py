"""core.parallel.ForkedCall (one call in a forked process beside the caller's work) and the command's quick exit
(wordbias.cli.run)."""

import os
import signal
import subprocess
import sys
import time
import warnings

import pytest

from wordbias.core.parallel import ForkedCall, fork_available

pytestmark = pytest.mark.skipif(not fork_available(), reason="forks only where the platform forks")


def test_the_value_comes_back_with_the_child_seconds():
    big = list(range(100_000))            # the caller's data: the child sees it without it being sent
    call = ForkedCall(lambda: (os.getpid(), sum(big)))
    pid, total = call.result()
    assert pid != os.getpid() and total == sum(big)
    wall, cpu = call.seconds
    assert wall >= 0 and cpu >= 0


def test_the_child_exception_is_raised_in_the_caller():
    def fails():
        raise ValueError("no such word: 'xyzzy'")

    with pytest.raises(ValueError, match="xyzzy"):
        ForkedCall(fails).result()


def test_the_child_warnings_stay_in_the_child():
    """A warning the child raises (and its filters) never reaches the caller's."""
    def warns():
        warnings.warn("from the child", UserWarning, stacklevel=2)
        return 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert ForkedCall(warns).result() == 1
    assert not caught


def test_a_child_that_dies_is_an_error_not_a_hang():
    call = ForkedCall(lambda: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(RuntimeError, match="ended without a result"):
        call.result()


def test_a_value_that_cannot_be_sent_is_an_error():
    with pytest.raises(RuntimeError, match="could not be sent back"):
        ForkedCall(lambda: (lambda: 1)).result()


def test_cancel_stops_a_running_child():
    call = ForkedCall(lambda: time.sleep(60))
    start = time.perf_counter()
    call.cancel()
    assert time.perf_counter() - start < 10 and not call._process.is_alive()


def _command(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "wordbias", *args], capture_output=True, text=True, timeout=120,
                          **kwargs)


def test_the_command_exits_with_main_status_and_all_its_output():
    """wordbias.cli.run ends the process after main (exit handlers run, streams flushed, no module teardown): the
    exit status is main's and nothing printed is lost."""
    from wordbias.cli import main

    done = _command("lists")
    assert done.returncode == 0 == main(["lists"])
    assert "caliskan2017" in done.stdout and done.stdout.rstrip().count("\n") > 10
    bad = _command("lists", "no-such-battery")
    assert bad.returncode == 1 and bad.stderr.startswith("wordbias: error:")
    assert _command("--no-such-option").returncode == 2
    # `python -m wordbias.cli`, as the command-line page says, is the same command
    same = subprocess.run([sys.executable, "-m", "wordbias.cli", "lists"], capture_output=True, text=True, timeout=120)
    assert same.returncode == 0 and same.stdout == done.stdout


def test_the_command_exits_at_once_after_worker_processes(tmp_path):
    """`wordbias train --workers 2` trains in joblib's loky worker processes; the quick exit shuts the threads down
    first, as the interpreter does, so the pool stops at once (without that step the command waited 300 s at its
    end, found as a new user: its work done, its last line printed)."""
    import itertools
    import random

    rng = random.Random(0)
    words = ["".join(p) for p in itertools.product("abcdefghij", "klmnopqrst", "uvw")][:300]
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for d in range(4):
        (corpus / f"doc{d}.txt").write_text("\n".join(" ".join(rng.choice(words) for _ in range(12))
                                                      for _ in range(150)) + "\n")
    start = time.perf_counter()
    done = _command("train", str(corpus), "--out", str(tmp_path / "runs"), "--seeds", "2", "--dim", "8", "--epochs",
                    "1", "--min-count", "1", "--workers", "2", "--cache-dir", str(tmp_path / "cache"))
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "runs" / "manifest.json").is_file()
    assert seconds < 90, f"the command took {seconds:.0f} s: it waited at its exit"
