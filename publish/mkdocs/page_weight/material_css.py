"""MkDocs hook (publish/mkdocs/hooks/page_weight.py, once the site is built): the site's copies of Material's
stylesheets, assets/stylesheets/main.*.min.css and palette.*.min.css, cut to the rules that the site
can use.

Material's main.css (137 kB) styles every feature of the theme: the blog, tags, annotations, a dozen
admonition types, version selectors, content tabs up to twenty, ...; its palette.css every primary
and accent colour. Every page loads both. After the build, when every page is written, this drops
each selector that names a class nothing in the site can give an element, in the manner of
PurgeCSS, and conservatively because Material's JavaScript adds classes when the page runs:

- a class counts as used when it occurs in a class attribute of a built page, or as any
  identifier-like token (``-?[A-Za-z_][\\w-]*``) in a script of the site (Material's bundle and
  search worker, the site's own scripts, the playground's, the inline scripts of the pages) or a
  JSON file of the site; a token that ends in ``-`` or ``_`` (``md-tag--`` from a template string
  ``md-tag--${kind}``) keeps every class it begins. Not read: search's stemmers and word
  splitters for other languages (assets/javascripts/lunr/), which run, if at all, in the search
  worker, where there is no page to add a class to;
- a ``[data-*=value]`` test (``[data-md-color-primary=pink]``) counts as a class does: the value
  must be that attribute's in some markup of the site (the palette toggle's inputs carry the
  colours that Material's script copies to the body) or a token of a script;
- a rule for content tabs (a selector with a ``tabbed-`` class) with ``:nth-child(N)`` for more tabs
  than any set of the site has (pymdownx.tabbed writes ``data-tabs="SET:TABS"`` on each set; if
  one set does not say, no rule is cut this way) can match nothing;
- classes inside ``:not(...)`` do not count (they need not be present); in ``:is``, ``:where``,
  ``:has``, ``:matches`` and ``:-webkit-any`` one argument whose classes are used is enough; other
  functional pseudo-classes (``:nth-child``, ...) are not looked into;
- a selector without a class or ``data-*`` value (an element, an attribute such as ``[dir=rtl]``,
  ``:root``, ``*``) always stays, and so does every declaration of a kept rule, every ``@font-face``,
  ``@page``, ``@charset`` and unknown at-rule; ``@media`` and ``@supports`` blocks are cut inside
  and go when nothing is left in them;
- a rule whose selector list holds a vendor-prefixed pseudo-class or pseudo-element
  (``::-webkit-scrollbar``, ``::-ms-clear``) keeps its whole list if it keeps any of it: a browser
  drops a whole list that holds one selector it does not know, and a cut list could start to apply;
- an ``@keyframes`` goes when its name is neither in a rule left in the file nor a token of
  a script (an animation nothing can start).

The rules and selectors that stay are written as they were, byte for byte (tinycss2 finds the
rules; their text is cut from the file, since tinycss2 would write an escape such as ``\\3c`` in a
custom property back as ``<``, a different value to the browser), so the cascade is the same for
every element the site can have. Comments between rules go. The file in Material's package is
not touched; the site's copy is rewritten by the build that wrote it, and a build without this hook
(Zensical) ships the whole file: heavier, not different. Chromium checks, on a set of pages and
states in light and dark, that the rules it reads from a cut file are the whole file's less some, in
the same order, and that no selector that was cut matches an element, with every state a reader can
change taken as true (tests/browser/test_material_css_look.py).

One rule is moved, not cut: the palette's rule for a switching palette, which names every element
(``[data-md-color-switching] *``), goes to the site's own stylesheet as the same rule for the elements
that have a transition (see SWITCHING below: it made each page load restyle every element twice);
the same browser test checks that no element or ::before / ::after keeps a transition while the
palette switches."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import tinycss2

from ...files import atomic_write
from . import ThemeChanged, site_files

STYLESHEETS = Path("assets/stylesheets")
# Material's stylesheets as the build copies them from the theme (the hash is Material's).
PATTERNS = ("main.*.min.css", "palette.*.min.css")

_NTH = re.compile(r"^\s*(\d+)\s*$")
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
    (files and inline) and JSON files, and the most tabs of a set of content tabs
    (:mod:`.site_files`, the one walk over the built site)."""
    classes: set[str] = set()
    tokens: set[str] = set()
    attributes: set[tuple[str, str]] = set()
    tabs: int | None = 0
    for path, facts in site_files.read(site):
        classes |= facts.classes
        tokens |= facts.tokens
        attributes |= facts.attributes
        if path.suffix == ".html" and tabs is not None:
            if any(not counted for counted in facts.tab_sets):
                tabs = None  # a set of tabs that does not say how many it has: no cut by count
            else:
                tabs = max([tabs, *(int(n) for n in facts.tab_sets)])
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


