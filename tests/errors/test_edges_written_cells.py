"""Catalogue cases of the family "written cells": every cell a command writes is safe to open, and labels are
free text.

Each case runs a measuring command (``wordbias.cli.main``) on word lists with one test that runs and one that
cannot (``ghost``: none of its target words is in the vocabulary), so the command must exit with status 3 and
name that test on stderr, whatever the labels hold (a ``/`` in a label once made a single embedding look like an
ensemble, and the test not run went unreported with status 0). Before the status is judged, the files the
command wrote are checked (:func:`_check_written`), and a file that is not safe is an ``UnsafeOutput`` (an
``AssertionError``: counted "wrong"):

* ``tidy.csv`` and ``ensemble.csv`` read with Python's csv module: no cell, and no part of a cell after a
  semicolon, a tab or a new line, begins with ``= + - @`` unless it is a number (a spreadsheet would run it as
  a formula: OWASP's "CSV Injection");
* ``tidy.csv`` read back by :func:`wordbias.core.tidy.read_tidy`: every label and title exactly as given;
* ``summary.html``: no label or title that holds ``< > & " '`` appears unescaped, and each appears escaped;
* the figures drawn from the table (the forest plot, the heat map, an ensemble's runs): no text that matplotlib
  would read as mathtext (a label ``$x_$`` once failed the whole command, ``$\\alpha$`` was drawn as a Greek
  letter).

The files the cases use (tiny embeddings, a hand-built ensemble of two runs, word lists) are written to a
temporary folder at import; every command gets ``--cache-dir`` there and its own ``--out``."""
from __future__ import annotations

import csv
import hashlib
import html
import itertools
import json
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest
from catalogue import Case, CommandFailed, check, exit_status, run_cli

F = "written cells"


class UnsafeOutput(AssertionError):
    """A written file holds a cell a spreadsheet would run, an unescaped string in HTML, a label changed, or a
    figure text read as mathtext."""


WORDS = ["rose", "tulip", "daisy", "lily", "ant", "wasp", "flea", "moth", "love", "peace", "joy", "hate", "war",
         "grief"] + [f"filler{i}" for i in range(10)]


def _lists(title: str = "Flowers vs insects", ghost_title: str = "cannot run") -> str:
    q = json.dumps     # a JSON string is a YAML string: any title, quoted
    return (f"battery: toy\nweat:\n  - id: flowers\n    title: {q(title)}\n"
            "    targets: {X: [rose, tulip, daisy, lily], Y: [ant, wasp, flea, moth]}\n"
            "    attributes: {A: [love, peace, joy], B: [hate, war, grief]}\n"
            f"  - id: ghost\n    title: {q(ghost_title)}\n"
            "    targets: {X: [zzz1, zzz2], Y: [zzz3, zzz4]}\n"
            "    attributes: {A: [love, peace, joy], B: [hate, war, grief]}\n")


