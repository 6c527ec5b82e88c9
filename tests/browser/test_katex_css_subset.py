"""The site's katex.min.css is cut to the rules its math uses (publish/mkdocs/page_weight/katex_css.py): every distinct
formula of the site lays out and looks the same under it as under the whole vendored file.

Each formula's HTML is read from the built pages and all of them are shown together in one page of
the site (its article replaced), once with the site's stylesheet and once with the whole vendored
file served in its place (katex_look.under_whole_css, where test_katex_fonts_subset's extra formulas
follow them: the same page serves as that test's reference). KaTeX's stylesheet has no rule for a
colour scheme: one scheme is enough."""

from __future__ import annotations

import pytest
from katex_look import RULES_JS, VENDOR, formulas_html, read_look, show, under_whole_css

from publish.mkdocs.page_weight.katex_css import CSS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("katex_whole_css")]


def test_formulas_look_the_same_under_the_whole_stylesheet(site, new_context):
    assert len((site.dir / CSS).read_text(encoding="utf-8")) < len((VENDOR / CSS).read_text(encoding="utf-8"))
    formulas = formulas_html(site)
    assert len(formulas) > 100 and any(f.startswith('<span class="katex-display">') for f in formulas)
    cut = new_context().new_page()
    show(cut, site.base_url + "real-numbers/", formulas)
    a = read_look(cut)
    whole = under_whole_css(site, new_context)
    assert cut.evaluate(RULES_JS) < whole.rules, "the whole stylesheet was not the one served"
    assert len(a) == whole.site_elements > 1000
    b = whole.look[: whole.site_elements]
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    assert not differ, f"{len(differ)} of {len(a)} formula elements differ, first {differ[:3]}"
