"""The command's option types (wordbias.cli.parser): every path option refuses an empty or blank value, naming
the option (one type, :func:`_path`, found here by introspection on every subcommand); a list of test names
refuses an empty item; --encoding refuses what is not a text encoding."""
from __future__ import annotations

import argparse

import pytest

from wordbias.cli import main, parser

#: how the parser shows the options whose value is a path, or a name standing for a file
PATH_METAVARS = {"DIR", "FILE.yaml", "EMBEDDING", "CORPUS", "MODEL", "NAME", "LADDER", "SUBMISSIONS", "FILE.csv",
                 "FOLDER"}


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    built = parser.build_parser()
    for action in built._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def _path_options():
    for command, sub in _subparsers().items():
        for action in sub._actions:
            if action.metavar in PATH_METAVARS:
                yield command, action


def test_every_path_option_has_the_path_type():
    found = list(_path_options())
    assert len(found) >= 25                          # --out, --cache-dir, --lists, the positionals of each command
    for command, action in found:
        assert action.type is parser._path, (command, action.dest)
    assert {(c, a.dest) for c, a in found} >= {("train", "out"), ("train", "cache_dir"), ("train", "corpus"),
                                               ("seat", "lists"), ("cache", "cache_dir"), ("debias", "out"),
                                               ("compare", "embeddings"), ("contextual", "model")}


def _argv(command: str, action, value: str) -> list[str]:
    """A command line giving ``value`` to ``action`` (and a valid value to the other required arguments)."""
    base = {"weat": ["weat", "e.txt", "--out", "o"], "report": ["report", "e.txt", "--out", "o"],
            "compare": ["compare", "a.txt", "b.txt", "--out", "o"], "train": ["train", "brown", "--out", "o"],
            "contextual": ["contextual", "m", "--out", "o"], "seat": ["seat", "m", "--out", "o"],
            "lm": ["lm", "m", "--out", "o"],
            "debias": ["debias", "e.txt", "--method", "hard", "--out", "o"], "lists": ["lists"],
            "embeddings": ["embeddings"], "cache": ["cache", "list"],
            "validity": ["validity", "l", "--out", "o"], "grade": ["grade", "s", "--out", "g.csv"]}[command]
    if action.option_strings:
        return base + [action.option_strings[0], value]
    positional = {"embedding": 1, "embeddings": 1, "corpus": 1, "model": 1, "name": 1, "names": 2,
                  "ladder": 1, "submissions": 1}[action.dest]
    return base[:positional] + [value] + base[positional + (0 if action.dest in ("name", "names") else 1):]


@pytest.mark.parametrize("value", ["", " ", "\t"], ids=["empty", "space", "tab"])
def test_every_path_option_refuses_an_empty_value_naming_it(capsys, value):
    for command, action in _path_options():
        argv = _argv(command, action, value)
        if command == "cache" and action.dest == "names":
            argv = ["cache", "clear", value]
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        name = action.option_strings[0] if action.option_strings else action.metavar
        assert f"argument {name}: the value is empty ({value!r})" in err, (argv, err)


def test_a_path_is_returned_as_given():
    assert parser._path(" my folder ") == " my folder "
    args = parser.build_parser().parse_args(["train", "brown", "--out", "~/runs", "--cache-dir", "c"])
    assert (args.out, args.cache_dir) == ("~/runs", "c")


@pytest.mark.parametrize("value, item", [("", ""), (" ", ""), ("weat6,", " (item 2)"), (",weat6", " (item 1)"),
                                         ("weat6,,weat7", " (item 2)"), ("weat6, ", " (item 2)")])
def test_seat_tests_refuses_an_empty_name(capsys, value, item):
    assert main(["seat", "m", "--out", "o", "--tests", value]) == 2
    assert f"argument --tests: an empty name or pattern in {value!r}{item}" in capsys.readouterr().err


def test_seat_tests_names_are_split_and_stripped(monkeypatch, tmp_path):
    seen = {}

    def fake(model, tests, **kw):
        seen["tests"] = tests
        raise RuntimeError("stop")
    from wordbias.battery import seat

    monkeypatch.setattr(seat, "seat_battery", fake)
    main(["seat", "m", "--out", str(tmp_path / "o"), "--tests", "weat6, sent-*", "--tests", "weat7"])
    assert seen["tests"] == ["weat6", "sent-*", "weat7"]
    main(["seat", "m", "--out", str(tmp_path / "o")])
    assert seen["tests"] is None                     # no --tests: every shipped test


@pytest.mark.parametrize("value, fragment", [("rot13", "is not a text encoding"), ("base64", "is not a text encoding"),
                                             ("utf-9", "is not a codec Python knows"), ("", "must be the name")])
def test_train_encoding_is_checked_by_the_parser(capsys, value, fragment):
    assert main(["train", "brown", "--out", "o", "--encoding", value]) == 2
    err = capsys.readouterr().err
    assert "argument --encoding: the encoding" in err and fragment in err, err


def test_train_select_refuses_an_empty_pattern(capsys):
    assert main(["train", "brown", "--out", "o", "--select", "  "]) == 2
    assert "argument --select: an empty pattern ('  ')" in capsys.readouterr().err
