"""Catalogue cases of the family "output writer": one writer for every output of a run
(:func:`wordbias.core.atomic.run_files`, :func:`wordbias.core.atomic.atomic_folder` with its run manifest).

A command's ``--out`` may replace only files wordbias wrote there and the user has not changed since (the run
manifest ``.wordbias-run.json`` lists them with their SHA-256), at every depth for ``train``; it never writes
through a symbolic link; and on a full disk the earlier result stays whole and the message says so. Every case
runs in a fresh folder and is wrapped in ``files_survive``: the user's files and the earlier result are compared
byte for byte afterwards, so a case that loses or changes any of them counts as "data loss"."""
from __future__ import annotations

import errno
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from catalogue import Case, CommandFailed, check, exit_status, files_survive, run_cli

from wordbias.core.errors import DiskFullError, FolderNotOursError
from wordbias.core.ownership import RUN_MANIFEST

F = "output writer"


def _command(*argv, patches=()):
    """A call running ``wordbias ARGV`` in-process: returns 0, or raises :class:`CommandFailed` with the exit
    status and stderr (a traceback is an ``AssertionError``, never a clear error)."""
    return lambda: exit_status(*run_cli(argv, patches=patches))


# --------------------------------------------------------------------------------------------------
# the files of the cases (written at import, in a temporary folder)
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


def _write_w2v(path, seed=0):
    v = np.random.default_rng(seed).normal(size=(len(WORDS), 4))
    path.write_text(f"{len(WORDS)} 4\n" + "\n".join(w + " " + " ".join(f"{x:.5f}" for x in r)
                                                    for w, r in zip(WORDS, v)) + "\n", encoding="utf-8")
    return path


TMP = Path(tempfile.mkdtemp(prefix="wordbias-writer-")).resolve()
CACHE = ["--cache-dir", TMP / "cache"]
EMB = _write_w2v(TMP / "mine.txt")
OTHER = _write_w2v(TMP / "other.txt", seed=1)
TOY = TMP / "toy.yaml"
TOY.write_text(LISTS)
MEASURE = ["--lists", TOY, "-q", "--n-resamples", "20", "--n-permutations", "100", *CACHE]


def _weat(out, *extra, patches=()):
    return _command("weat", EMB, "--out", out, *MEASURE, *extra, patches=patches)


def _report(out, *extra, patches=()):
    return _command("report", EMB, "--out", out, *MEASURE, *extra, patches=patches)


def _compare(out, *extra, patches=()):
    return _command("compare", EMB, OTHER, "--out", out, *MEASURE, *extra, patches=patches)


def _train(out, seeds=1, patches=()):
    return _command("train", "inaugural", "--seeds", seeds, "--dim", "8", "--epochs", "1", "--workers", "1",
                    *CACHE, "--out", out, "-q", patches=patches)


def _scene(setup):
    """A case's call: ``setup(root)`` prepares a fresh folder (the user's files, an earlier result) and returns
    the command to run; every file under the folder must survive it, byte for byte."""
    def call():
        root = Path(tempfile.mkdtemp(dir=TMP, prefix="case-"))
        command = setup(root)
        return files_survive(root, command)()
    return call


def _users(folder: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def _earlier(run, out: Path) -> Path:
    """An earlier result of ``run`` (a command maker) in ``out``."""
    assert run(out)() == 0
    return out


def _raising(err_no=errno.ENOSPC, when=lambda *a, **k: True, real=None):
    def fail(*args, **kwargs):
        if when(*args, **kwargs):
            raise OSError(err_no, "No space left on device")
        return real(*args, **kwargs)
    return fail


def _full_savefig(suffix=""):
    """matplotlib runs out of space in the middle of a figure (whose file name ends with ``suffix``): the file
    holds its first bytes when the error comes, as on a real full disk."""
    from matplotlib.figure import Figure

    real = Figure.savefig

    def when(self, fname, *args, **kwargs):
        if not str(fname).endswith(suffix):
            return False
        Path(fname).write_bytes(b"\x89PNG\r\n")   # a truncated figure
        return True
    return lambda: mock.patch.object(Figure, "savefig", _raising(when=when, real=real))


def _full_html():
    real = Path.write_text

    def when(self, *args, **kwargs):
        return self.suffix == ".html"
    return mock.patch.object(Path, "write_text", _raising(when=when, real=real))


def _full_csv():
    import pandas as pd

    return mock.patch.object(pd.DataFrame, "to_csv", _raising())


def _full_manifest():
    from wordbias.core import atomic

    return mock.patch.object(atomic, "record_files", _raising())


def _full_copy():
    import shutil

    return mock.patch.object(shutil, "copytree", _raising())


INTACT = r"The earlier result in .* is whole: none of its files was replaced"


# --------------------------------------------------------------------------------------------------
# train --out: the rule at every depth
# --------------------------------------------------------------------------------------------------

def _train_over(add):
    """An earlier ensemble in root/ens, ``add(ens, root)`` puts the user's things in it, then train again."""
    def setup(root):
        ens = _earlier(_train, root / "ens")
        add(ens, root)
        return _train(ens, seeds=2)
    return _scene(setup)


def _symlink_in_run(ens, root):
    target = _users(root / "user", {"data.txt": "mine"}) / "data.txt"
    (ens / "runs" / "seed-1" / "data.txt").symlink_to(target)


def _edit_vectors(ens, root):
    path = ens / "runs" / "seed-1" / "vectors.npy"
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))


