"""Catalogue cases of the family "options": options checked before any work.

* Encodings (:func:`wordbias.datasets.corpora.check_encoding` and the checks of the decoded text in
  ``corpora._decode``): a codec that is not a text encoding (rot13, base64, hex, zlib, undefined) is refused by
  name; a corpus read in the wrong encoding (UTF-8 as UTF-16, UTF-16 as Latin-1, UTF-8 as cp1252, cp1252 as
  Latin-1, UTF-16 in the wrong byte order) is refused with the encoding its bytes are likely in, instead of
  training on garbage; a byte invalid mid-file names the file, the byte offset and the line.
* Empty values (:func:`wordbias.core.paths.given_path`, the parser's types): ``--tests ''`` and every empty item
  of a list of names, and every path option given as '' or white space, name the option.
* Sizes (:func:`wordbias.models.train.training_cost`): an ensemble out of proportion (``--seeds 2000000000``,
  ``--dim 100000000``, absurd epochs, a fastText run whose n-gram buckets do not fit) is refused before the corpus
  is read, with its estimate and the way out; a window wider than any sentence is refused.

Each command case runs ``wordbias ...`` in-process (:func:`wordbias.cli.main`) and must exit non-zero with one
clear line (a usage error's message from argparse, or ``wordbias: error: ...``), never a traceback."""
from __future__ import annotations

import contextlib
import gzip
import os
import tempfile
from pathlib import Path

import pytest
from catalogue import Case, CommandFailed, check, exit_status, run_cli

from wordbias.core.errors import CorpusError, InvalidParameterError, TooCostlyError

F = "options"


def _command(*argv):
    """A call running ``wordbias ARGV`` in-process: raises :class:`CommandFailed` with the exit status and the
    last line of stderr (a traceback, or no message, is an ``AssertionError``: never a clear error)."""
    def call():
        code, text = run_cli(argv)
        return exit_status(code, text.splitlines()[-1] if text and "Traceback" not in text else text)
    return call


# --------------------------------------------------------------------------------------------------
# the corpora of the cases (written at import, in a temporary folder)
# --------------------------------------------------------------------------------------------------

TMP = Path(tempfile.mkdtemp(prefix="wordbias-options-")).resolve()
_WORDS = ("the river ran past the old mill and the miller sang of the summer rain while children played near "
          "the water").split()
ENGLISH = "\n".join(" ".join(_WORDS[(i + j) % len(_WORDS)] for j in range(15)) + "." for i in range(300)) + "\n"
FRENCH = "\n".join(f"Le cœur de l’été {i}: elle était très contente, dit-il à son frère." for i in range(300)) + "\n"


def _file(name: str, data: bytes) -> Path:
    path = TMP / name
    path.write_bytes(data)
    return path


_EVEN = ENGLISH.encode("utf-8") + b"\n" * (len(ENGLISH.encode("utf-8")) % 2)
UTF8 = _file("utf8.txt", _EVEN)                        # even length: decodes as UTF-16 without an error
UTF8_ODD = _file("utf8-odd.txt", _EVEN + b"\n")        # odd length: UTF-16 fails at its end
UTF8_FRENCH = _file("french-utf8.txt", FRENCH.encode("utf-8"))
CP1252_FRENCH = _file("french-cp1252.txt", FRENCH.encode("cp1252"))
UTF16 = _file("utf16.txt", ENGLISH.encode("utf-16"))
UTF16_BE = _file("utf16be.txt", ENGLISH.encode("utf-16-be"))
UTF16_LE = _file("utf16le.txt", ENGLISH.encode("utf-16-le"))
_LINES = ENGLISH.encode("utf-8").split(b"\n")
BROKEN = _file("broken.txt", b"\n".join(_LINES[:150] + [_LINES[150].replace(b"miller", b"m\xfcller")] + _LINES[151:]))
UTF8_GZ = _file("utf8.txt.gz", gzip.compress(_EVEN + b"\n", mtime=0))   # odd length once decompressed
BINARY = _file("vectors.bin", b"\x00\x01\x02binary\x00" * 100)
_out_count = 0


