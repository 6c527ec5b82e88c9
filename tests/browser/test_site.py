"""The built site in a real browser: what a reader sees, and that nothing leaves the machine.

Every page is opened and checked for console errors, requests to other hosts (or for KaTeX's
script), math not rendered when the site was built, and serious or critical accessibility
violations (axe-core, light and dark scheme); then the interactive parts: linked tabs, copy
buttons, the palette toggle, instant navigation, the offline build and the edit links.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, Response, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from publish.source import mkdocs_yml

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"
AXE_SCRIPT = Axe().axe_script  # axe-core, as shipped by axe-playwright-python
# The rules whose outcome depends on colours: all that the dark scheme can change.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
LOCAL_SCHEMES = {"data", "blob", "about"}
# KaTeX's own scripts: the math is rendered when the site is built, so no page may ask for them.
KATEX_SCRIPT = re.compile(r"katex(\.min)?\.js|auto-render", re.I)
EDIT_URI = mkdocs_yml.config()["edit_uri"]

# Text nodes outside code that still hold TeX delimiters: math that KaTeX did not render when the
# site was built (publish/markdown/katex_math.py); and arithmatex elements without KaTeX's HTML.
RAW_MATH_JS = r"""() => {
  const skip = "pre, code, script, style, textarea, .katex-mathml";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip) || !parent.checkVisibility()) continue;
    const text = node.textContent;
    if (text.includes("\\(") || text.includes("\\[") || text.includes("$$")) found.push(text.trim().slice(0, 80));
  }
  const math = [...document.querySelectorAll(".arithmatex")];
  return {
    math: math.length,
    unrendered: math.filter((e) => !e.querySelector(".katex")).map((e) => e.textContent.trim().slice(0, 80)),
    raw: found,
  };
}"""

# axe-core, once injected: its colour rules look only at the elements marked data-axe-sample.
AXE_SETUP_JS = """() => axe.configure({rules: [
  {id: "color-contrast", selector: "[data-axe-sample]"},
  {id: "link-in-text-block", selector: "a[href][data-axe-sample], [role=link][data-axe-sample]"}]})"""
# Runs axe-core and returns its serious and critical violations, one line each.
AXE_JS = """(options) => axe.run(document, options).then((r) => r.violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `axe ${v.id} (${v.impact}): ${v.help} -> `
    + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")))"""
AXE_ALL = {"resultTypes": ["violations"]}
AXE_COLOURS = {"resultTypes": ["violations"], "runOnly": {"type": "rule", "values": COLOUR_RULES}}

# Marks one visible element for each look of text (or of a form field) not seen before (on this
# page or on those already checked): the inputs of a contrast check, that is the tag, colour, font size and
# weight, text shadow, and the backgrounds and opacities of the element and its ancestors. Two
# elements that look the same pass or fail together, so axe's colour rules need to see only one:
# on all the elements they take most of axe's time (5 s on a page with much code and math, which
# has thousands of text elements and some forty looks). The text looked at is that under ``root``
# (a selector; the whole body if null). Returns the new looks.
SAMPLE_COLOURS_JS = r"""([seenBefore, root]) => {
  for (const e of document.querySelectorAll("[data-axe-sample]")) e.removeAttribute("data-axe-sample");
  const seen = new Set(seenBefore);
  const fresh = [];
  const backdrops = new Map();  // element -> the part of a look that it and its ancestors give
  const backdrop = (el) => {
    if (!el) return "";
    if (backdrops.has(el)) return backdrops.get(el);
    const s = getComputedStyle(el);
    let own = s.opacity !== "1" ? `o${s.opacity} ` : "";
    if (s.backgroundImage !== "none") own += `${s.backgroundImage} `;
    if (s.backgroundColor !== "rgba(0, 0, 0, 0)") own += `${s.backgroundColor} `;
    const look = own + backdrop(el.parentElement);
    backdrops.set(el, look);
    return look;
  };
  // axe cannot judge text that a scrolling block hides (a long line of code): not a sample.
  const unclipped = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const c = a.getBoundingClientRect();
      if (r.left < c.left || r.right > c.right || r.top < c.top || r.bottom > c.bottom) return false;
    }
    return true;
  };
  const top = root ? document.querySelector(root) : document.body;
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    // axe judges only text of two characters or more with letters or digits ("(" and "1" it
    // leaves undecided): only such text stands for a look.
    const text = t.textContent.trim();
    if (text.length < 2 || !/[\p{L}\p{N}]/u.test(text) || !el || el.closest("script, style, .katex-mathml")) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const s = getComputedStyle(el);
    const key = [el.tagName, s.color, s.fontSize, s.fontWeight, s.textShadow, backdrop(el)].join("|");
    if (seen.has(key) || !unclipped(el)) continue;
    seen.add(key);
    fresh.push(key);
    el.setAttribute("data-axe-sample", "");
  }
  // axe's colour rule judges the text of form fields too (an input's value, a select's option):
  // one field of each look, whether its text is one that axe judges being part of the look.
  for (const el of top.querySelectorAll("input, select, textarea")) {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const option = el.tagName === "SELECT" ? el.selectedOptions[0] : null;
    const text = (option ? option.textContent : el.value || el.placeholder || "").trim();
    const judged = text.length >= 2 && /[\p{L}\p{N}]/u.test(text);
    const s = getComputedStyle(el);
    const key = [el.tagName, el.type, el.disabled, judged, s.color, s.fontSize, s.fontWeight, s.textShadow,
      backdrop(el)].join("|");
    if (seen.has(key) || !unclipped(el)) continue;
    seen.add(key);
    fresh.push(key);
    el.setAttribute("data-axe-sample", "");
  }
  return fresh;
}"""


def open_for_instant_navigation(page: Page, url: str) -> None:
    """Open ``url`` and wait until Material's instant navigation can take a click: it follows only
    the links that sitemap.xml lists, which it fetches after the load event, and a click before that
    is an ordinary page load (the network idle: the sitemap is in)."""
    page.goto(url, wait_until="networkidle")


def cancelled_after_load(request: Request) -> bool:
    """Whether a failed request is one that a page makes after its load event and that going on to
    the next page cancels (net::ERR_ABORTED): Chromium's request for the favicon, Material's instant
    navigation's for sitemap.xml. That is the test's doing, not the page's; a missing favicon or
    sitemap is still seen, as a 404."""
    return request.failure == "net::ERR_ABORTED" and urlsplit(request.url).path.endswith(
        ("/favicon.png", "/sitemap.xml")
    )


@dataclass
class Recorder:
    """Everything the pages of a browser context did that a clean page must not do, by page."""

    allowed_origin: str  # "http://127.0.0.1:PORT" or "file"
    problems: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def attach(self, context: BrowserContext) -> None:
        context.on("request", self._request)
        context.on("response", self._response)
        context.on("requestfailed", self._failed)
        context.on("console", self._console)
        context.on("weberror", lambda e: self._add(e, f"uncaught error: {e.error}"))

    def _add(self, source, problem: str) -> None:
        try:
            page = source.page if hasattr(source, "page") else source.frame.page
            where = page.url if page else "(no page)"
        except Exception:  # a worker's request has no frame
            where = "(worker)"
        self.problems[where].append(problem)

    def _failed(self, request: Request) -> None:
        if cancelled_after_load(request):
            return
        self._add(request, f"request failed: {request.url} ({request.failure})")

    def _request(self, request: Request) -> None:
        parts = urlsplit(request.url)
        if KATEX_SCRIPT.search(parts.path):
            self._add(request, f"KaTeX's script requested (the math is rendered when the site is built): {request.url}")
        if parts.scheme in LOCAL_SCHEMES:
            return
        origin = "file" if parts.scheme == "file" else f"{parts.scheme}://{parts.netloc}"
        if origin != self.allowed_origin:
            self._add(request, f"request to another host: {request.url}")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self._add(response.request, f"HTTP {response.status}: {response.url}")

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self._add(message, f"console error: {message.text} at {message.location.get('url')}")

    def take(self) -> dict[str, list[str]]:
        problems, self.problems = dict(self.problems), defaultdict(list)
        return problems


def recorded_context(new_context, site, **kwargs) -> tuple[BrowserContext, Recorder]:
    context = new_context(**kwargs)
    recorder = Recorder(allowed_origin=site.base_url.rstrip("/"))
    recorder.attach(context)
    return context, recorder


def report(problems: dict[str, list[str]]) -> str:
    return "problems found:\n" + "\n".join(f"{where}\n  " + "\n  ".join(p) for where, p in problems.items())


def palette_toggle(page: Page):
    return page.locator("[data-md-component=palette] label:not([hidden])")


def scheme(page: Page) -> str:
    return page.locator("body").get_attribute("data-md-color-scheme")


def katex_styled(page: Page) -> bool:
    """Whether the page's first formula takes katex.min.css's font (the CSS is loaded)."""
    return page.evaluate("() => getComputedStyle(document.querySelector('.katex')).fontFamily.startsWith('KaTeX_Main')")


def pages_with(site, pattern: str) -> list[Path]:
    """Built pages whose HTML matches a regular expression."""
    regex = re.compile(pattern)
    return [p for p in site.html_files() if regex.search(p.read_text(encoding="utf-8"))]


# -- every page -----------------------------------------------------------------------------------


def test_site_has_every_nav_page(site):
    built = {p.relative_to(site.dir).as_posix() for p in site.html_files()}
    for page in ["index.html", "real-numbers/index.html", "queries-keys-values/index.html",
                 "learned-weights/index.html", "learning/index.html", "where-used/index.html",
                 "attention-that-learns/index.html"]:  # fmt: skip
        assert page in built, f"{page} is missing from the built site; built pages: {sorted(built)}"


NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"


# The pages are checked in this many groups (every CLEAN_GROUPS-th page from the n-th on), one test
# each, so that the workers share them (in one test they took a worker for a third of the run): one
# group per core. Fewer groups check fewer looks of text twice (each group meets them afresh): the
# pages took 137 s in six groups, 120 s in two, on the 2-core machine.
CLEAN_GROUPS = 2


@pytest.mark.slow
@pytest.mark.parametrize("group", range(CLEAN_GROUPS))
def test_every_page_is_clean(new_context, site, group):
    """No console error, no request off the machine (nor for KaTeX's script), math rendered when
    the site was built, no serious axe violation: on every page, its group taken in one browser
    context, one page load each.

    On each page axe runs all its rules, its colour rules only on one sample of each look of
    text not met on an earlier page of the group (see SAMPLE_COLOURS_JS); then the palette toggle
    switches scheme (light / dark) in place and the colour rules run on the looks of that scheme
    not met yet. The scheme is remembered, so the next page starts in it and switches back.
    """
    every = site.html_files()
    pages = every[group::CLEAN_GROUPS]
    assert len(every) >= CLEAN_GROUPS and pages, f"{len(every)} pages built: too few for {CLEAN_GROUPS} groups"
    context, recorder = recorded_context(new_context, site)
    # axe-core in every document as it starts: sent to the browser once, not once per page.
    context.add_init_script(AXE_SCRIPT)
    page = context.new_page()
    problems: dict[str, list[str]] = defaultdict(list)
    looks = {"default": set(), "slate": set()}  # Material's names for the light and dark schemes
    for html in pages:
        url = site.url(html)
        page.goto(url, wait_until="load")
        # Colours are measured as they settle: a transition (Material's, 125 ms on some elements)
        # caught half-way through the scheme switch gives a contrast that no reader sees.
        page.add_style_tag(content=NO_TRANSITIONS)
        math = page.evaluate(RAW_MATH_JS)
        problems[url] += [f"math not rendered by KaTeX: {t!r}" for t in math["unrendered"]]
        problems[url] += [f"raw TeX delimiters visible: {t!r}" for t in math["raw"]]
        page.evaluate(AXE_SETUP_JS)
        for rules in (AXE_ALL, AXE_COLOURS):
            if rules is AXE_COLOURS:
                before = scheme(page)
                palette_toggle(page).click()
                expect(page.locator("body")).not_to_have_attribute("data-md-color-scheme", before)
            now = scheme(page)
            fresh = page.evaluate(SAMPLE_COLOURS_JS, [sorted(looks[now]), None])
            looks[now].update(fresh)
            if rules is AXE_ALL or fresh:
                name = {"default": "light", "slate": "dark"}[now]
                problems[url] += [f"[{name}] {v}" for v in page.evaluate(AXE_JS, rules)]
    page.wait_for_load_state("networkidle")  # the last page's late requests are seen too
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
# no frame at rest).
LINGERING_ANIMATIONS_JS = """() => document.getAnimations()
  .filter((a) => a.playState === "finished" && a.timeline instanceof DocumentTimeline)
  .map((a) => `${a.constructor.name} ${a.transitionProperty || a.animationName} on `
    + a.effect.target.tagName.toLowerCase() + [...a.effect.target.classList].map((c) => `.${c}`).join("")
    + (a.effect.pseudoElement || ""))"""


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
    # ended in view is gone by the next frame, so what is still there after a pause stays.
    page.evaluate("() => document.fonts.ready.then(() => null)")
    for pause in (500, 300, 300):
        page.wait_for_timeout(pause)
        lingering = page.evaluate(LINGERING_ANIMATIONS_JS)
        if not lingering:
            break
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
    page.wait_for_load_state("networkidle")
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


def edit_link(html: Path) -> str | None:
    match = re.search(
        r'<a href="([^"]+)" title="[^"]*" class="md-content__button md-icon"[^>]*rel="edit"',
        html.read_text(encoding="utf-8"),
    )
    return match.group(1) if match else None


def includes_a_snippet(html: Path) -> bool:
    """Whether the page's Markdown source (found through its edit link) includes a file of snippets/."""
    href = edit_link(html)
    if not href or not href.startswith(EDIT_URI):
        return False
    source = DOCS / href[len(EDIT_URI) :]
    return (
        source.suffix == ".md" and re.search(r"--8<--.*snippets/", source.read_text(encoding="utf-8"), re.S) is not None
    )


def test_edit_links_point_to_the_page_source(page: Page, site):
    problems = []
    for html in site.html_files():
        rel = html.relative_to(site.dir).as_posix()
        if rel == "404.html":
            continue
        href = edit_link(html)
        # A worked example's page is generated from its spec: its edit link opens the spec, and
        # the gallery, generated from all of them, has none (publish/mkdocs/worked_examples.py).
        if rel == "examples/index.html":
            if href is not None:
                problems.append(f"{rel}: the generated gallery has an edit link {href!r}")
            continue
        if rel.startswith("examples/"):
            spec = f"{EDIT_URI[: -len('docs/')]}selfattn_ref/examples/{rel.split('/')[1]}.toml"
            if href != spec:
                problems.append(f"{rel}: edit link {href!r}, expected its spec file {spec}")
            continue
        if href is None or not href.startswith(EDIT_URI):
            problems.append(f"{rel}: edit link {href!r} does not start with {EDIT_URI}")
            continue
        src = Path(href[len(EDIT_URI) :])
        dest = "index.html" if src.stem in ("index", "README") else f"{src.with_suffix('').as_posix()}/index.html"
        if src.parent.as_posix() != "." and src.stem in ("index", "README"):
            dest = f"{src.parent.as_posix()}/index.html"
        if not (DOCS / src).is_file() or dest != rel:
            problems.append(f"{rel}: edit link {href} names {src}, which is not this page's source")
    assert not problems, "\n".join(problems)
    page.goto(site.url("real-numbers/index.html"))
    button = page.locator("a.md-content__button[rel=edit]")
    expect(button).to_be_visible()
    assert button.get_attribute("href") == EDIT_URI + "real-numbers.md"
