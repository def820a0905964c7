"""RNSB, the relative negative sentiment bias of a list of identity terms (Sweeney & Najafian 2019).

Sweeney, C. & Najafian, M. (2019). A Transparent Framework for Evaluating Unintended Demographic Bias in Word
Embeddings. *Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics (ACL)*,
1662-1667, https://doi.org/10.18653/v1/P19-1162, Section 3.

A logistic regression is trained on the vectors of negative (label 1) and positive (label 0) sentiment words;
each identity term t (here: every word of every target set) gets its predicted probability of the negative
class, p(t); these are normalised into a distribution P = p / Σ p over the terms, and

    RNSB = KL(P ‖ U) = Σ_t P(t) log(P(t) · N)

its Kullback-Leibler divergence from the uniform distribution U over the N terms (:func:`rnsb_statistic`). 0
when every term is as likely negative; larger when some terms carry more of the negative sentiment.

Determinism: the classifier is an L2-penalised logistic regression (``C=1``, the intercept not penalised:
scikit-learn's ``LogisticRegression`` defaults), fitted by default by Newton's method here (``solver="newton"``:
no randomness, the same optimum as scikit-learn's ``"lbfgs"`` and ``"newton-cholesky"``, without importing
scikit-learn); scikit-learn's solvers are options. Any random step (a holdout split, the ``"liblinear"`` or
``"sag"`` solvers, the resamples) takes ``seed``. The same seed gives the same number.

The interval (:func:`rnsb`) is over classifier training runs and words: each of ``n_resamples`` replicates
resamples the negative and positive training words and every target set's words, each with replacement, trains
a new classifier (on a new holdout split, if any) and recomputes RNSB; the percentile interval of the replicates
is reported (BCa would need a refit per jackknife sample). The bootstrap of a divergence from uniform is biased
upwards (repeated words make P less even), so the interval may sit above the estimate; read it as the spread of
RNSB over training sets and word lists.

No permutation test: RNSB pools the target sets (the set labels do not enter it), so permuting words between
sets leaves it unchanged; and its null, a uniform P, is not a sampling null: single words differ in their
predicted sentiment for many reasons besides the group they name, so RNSB > 0 even with no group bias.

Reconciling with WEFE 1.0.1 (``wefe.metrics.RNSB``): WEFE trains ``LogisticRegression(solver="liblinear",
max_iter=10000)`` on 80 % of the attribute words (a stratified holdout, ``random_state``) and returns the mean
over ``n_iterations`` runs; here ``solver="liblinear", holdout=0.2`` is WEFE's procedure, but not WEFE's split
for the same seed (WEFE stacks the positive words first, labelled +1/-1, and scikit-learn's stratified split
permutes classes in label order, so one seed holds out other words), so single runs differ and their
distributions over seeds agree (``benchmarks/check_wefe_metrics.py``: KS p = 0.11 and 0.18 over 50 seeds on two
word sets); with ``holdout=0`` and ``solver="liblinear"`` the two agree to 1e-16. The paper trains on every
sentiment word (``holdout=0``, the default). WEFE's ``normalize`` defaults to False, as here (the vectors are used as given).

``convention="wefe"`` is WEFE's procedure (Badilla et al. 2020, doi:10.24963/ijcai.2020/60; ``wefe/metrics/RNSB.py``,
``RNSB._train_classifier``): the positive words stacked first with label +1, the negative ones with −1, scikit-learn's
``train_test_split(test_size=0.2, shuffle=True, stratify=labels, random_state=seed)``, ``LogisticRegression(
solver="liblinear", max_iter=10000, random_state=seed)``, the probability of class −1. With the same seed it holds
out the same words as WEFE's ``run_query(..., holdout=True, random_state=seed)`` and gives its value (WEFE's default
``random_state=None`` draws a new split on each call, and ``n_iterations`` averages such calls). ``holdout=0`` with it
is WEFE's ``holdout=False``. :data:`CONVENTIONS` lists each convention's settings; a setting given explicitly
overrides the convention's.

A word in two lists (both sentiment lists, two target sets, a target set and a sentiment list) is refused, saying
why and what WEFE does with it (:data:`wordbias.measures.association.conventions.SHARED_WORDS`).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import check_int, check_option, check_real, check_seed
from wordbias.measures.association import conventions as _conventions
from wordbias.measures.sets import set_measures as _sm
from wordbias.options import Resampling, Words
from wordbias.stats.resampling import BootstrapInterval

__all__ = ["SOLVERS", "CONVENTIONS", "DEFAULT_RESAMPLING", "RnsbDetails", "rnsb_statistic", "rnsb"]

#: RNSB's resampling options when the call gives none: 200 replicates (each a classifier fit), percentile
DEFAULT_RESAMPLING = Resampling(n_resamples=200, ci_method="percentile")

#: scikit-learn's solvers for an L2-penalised logistic regression
SOLVERS = ("newton", "newton-cholesky", "lbfgs", "liblinear", "newton-cg", "sag", "saga")

#: how the classifier is trained, by convention: ``"sweeney"`` (Sweeney & Najafian 2019: every sentiment word,
#: the negative ones stacked first with label 1, the positive ones 0) and ``"wefe"`` (WEFE 1.0.1,
#: ``wefe/metrics/RNSB.py``: the positive ones first with label +1, the negative ones -1, WEFE's solver and holdout);
#: the solver, holdout and iterations each takes when not given
CONVENTIONS = {"sweeney": {"solver": "newton", "holdout": 0.0, "max_iter": 1000},
               "wefe": {"solver": "liblinear", "holdout": 0.2, "max_iter": 10000}}


@dataclass(frozen=True)
class RnsbDetails:
    """What :func:`rnsb` keeps beyond its numbers: each target word's probability of the negative class and its
    share of the distribution P, and the classifier's accuracy.

    Attributes
    ----------
    words : tuple of str
        The target words, all sets in order.
    negative_probability : numpy.ndarray
        p(t), the predicted probability of the negative class of each word.
    distribution : numpy.ndarray
        P(t) = p(t) / Σ p.
    accuracy : float
        The classifier's accuracy on its held-out words (``holdout > 0``), else on its training words.
    replicates : numpy.ndarray
        The RNSB of each bootstrap replicate (empty without an interval).
    """

    words: tuple[str, ...]
    negative_probability: np.ndarray = field(repr=False)
    distribution: np.ndarray = field(repr=False)
    accuracy: float
    replicates: np.ndarray = field(repr=False, default_factory=lambda: np.empty(0))


def _newton(X: np.ndarray, y: np.ndarray, C: float, max_iter: int) -> np.ndarray:
    """The L2-penalised logistic regression of scikit-learn's ``lbfgs``/``newton-cholesky`` solvers,
    min ½‖w‖² + C Σ_i [log(1 + e^{z_i}) − y_i z_i], z = Xw + b (the intercept b not penalised), by Newton's method
    (the objective is strictly convex; a step is halved until it decreases): the coefficients (w, b)."""
    n, d = X.shape
    Z = np.hstack([X, np.ones((n, 1))])
    beta = np.zeros(d + 1)
    pen = np.ones(d + 1)
    pen[-1] = 0.0

    def objective(b):
        z = Z @ b
        return 0.5 * (pen * b * b).sum() + C * (np.logaddexp(0.0, z) - y * z).sum()

    f = objective(beta)
    for _ in range(max_iter):
        p = 0.5 * (1.0 + np.tanh(0.5 * (Z @ beta)))           # the logistic function, without overflow
        grad = pen * beta + C * (Z.T @ (p - y))
        if np.abs(grad).max() <= 1e-10 * max(1.0, C * n):
            break
        H = np.diag(pen) + C * (Z.T * (p * (1.0 - p))) @ Z
        H[-1, -1] += 1e-12 * C * n                             # the intercept's curvature when every p is 0 or 1
        step = np.linalg.solve(H, grad)
        t = 1.0
        while t > 1e-8:
            new = objective(beta - t * step)
            if new <= f:
                break
            t /= 2.0
        beta, f = beta - t * step, new
    return beta


def _training_rows(neg: np.ndarray, pos: np.ndarray, convention: str):
    """The training rows, their labels and the label of the negative class: the negative rows first, label 1, and
    the positive rows, label 0; or, ``"wefe"``, as WEFE stacks them (``wefe/metrics/RNSB.py``,
    ``_train_classifier``): the positive rows first, label +1, then the negative rows, label -1. The order and the
    labels decide which words a stratified split with a given seed holds out."""
    if convention == "wefe":
        return np.vstack([pos, neg]), np.r_[np.ones(len(pos), dtype=int), -np.ones(len(neg), dtype=int)], -1
    return np.vstack([neg, pos]), np.r_[np.ones(len(neg), dtype=int), np.zeros(len(pos), dtype=int)], 1


def _fit(neg: np.ndarray, pos: np.ndarray, *, seed: int, solver: str, C: float, holdout: float, max_iter: int,
         convention: str = "sweeney"):
    """The probability of the negative class as a function of the rows (trained on the rows of
    :func:`_training_rows`), and the classifier's accuracy."""
    X, y, negative = _training_rows(neg, pos, convention)
    if holdout > 0:
        from sklearn.model_selection import train_test_split

        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=holdout, shuffle=True, random_state=seed, stratify=y)
        if len(set(ytr)) < 2:
            raise InvalidParameterError(f"holdout={holdout} leaves a class without training words")
    else:
        Xtr, Xte, ytr, yte = X, X, y, y
    if solver == "newton":
        beta = _newton(Xtr, (ytr == negative).astype(np.float64), C, max_iter)

        def p_negative(T):
            return 0.5 * (1.0 + np.tanh(0.5 * (np.asarray(T) @ beta[:-1] + beta[-1])))
    else:
        from sklearn.linear_model import LogisticRegression

        clf = LogisticRegression(solver=solver, C=C, max_iter=max_iter, random_state=seed).fit(Xtr, ytr)
        col = list(clf.classes_).index(negative)

        def p_negative(T):
            return clf.predict_proba(np.asarray(T))[:, col]
    accuracy = float(np.mean((p_negative(Xte) > 0.5) == (yte == negative)))
    return p_negative, accuracy