def _out() -> Path:
    global _out_count
    _out_count += 1
    return TMP / f"out-{_out_count}"


def _train(corpus, *options):
    return _command("train", corpus, "--out", _out(), "--cache-dir", TMP / "cache", "--dim", "10", "--epochs", "1",
                    "--workers", "1", "-q", *options)


def _read(path, encoding):
    from wordbias.datasets.corpora import read_corpus

    return lambda: read_corpus(path, encoding=encoding)


# --------------------------------------------------------------------------------------------------
# encodings
# --------------------------------------------------------------------------------------------------

def _encoding_cases():
    likely_utf8 = r"likely utf-8 .*encoding='utf-8'"
    return [
        Case(F, "train --encoding utf-16 on a UTF-8 corpus (even length: no decode error)",
             _train(UTF8, "--encoding", "utf-16"), CommandFailed,
             match=r"exit 1: wordbias: error: .*utf8\.txt: read as utf-16, it does not look like text: .*"
                   + likely_utf8),
        Case(F, "train --encoding utf-16 on a UTF-8 corpus of odd length", _train(UTF8_ODD, "--encoding", "utf-16"),
             CommandFailed,
             match=r"utf8-odd\.txt: not valid utf-16 at byte offset \d+ .*truncated data.*" + likely_utf8),
        Case(F, "train --encoding utf-16-le on a UTF-8 corpus", _train(UTF8, "--encoding", "utf-16-le"), CommandFailed,
             match=r"read as utf-16-le, it does not look like text.*" + likely_utf8),
        Case(F, "train --encoding utf-16 on a UTF-8 corpus with accents", _train(UTF8_FRENCH, "--encoding", "utf-16"),
             CommandFailed, match=r"french-utf8\.txt: .*utf-16.*" + likely_utf8),
        Case(F, "train --encoding utf-32 on a UTF-8 corpus", _train(UTF8, "--encoding", "utf-32"), CommandFailed,
             match=r"not valid utf-32 at byte offset 0 .*" + likely_utf8),
        Case(F, "train --encoding latin-1 on a UTF-16 file (with its byte-order mark)",
             _train(UTF16, "--encoding", "latin-1"), CommandFailed,
             match=r"utf16\.txt: looks binary, not text \(a NUL byte at offset 3\).*it is utf-16 text \(it starts "
                   r"with the UTF-16 \(little-endian\) byte-order mark\): give encoding='utf-16'"),
        Case(F, "train on a UTF-16 file, the default utf-8", _train(UTF16), CommandFailed,
             match=r"utf16\.txt: looks binary, not text.*give encoding='utf-16'"),
        Case(F, "train --encoding latin-1 on a UTF-16-LE file without a byte-order mark",
             _train(UTF16_LE, "--encoding", "latin-1"), CommandFailed,
             match=r"utf16le\.txt: looks binary, not text.*give encoding='utf-16-le'"),
        Case(F, "train --encoding utf-16-le on a UTF-16-BE file (the wrong byte order)",
             _train(UTF16_BE, "--encoding", "utf-16-le"), CommandFailed,
             match=r"utf16be\.txt: read as utf-16-le, .*likely utf-16-be .*give encoding='utf-16-be'"),
        Case(F, "train --encoding cp1252 on a UTF-8 corpus (é read as Ã©)", _train(UTF8_FRENCH, "--encoding", "cp1252"),
             CommandFailed, match=r"read as cp1252, its text is garbled \('Le cÅ“ur.*its bytes are valid UTF-8.*"
                                  r"give encoding='utf-8'"),
        Case(F, "train --encoding latin-1 on a UTF-8 corpus", _train(UTF8_FRENCH, "--encoding", "latin-1"),
             CommandFailed, match=r"read as latin-1, it does not look like text: C1 control characters.*"
                                  r"give encoding='utf-8'"),
        Case(F, "train --encoding latin-1 on a cp1252 corpus (curly quotes, œ)",
             _train(CP1252_FRENCH, "--encoding", "latin-1"), CommandFailed,
             match=r"read as latin-1, it does not look like text: C1 control characters .*U\+009C.*"
                   r"give encoding='cp1252'"),
        Case(F, "train on a cp1252 corpus, the default utf-8", _train(CP1252_FRENCH), CommandFailed,
             match=r"french-cp1252\.txt: not valid utf-8 at byte offset 4 \(b'\\x9cur ': invalid start byte\) on "
                   r"line 1; .*encoding='latin-1'"),
        Case(F, "a byte invalid in UTF-8 mid-file: file, byte offset and line", _train(BROKEN), CommandFailed,
             match=r"broken\.txt: not valid utf-8 at byte offset [\d,]+ \(b'\\xfclle': invalid start byte\) on line "
                   r"151; give the file's encoding"),
        Case(F, "train --encoding utf-16 on a gzipped UTF-8 corpus", _train(UTF8_GZ, "--encoding", "utf-16"),
             CommandFailed, match=r"utf8\.txt\.gz: not valid utf-16 at byte offset \d+ of the decompressed text "
                                  r"\(b'\\n': truncated data\); the file is " + likely_utf8),
        Case(F, "train --encoding rot13", _train(UTF8, "--encoding", "rot13"), CommandFailed,
             match=r"exit 2: .*argument --encoding: the encoding 'rot13' is not a text encoding \(Python's rot-13 "
                   r"codec turns str into str"),
        Case(F, "train --encoding base64", _train(UTF8, "--encoding", "base64"), CommandFailed,
             match=r"exit 2: .*argument --encoding: the encoding 'base64' is not a text encoding .*bytes into bytes"),
        Case(F, "train --encoding hex", _train(UTF8, "--encoding", "hex"), CommandFailed,
             match=r"argument --encoding: the encoding 'hex' is not a text encoding"),
        Case(F, "train --encoding zlib", _train(UTF8, "--encoding", "zlib"), CommandFailed,
             match=r"argument --encoding: the encoding 'zlib' is not a text encoding"),
        Case(F, "train --encoding undefined", _train(UTF8, "--encoding", "undefined"), CommandFailed,
             match=r"argument --encoding: the encoding 'undefined' decodes nothing"),
        Case(F, "train --encoding utf-9", _train(UTF8, "--encoding", "utf-9"), CommandFailed,
             match=r"argument --encoding: the encoding 'utf-9' is not a codec Python knows"),
        Case(F, "train --encoding ''", _train(UTF8, "--encoding", ""), CommandFailed,
             match=r"argument --encoding: the encoding must be the name of a text encoding.*not ''"),
        Case(F, "train brown --encoding latin-1 (not used by a shipped corpus)",
             _command("train", "brown", "--out", _out(), "--encoding", "latin-1"), CommandFailed,
             match=r"exit 1: wordbias: error: --encoding applies to your own text files, not to a shipped corpus"),
        Case(F, "read_corpus('inaugural', encoding='cp1252')", _read("inaugural", "cp1252"), InvalidParameterError,
             match=r"encoding='cp1252': the shipped corpus 'inaugural' is read in its files' own known encodings"),
        Case(F, "read_corpus(encoding='rot13')", _read(UTF8, "rot13"), InvalidParameterError,
             match=r"encoding 'rot13' is not a text encoding"),
        Case(F, "read_corpus(encoding='bz2')", _read(UTF8, "bz2"), InvalidParameterError,
             match=r"encoding 'bz2' is not a text encoding"),
        Case(F, "read_corpus(encoding=b'utf-8')", _read(UTF8, b"utf-8"), InvalidParameterError,
             match=r"encoding must be the name of a text encoding"),
        Case(F, "read_corpus: a UTF-8 file as utf-16", _read(UTF8, "utf-16"), CorpusError,
             match=r"read as utf-16, it does not look like text.*" + likely_utf8),
        Case(F, "read_corpus: a UTF-16 file as latin-1", _read(UTF16, "latin-1"), CorpusError,
             match=r"looks binary, not text.*give encoding='utf-16'"),
        Case(F, "read_corpus: a UTF-8 file as mac-roman", _read(UTF8_FRENCH, "mac-roman"), CorpusError,
             match=r"read as mac-roman, its text is garbled.*give encoding='utf-8'"),
    ]


