"""The GAP data set (Kurita et al. 2019, Section 4): the checked loader on the real files and planted rows, the
spans of A, B and P and the label codes. The contextual features are tested with
:mod:`wordbias.papers.kurita2019_gap` (tests/papers/test_kurita2019_gap.py)."""

import hashlib
import re

import numpy as np
import pandas as pd
import pytest

from wordbias.core import paths
from wordbias.core.errors import GapFormatError
from wordbias.datasets import gap

# --------------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------------

HEADER = "\t".join(gap.COLUMNS)


def _row(id_="t-1", text="Alice met Bob before she left.", pronoun="she", a="Alice", b="Bob", a_coref="TRUE",
         b_coref="FALSE", p_off=None, a_off=None, b_off=None):
    p_off = text.index(f" {pronoun} ") + 1 if p_off is None else p_off
    a_off = text.index(a) if a_off is None else a_off
    b_off = text.index(b) if b_off is None else b_off
    return "\t".join(map(str, [id_, text, pronoun, p_off, a, a_off, a_coref, b, b_off, b_coref, "http://x"]))


def _write(tmp_path, *rows, name="mini.tsv"):
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def test_files_match_source_md():
    assert gap.DATA_DIR == paths.DATA / "gap"
    source = (gap.DATA_DIR / "SOURCE.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `(gap-[a-z]+\.tsv)` \| `([0-9a-f]{64})`", source, flags=re.M))
    assert sorted(listed) == sorted(f"gap-{s}.tsv" for s in gap.SPLITS)
    for file, sha in listed.items():
        assert hashlib.sha256((gap.DATA_DIR / file).read_bytes()).hexdigest() == sha, file
    assert "/work/shared" not in open(gap.__file__, encoding="utf-8").read()


@pytest.mark.parametrize("split, n, counts, n_female, neither_fm", [
    ("development", 2000, (874, 925, 201), 1000, (98, 103)),
    ("test", 2000, (918, 855, 227), 1000, (116, 111)),
    ("validation", 454, (187, 205, 62), 227, (23, 39)),
])
def test_load_counts(split, n, counts, n_female, neither_fm):
    df = gap.load(split)
    assert len(df) == n and df.attrs["split"] == split
    assert tuple(df["label"].value_counts().reindex(list(gap.LABELS))) == counts
    assert (df["gender"] == "female").sum() == n_female
    neither = df[df["label"] == "neither"]["gender"].value_counts()
    assert (neither["female"], neither["male"]) == neither_fm
    assert df["A-offset"].dtype == np.int64 and df["A-coref"].dtype == bool
    # the labels follow the coref columns and the gender the pronoun
    assert ((df["label"] == "A") == df["A-coref"]).all() and ((df["label"] == "B") == df["B-coref"]).all()
    assert set(df.loc[df["gender"] == "female", "Pronoun"].str.lower()) <= {"she", "her", "hers"}


def test_read_tsv_good_and_unknown_split(tmp_path):
    df = gap.read_tsv(_write(tmp_path, _row(), _row("t-2", "Max saw Tom and he ran.", "he", "Max", "Tom", "FALSE",
                                                     "FALSE")))
    assert df["label"].tolist() == ["A", "neither"] and df["gender"].tolist() == ["female", "male"]
    assert df.at[0, "Pronoun-offset"] == 21
    with pytest.raises(ValueError, match="unknown GAP split"):
        gap.load("train")


def test_corrupted_offset_names_the_row(tmp_path):
    path = _write(tmp_path, _row(), _row("t-2", a_off=1))
    with pytest.raises(GapFormatError, match=r"mini\.tsv, line 3: row t-2: Text\[A-offset=1"):
        gap.read_tsv(path)
    # the real file with one offset shifted by one character
    lines = (gap.DATA_DIR / "gap-development.tsv").read_text(encoding="utf-8").split("\n")
    fields = lines[10].split("\t")
    fields[5] = str(int(fields[5]) + 1)
    lines[10] = "\t".join(fields)
    bad = tmp_path / "gap-development.tsv"
    bad.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(GapFormatError, match=f"line 11: row {fields[0]}"):
        gap.read_tsv(bad)


@pytest.mark.parametrize("row, message", [
    (_row() + "\textra", r"mini\.tsv, line 3: 12 tab-separated fields, expected 11"),
    ("\t".join(_row().split("\t")[:-1]), r"mini\.tsv, line 3: 10 tab-separated fields"),
    (_row(p_off="22x"), r"mini\.tsv, line 3 \(ID t-1\): Pronoun-offset = '22x' is not a non-negative integer"),
    (_row(a_coref="yes"), r"line 3 \(ID t-1\): A-coref = 'yes', expected TRUE or FALSE"),
    (_row(b_coref="TRUE"), r"line 3: row t-1 has both A-coref and B-coref TRUE"),
    (_row(text="Alice met Bob before they left.", pronoun="they"), r"line 3: row t-1 has pronoun 'they'"),
])
def test_malformed_rows_name_file_and_line(tmp_path, row, message):
    with pytest.raises(GapFormatError, match=message):
        gap.read_tsv(_write(tmp_path, _row("t-0"), row))


def test_bad_header_and_duplicate_ids(tmp_path):
    path = tmp_path / "h.tsv"
    path.write_text(HEADER.replace("Pronoun-offset", "P-offset") + "\n" + _row() + "\n")
    with pytest.raises(GapFormatError, match=r"h\.tsv, line 1: header"):
        gap.read_tsv(path)
    with pytest.raises(GapFormatError, match="duplicate ID 't-1'"):
        gap.read_tsv(_write(tmp_path, _row(), _row()))


def test_spans_are_a_b_p_in_the_kernels_order():
    df = pd.DataFrame({"A": ["Alice"], "A-offset": [0], "B": ["Bob"], "B-offset": [10], "Pronoun": ["she"],
                       "Pronoun-offset": [21], "Text": ["Alice met Bob before she left."]})
    (row,) = gap.spans(df)
    assert [df.Text[0][s:e] for s, e in row] == ["Alice", "Bob", "she"]


def test_the_data_module_reads_data_only():
    """datasets.gap imports no model (the features are computed where the models are used)."""
    import ast

    tree = ast.parse(open(gap.__file__, encoding="utf-8").read())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not [m for m in imported if m.startswith("wordbias.models") or m.startswith("torch")]
    assert not hasattr(gap, "features")


def test_label_codes():
    assert gap.label_codes(["neither", "A", "B"]).tolist() == [2, 0, 1]
    with pytest.raises(ValueError, match="unknown label 'C'"):
        gap.label_codes(["A", "C"])
