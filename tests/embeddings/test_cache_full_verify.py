"""An embedding cache is verified whole: a changed byte anywhere in ``vectors.npy`` (header, first, middle or last
block, where the sampled check does not look), in ``vocab.txt`` or in ``vocab_index.npy`` is found -- a
CacheError when the cache is opened directly, a rebuild with CacheRebuiltWarning when it is loaded from its
source. The matrix is hashed once per process (per version of the file), in blocks, in parallel; caches of
version 3 (one hash of the whole matrix) are still verified and served."""
from __future__ import annotations

import functools
import json
import os
import re
import time

import numpy as np
import pytest

from wordbias import embeddings as E
from wordbias.core.errors import CacheError, CacheRebuiltWarning
from wordbias.embeddings import cache as embedding_cache
from wordbias.embeddings import cache_format as cf

ROWS, DIM = 6_000, 64                 # a 1.5 MB matrix: more than the 1 MiB the sampled check reads
BLOCK = 256 << 10                     # blocks of 256 KiB in these tests (16 MiB in use): 6 blocks
WHERE = {"first": 0, "middle": 3, "last": -1}


@pytest.fixture(autouse=True)
def _small_blocks(monkeypatch):
    monkeypatch.setattr(cf, "BLOCK_BYTES", BLOCK)
    monkeypatch.setattr(cf, "_VERIFIED", {})


