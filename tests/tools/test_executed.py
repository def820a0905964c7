"""tools/executed.py: make's record of each notebook it executed, which decides what nbval runs in `make test`: a
notebook is left out only while it, every input it was executed from, the installed packages and the kernel setting
are as recorded."""

from __future__ import annotations

import pytest

from tools import executed


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORDBIAS_KERNELS", "x86-64-v3")
    monkeypatch.delenv(executed.ALL_ENV, raising=False)
    (tmp_path / "nb.ipynb").write_text('{"cells": []}\n')
    (tmp_path / "src.ipynb").write_text("source\n")
    (tmp_path / "lib.py").write_text("x = 1\n")
    executed.stamp("nb.ipynb", ["src.ipynb", "lib.py"])
    return tmp_path


def test_a_notebook_as_make_left_it_is_not_pending(tree):
    assert executed.is_current("nb.ipynb")
    assert executed.pending(["nb.ipynb"]) == []


@pytest.mark.parametrize("change", ["notebook", "input", "input gone", "kernels", "no record"])
def test_any_change_makes_it_pending(tree, monkeypatch, change):
    if change == "notebook":
        (tree / "nb.ipynb").write_text('{"cells": [1]}\n')          # outputs edited by hand
    elif change == "input":
        (tree / "lib.py").write_text("x = 2\n")                      # a source changed since make ran
    elif change == "input gone":
        (tree / "lib.py").unlink()
    elif change == "kernels":
        monkeypatch.setenv("WORDBIAS_KERNELS", "x86-64-v2")
    else:
        (tree / "build" / "executed" / "nb.ipynb.json").unlink()
    assert executed.pending(["nb.ipynb"]) == ["nb.ipynb"]


def test_another_environment_makes_it_pending(tree, monkeypatch):
    monkeypatch.setattr(executed, "_environment", lambda: "another")
    assert not executed.is_current("nb.ipynb")


def test_all_runs_every_notebook(tree, monkeypatch, capsys):
    monkeypatch.setenv(executed.ALL_ENV, "all")
    assert executed.main(["pending", "nb.ipynb"]) == 0
    assert capsys.readouterr().out.split() == ["nb.ipynb"]
    assert executed.main([]) == 2
