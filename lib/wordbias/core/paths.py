"""Where the project's data, results, figures, runs and caches live.

Two ways to have the package:

* **a checkout of the repository** (``pip install -e .``, what ``make`` does): the root is three levels above this
  file (``lib/wordbias/core/paths.py``); the data are the repository's ``data/``, tables and figures of the
  committed runs go to ``results/`` and ``figures/``, other runs to ``runs/``;
* **an installed wheel** (``pip install wordbias``): the data ship inside the package (``wordbias/data``, read
  through :mod:`importlib.resources`), and so do the paper notebooks' committed tables (``wordbias/results``, the
  repository's ``results/``: :data:`COMMITTED_RESULTS`, which the lessons read, and which nothing writes); the
  root, under which ``results/``, ``figures/`` and ``runs/`` are made, is the current folder.

``WORDBIAS_ROOT`` overrides the root (``WORDBIAS_DATA`` the data folder, ``WORDBIAS_RUNS`` the runs folder,
``WORDBIAS_EMBEDDINGS`` the folder of full embedding files, ``WORDBIAS_CACHE`` the caches).
"""

from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path

from wordbias.core.errors import InvalidParameterError

_CHECKOUT = Path(__file__).resolve().parents[3]
#: whether the package runs from a checkout of the repository (editable install) rather than an installed wheel
IN_CHECKOUT = (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "lib" / "wordbias").is_dir()


def _data_dir() -> Path:
    """The data folder: ``WORDBIAS_DATA``; else the package's own ``wordbias/data`` when it holds the data (an
    installed wheel), else the checkout's ``data/``."""
    env = os.environ.get("WORDBIAS_DATA")
    if env:
        return Path(env)
    packaged = Path(str(resources.files("wordbias").joinpath("data")))
    if (packaged / "stimuli").is_dir():
        return packaged
    return (Path(os.environ["WORDBIAS_ROOT"]) if "WORDBIAS_ROOT" in os.environ else _CHECKOUT) / "data"


def _results_dir(root: Path) -> Path:
    """The committed results: ``<root>/results`` in a checkout or with ``WORDBIAS_ROOT``; else (an installed wheel)
    the package's own copy ``wordbias/results`` when it holds one, else ``<root>/results``."""
    if IN_CHECKOUT or os.environ.get("WORDBIAS_ROOT"):
        return root / "results"
    packaged = Path(str(resources.files("wordbias").joinpath("results")))
    return packaged if packaged.is_dir() else root / "results"


ROOT = Path(os.environ.get("WORDBIAS_ROOT") or (_CHECKOUT if IN_CHECKOUT else Path.cwd()))
DATA = _data_dir()
STIMULI = DATA / "stimuli"
#: where the paper notebooks write the tables of their committed default runs (``<root>/results``)
RESULTS = ROOT / "results"
#: where the committed tables are read from (the lessons, the papers' comparisons): :data:`RESULTS` in a checkout;
#: an installed wheel reads its packaged copy and never writes into it (:func:`_results_dir`)
COMMITTED_RESULTS = _results_dir(ROOT)
FIGURES = ROOT / "figures"
#: runs on embeddings other than a notebook's committed defaults (``WORDBIAS_RUNS`` moves it; git ignores it)
RUNS = Path(os.environ.get("WORDBIAS_RUNS", ROOT / "runs"))


def cache_dir() -> Path:
    """Return the root of wordbias's caches (converted embeddings, GAP features, trained models).

    The environment is read at each call: ``WORDBIAS_CACHE`` if set, else the platform's per-user cache folder
    (``platformdirs.user_cache_dir``: ``$XDG_CACHE_HOME/wordbias`` or ``~/.cache/wordbias`` on Linux,
    ``~/Library/Caches/wordbias`` on macOS, ``%LOCALAPPDATA%\\wordbias\\Cache`` on Windows). The Makefile sets
    ``WORDBIAS_CACHE`` to the repository's ``.cache/`` so that ``make`` keeps its caches with the checkout.
    ``wordbias cache list`` / ``clear`` (or :func:`wordbias.embeddings.cache_folders.list_caches`) show and
    remove them.

    Returns
    -------
    pathlib.Path
        The cache root (``~`` expanded); it may not exist yet.

    Raises
    ------
    InvalidParameterError
        When ``WORDBIAS_CACHE`` is white space only or holds a NUL character (it would name a folder of
        spaces in the current folder).

    Examples
    --------
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"WORDBIAS_CACHE": "~/my-cache"}):   # the environment restored after
    ...     cache_dir() == Path("~/my-cache").expanduser()
    True
    """
    env = os.environ.get("WORDBIAS_CACHE")
    if env:               # set and not empty (an empty variable is an unset one); blank or NUL: an error
        if not env.strip() or "\0" in env:
            raise InvalidParameterError(f"the environment variable WORDBIAS_CACHE is {env!r}: it names no folder "
                                        "(it would be a folder of that name in the current folder); set it to "
                                        "a folder, or unset it for the per-user cache folder")
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("wordbias", appauthor=False))


