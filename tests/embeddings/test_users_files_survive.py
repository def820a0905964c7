"""Every operation that removes or replaces a folder leaves a user's files as they were.

The cases: `wordbias cache clear --all --cache-dir DIR` on a project folder must not remove `.git` and `.venv`;
`embeddings.save()` and `embeddings.convert()` into an existing folder must not replace it whole."""
from __future__ import annotations

import numpy as np
import pytest

from wordbias import cli
from wordbias import embeddings as E
from wordbias.core import ownership
from wordbias.core.errors import FolderNotOursError
from wordbias.embeddings import cache, cache_folders

WORDS = ["king", "queen", "man", "woman"]


def _kv():
    return E.to_keyed_vectors(WORDS, np.arange(8, dtype=np.float32).reshape(4, 2) + 1)


def _snapshot(root):
    """Every file under ``root`` with its bytes (hidden folders included)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _project(root):
    """A researcher's project folder: a git repository, a virtual environment, sources; no cache."""
    for name, text in {".git/HEAD": "ref: refs/heads/main\n", ".git/objects/ab/cdef": "blob",
                       ".venv/pyvenv.cfg": "home = /usr/bin\n", ".venv/bin/python": "#!",
                       "src/analysis.py": "print(1)\n", ".hidden/notes.md": "mine\n",
                       "results/meta.json": '{"mine": true}\n', "README.md": "# project\n"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return _snapshot(root)


def _embedding_file(folder):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "vectors.txt"
    path.write_text("".join(f"{w} {i + 1}.0 {i + 2}.0\n" for i, w in enumerate(WORDS)))
    return path


def test_cache_clear_all_on_a_project_folder_removes_nothing_of_the_users(tmp_path, capsys):
    before = _project(tmp_path)
    assert cli.main(["cache", "clear", "--all", "--cache-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "holds no wordbias cache; its 5 other folder(s) were left alone" in err
    assert _snapshot(tmp_path) == before


def test_cache_clear_all_removes_the_caches_and_only_them(tmp_path, capsys):
    before = _project(tmp_path)
    source = _embedding_file(tmp_path / "src")
    before[str(source.relative_to(tmp_path))] = source.read_bytes()
    E.load(source, cache_dir=tmp_path, progress=False)           # a cache among the user's folders
    E.save(_kv(), tmp_path / "saved")
    assert len(cache_folders.list_caches(tmp_path)) == 2           # .git, .venv, src are not listed as caches
    assert cli.main(["cache", "clear", "--all", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("removed ") == 2 and "kept 5 folder(s) that wordbias did not write" in out
    assert _snapshot(tmp_path) == before


def test_cache_list_shows_only_wordbias_folders(tmp_path, capsys):
    _project(tmp_path)
    assert cache_folders.list_caches(tmp_path).empty
    assert cli.main(["cache", "list", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "(none)" in out and ".git" not in out and "5 other folder(s)" in out


def test_cache_clear_by_name_never_removes_a_users_folder_of_that_name(tmp_path):
    before = _project(tmp_path)
    assert cache_folders.clear_caches(["src", ".git"], cache_dir=tmp_path) == []
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("write", ["save", "convert"])
def test_save_and_convert_refuse_a_users_folder(tmp_path, write):
    folder = tmp_path / "thesis"
    folder.mkdir()
    for name, text in {"glove.840B.300d.txt": "the 0.1 0.2\n", "notes.md": "n", "thesis.tex": "t"}.items():
        (folder / name).write_text(text)
    source = _embedding_file(tmp_path / "elsewhere")
    before = _snapshot(tmp_path)
    with pytest.raises(FolderNotOursError, match=r"refusing to replace .*thesis"):
        E.save(_kv(), folder) if write == "save" else cache.convert(source, folder, progress=False)
    assert _snapshot(tmp_path) == before


def test_save_replaces_its_own_folder(tmp_path):
    folder = E.save(_kv(), tmp_path / "mine")
    E.save(E.to_keyed_vectors(WORDS[:2], np.ones((2, 2), dtype=np.float32)), folder)
    assert E.load(folder).index_to_key == WORDS[:2] and ownership.owner(folder) == "embedding"


def test_a_cache_of_an_earlier_version_without_marker_is_still_ours(tmp_path):
    """Caches written before the marker are recognised by their own files, and only by them."""
    folder = E.save(_kv(), tmp_path / "old")
    (folder / ownership.MARKER).unlink()
    assert ownership.owner(folder) == "embedding-cache"
    (folder / "thesis.tex").write_text("mine")                     # a user's file inside: no longer ours
    assert ownership.owner(folder) is None
    with pytest.raises(FolderNotOursError):
        cache_folders.clear_caches(None, cache_dir=tmp_path) or ownership.remove_folder(folder)
    assert (folder / "thesis.tex").read_text() == "mine"
