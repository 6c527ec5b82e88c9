"""The site's copies of Material's stylesheets are cut to the rules the site can use
(publish/material_css.py): under them every element of a set of pages, in a set of states, in light
and dark, has the same computed style as under the whole files from Material's package.

For each page and state, one browser context loads the site as built and another the same site with
the requests for the cut stylesheets answered with the whole files (Playwright's route). Both are
brought to the same state (a search typed and its results shown, the navigation drawer opened on a
375 px screen, a copy button hovered, a content tab switched), left until
their animations and transitions end (an endless one is paused at its start in both), and then every
element's computed style is read: every property getComputedStyle lists, and for ::before and
::after their content and, where they have one, every property too. Any difference fails, naming the
page, state, scheme, element and property. The elements are compared in document order; both pages
must have the same elements."""

from __future__ import annotations

from pathlib import Path

import material
import pytest

from publish.material_css import STYLESHEETS, stylesheets

pytestmark = [pytest.mark.browser, pytest.mark.slow]

THEME = Path(material.__file__).parent / "templates"
PHONE = {"width": 375, "height": 740}

# The custom properties of the root and the body, where the theme and its palettes set them.
CUSTOM_JS = """() => [document.documentElement, document.body].map((e) => { const s = getComputedStyle(e);
  return [...s].filter((p) => p.startsWith('--')).sort().map((p) => p + '\\t' + s.getPropertyValue(p)); })"""
# How many rules each of Material's stylesheets has, as the page loaded them.
RULES_JS = "() => [...document.styleSheets].filter((s) => /stylesheets/.test(s.href)).map((s) => s.cssRules.length)"
NAMES_JS = "() => [...getComputedStyle(document.documentElement)].filter((p) => !p.startsWith('--'))"


# Until no animation or transition runs (at most 3 s), then every one left (an endless one) paused
# at its start.
SETTLE_JS = """async () => {
  await document.fonts.ready;
  const t0 = performance.now();
  // Material marks the body while it applies the palette (data-md-color-switching: transitions off).
  while (performance.now() - t0 < 5000 && document.querySelector('[data-md-color-switching]')) {
    await new Promise((r) => setTimeout(r, 50));
  }
  while (performance.now() - t0 < 3000 && document.getAnimations().some((a) =>
         a.playState === 'running' && a.effect && a.effect.getTiming().iterations !== Infinity)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const a of document.getAnimations()) { a.pause(); a.currentTime = 0; }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""


def _search(page) -> None:
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").press_sequentially("softmax")
    page.locator(".md-search-result__item").first.wait_for()
    page.wait_for_timeout(300)


def _drawer(page) -> None:
    page.locator("label.md-header__button[for=__drawer]").click()
    assert page.locator("#__drawer").is_checked()
    page.wait_for_timeout(400)


def _hover_copy(page) -> None:
    button = page.locator(".md-typeset button.md-code__button").locator("visible=true").first
    button.scroll_into_view_if_needed()
    button.hover()
    # The site has no Material tooltips (no content.tooltips): the button's title is the browser's.
    assert button.evaluate("(b) => b.matches(':hover')")
    page.wait_for_timeout(300)


def _switch_tab(page) -> None:
    label = page.locator(".tabbed-set .tabbed-labels > label:nth-child(2)").locator("visible=true").first
    label.scroll_into_view_if_needed()
    label.click()
    page.wait_for_timeout(300)


def _none(page) -> None:
    pass


# (page, state, action, viewport)
CASES = [
    ("", "loaded", _none, None),
    ("real-numbers/", "loaded", _none, None),  # tabs, code, math, admonitions, details
    ("playground/", "loaded", _none, None),
    ("notebooks/real-numbers/", "loaded", _none, None),
    ("examples/the_cat_sat/", "loaded", _none, None),
    ("api/", "loaded", _none, None),
    ("", "search results open", _search, None),
    # The states on a lighter page with the same parts (tabs, code, copy buttons; 1,756 elements
    # against real-numbers' 4,294): every element is compared in each, so the page sets the time.
    ("where-used/", "drawer open at 375 px", _drawer, PHONE),
    ("where-used/", "copy button hovered", _hover_copy, None),
    ("where-used/", "second content tab", _switch_tab, None),
]


def whole_files(context, site) -> None:
    """Answer the requests for the site's cut stylesheets with Material's whole files."""

    def serve(whole: Path):
        return lambda route: route.fulfill(path=whole, content_type="text/css")

    for path in stylesheets(site.dir):
        context.route(f"**/{STYLESHEETS.as_posix()}/{path.name}", serve(THEME / STYLESHEETS / path.name))


def _name(nodes: dict, strings: list[str], i: int, pseudo: dict[int, str]) -> str:
    """A node of a snapshot, named by its last four ancestors' tags, ids and classes."""
    parts = []
    while i >= 0 and len(parts) < 4:
        name = strings[nodes["nodeName"][i]].lower()
        attrs = nodes["attributes"][i]
        named = {strings[attrs[k]]: strings[attrs[k + 1]] for k in range(0, len(attrs), 2)}
        name += f"#{named['id']}" if named.get("id") else ""
        name += "".join(f".{c}" for c in named.get("class", "").split())
        parts.insert(0, name + (f"::{pseudo[i]}" if i in pseudo else ""))
        i = nodes["parentIndex"][i]
    return " > ".join(parts)


