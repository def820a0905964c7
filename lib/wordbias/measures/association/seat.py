"""The Sentence Encoder Association Test (SEAT) of May, Wang, Bordia, Bowman & Rudinger (2019).

May et al. (2019), "On Measuring Social Biases in Sentence Encoders", NAACL-HLT, pp. 622-628,
https://doi.org/10.18653/v1/N19-1063, §2: SEAT is Caliskan et al.'s (2017) WEAT with sentences in place of words:
each sentence of X, Y, A, B is encoded to one vector (:mod:`wordbias.models.sentence`: mean pooling for a
sentence-transformers model, ``[CLS]`` or mean for a BERT-like model, the mean of word vectors for a static
embedding, May et al.'s CBoW), and the WEAT statistic s(X, Y, A, B), the effect size d (sample standard deviation
of s(w, A, B) over X ∪ Y, as the authors' ``sentbias/weat.py``) and the one-sided permutation p are computed on
those vectors. The p is exact when the partitions of X ∪ Y are few enough to count, else Monte Carlo with
``n_permutations`` draws (May et al.: 100,000 samples, exact when there are fewer partitions, §3); the two-sided p
is given too. The WEAT machinery is :func:`wordbias.measures.association.measurement.weat` on the sentence vectors, so a SEAT
result is a :class:`~wordbias.result.Result` (``measure="seat"``) with the bootstrap interval of
d over the sentences of the four sets, the sets' coverage and the warnings.

**Coverage counts the test words.** Each sentence carries the test word (or phrase) it was built from
(:attr:`wordbias.datasets.seat.SeatTest.terms`). A word counts as found when the encoder sees it: a static
embedding (CBoW) when every token of the word is in its vocabulary
(:meth:`wordbias.models.sentence.StaticEncoder.sees`), a transformer always, as a subword tokeniser never misses a
word (:meth:`wordbias.models.sentence.TransformerEncoder.sees`). The sentences of a word not found are left out,
and so is a sentence whose own text of a found word has an unknown token ("asters" for "aster"): CBoW would
average the template's words alone. Per set, ``coverage`` is the words found / asked, ``dropped`` names the
missing words, ``n_x`` ... ``n_b`` count the sentences used, and a note counts the sentences left out; on a
transformer, another note names the test words its tokenizer splits into several tokens, with their pieces and
counts per set (:func:`wordbias.core.identity.split_words_note`: the word alone is tokenized; a flag, the sentences
are kept). A set left with fewer than 2 target words or no attribute word makes the test not run, with the
word-level WEAT's reason (:func:`wordbias.core.lookup.word_set`), and low coverage is judged on the words
(:func:`wordbias.measures.association.measurement.low_coverage`), so that a SEAT and its word-level twin agree on both.

**What the interval and the p assume.** Both treat each sentence as an exchangeable unit. In the ``sent-`` tests
one word yields several sentences (8 templates for a name, up to 10 for a noun), which share that word and are not
independent: the permutation p and the bootstrap over sentences overstate the evidence relative to a test whose
unit is the word (a cluster bootstrap that resamples words with all their sentences would be wider). Read the
interval as the sampling error of the sentence lists as given; :attr:`wordbias.datasets.seat.SeatTest.words`
recovers the word of each sentence for a reader who wants to check. May et al. raise the same concern about the
test's assumptions (§5).
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from wordbias import result as _result
from wordbias.core.errors import InvalidParameterError
from wordbias.core.progress import progress_bar
from wordbias.datasets import seat as _data
from wordbias.measures.association import measurement as _m
from wordbias.measures.association.weat import options_or_default
from wordbias.models import sentence as _sentence
from wordbias.options import Resampling, Words

__all__ = ["seat", "seats", "as_test", "sentence_keyed_vectors", "DEFAULT_RESAMPLING", "DEFAULT_WORDS"]

#: the resampling of :func:`seat` and :func:`seats` when none is given: May et al.'s 100,000 Monte Carlo
#: permutations, 10,000 resamples of a 95% BCa interval, seed 0
DEFAULT_RESAMPLING = Resampling(n_permutations=100_000)
#: their word policy when none is given: sentences matched as written, the sentences of a word the encoder lacks
#: dropped, target sets balanced at random, low coverage below 4 words or half a list
DEFAULT_WORDS = Words(case_fold=False)


def as_test(test_or_sets) -> _data.SeatTest:
    """A SEAT given by name, as a :class:`~wordbias.datasets.seat.SeatTest`, or as a mapping of sets.

    Parameters
    ----------
    test_or_sets : str or SeatTest or mapping
        A shipped test's name (:func:`wordbias.datasets.seat.test_names`), a test, or a mapping with ``X``,
        ``Y``, ``A``, ``B`` (lists of sentences) and optionally ``id``, ``title``, ``names``.

    Returns
    -------
    SeatTest
        The test; for a name, the shipped one (:func:`wordbias.datasets.seat.load_test`).

    Raises
    ------
    InvalidParameterError
        When a name is unknown, or a mapping lacks a set or a set is not a non-empty list of strings.

    Examples
    --------
    >>> as_test({"X": ["He is here."], "Y": ["She is here."], "A": ["A job."], "B": ["A home."]}).title
    'X vs Y, A vs B'
    """
    if isinstance(test_or_sets, _data.SeatTest):
        return test_or_sets
    if isinstance(test_or_sets, str):
        return _data.load_test(test_or_sets)
    if not isinstance(test_or_sets, Mapping):
        raise InvalidParameterError(f"a SEAT is a test name, a SeatTest or a mapping of X, Y, A, B to sentences, "
                                    f"not {type(test_or_sets).__name__}")
    sets = {}
    for role in "XYAB":
        v = test_or_sets.get(role)
        if isinstance(v, str) or not isinstance(v, Sequence) or not v or not all(isinstance(s, str) and s.strip()
                                                                                   for s in v):
            raise InvalidParameterError(f"set {role} must be a non-empty list of non-empty sentences, not {v!r}"[:200])
        sets[role] = tuple(v)
    names = {r: r for r in "XYAB"} | dict(test_or_sets.get("names") or {})
    title = test_or_sets.get("title") or f"{names['X']} vs {names['Y']}, {names['A']} vs {names['B']}"
    return _data.SeatTest(test_or_sets.get("id", ""), title, sets["X"], sets["Y"], sets["A"], sets["B"], names=names)


def sentence_keyed_vectors(vectors: _sentence.SentenceVectors):
    """The sentence vectors as gensim ``KeyedVectors`` keyed by sentence (the sentences dropped left out), the form
    the WEAT machinery looks words up in.

    Parameters
    ----------
    vectors : SentenceVectors
        The encoded sentences (:func:`wordbias.models.sentence.encode`).

    Returns
    -------
    gensim.models.KeyedVectors
        One key per sentence with a vector, in the order of ``vectors.sentences``.

    Raises
    ------
    InvalidParameterError
        When no sentence has a vector.

    Examples
    --------
    >>> from wordbias.models.sentence import SentenceVectors
    >>> sv = SentenceVectors(("Hi.", "Yo.", "Zed!"), np.array([[1, 0], [0, 1], [np.nan, np.nan]], dtype=np.float32),
    ...                      {"Zed!": "no known token"})
    >>> kv = sentence_keyed_vectors(sv)
    >>> kv.index_to_key, kv["Yo."].tolist()
    (['Hi.', 'Yo.'], [0.0, 1.0])
    """
    from wordbias.embeddings import to_keyed_vectors

    kept = [i for i, s in enumerate(vectors.sentences) if s not in vectors.dropped]
    if not kept:
        raise InvalidParameterError(f"the encoder {vectors.encoder} gave no sentence a vector")
    return to_keyed_vectors([vectors.sentences[i] for i in kept], np.ascontiguousarray(vectors.vectors[kept]))


class _Chosen(NamedTuple):
    """One set of a SEAT as the encoder sees it: the test words asked and missed, the sentences kept and those left
    out though their word is seen (its text in them has a token the encoder lacks)."""

    asked: tuple[str, ...]
    missing: tuple[str, ...]
    kept: tuple[str, ...]
    unseen_text: tuple[str, ...]
    left_out: int


def _choose(enc, test: _data.SeatTest, encoded: _sentence.SentenceVectors) -> dict[str, _Chosen]:
    """Per set, the test words (:attr:`~wordbias.datasets.seat.SeatTest.terms`) the encoder sees
    (:meth:`~wordbias.models.sentence.StaticEncoder.sees`) and the sentences kept: those whose word, and its text
    in the sentence, the encoder sees and that have a vector."""
    out = {}
    for role, terms in test.terms.items():
        asked = tuple(dict.fromkeys(term for term, _ in terms.values()))
        seen = {term: enc.sees(term) for term in asked}
        kept, unseen = [], []
        for sentence, (term, text) in terms.items():
            if not seen[term]:
                continue
            if enc.sees(text) and sentence not in encoded.dropped:
                kept.append(sentence)
            else:
                unseen.append(text)
        out[role] = _Chosen(asked, tuple(t for t in asked if not seen[t]), tuple(kept), tuple(unseen),
                            len(terms) - len(kept))
    return out


def _check_words(chosen: Mapping[str, _Chosen], names: Mapping[str, str]) -> None:
    """Fail as the word-level WEAT does when a set is left with too few test words (fewer than 2 targets or no
    attribute): :func:`wordbias.core.lookup.word_set`'s :class:`~wordbias.core.errors.DegenerateSetError`."""
    from wordbias.core import lookup
    from wordbias.measures.association.weat import MIN_ATTRIBUTE_SIZE, MIN_TARGET_SIZE

    for role, c in chosen.items():
        found = set(c.asked) - set(c.missing)
        lookup.word_set(found, c.asked, name=names.get(role, role), warn=False,
                        min_size=MIN_TARGET_SIZE if role in "XY" else MIN_ATTRIBUTE_SIZE)


