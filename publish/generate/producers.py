"""Every module that registers generated files (:mod:`.registry`), imported in one place.

The registry imports no producer, and no producer imports this module: it is imported by the
registry's readers (``make update``, the build hook, the tests), so imports run one way only.
The producers are the modules of this folder, ``publish/generate/``: the worked examples' files,
the notebooks, the exercises' blocks, the playground's files, CONTRIBUTING's table of retired words
and add-an-example's messages, each imported here; and the topics' modules,
``publish/generate/topics/``, one a page (what it may quote, its tables and records): a new topic is
one new file there, which :func:`publish.generate.topics.load_all` imports with the others.
"""

from __future__ import annotations

from . import (  # noqa: F401 - they register
    diagrams,
    example_pages,
    exercises,
    notebooks,
    notebooks_index,
    playground,
    playground_limits,
    registry,
    retired_table,
    spec_messages,
    tables,
)
from .topics import load_all as _load_topics


def load() -> None:
    """Import every producer (once); afterwards :func:`.registry.generate` knows every file."""
    _load_topics()


def generate(every: list | None = None, **kwargs) -> dict:
    """Every generated file, by path, for ``every`` (default: the worked examples as they are)."""
    from selfattn_ref import examples

    load()
    return registry.generate(examples.load_all() if every is None else every, **kwargs)
