"""Where a paper's notebook writes its tables and figures: the committed default runs into the repository's
``results/`` and ``figures/``, every other run elsewhere, so that no run on a user's embedding overwrites a
committed file or leaves the repository's ``git status`` unclean.

:data:`COMMITTED` lists, per paper, the embeddings (or models) whose outputs are committed (the runs ``make``
regenerates). Any other run goes to ``<output>/results/<paper>/<label>`` and ``<output>/figures/<paper>/<label>``,
``output`` defaulting to :data:`wordbias.core.paths.RUNS` (``runs/`` in the repository, ignored by git;
``WORDBIAS_RUNS`` moves it). ``label`` is :func:`wordbias.embeddings.label`: a registry name, or a file's name
with a hash of its path, so two files never share a folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from wordbias.core import paths
from wordbias.core.errors import InvalidParameterError
from wordbias.core.io_errors import reraise_disk_full

__all__ = ["COMMITTED", "OutputFolders", "output_folders"]

#: paper -> the labels whose outputs are committed (the default runs of the Makefile)
COMMITTED = {
    "caliskan2017": ("glove-840b-caliskan", "glove-6b-50d"),
    "swinger2019": ("glove-6b-50d",),
    "racial_bias_report": ("glove-6b-50d",),
    "kurita2019": ("all-minilm-l6-v2", "all-minilm-l6-v2+tiny-bert-mlm"),
    "training_runs": ("brown",),
    "may2019": ("all-minilm-l6-v2", "glove-6b-50d"),
    "debias2019": ("glove-6b-50d",),
    "nangia2020": ("smollm2-135m+gemma-3-270m",),
    "nadeem2021": ("smollm2-135m+gemma-3-270m",),
    "bartl2020": ("smollm2-135m+gemma-3-270m",),
    "planted_bias": ("brown-cbow", "spacy-md"),
}


@dataclass(frozen=True)
class OutputFolders:
    """The folders one run writes to, and whether they are the repository's committed ones.

    Attributes
    ----------
    results : pathlib.Path
        The tables' folder.
    figures : pathlib.Path
        The figures' folder.
    committed : bool
        Whether these are the repository's committed ``results/`` and ``figures/`` folders.
    """

    results: Path
    figures: Path
    committed: bool

    def describe(self) -> str:
        """One line saying where the run writes.

        Paths are relative to the repository when inside it (so that an executed notebook's text does not depend on
        where the repository was cloned).

        Returns
        -------
        str
            The line.
        """
        def show(p: Path) -> str:
            try:
                return p.resolve().relative_to(paths.ROOT.resolve()).as_posix()
            except ValueError:
                return str(p)
        return (f"tables to {show(self.results)}/, figures to {show(self.figures)}/"
                + ("" if self.committed else " (not the committed folders)"))

    def make(self) -> OutputFolders:
        """Create both folders (and parents).

        Returns
        -------
        OutputFolders
            ``self``.

        Raises
        ------
        DiskFullError
            When the disk is full (:class:`~wordbias.core.errors.DiskFullError`, naming the folder).
        """
        for folder, what in ((self.results, "the results folder"), (self.figures, "the figures folder")):
            with reraise_disk_full(folder, what):
                folder.mkdir(parents=True, exist_ok=True)
        return self


def output_folders(paper: str, label: str, output: str | Path | None = None) -> OutputFolders:
    """The results and figures folders of a run of ``paper`` on the embedding labelled ``label``.

    Parameters
    ----------
    paper : str
        A paper of :data:`COMMITTED`.
    label : str
        The embedding's label (:func:`wordbias.embeddings.label`), a folder name.
    output : str or path-like or None, default None
        Given: ``output/results/<paper>/<label>`` and ``output/figures/<paper>/<label>`` (never the committed
        folders, even for a default label); ``output`` is checked by
        :func:`wordbias.core.paths.check_output_dir` (not empty, not the checkout's root, the home folder or
        ``/``, not inside the package, the data or the repository's ``results/`` and ``figures/``, not a file).
        ``None``: the repository's ``results/`` and ``figures/`` for a label in :data:`COMMITTED`, else the same
        layout under :data:`wordbias.core.paths.RUNS`.

    Returns
    -------
    OutputFolders
        The two folders (not created; :meth:`OutputFolders.make` creates them).

    Raises
    ------
    InvalidParameterError
        When ``paper`` is not in :data:`COMMITTED`, ``label`` is not a folder name, or ``output`` is refused.

    Examples
    --------
    >>> f = output_folders("caliskan2017", "glove-6b-50d")
    >>> f.committed, f.results.relative_to(paths.ROOT).as_posix()
    (True, 'results/caliskan2017/glove-6b-50d')
    >>> f = output_folders("caliskan2017", "mine-1c192061")
    >>> f.committed, f.figures.relative_to(paths.RUNS).as_posix()
    (False, 'figures/caliskan2017/mine-1c192061')
    >>> output_folders("caliskan2017", "glove-6b-50d", "/tmp/out").results.as_posix()
    '/tmp/out/results/caliskan2017/glove-6b-50d'
    >>> output_folders("caliskan2017", "glove-6b-50d").describe()
    'tables to results/caliskan2017/glove-6b-50d/, figures to figures/caliskan2017/glove-6b-50d/'
    """
    if paper not in COMMITTED:
        raise InvalidParameterError(f"paper must be one of {sorted(COMMITTED)}, not {paper!r}")
    if not isinstance(label, str) or not label or "/" in label or "\\" in label or label in (".", ".."):
        raise InvalidParameterError(f"label must be a folder name (wordbias.embeddings.label), not {label!r}")
    if output is not None:
        paths.check_output_dir(output, what="output")
        root = Path(output).expanduser()
        return OutputFolders(root / "results" / paper / label, root / "figures" / paper / label, False)
    if label in COMMITTED[paper]:
        return OutputFolders(paths.RESULTS / paper / label, paths.FIGURES / paper / label, True)
    return OutputFolders(paths.RUNS / "results" / paper / label, paths.RUNS / "figures" / paper / label, False)
