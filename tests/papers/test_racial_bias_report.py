"""The racial bias report (Section 3, Appendix A): its bias, permutation test and CI by hand; Table 1, the
figures and the direct bias on a toy embedding; the attribute sets of Appendix B."""

import numpy as np
import pandas as pd
import pytest

from wordbias import embeddings
from wordbias.core.lookup import DegenerateSetError
from wordbias.datasets import stimuli
from wordbias.core import tables
from wordbias.papers import racial_bias_report as report


def test_cosine_bias_hand_computed():
    c = report.cosine_bias([1.0, 0.0], [1.0, 1.0])
    assert c.cosine == pytest.approx(1 / np.sqrt(2))
    assert c.angle == pytest.approx(45.0)
    assert report.cosine_bias([0, 0, 2], [0, 3, 0]).angle == pytest.approx(90.0)
    with pytest.raises(DegenerateSetError):
        report.cosine_bias([0.0, 0.0], [1.0, 0.0])


def test_permutation_test_directions_unequal_sizes_hand_computed():
    # A1 = {(2,0,0)}, A2 = {(0,1,0), (0,-1,0), (0,0,2)}: r = (2,0,0) - (0,0,2/3);
    # T1 = {(1,1,0)}, T2 = {(1,0,0), (1,0,0)+...}
    A1 = np.array([[2.0, 0, 0]])
    A2 = np.array([[0, 1.0, 0], [0, -1.0, 0], [0, 0, 2.0]])
    T1 = np.array([[1.0, 1, 0], [3.0, 1, 0]])
    T2 = np.array([[0, 0, 1.0]])
    res = report.direction_permutation_test(T1, T2, A1, A2, n_permutations=100, seed=0)
    r = np.array([2, 0, -2 / 3])
    s = np.array([2, 1, -1])
    assert res.cosine == pytest.approx(r @ s / np.linalg.norm(r) / np.linalg.norm(s))
    # 4 ways to choose A1's single element; the null takes those values only
    values = []
    A = np.vstack([A1, A2])
    for i in range(4):
        d = A[i] - np.delete(A, i, axis=0).mean(axis=0)
        values.append(d @ s / np.linalg.norm(d) / np.linalg.norm(s))
    assert np.all(np.min(np.abs(res.null[:, None] - np.array(values)[None, :]), axis=1) < 1e-12)
    assert res.n_extreme == np.sum(res.null >= res.cosine - 1e-12)


def test_permutation_test_deterministic_and_ci():
    rng = np.random.default_rng(3)
    A1, A2 = rng.normal(size=(12, 8)), rng.normal(size=(9, 8))
    T1, T2 = rng.normal(size=(5, 8)), rng.normal(size=(6, 8))
    a = report.direction_permutation_test(T1, T2, A1, A2, n_permutations=2000, seed=7)
    b = report.direction_permutation_test(T1, T2, A1, A2, n_permutations=2000, seed=7, batch_size=2000)
    assert a.p == b.p and np.array_equal(a.null, b.null)
    assert 0 < a.p <= 1
    assert a.ci[0] <= a.p <= a.ci[1]
    from scipy import stats
    outcomes = (a.null >= a.cosine - 1e-12).astype(float)
    lo, hi = stats.norm.interval(0.95, loc=outcomes.mean(), scale=outcomes.std(ddof=1) / np.sqrt(len(outcomes)))
    assert a.ci == pytest.approx((lo, hi))
    assert report.p_value_ci(outcomes) == pytest.approx((lo, hi))
    # the report's Table 1 row Google (Implicit): p = 0.0748 over 10,000 -> (0.0696, 0.08)
    assert np.round(report.p_value_ci(748, 10_000), 4).tolist() == [0.0696, 0.08]


