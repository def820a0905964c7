"""Strategies and the one property of the fuzzing pass.

The property, everywhere: every input gets either a correct result (checked by a few invariants the code
documents) or one of wordbias's own exceptions (:mod:`wordbias.core.errors`) with a non-empty message. Any other
exception, or a call running past :data:`HANG_SECONDS`, is a finding; warnings are fine.

:func:`outcome` lets a foreign exception propagate unchanged (it is not wrapped in an ``AssertionError``), so
that hypothesis tells distinct findings apart by their type and origin and shrinks each one separately.
"""
from __future__ import annotations

import math
import os
import signal
import string
import warnings
from contextlib import contextmanager

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

from wordbias.core import errors as E
from wordbias.embeddings import to_keyed_vectors

# --------------------------------------------------------------------------------------------------
# budget
# --------------------------------------------------------------------------------------------------

#: "long" selects the profile ``wordbias-fuzz-long`` (registered in conftest.py)
LONG = os.environ.get("WORDBIAS_FUZZ", "").strip().lower() == "long"
#: how many times more examples each test runs under ``WORDBIAS_FUZZ=long``
SCALE = int(os.environ.get("WORDBIAS_FUZZ_SCALE", "20")) if LONG else 1
#: a single call running longer than this is reported as a hang
HANG_SECONDS = float(os.environ.get("WORDBIAS_FUZZ_HANG", "30"))


def fuzz(max_examples: int) -> settings:
    """The settings of one fuzz test: the profile of conftest.py with this test's fixed number of examples
    (times :data:`SCALE` under ``WORDBIAS_FUZZ=long``)."""
    profile = settings.get_profile("wordbias-fuzz-long" if LONG else "wordbias-fuzz")
    return settings(profile, max_examples=max_examples * SCALE)


# --------------------------------------------------------------------------------------------------
# the property
# --------------------------------------------------------------------------------------------------

#: wordbias's own exceptions (every public one of wordbias.core.errors, and their subclasses elsewhere)
OWN_ERRORS = (E.InvalidParameterError, E.DegenerateSetError, E.TooCostlyError, E.EmbeddingFormatError,
              E.CacheError, E.ExactCountTooLarge, E.EmbeddingNotFoundError)


class Hang(BaseException):
    """A call ran past :data:`HANG_SECONDS` (a BaseException, so no ``except Exception`` swallows it)."""


@contextmanager
def time_limit(seconds: float = HANG_SECONDS):
    """Raise :class:`Hang` in the main thread when the block runs longer than ``seconds``."""
    def on_alarm(signum, frame):
        raise Hang(f"the call ran past {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


#: exploration aids, off by default (never set in CI): ``WORDBIAS_FUZZ_COLLECT=FILE`` appends each foreign
#: exception's signature and input to FILE and carries on (to list every distinct finding in one run instead of
#: stopping at the first); ``WORDBIAS_FUZZ_TARGET=SIGNATURE`` fails only on that signature (so hypothesis shrinks
#: that finding alone) and carries on past the others. A signature is "Type@file.py:line", the innermost frame in
#: wordbias (or the innermost frame at all).
COLLECT = os.environ.get("WORDBIAS_FUZZ_COLLECT")
TARGET = os.environ.get("WORDBIAS_FUZZ_TARGET")


def signature(exc: BaseException) -> str:
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f"{os.sep}wordbias{os.sep}" in f.filename and "tests" not in f.filename]
    f = (ours or frames or [None])[-1]
    where = f"{os.path.basename(f.filename)}:{f.lineno}" if f is not None else "?"
    return f"{type(exc).__name__}@{where}"


def _foreign(exc: BaseException, call, args, kwargs) -> bool:
    """True when an exploration aid says to carry on past this foreign exception."""
    if not (COLLECT or TARGET):
        return False
    sig = signature(exc)
    if COLLECT:
        with open(COLLECT, "a", encoding="utf-8") as f:
            f.write(f"{sig}\t{getattr(call, '__qualname__', call)!s}\t{str(exc)[:200]!r}\t"
                    f"{describe(args)[:600]}\t{describe(kwargs)[:400]}\n")
    return sig != TARGET


def describe(obj) -> str:
    """A readable repr: a KeyedVectors as its words and vectors."""
    if hasattr(obj, "key_to_index") and hasattr(obj, "vectors"):
        return f"KV({list(obj.index_to_key)!r}, {np.asarray(obj.vectors).tolist()!r}, {obj.vectors.dtype})"
    if isinstance(obj, np.ndarray):
        return f"np.array({obj.tolist()!r}, dtype={obj.dtype})"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(describe(o) for o in obj) + "]"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in obj.items()) + "}"
    return repr(obj)


