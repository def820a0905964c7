"""battery.report and battery.weat: the WEAT battery and the whole report as tidy tables."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from wordbias import embeddings
from wordbias.battery import report as battery_report
from wordbias.battery import ube as battery_ube
from wordbias.battery import weat as battery_weat
from wordbias.core import tidy
from wordbias.core.errors import DegenerateSetError, InvalidParameterError, LowCoverageWarning, WordbiasWarning
from wordbias.datasets import stimuli
from wordbias.embeddings import to_keyed_vectors
from wordbias.options import Resampling, Words
from wordbias.stats import multiple

SUBSET = 20_000     # the 20,000 most frequent words of GloVe 6B 50d: a "user's small embedding"


@pytest.fixture(scope="module")
def small():
    kv = embeddings.load("glove-6b-50d", progress=False)
    words = kv.index_to_key[:SUBSET]
    return to_keyed_vectors(words, np.asarray(kv[words]))


@pytest.fixture(scope="module")
def table(small):
    return battery_report.report(small, label="glove20k", n_permutations=10_000, n_resamples=2_000, progress=False)


def _toy():
    """Six words in 2-D; X leans to A (the first coordinate), Y to B."""
    words = ["rose", "tulip", "lily", "ant", "wasp", "moth", "love", "peace", "hate", "war"]
    vecs = np.array([[1.0, 0.1], [0.9, 0.3], [0.8, 0.2], [0.1, 1.0], [0.2, 0.8], [0.3, 0.9],
                     [1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]], dtype=np.float32)
    return to_keyed_vectors(words, vecs)


SPEC = {"id": "flowers", "title": "flowers vs insects", "X": ["rose", "tulip", "lily"], "Y": ["ant", "wasp", "moth"],
        "A": ["love", "peace"], "B": ["hate", "war"]}


def _cos(u, v):
    return u @ v / np.linalg.norm(u) / np.linalg.norm(v)


def test_weat_battery_matches_a_hand_computed_weat():
    kv = _toy()
    t = battery_weat.weat_battery(kv, [SPEC], label="toy", battery="user:toy", paper="user",
                                  resampling=Resampling(n_resamples=500, n_permutations=100_000))
    s = {w: np.mean([_cos(kv[w], kv[a]) for a in SPEC["A"]]) - np.mean([_cos(kv[w], kv[b]) for b in SPEC["B"]])
         for w in SPEC["X"] + SPEC["Y"]}
    sx, sy = [s[w] for w in SPEC["X"]], [s[w] for w in SPEC["Y"]]
    d = (np.mean(sx) - np.mean(sy)) / np.std(sx + sy, ddof=1)
    row = t.iloc[0]
    assert row.effect_size == pytest.approx(d, rel=1e-5)
    assert row.statistic == pytest.approx(sum(sx) - sum(sy), rel=1e-5)
    # X is the most associated half of 6 words: 1 of the C(6, 3) = 20 partitions is as extreme
    assert row.p_value == pytest.approx(1 / 20) and row.p_method == "exact" and row.alternative == "greater"
    assert row.p_two_sided == pytest.approx(2 / 20)
    assert (row.n_x, row.n_y, row.n_a, row.n_b) == (3, 3, 2, 2)
    assert row.ci_low <= row.effect_size <= row.ci_high and row.ci_level == 0.95
    assert row.dropped == "" and row.battery == "user:toy" and row.paper == "user"


def test_weat_battery_reports_dropped_words_and_small_lists():
    kv = _toy()
    too_small = {**SPEC, "id": "tiny", "X": ["rose", "orchid"], "Y": ["ant", "beetle"]}   # 1 target word left
    dropped = {**SPEC, "id": "dropped", "X": ["rose", "tulip", "lily", "daisy"]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # nothing escapes as a warning: it is all in the table...
        warnings.simplefilter("ignore", LowCoverageWarning)   # ...but a test on too few words (3 a side) warns
        t = battery_weat.weat_battery(kv, [SPEC, too_small, dropped], label="toy", battery="user:toy", paper="user",
                                      resampling=Resampling(n_resamples=200, n_permutations=100_000))
    tiny = t.set_index("test").loc["tiny"]
    assert pd.isna(tiny.effect_size) and pd.isna(tiny.p_value) and pd.isna(tiny.p_holm)
    assert tiny.note.startswith("not run: DegenerateSetError") and "X" in tiny.note
    assert t.set_index("test").loc["dropped", "dropped"] == "X: daisy"
    # the family is the two tests that ran
    assert t.p_family.notna().sum() == 2 and "2 WEATs" in t.p_family.dropna().iloc[0]


def test_weat_battery_one_word_sets_keep_d_and_p_without_interval():
    kv = _toy()
    one = {**SPEC, "id": "one", "A": ["love"], "B": ["hate"]}
    row = battery_weat.weat_battery(kv, [one], label="toy", battery="user:toy", paper="user",
                                    resampling=Resampling(n_resamples=200, n_permutations=100_000)).iloc[0]
    assert np.isfinite(row.effect_size) and np.isfinite(row.p_value)
    assert pd.isna(row.ci_low) and row.note.startswith("no bootstrap interval")


def test_weat_battery_case_fold_is_automatic():
    kv = _toy()                                      # uncased: upper-case stimuli are folded
    upper = {k: ([w.upper() for w in v] if k in "XYAB" else v) for k, v in SPEC.items()}
    t = battery_weat.weat_battery(kv, [upper], label="toy", battery="b", paper="user",
                                  resampling=Resampling(n_resamples=200, n_permutations=100_000))
    assert t.loc[0, "n_x"] == 3 and t.loc[0, "dropped"] == ""
    t = battery_weat.weat_battery(kv, [upper], label="toy", battery="b", paper="user",
                                  resampling=Resampling(n_resamples=200, n_permutations=100_000),
                                  words=Words(case_fold=False))
    assert t.loc[0, "note"].startswith("not run")


def test_weat_battery_checks_its_arguments():
    kv = _toy()
    with pytest.raises(InvalidParameterError, match="paper must be one of"):
        battery_weat.weat_battery(kv, [SPEC], label="toy", battery="b", paper="mine")
    with pytest.raises(InvalidParameterError, match="non-empty list of WEAT specs"):
        battery_weat.weat_battery(kv, SPEC, label="toy", battery="b", paper="user")
    with pytest.raises(InvalidParameterError, match="lacks"):
        battery_weat.weat_battery(kv, [{"id": "x", "X": ["rose"]}], label="toy", battery="b", paper="user")
    with pytest.raises(InvalidParameterError, match="label"):
        battery_weat.weat_battery(kv, [SPEC], label="", battery="b", paper="user")


def test_weat_battery_is_caliskan_weat_table(small):
    specs = stimuli.weat_tests("caliskan2017", "glove")[:3]
    from wordbias.papers import caliskan2017
    t = battery_weat.weat_battery(small, specs, label="g", battery="caliskan2017", paper="caliskan2017",
                                  resampling=Resampling(n_permutations=10_000, n_resamples=500))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        ref = caliskan2017.weat_table(small, specs, case_fold=True, n_permutations=10_000, n_resamples=500)
    np.testing.assert_allclose(t.effect_size, ref.effect_size)
    np.testing.assert_allclose(t.ci_low, ref.effect_size_ci_low)
    np.testing.assert_allclose(t.p_value, ref.p_value)
    np.testing.assert_allclose(t.p_holm, ref.p_holm)          # the same family: the battery's tests


def test_report_is_tidy(table):
    assert list(table.columns) == list(tidy.COLUMNS)
    assert {c: str(table[c].dtype) for c in table.columns} == tidy.DTYPES
    tidy.check_tidy(table)
    assert table.test.tolist() == ([f"WEAT{i}" for i in range(1, 11)] + ["WEFAT1", "WEFAT2", "implicit", "explicit",
                                   "stereotypical", "direct_bias", "RIPA:definitional_pairs"]
                                  + [f"{m}:{t}" for t in ("WEAT6", "WEAT7", "WEAT8") for m in ("ECT", "RND", "MAC",
                                                                                                "SemAxis")]
                                  + ["RNSB:WEAT3", "indirect:softball", "indirect:football", "UBE:first_names"])
    assert set(table.measure) == {"weat", "wefat", "direction", "direct_bias", "ripa", "ube", "ect", "rnd", "mac",
                                  "semaxis", "rnsb", "indirect_bias"}
    assert (table.embedding == "glove20k").all() and (table.seed == 0).all()
    assert table.dropped.notna().all()
    assert set(table.attrs["timings"]) == {"WEAT", "WEFAT", "direction", "direct bias", "RIPA", "metrics", "UBE",
                                           "total"}


def test_report_intervals_contain_the_estimates(table):
    ci = table[table.ci_low.notna()]
    assert len(ci) >= 15
    assert ((ci.ci_low <= ci.effect_size) & (ci.effect_size <= ci.ci_high)).all()
    assert (ci.ci_level == 0.95).all() and ci.ci_method.notna().all()


def test_report_adjusted_p_over_the_whole_report(table):
    has_p = table[table.p_value.notna()]
    p = has_p.p_value.to_numpy()
    adj = multiple.adjust(p, list(has_p.test), family="x")
    np.testing.assert_allclose(has_p.p_holm, adj.p_holm)
    np.testing.assert_allclose(has_p.p_bh, adj.p_bh)
    np.testing.assert_allclose(has_p.p_bh, stats.false_discovery_control(p))      # an independent reference
    m, order = len(p), np.argsort(p)                                              # Holm by hand
    holm = np.minimum(1, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    np.testing.assert_allclose(has_p.p_holm.to_numpy()[order], holm)
    assert has_p.p_family.nunique() == 1 and f"the {m} tests" in has_p.p_family.iloc[0]
    assert table[table.p_value.isna()].p_holm.isna().all()


def test_report_p_values_are_consistent(table):
    one = table[table.alternative == "greater"]
    assert (one.p_two_sided.dropna() >= one.loc[one.p_two_sided.notna(), "p_value"]).all()
    two = table[table.alternative == "two-sided"]
    np.testing.assert_allclose(two.p_two_sided, two.p_value)


def test_report_ube_is_scaled_to_the_vocabulary(table, small):
    ube = table.set_index("test").loc["UBE:first_names"]
    params = battery_ube.ube_parameters(SUBSET, 10_000, 50, rotations=battery_ube.REPORT_UBE_ROTATIONS)
    assert params["M"] == 5_000 and ube.n_a == 5_000
    assert f"M={params['M']}" in ube.note and f"m={params['m']}" in ube.note
    # the report's run is sized for speed: 3,000 rotations, said in the note
    assert pd.isna(ube.effect_size) and 0 < ube.p_value <= 1 and ube.n_permutations == 3_000
    assert "R=3000 (sized for speed" in ube.note
    # and the words' anisotropy, which decides how easily the cells beat the rotational null
    from wordbias.measures.enumeration.ube import anisotropy

    assert f"anisotropy (mean cosine of 2,000 random pairs) {anisotropy(small, seed=0):.2f}" in ube.note


def test_ube_parameters_rule():
    assert battery_ube.ube_parameters(400_000, 7_071, 50) == dict(n=12, m=64, M=30_000, t=3, R=10_000)
    p = battery_ube.ube_parameters(8_000, 250, 100)
    assert p == dict(n=5, m=4, M=2_000, t=3, R=10_000)
    assert battery_ube.ube_parameters(8_000, 250, 100, rotations=3_000)["R"] == 3_000
    # fewer rotations leave room for more words within the same time budget
    few = battery_ube.ube_parameters(3_000_000, 9_000, 300, workers=1, max_null_seconds=30, rotations=3_000)
    assert few["M"] > battery_ube.ube_parameters(3_000_000, 9_000, 300, workers=1, max_null_seconds=30)["M"]
    with pytest.raises(InvalidParameterError, match="rotations"):
        battery_ube.ube_parameters(8_000, 250, 100, rotations=0)
    # time-bounded: the estimated null of the scaled run fits the budget
    from wordbias.measures.enumeration import ube
    p = battery_ube.ube_parameters(3_000_000, 9_000, 300, workers=1, max_null_seconds=30)
    assert ube.null_cost(p["R"], p["n"], p["m"], p["M"], 300, 1).seconds <= 30.0 + 1e-9
    with pytest.raises(DegenerateSetError, match="first names"):
        battery_ube.ube_parameters(8_000, 99, 100)


def test_report_direction_rows_match_the_racial_report(small, table):
    from wordbias.papers import racial_bias_report as rbr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WordbiasWarning)
        ref = rbr.table1({"g": small}, n_permutations=10_000, n_resamples=2_000, seed=0).table
    ours = table[table.measure == "direction"]
    np.testing.assert_allclose(ours.effect_size, ref.bias)
    np.testing.assert_allclose(ours.p_value, ref.p)
    np.testing.assert_allclose(ours.ci_high, ref.bias_ci_high)


def test_report_on_unknown_words_gives_rows_with_reasons():
    kv = to_keyed_vectors([f"w{i}" for i in range(30)], np.random.default_rng(1).normal(size=(30, 4)))
    t = battery_report.report(kv, label="nothing", n_resamples=100, progress=False)
    assert len(t) == 33 and t.effect_size.isna().all() and t.p_value.isna().all()
    assert t.note.str.startswith("not run:").all()
    # every word is unknown, and each row lists its words as dropped
    weat1 = stimuli.weat_tests("caliskan2017", "glove")[0]
    assert t.loc[0, "dropped"].startswith("X: " + " ".join(w.lower() for w in weat1.X) + "; Y: ")
    assert t[t.test != "UBE:first_names"].dropped.str.len().gt(0).all()
    assert "first names" in t.set_index("test").loc["UBE:first_names", "note"]


def test_report_is_deterministic():
    kv = _toy()
    a = battery_report.report(kv, ube=False, n_resamples=200, progress=False)
    b = battery_report.report(kv, ube=False, n_resamples=200, progress=False)
    pd.testing.assert_frame_equal(a, b)


def test_report_is_deterministic_on_words(small):
    words = small.index_to_key[:4_000]
    kv = {w: small[w] for w in words}        # a plain mapping is accepted
    a = battery_report.report(kv, label="g4k", n_permutations=2_000, n_resamples=300, progress=False)
    b = battery_report.report(kv, label="g4k", n_permutations=2_000, n_resamples=300, progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert a.effect_size.notna().sum() >= 5          # 4,000 words: some lists are too short, each says why
    na = a[a.effect_size.isna() & (a.test != "UBE:first_names")]
    assert len(na) and na.note.str.startswith("not run: DegenerateSetError").all()
    c = battery_report.report(kv, label="g4k", n_permutations=2_000, n_resamples=300, progress=False, seed=1, ube=False)
    assert not np.allclose(a.ci_low.iloc[:32].fillna(0), c.ci_low.fillna(0))      # another seed, other resamples


def test_ube_battery_sums_up_runs_already_made(small):
    from wordbias.measures.enumeration import ube
    from wordbias.papers import swinger2019 as sw
    from wordbias.stats import multiple

    names = ube.name_list("first", small, cased=False)
    runs = {"first names": sw.run(small, names, cased=False, n=2, m=4, M=600, t=3, R=200, seed=0),
            "first names, seed 1": sw.run(small, names, cased=False, n=2, m=4, M=600, t=3, R=200, seed=1)}
    t = battery_ube.ube_battery(runs, label="glove20k", seed=0)
    tidy.check_tidy(t)
    assert t.test.tolist() == ["UBE:first_names", "UBE:first_names_seed_1"]
    for (_, row), res in zip(t.iterrows(), runs.values()):
        finite = np.isfinite(res.sigma)
        assert row.statistic == sw.significance_summary(res)["n_significant"]
        assert row.p_value == pytest.approx(multiple.benjamini_hochberg(res.p[finite]).min())
        assert row.n_x == len(res.names) and row.n_a == len(res.words) and pd.isna(row.effect_size)
    np.testing.assert_allclose(t.p_holm, multiple.holm(t.p_value.to_numpy(float)))
    with pytest.raises(Exception, match="runs must map names"):
        battery_ube.ube_battery([], label="x")


@pytest.mark.skipif(not __import__("wordbias.core.parallel", fromlist=["x"]).fork_available(),
                    reason="forks only where the platform forks")
def test_report_with_ube_in_a_forked_process_is_the_same_table(table, small, monkeypatch):
    """concurrent=True (what the command asks for) runs UBE in a forked process beside the other tests: the same
    table, row for row and bit for bit, as the sequential run; while_waiting is called once, in this process."""
    monkeypatch.setenv("WORDBIAS_WORKERS", "2")
    called = []
    forked = battery_report.report(small, label="glove20k", n_permutations=10_000, n_resamples=2_000,
                                   progress=False, concurrent=True, while_waiting=lambda: called.append(1))
    pd.testing.assert_frame_equal(forked, table)
    assert called == [1]
    # UBE's time under its own name (it overlapped the others), and the report's wall time: not the parts' sum
    assert set(forked.attrs["timings"]) == set(table.attrs["timings"]) - {"UBE"} | {battery_report.FORKED_UBE}
    t = forked.attrs["timings"]
    assert t["total"] < sum(v for k, v in t.items() if k != "total")
    # one worker: no fork, and the hook is not called (nothing to wait for)
    monkeypatch.setenv("WORDBIAS_WORKERS", "1")
    battery_report.report(_toy(), ube=True, n_resamples=100, progress=False, concurrent=True,
                          while_waiting=lambda: called.append(2))
    assert called == [1]


@pytest.mark.skipif(not __import__("wordbias.core.parallel", fromlist=["x"]).fork_available(),
                    reason="forks only where the platform forks")
def test_report_keeps_blas_to_one_thread_beside_the_forked_ube(monkeypatch):
    """While the forked UBE runs, this process's BLAS runs on one thread (one core each, not four threads on two
    cores); its thread count is given back afterwards."""
    from threadpoolctl import threadpool_info, threadpool_limits

    monkeypatch.setenv("WORDBIAS_WORKERS", "2")
    seen = []

    def blas_threads():
        return {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}

    with threadpool_limits(2, user_api="blas"):
        battery_report.report(_toy(), ube=True, n_resamples=100, progress=False, concurrent=True,
                              while_waiting=lambda: seen.append(blas_threads()))
        after = blas_threads()
    assert seen == [{1}]
    assert after == {2}


def test_report_refuses_a_while_waiting_that_is_not_callable():
    with pytest.raises(InvalidParameterError, match="while_waiting must be a function"):
        battery_report.report(_toy(), ube=False, n_resamples=100, progress=False, concurrent=True, while_waiting=3)
