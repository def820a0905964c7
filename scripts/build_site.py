#!/usr/bin/env python
"""Build the static HTML site of the lessons and the paper notebooks (issue 16, item 5).

    python scripts/build_site.py [OUT_DIR] [--manifest scripts/site_assets/site.yaml] [--root REPO]

Nothing is executed: the pages are the executed notebooks as saved (``notebooks/*.ipynb`` and the lessons listed in
``notebooks/lessons/lessons.yaml``), exported with nbconvert's HTMLExporter, and the teacher's guide and the README
rendered from Markdown. The landing page (``index.html``) lays out the lesson path, then the paper replications,
then the teacher's guide.

Offline by construction: no page loads anything from the network. Math is typeset by MathJax 2.7 copied from the
PyPI package ``jupyter_server_mathjax`` into ``assets/mathjax`` (only the files the TeX input and the HTML-CSS
output with the STIX-Web fonts use); figures stay embedded in the pages as data URIs. Cells tagged ``solution``
are folded into ``<details>``; cells tagged ``remove-cell`` are dropped. The same inputs give the same bytes.
``scripts/check_site.py`` then opens every page in headless Chromium and checks the math and the figures.
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import mimetypes
import os
import re
import shutil
import sys
from pathlib import Path

import jinja2
import nbformat
import yaml
from markdown_it import MarkdownIt
from markupsafe import Markup

from wordbias.core.yaml_io import load_yaml

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
ASSETS = SCRIPTS / "site_assets"
SITE_MARKER = "site.json"  # written last; lists the pages, read by check_site.py
# the files at the top of a site build, for builds from before the ownership marker (prepare_out_dir)
_SITE_SUFFIXES = (".html", ".json", ".css", ".js", ".png", ".svg", ".ipynb")

# MathJax 2.7 files the pages need (globs relative to jupyter_server_mathjax/static). The combined configuration
# TeX-AMS-MML_HTMLorMML-full holds the TeX input, the HTML-CSS output and the menu; at run time MathJax loads the
# operator dictionary, the HTML-CSS autoloaded elements, the STIX-Web font metrics and web fonts, and any TeX
# extension a formula asks for (\cancel, \color, \boldsymbol...). The SVG output, the image fonts, the
# accessibility explorer (3.7 MB of speech rules; screen readers still get the hidden MathML of AssistiveMML) and
# the translations other than English are left out, and the math menu does not offer to switch renderer or
# language (the items of its Accessibility submenu need the explorer, and fail to load).
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full"
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

# tex2jax settings are nbconvert's (its lab template), so the pages typeset what JupyterLab typesets. The web font
# is STIX-Web (the only one jupyter_server_mathjax ships); availableFonts [] keeps MathJax from using fonts
# installed on the reader's machine, so every reader sees the same glyphs.
MATHJAX_HEAD = """<script type="text/x-mathjax-config">
MathJax.Hub.Config({
  tex2jax: {
    inlineMath: [ ['$','$'], ["\\\\(","\\\\)"] ],
    displayMath: [ ['$$','$$'], ["\\\\[","\\\\]"] ],
    processEscapes: true,
    processEnvironments: true
  },
  TeX: { equationNumbers: { autoNumber: "AMS", useLabelIds: true } },
  "HTML-CSS": {
    availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null,
    linebreaks: { automatic: true }
  },
  MMLorHTML: { prefer: "HTML" },
  "fast-preview": { disabled: true },
  MathMenu: { showRenderer: false, showLocale: false },
  displayAlign: "center",
  messageStyle: "none"
});
</script>
<script src="{src}"></script>"""

LESSON_NEEDS = ("core", "contextual")


class SiteError(Exception):
    """A problem with the site's inputs, said in one line."""


# ---------------------------------------------------------------------------------------------------- inputs


def read_yaml(path: Path) -> dict:
    """A YAML mapping, or a SiteError naming the file and the line."""
    try:
        data = load_yaml(path)
    except yaml.YAMLError as err:
        raise SiteError(f"{path} is not valid YAML: {err}".replace("\n", " ")) from err
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SiteError(f"{path}: expected a YAML mapping at the top level")
    return data