def _in_words(m: _result.Result, chosen: Mapping[str, _Chosen], pooling: str, *, min_words: int,
              min_fraction: float) -> _result.Result:
    """The measurement with its coverage counted in test words: per set the words asked and missing, the
    sentences used and balanced out; the low-coverage flags judged on the words; a note on the sentences left
    out."""
    sets = tuple(_result.SetCoverage(s.letter, s.name, chosen[s.letter].asked, s.used, chosen[s.letter].missing,
                                s.balanced_out) for s in m.sets)
    n_left = sum(c.left_out for c in chosen.values())
    notes = m.notes
    if n_left:
        unseen = sorted({t for c in chosen.values() for t in c.unseen_text})
        notes = (f"{n_left} sentence(s) left out: the encoder ({pooling}) does not see their test word"
                 + (f" (as written: {', '.join(unseen[:6])})" if unseen else ""),) + notes
    flagged = _m._judge(sets, min_words=min_words, min_fraction=min_fraction).low
    return dataclasses.replace(m, measure="seat", sets=sets, flagged=flagged, notes=notes)


def _measure(enc, kv, encoded, test: _data.SeatTest, *, resampling: Resampling, words: Words,
             alternative: str) -> _result.Result:
    """One SEAT on the encoded sentences: the words checked, the sentences chosen, the WEAT measured on them
    (:func:`wordbias.measures.association.measurement._measure_weat`), counted in words."""
    chosen = _choose(enc, test, encoded)
    _check_words(chosen, test.names)
    m = _m._measure_weat(kv, *(chosen[r].kept for r in "XYAB"), test=test.id, title=test.title, names=test.names,
                         resampling=resampling, words=words, p_method="auto", p_methods=(),
                         alternative=alternative, progress=False, check_identity=False)
    m = _in_words(m, chosen, encoded.pooling, min_words=words.min_words, min_fraction=words.min_fraction)
    return _with_split_words(m, enc, chosen)


