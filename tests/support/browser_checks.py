"""What the browser tests check on any page of the site, and how they wait for Material.

- ``Recorder`` (``recorded_context``, ``report``): what a clean page never does, in a browser
  context: console errors, uncaught errors, failed requests and HTTP errors, a request to another
  host, a request for KaTeX's script (the math is rendered when the site is built).
- ``RAW_MATH_JS``, ``katex_styled``: math that KaTeX did not render, and katex.min.css loaded.
- axe-core: ``AXE_SCRIPT``, ``AXE_SETUP_JS``, ``AXE_JS`` and the rule sets ``AXE_ALL`` and
  ``AXE_COLOURS``, with ``SAMPLE_COLOURS_JS``, which gives axe's colour rules one element of each
  look of text.
- ``open_for_instant_navigation``, ``cancelled_after_load``, ``palette_toggle``, ``scheme``: Material's
  instant navigation, the requests that leaving a page cancels, the palette.
- ``animations_ended``: until every finite transition and animation of the page has ended.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, Response

AXE_SCRIPT = Axe().axe_script  # axe-core, as shipped by axe-playwright-python
# The rules whose outcome depends on colours: all that the dark scheme can change.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
LOCAL_SCHEMES = {"data", "blob", "about"}
# KaTeX's own scripts: the math is rendered when the site is built, so no page may ask for them.
KATEX_SCRIPT = re.compile(r"katex(\.min)?\.js|auto-render", re.I)

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

# axe-core, once injected: its colour rules look only at the elements marked data-axe-sample, and
# the rules that cannot find a serious or critical violation are off. axe gives every violation of a
# rule that has an impact of its own that impact (its checks' are overwritten), so a rule of minor or
# moderate impact (region, heading-order, the landmark rules, ...: 26 of the 89 it runs by default)
# never yields what AXE_JS keeps, and took some 10 % of a page's run (region alone 0.4 s on /api/).
# (The impact is read from axe's rule objects: axe.getRules() does not give it.)
AXE_SETUP_JS = """() => {
  const mild = axe._audit.rules.filter((r) => r.impact === "minor" || r.impact === "moderate");
  if (!mild.some((r) => r.id === "region"))
    throw new Error("axe's rules no longer say their impact: AXE_SETUP_JS cannot tell the mild ones");
  axe.configure({rules: [
    {id: "color-contrast", selector: "[data-axe-sample]"},
    {id: "link-in-text-block", selector: "a[href][data-axe-sample], [role=link][data-axe-sample]"},
    ...mild.map((r) => ({id: r.id, enabled: false}))]});
}"""
# Runs axe-core, on the whole document or on the elements a selector names ([selector or null,
# options]), and returns its serious and critical violations, one line each.
AXE_JS = """([include, options]) => axe.run(include ? {include: [[include]]} : document, options)
  .then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
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
# (a selector; the whole body if null). Returns the new looks. It first takes every transition
# under way to its end: a look caught half-way (Material's header fading its title in after a
# scroll) is neither look, and failed axe's contrast rule under a busy machine.
SAMPLE_COLOURS_JS = r"""([seenBefore, root]) => {
  for (const a of document.getAnimations())
    if (a.playState === "running" && a.effect?.getComputedTiming().endTime !== Infinity) a.finish();
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


# Marks, beneath Material, when it has read sitemap.xml (its DOMParser's "text/xml" parse of a
# <urlset>): the next task, Material's instant navigation follows the links the sitemap lists. The mark
# is a symbol of the window, no global name (tests/support/playground_page.py compares those).
SITEMAP_READ_JS = """(() => {
  const parse = DOMParser.prototype.parseFromString;
  if (parse.__marks) return;
  const marking = function (text, type) {
    const doc = parse.call(this, text, type);
    if (type === "text/xml" && doc.documentElement?.localName === "urlset")
      setTimeout(() => { window[Symbol.for("sitemap read")] = true; });
    return doc;
  };
  marking.__marks = true;
  DOMParser.prototype.parseFromString = marking;
})()"""


def open_for_instant_navigation(page: Page, url: str) -> None:
    """Open ``url`` and wait until Material's instant navigation can take a click: it follows only
    the links that sitemap.xml lists, which it fetches after the load event, and a click before that
    is an ordinary page load (SITEMAP_READ_JS)."""
    page.add_init_script(SITEMAP_READ_JS)
    page.goto(url)
    page.wait_for_function('() => window[Symbol.for("sitemap read")] === true')


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
    pending: set[Request] = field(default_factory=set)  # the requests made that have not ended

    def attach(self, context: BrowserContext) -> None:
        context.on("request", self._request)
        context.on("response", self._response)
        context.on("requestfailed", self._failed)
        context.on("requestfinished", lambda request: self.pending.discard(request))
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
        self.pending.discard(request)
        if cancelled_after_load(request):
            return
        self._add(request, f"request failed: {request.url} ({request.failure})")

    def _request(self, request: Request) -> None:
        self.pending.add(request)
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

    def settle(self) -> None:
        """Until every request made so far has ended (its answer read, or failed), so that what the
        pages asked for late (after their load event) is recorded too."""
        while self.pending:
            request = next(iter(self.pending))
            response = request.response()  # waits for it: None if the request failed
            if response is not None:
                response.finished()
            self.pending.discard(request)

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


# Every finite CSS transition and animation of the page has ended (checked each frame, from the second
# frame on, so that what the last change starts has started): the state as it stays, without a fixed
# wait that is too long or too short. An animation that follows a box's scrolling (extra.css's
# sideways fade) has no end in time.
ANIMATIONS_ENDED_JS = """() => new Promise((done) => {
  const look = () => document.getAnimations().every((a) => a.playState !== 'running'
      || a.effect.getComputedTiming().iterations === Infinity || !(a.timeline instanceof DocumentTimeline))
    ? done(true) : requestAnimationFrame(look);
  requestAnimationFrame(() => requestAnimationFrame(look));
})"""


def animations_ended(page: Page) -> None:
    page.evaluate(ANIMATIONS_ENDED_JS)
