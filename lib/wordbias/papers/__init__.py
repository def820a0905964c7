"""One module per paper: the tables and figures its notebook shows, built from :mod:`wordbias.measures`.

- :mod:`~wordbias.papers.caliskan2017`         Tables 1-2 and Figures 1-3 (WEAT, WEFAT)
- :mod:`~wordbias.papers.swinger2019`          UBE's group tables, significance summary, crowd-study tasks
- :mod:`~wordbias.papers.kurita2019`           Tables 3 and 5 (WEAT on embeddings and BERT, MLM bias scores)
- :mod:`~wordbias.papers.kurita2019_gap`       the GAP case study (Tables 4 and 6, §4)
- :mod:`~wordbias.papers.racial_bias_report`   the report's direction tests, Table 1 and figure
"""
