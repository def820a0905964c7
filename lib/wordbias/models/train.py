"""Training word embeddings on a corpus: one run (:func:`train_embedding`), or an ensemble of runs
(:func:`train_ensemble`) whose spread shows how much a bias measure owes to the chance of training.

An ensemble has ``seeds`` runs on the whole corpus that differ only in the training seed (``seed-1`` ...
``seed-N``), and ``bootstrap`` runs each trained on a bootstrap sample of the corpus's documents (``bootstrap-1``
...; documents drawn with replacement, Antoniak & Mimno 2018, "Evaluating the stability of embedding-based word
similarities", TACL 6:107-119, doi:10.1162/tacl_a_00008), so that the spread covers the corpus's own sampling
too. On a corpus of a million tokens both spreads are large: that is what the ensembles are for.

**Determinism.** A run is gensim's Word2Vec or FastText with one worker thread, its ``seed``, and a word-seeding
hash that does not depend on ``PYTHONHASHSEED`` (gensim's default is Python's ``hash``, which changes from process
to process): the same corpus, settings and seed give the same vectors, bit for bit, in any process on the same
machine and software. Speed comes from running several runs at once (processes, or a Dask cluster), never
threads within a run. Seeds: run ``seed-i`` trains with seed ``seed + i``; bootstrap run ``i`` draws its
documents with seed ``sample_seed`` and trains with ``training_seed``, both derived from ``(seed, i)``
(:class:`numpy.random.SeedSequence`) and at least 2**31, hence distinct from every seed run's seed (which must stay
below 2**31).

**Caching.** Every run is an embedding cache (:func:`wordbias.embeddings.cache.save`) under
``<cache root>/trained/<key>`` (the cache root of :func:`wordbias.embeddings.cache_folders.cache_root`), the key a
SHA-256 of the corpus's SHA-256 and tokenisation, the settings, the run's kind and seeds, and gensim's version. A
run found there complete and matching is reused; a damaged one is trained again (with a
:class:`~wordbias.core.errors.CacheRebuiltWarning`). ``wordbias cache clear`` does not remove trained runs.

**The output folder** ``out`` holds ``runs/<id>/`` (a copy of each run's cache folder, loadable with
:func:`wordbias.embeddings.load`), ``manifest.json`` (what was trained and how, and each run's SHA-256:
byte-identical when the same call is made again) and ``timings.json`` (seconds per run, which vary). It is written
as a whole (:func:`wordbias.core.atomic.atomic_folder`, with ``.wordbias-run.json`` listing every file it wrote and
its SHA-256): a folder that is not an earlier ensemble's, or that holds other files at any depth (a file in a
run's folder that the ensemble did not write, or one changed since), is refused before any work and left as it is.

**Parallelism.** The runs not in the cache are independent jobs of :func:`_train_run` (joblib, ``loky`` processes
on this machine; or ``scheduler="tcp://HOST:PORT"``: joblib's ``dask`` backend on a Dask distributed cluster, the
optional extra ``pip install "wordbias[dask]"``). Each job reads the corpus itself from its
:class:`~wordbias.datasets.corpora.CorpusSpec` (once per process) and checks its SHA-256 against the caller's, so
a cluster worker that sees another file fails loudly.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import shutil
import socket
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core import paths
from wordbias.core.atomic import atomic_folder
from wordbias.core.errors import (
    CacheError,
    CacheRebuiltWarning,
    CorpusError,
    FolderNotOursError,
    InvalidParameterError,
)
from wordbias.core.jobs import run_jobs
from wordbias.core.ownership import MARKER, RUN_MANIFEST, check_tree_ours, file_sha256, mark, owner
from wordbias.core.parallel import default_workers
from wordbias.core.paths import check_output_dir
from wordbias.core.validation import check_real
from wordbias.datasets.corpora import (
    MAX_SENTENCE_TOKENS,
    MIN_WORDS,
    Corpus,
    CorpusSpec,
    bootstrap_documents,
    check_trainable,
    load_corpus,
    text_size,
)
from wordbias.embeddings.cache import save
from wordbias.embeddings.cache_folders import cache_root
from wordbias.embeddings.cache_format import INDEX_FILE, META_FILE, verify
from wordbias.embeddings.ensemble import ENSEMBLE_VERSION, read_manifest
from wordbias.embeddings.formats import VECTORS_FILE, VOCAB_FILE
from wordbias.embeddings.keyed_vectors import to_keyed_vectors

__all__ = ["TrainingSettings", "train_embedding", "train_ensemble", "training_cost", "read_manifest",
           "ENSEMBLE_VERSION", "MAX_RUNS", "MAX_SECONDS"]

#: The version of ``manifest.json``'s layout.
#: The version of the trained runs' cache keys (bumped when a run trained the same way would differ).
_RUN_KEY_VERSION = 1
_METHODS = ("word2vec", "fasttext")
_ARCHITECTURES = ("skipgram", "cbow")
_SEED_LIMIT = 2**31  # seed runs train with seeds below it, bootstrap runs with seeds from it
_OUT_FILES = {MARKER, RUN_MANIFEST, "manifest.json", "timings.json", "runs"}


@dataclass(frozen=True)
class TrainingSettings:
    """The settings of a training run (gensim's Word2Vec or FastText).

    The defaults are word2vec's and gensim's (gensim 4's ``Word2Vec``: ``vector_size=100``, ``window=5``,
    ``min_count=5``, ``negative=5``, ``sample=1e-3``, ``epochs=5``, ``alpha=0.025``), but for the architecture:
    skip-gram rather than gensim's CBOW, since skip-gram represents infrequent words better (Mikolov, Chen, Corrado
    & Dean 2013, "Efficient estimation of word representations in vector space", arXiv:1301.3781; the word2vec
    tool's documentation), and in a corpus of about a million tokens (Brown) most words are infrequent. Five
    negative samples lie within the 5-20 that Mikolov, Sutskever, Chen, Corrado & Dean (2013, "Distributed
    representations of words and phrases and their compositionality", NeurIPS) find useful for small data sets;
    ``sample=1e-3`` is the mildest subsampling of frequent words in the range (1e-3 to 1e-5) the word2vec tool
    recommends, so little of a small corpus is discarded; ``min_count=5`` leaves out words too rare to get a
    meaningful vector (on Brown it keeps 13,919 of 47,039 distinct words). Five epochs keep each run quick (13 s
    for a 100-d skip-gram run on Brown on one core, measured), which suits ensembles of many runs; raise ``epochs``
    for better-converged vectors on a small corpus.

    Parameters
    ----------
    method : {"word2vec", "fasttext"}, default "word2vec"
        gensim's ``Word2Vec``, or ``FastText`` (character n-grams, Bojanowski et al. 2017).
    architecture : {"skipgram", "cbow"}, default "skipgram"
        Skip-gram with negative sampling, or continuous bag of words.
    vector_size : int, default 100
        The dimension of the vectors.
    window : int, default 5
        The largest distance between a word and a context word (gensim draws the effective window per word); at
        most 10,000 (:data:`wordbias.datasets.corpora.MAX_SENTENCE_TOKENS`).
    min_count : int, default 5
        Words occurring fewer times are left out.
    negative : int, default 5
        Negative samples per positive one.
    sample : float, default 1e-3
        The threshold for downsampling frequent words (0 turns it off).
    epochs : int, default 5
        Passes over the corpus.
    alpha : float, default 0.025
        The initial learning rate (decreasing linearly to gensim's ``min_alpha``).
    min_n : int, default 3
        The shortest character n-gram (fastText only).
    max_n : int, default 6
        The longest character n-gram (fastText only).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If a setting has the wrong type or value.

    Examples
    --------
    >>> TrainingSettings(vector_size=50, epochs=10).as_dict()["vector_size"]
    50
    """

    method: str = "word2vec"
    architecture: str = "skipgram"
    vector_size: int = 100
    window: int = 5
    min_count: int = 5
    negative: int = 5
    sample: float = 1e-3
    epochs: int = 5
    alpha: float = 0.025
    min_n: int = 3
    max_n: int = 6

    def __post_init__(self):
        if self.method not in _METHODS:
            raise InvalidParameterError(f"method must be one of {_METHODS}, not {self.method!r}")
        if self.architecture not in _ARCHITECTURES:
            raise InvalidParameterError(f"architecture must be one of {_ARCHITECTURES}, not {self.architecture!r}")
        for name in ("vector_size", "window", "min_count", "negative", "epochs", "min_n", "max_n"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < (
                    0 if name == "negative" else 1):
                raise InvalidParameterError(f"{name} must be a {'non-negative' if name == 'negative' else 'positive'}"
                                            f" integer, not {value!r}")
            object.__setattr__(self, name, int(value))
        if self.negative == 0:
            raise InvalidParameterError("negative must be at least 1 (training uses negative sampling)")
        if self.window > MAX_SENTENCE_TOKENS:
            raise InvalidParameterError(f"window must be at most {MAX_SENTENCE_TOKENS:,} (a sentence has at most "
                                        f"{MAX_SENTENCE_TOKENS:,} tokens: a wider window is the same), not "
                                        f"{self.window:,}")
        for name in ("sample", "alpha"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
                    or not np.isfinite(value) or value < 0 or (name == "alpha" and value == 0):
                raise InvalidParameterError(f"{name} must be a {'positive' if name == 'alpha' else 'non-negative'} "
                                            f"number, not {value!r}")
            object.__setattr__(self, name, float(value))
        if self.min_n > self.max_n:
            raise InvalidParameterError(f"min_n={self.min_n} is larger than max_n={self.max_n}")

    def as_dict(self) -> dict:
        """The settings as a JSON-able dict (for a manifest and a cache key).

        Returns
        -------
        dict
            Field name -> value, in the fields' order.
        """
        return dataclasses.asdict(self)


def _stable_hash(text: str) -> int:
    """gensim's word-seeding hash: the first 8 bytes of SHA-256 (Python's ``hash`` of a str changes with
    ``PYTHONHASHSEED``, so the initial vectors would differ from process to process)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def _check_seed(seed, name: str = "seed", limit: int = 2**32) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < limit:
        raise InvalidParameterError(f"{name} must be an integer in [0, {limit}), not {seed!r}")
    return int(seed)


def train_embedding(corpus: Corpus, settings: TrainingSettings, *, seed: int,
                    documents: np.ndarray | None = None) -> KeyedVectors:
    """Train one embedding on a corpus (or on some of its documents), deterministically.

    gensim with one worker thread and the given seed: the same corpus, settings, seed and documents give the
    same vectors, in any process (the word-seeding hash does not depend on ``PYTHONHASHSEED``).

    Parameters
    ----------
    corpus : Corpus
        The corpus (:func:`wordbias.datasets.corpora.read_corpus`).
    settings : TrainingSettings
        The settings.
    seed : int
        The training seed (initial vectors, negative samples, subsampling, windows), in ``[0, 2**32)``.
    documents : numpy.ndarray, optional
        The documents to train on, by index, in order, repeats allowed (a bootstrap sample:
        :func:`wordbias.datasets.corpora.bootstrap_documents`); by default all of them.

    Returns
    -------
    KeyedVectors
        The trained word vectors (``model.wv``: float32, words by decreasing frequency); for fastText the
        ``FastTextKeyedVectors``, which also build vectors of unseen words from their n-grams.

    Raises
    ------
    wordbias.core.errors.CorpusError
        If the corpus is too small for the settings (:func:`wordbias.datasets.corpora.check_trainable`).
    wordbias.core.errors.InvalidParameterError
        If a parameter has the wrong type or value.

    Examples
    --------
    >>> from wordbias.datasets.corpora import read_corpus
    >>> corpus = read_corpus("inaugural")
    >>> settings = TrainingSettings(vector_size=10, epochs=1)
    >>> a = train_embedding(corpus, settings, seed=1)
    >>> b = train_embedding(corpus, settings, seed=1)
    >>> a.vectors.dtype, a.vectors.shape, bool((a.vectors == b.vectors).all())
    (dtype('float32'), (2744, 10), True)
    """
    from gensim.models import FastText, Word2Vec

    if not isinstance(corpus, Corpus):
        raise InvalidParameterError(f"corpus must be a Corpus (wordbias.datasets.corpora.read_corpus), not "
                                    f"{type(corpus).__name__}")
    if not isinstance(settings, TrainingSettings):
        raise InvalidParameterError(f"settings must be a TrainingSettings, not {type(settings).__name__}")
    seed = _check_seed(seed)
    check_trainable(corpus, min_count=settings.min_count, window=settings.window)
    options = dict(sentences=corpus.sentences(documents), vector_size=settings.vector_size, window=settings.window,
                   min_count=settings.min_count, negative=settings.negative, hs=0, sample=settings.sample,
                   epochs=settings.epochs, alpha=settings.alpha, sg=int(settings.architecture == "skipgram"),
                   workers=1, seed=seed, hashfxn=_stable_hash)
    if settings.method == "fasttext":
        model = FastText(min_n=settings.min_n, max_n=settings.max_n, **options)
    else:
        model = Word2Vec(**options)
    return model.wv


# ------------------------------------------------------------------------------------------------ runs

@dataclass(frozen=True)
class _Run:
    id: str
    kind: str
    training_seed: int
    sample_seed: int | None


def _derived_seed(seed: int, i: int, purpose: int) -> int:
    """A seed in [2**31, 2**32) for bootstrap run ``i`` (``purpose`` 1: the sample, 2: the training)."""
    state = np.random.SeedSequence([seed, i, purpose, 0x626F6F74]).generate_state(1, dtype=np.uint32)[0]
    return _SEED_LIMIT + int(state) % _SEED_LIMIT


def _plan(seed: int, seeds: int, bootstrap: int) -> list[_Run]:
    runs = [_Run(f"seed-{i}", "seed", seed + i, None) for i in range(1, seeds + 1)]
    runs += [_Run(f"bootstrap-{i}", "bootstrap", _derived_seed(seed, i, 2), _derived_seed(seed, i, 1))
             for i in range(1, bootstrap + 1)]
    return runs


def _kernel_fingerprint() -> dict:
    """:func:`wordbias.core.paths.compute_fingerprint` without the thread-count variables."""
    fp = paths.compute_fingerprint()
    fp["kernels"] = {k: v for k, v in fp["kernels"].items() if not k.endswith("_NUM_THREADS")}
    return fp


def _run_key(corpus: Corpus, settings: dict, run: _Run) -> str:
    import gensim

    document = {"version": _RUN_KEY_VERSION, "corpus_sha256": corpus.sha256, "tokenisation": corpus.tokenisation,
                "settings": settings, "kind": run.kind, "training_seed": run.training_seed,
                "sample_seed": run.sample_seed, "gensim": gensim.__version__,
                # the BLAS kernels round gensim's dot products and updates (SciPy's sdot/saxpy): vectors trained
                # under another KERNELS setting differ in their last bits, so they are another cache entry (not the
                # thread counts: one run is one thread, and Dask's workers set them to 1 in the client too)
                "fingerprint": _kernel_fingerprint()}
    return hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _cache_name(key: str) -> str:
    return f"trained run {key}"


def _train_run(spec: CorpusSpec, settings: dict, kind: str, training_seed: int, sample_seed: int | None,
               corpus_sha256: str, run_id: str, gensim_version: str | None = None
               ) -> tuple[str, list[str], np.ndarray, float]:
    """One run, in a worker process: read the corpus (once per process), check it is the caller's (and, given
    ``gensim_version``, that this worker trains with the caller's gensim, which the cache key names), train.

    Returns ``(run id, words, float32 vectors, seconds of training)``.
    """
    import gensim

    if gensim_version is not None and gensim.__version__ != gensim_version:
        raise RuntimeError(f"{socket.gethostname()} (pid {os.getpid()}) has gensim {gensim.__version__}, the caller "
                           f"{gensim_version}: the runs would not be those the cache and the manifest name; install "
                           "the same gensim on every worker")
    corpus = load_corpus(spec)
    if corpus.sha256 != corpus_sha256:
        raise CorpusError(f"{socket.gethostname()} (pid {os.getpid()}) read the corpus {spec.source} with SHA-256 "
                          f"{corpus.sha256}, the caller {corpus_sha256}: this worker sees other files; give every "
                          "worker the same corpus")
    documents = bootstrap_documents(len(corpus.documents), sample_seed) if kind == "bootstrap" else None
    start = time.perf_counter()
    kv = train_embedding(corpus, TrainingSettings(**settings), seed=training_seed, documents=documents)
    seconds = time.perf_counter() - start
    return run_id, list(kv.index_to_key), np.ascontiguousarray(kv.vectors, dtype=np.float32), seconds


def _cached(folder: Path, key: str) -> dict | None:
    """The meta.json of the trained run at ``folder`` if it is complete, undamaged and the run of ``key``."""
    if not os.path.lexists(folder):
        return None
    try:
        meta = verify(folder, full=True)
    except (CacheError, OSError) as exc:
        warnings.warn(f"{exc}; training the run again", CacheRebuiltWarning, stacklevel=3)
        return None
    if meta.get("name") != _cache_name(key):
        warnings.warn(f"{folder}: meta.json names {meta.get('name')!r}, not this run; training the run again",
                      CacheRebuiltWarning, stacklevel=3)
        return None
    return meta


def _trained_root(cache_dir) -> Path:
    """``<cache root>/trained``, created with wordbias's marker (so that cache listings do not count it as a
    foreign folder)."""
    root = cache_root(cache_dir) / "trained"
    if owner(root) is None:
        mark(root, "model")
    return root


# ------------------------------------------------------------------------------------------------ parallel runs

def _execute(todo: list[_Run], spec: CorpusSpec, settings: dict, sha256: str, *, workers: int | None,
             scheduler: str | None, progress: bool, on_result) -> int:
    """Train the runs ``todo`` as independent jobs (:func:`wordbias.core.jobs.run_jobs`: local processes or a Dask
    cluster), calling ``on_result(run_id, words, vectors, seconds)`` in this process as each finishes; returns the
    number of workers used."""
    import gensim

    jobs = [(spec, settings, r.kind, r.training_seed, r.sample_seed, sha256, r.id, gensim.__version__) for r in todo]
    return _run_training_jobs(jobs, workers=workers, scheduler=scheduler, progress=progress, on_result=on_result)


def _run_training_jobs(jobs: list[tuple], *, workers: int | None, scheduler: str | None, progress: bool,
                       on_result) -> int:
    """Run the jobs of :func:`_train_run` (its arguments, each ending with the run's id and gensim's version),
    calling ``on_result(run_id, words, vectors, seconds)`` in this process as each finishes; returns the number
    of workers used (0 when there is no job; -1: every worker of a Dask cluster)."""
    if not jobs:
        return 0
    n = -1 if scheduler is not None and workers is None else \
        workers if scheduler is not None else min(workers or default_workers(), len(jobs))
    run_jobs(_train_run, jobs, workers=n if scheduler is None else workers, scheduler=scheduler, progress=progress,
             desc="training runs", unit="run", on_result=lambda _, result: on_result(*result))
    return n


# ------------------------------------------------------------------------------------------------ ensembles

def _check_plan(settings, seeds, bootstrap, seed, *, workers, scheduler, command) -> tuple[int, int, int]:
    """Check the arguments of an ensemble (:func:`train_ensemble`) before any work; returns ``(seeds,
    bootstrap, seed)`` as ints."""
    if not isinstance(settings, TrainingSettings):
        raise InvalidParameterError(f"settings must be a TrainingSettings, not {type(settings).__name__}")
    for name, value in (("seeds", seeds), ("bootstrap", bootstrap)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise InvalidParameterError(f"{name} must be a non-negative integer, not {value!r}")
    seeds, bootstrap = int(seeds), int(bootstrap)
    if seeds + bootstrap == 0:
        raise InvalidParameterError("seeds=0 and bootstrap=0: nothing to train; ask for at least one run")
    seed = _check_seed(seed, limit=_SEED_LIMIT)
    if seed + seeds >= _SEED_LIMIT:
        raise InvalidParameterError(f"seed + seeds = {seed + seeds} must stay below 2**31 (the bootstrap runs' seeds "
                                    "lie above)")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, (int, np.integer))
                                or workers < 1):
        raise InvalidParameterError(f"workers must be a positive integer or None, not {workers!r}")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise InvalidParameterError(f"scheduler must be the address of a Dask scheduler (e.g. "
                                    f"'tcp://127.0.0.1:8786'), not {scheduler!r}")
    if command is not None and not isinstance(command, str):
        raise InvalidParameterError(f"command must be a str or None, not {type(command).__name__}")
    return seeds, bootstrap, seed


def _spec_of(corpus) -> tuple[CorpusSpec, Corpus | None]:
    """The corpus's spec, and the corpus when it was given read (nothing is read here)."""
    if isinstance(corpus, Corpus):
        return corpus.spec, corpus
    if isinstance(corpus, CorpusSpec):
        return corpus, None
    if isinstance(corpus, (str, os.PathLike)):
        return CorpusSpec(os.fspath(corpus)), None
    raise InvalidParameterError(f"corpus must be a shipped corpus's name, a path, a CorpusSpec or a Corpus; not "
                                f"{type(corpus).__name__}")


# ------------------------------------------------------------------------------------------------ costs

#: The most runs an ensemble may have (an ensemble shows the spread over a few dozen to a few hundred runs; each
#: run is a folder in the cache and in ``out``).
MAX_RUNS = 100_000
#: The default time budget of an ensemble (seconds of wall-clock time on the workers): a week.
MAX_SECONDS = 7 * 86_400
#: The fixed cost of training one (word, output vector) pair, in dimensions: measured, a run takes about as long
#: at 20 dimensions as at 100, and 1.65 times as long at 300.
_PAIR_OVERHEAD = 200
#: Training's pace on one core, for the estimates of :func:`training_cost`: (word, context word) pairs x
#: (negative samples + 1) x (dimensions + :data:`_PAIR_OVERHEAD`) per second. Measured: a 100-d skip-gram run on
#: Brown (1,006,060 tokens, window 5, so 6 pairs a token on average, 5 negative samples, 5 epochs) takes 13 s.
PAIR_RATE = 1_006_060 * 5 * 6 * 6 * (100 + _PAIR_OVERHEAD) / 13
#: Bytes of text per token, to estimate a corpus's tokens from its size before it is read (about 6 in plain
#: English text, 10 in the tagged Brown corpus).
_BYTES_PER_TOKEN = 8
#: Bytes a token takes in a process that holds the corpus (its slot in the documents, and in the sentences
#: gensim trains on), and bytes per vocabulary word besides its vectors (gensim's and the cache's word tables).
_TOKEN_BYTES, _WORD_BYTES = 24, 200
#: Bytes per planned run in the calling process (its seeds, cache key, job and manifest entry).
_RUN_BYTES = 2_048
#: gensim FastText's number of hash buckets for the character n-grams (its default; each holds a vector).
_FASTTEXT_BUCKETS = 2_000_000


def training_cost(n_tokens: int, n_words: int, settings: TrainingSettings, *, runs: int = 1,
                  workers: int = 1) -> tuple[float, float]:
    """An estimate of the (seconds, bytes of memory) of training ``runs`` runs with ``workers`` processes.

    Time: each run goes over ``n_tokens`` tokens ``epochs`` times; skip-gram trains on about ``window + 1``
    context words a token (gensim draws the window of each word from 1 to ``window``), each pair with
    ``negative + 1`` output vectors of ``vector_size`` numbers (plus a fixed cost per pair, as much as 200
    numbers); CBOW averages the ``window + 1`` context vectors once and trains ``negative + 1`` outputs. At
    :data:`PAIR_RATE` on one core; the runs split over the workers.
    fastText's character n-grams make it slower than that: its estimate is a lower bound.

    Memory: each worker holds the corpus (24 bytes a token) and its run's arrays: the word vectors, the output
    vectors of negative sampling and the copy sent back (3 x ``n_words`` x ``vector_size`` float32), for fastText
    also the vectors of its 2,000,000 n-gram buckets and of the words' own; the calling process holds the corpus,
    the vectors of the run it is saving, and its plan of the runs (2 KiB a run).

    Parameters
    ----------
    n_tokens : int
        The corpus's tokens.
    n_words : int
        The words kept (occurring ``min_count`` times or more).
    settings : TrainingSettings
        The settings.
    runs : int, default 1
        The runs to train.
    workers : int, default 1
        The processes training at once (1: in the calling process).

    Returns
    -------
    tuple of float
        (seconds of wall-clock time, bytes of memory at the peak).

    Examples
    --------
    >>> seconds, n_bytes = training_cost(1_006_060, 13_919, TrainingSettings())
    >>> round(seconds), round(n_bytes / 2 ** 20)
    (13, 52)
    """
    n_tokens, n_words, runs = float(n_tokens), float(n_words), float(runs)
    d = float(settings.vector_size)
    outputs = settings.negative + 1.0
    if settings.architecture == "skipgram":
        units = (settings.window + 1.0) * outputs
    else:
        units = settings.window + 1.0 + outputs
    per_run = n_tokens * settings.epochs * units * (d + _PAIR_OVERHEAD) / PAIR_RATE
    seconds = per_run * -(-runs // workers)
    arrays = 3 * n_words * d * 4
    if settings.method == "fasttext":
        arrays += (_FASTTEXT_BUCKETS + n_words) * d * 4
    corpus = n_tokens * _TOKEN_BYTES
    worker = corpus + arrays + n_words * _WORD_BYTES
    caller = corpus + 2 * n_words * d * 4 + runs * _RUN_BYTES
    n_bytes = (worker + caller - corpus) if workers <= 1 else worker * min(workers, runs) + caller
    return seconds, n_bytes


def _check_training_cost(spec: CorpusSpec, corpus: Corpus | None, settings: TrainingSettings, *, seeds: int,
                         bootstrap: int, workers: int | None, scheduler: str | None, max_seconds: float) -> None:
    """Refuse, before any training, an ensemble whose estimate (:func:`training_cost`) is over ``max_seconds`` or
    over the memory available now (:func:`wordbias.core.costs.available_memory`), or that has more than
    :data:`MAX_RUNS` runs. Before the corpus is read (``corpus`` None) the estimate takes its tokens from its
    size (8 bytes a token) and its words as few as such a text has (3 x the square root of its tokens, Heaps'
    law at its lowest); once it is read, its own counts."""
    from wordbias.core.costs import available_memory, bytes_text, check_cost, duration_text

    runs = seeds + bootstrap
    if corpus is None:
        size = text_size(spec)
        n_tokens = max(1, size // _BYTES_PER_TOKEN)
        n_words = max(MIN_WORDS, min(n_tokens, int(3 * n_tokens ** 0.5)))
        about = f"about {n_tokens:,} tokens and {n_words:,} words or more, from its {bytes_text(size)}"
    else:
        n_tokens, n_words = corpus.n_tokens, corpus.vocabulary_size(settings.min_count)
        about = f"{n_tokens:,} tokens, {n_words:,} words occurring min_count={settings.min_count} times or more"
    local = scheduler is None
    # on a cluster of unknown size, as many runs at once as asked, else all of them
    n_workers = min(workers or default_workers(), runs) if local else min(workers or runs, runs)
    seconds, n_bytes = training_cost(n_tokens, n_words, settings, runs=runs, workers=n_workers)
    if not local:   # the cluster's memory is its own: only this process's share (the corpus and the plan)
        n_bytes = n_tokens * _TOKEN_BYTES + runs * _RUN_BYTES
    s = settings
    what = (f"training {runs:,} run{'s' * (runs != 1)} (seeds={seeds:,}, bootstrap={bootstrap:,}) of {s.method} "
            f"{s.architecture}, vector_size={s.vector_size:,}, window={s.window:,}, negative={s.negative:,}, "
            f"epochs={s.epochs:,}, on {spec.source} ({about}), {n_workers} at a time"
            + ("" if local else " on the cluster"))
    memory = available_memory()
    over_time = seconds > max_seconds
    over_memory = memory is not None and n_bytes > memory
    if over_time or over_memory:
        ways = []
        if over_memory:
            one = training_cost(n_tokens, n_words, settings, runs=runs, workers=1)[1]
            if local and n_workers > 1 and one < memory:
                per_worker = (n_bytes - one) / (n_workers - 1)
                fit = max(1, min(n_workers - 1, int((memory - one) // per_worker) + 1))
                ways.append(f"fewer runs at once (workers={fit}, `--workers {fit}`)")
            ways.append("a smaller vector_size (--dim) or a larger min_count (--min-count: fewer words)"
                        + (", or word2vec rather than fastText (whose n-gram buckets are 2,000,000 vectors a run)"
                           if s.method == "fasttext" else ""))
        if over_time or runs > 1000:
            ways.append("fewer runs (--seeds, --bootstrap)")
        if over_time:
            ways.append("fewer epochs, a smaller vector_size or window, or more workers; or pass a larger "
                        "max_seconds to train_ensemble if you mean it")
        check_cost(what, seconds, n_bytes, max_seconds, "Use " + "; or ".join(ways) + ".",
                   max_bytes=memory if memory is not None else float("inf"),
                   memory_budget="the memory this machine has available now")
    if runs > MAX_RUNS:
        raise InvalidParameterError(f"seeds + bootstrap = {runs:,} runs: an ensemble has at most {MAX_RUNS:,} runs "
                                    f"(each is a folder in the cache and in out; {duration_text(seconds)} of "
                                    "training); ask for fewer")


def _check_out(out) -> Path:
    """``out`` resolved, if it may receive an ensemble: absent, empty, or an earlier ensemble of ours holding
    nothing else, at every depth (:func:`wordbias.core.ownership.check_tree_ours`: each file in its run manifest
    with the SHA-256 it was written with, each subfolder one it created); refused otherwise, before any work."""
    folder = check_output_dir(out, what="out")
    if _nothing_to_lose(folder):
        return folder
    entries = {p.name for p in folder.iterdir()}
    if owner(folder) != "output" or "manifest.json" not in entries or not _is_manifest(folder / "manifest.json"):
        raise FolderNotOursError(f"refusing to write the ensemble into {folder}: it is not empty and holds no "
                                 "ensemble of train_ensemble (no manifest.json of ours); choose a new folder, or "
                                 "move this one away yourself")
    others = sorted(entries - _OUT_FILES)
    if others:
        raise FolderNotOursError(f"refusing to replace the ensemble in {folder}: it also holds files train_ensemble "
                                 f"did not write ({', '.join(others[:5])}{', ...' if len(others) > 5 else ''}); "
                                 "move them away, or choose a new folder")
    _check_replaceable(folder)
    return folder


def _nothing_to_lose(folder: Path) -> bool:
    """Whether ``folder`` is absent, empty, or holds only the marker of a wordbias folder."""
    if not folder.exists():
        return True
    entries = {p.name for p in folder.iterdir()}
    return not entries or (entries == {MARKER} and owner(folder) is not None)


def _check_replaceable(folder: Path) -> None:
    """Refuse to replace ``folder`` unless everything in it, at every depth, is what ``train_ensemble`` wrote:
    listed in its run manifest (:func:`wordbias.core.ownership.check_tree_ours`), or, in an ensemble written
    before the run manifest, recognised by its own files (:func:`_check_earlier_ensemble`)."""
    if not folder.exists() or (folder / RUN_MANIFEST).exists() or not (folder / "manifest.json").is_file():
        check_tree_ours(folder, action="replace the ensemble in")
    else:
        _check_earlier_ensemble(folder)


#: the files of a run's folder in an ensemble (a copy of its embedding cache)
_RUN_FILES = {MARKER, VECTORS_FILE, VOCAB_FILE, INDEX_FILE, META_FILE}


def _check_earlier_ensemble(folder: Path) -> None:
    """Refuse to replace an ensemble that has no run manifest (one written by an earlier wordbias) unless every
    entry in it, at every depth, is one ``train_ensemble`` writes: ``manifest.json``, ``timings.json`` and the
    marker at the top, ``runs/`` holding one folder per run of the manifest, each holding only its embedding
    cache's files, whose ``vectors.npy`` has the SHA-256 the manifest gives. The message names the first entry
    that is not (:class:`~wordbias.core.errors.FolderNotOursError`)."""
    runs = {e.get("id"): e for e in json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["runs"]
            if isinstance(e, dict)}

    def refuse(path: Path, why: str):
        raise FolderNotOursError(f"refusing to replace the ensemble in {folder}: {path} {why}; nothing was "
                                 "changed. Move it away yourself, or choose a new folder")

    def plain(path: Path, kind: str) -> None:
        if path.is_symlink() or not (path.is_dir() if kind == "folder" else path.is_file()):
            refuse(path, f"is not the {kind} train_ensemble wrote there")

    for entry in folder.iterdir():
        plain(entry, "folder" if entry.name == "runs" else "file")
    for run in (folder / "runs").iterdir():
        if run.name not in runs:
            refuse(run, "is not a run of the ensemble's manifest.json")
        plain(run, "folder")
        for entry in run.iterdir():
            if entry.name not in _RUN_FILES:
                refuse(entry, "is a file train_ensemble did not write")
            plain(entry, "file")
        if file_sha256(run / VECTORS_FILE) != runs[run.name].get("vectors_sha256"):
            refuse(run / VECTORS_FILE, "is not the file train_ensemble wrote (its SHA-256 differs from the one "
                                       "in manifest.json)")


def _is_manifest(path: Path, version_key: str = "wordbias_ensemble_version") -> bool:
    """Whether ``path`` is a JSON object holding ``version_key`` (an ensemble's manifest, by default)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and version_key in data


def _software() -> dict:
    import gensim

    from wordbias import __version__

    return {"gensim": gensim.__version__, "numpy": np.__version__, "python": platform.python_version(),
            "wordbias": __version__}


def _json_text(data) -> str:
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def train_ensemble(corpus, out, *, settings: TrainingSettings = TrainingSettings(), seeds: int = 1,
                   bootstrap: int = 0, seed: int = 0, workers: int | None = None, scheduler: str | None = None,
                   cache_dir=None, progress: bool = True, command: str | None = None,
                   max_seconds: float = MAX_SECONDS) -> Path:
    """Train an ensemble of embeddings on a corpus: runs that differ in the training seed, and runs on bootstrap
    samples of the documents; write them with a manifest.

    An ensemble too large for this machine is refused before any work
    (:class:`~wordbias.core.errors.TooCostlyError` with the estimate, :func:`training_cost`, and the way out): one
    estimated to take more than ``max_seconds``, or more memory than the machine has available (the runs held at
    once by the workers); first from the corpus's size, before it is read, then from its counts, before any
    training.

    Runs already in the cache are reused (nothing is trained when the same call is made again); the others are
    trained in parallel, one process per run (see the module docstring). ``out`` receives ``runs/<id>/`` (each an
    embedding folder, :func:`wordbias.embeddings.load` opens it), ``manifest.json`` (JSON with sorted keys: the
    corpus, its tokenisation and SHA-256, the settings, the seeds, the software's versions, the command, and per
    run its id, kind, seeds, path, the SHA-256 of its ``vectors.npy``, its number of words and, for a bootstrap
    run, the SHA-256 of its document indices as little-endian int64), and ``timings.json`` (seconds per run,
    ``null`` for a run from the cache). The manifest is byte-identical when the call is repeated.

    Parameters
    ----------
    corpus : str, path-like, CorpusSpec or Corpus
        A shipped corpus's name (``"brown"``), the path of a text file or folder, a
        :class:`~wordbias.datasets.corpora.CorpusSpec`, or a :class:`~wordbias.datasets.corpora.Corpus` (its
        spec is what the workers read).
    out : str or path-like
        The folder to write: absent, empty, or an earlier ensemble's (replaced as a whole); any other folder is
        refused and left as it is.
    settings : TrainingSettings, default TrainingSettings()
        The training settings.
    seeds : int, default 1
        The number of runs on the whole corpus (``seed-1`` ... with training seeds ``seed + 1`` ...).
    bootstrap : int, default 0
        The number of runs on bootstrap samples of the documents (``bootstrap-1`` ...).
    seed : int, default 0
        The ensemble's seed, from which every run's seeds follow; ``seed + seeds`` must stay below 2**31.
    workers : int, optional
        Processes training at once; by default the CPUs this process may use, at most one per run to train. With
        ``scheduler``, the number of runs at once on the cluster (by default as many as its workers' threads).
    scheduler : str, optional
        The address of a Dask distributed scheduler (``"tcp://127.0.0.1:8786"``) to train on instead of this
        machine; needs the extra ``pip install "wordbias[dask]"``, wordbias on every worker, and the corpus at the
        same path on every worker (a shipped corpus is).
    cache_dir : str or path-like, optional
        The cache root (:func:`wordbias.embeddings.cache_folders.cache_root`); the runs go to its ``trained/``.
    progress : bool, default True
        Show a progress bar advancing as runs finish.
    command : str, optional
        The command line that asked for the ensemble, recorded in the manifest (``null`` when omitted).
    max_seconds : float, default MAX_SECONDS (a week)
        The time budget: an ensemble estimated to take longer (wall-clock, on the workers) is refused.

    Returns
    -------
    pathlib.Path
        ``out/manifest.json``.

    Raises
    ------
    wordbias.core.errors.CorpusError
        If the corpus cannot be read or is too small for the settings; or if a worker reads a different corpus.
    wordbias.core.errors.FolderNotOursError
        If ``out`` is not empty and not an earlier ensemble's (or holds other files too, at any depth, or a file
        of the ensemble changed since it was written); it is left as it is.
    wordbias.core.errors.InvalidParameterError
        If a parameter has the wrong type or value (more than :data:`MAX_RUNS` runs), or ``out`` is a folder
        outputs may not go to.
    wordbias.core.errors.TooCostlyError
        If the ensemble is estimated to take more than ``max_seconds`` or more memory than this machine has
        available.
    ImportError
        If ``scheduler`` is given and Dask's ``distributed`` is not installed.
    ConnectionError
        If the scheduler cannot be reached.

    Warns
    -----
    wordbias.core.errors.SmallCorpusWarning
        With bootstrap runs on a corpus of fewer than 20 documents.
    wordbias.core.errors.CacheRebuiltWarning
        When a cached run is damaged and trained again.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> base = pathlib.Path(tempfile.mkdtemp())
    >>> out = base / "ensemble"
    >>> manifest = train_ensemble("inaugural", out, settings=TrainingSettings(vector_size=10, epochs=1), seeds=2,
    ...                           workers=1, progress=False, cache_dir=base / "cache")
    >>> [(r["id"], r["training_seed"], r["n_words"]) for r in json.loads(manifest.read_text())["runs"]]
    [('seed-1', 1, 2744), ('seed-2', 2, 2744)]
    >>> sorted(p.name for p in (out / "runs").iterdir())
    ['seed-1', 'seed-2']
    """
    seeds, bootstrap, seed = _check_plan(settings, seeds, bootstrap, seed, workers=workers, scheduler=scheduler,
                                         command=command)
    if max_seconds != float("inf"):
        max_seconds = check_real("max_seconds", max_seconds, low=0, low_open=True)
    spec, loaded = _spec_of(corpus)
    cost = dict(seeds=seeds, bootstrap=bootstrap, workers=workers, scheduler=scheduler, max_seconds=max_seconds)
    if loaded is None:
        _check_training_cost(spec, None, settings, **cost)   # from the corpus's size, before it is read
        loaded = load_corpus(spec)
    check_trainable(loaded, min_count=settings.min_count, window=settings.window, bootstrap=bootstrap)
    _check_training_cost(spec, loaded, settings, **cost)      # from its counts, before any training
    folder = _check_out(out)  # refused before any training

    settings_dict = settings.as_dict()
    runs = _plan(seed, seeds, bootstrap)
    root = _trained_root(cache_dir)
    keys = {run.id: _run_key(loaded, settings_dict, run) for run in runs}
    todo = [run for run in runs if _cached(root / keys[run.id], keys[run.id]) is None]
    seconds: dict[str, float | None] = {run.id: None for run in runs}

    def keep(run_id: str, words: list[str], vectors: np.ndarray, took: float) -> None:
        save(to_keyed_vectors(words, vectors), root / keys[run_id], name=_cache_name(keys[run_id]))
        seconds[run_id] = round(took, 3)

    started = time.perf_counter()
    used = _execute(todo, spec, settings_dict, loaded.sha256, workers=workers, scheduler=scheduler,
                    progress=progress, on_result=keep)
    elapsed = time.perf_counter() - started

    with atomic_folder(folder, kind="output", manifest=True, check=_check_replaceable) as tmp:   # with SHA-256s
        entries = []
        for run in runs:
            target = tmp / "runs" / run.id
            shutil.copytree(root / keys[run.id], target)
            meta = verify(target, full=True)  # the copy is what the manifest vouches for
            entry = {"id": run.id, "kind": run.kind, "training_seed": run.training_seed,
                     "sample_seed": run.sample_seed, "path": f"runs/{run.id}", "cache_key": keys[run.id],
                     "vectors_sha256": file_sha256(target / VECTORS_FILE), "n_words": int(meta["shape"][0])}
            if run.kind == "bootstrap":
                sample = bootstrap_documents(len(loaded.documents), run.sample_seed)
                entry["documents_sha256"] = hashlib.sha256(sample.astype("<i8").tobytes()).hexdigest()
            entries.append(entry)
        manifest = {
            "wordbias_ensemble_version": ENSEMBLE_VERSION,
            "corpus": {"source": spec.source, "sha256": loaded.sha256, "n_documents": len(loaded.documents),
                       "n_tokens": loaded.n_tokens, "tokenisation": loaded.tokenisation},
            "settings": settings_dict, "seed": seed, "seeds": seeds, "bootstrap": bootstrap,
            "software": _software(), "command": command, "runs": entries,
        }
        (tmp / "manifest.json").write_text(_json_text(manifest), encoding="utf-8")
        timings = {"runs": {run.id: {"train_seconds": seconds[run.id], "cached": run not in todo} for run in runs},
                   "trained": len(todo), "workers": used, "scheduler": scheduler,
                   "wall_seconds": round(elapsed, 3)}
        (tmp / "timings.json").write_text(_json_text(timings), encoding="utf-8")
    return folder / "manifest.json"
