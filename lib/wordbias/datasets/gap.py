"""The gendered pronoun resolution case study of Kurita et al. (2019), Section 4 (Tables 4 and 6).

GAP (Webster et al. 2018) pairs an ambiguous pronoun P of a Wikipedia paragraph with two names A and B;
the task is to say whether P refers to A, to B or to neither. Kurita et al. feed the contextual BERT
vectors of P, A and B to the Kaggle "taming the BERT" baseline (an MLP inspired by Tenney et al. 2019)
and find that the model gives the *female* pronouns a higher probability of referring to no one
(Table 4: 13.9% vs 11.5%, p = 0.007 on a permutation test) although the training labels do not (9.8% vs
10.3%). They then relate this to the topics of the texts (Table 6): each NMF topic gets the MLM bias
score of its top words, each sample the topic-weighted sum, and the sample scores correlate with the
model's P(neither) for female pronouns (Spearman ρ = 0.207, p = 4e-11).

Protocol (as in the Kaggle kernel the paper names, https://www.kaggle.com/mateiionita/taming-the-bert-a-baseline):

- **Splits.** The MLP is trained on ``gap-test`` + ``gap-validation`` (2,454 rows) and predicts
  ``gap-development`` (2,000 rows). The development split is the paper's "training set": its counts are
  the paper's (1,000 male and 1,000 female pronouns, 103 and 98 of them "neither"), and all of Table 4 and
  the topic correlation are computed on it.
- **Features.** The final-layer vectors of A, B and P in their paragraph (a name split into several
  WordPieces or words gets the mean of its tokens), concatenated as [A, B, P] (the kernel's order).
- **Model.** Dense(31) → BatchNorm → ReLU → Dropout(0.6) → Dense(3) → softmax, with an L2 penalty of
  0.1·Σw² on the output layer's kernel (Keras ``kernel_regularizer=l2(0.1)``, as in the kernel; the paper
  gives 31 hidden units, the kernel's last version 37). Adam (lr 0.001), batches of 32, up to 1,000 epochs,
  early stopping with patience 100 on the held-out loss and the best weights restored; 5 folds
  (seeded shuffled K-fold of the training rows), each fold's model stopped on its held-out fold, and the
  development probabilities averaged over the 5 models.

Everything random is seeded (fold split, weight initialisation, dropout, batch order); training runs under
``torch.use_deterministic_algorithms`` on one CPU thread, so the same seed gives bit-identical
probabilities run after run (and whatever the core count; a different CPU or torch build may round
differently). The five fold models are trained together, stacked on a leading axis (:func:`train_ensemble`).

Topics (Table 6) come from NMF on TF-IDF of the development texts (:func:`fit_topics`); a topic's bias is
the weighted sum of its top words' scores (:func:`topic_bias`), a sample's the topic-weighted sum of those
(:func:`sample_bias`). The word scores are the caller's (the MLM log probability bias score of
``wordbias.mlm``); :func:`cosine_word_scores` is an encoder-only stand-in, not the paper's score.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from wordbias.core import paths
from wordbias.core.permutation import TailProbability, default_workers, subset_sum_tail

#: the folder holding the three GAP files and their SOURCE.md
DATA_DIR = paths.DATA / "gap"
#: default on-disk cache of contextual features (gitignored)
CACHE_DIR = paths.CACHE / "gap"
SPLITS = ("development", "test", "validation")
COLUMNS = ("ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref", "B", "B-offset", "B-coref", "URL")
LABELS = ("A", "B", "neither")
FEMALE_PRONOUNS = frozenset({"she", "her", "hers"})
MALE_PRONOUNS = frozenset({"he", "him", "his"})
#: the paper's numbers (Section 4, Table 4), for side-by-side tables
PAPER_TABLE4 = pd.DataFrame({"prior": [0.103, 0.098], "avg_predicted": [0.115, 0.139]},
                            index=pd.Index(["male", "female"], name="gender"))
PAPER_P_VALUE = 0.007
PAPER_SPEARMAN = (0.207, 4e-11)

_OFFSETS = ("Pronoun-offset", "A-offset", "B-offset")
_BOOLS = {"TRUE": True, "FALSE": False}


class GapFormatError(ValueError):
    """A GAP file that does not have the published format (the message names the file and line or ID)."""


# ----------------------------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------------------------


def split_path(split: str) -> Path:
    """The file of a GAP split: ``data/gap/gap-<split>.tsv``."""
    if split not in SPLITS:
        raise ValueError(f"unknown GAP split {split!r}; use one of {SPLITS}")
    return DATA_DIR / f"gap-{split}.tsv"


def read_tsv(path: str | Path) -> pd.DataFrame:
    """Parse and check one GAP file (Webster et al. 2018 format; Kurita et al. 2019, §4 "Dataset").

    Columns as published, offsets as ints, ``A-coref``/``B-coref`` as bools, plus ``label`` ("A", "B" or
    "neither") and ``gender`` ("female" for she/her/hers, "male" for he/him/his). Raises
    :class:`GapFormatError` naming the file and line for a wrong header, a wrong number of fields, a
    non-integer offset or a coref value other than TRUE/FALSE; naming the ID for a row whose A and B are
    both TRUE, an unknown pronoun, or an offset that does not point at its word (``Text[o:o+len(w)] != w``).
    """
    path = Path(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise GapFormatError(f"{path}: empty file")
    header = lines[0].split("\t")
    if tuple(header) != COLUMNS:
        raise GapFormatError(f"{path}, line 1: header {header} is not the GAP header {list(COLUMNS)}")
    rows = [line.split("\t") for line in lines[1:]]
    widths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    bad = np.flatnonzero(widths != len(COLUMNS))
    if bad.size:
        i = int(bad[0])
        raise GapFormatError(f"{path}, line {i + 2}: {widths[i]} tab-separated fields, expected {len(COLUMNS)}"
                             + (f" ({bad.size} malformed lines in all)" if bad.size > 1 else ""))
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    for col in _OFFSETS:
        ok = df[col].str.fullmatch(r"\d+").to_numpy(dtype=bool)
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise GapFormatError(f"{path}, line {i + 2} (ID {df.at[i, 'ID']}): {col} = {df.at[i, col]!r} "
                                 "is not a non-negative integer")
        df[col] = df[col].astype(np.int64)
    for col in ("A-coref", "B-coref"):
        ok = df[col].isin(list(_BOOLS)).to_numpy()
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise GapFormatError(f"{path}, line {i + 2} (ID {df.at[i, 'ID']}): {col} = {df.at[i, col]!r}, "
                                 "expected TRUE or FALSE")
        df[col] = df[col].map(_BOOLS).astype(bool)
    _check_rows(df, path)
    df["label"] = np.select([df["A-coref"], df["B-coref"]], ["A", "B"], "neither")
    df["gender"] = np.where(df["Pronoun"].str.lower().isin(list(FEMALE_PRONOUNS)), "female", "male")
    return df


def _check_rows(df: pd.DataFrame, path: Path) -> None:
    """Row-level checks of :func:`read_tsv`: unique IDs, one referent at most, known pronouns, offsets."""
    dup = df["ID"].duplicated()
    if dup.any():
        raise GapFormatError(f"{path}: duplicate ID {df.loc[dup, 'ID'].iloc[0]!r}")
    both = (df["A-coref"] & df["B-coref"]).to_numpy()
    if both.any():
        i = int(np.flatnonzero(both)[0])
        raise GapFormatError(f"{path}, line {i + 2}: row {df.at[i, 'ID']} has both A-coref and B-coref TRUE")
    known = df["Pronoun"].str.lower().isin(list(FEMALE_PRONOUNS | MALE_PRONOUNS)).to_numpy()
    if not known.all():
        i = int(np.flatnonzero(~known)[0])
        raise GapFormatError(f"{path}, line {i + 2}: row {df.at[i, 'ID']} has pronoun {df.at[i, 'Pronoun']!r}, "
                             f"not one of {sorted(FEMALE_PRONOUNS | MALE_PRONOUNS)}")
    for word, off in (("Pronoun", "Pronoun-offset"), ("A", "A-offset"), ("B", "B-offset")):
        found = [t[o:o + len(w)] for t, o, w in zip(df["Text"], df[off], df[word])]
        wrong = np.flatnonzero(np.asarray(found, dtype=object) != df[word].to_numpy(dtype=object))
        if wrong.size:
            i = int(wrong[0])
            raise GapFormatError(f"{path}, line {i + 2}: row {df.at[i, 'ID']}: Text[{off}={df.at[i, off]}:+"
                                 f"{len(df.at[i, word])}] is {found[i]!r}, not {word} = {df.at[i, word]!r}")


def load(split: str) -> pd.DataFrame:
    """Load a GAP split ("development", "test" or "validation") from ``data/gap`` with :func:`read_tsv`'s
    checks; ``df.attrs["split"]`` records the split (used to name feature caches)."""
    df = read_tsv(split_path(split))
    df.attrs["split"] = split
    return df


# ----------------------------------------------------------------------------------------------------
# contextual features (§4 "Model": "BERT embeddings for P, A and B, given the context")
# ----------------------------------------------------------------------------------------------------


def spans(df: pd.DataFrame) -> list[list[tuple[int, int]]]:
    """Character spans [(A), (B), (P)] of each row, in the kernel's feature order A, B, P."""
    out = []
    for a, ao, b, bo, p, po in zip(df["A"], df["A-offset"], df["B"], df["B-offset"], df["Pronoun"],
                                   df["Pronoun-offset"]):
        out.append([(int(ao), int(ao) + len(a)), (int(bo), int(bo) + len(b)), (int(po), int(po) + len(p))])
    return out


