"""The stand-in tokenizer answers the calls wordbias makes of a BERT tokenizer, over a vocabulary given by hand."""
from wordbias.measures.language_models import mlm
from wordbias.models.stand_in import StandInTokenizer, stand_in_model


def test_pieces_and_unknown_words():
    t = StandInTokenizer({"Wordpiece": [2773, 11198], "he": [2002]})
    assert t("WORDPIECE", add_special_tokens=False)["input_ids"] == [2773, 11198]
    assert t("zebra")["input_ids"] == [t.unk_token_id] and t.tokenize("zebra") == ["[UNK]"]
    # only one-piece words are vocabulary entries; the special tokens are there too
    assert t.get_vocab() == {"[UNK]": 100, "[MASK]": 103, "he": 2002}


def test_a_word_list_gives_one_piece_each_and_serves_the_word_level_functions():
    m = stand_in_model(["nurse", "pilot"], name="toy")
    assert m.name == "toy" and m.tokenizer.tokenize("Pilot") == ["pilot"]
    assert mlm.word_pieces(m, "nurse") == [1000] and mlm.word_pieces(m, "pilot") == [1001]
