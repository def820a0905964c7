"""Student versions of the lessons: solutions replaced by placeholders, outputs cleared.

The instructor sources (``notebooks/lessons/src/*.ipynb``) hold the solutions in code cells between nbgrader's
solution markers, the lines ``BEGIN`` and ``END`` ("Autograded answer" cells,
https://nbgrader.readthedocs.io), and such cells carry the cell tag ``solution``. :func:`student_source` replaces
each marked region by one placeholder line per assignment it makes, keeping the target (``d = ...  # your answer
here``), or by ``...  # your answer here`` when it assigns nothing; :func:`student_notebook` does it for every cell
and clears the outputs; ``python -m wordbias.teaching.assign SRC_DIR OUT_DIR`` writes every notebook of SRC_DIR to
OUT_DIR and nothing anywhere else (:func:`assign_dir`), with the relative links of its markdown cells rewritten for
OUT_DIR (:func:`relink_notebook`): in the student versions a link to the teachers' pages leads to the students'
page instead (:data:`STUDENT_LINKS`), and where OUT_DIR is outside the checkout (a course folder) a link into the
checkout leads to the published site's page or the repository's file (:func:`public_url`), never to a path of the
teacher's machine. ``python -m wordbias.teaching.assign --relink-from SRC_DIR NOTEBOOK...`` rewrites, in place, the
links of the notebooks given, executed from SRC_DIR into another folder (the Makefile runs it on the executed
lessons).
A marker without its pair, a nested BEGIN, a solution that is not valid Python, a marked cell without the tag or
a tagged cell without markers is an error naming the notebook, the cell and the line.

Because the markers are nbgrader's, the same sources can be released with nbgrader instead (see the teacher's
guide).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from wordbias.core.errors import InvalidParameterError, SolutionMarkerError

__all__ = ["BEGIN", "END", "PLACEHOLDER", "SOLUTION_TAG", "STUDENT_LINKS", "student_source", "student_notebook",
           "student_links", "project_urls", "public_url", "relink_source", "relink_notebook", "assign_dir", "main"]

# the lines that open and close a solution region (nbgrader's; not spelled out in the docs, which the students'
# site shows: the site check refuses the marker's text there)
BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
#: what a marked region becomes (after the ``target =`` of a cell that assigns)
PLACEHOLDER = "...  # your answer here"
#: the cell tag of a cell holding a solution
SOLUTION_TAG = "solution"

_MARKER = re.compile(r"^\s*###\s*(BEGIN|END)\s+SOLUTION\s*$")


def _placeholders(region: list[str], where: str) -> list[str]:
    """One placeholder line per top-level assignment of ``region`` (its targets kept), at its indentation."""
    code = textwrap.dedent("\n".join(region))
    indent = next((re.match(r"\s*", line).group(0) for line in region if line.strip()), "")
    try:
        tree = ast.parse(code)
    except SyntaxError as err:
        raise SolutionMarkerError(f"{where}: the solution is not valid Python ({err.msg}, line {err.lineno} of the "
                                  "region), so its assignment targets cannot be kept") from None
    lines = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            lines.append(" = ".join(ast.unparse(t) for t in node.targets) + " = " + PLACEHOLDER)
        elif isinstance(node, ast.AnnAssign):
            lines.append(f"{ast.unparse(node.target)}: {ast.unparse(node.annotation)} = {PLACEHOLDER}")
        elif isinstance(node, ast.AugAssign):
            lines.append(f"{ast.unparse(node.target)} = {PLACEHOLDER}")
    lines = list(dict.fromkeys(lines)) or [PLACEHOLDER]
    return [indent + line for line in lines]


def student_source(source: str, where: str = "cell") -> str:
    """A cell's source with its solutions replaced by placeholders.

    Every region from a ``BEGIN`` line to an ``END`` line (markers included) becomes placeholders that keep
    the assignment targets.

    Parameters
    ----------
    source : str
        The cell's source.
    where : str
        The cell's name in error messages ("lesson.ipynb, cell 4").

    Returns
    -------
    str
        The student's source.

    Raises
    ------
    SolutionMarkerError
        Unpaired or nested markers, or a region that is not valid Python (naming ``where`` and the line).

    Examples
    --------
    >>> print(student_source(f"x = 1\\n{BEGIN}\\nd = (a - b) / s\\n{END}\\nprint(d)"))
    x = 1
    d = ...  # your answer here
    print(d)
    """
    out: list[str] = []
    region: list[str] | None = None
    start = 0
    for i, line in enumerate(source.split("\n"), start=1):
        m = _MARKER.match(line)
        if m and m.group(1) == "BEGIN":
            if region is not None:
                raise SolutionMarkerError(f"{where}, line {i}: {BEGIN} inside the region opened on line {start} "
                                          f"(close it with {END} first)")
            region, start = [], i
        elif m:
            if region is None:
                raise SolutionMarkerError(f"{where}, line {i}: {END} without a {BEGIN} before it")
            out += _placeholders(region, f"{where}, lines {start}-{i}")
            region = None
        elif region is not None:
            region.append(line)
        else:
            out.append(line)
    if region is not None:
        raise SolutionMarkerError(f"{where}, line {start}: {BEGIN} without an {END} after it")
    return "\n".join(out)


#: the kernel the student versions ask for: Jupyter's default Python kernel, present in every environment
STUDENT_KERNEL = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def _has_markers(source: str) -> bool:
    return any(_MARKER.match(line) for line in source.split("\n"))


def student_notebook(nb: dict, name: str = "notebook") -> dict:
    """The student version of a notebook.

    Solutions replaced in code cells, every output and execution count cleared, papermill's metadata dropped,
    and the kernel set to the generic :data:`STUDENT_KERNEL` (``python3``: the kernel of whatever environment
    Jupyter, Binder or Colab runs in, where the sources name the ``wordbias`` kernel that ``make env``
    registers). A code cell with markers must carry the ``solution`` tag and a cell with the tag must have
    markers; markers in a markdown cell are refused (the lessons keep written answers in code cells, as strings).

    Parameters
    ----------
    nb : dict
        The instructor notebook (nbformat 4, as parsed JSON); not modified.
    name : str
        The notebook's name in error messages.

    Returns
    -------
    dict
        The student notebook.

    Raises
    ------
    SolutionMarkerError
        Markers that do not pair up, markers without the tag, or the tag without markers.
    """
    nb = copy.deepcopy(nb)
    nb.get("metadata", {}).pop("papermill", None)
    nb.setdefault("metadata", {})["kernelspec"] = dict(STUDENT_KERNEL)
    for index, cell in enumerate(nb.get("cells", [])):
        where = f"{name}, cell {index}"
        source = "".join(cell.get("source", ""))
        tags = cell.get("metadata", {}).get("tags", [])
        marked = _has_markers(source)
        if cell.get("cell_type") != "code":
            if marked:
                raise SolutionMarkerError(f"{where}: solution markers in a {cell.get('cell_type')} cell; put "
                                          "solutions in code cells")
            continue
        if marked and SOLUTION_TAG not in tags:
            raise SolutionMarkerError(f"{where}: has solution markers but not the cell tag {SOLUTION_TAG!r}")
        if SOLUTION_TAG in tags and not marked:
            raise SolutionMarkerError(f"{where}: tagged {SOLUTION_TAG!r} but has no {BEGIN} ... {END} region")
        if marked:
            cell["source"] = student_source(source, where)
        cell["outputs"] = []
        cell["execution_count"] = None
        cell.get("metadata", {}).pop("papermill", None)
        cell.get("metadata", {}).pop("execution", None)
    return nb


#: a markdown link or image target, ``[text](target)``, and an HTML ``href``/``src`` attribute
_LINK = re.compile(r"(?P<head>\]\(\s*<?)(?P<target>[^)\s>]+)|(?P<attr>\b(?:href|src)=[\"'])(?P<atarget>[^\"']+)")
#: a whole markdown link, ``[text](target)`` (for the student versions' links to the teachers' pages)
_MD_LINK = re.compile(r"(?<!!)\[(?P<text>[^\[\]]*)\]\(\s*<?(?P<target>[^)\s>]+)>?\)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")

#: the teachers' pages of the documentation (in ``docs/``): a student version links none of them
TEACHER_PAGES = ("teaching.md", "answer_key.md", "developing_lessons.md")
#: the teachers' folder of the documentation (``docs/teacher/``)
TEACHER_FOLDER = "teacher"
#: in a student version, a link to a teachers' page leads to the students' page of the same ``docs/``, with this text
STUDENT_LINKS = ("syllabus.md", "syllabus")


def _is_relative(target: str) -> bool:
    return bool(target) and not (_SCHEME.match(target) or target.startswith(("#", "/", "\\")))


def _teacher_page(path: Path) -> Path | None:
    """The ``docs/`` folder when ``path`` is one of its teachers' pages (or in ``docs/teacher/``), else None."""
    parts = path.parts
    for i, part in enumerate(parts[:-1]):
        last = i + 2 == len(parts)
        if part == "docs" and (parts[i + 1] == TEACHER_FOLDER or (last and parts[i + 1] in TEACHER_PAGES)):
            return Path(*parts[:i + 1])
    return None


