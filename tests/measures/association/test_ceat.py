"""CEAT's random-effects pooling (Guo & Caliskan 2021; DerSimonian & Laird 1986): hand-computed cases, an
independent textbook implementation, limits, invariances and bad inputs."""
from math import sqrt

import numpy as np
import pytest
from scipy import stats

from wordbias.core.errors import DegenerateSetError, InvalidParameterError, ModelFileError, ModelUnavailable
from wordbias.measures.association.ceat import (
    dersimonian_laird_tau2,
    per_template_weat,
    pool_templates,
    random_effects,
    weat_variance,
)
from wordbias.measures.association.weat import effect_size


def _textbook(y, v, level=0.95):
    """Borenstein et al. (2009) ch. 12 written out independently: Q by its expanded form
    Σ w y² − (Σ w y)² / Σ w, the random-effects mean and variance by explicit loops."""
    y = [float(a) for a in y]
    v = [float(a) for a in v]
    k = len(y)
    w = [1.0 / a for a in v]
    sw = sum(w)
    swy = sum(wi * yi for wi, yi in zip(w, y))
    swy2 = sum(wi * yi * yi for wi, yi in zip(w, y))
    q = swy2 - swy ** 2 / sw
    c = sw - sum(wi * wi for wi in w) / sw
    tau2 = max(0.0, (q - (k - 1)) / c)
    ws = [1.0 / (vi + tau2) for vi in v]
    mu = sum(wi * yi for wi, yi in zip(ws, y)) / sum(ws)
    se = sqrt(1.0 / sum(ws))
    zc = stats.norm.ppf(1 - (1 - level) / 2)
    i2 = max(0.0, (q - (k - 1)) / q) if q > 0 else 0.0
    return dict(tau2=tau2, q=q, pooled=mu, se=se, low=mu - zc * se, high=mu + zc * se, z=mu / se,
                p_value=2 * stats.norm.sf(abs(mu / se)), i2=i2, weights=np.array(ws))


# --------------------------------------------------------------------------------------------------
# DerSimonian–Laird by hand
# --------------------------------------------------------------------------------------------------

def test_equal_variances_by_hand():
    # y = (0, 2, 4), v = (1, 1, 1): w = 1, ȳ = 2, Q = 4 + 0 + 4 = 8, df = 2, C = 3 − 3/3 = 2,
    # τ² = (8 − 2)/2 = 3, w* = 1/4 each, μ = 2, SE = sqrt(1/(3/4)) = sqrt(4/3), I² = 6/8
    r = random_effects([0.0, 2.0, 4.0], [1.0, 1.0, 1.0])
    assert r.q == pytest.approx(8.0)
    assert r.tau2 == pytest.approx(3.0)
    assert r.tau == pytest.approx(sqrt(3.0))
    assert r.weights == pytest.approx([0.25, 0.25, 0.25])
    assert r.pooled == pytest.approx(2.0)
    assert r.se == pytest.approx(sqrt(4.0 / 3.0))
    assert r.i2 == pytest.approx(0.75)
    assert r.k == 3 and r.df == 2
    assert r.z == pytest.approx(2.0 / sqrt(4.0 / 3.0))
    assert r.p_value == pytest.approx(2 * stats.norm.sf(sqrt(3.0)))
    assert r.low == pytest.approx(2.0 - 1.959963984540054 * sqrt(4.0 / 3.0))
    assert r.high == pytest.approx(2.0 + 1.959963984540054 * sqrt(4.0 / 3.0))
    assert r.q_p_value == pytest.approx(np.exp(-4.0))  # χ²₂ survival = exp(−Q/2)


def test_unequal_variances_by_hand():
    # y = (0, 1, 3), v = (1, 1/2, 1/4): w = (1, 2, 4), Σw = 7, ȳ_w = (0 + 2 + 12)/7 = 2,
    # Q = 1·4 + 2·1 + 4·1 = 10, C = 7 − 21/7 = 4, τ² = (10 − 2)/4 = 2,
    # w* = (1/3, 1/2.5, 1/2.25) = (15, 18, 20)/45, Σw* = 53/45,
    # μ = (0 + 0.4·1 + (4/9)·3)/(53/45) = (26/15)(45/53) = 78/53, SE = sqrt(45/53), I² = 8/10
    r = random_effects([0.0, 1.0, 3.0], [1.0, 0.5, 0.25])
    assert r.q == pytest.approx(10.0)
    assert r.tau2 == pytest.approx(2.0)
    assert r.weights == pytest.approx([1 / 3, 0.4, 4 / 9])
    assert r.pooled == pytest.approx(78.0 / 53.0)
    assert r.se == pytest.approx(sqrt(45.0 / 53.0))
    assert r.i2 == pytest.approx(0.8)
    assert r.studies_frame()["relative_weight"].tolist() == pytest.approx([15 / 53, 18 / 53, 20 / 53])


