"""Kurita et al.'s (2019) contextual tests on one model, as one tidy table (:mod:`wordbias.core.tidy`).

For each category of the paper's Table 3 (or each test of a user's word lists): WEAT on contextual vectors (§3.1:
each word's final-layer vector in the templates, the other slot masked; any encoder) and the log-probability bias
score with its attribute test (§3.2; a masked language model). Each has its 95% bootstrap interval over the words
(:func:`wordbias.measures.bootstrap.weat_bootstrap` on the contextual vectors; the attribute test's own
``effect_size_ci``), one- and two-sided p, and Holm and Benjamini-Hochberg adjusted p with one family per measure
(as :func:`wordbias.papers.kurita2019.adjust_per_method`: each measure is its own question).

A user's lists (:func:`wordbias.datasets.user_lists.load_user_lists`) become categories with X and Y in the
``TARGET`` slot and A and B in the ``ATTRIBUTE`` slot of ``templates`` (default :data:`DEFAULT_TEMPLATES`); for the
log-probability score the target pairs are X and Y zipped in their order (x_i, y_i), the first word of a pair being
the one a positive score favours, as the paper's (he, she) pairs.

Kurita, Vyas, Pareek, Black & Tsvetkov (2019), "Measuring Bias in Contextualized Word Representations", GeBNLP,
https://doi.org/10.18653/v1/W19-3823.
"""

from __future__ import annotations

import warnings
from typing import Sequence

import numpy as np
import pandas as pd

from wordbias import __version__
from wordbias.core import tidy
from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.progress import progress_bar
from wordbias.core.validation import check_int, check_seed
from wordbias.measures import bootstrap, mlm, weat
from wordbias.papers import kurita2019

__all__ = ["DEFAULT_TEMPLATES", "CONFIDENCE_LEVEL", "user_categories", "report", "report_models"]

#: the templates of a user's lists (Kurita et al.'s Table 1 form: TARGET is / are ATTRIBUTE)
DEFAULT_TEMPLATES = ("TARGET is ATTRIBUTE.", "TARGET are ATTRIBUTE.")
CONFIDENCE_LEVEL = 0.95


def user_categories(specs: Sequence, templates: Sequence[str] = DEFAULT_TEMPLATES) -> list[kurita2019.Category]:
    """Kurita-style categories from WEAT specs (a user's lists, :class:`wordbias.datasets.stimuli.WeatSpec`):
    X, Y fill ``TARGET``, A, B fill ``ATTRIBUTE`` of every template; the log-probability score pairs X and Y in
    their order.

    Examples
    --------
    >>> from wordbias.datasets.stimuli import WeatSpec
    >>> spec = WeatSpec("t", "T", ("he", "man"), ("she", "woman"), ("career",), ("family",),
    ...                 names={"X": "male", "Y": "female", "A": "career", "B": "family"}, paper={},
    ...                 original_finding=None)
    >>> cat = user_categories([spec])[0]
    >>> cat.slots, cat.log_prob_templates[0].pairs
    ({'X': 'TARGET', 'Y': 'TARGET', 'A': 'ATTRIBUTE', 'B': 'ATTRIBUTE'}, (('he', 'she'), ('man', 'woman')))
    """
    if isinstance(templates, str) or not list(templates):
        raise InvalidParameterError(f"templates must be a non-empty list of templates, not {templates!r}")
    for t in templates:
        mlm.check_template(t)
    cats = []
    for spec in specs:
        pairs = tuple(zip(spec.X, spec.Y))
        cats.append(kurita2019.Category(
            key=spec.id, title=spec.title or spec.id, caliskan_weat="", names=dict(spec.names),
            sets={"X": tuple(spec.X), "Y": tuple(spec.Y), "A": tuple(spec.A), "B": tuple(spec.B)},
            slots={"X": mlm.TARGET, "Y": mlm.TARGET, "A": mlm.ATTRIBUTE, "B": mlm.ATTRIBUTE},
            cosine_templates=tuple(templates), log_prob_attributes=("A", "B"),
            log_prob_templates=tuple(mlm.TemplatePairs(t, pairs) for t in templates), paper={}))
    return cats


def _dropped(reduced) -> str:
    parts = {}
    for role in ("X", "Y"):
        gone = [*reduced[role].missing, *reduced[role].balanced_out]
        if gone:
            parts[role] = gone
    return tidy.dropped_text(parts)