def student_links(text: str, src_dir: str | Path) -> str:
    """Markdown written in ``src_dir`` with every link to a teachers' page pointed at the students' page instead.

    A link (``[teacher's guide](../../../docs/teaching.md)``, or an HTML ``href``) to the teacher's guide, the answer
    key, the lesson developers' guide or a page of ``docs/teacher/`` becomes a link to ``docs/syllabus.md``
    (:data:`STUDENT_LINKS`) of the same ``docs/`` folder; a markdown link's text becomes "syllabus". Other links
    are kept.

    Parameters
    ----------
    text : str
        The markdown.
    src_dir : str or Path
        The folder the links were written for.

    Returns
    -------
    str
        The markdown, linking no teachers' page.

    Examples
    --------
    >>> student_links("([teacher's guide](../../../docs/teaching.md#grading))", "/course/notebooks/lessons/src")
    '([syllabus](../../../docs/syllabus.md))'
    """
    src_dir = Path(os.path.abspath(src_dir))
    page, label = STUDENT_LINKS

    def retarget(target: str) -> str | None:
        if not _is_relative(target):
            return None
        docs = _teacher_page(Path(os.path.normpath(src_dir / target.partition("#")[0])))
        return None if docs is None else os.path.relpath(docs / page, src_dir).replace(os.sep, "/")

    def markdown(m: re.Match) -> str:
        new = retarget(m.group("target"))
        return m.group(0) if new is None else f"[{label}]({new})"

    def attribute(m: re.Match) -> str:
        new = retarget(m.group("atarget")) if m.group("attr") else None
        return m.group(0) if new is None else m.group("attr") + new

    return _LINK.sub(attribute, _MD_LINK.sub(markdown, text))


