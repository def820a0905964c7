"""The log-probability bias score (Kurita et al. 2019, §2, §3.2) on tiny BERT masked LMs built here.

The planted model (:mod:`wordbias.models.tiny_mlm`) makes the expected sign known; a randomly initialised BERT
checks the pipeline against a plain one-sentence-at-a-time computation.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from wordbias.core.errors import DegenerateSetError, ModelUnavailable
from wordbias.measures.association import weat
from wordbias.measures.language_models import mlm
from wordbias.models import tiny_mlm

MALE = ["programmer", "executive", "engineer"]
FEMALE = ["nurse", "home", "family"]
NEUTRAL = ["table", "window"]
HE_SHE = [mlm.TemplatePairs("TARGET is a ATTRIBUTE", (("he", "she"),))]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    path = tiny_mlm.build(tmp_path_factory.mktemp("planted"), male=MALE, female=FEMALE, seed=0)
    return mlm.load_mlm(str(path), device="cpu")


@pytest.fixture(scope="module")
def random_bert(tmp_path_factory):
    """A randomly initialised 2-layer BERT MLM (gelu, real attention) with the bert-base-uncased vocabulary."""
    from transformers import BertConfig, BertForMaskedLM

    torch.manual_seed(0)
    tok = tiny_mlm.bert_uncased_tokenizer()
    model = BertForMaskedLM(BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                       intermediate_size=64, max_position_embeddings=64))
    out = tmp_path_factory.mktemp("random_bert")
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return mlm.load_mlm(str(out), device="cpu")


def naive_log_p(m, sentence: str, first_mask: int, target: str) -> float:
    """log P(target's pieces at the masks starting at ``first_mask``), one sentence, no batching."""
    enc = m.tokenizer(sentence, return_tensors="pt")
    with torch.no_grad():
        logp = torch.log_softmax(m.model(**enc).logits[0].double(), dim=-1)
    masks = (enc["input_ids"][0] == m.tokenizer.mask_token_id).nonzero().flatten().tolist()
    ids = m.tokenizer(target, add_special_tokens=False)["input_ids"]
    return float(sum(logp[masks[first_mask + i], t] for i, t in enumerate(ids)))


# ---- sign and magnitude on the planted model ---------------------------------------------------------------

def test_planted_sign(planted):
    s = mlm.log_prob_bias_scores(planted, MALE + FEMALE + NEUTRAL, HE_SHE)
    assert np.all(s[:3] > 0.05), s
    assert np.all(s[3:6] < -0.05), s
    assert np.allclose(s[6:], 0.0, atol=1e-5), s


def test_planted_magnitude_is_the_hidden_state(planted):
    """score = [logit(he) − logit(she)] at the mask, minus the same in the prior sentence, which is 0 by
    construction; logit(he) − logit(she) = 2·target_gap·h₀, read here from the model's own submodules."""
    s = mlm.log_prob_bias_scores(planted, ["programmer", "nurse"], HE_SHE)
    net = planted.model
    for word, score in zip(["programmer", "nurse"], s):
        enc = planted.tokenizer(f"[MASK] is a {word}", return_tensors="pt")
        with torch.no_grad():
            h = net.cls.predictions.transform(net.bert(**enc).last_hidden_state)[0]
        pos = int((enc["input_ids"][0] == planted.tokenizer.mask_token_id).nonzero()[0])
        assert score == pytest.approx(2 * 1.0 * float(h[pos, 0]), abs=1e-5)


def test_planted_antisymmetric_and_grows_with_strength(tmp_path):
    scores, noise = {}, {}
    for name, kw in {"male1": dict(male=["engineer"]), "female1": dict(female=["engineer"]),
                     "male3": dict(male=["engineer"], strength=6.0)}.items():
        m = mlm.load_mlm(str(tiny_mlm.build(tmp_path / name, seed=3, **kw)), device="cpu")
        sc, noise[name] = mlm.log_prob_bias_scores(m, ["engineer"], HE_SHE, return_noise=True)
        scores[name] = sc[0]
    assert scores["male1"] > 0
    # the two planted models are mirror images: equal up to the float32 rounding of their log probabilities,
    # which depends on the CPU's kernels (so the tolerance is the rounding width, not a fixed 1e-6)
    assert 0 < noise["male1"] < 1e-3 * abs(scores["male1"])
    assert scores["female1"] == pytest.approx(-scores["male1"], abs=max(noise["male1"], noise["female1"]))
    assert scores["male3"] > scores["male1"] + 0.1


def test_context_free_model_has_no_bias(tmp_path):
    m = mlm.load_mlm(str(tiny_mlm.build(tmp_path, male=MALE, female=FEMALE, layers=0)), device="cpu")
    s, noise = mlm.log_prob_bias_scores(m, MALE + FEMALE, HE_SHE, return_noise=True)
    assert np.all(np.abs(s) <= noise)  # 0 up to float rounding
    t = mlm.attribute_test(s[:len(MALE)], s[len(MALE):], noise=noise)
    assert np.isnan(t.effect_size) and np.isnan(t.p_value) and "equal up to float rounding" in t.undefined
    assert np.isnan(mlm.share_favouring_first(s, noise))


def test_rounding_noise_rule():
    # 64 float32 ULPs of the largest log probability: 64 * 2**-21 at |log p| in [4, 8)
    assert mlm.rounding_noise(-5.0) == 64 * 2.0 ** -21
    a, b = np.array([0.3, 0.1, 0.2]), np.array([-0.1, 0.0, -0.2])
    assert mlm.attribute_test(a, b, noise=1e-6).effect_size == mlm.attribute_test(a, b).effect_size
    tied = mlm.attribute_test(a * 1e-9, b * 1e-9, noise=1e-6)
    assert np.isnan(tied.effect_size) and tied.p is None and tied.summary()["undefined"]
    assert mlm.share_favouring_first([0.5, -0.2, 1e-9, -1e-9], noise=1e-6) == 0.25


def test_planted_words_must_be_one_piece(tmp_path):
    with pytest.raises(ValueError, match="WordPieces"):
        tiny_mlm.build(tmp_path, male=["shakespear"])


# ---- the pipeline against a plain computation --------------------------------------------------------------

@pytest.mark.parametrize("attribute", ["math", "shakespear", "exec secretary/office mgr"])
@pytest.mark.parametrize("prior_mask", ["per_piece", "single"])
def test_increased_log_probability_matches_naive(random_bert, attribute, prior_mask):
    m = random_bert
    template = "the TARGET is interested in ATTRIBUTE"
    inc = mlm.increased_log_probability(m, [template], ["he", "women"], [attribute], prior_mask=prior_mask)
    n_attr = len(m.tokenizer(attribute, add_special_tokens=False)["input_ids"]) if prior_mask == "per_piece" else 1
    prior = "the [MASK] is interested in " + " ".join(["[MASK]"] * n_attr)
    for gi, target in enumerate(["he", "women"]):
        want = naive_log_p(m, f"the [MASK] is interested in {attribute}", 0, target) - naive_log_p(m, prior, 0, target)
        assert inc[0, gi, 0] == pytest.approx(want, abs=1e-4)


def test_target_after_attribute_and_multi_piece_target(random_bert):
    m = random_bert
    template = "ATTRIBUTE likes TARGET"  # the target's masks come after the attribute's in the prior sentence
    inc = mlm.increased_log_probability(m, [template], ["shakespear"], ["poetry", "exec secretary"])
    n_t = len(m.tokenizer("shakespear", add_special_tokens=False)["input_ids"])
    assert n_t > 1
    t_masks = " ".join(["[MASK]"] * n_t)
    for ai, attribute in enumerate(["poetry", "exec secretary"]):
        n_a = len(m.tokenizer(attribute, add_special_tokens=False)["input_ids"])
        prior = " ".join(["[MASK]"] * n_a) + " likes " + t_masks
        want = (naive_log_p(m, f"{attribute} likes {t_masks}", 0, "shakespear")
                - naive_log_p(m, prior, n_a, "shakespear"))
        assert inc[0, 0, ai] == pytest.approx(want, abs=1e-4)


def test_sentences(random_bert):
    tgt, prior, first = mlm.sentences(random_bert, "TARGET can do ATTRIBUTE", 1, "cloud computing")
    assert tgt == "[MASK] can do cloud computing"
    assert prior == "[MASK] can do [MASK] [MASK]" and first == 0
    _, prior1, _ = mlm.sentences(random_bert, "TARGET can do ATTRIBUTE", 1, "cloud computing", prior_mask="single")
    assert prior1 == "[MASK] can do [MASK]"
    with pytest.raises(ValueError, match="exactly once"):
        mlm.sentences(random_bert, "TARGET is TARGET", 1, "x")
    with pytest.raises(ValueError, match="prior_mask"):
        mlm.sentences(random_bert, "TARGET is ATTRIBUTE", 1, "x", prior_mask="none")


def test_batching_gives_the_same_numbers(random_bert):
    attrs = ["math", "poetry", "shakespear", "cloud computing", "exec secretary/office mgr", "nurse"]
    templates = [mlm.TemplatePairs("TARGET likes ATTRIBUTE", (("he", "she"),)),
                 mlm.TemplatePairs("TARGET like ATTRIBUTE", (("boys", "girls"), ("men", "women")))]
    batched = mlm.log_prob_bias_scores(random_bert, attrs, templates, batch_size=64)
    one_by_one = np.concatenate([mlm.log_prob_bias_scores(random_bert, [a], templates, batch_size=1) for a in attrs])
    np.testing.assert_allclose(batched, one_by_one, atol=1e-5)
    again = mlm.log_prob_bias_scores(random_bert, attrs, templates, batch_size=64)
    assert np.array_equal(batched, again)  # deterministic


def test_bias_score_is_mean_over_pairs(random_bert):
    attrs = ["math", "poetry"]
    pairs = mlm.TemplatePairs("TARGET like ATTRIBUTE", (("boys", "girls"), ("men", "women")))
    both = mlm.log_prob_bias_scores(random_bert, attrs, [pairs])
    each = [mlm.log_prob_bias_scores(random_bert, attrs, [mlm.TemplatePairs(pairs.template, (p,))]) for p in pairs.pairs]
    np.testing.assert_allclose(both, np.mean(each, axis=0), atol=1e-12)
    inc = mlm.increased_log_probability(random_bert, [pairs.template], ["boys", "girls"], attrs)[0]
    np.testing.assert_allclose(each[0], inc[0] - inc[1], atol=1e-12)


def test_unknown_characters_fail(random_bert):
    with pytest.raises(ValueError, match="outside the vocabulary"):
        mlm.increased_log_probability(random_bert, ["TARGET is ATTRIBUTE"], ["\u2603\u2603"], ["x"])


# ---- §3.2 test over attributes, Table 5 share ------------------------------------------------------------------

def test_attribute_test_by_hand():
    a, b = np.array([0.5, 0.9, 0.7, 0.4]), np.array([0.1, -0.2, 0.3, 0.0])
    t = mlm.attribute_test(a, b, A=list("abcd"), B=list("efgh"))
    assert t.statistic == pytest.approx(a.mean() - b.mean())
    pooled = np.concatenate([a, b])
    assert t.effect_size == pytest.approx((a.mean() - b.mean()) / pooled.std(ddof=1))
    # exact: C(8, 4) = 70 splits; count those with sum over the first set >= observed
    from itertools import combinations
    sums = [pooled[list(c)].sum() for c in combinations(range(8), 4)]
    assert t.p_value == pytest.approx(np.mean(np.array(sums) >= a.sum() - 1e-12))
    assert t.p.p_method == "exact"
    with pytest.raises(DegenerateSetError):
        mlm.attribute_test([1.0], [0.0, 1.0])


def test_share_favouring_first():
    assert mlm.share_favouring_first([0.1, -0.2, 0.3, 0.0]) == 0.5
    with pytest.raises(DegenerateSetError):
        mlm.share_favouring_first([])


# ---- loading -----------------------------------------------------------------------------------------------

def test_encoder_without_head_is_refused(tmp_path):
    from transformers import BertConfig, BertModel

    tok = tiny_mlm.bert_uncased_tokenizer()
    BertModel(BertConfig(vocab_size=len(tok), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=32)).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    with pytest.raises(ModelUnavailable, match="no masked-language-model head"):
        mlm.load_mlm(str(tmp_path))


def test_missing_model_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelUnavailable, match="nope-model"):
        mlm.load_mlm(str(tmp_path / "nope-model"))