def _kl_uniform(p: np.ndarray) -> np.ndarray:
    """KL(P ‖ U) of P = p / Σ p along the last axis."""
    P = p / p.sum(axis=-1, keepdims=True)
    n = p.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(P > 0, P * np.log(P * n), 0.0)
    return terms.sum(axis=-1)


def _check(seed, solver, C, holdout, max_iter, convention):
    """The options checked; a solver, holdout or max_iter left None is the convention's (:data:`CONVENTIONS`)."""
    seed = check_seed("seed", seed)
    if isinstance(seed, np.random.Generator):
        seed = int(seed.integers(2 ** 31 - 1))
    check_option("convention", convention, tuple(CONVENTIONS))
    given = dict(solver=solver, holdout=holdout, max_iter=max_iter)
    fit = {k: CONVENTIONS[convention][k] if v is None else v for k, v in given.items()}
    check_option("solver", fit["solver"], SOLVERS)
    C = check_real("C", C, low=0, low_open=True)
    holdout = check_real("holdout", fit["holdout"], low=0, high=1, high_open=True)
    return seed, fit["solver"], C, holdout, check_int("max_iter", fit["max_iter"], min=1)


def _check_fit(seed, fit: Mapping):
    """(seed, solver, C, holdout, max_iter, convention): the classifier's keywords given to :func:`rnsb` (those of
    :func:`rnsb_statistic`), checked, with their defaults."""
    unknown = sorted(set(fit) - {"solver", "C", "holdout", "max_iter", "convention"})
    if unknown:
        raise InvalidParameterError(f"rnsb takes no option {', '.join(map(repr, unknown))}; the classifier's "
                                    "options are solver, C, holdout, max_iter and convention")
    convention = fit.get("convention", "sweeney")
    return (*_check(seed, fit.get("solver"), fit.get("C", 1.0), fit.get("holdout"), fit.get("max_iter"),
                    convention), convention)