def test_permutation_test_planted_and_null():
    rng = np.random.default_rng(0)
    d = 10
    axis = np.eye(d)[0]
    A1 = rng.normal(size=(15, d)) + 2 * axis
    A2 = rng.normal(size=(15, d)) - 2 * axis
    T1 = rng.normal(size=(8, d)) + 2 * axis
    T2 = rng.normal(size=(8, d)) - 2 * axis
    planted = report.direction_permutation_test(T1, T2, A1, A2, n_permutations=1000, seed=1)
    assert planted.cosine > 0.8 and planted.p < 0.01
    ps = []
    for i in range(40):
        g = np.random.default_rng(100 + i)
        ps.append(report.direction_permutation_test(g.normal(size=(8, d)), g.normal(size=(8, d)),
                                                    g.normal(size=(10, d)), g.normal(size=(12, d)),
                                                    n_permutations=200, seed=i).p)
    ps = np.array(ps)
    assert 0.2 < ps.mean() < 0.8 and np.mean(ps < 0.05) < 0.25


def test_permutation_test_errors():
    x = np.eye(3)
    with pytest.raises(DegenerateSetError, match="A1"):
        report.direction_permutation_test(x[:1], x[1:2], np.empty((0, 3)), x)
    with pytest.raises(ValueError, match="share"):
        report.direction_permutation_test(x[:1], x[1:2], x[:2], x[1:])
    with pytest.raises(DegenerateSetError, match="zero"):
        report.direction_permutation_test(x[:1], x[1:2], np.zeros((1, 3)), x)


# ---------------------------------------------------------------------- Appendix B: the attribute sets


def test_racial_bias_sets_apply_removals_and_the_intersection_rule():
    attrs = stimuli.load_stimuli("racial_bias_report")["attributes"]
    for kind, a in attrs.items():
        A1, A2 = report.attribute_sets(kind)
        assert not set(A1) & set(A2)
        assert not set(a["removed"]["A2"]) & set(A2) and not set(a["removed"]["A1"]) & set(A1)
        assert set(A1) <= set(a["A1"]) and set(A2) <= set(a["A2"])
        if not a["intersection_removed"]:
            assert len(A1) == len(a["A1"]) - len(a["removed"]["A1"])
        lower = report.attribute_sets(kind, cased=False)
        assert lower == (tuple(w.lower() for w in A1), tuple(w.lower() for w in A2))
    A1, A2 = report.attribute_sets("implicit")
    assert "Mikayla" not in A2
    with pytest.raises(KeyError, match="unknown"):
        report.attribute_sets("nope")


# ---------------------------------------------------------------------- Table 1 and the figures, on a toy embedding


@pytest.fixture(scope="module")
def toy():
    """Random 8-d vectors for every (lower-cased) word of the report and of the debiaswe lists, minus two."""
    from wordbias.measures import debias

    words = set(w for ws in report.target_sets() for w in ws)
    for kind in report.KINDS:
        words |= set(w for ws in report.attribute_sets(kind, cased=False) for w in ws)
    lists = debias.word_lists(cased=False)
    words |= set(lists.professions) | {w for p in lists.definitional_pairs for w in p}
    words -= {"lazy", "rivka"}  # one target word and one name missing
    words = sorted(words)
    rng = np.random.default_rng(0)
    return embeddings.to_keyed_vectors(words, rng.normal(size=(len(words), 8)).astype(np.float32))


