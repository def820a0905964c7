"""Teaching bias measurement: the helpers of the lesson path (``notebooks/lessons/``, ``docs/teaching.md``).

* :mod:`~wordbias.teaching.checks`: exercise checks that say what is right or wrong (and recognise the common
  mistakes);
* :mod:`~wordbias.teaching.explorer`: the WEAT explorer (a pure function, a seaborn bar chart of s(w, A, B) and
  an ipywidgets UI);
* :mod:`~wordbias.teaching.assign`: the student versions of the lessons (``python -m wordbias.teaching.assign
  SRC_DIR OUT_DIR``; nbgrader's solution markers);
* the paper notebooks' committed results in lesson size are the paper modules' views
  (:mod:`wordbias.papers.swinger2019`, :mod:`wordbias.papers.lesson_views`);
* :mod:`~wordbias.teaching.contextual`: lesson 5's tiny planted masked LM (built on demand; needs torch).

Only :mod:`~wordbias.teaching.contextual` touches torch (when called): lessons 1-4 run without it.
"""

__all__ = ["assign", "checks", "contextual", "explorer"]