def _link_to_users_folder(run):
    def setup(root):
        thesis = _users(root / "thesis", {"notes.md": "# notes\n", "summary.html": "<p>mine</p>\n"})
        (root / "link").symlink_to(thesis, target_is_directory=True)
        return run(root / "link")
    return _scene(setup)


def _as_written_before_the_run_manifest(ens):
    """An ensemble as an earlier wordbias wrote it: the same files, without the run manifest."""
    (ens / RUN_MANIFEST).unlink()
    return ens


def _train_over_earlier(add):
    """An ensemble written before the run manifest in root/ens, ``add(ens, root)`` puts the user's things in it,
    then train again."""
    def setup(root):
        ens = _as_written_before_the_run_manifest(_earlier(_train, root / "ens"))
        add(ens, root)
        return _train(ens, seeds=2)
    return _scene(setup)


def test_an_ensemble_written_before_the_run_manifest_is_replaced():
    """Recognised by its own files (manifest.json, the runs' caches, their vectors' SHA-256): replaced, and
    then carries the run manifest."""
    root = Path(tempfile.mkdtemp(dir=TMP, prefix="earlier-"))
    ens = _as_written_before_the_run_manifest(_earlier(_train, root / "ens"))
    _train(ens, seeds=2)()
    assert (ens / RUN_MANIFEST).is_file() and sorted(p.name for p in (ens / "runs").iterdir()) == ["seed-1", "seed-2"]


def _train_cases():
    refused = r"exit 1: wordbias: error: refusing to replace the ensemble in .*ens: "
    return [
        Case(F, "train --out over an ensemble written before the run manifest, the user's notes.md in a run",
             _train_over_earlier(lambda ens, root: _users(ens, {"runs/seed-1/notes.md": "# my notes\n"})),
             CommandFailed, match=refused + r".*runs/seed-1/notes\.md is a file train_ensemble did not write"),
        Case(F, "train --out over an ensemble written before the run manifest, its vectors.npy changed",
             _train_over_earlier(_edit_vectors), CommandFailed,
             match=refused + r".*runs/seed-1/vectors\.npy is not the file train_ensemble wrote"),
        Case(F, "train --out over an ensemble written before the run manifest, a folder of the user's in runs/",
             _train_over_earlier(lambda ens, root: _users(ens, {"runs/analysis/plot.py": "print(1)\n"})),
             CommandFailed, match=refused + r".*runs/analysis is not a run of the ensemble's manifest\.json"),
        Case(F, "train --out over an ensemble written before the run manifest, a link in a run's folder",
             _train_over_earlier(_symlink_in_run), CommandFailed,
             match=refused + r".*runs/seed-1/data\.txt is a file train_ensemble did not write"),
        Case(F, "train --out over an earlier ensemble with the user's notes.md in a run's folder",
             _train_over(lambda ens, root: _users(ens, {"runs/seed-1/notes.md": "# my notes\n"})), CommandFailed,
             match=refused + r".*runs/seed-1/notes\.md is a file wordbias did not write"),
        Case(F, "train --out over an earlier ensemble with the user's file in runs/",
             _train_over(lambda ens, root: _users(ens, {"runs/README.txt": "mine\n"})), CommandFailed,
             match=refused + r".*runs/README\.txt is a file wordbias did not write"),
        Case(F, "train --out over an earlier ensemble with the user's folder in runs/",
             _train_over(lambda ens, root: _users(ens, {"runs/analysis/plot.py": "print(1)\n"})), CommandFailed,
             match=refused + r".*runs/analysis is a folder wordbias did not create"),
        Case(F, "train --out over an earlier ensemble whose vectors.npy the user changed",
             _train_over(_edit_vectors), CommandFailed,
             match=refused + r".*runs/seed-1/vectors\.npy was changed since wordbias wrote it"),
        Case(F, "train --out over an earlier ensemble holding a symbolic link to the user's file",
             _train_over(_symlink_in_run), CommandFailed,
             match=refused + r".*runs/seed-1/data\.txt is a symbolic link \(to .*user/data\.txt\)"),
        Case(F, "train --out a symbolic link to a folder of the user's files", _link_to_users_folder(_train),
             CommandFailed, match=r"exit 1: wordbias: error: --out '.*link' is a symbolic link to .*thesis, a folder "
                                  r"of files wordbias did not create"),
        Case(F, "train: no space while copying the runs over an earlier ensemble",
             _scene(lambda root: _train(_earlier(_train, root / "ens"), seeds=1, patches=[_full_copy])),
             CommandFailed, match=r"exit 1: wordbias: error: cannot write the folder to .*ens: no space left on "
                                  r"the device .* .*ens is as it was \(nothing in it was replaced\)"),
    ]


