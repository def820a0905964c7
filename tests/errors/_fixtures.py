"""Small embeddings shared by the word-list and measure catalogues."""
import numpy as np

from wordbias.embeddings import to_keyed_vectors

WORDS = ["rose", "tulip", "daisy", "lily", "iris", "poppy", "aster", "lotus",
         "ant", "wasp", "flea", "moth", "love", "peace", "joy", "hate", "war", "grief", "she", "he", "her", "his"]


def small_kv(extra: dict | None = None, lower: bool = False):
    """A seeded 6-d embedding of :data:`WORDS` (flowers near 'love', insects near 'hate'), plus ``extra``."""
    rng = np.random.default_rng(0)
    V = rng.normal(size=(len(WORDS), 6))
    V[:8, 0] += 2
    V[8:12, 0] -= 2
    V[12:15, 0] += 2
    V[15:18, 0] -= 2
    words = list(WORDS)
    if extra:
        words += list(extra)
        V = np.vstack([V, np.array(list(extra.values()), dtype=float)])
    if lower:
        words = [w.lower() for w in words]
    return to_keyed_vectors(words, V.astype(np.float32))


FLOWERS = ["rose", "tulip", "daisy", "lily"]
INSECTS = ["ant", "wasp", "flea", "moth"]
PLEASANT = ["love", "peace", "joy"]
UNPLEASANT = ["hate", "war", "grief"]
