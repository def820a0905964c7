"""The documentation sites (``make docs``: docs/conf.py, docs/_ext/wordbias_docs.py; the teachers' and the
students') and their check (scripts/check_site.py), tested without running Sphinx: the generated pages, the link
rewriting, what the students' site leaves out, the offline MathJax, the link checker on a tiny HTML tree and the
students' check on a tiny fake build. The browser test needs ``chromium`` on PATH and is skipped without it.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


docs_ext = _load("wordbias_docs", DOCS / "_ext" / "wordbias_docs.py")
check_site = _load("wb_check_site", ROOT / "scripts" / "check_site.py")
needs_chromium = pytest.mark.skipif(check_site.find_chromium() is None,
                                    reason="chromium is not on PATH (Debian: apt-get install chromium)")


# ------------------------------------------------------------------------------------------- generated pages


def test_api_pages_cover_every_module_of_the_api_reference_once():
    from tools.api_reference import GROUPS, MODULES

    pages = docs_ext.api_pages()
    assert len(pages) == len(GROUPS)
    documented = [m for text in pages.values() for m in re.findall(r"^\.\. automodule:: (\S+)$", text, re.M)]
    assert documented == MODULES  # every module, once, in the order of GROUPS
    names = list(pages)
    assert names == sorted(names)  # docs/api.md's toctree globs them: the numbering keeps GROUPS' order
    for (title, _, _), text in zip(GROUPS, pages.values()):
        assert text.splitlines()[:2] == [title, "=" * len(title)]


def test_api_reference_page_globs_the_generated_pages():
    assert "_generated/api/*" in (DOCS / "api.md").read_text(encoding="utf-8")


def test_cli_reference_has_the_help_of_every_subcommand():
    from wordbias.cli import build_parser

    text = docs_ext.cli_reference(build_parser())
    headings = re.findall(r"^# `(.*)`$", text, re.M)
    assert headings[0] == "wordbias"
    for sub in ("weat", "report", "compare", "contextual", "lists", "embeddings", "cache"):
        assert f"wordbias {sub}" in headings
    assert "usage: wordbias weat" in text and "--n-permutations" in text
    assert text.count("```text") == len(headings)


def test_repository_address_comes_from_pyproject(tmp_path):
    assert docs_ext.repository_url().startswith("https://")
    fake = tmp_path / "pyproject.toml"
    fake.write_text('[project]\nname = "x"\n[project.urls]\nRepository = "https://github.com/me/wb/"\n')
    assert docs_ext.repository_url(fake) == "https://github.com/me/wb"
    fake.write_text('[project]\nname = "x"\n')
    with pytest.raises(docs_ext.DocsError, match="Repository"):
        docs_ext.repository_url(fake)


def test_launch_links_only_for_github():
    links = dict(docs_ext.launch_links("notebooks/lessons/student/01_a.ipynb", "https://github.com/me/wb"))
    assert links["Binder"].endswith("labpath=notebooks%2Flessons%2Fstudent%2F01_a.ipynb")
    assert docs_ext.launch_links("x.ipynb", "https://example.org/me/wb") == []


def test_links_to_repository_files_point_at_the_site_or_the_repository():
    repo = "https://github.com/me/wb"
    pages = docs_ext.rendered_pages()
    lesson = ROOT / "notebooks" / "lessons" / "01_words_as_vectors.ipynb"
    assert lesson.resolve() in pages
    text = ("[guide](../../docs/teaching.md#grading) [src](src/01_words_as_vectors.ipynb) "
            "[paper](../caliskan2017.ipynb) [web](https://doi.org/x) [here](#top) [gone](no_such_file.md) "
            "`[code](../../README.md)` ![img](../../figures/x.png)")
    origin = lesson.parent
    page_dir = docs_ext.GENERATED / "lessons"
    out = docs_ext.rewrite_markdown(text, origin, page_dir, repo, pages)
    assert "[guide](../../teaching.md#grading)" in out  # a docs page: relative to the generated copy
    assert f"[src]({repo}/blob/main/notebooks/lessons/src/01_words_as_vectors.ipynb)" in out
    assert "[paper](../notebooks/caliskan2017.ipynb)" in out  # another rendered notebook: its copy
    assert "[web](https://doi.org/x)" in out and "[here](#top)" in out
    assert "[gone](no_such_file.md)" in out  # left for Sphinx to report, an error under -W
    assert "`[code](../../README.md)`" in out  # code is not touched
    assert "![img](../../figures/x.png)" in out  # an image is never pointed at the network


# ------------------------------------------------------------------------------------------- the two sites


class Tags:
    def __init__(self, *names):
        self.names = set(names)

    def has(self, name):
        return name in self.names


def test_the_student_tag_chooses_the_students_site():
    assert docs_ext.audience_of(Tags("student")) == "student" and docs_ext.audience_of(Tags()) == "teacher"
    student, teacher = docs_ext.exclude_patterns("student"), docs_ext.exclude_patterns("teacher")
    assert teacher == ["_generated/student/lessons/**"]
    assert {"_generated/lessons/**", "teaching.md", "answer_key.md", "developing_lessons.md", "lessons.md",
            "teacher/**"} <= set(student)
    with pytest.raises(docs_ext.DocsError, match="unknown audience 'parents'"):
        docs_ext.exclude_patterns("parents")
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "wordbias_docs.audience_of(tags)" in conf and "wordbias_docs.exclude_patterns(wordbias_audience)" in conf


def test_the_students_site_renders_the_student_versions():
    pages = docs_ext.rendered_pages("student")
    lessons = {src.parent.relative_to(ROOT).as_posix() for src, dest in pages.items() if "lessons" in dest.parts}
    assert lessons == {"notebooks/lessons/student"}
    assert all(dest.parent == docs_ext.GENERATED / "student" / "lessons" for src, dest in pages.items()
               if "lessons" in dest.parts)
    targets = docs_ext.link_targets("student")       # links to a lesson with solutions lead to the student page
    for name in ("01_words_as_vectors.ipynb",):
        for folder in ("notebooks/lessons", "notebooks/lessons/src", "notebooks/lessons/student"):
            assert targets[(ROOT / folder / name).resolve()] == docs_ext.GENERATED / "student" / "lessons" / name


def test_audience_parts_of_a_page():
    text = ("intro\n<!-- audience: teacher -->\nthe key\n<!-- audience: end -->\n"
            "<!-- audience: student -->\nthe syllabus\n<!-- audience: end -->\nend\n")
    assert docs_ext.for_audience(text, "teacher") == "intro\nthe key\nend\n"
    assert docs_ext.for_audience(text, "student") == "intro\nthe syllabus\nend\n"
    with pytest.raises(docs_ext.DocsError, match="has no '<!-- audience: end -->'"):
        docs_ext.for_audience("<!-- audience: teacher -->\nx\n", "student")
    with pytest.raises(docs_ext.DocsError, match="without an opening one"):
        docs_ext.for_audience("x\n<!-- audience: end -->\n", "student")
    index = docs_ext.for_audience((DOCS / "index.md").read_text(encoding="utf-8"), "student")
    assert "teaching" not in index and "answer_key" not in index and "teacher/" not in index
    assert "_generated/student/lessons/*" in index and "syllabus" in index


def test_students_site_drops_links_to_teachers_pages():
    repo = "https://github.com/me/wb"
    pages = docs_ext.link_targets("student")
    text = ("[guide](teaching.md#grading) [key](answer_key.md) [notes](teacher/lectures.md) [data](guide/data.md) "
            "[lesson](../notebooks/lessons/src/01_words_as_vectors.ipynb)")
    out = docs_ext.rewrite_markdown(text, DOCS, DOCS, repo, pages, "student")
    assert out.startswith("guide key notes [data](guide/data.md) ")
    assert out.endswith("[lesson](_generated/student/lessons/01_words_as_vectors.ipynb)")
    teacher = docs_ext.rewrite_markdown(text, DOCS, DOCS, repo, docs_ext.link_targets(), "teacher")
    assert teacher.startswith("[guide](teaching.md#grading) [key](answer_key.md) [notes](teacher/lectures.md)")


def test_the_lesson_count_comes_from_lessons_yaml(tmp_path):
    import yaml

    n = len(yaml.safe_load((ROOT / "notebooks" / "lessons" / "lessons.yaml").read_text())["lessons"])
    subs = docs_ext.count_substitutions()
    assert subs["lessons_count"] == docs_ext._NUMBERS[n] and subs["Lessons_count"] == docs_ext._NUMBERS[n].title()
    index = tmp_path / "lessons.yaml"
    index.write_text("lessons:\n  - file: a.ipynb\n  - file: b.ipynb\n")
    assert docs_ext.count_substitutions(index) == {"lessons_count": "two", "Lessons_count": "Two"}
    index.write_text("title: x\n")
    with pytest.raises(docs_ext.DocsError, match="lists no lessons"):
        docs_ext.lesson_count(index)
    for page in ("index.md", "lessons.md"):   # no count typed where the substitution belongs
        text = (DOCS / page).read_text(encoding="utf-8")
        assert "{{ Lessons_count }}" in text
        assert not re.search(r"\b(Six|Seven|Eight|Nine|Ten) (executed )?(\[)?lessons", text), page


# ------------------------------------------------------------------------------------------- MathJax


def test_conf_py_mathjax_path_exists_in_the_installed_package():
    static = docs_ext.mathjax_static()
    assert (static / docs_ext.MATHJAX_PATH.removeprefix(docs_ext.MATHJAX_DIR + "/")).is_file()
    assert "?" not in docs_ext.MATHJAX_PATH  # Sphinx refuses a query string on a local asset
    for name in docs_ext.MATHJAX2_CONFIG["config"]:
        assert (static / "config" / name).is_file()
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    assert "mathjax_path = wordbias_docs.MATHJAX_PATH" in conf and "mathjax2_config = wordbias_docs." in conf


def test_mathjax_copy_is_the_html_css_subset(tmp_path):
    size = docs_ext.copy_mathjax(tmp_path)
    assert 1e6 < size < 10e6
    assert list((tmp_path / "fonts" / "HTML-CSS" / "STIX-Web" / "woff").glob("*.woff"))
    assert (tmp_path / "jax" / "output" / "HTML-CSS" / "fonts" / "STIX-Web" / "fontdata.js").is_file()
    assert not (tmp_path / "jax" / "output" / "SVG").exists()


# ------------------------------------------------------------------------------------------- the checker


def _tiny_site(root: Path) -> Path:
    (root / "_static").mkdir(parents=True)
    (root / "_static" / "a.css").write_text("", encoding="utf-8")
    (root / "sub").mkdir()
    (root / "index.html").write_text(
        '<html><head><link rel="stylesheet" href="_static/a.css"></head><body id="top">'
        '<a href="sub/page.html#here">ok</a><a href="#top">ok</a><a href="https://example.org">ok</a>'
        '<a href="#">ok</a><a href="sub/">ok</a></body></html>', encoding="utf-8")
    (root / "sub" / "index.html").write_text("<html><body></body></html>", encoding="utf-8")
    (root / "sub" / "page.html").write_text('<html><body><p id="here">x</p><a href="../index.html">up</a>'
                                            "</body></html>", encoding="utf-8")
    return root


def test_link_checker_passes_a_sound_tree(tmp_path):
    site = _tiny_site(tmp_path / "site")
    assert check_site.site_pages(site) == ["index.html", "sub/index.html", "sub/page.html"]
    for page in check_site.site_pages(site):
        assert check_site.static_problems(site, page, (site / page).read_text(encoding="utf-8")) == []


def test_link_checker_flags_broken_links_anchors_and_network_loads(tmp_path):
    site = _tiny_site(tmp_path / "site")
    text = ('<html><head><script src="https://cdn.example.org/x.js"></script>'
            '<link rel="stylesheet" href="_static/missing.css"></head><body>'
            '<img src="_images/gone.png"><a href="sub/page.html#nope">a</a><a href="missing.html">b</a>'
            '<a href="#gone">c</a><a href="../outside.html">d</a><a href="sub/page.html#here">fine</a></body></html>')
    problems = check_site.static_problems(site, "index.html", text)
    assert len(problems) == 7, problems
    assert any("cdn.example.org" in p for p in problems)
    assert any("_static/missing.css leads to no file" in p for p in problems)
    assert any("img _images/gone.png leads to no file" in p for p in problems)
    assert any("sub/page.html#nope, which has no such anchor" in p for p in problems)
    assert any("missing.html leads to no file" in p for p in problems)
    assert any("#gone, which has no such anchor" in p for p in problems)
    assert any("../outside.html points outside the site" in p for p in problems)


def test_check_refuses_a_folder_that_is_not_a_site(tmp_path):
    assert check_site.check(tmp_path) == [f"{tmp_path}: no index.html: not a built site (make docs)"]


def _student_site(root: Path, body: str) -> Path:
    site = _tiny_site(root)
    (site / "sub" / "page.html").write_text(f'<html><body><p id="here">x</p>{body}</body></html>', encoding="utf-8")
    return site


def _lessons(root: Path) -> Path:
    src = root / "src"
    src.mkdir()
    cells = [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "outputs": [], "execution_count": None,
              "source": ["x = 1\n", "### BEGIN SOLUTION\n", "secret_cos = np.dot(rose, love) / 7\n", "y = 2\n",
                         "### END SOLUTION\n"]},
             {"cell_type": "markdown", "metadata": {}, "source": "secret_cos = np.dot(rose, love) / 8"}]
    (src / "01_a.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return src


def test_student_check_reads_the_solution_lines(tmp_path):
    expected = {"secret_cos = np.dot(rose, love) / 7": "01_a.ipynb, cell 0"}
    assert check_site.solution_lines(_lessons(tmp_path)) == expected
    lines = check_site.solution_lines()      # the real lessons: every line long enough, none of the public ones
    assert lines and all(len(line) >= check_site.MIN_SOLUTION_CHARS for line in lines)
    assert not set(lines) & check_site.PUBLIC_LINES
    with pytest.raises(FileNotFoundError, match="no instructor lessons"):
        check_site.solution_lines(tmp_path / "none")


@pytest.mark.parametrize("body, problem", [
    ('<pre><span class="n">secret_cos</span> <span class="o">=</span> <span class="n">np</span>.dot(rose,\n'
     "    love) / 7</pre>", "sub/page.html: shows solution text of 01_a.ipynb, cell 0: 'secret_cos = np.dot"),
    ("<p>### BEGIN SOLUTION</p>", "sub/page.html: shows nbgrader's solution marker"),
    ('<a href="../answer_key.html">key</a>', "sub/page.html: links to a teachers' page: ../answer_key.html"),
    ('<a href="../teacher/lectures.html#a">notes</a>', "links to a teachers' page: ../teacher/lectures.html#a"),
    ('<a href="https://github.com/me/wb/blob/main/docs/teaching.md">guide</a>', "links to a teachers' page: https"),
    ('<a href="../_generated/lessons/01_a.html">lesson</a>', "links to a teachers' page: ../_generated/lessons/"),
])
def test_student_check_flags_a_page_that_gives_solutions_away(tmp_path, body, problem):
    site = _student_site(tmp_path / "site", body)
    problems = check_site.student_problems("sub/page.html", (site / "sub" / "page.html").read_text(),
                                           check_site.solution_lines(_lessons(tmp_path)))
    assert len(problems) == 1 and problems[0].startswith("sub/page.html: ") and problem in problems[0], problems


def test_student_check_passes_a_clean_page_and_names_teachers_pages(tmp_path, monkeypatch):
    solutions = check_site.solution_lines(_lessons(tmp_path))
    clean = ('<pre>secret_cos = ...  # your answer here</pre><a href="syllabus.html">syllabus</a>'
             '<a href="teaching_x.html">x</a>')
    assert check_site.student_problems("sub/page.html", clean, solutions) == []
    for page in ("answer_key.html", "teaching.html", "teacher/lectures.html", "_generated/lessons/01_a.html"):
        assert check_site.student_problems(page, "<html></html>", solutions) == [
            f"{page}: a teachers' page on the students' site"]
    site = _student_site(tmp_path / "site", "<p>secret_cos = np.dot(rose, love) / 7</p>")
    monkeypatch.setattr(check_site, "find_chromium", lambda: None)   # the static part only (the browser is slow)
    problems = check_site.check(site, student=tmp_path / "src")     # the whole check: the page is named
    assert "sub/page.html: shows solution text of 01_a.ipynb, cell 0: 'secret_cos = np.dot(rose, love) / 7'" in problems


@needs_chromium
def test_browser_check_typesets_math_with_the_sites_mathjax(tmp_path):
    site = _tiny_site(tmp_path / "site")
    docs_ext.copy_mathjax(site / "_static" / "mathjax")
    config = docs_ext.json.dumps(docs_ext.MATHJAX2_CONFIG)
    head = (f'<script type="text/x-mathjax-config">MathJax.Hub.Config({config})</script>'
            '<script async="async" src="_static/mathjax/MathJax.js"></script>')
    (site / "index.html").write_text(f"<html><head>{head}</head><body><p>\\(x^2\\) and $$s(w, A, B)$$</p>"
                                     "</body></html>", encoding="utf-8")
    assert check_site.check(site, only=["index.html"], budget_ms=20000) == []
    (site / "index.html").write_text("<html><body><p>\\(x^2\\)</p></body></html>", encoding="utf-8")
    problems = check_site.check(site, only=["index.html"], budget_ms=20000)
    assert any("raw math left in the text" in p for p in problems), problems
