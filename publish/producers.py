"""Every module that registers generated files (:mod:`.registry`), imported in one place.

The registry imports no producer, and no producer imports this module: it is imported by the
registry's readers (``make update``, the build hook, the tests), so imports run one way only.
A new topic under ``publish/sources/`` is one new file: :func:`publish.sources.load_all` imports
every module of that folder.
"""

from __future__ import annotations

from . import diagrams, example_pages, notebooks, playground_limits, registry, tables  # noqa: F401 - they register
from .sources import load_all as _load_sources


def load() -> None:
    """Import every producer (once); afterwards :func:`.registry.generate` knows every file."""
    _load_sources()


def generate(every: list | None = None, **kwargs) -> dict:
    """Every generated file, by path, for ``every`` (default: the worked examples as they are)."""
    from selfattn_ref import examples

    load()
    return registry.generate(examples.load_all() if every is None else every, **kwargs)