def _write_w2v(path: Path, seed: int = 0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    v = np.random.default_rng(seed).normal(size=(len(WORDS), 4))
    path.write_text(f"{len(WORDS)} 4\n" + "\n".join(w + " " + " ".join(f"{x:.5f}" for x in r)
                                                    for w, r in zip(WORDS, v)) + "\n", encoding="utf-8")
    return path


def _ensemble(folder: Path) -> Path:
    """An ensemble of two runs as ``wordbias train`` leaves it (saved runs and a manifest), without training."""
    from wordbias import embeddings as E

    runs = []
    for i in (1, 2):
        kv = E.to_keyed_vectors(WORDS, np.random.default_rng(10 + i).normal(size=(len(WORDS), 4)).astype(np.float32))
        E.save(kv, folder / "runs" / f"seed-{i}")
        sha = hashlib.sha256((folder / "runs" / f"seed-{i}" / "vectors.npy").read_bytes()).hexdigest()
        runs.append({"id": f"seed-{i}", "kind": "seed", "path": f"runs/seed-{i}", "vectors_sha256": sha})
    (folder / "manifest.json").write_text(json.dumps({"wordbias_ensemble_version": 1, "runs": runs}))
    return folder


TMP = Path(tempfile.mkdtemp(prefix="wordbias-cells-")).resolve()
CACHE = ["--cache-dir", TMP / "cache"]
EMB = _write_w2v(TMP / "mine.txt")
FORMULA_FILE = _write_w2v(TMP / "=1+2.txt", seed=1)
SAME_NAME = (_write_w2v(TMP / "a" / "vectors.txt", seed=2), _write_w2v(TMP / "b" / "vectors.txt", seed=3))
LISTS = TMP / "toy.yaml"
LISTS.write_text(_lists(), encoding="utf-8")
ENSEMBLE = _ensemble(TMP / "ens")
_OUT = itertools.count()

#: where a spreadsheet may begin a cell: a field's start, and after a semicolon, a tab or a new line in it
_SEGMENT = re.compile(r"[;\t\r\n]")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")
_HTML_SPECIAL = set("<>&\"'")


def _lists_file(title: str, ghost_title: str = "cannot run") -> Path:
    path = TMP / f"lists-{next(_OUT)}.yaml"
    path.write_text(_lists(title, ghost_title), encoding="utf-8")
    return path


def _unsafe_cells(path: Path) -> list[str]:
    """The cells of a CSV file (csv module) that a spreadsheet would run as a formula."""
    bad = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.reader(f):
            for cell in row:
                starts = [part.lstrip(" ") for part in _SEGMENT.split(cell)]
                if any(s[:1] in ("=", "+", "-", "@") and not _NUMBER.match(s) for s in starts) or \
                        cell[:1] in ("\t", "\r"):
                    bad.append(cell)
    return bad


def _math_texts(fig) -> list[str]:
    from matplotlib import cbook
    from matplotlib.text import Text

    return [t.get_text() for t in fig.findobj(Text) if cbook.is_math_text(t.get_text())]


def _check_written(out: Path, labels=(), titles=(), runs=()) -> None:
    """Raise :class:`UnsafeOutput` when a file of ``out`` is not safe (see the module's docstring)."""
    import matplotlib.pyplot as plt

    from wordbias.battery import compare, ensemble, summary
    from wordbias.core import tidy

    for name in ("tidy.csv", "ensemble.csv"):
        if (out / name).exists():
            bad = _unsafe_cells(out / name)
            if bad:
                raise UnsafeOutput(f"{name} holds cells a spreadsheet runs as formulas: {bad[:4]}")
    table = tidy.read_tidy(out / "tidy.csv")
    missing = [x for x in labels if x not in set(table.embedding)] + [x for x in titles if x not in set(table.title)]
    if missing:
        raise UnsafeOutput(f"tidy.csv read back lacks the labels or titles {missing}: it holds "
                           f"{sorted(set(table.embedding.dropna()))}, {sorted(set(table.title.dropna()))}")
    page = (out / "summary.html").read_bytes().decode("utf-8")     # as written: a "\r" in a label kept
    for text in (*labels, *titles):
        if _HTML_SPECIAL & set(text) and text in page:
            raise UnsafeOutput(f"summary.html shows {text!r} unescaped")
        if html.escape(text) not in page:
            raise UnsafeOutput(f"summary.html does not show {text!r} (escaped)")
    figures = [summary.forest_plot(table)]
    if table.embedding.nunique() > 1:
        figures.append(compare.heatmap(table))
    try:
        math = [t for fig in figures for t in _math_texts(fig)]
        if runs:       # an ensemble's run rows: its table records them in attrs (a file read back does not)
            table.attrs[tidy.ENSEMBLE_RUNS] = {r: r for r in runs}
            math += _math_texts(ensemble.runs_figure(table))
    finally:
        plt.close("all")
    if math:
        raise UnsafeOutput(f"figure texts read as mathtext, not drawn as given: {math[:4]}")


def _command(*argv, labels=(), titles=(), runs=()):
    """A call running ``wordbias ARGV --out <fresh folder>``: the written files checked first
    (:class:`UnsafeOutput`), then 0, or :class:`CommandFailed` with the exit status and stderr."""
    def call():
        out = TMP / f"out-{next(_OUT)}"
        code, text = run_cli([*argv, "--out", out])
        if code in (0, 3):
            _check_written(out, labels=labels, titles=titles, runs=runs)
        return exit_status(code, text)
    return call


def _weat(label=None, *, lists=LISTS, title=None, embedding=EMB, command="weat", labels=None):
    extra = [f"--label={label}"] if label is not None else []     # "=" so that "-2+3" is not read as an option
    return _command(command, embedding, "--lists", lists, *extra, "-q", "--n-resamples", "20", *CACHE,
                    labels=labels if labels is not None else ([label] if label is not None else []),
                    titles=[title] if title is not None else [])


#: a title that closes an HTML attribute and opens an element
ATTRIBUTE = "\"><img src=x onerror=alert(1)>"
#: the command named the test that did not run, and exited 3
NOT_RUN = r"(?s)exit 3: .*wordbias: not run: (.* / )?ghost \(weat\)"
ONE = r"(?s)exit 3: (.*\n)?wordbias: not run: ghost \(weat\): DegenerateSetError"

LABELS = {
    "a label beginning with +, a DDE payload": "+cmd|' /C calc'!A0",
    "a label beginning with @": "@SUM(A1)",
    "a label beginning with -, not a number": "-2+3",
    "a label beginning with =": "=1+2",
    "a label beginning with a tab and =": "\t=1+2",
    "a label beginning with a carriage return": "\r=1+2",
    "a label beginning with spaces and =": "  =1+2",
    "a label with =... after a semicolon (a ;-separated spreadsheet's next cell)": "glove;=1+2",
    "a label with @... after a new line": "glove\n@SUM(A1)",
    "a label beginning with the text mark '": "'=1+2",
    "a label spelled NA (the missing value's spelling)": "NA",
    "a label with a slash": "a/b",
    "a label with two slashes, like a path": "runs/seed-1/x",
    "a label with mathtext": "$\\alpha$",
    "a label with broken mathtext": "$x_$",
    "a label with dollars and a slash": "$a/b$",
    "a label with a script tag": "<script>alert(1)</script>",
    "a label closing an HTML attribute, with a slash": "\"><img src=x onerror=alert(1)>/x",
    "a label with an HTML entity, beginning with =": "=a &amp; b",
}
TITLES = {
    "a test title that is a HYPERLINK formula": "=HYPERLINK(\"http://x\",\"y\")",
    "a test title beginning with @": "@cmd",
    "a test title with mathtext": "$\\sqrt{x}$ costs 5",
    "a test title with a formula after a semicolon": "career; =1+2",
}


def _weat_cases():
    cases = [Case(F, f"weat --label: {what} ({label!r})", _weat(label), CommandFailed, match=ONE)
             for what, label in LABELS.items()]
    cases += [Case(F, f"weat --lists: {what}", _weat(lists=_lists_file(title), title=title), CommandFailed,
                   match=ONE) for what, title in TITLES.items()]
    cases += [
        Case(F, "weat on an embedding file named =1+2.txt (its label the file name)",
             _weat(embedding=FORMULA_FILE, labels=["=1+2.txt"]), CommandFailed, match=ONE),
        Case(F, "weat --label x/y, a test title with a script tag",
             _weat("x/y", lists=_lists_file("<script>alert(1)</script>"), title="<script>alert(1)</script>"),
             CommandFailed, match=ONE),
        Case(F, "weat --label a/b, a test title closing an HTML attribute",
             _weat("a/b", lists=_lists_file(ATTRIBUTE), title=ATTRIBUTE),
             CommandFailed, match=ONE),
        Case(F, "weat: the test not run has a formula for its title",
             _weat("x/y", lists=_lists_file("ok", "=HYPERLINK(\"http://x\",\"y\")")), CommandFailed, match=ONE),
        Case(F, "report --lists --label with a slash", _weat("a/b", command="report"), CommandFailed, match=ONE),
        Case(F, "report --lists --label =cmd with a slash and mathtext", _weat("=a/$x_$", command="report"),
             CommandFailed, match=ONE),
    ]
    return cases


def _compare(*embeddings, labels):
    return _command("compare", *embeddings, "--lists", LISTS, "-q", "--n-resamples", "20", *CACHE, labels=labels)


def _compare_cases():
    a, b = SAME_NAME
    return [
        Case(F, "compare two files of the same name (a/vectors.txt, b/vectors.txt): two labels, never merged",
             _compare(a, b, labels=[str(a), str(b)]), CommandFailed,
             match=rf"(?s)exit 3: .*not run: {re.escape(str(a))} / ghost.*not run: {re.escape(str(b))} / ghost"),
        Case(F, "compare an embedding file named =1+2.txt with another", _compare(FORMULA_FILE, EMB,
             labels=["=1+2.txt", "mine.txt"]), CommandFailed, match=NOT_RUN),
        Case(F, "compare with labels a/b= and @SUM(A1)=", _compare(f"a/b={EMB}", f"@SUM(A1)={FORMULA_FILE}",
             labels=["a/b", "@SUM(A1)"]), CommandFailed, match=r"(?s)exit 3: .*not run: a/b / ghost.*"
                                                                   r"not run: @SUM\(A1\) / ghost"),
        Case(F, "compare with labels $x_$= and _mine= (mathtext, a legend's hidden label)",
             _compare(f"$x_$={EMB}", f"_mine={FORMULA_FILE}", labels=["$x_$", "_mine"]), CommandFailed,
             match=NOT_RUN),
    ]


def _ensemble_cases():
    def ens(label):
        runs = [f"{label}/seed-1", f"{label}/seed-2"]
        return _command("weat", ENSEMBLE, "--lists", LISTS, f"--label={label}", "--workers", "1", "-q",
                        "--n-resamples", "20", *CACHE, labels=[label, *runs], runs=runs)
    combined_not_run = r"(?s)exit 3: (.*\n)?wordbias: not run: ghost \(weat\): ran in 0 of 2 runs"
    return [
        Case(F, "weat on an ensemble labelled a/b: its combined rows told from its runs' by the table, not by /",
             ens("a/b"), CommandFailed, match=combined_not_run),
        Case(F, "weat on an ensemble labelled =ens/$x_$", ens("=ens/$x_$"), CommandFailed, match=combined_not_run),
    ]


CASES_WRITTEN_CELLS = _weat_cases() + _compare_cases() + _ensemble_cases()


@pytest.mark.parametrize("case", CASES_WRITTEN_CELLS, ids=lambda c: c.name)
def test_written_cells(case):
    check(case)


def test_the_checks_catch_what_they_look_for(tmp_path):
    """The file checks fail on what they must catch (else a case could pass with the fix missing)."""
    path = tmp_path / "t.csv"
    path.write_text("a,b\n=1+2,-0.5\n\"x;=1\",ok\n'=1,-2\n", encoding="utf-8")
    assert _unsafe_cells(path) == ["=1+2", "x;=1"]
    from matplotlib.figure import Figure

    fig = Figure()
    fig.suptitle("$x$")
    assert _math_texts(fig) == ["$x$"]
