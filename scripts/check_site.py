#!/usr/bin/env python
"""Check the documentation site (``make docs``: Sphinx's HTML in build/docs) in a real browser, offline.

    python scripts/check_site.py SITE_DIR [--screenshots DIR] [--student [--lessons SRC]] [--jobs N]
                                 [--budget-ms MS] [--verbose] [--page P]

For every HTML page of SITE_DIR (every ``*.html`` outside Sphinx's own folders ``_static``, ``_sources``,
``_images`` and ``_downloads``):

1. a static check of the HTML: nothing may be *loaded* from outside the site (``src=``/``<link href=>``/CSS
   ``url()``/``import()`` of an http(s) or protocol-relative URL; hyperlinks to papers are fine), every local
   ``href``/``src`` (a page, an image, a script, a style sheet, a download) must lead to a file of the site, and
   every link to an anchor of a page must find that ``id`` there;
2. a copy of the page, with a small script added at the end of its body, is opened by headless Chromium with every
   host name unresolvable (``--host-resolver-rules="MAP * ~NOTFOUND"``); the script waits until MathJax has
   typeset the page (``MathJax.Hub.Queue`` after the startup typeset) and writes a JSON verdict into the DOM, read
   back with ``--dump-dom``: TeX delimiters left in the visible text (``$$``, ``\\(``, ``\\[``, ``$…$``), MathJax
   errors (TeX parse errors, files or fonts that failed to load, ``merror`` nodes), the number of typeset formulas,
   images that failed to load (naturalWidth 0) and any request that left the machine (Resource Timing).

With ``--student`` (the students' site, ``build/docs-student``), every page is also checked to give nothing of the
teachers' away (:func:`student_problems`): no line of any solution region of the instructor lessons
(``notebooks/lessons/src/*.ipynb``, or ``--lessons SRC``: each line of 12 characters or more, whitespace-normalised,
found in the page's text), no ``BEGIN SOLUTION``, no answer-key page or link, no page of or link into ``teacher/``
and no link to the teacher's guide (``teaching``) or the lesson developers' guide.

A problem is one line on stderr and the exit status is 1. With ``--screenshots DIR``, the pages of SCREENSHOTS
are saved as DIR/<name>.png (1280x2000): the landing page, an API reference page, a paper notebook and a lesson.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# Sphinx's own output folders: assets, not pages
NOT_PAGES = ("_static", "_sources", "_images", "_downloads", ".doctrees")
# screenshot name -> the page it shows (the first page whose path matches the glob)
SCREENSHOTS = {
    "landing.png": "index.html",
    "api.png": "_generated/api/01-*.html",
    "notebook.png": "_generated/notebooks/caliskan2017.html",
    "lesson.png": "_generated/lessons/01_*.html",
}
VERDICT_ID = "wb-site-check-verdict"
WINDOW = "1280,2000"

# Elements whose text MathJax does not typeset (tex2jax's skipTags and ignoreClass) or that MathJax wrote itself:
# TeX delimiters in them are not raw math on the page.
VERDICT_SCRIPT = r"""
<script>
(function () {
  var ID = "%(id)s", TIMEOUT_MS = %(timeout)d;
  var problems = [], done = false;
  var SKIP = "script, noscript, style, textarea, pre, code, annotation, annotation-xml, .tex2jax_ignore, " +
             ".MathJax, .MathJax_Display, .MathJax_Preview, .MathJax_CHTML, .MJX_Assistive_MathML, " +
             "#MathJax_Message, #MathJax_Hidden, #MathJax_Font_Test, .MathJax_SVG, .MathJax_MathML, #" + ID;
  function visibleText() {
    var body = document.body.cloneNode(true);
    Array.prototype.forEach.call(body.querySelectorAll(SKIP), function (el) { el.remove(); });
    return body.textContent;
  }
  function rawTex(text) {
    var found = [];
    var patterns = [
      ["$$", /\$\$/g], ["\\(", /\\\(/g], ["\\[", /\\\[/g], ["\\begin", /\\begin\{/g],
      ["$...$", /\$[^\s$][^$\n]{0,300}?[^\s$\\]\$(?!\d)|\$[^\s$]\$(?!\d)/g]
    ];
    patterns.forEach(function (p) {
      var m;
      while ((m = p[1].exec(text)) !== null && found.length < 20) {
        var a = Math.max(0, m.index - 30), b = Math.min(text.length, m.index + m[0].length + 30);
        found.push(p[0] + " in: " + text.slice(a, b).replace(/\s+/g, " "));
      }
    });
    return found;
  }
  function verdict(reason) {
    if (done) return;
    done = true;
    var mj = window.MathJax && window.MathJax.Hub && window.MathJax.Hub.getAllJax ? window.MathJax : null;
    var jax = mj ? mj.Hub.getAllJax() : [];
    var unrendered = jax.filter(function (j) { return !document.getElementById(j.inputID + "-Frame"); }).length;
    var mathErrors = problems.slice();
    var merror = document.querySelectorAll(".merror, .MathJax_Error, .noError").length;
    if (merror) mathErrors.push(merror + " formula(s) typeset as an error");
    var text = visibleText();
    if (/\[Math Processing Error\]/.test(text)) mathErrors.push("[Math Processing Error] on the page");
    // MathJax_Blank is HTML-CSS's probe that is meant to fail (its src is about:blank)
    if (document.fonts) document.fonts.forEach(function (f) {
      if (f.status === "error" && f.family.replace(/["']/g, "") !== "MathJax_Blank") {
        mathErrors.push("font failed to load: " + f.family);
      }
    });
    var imgs = Array.prototype.slice.call(document.images);
    var broken = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                     .map(function (i) { return (i.getAttribute("src") || "").slice(0, 100); });
    var network = (performance.getEntriesByType ? performance.getEntriesByType("resource") : [])
        .map(function (e) { return e.name; })
        .filter(function (u) { return !/^(file|data|blob|about):/.test(u); });
    var hasMathJaxScript = !!document.querySelector('script[src*="MathJax.js"]');
    var v = {
      reason: reason, mathjax_loaded: !!mj, mathjax_expected: hasMathJaxScript, formulas: jax.length,
      unrendered: unrendered, math_errors: mathErrors, raw_tex: rawTex(text), images: imgs.length,
      broken_images: broken, network: network,
      loaded_files: mj && mj.Ajax ? Object.keys(mj.Ajax.loaded).map(function (u) {
        return u.replace(/^.*?\/_static\/mathjax\//, "");
      }) : []
    };
    var el = document.createElement("script");
    el.type = "application/json";
    el.id = ID;
    el.textContent = JSON.stringify(v).replace(/</g, "\\u003c");
    document.body.appendChild(el);
  }
  function afterLoad(fn) {
    if (document.readyState === "complete") fn(); else window.addEventListener("load", fn);
  }
  // Sphinx loads MathJax.js with async: wait for it (a startup hook that already happened runs at once)
  function watch(MJ) {
    MJ.Hub.signal.Interest(function (m) {
      var s = String(m instanceof Array ? m.join(" ") : m);
      if (/error|fail/i.test(s)) problems.push(s.slice(0, 300));
    });
    MJ.Hub.Startup.signal.Interest(function (m) {
      var s = String(m instanceof Array ? m.join(" ") : m);
      if (/image fonts|no valid font|not available|fail/i.test(s)) problems.push(s.slice(0, 300));
    });
    MJ.Hub.Register.StartupHook("End", function () {
      MJ.Hub.Queue(function () { afterLoad(function () { verdict("typeset"); }); });
    });
  }
  var expected = !!document.querySelector('script[src*="MathJax.js"]');
  (function poll() {
    var MJ = window.MathJax;
    if (MJ && MJ.Hub && MJ.Hub.Register) { watch(MJ); return; }
    if (!expected) { afterLoad(function () { verdict("no MathJax"); }); return; }
    setTimeout(poll, 20);
  })();
  setTimeout(function () { afterLoad(function () { verdict("timeout"); }); }, TIMEOUT_MS);
})();
</script>
"""

# URLs a page would *load*: script/img/iframe/source/embed/audio/video/track src, <link href>, <object data>,
# CSS url() and @import, JavaScript import().
LOAD_PATTERNS = (
    re.compile(r"<(?:script|img|iframe|source|embed|audio|video|track|input)\b[^>]*?\ssrc\s*=\s*"
               r"[\"']?((?:https?:)?//[^\"'\s>]+)", re.I),
    re.compile(r"<link\b[^>]*?\shref\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)", re.I),
    re.compile(r"<object\b[^>]*?\sdata\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)", re.I),
    re.compile(r"url\(\s*[\"']?((?:https?:)?//[^\"')\s]+)", re.I),
    re.compile(r"@import\s+[\"']((?:https?:)?//[^\"']+)", re.I),
    re.compile(r"\bimport\(\s*[\"']((?:https?:)?//[^\"']+)", re.I),
)
# every href/src of an element: a local one (no scheme, not protocol-relative) must resolve to a file of the site
LOCAL_REF = re.compile(r"<(a|link|script|img|source|iframe|embed|video|audio|track|area)\b[^>]*?\s(?:href|src)=\"([^\"]*)\"",
                       re.I)
ID_ATTR = re.compile(r"\sid=\"([^\"]+)\"")

# ------------------------------------------------------------------------------------------- the students' site
ROOT = Path(__file__).resolve().parents[1]
LESSON_SOURCES = ROOT / "notebooks" / "lessons" / "src"
#: solution lines shorter than this are too generic to search for ("x = 1")
MIN_SOLUTION_CHARS = 12
#: solution lines that are no secret: formulas the lessons and the API reference state (Rubin's rule, Lesson 6's
#: goals and :mod:`wordbias.measures.ensemble`)
PUBLIC_LINES = frozenset({"T = W + B / m"})
SOLUTION_MARKER = re.compile(r"^\s*###\s*(BEGIN|END)\s+SOLUTION\s*$")
#: pages (and link targets) of the teachers' site only: the answer key, the teacher's guide, the lesson developers'
#: guide, the teachers' folder, and the executed or instructor lessons (solutions in)
TEACHER_TARGET = re.compile(r"(^|/)(answer_key|teaching|developing_lessons)(\.html|\.md|\.ipynb)?([#?]|$)"
                            r"|(^|/)teacher/|(^|/)_generated/lessons/|notebooks/lessons/(src/)?\d\d_[^/]*\.ipynb")
HREF = re.compile(r"\shref=\"([^\"]*)\"", re.I)
HIDDEN = re.compile(r"<(script|style)\b.*?</\1\s*>", re.I | re.S)


def find_chromium() -> str | None:
    """The headless browser: $CHROMIUM, else chromium or chromium-browser on PATH."""
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the site, as paths relative to it (Sphinx's asset folders left out)."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if not set(p.relative_to(site).parts[:-1]) & set(NOT_PAGES))


def static_problems(site: Path, page: str, text: str) -> list[str]:
    """Network loads, local links and sources that lead to no file, and anchors that do not exist, in the HTML
    source of one page (``page``: its path relative to ``site``)."""
    out = []
    for pattern in LOAD_PATTERNS:
        for match in pattern.finditer(text):
            out.append(f"{page}: loads {match.group(1)} from the network")
    here = (site / page).parent
    ids: dict[Path, set[str] | None] = {(site / page).resolve(): {html.unescape(i) for i in ID_ATTR.findall(text)}}
    for match in LOCAL_REF.finditer(text):
        ref = html.unescape(match.group(2)).strip()
        if not ref or re.match(r"^([a-z][a-z0-9+.-]*:|//)", ref, re.I):
            continue  # an URL (network loads are checked above), data:, mailto:, javascript:
        path, _, anchor = ref.partition("#")
        path = path.split("?", 1)[0]
        if ref.startswith("/"):
            out.append(f"{page}: {ref} is an absolute path, which does not work when the site is moved")
            continue
        target = (here / path).resolve() if path else (site / page).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_relative_to(site.resolve()):
            out.append(f"{page}: {ref} points outside the site")
            continue
        if not target.is_file():
            out.append(f"{page}: {match.group(1).lower()} {ref} leads to no file of the site")
            continue
        if not anchor or target.suffix != ".html":
            continue
        if target not in ids:
            ids[target] = {html.unescape(i) for i in ID_ATTR.findall(target.read_text(encoding="utf-8"))}
        if html.unescape(anchor) not in ids[target]:
            out.append(f"{page}: links to {ref}, which has no such anchor")
    return out


def normalise(text: str) -> str:
    """Runs of white space as one space, trimmed."""
    return " ".join(text.split())


def solution_lines(src: Path = LESSON_SOURCES) -> dict[str, str]:
    """Every line of 12 characters or more (whitespace-normalised) inside a solution region of the instructor
    lessons of ``src`` -> where it is ("02_x.ipynb, cell 14"); :data:`PUBLIC_LINES` left out."""
    notebooks = sorted(src.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"no instructor lessons (*.ipynb) in {src}: the students' site cannot be checked")
    out: dict[str, str] = {}
    for nb_path in notebooks:
        cells = json.loads(nb_path.read_text(encoding="utf-8")).get("cells", [])
        for index, cell in enumerate(cells):
            inside = False
            source = cell.get("source", "")
            for line in ("".join(source) if isinstance(source, list) else source).split("\n"):
                marker = SOLUTION_MARKER.match(line)
                if marker:
                    inside = marker.group(1) == "BEGIN"
                elif inside and len(normalise(line)) >= MIN_SOLUTION_CHARS and normalise(line) not in PUBLIC_LINES:
                    out.setdefault(normalise(line), f"{nb_path.name}, cell {index}")
    return out


def visible_text(text: str) -> str:
    """A page's text as a reader sees it (scripts and styles left out, tags removed, entities decoded),
    whitespace-normalised."""
    return normalise(html.unescape(re.sub(r"<[^>]+>", " ", HIDDEN.sub(" ", text))))


def student_problems(page: str, text: str, solutions: dict[str, str]) -> list[str]:
    """What one page of the students' site gives away: solution lines (``solutions``, :func:`solution_lines`),
    nbgrader's solution marker, a teachers' page or a link to one."""
    out = []
    if TEACHER_TARGET.search(page):
        out.append(f"{page}: a teachers' page on the students' site")
    shown = visible_text(text)
    # the page's text with the highlighter's spans removed without a space, as code reads
    code = normalise(html.unescape(re.sub(r"<[^>]+>", "", HIDDEN.sub(" ", text))))
    if "BEGIN SOLUTION" in shown or "END SOLUTION" in shown:
        out.append(f"{page}: shows nbgrader's solution marker (BEGIN/END SOLUTION)")
    for line, where in solutions.items():
        if line in shown or line in code:
            out.append(f"{page}: shows solution text of {where}: {line!r}")
    for href in HREF.findall(text):
        if TEACHER_TARGET.search(html.unescape(href)):
            out.append(f"{page}: links to a teachers' page: {html.unescape(href)}")
    return out


def inject(text: str, timeout_ms: int) -> str:
    """The page with the verdict script added at the end of its body."""
    script = VERDICT_SCRIPT % {"id": VERDICT_ID, "timeout": timeout_ms}
    idx = text.lower().rfind("</body>")
    if idx == -1:
        return text + script
    return text[:idx] + script + text[idx:]


def chromium_args(chromium: str, profile: Path, budget_ms: int) -> list[str]:
    return [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--mute-audio",
        f"--user-data-dir={profile}",
        '--host-resolver-rules=MAP * ~NOTFOUND',
        f"--virtual-time-budget={budget_ms}",
    ]


def browser_verdict(chromium: str, page_path: Path, budget_ms: int, timeout_s: float) -> dict:
    """Open one (injected) page in headless Chromium and return the verdict its script wrote into the DOM."""
    with tempfile.TemporaryDirectory(prefix="wb-chromium-") as profile:
        cmd = chromium_args(chromium, Path(profile), budget_ms) + ["--dump-dom", page_path.resolve().as_uri()]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return {"error": f"Chromium did not finish in {timeout_s:.0f} s"}
    match = re.search(rf'<script type="application/json" id="{VERDICT_ID}">(.*?)</script>', proc.stdout, re.S)
    if not match:
        tail = (proc.stderr or "").strip().splitlines()[-3:]
        return {"error": f"no verdict in the DOM (Chromium exit {proc.returncode}; {' | '.join(tail)})"}
    return json.loads(match.group(1))


def verdict_problems(page: str, v: dict) -> list[str]:
    """One line per problem in a page's browser verdict."""
    if "error" in v:
        return [f"{page}: {v['error']}"]
    out = []
    if v["mathjax_expected"] and not v["mathjax_loaded"]:
        out.append(f"{page}: MathJax did not load")
    if v["reason"] == "timeout":
        out.append(f"{page}: MathJax did not finish typesetting in the time budget")
    out += [f"{page}: raw math left in the text: {r}" for r in v["raw_tex"]]
    out += [f"{page}: math error: {e}" for e in v["math_errors"]]
    if v["unrendered"]:
        out.append(f"{page}: {v['unrendered']} of {v['formulas']} formulas were not rendered")
    out += [f"{page}: image failed to load: {b}" for b in v["broken_images"]]
    out += [f"{page}: requested {u} from the network" for u in v["network"]]
    return out


def screenshot(chromium: str, page_path: Path, png: Path, budget_ms: int, timeout_s: float) -> None:
    """A 1280x2000 screenshot of one page, after MathJax has run (virtual time)."""
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="wb-chromium-") as profile:
        cmd = chromium_args(chromium, Path(profile), budget_ms) + [
            f"--window-size={WINDOW}",
            f"--screenshot={png.resolve()}",
            page_path.resolve().as_uri(),
        ]
        subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, check=False)
    if not png.is_file() or png.stat().st_size == 0:
        raise RuntimeError(f"Chromium wrote no screenshot of {page_path.name} to {png}")


def check(site: Path, screenshots: Path | None = None, jobs: int = 4, budget_ms: int = 60000,
          timeout_s: float = 120.0, verbose: bool = False, only: list[str] | None = None,
          shots: dict[str, str] | None = None, student: Path | None = None) -> list[str]:
    """All problems found on the site (an empty list when it passes); ``only``: check just these pages;
    ``shots``: screenshot name -> page glob (default SCREENSHOTS); ``student``: the students' site, checked
    against the solutions of the instructor lessons in this folder (:func:`student_problems`)."""
    if not (site / "index.html").is_file():
        return [f"{site}: no index.html: not a built site (make docs)"]
    pages = site_pages(site)
    if only:
        unknown = sorted(set(only) - set(pages))
        if unknown:
            return [f"{u}: not a page of the site" for u in unknown]
        pages = [p for p in pages if p in only]
    texts = {p: (site / p).read_text(encoding="utf-8") for p in pages}
    problems = []
    solutions = solution_lines(student) if student is not None else None
    for p in pages:
        problems += static_problems(site, p, texts[p])
        if solutions is not None:
            problems += student_problems(p, texts[p], solutions)

    chromium = find_chromium()
    if chromium is None:
        problems.append("chromium is not on PATH (Debian: apt-get install chromium): the browser check cannot run")
        return problems
    with tempfile.TemporaryDirectory(prefix="wb-site-check-") as tmp:
        copy = Path(tmp) / "site"
        shutil.copytree(site, copy, ignore=shutil.ignore_patterns(".doctrees", ".buildinfo"))
        for p in pages:
            (copy / p).write_text(inject(texts[p], timeout_ms=budget_ms - 5000), encoding="utf-8")
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            results = pool.map(lambda p: browser_verdict(chromium, copy / p, budget_ms, timeout_s), pages)
            verdicts = dict(zip(pages, results))
    for p in pages:
        v = verdicts[p]
        problems += verdict_problems(p, v)
        if "error" not in v:
            print(f"  {p}: {v['formulas']} formulas, {v['images']} images"
                  + (f"; MathJax files: {', '.join(sorted(v['loaded_files']))}" if verbose else ""))

    if screenshots is not None:
        import fnmatch

        for name, pattern in (shots or SCREENSHOTS).items():
            page = next((p for p in site_pages(site) if fnmatch.fnmatch(p, pattern)), None)
            if page is None:
                problems.append(f"screenshot {name}: no page matches {pattern}")
                continue
            screenshot(chromium, site / page, screenshots / name, budget_ms, timeout_s)
            print(f"  screenshot of {page}: {screenshots / name}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default="build/docs", help="the built site (default build/docs)")
    parser.add_argument("--screenshots", type=Path,
                        help=f"save {', '.join(SCREENSHOTS)} into this folder")
    parser.add_argument("--student", action="store_true",
                        help="the students' site: also check that no page shows solution text or links a teachers' "
                             "page")
    parser.add_argument("--lessons", type=Path, default=LESSON_SOURCES,
                        help="with --student: the instructor lessons whose solutions no page may show (default "
                             "notebooks/lessons/src)")
    parser.add_argument("--jobs", type=int, default=4, help="pages checked at once (default 4)")
    parser.add_argument("--budget-ms", type=int, default=60000,
                        help="Chromium virtual-time budget per page in ms (default 60000; virtual time runs fast)")
    parser.add_argument("--verbose", action="store_true", help="list the MathJax files each page loaded")
    parser.add_argument("--page", action="append", help="check only this page, a path relative to SITE_DIR (repeatable)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        problems = check(Path(args.site), args.screenshots, args.jobs, args.budget_ms, verbose=args.verbose,
                         only=args.page, student=args.lessons if args.student else None)
    except FileNotFoundError as err:
        problems = [str(err)]
    for line in problems:
        print(f"check_site: {line}", file=sys.stderr)
    elapsed = time.perf_counter() - start
    if problems:
        print(f"check_site: FAILED, {len(problems)} problem(s) ({elapsed:.1f} s)", file=sys.stderr)
        return 1
    print(f"check_site: OK ({elapsed:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