def _skip(css: str, i: int) -> int:
    """At a string, a comment or an escape that starts at ``i``: the offset of its last character;
    anywhere else ``i``."""
    n, c = len(css), css[i]
    if c == "\\":
        return i + 1
    if c in "\"'":
        i += 1
        while i < n and css[i] != c:
            i += 2 if css[i] == "\\" else 1
        return i
    if css.startswith("/*", i):
        end = css.find("*/", i + 2)
        return n if end < 0 else end + 1
    return i


def _scan(css: str, i: int) -> tuple[list[int], int, int]:
    """From the start of a rule or at-rule at ``i``: the offsets of the commas between its top-level
    selectors, the offset of its block's ``{`` (-1 if it has none) and the offset just past its end
    (its block's ``}``, or its ``;``). Strings, comments and escapes are stepped over."""
    commas: list[int] = []
    depth = 0
    n = len(css)
    while i < n:
        if (past := _skip(css, i)) != i:
            i = past + 1
            continue
        c = css[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c == ",":
            commas.append(i)
        elif depth == 0 and c == ";":
            return commas, -1, i + 1
        elif depth == 0 and c == "{":
            brace, depth = i, 1
            i += 1
            while i < n and depth:
                if (past := _skip(css, i)) != i:
                    i = past + 1
                    continue
                depth += {"{": 1, "}": -1}.get(css[i], 0)
                i += 1
            return commas, brace, i
        i += 1
    return commas, -1, n


class _Source:
    """The stylesheet's text, and a node's offset in it from tinycss2's line and column."""

    def __init__(self, css: str):
        self.css = css
        self.lines = [0] + [m.end() for m in re.finditer(r"\r\n|\n|\r|\f", css)]

    def offset(self, node) -> int:
        return self.lines[node.source_line - 1] + node.source_column - 1


def _cut_rules(rules: list, src: _Source, use: Used) -> list[str]:
    """The text of the rules (of the sheet or of an @media/@supports block), each as it was written,
    with only the usable selectors; a rule without one goes, a block left empty goes."""
    css = src.css
    out: list[str] = []
    for rule in rules:
        if rule.type in ("whitespace", "comment"):
            continue
        if rule.type == "error":
            raise ValueError(f"the stylesheet does not parse at line {rule.source_line}: {rule.message}")
        start = src.offset(rule)
        commas, brace, end = _scan(css, start)
        if rule.type == "qualified-rule":
            selectors = _split(rule.prelude)
            usable = [_usable(s, use) for s in selectors]
            if not any(usable):
                continue
            if all(usable) or _prefixed(rule.prelude):
                out.append(css[start:end])
                continue
            if len(commas) + 1 != len(selectors):
                raise ValueError(f"the selectors at line {rule.source_line} could not be told apart")
            bounds = [start, *(c + 1 for c in commas), brace + 1]
            texts = [css[a:b].rstrip(",{").strip() for a, b in zip(bounds, bounds[1:], strict=False)]
            out.append(",".join(t for t, ok in zip(texts, usable, strict=True) if ok) + css[brace:end])
        elif rule.lower_at_keyword in _NESTED and rule.content is not None and brace >= 0:
            inner = _cut_rules(tinycss2.parse_rule_list(rule.content), src, use)
            if inner:
                out.append(css[start : brace + 1] + "".join(inner) + "}")
        else:
            out.append(css[start:end])
    return out


def _keyframes(rules: list, texts: list[str], tokens: set[str]) -> list[str]:
    """The rules' texts without the @keyframes that neither a rule left in the sheet nor a script names."""
    frames = [r.type == "at-rule" and r.lower_at_keyword == "keyframes" for r in rules]
    named = set(site_files.TOKEN.findall("".join(t for t, f in zip(texts, frames, strict=True) if not f))) | tokens
    return [
        t
        for r, t, f in zip(rules, texts, frames, strict=True)
        if not f or tinycss2.serialize(r.prelude).strip() in named
    ]


def subset(css: str, use: Used) -> str:
    """``css`` with only the selectors (and @keyframes) that the site can use: see the module."""
    src = _Source(css)
    out: list[str] = []
    for rule in tinycss2.parse_stylesheet(css):
        if rule.type in ("whitespace", "comment"):
            continue
        texts = _cut_rules([rule], src, use)
        out += [(rule, t) for t in texts]
    rules, texts = [r for r, _ in out], [t for _, t in out]
    return "".join(_keyframes(rules, texts, use.tokens))


def stylesheets(site: Path) -> list[Path]:
    """The site's copies of Material's stylesheets."""
    return sorted(p for pattern in PATTERNS for p in (site / STYLESHEETS).glob(pattern))


# Under `mkdocs serve` the process lives on and each rebuild copies the same stylesheets from the
# theme: a cut is made again only when the stylesheet or what the site uses changed (parsing
# Material's 137 kB took a second of each rebuild).
_cuts: dict[tuple, str] = {}


def _cut(css: str, use: Used) -> str:
    key = (css, frozenset(use.classes), frozenset(use.tokens), frozenset(use.attributes), use.tabs)
    if key not in _cuts:
        if len(_cuts) >= 8:
            _cuts.clear()
        _cuts[key] = subset(css, use)
    return _cuts[key]


# While the palette switches, Material's palette.css turns every transition off with
# "[data-md-color-switching] *, [data-md-color-switching] :after, [data-md-color-switching] :before
# {transition-duration:0s!important}". Its script sets that attribute on <body>, and removes it a frame
# later, on every page load as well as on a switch; with `*` under an attribute of <body>, each change
# restyles every element of the page (twice per load: 2,634 elements each on Self-attention with
# real numbers, 0.4-0.55 s at Lighthouse's 4x slower CPU). The rule changes nothing for an element
# whose transitions last no time, as every element's do unless a rule of the site's stylesheets gives
# it one. So the site's copy of the palette goes without it, and the site's own stylesheet
# (SWITCHING_CSS, which every page loads after the palette) holds the same rule for the elements that
# those rules can reach (switching_rule): each one's subject, the last compound of each of its
# selectors, as its element type, classes and id only (states, attributes and :not() left out, so
# that it matches in every state), and its ::before or ::after, the only pseudo-elements the
# universal rule reaches (a transition on another one, ::placeholder, stays as it was).
SWITCHING = "[data-md-color-switching]"
SWITCHING_CSS = STYLESHEETS / "extra.css"
_SWITCHING_RULE = re.compile(
    r"\[data-md-color-switching\] \*,\[data-md-color-switching\] :after,\[data-md-color-switching\] :before"
    r"\{transition-duration:0s!important\}"
)
_COMBINATORS = {">", "+", "~"}
_KEPT_PSEUDO = {"before", "after"}


def _subject(tokens: list) -> str | None:
    """The subject of a selector (its tokens) as a selector of its element type, classes and id, with
    its ::before or ::after; ``*`` if it names none of these; None if it is another pseudo-element."""
    while tokens and tokens[-1].type in ("whitespace", "comment"):
        tokens = tokens[:-1]
    start = 0
    for i, t in enumerate(tokens):
        if t.type == "whitespace" or (t.type == "literal" and t.value in _COMBINATORS):
            start = i + 1
    out, pseudo, prev, colons = "", "", None, 0
    for t in tokens[start:]:
        if t.type == "literal" and t.value == ":":
            colons += 1
            continue
        if colons and t.type == "ident":
            if t.lower_value in _KEPT_PSEUDO:
                pseudo = "::" + t.lower_value
            elif colons == 2 or t.lower_value in ("first-line", "first-letter"):
                return None
        elif colons:
            pass  # a functional pseudo-class, :not(...), :is(...): left out
        elif t.type == "ident" and prev is not None and prev.type == "literal" and prev.value == ".":
            out += "." + t.value
        elif t.type == "ident":
            out += t.value
        elif t.type == "hash":
            out += "#" + t.value
        colons = 0
        prev = t
    return (out or "*") + pseudo


def _lasting(rule) -> bool:
    """Whether a style rule gives a transition (shorthand or duration) other than none or 0s."""
    for d in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True, skip_comments=True):
        if d.type == "declaration" and d.lower_name in ("transition", "transition-duration"):
            if tinycss2.serialize(d.value).strip().lower() not in ("none", "0s", "0ms"):
                return True
    return False


