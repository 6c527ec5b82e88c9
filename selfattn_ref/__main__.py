"""``python -m selfattn_ref``: the command line (see :mod:`selfattn_ref.cli`)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
