"""wordbias.core.cache: atomic files and folders (issue 13: no window in which a reader finds nothing, the only
good copy never deleted before the new one is in place)."""
from __future__ import annotations

import threading

import pytest

from wordbias.core import cache


def _write_folder(path, text):
    with cache.atomic_folder(path) as tmp:
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
        with cache.atomic_folder(target) as tmp:
            (tmp / "x.txt").write_text("half")
            raise RuntimeError("interrupted")
    assert (target / "x.txt").read_text() == "good"
    assert [p.name for p in tmp_path.iterdir()] == ["c"]


def test_complete_folder_of_a_concurrent_writer_is_kept(tmp_path):
    target = tmp_path / "c"
    _write_folder(target, "theirs")
    with cache.atomic_folder(target, is_complete=lambda p: (p / "x.txt").exists()) as tmp:
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
