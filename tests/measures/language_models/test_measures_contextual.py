"""Kurita et al.'s (2019) tests measured once (wordbias.measures.language_models.contextual): the reduced lists, the contextual
vectors per template and their mean, WEAT on them with its interval and two-sided p, the log-probability test,
and results that say why a test did not run. On the tiny planted masked LM (career words male, family female)."""
import collections

import numpy as np
import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.datasets.contextual_tests import ROLES, kurita2019_categories
from wordbias.measures.association import bootstrap, weat
from wordbias.measures.language_models import contextual as mc
from wordbias.measures.language_models import mlm
from wordbias.models import contextual, tiny_mlm
from wordbias.options import Resampling, Words


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    out = tmp_path_factory.mktemp("tiny")
    tiny_mlm.main([str(out)])
    return contextual.load_encoder(str(out), device="cpu"), contextual.load_mlm(str(out), device="cpu")


def _counting(monkeypatch, calls, module, name):
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls[name] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_each_test_is_measured_once(models, monkeypatch):
    enc, masked_lm = models
    cats = kurita2019_categories()[2:4]
    glove = {w: np.random.default_rng(len(w)).normal(size=5) for c in cats for r in ROLES for w in c.sets[r]}
    calls = collections.Counter()
    for module, name in ((weat, "weat"), (bootstrap, "weat_bootstrap"), (mlm, "attribute_test"),
                         (mlm, "log_prob_bias_scores")):
        _counting(monkeypatch, calls, module, name)
    results = mc.measure(cats, encoder=enc, masked_lm=masked_lm, embedding=glove, embedding_name="toy",
                         resampling=Resampling(n_permutations=500, n_resamples=200))
    assert [(r.category.key, r.measure) for r in results] == [(c.key, m) for c in cats for m in mc.MEASURES]
    # per category: WEAT on the embedding and on the contextual vectors, each with one interval; one attribute test
    assert calls == {"weat": 4, "weat_bootstrap": 4, "attribute_test": 2, "log_prob_bias_scores": 2}
    assert all(r.ran and not r.not_run for r in results)


def test_the_contextual_weat_runs_on_the_mean_of_the_vectors_per_template(models):
    enc, _ = models
    cat = kurita2019_categories()[3]  # math/arts: gender words fill TARGET, math/arts words ATTRIBUTE
    (r,) = mc.measure([cat], encoder=enc, masked_lm=None, resampling=mc.DEFAULT_RESAMPLING.replace(n_resamples=200))[:1]
    reduced = r.reduced
    assert r.measure == "contextual_weat" and r.model == enc.label
    by_template = mc.vectors_by_template(cat, reduced, enc)
    assert all(np.array_equal(by_template[w], r.vectors[w]) for w in by_template)  # deterministic, kept in the result
    mean = mc.mean_over_templates(cat, reduced, by_template)
    want = weat.weat(mean, *(reduced[x].words for x in ROLES), words=Words(balance_targets="raise", case_fold=False))
    assert (r.effect_size, r.statistic, r.p_value) == (want.effect_size, want.statistic, want.p_value)
    # "he" in the TARGET slot with ATTRIBUTE masked, averaged over the templates
    he = contextual.word_in_template_embeddings(enc, ["he"], cat.cosine_templates, slot="TARGET", other="ATTRIBUTE")
    np.testing.assert_allclose(mean["he"], he[0], rtol=1e-5, atol=1e-6)
    one_pass = mc.contextual_vectors(cat, reduced, enc)
    np.testing.assert_allclose(one_pass["he"], he[0])
    # the interval and the two-sided p are those of this WEAT on these vectors
    ci = bootstrap.weat_bootstrap(mean, want, resampling=Resampling(n_resamples=200, seed=0)).effect_size
    assert (r.ci_low, r.ci_high) == (ci.low, ci.high)
    assert r.p_two_sided == weat.p_value(want.s_x, want.s_y, alternative="two-sided").p_value
    with pytest.raises(InvalidParameterError, match="template vectors lack"):
        mc.mean_over_templates(cat, reduced, {})


