"""The documentation site's own Sphinx extension: the pages generated at build start, and the offline MathJax.

``make docs`` builds two sites from ``docs/``: the teachers' (``sphinx-build -W --keep-going docs build/docs``) and
the students' (the same with ``-t student``, into ``build/docs-student``): :data:`AUDIENCES` says what differs.
Sphinx reads only its source folder (``docs/``), so when the build starts (``config-inited``) this extension writes
into ``docs/_generated/`` (ignored by git, rewritten only where its content changed, so rebuilds stay incremental;
each file replaced whole, so the two builds can run at once):

* ``notebooks/*.ipynb``: copies of the executed paper notebooks (``notebooks/*.ipynb``), and the lessons: for the
  teachers' site ``lessons/*.ipynb``, the executed lessons (``notebooks/lessons/0*.ipynb``, solutions and outputs
  in), for the students' site ``student/lessons/*.ipynb``, the student versions
  (``notebooks/lessons/student/0*.ipynb``: no solutions, no outputs); all rendered by MyST-NB from their stored
  outputs (nothing is executed).
  In the copies, wordbias's own output types (``application/vnd.wordbias.*``) are left out and a Markdown link to another file of the repository is pointed at its page on the site when the
  site has one, else at the file in the repository (``[project.urls] Repository`` of ``pyproject.toml``); each
  lesson gets, under its title, links that open its student version on Binder and Colab;
* ``api/*.rst``: one API reference page per group of :data:`tools.api_reference.GROUPS` (autodoc + numpydoc);
* ``cli.txt``: the ``--help`` of the ``wordbias`` command and of each subcommand, from
  ``wordbias.cli.build_parser()``, included by ``docs/cli.md``.

The Markdown pages of ``docs/`` get the same link treatment when Sphinx reads them (``source-read``): a page may link
to any file of the repository by its relative path, as on GitHub; on the students' site a link to a teachers' page
(:data:`TEACHER_PAGES`) keeps its text and loses its target. A page's parts for one audience only lie between
``<!-- audience: teacher -->`` (or ``student``) and ``<!-- audience: end -->`` lines, which the other audience's build
drops (``{only}`` cannot hold a toctree). The substitutions ``{{ lessons_count }}`` ("nine") and
``{{ Lessons_count }}`` ("Nine") count the lessons of ``notebooks/lessons/lessons.yaml`` (:func:`lesson_count`).
MathJax 2.7 is copied from the PyPI package
``jupyter_server_mathjax`` into the build's ``_static/mathjax`` (``builder-inited``), so no page loads anything from
the network.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import tomllib
from pathlib import Path
from urllib.parse import quote

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"
BRANCH = "main"

#: wordbias's own output types (the lessons' machine-readable check results, for autograders): left out of the
#: pages, which show the HTML or text the same output carries
PRIVATE_MIME = "application/vnd.wordbias."
#: the notebooks each site renders: (repository folder, glob, folder under docs/_generated)
NOTEBOOK_SOURCES = {
    "teacher": (("notebooks", "*.ipynb", "notebooks"), ("notebooks/lessons", "0*.ipynb", "lessons")),
    "student": (("notebooks", "*.ipynb", "notebooks"), ("notebooks/lessons/student", "0*.ipynb", "student/lessons")),
}
#: the two sites: "teacher" (``build/docs``) and "student" (``-t student``, ``build/docs-student``)
AUDIENCES = tuple(NOTEBOOK_SOURCES)
#: the teachers' pages (globs relative to docs/), left out of the students' site, which links none of them
TEACHER_PAGES = ("teaching.md", "answer_key.md", "developing_lessons.md", "lessons.md", "teacher/**")
#: on the students' site, links to these lesson copies (solutions in) lead to the student version instead
LESSON_ALIASES = ("notebooks/lessons", "notebooks/lessons/src")
LESSONS_INDEX = ROOT / "notebooks" / "lessons" / "lessons.yaml"
_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_AUDIENCE_LINE = re.compile(r"^<!-- audience: (teacher|student|end) -->[ \t]*\n?", re.M)

# MathJax 2.7 files the pages need (globs relative to jupyter_server_mathjax/static). The combined configuration
# TeX-AMS-MML_HTMLorMML-full holds the TeX input, the HTML-CSS output and the menu; at run time MathJax loads the
# operator dictionary, the HTML-CSS autoloaded elements, the STIX-Web font metrics and web fonts, and any TeX
# extension a formula asks for. The SVG output, the image fonts, the accessibility explorer and the translations
# other than English are left out (the math menu does not offer to switch renderer or language).
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full"
MATHJAX_DIR = "mathjax"  # under the build's _static/
MATHJAX_FILES = (
    "LICENSE",
    "MathJax.js",
    f"config/{MATHJAX_CONFIG}.js",
    "jax/element/mml/optable/*.js",
    "jax/input/TeX/*.js",
    "jax/output/HTML-CSS/autoload/*.js",
    "jax/output/HTML-CSS/fonts/STIX-Web/**/*.js",
    "fonts/HTML-CSS/STIX-Web/woff/*.woff",
    "extensions/TeX/*.js",
    "extensions/HTML-CSS/*.js",
    "extensions/a11y/accessibility-menu.js",
    "extensions/MathMenu.js",
    "extensions/MathZoom.js",
    "localization/en/*.js",
)
#: ``mathjax_path``: relative to the build's _static folder (Sphinx refuses a query string on a local asset, so the
#: combined configuration file is named by MATHJAX2_CONFIG's ``config``, not by ``MathJax.js?config=``)
MATHJAX_PATH = f"{MATHJAX_DIR}/MathJax.js"
# the tex2jax settings are JupyterLab's (nbconvert's lab template), so notebook outputs typeset as in Jupyter; the
# web font is STIX-Web (the only one jupyter_server_mathjax ships) and availableFonts [] keeps MathJax from using
# fonts installed on the reader's machine
MATHJAX2_CONFIG = {
    "config": [f"{MATHJAX_CONFIG}.js"],
    "tex2jax": {
        "inlineMath": [["$", "$"], ["\\(", "\\)"]],
        "displayMath": [["$$", "$$"], ["\\[", "\\]"]],
        "processEscapes": True,
        "processEnvironments": True,
    },
    "TeX": {"equationNumbers": {"autoNumber": "AMS", "useLabelIds": True}},
    "HTML-CSS": {"availableFonts": [], "preferredFont": None, "webFont": "STIX-Web", "imageFont": None,
                 "linebreaks": {"automatic": True}},
    "MMLorHTML": {"prefer": "HTML"},
    "fast-preview": {"disabled": True},
    "MathMenu": {"showRenderer": False, "showLocale": False},
    "messageStyle": "none",
}


class DocsError(Exception):
    """A problem with the site's inputs, said in one line."""


