"""One playground page per test module (per xdist worker), put back before each test to the state
of a fresh load.

A full load of the playground (about:blank, then the page from the HTTP cache) took some 0.22 s of
each test. Instead, after one full load the page keeps a copy of itself as the server sends it (a
second fetch, parsed and with its relative addresses resolved, as Material's instant navigation
does), and a test's page is opened by doing what instant navigation does on arrival: the address
set (history.replaceState), Material's components of the page replaced by fresh copies (the
container, with #playground as the server sends it), and document$ emitted, on which app.js
unmounts the playground that was there and mounts a new one from the address (some 0.03 s).

Before each test, `reset` opens the playground that way at playground/ (which also forgets a
notice app.js carries over for a hash change after a full load), with storage, cookies, focus,
scroll and the mouse put back, and compares the page with what it was right after its full load
(`fingerprint`: the whole DOM with every field's value, storage, cookies, scroll positions, focus,
the viewport, the window's globals, the address). Anything a test left that this does not undo (the
palette switched, a global set, a page reached by Material's navigation, which changes what its
next navigation does) shows there, and the page is then loaded in full. A new mount is only made
where Material's location$ has not emitted since the full load, so that its next navigation (the
first hash change, which fetches the page again) is what it is after a full load.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

READY = "#playground[data-state=ready]"

# After a full load: the page as the server sends it (Material's requestHTML: fetch and
# DOMParser; its resolve(): relative href and src made absolute), and a note of every address
# Material's location$ emits from now on (instant navigation and popstate), after which its next
# navigation would not be what it is after a full load.
HARNESS_JS = """async () => {
  const text = await (await fetch(location.pathname)).text();
  const doc = new DOMParser().parseFromString(text, 'text/html');
  for (const el of doc.querySelectorAll('[href], [src]')) {
    for (const key of ['href', 'src']) {
      const value = el.getAttribute(key);
      if (value && !/^(?:[a-z]+:)?\\/\\//i.test(value)) { el[key] = el[key]; break; }
    }
  }
  const harness = {doc, navigated: false, storage: [{...localStorage}, {...sessionStorage}]};
  location$.subscribe({next: () => { harness.navigated = true; }});  // a Subject: no replay
  Object.defineProperty(window, '__pgHarness', {value: harness, enumerable: false});
}"""

# What Material's inject() replaces on instant navigation (navigation.tabs.sticky is off).
COMPONENTS = ["announce", "container", "header-topic", "outdated", "logo", "skip"]

REMOUNT_JS = """([url, components]) => {
  const harness = window.__pgHarness;
  history.replaceState(null, '', url);
  for (const name of components) {
    const selector = `[data-md-component=${name}]`;
    const here = document.querySelector(selector);
    const fresh = harness.doc.querySelector(selector);
    if (here && fresh) here.replaceWith(document.importNode(fresh, true));
  }
  document$.next(document);
  window.scrollTo(0, 0);
}"""

# Storage as the full load left it (Material keeps the palette there), no cookies, no focus, and
# the keyboard's starting point at the top of the page (an element focused there and removed), as
# after a load.
CLEAN_JS = """() => {
  const [local, session] = window.__pgHarness.storage;
  localStorage.clear();
  sessionStorage.clear();
  for (const [k, v] of Object.entries(local)) localStorage.setItem(k, v);
  for (const [k, v] of Object.entries(session)) sessionStorage.setItem(k, v);
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  document.activeElement?.blur?.();
  getSelection().removeAllRanges();
  const start = document.createElement('span');
  start.tabIndex = -1;
  document.body.prepend(start);
  start.focus({preventScroll: true});
  start.remove();
}"""

# Everything of the page that a test could leave behind and that a fresh load would not have.
FINGERPRINT_JS = """() => {
  const all = [...document.querySelectorAll('*')];
  const describe = (e) => `${e.tagName}#${e.id}.${e.className}`;
  return JSON.stringify({
    url: location.href,
    html: [...document.documentElement.attributes].map((a) => [a.name, a.value]),
    head: document.head.innerHTML,
    body: document.body.outerHTML,
    fields: [...document.querySelectorAll('input, select, textarea')]
      .map((e) => [describe(e), e.value, e.checked ?? null, e.selectedIndex ?? null]),
    scrolled: [[window.scrollX, window.scrollY],
               ...all.filter((e) => e.scrollTop || e.scrollLeft).map((e) => [describe(e), e.scrollLeft, e.scrollTop])],
    focus: describe(document.activeElement),
    selection: String(getSelection()),
    viewport: [window.innerWidth, window.innerHeight],
    storage: [{...localStorage}, {...sessionStorage}],
    cookie: document.cookie,
    globals: Object.getOwnPropertyNames(window).sort(),
    scrollRestoration: history.scrollRestoration,
    navigated: window.__pgHarness?.navigated ?? 'no harness',
  });
}"""


# settle()'s wait, then the fingerprint: one call.
SETTLE_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))"
SETTLED_FINGERPRINT_JS = f"() => ({SETTLE_JS})().then({FINGERPRINT_JS})"

# A new mount in one call (each call to the page is a round trip through Playwright's driver and the
# browser, some 2.5 ms of CPU): false if the page cannot take one (Material has navigated since the
# full load); else REMOUNT_JS, and until the playground is ready (as wait_for_selector(READY): there
# and visible; 10 s at most).
MOUNT_JS = f"""async ([url, components]) => {{
  if (window.__pgHarness?.navigated !== false) return false;
  ({REMOUNT_JS})([url, components]);
  const ready = () => {{
    const e = document.querySelector({json.dumps(READY)});
    return e !== null && e.checkVisibility({{visibilityProperty: true}}) && e.getClientRects().length > 0;
  }};
  for (const start = performance.now(); !ready(); ) {{
    if (performance.now() - start > 10000) throw new Error('the new mount was not ready in 10 s');
    await new Promise((r) => requestAnimationFrame(r));
  }}
  return true;
}}"""
# The whole of a reset by a new mount, in one call (it took six, some 30 ms of CPU a reset of 100):
# null if the page cannot take a new mount; else CLEAN_JS, MOUNT_JS at playground/, and the
# fingerprint once the page has settled.
RESET_JS = f"""async ([url, components]) => {{
  if (window.__pgHarness?.navigated !== false) return null;
  ({CLEAN_JS})();
  await ({MOUNT_JS})([url, components]);
  return ({SETTLED_FINGERPRINT_JS})();
}}"""


_SHARED: WeakKeyDictionary[Page, SharedPage] = WeakKeyDictionary()


@dataclass(eq=False)
class SharedPage:
    """The module's page and what it was right after its last full load."""

    page: Page
    base_url: str
    fresh: str | None = None  # the fingerprint after the last full load
    left: list[list[str]] = field(default_factory=list)  # for each reset that loaded in full: why

    @property
    def home(self) -> str:
        return self.base_url + "playground/"

    def __post_init__(self) -> None:
        _SHARED[self.page] = self

    @staticmethod
    def of(page: Page) -> SharedPage | None:
        """The SharedPage of a page, if it is one."""
        return _SHARED.get(page)

    def fingerprint(self) -> str:
        """FINGERPRINT_JS once the page has settled (settle)."""
        return self.page.evaluate(SETTLED_FINGERPRINT_JS)

    def full_load(self, suffix: str = "") -> None:
        """The playground loaded anew, from storage and cookies as a new context has them."""
        page = self.page
        page.context.clear_cookies()
        if page.url.startswith(self.base_url):
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        if page.url.startswith(self.home):
            page.goto("about:blank")  # a new document: a new #part alone would only fire hashchange
        page.goto(self.home + suffix)
        page.wait_for_selector(READY)
        page.evaluate(HARNESS_JS)
        self.fresh = self.fingerprint() if suffix == "" else None

    def open(self, suffix: str = "") -> None:
        """The playground at playground/<suffix>, as a load of that address shows it: a new mount
        where the page can take one (MOUNT_JS), else a full load."""
        page = self.page
        if not (page.url.startswith(self.home) and page.evaluate(MOUNT_JS, [self.home + suffix, COMPONENTS])):
            self.full_load(suffix)

    def reset(self) -> str:
        """Back to a fresh load of playground/: "remounted" where the page shows no trace of the
        test before, else "loaded" (in full)."""
        page = self.page
        try:
            page.mouse.move(0, 0)
            now = None
            if self.fresh is not None and page.url.startswith(self.home):
                now = page.evaluate(RESET_JS, [self.home, COMPONENTS])  # CLEAN_JS, then open()
            if now is None:
                self.left.append(["no remount: " + page.url])
            elif now == self.fresh:
                return "remounted"
            else:
                was = json.loads(self.fresh)
                self.left.append(sorted(k for k, v in json.loads(now).items() if was.get(k) != v))
        except PlaywrightError as e:  # the test before left the page unusable (a failure half-way)
            self.left.append([f"{type(e).__name__}: {e}"])
        self.full_load()
        return "loaded"


def settle(page: Page) -> None:
    """Until what the page does after a change is done: two animation frames (the playground's
    announcements, Material's observers of scroll and size) and the timers they set."""
    page.evaluate(SETTLE_JS)