def _features_key(model, texts: Sequence[str], sp, max_length: int, batch_size: int) -> str:
    """sha256 of everything the features depend on: model (name, path, size), texts, spans, max_length,
    batch_size (padding changes the float rounding) and the compute fingerprint (kernels, versions)."""
    h = hashlib.sha256()
    cfg = model.model.config
    h.update(json.dumps([model.name, str(model.path), model.kind, cfg.hidden_size, cfg.num_hidden_layers,
                         int(max_length), int(batch_size), paths.compute_fingerprint()], sort_keys=True).encode())
    for t, s in zip(texts, sp):
        h.update(t.encode("utf-8"))
        h.update(np.asarray(s, dtype=np.int64).tobytes())
    return h.hexdigest()


def features(model, df: pd.DataFrame, *, batch_size: int = 32, max_length: int = 512,
             cache_dir: str | Path | None = None, progress: bool = False) -> np.ndarray:
    """Contextual features of a GAP frame: [n, 3·hidden] float32, the final-layer vectors of A, B and P.

    Kurita et al. (2019) §4 "Model". Uses :func:`wordbias.contextual.span_embeddings` (mean over the
    WordPieces of a span). With ``cache_dir`` the array is stored there as
    ``<model label>-<split>-<hash[:16]>.npz`` (no pickle), the hash covering the model name and path, the
    texts, the spans, ``max_length``, ``batch_size`` and :func:`wordbias.paths.compute_fingerprint`; a
    cached file is used only if its stored full hash and the array's shape match.
    """
    from wordbias.models import contextual

    texts = df["Text"].tolist()
    sp = spans(df)
    cache_file = key = None
    if cache_dir is not None:
        key = _features_key(model, texts, sp, max_length, batch_size)
        split = df.attrs.get("split", "rows")
        cache_file = Path(cache_dir) / f"{model.label}-{split}-{key[:16]}.npz"
        if cache_file.exists():
            with np.load(cache_file, allow_pickle=False) as z:
                if str(z["key"]) == key and z["features"].shape == (len(texts), 3 * model.model.config.hidden_size):
                    return z["features"]
    vecs = contextual.span_embeddings(model, texts, sp, batch_size=batch_size, max_length=max_length,
                                      progress=progress, desc=f"GAP {df.attrs.get('split', '')}".strip())
    X = vecs.reshape(len(texts), -1)
    if cache_file is not None:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_suffix(".tmp.npz")
        np.savez(tmp, features=X, key=np.array(key))
        tmp.replace(cache_file)
    return X


def label_codes(labels) -> np.ndarray:
    """Labels "A"/"B"/"neither" as class indices 0/1/2 (the order of :data:`LABELS`)."""
    labels = np.asarray(labels, dtype=object)
    codes = np.full(labels.shape, -1, dtype=np.int64)
    for k, name in enumerate(LABELS):
        codes[labels == name] = k
    if (codes < 0).any():
        raise ValueError(f"unknown label {labels[codes < 0][0]!r}; expected one of {LABELS}")
    return codes


