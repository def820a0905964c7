"""``python -m wordbias``: the ``wordbias`` command (:func:`wordbias.cli.run`)."""
from wordbias.cli import run

if __name__ == "__main__":
    run()
