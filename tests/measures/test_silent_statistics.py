"""Statistics that were silent: a target word that is also an attribute word, effects at the rounding level of
the word vectors, a random-effects "pooling" of one study, and a WEFAT property whose squares overflow.

Each test fails on the code before the fix: the overlap was measured, the noise gave a d (or an r), the one
study an interval, the property near 1e155 r = 0 and p = 1."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from wordbias import embeddings as E
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import SPREAD_SLACK, check_spread, float_eps, spread_tolerance
from wordbias.datasets import stimuli, user_lists
from wordbias.measures import ensemble
from wordbias.measures.association import bootstrap, bootstrap_wefat, ceat, measurement, scweat, weat, wefat
from wordbias.options import Resampling

EPS32 = float(np.finfo(np.float32).eps)


def _ulps(v, k):
    """``v`` (float32) moved by ``k`` units in the last place, component by component."""
    out = np.asarray(v, dtype=np.float32)
    step = np.float32(np.inf) if k > 0 else np.float32(-np.inf)
    for _ in range(abs(k)):
        out = np.nextafter(out, step)
    return out


V = np.array([0.3, -0.7, 0.5, 0.2], dtype=np.float32)
CLOSE = {"t1": V, "t2": _ulps(V, 1), "t3": _ulps(V, -1), "t4": _ulps(V, 2)}     # equal up to float32 rounding
ATTRS = {"a1": [1.0, 0.0, 0.2, 0.1], "a2": [0.8, 0.3, 0.0, 0.4], "b1": [0.0, 1.0, 0.1, 0.3],
         "b2": [0.2, 0.9, 0.5, 0.0], "w": [0.6, 0.1, -0.4, 0.9]}


def _kv(extra=None):
    """float32 vectors: t1..t4 equal up to float32 rounding, four distinct attribute words and a word w."""
    rows = {**CLOSE, **ATTRS, **(extra or {})}
    return E.to_keyed_vectors(list(rows), np.array([np.asarray(r, dtype=np.float32) for r in rows.values()]))


def _quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(*args, **kwargs)


# --------------------------------------------------------------------------------------------------
# a target word that is also an attribute word
# --------------------------------------------------------------------------------------------------

def test_papers_lists_have_no_target_that_is_an_attribute():
    """Why the overlap is an error and not an option: none of Caliskan et al.'s WEATs (any variant) or WEFATs
    needs it."""
    for variant in stimuli.VARIANTS:
        for s in stimuli.weat_tests("caliskan2017", variant):
            weat.check_targets_not_attributes({"X": s.X, "Y": s.Y}, {"A": s.A, "B": s.B})
            weat.check_sets(s.X, s.Y, s.A, s.B, case_fold=True)
    for s in stimuli.wefat_tests():
        weat.check_targets_not_attributes({"W": s.W}, {"A": s.A, "B": s.B})


def test_overlap_names_the_words_and_the_sets():
    with pytest.raises(InvalidParameterError, match=r"target set X and attribute set A share words: \['he'\]; "
                                                    r"target set Y and attribute set B share words: \['her'\]"):
        weat.check_targets_not_attributes({"X": ["he", "rose"], "Y": ["her", "ant"]},
                                          {"A": ["he", "him"], "B": ["her", "she"]})
    weat.check_targets_not_attributes({"X": ["he"], "Y": ["she"]}, {"A": ["him"], "B": ["her"]})   # disjoint: fine


def test_overlap_is_refused_by_every_entry_point():
    kv = {"he": [1, 0.1], "she": [0.1, 1], "rose": [0.9, 0.2], "ant": [0.2, 0.9], "him": [1, 0], "her": [0, 1]}
    lists = (["he", "rose"], ["ant", "she"], ["he", "him"], ["her"])
    named = {"X": "flowers", "A": "male"}
    with pytest.raises(InvalidParameterError, match=r"target set X \('flowers'\) and attribute set A \('male'\) "
                                                    r"share words: \['he'\]"):
        weat.weat(kv, *lists, names=named)
    for call in (lambda: measurement.weat(kv, *lists, resampling=Resampling(n_resamples=0, n_permutations=100_000)),
                 lambda: bootstrap.weat_bootstrap(kv, *lists, resampling=Resampling(n_resamples=10)),
                 lambda: weat.check_sets(*lists)):
        with pytest.raises(InvalidParameterError, match=r"share words: \['he'\]"):
            call()
    # after case folding: "He" and "he" are one word of an uncased test
    with pytest.raises(InvalidParameterError, match=r"attribute set A share words: \['he'\]"):
        weat.check_sets(["He", "rose"], ["ant", "she"], ["he", "him"], ["her"], case_fold=True)
    weat.check_sets(["He", "rose"], ["ant", "she"], ["he", "him"], ["her"])       # cased: two words
    prop = {"he": 1.0, "rose": 2.0, "ant": 3.0}
    with pytest.raises(InvalidParameterError, match=r"target set 'W' and attribute set 'A' share words: \['he'\]"):
        wefat.wefat(kv, list(prop), ["he", "him"], ["her"], prop)


def test_battery_and_lists_file_refuse_the_overlap(tmp_path):
    kv = _kv()
    spec = {"id": "t", "X": ["t1", "a1"], "Y": ["t2", "t3"], "A": ["a1", "a2"], "B": ["b1", "b2"]}
    m, = _quiet(measurement.weats, kv, [spec], resampling=Resampling(n_resamples=0, n_permutations=100_000))
    assert m.not_run and "InvalidParameterError" in m.not_run and "['a1']" in m.not_run
    path = tmp_path / "lists.yaml"
    path.write_text("battery: b\nweat:\n  - id: t1\n    targets: {X: [t1, a1], Y: [t2, t3]}\n"
                    "    attributes: {A: [a1, a2], B: [b1, b2]}\n")
    with pytest.raises(InvalidParameterError, match=r"test 't1': target set X and attribute set A share words"):
        user_lists.load_user_lists(path)


# --------------------------------------------------------------------------------------------------
# effects at the rounding level of the vectors
# --------------------------------------------------------------------------------------------------

def test_spread_tolerance_counts_the_inputs_precision():
    assert float_eps(np.ones(2, dtype=np.float32)) == EPS32 and float_eps([0.1], np.ones(2)) is None
    assert float_eps(np.ones(2, dtype=np.float16)) == float(np.finfo(np.float16).eps)
    # float64 values with no input precision: unchanged, (n + 32)·eps·max|v|
    assert spread_tolerance([0.3, 0.3]) == pytest.approx((2 + SPREAD_SLACK) * np.finfo(float).eps * 0.3)
    # float32 data: 32·eps32·scale more, whatever n
    tol = spread_tolerance([0.3, 0.3], input_eps=EPS32, scale=1.0)
    assert tol == pytest.approx((2 + SPREAD_SLACK) * np.finfo(float).eps * 0.3 + SPREAD_SLACK * EPS32)
    assert spread_tolerance(np.array([0.3, 0.3], dtype=np.float32)) > 1e-6       # its own dtype counts
    with pytest.raises(DegenerateSetError, match=r"eps_in = 1.19e-07"):
        check_spread([0.3, 0.3 + 1e-8], 1e-8, "equal", input_eps=EPS32)
    assert check_spread([0.3, 0.3 + 1e-8], 1e-8, "equal") == 1e-8                 # genuine in float64


def test_weat_on_vectors_equal_up_to_float32_rounding_is_refused():
    kv = _kv()
    lists = (["t1", "t2"], ["t3", "t4"], ["a1", "a2"], ["b1", "b2"])
    with pytest.raises(DegenerateSetError, match=r"same association s\(w, A, B\).*rounding level.*eps_in = 1.19e-07"):
        _quiet(weat.weat, kv, *lists)
    with pytest.raises(DegenerateSetError, match=r"rounding level"):
        _quiet(measurement.weat, kv, *lists, resampling=Resampling(n_resamples=0, n_permutations=100_000))
    m, = _quiet(measurement.weats, kv, [dict(zip(("X", "Y", "A", "B"), lists), id="noise")],
                resampling=Resampling(n_resamples=0, n_permutations=100_000))
    assert math.isnan(m.effect_size) and "rounding level" in m.not_run
    # the same targets a genuine distance apart are measured
    far = _kv({"t3": [0.1, 0.9, -0.2, 0.4], "t4": [0.2, 0.8, 0.1, 0.3]})
    assert math.isfinite(_quiet(weat.weat, far, *lists).effect_size)


def test_float64_vectors_keep_their_own_precision():
    """A float64 mapping is known to float64 precision: a difference of 1e-9 is a (small) genuine one."""
    base = np.array([0.3, -0.7, 0.5, 0.2])
    emb = {**{k: np.asarray(v, dtype=float) for k, v in ATTRS.items()},
           "t1": base, "t2": base * (1 + 1e-9), "t3": base + 1e-9, "t4": base - 2e-9}
    assert weat.vector_eps(emb, ["t1"]) == np.finfo(float).eps
    assert math.isfinite(_quiet(weat.weat, emb, ["t1", "t2"], ["t3", "t4"], ["a1", "a2"], ["b1", "b2"]).effect_size)
    assert weat.vector_eps(_kv()) == EPS32


def test_scores_equal_up_to_1e7_relative():
    s = 0.5 * (1 + 1e-7 * np.array([0.3, -1.0, 0.8, -0.2, 1.0, 0.1]))
    for call in (lambda x, y, **k: weat.effect_size(x, y, **k), lambda x, y, **k: weat.weat_from_scores(x, y, **k)):
        with pytest.raises(DegenerateSetError, match=r"rounding level"):
            call(s[:3].astype(np.float32), s[3:].astype(np.float32))              # float32 scores: their precision
        with pytest.raises(DegenerateSetError, match=r"rounding level"):
            call(s[:3], s[3:], input_eps=EPS32)                                   # from float32 vectors
    assert math.isfinite(weat.effect_size(s[:3], s[3:]))      # float64 scores: a genuine spread of 5e-8
    with pytest.raises(InvalidParameterError, match=r"input_eps"):
        weat.effect_size(s[:3], s[3:], input_eps=-1.0)
    with pytest.raises(InvalidParameterError, match=r"give input_eps or convention, not both"):
        weat.effect_size(s[:3], s[3:], input_eps=EPS32, convention="sweater")
    with pytest.raises(InvalidParameterError, match=r"scale"):
        wefat.regress([0.1, 0.4, 0.2], [1.0, 2.0, 3.0], scale=float("nan"))


def test_scweat_on_attribute_vectors_equal_up_to_rounding_is_refused():
    kv = _kv({"a1": CLOSE["t1"], "a2": CLOSE["t2"], "b1": CLOSE["t3"], "b2": CLOSE["t4"]})
    with pytest.raises(DegenerateSetError, match=r"same cosine with every attribute word.*rounding level"):
        scweat.sc_weat(kv, ["w"], ["a1", "a2"], ["b1", "b2"], warn=False)
    cos = np.array([0.61, 0.61 + 6e-8, 0.61 - 6e-8, 0.61 + 1.2e-7])          # one or two float32 ulps apart
    assert np.unique(cos.astype(np.float32)).size == 4
    with pytest.raises(DegenerateSetError, match=r"rounding level"):
        scweat.sc_weat_effect_size(cos[:2].astype(np.float32), cos[2:].astype(np.float32))
    with pytest.raises(DegenerateSetError, match=r"rounding level"):
        scweat.sc_weat_effect_size(cos[:2], cos[2:], input_eps=EPS32)
    assert math.isfinite(scweat.sc_weat_effect_size(cos[:2], cos[2:]))          # float64 cosines: genuine
    assert np.isfinite(scweat.sc_weat(_kv(), ["w"], ["a1", "a2"], ["b1", "b2"]).effect_size).all()


def test_wefat_on_targets_equal_up_to_rounding_is_refused():
    kv, prop = _kv(), {"t1": 1.0, "t2": 2.0, "t3": 3.0, "t4": 4.0}
    with pytest.raises(DegenerateSetError, match=r"same association s\(w, A, B\).*rounding level"):
        wefat.wefat(kv, list(prop), ["a1", "a2"], ["b1"], prop)
    with pytest.raises(DegenerateSetError, match=r"rounding level"):
        _quiet(measurement.wefat, kv, list(prop), ["a1", "a2"], ["b1"], prop, resampling=Resampling(n_resamples=0))
    spec = {"id": "noise", "W": list(prop), "A": ["a1", "a2"], "B": ["b1"], "property": prop}
    m, = _quiet(measurement.wefats, kv, [spec], resampling=Resampling(n_resamples=0))
    assert "rounding level" in m.not_run
    # attribute vectors equal up to rounding: every target's cosines are
    flat = _kv({"a1": CLOSE["t1"], "a2": CLOSE["t2"], "b1": CLOSE["t3"], "w2": [0.1, 0.2, 0.3, 0.4],
                "w3": [0.5, -0.2, 0.1, 0.0]})
    with pytest.raises(DegenerateSetError, match=r"same cosine with every attribute word.*rounding level"):
        wefat.wefat(flat, ["w", "w2", "w3"], ["a1", "a2"], ["b1"], {"w": 1.0, "w2": 2.0, "w3": 3.0})


def test_a_property_equal_up_to_rounding_is_refused():
    s = [0.1, 0.4, 0.2, 0.9]
    with pytest.raises(DegenerateSetError, match=r"property is the same up to rounding"):
        wefat.regress(s, [0.3, np.nextafter(0.3, 1), 0.3, np.nextafter(0.3, 0)])
    with pytest.raises(InvalidParameterError, match=r"non-finite property values at positions \[1\]"):
        wefat.regress(s, [1.0, np.inf, 2.0, 3.0])
    with pytest.raises(InvalidParameterError, match=r"one value per target word"):
        wefat.regress(s, [1.0, 2.0, 3.0])


def test_ensemble_runs_equal_up_to_rounding_have_no_between_run_variance():
    d = [0.5, np.nextafter(0.5, 1), np.nextafter(0.5, 0)]
    c = ensemble.combine_runs(d, [np.nan] * 3, [np.nan] * 3)       # no interval over words: over runs only
    assert c.between_variance == 0 and math.isnan(c.ci_low) and math.isnan(c.p_value())
    assert "equal up to rounding" in c.method and "no interval" in c.method
    c = ensemble.combine_runs(d, [0.1] * 3, [0.9] * 3)              # W stands: an interval over words
    assert c.between_variance == 0 and c.ci_low < 0.5 < c.ci_high and "equal up to rounding" in c.method
    c = ensemble.combine_runs([0.5, 0.6, 0.55], [np.nan] * 3, [np.nan] * 3)      # a genuine spread: unchanged
    assert c.between_variance == pytest.approx(0.0025) and c.ci_low < 0.55 < c.ci_high


def test_ensemble_runs_of_noise_are_not_run():
    runs = [_kv(), _kv()]
    [r] = _quiet(ensemble.on_runs, measurement.weats, runs,
                 [{"id": "twins", "X": ["t1", "t2"], "Y": ["t3", "t4"], "A": ["a1", "a2"], "B": ["b1", "b2"]}],
                 resampling=Resampling(n_resamples=0), label="twins")
    assert all(m.not_run and "rounding level" in m.not_run for m in r.per_run) and math.isnan(r.effect_size)


# --------------------------------------------------------------------------------------------------
# a random-effects "pooling" of one study
# --------------------------------------------------------------------------------------------------

def test_one_study_has_no_random_effects_interval():
    r = ceat.random_effects([0.8], [0.04])
    assert r.pooled == 0.8 and r.k == 1 and r.note == ceat.ONE_STUDY_NOTE
    assert all(math.isnan(x) for x in (r.se, r.low, r.high, r.z, r.p_value, r.tau2, r.i2))
    tau2, q = ceat.dersimonian_laird_tau2([0.8], [0.04])
    assert math.isnan(tau2) and q == 0
    one = ceat.pool_templates([[0.9, 0.2, 0.5]], [[-0.3, 0.1, -0.6]])
    assert one.pooled.k == 1 and math.isnan(one.pooled.low) and one.pooled.note
    two = ceat.random_effects([0.8, 0.6], [0.04, 0.05])                   # two studies: an interval, no note
    assert two.low < two.pooled < two.high and two.note == "" and two.tau2 == 0


# --------------------------------------------------------------------------------------------------
# a WEFAT property whose squares overflow
# --------------------------------------------------------------------------------------------------

EMB = dict(zip([f"j{i}" for i in range(12)] + ["she", "her", "woman", "he", "him", "man"],
               np.random.default_rng(1).normal(size=(18, 6)).tolist()))
PROP = {f"j{i}": float(i) + float(np.random.default_rng(2 + i).normal()) for i in range(12)}
A, B = ["she", "her", "woman"], ["he", "him", "man"]


@pytest.mark.parametrize("factor", [1e150, 1e155, 1e-160, -1e300, 2.0 ** 600])
def test_r_and_p_do_not_depend_on_the_property_scale(factor):
    ref = wefat.wefat(EMB, list(PROP), A, B, PROP)
    got = wefat.wefat(EMB, list(PROP), A, B, {k: v * factor for k, v in PROP.items()})
    assert got.pearson_r == pytest.approx(ref.pearson_r * np.sign(factor), rel=1e-12)
    assert got.p_value == pytest.approx(ref.p_value, rel=1e-9)
    assert got.slope == pytest.approx(ref.slope * factor, rel=1e-12)
    assert got.intercept == pytest.approx(ref.intercept * factor, rel=1e-12)
    assert got.spearman_r == pytest.approx(ref.spearman_r * np.sign(factor))


def test_power_of_two_scaling_is_exact_at_a_normal_scale():
    from scipy import stats

    rng = np.random.default_rng(5)
    for _ in range(50):
        s, p = rng.normal(size=20), rng.normal(50, 20, size=20)
        lr, got = stats.linregress(s, p), wefat.regress(s, p)
        assert (got["pearson_r"], got["p_value"], got["slope"], got["intercept"]) == (
            lr.rvalue, lr.pvalue, lr.slope, lr.intercept)                   # bit for bit: no result moves
    scaled, e = wefat.power_of_two_scaled([3e155, -1e155])
    assert np.ldexp(scaled, e).tolist() == [3e155, -1e155] and 0.5 <= np.abs(scaled).max() < 1


def test_the_interval_does_not_depend_on_the_property_scale():
    ref = _quiet(measurement.wefat, EMB, list(PROP), A, B, PROP, resampling=Resampling(n_resamples=300))
    big = _quiet(measurement.wefat, EMB, list(PROP), A, B, {k: v * 1e155 for k, v in PROP.items()},
                 resampling=Resampling(n_resamples=300))
    assert big.effect_size == pytest.approx(ref.effect_size, rel=1e-12)
    assert (big.ci_low, big.ci_high) == pytest.approx((ref.ci_low, ref.ci_high), rel=1e-9)
    W = np.array([EMB[w] for w in PROP])
    Av, Bv = np.array([EMB[w] for w in A]), np.array([EMB[w] for w in B])
    p = np.array(list(PROP.values()))
    r0 = bootstrap_wefat.wefat_bootstrap_from_vectors(W, Av, Bv, p, n_resamples=200, method="percentile")
    r1 = bootstrap_wefat.wefat_bootstrap_from_vectors(W, Av, Bv, p * 1e155, n_resamples=200, method="percentile")
    assert (r1.estimate, r1.low, r1.high) == pytest.approx((r0.estimate, r0.low, r0.high), rel=1e-9)
