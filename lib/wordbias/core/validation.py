"""Checks at the public boundary: each names the parameter, the value given and what is allowed.

Measures call these once on entry (the scikit-learn habit of declared parameter constraints), so a bad value
fails at once with a clear message instead of deep inside numpy, or silently.
"""
from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from wordbias.core.errors import DegenerateSetError, InvalidParameterError

__all__ = ["check_ddof", "ALTERNATIVES", "check_int", "check_real", "check_probability", "check_option", "check_seed", "check_bool",
           "check_words", "check_disjoint", "as_float_array", "check_out", "spread_tolerance", "degenerate_spread",
           "check_spread", "SPREAD_SLACK", "float_eps", "check_finite", "check_same_dimension"]

#: the alternatives of every test, named as SciPy names them
ALTERNATIVES = ("greater", "less", "two-sided")


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
    try:
        value = float(value)
    except OverflowError:                      # an integer past a float's range (10**400)
        raise InvalidParameterError(f"{name} must be finite, not {_show(value)}") from None
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
    >>> check_words("X", "he, him, his")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: X must be a list of words, not the string 'he, him, his' (write ['he', 'him', 'his'])
    """
    if isinstance(words, (str, bytes)):
        parts = [w for w in re.split(r"[,;\s]+", words.decode() if isinstance(words, bytes) else words) if w]
        raise InvalidParameterError(f"{name} must be a list of words, not the string {_show(words)} "
                                    f"(write [{', '.join(map(_show, parts or [words]))}])")
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
    seen, dups = set(), {}                   # a dict keeps the order and answers ``in`` in constant time
    for w in words:
        if w in seen:
            dups.setdefault(w, None)
        else:
            seen.add(w)
    return list(dups)


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
    other = set(b)                           # built once: linear time, whatever the sizes
    shared = [w for w in dict.fromkeys(a) if w in other]
    if shared:
        raise InvalidParameterError(f"{name_a} and {name_b} share words: {shared}")


# --------------------------------------------------------------------------------------------------
# arrays from other libraries: one conversion for every measure that takes numbers
# --------------------------------------------------------------------------------------------------

def _is_torch_tensor(value) -> bool:
    """A ``torch.Tensor``, recognised without importing torch (it may not be installed)."""
    return type(value).__module__.split(".")[0] == "torch" and hasattr(value, "detach") and hasattr(value, "cpu")


def _row_lengths(rows) -> dict:
    """{length: [positions]} of the rows of a list of vectors (a scalar row counts as length None)."""
    found: dict = {}
    for i, row in enumerate(rows):
        try:
            n = len(row)
        except TypeError:
            n = None
        found.setdefault(n, []).append(i)
    return found


def as_float_array(name: str, value, *, ndim: int | None = None, what: str | None = None) -> np.ndarray:
    """``value`` as a float64 ``numpy`` array, converting what can be converted without ambiguity, and refusing
    the rest with :class:`~wordbias.core.errors.InvalidParameterError` naming ``name``, the type and why.

    Converted: a ``numpy`` array or anything ``numpy`` reads as numbers (a list, a tuple, a list of equal-length
    vectors), a ``torch.Tensor`` (``value.detach().cpu().numpy()``: no gradient, any device) and a
    ``pandas.Series`` (``value.to_numpy()``). Refused: a string; a ``pandas.DataFrame`` (which column is meant?
    pass one column ``df["score"]`` for scores, or ``df.to_numpy()`` when each row is a word's vector); a mapping
    (a dict of word -> vector is not a vector set, nor a dict of scores a score list: pass a list, or a
    ``KeyedVectors`` and word lists); a ``set`` (no order); a ragged list (the row lengths found are named);
    anything that is not numbers. ``ndim`` (optional) is the number of dimensions required; ``what`` describes
    the value in messages ("a list of scores", "a set of word vectors (rows)").

    Valid input converts exactly as ``np.asarray(value, dtype=np.float64)``, so results do not change.

    Examples
    --------
    >>> as_float_array("s_x", [1, 2.5])
    array([1. , 2.5])
    >>> as_float_array("X", [[1.0, 2.0], [3.0]])
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: X is a ragged list: its rows have different lengths (length 2: rows [0]; length 1: rows [1]); every vector of a set must have the same dimension
    >>> as_float_array("A", {"good": [1.0, 0.0]})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: A is a dict ('good' -> ...): a mapping of word -> value is not an array; pass a list of vectors or scores (e.g. list(A.values())), or a KeyedVectors and the word list
    """
    what = what or ("a list of numbers" if ndim == 1 else "an array of numbers")
    kind = type(value).__name__
    if isinstance(value, (str, bytes)):
        raise InvalidParameterError(f"{name} must be {what}, not the string {_show(value)}")
    if value is None:                                  # numpy reads None as NaN
        raise InvalidParameterError(f"{name} must be {what}, not None")
    if _is_torch_tensor(value):
        value = _tensor_to_numpy(name, value)
    elif isinstance(value, (list, tuple)) and any(_is_torch_tensor(v) for v in value):
        value = [_tensor_to_numpy(f"{name}[{i}]", v) if _is_torch_tensor(v) else v   # rows that are tensors (a
                 for i, v in enumerate(value)]                                       # gradient: numpy refuses)
    else:
        module = type(value).__module__.split(".")[0]
        if module == "pandas" and kind == "DataFrame":
            cols = list(value.columns)
            raise InvalidParameterError(
                f"{name} is a pandas DataFrame of shape {value.shape} (columns {cols[:6]}{'...' if len(cols) > 6 else ''})"
                f": which column is meant? Pass one column (e.g. {name}[{cols[0]!r}] or df[{cols[0]!r}]) for a list of "
                f"scores, or df.to_numpy() when each row is one word's vector" if cols else
                f"{name} is an empty pandas DataFrame: pass {what}")
        if module == "pandas" and hasattr(value, "to_numpy") and getattr(value, "ndim", None) == 1:
            try:
                value = value.to_numpy(dtype=np.float64)
            except (TypeError, ValueError) as exc:
                raise InvalidParameterError(f"{name} is a pandas {kind} whose values are not numbers ({exc})") from None
        elif isinstance(value, Mapping):
            keys = list(value)[:1]
            shown = f" ({_show(keys[0])} -> ...)" if keys else ""
            raise InvalidParameterError(
                f"{name} is a {kind}{shown}: a mapping of word -> value is not an array; pass a list of vectors or "
                f"scores (e.g. list({name}.values())), or a KeyedVectors and the word list")
        elif isinstance(value, (set, frozenset)):
            raise InvalidParameterError(f"{name} is a {kind}, which has no order: pass a list ({what})")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except ValueError as exc:
        if isinstance(value, (list, tuple)) and value and any(hasattr(r, "__len__") for r in value):
            lengths = _row_lengths(value)
            if len(lengths) > 1:
                shown = "; ".join(f"length {n}: rows {rows[:8]}{'...' if len(rows) > 8 else ''}"
                                  for n, rows in lengths.items())
                raise InvalidParameterError(
                    f"{name} is a ragged list: its rows have different lengths ({shown}); every vector of a set must "
                    f"have the same dimension") from None
        raise InvalidParameterError(f"{name} must be {what}, not {kind}: {exc}") from None
    except (TypeError, RuntimeError) as exc:         # RuntimeError: an object whose __array__ refuses
        raise InvalidParameterError(f"{name} must be {what}, not {kind} {_show(value)} ({exc})") from None
    if isinstance(value, (list, tuple)) and not np.all(np.isfinite(arr)) \
            and _holds_none(value):                    # numpy reads None as NaN: a missing value, not a number
        raise InvalidParameterError(f"{name} must be {what}: it holds None (a missing value) where a number belongs")
    if ndim is not None and arr.ndim != ndim:
        raise InvalidParameterError(f"{name} must be {what} ({ndim}-D), not an array of shape {arr.shape}")
    return arr


def _tensor_to_numpy(name: str, tensor) -> np.ndarray:
    """A torch tensor as numpy: detached from the graph (a tensor that requires grad is converted, its values
    as they are), on the CPU."""
    try:
        return tensor.detach().cpu().numpy()
    except (TypeError, RuntimeError) as exc:         # e.g. a sparse or meta tensor
        raise InvalidParameterError(f"{name}: the torch tensor cannot be converted to numpy ({exc})") from None


def check_out(name: str, out, shape: tuple, *, dtypes=(np.float32,), what: str = "a float32 array"):
    """``out``, an array a function is asked to write its result into, checked before any work: None (the
    function makes its own) or a numpy array of ``shape`` and one of ``dtypes`` that can be written. A
    read-only array -- a memory-mapped cache or an installed package's vectors, which wordbias maps read-only so
    that nothing can change them -- is refused with :class:`~wordbias.core.errors.InvalidParameterError` saying
    so and what to pass instead (numpy would fail half-way with "assignment destination is read-only").

    Examples
    --------
    >>> check_out("out", None, (2, 3)) is None
    True
    >>> frozen = np.zeros((2, 3), dtype=np.float32)
    >>> frozen.flags.writeable = False
    >>> check_out("out", frozen, (2, 3))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: out is a read-only array ...
    """
    if out is None:
        return None
    if not isinstance(out, np.ndarray) or out.shape != tuple(shape) or out.dtype not in dtypes:
        raise InvalidParameterError(f"{name} must be {what} of shape {tuple(shape)}, not "
                                    f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
    if not out.flags.writeable:
        raise InvalidParameterError(
            f"{name} is a read-only array (a memory-mapped cache or an installed package's vectors, which wordbias "
            f"opens read-only so that nothing can change them): pass a writable array, e.g. {name}=np.array(kv.vectors) "
            f"(a copy in memory) or numpy.lib.format.open_memmap(path, mode='w+', dtype='float32', shape={tuple(shape)}) "
            f"(a new file), or leave {name}=None for a new array")
    return out


def _holds_none(value) -> bool:
    """Whether a (nested) list or tuple holds ``None``."""
    return any(v is None or (isinstance(v, (list, tuple)) and _holds_none(v)) for v in value)


def check_finite(name: str, values: np.ndarray, what: str = "values") -> np.ndarray:
    """``values`` (an array) if every entry is finite, else :class:`~wordbias.core.errors.InvalidParameterError`
    naming ``name`` and the (flat) positions of the NaN or infinite entries, the first ten.

    Examples
    --------
    >>> check_finite("s_x", np.array([0.5, np.nan, np.inf]), "scores")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: s_x holds non-finite scores at positions [1, 2]
    """
    ok = np.isfinite(values)
    if not np.all(ok):
        bad = np.flatnonzero(~ok)
        raise InvalidParameterError(f"{name} holds non-finite {what} at positions {bad.tolist()[:10]}"
                                    f"{'...' if bad.size > 10 else ''}")
    return values


def check_same_dimension(sets: Mapping[str, np.ndarray], what: str | None = None) -> int:
    """The one dimension shared by several sets of vectors (arrays whose last axis is the dimension, keyed by
    the set's name), else :class:`~wordbias.core.errors.InvalidParameterError` naming each set's dimension.
    Every measure that takes more than one set of vectors calls it before combining them (stacking, products),
    so a mismatch is named instead of failing inside numpy.

    Examples
    --------
    >>> check_same_dimension({"A": np.ones((2, 3)), "B": np.ones((1, 3))})
    3
    >>> check_same_dimension({"X": np.ones((2, 2)), "Y": np.ones((2, 1))})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: the sets X and Y have vectors of different dimensions: {'X': 2, 'Y': 1}
    """
    dims = {name: (int(np.shape(m)[-1]) if np.ndim(m) else None) for name, m in sets.items()}
    if len(set(dims.values())) > 1:
        what = what or f"the sets {', '.join(list(dims)[:-1])} and {list(dims)[-1]}"
        raise InvalidParameterError(f"{what} have vectors of different dimensions: {dims}")
    return next(iter(dims.values()), None)


# --------------------------------------------------------------------------------------------------
# spreads at rounding level: one tolerance for every standardised statistic
# --------------------------------------------------------------------------------------------------

#: units of eps added to the count of terms in :func:`spread_tolerance`, for the rounding of the scores
#: themselves (each a mean over attribute words, a cosine: a few dozen roundings that differ with the order)
SPREAD_SLACK = 32


def float_eps(*arrays) -> float | None:
    """The machine epsilon of the coarsest floating dtype among ``arrays`` when it is coarser than float64
    (float32: 1.19e-7, float16 or bfloat16 too), else None (float64, integers, Python numbers and lists).

    The precision the values are known to: a float32 array (word vectors as :func:`wordbias.embeddings.load`
    holds them, scores of a float32 model) carries its own rounding, which float64 arithmetic on it cannot undo.
    numpy arrays and torch tensors are recognised by their ``dtype``.

    Examples
    --------
    >>> float_eps(np.ones(2, dtype=np.float32)), float_eps([0.1, 0.2], np.ones(2))
    (1.1920928955078125e-07, None)
    """
    worst = None
    for a in arrays:
        dtype = getattr(a, "dtype", None)
        if dtype is None:
            continue
        try:
            dtype = np.dtype(dtype)
        except TypeError:                                     # a torch dtype: torch.float32, torch.bfloat16
            eps = {"float16": 2.0 ** -10, "half": 2.0 ** -10, "bfloat16": 2.0 ** -7,
                   "float32": 2.0 ** -23, "float": 2.0 ** -23}.get(str(dtype).rsplit(".", 1)[-1])
        else:
            eps = float(np.finfo(dtype).eps) if dtype.kind == "f" and dtype.itemsize < 8 else None
        if eps is not None and (worst is None or eps > worst):
            worst = eps
    return worst


def spread_tolerance(values, axis=None, *, input_eps=None, scale=None):
    """The largest standard deviation (or range) that rounding alone gives ``values`` that are equal in exact
    arithmetic: (n + :data:`SPREAD_SLACK`)·eps·max(max |values|, tiny), n the number of values (along ``axis``),
    plus :data:`SPREAD_SLACK`·input_eps·scale when the values were computed from coarser data.

    Why: a sum of n float64 terms carries a relative error up to (n − 1)·eps times Σ|terms| (Higham 2002,
    *Accuracy and Stability of Numerical Algorithms*, §4.2, recursive summation; pairwise summation does
    better), and the mean and the deviations of a standard deviation are such sums, so n equal scores can
    show a spread of about ``n·eps·max|s|``; the scores themselves arrive rounded (a cosine, a mean over the
    attribute words, summed in some order), which :data:`SPREAD_SLACK` more units absorb. Any spread at or
    below this is rounding noise, and a statistic divided by it is a ratio of noise. Far below any genuine
    spread: 10,000 scores near 0.3 give 6.7e-13.

    Values computed from data known only to a coarser precision (float32 word vectors: ``input_eps`` 1.19e-7)
    carry that data's rounding whatever the arithmetic after it: a cosine of two vectors each rounded to
    float32 is off by up to about 2·input_eps, s(w, A, B), a difference of two means of cosines, by 4·input_eps,
    all relative to ``scale``, the magnitude the inputs' rounding is relative to (1 for cosines and their
    differences). Vectors equal up to float32 rounding thus give scores that differ by 1e-8, a spread far above
    float64's but still noise.

    Parameters
    ----------
    values : array_like of float
        The values (a float32 array counts as ``input_eps`` = float32's, :func:`float_eps`).
    axis : int, optional
        The axis along which the spreads are taken (None: all the values).
    input_eps : float, optional
        The precision of the data the values were computed from, when coarser than float64 (float32 vectors:
        ``numpy.finfo(numpy.float32).eps``). Default: the values' own dtype's when it is coarser than float64.
    scale : float or array_like, optional
        The magnitude ``input_eps`` is relative to (1 for cosines); default max |values|.

    Examples
    --------
    >>> float(spread_tolerance([0.3, 0.3 + 1e-17]))                # (2 + 32)·eps·0.3
    2.264854970235319e-15
    >>> float(spread_tolerance([0.3, 0.3], input_eps=np.finfo(np.float32).eps, scale=1.0)) > 1e-6
    True
    """
    a = np.abs(np.asarray(values, dtype=np.float64))
    n = a.size if axis is None else a.shape[axis]
    top = a.max(axis=axis, initial=0.0)
    tol = (n + SPREAD_SLACK) * np.finfo(np.float64).eps * np.maximum(top, np.finfo(np.float64).tiny)
    if input_eps is None:
        input_eps = float_eps(values)
    if input_eps is not None or scale is not None:
        eps = max(float(input_eps or 0.0), float(np.finfo(np.float64).eps))
        tol = tol + SPREAD_SLACK * eps * (top if scale is None else np.maximum(np.asarray(scale, dtype=float), top))
    return tol


def degenerate_spread(spread, values, axis=None, *, input_eps=None, scale=None):
    """Whether ``spread`` (a standard deviation or range of ``values``, along ``axis``) is at rounding level:
    not above :func:`spread_tolerance` (NaN counts as degenerate; ``input_eps`` and ``scale`` as there).
    Elementwise for arrays.

    Examples
    --------
    >>> bool(degenerate_spread(1e-17, [0.3, 0.3])), bool(degenerate_spread(1e-9, [0.3, 0.3]))
    (True, False)
    """
    out = ~(np.asarray(spread, dtype=np.float64) > spread_tolerance(values, axis, input_eps=input_eps, scale=scale))
    return bool(out) if np.ndim(out) == 0 else out


def check_spread(values, spread: float, message: str, *, input_eps=None, scale=None) -> float:
    """``spread`` if it is above the rounding level of ``values`` (:func:`degenerate_spread`; ``input_eps`` and
    ``scale`` as :func:`spread_tolerance`'s), else :class:`~wordbias.core.errors.DegenerateSetError` with
    ``message`` and the two numbers.

    Examples
    --------
    >>> check_spread([0.3, 0.3], 0.0, "all scores are equal: the effect size is undefined")
    Traceback (most recent call last):
    ...
    wordbias.core.errors.DegenerateSetError: all scores are equal: the effect size is undefined
    """
    if degenerate_spread(spread, values, input_eps=input_eps, scale=scale):
        if spread == 0 or not np.isfinite(spread):
            raise DegenerateSetError(message)
        if input_eps is None:
            input_eps = float_eps(values)
        tol = float(spread_tolerance(values, input_eps=input_eps, scale=scale))
        coarse = ("", "") if input_eps is None and scale is None else (
            f" + {SPREAD_SLACK}·eps_in·scale",
            f", eps_in = {max(float(input_eps or 0.0), float(np.finfo(np.float64).eps)):.3g}, the precision of the "
            f"data they were computed from")
        raise DegenerateSetError(
            f"{message} (their spread {float(spread):.3g} is at rounding level: at most "
            f"{tol:.3g} = (n + {SPREAD_SLACK})·eps·max|value|{coarse[0]} for n = {np.size(values)}{coarse[1]}; "
            f"the scores are equal up to rounding, and a ratio with that spread is noise)")
    return spread


def check_targets_not_attributes(targets: Mapping[str, Sequence[str]], attributes: Mapping[str, Sequence[str]]) -> None:
    """Refuse a target word that is also an attribute word, naming the words and the sets.

    The tests of Caliskan et al. (2017, Methods) measure how target words (X, Y; a WEFAT's W; an SC-WEAT's
    words) associate with attribute words (A, B): a word in both is associated with itself, cos(w, w) = 1, in
    its own s(w, A, B), which moves that score by 1/``len(A)`` whatever the embedding holds. None of the papers' lists
    has such a word (the WEATs and WEFATs of ``data/stimuli/caliskan2017.yaml`` were checked), so it is an
    error, not an option: remove the word from one of the sets.

    Parameters
    ----------
    targets, attributes : mapping of str to sequence of str
        Each set's name (as the messages give it) and its words, checked as given (after case folding, where
        the test folds case).

    Raises
    ------
    InvalidParameterError
        When a target set shares words with an attribute set.

    Examples
    --------
    >>> check_targets_not_attributes({"X": ["he", "rose"], "Y": ["ant"]}, {"A": ["he", "him"], "B": ["her"]})
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: target set X and attribute set A share words: ['he'] (a target word that is also an attribute word is associated with itself, cos(w, w) = 1, in its own score); remove them from one of the sets
    """
    found = []
    for t_name, t_words in targets.items():
        for a_name, a_words in attributes.items():
            other = set(a_words)
            shared = [w for w in dict.fromkeys(t_words) if w in other]
            if shared:
                found.append(f"target set {t_name} and attribute set {a_name} share words: {shared[:20]}"
                             + (f" ... ({len(shared)} in all)" if len(shared) > 20 else ""))
    if found:
        raise InvalidParameterError("; ".join(found) + " (a target word that is also an attribute word is associated "
                                    "with itself, cos(w, w) = 1, in its own score); remove them from one of the sets")


def check_ddof(ddof) -> int:
    """Check the ``ddof`` of a standard deviation: 1 (sample, the default) or 0 (population); nothing else.

    Parameters
    ----------
    ddof : int
        The delta degrees of freedom to check (the n - ddof divisor of the variance).

    Returns
    -------
    int
        ``ddof``, as a Python integer.

    Raises
    ------
    InvalidParameterError
        When ``ddof`` is not the integer 0 or 1.

    Examples
    --------
    >>> check_ddof(0)
    0
    >>> check_ddof(2)
    Traceback (most recent call last):
    ...
    wordbias.core.errors.InvalidParameterError: ddof must be one of 0, 1; not 2
    """
    return check_option("ddof", check_int("ddof", ddof), (0, 1))