# --------------------------------------------------------------------------------------------------
# empty values: --tests and every path option
# --------------------------------------------------------------------------------------------------

def _seat(*options):
    return _command("seat", "glove-6b-50d", "--out", _out(), *options)


def _empty_cases():
    empty_tests = r"exit 2: .*argument --tests: an empty name or pattern in "
    empty = r"exit 2: .*argument {}: the value is empty \({}\)"
    weat_args = ("weat", UTF8, "--out")
    cases = [
        Case(F, "seat --tests ''", _seat("--tests", ""), CommandFailed, match=empty_tests + "''"),
        Case(F, "seat --tests ' '", _seat("--tests", " "), CommandFailed, match=empty_tests + "' '"),
        Case(F, "seat --tests 'weat6,' (an empty item)", _seat("--tests", "weat6,"), CommandFailed,
             match=empty_tests + r"'weat6,' \(item 2\)"),
        Case(F, "seat --tests ',weat6'", _seat("--tests", ",weat6"), CommandFailed,
             match=empty_tests + r"',weat6' \(item 1\)"),
        Case(F, "seat --tests 'weat6,,weat7'", _seat("--tests", "weat6,,weat7"), CommandFailed,
             match=empty_tests + r"'weat6,,weat7' \(item 2\)"),
        Case(F, "seat --tests weat6 --tests ''", _seat("--tests", "weat6", "--tests", ""), CommandFailed,
             match=empty_tests + "''"),
        Case(F, "train --select ''", _train(UTF8, "--select", ""), CommandFailed,
             match=r"exit 2: .*argument --select: an empty pattern \(''\)"),
        Case(F, "train --select ' '", _train(UTF8, "--select", " "), CommandFailed,
             match=r"exit 2: .*argument --select: an empty pattern \(' '\)"),
        Case(F, "train --cache-dir ''", _command("train", UTF8, "--out", _out(), "--cache-dir", ""), CommandFailed,
             match=empty.format("--cache-dir", "''")),
        Case(F, "train --out ''", _command("train", UTF8, "--out", ""), CommandFailed,
             match=empty.format("--out", "''")),
        Case(F, "train --out ' '", _command("train", UTF8, "--out", " "), CommandFailed,
             match=empty.format("--out", "' '")),
        Case(F, "train CORPUS ''", _command("train", "", "--out", _out()), CommandFailed,
             match=empty.format("CORPUS", "''")),
        Case(F, "weat --cache-dir ''", _command(*weat_args, _out(), "--cache-dir", ""), CommandFailed,
             match=empty.format("--cache-dir", "''")),
        Case(F, "weat --cache-dir '\\t'", _command(*weat_args, _out(), "--cache-dir", "\t"), CommandFailed,
             match=empty.format("--cache-dir", r"'\\t'")),
        Case(F, "weat --lists ''", _command(*weat_args, _out(), "--lists", ""), CommandFailed,
             match=empty.format("--lists", "''")),
        Case(F, "weat EMBEDDING ''", _command("weat", "", "--out", _out()), CommandFailed,
             match=empty.format("EMBEDDING", "''")),
        Case(F, "report --cache-dir ''", _command("report", UTF8, "--out", _out(), "--cache-dir", ""), CommandFailed,
             match=empty.format("--cache-dir", "''")),
        Case(F, "compare with an empty EMBEDDING", _command("compare", UTF8, "", "--out", _out()), CommandFailed,
             match=empty.format("EMBEDDING", "''")),
        Case(F, "seat --cache-dir ''", _seat("--cache-dir", ""), CommandFailed,
             match=empty.format("--cache-dir", "''")),
        Case(F, "seat --out ''", _command("seat", "glove-6b-50d", "--out", ""), CommandFailed,
             match=empty.format("--out", "''")),
        Case(F, "seat --lists ' '", _seat("--lists", " "), CommandFailed, match=empty.format("--lists", "' '")),
        Case(F, "contextual --cache-dir ''", _command("contextual", "bert-base-uncased", "--out", _out(),
                                                       "--cache-dir", ""), CommandFailed,
             match=empty.format("--cache-dir", "''")),
        Case(F, "debias --cache-dir ''", _command("debias", UTF8, "--method", "hard", "--out", _out(), "--cache-dir",
                                                  ""), CommandFailed, match=empty.format("--cache-dir", "''")),
        Case(F, "debias --out ''", _command("debias", UTF8, "--method", "hard", "--out", ""), CommandFailed,
             match=empty.format("--out", "''")),
        Case(F, "cache list --cache-dir ''", _command("cache", "list", "--cache-dir", ""), CommandFailed,
             match=empty.format("--cache-dir", "''")),
        Case(F, "cache clear --all --cache-dir ' '", _command("cache", "clear", "--all", "--cache-dir", " "),
             CommandFailed, match=empty.format("--cache-dir", "' '")),
        Case(F, "cache clear ''", _command("cache", "clear", ""), CommandFailed, match=empty.format("NAME", "''")),
        Case(F, "lists ''", _command("lists", ""), CommandFailed, match=empty.format("NAME", "''")),
        Case(F, "embeddings ''", _command("embeddings", ""), CommandFailed, match=empty.format("NAME", "''")),
    ]

    def cache_root_empty():
        from wordbias.embeddings.cache_folders import cache_root

        return cache_root("")

    def load_with_empty_cache_dir():
        from wordbias import embeddings

        return embeddings.load(UTF8, cache_dir="  ", progress=False)

    def train_with_empty_cache_dir():
        from wordbias.models.train import TrainingSettings, train_ensemble

        return train_ensemble(UTF8, _out(), settings=TrainingSettings(vector_size=10, epochs=1), cache_dir="",
                              workers=1, progress=False)

    return cases + [
        Case(F, "cache_root('')", cache_root_empty, InvalidParameterError, match=r"cache_dir is empty \(''\)"),
        Case(F, "embeddings.load(cache_dir='  ')", load_with_empty_cache_dir, InvalidParameterError,
             match=r"cache_dir is empty \('  '\)"),
        Case(F, "train_ensemble(cache_dir='')", train_with_empty_cache_dir, InvalidParameterError,
             match=r"cache_dir is empty \(''\)"),
    ]


