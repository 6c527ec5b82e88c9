"""MkDocs hook (overrides/hooks/page_weight.py, once the site is built): the site's copy of Material's
stylesheet, assets/stylesheets/main.*.min.css, cut to the rules that the site can use.

Material's main.css (137 kB) styles every feature of the theme: the blog, tags, annotations, a dozen
admonition types, version selectors, content tabs up to twenty, ... Every page loads it. After the
build, when every page is written, this drops each selector that names a class nothing in the site
can give an element, in the manner of PurgeCSS, and conservatively because Material's JavaScript
adds classes when the page runs:

- a class counts as used when it occurs in a class attribute of a built page, or as any
  identifier-like token (``[A-Za-z_-][\\w-]*``) in a script of the site (Material's bundle and
  search worker, the site's own scripts, the playground's, the inline scripts of the pages) or a
  JSON file of the site; a token that ends in ``-`` or ``_`` (``md-tag--`` from a template string
  ``md-tag--${kind}``) keeps every class it begins;
- classes inside ``:not(...)`` do not count (they need not be present); in ``:is``, ``:where``,
  ``:has``, ``:matches`` and ``:-webkit-any`` one argument whose classes are used is enough; other
  functional pseudo-classes (``:nth-child``, ...) are not looked into;
- a selector without a class (an element, an attribute such as ``[data-md-color-scheme=slate]``,
  ``:root``, ``*``) always stays, and so does every declaration of a kept rule, every ``@font-face``,
  ``@page``, ``@charset`` and unknown at-rule; ``@media`` and ``@supports`` blocks are cut inside
  and go when nothing is left in them;
- a rule whose selector list holds a vendor-prefixed pseudo-class or pseudo-element
  (``::-webkit-scrollbar``, ``::-ms-clear``) keeps its whole list if it keeps any of it: a browser
  drops a whole list that holds one selector it does not know, and a cut list could start to apply;
- an ``@keyframes`` goes when its name is neither in a declaration left in the file nor a token of
  a script (an animation nothing can start).

The rules and selectors that stay are written as they were (tinycss2 serialises what it parsed; it
writes ``/**/`` between two tokens that could run together, four bytes, the same meaning), so the
cascade is the same for every element the site can have. The source-map comment goes (the map no
longer matches). The file in Material's package is not touched; the site's copy is rewritten by the
build that wrote it, and a build without this hook (Zensical) ships the whole file: heavier, not
different. Chromium compares the computed style of every element of a set of pages and states under
the cut and the whole file (tests/browser/test_material_css_look.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import tinycss2
from tinycss2 import ast

STYLESHEETS = Path("assets/stylesheets")
# Material's stylesheets as the build copies them from the theme (the hash is Material's).
PATTERNS = ("main.*.min.css", "palette.*.min.css")

_CLASS_ATTR = re.compile(r"""\bclass=\\?(?:"|')([^"'\\]*)""")
_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.S | re.I)
_TOKEN = re.compile(r"-?[A-Za-z_][\w-]*")
_DATA_ATTR = re.compile(r"""\b(data-[\w-]+)=\\?(?:"([^"\\]*)|'([^'\\]*)|([^\s>"'\\]+))""")
# pymdownx.tabbed's set of tabs: <div class="tabbed-set tabbed-alternate" data-tabs="SET:TABS">.
_TABBED_SET = re.compile(r"""<div class="tabbed-set\b[^"]*"(?:\s+data-tabs="\d+:(\d+)")?""")
_NTH = re.compile(r"^\s*(\d+)\s*$")
# Search's stemmers and word splitters for other languages: they run, if at all, in the search
# worker, which has no page to add classes to, and write no markup.
LUNR = Path("assets/javascripts/lunr")
# A functional pseudo-class whose selector list matches when one of its selectors does.
_ANY_OF = {"is", "where", "has", "matches", "-webkit-any", "-moz-any"}
# Blocks of rules that the cut goes into.
_NESTED = {"media", "supports", "layer", "container", "document", "-moz-document"}


