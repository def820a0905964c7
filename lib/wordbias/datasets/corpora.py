"""Text corpora to train word embeddings on: the three shipped with wordbias (``data/corpora``, from the NLTK data
collection; provenance and licences in ``data/corpora/SOURCE.md``) and a user's plain text.

A corpus is read into documents, each a tuple of sentences, each a tuple of tokens (:class:`Corpus`). Everything
that decides the tokens is one small, picklable :class:`CorpusSpec`, so that a worker process (or a cluster
worker) reads the same corpus from the spec alone (:func:`load_corpus`, memoised per process), and
``Corpus.sha256`` lets it check that it read the same bytes as the caller.

Tokenisation (version :data:`TOKENISATION_VERSION`, recorded by ``Corpus.tokenisation`` in every manifest):

* **Text** is put in Unicode NFC, line ends become ``\\n``, typographic apostrophes (U+2019, U+02BC) become
  ``'`` and Unicode hyphens (U+2010, U+2011) become ``-``.
* **A token** is a run of letters (Unicode letters: ``[^\\W\\d_]``), optionally with internal apostrophes or
  hyphens (``don't``, ``well-known``, ``fellow-citizens``): the matches of :data:`TOKEN_PATTERN`. Numbers and
  punctuation are dropped (``U.S.`` gives ``u`` and ``s``; ``'tis`` gives ``tis``). Tokens are lowercased unless
  ``lowercase=False``.
* **Sentences** of plain text: the text is cut into paragraphs at blank lines, each paragraph into sentences
  after ``.``, ``!`` or ``?`` followed by white space (so an abbreviation such as ``Mr.`` ends a sentence too). Sentences with no token are left out; a sentence of
  more than :data:`MAX_SENTENCE_TOKENS` tokens is cut into pieces of that length (gensim would silently drop
  the rest).
* **Documents** (the units a bootstrap sample draws, Antoniak & Mimno 2018): a shipped corpus or a folder, one
  file per document; a single file, one document per non-empty line (``documents="lines"``, the default, as
  gensim's ``LineSentence``) or per blank-line separated paragraph (``documents="paragraphs"``). Documents with no
  token are left out.
* **Brown** (``brown``) is tagged, ``word/tag`` tokens, one sentence per line after a tab: the ``/tag`` suffix is
  stripped (split at the last ``/``), each line is one sentence, and the words are tokenised as above (so
  punctuation-only tokens such as ``,/,`` and ``''/''``, and numbers, are dropped). The 500 files
  ``brown/c[a-r][0-9][0-9]`` are the documents (``README``, ``CONTENTS`` and ``cats.txt`` are not read).
* **State of the Union** (``state_union``, 65 addresses 1945-2006) and **inaugural addresses** (``inaugural``,
  59 addresses 1789-2021) are plain text, one file per address named ``YEAR-President.txt``. Most files are
  UTF-8 (ASCII); seven have their quotes and dashes in Big5 (cp950: the Nixon addresses 1970-1974 and Bush
  2005) and one a ``½`` in Latin-1 (Eisenhower 1954): each is decoded in its own encoding
  (:data:`SHIPPED_ENCODINGS`), so ``encoding`` is not used for the shipped corpora.

* **A counterfactual swap** (``CorpusSpec(swap=...)``, optional): in a share of the sentences, drawn by a seed,
  each word of a list of pairs is replaced by its counterpart (``he`` by ``she`` and back): a planted bias of
  known size (:mod:`wordbias.datasets.swap`). It is recorded under ``tokenisation["swap"]``.

The shipped corpora are read straight from their zip files (nothing is extracted). A user's corpus is a text file
(``.gz`` allowed) or a folder (every regular file in it, recursively, in sorted order, hidden files and folders
skipped). A document's id is its file name for a shipped corpus (``ca01``, ``1945-Truman.txt``), its path
relative to the folder for a folder (``a/b.txt``), and ``NAME:LINE`` (the file's name and the line where the
document starts) for a single file.

Bad input is a :class:`~wordbias.core.errors.CorpusError` before any training: a path that does not exist, an
unknown shipped name, an empty folder or file, a corpus with no token, a binary file (NUL bytes in its first
8 KB), text not valid in the encoding (the message names the file, the byte offset and the line), text that does
not look like text in the encoding given (a UTF-8 file read as UTF-16 decodes without an error into CJK-looking
characters; a UTF-8 file read as Latin-1 turns ``é`` into ``Ã©``): each names the encoding the bytes are likely
in where the bytes tell (a byte-order mark, valid UTF-8, UTF-16's NUL bytes), a ``select`` pattern matching no
document; and (:func:`check_trainable`) a corpus too small for the training settings. An encoding that is not a
text encoding (``rot13``, ``base64``) is refused before anything is read (:func:`check_encoding`).

Reading Brown (1.16 million tagged tokens, 1,006,060 tokens once tokenised) takes about 1 s; it is read once per
process.
"""
from __future__ import annotations

import codecs
import dataclasses
import fnmatch
import functools
import gzip
import hashlib
import os
import re
import unicodedata
import warnings
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from wordbias.core import paths
from wordbias.core.errors import CorpusError, InvalidParameterError, SmallCorpusWarning

if TYPE_CHECKING:
    from wordbias.datasets.swap import SwapSpec

__all__ = ["SHIPPED", "SHIPPED_ENCODINGS", "TOKEN_PATTERN", "TOKENISATION_VERSION", "MAX_SENTENCE_TOKENS",
           "CorpusSpec", "Corpus", "read_corpus", "load_corpus", "bootstrap_documents", "check_trainable",
           "check_encoding", "text_size"]

