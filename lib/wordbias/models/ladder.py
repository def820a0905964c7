"""A ladder of planted bias: ensembles of embeddings trained on one corpus with a counterfactual swap of gendered
word pairs at several rates (:mod:`wordbias.datasets.swap`), against which a bias measure is checked.

At each rate ``p`` the ladder has one ensemble (:func:`wordbias.models.train.train_ensemble`): ``seeds`` runs that
differ in the training seed, and optionally ``bootstrap`` runs on bootstrap samples of the documents. Every rate's
runs have the same training seeds (run ``seed-i`` trains with ``seed + i`` at every rate) and the same bootstrap
samples (the swap changes no document), and the swapped sentences are nested over the rates (common random
numbers: sentence ``i`` is swapped at rate ``p`` iff ``u_i < p``, one ``u`` for all rates): the rate is the only
difference between a rate's run ``seed-i`` and another's. Rate 0 is the original corpus, trained under the same
cache keys as an ensemble of the unswapped corpus (such runs already trained are reused).

**Rate 1 mirrors rate 0.** At rate 1 every sentence is swapped: the corpus is the original with each pair's two
words renamed into each other. gensim's training sees the words only as positions in the vocabulary (ordered by
count) and draws the initial vectors row by row from the seed, and a renaming changes neither: run ``seed-i`` at
rate 1 is run ``seed-i`` at rate 0 with the rows of each pair's two words exchanged, bit for bit (the same
``vectors.npy``). A measure of the pair words' bias at rate 1 is thus its value at rate 0 with the pairs' sides
exchanged, with no training noise between them; the rates in between are not renamings.

**The output folder** ``out`` holds ``rate-<p>/`` (each an ensemble folder: ``manifest.json``, ``runs/``;
``wordbias weat out/rate-0.5`` measures one), ``ladder.json`` (the pairs, the rates, the swap's seed, each rate's
manifest path relative to ``out`` with its SHA-256 and the numbers of sentences swapped and changed, the
software; byte-identical when the same call is made again) and ``timings.json`` (seconds per run trained, which
vary; each rate's own ``timings.json`` shows its runs as taken from the cache, where this call put them). It is
written as a whole (:func:`wordbias.core.atomic.atomic_folder`): a folder that is not an earlier ladder's, or that
holds anything else at any depth, is refused before any work and left as it is.

**Parallelism.** The runs of all rates not in the cache are one batch of jobs (local processes, or a Dask cluster
with ``scheduler``), so ``workers`` spread over the rates too; each job reads the swapped corpus itself from its
spec (the original read once per process, each rate's swap applied in about 0.1 s on Brown).
"""
from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordbias.core.atomic import atomic_folder
from wordbias.core.errors import EnsembleError, FolderNotOursError, InvalidParameterError
from wordbias.core.ownership import check_tree_ours, file_sha256, owner
from wordbias.core.paths import check_output_dir
from wordbias.datasets.corpora import Corpus, check_trainable, load_corpus
from wordbias.datasets.swap import SHIPPED_PAIRS, SwapSpec, load_pairs, pairs_sha256
from wordbias.embeddings.cache import save
from wordbias.embeddings.ensemble import Ensemble, load_ensemble
from wordbias.embeddings.keyed_vectors import to_keyed_vectors
from wordbias.models import train as _train
from wordbias.models.train import TrainingSettings

__all__ = ["DEFAULT_RATES", "LADDER_VERSION", "LADDER_FILE", "LadderSpec", "Ladder", "rate_label", "train_ladder",
           "load_ladder"]

#: The rates of the default ladder.
DEFAULT_RATES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The version of ``ladder.json``'s layout (``wordbias_ladder_version``).
LADDER_VERSION = 1
#: The ladder's file in its folder.
LADDER_FILE = "ladder.json"
_DEFAULT_SETTINGS = TrainingSettings()


def rate_label(rate: float) -> str:
    """A rate as written in folder names and tables: the shortest decimal that reads back as the same float
    (``0``, ``0.25``, ``1``).

    Parameters
    ----------
    rate : float
        A swap rate.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> [rate_label(r) for r in (0.0, 0.25, 1.0, 0.1)]
    ['0', '0.25', '1', '0.1']
    """
    return np.format_float_positional(float(rate), trim="-")


