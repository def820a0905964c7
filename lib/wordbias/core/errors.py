"""The exceptions and warnings wordbias raises, in one place, so users can catch or filter them by kind.

Errors name what is wrong: the parameter or word set, the value, and what is allowed. Warnings are for
things a measure does to the user's input that change the result (words dropped or balanced out, a test
left with little power); they are ``UserWarning`` subclasses, so ``warnings.simplefilter("error",
MissingWordsWarning)`` turns them into errors.
"""
from __future__ import annotations

import os
import warnings

import yaml

__all__ = ["InvalidParameterError", "DegenerateSetError", "TooCostlyError", "ExactCountTooLarge",
           "EmbeddingFormatError", "EmbeddingNotFoundError", "GapFormatError", "CasingDataError",
           "ModelUnavailable", "ModelFileError", "SolutionMarkerError", "CheckFailed", "CommandError",
           "CacheError", "FolderNotOursError", "DiskFullError", "YamlFileError", "WordbiasWarning",
           "DuplicateWordsWarning", "MissingWordsWarning", "BalancedOutWarning", "LowPowerWarning",
           "LowCoverageWarning", "CacheRebuiltWarning"]


class InvalidParameterError(ValueError, TypeError):
    """A parameter has the wrong type or a value outside what is allowed (a ``ValueError`` and a
    ``TypeError``, as in scikit-learn, so code catching either keeps working)."""


class DegenerateSetError(ValueError):
    """A word set is empty, too small, or makes a statistic undefined."""


class TooCostlyError(ValueError):
    """A request whose time or memory is out of proportion, refused before any work, with the estimate and
    the way out."""


class EmbeddingFormatError(ValueError):
    """An embedding file is malformed: the message names the file, the line or byte offset and the reason."""


class ExactCountTooLarge(TooCostlyError):
    """The exact count would need more subset sums than its budget allows (use Monte Carlo or the normal
    approximation; :mod:`wordbias.stats.permutation`). A :class:`TooCostlyError` (hence still a ``ValueError``)."""


class EmbeddingNotFoundError(FileNotFoundError):
    """A registered embedding's file is not in the embeddings folder (the message says where to get it)."""


class GapFormatError(ValueError):
    """A GAP file that does not have the published format (the message names the file and line or ID)."""


class CasingDataError(ValueError):
    """The shipped word list is not in its documented format (the message names the file and the line)."""


class ModelUnavailable(RuntimeError):
    """The requested model (or the head it needs) is not on this machine."""


class ModelFileError(RuntimeError):
    """A model's files are on this machine but one is damaged (truncated, not JSON, not safetensors): the
    message names the file. Not a :class:`ModelUnavailable`: a damaged copy must be replaced, not skipped."""


class SolutionMarkerError(ValueError):
    """Solution markers that do not pair up, or a marked region that cannot be replaced."""


class CheckFailed(AssertionError):
    """A failed check, raised only in strict mode (:data:`wordbias.teaching.checks.STRICT_ENV`)."""


class CommandError(Exception):
    """An error of the ``wordbias`` command itself (bad output folder, a module missing), shown as one line
    (:mod:`wordbias.cli`)."""


class CacheError(RuntimeError):
    """A cache cannot be read or written safely."""


class FolderNotOursError(PermissionError):
    """wordbias was asked to remove or replace a folder it did not create (no marker file: see
    :mod:`wordbias.core.ownership`); the folder is left as it is and the message names it."""


class YamlFileError(InvalidParameterError, yaml.YAMLError):
    """A YAML file or text that cannot be read (:func:`wordbias.core.yaml_io.load_yaml`): a syntax error, text
    that is not UTF-8, a key given twice, an anchor or alias where none are allowed, nesting too deep. The
    message names the file and the line. (An :class:`InvalidParameterError` and a ``yaml.YAMLError``.)"""


