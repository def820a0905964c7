"""Opening the files gensim saves without running code from them.

gensim saves an object with :meth:`gensim.utils.SaveLoad.save`: a pickle of the object, its large arrays in
``.npy`` files beside it. A pickle names the Python callables that rebuild it, and :func:`pickle.load` calls
them: a crafted ``.kv`` or ``.model`` file can run any code when it is opened (the Python documentation of
:mod:`pickle`: "Never unpickle data that could have come from an untrusted source"). :func:`load_saved` reads
one as gensim's own ``SaveLoad.load`` does (unpickle, then ``_load_specials``), with a restricted unpickler
(:class:`RestrictedUnpickler`, the "Restricting Globals" recipe of the :mod:`pickle` documentation):

- only the globals a ``KeyedVectors``, ``Word2Vec``, ``FastText`` or ``Doc2Vec`` file names are resolved
  (:data:`ALLOWED_GLOBALS`: numpy's array, dtype and scalar reconstruction and random generators, a few
  builtins and containers, and :data:`GENSIM_CLASSES`); anything else (``os.system``, ``builtins.eval``,
  ``subprocess.Popen``, a class of the user's own code...) is refused *before it is imported*, with an
  :class:`~wordbias.core.errors.UnsafeFileError` naming the file and the global;
- gensim's classes can only be created empty and filled with their saved attributes, as pickle does for
  them (``NEWOBJ`` and ``BUILD``): a file that calls one (``Word2Vec(corpus_file=...)``, which would train on
  any file) is refused;
- the arrays gensim stored beside the file are read with ``numpy.load(..., allow_pickle=False)`` (an
  array of Python objects in one is refused), under attribute names that must be plain identifiers (a name
  such as ``../../x`` would read a file elsewhere); a separately stored scipy sparse matrix, which gensim
  would unpickle with the unrestricted :func:`pickle.load`, is refused (no embedding has one).

``trust=True`` (:func:`wordbias.embeddings.load`; ``--trust-pickle`` on the command line) opens a file with
gensim's own loader instead, for a file the user made or trusts that holds other classes (a subclass of their
own, say).
"""

from __future__ import annotations

import _compat_pickle
import bz2
import functools
import gzip
import os
import pickle
import re
from pathlib import Path

from wordbias.core.errors import EmbeddingFormatError, UnsafeFileError

__all__ = ["ALLOWED_GLOBALS", "GENSIM_CLASSES", "RestrictedUnpickler", "load_saved", "trust_hint",
           "missing_module_error", "starts_as_pickle"]

#: gensim's classes a saved embedding or model holds, by module: created empty, then filled (never called)
GENSIM_CLASSES: dict[str, tuple[str, ...]] = {
    "gensim.models.keyedvectors": ("KeyedVectors", "Word2VecKeyedVectors", "Doc2VecKeyedVectors",
                                   "EuclideanKeyedVectors", "FastTextKeyedVectors", "CompatVocab", "Vocab"),
    "gensim.models.word2vec": ("Word2Vec", "Word2VecVocab", "Word2VecTrainables", "Vocab"),
    "gensim.models.fasttext": ("FastText", "FastTextKeyedVectors", "FastTextVocab", "FastTextTrainables"),
    "gensim.models.doc2vec": ("Doc2Vec", "Doc2VecVocab", "Doc2VecTrainables", "Doctag"),
}

_NUMPY_RANDOM = ("numpy.random._mt19937", "numpy.random._pcg64", "numpy.random._philox", "numpy.random._sfc64")