def _check_rates(rates) -> tuple[float, ...]:
    if isinstance(rates, (str, bytes)) or not isinstance(rates, Sequence) or not rates:
        raise InvalidParameterError(f"rates must be a non-empty list of swap rates in [0, 1], not {rates!r}")
    checked = []
    for rate in rates:
        if isinstance(rate, bool) or not isinstance(rate, (int, float, np.integer, np.floating)) \
                or not np.isfinite(rate) or not 0 <= rate <= 1:
            raise InvalidParameterError(f"rates: {rate!r} is not a swap rate (a number in [0, 1], the share of "
                                        "sentences swapped)")
        checked.append(float(rate))
    repeated = sorted({rate_label(r) for r in checked if checked.count(r) > 1})
    if repeated:
        raise InvalidParameterError(f"rates: {', '.join(repeated)} given more than once; each rate is one ensemble")
    return tuple(sorted(checked))


@dataclass(frozen=True)
class LadderSpec:
    """What a ladder varies and how: the rates, the pairs swapped, the swap's seed.

    Parameters
    ----------
    rates : sequence of float, default (0, 0.25, 0.5, 0.75, 1)
        The swap rates, each in ``[0, 1]``, no two equal; kept in increasing order.
    pairs : str, path-like or sequence of (str, str), default "bolukbasi"
        A shipped pair list's name, a pair file, or the pairs (:func:`wordbias.datasets.swap.load_pairs`).
    swap_seed : int, default 0
        The seed of the sentences' uniform numbers, the same at every rate (non-negative).

    Attributes
    ----------
    pairs_source : str
        Where the pairs came from: the shipped list's name, the file's absolute path, or ``"given"``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If a rate is out of ``[0, 1]`` or repeated, there is no rate, the pairs fail
        :func:`wordbias.datasets.swap.check_pairs`, or the seed is not a non-negative integer.

    Examples
    --------
    >>> spec = LadderSpec(rates=(1, 0, 0.5))
    >>> spec.rates, len(spec.pairs), spec.pairs_source
    ((0.0, 0.5, 1.0), 45, 'bolukbasi')
    """

    rates: tuple[float, ...] = DEFAULT_RATES
    pairs: tuple[tuple[str, str], ...] = "bolukbasi"
    swap_seed: int = 0
    pairs_source: str = field(init=False, default="given")

    def __post_init__(self):
        object.__setattr__(self, "rates", _check_rates(self.rates))
        source = self.pairs
        if isinstance(source, (str, os.PathLike)):
            pairs = load_pairs(source)
            label = source if isinstance(source, str) and source in SHIPPED_PAIRS else \
                str(Path(source).expanduser().absolute())
        else:
            pairs, label = SwapSpec(source, 0.0).pairs, "given"
        object.__setattr__(self, "pairs", pairs)
        object.__setattr__(self, "pairs_source", label)
        object.__setattr__(self, "swap_seed", SwapSpec(pairs, 0.0, self.swap_seed).seed)

    def swap(self, rate: float) -> SwapSpec:
        """The swap at ``rate``.

        Parameters
        ----------
        rate : float
            A swap rate in ``[0, 1]``.

        Returns
        -------
        wordbias.datasets.swap.SwapSpec
            The ladder's pairs and swap seed at that rate.
        """
        return SwapSpec(self.pairs, rate, self.swap_seed)


@dataclass(frozen=True)
class Ladder:
    """A trained ladder (:func:`load_ladder`): one ensemble per swap rate.

    Attributes
    ----------
    rates : tuple of float
        The swap rates, increasing.
    ensembles : tuple of wordbias.embeddings.ensemble.Ensemble
        One per rate, in the order of :attr:`rates` (labelled ``rate-<p>``; each run loaded when measured).
    pairs : tuple of (str, str)
        The pairs swapped, as applied to the corpus (lower-cased for a lower-cased corpus).
    swap_seed : int
        The seed of the sentences' uniform numbers.
    manifest : mapping
        ``ladder.json``.
    path : pathlib.Path
        ``ladder.json``'s path.
    """

    rates: tuple[float, ...]
    ensembles: tuple[Ensemble, ...] = field(repr=False)
    pairs: tuple[tuple[str, str], ...] = field(repr=False)
    swap_seed: int
    manifest: Mapping = field(repr=False)
    path: Path

    def __len__(self) -> int:
        return len(self.rates)


