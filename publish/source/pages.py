"""A page as it is written: its front matter and its title.

The front matter is the YAML between a first line ``---`` and the next ``---`` line (MkDocs' meta
data); the audit reads its ``audit:`` key (:mod:`publish.audit.page`), the exercises their page's
sources. Lines are counted in the file, front matter included.
"""

from __future__ import annotations

import re

import yaml

# A page's front matter (its YAML is the first group).
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


def split_front_matter(text: str) -> tuple[dict, int, str]:
    """(front matter as a dict, number of lines it takes, the rest)."""
    m = FRONT_MATTER.match(text)
    if not m:
        return {}, 0, text
    meta = yaml.safe_load(m.group(1)) or {}
    return meta, m.group(0).count("\n"), text[m.end() :]


def heading(text: str) -> str | None:
    """The page's title: its first level-1 heading."""
    m = re.search(r"^# (.+)$", FRONT_MATTER.sub("", text, count=1), re.M)
    return m.group(1).strip() if m else None
