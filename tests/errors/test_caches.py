"""Catalogue cases for the caches ("Data loss and integrity"): writable memory maps are refused
(they emptied or edited caches and the installed package's files); a damaged embedding cache is detected on
open (sizes, shape, dtype, checksums in meta.json) and rebuilt from its source with a warning, or, opened
directly, raises CacheError naming the file; the GAP feature and MLP seed-study caches warn and recompute.
Right answers (stale source with the same size and mtime, data intact after a refused mode) are plain tests."""
import json
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import pytest
from catalogue import Case, check

from wordbias import embeddings as E
from wordbias.core.errors import CacheError, CacheRebuiltWarning, InvalidParameterError

F = "caches"
WORDS = ["the", "of", "and", "to"]
MATRIX = np.arange(1, 13, dtype=np.float32).reshape(4, 3) / 10


def _source() -> Path:
    """A fresh GloVe text file with its cache built."""
    path = Path(tempfile.mkdtemp(prefix="wb-caches-")) / "v.txt"
    path.write_text("".join(w + " " + " ".join(f"{x:.1f}" for x in row) + "\n" for w, row in zip(WORDS, MATRIX)))
    E.load(path, progress=False)
    return path


def _damaged(damage):
    path = _source()
    damage(E.cache_dir_for(path))
    return path


def _rebuilds(damage):
    """Damage a cache, then load its source: must warn and return the right vectors."""
    def call():
        kv = E.load(_damaged(damage), progress=False)
        assert kv.index_to_key == WORDS and np.array_equal(np.asarray(kv.vectors), MATRIX), "wrong vectors"
    return call


def _opened(damage):
    """Damage a cache, then open the cache folder itself (no source to rebuild from)."""
    return lambda: E.load(E.cache_dir_for(_damaged(damage)), progress=False)


def _meta_list(d):
    (d / "meta.json").write_text("[1, 2]")


def _vocab_bad_utf8(d):
    (d / "vocab.txt").write_bytes(b"the\nof\n\xff\xfeand\nto\n")


def _truncate_vectors(d):
    (d / "vectors.npy").write_bytes((d / "vectors.npy").read_bytes()[:-8])


def _shift_vocab(d):
    (d / "vocab.txt").write_text("of\nand\nto\nthe\n")


def _zero_vectors(d):
    data = (d / "vectors.npy").read_bytes()
    (d / "vectors.npy").write_bytes(data[:128] + bytes(len(data) - 128))


def _swap_index_rows(d):
    """Swap the rows of the first two words in vocab_index.npy (each word would find the other's vector)."""
    index = np.load(d / "vocab_index.npy")
    index[1, [0, 1]] = index[1, [1, 0]]
    np.save(d / "vocab_index.npy", index)


def _no_index(d):
    (d / "vocab_index.npy").unlink()


def _no_meta(d):
    (d / "meta.json").unlink()


def _meta_bad_json(d):
    (d / "meta.json").write_text("{not json")


def _meta_shape(d):
    meta = json.loads((d / "meta.json").read_text())
    meta["shape"] = [5, 3]
    (d / "meta.json").write_text(json.dumps(meta))


def _gap_cache(damage):
    from wordbias.papers import kurita2019_gap as gap

    def call():
        path = Path(tempfile.mkdtemp()) / "tiny-dev-0.npz"
        if damage == "wrong shape":
            np.savez(path, features=np.zeros((2, 6), dtype=np.float32), key=np.array("k" * 64))
        else:
            np.savez(path, features=np.zeros((3, 6), dtype=np.float32), key=np.array("k" * 64))
            path.write_bytes(path.read_bytes()[:150])
        assert gap._read_features(path, "k" * 64, (3, 6)) is None
    return call


def _mlp_cache(damage):
    from wordbias.models import mlp

    def call():
        path = Path(tempfile.mkdtemp()) / "mlp-x.npz"
        arrays = dict(key=np.array("k"), seeds=np.array([1, 2]), proba=np.zeros((2, 4, 3)),
                      fold_val_log_loss=np.zeros(2), best_epochs=np.zeros((2, 5)), epochs_run=np.zeros((2, 5)))
        if damage == "wrong shape":
            arrays["proba"] = np.zeros((2, 3, 3))
        np.savez(path, **arrays)
        if damage == "truncated":
            path.write_bytes(path.read_bytes()[:150])
        assert mlp._read_study(path, "k", [1, 2], 4) is None
    return call


