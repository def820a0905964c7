"""The direction tests as tidy rows (wordbias.battery.direction): views of measurements, the same numbers as the
racial bias report's Table 1, each test measured once; the direct bias and RIPA rows; the layer order (no paper
module)."""
import ast
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from wordbias.battery import direction as bdir
from wordbias.core import tidy
from wordbias.core.errors import InvalidParameterError, LowCoverageWarning, WordbiasWarning
from wordbias.datasets import stimuli
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.debiasing import debias
from wordbias.measures.directions import direction_permutation as dp


@pytest.fixture(scope="module")
def toy():
    """Random 8-d vectors for every (lower-cased) word of the report's sets and the debiaswe lists, minus two."""
    words = set()
    for s in stimuli.direction_tests(cased=False):
        words |= {w for k in ("T1", "T2", "A1", "A2") for w in getattr(s, k)}
    lists = debias.word_lists(cased=False)
    words |= set(lists.professions) | {w for p in lists.definitional_pairs for w in p}
    words = sorted(words - {"lazy", "rivka"})
    return to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 8)).astype(np.float32))


def test_the_tidy_rows_are_views_of_the_measurements_and_agree_with_table1(toy, monkeypatch):
    from wordbias.papers import racial_bias_report as report

    calls = []
    real = dp._null_cosines
    monkeypatch.setattr(dp, "_null_cosines", lambda *a, **k: calls.append(1) or real(*a, **k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        result = report.table1({"toy": toy}, n_permutations=300, seed=4, n_resamples=200)
        frame = bdir.direction_frame(result.measurements["toy"], label="toy")
    assert len(calls) == 3                                    # Table 1 and the tidy rows: one draw per test
    tidy.check_tidy(frame)
    t1 = result.table.set_index("attributes")
    assert frame.test.tolist() == list(report.KINDS)
    f = frame.set_index("test")
    for col, ref in (("effect_size", "bias"), ("ci_low", "bias_ci_low"), ("ci_high", "bias_ci_high"),
                     ("p_value", "p"), ("p_two_sided", "p_two_sided"), ("n_a", "n_A1"), ("n_b", "n_A2")):
        np.testing.assert_array_equal(f[col].to_numpy(dtype=float), t1[ref].to_numpy(dtype=float), err_msg=col)
    # the words dropped, the coverage, the note with Appendix A's interval on p
    assert f.loc["implicit", "dropped"] == "T2: lazy; A1: rivka" and f.loc["implicit", "n_y"] == 11
    assert f.loc["implicit", "coverage"] == "T1 12/12; T2 11/12; A1 36/37; A2 37/37"
    assert f"[{t1.p_ci_low['explicit']:.4f}, {t1.p_ci_high['explicit']:.4f}]" in f.loc["explicit", "note"]
    # the family of one embedding's three tests (Table 1 adjusts over its own rows: here the same three)
    np.testing.assert_allclose(f.p_holm.to_numpy(dtype=float), t1.p_holm.to_numpy())
    assert f.p_family.iloc[0] == "racial_bias_report on toy: the 3 direction tests with a p-value (one-sided p)"
    # the titles say what each test measures, and tell the three apart
    assert f.title.str.startswith("race: ").all() and f.title.nunique() == 3
    # direction_battery measures the same (same seed) and shows it the same way
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        battery = bdir.direction_battery(toy, label="toy", seed=4, n_permutations=300, n_resamples=200)
    pd.testing.assert_frame_equal(battery, frame)


def _without(toy, gone):
    words = [w for w in toy.index_to_key if w not in gone]
    return to_keyed_vectors(words, np.stack([toy[w] for w in words]))


def test_a_test_not_run_and_low_coverage_are_rows_with_reasons(toy):
    kv = _without(toy, {"white", "caucasian", "european", "light"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", LowCoverageWarning)        # a test not run is flagged, not warned about
        frame = bdir.direction_frame(bdir.measure_directions(kv, n_permutations=100, n_resamples=100), label="k")
    row = frame.set_index("test").loc["explicit"]
    assert row.note.startswith("not run: DegenerateSetError") and pd.isna(row.effect_size) and row.low_coverage
    assert row.dropped == "T2: lazy; A1: white caucasian european light" and row.coverage.startswith("T1 12/12")
    assert frame.set_index("test").p_value.notna().tolist() == [True, False, True]
    kv = _without(toy, {"white", "caucasian", "european"})       # one word of four left: run, and flagged
    with pytest.warns(LowCoverageWarning, match="A1 1/4"):
        frame = bdir.direction_frame(bdir.measure_directions(kv, n_permutations=100, n_resamples=100), label="k")
    row = frame.set_index("test").loc["explicit"]
    assert row.low_coverage and row.note.startswith("low coverage: A1 1/4") and pd.notna(row.p_value)
    assert "resamples of T1, T2, A2" in row.ci_method                 # the set of one word is held fixed


def test_direction_battery_checks_its_arguments(toy):
    with pytest.raises(InvalidParameterError, match="label"):
        bdir.direction_battery(toy, label="")
    with pytest.raises(InvalidParameterError, match="n_resamples"):
        bdir.direction_battery(toy, label="t", n_resamples=1)


def test_direct_bias_and_ripa_rows(toy):
    cov = dict(min_words=4, min_fraction=0.5)
    base = dict(embedding="toy", seed=0, n_resamples=200)
    db = bdir.direct_bias_row(toy, base=base, seed=0, n_resamples=200, cov=cov)
    ripa = bdir.ripa_row(toy, base=base, seed=0, n_resamples=200, cov=cov)
    assert db["measure"] == "direct_bias" and 0 < db["effect_size"] < 1 and db["ci_low"] <= db["effect_size"]
    assert ripa["measure"] == "ripa" and ripa["paper"] == "ethayarajh2019" and 0 < ripa["p_value"] <= 1
    assert db["coverage"] == ripa["coverage"] and not db["low_coverage"]
    # a definitional pair fills both attribute columns; a measure without a test has no alternative
    assert db["n_a"] == db["n_b"] == ripa["n_a"] == ripa["n_b"] == 10 and db["n_x"] == ripa["n_x"]
    assert db.get("alternative") is None and ripa["alternative"] == "two-sided" and ripa["p_two_sided"] == ripa["p_value"]
    none = to_keyed_vectors(["a", "b"], np.eye(2, dtype=np.float32))
    gone = bdir.direct_bias_row(none, base=base, seed=0, n_resamples=200, cov=cov)
    assert gone["note"].startswith("not run: ") and gone["low_coverage"] and gone["dropped"].startswith("N: ")
    assert gone["coverage"].endswith("; pairs 0/10") and gone.get("alternative") is None


def test_report_words_hold_the_report_sets(toy):
    words = bdir.report_words(toy)
    for s in stimuli.direction_tests(cased=False):
        assert set(s.A1) | set(s.A2) | set(s.T1) | set(s.T2) <= words


def test_the_direction_rows_do_not_import_a_paper_module():
    tree = ast.parse(Path(bdir.__file__).read_text(encoding="utf-8"))
    mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    mods |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert "wordbias.battery.weat" in mods and not {m for m in mods if m.startswith("wordbias.papers")}