#: The corpora shipped in ``data/corpora`` (name -> a one-line description); ``data/corpora/SOURCE.md`` has the
#: provenance and licences.
SHIPPED: dict[str, str] = {
    "brown": "Brown Corpus (Francis & Kucera 1964, 1979): 500 samples of edited American English printed in 1961, "
             "15 genres, about 1 million tokens",
    "state_union": "State of the Union addresses 1945-2006 (C-SPAN), 65 addresses, about 350,000 tokens",
    "inaugural": "US presidential inaugural addresses 1789-2021 (C-SPAN), 59 addresses, about 140,000 tokens",
}
#: The files of the shipped corpora that are not UTF-8, and their encodings (see the module docstring).
SHIPPED_ENCODINGS: dict[str, str] = {
    "state_union/1954-Eisenhower.txt": "latin-1",
    **{f"state_union/{year}-Nixon.txt": "cp950" for year in range(1970, 1975)},
    "inaugural/2005-Bush.txt": "cp950",
}
#: A token: letters, with internal apostrophes or hyphens.
TOKEN_PATTERN = r"[^\W\d_]+(?:['-][^\W\d_]+)*"
#: Bumped whenever a rule changes the tokens of some text (it is part of every trained run's cache key).
TOKENISATION_VERSION = 1
#: Longer sentences are cut (gensim's word2vec and fastText ignore the tokens of a sentence beyond 10,000).
MAX_SENTENCE_TOKENS = 10_000

_TOKEN = re.compile(TOKEN_PATTERN)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_PARAGRAPH = re.compile(r"\n[ \t\f\v]*\n")
_NORMALISE = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2010": "-", "\u2011": "-", "\r": "\n"})
_BROWN_FILE = re.compile(r"brown/(c[a-r]\d\d)")
_PLAIN_FILE = {"state_union": re.compile(r"state_union/([^/]+\.txt)"),
               "inaugural": re.compile(r"inaugural/([^/]+\.txt)")}
_BINARY_PROBE = 8192
_DOCUMENT_MODES = ("auto", "lines", "paragraphs")

_RULES = ("NFC; typographic apostrophes and hyphens made ASCII; tokens are the matches of token_pattern (runs of "
          "letters with internal ' or -; numbers and punctuation dropped); plain text: paragraphs at blank lines, "
          "sentences after .!? and white space; Brown: /tag suffixes stripped, one sentence per line; sentences "
          "without tokens and documents without tokens left out; sentences cut at max_sentence_tokens")


@dataclass(frozen=True)
class CorpusSpec:
    """Everything that determines a corpus's tokens: small and picklable (sent to worker processes).

    Parameters
    ----------
    source : str
        A shipped corpus's name (:data:`SHIPPED`), or the path of a text file or of a folder of text files (made
        absolute when the spec is built: ``~`` expanded, relative to the current folder). A shipped name wins over
        a file of that name in the current folder (write ``./brown`` for the file).
    lowercase : bool, default True
        Lowercase the tokens.
    encoding : str, default "utf-8"
        The encoding of a user's text files (any Python text encoding, :func:`check_encoding`); a shipped corpus,
        whose encodings are known (:data:`SHIPPED_ENCODINGS`), takes no other.
    documents : {"auto", "lines", "paragraphs"}, default "auto"
        For a single file: one document per non-empty line (``"lines"``, also what ``"auto"`` means) or per
        blank-line separated paragraph. A folder or a shipped corpus has one document per file (``"auto"``).
    select : tuple of str, optional
        Document ids or :mod:`fnmatch` patterns of the documents to keep (``("19[4-6]*",)``: the addresses of
        1940-1969); a single string is one pattern. By default every document.
    swap : wordbias.datasets.swap.SwapSpec, optional
        A counterfactual swap of word pairs in a share of the sentences (:mod:`wordbias.datasets.swap`), applied
        after the documents are read and selected. Its pairs are lower-cased when ``lowercase`` is; a swap at
        rate 0 is no swap (the field becomes None, so the spec, the tokenisation and every cache key are the
        unswapped corpus's).

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If a field has the wrong type or value (an unknown encoding or one that is not a text encoding,
        :func:`check_encoding`; an unknown document mode; an empty pattern; a swap that is not a ``SwapSpec``).

    Examples
    --------
    >>> spec = CorpusSpec("inaugural", select=["17*"])
    >>> spec.select, spec.documents
    (('17*',), 'auto')
    """

    source: str
    lowercase: bool = True
    encoding: str = "utf-8"
    documents: str = "auto"
    select: tuple[str, ...] | None = None
    swap: SwapSpec | None = None

    def __post_init__(self):
        source = self.source
        if isinstance(source, os.PathLike):
            source = os.fspath(source)
        if not isinstance(source, str) or not source.strip() or "\0" in source:
            raise InvalidParameterError(f"source must be a shipped corpus ({', '.join(SHIPPED)}) or the path of a "
                                        f"text file or folder; not {self.source!r}")
        if source not in SHIPPED and _looks_like_path(source):
            source = str(Path(source).expanduser().absolute())
        object.__setattr__(self, "source", source)
        if not isinstance(self.lowercase, bool):
            raise InvalidParameterError(f"lowercase must be True or False, not {self.lowercase!r}")
        check_encoding(self.encoding)
        if source in SHIPPED and codecs.lookup(self.encoding).name != "utf-8":   # not silently ignored
            raise InvalidParameterError(f"encoding={self.encoding!r}: the shipped corpus {source!r} is read in its "
                                        "files' own known encodings; encoding applies to your own text files")
        if self.documents not in _DOCUMENT_MODES:
            raise InvalidParameterError(f"documents must be one of {_DOCUMENT_MODES}, not {self.documents!r}")
        select = self.select
        if select is not None:
            if isinstance(select, str):
                select = (select,)
            try:
                select = tuple(select)
            except TypeError:
                raise InvalidParameterError(f"select must be a list of document ids or patterns, not "
                                            f"{self.select!r}") from None
            if not select or not all(isinstance(p, str) and p.strip() for p in select):
                raise InvalidParameterError(f"select must hold document ids or patterns (non-empty strings), not "
                                            f"{self.select!r}")
            object.__setattr__(self, "select", select)
        if self.swap is not None:
            from wordbias.datasets.swap import SwapSpec

            if not isinstance(self.swap, SwapSpec):
                raise InvalidParameterError(f"swap must be a wordbias.datasets.swap.SwapSpec or None, not "
                                            f"{type(self.swap).__name__}")
            object.__setattr__(self, "swap", None if self.swap.rate == 0 else
                               self.swap.lowercased() if self.lowercase else self.swap)