#: the other globals a gensim file may name, each harmless whatever the arguments a pickle calls it with:
#: numpy's reconstruction of arrays, dtypes and scalars (``numpy.core`` is numpy 1's name of ``numpy._core``),
#: numpy's random generators (``Word2Vec.random``), ``defaultdict(int)``, ``hash`` (``Word2Vec.hashfxn``),
#: gensim's ``call_on_class_only`` (a model's ``load`` attribute) and what older pickle protocols use
ALLOWED_GLOBALS: frozenset[tuple[str, str]] = frozenset({
    ("numpy._core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "scalar"),
    ("numpy._core.numeric", "_frombuffer"), ("numpy", "dtype"), ("numpy", "ndarray"),
    *(("numpy", t) for t in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                              "float16", "float32", "float64", "complex64", "complex128")),
    ("numpy.random._pickle", "__randomstate_ctor"), ("numpy.random._pickle", "__generator_ctor"),
    ("numpy.random._pickle", "__bit_generator_ctor"), ("numpy.random", "__RandomState_ctor"),
    ("numpy.random._mt19937", "MT19937"), ("numpy.random._pcg64", "PCG64"), ("numpy.random._pcg64", "PCG64DXSM"),
    ("numpy.random._philox", "Philox"), ("numpy.random._sfc64", "SFC64"),
    ("numpy.random.mtrand", "RandomState"), ("numpy.random._generator", "Generator"),
    ("collections", "defaultdict"), ("collections", "OrderedDict"),
    ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "complex"), ("builtins", "slice"),
    ("builtins", "int"), ("builtins", "float"), ("builtins", "bool"), ("builtins", "str"), ("builtins", "hash"),
    ("builtins", "object"), ("copyreg", "_reconstructor"), ("_codecs", "encode"),
    ("gensim.utils", "call_on_class_only"),
})
#: Python functions of the list, handed out as a fresh wrapper each time, so that a pickle cannot change the
#: function itself (its ``__defaults__``) for the rest of the process
_WRAPPED = frozenset({("numpy._core.numeric", "_frombuffer"), ("numpy.random._pickle", "__randomstate_ctor"),
                      ("numpy.random._pickle", "__generator_ctor"), ("numpy.random._pickle", "__bit_generator_ctor"),
                      ("numpy.random", "__RandomState_ctor")})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SPECIALS = ("__recursive_saveloads", "__numpys", "__scipys", "__ignoreds")
_PICKLE_PROTOCOLS = {bytes([0x80, p]) for p in range(2, 6)}
#: pip's name of a module whose import name differs
_PIP_NAMES = {"sklearn": "scikit-learn", "yaml": "pyyaml", "PIL": "pillow", "cv2": "opencv-python",
              "google": "protobuf", "Bio": "biopython"}


def trust_hint(path) -> str:
    """How to open ``path`` when its author is trusted (the end of every refusal's message).

    Parameters
    ----------
    path : str or path-like
        The file refused.

    Returns
    -------
    str
        The sentence naming ``trust=True`` and ``--trust-pickle``.
    """
    return (f"if you made {Path(path).name} or trust whoever did, open it with gensim's own loader, which runs "
            "whatever code the file names: wordbias.load(path, trust=True), or --trust-pickle on the command line")


def missing_module_error(path, exc: ModuleNotFoundError) -> EmbeddingFormatError:
    """The error for a trusted pickle that needs a module not installed here: the file, the module and the
    ``pip install`` that provides it.

    Parameters
    ----------
    path : str or path-like
        The file being opened.
    exc : ModuleNotFoundError
        The error unpickling raised.

    Returns
    -------
    EmbeddingFormatError
        The error to raise (from ``exc``).
    """
    module = exc.name or str(exc)
    top = module.split(".")[0]
    return EmbeddingFormatError(
        f"{path}: the file needs the Python package {top!r} (its pickle refers to the module {module}), which is not "
        f"installed: pip install {_PIP_NAMES.get(top, top)}")


def _refuse(path, what: str) -> UnsafeFileError:
    return UnsafeFileError(f"{path}: refused: {what}; a pickle runs the code it names when it is opened, and "
                           f"wordbias opens gensim files with a restricted unpickler that allows only what a "
                           f"gensim KeyedVectors, Word2Vec, FastText or Doc2Vec file holds. {_upper_first(trust_hint(path))}")


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


class _NewOnly(type):
    """The metaclass of the stand-ins :class:`RestrictedUnpickler` hands out for gensim's classes: pickle may
    create an empty instance (``cls.__new__(cls)``, as ``NEWOBJ`` does), never call the class, and a stand-in
    cannot be changed."""

    def __call__(cls, *args, **kwargs):
        raise _refuse(cls._file, f"the pickle calls the class {cls._qualname}({_short(args, kwargs)}) (a gensim file "
                                 "only creates its objects empty and fills in their attributes)")

    def __setattr__(cls, name, value):
        raise _refuse(cls._file, f"the pickle sets the attribute {name!r} of the class {cls._qualname}")

    def __delattr__(cls, name):
        raise _refuse(cls._file, f"the pickle deletes the attribute {name!r} of the class {cls._qualname}")


def _short(args, kwargs) -> str:
    text = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
    return text if len(text) <= 80 else text[:77] + "..."


def _stand_in(real: type, qualname: str, file: str) -> type:
    """A class whose ``__new__`` returns an empty instance of ``real`` and which cannot be called."""
    def __new__(cls, *args, **kwargs):
        if args or kwargs:
            raise _refuse(file, f"the pickle creates {qualname} with arguments ({_short(args, kwargs)})")
        return real.__new__(real)

    return _NewOnly(real.__name__, (), {"__new__": __new__, "_file": file, "_qualname": qualname,
                                        "__module__": real.__module__})