def outcome(call, *args, documented=(), **kwargs):
    """Run ``call(*args, **kwargs)``: ``("ok", result)``, or ``("error", exc)`` for one of wordbias's own
    exceptions (or one of ``documented``, exceptions a docstring promises for this input) whose message is
    non-empty. Anything else propagates: a finding. Warnings are silenced (they are fine)."""
    from hypothesis import note
    from hypothesis.control import currently_in_test_context

    if currently_in_test_context():
        note(f"call: {getattr(call, '__module__', '')}.{getattr(call, '__qualname__', call)}({describe(list(args))[1:-1]}, "
             f"**{describe(kwargs)})")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with time_limit():
                result = call(*args, **kwargs)
        except OWN_ERRORS + tuple(documented) as exc:
            message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
            assert message.strip(), f"{type(exc).__name__} with an empty message"
            return "error", exc
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt) or not _foreign(exc, call, args, kwargs):
                raise
            return "foreign", exc
    return "ok", result


def is_probability(p) -> bool:
    return isinstance(p, float) and 0.0 <= p <= 1.0


def d_bound(n_x: int, n_y: int, ddof: int) -> float:
    """The largest |d| two target sets of these sizes allow: the between-group part of the pooled variance
    is at most all of it, so |d| <= sqrt((N - ddof) / N) / sqrt(q (1 - q)), q = n_x / N (2 for equal sets
    and the population sd; below 2 with ddof=1; above 2 for unequal sets, balance_targets="none")."""
    n = n_x + n_y
    q = n_x / n
    return math.sqrt((n - ddof) / n) / math.sqrt(q * (1 - q))


# --------------------------------------------------------------------------------------------------
# words and word lists
# --------------------------------------------------------------------------------------------------

#: the words of the small embeddings (plain, cased, non-ASCII, one with a space, one all digits)
VOCAB = ("rose", "tulip", "lily", "daisy", "ant", "wasp", "moth", "flea", "love", "joy", "peace", "hate", "ugly",
         "evil", "Paris", "naïve", "東京", "new york", "1984", "x")

UNICODE_TEXT = st.text(max_size=12)
JUNK_STRINGS = st.sampled_from(["", " ", "\t", "\n", " rose", "rose ", "ROSE", "Rose", "\x00", "\ufeff", "a b",
                                "\u200b", "\ud800", "x" * 10_000, "İ", "ß", "ﬃ"])
NON_STRINGS = st.one_of(st.integers(-3, 3), st.none(), st.just(b"rose"), st.floats(allow_nan=True),
                        st.just(np.str_("rose")), st.just(np.bytes_(b"ant")), st.just(("rose",)),
                        st.just(["rose"]), st.booleans())


def words(vocab=VOCAB, *, junk: bool = True):
    """One item of a word list: mostly words of ``vocab`` or unknown words, sometimes junk."""
    choices = [st.sampled_from(vocab), st.sampled_from(vocab).map(str.upper), UNICODE_TEXT.filter(bool)]
    if junk:
        choices += [JUNK_STRINGS, NON_STRINGS]
    return st.one_of(*choices)


def word_lists(vocab=VOCAB, *, junk: bool = True, max_size: int = 6):
    """A word list: a list (duplicates possible), sometimes a tuple, set, string, dict, array or None."""
    items = words(vocab, junk=junk)
    plain = st.lists(items, max_size=max_size)
    if not junk:
        return st.lists(items, max_size=max_size, unique=True)
    return st.one_of(
        plain, plain, plain,
        st.lists(st.sampled_from(vocab), min_size=2, max_size=max_size, unique=True),
        plain.map(tuple),
        st.frozensets(st.sampled_from(vocab), max_size=max_size),
        st.lists(st.sampled_from(vocab), min_size=1, max_size=4).map(lambda w: np.array(w)),
        st.sampled_from(vocab),                                    # a string, not a list
        st.just(None), st.just(3), st.just({"rose": 1}), st.just(b"rose"),
        plain.map(lambda w: iter(w)),                               # a one-shot iterator
    )