def check_encoding(encoding, what: str = "encoding") -> str:
    """Check that ``encoding`` names a text encoding Python knows, and return it.

    :func:`codecs.lookup` knows codecs that are not text encodings: bytes-to-bytes codecs (``base64``, ``hex``,
    ``zlib``, ``bz2``, ``quopri``, ``uu``) and str-to-str ones (``rot13``), which ``bytes.decode`` refuses with
    its own error; they are refused here, naming ``what``, before any file is read. So is ``undefined``, which
    fails on every byte.

    Parameters
    ----------
    encoding : str
        The codec's name (``"utf-8"``, ``"latin-1"``, ``"cp1252"``, ``"utf-16"`` ...).
    what : str, default "encoding"
        How the caller names the option in the message (``"--encoding"`` for the command line).

    Returns
    -------
    str
        ``encoding``, as given.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``encoding`` is not a str, is empty, is not a codec Python knows, or is not a text encoding.

    Examples
    --------
    >>> check_encoding("latin-1")
    'latin-1'
    >>> check_encoding("rot13")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: encoding 'rot13' is not a text encoding (Python's rot-13 codec turns str into str, not bytes into text); give the corpus's text encoding, e.g. 'utf-8', 'latin-1', 'cp1252' or 'utf-16'
    """
    examples = "e.g. 'utf-8', 'latin-1', 'cp1252' or 'utf-16'"
    if not isinstance(encoding, str) or not encoding.strip():
        raise InvalidParameterError(f"{what} must be the name of a text encoding, {examples}; not {encoding!r}")
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise InvalidParameterError(f"{what} {encoding!r} is not a codec Python knows; give the corpus's text "
                                    f"encoding, {examples}") from None
    if not getattr(info, "_is_text_encoding", True):
        kind = "str into str" if info.name.startswith("rot") else "bytes into bytes"
        raise InvalidParameterError(f"{what} {encoding!r} is not a text encoding (Python's {info.name} codec turns "
                                    f"{kind}, not bytes into text); give the corpus's text encoding, {examples}")
    if info.name == "undefined":
        raise InvalidParameterError(f"{what} {encoding!r} decodes nothing (Python's 'undefined' codec fails on "
                                    f"every byte); give the corpus's text encoding, {examples}")
    return encoding


def _looks_like_path(source: str) -> bool:
    """Whether ``source`` (not a shipped name) is meant as a path rather than a misspelt corpus name."""
    return os.sep in source or "/" in source or "." in source or os.path.lexists(os.path.expanduser(source))


@dataclass(frozen=True, eq=False)
class Corpus:
    """A corpus read into documents of sentences of tokens (:func:`read_corpus`, :func:`load_corpus`).

    Two corpora are the same text when their ``sha256`` and ``tokenisation`` are equal (``==`` compares
    identity: comparing a million tokens is left to the caller).

    Parameters
    ----------
    spec : CorpusSpec
        What was read, and how.
    document_ids : tuple of str
        One id per document (see the module docstring).
    documents : tuple
        Per document, a tuple of sentences, each a tuple of str tokens.
    sha256 : str
        The SHA-256 of the source's bytes: over the (relative file name, file bytes) of every file read, in
        sorted order, each length-prefixed (for a shipped corpus, the zip's members as stored uncompressed
        within it; for a ``.gz`` file, its compressed bytes).
    n_tokens : int
        The number of tokens.

    Attributes
    ----------
    tokenisation : dict
        A JSON-able description of the tokenisation, for a manifest.
    word_counts : collections.Counter
        Each word's number of occurrences (computed at first use).

    Examples
    --------
    >>> corpus = read_corpus("inaugural", select=["1789-*"])
    >>> corpus.document_ids, corpus.n_tokens
    (('1789-Washington.txt',), 1430)
    >>> corpus.documents[0][0][:6]
    ('fellow-citizens', 'of', 'the', 'senate', 'and', 'of')
    """

    spec: CorpusSpec
    document_ids: tuple[str, ...] = field(repr=False)
    documents: tuple = field(repr=False)
    sha256: str
    n_tokens: int
    _details: dict = field(repr=False, default_factory=dict)

    @functools.cached_property
    def word_counts(self) -> Counter:
        """Each word's number of occurrences."""
        counts: Counter = Counter()
        for document in self.documents:
            for sentence in document:
                counts.update(sentence)
        return counts

    def vocabulary_size(self, min_count: int = 1) -> int:
        """The number of distinct words occurring at least ``min_count`` times.

        Parameters
        ----------
        min_count : int, default 1
            The least number of occurrences counted (word2vec's ``min_count``).

        Returns
        -------
        int
            The number of such words.
        """
        return sum(1 for n in self.word_counts.values() if n >= min_count)

    @property
    def tokenisation(self) -> dict:
        """A JSON-able description of how the tokens were made (rules, token pattern, lowercase, encoding,
        document mode, selection, version; a swap's pairs' SHA-256 and number, rate, seed and numbers of sentences
        drawn and changed, under ``"swap"``), for a manifest and a cache key."""
        return {"version": TOKENISATION_VERSION, "rules": _RULES, "token_pattern": TOKEN_PATTERN,
                "max_sentence_tokens": MAX_SENTENCE_TOKENS, "lowercase": self.spec.lowercase,
                "select": list(self.spec.select) if self.spec.select is not None else None, **self._details}

    def sentences(self, document_indices=None) -> list[list[str]]:
        """The sentences of the documents, as lists of tokens (what gensim trains on).

        Parameters
        ----------
        document_indices : array-like of int, optional
            The documents, in this order; repeats allowed (a bootstrap sample). By default every document in
            the corpus's order.

        Returns
        -------
        list of list of str
            Their sentences, one document after the other.

        Raises
        ------
        wordbias.core.errors.InvalidParameterError
            If an index is not an integer in ``[0, number of documents)``.
        """
        if document_indices is None:
            chosen = self.documents
        else:
            indices = np.asarray(document_indices)
            if indices.ndim != 1 or (indices.size and not np.issubdtype(indices.dtype, np.integer)):
                raise InvalidParameterError("document_indices must be a 1-d array of document indices, not "
                                            f"{document_indices!r:.80}")
            if indices.size and (indices.min() < 0 or indices.max() >= len(self.documents)):
                raise InvalidParameterError(f"document_indices must lie in [0, {len(self.documents)}); got "
                                            f"{int(indices.min())}..{int(indices.max())}")
            chosen = [self.documents[i] for i in indices.tolist()]
        return [list(sentence) for document in chosen for sentence in document]


