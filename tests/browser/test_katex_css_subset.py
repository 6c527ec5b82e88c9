"""The site's katex.min.css is cut to the rules its math uses (publish/mkdocs/page_weight/katex_css.py): every distinct
formula of the site lays out and looks the same under it as under the whole vendored file.

Each formula's HTML is read from the built pages and all of them are shown together in one page of
the site (its article replaced), once with the site's stylesheet and once with the whole vendored
file served in its place. KaTeX's stylesheet has no rule for a colour scheme: one scheme is enough."""

from __future__ import annotations

from pathlib import Path

import pytest
from katex_look import formulas_html, read_look, show

from publish.mkdocs.page_weight.katex_css import CSS

pytestmark = pytest.mark.browser

VENDORED = Path(__file__).resolve().parents[2] / "docs" / CSS

RULES_JS = """() => [...document.styleSheets].find((s) => (s.href || '').endsWith('katex.min.css')).cssRules.length"""


def look(page, url: str, formulas: list[str]) -> list:
    show(page, url, formulas)
    return read_look(page)


def test_formulas_look_the_same_under_the_whole_stylesheet(site, new_context):
    assert len((site.dir / CSS).read_text(encoding="utf-8")) < len(VENDORED.read_text(encoding="utf-8"))
    formulas = formulas_html(site)
    assert len(formulas) > 100 and any(f.startswith('<span class="katex-display">') for f in formulas)
    url = site.base_url + "real-numbers/"
    cut = new_context().new_page()
    whole_context = new_context()
    whole_context.route(f"**/{CSS.as_posix()}", lambda route: route.fulfill(path=VENDORED, content_type="text/css"))
    whole = whole_context.new_page()
    a, b = look(cut, url, formulas), look(whole, url, formulas)
    assert cut.evaluate(RULES_JS) < whole.evaluate(RULES_JS), "the whole stylesheet was not the one served"
    assert len(a) == len(b) > 1000
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    assert not differ, f"{len(differ)} of {len(a)} formula elements differ, first {differ[:3]}"
