"""A page as it is written: its front matter, its title, and its structure as the tools that read
pages share it (the numbers audit, the words checks, the notebooks): which lines are fenced code,
and the one expression each of a fence, a comment, a code span and inline math (an include is
read by pymdownx.snippets' own: :mod:`publish.source.includes`).

The front matter is MkDocs' meta data: the YAML between a first line ``---`` and the next ``---``
(or ``...``) line, read by MkDocs' own reader (:func:`mkdocs.utils.meta.get_data`), so that a tool
reads a page's meta data exactly as the build does (YAML that is not a mapping, or does not parse,
is no meta data to either). The audit reads its ``audit:`` key (:mod:`publish.audit.page`), the
exercises their page's sources. Lines are counted in the file, front matter included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mkdocs.utils.meta import get_data

# A fence's opening or closing line (its backticks or tildes are the first group).
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
COMMENT = re.compile(r"<!--.*?-->")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")  # inline code, its backticks matched
INLINE_MATH = re.compile(r"(?<!\\)\$(?!\$)(.+?)(?<!\\)\$")  # $...$ (not $$), its TeX the first group


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


@dataclass(frozen=True)
class Line:
    number: int  # in the file, front matter included
    text: str
    fenced: bool  # a fence's opening or closing line, or a line of fenced code


def body_lines(text: str) -> list[Line]:
    """Every line of the page after its front matter, each marked fenced or not. A fence closes at a
    line of the same character at least as long as its opening (CommonMark's rule, superfences')."""
    _, front_lines, body = split_front_matter(text)
    out, fence = [], None
    for offset, raw in enumerate(body.split("\n")):
        m = FENCE.match(raw)
        opens = fence is None and m is not None
        if fence is not None and m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
            out.append(Line(front_lines + 1 + offset, raw, True))
            fence = None
            continue
        if opens:
            fence = m.group(1)
        out.append(Line(front_lines + 1 + offset, raw, fence is not None))
    return out