def _targets(targets) -> list:
    if isinstance(targets, np.ndarray) and targets.ndim == 2:
        return [targets]
    if isinstance(targets, (str, bytes)) or not isinstance(targets, Sequence) or not len(targets):
        raise InvalidParameterError("targets must be a non-empty list of sets of word vectors (arrays of rows)")
    return list(targets)


def _refuse_shared(asked: Mapping, names: Mapping, tl: Sequence[str]) -> None:
    """Refuse a word in two of RNSB's lists, saying why (:data:`wordbias.measures.association.conventions.SHARED_WORDS`)."""
    pairs = [(a, b, "rnsb targets") for i, a in enumerate(tl) for b in tl[i + 1:]]
    pairs += [(t, s, "rnsb target and sentiment") for t in tl for s in ("A_negative", "A_positive")]
    for a, b, kind in [("A_negative", "A_positive", "rnsb sentiment"), *pairs]:
        _conventions.refuse_shared(names[a], asked[a], names[b], asked[b], kind)


def rnsb_statistic(targets, A_negative, A_positive, *, seed=0, solver: str | None = None, C: float = 1.0,
                   holdout: float | None = None, max_iter: int | None = None, convention: str = "sweeney") -> float:
    """RNSB (Sweeney & Najafian 2019, Section 3): KL(P ‖ U) of the normalised probabilities of negative sentiment
    of the target words, from a logistic regression trained on the negative and positive attribute words.

    Deterministic for a seed (the default solver has no randomness; a holdout split and the stochastic solvers
    take ``seed``).

    Parameters
    ----------
    targets : sequence of array-like of shape (n_i, d), or one such array
        The target sets' vectors (e.g. names of several groups), one row per word; pooled.
    A_negative, A_positive : array-like of shape (n_neg, d) and (n_pos, d)
        The vectors of the negative and the positive sentiment words (the training data); 2 or more each.
    seed : int or numpy.random.Generator, default 0
        Seeds the holdout split and the solver's randomness (``random_state``).
    solver : {"newton", "newton-cholesky", "lbfgs", "liblinear", "newton-cg", "sag", "saga"}, optional
        Newton's method here, or scikit-learn's solver (``"liblinear"``, WEFE's, also penalises the intercept: a
        slightly different fit). None: the convention's (``"newton"``; ``"liblinear"`` for ``"wefe"``).
    C : float, default 1.0
        The inverse strength of the L2 penalty (scikit-learn's default).
    holdout : float, optional
        The share of the attribute words held out of training (stratified); 0: train on all (the paper); 0.2:
        WEFE's. None: the convention's (0.0; 0.2 for ``"wefe"``).
    max_iter : int, optional
        The solver's iterations. None: the convention's (1000; 10000 for ``"wefe"``).
    convention : {"sweeney", "wefe"}, default "sweeney"
        How the training rows are stacked and labelled, and the defaults above (:data:`CONVENTIONS`):
        ``"wefe"`` splits and trains as WEFE 1.0.1 does, so that a seed gives WEFE's value for its
        ``random_state`` (see the module docstring).

    Returns
    -------
    float
        RNSB >= 0; 0 when every target word is as likely negative.

    Raises
    ------
    InvalidParameterError
        If a set is not a 2-D array of finite numbers, the sets differ in dimension, or an option is out of range.
    DegenerateSetError
        If a set is empty or holds a zero vector, or a sentiment set has fewer than 2 words.
    ValueError
        If the two sentiment sets share a vector.

    Examples
    --------
    The classes differ along the first axis only, so two target words with the same first coordinate are as
    likely negative: P = (½, ½) and RNSB = 0.

    >>> neg, pos = [[-1.0, 0.0], [-2.0, 0.5]], [[1.0, 0.0], [2.0, 0.5]]
    >>> round(rnsb_statistic([[[0.5, 0.2]], [[0.5, 0.9]]], neg, pos), 6) + 0.0
    0.0
    >>> round(rnsb_statistic([[[0.5, 0.2]], [[-3.0, 0.2]]], neg, pos), 4)     # the second is far more negative
    0.0972
    """
    seed, solver, C, holdout, max_iter = _check(seed, solver, C, holdout, max_iter, convention)
    T = _targets(targets)
    sets = {**{f"T{i + 1}": t for i, t in enumerate(T)}, "A_negative": A_negative, "A_positive": A_positive}
    m = _sm.vector_sets(sets, disjoint=[("A_negative", "A_positive")], least={"A_negative": 2, "A_positive": 2})
    p_negative, _ = _fit(m["A_negative"], m["A_positive"], seed=seed, solver=solver, C=C, holdout=holdout,
                         max_iter=max_iter, convention=convention)
    return float(_kl_uniform(p_negative(np.vstack([m[f"T{i + 1}"] for i in range(len(T))]))))


