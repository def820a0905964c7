"""Sentence vectors: CBoW by hand, transformer pooling, the on-disk cache."""
import numpy as np
import pytest
from tiny_bert import tiny  # noqa: F401

from wordbias.core.errors import CacheRebuiltWarning, InvalidParameterError
from wordbias.embeddings import to_keyed_vectors
from wordbias.models import sentence


@pytest.fixture
def kv():
    words = ["this", "is", "amy", ".", "person", "'s"]
    return to_keyed_vectors(words, np.arange(len(words) * 3, dtype=np.float32).reshape(-1, 3) + 1)


def test_cbow_is_the_mean_of_the_known_tokens(kv):
    sv = sentence.encode(kv, ["This is Amy.", "This person's Zed."], cache=False)
    V = {w: kv[w] for w in kv.index_to_key}
    np.testing.assert_allclose(sv.vectors[0], (V["this"] + V["is"] + V["amy"] + V["."]) / 4, rtol=1e-6)
    np.testing.assert_allclose(sv.vectors[1], (V["this"] + V["person"] + V["'s"] + V["."]) / 4, rtol=1e-6)
    assert sv.oov_tokens == {"zed": 1} and sv.dropped == {} and sv.pooling == "cbow"


def test_sentence_without_known_token_is_dropped_not_zero(kv):
    sv = sentence.encode(kv, ["Zed!", "This is Amy."], cache=False)
    assert "Zed!" in sv.dropped and np.isnan(sv.vectors[0]).all() and "Zed!" not in sv.as_dict()


def test_bad_sentences_and_pooling(kv):
    with pytest.raises(InvalidParameterError):
        sentence.encode(kv, "This is Amy.")
    with pytest.raises(InvalidParameterError):
        sentence.encode(kv, ["ok", ""])
    with pytest.raises(InvalidParameterError, match="CBoW"):
        sentence.load_sentence_encoder(kv, pooling="cls")


def test_transformer_pooling_by_hand(tiny):  # noqa: F811
    import torch

    texts = ["Alice met Bob.", "She left before he ran and saw Tom."]
    mean = sentence.encode(sentence.TransformerEncoder(tiny, "mean"), texts, cache=False)
    cls = sentence.encode(sentence.TransformerEncoder(tiny, "cls"), texts, cache=False, batch_size=1)
    with torch.inference_mode():
        for i, t in enumerate(texts):
            enc = tiny.tokenizer([t], return_tensors="pt")
            h = tiny.model(**enc).last_hidden_state[0].numpy()
            np.testing.assert_allclose(mean.vectors[i], h.mean(0), rtol=1e-4, atol=1e-5)   # padding excluded
            np.testing.assert_allclose(cls.vectors[i], h[0], rtol=1e-4, atol=1e-5)


def test_cache_hit_is_identical_and_damage_is_rebuilt(tiny, tmp_path):  # noqa: F811
    enc = sentence.TransformerEncoder(tiny, "mean")
    texts = ["Alice met Bob.", "Mary saw Tom."]
    first = sentence.encode(enc, texts, cache_dir=tmp_path)
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1 and not first.cached
    again = sentence.encode(enc, texts, cache_dir=tmp_path)
    assert again.cached and np.array_equal(again.vectors, first.vectors)
    other = sentence.encode(sentence.TransformerEncoder(tiny, "cls"), texts, cache_dir=tmp_path)
    assert not other.cached and len(list(tmp_path.glob("*.npz"))) == 2
    files[0].write_bytes(files[0].read_bytes()[:50])            # truncated
    with pytest.warns(CacheRebuiltWarning, match="recomputing"):
        rebuilt = sentence.encode(enc, texts, cache_dir=tmp_path)
    assert not rebuilt.cached and np.array_equal(rebuilt.vectors, first.vectors)
    assert sentence.encode(enc, texts, cache_dir=tmp_path).cached


def test_minilm_mean_pooling_matches_sentence_transformers():
    st = pytest.importorskip("sentence_transformers")
    from wordbias.models.contextual import model_path

    texts = ["This is John.", "The person's name is Amy."]
    ours = sentence.encode("all-minilm-l6-v2", texts, cache=False, device="cpu")
    assert ours.pooling == "mean"
    ref = st.SentenceTransformer(model_path("all-minilm-l6-v2"), device="cpu").encode(texts)
    unit = ours.vectors / np.linalg.norm(ours.vectors, axis=1, keepdims=True)
    np.testing.assert_allclose(unit, ref, atol=1e-5)


def test_a_cache_hit_reports_what_the_fresh_run_did(tmp_path):
    """CBoW: the sentences dropped (with why) and the out-of-vocabulary tokens come back from the cache as the
    fresh run gave them (a cache hit once reported 'tokens not in the vocabulary: none')."""
    from wordbias.embeddings import to_keyed_vectors

    kv = to_keyed_vectors(["this", "is", "a", "rose", "."], np.eye(5, dtype=np.float32))
    texts = ["This is a rose.", "This is a gladiola.", "Zzz qqq!"]
    fresh = sentence.encode(kv, texts, cache_dir=tmp_path)
    hit = sentence.encode(kv, texts, cache_dir=tmp_path)
    assert not fresh.cached and hit.cached
    assert fresh.oov_tokens == {"gladiola": 1, "zzz": 1, "qqq": 1, "!": 1}
    assert hit.oov_tokens == fresh.oov_tokens and hit.dropped == fresh.dropped and list(hit.dropped) == ["Zzz qqq!"]
    np.testing.assert_array_equal(hit.vectors, fresh.vectors)


def test_a_folder_wordbias_wrote_is_a_static_embedding_not_a_transformer(tmp_path):
    # a run `wordbias train` wrote (or any embedding cache folder) is read as CBoW, never handed to transformers
    import numpy as np

    from wordbias.embeddings import cache, to_keyed_vectors
    from wordbias.models.sentence import StaticEncoder, load_sentence_encoder

    kv = to_keyed_vectors(["a", "cat", "sat"], np.eye(3, dtype=np.float32))
    folder = cache.save(kv, tmp_path / "run")
    enc = load_sentence_encoder(folder)
    assert isinstance(enc, StaticEncoder) and enc.sees("cat") and not enc.sees("dog")
