"""An ensemble: several embeddings of one corpus and method, measured together (training runs with different
seeds, or runs on bootstrap samples of the corpus's documents; Antoniak & Mimno 2018, TACL 6:107-119,
https://doi.org/10.1162/tacl_a_00008).

:func:`load_ensemble` opens the ``manifest.json`` that :func:`wordbias.models.train.train_ensemble` (``wordbias
train``) writes, or the folder holding it, or takes several embeddings a user already has (paths, registered
names, ``KeyedVectors``), and returns an :class:`Ensemble`: the runs' labels and kinds and a loader per run.
A run is loaded when it is measured, memory-mapped, so an ensemble of many runs needs the memory of one.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError

__all__ = ["MANIFEST", "Ensemble", "is_ensemble", "load_ensemble"]

#: the file name of an ensemble's manifest
MANIFEST = "manifest.json"
_VERSION = 1


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


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _from_manifest(path: Path, label: str | None, verify: bool) -> Ensemble:
    manifest_path = path / MANIFEST if path.is_dir() else path
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise EmbeddingFormatError(f"{manifest_path}: not a readable ensemble manifest ({err})") from None
    if not isinstance(manifest, dict) or manifest.get("wordbias_ensemble_version") != _VERSION:
        raise EmbeddingFormatError(f"{manifest_path}: not a wordbias ensemble manifest (version "
                                   f"{_VERSION}); write one with `wordbias train`")
    runs = manifest.get("runs")
    if not isinstance(runs, list) or not runs:
        raise EmbeddingFormatError(f"{manifest_path}: the manifest lists no runs")
    folder = manifest_path.parent
    sources = []
    for run in runs:
        run_dir = folder / run["path"]
        vectors = run_dir / "vectors.npy"
        if not vectors.is_file():
            raise EmbeddingFormatError(f"{manifest_path}: run {run['id']!r} is missing ({run_dir} has no "
                                       "vectors.npy); train it again with the same command")
        if verify and run.get("vectors_sha256") and _sha256(vectors) != run["vectors_sha256"]:
            raise EmbeddingFormatError(f"{manifest_path}: run {run['id']!r} does not match its checksum (the file "
                                       f"{vectors} changed or is damaged); train it again with the same command")
        sources.append(str(run_dir))
    return Ensemble(label=label or folder.name, runs=tuple(r["id"] for r in runs),
                    kinds=tuple(r.get("kind", "seed") for r in runs), sources=tuple(sources), manifest=manifest,
                    path=manifest_path)


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
    wordbias.core.errors.EmbeddingFormatError
        When the manifest cannot be read, lists no runs, or a run is missing or does not match its checksum.
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