def test_four_studies_truncated_at_zero_by_hand():
    # y = (1, 1.2, 0.8, 1.0), v = 0.5 each: ȳ = 1, Q = 2·(0.04 + 0.04) = 0.16 < df = 3 → τ² = 0,
    # fixed-effect mean 1, SE = sqrt(0.5/4), I² = 0
    r = random_effects([1.0, 1.2, 0.8, 1.0], [0.5] * 4)
    assert r.q == pytest.approx(0.16)
    assert r.tau2 == 0.0
    assert r.i2 == 0.0
    assert r.pooled == pytest.approx(1.0)
    assert r.se == pytest.approx(sqrt(0.125))
    assert r.weights == pytest.approx([2.0] * 4)


def test_dersimonian_laird_tau2_function():
    tau2, q = dersimonian_laird_tau2([0.0, 1.0, 3.0], [1.0, 0.5, 0.25])
    assert (tau2, q) == (pytest.approx(2.0), pytest.approx(10.0))


def test_equal_effect_sizes_give_the_fixed_effect_limit():
    y = [0.7, 0.7, 0.7, 0.7]
    v = [0.1, 0.2, 0.05, 0.4]
    r = random_effects(y, v)
    assert r.tau2 == 0.0 and r.q == pytest.approx(0.0, abs=1e-12) and r.i2 == 0.0
    w = 1 / np.array(v)
    assert r.pooled == pytest.approx(0.7)
    assert r.se == pytest.approx(sqrt(1 / w.sum()))
    assert r.weights == pytest.approx(w)


# --------------------------------------------------------------------------------------------------
# an independent implementation, invariances, the tails
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_agrees_with_textbook_formulas(seed, level):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 30))
    y = rng.normal(0.5, 1.0, k)
    v = rng.uniform(0.01, 0.5, k)
    r = random_effects(y, v, confidence_level=level)
    ref = _textbook(y, v, level)
    for key in ("tau2", "q", "pooled", "se", "low", "high", "z", "p_value", "i2"):
        assert getattr(r, key) == pytest.approx(ref[key], rel=1e-10, abs=1e-12), key
    assert r.weights == pytest.approx(ref["weights"], rel=1e-10)
    assert (r.low, r.high) == pytest.approx(stats.norm.interval(level, loc=r.pooled, scale=r.se))


def test_matches_ceat_released_code_path():
    # the steps of ceat_meta (Guo & Caliskan, github.com/weiguowilliam/CEAT, code/ceat.py): v = sample variance
    # of s(w, A, B) over X ∪ Y per sample, Q in expanded form, τ² only when Q > df, one-sided p = Pr[Z ≥ z]
    rng = np.random.default_rng(7)
    n = 50
    sx = rng.normal(0.05, 0.03, (n, 6)) + rng.normal(0, 0.01, (n, 1))
    sy = rng.normal(0.0, 0.03, (n, 6))
    es = np.array([(a.mean() - b.mean()) / np.std(np.r_[a, b], ddof=1) for a, b in zip(sx, sy)])
    var = np.array([np.std(np.r_[a, b], ddof=1) ** 2 for a, b in zip(sx, sy)])
    w = 1 / var
    q = np.sum(w * es ** 2) - np.sum(es * w) ** 2 / np.sum(w)
    tau2 = (q - (n - 1)) / (np.sum(w) - np.sum(w ** 2) / np.sum(w)) if q > n - 1 else 0.0
    ws = 1 / (var + tau2)
    pes = np.sum(ws * es) / np.sum(ws)
    p = stats.norm.sf(pes / np.sqrt(1 / np.sum(ws)))
    r = pool_templates(sx, sy, alternative="greater")
    assert r.effect_sizes == pytest.approx(es) and r.variances == pytest.approx(var)
    assert r.pooled.tau2 == pytest.approx(tau2) and r.pooled.q == pytest.approx(q)
    assert r.pooled.pooled == pytest.approx(pes) and r.pooled.p_value == pytest.approx(p)


