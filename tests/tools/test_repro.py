"""Tests for tools.repro and tools.tolerances: classify regenerated outputs against a temporary git repository."""

from __future__ import annotations

import copy
import csv
import io
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from PIL import Image

from tools import repro, tolerances
from tools.repro import Comparison, compare_file, compare_tree, main
from tools.tolerances import load_tolerances

ROOT = Path(__file__).resolve().parents[2]

CSV = "name,x,y,n\nalpha,0.803853,1.23457,77\nbeta,-0.126984,4.11353e-05,12\ngamma,0.5,,3\n"

NOTEBOOK = {
    "nbformat": 4,
    "nbformat_minor": 5,
    "metadata": {"kernelspec": {"name": "python3"}},
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Title"]},
        {
            "cell_type": "code", "execution_count": 1, "metadata": {"tags": []}, "source": ["print(es)"],
            "outputs": [{"output_type": "stream", "name": "stdout", "text": ["effect size 0.6715, p 1.4e-09\n"]}],
        },
        {
            "cell_type": "code", "execution_count": 2, "metadata": {}, "source": ["n"],
            "outputs": [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                         "data": {"text/plain": ["77"], "text/html": ["<b>77</b>"]}}],
        },
        {
            "cell_type": "code", "execution_count": 3, "metadata": {"tags": ["repro-chaotic"]}, "source": ["timeit()"],
            "outputs": [{"output_type": "stream", "name": "stdout", "text": ["elapsed 12.5 s\n"]}],
        },
        {
            "cell_type": "code", "execution_count": 4, "metadata": {}, "source": ["plot()"],
            "outputs": [{"output_type": "display_data", "metadata": {},
                         "data": {"image/png": "iVBORw0KGgoAAAA", "text/plain": ["<Figure size 640x480 with 1 Axes>"]}}],
        },
    ],
}


def _png(block: tuple[int, int] | None = None, size: tuple[int, int] = (100, 100)) -> bytes:
    """A striped RGBA test image; ``block`` = (side, value) paints a square in the corner."""
    arr = np.zeros((size[1], size[0], 4), dtype=np.uint8)
    arr[..., 3] = 255
    arr[:, ::10, 0] = 200
    if block:
        side, value = block
        arr[:side, :side, :3] = value
    buf = io.BytesIO()
    Image.fromarray(arr, "RGBA").save(buf, format="PNG")
    return buf.getvalue()