def _with_split_words(m: _result.Result, enc, chosen: Mapping[str, _Chosen]) -> _result.Result:
    """The result with a note on the test words a transformer's tokenizer splits into several tokens
    (:func:`wordbias.core.identity.split_words_note`); a static embedding (CBoW) has no tokenizer and no note."""
    from wordbias.core.identity import split_words_note

    if getattr(enc, "kind", None) != "transformer":
        return m
    found = {role: [t for t in c.asked if t not in c.missing] for role, c in chosen.items()}
    note = split_words_note(enc.model.tokenizer, found)
    return dataclasses.replace(m, notes=m.notes + (note,)) if note else m


def _not_run(enc, kv, encoded, test: _data.SeatTest, err: BaseException, *, seed: int,
             words: Words) -> _result.Result:
    """The result of a SEAT that could not run: NaN numbers, the reason, the coverage counted in words."""
    m = _m._weat_not_run(kv, _m.stimuli.as_weat_spec(test.as_spec()), err, case_fold=False, alternative="greater",
                         seed=seed, min_words=words.min_words, min_fraction=words.min_fraction)
    return _in_words(m, _choose(enc, test, encoded), encoded.pooling, min_words=words.min_words,
                     min_fraction=words.min_fraction)


def _options(resampling, words) -> tuple[Resampling, Words]:
    """The options of a SEAT: the caller's or :data:`DEFAULT_RESAMPLING` and :data:`DEFAULT_WORDS`; a sentence is
    matched as written and a word the encoder lacks drops its sentences, so ``case_fold`` and ``on_missing`` other
    than those are refused."""
    resampling, words = options_or_default(resampling, words, DEFAULT_RESAMPLING, DEFAULT_WORDS)
    if words.case_fold or words.on_missing != "drop":
        raise InvalidParameterError(f"a SEAT matches its sentences as written and drops the sentences of a word the "
                                    f"encoder lacks: words.case_fold must be None or False and words.on_missing "
                                    f"'drop', not {words.case_fold!r} and {words.on_missing!r}")
    return resampling, words.replace(case_fold=False)


