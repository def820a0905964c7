"""One writer for every output of a run (wordbias.core.atomic.run_files, atomic_folder(manifest=True), the run
manifest of wordbias.core.ownership, check_output_dir's link and file checks): a run's files are replaced together
or not at all, only files wordbias wrote and the user did not change are replaced, at every depth, never through a
symbolic link, and a full disk (faked, and a real small tmpfs where mounting is allowed) leaves the earlier result
whole."""
from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from wordbias import cli
from wordbias.core import atomic, ownership, paths
from wordbias.core.atomic import atomic_file, atomic_folder, pending_path, run_files
from wordbias.core.errors import DiskFullError, FolderNotOursError
from wordbias.core.ownership import RUN_MANIFEST, check_files_ours, check_tree_ours, file_sha256, read_run_manifest


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _temporaries(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob(".tmp-*")]


def _write(out: Path, texts: dict, names=("a.txt", "b.txt")) -> atomic.RunFiles:
    """One run writing ``texts`` (name -> text; an exception instance is raised at that file instead)."""
    with run_files(out, names=names) as run:
        for name, text in texts.items():
            with atomic_file(out / name) as tmp:
                if isinstance(text, BaseException):
                    tmp.write_text("half")
                    raise text
                tmp.write_text(text)
    return run


# ---------------------------------------------------------------------------------------------- run_files

def test_a_rerun_replaces_its_own_files_and_records_them(tmp_path):
    first = _write(tmp_path, {"a.txt": "1a", "b.txt": "1b"})
    assert [p.name for p in first.written] == ["a.txt", "b.txt"]
    second = _write(tmp_path, {"a.txt": "2a", "b.txt": "2b"})
    assert [p.name for p in second.written] == ["a.txt", "b.txt"]
    assert (tmp_path / "a.txt").read_text() == "2a" and (tmp_path / "b.txt").read_text() == "2b"
    manifest = read_run_manifest(tmp_path)
    assert manifest["files"] == {n: [file_sha256(tmp_path / n)] for n in ("a.txt", "b.txt")}
    assert json.loads((tmp_path / RUN_MANIFEST).read_text())["created_by"] == "wordbias"
    assert _temporaries(tmp_path) == []


def test_files_move_into_place_only_when_all_are_written(tmp_path):
    _write(tmp_path, {"a.txt": "old a", "b.txt": "old b"})
    before = _files(tmp_path)
    with run_files(tmp_path, names=["a.txt", "b.txt"]):
        with atomic_file(tmp_path / "a.txt") as tmp:
            tmp.write_text("new a")
        assert (tmp_path / "a.txt").read_text() == "old a"             # not yet
        assert pending_path(tmp_path / "a.txt").read_text() == "new a"  # where its new content is meanwhile
        assert pending_path(tmp_path / "b.txt") == tmp_path / "b.txt"
    assert (tmp_path / "a.txt").read_text() == "new a" and (tmp_path / "b.txt").read_text() == "old b"
    assert before != _files(tmp_path)
    assert pending_path(tmp_path / "a.txt") == tmp_path / "a.txt"      # outside a run: the file itself


@pytest.mark.parametrize("failure", [RuntimeError("interrupted"), OSError(errno.ENOSPC, "No space left on device"),
                                     KeyboardInterrupt()])
def test_a_failure_mid_run_leaves_the_earlier_result_whole(tmp_path, failure):
    _write(tmp_path, {"a.txt": "old a", "b.txt": "old b"})
    before = _files(tmp_path)
    with pytest.raises(type(failure) if not isinstance(failure, OSError) else DiskFullError) as info:
        _write(tmp_path, {"a.txt": "new a", "b.txt": failure})
    assert _files(tmp_path) == before and _temporaries(tmp_path) == []
    if isinstance(failure, OSError):
        text = str(info.value)
        assert info.value.errno == errno.ENOSPC and "\n" not in text
        assert text.startswith(f"cannot write the outputs to {tmp_path}: no space left on the device")
        assert text.endswith(f"The earlier result in {tmp_path} is whole: none of its files was replaced, and this "
                             "run's partly written files were removed.")