def test_table1_matches_the_test_by_hand(toy, tmp_path):
    result = report.table1({"toy": toy}, n_permutations=200, seed=3)
    assert result.labels == ["toy"] and result.to_frame().equals(result.table)
    assert result.table.attributes.tolist() == list(report.KINDS)
    T1, T2 = report.target_sets()
    t1 = toy[[w for w in T1 if w in toy.key_to_index]].astype(np.float64)
    t2 = toy[[w for w in T2 if w in toy.key_to_index]].astype(np.float64)
    A1, A2 = report.attribute_sets("explicit", cased=False)
    by_hand = report.direction_permutation_test(t1, t2, toy[list(A1)], toy[list(A2)], n_permutations=200, seed=3)
    row = result.table.set_index("attributes").loc["explicit"]
    assert (row.bias, row.angle, row.p, row.p_ci_low, row.p_ci_high) == (by_hand.cosine, by_hand.angle, by_hand.p,
                                                                         *by_hand.ci)
    missing = result.missing.set_index("set")
    assert missing.loc["targets", "missing_A2"] == "lazy" and missing.loc["implicit", "missing_A1"] == "rivka"
    words, p1, p2 = result.projections["toy", "implicit"]
    assert len(words[0]) == len(p1) == 12 and len(words[1]) == len(p2) == 11
    path = result.save(tmp_path)
    assert path == tmp_path / "table1.csv"
    assert pd.read_csv(path).columns.tolist() == ["embedding", "attributes", "n_A1", "n_A2", "bias", "bias_ci_low",
                                                       "bias_ci_high", "angle", "p", "p_ci_low", "p_ci_high",
                                                       "p_two_sided", "bias_ci_resampled", "p_holm", "p_bh",
                                                       "p_family"]
    shown = report.show_table1(result.table)
    assert shown.columns.tolist() == ["Words (A1/A2)", "Bias cos(r, s)", "95% interval of the bias", "Angle",
                                      "p (one-sided)", "95% interval of p (Monte Carlo)"]
    assert shown.index.tolist() == ["implicit", "explicit", "stereotypical"]
    assert shown.loc["explicit", "95% interval of p (Monte Carlo)"] == (
        f"[{tables.small_number_text(row.p_ci_low)}, {tables.small_number_text(row.p_ci_high)}]")
    assert shown.loc["explicit", "95% interval of the bias"] == f"[{row.bias_ci_low:.2f}, {row.bias_ci_high:.2f}]"
    adjusted = report.show_adjusted_p(result.table)
    assert adjusted.columns.tolist() == ["p (one-sided)", "p (two-sided)", "p Holm", "p Benjamini-Hochberg"]
    assert adjusted.loc["explicit", "p Holm"] == tables.p_text(result.table.p_holm[1])
    text = report.differences(result, report.reported_table1(), 200)
    assert text.startswith("**toy** vs the report's Wikipedia") and "set/embedding pairs with words dropped" in text
    assert "another corpus, or one not known here" in text and "Wikipedia 2014" not in text.split("\n")[0]
    # with the vectors, the facts are computed from them (not stated for GloVe 6B)
    text = report.differences(result, report.reported_table1(), 200, {"toy": toy})
    assert text.startswith(f"**toy** vs the report's Wikipedia GloVe 300d ({toy.vector_size} vs 300 dimensions, "
                           f"{len(toy):,} vs 400,000 words")
    assert report.describe_embeddings({"toy": toy}).startswith(f"toy: {toy.vector_size} dimensions, {len(toy):,} words")


def test_figures_and_direct_bias(toy):
    import matplotlib

    matplotlib.use("Agg")
    result = report.table1({"toy": toy}, n_permutations=50)
    assert len(report.figure1(result).axes) == 1 and len(report.figure2(result).axes) == 2
    db = report.direct_bias_table({"toy": toy})
    assert db.embedding.tolist() == ["toy"] and db.pairs[0] == 10 and 0 < db.direct_bias_c1[0] < 1


def test_report_figures_on_glove_have_no_overlapping_labels_and_legends_off_the_data():
    """Issue 16: the report's figures on the bundled GloVe (where "unintelligent" and "uneducated" overlapped):
    every word labelled, no two labels overlapping, the legend over no point, the same placement for
    projections that differ by 1e-6 (another CPU differs by ~1e-7)."""
    import dataclasses

    import matplotlib

    matplotlib.use("Agg")
    from wordbias import embeddings
    from wordbias.core import figures

    kv = embeddings.load("glove-6b-50d", progress=False)
    result = report.table1({"glove-6b-50d": kv}, n_permutations=100, n_resamples=100)
    for make in (report.figure1, report.figure2):
        fig = make(result)
        for ax in fig.axes:
            words = [w for ws in result.projections["glove-6b-50d", "implicit"][0] for w in ws]
            assert sorted(t.get_text() for t in ax.texts) == sorted(words)
            assert figures.overlapping_labels(ax.texts) == []
            assert figures.points_under_legend(ax) == 0
        moved = {key: (ws, p1 + 1e-6 * np.sin(np.arange(len(p1))), p2 - 1e-6)
                 for key, (ws, p1, p2) in result.projections.items()}
        again = make(dataclasses.replace(result, projections=moved))
        for ax, ax2 in zip(fig.axes, again.axes):
            np.testing.assert_array_equal([t.get_position() for t in ax.texts],
                                          [t.get_position() for t in ax2.texts])
    matplotlib.pyplot.close("all")