def matrix(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((ROWS, DIM)).astype(np.float32)


def words() -> list[str]:
    return [f"w{i}" for i in range(ROWS)]


def saved(tmp_path, name="c"):
    return E.save(E.to_keyed_vectors(words(), matrix()), tmp_path / name)


@functools.cache
def _glove_text() -> str:
    """The matrix as GloVe text (composed once: it is the same for every test)."""
    return "".join(w + " " + " ".join(repr(float(x)) for x in row) + "\n" for w, row in zip(words(), matrix()))


def source(tmp_path):
    """A GloVe text file of the matrix, loaded once (its cache built)."""
    path = tmp_path / "v.txt"
    path.write_text(_glove_text())
    E.load(path, progress=False)
    return path, E.cache_dir_for(path), matrix()


def data_start(folder) -> int:
    with open(folder / "vectors.npy", "rb") as f:
        cf.read_npy_header(f)
        return f.tell()


def unsampled_offset(folder, block: int) -> int:
    """A byte of matrix block ``block`` (an index, -1 the last) that none of the sampled windows reads."""
    start, size = data_start(folder), (folder / "vectors.npy").stat().st_size
    length = size - start
    step = (length - cf.SAMPLE_BYTES) / (cf.SAMPLE_BLOCKS - 1)
    windows = [(start + round(i * step), start + round(i * step) + cf.SAMPLE_BYTES) for i in range(cf.SAMPLE_BLOCKS)]
    n_blocks = -(-length // BLOCK)
    b = block % n_blocks
    lo, hi = start + b * BLOCK, min(start + (b + 1) * BLOCK, size)
    for offset in range(lo, hi, 997):
        if not any(a <= offset < z for a, z in windows):
            return offset
    raise AssertionError("no unsampled byte in the block")


def flip(path, offset: int, *, keep_mtime: bool = False) -> None:
    """Change one byte in place (same size, same inode), optionally restoring the modification time."""
    st = path.stat()
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)
        f.seek(offset)
        f.write(bytes([byte[0] ^ 0x01]))
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def sample_still_matches(folder) -> bool:
    """Whether the sampled check alone would pass (the change is where only the whole-matrix check looks)."""
    meta = json.loads((folder / "meta.json").read_text())
    with open(folder / "vectors.npy", "rb") as f:
        return cf.sample_sha256(f, data_start(folder), os.fstat(f.fileno()).st_size) == \
            meta["checksums"]["vectors_sample_sha256"]


@pytest.fixture
def hashed(monkeypatch):
    """Counts the blocks hashed by the whole-matrix check."""
    calls = []
    real = cf.range_sha256
    monkeypatch.setattr(cf, "range_sha256", lambda *a: calls.append(a) or real(*a))
    return calls


# ------------------------------------------------------------------------------------------ the matrix

@pytest.mark.parametrize("where", WHERE)
def test_a_changed_byte_in_any_block_is_a_cache_error(tmp_path, where):
    folder = saved(tmp_path)
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["wordbias_cache_version"] == 4 and len(meta["checksums"]["vectors_blocks_sha256"]) == 6
    E.open_cache(folder)
    offset = unsampled_offset(folder, WHERE[where])
    flip(folder / "vectors.npy", offset)
    assert sample_still_matches(folder)          # the sampled check alone would serve it
    row = (offset - data_start(folder)) // (4 * DIM)
    with pytest.raises(CacheError, match=r"vectors\.npy: matrix bytes [\d,]+ to [\d,]+ \(rows ([\d,]+) to ([\d,]+)\) "
                                         r"differ from meta\.json's checksum \(damaged or edited\)") as err:
        E.open_cache(folder)
    first, last = (int(x.replace(",", "")) for x in re.search(r"rows ([\d,]+) to ([\d,]+)", str(err.value)).groups())
    assert first <= row <= last                  # the rows named hold the changed byte


@pytest.mark.parametrize("where", WHERE)
def test_a_changed_byte_in_any_block_rebuilds_the_cache_from_its_source(tmp_path, where):
    path, folder, m = source(tmp_path)
    flip(folder / "vectors.npy", unsampled_offset(folder, WHERE[where]), keep_mtime=True)
    assert sample_still_matches(folder)
    with pytest.warns(CacheRebuiltWarning, match=r"matrix bytes .* differ from meta\.json's checksum.*rebuilding"):
        kv = E.load(path, progress=False)
    np.testing.assert_array_equal(np.asarray(kv.vectors), m)
    cf.verify(folder, full=True)                 # the rebuilt cache is whole again


def test_a_changed_byte_in_the_npy_header_is_found(tmp_path):
    folder = saved(tmp_path)
    header = (folder / "vectors.npy").read_bytes()[:data_start(folder)]
    pad = header.rindex(b" ")                    # a padding space: the header still parses, with the same shape
    with open(folder / "vectors.npy", "r+b") as f:
        f.seek(pad)
        f.write(b"\t")
    with pytest.raises(CacheError, match=r"vectors\.npy: the \.npy header's bytes differ from meta\.json"):
        E.open_cache(folder)


def test_an_edit_that_restores_size_and_mtime_after_a_verified_open_is_found(tmp_path, monkeypatch):
    monkeypatch.setattr(cf, "RACY_SECONDS", 0.2)
    folder = saved(tmp_path)
    time.sleep(0.3)
    E.open_cache(folder)                         # verified and remembered
    flip(folder / "vectors.npy", unsampled_offset(folder, 2), keep_mtime=True)
    with pytest.raises(CacheError, match=r"matrix bytes .* differ"):
        E.open_cache(folder)


def test_the_matrix_is_hashed_once_per_process(tmp_path, monkeypatch, hashed):
    monkeypatch.setattr(cf, "RACY_SECONDS", 0.2)
    folder = saved(tmp_path)
    time.sleep(0.3)
    E.open_cache(folder)
    assert len(hashed) == 6                      # every block, once
    E.open_cache(folder)
    cf.verify(folder)
    assert len(hashed) == 6                      # remembered: not hashed again
    E.open_cache(folder, verify="full")
    cf.verify(folder, full=True)
    assert len(hashed) == 18                     # "full" hashes again, whatever the memo says


def test_a_file_written_just_before_its_check_is_checked_again(tmp_path, hashed):
    """Within RACY_SECONDS of a write a second write could keep every time stamp: not remembered."""
    folder = saved(tmp_path)
    E.open_cache(folder)
    E.open_cache(folder)
    assert len(hashed) == 12


@pytest.mark.parametrize("workers", ["1", "3"])
def test_the_same_block_is_named_whatever_the_number_of_workers(tmp_path, monkeypatch, workers):
    monkeypatch.setenv("WORDBIAS_WORKERS", workers)
    folder = saved(tmp_path)
    flip(folder / "vectors.npy", unsampled_offset(folder, 4))
    flip(folder / "vectors.npy", unsampled_offset(folder, 1))
    with pytest.raises(CacheError, match=r"matrix bytes 262,144 to 524,287 \(rows 1,024 to 2,047\) differ .*; "
                                         r"1 more block\(s\) differ"):
        E.open_cache(folder)


def test_block_checksums_that_do_not_fit_the_matrix_are_refused(tmp_path):
    folder = saved(tmp_path)
    meta = json.loads((folder / "meta.json").read_text())
    meta["checksums"]["vectors_blocks_sha256"].pop()
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CacheError, match=r"meta\.json: the matrix's block checksums do not fit its [\d,]+ bytes"):
        E.open_cache(folder)


