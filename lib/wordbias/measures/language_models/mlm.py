"""The log-probability bias score of a masked language model (Kurita et al. 2019, §2 and §3.2).

The *increased log probability* of a target given an attribute is log(p_tgt / p_prior), e.g. p_tgt =
P([MASK] = he | "[MASK] is a programmer") and p_prior = P([MASK] = he | "[MASK] is a [MASK]")
(:func:`increased_log_probability`); an attribute's *log probability bias score* is its difference between
two targets, he − she (:func:`log_prob_bias_scores`). §3.2 tests the scores over attributes like a WEAT
(:func:`attribute_test`, with a bootstrap interval of its effect size over the attribute words); Table 5 counts
the attributes that favour the first target (:func:`share_favouring_first`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError
from wordbias.core.progress import progress_bar
from wordbias.core.validation import (
    as_float_array,
    check_bool,
    check_int,
    check_option,
    check_probability,
    check_real,
    check_seed,
    check_words,
    degenerate_spread,
    spread_tolerance,
)
from wordbias.measures.association import bootstrap as _bootstrap
from wordbias.measures.association import weat as _weat
from wordbias.models.contextual import Model, fill, load_mlm  # noqa: F401 - re-exported for users
from wordbias.stats import permutation as _stats
from wordbias.stats.resampling import BOOTSTRAP_METHODS, BootstrapInterval

TARGET = "TARGET"
ATTRIBUTE = "ATTRIBUTE"
PRIOR_MASKS = ("per_piece", "single")
#: the p-value methods of :func:`wordbias.stats.permutation.subset_sum_tail`


@dataclass(frozen=True)
class TemplatePairs:
    """One template with the target pairs that fill it.

    For example (Table 2) "TARGET like ATTRIBUTE" with (boys, girls) and (men, women). The first word of a
    pair is the one a positive score favours.

    Attributes
    ----------
    template : str
        The template, holding ``TARGET`` and ``ATTRIBUTE`` once each.
    pairs : tuple of (str, str)
        The target pairs that fill its ``TARGET`` slot.
    """

    template: str
    pairs: tuple[tuple[str, str], ...]

    @classmethod
    def from_dict(cls, d: Mapping) -> TemplatePairs:
        """From the YAML's form: ``{"template": ..., "pairs": [[x, y], ...]}``.

        Parameters
        ----------
        d : mapping
            With keys ``"template"`` and ``"pairs"``.

        Returns
        -------
        TemplatePairs
            The template and its pairs.
        """
        return cls(d["template"], tuple((str(x), str(y)) for x, y in d["pairs"]))


def check_template(template, special_tokens: Sequence[str] = ()) -> str:
    """Check a template: a string holding TARGET and ATTRIBUTE exactly once each and no special token.

    A literal special token of the model would be misread: in ``"[MASK] TARGET is a ATTRIBUTE"`` the first
    mask would be read as the target's and the score would be the probability of the wrong slot.

    Parameters
    ----------
    template : str
        The template.
    special_tokens : sequence of str, default ()
        The model's special tokens (e.g. ``[MASK]``), none of which the template may hold.

    Returns
    -------
    str
        The template, unchanged.

    Raises
    ------
    InvalidParameterError
        If the template is not a string, does not hold each placeholder exactly once, or holds a special
        token.

    Examples
    --------
    >>> check_template("TARGET is a ATTRIBUTE", ["[MASK]"])
    'TARGET is a ATTRIBUTE'
    >>> check_template("[MASK] TARGET is a ATTRIBUTE", ["[MASK]", "[CLS]"])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: template '[MASK] TARGET is a ATTRIBUTE' holds the model's special token '[MASK]'; write only the placeholders TARGET and ATTRIBUTE (the masks are put in for you)
    """
    if not isinstance(template, str):
        raise InvalidParameterError(f"a template must be a string, not {template!r} ({type(template).__name__})")
    for slot in (TARGET, ATTRIBUTE):
        count = template.count(slot)
        if count != 1:
            raise InvalidParameterError(f"template {template!r} must hold the placeholder {slot} exactly once, "
                                        f"not {count} times")
    for token in special_tokens:
        if token and token in template:
            raise InvalidParameterError(f"template {template!r} holds the model's special token {token!r}; write "
                                        f"only the placeholders {TARGET} and {ATTRIBUTE} (the masks are put in for you)")
    return template


def _special_tokens(m: Model) -> list[str]:
    return list(getattr(m.tokenizer, "all_special_tokens", None) or [m.tokenizer.mask_token])


def _check_template_list(m: Model, templates) -> list[str]:
    """``templates`` as a non-empty list of checked templates (:func:`check_template`); a lone string is refused."""
    if isinstance(templates, str):
        raise InvalidParameterError(f"templates must be a list of templates, not the string {templates!r} "
                                    f"(write [{templates!r}])")
    templates = list(templates)
    if not templates:
        raise InvalidParameterError("templates is empty: give at least one template such as 'TARGET is ATTRIBUTE'")
    special = _special_tokens(m)
    return [check_template(t, special) for t in templates]


def _check_template_pairs(m: Model, templates) -> list[TemplatePairs]:
    """``templates`` as a non-empty list of :class:`TemplatePairs` (dicts are converted), each template checked
    (:func:`check_template`) and each pair two words."""
    if isinstance(templates, (str, TemplatePairs)) or isinstance(templates, Mapping):
        raise InvalidParameterError(f"templates must be a list of TemplatePairs (or dicts), not one "
                                    f"{type(templates).__name__}: write [{templates!r}]")
    out = [t if isinstance(t, TemplatePairs) else TemplatePairs.from_dict(t) for t in templates]
    if not out:
        raise InvalidParameterError("templates is empty: give at least one TemplatePairs, e.g. "
                                    "TemplatePairs('TARGET is ATTRIBUTE', (('he', 'she'),))")
    special = _special_tokens(m)
    for tp in out:
        check_template(tp.template, special)
        for pair in tp.pairs:
            if len(pair) != 2 or not all(isinstance(w, str) and w for w in pair):
                raise InvalidParameterError(f"template {tp.template!r}: a target pair must be two words, not {pair!r}")
    return out


def word_pieces(m: Model, word: str) -> list[int]:
    """The WordPiece ids of ``word``, as the model's tokenizer normalises it.

    Parameters
    ----------
    m : wordbias.models.contextual.Model
        The model; only its ``tokenizer`` (and ``name``, for errors) is used.
    word : str
        The word.

    Returns
    -------
    list of int
        The ids of its WordPieces, in order.

    Raises
    ------
    ValueError
        If the word tokenizes to nothing, or holds characters outside the vocabulary (an unknown piece).

    Examples
    --------
    >>> from wordbias.models.stand_in import stand_in_model     # bert-base-uncased's ids of a few words
    >>> m = stand_in_model({"he": [2002], "she": [2016], "programmer": [20273], "wordpiece": [2773, 11198]})
    >>> word_pieces(m, "Programmer"), word_pieces(m, "wordpiece")    # one WordPiece; two: word ##piece
    ([20273], [2773, 11198])
    >>> word_pieces(m, "☃")
    Traceback (most recent call last):
    ...
    ValueError: '☃' contains characters outside the vocabulary of 'stand-in' ([UNK])
    """
    ids = m.tokenizer(word, add_special_tokens=False)["input_ids"]
    if not ids:
        raise ValueError(f"{word!r} tokenizes to nothing")
    if m.tokenizer.unk_token_id is not None and m.tokenizer.unk_token_id in ids:
        raise ValueError(f"{word!r} contains characters outside the vocabulary of {m.name!r} ({m.tokenizer.unk_token})")
    return ids


def sentences(m: Model, template: str, n_target: int, attribute: str, prior_mask: str = "per_piece") -> tuple[str, str, int]:
    """The two sentences of §2 for one template, target length and attribute.

    In the target sentence the TARGET slot holds ``n_target`` masks and ATTRIBUTE the attribute's text (the
    target's masks are the only ones); in the prior sentence ATTRIBUTE is masked too.

    Parameters
    ----------
    m : wordbias.models.contextual.Model
        The model; only its tokenizer is used.
    template : str
        The template, holding ``TARGET`` and ``ATTRIBUTE`` once each (checked, :func:`check_template`).
    n_target : int
        The masks of the target (its WordPieces); an integer >= 1.
    attribute : str
        The attribute word.
    prior_mask : {"per_piece", "single"}, default "per_piece"
        In the prior sentence, one mask per WordPiece of the attribute, or one in all.

    Returns
    -------
    target : str
        The target sentence.
    prior : str
        The prior sentence.
    first : int
        The index of the target's first mask among the prior sentence's masks.

    Raises
    ------
    InvalidParameterError
        If the template or an option is invalid.
    ValueError
        If the attribute holds characters outside the vocabulary (with ``"per_piece"``).

    Examples
    --------
    >>> from wordbias.models.stand_in import stand_in_model     # bert-base-uncased's ids of a few words
    >>> m = stand_in_model({"he": [2002], "she": [2016], "programmer": [20273], "wordpiece": [2773, 11198]})
    >>> sentences(m, "TARGET is a ATTRIBUTE", 1, "programmer")
    ('[MASK] is a programmer', '[MASK] is a [MASK]', 0)
    >>> sentences(m, "ATTRIBUTE is what TARGET likes", 1, "wordpiece")   # the target's mask is the third
    ('wordpiece is what [MASK] likes', '[MASK] [MASK] is what [MASK] likes', 2)
    >>> sentences(m, "ATTRIBUTE is what TARGET likes", 1, "wordpiece", prior_mask="single")
    ('wordpiece is what [MASK] likes', '[MASK] is what [MASK] likes', 1)
    """
    check_template(template, _special_tokens(m))
    check_int("n_target", n_target, min=1)
    check_option("prior_mask", prior_mask, PRIOR_MASKS)
    return _sentences(m, template, n_target, attribute, prior_mask)


def _sentences(m: Model, template: str, n_target: int, attribute: str, prior_mask: str) -> tuple[str, str, int]:
    """:func:`sentences` without the checks (its callers have made them)."""
    mask = m.tokenizer.mask_token
    target_text = " ".join([mask] * n_target)
    tgt, _ = fill(template, {TARGET: target_text, ATTRIBUTE: attribute})
    if prior_mask == "per_piece":
        n_attr = len(word_pieces(m, attribute))
    else:
        n_attr = 1
    prior, _ = fill(template, {TARGET: target_text, ATTRIBUTE: " ".join([mask] * n_attr)})
    first = 0 if template.index(TARGET) < template.index(ATTRIBUTE) else n_attr
    return tgt, prior, first


def masked_log_probs(m: Model, requests: Mapping[str, Iterable[tuple[int, tuple[int, ...]]]], *,
                     batch_size: int = 32, progress: bool = False) -> dict[tuple[str, int, tuple[int, ...]], float]:
    """log P of token sequences at the masks of sentences, one forward pass per distinct sentence.

    Each request is the sum over i of log P(token_ids[i] at the (first_mask + i)-th mask of the sentence),
    all masks filled jointly. Sentences are sorted by length and run in padded batches, on the model's
    device; batching changes nothing beyond float rounding (tested).

    Parameters
    ----------
    m : wordbias.models.contextual.Model
        The masked language model.
    requests : mapping of str to iterable of (int, tuple of int)
        ``requests[sentence]`` lists ``(first_mask, token_ids)``.
    batch_size : int, default 32
        Sentences per forward pass; an integer >= 1.
    progress : bool, default False
        Show a progress bar.

    Returns
    -------
    dict
        The log probabilities (float), keyed by ``(sentence, first_mask, token_ids)``.

    Raises
    ------
    ValueError
        If a request asks for more masks than its sentence has.

    Examples
    --------
    A masked LM is loaded with :func:`load_mlm` (torch and transformers; a model takes seconds to load, so
    these lines are not run as tests). :func:`wordbias.models.tiny_mlm.build` writes a tiny BERT with a
    planted bias, "programmer" towards *he* and "nurse" towards *she*:

    >>> import tempfile
    >>> from wordbias.models import tiny_mlm
    >>> folder = tiny_mlm.build(tempfile.mkdtemp(), male=["programmer"], female=["nurse"])  # doctest: +SKIP
    >>> m = load_mlm(str(folder), device="cpu")                                          # doctest: +SKIP
    >>> ids = tuple(word_pieces(m, "he"))                                               # doctest: +SKIP
    >>> logp = masked_log_probs(m, {"[MASK] is a programmer": [(0, ids)],
    ...                             "[MASK] is a [MASK]": [(0, ids)]})                       # doctest: +SKIP
    >>> {s: round(v, 2) for (s, first, tokens), v in logp.items()}                          # doctest: +SKIP
    {'[MASK] is a [MASK]': -20.09, '[MASK] is a programmer': -18.69}
    """
    import torch

    batch_size = check_int("batch_size", batch_size, min=1)
    sentences = sorted(requests, key=lambda s: (len(s), s))
    out: dict[tuple[str, int, tuple[int, ...]], float] = {}
    mask_id = m.tokenizer.mask_token_id
    net = m.model
    base = getattr(net, net.base_model_prefix, None)
    head = getattr(net, "cls", None) or getattr(net, "lm_head", None)  # BERT-style / RoBERTa-style MLM heads
    with torch.inference_mode(), progress_bar(len(sentences), desc="masked LM", unit="sentence",
                                              enabled=progress) as bar:
        for start in range(0, len(sentences), batch_size):
            chunk = sentences[start:start + batch_size]
            enc = m.tokenizer(chunk, return_tensors="pt", padding=True)
            ids = enc["input_ids"]
            is_mask = ids == mask_id
            batch = {k: v.to(m.device) for k, v in enc.items()}
            if base is not None and head is not None:  # the vocabulary projection only at the masks
                hidden = base(**batch).last_hidden_state
                logits = head(hidden[is_mask.to(m.device)])
            else:
                logits = net(**batch).logits[is_mask.to(m.device)]
            logp = torch.log_softmax(logits.float(), dim=-1).double().cpu()
            row_of = torch.nonzero(is_mask)[:, 0].tolist()  # masks in row-major order, as logp's rows
            offset = {}
            for k, r in enumerate(row_of):
                offset.setdefault(r, k)
            for row, sentence in enumerate(chunk):
                n_masks = int(is_mask[row].sum())
                for first, tokens in requests[sentence]:
                    if first + len(tokens) > n_masks:
                        raise ValueError(f"sentence {sentence!r} has {n_masks} masks; asked for "
                                         f"{len(tokens)} from mask {first}")
                    k0 = offset[row] + first
                    val = logp[torch.arange(k0, k0 + len(tokens)), list(tokens)].sum().item()
                    out[(sentence, first, tuple(tokens))] = val
            bar.update(len(chunk))
    return out


def increased_log_probability(m: Model, templates: Sequence[str], targets: Sequence[str],
                              attributes: Sequence[str], *, prior_mask: str = "per_piece", batch_size: int = 32,
                              progress: bool = False) -> np.ndarray:
    """log(p_tgt / p_prior) (§2, steps 2-4) for every template × target × attribute: [T, n_targets, n_attributes].

    p_tgt = P(target at its mask(s) | template with the attribute written in), p_prior = P(target | template
    with the attribute masked too). Words split into several WordPieces (the paper does not say how it
    treats them; here):

    - an attribute is written into the sentence as text and tokenized with it; for p_prior *each* of its
      WordPieces is replaced by a [MASK] (``prior_mask="per_piece"``, default), so the prior sentence has the
      same length and positions as the target sentence and differs only in what is hidden. ``"single"``
      replaces the whole attribute by one [MASK], as a literal reading of "replace [ATTRIBUTE] with [MASK]".
    - a target of k WordPieces gets k [MASK] tokens, and log p is the sum over its pieces of the log
      probability of each piece at its own mask, all masks predicted jointly in one pass (the usual
      pseudo-log-likelihood shortcut; exact for the one-piece targets of the paper: he, she, men, women ...).

    Sentences are deduplicated (the target sentence "[MASK] likes math" serves both *he* and *she*; one prior
    sentence serves every attribute of the same length) before :func:`masked_log_probs` runs them.

    Checked first: each template holds TARGET and ATTRIBUTE once and no literal special token
    (:func:`check_template`), the lists are lists of words (a string is refused), ``batch_size`` ≥ 1.

    Parameters
    ----------
    m : wordbias.models.contextual.Model
        The masked language model.
    templates : sequence of str
        The templates, each holding ``TARGET`` and ``ATTRIBUTE`` once.
    targets : sequence of str
        The target words (e.g. he, she).
    attributes : sequence of str
        The attribute words.
    prior_mask : {"per_piece", "single"}, default "per_piece"
        How the attribute is masked in the prior sentence.
    batch_size : int, default 32
        Sentences per forward pass.
    progress : bool, default False
        Show a progress bar.

    Returns
    -------
    numpy.ndarray of shape (n_templates, n_targets, n_attributes)
        log(p_tgt / p_prior).

    Raises
    ------
    InvalidParameterError
        If a template, a list or an option is invalid.
    DegenerateSetError
        If a list is empty.
    ValueError
        If a word holds characters outside the model's vocabulary.

    Examples
    --------
    With ``m`` the tiny planted BERT of :func:`masked_log_probs`' example ("programmer" towards *he*, "nurse"
    towards *she*; not run as tests):

    >>> inc = increased_log_probability(m, ["TARGET is a ATTRIBUTE"], ["he", "she"],
    ...                                 ["programmer", "nurse", "table"])                  # doctest: +SKIP
    >>> inc.shape, inc[0].round(2)                                                       # doctest: +SKIP
    ((1, 2, 3), array([[ 1.4 ,  0.13, -0.09],
           [ 0.83,  0.62, -0.09]]))
    """
    templates = _check_template_list(m, templates)
    targets = list(check_words("targets", targets))
    attributes = list(check_words("attributes", attributes, allow_duplicates=True))
    _check_run_options(prior_mask, batch_size, progress)
    return _increased_log_probability(m, templates, targets, attributes, prior_mask=prior_mask,
                                      batch_size=batch_size, progress=progress)[0]


def _check_run_options(prior_mask, batch_size, progress) -> None:
    check_option("prior_mask", prior_mask, PRIOR_MASKS)
    check_int("batch_size", batch_size, min=1)
    check_bool("progress", progress)


def _increased_log_probability(m: Model, templates: Sequence[str], targets: Sequence[str],
                               attributes: Sequence[str], *, prior_mask: str, batch_size: int,
                               progress: bool) -> tuple[np.ndarray, float]:
    """:func:`increased_log_probability` and the largest |log probability| it was computed from (the scale of
    its rounding noise, :func:`rounding_noise`)."""
    if not templates or not targets or not attributes:
        raise DegenerateSetError("increased_log_probability needs at least one template, target and attribute")
    target_ids = {t: tuple(word_pieces(m, t)) for t in targets}
    plan = []  # (template index, target index, attribute index, target-sentence key, prior-sentence key)
    requests: dict[str, set] = {}
    for ti, template in enumerate(templates):
        for ai, attribute in enumerate(attributes):
            for gi, target in enumerate(targets):
                ids = target_ids[target]
                tgt, prior, first = _sentences(m, template, len(ids), attribute, prior_mask)
                requests.setdefault(tgt, set()).add((0, ids))
                requests.setdefault(prior, set()).add((first, ids))
                plan.append((ti, gi, ai, (tgt, 0, ids), (prior, first, ids)))
    logp = masked_log_probs(m, {s: sorted(r) for s, r in requests.items()}, batch_size=batch_size, progress=progress)
    out = np.empty((len(templates), len(targets), len(attributes)))
    for ti, gi, ai, k_tgt, k_prior in plan:
        out[ti, gi, ai] = logp[k_tgt] - logp[k_prior]
    return out, max(abs(v) for v in logp.values())


#: a bias score within this many float32 ULPs (of the largest log probability it is computed from) of another
#: is equal to it up to rounding: scores combine four float32 log-softmax values whose last bits change with
#: the CPU's kernels (measured: up to 4 ULPs apart on the tiny planted model between AVX2 and SSE kernels)
ROUNDING_ULPS = 64


def rounding_noise(log_prob_scale: float) -> float:
    """The width below which two bias scores are equal up to float32 rounding.

    It is :data:`ROUNDING_ULPS` float32 ULPs of the largest absolute log probability the scores come from.

    Parameters
    ----------
    log_prob_scale : float
        The largest absolute log probability the scores are computed from (its sign is ignored).

    Returns
    -------
    float
        The rounding width.

    Examples
    --------
    >>> rounding_noise(-5.0) == 64 * 2.0 ** -21  # float32 spacing at |x| in [4, 8) is 2**-21
    True
    """
    return float(ROUNDING_ULPS * np.spacing(np.float32(abs(log_prob_scale))))


def log_prob_bias_scores(m: Model, attributes: Sequence[str], templates: Sequence[TemplatePairs], *,
                         prior_mask: str = "per_piece", batch_size: int = 32, progress: bool = False,
                         return_noise: bool = False):
    """The log probability bias score of each attribute (§2), averaged over templates and target pairs.

    The mean is §3.2's "the mean log probability bias score for each attribute". Positive = favours the first
    target.

    With ``return_noise`` returns (scores, noise): ``noise`` is :func:`rounding_noise` of the largest
    absolute log probability used, the spread under which scores are rounding noise, not a measurement.

    Checked first: ``templates`` a non-empty list (an empty one would average nothing into NaN), each template
    with TARGET and ATTRIBUTE once and no literal special token (:func:`check_template`), ``attributes`` a
    list of words, ``batch_size`` ≥ 1.

    Parameters
    ----------
    m : wordbias.models.contextual.Model
        The masked language model.
    attributes : sequence of str
        The attribute words.
    templates : sequence of TemplatePairs or mapping
        The templates with their target pairs (dicts are converted, :meth:`TemplatePairs.from_dict`).
    prior_mask, batch_size, progress
        As :func:`increased_log_probability`.
    return_noise : bool, default False
        Also return the rounding width of the scores.

    Returns
    -------
    scores : numpy.ndarray of shape (n_attributes,)
        The mean bias score of each attribute; positive favours the first target.
    noise : float
        Only with ``return_noise``: :func:`rounding_noise` of the largest absolute log probability used, the spread
        under which scores are rounding noise, not a measurement.

    Raises
    ------
    InvalidParameterError
        If a template, a pair, the list or an option is invalid.
    DegenerateSetError
        If a template has no target pairs, or the attributes are empty.

    Examples
    --------
    With ``m`` the tiny planted BERT of :func:`masked_log_probs`' example ("programmer" towards *he*, "nurse"
    towards *she*; not run as tests):

    >>> pairs = [TemplatePairs("TARGET is a ATTRIBUTE", (("he", "she"),))]
    >>> scores, noise = log_prob_bias_scores(m, ["programmer", "nurse", "table"], pairs,
    ...                                      return_noise=True)                            # doctest: +SKIP
    >>> without_noise(scores, noise).round(3)                         # he, she, neither   # doctest: +SKIP
    array([ 0.57 , -0.486,  0.   ])
    """
    templates = _check_template_pairs(m, templates)
    attributes = list(check_words("attributes", attributes, allow_duplicates=True))
    _check_run_options(prior_mask, batch_size, progress)
    rows, scale = [], 0.0
    for tp in templates:
        if not tp.pairs:
            raise DegenerateSetError(f"template {tp.template!r} has no target pairs")
        words = sorted({w for pair in tp.pairs for w in pair})
        inc, tp_scale = _increased_log_probability(m, [tp.template], words, attributes, prior_mask=prior_mask,
                                                   batch_size=batch_size, progress=progress)
        inc = inc[0]
        scale = max(scale, tp_scale)
        index = {w: i for i, w in enumerate(words)}
        for x, y in tp.pairs:
            rows.append(inc[index[x]] - inc[index[y]])
    scores = np.mean(rows, axis=0)
    return (scores, rounding_noise(scale)) if return_noise else scores


@dataclass(frozen=True)
class AttributeTest:
    """§3.2's test: per-attribute scores, statistic, effect size and the permutation p over attributes.

    ``alternative`` names the tail of ``p`` ("greater", the paper's; "less"; "two-sided"); ``p_two_sided`` is
    the two-sided p of the same test (SciPy's doubling rule), whatever ``alternative`` is. ``effect_size_ci``
    is the bootstrap interval of the effect size over the attribute words
    (:func:`wordbias.measures.association.bootstrap.effect_size_bootstrap`), ``None`` when the test is undefined or no
    interval was asked for (``n_resamples=0``).

    Attributes
    ----------
    A, B : tuple of str
        The attribute words of the two sets (empty when none were named).
    scores_A, scores_B : numpy.ndarray
        Their bias scores.
    statistic : float
        mean(scores_A) − mean(scores_B); NaN when undefined.
    effect_size : float
        The statistic over the sample standard deviation of the pooled scores; NaN when undefined.
    p : wordbias.stats.permutation.TailProbability or None
        The permutation p-value of ``alternative``; None when undefined.
    undefined : str, default ""
        Why the effect size and p are undefined (the scores equal up to rounding), else "".
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of ``p``.
    p_two_sided : float, default nan
        The two-sided p of the same test.
    effect_size_ci : BootstrapInterval or None, default None
        The bootstrap interval of the effect size over the attribute words.
    """

    A: tuple[str, ...]
    B: tuple[str, ...]
    scores_A: np.ndarray
    scores_B: np.ndarray
    statistic: float
    effect_size: float
    p: wordbias.stats.permutation.TailProbability | None  # noqa: F821  (None when undefined)
    undefined: str = ""  # why the effect size and p are undefined (scores equal up to rounding), else ""
    alternative: str = "greater"
    p_two_sided: float = float("nan")
    effect_size_ci: BootstrapInterval | None = None

    @property
    def p_value(self) -> float:
        return float("nan") if self.p is None else self.p.p_value

    @property
    def p_method(self) -> str | None:
        return None if self.p is None else self.p.p_method

    def summary(self) -> dict:
        """A flat dict for one table row.

        Returns
        -------
        dict
            ``n_attribute`` (the set size, or ``"n_Axn_B"`` for sets of different sizes), ``mean_score_A``,
            ``mean_score_B``, ``effect_size``, ``p_value``, ``p_method``, ``undefined``, ``p_two_sided``,
            ``effect_size_ci_low`` and ``effect_size_ci_high`` (NaN without an interval).
        """
        return {"n_attribute": len(self.A) if len(self.A) == len(self.B) else f"{len(self.A)}x{len(self.B)}",
                "mean_score_A": float(np.mean(self.scores_A)), "mean_score_B": float(np.mean(self.scores_B)),
                "effect_size": self.effect_size, "p_value": self.p_value, "p_method": self.p_method,
                "undefined": self.undefined, "p_two_sided": self.p_two_sided,
                "effect_size_ci_low": float("nan") if self.effect_size_ci is None else self.effect_size_ci.low,
                "effect_size_ci_high": float("nan") if self.effect_size_ci is None else self.effect_size_ci.high}


def attribute_test(scores_A, scores_B, *, A: Sequence[str] = (), B: Sequence[str] = (), p_method: str = "auto",
                   n_permutations: int = 100_000, seed: int = 0, noise: float = 0.0,
                   alternative: str = "greater", n_resamples: int = 10_000, confidence_level: float = 0.95,
                   method: str = "BCa") -> AttributeTest:
    """Effect size and permutation test over attributes (§3.2).

    statistic = mean_{a∈A} score(a) − mean_{b∈B} score(b); effect size = statistic / std over A ∪ B of the
    mean scores (sample std, as :func:`wordbias.weat.effect_size`); p = Pr[statistic of a random split of
    A ∪ B into sets of the sizes of A and B ≥ observed] (one-sided, exact when affordable).
    ``alternative="less"`` tests the other direction and ``"two-sided"`` gives min(1, 2·min of the two
    one-sided p), SciPy's rule (:func:`wordbias.measures.association.weat.p_value`).

    ``noise`` (:func:`rounding_noise`): when every score of A ∪ B lies within ``noise`` of every other, the
    scores are equal up to float rounding and their differences are noise, so the effect size and p are
    undefined (NaN, with the reason in ``undefined``) rather than computed from the noise.

    ``p_two_sided`` is the two-sided p (:func:`wordbias.measures.association.weat.p_value` with ``alternative="two-sided"``,
    the same ``p_method``, ``n_permutations`` and ``seed``; it is ``p`` itself when ``alternative`` is
    ``"two-sided"``).

    ``effect_size_ci``: a bootstrap interval of the effect size (``method`` "BCa", "percentile" or "basic" at
    ``confidence_level``, ``n_resamples`` resamples, seeded by ``seed``;
    :func:`wordbias.measures.association.bootstrap.effect_size_bootstrap`) that resamples the attribute words of A and of B
    separately, with replacement: the words the permutation test permutes, the paper's unit. It says how far
    the effect size would move with other attribute lists of the same sizes. It holds the templates and the
    target pairs fixed (each attribute keeps its score, averaged over them): the spread across templates is
    not in it (see :mod:`wordbias.measures.association.ceat`). ``n_resamples=0`` computes no interval (``None``); it is
    ``None`` too when the test is undefined.

    Parameters
    ----------
    scores_A, scores_B : array-like of float
        The bias scores of the attribute words of the two sets; at least 2 each, finite.
    A, B : sequence of str, default ()
        The attribute words, one per score (none given is allowed).
    p_method : str, default "auto"
        The p-value method (:data:`wordbias.stats.permutation.P_METHODS`): exact when affordable under
        ``"auto"``.
    n_permutations : int, default 100_000
        Random permutations when p is not exact.
    seed : int, default 0
        Seeds the permutations and the bootstrap.
    noise : float, default 0.0
        The rounding width of the scores (:func:`rounding_noise`); >= 0.
    alternative : {"greater", "less", "two-sided"}, default "greater"
        The tail of ``p``.
    n_resamples : int, default 10_000
        Bootstrap resamples of the interval; 0 for none, else an integer >= 2.
    confidence_level : float, default 0.95
        The level of the interval.
    method : {"BCa", "percentile", "basic"}, default "BCa"
        The bootstrap interval method.

    Returns
    -------
    AttributeTest
        The scores, statistic, effect size, p-values and interval.

    Raises
    ------
    InvalidParameterError
        If an option is out of range, a score is not finite, or ``A`` (``B``) does not name one word per
        score.
    DegenerateSetError
        If a set has fewer than 2 scores.

    Examples
    --------
    >>> t = attribute_test([0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0], A=list("abcd"), B=list("efgh"))
    >>> round(t.statistic, 3), round(t.effect_size, 3)
    (0.575, 1.57)
    >>> t.p_method, t.p.n_partitions, t.p.n_extreme  # no other split of the 8 scores is as extreme: p = 1/70
    ('exact', 70, 1)
    >>> attribute_test([0.5, 0.9, 0.7, 0.4], [0.1, -0.2, 0.3, 0.0], alternative="two-sided").p_value  # 2/70
    0.02857142857142857
    >>> t.p_two_sided, t.effect_size_ci.method, bool(t.effect_size_ci.low < t.effect_size < t.effect_size_ci.high)
    (0.02857142857142857, 'BCa', True)
    """
    a = as_float_array("scores_A", scores_A, what="a list of bias scores")
    b = as_float_array("scores_B", scores_B, what="a list of bias scores")
    A, B = _check_attribute_names(A, a, "A"), _check_attribute_names(B, b, "B")
    check_option("p_method", p_method, _stats.P_METHODS)
    check_option("alternative", alternative, _stats.ALTERNATIVES)
    n_permutations = check_int("n_permutations", n_permutations, min=1)
    seed = check_seed("seed", seed)
    noise = check_real("noise", noise, low=0.0)
    n_resamples = check_int("n_resamples", n_resamples, min=0)
    if n_resamples == 1:
        raise InvalidParameterError("n_resamples must be 0 (no interval) or an integer >= 2, not 1")
    confidence_level = check_probability("confidence_level", confidence_level)
    check_option("method", method, BOOTSTRAP_METHODS)
    for name, v in (("scores_A", a), ("scores_B", b)):
        if not np.isfinite(v).all():
            raise InvalidParameterError(f"{name} holds non-finite bias scores at positions "
                                        f"{np.flatnonzero(~np.isfinite(v)).tolist()[:10]}")
    if a.size < 2 or b.size < 2:
        raise DegenerateSetError(f"attribute sets need at least 2 words each, got {a.size} and {b.size}")
    pooled = np.concatenate([a, b])
    if np.ptp(pooled) <= noise or degenerate_spread(pooled.std(), pooled):
        why = (f"undefined: all {pooled.size} bias scores are equal up to float rounding (within {noise:.1e}, "
               f"{ROUNDING_ULPS} float32 ULPs of the log probabilities)" if np.ptp(pooled) <= noise else
               f"undefined: all {pooled.size} bias scores are equal up to float64 rounding (spread "
               f"{pooled.std():.3g}, at most {spread_tolerance(pooled):.3g}: wordbias.core.validation."
               f"spread_tolerance)")
        return AttributeTest(A=tuple(A), B=tuple(B), scores_A=a, scores_B=b, statistic=float("nan"),
                             effect_size=float("nan"), p=None, undefined=why, alternative=alternative)
    d = _weat.effect_size(a, b)
    p = _weat.p_value(a, b, p_method=p_method, n_permutations=n_permutations, seed=seed, alternative=alternative)
    two = p if alternative == "two-sided" else _weat.p_value(a, b, p_method=p_method, n_permutations=n_permutations,
                                                             seed=seed, alternative="two-sided")
    ci = None if n_resamples == 0 else _bootstrap.effect_size_bootstrap(
        a, b, n_resamples=n_resamples, confidence_level=confidence_level, method=method, seed=seed).effect_size
    return AttributeTest(A=tuple(A), B=tuple(B), scores_A=a, scores_B=b, statistic=float(a.mean() - b.mean()),
                         effect_size=d, p=p, alternative=alternative, p_two_sided=two.p_value, effect_size_ci=ci)


def _check_attribute_names(names, scores: np.ndarray, role: str) -> tuple[str, ...]:
    """The attribute words of one set (a list of words; none given is allowed), one per score."""
    names = check_words(role, names)
    if names and len(names) != scores.size:
        raise InvalidParameterError(f"{role} lists {len(names)} attributes but scores_{role} has {scores.size} scores")
    return names


def without_noise(scores, noise: float) -> np.ndarray:
    """The scores with every value within ``noise`` of 0 set to exactly 0.

    Below the rounding width a score is not a measurement, and its sign and digits would change with the
    CPU.

    Parameters
    ----------
    scores : array-like of float
        The bias scores.
    noise : float
        The rounding width (:func:`rounding_noise`).

    Returns
    -------
    numpy.ndarray
        The scores, float64, those within ``noise`` of 0 set to 0.

    Examples
    --------
    >>> without_noise([0.5, 1e-9, -0.2], noise=1e-6).tolist()
    [0.5, 0.0, -0.2]
    """
    s = np.asarray(scores, dtype=np.float64)
    return np.where(np.abs(s) <= noise, 0.0, s)


def share_favouring_first(scores, noise: float = 0.0) -> float:
    """Table 5: the fraction of attributes whose bias score favours the first target (score > ``noise``).

    A score within ``noise`` of 0 (:func:`rounding_noise`) favours neither target; when every score does,
    the share is undefined (NaN): its sign would be rounding noise.

    Parameters
    ----------
    scores : array-like of float
        The bias scores of the attributes.
    noise : float, default 0.0
        The rounding width; >= 0.

    Returns
    -------
    float
        The share of scores above ``noise``; NaN when every score is within ``noise`` of 0.

    Raises
    ------
    DegenerateSetError
        If there are no scores.
    InvalidParameterError
        If a score is NaN, or ``noise`` is negative.

    Examples
    --------
    >>> share_favouring_first([0.5, -0.2, 1e-9, 0.3], noise=1e-6)  # 1e-9 is rounding noise: not male
    0.5

    A NaN score is an error, not a score that favours neither target: it means the score could not be
    computed, and counting it as "not favouring" would lower the share silently.

    >>> share_favouring_first([float("nan"), float("nan")])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: 2 of the 2 bias scores are NaN (positions [0, 1]): the share of attributes favouring the first target is undefined; find why those scores failed
    """
    s = np.asarray(scores, dtype=np.float64)
    noise = check_real("noise", noise, low=0.0)
    if s.size == 0:
        raise DegenerateSetError("no attributes to count")
    if np.isnan(s).any():
        bad = np.flatnonzero(np.isnan(s))
        raise InvalidParameterError(f"{bad.size} of the {s.size} bias scores are NaN (positions {bad.tolist()[:10]}): "
                                    "the share of attributes favouring the first target is undefined; find why "
                                    "those scores failed")
    if (np.abs(s) <= noise).all():
        return float("nan")
    return float(np.mean(s > noise))
