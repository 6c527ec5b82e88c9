"""The site's katex.min.css is cut to the rules its math uses (publish/mkdocs/page_weight/katex_css.py): every distinct
formula of the site lays out and looks the same under it as under the whole vendored file.

Each formula's HTML is read from the built pages and all of them are shown together in one page of
the site (its article replaced), once with the site's stylesheet and once with the whole vendored
file served in its place. KaTeX's stylesheet has no rule for a colour scheme: one scheme is enough."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from publish.mkdocs.page_weight.katex_css import CSS

pytestmark = pytest.mark.browser

VENDORED = Path(__file__).resolve().parents[2] / "docs" / CSS

RULES_JS = """() => [...document.styleSheets].find((s) => (s.href || '').endsWith('katex.min.css')).cssRules.length"""
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


def read_look(page) -> list:
    """LOOK_JS's answer: one list per element of the page's formulas."""
    return json.loads(page.evaluate(LOOK_JS))


def site_formulas(site) -> list[str]:
    """The HTML of every distinct formula of the built site: KaTeX's <span class="katex-display"> or,
    for inline math, <span class="katex">."""
    found: dict[str, None] = {}
    for soup in site.math().values():
        for el in soup.select("span.katex-display, span.katex"):
            if el.find_parent("span", class_="katex-display") is None:
                found[str(el)] = None
    return list(found)


def look(page, url: str, formulas: list[str]) -> list:
    page.goto(url)
    page.evaluate(SHOW_JS, formulas)
    page.evaluate("() => document.fonts.ready")
    return read_look(page)


def test_formulas_look_the_same_under_the_whole_stylesheet(site, new_context):
    assert len((site.dir / CSS).read_text(encoding="utf-8")) < len(VENDORED.read_text(encoding="utf-8"))
    formulas = site_formulas(site)
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
