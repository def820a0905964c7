"""Catalogue cases of the family "outputs": where outputs may be written, tests not run, one
embedding compared with itself, a full disk; through the command (``cli.main``, its exit status and one line on
stderr) and through the library functions. Plus unit tests of :mod:`wordbias.core.io_errors` and of
:func:`wordbias.core.paths.check_output_dir`.

The files the cases use (a tiny embedding, word lists, a plain file) are written to a temporary folder when the
cases are built, at import; every command gets ``--cache-dir`` there, so nothing is written elsewhere."""
import contextlib
import errno
import io
import os
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from catalogue import Case, check

import wordbias
from wordbias import cli
from wordbias import embeddings as E
from wordbias.battery import compare, summary
from wordbias.core import io_errors, paths, tidy
from wordbias.core.errors import DiskFullError, InvalidParameterError
from wordbias.papers import outputs

F = "outputs"


class CommandError(RuntimeError):
    """The command exited non-zero with one clean line (or lines) on stderr: ``exit N: <stderr>``."""


def _cli(*argv, patches=()):
    """A call running ``wordbias ARGV`` in-process: returns 0, or raises :class:`CommandError` with the exit
    status and stderr; a traceback or an empty stderr is an ``AssertionError`` (never a clear error)."""
    def call():
        err = io.StringIO()
        with contextlib.ExitStack() as stack:
            stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
            stack.enter_context(contextlib.redirect_stderr(err))
            for make in patches:
                stack.enter_context(make())
            code = cli.main([str(a) for a in argv])
        text = err.getvalue().strip()
        if code == 0:
            return code
        if not text or "Traceback" in text:
            raise AssertionError(f"exit {code} without a one-line message: {text!r}")
        raise CommandError(f"exit {code}: {text}")
    return call


# --------------------------------------------------------------------------------------------------
# the files of the cases
# --------------------------------------------------------------------------------------------------

WORDS = ["rose", "tulip", "daisy", "lily", "ant", "wasp", "flea", "moth", "love", "peace", "joy", "hate", "war",
         "grief"] + [f"filler{i}" for i in range(10)]
LISTS = """\
battery: toy
weat:
  - id: flowers
    targets: {X: [rose, tulip, daisy, lily], Y: [ant, wasp, flea, moth]}
    attributes: {A: [love, peace, joy], B: [hate, war, grief]}
"""


def _write_w2v(path, words, seed=0):
    v = np.random.default_rng(seed).normal(size=(len(words), 4))
    path.write_text(f"{len(words)} 4\n" + "\n".join(w + " " + " ".join(f"{x:.5f}" for x in r)
                                                    for w, r in zip(words, v)) + "\n", encoding="utf-8")
    return path


def _big_lists(folder):
    """66 + 66 target words (a Monte Carlo p: too many partitions to count) and a small test beside them."""
    X, Y = [f"x{i}" for i in range(66)], [f"y{i}" for i in range(66)]
    A, B = ["a1", "a2", "a3"], ["b1", "b2", "b3"]
    emb = _write_w2v(folder / "big.txt", X + Y + A + B, seed=2)
    lists = folder / "big.yaml"
    lists.write_text(f"battery: big\nweat:\n  - id: big\n    targets: {{X: [{', '.join(X)}], Y: [{', '.join(Y)}]}}\n"
                     f"    attributes: {{A: [{', '.join(A)}], B: [{', '.join(B)}]}}\n"
                     "  - id: small\n    targets: {X: [x1, x2, x3], Y: [y1, y2, y3]}\n"
                     f"    attributes: {{A: [{', '.join(A)}], B: [{', '.join(B)}]}}\n")
    return emb, lists


TMP = Path(tempfile.mkdtemp(prefix="wordbias-outputs-")).resolve()
CACHE = ["--cache-dir", TMP / "cache"]
EMB = _write_w2v(TMP / "mine.txt", WORDS)
OTHER = _write_w2v(TMP / "other.txt", WORDS, seed=1)
(TMP / "toy.yaml").write_text(LISTS)
TOY = TMP / "toy.yaml"
BIG, BIG_LISTS = _big_lists(TMP)
A_FILE = TMP / "a-file.txt"
A_FILE.write_text("not a folder")
LINK = TMP / "link.txt"
if not LINK.exists():
    LINK.symlink_to(EMB)