def seat(encoder, test_or_sets, *, pooling: str | None = None, resampling: Resampling | None = None,
         words: Words | None = None, alternative: str = "greater", batch_size: int = 32, cache: bool = True,
         device: str | None = None, progress: bool = False) -> _result.Result:
    """Measure one SEAT (May et al. 2019, §2): d with its bootstrap interval, p one- and two-sided.

    Parameters
    ----------
    encoder : str or Model or KeyedVectors or sentence encoder
        Anything :func:`wordbias.models.sentence.load_sentence_encoder` takes: ``"all-minilm-l6-v2"``, a Hugging
        Face id or folder, a static embedding's name or ``KeyedVectors`` (CBoW), a loaded encoder.
    test_or_sets : str or SeatTest or mapping
        The test (:func:`as_test`).
    pooling : {"mean", "cls"} or None, default None
        A transformer's sentence representation (None: its sentence-transformers configuration, else ``"cls"``).
    resampling : Resampling, optional
        ``n_permutations`` (Monte Carlo draws when the partitions of X ∪ Y are too many to count), ``seed`` (of the
        balancing, the Monte Carlo p and the bootstrap), ``n_resamples`` (bootstrap resamples of the interval of d,
        over the sentences of each set; 0: no interval), ``confidence_level`` and ``ci_method`` of the interval
        (:class:`~wordbias.options.Resampling`). None: :data:`DEFAULT_RESAMPLING` (May et al.'s 100,000
        permutations; 10,000 resamples of a 95% BCa interval; seed 0).
    words : Words, optional
        ``balance_targets`` (unequal target sets, the shipped tests have equal ones:
        :func:`wordbias.measures.association.weat.balance`), ``min_words`` and ``min_fraction`` (the low-coverage
        flag, judged on the test words) (:class:`~wordbias.options.Words`); sentences are matched as written and
        a word the encoder lacks drops its sentences (``case_fold`` None or False, ``on_missing="drop"``). None:
        :data:`DEFAULT_WORDS`.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of ``p_value`` (May et al.: one-sided, greater); ``p_two_sided`` is always given.
    batch_size : int, default 32
        Sentences run through a network at once.
    cache : bool, default True
        Use the sentence-vector cache (:func:`wordbias.models.sentence.encode`).
    device : str, optional
        The torch device of a transformer loaded by name.
    progress : bool, default False
        Show progress bars.

    Returns
    -------
    Result
        ``measure="seat"``; ``sets`` hold the test words asked for and missing and the sentences used and
        balanced out (the module's docstring); the :class:`~wordbias.measures.association.weat.WeatResult` in ``result``.

    Raises
    ------
    InvalidParameterError
        When the test or an option is invalid, or the encoder gives no sentence a vector.
    wordbias.core.errors.DegenerateSetError
        When a set is left too small: fewer than 2 target words or no attribute word the encoder sees, or fewer
        than 2 target sentences or no attribute sentence kept.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["rose", "tulip", "ant", "wasp", "love", "hate", "this", "is", "."]
    >>> V = np.array([[1, .1, 0], [.9, .2, 0], [.1, 1, 0], [.2, .9, 0], [1, 0, 0], [0, 1, 0],
    ...               [0, 0, 1], [0, 0, 1], [0, 0, 1]], dtype=np.float32)
    >>> sets = {"X": ["This is rose.", "This is tulip."], "Y": ["This is ant.", "This is wasp."],
    ...         "A": ["This is love."], "B": ["This is hate."]}
    >>> r = seat(to_keyed_vectors(words, V), sets, resampling=Resampling(n_resamples=0), cache=False)
    >>> r.measure, r.p_method, round(r.p_value, 3), r.coverage
    ('seat', 'exact', 0.167, 'X 2/2; Y 2/2; A 1/1; B 1/1')
    """
    test = as_test(test_or_sets)
    resampling, words = _options(resampling, words)
    _m._check_choices(alternative=alternative)
    enc = _sentence.load_sentence_encoder(encoder, pooling=pooling, device=device)
    encoded = _sentence.encode(enc, test.sentences, batch_size=batch_size, cache=cache, progress=progress)
    m = _measure(enc, sentence_keyed_vectors(encoded), encoded, test, resampling=resampling, words=words,
                 alternative=alternative)
    _m._replay(m.warnings)                               # given to the caller, and kept in the result
    if m.flagged:
        m = dataclasses.replace(m, warnings=m.warnings + (_m._warn_low(m.title, m.flagged),))
    return m


