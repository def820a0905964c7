"""Sentence log-probabilities (wordbias.models.log_prob) on tiny models built offline: a causal Llama
(tests/tiny_causal.py) and a random BERT masked LM."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tiny_causal import tiny_causal  # noqa: E402, F401

from wordbias.core.errors import InvalidParameterError  # noqa: E402
from wordbias.models.log_prob import (  # noqa: E402
    LogProbCache,
    causal_log_probs,
    prefix_token_id,
    pseudo_log_likelihood,
)

TEXTS = ["the poor are lazy .", "he is a nurse", "old people can not drive well .", "she is a doctor ."]


def hand_log_prob(m, text: str) -> float:
    """One sentence alone, no padding: the prefix token, then log_softmax of each position, summed by hand."""
    ids = [prefix_token_id(m.tokenizer)] + m.tokenizer(text, add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logits = m.model(input_ids=torch.tensor([ids])).logits[0]
    total = 0.0
    for t in range(1, len(ids)):
        total += float(torch.log_softmax(logits[t - 1].double(), -1)[ids[t]])
    return total


def test_batched_equals_a_plain_forward_pass_summed_by_hand(tiny_causal):
    got = causal_log_probs(tiny_causal, TEXTS, batch_size=3)
    # sentences of different lengths share a batch, so padding and positions are exercised; float32 logits of
    # differently shaped products differ by rounding only (about 1e-7 relative per logit, a handful of tokens)
    for r, text in zip(got, TEXTS):
        assert r.total == pytest.approx(hand_log_prob(tiny_causal, text), abs=1e-5)
        assert r.log_probs.dtype == np.float64 and len(r.log_probs) == len(r.token_ids)
    assert len({round(r.total, 3) for r in got}) == len(TEXTS)   # the numbers differ: not a constant


def test_the_batch_size_does_not_change_the_numbers(tiny_causal):
    one = [r.total for r in causal_log_probs(tiny_causal, TEXTS, batch_size=1)]
    four = [r.total for r in causal_log_probs(tiny_causal, TEXTS, batch_size=4)]
    np.testing.assert_allclose(one, four, atol=1e-5)


def test_the_first_token_is_conditioned_on_the_prefix(tiny_causal):
    r = causal_log_probs(tiny_causal, ["he"])[0]
    ids = torch.tensor([[prefix_token_id(tiny_causal.tokenizer)]])
    with torch.no_grad():
        expected = torch.log_softmax(tiny_causal.model(input_ids=ids).logits[0, 0].double(), -1)[r.token_ids[0]]
    assert r.log_probs[0] == pytest.approx(float(expected), abs=1e-6)


def test_cache_hit_is_identical_and_a_damaged_entry_is_recomputed(tiny_causal, tmp_path):
    cache = LogProbCache(tmp_path / "lp")
    first = causal_log_probs(tiny_causal, TEXTS, cache=cache)
    assert (cache.misses, cache.hits) == (len(TEXTS), 0)
    again = causal_log_probs(tiny_causal, TEXTS, cache=cache)
    assert cache.hits == len(TEXTS)
    for a, b in zip(first, again):
        assert np.array_equal(a.log_probs, b.log_probs)
    entries = sorted((tmp_path / "lp").rglob("*.json"))
    assert len(entries) == len(TEXTS)
    damaged = [json.loads(e.read_text())["key"]["text"] for e in entries[:2]]
    # a number changed in place (its checksum no longer matches), and a truncated file
    entry = json.loads(entries[0].read_text())
    entry["log_probs"][0] = -0.5
    entries[0].write_text(json.dumps(entry))
    entries[1].write_text(entries[1].read_text()[:20])
    cache.hits = cache.misses = 0
    third = causal_log_probs(tiny_causal, TEXTS, cache=cache)
    assert (cache.hits, cache.misses) == (len(TEXTS) - 2, 2)
    for a, b in zip(first, third):
        if a.text in damaged:
            # recomputed in a batch of another shape, whose float32 products round differently (about 1e-8 seen)
            np.testing.assert_allclose(b.log_probs, a.log_probs, rtol=0, atol=1e-6)
        else:                                            # read from the cache: the very numbers stored
            assert np.array_equal(a.log_probs, b.log_probs)
    assert json.loads(entries[0].read_text())["log_probs"][0] != -0.5   # replaced


def test_the_cache_key_holds_the_model(tiny_causal, tmp_path):
    cache = LogProbCache(tmp_path / "lp")
    causal_log_probs(tiny_causal, TEXTS[:1], cache=cache)
    other = type(tiny_causal)(**{**tiny_causal.__dict__, "identity": "another-model"})
    causal_log_probs(other, TEXTS[:1], cache=cache)
    assert (cache.hits, cache.misses) == (0, 2)


def test_bad_texts_are_refused(tiny_causal):
    with pytest.raises(InvalidParameterError, match="not the string"):
        causal_log_probs(tiny_causal, "he is")
    with pytest.raises(InvalidParameterError, match="non-empty"):
        causal_log_probs(tiny_causal, ["he", "  "])


@pytest.fixture(scope="module")
def random_mlm(tmp_path_factory):
    from transformers import BertConfig, BertForMaskedLM

    from wordbias.models import tiny_mlm
    from wordbias.models.contextual import load_mlm

    torch.manual_seed(0)
    tok = tiny_mlm.bert_uncased_tokenizer()
    model = BertForMaskedLM(BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2,
                                       num_attention_heads=2, intermediate_size=64, max_position_embeddings=64))
    out = tmp_path_factory.mktemp("random_mlm")
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return load_mlm(str(out), device="cpu")


def test_pseudo_log_likelihood_equals_a_hand_computation(random_mlm):
    text = "the poor are really ignorant"
    tok = random_mlm.tokenizer
    ids = tok(text)["input_ids"]
    positions = [1, 3, 4]
    hand = 0.0
    for p in positions:   # one sentence at a time, one token masked
        masked = list(ids)
        masked[p] = tok.mask_token_id
        with torch.no_grad():
            logits = random_mlm.model(input_ids=torch.tensor([masked])).logits[0, p]
        hand += float(torch.log_softmax(logits.double(), -1)[ids[p]])
    total, got_ids = pseudo_log_likelihood(random_mlm, text, positions)
    assert got_ids == tuple(ids)
    assert total == pytest.approx(hand, abs=1e-6)
    every, _ = pseudo_log_likelihood(random_mlm, text)   # default: every non-special token (5 of 7)
    assert every < total < 0


def test_pseudo_log_likelihood_refuses_a_special_position(random_mlm):
    with pytest.raises(InvalidParameterError, match="position 0"):
        pseudo_log_likelihood(random_mlm, "the poor", [0])


def test_the_vocabulary_hash_is_remembered_until_the_tokenizer_changes(tiny_causal):
    from wordbias.models import log_prob

    tok = tiny_causal.tokenizer
    first = log_prob.vocabulary_hash(tok)
    assert log_prob._VOCABULARY_HASHES[tok][1] == first == log_prob._vocabulary_digest(tok)
    tok.add_tokens(["zebra"])                              # changed in place: the remembered hash is not used
    try:
        assert log_prob.vocabulary_hash(tok) == log_prob._vocabulary_digest(tok) != first
    finally:                                              # the fixture is shared by the module's tests
        log_prob._VOCABULARY_HASHES.pop(tok, None)