# --------------------------------------------------------------------------------------------------
# a template holds exactly the placeholders it needs (property-based)
# --------------------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from wordbias.core.errors import InvalidParameterError  # noqa: E402

_PIECES = st.lists(st.sampled_from(["TARGET", "ATTRIBUTE", "[MASK]", "[CLS]", " is ", " a ", "likes", " "]),
                   max_size=6)


@settings(max_examples=200, deadline=None)
@given(_PIECES)
def test_check_template_accepts_exactly_one_of_each_placeholder_and_no_special_token(pieces):
    template = "".join(pieces)
    ok = (template.count("TARGET") == 1 and template.count("ATTRIBUTE") == 1
          and "[MASK]" not in template and "[CLS]" not in template)
    if ok:
        assert mlm.check_template(template, ["[MASK]", "[CLS]"]) == template
    else:
        with pytest.raises(InvalidParameterError, match="placeholder|special token"):
            mlm.check_template(template, ["[MASK]", "[CLS]"])


def test_attribute_test_alternatives():
    a, b = [0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0]
    base = mlm.attribute_test(a, b)
    assert base.alternative == "greater" and base.p == mlm.attribute_test(a, b, alternative="greater").p
    assert "alternative" not in base.summary()                             # table columns unchanged
    # A's four scores are the four largest: 1 of the C(8, 4) = 70 splits reaches them, all 70 are <= them
    less = mlm.attribute_test(a, b, alternative="less")
    two = mlm.attribute_test(a, b, alternative="two-sided")
    assert less.p_value == 1.0 and two.p_value == 2 / 70 and two.alternative == "two-sided"
    flipped = mlm.attribute_test(b, a, alternative="two-sided")
    assert flipped.p_value == 2 / 70 and mlm.attribute_test(b, a).p_value == 1.0
    undefined = mlm.attribute_test(np.full(3, 1e-9), np.full(3, 1e-9), noise=1e-6, alternative="less")
    assert undefined.p is None and undefined.alternative == "less"
    with pytest.raises(ValueError, match="alternative"):
        mlm.attribute_test(a, b, alternative="bigger")