# ----------------------------------------------------------------------------------------------------
# the MLP of the Kaggle baseline (§4 "Model")
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MLPConfig:
    """Hyper-parameters of the classifier (§4: "a single hidden layer with 31 dimensions, a dropout of 0.6
    and L2 regularization with weight 0.1"; the rest from the Kaggle kernel).

    ``l2_hidden`` also penalises the hidden layer's kernel (the kernel penalises the output layer only).
    ``n_folds`` ≥ 2: K-fold, one model per fold stopped on its held-out fold, predictions averaged;
    ``n_folds`` = 1: one model stopped on a seeded held-out fraction ``holdout`` of the training rows.
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
    """Seed torch's global generator, turn on deterministic algorithms and use one CPU thread (so the float
    sums, hence the probabilities, do not depend on the machine's core count); restore all three after."""
    import torch

    was = torch.are_deterministic_algorithms_enabled()
    threads = torch.get_num_threads()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        torch.use_deterministic_algorithms(True)
        torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.use_deterministic_algorithms(was)
            torch.set_num_threads(threads)


_BN_EPS = 1e-3  # Keras BatchNormalization defaults: epsilon 1e-3, momentum 0.99
_BN_MOMENTUM = 0.01
_ADAM_BETAS = (0.9, 0.999)


