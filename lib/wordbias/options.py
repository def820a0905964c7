"""The options every measure shares, validated and documented once: how it resamples (:class:`Resampling`) and how
it treats its word lists (:class:`Words`).

A measure takes ``resampling=`` and ``words=`` instead of a dozen keywords of its own; ``None`` means the measure's
defaults (its ``DEFAULT_RESAMPLING`` and ``DEFAULT_WORDS`` where it has its own). An option out of range is refused
when the object is made, with :class:`~wordbias.core.errors.InvalidParameterError` naming it, before any test
runs. :meth:`Resampling.replace` and :meth:`Words.replace` give a changed copy.

>>> from wordbias.options import Resampling, Words
>>> Resampling(n_resamples=2_000, seed=3).replace(n_permutations=50_000).n_permutations
50000
>>> Words(min_fraction=1.5)                    # doctest: +ELLIPSIS
Traceback (most recent call last):
...
wordbias.core.errors.InvalidParameterError: min_fraction ...
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from wordbias.core.errors import InvalidParameterError
from wordbias.core.identity import check_shared_vectors
from wordbias.core.lookup import check_on_missing
from wordbias.core.tidy import MIN_FRACTION, MIN_WORDS, check_coverage_thresholds
from wordbias.core.validation import check_bool, check_int, check_option, check_probability, check_seed
from wordbias.stats.resampling import BOOTSTRAP_METHODS

__all__ = ["Options", "Resampling", "Words", "BALANCE_POLICIES", "loose_options", "options_or_default"]
#: how target sets of unequal size are made equal: ``"random"`` deletes words of the larger set at random (seeded;
#: Caliskan et al. 2017, Supplementary, WEAT 3), ``"none"`` keeps both whole (WEAT's statistic, d and permutation
#: test are defined for unequal sizes), ``"raise"`` refuses unequal sets
BALANCE_POLICIES = ("random", "none", "raise")


class Options:
    """What every frozen options object shares: a checked copy with some fields changed."""

    def replace(self, **changes):
        """A copy with ``changes`` (checked as a new object is).

        Parameters
        ----------
        **changes
            The fields to change, by name.

        Returns
        -------
        Options
            The changed copy, of the same class.
        """
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Resampling(Options):
    """How a measure resamples: its bootstrap interval, its permutation test and the seed of both.

    Attributes
    ----------
    n_resamples : int, default 10000
        The bootstrap resamples of the interval; 0 for no interval (1 is refused).
    confidence_level : float, default 0.95
        The interval's level, in (0, 1).
    ci_method : {"BCa", "percentile", "basic"}, default "BCa"
        How the interval is read from the bootstrap distribution (:data:`wordbias.stats.resampling.BOOTSTRAP_METHODS`).
    n_permutations : int, default 10000
        The most splits a permutation test counts exactly, and its Monte Carlo draws beyond (at least 1).
    seed : int, default 0
        The seed of every random draw: the same seed gives the same numbers.
    """

    n_resamples: int = 10_000
    confidence_level: float = 0.95
    ci_method: str = "BCa"
    n_permutations: int = 10_000
    seed: int = 0

    def __post_init__(self):
        n = check_int("n_resamples", self.n_resamples, min=0)
        if n == 1:
            raise InvalidParameterError("n_resamples must be 0 (no interval) or an integer >= 2, not 1")
        object.__setattr__(self, "n_resamples", n)
        object.__setattr__(self, "confidence_level", check_probability("confidence_level", self.confidence_level))
        check_option("ci_method", self.ci_method, BOOTSTRAP_METHODS)
        object.__setattr__(self, "n_permutations", check_int("n_permutations", self.n_permutations, min=1))
        object.__setattr__(self, "seed", check_seed("seed", self.seed))



@dataclass(frozen=True)
class Words(Options):
    """How a measure treats its word lists.

    Attributes
    ----------
    case_fold : bool or None, default None
        Whether words are lower-cased before the look-up; None decides from the vocabulary (folded when it has no
        upper-case letters).
    on_missing : {"drop", "raise"}, default "drop"
        What a word missing from the vocabulary does: it is dropped (and reported in ``dropped``), or it is an
        error.
    min_words : int, default 4
        A set keeping fewer words than this is flagged as low coverage (:data:`wordbias.core.tidy.MIN_WORDS`).
    min_fraction : float, default 0.5
        A set keeping less than this fraction of its list is flagged as low coverage.
    balance_targets : {"random", "none", "raise"}, default "random"
        How target sets of unequal size are made equal (:data:`BALANCE_POLICIES`; WEAT-like tests only).
    shared_vectors : {"keep", "drop", "raise"}, default "keep"
        What a word whose vector is not its own does (:mod:`wordbias.core.identity`: it reads another word's row in
        a pruned embedding, or shares one vector with another word of the test): it is kept and flagged in the
        result's notes, left out (reported in ``dropped``), or an error. An embedding with a row of its own for
        every word and no repeated vector is measured alike under all three.
    """

    case_fold: bool | None = None
    on_missing: str = "drop"
    min_words: int = MIN_WORDS
    min_fraction: float = MIN_FRACTION
    balance_targets: str = "random"
    shared_vectors: str = "keep"

    def __post_init__(self):
        if self.case_fold is not None:
            object.__setattr__(self, "case_fold", check_bool("case_fold", self.case_fold))
        check_on_missing(self.on_missing)
        words, fraction = check_coverage_thresholds(self.min_words, self.min_fraction)
        object.__setattr__(self, "min_words", words)
        object.__setattr__(self, "min_fraction", fraction)
        check_option("balance_targets", self.balance_targets, BALANCE_POLICIES)
        check_shared_vectors(self.shared_vectors)


def loose_options(default_resampling: Resampling, default_words: Words, **options) -> dict:
    """A measure's keywords from loose options: those of :class:`~wordbias.options.Resampling` and
    :class:`~wordbias.options.Words` made into ``resampling=`` and ``words=`` (the defaults given, changed), the
    others kept as they are.

    Parameters
    ----------
    default_resampling : Resampling
        The measure's resampling, which the loose options change.
    default_words : Words
        The measure's word policy, which the loose options change.
    **options
        Keywords of the measure, of Resampling (``n_resamples``, ``confidence_level``, ``ci_method``,
        ``n_permutations``, ``seed``) and of Words (``case_fold``, ``on_missing``, ``min_words``,
        ``min_fraction``, ``balance_targets``, ``shared_vectors``).

    Returns
    -------
    dict
        The keywords of the call.

    Raises
    ------
    InvalidParameterError
        If an option of Resampling or Words is out of range (it is checked as the object is made).

    Examples
    --------
    >>> opts = loose_options(Resampling(n_permutations=100_000), Words(), seed=3, p_method="exact")
    >>> opts["resampling"].n_permutations, opts["resampling"].seed, opts["p_method"], "words" in opts
    (100000, 3, 'exact', False)
    """
    out = dict(options)
    for name, default in (("resampling", default_resampling), ("words", default_words)):
        mine = {f.name: out.pop(f.name) for f in dataclasses.fields(default) if f.name in out}
        if mine:
            out[name] = default.replace(**mine)
    return out


def options_or_default(resampling, words, default_resampling: Resampling, default_words: Words):
    """A measure's options: ``resampling`` and ``words``, or its defaults where they are None.

    Parameters
    ----------
    resampling : Resampling or None
        The caller's resampling (:class:`wordbias.options.Resampling`).
    words : Words or None
        The caller's word policy (:class:`wordbias.options.Words`).
    default_resampling : Resampling
        The measure's resampling when ``resampling`` is None.
    default_words : Words
        The measure's word policy when ``words`` is None.

    Returns
    -------
    tuple of (Resampling, Words)
        The options the measure runs with.

    Raises
    ------
    InvalidParameterError
        If ``resampling`` is not a Resampling (or None) or ``words`` not a Words (or None).

    Examples
    --------
    >>> resampling, words = options_or_default(None, Words(on_missing="raise"), Resampling(n_permutations=5), Words())
    >>> resampling.n_permutations, words.on_missing
    (5, 'raise')
    """
    resampling = default_resampling if resampling is None else resampling
    words = default_words if words is None else words
    if not isinstance(resampling, Resampling):
        raise InvalidParameterError(f"resampling must be a wordbias.options.Resampling or None, not "
                                    f"{type(resampling).__name__}")
    if not isinstance(words, Words):
        raise InvalidParameterError(f"words must be a wordbias.options.Words or None, not {type(words).__name__}")
    return resampling, words