# --------------------------------------------------------------------------------------------------
# sizes: refused before the corpus is read, with the estimate
# --------------------------------------------------------------------------------------------------

def _train_big(*options):
    return _command("train", UTF8, "--out", _out(), "--cache-dir", TMP / "cache", "-q", *options)


def _train_ensemble_on_a_binary_file(**kwargs):
    """train_ensemble on a file that is not text: a refusal for the cost, not for the corpus, shows the cost was
    checked before the corpus was read."""
    def call():
        from wordbias.models.train import TrainingSettings, train_ensemble

        settings = TrainingSettings(**kwargs.pop("settings", {}))
        return train_ensemble(BINARY, _out(), settings=settings, progress=False, cache_dir=TMP / "cache", **kwargs)
    return call


def _size_cases():
    refused = r"exit 1: wordbias: error: training .* is estimated to take .* of memory, over the budget .*refused " \
              r"before any work\. Use "
    return [
        Case(F, "train --seeds 2000000000", _train_big("--seeds", "2000000000"), CommandFailed,
             match=refused.replace("training .*", r"training 2,000,000,000 runs \(seeds=2,000,000,000.*")),
        Case(F, "train --bootstrap 2000000000", _train_big("--bootstrap", "2000000000"), CommandFailed,
             match=r"training 2,000,000,000 runs \(seeds=1, bootstrap=1,999,999,999\)|training 2,000,000,001 runs"),
        Case(F, "train --dim 100000000", _train_big("--dim", "100000000"), CommandFailed,
             match=refused.replace("training .*", r"training 1 run .*vector_size=100,000,000.*") + r".*--dim"),
        Case(F, "train --dim 2**63", _train_big("--dim", str(2 ** 63)), CommandFailed,
             match=r"vector_size=9,223,372,036,854,775,808.* is estimated to take"),
        Case(F, "train --epochs 1000000000", _train_big("--epochs", "1000000000"), CommandFailed,
             match=refused.replace("training .*", r"training 1 run .*epochs=1,000,000,000.*") + r".*fewer epochs"),
        Case(F, "train --epochs 10**30", _train_big("--epochs", str(10 ** 30)), CommandFailed,
             match=r"epochs=1,000,000,000,000,000,000,000,000,000,000.* is estimated to take"),
        Case(F, "train --negative 1000000000", _train_big("--negative", "1000000000"), CommandFailed,
             match=r"negative=1,000,000,000.* is estimated to take"),
        Case(F, "train --window 100000000", _train_big("--window", "100000000"), CommandFailed,
             match=r"exit 1: wordbias: error: window must be at most 10,000 .*not 100,000,000"),
        Case(F, "train --method fasttext --dim 50000 (its n-gram buckets)",
             _train_big("--method", "fasttext", "--dim", "50000"), CommandFailed,
             match=r"fasttext .* is estimated to take .* of memory.*word2vec rather than fastText"),
        Case(F, "train_ensemble(vector_size=10**8) before reading the corpus",
             _train_ensemble_on_a_binary_file(settings={"vector_size": 10 ** 8}), TooCostlyError,
             match=r"vector_size=100,000,000, .*vectors\.bin \(about [\d,]+ tokens and [\d,]+ words or more, from "
                   r"its .*is estimated to take"),
        Case(F, "train_ensemble(seeds=2_000_000_000) before reading the corpus",
             _train_ensemble_on_a_binary_file(seeds=2_000_000_000), TooCostlyError,
             match=r"training 2,000,000,000 runs .* is estimated to take"),
        Case(F, "train_ensemble(epochs=10**6, max_seconds=60)",
             _train_ensemble_on_a_binary_file(settings={"epochs": 10 ** 6}, max_seconds=60), TooCostlyError,
             match=r"epochs=1,000,000.*over the budget \(max_seconds=60,.*pass a larger max_seconds"),
        Case(F, "train_ensemble(seeds=150_000): more runs than an ensemble has",
             _train_ensemble_on_a_binary_file(seeds=150_000, settings={"vector_size": 2, "epochs": 1},
                                              max_seconds=float("inf")), ValueError,
             match=r"150,000 runs"),
        Case(F, "train_ensemble(max_seconds=0)", _train_ensemble_on_a_binary_file(max_seconds=0),
             InvalidParameterError, match=r"max_seconds"),
        Case(F, "TrainingSettings(window=10**6)",
             lambda: __import__("wordbias.models.train", fromlist=["x"]).TrainingSettings(window=10 ** 6),
             InvalidParameterError, match=r"window must be at most 10,000"),
    ]