# ------------------------------------------------------------------------------------------------ reading

def read_corpus(source, *, lowercase: bool = True, encoding: str = "utf-8", documents: str = "auto",
                select=None, swap=None) -> Corpus:
    """Read a shipped corpus or a user's text into documents of sentences of tokens.

    The rules are those of the module docstring. The result is memoised per process (:func:`load_corpus`):
    a second call with the same arguments, the files unchanged, returns the same object.

    Parameters
    ----------
    source : str or path-like
        ``"brown"``, ``"state_union"`` or ``"inaugural"`` (:data:`SHIPPED`), or the path of a text file (``.gz``
        allowed) or of a folder of text files.
    lowercase : bool, default True
        Lowercase the tokens.
    encoding : str, default "utf-8"
        The encoding of a user's text files (not used for the shipped corpora).
    documents : {"auto", "lines", "paragraphs"}, default "auto"
        How a single file is cut into documents (see :class:`CorpusSpec`).
    select : sequence of str, optional
        Document ids or :mod:`fnmatch` patterns of the documents to keep.
    swap : wordbias.datasets.swap.SwapSpec, optional
        A counterfactual swap of word pairs in a share of the sentences (see :class:`CorpusSpec`).

    Returns
    -------
    Corpus
        The corpus.

    Raises
    ------
    wordbias.core.errors.CorpusError
        If the source does not exist or is not a shipped name, is empty, holds no token, holds a binary file,
        text not valid in ``encoding`` (the file and byte offset named) or text that does not look like text in
        ``encoding`` (the likely encoding named), or a ``select`` pattern matches no document.
    wordbias.core.errors.InvalidParameterError
        If a parameter has the wrong type or value.

    Examples
    --------
    >>> brown = read_corpus("brown")
    >>> len(brown.document_ids), brown.n_tokens, brown.vocabulary_size(5)
    (500, 1006060, 13919)
    >>> read_corpus("brwon")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.CorpusError: unknown corpus 'brwon': the shipped corpora are brown, state_union, inaugural; or give the path of a text file or a folder of text files
    """
    return load_corpus(CorpusSpec(source, lowercase=lowercase, encoding=encoding, documents=documents,
                                  select=select, swap=swap))


def load_corpus(spec: CorpusSpec) -> Corpus:
    """The corpus ``spec`` describes, read once per process (memoised on the spec and the files' sizes and
    modification times: an edited file is read again).

    Parameters
    ----------
    spec : CorpusSpec
        What to read.

    Returns
    -------
    Corpus
        The corpus (the same object for the same spec while the files are unchanged; it is immutable).

    Raises
    ------
    wordbias.core.errors.CorpusError
        As :func:`read_corpus`.

    Examples
    --------
    >>> load_corpus(CorpusSpec("inaugural")) is load_corpus(CorpusSpec("inaugural"))
    True
    """
    if not isinstance(spec, CorpusSpec):
        raise InvalidParameterError(f"spec must be a CorpusSpec, not {type(spec).__name__}")
    files = _files_of(spec)
    signature = tuple((name, st.st_size, st.st_mtime_ns) for name, st in ((n, os.stat(p)) for n, p in files))
    return _load(spec, signature)


def text_size(spec: CorpusSpec) -> int:
    """The bytes of text ``spec`` reads, from the sizes of its files alone (nothing is read or decoded): what a
    cost estimate needs before the corpus is read (:func:`wordbias.models.train.train_ensemble`).

    A ``.gz`` file counts its uncompressed size (the gzip trailer's, which gzip keeps modulo 4 GiB: at least the
    compressed size), a shipped corpus its documents' uncompressed sizes in the zip. ``select`` is not applied:
    the whole source counts.

    Parameters
    ----------
    spec : CorpusSpec
        What would be read.

    Returns
    -------
    int
        The number of bytes.

    Raises
    ------
    wordbias.core.errors.CorpusError
        If the source does not exist (as :func:`read_corpus`).

    Examples
    --------
    >>> text_size(CorpusSpec("inaugural")) > 700_000
    True
    """
    if not isinstance(spec, CorpusSpec):
        raise InvalidParameterError(f"spec must be a CorpusSpec, not {type(spec).__name__}")
    if spec.source in SHIPPED:
        pattern = _BROWN_FILE if spec.source == "brown" else _PLAIN_FILE[spec.source]
        with zipfile.ZipFile(_shipped_zip(spec.source)) as archive:
            return sum(info.file_size for info in archive.infolist() if pattern.fullmatch(info.filename))
    total = 0
    for _, file in _files_of(spec):
        size = file.stat().st_size
        if file.suffix.lower() == ".gz" and size >= 18:
            with open(file, "rb") as f:
                f.seek(-4, os.SEEK_END)
                size = max(size, int.from_bytes(f.read(4), "little"))
        total += size
    return total


@functools.lru_cache(maxsize=8)   # a ladder's swapped corpora and their original, in one worker process
def _load(spec: CorpusSpec, signature: tuple) -> Corpus:
    if spec.swap is not None:   # the original, read once, then swapped (sharing its unchanged sentences)
        from wordbias.datasets.swap import apply_swap

        return apply_swap(_load(dataclasses.replace(spec, swap=None), signature), spec.swap)
    return _read(spec)


def _shipped_zip(name: str) -> Path:
    path = Path(paths.DATA) / "corpora" / f"{name}.zip"
    if not path.is_file():
        raise CorpusError(f"the shipped corpus {name!r} is missing: {path} does not exist (a damaged "
                          "installation? reinstall wordbias)")
    return path