class DiskFullError(OSError):
    """Writing failed because the disk is full, a quota is exceeded or the file is too large
    (:data:`wordbias.core.io_errors.DISK_FULL_ERRNOS`). An ``OSError`` with the original ``errno`` and
    ``filename`` (the path being written), whose message names the path, the free space and what to do.

    Parameters
    ----------
    message : str
        The message (``str(err)``).
    errno_ : int, optional
        The original ``errno`` (its ``os.strerror`` becomes ``strerror``).
    filename : str, optional
        The path being written.

    Examples
    --------
    >>> import errno
    >>> err = DiskFullError("no room for /tmp/x", errno.ENOSPC, "/tmp/x")
    >>> str(err), err.errno == errno.ENOSPC, err.filename, isinstance(err, OSError)
    ('no room for /tmp/x', True, '/tmp/x', True)
    """

    def __init__(self, message: str, errno_: int | None = None, filename: str | None = None):
        super().__init__(message)
        self.errno = errno_
        self.strerror = os.strerror(errno_) if errno_ is not None else None
        self.filename = filename

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "disk full"

    def __reduce__(self):
        return (type(self), (str(self), self.errno, self.filename))


class WordbiasWarning(UserWarning):
    """Base class of wordbias's warnings."""


class MissingWordsWarning(WordbiasWarning):
    """Words of a set are not in the embedding and were dropped (the set and the words are named)."""


class BalancedOutWarning(WordbiasWarning):
    """Words were removed to give two target sets equal sizes (the words are named)."""


class DuplicateWordsWarning(WordbiasWarning):
    """A word occurred more than once in an embedding file; the first occurrence was kept."""


class CacheRebuiltWarning(WordbiasWarning):
    """A cache file or folder was found damaged (wrong shape, truncated, checksum mismatch) and is being
    recomputed from its source; the message names the file and what was wrong."""


class LowPowerWarning(WordbiasWarning):
    """A test is left with so few words that it can hardly reach significance (the smallest attainable p is
    named)."""


class LowCoverageWarning(WordbiasWarning):
    """A test ran on too little of a word list: a set kept fewer than ``min_words`` of its words, or less than
    ``min_fraction`` of its list (:func:`wordbias.core.tidy.coverage_flag`; the test, the set and the counts are
    named, and the row is flagged in the ``low_coverage`` column); or a comparison measured one test on
    different words in different embeddings (:func:`wordbias.battery.compare.compare`)."""


class CorpusError(ValueError):
    """A text corpus that cannot be trained on (:mod:`wordbias.datasets.corpora`): a path that does not exist,
    an unknown shipped corpus, an empty or binary file, text not valid in the encoding (the message names the
    file and the byte offset), a selection that matches no document, or a corpus too small for the training
    settings (the message names the numbers and the setting to lower). Raised before any training."""


class EnsembleError(ValueError):
    """An ensemble folder written by :func:`wordbias.models.train.train_ensemble` whose ``manifest.json`` is
    missing, of another version, or does not match its runs (a run folder missing, a ``vectors.npy`` whose
    SHA-256 differs); the message names the file."""


class SmallCorpusWarning(WordbiasWarning):
    """A corpus with so few documents that bootstrap samples of its documents (Antoniak & Mimno 2018) can show
    little of the spread they are meant to show (the number of documents is named)."""


__all__ += ["CorpusError", "EnsembleError", "SmallCorpusWarning"]


def _format_warning(message, category, filename, lineno, line=None, _default=warnings.formatwarning):
    """Show wordbias's warnings as ``Category: message`` alone: the message names the set and the words, and
    leaving out the caller's file (a temporary file with a process id in notebooks) keeps executed notebooks
    identical from run to run. Other warnings keep Python's format."""
    if isinstance(category, type) and issubclass(category, WordbiasWarning):
        return f"{category.__name__}: {message}\n"
    return _default(message, category, filename, lineno, line)


warnings.formatwarning = _format_warning


class UnsafeFileError(EmbeddingFormatError, ModelFileError):
    """A file that would run code when opened, refused before anything of it ran: a pickle that names more than
    a gensim embedding holds (:mod:`wordbias.embeddings.safe_pickle`), a pickle under a text file's name, a model
    folder whose weights are pickled (``pytorch_model.bin``, ``*.pt``, ``*.ckpt``) rather than safetensors. The
    message names the file and what it names, and how to open a file whose author is trusted. An
    :class:`EmbeddingFormatError` and a :class:`ModelFileError`."""


__all__ += ["UnsafeFileError"]
