"""UBE's rotational null on anisotropic embeddings: the numbers in docs/guide/your-embedding.md.

For each embedding given (a registered name or a path ``wordbias.embeddings.load`` reads): its anisotropy
(``wordbias.measures.enumeration.ube.anisotropy``: the mean cosine of 2,000 random word pairs, seed 0; near 0 when the words
point every way) and the report's UBE run
(``wordbias.battery.ube.first_names_row``, seed 0) on the embedding as it is and whitened (centred, rotated to its
principal axes and each axis scaled to unit variance, so that every direction varies alike: the situation the
rotational null's random rotations assume). Usage::

    python scripts/ube_anisotropy.py glove-6b-50d runs/brown2/runs/seed-1
"""
from __future__ import annotations

import sys
import warnings

import numpy as np

from wordbias import embeddings
from wordbias.battery.ube import first_names_row
from wordbias.measures.enumeration.ube import anisotropy


def whitened(kv):
    """The embedding centred, on its principal axes, each scaled to unit variance."""
    centred = kv.vectors.astype(np.float64) - kv.vectors.mean(axis=0)
    _, s, axes = np.linalg.svd(centred, full_matrices=False)
    return embeddings.to_keyed_vectors(list(kv.index_to_key),
                                       (centred @ axes.T / s * np.sqrt(len(centred))).astype(np.float32))


def main(names: list[str]) -> None:
    for name in names:
        kv = embeddings.load(name, progress=False)
        print(f"{name}: mean cosine of random word pairs {anisotropy(kv):.2f}")
        for label, emb in (("as it is", kv), ("whitened", whitened(kv))):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                row = first_names_row(emb, base={"embedding": label, "seed": 0}, seed=0, progress=False)
            print(f"  {label}: {row['note'].split('; ')[1]}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["glove-6b-50d"])
