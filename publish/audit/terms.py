"""The glossary's terms, defined before they are used: a check beside :mod:`publish.audit.wording`.

The terms are the glossary's own headings (``### Attention weight`` on ``docs/glossary.md``), the
one list; each heading's anchor is its entry. A page **defines** a term where it writes it in bold
(``**softmax**``, also inside a link: ``[**dot product**](glossary.md#dot-product)``), and every
page after it in the navigation's reading order may then use it freely. On a page that neither
defines a term first nor comes after one that does, the term's first use must link to its entry
(``[heads](glossary.md#head)``) or to a page (where the reader finds it explained):
:func:`term_problems` names each page and line where that is not so.

What counts as a use: the term or its plural (``heads``, ``losses``), in any case, as a word of its
own: not part of a hyphenated word (``multi-head`` is not a use of *head*, ``self-attention`` not one
of *attention*), and not inside a longer term (*attention* inside *attention weight*). Headings,
the titles of admonitions and tabs, math, code, includes, HTML comments and front matter are not read
(:func:`publish.audit.wording.prose`).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from markdown.extensions.toc import slugify

from .. import DOCS
from ..source.mkdocs_yml import nav
from ..source.pages import INLINE_MATH
from .wording import Finding, prose

GLOSSARY = DOCS / "glossary.md"
GLOSSARY_PAGE = "glossary.md"


@dataclass(frozen=True)
class Term:
    name: str  # as the heading writes it
    anchor: str  # the heading's id on the glossary page
    pattern: re.Pattern
    also: str | None = None  # the entry this one sends the reader to ("See [query, key, value](#...)")

    def links_to(self, anchor: str) -> bool:
        return anchor in (self.anchor, self.also)


def _plural(word: str) -> str:
    return word + ("es" if re.search(r"(?:s|x|sh|ch)$", word) else "s")


def terms(text: str | None = None) -> list[Term]:
    """The glossary's terms, longest first (a longer term is matched before the terms inside it)."""
    text = GLOSSARY.read_text(encoding="utf-8") if text is None else text
    out = []
    for name, body in re.findall(r"^### (.+?)\s*\n(.*?)(?=^### |\Z)", text, re.M | re.S):
        words = name.casefold().split()
        forms = [re.escape(" ".join(words)), re.escape(" ".join([*words[:-1], _plural(words[-1])]))]
        spaced = [f.replace(r"\ ", r"\s+") for f in sorted(forms, key=len, reverse=True)]
        pattern = re.compile(r"(?<![\w-])(?:" + "|".join(spaced) + r")(?![\w-])", re.I)
        see = re.fullmatch(r"\s*See \[[^\]]+\]\(#([\w-]+)\)\.\s*", body)
        out.append(Term(name, slugify(name, "-"), pattern, see.group(1) if see else None))
    if not out:
        raise ValueError(f"{GLOSSARY}: no ### headings, so no terms")
    return sorted(out, key=lambda t: len(t.name), reverse=True)


_LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_TITLE = re.compile(r"^\s*(?:#{1,6}\s|(?:!!!|\?\?\?\+?|===)\s)")


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    target: str | None  # where the link it is in goes (a page under docs/), or None
    anchor: str  # the link's #part


def _read(line: str):
    """A paragraph without its math and link targets (the text a reader reads), the spans of its
    link texts and of its bold text, in the returned text's positions, and a function from such a
    position back to one in ``line``."""
    line = INLINE_MATH.sub(lambda m: " " * len(m.group(0)), line)
    out, links, back, pos = [], [], [], 0  # back: (position in the text, position in line)
    for m in _LINK.finditer(line):
        out.append(line[pos : m.start()])
        back.append((sum(map(len, out)), m.start()))
        start = sum(map(len, out)) + 1
        path, _, anchor = m.group(2).partition("#")
        out.append(" " + m.group(1) + " ")
        links.append(_Span(start, start + len(m.group(1)), path.split("?")[0] or None, anchor))
        back.append((sum(map(len, out)), m.end()))
        pos = m.end()
    out.append(line[pos:])
    text = "".join(out)
    bold = [(m.start(1), m.end(1)) for m in _BOLD.finditer(text)]

    def where(at: int) -> int:
        shift = 0
        for in_text, in_line in back:
            if in_text <= at:
                shift = in_line - in_text
        return at + shift

    return text, links, bold, where