def load_manifest(path: Path) -> dict:
    """The site manifest (``site_assets/site.yaml``): title, lessons_index, papers [{file, title, label}], guide,
    readme."""
    if not path.is_file():
        raise SiteError(f"site manifest {path} does not exist")
    data = read_yaml(path)
    for key in ("title", "lessons_index", "papers"):
        if key not in data:
            raise SiteError(f"site manifest {path}: missing key {key!r}")
    if not isinstance(data["papers"], list) or not all(isinstance(p, dict) and "file" in p for p in data["papers"]):
        raise SiteError(f"site manifest {path}: 'papers' must be a list of {{file, label}}")
    return data


def load_lessons(path: Path) -> list[dict]:
    """The lesson index: ``lessons: [{file, title, minutes, needs: core|contextual, goals: [..]}]``, in order.

    ``file`` is relative to the index's folder. Every field is checked; a wrong one is named.
    """
    if not path.is_file():
        print(f"note: no lesson index at {path}: the site has no lessons yet")
        return []
    data = read_yaml(path)
    lessons = data.get("lessons")
    if not isinstance(lessons, list):
        raise SiteError(f"{path}: expected a top-level 'lessons:' list")
    out = []
    for i, entry in enumerate(lessons, 1):
        where = f"{path}, lesson {i}"
        if not isinstance(entry, dict):
            raise SiteError(f"{where}: expected a mapping, got {entry!r}")
        for key in ("file", "title", "minutes", "needs"):
            if key not in entry:
                raise SiteError(f"{where}: missing {key!r}")
        minutes = entry["minutes"]
        if not isinstance(minutes, (int, float)) or isinstance(minutes, bool) or minutes <= 0:
            raise SiteError(f"{where}: 'minutes' must be a positive number, got {entry['minutes']!r}")
        if entry["needs"] not in LESSON_NEEDS:
            raise SiteError(f"{where}: 'needs' must be one of {LESSON_NEEDS}, got {entry['needs']!r}")
        goals = entry.get("goals", [])
        if not isinstance(goals, list) or not all(isinstance(g, str) for g in goals):
            raise SiteError(f"{where}: 'goals' must be a list of strings")
        out.append({**entry, "goals": goals, "path": path.parent / entry["file"]})
    return out


def notebook_title(nb) -> str | None:
    """The first Markdown heading of the notebook, without its Markdown emphasis."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            match = re.match(r"#{1,6}\s+(.*\S)", line)
            if match:
                return re.sub(r"[*_`]", "", match.group(1))
    return None


# ---------------------------------------------------------------------------------------------------- assets


def mathjax_static() -> Path:
    """The MathJax 2.7 folder of the installed ``jupyter_server_mathjax`` package."""
    try:
        import jupyter_server_mathjax
    except ImportError as err:
        raise SiteError("the site needs the PyPI package jupyter_server_mathjax (MathJax 2.7): pip install it") from err
    static = Path(jupyter_server_mathjax.__file__).parent / "static"
    if not (static / "MathJax.js").is_file():
        raise SiteError(f"{static} has no MathJax.js: reinstall jupyter_server_mathjax")
    return static


def copy_mathjax(dest: Path) -> int:
    """Copy the MathJax files the pages use (MATHJAX_FILES) into ``dest``; returns their total size in bytes."""
    static = mathjax_static()
    total = 0
    for pattern in MATHJAX_FILES:
        matches = sorted(p for p in static.glob(pattern) if p.is_file())
        if not matches:
            raise SiteError(f"jupyter_server_mathjax has no {pattern}: the site's MathJax would be incomplete")
        for src in matches:
            target = dest / src.relative_to(static)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
            total += src.stat().st_size
    return total


# ---------------------------------------------------------------------------------------------------- pages


def nav_html(page: dict, pages: list[dict], bottom: bool = False) -> str:
    """The navigation bar: home, where the page sits, previous and next page of the same kind, the guide."""
    esc = html.escape
    parts = ['<a class="wb-home" href="index.html">wordbias: home</a>']
    siblings = [p for p in pages if p["kind"] == page["kind"] and page["kind"] in ("lesson", "paper")]
    if page in siblings:
        i = siblings.index(page)
        noun = "Lesson" if page["kind"] == "lesson" else "Paper"
        parts.append(f'<span class="wb-where">{noun} {i + 1} of {len(siblings)}</span>')
        parts.append('<span class="wb-spacer"></span>')
        prev_, next_ = (siblings[i - 1] if i > 0 else None), (siblings[i + 1] if i + 1 < len(siblings) else None)
        word = noun.lower()
        parts.append(
            f'<a class="wb-prev" href="{prev_["out"]}" title="{esc(prev_["title"])}">&larr; previous {word}</a>'
            if prev_
            else f'<span class="wb-prev wb-disabled">&larr; previous {word}</span>'
        )
        parts.append(
            f'<a class="wb-next" href="{next_["out"]}" title="{esc(next_["title"])}">next {word} &rarr;</a>'
            if next_
            else f'<span class="wb-next wb-disabled">next {word} &rarr;</span>'
        )
    else:
        parts.append('<span class="wb-spacer"></span>')
        first_lesson = next((p for p in pages if p["kind"] == "lesson"), None)
        if first_lesson:
            parts.append(f'<a href="{first_lesson["out"]}">start the lessons &rarr;</a>')
    for label, url in page.get("launch", ()):  # run the student version elsewhere (a repository is configured)
        parts.append(f'<a class="wb-launch" href="{esc(url)}">{esc(label)}</a>')
    guide = next((p for p in pages if p["kind"] == "guide"), None)
    if guide and guide is not page:
        parts.append(f'<a href="{guide["out"]}">teacher\'s guide</a>')
    cls = "wb-nav wb-nav-bottom" if bottom else "wb-nav"
    return f'<nav class="{cls}" aria-label="site">' + "\n".join(parts) + "</nav>"


class WidgetNotePreprocessor:
    """Replace ipywidgets outputs (which need a live kernel) by a note that says so; drop the saved widget state."""

    NOTE = (
        '<div class="wb-widget-note">An interactive widget appears here when you run the notebook '
        "(Jupyter, Binder or Colab); this page shows the saved notebook.</div>"
    )

    def __call__(self, nb):
        nb.metadata.pop("widgets", None)
        for cell in nb.cells:
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if "application/vnd.jupyter.widget-view+json" in data:
                    out["data"] = {"text/html": self.NOTE}
        return nb


def link_rewriter(site_pages_by_source: dict[Path, str], base: Path):
    """A function that maps an href found in ``base``'s folder to a site page, or returns None if not on the site."""

    def rewrite(href: str) -> str | None:
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^//", href, re.I):
            return href  # absolute URL or an anchor on the same page: unchanged
        path, _, anchor = href.partition("#")
        if not path:
            return href
        target = (base / path).resolve()
        out = site_pages_by_source.get(target)
        if out is None:
            return None
        return out + (f"#{anchor}" if anchor else "")

    return rewrite


