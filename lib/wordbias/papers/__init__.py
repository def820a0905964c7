"""One module per paper: the tables and figures its notebook shows beside the paper's numbers, as views of results
measured once by :mod:`wordbias.measures`.

- :mod:`~wordbias.papers.caliskan2017`         Tables 1-2 and Figures 1-3 (WEAT, WEFAT)
- :mod:`~wordbias.papers.swinger2019`          UBE's group tables, significance summary, crowd-study tasks
- :mod:`~wordbias.papers.kurita2019`           Table 3 (WEAT on embeddings and BERT, MLM bias scores); the template
                                               spread in kurita2019_templates, Table 5 in kurita2019_table5
- :mod:`~wordbias.papers.kurita2019_gap`       the GAP case study (Tables 4 and 6, §4)
- :mod:`~wordbias.papers.racial_bias_report`   the report's direction tests, Table 1 and figure
- :mod:`~wordbias.papers.lesson_views`         committed results as lesson tables (until they join their paper)
"""