def _nb_bytes(nb: dict) -> bytes:
    return (json.dumps(nb, indent=1, sort_keys=True) + "\n").encode()


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false", *args],
        cwd=repo, check=True, capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A committed repo with a CSV, a PNG with a PDF twin, a lone PDF and a notebook."""
    files = {
        "results/t.csv": CSV.encode(),
        "figures/fig.png": _png(),
        "figures/fig.pdf": b"%PDF-1.4\n% figure one\n%%EOF\n",
        "figures/solo.pdf": b"%PDF-1.4\n% lonely figure\n%%EOF\n",
        "notebooks/nb.ipynb": _nb_bytes(NOTEBOOK),
        "README.md": b"not compared\n",
    }
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-q", "-m", "outputs")
    return tmp_path


@pytest.fixture
def tol():
    return load_tolerances()


def _status(results: list[Comparison]) -> dict[str, str]:
    return {r.path: r.status for r in results}


def _csv(old: str, new: str) -> str:
    return CSV.replace(old, new, 1)


def _cmp_csv(new: str, tol, path: str = "results/t.csv") -> Comparison:
    return compare_file(path, CSV.encode(), new.encode(), tol)


def _write_yaml(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "tol.yaml"
    p.write_text(text)
    return p


# --------------------------------------------------------------------------- tolerance file


def test_packaged_tolerances_end_with_documented_default(tol):
    last = tol.rules[-1]
    assert (last.files, last.columns, last.rtol, last.atol) == ("**", ("*",), 1e-5, 0.0)
    assert "6 significant digits" in last.why
    assert tol.png_max_changed_share == 0.002 and tol.notebook_last_digit_units == 1


RULE_OK = "  - {files: '**', columns: ['*'], rtol: 1.0e-5, atol: 0.0, why: default}\n"


@pytest.mark.parametrize(
    ("bad_rule", "message"),
    [
        ("  - {files: '**', columns: ['*'], rtol: 0.1, atol: 0.0}\n", "why"),
        ("  - {files: '**', columns: ['*'], rtol: 0.1, atol: 0.0, why: '  '}\n", "why"),
        ("  - {files: '**', columns: ['*'], rtol: -0.1, atol: 0.0, why: w}\n", "rtol"),
        ("  - {files: '**', columns: ['*'], rtol: 0.1, atol: -1, why: w}\n", "atol"),
        ("  - {files: '**', columns: ['*'], rtol: 0.1, atol: 0.0, why: w, rtoll: 3}\n", "rtoll"),
        ("  - {files: '**', rtol: 0.1, atol: 0.0, why: w}\n", "columns"),
    ],
)
def test_loader_refuses_bad_rule_naming_its_index(tmp_path, bad_rule, message):
    path = _write_yaml(tmp_path, "csv_rules:\n" + RULE_OK + bad_rule)
    with pytest.raises(ValueError, match=r"csv_rules\[1\]") as info:
        load_tolerances(path)
    assert message in str(info.value)


def test_loader_refuses_unknown_top_level_key_and_png_without_why(tmp_path):
    with pytest.raises(ValueError, match="png_share"):
        load_tolerances(_write_yaml(tmp_path, "png_share: 0.1\ncsv_rules:\n" + RULE_OK))
    with pytest.raises(ValueError, match="png_max_changed_share"):
        load_tolerances(_write_yaml(tmp_path, "png_max_changed_share: 0.1\ncsv_rules:\n" + RULE_OK))


def test_loader_accepts_yaml11_exponent_string(tmp_path):
    tol = load_tolerances(_write_yaml(tmp_path, "csv_rules:\n  - {files: a, columns: [x], rtol: 1e-5, atol: 0, why: w}\n"))
    assert tol.rules[0].rtol == 1e-5


def test_glob_star_stays_in_folder_double_star_spans():
    assert tolerances.glob_match("results/*.csv", "results/a.csv")
    assert not tolerances.glob_match("results/*.csv", "results/sub/a.csv")
    assert tolerances.glob_match("results/**/a.csv", "results/a.csv")
    assert tolerances.glob_match("results/**/a.csv", "results/x/y/a.csv")
    assert tolerances.glob_match("**", "results/x/y/a.csv")
    assert not tolerances.glob_match("results/**/a.csv", "results/x/b.csv")


# --------------------------------------------------------------------------- CSV


def test_csv_sixth_digit_change_is_within_default_tolerance(tol):
    got = _cmp_csv(_csv("0.803853", "0.803852"), tol)
    assert got.status == "within tolerance"
    assert "'x'" in got.detail


def test_csv_larger_change_is_different_and_names_column(tol):
    got = _cmp_csv(_csv("0.803853", "0.8039"), tol)
    assert got.status == "different"
    assert "'x'" in got.detail and "row 0" in got.detail and "0.803853" in got.detail


def test_csv_without_matching_rule_uses_builtin_default():
    empty = tolerances.Tolerances()
    assert _cmp_csv(_csv("0.803853", "0.803852"), empty).status == "within tolerance"
    got = _cmp_csv(_csv("0.803853", "0.80387"), empty)
    assert got.status == "different" and "built-in default" in got.detail


def test_csv_int_column_change_is_different(tol):
    got = _cmp_csv(_csv(",77", ",78"), tol)
    assert got.status == "different" and "'n'" in got.detail


def test_csv_formatting_only_nan_and_inf_equal(tol):
    old = "a,b\n1,nan\ninf,-inf\n"
    same = compare_file("results/f.csv", old.encode(), b"a,b\n1.0,NaN\ninf,-inf\n", tol)
    assert same.status == "within tolerance"
    flipped = compare_file("results/f.csv", old.encode(), b"a,b\n1.0,NaN\n-inf,-inf\n", tol)
    assert flipped.status == "different" and "'a'" in flipped.detail


def test_csv_per_column_rule_accepts_what_default_rejects_first_match_wins(tmp_path):
    changed = _csv("0.803853", "0.8039")
    loose_first = load_tolerances(_write_yaml(tmp_path, (
        "csv_rules:\n"
        "  - {files: 'other/**', columns: ['*'], rtol: 1.0, atol: 1.0, why: does not match this file}\n"
        "  - {files: 'results/*.csv', columns: [x], rtol: 1.0e-3, atol: 0.0, why: x is a resampled estimate}\n"
        "  - {files: '**', columns: ['*'], rtol: 1.0e-5, atol: 0.0, why: default}\n"
    )))
    got = _cmp_csv(changed, loose_first)
    assert got.status == "within tolerance"
    # the loose rule covers column x only: y is still judged by the default
    assert _cmp_csv(changed.replace("1.23457", "1.2346"), loose_first).status == "different"
    tight_first = load_tolerances(_write_yaml(tmp_path, (
        "csv_rules:\n"
        "  - {files: '**', columns: ['*'], rtol: 1.0e-5, atol: 0.0, why: default}\n"
        "  - {files: 'results/*.csv', columns: [x], rtol: 1.0e-3, atol: 0.0, why: never reached}\n"
    )))
    assert _cmp_csv(changed, tight_first).status == "different"


def test_csv_string_change_is_different(tol):
    got = _cmp_csv(_csv("beta", "Beta"), tol)
    assert got.status == "different"
    assert "'name'" in got.detail and "row 1" in got.detail


def test_csv_added_row_is_different(tol):
    got = _cmp_csv(CSV + "delta,1,2,3\n", tol)
    assert got.status == "different" and "row count" in got.detail


def test_csv_renamed_column_is_different(tol):
    got = _cmp_csv(CSV.replace("name,x,y,n", "name,x,z,n"), tol)
    assert got.status == "different" and "'y'" in got.detail and "'z'" in got.detail


# --------------------------------------------------------------------------- PNG and PDF


def test_png_one_changed_pixel_is_within_tolerance(tol):
    got = compare_file("figures/fig.png", _png(), _png(block=(1, 255)), tol)
    assert got.status == "within tolerance"
    assert "0.010%" in got.detail


def test_png_large_changed_block_is_different(tol):
    assert compare_file("figures/fig.png", _png(), _png(block=(20, 255)), tol).status == "different"


def test_png_small_channel_noise_is_not_counted(tol):
    arr = np.asarray(Image.open(io.BytesIO(_png())).convert("RGBA")).copy()
    arr[:50, :50, 1] += 32  # every pixel of a large block moves, but by at most 32
    buf = io.BytesIO()
    Image.fromarray(arr, "RGBA").save(buf, format="PNG")
    got = compare_file("figures/fig.png", _png(), buf.getvalue(), tol)
    assert got.status == "within tolerance" and "0.000%" in got.detail


def test_png_size_change_is_different(tol):
    got = compare_file("figures/fig.png", _png(), _png(size=(101, 100)), tol)
    assert got.status == "different" and "size" in got.detail


def test_pdf_judged_by_png_twin(repo):
    (repo / "figures/fig.pdf").write_bytes(b"%PDF-1.4\n% figure one, new timestamp\n%%EOF\n")
    (repo / "figures/fig.png").write_bytes(_png(block=(1, 255)))
    got = {r.path: r for r in compare_tree(repo)}
    assert got["figures/fig.pdf"].status == "within tolerance"
    assert "PNG twin" in got["figures/fig.pdf"].detail


def test_pdf_with_different_twin_is_different(repo):
    (repo / "figures/fig.pdf").write_bytes(b"%PDF-1.4\n% changed\n%%EOF\n")
    (repo / "figures/fig.png").write_bytes(_png(block=(40, 255)))
    assert _status(compare_tree(repo))["figures/fig.pdf"] == "different"


def test_pdf_without_twin_is_different(repo):
    (repo / "figures/solo.pdf").write_bytes(b"%PDF-1.4\n% lonely figure, changed\n%%EOF\n")
    got = {r.path: r for r in compare_tree(repo)}
    assert got["figures/solo.pdf"].status == "different"
    assert "no PNG twin" in got["figures/solo.pdf"].detail


# --------------------------------------------------------------------------- notebooks


def _nb_with(cell: int, text: str | None = None, data: dict | None = None, outputs: list | None = None) -> bytes:
    nb = copy.deepcopy(NOTEBOOK)
    c = nb["cells"][cell]
    if text is not None:
        c["outputs"][0]["text"] = [text]
    if data is not None:
        c["outputs"][0]["data"].update(data)
    if outputs is not None:
        c["outputs"] = outputs
    return _nb_bytes(nb)


def _cmp_nb(new: bytes, tol) -> Comparison:
    return compare_file("notebooks/nb.ipynb", _nb_bytes(NOTEBOOK), new, tol)


def test_notebook_last_digit_flip_is_within_tolerance(tol):
    got = _cmp_nb(_nb_with(1, text="effect size 0.6716, p 1.5e-09\n"), tol)
    assert got.status == "within tolerance"
    assert "cell 1" in got.detail


@pytest.mark.parametrize("text", ["effect size 0.6725, p 1.4e-09\n", "effect size 0.6715, p 1.6e-09\n"])
def test_notebook_larger_number_change_is_different(tol, text):
    got = _cmp_nb(_nb_with(1, text=text), tol)
    assert got.status == "different" and "cell 1" in got.detail


def test_notebook_integer_allows_one_unit(tol):
    assert _cmp_nb(_nb_with(2, data={"text/plain": ["78"], "text/html": ["<b>78</b>"]}), tol).status == "within tolerance"
    assert _cmp_nb(_nb_with(2, data={"text/plain": ["79"]}), tol).status == "different"


def test_notebook_text_change_is_different(tol):
    got = _cmp_nb(_nb_with(1, text="effect sizes 0.6715, p 1.4e-09\n"), tol)
    assert got.status == "different" and "text differs" in got.detail


def test_notebook_source_change_is_different(tol):
    nb = copy.deepcopy(NOTEBOOK)
    nb["cells"][2]["source"] = ["n + 1"]
    assert _cmp_nb(_nb_bytes(nb), tol).status == "different"


def test_notebook_chaotic_cell_compares_structure_only(tol):
    # a repro-chaotic cell shows seed / NMF distributions (checked through its CSVs): its text may change...
    got = _cmp_nb(_nb_with(3, text="elapsed 98.7 s\n"), tol)
    assert got.status == "within tolerance" and "repro-chaotic" in got.detail
    assert _cmp_nb(_nb_with(3, text="elapsed 98.7 ms\n"), tol).status == "within tolerance"
    # ... but not its structure: an error, or another number of outputs, is different
    err = [{"output_type": "error", "ename": "KeyError", "evalue": "'x'", "traceback": []}]
    assert _cmp_nb(_nb_with(3, outputs=err), tol).status == "different"
    assert _cmp_nb(_nb_with(3, outputs=[]), tol).status == "different"
    untagged = copy.deepcopy(NOTEBOOK)
    untagged["cells"][3]["metadata"]["tags"] = []
    changed = copy.deepcopy(untagged)
    changed["cells"][3]["outputs"][0]["text"] = ["elapsed 98.7 s\n"]
    assert compare_file("n.ipynb", _nb_bytes(untagged), _nb_bytes(changed), tol).status == "different"


def test_notebook_embedded_image_change_is_within_tolerance(tol):
    got = _cmp_nb(_nb_with(4, data={"image/png": "iVBORw0KGgoBBBB"}), tol)
    assert got.status == "within tolerance" and "embedded image differs" in got.detail


def test_notebook_error_output_is_different(tol):
    err = [{"output_type": "error", "ename": "KeyError", "evalue": "'x'", "traceback": []}]
    got = _cmp_nb(_nb_with(2, outputs=err), tol)
    assert got.status == "different" and "KeyError" in got.detail


def test_notebook_metadata_and_counts_ignored_stream_chunks_merged(tol):
    nb = copy.deepcopy(NOTEBOOK)
    nb["metadata"]["papermill"] = {"duration": 3.2}
    nb["cells"][2]["execution_count"] = 9
    nb["cells"][1]["outputs"] = [
        {"output_type": "stream", "name": "stdout", "text": ["effect size 0.6715, "]},
        {"output_type": "stream", "name": "stdout", "text": ["p 1.4e-09\n"]},
    ]
    got = _cmp_nb(_nb_bytes(nb), tol)
    assert got.status == "within tolerance" and "metadata" in got.detail


def test_notebook_alignment_whitespace_is_not_significant(tol):
    old = copy.deepcopy(NOTEBOOK)
    old["cells"][1]["outputs"][0]["text"] = ["a   9.9999\nb   1.0000\n"]
    new = copy.deepcopy(old)
    new["cells"][1]["outputs"][0]["text"] = ["a  10.0000\nb   1.0000\n"]
    assert compare_file("n.ipynb", _nb_bytes(old), _nb_bytes(new), tol).status == "within tolerance"


def test_last_digit_unit():
    assert repro._last_digit_unit("0.6715") == Decimal("0.0001")
    assert repro._last_digit_unit("1.4e-09") == Decimal("1e-10")
    assert repro._last_digit_unit("77") == 1


# --------------------------------------------------------------------------- whole tree and CLI


def test_clean_tree_is_all_identical_and_other_files_ignored(repo):
    results = compare_tree(repo)
    assert {r.status for r in results} == {"identical"}
    assert sorted(r.path for r in results) == [
        "figures/fig.pdf", "figures/fig.png", "figures/solo.pdf", "notebooks/nb.ipynb", "results/t.csv",
    ]


def test_deleted_new_and_other_types(repo):
    (repo / "results/t.csv").unlink()
    (repo / "results/extra.csv").write_text("a\n1\n")
    (repo / "notebooks/notes.txt").write_text("x\n")
    _git(repo, "add", "notebooks/notes.txt")
    _git(repo, "commit", "-q", "-m", "txt")
    (repo / "notebooks/notes.txt").write_text("y\n")
    got = _status(compare_tree(repo))
    assert got["results/t.csv"] == "different"
    assert got["results/extra.csv"] == "new"
    assert got["notebooks/notes.txt"] == "different"


def test_main_exit_codes_and_report(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo / "results")  # the repo is found from the current folder
    assert main(["compare"]) == 0
    assert capsys.readouterr().out.strip() == "repro: 5 identical, 0 within tolerance, 0 different"

    (repo / "results/t.csv").write_text(_csv("0.803853", "0.803852"))
    assert main(["compare", "--repo", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "within tolerance" in out and "repro: 4 identical, 1 within tolerance, 0 different" in out

    (repo / "results/t.csv").write_text(_csv("0.803853", "0.9"))
    report = repo.parent / "report.csv"
    assert main(["compare", "--repo", str(repo), "--report", str(report)]) == 1
    assert "repro: 4 identical, 0 within tolerance, 1 different" in capsys.readouterr().out
    rows = list(csv.DictReader(report.open()))
    assert len(rows) == 5
    assert {r["path"]: r["status"] for r in rows}["results/t.csv"] == "different"


def test_main_new_file_fails_and_paths_option(repo, capsys):
    (repo / "figures/new.png").write_bytes(_png())
    assert main(["compare", "--repo", str(repo)]) == 1
    assert "1 new" in capsys.readouterr().out
    assert main(["compare", "--repo", str(repo), "--paths", "results", "notebooks"]) == 0


def test_main_bad_tolerances_or_ref_exit_2(repo, tmp_path, capsys):
    bad = _write_yaml(tmp_path, "csv_rules:\n  - {files: '**', columns: ['*'], rtol: 0.1, atol: 0}\n")
    assert main(["compare", "--repo", str(repo), "--tolerances", str(bad)]) == 2
    assert main(["compare", "--repo", str(repo), "--ref", "no-such-ref"]) == 2
    assert "repro: error" in capsys.readouterr().err


def test_module_entry_point(repo):
    proc = subprocess.run(
        [sys.executable, "-m", "tools.repro", "compare", "--repo", str(repo)],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("0 different")


# ---- the shipped tolerance file, on the committed outputs it governs -------------------------------------------

def test_shipped_tolerances_catch_a_change_beyond_them():
    """Each rule of the shipped file can fail: a committed GAP seed table and a Caliskan Table 1 moved by half
    their tolerance pass, moved by twice fail."""
    tol = tolerances.load_tolerances(tolerances.DEFAULT_TOLERANCES)
    root = ROOT
    for rel, column in (("results/kurita2019/all-minilm-l6-v2/gap_seeds.csv", "female_minus_male"),
                        ("results/kurita2019/all-minilm-l6-v2/table4.csv", "ours: avg predicted %, seed mean"),
                        ("results/caliskan2017/glove-840b-caliskan/table1.csv", "effect_size")):
        committed = (root / rel).read_bytes()
        frame = pd.read_csv(io.BytesIO(committed))
        rule = next(r for r in tol.rules if r.matches(rel, column))
        step = rule.atol + rule.rtol * abs(frame.loc[0, column])
        for factor, expected in ((0.5, "within tolerance"), (2.0, "different")):
            moved = frame.copy()
            moved.loc[0, column] = frame.loc[0, column] + factor * step
            now = moved.to_csv(index=False, float_format="%.10g").encode()
            assert repro.compare_file(rel, committed, now, tol).status == expected, (rel, factor)


def test_list_rule_keeps_enough_items_and_png_rule_per_file(tmp_path):
    lists = (tolerances.ListRule("results/**/table6.csv", ("top_words",), ",", 4, "near-tied topic words"),)
    tol = tolerances.Tolerances(list_rules=lists,
                           png_rules=(tolerances.PngRule("figures/**/gap_*.png", 0.05, "chaotic values"),))
    old = b"topic,top_words\n1,\"a,b,c,d,e\"\n2,\"f,g,h,i,j\"\n"
    one_swapped = b"topic,top_words\n1,\"a,b,d,c,x\"\n2,\"f,g,h,i,j\"\n"
    two_swapped = b"topic,top_words\n1,\"a,b,c,x,y\"\n2,\"f,g,h,i,j\"\n"
    assert repro.compare_file("results/k/table6.csv", old, one_swapped, tol).status == "within tolerance"
    assert repro.compare_file("results/k/table6.csv", old, two_swapped, tol).status == "different"
    assert repro.compare_file("results/k/other.csv", old, one_swapped, tol).status == "different"  # no rule there
    from PIL import Image

    def png(block: int) -> bytes:
        a = np.zeros((100, 100, 3), dtype=np.uint8)
        a[:block, :block] = 255
        buf = io.BytesIO()
        Image.fromarray(a).save(buf, format="PNG")
        return buf.getvalue()

    three_pct = png(17)  # 289 of 10,000 pixels changed
    assert repro.compare_file("figures/k/gap_x.png", png(0), three_pct, tol).status == "within tolerance"
    assert repro.compare_file("figures/k/other.png", png(0), three_pct, tol).status == "different"
    assert repro.compare_file("figures/k/gap_x.png", png(0), png(30), tol).status == "different"


def test_list_and_png_rules_are_validated(tmp_path):
    base = {"files": "**", "why": "x"}
    for key, rule, message in (
            ("list_rules", {**base, "columns": ["c"], "separator": ",", "min_shared": 0}, "min_shared"),
            ("list_rules", {**base, "columns": ["c"], "separator": ","}, "needs exactly"),
            ("png_rules", {**base, "max_changed_share": 1.0}, "below 1"),
            ("png_rules", {"files": "**", "max_changed_share": 0.1}, "needs exactly")):
        path = tmp_path / "t.yaml"
        path.write_text(yaml.safe_dump({key: [rule]}), encoding="utf-8")
        with pytest.raises(ValueError, match=message):
            tolerances.load_tolerances(path)


def test_rule_with_each_rows_own_spread():
    rule = tolerances.Rule("**", ("bias",), 0.0, 0.0, "4 restart sd", 0, sd_column="bias_sd", sd_units=4.0)
    tol = tolerances.Tolerances(rules=(rule,))
    old = b"topic,bias,bias_sd\n1,0.5,0.1\n2,0.5,0.001\n"
    assert repro.compare_file("t.csv", old, b"topic,bias,bias_sd\n1,0.85,0.1\n2,0.5,0.001\n", tol).status \
        == "within tolerance"          # 0.35 <= 4 * 0.1
    assert repro.compare_file("t.csv", old, b"topic,bias,bias_sd\n1,0.5,0.1\n2,0.51,0.001\n", tol).status \
        == "different"                 # 0.01 > 4 * 0.001: a tight row stays tight
    missing = tolerances.Tolerances(rules=(tolerances.Rule("**", ("bias",), 0.0, 0.0, "x", 0, "nope", 1.0),))
    assert repro.compare_file("t.csv", old, b"topic,bias,bias_sd\n1,0.6,0.1\n2,0.5,0.001\n", missing).status \
        == "different"


def test_list_rule_pairs_rows_given_in_another_order():
    rule = tolerances.ListRule("**", ("words",), ",", 3, "topics", match_rows=True, row_labels=("topic",))
    tol = tolerances.Tolerances(list_rules=(rule,))
    old = b"topic,words,bias\n1,\"a,b,c,d,e\",0.5\n2,\"f,g,h,i,j\",-0.2\n"
    swapped = b"topic,words,bias\n1,\"f,g,h,i,x\",-0.2\n2,\"a,b,c,d,e\",0.5\n"
    assert repro.compare_file("t.csv", old, swapped, tol).status == "within tolerance"
    wrong_value = b"topic,words,bias\n1,\"f,g,h,i,x\",-0.2\n2,\"a,b,c,d,e\",0.9\n"
    assert repro.compare_file("t.csv", old, wrong_value, tol).status == "different"   # paired, then compared
    lost = b"topic,words,bias\n1,\"f,g,h,i,j\",-0.2\n2,\"a,b,x,y,z\",0.5\n"
    got = repro.compare_file("t.csv", old, lost, tol)
    assert got.status == "different" and "no current row" in got.detail


def test_paired_rows_an_unstable_row_may_be_replaced():
    rule = tolerances.ListRule("**", ("words",), ",", 3, "topics", match_rows=True, row_labels=("topic",),
                          unmatched_column="stability", unmatched_below=0.8)
    tol = tolerances.Tolerances(list_rules=(rule,))
    old = b"topic,words,stability\n1,\"a,b,c,d,e\",1.0\n2,\"f,g,h,i,j\",0.6\n"
    replaced = b"topic,words,stability\n1,\"a,b,c,d,e\",1.0\n2,\"p,q,r,s,t\",0.6\n"
    got = repro.compare_file("t.csv", old, replaced, tol)
    assert got.status == "within tolerance" and "unstable" in got.detail
    stable_lost = b"topic,words,stability\n1,\"a,b,x,y,z\",1.0\n2,\"f,g,h,i,j\",0.6\n"
    assert repro.compare_file("t.csv", old, stable_lost, tol).status == "different"


def test_a_float32_cell_allows_its_relative_tolerance_only(tol):
    """A repro-float32 cell (sums of a language model's float32 log-probabilities) may move by 1e-5 of a value, or by
    2e-4 (a difference of two sums: a pair's margin); beyond both it differs."""

    def with_record(value, tagged=True):
        nb = copy.deepcopy(NOTEBOOK)
        c = nb["cells"][2]
        c["metadata"] = {"tags": ["check", "repro-float32"] if tagged else ["check"]}
        c["outputs"][0]["data"] = {"application/vnd.wordbias.check+json": {"expected": value}}
        return nb

    for tagged, value, status in ((True, -43.1539306641, "within tolerance"), (True, -43.16, "different"),
                                  (False, -43.1539306641, "different")):
        old = _nb_bytes(with_record(-43.1539459229, tagged))
        got = compare_file("notebooks/nb.ipynb", old, _nb_bytes(with_record(value, tagged)), tol)
        assert got.status == status, (tagged, value, got.detail)
    # a margin of 0.78 (two sums near -40) moved by 3.5e-5 under torch's scalar kernels: within; by 3e-4: not
    for value, status in ((0.780982077122, "within tolerance"), (0.781246612358, "different")):
        old = _nb_bytes(with_record(0.780946612358))
        got = compare_file("notebooks/nb.ipynb", old, _nb_bytes(with_record(value)), tol)
        assert got.status == status, (value, got.detail)
