"""wordbias: reproducible measurement of social bias in word embeddings and language models.

Modules, one per concept:

- :mod:`wordbias.embeddings`  loading embeddings (bundled GloVe 6B 50d, the Caliskan GloVe 840B subset,
  and the papers' full embeddings from a user folder) as gensim ``KeyedVectors``.
- :mod:`wordbias.stimuli`     word lists and paper-reported numbers stored under ``data/stimuli``.
- :mod:`wordbias.weat`        the Word Embedding Association Test (Caliskan et al. 2017, Methods).
- :mod:`wordbias.wefat`       the Word Embedding Factual Association Test (Caliskan et al. 2017, Methods).
- :mod:`wordbias.stats`       permutation tests and p-value helpers shared by the tests.
- :mod:`wordbias.plots`       the papers' figures.
"""

__version__ = "0.1.0"
