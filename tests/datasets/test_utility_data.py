"""The utility benchmarks under data/utility/ (checksums of SOURCE.md) and their loader."""
from __future__ import annotations

import hashlib
import re

import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import utility


def test_checksums_match_source_md():
    text = (utility.DATA_DIR / "SOURCE.md").read_text(encoding="utf-8")
    for name in utility.FILES.values():
        want = re.search(rf"`{re.escape(name)}` \| `([0-9a-f]{{64}})`", text).group(1)
        assert hashlib.sha256((utility.DATA_DIR / name).read_bytes()).hexdigest() == want


def test_analogies():
    q = utility.analogy_questions()
    assert len(q) == 19544 and q["section"].nunique() == 14
    assert (q["kind"] == "semantic").sum() == 8869
    assert set(q.loc[q["kind"] == "semantic", "section"]) == set(utility.SEMANTIC_SECTIONS)
    q.loc[0, "a"] = "changed"
    assert utility.analogy_questions().loc[0, "a"] == "Athens"          # a fresh copy each call


def test_pairs():
    ws, sl = utility.word_pairs("wordsim353"), utility.word_pairs("simlex999")
    assert (len(ws), len(sl)) == (353, 999)
    assert ws["score"].between(0, 10).all() and sl["score"].between(0, 10).all()
    assert tuple(sl.iloc[0]) == ("old", "new", 1.58)
    with pytest.raises(InvalidParameterError):
        utility.word_pairs("men")