def test_streamed_and_read_block_checksums_agree(tmp_path):
    """convert() hashes the rows as it writes them, save() reads the file: the same matrix, the same sums."""
    path, folder, m = source(tmp_path)
    other = E.save(E.to_keyed_vectors(words(), m), tmp_path / "saved")
    a, b = (json.loads((f / "meta.json").read_text())["checksums"] for f in (folder, other))
    for key in ("vectors_sha256", "vectors_blocks_sha256", "vectors_block_bytes", "vectors_header_sha256"):
        assert a[key] == b[key]


def test_a_damaged_cache_is_listed_as_not_valid(tmp_path):
    saved(tmp_path / "root", "good")
    bad = saved(tmp_path / "root", "bad")
    flip(bad / "vectors.npy", unsampled_offset(bad, 3))
    table = E.list_caches(tmp_path / "root").set_index("name")
    assert bool(table.loc["good", "valid"]) and not bool(table.loc["bad", "valid"])


# --------------------------------------------------------------------------------- the vocabulary files

@pytest.mark.parametrize("file", ["vocab.txt", "vocab_index.npy"])
@pytest.mark.parametrize("where", [0.0, 0.5, 1.0])
def test_a_changed_byte_anywhere_in_the_vocabulary_files_is_found(tmp_path, file, where):
    folder = saved(tmp_path)
    size = (folder / file).stat().st_size
    offset = min(int(where * size), size - 2)    # the last word's last letter, before vocab.txt's final newline
    flip(folder / file, offset)
    with pytest.raises(CacheError, match=rf"{file.replace('.', r'[.]')}: size or SHA-256 differs from meta\.json"):
        E.open_cache(folder)


# ----------------------------------------------------------------------------------- older cache versions

def as_version_3(folder) -> None:
    """Rewrite meta.json as a version-3 cache wrote it: one hash of the whole matrix, no blocks, no header hash."""
    meta = json.loads((folder / "meta.json").read_text())
    meta["wordbias_cache_version"] = 3
    for key in ("vectors_block_bytes", "vectors_blocks_sha256", "vectors_header_sha256"):
        del meta["checksums"][key]
    (folder / "meta.json").write_text(json.dumps(meta))


def test_a_version_3_cache_is_verified_whole(tmp_path):
    folder = saved(tmp_path)
    as_version_3(folder)
    E.open_cache(folder)
    flip(folder / "vectors.npy", unsampled_offset(folder, 3))
    assert sample_still_matches(folder)
    with pytest.raises(CacheError, match=r"vectors\.npy: the matrix's SHA-256 differs from meta\.json"):
        E.open_cache(folder)


def test_a_version_3_cache_of_a_source_is_served_then_rebuilt_when_damaged(tmp_path, monkeypatch):
    path, folder, m = source(tmp_path)
    as_version_3(folder)
    calls = []
    real = embedding_cache.convert
    monkeypatch.setattr(embedding_cache, "convert", lambda *a, **k: calls.append(a) or real(*a, **k))
    E.load(path, progress=False)
    assert calls == []                           # served as it is: no reparse of the source
    flip(folder / "vectors.npy", unsampled_offset(folder, 0))
    with pytest.warns(CacheRebuiltWarning, match=r"the matrix's SHA-256 differs"):
        kv = E.load(path, progress=False)
    assert len(calls) == 1 and np.array_equal(np.asarray(kv.vectors), m)
    assert json.loads((folder / "meta.json").read_text())["wordbias_cache_version"] == 4


def test_open_cache_verify_values(tmp_path):
    folder = saved(tmp_path)
    for value in ("once", "full", "sample"):
        assert E.open_cache(folder, verify=value).index_to_key[:2] == ["w0", "w1"]
    with pytest.raises(ValueError, match=r"verify must be 'once' .* or 'full' .*; not 'fast'"):
        E.open_cache(folder, verify="fast")
