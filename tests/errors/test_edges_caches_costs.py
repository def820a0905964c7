"""Catalogue cases of the families "caches and costs" and "foreign errors".

Caches and costs: an embedding cache is verified whole (a changed byte anywhere in ``vectors.npy`` -- its
header, near its start, middle or end, between the blocks the sampled check reads -- is a CacheError when the
cache is opened, a rebuild with CacheRebuiltWarning when it is loaded from its source; a version-3 cache is
checked against its whole-matrix SHA-256); checks on word lists take linear time (overlaps and duplicates of
30,000-word lists, in a WEAT, a lookup or a word-list file, are named within seconds: a pairwise check took
minutes).

Foreign errors: what reached the user in numpy's, SciPy's or pandas' words now is wordbias's own error --
``out=`` a read-only array (a loaded cache's matrix) in the debiasing methods, bootstraps that resample a
one-word set, a word -> vector mapping whose vectors differ in length, a case-folded WEFAT property whose keys
collide. Right answers (torch tensors that require grad converted, ``unit_normalize_all`` on a loaded
embedding) are plain tests at the end."""
from __future__ import annotations

import itertools
import json
import os
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from catalogue import Case, check

from wordbias import embeddings as E
from wordbias.core.errors import CacheError, CacheRebuiltWarning, DegenerateSetError, InvalidParameterError
from wordbias.embeddings import cache_format as cf
from wordbias.options import Resampling

F = "caches and costs"
G = "foreign errors"
ROWS, DIM = 6_000, 64  # a 1.5 MB matrix: the sampled check reads 1 MiB of it


# -------------------------------------------------------------------------------------------- caches

def _matrix() -> np.ndarray:
    return np.random.default_rng(0).standard_normal((ROWS, DIM)).astype(np.float32)


def _words() -> list[str]:
    return [f"w{i}" for i in range(ROWS)]


def _saved() -> Path:
    return E.save(E.to_keyed_vectors(_words(), _matrix()), Path(tempfile.mkdtemp(prefix="wb-cc-")) / "c")


def _source() -> Path:
    path = Path(tempfile.mkdtemp(prefix="wb-cc-")) / "v.txt"
    path.write_text("".join(w + " " + " ".join(repr(float(x)) for x in row) + "\n"
                            for w, row in zip(_words(), _matrix())))
    E.load(path, progress=False)
    return path


def _data_start(folder: Path) -> int:
    with open(folder / "vectors.npy", "rb") as f:
        cf.read_npy_header(f)
        return f.tell()


def _gap(folder: Path, where: float) -> int:
    """A byte of the matrix at about fraction ``where`` of it that none of the sampled windows reads."""
    start, size = _data_start(folder), (folder / "vectors.npy").stat().st_size
    step = (size - start - cf.SAMPLE_BYTES) / (cf.SAMPLE_BLOCKS - 1)
    windows = [(start + round(i * step), start + round(i * step) + cf.SAMPLE_BYTES) for i in range(cf.SAMPLE_BLOCKS)]
    for offset in range(start + int(where * (size - start - 1)), size) if where < 1 else range(size - 1, start, -1):
        if not any(a <= offset < z for a, z in windows):
            return offset
    for offset in range(size - 1, start, -1):
        if not any(a <= offset < z for a, z in windows):
            return offset
    raise AssertionError("no unsampled byte")


