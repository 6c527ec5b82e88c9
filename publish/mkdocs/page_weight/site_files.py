"""The one walk over the built site that page_weight's cuts read (material_css, katex_css,
katex_fonts): each HTML, JavaScript and JSON file of the site read once, for what an element of
the site can carry.

For each file: the classes of its ``class`` attributes (in a page, or in markup a script or a JSON
file holds in a string, its quotes escaped), its ``data-*`` attributes' values, the identifier-like
tokens of its scripts (the file itself, or a page's inline ``<script>`` elements), the tab counts of
its sets of content tabs (pymdownx.tabbed's ``data-tabs="SET:TABS"``) and the characters of KaTeX's
HTML in it (:func:`characters`, which katex_fonts cuts the fonts to). Not read: search's stemmers and word
splitters for other languages (assets/javascripts/lunr/), which run, if at all, in the search
worker, where there is no page to add a class to, and hold no markup.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = (".html", ".js", ".json")
LUNR = Path("assets/javascripts/lunr")

CLASS_ATTR = re.compile(r"""\bclass=\\?(?:"|')([^"'\\]*)""")
_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.S | re.I)
TOKEN = re.compile(r"-?[A-Za-z_][\w-]*")
_DATA_ATTR = re.compile(r"""\b(data-[\w-]+)=\\?(?:"([^"\\]*)|'([^'\\]*)|([^\s>"'\\]+))""")
# pymdownx.tabbed's set of tabs: <div class="tabbed-set tabbed-alternate" data-tabs="SET:TABS">.
_TABBED_SET = re.compile(r"""<div class="tabbed-set\b[^"]*"(?:\s+data-tabs="\d+:(\d+)")?""")


ALWAYS = frozenset(" \u00a0")  # the space and the no-break space, which KaTeX writes between boxes
_JS_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|[\"'\\/])")


_KATEX_HTML = re.compile(r'<span\b[^>]*\bclass="(?:[^"]*\s)?katex-html[\s"]')
_SPAN = re.compile(r"<(/?)span\b[^>]*>")
_TAG = re.compile(r"<[^>]*>")


def _katex_text(text: str) -> set[str]:
    """The characters of the text inside ``<span class="katex-html">`` elements (each up to the
    ``</span>`` that closes it, counting the spans inside), character references read."""
    chars: set[str] = set()
    pos = 0
    while m := _KATEX_HTML.search(text, pos):
        depth, end = 0, len(text)
        for tag in _SPAN.finditer(text, m.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = tag.end()
                break
        chars.update(html.unescape(_TAG.sub("", text[m.start() : end])))
        pos = end
    return chars


def _unescape_js(text: str) -> str:
    """``text`` with a JavaScript / JSON string's escapes (``\\"``, ``\\uXXXX``, ...) undone, so that
    HTML kept in a string of a script reads as HTML."""
    return _JS_ESCAPE.sub(lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "u" else m.group(1), text)


def characters(pages: Iterable[str], scripts: Iterable[str]) -> set[str]:
    """Every character of the text of KaTeX's HTML in ``pages`` (HTML) and ``scripts`` (JavaScript or
    JSON), with ``ALWAYS``; line breaks and tabs (white space of the markup) left out."""
    chars: set[str] = set()
    for text in pages:
        if "katex-html" in text:
            chars |= _katex_text(text)
    for text in scripts:
        if "katex-html" in text:
            chars |= _katex_text(_unescape_js(text))
    return {c for c in chars if c >= " "} | ALWAYS


@dataclass(frozen=True)
class Facts:
    """What one file of the site can give an element (see the module)."""

    classes: frozenset[str]
    tokens: frozenset[str]
    attributes: frozenset[tuple[str, str]]
    tab_sets: tuple[str, ...]  # each set's tab count as data-tabs gives it, "" where it gives none
    katex_chars: frozenset[str]


def files(site: Path) -> list[Path]:
    """The site's HTML, JavaScript and JSON files, but search's language files (LUNR)."""
    return [
        p
        for p in sorted(site.rglob("*"))
        if p.suffix in SUFFIXES and p.is_file() and LUNR not in p.relative_to(site).parents
    ]


# What each file gave, by its kind and content: `mkdocs serve` writes the whole site again after
# each edit, and most files are what they were (some 0.4 s of reading a rebuild).
_reads: dict[tuple[str, bytes], Facts] = {}


def _facts(suffix: str, text: str) -> Facts:
    page = suffix == ".html"
    scripts = [m.group(1) for m in _SCRIPT.finditer(text)] if page else [text]
    return Facts(
        classes=frozenset(c for m in CLASS_ATTR.finditer(text) for c in m.group(1).split()),
        tokens=frozenset(t for script in scripts for t in TOKEN.findall(script)),
        attributes=frozenset(
            (m.group(1), next(v for v in m.groups()[1:] if v is not None)) for m in _DATA_ATTR.finditer(text)
        ),
        tab_sets=tuple(_TABBED_SET.findall(text)) if page else (),
        katex_chars=frozenset(characters([text], []) if page else characters([], [text])),
    )


def read(site: Path) -> list[tuple[Path, Facts]]:
    """Every file of :func:`files` with its :class:`Facts`, each file read once per content."""
    out, seen = [], set()
    for path in files(site):
        data = path.read_bytes()
        key = (path.suffix, hashlib.blake2b(data, digest_size=16).digest())
        seen.add(key)
        if key not in _reads:
            _reads[key] = _facts(path.suffix, data.decode("utf-8", errors="replace"))
        out.append((path, _reads[key]))
    for key in set(_reads) - seen:  # (mkdocs serve: what no file of this build holds any more)
        del _reads[key]
    return out
