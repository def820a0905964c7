"""The word2vec binary format: a header line ``<count> <dim>``, then per word its UTF-8 bytes, one space and
``dim`` little-endian float32 values (:func:`iter_binary`; the formats are described in
:func:`wordbias.embeddings.formats.iter_chunks`). A plain file is memory-mapped, a compressed stream read in
blocks; errors name the byte offset (in the uncompressed stream) of the record at fault.
"""

from __future__ import annotations

import io
import mmap
from collections.abc import Iterator

import numpy as np

from wordbias.core.errors import EmbeddingFormatError
from wordbias.embeddings.text_format import check_header_dim, first_bad_row, is_number, parse_header, preview

_MAX_WORD_BYTES = 1 << 16  # longest word accepted in a binary record


def looks_binary(sample: bytes) -> bool:
    """Whether bytes following a header look like binary float32 records rather than UTF-8 text."""
    if b"\x00" in sample:
        return True
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(sample) - 3  # a multi-byte character cut at the end of the sample is fine
    return False


def iter_binary(
    stream, label: str, dim: int | None, records_per_chunk: int = 20_000, *, block_bytes: int,
    allow_zero: bool = False
) -> Iterator[tuple[list[bytes], np.ndarray, int]]:
    """Yield ``(raw_words, float32 block, n_bytes)`` chunks of a word2vec binary file.

    Each record is ``word`` + ``b" "`` + ``dim`` little-endian float32; newlines before a word are skipped.
    Plain files are memory-mapped; compressed streams are read in blocks of ``block_bytes``. Errors name the
    byte offset (in the uncompressed stream) of the record at fault.
    """
    header_len, count, dim = _read_binary_header(stream, label, dim)
    if count == 0:
        raise EmbeddingFormatError(f"{label}, byte offset 0: no vectors: the header announces 0 words")
    source = _BinarySource(stream, header_len, record=4 * dim, max_word=_MAX_WORD_BYTES, block_bytes=block_bytes)
    try:
        _reject_text_records(source, label, dim)
        n_done = 0
        while n_done < count:
            start_offset = source.offset
            raw_words, payload = source.read_records(min(records_per_chunk, count - n_done), label, count, n_done)
            raw_words = _clean_binary_words(raw_words, label, start_offset)
            n_done += len(raw_words)
            block = np.frombuffer(b"".join(payload), dtype="<f4").reshape(len(raw_words), dim)
            bad = first_bad_row(block, allow_zero)
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


def _reject_text_records(source: _BinarySource, label: str, dim: int) -> None:
    """Raise if the first record after the header is a text line ``word v1 ... vD`` (a text file opened as
    ``word2vec-binary`` would otherwise give garbage vectors): ``dim`` numeric fields after the word."""
    if not source.eof:
        source.refill()
    sample = bytes(source.buf[source.pos : source.pos + 4 * dim + _MAX_WORD_BYTES]).lstrip(b"\n")
    line, newline, _ = sample.partition(b"\n")
    fields = line.split()
    if newline and len(fields) == dim + 1 and all(is_number(f) for f in fields[1:]):
        raise EmbeddingFormatError(
            f"{label}, byte offset {source.offset}: the file is text ({preview(line)}), not word2vec binary "
            "records; use format='word2vec-text' (or 'glove' without a header)"
        )


def _read_binary_header(stream, label: str, dim: int | None) -> tuple[int, int, int]:
    """Read the header line ``<count> <dim>``: returns ``(its length in bytes, count, dim)``."""
    header_line = stream.readline(1024)
    header = parse_header(header_line)
    if header is None or not header_line.endswith(b"\n"):
        raise EmbeddingFormatError(
            f"{label}, byte offset 0: expected a header line '<count> <dimension>', found {preview(header_line)}"
        )
    count, header_dim = header
    check_header_dim(f"{label}, byte offset 0", header_dim, dim)
    return len(header_line), count, header_dim


class _BinarySource:
    """The bytes of a word2vec binary file after its header, as a buffer read record by record.

    A plain file is memory-mapped whole (``eof`` from the start); a compressed stream is read in blocks of
    ``block_bytes`` (or one record, if larger), consumed bytes dropped at each refill. ``buf[pos]`` is the next
    unread byte and ``base`` the offset in the stream of ``buf[0]``, so ``offset`` (``base + pos``) is the stream
    offset that error messages name.
    """

    def __init__(self, stream, header_len: int, *, record: int, max_word: int, block_bytes: int):
        self.stream = stream
        self.block_bytes = block_bytes
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
        more = self.stream.read(max(self.block_bytes, self.record + self.max_word))
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
                        f"bytes after the start of a word ({preview(buf[pos : pos + 60])})"
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
            f"{label}, byte offset {offset}: truncated record: no space after the word ({preview(rest)})"
        )
    raise EmbeddingFormatError(
        f"{label}, byte offset {offset}: truncated binary record for word {rest[:space][:40]!r}: expected "
        f"{record} bytes of float32 values, found {len(rest) - space - 1}"
    )
