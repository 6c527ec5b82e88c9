"""Notebook pages and figures in Chromium, beyond what test_site.py checks on every page (no
console error, no request off the machine, no serious axe violation in either scheme: notebook
pages included, since they are built pages like the others).

- A notebook page has its math rendered with KaTeX when the site was built (cells), and as
  plain text in its table of contents, after a full load and after instant navigation; its
  copy buttons copy the cells: the imports, then each snippet file without them
  (publish.generate.notebooks.without_imports); its download link downloads the notebook as executed,
  outputs included (one page's: each page's link, tests/content/test_notebooks.py).
- A heatmap follows the palette toggle: the colours Chromium paints are the light scheme's, then
  the dark scheme's, and every cell's text contrasts with its fill by at least 4.5:1 in both.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_checks import (
    RAW_MATH_JS,
    katex_styled,
    open_for_instant_navigation,
    palette_toggle,
    recorded_context,
    report,
)
from playwright.sync_api import Page, expect

from publish.generate.figures import contrast
from publish.generate.notebooks import NOTEBOOKS, import_cell, imports, notebook_snippets, shown, without_imports

pytestmark = pytest.mark.browser


def test_notebook_math_rendered_in_cells_and_plain_in_contents(new_context, site):
    context, recorder = recorded_context(new_context, site)
    page = context.new_page()
    page.goto(site.url("notebooks/masking/index.html"))
    assert page.locator(".jupyter-wrapper .arithmatex .katex").count() >= 1
    assert katex_styled(page)
    contents = page.locator(".md-sidebar--secondary .md-nav__link").all_inner_texts()
    assert "Why −∞ before the softmax, and not 0 after it" in [t.strip() for t in contents], contents
    raw = page.evaluate(
        "() => [...document.querySelectorAll('.jupyter-wrapper .jp-RenderedMarkdown, .md-nav__link')]"
        ".filter((e) => e.checkVisibility()).map((e) => e.innerText).filter((t) => t.includes('$'))"
    )
    assert raw == [], f"TeX left unrendered: {raw}"
    assert not (problems := recorder.take()), report(problems)


def test_instant_navigation_between_notebooks(new_context, site):
    """Material swaps the content in without a reload: the next notebook's math is there, and
    nothing the notebook template would have run (scripts it no longer has) is missed."""
    context, recorder = recorded_context(new_context, site)
    page = context.new_page()
    open_for_instant_navigation(page, site.url("notebooks/real-numbers/index.html"))
    page.evaluate("() => { window.__noReload = true; }")
    target = site.url("notebooks/masking/index.html")
    page.locator(".md-sidebar--primary a.md-nav__link[href$='notebooks/masking/']").first.click()
    page.wait_for_url(target)
    page.wait_for_function("() => document.querySelector('.jupyter-wrapper .arithmatex') !== null")
    assert page.evaluate("() => window.__noReload === true"), "the click reloaded the page"
    expect(page.locator(".jupyter-wrapper .arithmatex .katex").first).to_be_visible()
    math = page.evaluate(RAW_MATH_JS)
    assert math["unrendered"] == [] and math["raw"] == [], math
    assert not (problems := recorder.take()), report(problems)


@pytest.mark.parametrize("name", ["real-numbers", "positional-encoding"])
def test_notebook_copy_buttons_copy_the_snippet_files(new_context, site, name):
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(site.url(f"notebooks/{name}/index.html"))
    files = [shown(b.snippet) for b in notebook_snippets(name)]  # as the pages show them whole
    cells = [import_cell([line for f in files for line in imports(f)])]
    cells += [without_imports(f) for f in files]
    # The code cells' buttons (a Markdown cell can show a block of text with a button of its own).
    buttons = page.locator(".jp-CodeCell .jp-InputArea button.md-code__button[data-md-type=copy]")
    expect(buttons.first).to_be_attached()
    assert buttons.count() == len(cells)
    for button, cell in zip(buttons.all(), cells, strict=True):
        page.evaluate("() => navigator.clipboard.writeText('')")
        button.scroll_into_view_if_needed()
        button.click()
        page.wait_for_function("() => navigator.clipboard.readText().then((t) => t !== '')", timeout=3000)
        assert page.evaluate("() => navigator.clipboard.readText()") == cell.rstrip("\n")


def test_download_link_downloads_the_notebook(page: Page, site, tmp_path: Path):
    """The link of a notebook page downloads the notebook under its name. The link is the same on
    every notebook page but for the name (tests/content/test_notebooks.py holds each one's address,
    text and file): one page's is clicked."""
    name = NOTEBOOKS[0].page
    page.goto(site.url(f"notebooks/{name}/index.html"))
    link = page.locator("p.notebook-download a[download]")
    expect(link).to_have_text(f"Download the notebook ({name}.ipynb)")
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == f"{name}.ipynb"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    # the executed notebook (tests/content/test_notebooks.py holds its cells and outputs to the page's)
    assert saved.read_bytes() == (site.dir / "notebooks" / name / f"{name}.ipynb").read_bytes()
    cells = json.loads(saved.read_text(encoding="utf-8"))["cells"]
    assert all(c["outputs"] for c in cells if c["cell_type"] == "code" and c["id"] != "imports"), name


