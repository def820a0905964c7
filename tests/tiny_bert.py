"""A tiny BERT encoder built for the GAP tests (tests/datasets/test_gap.py, tests/papers/test_kurita2019_gap.py):
2 layers, hidden 32, a vocabulary of a few words (so that "Robert" is two WordPieces and "Zed" is [UNK]).

Import the fixture into a test module with ``from tiny_bert import tiny  # noqa: F401``; ``tests/`` is on
``sys.path`` because it holds ``conftest.py``.
"""

import pytest

WORDS = ["alice", "met", "bob", "before", "she", "he", "left", "mary", "ann", "saw", "tom", "and", "ran", ".",
         "men", "women", "are", "interested", "in", "music", "sports", "ro", "##bert", "his", "her", "the"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    from wordbias.models import contextual

    folder = tmp_path_factory.mktemp("tiny-bert")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = BertTokenizerFast(vocab={w: i for i, w in enumerate(vocab)}, do_lower_case=True)
    assert tok.tokenize("Alice met Robert") == ["alice", "met", "ro", "##bert"]
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=512)
    BertModel(cfg).save_pretrained(folder)
    tok.save_pretrained(folder)
    return contextual.load_encoder(str(folder), device="cpu")
