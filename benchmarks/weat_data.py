"""Synthetic WEAT problems shared by the WEAT benchmark and the WEFE check, and the files they are
handed to WEFE in (WEFE runs in its own virtual environment with numpy 1.26 and cannot import wordbias).

A problem is a set of float32 word vectors (d = 300, seeded normal) for targets X = x0.., Y = y0.. and
attributes A = a0.., B = b0..; a unit direction u is added to A (+) and B (−) with weight ``attribute_shift``
and to X (+) and Y (−) with weight ``target_shift``, so X leans to A. Stored in a folder as
``vectors.npy`` (float32, one row per word) and ``words.json`` ({"words": [...], "X": [...], ...}).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def make_problem(n_target: int, n_attribute: int = 25, dim: int = 300, target_shift: float = 0.25,
                 attribute_shift: float = 1.0, seed: int = 0) -> tuple[np.ndarray, dict[str, list[str]]]:
    """(vectors, sets): ``vectors`` is (2·n_target + 2·n_attribute) × dim float32 in the order of
    ``sets["words"]``; ``sets`` also holds the lists X, Y, A, B."""
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(dim)
    u /= np.linalg.norm(u)
    sets = {"X": [f"x{i}" for i in range(n_target)], "Y": [f"y{i}" for i in range(n_target)],
            "A": [f"a{i}" for i in range(n_attribute)], "B": [f"b{i}" for i in range(n_attribute)]}
    shift = {"X": target_shift, "Y": -target_shift, "A": attribute_shift, "B": -attribute_shift}
    words, rows = [], []
    for name in "XYAB":
        v = rng.standard_normal((len(sets[name]), dim)) / np.sqrt(dim) + shift[name] * u
        words += sets[name]
        rows.append(v)
    sets["words"] = words
    return np.concatenate(rows).astype(np.float32), sets


def save_problem(folder: Path, vectors: np.ndarray, sets: dict[str, list[str]]) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / "vectors.npy", vectors)
    (folder / "words.json").write_text(json.dumps(sets), encoding="utf-8")
    return folder


def load_problem(folder: Path) -> tuple[np.ndarray, dict[str, list[str]]]:
    folder = Path(folder)
    return np.load(folder / "vectors.npy"), json.loads((folder / "words.json").read_text(encoding="utf-8"))


def keyed_vectors(vectors: np.ndarray, words: list[str]):
    """A gensim ``KeyedVectors`` holding ``vectors`` (both sides build the same one)."""
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=vectors.shape[1], count=len(words), dtype=np.float32)
    kv.add_vectors(words, vectors)
    return kv
