"""The site on a phone (375 px wide), in Chromium: wide math, tables and code that scroll show a cue at
the edge that has more, the copy button sits above the first line of code, not on it, and the
diagrams of the flow fit the screen at their own size, every text at 11 px or more, in both
schemes."""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
MIN_FONT = 11  # px: the smallest text a diagram or chart may show on a phone
# Positions and sizes are compared to within a CSS pixel, never for equality: Chromium lays boxes out
# in 1/64 px (LayoutUnit), an SVG scaled to its column and text at a fractional size have edges
# between whole pixels, and scrollWidth and clientWidth are whole pixels rounded each on its own, so
# that a box that fits exactly can measure 1 px over. What the tests catch is larger: a table or
# formula 2 to 100 px wider than the column, a diagram shrunk, a button on a line of code.
SLACK = 1  # px
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
MEASURE_DIAGRAMS = """(slack) => {
  const column = document.querySelector('.md-content__inner').getBoundingClientRect();
  return [...document.querySelectorAll('svg.diagram, svg.barchart')].map(svg => {
    const r = svg.getBoundingClientRect();
    const scale = r.width / svg.viewBox.baseVal.width;
    const inside = (a, b) => a.left >= b.left - slack && a.right <= b.right + slack
      && a.top >= b.top - slack && a.bottom <= b.bottom + slack;
    const texts = [...svg.querySelectorAll('text')].map(t => {
      const box = t.closest('.dg-node')?.querySelector('rect, circle');
      const tr = t.getBoundingClientRect();
      return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
              inSvg: inside(tr, r), inBox: box ? inside(tr, box.getBoundingClientRect()) : true};
    });
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, scale, width: svg.viewBox.baseVal.width,
            columnLeft: column.left, columnRight: column.right, texts};
  });
}"""


# The fonts in, and a frame and a task later: scrollable.js, which runs again once the fonts are
# in (document.fonts.ready), has marked the blocks that scroll.
SETTLED_JS = """() => document.fonts.ready
  .then(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))))"""


@pytest.fixture(scope="module")
def contexts(module_context):
    """One browser context per colour scheme for the module (each test opens its own pages), a
    phone's: a touch screen, whose pointer cannot hover (Material then gives no code block a tab
    stop). The site's files come from the context's cache after the first page."""
    made = {}

    def get(scheme: str):
        if scheme not in made:
            made[scheme] = module_context(color_scheme=scheme, has_touch=True)
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


# The boxes that scroll sideways: display math, tables and code (scrollable.js marks one that
# scrolls data-scrollable; Material's tab stop on code is only where the pointer can hover).
SCROLLERS = ".md-typeset div.arithmatex, .md-typeset .md-typeset__scrollwrap, .md-typeset pre > code"
# The visible boxes whose mark does not say whether they scroll (none once scrollable.js has
# measured them at the window's width).
MISMARKED_JS = f"""() => [...document.querySelectorAll('{SCROLLERS}')]
  .filter(e => e.checkVisibility() && (e.scrollWidth > e.clientWidth + {SLACK}) !== e.hasAttribute('data-scrollable'))
  .map(e => `${{e.tagName}} ${{e.scrollWidth}}/${{e.clientWidth}}: ${{e.textContent.trim().slice(0, 40)}}`)"""
# Each visible box that scrolls sideways: its kind, whether it is marked so, and its background's
# layers; the box itself gets data-cue-probe="<its index among them>".
CUES_JS = f"""() => [...document.querySelectorAll('{SCROLLERS}')]
  .map(e => (e.removeAttribute('data-cue-probe'), e))
  .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + {SLACK})
  .map((e, i) => {{
    e.setAttribute('data-cue-probe', i);
    const code = e.matches('pre > code');
    return {{kind: code ? 'code' : e.matches('div.arithmatex') ? 'math' : 'table',
             marked: e.hasAttribute('data-scrollable'),
             background: getComputedStyle(e).backgroundImage, fades: getComputedStyle(e).maskImage !== 'none'}};
  }})"""
