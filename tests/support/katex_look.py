"""What the browser tests of the site's KaTeX (tests/browser/test_katex_*.py) share: every distinct
formula of the built site (as HTML, or as TeX), and a page of the site that shows a list of formulas
in place of its article (show), with how each of their elements looks there (read_look); and the
look of the site's formulas and a few more under the whole vendored katex.min.css (under_whole_css),
which test_katex_css_subset and test_katex_fonts_subset both compare with, made once."""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from publish.markdown.katex_math import in_page
from publish.mkdocs.page_weight.katex_css import CSS
from publish.mkdocs.page_weight.katex_fonts import FONTS

VENDOR = Path(__file__).resolve().parents[2] / "docs"

# The article of the page replaced by the formulas given (their HTML), each in a block of its own.
SHOW_JS = """(formulas) => {
  const article = document.querySelector('article.md-content__inner');
  article.innerHTML = formulas.map((f) => `<div class="arithmatex">${f}</div>`).join('');
}"""


# Each element of each formula: its class, box (to 1/100 px) and the styles that make its look; as
# one JSON string (some 15,000 elements: Playwright's own conversion of the arrays took 10-15 s).
LOOK_JS = """() => JSON.stringify([...document.querySelectorAll('.katex, .katex *')].map((e) => {
  const r = e.getBoundingClientRect();
  const s = getComputedStyle(e);
  return [e.getAttribute('class'), ...[r.x, r.y, r.width, r.height].map((v) => Math.round(v * 100)),
          s.color, s.fontFamily, s.fontSize, s.fontStyle, s.fontWeight, s.borderTopWidth,
          s.borderBottomWidth, s.borderBottomStyle, s.visibility, s.display, s.position, s.clip];
}))"""


# Formulas beyond the site's, in characters of the site's math only (a subset font keeps no other):
# test_katex_fonts_subset's, shown after the site's own.
EXTRA = [
    (r"\mathbf{x} + \boldsymbol{\alpha} = \textbf{softmax}(x)", False),
    (
        r"\left( \frac{\sum_{i=1}^{n} x_i}{\sqrt{d}} \right) \Bigg[ \bigg\{ \Big( \big( x \big) \Big) \bigg. \Bigg]",
        True,
    ),
    (r"x \to \infty", False),
    (r"\left[ \begin{matrix} \frac{a}{b} \\ \frac{c}{d} \\ \frac{e}{f} \\ \frac{g}{h} \end{matrix} \right]", True),
    (r"\sum_{j} \alpha_{ij} \approx \pi, \quad x^\top y \cdot z \ldots", False),
]
# The KaTeX faces the page has loaded; how many rules it read from katex.min.css; how many elements
# LOOK_JS reads in the first n formulas shown.
FONTS_JS = """() => [...document.fonts].filter((f) => f.family.startsWith('KaTeX_') && f.status === 'loaded')
  .map((f) => `${f.family} ${f.weight} ${f.style}`).sort()"""
RULES_JS = """() => [...document.styleSheets].find((s) => (s.href || '').endsWith('katex.min.css')).cssRules.length"""
ELEMENTS_JS = """(n) => [...document.querySelector('article.md-content__inner').children].slice(0, n)
  .reduce((count, block) => count + block.querySelectorAll('.katex, .katex *').length, 0)"""


def whole_css(route) -> None:
    """A route that serves the whole vendored katex.min.css in place of the site's."""
    route.fulfill(path=VENDOR / CSS, content_type="text/css")


def whole_font(served: list[str]):
    """A route that serves the whole vendored font in place of the site's subset, noting its name."""

    def fulfill(route) -> None:
        name = route.request.url.rsplit("/", 1)[-1]
        served.append(name)
        route.fulfill(path=VENDOR / FONTS / name, content_type="font/woff2")

    return fulfill


@dataclass(frozen=True)
class Shown:
    """Formulas shown in a page of the site (show), as read there."""

    look: list  # read_look's answer
    fonts: list[str]  # FONTS_JS's
    pixels: bytes  # the article's screenshot
    rules: int  # RULES_JS's
    site_elements: int  # how many of look's elements are the site's formulas' (the extra ones follow)


def shown(context, url: str, formulas: list[str], extra: list[str]) -> Shown:
    """The formulas, then the extra ones, shown in a new page of the context and read there."""
    page = context.new_page()
    show(page, url, [*formulas, *extra])
    article = page.locator("article.md-content__inner")
    return Shown(
        look=read_look(page),
        fonts=page.evaluate(FONTS_JS),
        # Playwright waits for the article (some 17,000 px tall) to be stable over two frames first:
        # on a busy machine that took over the context's 10 s once (2.9 s idle).
        pixels=article.screenshot(animations="disabled", timeout=30_000),
        rules=page.evaluate(RULES_JS),
        site_elements=page.evaluate(ELEMENTS_JS, len(formulas)),
    )


