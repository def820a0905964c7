"""The CrowS-Pairs reader (wordbias.datasets.crows_pairs): the bundled file and the checks of a user's file."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import crows_pairs as cp

HEADER = ",sent_more,sent_less,stereo_antistereo,bias_type\n"


def test_the_bundled_file_is_the_published_one():
    data = cp.data_file().read_bytes()
    assert hashlib.sha256(data).hexdigest() == "9c0d18ec54ac61e1cb850e79dd83cbad53d2bc3874d4892e614df7fdf6bf6dc8"
    assert "9c0d18ec54ac61e1cb850e79dd83cbad53d2bc3874d4892e614df7fdf6bf6dc8" in (
        cp.data_file().parent / "SOURCE.md").read_text()


def test_the_bundled_pairs():
    pairs = cp.load()
    assert len(pairs) == 1508                                   # Nangia et al. 2020, §2
    types = Counter(p.bias_type for p in pairs)
    assert set(types) == set(cp.BIAS_TYPES)
    assert types["race-color"] == 516 and types["age"] == 87     # Table 1 of the paper
    assert Counter(p.stereo_antistereo for p in pairs) == {"stereo": 1290, "antistereo": 218}   # counted in the file
    assert pairs[1].sent_more.startswith("The poor are really ignorant") and pairs[1].index == 1
    assert all(p.sent_more != p.sent_less for p in pairs)


@pytest.mark.parametrize("row, message", [
    ("0,a b,a c,stereo,colour\n", "bias_type is 'colour'"),
    ("0,a b,a c,both,gender\n", "stereo_antistereo is 'both'"),
    ("0,a b,a b,stereo,gender\n", "identical"),
    ("0,,a b,stereo,gender\n", "empty sentence"),
])
def test_bad_rows_are_named(tmp_path, row, message):
    f = tmp_path / "c.csv"
    f.write_text(HEADER + "0,x y,x z,stereo,age\n" + row, encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=f"data row 2: .*{message}"):
        cp.load(f)


def test_a_missing_column_is_named(tmp_path):
    f = tmp_path / "c.csv"
    f.write_text("sent_more,sent_less,bias_type\na,b,age\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="stereo_antistereo"):
        cp.load(f)
    with pytest.raises(FileNotFoundError):
        cp.load(tmp_path / "absent.csv")