def _checkout() -> Path | None:
    """The root of the checkout the package runs from (None for an installed wheel)."""
    from wordbias.core import paths

    return Path(paths.ROOT).resolve() if paths.IN_CHECKOUT else None


def project_urls() -> dict[str, str]:
    """The project's addresses, ``[project.urls]`` of ``pyproject.toml`` (an installed wheel: its metadata).

    Returns
    -------
    dict of str to str
        Name (``Repository``, ``Documentation``) -> address, without a trailing ``/``.
    """
    root = _checkout()
    if root is not None and (root / "pyproject.toml").is_file():
        import tomllib

        with (root / "pyproject.toml").open("rb") as f:
            urls = tomllib.load(f).get("project", {}).get("urls", {})
    else:
        from importlib import metadata

        entries = metadata.metadata("wordbias").get_all("Project-URL") or []
        urls = dict(e.split(", ", 1) for e in entries if ", " in e)
    return {name: url.rstrip("/") for name, url in urls.items()}


def public_url(path: str | Path, fragment: str = "") -> str:
    """The published address of a file of the checkout, for a notebook written outside it.

    A page of ``docs/`` (``docs/NAME.md``) is its page on the documentation site (``[project.urls]
    Documentation``: ``.../NAME.html``); any other file or folder is its address in the repository
    (``Repository``: ``.../blob/main/PATH`` or ``.../tree/main/PATH``).

    Parameters
    ----------
    path : str or Path
        The file or folder, relative to the checkout's root (or absolute, inside it).
    fragment : str
        An anchor to keep (without ``#``).

    Returns
    -------
    str
        The address.

    Raises
    ------
    InvalidParameterError
        When the path is outside the checkout, or the project declares no such address.

    Examples
    --------
    >>> public_url("docs/syllabus.md")
    'https://wordbias.github.io/wordbias/syllabus.html'
    """
    root = _checkout() or Path.cwd()
    path = Path(path)
    full = (root / path).resolve() if not path.is_absolute() else path.resolve()
    if not full.is_relative_to(root):
        raise InvalidParameterError(f"{path} is not a file of the checkout {root}: it has no published address")
    rel = full.relative_to(root).as_posix()
    urls = project_urls()
    docs = rel.startswith("docs/") and rel.endswith(".md")
    key = "Documentation" if docs else "Repository"
    if key not in urls:
        raise InvalidParameterError(f"pyproject.toml's [project.urls] has no {key}: {rel} has no published address")
    if docs:
        url = f"{urls[key]}/{rel.removeprefix('docs/').removesuffix('.md')}.html"
    else:
        url = f"{urls[key]}/{'tree' if full.is_dir() else 'blob'}/main/{quote(rel)}"
    return url + (f"#{fragment}" if fragment else "")


