"""core.tidy's spreadsheet rule: every CSV written for a user is safe to open in a spreadsheet (no text cell is run
as a formula: OWASP's "CSV Injection"), numbers and ordinary text are written as they were, and the tidy table
reads back exactly (the mark taken off again)."""
import csv
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordbias.core import paths, tidy
from wordbias.core.tidy import (
    FORMULA_START,
    TEXT_MARK,
    spreadsheet_safe,
    spreadsheet_safe_frame,
    spreadsheet_text,
    write_csv,
)

NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")
PAYLOADS = ["=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "@SUM(A1)", "-2+3", "=1+2", "\t=1+2", "\r=1+2",
            "  =1+2", "glove;=1+2", "glove\n@SUM(A1)", "x;\t-cmd", "-", "+", "=", "@", "-inf", "'=1+2", "''", "'"]
ORDINARY = ["WEAT1", "glove-6b-50d", "a/b", "$\\alpha$", "X 5/25; Y 24/25; A 8/8; B 8/8", "X: aster; A: w3",
            "not run: DegenerateSetError: set 'X' is empty", "user:toy", "BCa 95%, 20 resamples of XYAB", "",
            "s(X,Y,A,B)", "mean of 10 runs: sd 0.21 across runs, range -0.62 to 1.31", "-2", "+1.5e3", "-0.5",
            ".5", "0.1.0", "a 'quoted' word", "runs/seed-1"]


def _starts(cell: str) -> list[str]:
    """Where a spreadsheet may begin a cell in this field: its start, after ; tab or a new line (spaces skipped)."""
    return [part.lstrip(" ") for part in re.split(r"[;\t\r\n]", cell)]


def _safe(cell: str) -> bool:
    return cell[:1] not in ("\t", "\r") and all(
        s[:1] not in ("=", "+", "-", "@") or NUMBER.match(s) for s in _starts(cell))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_formula_is_marked_and_reads_back(payload):
    written = spreadsheet_safe(payload)
    assert written != payload and _safe(written)
    assert spreadsheet_text(written) == payload


@pytest.mark.parametrize("start", FORMULA_START)
def test_every_formula_start_of_owasp_is_marked(start):
    assert spreadsheet_safe(f"{start}cmd").startswith(TEXT_MARK)


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_and_numbers_are_written_as_they_are(text):
    assert spreadsheet_safe(text) == text and spreadsheet_text(text) == text


@pytest.mark.parametrize("value", [-1.5, 3, None, np.nan, pd.NA, True, np.float64(-2.0)])
def test_values_that_are_not_text_are_left_alone(value):
    assert spreadsheet_safe(value) is value


def test_the_missing_value_spelling_is_marked_only_when_the_file_uses_it():
    assert spreadsheet_safe("NA", na_rep="NA") == "'NA" and spreadsheet_safe("NA") == "NA"
    assert spreadsheet_safe("", na_rep="") == ""


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(alphabet=st.sampled_from(list("=+-@'\t\r\n; aZ0.1e/$\"")), max_size=12))
def test_any_text_is_made_safe_and_reads_back(text):
    written = spreadsheet_safe(text)
    assert _safe(written), repr(written)
    assert spreadsheet_text(written) == text


def test_a_frame_keeps_its_numbers_and_marks_its_text_its_column_names_and_index():
    frame = pd.DataFrame({"label": ["=1+2", "glove"], "=d": [-1.5, 0.5], "n": pd.array([-2, None], dtype="Int64"),
                          "mixed": ["@x", 3]}, index=pd.Index(["-cmd", "ok"], name="@row"))
    frame.attrs["x"] = 1
    safe = spreadsheet_safe_frame(frame, index=True)
    assert safe["label"].tolist() == ["'=1+2", "glove"] and safe.columns.tolist() == ["label", "'=d", "n", "mixed"]
    assert safe["'=d"].tolist() == [-1.5, 0.5] and safe["n"].dtype == "Int64" and safe["mixed"].tolist() == ["'@x", 3]
    assert safe.index.tolist() == ["'-cmd", "ok"] and safe.index.name == "'@row" and safe.attrs == {"x": 1}
    assert frame["label"].tolist() == ["=1+2", "glove"]          # the caller's frame is not changed
    cats = spreadsheet_safe_frame(pd.DataFrame({"c": pd.Categorical(["=a", "b", "=a"])}))
    assert cats["c"].tolist() == ["'=a", "b", "'=a"]


def test_write_csv_is_the_pandas_file_for_ordinary_tables(tmp_path):
    frame = pd.DataFrame({"embedding": ["glove", "a/b"], "d": [-1.234567891, 0.5], "n": [3, -4], "note": ["", None]})
    plain = tmp_path / "plain.csv"
    frame.to_csv(plain, index=False, float_format="%.6g")
    assert write_csv(frame, tmp_path / "safe.csv", float_format="%.6g").read_bytes() == plain.read_bytes()


def test_write_csv_cells_read_by_the_csv_module_are_safe(tmp_path):
    frame = pd.DataFrame({"label": PAYLOADS, "d": np.linspace(-1, 1, len(PAYLOADS))})
    path = write_csv(frame, tmp_path / "t.csv", float_format="%.6g")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert len(rows) == len(PAYLOADS) + 1                     # a carriage return in a label does not end a row
    assert all(_safe(c) for row in rows for c in row), [c for row in rows for c in row if not _safe(c)]
    assert [spreadsheet_text(r[0]) for r in rows[1:]] == PAYLOADS
    assert float(rows[1][1]) == -1.0                          # a negative number stays a number


def test_the_tidy_table_reads_back_every_label_as_given(tmp_path):
    labels = PAYLOADS + ORDINARY[:5] + ["NA"]
    frame = tidy.tidy_frame([{"embedding": lab, "test": f"t{i}", "title": lab, "measure": "weat",
                              "effect_size": -0.5, "note": lab} for i, lab in enumerate(labels)])
    path = tidy.write_tidy(frame, tmp_path / "tidy.csv")
    back = tidy.read_tidy(path)
    assert back.equals(frame)
    assert back.embedding.tolist() == labels and back.effect_size.tolist() == [-0.5] * len(labels)
    assert tidy.write_tidy(back, tmp_path / "again.csv").read_bytes() == path.read_bytes()


@pytest.mark.skipif(not paths.IN_CHECKOUT, reason="the committed results are in the checkout")
def test_the_committed_tidy_tables_regenerate_byte_for_byte(tmp_path):
    files = sorted(Path(paths.RESULTS).rglob("tidy*.csv"))
    assert files
    for f in files:
        again = tidy.write_tidy(tidy.read_tidy(f), tmp_path / "tidy.csv")
        assert again.read_bytes() == f.read_bytes(), f


def test_ensemble_run_rows_come_from_the_table_not_from_a_slash():
    t = tidy.tidy_frame([{"embedding": "a/b", "test": "T"}, {"embedding": "e/seed-1", "test": "T"},
                         {"embedding": "e", "test": "T"}, {"test": "T"}])
    assert not tidy.ensemble_run_rows(t).any()
    t.attrs[tidy.ENSEMBLE_RUNS] = {"e/seed-1": "seed-1"}
    assert tidy.ensemble_run_rows(t).tolist() == [False, True, False, False]
    assert tidy.ensemble_run_rows(t.iloc[[0, 1, 3]]).tolist() == [False, True, False]     # attrs travel