def _paper_note(cat, key: str) -> str:
    d = (cat.paper or {}).get(key)
    return "" if d is None else f"paper: d = {d}"


def _weat_row(cat, reduced, encoder, base: dict, *, seed: int, n_permutations: int, n_resamples: int,
              batch_size: int) -> dict:
    """§3.1 on ``encoder``: WEAT on the contextual vectors, with its bootstrap interval and two-sided p."""
    vectors = kurita2019.contextual_vectors(cat, reduced, encoder, batch_size=batch_size)
    res = weat.weat(vectors, *(reduced[r].words for r in kurita2019.ROLES), names=dict(cat.names),
                    balance_targets="raise", seed=seed, n_permutations=n_permutations)
    ci = bootstrap.weat_bootstrap(vectors, res, n_resamples=n_resamples, confidence_level=CONFIDENCE_LEVEL,
                                  seed=seed).effect_size
    two = weat.p_value(res.s_x, res.s_y, p_method=res.p_method, n_permutations=n_permutations, seed=seed,
                       alternative="two-sided")
    return {**base, "measure": "contextual_weat", "n_x": len(res.X.words), "n_y": len(res.Y.words),
            "n_a": len(res.A.words), "n_b": len(res.B.words), "statistic_name": "s(X,Y,A,B)",
            "statistic": res.statistic, "effect_size_name": "d", "effect_size": res.effect_size,
            "ci_low": ci.low, "ci_high": ci.high, "ci_level": CONFIDENCE_LEVEL,
            "ci_method": f"{ci.method} {CONFIDENCE_LEVEL:.0%}, {n_resamples:,} resamples of {''.join(ci.resampled)}",
            "p_value": res.p_value, "alternative": res.alternative, "p_method": res.p_method,
            "p_two_sided": two.p_value, "dropped": _dropped(reduced),
            "note": "; ".join(x for x in (f"templates: {' | '.join(cat.cosine_templates)}",
                                          _paper_note(cat, "bert_weat")) if x)}


def _coverage(reduced) -> tidy.Coverage:
    """The sets' words in the vocabulary (one WordPiece, §3.1) of those asked; balanced-out words count as kept."""
    return tidy.coverage({r: (len(reduced[r].requested) - len(reduced[r].missing), len(reduced[r].requested))
                          for r in kurita2019.ROLES})


def _log_prob_row(cat, masked_lm, base: dict, *, seed: int, n_permutations: int, n_resamples: int,
                  batch_size: int) -> dict:
    """§3.2 on ``masked_lm``: the attribute test over the log-probability bias scores, with its interval."""
    t = kurita2019.log_prob_test(cat, masked_lm, seed=seed, n_permutations=n_permutations, batch_size=batch_size,
                                 n_resamples=n_resamples, confidence_level=CONFIDENCE_LEVEL)
    n_pairs = sum(len(tp.pairs) for tp in cat.log_prob_templates)
    row = {**base, "measure": "mlm_log_prob", "n_a": len(t.A), "n_b": len(t.B),
           "statistic_name": "mean score(A) - mean score(B)", "effect_size_name": "d",
           "alternative": t.alternative, "dropped": "",
           "note": "; ".join(x for x in (f"{len(cat.log_prob_templates)} templates, {n_pairs} (template, target pair)s",
                                         _paper_note(cat, "log_prob"), t.undefined) if x)}
    if t.p is None:
        return row
    ci = t.effect_size_ci
    return {**row, "statistic": t.statistic, "effect_size": t.effect_size, "p_value": t.p_value,
            "p_method": t.p_method, "p_two_sided": t.p_two_sided,
            **({} if ci is None else {"ci_low": ci.low, "ci_high": ci.high, "ci_level": CONFIDENCE_LEVEL,
                                      "ci_method": f"{ci.method} {CONFIDENCE_LEVEL:.0%}, {n_resamples:,} resamples "
                                                   "of the attribute words A, B"})}


def _not_run(base: dict, measure: str, why: str) -> dict:
    return {**base, "measure": measure, "effect_size_name": "d", "note": tidy.not_run_note(why)}


