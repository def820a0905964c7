"""Kurita et al.'s (2019) contextual tests on one model, as one tidy table (:mod:`wordbias.core.tidy`).

For each category of the paper's Table 3 (or each test of a user's word lists): WEAT on contextual vectors (§3.1:
each word's final-layer vector in the templates, the other slot masked; any encoder) and the log-probability bias
score with its attribute test (§3.2; a masked language model), each measured once by
:func:`wordbias.measures.language_models.contextual.measure` with its 95% bootstrap interval over the words and its one- and
two-sided p. :func:`tidy_table` is the view of those results as tidy rows, with Holm and Benjamini-Hochberg
adjusted p with one family per measure (each measure is its own question, as in the paper's Table 3); it runs
no test again.

A user's lists (:func:`wordbias.datasets.user_lists.load_user_lists`) become categories with X and Y in the
``TARGET`` slot and A and B in the ``ATTRIBUTE`` slot of ``templates`` (default :data:`DEFAULT_TEMPLATES`); for the
log-probability score the target pairs are X and Y zipped in their order (x_i, y_i), the first word of a pair being
the one a positive score favours, as the paper's (he, she) pairs.

Kurita, Vyas, Pareek, Black & Tsvetkov (2019), "Measuring Bias in Contextualized Word Representations", GeBNLP,
https://doi.org/10.18653/v1/W19-3823.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from wordbias import __version__
from wordbias.core import tidy
from wordbias.core.errors import BalancedOutWarning, InvalidParameterError, ModelUnavailable
from wordbias.datasets.contextual_tests import Category, PairedTemplate, kurita2019_categories
from wordbias.measures.language_models import mlm
from wordbias.measures.language_models.contextual import CategoryResult, measure
from wordbias.options import Resampling
from wordbias.stats.multiple import adjust_family

__all__ = ["DEFAULT_TEMPLATES", "CONFIDENCE_LEVEL", "user_categories", "tidy_table", "report", "report_models"]

#: the templates of a user's lists (Kurita et al.'s Table 1 form: TARGET is / are ATTRIBUTE)
DEFAULT_TEMPLATES = ("TARGET is ATTRIBUTE.", "TARGET are ATTRIBUTE.")
CONFIDENCE_LEVEL = 0.95


def user_categories(specs: Sequence, templates: Sequence[str] = DEFAULT_TEMPLATES) -> list[Category]:
    """Return Kurita-style categories made from WEAT specs (a user's lists).

    X, Y fill ``TARGET``, A, B fill ``ATTRIBUTE`` of every template; the log-probability score pairs X and Y in
    their order, (x_i, y_i), the first word of a pair being the one a positive score favours.

    Parameters
    ----------
    specs : sequence of WeatSpec
        The tests (:class:`wordbias.datasets.stimuli.WeatSpec`), e.g. the ``weat`` lists of
        :func:`wordbias.datasets.user_lists.load_user_lists`.
    templates : sequence of str, default DEFAULT_TEMPLATES
        The templates, each with one ``TARGET`` and one ``ATTRIBUTE`` slot
        (:func:`wordbias.measures.language_models.mlm.check_template`).

    Returns
    -------
    list of Category
        One :class:`~wordbias.datasets.contextual_tests.Category` per spec, keyed by its id.

    Raises
    ------
    InvalidParameterError
        When ``templates`` is a string or empty, or a template lacks its slots.

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
        cats.append(Category(
            key=spec.id, title=spec.title or spec.id, caliskan_weat="", names=dict(spec.names),
            sets={"X": tuple(spec.X), "Y": tuple(spec.Y), "A": tuple(spec.A), "B": tuple(spec.B)},
            slots={"X": mlm.TARGET, "Y": mlm.TARGET, "A": mlm.ATTRIBUTE, "B": mlm.ATTRIBUTE},
            cosine_templates=tuple(templates), log_prob_attributes=("A", "B"),
            log_prob_templates=tuple(PairedTemplate(t, pairs) for t in templates), paper={}))
    return cats


# --------------------------------------------------------------------------------------------------
# the tidy view of measured results
# --------------------------------------------------------------------------------------------------


def _dropped(reduced) -> str:
    parts = {}
    for role in ("X", "Y"):
        gone = [*reduced[role].missing, *reduced[role].balanced_out]
        if gone:
            parts[role] = gone
    return tidy.dropped_text(parts)


#: what each contextual measure needs, for a result that did not run for want of its model
_NEEDS = {"contextual_weat": "needs an encoder", "mlm_log_prob": "needs a masked language model"}


def _row(r: CategoryResult, base: dict) -> dict:
    """One tidy row read off one measured result."""
    if r.measure not in _NEEDS:
        raise InvalidParameterError(f"the tidy table of the contextual tests takes the measures {sorted(_NEEDS)}, "
                                    f"not {r.measure!r} ({r.category.key})")
    res = r.to_result()
    if not r.ran:
        why = r.not_run if r.model else f"{_NEEDS[r.measure]}: {r.not_run or 'none given'}"
        res = replace(res, not_run=tidy.not_run_note(why))
    # the run's options as given, whether or not a part ran; for a WEAT the words dropped per set, missing and
    # balanced out together (:func:`_dropped`); coverage NA for the log-probability test and a test not run
    row = {**res.to_row(base), "n_permutations": r.n_permutations, "n_resamples": r.n_resamples}
    if r.ran and r.measure == "contextual_weat":
        return {**row, "dropped": _dropped(r.reduced)}
    return tidy.with_coverage({**row, **({} if r.ran else {"dropped": None})}, None)


def tidy_table(results: Sequence[CategoryResult], *, label: str, paper: str = "kurita2019",
               battery: str = "kurita2019") -> pd.DataFrame:
    """Return the tidy table of measured contextual tests.

    The results are those of :func:`wordbias.measures.language_models.contextual.measure` (or
    :attr:`wordbias.papers.kurita2019.Table3.contextual`); the table (:mod:`wordbias.core.tidy`) has one row per
    result, in their order, ``embedding`` ``label``; the words in the vocabulary of those asked per set
    (coverage, flagged and warned when low) and the words dropped; Holm and Benjamini-Hochberg adjust each
    measure over its tests (the family is named). A view: it reads the results and runs no test. A result that
    did not run for want of its model gets a row with NA numbers and the reason.

    Parameters
    ----------
    results : sequence of CategoryResult
        The measured tests; each must be a ``"contextual_weat"`` or ``"mlm_log_prob"`` result.
    label : str
        The model's name (the ``embedding`` column).
    paper : str, default "kurita2019"
        The ``paper`` column.
    battery : str, default "kurita2019"
        The ``battery`` column; it also names the families of the adjusted p.

    Returns
    -------
    pandas.DataFrame
        The tidy table, one row per result.

    Raises
    ------
    InvalidParameterError
        When a result is of another measure (e.g. the static-embedding WEAT).

    Warns
    -----
    LowCoverageWarning
        Once per flagged test that ran; see :func:`wordbias.core.tidy.warn_low_coverage`.

    Examples
    --------
    Measuring needs a model (here the bundled MiniLM encoder, which has no masked-LM head), so these lines are
    not run as a test:

    >>> from wordbias.measures.language_models.contextual import measure
    >>> from wordbias.models.contextual import load_encoder
    >>> encoder = load_encoder("all-minilm-l6-v2", "cpu")               # doctest: +SKIP
    >>> cats = kurita2019_categories()[:1]                              # flowers and insects
    >>> from wordbias.options import Resampling
    >>> results = measure(cats, encoder=encoder, masked_lm=None,
    ...                   resampling=Resampling(n_resamples=200, n_permutations=100_000))     # doctest: +SKIP
    >>> t = tidy_table(results, label=encoder.label)                    # doctest: +SKIP
    >>> t[["test", "measure"]].values.tolist()                          # doctest: +SKIP
    [['flowers_insects', 'contextual_weat'], ['flowers_insects', 'mlm_log_prob']]
    >>> t.note[1]                                                       # doctest: +SKIP
    'not run: needs a masked language model: none given'
    """
    rows = [_row(r, {"embedding": label, "paper": paper, "battery": battery, "test": r.category.key,
                     "title": r.category.title, "seed": r.seed, "n_permutations": r.n_permutations,
                     "n_resamples": r.n_resamples, "wordbias_version": __version__}) for r in results]
    frame = tidy.tidy_frame(rows)
    tidy.warn_low_coverage(frame)
    parts = []
    for measure_name, sub in frame.groupby("measure", sort=False):
        fam = f"{battery} on {label}, {measure_name}: {int(sub.p_value.notna().sum())} tests (one-sided p)"
        parts.append(adjust_family(sub, fam))
    return pd.concat(parts).sort_index() if parts else frame


# --------------------------------------------------------------------------------------------------
# measure and show: a model by name, or models already loaded
# --------------------------------------------------------------------------------------------------


def report(model: str, *, label: str | None = None, specs: Sequence | None = None,
           templates: Sequence[str] = DEFAULT_TEMPLATES, battery: str | None = None, seed: int = 0,
           n_permutations: int = 100_000, n_resamples: int = 10_000, batch_size: int = 32, device: str | None = None,
           progress: bool = False) -> pd.DataFrame:
    """Measure Kurita et al.'s contextual tests on a model, by name, and return them as a tidy table.

    The tests are the contextual WEAT and the log-probability test on ``model`` (a local folder or a Hugging
    Face id already on this machine): the paper's five categories (``specs=None``) or the WEAT specs of a user's
    lists, with ``templates``. The encoder is required (:func:`wordbias.models.contextual.load_encoder`: a
    missing or damaged model raises its clear error). The masked LM is optional: a model without an MLM head
    (e.g. the bundled MiniLM) gets the log-probability rows with NA numbers and the reason in ``note``, never a
    random head. The measuring and the table are :func:`report_models`.

    Parameters
    ----------
    model : str
        A Hugging Face id already on this machine, a local folder, or
        :data:`wordbias.models.contextual.BUNDLED_ENCODER`.
    label : str, optional
        The model's name in the table (default: the model's label, :func:`wordbias.models.contextual.label`).
    specs, templates, battery, seed, n_permutations, n_resamples, batch_size, progress
        As :func:`report_models`.
    device : str, optional
        The torch device (``None``: a GPU when there is one, :func:`wordbias.models.contextual.check_device`).

    Returns
    -------
    pandas.DataFrame
        The table of :func:`report_models`.

    Raises
    ------
    ModelUnavailable
        When the encoder cannot be found on this machine.
    ModelFileError
        When a file of the model is damaged.
    InvalidParameterError
        When ``device`` is not available here, or an option is invalid.

    See Also
    --------
    report_models : The same on models already loaded.

    Examples
    --------
    These lines load a model, so they are not run as a test; MiniLM has no masked-LM head, so its
    log-probability row says why it did not run:

    >>> from wordbias.datasets.stimuli import WeatSpec
    >>> spec = WeatSpec("gender", "Gender and career", ("he", "man"), ("she", "woman"), ("career", "work"),
    ...                 ("family", "home"), names={"X": "male", "Y": "female", "A": "career", "B": "family"},
    ...                 paper={}, original_finding=None)
    >>> t = report("all-minilm-l6-v2", specs=[spec], n_resamples=200, device="cpu")      # doctest: +SKIP
    >>> t[["embedding", "measure", "coverage"]].values.tolist()                         # doctest: +SKIP
    [['all-minilm-l6-v2', 'contextual_weat', 'X 2/2; Y 2/2; A 2/2; B 2/2'], ['all-minilm-l6-v2', 'mlm_log_prob', <NA>]]
    >>> t.note[1][:70]                                                                  # doctest: +SKIP
    "not run: needs a masked language model: model 'all-minilm-l6-v2' has n"
    """
    from wordbias.models import contextual

    encoder = contextual.load_encoder(model, device)
    try:
        masked_lm, why = contextual.load_mlm(model, device), ""
    except ModelUnavailable as err:
        masked_lm, why = None, str(err)
    return report_models(encoder, masked_lm, why_no_mlm=why, label=label, specs=specs, templates=templates,
                         battery=battery, seed=seed, n_permutations=n_permutations, n_resamples=n_resamples,
                         batch_size=batch_size, progress=progress)


def report_models(encoder, masked_lm=None, *, why_no_mlm: str = "", label: str | None = None,
                  specs: Sequence | None = None, templates: Sequence[str] = DEFAULT_TEMPLATES,
                  battery: str | None = None, seed: int = 0, n_permutations: int = 100_000, n_resamples: int = 10_000,
                  batch_size: int = 32, progress: bool = False) -> pd.DataFrame:
    """Measure Kurita et al.'s contextual tests on models already loaded and return them as a tidy table.

    :func:`report` on loaded models (:class:`wordbias.models.contextual.Model`). Each test is measured once
    (:func:`wordbias.measures.language_models.contextual.measure`) and shown by :func:`tidy_table`. A category whose targets
    are not in the vocabulary gets rows with the reason. The words cut to balance the targets are in
    ``dropped``, not warned about.

    Parameters
    ----------
    encoder : Model
        The encoder of the contextual WEAT; its tokenizer also decides which target words are one WordPiece
        (§3.1).
    masked_lm : Model, optional
        The masked language model of the log-probability test; ``None`` gives those rows NA numbers and
        ``why_no_mlm`` as the reason.
    why_no_mlm : str, default ""
        Why there is no masked LM.
    label : str, optional
        The model(s)' name in the table (default: the encoder's label, joined with the masked LM's when it
        differs, ``"<encoder>+<mlm>"``).
    specs : sequence of WeatSpec, optional
        A user's WEAT specs (:func:`user_categories`); ``None`` measures the paper's five categories.
    templates : sequence of str, default DEFAULT_TEMPLATES
        The templates of a user's specs (ignored for the paper's categories).
    battery : str, optional
        The battery's name (default ``"kurita2019"``, or ``"user"`` for a user's specs).
    seed : int, default 0
        The seed of the balancing, the permutations and the bootstrap.
    n_permutations : int, default 100000
        The Monte Carlo draws of a p that cannot be counted exactly.
    n_resamples : int, default 10000
        The bootstrap resamples of each interval.
    batch_size : int, default 32
        The sentences run through the model at once.
    progress : bool, default False
        Whether to show a progress bar.

    Returns
    -------
    pandas.DataFrame
        The tidy table (:func:`tidy_table`), per category a ``contextual_weat`` and an ``mlm_log_prob`` row.

    Raises
    ------
    InvalidParameterError
        When ``encoder`` is None, or an option is invalid.

    Examples
    --------
    Without an encoder there is nothing to measure on:

    >>> try:
    ...     report_models(None)
    ... except InvalidParameterError as err:
    ...     print(str(err)[:42])
    report_models needs an encoder (a wordbias

    With one (loading it is not run as a test):

    >>> from wordbias.models.contextual import load_encoder
    >>> encoder = load_encoder("all-minilm-l6-v2", "cpu")                                 # doctest: +SKIP
    >>> t = report_models(encoder, None, why_no_mlm="no MLM here", n_resamples=200)       # doctest: +SKIP
    >>> t.test.unique().tolist()                                                           # doctest: +SKIP
    ['flowers_insects', 'ea_aa', 'career_family', 'math_arts', 'science_arts']
    """
    if encoder is None:
        raise InvalidParameterError("report_models needs an encoder (a wordbias.models.contextual.Model) for the "
                                    "contextual WEAT and the vocabulary; none was given")
    if label is None:
        label = encoder.label if masked_lm is None or masked_lm.label == encoder.label else \
            f"{encoder.label}+{masked_lm.label}"
    if specs is None:
        cats, paper, battery = kurita2019_categories(), "kurita2019", battery or "kurita2019"
    else:
        cats, paper, battery = user_categories(specs, templates), "user", battery or "user"
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=BalancedOutWarning)
        results = measure(cats, encoder=encoder, masked_lm=masked_lm, batch_size=batch_size, progress=progress,
                          resampling=Resampling(n_resamples=n_resamples, confidence_level=CONFIDENCE_LEVEL,
                                                n_permutations=n_permutations, seed=seed),
                          why_not_run={"mlm_log_prob": why_no_mlm})
    return tidy_table(results, label=label, paper=paper, battery=battery)
