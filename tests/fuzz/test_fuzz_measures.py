"""Fuzzing the measures a researcher calls: WEAT (whole test and from scores), the permutation engine, the
bootstraps (WEAT, scores, the report's cosine), WEFAT, direct bias and the multiple-testing adjustments.

Each test: the call returns a result that satisfies the invariants its docstring states, or raises one of
wordbias's own errors with a message (strategies.outcome); anything else is a finding.
"""
from __future__ import annotations

import math

import numpy as np
import strategies as fz
from hypothesis import given
from hypothesis import strategies as st

from wordbias.measures.association import bootstrap, weat, wefat
from wordbias.measures.directions import bootstrap_direction, direction
from wordbias.stats import multiple
from wordbias.stats import permutation as perm

# --------------------------------------------------------------------------------------------------
# WEAT, the whole test
# --------------------------------------------------------------------------------------------------

WEAT_OPTIONS = st.fixed_dictionaries({}, optional={
    "p_method": fz.P_METHODS, "alternative": fz.ALTERNATIVES, "ddof": fz.DDOFS, "seed": fz.SEEDS,
    "n_permutations": fz.int_option(1, 3000), "balance_targets": st.sampled_from(["random", "none", "raise", "x", None]),
    "on_missing": st.sampled_from(["drop", "raise", "ignore", None]), "case_fold": fz.BOOLS,
    "names": st.sampled_from([None, {"X": "Flowers"}, {"X": 1}, {}, "XYAB"]),
})
#: the loose options that a measure takes inside ``resampling=`` (``method`` is the bootstrap's ``ci_method``)
RESAMPLING_KEYS = {"n_resamples": "n_resamples", "confidence_level": "confidence_level", "method": "ci_method",
                   "n_permutations": "n_permutations", "seed": "seed"}


def _with_options(f, words_keys=("case_fold", "on_missing", "balance_targets")):
    """``f`` called with loose options, those of Resampling and Words made into them inside the call (an option
    out of range raises there, the measure's own error), from ``weat``'s defaults."""
    def call(*args, **opts):
        res = {RESAMPLING_KEYS[k]: opts.pop(k) for k in list(opts) if k in RESAMPLING_KEYS}
        wds = {k: opts.pop(k) for k in list(opts) if k in words_keys}
        if res:
            opts["resampling"] = weat.DEFAULT_RESAMPLING.replace(**res)
        if wds:
            opts["words"] = weat.DEFAULT_WORDS.replace(**wds)
        return f(*args, **opts)
    return call


def _check_sets_kept(result, given_lists, opts) -> None:
    """Words used + dropped (unknown) + balanced out = words given, for each of X, Y, A, B."""
    for s, given_words in zip((result.X, result.Y, result.A, result.B), given_lists):
        assert len(s.words) + len(s.missing) + len(s.balanced_out) == len(s.requested), s
        if isinstance(given_words, (list, tuple)):
            assert len(s.requested) == len(given_words), (s, given_words)
        assert set(s.words) <= set(s.requested)
        assert not set(s.words) & set(s.missing)


def _check_weat_result(r, given_lists, opts) -> None:
    ddof = int(opts.get("ddof", 1))
    assert len(r.X.words) >= weat.MIN_TARGET_SIZE and len(r.Y.words) >= weat.MIN_TARGET_SIZE
    assert len(r.A.words) >= weat.MIN_ATTRIBUTE_SIZE and len(r.B.words) >= weat.MIN_ATTRIBUTE_SIZE
    assert isinstance(r.effect_size, float) and math.isfinite(r.effect_size), r.effect_size
    assert abs(r.effect_size) <= fz.d_bound(len(r.X.words), len(r.Y.words), ddof) + 1e-9, r
    if opts.get("balance_targets", "random") != "none":
        assert len(r.X.words) == len(r.Y.words)
        assert abs(r.effect_size) <= 2 + 1e-9
    assert math.isfinite(r.statistic)
    assert fz.is_probability(r.p_value), r.p
    assert r.alternative == opts.get("alternative", "greater")
    assert r.p_method in ("exact", "monte-carlo", "normal")
    _check_sets_kept(r, given_lists, opts)