def report(model: str, *, label: str | None = None, specs: Sequence | None = None,
           templates: Sequence[str] = DEFAULT_TEMPLATES, battery: str | None = None, seed: int = 0,
           n_permutations: int = 100_000, n_resamples: int = 10_000, batch_size: int = 32, device: str | None = None,
           progress: bool = False) -> pd.DataFrame:
    """Kurita et al.'s contextual WEAT and log-probability test on ``model`` (a local folder or a Hugging Face id
    already on this machine) as a tidy table: the paper's five categories (``specs=None``) or the WEAT specs of a
    user's lists, with ``templates``.

    The encoder is required (:func:`wordbias.models.contextual.load_encoder`: a missing or damaged model raises
    its clear error). The masked LM is optional: a model without an MLM head (e.g. the bundled MiniLM) gets the
    log-probability rows with NA numbers and the reason in ``note``, never a random head. See
    :func:`report_models`.
    """
    from wordbias.models import contextual

    encoder = contextual.load_encoder(model, device)
    try:
        masked_lm, why = contextual.load_mlm(model, device), ""
    except contextual.ModelUnavailable as err:
        masked_lm, why = None, str(err)
    return report_models(encoder, masked_lm, why_no_mlm=why, label=label, specs=specs, templates=templates,
                         battery=battery, seed=seed, n_permutations=n_permutations, n_resamples=n_resamples,
                         batch_size=batch_size, progress=progress)


def report_models(encoder, masked_lm=None, *, why_no_mlm: str = "", label: str | None = None,
                  specs: Sequence | None = None, templates: Sequence[str] = DEFAULT_TEMPLATES,
                  battery: str | None = None, seed: int = 0, n_permutations: int = 100_000, n_resamples: int = 10_000,
                  batch_size: int = 32, progress: bool = False) -> pd.DataFrame:
    """:func:`report` on models already loaded (:class:`wordbias.models.contextual.Model`): ``encoder`` for the
    contextual WEAT (its tokenizer also decides which target words are one WordPiece, §3.1), ``masked_lm`` (or
    ``None``, with ``why_no_mlm`` saying why) for the log-probability test. A category whose targets are not in
    the vocabulary gets rows with the reason. Holm and Benjamini-Hochberg adjust each measure over its
    categories (the family is named). ``label`` names the model(s) (default: the encoder's label, joined with
    the masked LM's when it differs).
    """
    if encoder is None:
        raise InvalidParameterError("report_models needs an encoder (a wordbias.models.contextual.Model) for the "
                                    "contextual WEAT and the vocabulary; none was given")
    seed = check_seed("seed", seed)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    n_resamples = check_int("n_resamples", n_resamples, min=2)
    batch_size = check_int("batch_size", batch_size, min=1)
    mlm_why = "" if masked_lm is not None else f"needs a masked language model: {why_no_mlm or 'none given'}"
    if label is None:
        label = encoder.label if masked_lm is None or masked_lm.label == encoder.label else \
            f"{encoder.label}+{masked_lm.label}"
    if specs is None:
        cats, paper, battery = kurita2019.categories(), "kurita2019", battery or "kurita2019"
    else:
        cats, paper, battery = user_categories(specs, templates), "user", battery or "user"
    rows = []
    with progress_bar(len(cats), desc=f"contextual tests on {label}", unit="category", enabled=progress) as bar:
        for cat in cats:
            base = {"embedding": label, "paper": paper, "battery": battery, "test": cat.key, "title": cat.title,
                    "seed": seed, "n_permutations": n_permutations, "n_resamples": n_resamples,
                    "wordbias_version": __version__}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    reduced = kurita2019.reduce_to_vocabulary(cat, encoder, seed=seed)
            except DegenerateSetError as err:
                rows.append(_not_run(base, "contextual_weat", str(err)))
                rows.append(_not_run(base, "mlm_log_prob", mlm_why or str(err)))
                bar.update(1)
                continue
            rows.append(tidy.with_coverage(_weat_row(cat, reduced, encoder, base, seed=seed,
                                                     n_permutations=n_permutations, n_resamples=n_resamples,
                                                     batch_size=batch_size), _coverage(reduced)))
            if masked_lm is None:
                rows.append(_not_run(base, "mlm_log_prob", mlm_why))
            else:
                rows.append(_log_prob_row(cat, masked_lm, base, seed=seed, n_permutations=n_permutations,
                                          n_resamples=n_resamples, batch_size=batch_size))
            bar.update(1)
    frame = tidy.tidy_frame(rows)
    tidy.warn_low_coverage(frame)
    parts = []
    for measure, sub in frame.groupby("measure", sort=False):
        fam = f"{battery} on {label}, {measure}: {int(sub.p_value.notna().sum())} tests (one-sided p)"
        parts.append(tidy.adjust_family(sub, fam))
    return pd.concat(parts).sort_index() if parts else frame