def relink_source(text: str, src_dir: str | Path, out_dir: str | Path) -> str:
    """A markdown text with its relative links rewritten for a notebook moved from ``src_dir`` to ``out_dir``.

    A relative link (``[guide](../../../docs/teaching.md)``, an image, an HTML ``href`` or ``src``) whose target
    exists from ``src_dir`` and not from ``out_dir`` is rewritten to reach the same file from ``out_dir``, or,
    when the target is in the checkout and ``out_dir`` is not (a course folder elsewhere), to its published address
    (:func:`public_url`); links that already resolve from ``out_dir``, absolute ones (``https:``, ``/``) and
    anchors (``#``) are kept, so rewriting twice changes nothing.

    Parameters
    ----------
    text : str
        The markdown.
    src_dir : str or Path
        The folder the links were written for.
    out_dir : str or Path
        The folder the notebook is in now.

    Returns
    -------
    str
        The markdown with the links rewritten.

    Examples
    --------
    >>> from wordbias.core import paths
    >>> lessons = paths.ROOT / "notebooks" / "lessons"
    >>> relink_source("[guide](../../../docs/teaching.md#grading)", lessons / "src", lessons)
    '[guide](../../docs/teaching.md#grading)'
    """
    src_dir, out_dir = Path(src_dir), Path(out_dir)
    root = _checkout()
    elsewhere = root is not None and not out_dir.resolve().is_relative_to(root)

    def fix(target: str) -> str:
        if not _is_relative(target):
            return target
        path, sep, fragment = target.partition("#")
        if not path or (out_dir / path).exists() or not (src_dir / path).exists():
            return target
        resolved = (src_dir / path).resolve()
        if elsewhere and resolved.is_relative_to(root):
            return public_url(resolved, fragment)
        moved = os.path.relpath(resolved, out_dir.resolve()).replace(os.sep, "/")
        return moved + sep + fragment

    def replace(m: re.Match) -> str:
        if m.group("head") is not None:
            return m.group("head") + fix(m.group("target"))
        return m.group("attr") + fix(m.group("atarget"))

    return _LINK.sub(replace, text)


def relink_notebook(nb: dict, src_dir: str | Path, out_dir: str | Path, *, student: bool = False) -> dict:
    """A notebook with the relative links of its markdown cells rewritten for ``out_dir`` (:func:`relink_source`).

    Parameters
    ----------
    nb : dict
        The notebook (nbformat 4, as parsed JSON); not modified.
    src_dir : str or Path
        The folder its links were written for.
    out_dir : str or Path
        The folder it is written to.
    student : bool, default False
        A student version: its links to the teachers' pages lead to the students' page first
        (:func:`student_links`).

    Returns
    -------
    dict
        The notebook with the links rewritten.
    """
    nb = copy.deepcopy(nb)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = "".join(cell.get("source", ""))
            fixed = relink_source(student_links(source, src_dir) if student else source, src_dir, out_dir)
            if fixed != source:
                cell["source"] = fixed
    return nb