def test_order_of_studies_does_not_matter():
    rng = np.random.default_rng(3)
    y, v = rng.normal(size=12), rng.uniform(0.05, 0.3, 12)
    a = random_effects(y, v)
    perm = rng.permutation(12)
    b = random_effects(y[perm], v[perm])
    for key in ("pooled", "se", "low", "high", "z", "p_value", "tau2", "q", "i2"):
        assert getattr(a, key) == pytest.approx(getattr(b, key), rel=1e-12), key
    assert b.weights == pytest.approx(a.weights[perm])


def test_shift_and_sign_equivariance():
    rng = np.random.default_rng(4)
    y, v = rng.normal(size=8), rng.uniform(0.05, 0.3, 8)
    a = random_effects(y, v)
    shifted = random_effects(y + 2.5, v)
    assert shifted.pooled == pytest.approx(a.pooled + 2.5)
    assert (shifted.tau2, shifted.se, shifted.q) == pytest.approx((a.tau2, a.se, a.q))
    neg = random_effects(-y, v)
    assert neg.pooled == pytest.approx(-a.pooled) and neg.p_value == pytest.approx(a.p_value)


def test_alternatives():
    y, v = [0.2, 0.5, 0.9], [0.1, 0.2, 0.15]
    two = random_effects(y, v)
    greater = random_effects(y, v, alternative="greater")
    less = random_effects(y, v, alternative="less")
    assert greater.p_value == pytest.approx(stats.norm.sf(two.z))
    assert greater.p_value + less.p_value == pytest.approx(1.0)
    assert two.p_value == pytest.approx(2 * min(greater.p_value, less.p_value))
    assert (greater.low, greater.high) == (two.low, two.high)   # the interval stays two-sided
    assert greater.to_frame().loc[0, "alternative"] == "greater"


def test_tau2_recovers_the_simulated_between_study_variance():
    # y_i = μ + u_i + e_i, u_i ~ N(0, τ²), e_i ~ N(0, v_i): with many studies the DL estimate is close to τ²
    rng = np.random.default_rng(0)
    k, tau2, mu = 4000, 0.5, 1.0
    v = rng.uniform(0.05, 0.5, k)
    y = mu + rng.normal(0, sqrt(tau2), k) + rng.normal(0, np.sqrt(v))
    r = random_effects(y, v)
    assert r.tau2 == pytest.approx(tau2, abs=0.06)
    assert r.low < mu < r.high
    assert 0.5 < r.i2 < 1.0


def test_to_frame_columns():
    r = random_effects([0.0, 2.0, 4.0], [1.0, 1.0, 1.0])
    f = r.to_frame()
    assert len(f) == 1
    assert list(f.columns) == ["pooled", "se", "low", "high", "confidence_level", "z", "p_value", "alternative",
                               "tau2", "tau", "q", "df", "q_p_value", "i2", "k", "note"]
    assert f.loc[0, "tau2"] == pytest.approx(3.0)
    s = r.studies_frame()
    assert list(s.columns) == ["effect_size", "variance", "weight", "relative_weight"]
    assert s["relative_weight"].sum() == pytest.approx(1.0)


# --------------------------------------------------------------------------------------------------
# per-template WEAT and its within-template variance
# --------------------------------------------------------------------------------------------------

def test_weat_variance_by_hand():
    sx, sy = [1.0, 0.0], [-1.0, -0.5]
    # pooled (1, 0, −1, −0.5), mean −0.125, Σ dev² = 2.1875; ddof 1 → /3, ddof 0 → /4
    assert weat_variance(sx, sy) == pytest.approx(2.1875 / 3)
    assert weat_variance(sx, sy, ddof=0) == pytest.approx(2.1875 / 4)
    d = effect_size(sx, sy)
    assert weat_variance(sx, sy, method="hedges_olkin") == pytest.approx((2 + 2) / (2 * 2) + d * d / (2 * 4))


