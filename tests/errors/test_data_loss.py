"""Catalogue cases for data loss: each operation that removes, replaces or writes a folder, run on a
folder of a user's own files. Every case wraps its call in `files_survive`, so a case that deletes or changes any
of the user's files is counted as "data loss" (must be 0), whatever the call raised."""
from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import numpy as np
import pytest
from catalogue import Case, check, files_survive

from wordbias.core.errors import FolderNotOursError

F = "data loss"


class CommandFailed(RuntimeError):
    """`wordbias ...` exited non-zero; the message is its stderr."""


def _command(*argv):
    def call():
        from wordbias import cli

        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = cli.main(list(argv))
        if code != 0:
            raise CommandFailed(f"exit {code}: {err.getvalue().strip()}")
    return call


def _users_folder(name="thesis") -> Path:
    """A folder of a user's files: an embedding, notes, a thesis, a git repository and a virtual environment."""
    root = Path(tempfile.mkdtemp(prefix="wb-user-")) / name
    for rel, text in {"glove.840B.300d.txt": "the 0.1 0.2\n", "notes.md": "# notes\n", "thesis.tex": "\\begin\n",
                      ".git/HEAD": "ref: refs/heads/main\n", ".venv/pyvenv.cfg": "home = /usr/bin\n",
                      "src/analysis.py": "print(1)\n", "config.json": "{}\n", "meta.json": "{}\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _kv():
    from wordbias.embeddings import to_keyed_vectors

    return to_keyed_vectors(["a", "b"], np.eye(2, dtype=np.float32))


def _source(folder: Path) -> Path:
    path = folder.parent / "vectors.txt"
    path.write_text("king 1.0 2.0\nqueen 2.0 1.0\n")
    return path


def _guarded(make_call, name="thesis"):
    """A call on a fresh user folder, checked for lost files."""
    def call():
        folder = _users_folder(name)
        return files_survive(folder.parent, make_call(folder))()
    return call


def _save(folder):
    from wordbias import embeddings as E

    return lambda: E.save(_kv(), folder)


def _convert(folder):
    from wordbias.embeddings import cache

    return lambda: cache.convert(_source(folder), folder, progress=False)


def _save_through_link(folder):
    from wordbias import embeddings as E

    link = folder.parent / "link"
    link.symlink_to(folder)
    return lambda: E.save(_kv(), link)


def _save_onto_file(folder):
    from wordbias import embeddings as E

    return lambda: E.save(_kv(), folder / "notes.md")


def _remove(folder):
    from wordbias.core import ownership

    return lambda: ownership.remove_folder(folder)


def _load_where_the_cache_would_go(folder):
    """The user's folder sits exactly where the cache of their file would be written."""
    from wordbias import embeddings as E

    source = _source(folder)
    target = E.cache_dir_for(source, cache_dir=folder.parent)
    folder.rename(target)
    return lambda: E.load(source, cache_dir=folder.parent, progress=False)


def _tiny_model(folder):
    from wordbias.models import tiny_mlm

    return lambda: tiny_mlm.build(folder)


def _clear(*extra):
    return lambda folder: _command("cache", "clear", *extra, "--cache-dir", str(folder))


CASES_DATA_LOSS = [
    Case(F, "cache clear --all on a project folder (no cache in it)", _guarded(_clear("--all")), CommandFailed,
         match=r"holds no wordbias cache; its 3 other folder\(s\) were left alone"),
    Case(F, "cache clear .git on a project folder", _guarded(_clear(".git")), CommandFailed,
         match=r"no cache named \['\.git'\]"),
    Case(F, "cache clear src .venv on a project folder", _guarded(_clear("src", ".venv")), CommandFailed,
         match=r"no cache named \['src', '\.venv'\]"),
    Case(F, "embeddings.save into a user's folder", _guarded(_save), FolderNotOursError,
         match=r"refusing to replace .*thesis: wordbias did not create it"),
    Case(F, "cache.convert into a user's folder", _guarded(_convert), FolderNotOursError,
         match=r"refusing to replace .*thesis: wordbias did not create it"),
    Case(F, "embeddings.save through a symbolic link to a user's folder", _guarded(_save_through_link),
         FolderNotOursError, match=r"link: it is a symbolic link"),
    Case(F, "embeddings.save onto a user's file", _guarded(_save_onto_file), FolderNotOursError,
         match=r"notes\.md: it is a file"),
    Case(F, "ownership.remove_folder on a user's folder", _guarded(_remove), FolderNotOursError,
         match=r"refusing to remove .*thesis"),
    Case(F, "load with the user's folder where the cache goes", _guarded(_load_where_the_cache_would_go),
         FolderNotOursError, match=r"refusing to replace .*vectors\.txt-\w+: wordbias did not create it"),
]

if __import__("importlib.util").util.find_spec("transformers") is not None:
    CASES_DATA_LOSS.append(Case(F, "tiny_mlm.build into a user's folder", _guarded(_tiny_model), FolderNotOursError,
                                match=r"refusing to write a model into .*thesis"))


@pytest.mark.parametrize("case", CASES_DATA_LOSS, ids=lambda c: c.name)
def test_case(case):
    check(case)


def test_the_check_counts_a_deleted_file_as_data_loss():
    """The guard itself can fail: a call that deletes one of the user's files is 'data loss', not a clear error."""
    from catalogue import outcome

    def destroy(folder):
        def call():
            (folder / "thesis.tex").unlink()
            raise FolderNotOursError("refusing to replace it")
        return call

    kind, detail = outcome(Case(F, "destroys", _guarded(destroy), FolderNotOursError, match="refusing"))
    assert kind == "data loss" and "thesis/thesis.tex" in detail
