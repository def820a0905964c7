"""Reading a text or binary embedding file: chunks from :mod:`~wordbias.embeddings.formats` become a word list
(decoded as UTF-8, first occurrence of each word kept) and a float32 matrix written to a sink (memory, or the
``.npy`` file of a cache), under a byte progress bar for large sources.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from wordbias.core.errors import DuplicateWordsWarning, EmbeddingFormatError, WordbiasWarning
from wordbias.core.lookup import warn_user
from wordbias.core.progress import progress_bar
from wordbias.embeddings.formats import check_format, detect_format, iter_chunks, open_source, source_label, zip_member
from wordbias.embeddings.keyed_vectors import to_keyed_vectors

__all__ = ["read_vectors", "read_keyed_vectors", "parse_into", "replay_notes"]

log = logging.getLogger(__name__)

_PROGRESS_MIN_BYTES = 20 << 20  # no progress bar for sources smaller than this




def read_vectors(path: str | os.PathLike, *, format: str | None = None, member: str | None = None,
                 progress: bool = True, dim: int | None = None, zero_vectors: str = "error",
                 trust: bool = False) -> tuple[list[str], np.ndarray]:
    """Parse an embedding file into memory: its words and a float32 matrix.

    A repeated word keeps its first vector, with a :class:`~wordbias.core.errors.DuplicateWordsWarning`.
    Nothing is cached (:func:`wordbias.embeddings.load` caches; :func:`wordbias.embeddings.convert` writes a
    cache).

    Parameters
    ----------
    path : str or path-like
        A text or binary embedding file, plain, ``.gz`` or ``.zip``, or a file gensim saved.
    format : str, optional
        One of :data:`~wordbias.embeddings.formats.PARSEABLE_FORMATS`, or ``"gensim"``; detected with
        :func:`~wordbias.embeddings.formats.detect_format` when omitted.
    member : str, optional
        The file to read inside a ``.zip`` holding several.
    progress : bool, default True
        Show a progress bar while parsing a large file.
    dim : int, optional
        The expected dimension (an error if the file disagrees); by default it comes from the header or the
        first line.
    zero_vectors : {"error", "keep"}, default "error"
        ``"keep"`` accepts all-zero rows; by default they are an error (they have no direction).
    trust : bool, default False
        For a file gensim saved (a pickle): ``False`` reads it with a restricted unpickler that runs no code
        from it (:mod:`wordbias.embeddings.safe_pickle`), ``True`` with gensim's own loader (only for a file
        you trust; see :func:`wordbias.embeddings.load`).

    Returns
    -------
    words : list of str
        The words, in file order.
    vectors : numpy.ndarray of float32, shape (n_words, dim)
        Their vectors.

    Raises
    ------
    wordbias.core.errors.EmbeddingFormatError
        If the file is malformed (no vectors, header/row mismatches, non-finite values, a zero vector with
        ``zero_vectors="error"``, a truncated or damaged ``.gz``/``.zip``); the message names the file and the
        line or byte offset at fault.
    wordbias.core.errors.UnsafeFileError
        If a gensim file names anything a gensim embedding does not hold (with ``trust=False``), or a file of
        a text format is a pickle.
    wordbias.core.errors.InvalidParameterError
        If ``format`` is not a parseable format or ``"gensim"``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.txt"
    >>> _ = path.write_text("king 0.5 0.1\\nqueen 0.4 0.2\\n")
    >>> words, matrix = read_vectors(path)
    >>> words, matrix.shape, matrix.dtype
    (['king', 'queen'], (2, 2), dtype('float32'))
    """
    kv = read_keyed_vectors(Path(path), format=format, member=member, progress=progress, dim=dim,
                            zero_vectors=zero_vectors, trust=trust)
    return kv.index_to_key, kv.vectors


def read_keyed_vectors(path: Path, *, format: str | None = None, member: str | None = None, progress: bool = True,
                       dim: int | None = None, zero_vectors: str = "error", trust: bool = False) -> KeyedVectors:
    """Parse a file into an in-memory KeyedVectors (reusing the word index built while parsing); a file gensim
    saved is read into memory by :func:`~wordbias.embeddings.objects.load_gensim_file` (``trust`` as there)."""
    fmt = format or detect_format(path, member=member)
    if fmt == "gensim" and member is None:
        from wordbias.embeddings.objects import load_gensim_file

        kv = load_gensim_file(path, mmap_mode=None, zero_vectors=zero_vectors, trust=trust)
        if dim is not None and kv.vector_size != dim:
            raise EmbeddingFormatError(f"{path}: expected {dim}-d vectors, the file holds {kv.vector_size}-d")
        return kv
    check_format(fmt, parseable=True)
    if path.suffix.lower() == ".zip":
        member = zip_member(path, member)
    sink = _MemorySink()
    words, index, _stats = parse_into(path, fmt, member, sink, progress=progress, dim=dim,
                                      zero_vectors=zero_vectors)
    return to_keyed_vectors(words, sink.array(), index)


def parse_into(
    path: Path, fmt: str, member: str | None, sink, *, progress: bool, dim: int | None,
    zero_vectors: str = "error",
) -> tuple[list[str], dict[str, int], dict]:
    """Parse a text/binary source, writing unique rows to ``sink`` (an object with ``write(block)``).

    Returns ``(words, key_to_index, stats)``; ``stats`` counts dropped duplicates, multi-token words and
    words with invalid UTF-8, and the corresponding warnings are issued (and listed in ``stats["warnings"]``,
    which a cache records). ``progress`` shows a byte bar for
    sources of 20 MB or more.
    """
    label = source_label(path, member)
    vocab = _Vocabulary()
    with open_source(path, member) as (stream, total, tell):
        show = progress and total >= _PROGRESS_MIN_BYTES
        with progress_bar(total, desc=f"reading {Path(label).name}", unit="B", enabled=show, leave=True,
                          unit_scale=True) as bar:
            position = 0  # bytes shown so far: tell() where the stream has one, else the sum of n_bytes
            for raw_words, block, n_bytes in iter_chunks(stream, label, fmt, dim, zero_vectors=zero_vectors):
                keep = vocab.add(raw_words)
                sink.write(block if keep is None else block[keep])
                if show:
                    new = tell() if tell is not None else position + n_bytes
                    bar.update(new - position)
                    position = new
    notes = vocab.warn(label)
    return vocab.words, vocab.index, {**vocab.stats(), "warnings": notes}


class _MemorySink:
    """Collects parsed chunks in memory."""

    def __init__(self):
        self.chunks: list[np.ndarray] = []
        self.dim = 0

    def write(self, block: np.ndarray) -> None:
        """Append rows."""
        self.dim = block.shape[1]
        self.chunks.append(block)

    def array(self) -> np.ndarray:
        """All rows as one float32 matrix."""
        if not self.chunks:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(self.chunks) == 1:
            block = self.chunks[0]
            return block if block.flags.writeable else block.copy()
        return np.concatenate(self.chunks)


class _Vocabulary:
    """Words accumulated while parsing: decoding, first-occurrence de-duplication and counts."""

    def __init__(self):
        self.words: list[str] = []
        self.index: dict[str, int] = {}
        self.duplicates: list[str] = []
        self.n_invalid = 0
        self.multi_token: list[str] = []

    def _decode(self, raw_words: list[bytes]) -> list[str]:
        """UTF-8 decode (in one call when possible; invalid bytes become U+FFFD and are counted)."""
        try:
            return b"\n".join(raw_words).decode("utf-8").split("\n") if raw_words else []
        except UnicodeDecodeError:
            decoded = []
            for raw in raw_words:
                try:
                    decoded.append(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    decoded.append(raw.decode("utf-8", errors="replace"))
                    self.n_invalid += 1
            return decoded

    def add(self, raw_words: list[bytes]) -> np.ndarray | None:
        """Add a chunk of words; returns a boolean mask of rows to keep, or ``None`` to keep all."""
        decoded = self._decode(raw_words)
        if any(" " in w for w in decoded) if decoded else False:
            self.multi_token.extend(w for w in decoded if " " in w)
        start = len(self.words)
        if len(set(decoded)) == len(decoded) and self.index.keys().isdisjoint(decoded):
            self.index.update(zip(decoded, range(start, start + len(decoded))))
            self.words.extend(decoded)
            return None
        keep = np.ones(len(decoded), dtype=bool)
        for i, word in enumerate(decoded):
            if word in self.index:
                self.duplicates.append(word)
                keep[i] = False
            else:
                self.index[word] = len(self.words)
                self.words.append(word)
        return keep

    def stats(self) -> dict[str, int]:
        """Counts recorded in meta.json."""
        return {
            "duplicates_dropped": len(self.duplicates),
            "words_with_spaces": len(self.multi_token),
            "invalid_utf8_words": self.n_invalid,
        }

    def notes(self, label: str) -> list[dict[str, str]]:
        """The warnings this parse gives (repeated words, invalid UTF-8), as ``{"category", "message"}``: issued
        by :func:`parse_into` and recorded in a cache's meta.json, so that every later load from the cache gives
        them again (:func:`replay_notes`)."""
        notes = []
        if self.duplicates:
            shown = ", ".join(repr(w) for w in self.duplicates[:10])
            more = ", ..." if len(self.duplicates) > 10 else ""
            notes.append({"category": "DuplicateWordsWarning",
                          "message": f"{label}: {len(self.duplicates)} repeated word(s) ({shown}{more}); "
                                     "kept the first occurrence of each"})
        if self.n_invalid:
            notes.append({"category": "UserWarning",
                          "message": f"{label}: {self.n_invalid} word(s) with invalid UTF-8, decoded with U+FFFD"})
        return notes

    def warn(self, label: str) -> list[dict[str, str]]:
        """Issue the warnings (duplicates, invalid UTF-8), log words containing spaces; returns the notes."""
        notes = self.notes(label)
        replay_notes(notes)
        if self.multi_token:
            log.info("%s: %d word(s) contain spaces, e.g. %s", label, len(self.multi_token), self.multi_token[:5])
        return notes


_NOTE_CATEGORIES = {"DuplicateWordsWarning": DuplicateWordsWarning, "UserWarning": UserWarning}


def replay_notes(notes) -> None:
    """Issue recorded parse warnings (:meth:`_Vocabulary.notes`) again, with the same category and message as
    when the source was parsed, attributed to the user's line (:func:`wordbias.core.lookup.warn_user`): a load
    from the cache warns exactly as the first load did."""
    for note in notes or ():
        if isinstance(note, dict) and isinstance(note.get("message"), str):
            category = _NOTE_CATEGORIES.get(note.get("category"), WordbiasWarning)
            warn_user(category(note["message"]))