# -- figures ------------------------------------------------------------------------------------

# Each cell: what Chromium paints, and the colours its markup asks for (publish/generate/figures.py): the
# fills --l and --d; the text black on light and white on dark unless the class hm-w or hm-k flips it.
PAINTED_JS = """() => [...document.querySelectorAll('svg.heatmap')].filter((s) => s.checkVisibility())
  .flatMap((s) => [...s.querySelectorAll('.hm-cells > g')].map((g) => ({
    fill: getComputedStyle(g.querySelector('path')).fill,
    ink: getComputedStyle(g.querySelector('text')).fill,
    light: [g.style.getPropertyValue('--l'), g.classList.contains('hm-w') ? '#fff' : '#000'],
    dark: [g.style.getPropertyValue('--d'), g.classList.contains('hm-k') ? '#000' : '#fff'],
  })))"""


def _hex(css: str) -> str:
    """rgb(r, g, b), #abc or #aabbcc as #aabbcc."""
    if css.startswith("#"):
        return "#" + "".join(c * 2 for c in css[1:]) if len(css) == 4 else css
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def test_heatmaps_follow_the_palette_toggle(page: Page, site):
    page.goto(site.url("real-numbers/index.html"))
    for scheme, key in (("default", "light"), ("slate", "dark")):
        if page.locator("body").get_attribute("data-md-color-scheme") != scheme:
            palette_toggle(page).click()
            expect(page.locator("body")).to_have_attribute("data-md-color-scheme", scheme)
        cells = page.evaluate(PAINTED_JS)
        assert len(cells) == 9, f"expected the 3×3 heatmap of bank / of / river, found {len(cells)} cells"
        for c in cells:
            fill, ink = _hex(c["fill"]), _hex(c["ink"])
            want = [_hex(x) for x in c[key]]
            assert [fill, ink] == want, f"[{key}] painted {fill} / {ink}, the figure's {key} colours are {want}"
            assert contrast(fill, ink) >= 4.5, f"[{key}] {ink} on {fill}"
        # Both text colours are painted on each scheme here: the classes hm-w and hm-k are in use.
        assert {_hex(c["ink"]) for c in cells} == {"#000000", "#ffffff"}, f"[{key}] {cells}"


def test_a_notebook_pages_tables_fit_a_laptops_column_as_on_its_page(new_context, site):
    """The transformer block's notebook page: its tables of seven and nine columns have the page's
    compact cells (extra.css), so none scrolls in a laptop's text column (they ran 14 and 214 px
    over it)."""
    page = new_context().new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site.url("notebooks/transformer-block/index.html"))
    tables = page.evaluate(
        "() => [...document.querySelectorAll('.jp-RenderedMarkdown table')].map(t => {"
        " const w = t.closest('.md-typeset__scrollwrap') || t.parentElement;"
        " return [t.querySelector('tr').textContent.trim().slice(0, 20), w.scrollWidth - w.clientWidth]; })"
    )
    assert len(tables) >= 10, tables
    assert [t for t in tables if t[1] > 1] == [], tables