class Used:
    """What the site can give an element: ``classes`` (exact names), ``prefixes`` (every class that
    starts with one), ``tokens`` (every identifier of a script, for @keyframes names and attribute
    values), ``attributes`` (each ``data-*`` attribute's values in the site's markup) and ``tabs``
    (the most tabs a set of content tabs has, None if unknown)."""

    def __init__(
        self,
        classes: Iterable[str] = (),
        tokens: Iterable[str] = (),
        attributes: Iterable[tuple[str, str]] = (),
        tabs: int | None = None,
    ):
        self.tokens = set(tokens)
        self.classes = set(classes) | self.tokens
        self.prefixes = tuple(sorted(t for t in self.tokens if t[-1] in "-_" and any(c.isalpha() for c in t)))
        self.attributes = set(attributes)
        self.tabs = tabs

    def has(self, name: str) -> bool:
        return name in self.classes or name.startswith(self.prefixes)

    def has_attribute(self, name: str, value: str) -> bool:
        return not name.startswith("data-") or (name, value) in self.attributes or value in self.tokens


def used(site: Path) -> Used:
    """The classes in the class attributes and the ``data-*`` attribute values of the site's pages
    (and of markup kept in its scripts and JSON files), the identifier-like tokens of its scripts
    (files and inline) and JSON files, and the most tabs of a set of content tabs."""
    classes: set[str] = set()
    tokens: set[str] = set()
    attributes: set[tuple[str, str]] = set()
    tabs: int | None = 0
    for path in site.rglob("*"):
        if path.suffix not in (".html", ".js", ".json") or not path.is_file():
            continue
        if LUNR in path.relative_to(site).parents:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in _CLASS_ATTR.finditer(text):
            classes.update(m.group(1).split())
        attributes.update(
            (m.group(1), next(v for v in m.groups()[1:] if v is not None)) for m in _DATA_ATTR.finditer(text)
        )
        scripts = [m.group(1) for m in _SCRIPT.finditer(text)] if path.suffix == ".html" else [text]
        for script in scripts:
            tokens.update(_TOKEN.findall(script))
        if path.suffix == ".html" and tabs is not None:
            sets = _TABBED_SET.findall(text)
            if any(not counted for counted in sets):
                tabs = None  # a set of tabs that does not say how many it has: no cut by count
            else:
                tabs = max([tabs, *(int(n) for n in sets)])
    return Used(classes, tokens, attributes, tabs)


def _split(tokens: list) -> list[list]:
    """A selector list's tokens, split at its top-level commas."""
    parts: list[list] = [[]]
    for t in tokens:
        if t.type == "literal" and t.value == ",":
            parts.append([])
        else:
            parts[-1].append(t)
    return parts


def _usable(tokens: list, use: Used) -> bool:
    """Whether a selector (its tokens) can match an element of the site: every class it names outside
    a functional pseudo-class is used, each ``[data-*=value]`` is, each :is()/:where()/:has() has a
    usable argument, and a selector of content tabs counts no more tabs than a set has."""
    prev = None
    tabbed = False
    nth: list[int] = []
    for t in tokens:
        after_dot = prev is not None and prev.type == "literal" and prev.value == "."
        after_colon = prev is not None and prev.type == "literal" and prev.value == ":"
        if t.type == "ident" and after_dot:
            if not use.has(t.value):
                return False
            tabbed |= t.value.startswith("tabbed-")
        elif t.type == "function" and after_colon:
            name = t.lower_name
            if name in _ANY_OF and not any(_usable(arg, use) for arg in _split(t.arguments)):
                return False
            if name == "nth-child" and (m := _NTH.match(tinycss2.serialize(t.arguments))):
                nth.append(int(m.group(1)))
        elif t.type == "[] block":
            parts = [x for x in t.content if x.type not in ("whitespace", "comment")]
            if (
                len(parts) == 3
                and parts[0].type == "ident"
                and parts[1].type == "literal"
                and parts[1].value == "="
                and parts[2].type in ("ident", "string")
                and not use.has_attribute(parts[0].value, parts[2].value)
            ):
                return False
        prev = None if t.type in ("whitespace", "comment") else t
    # In Material's rules for content tabs (pymdownx.tabbed), :nth-child(N) counts tabs: the N-th
    # input, label or block of a set.
    return not (tabbed and use.tabs is not None and any(n > use.tabs for n in nth))