# --------------------------------------------------------------------------------------------------
# the two-sided p and the bootstrap interval of the effect size over the attribute words
# --------------------------------------------------------------------------------------------------

def test_attribute_test_two_sided_p_and_interval_by_hand():
    a, b = np.array([0.5, 0.9, 0.7, 0.4]), np.array([0.1, -0.2, 0.3, 0.0])
    t = mlm.attribute_test(a, b, A=list("abcd"), B=list("efgh"))
    # the earlier numbers unchanged: exact p = 1/70, d = 0.575 / sd(8 scores, ddof 1)
    assert t.p_value == 1 / 70 and t.effect_size == pytest.approx(0.575 / np.sqrt(0.93875 / 7))
    assert t.p_two_sided == 2 / 70                        # 2 x min(1/70, 70/70)
    flipped = mlm.attribute_test(b, a)
    assert flipped.p_value == 1.0 and flipped.p_two_sided == 2 / 70
    two = mlm.attribute_test(a, b, alternative="two-sided")
    assert two.p_two_sided == two.p_value == 2 / 70
    # the interval resamples A and B separately (seeded by seed): percentile by hand with SciPy's draws
    pct = mlm.attribute_test(a, b, n_resamples=500, method="percentile", seed=4)
    rng = np.random.default_rng(4)
    ia, ib = rng.integers(0, 4, (500, 4)), rng.integers(0, 4, (500, 4))
    d = [weat.effect_size(a[i], b[j]) for i, j in zip(ia, ib)]
    ci = pct.effect_size_ci
    assert (ci.low, ci.high) == pytest.approx((np.percentile(d, 2.5), np.percentile(d, 97.5)), rel=1e-12)
    assert ci.estimate == pct.effect_size and ci.resampled == ("a", "b") and ci.n_resamples == 500
    # the default: BCa, 95%, 10,000 resamples, seed 0, as effect_size_bootstrap
    from wordbias.measures.association import bootstrap
    assert t.effect_size_ci == bootstrap.effect_size_bootstrap(a, b, seed=0).effect_size
    assert t.effect_size_ci.method == "BCa" and t.effect_size_ci.n_resamples == 10_000
    s = t.summary()
    assert (s["effect_size_ci_low"], s["effect_size_ci_high"]) == (t.effect_size_ci.low, t.effect_size_ci.high)
    assert s["p_two_sided"] == 2 / 70
    assert list(s)[:7] == ["n_attribute", "mean_score_A", "mean_score_B", "effect_size", "p_value", "p_method",
                           "undefined"]                   # the earlier columns first, unchanged


def test_attribute_test_without_interval_and_undefined():
    a, b = [0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0]
    none = mlm.attribute_test(a, b, n_resamples=0)
    assert none.effect_size_ci is None and np.isnan(none.summary()["effect_size_ci_low"])
    assert none.p == mlm.attribute_test(a, b).p
    tied = mlm.attribute_test(np.full(3, 1e-9), np.full(3, 1e-9), noise=1e-6)
    assert tied.effect_size_ci is None and np.isnan(tied.p_two_sided)
    assert np.isnan(tied.summary()["effect_size_ci_high"])
    for kw, match in (({"n_resamples": 1}, "n_resamples must be 0"), ({"n_resamples": -5}, "n_resamples"),
                      ({"method": "bca"}, "method must be one of 'BCa'"), ({"confidence_level": 95}, "confidence_level")):
        with pytest.raises(InvalidParameterError, match=match):
            mlm.attribute_test(a, b, **kw)