PACKAGE = Path(wordbias.__file__).resolve().parent


def _weat(out, *extra, patches=()):
    return _cli("weat", EMB, "--lists", TOY, "--out", out, "-q", "--n-resamples", "20", *CACHE, *extra,
                patches=patches)


def _frame():
    return tidy.tidy_frame([{"embedding": "e", "test": "t", "measure": "weat", "effect_size_name": "d",
                             "effect_size": 0.5, "ci_low": 0.1, "ci_high": 0.9, "p_value": 0.01}])


def _kv():
    return E.to_keyed_vectors(WORDS, np.random.default_rng(0).normal(size=(len(WORDS), 4)).astype(np.float32))


def _raising(err_no, message, filename=None):
    def fail(*args, **kwargs):
        raise OSError(err_no, message, *([filename] if filename else []))
    return fail


def _to_csv_full():
    return mock.patch.object(pd.DataFrame, "to_csv", _raising(errno.ENOSPC, "No space left on device"))


@contextlib.contextmanager
def _atomic_full(path):
    raise OSError(errno.EDQUOT, "Disk quota exceeded", str(path))
    yield  # pragma: no cover


def _summary_full():
    return mock.patch.object(summary, "atomic_file", _atomic_full)


def _heatmap_too_big():
    """The heat map's files fail as too large; the forest plot's are written."""
    from wordbias.core import figures

    real, too_big = figures.save, _raising(errno.EFBIG, "File too large")

    def save(fig, folder, name, **kw):
        return too_big(fig, folder, name, **kw) if name == "heatmap" else real(fig, folder, name, **kw)
    return mock.patch.object(figures, "save", save)


def _mkdir_full():
    return mock.patch.object(Path, "mkdir", _raising(errno.ENOSPC, "No space left on device"))


def _with(patch, call):
    def run():
        with patch():
            return call()
    return run


# --------------------------------------------------------------------------------------------------
# the cases
# --------------------------------------------------------------------------------------------------

def _output_folder_cases():
    refused = r"choose a folder of its own"
    cases = [
        Case(F, "--out ''", _weat(""), CommandError, match=r"(?s)exit 2: .*argument --out: the value is empty \(''\)"),
        Case(F, "--out /", _weat("/"), CommandError, match=r"--out '/': it is /, the file system's root.*" + refused),
        Case(F, "--out ~", _weat("~"), CommandError, match=r"--out '~': it is .*, your home folder"),
        Case(F, "--out inside the installed package", _weat(PACKAGE / "out"), CommandError,
             match=r"--out '.*out': it is inside .*, the installed wordbias package"),
        Case(F, "--out inside the data folder", _weat(paths.DATA / "stimuli" / "out"), CommandError,
             match=r"it is inside .*, wordbias's data folder, which holds the word lists"),
        Case(F, "--out inside results/", _weat(paths.RESULTS / "mine"), CommandError,
             match=r"exit 1: .*holds the committed results"),
        Case(F, "--out an existing file", _weat(A_FILE), CommandError,
             match=r"--out '.*a-file.txt': it exists and is not a folder"),
        Case(F, "--out under a file", _weat(A_FILE / "sub"), CommandError,
             match=r"it cannot be a folder: .*a-file.txt is a file"),
        Case(F, "output_folders(output='')", lambda: outputs.output_folders("caliskan2017", "mine", ""),
             InvalidParameterError, match=r"output is empty \(''\)"),
        Case(F, "output_folders(output=results/)",
             lambda: outputs.output_folders("caliskan2017", "mine", paths.RESULTS), InvalidParameterError,
             match=r"output '.*results': it is .*holds the committed results"),
        Case(F, "output_folders(output=a file)", lambda: outputs.output_folders("swinger2019", "mine", A_FILE),
             InvalidParameterError, match=r"output '.*a-file.txt': it exists and is not a folder"),
        Case(F, "check_output_dir('/')", lambda: paths.check_output_dir("/", what="output"), InvalidParameterError,
             match=r"output '/': it is /, the file system's root"),
        Case(F, "check_output_dir(3)", lambda: paths.check_output_dir(3), InvalidParameterError,
             match=r"--out must be a path \(a str or os.PathLike\), not int"),
        Case(F, "write_tidy into the data folder", lambda: tidy.write_tidy(_frame(), paths.DATA / "tidy.csv"),
             InvalidParameterError, match=r"path '.*tidy.csv': its folder is .*data folder"),
        Case(F, "write_tidy to ''", lambda: tidy.write_tidy(_frame(), ""), InvalidParameterError,
             match=r"path is empty"),
        Case(F, "write_html to a folder", lambda: summary.write_html(_frame(), TMP, title="t"),
             InvalidParameterError, match=r"it is a folder; give the path of the file to write"),
        Case(F, "write_html inside the package", lambda: summary.write_html(_frame(), PACKAGE / "s.html", title="t"),
             InvalidParameterError, match=r"its folder is .*the installed wordbias package"),
    ]
    if paths.IN_CHECKOUT:
        cases.append(Case(F, "--out the checkout's root as lib/..", _weat(paths.ROOT / "lib" / ".."), CommandError,
                          match=r"it is .*, the root of the wordbias checkout"))
    return cases


