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
    ("Measuring: the one-call API, the one result, the catalogue, the options", [
        "wordbias", "wordbias.measures.association.measurement", "wordbias.result", "wordbias.catalogue",
        "wordbias.options"], True),
    ("Embeddings", ["wordbias.embeddings", "wordbias.embeddings.ensemble", "wordbias.embeddings.spacy_vectors"],
     True),
    ("Measures: WEAT-like tests", [
        "wordbias.measures.association.weat", "wordbias.measures.association.wefat",
        "wordbias.measures.association.bootstrap", "wordbias.measures.association.bootstrap_wefat",
        "wordbias.measures.association.scweat", "wordbias.measures.association.ceat",
        "wordbias.measures.association.conventions", "wordbias.measures.association.seat"], True),
    ("Measures: directions", [
        "wordbias.measures.directions.direction", "wordbias.measures.directions.direction_permutation",
        "wordbias.measures.directions.bootstrap_direction", "wordbias.measures.directions.ripa",
        "wordbias.measures.directions.indirect_bias"], True),
    ("Measures: set measures", [
        "wordbias.measures.sets.set_measures", "wordbias.measures.sets.ect", "wordbias.measures.sets.rnd",
        "wordbias.measures.sets.rnsb", "wordbias.measures.sets.mac", "wordbias.measures.sets.semaxis"], True),
    ("Measures: unsupervised bias enumeration", [
        "wordbias.measures.enumeration.ube", "wordbias.measures.enumeration.ube_null",
        "wordbias.measures.enumeration.ube_words", "wordbias.measures.enumeration.ube_names",
        "wordbias.measures.enumeration.ube_result"], True),
    ("Measures: language models", [
        "wordbias.measures.language_models.mlm", "wordbias.measures.language_models.contextual",
        "wordbias.measures.language_models.topics", "wordbias.measures.language_models.crows_pairs",
        "wordbias.measures.language_models.stereoset", "wordbias.measures.language_models.bec_pro"], True),
    ("Measures: debiasing", [
        "wordbias.measures.debiasing.debias", "wordbias.measures.debiasing.double_hard",
        "wordbias.measures.debiasing.inlp", "wordbias.measures.debiasing.leace",
        "wordbias.measures.debiasing.debias_checks", "wordbias.measures.debiasing.utility"], True),
    ("Measures: diagnostics and training runs", [
        "wordbias.measures.diagnostics.sensitivity", "wordbias.measures.diagnostics.frequency",
        "wordbias.measures.ensemble"], True),
    ("Word lists and data sets", [
        "wordbias.datasets.stimuli", "wordbias.datasets.user_lists", "wordbias.datasets.names",
        "wordbias.datasets.casing", "wordbias.datasets.censor", "wordbias.datasets.contextual_tests",
        "wordbias.datasets.gap", "wordbias.datasets.corpora", "wordbias.datasets.seat", "wordbias.datasets.utility",
        "wordbias.datasets.crows_pairs", "wordbias.datasets.stereoset", "wordbias.datasets.bec_pro",
        "wordbias.datasets.swap",
    ], True),
    ("Batteries, reports and comparisons", [
        "wordbias.battery.weat", "wordbias.battery.direction", "wordbias.battery.ube", "wordbias.battery.contextual",
        "wordbias.battery.report", "wordbias.battery.compare", "wordbias.battery.summary",
        "wordbias.battery.ensemble", "wordbias.battery.metrics", "wordbias.battery.seat", "wordbias.battery.debias",
        "wordbias.battery.lm", "wordbias.battery.lm_runs", "wordbias.battery.validity",
    ], True),
    ("Statistics", [
        "wordbias.stats.permutation", "wordbias.stats.exact_count", "wordbias.stats.montecarlo",
        "wordbias.stats.multiple", "wordbias.stats.resampling", "wordbias.stats.reliability"], False),
    ("Tables, figures and errors", [
        "wordbias.core.tables", "wordbias.core.tidy", "wordbias.core.figures",
        "wordbias.core.errors", "wordbias.core.paths", "wordbias.core.progress", "wordbias.core.jobs",
        "wordbias.core.identity",
    ], False),
    ("Models", ["wordbias.models.contextual", "wordbias.models.mlp", "wordbias.models.tiny_mlm",
                "wordbias.models.train", "wordbias.models.sentence", "wordbias.models.blas_inference",
                "wordbias.models.stand_in", "wordbias.models.causal", "wordbias.models.log_prob",
                "wordbias.models.ladder"], False),
    ("Teaching", ["wordbias.teaching.checks", "wordbias.teaching.explorer", "wordbias.teaching.assign",
                  "wordbias.teaching.answer_key", "wordbias.teaching.sealed", "wordbias.teaching.grade",
                  "wordbias.teaching.syllabus",
                  "wordbias.teaching.contextual"], False),
    ("The papers' tables and figures", [
        "wordbias.papers.caliskan2017", "wordbias.papers.swinger2019", "wordbias.papers.racial_bias_report",
        "wordbias.papers.kurita2019", "wordbias.papers.kurita2019_templates", "wordbias.papers.kurita2019_table5",
        "wordbias.papers.kurita2019_gap", "wordbias.papers.lesson_views", "wordbias.papers.outputs",
        "wordbias.papers.may2019", "wordbias.papers.debias2019", "wordbias.papers.planted_bias",
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