def test_per_template_matches_weat_row_by_row():
    rng = np.random.default_rng(1)
    sx, sy = rng.normal(0.1, 0.05, (5, 8)), rng.normal(0.0, 0.05, (5, 7))
    d, v = per_template_weat(sx, sy)
    assert d == pytest.approx([effect_size(a, b) for a, b in zip(sx, sy)])
    assert v == pytest.approx([np.var(np.concatenate([a, b]), ddof=1) for a, b in zip(sx, sy)])
    d2, v2 = per_template_weat(sx, sy, variance="hedges_olkin")
    assert d2 == pytest.approx(d)
    assert v2 == pytest.approx((8 + 7) / (8 * 7) + d ** 2 / (2 * 15))
    # the order of the words within a template changes nothing
    d3, v3 = per_template_weat(sx[:, ::-1], sy[:, rng.permutation(7)])
    assert d3 == pytest.approx(d) and v3 == pytest.approx(v)


def test_pool_templates_identical_templates_give_tau2_zero():
    row_x, row_y = [0.3, 0.1, 0.2], [0.0, -0.1, 0.05]
    r = pool_templates([row_x] * 4, [row_y] * 4, templates=["t1", "t2", "t3", "t4"])
    d = effect_size(row_x, row_y)
    assert r.pooled.tau2 == 0.0
    assert r.pooled.pooled == pytest.approx(d)
    v = np.var(row_x + row_y, ddof=1)
    assert r.pooled.se == pytest.approx(sqrt(v / 4))
    f = r.to_frame()
    assert f["template"].tolist() == ["t1", "t2", "t3", "t4"]
    assert f["effect_size"].tolist() == pytest.approx([d] * 4)


def test_pool_templates_equals_random_effects_on_the_table():
    rng = np.random.default_rng(2)
    sx = rng.normal(0.2, 0.1, (6, 5)) + rng.normal(0, 0.2, (6, 1))   # template-level shifts of X only
    sy = rng.normal(0.0, 0.1, (6, 5))
    for method in ("ceat", "hedges_olkin"):
        r = pool_templates(sx, sy, variance=method, confidence_level=0.9, alternative="greater")
        d, v = per_template_weat(sx, sy, variance=method)
        ref = random_effects(d, v, confidence_level=0.9, alternative="greater")
        assert r.pooled.pooled == pytest.approx(ref.pooled) and r.pooled.tau2 == pytest.approx(ref.tau2)
        assert r.templates == tuple(str(i) for i in range(6))
        assert r.variance == method


# --------------------------------------------------------------------------------------------------
# bad inputs
# --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("y, v", [
    ([0.1, 0.2], [0.1]),                 # lengths differ
    ([], []),                            # no study
    ([0.1, 0.2], [0.1, 0.0]),            # zero variance
    ([0.1, 0.2], [0.1, -0.2]),           # negative variance
    ([0.1, float("nan")], [0.1, 0.1]),   # not finite
    ([0.1, 0.2], [0.1, float("inf")]),
    ([[0.1, 0.2]], [[0.1, 0.2]]),        # 2-D
    ("ab", [0.1, 0.2]),                  # a string
    ([0.1, "x"], [0.1, 0.2]),
])
def test_bad_studies(y, v):
    with pytest.raises(InvalidParameterError):
        random_effects(y, v)


@pytest.mark.parametrize("kwargs", [{"confidence_level": 1.0}, {"confidence_level": 0.0}, {"confidence_level": "0.9"},
                                    {"alternative": "two_sided"}])
def test_bad_options(kwargs):
    with pytest.raises(InvalidParameterError):
        random_effects([0.1, 0.2], [0.1, 0.1], **kwargs)


def test_bad_template_scores():
    sx, sy = np.ones((3, 2)) * [[1.0, 0.0]], np.ones((3, 2)) * [[-1.0, 0.5]]
    with pytest.raises(InvalidParameterError):
        per_template_weat(sx, sy[:2])                      # different numbers of templates
    with pytest.raises(InvalidParameterError):
        per_template_weat(sx[0], sy[0])                    # 1-D
    with pytest.raises(InvalidParameterError):
        per_template_weat(sx, sy, variance="cohen")
    with pytest.raises(InvalidParameterError):
        pool_templates(sx, sy, templates=["a", "b"])       # labels do not match the rows
    with pytest.raises(InvalidParameterError):
        pool_templates(sx, sy, templates="abc")
    with pytest.raises(InvalidParameterError):
        per_template_weat(np.full((3, 2), np.nan), sy)
    with pytest.raises(DegenerateSetError):
        per_template_weat(np.zeros((3, 2)), np.zeros((3, 2)))   # no spread: d undefined
    with pytest.raises(InvalidParameterError):
        weat_variance([1.0, 0.0], [0.5], method="x")


