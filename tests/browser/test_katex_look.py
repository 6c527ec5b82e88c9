"""Formulas look as they did when the reader's browser rendered them.

The math used to be rendered in the page by the vendored katex.min.js (auto-render); now
publish/markdown/katex_math.py runs the same file when the site is built. For every distinct formula of
the built site, the HTML in the page must be exactly the string that katex.min.js's
``renderToString`` gives in Chromium with the same options: same markup, same classes, same
inline sizes, so the same look under katex.min.css in light and dark.
"""

from __future__ import annotations

import pytest
from katex_look import formulas_tex
from playwright.sync_api import Page

from publish.markdown.katex_math import KATEX_JS, OPTIONS, in_page, render

pytestmark = pytest.mark.browser

RENDER_ALL_JS = """([formulas, options]) =>
  formulas.map(([tex, display]) => katex.renderToString(tex, Object.assign({displayMode: display}, options)))"""


@pytest.mark.slow
def test_server_html_is_katex_in_chromium(page: Page, site):
    formulas = formulas_tex(site)
    assert len(formulas) > 100, f"only {len(formulas)} distinct formulas on the site"
    assert any(display for _, display in formulas) and not all(display for _, display in formulas)
    page.set_content("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>KaTeX</title></head></html>")
    page.add_script_tag(path=str(KATEX_JS))  # the file's text, inlined: no request
    keys = sorted(formulas)
    in_chromium = page.evaluate(RENDER_ALL_JS, [[list(k) for k in keys], OPTIONS])
    differ = [f"{k} on {formulas[k][0]}" for k, html in zip(keys, in_chromium, strict=True) if render(*k) != html]
    assert not differ, f"{len(differ)} formulas render differently in Chromium: " + "\n".join(differ[:10])
    # and the pages hold that HTML as it is (the Markdown pages; a notebook page is rewritten by
    # BeautifulSoup in its hook, which keeps the markup but not every byte)
    texts = {rel: (site.dir / rel).read_text(encoding="utf-8") for rels in formulas.values() for rel in rels}
    for (tex, display), rels in formulas.items():
        for rel in rels:
            if not rel.startswith("notebooks/"):
                assert in_page(tex, display) in texts[rel], f"{rel}: the HTML of {tex!r} is not the renderer's"
