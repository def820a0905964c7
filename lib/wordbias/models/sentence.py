"""Sentence vectors for SEAT (May et al. 2019, §3 "Models"): one vector per sentence, batched, cached on disk.

Three kinds of encoder, each with its documented sentence representation:

* a **sentence-transformers** model (the bundled ``all-minilm-l6-v2``, or a folder with ``1_Pooling/config.json``):
  the pooling its own configuration names; for all-MiniLM-L6-v2 the *mean* of the final-layer token vectors over
  the attention mask (every real token, ``[CLS]`` and ``[SEP]`` included, padding excluded), as its model card and
  the sentence-transformers ``Pooling`` module do (the model's final L2 normalisation does not change a cosine);
* any other **BERT-like** encoder (a Hugging Face id or folder): ``pooling="cls"`` (the final-layer vector of the
  first token, ``[CLS]``; May et al.'s choice for BERT, §3) or ``"mean"`` (as above);
* a **static embedding** (gensim ``KeyedVectors`` or a registered name such as ``glove-6b-50d``): May et al.'s
  CBoW, the mean of the word vectors of the sentence's tokens (§3: "CBoW ... GloVe ... averaged"). The tokens are
  :func:`tokenize`'s (words, ``'s``-style clitics and punctuation marks, as NLTK's ``word_tokenize`` that the
  authors used splits these templates), lower-cased when the embedding is uncased. A token the embedding lacks
  is skipped and counted; a sentence with no known token gets no vector and is reported in
  :attr:`SentenceVectors.dropped` with the reason (never a zero vector).

Each encoder says whether it sees a test word (``sees``): a static embedding when it has every token of the word,
a transformer always (a subword tokeniser never misses a word); SEAT counts its coverage so
(:mod:`wordbias.measures.association.seat`).

:func:`encode` runs the sentences in batches (sorted by length; a progress bar with ``progress=True``) and caches
the array under ``<cache>/sentences/`` as ``.npz`` (no pickle), written atomically; the key hashes the encoder's
identity (for a network: its name, resolved path, configuration and a SHA-256 of its weights; for a static
embedding: its name, size and a hash of its vectors), the pooling, the batch size, the compute fingerprint
(:func:`wordbias.core.paths.compute_fingerprint`) and the texts. A cached file is used only if its stored key and
shape match; a damaged or mismatched file is rebuilt with a :class:`~wordbias.core.errors.CacheRebuiltWarning`.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordbias.core import paths
from wordbias.core.atomic import atomic_file
from wordbias.core.errors import CacheRebuiltWarning, EmbeddingFormatError, InvalidParameterError
from wordbias.core.progress import progress_bar
from wordbias.core.tokens import TOKEN, token_spans, tokenize
from wordbias.core.validation import check_int, check_option
from wordbias.models import blas_inference

__all__ = ["POOLINGS", "SentenceVectors", "TransformerEncoder", "StaticEncoder", "tokenize", "token_spans",
           "load_sentence_encoder", "encode", "cache_folder"]

#: the poolings of a transformer encoder
POOLINGS = ("mean", "cls")


def cache_folder() -> Path:
    """The folder of the sentence-vector caches: ``<wordbias cache>/sentences``.

    Returns
    -------
    pathlib.Path
        The folder (not created here).
    """
    return paths.cache_dir() / "sentences"


@dataclass(frozen=True)
class SentenceVectors:
    """The vectors of a list of sentences.

    Attributes
    ----------
    sentences : tuple of str
        The sentences asked for, in order, each once.
    vectors : numpy.ndarray
        float32, one row per sentence of ``sentences`` (a dropped sentence's row is NaN).
    dropped : dict of str to str
        Sentence -> why it has no vector (CBoW: no token in the vocabulary).
    encoder : str
        The encoder's label.
    pooling : str
        The sentence representation: ``"mean"``, ``"cls"`` or ``"cbow"``.
    seconds : float
        The time spent encoding (0 when the cache answered).
    cached : bool
        Whether the vectors came from the cache.
    oov_tokens : dict of str to int
        CBoW: the tokens the embedding lacks, with their counts (empty for a network).
    """

    sentences: tuple[str, ...]
    vectors: np.ndarray = field(repr=False)
    dropped: dict = field(default_factory=dict)
    encoder: str = ""
    pooling: str = ""
    seconds: float = 0.0
    cached: bool = False
    oov_tokens: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        """Sentences encoded per second (NaN when the cache answered)."""
        return len(self.sentences) / self.seconds if self.seconds > 0 else float("nan")

    def as_dict(self) -> dict[str, np.ndarray]:
        """Sentence -> vector, for the sentences that have one.

        Returns
        -------
        dict of str to numpy.ndarray
            The vector of each sentence not in :attr:`dropped`, in the order of :attr:`sentences`.
        """
        return {s: v for s, v in zip(self.sentences, self.vectors) if s not in self.dropped}


class TransformerEncoder:
    """A transformer encoder with its pooling (``"mean"`` over the attention mask, or ``"cls"``).

    Parameters
    ----------
    model : wordbias.models.contextual.Model
        The loaded encoder (:func:`wordbias.models.contextual.load_encoder`).
    pooling : {"mean", "cls"}
        The sentence representation.
    """

    kind = "transformer"

    def __init__(self, model, pooling: str):
        self.model = model
        self.pooling = check_option("pooling", pooling, POOLINGS)
        self._identity = None

    @property
    def label(self) -> str:
        """The model's short name."""
        return self.model.label

    def identity(self) -> dict:
        """What the vectors depend on besides the texts: name, path, configuration, SHA-256 of the weights, the
        route of the products (:func:`wordbias.models.blas_inference.route`).

        Returns
        -------
        dict
            ``name``, ``path``, ``config``, ``weights``, ``route`` and ``pooling``, JSON-serialisable (the key of
            the cache).
        """
        if self._identity is None:
            h = hashlib.sha256()
            for name, t in sorted(self.model.model.state_dict().items()):
                h.update(name.encode())
                h.update(t.detach().cpu().contiguous().numpy().tobytes())
            self._identity = {"name": self.model.name, "path": str(self.model.path),
                              "config": self.model.model.config.to_json_string(use_diff=False),
                              "weights": h.hexdigest(), "route": blas_inference.route(self.model.model)}
        return {**self._identity, "pooling": self.pooling}

    def sees(self, term: str) -> bool:
        """Whether the encoder can see a test term: always, as a subword tokeniser never misses a word.

        Parameters
        ----------
        term : str
            As for :meth:`StaticEncoder.sees`.

        Returns
        -------
        bool
            True.
        """
        return True

    def encode_batch(self, texts: list[str], max_length: int) -> np.ndarray:
        """The pooled final-layer vectors of ``texts`` (one batch), float32.

        Parameters
        ----------
        texts : list of str
            The sentences of the batch.
        max_length : int
            The most tokens of a sentence; the rest is cut off.

        Returns
        -------
        numpy.ndarray, shape (len(texts), hidden size)
            One pooled vector per sentence, float32.
        """
        import torch

        m = self.model
        with torch.inference_mode():
            enc = m.tokenizer(texts, return_tensors="pt", padding=True, truncation=True, max_length=max_length)
            enc = {k: v.to(m.device) for k, v in enc.items()}
            states = m.model(**enc).last_hidden_state.float()
            if self.pooling == "cls":
                out = states[:, 0]
            else:
                mask = enc["attention_mask"].unsqueeze(-1).to(states.dtype)
                out = (states * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return out.cpu().numpy().astype(np.float32)


class StaticEncoder:
    """May et al.'s CBoW: the mean of a static embedding's vectors of the sentence's tokens (:func:`tokenize`).

    Parameters
    ----------
    kv : gensim.models.KeyedVectors
        The word vectors.
    name : str
        The embedding's label.
    lowercase : bool or None, default None
        Lower-case the tokens; None: when the vocabulary is uncased (:func:`wordbias.embeddings.is_cased`).
    """

    kind = "static"
    pooling = "cbow"

    def __init__(self, kv, name: str, lowercase: bool | None = None):
        from wordbias import embeddings

        self.kv = kv
        self.name = str(name)
        self.lowercase = (not embeddings.is_cased(kv)) if lowercase is None else bool(lowercase)
        self._identity = None

    @property
    def label(self) -> str:
        """The embedding's name."""
        return self.name

    def identity(self) -> dict:
        """The name, the vocabulary size and dimension, and a SHA-256 of the vectors and the keys.

        Returns
        -------
        dict
            ``name``, ``shape``, ``vectors`` (the hash), ``lowercase`` and ``tokenizer``, JSON-serialisable (the
            key of the cache).
        """
        if self._identity is None:
            h = hashlib.sha256(np.ascontiguousarray(self.kv.vectors).tobytes())
            h.update("\n".join(self.kv.index_to_key).encode())
            self._identity = {"name": self.name, "shape": list(self.kv.vectors.shape), "vectors": h.hexdigest(),
                              "lowercase": self.lowercase, "tokenizer": TOKEN.pattern}
        return dict(self._identity)

    def tokens(self, sentence: str) -> list[str]:
        """The sentence's tokens as looked up (lower-cased for an uncased embedding).

        Parameters
        ----------
        sentence : str
            The text: a sentence, or a term alone (:meth:`sees`).

        Returns
        -------
        list of str
            The tokens of :func:`tokenize`, lower-cased when :attr:`lowercase`.
        """
        toks = tokenize(sentence)
        return [t.lower() for t in toks] if self.lowercase else toks

    def sees(self, term: str) -> bool:
        """Whether the encoder can see a test term: every one of its tokens (:meth:`tokens`) is in the vocabulary.

        A sentence whose term has an unknown token is averaged without it, so its vector would say nothing of the
        term (May et al.'s CBoW, §3); a word-level WEAT drops such a word, and SEAT drops its sentences.

        Parameters
        ----------
        term : str
            The word or phrase slotted into a sentence.

        Returns
        -------
        bool
            True when the term has at least one token and the embedding has them all.

        Examples
        --------
        >>> from wordbias.embeddings import to_keyed_vectors
        >>> enc = StaticEncoder(to_keyed_vectors(["white", "woman"], np.eye(2, dtype=np.float32)), "toy")
        >>> enc.sees("White woman"), enc.sees("woman of color"), enc.sees("")
        (True, False, False)
        """
        toks = self.tokens(term)
        return bool(toks) and all(t in self.kv.key_to_index for t in toks)

    def encode_one(self, sentence: str) -> tuple[np.ndarray | None, list[str]]:
        """The mean vector of the known tokens (None when there is none) and the unknown tokens.

        Parameters
        ----------
        sentence : str
            The sentence whose known tokens (:meth:`tokens`) are averaged.

        Returns
        -------
        vector : numpy.ndarray or None
            The float32 mean of the vectors of the tokens the embedding has; None when it has none of them.
        missing : list of str
            The tokens the embedding lacks, in order, repeats kept.
        """
        toks = self.tokens(sentence)
        index = self.kv.key_to_index
        known = [index[t] for t in toks if t in index]
        missing = [t for t in toks if t not in index]
        if not known:
            return None, missing
        return self.kv.vectors[known].astype(np.float64).mean(axis=0).astype(np.float32), missing


def _pooling_of_folder(path: str) -> str | None:
    """The pooling a sentence-transformers folder configures (``1_Pooling/config.json``), or None."""
    cfg = Path(path) / "1_Pooling" / "config.json"
    if not cfg.is_file():
        return None
    conf = json.loads(cfg.read_text(encoding="utf-8"))
    if conf.get("pooling_mode_mean_tokens"):
        return "mean"
    if conf.get("pooling_mode_cls_token"):
        return "cls"
    raise InvalidParameterError(f"{cfg}: a pooling other than mean or cls ({conf}); wordbias computes mean and cls")


def load_sentence_encoder(encoder, *, pooling: str | None = None, device: str | None = None):
    """Return a sentence encoder: a transformer with its pooling, or a static embedding as CBoW.

    Parameters
    ----------
    encoder : str or Model or KeyedVectors or TransformerEncoder or StaticEncoder
        The bundled MiniLM alias (``"all-minilm-l6-v2"``), a Hugging Face id or folder, a registered static
        embedding's name (``"glove-6b-50d"``; see ``wordbias embeddings``) or a path to a word-vector file, a
        loaded :class:`wordbias.models.contextual.Model`, gensim ``KeyedVectors``, or an encoder of this module
        (returned as is).
    pooling : {"mean", "cls"} or None, default None
        A transformer's sentence representation; None: its sentence-transformers configuration, else ``"cls"``.
        Must be None or ``"cbow"`` for a static embedding.
    device : str, optional
        The torch device of a transformer.

    Returns
    -------
    TransformerEncoder or StaticEncoder
        The encoder.

    Raises
    ------
    InvalidParameterError
        When ``pooling`` does not fit the encoder.
    wordbias.core.errors.ModelUnavailable
        When a model name is neither a registered embedding nor a model on this machine.
    """
    from wordbias import embeddings
    from wordbias.models import contextual

    if isinstance(encoder, (TransformerEncoder, StaticEncoder)):
        if pooling is not None and pooling != encoder.pooling:
            raise InvalidParameterError(f"pooling={pooling!r} differs from the encoder's {encoder.pooling!r}")
        return encoder
    if isinstance(encoder, contextual.Model):
        if pooling is not None:
            check_option("pooling", pooling, POOLINGS)
        return TransformerEncoder(encoder, pooling or _pooling_of_folder(encoder.path) or "cls")
    is_static = not isinstance(encoder, (str, Path)) or str(encoder) in embeddings.REGISTRY or (
        Path(encoder).is_file()) or _embedding_folder(encoder)
    if is_static:
        if pooling not in (None, "cbow"):
            raise InvalidParameterError(f"a static embedding's sentence vector is the mean of its word vectors "
                                        f"(CBoW); pooling={pooling!r} applies to a transformer")
        label = embeddings.label(encoder) if isinstance(encoder, (str, Path)) else "embedding"
        return StaticEncoder(embeddings.load(encoder, progress=False), label)
    if pooling is not None:
        check_option("pooling", pooling, POOLINGS)
    model = contextual.load_encoder(str(encoder), device)
    return TransformerEncoder(model, pooling or _pooling_of_folder(model.path) or "cls")


def _embedding_folder(path) -> bool:
    """Whether ``path`` is a folder of wordbias's own embedding format (a run ``wordbias train`` wrote, a cache): a
    static embedding, not a transformer's folder (:func:`wordbias.embeddings.formats.detect_format`)."""
    from wordbias.embeddings.formats import detect_format

    if not Path(path).is_dir():
        return False
    try:
        return detect_format(path) == "npy-cache"
    except EmbeddingFormatError:
        return False


def _key(encoder, texts: Sequence[str], batch_size: int, max_length: int) -> str:
    h = hashlib.sha256(json.dumps([encoder.kind, encoder.identity(), int(batch_size), int(max_length),
                                   paths.compute_fingerprint()], sort_keys=True).encode())
    for t in texts:
        h.update(t.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def _read(path: Path, key: str, n: int):
    """The cached (vectors, why each sentence was dropped ("" if kept), out-of-vocabulary token counts) at ``path``
    if it holds ``key`` and ``n`` rows; None if absent, or (with a warning) damaged or wrong."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            stored, V, reasons = str(z["key"]), z["vectors"], z["reasons"]
            oov = dict(zip(z["oov_tokens"].tolist(), z["oov_counts"].tolist()))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        problem = f"unreadable ({type(exc).__name__}: {exc})"
    else:
        if stored == key and V.ndim == 2 and V.shape[0] == n and V.dtype == np.float32 and reasons.shape == (n,):
            return V, reasons.tolist(), oov
        problem = f"holds key {stored[:16]}... and shape {V.shape}; expected key {key[:16]}... and {n} rows"
    warnings.warn(f"sentence-vector cache {path}: {problem}; recomputing it", CacheRebuiltWarning, stacklevel=3)
    return None


def encode(encoder, sentences: Sequence[str], *, pooling: str | None = None, batch_size: int = 32,
           max_length: int = 512, cache: bool = True, cache_dir: str | Path | None = None, device: str | None = None,
           progress: bool = False) -> SentenceVectors:
    """Encode sentences into vectors: batched, cached on disk, with a progress bar.

    Parameters
    ----------
    encoder : str or Model or KeyedVectors or TransformerEncoder or StaticEncoder
        Anything :func:`load_sentence_encoder` takes.
    sentences : sequence of str
        The sentences (repeats are encoded once).
    pooling : {"mean", "cls"} or None, default None
        A transformer's pooling (:func:`load_sentence_encoder`).
    batch_size : int, default 32
        Sentences run through a network at once (sorted by length; the key of the cache, as padding changes the
        float rounding).
    max_length : int, default 512
        The most tokens of a sentence; the rest is cut off.
    cache : bool, default True
        Read and write the cache.
    cache_dir : str or path-like, optional
        The cache folder (default :func:`cache_folder`).
    device : str, optional
        The torch device of a transformer loaded by name.
    progress : bool, default False
        Show a progress bar.

    Returns
    -------
    SentenceVectors
        The vectors, the sentences dropped with why, the time taken.

    Raises
    ------
    InvalidParameterError
        When ``sentences`` is a string or holds a non-string or empty sentence, or an option is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["this", "is", "amy", "."], np.eye(4, dtype=np.float32))
    >>> sv = encode(kv, ["This is Amy.", "Zed!"], cache=False)
    >>> sv.vectors[0].tolist(), sv.dropped
    ([0.25, 0.25, 0.25, 0.25], {'Zed!': 'none of its tokens (zed, !) is in the vocabulary'})
    """
    batch_size = check_int("batch_size", batch_size, min=1)
    max_length = check_int("max_length", max_length, min=1)
    if isinstance(sentences, str):
        raise InvalidParameterError(f"sentences must be a list of sentences, not the string {sentences!r}")
    texts = list(dict.fromkeys(sentences))
    for i, t in enumerate(texts):
        if not isinstance(t, str) or not t.strip():
            raise InvalidParameterError(f"sentence {i + 1} is {t!r}: every sentence must be a non-empty string")
    enc = load_sentence_encoder(encoder, pooling=pooling, device=device)
    n = len(texts)
    cache_file = key = None
    if cache and n:
        key = _key(enc, texts, batch_size, max_length)
        folder = Path(cache_dir) if cache_dir is not None else cache_folder()
        cache_file = folder / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', enc.label)}-{enc.pooling}-{key[:20]}.npz"
        hit = _read(cache_file, key, n)
        if hit is not None:
            V, reasons, oov = hit
            dropped = {t: why for t, why in zip(texts, reasons) if why}
            return SentenceVectors(tuple(texts), V, dropped, enc.label, enc.pooling, 0.0, True, oov)
    start = time.perf_counter()
    dropped, oov = {}, {}
    if enc.kind == "static":
        dim = enc.kv.vector_size
        V = np.full((n, dim), np.nan, dtype=np.float32)
        with progress_bar(n, desc=f"CBoW {enc.label}", unit="sentence", enabled=progress) as bar:
            for i, t in enumerate(texts):
                v, missing = enc.encode_one(t)
                for tok in missing:
                    oov[tok] = oov.get(tok, 0) + 1
                if v is None:
                    dropped[t] = f"none of its tokens ({', '.join(enc.tokens(t))}) is in the vocabulary"
                else:
                    V[i] = v
                bar.update(1)
    else:
        V = np.zeros((n, enc.model.model.config.hidden_size), dtype=np.float32)
        order = np.argsort([len(t) for t in texts], kind="stable")
        with progress_bar(n, desc=f"encoding ({enc.label}, {enc.pooling})", unit="sentence",
                          enabled=progress) as bar:
            for s in range(0, n, batch_size):
                idx = order[s:s + batch_size]
                V[idx] = enc.encode_batch([texts[i] for i in idx], max_length)
                bar.update(len(idx))
    seconds = time.perf_counter() - start
    if cache_file is not None:
        with atomic_file(cache_file, what="the sentence-vector cache") as tmp:  # all a fresh run reports, no pickle
            np.savez(tmp, vectors=V, reasons=np.array([dropped.get(t, "") for t in texts], dtype=str),
                     oov_tokens=np.array(list(oov), dtype=str), oov_counts=np.array(list(oov.values()), dtype=np.int64),
                     key=np.array(key))
    return SentenceVectors(tuple(texts), V, dropped, enc.label, enc.pooling, seconds, False, oov)