def _files_of(spec: CorpusSpec) -> list[tuple[str, Path]]:
    """The files ``spec`` reads, as (relative name, path), sorted; the shipped corpora's zip file."""
    source = spec.source
    if source in SHIPPED:
        return [(f"{source}.zip", _shipped_zip(source))]
    if not _looks_like_path(source):
        raise CorpusError(f"unknown corpus {source!r}: the shipped corpora are {', '.join(SHIPPED)}; or give the "
                          "path of a text file or a folder of text files")
    path = Path(source)
    if not path.exists():
        raise CorpusError(f"{path}: no such file or folder (give a shipped corpus, {', '.join(SHIPPED)}, or the "
                          "path of a text file or a folder of text files)")
    if path.is_file():
        return [(path.name, path)]
    if not path.is_dir():
        raise CorpusError(f"{path}: not a regular file nor a folder")
    found = []
    for folder, subfolders, names in os.walk(path, followlinks=False):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        for name in names:
            full = Path(folder) / name
            if not name.startswith(".") and full.is_file():
                found.append((full.relative_to(path).as_posix(), full))
    if not found:
        raise CorpusError(f"{path}: the folder holds no files (hidden files are skipped); give a folder of text "
                          "files")
    return sorted(found)


def _read(spec: CorpusSpec) -> Corpus:
    if spec.source in SHIPPED:
        if spec.documents not in ("auto",):
            raise InvalidParameterError(f"documents={spec.documents!r}: the shipped corpus {spec.source!r} has one "
                                        "document per file; leave documents='auto'")
        return _read_shipped(spec)
    path = Path(spec.source)
    files = _files_of(spec)
    if path.is_dir():
        if spec.documents != "auto":
            raise InvalidParameterError(f"documents={spec.documents!r}: a folder has one document per file; leave "
                                        "documents='auto' (or give a single file to cut it by lines or paragraphs)")
        ids, docs, sha256 = _documents(files, spec.select, path, functools.partial(_read_plain_file, spec))
        details = {"format": "plain text", "documents": "files", "encoding": spec.encoding}
        return _corpus(spec, ids, docs, sha256, details)
    (name, file), = files
    raw = _read_bytes(file)
    if not raw:
        raise CorpusError(f"{file}: the file is empty")
    text = _normalise(_decode(file, _decompress(file, raw), spec.encoding))
    mode = "lines" if spec.documents == "auto" else spec.documents
    ids, docs = [], []
    for start, chunk in (_lines(text) if mode == "lines" else _paragraphs(text)):
        doc = _plain_document(chunk, spec.lowercase, normalised=True)
        if doc:
            ids.append(f"{name}:{start}")
            docs.append(doc)
    if spec.select is not None:
        chosen = _select(ids, spec.select, file)
        docs = [d for i, d in zip(ids, docs) if i in chosen]
        ids = [i for i in ids if i in chosen]
    digest = _Digest()
    digest.add(name, raw)
    details = {"format": "plain text", "documents": mode, "encoding": spec.encoding}
    return _corpus(spec, ids, docs, digest.hexdigest(), details)


def _read_plain_file(spec: CorpusSpec, name: str, file: Path) -> tuple[str, bytes, tuple]:
    """One file of a folder as :func:`_documents` reads it: ``(name, raw bytes, document)``."""
    raw = _read_bytes(file)
    return name, raw, _plain_document(_decode(file, _decompress(file, raw), spec.encoding), spec.lowercase)


def _read_shipped(spec: CorpusSpec) -> Corpus:
    name = spec.source
    path = _shipped_zip(name)
    pattern = _BROWN_FILE if name == "brown" else _PLAIN_FILE[name]
    with zipfile.ZipFile(path) as archive:
        members = sorted((m.group(1), member) for member in archive.namelist()
                         if (m := pattern.fullmatch(member)))

        def read_member(doc_id: str, member: str) -> tuple[str, bytes, tuple]:
            raw = archive.read(member)
            text = _decode(f"{path}:{member}", raw, SHIPPED_ENCODINGS.get(member, "utf-8"))
            doc = _brown_document(text, spec.lowercase) if name == "brown" else _plain_document(text, spec.lowercase)
            return member, raw, doc

        ids, docs, sha256 = _documents(members, spec.select, path, read_member)
    details = {"format": "Brown tagged text (word/tag)" if name == "brown" else "plain text",
               "documents": "files",
               "encoding": "utf-8" if name == "brown" else "utf-8, except " + ", ".join(
                   f"{m.split('/')[1]}: {e}" for m, e in SHIPPED_ENCODINGS.items() if m.startswith(name + "/"))}
    return _corpus(spec, ids, docs, sha256, details)


def _documents(sources: list[tuple[str, Any]], patterns: tuple[str, ...] | None, where,
               read: Callable[[str, Any], tuple[str, bytes, tuple]]) -> tuple[list[str], list, str]:
    """The documents of the ``(id, source)`` pairs ``patterns`` select (:func:`_select`), in the pairs' order.

    ``read(id, source)`` gives ``(name, raw bytes, document)``; every selected source's name and bytes enter the
    digest, and an empty document is left out. Returns ``(ids, documents, sha256 hex digest)``.
    """
    chosen = _select([doc_id for doc_id, _ in sources], patterns, where)
    digest = _Digest()
    ids, docs = [], []
    for doc_id, source in sources:
        if doc_id not in chosen:
            continue
        name, raw, doc = read(doc_id, source)
        digest.add(name, raw)
        if doc:
            ids.append(doc_id)
            docs.append(doc)
    return ids, docs, digest.hexdigest()


def _corpus(spec: CorpusSpec, ids: list[str], docs: list, sha256: str, details: dict) -> Corpus:
    n_tokens = sum(len(s) for d in docs for s in d)
    if not n_tokens:
        raise CorpusError(f"{spec.source}: no tokens (no word of letters in any document"
                          + (f" selected by {list(spec.select)}" if spec.select else "") + ")")
    return Corpus(spec, tuple(ids), tuple(docs), sha256, n_tokens, details)


def _select(ids: list[str], patterns: tuple[str, ...] | None, where) -> set[str]:
    """The ids ``patterns`` keep (all without patterns); a pattern matching none is an error."""
    if patterns is None:
        return set(ids)
    chosen = set()
    for pattern in patterns:
        matched = {i for i in ids if i == pattern or fnmatch.fnmatchcase(i, pattern)}
        if not matched:
            shown = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
            raise CorpusError(f"{where}: select pattern {pattern!r} matches no document (of {len(ids)}: {shown})")
        chosen |= matched
    return chosen


