"""Audit sources and generated files that are not worked examples, one module a topic.

A module here registers what a page may quote with :func:`publish.quantities.source`
and what ``make update`` writes with :func:`publish.registry.generated`. Every
module in this folder is imported when the registries are first used, so a new topic is one
new file.
"""

import importlib
import pkgutil


def load_all() -> None:
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