_UNDER_WHOLE_CSS: dict = {}


def under_whole_css(site, new_context: Callable) -> Shown:
    """Every distinct formula of the site, then EXTRA, on real-numbers/ under the whole vendored
    katex.min.css with the site's fonts: the reference that test_katex_css_subset holds the site's
    stylesheet to (on the site's formulas, whose look comes first: a block's layout does not depend
    on the blocks after it) and test_katex_fonts_subset the whole fonts. Made once per worker, by
    whichever of the two runs first (they are one xdist group, on one worker under --dist
    loadgroup, as `make test` runs): a page load, a look of some 23,000 elements and a screenshot."""
    if site not in _UNDER_WHOLE_CSS:
        context = new_context()
        context.route(f"**/{CSS.as_posix()}", whole_css)
        extra = [in_page(tex, display) for tex, display in EXTRA]
        _UNDER_WHOLE_CSS[site] = shown(context, site.base_url + "real-numbers/", formulas_html(site), extra)
    return _UNDER_WHOLE_CSS[site]


def show(page, url: str, formulas: list[str]) -> None:
    """Open ``url`` (a page of the site) and show the formulas (their HTML) in place of its article,
    their fonts loaded."""
    page.goto(url)
    page.evaluate(SHOW_JS, formulas)
    page.evaluate("() => document.fonts.ready")


def read_look(page) -> list:
    """LOOK_JS's answer: one list per element of the page's formulas."""
    return json.loads(page.evaluate(LOOK_JS))


# The math of the built pages is read from their text as it is: the start tag of an element with
# one of KaTeX's or arithmatex's classes, and its end tag found by counting the tags of its name
# (span or div) that open and close inside it. KaTeX's markup holds no other text that looks like a
# tag (TeX in its annotation is escaped). It gives what BeautifulSoup's parse of every page gave
# (the same formulas, in the same order, each the same HTML once parsed), which took 5 s an idle
# worker, 12 s a busy one, for each worker that ran one of these tests.
_TAGS = {name: re.compile(rf"<(/?){name}\b[^>]*>") for name in ("span", "div")}
_KATEX = re.compile(r'<(span)\b[^>]*?\sclass="(?:[^"]*\s)?(?:katex|katex-display)(?:\s[^"]*)?"[^>]*>')
_ARITHMATEX = re.compile(r'<(span|div)\b[^>]*?\sclass="(?:[^"]*\s)?arithmatex(?:\s[^"]*)?"[^>]*>')
_TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


def _elements(text: str, start: re.Pattern) -> Iterator[str]:
    """The HTML of each element whose start tag ``start`` matches, outside one found before it."""
    pos = 0
    while (found := start.search(text, pos)) is not None:
        depth = 0
        for tag in _TAGS[found.group(1)].finditer(text, found.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                break
        assert depth == 0, f"an element without its end tag: {text[found.start() : found.start() + 120]}"
        yield text[found.start() : tag.end()]
        pos = tag.end()


@functools.cache
def _pages(site) -> dict[str, str]:
    """Each page: its path under the site -> its HTML, read once per worker."""
    return {p.relative_to(site.dir).as_posix(): p.read_text(encoding="utf-8") for p in site.html_files()}


def formulas_html(site) -> list[str]:
    """The HTML of every distinct formula of the built site, as the pages hold it: KaTeX's <span
    class="katex-display"> or, for inline math, <span class="katex">."""
    return list(dict.fromkeys(el for text in _pages(site).values() for el in _elements(text, _KATEX)))


def formulas_tex(site) -> dict[tuple[str, bool], list[str]]:
    """(TeX, display) of every formula on the built site -> the pages that show it. The TeX is
    read back from the MathML annotation that KaTeX writes (its source, escaped)."""
    found: dict[tuple[str, bool], list[str]] = {}
    for rel, text in _pages(site).items():
        for math in _elements(text, _ARITHMATEX):
            annotation = _TEX.search(math)
            assert annotation is not None, f"{rel}: a formula without KaTeX's MathML: {math[:120]}"
            key = (html.unescape(annotation.group(1)), 'class="katex-display"' in math)
            found.setdefault(key, []).append(rel)
    return found