# --------------------------------------------------------------------------------------------------
# on models, offline: the planted tiny masked LM (Kurita scores) and the bundled MiniLM (contextual WEAT)
# --------------------------------------------------------------------------------------------------

def test_pool_templates_on_planted_masked_lm(tmp_path):
    from wordbias.measures.language_models import mlm
    from wordbias.models import tiny_mlm

    male, female = ["programmer", "executive", "engineer"], ["nurse", "home", "family"]
    m = mlm.load_mlm(str(tiny_mlm.build(tmp_path, male=male, female=female, seed=0)), device="cpu")
    templates = ["TARGET is a ATTRIBUTE", "TARGET likes ATTRIBUTE", "TARGET works as ATTRIBUTE"]
    ilp = mlm.increased_log_probability(m, templates, ["he", "she"], male + female)   # [T, 2, 6]
    bias = ilp[:, 0, :] - ilp[:, 1, :]
    r = pool_templates(bias[:, :3], bias[:, 3:], templates=templates, alternative="greater")
    assert np.all(r.effect_sizes > 1.0)                     # planted: career words favour "he" in every template
    assert r.pooled.pooled > 1.0 and r.pooled.p_value < 0.01
    assert r.pooled.low <= r.pooled.pooled <= r.pooled.high
    assert r.to_frame()["template"].tolist() == templates
    # per template, d is WEAT's effect size on that template's scores
    assert r.effect_sizes == pytest.approx([effect_size(b[:3], b[3:]) for b in bias])


def test_pool_templates_on_contextual_vectors():
    from wordbias.measures.association.weat import association
    from wordbias.models import contextual

    try:
        enc = contextual.load_encoder(contextual.BUNDLED_ENCODER, device="cpu")
    except (ModelUnavailable, ModelFileError, ImportError) as exc:  # pragma: no cover
        pytest.skip(f"bundled encoder unavailable: {exc}")
    X, Y = ["math", "algebra", "geometry"], ["poetry", "art", "dance"]
    A, B = ["man", "boy", "brother"], ["woman", "girl", "sister"]
    templates = ["This is about TARGET and ATTRIBUTE.", "I think of TARGET when I hear ATTRIBUTE."]

    def vecs(words, t, slot, other):
        return contextual.word_in_template_embeddings(enc, words, [t], slot=slot, other=other)

    sx, sy = [], []
    for t in templates:
        va, vb = vecs(A, t, "ATTRIBUTE", "TARGET"), vecs(B, t, "ATTRIBUTE", "TARGET")
        sx.append(association(vecs(X, t, "TARGET", "ATTRIBUTE"), va, vb))
        sy.append(association(vecs(Y, t, "TARGET", "ATTRIBUTE"), va, vb))
    sx, sy = np.array(sx), np.array(sy)
    for method in ("ceat", "hedges_olkin"):
        r = pool_templates(sx, sy, templates=templates, variance=method)
        assert r.effect_sizes.shape == (2,) and np.all(np.isfinite(r.effect_sizes))
        assert r.effect_sizes == pytest.approx([effect_size(a, b) for a, b in zip(sx, sy)])
        ref = _textbook(r.effect_sizes, r.variances)
        assert r.pooled.pooled == pytest.approx(ref["pooled"]) and r.pooled.tau2 == pytest.approx(ref["tau2"])


def test_one_study_is_flagged_not_pooled():
    """k = 1: Q = C = 0 and tau2 cannot be estimated: the study's own estimate, no interval or p, and a note."""
    r = random_effects([0.8], [0.04], alternative="greater")
    assert (r.pooled, r.q, r.k) == (0.8, 0.0, 1)
    assert all(np.isnan(x) for x in (r.se, r.low, r.high, r.z, r.p_value, r.tau2, r.i2))
    assert "no between-study variance" in r.note and r.to_frame().loc[0, "note"] == r.note
