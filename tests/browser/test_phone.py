"""The site on a phone (375 px wide), in Chromium: wide math and tables that scroll show a cue at
the edge that has more, the copy button sits above the first line of code, not on it, and the
diagrams of the flow fit the screen at their own size, every text at 11 px or more, in both
schemes."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
MIN_FONT = 11  # px: the smallest text a diagram or chart may show on a phone
# The pages with diagrams (publish/generate/diagrams.py) or a bar chart (publish/generate/figures.py) and how many
# SVGs each shows.
DIAGRAM_PAGES = {
    "queries-keys-values/index.html": 1,
    "multi-head/index.html": 1,
    "rnn-comparison/index.html": 2,
    "transformer-block/index.html": 1,
    "positional-encoding/index.html": 1,  # the accuracies' bar chart (svg.barchart)
}
# Every text of every diagram on the page, as the phone shows it: its font size times the factor
# by which the SVG is scaled to the column, and its box against the SVG's and its own box's.
MEASURE_DIAGRAMS = """() => {
  const column = document.querySelector('.md-content__inner').getBoundingClientRect();
  return [...document.querySelectorAll('svg.diagram, svg.barchart')].map(svg => {
    const r = svg.getBoundingClientRect();
    const scale = r.width / svg.viewBox.baseVal.width;
    const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1
      && a.bottom <= b.bottom + 1;
    const texts = [...svg.querySelectorAll('text')].map(t => {
      const box = t.closest('.dg-node')?.querySelector('rect, circle');
      const tr = t.getBoundingClientRect();
      return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
              inSvg: inside(tr, r), inBox: box ? inside(tr, box.getBoundingClientRect()) : true};
    });
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, scale,
            columnLeft: column.left, columnRight: column.right, texts};
  });
}"""


# The fonts in, and a frame and a task later: scrollable.js, which runs again once the fonts are
# in (document.fonts.ready), has marked the blocks that scroll.
SETTLED_JS = """() => document.fonts.ready
  .then(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))))"""


@pytest.fixture(scope="module")
def contexts(module_context):
    """One browser context per colour scheme for the module (each test opens its own pages): the
    site's files come from the context's cache after the first page."""
    made = {}

    def get(scheme: str):
        if scheme not in made:
            made[scheme] = module_context(color_scheme=scheme)
        return made[scheme]

    return get


@pytest.fixture(scope="module")
def loaded(contexts, site):
    """The pages opened at 375 px for the module, one per page and scheme: the tests that only
    read a page (all but those that resize it) share its load."""
    pages = {}

    def open_(path: str, scheme: str):
        page = contexts(scheme).new_page()
        page.set_viewport_size(PHONE)
        page.goto(site.url(path))
        page.wait_for_function("() => !document.querySelector('.arithmatex:not(:has(.katex))')")
        page.evaluate(SETTLED_JS)
        return page

    def get(path: str, scheme: str, fresh: bool):
        if fresh:
            return open_(path, scheme)
        if (path, scheme) not in pages:
            pages[path, scheme] = open_(path, scheme)
        return pages[path, scheme]

    yield get
    for page in pages.values():
        page.close()


@pytest.fixture
def phone(loaded):
    """Opens a page of the site at 375 px (the session's viewport is a laptop's), in a scheme: the
    module's load of it, or with ``fresh`` a load of its own, for a test that changes the page."""
    own = []

    def open_(path: str, scheme: str = "light", fresh: bool = False):
        page = loaded(path, scheme, fresh)
        if fresh:
            own.append(page)
        return page

    yield open_
    for page in own:
        page.close()


# The edge shadows of a box that scrolls sideways, as computed in each scheme (extra.css's
# --scroll-shadow): a band along the whole edge, as strong at the top of a tall table as at its middle.
SHADOWS = {
    "light": ["linear-gradient(to right, rgba(0, 0, 0, 0.28), rgba(0, 0, 0, 0))",
              "linear-gradient(to left, rgba(0, 0, 0, 0.28), rgba(0, 0, 0, 0))"],
    "dark": ["linear-gradient(to right, rgba(255, 255, 255, 0.3), rgba(0, 0, 0, 0))",
             "linear-gradient(to left, rgba(255, 255, 255, 0.3), rgba(0, 0, 0, 0))"],
}  # fmt: skip


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["cheat-sheet/index.html", "positional-encoding/index.html", "notation/index.html"])
def test_a_block_that_scrolls_shows_a_cue(phone, path, scheme):
    page = phone(path, scheme)
    found = page.evaluate(
        """() => [...document.querySelectorAll('.md-typeset div.arithmatex, .md-typeset .md-typeset__scrollwrap')]
            .filter(e => e.scrollWidth > e.clientWidth + 1)
            .map(e => [e.hasAttribute('data-scrollable'), getComputedStyle(e).backgroundImage])"""
    )
    assert found, f"{path}: nothing scrolls sideways at 375 px, so the cue cannot be checked"
    for marked, background in found:
        assert marked, found
        assert background.count("gradient(") == 4, background  # two covers, two shadows
        assert all(shadow in background for shadow in SHADOWS[scheme]), background