def test_a_full_disk_in_a_new_folder_says_nothing_was_put_there(tmp_path):
    with pytest.raises(DiskFullError, match=rf"Nothing of this run was put in {tmp_path}: its partly written files "
                                            "were removed"):
        _write(tmp_path, {"a.txt": "a", "b.txt": OSError(errno.EDQUOT, "Disk quota exceeded")})
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_full_disk_while_writing_the_manifest_leaves_the_earlier_result_whole(tmp_path, monkeypatch):
    _write(tmp_path, {"a.txt": "old a", "b.txt": "old b"})
    before = _files(tmp_path)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "record_files", full)
    with pytest.raises(DiskFullError, match="is whole"):
        _write(tmp_path, {"a.txt": "new a", "b.txt": "new b"})
    assert _files(tmp_path) == before and _temporaries(tmp_path) == []


def test_a_users_file_is_refused_before_any_work(tmp_path):
    (tmp_path / "b.txt").write_text("the user's")
    entered = []
    with pytest.raises(FolderNotOursError, match=r"refusing to write .*b\.txt: .*b\.txt is a file wordbias did not "
                                                 r"write \(it is not in the folder's \.wordbias-run\.json"):
        with run_files(tmp_path, names=["a.txt", "b.txt"]):
            entered.append(1)
    assert not entered and (tmp_path / "b.txt").read_text() == "the user's"


def test_an_edited_file_is_refused(tmp_path):
    _write(tmp_path, {"a.txt": "ours", "b.txt": "ours"})
    (tmp_path / "a.txt").write_text("edited by the user")
    with pytest.raises(FolderNotOursError, match=r"a\.txt was changed since wordbias wrote it"):
        _write(tmp_path, {"a.txt": "new", "b.txt": "new"})
    assert (tmp_path / "a.txt").read_text() == "edited by the user"
    (tmp_path / "a.txt").unlink()                                   # removed by the user: written again
    _write(tmp_path, {"a.txt": "new", "b.txt": "new"})
    assert (tmp_path / "a.txt").read_text() == "new"


def test_a_users_file_appearing_during_the_run_is_not_replaced(tmp_path):
    """Checked again just before the files move: a file the user puts there meanwhile stops the run."""
    _write(tmp_path, {"a.txt": "old a", "b.txt": "old b"})
    with pytest.raises(FolderNotOursError, match=r"b\.txt was changed"):
        with run_files(tmp_path, names=["a.txt", "b.txt"]):
            for name in ("a.txt", "b.txt"):
                with atomic_file(tmp_path / name) as tmp:
                    tmp.write_text("new")
            (tmp_path / "b.txt").write_text("the user's, meanwhile")
    assert (tmp_path / "a.txt").read_text() == "old a" and (tmp_path / "b.txt").read_text() == "the user's, meanwhile"
    assert _temporaries(tmp_path) == []


def test_files_of_other_folders_are_written_at_once(tmp_path):
    (tmp_path / "out").mkdir()
    with run_files(tmp_path / "out"):
        with atomic_file(tmp_path / "elsewhere.txt") as tmp:
            tmp.write_text("x")
        assert (tmp_path / "elsewhere.txt").read_text() == "x"


def test_a_crash_between_the_renames_leaves_files_wordbias_recognises(tmp_path, monkeypatch):
    """The manifest lists the old and the new content before the files move: whichever is in place is ours."""
    _write(tmp_path, {"a.txt": "old a", "b.txt": "old b"})
    real, moved = os.replace, []

    def crash_on_b(src, dst):
        if Path(dst).name == "b.txt":
            raise RuntimeError("the machine stops")
        moved.append(Path(dst).name)
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", crash_on_b)
    with pytest.raises(RuntimeError):
        _write(tmp_path, {"a.txt": "new a", "b.txt": "new b"})
    monkeypatch.setattr(atomic.os, "replace", real)
    assert "a.txt" in moved and (tmp_path / "a.txt").read_text() == "new a"
    check_files_ours(tmp_path, ["a.txt", "b.txt"])                  # both recognised as wordbias's
    _write(tmp_path, {"a.txt": "3", "b.txt": "3"})
    assert read_run_manifest(tmp_path)["files"]["a.txt"] == [file_sha256(tmp_path / "a.txt")]


