"""A tiny BERT masked language model with a planted, known bias, for tests and offline demonstrations.

No English masked LM can be installed on the machines this project is built on, so the masked-LM code
(:mod:`wordbias.measures.language_models.mlm`, Kurita et al. 2019 §2) is tested on a model built here (:func:`build`) whose
log-probability bias scores have a known sign. ``python -m wordbias.models.tiny_mlm OUT`` writes one (career
words planted male, family words female) to the folder OUT.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wordbias.core import ownership


def bert_uncased_tokenizer(source: str | Path | None = None):
    """Return bert-base-uncased's fast WordPiece tokenizer (30,522 pieces).

    It is the one shipped with the bundled MiniLM, or the one loaded from ``source``.

    Parameters
    ----------
    source : str or pathlib.Path, optional
        A folder or hub id to load the tokenizer from (default: the bundled MiniLM,
        :data:`wordbias.models.contextual.BUNDLED_ENCODER`).

    Returns
    -------
    transformers.PreTrainedTokenizerFast
        The tokenizer.
    """
    from transformers import AutoTokenizer

    from wordbias.models.contextual import BUNDLED_ENCODER, model_path

    return AutoTokenizer.from_pretrained(str(source) if source else model_path(BUNDLED_ENCODER))


def build(out: str | Path, *, male: Sequence[str] = (), female: Sequence[str] = (),
          targets: Sequence[tuple[str, str]] = (("he", "she"),),
          strength: float = 2.0, target_gap: float = 1.0, hidden: int = 32, layers: int = 1, seed: int = 0,
          tokenizer_source: str | Path | None = None) -> Path:
    """Write a planted tiny ``BertForMaskedLM`` and its fast tokenizer to ``out``; returns the folder.

    ``out`` must be new, empty, or a folder wordbias wrote (:mod:`wordbias.core.ownership`): a user's folder
    is refused (:class:`~wordbias.core.errors.FolderNotOursError`), since the model's files would overwrite
    files of the same names there.

    ``layers`` layer(s) of ``hidden`` dimensions, the real bert-base-uncased WordPiece vocabulary (taken from
    the bundled MiniLM, which shares it), and weights set by hand:

    - every input embedding is zero-mean across its dimensions and has 0 in dimension 0, except the planted
      attribute words: ``+strength`` in dimension 0 for ``male`` (favour the first target of a pair),
      ``-strength`` for ``female`` (the other dimensions shifted to keep the row zero-mean);
    - attention is uniform (query and key weights 0), values and outputs are identities, the feed-forward
      block is switched off and activations are linear, so the state at a mask is its own embedding plus the
      mean of the sentence's embeddings, layer-normalised: dimension 0 at the mask carries the sign of the
      planted words in the sentence and is exactly 0 when no planted word is visible (the prior sentence);
    - the output embeddings are tied to the input ones, and the two words of each pair in ``targets`` differ
      only in dimension 0 (first ``+target_gap``, second ``-target_gap``), so
      logit(first) − logit(second) = 2·target_gap·h₀.

    Hence the bias score of a "male" attribute is > 0, of a "female" attribute < 0 (exactly the negative of
    the male one when both have the same base vector), of an unplanted attribute 0 up to rounding, and it
    grows with ``strength``. Each planted word must be a single WordPiece. ``layers=0`` gives a model whose
    prediction at a mask ignores the context (every bias score is exactly 0).

    Parameters
    ----------
    out : str or pathlib.Path
        The folder to write (new, empty, or one wordbias wrote).
    male : sequence of str, default ()
        The attribute words planted to favour the first target of a pair (single WordPieces).
    female : sequence of str, default ()
        The attribute words planted to favour the second target of a pair (single WordPieces).
    targets : sequence of (str, str), default (("he", "she"),)
        The target pairs, each word a single WordPiece.
    strength : float, default 2.0
        The planted words' value in dimension 0.
    target_gap : float, default 1.0
        Half the difference of a pair's two words in dimension 0.
    hidden : int, default 32
        The hidden dimensions.
    layers : int, default 1
        The layers (0: a model whose prediction at a mask ignores the context).
    seed : int, default 0
        The seed of the random embeddings.
    tokenizer_source : str or pathlib.Path, optional
        Where to load the tokenizer from (:func:`bert_uncased_tokenizer`).

    Returns
    -------
    pathlib.Path
        ``out``.

    Raises
    ------
    FolderNotOursError
        When ``out`` is a user's folder (not empty, not written by wordbias).
    ValueError
        When a planted or target word is more than one WordPiece.
    """
    out = Path(out)
    ownership.check_replaceable(out, action="write a model into")  # save_pretrained overwrites config.json...
    from transformers import BertConfig, BertForMaskedLM

    tokenizer = bert_uncased_tokenizer(tokenizer_source)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=hidden, num_hidden_layers=layers,
                        num_attention_heads=2, intermediate_size=2 * hidden, hidden_act="linear",
                        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, max_position_embeddings=64,
                        tie_word_embeddings=True)
    model = BertForMaskedLM(config)
    rng = np.random.default_rng(seed)
    words = _zero_mean_rows(rng, config.vocab_size, hidden)
    _plant(words, tokenizer, male=male, female=female, targets=targets, strength=strength, target_gap=target_gap)
    _set_weights(model, words, positions=_zero_mean_rows(rng, config.max_position_embeddings, hidden))
    model.eval()
    ownership.mark(out, "model")
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def _zero_mean_rows(rng: np.random.Generator, n: int, hidden: int) -> np.ndarray:
    """n random rows of ``hidden`` dimensions, 0 in dimension 0 and zero-mean across the others."""
    m = rng.normal(0.0, 1.0, (n, hidden))
    m[:, 0] = 0.0
    m[:, 1:] -= m[:, 1:].mean(axis=1, keepdims=True)
    return m


def _one_piece(tokenizer, word: str) -> int:
    """The id of a word that is one WordPiece; other words fail."""
    ids = tokenizer(word, add_special_tokens=False)["input_ids"]
    if len(ids) != 1:
        raise ValueError(f"planted word {word!r} is {len(ids)} WordPieces; plant single-piece words only")
    return ids[0]


def _plant(words: np.ndarray, tokenizer, *, male: Sequence[str], female: Sequence[str],
           targets: Sequence[tuple[str, str]], strength: float, target_gap: float) -> None:
    """Plant the bias into the word embeddings ``words`` (in place): ±``strength`` in dimension 0 of the male and
    female words, the two words of each target pair equal but for ±``target_gap`` in dimension 0."""
    hidden = words.shape[1]
    for sign, group in ((1.0, male), (-1.0, female)):
        for w in group:
            i = _one_piece(tokenizer, w)
            words[i, 0] = sign * strength
            words[i, 1:] -= sign * strength / (hidden - 1)
    for pair in targets:
        first, second = (_one_piece(tokenizer, t) for t in pair)
        base = words[first].copy()
        words[first], words[second] = base, base
        words[first, 0], words[second, 0] = target_gap, -target_gap


def _set_weights(model, words: np.ndarray, positions: np.ndarray) -> None:
    """Every weight of the ``BertForMaskedLM`` by hand (see :func:`build`): the word and position embeddings
    given, uniform attention with identity values and outputs, no feed-forward block, an identity head."""
    import torch

    def put(param, value) -> None:
        param.data.copy_(torch.as_tensor(value, dtype=param.dtype))

    config = model.config
    hidden = config.hidden_size
    emb = model.bert.embeddings
    put(emb.word_embeddings.weight, words)
    put(emb.position_embeddings.weight, positions)
    put(emb.token_type_embeddings.weight, np.zeros((config.type_vocab_size, hidden)))
    eye = np.eye(hidden)
    for layer in model.bert.encoder.layer:
        att = layer.attention
        for lin in (att.self.query, att.self.key):
            put(lin.weight, np.zeros((hidden, hidden)))
            put(lin.bias, np.zeros(hidden))
        put(att.self.value.weight, eye)
        put(att.self.value.bias, np.zeros(hidden))
        put(att.output.dense.weight, eye)
        put(att.output.dense.bias, np.zeros(hidden))
        put(layer.intermediate.dense.weight, np.zeros((config.intermediate_size, hidden)))
        put(layer.intermediate.dense.bias, np.zeros(config.intermediate_size))
        put(layer.output.dense.weight, np.zeros((hidden, config.intermediate_size)))
        put(layer.output.dense.bias, np.zeros(hidden))
    head = model.cls.predictions
    put(head.transform.dense.weight, eye)
    put(head.transform.dense.bias, np.zeros(hidden))
    put(head.bias, np.zeros(config.vocab_size))


def main(argv: Sequence[str] | None = None) -> None:
    """Write the demonstration model from the command line: ``python -m wordbias.models.tiny_mlm OUT [--seed S]``.

    The model of the notebook ``kurita2019_tiny-bert-mlm``: career words male, family words female; he/she,
    boys/girls, men/women.

    Parameters
    ----------
    argv : sequence of str, optional
        The command-line arguments (default: ``sys.argv[1:]``).
    """
    from wordbias.datasets import stimuli

    ap = argparse.ArgumentParser(description="write a tiny planted BERT masked LM (career words male, family "
                                             "words female) for offline runs of the Kurita notebook")
    ap.add_argument("out", help="folder to write the model to")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    cat = stimuli.load_stimuli("kurita2019")["categories"]["career_family"]
    build(args.out, male=[w.lower() for w in cat["A"]], female=[w.lower() for w in cat["B"]], seed=args.seed,
          targets=[("he", "she"), ("boys", "girls"), ("men", "women")])
    print(args.out)


if __name__ == "__main__":
    main()
