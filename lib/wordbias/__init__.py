"""wordbias: reproducible measurement of social bias in word embeddings and masked language models.

The package says what kind of thing lives where:

- :mod:`wordbias.core`        shared machinery: paths, word lookup, the permutation engine, progress, caches
- :mod:`wordbias.embeddings`  loading embeddings (bundled GloVe 6B 50d, the Caliskan GloVe 840B subset, a
                              user's own files) as gensim ``KeyedVectors``, with a registry and a cache
- :mod:`wordbias.measures`    the bias measures: WEAT, WEFAT, directions, hard debiasing, UBE, MLM scores, topics
- :mod:`wordbias.models`      contextual encoders and masked LMs, the GAP classifier
- :mod:`wordbias.datasets`    word lists, names and the GAP data set shipped under ``data/``
- :mod:`wordbias.papers`      one module per paper: the tables and figures its notebook shows

Examples
--------
>>> import numpy as np
>>> from wordbias import embeddings
>>> from wordbias.measures import weat
>>> kv = embeddings.to_keyed_vectors(["rose", "tulip", "ant", "wasp", "love", "hate"],
...     np.array([[1, 0.1], [0.9, 0.2], [0.1, 1], [0.2, 0.9], [1, 0], [0, 1]]))
>>> round(weat.weat(kv, ["rose", "tulip"], ["ant", "wasp"], ["love"], ["hate"]).effect_size, 3)
1.726
"""

__version__ = "0.1.0"