# --------------------------------------------------------------------------------------------------
# weat / report / compare --out: the files of the run
# --------------------------------------------------------------------------------------------------

def _over_users(run, files: dict[str, str]):
    """The user's own files in root/out (a folder wordbias did not create), then the command."""
    def setup(root):
        return run(_users(root / "out", files))
    return _scene(setup)


def _over_earlier(run, change, patches=()):
    """An earlier result of ``run`` in root/out, ``change(out, root)`` (the user's doing), then ``run`` again
    with another seed (so that every file of the new result differs from the earlier one's)."""
    def setup(root):
        out = _earlier(run, root / "out")
        change(out, root)
        return run(out, "--seed", "7", patches=patches)
    return _scene(setup)


def _link_file(name):
    def change(out, root):
        target = _users(root / "user", {name: "the user's own file\n"}) / name
        (out / name).unlink(missing_ok=True)
        (out / name).symlink_to(target)
    return change


def _edit(name, text="my own version\n"):
    return lambda out, root: (out / name).write_text(text)


def _nothing(out, root):
    return None


def _run_cases():
    refused = r"exit 1: wordbias: error: refusing to write .*out/"
    return [
        Case(F, "weat --out over a folder with the user's own summary.html",
             _over_users(_weat, {"summary.html": "<p>my page</p>\n", "notes.md": "# notes\n"}), CommandFailed,
             match=refused + r"summary\.html: .*summary\.html is a file wordbias did not write"),
        Case(F, "report --out over a folder with the user's own forest.png",
             _over_users(_report, {"forest.png": "my figure\n"}), CommandFailed,
             match=refused + r"forest\.png: .* is a file wordbias did not write"),
        Case(F, "compare --out over a folder with the user's own heatmap.pdf",
             _over_users(_compare, {"heatmap.pdf": "my heat map\n"}), CommandFailed,
             match=refused + r"heatmap\.pdf: .* is a file wordbias did not write"),
        Case(F, "weat --out over a folder with the user's folder named tidy.csv",
             _over_users(_weat, {"tidy.csv/data.txt": "mine\n"}), CommandFailed,
             match=refused + r"tidy\.csv: .* is a folder wordbias did not create"),
        Case(F, "report --out where forest.png is a symbolic link to the user's file elsewhere",
             _over_earlier(_report, _link_file("forest.png")), CommandFailed,
             match=refused + r"forest\.png: .*forest\.png is a symbolic link \(to .*user/forest\.png\)"),
        Case(F, "weat --out where tidy.csv is a symbolic link to the user's file elsewhere",
             _over_earlier(_weat, _link_file("tidy.csv")), CommandFailed,
             match=refused + r"tidy\.csv: .*tidy\.csv is a symbolic link"),
        Case(F, "weat --out where the run manifest is a symbolic link",
             _over_earlier(_weat, _link_file(".wordbias-run.json")), CommandFailed,
             match=refused + r"\.wordbias-run\.json: .* is a symbolic link"),
        Case(F, "weat --out a symbolic link to a folder of the user's files", _link_to_users_folder(_weat),
             CommandFailed, match=r"exit 1: wordbias: error: --out '.*link' is a symbolic link to .*thesis, a "
                                  r"folder of files wordbias did not create"),
        Case(F, "report --out a symbolic link to a folder of the user's files", _link_to_users_folder(_report),
             CommandFailed,
             match=r"--out '.*link' is a symbolic link to .*thesis"),
        Case(F, "weat rerun over a wordbias folder whose tidy.csv the user edited",
             _over_earlier(_weat, _edit("tidy.csv")), CommandFailed,
             match=refused + r"tidy\.csv: .*tidy\.csv was changed since wordbias wrote it"),
        Case(F, "weat rerun over a wordbias folder whose summary.html the user replaced by their own",
             _over_earlier(_weat, _edit("summary.html", "<p>my page</p>\n")), CommandFailed,
             match=refused + r"summary\.html: .* was changed since wordbias wrote it"),
        Case(F, "report rerun over a folder written before wordbias recorded its files (no manifest)",
             _over_earlier(_report, lambda out, root: (out / ".wordbias-run.json").unlink()), CommandFailed,
             match=refused + r"tidy\.csv: .* is a file wordbias did not write \(it is not in the folder's "
                             r"\.wordbias-run\.json"),
        Case(F, "no space while writing the forest plot during a rerun",
             _over_earlier(_weat, _nothing, patches=[_full_savefig(".png")]), CommandFailed,
             match=r"exit 1: wordbias: error: cannot write the forest plot to .*out/forest\.png: no space left on "
                   r"the device.*" + INTACT),
        Case(F, "no space while writing the forest plot's PDF during a rerun",
             _over_earlier(_report, _nothing, patches=[_full_savefig(".pdf")]), CommandFailed,
             match=r"cannot write the forest plot to .*out/forest\.png: no space left.*" + INTACT),
        Case(F, "no space while writing summary.html during a rerun",
             _over_earlier(_weat, _nothing, patches=[_full_html]), CommandFailed,
             match=r"cannot write the HTML summary to .*out/summary\.html: no space left.*" + INTACT),
        Case(F, "no space while writing tidy.csv during a rerun",
             _over_earlier(_weat, _nothing, patches=[_full_csv]), CommandFailed,
             match=r"cannot write the tidy table to .*out/tidy\.csv: no space left.*" + INTACT),
        Case(F, "no space while writing the run manifest during a rerun of compare",
             _over_earlier(_compare, _nothing, patches=[_full_manifest]), CommandFailed,
             match=r"no space left on the device.*" + INTACT),
        Case(F, "no space for the forest plot in a new folder",
             _scene(lambda root: _weat(root / "new", patches=[_full_savefig(".png")])), CommandFailed,
             match=r"cannot write the forest plot to .*new/forest\.png: no space left.*Nothing of this run was put "
                   r"in .*new"),
    ]


