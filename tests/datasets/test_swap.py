"""The counterfactual swap (wordbias.datasets.swap): exact on a hand-made corpus, drawn at its rate (binomial
intervals), nested over rates, symmetric at 0.5, part of the corpus's tokenisation and cache key (none at rate 0),
the shipped pair list as derived from debiaswe, and clear errors for bad pairs and rates."""
import hashlib
import json
import pickle
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import binomtest

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import swap as sw
from wordbias.datasets.corpora import CorpusSpec, load_corpus, read_corpus
from wordbias.datasets.swap import SwapSpec, check_pairs, load_pairs, swap_map, swap_sentence
from wordbias.models import train

PAIRS = (("he", "she"), ("king", "queen"), ("man", "woman"))
HAND = {"a.txt": "He met the queen. She said that the man was a king!\nNo pair word here.\n\nThe woman is he's.",
        "b.txt": "A man and a woman. Kings and queens stay."}


@pytest.fixture
def hand(tmp_path):
    """A folder of two documents: sentences with pair words, one without, and near-misses (``he's``, ``kings``)."""
    for name, text in HAND.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def _lines(tmp_path, sentences) -> CorpusSpec:
    """A file of one sentence a line (one document a line)."""
    path = tmp_path / "lines.txt"
    path.write_text("\n".join(sentences) + "\n", encoding="utf-8")
    return CorpusSpec(str(path))


def _sentences(corpus) -> list:
    return [s for d in corpus.documents for s in d]


# ------------------------------------------------------------------------------------------------ exact

def test_at_rate_1_every_pair_word_is_replaced_and_nothing_else(hand):
    original = read_corpus(hand)
    swapped = read_corpus(hand, swap=SwapSpec(PAIRS, rate=1.0))
    assert swapped.document_ids == original.document_ids and swapped.n_tokens == original.n_tokens
    assert swapped.documents == (
        (("she", "met", "the", "king"), ("he", "said", "that", "the", "woman", "was", "a", "queen"),
         ("no", "pair", "word", "here"), ("the", "man", "is", "he's")),
        (("a", "woman", "and", "a", "man"), ("kings", "and", "queens", "stay")))
    assert [len(d) for d in swapped.documents] == [len(d) for d in original.documents]
    record = swapped.tokenisation["swap"]
    assert (record["n_sentences"], record["n_sentences_swapped"], record["n_sentences_changed"]) == (6, 6, 4)
    mapping = swap_map(PAIRS)
    twice = tuple(tuple(swap_sentence(s, mapping) for s in d) for d in swapped.documents)
    assert twice == original.documents                     # a swap is its own inverse


def test_a_sentence_left_alone_is_the_original_s_tuple(hand):
    original = read_corpus(hand)
    swapped = read_corpus(hand, swap=SwapSpec(PAIRS, rate=1.0))
    assert swapped.documents[0][2] is original.documents[0][2]       # "no pair word here": shared, not copied


# ------------------------------------------------------------------------------------------------ the draw

def test_the_share_swapped_is_binomial_and_nested_over_rates(tmp_path):
    spec = _lines(tmp_path, [f"he spoke of {'ab' * (1 + i % 7)}" for i in range(2000)])
    original = _sentences(load_corpus(spec))
    changed = {}
    for rate in (0.3, 0.6):
        corpus = load_corpus(replace(spec, swap=SwapSpec([("he", "she")], rate, seed=11)))
        changed[rate] = {i for i, (a, b) in enumerate(zip(original, _sentences(corpus))) if a != b}
        k = corpus.tokenisation["swap"]["n_sentences_swapped"]
        assert k == len(changed[rate]) == corpus.tokenisation["swap"]["n_sentences_changed"]
        low, high = binomtest(k, 2000, rate).proportion_ci(confidence_level=0.999)
        assert low <= rate <= high, (rate, k)
    assert changed[0.3] < changed[0.6]                     # common random numbers: nested


def test_rate_one_half_is_symmetric_under_the_swap(tmp_path):
    n = 2000
    spec = _lines(tmp_path, [f"then he went {'xy' * (1 + i % 5)}" for i in range(n)])   # only one side occurs
    original = _sentences(load_corpus(spec))
    half = load_corpus(replace(spec, swap=SwapSpec([("he", "she")], 0.5, seed=5)))
    mapping = swap_map([("he", "she")])
    swapped_again = [swap_sentence(s, mapping) for s in _sentences(half)]
    complement = sw.swap_draws(n, 5) >= 0.5
    expected = [swap_sentence(s, mapping) if c else s for s, c in zip(original, complement)]
    assert swapped_again == expected
    counts = half.word_counts
    assert counts["he"] + counts["she"] == n
    for word in ("he", "she"):
        low, high = binomtest(counts[word], n, 0.5).proportion_ci(confidence_level=0.999)
        assert low <= 0.5 <= high, (word, counts[word])


# ------------------------------------------------------------------------------------------------ the cache key

def _key(corpus) -> str:
    run = train._Run("seed-1", "seed", 1, None)
    return train._run_key(corpus, train.TrainingSettings().as_dict(), run)