#: the cache root when the package was imported (:func:`cache_dir` reads the environment at each call)
def _cache_at_import() -> Path:
    try:
        return cache_dir()
    except InvalidParameterError:      # a blank WORDBIAS_CACHE: refused where the cache is used, not at import
        import platformdirs

        return Path(platformdirs.user_cache_dir("wordbias", appauthor=False))


CACHE = _cache_at_import()

#: environment variables that choose the CPU code paths of numpy, OpenBLAS, torch, oneDNN, MKL and numba
#: (the Makefile's KERNELS setting); results that depend on float rounding are cached per setting
KERNEL_VARIABLES = ("WORDBIAS_KERNELS", "OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "ATEN_CPU_CAPABILITY",
                    "ONEDNN_MAX_CPU_ISA", "MKL_CBWR", "NUMBA_CPU_NAME", "OPENBLAS_NUM_THREADS")


def embeddings_dir() -> Path:
    """Return the folder holding user-supplied full embeddings.

    Returns
    -------
    pathlib.Path
        ``WORDBIAS_EMBEDDINGS``, else the checkout's ``data/embeddings`` (or ``<root>/data/embeddings`` with
        ``WORDBIAS_ROOT``), else, for an installed wheel, the platform's per-user data folder
        (``platformdirs.user_data_dir``, e.g. ``~/.local/share/wordbias/embeddings``).

    Examples
    --------
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"WORDBIAS_EMBEDDINGS": "/data/vectors"}):
    ...     embeddings_dir()
    PosixPath('/data/vectors')
    """
    env = os.environ.get("WORDBIAS_EMBEDDINGS")
    if env:
        return Path(env)
    if IN_CHECKOUT or "WORDBIAS_ROOT" in os.environ:
        return ROOT / "data" / "embeddings"
    import platformdirs

    return Path(platformdirs.user_data_dir("wordbias", appauthor=False)) / "embeddings"


# --------------------------------------------------------------------------------------------------
# folders and files the user chooses for outputs: one check, used by the command and the functions that write
# --------------------------------------------------------------------------------------------------

def _package_dir() -> Path:
    """The installed ``wordbias`` package folder (``lib/wordbias`` in a checkout)."""
    return Path(__file__).resolve().parents[1]


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError):        # a symlink loop; resolve() is not strict otherwise
        return None


def _inside(path: Path, folder: Path | None) -> bool:
    return folder is not None and (path == folder or folder in path.parents)


def _kept_folders() -> list[tuple[Path | None, str]]:
    """Folders nothing may be written into, anywhere below: the package, the data (and a checkout's .git)."""
    data = [(_resolved(Path(DATA)), "wordbias's data folder, which holds the word lists and embeddings")]
    if IN_CHECKOUT:
        data.append((_resolved(_CHECKOUT / "data"), "the checkout's data/ folder, which holds the word lists and "
                                                     "embeddings"))
        data.append((_resolved(_CHECKOUT / ".git"), "the checkout's git folder"))
    return [(_resolved(_package_dir()), "the installed wordbias package")] + data


def _committed_folders() -> list[tuple[Path | None, str]]:
    """The repository's results/ and figures/: the committed runs' outputs (written by ``make`` only)."""
    return [(_resolved(Path(RESULTS)), "the repository's results/ folder, which holds the committed results"),
            (_resolved(Path(FIGURES)), "the repository's figures/ folder, which holds the committed results")]


def _shared_roots() -> list[tuple[Path | None, str]]:
    """Folders that are fine to write under but not into directly: the checkout's root, home, ``/``."""
    roots = []
    if IN_CHECKOUT:
        roots.append((_resolved(_CHECKOUT), "the root of the wordbias checkout"))
    if os.environ.get("WORDBIAS_ROOT"):
        roots.append((_resolved(Path(ROOT)), "wordbias's root folder (WORDBIAS_ROOT)"))
    try:
        roots.append((_resolved(Path.home()), "your home folder"))
    except (RuntimeError, KeyError):      # no home folder known
        pass
    return roots