def _with_cache_variable(value: str, call):
    """``call`` run with ``WORDBIAS_CACHE`` set to ``value`` (restored after), from an empty working folder that
    must stay empty."""
    def wrapped():
        from unittest import mock

        cwd = Path(tempfile.mkdtemp(dir=TMP))
        with mock.patch.dict(os.environ, {"WORDBIAS_CACHE": value}), contextlib.chdir(cwd):
            try:
                return call()
            finally:
                assert not any(cwd.iterdir()), f"wrote into the working folder: {list(cwd.iterdir())}"
    return wrapped


def _environment_cases() -> list[Case]:
    from wordbias.core import paths

    return [
        Case(F, "WORDBIAS_CACHE='  ' (blank) with a command", _with_cache_variable("  ", _command("cache", "list")),
             CommandFailed, match=r"exit 1: wordbias: error: the environment variable WORDBIAS_CACHE is '  ': it "
                                  r"names no folder"),
        Case(F, "WORDBIAS_CACHE='\\t' (a tab) in the library", _with_cache_variable("\t", paths.cache_dir),
             InvalidParameterError, match=r"WORDBIAS_CACHE is '\\t'"),
    ]


CASES_OPTIONS = _encoding_cases() + _empty_cases() + _size_cases() + _environment_cases()


@pytest.mark.parametrize("case", CASES_OPTIONS, ids=lambda c: c.name)
def test_case(case):
    check(case)
