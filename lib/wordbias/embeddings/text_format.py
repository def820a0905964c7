"""The text formats (``glove``, ``word2vec-text``, ``fasttext-vec``: one vector per line): a stream of lines parsed
into chunks ``(raw_words, float32 block, n_bytes)`` (:func:`iter_text`; the formats are described in
:func:`wordbias.embeddings.formats.iter_chunks`). Errors name the file and the 1-based line at fault.

Also here, as the binary parser (:mod:`wordbias.embeddings.binary_format`) shares them: the header line
``<count> <dim>`` (:func:`parse_header`, :func:`check_header_dim`; a text line in both), the check of a parsed
block's rows (:func:`first_bad_row`), and how a message shows raw bytes (:func:`preview`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np

from wordbias.core.errors import EmbeddingFormatError

_MAX_LINE_BYTES = 1 << 26  # longest text line accepted
#: the largest dimension a header may announce
MAX_DIM = 1 << 20


# --------------------------------------------------------------------------------------------------
# the header line and the checks both parsers share
# --------------------------------------------------------------------------------------------------


def check_header_dim(where: str, header_dim: int, dim: int | None) -> None:
    """A word2vec header's dimension: the one asked for (``dim``), and within 1 to ``MAX_DIM``."""
    if dim is not None and header_dim != dim:
        raise EmbeddingFormatError(f"{where}: header says dimension {header_dim}, expected {dim}")
    if not 0 < header_dim <= MAX_DIM:
        raise EmbeddingFormatError(f"{where}: header says dimension {header_dim}; expected 1 to {MAX_DIM}")


def parse_header(line: bytes) -> tuple[int, int] | None:
    """``(count, dim)`` if ``line`` is a word2vec header (two non-negative integers), else ``None``."""
    parts = line.split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def first_bad_row(block: np.ndarray, allow_zero: bool) -> tuple[int, str] | None:
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


def preview(line: bytes, n: int = 60) -> str:
    """A short repr of a line for error messages."""
    return repr(line[:n]) + ("..." if len(line) > n else "")


def is_number(field: bytes) -> bool:
    """Whether a whitespace-free field parses as a float (``1``, ``-0.5``, ``1e40``, ``nan``)."""
    try:
        float(field)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------------------------------
# lines to chunks
# --------------------------------------------------------------------------------------------------


def _iter_lines(stream, label: str, block_bytes: int) -> Iterator[tuple[list[bytes], int, int]]:
    """Read ``stream`` in blocks of ``block_bytes`` and yield ``(lines, first_line_number, n_bytes)``; lines lack
    ``\\n``."""
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


def iter_text(
    stream, label: str, fmt: str, dim: int | None, *, block_bytes: int, allow_zero: bool = False
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Yield ``(raw_words, float32 block, n_bytes)`` chunks of a GloVe / word2vec-text / fastText file, read in
    blocks of ``block_bytes``."""
    has_header = fmt != "glove"
    header_count = None
    n_vectors = 0
    for lines, first_no, n_bytes in _iter_lines(stream, label, block_bytes):
        if first_no == 1:
            if has_header:
                header = parse_header(lines[0])
                if header is None:
                    raise EmbeddingFormatError(
                        f"{label}, line 1: expected a header '<count> <dimension>' ({fmt} format), "
                        f"found {preview(lines[0])}"
                    )
                header_count, header_dim = header
                check_header_dim(f"{label}, line 1", header_dim, dim)
                dim = header_dim
                lines, first_no = lines[1:], 2
            elif dim != 1 and parse_header(lines[0]) is not None:
                raise EmbeddingFormatError(
                    f"{label}, line 1: looks like a word2vec header ({preview(lines[0])}) but the format is "
                    "'glove' (no header); use format='word2vec-text'"
                )
        if dim is None:
            dim = _first_line_dim(lines, label, first_no)
            if dim is None:
                continue
        if dim <= 0:
            raise EmbeddingFormatError(f"{label}, line 1: dimension must be positive, got {dim}")
        raw_words, block = _parse_text_chunk(lines, dim, first_no, label)
        bad = first_bad_row(block, allow_zero)
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


def _first_line_dim(lines: list[bytes], label: str, first_no: int) -> int | None:
    """The dimension of a headerless file: number of fields on the first non-blank line, minus one."""
    for offset, line in enumerate(lines):
        fields = line.split()
        if fields:
            if len(fields) < 2:
                raise EmbeddingFormatError(f"{label}, line {first_no + offset}: a word with no values ({preview(line)})")
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
            f"found {found} value{'s' if found != 1 else ''} ({preview(line)})"
        )
    word = parts[0].strip()
    extra = word.split()[1:]
    if extra and all(is_number(f) for f in extra):
        raise EmbeddingFormatError(
            f"{label}, line {line_no}: wrong number of values: expected a word and {dim} values, found "
            f"{dim + len(extra)} values ({preview(line)}); a header or first line gives the dimension {dim}"
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
            raise EmbeddingFormatError(f"{label}, line {line_no}: unparseable values ({preview(line)})") from None
    return word, values


def _diagnose_chunk(lines: list[bytes], dim: int, first_no: int, label: str) -> None:
    """Re-check lines one by one; raises the ValueError of the first malformed line."""
    for i, line in enumerate(lines):
        if line.endswith(b"\r"):
            line = line[:-1]
        _parse_line_slow(line, dim, first_no + i, label, check_values=True)