def _prefixed(tokens: list) -> bool:
    """Whether a selector list names a vendor-prefixed pseudo-class or pseudo-element."""
    prev = None
    for t in tokens:
        if t.type in ("ident", "function") and prev is not None and prev.type == "literal" and prev.value == ":":
            if (t.value if t.type == "ident" else t.name).startswith("-"):
                return True
        prev = t
    return False


def _strip(tokens: list) -> list:
    while tokens and tokens[0].type in ("whitespace", "comment"):
        tokens = tokens[1:]
    while tokens and tokens[-1].type in ("whitespace", "comment"):
        tokens = tokens[:-1]
    return tokens


def _cut_rules(rules: list, use: Used) -> list:
    """The rules (of the sheet or of an @media/@supports block) with only the usable selectors."""
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = _split(rule.prelude)
            kept = [s for s in selectors if _usable(s, use)]
            if not kept:
                continue
            if len(kept) < len(selectors) and not _prefixed(rule.prelude):
                prelude: list = []
                for i, s in enumerate(kept):
                    prelude += ([ast.LiteralToken(0, 0, ",")] if i else []) + _strip(s)
                rule = ast.QualifiedRule(rule.source_line, rule.source_column, prelude, rule.content)
            out.append(rule)
        elif rule.type == "at-rule" and rule.lower_at_keyword in _NESTED and rule.content is not None:
            inner = _cut_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True), use)
            if any(r.type in ("qualified-rule", "at-rule") for r in inner):
                out.append(
                    ast.AtRule(
                        rule.source_line,
                        rule.source_column,
                        rule.at_keyword,
                        rule.lower_at_keyword,
                        rule.prelude,
                        inner,
                    )
                )
        elif rule.type in ("qualified-rule", "at-rule"):
            out.append(rule)
        elif rule.type == "error":
            raise ValueError(f"Material's stylesheet does not parse at line {rule.source_line}: {rule.message}")
    return out


def _idents(nodes: Iterable) -> set[str]:
    """Every identifier in some tokens (nested blocks and functions included)."""
    found: set[str] = set()
    for n in nodes:
        if n.type == "ident":
            found.add(n.value)
        elif getattr(n, "content", None) is not None and isinstance(n.content, list):
            found |= _idents(n.content)
        elif getattr(n, "arguments", None) is not None:
            found |= _idents(n.arguments)
        elif getattr(n, "prelude", None) is not None and n.type == "at-rule":
            found |= _idents(n.prelude)
    return found


def _keyframes(rules: list, tokens: set[str]) -> list:
    """The sheet without the @keyframes that neither a declaration left in it nor a script names."""
    named = _idents(r for r in rules if not (r.type == "at-rule" and r.lower_at_keyword == "keyframes")) | tokens
    out = []
    for r in rules:
        if r.type == "at-rule" and r.lower_at_keyword == "keyframes":
            name = tinycss2.serialize(r.prelude).strip()
            if name not in named:
                continue
        out.append(r)
    return out


def subset(css: str, use: Used) -> str:
    """``css`` with only the selectors (and @keyframes) that the site can use: see the module."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True)
    rules = _keyframes(_cut_rules(rules, use), use.tokens)
    return tinycss2.serialize(r for r in rules if r.type != "whitespace").strip()


def stylesheets(site: Path) -> list[Path]:
    """The site's copies of Material's stylesheets."""
    return sorted(p for pattern in PATTERNS for p in (site / STYLESHEETS).glob(pattern))


def on_post_build(config) -> None:
    site = Path(config["site_dir"])
    paths = stylesheets(site)
    if paths:
        use = used(site)
        for path in paths:
            path.write_text(subset(path.read_text(encoding="utf-8"), use), encoding="utf-8")