def _flip(path: Path, offset: int) -> None:
    """Change one byte in place, keeping the size and the modification time."""
    st = path.stat()
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)
        f.seek(offset)
        f.write(bytes([byte[0] ^ 0x01]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _opened(where: float, *, version_3: bool = False, open_first: bool = False):
    def call():
        folder = _saved()
        if version_3:
            meta = json.loads((folder / "meta.json").read_text())
            meta["wordbias_cache_version"] = 3
            for key in ("vectors_block_bytes", "vectors_blocks_sha256", "vectors_header_sha256"):
                del meta["checksums"][key]
            (folder / "meta.json").write_text(json.dumps(meta))
        if open_first:
            E.open_cache(folder)
        _flip(folder / "vectors.npy", _gap(folder, where))
        return E.load(folder)
    return call


def _rebuilt(where: float):
    def call():
        path = _source()
        folder = E.cache_dir_for(path)
        _flip(folder / "vectors.npy", _gap(folder, where))
        kv = E.load(path, progress=False)
        assert np.array_equal(np.asarray(kv.vectors), _matrix()), "wrong vectors served"
    return call


def _header_padding():
    folder = _saved()
    data = (folder / "vectors.npy").read_bytes()
    pad = data[:_data_start(folder)].rindex(b" ")
    with open(folder / "vectors.npy", "r+b") as f:  # a tab for a padding space: the header parses the same
        f.seek(pad)
        f.write(b"\t")
    return E.open_cache(folder)


CASES_CACHES = [
    Case(F, f"vectors.npy: one byte changed {label}, between the sampled blocks: open_cache", _opened(where),
         CacheError, match=r"vectors\.npy: matrix bytes [\d,]+ to [\d,]+ \(rows [\d,]+ to [\d,]+\) differ from "
                           r"meta\.json's checksum")
    for label, where in (("near the start", 0.02), ("in the middle", 0.5), ("near the end", 1.0))
] + [
    Case(F, f"vectors.npy: one byte changed {label}, mtime kept: load(source) rebuilds", _rebuilt(where),
         warning=CacheRebuiltWarning, match=r"matrix bytes .* differ from meta\.json's checksum.*rebuilding")
    for label, where in (("near the start", 0.02), ("in the middle", 0.5), ("near the end", 1.0))
] + [
    Case(F, "vectors.npy: one byte changed after a verified open, mtime kept", _opened(0.5, open_first=True),
         CacheError, match=r"matrix bytes .* differ"),
    Case(F, "version-3 cache: one byte changed in the middle", _opened(0.5, version_3=True), CacheError,
         match=r"vectors\.npy: the matrix's SHA-256 differs from meta\.json"),
    Case(F, "vectors.npy: a padding byte of the .npy header changed", _header_padding, CacheError,
         match=r"vectors\.npy: the \.npy header's bytes differ from meta\.json"),
]


# --------------------------------------------------------------------------------------------- costs

M = 30_000   # words per list: a pairwise check takes minutes, a linear one a fraction of a second
BUDGET = 8.0  # seconds, generous for a loaded 2-core machine


def _within(call, budget: float = BUDGET):
    """``call``, failing (not a clear error) when it takes longer than ``budget`` seconds, whatever it raised."""
    def timed():
        start = time.perf_counter()
        try:
            return call()
        finally:
            took = time.perf_counter() - start
            if took > budget:
                raise AssertionError(f"took {took:.1f} s, more than {budget} s: not linear in the list sizes")
    return timed


def _ws(prefix: str, n: int = M) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def _weat_overlap():
    from wordbias.measures.association import weat as W

    W.check_sets(_ws("x"), _ws("y")[:-1] + ["x123"], _ws("a"), _ws("b"))


def _wordbias_weat_overlap():
    import wordbias

    vocab = _ws("x") + _ws("y") + ["good", "bad"]
    kv = E.to_keyed_vectors(vocab, np.random.default_rng(1).normal(size=(len(vocab), 4)).astype(np.float32))
    wordbias.weat(kv, _ws("x"), _ws("y")[:-1] + ["x123"], ["good"], ["bad"])


def _duplicates():
    from wordbias.core.validation import check_words

    check_words("X", _ws("x", 2 * M) + _ws("x", 2 * M))


def _lookup_overlap():
    from wordbias.core import lookup

    lookup.set_vectors({"x0": [1.0]}, _ws("x"), _ws("y")[:-1] + ["x9"])


def _yaml(text: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="wb-cc-")) / "lists.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _lists_overlap():
    from wordbias.datasets.user_lists import read_user_lists

    x, y = ", ".join(_ws("x")), ", ".join(_ws("y")[:-1] + ["x77"])
    read_user_lists(_yaml(f"weat:\n  - id: big\n    targets: {{X: [{x}], Y: [{y}]}}\n"
                          f"    attributes: {{A: [good], B: [bad]}}\n"))


def _lists_property_extra():
    from wordbias.datasets.user_lists import read_user_lists

    w = ", ".join(_ws("w"))
    values = ", ".join(f"{v}: {i % 97}" for i, v in enumerate(_ws("w") + ["zz"]))
    read_user_lists(_yaml(f"wefat:\n  - id: big\n    targets: {{W: [{w}]}}\n    attributes: {{A: [good], B: [bad]}}\n"
                          f"    property: {{name: p, values: {{{values}}}}}\n"))


CASES_COSTS = [
    Case(F, f"WEAT check_sets: {M:,} + {M:,} target words sharing one", _within(_weat_overlap),
         InvalidParameterError, match=r"target sets X and Y share words: \['x123'\]"),
    Case(F, f"wordbias.weat: {M:,} + {M:,} target words sharing one", _within(_wordbias_weat_overlap),
         InvalidParameterError, match=r"share words: \['x123'\]"),
    Case(F, f"a list of {2 * M:,} words, each twice", _within(_duplicates), InvalidParameterError,
         match=r"X lists these words more than once: \['x0', 'x1', "),
    Case(F, f"lookup.set_vectors: {M:,} + {M:,} words sharing one", _within(_lookup_overlap), InvalidParameterError,
         match=r"the first set and the second set share words: \['x9'\]"),
    Case(F, f"word-list file: {M:,} + {M:,} target words sharing one", _within(_lists_overlap),
         InvalidParameterError, match=r"targets X and Y share words \['x77'\]"),
    Case(F, f"word-list file: a WEFAT property of {M:,} words with one not in W", _within(_lists_property_extra),
         InvalidParameterError, match=r"property\.values: must give one value per word of W; missing: \[\], not in "
                                      r"W: \['zz'\]"),
]


# ------------------------------------------------------------------------------------ foreign errors

GENDER = ["she", "he", "woman", "man", "her", "his", "girl", "boy"]


def _toy_cache():
    """A small embedding saved as a cache and opened from it: its matrix is a read-only memory map."""
    words = GENDER + ["".join(c) for c in itertools.product("bcdfg", "aeiou", "klmn")][:60]  # plain words
    V = np.random.default_rng(3).normal(size=(len(words), 6)).astype(np.float32)
    V[:8:2, 0] += 2.0
    V[1:8:2, 0] -= 2.0
    return E.open_cache(E.save(E.to_keyed_vectors(words, V), Path(tempfile.mkdtemp(prefix="wb-cc-")) / "toy"))


def _hard_debias_read_only():
    from wordbias.measures.debiasing.debias import hard_debias

    kv = _toy_cache()
    hard_debias(kv, [("she", "he"), ("woman", "man")], GENDER, [("girl", "boy")], out=kv.vectors)


def _hard_debias_glove_read_only():
    from wordbias.measures.debiasing.debias import hard_debias

    kv = E.load("glove-6b-50d")
    hard_debias(kv, [("she", "he"), ("woman", "man")], ["she", "he"], [], out=kv.vectors)


def _double_hard_read_only():
    from wordbias.measures.debiasing.double_hard import double_hard_debias

    kv = _toy_cache()
    from wordbias.measures.debiasing.double_hard import DoubleHardOptions

    double_hard_debias(kv, [("she", "he"), ("woman", "man")], GENDER, [("girl", "boy")],
                       options=DoubleHardOptions(n_biased=10, n_components=3), out=kv.vectors)


def _classes():
    return {"f": ["she", "woman", "her", "girl"], "m": ["he", "man", "his", "boy"]}


def _inlp_read_only():
    from wordbias.measures.debiasing.inlp import inlp_debias

    kv = _toy_cache()
    inlp_debias(kv, _classes(), n_iterations=1, out=kv.vectors)


def _leace_read_only():
    from wordbias.measures.debiasing.leace import leace_debias

    kv = _toy_cache()
    leace_debias(kv, _classes(), out=kv.vectors)


def _leace_apply_read_only():
    from wordbias.measures.debiasing.leace import leace_fit

    kv = _toy_cache()
    eraser = leace_fit(np.asarray(kv.vectors[:8], dtype=np.float64), [0, 1] * 4)
    eraser.apply(kv.vectors, out=kv.vectors)


def _hard_debias_out_list():
    from wordbias.measures.debiasing.debias import hard_debias

    kv = _toy_cache()
    hard_debias(kv, [("she", "he"), ("woman", "man")], GENDER, [], out=[[0.0] * 6] * 68)


READ_ONLY = r"out is a read-only array .*pass a writable array, e\.g\. out=np\.array\(kv\.vectors\)"

RNG = np.random.default_rng(5)
EMB = {w: RNG.normal(size=3) for w in ["nurse", "doctor", "teacher", "engineer", "she", "her", "he", "him"]}


def _bootstrap(which: str):
    from wordbias.measures.association import bootstrap as B
    from wordbias.measures.association import bootstrap_wefat as BW

    eye = np.eye(3)
    calls = {
        "weat_bootstrap_from_vectors, A of one word":
            lambda: B.weat_bootstrap_from_vectors(eye[:2], eye[1:], eye[:1], eye[1:], n_resamples=100),
        "weat_bootstrap_from_vectors, B of one word":
            lambda: B.weat_bootstrap_from_vectors(eye[:2], eye[1:], eye[:2], eye[2:], n_resamples=100),
        "weat_bootstrap on an embedding, A and B of one word":
            lambda: B.weat_bootstrap(EMB, ["nurse", "doctor"], ["teacher", "engineer"], ["she"], ["he"],
                                     resampling=Resampling(n_resamples=100)),
        "weat_bootstrap_from_cosines, n_a = 1":
            lambda: B.weat_bootstrap_from_cosines(np.random.default_rng(0).random((4, 3)), 2, 1, n_resamples=100),
        "wefat_bootstrap_from_vectors, A of one word":
            lambda: BW.wefat_bootstrap_from_vectors(np.random.default_rng(0).normal(size=(5, 3)), eye[:1], eye[1:],
                                                    [1.0, 2.0, 3.0, 4.0, 6.0], n_resamples=100),
    }
    return calls[which]


def _ragged(which: str):
    from wordbias.core import lookup
    from wordbias.measures.association import weat as W
    from wordbias.measures.association import wefat as WF

    odd = dict(EMB, doctor=np.ones(4))
    calls = {
        "weat: one target word of another length": lambda: W.weat(odd, ["nurse", "doctor"], ["teacher", "engineer"],
                                                                   ["she", "her"], ["he", "him"]),
        "wefat: one target word of another length": lambda: WF.wefat(odd, ["nurse", "doctor", "teacher"],
                                                                     ["she", "her"], ["he", "him"],
                                                                     {"nurse": 1.0, "doctor": 2.0, "teacher": 4.0}),
        "weat: the attribute sets of two lengths": lambda: W.weat(dict(EMB, he=np.ones(2), him=np.ones(2)),
                                                                  ["nurse", "doctor"], ["teacher", "engineer"],
                                                                  ["she", "her"], ["he", "him"]),
        "lookup.set_vectors: lists as vectors, one longer": lambda: lookup.set_vectors(
            {"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [1.0, 1.0, 1.0]}, ["a", "c"], ["b"]),
    }
    return calls[which]


def _wefat_collide(which: str):
    import wordbias
    from wordbias.measures.association import wefat as WF

    W, A, B = ["Nurse", "doctor", "teacher"], ["she", "her"], ["he", "him"]
    calls = {
        "dict, case_fold=True": lambda: WF.wefat(EMB, W, A, B, {"Nurse": 0.9, "nurse": 0.1, "doctor": 0.2,
                                                                 "teacher": 0.5}, case_fold=True),
        "Series, case_fold=True": lambda: WF.wefat(EMB, W, A, B, pd.Series({"NURSE": 0.9, "nurse": 0.1,
                                                                            "doctor": 0.2, "teacher": 0.5}),
                                                   case_fold=True),
        "wordbias.wefat on an uncased embedding (folded by default)": lambda: wordbias.wefat(EMB, W, A, B,
                                                                                             {"Nurse": 0.9, "nurse": 0.1, "doctor": 0.2, "teacher": 0.5},
                                                                                             resampling=Resampling(n_resamples=0)),
    }
    return calls[which]


def _series_repeated_label():
    from wordbias.measures.association import wefat as WF

    prop = pd.Series([0.9, 0.1, 0.2, 0.5], index=["nurse", "nurse", "doctor", "teacher"])
    WF.wefat(EMB, ["nurse", "doctor", "teacher"], ["she", "her"], ["he", "him"], prop)


CASES_FOREIGN_ERRORS = [
    Case(G, "hard_debias(out=the loaded cache's matrix)", _hard_debias_read_only, InvalidParameterError,
         match=READ_ONLY),
    Case(G, "hard_debias(out=glove-6b-50d's mapped matrix)", _hard_debias_glove_read_only, InvalidParameterError,
         match=READ_ONLY),
    Case(G, "double_hard_debias(out=the loaded cache's matrix)", _double_hard_read_only, InvalidParameterError,
         match=READ_ONLY),
    Case(G, "inlp_debias(out=the loaded cache's matrix)", _inlp_read_only, InvalidParameterError, match=READ_ONLY),
    Case(G, "leace_debias(out=the loaded cache's matrix)", _leace_read_only, InvalidParameterError, match=READ_ONLY),
    Case(G, "LeaceEraser.apply(X, out=a read-only matrix)", _leace_apply_read_only, InvalidParameterError,
         match=r"out is a read-only array"),
    Case(G, "hard_debias(out=a list)", _hard_debias_out_list, InvalidParameterError,
         match=r"out must be a float32 array of shape \(68, 6\), not list"),
] + [
    Case(G, f"bootstrap: {name}", _bootstrap(name), DegenerateSetError,
         match=rf"set {k} has 1 word: resampling it changes nothing \(leave it out of resample")
    for name, k in (("weat_bootstrap_from_vectors, A of one word", "A"),
                    ("weat_bootstrap_from_vectors, B of one word", "B"),
                    ("weat_bootstrap on an embedding, A and B of one word", "A"),
                    ("weat_bootstrap_from_cosines, n_a = 1", "A"),
                    ("wefat_bootstrap_from_vectors, A of one word", "A"))
] + [
    Case(G, f"ragged word->vector mapping, {name}", _ragged(name), InvalidParameterError,
         match=rf"the embedding's vectors have different lengths: most have \d values, but \{{{words}\}} "
               r"\(word: length\)")
    for name, words in (("weat: one target word of another length", "'doctor': 4"),
                        ("wefat: one target word of another length", "'doctor': 4"),
                        ("weat: the attribute sets of two lengths", "'he': 2, 'him': 2"),
                        ("lookup.set_vectors: lists as vectors, one longer", "'c': 3"))
] + [
    Case(G, "a mapping holding a number where a vector belongs", lambda: __import__(
        "wordbias.measures.association.weat", fromlist=["weat"]).weat(dict(EMB, doctor=5.0), ["nurse", "doctor"],
                                                          ["teacher", "engineer"], ["she", "her"], ["he", "him"]),
         InvalidParameterError, match=r"the vector of 'doctor' must be a vector of numbers \(1-D\)"),
] + [
    Case(G, f"WEFAT property keys colliding when folded, {name}", _wefat_collide(name), InvalidParameterError,
         match=r"prop's keys collide when lower-cased \(case_fold=True\): '(Nurse|NURSE)' and 'nurse' become "
               r"'nurse'")
    for name in ("dict, case_fold=True", "Series, case_fold=True",
                 "wordbias.wefat on an uncased embedding (folded by default)")
] + [
    Case(G, "WEFAT property: a Series with a word twice", _series_repeated_label, InvalidParameterError,
         match=r"prop gives these words more than once: \['nurse'\]"),
]


@pytest.mark.parametrize("case", CASES_CACHES + CASES_COSTS + CASES_FOREIGN_ERRORS, ids=lambda c: c.id)
def test_case(case):
    check(case)


# ------------------------------------------------------------------------------ right answers, not errors

def test_unit_normalize_all_on_a_loaded_cache_changes_a_copy_not_the_file():
    kv = _toy_cache()
    mapped = kv.vectors
    before = np.array(mapped)
    kv.unit_normalize_all()
    assert np.allclose(np.linalg.norm(kv.vectors, axis=1), 1, atol=1e-6)
    assert np.array_equal(np.asarray(mapped), before)          # the cache's file is untouched


def test_unit_normalize_all_and_replacing_vectors_on_glove_6b_50d():
    kv = E.load("glove-6b-50d")
    kv.unit_normalize_all()
    assert abs(float(np.linalg.norm(kv["the"])) - 1) < 1e-6
    kv["the"] = np.ones(50, dtype=np.float32)
    assert kv["the"][0] == 1 and E.load("glove-6b-50d")["the"][0] != 1


def test_hard_debias_in_place_on_a_writable_matrix_gives_the_same_result():
    from wordbias.measures.debiasing.debias import hard_debias

    kv = _toy_cache()
    args = ([("she", "he"), ("woman", "man")], GENDER[:4], [("girl", "boy")])
    expected, _ = hard_debias(kv, *args)
    mine = E.to_keyed_vectors(list(kv.index_to_key), np.array(kv.vectors))
    got, _ = hard_debias(mine, *args, out=mine.vectors, chunk_rows=5)
    assert got.vectors is mine.vectors and np.array_equal(got.vectors, expected.vectors)


def test_torch_tensors_that_require_grad_are_converted():
    torch = pytest.importorskip("torch")
    from wordbias.core.validation import as_float_array
    from wordbias.measures.association import weat as W

    t = torch.tensor([0.1, 0.2, 0.4], requires_grad=True)
    assert as_float_array("s", t).tolist() == pytest.approx([0.1, 0.2, 0.4])
    assert as_float_array("X", [t, t]).shape == (2, 3)
    emb = {w: torch.tensor(v, dtype=torch.float32, requires_grad=True) for w, v in EMB.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = W.weat(emb, ["nurse", "doctor"], ["teacher", "engineer"], ["she", "her"], ["he", "him"])
        plain = W.weat({w: t.detach().numpy() for w, t in emb.items()}, ["nurse", "doctor"], ["teacher", "engineer"],
                       ["she", "her"], ["he", "him"])
    assert r.effect_size == pytest.approx(plain.effect_size)
