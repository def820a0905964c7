"""Words a token model's tokenizer splits into several tokens: found (wordbias.core.identity.split_words), and named
with counts in the notes of SEAT on a transformer and of the contextual measures, the numbers as measured."""
import dataclasses
import math
import warnings
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from wordbias.core.errors import InvalidParameterError
from wordbias.core.identity import split_words, split_words_note
from wordbias.models.stand_in import StandInTokenizer
from wordbias.options import Resampling

RESULTS = Path(__file__).resolve().parents[2] / "results"
PIECES = {"tamika": ["ta", "##mi", "##ka"], "amy": ["amy"], "european": ["european"], "american": ["american"],
          "bluebell": ["blue", "##bell"]}
#: a WordPiece-like tokenizer by hand: lower-cases, splits at white space, the pieces of each word as listed
WORDPIECE = SimpleNamespace(tokenize=lambda text: [p for w in text.lower().split() for p in PIECES[w]])
#: a tiny WordPiece vocabulary in which "Robert" is two pieces and every other word one
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "tom", "bill", "ann", "amy", "he", "she", "boys", "girls",
         "men", "women", "likes", "like", "is", "interested", "in", "music", "sports", "art", "this", ".", "ro",
         "##bert"]


def test_split_words_finds_the_words_of_several_tokens_with_their_pieces():
    assert split_words(WORDPIECE, ["Amy", "Tamika", "European American"]) == {"Tamika": ("ta", "##mi", "##ka")}
    assert split_words(WORDPIECE, ["Amy", "Tamika", "Tamika"]) == {"Tamika": ("ta", "##mi", "##ka")}  # once
    # a phrase of whole words is not split; one with a split word is, with every token of the phrase
    assert split_words(WORDPIECE, ["European American", "European bluebell"]) == {
        "European bluebell": ("european", "blue", "##bell")}
    # the stand-in knows whole words only: a known word and an unknown one (the one unknown token) are not split
    assert split_words(StandInTokenizer(["nurse"]), ["nurse", "zebra"]) == {}


def test_split_words_note_counts_per_set():
    note = split_words_note(WORDPIECE, {"X": ["Amy", "Tamika"], "Y": ["Amy"], "A": ["Bluebell", "Tamika"]})
    assert note == "split into several tokens: X 1/2: Tamika (ta ##mi ##ka); A 2/2: Bluebell (blue ##bell), " \
                   "Tamika (ta ##mi ##ka)"
    assert split_words_note(WORDPIECE, {"X": ["Amy"], "Y": []}) == ""


