"""The pages carry KaTeX's HTML a little shorter than KaTeX writes it (publish/markdown/katex_math.py,
in_page): the <math> without its xmlns and the inline styles without leading zeros and last ';'.
Every distinct formula of the site lays out and looks the same both ways in Chromium, and its <math>
is MathML to the browser either way.

Each formula's TeX is read from the built pages (the annotation KaTeX writes); all of them are shown
together in one page of the site (its article replaced), once as KaTeX writes them (render) and once
as the pages carry them (in_page), and each element's box (to 1/100 px) and its computed values of
every property that KaTeX's inline styles set are compared."""

from __future__ import annotations

import json
import re

import pytest
from katex_look import formulas_tex, show

from publish.markdown.katex_math import in_page, render

pytestmark = pytest.mark.browser

# As one JSON string, like test_katex_css_subset's look (Playwright's conversion of some 15,000
# arrays is slow).
LOOK_JS = """(props) => JSON.stringify([...document.querySelectorAll('article .katex, article .katex *')].map((e) => {
  const r = e.getBoundingClientRect();
  const s = getComputedStyle(e);
  return [e.tagName, e.namespaceURI, e.getAttribute('class'),
          ...[r.x, r.y, r.width, r.height].map((v) => Math.round(v * 100)), ...props.map((p) => s.getPropertyValue(p))];
}))"""
MATHML = "http://www.w3.org/1998/Math/MathML"


def test_formulas_look_the_same_as_katex_writes_them(site, page):
    formulas = list(formulas_tex(site))  # (TeX, display) of every distinct formula of the site
    assert len(formulas) > 100 and any(d for _, d in formulas) and not all(d for _, d in formulas)
    written = [render(tex, display) for tex, display in formulas]
    shown = [in_page(tex, display) for tex, display in formulas]
    # the page's markup is KaTeX's, shorter: about 40 characters a formula (39.6 over 444 formulas,
    # many of them one letter, which save less)
    assert sum(map(len, shown)) < sum(map(len, written)) - 35 * len(formulas)
    assert not any('xmlns="http://www.w3.org/1998/Math/MathML"' in h or ":0." in h for h in shown)
    props = sorted(
        {p.strip() for h in written for s in re.findall(r'style="([^"]*)"', h) for p in re.findall(r"([\w-]+):", s)}
    )
    assert {"height", "vertical-align", "margin-right", "top"} <= set(props), props
    looks = []
    for formulas_html in (written, shown):
        show(page, site.base_url + "real-numbers/", formulas_html)
        looks.append(json.loads(page.evaluate(LOOK_JS, props)))
    a, b = looks
    assert len(a) == len(b) > 1000
    assert sum(1 for e in b if e[0] == "math" and e[1] == MATHML) == len(formulas)  # MathML without xmlns too
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    assert not differ, f"{len(differ)} of {len(a)} formula elements differ, first {differ[:3]}"
