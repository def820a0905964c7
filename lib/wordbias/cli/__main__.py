"""``python -m wordbias.cli``: the ``wordbias`` command (:func:`wordbias.cli.run`), as ``python -m wordbias``."""
from wordbias.cli import run

if __name__ == "__main__":
    run()