# ---------------------------------------------------------------------------------------------- links

def test_a_symbolic_link_is_refused_naming_the_link_and_its_target(tmp_path):
    user = tmp_path / "user"
    user.mkdir()
    (user / "forest.png").write_bytes(b"the user's figure")
    out = tmp_path / "out"
    out.mkdir()
    _write(out, {"a.txt": "a"}, names=["a.txt", "forest.png"])
    (out / "forest.png").symlink_to(user / "forest.png")
    with pytest.raises(FolderNotOursError, match=rf"{out / 'forest.png'} is a symbolic link \(to "
                                                 rf"{user / 'forest.png'}\); wordbias never writes through a link"):
        check_files_ours(out, ["forest.png"])
    (out / RUN_MANIFEST).unlink()
    (out / RUN_MANIFEST).symlink_to(user / "forest.png")
    with pytest.raises(FolderNotOursError, match=r"\.wordbias-run\.json is a symbolic link"):
        check_files_ours(out, ["a.txt"])
    assert (user / "forest.png").read_bytes() == b"the user's figure"


def test_check_output_dir_follows_a_link_only_to_a_folder_of_wordbias(tmp_path):
    thesis = tmp_path / "thesis"
    thesis.mkdir()
    (thesis / "notes.md").write_text("mine")
    (tmp_path / "to-thesis").symlink_to(thesis, target_is_directory=True)
    with pytest.raises(FolderNotOursError, match=rf"--out '{tmp_path / 'to-thesis'}' is a symbolic link to {thesis}, "
                                                 "a folder of files wordbias did not create"):
        paths.check_output_dir(tmp_path / "to-thesis", create=True)
    made = paths.check_output_dir(tmp_path / "made", create=True)   # marked: followed
    (tmp_path / "to-made").symlink_to(made, target_is_directory=True)
    assert paths.check_output_dir(tmp_path / "to-made", create=True) == made
    (tmp_path / "empty").mkdir()
    (tmp_path / "to-empty").symlink_to(tmp_path / "empty", target_is_directory=True)
    assert paths.check_output_dir(tmp_path / "to-empty") == tmp_path / "empty"
    # the direct path of a folder of the user's stays allowed: only named files are written, nothing removed
    assert paths.check_output_dir(thesis, files=["tidy.csv"]) == thesis
    with pytest.raises(FolderNotOursError, match=r"notes\.md is a file wordbias did not write"):
        paths.check_output_dir(thesis, files=["notes.md"])


# ---------------------------------------------------------------------------------------------- the output rule

def test_the_output_rule_takes_a_new_an_empty_or_a_wordbias_folder_and_refuses_the_users(tmp_path):
    ownership.check_output_folder(tmp_path / "new", ["a.txt"])
    ownership.check_output_folder(tmp_path, ["a.txt"])                          # empty
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FolderNotOursError, match=rf"refusing to write into {tmp_path}: wordbias did not create it "
                                                 r".*\(notes\.txt\); give a new or an empty folder, or --force to "
                                                 "write into this one anyway"):
        ownership.check_output_folder(tmp_path, ["a.txt"])
    (tmp_path / "notes.txt").unlink()
    ownership.mark(tmp_path / "made", "output")
    ownership.check_output_folder(tmp_path / "made", ["a.txt"])                 # only wordbias's marker
    (tmp_path / "made" / "notes.txt").write_text("mine")
    ownership.check_output_folder(tmp_path / "made", ["a.txt"])                 # wordbias made it: written beside
    users = tmp_path / "users"
    users.mkdir()
    for name in ("notes.txt", "b.txt", "c.txt", "d.txt"):
        (users / name).write_text("mine")
    with pytest.raises(FolderNotOursError, match=r"\(b\.txt, c\.txt, d\.txt and 1 more\); give a new or an empty "
                                                 r"folder$"):
        ownership.check_output_folder(users, ["a.txt"], force_option=None)
    ownership.check_output_folder(users, ["a.txt", "b.txt"], force=True)        # --force: any folder, any file