def snapshot(page, names: list[str]) -> tuple[list[str], list[tuple[str, tuple]]]:
    """Every node's name, and every node with a box (pseudo-elements and text too), named, with its
    computed values of ``names``, from Chromium's DOMSnapshot."""
    cdp = page.context.new_cdp_session(page)
    snap = cdp.send("DOMSnapshot.captureSnapshot", {"computedStyles": names})
    strings = snap["strings"]
    dom, boxes = [], []
    for doc in snap["documents"]:
        nodes = doc["nodes"]
        pseudo = dict(
            zip(nodes["pseudoType"]["index"], (strings[v] for v in nodes["pseudoType"]["value"]), strict=True)
        )
        dom += [strings[n] for n in nodes["nodeName"]]
        layout = doc["layout"]
        boxes += [
            (_name(nodes, strings, node, pseudo), tuple(strings[v] for v in style))
            for node, style in zip(layout["nodeIndex"], layout["styles"], strict=True)
        ]
    return dom, boxes


def look(page, names: list[str] | None = None) -> tuple:
    """A page once settled: the property names, its nodes, its boxes and root custom properties."""
    page.evaluate(SETTLE_JS)
    names = names or page.evaluate(NAMES_JS)
    return names, *snapshot(page, names), page.evaluate(CUSTOM_JS)


def differences(page: str, cut: tuple, whole: tuple) -> list[str]:
    """What differs between two looks of a page (look()), each difference named."""
    names, cut_dom, cut_boxes, cut_custom = cut
    _, whole_dom, whole_boxes, whole_custom = whole
    if cut_dom != whole_dom:
        return [f"{page}: the pages' nodes differ"]
    if [n for n, _ in cut_boxes] != [n for n, _ in whole_boxes]:
        odd = [(a, b) for (a, _), (b, _) in zip(cut_boxes, whole_boxes, strict=False) if a != b]
        return [f"{page}: the nodes with a box differ, first {odd[:1]} ({len(cut_boxes)}, {len(whole_boxes)} boxes)"]
    odd = sorted({*cut_custom[0], *cut_custom[1]} ^ {*whole_custom[0], *whole_custom[1]})
    return [f"{page}: custom property of the root or body: {v[:150]}" for v in odd] + [
        f"{page}: {node}: {name}: cut {x!r}, whole {y!r}"
        for (node, a), (_, b) in zip(cut_boxes, whole_boxes, strict=True)
        if a != b
        for name, x, y in zip(names, a, b, strict=True)
        if x != y
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    ("path", "state", "action", "viewport"), CASES, ids=[f"{p or 'home'}-{s}" for p, s, _, _ in CASES]
)
def test_every_element_looks_the_same_under_the_whole_stylesheets(
    site, new_context, path, state, action, viewport, scheme
):
    cut_files = {p.name: p.stat().st_size for p in stylesheets(site.dir)}
    assert cut_files and all(size < (THEME / STYLESHEETS / n).stat().st_size for n, size in cut_files.items())
    cut_context, whole_context = new_context(color_scheme=scheme), new_context(color_scheme=scheme)
    whole_files(whole_context, site)
    where = f"{path or 'home'} ({state}, {scheme})"

    def compare() -> list[str]:
        """One load of the page under each stylesheet, brought to the state: what differs."""
        pages = [cut_context.new_page(), whole_context.new_page()]
        for page in pages:
            if viewport:
                page.set_viewport_size(viewport)  # the session's viewport is a laptop's
            page.goto(site.base_url + path)
            page.wait_for_load_state("load")
            action(page)
        assert pages[0].evaluate(RULES_JS) != pages[1].evaluate(RULES_JS), "the whole stylesheets were not served"
        cut = look(pages[0])
        assert len(cut[0]) > 300 and len(cut[2]) > 300, (len(cut[0]), len(cut[2]))
        differ = differences(where, cut, look(pages[1], cut[0]))
        for page in pages:
            page.close()
        return differ

    # A difference that the stylesheets make is there on every load; one that a page caught while
    # still settling on a busy machine (a layout read between two frames) is not: on a difference,
    # both pages are loaded again, and what differs on both loads fails.
    first = compare()
    differ = [d for d in compare() if d in first] if first else []
    assert not differ, f"{len(differ)} computed values differ under the cut stylesheets, first:\n" + "\n".join(
        differ[:20]
    )
