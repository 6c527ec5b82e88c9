"""The built site in a real browser: what a reader sees, and that nothing leaves the machine.

Every page is opened and checked for console errors, requests to other hosts (or for KaTeX's
script), and serious or critical accessibility violations (axe-core, light and dark scheme); then
the interactive parts: linked tabs, copy buttons, the palette toggle, instant navigation, the
offline build and the edit button. What the built pages show without a browser (every page of the
nav built, math rendered, where each edit link leads) is tests/content/test_site_build.py's.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser_checks import (
    AXE_ALL,
    AXE_COLOURS,
    AXE_JS,
    AXE_SCRIPT,
    AXE_SETUP_JS,
    RAW_MATH_JS,
    SAMPLE_COLOURS_JS,
    Recorder,
    animations_ended,
    katex_styled,
    open_for_instant_navigation,
    palette_toggle,
    recorded_context,
    report,
    scheme,
)
from filelock import FileLock
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from pages import EDIT_URI, edit_link

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"


def pages_with(site, pattern: str) -> list[Path]:
    """Built pages whose HTML matches a regular expression."""
    regex = re.compile(pattern)
    return [p for p in site.html_files() if regex.search(p.read_text(encoding="utf-8"))]


# -- every page -----------------------------------------------------------------------------------


NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"
# Once a page has loaded: no transition (colours are measured as they settle: a transition, Material's
# 125 ms on some elements, caught half-way through the scheme switch gives a contrast that no reader
# sees), and axe set up (AXE_SETUP_JS); returns the scheme the page is in.
PREPARE_JS = f"""() => {{
  const style = document.createElement("style");
  style.textContent = {NO_TRANSITIONS!r};
  document.head.append(style);
  ({AXE_SETUP_JS})();
  return document.body.getAttribute("data-md-color-scheme");
}}"""
# Clicks the palette toggle (what a reader clicks: Material's label for the other scheme's input) and
# returns the scheme the page is in once Material has switched it (it does so as the click is handled).
SWITCH_SCHEME_JS = """() => {
  const before = document.body.getAttribute("data-md-color-scheme");
  document.querySelector("[data-md-component=palette] label:not([hidden])").click();
  const now = document.body.getAttribute("data-md-color-scheme");
  if (now === before) throw new Error(`the palette toggle left the scheme ${before}`);
  return now;
}"""
# A page's checks in one scheme, in one call (a call each took 6 round trips to the browser a page):
# the first time the page is prepared (PREPARE_JS), the second the palette toggle switches scheme
# (SWITCH_SCHEME_JS); then the looks of text not checked yet in that scheme (``seen``, by scheme) are
# marked (SAMPLE_COLOURS_JS) and axe runs, all its rules the first time, its colour rules the second
# (if a look is new). Returns the scheme, the new looks and axe's violations.
CHECK_SCHEME_JS = f"""async ([first, seen]) => {{
  const now = first ? ({PREPARE_JS})() : ({SWITCH_SCHEME_JS})();
  const fresh = ({SAMPLE_COLOURS_JS})([seen[now] || [], null]);
  const rules = first ? {json.dumps(AXE_ALL)} : {json.dumps(AXE_COLOURS)};
  const violations = first || fresh.length ? await ({AXE_JS})([null, rules]) : [];
  return [now, fresh, violations];
}}"""


# The pages are checked in this many groups (every CLEAN_GROUPS-th page from the n-th on), one test
# each, so that the workers share them (in one test they took a worker for a third of the run): one
# group per core. The groups share the looks of text they have checked (LooksChecked), so a look met
# by one group is not checked again by the other.
CLEAN_GROUPS = 2


class LooksChecked:
    """The looks of text (SAMPLE_COLOURS_JS) whose colours axe has checked in each scheme, shared by
    the groups of test_every_page_is_clean, whichever process runs them: a file in the run's folder
    that every xdist worker sees (the way pytest-xdist's documentation shares data between workers),
    under a file lock. Two elements that look the same pass or fail together, on one page or on two
    (SAMPLE_COLOURS_JS): the two groups checked each look afresh, some 115 in each scheme, and a
    colour rule's run costs 0.1 s a sample on a long page."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = FileLock(f"{path}.lock")

    def _read(self) -> dict[str, list[str]]:
        if not self.path.is_file():
            return {}
        return json.loads(self.path.read_text(encoding="utf-8"))

    def seen(self) -> dict[str, list[str]]:
        """The looks checked so far, by scheme."""
        with self.lock:
            return self._read()

    def add(self, scheme: str, looks: list[str]) -> None:
        if not looks:
            return
        with self.lock:
            checked = self._read()
            checked[scheme] = sorted({*checked.get(scheme, []), *looks})
            self.path.write_text(json.dumps(checked), encoding="utf-8")


@pytest.fixture(scope="session")
def looks_checked(tmp_path_factory, worker_id) -> LooksChecked:
    base = tmp_path_factory.getbasetemp()
    return LooksChecked((base if worker_id == "master" else base.parent) / "looks-checked.json")


@pytest.mark.slow
@pytest.mark.parametrize("group", range(CLEAN_GROUPS))
def test_every_page_is_clean(new_context, site, looks_checked, group):
    """No console error, no request off the machine (nor for KaTeX's script), no serious axe
    violation: on every page, its group taken in one browser context, one page load each. (That its
    math was rendered when the site was built, tests/content/test_site_build.py reads in the built
    pages: every formula KaTeX's HTML, no TeX delimiter left in the text.)

    On each page axe runs all its rules (those that can find a serious violation, AXE_SETUP_JS),
    its colour rules only on one sample of each look of text not checked yet, on an earlier page of
    either group (see SAMPLE_COLOURS_JS, LooksChecked); then the palette toggle switches scheme
    (light / dark) in place and the colour rules run on the looks of that scheme not checked yet.
    The scheme is remembered, so the next page starts in it and switches back.
    """
    every = site.html_files()
    pages = every[group::CLEAN_GROUPS]
    assert len(every) >= CLEAN_GROUPS and pages, f"{len(every)} pages built: too few for {CLEAN_GROUPS} groups"
    context, recorder = recorded_context(new_context, site)
    # axe-core in every document as it starts: sent to the browser once, not once per page.
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    problems: dict[str, list[str]] = defaultdict(list)
    names = {"default": "light", "slate": "dark"}  # Material's names for the schemes
    for html in pages:
        url = site.url(html)
        page.goto(url, wait_until="load")
        seen = looks_checked.seen()
        for first in (True, False):
            now, fresh, found = page.evaluate(CHECK_SCHEME_JS, [first, seen])
            problems[url] += [f"[{names[now]}] {v}" for v in found]
            looks_checked.add(now, fresh)
    recorder.settle()  # the last page's late requests are seen too
    for where, found in recorder.take().items():
        problems[where] += found
    problems = {where: found for where, found in problems.items() if found}
    assert not problems, report(problems)


# -- interactive parts ----------------------------------------------------------------------------


class _TabSets(HTMLParser):
    """Labels of each pymdownx.tabbed set in a page, in order, and which sets sit in a <details>."""

    def __init__(self) -> None:
        super().__init__()
        self.sets: list[list[str]] = []
        self.in_details: list[bool] = []
        self._details = 0
        self._in_label = False

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "details":
            self._details += 1
        elif tag == "div" and "tabbed-set" in classes:
            self.sets.append([])
            self.in_details.append(self._details > 0)
        elif tag == "label" and self.sets and dict(attrs).get("for", "").startswith("__tabbed_"):
            self._in_label = True
            self.sets[-1].append("")

    def handle_endtag(self, tag):
        if tag == "details":
            self._details -= 1
        elif tag == "label":
            self._in_label = False

    def handle_data(self, data):
        if self._in_label:
            self.sets[-1][-1] += data.strip()


def linked_tab_labels(html: Path) -> tuple[list[str], bool]:
    """Two or more labels of one tab set that other sets of the page share (e.g. NumPy, PyTorch),
    and whether a set with them sits in a collapsible block."""
    parser = _TabSets()
    parser.feed(html.read_text(encoding="utf-8"))
    counts = Counter(label for labels in parser.sets for label in set(labels))
    for labels in parser.sets:
        shared = [label for label in labels if counts[label] >= 2]
        if len(shared) >= 2:
            collapsible = any(d and shared[0] in s for s, d in zip(parser.sets, parser.in_details, strict=True))
            return shared, collapsible
    return [], False


# Animations that have ended and are still listed, each as its kind, what it animates and where (one
# that follows a box's scrolling, extra.css's sideways fade, is at its end when the box is, and draws
# no frame at rest); read a frame after the last has ended.
LINGERING_ANIMATIONS_JS = """() => new Promise((done) => requestAnimationFrame(done)).then(() => document
  .getAnimations().filter((a) => a.playState === "finished" && a.timeline instanceof DocumentTimeline)
  .map((a) => `${a.constructor.name} ${a.transitionProperty || a.animationName} on `
    + a.effect.target.tagName.toLowerCase() + [...a.effect.target.classList].map((c) => `.${c}`).join("")
    + (a.effect.pseudoElement || "")))"""


def test_linked_tabs_switch_together(page: Page, site):
    candidates = [(html, *linked_tab_labels(html)) for html in site.html_files()]
    # A page whose linked tabs include a set in a collapsible block, if there is one: it tests more.
    candidates = sorted((c for c in candidates if c[1]), key=lambda c: not c[2])
    assert candidates, (
        "no page has two content-tab sets sharing labels (e.g. NumPy / PyTorch), so linked tabs "
        "(content.tabs.link) cannot be tested; the pages are expected to have them"
    )
    html, labels, _ = candidates[0]
    page.goto(site.url(html))
    # At rest, the page draws no frames: a transition that Chromium ran inside a closed block stays
    # listed as finished, and keeps it drawing 60 frames a second (see extra.css). One that has just
    # ended in view is gone by the next frame, so what is still there a frame after the last has
    # ended stays.
    page.evaluate("() => document.fonts.ready.then(() => null)")
    animations_ended(page)
    lingering = page.evaluate(LINGERING_ANIMATIONS_JS)
    assert not lingering, f"{site.url(html)}: at rest, animations that ended still make it draw frames: {lingering}"
    # For each (visible) tab set that has a tab `label`: the label of its selected tab.
    selected = """([label, visibleOnly]) => [...document.querySelectorAll('.tabbed-set')]
      .filter((set) => !visibleOnly || set.checkVisibility())
      .map((set) => [set, [...set.querySelectorAll(':scope > .tabbed-labels > label')]])
      .filter(([set, labels]) => labels.some((l) => l.textContent.trim() === label))
      .map(([set, labels]) => labels.find((l) => l.htmlFor === set.querySelector(':scope > input:checked').id))
      .map((l) => l.textContent.trim())"""
    tab = page.locator(".tabbed-labels > label")

    def click(label: str) -> None:
        exact = re.compile(rf"^\s*{re.escape(label)}\s*$")
        tab.filter(has_text=exact).filter(visible=True).first.click()

    def check(label: str, when: str, visible_only: bool = False) -> None:
        # The sets follow the click as Material and tabs.js get to it: read once they all show the
        # label (or after 3 s, and then the assertion says what they show).
        try:
            page.wait_for_function(
                f"(args) => {{ const got = ({selected})(args); return got.length >= 2 && got.every((g) => g === args[0]); }}",  # noqa: E501
                arg=[label, visible_only],
                timeout=3000,
            )
        except PlaywrightTimeoutError:
            pass
        got = page.evaluate(selected, [label, visible_only])
        assert len(got) >= 2 and all(g == label for g in got), (
            f"{site.url(html)}: {when}, the tab sets that have a {label!r} tab show {got}"
        )

    click(labels[1])  # away from the default tab
    check(labels[1], f"after clicking the tab {labels[1]!r}", visible_only=True)
    # Sets inside collapsed blocks (admonitions with ???) follow once opened (assets/javascripts/tabs.js).
    closed = page.locator("details:not([open]):has(.tabbed-set) > summary")
    for _ in range(closed.count()):
        closed.first.click()  # the block opens at once, so the next is the next closed one
    check(labels[1], f"after clicking the tab {labels[1]!r} and opening the collapsed blocks")
    click(labels[0])  # and back
    check(labels[0], f"after clicking the tab {labels[0]!r}")


_MATH_MARKERS = ("# --8<-- [start:math]", "# --8<-- [end:math]")


def _as_shown(text: str) -> str:
    """A snippet file as a page shows it whole: pymdownx.snippets drops its section markers."""
    return "\n".join(line for line in text.split("\n") if line.strip() not in _MATH_MARKERS).rstrip("\n")


def _math_section(text: str) -> str | None:
    """The lines of a script's math section, which a page shows first ("NAME.py: the math")."""
    if _MATH_MARKERS[0] not in text:
        return None
    return text.split(_MATH_MARKERS[0] + "\n", 1)[1].split(_MATH_MARKERS[1], 1)[0].rstrip("\n")


def test_copy_button_copies_the_snippet(new_context, site):
    """The copy button puts on the clipboard exactly the code of its block: the math section of a
    script under snippets/, and, in the fold under it, the whole script."""
    snippet_files = (
        {p: p.read_text(encoding="utf-8") for p in SNIPPETS.rglob("*") if p.is_file()} if SNIPPETS.is_dir() else {}
    )
    sections = {p: s for p, text in snippet_files.items() if (s := _math_section(text)) is not None}
    including = [p for p in pages_with(site, r'class="highlight') if includes_a_snippet(p)]
    assert snippet_files and sections and including, (
        'no page includes a file from snippets/ in a code block (--8<-- "snippets/..."), so the copy '
        f"button cannot be checked against a snippet; snippets/ has {len(snippet_files)} files, "
        f"{len(sections)} with a math section"
    )
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    scripts, maths = [], []
    for html in including:
        page.goto(site.url(html))
        # The whole scripts are folded under their math: open the folds, so their buttons are clicked too.
        # Buttons in hidden tabs cannot be clicked: the visible ones are checked.
        page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        buttons = page.locator("button.md-code__button[data-md-type=copy]").filter(visible=True)
        for i in range(min(buttons.count(), 8)):
            button = buttons.nth(i)
            code = page.evaluate(
                "(b) => document.querySelector(b.getAttribute('data-clipboard-target')).innerText",
                button.element_handle(),
            )
            page.evaluate("() => navigator.clipboard.writeText('')")
            button.click()
            page.wait_for_function("() => navigator.clipboard.readText().then((t) => t !== '')", timeout=3000)
            clip = page.evaluate("() => navigator.clipboard.readText()")
            assert clip == code.rstrip(), f"{site.url(html)}: copy button {i} copied {clip!r}, the block shows {code!r}"
            scripts += [(html, p) for p, text in snippet_files.items() if p.suffix == ".py" and _as_shown(text) == clip]
            maths += [(html, p) for p, section in sections.items() if section == clip]
        if scripts and maths:
            break
    assert scripts, f"no copy button on {[site.url(p) for p in including]} copied the whole of a script under snippets/"
    assert maths, f"no copy button on {[site.url(p) for p in including]} copied the math section of a script"


def test_palette_toggle_switches_scheme(page: Page, site):
    page.goto(site.base_url)
    assert scheme(page) == "default"
    palette_toggle(page).click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    palette_toggle(page).click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")


def test_math_is_rendered_after_instant_navigation(new_context, site):
    """Material swaps a page's content in without a reload: its math is there, already rendered
    (publish/markdown/katex_math.py), styled by katex.min.css, and no KaTeX script is asked for."""
    math_pages = pages_with(site, r'class="arithmatex"')
    assert math_pages, "no page of the site has math (pymdownx.arithmatex output), so KaTeX cannot be checked"
    target = math_pages[0]
    start = next(
        (p for p in site.html_files() if p not in math_pages and p.name != "404.html"), site.dir / "index.html"
    )
    if start == target:
        start = next(p for p in site.html_files() if p != target and p.name != "404.html")
    context, recorder = recorded_context(new_context, site)
    page = context.new_page()
    open_for_instant_navigation(page, site.url(start))
    page.evaluate("() => { window.__noReload = true; }")
    target_url = site.url(target)
    link = page.locator(".md-sidebar--primary a.md-nav__link[href]")
    hrefs = link.evaluate_all("(links) => links.map((a) => a.href)")
    assert target_url in hrefs, f"no link to {target_url} in the navigation of {site.url(start)}: {hrefs}"
    link.nth(hrefs.index(target_url)).click()
    page.wait_for_url(target_url)  # Material pushes the URL first, then swaps the content in
    page.wait_for_function("() => document.querySelector('.arithmatex') !== null")
    assert page.evaluate("() => window.__noReload === true"), "the click reloaded the page: instant navigation is off"
    math = page.evaluate(RAW_MATH_JS)
    assert math["math"] > 0 and math["unrendered"] == [] and math["raw"] == [], math
    assert page.locator(".katex").count() >= math["math"]
    assert katex_styled(page), "the formulas do not take KaTeX's font: is katex.min.css loaded?"
    recorder.settle()
    assert not (problems := recorder.take()), report(problems)


def test_offline_build_works_from_disk(new_context, offline_site: Path):
    context = new_context()
    recorder = Recorder(allowed_origin="file")
    recorder.attach(context)
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    page = context.new_page()
    page.goto((offline_site / "index.html").as_uri())
    expect(page.locator(".md-content h1").first).to_be_visible()
    hrefs = page.locator(".md-sidebar--primary a.md-nav__link[href]").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('href'))"
    )
    pages = [h for h in hrefs if not h.startswith("#")]
    assert pages, "the offline home page has no navigation links"
    for href in pages:
        path = (offline_site / href).resolve()
        assert href.endswith(".html") and path.is_file(), f"offline link {href!r} does not name a file of the site"
    other = next(h for h in pages if h not in ("index.html", "./index.html", "."))
    page.locator(f".md-sidebar--primary a.md-nav__link[href='{other}']").first.click()
    page.wait_for_url((offline_site / other).resolve().as_uri())
    expect(page.locator(".md-content h1").first).to_be_visible()
    # Search works from disk: the index is inlined in search_index.js and the worker shimmed.
    # Neither loads before the search opens (assets/javascripts/search-on-demand.js).
    search_files = ("search/search_index.js", "assets/javascripts/workers/search.")
    assert not [u for u in requested if any(f in u for f in search_files)], requested
    # Typed, not filled: Material reads the query on keyup (and again once the index is ready).
    page.locator("input.md-search__input").press_sequentially("attention")
    results = page.locator(".md-search-result__item")
    expect(results.first).to_be_visible()
    assert all(any(f in u for u in requested) for f in search_files), requested
    assert not (problems := recorder.take()), report(problems)


def includes_a_snippet(html: Path) -> bool:
    """Whether the page's Markdown source (found through its edit link) includes a file of snippets/."""
    href = edit_link(html)
    if not href or not href.startswith(EDIT_URI):
        return False
    source = DOCS / href[len(EDIT_URI) :]
    return (
        source.suffix == ".md" and re.search(r"--8<--.*snippets/", source.read_text(encoding="utf-8"), re.S) is not None
    )


def test_the_edit_button_shows(page: Page, site):
    """(Where each page's edit link leads: tests/content/test_site_build.py.)"""
    page.goto(site.url("real-numbers/index.html"))
    button = page.locator("a.md-content__button[rel=edit]")
    expect(button).to_be_visible()
    assert button.get_attribute("href") == EDIT_URI + "real-numbers.md"