# ------------------------------------------------------------------------------------------------ training

def train_ladder(corpus, out, ladder=None, *, settings: TrainingSettings = _DEFAULT_SETTINGS, seeds: int = 3,
                 bootstrap: int = 0, seed: int = 0, workers: int | None = None, scheduler: str | None = None,
                 cache_dir=None, progress: bool = True, command: str | None = None) -> Path:
    """Train a ladder of planted bias: at each swap rate an ensemble of runs on the corpus with the swap.

    See the module docstring for what is trained, the seeds, the output folder and the parallelism. The runs of
    all rates not in the cache are trained first, as one batch; each rate's ensemble is then written by
    :func:`wordbias.models.train.train_ensemble` (from the cache) into ``out/rate-<p>/``; then ``ladder.json``
    and ``timings.json``.

    Parameters
    ----------
    corpus : str, path-like, CorpusSpec or Corpus
        The unswapped corpus (as :func:`wordbias.models.train.train_ensemble` takes it).
    out : str or path-like
        The folder to write: absent, empty, or an earlier ladder's (replaced as a whole); any other folder is
        refused and left as it is.
    ladder : LadderSpec or sequence of float, optional
        The rates, pairs and swap seed (a sequence: the rates, with the ``"bolukbasi"`` pairs and seed 0); by
        default :class:`LadderSpec` ``()``.
    settings : TrainingSettings, default TrainingSettings()
        The training settings.
    seeds : int, default 3
        Runs on the whole (swapped) corpus per rate (``seed-1`` ... with training seeds ``seed + 1`` ...).
    bootstrap : int, default 0
        Runs on bootstrap samples of the documents per rate (the same samples at every rate).
    seed : int, default 0
        The ensembles' seed (the same at every rate).
    workers : int, optional
        Processes training at once (over all rates); by default the CPUs this process may use.
    scheduler : str, optional
        The address of a Dask distributed scheduler to train on (as :func:`~wordbias.models.train.train_ensemble`).
    cache_dir : str or path-like, optional
        The cache root; the runs go to its ``trained/``.
    progress : bool, default True
        Show a progress bar advancing as runs finish.
    command : str, optional
        The command line that asked for the ladder, recorded in ``ladder.json`` and each manifest.

    Returns
    -------
    pathlib.Path
        ``out/ladder.json``.

    Raises
    ------
    wordbias.core.errors.CorpusError
        If the corpus cannot be read or is too small for the settings at some rate.
    wordbias.core.errors.FolderNotOursError
        If ``out`` is not empty and not an earlier ladder's (or holds anything else, at any depth).
    wordbias.core.errors.InvalidParameterError
        If a parameter has the wrong type or value (a corpus spec that has a swap already; bad rates or pairs).
    wordbias.core.errors.TooCostlyError
        If the ladder's runs are estimated to take more than a week or more memory than this machine has.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> base = pathlib.Path(tempfile.mkdtemp())
    >>> path = train_ladder("inaugural", base / "ladder", [0, 1], settings=TrainingSettings(vector_size=10, epochs=1),
    ...                     seeds=1, workers=1, progress=False, cache_dir=base / "cache")
    >>> ladder = load_ladder(path)
    >>> ladder.rates, [e.label for e in ladder.ensembles]
    ((0.0, 1.0), ['rate-0', 'rate-1'])
    """
    ladder = ladder if isinstance(ladder, LadderSpec) else LadderSpec() if ladder is None else LadderSpec(ladder)
    seeds, bootstrap, seed = _train._check_plan(settings, seeds, bootstrap, seed, workers=workers,
                                                 scheduler=scheduler, command=command)
    spec, loaded = _train._spec_of(corpus)
    if spec.swap is not None:
        raise InvalidParameterError("the ladder's corpus must be unswapped (its CorpusSpec has swap="
                                    f"{spec.swap!r:.60}): the ladder sets the swap at each rate")
    cost = dict(seeds=seeds * len(ladder.rates), bootstrap=bootstrap * len(ladder.rates), workers=workers,
                scheduler=scheduler, max_seconds=_train.MAX_SECONDS)
    if loaded is None:
        _train._check_training_cost(spec, None, settings, **cost)    # from the corpus's size, before it is read
        loaded = load_corpus(spec)
    corpora = [load_corpus(dataclasses.replace(spec, swap=ladder.swap(rate))) for rate in ladder.rates]
    for rung in corpora:
        check_trainable(rung, min_count=settings.min_count, window=settings.window, bootstrap=bootstrap)
    _train._check_training_cost(spec, loaded, settings, **cost)      # from its counts, before any training
    folder = _check_ladder_out(out)
    seconds, used, elapsed = _train_rungs(corpora, ladder, settings, _train._plan(seed, seeds, bootstrap),
                                          workers=workers, scheduler=scheduler, cache_dir=cache_dir, progress=progress)
    with atomic_folder(folder, kind="output", manifest=True, check=_check_ladder_replaceable) as tmp:
        entries = []
        for rate, rung in zip(ladder.rates, corpora):
            name = f"rate-{rate_label(rate)}"
            manifest = _train.train_ensemble(rung, tmp / name, settings=settings, seeds=seeds, bootstrap=bootstrap,
                                             seed=seed, workers=1, cache_dir=cache_dir, progress=False,
                                             command=command)
            swapped = rung.tokenisation.get("swap", {})
            entries.append({"rate": rate, "path": f"{name}/manifest.json", "manifest_sha256": file_sha256(manifest),
                            "n_sentences_swapped": swapped.get("n_sentences_swapped", 0),
                            "n_sentences_changed": swapped.get("n_sentences_changed", 0)})
        record = _ladder_record(loaded, ladder, entries,
                                dict(settings=settings.as_dict(), seed=seed, seeds=seeds, bootstrap=bootstrap,
                                     command=command))
        (tmp / LADDER_FILE).write_text(_train._json_text(record), encoding="utf-8")
        timings = {"runs": seconds, "trained": sum(v is not None for v in seconds.values()), "workers": used,
                   "scheduler": scheduler, "wall_seconds": round(elapsed, 3)}
        (tmp / "timings.json").write_text(_train._json_text(timings), encoding="utf-8")
    return folder / LADDER_FILE


