"""Kurita et al.'s (2019) log-probability score on real language models, on BEC-Pro (Bartl, Nissim & Gatt 2020,
https://aclanthology.org/2020.gebnlp-1.1/): the tables and the figure of the notebook ``bec_pro``.

Bartl et al. measure BERT's association of English and German professions with female and male person words by
Kurita et al.'s increased log probability, and compare it with the share of women in each profession; they find the
measure fits English but not German, whose profession nouns carry grammatical gender (the feminine form is another
word). Here the packaged causal models are scored in the causal form of
:mod:`wordbias.measures.language_models.bec_pro` (an adaptation, not a replication: the whole sentence's
log-probability, the prior sentence with a neutral noun for the profession), on the sentences whose person word is
the pronoun (He/She, Er/Sie: Kurita's he/she score) by default, and each model's professions' associations are
correlated with BEC-Pro's US and German shares of women and Winogender's BLS shares, with BCa intervals, beside
Caliskan et al.'s (2017) WEFAT on GloVe for the same professions. Every number is a view of :func:`measure`'s
results.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from wordbias.core import paths, tidy
from wordbias.core.errors import InvalidParameterError
from wordbias.core.tables import interval_column, p_column
from wordbias.options import Resampling
from wordbias.result import Result

__all__ = ["MODELS", "COLUMNS", "PERSONS", "LanguageRun", "check_parameters", "sentences", "measure", "wefat",
           "tidy_rows", "correlation_table", "groups_table", "committed", "figure"]

#: the packaged causal models the notebook measures by default
MODELS = ("smollm2-135m", "gemma-3-270m")
#: the shares of women correlated with (BEC-Pro's US and German columns, Winogender's BLS statistics)
COLUMNS = ("US", "DE", "BLS")
#: the person words: the pronouns only (Kurita's he/she), or all 18 of BEC-Pro
PERSONS = ("pronouns", "all")


@dataclass(frozen=True)
class LanguageRun:
    """One model on one language's sentences (:func:`measure`).

    Attributes
    ----------
    model : str
        The model's label.
    language : {"en", "de"}
        The sentences' language.
    associations : dict of str to float
        Per English profession name, the female-minus-male association (natural log).
    groups : dict of str to str
        Per profession, its BEC-Pro group (male, female, balanced: by the US share).
    correlations : dict of str to Result
        Per share column (:data:`COLUMNS`), Spearman's correlation with its BCa interval.
    n_sentences : int
        The sentences scored (priors excluded).
    """

    model: str
    language: str
    associations: dict
    groups: dict
    correlations: dict
    n_sentences: int


def check_parameters(*, models: Sequence[str], languages: Sequence[str], persons: str, seed: int) -> dict:
    """The notebook's parameters, checked before any model is loaded.

    Parameters
    ----------
    models : sequence of str
        Registered causal models or model folders, one or more, no repeats.
    languages : sequence of {"en", "de"}
        BEC-Pro's languages, one or both, no repeats.
    persons : {"pronouns", "all"}
        The person words (:data:`PERSONS`).
    seed : int
        The bootstraps' seed.

    Returns
    -------
    dict
        The parameters, checked (``models`` and ``languages`` as lists).

    Raises
    ------
    InvalidParameterError
        When a list is empty or repeats, a language or ``persons`` is unknown, or ``seed`` is not a seed.

    Examples
    --------
    >>> check_parameters(models=["smollm2-135m"], languages=["en", "de"], persons="pronouns", seed=0)["languages"]
    ['en', 'de']
    """
    from wordbias.core.validation import check_option, check_seed
    from wordbias.datasets.bec_pro import LANGUAGES

    out = {}
    for name, values, allowed in (("models", models, None), ("languages", languages, tuple(LANGUAGES))):
        values = [values] if isinstance(values, str) else list(values)
        if not values or len(set(values)) != len(values) or (allowed and set(values) - set(allowed)):
            raise InvalidParameterError(f"{name} must name one or more{' of ' + str(list(allowed)) if allowed else ''}"
                                        f", each once; got {values}")
        out[name] = values
    check_option("persons", persons, PERSONS)
    return {**out, "persons": persons, "seed": check_seed("seed", seed)}


def sentences(language: str, persons: str = "pronouns") -> list:
    """BEC-Pro's sentences of one language: those with a pronoun (600) or all (5,400).

    Parameters
    ----------
    language : {"en", "de"}
        The language.
    persons : {"pronouns", "all"}, default "pronouns"
        The person words (:data:`PERSONS`).

    Returns
    -------
    list of BecProSentence
        The sentences.

    Examples
    --------
    >>> len(sentences("en")), len(sentences("de", "all"))
    (600, 5400)
    """
    from wordbias.core.validation import check_option
    from wordbias.datasets.bec_pro import load, pronoun_sentences

    check_option("persons", persons, PERSONS)
    s = load(language)
    return pronoun_sentences(s) if persons == "pronouns" else s


def _shares() -> dict[str, dict[str, float]]:
    from wordbias.datasets.bec_pro import load_occupations, load_professions
    from wordbias.measures.language_models import bec_pro as bp

    return bp.share_columns(load_professions(), load_occupations())


def measure(models: Mapping[str, object], languages: Sequence[str], *, persons: str = "pronouns", cache=None,
            seed: int = 0) -> dict[tuple, LanguageRun]:
    """Each model's professions' associations on each language, and their correlations with every share column.

    Parameters
    ----------
    models : mapping of str to model
        Label -> a loaded causal model (:func:`wordbias.models.causal.load_causal`) or masked LM.
    languages : sequence of {"en", "de"}
        The languages.
    persons : {"pronouns", "all"}, default "pronouns"
        The person words (:func:`sentences`).
    cache : wordbias.models.log_prob.LogProbCache, optional
        A causal LM's per-sentence cache.
    seed : int, default 0
        The bootstraps' seed (10,000 BCa resamples of the professions).

    Returns
    -------
    dict of tuple to LanguageRun
        ``(model label, language)`` -> its run, in that order.

    Examples
    --------
    With ``m`` a causal model (not run as tests: a model takes seconds to load):

    >>> runs = measure({"smollm2-135m": m}, ["en"])                                      # doctest: +SKIP
    >>> runs["smollm2-135m", "en"].correlations["US"].effect_size_name                    # doctest: +SKIP
    'spearman correlation'
    """
    from wordbias.measures.language_models import bec_pro as bp

    shares = _shares()
    resampling = Resampling(n_resamples=10_000, seed=seed)
    out = {}
    for label, m in models.items():
        for language in languages:
            s = sentences(language, persons)
            a = bp.associations(m, s, cache=cache)
            corr = {c: bp.correlation(a, shares[c], resampling=resampling, test=c,
                                      title=f"BEC-Pro ({language}) {label}: association vs {c} share of women")
                    for c in COLUMNS}
            out[(label, language)] = LanguageRun(label, language, a, {x.profession_en: x.prof_group for x in s},
                                                 corr, len(s))
    return out


def wefat(embedding: str = "glove-6b-50d", *, seed: int = 0) -> dict[str, Result]:
    """Caliskan et al.'s (2017) WEFAT on BEC-Pro's one-word professions, per share column of BEC-Pro (US, DE)
    (:func:`wordbias.measures.language_models.bec_pro.wefat_on_professions`).

    Parameters
    ----------
    embedding : str, default "glove-6b-50d"
        The word vectors.
    seed : int, default 0
        The interval's seed.

    Returns
    -------
    dict of str to Result
        Column -> WEFAT's result (Pearson's r; Spearman's rho in ``result.spearman_r``).
    """
    from wordbias.datasets.bec_pro import load_professions
    from wordbias.measures.language_models import bec_pro as bp

    return {c: dataclasses.replace(bp.wefat_on_professions(load_professions(), embedding, column=c,
                                                           resampling=Resampling(seed=seed)), test=c)
            for c in ("US", "DE")}


def tidy_rows(runs: Mapping[tuple, LanguageRun], wefat_results: Mapping[str, Result] | None = None,
              embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """The correlations as tidy rows (``paper`` ``bartl2020``, ``battery`` ``bec_pro:<language>``, ``test`` the
    column; WEFAT's rows with ``battery`` ``wefat:professions`` and the embedding's name).

    Parameters
    ----------
    runs : mapping of tuple to LanguageRun
        :func:`measure`'s runs.
    wefat_results : mapping of str to Result, optional
        :func:`wefat`'s results.
    embedding : str, default "glove-6b-50d"
        WEFAT's embedding, for its rows.

    Returns
    -------
    pandas.DataFrame
        The rows.
    """
    rows = [r.to_row({"embedding": run.model, "paper": "bartl2020", "battery": f"bec_pro:{run.language}"})
            for run in runs.values() for r in run.correlations.values()]
    rows += [r.to_row({"embedding": embedding, "paper": "bartl2020", "battery": "wefat:professions"})
             for r in (wefat_results or {}).values()]
    return tidy.tidy_frame(rows)


def _corr(r: Result) -> str:
    n = len(r.sets[0].used) if r.sets else ""
    return (f"{r.effect_size:+.2f} {interval_column([r.ci_low], [r.ci_high])[0]} p {p_column([r.p_value])[0]}"
            f" (n={n})")


def correlation_table(runs: Mapping[tuple, LanguageRun], wefat_results: Mapping[str, Result] | None = None,
                      embedding: str = "glove-6b-50d") -> pd.DataFrame:
    """Per model and language (and WEFAT on the word vectors): Spearman's correlation of the professions'
    associations with each share of women, its 95% BCa interval, p and the professions used.

    Parameters
    ----------
    runs : mapping of tuple to LanguageRun
        :func:`measure`'s runs.
    wefat_results : mapping of str to Result, optional
        :func:`wefat`'s results (Pearson's r, as Caliskan et al. report WEFAT; one-word professions only).
    embedding : str, default "glove-6b-50d"
        WEFAT's embedding, for its row's name.

    Returns
    -------
    pandas.DataFrame
        One row per model and language, then WEFAT's.
    """
    out = [{"model": run.model, "language": run.language, "score": "Kurita (causal form), Spearman",
            **{c: _corr(run.correlations[c]) for c in COLUMNS}} for run in runs.values()]
    if wefat_results:
        out.append({"model": embedding, "language": "en", "score": "WEFAT (Caliskan et al.), Pearson",
                    **{c: _corr(wefat_results[c]) if c in wefat_results else "NA" for c in COLUMNS}})
    return pd.DataFrame(out)


def groups_table(runs: Mapping[tuple, LanguageRun]) -> pd.DataFrame:
    """Per model and language: the mean association (female minus male, natural log) of the professions of each
    BEC-Pro group (mostly male, balanced, mostly female by the US share), as Bartl et al. (2020, §5) compare groups.

    Parameters
    ----------
    runs : mapping of tuple to LanguageRun
        :func:`measure`'s runs.

    Returns
    -------
    pandas.DataFrame
        One row per model and language; a column per group.
    """
    out = []
    for run in runs.values():
        row = {"model": run.model, "language": run.language}
        for g in ("male", "balanced", "female"):
            v = [a for p, a in run.associations.items() if run.groups.get(p) == g]
            row[f"{g} professions (n={len(v)})"] = f"{np.mean(v):+.3f}" if v else "NA"
        out.append(row)
    return pd.DataFrame(out)


def committed() -> pd.DataFrame:
    """The committed run's correlation table (``results/bartl2020/smollm2-135m+gemma-3-270m/correlations.csv``),
    as :func:`correlation_table` wrote it.

    Returns
    -------
    pandas.DataFrame
        The table.

    Examples
    --------
    >>> committed().columns.tolist()[:3]
    ['model', 'language', 'score']
    """
    return pd.read_csv(paths.COMMITTED_RESULTS / "bartl2020" / "+".join(MODELS) / "correlations.csv")


def figure(runs: Mapping[tuple, LanguageRun], column: str = "US"):
    """Each profession's association against its share of women in ``column``: one panel per language, one colour
    per model, Spearman's rho in the legend.

    Parameters
    ----------
    runs : mapping of tuple to LanguageRun
        :func:`measure`'s runs.
    column : str, default "US"
        The share of women (:data:`COLUMNS`).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Raises
    ------
    InvalidParameterError
        When ``column`` is unknown.
    """
    from matplotlib.figure import Figure

    if column not in COLUMNS:
        raise InvalidParameterError(f"column must be one of {COLUMNS}, not {column!r}")
    share = _shares()[column]
    languages = list(dict.fromkeys(k[1] for k in runs))
    models = list(dict.fromkeys(k[0] for k in runs))
    fig = Figure(figsize=(4.6 * len(languages) + 0.6, 4.4), layout="constrained")
    axes = fig.subplots(1, len(languages), squeeze=False)[0]
    for ax, language in zip(axes, languages):
        for i, label in enumerate(models):
            run = runs.get((label, language))
            if run is None:
                continue
            ps = [p for p in run.associations if p in share]
            r = run.correlations[column]
            ax.scatter([share[p] for p in ps], [run.associations[p] for p in ps], s=14, color=f"C{i}", alpha=0.8,
                       label=f"{label}: rho {r.effect_size:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]")
        ax.axhline(0, color="grey", lw=0.8, ls="--")
        ax.set_title({"en": "English", "de": "German"}.get(language, language), fontsize=10)
        ax.set_xlabel(f"share of women, {column} (%)")
        ax.legend(fontsize=7.5, loc="upper left", frameon=False)
    axes[0].set_ylabel("association, female - male (log)")
    fig.suptitle("BEC-Pro: each profession's association with she/he (Kurita's score, causal form) against its "
                 "share of women", fontsize=10)
    return fig