def _reconstructor(file: str):
    """``copyreg._reconstructor`` (pickle protocols 0 and 1) for gensim's classes: an empty instance."""
    def reconstruct(cls, base, state):
        if base is not object or state is not None or not isinstance(cls, _NewOnly):
            raise _refuse(file, f"the pickle rebuilds {getattr(cls, '__name__', cls)!r} on {base!r} (only gensim's "
                                "classes on object are allowed)")
        return cls.__new__(cls)
    return reconstruct


def _encode(file: str):
    """``_codecs.encode`` as pickle protocol 2 uses it for bytes: latin-1 only (a codec is looked up by name)."""
    def encode(obj, encoding="utf-8", errors="strict"):
        if not isinstance(obj, str) or encoding not in ("latin1", "latin-1") or errors != "strict":
            raise _refuse(file, f"the pickle encodes with the codec {encoding!r} (only latin1 is allowed)")
        return obj.encode("latin1")
    return encode


class RestrictedUnpickler(pickle.Unpickler):
    """A :class:`pickle.Unpickler` that resolves only the globals a gensim embedding or model file names.

    ``find_class`` refuses any other (``os.system``, ``builtins.eval``, ``posix.system``, a dotted name such
    as ``KeyedVectors.load``...) with an :class:`~wordbias.core.errors.UnsafeFileError` before the module is
    imported; gensim's classes (:data:`GENSIM_CLASSES`) come as stand-ins that can only create empty
    instances. Everything else of :class:`pickle.Unpickler` (the C implementation) is unchanged.

    Parameters
    ----------
    file : binary file
        The open pickle.
    label : str
        How messages name the file.
    """

    def __init__(self, file, label: str):
        super().__init__(file, encoding="latin1")  # as gensim.utils.unpickle: pickles written by Python 2
        self._label = label
        self._stand_ins: dict[tuple[str, str], type] = {}

    def find_class(self, module: str, name: str):
        """Return the allowed global ``module.name``; refuse any other.

        Parameters
        ----------
        module : str
            The module the pickle names.
        name : str
            The name in it.

        Returns
        -------
        object
            The object (a stand-in for gensim's classes, a wrapper for the Python functions of the list).

        Raises
        ------
        wordbias.core.errors.UnsafeFileError
            If the global is not one a gensim file holds.
        """
        if (module, name) in _compat_pickle.NAME_MAPPING:  # Python 2's names, as pickle protocols 0-2 write them
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        elif module in _compat_pickle.IMPORT_MAPPING:
            module = _compat_pickle.IMPORT_MAPPING[module]
        if module.startswith("numpy.core."):  # numpy 1's name, pickled before numpy 2
            module = "numpy._core." + module[len("numpy.core."):]
        key = (module, name)
        if name in GENSIM_CLASSES.get(module, ()):
            if key not in self._stand_ins:
                real = _import(module, name)
                if not isinstance(real, type):
                    raise _refuse(self._label, f"{module}.{name} is not a class in this gensim")
                self._stand_ins[key] = _stand_in(real, f"{module}.{name}", self._label)
            return self._stand_ins[key]
        if key not in ALLOWED_GLOBALS:
            raise _refuse(self._label, f"the pickle refers to {module}.{name}, which a gensim embedding file "
                                       "does not hold")
        if key == ("copyreg", "_reconstructor"):
            return _reconstructor(self._label)
        if key == ("_codecs", "encode"):
            return _encode(self._label)
        found = _import(module, name)
        return functools.partial(found) if key in _WRAPPED else found

    def persistent_load(self, pid):
        """Refuse persistent ids (gensim's files have none).

        Parameters
        ----------
        pid : object
            The persistent id.

        Raises
        ------
        wordbias.core.errors.UnsafeFileError
            Always.
        """
        raise _refuse(self._label, f"the pickle holds a persistent id ({pid!r})")


def _import(module: str, name: str):
    import importlib

    found = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


def _open(path: Path):
    """The pickle's bytes, through gzip or bz2 for ``.gz``/``.bz2`` (as gensim saves compressed files)."""
    suffix = path.suffix.lower()
    if suffix == ".gz":
        return gzip.open(path, "rb")
    if suffix == ".bz2":
        return bz2.open(path, "rb")
    return open(path, "rb")


