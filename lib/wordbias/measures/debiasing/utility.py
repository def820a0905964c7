"""What an embedding still knows: word analogies and word similarity, each an estimate with an interval.

The utility checks that accompany debiasing (Bolukbasi et al. 2016, Section 6; Gonen & Goldberg 2019 and
Ravfogel et al. 2020 report them beside their bias checks), as gensim computes them
(``KeyedVectors.evaluate_word_analogies`` and ``evaluate_word_pairs``, gensim 4.4), vectorised:

- :func:`analogy_accuracy`: Mikolov, Chen, Corrado & Dean (2013), "Efficient Estimation of Word Representations
  in Vector Space", ICLR workshop, arXiv:1301.3781, Section 4.1: "a is to b as c is to ?" answered by 3CosAdd
  (Mikolov, Yih & Zweig 2013, NAACL, "Linguistic Regularities in Continuous Space Word Representations"): the
  word whose unit vector is closest in cosine to b − a + c (unit vectors), the three question words excluded,
  among the ``restrict_vocab`` most frequent words; questions with a word outside them are skipped and counted.
  Accuracy per section, per kind (semantic, syntactic) and overall, each with Wilson's score interval (the
  questions as binomial trials; they share words, so the interval is if anything too narrow).
- :func:`word_similarity`: Spearman's ρ between human scores and cosine similarity on WordSim-353 (Finkelstein
  et al. 2002, doi:10.1145/503104.503110) or SimLex-999 (Hill, Reichart & Korhonen 2015,
  doi:10.1162/COLI_a_00237); pairs with an out-of-vocabulary word are reported and left out; the interval is a
  percentile bootstrap over the pairs.

Both fold case as gensim does by default (``case_insensitive=True``: words compared upper-cased, a word's most
frequent casing standing for it) and restrict the vocabulary to its first 300,000 rows (gensim's default
``restrict_vocab``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from gensim.models import KeyedVectors

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.validation import check_bool, check_int, check_option, check_seed
from wordbias.datasets import utility as data
from wordbias.measures.debiasing.debias_checks import CheckResult, _kv, _level, _percentile, _unit, wilson_interval

__all__ = ["RESTRICT_VOCAB", "analogy_accuracy", "word_similarity"]

#: gensim's default ``restrict_vocab`` for both evaluations
RESTRICT_VOCAB = 300_000


def _ok_vocab(kv: KeyedVectors, restrict_vocab: int | None, case_insensitive: bool):
    """gensim's ``ok_vocab``: folded word -> row of its most frequent form among the first ``restrict_vocab``
    rows; and each row's representative row (its folded form's)."""
    keys = kv.index_to_key[:restrict_vocab] if restrict_vocab is not None else kv.index_to_key
    fold = str.upper if case_insensitive else (lambda w: w)
    folded = list(map(fold, keys))
    # reversed: the first (most frequent) form wins (dict() keeps the last value given for a key)
    ok: dict[str, int] = dict(zip(reversed(folded), range(len(folded) - 1, -1, -1)))
    rep = np.fromiter(map(ok.__getitem__, folded), dtype=np.int64, count=len(folded))
    return ok, rep, fold, len(keys)


def _check_restrict(restrict_vocab):
    return None if restrict_vocab is None else check_int("restrict_vocab", restrict_vocab, min=1)


def analogy_accuracy(embedding, questions: pd.DataFrame | None = None, *, restrict_vocab: int | None = RESTRICT_VOCAB,
                     case_insensitive: bool = True, confidence_level: float = 0.95, block_size: int = 64
                     ) -> CheckResult:
    """Word-analogy accuracy by 3CosAdd, as gensim's ``evaluate_word_analogies`` computes it, vectorised.

    Mikolov et al. (2013, Section 4.1): for each question "a : b :: c : d", the answer is the word w maximising
    cos(w, b − a + c) over the unit vectors of the first ``restrict_vocab`` words, a, b and c excluded (with
    ``case_insensitive``, any casing of them: gensim looks at its top 5 and takes the first that is not one of
    them). A question is correct when the answer is d (up to case). Questions with a word outside the
    restricted vocabulary are skipped and counted, not scored (gensim's ``dummy4unknown=False``).

    Parameters
    ----------
    embedding : KeyedVectors or str
        The embedding (anything :func:`wordbias.embeddings.load` takes), rows in frequency order for
        ``restrict_vocab`` to mean the most frequent words.
    questions : pandas.DataFrame, optional
        Columns ``section``, ``a``, ``b``, ``c``, ``d`` (and optionally ``kind``); by default
        :func:`wordbias.datasets.utility.analogy_questions`.
    restrict_vocab : int or None, default RESTRICT_VOCAB
        Use only the first ``restrict_vocab`` rows (gensim's default 300,000); None: all.
    case_insensitive : bool, default True
        Compare words upper-cased, as gensim does by default.
    confidence_level : float, default 0.95
        The level of the Wilson intervals.
    block_size : int, default 64
        Questions scored at once (memory: block_size x restrict_vocab float32).

    Returns
    -------
    CheckResult
        The overall accuracy with its Wilson interval (``n``: questions scored); ``table``: one row per section,
        then ``semantic``, ``syntactic`` and ``total``, with ``questions``, ``oov``, ``scored``, ``correct``,
        ``accuracy``, ``ci_low``, ``ci_high``; ``items``: every question with ``scored``, ``predicted`` and
        ``correct``; ``missing``: the distinct question words outside the restricted vocabulary.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``questions`` lacks a column, or an option is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["man", "woman", "king", "queen", "boy", "girl"]
    >>> X = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1], [0, 1, 1], [1, 0, -1], [0, 1, -1.2]], dtype=np.float32)
    >>> q = pd.DataFrame({"section": ["family"] * 3, "a": ["man", "man", "man"], "b": ["woman"] * 3,
    ...                   "c": ["king", "boy", "prince"], "d": ["queen", "girl", "princess"]})
    >>> r = analogy_accuracy(to_keyed_vectors(words, X), q)
    >>> r.estimate, r.n, r.missing
    (1.0, 2, ('prince', 'princess'))
    """
    kv = _kv(embedding, "embedding")
    restrict_vocab = _check_restrict(restrict_vocab)
    case_insensitive = check_bool("case_insensitive", case_insensitive)
    level = _level(confidence_level)
    block_size = check_int("block_size", block_size, min=1)
    if questions is None:
        questions = data.analogy_questions()
    if not isinstance(questions, pd.DataFrame):
        raise InvalidParameterError(f"questions must be a DataFrame, not {type(questions).__name__}")
    lacking = [c for c in ("section", "a", "b", "c", "d") if c not in questions.columns]
    if lacking:
        raise InvalidParameterError(f"questions lacks the column(s) {lacking}")
    q = questions.reset_index(drop=True).copy()
    if "kind" not in q.columns:
        q["kind"] = ["semantic" if s in data.SEMANTIC_SECTIONS else "syntactic" for s in q["section"]]

    ok, rep, fold, n_rows = _ok_vocab(kv, restrict_vocab, case_insensitive)
    idx = np.full((len(q), 4), -1, dtype=np.int64)
    for j, col in enumerate("abcd"):
        idx[:, j] = [ok.get(fold(str(w)), -1) for w in q[col]]
    scored = (idx >= 0).all(axis=1)
    V = _unit(kv.vectors[:n_rows])
    pred = np.full(len(q), -1, dtype=np.int64)
    rows = np.flatnonzero(scored)
    for start in range(0, len(rows), block_size):
        r = rows[start:start + block_size]
        a, b, c = idx[r, 0], idx[r, 1], idx[r, 2]
        S = (V[b] - V[a] + V[c]) @ V.T
        ar = np.arange(len(r))
        S[ar, a] = S[ar, b] = S[ar, c] = -np.inf
        best = S.argmax(axis=1)
        # gensim takes the first of its top 5 that is not a casing of a, b or c
        for _ in range(4):
            bad = (rep[best] == a) | (rep[best] == b) | (rep[best] == c)
            if not bad.any():
                break
            S[ar[bad], best[bad]] = -np.inf
            best[bad] = S[bad].argmax(axis=1)
        pred[r] = best
    correct = scored & (pred >= 0) & (rep[np.maximum(pred, 0)] == idx[:, 3])
    keys = kv.index_to_key
    q["scored"] = scored
    q["predicted"] = [keys[p] if p >= 0 else None for p in pred]
    q["correct"] = correct

    def row(name, kind, mask):
        n_s, n_c = int((mask & scored).sum()), int((mask & correct).sum())
        lo, hi = wilson_interval(n_c, n_s, level) if n_s else (math.nan, math.nan)
        return {"section": name, "kind": kind, "questions": int(mask.sum()), "oov": int((mask & ~scored).sum()),
                "scored": n_s, "correct": n_c, "accuracy": n_c / n_s if n_s else math.nan, "ci_low": lo,
                "ci_high": hi}

    sections = list(dict.fromkeys(q["section"]))
    table = [row(s, q.loc[q["section"] == s, "kind"].iloc[0], (q["section"] == s).to_numpy()) for s in sections]
    table += [row(k, k, (q["kind"] == k).to_numpy()) for k in ("semantic", "syntactic")]
    total = row("total", "total", np.ones(len(q), dtype=bool))
    table.append(total)
    missing = tuple(dict.fromkeys(str(w) for col in "abcd" for w, i in zip(q[col], idx[:, "abcd".index(col)])
                                  if i < 0))
    return CheckResult(
        check="analogy accuracy", estimate=total["accuracy"], ci_low=total["ci_low"], ci_high=total["ci_high"],
        ci_level=level, ci_method=f"Wilson score over {total['scored']:,} questions", n=total["scored"],
        words=(), missing=missing, seed=None, table=pd.DataFrame(table), items=q,
        extra={"questions": total["questions"], "oov_questions": total["oov"], "restrict_vocab": restrict_vocab,
               "semantic": table[-3]["accuracy"], "syntactic": table[-2]["accuracy"]})


def _spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata

    rx, ry = rankdata(x, axis=-1), rankdata(y, axis=-1)
    rx -= rx.mean(axis=-1, keepdims=True)
    ry -= ry.mean(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (rx * ry).sum(-1) / np.sqrt((rx * rx).sum(-1) * (ry * ry).sum(-1))


def word_similarity(embedding, pairs: str | pd.DataFrame = "wordsim353", *,
                    restrict_vocab: int | None = RESTRICT_VOCAB, case_insensitive: bool = True,
                    n_resamples: int = 2000, confidence_level: float = 0.95, seed: int = 0) -> CheckResult:
    """Spearman's ρ between human similarity scores and cosine similarity, as gensim's ``evaluate_word_pairs``.

    The standard intrinsic evaluation on WordSim-353 (Finkelstein et al. 2002) or SimLex-999 (Hill et al. 2015):
    the cosine of each pair's two words against the human score, ranked. Pairs with a word outside the first
    ``restrict_vocab`` rows are left out and reported (gensim's ``dummy4unknown=False``).

    Parameters
    ----------
    embedding : KeyedVectors or str
        The embedding.
    pairs : {"wordsim353", "simlex999"} or pandas.DataFrame, default "wordsim353"
        A bundled set (:func:`wordbias.datasets.utility.word_pairs`) or a frame with ``word1``, ``word2``,
        ``score``.
    restrict_vocab : int or None, default RESTRICT_VOCAB
        Use only the first ``restrict_vocab`` rows; None: all.
    case_insensitive : bool, default True
        Compare words upper-cased, as gensim does by default.
    n_resamples : int, default 2000
        Bootstrap resamples of the pairs for the interval; 0: none.
    confidence_level : float, default 0.95
        The interval's level.
    seed : int, default 0
        Seed of the bootstrap.

    Returns
    -------
    CheckResult
        ρ with its percentile-bootstrap interval (``n``: pairs scored); ``items``: every pair with its cosine
        (NaN when out of vocabulary) and ``scored``; ``missing``: the distinct out-of-vocabulary words;
        ``extra``: ``pearson``, ``pairs``, ``oov_pairs``.

    Raises
    ------
    wordbias.core.errors.InvalidParameterError
        If ``pairs`` is neither a bundled set nor a frame with the three columns, or an option is out of range.
    wordbias.core.errors.DegenerateSetError
        If fewer than 3 pairs are scored.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> kv = to_keyed_vectors(["cat", "dog", "car", "bus"],
    ...                       np.array([[1, .1], [.9, .2], [.1, 1], [.2, .9]], dtype=np.float32))
    >>> pairs = pd.DataFrame({"word1": ["cat", "cat", "car", "dog"], "word2": ["dog", "car", "bus", "zebra"],
    ...                       "score": [8.0, 1.0, 7.0, 3.0]})
    >>> r = word_similarity(kv, pairs, n_resamples=0)
    >>> round(r.estimate, 3), r.n, r.missing      # cosines 0.99, 0.20, 0.99 against 8, 1, 7: a tie in the ranks
    (0.866, 3, ('zebra',))
    """
    kv = _kv(embedding, "embedding")
    restrict_vocab = _check_restrict(restrict_vocab)
    case_insensitive = check_bool("case_insensitive", case_insensitive)
    n_resamples = check_int("n_resamples", n_resamples, min=0)
    seed = check_seed("seed", seed)
    level = _level(confidence_level)
    name = "pairs"
    if isinstance(pairs, str):
        name = check_option("pairs", pairs, data.PAIR_SETS)
        pairs = data.word_pairs(pairs)
    if not isinstance(pairs, pd.DataFrame) or not {"word1", "word2", "score"} <= set(pairs.columns):
        raise InvalidParameterError("pairs must be 'wordsim353', 'simlex999' or a DataFrame with word1, word2 and "
                                    "score")
    p = pairs.reset_index(drop=True)[["word1", "word2", "score"]].copy()
    ok, _, fold, n_rows = _ok_vocab(kv, restrict_vocab, case_insensitive)
    i1 = np.array([ok.get(fold(str(w)), -1) for w in p["word1"]], dtype=np.int64)
    i2 = np.array([ok.get(fold(str(w)), -1) for w in p["word2"]], dtype=np.int64)
    scored = (i1 >= 0) & (i2 >= 0)
    if scored.sum() < 3:
        raise DegenerateSetError(f"{int(scored.sum())} pair(s) in the vocabulary; Spearman's rho needs 3")
    U1, U2 = _unit(kv.vectors[i1[scored]]).astype(np.float64), _unit(kv.vectors[i2[scored]]).astype(np.float64)
    cos = np.full(len(p), np.nan)
    cos[scored] = np.einsum("ij,ij->i", U1, U2)
    human = p["score"].to_numpy(dtype=np.float64)[scored]
    model = cos[scored]
    rho = float(_spearman_rows(human, model))
    pearson = float(np.corrcoef(human, model)[0, 1])
    if n_resamples:
        rng = np.random.default_rng(seed)
        boot = rng.integers(0, len(human), size=(n_resamples, len(human)))
        lo, hi = _percentile(_spearman_rows(human[boot], model[boot]), level)
    else:
        lo = hi = math.nan
    p["cosine"] = cos
    p["scored"] = scored
    missing = tuple(dict.fromkeys([str(w) for w, i in zip(p["word1"], i1) if i < 0]
                                  + [str(w) for w, i in zip(p["word2"], i2) if i < 0]))
    return CheckResult(
        check=f"{name} spearman rho", estimate=rho, ci_low=lo, ci_high=hi, ci_level=level,
        ci_method=f"percentile bootstrap over pairs, {n_resamples:,} resamples" if n_resamples else "none",
        n=int(scored.sum()), words=(), missing=missing, seed=seed, items=p,
        extra={"pearson": pearson, "pairs": len(p), "oov_pairs": int((~scored).sum()),
               "restrict_vocab": restrict_vocab})
