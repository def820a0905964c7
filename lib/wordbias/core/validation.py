"""Checks at the public boundary: each names the parameter, the value given and what is allowed.

Measures call these once on entry (the scikit-learn habit of declared parameter constraints), so a bad value
fails at once with a clear message instead of deep inside numpy, or silently.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from wordbias.core.errors import InvalidParameterError

__all__ = ["check_int", "check_real", "check_probability", "check_option", "check_seed", "check_bool",
           "check_words", "check_disjoint"]


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_int(name: str, value, *, min: int | None = None, max: int | None = None) -> int:
    """``value`` as an ``int`` in [min, max]; a bool, a float (even 10.0) or a string is refused.

    Examples
    --------
    >>> check_int("n_permutations", 1000, min=1)
    1000
    >>> check_int("n_permutations", 10.7, min=1)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: n_permutations must be an integer, not 10.7 (float)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidParameterError(f"{name} must be an integer, not {_show(value)} ({type(value).__name__})")
    value = int(value)
    if min is not None and value < min:
        raise InvalidParameterError(f"{name} must be >= {min}, not {value}")
    if max is not None and value > max:
        raise InvalidParameterError(f"{name} must be <= {max}, not {value}")
    return value


def check_real(name: str, value, *, low: float | None = None, high: float | None = None,
               low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a finite ``float`` within the bounds (open or closed), else a clear error.

    Examples
    --------
    >>> check_real("c", 1, low=0)
    1.0
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidParameterError(f"{name} must be a number, not {_show(value)} ({type(value).__name__})")
    value = float(value)
    if not math.isfinite(value):
        raise InvalidParameterError(f"{name} must be finite, not {value}")
    if low is not None and (value < low or (low_open and value == low)):
        raise InvalidParameterError(f"{name} must be {'>' if low_open else '>='} {low}, not {value}")
    if high is not None and (value > high or (high_open and value == high)):
        raise InvalidParameterError(f"{name} must be {'<' if high_open else '<='} {high}, not {value}")
    return value


def check_probability(name: str, value) -> float:
    """A probability strictly between 0 and 1 (a significance level, a confidence level).

    Examples
    --------
    >>> check_probability("alpha", 0.05)
    0.05
    """
    return check_real(name, value, low=0.0, high=1.0, low_open=True, high_open=True)


def check_option(name: str, value, options: Iterable) -> object:
    """``value`` if it is one of ``options``, else an error listing them.

    Examples
    --------
    >>> check_option("on_missing", "drop", ("drop", "raise"))
    'drop'
    """
    options = tuple(options)
    try:
        ok = value in options
    except TypeError:  # unhashable
        ok = False
    if not ok:
        raise InvalidParameterError(f"{name} must be one of {', '.join(map(repr, options))}; not {_show(value)}")
    return value


def check_bool(name: str, value) -> bool:
    """``value`` if it is a bool (numpy's included), else an error."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be True or False, not {_show(value)}")
    return bool(value)


def check_seed(name: str, seed):
    """A seed: an integer >= 0 or a ``numpy.random.Generator`` (returned unchanged).

    Examples
    --------
    >>> check_seed("seed", 0)
    0
    >>> check_seed("seed", -1)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: seed must be an integer >= 0 or a numpy.random.Generator, not -1
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0):
        raise InvalidParameterError(
            f"{name} must be an integer >= 0 or a numpy.random.Generator, not {_show(seed)}")
    return int(seed)


def check_words(name: str, words, *, allow_duplicates: bool = False) -> tuple[str, ...]:
    """A word list as a tuple of strings, in the given order.

    A string is refused (it would be read as its letters); a ``set`` has no order, so it is sorted (results
    must not depend on Python's hash seed); a mapping, a non-string item, an empty string and (unless
    ``allow_duplicates``) a repeated word are refused, naming the set and the items.

    Examples
    --------
    >>> check_words("X", ["rose", "tulip"])
    ('rose', 'tulip')
    >>> check_words("X", {"tulip", "rose"})
    ('rose', 'tulip')
    >>> check_words("X", "rose")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: X must be a list of words, not the string 'rose' (write ['rose'])
    """
    if isinstance(words, (str, bytes)):
        raise InvalidParameterError(f"{name} must be a list of words, not the string {_show(words)} "
                                    f"(write [{_show(words)}])")
    if isinstance(words, Mapping) or not isinstance(words, Iterable):
        raise InvalidParameterError(f"{name} must be a list of words, not {type(words).__name__}")
    unordered = isinstance(words, (set, frozenset))
    words = tuple(words)
    bad = [(i, w) for i, w in enumerate(words) if not isinstance(w, str)]
    if bad:
        i, w = bad[0]
        raise InvalidParameterError(f"{name} must hold strings; item {i} is {_show(w)} ({type(w).__name__})")
    if any(w == "" for w in words):
        raise InvalidParameterError(f"{name} holds an empty string")
    if unordered:
        words = tuple(sorted(words))
    if not allow_duplicates:
        dups = repeated(words)
        if dups:
            raise InvalidParameterError(f"{name} lists these words more than once: {dups}")
    return words


def repeated(words) -> list:
    """The words listed more than once, each once, in the order of their second appearance.

    Examples
    --------
    >>> repeated(["a", "b", "a", "c", "b", "a"])
    ['a', 'b']
    """
    seen, dups = set(), []
    for w in words:
        if w in seen and w not in dups:
            dups.append(w)
        seen.add(w)
    return dups


def check_disjoint(name_a: str, a: Sequence[str], name_b: str, b: Sequence[str]) -> None:
    """Refuse word sets that share words (a word in both X and Y, or both A and B, makes the test
    meaningless), naming the shared words.

    Examples
    --------
    >>> check_disjoint("A", ["good"], "B", ["bad", "good"])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: A and B share words: ['good']
    """
    shared = [w for w in dict.fromkeys(a) if w in set(b)]
    if shared:
        raise InvalidParameterError(f"{name_a} and {name_b} share words: {shared}")