@fz.fuzz(150)
@given(emb=fz.embeddings(), sets=fz.four_sets(), opts=WEAT_OPTIONS)
def test_weat(emb, sets, opts):
    documented = (KeyError,) if opts.get("on_missing") == "raise" else ()   # on_missing="raise": KeyError
    status, r = fz.outcome(_with_options(weat.weat), emb, *sets, documented=documented, **opts)
    if status == "ok":
        _check_weat_result(r, sets, opts)


@fz.fuzz(60)
@given(emb=fz.embeddings(odd=False), sets=fz.four_sets(junk=False),
       opts=st.fixed_dictionaries({}, optional={"alternative": st.sampled_from(["greater", "less", "two-sided"]),
                                                "ddof": st.sampled_from([0, 1]),
                                                "balance_targets": st.sampled_from(["random", "none"]),
                                                "p_method": st.sampled_from(["auto", "exact", "normal", "mc"]),
                                                "n_permutations": st.integers(1, 2000)}))
def test_weat_clean_inputs(emb, sets, opts):
    """Valid options, finite non-degenerate float32 vectors, plain word lists: results must satisfy the
    invariants (the interesting failures here are numerical)."""
    status, r = fz.outcome(_with_options(weat.weat), emb, *sets, **opts)
    if status == "ok":
        _check_weat_result(r, sets, opts)


# --------------------------------------------------------------------------------------------------
# WEAT from scores, and the permutation engine
# --------------------------------------------------------------------------------------------------

SCORES = st.one_of(
    st.lists(fz.NICE_FLOATS, max_size=8),
    st.lists(st.one_of(fz.NICE_FLOATS, fz.ODD_FLOATS), max_size=8),
    st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=8),   # up to 1.8e308
    st.lists(fz.NICE_FLOATS, min_size=1, max_size=8).map(lambda v: np.array(v).reshape(1, -1)),
    st.sampled_from([[], None, "abc", [[1.0, 2.0], [3.0]], ["a", "b"], 3.0, [1.0, None], {1.0: 2}]),
)


@fz.fuzz(100)
@given(s_x=SCORES, s_y=SCORES, opts=st.fixed_dictionaries({}, optional={
    "p_method": fz.P_METHODS, "alternative": fz.ALTERNATIVES, "ddof": fz.DDOFS, "seed": fz.SEEDS,
    "n_permutations": fz.int_option(1, 3000), "max_seconds": fz.MAX_SECONDS}))
def test_weat_from_scores(s_x, s_y, opts):
    status, out = fz.outcome(weat.weat_from_scores, s_x, s_y, **opts)
    if status == "ok":
        statistic, d, p = out
        n_x, n_y = np.size(s_x), np.size(s_y)
        assert math.isfinite(statistic), statistic
        assert math.isfinite(d) and abs(d) <= fz.d_bound(n_x, n_y, int(opts.get("ddof", 1))) + 1e-9, d
        assert fz.is_probability(p.p_value), p


@fz.fuzz(100)
@given(values=SCORES, k=fz.int_option(0, 9), observed=st.one_of(st.floats(), st.sampled_from([0.0, 1.0, "1", None])),
       opts=st.fixed_dictionaries({}, optional={
           "p_method": fz.P_METHODS, "alternative": fz.ALTERNATIVES, "seed": fz.SEEDS,
           "n_permutations": fz.int_option(1, 3000), "max_seconds": fz.MAX_SECONDS,
           "exact_max_n": fz.int_option(0, 60)}))
def test_subset_sum_tail(values, k, observed, opts):
    status, p = fz.outcome(perm.subset_sum_tail, values, k, observed, **opts)
    if status == "ok":
        assert fz.is_probability(p.p_value), p
        assert p.p_method in ("exact", "monte-carlo", "normal")
        if p.p_method == "exact":
            assert p.n_partitions == math.comb(np.size(values), int(k))
            assert 0 <= p.n_extreme <= p.n_partitions


