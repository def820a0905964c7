"""Transformer inference on the CPU with its matrix products in OpenBLAS (through numpy), not in MKL.

PyTorch's CPU wheels do their float32 matrix products in Intel's MKL, which picks a code path at run time by CPU
vendor and model: its fast branches give different last bits on an Intel and on an AMD CPU, and differ with the
thread count (README, "Reproducibility"). The one branch MKL runs alike everywhere, ``MKL_CBWR=COMPATIBLE``, is
SSE2 code, about 2.5 times slower than the AVX2 one; the Kurita notebook's GAP features (4,454 passages through
MiniLM) spent most of their time there. numpy's OpenBLAS takes its kernel from ``OPENBLAS_CORETYPE`` (pinned by
``make``), whatever the vendor, and its ``sgemm`` splits no sum across threads; so the products of every
``nn.Linear`` and of the attention scores and their weighted values are done there (:func:`use_blas`), and
everything else (GELU, layer norm, softmax, additions) stays in PyTorch's ATen kernels, pinned by
``ATEN_CPU_CAPABILITY``. It is the same arithmetic as PyTorch's eager path (``x @ W.T + b``;
``softmax(Q K^T / sqrt(d) + mask) V``, Vaswani et al. 2017, Eq. 1), rounded by another kernel.

Only inference on CPU float32 tensors takes this route: while autograd records (``torch.is_grad_enabled()``), on
another device or dtype, each layer runs its own PyTorch code, so training and GPUs are unaffected.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["ATTENTION", "ROUTE", "route", "use_blas", "blas_linear_forward", "blas_attention"]

#: the name under which :func:`blas_attention` is registered with transformers' ``AttentionInterface``
ATTENTION = "wordbias_blas"

#: the name of this route in cache keys (a change to its arithmetic changes the version)
ROUTE = "openblas-1"


def route(net) -> str:
    """How a model's inference products are computed, for the keys of caches of its outputs: :data:`ROUTE`
    when :func:`use_blas` was applied to it, else ``"torch"``.

    Parameters
    ----------
    net : torch.nn.Module
        The model.

    Returns
    -------
    str
        :data:`ROUTE` or ``"torch"``.

    Examples
    --------
    >>> import torch
    >>> route(torch.nn.Linear(2, 2))
    'torch'
    """
    return ROUTE if getattr(getattr(net, "config", None), "_attn_implementation", None) == ATTENTION else "torch"


def _numpy_route(*tensors) -> bool:
    """Whether these tensors may go through numpy: inference (no autograd), CPU, float32."""
    import torch

    if torch.is_grad_enabled():
        return False
    return all(t.device.type == "cpu" and t.dtype == torch.float32 for t in tensors)


def blas_linear_forward(layer, x):
    """``x @ W.T + b`` of an ``nn.Linear`` with the product in OpenBLAS (numpy) when :func:`_numpy_route` allows,
    else the layer's own forward.

    Parameters
    ----------
    layer : torch.nn.Linear
        The layer (its ``weight`` [out, in] and ``bias`` [out] or None).
    x : torch.Tensor
        The input [..., in].

    Returns
    -------
    torch.Tensor
        The output [..., out].
    """
    import torch

    if not _numpy_route(x, layer.weight):
        return torch.nn.functional.linear(x, layer.weight, layer.bias)
    shape = x.shape
    y = np.matmul(x.reshape(-1, shape[-1]).numpy(), layer.weight.detach().numpy().T)
    if layer.bias is not None:
        y += layer.bias.detach().numpy()
    return torch.from_numpy(y).reshape(*shape[:-1], y.shape[-1])


def blas_attention(module, query, key, value, attention_mask, scaling: float | None = None, dropout: float = 0.0,
                   **kwargs):
    """Scaled dot-product attention, softmax(Q K^T · scaling + mask) V (Vaswani et al. 2017, Eq. 1), with both
    products in OpenBLAS; the signature of transformers' attention functions (``eager_attention_forward``).

    ``attention_mask`` is None, boolean (True: attend) or additive (0 or a large negative number), broadcast over
    [batch, heads, queries, keys]. Outside inference on CPU float32, or with dropout in training, it defers to
    transformers' eager attention.

    Parameters
    ----------
    module : torch.nn.Module
        The attention layer (its ``training`` flag decides whether dropout applies).
    query, key, value : torch.Tensor
        Q, K, V, [batch, heads, queries or keys, head_dim].
    attention_mask : torch.Tensor or None
        The mask: None, boolean (True: attend) or additive, broadcast over [batch, heads, queries, keys].
    scaling : float, optional
        The factor of Q K^T; None: 1/sqrt(head_dim).
    dropout : float, default 0.0
        The attention dropout, applied (by transformers' eager attention) only in training.
    **kwargs
        Passed on to transformers' eager attention when it is deferred to; ignored otherwise.

    Returns
    -------
    tuple
        The output [batch, queries, heads, head_dim] and None (no attention weights are kept).
    """
    import torch

    if not _numpy_route(query, key, value) or (dropout and module.training):
        from transformers.models.bert.modeling_bert import eager_attention_forward

        return eager_attention_forward(module, query, key, value, attention_mask, scaling=scaling, dropout=dropout,
                                       **kwargs)
    if scaling is None:
        scaling = 1.0 / math.sqrt(query.shape[-1])
    q, k, v = query.numpy(), key.numpy(), value.numpy()
    scores = torch.from_numpy(np.matmul(q, np.swapaxes(k, -1, -2)))
    scores.mul_(scaling)
    if attention_mask is not None:
        if attention_mask.dtype == torch.bool:
            scores.masked_fill_(~attention_mask, float("-inf"))
        else:
            scores.add_(attention_mask)
    weights = torch.softmax(scores, dim=-1)
    out = np.matmul(weights.numpy(), v)
    return torch.from_numpy(np.ascontiguousarray(np.swapaxes(out, 1, 2))), None


def use_blas(net):
    """Route a transformers model's CPU inference products through OpenBLAS (module docstring); returns ``net``.

    Every ``nn.Linear`` gets :func:`blas_linear_forward`; a model whose attention goes through transformers'
    ``AttentionInterface`` (BERT and its kin) gets :func:`blas_attention`. Idempotent.

    Parameters
    ----------
    net : transformers.PreTrainedModel
        The model, in eval mode.

    Returns
    -------
    transformers.PreTrainedModel
        The same model.
    """
    import torch
    from transformers import AttentionInterface
    from transformers.masking_utils import ALL_MASK_ATTENTION_FUNCTIONS, eager_mask

    AttentionInterface.register(ATTENTION, blas_attention)
    # the padding mask as eager attention gets it (additive: 0, or the dtype's most negative number); without a
    # registered mask function transformers would pass no mask at all
    ALL_MASK_ATTENTION_FUNCTIONS.register(ATTENTION, eager_mask)
    for layer in net.modules():
        if isinstance(layer, torch.nn.Linear) and "forward" not in vars(layer):
            layer.forward = blas_linear_forward.__get__(layer)
    if getattr(net.config, "_attn_implementation", None) in ("eager", "sdpa"):
        net.set_attn_implementation(ATTENTION)
    if "forward" not in vars(net):
        net.forward = _one_blas_thread(net.forward)
    return net


def _one_blas_thread(forward):
    """``forward`` run with OpenBLAS on one thread: its threaded ``sgemm`` rounds differently from its
    one-thread ``sgemm`` on some shapes (measured on MiniLM's GAP features), so the thread count would change the
    last bits; parallel work is spread over processes instead."""
    import functools

    from threadpoolctl import threadpool_limits

    @functools.wraps(forward)
    def run(*args, **kwargs):
        with threadpool_limits(limits=1, user_api="blas"):
            return forward(*args, **kwargs)

    return run
