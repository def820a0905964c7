"""The command's report and compare on a user's lists, labels (LABEL=PATH), `wordbias embeddings` and "did you
mean"."""
from __future__ import annotations

import numpy as np
import pytest

from wordbias import cli
from wordbias.core import tidy

LISTS = """\
battery: toy
weat:
  - id: flowers
    title: Flowers vs insects
    targets:
      X: {name: Flowers, words: [rose, tulip, daisy, lily]}
      Y: {name: Insects, words: [ant, wasp, flea, moth]}
    attributes:
      A: {name: Pleasant, words: [love, peace, joy]}
      B: {name: Unpleasant, words: [hate, war, grief]}
wefat:
  - id: jobs
    targets: {W: [rose, tulip, daisy]}
    attributes: {A: [love, peace, joy], B: [hate, war, grief]}
    property: {name: size, values: {rose: 1.0, tulip: 2.0, daisy: 3.0}}
"""
WORDS = ["rose", "tulip", "daisy", "lily", "ant", "wasp", "flea", "moth", "love", "peace", "joy", "hate", "war",
         "grief"] + [f"filler{i}" for i in range(10)]


def _write(path, seed):
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(len(WORDS), 5))
    v[:4, 0] += 2.0
    v[8:11, 0] += 3.0
    v[11:14, 0] -= 3.0
    path.write_text("".join(w + " " + " ".join(f"{x:.5f}" for x in row) + "\n" for w, row in zip(WORDS, v)))
    return path


@pytest.fixture(autouse=True)
def cache_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDBIAS_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def files(tmp_path):
    (tmp_path / "lists.yaml").write_text(LISTS)
    return _write(tmp_path / "seed1.txt", 1), _write(tmp_path / "seed2.txt", 2), tmp_path / "lists.yaml"


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_report_takes_lists(files, tmp_path, capsys):
    a, _, lists = files
    code, out, err = run(capsys, "report", a, "--lists", lists, "--out", tmp_path / "r", "--n-resamples", 200)
    assert code == 0, err
    assert "the 1 WEFAT(s) of" in err and "are not run by `wordbias report`" in err
    t = tidy.read_tidy(tmp_path / "r" / "tidy.csv")
    assert t.test.tolist() == ["flowers"] and t.battery.tolist() == ["user:toy"]
    assert "flowers" in out


def test_compare_takes_lists_and_labels(files, tmp_path, capsys):
    a, b, lists = files
    code, out, err = run(capsys, "compare", f"seed 1={a}", f"seed2={b}", "--lists", lists, "--out", tmp_path / "c",
                         "--n-resamples", 200)
    assert code == 0, err
    t = tidy.read_tidy(tmp_path / "c" / "tidy.csv")
    assert t.embedding.tolist() == ["seed 1", "seed2"] and set(t.test) == {"flowers"}
    assert (tmp_path / "c" / "heatmap.png").exists()


def test_a_file_name_with_an_equals_sign_is_a_path(files, tmp_path, capsys):
    a, b, lists = files
    odd = tmp_path / "dim=5.txt"
    odd.write_text(a.read_text())
    code, _, err = run(capsys, "compare", odd, b, "--lists", lists, "--out", tmp_path / "c", "--n-resamples", 200)
    assert code == 0, err
    assert tidy.read_tidy(tmp_path / "c" / "tidy.csv").embedding.tolist() == ["dim=5.txt", "seed2.txt"]


@pytest.mark.parametrize("argv, fragment", [
    (["=x.txt", "y.txt"], "'=x.txt': write LABEL=PATH"),
    (["a=", "y.txt"], "'a=': write LABEL=PATH"),
])
def test_bad_labels(files, tmp_path, capsys, argv, fragment):
    code, _, err = run(capsys, "compare", *argv, "--out", tmp_path / "c")
    assert code == 1 and fragment in err


def test_two_embeddings_under_one_label(files, tmp_path, capsys):
    a, b, lists = files
    code, _, err = run(capsys, "compare", f"x={a}", f"x={b}", "--lists", lists, "--out", tmp_path / "c")
    assert code == 1 and "two embeddings share a label: ['x']" in err


def test_no_ube_with_lists_is_refused(files, tmp_path, capsys):
    a, b, lists = files
    code, _, err = run(capsys, "report", a, "--lists", lists, "--no-ube", "--out", tmp_path / "r")
    assert code == 1 and "--no-ube applies to the report's battery" in err


def test_embeddings_lists_the_registry(capsys):
    code, out, _ = run(capsys, "embeddings")
    assert code == 0 and "glove-6b-50d" in out and "here" in out and "absent" in out
    assert "of 9 on this machine" in out or "on this machine" in out
    code, out, _ = run(capsys, "embeddings", "word2vec-google-news-300")
    assert code == 0 and "get it from https://code.google.com/archive/p/word2vec/" in out and "Mikolov" in out


def test_an_unknown_name_gets_did_you_mean(capsys, tmp_path):
    code, _, err = run(capsys, "embeddings", "glove-6b-5")
    assert code == 1 and "did you mean 'glove-6b-50d'" in err
    code, _, err = run(capsys, "weat", "glove6b-50d", "--out", tmp_path / "o")
    assert code == 1 and "did you mean 'glove-6b-50d'" in err


def test_the_forest_plot_is_written_as_png_and_pdf_and_exact_p_says_so(files, tmp_path, capsys):
    """The forest plot is written as its own files, not only inside the HTML; exact p-values are not shown as
    'permutations NA'."""
    a, _, lists = files
    code, out, err = run(capsys, "weat", a, "--lists", lists, "--out", tmp_path / "w", "--n-resamples", 200)
    assert code == 0, err
    png, pdf = tmp_path / "w" / "forest.png", tmp_path / "w" / "forest.pdf"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and pdf.read_bytes()[:5] == b"%PDF-"
    assert "forest.png" in out and "forest.pdf" in out
    page = (tmp_path / "w" / "summary.html").read_text()
    assert "none: every p exact" in page and ">NA<" not in page.split("<h2>Results</h2>")[0]


def test_no_progress_bar_when_stderr_is_not_a_terminal(files, tmp_path):
    """In a log, no progress bar shares lines with the warnings."""
    import subprocess
    import sys

    a, _, lists = files
    proc = subprocess.run([sys.executable, "-m", "wordbias", "weat", str(a), "--lists", str(lists), "--out",
                           str(tmp_path / "w"), "--n-resamples", "200"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stderr and "test/s" not in proc.stderr