def seats(encoder, tests: Sequence | None = None, *, pooling: str | None = None, family: str | None = None,
          resampling: Resampling | None = None, words: Words | None = None, batch_size: int = 32,
          cache: bool = True, device: str | None = None,
          progress: bool = False) -> tuple[list[_result.Result], _sentence.SentenceVectors]:
    """Measure a battery of SEATs, each once, with Holm's and Benjamini-Hochberg's adjusted p.

    Every sentence of the battery is encoded once (:func:`wordbias.models.sentence.encode`); each test is then
    :func:`seat`'s (one-sided p, ``alternative="greater"``, as May et al.); the p-values of the tests that ran are
    adjusted together (:func:`wordbias.measures.association.measurement.adjusted`). A test that cannot run (a set left too
    small, in test words as the word-level WEAT's) gives a result with NaN numbers, the reason in ``not_run`` and
    the coverage in words.

    Parameters
    ----------
    encoder : str or Model or KeyedVectors or sentence encoder
        As :func:`seat`; loaded once.
    tests : sequence, optional
        Test names (glob patterns such as ``"sent-*"`` allowed), :class:`~wordbias.datasets.seat.SeatTest` or
        mappings; default: the 46 shipped tests.
    pooling : {"mean", "cls"} or None, default None
        As :func:`seat`.
    family : str, optional
        What names the family of the adjusted p.
    resampling, words, batch_size, cache, device, progress
        As :func:`seat`.

    Returns
    -------
    results : list of Result
        One per test, in order, with ``p_holm``, ``p_bh``, ``p_family``.
    vectors : SentenceVectors
        The battery's sentence vectors (``seconds`` and ``rate``: the encoding time and sentences per second).

    Raises
    ------
    InvalidParameterError
        When ``tests`` is a string or empty, a test is invalid, or an option is out of range.

    Examples
    --------
    >>> from wordbias.embeddings import to_keyed_vectors
    >>> words = ["rose", "tulip", "ant", "wasp", "love", "hate", "this", "is", "."]
    >>> V = np.array([[1, .1, 0], [.9, .2, 0], [.1, 1, 0], [.2, .9, 0], [1, 0, 0], [0, 1, 0],
    ...               [0, 0, 1], [0, 0, 1], [0, 0, 1]], dtype=np.float32)
    >>> flowers = {"id": "flowers", "X": ["This is rose.", "This is tulip."], "Y": ["This is ant.", "This is wasp."],
    ...            "A": ["This is love."], "B": ["This is hate."]}
    >>> insects = {**flowers, "id": "insects", "X": flowers["Y"], "Y": flowers["X"]}
    >>> results, vectors = seats(to_keyed_vectors(words, V), [flowers, insects], resampling=Resampling(n_resamples=0),
    ...                          cache=False)
    >>> [(m.test, round(m.effect_size, 2), round(m.p_value, 3), round(m.p_holm, 3)) for m in results]
    [('flowers', 1.72, 0.167, 0.333), ('insects', -1.72, 1.0, 1.0)]
    >>> len(vectors.sentences), vectors.pooling
    (6, 'cbow')
    """
    resampling, words = _options(resampling, words)
    if tests is None:
        specs = _data.load_tests()
    else:
        if isinstance(tests, (str, Mapping)) or not list(tests):
            raise InvalidParameterError(f"tests must be a non-empty list of SEATs, not {tests!r}"[:200])
        names = [t for t in tests if isinstance(t, str)]
        loaded = iter(_data.load_tests(names)) if names else iter(())
        specs = []
        for t in tests:
            if isinstance(t, str):
                specs += _data.load_tests([t]) if any(c in t for c in "*?[") else [next(loaded)]
            else:
                specs.append(as_test(t))
    enc = _sentence.load_sentence_encoder(encoder, pooling=pooling, device=device)
    sentences = list(dict.fromkeys(s for t in specs for s in t.sentences))
    encoded = _sentence.encode(enc, sentences, batch_size=batch_size, cache=cache, progress=progress)
    kv = sentence_keyed_vectors(encoded)
    out = []
    with progress_bar(len(specs), desc="SEATs", unit="test", enabled=progress) as bar:
        for t in specs:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    m = _measure(enc, kv, encoded, t, resampling=resampling, words=words, alternative="greater")
                except _m.NOT_RUN_ERRORS as err:
                    m = _not_run(enc, kv, encoded, t, err, seed=resampling.seed, words=words)
            out.append(m)
            bar.update(1)
    n_ran = sum(math.isfinite(m.p_value) for m in out)
    what = f"the {n_ran} SEATs with a p-value (one-sided p)"
    return _m.adjusted(out, family=f"{family}: {what}" if family else what), encoded
