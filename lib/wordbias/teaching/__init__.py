"""Teaching bias measurement: the helpers of the lesson path (``notebooks/lessons/``, ``docs/teaching.md``).

* :mod:`~wordbias.teaching.checks`: exercise checks that say what is right or wrong (recognise the common
  mistakes, tell a rounding slip from a wrong method, give a hint first and a worked solution later);
* :mod:`~wordbias.teaching.explorer`: the WEAT explorer (a pure function, a seaborn bar chart of s(w, A, B) and
  an ipywidgets UI), and lesson 6's plot of a test's training runs (:func:`~wordbias.teaching.explorer.plot_runs`);
* :mod:`~wordbias.teaching.assign`: the student versions of the lessons (``python -m wordbias.teaching.assign
  SRC_DIR OUT_DIR``; nbgrader's solution markers; relative links rewritten for the output folder);
* :mod:`~wordbias.teaching.answer_key`: the teachers' answer key, read from the executed lessons
  (``python -m wordbias.teaching.answer_key notebooks/lessons docs/answer_key.md``);
* :mod:`~wordbias.teaching.sealed`: the multiple-choice answers, sealed (the right letter only as a salted hash,
  each letter's feedback encrypted with a key derived from it), so that no student-visible file holds them;
* :mod:`~wordbias.teaching.grade`: a class's notebooks graded into a table (``wordbias grade SUBMISSIONS --out
  grades.csv``: one row per student and exercise, totals, the written answers for hand grading);
* :mod:`~wordbias.teaching.syllabus`: each lesson's time in class, estimated from its words, exercises and computing;
* the paper notebooks' committed results in lesson size are the paper modules' views
  (:mod:`wordbias.papers.swinger2019`, :mod:`wordbias.papers.lesson_views`);
* :mod:`~wordbias.teaching.contextual`: lesson 5's tiny planted masked LM (built on demand; needs torch).

Only :mod:`~wordbias.teaching.contextual` touches torch (when called): lessons 1-4 and 6 run without it.
"""

__all__ = ["answer_key", "assign", "checks", "contextual", "explorer", "grade", "sealed", "syllabus"]