FORMULA_PAGES = [
    "queries-keys-values/index.html", "real-numbers/index.html", "rnn-comparison/index.html",
    "transformer-block/index.html",
]  # fmt: skip
# Each visible table: its number of columns and how far it runs past its box (0 if it fits).
TABLES_JS = """() => [...document.querySelectorAll('.md-typeset .md-typeset__scrollwrap')]
  .filter(e => e.querySelector('table') && e.checkVisibility())
  .map(e => ({columns: e.querySelector('tr').children.length, over: e.scrollWidth - e.clientWidth,
              head: e.querySelector('tr').textContent.replace(/\\s+/g, ' ').trim()}))"""


@pytest.mark.parametrize(
    "path",
    ["real-numbers/index.html", "masking/index.html", "rnn-comparison/index.html", "transformer-block/index.html"],
)
def test_tables_of_up_to_five_columns_fit_a_phone(phone, path):
    """A score or weight table (its row labels and up to four columns of numbers) fits the column
    without scrolling: Material's 5rem minimum header width made a 3 x 3 table 400 px wide."""
    tables = [t for t in phone(path).evaluate(TABLES_JS) if t["columns"] <= 5]
    assert len(tables) >= 3, f"{path}: too few tables to check ({tables})"
    assert [t for t in tables if t["over"] > 1] == [], path


def test_a_row_with_its_mean_and_variance_fits_a_phone(phone):
    """The transformer block's tables of a residual sum or an output with its μ and σ² columns
    (seven columns) fit the column: the prose quotes their σ², which once scrolled out of sight."""
    tables = [t for t in phone("transformer-block/index.html").evaluate(TABLES_JS) if "σ²" in t["head"]]
    assert len(tables) >= 4, tables
    assert [t for t in tables if t["over"] > 1] == [], tables


@pytest.mark.parametrize("path", FORMULA_PAGES)
def test_display_formulas_fit_a_phone(phone, path):
    """Every display formula of these pages fits the column (at KaTeX's 1.21em four ran 2 to 13 px
    over and scrolled sideways for it; extra.css sets them at 1.1em on a phone)."""
    widths = phone(path).evaluate(
        """() => [...document.querySelectorAll('.md-typeset div.arithmatex')].filter(e => e.checkVisibility())
            .map(e => [e.scrollWidth - e.clientWidth, e.querySelector('annotation').textContent.trim()])"""
    )
    assert widths, f"{path}: no display formula"
    assert [w for w in widths if w[0] > 1] == [], path


# Formulas in table cells that run over more than one line (an inline box cut in two has a
# rectangle on each line).
WRAPPED_CELL_FORMULAS_JS = """() => [...document.querySelectorAll('.md-typeset :is(td, th) .katex')]
  .filter(k => k.checkVisibility() && k.getClientRects().length > 1)
  .map(k => k.querySelector('annotation').textContent)"""


@pytest.mark.parametrize("path", ["notation/index.html", "cheat-sheet/index.html"])
def test_a_formula_in_a_table_stays_on_one_line(phone, path):
    page = phone(path)
    assert page.evaluate("() => document.querySelectorAll('.md-typeset td .katex').length") >= 10, path
    assert page.evaluate(WRAPPED_CELL_FORMULAS_JS) == [], path


