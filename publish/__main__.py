"""``python -m publish``: the contributors' command line (see :mod:`publish.cli`)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