def _not_run_cases():
    costly = ("weat", BIG, "--lists", BIG_LISTS, "-q", "--n-resamples", "20", "--n-permutations", 10 ** 12, *CACHE)
    return [
        Case(F, "a WEAT refused for its cost", _cli(*costly, "--out", TMP / "costly"), CommandError,
             match=r"(?s)exit 3: wordbias: not run: big \(weat\): TooCostlyError: a Monte Carlo p-value .*"
                   r"Use fewer permutations.*lower --n-permutations.*\n.*of 2 tests, 1 were not run \("),
        Case(F, "Caliskan's WEATs on a tiny vocabulary",
             _cli("weat", EMB, "--out", TMP / "caliskan", "-q", "--n-resamples", "20", *CACHE), CommandError,
             match=r"exit 3: wordbias: not run: WEAT2 \(weat\): DegenerateSetError: set 'Musical instruments' is "
                   r"empty"),
        Case(F, "the report on a tiny vocabulary",
             _cli("report", EMB, "--out", TMP / "report", "-q", "--no-ube", "--n-resamples", "20",
                  "--n-permutations", "100", *CACHE), CommandError,
             match=r"(?s)exit 3: .*wordbias: not run: implicit \(direction\): .*of 32 tests, 31 were not run and 1 ran only in part \(the "
                   r"reasons above"),
        Case(F, "an interval refused for its cost", _weat(TMP / "interval", "--n-resamples", 10 ** 9), CommandError,
             match=r"exit 3: wordbias: run in part: flowers \(weat\): no bootstrap interval: TooCostlyError: a WEAT "
                   r"bootstrap with n_resamples=1,000,000,000.*lower --n-permutations"),
        Case(F, "compare of two tiny vocabularies",
             _cli("compare", EMB, OTHER, "--out", TMP / "cmp", "-q", "--no-ube", "--n-resamples", "20",
                  "--n-permutations", "100", *CACHE), CommandError,
             match=r"exit 3: wordbias: not run: mine.txt / WEAT2 \(weat\)"),
    ]