def test_a_folder_with_wordbias_s_run_manifest_is_written_beside_the_users_files(tmp_path):
    """A folder holding the run manifest (wordbias wrote into it, perhaps under --force): its listed files,
    unchanged, are replaced; the user's other files stay; a file of the run's names it does not list is refused
    unless forced."""
    (tmp_path / "notes.txt").write_text("mine")
    with run_files(tmp_path, names=["a.txt"], force=True):
        with atomic_file(tmp_path / "a.txt") as tmp:
            tmp.write_text("ours")
    assert ownership.has_run_manifest(tmp_path) and ownership.owner(tmp_path) is None
    ownership.check_output_folder(tmp_path, ["a.txt"])
    (tmp_path / "b.txt").write_text("the user's")
    with pytest.raises(FolderNotOursError, match=r"b\.txt is a file wordbias did not write .*or give --force to "
                                                 "replace it"):
        ownership.check_output_folder(tmp_path, ["a.txt", "b.txt"])
    ownership.check_output_folder(tmp_path, ["a.txt", "b.txt"], force=True)


def test_force_replaces_a_users_file_and_a_link_but_never_a_folder(tmp_path):
    user = tmp_path / "user"
    user.mkdir()
    (user / "b.txt").write_text("the user's file elsewhere")
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_text("the user's a")
    (out / "b.txt").symlink_to(user / "b.txt")
    (out / "notes.txt").write_text("mine")
    with pytest.raises(FolderNotOursError, match=r"a\.txt is a file wordbias did not write"):
        _write(out, {"a.txt": "new a", "b.txt": "new b"})
    with run_files(out, names=["a.txt", "b.txt"], force=True):
        for name in ("a.txt", "b.txt"):
            with atomic_file(out / name) as tmp:
                tmp.write_text(f"new {name}")
    assert (out / "a.txt").read_text() == "new a.txt" and (out / "b.txt").read_text() == "new b.txt"
    assert not (out / "b.txt").is_symlink() and (user / "b.txt").read_text() == "the user's file elsewhere"
    assert (out / "notes.txt").read_text() == "mine"
    assert set(read_run_manifest(out)["files"]) == {"a.txt", "b.txt"}    # wordbias's from now on
    (out / "c.txt").mkdir()
    with pytest.raises(FolderNotOursError, match=r"c\.txt is a folder, which a file cannot replace; move it away "
                                                 "yourself, or choose another output folder"):
        check_files_ours(out, ["c.txt"], force=True, force_option="--force")


def test_no_empty_folder_left_removes_only_the_empty_folders_the_run_created(tmp_path):
    from wordbias.cli.output import RUN_FILES, no_empty_folder_left, prepare_out

    def failing(out, *, fill=None):
        with pytest.raises(RuntimeError):
            with no_empty_folder_left(str(out)):
                folder = prepare_out(str(out), RUN_FILES)
                if fill:
                    (folder / fill).write_text("written meanwhile")
                raise RuntimeError("the run failed")

    failing(tmp_path / "a" / "b")
    assert list(tmp_path.iterdir()) == []
    failing(tmp_path / "a" / "b", fill="notes.txt")          # a file in it: kept, with its parents
    assert (tmp_path / "a" / "b" / "notes.txt").is_file()
    (tmp_path / "mine").mkdir()
    failing(tmp_path / "mine")                                 # there before the run: kept
    assert (tmp_path / "mine").is_dir()
    with no_empty_folder_left(str(tmp_path / "ok")):          # no failure: kept
        prepare_out(str(tmp_path / "ok"), RUN_FILES)
    assert (tmp_path / "ok" / ownership.MARKER).is_file()


# ---------------------------------------------------------------------------------------------- every depth

def _tree(out: Path) -> None:
    with atomic_folder(out, kind="output", manifest=True) as tmp:
        (tmp / "runs" / "seed-1").mkdir(parents=True)
        (tmp / "runs" / "seed-1" / "vectors.npy").write_bytes(b"vectors")
        (tmp / "manifest.json").write_text("{}")