# Where each inline code of a table cell breaks across lines: the text before each break.
CODE_BREAKS_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(c => c.checkVisibility())
  .map(code => {
    const text = code.textContent, breaks = [];
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let top = null, before = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect && top !== null && rect.top > top + 1) breaks.push(before);
        if (rect) top = rect.top;
        before += node.data[i];
      }
    }
    return {text, breaks};
  })"""


@pytest.mark.parametrize("width", [PHONE["width"], 1280])
def test_code_in_tables_breaks_only_between_words_and_path_parts(phone, width):
    """In the tables of Add a worked example (file paths, the spec's keys), code breaks after a "/"
    or "_" of a path, after a name's "." (publish/markdown/path_breaks.py) or where text breaks (a space, a
    hyphen, a "?"), never in the middle of a name: before, "snippets/examp" + "les/river_bank" on a
    phone, and the keys "desc|ript|ion" on a laptop."""
    page = phone("add-an-example/index.html", fresh=True)  # resized below
    page.set_viewport_size({"width": width, "height": PHONE["height"]})
    codes = page.evaluate(CODE_BREAKS_JS, ".md-typeset :is(td, th) code")
    paths = [c for c in codes if "/" in c["text"]]
    assert len(codes) >= 15 and len(paths) >= 5, codes
    if width == PHONE["width"]:
        assert any(c["breaks"] for c in paths), paths  # some paths do break at 375 px
    allowed = ("/", "_", ".", " ", "-", "?")
    bad = [(c["text"], before) for c in codes for before in c["breaks"] if not before.endswith(allowed)]
    assert bad == [], bad


@pytest.mark.parametrize(
    "path",
    [
        "api/index.html",
        "positional-encoding/index.html",
        "rnn-comparison/index.html",
        "notebooks/rnn-comparison/index.html",
    ],
)
def test_long_names_in_the_text_break_between_their_parts(phone, path):
    """On a phone, a long name in inline code (torch.use_deterministic_algorithms(True),
    selfattn_ref/examples/rnn/the_cat_sat.toml) breaks after a ".", "_" or "/"
    (publish/markdown/path_breaks.py) or where text breaks, not in the middle of a word."""
    codes = phone(path).evaluate(CODE_BREAKS_JS, ".md-typeset :is(p, li, dd) > code")
    broken = [c for c in codes if c["breaks"]]
    assert broken, f"{path}: no inline code breaks across lines at 375 px, so nothing is checked"
    allowed = ("/", "_", ".", " ", "-", "?", "(", ")", ",")
    bad = [(c["text"], before) for c in broken for before in c["breaks"] if not before.endswith(allowed)]
    assert bad == [], bad


def test_the_widest_formulas_are_broken_up(phone):
    """The formulas that ran to twice the screen's width are now split into lines of their own."""
    for path in ("masking/index.html", "multi-head/index.html", "transformer-block/index.html"):
        page = phone(path)
        widths = page.evaluate(
            "() => [...document.querySelectorAll('.md-typeset div.arithmatex')].map(e => e.scrollWidth)"
        )
        assert widths and max(widths) < 1.6 * PHONE["width"], (path, widths)


@pytest.mark.parametrize("path", ["queries-keys-values/index.html", "real-numbers/index.html"])
def test_the_copy_button_is_off_the_first_line_of_code(phone, path):
    page = phone(path)
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


@pytest.mark.parametrize("path", sorted(DIAGRAM_PAGES))
def test_diagrams_are_readable_on_a_phone(phone, path):
    """Each diagram (and the bar chart) fits the column at its own size (not shrunk), every text is
    11 px or more and lies inside its picture and its box."""
    page = phone(path)
    svgs = page.evaluate(MEASURE_DIAGRAMS)
    assert len(svgs) == DIAGRAM_PAGES[path], svgs
    for svg in svgs:
        small = [(t["text"], round(t["px"], 1)) for t in svg["texts"] if t["px"] < MIN_FONT]
        assert not small, f"{path}: text under {MIN_FONT} px on a phone: {small}"
        assert svg["columnLeft"] - 1 <= svg["left"] and svg["right"] <= svg["columnRight"] + 1, svg
        assert svg["scale"] > 0.99, f"{path}: a diagram is shrunk to {svg['scale']:.2f} of its size"
        outside = [t["text"] for t in svg["texts"] if not (t["inSvg"] and t["inBox"])]
        assert not outside, f"{path}: text outside its picture or its box: {outside}"


def test_the_rnn_and_attention_stack_on_a_phone_and_sit_side_by_side_on_a_laptop(phone, contexts, site):
    path = "rnn-comparison/index.html"
    chain, attention = phone(path).evaluate(MEASURE_DIAGRAMS)
    assert attention["top"] >= chain["bottom"], (chain, attention)  # one above the other
    page = contexts("light").new_page()  # the session's laptop viewport, 1280 px
    page.goto(site.url(path))
    chain, attention = page.evaluate(MEASURE_DIAGRAMS)
    assert abs(chain["bottom"] - attention["bottom"]) < 1 and chain["right"] < attention["left"], (chain, attention)
    assert chain["scale"] > 0.99 and attention["scale"] > 0.99, (chain, attention)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_diagrams_fit_the_phone_screen(phone, scheme):
    page = phone("transformer-block/index.html", scheme)
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