def _overwrite_problem(path: Path) -> str | None:
    """Why the student version must not be written to ``path``: a link (the write would land outside the output
    folder) or a notebook that holds solutions (an instructor source or an executed lesson); else None."""
    if path.is_symlink():
        return f"{path} is a link to {path.resolve()}: assign writes only into the output folder; remove the link"
    if path.is_file():
        try:
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        except (ValueError, UnicodeDecodeError):
            return None
        if any(c.get("cell_type") == "code" and _has_markers("".join(c.get("source", ""))) for c in cells):
            return (f"{path} holds solutions (an instructor or executed lesson): give an output folder of student "
                    "versions")
    return None


def assign_dir(src: str | Path, out: str | Path) -> list[Path]:
    """Write the student version of every ``*.ipynb`` of ``src`` (sorted) to ``out`` (created).

    Every notebook is checked before any is written, and nothing is written outside ``out``: relative links are
    rewritten to resolve from ``out`` (to the published site or repository when ``out`` is outside the checkout:
    :func:`relink_source`), links to the teachers' pages lead to the students' page (:func:`student_links`), and a
    notebook of ``out`` that is a link, or that holds solutions, is not written over.

    Parameters
    ----------
    src : str or Path
        The folder of instructor notebooks.
    out : str or Path
        The folder to write the student notebooks to (not ``src``).

    Returns
    -------
    list of Path
        The paths written.

    Raises
    ------
    FileNotFoundError
        When ``src`` is not a folder or holds no notebook.
    ValueError
        When ``out`` is ``src``, or a notebook of ``out`` is a link or holds solutions.
    SolutionMarkerError
        When a notebook's solution markers are wrong.
    """
    src, out = Path(src), Path(out)
    if not src.is_dir():
        raise FileNotFoundError(f"{src} is not a folder of instructor notebooks")
    if src.resolve() == out.resolve():
        raise ValueError(f"the output folder {out} is the source folder: the solutions would be overwritten")
    notebooks = sorted(src.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"no .ipynb in {src}")
    students = [(p.name, relink_notebook(student_notebook(json.loads(p.read_text(encoding="utf-8")), p.name), src, out,
                                         student=True))
                for p in notebooks]
    problems = [msg for name, _ in students if (msg := _overwrite_problem(out / name))]
    if problems:
        raise ValueError(problems[0])
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, nb in students:
        path = out / name
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _relink_in_place(src_dir: Path, notebooks: Sequence[str]) -> list[Path]:
    written = []
    for name in notebooks:
        path = Path(name)
        nb = json.loads(path.read_text(encoding="utf-8"))
        fixed = relink_notebook(nb, src_dir, path.parent)
        if fixed != nb:
            path.write_text(json.dumps(fixed, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``python -m wordbias.teaching.assign SRC_DIR OUT_DIR`` (or ``--relink-from SRC_DIR NOTEBOOK...``).

    Parameters
    ----------
    argv : sequence of str or None
        As for :func:`wordbias.teaching.answer_key.main`.
    """
    ap = argparse.ArgumentParser(prog="python -m wordbias.teaching.assign",
                                 description="write the student versions of the lessons (solutions replaced by "
                                             "placeholders, outputs cleared, relative links rewritten)")
    ap.add_argument("src", help="folder of instructor notebooks (e.g. notebooks/lessons/src)")
    ap.add_argument("out", nargs="+", help="folder to write the student notebooks to (e.g. "
                                           "notebooks/lessons/student); with --relink-from, the notebooks to relink")
    ap.add_argument("--relink-from", action="store_true",
                    help="only rewrite the relative links of the notebooks given, in place, as moved from SRC (the "
                         "executed lessons: python -m wordbias.teaching.assign --relink-from notebooks/lessons/src "
                         "notebooks/lessons/01_words_as_vectors.ipynb)")
    args = ap.parse_args(argv)
    if args.relink_from:
        for path in _relink_in_place(Path(args.src), args.out):
            print(path)
        return
    if len(args.out) != 1:
        ap.exit(2, "error: give one output folder\n")
    args.out = args.out[0]
    try:
        written = assign_dir(args.src, args.out)
    except (SolutionMarkerError, FileNotFoundError, ValueError) as err:
        ap.exit(2, f"error: {err}\n")
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
