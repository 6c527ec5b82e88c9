"""MkDocs hook (publish/mkdocs/hooks/page_weight.py, once the site is built): the site's copy of KaTeX's stylesheet,
assets/vendor/katex/katex.min.css, cut to the rules that the site's math can use.

katex.min.css (25 kB) styles everything KaTeX can draw: matrices, arrows, colour boxes, a dozen
fonts. A page with math loads it whole. After the build, when every page is written, this keeps
each @font-face (a font is only downloaded when a formula uses it) and each rule with a selector
whose classes all occur in the built site (in any page, or in a script or data file of the site,
where the playground keeps its prerendered labels), and drops the other selectors: a rule whose
every selector names a class that no element of the site has styles nothing. Classes inside
:not(...) do not count (they need not be present). The vendored file in docs/ is not touched;
the site's copy is rewritten by the build that wrote it, and a build without the hook (Zensical)
ships the whole file, heavier, not different."""

from __future__ import annotations

import re
from pathlib import Path

from ...files import atomic_write

CSS = Path("assets/vendor/katex/katex.min.css")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_CLASS_ATTR = re.compile(r'class=\\?"([^"\\]*)')
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_NOT = re.compile(r":not\([^()]*\)")


def used_classes(site: Path) -> set[str]:
    """Every class named in a class attribute of the site's HTML, JavaScript and JSON files."""
    found: set[str] = set()
    for path in site.rglob("*"):
        if path.suffix in (".html", ".js", ".json") and path.is_file():
            for m in _CLASS_ATTR.finditer(path.read_text(encoding="utf-8", errors="replace")):
                found.update(m.group(1).split())
    return found


def subset(css: str, classes: set[str]) -> str:
    """``css`` (flat: rules and @font-face blocks, as katex.min.css is) with only the selectors whose
    classes are all in ``classes``; a rule left with no selector goes."""
    out = []
    for m in _RULE.finditer(css):
        selectors, body = m.group(1), m.group(2)
        if selectors.strip().startswith("@"):
            out.append(m.group(0))
            continue
        kept = [s for s in selectors.split(",") if set(_CLASS.findall(_NOT.sub("", s))) <= classes]
        if kept:
            out.append(",".join(kept) + "{" + body + "}")
    return "".join(out)


def on_post_build(config) -> None:
    site = Path(config["site_dir"])
    path = site / CSS
    if path.is_file():
        atomic_write(path, subset(path.read_text(encoding="utf-8"), used_classes(site)), root=site)