@st.composite
def four_sets(draw, vocab=VOCAB, junk: bool = True):
    """X, Y, A, B: mostly drawn from one shuffled vocabulary (so they overlap each other only sometimes),
    with unknown words and junk mixed in."""
    if draw(st.booleans()):
        pool = list(draw(st.permutations(vocab)))
        sizes = [draw(st.integers(0, 5)) for _ in range(4)]
        out, i = [], 0
        for n in sizes:
            chunk = pool[i:i + n]
            i += n
            if draw(st.integers(0, 4)) == 0:                      # an overlap with another set
                chunk = chunk + [draw(st.sampled_from(vocab))]
            if draw(st.integers(0, 3)) == 0:                      # an unknown word
                chunk = chunk + ["zz" + draw(st.text(string.ascii_lowercase, max_size=4))]
            out.append(chunk)
        if junk and draw(st.integers(0, 5)) == 0:
            k = draw(st.integers(0, 3))
            out[k] = draw(word_lists(vocab))
        return out
    return [draw(word_lists(vocab, junk=junk)) for _ in range(4)]


# --------------------------------------------------------------------------------------------------
# small embeddings
# --------------------------------------------------------------------------------------------------

NICE_FLOATS = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False)
ODD_FLOATS = st.sampled_from([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-320, 1e-30, 1e30, 1e200, -1e308, 3.4e38])


@st.composite
def matrices(draw, n: int, dim: int | None = None, odd: bool = True):
    dim = dim if dim is not None else draw(st.integers(1, 4))
    cells = st.one_of(NICE_FLOATS, NICE_FLOATS, NICE_FLOATS, ODD_FLOATS) if odd else NICE_FLOATS
    rows = draw(st.lists(st.lists(cells, min_size=dim, max_size=dim), min_size=n, max_size=n))
    m = np.array(rows, dtype=np.float64).reshape(n, dim)
    if odd and n and draw(st.integers(0, 4)) == 0:
        m[draw(st.integers(0, n - 1))] = 0.0                           # a zero vector
    if odd and n > 1 and draw(st.integers(0, 5)) == 0:
        m[1] = m[0]                                                    # two words, one vector
    return m


@st.composite
def embeddings(draw, vocab=VOCAB, odd: bool = True):
    """A small embedding: a gensim KeyedVectors built with ``to_keyed_vectors`` (float32 or float64, duplicate
    words possible, zero, non-finite, huge or 1-dimensional vectors), or sometimes a plain dict
    word -> vector (which the measures accept), ragged or not."""
    ws = list(draw(st.lists(st.sampled_from(vocab), min_size=1, max_size=len(vocab), unique=True)))
    if odd and draw(st.integers(0, 6)) == 0:
        ws.append(ws[0])                                             # a duplicate word
    m = draw(matrices(len(ws), odd=odd))
    kind = draw(st.sampled_from(["kv32", "kv32", "kv64", "dict"])) if odd else "kv32"
    if kind == "dict":
        emb = {w: m[i] for i, w in enumerate(ws)}
        if draw(st.integers(0, 3)) == 0:
            emb[ws[0]] = np.append(m[0], 1.0)                          # ragged: one vector longer
        return emb
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return to_keyed_vectors(ws, m.astype(np.float32 if kind == "kv32" else np.float64))


# --------------------------------------------------------------------------------------------------
# options, valid and not
# --------------------------------------------------------------------------------------------------

#: values no integer option accepts, and "huge" ones no option should try to honour (all >= 10**12, so that
#: an unrefused request fails at its first allocation instead of filling this machine's memory)
BAD_INTS = st.sampled_from([-1, 0, -(2 ** 63), 1.5, 10.0, True, False, "10", None, float("nan"), float("inf"),
                            [3], (3,), np.float64(3.0), np.array([3]), 1j])
HUGE_INTS = st.sampled_from([10 ** 12, 2 ** 62, 2 ** 63 - 1, 2 ** 63, 2 ** 64, 10 ** 30, 10 ** 100,
                             np.int64(2 ** 62), np.uint64(2 ** 64 - 1)])
NUMPY_INTS = st.integers(1, 300).map(lambda i: np.int64(i)) | st.integers(1, 100).map(lambda i: np.uint8(i))


def int_option(low: int, high: int):
    """An integer option: valid values (Python and numpy ints), invalid ones and huge ones."""
    return st.one_of(st.integers(low, high), st.integers(low, high), NUMPY_INTS, BAD_INTS, HUGE_INTS)


SEEDS = st.one_of(st.integers(0, 2 ** 32), st.just(2 ** 64), st.just(10 ** 40), st.integers(-5, -1),
                  st.just(np.int64(7)), st.just(1.0), st.just("0"), st.just(None), st.just(True),
                  st.integers(0, 100).map(np.random.default_rng), st.just(np.random.RandomState(0)))