def transition_subjects(css: str) -> set[str]:
    """The subjects (see _subject) of every selector of every rule of ``css`` that gives a lasting
    transition, in @media and @supports blocks too."""
    found: set[str] = set()

    def walk(rules) -> None:
        for rule in rules:
            if rule.type == "qualified-rule" and rule.content is not None:
                prelude = tinycss2.serialize(rule.prelude)
                if SWITCHING not in prelude and _lasting(rule):
                    found.update(s for sel in _split(rule.prelude) if (s := _subject(sel)) is not None)
            elif rule.type == "at-rule" and rule.lower_at_keyword in _NESTED and rule.content is not None:
                walk(tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True))

    walk(tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True))
    return found


def switching_rule(stylesheets: Iterable[str]) -> str:
    """Material's rule for a switching palette, for the subjects of the stylesheets' transitions."""
    subjects = sorted(set().union(*(transition_subjects(css) for css in stylesheets)))
    if not subjects:
        return ""
    return ",".join(f"{SWITCHING} {s}" for s in subjects) + "{transition-duration:0s!important}"


def narrow_switching(site: Path, palette: Path) -> None:
    """The palette's rule for a switching palette moved into SWITCHING_CSS for the elements that have
    a transition (see SWITCHING). Nothing changes without SWITCHING_CSS, or when the rule was moved
    already (``mkdocs serve --dirty`` keeps the files it wrote); ThemeChanged when Material's
    palette does not hold the rule once, as _SWITCHING_RULE writes it."""
    own = site / SWITCHING_CSS
    css = palette.read_text(encoding="utf-8")
    if not own.is_file():
        return
    found = len(_SWITCHING_RULE.findall(css))
    if found == 0 and SWITCHING in own.read_text(encoding="utf-8"):
        return
    if found != 1:
        raise ThemeChanged(
            f"Material's {palette.name} holds its rule for a switching palette {found} times, not once as "
            f"'{_SWITCHING_RULE.pattern}'",
            "publish/mkdocs/page_weight/material_css.py, _SWITCHING_RULE",
        )
    sheets = [p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.css")) if p.is_file()]
    atomic_write(own, own.read_text(encoding="utf-8") + "\n" + switching_rule(sheets) + "\n", root=site)
    atomic_write(palette, _SWITCHING_RULE.sub("", css), root=site)


def on_post_build(config) -> None:
    site = Path(config["site_dir"])
    paths = stylesheets(site)
    if len(paths) != len(PATTERNS) or any(not p.match(pattern) for p, pattern in zip(paths, PATTERNS, strict=False)):
        raise ThemeChanged(
            f"Material's stylesheets in the built site are {[p.name for p in paths]}, not one each of {PATTERNS}",
            "publish/mkdocs/page_weight/material_css.py, PATTERNS",
        )
    use = used(site)
    for path in paths:
        atomic_write(path, _cut(path.read_text(encoding="utf-8"), use), root=site)
    narrow_switching(site, paths[1])
