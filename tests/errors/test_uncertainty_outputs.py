"""Catalogue cases for the intervals and diagnostics, and for the battery's output folders and caches."""
import numpy as np
import pytest
from catalogue import CASES_UNCERTAINTY_REPORT_MLM, Case, check

from wordbias import embeddings as E
from wordbias.core.errors import InvalidParameterError, MissingWordsWarning
from wordbias.measures.diagnostics import frequency
from wordbias.papers import caliskan2017, outputs
from wordbias.papers import kurita2019_templates as kurita2019

F = "uncertainty and outputs"


def _kv(words):
    return E.to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 3)).astype(np.float32))


_WORDS = ["the", "good", "bad", "x1", "x2", "x3", "y1", "y2", "y3"]


def _specs():
    from wordbias.datasets import stimuli
    return stimuli.weat_tests("caliskan2017")[:1]


CASES_UNCERTAINTY_OUTPUTS = [
    Case(F, "weat_table n_resamples 1", lambda: caliskan2017.weat_table(_kv(_WORDS), _specs(), n_resamples=1),
         InvalidParameterError, match=r"n_resamples must be"),
    Case(F, "weat_table confidence_level 95", lambda: caliskan2017.weat_table(_kv(_WORDS), _specs(),
                                                                              confidence_level=95),
         InvalidParameterError, match=r"confidence_level must be"),
    Case(F, "reference_counts: no shared word", lambda: frequency.reference_counts(_kv(["zz"]), _kv(_WORDS)),
         InvalidParameterError, match=r"no word of the embedding is in the reference embedding"),
    Case(F, "frequency_diagnostics: source not a text", lambda: frequency.frequency_diagnostics(
         _kv(_WORDS), ["x1", "x2"], ["y1", "y2"], ["good"], ["bad"], counts={w: 1.0 for w in _WORDS}, source=3),
         InvalidParameterError, match=r"source must be a short text"),
    Case(F, "frequency_diagnostics: a target without a rank", lambda: frequency.frequency_diagnostics(
         _kv(_WORDS), ["x1", "x2", "x3"], ["y1", "y2"], ["good"], ["bad"],
         counts={w: 100.0 - i for i, w in enumerate(_WORDS) if w != "x3"}), warning=MissingWordsWarning,
         match=r"without a vector or a frequency rank \(counts\), dropped: \['x3'\]"),
    Case(F, "output_folders: unknown paper", lambda: outputs.output_folders("caliskan", "x"), InvalidParameterError,
         match=r"paper must be one of"),
    Case(F, "output_folders: a label with a slash", lambda: outputs.output_folders("caliskan2017", "../results"),
         InvalidParameterError, match=r"label must be a folder name"),
    Case(F, "load: cache_dir not a path", lambda: E.load("glove-840b-caliskan", cache_dir=3), InvalidParameterError,
         match=r"cache_dir must be a folder path or None, not int"),
    Case(F, "template_spread: templates as a string", lambda: kurita2019.template_spread(
         [[0.1, 0.2], [0.3, 0.1]], [[-0.1, 0.0], [0.0, -0.2]], templates="ab"), InvalidParameterError,
         match=r"not the string"),
    Case(F, "template_spread: one label for two templates", lambda: kurita2019.template_spread(
         [[0.1, 0.2], [0.3, 0.1]], [[-0.1, 0.0], [0.0, -0.2]], templates=["a"]), InvalidParameterError,
         match=r"one (row|label) per template"),
    Case(F, "template_spread: negative noise", lambda: kurita2019.template_spread(
         [[0.1, 0.2], [0.3, 0.1]], [[-0.1, 0.0], [0.0, -0.2]], templates=["a", "b"], noise=-1), InvalidParameterError,
         match=r"noise"),
    Case(F, "template_spread: alternative 'up'", lambda: kurita2019.template_spread(
         [[0.1, 0.2], [0.3, 0.1]], [[-0.1, 0.0], [0.0, -0.2]], templates=["a", "b"], alternative="up"),
         InvalidParameterError, match=r"alternative"),
    Case(F, "template_associations: a word without vectors", lambda: kurita2019.template_associations(
         {"x": np.ones((2, 3))}, ["x", "x2"], ["y"], ["a"], ["b"]), InvalidParameterError,
         match=r"no template vectors for"),
    Case(F, "clear_caches: a string for names", lambda: E.clear_caches("glove-840b-300d"), InvalidParameterError,
         match=r"names must be a list of cache names"),
]


@pytest.mark.parametrize("case", CASES_UNCERTAINTY_REPORT_MLM + CASES_UNCERTAINTY_OUTPUTS, ids=lambda c: c.id)
def test_case(case):
    check(case)