def _same_embedding_cases():
    name = f"'{EMB}'"
    same = r"the same embedding is given twice: "
    cases = [
        Case(F, "compare a.txt ./a.txt", _cli("compare", EMB, f"{TMP}/./mine.txt", "--out", TMP / "o", *CACHE),
             CommandError, match=same + f"{name} and '{TMP}/./mine.txt' are one file"),
        Case(F, "compare a file and its symlink", _cli("compare", EMB, LINK, "--out", TMP / "o", *CACHE),
             CommandError, match=same + f"{name} and '{LINK}' are one file \\({EMB}\\)"),
        Case(F, "compare a file and sub/../file",
             _cli("compare", f"{TMP}/cache/../mine.txt", EMB, "--out", TMP / "o", *CACHE), CommandError,
             match=same + r"'.*/cache/\.\./mine.txt' and " + name),
        Case(F, "library compare: one path under two spellings",
             lambda: compare.compare({"a": str(EMB), "b": f"{TMP}/./mine.txt"}), InvalidParameterError,
             match=same + r"'a' \(.*mine.txt\) and 'b' \(.*/\./mine.txt\) are one file"),
        Case(F, "library compare: one path and its symlink",
             lambda: compare.compare([("a", EMB), ("b", LINK)]), InvalidParameterError,
             match=same + r"'a' \(.*mine.txt\) and 'b' \(.*link.txt\) are one file"),
        Case(F, "library compare: one object under two labels",
             lambda: (lambda kv: compare.compare([("a", kv), ("b", kv)]))(_kv()), InvalidParameterError,
             match=same + r"'a' and 'b' are one object \(\w*KeyedVectors\)"),
    ]
    found = E.registry.existing_source(E.REGISTRY["glove-840b-caliskan"])
    if found is not None:
        cases.append(Case(F, "compare a registered name and its file",
                          _cli("compare", "glove-840b-caliskan", found, "--out", TMP / "o", *CACHE), CommandError,
                          match=same + f"'glove-840b-caliskan' and '{found}' are one file"))
    return cases


def _disk_full_cases():
    tidy_csv = TMP / "full" / "tidy.csv"
    return [
        Case(F, "the command: no space for tidy.csv", _weat(TMP / "full", patches=[_to_csv_full]), CommandError,
             match=r"exit 1: wordbias: error: cannot write the tidy table to .*full/tidy.csv: no space left on the "
                   r"device \(\[Errno 28\] No space left on device; .* free on that disk\)\. What to do: free some "
                   r"space on that disk, or write the outputs elsewhere \(another --out folder"),
        Case(F, "the command: quota exceeded for summary.html", _weat(TMP / "quota", patches=[_summary_full]),
             CommandError, match=r"exit 1: wordbias: error: cannot write the HTML summary to .*quota/summary.html: "
                                 r"the disk quota is exceeded"),
        Case(F, "the command: heat map too large",
             _cli("compare", EMB, OTHER, "--out", TMP / "big-heatmap", "-q", "--no-ube", "--n-resamples", "20",
                  "--n-permutations", "100", *CACHE, patches=[_heatmap_too_big]), CommandError,
             match=r"exit 1: wordbias: error: cannot write the heat map to .*heatmap.png: the file is too large"),
        Case(F, "the command: no space to create --out", _weat(TMP / "nodir" / "deeper", patches=[_mkdir_full]),
             CommandError, match=r"exit 1: wordbias: error: cannot write the --out folder to "
                                 r".*nodir/deeper: no space left"),
        Case(F, "write_tidy: no space", _with(_to_csv_full, lambda: tidy.write_tidy(_frame(), tidy_csv)),
             DiskFullError, match=r"cannot write the tidy table to .*full/tidy.csv: no space left on the device"),
        Case(F, "write_html: quota exceeded",
             _with(_summary_full, lambda: summary.write_html(_frame(), TMP / "s.html", title="t")), DiskFullError,
             match=r"cannot write the HTML summary to .*s.html: the disk quota is exceeded"),
        Case(F, "output_folders(...).make(): no space",
             _with(_mkdir_full, lambda: outputs.output_folders("caliskan2017", "mine", TMP / "runs").make()),
             DiskFullError, match=r"cannot write the results folder to .*runs/results/caliskan2017/mine: no space"),
        Case(F, "check_output_dir(create=True): no space",
             _with(_mkdir_full, lambda: paths.check_output_dir(TMP / "x", what="output", create=True)),
             DiskFullError, match=r"cannot write the output folder to .*x: no space left"),
    ]


CASES_OUTPUTS = _output_folder_cases() + _not_run_cases() + _same_embedding_cases() + _disk_full_cases()


@pytest.mark.parametrize("case", CASES_OUTPUTS, ids=lambda c: c.id)
def test_case(case):
    check(case)


def test_refused_outputs_created_nothing():
    assert not (PACKAGE / "out").exists() and not (paths.DATA / "stimuli" / "out").exists()
    assert not (paths.RESULTS / "mine").exists() and not (TMP / "nodir").exists()