P_METHODS = st.sampled_from(["auto", "exact", "monte-carlo", "mc", "normal", "MC", "Exact", "", None, 1, "bootstrap"])
ALTERNATIVES = st.sampled_from(["greater", "less", "two-sided", "two_sided", "both", "", None, 0])
DDOFS = st.sampled_from([0, 1, 1, 2, -1, 1.0, True, np.int8(1), np.int64(0), None, "1", 10 ** 12])
CONFIDENCE = st.one_of(st.floats(0.5, 0.999), st.sampled_from([0.0, 1.0, 95, -0.1, 1.0000001, float("nan"),
                                                               float("inf"), "0.95", None, True, np.float32(0.9),
                                                               5e-324, 1 - 1e-16]))
ALPHAS = CONFIDENCE
BOOT_METHODS = st.sampled_from(["BCa", "percentile", "basic", "bca", "BCA", "studentized", "", None])
BOOLS = st.sampled_from([True, False, np.bool_(True), 1, 0, "yes", None])
MAX_SECONDS = st.sampled_from([600.0, 600.0, 60, 1e-9, 0, -1, float("inf"), float("nan"), "10", None, True])
RESAMPLE_WEAT = st.one_of(st.just(("X", "Y", "A", "B")), st.sampled_from(["XY", "X", "AB", "", "Z", "XX", None, 5,
                                                                          ["X", "X"], ["A"], {"X": 1}, ("Y",)]))
N_RESAMPLES = st.one_of(st.integers(2, 60), st.integers(2, 60), NUMPY_INTS.map(lambda i: i % 50 + 2), BAD_INTS,
                        HUGE_INTS, st.just(1))


# --------------------------------------------------------------------------------------------------
# YAML word-list files
# --------------------------------------------------------------------------------------------------

YAML_SCALARS = st.one_of(st.sampled_from(VOCAB), st.text(max_size=10),
                         st.sampled_from(["yes", "no", "null", "~", "12", "1e3", "0x1F", "on", ".inf", "2001-12-14",
                                          "'quoted'", "*alias", "&anchor", "!!python/object", "- a", "a: b",
                                          "{", "[", "|", ">", "%", "@", "`", "#"]))


@st.composite
def yaml_set(draw):
    ws = draw(st.lists(YAML_SCALARS, max_size=5))
    if draw(st.booleans()):
        return ws
    block = {"words": ws}
    if draw(st.booleans()):
        block["name"] = draw(YAML_SCALARS)
    if draw(st.integers(0, 5)) == 0:
        block["extra"] = 1
    return block