def data_uri(path: Path, where: Path) -> str:
    """A local image as a data URI, so the page carries its figure (a SiteError if the file is missing)."""
    if not path.is_file():
        raise SiteError(f"{where}: image {path} does not exist")
    mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def rewrite_notebook_links(body: str, rewrite, site_files: set[str], source: Path) -> str:
    """Fix the relative links and images of an exported notebook for the site.

    A link to a notebook or Markdown file that is on the site points at its page; a link to any other file of
    the repository (not on the site) becomes its text; a relative image is embedded as a data URI. The site's
    own links (navigation, assets) are left alone.
    """

    def is_relative(url: str) -> bool:
        return not re.match(r"^([a-z][a-z0-9+.-]*:|#|//)", url, re.I) and url.split("#")[0] not in site_files \
            and not url.startswith("assets/")

    def link(match):
        attrs_before, href, attrs_after, text = match.groups()
        href = html.unescape(href)
        if not is_relative(href):
            return match.group(0)
        new = rewrite(href)
        if new is None:
            title = html.escape(f"{href}: a file in the repository, not on this site")
            return f'<span class="wb-repo-path" title="{title}">{text}</span>'
        return f'<a {attrs_before}href="{html.escape(new)}"{attrs_after}>{text}</a>'

    def image(match):
        src = html.unescape(match.group(2))
        if not is_relative(src):
            return match.group(0)
        return f'{match.group(1)}"{data_uri((source.parent / src.split("#")[0]).resolve(), source)}"'

    body = re.sub(r'<a\s([^>]*?)href="([^"]*)"([^>]*)>(.*?)</a>', link, body, flags=re.S)
    return re.sub(r'(<img\s[^>]*?src=)"([^"]*)"', image, body)