# --------------------------------------------------------------------------------------------------
# the library: write_outputs, check_output_dir, run_files
# --------------------------------------------------------------------------------------------------

def _library_write_outputs_over_users_summary(root):
    from wordbias.cli.output import write_outputs
    from wordbias.core import tidy

    out = _users(root / "out", {"summary.html": "<p>mine</p>\n"})
    frame = tidy.tidy_frame([{"embedding": "e", "test": "t", "measure": "weat", "effect_size_name": "d",
                              "effect_size": 0.5, "ci_low": 0.1, "ci_high": 0.9, "p_value": 0.01}])
    return lambda: write_outputs(frame, out, "t")


def _library_run_files_full(root):
    """run_files over an earlier result: the second file hits a full disk."""
    from wordbias.core.atomic import atomic_file, run_files

    out = root / "out"
    out.mkdir()

    def write(texts):
        with run_files(out, names=["a.txt", "b.txt"]):
            for name, text in texts.items():
                with atomic_file(out / name) as tmp:
                    if text is None:
                        raise OSError(errno.ENOSPC, "No space left on device")
                    tmp.write_text(text)

    write({"a.txt": "old a", "b.txt": "old b"})
    return lambda: write({"a.txt": "new a", "b.txt": None})


def _library_check_output_dir_link(root):
    from wordbias.core import paths

    thesis = _users(root / "thesis", {"notes.md": "# notes\n"})
    (root / "link").symlink_to(thesis, target_is_directory=True)
    return lambda: paths.check_output_dir(root / "link", what="output", create=True)


def _library_cases():
    return [
        Case(F, "write_outputs over a folder with the user's own summary.html",
             _scene(_library_write_outputs_over_users_summary), FolderNotOursError,
             match=r"refusing to write .*out/summary\.html: .* is a file wordbias did not write"),
        Case(F, "run_files: a full disk on the second file of a rerun", _scene(_library_run_files_full),
             DiskFullError, match=r"cannot write the outputs to .*: no space left on the device.*" + INTACT),
        Case(F, "check_output_dir: a symbolic link to a folder of the user's files",
             _scene(_library_check_output_dir_link), FolderNotOursError,
             match=r"output '.*link' is a symbolic link to .*thesis"),
    ]


CASES_OUTPUT_WRITER = _train_cases() + _run_cases() + _library_cases()


@pytest.mark.parametrize("case", CASES_OUTPUT_WRITER, ids=lambda c: c.name)
def test_case(case):
    check(case)
