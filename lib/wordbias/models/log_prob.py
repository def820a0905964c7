"""Log-probabilities of sentences under a language model, token by token.

- :func:`causal_log_probs`: a causal language model's log P of each token of each sentence given the tokens before
  it, the first conditioned on the tokenizer's beginning-of-sequence token (its end-of-sequence token when it has
  none), as the language-model evaluation harness scores a continuation of an empty context. Batched with right
  padding (the real tokens' positions are 0, 1, ... in every row), summed in float64, and cached per sentence
  (:class:`LogProbCache`).
- :func:`pseudo_log_likelihood`: a masked language model's pseudo-log-likelihood of chosen tokens, each masked in
  turn (Nangia et al. 2020, §3, doi:10.18653/v1/2020.emnlp-main.154): sum over the tokens i of log P(w_i | the
  sentence with w_i masked).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordbias.core import paths
from wordbias.core.atomic import atomic_file
from wordbias.core.errors import InvalidParameterError
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_int

__all__ = ["TokenLogProbs", "LogProbCache", "causal_log_probs", "pseudo_log_likelihood", "vocabulary_hash",
           "prefix_token_id"]


@dataclass(frozen=True)
class TokenLogProbs:
    """A sentence's tokens and the log-probability of each under a causal language model (:func:`causal_log_probs`);
    ``total`` is the sentence's log-probability.

    Attributes
    ----------
    text : str
        The sentence.
    token_ids : tuple of int
        Its tokens (without the prefix token they are conditioned on).
    log_probs : numpy.ndarray
        log P of each token given those before it (float64, natural log).
    """

    text: str
    token_ids: tuple[int, ...]
    log_probs: np.ndarray

    @property
    def total(self) -> float:
        """The sentence's log-probability: the sum of its tokens' (float64)."""
        return float(np.sum(self.log_probs, dtype=np.float64))


def vocabulary_hash(tokenizer) -> str:
    """The SHA-256 of a tokenizer's vocabulary and special tokens (for cache keys).

    Parameters
    ----------
    tokenizer : transformers tokenizer
        The tokenizer.

    Returns
    -------
    str
        64 hexadecimal digits over the sorted (piece, id) pairs, the special tokens and the normaliser's settings
        as its ``backend_tokenizer`` serialises them (when it has one).
    """
    state = _tokenizer_state(tokenizer)
    memo = _VOCABULARY_HASHES.get(tokenizer)
    if memo is not None and memo[0] == state:
        return memo[1]
    digest = _vocabulary_digest(tokenizer)
    try:
        _VOCABULARY_HASHES[tokenizer] = (state, digest)
    except TypeError:                                   # an object that takes no weak reference: not remembered
        pass
    return digest


#: each tokenizer's (state, hash) in this process: hashing a 262,144-piece vocabulary and its serialised
#: normaliser takes a third of a second, and every scoring call keys its cache with it
_VOCABULARY_HASHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tokenizer_state(tokenizer) -> tuple:
    """What changes when a tokenizer is changed in place (tokens added, special tokens or normaliser set): a
    remembered hash is used only while this is the same."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    parts = (backend.normalizer, backend.pre_tokenizer, backend.post_processor) if backend is not None else ()
    return len(tokenizer), tuple(map(str, tokenizer.all_special_tokens)), tuple(repr(p) for p in parts)


def _vocabulary_digest(tokenizer) -> str:
    h = hashlib.sha256()
    h.update(json.dumps(sorted(tokenizer.get_vocab().items()), ensure_ascii=False).encode())
    h.update(json.dumps(sorted(map(str, tokenizer.all_special_tokens))).encode())
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is not None:
        spec = json.loads(backend.to_str())
        h.update(json.dumps([spec.get(k) for k in ("normalizer", "pre_tokenizer", "post_processor")],
                            sort_keys=True).encode())
    return h.hexdigest()


def prefix_token_id(tokenizer) -> int:
    """The token every sentence is conditioned on: the beginning-of-sequence token, else end-of-sequence.

    Parameters
    ----------
    tokenizer : transformers tokenizer
        The tokenizer (its ``bos_token_id`` and ``eos_token_id``).

    Returns
    -------
    int
        The token id.

    Raises
    ------
    InvalidParameterError
        When the tokenizer has neither.
    """
    for tid in (tokenizer.bos_token_id, tokenizer.eos_token_id):
        if tid is not None:
            return int(tid)
    raise InvalidParameterError("the tokenizer has neither a beginning- nor an end-of-sequence token to condition "
                                "a sentence's first token on")


def _sentence_ids(tokenizer, text: str) -> list[int]:
    """A sentence's token ids, without special tokens (the prefix token is added by the scorer)."""
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