# --------------------------------------------------------------------------------------------------
# unit tests: io_errors and check_output_dir
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("err_no, reason", [(errno.ENOSPC, "no space left on the device"),
                                            (errno.EDQUOT, "the disk quota is exceeded"),
                                            (errno.EFBIG, "the file is too large for the file system")])
def test_reraise_disk_full_names_the_path_the_space_and_the_way_out(tmp_path, err_no, reason):
    target = tmp_path / "out" / "tidy.csv"
    with pytest.raises(DiskFullError) as info:
        with io_errors.reraise_disk_full(target, "the tidy table"):
            raise OSError(err_no, os.strerror(err_no), str(tmp_path / "out" / ".tmp-tidy-1.csv"))
    err = info.value
    assert isinstance(err, OSError) and err.errno == err_no and err.filename == str(target)
    text = str(err)
    assert text.startswith(f"cannot write the tidy table to {target}: {reason} ([Errno {err_no}] ")
    assert ".tmp-tidy-1.csv" in text                    # the file the system named, too
    free = io_errors.free_bytes(tmp_path)
    assert free is not None and "free on that disk" in text
    assert text.endswith(f"What to do: {io_errors.OUTPUT_WAY_OUT}.")
    assert isinstance(err.__cause__, OSError) and err.__cause__.errno == err_no


def test_reraise_disk_full_passes_other_errors_and_its_own_through(tmp_path):
    with pytest.raises(PermissionError):
        with io_errors.reraise_disk_full(tmp_path, "x"):
            raise PermissionError(errno.EACCES, "Permission denied")
    inner = DiskFullError("inner", errno.ENOSPC, "/a")
    with pytest.raises(DiskFullError) as info:
        with io_errors.reraise_disk_full(tmp_path, "outer"):
            raise inner
    assert info.value is inner
    with io_errors.reraise_disk_full(tmp_path, "nothing"):
        pass


def test_cache_way_out_and_pickling(tmp_path):
    import pickle

    with pytest.raises(DiskFullError) as info:
        with io_errors.reraise_disk_full(tmp_path / "cache", "the embedding cache", way_out=io_errors.CACHE_WAY_OUT):
            raise OSError(errno.ENOSPC, "No space left on device")
    assert "WORDBIAS_CACHE" in str(info.value) and "cache_dir=" in str(info.value)
    back = pickle.loads(pickle.dumps(info.value))
    assert str(back) == str(info.value) and back.errno == errno.ENOSPC


def test_free_bytes_walks_up_to_an_existing_folder(tmp_path):
    assert io_errors.free_bytes(tmp_path / "not" / "yet") == pytest.approx(io_errors.free_bytes(tmp_path),
                                                                          rel=0.01)


def test_check_output_dir_returns_the_resolved_folder_and_keeps_existing_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("x")
    assert paths.check_output_dir("mine/../mine", create=True) == tmp_path / "mine"
    assert (tmp_path / "mine" / "keep.txt").read_text() == "x"
    assert paths.check_output_dir(".") == tmp_path                   # the current folder itself is fine
    made = paths.check_output_dir(tmp_path / "a" / "b", create=True)
    assert made.is_dir() and made == tmp_path / "a" / "b"


def test_check_output_dir_permission_is_a_clear_error(tmp_path):
    with mock.patch.object(Path, "mkdir", _raising(errno.EACCES, "Permission denied")):
        with pytest.raises(InvalidParameterError, match=r"--out '.*x': cannot create the folder .*x \(Permission "
                                                         r"denied\); choose a folder you can write to"):
            paths.check_output_dir(tmp_path / "x", create=True)


def test_output_folders_given_output_keeps_the_layout(tmp_path):
    f = outputs.output_folders("caliskan2017", "mine", tmp_path / "o").make()
    assert f.results == tmp_path / "o" / "results" / "caliskan2017" / "mine" and f.results.is_dir()
    assert f.figures.is_dir() and not f.committed


def test_check_output_dir_a_folder_not_writable(tmp_path):
    with mock.patch.object(os, "access", lambda *args, **kwargs: False):
        with pytest.raises(InvalidParameterError, match=rf"--out '{tmp_path}': the folder {tmp_path} is not "
                                                         r"writable \(permission denied\)"):
            paths.check_output_dir(tmp_path, create=True)