def rnsb(embedding, targets: Sequence[Sequence[str]], A_negative: Sequence[str], A_positive: Sequence[str], *,
         names: Mapping[str, str] | None = None, title: str | None = None, test: str = "",
         resampling: Resampling | None = None, words: Words | None = None, warn: bool = True, **fit):
    """RNSB (Sweeney & Najafian 2019) measured once on an embedding's words, with an interval over training runs
    and words; no test (see the module docstring).

    The statistic is :func:`rnsb_statistic` on the words found, trained with ``seed``. The interval: each of
    ``n_resamples`` replicates resamples the negative, the positive and every target set's words with
    replacement, retrains the classifier (a new holdout split when ``holdout > 0``; replicate seeds drawn from
    ``seed``) and recomputes RNSB; the percentile interval of the replicates. ``result`` is an
    :class:`RnsbDetails` (each target word's probability of the negative class).

    Parameters
    ----------
    embedding, names, title, test, words, warn
        As every set measure takes them (:mod:`~wordbias.measures.sets.set_measures`).
    targets : sequence of sequence of str
        The target lists (sets ``"T1"``, ``"T2"``, ...), pooled into one list of identity terms.
    A_negative, A_positive : sequence of str
        The negative and the positive sentiment words (sets ``"A_negative"``, ``"A_positive"``).
    resampling : Resampling, optional
        ``n_resamples``: the bootstrap replicates (each a classifier fit; 0 for no interval), ``confidence_level``
        the interval's level, ``seed`` the classifier's, the holdout split's and the replicates'; the interval is a
        percentile interval (``ci_method`` must be ``"percentile"`` when ``n_resamples`` is not 0); there is no test (``n_permutations`` is not
        used). None: :data:`DEFAULT_RESAMPLING`.
    **fit
        How the classifier is trained, the keywords of :func:`rnsb_statistic`: ``solver`` (Newton's method here,
        or scikit-learn's, :data:`SOLVERS`; None: the convention's), ``C`` (default 1.0: the inverse strength of
        the L2 penalty), ``holdout`` (the share of the sentiment words held out of training, 0.2: WEFE; None: the
        convention's), ``max_iter`` (None: the convention's) and ``convention`` ({"sweeney", "wefe"}, default
        "sweeney", :data:`CONVENTIONS`: ``"wefe"`` stacks, labels, splits and trains as WEFE 1.0.1 does, so that
        ``seed`` gives WEFE's value for ``random_state=seed``).

    Returns
    -------
    wordbias.result.Result
        RNSB (``effect_size``) with its interval, the coverage, and an :class:`RnsbDetails` in ``result``; no p.

    Raises
    ------
    InvalidParameterError, DegenerateSetError, KeyError
        As every set measure (:mod:`~wordbias.measures.sets.set_measures`): for two lists that share a word the
        message says why, and what WEFE does with such a word; a sentiment set needs 2 words.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> rng = np.random.default_rng(0)
    >>> words = [f"g{i}" for i in range(8)] + [f"n{i}" for i in range(10)] + [f"p{i}" for i in range(10)]
    >>> V = rng.normal(size=(28, 4)) + np.outer([1] * 4 + [-1] * 4 + [2] * 10 + [-2] * 10, np.eye(4)[0])
    >>> kv = to_keyed_vectors(words, V)
    >>> few = DEFAULT_RESAMPLING.replace(n_resamples=50)
    >>> a = rnsb(kv, [words[:4], words[4:8]], words[8:18], words[18:], resampling=few)
    >>> b = rnsb(kv, [words[:4], words[4:8]], words[8:18], words[18:], resampling=few)
    >>> round(a.effect_size, 4) == round(b.effect_size, 4), a.ci_low == b.ci_low, a.p_method
    (True, True, 'none')
    """
    c = _sm.call(resampling, words, default=DEFAULT_RESAMPLING, test=test, warn=warn)
    if c.resampling.n_resamples and c.resampling.ci_method != "percentile":
        raise InvalidParameterError(f"RNSB's interval is a percentile interval of classifier retrainings: "
                                    f"ci_method must be 'percentile', not {c.resampling.ci_method!r}")
    n_resamples, confidence_level = c.resampling.n_resamples, c.resampling.confidence_level
    seed, solver, C, holdout, max_iter, convention = _check_fit(c.resampling.seed, fit)
    if isinstance(targets, (str, bytes, Mapping)) or not isinstance(targets, Sequence) or not len(targets):
        raise InvalidParameterError(f"targets must be a non-empty list of word lists, not {targets!r:.80}")
    tl = [f"T{i + 1}" for i in range(len(targets))]
    fit = dict(solver=solver, C=C, holdout=holdout, max_iter=max_iter, convention=convention)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _sm.look_up(embedding, {**dict(zip(tl, targets)), "A_negative": A_negative, "A_positive": A_positive},
                          names=names, case_fold=c.words.case_fold, on_missing=c.words.on_missing, disjoint=False,
                          shared_vectors=c.words.shared_vectors)
        _refuse_shared(got.asked, got.names, tl)
        m = got.mats
        value = rnsb_statistic([m[k] for k in tl], m["A_negative"], m["A_positive"], seed=seed, **fit)
        p_negative, accuracy = _fit(m["A_negative"], m["A_positive"], seed=seed, **fit)
        p = p_negative(np.vstack([m[k] for k in tl]))
        reps, interval, note = np.empty(0), None, None
        if n_resamples:
            rng = np.random.default_rng(seed)
            reps = np.empty(n_resamples)
            for b in range(n_resamples):
                draw = {k: v[rng.integers(len(v), size=len(v))] for k, v in m.items()}
                sub = int(rng.integers(2 ** 31 - 1))
                try:
                    pn, _ = _fit(draw["A_negative"], draw["A_positive"], seed=sub, **fit)
                    reps[b] = _kl_uniform(pn(np.vstack([draw[k] for k in tl])))
                except ValueError:                # a replicate whose holdout leaves a class empty
                    reps[b] = np.nan
            ok = reps[np.isfinite(reps)]
            if ok.size >= 2:
                alpha = (1 - confidence_level) / 2
                lo, hi = np.quantile(ok, [alpha, 1 - alpha])
                interval = BootstrapInterval("rnsb", value, float(lo), float(hi), confidence_level, "percentile",
                                             n_resamples, tuple(m), float(ok.std(ddof=1)),
                                             int(n_resamples - ok.size))
            else:
                note = "no bootstrap interval: fewer than 2 replicates could be trained"
    words = tuple(w for k in tl for w in got.sets[k].words)
    details = RnsbDetails(words, p, p / p.sum(), accuracy, reps)
    n = got.names
    acc = f"classifier accuracy {accuracy:.2f} ({'held-out' if holdout else 'training'} words)"
    return _sm.measured(
        "rnsb", got, c, title=title or f"{', '.join(n[k] for k in tl)} on {n['A_negative']} vs {n['A_positive']}",
        statistic_name="KL(P || uniform)", statistic=value, interval=interval, test=None, caught=caught,
        notes=(note, acc, f"interval over classifier retrainings on resampled words ({solver}, C={C:g})"
               if interval is not None else None,
               "no test: RNSB pools the target sets, and its uniform null is not a sampling null"), result=details)
