"""The site's KaTeX fonts are cut to the characters its math shows (publish/mkdocs/page_weight/katex_fonts.py): every
distinct formula of the site, and a few more written with only the site's characters (bold, big
delimiters, a sum with limits, a root, a fraction, ∞), lays out and looks the same under the subset
fonts as under the whole vendored ones.

All of them are shown together in one page of the site (its article replaced), once with the site's
fonts and once with the whole vendored fonts served in their place; both times under the whole
vendored katex.min.css, so that the fonts are the only difference and the extra formulas' rules
(bold, which no page has) are there. Compared: each element's box to 1/100 px, and the pixels (which
differ if a font loses the reference letters FreeType's auto-hinter reads: katex_fonts.SCRIPTS)."""

from __future__ import annotations

from pathlib import Path

import pytest
from katex_look import formulas_html, read_look, show

from publish.markdown.katex_math import in_page
from publish.mkdocs.page_weight.katex_css import CSS
from publish.mkdocs.page_weight.katex_fonts import FONTS, _katex_text, used_characters

pytestmark = pytest.mark.browser

VENDOR = Path(__file__).resolve().parents[2] / "docs"

# Formulas beyond the site's, in characters of the site's math only (a subset font keeps no other).
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
FONTS_JS = """() => [...document.fonts].filter((f) => f.family.startsWith('KaTeX_') && f.status === 'loaded')
  .map((f) => `${f.family} ${f.weight} ${f.style}`).sort()"""


def look(context, url: str, formulas: list[str]) -> tuple[list, list, bytes]:
    page = context.new_page()
    show(page, url, formulas)
    article = page.locator("article.md-content__inner")
    return read_look(page), page.evaluate(FONTS_JS), article.screenshot(animations="disabled")


def test_formulas_look_the_same_under_the_whole_fonts(site, new_context):
    chars = used_characters(site.dir)
    extra = [in_page(tex, display) for tex, display in EXTRA]
    for tex, html in zip(EXTRA, extra, strict=True):
        text = _katex_text(html)
        assert text <= chars, (tex, text - chars)
    formulas = [*formulas_html(site), *extra]
    url = site.base_url + "real-numbers/"
    whole_css = lambda route: route.fulfill(path=VENDOR / CSS, content_type="text/css")  # noqa: E731
    served: list[str] = []

    def whole_font(route):
        name = route.request.url.rsplit("/", 1)[-1]
        served.append(name)
        route.fulfill(path=VENDOR / FONTS / name, content_type="font/woff2")

    cut, whole = new_context(), new_context()
    for context in (cut, whole):
        context.route(f"**/{CSS.as_posix()}", whole_css)
    whole.route(f"**/{FONTS.as_posix()}/*.woff2", whole_font)
    a, fonts_a, pixels_a = look(cut, url, formulas)
    b, fonts_b, pixels_b = look(whole, url, formulas)
    # The fonts drawn: the subset ones, then the whole ones, each family the extra formulas need.
    assert fonts_a == fonts_b
    for family in ("KaTeX_Main 400", "KaTeX_Main 700", "KaTeX_Math 400 italic", "KaTeX_Math 700 italic"):
        assert any(f.startswith(family) for f in fonts_a), (family, fonts_a)
    for size in ("KaTeX_Size1", "KaTeX_Size2", "KaTeX_Size3", "KaTeX_Size4"):
        assert any(f.startswith(size) for f in fonts_a), (size, fonts_a)
    assert "KaTeX_Main-Regular.woff2" in served and "KaTeX_Main-Bold.woff2" in served
    assert len(a) == len(b) > 1000
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    assert not differ, f"{len(differ)} of {len(a)} formula elements differ, first {differ[:3]}"
    assert pixels_a == pixels_b, "the formulas' pixels differ under the subset fonts"
