"""A page with math preloads the two KaTeX fonts that nearly every formula uses (overrides/main.html):
KaTeX_Main, and KaTeX_Math where a formula has an italic variable. Without the preload a phone lays
the first screen's formulas out again when the fonts arrive (Lighthouse: a layout shift of 0.26 on
the learning page).

Held here: each page preloads exactly the fonts its math uses of the two; each preloaded URL is a
file of the built site and the first URL katex.min.css names for that face (else the browser fetches
the font a second time and the preload was for nothing); and in Chromium the preloaded file is
fetched once and its face is loaded, on every page that preloads it."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

PRELOAD = re.compile(r'<link rel="preload" href="([^"]+)" as="font" type="font/woff2" crossorigin>')
FACES = {  # the preloaded file -> the face katex.min.css gives it, and what in a page's math uses it
    "KaTeX_Main-Regular.woff2": ("KaTeX_Main", "normal", 'class="katex"'),
    "KaTeX_Math-Italic.woff2": ("KaTeX_Math", "italic", "mathnormal"),
}


def preloads(html: str) -> list[str]:
    return PRELOAD.findall(html)


def test_each_page_preloads_the_fonts_its_math_uses(site):
    css = (site.dir / "assets/vendor/katex/katex.min.css").read_text(encoding="utf-8")
    for name, (family, style, _) in FACES.items():
        face = re.search(rf"@font-face{{[^}}]*font-family:{family};font-style:{style};font-weight:400;[^}}]*}}", css)
        assert face, f"katex.min.css has no {family} {style} face"
        first = re.search(r"src:url\(([^)]+)\)", face.group(0)).group(1)
        assert first == f"fonts/{name}", f"katex.min.css's {family} {style} face names {first} first, not fonts/{name}"
    with_math = 0
    for path in site.html_files():
        html = path.read_text(encoding="utf-8")
        article = html[html.find("<article") :]
        want = [n for n, (_, _, marker) in FACES.items() if marker in article] if 'class="katex"' in article else []
        got = [href.rsplit("/", 1)[-1] for href in preloads(html)]
        assert got == want, f"{path.relative_to(site.dir)} preloads {got}, its math uses {want}"
        for href in preloads(html):
            assert (path.parent / href).resolve().is_file(), f"{path.relative_to(site.dir)}: {href} is not in the site"
        with_math += bool(want)
    assert with_math >= 20, f"only {with_math} pages preload a KaTeX font"


FETCHED_JS = """() => ({
  fetched: performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/katex/fonts/')),
  loaded: [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family} ${f.style}`),
})"""


@pytest.mark.parametrize("page_path", ["learning/", "real-numbers/", "notation/"])
def test_a_preloaded_font_is_fetched_once_and_used(site, new_context, page_path):
    page = new_context().new_page()
    page.goto(site.base_url + page_path)
    page.evaluate("() => document.fonts.ready")
    seen = page.evaluate(FETCHED_JS)
    html = (site.dir / page_path / "index.html").read_text(encoding="utf-8")
    assert preloads(html), f"{page_path} preloads no font"
    for href in preloads(html):
        name = href.rsplit("/", 1)[-1]
        family, style, _ = FACES[name]
        times = [u for u in seen["fetched"] if u.endswith("/" + name)]
        assert len(times) == 1, f"{page_path}: {name} fetched {len(times)} times ({seen['fetched']})"
        assert f"{family} {style}" in seen["loaded"], f"{page_path}: {family} {style} is not loaded ({seen['loaded']})"
