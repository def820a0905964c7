"""The worker processes of `wordbias train` end with it (wordbias.core.parallel: workers_end_with_caller,
die_with_parent): a SIGTERM or SIGINT to the command ends its workers before it ends (SIGHUP shares SIGTERM's
handler, checked in-process); a SIGKILL, which no
handler sees, ends them through Linux's parent-death signal; and the command run again afterwards completes,
training what was not finished.

Each test starts `python -m wordbias train` on a small corpus written here, with 4 runs on 2 workers, waits until
the workers exist, signals the command, and checks that no process it started survives."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import processes
import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; prctl is Linux's")


def _corpus(path: Path) -> Path:
    """About 10,000 tokens of 300 made-up words, one document a line (an epoch takes about 0.03 s)."""
    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))) for _ in range(300)]
    lines = [" ".join(rng.choice(words[: rng.randint(40, 300)]) for _ in range(20)) + "." for _ in range(500)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _command(tmp_path: Path, epochs: int) -> list[str]:
    corpus = tmp_path / "corpus.txt"
    if not corpus.exists():
        _corpus(corpus)
    return [sys.executable, "-m", "wordbias", "train", str(corpus), "--seeds", "4", "--workers", "2", "--dim", "20",
            "--epochs", str(epochs), "--min-count", "2", "--out", str(tmp_path / "out"), "--cache-dir",
            str(tmp_path / "cache"), "-q"]


def _cpu_seconds(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


#: CPU seconds a worker spends before it trains (importing numpy, SciPy, gensim and wordbias: about 1.2 s,
#: measured); a worker that has used more is training
_BUSY = 2.0


def _terminal_signals() -> None:  # pragma: no cover - runs in the child, before exec
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_and_wait_for_workers(tmp_path: Path, epochs: int = 500, busy: bool = True
                                ) -> tuple[subprocess.Popen, list[int]]:
    """The command, started, once its two worker processes exist (and with ``busy``, train: 500 epochs make runs
    of many seconds, which the signal stops); and every process it has started by then."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("WORDBIAS_WORKERS", None)
    # the command starts with SIGINT's default action, as from a terminal: a process started with a signal ignored
    # keeps it ignored (Python too), and a test run inherits whatever its runner's earlier work left (a kernel
    # manager in the same pytest process may ignore SIGINT), which would leave the command deaf to Ctrl-C
    proc = subprocess.Popen(_command(tmp_path, epochs), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=_terminal_signals)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        children = processes.children(proc.pid)
        workers = [c for c in children if "resource_tracker" not in processes.cmdline(c)]
        if len(workers) >= 2 and (not busy or all(_cpu_seconds(w) >= _BUSY for w in workers)):
            return proc, children
        if proc.poll() is not None:
            pytest.fail(f"the command ended (exit {proc.returncode}) before its workers were seen: "
                        f"{proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.02)
    proc.kill()
    pytest.fail("no worker processes within 60 s")


def _assert_all_end(pids: list[int], within: float = 8.0) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        left = [p for p in pids if processes.alive(p)]
        if not left:
            return
        time.sleep(0.05)
    left = [p for p in pids if processes.alive(p)]
    for p in left:                       # do not leave them behind for the next test
        os.kill(p, signal.SIGKILL)
    pytest.fail(f"processes outlived the command by {within} s: {[(p, processes.cmdline(p)[:100]) for p in left]}")


def test_sighup_and_sigterm_share_one_handler():
    # SIGHUP goes through the handler SIGTERM's run below exercises end to end (parallel._TERMINATING): the same
    # function is installed for both inside the block, and the defaults are back after it
    from wordbias.core import parallel

    with parallel.workers_end_with_caller():
        term, hup = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
        assert callable(term) and term is hup
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL and signal.getsignal(signal.SIGHUP) is signal.SIG_DFL


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_to_train_ends_its_workers_first(tmp_path, signum):
    proc, started = _start_and_wait_for_workers(tmp_path)
    proc.send_signal(signum)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"the command did not end within 20 s of {signal.Signals(signum).name}")
    # SIGTERM and SIGHUP end it as the signal does; SIGINT is Python's KeyboardInterrupt: "interrupted", 130
    expected = {signal.SIGINT: 130}.get(signum, -signum)
    assert proc.returncode == expected, proc.stderr.read().decode()[-2000:]
    workers = [p for p in started if "resource_tracker" not in processes.cmdline(p)]
    assert len(workers) >= 2
    _assert_all_end(started, within=8.0)
    assert not (tmp_path / "out" / "manifest.json").exists()   # nothing that looks complete


def test_a_killed_train_takes_its_workers_down_too(tmp_path):
    proc, started = _start_and_wait_for_workers(tmp_path)   # training: each has asked to die with its parent
    proc.send_signal(signal.SIGKILL)     # no handler runs: Linux's parent-death signal ends the workers
    proc.wait(timeout=20)
    assert proc.returncode == -signal.SIGKILL
    _assert_all_end(started, within=8.0)


def test_train_run_again_after_a_sigterm_completes(tmp_path):
    proc, started = _start_and_wait_for_workers(tmp_path, epochs=20, busy=False)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)
    assert proc.returncode == -signal.SIGTERM
    _assert_all_end(started)
    again = subprocess.run(_command(tmp_path, epochs=20), capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr[-2000:]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert [r["id"] for r in manifest["runs"]] == ["seed-1", "seed-2", "seed-3", "seed-4"]
    from wordbias.embeddings import load

    for run in manifest["runs"]:        # every run complete and loadable
        assert len(load(tmp_path / "out" / run["path"], progress=False)) == run["n_words"]