class LogProbCache:
    """Per-sentence token log-probabilities on disk, one JSON file per sentence (never a pickle).

    The key holds the model's identity (its GGUF file's or weights' SHA-256), the tokenizer's vocabulary hash
    (:func:`vocabulary_hash`), the prefix token, the batch size, the text and what decides the float rounding
    (:func:`wordbias.core.paths.compute_fingerprint`: versions, machine, kernel variables; and the torch threads).
    An entry is validated on read: its key, its token ids (those of the text under this tokenizer) and its numbers
    (finite, at most 0, one per token, and the SHA-256 of its content); a damaged or mismatched entry is recomputed
    and replaced, never returned.

    Parameters
    ----------
    folder : str or path-like, optional
        The cache folder (default ``<cache>/log-probs``, :func:`wordbias.core.paths.cache_dir`).
    """

    def __init__(self, folder: str | os.PathLike | None = None):
        self.folder = Path(folder) if folder is not None else paths.cache_dir() / "log-probs"
        self.hits = 0
        self.misses = 0

    def _path(self, key: dict) -> Path:
        digest = hashlib.sha256(json.dumps(key, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        return self.folder / digest[:2] / f"{digest}.json"

    def get(self, key: dict, token_ids: Sequence[int]) -> np.ndarray | None:
        """The cached log-probabilities of an entry, or None when it is absent or damaged.

        Parameters
        ----------
        key : dict
            The entry's key (the text and what decides its numbers).
        token_ids : sequence of int
            The text's tokens under the model's tokenizer (the entry's must be the same).

        Returns
        -------
        numpy.ndarray or None
            One float64 log-probability per token, or None.
        """
        path = self._path(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            body = {k: entry[k] for k in ("key", "token_ids", "log_probs")}
            sound = (entry["sha256"] == _digest(body) and body["key"] == key
                     and body["token_ids"] == list(token_ids) and len(body["log_probs"]) == len(token_ids))
            values = np.asarray(body["log_probs"], dtype=np.float64)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not sound or not np.all(np.isfinite(values)) or np.any(values > 0):
            return None
        self.hits += 1
        return values

    def put(self, key: dict, token_ids: Sequence[int], log_probs: np.ndarray) -> None:
        """Store an entry (atomically), with the SHA-256 of its content.

        Parameters
        ----------
        key : dict
            The entry's key.
        token_ids : sequence of int
            The text's tokens.
        log_probs : numpy.ndarray
            One log-probability per token.
        """
        body = {"key": key, "token_ids": [int(t) for t in token_ids],
                "log_probs": [float(v) for v in np.asarray(log_probs, dtype=np.float64)]}
        with atomic_file(self._path(key), what="the log-probability cache") as tmp:
            tmp.write_text(json.dumps({**body, "sha256": _digest(body)}), encoding="utf-8")


def _digest(body: dict) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _key_base(m, batch_size: int) -> dict:
    import torch

    return {"model": m.identity, "tokenizer": vocabulary_hash(m.tokenizer),
            "prefix": prefix_token_id(m.tokenizer), "batch_size": batch_size, "threads": torch.get_num_threads(),
            "device": str(m.device), "fingerprint": paths.compute_fingerprint()}


def causal_log_probs(m, texts: Sequence[str], *, batch_size: int = 16, cache: LogProbCache | None = None,
                     threads: int | None = 1, progress: bool = False) -> list[TokenLogProbs]:
    """Each sentence's tokens and their log-probabilities under a causal language model.

    Token t of a sentence gets log P(w_t | prefix, w_1 ... w_{t-1}), from the model's logits at the position
    before it, normalised in float64 (``log_softmax``); the prefix is :func:`prefix_token_id`. Sentences run in
    batches of ``batch_size`` in order of their token counts, right-padded with an attention mask, so each real
    token keeps its position.

    Parameters
    ----------
    m : wordbias.models.causal.CausalModel
        The model (``m.identity`` keys the cache).
    texts : sequence of str
        The sentences (non-empty).
    batch_size : int, default 16
        The sentences run at once.
    cache : LogProbCache, optional
        Where to read and store each sentence's numbers (None: no cache).
    threads : int or None, default 1
        The torch threads (None: as they are).
    progress : bool, default False
        Show a progress bar over the sentences the model scores (those the cache does not hold).

    Returns
    -------
    list of TokenLogProbs
        One per text, in the order given.

    Raises
    ------
    InvalidParameterError
        When ``texts`` is a string, a text is empty or has no token, or ``batch_size`` is not a positive integer.
    """
    from wordbias.models.causal import torch_threads

    batch_size = check_int("batch_size", batch_size, min=1)
    texts = _check_texts(texts)
    ids = [_sentence_ids(m.tokenizer, t) for t in texts]
    for t, i in zip(texts, ids):
        if not i:
            raise InvalidParameterError(f"the sentence {t!r} has no token")
    out: list[np.ndarray | None] = [None] * len(texts)
    with torch_threads(threads):
        base = _key_base(m, batch_size) if cache is not None else None
        todo = []
        for j, (t, i) in enumerate(zip(texts, ids)):
            out[j] = cache.get({**base, "text": t}, i) if cache is not None else None
            if out[j] is None:
                todo.append(j)
        order = sorted(todo, key=lambda j: len(ids[j]))
        with progress_bar(len(order), desc=f"sentences scored by {m.label}", unit="sentence",
                          enabled=progress) as bar:
            for start in range(0, len(order), batch_size):
                chunk = order[start:start + batch_size]
                for j, values in zip(chunk, _score_batch(m, [ids[j] for j in chunk])):
                    out[j] = values
                    if cache is not None:
                        cache.misses += 1
                        cache.put({**base, "text": texts[j]}, ids[j], values)
                bar.update(len(chunk))
    return [TokenLogProbs(t, tuple(i), v) for t, i, v in zip(texts, ids, out)]


def _check_texts(texts) -> list[str]:
    if isinstance(texts, str):
        raise InvalidParameterError(f"texts must be a list of sentences, not the string {texts!r}")
    texts = list(texts)
    bad = [t for t in texts if not isinstance(t, str) or not t.strip()]
    if bad:
        raise InvalidParameterError(f"every text must be a non-empty string; got {bad[:3]!r}")
    return texts


def _score_batch(m, batch: list[list[int]]) -> list[np.ndarray]:
    """The token log-probabilities of one batch of token-id lists (right-padded)."""
    import torch

    prefix = prefix_token_id(m.tokenizer)
    width = 1 + max(len(i) for i in batch)
    input_ids = torch.full((len(batch), width), prefix, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for row, i in enumerate(batch):
        input_ids[row, :1 + len(i)] = torch.tensor([prefix] + i)
        mask[row, :1 + len(i)] = 1
    positions = torch.arange(width).expand(len(batch), width)
    with torch.inference_mode():
        logits = m.model(input_ids=input_ids.to(m.device), attention_mask=mask.to(m.device),
                         position_ids=positions.to(m.device)).logits
        out = []
        for row, i in enumerate(batch):
            lp = logits[row, :len(i)].double().log_softmax(-1)   # position t predicts token t + 1
            out.append(lp.gather(1, torch.tensor(i, device=lp.device)[:, None])[:, 0].cpu().numpy())
    return out


def pseudo_log_likelihood(m, text: str, positions: Sequence[int] | None = None) -> tuple[float, tuple[int, ...]]:
    """A masked language model's pseudo-log-likelihood of a sentence's tokens (Nangia et al. 2020, §3).

    Each chosen token is replaced by the mask token in turn and its log P under the model read at its position
    (``log_softmax`` in float64); the sum over the tokens is returned. CrowS-Pairs chooses the tokens the two
    sentences of a pair share (:func:`wordbias.measures.language_models.crows_pairs.shared_tokens`).

    Parameters
    ----------
    m : wordbias.models.contextual.Model
        A masked language model (:func:`wordbias.models.contextual.load_mlm`).
    text : str
        The sentence.
    positions : sequence of int, optional
        The token positions to mask, in the tokenizer's encoding of ``text`` with its special tokens (default
        every token but the special ones).

    Returns
    -------
    total : float
        The sum of the log-probabilities (float64).
    token_ids : tuple of int
        The sentence's tokens, special tokens included.

    Raises
    ------
    InvalidParameterError
        When the model has no mask token, or a position is outside the sentence or a special token.
    """
    import torch

    tok = m.tokenizer
    if tok.mask_token_id is None:
        raise InvalidParameterError(f"model {m.name!r} has no mask token: the pseudo-log-likelihood needs a masked LM")
    ids = list(tok(text)["input_ids"])
    special = set(tok.all_special_ids)
    positions = [p for p, t in enumerate(ids) if t not in special] if positions is None else list(positions)
    for p in positions:
        if not isinstance(p, (int, np.integer)) or not 0 <= p < len(ids) or ids[p] in special:
            raise InvalidParameterError(f"position {p!r} is not a (non-special) token of {text!r} ({len(ids)} tokens)")
    if not positions:
        return 0.0, tuple(ids)
    batch = torch.tensor([ids] * len(positions))
    rows = torch.arange(len(positions))
    cols = torch.tensor(positions, dtype=torch.long)
    batch[rows, cols] = tok.mask_token_id
    with torch.inference_mode():
        logits = m.model(input_ids=batch.to(m.device), attention_mask=torch.ones_like(batch).to(m.device)).logits
        lp = logits[rows, cols].double().log_softmax(-1)
        picked = lp[rows, torch.tensor([ids[p] for p in positions])]
    total = math.fsum(picked.cpu().numpy().tolist())
    return total, tuple(ids)
