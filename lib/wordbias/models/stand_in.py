"""A stand-in for a language model's tokenizer, so that examples and tests of the word-level machinery run without
a model: :class:`StandInTokenizer` and :func:`stand_in_model`.

It answers the calls wordbias makes of a Hugging Face tokenizer (``tokenizer(text, add_special_tokens=False)``,
``tokenize(word)``, ``get_vocab()`` and the special tokens), over a fixed vocabulary given by hand. It is not a
tokenizer: a word is either in its vocabulary, whole, or unknown.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import SimpleNamespace

__all__ = ["StandInTokenizer", "stand_in_model"]


class StandInTokenizer:
    """A fixed, uncased vocabulary that answers as a BERT tokenizer does.

    Parameters
    ----------
    pieces : mapping of str to sequence of int, or sequence of str
        Each word -> the ids of its WordPieces (e.g. ``{"wordpiece": [2773, 11198]}``: two pieces), or the words
        of the vocabulary, each one piece.

    Attributes
    ----------
    mask_token, unk_token : str
        ``"[MASK]"`` and ``"[UNK]"``.
    unk_token_id : int
        100, as in bert-base-uncased.
    all_special_tokens : list of str
        The unknown and mask tokens.
    ids : dict of str to list of int
        Each word's piece ids.

    Examples
    --------
    >>> t = StandInTokenizer({"he": [2002], "wordpiece": [2773, 11198]})
    >>> t("He")["input_ids"], t("wordpiece")["input_ids"], t("zebra")["input_ids"]
    ([2002], [2773, 11198], [100])
    >>> StandInTokenizer(["nurse", "pilot"]).tokenize("Nurse"), StandInTokenizer(["nurse"]).tokenize("cook")
    (['nurse'], ['[UNK]'])
    """

    mask_token, unk_token, unk_token_id = "[MASK]", "[UNK]", 100
    all_special_tokens = ["[UNK]", "[MASK]"]

    def __init__(self, pieces: Mapping[str, Sequence[int]] | Sequence[str]):
        if isinstance(pieces, Mapping):
            self.ids = {w.lower(): list(ids) for w, ids in pieces.items()}
        else:
            self.ids = {w.lower(): [1000 + i] for i, w in enumerate(pieces)}

    def __call__(self, text: str, add_special_tokens: bool = False) -> dict:
        return {"input_ids": self.ids.get(text.lower(), [self.unk_token_id])}

    def tokenize(self, word: str) -> list[str]:
        """The word's pieces: the word lower-cased when it is in the vocabulary, else the unknown token.

        Parameters
        ----------
        word : str
            The word.

        Returns
        -------
        list of str
            One piece.
        """
        return [word.lower()] if word.lower() in self.ids else [self.unk_token]

    def get_vocab(self) -> dict[str, int]:
        """The vocabulary: the special tokens and each one-piece word, with their ids.

        Returns
        -------
        dict of str to int
            Token -> id.
        """
        vocab = {self.unk_token: self.unk_token_id, self.mask_token: 103}
        vocab.update({w: ids[0] for w, ids in self.ids.items() if len(ids) == 1})
        return vocab


def stand_in_model(pieces: Mapping[str, Sequence[int]] | Sequence[str], name: str = "stand-in") -> SimpleNamespace:
    """A model with a name and a :class:`StandInTokenizer`: what the word-level functions read of a model.

    Parameters
    ----------
    pieces : mapping of str to sequence of int, or sequence of str
        The tokenizer's vocabulary (:class:`StandInTokenizer`).
    name : str, default "stand-in"
        The model's name.

    Returns
    -------
    types.SimpleNamespace
        ``name`` and ``tokenizer``.

    Examples
    --------
    >>> stand_in_model(["nurse"]).tokenizer.tokenize("nurse")
    ['nurse']
    """
    return SimpleNamespace(name=name, tokenizer=StandInTokenizer(pieces))