@dataclass
class MLPEnsemble:
    """Trained MLPs stacked on a leading fold axis F (one per fold), used in inference mode.

    ``params``: ``W1`` [F, d, h], ``b1``, ``gamma``, ``beta`` [F, 1, h], ``W2`` [F, h, 3], ``b2`` [F, 1, 3];
    ``running_mean``/``running_var`` [F, 1, h] are BatchNorm's moving statistics. ``best_epochs``,
    ``best_val_loss`` (held-out CE + penalty) and ``epochs_run`` are per fold.
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
        """Softmax probabilities of every fold model: [F, n, 3] (columns A, B, neither), float64."""
        import torch

        with torch.no_grad():
            logits = _forward_eval(self.params, self.running_mean, self.running_var,
                                   torch.as_tensor(np.asarray(X, dtype=np.float32)))
        return torch.softmax(logits.double(), dim=-1).numpy()

    def predict_proba(self, X) -> np.ndarray:
        """The fold models' probabilities averaged: [n, 3] (the kernel's averaging of its 5 fold models)."""
        return self.fold_proba(X).mean(axis=0)


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
    z = torch.bmm(Xb, P["W1"]) + P["b1"]
    mu = (z * w).sum(dim=1, keepdim=True) / cnt
    var = (((z - mu) ** 2) * w).sum(dim=1, keepdim=True) / cnt
    a = torch.relu((z - mu) / torch.sqrt(var + _BN_EPS) * P["gamma"] + P["beta"])
    if drop is not None:
        a = a * drop
    return torch.bmm(a, P["W2"]) + P["b2"], mu, var, cnt


def _forward_eval(P: dict, mean, var, X):
    """Inference forward pass of every fold model: X [n, d] or [F, n, d] → logits [F, n, 3]."""
    import torch

    z = torch.matmul(X, P["W1"]) + P["b1"]
    a = torch.relu((z - mean) / torch.sqrt(var + _BN_EPS) * P["gamma"] + P["beta"])
    return torch.matmul(a, P["W2"]) + P["b2"]


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
    the speed. Deterministic for ``seed`` (all draws come from one seeded ``torch.Generator``).

    Small departures from Keras: Adam's update is torch's (ε added to the bias-corrected √v̂), the best
    weights are restored also when training runs to ``max_epochs`` (Keras restores them only on an early
    stop), and a one-row batch is normalised with variance 0 (as Keras does; torch's BatchNorm refuses it).
    """
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
    n_folds, d, h, B = len(folds), X.shape[1], cfg.hidden, cfg.batch_size
    with _deterministic(seed):
        gen = torch.Generator().manual_seed(seed)
        P = _init_params(n_folds, d, cfg, gen)
        for p in P.values():
            p.requires_grad_(True)
        names = list(P)
        m1 = {k: torch.zeros_like(p) for k, p in P.items()}
        m2 = {k: torch.zeros_like(p) for k, p in P.items()}
        steps = torch.zeros(n_folds)
        r_mean, r_var = torch.zeros(n_folds, 1, h), torch.ones(n_folds, 1, h)
        v_idx, v_mask = _pad([va for _, va in folds])
        Xv, yv = X[v_idx], y[v_idx]
        best_loss = torch.full((n_folds,), float("inf"))
        best_epoch = torch.zeros(n_folds, dtype=torch.int64)
        best = {k: p.detach().clone() for k, p in P.items()}
        best_mean, best_var = r_mean.clone(), r_var.clone()
        done = torch.zeros(n_folds, dtype=torch.bool)
        epochs_run = torch.full((n_folds,), cfg.max_epochs, dtype=torch.int64)
        train_rows = [torch.as_tensor(np.asarray(tr, dtype=np.int64)) for tr, _ in folds]
        n_batches = max(-(-len(tr) // B) for tr in train_rows)
        keep = 1.0 - cfg.dropout
        b1, b2 = _ADAM_BETAS
        for epoch in range(1, cfg.max_epochs + 1):
            order = [tr[torch.randperm(len(tr), generator=gen)] for tr in train_rows]
            idx, mask = _pad(order)
            idx = torch.nn.functional.pad(idx, (0, n_batches * B - idx.shape[1]))
            mask = torch.nn.functional.pad(mask, (0, n_batches * B - mask.shape[1]))
            for b in range(n_batches):
                ib, mb = idx[:, b * B:(b + 1) * B], mask[:, b * B:(b + 1) * B]
                active = (mb.sum(dim=1) > 0) & ~done
                if not bool(active.any()):
                    continue
                drop = None
                if cfg.dropout > 0:
                    drop = (torch.rand((n_folds, B, h), generator=gen) < keep) / keep
                logits, mu, var, cnt = _forward_train(P, X[ib], mb, drop)
                loss = ((_masked_nll(logits, y[ib], mb) + _penalty(P, cfg)) * active).sum()
                grads = torch.autograd.grad(loss, [P[k] for k in names])
                with torch.no_grad():
                    act = active.view(-1, 1, 1)
                    steps += active
                    t = steps.clamp(min=1).view(-1, 1, 1)
                    every = bool(active.all())  # the usual case: the same arithmetic in place, no masking
                    for k, g in zip(names, grads):
                        if every:
                            m1[k].mul_(b1).add_((1 - b1) * g)
                            m2[k].mul_(b2).add_((1 - b2) * g * g)
                        else:
                            m1[k] = torch.where(act, b1 * m1[k] + (1 - b1) * g, m1[k])
                            m2[k] = torch.where(act, b2 * m2[k] + (1 - b2) * g * g, m2[k])
                        step = cfg.lr * (m1[k] / (1 - b1 ** t)) / (torch.sqrt(m2[k] / (1 - b2 ** t)) + cfg.adam_eps)
                        P[k].sub_(step if every else torch.where(act, step, torch.zeros(())))
                    unbiased = var * (cnt / (cnt - 1).clamp(min=1))
                    r_mean = torch.where(act, (1 - _BN_MOMENTUM) * r_mean + _BN_MOMENTUM * mu.detach(), r_mean)
                    r_var = torch.where(act, (1 - _BN_MOMENTUM) * r_var + _BN_MOMENTUM * unbiased.detach(), r_var)
            with torch.no_grad():
                val = _masked_nll(_forward_eval(P, r_mean, r_var, Xv), yv, v_mask) + _penalty(P, cfg)
                better = (val < best_loss) & ~done
                if bool(better.any()):
                    sel = better.view(-1, 1, 1)
                    best = {k: torch.where(sel, P[k].detach(), best[k]) for k in names}
                    best_mean = torch.where(sel, r_mean, best_mean)
                    best_var = torch.where(sel, r_var, best_var)
                    best_loss = torch.where(better, val, best_loss)
                    best_epoch = torch.where(better, torch.tensor(epoch), best_epoch)
                stop = ~done & (epoch - best_epoch >= cfg.patience)
                epochs_run = torch.where(stop, torch.tensor(epoch), epochs_run)
                done |= stop
            if bool(done.all()):
                break
    return MLPEnsemble(params=best, running_mean=best_mean, running_var=best_var,
                       best_epochs=best_epoch.tolist(), best_val_loss=best_loss.tolist(),
                       epochs_run=epochs_run.tolist())


def fold_indices(n: int, cfg: MLPConfig, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train, held-out) row indices: seeded shuffled K-fold for ``n_folds`` ≥ 2 (the kernel: 5 folds),
    else one seeded held-out fraction ``cfg.holdout``."""
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


@dataclass
class Prediction:
    """Averaged probabilities of the fold models and per-fold diagnostics."""

    proba: np.ndarray  # [n_predict, 3]: A, B, neither
    fold_val_log_loss: list[float]  # held-out cross-entropy (no penalty) of each fold model
    best_epochs: list[int]
    epochs_run: list[int]
    seconds: float
    ensemble: MLPEnsemble = field(repr=False)


def fit_predict(X_train, y_train, X_predict, *, cfg: MLPConfig = MLPConfig(), seed: int = 0) -> Prediction:
    """The Kaggle protocol (§4 "Model"): split the training rows into folds (:func:`fold_indices`, seeded),
    train one early-stopped model per fold (:func:`train_ensemble`, same seed) and average the models'
    probabilities on X_predict. Labels may be strings ("A", "B", "neither") or class indices."""
    t0 = time.perf_counter()
    X_train = np.asarray(X_train, dtype=np.float32)
    y_train = np.asarray(y_train)
    if y_train.dtype.kind not in "iu":
        y_train = label_codes(y_train)
    folds = fold_indices(len(X_train), cfg, seed)
    ens = train_ensemble(X_train, y_train, folds, cfg=cfg, seed=seed)
    held = ens.fold_proba(X_train)
    losses = [log_loss(y_train[va], held[k, va]) for k, (_, va) in enumerate(folds)]
    return Prediction(proba=ens.predict_proba(X_predict), fold_val_log_loss=losses, best_epochs=ens.best_epochs,
                      epochs_run=ens.epochs_run, seconds=time.perf_counter() - t0, ensemble=ens)


@dataclass
class SeedStudy:
    """The Kaggle protocol run once per training seed (:func:`fit_predict_seeds`): the development
    probabilities of each seed's fold-averaged model and per-fold diagnostics, seed by seed."""

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
    """:func:`fit_predict` for every seed in ``seeds``, the seeds spread over ``workers`` processes (default:
    the CPUs this process may use). Each seed's training is single-threaded and independent of the others,
    so seed s gives exactly ``fit_predict(..., seed=s)`` whatever the number of workers (tested).

    The trained MLP is chaotic: a training seed (fold split, initialisation, dropout, batch order), or a
    CPU that rounds one product differently, moves its probabilities by as much as the effects it is
    used to measure, so results are reported over seeds. With ``cache_dir`` the probabilities and
    diagnostics are stored as ``.npz`` (no pickle) under the key of :func:`_study_key` and reused."""
    X_train = np.asarray(X_train, dtype=np.float32)
    X_predict = np.asarray(X_predict, dtype=np.float32)
    y_train = np.asarray(y_train)
    if y_train.dtype.kind not in "iu":
        y_train = label_codes(y_train)
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
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, key=np.array(key), seeds=np.array(seeds), proba=study.proba,
                 fold_val_log_loss=study.fold_val_log_loss, best_epochs=study.best_epochs,
                 epochs_run=study.epochs_run)
        tmp.replace(cache_file)
    return study


def _fit_one(args) -> Prediction:
    """Worker of :func:`fit_predict_seeds`: one seed's :func:`fit_predict`, without the models."""
    X_train, y_train, X_predict, cfg, seed = args
    pred = fit_predict(X_train, y_train, X_predict, cfg=cfg, seed=seed)
    pred.ensemble = None
    return pred


def _map_seeds(X_train, y_train, X_predict, cfg: MLPConfig, seeds: list[int], workers: int | None) -> list:
    """:func:`_fit_one` for each seed, in order; in a pool of spawned processes when workers > 1."""
    jobs = [(X_train, y_train, X_predict, cfg, s) for s in seeds]
    workers = min(len(seeds), workers or default_workers())
    if workers <= 1:
        return [_fit_one(j) for j in jobs]
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as pool:
        return list(pool.map(_fit_one, jobs))


def _read_study(path: Path, key: str, seeds: list[int], n_predict: int) -> SeedStudy | None:
    """A cached :class:`SeedStudy`, or None when the file is absent, unreadable, of another key or of the
    wrong shape (then it is recomputed and overwritten)."""
    import zipfile

    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            if str(z["key"]) != key or z["seeds"].tolist() != seeds or z["proba"].shape != (len(seeds), n_predict, 3):
                return None
            return SeedStudy(seeds=seeds, proba=z["proba"], fold_val_log_loss=z["fold_val_log_loss"],
                             best_epochs=z["best_epochs"], epochs_run=z["epochs_run"], seconds=0.0, cached=True)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None


def log_loss(y, proba, eps: float = 1e-15) -> float:
    """Mean cross-entropy of class indices ``y`` under ``proba`` (clipped to [eps, 1]), natural log."""
    proba = np.asarray(proba, dtype=np.float64)
    p = np.clip(proba[np.arange(len(proba)), np.asarray(y)], eps, 1.0)
    return float(-np.log(p).mean())


def scores(y, proba) -> dict:
    """Accuracy (arg-max), log loss and n of predictions against labels (strings or class indices)."""
    y = np.asarray(y)
    if y.dtype.kind not in "iu":
        y = label_codes(y)
    return {"n": int(len(y)), "accuracy": float((np.argmax(proba, axis=1) == y).mean()),
            "log_loss": log_loss(y, proba)}


# ----------------------------------------------------------------------------------------------------
# Table 4 and its permutation test
# ----------------------------------------------------------------------------------------------------


def neither_table(df: pd.DataFrame, p_neither) -> pd.DataFrame:
    """Table 4: per gender (male, female) the number of pronouns, the prior share of "neither" labels and
    the average predicted P(neither)."""
    p_neither = np.asarray(p_neither, dtype=np.float64)
    if len(p_neither) != len(df):
        raise ValueError(f"{len(p_neither)} probabilities for {len(df)} rows")
    frame = pd.DataFrame({"gender": df["gender"].to_numpy(), "neither": (df["label"] == "neither").to_numpy(),
                          "p": p_neither})
    g = frame.groupby("gender")
    out = pd.DataFrame({"n": g.size(), "n_neither": g["neither"].sum(), "prior": g["neither"].mean(),
                        "avg_predicted": g["p"].mean()})
    return out.reindex(["male", "female"]).rename_axis("gender")


@dataclass(frozen=True)
class GenderTest:
    """Permutation test of the gender labels on P(neither): ``difference`` = mean(female) − mean(male)."""

    difference: float
    n_female: int
    n_male: int
    alternative: str
    p_value: float
    tail: TailProbability  # the one-sided tail (for "two-sided": the smaller one, before doubling)

    def describe(self) -> str:
        """One line: the statistic, p, and how p was obtained."""
        t = self.tail
        if t.p_method == "exact":
            how = f"exact over all C({self.n_female + self.n_male}, {self.n_female}) relabellings"
        elif t.p_method == "monte-carlo":
            how = (f"Monte Carlo over {t.n_permutations:,} random relabellings, add-one rule, {t.n_extreme:,} as "
                   f"extreme, resolution {t.resolution:.1g}, SE {t.se:.1g}")
        else:
            how = "normal approximation of the permutation distribution"
        return (f"mean P(neither) female − male = {self.difference:+.4f} (n = {self.n_female} + {self.n_male}); "
                f"{self.alternative} p = {self.p_value:.3g} ({how})")


def gender_permutation_test(p_neither, gender, *, alternative: str = "greater", p_method: str = "auto",
                            n_permutations: int = 100_000, seed: int = 0) -> GenderTest:
    """§4 "Results": is P(neither) higher for female pronouns than a random relabelling of genders gives?

    The statistic mean(female) − mean(male) is increasing in the sum over the female rows, so the
    permutation p is the subset-sum tail of :func:`wordbias.stats.subset_sum_tail` (k = number of female
    rows). ``alternative``: "greater" (the paper's direction, female higher), "less", or "two-sided"
    (twice the smaller one-sided p, capped at 1). ``p_method`` "auto" is Monte Carlo for GAP's 2,000 rows.
    """
    p = np.asarray(p_neither, dtype=np.float64)
    gender = np.asarray(gender, dtype=object)
    if p.shape != gender.shape:
        raise ValueError("one gender per probability is needed")
    unknown = set(gender.tolist()) - {"female", "male"}
    if unknown:
        raise ValueError(f"genders must be 'female' or 'male', got {sorted(unknown)}")
    fem = gender == "female"
    nf, nm = int(fem.sum()), int((~fem).sum())
    diff = float(p[fem].mean() - p[~fem].mean())

    def tail(sign: float) -> TailProbability:
        v = sign * p
        return subset_sum_tail(v, k=nf, observed_sum=float(v[fem].sum()), p_method=p_method,
                               n_permutations=n_permutations, seed=seed)

    if alternative == "greater":
        t = tail(1.0)
        pv = t.p_value
    elif alternative == "less":
        t = tail(-1.0)
        pv = t.p_value
    elif alternative == "two-sided":
        t = min(tail(1.0), tail(-1.0), key=lambda r: r.p_value)
        pv = min(1.0, 2 * t.p_value)
    else:
        raise ValueError(f"alternative must be 'greater', 'less' or 'two-sided', not {alternative!r}")
    return GenderTest(difference=diff, n_female=nf, n_male=nm, alternative=alternative, p_value=pv, tail=t)


# ----------------------------------------------------------------------------------------------------
# topics (Table 6) and their bias
# ----------------------------------------------------------------------------------------------------


@dataclass
class Topics:
    """An NMF topic model: ``components`` H [k, V] (word weights), ``doc_topic`` W [n, k], ``vocabulary`` [V]."""

    vocabulary: np.ndarray
    components: np.ndarray
    doc_topic: np.ndarray
    reconstruction_err: float
    n_iter: int


def fit_topics(texts: Sequence[str], n_topics: int = 20, *, seed: int = 0, max_features: int = 1000,
               max_df: float = 0.95, min_df: int = 2, max_iter: int = 1000, init: str = "nndsvd") -> Topics:
    """§4: "20 major topics from the dataset using non-negative matrix factorization (Lee and Seung 2001)".

    The paper gives no preprocessing; ours is scikit-learn's topic-extraction example: TF-IDF of the
    texts (lower-cased tokens of ≥ 2 word characters, so numbers such as "2011" stay, as in Table 6;
    English stop words removed; words in more than 95% or fewer than 2 texts dropped; the 1,000 most
    frequent kept), then NMF with Frobenius loss, coordinate descent, ``init="nndsvd"`` (deterministic
    SVD-based start) and ``random_state=seed``; ``init="random"`` starts from a seeded random point
    (the restarts of :func:`refit_topics`).
    """
    vocabulary, tfidf = _tfidf(texts, max_features=max_features, max_df=max_df, min_df=min_df)
    return _nmf(tfidf, vocabulary, n_topics, seed=seed, max_iter=max_iter, init=init)


def _tfidf(texts: Sequence[str], *, max_features: int, max_df: float, min_df: int):
    """The TF-IDF matrix of :func:`fit_topics` and its vocabulary."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(stop_words="english", max_df=max_df, min_df=min_df, max_features=max_features)
    tfidf = vec.fit_transform(list(texts))
    return vec.get_feature_names_out(), tfidf


def _nmf(tfidf, vocabulary, n_topics: int, *, seed: int, max_iter: int, init: str) -> Topics:
    """NMF of a TF-IDF matrix (:func:`fit_topics`)."""
    from sklearn.decomposition import NMF

    nmf = NMF(n_components=n_topics, init=init, random_state=seed, max_iter=max_iter)
    W = nmf.fit_transform(tfidf)
    return Topics(vocabulary=vocabulary, components=nmf.components_, doc_topic=W,
                  reconstruction_err=float(nmf.reconstruction_err_), n_iter=int(nmf.n_iter_))


def refit_topics(texts: Sequence[str], n_topics: int = 20, *, seeds: Sequence[int], max_features: int = 1000,
                 max_df: float = 0.95, min_df: int = 2, max_iter: int = 1000) -> list[Topics]:
    """NMF restarted from seeded random points (``init="random"``), one solution per seed, on one TF-IDF
    matrix (the same as :func:`fit_topics` builds).

    NMF has many local optima of nearly equal error: on GAP a change in the last bits of one product (another
    CPU) can move :func:`fit_topics` to another one, replacing words of a topic and changing every sample's
    topic weights. The restarts show which topics recur (:func:`topic_stability`) and give the topic-based
    scores as a distribution over solutions rather than one solution's digits."""
    vocabulary, tfidf = _tfidf(texts, max_features=max_features, max_df=max_df, min_df=min_df)
    return [_nmf(tfidf, vocabulary, n_topics, seed=int(s), max_iter=max_iter, init="random") for s in seeds]


def _matches(reference: Topics, other: Topics, n: int, min_shared: int) -> list[int | None]:
    """For each topic of ``reference``, the first topic of ``other`` sharing ≥ ``min_shared`` of its ``n``
    top words, or None."""
    theirs = [set(w) for w in top_words(other.components, other.vocabulary, n)]
    return [next((j for j, t in enumerate(theirs) if len(set(r) & t) >= min_shared), None)
            for r in top_words(reference.components, reference.vocabulary, n)]


def matched_spread(reference: Topics, others: Sequence[Topics], values: Sequence[np.ndarray], *, n: int = 5,
                   min_shared: int = 3) -> np.ndarray:
    """For each topic of ``reference``, the standard deviation of a per-topic value (``values[i]`` for the
    topics of ``others[i]``) over the solutions where the topic recurs (:func:`topic_stability`'s match);
    NaN where it recurs fewer than twice. How much, say, a topic's bias moves between NMF optima."""
    per_topic: list[list[float]] = [[] for _ in range(len(reference.components))]
    for other, vals in zip(others, values):
        for k, j in enumerate(_matches(reference, other, n, min_shared)):
            if j is not None:
                per_topic[k].append(float(np.asarray(vals)[j]))
    return np.array([np.std(v, ddof=1) if len(v) > 1 else np.nan for v in per_topic])


def topic_stability(reference: Topics, others: Sequence[Topics], *, n: int = 5, min_shared: int = 3) -> np.ndarray:
    """For each topic of ``reference``, the share of the solutions in ``others`` that have a topic sharing at
    least ``min_shared`` of its ``n`` top words (1.0: the topic recurs in every restart)."""
    if not others:
        return np.full(len(reference.components), np.nan)
    found = np.zeros(len(reference.components))
    for other in others:
        found += [j is not None for j in _matches(reference, other, n, min_shared)]
    return found / len(others)


def top_words(components, vocabulary, n: int = 5) -> list[list[str]]:
    """The ``n`` highest-weight words of each topic, heaviest first (ties: earlier vocabulary index)."""
    H = np.asarray(components, dtype=np.float64)
    order = np.argsort(-H, axis=1, kind="stable")[:, :n]
    vocab = np.asarray(vocabulary, dtype=object)
    return [vocab[row].tolist() for row in order]


def topics_table(topics: Topics, n: int = 5) -> pd.DataFrame:
    """Table 6: topic id (1-based) → its top ``n`` words, comma-separated, heaviest first."""
    words = top_words(topics.components, topics.vocabulary, n)
    return pd.DataFrame({"top_words": [",".join(w) for w in words]},
                        index=pd.RangeIndex(1, len(words) + 1, name="topic"))


def topic_bias(components, vocabulary, word_scores: Mapping[str, float], *, n_words: int = 15,
               on_missing: str = "raise") -> pd.DataFrame:
    """§4: "the bias score for each topic as the sum of the log probability bias score for the top 15 most
    prevalent words of each topic weighted by their weights within the topic".

    bias_k = Σ_{w ∈ top_n(k)} H[k, w] · s(w), with H the raw NMF topic-word weights and s the caller's
    word scores (positive = male-leaning). A top word without a score is never counted as 0:
    ``on_missing="raise"`` raises ``KeyError`` listing every such word; ``on_missing="drop"`` leaves it out of
    the sum and reports it in the ``missing`` column. Returns one row per topic (1-based): ``bias``,
    ``n_scored``, ``weight_scored`` (Σ H of the scored words), ``missing`` (tuple of words).
    """
    if on_missing not in ("raise", "drop"):
        raise ValueError(f"missing must be 'raise' or 'drop', not {missing!r}")
    H = np.asarray(components, dtype=np.float64)
    vocab = np.asarray(vocabulary, dtype=object)
    order = np.argsort(-H, axis=1, kind="stable")[:, :n_words]
    words = vocab[order]  # [k, n_words]
    weights = np.take_along_axis(H, order, axis=1)
    s = np.array([[word_scores.get(w, np.nan) for w in row] for row in words], dtype=np.float64)
    absent = np.isnan(s)
    if absent.any() and on_missing == "raise":
        lost = sorted(set(words[absent].tolist()))
        raise KeyError(f"{len(lost)} top topic words have no bias score: {lost}")
    used = ~absent
    bias = np.where(used, weights * np.nan_to_num(s), 0.0).sum(axis=1)
    return pd.DataFrame({"bias": bias, "n_scored": used.sum(axis=1), "weight_scored": (weights * used).sum(axis=1),
                         "missing": [tuple(row[m].tolist()) for row, m in zip(words, absent)]},
                        index=pd.RangeIndex(1, len(H) + 1, name="topic"))


def sample_bias(doc_topic, topic_biases) -> np.ndarray:
    """§4: "a bias score for each sample ... as the sum of individual bias scores of topics present in the
    sample, weighted by the topic weights": W @ b, with W the NMF document-topic weights."""
    W = np.asarray(doc_topic, dtype=np.float64)
    b = np.asarray(topic_biases, dtype=np.float64)
    if W.ndim != 2 or W.shape[1] != b.shape[0]:
        raise ValueError(f"doc_topic {W.shape} does not match {b.shape[0]} topic biases")
    return W @ b


@dataclass(frozen=True)
class Correlation:
    """Spearman's ρ between sample bias and P(neither) over a subset of samples."""

    rho: float
    p_value: float
    n: int
    subset: str


def bias_correlation(sample_scores, p_neither, mask=None, *, subset: str = "female") -> Correlation:
    """§4: Spearman's ρ (scipy, two-sided p) between the samples' (male) bias scores and the model's
    P(neither), over the rows where ``mask`` is true (the paper: the female-pronoun samples)."""
    from scipy import stats as sps

    x = np.asarray(sample_scores, dtype=np.float64)
    y = np.asarray(p_neither, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError("one P(neither) per sample score is needed")
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        x, y = x[mask], y[mask]
    r = sps.spearmanr(x, y)
    return Correlation(rho=float(r.statistic), p_value=float(r.pvalue), n=int(x.size), subset=subset)


# ----------------------------------------------------------------------------------------------------
# the offline stand-in word scorer
# ----------------------------------------------------------------------------------------------------


def cosine_word_scores(encoder, words: Sequence[str], template: str = "GGG are interested in XXX",
                       targets: tuple[str, str] = ("men", "women"), *, target_slot: str = "GGG",
                       word_slot: str = "XXX", batch_size: int = 64, progress: bool = False) -> dict[str, float]:
    """A STAND-IN for the log probability bias score when no masked LM is available (not the paper's score).

    s(w) = cos(e_w, e_men) − cos(e_w, e_women), where e_w is the final-layer vector of w in the template
    with the target slot masked ("[MASK] are interested in w") and e_men, e_women the vectors of the
    targets with the word slot masked ("men are interested in [MASK]"): the WEAT-on-BERT association of
    Kurita et al. §3.1 applied to the §4 template. Positive = closer to "men". The paper's topic bias uses
    the MLM score (``wordbias.mlm``); use this only to exercise the pipeline on an encoder.
    """
    from wordbias.models import contextual

    words = list(dict.fromkeys(words))
    if not words:
        return {}
    e_w = contextual.word_in_template_embeddings(encoder, words, [template], slot=word_slot, other=target_slot,
                                                 batch_size=batch_size, progress=progress)
    e_t = contextual.word_in_template_embeddings(encoder, list(targets), [template], slot=target_slot,
                                                 other=word_slot, batch_size=batch_size)
    U = e_w / np.linalg.norm(e_w, axis=1, keepdims=True)
    T = e_t / np.linalg.norm(e_t, axis=1, keepdims=True)
    cos = U @ T.T
    return dict(zip(words, (cos[:, 0] - cos[:, 1]).tolist()))


# ----------------------------------------------------------------------------------------------------
# everything in one call
# ----------------------------------------------------------------------------------------------------


@dataclass
class GapResult:
    """Section 4 in one object (see :func:`run`). Everything that depends on the trained MLP is given over
    the training seeds: per seed in ``seed_table``, and as mean, standard deviation, min and max elsewhere."""

    model: str
    seeds: list[int]
    table4: pd.DataFrame  # gender × (n, n_neither, prior, avg_predicted mean/sd/min/max over seeds, paper_*)
    test: GenderTest  # the permutation test on P(neither) averaged over the seeds' models
    seed_table: pd.DataFrame  # seed × (accuracy, log_loss, female − male, p, Spearman rho and p per subset)
    metrics: pd.DataFrame  # development accuracy / log loss (all, female, male): mean and sd over seeds
    predictions: pd.DataFrame  # development rows: p_A, p_B, p_neither (seed means, sd), sample_bias (NMF mean, sd)
    topics: pd.DataFrame  # Table 6 (top 5 words) + bias, n_scored, missing; stability, bias_sd over NMF restarts
    correlations: pd.DataFrame  # Spearman per subset, on the means; rho's mean/sd over seeds and NMF solutions
    word_score_source: str
    missing_words: tuple[str, ...]
    nmf_restarts: int  # random NMF restarts beside the deterministic solution
    fit: SeedStudy = field(repr=False)
    timings: dict = field(default_factory=dict)


def spread(values) -> dict:
    """mean, sd (ddof 1; 0 for one value), min and max of a seed distribution."""
    v = np.asarray(values, dtype=np.float64)
    return {"mean": float(v.mean()), "sd": float(v.std(ddof=1)) if v.size > 1 else 0.0,
            "min": float(v.min()), "max": float(v.max())}


def run(encoder, word_scores: Mapping[str, float] | Callable[[list[str]], Mapping[str, float]] | None = None, *,
        seed: int = 0, seeds: Sequence[int] | None = None, n_permutations: int = 100_000,
        cfg: MLPConfig = MLPConfig(), n_topics: int = 20, n_topic_words: int = 15, nmf_restarts: int = 10,
        cache_dir: str | Path | None = CACHE_DIR, progress: bool = False,
        score_source: str | None = None) -> GapResult:
    """Kurita et al. (2019) §4 end to end on an encoder (``wordbias.contextual.Model``).

    1. features of the three splits (cached in ``cache_dir`` unless it is None);
    2. the MLP trained on gap-test + gap-validation, predicting gap-development, once per training seed in
       ``seeds`` (default: ``seed`` alone), all seeds stacked (:func:`fit_predict_seeds`, cached);
    3. Table 4 over the seeds, and the one-sided permutation test (female > male) with ``n_permutations``
       relabellings, per seed and on P(neither) averaged over the seeds;
    4. 20 NMF topics of the development texts (Table 6: the deterministic ``nndsvd`` solution, with the share
       of ``nmf_restarts`` random restarts in which each topic recurs), their bias from ``word_scores`` (top
       ``n_topic_words`` words; words without a score are dropped and listed in ``missing_words``), the
       samples' bias averaged over all NMF solutions (with its sd) and Spearman's ρ with P(neither) over the
       female (the paper's) and, for comparison, the male rows; ρ's spread over seeds and NMF solutions.

    ``word_scores`` None uses :func:`cosine_word_scores` on ``encoder`` (a stand-in, recorded in
    ``word_score_source``); otherwise it is a mapping word → score or a function of the list of words
    needed returning one (e.g. ``lambda w: kurita.topic_word_scores(mlm, w)``), and ``score_source``
    names the scores (default "caller's word scores").
    """
    seeds = [int(seed)] if seeds is None else [int(s) for s in seeds]
    timings = {}
    t0 = time.perf_counter()
    data = {s: load(s) for s in SPLITS}
    feats = {s: features(encoder, data[s], cache_dir=cache_dir, progress=progress) for s in SPLITS}
    timings["features_s"] = time.perf_counter() - t0

    train = pd.concat([data["test"], data["validation"]], ignore_index=True)
    dev = data["development"]
    study = fit_predict_seeds(np.concatenate([feats["test"], feats["validation"]]), label_codes(train["label"]),
                              feats["development"], cfg=cfg, seeds=seeds, cache_dir=cache_dir)
    timings["mlp_s"] = study.seconds
    fem = (dev["gender"] == "female").to_numpy()
    y = label_codes(dev["label"])
    mean_proba = study.proba.mean(axis=0)

    t0 = time.perf_counter()
    table = _table4_over_seeds(dev, study.proba[:, :, 2])
    per_seed = [gender_permutation_test(pr[:, 2], dev["gender"].to_numpy(), n_permutations=n_permutations, seed=seed)
                for pr in study.proba]
    test = gender_permutation_test(mean_proba[:, 2], dev["gender"].to_numpy(), n_permutations=n_permutations,
                                   seed=seed)
    timings["permutation_s"] = time.perf_counter() - t0
    metrics = _metrics_over_seeds(y, fem, study.proba)

    t0 = time.perf_counter()
    texts = dev["Text"].tolist()
    topics = fit_topics(texts, n_topics, seed=seed)
    restarts = refit_topics(texts, n_topics, seeds=range(seed + 1, seed + 1 + nmf_restarts))
    solutions = [topics] + restarts
    timings["topics_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    needed = list(dict.fromkeys(w for t in solutions for ws in top_words(t.components, t.vocabulary, n_topic_words)
                                for w in ws))
    if word_scores is None:
        word_scores = cosine_word_scores(encoder, needed)
        source = f"cosine stand-in on {encoder.label} (not the paper's MLM score)"
    else:
        if callable(word_scores):  # e.g. the MLM score of the topic words, computed only for the words needed
            word_scores = word_scores(needed)
        source = score_source or "caller's word scores"
    timings["word_scores_s"] = time.perf_counter() - t0
    biases = [topic_bias(t.components, t.vocabulary, word_scores, n_words=n_topic_words, on_missing="drop")
              for t in solutions]
    tb = biases[0]
    table6 = topics_table(topics).join(tb)
    table6["stability"] = topic_stability(topics, restarts)
    table6["bias_sd"] = matched_spread(topics, restarts, [b["bias"].to_numpy() for b in biases[1:]])
    table6["weight_scored_sd"] = matched_spread(topics, restarts, [b["weight_scored"].to_numpy() for b in biases[1:]])
    sbs = np.stack([sample_bias(t.doc_topic, b["bias"].to_numpy()) for t, b in zip(solutions, biases)])
    sb = sbs.mean(axis=0)
    p_mean = mean_proba[:, 2]
    rhos = {name: [bias_correlation(sb, pr[:, 2], mask, subset=name) for pr in study.proba]
            for name, mask in (("female", fem), ("male", ~fem))}
    rhos_nmf = {name: [bias_correlation(x, p_mean, mask, subset=name).rho for x in sbs]
                for name, mask in (("female", fem), ("male", ~fem))}
    corr = pd.DataFrame([{**vars(bias_correlation(sb, p_mean, mask, subset=name)),
                          "rho_seed_mean": spread([r.rho for r in rhos[name]])["mean"],
                          "rho_seed_sd": spread([r.rho for r in rhos[name]])["sd"],
                          "rho_nmf_mean": spread(rhos_nmf[name])["mean"],
                          "rho_nmf_sd": spread(rhos_nmf[name])["sd"]}
                         for name, mask in (("female", fem), ("male", ~fem))]).set_index("subset")
    seed_table = pd.DataFrame({
        "seed": seeds,
        "accuracy": [scores(y, pr)["accuracy"] for pr in study.proba],
        "log_loss": [scores(y, pr)["log_loss"] for pr in study.proba],
        "female_minus_male": [t.difference for t in per_seed],
        "p_female_higher": [t.p_value for t in per_seed],
        "rho_female": [r.rho for r in rhos["female"]],
        "rho_female_p": [r.p_value for r in rhos["female"]],
    }).set_index("seed")
    preds = pd.DataFrame({"ID": dev["ID"], "gender": dev["gender"], "label": dev["label"], "p_A": mean_proba[:, 0],
                          "p_B": mean_proba[:, 1], "p_neither": mean_proba[:, 2],
                          "p_neither_sd": study.proba[:, :, 2].std(axis=0, ddof=1) if len(seeds) > 1 else 0.0,
                          "sample_bias": sb, "sample_bias_sd": sbs.std(axis=0, ddof=1) if len(sbs) > 1 else 0.0})
    missing_words = tuple(sorted({w for b in biases for m in b["missing"] for w in m}))
    return GapResult(model=encoder.label, seeds=seeds, table4=table, test=test, seed_table=seed_table,
                     metrics=metrics, predictions=preds, topics=table6, correlations=corr,
                     word_score_source=source, missing_words=missing_words, nmf_restarts=len(restarts), fit=study,
                     timings=timings)


def _table4_over_seeds(dev: pd.DataFrame, p_neither_by_seed: np.ndarray) -> pd.DataFrame:
    """Table 4 with the average predicted P(neither) given over the seeds (mean, sd, min, max)."""
    tables = [neither_table(dev, p) for p in p_neither_by_seed]
    out = tables[0][["n", "n_neither", "prior"]].copy()
    for gender in out.index:
        for stat, v in spread([t.at[gender, "avg_predicted"] for t in tables]).items():
            out.loc[gender, f"avg_predicted_{stat}"] = v
    out["paper_prior"] = PAPER_TABLE4["prior"]
    out["paper_avg_predicted"] = PAPER_TABLE4["avg_predicted"]
    return out


def _metrics_over_seeds(y: np.ndarray, fem: np.ndarray, proba_by_seed: np.ndarray) -> pd.DataFrame:
    """Development accuracy and log loss of each seed's model, for all rows, female and male pronouns:
    mean and sd over the seeds."""
    rows = {}
    for name, m in (("all", np.ones_like(fem)), ("female", fem), ("male", ~fem)):
        per = [scores(y[m], pr[m]) for pr in proba_by_seed]
        acc, ll = spread([p["accuracy"] for p in per]), spread([p["log_loss"] for p in per])
        rows[name] = {"n": per[0]["n"], "accuracy_mean": acc["mean"], "accuracy_sd": acc["sd"],
                      "log_loss_mean": ll["mean"], "log_loss_sd": ll["sd"]}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("rows")