class _Digest:
    """SHA-256 over length-prefixed (name, bytes) pairs, added in sorted order."""

    def __init__(self):
        self._h = hashlib.sha256()

    def add(self, name: str, data: bytes) -> None:
        encoded = name.encode("utf-8")
        for part in (encoded, data):
            self._h.update(len(part).to_bytes(8, "little"))
            self._h.update(part)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CorpusError(f"{path}: cannot be read ({exc.strerror or exc})") from exc


def _decompress(path: Path, raw: bytes) -> bytes:
    if path.suffix.lower() != ".gz":
        return raw
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as exc:
        raise CorpusError(f"{path}: not a valid gzip file ({exc})") from exc


def _decode(path, data: bytes, encoding: str) -> str:
    """``data`` decoded, refusing what is not text in ``encoding``, with the file, the place and the encoding the
    bytes are likely in (:func:`_likely_encoding`):

    * binary data: a NUL byte in the first 8 KB (a NUL character, for the UTF-16 and UTF-32 encodings);
    * bytes invalid in ``encoding`` (the byte offset, and the line for an ASCII-compatible encoding);
    * decoded text that does not look like text (:func:`_not_text`, on its first :data:`_TEXT_PROBE`
      characters): a UTF-8 file read as UTF-16 decodes without an error into CJK-looking characters, with no
      space or line break and with unassigned code points;
    * text that another encoding reads clearly better (:func:`_better_encoding`): a UTF-8 file read as Latin-1
      (``café`` as ``cafÃ©``), UTF-16 read in the wrong byte order.
    """
    where = " of the decompressed text" if str(path).lower().endswith(".gz") else ""
    probe = data[:_TEXT_PROBE]
    if _nul_is_a_byte(encoding):
        nul = data.find(b"\0", 0, _BINARY_PROBE)
        if nul >= 0:
            raise CorpusError(f"{path}: looks binary, not text (a NUL byte at offset {nul}{where}); give text files "
                              f"(select= can leave a binary file of a folder out){_or_likely(probe, encoding)}")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 4]
        newline = b"\n"
        line = f" on line {data.count(newline, 0, exc.start) + 1:,}" if _nul_is_a_byte(encoding) else ""
        raise CorpusError(f"{path}: not valid {encoding} at byte offset {exc.start}{where} ({bad!r}: "
                          f"{exc.reason}){line}; {_suggestion(probe, encoding)}") from None
    except UnicodeError as exc:       # a codec failing otherwise (idna on a long line, ...)
        raise CorpusError(f"{path}: cannot be decoded as {encoding} ({exc}); {_suggestion(probe, encoding)}") from None
    sample = text[:_TEXT_PROBE]
    nul = sample.find("\0")
    if nul >= 0:
        raise CorpusError(f"{path}: looks binary, not text (read as {encoding}, character {nul}{where} is NUL); "
                          f"give text files (select= can leave a binary file of a folder out)"
                          f"{_or_likely(probe, encoding)}")
    reason = _not_text(sample, encoding)
    if reason is not None:
        raise CorpusError(f"{path}: read as {encoding}, it does not look like text: {reason}; "
                          f"{_suggestion(probe, encoding, c1=reason.startswith('C1'))}")
    better = _better_encoding(probe, sample, encoding)
    if better is not None:
        name, why = better
        raise CorpusError(f"{path}: read as {encoding}, its text is garbled ({_shown(sample)}): {why}; give "
                          f"encoding={name!r} (`wordbias train --encoding {name}`)")
    return text


#: The start of each file whose decoded text is checked to look like text (characters; and bytes for the
#: encodings tried instead).
_TEXT_PROBE = 65_536
#: Byte-order marks, and the encoding each announces (UTF-32-LE's starts with UTF-16-LE's: it comes first).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32", "UTF-32 (little-endian)"),
         (codecs.BOM_UTF32_BE, "utf-32", "UTF-32 (big-endian)"), (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"),
         (codecs.BOM_UTF16_LE, "utf-16", "UTF-16 (little-endian)"),
         (codecs.BOM_UTF16_BE, "utf-16", "UTF-16 (big-endian)"))
#: The encodings tried, in this order, when a file does not decode, or does not look like text, in the one given.
_CANDIDATES = ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
#: The characters :func:`_not_text` looks at: all but printable ASCII and the controls text holds (white space).
_ODD = re.compile(r"[^\x20-\x7e\t\n\v\f\r]")
_SPACE = re.compile(r"\s")


def _codec(encoding: str) -> str:
    return codecs.lookup(encoding).name


def _family(encoding: str) -> str:
    """``utf-8``, ``utf-16``, ``utf-32`` for their variants (``-sig``, ``-le``, ``-be``); else the codec's name."""
    name = _codec(encoding)
    for family in ("utf-8", "utf-16", "utf-32"):
        if name == family or name.startswith(family + "-"):
            return family
    return name


def _nul_is_a_byte(encoding: str) -> bool:
    """Whether ``encoding`` writes U+0000 as the single byte 0 (every ASCII-compatible encoding; not UTF-16/32)."""
    try:
        return codecs.encode("\0", encoding) == b"\0"
    except (UnicodeError, LookupError, TypeError):
        return False


def _decoded(data: bytes, encoding: str) -> str | None:
    """The start of a file decoded strictly (a character cut at the end of ``data`` left out), or None."""
    try:
        return codecs.getincrementaldecoder(encoding)("strict").decode(data, final=False)
    except (UnicodeError, LookupError):
        return None


def _ascii_share(text: str) -> float:
    return sum(1 for c in text if c < "\x80") / len(text) if text else 1.0


