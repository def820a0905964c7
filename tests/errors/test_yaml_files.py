"""Catalogue cases for YAML files read safely: a key given twice (top level, inside a test's
spec, through the command), the "billion laughs" document and a plain alias in a user's word-list file."""
import contextlib
import io
import tempfile
from pathlib import Path

import pytest
from catalogue import Case, check

from wordbias import cli
from wordbias.core.errors import InvalidParameterError
from wordbias.datasets import user_lists

F = "yaml"

_TEST = ("  - id: {tid}\n"
         "    targets: {{X: [x1, x2], Y: [y1, y2]}}\n"
         "    attributes: {{A: [a1, a2], B: [b1, b2]}}\n")


class CommandFailed(Exception):
    """``wordbias ...`` exited with a non-zero status; the message is ``exit N: <its stderr>``."""


def _lists(text: str) -> Path:
    """A word-list file in a temporary folder (written when the cases are built, at import)."""
    path = Path(tempfile.mkdtemp(prefix="wordbias-yaml-")) / "lists.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _command(*argv: str):
    """Run ``wordbias ARGV``; raise :class:`CommandFailed` with the exit status and stderr if it is not 0."""
    def call():
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = cli.main(list(argv))
        if code != 0:
            raise CommandFailed(f"exit {code}: {err.getvalue().strip()}")
    return call


def _billion_laughs() -> str:
    """A word-list file whose first test's words are 9 levels of 9 aliases (9**9 words once expanded)."""
    lines = ["battery: lol", 'l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]
    lines += ["weat:", "  - id: t1", "    targets: {X: *l8, Y: [y1]}", "    attributes: {A: [a1], B: [b1]}"]
    return "\n".join(lines) + "\n"


def _cases() -> list[Case]:
    two_weat = _lists("battery: b\nweat:\n" + _TEST.format(tid="t1") + "description: d\nweat:\n"
                      + _TEST.format(tid="t2"))
    twice_in_spec = _lists("battery: b\nweat:\n" + _TEST.format(tid="t1")
                           + "    targets: {X: [x3], Y: [y3]}\n")
    dup_in_set = _lists("weat:\n  - id: t1\n    targets:\n      X: [x1]\n      Y: [y1]\n      X: [x2]\n"
                        "    attributes: {A: [a1], B: [b1]}\n")
    alias = _lists("battery: b\nweat:\n  - id: t1\n    targets: {X: &x [x1, x2], Y: [y1, y2]}\n"
                   "    attributes: {A: *x, B: [b1, b2]}\n")
    laughs = _lists(_billion_laughs())
    return [
        Case(F, "user lists: two weat: sections", lambda: user_lists.read_user_lists(two_weat), InvalidParameterError,
             match=r"lists.yaml, line 7: duplicate key 'weat': first at line 2, again at line 7"),
        Case(F, "user lists: targets twice in one test's spec", lambda: user_lists.read_user_lists(twice_in_spec),
             InvalidParameterError, match=r"line 6: duplicate key 'targets': first at line 4, again at line 6"),
        Case(F, "user lists: set X twice in a test's targets", lambda: user_lists.read_user_lists(dup_in_set),
             InvalidParameterError, match=r"line 6: duplicate key 'X': first at line 4, again at line 6"),
        Case(F, "user lists: billion laughs (9 levels of 9 aliases)", lambda: user_lists.read_user_lists(laughs),
             InvalidParameterError, match=r"lists.yaml, line 2, column 5: YAML anchor &l0 refused"),
        Case(F, "user lists: an anchor and an alias", lambda: user_lists.load_user_lists(alias),
             InvalidParameterError, match=r"lists.yaml, line 4, column 18: YAML anchor &x refused: .*write the "
                                          r"values out in full"),
        Case(F, "wordbias lists FILE: two weat: sections", _command("lists", str(two_weat)), CommandFailed,
             match=r"^exit 1: wordbias: error: .*lists.yaml, line 7: duplicate key 'weat': first at line 2, "
                   r"again at line 7"),
        Case(F, "wordbias lists FILE: billion laughs", _command("lists", str(laughs)), CommandFailed,
             match=r"^exit 1: wordbias: error: .*YAML anchor &l0 refused"),
    ]


CASES_YAML = _cases()


@pytest.mark.parametrize("case", CASES_YAML, ids=lambda c: c.id)
def test_case(case):
    check(case)
