"""An ensemble: several embeddings of one corpus and method, measured together (training runs with different
seeds, or runs on bootstrap samples of the corpus's documents; Antoniak & Mimno 2018, TACL 6:107-119,
https://doi.org/10.1162/tacl_a_00008).

:func:`load_ensemble` opens the ``manifest.json`` that :func:`wordbias.models.train.train_ensemble` (``wordbias
train``) writes, or the folder holding it, or takes several embeddings a user already has (paths, registered
names, ``KeyedVectors``), and returns an :class:`Ensemble`: the runs' labels and kinds and a loader per run.
A run is loaded when it is measured, memory-mapped, so an ensemble of many runs needs the memory of one.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wordbias.core.errors import EmbeddingFormatError, EnsembleError, InvalidParameterError
from wordbias.core.ownership import file_sha256

__all__ = ["MANIFEST", "ENSEMBLE_VERSION", "Ensemble", "is_ensemble", "read_manifest", "load_ensemble"]

#: the file name of an ensemble's manifest
MANIFEST = "manifest.json"
#: the version of the manifest's format (``wordbias_ensemble_version``)
ENSEMBLE_VERSION = 1
#: the vectors of a run (a cache folder's)
_VECTORS = "vectors.npy"


@dataclass(frozen=True)
class Ensemble:
    """Embeddings measured together: the runs of one training set-up.

    Attributes
    ----------
    label : str
        The ensemble's name in tables (by default its folder's name).
    runs : tuple of str
        Each run's label (``"seed-1"``, ``"bootstrap-3"``, or a user's label).
    kinds : tuple of str
        Each run's kind: ``"seed"`` (another training seed), ``"bootstrap"`` (a bootstrap sample of the
        documents) or ``"given"`` (an embedding given by the user).
    sources : tuple
        What each run is loaded from: a path, a registered name or an embedding in memory.
    manifest : mapping or None
        The manifest (corpus, settings, software, seeds), None for embeddings given by the user.
    path : pathlib.Path or None
        The manifest's path, None for embeddings given by the user.
    """

    label: str
    runs: tuple[str, ...]
    kinds: tuple[str, ...]
    sources: tuple = field(repr=False)
    manifest: Mapping | None = field(default=None, repr=False)
    path: Path | None = None

    def __len__(self) -> int:
        return len(self.runs)

    def load(self, i: int, **options):
        """Run ``i`` as float32 ``KeyedVectors`` (memory-mapped from its cache folder).

        Parameters
        ----------
        i : int
            The run's position in :attr:`runs`.
        **options
            Passed to :func:`wordbias.embeddings.load` (``progress``, ``cache_dir``...).

        Returns
        -------
        KeyedVectors
            The run's vectors.
        """
        from wordbias.embeddings import load

        options.setdefault("progress", False)
        return load(self.sources[i], **options)

    def __iter__(self) -> Iterator[tuple[str, object]]:
        for i, run in enumerate(self.runs):
            yield run, self.load(i)

    def subset(self, kind: str) -> Ensemble:
        """The runs of one kind (``"seed"`` or ``"bootstrap"``), as an ensemble labelled ``"<label> (<kind>)"``.

        Parameters
        ----------
        kind : str
            One of the kinds in :attr:`kinds`.

        Returns
        -------
        Ensemble
            The runs of that kind, in order.

        Raises
        ------
        InvalidParameterError
            When no run is of that kind.
        """
        keep = [i for i, k in enumerate(self.kinds) if k == kind]
        if not keep:
            raise InvalidParameterError(f"the ensemble {self.label!r} has no {kind!r} runs (its kinds: "
                                        f"{sorted(set(self.kinds))})")
        return Ensemble(label=f"{self.label} ({kind})", runs=tuple(self.runs[i] for i in keep),
                        kinds=tuple(self.kinds[i] for i in keep), sources=tuple(self.sources[i] for i in keep),
                        manifest=self.manifest, path=self.path)


def is_ensemble(path) -> bool:
    """Whether ``path`` is an ensemble's ``manifest.json`` or a folder holding one.

    Parameters
    ----------
    path : str or path-like
        A path (any other value gives False).

    Returns
    -------
    bool
        True for a manifest or its folder.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> is_ensemble(tempfile.mkdtemp()), is_ensemble("glove-6b-50d")
    (False, False)
    """
    if not isinstance(path, (str, os.PathLike)):
        return False
    p = Path(path)
    return (p.is_file() and p.name == MANIFEST) or (p.is_dir() and (p / MANIFEST).is_file())


def read_manifest(path) -> dict:
    """Read an ensemble's ``manifest.json`` and check it against its runs.

    Parameters
    ----------
    path : str or path-like
        The ensemble folder, or its ``manifest.json``.

    Returns
    -------
    dict
        The manifest (see :func:`train_ensemble`).

    Raises
    ------
    wordbias.core.errors.EnsembleError
        If the manifest is missing or unreadable, of another version, or a run's folder is missing or its
        ``vectors.npy`` has another SHA-256 than the manifest records (the file is named).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from wordbias.models.train import TrainingSettings, train_ensemble
    >>> base = pathlib.Path(tempfile.mkdtemp())
    >>> out = base / "ensemble"
    >>> _ = train_ensemble("inaugural", out, settings=TrainingSettings(vector_size=10, epochs=1), workers=1,
    ...                    progress=False, cache_dir=base / "cache")
    >>> manifest = read_manifest(out)
    >>> manifest["corpus"]["n_documents"], [r["id"] for r in manifest["runs"]]
    (59, ['seed-1'])
    """
    path = Path(path).expanduser()
    file = path / "manifest.json" if path.is_dir() else path
    folder = file.parent
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EnsembleError(f"{file}: no such file (is {folder} an ensemble written by train_ensemble?)") from None
    except (OSError, ValueError) as exc:
        raise EnsembleError(f"{file}: cannot be read as JSON ({exc})") from exc
    if not isinstance(data, dict) or data.get("wordbias_ensemble_version") != ENSEMBLE_VERSION:
        found = data.get("wordbias_ensemble_version") if isinstance(data, dict) else None
        raise EnsembleError(f"{file}: not an ensemble manifest of version {ENSEMBLE_VERSION} "
                            f"(wordbias_ensemble_version {found!r})")
    runs = data.get("runs")
    if not isinstance(runs, list) or not runs:
        raise EnsembleError(f"{file}: lists no runs")
    base = folder.resolve()
    for run in runs:
        if not isinstance(run, dict) or not isinstance(run.get("path"), str) or "vectors_sha256" not in run:
            raise EnsembleError(f"{file}: a run entry without path or vectors_sha256: {run!r:.120}")
        run_folder = (folder / run["path"]).resolve()
        if base not in run_folder.parents:
            raise EnsembleError(f"{file}: run {run.get('id')!r} has path {run['path']!r}, outside the ensemble folder")
        vectors = run_folder / _VECTORS
        if not vectors.is_file():
            raise EnsembleError(f"{file}: run {run.get('id')!r}: {vectors} is missing")
        if file_sha256(vectors) != run["vectors_sha256"]:
            raise EnsembleError(f"{file}: run {run.get('id')!r}: {vectors} has another SHA-256 than the manifest "
                                "records (changed or damaged since it was written); train the ensemble again")
    return data


def _from_manifest(path: Path, label: str | None, verify: bool) -> Ensemble:
    manifest_path = path / MANIFEST if path.is_dir() else path
    if verify:
        manifest = read_manifest(manifest_path)
    else:
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise EnsembleError(f"{manifest_path}: cannot be read as JSON ({exc})") from None
    folder = manifest_path.parent
    runs = manifest["runs"]
    return Ensemble(label=label or folder.name, runs=tuple(r["id"] for r in runs),
                    kinds=tuple(r.get("kind", "seed") for r in runs),
                    sources=tuple(str(folder / r["path"]) for r in runs), manifest=manifest, path=manifest_path)


def load_ensemble(source, *, label: str | None = None, verify: bool = True) -> Ensemble:
    """Open an ensemble: a manifest written by ``wordbias train``, its folder, or several embeddings.

    Parameters
    ----------
    source : str or path-like or sequence or mapping
        ``manifest.json`` or the folder holding it; or a sequence of embeddings (paths, registered names,
        ``KeyedVectors``), each a run labelled by its position (``"run-1"``...) or by its file's label; or a
        mapping of run labels to embeddings.
    label : str, optional
        The ensemble's name in tables (default: the manifest's folder name, else ``"ensemble"``).
    verify : bool, default True
        Check each run's vectors against the checksum in the manifest (a changed or damaged run is an error,
        never measured).

    Returns
    -------
    Ensemble
        The runs, loaded one at a time when measured.

    Raises
    ------
    wordbias.core.errors.EnsembleError
        When the manifest cannot be read, lists no runs, or a run is missing or does not match its checksum
        (:func:`read_manifest`).
    wordbias.core.errors.EmbeddingFormatError
        When ``source`` is a path that holds no manifest.
    wordbias.core.errors.InvalidParameterError
        When fewer than two embeddings are given, or two share a label.

    Examples
    --------
    >>> import numpy as np
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> runs = [to_keyed_vectors(["he", "she"], np.eye(2) + i) for i in range(3)]
    >>> e = load_ensemble(runs, label="toy")
    >>> e.label, e.runs, len(e), e.load(2)["he"].tolist()
    ('toy', ('run-1', 'run-2', 'run-3'), 3, [3.0, 2.0])
    """
    if isinstance(source, (str, os.PathLike)):
        if not is_ensemble(source):
            raise EmbeddingFormatError(f"{source}: not an ensemble (no {MANIFEST}); train one with `wordbias "
                                       "train`, or give several embeddings")
        return _from_manifest(Path(source), label, verify)
    if isinstance(source, Mapping):
        labels, sources = [str(k) for k in source], list(source.values())
    elif isinstance(source, Sequence):
        sources = list(source)
        from wordbias.embeddings import label as file_label

        labels = [file_label(s) if isinstance(s, (str, os.PathLike)) else f"run-{i + 1}"
                  for i, s in enumerate(sources)]
    else:
        raise InvalidParameterError(f"an ensemble is a manifest path or several embeddings, not "
                                    f"{type(source).__name__}")
    if len(sources) < 2:
        raise InvalidParameterError(f"an ensemble needs at least 2 embeddings, not {len(sources)}")
    if len(set(labels)) != len(labels):
        raise InvalidParameterError(f"two runs share a label: {sorted({x for x in labels if labels.count(x) > 1})}")
    return Ensemble(label=label or "ensemble", runs=tuple(labels), kinds=("given",) * len(labels),
                    sources=tuple(sources))
