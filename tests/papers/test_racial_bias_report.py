"""The racial bias report: Table 1, the figures and the direct bias on a toy embedding, each test measured once
(the test itself, by hand: tests/measures/directions/test_direction_permutation.py); the attribute sets of Appendix B."""

import numpy as np
import pandas as pd
import pytest

from wordbias import embeddings
from wordbias.core import tables
from wordbias.datasets import stimuli
from wordbias.measures.directions import direction_permutation as dp
from wordbias.papers import racial_bias_report as report

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
    from wordbias.measures.debiasing import debias

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
    by_hand = dp.direction_permutation_test(t1, t2, toy[list(A1)], toy[list(A2)], n_permutations=200, seed=3)
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
    """The report's figures on the bundled GloVe (where the labels of "unintelligent" and "uneducated" would overlap):
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


# the notebook's parameters and the cost of the permutation test, checked before any work
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


# the bootstrap interval of the bias, the two-sided p and the adjusted p of Table 1
def test_table1_bias_interval_two_sided_p_and_adjusted_p(toy):
    from wordbias.measures.directions import bootstrap_direction
    from wordbias.stats import multiple

    result = report.table1({"toy": toy, "toy2": toy}, n_permutations=300, seed=5, n_resamples=500)
    t = result.table
    T1, T2 = report.target_sets()
    t1 = toy[[w for w in T1 if w in toy.key_to_index]].astype(np.float64)
    t2 = toy[[w for w in T2 if w in toy.key_to_index]].astype(np.float64)
    A1, A2 = report.attribute_sets("stereotypical", cased=False)
    a1, a2 = (toy[[w for w in A if w in toy.key_to_index]].astype(np.float64) for A in (A1, A2))
    row = t.set_index(["embedding", "attributes"]).loc[("toy", "stereotypical")]
    ci = bootstrap_direction.direction_bootstrap_from_vectors(t1, t2, a1, a2, n_resamples=500, seed=5)
    assert (row.bias_ci_low, row.bias_ci_high) == (ci.low, ci.high) and ci.method == "BCa"
    assert ci.estimate == pytest.approx(row.bias, abs=1e-12)
    two = dp.direction_permutation_test(t1, t2, a1, a2, n_permutations=300, seed=5, alternative="two-sided")
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


# each test measured once; Table 1 and the figures are views of the measurements
def test_table1_measures_each_test_once_and_is_a_view_of_its_measurements(toy, monkeypatch):
    calls = {"permutations": 0, "bootstrap": 0}
    draw, boot = dp._null_cosines, dp.direction_bootstrap_from_vectors

    def counted(key, f):
        def g(*a, **k):
            calls[key] += 1
            return f(*a, **k)
        return g

    monkeypatch.setattr(dp, "_null_cosines", counted("permutations", draw))
    monkeypatch.setattr(dp, "direction_bootstrap_from_vectors", counted("bootstrap", boot))
    result = report.table1({"toy": toy, "toy2": toy}, n_permutations=200, seed=2, n_resamples=200)
    assert calls == {"permutations": 6, "bootstrap": 6}               # 3 tests x 2 embeddings, once each
    again = report.table1_view(result.measurements)
    assert calls == {"permutations": 6, "bootstrap": 6}               # the view measures nothing
    pd.testing.assert_frame_equal(again.table, result.table)
    pd.testing.assert_frame_equal(again.missing, result.missing)
    m = {x.test: x for x in result.measurements["toy"]}["explicit"]
    row = result.table.set_index(["embedding", "attributes"]).loc[("toy", "explicit")]
    assert (row.bias, row.p, row.p_two_sided, row.bias_ci_low) == (m.effect_size, m.p_value, m.p_two_sided, m.ci_low)
    assert (row.n_A1, row.n_A2) == (len(m.sets[2].used), len(m.sets[3].used))
    (words, p1, p2) = result.projections["toy", "explicit"]
    assert words == (m.sets[0].used, m.sets[1].used) and np.array_equal(p1, m.result.projections[0])


def test_the_reports_tests_say_what_they_measure():
    specs = stimuli.direction_tests("racial_bias_report")
    assert [s.id for s in specs] == list(report.KINDS)
    titles = [s.title for s in specs]
    assert all(t.startswith("race: ") for t in titles) and len(set(titles)) == 3
    assert "European American vs African American names" in titles[2] and "first names" in titles[0]
    for s in specs:
        assert (s.A1, s.A2) == report.attribute_sets(s.id) and (s.T1, s.T2) == report.target_sets()
