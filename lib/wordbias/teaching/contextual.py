"""Lesson 5's models: the bundled MiniLM encoder and the tiny planted masked LM (needs torch and transformers).

:func:`tiny_mlm_folder` returns the folder of the tiny BERT masked LM with a planted bias
(:mod:`wordbias.models.tiny_mlm`: career words male, family words female), building it there first when it is
missing (``make`` builds it at ``build/tiny-bert-mlm``; building takes a few seconds, offline).
"""

from __future__ import annotations

from pathlib import Path

from wordbias.core import paths

__all__ = ["DEFAULT_TINY_MLM", "tiny_mlm_folder"]

#: where ``make`` builds the tiny planted masked LM
DEFAULT_TINY_MLM = paths.ROOT / "build" / "tiny-bert-mlm"


def tiny_mlm_folder(folder: str | Path | None = None) -> Path:
    """The folder holding the tiny planted masked LM, built there first when it has no ``config.json``.

    Parameters
    ----------
    folder : str or Path or None
        The folder; None for :data:`DEFAULT_TINY_MLM`. A folder without ``config.json`` gets the model built by
        :func:`wordbias.models.tiny_mlm.main` (the Makefile's model).

    Returns
    -------
    Path
        The folder.
    """
    folder = Path(folder) if folder is not None else DEFAULT_TINY_MLM
    if not (folder / "config.json").is_file():
        from wordbias.models import tiny_mlm

        tiny_mlm.main([str(folder)])
    return folder