def _train_rungs(corpora: list[Corpus], ladder: LadderSpec, settings: TrainingSettings, runs: list, *,
                 workers, scheduler, cache_dir, progress) -> tuple[dict, int, float]:
    """Train, as one batch of jobs, every run of every rate not in the cache, into the cache. Returns (``"rate-<p>/
    <run id>"`` -> seconds of training, None for a run found in the cache; workers used; wall seconds)."""
    import gensim

    settings_dict = settings.as_dict()
    root = _train._trained_root(cache_dir)
    keys, seconds, jobs = {}, {}, []
    for rate, rung in zip(ladder.rates, corpora):
        for run in runs:
            job_id = f"rate-{rate_label(rate)}/{run.id}"
            keys[job_id] = _train._run_key(rung, settings_dict, run)
            seconds[job_id] = None
            if _train._cached(root / keys[job_id], keys[job_id]) is None:
                jobs.append((rung.spec, settings_dict, run.kind, run.training_seed, run.sample_seed, rung.sha256,
                             job_id, gensim.__version__))

    def keep(job_id: str, words: list[str], vectors: np.ndarray, took: float) -> None:
        save(to_keyed_vectors(words, vectors), root / keys[job_id], name=_train._cache_name(keys[job_id]))
        seconds[job_id] = round(took, 3)

    started = time.perf_counter()
    used = _train._run_training_jobs(jobs, workers=workers, scheduler=scheduler, progress=progress, on_result=keep)
    return seconds, used, time.perf_counter() - started