CASES_MMAP = [
    Case(F, f"load(path, mmap_mode={mode!r})", lambda mode=mode: E.load(_source(), mmap_mode=mode),
         InvalidParameterError, match=f"mmap_mode must be None .* or 'r' .*not {re.escape(repr(mode))}")
    for mode in ("w+", "r+", "c")
] + [
    Case(F, f"load('glove-6b-50d', mmap_mode={mode!r})", lambda mode=mode: E.load("glove-6b-50d", mmap_mode=mode),
         InvalidParameterError, match="writable maps .* the package's files")
    # not "w+" on the installed package: on code without the check (the catalogue can be run against such code)
    # that call empties the package's vector file; "r+" and "c" only write when written to
    for mode in ("r+", "c")
] + [
    Case(F, "load(cache folder, mmap_mode='w+')", lambda: E.load(E.cache_dir_for(_source()), mmap_mode="w+"),
         InvalidParameterError, match="mmap_mode"),
    Case(F, "open_cache(mmap_mode='r+')", lambda: E.open_cache(E.cache_dir_for(_source()), mmap_mode="r+"),
         InvalidParameterError, match="mmap_mode"),
]

_DAMAGES = [
    ("meta.json is a list", _meta_list, r"meta\.json: expected a JSON object, found a list"),
    ("meta.json is not JSON", _meta_bad_json, r"meta\.json: not valid JSON"),
    ("meta.json missing", _no_meta, r"meta\.json: missing"),
    ("meta.json shape edited", _meta_shape, r"vectors\.npy: shape \(4, 3\).*records \[5, 3\]"),
    ("vocab.txt with bad UTF-8", _vocab_bad_utf8, r"vocab\.txt: size or SHA-256 differs"),
    ("vocab.txt shifted by one line", _shift_vocab, r"vocab\.txt: size or SHA-256 differs"),
    ("vectors.npy truncated", _truncate_vectors, r"vectors\.npy: \d+ bytes, meta\.json records \d+ \(truncated"),
    ("vectors.npy replaced by zeros", _zero_vectors, r"vectors\.npy: the sampled matrix blocks differ"),
    ("vocab_index.npy rows swapped", _swap_index_rows, r"vocab_index\.npy: size or SHA-256 differs"),
]

CASES_EMBEDDING_CACHE = [
    Case(F, f"{name}: load(source) rebuilds", _rebuilds(damage), warning=CacheRebuiltWarning,
         match=match + ".*rebuilding the cache from")
    for name, damage, match in _DAMAGES
] + [
    Case(F, f"{name}: load(cache folder)", _opened(damage), CacheError, match=match)
    for name, damage, match in _DAMAGES
] + [
    Case(F, "vocab_index.npy missing: load(cache folder)", _opened(_no_index), CacheError,
         match=r"not a complete wordbias cache .*vocab_index\.npy"),
]

CASES_FEATURE_CACHES = [
    Case(F, "GAP feature cache: right key, wrong shape", _gap_cache("wrong shape"), warning=CacheRebuiltWarning,
         match=r"GAP feature cache .*shape \(2, 6\).*expected .*shape \(3, 6\).*recomputing"),
    Case(F, "GAP feature cache: truncated (BadZipFile)", _gap_cache("truncated"), warning=CacheRebuiltWarning,
         match=r"GAP feature cache .*unreadable \(BadZipFile.*recomputing"),
    Case(F, "MLP seed-study cache: right key, wrong shape", _mlp_cache("wrong shape"), warning=CacheRebuiltWarning,
         match=r"MLP seed-study cache .*proba of shape \(2, 3, 3\), expected \(2, 4, 3\)"),
    Case(F, "MLP seed-study cache: truncated", _mlp_cache("truncated"), warning=CacheRebuiltWarning,
         match=r"MLP seed-study cache .*unreadable"),
]


@pytest.mark.parametrize("case", CASES_MMAP + CASES_EMBEDDING_CACHE + CASES_FEATURE_CACHES, ids=lambda c: c.id)
def test_case(case):
    check(case)


def test_refused_modes_leave_the_cache_and_the_package_intact():
    path = _source()
    for mode in ("w+", "r+", "c"):
        with pytest.raises(InvalidParameterError):
            E.load(path, mmap_mode=mode)
    kv = E.load(path, progress=False)
    assert np.array_equal(np.asarray(kv.vectors), MATRIX)
    with pytest.raises(ValueError):  # the default map is read-only
        kv.vectors[0, 0] = 1
    glove = E.load("glove-6b-50d")
    assert not glove.vectors.flags.writeable  # the package's file is mapped read-only


