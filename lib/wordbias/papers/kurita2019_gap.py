"""Kurita et al. (2019), Section 4: gender bias in gendered pronoun resolution (GAP; Tables 4 and 6).

The Kaggle MLP (:mod:`wordbias.models.mlp`) on contextual features of the GAP data (:mod:`wordbias.datasets.gap`;
the encoder's vectors of the names and the pronoun, :func:`features`, cached on disk) gives
female pronouns a higher P(neither) than male ones (Table 4, :func:`neither_table`, tested by permuting the
genders: :func:`gender_permutation_test`); the topic bias of the texts (:mod:`wordbias.measures.language_models.topics`)
correlates with it (Table 6). :func:`run` does it all over training seeds; the other functions build what
the notebook shows. Table 3 is :mod:`wordbias.papers.kurita2019`, Table 5 :mod:`wordbias.papers.kurita2019_table5`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.keyed_arrays import read_keyed_array, read_keyed_arrays, write_keyed_array, write_keyed_arrays
from wordbias.core.validation import check_int, check_option, check_seed
from wordbias.datasets import gap, stimuli
from wordbias.measures.language_models import mlm
from wordbias.measures.language_models.topics import (
    Topics,
    bias_correlation,
    fit_topics,
    matched_spread,
    refit_topics,
    sample_bias,
    top_words,
    topic_bias,
    topic_stability,
    topics_table,
)
from wordbias.models import blas_inference, contextual, mlp
from wordbias.stats.permutation import ALTERNATIVES, P_METHODS, TailProbability, subset_sum_tail

#: the paper's numbers (Section 4, Table 4), for side-by-side tables
PAPER_TABLE4 = pd.DataFrame({"prior": [0.103, 0.098], "avg_predicted": [0.115, 0.139]},
                            index=pd.Index(["male", "female"], name="gender"))
PAPER_P_VALUE = 0.007
PAPER_SPEARMAN = (0.207, 4e-11)
#: default on-disk cache of the features and of the classifier's seed studies (gitignored)
CACHE_DIR = paths.CACHE / "gap"

# ----------------------------------------------------------------------------------------------------
# Table 4 and its permutation test
# ----------------------------------------------------------------------------------------------------


def neither_table(df: pd.DataFrame, p_neither) -> pd.DataFrame:
    """Table 4: per gender (male, female), the pronouns and their share of "neither" labels and predictions.

    The number of pronouns, the prior share of "neither" labels and the average predicted P(neither).

    Parameters
    ----------
    df : pandas.DataFrame
        GAP rows, with ``gender`` and ``label`` columns.
    p_neither : array-like of float
        The predicted P(neither) of each row of ``df``.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``gender`` (male, female): ``n``, ``n_neither``, ``prior`` and ``avg_predicted``.

    Raises
    ------
    ValueError
        When ``p_neither`` and ``df`` differ in length (the message gives both).

    Examples
    --------
    >>> df = pd.DataFrame({"gender": ["male", "female", "female", "male"],
    ...                    "label": ["neither", "A", "neither", "B"]})
    >>> t = neither_table(df, [0.5, 0.1, 0.3, 0.1])
    >>> t.index.tolist(), t["n_neither"].tolist(), t["prior"].tolist(), t["avg_predicted"].round(2).tolist()
    (['male', 'female'], [1, 1], [0.5, 0.5], [0.3, 0.2])
    """
    p_neither = np.asarray(p_neither, dtype=np.float64)
    if len(p_neither) != len(df):
        raise ValueError(f"{len(p_neither)} probabilities for {len(df)} rows")
    frame = pd.DataFrame({"gender": df["gender"].to_numpy(), "neither": (df["label"] == "neither").to_numpy(),
                          "p": p_neither})
    g = frame.groupby("gender")
    out = pd.DataFrame({"n": g.size(), "n_neither": g["neither"].sum(), "prior": g["neither"].mean(),
                        "avg_predicted": g["p"].mean()})
    return out.reindex(["male", "female"]).rename_axis("gender")


@dataclass(frozen=True)
class GenderTest:
    """Permutation test of the gender labels on P(neither).

    Attributes
    ----------
    difference : float
        mean(female) − mean(male) of P(neither).
    n_female, n_male : int
        The numbers of female and male rows.
    alternative : {"greater", "less", "two-sided"}
        The alternative tested.
    p_value : float
        The permutation p.
    tail : TailProbability
        The engine's p, naming its alternative (two-sided: ``n_extreme`` counts the smaller tail).
    """

    difference: float
    n_female: int
    n_male: int
    alternative: str
    p_value: float
    tail: TailProbability  # the engine's p, naming its alternative (two-sided: n_extreme counts the smaller tail)

    def describe(self) -> str:
        """One line: the statistic, p, and how p was obtained.

        Returns
        -------
        str
            The line.
        """
        t = self.tail
        if t.p_method == "exact":
            how = f"exact over all C({self.n_female + self.n_male}, {self.n_female}) relabellings"
        elif t.p_method == "monte-carlo":
            how = (f"Monte Carlo over {t.n_permutations:,} random relabellings, add-one rule, {t.n_extreme:,} as "
                   f"extreme, resolution {t.resolution:.1g}, SE {t.se:.1g}")
        else:
            how = "normal approximation of the permutation distribution"
        return (f"mean P(neither) female − male = {self.difference:+.4f} (n = {self.n_female} + {self.n_male}); "
                f"{self.alternative} p = {self.p_value:.3g} ({how})")




def gender_permutation_test(p_neither, gender, *, alternative: str = "greater", p_method: str = "auto",
                            n_permutations: int = 100_000, seed: int = 0) -> GenderTest:
    """§4 "Results": is P(neither) higher for female pronouns than a random relabelling of genders gives?

    The statistic mean(female) − mean(male) is increasing in the sum over the female rows, so the
    permutation p is the subset-sum tail of :func:`wordbias.stats.permutation.subset_sum_tail` (k = number of
    female rows).

    Parameters
    ----------
    p_neither : array-like of float
        P(neither) of each row.
    gender : array-like of str
        ``"female"`` or ``"male"`` for each row.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        "greater" is the paper's direction (female higher); "two-sided" is twice the smaller one-sided p,
        capped at 1 (the engine's ``alternative``, both tails from the same draws).
    p_method : str, default "auto"
        How p is computed (one of ``wordbias.stats.permutation.P_METHODS``); "auto" is Monte Carlo for GAP's
        2,000 rows.
    n_permutations : int, default 100000
        Random relabellings of a Monte Carlo p (>= 1).
    seed : int or numpy.random.Generator, default 0
        Seed of the relabellings (an integer >= 0 or a generator).

    Returns
    -------
    GenderTest
        The statistic and its p.

    Raises
    ------
    InvalidParameterError
        When ``alternative`` or ``p_method`` is not in its list, or ``n_permutations`` or ``seed`` is invalid
        (checked first).
    ValueError
        When ``gender`` and ``p_neither`` differ in shape, or a gender is not "female" or "male".

    Examples
    --------
    >>> t = gender_permutation_test([0.9, 0.5, 0.4, 0.1, 0.2, 0.3], ["female"] * 3 + ["male"] * 3)
    >>> round(t.difference, 3), t.p_value, t.tail.p_method  # 1 of the C(6, 3) = 20 relabellings is as extreme
    (0.4, 0.05, 'exact')
    """
    check_option("alternative", alternative, ALTERNATIVES)
    check_option("p_method", p_method, P_METHODS)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    p = np.asarray(p_neither, dtype=np.float64)
    gender = np.asarray(gender, dtype=object)
    if p.shape != gender.shape:
        raise ValueError("one gender per probability is needed")
    unknown = set(gender.tolist()) - {"female", "male"}
    if unknown:
        raise ValueError(f"genders must be 'female' or 'male', got {sorted(unknown)}")
    fem = gender == "female"
    nf, nm = int(fem.sum()), int((~fem).sum())
    diff = float(p[fem].mean() - p[~fem].mean())

    t = subset_sum_tail(p, k=nf, observed_sum=float(p[fem].sum()), p_method=p_method,
                        n_permutations=n_permutations, seed=seed, alternative=alternative)
    return GenderTest(difference=diff, n_female=nf, n_male=nm, alternative=alternative, p_value=t.p_value, tail=t)


# ----------------------------------------------------------------------------------------------------
# the word scores of the topic bias
# ----------------------------------------------------------------------------------------------------


def topic_word_scores(masked_lm: contextual.Model, words: Sequence[str], *, batch_size: int = 32,
                      progress: bool = False) -> dict[str, float]:
    """§4: the log-probability bias score of each word, as used for the topic bias scores.

    The score of each word in "TARGET are interested in ATTRIBUTE" with TARGET = men vs women (positive =
    male).

    Parameters
    ----------
    masked_lm : Model
        The masked LM (:class:`wordbias.models.contextual.Model`).
    words : sequence of str
        The words to score.
    batch_size, progress : int, bool
        Sentences per model batch (default 32) and whether to show a progress bar (default False).

    Returns
    -------
    dict of str to float
        Each word's score.
    """
    g = stimuli.load_stimuli("kurita2019")["gap"]["topics"]
    pairs = mlm.TemplatePairs(g["template"], tuple((a, b) for a, b in g["targets"]))
    s = mlm.log_prob_bias_scores(masked_lm, list(words), [pairs], batch_size=batch_size, progress=progress)
    return dict(zip(words, s.tolist()))


def topic_word_scorer(masked_lm: contextual.Model | None, *, batch_size: int = 32
                      ) -> tuple[Callable[[list[str]], dict[str, float]] | None, str | None]:
    """The paper's word scorer for :func:`run`, and its description.

    Parameters
    ----------
    masked_lm : Model or None
        The masked LM; ``None`` when there is none.
    batch_size : int, default 32
        Sentences per model batch.

    Returns
    -------
    scorer : callable or None
        :func:`topic_word_scores` on ``masked_lm`` as a function of the words needed; ``None`` without a masked
        LM (then :func:`run` uses the :func:`cosine_word_scores` stand-in and says so).
    description : str or None
        What the scores are; ``None`` without a masked LM.
    """
    if masked_lm is None:
        return None, None
    return (functools.partial(topic_word_scores, masked_lm, batch_size=batch_size),
            f"log probability bias score on {masked_lm.label} (men vs women, 'TARGET are interested in ATTRIBUTE')")


def cosine_word_scores(encoder, words: Sequence[str], template: str = "GGG are interested in XXX",
                       targets: tuple[str, str] = ("men", "women"), *, target_slot: str = "GGG",
                       word_slot: str = "XXX", batch_size: int = 64, progress: bool = False) -> dict[str, float]:
    """A stand-in for the log probability bias score when no masked LM is available (not the paper's score).

    s(w) = cos(e_w, e_men) − cos(e_w, e_women), where e_w is the final-layer vector of w in the template
    with the target slot masked ("[MASK] are interested in w") and e_men, e_women the vectors of the
    targets with the word slot masked ("men are interested in [MASK]"): the WEAT-on-BERT association of
    Kurita et al. §3.1 applied to the §4 template. Positive = closer to "men". The paper's topic bias uses
    the MLM score (:func:`topic_word_scores`); use this only to exercise the pipeline on an encoder.

    Parameters
    ----------
    encoder : Model
        The encoder (:class:`wordbias.models.contextual.Model`).
    words : sequence of str
        The words to score (duplicates are scored once).
    template : str, default "GGG are interested in XXX"
        The template, with a target slot and a word slot.
    targets : tuple of (str, str), default ("men", "women")
        The two targets; positive scores are closer to the first.
    target_slot : str, default "GGG"
        The template's target slot.
    word_slot : str, default "XXX"
        The template's word slot.
    batch_size : int, default 64
        Sentences per model batch.
    progress : bool, default False
        Whether to show a progress bar.

    Returns
    -------
    dict of str to float
        Each word's score (empty when ``words`` is).
    """
    words = list(dict.fromkeys(words))
    if not words:
        return {}
    e_w = contextual.word_in_template_embeddings(encoder, words, [template], slot=word_slot, other=target_slot,
                                                 batch_size=batch_size, progress=progress)
    e_t = contextual.word_in_template_embeddings(encoder, list(targets), [template], slot=target_slot,
                                                 other=word_slot, batch_size=batch_size)
    U = e_w / np.linalg.norm(e_w, axis=1, keepdims=True)
    T = e_t / np.linalg.norm(e_t, axis=1, keepdims=True)
    cos = U @ T.T
    return dict(zip(words, (cos[:, 0] - cos[:, 1]).tolist()))


# ----------------------------------------------------------------------------------------------------
# the classifier's features: the encoder's vectors of A, B and P, cached on disk
# ----------------------------------------------------------------------------------------------------


def _features_key(model, texts: Sequence[str], sp, max_length: int, batch_size: int) -> str:
    """sha256 of everything the features depend on: model (name, path, size), texts, spans, max_length,
    batch_size and the batching order (padding changes the float rounding: :data:`wordbias.models.contextual.BATCHING`),
    the compute fingerprint (kernels, versions) and the route of the model's products
    (:func:`wordbias.models.blas_inference.route`)."""
    h = hashlib.sha256()
    cfg = model.model.config
    h.update(json.dumps([model.name, str(model.path), model.kind, cfg.hidden_size, cfg.num_hidden_layers,
                         int(max_length), int(batch_size), paths.compute_fingerprint(),
                         blas_inference.route(model.model), contextual.BATCHING], sort_keys=True).encode())
    for t, s in zip(texts, sp):
        h.update(t.encode("utf-8"))
        h.update(np.asarray(s, dtype=np.int64).tobytes())
    return h.hexdigest()


def features(model, df: pd.DataFrame, *, batch_size: int = 32, max_length: int = 512,
             cache_dir: str | Path | None = None, progress: bool = False) -> np.ndarray:
    """Contextual features of a GAP frame: [n, 3·hidden] float32, the final-layer vectors of A, B and P.

    Kurita et al. (2019) §4 "Model": "BERT embeddings for P, A and B, given the context", concatenated as
    [A, B, P] (the Kaggle kernel's order). A name split into several WordPieces gets the mean of its pieces
    (:func:`wordbias.models.contextual.span_embeddings`; the spans: :func:`wordbias.datasets.gap.spans`). With
    ``cache_dir`` the array is stored there as ``<model label>-<split>-<hash[:16]>.npz`` (no pickle, written
    atomically), the hash covering the model name and path, the texts, the spans, ``max_length``,
    ``batch_size`` and :func:`wordbias.core.paths.compute_fingerprint`; a cached file is used only if its stored
    full hash and the array's shape match. A cached file that is damaged (truncated, not a zip, missing arrays)
    or holds data of the wrong shape or dtype is reported with a
    :class:`~wordbias.core.errors.CacheRebuiltWarning` and recomputed (then overwritten).

    Parameters
    ----------
    model : Model
        The encoder (:class:`wordbias.models.contextual.Model`).
    df : pandas.DataFrame
        A GAP split (:func:`wordbias.datasets.gap.load`).
    batch_size : int, default 32
        Texts per model batch.
    max_length : int, default 512
        The longest input, in tokens.
    cache_dir : str or path-like or None, default None
        Where the features are cached; ``None`` computes them without a cache.
    progress : bool, default False
        Whether to show a progress bar.

    Returns
    -------
    numpy.ndarray
        The features, shape ``(len(df), 3 * hidden)``, float32.
    """
    texts = df["Text"].tolist()
    sp = gap.spans(df)
    cache_file = key = None
    if cache_dir is not None:
        key = _features_key(model, texts, sp, max_length, batch_size)
        split = df.attrs.get("split", "rows")
        cache_file = Path(cache_dir) / f"{model.label}-{split}-{key[:16]}.npz"
        cached = _read_features(cache_file, key, (len(texts), 3 * model.model.config.hidden_size))
        if cached is not None:
            return cached
    vecs = contextual.span_embeddings(model, texts, sp, batch_size=batch_size, max_length=max_length,
                                      progress=progress, desc=f"GAP {df.attrs.get('split', '')}".strip())
    X = vecs.reshape(len(texts), -1)
    if cache_file is not None:
        write_keyed_array(cache_file, key, "features", X, what="the GAP feature cache")
    return X


def _read_features(path: Path, key: str, shape: tuple[int, int]) -> np.ndarray | None:
    """The cached features at ``path`` if it holds ``key`` and a float32 array of ``shape``; ``None`` if the
    file is absent, or (with a :class:`~wordbias.core.errors.CacheRebuiltWarning`) damaged or wrong."""
    return read_keyed_array(path, key, "features", shape, what="GAP feature cache")


# ----------------------------------------------------------------------------------------------------
# everything in one call
# ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GapResult:
    """Section 4 in one object (see :func:`run`).

    Everything that depends on the trained MLP is given over the training seeds: per seed in ``seed_table``,
    and as mean, standard deviation, min and max elsewhere.

    Attributes
    ----------
    model : str
        The encoder's label.
    seeds : list of int
        The training seeds.
    table4 : pandas.DataFrame
        Gender × (``n``, ``n_neither``, ``prior``, ``avg_predicted`` mean/sd/min/max over seeds, ``paper_*``).
    test : GenderTest
        The permutation test on P(neither) averaged over the seeds' models.
    seed_table : pandas.DataFrame
        Seed × (accuracy, log loss, female − male, p, Spearman ρ and its p over the female rows).
    metrics : pandas.DataFrame
        Development accuracy and log loss (all, female, male rows): mean and sd over seeds.
    predictions : pandas.DataFrame
        Development rows: ``p_A``, ``p_B``, ``p_neither`` (seed means, sd), ``sample_bias`` (NMF mean, sd).
    topics : pandas.DataFrame
        Table 6 (top 5 words) with bias, ``n_scored``, ``missing``; stability and ``bias_sd`` over NMF restarts.
    correlations : pandas.DataFrame
        Spearman's ρ per subset, on the means; ρ's mean and sd over seeds and over NMF solutions.
    word_score_source : str
        What the topic words' scores are.
    missing_words : tuple of str
        Topic words without a score (dropped).
    nmf_restarts : int
        Random NMF restarts beside the deterministic solution.
    fit : SeedStudy
        The MLP's seed study (:class:`wordbias.models.mlp.SeedStudy`).
    timings : dict, default {}
        Seconds spent per step.
    """

    model: str
    seeds: list[int]
    table4: pd.DataFrame  # gender × (n, n_neither, prior, avg_predicted mean/sd/min/max over seeds, paper_*)
    test: GenderTest  # the permutation test on P(neither) averaged over the seeds' models
    seed_table: pd.DataFrame  # seed × (accuracy, log_loss, female − male, p, Spearman rho and p per subset)
    metrics: pd.DataFrame  # development accuracy / log loss (all, female, male): mean and sd over seeds
    predictions: pd.DataFrame  # development rows: p_A, p_B, p_neither (seed means, sd), sample_bias (NMF mean, sd)
    topics: pd.DataFrame  # Table 6 (top 5 words) + bias, n_scored, missing; stability, bias_sd over NMF restarts
    correlations: pd.DataFrame  # Spearman per subset, on the means; rho's mean/sd over seeds and NMF solutions
    word_score_source: str
    missing_words: tuple[str, ...]
    nmf_restarts: int  # random NMF restarts beside the deterministic solution
    fit: mlp.SeedStudy = field(repr=False)
    timings: dict = field(default_factory=dict)


def spread(values) -> dict:
    """Mean, sd (ddof 1; 0 for one value), min and max of a seed distribution.

    Parameters
    ----------
    values : array-like of float
        One value per seed.

    Returns
    -------
    dict
        ``mean``, ``sd``, ``min`` and ``max``, as floats.

    Examples
    --------
    >>> spread([1.0, 2.0, 3.0])
    {'mean': 2.0, 'sd': 1.0, 'min': 1.0, 'max': 3.0}
    """
    v = np.asarray(values, dtype=np.float64)
    return {"mean": float(v.mean()), "sd": float(v.std(ddof=1)) if v.size > 1 else 0.0,
            "min": float(v.min()), "max": float(v.max())}


def seed_study(encoder, *, seeds: Sequence[int], cfg: mlp.MLPConfig = mlp.MLPConfig(),
               cache_dir=CACHE_DIR, progress: bool = False, timings: dict | None = None
               ) -> tuple[pd.DataFrame, mlp.SeedStudy]:
    """Steps 1-2 of :func:`run`: the development split and the MLP's seed study on it.

    The protocol of the Kaggle kernel the paper names: features of the three splits (cached in
    ``cache_dir`` unless it is None); the MLP trained on ``gap-test`` + ``gap-validation`` (2,454 rows)
    predicts ``gap-development`` (2,000 rows), once per training seed
    (:func:`wordbias.models.mlp.fit_predict_seeds`, cached). The development split is the paper's "training
    set": its counts are the paper's (1,000 male and 1,000 female pronouns, 103 and 98 of them "neither"), and
    all of Table 4 and the topic correlation are computed on it.

    Parameters
    ----------
    encoder : Model
        The encoder whose features the MLP is trained on.
    seeds : sequence of int
        The training seeds.
    cfg : MLPConfig, default MLPConfig()
        The MLP's hyper-parameters (:class:`wordbias.models.mlp.MLPConfig`).
    cache_dir : str or path-like or None, default CACHE_DIR
        Where features and seed studies are cached; ``None`` caches nothing.
    progress : bool, default False
        Whether to show a progress bar.
    timings : dict or None, default None
        If given, receives the seconds spent (``features_s``, ``mlp_s``).

    Returns
    -------
    development : pandas.DataFrame
        The development split.
    study : SeedStudy
        The MLP's development probabilities per seed (:class:`wordbias.models.mlp.SeedStudy`).
    """
    timings = {} if timings is None else timings
    t0 = time.perf_counter()
    data = {s: gap.load(s) for s in gap.SPLITS}
    feats = {s: features(encoder, data[s], cache_dir=cache_dir, progress=progress) for s in gap.SPLITS}
    timings["features_s"] = time.perf_counter() - t0
    train = pd.concat([data["test"], data["validation"]], ignore_index=True)
    study = mlp.fit_predict_seeds(np.concatenate([feats["test"], feats["validation"]]),
                                  gap.label_codes(train["label"]), feats["development"], cfg=cfg, seeds=seeds,
                                  cache_dir=cache_dir)
    timings["mlp_s"] = study.seconds
    return data["development"], study


def _check_run_options(seed, seeds, n_permutations, n_topics, n_topic_words, nmf_restarts) -> None:
    """The options of :func:`run` (integers: a Generator cannot seed the per-seed refits and the NMF)."""
    check_int("seed", seed, min=0)
    if seeds is not None:
        if isinstance(seeds, (str, bytes)):
            raise InvalidParameterError(f"seeds must be a list of integer seeds, not the string {seeds!r}")
        seeds = list(seeds)
        if not seeds:
            raise InvalidParameterError("seeds is empty: give at least one training seed")
        for i, s in enumerate(seeds):
            check_int(f"seeds[{i}]", s, min=0)
    check_int("n_permutations", n_permutations, min=1)
    check_int("n_topics", n_topics, min=1)
    check_int("n_topic_words", n_topic_words, min=1)
    check_int("nmf_restarts", nmf_restarts, min=0)


def run(encoder, word_scores: Mapping[str, float] | Callable[[list[str]], Mapping[str, float]] | None = None, *,
        seed: int = 0, seeds: Sequence[int] | None = None, n_permutations: int = 100_000,
        cfg: mlp.MLPConfig = mlp.MLPConfig(), n_topics: int = 20, n_topic_words: int = 15, nmf_restarts: int = 10,
        cache_dir=CACHE_DIR, progress: bool = False, score_source: str | None = None) -> GapResult:
    """Kurita et al. (2019) §4 end to end on an encoder (:class:`wordbias.models.contextual.Model`).

    - Steps 1-2, :func:`seed_study`: the development split's features, and the MLP trained once per training
      seed in ``seeds`` (default: ``seed`` alone);
    - Step 3, Table 4 over the seeds, and the one-sided permutation test (female > male) with
      ``n_permutations`` relabellings, per seed and on P(neither) averaged over the seeds;
    - Step 4, ``n_topics`` (default 20) NMF topics of the development texts (Table 6: the deterministic
      ``nndsvd`` solution, with the share of ``nmf_restarts`` random restarts in which each topic recurs), their
      bias from ``word_scores`` (top ``n_topic_words`` words; words without a score are dropped and listed in
      ``missing_words``), the samples' bias averaged over all NMF solutions (with its sd) and Spearman's ρ with
      P(neither) over the female (the paper's) and, for comparison, the male rows; ρ's spread over seeds and
      NMF solutions.

    Parameters
    ----------
    encoder : Model
        The encoder.
    word_scores : mapping of str to float or callable or None, default None
        The topic words' scores: a mapping word → score, or a function of the list of words needed returning
        one (e.g. the first item of :func:`topic_word_scorer`); ``None`` uses :func:`cosine_word_scores` on
        ``encoder`` (a stand-in, recorded in ``word_score_source``).
    seed : int, default 0
        Seed of the permutations and the NMF, and the training seed when ``seeds`` is None (>= 0).
    seeds : sequence of int or None, default None
        The training seeds (each >= 0).
    n_permutations : int, default 100000
        Relabellings of the permutation test (>= 1).
    cfg : MLPConfig, default MLPConfig()
        The MLP's hyper-parameters.
    n_topics : int, default 20
        NMF topics (>= 1).
    n_topic_words : int, default 15
        Top words per topic whose scores give its bias (>= 1).
    nmf_restarts : int, default 10
        Random NMF restarts beside the deterministic solution (>= 0).
    cache_dir : str or path-like or None, default CACHE_DIR
        Where features, seed studies and the NMF topic solutions are cached (the topics as
        ``topics-<hash[:24]>.npz``, the hash covering the texts, ``n_topics``, ``nmf_restarts``, ``seed``, the
        package's sources and the compute fingerprint; no pickle, written atomically).
    progress : bool, default False
        Whether to show a progress bar.
    score_source : str or None, default None
        Names the caller's ``word_scores`` (default "caller's word scores").

    Returns
    -------
    GapResult
        Section 4 in one object.

    Raises
    ------
    InvalidParameterError
        When ``seed``, ``seeds``, ``n_permutations``, ``n_topics``, ``n_topic_words`` or ``nmf_restarts`` is
        invalid (checked before any work).
    """
    _check_run_options(seed, seeds, n_permutations, n_topics, n_topic_words, nmf_restarts)
    seeds = [int(seed)] if seeds is None else [int(s) for s in seeds]
    timings: dict = {}
    dev, study = seed_study(encoder, seeds=seeds, cfg=cfg, cache_dir=cache_dir, progress=progress, timings=timings)
    fem = (dev["gender"] == "female").to_numpy()
    y = gap.label_codes(dev["label"])
    mean_proba = study.proba.mean(axis=0)

    t0 = time.perf_counter()
    table = _table4_over_seeds(dev, study.proba[:, :, 2])
    per_seed = [gender_permutation_test(pr[:, 2], dev["gender"].to_numpy(), n_permutations=n_permutations, seed=seed)
                for pr in study.proba]
    test = gender_permutation_test(mean_proba[:, 2], dev["gender"].to_numpy(), n_permutations=n_permutations,
                                   seed=seed)
    timings["permutation_s"] = time.perf_counter() - t0
    metrics = _metrics_over_seeds(y, fem, study.proba)

    t0 = time.perf_counter()
    solutions = _topic_solutions(dev["Text"].tolist(), n_topics, nmf_restarts, seed, cache_dir=cache_dir)
    timings["topics_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    needed = list(dict.fromkeys(w for t in solutions for ws in top_words(t.components, t.vocabulary, n_topic_words)
                                for w in ws))
    word_scores, source = _word_scores(word_scores, encoder, needed, score_source)
    timings["word_scores_s"] = time.perf_counter() - t0
    biases = [topic_bias(t.components, t.vocabulary, word_scores, n_words=n_topic_words, on_missing="drop")
              for t in solutions]
    sbs = np.stack([sample_bias(t.doc_topic, b["bias"].to_numpy()) for t, b in zip(solutions, biases)])
    sb = sbs.mean(axis=0)
    corr, rhos = _correlations(sb, sbs, study.proba, mean_proba[:, 2], fem)
    seed_table = pd.DataFrame({
        "seed": seeds,
        "accuracy": [mlp.scores(y, pr)["accuracy"] for pr in study.proba],
        "log_loss": [mlp.scores(y, pr)["log_loss"] for pr in study.proba],
        "female_minus_male": [t.difference for t in per_seed],
        "p_female_higher": [t.p_value for t in per_seed],
        "rho_female": [r.rho for r in rhos["female"]],
        "rho_female_p": [r.p_value for r in rhos["female"]],
    }).set_index("seed")
    missing_words = tuple(sorted({w for b in biases for m in b["missing"] for w in m}))
    return GapResult(model=encoder.label, seeds=seeds, table4=table, test=test, seed_table=seed_table,
                     metrics=metrics, predictions=_predictions(dev, mean_proba, study.proba, sb, sbs),
                     topics=_table6(solutions, biases), correlations=corr, word_score_source=source,
                     missing_words=missing_words, nmf_restarts=len(solutions) - 1, fit=study, timings=timings)


def _table4_over_seeds(dev: pd.DataFrame, p_neither_by_seed: np.ndarray) -> pd.DataFrame:
    """Table 4 with the average predicted P(neither) given over the seeds (mean, sd, min, max)."""
    tables = [neither_table(dev, p) for p in p_neither_by_seed]
    out = tables[0][["n", "n_neither", "prior"]].copy()
    for gender in out.index:
        for stat, v in spread([t.at[gender, "avg_predicted"] for t in tables]).items():
            out.loc[gender, f"avg_predicted_{stat}"] = v
    out["paper_prior"] = PAPER_TABLE4["prior"]
    out["paper_avg_predicted"] = PAPER_TABLE4["avg_predicted"]
    return out


def _metrics_over_seeds(y: np.ndarray, fem: np.ndarray, proba_by_seed: np.ndarray) -> pd.DataFrame:
    """Development accuracy and log loss of each seed's model, for all rows, female and male pronouns:
    mean and sd over the seeds."""
    rows = {}
    for name, m in (("all", np.ones_like(fem)), ("female", fem), ("male", ~fem)):
        per = [mlp.scores(y[m], pr[m]) for pr in proba_by_seed]
        acc, ll = spread([p["accuracy"] for p in per]), spread([p["log_loss"] for p in per])
        rows[name] = {"n": per[0]["n"], "accuracy_mean": acc["mean"], "accuracy_sd": acc["sd"],
                      "log_loss_mean": ll["mean"], "log_loss_sd": ll["sd"]}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("rows")


def _topic_solutions(texts: list[str], n_topics: int, nmf_restarts: int, seed: int, *,
                     cache_dir=None) -> list[Topics]:
    """The deterministic ``nndsvd`` NMF solution first, then ``nmf_restarts`` random restarts (seeds
    seed+1, seed+2, ...); with ``cache_dir``, read back from ``topics-<key>.npz`` when it holds the same key."""
    cache_file = key = None
    if cache_dir is not None:
        h = hashlib.sha256(json.dumps([_TOPICS_CACHE_VERSION, n_topics, nmf_restarts, seed,
                                       paths.compute_fingerprint(), paths.source_digest()]).encode())
        h.update(json.dumps(list(texts), ensure_ascii=False).encode("utf-8", "surrogatepass"))   # unambiguous
        key = h.hexdigest()
        cache_file = Path(cache_dir) / f"topics-{key[:24]}.npz"
        cached = _read_topics(cache_file, key, 1 + nmf_restarts, (len(texts), n_topics))
        if cached is not None:
            return cached
    topics = fit_topics(texts, n_topics, seed=seed)
    restarts = refit_topics(texts, n_topics, seeds=range(seed + 1, seed + 1 + nmf_restarts))
    solutions = [topics] + restarts
    if cache_file is not None:
        arrays = {f"{name}{i}": getattr(t, name) for i, t in enumerate(solutions) for name in ("components", "doc_topic")}
        arrays.update({f"vocabulary{i}": np.asarray(t.vocabulary, dtype=str) for i, t in enumerate(solutions)})
        write_keyed_arrays(cache_file, key, {**arrays, "reconstruction_err": [t.reconstruction_err for t in solutions],
                                             "n_iter": [t.n_iter for t in solutions]}, what="the GAP topic cache")
    return solutions


#: bumped when what the topic solutions hold changes in a way the package sources would not show
_TOPICS_CACHE_VERSION = 1


def _read_topics(path: Path, key: str, n: int, doc_topic_shape: tuple[int, int]) -> list[Topics] | None:
    """The ``n`` cached topic solutions at ``path`` if it holds ``key`` and arrays of the right shapes; ``None`` if
    the file is absent, or (with a :class:`~wordbias.core.errors.CacheRebuiltWarning`) damaged or mismatched."""
    def check(z: dict) -> str | None:
        k = doc_topic_shape[1]
        ok = z["reconstruction_err"].shape == z["n_iter"].shape == (n,) and all(
            z[f"doc_topic{i}"].shape == doc_topic_shape and z[f"components{i}"].shape == (k, len(z[f"vocabulary{i}"]))
            for i in range(n))
        return None if ok else "holds arrays of other shapes"

    z = read_keyed_arrays(path, key, what="GAP topic cache", check=check, stacklevel=4)
    if z is None:
        return None
    return [Topics(vocabulary=z[f"vocabulary{i}"].astype(object),   # as scikit-learn gives it: Python str
                   components=z[f"components{i}"], doc_topic=z[f"doc_topic{i}"],
                   reconstruction_err=float(z["reconstruction_err"][i]), n_iter=int(z["n_iter"][i])) for i in range(n)]


def _word_scores(word_scores, encoder, needed: list[str], score_source: str | None) -> tuple[Mapping, str]:
    """The scores of the ``needed`` topic words and their description (see :func:`run`)."""
    if word_scores is None:
        return (cosine_word_scores(encoder, needed),
                f"cosine stand-in on {encoder.label} (not the paper's MLM score)")
    if callable(word_scores):  # e.g. the MLM score of the topic words, computed only for the words needed
        word_scores = word_scores(needed)
    return word_scores, score_source or "caller's word scores"


def _table6(solutions: list[Topics], biases: list[pd.DataFrame]) -> pd.DataFrame:
    """Table 6 of the first solution with its topics' bias, and each topic's stability and spread of bias
    over the other solutions."""
    topics, restarts = solutions[0], solutions[1:]
    table6 = topics_table(topics).join(biases[0])
    table6["stability"] = topic_stability(topics, restarts)
    table6["bias_sd"] = matched_spread(topics, restarts, [b["bias"].to_numpy() for b in biases[1:]])
    table6["weight_scored_sd"] = matched_spread(topics, restarts, [b["weight_scored"].to_numpy() for b in biases[1:]])
    return table6


def _correlations(sb: np.ndarray, sbs: np.ndarray, proba_by_seed: np.ndarray, p_mean: np.ndarray,
                  fem: np.ndarray) -> tuple[pd.DataFrame, dict]:
    """Spearman's ρ of the NMF-mean sample bias ``sb`` with the seed-mean P(neither) ``p_mean`` over the
    female and the male rows, with ρ's spread over the seeds (each seed's P(neither)) and over the NMF
    solutions (each solution's sample bias ``sbs``). Returns the table and the per-seed correlations."""
    subsets = (("female", fem), ("male", ~fem))
    rhos = {name: [bias_correlation(sb, pr[:, 2], mask, subset=name) for pr in proba_by_seed]
            for name, mask in subsets}
    rhos_nmf = {name: [bias_correlation(x, p_mean, mask, subset=name).rho for x in sbs] for name, mask in subsets}
    corr = pd.DataFrame([{**vars(bias_correlation(sb, p_mean, mask, subset=name)),
                          "rho_seed_mean": spread([r.rho for r in rhos[name]])["mean"],
                          "rho_seed_sd": spread([r.rho for r in rhos[name]])["sd"],
                          "rho_nmf_mean": spread(rhos_nmf[name])["mean"],
                          "rho_nmf_sd": spread(rhos_nmf[name])["sd"]}
                         for name, mask in subsets]).set_index("subset")
    return corr, rhos


def _predictions(dev: pd.DataFrame, mean_proba: np.ndarray, proba_by_seed: np.ndarray, sb: np.ndarray,
                 sbs: np.ndarray) -> pd.DataFrame:
    """The development rows with their seed-mean probabilities and NMF-mean sample bias (and their sd)."""
    return pd.DataFrame({"ID": dev["ID"], "gender": dev["gender"], "label": dev["label"], "p_A": mean_proba[:, 0],
                         "p_B": mean_proba[:, 1], "p_neither": mean_proba[:, 2],
                         "p_neither_sd": proba_by_seed[:, :, 2].std(axis=0, ddof=1) if len(proba_by_seed) > 1 else 0.0,
                         "sample_bias": sb, "sample_bias_sd": sbs.std(axis=0, ddof=1) if len(sbs) > 1 else 0.0})


# ----------------------------------------------------------------------------------------------------
# what the notebook shows
# ----------------------------------------------------------------------------------------------------


def table4_frame(g: GapResult) -> pd.DataFrame:
    """Table 4 paper vs ours, in percent: n, prior, average predicted P(neither) over the seeds.

    Parameters
    ----------
    g : GapResult
        :func:`run`'s result (its ``table4``).

    Returns
    -------
    pandas.DataFrame
        One row per gender.
    """
    t = g.table4
    return pd.DataFrame({"n": t["n"], "paper: prior %": 100 * t["paper_prior"], "ours: prior %": 100 * t["prior"],
                         "paper: avg predicted %": 100 * t["paper_avg_predicted"],
                         "ours: avg predicted %, seed mean": 100 * t["avg_predicted_mean"],
                         "seed sd": 100 * t["avg_predicted_sd"],
                         "seed min": 100 * t["avg_predicted_min"], "seed max": 100 * t["avg_predicted_max"]})


def table6_frame(g: GapResult, paper_topics: Sequence[str]) -> pd.DataFrame:
    """Table 6 with the paper's topics beside ours by rank only (topic order is arbitrary).

    Parameters
    ----------
    g : GapResult
        :func:`run`'s result (its ``topics``).
    paper_topics : sequence of str
        The paper's topics.

    Returns
    -------
    pandas.DataFrame
        ``g.topics`` with a ``paper (any order)`` column.
    """
    t6 = g.topics.copy()
    t6.insert(1, "paper (any order)", [paper_topics[i] if i < len(paper_topics) else "" for i in range(len(t6))])
    return t6


def correlation_frame(g: GapResult) -> pd.DataFrame:
    """The Spearman correlations with the paper's ρ and p beside the female row.

    Parameters
    ----------
    g : GapResult
        :func:`run`'s result (its Spearman ``correlations``).

    Returns
    -------
    pandas.DataFrame
        ``g.correlations`` with ``paper_rho`` and ``paper_p``.
    """
    return g.correlations.assign(paper_rho=[PAPER_SPEARMAN[0], np.nan], paper_p=[PAPER_SPEARMAN[1], np.nan])


def neither_figure(g: GapResult):
    """P(neither) by pronoun gender, and against the sample bias for the female pronouns.

    Histograms of P(neither) by gender, and a scatter of P(neither) against the sample bias for the female
    pronouns (the correlation of Table 6's text).

    Parameters
    ----------
    g : GapResult
        :func:`run`'s result.

    Returns
    -------
    matplotlib.figure.Figure
        The two-panel figure.
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
    pr = g.predictions
    # seaborn's histplot: the two genders share 40 bins, so their bars compare; the legend sits under the axes
    sns.histplot(data=pr[pr.gender.isin(["male", "female"])], x="p_neither", hue="gender",
                 hue_order=["male", "female"], palette={"male": "#4c72b0", "female": "#dd8452"}, bins=40,
                 alpha=0.6, ax=axes[0])
    axes[0].set_xlabel("predicted P(neither)")
    axes[0].set_ylabel("development samples")
    sns.move_legend(axes[0], "upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, frameon=False, title=None)
    axes[0].set_title(f"P(neither) by pronoun gender ({g.model}, seed mean)")
    fem = pr[pr.gender == "female"]
    axes[1].scatter(fem.sample_bias, fem.p_neither, s=4, alpha=0.5, color="#dd8452")
    axes[1].set_xlabel("sample bias (topic-weighted, + = male)")
    axes[1].set_ylabel("P(neither), female pronouns")
    axes[1].set_title(f"Spearman rho = {g.correlations.loc['female', 'rho']:.2f} (seed-mean P(neither))")
    fig.tight_layout()
    return fig