def _ladder_record(original: Corpus, ladder: LadderSpec, entries: list[dict], plan: dict) -> dict:
    """``ladder.json``'s content (the pairs as applied: in the corpus's case, as its spec puts them)."""
    pairs = dataclasses.replace(original.spec, swap=ladder.swap(1.0)).swap.pairs
    n_sentences = sum(len(d) for d in original.documents)
    return {
        "wordbias_ladder_version": LADDER_VERSION,
        "corpus": {"source": original.spec.source, "sha256": original.sha256, "n_documents": len(original.documents),
                   "n_sentences": n_sentences, "n_tokens": original.n_tokens},
        "pairs": {"source": ladder.pairs_source, "sha256": pairs_sha256(pairs), "n_pairs": len(pairs),
                  "pairs": [list(p) for p in pairs]},
        "swap_seed": ladder.swap_seed, "rates": list(ladder.rates), "ensembles": entries,
        **plan, "software": _train._software(),
    }


# ------------------------------------------------------------------------------------------------ the folder

def _check_ladder_out(out) -> Path:
    """``out`` resolved, if it may receive a ladder: absent, empty, or an earlier ladder of ours holding nothing
    else, at every depth (:func:`wordbias.core.ownership.check_tree_ours`); refused otherwise, before any work."""
    folder = check_output_dir(out, what="out")
    if _train._nothing_to_lose(folder):
        return folder
    if owner(folder) != "output" or not _train._is_manifest(folder / LADDER_FILE, "wordbias_ladder_version"):
        raise FolderNotOursError(f"refusing to write the ladder into {folder}: it is not empty and holds no ladder "
                                 f"of train_ladder (no {LADDER_FILE} of ours); choose a new folder, or move this one "
                                 "away yourself")
    _check_ladder_replaceable(folder)
    return folder


def _check_ladder_replaceable(folder: Path) -> None:
    check_tree_ours(folder, action="replace the ladder in")


# ------------------------------------------------------------------------------------------------ loading

def load_ladder(path) -> Ladder:
    """Open a ladder written by :func:`train_ladder` (``wordbias train --swap-rate``).

    Parameters
    ----------
    path : str or path-like
        The ladder's folder, or its ``ladder.json``.

    Returns
    -------
    Ladder
        The rates, one :class:`~wordbias.embeddings.ensemble.Ensemble` per rate (each checked against its
        manifest: :func:`wordbias.embeddings.ensemble.read_manifest`), the pairs and the swap's seed.

    Raises
    ------
    wordbias.core.errors.EnsembleError
        If ``ladder.json`` is missing, unreadable or of another version, an entry's path leads outside the folder,
        a rate's manifest has another SHA-256 than ``ladder.json`` records, or a run is missing or changed.
    """
    path = Path(path).expanduser()
    file = path / LADDER_FILE if path.is_dir() else path
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EnsembleError(f"{file}: no such file (is {file.parent} a ladder written by train_ladder, `wordbias "
                            "train --swap-rate`?)") from None
    except (OSError, ValueError) as exc:
        raise EnsembleError(f"{file}: cannot be read as JSON ({exc})") from exc
    if not isinstance(data, dict) or data.get("wordbias_ladder_version") != LADDER_VERSION:
        found = data.get("wordbias_ladder_version") if isinstance(data, dict) else None
        raise EnsembleError(f"{file}: not a ladder of version {LADDER_VERSION} (wordbias_ladder_version {found!r})")
    base = file.parent.resolve()
    ensembles = []
    for entry in data.get("ensembles") or []:
        manifest = (base / str(entry.get("path"))).resolve()
        if base not in manifest.parents:
            raise EnsembleError(f"{file}: rate {entry.get('rate')!r} has path {entry.get('path')!r}, outside the "
                                "ladder's folder")
        if not manifest.is_file() or file_sha256(manifest) != entry.get("manifest_sha256"):
            raise EnsembleError(f"{file}: rate {entry.get('rate')!r}: {manifest} is missing or has another SHA-256 "
                                f"than {LADDER_FILE} records (changed since it was written); train the ladder again")
        ensembles.append(load_ensemble(manifest))
    rates = tuple(float(e["rate"]) for e in data.get("ensembles") or [])
    if not ensembles or rates != tuple(data.get("rates", ())):
        raise EnsembleError(f"{file}: its ensembles ({len(ensembles)}) do not match its rates {data.get('rates')!r}")
    pairs = tuple(tuple(p) for p in data["pairs"]["pairs"])
    return Ladder(rates=rates, ensembles=tuple(ensembles), pairs=pairs, swap_seed=int(data["swap_seed"]),
                  manifest=data, path=file)

