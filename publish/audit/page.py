"""Reading a page as the audit sees it: its front matter, and the lines of prose it checks.

The audit reads the Markdown as written: prose, inline code and math, not fenced code and not
``--8<--`` includes (files the tests check on their own). Markup that carries no number is
stripped; a claim (``{{...}}``, see :mod:`publish.audit.claims`) is kept, and a line that
declares the source of the claims below it (``<!-- audit source: bank_of_river -->``) sets
:attr:`Line.source`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..source import includes
from ..source.pages import CODE_SPAN, body_lines, split_front_matter
from .claims import CLAIM, CLOSE, OPEN
from .quantities import quantities


class AuditConfigError(ValueError):
    """The page's front matter, or a source declaration in it, does not say what the audit needs."""


@dataclass(frozen=True)
class Constant:
    text: str
    reason: str


@dataclass(frozen=True)
class PageSpec:
    sources: tuple[str, ...]  # the sources the page's claims may name
    constants: tuple[Constant, ...]


@dataclass(frozen=True)
class Line:
    number: int  # in the file, front matter included
    text: str  # markup stripped, claims kept (as OPEN ... CLOSE)
    source: str | None  # the source a claim without one names: the last declaration above, or the page's only one


@dataclass(frozen=True)
class Page:
    name: str
    spec: PageSpec
    lines: tuple[Line, ...]


def page_spec(meta: dict, page: str) -> PageSpec:
    audit = meta.get("audit") or {}
    if not isinstance(audit, dict):
        raise AuditConfigError(f"{page}: front matter 'audit' must be a mapping with 'sources' and 'constants'")
    unknown = set(audit) - {"sources", "constants"}
    if unknown:
        raise AuditConfigError(f"{page}: unknown key 'audit.{sorted(unknown)[0]}' (use 'sources' and 'constants')")
    sources = audit.get("sources") or []
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise AuditConfigError(f"{page}: 'audit.sources' must be a list of source names")
    for s in sources:
        quantities(s)  # raises ValueError naming the unknown source
    constants = []
    for c in audit.get("constants") or []:
        if not isinstance(c, dict) or "value" not in c or not str(c.get("reason", "")).strip():
            raise AuditConfigError(
                f"{page}: each of 'audit.constants' needs a 'value' and a non-empty 'reason', got {c!r}"
            )
        constants.append(Constant(str(c["value"]).strip(), str(c["reason"])))
    return PageSpec(tuple(sources), tuple(constants))


SOURCE_DECLARATION = re.compile(r"^\s*<!--\s*audit source:\s*(\S*)\s*-->\s*$")
_STRIP = [
    re.compile(r"<!--.*?-->"),  # HTML comments
    re.compile(r"\]\([^)]*\)"),  # link targets: ](url)
    re.compile(r"\]\[[^\]]*\]"),  # reference links: ][ref]
    re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$"),  # link definitions
    re.compile(r"\{:?[^}]*[#.=][^}]*\}"),  # attribute lists
    re.compile(r"</?[A-Za-z][^>]*>"),  # HTML tags
    re.compile(r"&#?\w+;"),  # HTML entities
]
# LaTeX that stands for an operator or a root; other commands are dropped with their name.
_LATEX = [
    (re.compile(r"\\sqrt\{([^{}]*)\}"), r"√\1"),
    (re.compile(r"\\(times)\b"), "×"),
    (re.compile(r"\\(cdot)\b"), "·"),
    (re.compile(r"\\(approx)\b"), "≈"),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"\\(left|right)\b"), ""),
    (re.compile(r"\\%"), "%"),
]


def read_page(text: str, page: str) -> Page:
    """The page's audit settings and every line the audit reads."""
    meta, _, _ = split_front_matter(text)
    spec = page_spec(meta, page)
    source = spec.sources[0] if len(spec.sources) == 1 else None
    lines = []
    for line in body_lines(text):
        if line.fenced:
            continue
        lineno, raw = line.number, line.text
        if includes.include(raw):
            continue
        declared = SOURCE_DECLARATION.match(raw)
        if declared:
            source = declared.group(1)
            if source not in spec.sources:
                raise AuditConfigError(
                    f"{page}:{lineno}: 'audit source: {source}' is not one of the page's audit.sources "
                    f"{list(spec.sources)}"
                )
        lines.append(Line(lineno, clean_line(raw), source))
    return Page(page, spec, tuple(lines))


def clean_line(raw: str) -> str:
    """One line of prose with markup that carries no number stripped and LaTeX operators
    turned into the characters the arithmetic parser reads. Claims are kept, between
    OPEN and CLOSE, out of reach of the stripping."""
    # Inline code shows a claim as written (the extension leaves code alone), so the audit reads
    # it as written too: only claims outside code spans are kept.
    # split() gives [text, backticks, code, text, ...]: each span is put back whole, between its
    # backticks, so that a claim right after it finds the code it binds.
    parts = CODE_SPAN.split(raw)
    line = "".join(
        (p + parts[i - 1] if i % 3 == 2 else p) if i % 3 else CLAIM.sub(lambda m: OPEN + m.group(1) + CLOSE, p)
        for i, p in enumerate(parts)
    )
    for pat in _STRIP:
        line = pat.sub(" ", line)
    for pat, rep in _LATEX:
        line = pat.sub(rep, line)
    return line
