"""Contextual embeddings of spans and of words in templates (Kurita et al. 2019, §3.1), on a tiny BERT."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from wordbias.core.errors import ModelUnavailable
from wordbias.models import contextual, tiny_mlm


@pytest.fixture(scope="module")
def encoder(tmp_path_factory):
    from transformers import BertConfig, BertModel

    torch.manual_seed(1)
    tok = tiny_mlm.bert_uncased_tokenizer()
    out = tmp_path_factory.mktemp("encoder")
    BertModel(BertConfig(vocab_size=len(tok), hidden_size=24, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=48, max_position_embeddings=64)).save_pretrained(out)
    tok.save_pretrained(out)
    return contextual.load_encoder(str(out), device="cpu")


def direct_states(m, text):
    enc = m.tokenizer(text, return_tensors="pt")
    with torch.no_grad():
        return m.model(**enc).last_hidden_state[0].numpy(), m.tokenizer.convert_ids_to_tokens(enc["input_ids"][0])


def test_fill_spans():
    s, spans = contextual.fill("the TARGET is ATTRIBUTE.", {"TARGET": "rose", "ATTRIBUTE": "very lovely"})
    assert s == "the rose is very lovely."
    assert s[slice(*spans["TARGET"])] == "rose" and s[slice(*spans["ATTRIBUTE"])] == "very lovely"
    s, spans = contextual.fill("ATTRIBUTE likes TARGET", {"TARGET": "he", "ATTRIBUTE": "math"})
    assert s[slice(*spans["TARGET"])] == "he" and s[slice(*spans["ATTRIBUTE"])] == "math"
    with pytest.raises(ValueError, match="exactly once"):
        contextual.fill("TARGET and TARGET", {"TARGET": "x"})


def test_span_is_its_token_state_and_pieces_are_averaged(encoder):
    text = "shakespear likes the rose"
    states, tokens = direct_states(encoder, text)
    got = contextual.span_embeddings(encoder, [text], [[(0, 10), (21, 25)]])
    pieces = [i for i, t in enumerate(tokens) if t not in ("[CLS]", "[SEP]")][:3]
    assert len(encoder.tokenizer.tokenize("shakespear")) == 3
    np.testing.assert_allclose(got[0, 0], states[pieces].mean(axis=0), atol=1e-5)
    np.testing.assert_allclose(got[0, 1], states[tokens.index("rose")], atol=1e-5)


def test_batches_do_not_change_the_result(encoder):
    texts = ["he is a nurse", "the european american person is happy today", "she codes", "a b c d e f g h"]
    spans = [[(0, 2)], [(4, 12)], [(0, 3)], [(14, 15)]]
    one = contextual.span_embeddings(encoder, texts, spans, batch_size=1)
    many = contextual.span_embeddings(encoder, texts, spans, batch_size=4)
    np.testing.assert_allclose(one, many, atol=1e-5)
    assert one.shape == (4, 1, 24)


def test_bad_spans_fail(encoder):
    with pytest.raises(ValueError, match="covers no token"):
        contextual.span_embeddings(encoder, ["he is"], [[(2, 3)]])  # the space
    with pytest.raises(ValueError, match="same number of spans"):
        contextual.span_embeddings(encoder, ["a", "b"], [[(0, 1)], [(0, 1), (0, 1)]])
    with pytest.raises(ValueError, match="span lists"):
        contextual.span_embeddings(encoder, ["a"], [])


def test_word_in_template_is_mean_over_templates(encoder):
    templates = ["TARGET are ATTRIBUTE", "the TARGET is ATTRIBUTE"]
    v = contextual.word_in_template_embeddings(encoder, ["rose", "moth"], templates, slot="TARGET", other="ATTRIBUTE")
    assert v.shape == (2, 24)
    a = contextual.span_embeddings(encoder, ["rose are [MASK]"], [[(0, 4)]])[0, 0]
    b = contextual.span_embeddings(encoder, ["the rose is [MASK]"], [[(4, 8)]])[0, 0]
    np.testing.assert_allclose(v[0], (a + b) / 2, atol=1e-6)


def test_in_vocabulary_and_names(encoder):
    assert contextual.in_vocabulary(encoder, ["rose", "Tarantula", "shakespear", "Kareem", "he"]) == [
        True, False, False, False, True]
    assert contextual.label("all-MiniLM-L6-v2") == contextual.BUNDLED_ENCODER
    assert contextual.label("/models/bert-base-uncased/") == "bert-base-uncased"
    assert contextual.model_path("bert-base-uncased") == "bert-base-uncased"


def test_bundled_minilm_path_exists():
    from pathlib import Path

    p = Path(contextual.model_path("all-minilm-l6-v2"))
    assert (p / "config.json").exists() and (p / "vocab.txt").exists()


def test_a_hub_model_missing_offline_gets_one_clear_line(tmp_path, monkeypatch):
    """Not transformers' "OSError: We couldn't connect to 'https://huggingface.co'..." but what is
    missing, why, and where to get it; the original error stays attached as the cause."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))                   # an empty Hugging Face cache
    with pytest.raises(ModelUnavailable) as err:
        contextual.load_encoder("wordbias-test/no-such-model", device="cpu")
    text = str(err.value)
    assert text.startswith("model 'wordbias-test/no-such-model' is not on this machine (it is not in the Hugging "
                           "Face cache, and HF_HUB_OFFLINE is set, so nothing is downloaded). To get it: ")
    assert "\n" not in text and "couldn't connect" not in text.lower() and "OSError" not in text
    assert isinstance(err.value.__cause__, OSError)


def test_texts_are_batched_by_token_count(encoder):
    """token_count_order sorts by tokens, not characters (a long word split into many pieces counts as many), ties
    in input order; span_embeddings gives each text its own vectors whatever the order."""
    texts = ["a b c d e f", "xylophonically", "the cat", "a b c d e f", "the"]
    n = [len(ids) for ids in encoder.tokenizer(texts)["input_ids"]]
    order = contextual.token_count_order(encoder.tokenizer, texts, 512)
    assert [n[i] for i in order] == sorted(n)
    for a, b in zip(order, order[1:]):  # ties keep the input order
        assert n[a] < n[b] or a < b
    assert list(contextual.token_count_order(encoder.tokenizer, texts, 3)) == sorted(range(5), key=lambda i: min(n[i], 3))
    assert contextual.token_count_order(encoder.tokenizer, [], 512).shape == (0,)
    spans = [[(0, 1)], [(0, 3)], [(4, 7)], [(2, 3)], [(0, 3)]]
    together = contextual.span_embeddings(encoder, texts, spans, batch_size=2)
    for i, (t, s) in enumerate(zip(texts, spans)):
        alone = contextual.span_embeddings(encoder, [t], [s], batch_size=1)
        np.testing.assert_allclose(together[i], alone[0], rtol=0, atol=1e-5)