def export_notebook(page: dict, pages: list[dict], ctx: dict, rewrite, site_files: set[str]) -> str:
    """One notebook as an HTML page (nbconvert's HTMLExporter with the site's template)."""
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import TagRemovePreprocessor

    nb = nbformat.read(page["source"], as_version=4)
    nb = WidgetNotePreprocessor()(nb)
    exporter = HTMLExporter(
        template_name="wordbias_site",
        extra_template_basedirs=[str(ASSETS / "templates")],
    )
    exporter.register_preprocessor(
        TagRemovePreprocessor(
            remove_cell_tags={"remove-cell"},
            remove_input_tags={"remove-input"},
            remove_all_outputs_tags={"remove-output"},
        ),
        enabled=True,
    )
    resources = {
        "metadata": {"name": page["title"]},
        "wb": {
            "mathjax_head": ctx["mathjax_head"],
            "css_href": ctx["css_href"],
            "nav_top": nav_html(page, pages),
            "nav_bottom": nav_html(page, pages, bottom=True),
        },
    }
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    return rewrite_notebook_links(body, rewrite, site_files, page["source"])


def github_slug(text: str, seen: dict[str, int]) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered."""
    slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
    n = seen.get(slug, 0)
    seen[slug] = n + 1
    return slug if n == 0 else f"{slug}-{n}"


def math_inline_rule(state, silent: bool) -> bool:
    """markdown-it inline rule: ``$$…$$`` and ``$…$`` become math tokens, so Markdown does not mangle the TeX.

    Single-dollar math needs a non-space after the opening and before the closing ``$`` and no digit after the
    closing one (so "$5 and $10" stays text), as on GitHub.
    """
    src, pos = state.src, state.pos
    if src[pos] != "$":
        return False
    display = src.startswith("$$", pos)
    opener = 2 if display else 1
    start = pos + opener
    if display:
        end = src.find("$$", start)
    else:
        end = start
        while True:
            end = src.find("$", end)
            if end == -1 or src[end - 1] != "\\":
                break
            end += 1
    if end == -1 or end == start:
        return False
    content = src[start:end]
    if not display and (content[0].isspace() or content[-1].isspace() or src[end + 1 : end + 2].isdigit()):
        return False
    if not silent:
        token = state.push("math_display" if display else "math_inline", "", 0)
        token.content = content
    state.pos = end + opener
    return True


def render_markdown(text: str, rewrite, source: Path) -> str:
    """Markdown (CommonMark with tables) to HTML: heading anchors as on GitHub, math kept for MathJax,
    links to notebooks and Markdown files on the site pointed at their pages, links to other files of the
    repository shown as their text (the site does not carry them), images embedded as data URIs."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
    md.inline.ruler.before("escape", "math", math_inline_rule)
    md.add_render_rule("math_inline", lambda _r, tokens, i, _o, _e: "\\(" + html.escape(tokens[i].content) + "\\)")
    md.add_render_rule("math_display", lambda _r, tokens, i, _o, _e: "\\[" + html.escape(tokens[i].content) + "\\]")
    tokens = md.parse(text)
    seen: dict[str, int] = {}
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            inline = tokens[i + 1]
            words = "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))
            tok.attrSet("id", github_slug(words, seen))
        for child in tok.children or []:
            if child.type == "link_open":
                href = child.attrGet("href") or ""
                new = rewrite(href)
                if new is None:
                    child.tag = "span"
                    title = f"{href}: a file in the repository, not on this site"
                    child.attrs = {"class": "wb-repo-path", "title": title}
                    child.meta["repo_path"] = True
                else:
                    child.attrSet("href", new)
            elif child.type == "image":
                src = child.attrGet("src") or ""
                if not re.match(r"^(https?:|data:)", src):
                    child.attrSet("src", data_uri((source.parent / src).resolve(), source))
        # a link turned into a span must close as a span
        stack = []
        for child in tok.children or []:
            if child.type == "link_open":
                stack.append(child)
            elif child.type == "link_close" and stack:
                if stack.pop().meta.get("repo_path"):
                    child.tag = "span"
    return md.renderer.render(tokens, md.options, {})


# ---------------------------------------------------------------------------------------------------- build


