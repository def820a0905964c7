"""Transformer models are loaded from safetensors only (wordbias.models.contextual): a folder whose weights are a
pickle (pytorch_model.bin, *.pt, *.ckpt, as torch.save writes them) is refused before any of it is opened, with a
message that points to safetensors and to no unsafe route; the project's own models are safetensors."""
from __future__ import annotations

import pickle

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from wordbias.core.errors import ModelFileError, UnsafeFileError  # noqa: E402
from wordbias.models import contextual, tiny_mlm  # noqa: E402

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "he", "she", "is", "a", "nurse", "doctor", "."]


class _WriteMarker:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('ran')",))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A tiny BERT masked LM saved by save_pretrained (model.safetensors) with its fast tokenizer."""
    from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-mlm")
    (folder / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    BertTokenizerFast(vocab={w: i for i, w in enumerate(VOCAB)}, do_lower_case=True).save_pretrained(folder)
    torch.manual_seed(0)
    model = BertForMaskedLM(BertConfig(vocab_size=len(VOCAB), hidden_size=8, num_hidden_layers=1,
                                       num_attention_heads=2, intermediate_size=8))
    model.save_pretrained(folder)
    return folder, model.state_dict()


def _pickled_copy(tmp_path, saved, weights_name, payload=None):
    """The saved model with its weights as a torch.save pickle named ``weights_name`` instead of safetensors."""
    import shutil

    folder, state = saved
    copy = tmp_path / "model"
    shutil.copytree(folder, copy)
    (copy / "model.safetensors").unlink()
    torch.save(state if payload is None else {"x": payload}, copy / weights_name)
    return copy


@pytest.mark.parametrize("weights_name", ["pytorch_model.bin", "model.pt", "model.pth", "last.ckpt",
                                          "pytorch_model-00001-of-00002.bin"])
@pytest.mark.parametrize("load", [contextual.load_mlm, contextual.load_encoder])
def test_pickled_weights_are_refused_with_a_safe_way_out(tmp_path, saved, weights_name, load):
    folder = _pickled_copy(tmp_path, saved, weights_name)
    with pytest.raises(UnsafeFileError) as err:
        load(str(folder), device="cpu")
    text = str(err.value)
    assert f"holds its weights as {weights_name} (a Python pickle) and no safetensors file" in text
    assert "weights_only" not in text and "trust=True" not in text and "--trust-pickle" not in text
    assert isinstance(err.value, ModelFileError)


def test_a_malicious_weight_file_runs_nothing(tmp_path, saved):
    marker = tmp_path / "marker"
    folder = _pickled_copy(tmp_path, saved, "pytorch_model.bin", payload=_WriteMarker(marker))
    with pytest.raises(UnsafeFileError):
        contextual.load_mlm(str(folder), device="cpu")
    assert not marker.exists()
    with open(folder / "pytorch_model.bin", "rb") as f:   # the file would run its code, unpickled (proof of the test)
        assert b"exec" in f.read()


def test_transformers_itself_is_asked_for_safetensors_only(tmp_path, saved, monkeypatch):
    """Behind the folder check, from_pretrained gets use_safetensors=True: with the check off, the pickled file is
    still not opened (the marker stays absent) and the model is reported missing."""
    marker = tmp_path / "marker"
    folder = _pickled_copy(tmp_path, saved, "pytorch_model.bin", payload=_WriteMarker(marker))
    monkeypatch.setattr(contextual, "refuse_pickled_weights", lambda name, path: None)
    with pytest.raises(Exception) as err:
        contextual.load_mlm(str(folder), device="cpu")
    assert "weights_only" not in str(err.value) and not marker.exists()


def test_safetensors_are_loaded_and_a_pickle_beside_them_is_not_opened(tmp_path, saved):
    import shutil

    folder, state = saved
    copy = tmp_path / "both"
    shutil.copytree(folder, copy)
    marker = tmp_path / "marker"
    (copy / "pytorch_model.bin").write_bytes(pickle.dumps(_WriteMarker(marker)))
    model = contextual.load_mlm(str(copy), device="cpu")
    assert torch.equal(model.model.state_dict()["bert.embeddings.word_embeddings.weight"],
                       state["bert.embeddings.word_embeddings.weight"])
    assert not marker.exists()


def test_the_planted_tiny_mlm_is_saved_as_safetensors(tmp_path):
    folder = tiny_mlm.build(tmp_path / "tiny", male=["doctor"], female=["nurse"], seed=0)
    names = {p.name for p in folder.iterdir()}
    assert "model.safetensors" in names and not any(n.endswith((".bin", ".pt", ".pth", ".ckpt")) for n in names)
    assert contextual.load_mlm(str(folder), device="cpu").kind == "mlm"
