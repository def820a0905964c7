"""The static site (scripts/build_site.py) and its browser check (scripts/check_site.py), on fixture notebooks.

The fixtures are two tiny lessons (one with $$x^2$$ and $a$ in Markdown, one with a PNG output, a cell tagged
`solution` and one tagged `remove-cell`), a third lesson listed but not built, one paper notebook, a teacher's
guide and a README, all in tmp_path: the real lessons and notebooks are not read. The browser tests need
`chromium` on PATH (Debian's package) and are skipped without it.
"""

from __future__ import annotations

import base64
import importlib.util
import re
import shutil
import struct
import sys
import zlib
from pathlib import Path

import nbformat
import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"wb_site_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build_site = _load("build_site")
check_site = _load("check_site")
needs_chromium = pytest.mark.skipif(
    check_site.find_chromium() is None, reason="chromium is not on PATH (Debian: apt-get install chromium)"
)

SOLUTION_MARK = "solution_marker_42 = sum([1, 2, 3])"
REMOVED_MARK = "removed_marker_cell = True"


def _png(width=3, height=2) -> bytes:
    """A small valid RGB PNG (red pixels), written by hand so the fixture needs no plotting library."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _write_fixture(root: Path) -> Path:
    """A repository-like tree with two lessons (and one listed but missing), a paper, a guide and a README."""
    lessons = root / "notebooks" / "lessons"
    lessons.mkdir(parents=True)
    v4 = nbformat.v4
    math = v4.new_notebook(cells=[
        v4.new_markdown_cell("# Words as vectors\n\nThe display formula $$x^2$$ and the inline one $a$.\n\n"
                             "Also \\\\(b + c\\\\) (Jupyter Markdown escapes the backslash)."),
        v4.new_code_cell("x = 2\nx ** 2", execution_count=1,
                         outputs=[v4.new_output("execute_result", {"text/plain": "4"}, execution_count=1)]),
        v4.new_code_cell("explore()", outputs=[v4.new_output("display_data", {
            "application/vnd.jupyter.widget-view+json": {"model_id": "m1", "version_major": 2, "version_minor": 0},
            "text/plain": "interactive(children=(Text(value='rose'),))"})]),
    ])
    math.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {"m1": {}}}}
    png = base64.b64encode(_png()).decode("ascii")
    exercise = v4.new_notebook(cells=[
        v4.new_markdown_cell("# Significance\n\nSee [the first lesson](01-vectors.ipynb), "
                             "[the guide](../../docs/teaching.md#timings) and [the code](../../lib/x.py)."),
        v4.new_code_cell("show_figure()", execution_count=1,
                         outputs=[v4.new_output("display_data", {"image/png": png, "text/plain": "<Figure>"})]),
        v4.new_code_cell(SOLUTION_MARK, metadata={"tags": ["solution"]}),
        v4.new_code_cell(REMOVED_MARK, metadata={"tags": ["remove-cell"]}),
        v4.new_code_cell("after_the_solution = 1"),
    ])
    nbformat.write(math, lessons / "01-vectors.ipynb")
    nbformat.write(exercise, lessons / "02-significance.ipynb")
    (lessons / "lessons.yaml").write_text(
        "lessons:\n"
        "  - {file: 01-vectors.ipynb, title: Words as vectors, minutes: 20, needs: core,\n"
        "     goals: [compute a cosine similarity, run a WEAT by hand]}\n"
        "  - {file: 02-significance.ipynb, title: 'Is it significant?', minutes: 25, needs: core,\n"
        "     goals: [read a p-value]}\n"
        "  - {file: 03-contextual.ipynb, title: Contextual models, minutes: 45, needs: contextual, goals: [MiniLM]}\n",
        encoding="utf-8",
    )
    papers = root / "notebooks"
    nbformat.write(v4.new_notebook(cells=[v4.new_markdown_cell("# A paper\n\n$d = 1.5$")]), papers / "paper.ipynb")
    (root / "docs").mkdir()
    (root / "docs" / "teaching.md").write_text(
        "# Teaching\n\nStart with [lesson 1](../notebooks/lessons/01-vectors.ipynb), then see the "
        "[library](../lib/wordbias/core.py). The effect size $d$ and $$s(w, A, B)$$.\n\n## Timings\n\n"
        "| lesson | minutes |\n|---|---|\n| 1 | 20 |\n",
        encoding="utf-8",
    )
    (root / "README.md").write_text("# Fixture\n\nThe [guide](docs/teaching.md#timings).\n", encoding="utf-8")
    manifest = root / "site.yaml"
    manifest.write_text(
        "title: Fixture site\nlessons_index: notebooks/lessons/lessons.yaml\n"
        "papers:\n  - {file: notebooks/paper.ipynb, label: A paper notebook}\n"
        "guide: docs/teaching.md\nreadme: README.md\n",
        encoding="utf-8",
    )
    return manifest


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("repo")
    manifest = _write_fixture(root)
    out = tmp_path_factory.mktemp("out") / "site"
    build_site.build(out, manifest, root)
    return {"root": root, "manifest": manifest, "out": out}


def _read(site, name):
    return (site["out"] / name).read_text(encoding="utf-8")


def test_landing_lists_the_lessons_in_order_with_minutes(site, capsys):
    landing = _read(site, "index.html")
    titles = re.findall(r'class="wb-lesson-title"[^>]*>([^<]+)<', landing)
    assert titles == ["Words as vectors", "Is it significant?", "Contextual models"]
    minutes = re.findall(r'class="wb-minutes">(\d+) min<', landing)
    assert minutes == ["20", "25", "45"]
    assert re.search(r'class="wb-total">90 minutes<', landing)  # 20 + 25 + 45
    # the contextual lesson carries the torch mark; it is listed but not built, and said so
    third = landing[landing.index('id="lesson-3"'):]
    assert "needs torch" in third and "not built yet" in third
    assert "needs torch" not in landing[landing.index('id="lesson-1"'):landing.index('id="lesson-3"')]
    assert 'href="01-vectors.html"' in landing and 'href="paper.html"' in landing and 'href="teaching.html"' in landing
    assert landing.index("The lesson path") < landing.index("The paper replications") < landing.index("For teachers")


def test_missing_lesson_is_skipped_with_a_note(tmp_path, capsys):
    manifest = _write_fixture(tmp_path / "repo")
    build_site.build(tmp_path / "out", manifest, tmp_path / "repo")
    assert "03-contextual.ipynb" in capsys.readouterr().out
    assert not (tmp_path / "out" / "03-contextual.html").exists()


def test_no_page_loads_anything_from_the_network(site):
    pages = sorted(site["out"].glob("*.html"))
    assert len(pages) == 6  # index, two lessons, the paper, the guide, the README
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert check_site.static_problems(site["out"], page.name, text) == []
        srcs = re.findall(r'<(?:script|link|img)\b[^>]*?(?:src|href)="([^"]+)"', text)
        assert srcs, page.name
        assert not [s for s in srcs if re.match(r"(https?:)?//", s)], page.name
        assert "cdnjs" not in text and "unpkg" not in text and "jsdelivr" not in text


def test_static_check_catches_a_cdn_script(site):
    text = '<html><head><script src="https://cdn.example.org/x.js"></script></head><body>' \
           '<img src="//example.org/a.png"><a href="missing.html">x</a><a href="teaching.html#nope">y</a>' \
           '<a href="teaching.html#timings">z</a><a href="#here" id="here">w</a><a href="#gone">v</a></body></html>'
    problems = check_site.static_problems(site["out"], "bad.html", text)
    assert len(problems) == 5, problems
    assert any("teaching.html#nope, which has no such anchor" in p for p in problems)
    assert any("bad.html#gone, which has no such anchor" in p for p in problems)
    assert any("cdn.example.org" in p for p in problems)
    assert any("//example.org/a.png" in p for p in problems)
    assert any("missing.html" in p for p in problems)


def test_mathjax_is_copied_and_referenced_locally(site):
    out = site["out"]
    for page in out.glob("*.html"):
        src = re.search(r'<script src="([^"?]+MathJax\.js)\?config=([\w-]+)"', page.read_text(encoding="utf-8"))
        assert src, f"{page.name} does not load MathJax"
        assert (out / src.group(1)).is_file()
        assert (out / src.group(1)).parent.joinpath("config", src.group(2) + ".js").is_file()
    mathjax = out / "assets" / "mathjax"
    assert list((mathjax / "fonts" / "HTML-CSS" / "STIX-Web" / "woff").glob("*.woff"))
    assert (mathjax / "jax" / "output" / "HTML-CSS" / "fonts" / "STIX-Web" / "fontdata.js").is_file()
    assert not (mathjax / "jax" / "output" / "SVG").exists()  # only what the HTML-CSS output needs


def test_solution_cell_is_folded_and_removed_cell_dropped(site):
    page = _read(site, "02-significance.html")
    details = re.findall(r'<details class="wb-solution"><summary>Show the solution</summary>(.*?)</details>', page, re.S)
    assert len(details) == 1
    assert "solution_marker_42" in details[0]
    assert "after_the_solution" in page and "after_the_solution" not in details[0]
    assert "removed_marker_cell" not in page
    assert re.search(r'<img[^>]+src="data:image/png;base64,', page)


def test_widget_output_becomes_a_note(site):
    page = _read(site, "01-vectors.html")
    assert 'class="wb-widget-note"' in page
    assert "interactive(children=" not in page and "widget-state" not in page and "embed-amd" not in page


def test_navigation_bar_links_home_and_neighbouring_lessons(site):
    first, second = _read(site, "01-vectors.html"), _read(site, "02-significance.html")
    for page in (first, second, _read(site, "paper.html"), _read(site, "teaching.html")):
        assert 'href="index.html"' in page
    assert 'class="wb-next" href="02-significance.html"' in first
    assert 'class="wb-prev" href="01-vectors.html"' in second
    assert "Lesson 1 of 2" in first
    # the lesson's own link to another notebook now points at its page
    assert 'href="01-vectors.html"' in second and ".ipynb" not in re.sub(r"<pre.*?</pre>", "", second, flags=re.S)
    assert 'href="teaching.html#timings"' in second
    # a file of the repository that is not on the site keeps its text, not a broken link
    assert re.search(r'<span class="wb-repo-path" title="\.\./\.\./lib/x\.py: [^"]*">the code</span>', second)


def test_markdown_pages_keep_math_and_point_links_at_the_site(site):
    guide = _read(site, "teaching.html")
    assert 'href="01-vectors.html"' in guide  # ../notebooks/lessons/01-vectors.ipynb
    assert r"\(d\)" in guide and r"\[s(w, A, B)\]" in guide  # math handed to MathJax untouched by Markdown
    assert 'class="wb-repo-path"' in guide and "../lib/wordbias/core.py" not in re.sub(r'title="[^"]*"', "", guide)
    assert 'id="timings"' in guide and "<table>" in guide
    assert 'href="teaching.html#timings"' in _read(site, "readme.html")


def test_build_is_byte_identical(site, tmp_path):
    again = tmp_path / "again"
    build_site.build(again, site["manifest"], site["root"])
    first = {p.relative_to(site["out"]): p.read_bytes() for p in site["out"].rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first == second


def test_bad_lesson_index_is_named(tmp_path):
    index = tmp_path / "lessons.yaml"
    index.write_text("lessons:\n  - {file: a.ipynb, title: A, minutes: 10, needs: gpu}\n", encoding="utf-8")
    with pytest.raises(build_site.SiteError, match="lesson 1: 'needs' must be one of"):
        build_site.load_lessons(index)
    index.write_text("lessons:\n  - {file: a.ipynb, title: A, needs: core}\n", encoding="utf-8")
    with pytest.raises(build_site.SiteError, match="lesson 1: missing 'minutes'"):
        build_site.load_lessons(index)


def test_refuses_to_empty_a_folder_that_is_not_a_site(tmp_path):
    (tmp_path / "precious.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(build_site.SiteError, match="not an earlier site build"):
        build_site.prepare_out_dir(tmp_path)
    assert (tmp_path / "precious.txt").is_file()


# ---------------------------------------------------------------------------------------------- in a browser


@pytest.fixture
def site_copy(site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site["out"], copy)
    return copy


@needs_chromium
def test_browser_check_passes_and_typesets_the_math(site, tmp_path, capsys):
    shots = tmp_path / "shots"
    problems = check_site.check(site["out"], screenshots=shots, budget_ms=20000)
    assert problems == []
    out = capsys.readouterr().out
    assert re.search(r"01-vectors\.html: 3 formulas, 0 images", out)  # $$x^2$$, $a$, \(b + c\)
    assert re.search(r"02-significance\.html: 0 formulas, 1 images", out)
    assert re.search(r"teaching\.html: 2 formulas", out)
    for name in ("landing.png", "lesson.png"):
        assert (shots / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_chromium
def test_browser_check_fails_on_a_broken_image(site_copy):
    page = site_copy / "02-significance.html"
    text = re.sub(r'src="data:image/png;base64,[^"]+"', 'src="no-such-figure.png"', page.read_text(encoding="utf-8"))
    page.write_text(text, encoding="utf-8")
    problems = check_site.check(site_copy, only=["02-significance.html"], budget_ms=20000)
    assert any("image failed to load: no-such-figure.png" in p for p in problems), problems


@needs_chromium
def test_browser_check_fails_on_math_without_mathjax(site_copy):
    page = site_copy / "01-vectors.html"
    text = re.sub(r'<script src="[^"]*MathJax\.js[^"]*"></script>', "", page.read_text(encoding="utf-8"))
    page.write_text(text, encoding="utf-8")
    problems = check_site.check(site_copy, only=["01-vectors.html"], budget_ms=20000)
    assert any("raw math left in the text: $$" in p for p in problems), problems
    assert any("raw math left in the text: $...$" in p for p in problems), problems


@needs_chromium
def test_browser_check_fails_on_bad_tex_and_missing_fonts(site_copy):
    page = site_copy / "01-vectors.html"
    page.write_text(page.read_text(encoding="utf-8").replace("x^2", r"\frac{x"), encoding="utf-8")
    shutil.rmtree(site_copy / "assets" / "mathjax" / "fonts")
    problems = check_site.check(site_copy, only=["01-vectors.html"], budget_ms=20000)
    assert any("TeX Jax - parse error" in p for p in problems), problems
    assert any("font" in p.lower() for p in problems), problems


def test_check_reports_a_missing_page(site_copy):
    (site_copy / "paper.html").unlink()
    problems = check_site.check(site_copy, only=["paper.html"])
    assert problems and problems[0] == "paper.html: listed in site.json but missing"


def test_the_real_manifest_names_existing_paper_notebooks():
    root = SCRIPTS.parent
    manifest = build_site.load_manifest(SCRIPTS / "site_assets" / "site.yaml")
    assert len(manifest["papers"]) == 6
    for paper in manifest["papers"]:
        assert (root / paper["file"]).is_file(), paper["file"]
        assert paper.get("title") and paper.get("label"), paper["file"]


def test_lesson_pages_link_to_colab_and_binder_when_a_repository_is_set(site, tmp_path):
    assert "colab.research.google.com" not in _read(site, "01-vectors.html")  # none configured: no links
    out = tmp_path / "site"
    build_site.build(out, site["manifest"], site["root"], repository="someone/wordbias", branch="dev")
    page = (out / "01-vectors.html").read_text(encoding="utf-8")
    student = "notebooks/lessons/student/01-vectors.ipynb"
    assert f'href="https://colab.research.google.com/github/someone/wordbias/blob/dev/{student}"' in page
    assert 'href="https://mybinder.org/v2/gh/someone/wordbias/dev?labpath=notebooks%2Flessons%2Fstudent%2F01-vectors.ipynb"' in page
    assert "colab.research.google.com" not in (out / "paper.html").read_text(encoding="utf-8")
    with pytest.raises(build_site.SiteError, match="owner/name"):
        build_site.build(tmp_path / "bad", site["manifest"], site["root"], repository="not a repo")


def test_rebuilds_its_own_site_and_refuses_a_users_folder_with_a_site_json(tmp_path):
    """Issue 23: only a folder wordbias marked (or an earlier build: site.json and a site's files) is emptied."""
    site = tmp_path / "site"
    build_site.prepare_out_dir(site)
    (site / "index.html").write_text("old", encoding="utf-8")
    build_site.prepare_out_dir(site)                                  # ours: emptied and marked again
    assert [p.name for p in site.iterdir()] == [".wordbias-folder"]
    mine = tmp_path / "mine"
    mine.mkdir()
    for name in ("site.json", "notes.md"):
        (mine / name).write_text("keep me", encoding="utf-8")
    with pytest.raises(build_site.SiteError, match="not an earlier site build"):
        build_site.prepare_out_dir(mine)
    assert sorted(p.name for p in mine.iterdir()) == ["notes.md", "site.json"]
