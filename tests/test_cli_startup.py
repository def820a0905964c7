"""How soon the command answers. Its light paths (``wordbias --help``, ``--version``, ``lists --template``, a usage
error) import argparse and the command's own small modules, none of the numerical or plotting libraries (their
import takes seconds); a report loads its embedding once and checks its matrix and reads its vocabulary's case
once (:func:`wordbias.embeddings.keyed_vectors.measuring`). The wall times are in benchmarks/bench_startup.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

#: the libraries the light paths must not import (each takes from 0.1 s to seconds to import)
HEAVY = ("numpy", "pandas", "gensim", "torch", "matplotlib", "scipy", "sklearn")


def _imported(*argv: str) -> tuple[int, set[str], str]:
    """Run ``python -X importtime -m wordbias ARGV`` and return its exit status, the top-level names of the
    modules it imported (from the import-time log on stderr) and its stdout."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "wordbias", *argv], capture_output=True,
                          text=True, timeout=120, check=False)
    names = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in done.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    return done.returncode, names, done.stdout


@pytest.mark.parametrize("argv", [("--help",), ("--version",), ("lists", "--template"), ("weat",),
                                  ("validity", "--help")],
                         ids=["help", "version", "lists-template", "usage-error", "validity-help"])
def test_light_paths_import_no_heavy_library(argv):
    code, names, _ = _imported(*argv)
    assert code == (2 if argv == ("weat",) else 0)
    assert "wordbias" in names                     # the log was read: the command's own package is in it
    assert sorted(names & set(HEAVY)) == []


def test_help_lists_every_subcommand():
    code, _, out = _imported("--help")
    assert code == 0
    for command in ("weat", "report", "compare", "contextual", "seat", "lists", "cache", "embeddings", "train",
                    "debias", "validity", "grade"):
        assert command in out


def test_template_printed_is_the_user_lists_template():
    from wordbias.cli.lists import template_path
    from wordbias.datasets import user_lists

    assert template_path() == user_lists.TEMPLATE
    code, _, out = _imported("lists", "--template")
    assert code == 0
    assert out == f"# wordbias word-list template: {user_lists.TEMPLATE}\n" + user_lists.TEMPLATE.read_text(
        encoding="utf-8")


def test_parser_coverage_defaults_are_tidy_thresholds():
    from wordbias.cli import parser
    from wordbias.core import tidy

    assert (parser.MIN_WORDS, parser.MIN_FRACTION) == (tidy.MIN_WORDS, tidy.MIN_FRACTION)
    for command in ("weat", "report", "compare"):
        args = parser.build_parser().parse_args([command, "e1", "e2", "--out", "o"] if command == "compare"
                                                else [command, "e", "--out", "o"])
        assert (args.min_words, args.min_coverage) == (tidy.MIN_WORDS, tidy.MIN_FRACTION)


@pytest.mark.parametrize("command", ["weat", "report", "compare", "contextual", "seat", "lists", "cache",
                                     "embeddings", "train", "debias", "validity", "grade"])
def test_every_subcommand_has_its_function(command):
    from wordbias import cli

    assert cli._command(command).__name__ == f"run_{command}"


@pytest.fixture(scope="module")
def glove_20k():
    import numpy as np

    from wordbias import embeddings

    kv = embeddings.load("glove-6b-50d", progress=False)
    words = kv.index_to_key[:20_000]
    return embeddings.to_keyed_vectors(words, np.asarray(kv[words]))


@pytest.mark.filterwarnings("ignore::wordbias.core.errors.LowCoverageWarning")
def test_report_checks_the_matrix_and_reads_the_case_once(glove_20k, monkeypatch):
    from wordbias.battery import report
    from wordbias.embeddings import keyed_vectors, objects

    scans = {"rows": 0, "case": 0}

    def count(key, original):
        def counted(*args, **kwargs):
            scans[key] += 1
            return original(*args, **kwargs)
        return counted

    monkeypatch.setattr(objects, "_check_rows", count("rows", objects._check_rows))
    monkeypatch.setattr(keyed_vectors, "_any_upper", count("case", keyed_vectors._any_upper))
    frame = report.report(glove_20k, label="g", ube=False, n_permutations=1_000, n_resamples=50, progress=False)
    assert frame.effect_size.notna().sum() > 20          # the parts ran on the embedding
    assert scans == {"rows": 1, "case": 1}
    assert not keyed_vectors.is_measuring(glove_20k)     # the hold ends with the report


def test_measuring_holds_one_object_with_its_matrix():
    import numpy as np

    from wordbias import embeddings
    from wordbias.core.errors import InvalidParameterError
    from wordbias.embeddings.keyed_vectors import is_measuring, measuring

    kv = embeddings.to_keyed_vectors(["Paris", "london"], np.ones((2, 3), dtype=np.float32))
    bad = embeddings.to_keyed_vectors(["a", "b"], np.array([[1, np.nan], [1, 1]], dtype=np.float32))
    with measuring(kv):
        assert embeddings.load(kv, progress=False) is kv and embeddings.is_cased(kv)
        with pytest.raises(InvalidParameterError, match="non-finite"):   # another embedding is checked
            embeddings.load(bad, progress=False)
        kv.vectors = np.array([[np.nan, 1, 1], [1, 1, 1]], dtype=np.float32)   # a matrix replaced: checked again
        assert not is_measuring(kv)
        with pytest.raises(InvalidParameterError, match="'Paris'"):
            embeddings.load(kv, progress=False)
