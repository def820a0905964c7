"""wordbias: reproducible measurement of social bias in word embeddings and masked language models.

The package says what kind of thing lives where:

- :mod:`wordbias.core`: shared machinery: paths, word lookup, the tidy schema, progress, caches
- :mod:`wordbias.stats`: the statistics below the measures: the permutation engine, the bootstrap, Holm and BH
- :mod:`wordbias.result`, :mod:`wordbias.catalogue`, :mod:`wordbias.options`: the one result every measure
  returns, what each measure is (range, "no bias", test), and the options they share (``Resampling``, ``Words``)
- :mod:`wordbias.embeddings`: loading embeddings (bundled GloVe 6B 50d, the Caliskan GloVe 840B subset, a
  user's own files) as gensim ``KeyedVectors``, with a registry and a cache
- :mod:`wordbias.measures`: the bias measures by family: WEAT-like tests, directions, set measures, UBE,
  language-model scores, debiasing, diagnostics; one measure on every training run (``on_runs``)
- :mod:`wordbias.models`: contextual encoders and masked LMs, the GAP classifier
- :mod:`wordbias.datasets`: word lists, names and the GAP data set shipped under ``data/``
- :mod:`wordbias.battery`: measured tests as tidy tables; the reports and comparisons of the ``wordbias`` command
- :mod:`wordbias.teaching`: the lessons' self-checks, the WEAT explorer, the student versions and the answer key
- :mod:`wordbias.papers`: one module per paper: the tables and figures its notebook shows

The two calls most researchers need are at the top: ``wordbias.load`` (:func:`wordbias.embeddings.load`: a
registered name, a path in any supported format, a gensim ``KeyedVectors`` or model, a word -> vector mapping)
and ``wordbias.weat`` (:func:`wordbias.measures.association.measurement.weat`: d with its interval, p one- and two-sided, the
words used and dropped, in one call).

Examples
--------
>>> import wordbias as wb
>>> r = wb.weat({"rose": [1, .1], "tulip": [.9, .3], "lily": [.8, .2], "daisy": [.9, .1], "ant": [.1, 1],
...              "wasp": [.2, .8], "moth": [.3, .9], "flea": [.2, 1], "love": [1, 0], "joy": [.9, .1],
...              "peace": [.8, .1], "cheer": [1, .2], "hate": [0, 1], "ugly": [.1, .9], "war": [.1, 1],
...              "grief": [.2, .9]},
...             ["rose", "tulip", "lily", "daisy"], ["ant", "wasp", "moth", "flea"],
...             ["love", "joy", "peace", "cheer"], ["hate", "ugly", "war", "grief"],
...             resampling=wb.Resampling(n_resamples=2000))
>>> round(r.effect_size, 2), (round(r.ci_low, 2), round(r.ci_high, 2)), r.p_method, round(r.p_value, 4)
(1.85, (1.84, 1.86), 'exact', 0.0143)
>>> import numpy as np
>>> from wordbias import embeddings
>>> from wordbias.measures.association import weat
>>> kv = embeddings.to_keyed_vectors(["rose", "tulip", "ant", "wasp", "love", "hate"],
...     np.array([[1, 0.1], [0.9, 0.2], [0.1, 1], [0.2, 0.9], [1, 0], [0, 1]]))
>>> round(weat.weat(kv, ["rose", "tulip"], ["ant", "wasp"], ["love"], ["hate"]).effect_size, 3)
1.726
"""

__version__ = "0.1.0"

__all__ = ["load", "weat", "wefat", "on_runs", "Resampling", "Words", "Result", "__version__"]


def __getattr__(name):
    """``wordbias.load``, ``wordbias.weat``, ``wordbias.wefat``, ``wordbias.on_runs`` and the shared ``Resampling``,
    ``Words`` and ``Result``, imported on first use (``import wordbias`` stays light)."""
    if name == "load":
        from wordbias.embeddings import load

        return load
    if name in ("weat", "wefat"):
        from wordbias.measures.association import measurement

        return getattr(measurement, name)
    if name == "on_runs":
        from wordbias.measures.ensemble import on_runs
        return on_runs
    if name in ("Resampling", "Words"):
        from wordbias import options
        return getattr(options, name)
    if name == "Result":
        from wordbias.result import Result
        return Result
    raise AttributeError(f"module 'wordbias' has no attribute {name!r}")
