"""One module a topic page (a page whose numbers come from a computation other than a worked
example), named after its computation in ``selfattn_ref/topics/`` or ``selfattn_ref/training/``:
what the page may quote (an audit source) and the tables and records ``make update`` writes for it.
(``language_model`` records the small language model's training run; its pages are to come.)

A module here registers what a page may quote with :func:`publish.audit.quantities.source`
and what ``make update`` writes with :func:`publish.generate.registry.generated`. Every
module in this folder is imported when the registries are first used, so a new topic is one
new file.
"""

import importlib
import os
import pkgutil

_imported_at: int | None = None  # the folder's modification time when its modules were imported


def load_all() -> None:
    """Import every module of this folder; again only once a file has been added or removed (the
    numbers audit asks for the sources on every claim, thousands of times in a run of the tests)."""
    global _imported_at
    stamp = os.stat(__path__[0]).st_mtime_ns
    if stamp == _imported_at:
        return
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    _imported_at = stamp