def test_subset_sum_tail_unsigned_k():
    """Found by a long run (WORDBIAS_FUZZ=long), kept as a fixed case: an unsigned numpy k wraps around in
    ``k - m`` (the generated test does not always draw it)."""
    status, p = fz.outcome(perm.subset_sum_tail, [0.0, 1.0, 2.0, 3.0], np.uint8(1), 3.0)
    if status == "ok":
        assert p.p_value == 0.25


# --------------------------------------------------------------------------------------------------
# the bootstraps
# --------------------------------------------------------------------------------------------------

BOOT_OPTIONS = st.fixed_dictionaries({}, optional={
    "n_resamples": fz.N_RESAMPLES, "confidence_level": fz.CONFIDENCE, "method": fz.BOOT_METHODS,
    "seed": fz.SEEDS, "ddof": fz.DDOFS})


def _check_interval(iv, opts, *, estimate_bound: float | None = None) -> None:
    assert math.isfinite(iv.estimate), iv
    if estimate_bound is not None:
        assert abs(iv.estimate) <= estimate_bound + 1e-9, iv
    if not (math.isnan(iv.low) or math.isnan(iv.high)):
        assert iv.low <= iv.high, iv
    assert 0 <= iv.n_undefined <= iv.n_resamples
    assert iv.n_resamples == int(opts.get("n_resamples", 10_000))


@st.composite
def four_matrices(draw):
    dim = draw(st.integers(1, 3))
    out = []
    for _ in range(4):
        n = draw(st.integers(0, 4))
        d = dim if draw(st.integers(0, 8)) else draw(st.integers(1, 4))
        out.append(draw(fz.matrices(n, d)))
    if draw(st.integers(0, 8)) == 0:
        out[draw(st.integers(0, 3))] = draw(st.sampled_from([[], [1.0, 2.0], [[[1.0]]], None, "ab", [[1, 2], [3]]]))
    return out


@fz.fuzz(100)
@given(mats=four_matrices(), opts=BOOT_OPTIONS, resample=fz.RESAMPLE_WEAT)
def test_weat_bootstrap_from_vectors(mats, opts, resample):
    opts = dict(opts, n_resamples=opts.get("n_resamples", 30))
    status, r = fz.outcome(bootstrap.weat_bootstrap_from_vectors, *mats, resample=resample, **opts)
    if status == "ok":
        n_x, n_y = r.sizes[:2]
        _check_interval(r.effect_size, opts, estimate_bound=fz.d_bound(n_x, n_y, int(opts.get("ddof", 1))))
        _check_interval(r.statistic, opts)


@fz.fuzz(60)
@given(emb=fz.embeddings(), sets=fz.four_sets(), opts=BOOT_OPTIONS, case_fold=fz.BOOLS)
def test_weat_bootstrap_on_embedding(emb, sets, opts, case_fold):
    opts = dict(opts, n_resamples=opts.get("n_resamples", 30))
    # documented: words not in the embedding raise KeyError ("run weat() first to drop them")
    status, r = fz.outcome(_with_options(bootstrap.weat_bootstrap, words_keys=()), emb, *sets, case_fold=case_fold,
                           documented=(KeyError,), **opts)
    if status == "ok":
        assert r.sizes == tuple(len(s) for s in sets)
        _check_interval(r.effect_size, opts, estimate_bound=fz.d_bound(r.sizes[0], r.sizes[1],
                                                                       int(opts.get("ddof", 1))))
        _check_interval(r.statistic, opts)


@fz.fuzz(80)
@given(s_a=SCORES, s_b=SCORES, opts=BOOT_OPTIONS)
def test_effect_size_bootstrap(s_a, s_b, opts):
    opts = dict(opts, n_resamples=opts.get("n_resamples", 30))
    status, r = fz.outcome(bootstrap.effect_size_bootstrap, s_a, s_b, **opts)
    if status == "ok":
        _check_interval(r.effect_size, opts, estimate_bound=fz.d_bound(*r.sizes, int(opts.get("ddof", 1))))
        _check_interval(r.statistic, opts)


