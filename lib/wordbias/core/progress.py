"""Progress bars: one idiom for every long step (tqdm on stderr, or a silent stand-in)."""
from __future__ import annotations

import warnings


class _NoBar:
    """The silent stand-in for a tqdm bar: same methods, does nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


def progress_bar(total: int | None, *, desc: str, unit: str = "it", enabled: bool = True, leave: bool = False,
                 **options):
    """Return a tqdm bar over ``total`` units of work, or a silent stand-in when ``enabled`` is false.

    Use it as a context manager and call ``update(n)``.

    Parameters
    ----------
    total : int or None
        The units of work (None: unknown).
    desc : str
        The bar's label.
    unit : str, default "it"
        The name of a unit.
    enabled : bool, default True
        Whether to show a bar; ``False`` returns a stand-in whose methods do nothing.
    leave : bool, default False
        Whether the bar stays on screen when done.
    **options
        Further options of tqdm (``unit_scale``...).

    Returns
    -------
    tqdm.tqdm or object
        The bar (``tqdm.auto.tqdm``, on stderr), or the silent stand-in with the same ``update``, ``close``
        and context-manager methods.

    Examples
    --------
    >>> with progress_bar(3, desc="words", enabled=False) as bar:
    ...     for _ in range(3):
    ...         bar.update(1)
    """
    if not enabled:
        return _NoBar()
    with warnings.catch_warnings():  # tqdm.auto warns in notebooks without ipywidgets; a text bar is fine
        warnings.simplefilter("ignore")
        from tqdm.auto import tqdm
    return tqdm(total=total, desc=desc, unit=unit, leave=leave, **options)