def _flow(value) -> str:
    """A YAML rendering by hand (so that odd scalars reach the parser unquoted, as a user would write them)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


@st.composite
def yaml_documents(draw) -> bytes:
    """A word-list file: the documented structure with random contents, rendered by yaml or by hand, then
    sometimes damaged (duplicate keys, aliases, tags, a BOM, CRLF, truncation, binary garbage)."""
    import yaml

    tests = []
    for i in range(draw(st.integers(0, 3))):
        test = {"id": draw(st.one_of(st.just(f"t{i}"), YAML_SCALARS, st.just("t0"))),
                "targets": {"X": draw(yaml_set()), "Y": draw(yaml_set())},
                "attributes": {"A": draw(yaml_set()), "B": draw(yaml_set())}}
        if draw(st.booleans()):
            test["title"] = draw(YAML_SCALARS)
        if draw(st.integers(0, 6)) == 0:
            del test[draw(st.sampled_from(["targets", "attributes", "id"]))]
        tests.append(test)
    doc: dict = {draw(st.sampled_from(["weat", "weat", "tests", "wefat", "wheat"])): tests}
    if draw(st.booleans()):
        doc["battery"] = draw(YAML_SCALARS)
    if draw(st.integers(0, 3)) == 0:
        W = draw(st.lists(st.sampled_from(VOCAB), min_size=0, max_size=4, unique=True))
        values = {w: draw(st.one_of(st.floats(allow_nan=True), st.integers(), st.booleans(), YAML_SCALARS))
                  for w in W}
        doc["wefat"] = [{"id": "w", "targets": {"W": W}, "attributes": {"A": ["she"], "B": ["he"]},
                         "property": {"name": draw(YAML_SCALARS), "values": values}}]
    how = draw(st.sampled_from(["dump", "dump", "flow"]))
    text = yaml.safe_dump(doc, allow_unicode=True) if how == "dump" else "\n".join(
        f"{k}: {_flow(v)}" for k, v in doc.items()) + "\n"
    damage = draw(st.sampled_from(["none", "none", "dup-key", "dup-top", "alias", "self-alias", "tag", "bom", "crlf",
                                   "truncate", "garbage", "random", "laughs", "deep"]))
    if damage == "dup-key":
        text = text.replace("targets:", "targets: {X: [a], Y: [b]}\n    targets:", 1)
    elif damage == "dup-top":
        text += "weat: []\n"
    elif damage == "alias":
        text = "base: &w [rose, tulip]\n" + text.replace("[rose", "*w #", 1)
    elif damage == "self-alias":
        text = "weat: &a\n  - id: t\n    targets: {X: *a, Y: [b]}\n    attributes: {A: [c], B: [d]}\n"
    elif damage == "tag":
        text = text.replace("rose", "!!binary cm9zZQ==", 1) + "extra: !!set {a, b}\n"
    elif damage == "bom":
        text = "\ufeff" + text
    elif damage == "crlf":
        text = text.replace("\n", "\r\n")
    elif damage == "truncate" and text:
        text = text[:draw(st.integers(0, len(text) - 1))]
    elif damage == "random":
        text = draw(st.text(max_size=200))
    elif damage == "laughs":
        text = ("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                "weat:\n  - id: t\n    targets: {X: *d, Y: [b]}\n    attributes: {A: *d, B: [d]}\n")
    elif damage == "deep":
        n = draw(st.sampled_from([50, 2000, 20000]))
        text = "weat: " + "[" * n + "]" * n + "\n"
    data = text.encode("utf-8", "surrogatepass")
    if damage == "garbage":
        data = draw(st.binary(max_size=200))
    return data


# --------------------------------------------------------------------------------------------------
# embedding text files
# --------------------------------------------------------------------------------------------------

FILE_WORDS = st.one_of(st.sampled_from(VOCAB[:16]).filter(lambda w: " " not in w),
                       st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6))
FILE_NUMBERS = st.one_of(NICE_FLOATS.map(lambda x: f"{x:.4f}"), NICE_FLOATS.map(repr),
                         st.sampled_from(["0", "0.0", "nan", "NaN", "inf", "-inf", "1e400", "1e-400", "1,5", "0x10",
                                          "", "--1", "1e", ".", "+.5", "1_000", "٣", "１", "1.5f", "infinity",
                                          "3.4e38", "-3.5e38"]))


@st.composite
def embedding_files(draw) -> tuple[bytes, str]:
    """(bytes, file suffix): a GloVe or word2vec text file of a few words with random damage (wrong header
    counts, bad floats, ragged rows, empty, BOM, CRLF, NUL bytes, truncation, duplicate words)."""
    n = draw(st.integers(0, 6))
    dim = draw(st.integers(1, 4))
    ws = draw(st.lists(FILE_WORDS, min_size=n, max_size=n))
    rows = []
    for w in ws:
        k = dim if draw(st.integers(0, 6)) else draw(st.integers(0, dim + 2))
        nums = [draw(NICE_FLOATS.map(lambda x: f"{x:.4f}") if draw(st.integers(0, 7)) else FILE_NUMBERS)
                for _ in range(k)]
        rows.append(" ".join([w, *nums]))
    if rows and draw(st.integers(0, 6)) == 0:
        rows.append(rows[0])                                          # a duplicate word
    header = draw(st.sampled_from(["none", "none", "right", "wrong-n", "wrong-dim", "garbage", "huge"]))
    if header == "right":
        rows.insert(0, f"{len(rows)} {dim}")
    elif header == "wrong-n":
        rows.insert(0, f"{len(rows) + draw(st.sampled_from([-2, -1, 1, 5]))} {dim}")
    elif header == "wrong-dim":
        rows.insert(0, f"{len(rows)} {dim + draw(st.sampled_from([-1, 1, 100]))}")
    elif header == "garbage":
        rows.insert(0, draw(st.sampled_from(["3", "3 x", "-1 2", "0 0", "1 2 3", "999999999999999999999 2"])))
    elif header == "huge":
        rows.insert(0, f"{len(rows)} {draw(st.sampled_from([2 ** 20, 2 ** 31, 2 ** 63, 10 ** 30]))}")
    sep = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    text = sep.join(rows) + draw(st.sampled_from([sep, "", sep + sep, sep + "   " + sep]))
    data = text.encode("utf-8")
    damage = draw(st.sampled_from(["none", "none", "none", "bom", "nul", "truncate", "latin1", "tabs", "garbage",
                                   "empty"]))
    if damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage == "nul" and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + b"\x00" + data[i:]
    elif damage == "truncate" and data:
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif damage == "latin1":
        data = data.replace(b"rose", "rösé".encode("latin-1"))
    elif damage == "tabs":
        data = data.replace(b" ", b"\t")
    elif damage == "garbage":
        data = draw(st.binary(max_size=120))
    elif damage == "empty":
        data = b""
    suffix = draw(st.sampled_from([".txt", ".txt", ".vec", ".w2v.txt", ".bin", ""]))
    return data, suffix