def test_reported_table1():
    rep = report.reported_table1()
    shown = report.show_reported(rep)
    assert shown.shape == (9, 4) and shown.loc[("Google", "implicit"), "95% interval of p (Monte Carlo)"] == \
        "[0.0696, 0.08]"
    assert len(rep) == 9 and rep.angle.between(0, 180).all()
    assert rep.p_ci[0] == "(0.0696, 0.08)" and rep.p_ci_high[0] == 0.08 and "ci" not in rep


# issue 13: the notebook's parameters and the cost of the permutation test, checked before any work
def test_check_parameters():
    from wordbias.core.errors import InvalidParameterError
    from wordbias.papers import racial_bias_report as report

    assert report.check_parameters("glove-6b-50d", ("/x/v.txt",), 100, 3) == (["glove-6b-50d", "/x/v.txt"], 100, 3)
    assert report.check_parameters("/x/v.txt", [], 100, 3) == (["/x/v.txt"], 100, 3)
    for bad in ("/x/v.txt", [""], [3], None, {"a": 1}):
        with pytest.raises(InvalidParameterError, match="compare_with must"):
            report.check_parameters("glove-6b-50d", bad, 100, 0)
    for bad in ("", ["glove-6b-50d"], None, 3):
        with pytest.raises(InvalidParameterError, match="embedding must be one embedding"):
            report.check_parameters(bad, [], 100, 0)
    with pytest.raises(InvalidParameterError, match="named twice"):
        report.check_parameters("glove-6b-50d", ["glove-6b-50d"], 100, 0)
    with pytest.raises(InvalidParameterError, match="n_permutations"):
        report.check_parameters("glove-6b-50d", [], "1000", 0)


def test_direction_test_cost_is_checked_before_work():
    from wordbias.core.errors import TooCostlyError
    from wordbias.papers import racial_bias_report as report

    rng = np.random.default_rng(0)
    T1, T2, A1, A2 = (rng.normal(size=(5, 8)) for _ in range(4))
    with pytest.raises(TooCostlyError, match="max_seconds"):
        report.direction_permutation_test(T1, T2, A1, A2, n_permutations=10 ** 9)
    with pytest.raises(TooCostlyError):
        report.direction_permutation_test(T1, T2, A1, A2, n_permutations=10_000, max_seconds=1e-9)
    assert report.direction_permutation_test(T1, T2, A1, A2, n_permutations=100).n_permutations == 100


def test_permutation_test_alternatives_share_the_permutations():
    rng = np.random.default_rng(3)
    A1, A2 = rng.normal(size=(12, 8)), rng.normal(size=(9, 8))
    T1, T2 = rng.normal(size=(5, 8)), rng.normal(size=(6, 8))
    kw = dict(n_permutations=2000, seed=7)
    g = report.direction_permutation_test(T1, T2, A1, A2, **kw)
    same = report.direction_permutation_test(T1, T2, A1, A2, alternative="greater", **kw)
    assert (same.p, same.n_extreme, same.ci, same.cosine) == (g.p, g.n_extreme, g.ci, g.cosine)
    le = report.direction_permutation_test(T1, T2, A1, A2, alternative="less", **kw)
    two = report.direction_permutation_test(T1, T2, A1, A2, alternative="two-sided", **kw)
    assert np.array_equal(g.null, le.null) and np.array_equal(g.null, two.null)
    assert g.alternative == "greater" and le.alternative == "less" and two.alternative == "two-sided"
    assert le.n_extreme == np.sum(le.null <= le.cosine + 1e-12) and le.p == le.n_extreme / 2000
    assert two.p == min(1.0, 2 * min(g.p, le.p)) and two.n_extreme == min(g.n_extreme, le.n_extreme)
    assert two.ci == pytest.approx(tuple(2 * x for x in report.p_value_ci(two.n_extreme, 2000)))
    with pytest.raises(ValueError, match="alternative"):
        report.direction_permutation_test(T1, T2, A1, A2, alternative="two_sided", **kw)


