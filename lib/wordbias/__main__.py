"""``python -m wordbias``: the ``wordbias`` command (:func:`wordbias.cli.main`)."""
from wordbias.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