def test_atomic_folder_records_every_file_and_subfolder(tmp_path):
    out = tmp_path / "ens"
    _tree(out)
    manifest = read_run_manifest(out)
    assert manifest["folders"] == ["runs", "runs/seed-1"]
    assert manifest["files"] == {"manifest.json": [file_sha256(out / "manifest.json")],
                                 "runs/seed-1/vectors.npy": [file_sha256(out / "runs/seed-1/vectors.npy")]}
    check_tree_ours(out)
    _tree(out)                                                      # its own folder: replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ens"]


@pytest.mark.parametrize("change, named", [
    (lambda out: (out / "runs" / "seed-1" / "notes.md").write_text("mine"), r"runs/seed-1/notes\.md is a file "
                                                                            "wordbias did not write"),
    (lambda out: (out / "runs" / "mine").mkdir(), r"runs/mine is a folder wordbias did not create"),
    (lambda out: (out / "runs" / "seed-1" / "vectors.npy").write_bytes(b"VECTORS"),
     r"runs/seed-1/vectors\.npy was changed since wordbias wrote it"),
    (lambda out: (out / "runs" / "link").symlink_to(out.parent / "elsewhere"), r"runs/link is a symbolic link"),
    (lambda out: (out / RUN_MANIFEST).unlink(), r"manifest\.json is a file wordbias did not write"),
])
def test_a_folder_holding_anything_not_wordbias_s_at_any_depth_is_not_replaced(tmp_path, change, named):
    out = tmp_path / "ens"
    _tree(out)
    change(out)
    before = _files(out)
    entered = []
    with pytest.raises(FolderNotOursError, match=rf"refusing to replace {out}: .*{named}"):
        with atomic_folder(out, kind="output", manifest=True):
            entered.append(1)
    assert not entered and _files(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ens"]   # no temporary folder left


def test_a_full_disk_while_replacing_a_folder_says_it_is_as_it_was(tmp_path):
    out = tmp_path / "ens"
    _tree(out)
    before = _files(out)
    with pytest.raises(DiskFullError, match=rf"{out} is as it was \(nothing in it was replaced\)"):
        with atomic_folder(out, kind="output", manifest=True) as tmp:
            (tmp / "x").write_text("half")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert _files(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["ens"]


def test_the_tree_check_ignores_the_markers_and_passes_an_empty_or_marked_folder(tmp_path):
    check_tree_ours(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    check_tree_ours(tmp_path / "empty")
    made = paths.check_output_dir(tmp_path / "made", create=True)
    check_tree_ours(made)
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "x").write_text("x")
    with pytest.raises(FolderNotOursError, match="wordbias did not create it"):
        check_tree_ours(tmp_path / "user")
    assert ownership.RUN_MANIFEST == ".wordbias-run.json"


# ---------------------------------------------------------------------------------------------- figures

def test_save_writes_each_figure_atomically(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from wordbias.core import figures

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    png, pdf = figures.save(fig, tmp_path, "f")
    assert (png, pdf) == (tmp_path / "f.png", tmp_path / "f.pdf") and png.read_bytes().startswith(b"\x89PNG")
    before = _files(tmp_path)

    def full(self, fname, *args, **kwargs):
        Path(fname).write_bytes(b"\x89PNG")                        # the first bytes, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full)
    with pytest.raises(OSError):
        figures.save(fig, tmp_path, "f")
    plt.close(fig)
    assert _files(tmp_path) == before and _temporaries(tmp_path) == []


# ---------------------------------------------------------------------------------------------- the command

def _embedding(folder: Path) -> tuple[Path, Path]:
    words = ["rose", "tulip", "daisy", "lily", "ant", "wasp", "flea", "moth", "love", "peace", "joy", "hate",
             "war", "grief"]
    v = np.random.default_rng(0).normal(size=(len(words), 4))
    emb = folder / "mine.txt"
    emb.write_text(f"{len(words)} 4\n" + "\n".join(w + " " + " ".join(f"{x:.5f}" for x in r)
                                                    for w, r in zip(words, v)) + "\n")
    lists = folder / "toy.yaml"
    lists.write_text("battery: toy\nweat:\n  - id: flowers\n    targets: {X: [rose, tulip, daisy, lily], "
                     "Y: [ant, wasp, flea, moth]}\n    attributes: {A: [love, peace, joy], B: [hate, war, grief]}\n")
    return emb, lists


def _weat(emb, lists, out, *extra) -> tuple[int, str, str]:
    err, std = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(std):
        code = cli.main(["weat", str(emb), "--lists", str(lists), "--out", str(out), "--n-resamples", "20",
                         "--n-permutations", "100", *extra])
    return code, std.getvalue(), err.getvalue()


def test_rerunning_a_command_into_its_own_folder_replaces_its_files(tmp_path):
    emb, lists = _embedding(tmp_path)
    out = tmp_path / "out"
    code, std, err = _weat(emb, lists, out, "--seed", "1")
    assert code == 0, err
    first = _files(out)
    assert sorted(read_run_manifest(out)["files"]) == ["forest.pdf", "forest.png", "summary.html", "tidy.csv"]
    code, std, err = _weat(emb, lists, out, "--seed", "2")
    assert code == 0, err
    second = _files(out)
    assert second["tidy.csv"] != first["tidy.csv"] and second["summary.html"] != first["summary.html"]
    assert f"wrote {out / 'tidy.csv'}, {out / 'summary.html'}, {out / 'forest.png'}, {out / 'forest.pdf'}" in std
    assert read_run_manifest(out)["files"]["tidy.csv"] == [file_sha256(out / "tidy.csv")]
    assert _temporaries(out) == []
    code, _, err = _weat(emb, lists, out, "--seed", "2")              # the same again: the same files
    assert code == 0, err
    assert _files(out)["tidy.csv"] == second["tidy.csv"]


def test_the_command_on_a_full_disk_keeps_the_earlier_result(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    emb, lists = _embedding(tmp_path)
    out = tmp_path / "out"
    assert _weat(emb, lists, out, "-q")[0] == 0
    before = _files(out)
    real = Figure.savefig

    def full(self, fname, *args, **kwargs):
        if str(fname).endswith(".pdf"):
            Path(fname).write_bytes(b"%PDF-1.4")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, fname, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", full)
    code, _, err = _weat(emb, lists, out, "-q", "--seed", "3")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"wordbias: error: cannot write the forest plot to {out / 'forest.png'}: no space left")
    assert f"The earlier result in {out} is whole: none of its files was replaced" in err
    assert _files(out) == before and _temporaries(out) == []


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs mounted at tmp_path/disk (skipped where mounting is not permitted)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True,
                              timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"cannot mount a tmpfs here: {exc}")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True, timeout=30)


def test_a_real_full_disk_keeps_the_earlier_result(tmp_path, small_disk):
    emb, lists = _embedding(tmp_path)
    out = small_disk / "out"
    code, _, err = _weat(emb, lists, out, "-q", "--cache-dir", str(tmp_path / "cache"))
    assert code == 0, err
    before = _files(out)
    filler = small_disk / "filler"
    stat = os.statvfs(small_disk)
    with open(filler, "wb") as f:                                   # leave 8 KiB: too little for a new figure
        try:
            f.write(b"\0" * max(stat.f_bavail * stat.f_frsize - 8192, 0))
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    code, _, err = _weat(emb, lists, out, "-q", "--seed", "5", "--cache-dir", str(tmp_path / "cache"))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert "no space left on the device" in err and f"The earlier result in {out} is whole" in err
    assert _files(out) == before and _temporaries(out) == []
    filler.unlink()                                                 # room again: the rerun replaces the result
    code, _, err = _weat(emb, lists, out, "-q", "--seed", "5", "--cache-dir", str(tmp_path / "cache"))
    assert code == 0, err
    assert _files(out)["tidy.csv"] != before["tidy.csv"] and _temporaries(out) == []
