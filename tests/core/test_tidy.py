"""The tidy results schema: columns, dtypes, NA filling, checks, family adjustment, CSV round trip."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import false_discovery_control

import wordbias
from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.stats.multiple import adjust_family, holm


def _row(test="t1", **kw):
    base = {"embedding": "emb", "paper": "user", "battery": "user:mine", "test": test, "title": "T",
            "measure": "weat", "n_x": 8, "n_y": 8, "n_a": 7, "n_b": 8, "statistic_name": "s(X,Y,A,B)",
            "statistic": 0.123456789, "effect_size_name": "d", "effect_size": 1.23456789, "ci_low": 0.5,
            "ci_high": 1.7, "ci_level": 0.95, "ci_method": "BCa, 10,000 resamples of XYAB", "p_value": 1.234567e-7,
            "alternative": "greater", "p_method": "exact", "p_two_sided": 2.469134e-7, "dropped": "",
            "seed": 0, "n_permutations": 100_000, "n_resamples": 10_000}
    base.update(kw)
    return base


def test_columns_order_and_dtypes():
    assert len(tidy.COLUMNS) == 33 and len(set(tidy.COLUMNS)) == 33
    assert tidy.COLUMNS[:6] == ("embedding", "paper", "battery", "test", "title", "measure")
    assert tidy.COLUMNS[-2:] == ("wordbias_version", "note")
    t = tidy.tidy_frame([_row()])
    assert list(t.columns) == list(tidy.COLUMNS)
    assert {c: str(t[c].dtype) for c in t.columns} == tidy.DTYPES
    assert tidy.DTYPES["n_x"] == "Int64" and tidy.DTYPES["seed"] == "Int64"
    assert tidy.DTYPES["p_value"] == "float64" and tidy.DTYPES["dropped"] == "string"


def test_missing_keys_become_na_and_version_filled():
    t = tidy.tidy_frame([{"test": "a", "p_value": 0.5}])
    assert t.loc[0, "p_value"] == 0.5
    assert t.loc[0, "n_x"] is pd.NA and t.loc[0, "embedding"] is pd.NA and t.loc[0, "dropped"] is pd.NA
    assert np.isnan(t.loc[0, "effect_size"])
    assert t.loc[0, "wordbias_version"] == wordbias.__version__
    # a given version is kept; None and NaN are NA
    t = tidy.tidy_frame([{"test": "a", "wordbias_version": "9.9", "ci_low": None, "n_x": np.nan}])
    assert t.loc[0, "wordbias_version"] == "9.9" and np.isnan(t.loc[0, "ci_low"]) and t.loc[0, "n_x"] is pd.NA


def test_empty_rows_give_an_empty_typed_table():
    t = tidy.tidy_frame([])
    assert t.shape == (0, 33) and {c: str(t[c].dtype) for c in t.columns} == tidy.DTYPES


def test_unknown_keys_are_named():
    with pytest.raises(InvalidParameterError, match=r"tidy row 1 has keys that are not tidy columns: \['pvalue', 'd'\]"):
        tidy.tidy_frame([_row("a"), {"test": "b", "pvalue": 0.1, "d": 1.0}])


@pytest.mark.parametrize("rows, fragment", [
    ("abc", "iterable of mappings"),
    ({"test": "a"}, "iterable of mappings"),
    ([["test", "a"]], "tidy row 0 must be a mapping"),
    ([{"test": 3}], "tidy column 'test' \\(string\\): 3 \\(int\\) is not a string"),
    ([{"n_x": 2.5}], "tidy column 'n_x' \\(Int64\\): 2.5 is not an integer"),
    ([{"n_x": True}], "tidy column 'n_x'"),
    ([{"p_value": "0.1"}], "tidy column 'p_value' \\(float64\\): '0.1' is not a number"),
    ([{"p_value": 1.5}], "p_value' must hold p-values in \\[0, 1\\]"),
    ([{"measure": "wat"}], "tidy column 'measure' holds \\['wat'\\]"),
    ([{"paper": "mine"}], "tidy column 'paper' holds \\['mine'\\]"),
    ([{"alternative": "two_sided"}], "tidy column 'alternative' holds"),
    ([{"ci_low": 2.0, "ci_high": 1.0}], "ci_low > ci_high"),
    ([{"ci_level": 95}], "ci_level' must be in \\(0, 1\\)"),
    ([{"n_a": -1}], "'n_a' must be >= 0"),
    ([_row("a"), _row("a")], "several rows for the same embedding/battery/test/measure"),
])
def test_bad_rows_are_refused(rows, fragment):
    with pytest.raises(InvalidParameterError, match=fragment):
        tidy.tidy_frame(rows)


def test_check_tidy_names_columns_and_dtypes():
    t = tidy.tidy_frame([_row()])
    tidy.check_tidy(t)
    with pytest.raises(InvalidParameterError, match=r"columns missing: \['note'\]; unknown columns: \['x'\]"):
        tidy.check_tidy(t.drop(columns="note").assign(x=1))
    with pytest.raises(InvalidParameterError, match="out of order"):
        tidy.check_tidy(t[list(reversed(t.columns))])
    with pytest.raises(InvalidParameterError, match=r"wrong dtypes n_x: float64 \(expected Int64\)"):
        tidy.check_tidy(t.astype({"n_x": "float64"}))
    with pytest.raises(InvalidParameterError, match="pandas DataFrame"):
        tidy.check_tidy([_row()])


def test_same_test_in_two_embeddings_or_measures_is_fine():
    t = tidy.tidy_frame([_row("a"), _row("a", embedding="other"), _row("a", measure="sc_weat")])
    assert len(t) == 3


def test_adjust_family_matches_holm_and_scipy_bh():
    p = [0.01, 0.04, 0.03, 0.005]
    rows = [_row(f"t{i}", p_value=v) for i, v in enumerate(p)] + [_row("no_p", p_value=None)]
    out = adjust_family(tidy.tidy_frame(rows), "four tests")
    np.testing.assert_array_equal(out["p_holm"].to_numpy()[:4], holm(p))
    np.testing.assert_array_equal(out["p_bh"].to_numpy()[:4], false_discovery_control(p, method="bh"))
    # by hand: sorted 0.005, 0.01, 0.03, 0.04 -> Holm 4*.005=.02, 3*.01=.03, 2*.03=.06, max(.06, .04)=.06
    assert out["p_holm"].round(10).tolist()[:4] == [0.03, 0.06, 0.06, 0.02]
    assert out["p_family"].tolist() == ["four tests"] * 4 + [pd.NA]
    assert np.isnan(out.loc[4, "p_holm"]) and np.isnan(out.loc[4, "p_bh"])
    tidy.check_tidy(out)


def test_adjust_family_without_p_and_bad_family():
    t = tidy.tidy_frame([_row(p_value=None)])
    out = adjust_family(t, "none")
    assert out["p_family"].isna().all() and out["p_holm"].isna().all()
    with pytest.raises(InvalidParameterError, match="family must be a non-empty string"):
        adjust_family(tidy.tidy_frame([_row()]), "")


def test_dropped_text():
    assert tidy.dropped_text({"X": ["a", "b"], "Y": [], "A": ["c"]}) == "X: a b; A: c"
    assert tidy.dropped_text({"X": []}) == ""


def test_write_read_round_trip_at_six_digits(tmp_path):
    rows = [_row("a", note='a note, with "quotes" and a comma'), _row("b", dropped="X: é ü; A: w3", p_value=None,
                                                                     seed=None, title=None),
            _row("c", effect_size=-0.000123456789, statistic=123456789.0)]
    t = adjust_family(tidy.tidy_frame(rows), "fam")
    path = tidy.write_tidy(t, tmp_path / "sub" / "tidy.csv")
    back = tidy.read_tidy(path)
    assert {c: str(back[c].dtype) for c in back.columns} == tidy.DTYPES
    # floats come back as their %.6g text
    for c in ("statistic", "effect_size", "p_value", "p_holm", "ci_low"):
        expected = [float(f"{v:.6g}") if not np.isnan(v) else np.nan for v in t[c]]
        np.testing.assert_array_equal(back[c].to_numpy(), np.array(expected))
    assert back.loc[0, "effect_size"] == 1.23457 and back.loc[2, "statistic"] == 1.23457e8
    # text, NA and "" stay apart
    assert back.loc[0, "dropped"] == "" and back.loc[1, "dropped"] == "X: é ü; A: w3"
    assert back.loc[1, "title"] is pd.NA and back.loc[1, "seed"] is pd.NA
    assert back.loc[0, "note"] == 'a note, with "quotes" and a comma'
    pd.testing.assert_frame_equal(back.drop(columns=[c for c in tidy.COLUMNS if tidy.DTYPES[c] == "float64"]),
                                  t.drop(columns=[c for c in tidy.COLUMNS if tidy.DTYPES[c] == "float64"]))
    # bit-stable: writing what was read gives the same bytes
    again = tidy.write_tidy(back, tmp_path / "again.csv")
    assert again.read_bytes() == path.read_bytes()
    assert "NA" in path.read_text().splitlines()[2].split(",")


def test_full_precision_round_trip_is_exact(tmp_path):
    rng = np.random.default_rng(0)
    rows = [_row(f"t{i}", effect_size=float(v), statistic=float(v) * 1e-9) for i, v in enumerate(rng.normal(size=20))]
    t = tidy.tidy_frame(rows)
    back = tidy.read_tidy(tidy.write_tidy(t, tmp_path / "full.csv", float_format=None))
    pd.testing.assert_frame_equal(back, t, check_exact=True)


def test_write_leaves_no_temporary_file_and_refuses_bad_frames(tmp_path):
    t = tidy.tidy_frame([_row()])
    tidy.write_tidy(t, tmp_path / "tidy.csv")
    assert [p.name for p in tmp_path.iterdir()] == ["tidy.csv"]
    with pytest.raises(InvalidParameterError, match="columns missing"):
        tidy.write_tidy(t.drop(columns="seed"), tmp_path / "bad.csv")
    assert not (tmp_path / "bad.csv").exists()


def test_read_tidy_errors_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no tidy results file"):
        tidy.read_tidy(tmp_path / "nope.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("test,p_value\na,0.1\n")
    with pytest.raises(InvalidParameterError, match=r"bad.csv: columns are not the tidy columns \(missing: \['embedding'"):
        tidy.read_tidy(bad)
    good = tidy.write_tidy(tidy.tidy_frame([_row()]), tmp_path / "t.csv")
    text = good.read_text().replace(",8,8,7,8,", ",8,eight,7,8,")
    good.write_text(text)
    with pytest.raises(InvalidParameterError, match="t.csv: tidy column 'n_y'"):
        tidy.read_tidy(good)