def _not_text(text: str, encoding: str = "") -> str | None:
    """Why ``text`` (the start of a decoded file) does not look like text, or None.

    * C1 control characters (U+0080-U+009F) in text read as Latin-1: the file is in a Windows code page, where
      the bytes 0x80-0x9F are curly quotes, dashes and letters (``œ``, ``š``);
    * more than 1% (and at least 3) of its characters are controls other than white space, surrogates,
      private-use or unassigned code points, or U+FFFD (the replacement character of an earlier lossy
      conversion);
    * no space or line break in 1,000 characters or more (the tokens of a word embedding are separated by
      white space; mis-decoded UTF-8 has none).
    """
    n = len(text)
    if not n:
        return None
    bad, c1, examples = 0, 0, []
    for ch, k in Counter(_ODD.findall(text)).items():
        code = ord(ch)
        category = unicodedata.category(ch)
        if 0x80 <= code <= 0x9F:
            c1 += k
        elif not (category in ("Cc", "Cs", "Co", "Cn") or ch == "\ufffd"):
            continue
        bad += k
        examples.append((-k, f"U+{code:04X}"))
    shown = ", ".join(e for _, e in sorted(examples)[:4])
    if c1 and encoding and _family(encoding) == "iso8859-1":
        return f"C1 control characters ({c1:,} of them, e.g. {shown}), which no text holds"
    if bad >= 3 and bad > 0.01 * n:
        return (f"{bad:,} of its first {n:,} characters are control characters, surrogates, unassigned or "
                f"private-use code points or U+FFFD replacement characters (e.g. {shown})")
    if n >= 1000 and not _SPACE.search(text):
        return f"no space or line break in its first {n:,} characters ({_shown(text)})"
    return None


def _looks_like_text(text: str) -> bool:
    """Whether the start of a file, decoded in a candidate encoding, reads as text: :func:`_not_text` finds
    nothing wrong, it has white space, and letters and white space make most of it."""
    if not text or _not_text(text) is not None or not any(c.isspace() for c in text):
        return False
    return sum(1 for c in text if c.isalpha() or c.isspace()) >= 0.6 * len(text)


def _likely_encoding(data: bytes, encoding: str) -> tuple[str, str] | None:
    """The encoding the bytes ``data`` (the start of a file) are likely in, other than ``encoding``, and why: a
    byte-order mark, else the first of :data:`_CANDIDATES` that decodes them into text (:func:`_looks_like_text`);
    None when none does (a single-byte encoding cannot be told from the bytes: it is not guessed)."""
    given = _codec(encoding)
    for bom, name, label in _BOMS:
        if data.startswith(bom):
            if _family(name) != _family(encoding) or (given != _codec(name) and _family(name) != "utf-8"):
                return name, f"it starts with the {label} byte-order mark"
            return None
    for name in _CANDIDATES:
        if _codec(name) == given:
            continue
        text = _decoded(data, name)
        if text is not None and _looks_like_text(text):
            why = ("its bytes are valid UTF-8 and read as UTF-8 they are text" if name == "utf-8" else
                   f"read as {name} its bytes are text")
            return name, why
    return None


def _better_encoding(data: bytes, text: str, encoding: str) -> tuple[str, str] | None:
    """Another encoding that reads the bytes ``data`` clearly better than ``encoding`` read them into ``text``:

    * UTF-8, when ``encoding`` is not and the bytes hold multi-byte UTF-8 characters and nothing invalid in UTF-8
      (text in a single-byte encoding is practically never valid UTF-8 beyond a few bytes);
    * an encoding that reads them as mostly ASCII (90% or more) where ``encoding`` read less than half of them as
      ASCII (UTF-16 in the wrong byte order, UTF-8 read as UTF-16).
    """
    if text.isascii():
        return None
    if _family(encoding) != "utf-8" and not data.isascii():
        utf8 = _decoded(data, "utf-8")
        if utf8 is not None and utf8 != text and _looks_like_text(utf8):
            multi = sorted({c for c in utf8 if c >= "\x80"})
            return "utf-8", (f"its bytes are valid UTF-8, with {len(multi)} distinct multi-byte characters "
                             f"({''.join(multi[:8])}), which text in another encoding practically never is")
    if _ascii_share(text) < 0.5:
        given = _codec(encoding)
        for name in _CANDIDATES:
            if _codec(name) == given:
                continue
            other = _decoded(data, name)
            if other is not None and _ascii_share(other) >= 0.9 and _looks_like_text(other):
                return name, f"read as {name} it is text ({_shown(other)})"
    return None


def _shown(text: str, n: int = 24) -> str:
    """The first non-blank characters of ``text``, for a message."""
    return repr(" ".join(text.split())[:n])


def _suggestion(data: bytes, encoding: str, *, c1: bool = False) -> str:
    """What to do about a file that is not text in ``encoding``: the likely encoding (:func:`_likely_encoding`),
    else the usual ones to try."""
    likely = _likely_encoding(data, encoding)
    if likely is None and c1 and _decoded(data, "cp1252") is not None:
        likely = ("cp1252", "in Windows' code page cp1252 the bytes 0x80-0x9F are curly quotes, dashes and letters "
                            "such as œ and š, not controls")
    if likely is not None:
        name, why = likely
        return f"the file is likely {name} ({why}): give encoding={name!r} (`wordbias train --encoding {name}`)"
    return ("give the file's encoding, e.g. encoding='latin-1' or 'cp1252' (`wordbias train --encoding latin-1`), "
            "or convert the file to UTF-8")


def _or_likely(data: bytes, encoding: str) -> str:
    """``; or it is X text ...`` when the bytes of what looks binary are text in another encoding."""
    likely = _likely_encoding(data, encoding)
    if likely is None:
        return ""
    name, why = likely
    return f"; or it is {name} text ({why}): give encoding={name!r} (`wordbias train --encoding {name}`)"


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n")).translate(_NORMALISE)