def test_the_log_prob_test_finds_the_planted_bias(models):
    _, masked_lm = models
    career = kurita2019_categories()[2]
    (r,) = [x for x in mc.measure([career], encoder=None, masked_lm=masked_lm,
                                            resampling=mc.DEFAULT_RESAMPLING.replace(n_resamples=200))
            if x.measure == "mlm_log_prob"]
    t = r.test
    assert np.all(t.scores_A > 0) and np.all(t.scores_B < 0)
    assert r.effect_size > 1.5 and r.p_value < 0.01 and r.p_method == "exact"
    assert (r.ci_low, r.ci_high) == (t.effect_size_ci.low, t.effect_size_ci.high)
    assert r.p_two_sided == t.p_two_sided and r.defined and r.undefined == ""
    # math/arts is not planted: every score is 0 up to float rounding, and the result says so
    (u,) = [x for x in mc.measure(kurita2019_categories()[3:4], encoder=None, masked_lm=masked_lm,
                                            resampling=mc.DEFAULT_RESAMPLING.replace(n_resamples=200))
            if x.measure == "mlm_log_prob"]
    assert u.ran and not u.defined and u.undefined.startswith("undefined")
    assert np.isnan(u.effect_size) and np.isnan(u.p_value) and u.p_method is None and u.alternative == "greater"


def test_results_say_why_a_test_did_not_run(models):
    enc, _ = models
    cat = kurita2019_categories()[2]
    results = mc.measure([cat], encoder=None, masked_lm=None, vocabulary_model=enc,
                         why_not_run={"contextual_weat": "no encoder here", "mlm_log_prob": "no MLM here"})
    assert [(r.measure, r.model, r.not_run, r.ran) for r in results] == [
        ("contextual_weat", "", "no encoder here", False), ("mlm_log_prob", "", "no MLM here", False)]
    assert all(r.reduced is not None and np.isnan(r.effect_size) for r in results)
    # targets that are not words of the vocabulary: the reason, not an error, and no test ran
    from dataclasses import replace

    odd = replace(cat, key="odd", sets={**cat.sets, "X": ("qzxv", "wqzx"), "Y": ("zzqx", "xqzz")})
    res = mc.measure([odd], encoder=enc, masked_lm=None)
    assert res[0].not_run.startswith("Career/Family (Male/Female): only 0 words of") and res[0].model == enc.label
    with pytest.raises(InvalidParameterError, match="n_permutations"):
        mc.measure([cat], encoder=None, masked_lm=None, resampling=Resampling(n_permutations=0))
    for bad, match in ((Resampling(n_resamples=0), "n_resamples must be >= 2"),
                       (Resampling(ci_method="percentile"), "ci_method must be 'BCa'"),
                       ({"seed": 0}, "resampling must be a Resampling or None, not dict")):
        with pytest.raises(InvalidParameterError, match=match):
            mc.measure([cat], encoder=None, masked_lm=None, vocabulary_model=enc, resampling=bad)
    with pytest.raises(InvalidParameterError, match="words must be a Words or None"):
        mc.measure([cat], encoder=None, masked_lm=None, vocabulary_model=enc, words={"case_fold": True})
    with pytest.raises(InvalidParameterError, match=r"why_not_run names measures.*\['weat'\]"):
        mc.measure([cat], encoder=None, masked_lm=None, vocabulary_model=enc, why_not_run={"weat": "x"})
    with pytest.raises(InvalidParameterError, match="needs a model whose vocabulary"):
        mc.measure([cat], encoder=None, masked_lm=None)


def test_reduce_to_vocabulary_is_seeded(models):
    enc, _ = models
    ea = kurita2019_categories()[1]
    red = mc.reduce_to_vocabulary(ea, enc, seed=0)
    assert len(red["X"].words) == len(red["Y"].words) == 5 and len(red["X"].balanced_out) == 13
    assert red["A"].words == ea.sets["A"]
    assert mc.reduce_to_vocabulary(ea, enc, seed=0) == red
    assert mc.reduce_to_vocabulary(ea, enc, seed=1)["X"].words != red["X"].words
