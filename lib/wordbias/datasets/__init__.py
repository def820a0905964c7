"""Data sets shipped under ``data/``, each with its provenance.

- :mod:`~wordbias.datasets.stimuli`  the papers' word lists, templates and reported numbers (``data/stimuli``)
- :mod:`~wordbias.datasets.names`    first names and surnames with counts and demographics (Swinger et al. 2019)
- :mod:`~wordbias.datasets.gap`      the GAP coreference data set and its contextual features
"""
