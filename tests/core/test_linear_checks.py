"""Checks on word lists take linear time: overlaps and duplicates are found with sets and dicts, never by
comparing every word with every other.

Each test runs a check on 100,000 words per list and asserts a time bound generous enough for a busy 2-core
machine (10 s) that a pairwise check could never meet: 100,000 x 100,000 comparisons are 10^10 steps, hours in
Python (the overlap check of ``wordbias.weat`` took 44 s on 40,000 + 40,000 words when it rebuilt a set for every
word). The error messages keep their wording.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from wordbias.core import lookup
from wordbias.core.errors import InvalidParameterError
from wordbias.core.validation import check_disjoint, check_words, repeated
from wordbias.datasets.user_lists import read_user_lists
from wordbias.embeddings import to_keyed_vectors
from wordbias.measures.association import weat as W

N = 100_000
#: seconds: generous for a loaded 2-core machine, out of reach of a quadratic check
BOUND = 10.0


def words(prefix: str, n: int = N) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def test_disjoint_lists_of_100k_words_are_checked_in_linear_time():
    x, y = words("x"), words("y")
    _, seconds = timed(lambda: check_disjoint("X", x, "Y", y))
    assert seconds < BOUND


def test_overlapping_lists_of_100k_words_name_every_shared_word_in_linear_time():
    x, y = words("w"), words("w")[::-1]
    with pytest.raises(InvalidParameterError, match=r"^X and Y share words: \['w0', 'w1', 'w2', ") as err:
        t0 = time.perf_counter()
        check_disjoint("X", x, "Y", y)
    assert time.perf_counter() - t0 < BOUND
    assert str(err.value).count("'w") == N  # every shared word, once, in X's order


def test_duplicates_of_100k_words_are_found_in_linear_time():
    many = words("w") + words("w")  # 100,000 words, each twice
    dups, seconds = timed(lambda: repeated(many))
    assert seconds < BOUND and dups == words("w")
    with pytest.raises(InvalidParameterError, match=r"^X lists these words more than once: \['w0', 'w1', "):
        check_words("X", many)


def test_weat_check_sets_with_100k_words_per_list():
    X, Y, A, B = words("x"), words("y"), words("a"), words("b")
    out, seconds = timed(lambda: W.check_sets(X, Y, A, B))
    assert seconds < BOUND and [len(s) for s in out] == [N] * 4
    with pytest.raises(InvalidParameterError, match=r"target sets X and Y share words: \['x5'\]"):
        W.check_sets(X, Y[:-1] + ["x5"], A, B)
    _, seconds = timed(lambda: W.check_sets([w.upper() for w in X], Y, A, B, case_fold=True))
    assert seconds < BOUND


def test_lookup_of_100k_words_per_set():
    vocab = words("x") + words("y")
    kv = to_keyed_vectors(vocab, np.ones((len(vocab), 2), dtype=np.float32))
    sv, seconds = timed(lambda: lookup.set_vectors(kv, words("x"), words("y") + ["zz"], warn=False))
    assert seconds < BOUND
    assert sv.A.shape == (N, 2) and sv.missing == ((), ("zz",))


def test_weat_on_40k_plus_40k_random_words_answers_in_seconds():
    """The tester's case: a random embedding, 40,000 + 40,000 target words (44 s in the overlap check before)."""
    rng = np.random.default_rng(0)
    n = 40_000
    vocab = words("w", 2 * n + 20)
    kv = to_keyed_vectors(vocab, rng.normal(size=(len(vocab), 10)).astype(np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r, seconds = timed(lambda: W.weat(kv, vocab[:n], vocab[n:2 * n], vocab[2 * n:2 * n + 10],
                                          vocab[2 * n + 10:], p_method="normal"))
    assert seconds < BOUND and len(r.s_x) == len(r.s_y) == n


def test_a_word_list_file_of_100k_words_is_read_in_seconds(tmp_path):
    """The tester's file: 100,000 words (50,000 a target set), no answer in a minute before."""
    n = N // 2
    path = tmp_path / "big.yaml"
    text = ["weat:\n  - id: big\n    targets:\n"]
    for role, prefix in (("X", "x"), ("Y", "y")):
        text.append(f"      {role}:\n        name: {role}\n        words:\n")
        text.append("".join(f"          - {w}\n" for w in words(prefix, n)))
    text.append("    attributes:\n      A: [good, nice]\n      B: [bad, awful]\n")
    path.write_text("".join(text), encoding="utf-8")
    lists, seconds = timed(lambda: read_user_lists(path))
    assert seconds < BOUND
    assert lists.weat[0].X == tuple(words("x", n)) and lists.weat[0].Y[-1] == f"y{n - 1}"
    # the same file with one word in both X and Y: the same check, the same wording
    path.write_text("".join(text).replace(f"- y{n - 1}\n", "- x7\n"), encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"test 'big': targets X and Y share words \['x7'\]"):
        t0 = time.perf_counter()
        read_user_lists(path)
    assert time.perf_counter() - t0 < BOUND


def test_a_word_listed_twice_in_a_100k_word_file_is_named(tmp_path):
    path = tmp_path / "dup.yaml"
    body = ", ".join(words("x") + ["x42"])
    path.write_text(f"weat:\n  - id: d\n    targets: {{X: [{body}], Y: [y]}}\n    attributes: {{A: [a], B: [b]}}\n",
                    encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"targets\.X: lists these words more than once: \['x42'\]"):
        t0 = time.perf_counter()
        read_user_lists(path)
    assert time.perf_counter() - t0 < BOUND
