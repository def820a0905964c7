"""The README is a front door that tells the truth: short, its Python example prints what it shows, its commands
parse, its links resolve, its numbers are the committed results', and its addresses follow the one setting."""
from __future__ import annotations

import contextlib
import io
import re
import shlex
import tomllib
import warnings

import pandas as pd
import pytest

from wordbias.cli import build_parser
from wordbias.core import paths

ROOT = paths.ROOT
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = TEXT.index(f"## {title}")
    end = TEXT.find("\n## ", start + 3)
    return TEXT[start:end if end > 0 else None]


def _example() -> tuple[str, str]:
    """The ```python block under "## Measure your own embedding" and the plain block right after it (its output)."""
    m = re.search(r"```python\n(.*?)```\n```\n(.*?)```", _section("Measure your own embedding"), re.S)
    assert m, "the README's library example and its output block are missing"
    return m.group(1), m.group(2)


def test_the_readme_is_a_front_door():
    assert len(TEXT.splitlines()) < 200
    heads = re.findall(r"^## (.+)$", TEXT, re.M)
    for door in ("Reproduce the papers", "Measure your own embedding", "Teach", "Citing", "Licence"):
        assert door in heads, f"the README lacks its '{door}' section"
    first_screen = "\n".join(TEXT.splitlines()[:30])
    assert "| WEAT1" in first_screen, "the first screen shows no result"


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


def _commands(text: str) -> list[str]:
    """Every `wordbias ...` command line in the fenced code blocks of a markdown text (comments cut)."""
    out = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("wordbias "):
                out.append(line.split("  #")[0].split(" # ")[0].split(" > ")[0].strip())
    return out


DOCS = sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.name)
def test_every_command_shown_parses(path):
    """A command the README or the docs show is one the parser accepts (options and subcommands spelt right)."""
    parser = build_parser()
    for command in _commands(path.read_text(encoding="utf-8")):
        argv = shlex.split(command)[1:]
        try:
            parser.parse_args(argv)
        except SystemExit as exc:
            assert exc.code == 0, f"{path.name}: `{command}` does not parse"


def test_the_command_check_can_fail():
    with pytest.raises(SystemExit):
        build_parser().parse_args(shlex.split("report vectors.bin --no-such-option"))


def test_every_relative_link_resolves():
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", TEXT):
        if re.match(r"[a-z]+:", target):
            continue
        assert (ROOT / target).exists(), f"README links {target}, which does not exist"


def test_addresses_follow_the_repository_setting():
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    owner_name = urls["Repository"].removeprefix("https://github.com/")
    assert f"mybinder.org/v2/gh/{owner_name}/" in TEXT
    assert f"git+{urls['Repository']}" in TEXT
    assert urls["Documentation"] in TEXT
    for other in set(re.findall(r"github\.com/([\w.-]+/[\w.-]+)", TEXT)) - {owner_name}:
        pytest.fail(f"the README names another repository address: {other}")


def _fmt_p(p: float) -> str:
    return f"{p:.1e}" if p < 1e-3 else f"{p:.2g}" if p >= 0.01 else f"{p:.2g}"


def test_the_headline_table_is_the_committed_result():
    """Each row of the first table: d to 3 decimals, the interval to 2, p and Holm's p as the committed table1.csv."""
    t = pd.read_csv(ROOT / "results/caliskan2017/glove-840b-caliskan/table1.csv").set_index("test")
    rows = re.findall(r"^\| (WEAT\d+) [^|]*\| ([\d.]+) \| ([\d.]+) \| \[([−\d.-]+), ([−\d.-]+)\] \| [^|]+\| ([\d.e-]+) \| "
                      r"([\d.e-]+) \|$", TEXT, re.M)
    assert len(rows) >= 5
    for test, paper_d, d, lo, hi, p, holm in rows:
        r = t.loc[test]
        assert float(paper_d) == pytest.approx(r.paper_effect_size, abs=0.005), test
        assert d == f"{r.effect_size:.3f}", test
        assert [float(x.replace("−", "-")) for x in (lo, hi)] == [round(r.effect_size_ci_low, 2),
                                                                  round(r.effect_size_ci_high, 2)], test
        assert float(p) == pytest.approx(r.p_value, rel=0.05), test
        assert float(holm) == pytest.approx(r.p_holm, rel=0.05), test


def test_the_papers_table_is_the_committed_results():
    summary = pd.read_csv(ROOT / "results/swinger2019/glove-6b-50d/summary.csv").set_index("run")
    assert f"UBE finds {summary.loc['first names', 'n_significant']} significant" in TEXT
    report = pd.read_csv(ROOT / "results/racial_bias_report/glove-6b-50d/table1.csv").set_index("attributes")
    assert f"implicit p = {report.loc['implicit', 'p']:.2g}" in TEXT


def test_the_training_runs_sentence_is_the_committed_results():
    runs = pd.read_csv(ROOT / "results/training_runs/brown/runs.csv")
    w7 = runs[runs.test == "WEAT7"]
    combined = pd.read_csv(ROOT / "results/training_runs/brown/ensemble.csv").set_index("test").loc["WEAT7"]

    def num(x: float, digits: int) -> str:
        return f"{x:.{digits}f}".replace("-", "−")

    significant = int((w7.p_two_sided < 0.05).sum())
    against = bool((w7[w7.p_two_sided < 0.05].effect_size < 0).all())
    text = " ".join(TEXT.split())
    assert f"d from {num(w7.effect_size.min(), 2)} to {num(w7.effect_size.max(), 2)}" in text
    verb = "is" if significant == 1 else "are"
    assert f"{significant} of the {len(w7)} runs {verb} significant (two-sided p < 0.05), against the paper's" in text \
        and against
    assert f"the other {len(w7) - significant} are not" in text
    assert f"[{num(combined.ci_low, 2)}, {num(combined.ci_high, 2)}], includes 0" in text
    assert combined.ci_low < 0 < combined.ci_high


def test_the_seat_sentence_is_the_committed_results():
    """The README's SEAT row: on MiniLM the sentence versions of WEAT 1, 3 and 6 are significant after Holm's
    adjustment (p < 0.05), and none of the Angry Black Woman and double-bind tests is."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ("the sentence versions of WEAT 1, 3 and 6 are significant on MiniLM after Holm's adjustment, none of the "
            "Angry Black Woman and double-bind tests is") in readme
    t = pd.read_csv(ROOT / "results/may2019/all-minilm-l6-v2/comparison.csv").set_index("test")
    holm = t["MiniLM p Holm"].astype(float)
    assert (holm[["sent-weat1", "sent-weat3", "sent-weat6"]] < 0.05).all()
    others = [i for i in holm.index if "angry_black_woman" in i or "double_bind" in i]
    assert len(others) == 8 and (holm[others] >= 0.05).all()