# issue 14: the bootstrap interval of the bias, the two-sided p and the adjusted p of Table 1
def test_table1_bias_interval_two_sided_p_and_adjusted_p(toy):
    from wordbias.core import multiple
    from wordbias.measures import bootstrap

    result = report.table1({"toy": toy, "toy2": toy}, n_permutations=300, seed=5, n_resamples=500)
    t = result.table
    T1, T2 = report.target_sets()
    t1 = toy[[w for w in T1 if w in toy.key_to_index]].astype(np.float64)
    t2 = toy[[w for w in T2 if w in toy.key_to_index]].astype(np.float64)
    A1, A2 = report.attribute_sets("stereotypical", cased=False)
    a1, a2 = (toy[[w for w in A if w in toy.key_to_index]].astype(np.float64) for A in (A1, A2))
    row = t.set_index(["embedding", "attributes"]).loc[("toy", "stereotypical")]
    ci = bootstrap.direction_bootstrap_from_vectors(t1, t2, a1, a2, n_resamples=500, seed=5)
    assert (row.bias_ci_low, row.bias_ci_high) == (ci.low, ci.high) and ci.method == "BCa"
    assert ci.estimate == pytest.approx(row.bias, abs=1e-12)
    two = report.direction_permutation_test(t1, t2, a1, a2, n_permutations=300, seed=5, alternative="two-sided")
    assert row.p_two_sided == two.p
    # p_two_sided = min(1, 2 min(p, p_less)) over the same permutations: at most 2 p
    assert (t.p_two_sided <= np.minimum(1, 2 * t.p) + 1e-12).all()
    # one family: the six rows (3 attribute sets x 2 embeddings), by Holm and BH on the one-sided p
    assert len(t) == 6 and t.p_family.nunique() == 1 and "6 tests" in t.p_family[0] and "2 embeddings" in t.p_family[0]
    np.testing.assert_array_equal(t.p_holm, multiple.holm(t.p.to_numpy()))
    np.testing.assert_array_equal(t.p_bh, multiple.benjamini_hochberg(t.p.to_numpy()))
    p = t.p.to_numpy()
    order = np.argsort(p, kind="stable")
    holm_by_hand = np.minimum(1, np.maximum.accumulate(p[order] * np.arange(6, 0, -1)))
    np.testing.assert_allclose(t.p_holm.to_numpy()[order], holm_by_hand)
    with pytest.raises(ValueError, match="n_resamples"):
        report.table1({"toy": toy}, n_permutations=100, n_resamples=1)


def test_a_set_of_one_word_is_held_fixed_by_the_interval(toy):
    """With one negative target word left, the test still runs; the interval resamples the other three sets."""
    kv = toy
    T1, T2 = report.target_sets()
    keep = set(T2[:1])
    from wordbias.embeddings import to_keyed_vectors

    words = [w for w in kv.index_to_key if w not in T2 or w in keep]
    small = to_keyed_vectors(words, np.stack([kv[w] for w in words]))
    with pytest.warns(Warning):
        result = report.table1({"small": small}, n_permutations=50, n_resamples=200)
    assert (result.table.bias_ci_resampled == "T1A1A2").all()
    assert (result.table.bias_ci_low <= result.table.bias_ci_high).all()