# Scrolls box i to the middle of the screen and to ``left`` (a fraction of how far it scrolls), and
# returns a strip across it, 20 px tall, at the middle of its part on screen.
EDGES_JS = """([i, left]) => {
  const e = document.querySelector(`[data-cue-probe="${i}"]`);
  e.scrollIntoView({block: 'center'});
  e.scrollLeft = left * (e.scrollWidth - e.clientWidth);
  const r = e.getBoundingClientRect();
  const top = Math.max(r.top, 60), bottom = Math.min(r.bottom, innerHeight);
  return {x: Math.ceil(r.left), y: Math.round((top + bottom) / 2) - 10, width: Math.floor(r.width), height: 20};
}"""
NO_CUE = "[data-cue-probe] { background-image: none !important; mask-image: none !important; }"
# The widths over which box i fades out at its start and at its end (px), scrolled to ``left``, once
# the scroll-driven animation has followed.
FADES_JS = """async ([i, left]) => {
  const e = document.querySelector(`[data-cue-probe="${i}"]`);
  e.scrollLeft = left * (e.scrollWidth - e.clientWidth);
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const style = getComputedStyle(e);
  return [style.getPropertyValue('--fade-start'), style.getPropertyValue('--fade-end')].map(parseFloat);
}"""
EDGE = 8  # px: how much of each side of the strip is read
# How much two screenshots of the same strip (PNG, base64, decoded by the browser) differ in the
# EDGE px at its start and at its end: the largest difference of a colour channel.
DIFFERENCE_JS = f"""async ([a, b]) => {{
  const pixels = async (png) => {{
    const image = await createImageBitmap(await (await fetch('data:image/png;base64,' + png)).blob());
    const context = new OffscreenCanvas(image.width, image.height).getContext('2d');
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height);
  }};
  const [p, q] = [await pixels(a), await pixels(b)];
  const most = (from, to) => {{
    let found = 0;
    for (let y = 0; y < p.height; y++) for (let x = from; x < to; x++) for (let c = 0; c < 3; c++) {{
      const k = 4 * (y * p.width + x) + c;
      found = Math.max(found, Math.abs(p.data[k] - q.data[k]));
    }}
    return found;
  }};
  return {{start: most(1, {EDGE} + 1), end: most(p.width - {EDGE} - 1, p.width - 1)}};
}}"""
DITHER = 4  # colour levels: gradients are dithered, and the same one differs by a level or two


def edges_with_and_without_cue(page, i: int, left: float) -> dict[str, bool]:
    """Whether each side edge of box i, scrolled to ``left``, looks different with its cue than
    without it (the same pixels but for the cue's layers)."""
    clip = page.evaluate(EDGES_JS, [i, left])
    shown = page.screenshot(clip=clip)
    style = page.add_style_tag(content=NO_CUE)
    hidden = page.screenshot(clip=clip)
    style.evaluate("s => s.remove()")
    pngs = [base64.b64encode(png).decode() for png in (shown, hidden)]
    return {side: most > DITHER for side, most in page.evaluate(DIFFERENCE_JS, pngs).items()}


