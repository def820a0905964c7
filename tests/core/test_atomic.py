"""wordbias.core.atomic: atomic files and folders (no window in which a reader finds nothing, the only
good copy never deleted before the new one is in place)."""
from __future__ import annotations

import threading

import pytest

from wordbias.core import atomic as cache


def _write_folder(path, text):
    with cache.atomic_folder(path, kind="output") as tmp:
        (tmp / "x.txt").write_text(text)


def test_atomic_folder_replaces_and_leaves_nothing_behind(tmp_path):
    target = tmp_path / "c"
    _write_folder(target, "one")
    _write_folder(target, "two")
    assert (target / "x.txt").read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["c"]


def test_failed_write_keeps_the_old_folder(tmp_path):
    target = tmp_path / "c"
    _write_folder(target, "good")
    with pytest.raises(RuntimeError):
        with cache.atomic_folder(target, kind="output") as tmp:
            (tmp / "x.txt").write_text("half")
            raise RuntimeError("interrupted")
    assert (target / "x.txt").read_text() == "good"
    assert [p.name for p in tmp_path.iterdir()] == ["c"]


def test_complete_folder_of_a_concurrent_writer_is_kept(tmp_path):
    target = tmp_path / "c"
    _write_folder(target, "theirs")
    with cache.atomic_folder(target, kind="output", is_complete=lambda p: (p / "x.txt").exists()) as tmp:
        (tmp / "x.txt").write_text("ours")
    assert (target / "x.txt").read_text() == "theirs"


def test_no_window_without_the_folder_while_it_is_replaced(tmp_path):
    """A reader polling the folder while a writer replaces it 200 times never finds it missing (with
    renameat2's exchange; the rename-aside fallback has a short window that readers retry over)."""
    if not cache._exchange(tmp_path, tmp_path):  # exchanging a path with itself: does the call exist?
        pytest.skip("renameat2(RENAME_EXCHANGE) unavailable")
    target = tmp_path / "c"
    _write_folder(target, "0")
    stop = threading.Event()
    missing = []

    def reader():
        while not stop.is_set():
            if not target.exists():
                missing.append(1)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for i in range(200):
            _write_folder(target, str(i))
    finally:
        stop.set()
        thread.join()
    assert not missing
    assert (target / "x.txt").read_text() == "199"


def test_atomic_file_replaces(tmp_path):
    target = tmp_path / "f.npz"
    with cache.atomic_file(target) as tmp:
        assert tmp.suffix == ".npz"
        tmp.write_bytes(b"1")
    assert target.read_bytes() == b"1"


# --- a user's folder survives every operation that removes or replaces a folder --------------------------------

def _users_folder(path):
    """A folder of a user's own files (an embedding, notes and a thesis)."""
    path.mkdir(parents=True, exist_ok=True)
    files = {"glove.840B.300d.txt": "the 0.1 0.2\n", "notes.md": "# notes\n", "thesis.tex": "\\begin{document}\n"}
    for name, text in files.items():
        (path / name).write_text(text)
    return files


def _intact(path, files):
    return {p.name: p.read_text() for p in path.iterdir()} == files


def test_atomic_folder_refuses_a_users_folder_and_leaves_it_intact(tmp_path):
    from wordbias.core.errors import FolderNotOursError

    target = tmp_path / "thesis"
    files = _users_folder(target)
    with pytest.raises(FolderNotOursError, match=r"refusing to replace .*thesis: wordbias did not create it"):
        _write_folder(target, "ours")
    assert _intact(target, files)
    assert [p.name for p in tmp_path.iterdir()] == ["thesis"]  # no temporary folder left behind


def test_atomic_folder_checks_again_just_before_the_swap(tmp_path):
    """A user's files put where the folder is going while it is being written are not replaced either."""
    from wordbias.core.errors import FolderNotOursError

    target = tmp_path / "c"
    with pytest.raises(FolderNotOursError):
        with cache.atomic_folder(target, kind="output") as tmp:
            (tmp / "x.txt").write_text("ours")
            files = _users_folder(target)
    assert _intact(target, files)


def test_atomic_folder_replaces_an_empty_folder_and_marks_its_own(tmp_path):
    from wordbias.core import ownership

    target = tmp_path / "c"
    target.mkdir()
    _write_folder(target, "one")
    assert ownership.owner(target) == "output" and (target / "x.txt").read_text() == "one"


def test_atomic_folder_refuses_a_symlink_and_a_file(tmp_path):
    from wordbias.core.errors import FolderNotOursError

    real = tmp_path / "real"
    files = _users_folder(real)
    (tmp_path / "link").symlink_to(real)
    (tmp_path / "file").write_text("mine")
    for name in ("link", "file"):
        with pytest.raises(FolderNotOursError, match=name):
            _write_folder(tmp_path / name, "ours")
    assert _intact(real, files) and (tmp_path / "file").read_text() == "mine"
