"""papers.caliskan2017: Table 1 with intervals, two-sided and adjusted p; WEFAT intervals; the trust section."""

import warnings

import numpy as np
import pandas as pd
import pytest

from wordbias import embeddings
from wordbias.core.errors import WordbiasWarning
from wordbias.datasets import stimuli
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import bootstrap, weat
from wordbias.measures.diagnostics import frequency, sensitivity
from wordbias.options import Resampling
from wordbias.papers import caliskan2017
from wordbias.stats import multiple


@pytest.fixture(scope="module")
def kv():
    return embeddings.load("glove-840b-caliskan", progress=False)


@pytest.fixture(scope="module")
def specs():
    return stimuli.weat_tests("caliskan2017", variant="glove")


@pytest.fixture(scope="module")
def results(kv, specs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        return caliskan2017.measure_table1(kv, specs, n_permutations=10_000, n_resamples=2_000, seed=0)


@pytest.fixture(scope="module")
def table(results, specs):
    return caliskan2017.table1(results, specs)


def test_table1_and_the_tidy_rows_are_views_that_never_recompute(results, specs, table, monkeypatch):
    """Each test is measured once; Table 1 and the tidy table only read the results."""
    from wordbias.battery.weat import weat_rows
    from wordbias.measures.association import wefat

    def measured_again(*args, **kwargs):
        raise AssertionError("a view ran a measure again")

    for module, name in ((weat, "weat"), (weat, "p_value"), (bootstrap, "weat_bootstrap"), (wefat, "wefat")):
        monkeypatch.setattr(module, name, measured_again)
    again = caliskan2017.table1(results, specs)
    pd.testing.assert_frame_equal(again, table)
    tidy = weat_rows(results, label="glove-840b-caliskan", battery="caliskan2017:glove", paper="caliskan2017",
                     specs=specs)
    assert tidy.effect_size.tolist() == table.effect_size.tolist()
    assert tidy.ci_low.tolist() == table.effect_size_ci_low.tolist() and tidy.p_holm.tolist() == table.p_holm.tolist()
    assert tidy.note[0].startswith("paper: d = 1.50")


def test_table1_replicates_the_paper(table):
    # the replication target on the authors' vectors: |d - paper d| <= 0.005 for every test
    assert (table.effect_size - table.paper_effect_size).abs().max() <= 0.005


def test_interval_is_the_bootstrap_of_the_tests_words(kv, specs, table):
    row = table.iloc[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        res = weat.weat(kv, specs[0].X, specs[0].Y, specs[0].A, specs[0].B,
                        resampling=Resampling(seed=0, n_permutations=100_000), p_method="normal")
    direct = bootstrap.weat_bootstrap(kv, res, resampling=Resampling(n_resamples=2_000, seed=0)).effect_size
    assert (row.effect_size_ci_low, row.effect_size_ci_high) == (direct.low, direct.high)
    assert (table.effect_size_ci_low < table.effect_size).all() and (table.effect_size < table.effect_size_ci_high).all()
    assert table.effect_size_ci.str.startswith("BCa 95%, 2,000 resamples of XYAB").all()


def test_two_sided_p_doubles_the_smaller_tail(kv, specs, table):
    for spec, (_, row) in zip(specs, table.iterrows()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", WordbiasWarning)
            res = weat.weat(kv, spec.X, spec.Y, spec.A, spec.B, resampling=Resampling(seed=0, n_permutations=100_000),
                            p_method="exact")
        less = weat.p_value(res.s_x, res.s_y, p_method="exact", alternative="less").p_value
        assert row.p_method == "exact" and row.alternative == "greater"
        assert row.p_two_sided == pytest.approx(min(1.0, 2 * min(row.p_value, less)), rel=1e-12)


def test_adjusted_p_over_the_named_family(table):
    np.testing.assert_array_equal(table.p_holm, multiple.holm(table.p_value.to_numpy()))
    np.testing.assert_array_equal(table.p_bh, multiple.benjamini_hochberg(table.p_value.to_numpy()))
    assert (table.p_family == "the 10 WEATs with a p-value (one-sided p)").all()
    shown = caliskan2017.show_table1(table)
    assert list(shown.columns) == ["Compares", "Words (target/attribute set)", "d (paper)", "d (ours)",
                                   "95% interval of d", "p (one-sided)", "p (paper)"]
    assert shown.loc["WEAT7", "95% interval of d"].startswith("[-")     # WEAT 7's interval includes 0
    adjusted = caliskan2017.show_adjusted_p(table)
    assert list(adjusted.columns) == ["p (one-sided)", "p (two-sided)", "p Holm", "p Benjamini-Hochberg", "computed"]
    assert adjusted.loc["WEAT1", "p Holm"] == f"{table.p_holm[0]:.1e}"


def test_student_tables_are_narrow_and_every_p_fits_one_line(kv, table):
    """Readable tables: at most 7 columns, plain names, full test names, no p that wraps ("1.45e-" / "09")."""
    summary, _ = caliskan2017.wefat_table(kv, stimuli.wefat_tests("caliskan2017"), n_resamples=200)
    shown = {"table 1": caliskan2017.show_table1(table), "adjusted p": caliskan2017.show_adjusted_p(table),
             "p three ways": caliskan2017.show_p_values(caliskan2017.p_value_table(table)),
             "wefat": caliskan2017.show_wefat(summary)}
    for name, frame in shown.items():
        assert frame.shape[1] <= 7, name
        assert not [c for c in frame.columns if "_" in c], name                  # no jargon like p_value_exact
        for column in frame.columns:
            if column.startswith("p ") or column in ("exact", "Monte Carlo", "normal approx."):
                assert frame[column].map(len).max() <= 8, (name, column)
    t1 = shown["table 1"]
    assert t1.Compares.tolist() == table.title.tolist()                       # the full names, never cut
    assert t1.loc["WEAT1", "d (ours)"] == f"{table.effect_size[0]:.2f}"
    assert t1.loc["WEAT7", "p (one-sided)"] == f"{table.p_value[6]:.3g}"        # 0.0157, not 1.57e-02
    # the p table's "yes/no" is computed: the paper's .018 for WEAT 7 is not a power of ten
    assert shown["p three ways"]["paper = rounded normal?"].tolist().count("no") >= 1
    assert "missing words" not in shown["wefat"]                              # only when some words are missing


def test_bad_resample_options_are_refused_before_work(kv, specs):
    with pytest.raises(ValueError, match="n_resamples"):
        caliskan2017.weat_table(kv, specs[:1], n_resamples=1)
    with pytest.raises(ValueError, match="confidence_level"):
        caliskan2017.wefat_table(kv, stimuli.wefat_tests("caliskan2017"), confidence_level=1.5)


def test_wefat_interval_contains_r(kv):
    summary, _ = caliskan2017.wefat_table(kv, stimuli.wefat_tests("caliskan2017"), n_resamples=2_000)
    assert (summary.pearson_r_ci_low < summary.pearson_r).all()
    assert (summary.pearson_r < summary.pearson_r_ci_high).all()
    assert (summary.pearson_r_ci_high <= 1).all()


def test_word_sensitivity_uses_the_tables_words(kv, results, table):
    inf, curve = sensitivity.weat_sensitivity(kv, results[8], seed=0, n_draws=200)
    assert inf.d == pytest.approx(table.set_index("test").loc["WEAT9", "effect_size"], abs=1e-12)
    assert curve.n_draws == 200 and curve.d == inf.d


def test_frequency_proxy_for_the_alphabetical_subset(kv, results, table):
    counts, source = caliskan2017.frequency_counts(kv)
    assert source.startswith("proxy: the frequency order of glove-6b-50d")
    ref = embeddings.load("glove-6b-50d", progress=False)
    assert counts["Adam"] == pytest.approx(1.0 / (ref.key_to_index["adam"] + 1))
    with pytest.warns(WordbiasWarning, match="without a vector or a frequency rank"):
        freq = caliskan2017.frequency_table(kv, results, counts=counts, source=source)
    assert freq.loc[0, "no_rank"] == "gladiola"          # in the 840B subset, not in GloVe 6B
    assert (freq.rank_source == source).all()
    notes = caliskan2017.trust_notes(table, freq, *sensitivity.weat_sensitivity(kv, results[8], n_draws=200), "WEAT9")
    n_zero = int((table.effect_size_ci_low <= 0).sum())
    assert f"{n_zero} of 10 include 0" in notes
    assert f"{int(freq.frequency_flag.sum())} of 10 tests have target sets that differ in frequency" in notes


def test_frequency_counts_keeps_a_frequency_ordered_embedding():
    kv = to_keyed_vectors(["the", "of", "zebra", "apple"], np.eye(4, dtype=np.float32))
    assert caliskan2017.frequency_counts(kv) == (None, frequency.EMBEDDING_ORDER)
