"""Sphinx configuration of the wordbias documentation sites (``make docs``): the teachers' site
(``sphinx-build -W --keep-going docs build/docs``) and the students' (the same with ``-t student``, into
``build/docs-student``: the student versions of the lessons, no solutions, no teachers' pages and no links to them).

The pages are MyST Markdown (``docs/*.md``, ``docs/guide/*.md``); the paper notebooks and the lessons are rendered
by MyST-NB from their stored outputs (nothing is executed); the API reference is autodoc + numpydoc, one page per
group of ``tools/api_reference.py``; the command-line reference is the ``--help`` of ``wordbias.cli.build_parser()``.
What is generated at build start, and the offline MathJax, is the work of ``docs/_ext/wordbias_docs.py``.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(DOCS / "_ext"), str(ROOT)]  # the site's extension; tools.api_reference

import wordbias_docs  # noqa: E402

with (ROOT / "pyproject.toml").open("rb") as f:
    _project = tomllib.load(f)["project"]

project = "wordbias"
author = _project["authors"][0]["name"]
copyright = f"{author}, MIT licence"
release = version = _project["version"]
wordbias_repository = wordbias_docs.repository_url(ROOT / "pyproject.toml")
# which site: the students' under ``-t student`` (``tags`` is Sphinx's, set while it reads this file)
wordbias_audience = wordbias_docs.audience_of(tags)  # noqa: F821

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "numpydoc",
    "sphinx.ext.mathjax",
    "sphinx.ext.githubpages",
    "wordbias_docs",
]

exclude_patterns = ["_build", "screenshots", "_ext", "**/.ipynb_checkpoints",
                    *wordbias_docs.exclude_patterns(wordbias_audience)]

# ------------------------------------------------------------------------------------------------ MyST, MyST-NB
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "substitution", "attrs_inline"]
myst_heading_anchors = 3  # README-style links to a heading (page.md#a-heading) resolve
# MathJax 2 (below) is configured here, not by MyST (whose override writes a MathJax 3/4 configuration)
myst_update_mathjax = False
# {{ repository }}; {{ lessons_count }} / {{ Lessons_count }}: the number of lessons in lessons.yaml, in words
myst_substitutions = {"repository": f"[{wordbias_repository}]({wordbias_repository})",
                      **wordbias_docs.count_substitutions()}
nb_execution_mode = "off"  # the notebooks' stored outputs, as executed by `make`
nb_output_stderr = "show"
nb_merge_streams = True
# ipywidgets need a live kernel: the saved widget state is not rendered
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None),
                              ("html", "application/vnd.jupyter.widget-state+json", None)]

# ------------------------------------------------------------------------------------------------ math, offline
mathjax_path = wordbias_docs.MATHJAX_PATH  # copied into _static/mathjax from jupyter_server_mathjax
mathjax2_config = wordbias_docs.MATHJAX2_CONFIG

# ------------------------------------------------------------------------------------------------ API reference
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
autodoc_default_options = {"members": True, "show-inheritance": False}
numpydoc_show_class_members = False  # autodoc's :members: documents them once
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# ------------------------------------------------------------------------------------------------ HTML
html_theme = "furo"
html_title = "wordbias"
html_static_path: list[str] = []
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {
    "footer_icons": [{
        "name": "Source",
        "url": wordbias_repository,
        "html": "source code",
        "class": "",
    }],
}
