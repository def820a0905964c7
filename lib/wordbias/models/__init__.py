"""Models: contextual encoders and masked LMs (Hugging Face), the GAP classifier, a tiny planted masked LM.

- :mod:`~wordbias.models.contextual`  loading encoders / masked LMs, contextual word vectors, mask filling
- :mod:`~wordbias.models.mlp`         the stacked MLP ensemble of the GAP case study (Kurita et al. 2019, §4)
- :mod:`~wordbias.models.tiny_mlm`    a tiny BERT masked LM with a planted bias, for tests and offline runs
"""