def test_stale_source_with_same_size_and_restored_mtime_is_reparsed():
    path = _source()
    st = path.stat()
    text = path.read_text().replace("0.1 0.2", "0.2 0.1", 1)
    assert len(text) == st.st_size
    path.write_text(text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    kv = E.load(path, progress=False)
    assert kv["the"][0] == np.float32(0.2)


def test_a_rebuilt_cache_is_good_again():
    path = _damaged(_truncate_vectors)
    with pytest.warns(CacheRebuiltWarning):
        E.load(path, progress=False)
    E.cache_format.verify(E.cache_dir_for(path), full=True)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        E.load(path, progress=False)


def _big_source(tmp: Path, n_words: int = 60_000) -> Path:
    """A GloVe text file above the 8 MiB whole-hash limit (sampled hashing applies)."""
    rng = np.random.default_rng(0)
    rows = rng.normal(size=(n_words, 20)).round(4)
    path = tmp / "big.txt"
    path.write_text("".join(f"w{i} " + " ".join(f"{x:.4f}" for x in row) + "\n" for i, row in enumerate(rows)))
    assert path.stat().st_size > 8 << 20
    return path


def _edit_between_samples(path: Path) -> int:
    """Change one digit of a line that no sampled block of source_fingerprint covers, keeping the size and
    restoring the modification time; returns the edited line's word index."""
    from wordbias.embeddings import cache as C

    st = path.stat()
    data = bytearray(path.read_bytes())
    before = C.source_fingerprint(path, None)["content_sha256"]
    for word in range(30_000, 31_000):  # a line in the middle, found between the samples by trial
        at = data.index(f"\nw{word} ".encode()) + len(f"\nw{word} ")
        digit = at + data[at:].index(b".") + 1
        old = data[digit]
        data[digit] = ord("9") if old != ord("9") else ord("1")
        path.write_bytes(bytes(data))
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
        if C.source_fingerprint(path, None)["content_sha256"] == before:
            return word
        data[digit] = old
    raise AssertionError("no line between the samples")


def test_an_edit_between_the_samples_keeping_size_and_mtime_is_seen(tmp_path):
    """An edit that keeps the size and the modification time and falls between the sampled blocks is seen:
    the status-change time sends the load to the whole-file hash, so the stale cache is not served."""
    path = _big_source(tmp_path)
    first = E.load(path, cache_dir=tmp_path / "c", progress=False)
    old = np.array(first[f"w{30_000}"])
    word = _edit_between_samples(path)
    again = E.load(path, cache_dir=tmp_path / "c", progress=False)
    expected = np.array([float(x) for x in path.read_text().split("\n")[word].split()[1:]], dtype=np.float32)
    assert np.array_equal(np.asarray(again[f"w{word}"]), expected)
    assert word != 30_000 or not np.array_equal(old, expected)


def test_a_copied_source_with_the_same_content_is_not_reparsed(tmp_path):
    """cp -p keeps the mtime but not the inode or status-change time: the whole-file hash confirms the content,
    the cache is reused, and its record is refreshed so that the next load trusts the stat at once."""
    import shutil

    from wordbias.embeddings import cache_folders

    path = _big_source(tmp_path)
    E.load(path, cache_dir=tmp_path / "c", progress=False)
    folder = cache_folders.cache_dir_for(path, cache_dir=tmp_path / "c")
    vectors_mtime = (folder / "vectors.npy").stat().st_mtime_ns
    shutil.copy2(path, tmp_path / "copy.txt")
    os.replace(tmp_path / "copy.txt", path)  # a new inode, same bytes and mtime
    E.load(path, cache_dir=tmp_path / "c", progress=False)
    assert (folder / "vectors.npy").stat().st_mtime_ns == vectors_mtime  # not rebuilt
    assert json.loads((folder / "meta.json").read_text())["source"]["inode"] == path.stat().st_ino


def test_a_warning_of_the_first_load_is_given_on_every_later_load(tmp_path):
    """The repeated-words warning is given on every load, not only when the source is parsed."""
    from wordbias.core.errors import DuplicateWordsWarning

    path = tmp_path / "dup.txt"
    path.write_text("the 1 2\nof 3 4\nthe 5 6\n")
    messages = []
    for _ in range(3):
        with pytest.warns(DuplicateWordsWarning) as record:
            kv = E.load(path, cache_dir=tmp_path / "c", progress=False)
        messages.append([str(w.message) for w in record if w.category is DuplicateWordsWarning])
        assert kv.index_to_key == ["the", "of"]
    assert messages[0] == messages[1] == messages[2] and "1 repeated word(s) ('the')" in messages[0][0]
    with pytest.warns(DuplicateWordsWarning):  # the cache folder opened directly warns too
        E.load(E.cache_dir_for(path, cache_dir=tmp_path / "c"), progress=False)


def test_a_full_disk_while_writing_a_cache_names_the_cache_and_the_way_out(tmp_path, monkeypatch):
    """A full disk raises DiskFullError naming the cache and the way out, not a bare '[Errno 28] No space left on
    device' naming a temporary file."""
    import errno

    from wordbias.core.errors import DiskFullError
    from wordbias.embeddings import cache as C

    path = tmp_path / "v.txt"
    path.write_text("king 1.0 2.0\nqueen 2.0 1.0\n")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "c" / ".tmp-x" / "vocab.txt"))

    monkeypatch.setattr(C, "_write_vocab", full)
    with pytest.raises(DiskFullError, match=r"the cache .*v\.txt-\w+.*WORDBIAS_CACHE") as info:
        E.load(path, cache_dir=tmp_path / "c", progress=False)
    assert info.value.errno == errno.ENOSPC
    assert [p.name for p in (tmp_path / "c").iterdir()] == []  # the half-written folder is gone
