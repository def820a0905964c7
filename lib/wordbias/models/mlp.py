"""The MLP of the Kaggle "taming the BERT" baseline, which Kurita et al. (2019, §4 "Model") train on GAP.

Dense(31) → BatchNorm → ReLU → Dropout(0.6) → Dense(3) → softmax over the GAP labels A, B, neither, one
model per fold, the folds trained together on a leading axis (:func:`train_ensemble`). :func:`fit_predict`
is the kernel's protocol (K folds, early stopping, probabilities averaged); :func:`fit_predict_seeds`
repeats it over training seeds, in worker processes, with an on-disk cache. Training is seeded,
single-threaded and deterministic: the same seed gives bit-identical probabilities.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordbias.core import paths
from wordbias.core.atomic import atomic_file
from wordbias.core.errors import CacheRebuiltWarning
from wordbias.core.parallel import default_workers
from wordbias.datasets.gap import LABELS, label_codes


@dataclass(frozen=True)
class MLPConfig:
    """Hyper-parameters of the classifier (§4: "a single hidden layer with 31 dimensions, a dropout of 0.6
    and L2 regularization with weight 0.1"; the rest from the Kaggle kernel,
    https://www.kaggle.com/mateiionita/taming-the-bert-a-baseline).

    ``l2`` is Keras' ``kernel_regularizer=l2(0.1)`` on the output layer's kernel (0.1·Σw², as the kernel);
    ``l2_hidden`` also penalises the hidden layer's kernel. The paper gives 31 hidden units, the kernel's last
    version 37. Adam with Keras' epsilon, batches of 32, up to 1,000 epochs, early stopping with patience 100
    on the held-out loss, the best weights restored.
    ``n_folds`` ≥ 2: K-fold, one model per fold stopped on its held-out fold, predictions averaged;
    ``n_folds`` = 1: one model stopped on a seeded held-out fraction ``holdout`` of the training rows.

    Attributes
    ----------
    hidden : int, default 31
        The hidden units.
    dropout : float, default 0.6
        The dropout rate after the hidden layer.
    l2 : float, default 0.1
        The L2 weight on the output layer's kernel (0.1·Σw², Keras' ``kernel_regularizer=l2(0.1)``).
    l2_hidden : bool, default False
        Whether the L2 penalty also applies to the hidden layer's kernel.
    lr : float, default 0.001
        Adam's learning rate.
    batch_size : int, default 32
        The rows per batch.
    max_epochs : int, default 1000
        The most epochs.
    patience : int, default 100
        The epochs without improvement of the held-out loss before a fold stops.
    n_folds : int, default 5
        ≥ 2: K-fold, one model per fold stopped on its held-out fold, predictions averaged; 1: one model stopped
        on a seeded held-out fraction ``holdout`` of the training rows.
    holdout : float, default 0.2
        The held-out fraction when ``n_folds`` is 1.
    adam_eps : float, default 1e-07
        Adam's epsilon (Keras').
    """

    hidden: int = 31
    dropout: float = 0.6
    l2: float = 0.1
    l2_hidden: bool = False
    lr: float = 1e-3
    batch_size: int = 32
    max_epochs: int = 1000
    patience: int = 100
    n_folds: int = 5
    holdout: float = 0.2
    adam_eps: float = 1e-7  # Keras' default epsilon


@contextlib.contextmanager
def _deterministic(seed: int):
    """Seed torch's global generator, turn on deterministic algorithms and use one CPU thread in torch and in
    OpenBLAS (:func:`_bmm`; so the float sums, hence the probabilities, do not depend on the machine's core
    count); restore all of them after."""
    import torch
    from threadpoolctl import threadpool_limits

    was = torch.are_deterministic_algorithms_enabled()
    threads = torch.get_num_threads()
    with torch.random.fork_rng(devices=[]), threadpool_limits(limits=1, user_api="blas"):
        torch.manual_seed(seed)
        torch.use_deterministic_algorithms(True)
        torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.use_deterministic_algorithms(was)
            torch.set_num_threads(threads)


def _bmm(a, b):
    """The batched product a [F, n, k] @ b [F, k, m] of training, done by OpenBLAS through numpy, with its
    gradient (:func:`_blas_bmm_class`).

    PyTorch's CPU ``bmm`` runs in MKL, whose one vendor- and thread-independent branch (``MKL_CBWR=COMPATIBLE``,
    which ``make`` pins: README, "Reproducibility") is SSE2 code: 3.3 ms for the [25, 32, 1152] x [25, 1152, 31]
    product of a stacked GAP training step against 1.0 ms in OpenBLAS's AVX2 kernel (measured on this project's
    development machine, one thread), and these products are most of the training's time. numpy's ``matmul``
    multiplies each of the F matrices by its own ``sgemm`` call, so a fold's result does not depend on which
    folds are stacked with it (the products add nothing to what stacking changes: :func:`train_ensembles`), and
    :func:`_deterministic` holds OpenBLAS to one thread. The same arithmetic as ``torch.bmm``, rounded by another
    kernel."""
    return _blas_bmm_class().apply(a, b)


@functools.cache
def _blas_bmm_class():
    """The autograd function of :func:`_bmm`, built on first use (this module does not import torch when it is
    imported)."""
    import torch

    class _BlasBmmFn(torch.autograd.Function):
        """``torch.bmm`` in OpenBLAS: forward a @ b; backward g @ bᵀ and aᵀ @ g, only for the inputs that need
        them (the features of the first layer never do)."""

        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return torch.from_numpy(np.matmul(a.detach().numpy(), b.detach().numpy()))

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            g = g.contiguous().numpy()
            ga = gb = None
            if ctx.needs_input_grad[0]:
                ga = torch.from_numpy(np.matmul(g, b.detach().numpy().transpose(0, 2, 1)))
            if ctx.needs_input_grad[1]:
                gb = torch.from_numpy(np.matmul(a.detach().numpy().transpose(0, 2, 1), g))
            return ga, gb

    return _BlasBmmFn


#: the most training seeds stacked in one :func:`train_ensembles` call by :func:`fit_predict_seeds`: the stacks are
#: fixed by the seed list (5 seeds: 3 + 2, as two workers split them before), not by the machine's core count, which
#: once decided them and so moved the GAP outputs on a one-CPU machine (``make repro-check``, x86-64-v3-1cpu)
STACK_SEEDS = 3

_BN_EPS = 1e-3  # Keras BatchNormalization defaults: epsilon 1e-3, momentum 0.99
_BN_MOMENTUM = 0.01
_ADAM_BETAS = (0.9, 0.999)


@dataclass(frozen=True)
class MLPEnsemble:
    """Trained MLPs stacked on a leading fold axis F (one per fold), used in inference mode.

    ``params``: ``W1`` [F, d, h], ``b1``, ``gamma``, ``beta`` [F, 1, h], ``W2`` [F, h, 3], ``b2`` [F, 1, 3];
    ``running_mean``/``running_var`` [F, 1, h] are BatchNorm's moving statistics. ``best_epochs``,
    ``best_val_loss`` (held-out CE + penalty) and ``epochs_run`` are per fold.

    Attributes
    ----------
    params : dict
        ``W1`` [F, d, h], ``b1``, ``gamma``, ``beta`` [F, 1, h], ``W2`` [F, h, 3], ``b2`` [F, 1, 3].
    running_mean, running_var : torch.Tensor
        BatchNorm's moving statistics, [F, 1, h].
    best_epochs : list of int
        Each fold's best epoch.
    best_val_loss : list of float
        Each fold's best held-out loss (cross-entropy + penalty).
    epochs_run : list of int
        The epochs each fold ran.
    """

    params: dict = field(repr=False)
    running_mean: object = field(repr=False)
    running_var: object = field(repr=False)
    best_epochs: list[int]
    best_val_loss: list[float]
    epochs_run: list[int]

    @property
    def n_models(self) -> int:
        return int(self.params["W1"].shape[0])

    def fold_proba(self, X) -> np.ndarray:
        """Return the softmax probabilities of every fold model.

        Parameters
        ----------
        X : array_like
            The feature rows, [n, d].

        Returns
        -------
        numpy.ndarray
            [F, n, 3] (columns A, B, neither), float64.
        """
        import torch
        from threadpoolctl import threadpool_limits

        with torch.no_grad(), threadpool_limits(limits=1, user_api="blas"):  # the bits whatever the cores
            logits = _forward_eval(self.params, self.running_mean, self.running_var,
                                   torch.as_tensor(np.asarray(X, dtype=np.float32)))
        return torch.softmax(logits.double(), dim=-1).numpy()

    def predict_proba(self, X) -> np.ndarray:
        """Return the fold models' probabilities averaged (the kernel's averaging of its 5 fold models).

        Parameters
        ----------
        X : array_like
            As for :meth:`fold_proba`.

        Returns
        -------
        numpy.ndarray
            [n, 3] (columns A, B, neither), float64.
        """
        return self.fold_proba(X).mean(axis=0)


# ----------------------------------------------------------------------------------------------------
# the stacked model: initialisation, forward passes, loss
# ----------------------------------------------------------------------------------------------------


def _init_params(n_folds: int, d: int, cfg: MLPConfig, gen) -> dict:
    """Keras initialisation for F stacked models: Glorot-uniform kernels, zero biases, BatchNorm γ = 1, β = 0."""
    import torch

    def glorot(fan_in, fan_out):
        limit = (6.0 / (fan_in + fan_out)) ** 0.5
        return (torch.rand((n_folds, fan_in, fan_out), generator=gen) * 2 - 1) * limit

    h = cfg.hidden
    return {"W1": glorot(d, h), "b1": torch.zeros(n_folds, 1, h), "gamma": torch.ones(n_folds, 1, h),
            "beta": torch.zeros(n_folds, 1, h), "W2": glorot(h, len(LABELS)),
            "b2": torch.zeros(n_folds, 1, len(LABELS))}


def _forward_train(P: dict, Xb, mask, drop=None):
    """Training forward pass of F stacked models on their batches Xb [F, B, d] (rows where ``mask`` [F, B] is 0
    are padding): BatchNorm with the batch's mean and (biased) variance over the real rows, ReLU, then the
    dropout multiplier ``drop`` [F, B, h] (already scaled by 1/keep) if given. Returns the logits [F, B, 3]
    and the batch mean, variance and row count [F, 1, ·] for the moving statistics."""
    import torch

    w = mask.unsqueeze(-1)
    cnt = w.sum(dim=1, keepdim=True).clamp(min=1)
    z = _bmm(Xb, P["W1"]) + P["b1"]
    mu = (z * w).sum(dim=1, keepdim=True) / cnt
    var = (((z - mu) ** 2) * w).sum(dim=1, keepdim=True) / cnt
    a = torch.relu((z - mu) / torch.sqrt(var + _BN_EPS) * P["gamma"] + P["beta"])
    if drop is not None:
        a = a * drop
    return _bmm(a, P["W2"]) + P["b2"], mu, var, cnt


def _forward_eval(P: dict, mean, var, X):
    """Inference forward pass of every fold model: X [n, d] or [F, n, d] → logits [F, n, 3]."""
    import torch

    z = _matmul(X, P["W1"]) + P["b1"]
    a = torch.relu((z - mean) / torch.sqrt(var + _BN_EPS) * P["gamma"] + P["beta"])
    return _matmul(a, P["W2"]) + P["b2"]


def _matmul(a, b):
    """a @ b without gradient, broadcast over the fold axis ([n, k] or [F, n, k] times [F, k, m]), in OpenBLAS
    through numpy as :func:`_bmm`, one ``sgemm`` per fold."""
    import torch

    return torch.from_numpy(np.matmul(a.detach().numpy(), b.detach().numpy()))


def _penalty(P: dict, cfg: MLPConfig):
    """Keras ``l2(cfg.l2)`` per fold: cfg.l2 · Σw² of the output kernel (and the hidden one if ``l2_hidden``)."""
    pen = (P["W2"] ** 2).sum(dim=(1, 2))
    if cfg.l2_hidden:
        pen = pen + (P["W1"] ** 2).sum(dim=(1, 2))
    return cfg.l2 * pen


def _masked_nll(logits, y, mask):
    """Mean cross-entropy per fold over the rows where ``mask`` is true: logits [F, B, 3], y/mask [F, B] → [F]."""
    import torch

    nll = -torch.log_softmax(logits, dim=-1).gather(-1, y.unsqueeze(-1)).squeeze(-1)
    return (nll * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1)


def _pad(groups: Sequence[np.ndarray]):
    """Stack index arrays of different lengths into [F, max] (padded with 0) and a float mask."""
    import torch

    width = max(len(g) for g in groups)
    idx = torch.zeros((len(groups), width), dtype=torch.int64)
    mask = torch.zeros((len(groups), width), dtype=torch.float32)
    for f, g in enumerate(groups):
        idx[f, :len(g)] = torch.as_tensor(np.asarray(g, dtype=np.int64))
        mask[f, :len(g)] = 1.0
    return idx, mask


# ----------------------------------------------------------------------------------------------------
# training: Adam, BatchNorm's moving statistics, early stopping, one epoch
# ----------------------------------------------------------------------------------------------------


@dataclass
class _Adam:
    """Adam's state for F stacked models: first and second moments per parameter, steps taken per fold, and a
    scratch array per parameter for √v̂."""

    m1: dict
    m2: dict
    steps: object
    root: dict = field(default_factory=dict)

    @classmethod
    def start(cls, P: dict, n_folds: int) -> _Adam:
        import torch

        return cls(m1={k: torch.zeros_like(p) for k, p in P.items()},
                   m2={k: torch.zeros_like(p) for k, p in P.items()}, steps=torch.zeros(n_folds))

    def step(self, P: dict, grads, active, cfg: MLPConfig) -> None:
        """One Adam step (torch's: ε added to the bias-corrected √v̂) of the folds where ``active`` [F] is
        true; the others keep their parameters and moments. Call under ``torch.no_grad()``.

        Per parameter: m1 ← m1·β1 + (1 − β1)·g, m2 ← m2·β2 + ((1 − β2)·g)·g, p ← p − (lr/(1 − β1^t))·m1 /
        (√(m2/(1 − β2^t)) + ε), each product and sum rounded on its own (no fused multiply-add). The moments
        and the update are two compiled passes (:func:`wordbias.stats.kernels.adam_moments`,
        :func:`~wordbias.stats.kernels.adam_apply`) and the square root PyTorch's (its vectorised ``sqrt`` does
        not always round like numpy's); the bits are those of the same expressions in PyTorch ops, which took
        5.3 ms a step for 15 stacked GAP models against 1.0 ms (13 passes over the weights instead of 3;
        measured on this project's development machine, one thread; tested bit for bit against them)."""
        import torch

        from wordbias.stats import kernels

        b1, b2 = _ADAM_BETAS
        self.steps += active
        t = self.steps.clamp(min=1)
        # per fold: lr / (1 - β1^t) and 1 / (1 - β2^t), in float32 as PyTorch computes them
        c1, c2 = (cfg.lr / (1 - b1 ** t)).numpy(), (1 / (1 - b2 ** t)).numpy()
        act = np.ascontiguousarray(active.numpy(), dtype=np.bool_)
        f32 = np.float32
        n_folds = act.shape[0]
        def rows(t):
            """A tensor updated in place as [F, n] rows: a view, never a copy (which would drop the update)."""
            if not t.is_contiguous():
                raise RuntimeError("Adam's state and parameters must be contiguous tensors")
            return t.detach().numpy().reshape(n_folds, -1)

        for k, g in zip(list(P), grads):
            root = self.root.get(k)
            if root is None:
                root = self.root[k] = torch.zeros_like(P[k])
            m1 = rows(self.m1[k])
            kernels.adam_moments(m1, rows(self.m2[k]), rows(g.contiguous()), act, c2, f32(b1), f32(1 - b1), f32(b2),
                                 f32(1 - b2), rows(root))
            root.sqrt_()
            kernels.adam_apply(rows(P[k]), m1, rows(root), act, c1, f32(cfg.adam_eps))


@dataclass
class _Moving:
    """BatchNorm's moving mean and variance of F stacked models [F, 1, h] (Keras: momentum 0.99)."""

    mean: object
    var: object

    @classmethod
    def start(cls, n_folds: int, hidden: int) -> _Moving:
        import torch

        return cls(mean=torch.zeros(n_folds, 1, hidden), var=torch.ones(n_folds, 1, hidden))

    def update(self, mu, var, cnt, active) -> None:
        """Move towards a batch's mean and unbiased variance (``var`` is biased, over ``cnt`` rows) in the
        folds where ``active`` is true. Call under ``torch.no_grad()``."""
        import torch

        act = active.view(-1, 1, 1)
        unbiased = var * (cnt / (cnt - 1).clamp(min=1))
        self.mean = torch.where(act, (1 - _BN_MOMENTUM) * self.mean + _BN_MOMENTUM * mu.detach(), self.mean)
        self.var = torch.where(act, (1 - _BN_MOMENTUM) * self.var + _BN_MOMENTUM * unbiased.detach(), self.var)


@dataclass
class _EarlyStopping:
    """Keras ``EarlyStopping(patience, restore_best_weights=True)`` per fold: the best held-out loss so far,
    its epoch, weights and moving statistics; ``done`` [F] marks the folds that have stopped."""

    params: dict
    mean: object
    var: object
    loss: object
    epoch: object
    done: object
    epochs_run: object

    @classmethod
    def start(cls, P: dict, moving: _Moving, n_folds: int, max_epochs: int) -> _EarlyStopping:
        import torch

        return cls(params={k: p.detach().clone() for k, p in P.items()}, mean=moving.mean.clone(),
                   var=moving.var.clone(), loss=torch.full((n_folds,), float("inf")),
                   epoch=torch.zeros(n_folds, dtype=torch.int64), done=torch.zeros(n_folds, dtype=torch.bool),
                   epochs_run=torch.full((n_folds,), max_epochs, dtype=torch.int64))

    def after_epoch(self, epoch: int, val, P: dict, moving: _Moving, patience: int) -> None:
        """Keep the weights of the folds whose held-out loss ``val`` [F] improved; stop the folds that have
        not improved for ``patience`` epochs. Call under ``torch.no_grad()``."""
        import torch

        better = (val < self.loss) & ~self.done
        if bool(better.any()):
            sel = better.view(-1, 1, 1)
            self.params = {k: torch.where(sel, P[k].detach(), self.params[k]) for k in list(P)}
            self.mean = torch.where(sel, moving.mean, self.mean)
            self.var = torch.where(sel, moving.var, self.var)
            self.loss = torch.where(better, val, self.loss)
            self.epoch = torch.where(better, torch.tensor(epoch), self.epoch)
        stop = ~self.done & (epoch - self.epoch >= patience)
        self.epochs_run = torch.where(stop, torch.tensor(epoch), self.epochs_run)
        self.done |= stop

    def ensemble(self) -> MLPEnsemble:
        """The best weights of every fold, as an :class:`MLPEnsemble`."""
        return MLPEnsemble(params=self.params, running_mean=self.mean, running_var=self.var,
                           best_epochs=self.epoch.tolist(), best_val_loss=self.loss.tolist(),
                           epochs_run=self.epochs_run.tolist())


def _epoch_order(train_rows: list, n_batches: int, batch_size: int, gen):
    """This epoch's rows of every fold in a fresh random order, padded to ``n_batches`` full batches: the row
    indices and the mask of real rows, both [F, n_batches·batch_size]."""
    import torch

    order = [tr[torch.randperm(len(tr), generator=gen)] for tr in train_rows]
    idx, mask = _pad(order)
    idx = torch.nn.functional.pad(idx, (0, n_batches * batch_size - idx.shape[1]))
    mask = torch.nn.functional.pad(mask, (0, n_batches * batch_size - mask.shape[1]))
    return idx, mask


def _train_batch(P: dict, adam: _Adam, moving: _Moving, Xb, yb, mb, active, cfg: MLPConfig, gens,
                 groups: Sequence[slice]) -> None:
    """One training step of the folds where ``active`` is true, on their batches Xb [F, B, d] (labels yb,
    real-row mask mb [F, B]): dropout drawn from each seed's generator ``gens[g]`` for its folds ``groups[g]``
    (only when one of them is active, as when that seed is trained alone), mean cross-entropy + L2 penalty,
    Adam, moving statistics."""
    import torch

    drop = None
    if cfg.dropout > 0:
        keep = 1.0 - cfg.dropout
        drop = torch.ones((Xb.shape[0], Xb.shape[1], cfg.hidden))
        for gen, sl in zip(gens, groups):
            if bool(active[sl].any()):
                drop[sl] = (torch.rand((sl.stop - sl.start, Xb.shape[1], cfg.hidden), generator=gen) < keep) / keep
    logits, mu, var, cnt = _forward_train(P, Xb, mb, drop)
    loss = ((_masked_nll(logits, yb, mb) + _penalty(P, cfg)) * active).sum()
    grads = torch.autograd.grad(loss, list(P.values()))
    with torch.no_grad():
        adam.step(P, grads, active, cfg)
        moving.update(mu, var, cnt, active)


def _check_training_data(X, y, folds):
    """X and y as tensors (float32, int64), checked: [n, d] with one class index per row, no empty fold."""
    import torch

    X = torch.as_tensor(np.asarray(X, dtype=np.float32))
    y = torch.as_tensor(np.asarray(y, dtype=np.int64))
    if X.ndim != 2 or len(X) != len(y):
        raise ValueError(f"X must be [n, d] with one label per row, got X {tuple(X.shape)}, y {tuple(y.shape)}")
    if len(y) and (int(y.min()) < 0 or int(y.max()) >= len(LABELS)):
        raise ValueError(f"labels must be class indices 0..{len(LABELS) - 1}")
    for tr, va in folds:
        if len(tr) == 0 or len(va) == 0:
            raise ValueError("every fold needs training and held-out rows")
    return X, y


def train_ensemble(X, y, folds: Sequence[tuple[np.ndarray, np.ndarray]], *, cfg: MLPConfig = MLPConfig(),
                   seed: int = 0) -> MLPEnsemble:
    """Train one MLP per (train, held-out) pair of row indices into X, all folds at once (§4 "Model").

    Each fold's model is exactly the kernel's Keras model, trained on its own rows: Dense(h) → BatchNorm →
    ReLU → Dropout → Dense(3) → softmax, Glorot-uniform kernels and zero biases; per batch the loss is the
    mean cross-entropy + ``cfg.l2``·Σw² of the output kernel, minimised by Adam; each epoch visits the
    fold's rows in a fresh random order, in batches of ``cfg.batch_size`` (the last one smaller). After
    each epoch the held-out loss (same formula, inference mode) is computed; a fold stops when it has not
    improved for ``cfg.patience`` epochs and keeps its best weights (Keras ``EarlyStopping(patience,
    restore_best_weights=True)``). The folds share no parameters, so stacking them on a leading axis
    (batched matrix products, per-fold Adam state and masks for unequal fold sizes) changes nothing but
    the speed. Deterministic for ``seed`` (all draws come from one seeded ``torch.Generator``, in a fixed
    order: the initial weights, then per epoch each fold's row order and per batch the dropout masks).

    Small departures from Keras: Adam's update is torch's (ε added to the bias-corrected √v̂), the best
    weights are restored also when training runs to ``max_epochs`` (Keras restores them only on an early
    stop), and a one-row batch is normalised with variance 0 (as Keras does; torch's BatchNorm refuses it).

    Parameters
    ----------
    X : array_like
        The feature rows, [n, d].
    y : array_like of int
        The class indices (0, 1, 2: A, B, neither).
    folds : sequence of (numpy.ndarray, numpy.ndarray)
        The (train, held-out) row indices of each fold (:func:`fold_indices`).
    cfg : MLPConfig, default MLPConfig()
        The hyper-parameters.
    seed : int, default 0
        The seed of every draw.

    Returns
    -------
    MLPEnsemble
        The trained fold models.
    """
    return train_ensembles(X, y, [folds], cfg=cfg, seeds=[seed])[0]


def _split_ensemble(stopping: _EarlyStopping, sl: slice) -> MLPEnsemble:
    """The fold models ``sl`` of a stacked training, as one seed's :class:`MLPEnsemble`."""
    full = stopping.ensemble()
    return MLPEnsemble(params={k: v[sl].clone() for k, v in full.params.items()},
                       running_mean=full.running_mean[sl].clone(), running_var=full.running_var[sl].clone(),
                       best_epochs=full.best_epochs[sl], best_val_loss=full.best_val_loss[sl],
                       epochs_run=full.epochs_run[sl])


def train_ensembles(X, y, folds_by_seed: Sequence[Sequence[tuple[np.ndarray, np.ndarray]]], *,
                    cfg: MLPConfig = MLPConfig(), seeds: Sequence[int] = (0,)) -> list[MLPEnsemble]:
    """:func:`train_ensemble` for several seeds at once: every seed's fold models stacked on the leading axis.

    Each seed draws from its own ``torch.Generator`` in :func:`train_ensemble`'s order (its initial weights, per
    epoch its folds' row orders, per batch its dropout masks while one of its folds is active), the models share
    nothing, and each model's products, sums and Adam steps are its own, so a seed's models are those it gets
    trained alone, to the last bits on small inputs (tested) but not on GAP's (1,152 features: a seed stacked with
    four others or with two differs from its lone fit by about 1e-5 in probability, measured; some of torch's
    elementwise and reduction kernels round with the size of the whole stack). :func:`fit_predict_seeds` therefore
    stacks the seeds in groups fixed by the seed list (:data:`STACK_SEEDS`), never by the worker count. Only the
    per-step overhead of the small matrix products is shared, which makes five seeds about twice as cheap as five
    separate runs.

    Parameters
    ----------
    X, y, cfg
        As for :func:`train_ensemble`.
    folds_by_seed : sequence of sequence of (numpy.ndarray, numpy.ndarray)
        Per seed, the (train, held-out) row indices of its folds (:func:`fold_indices`).
    seeds : sequence of int, default (0,)
        The seeds, one per entry of ``folds_by_seed``.

    Returns
    -------
    list of MLPEnsemble
        Each seed's trained fold models, in the order of ``seeds``.
    """
    import torch

    seeds = [int(s) for s in seeds]
    if len(seeds) != len(folds_by_seed) or not seeds:
        raise ValueError(f"{len(seeds)} seeds for {len(folds_by_seed)} fold lists")
    folds = [f for fs in folds_by_seed for f in fs]
    X, y = _check_training_data(X, y, folds)
    B, starts = cfg.batch_size, np.cumsum([0] + [len(fs) for fs in folds_by_seed])
    groups = [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]
    n_folds = len(folds)
    with _deterministic(seeds[0]):
        gens = [torch.Generator().manual_seed(s) for s in seeds]
        parts = [_init_params(sl.stop - sl.start, X.shape[1], cfg, g) for g, sl in zip(gens, groups)]
        P = {k: torch.cat([p[k] for p in parts]) for k in parts[0]}
        for p in P.values():
            p.requires_grad_(True)
        adam, moving = _Adam.start(P, n_folds), _Moving.start(n_folds, cfg.hidden)
        v_idx, v_mask = _pad([va for _, va in folds])
        Xv, yv = X[v_idx], y[v_idx]
        stopping = _EarlyStopping.start(P, moving, n_folds, cfg.max_epochs)
        train_rows = [torch.as_tensor(np.asarray(tr, dtype=np.int64)) for tr, _ in folds]
        n_batches = max(-(-len(tr) // B) for tr in train_rows)
        for epoch in range(1, cfg.max_epochs + 1):
            orders = [_epoch_order(train_rows[sl], n_batches, B, g) for g, sl in zip(gens, groups)]
            idx, mask = torch.cat([o[0] for o in orders]), torch.cat([o[1] for o in orders])
            for b in range(n_batches):
                ib, mb = idx[:, b * B:(b + 1) * B], mask[:, b * B:(b + 1) * B]
                active = (mb.sum(dim=1) > 0) & ~stopping.done
                if bool(active.any()):
                    _train_batch(P, adam, moving, X[ib], y[ib], mb, active, cfg, gens, groups)
            with torch.no_grad():
                val = _masked_nll(_forward_eval(P, moving.mean, moving.var, Xv), yv, v_mask) + _penalty(P, cfg)
                stopping.after_epoch(epoch, val, P, moving, cfg.patience)
            if bool(stopping.done.all()):
                break
    return [_split_ensemble(stopping, sl) for sl in groups]


# ----------------------------------------------------------------------------------------------------
# the Kaggle protocol, once and over seeds
# ----------------------------------------------------------------------------------------------------


def fold_indices(n: int, cfg: MLPConfig, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return the (train, held-out) row indices of the folds.

    Seeded shuffled K-fold for ``n_folds`` ≥ 2 (the kernel: 5 folds), else one seeded held-out fraction
    ``cfg.holdout``.

    Parameters
    ----------
    n : int
        The number of training rows.
    cfg : MLPConfig
        ``n_folds`` and ``holdout``.
    seed : int
        The seed of the shuffle.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        The (train, held-out) indices of each fold.

    Examples
    --------
    >>> [(tr.tolist(), va.tolist()) for tr, va in fold_indices(4, MLPConfig(n_folds=2), seed=0)]
    [([1, 3], [0, 2]), ([0, 2], [1, 3])]
    """
    perm = np.random.default_rng(seed).permutation(n)
    if cfg.n_folds >= 2:
        if cfg.n_folds > n:
            raise ValueError(f"{cfg.n_folds} folds for {n} rows")
        parts = np.array_split(perm, cfg.n_folds)
        return [(np.sort(np.concatenate(parts[:k] + parts[k + 1:])), np.sort(parts[k])) for k in range(len(parts))]
    n_out = int(round(cfg.holdout * n))
    if not 0 < n_out < n:
        raise ValueError(f"holdout={cfg.holdout} leaves no training or no held-out rows (n={n})")
    return [(np.sort(perm[n_out:]), np.sort(perm[:n_out]))]


@dataclass(frozen=True)
class Prediction:
    """Averaged probabilities of the fold models and per-fold diagnostics.

    Attributes
    ----------
    proba : numpy.ndarray
        The averaged probabilities, [n, 3] (columns A, B, neither).
    fold_val_log_loss : list of float
        Each fold model's log loss on its held-out rows.
    best_epochs : list of int
        Each fold's best epoch.
    epochs_run : list of int
        The epochs each fold ran.
    seconds : float
        The wall-clock time of the fit.
    ensemble : MLPEnsemble or None
        The trained fold models.
    """

    proba: np.ndarray  # [n_predict, 3]: A, B, neither
    fold_val_log_loss: list[float]  # held-out cross-entropy (no penalty) of each fold model
    best_epochs: list[int]
    epochs_run: list[int]
    seconds: float
    ensemble: MLPEnsemble | None = field(repr=False)


def _class_indices(y) -> np.ndarray:
    """Labels as class indices: strings ("A", "B", "neither") through :func:`wordbias.datasets.gap.label_codes`."""
    y = np.asarray(y)
    return y if y.dtype.kind in "iu" else label_codes(y)


def fit_predict(X_train, y_train, X_predict, *, cfg: MLPConfig = MLPConfig(), seed: int = 0) -> Prediction:
    """Run the Kaggle protocol (§4 "Model") and return the averaged probabilities on ``X_predict``.

    Split the training rows into folds (:func:`fold_indices`, seeded), train one early-stopped model per fold
    (:func:`train_ensemble`, same seed) and average the models' probabilities on ``X_predict``.

    Parameters
    ----------
    X_train : array_like
        The training rows, [n, d].
    y_train : array_like
        Their labels: strings ("A", "B", "neither") or class indices.
    X_predict : array_like
        The rows to predict, [m, d].
    cfg : MLPConfig, default MLPConfig()
        The hyper-parameters.
    seed : int, default 0
        The seed of the folds and the training.

    Returns
    -------
    Prediction
        The probabilities and per-fold diagnostics.
    """
    return fit_predict_stacked(X_train, y_train, X_predict, cfg=cfg, seeds=[seed])[0]


def fit_predict_stacked(X_train, y_train, X_predict, *, cfg: MLPConfig = MLPConfig(),
                        seeds: Sequence[int] = (0,)) -> list[Prediction]:
    """:func:`fit_predict` for several seeds, their models trained together (:func:`train_ensembles`): each
    seed's prediction is the one :func:`fit_predict` gives it, to float rounding (:func:`train_ensembles`).

    Parameters
    ----------
    X_train, y_train, X_predict, cfg
        As for :func:`fit_predict`.
    seeds : sequence of int, default (0,)
        The seeds.

    Returns
    -------
    list of Prediction
        One per seed, in order; each one's ``seconds`` is the time of the whole stacked fit.
    """
    t0 = time.perf_counter()
    X_train = np.asarray(X_train, dtype=np.float32)
    y_train = _class_indices(y_train)
    folds = [fold_indices(len(X_train), cfg, s) for s in seeds]
    models = train_ensembles(X_train, y_train, folds, cfg=cfg, seeds=seeds)
    seconds = time.perf_counter() - t0
    out = []
    for ens, fs in zip(models, folds):
        held = ens.fold_proba(X_train)
        losses = [log_loss(y_train[va], held[k, va]) for k, (_, va) in enumerate(fs)]
        out.append(Prediction(proba=ens.predict_proba(X_predict), fold_val_log_loss=losses,
                              best_epochs=ens.best_epochs, epochs_run=ens.epochs_run, seconds=seconds, ensemble=ens))
    return out


@dataclass(frozen=True)
class SeedStudy:
    """The Kaggle protocol run once per training seed (:func:`fit_predict_seeds`): the development
    probabilities of each seed's fold-averaged model and per-fold diagnostics, seed by seed.

    Attributes
    ----------
    seeds : list of int
        The training seeds.
    proba : numpy.ndarray
        The development probabilities of each seed's fold-averaged model, [seeds, m, 3].
    fold_val_log_loss : numpy.ndarray
        Each seed's and fold's held-out log loss, [seeds, folds].
    best_epochs : numpy.ndarray
        Each seed's and fold's best epoch, [seeds, folds].
    epochs_run : numpy.ndarray
        The epochs each seed's folds ran, [seeds, folds].
    seconds : float
        The wall-clock time (0 when read from the cache).
    cached : bool, default False
        Whether the study was read from the cache.
    """

    seeds: list[int]
    proba: np.ndarray  # [S, n_predict, 3]: A, B, neither, one row of probabilities per seed
    fold_val_log_loss: np.ndarray  # [S, F] held-out cross-entropy (no penalty) of each fold model
    best_epochs: np.ndarray  # [S, F]
    epochs_run: np.ndarray  # [S, F]
    seconds: float  # training time (0 when read from the cache)
    cached: bool = False


def _study_key(X_train, y_train, X_predict, cfg: MLPConfig, seeds) -> str:
    """sha256 of everything a seed study depends on: the arrays, the configuration, the seeds, this
    module's source (the trainer) and the compute fingerprint (kernel settings, library versions)."""
    h = hashlib.sha256(json.dumps([vars(cfg), [int(s) for s in seeds], paths.compute_fingerprint()],
                                  sort_keys=True).encode())
    h.update(Path(__file__).read_bytes())
    for a in (X_train, y_train, X_predict):
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def fit_predict_seeds(X_train, y_train, X_predict, *, cfg: MLPConfig = MLPConfig(), seeds: Sequence[int] = (0,),
                      cache_dir: str | Path | None = None, workers: int | None = None) -> SeedStudy:
    """Run :func:`fit_predict` for every seed in ``seeds``, the seeds spread over ``workers`` processes.

    The trained MLP is chaotic: a training seed (fold split, initialisation, dropout, batch order), or a
    CPU that rounds one product differently, moves its probabilities by as much as the effects it is
    used to measure, so results are reported over seeds. With ``cache_dir`` the probabilities and
    diagnostics are stored as ``mlp-<key>.npz`` (no pickle), the key covering the arrays, ``cfg``, the seeds,
    this module's source and the compute fingerprint, and reused.

    Parameters
    ----------
    X_train, y_train, X_predict, cfg
        As for :func:`fit_predict`.
    seeds : sequence of int, default (0,)
        The training seeds, distinct, at least one.
    cache_dir : str or pathlib.Path, optional
        The folder of the cache; None: no cache.
    workers : int, optional
        The processes (default: the CPUs this process may use).

    Returns
    -------
    SeedStudy
        The probabilities and diagnostics, seed by seed.

    Raises
    ------
    ValueError
        When ``seeds`` is empty or holds a seed twice.

    Warns
    -----
    CacheRebuiltWarning
        When a cache file is damaged and is recomputed.
    """
    X_train = np.asarray(X_train, dtype=np.float32)
    X_predict = np.asarray(X_predict, dtype=np.float32)
    y_train = _class_indices(y_train)
    seeds = [int(s) for s in seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct and at least one, got {seeds}")
    cache_file = key = None
    if cache_dir is not None:
        key = _study_key(X_train, y_train, X_predict, cfg, seeds)
        cache_file = Path(cache_dir) / f"mlp-{key[:24]}.npz"
        study = _read_study(cache_file, key, seeds, len(X_predict))
        if study is not None:
            return study
    t0 = time.perf_counter()
    fits = _map_seeds(X_train, y_train, X_predict, cfg, seeds, workers)
    study = SeedStudy(seeds=seeds, proba=np.stack([f.proba for f in fits]),
                      fold_val_log_loss=np.array([f.fold_val_log_loss for f in fits]),
                      best_epochs=np.array([f.best_epochs for f in fits]),
                      epochs_run=np.array([f.epochs_run for f in fits]), seconds=time.perf_counter() - t0)
    if cache_file is not None:
        with atomic_file(cache_file, what="the seed study cache") as tmp:
            np.savez(tmp, key=np.array(key), seeds=np.array(seeds), proba=study.proba,
                     fold_val_log_loss=study.fold_val_log_loss, best_epochs=study.best_epochs,
                     epochs_run=study.epochs_run)
    return study


def _fit_group(args) -> list[Prediction]:
    """Worker of :func:`fit_predict_seeds`: a group of seeds trained together (:func:`fit_predict_stacked`),
    without the models."""
    X_train, y_train, X_predict, cfg, seeds = args
    return [dataclasses.replace(p, ensemble=None)
            for p in fit_predict_stacked(X_train, y_train, X_predict, cfg=cfg, seeds=seeds)]


def _map_seeds(X_train, y_train, X_predict, cfg: MLPConfig, seeds: list[int], workers: int | None) -> list:
    """Each seed's prediction, in order: the seeds split into stacks of at most :data:`STACK_SEEDS` (fixed by the
    seed list: a seed's last bits depend on which seeds share its stack), each stack trained together, the stacks
    spread over ``workers`` spawned processes (in this process when one), so the worker count changes nothing."""
    groups = np.array_split(np.asarray(seeds), -(-len(seeds) // STACK_SEEDS))
    workers = min(len(groups), workers or default_workers())
    jobs = [(X_train, y_train, X_predict, cfg, [int(s) for s in group]) for group in groups]
    if workers <= 1:
        return [p for j in jobs for p in _fit_group(j)]
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as pool:
        return [p for group in pool.map(_fit_group, jobs) for p in group]


def _read_study(path: Path, key: str, seeds: list[int], n_predict: int) -> SeedStudy | None:
    """A cached :class:`SeedStudy`, or None when the file is absent; a file that is unreadable (truncated,
    not a zip, missing arrays), of another key or of the wrong shapes gives a
    :class:`~wordbias.core.errors.CacheRebuiltWarning` and None (then it is recomputed and overwritten)."""
    import zipfile

    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {name: z[name] for name in ("key", "seeds", "proba", "fold_val_log_loss", "best_epochs",
                                                 "epochs_run")}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    else:
        problem = _study_mismatch(arrays, key, seeds, n_predict)
        if problem is None:
            return SeedStudy(seeds=seeds, proba=arrays["proba"], fold_val_log_loss=arrays["fold_val_log_loss"],
                             best_epochs=arrays["best_epochs"], epochs_run=arrays["epochs_run"], seconds=0.0,
                             cached=True)
    warnings.warn(f"MLP seed-study cache {path}: {problem}; recomputing it", CacheRebuiltWarning, stacklevel=3)
    return None


def _study_mismatch(arrays: dict, key: str, seeds: list[int], n_predict: int) -> str | None:
    """What is wrong with a cached study's arrays (key, seeds, shapes), or None."""
    n = len(seeds)
    if str(arrays["key"]) != key:
        return "another key"
    if arrays["seeds"].tolist() != seeds:
        return f"seeds {arrays['seeds'].tolist()}, expected {seeds}"
    expected = {"proba": (n, n_predict, 3)}
    for name in ("fold_val_log_loss", "best_epochs", "epochs_run"):
        if arrays[name].shape[:1] != (n,):
            return f"{name} of shape {arrays[name].shape}, expected {n} rows (one per seed)"
    if arrays["proba"].shape != expected["proba"]:
        return f"proba of shape {arrays['proba'].shape}, expected {expected['proba']}"
    return None


# ----------------------------------------------------------------------------------------------------
# scoring predictions
# ----------------------------------------------------------------------------------------------------


def log_loss(y, proba, eps: float = 1e-15) -> float:
    """Return the mean cross-entropy of class indices ``y`` under ``proba`` (clipped to [eps, 1]), natural log.

    Parameters
    ----------
    y : array_like of int
        The class indices.
    proba : array_like of float
        The probabilities, [n, classes].
    eps : float, default 1e-15
        The smallest probability counted.

    Returns
    -------
    float
        The log loss.

    Examples
    --------
    >>> round(log_loss([0, 2], [[0.5, 0.25, 0.25], [0.2, 0.3, 0.5]]), 6)  # -(ln 0.5 + ln 0.5) / 2
    0.693147
    """
    proba = np.asarray(proba, dtype=np.float64)
    p = np.clip(proba[np.arange(len(proba)), np.asarray(y)], eps, 1.0)
    return float(-np.log(p).mean())


def scores(y, proba) -> dict:
    """Return the accuracy (arg-max), log loss and n of predictions against labels.

    Parameters
    ----------
    y : array_like
        The labels: strings ("A", "B", "neither") or class indices.
    proba : array_like of float
        The probabilities, [n, 3].

    Returns
    -------
    dict
        ``{"n": ..., "accuracy": ..., "log_loss": ...}``.

    Examples
    --------
    >>> s = scores(["A", "neither"], [[0.7, 0.2, 0.1], [0.6, 0.1, 0.3]])
    >>> s["n"], s["accuracy"], round(s["log_loss"], 4)
    (2, 0.5, 0.7803)
    """
    y = _class_indices(y)
    return {"n": int(len(y)), "accuracy": float((np.argmax(proba, axis=1) == y).mean()),
            "log_loss": log_loss(y, proba)}
