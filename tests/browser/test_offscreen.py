"""Display math and tables of numbers off screen are not laid out until the reader scrolls near
them (content-visibility: auto, extra.css), which is what keeps a phone's main thread free on
load (bench/run.py's [lighthouse] figure). These tests hold that to costing the reader nothing,
at 375 px, in the site's own rendering (contexts made with skip_offscreen=True): every formula
and table that scrolls sideways still gets a tab stop when the keyboard reaches it, one that
fits does not keep one, once shown every block has the size and place it has when all is laid
out at once (the other browser tests' contexts, LAY_OUT_ALL), a page is about as long at load
as it is (a table of words, whose rows wrap on a phone, is never skipped), and a link to a
heading far down lands it at the top, with the browser's scroll anchoring and without it (as in
Safari)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_checks import open_for_instant_navigation
from offscreen import OFFSCREEN, SCROLLING

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
PHONE = {"width": 375, "height": 740}
BLOCKS = ", ".join(SCROLLING)  # skipped or not
# The pages where some block scrolls sideways at 375 px (blocks_that_scroll fails if one does not),
# and pages where most blocks start off screen. (/notation/'s tables of words scrolled until a phone
# listed their rows, extra.css.)
SCROLLING_PAGES = ["positional-encoding/", "rnn-comparison/", "transformer-block/"]
LONG_PAGES = ["real-numbers/", "masking/", "positional-encoding/"]

SETTLED = """() => document.fonts.ready
  .then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done)))))"""
# Each block's state: its tab stop, its marks, and whether it overflows as laid out now.
STATES = f"""() => [...document.querySelectorAll('{BLOCKS}')].map(e => ({{
  tab: e.getAttribute('tabindex'), scrollable: e.hasAttribute('data-scrollable'),
  unmeasured: e.hasAttribute('data-unmeasured'), overflows: e.scrollWidth > e.clientWidth + 1,
  shown: e.checkVisibility()}}))"""


@pytest.fixture(scope="module")
def phones(module_context):
    """Two 375 px contexts: the site as it is ("skipping"), and one that lays out every block at
    once ("all", LAY_OUT_ALL); the pages laid out whole, open for the module ("whole", see whole);
    and what was read of them, which does not change ("read", see laid_out)."""
    return {
        "skipping": module_context(viewport=PHONE, skip_offscreen=True),
        "all": module_context(viewport=PHONE),
        "whole": {},
        "read": {},
    }


def laid_out(phones, key: tuple, read):
    """``read()``, a reading of a page with everything laid out, once per module (and worker) for
    each key: several tests compare with the same page, which a test does not change."""
    if key not in phones["read"]:
        phones["read"][key] = read()
    return phones["read"][key]


def open_page(context, url: str, open_details: bool = False):
    page = context.new_page()
    page.goto(url)
    if open_details:
        page.evaluate("() => document.querySelectorAll('.md-typeset details').forEach(d => { d.open = true; })")
    page.evaluate(SETTLED)
    return page


def whole(phones, url: str, open_details: bool = False):
    """The page at 375 px with everything laid out, opened once per module (and worker) for each
    URL and state of its <details>, and what was read of it as it loaded (READ_WHOLE): the tests
    compare with the same page, and the six of them that read it took a load each. Those that
    follow links on it (FOLLOW) or scroll it read what they need there; what READ_WHOLE reads does
    not depend on where the page is scrolled to."""
    key = (url, open_details)
    if key not in phones["whole"]:
        page = open_page(phones["all"], url, open_details)
        phones["whole"][key] = (page, page.evaluate(READ_WHOLE))
    return phones["whole"][key]


def blocks_that_scroll(phones, url: str, open_details: bool = False) -> list[int]:
    """The blocks that overflow at 375 px with everything laid out (their index on the page)."""
    states = whole(phones, url, open_details)[1]["states"]
    scrolling = [i for i, s in enumerate(states) if s["overflows"] and s["shown"]]
    for i in scrolling:
        assert states[i]["tab"] == "0" and states[i]["scrollable"], (url, i, states[i])
    return scrolling


LENGTH = "() => document.documentElement.scrollHeight"


# The page's length, and the height of each block (null if hidden: in a closed <details>, a tab
# not chosen).
LAYOUT = f"""() => ({{length: document.documentElement.scrollHeight,
  heights: [...document.querySelectorAll('{BLOCKS}')]
    .map(e => e.checkVisibility() ? e.getBoundingClientRect().height : null)}})"""


# Each block's size and place on the page (null if hidden), and the page's height.
GEOMETRY = f"""() => ({{height: document.documentElement.scrollHeight,
  blocks: [...document.querySelectorAll('{BLOCKS}')].map(e => {{
    if (!e.checkVisibility()) return null;
    const r = e.getBoundingClientRect();
    return [r.top + scrollY, r.left, r.width, r.height].map(Math.round);
  }})}})"""
# What the tests read of a page laid out whole, as it has loaded.
READ_WHOLE = f"() => ({{states: ({STATES})(), layout: ({LAYOUT})(), geometry: ({GEOMETRY})()}})"


def laid_out_layout(phones, url: str) -> dict:
    """The page's length and its blocks' heights at 375 px with everything laid out."""
    return whole(phones, url)[1]["layout"]


def tab_through(page) -> set[int]:
    """Presses Tab from the page's top to its footer; the blocks that took focus on the way."""
    page.evaluate(
        f"""() => {{
        window.__blocks = [...document.querySelectorAll('{BLOCKS}')];
        window.__focused = new Set();
        window.__under = [];
        const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
        window.__footer = false;
        // Once focus is in the footer, Tab moves it no further (the presses are sent in tens).
        document.addEventListener('keydown', (e) => {{ if (window.__footer && e.key === 'Tab') e.preventDefault(); }});
        document.addEventListener('focusin', (e) => {{
          if (window.__footer) return;
          if (e.target.closest('.md-footer, footer')) {{ window.__footer = true; return; }}
          const i = window.__blocks.indexOf(e.target);
          if (i < 0) return;
          window.__focused.add(i);
          // Scrolled to by the focus, its top sits under the header (its first row hidden), or
          // the block is not on screen at all. (A tall block already partly on screen is not
          // scrolled: its top may be above the screen.)
          const r = e.target.getBoundingClientRect();
          if ((r.top > -1 && r.top < header - 1) || r.bottom < header + 1 || r.top > innerHeight - 1) {{
            window.__under.push([i, Math.round(r.top), Math.round(r.bottom), header]);
          }}
        }});
      }}"""
    )
    for _ in range(100):
        for _ in range(10):
            page.keyboard.press("Tab")
        if page.evaluate("() => window.__footer"):
            break
    else:
        pytest.fail("1000 presses of Tab did not reach the footer")
    under = page.evaluate("() => window.__under")
    assert not under, (
        f"blocks under Material's header or off screen as they took focus [index, top, bottom, header]: {under}"
    )
    return set(page.evaluate("() => [...window.__focused]"))


