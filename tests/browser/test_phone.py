"""The site on a phone (375 px wide), in Chromium: wide math and tables that scroll show a cue at
the edge that has more, the copy button sits above the first line of code, not on it, and the
diagrams of the flow fit the screen in both schemes."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}


def _open(new_context, site, path: str, scheme: str = "light"):
    context = new_context(color_scheme=scheme)  # the session's viewport is a laptop's
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.goto(site.url(path))
    page.wait_for_function("() => !document.querySelector('.arithmatex:not(:has(.katex))')")
    page.evaluate("() => document.fonts.ready")
    page.wait_for_timeout(300)  # scrollable.js runs again once the fonts are in
    return page


@pytest.mark.parametrize("path", ["cheat-sheet/index.html", "masking/index.html"])
def test_a_block_that_scrolls_shows_a_cue(new_context, site, path):
    page = _open(new_context, site, path)
    found = page.evaluate(
        """() => [...document.querySelectorAll('.md-typeset div.arithmatex, .md-typeset .md-typeset__scrollwrap')]
            .filter(e => e.scrollWidth > e.clientWidth + 1)
            .map(e => [e.hasAttribute('data-scrollable'), getComputedStyle(e).backgroundImage])"""
    )
    assert found, f"{path}: nothing scrolls sideways at 375 px, so the cue cannot be checked"
    for marked, background in found:
        assert marked, found
        assert background.count("gradient(") == 4, background  # two covers, two shadows


def test_the_widest_formulas_are_broken_up(new_context, site):
    """The formulas that ran to twice the screen's width are now split into lines of their own."""
    for path in ("masking/index.html", "multi-head/index.html", "transformer-block/index.html"):
        page = _open(new_context, site, path)
        widths = page.evaluate(
            "() => [...document.querySelectorAll('.md-typeset div.arithmatex')].map(e => e.scrollWidth)"
        )
        assert widths and max(widths) < 1.6 * PHONE["width"], (path, widths)


@pytest.mark.parametrize("path", ["queries-keys-values/index.html", "real-numbers/index.html"])
def test_the_copy_button_is_off_the_first_line_of_code(new_context, site, path):
    page = _open(new_context, site, path)
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.md-typeset pre > code')]
            .filter(c => c.offsetParent !== null)
            .map(c => {
              const pre = c.parentElement;
              const button = pre.querySelector('button.md-code__button[data-md-type=copy]')
                || pre.parentElement.querySelector('button.md-code__button[data-md-type=copy]');
              const range = document.createRange();
              const first = c.firstChild;
              if (!button || !first) return null;
              range.setStart(c, 0);
              range.setEnd(c, Math.min(1, c.childNodes.length));
              const line = range.getBoundingClientRect();
              const b = button.getBoundingClientRect();
              return {lineTop: line.top, buttonBottom: b.bottom, code: c.innerText.slice(0, 30)};
            }).filter(Boolean)"""
    )
    assert boxes, f"{path}: no visible code block with a copy button"
    for box in boxes:
        assert box["buttonBottom"] <= box["lineTop"] + 1, box


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_diagrams_fit_the_phone_screen(new_context, site, scheme):
    page = _open(new_context, site, "transformer-block/index.html", scheme)
    svg = page.locator("svg.diagram").first
    box = svg.bounding_box()
    assert box and box["width"] <= PHONE["width"], box
    # Lines and text in the page's text colour, boxes in its background: the colours of the scheme.
    colours = page.evaluate(
        """() => { const s = document.querySelector('svg.diagram');
            const r = s.querySelector('.dg-node rect');
            return [getComputedStyle(s).color, getComputedStyle(r).fill,
                    getComputedStyle(document.querySelector('.md-main')).backgroundColor,
                    getComputedStyle(document.querySelector('.md-typeset')).color]; }"""
    )
    text, fill, _, page_text = colours
    assert text == page_text, colours
    assert fill != text, colours