@fz.fuzz(60)
@given(mats=four_matrices(), opts=BOOT_OPTIONS.map(lambda o: {k: v for k, v in o.items() if k != "ddof"}),
       resample=st.one_of(st.just(("T1", "T2", "A1", "A2")), st.sampled_from(["T1", ["T1", "A2"], "X", "", None])),
       normalize=fz.BOOLS, batch=st.sampled_from([None, None, 1, 7, 0, -1, 2.5, 10 ** 12]))
def test_direction_bootstrap(mats, opts, resample, normalize, batch):
    opts = dict(opts, n_resamples=opts.get("n_resamples", 30))
    status, iv = fz.outcome(bootstrap_direction.direction_bootstrap_from_vectors, *mats, resample=resample,
                            normalize=normalize, batch=batch, **opts)
    if status == "ok":
        _check_interval(iv, opts, estimate_bound=1.0)


# --------------------------------------------------------------------------------------------------
# WEFAT, direct bias, multiple testing
# --------------------------------------------------------------------------------------------------

PROPERTIES = st.one_of(
    st.dictionaries(st.sampled_from(fz.VOCAB), st.one_of(fz.NICE_FLOATS, fz.ODD_FLOATS, st.integers())),
    st.dictionaries(st.one_of(st.sampled_from(fz.VOCAB), st.integers(), st.none()),
                    st.one_of(fz.NICE_FLOATS, st.text(max_size=3), st.none(), st.booleans()), max_size=5),
    st.sampled_from([None, [1.0, 2.0], "nurse", 3.0]),
)


@fz.fuzz(80)
@given(emb=fz.embeddings(), sets=fz.four_sets(), prop=PROPERTIES, opts=st.fixed_dictionaries({}, optional={
    "ddof": fz.DDOFS, "case_fold": fz.BOOLS, "on_missing": st.sampled_from(["drop", "raise", "skip"]),
    "name_filter": st.sampled_from([None, 0.2, 0.5, 0.0, 1.0, -0.1, "0.2", float("nan"), 0.99]),
    "filter_metric": st.sampled_from(["euclidean", "cosine", "manhattan", None])}))
def test_wefat(emb, sets, prop, opts):
    W, A, B = sets[0], sets[2], sets[3]
    documented = (KeyError,) if opts.get("on_missing") == "raise" else ()
    status, r = fz.outcome(wefat.wefat, emb, W, A, B, prop, documented=documented, **opts)
    if status == "ok":
        assert -1 - 1e-12 <= r.pearson_r <= 1 + 1e-12, r.pearson_r
        assert fz.is_probability(float(r.p_value)), r.p_value
        assert r.n == len(r.table) >= wefat.MIN_WORDS


@fz.fuzz(60)
@given(X=st.one_of(st.integers(0, 4).flatmap(lambda n: fz.matrices(n, 2)),
                   st.sampled_from([[], [1.0, 2.0], None, "ab", [[1, 2], [3]]])),
       g=st.one_of(fz.matrices(1, 2).map(lambda m: m[0]), st.sampled_from([[0.0, 0.0], [1.0], [[1.0, 0.0]], None])),
       c=st.one_of(st.floats(0, 4), st.sampled_from([-1.0, float("nan"), float("inf"), "1", None, True, 1e308])),
       atol=st.sampled_from([0.0, 1e-6, -1.0, float("nan"), "0"]))
def test_direct_bias(X, g, c, atol):
    status, v = fz.outcome(direction.direct_bias, X, g, c, atol=atol)
    if status == "ok":
        assert isinstance(v, float) and 0.0 <= v <= 1.0, v


@fz.fuzz(60)
@given(p=st.one_of(st.lists(st.one_of(st.floats(0, 1), fz.ODD_FLOATS, st.floats()), max_size=6),
                   st.sampled_from([[], None, "0.5", [[0.1, 0.2]], [0.1, "a"], 0.3])),
       fn=st.sampled_from([multiple.holm, multiple.benjamini_hochberg]))
def test_multiple_testing(p, fn):
    status, adj = fz.outcome(fn, p)
    if status == "ok":
        adj = np.asarray(adj)
        assert adj.shape == np.shape(p)
        assert np.all((adj >= 0) & (adj <= 1)), adj
        assert np.all(adj >= np.asarray(p, dtype=float) - 1e-12)
