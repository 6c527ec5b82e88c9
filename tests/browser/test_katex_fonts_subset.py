"""The site's KaTeX fonts are cut to the characters its math shows (publish/mkdocs/page_weight/katex_fonts.py): every
distinct formula of the site, and a few more written with only the site's characters (bold, big
delimiters, a sum with limits, a root, a fraction, ∞), lays out and looks the same under the subset
fonts as under the whole vendored ones.

All of them are shown together in one page of the site (its article replaced), once with the site's
fonts (katex_look.under_whole_css, which test_katex_css_subset also compares with) and once with the
whole vendored fonts served in their place; both times under the whole vendored katex.min.css, so
that the fonts are the only difference and the extra formulas' rules (bold, which no page has) are
there. Compared: each element's box to 1/100 px, and the pixels (which
differ if a font loses the reference letters FreeType's auto-hinter reads: katex_fonts.SCRIPTS)."""

from __future__ import annotations

import pytest
from katex_look import EXTRA, formulas_html, shown, under_whole_css, whole_css, whole_font

from publish.markdown.katex_math import in_page
from publish.mkdocs.page_weight.katex_css import CSS
from publish.mkdocs.page_weight.katex_fonts import FONTS, _katex_text, used_characters

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("katex_whole_css")]


def test_formulas_look_the_same_under_the_whole_fonts(site, new_context):
    chars = used_characters(site.dir)
    extra = [in_page(tex, display) for tex, display in EXTRA]
    for tex, html in zip(EXTRA, extra, strict=True):
        text = _katex_text(html)
        assert text <= chars, (tex, text - chars)
    served: list[str] = []
    whole = new_context()
    whole.route(f"**/{CSS.as_posix()}", whole_css)
    whole.route(f"**/{FONTS.as_posix()}/*.woff2", whole_font(served))
    cut = under_whole_css(site, new_context)
    b = shown(whole, site.base_url + "real-numbers/", formulas_html(site), extra)
    a = cut.look
    # The fonts drawn: the subset ones, then the whole ones, each family the extra formulas need.
    assert cut.fonts == b.fonts
    for family in ("KaTeX_Main 400", "KaTeX_Main 700", "KaTeX_Math 400 italic", "KaTeX_Math 700 italic"):
        assert any(f.startswith(family) for f in cut.fonts), (family, cut.fonts)
    for size in ("KaTeX_Size1", "KaTeX_Size2", "KaTeX_Size3", "KaTeX_Size4"):
        assert any(f.startswith(size) for f in cut.fonts), (size, cut.fonts)
    assert "KaTeX_Main-Regular.woff2" in served and "KaTeX_Main-Bold.woff2" in served
    assert len(a) == len(b.look) > 1000
    differ = [(x, y) for x, y in zip(a, b.look, strict=True) if x != y]
    assert not differ, f"{len(differ)} of {len(a)} formula elements differ, first {differ[:3]}"
    assert cut.pixels == b.pixels, "the formulas' pixels differ under the subset fonts"