def plan_pages(root: Path, manifest: dict) -> list[dict]:
    """The site's pages in order (lessons, papers, guide, README), each with its source and output file name."""
    pages: list[dict] = []
    for lesson in load_lessons(root / manifest["lessons_index"]):
        if not lesson["path"].is_file():
            print(f"note: lesson {lesson['file']!r} ({lesson['title']}) is listed but not built yet: skipped")
            lesson["out"] = None
            pages.append({"kind": "lesson-missing", **lesson})
            continue
        pages.append({"kind": "lesson", "source": lesson["path"], "out": lesson["path"].stem + ".html", **lesson})
    for paper in manifest["papers"]:
        src = root / paper["file"]
        if not src.is_file():
            raise SiteError(f"paper notebook {paper['file']} does not exist (run make to execute the notebooks)")
        pages.append({"kind": "paper", "source": src, "out": src.stem + ".html", "label": paper.get("label", ""),
                      "title": paper.get("title")})
    for kind, key, out in (("guide", "guide", "teaching.html"), ("readme", "readme", "readme.html")):
        if not manifest.get(key):
            continue
        src = root / manifest[key]
        if not src.is_file():
            print(f"note: {manifest[key]} does not exist yet: the site has no {kind} page")
            continue
        pages.append({"kind": kind, "source": src, "out": out})
    outs = [p["out"] for p in pages if p.get("out")]
    dupes = sorted({o for o in outs if outs.count(o) > 1} | ({"index.html"} & set(outs)))
    if dupes:
        raise SiteError(f"two pages would be written to the same file: {', '.join(dupes)}")
    for page in pages:
        if page["kind"] in ("lesson", "paper") and not page.get("title"):
            nb = nbformat.read(page["source"], as_version=4)
            page["title"] = notebook_title(nb) or page["source"].stem
        elif page["kind"] == "guide":
            page["title"] = "Teacher's guide"
        elif page["kind"] == "readme":
            page["title"] = "README"
    return pages