def _resolve(page: str, path: str | None) -> str | None:
    if not path or "://" in path or not path.endswith(".md"):
        return None
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path))


@dataclass(frozen=True)
class Use:
    term: Term
    line: int
    linked: bool  # to its glossary entry, or to a page
    defines: bool  # in bold: the page explains it here
    wrong_anchor: str | None  # a link to the glossary, but to another entry


def _paragraphs(text: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """The page's prose as paragraphs (a link or a bold span may run over two lines): each as its
    text and (offset, line number) where each of its lines starts."""
    out: list[tuple[str, list[tuple[int, int]]]] = []
    parts: list[str] = []
    starts: list[tuple[int, int]] = []
    last = None
    for lineno, line, _ in prose(text):
        skip = _TITLE.match(line) or line.lstrip().startswith(":::") or not line.strip()
        if parts and (skip or lineno != last + 1):
            out.append((" ".join(parts), starts))
            parts, starts = [], []
        if not skip:
            starts.append((sum(len(p) + 1 for p in parts), lineno))
            parts.append(line.strip())
        last = lineno
    if parts:
        out.append((" ".join(parts), starts))
    return out


def uses(text: str, page: str, found: list[Term] | None = None) -> list[Use]:
    """Every use of a glossary term on the page ``text`` (under docs/ as ``page``), in reading order.
    Headings, titles and API directives (``::: selfattn_ref.training``) are not read."""
    found = terms() if found is None else found
    out = []
    for paragraph, starts in _paragraphs(text):
        visible, links, bold, where = _read(paragraph)

        def line_of(pos: int, starts=starts, where=where) -> int:
            at = where(pos)
            return max((n for offset, n in starts if offset <= at), default=starts[0][1])

        taken: list[tuple[int, int]] = []
        hits = []
        for term in found:
            for m in term.pattern.finditer(visible):
                if any(a < m.end() and m.start() < b for a, b in taken):
                    continue
                taken.append((m.start(), m.end()))
                hits.append((m.start(), m.end(), term))
        for start, end, term in sorted(hits, key=lambda h: h[0]):
            link = next((s for s in links if s.start <= start and end <= s.end), None)
            target = _resolve(page, link.target) if link else None
            glossary = target == GLOSSARY_PAGE
            wrong = link.anchor if glossary and not term.links_to(link.anchor) else None
            defines = any(
                re.fullmatch(term.pattern.pattern + r"[\s:.,;]*", visible[a:b].strip(), re.I)
                for a, b in bold
                if a <= start and end <= b
            )
            out.append(Use(term, line_of(start), bool(target) and not wrong, defines, wrong))
    return out


def term_problems(pages: list[tuple[str, str]]) -> list[Finding]:
    """``pages``: (page under docs/, its text) in the navigation's reading order. Each first use of a
    glossary term on a page, where neither that page (at or before it) nor an earlier one defines the
    term, that does not link to the term's entry; and each link to a wrong entry."""
    found_terms = terms()
    defined: set[str] = set()
    problems = []
    for page, text in pages:
        if page == GLOSSARY_PAGE:
            continue
        first: dict[str, Use] = {}
        here: set[str] = set()
        for use in uses(text, page, found_terms):
            if use.wrong_anchor is not None:
                problems.append(
                    Finding(
                        page,
                        use.line,
                        f'"{use.term.name}" links to glossary.md#{use.wrong_anchor}, not to its entry, '
                        f"glossary.md#{use.term.anchor}",
                    )
                )
            first.setdefault(use.term.name, use)
            if use.defines:
                here.add(use.term.name)
        for name, use in first.items():
            if name in defined or use.linked or use.defines:
                continue
            problems.append(
                Finding(
                    page,
                    use.line,
                    f'"{name}" is used before this page or an earlier one defines it (in bold): link its first '
                    f"use to its entry, [{name.casefold()}](glossary.md#{use.term.anchor})",
                )
            )
        defined |= here
    return problems


def nav_pages() -> list[tuple[str, str]]:
    """(page under docs/, its text) for every Markdown page of the navigation, in reading order."""
    return [(rel, (DOCS / rel).read_text(encoding="utf-8")) for _, rel in nav() if (DOCS / rel).is_file()]