def wait_until_marked(page, where: str) -> None:
    """Waits until every visible box that scrolls sideways is marked so and no other is (scrollable.js
    measures math and tables 200 ms after a resize, and code as its size changes)."""
    try:
        page.wait_for_function(f"() => ({MISMARKED_JS})().length === 0", timeout=5_000)
    except PlaywrightTimeoutError:
        pytest.fail(f"{where}: boxes whose mark does not say whether they scroll: {page.evaluate(MISMARKED_JS)}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_block_that_scrolls_shows_a_cue(phone, scheme):
    """Every formula, table and code block that scrolls sideways at 320, 414, 1280 and 375 px, on a
    touch screen, is marked, has the edge shadows of its scheme and fades out toward the edge that has
    more to show, and they show: for one box of each kind at 375 px, the edge with more looks
    different with the cue than without it, and an edge that is reached looks the same (its cover
    hides the shadow, and the fade follows the scrolling). (A screenshot costs a quarter of a second:
    one page, whose tables and code scroll.)"""
    path = "positional-encoding/index.html"
    page = phone(path, scheme)
    try:
        for width, kinds_needed in ((320, {"table", "code"}), (414, {"table", "code"}), (1280, {"code"}),
                                    (375, {"table", "code"})):  # fmt: skip
            page.set_viewport_size({"width": width, "height": PHONE["height"]})
            wait_until_marked(page, f"{path} at {width} px")
            found = page.evaluate(CUES_JS)
            kinds = {box["kind"] for box in found}
            assert kinds >= kinds_needed, f"{path}: too few kinds scroll at {width} px: {found}"
            for box in found:
                assert box["marked"] and box["fades"], (width, box)
                assert box["background"].count("gradient(") == 4, (width, box)  # two covers, two shadows
                assert all(shadow in box["background"] for shadow in SHADOWS[scheme]), (width, box)
        for kind in sorted(kinds):
            i = next(i for i, box in enumerate(found) if box["kind"] == kind)
            start, end = page.evaluate(FADES_JS, [i, 0])
            assert start == 0 and end > 20, f"{path}: the first {kind} that scrolls fades over {start}, {end} px"
            assert min(page.evaluate(FADES_JS, [i, 0.5])) > 20, f"{path}: the first {kind}, scrolled half-way"
            assert page.evaluate(FADES_JS, [i, 1])[::-1] == [start, end], f"{path}: the first {kind}, at its end"
            at_start = edges_with_and_without_cue(page, i, 0)
            at_end = edges_with_and_without_cue(page, i, 1)
            assert at_start == {"start": False, "end": True}, f"{path}: the first {kind} that scrolls, at its start"
            assert at_end == {"start": True, "end": False}, f"{path}: the first {kind} that scrolls, at its end"
    finally:
        page.set_viewport_size(PHONE)
        page.evaluate(
            """() => document.querySelectorAll('[data-cue-probe]').forEach(e => {
              e.scrollLeft = 0; e.removeAttribute('data-cue-probe'); })"""
        )
        page.evaluate("() => scrollTo(0, 0)")
        wait_until_marked(page, f"{path} at {PHONE['width']} px, after the test")


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
    without scrolling, at 375, 360 and 320 px: Material's 5rem minimum header width made a 3 x 3
    table 400 px wide, and at 320 px twenty tables ran 2 to 40 px over with half as much side padding
    as Material's."""
    page = phone(path)
    try:
        for width in (PHONE["width"], 360, 320):
            page.set_viewport_size({"width": width, "height": PHONE["height"]})
            tables = [t for t in page.evaluate(TABLES_JS) if t["columns"] <= 5]
            assert len(tables) >= 3, f"{path}: too few tables to check ({tables})"
            assert [t for t in tables if t["over"] > SLACK] == [], (path, width)
    finally:
        page.set_viewport_size(PHONE)


def test_a_row_with_its_mean_and_variance_fits_a_phone(phone):
    """The transformer block's tables of a residual sum or an output with its μ and σ² columns
    (seven columns) fit the column: the prose quotes their σ², which once scrolled out of sight."""
    tables = [t for t in phone("transformer-block/index.html").evaluate(TABLES_JS) if "σ²" in t["head"]]
    assert len(tables) >= 4, tables
    assert [t for t in tables if t["over"] > SLACK] == [], tables


@pytest.mark.parametrize("path", FORMULA_PAGES)
def test_display_formulas_fit_a_phone(phone, path):
    """Every display formula of these pages fits the column (at KaTeX's 1.21em four ran 2 to 13 px
    over and scrolled sideways for it; extra.css sets them at 1.1em on a phone)."""
    widths = phone(path).evaluate(
        """() => [...document.querySelectorAll('.md-typeset div.arithmatex')].filter(e => e.checkVisibility())
            .map(e => [e.scrollWidth - e.clientWidth, e.querySelector('annotation').textContent.trim()])"""
    )
    assert widths, f"{path}: no display formula"
    assert [w for w in widths if w[0] > SLACK] == [], path


# Formulas in table cells that run over more than one line: KaTeX's boxes (.base) on more than one
# line (an inline formula cut in two has a rectangle on each line; one set inline-block, a single one).
WRAPPED_CELL_FORMULAS_JS = """() => [...document.querySelectorAll('.md-typeset :is(td, th) .katex')]
  .filter(k => k.checkVisibility() && (k.getClientRects().length > 1
    || new Set([...k.querySelectorAll('.katex-html > .base')]
      .map(b => Math.round(b.getBoundingClientRect().bottom))).size > 1))
  .map(k => k.querySelector('annotation').textContent)"""


@pytest.mark.parametrize("path", ["notation/index.html", "cheat-sheet/index.html"])
def test_a_formula_in_a_table_stays_on_one_line(phone, path):
    page = phone(path)
    assert page.evaluate("() => document.querySelectorAll('.md-typeset td .katex').length") >= 10, path
    assert page.evaluate(WRAPPED_CELL_FORMULAS_JS) == [], path


# Each visible table of the page: whether it is a table of entries (data-entries), how far its box
# runs past the column, and for a table of entries: its headings, whether its rows are listed (a
# row one under another, its header out of sight), the cells whose text does not start with
# their column's name (an empty cell shows nothing), and those set to the right of their line.
LISTED_JS = """() => [...document.querySelectorAll('.md-typeset table')].filter(t => t.checkVisibility()).map(t => {
  const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
  const heads = [...t.rows[0].cells].map(c => c.textContent.trim());
  const entries = t.hasAttribute('data-entries');
  const rows = [...t.tBodies[0].rows];
  const below = (a, b) => a.getBoundingClientRect().top >= b.getBoundingClientRect().bottom - 1;
  const listed = entries && rows.length > 1 && t.tHead.getBoundingClientRect().height <= 1
    && rows.every((r, i) => i === 0 || below(r, rows[i - 1]))
    && [...rows[0].cells].every((c, i) => i === 0 || below(c, rows[0].cells[i - 1]));
  const unnamed = !entries ? [] : rows.flatMap(r => [...r.cells].slice(1).filter(c => {
    const name = getComputedStyle(c, '::before').content;
    if (!c.textContent.trim()) return getComputedStyle(c).display !== 'none';
    return name !== JSON.stringify(`${heads[c.cellIndex]}: `);
  }).map(c => c.textContent.trim().slice(0, 30)));
  const right = !entries ? [] : rows.flatMap(r => [...r.cells]).filter(c => c.textContent.trim()
    && /right|end|center/.test(getComputedStyle(c).textAlign)).map(c => c.textContent.trim().slice(0, 30));
  return {entries, over: box.scrollWidth - box.clientWidth, heads: heads.join(' | '), listed, unnamed, right};
})"""


@pytest.mark.parametrize(
    ("path", "scheme"),
    [("notation/index.html", "light"), ("notation/index.html", "dark"), ("cheat-sheet/index.html", "light"),
     ("examples/index.html", "light")],
)  # fmt: skip
def test_tables_of_words_fit_a_phone_and_tables_of_entries_are_listed(phone, path, scheme):
    """At 320, 375 and 414 px no table of words scrolls sideways, with a column out of sight (side
    by side, the notation's and the cheat sheet's tables of three columns were 400 to 560 px wide,
    the gallery's of six 430): a table of entries lists its rows one under another, each cell after
    the name of its column, at the start of its line (the notation's "The cat sat" column, set to the
    right, stood apart from its entry)."""
    page = phone(path, scheme)
    try:
        for width in (320, 375, 414):
            page.set_viewport_size({"width": width, "height": PHONE["height"]})
            page.evaluate(SETTLED_JS)
            tables = page.evaluate(LISTED_JS)
            entries = [t for t in tables if t["entries"]]
            assert entries, f"{path}: no table of entries"
            assert [t for t in tables if t["over"] > SLACK] == [], f"{path} at {width} px: tables that scroll sideways"
            assert [t for t in entries if not t["listed"]] == [], f"{path} at {width} px: tables of entries not listed"
            assert [t for t in entries if t["unnamed"]] == [], (
                f"{path} at {width} px: cells without their column's name"
            )
            assert [t["right"] for t in entries if t["right"]] == [], f"{path} at {width} px: cells set to the right"
    finally:
        page.set_viewport_size(PHONE)
        page.evaluate(SETTLED_JS)


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
    page = phone("add-an-example/index.html")  # the module's load, resized and put back
    try:
        page.set_viewport_size({"width": width, "height": PHONE["height"]})
        codes = page.evaluate(CODE_BREAKS_JS, ".md-typeset :is(td, th) code")
    finally:
        page.set_viewport_size(PHONE)
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
        assert box["buttonBottom"] <= box["lineTop"] + SLACK, box


def shrunk(svg: dict) -> bool:
    """Whether a diagram MEASURE_DIAGRAMS measured is drawn narrower than its own width, by more than
    SLACK (its scale to the column below 1 by more than the width's rounding)."""
    return svg["width"] - svg["width"] * svg["scale"] > SLACK


@pytest.mark.parametrize("path", sorted(DIAGRAM_PAGES))
def test_diagrams_are_readable_on_a_phone(phone, path):
    """Each diagram (and the bar chart) fits the column at its own size (not shrunk), every text is
    11 px or more and lies inside its picture and its box."""
    page = phone(path)
    svgs = page.evaluate(MEASURE_DIAGRAMS, SLACK)
    assert len(svgs) == DIAGRAM_PAGES[path], svgs
    for svg in svgs:
        small = [(t["text"], round(t["px"], 1)) for t in svg["texts"] if t["px"] < MIN_FONT]
        assert not small, f"{path}: text under {MIN_FONT} px on a phone: {small}"
        assert svg["columnLeft"] - SLACK <= svg["left"] and svg["right"] <= svg["columnRight"] + SLACK, svg
        assert not shrunk(svg), f"{path}: a diagram is shrunk to {svg['scale']:.2f} of its size"
        outside = [t["text"] for t in svg["texts"] if not (t["inSvg"] and t["inBox"])]
        assert not outside, f"{path}: text outside its picture or its box: {outside}"


def test_the_rnn_and_attention_stack_on_a_phone_and_sit_side_by_side_on_a_laptop(phone):
    """On the module's page, widened to the session's laptop viewport (1280 px) and put back: it had
    a load of its own at 1280 px, which was left open."""
    path = "rnn-comparison/index.html"
    page = phone(path)
    chain, attention = page.evaluate(MEASURE_DIAGRAMS, SLACK)
    assert attention["top"] >= chain["bottom"], (chain, attention)  # one above the other
    try:
        page.set_viewport_size({"width": 1280, "height": 900})
        chain, attention = page.evaluate(MEASURE_DIAGRAMS, SLACK)
    finally:
        page.set_viewport_size(PHONE)
    assert abs(chain["bottom"] - attention["bottom"]) <= SLACK and chain["right"] < attention["left"], (
        chain,
        attention,
    )
    assert not shrunk(chain) and not shrunk(attention), (chain, attention)


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