def test_the_stylesheet_skips_only_the_blocks_the_tests_know():
    """Every rule with content-visibility in extra.css is on OFFSCREEN's selectors, which
    LAY_OUT_ALL lays out for the other tests: a new one would silently change what those tests
    measure. scrollable.js watches SCROLLING's blocks, of which each skipped one is a kind."""
    css = (REPO / "docs" / "assets" / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    selectors = [
        {s.strip() for s in rule.group(1).split(",")}
        for rule in re.finditer(r"([^{}]+)\{[^{}]*content-visibility\s*:", css)
    ]
    assert selectors == [set(OFFSCREEN)], selectors
    js = (REPO / "docs" / "assets" / "javascripts" / "scrollable.js").read_text(encoding="utf-8")
    assert f'"{", ".join(SCROLLING)}"' in js
    assert all(any(s == w or s.startswith(w + ":") for w in SCROLLING) for s in OFFSCREEN), OFFSCREEN


@pytest.mark.parametrize("path", SCROLLING_PAGES)
def test_tab_reaches_every_block_that_scrolls(phones, site, path):
    url = site.url(path + "index.html")
    scrolling = blocks_that_scroll(phones, url)
    assert scrolling, f"{path}: no block scrolls sideways at 375 px; take the page off SCROLLING_PAGES"
    page = open_page(phones["skipping"], url)
    at_load = page.evaluate(STATES)
    # The page's end is off screen at load: the skipping is on, or this test checks less than it says.
    assert any(s["unmeasured"] for s in at_load), f"{path}: no block off screen waits to be measured"
    focused = tab_through(page)
    page.evaluate(SETTLED)
    after = page.evaluate(STATES)
    page.close()
    missed = [i for i in scrolling if i not in focused]
    assert not missed, f"{path}: Tab never reached the blocks {missed}, which scroll sideways"
    for i in scrolling:
        assert after[i]["tab"] == "0" and after[i]["scrollable"], (path, i, after[i])
    # Once the reader has been past them, only blocks that scroll keep a tab stop.
    kept = [i for i, s in enumerate(after) if s["tab"] is not None and i not in scrolling and s["shown"]]
    assert not kept, f"{path}: blocks {kept} fit the screen but kept a tab stop after Tab went past them"


def test_a_block_in_a_details_gets_its_tab_stop_when_opened(phones, site):
    """positional-encoding's table of encodings sits in a collapsed <details>: opened, it scrolls."""
    url = site.url("positional-encoding/index.html")
    scrolling = set(blocks_that_scroll(phones, url, open_details=True)) - set(blocks_that_scroll(phones, url))
    assert scrolling, "no block inside a <details> of positional-encoding scrolls at 375 px"
    page = open_page(phones["skipping"], url)
    first = min(scrolling)
    page.evaluate(
        f"""(i) => {{ const b = document.querySelectorAll('{BLOCKS}')[i];
        b.closest('details').open = true; b.scrollIntoView(); }}""",
        first,
    )
    page.evaluate(SETTLED)
    state = page.evaluate(STATES)[first]
    page.close()
    assert state["tab"] == "0" and state["scrollable"], state


def test_a_focused_block_that_fits_keeps_its_tab_stop_until_focus_leaves(phones, site):
    page = open_page(phones["skipping"], site.url("real-numbers/index.html"))
    states = page.evaluate(STATES)
    # The last block: far off screen at load, so it waits with a tab stop.
    last = len(states) - 1
    assert states[last]["unmeasured"] and states[last]["tab"] == "0", states[last]
    page.evaluate(f"(i) => document.querySelectorAll('{BLOCKS}')[i].focus()", last)
    page.evaluate(SETTLED)
    focused = page.evaluate(STATES)[last]
    assert not focused["overflows"], "the last block of real-numbers scrolls at 375 px: pick one that fits"
    assert focused["tab"] == "0" and page.evaluate("() => document.activeElement.tabIndex") == 0, focused
    page.keyboard.press("Tab")
    page.evaluate(SETTLED)
    left = page.evaluate(STATES)[last]
    page.close()
    assert left["tab"] is None and not left["unmeasured"] and not left["scrollable"], left


# Focuses the last block of the page, a provisional one far off screen, and then the footer's first
# link: at once (``frames`` 0: Tab pressed twice before the browser draws, as when it is held down
# on a busy page), or after that many frames with the browser's contentvisibilityautostatechange
# for the block held back from the page (it may come after focus has left, or never). Returns
# [laid out while focused, provisional then, overflows].
FOCUS_AND_LEAVE = f"""async (frames) => {{
  const blocks = document.querySelectorAll('{BLOCKS}');
  const block = blocks[blocks.length - 1];
  addEventListener('contentvisibilityautostatechange', (e) => {{
    if (e.target === block) e.stopImmediatePropagation();
  }}, true);
  block.focus();
  for (let n = 0; n < frames; n++) await new Promise((done) => requestAnimationFrame(done));
  const seen = [block.firstElementChild.checkVisibility({{contentVisibilityAuto: true}}),
                block.hasAttribute('data-unmeasured'), block.scrollWidth > block.clientWidth + 1];
  document.querySelector('.md-footer a').focus();
  return seen;
}}"""


@pytest.mark.parametrize("frames", [0, 3])
def test_a_block_passed_before_the_browser_said_it_was_shown_loses_the_stop_it_does_not_need(phones, site, frames):
    """Tab held down: a provisional block takes focus and loses it before the browser says it was
    shown. It is measured as it takes focus (the browser lays it out then), so one that fits keeps
    no tab stop once focus has left it."""
    page = open_page(phones["skipping"], site.url("real-numbers/index.html"))
    before = page.evaluate(STATES)[-1]
    assert before["unmeasured"] and before["tab"] == "0", before
    seen = page.evaluate(FOCUS_AND_LEAVE, frames)
    page.evaluate(SETTLED)
    left = page.evaluate(STATES)[-1]
    page.close()
    assert seen == [True, True, False], f"laid out while focused, provisional then, overflows: {seen}"
    assert left["tab"] is None and not left["unmeasured"] and not left["scrollable"], left


@pytest.mark.parametrize("open_details", [False, True], ids=["as-loaded", "details-open"])
@pytest.mark.parametrize("path", LONG_PAGES)
def test_blocks_once_shown_sit_where_they_sit_when_all_is_laid_out(phones, site, path, open_details):
    """Scrolled through, block by block, the page has the layout it has with nothing skipped:
    every block's size and place (within a pixel: both are rounded), and the page's height; with
    the page's <details> as loaded and all opened (which shows the blocks inside, some of them
    side by side in a flex row, where a skipped box would have no width of its own)."""
    url = site.url(path + "index.html")
    want = whole(phones, url, open_details)[1]["geometry"]
    page = open_page(phones["skipping"], url, open_details)
    assert any(s["unmeasured"] for s in page.evaluate(STATES)), f"{path}: nothing was skipped at load"
    # Each block that is not laid out yet is scrolled to, and laid out a frame or two later with
    # those near it (which are then not scrolled to: 2 frames a block took 2 to 3 s a page). Returns
    # the blocks that were never laid out.
    never = page.evaluate(
        f"""async () => {{
        const shown = new Set();
        const laidOut = (b) => b.firstElementChild.checkVisibility({{contentVisibilityAuto: true}});
        const blocks = [...document.querySelectorAll('{BLOCKS}')].filter((b) => b.checkVisibility());
        for (const b of blocks) {{
          if (!laidOut(b)) {{
            b.scrollIntoView();
            await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
          }}
          for (const c of blocks) if (laidOut(c)) shown.add(c);
        }}
        return blocks.map((b, i) => shown.has(b) ? null : i).filter((i) => i !== null);
      }}"""
    )
    assert never == [], f"{path}: blocks never laid out as the page was scrolled through: {never}"
    page.evaluate(SETTLED)
    got = page.evaluate(GEOMETRY)
    page.close()
    assert sum(b is not None for b in want["blocks"]) > 5, want
    moved = [
        (i, g, w)
        for i, (g, w) in enumerate(zip(got["blocks"], want["blocks"], strict=True))
        if (g is None) != (w is None) or (g and any(abs(a - b) > 1 for a, b in zip(g, w, strict=True)))
    ]
    assert not moved, f"{path}: blocks whose [top, left, width, height] differ (index, skipping, all): {moved}"
    assert abs(got["height"] - want["height"]) <= 1, (got["height"], want["height"])


# Scroll anchoring off, as in a browser without it (Safari): scrollable.js reads the computed
# overflow-anchor of the root.
# Where the page's bottom edge is once a scroll (which Material makes smooth) has stopped.
SCROLLED = """async () => {
  let last = -1, same = 0;
  for (let frame = 0; frame < 240 && same < 10; frame++) {
    await new Promise((done) => requestAnimationFrame(done));
    same = scrollY === last ? same + 1 : 0;
    last = scrollY;
  }
  return Math.round(scrollY + innerHeight);
}"""
NO_ANCHORING = """(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync("html, body { overflow-anchor: none !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
})()"""
# A reader follows a link to the heading from the page's text (the table of contents is in the
# closed drawer at 375 px).
FOLLOW = """(id) => {
  const link = document.createElement('a');
  link.href = '#' + id;
  document.querySelector('.md-content .md-typeset').prepend(link);
  link.click();
  link.remove();
}"""
STILL = """async (id) => {
  const top = () => document.getElementById(id).getBoundingClientRect().top;
  let last = top(), same = 0;
  for (let frame = 0; frame < 240 && same < 20; frame++) {
    await new Promise((done) => requestAnimationFrame(done));
    const now = top();
    same = Math.abs(now - last) < 0.5 ? same + 1 : 0;
    last = now;
  }
  return last;
}"""


@pytest.mark.parametrize("anchoring", [False], ids=["no-anchoring"])
@pytest.mark.parametrize("path", ["transformer-block/", "real-numbers/"])
def test_a_jump_to_a_heading_lands_it_at_the_top(module_context, phones, site, path, anchoring):
    """A link to a heading far down, followed before the blocks above it were ever laid out: once
    they are, the heading is where it lands with everything laid out (just under the header),
    without the browser's scroll anchoring too (scrollable.js puts it back). (With anchoring, as in
    Chromium, test_following_a_link_to_a_place_on_the_page_moves_nothing holds more: nothing moves.)"""
    url = site.url(path + "index.html")

    def read():  # where some headings far down land with everything laid out
        page = whole(phones, url)[0]
        ids = page.evaluate("() => [...document.querySelectorAll('.md-typeset h2[id]')].map(h => h.id)")
        assert len(ids) >= 4, ids
        landed = {}
        for heading in ids[len(ids) // 3 :: max(1, len(ids) // 4)]:
            page.evaluate("() => scrollTo(0, 0)")
            page.evaluate(FOLLOW, heading)
            landed[heading] = page.evaluate(STILL, heading)
        return landed

    want = laid_out(phones, ("landed", url), read)
    picked = list(want)
    context = phones["skipping"]
    if not anchoring:  # one context for the module (it was one a test), as phones["shifts", width]
        if "no anchoring" not in phones:
            phones["no anchoring"] = module_context(viewport=PHONE, skip_offscreen=True)
            phones["no anchoring"].add_init_script(NO_ANCHORING)
        context = phones["no anchoring"]
    for heading in picked:
        page = open_page(context, url)  # a fresh page: no block below the first screen was laid out
        assert page.evaluate("() => getComputedStyle(document.documentElement).overflowAnchor") == (
            "auto" if anchoring else "none"
        )
        page.evaluate(FOLLOW, heading)
        got = page.evaluate(STILL, heading)
        page.close()
        assert abs(got - want[heading]) <= 1, f"{path}#{heading}: {got:.0f} px from the top, not {want[heading]:.0f}"


# Each layout shift (the Layout Instability API) as [when, how much], from the page's start.
SHIFTS = """window.__shifts = [];
window.__shiftsSeen = (list) => {
  for (const e of list.getEntries ? list.getEntries() : list) window.__shifts.push([e.startTime, e.value]);
};
window.__shiftObserver = new PerformanceObserver(window.__shiftsSeen);
window.__shiftObserver.observe({type: 'layout-shift'});"""
# Follows a link to heading ``id`` from the page's text and waits until what is near it is laid out
# (8 frames), and takes the shifts the observer has not yet been given: how much the page moved after
# that (the sum of the shifts), where the heading is, its scroll margin (where it lands), and whether
# the page's end stopped it short of that.
FOLLOWED = f"""async (id) => {{
  const from = performance.now();
  ({FOLLOW})(id);
  for (let n = 0; n < 8; n++) await new Promise((done) => requestAnimationFrame(done));
  window.__shiftsSeen(window.__shiftObserver.takeRecords());
  const heading = document.getElementById(id);
  return {{shift: window.__shifts.filter(([t]) => t >= from).reduce((sum, [, v]) => sum + v, 0),
          top: heading.getBoundingClientRect().top, margin: parseFloat(getComputedStyle(heading).scrollMarginTop),
          end: scrollY + innerHeight >= document.documentElement.scrollHeight - 1}};
}}"""


@pytest.mark.parametrize(
    ("path", "width"),
    [("positional-encoding/", 375), ("masking/", 375), ("attention-that-learns/", 375), ("positional-encoding/", 1280)],
)
def test_following_a_link_to_a_place_on_the_page_moves_nothing(module_context, phones, site, path, width):
    """Each link to a section of the page, followed one after another from a fresh load (the reader
    has typed an answer and opened a block): the heading lands just under the header and nothing
    moves after it lands (the layout shifts add up to less than 0.002; a formula with large brackets
    moves a little sideways when KaTeX's font for them arrives), the page is not fetched again, and
    what the reader did stays. Material's instant navigation fetched the page again on the first such
    link and put the copy in its place (the answer gone, the page moving 23 to 210 px on a phone, and
    30 px on a laptop, as the copy's blocks were laid out); and formulas and tables of wrapping text
    had placeholders of another height than theirs (same-page-links.js, extra.css,
    publish/markdown/number_tables.py)."""
    if ("shifts", width) not in phones:
        phones["shifts", width] = module_context(viewport={**PHONE, "width": width}, skip_offscreen=True)
        phones["shifts", width].add_init_script(SHIFTS)
    url = site.url(path + "index.html")
    page = phones["shifts", width].new_page()
    open_for_instant_navigation(page, url)  # Material's instant navigation is ready: its sitemap read
    page.evaluate(SETTLED)
    fetched = []
    page.on("request", lambda request: fetched.append(request.url) if request.url.split("#")[0] == url else None)
    page.locator(".md-typeset section.exercises input").first.fill("0.5")
    page.evaluate("() => { document.querySelector('.md-typeset details:not([open])').open = true; }")
    ids = page.evaluate("() => [...document.querySelectorAll('.md-typeset h2[id]')].map(h => h.id)")
    assert len(ids) >= 4, ids
    moved = {}
    for heading in ids:
        got = page.evaluate(FOLLOWED, heading)
        if got["shift"] >= 0.002 or not (abs(got["top"] - got["margin"]) <= 1 or got["end"] and got["top"] >= 0):
            moved[heading] = got
    kept = page.evaluate(
        """() => [document.querySelector('.md-typeset section.exercises input').value,
                  document.querySelectorAll('.md-typeset details[open]').length]"""
    )
    page.close()
    assert not fetched, (
        f"{path} at {width} px: the page was fetched again as links to its sections were followed: {fetched}"
    )
    assert kept[0] == "0.5" and kept[1] >= 1, (
        f"{path} at {width} px: the answer typed and the block opened, after the links: {kept}"
    )
    assert not moved, f"{path} at {width} px: headings that did not land still, or where they should: {moved}"


EXACT_ROWS = 24  # up to this many rows, a table's placeholder is its rows' height


def test_every_table_of_numbers_is_within_the_exact_placeholders(site):
    """extra.css's placeholders are exact up to EXACT_ROWS rows, and the tables it skips are the
    tables of numbers of one line a row: none of them is longer (a header and rows)."""
    rows = {}
    for html in site.html_files():
        text = html.read_text(encoding="utf-8")
        for i, table in enumerate(re.findall(r"<table data-numbers data-one-line\b.*?</table>", text, re.S)):
            rows[f"{html.relative_to(site.dir)} table {i + 1}"] = len(re.findall(r"<tr\b", table))
    assert len(rows) > 100, f"only {len(rows)} tables of numbers on the site"
    longer = {where: n for where, n in rows.items() if n > EXACT_ROWS}
    assert not longer, f"tables of numbers longer than extra.css's exact placeholders ({EXACT_ROWS} rows): {longer}"


@pytest.mark.parametrize("path", ["masking/", "positional-encoding/", "transformer-block/"])
def test_a_block_off_screen_takes_its_height(phones, site, path):
    """A formula or a table never shown yet is as tall as it is once laid out, so that nothing moves
    when the reader gets there and the page is as long at load as it is. A formula's placeholder is
    its margins and its line (--math-height, from KaTeX's struts: the median 4.5em was 18 px short to
    30 px long); a table's is its rows, 0.8rem and 2.28rem each (extra.css's steps: exact up to 24
    rows, then 28, 32, 40 and 48), and only a table whose rows cannot wrap waits (one word a cell,
    data-one-line: a heading of words on /attention-that-learns/ made its table 62 px taller than
    its placeholder); one beside its heatmap is laid out with the page (its width places the
    heatmap). (With a 12em placeholder for every table, /notation/ was 48% as long, and the End key
    stopped halfway down.)"""
    url = site.url(path + "index.html")
    want = laid_out_layout(phones, url)
    page = open_page(phones["skipping"], url)
    skipped = page.evaluate(
        f"""() => [...document.querySelectorAll('{BLOCKS}')].map((e, i) => {{
          if (!e.checkVisibility() || e.firstElementChild.checkVisibility({{contentVisibilityAuto: true}})) return null;
          const table = e.querySelector('table');
          return {{i, height: e.getBoundingClientRect().height, math: e.matches('div.arithmatex'),
                   oneLine: table !== null && table.hasAttribute('data-one-line'),
                   besideAHeatmap: e.closest('.weights-figure') !== null}};
        }}).filter(Boolean)"""
    )
    got = page.evaluate(LENGTH)
    page.close()
    assert {b["math"] for b in skipped} == {True, False}, f"{path}: no formula or table off screen at load: {skipped}"
    for block in skipped:
        assert block["math"] or (block["oneLine"] and not block["besideAHeatmap"]), (path, block)
    off = [(b["i"], round(b["height"], 1), round(want["heights"][b["i"]], 1)) for b in skipped
           if abs(b["height"] - want["heights"][b["i"]]) > 1]  # fmt: skip
    assert not off, f"{path}: blocks whose placeholder is not their height [index, placeholder, laid out]: {off}"
    assert abs(got - want["length"]) <= 2, (
        f"{path}: {got} px long at load, {want['length']} px with everything laid out"
    )


@pytest.mark.parametrize("path", ["notation/", "add-an-example/"])
def test_a_page_of_tables_of_words_is_as_long_at_load_as_it_is(phones, site, path):
    """A table of words wraps its rows onto as many lines as their text takes on a phone, more
    than a placeholder of one line a row (with 3.5em a row, /notation/ was 81% of its length at
    load, and the End key stopped short): it is laid out with the page, so a page of them is its own
    length at load, and the End key reaches its end."""
    url = site.url(path + "index.html")
    want = laid_out_layout(phones, url)["length"]
    page = open_page(phones["skipping"], url)
    words = page.evaluate(
        """() => [...document.querySelectorAll('.md-typeset .md-typeset__scrollwrap')]
        .filter(e => e.querySelector('table:not([data-one-line])')).map(e => getComputedStyle(e).contentVisibility)"""
    )
    got = page.evaluate(LENGTH)
    page.keyboard.press("End")
    bottom = page.evaluate(SCROLLED)
    page.close()
    assert len(words) >= 2 and set(words) == {"visible"}, f"{path}: the tables of words are {words}"
    assert abs(got - want) <= 1, f"{path}: {got} px long at load, {want} px with everything laid out"
    assert bottom >= want - 1, f"{path}: the End key stopped at {bottom} px of {want}"


def test_a_jump_to_the_last_heading_lands_it_where_it_does_with_all_laid_out(phones, site):
    """/rnn-comparison/'s last heading, jumped to from the top on a fresh page: the page's end
    stops it short of the top, and the blocks on the screen above it, skipped until then, are
    laid out as it lands; it ends where it lands when nothing is skipped."""
    url = site.url("rnn-comparison/index.html")
    laid = whole(phones, url)[0]
    heading = laid.evaluate("() => [...document.querySelectorAll('.md-typeset h2[id]')].pop().id")
    laid.evaluate(FOLLOW, heading)
    want = laid.evaluate(STILL, heading)
    page = phones["skipping"].new_page()
    page.goto(url)
    skipped_near = page.evaluate(
        f"""(id) => {{
        const top = document.getElementById(id).getBoundingClientRect().top;
        return [...document.querySelectorAll('{BLOCKS}')].filter((b) => b.checkVisibility()
          && b.getBoundingClientRect().bottom > top - innerHeight
          && !b.firstElementChild.checkVisibility({{contentVisibilityAuto: true}})).length;
      }}""",
        heading,
    )
    page.evaluate(FOLLOW, heading)
    got = page.evaluate(STILL, heading)
    page.close()
    assert skipped_near, f"rnn-comparison#{heading}: no skipped block within a screen above it; pick another page"
    assert abs(got - want) <= 1, f"rnn-comparison#{heading}: {got:.0f} px from the top, not {want:.0f}"


@pytest.mark.parametrize("path", ["masking/", "notation/"])
def test_a_heading_scrolled_to_without_being_the_target_lands_as_the_target_does(phones, site, path):
    """scrollable.js's jump correction scrolls the heading into view; when Material's instant
    navigation has put the hash in the URL with pushState, the heading is not :target, and it
    must still land just under the header, as the :target heading does (it was at 0 px, under
    the header)."""
    page = whole(phones, site.url(path + "index.html"))[0]
    got = page.evaluate(
        """() => [...document.querySelectorAll('.md-typeset :is(h2, h3, h4)[id]')].map((h) => {
          location.hash = h.id;
          const target = h.matches(':target');
          h.scrollIntoView();
          const on = h.getBoundingClientRect().top;
          location.hash = '';
          history.pushState(null, '', '#' + h.id);
          const pushed = h.matches(':target');
          h.scrollIntoView();
          return [h.id, pushed, h.getBoundingClientRect().top, on, target];
        })"""
    )
    assert len(got) > 3, f"{path}: too few headings"
    for heading, pushed, off, on, target in got:
        assert not pushed and target, (path, heading, pushed, target)
        assert abs(off - on) <= 1, f"{path}#{heading}: {off:.0f} px from the top when not :target, {on:.0f} as :target"