# ------------------------------------------------------------------------------------------------- settings


def repository_url(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """The project's repository address, ``[project.urls] Repository`` of ``pyproject.toml`` (the one setting)."""
    with pyproject.open("rb") as f:
        urls = tomllib.load(f).get("project", {}).get("urls", {})
    url = urls.get("Repository")
    if not url:
        raise DocsError(f"{pyproject} has no [project.urls] Repository")
    return url.rstrip("/")


def repo_file_url(repository: str, path: str, folder: bool = False) -> str:
    """A file (or folder) of the repository on its web host, at :data:`BRANCH`."""
    return f"{repository}/{'tree' if folder else 'blob'}/{BRANCH}/{quote(path)}"


def launch_links(student_path: str, repository: str) -> list[tuple[str, str]]:
    """("Binder", url) and ("Colab", url) that open a lesson's student version (GitHub repositories only).

    >>> [u for _, u in launch_links("notebooks/lessons/student/01_a.ipynb", "https://github.com/me/wb")]
    ... # doctest: +NORMALIZE_WHITESPACE
    ['https://mybinder.org/v2/gh/me/wb/main?labpath=notebooks%2Flessons%2Fstudent%2F01_a.ipynb',
     'https://colab.research.google.com/github/me/wb/blob/main/notebooks/lessons/student/01_a.ipynb']
    """
    m = re.fullmatch(r"https://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?", repository)
    if not m:
        return []
    slug = m.group(1)
    return [("Binder", f"https://mybinder.org/v2/gh/{slug}/{BRANCH}?labpath={quote(student_path, safe='')}"),
            ("Colab", f"https://colab.research.google.com/github/{slug}/blob/{BRANCH}/{student_path}")]


# ------------------------------------------------------------------------------------------------- links

LINK = re.compile(r"(?<!\\)(!?\[(?:[^\[\]]|\[[^\]]*\])*\])\(([^()\s]+)((?:\s+\"[^\"]*\")?)\)")
EXTERNAL = re.compile(r"^([a-z][a-z0-9+.-]*:|#|/)", re.I)


def _check_audience(audience: str) -> None:
    if audience not in AUDIENCES:
        raise DocsError(f"unknown audience {audience!r}: the sites are {', '.join(AUDIENCES)}")


def rendered_pages(audience: str = "teacher") -> dict[Path, Path]:
    """Repository notebook -> its copy under docs/_generated (the notebooks the site of ``audience`` renders)."""
    _check_audience(audience)
    out = {}
    for folder, pattern, dest in NOTEBOOK_SOURCES[audience]:
        for nb in sorted((ROOT / folder).glob(pattern)):
            out[nb.resolve()] = GENERATED / dest / nb.name
    return out


def link_targets(audience: str = "teacher") -> dict[Path, Path]:
    """Repository file -> the page a link to it leads to: :func:`rendered_pages`, and on the students' site the
    executed lessons and their instructor sources (solutions in) lead to the student version's page."""
    pages = rendered_pages(audience)
    if audience == "student":
        for nb, page in list(pages.items()):
            for folder in LESSON_ALIASES:
                pages.setdefault((ROOT / folder / nb.name).resolve(), page)
    return pages


def teacher_only(path: Path) -> bool:
    """Whether ``path`` (a file) is one of the teachers' pages of docs/ (:data:`TEACHER_PAGES`)."""
    if not path.is_relative_to(DOCS):
        return False
    rel = path.relative_to(DOCS)
    return any(rel.match(g) or (g.endswith("/**") and rel.is_relative_to(g[:-3])) for g in TEACHER_PAGES)


def for_audience(text: str, audience: str) -> str:
    """``text`` without the parts for the other audience (between ``<!-- audience: X -->`` and
    ``<!-- audience: end -->`` lines; the marker lines dropped too).

    >>> t = ["a", "<!-- audience: teacher -->", "b", "<!-- audience: end -->",
    ...      "<!-- audience: student -->", "c", "<!-- audience: end -->", ""]
    >>> for_audience(chr(10).join(t), "student").split(chr(10))
    ['a', 'c', '']
    """
    _check_audience(audience)
    out, keep, pos, opened = [], True, 0, None
    for m in _AUDIENCE_LINE.finditer(text):
        if (m.group(1) == "end") == (opened is None):
            raise DocsError(f"an '<!-- audience: {m.group(1)} -->' line "
                            + ("without an opening one before it" if opened is None else f"inside the {opened} part"))
        if keep:
            out.append(text[pos:m.start()])
        opened = None if m.group(1) == "end" else m.group(1)
        keep = opened in (None, audience)
        pos = m.end()
    if opened is not None:
        raise DocsError(f"the '<!-- audience: {opened} -->' part has no '<!-- audience: end -->' line after it")
    out.append(text[pos:])
    return "".join(out)


def lesson_count(index: Path = LESSONS_INDEX) -> int:
    """The number of lessons in the lesson path's index (``notebooks/lessons/lessons.yaml``)."""
    import yaml

    with index.open(encoding="utf-8") as f:
        lessons = (yaml.safe_load(f) or {}).get("lessons")
    if not isinstance(lessons, list) or not lessons:
        raise DocsError(f"{index} lists no lessons (a 'lessons:' list)")
    return len(lessons)


def count_substitutions(index: Path = LESSONS_INDEX) -> dict[str, str]:
    """MyST substitutions for the number of lessons: ``lessons_count`` ("nine") and ``Lessons_count`` ("Nine")."""
    n = lesson_count(index)
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return {"lessons_count": word, "Lessons_count": word[0].upper() + word[1:]}


#: :func:`rewrite_link`'s answer for a link to leave out (its text kept): a teachers' page on the students' site
DROP = ""


def rewrite_link(target: str, origin_dir: Path, page_dir: Path, repository: str,
                 pages: dict[Path, Path], audience: str = "teacher") -> str | None:
    """Where a relative link written in a file of ``origin_dir`` should point from a page in ``page_dir``.

    A file the site renders (a page of docs/, a rendered notebook): the relative path to its source, which
    MyST resolves to the page; any other existing file or folder of the repository: its address in the
    repository; on the students' site, a teachers' page (:func:`teacher_only`): :data:`DROP`, the link is
    left out; anything else (an URL, an anchor, a missing file): None, the link is left as written (and a
    missing file is then Sphinx's warning, an error under -W).
    """
    if EXTERNAL.match(target):
        return None
    path, sep, anchor = target.partition("#")
    if not path:
        return None
    resolved = (origin_dir / path).resolve()
    if audience == "student" and (teacher_only(resolved) or resolved == DOCS / "teacher"):
        return DROP
    if resolved in pages:
        resolved = pages[resolved]
    elif resolved.is_relative_to(DOCS) and not resolved.is_relative_to(GENERATED) and resolved.exists():
        pass
    elif resolved.is_relative_to(ROOT) and resolved.exists() and not resolved.is_relative_to(DOCS):
        rel = resolved.relative_to(ROOT).as_posix()
        return repo_file_url(repository, rel, folder=resolved.is_dir()) + sep + anchor
    else:
        return None
    new = Path(os.path.relpath(resolved, page_dir)).as_posix()
    return new + sep + anchor if new != path else None


def rewrite_markdown(text: str, origin_dir: Path, page_dir: Path, repository: str,
                     pages: dict[Path, Path], audience: str = "teacher") -> str:
    """Markdown with its relative links rewritten by :func:`rewrite_link` (code spans and fences left alone)."""
    def fix(match):
        new = rewrite_link(match.group(2), origin_dir, page_dir, repository, pages, audience)
        if new == DROP:
            return match.group(1).lstrip("!")[1:-1]  # the link's text, without its target
        if new is None or (match.group(1).startswith("!") and "://" in new):
            return match.group(0)  # an image stays local (the site loads nothing from the network)
        return f"{match.group(1)}({new}{match.group(3)})"

    parts = re.split(r"(^```.*?^```[ \t]*$|^~~~.*?^~~~[ \t]*$|`[^`\n]+`)", text, flags=re.S | re.M)
    return "".join(p if i % 2 else LINK.sub(fix, p) for i, p in enumerate(parts))


# ------------------------------------------------------------------------------------------------- generation


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` unless it already holds it (keeps Sphinx's incremental rebuilds).

    The file is replaced whole (written beside it, then renamed), so a build running at the same time never reads
    half of it.
    """
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return True


def prune(folder: Path, keep: set[Path]) -> None:
    """Remove the files of a generated folder that are no longer generated."""
    if folder.is_dir():
        for p in folder.rglob("*"):
            if p.is_file() and p not in keep and not p.name.endswith(".tmp"):
                p.unlink(missing_ok=True)


def _launch_cell(nb: dict, name: str, repository: str) -> dict | None:
    """The markdown cell, under a lesson's title, that opens its student version on Binder and Colab."""
    student = f"notebooks/lessons/student/{name}"
    links = launch_links(student, repository)
    if not links:
        return None
    note = ("Run this lesson yourself (the student version, exercises to fill in): "
            + " · ".join(f"[open in {label}]({url})" for label, url in links)
            + f" · [download the notebook]({repo_file_url(repository, student)})")
    cell = {"cell_type": "markdown", "metadata": {"tags": ["wordbias-launch"]}, "source": note}
    if (nb.get("nbformat"), nb.get("nbformat_minor", 0)) >= (4, 5):
        cell["id"] = "wordbias-launch"
    return cell


def page_notebook(src: Path, dest: Path, repository: str, audience: str = "teacher") -> dict:
    """The copy of notebook ``src`` the site renders at ``dest`` (module doc): wordbias's own output types left
    out where the output has another, links pointed at the site, and on a lesson the launch links."""
    nb = json.loads(src.read_text(encoding="utf-8"))
    pages = link_targets(audience)
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            own = [m for m in data if m.startswith(PRIVATE_MIME)]
            if own and len(own) < len(data):  # the page shows the output's HTML or text beside it
                for m in own:
                    del data[m]
        if cell.get("cell_type") == "markdown":
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = rewrite_markdown(text, src.parent, dest.parent, repository, pages, audience)
    if dest.parent.name == "lessons":
        cell = _launch_cell(nb, src.name, repository)
        if cell is not None:
            nb["cells"].insert(1 if nb["cells"] else 0, cell)
    return nb


def copy_notebooks(repository: str, audience: str = "teacher") -> list[Path]:
    """Copy the notebooks the site of ``audience`` renders into docs/_generated (:func:`page_notebook`)."""
    written = []
    for src, dest in rendered_pages(audience).items():
        nb = page_notebook(src, dest, repository, audience)
        write_if_changed(dest, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        written.append(dest)
    return written


def slug(title: str) -> str:
    """A file name for a group title: lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def api_pages(groups=None) -> dict[str, str]:
    """File name -> reST text of each API reference page, one per group of ``tools.api_reference.GROUPS``.

    The names are numbered in the order of GROUPS, so the glob of docs/api.md's toctree keeps that order.
    """
    if groups is None:
        from tools.api_reference import GROUPS as groups
    pages = {}
    for i, (title, modules, _) in enumerate(groups, 1):
        lines = [title, "=" * len(title), ""]
        for module in modules:
            lines += [f".. automodule:: {module}", "   :members:", ""]
        pages[f"{i:02d}-{slug(title)}.rst"] = "\n".join(lines)
    return pages


def _subcommands(parser: argparse.ArgumentParser, prefix: str = "") -> list[tuple[str, argparse.ArgumentParser]]:
    out = []
    for action in parser._actions:  # argparse has no public API for its subparsers
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append((f"{prefix}{name}", sub))
                out += _subcommands(sub, f"{prefix}{name} ")
    return out


def cli_reference(parser: argparse.ArgumentParser | None = None, prog: str = "wordbias") -> str:
    """MyST Markdown: the ``--help`` of the command and of each subcommand, at 100 columns."""
    if parser is None:
        from wordbias.cli import build_parser
        parser = build_parser()
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        blocks = [(f"`{prog}`", parser.format_help())]
        blocks += [(f"`{prog} {name}`", sub.format_help()) for name, sub in _subcommands(parser)]
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    out = []
    for heading, text in blocks:
        out += [f"# {heading}", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(out)


def generate(repository: str, audience: str = "teacher") -> None:
    """Write every generated page of the site of ``audience`` into docs/_generated (module doc).

    Only the folders this site renders are pruned: the other site's lessons, written by a build that may run at
    the same time, are left alone.
    """
    keep = set(copy_notebooks(repository, audience))
    for name, text in api_pages().items():
        write_if_changed(GENERATED / "api" / name, text)
        keep.add(GENERATED / "api" / name)
    # not a source suffix: the fragment is read only through docs/cli.md's include
    write_if_changed(GENERATED / "cli.txt", cli_reference())
    for folder in {GENERATED / "api", *(GENERATED / dest for _, _, dest in NOTEBOOK_SOURCES[audience])}:
        prune(folder, keep)


# ------------------------------------------------------------------------------------------------- MathJax


def mathjax_static() -> Path:
    """The MathJax 2.7 folder of the installed ``jupyter_server_mathjax`` package."""
    try:
        import jupyter_server_mathjax
    except ImportError as err:
        raise DocsError("the site needs the PyPI package jupyter_server_mathjax (MathJax 2.7): "
                        'pip install -e ".[docs]"') from err
    static = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (static / "MathJax.js").is_file():
        raise DocsError(f"{static} has no MathJax.js: reinstall jupyter_server_mathjax")
    return static


def copy_mathjax(dest: Path) -> int:
    """Copy the MathJax files the pages use (MATHJAX_FILES) into ``dest``; returns their total size in bytes."""
    static = mathjax_static()
    total = 0
    for pattern in MATHJAX_FILES:
        matches = sorted(p for p in static.glob(pattern) if p.is_file())
        if not matches:
            raise DocsError(f"jupyter_server_mathjax has no {pattern}: the site's MathJax would be incomplete")
        for src in matches:
            target = dest / src.relative_to(static)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.is_file() or target.stat().st_size != src.stat().st_size:
                shutil.copyfile(src, target)
            total += src.stat().st_size
    return total


# ------------------------------------------------------------------------------------------------- Sphinx


def audience_of(tags) -> str:
    """The site a build makes: "student" under ``sphinx-build -t student``, else "teacher"."""
    return "student" if tags.has("student") else "teacher"


def exclude_patterns(audience: str) -> list[str]:
    """The pages (globs relative to docs/) the site of ``audience`` leaves out: the other site's lesson copies, and
    on the students' site the teachers' pages (:data:`TEACHER_PAGES`)."""
    _check_audience(audience)
    other = [dest for a in AUDIENCES if a != audience for _, _, dest in NOTEBOOK_SOURCES[a]
             if dest not in {d for _, _, d in NOTEBOOK_SOURCES[audience]}]
    return [f"_generated/{d}/**" for d in other] + (list(TEACHER_PAGES) if audience == "student" else [])


def _config_inited(app, config) -> None:
    generate(config.wordbias_repository, config.wordbias_audience)


def _source_read(app, docname: str, content: list[str]) -> None:
    path = Path(app.env.doc2path(docname))
    if path.suffix != ".md" or path.resolve().is_relative_to(GENERATED):
        return
    audience = app.config.wordbias_audience
    content[0] = rewrite_markdown(for_audience(content[0], audience), path.parent, path.parent,
                                  app.config.wordbias_repository, link_targets(audience), audience)


def _builder_inited(app) -> None:
    if app.builder.format == "html":
        # MathJax on every page, not only those with Sphinx math nodes: notebook outputs may hold TeX too
        app.set_html_assets_policy("always")
        # before the pages are written (Sphinx adds a checksum of MathJax.js to its URL)
        copy_mathjax(Path(app.outdir) / "_static" / MATHJAX_DIR)


def setup(app):
    app.add_config_value("wordbias_repository", "", "env", types=frozenset({str}))
    app.add_config_value("wordbias_audience", "teacher", "env", types=frozenset({str}))
    app.connect("config-inited", _config_inited)
    app.connect("source-read", _source_read)
    app.connect("builder-inited", _builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
