"""The ``wordbias`` command: the papers' tests on your own embedding or word lists, as one tidy table.

``wordbias weat``, ``report`` and ``compare`` run the batteries of :mod:`wordbias.battery` and write
``tidy.csv`` (the schema of :mod:`wordbias.core.tidy`), ``summary.html`` and figures into ``--out``, with a
short table on stdout; ``wordbias lists`` shows the word lists shipped (with their citations), a user's file
(checked) or the template of the YAML format (:mod:`wordbias.datasets.user_lists`); ``wordbias cache
list`` / ``clear`` show and remove the converted embedding caches. Progress bars go to
stderr; ``--quiet`` silences them and the table. Exit status: 0 done, 1 the run failed (one line
``wordbias: error: ...`` on stderr; ``--debug`` shows the traceback), 2 a usage error, 3 the outputs were
written but some tests were not run, or ran without their interval (each named on stderr with the reason,
e.g. a request refused for its cost with the way out; the reason is also in tidy.csv's ``note``).

Every command that writes applies one output rule to ``--out``, before any work
(:func:`wordbias.cli.output.prepare_out`): never empty, the checkout's root, the home folder or ``/``, nor inside
the package, the data or the repository's results/ and figures/; a new folder, an empty one, or one wordbias
made, where only the files its run manifest lists, unchanged, are replaced (``--force`` writes into a folder of
the user's and replaces its files of those names). The command writes its named files there and deletes
nothing; a run that fails leaves no empty folder it created (:func:`wordbias.cli.output.no_empty_folder_left`).
A full disk is reported with the file being
written and the space left (:mod:`wordbias.core.io_errors`).

Modules: :mod:`~wordbias.cli.parser` (the arguments), :mod:`~wordbias.cli.measure` (``weat``, ``report``,
``compare``, ``contextual``), :mod:`~wordbias.cli.train` (``train``), :mod:`~wordbias.cli.lists` (``lists``), :mod:`~wordbias.cli.embeddings`
(``embeddings``, ``cache``), :mod:`~wordbias.cli.debias` (``debias``), :mod:`~wordbias.cli.validity`
(``validity``), :mod:`~wordbias.cli.inputs` (embeddings named or given by path, labels, ``--out``)
and :mod:`~wordbias.cli.output` (the files written, the table on stdout, the tests not run on stderr).

Examples
--------
>>> main(["--version"])                 # doctest: +ELLIPSIS
wordbias ...
0
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
import threading
import traceback
import warnings

from wordbias.cli.output import EXIT_NOT_RUN, no_empty_folder_left, one_line
from wordbias.cli.parser import build_parser

__all__ = ["main", "run", "build_parser", "EXIT_NOT_RUN"]

#: each subcommand's module in :mod:`wordbias.cli`, which holds its ``run_<command>``; the module is imported
#: when its command runs, so ``wordbias --help``, ``--version`` and a usage error import argparse and no more
_COMMANDS = {"weat": "measure", "report": "measure", "compare": "measure", "contextual": "measure", "seat": "seat",
             "lists": "lists", "cache": "embeddings", "embeddings": "embeddings", "train": "train",
             "debias": "debias", "lm": "lm", "validity": "validity",
             "grade": "grade"}


def _command(name: str):
    """The function that runs the subcommand ``name``: ``run_<name>`` of its module (:data:`_COMMANDS`)."""
    return getattr(importlib.import_module(f"wordbias.cli.{_COMMANDS[name]}"), f"run_{name}")


def _message(exc: BaseException) -> str:
    """An error as the one line the command prints (a ``KeyError``'s key without quotes)."""
    msg = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return one_line(msg) or type(exc).__name__


#: the modules of the contextual extra (pyproject.toml): a command that needs one of them says how to install it
_CONTEXTUAL_MODULES = frozenset({"torch", "transformers", "tokenizers", "safetensors", "huggingface_hub"})

def run() -> None:
    """The ``wordbias`` command's entry point (the console script and ``python -m wordbias``): :func:`main`, then
    the exit.

    When the command is done its files are written and closed; as the interpreter would, the threads are shut
    down (``threading``'s exit hooks: worker pools stop) and the exit handlers run (``atexit``); the standard
    streams are flushed, and the process ends without the interpreter's teardown of every module it imported
    (numba's compiler, SciPy, scikit-learn, matplotlib: about 0.7 s of a ``wordbias report``, measured; nothing
    the command wrote depends on it). Where these hooks cannot be run by hand (not CPython), it exits as usual.
    """
    code = main()
    # the interpreter's own order: threads' shutdown first (worker pools, joblib's loky executor among them, stop
    # their manager threads there: without it a `wordbias train` waited 300 s at its end), then the atexit handlers
    shutdown_threads = getattr(threading, "_shutdown", None)
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if shutdown_threads is None or run_exit_handlers is None:
        sys.exit(code)
    shutdown_threads()
    run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe or stream: nothing more can reach it
            pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """Run the ``wordbias`` command with ``argv`` (default ``sys.argv[1:]``) and return the exit status:
    0 done, 1 the run failed (``wordbias: error: ...`` on stderr, one line: a bad ``--out``, a full disk, a
    missing file...), 2 a usage error (argparse's message), 3 (:data:`EXIT_NOT_RUN`) the outputs were written
    but some tests were not run or ran only in part (``wordbias: not run: ...`` / ``wordbias: run in part:
    ...`` on stderr, one line each, with the reason).

    Examples
    --------
    >>> main(["lists", "no-such-battery"])
    1
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:          # --help, --version (0) and usage errors (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        from wordbias.core import paths
        from wordbias.core.parallel import default_workers

        # a run that fails leaves no empty folder behind that it created for --out
        with warnings.catch_warnings(), no_empty_folder_left(getattr(args, "out", None)):
            if args.quiet:
                warnings.simplefilter("ignore", category=FutureWarning)
            default_workers()          # a bad $WORDBIAS_WORKERS is an error before any work, not minutes into it
            paths.cache_dir()          # and so is a blank $WORDBIAS_CACHE
            return _command(args.command)(args)
    except KeyboardInterrupt:
        print("wordbias: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:            # stdout closed early (`wordbias lists | head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)   # as the Python docs advise (signal module, SIGPIPE)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except ModuleNotFoundError as exc:
        if args.debug:
            traceback.print_exc()
        name = (exc.name or "").split(".")[0]
        if name in _CONTEXTUAL_MODULES:
            hint = (": this command runs a transformer model, which needs the contextual extra: pip install "
                    "\"wordbias[contextual]\" (without a GPU, install torch's CPU wheel first: pip install torch "
                    "--index-url https://download.pytorch.org/whl/cpu)")
        elif name.startswith("wordbias"):
            hint = " (this command needs the battery modules of this version of wordbias)"
        else:
            hint = ""
        print(f"wordbias: error: {_message(exc)}{hint}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - the command's boundary: one line, or the traceback with --debug
        if args.debug:
            traceback.print_exc()
        print(f"wordbias: error: {_message(exc)}", file=sys.stderr)
        return 1