def _as_path(path, what: str) -> Path:
    """``path`` (a non-empty ``str`` or ``os.PathLike``) as a ``Path`` with ``~`` expanded."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise InvalidParameterError(f"{what} must be a path (a str or os.PathLike), not {type(path).__name__} "
                                    f"{path!r:.60}")
    text = os.fspath(path)
    if not str(text).strip():
        raise InvalidParameterError(f"{what} is empty ({text!r}): give the folder to write the outputs to, "
                                    "e.g. out/run1 (it is created if needed)")
    if "\0" in str(text):
        raise InvalidParameterError(f"{what} {text!r} holds a NUL character: give a valid path")
    return Path(text).expanduser()


def given_path(path, what: str) -> Path:
    """``path`` as a :class:`~pathlib.Path` (``~`` expanded), refusing a value that names no file: one that is
    not a str or path-like, is empty or white space only, or holds a NUL character. An empty path would
    otherwise mean the current folder (``Path("")`` is ``.``): an unset shell variable (``--cache-dir "$CACHE"``)
    would put a cache, or read a file, there. Every path option of the command checks its value with it
    (:mod:`wordbias.cli.parser`), and so does every library function taking a cache folder.

    Parameters
    ----------
    path : str or os.PathLike
        The path given.
    what : str
        Its name in the message (``"--cache-dir"``, ``"cache_dir"``).

    Returns
    -------
    pathlib.Path
        The path, ``~`` expanded (not resolved: nothing on disk is looked at).

    Raises
    ------
    InvalidParameterError
        When the path is of the wrong type, empty, blank or holds a NUL character.

    Examples
    --------
    >>> given_path("~/caches", "cache_dir") == Path.home() / "caches"
    True
    >>> given_path("  ", "cache_dir")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: cache_dir is empty ('  '): give a path (an unset shell variable gives an empty one)
    """
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise InvalidParameterError(f"{what} must be a path (a str or os.PathLike), not {type(path).__name__} "
                                    f"{path!r:.60}")
    text = str(os.fspath(path))
    if not text.strip():
        raise InvalidParameterError(f"{what} is empty ({text!r}): give a path (an unset shell variable gives an "
                                    "empty one)")
    if "\0" in text:
        raise InvalidParameterError(f"{what} {text!r} holds a NUL character: give a valid path")
    return Path(text).expanduser()


def _refusal(resolved: Path, *, committed: bool, roots: bool) -> str | None:
    """Why ``resolved`` may not receive outputs, or ``None``."""
    for folder, why in _kept_folders() + (_committed_folders() if committed else []):
        if _inside(resolved, folder):
            where = "is" if resolved == folder else "is inside"
            return f"{where} {folder}, {why}"
    anchor = Path(resolved.anchor) if resolved.anchor else None
    shared = (_shared_roots() + [(anchor, "the file system's root")]) if roots else []
    for folder, why in shared:
        if folder is not None and resolved == folder:
            return f"is {folder}, {why}: the outputs would be mixed with what is there"
    for parent in (resolved, *resolved.parents):   # a file where a folder is needed
        if parent.exists():
            if not parent.is_dir():
                return (f"exists and is not a folder ({parent} is a file)" if parent == resolved
                        else f"cannot be a folder: {parent} is a file")
            break
    return None


def check_output_dir(path, *, what: str = "--out", create: bool = False, files=None) -> Path:
    """Check a folder the user chose for outputs and return it resolved (absolute, symlinks followed).

    ``create=True`` also creates it (and its parents). Refused, naming ``what``, the path, the reason and what
    to do: an empty path; the checkout's root, the home folder or ``/`` themselves (``.``, ``~``, ``..`` where
    they lead there); anything inside the installed package (``wordbias.__file__``'s folder), inside the data
    folder (:data:`DATA`, and the checkout's ``data/``) or inside the repository's ``results/`` and
    ``figures/`` (:data:`RESULTS`, :data:`FIGURES`, which only ``make`` writes); an existing file, or a path
    under a file. Writing into an existing folder that holds other files is allowed: callers write their own
    named files there and delete nothing.

    The rules apply to the real folder: a path that is itself a symbolic link is followed only to a folder
    wordbias created (its marker, :mod:`wordbias.core.ownership`) or an empty one; a link to a folder of the
    user's files is refused (:class:`~wordbias.core.errors.FolderNotOursError`, naming the link and where it
    leads). With ``files`` (the names the caller will write there), each of those already in the folder must be
    a file wordbias wrote and the user has not changed since (:func:`wordbias.core.ownership.check_files_ours`:
    listed with its SHA-256 in the run manifest; a user's file of that name, an edited one or a symbolic link is
    refused with :class:`~wordbias.core.errors.FolderNotOursError` naming it), all before any work.

    Parameters
    ----------
    path : str or os.PathLike
        The folder (``~`` is expanded; a relative path is taken from the current folder).
    what : str, default "--out"
        How the caller names it in messages: ``"--out"`` for the command, ``"output"`` for a function's
        parameter.
    create : bool, default False
        Create the folder (and its parents) after the checks; a folder wordbias creates carries its marker
        (:mod:`wordbias.core.ownership`).
    files : iterable of str, optional
        The names of the files the caller will write into the folder (checked as above).

    Returns
    -------
    pathlib.Path
        The folder, resolved.

    Raises
    ------
    InvalidParameterError
        When the folder is refused (see above), cannot be resolved, or (with ``create``) cannot be created or
        is not writable.
    FolderNotOursError
        When the path is a symbolic link to a folder of the user's files, or one of ``files`` in the folder is
        not a file wordbias wrote as it wrote it; nothing is created or changed.
    DiskFullError
        When the disk is full while creating the folder.

    Examples
    --------
    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> check_output_dir(base / "run1", create=True) == (base / "run1").resolve(), (base / "run1").is_dir()
    (True, True)
    >>> check_output_dir("")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: --out is empty (''): give the folder to write the outputs to, e.g. out/run1 (it is created if needed)
    >>> try:
    ...     check_output_dir(RESULTS / "mine", what="output")
    ... except InvalidParameterError as err:
    ...     print("holds the committed results; choose a folder of its own" in str(err))
    True
    """
    given = _as_path(path, what)
    resolved = _resolved(given)
    if resolved is None:
        raise InvalidParameterError(f"{what} {os.fspath(path)!r} cannot be resolved (a symbolic link loop?): give "
                                    "another folder")
    why = _refusal(resolved, committed=True, roots=True)
    if why is not None:
        raise InvalidParameterError(f"{what} {os.fspath(path)!r}: it {why}; choose a folder of its own for the "
                                    "outputs, e.g. out/run1 under the current folder or a new folder elsewhere "
                                    "(it is created)")
    _check_link(given, resolved, what)
    if files is not None:
        from wordbias.core.ownership import check_files_ours

        check_files_ours(resolved, list(files))
    if create:
        _make_dir(resolved, what, path)
    return resolved


def _check_link(given: Path, resolved: Path, what: str) -> None:
    """Refuse an output folder given as a symbolic link to a folder of the user's files (not empty, no marker)."""
    if not given.is_symlink():
        return
    from wordbias.core.errors import FolderNotOursError
    from wordbias.core.ownership import MARKER, owner

    try:
        entries = [p.name for p in resolved.iterdir() if p.name != MARKER] if resolved.is_dir() else []
    except OSError:
        entries = ["?"]
    if entries and owner(resolved) is None:
        raise FolderNotOursError(f"{what} {os.fspath(given)!r} is a symbolic link to {resolved}, a folder of files "
                                 "wordbias did not create; wordbias never writes through a link into such a folder. "
                                 "Give the real folder if you mean it, or choose a new folder for the outputs")


def _make_dir(resolved: Path, what: str, given) -> None:
    from wordbias.core.io_errors import reraise_disk_full

    new = not os.path.lexists(resolved)
    try:
        with reraise_disk_full(resolved, f"the {what} folder"):
            resolved.mkdir(parents=True, exist_ok=True)
            if new:  # a folder wordbias created carries its marker (wordbias.core.ownership)
                from wordbias.core.ownership import mark

                mark(resolved, "output")
    except OSError as exc:
        from wordbias.core.errors import DiskFullError

        if isinstance(exc, DiskFullError):
            raise
        raise InvalidParameterError(f"{what} {os.fspath(given)!r}: cannot create the folder {resolved} "
                                    f"({exc.strerror or exc}); choose a folder you can write to") from exc
    if not os.access(resolved, os.W_OK | os.X_OK):
        raise InvalidParameterError(f"{what} {os.fspath(given)!r}: the folder {resolved} is not writable "
                                    "(permission denied); choose a folder you can write to")


def check_output_file(path, *, what: str = "path") -> Path:
    """Check a file path the user chose for an output (a table, a page) and return it resolved.

    The rule of :func:`check_output_dir` for the file's folder, except that the repository's ``results/`` and
    ``figures/`` are allowed (the notebooks write their committed tables through the same functions) and so
    are the checkout's root and the home folder; refused: an empty path, an existing folder, a path under a
    file, anything inside the installed package or the data folder.

    Parameters
    ----------
    path : str or os.PathLike
        The file (``~`` is expanded; a relative path is taken from the current folder).
    what : str, default "path"
        How the caller names it in messages.

    Returns
    -------
    pathlib.Path
        The file's path, resolved (the file itself need not exist).

    Raises
    ------
    InvalidParameterError
        When the path is refused (see above) or cannot be resolved.

    Examples
    --------
    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> check_output_file(base / "tidy.csv") == (base / "tidy.csv").resolve()
    True
    >>> try:
    ...     check_output_file(base)
    ... except InvalidParameterError as err:
    ...     print(str(err).split(": ")[1][:50])
    it is a folder; give the path of the file to write
    """
    given = _as_path(path, what)
    resolved = _resolved(given)
    if resolved is None:
        raise InvalidParameterError(f"{what} {os.fspath(path)!r} cannot be resolved (a symbolic link loop?)")
    if resolved.is_dir():
        raise InvalidParameterError(f"{what} {os.fspath(path)!r}: it is a folder; give the path of the file to "
                                    f"write (e.g. {os.fspath(path)} / tidy.csv)")
    why = _refusal(resolved.parent, committed=False, roots=False)
    if why is not None:
        raise InvalidParameterError(f"{what} {os.fspath(path)!r}: its folder {why}; write the file elsewhere")
    return resolved


def compute_fingerprint() -> dict:
    """Return what decides the float rounding of a computation besides its inputs (for cache keys).

    Returns
    -------
    dict
        ``{"machine": ..., "versions": {...}, "kernels": {...}}``: the machine architecture, the versions of
        numpy, scipy, torch, transformers and scikit-learn (None for one not installed), and the kernel
        variables (:data:`KERNEL_VARIABLES`, None where unset).

    Examples
    --------
    >>> fp = compute_fingerprint()
    >>> sorted(fp), sorted(fp["versions"])
    (['kernels', 'machine', 'versions'], ['numpy', 'scikit-learn', 'scipy', 'torch', 'transformers'])
    """
    import platform
    from importlib import metadata

    versions = {}
    for pkg in ("numpy", "scipy", "torch", "transformers", "scikit-learn"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    return {"machine": platform.machine(), "versions": versions,
            "kernels": {k: os.environ.get(k) for k in KERNEL_VARIABLES}}


@functools.cache
def source_digest() -> str:
    """Return the SHA-256 of the package's Python sources (for the keys of caches whose result depends on many modules).

    Every ``.py`` file under the installed ``wordbias`` package, in sorted order of its path relative to the
    package, contributes its path and its bytes; computed once per process (about 2.5 MB: a few milliseconds).

    Returns
    -------
    str
        64 hexadecimal digits.

    Examples
    --------
    >>> len(source_digest()), source_digest() == source_digest()
    (64, True)
    """
    import hashlib

    package = _package_dir()
    h = hashlib.sha256()
    for source in sorted(package.rglob("*.py"), key=lambda p: p.relative_to(package).as_posix()):
        h.update(source.relative_to(package).as_posix().encode("utf-8") + b"\0")
        h.update(source.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def data_digest(*folders: str) -> str:
    """Return the SHA-256 of the data files under the given folders of the data folder (:data:`DATA`).

    Parameters
    ----------
    *folders : str
        Folder names under :data:`DATA` (e.g. ``"stimuli"``); one that does not exist contributes its name only.

    Returns
    -------
    str
        64 hexadecimal digits over each file's path relative to :data:`DATA` and its bytes, in sorted order.

    Examples
    --------
    >>> data_digest("stimuli") == data_digest("stimuli"), data_digest("stimuli") == data_digest("utility")
    (True, False)
    """
    import hashlib

    h = hashlib.sha256()
    for folder in folders:
        root = DATA / folder
        h.update(folder.encode("utf-8") + b"\0")
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else []
        for f in files:
            h.update(f.relative_to(DATA).as_posix().encode("utf-8") + b"\0")
            h.update(f.read_bytes())
            h.update(b"\0")
    return h.hexdigest()
