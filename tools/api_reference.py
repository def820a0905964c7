"""The public API: the modules the documentation's API reference shows, and the docstring rules they keep.

One list serves both the site (``docs/conf.py`` writes one reference page per group from it) and the test of the
docstrings (``tests/test_docstrings.py``). A module's public objects are the names in its ``__all__``, else the
public names it defines itself (not those it imports).
"""
from __future__ import annotations

import importlib
import inspect

#: (group title, modules, whether every public function must carry an Examples section that runs as a doctest)
GROUPS: list[tuple[str, list[str], bool]] = [
    ("Measuring: the one-call API", ["wordbias", "wordbias.measures.measurement"], True),
    ("Embeddings", ["wordbias.embeddings", "wordbias.embeddings.ensemble"], True),
    ("Measures", [
        "wordbias.measures.weat", "wordbias.measures.wefat", "wordbias.measures.bootstrap",
        "wordbias.measures.bootstrap_wefat", "wordbias.measures.bootstrap_direction", "wordbias.measures.resampling",
        "wordbias.measures.sensitivity", "wordbias.measures.frequency", "wordbias.measures.scweat",
        "wordbias.measures.ceat", "wordbias.measures.direction", "wordbias.measures.direction_permutation",
        "wordbias.measures.ripa", "wordbias.measures.debias", "wordbias.measures.double_hard",
        "wordbias.measures.inlp", "wordbias.measures.leace", "wordbias.measures.ube", "wordbias.measures.ube_null",
        "wordbias.measures.ube_words", "wordbias.measures.ube_names", "wordbias.measures.ube_result",
        "wordbias.measures.mlm", "wordbias.measures.contextual", "wordbias.measures.topics",
        "wordbias.measures.ensemble", "wordbias.measures.reliability", "wordbias.measures.ect",
        "wordbias.measures.rnd", "wordbias.measures.rnsb", "wordbias.measures.mac", "wordbias.measures.semaxis",
        "wordbias.measures.indirect_bias", "wordbias.measures.set_measures", "wordbias.measures.conventions",
        "wordbias.measures.seat", "wordbias.measures.debias_checks", "wordbias.measures.utility",
    ], True),
    ("Word lists and data sets", [
        "wordbias.datasets.stimuli", "wordbias.datasets.user_lists", "wordbias.datasets.names",
        "wordbias.datasets.casing", "wordbias.datasets.censor", "wordbias.datasets.contextual_tests",
        "wordbias.datasets.gap", "wordbias.datasets.corpora", "wordbias.datasets.seat", "wordbias.datasets.utility",
    ], True),
    ("Batteries, reports and comparisons", [
        "wordbias.battery.weat", "wordbias.battery.direction", "wordbias.battery.ube", "wordbias.battery.contextual",
        "wordbias.battery.report", "wordbias.battery.compare", "wordbias.battery.summary",
        "wordbias.battery.ensemble", "wordbias.battery.metrics", "wordbias.battery.seat", "wordbias.battery.debias",
    ], True),
    ("Statistics, tables and errors", [
        "wordbias.core.permutation", "wordbias.core.exact_count", "wordbias.core.montecarlo",
        "wordbias.core.multiple", "wordbias.core.tables", "wordbias.core.tidy", "wordbias.core.figures",
        "wordbias.core.errors", "wordbias.core.paths", "wordbias.core.progress", "wordbias.core.jobs",
    ], False),
    ("Models", ["wordbias.models.contextual", "wordbias.models.mlp", "wordbias.models.tiny_mlm",
                "wordbias.models.train", "wordbias.models.sentence", "wordbias.models.blas_inference"], False),
    ("Teaching", ["wordbias.teaching.checks", "wordbias.teaching.explorer", "wordbias.teaching.assign",
                  "wordbias.teaching.answer_key",
                  "wordbias.teaching.contextual"], False),
    ("The papers' tables and figures", [
        "wordbias.papers.caliskan2017", "wordbias.papers.swinger2019", "wordbias.papers.racial_bias_report",
        "wordbias.papers.kurita2019", "wordbias.papers.kurita2019_templates", "wordbias.papers.kurita2019_table5",
        "wordbias.papers.kurita2019_gap", "wordbias.papers.lesson_views", "wordbias.papers.outputs",
        "wordbias.papers.may2019", "wordbias.papers.debias2019",
    ], False),
]

MODULES = [m for _, modules, _ in GROUPS for m in modules]
EXAMPLES_REQUIRED = {m for _, modules, needed in GROUPS if needed for m in modules}


def public_names(module_name: str) -> list[str]:
    """The public objects of a module, in the order its ``__all__`` (else its source) gives them."""
    module = importlib.import_module(module_name)
    if hasattr(module, "__all__"):
        return [n for n in module.__all__ if not n.startswith("__")]
    names = []
    for name, obj in vars(module).items():
        if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if getattr(obj, "__module__", None) == module_name:
            names.append(name)
    return names