def test_split_words_refuses_what_is_not_a_tokenizer_or_a_word_list():
    with pytest.raises(InvalidParameterError, match="tokenize"):
        split_words(object(), ["Amy"])
    with pytest.raises(InvalidParameterError, match="list of words"):
        split_words(WORDPIECE, "Amy")
    with pytest.raises(InvalidParameterError, match="strings"):
        split_words(WORDPIECE, ["Amy", 3])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A tiny random BERT masked LM over VOCAB: its encoder and its masked LM."""
    torch = pytest.importorskip("torch")
    from transformers import BertConfig, BertForMaskedLM, BertTokenizerFast

    from wordbias.models import contextual

    folder = tmp_path_factory.mktemp("tiny-split-bert")
    tok = BertTokenizerFast(vocab={w: i for i, w in enumerate(VOCAB)}, do_lower_case=True)
    assert tok.tokenize("Robert likes music") == ["ro", "##bert", "likes", "music"]
    torch.manual_seed(0)
    BertForMaskedLM(BertConfig(vocab_size=len(VOCAB), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                               intermediate_size=32, max_position_embeddings=64,
                               initializer_range=0.5)).save_pretrained(folder)
    tok.save_pretrained(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return contextual.load_encoder(str(folder), device="cpu"), contextual.load_mlm(str(folder), device="cpu")


NUMBERS = ("statistic", "effect_size", "ci_low", "ci_high", "p_value", "p_two_sided", "sets", "coverage", "flagged")


def _same_numbers(r, plain) -> bool:
    """Whether two results have the same numbers, sets and flags (NaN equal to NaN)."""
    same = lambda a, b: a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)  # noqa: E731
    return all(same(getattr(r, k), getattr(plain, k)) for k in NUMBERS)


def test_seat_on_a_transformer_names_the_split_word_and_measures_the_same(tiny, monkeypatch):
    from wordbias.measures.association import seat as ms

    sets = {"X": ["Tom likes this.", "Robert likes this."], "Y": ["Ann likes this.", "Amy likes this."],
            "A": ["Music is this."], "B": ["Sports is this."]}
    opts = {"resampling": Resampling(n_resamples=100, n_permutations=1000), "cache": False}
    r = ms.seat(tiny[0], sets, pooling="mean", **opts)
    assert r.notes[-1] == "split into several tokens: X 1/2: Robert (ro ##bert)"
    monkeypatch.setattr(ms, "_with_split_words", lambda m, enc, chosen: m)
    plain = ms.seat(tiny[0], sets, pooling="mean", **opts)
    assert r.notes == plain.notes + (r.notes[-1],)
    assert _same_numbers(r, plain) and math.isfinite(r.effect_size)


def test_seat_on_a_static_embedding_has_no_note():
    import numpy as np

    from wordbias.embeddings import to_keyed_vectors
    from wordbias.measures.association import seat as ms

    words = ["robert", "tom", "ann", "amy", "music", "sports", "likes", "this", "."]
    kv = to_keyed_vectors(words, np.random.default_rng(0).normal(size=(len(words), 4)).astype(np.float32))
    sets = {"X": ["Tom likes this.", "Robert likes this."], "Y": ["Ann likes this.", "Amy likes this."],
            "A": ["Music likes this."], "B": ["Sports likes this."]}
    r = ms.seat(kv, sets, resampling=Resampling(n_resamples=0), cache=False)
    assert not any(n.startswith("split into several tokens") for n in r.notes)


def test_contextual_measures_name_the_split_attribute(tiny, monkeypatch):
    from wordbias.datasets.contextual_tests import kurita2019_categories
    from wordbias.measures.language_models import contextual as mc

    cat = dataclasses.replace(kurita2019_categories()[2], paper={},
                              sets={"X": ("Tom", "Bill"), "Y": ("Ann", "Amy"), "A": ("music", "Robert"),
                                    "B": ("sports", "art")})
    opts = {"encoder": tiny[0], "masked_lm": tiny[1], "resampling": Resampling(n_permutations=100, n_resamples=20)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [r.to_result() for r in mc.measure([cat], **opts)]
        monkeypatch.setattr(mc, "_with_split_words", lambda r, model: r)
        plain = [r.to_result() for r in mc.measure([cat], **opts)]
    assert [r.measure for r in results] == ["contextual_weat", "mlm_log_prob"]
    for r, p in zip(results, plain):
        assert r.notes == p.notes + ("split into several tokens: A 1/2: Robert (ro ##bert)",)
        assert all(getattr(r, k) == getattr(p, k) for k in NUMBERS if k not in ("ci_low", "ci_high")) \
            and (r.ci_low, r.ci_high) == pytest.approx((p.ci_low, p.ci_high), nan_ok=True)


def test_a_committed_minilm_seat_row_names_its_split_words():
    """The committed SEAT of weat1 on all-MiniLM-L6-v2 recomputed: every number and the note as committed, the note
    ending with the split words (16 flowers, 13 insects, 2 unpleasant words; no pleasant word)."""
    pytest.importorskip("transformers")
    from wordbias.battery.seat import seat_rows
    from wordbias.measures.association import seat as ms

    committed = pd.read_csv(RESULTS / "may2019" / "all-minilm-l6-v2" / "tidy.csv").set_index("test").loc["weat1"]
    r = ms.seat("all-minilm-l6-v2", "weat1", resampling=Resampling(n_resamples=2000, n_permutations=100_000),
                cache=False, device="cpu")
    row = seat_rows([r], label="all-minilm-l6-v2", pooling="mean", paper="may2019").iloc[0]
    for k in ("statistic", "effect_size", "ci_low", "ci_high", "p_value", "p_two_sided"):
        assert row[k] == pytest.approx(committed[k], rel=1e-5), k
    assert (row.coverage, row.p_method, row.n_x, row.n_b) == (committed.coverage, committed.p_method, 25, 25)
    split = r.notes[-1]
    assert row.note == committed.note and committed.note.endswith(f"; {split}")
    assert split.startswith("split into several tokens: X 16/25: aster (as ##ter), ") and "; Y 13/25: " in split
    assert "; B 2/25: filth (fi ##lth), pollute (poll ##ute)" in split and "; A " not in split