def test_rate_0_is_the_unswapped_corpus_and_two_rates_differ(hand):
    plain = CorpusSpec(str(hand))
    zero = CorpusSpec(str(hand), swap=SwapSpec(PAIRS, 0.0))
    assert zero == plain and zero.swap is None
    assert load_corpus(zero) is load_corpus(plain)
    keys = {rate: _key(load_corpus(replace(plain, swap=SwapSpec(PAIRS, rate)))) for rate in (0.0, 0.5, 1.0)}
    assert keys[0.0] == _key(load_corpus(plain))
    assert len(set(keys.values())) == 3
    other_seed = load_corpus(replace(plain, swap=SwapSpec(PAIRS, 0.5, seed=1)))
    assert _key(other_seed) != keys[0.5]
    record = load_corpus(replace(plain, swap=SwapSpec(PAIRS, 0.5))).tokenisation["swap"]
    assert record["pairs_sha256"] == sw.pairs_sha256(PAIRS) and record["n_pairs"] == 3 and record["rate"] == 0.5


def test_the_spec_is_picklable_and_case_follows_the_corpus(hand):
    spec = CorpusSpec(str(hand), swap=SwapSpec([("He", "She")], 0.5))
    assert spec.swap.pairs == (("he", "she"),)
    assert pickle.loads(pickle.dumps(spec)) == spec
    kept = CorpusSpec(str(hand), lowercase=False, swap=SwapSpec([("He", "She")], 1.0))
    assert kept.swap.pairs == (("He", "She"),)
    first = load_corpus(kept).documents[0]
    assert first[0][0] == "She" and first[1][0] == "He"     # matched as written
    with pytest.raises(InvalidParameterError, match="swap must be a wordbias.datasets.swap.SwapSpec"):
        CorpusSpec(str(hand), swap=0.5)


# ------------------------------------------------------------------------------------------------ pairs

def test_the_shipped_pairs_are_the_debiaswe_derivation(tmp_path):
    folder = paths.DATA / "swap"
    out = tmp_path / "pairs.csv"
    subprocess.run([sys.executable, str(folder / "make_pairs.py"), str(out)], check=True, capture_output=True)
    shipped = folder / "bolukbasi_gender_pairs.csv"
    assert out.read_bytes() == shipped.read_bytes()
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert digest in (folder / "SOURCE.md").read_text(encoding="utf-8")
    pairs = load_pairs("bolukbasi")
    assert len(pairs) == 45 and pairs[:3] == (("man", "woman"), ("boy", "girl"), ("he", "she"))
    assert ("husbands", "wives") in pairs and not any("_" in w for p in pairs for w in p)


def test_a_user_s_pairs_from_csv_tsv_and_json(tmp_path):
    (tmp_path / "p.csv").write_text("male,female\nhe,she\n\nKing , Queen\n", encoding="utf-8")
    (tmp_path / "p.tsv").write_text("a\tb\nhe\tshe\nKing\tQueen\n", encoding="utf-8")
    (tmp_path / "p.json").write_text(json.dumps([["he", "she"], ["King", "Queen"]]), encoding="utf-8")
    for name in ("p.csv", "p.tsv", "p.json"):
        assert load_pairs(tmp_path / name) == (("he", "she"), ("King", "Queen"))
        assert load_pairs(tmp_path / name, lowercase=True)[1] == ("king", "queen")


@pytest.mark.parametrize("pairs, message", [
    ([("he", "she"), ("him", "she")], r"'she' is in two pairs, pair 1 \('he', 'she'\) and pair 2 \('him', 'she'\)"),
    ([("he",)], r"pair 1: \('he',\) is not a pair of two words"),
    ([], "no pair; the swap needs at least one pair"),
    ([("he", "he")], "the two words are the same"),
    ([("ex_girlfriend", "ex_boyfriend")], "'ex_girlfriend' is not a single token"),
    ("he,she", "pairs must be a list of"),
])
def test_bad_pairs_are_refused(pairs, message):
    with pytest.raises(InvalidParameterError, match=message):
        check_pairs(pairs)


def test_bad_pair_files_name_the_file_and_the_line(tmp_path):
    (tmp_path / "three.csv").write_text("male,female\nhe,she\nking,queen,x\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"three.csv, line 3: 3 cells"):
        load_pairs(tmp_path / "three.csv")
    (tmp_path / "clash.csv").write_text("male,female\nHe,She\nhe,her\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"'he' is in two pairs, line 2 .* and line 3 .*lower-cased"):
        load_pairs(tmp_path / "clash.csv", lowercase=True)
    (tmp_path / "empty.csv").write_text("male,female\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="no pair"):
        load_pairs(tmp_path / "empty.csv")
    with pytest.raises(InvalidParameterError, match="neither a shipped pair list"):
        load_pairs("no-such-list")
    (tmp_path / "p.txt").write_text("he she\n", encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"a \.csv or \.tsv file"):
        load_pairs(tmp_path / "p.txt")


@pytest.mark.parametrize("rate", [1.5, -0.1, float("nan"), "0.5", True])
def test_bad_rates_are_refused(rate):
    with pytest.raises(InvalidParameterError, match="the swap rate must be a number in"):
        SwapSpec(PAIRS, rate)


def test_a_bad_seed_is_refused():
    with pytest.raises(InvalidParameterError, match="the swap seed must be a non-negative integer"):
        SwapSpec(PAIRS, 0.5, seed=-1)
    assert np.array_equal(sw.swap_draws(5, 3), np.random.default_rng(3).random(5))