def _lines(text: str):
    """(line number, line) of the non-empty lines."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            yield number, line


def _paragraphs(text: str):
    """(line number where it starts, paragraph) of the blank-line separated paragraphs."""
    position, line = 0, 1
    for match in [*_PARAGRAPH.finditer(text), None]:
        end = match.start() if match else len(text)
        chunk = text[position:end]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            yield line + chunk.count("\n", 0, lead), chunk
        if match:
            line += text.count("\n", position, match.end())
            position = match.end()


def _tokens(text: str, lowercase: bool, interned: dict) -> list[str]:
    found = _TOKEN.findall(text.lower() if lowercase else text)
    return [interned.setdefault(t, t) for t in found]


def _cut(tokens: list[str]) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + MAX_SENTENCE_TOKENS]) for i in range(0, len(tokens), MAX_SENTENCE_TOKENS)]


_INTERNED: dict[str, str] = {}  # one str object per distinct token, shared by the corpora of a process


def _plain_document(text: str, lowercase: bool, *, normalised: bool = False) -> tuple:
    """The sentences of a plain-text document."""
    if not normalised:
        text = _normalise(text)
    sentences = []
    for paragraph in _PARAGRAPH.split(text):
        for sentence in _SENTENCE_END.split(paragraph):
            tokens = _tokens(sentence, lowercase, _INTERNED)
            if tokens:
                sentences.extend(_cut(tokens))
    return tuple(sentences)


def _brown_document(text: str, lowercase: bool) -> tuple:
    """The sentences of a Brown file (``word/tag`` tokens, one sentence a line)."""
    sentences = []
    for line in _normalise(text).split("\n"):
        words = " ".join(w.rsplit("/", 1)[0] for w in line.split())
        tokens = _tokens(words, lowercase, _INTERNED)
        if tokens:
            sentences.extend(_cut(tokens))
    return tuple(sentences)


# ------------------------------------------------------------------------------------------------ using a corpus

def bootstrap_documents(n_documents: int, seed: int) -> np.ndarray:
    """A bootstrap sample of documents: ``n_documents`` indices drawn with replacement (Antoniak & Mimno 2018,
    "Evaluating the stability of embedding-based word similarities", TACL 6:107-119, doi:10.1162/tacl_a_00008).

    Parameters
    ----------
    n_documents : int
        The number of documents of the corpus (and of the sample).
    seed : int
        The seed of ``numpy.random.default_rng``: the same seed gives the same sample.

    Returns
    -------
    numpy.ndarray
        ``n_documents`` int64 indices in ``[0, n_documents)``, in the order drawn.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``n_documents`` is not a positive integer or ``seed`` not a non-negative integer.

    Examples
    --------
    >>> bootstrap_documents(8, seed=1)
    array([3, 4, 6, 7, 0, 1, 6, 7])
    """
    if isinstance(n_documents, bool) or not isinstance(n_documents, (int, np.integer)) or n_documents < 1:
        raise InvalidParameterError(f"n_documents must be a positive integer, not {n_documents!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidParameterError(f"seed must be a non-negative integer, not {seed!r}")
    return np.random.default_rng(int(seed)).integers(0, int(n_documents), size=int(n_documents), dtype=np.int64)


#: The fewest tokens, and distinct words kept by ``min_count``, that :func:`check_trainable` accepts.
MIN_TOKENS = 1_000
MIN_WORDS = 10
#: Below this many documents a bootstrap run warns (:class:`~wordbias.core.errors.SmallCorpusWarning`).
MIN_BOOTSTRAP_DOCUMENTS = 20


def check_trainable(corpus: Corpus, *, min_count: int, window: int, bootstrap: int = 0) -> None:
    """Refuse a corpus too small for the training settings, before any training.

    Parameters
    ----------
    corpus : Corpus
        The corpus.
    min_count : int
        word2vec's ``min_count`` (words rarer than this are left out of the vocabulary).
    window : int
        word2vec's context window (a positive integer).
    bootstrap : int, default 0
        The number of bootstrap runs to come: with fewer than 20 documents they warn.

    Raises
    ------
    wordbias.core.errors.CorpusError
        With fewer than 1,000 tokens, fewer than 10 distinct words occurring ``min_count`` times or more (the
        message names the numbers and a ``min_count`` that would do), or no sentence of two tokens (no word
        has a context).
    wordbias.core.errors.InvalidParameterError
        If ``min_count`` or ``window`` is not a positive integer.

    Warns
    -----
    wordbias.core.errors.SmallCorpusWarning
        With bootstrap runs and fewer than 20 documents.

    Examples
    --------
    >>> check_trainable(read_corpus("inaugural"), min_count=5, window=5)
    >>> check_trainable(read_corpus("inaugural", select=["1793-*"]), min_count=5, window=5)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.CorpusError: inaugural (selected ['1793-*']): 135 tokens, too few to train an embedding (at least 1,000 are needed): give a larger corpus
    """
    for name, value in (("min_count", min_count), ("window", window)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise InvalidParameterError(f"{name} must be a positive integer, not {value!r}")
    where = corpus.spec.source + (f" (selected {list(corpus.spec.select)})" if corpus.spec.select else "")
    if corpus.n_tokens < MIN_TOKENS:
        raise CorpusError(f"{where}: {corpus.n_tokens:,} tokens, too few to train an embedding (at least "
                          f"{MIN_TOKENS:,} are needed): give a larger corpus")
    kept = corpus.vocabulary_size(min_count)
    if kept < MIN_WORDS:
        counts = sorted(corpus.word_counts.values(), reverse=True)
        fit = counts[MIN_WORDS - 1] if len(counts) >= MIN_WORDS else None
        way_out = (f"lower min_count (min_count={fit} keeps {corpus.vocabulary_size(fit)})" if fit
                   else "give a larger corpus")
        raise CorpusError(f"{where}: only {kept} distinct words occur at least min_count={min_count} times (of "
                          f"{len(counts)} distinct words); at least {MIN_WORDS} are needed: {way_out}")
    if not any(len(s) >= 2 for d in corpus.documents for s in d):
        raise CorpusError(f"{where}: every sentence has a single token, so no word has a context within "
                          f"window={window}: give running text")
    n_docs = len(corpus.documents)
    if bootstrap and n_docs < MIN_BOOTSTRAP_DOCUMENTS:
        warnings.warn(f"{where}: only {n_docs} documents; bootstrap samples of so few documents (drawn with "
                      "replacement, whole documents at a time) differ coarsely, and the spread of the bootstrap "
                      "runs says little; use a corpus of more documents (e.g. a single file cut by lines)",
                      SmallCorpusWarning, stacklevel=2)
