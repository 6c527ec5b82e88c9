"""What the browser tests of the site's KaTeX (tests/browser/test_katex_*.py) share: every distinct
formula of the built site (as HTML, or as TeX), and a page of the site that shows a list of formulas
in place of its article (show), with how each of their elements looks there (read_look)."""

from __future__ import annotations

import json

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


def show(page, url: str, formulas: list[str]) -> None:
    """Open ``url`` (a page of the site) and show the formulas (their HTML) in place of its article,
    their fonts loaded."""
    page.goto(url)
    page.evaluate(SHOW_JS, formulas)
    page.evaluate("() => document.fonts.ready")


def read_look(page) -> list:
    """LOOK_JS's answer: one list per element of the page's formulas."""
    return json.loads(page.evaluate(LOOK_JS))


def formulas_html(site) -> list[str]:
    """The HTML of every distinct formula of the built site: KaTeX's <span class="katex-display"> or,
    for inline math, <span class="katex">."""
    found: dict[str, None] = {}
    for soup in site.math().values():
        for el in soup.select("span.katex-display, span.katex"):
            if el.find_parent("span", class_="katex-display") is None:
                found[str(el)] = None
    return list(found)


def formulas_tex(site) -> dict[tuple[str, bool], list[str]]:
    """(TeX, display) of every formula on the built site -> the pages that show it. The TeX is
    read back from the MathML annotation that KaTeX writes (its source, escaped)."""
    found: dict[tuple[str, bool], list[str]] = {}
    for rel, soup in site.math().items():
        for math in soup.select(".arithmatex"):
            annotation = math.select_one(".katex-mathml annotation[encoding='application/x-tex']")
            assert annotation is not None, f"{rel}: a formula without KaTeX's MathML: {str(math)[:120]}"
            key = (annotation.get_text(), math.select_one(".katex-display") is not None)
            found.setdefault(key, []).append(rel)
    return found
