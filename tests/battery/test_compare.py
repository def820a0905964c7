"""battery.compare: several embeddings in one tidy table, and the test x embedding heat map."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wordbias import embeddings
from wordbias.battery import compare
from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.embeddings import to_keyed_vectors


@pytest.fixture(scope="module")
def two():
    """Two small embeddings: the 6,000 most frequent words of GloVe 6B 50d, and the same vectors rotated
    and scaled (cosines, hence every effect size, unchanged) with one WEAT word removed."""
    kv = embeddings.load("glove-6b-50d", progress=False)
    words = kv.index_to_key[:6_000]
    vecs = np.asarray(kv[words], dtype=np.float64)
    q, _ = np.linalg.qr(np.random.default_rng(0).normal(size=(50, 50)))
    rotated = {w: 2.0 * v for w, v in zip(words, vecs @ q) if w != "love"}
    return {"glove6k": to_keyed_vectors(words, vecs.astype(np.float32)), "rotated": rotated}


@pytest.fixture(scope="module")
def table(two):
    return compare.compare(two, n_permutations=2_000, n_resamples=300, ube=False, progress=False)


def test_compare_stacks_the_reports(table):
    tidy.check_tidy(table)
    assert table.embedding.unique().tolist() == ["glove6k", "rotated"]
    a, b = (table[table.embedding == e].reset_index(drop=True) for e in ("glove6k", "rotated"))
    assert a.test.tolist() == b.test.tolist() and len(a) == 32
    # each embedding's adjusted p are over its own report, named
    assert a.p_family.dropna().str.contains("glove6k").all() and b.p_family.dropna().str.contains("rotated").all()
    assert set(table.attrs["timings"]) == {"glove6k", "rotated"}


def test_compare_rotation_changes_only_what_lost_a_word(table):
    a, b = (table[table.embedding == e].set_index("test") for e in ("glove6k", "rotated"))
    lost = [t for t in b.index if pd.notna(b.dropped[t]) and "love" in b.dropped[t].split()]
    assert lost and all("love" not in str(a.dropped[t]).split() for t in lost)     # reported where dropped
    same = [t for t in a.index if t not in lost and pd.notna(a.effect_size[t]) and t != "RIPA:definitional_pairs"]
    assert len(same) >= 5
    np.testing.assert_allclose(a.loc[same, "effect_size"], b.loc[same, "effect_size"], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(a.loc[same, "p_value"], b.loc[same, "p_value"], rtol=1e-3)
    # RIPA is an inner product with the raw vectors (Ethayarajh et al.): twice the vectors, twice the score
    ripa = "RIPA:definitional_pairs"
    assert b.effect_size[ripa] == pytest.approx(2 * a.effect_size[ripa], rel=1e-4)


def test_compare_refuses_duplicate_labels():
    kv = to_keyed_vectors(["a", "b"], np.eye(2, dtype=np.float32))
    with pytest.raises(InvalidParameterError, match=r"unique; \['x'\]"):
        compare.compare([("x", kv), ("y", kv), ("x", kv)])
    with pytest.raises(InvalidParameterError, match="unique"):
        compare.compare({Path("x"): kv, "x": kv})                  # a path and a string naming the same label
    with pytest.raises(InvalidParameterError, match="empty"):
        compare.compare({})
    with pytest.raises(InvalidParameterError, match="non-empty strings"):
        compare.compare({"": kv})
    with pytest.raises(InvalidParameterError, match="do not pass label"):
        compare.compare({"x": kv}, label="y")
    with pytest.raises(InvalidParameterError, match="pairs"):
        compare.compare(["glove-6b-50d"])


def test_heatmap_cells(table, tmp_path):
    fig = compare.heatmap(table)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    row = table[(table.embedding == "glove6k") & (table.test == "WEAT2")].iloc[0]
    mark = f" {compare.LOW_COVERAGE_MARK}" if row.low_coverage else ""       # 6,000 words: some sets keep few
    assert f"{row.effect_size:.2f}{mark}\n[{row.ci_low:.2f}, {row.ci_high:.2f}]" in texts
    assert [t.get_text() for t in ax.get_xticklabels()] == ["glove6k", "rotated"]
    assert any(t.get_text().startswith("WEAT1 (d)") for t in ax.get_yticklabels())
    fig.savefig(tmp_path / "heatmap.png")
    assert (tmp_path / "heatmap.png").stat().st_size > 10_000


def test_heatmap_marks_tests_not_run():
    rows = [{"embedding": e, "battery": "b", "test": "T1", "measure": "weat", "effect_size_name": "d",
             "effect_size": 1.0, "ci_low": 0.5, "ci_high": 1.5} for e in ("a", "b")]
    rows.append({"embedding": "a", "battery": "b", "test": "T2", "measure": "weat", "effect_size_name": "d",
                 "note": "not run: DegenerateSetError: set X has 1 word"})
    fig = compare.heatmap(tidy.tidy_frame(rows))
    texts = [t.get_text() for a in fig.axes for t in a.texts] + [t.get_text() for t in fig.texts]
    assert "not run" in texts
    assert any("a / T2: not run: DegenerateSetError" in t for t in texts)      # the reason, under the map


def test_cell_text():
    text = compare.cell_text(pd.Series({"effect_size": -0.456, "ci_low": -0.9, "ci_high": 0.1}))
    assert text == "-0.46\n[-0.90, 0.10]"
    assert compare.cell_text(pd.Series({"effect_size": 0.5, "ci_low": np.nan, "ci_high": np.nan})) == "0.50"
    assert compare.cell_text(pd.Series({"effect_size": np.nan, "statistic": 77.0,
                                        "statistic_name": "significant cells"})) == "significant cells: 77"
