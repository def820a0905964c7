"""CPU inference with its products in OpenBLAS (wordbias.models.blas_inference): the same arithmetic as PyTorch's
eager path to float32 rounding, the padding mask honoured, the last bits independent of the thread count, and
autograd left to PyTorch."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from tiny_bert import tiny  # noqa: E402,F401

from wordbias.models import blas_inference  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TEXTS = ["alice met bob before she left", "tom ran", "mary saw ann and tom ran before he left ."]


def _states(m, texts):
    enc = m.tokenizer(texts, return_tensors="pt", padding=True)
    with torch.inference_mode():
        return m.model(**enc).last_hidden_state.numpy(), enc["attention_mask"].numpy().astype(bool)


def test_the_loaded_cpu_model_takes_the_blas_route(tiny):  # noqa: F811
    assert tiny.model.config._attn_implementation == blas_inference.ATTENTION
    assert all("forward" in vars(layer) for layer in tiny.model.modules() if isinstance(layer, torch.nn.Linear))


def test_same_states_as_pytorch_eager_to_float32_rounding_and_padding_masked(tiny):  # noqa: F811
    ours, real = _states(tiny, TEXTS)
    from transformers import BertModel

    plain = BertModel.from_pretrained(tiny.path, attn_implementation="eager").eval()
    enc = tiny.tokenizer(TEXTS, return_tensors="pt", padding=True)
    with torch.inference_mode():
        ref = plain(**enc).last_hidden_state.numpy()
    # real tokens: the two routes differ only in the rounding of float32 sums of <= 64 products (|x| ~ 1)
    np.testing.assert_allclose(ours[real], ref[real], atol=2e-5, rtol=0)
    # a text's states do not depend on the longer texts it is padded beside (the mask reaches the attention)
    alone, _ = _states(tiny, TEXTS[1:2])
    n = alone.shape[1]
    np.testing.assert_allclose(ours[1, :n], alone[0], atol=2e-5, rtol=0)


def test_autograd_keeps_pytorch_linear(tiny):  # noqa: F811
    layer = next(m for m in tiny.model.modules() if isinstance(m, torch.nn.Linear))
    x = torch.randn(3, layer.in_features, requires_grad=True)
    y = layer(x)
    assert y.requires_grad  # the numpy route would have cut the graph
    y.sum().backward()
    assert x.grad is not None and torch.isfinite(x.grad).all()


def test_use_blas_is_idempotent(tiny):  # noqa: F811
    before, _ = _states(tiny, TEXTS)
    blas_inference.use_blas(tiny.model)
    after, _ = _states(tiny, TEXTS)
    assert np.array_equal(before, after)


PROBE = """
import hashlib, sys
from threadpoolctl import threadpool_info, threadpool_limits
from wordbias.datasets import gap
from wordbias.models import contextual
from wordbias.papers import kurita2019_gap
encoder = contextual.load_encoder("all-minilm-l6-v2", device="cpu")
texts = gap.load("validation").iloc[:40]
print(*[i["num_threads"] for i in threadpool_info() if i["internal_api"] == "openblas"])
for threads in (2, 1):   # the process's OpenBLAS threads (OPENBLAS_NUM_THREADS=2), then one thread
    with threadpool_limits(limits=threads, user_api="blas"):
        feats = kurita2019_gap.features(encoder, texts, cache_dir=None)
    print(hashlib.sha256(feats.tobytes()).hexdigest())
"""


def test_the_last_bits_do_not_depend_on_the_blas_thread_count():
    """MiniLM on 40 GAP passages (MiniLM's and GAP's shapes: OpenBLAS's threaded sgemm rounds some of them
    apart from its one-thread sgemm, measured): the same bytes on 2 and 1 OpenBLAS threads, in one process started
    with OPENBLAS_NUM_THREADS=2 (one process: the model loads once). Without the one-thread guard
    (``blas_inference._one_blas_thread`` replaced by the bare forward) the two hashes differ: measured under make's
    x86-64-v3 kernels, so the test can fail."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.split("\n")
    assert out[0].split() and set(out[0].split()) == {"2"}, out[0]   # every OpenBLAS of the process had 2 threads
    assert len(out[1]) == 64 and out[1] == out[2], out