def prepare_out_dir(out: Path) -> None:
    """Empty ``out`` for a fresh build, refusing to empty a folder that is not an earlier build of the site:
    one wordbias marked as its own (:mod:`wordbias.core.ownership`), or a build from before the marker (its
    ``site.json`` and nothing but a site's files). The new folder is marked."""
    from wordbias.core import ownership

    if os.path.lexists(out):
        if out.is_symlink() or not out.is_dir():
            raise SiteError(f"{out} exists and is not a folder")
        legacy = (out / SITE_MARKER).is_file() and all(p.is_dir() or p.suffix in _SITE_SUFFIXES
                                                       for p in out.iterdir())
        if any(out.iterdir()) and not ownership.is_ours(out, ("output",)) and not legacy:
            raise SiteError(f"{out} is not empty and is not an earlier site build (no {ownership.MARKER}): "
                            "not touched; choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    ownership.mark(out, "output")


REPOSITORY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")


def launch_links(student_path: str, repository: str, branch: str = "main") -> list[tuple[str, str]]:
    """"Open in Colab" and "Binder" links to a lesson's student version in the GitHub ``repository``
    (``owner/name``) at ``branch``: Colab opens the notebook from GitHub; Binder builds ``binder/`` (the light
    environment, no torch) and opens it in JupyterLab.

    >>> [url for _, url in launch_links("notebooks/lessons/student/01_a.ipynb", "me/wordbias")]  # doctest: +NORMALIZE_WHITESPACE
    ['https://colab.research.google.com/github/me/wordbias/blob/main/notebooks/lessons/student/01_a.ipynb',
     'https://mybinder.org/v2/gh/me/wordbias/main?labpath=notebooks%2Flessons%2Fstudent%2F01_a.ipynb']
    """
    if not REPOSITORY.match(repository):
        raise SiteError(f"repository must be a GitHub 'owner/name', not {repository!r}")
    from urllib.parse import quote

    return [("open in Colab", f"https://colab.research.google.com/github/{repository}/blob/{branch}/{student_path}"),
            ("open in Binder", f"https://mybinder.org/v2/gh/{repository}/{branch}?labpath={quote(student_path, safe='')}")]


def build(out: Path, manifest_path: Path, root: Path, *, repository: str | None = None,
          branch: str = "main") -> dict:
    """Build the site into ``out``; returns the page list written to ``site.json``. With ``repository`` (or the
    manifest's ``repository``), each lesson page links to its student version on Colab and Binder."""
    manifest = load_manifest(manifest_path)
    root = root.resolve()
    pages = plan_pages(root, manifest)
    repository = repository or manifest.get("repository")
    if repository:
        for page in pages:
            if page["kind"] == "lesson":
                student = (page["source"].parent / "student" / page["source"].name).relative_to(root)
                page["launch"] = launch_links(student.as_posix(), repository, branch)
    prepare_out_dir(out)
    mathjax_bytes = copy_mathjax(out / "assets" / "mathjax")
    shutil.copyfile(ASSETS / "site.css", out / "assets" / "site.css")
    ctx = {
        "mathjax_head": MATHJAX_HEAD.replace("{src}", f"assets/mathjax/MathJax.js?config={MATHJAX_CONFIG}"),
        "css_href": "assets/site.css",
    }
    built = [p for p in pages if p["kind"] != "lesson-missing"]
    by_source = {p["source"].resolve(): p["out"] for p in built}
    site_files = {"index.html"} | set(by_source.values())
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ASSETS)), autoescape=True, keep_trailing_newline=True)
    page_tpl = env.get_template("page.html.j2")

    for page in built:
        rewrite = link_rewriter(by_source, page["source"].parent)
        if page["kind"] in ("lesson", "paper"):
            text = export_notebook(page, built, ctx, rewrite, site_files)
        else:
            body = render_markdown(page["source"].read_text(encoding="utf-8"), rewrite, page["source"])
            text = page_tpl.render(
                title=f"{page['title']} · wordbias",
                body=_markup(body),
                nav_top=_markup(nav_html(page, built)),
                nav_bottom=_markup(nav_html(page, built, bottom=True)),
                mathjax_head=_markup(ctx["mathjax_head"]),
                css_href=ctx["css_href"],
            )
        (out / page["out"]).write_text(text, encoding="utf-8")
        print(f"  {page['out']}  ({page['kind']}: {page['title']})")

    lessons = [p for p in pages if p["kind"] in ("lesson", "lesson-missing")]
    landing_body = env.get_template("landing.html.j2").render(
        title=manifest["title"],
        lessons=[
            {"title": p["title"], "minutes": _minutes(p["minutes"]), "needs": p["needs"], "goals": p["goals"],
             "href": p["out"]}
            for p in lessons
        ],
        total_minutes=_minutes(sum(p["minutes"] for p in lessons)),
        contextual_count=sum(p["needs"] == "contextual" for p in lessons),
        papers=[{"title": p["title"], "label": p["label"], "href": p["out"]} for p in pages if p["kind"] == "paper"],
        guide_href=next((p["out"] for p in built if p["kind"] == "guide"), None),
        readme_href=next((p["out"] for p in built if p["kind"] == "readme"), None),
    )
    home = {"kind": "home", "out": "index.html", "title": manifest["title"]}
    (out / "index.html").write_text(
        page_tpl.render(
            title=manifest["title"],
            body=_markup(landing_body),
            nav_top=_markup(nav_html(home, built)),
            nav_bottom=_markup(nav_html(home, built, bottom=True)),
            mathjax_head=_markup(ctx["mathjax_head"]),
            css_href=ctx["css_href"],
        ),
        encoding="utf-8",
    )
    listing = {
        "pages": [{"file": "index.html", "kind": "home", "title": manifest["title"]}]
        + [{"file": p["out"], "kind": p["kind"], "title": p["title"]} for p in built],
        "missing_lessons": [p["file"] for p in pages if p["kind"] == "lesson-missing"],
        "mathjax_bytes": mathjax_bytes,
    }
    (out / SITE_MARKER).write_text(json.dumps(listing, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return listing


def _markup(text: str) -> Markup:
    """Our own HTML, passed through the autoescaping page template as is."""
    return Markup(text)


def _minutes(value) -> int | float:
    return int(value) if float(value).is_integer() else value


def site_size(out: Path) -> int:
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", default="build/site", help="output folder (default build/site)")
    parser.add_argument("--manifest", default=str(ASSETS / "site.yaml"), help="site manifest (YAML)")
    parser.add_argument("--root", default=str(ROOT), help="repository root the manifest's paths are relative to")
    parser.add_argument("--repository", default=None, metavar="OWNER/NAME",
                        help="the project's GitHub repository: adds 'open in Colab' and 'open in Binder' links to "
                             "each lesson's student version (default: the manifest's 'repository', else none)")
    parser.add_argument("--branch", default="main", help="the branch those links open (default main)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    try:
        listing = build(out, Path(args.manifest), Path(args.root), repository=args.repository, branch=args.branch)
    except SiteError as err:
        print(f"build_site: error: {err}", file=sys.stderr)
        return 2
    print(
        f"build_site: {len(listing['pages'])} pages in {out} ({site_size(out) / 1e6:.1f} MB, "
        f"MathJax {listing['mathjax_bytes'] / 1e6:.1f} MB)"
        + (f"; {len(listing['missing_lessons'])} listed lessons not built yet" if listing["missing_lessons"] else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
