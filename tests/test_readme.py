"""The README's Python example runs and prints what the README shows (issue 24: doctested examples)."""
from __future__ import annotations

import contextlib
import io
import re
import warnings

from wordbias.core import paths

README = paths.ROOT / "README.md"


def _example() -> tuple[str, str]:
    """The first ```python block under "## The library" and the plain block right after it (its output)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The library"):]
    m = re.search(r"```python\n(.*?)```\n```\n(.*?)```", section, re.S)
    assert m, "the README's library example and its output block are missing"
    return m.group(1), m.group(2)


def test_the_readme_example_prints_what_the_readme_shows():
    code, shown = _example()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().strip() == shown.strip()


def test_the_check_can_fail():
    code, shown = _example()
    assert "d = 1.094" in shown and "d = 1.095" not in shown