def _check_specials(obj, path: Path, seen: set[int]) -> None:
    """The lists of attributes gensim stored apart (``__numpys``...) of ``obj`` and of the objects saved with
    it: plain attribute names, no separately stored sparse matrix, children that are gensim objects."""
    from gensim.utils import SaveLoad

    if id(obj) in seen:
        return
    seen.add(id(obj))
    for special in _SPECIALS:
        names = getattr(obj, special, [])
        if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and _IDENTIFIER.match(n) for n in names):
            raise _refuse(path, f"gensim's list {special} of a {type(obj).__name__} is {names!r}, not a list of "
                                "attribute names (a name such as '../x' would read a file elsewhere)")
        if special == "__scipys" and names:
            raise _refuse(path, f"a {type(obj).__name__} stores the sparse matrices {names} in files beside it, which "
                                "gensim opens with the unrestricted pickle.load (an embedding has none)")
        if special == "__recursive_saveloads":
            for name in names:
                child = getattr(obj, name, None)
                if not isinstance(child, SaveLoad):
                    raise _refuse(path, f"the attribute {name!r} of a {type(obj).__name__}, saved apart, is a "
                                        f"{type(child).__name__}, not a gensim object")
                _check_specials(child, path, seen)


def load_saved(path: str | os.PathLike, *, mmap_mode: str | None = "r"):
    """Open a file gensim saved, as :meth:`gensim.utils.SaveLoad.load` does, without running code from it.

    The pickle is read by :class:`RestrictedUnpickler`; the object must be one of gensim's
    (:class:`gensim.utils.SaveLoad`); its attributes stored apart are checked (:func:`_check_specials`) and
    loaded by the object's own ``_load_specials`` (the ``.npy`` files with ``numpy.load``, whose
    ``allow_pickle`` is ``False``: numpy's default since 1.16.3), memory-mapped with ``mmap_mode`` unless the
    file is compressed (``.gz``, ``.bz2``: its arrays are ``.npz`` files, which cannot be mapped).

    Parameters
    ----------
    path : str or path-like
        The file (``.kv``, ``.model``... or any name; ``.gz``/``.bz2`` read compressed).
    mmap_mode : {"r", None}, default "r"
        How to open the arrays stored beside it.

    Returns
    -------
    gensim.utils.SaveLoad
        The object (a ``KeyedVectors``, ``Word2Vec``, ``FastText``, ``Doc2Vec``...).

    Raises
    ------
    wordbias.core.errors.UnsafeFileError
        If the file names anything a gensim embedding does not hold (nothing of it has run).
    wordbias.core.errors.EmbeddingFormatError
        If it is not a pickle gensim wrote, or an array file beside it is missing or damaged.
    """
    from gensim.utils import SaveLoad

    path = Path(path)
    label = str(path)
    try:
        with _open(path) as f:
            obj = RestrictedUnpickler(f, label).load()
    except UnsafeFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged pickle fails in many ways; name the file and why
        raise EmbeddingFormatError(f"{path}: not a file gensim can load ({type(exc).__name__}: {exc})") from exc
    if not isinstance(obj, SaveLoad):
        raise EmbeddingFormatError(f"{path}: not a file gensim can load: it holds a {type(obj).__name__}, not an "
                                   "object gensim saved (KeyedVectors.save, Word2Vec.save)")
    _check_specials(obj, path, set())
    compress, subname = SaveLoad._adapt_by_suffix(label)
    try:
        type(obj)._load_specials(obj, label, None if compress else mmap_mode, compress, subname)
    except UnsafeFileError:
        raise
    except FileNotFoundError as exc:
        raise EmbeddingFormatError(f"{path}: gensim's file refers to {exc.filename}, which is missing (gensim "
                                   "stores large arrays in .npy files beside the file: copy them too)") from exc
    except ValueError as exc:
        if "allow_pickle" in str(exc) or "Python objects" in str(exc):  # numpy.load refused an object array
            raise _refuse(path, "an array file stored beside it holds Python objects (a pickle), not numbers") from exc
        raise EmbeddingFormatError(f"{path}: not a file gensim can load ({type(exc).__name__}: {exc})") from exc
    except Exception as exc:  # noqa: BLE001 - gensim's up-conversion of old files can fail in many ways
        raise EmbeddingFormatError(f"{path}: not a file gensim can load ({type(exc).__name__}: {exc})") from exc
    return obj


def starts_as_pickle(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) is the start of a pickle of protocol 2 to 5."""
    return head[:2] in _PICKLE_PROTOCOLS

