"""A page as it is written: its front matter and its title.

The front matter is MkDocs' meta data: the YAML between a first line ``---`` and the next ``---``
(or ``...``) line, read by MkDocs' own reader (:func:`mkdocs.utils.meta.get_data`), so that a tool
reads a page's meta data exactly as the build does (YAML that is not a mapping, or does not parse,
is no meta data to either). The audit reads its ``audit:`` key (:mod:`publish.audit.page`), the
exercises their page's sources. Lines are counted in the file, front matter included.
"""

from __future__ import annotations

import re

from mkdocs.utils.meta import get_data


def split_front_matter(text: str) -> tuple[dict, int, str]:
    """(front matter as a dict, number of lines before the rest, the rest: the page after its front
    matter and the blank lines that follow it, as MkDocs renders it)."""
    rest, meta = get_data(text)
    if not meta:
        return {}, 0, text
    return meta, text.count("\n") - rest.count("\n"), rest


def heading(text: str) -> str | None:
    """The page's title: its first level-1 heading."""
    m = re.search(r"^# (.+)$", split_front_matter(text)[2], re.M)
    return m.group(1).strip() if m else None
