"""Search finds the page that explains a term first, in Chromium, with Material's own search:
type into the search box of the built site and read the first result.

The index leaves out what nobody searches for: code outputs and tables of numbers
(publish/markdown/search_exclude.py), heatmaps (publish/generate/figures.py), the exercises, whose hidden solutions
would show in results (publish/generate/exercises.py). The API reference ranks below the pages that explain
(docs/api.md, ``search: boost: 0.2``); Masking ranks above the pages that mention "causal" and
"padding" in passing (docs/masking.md, ``boost: 1.2``), and the first article, which introduces
the softmax in its heading "Step 2: normalize with softmax, row by row", above Masking and the
other pages with the softmax in a heading (docs/real-numbers.md, ``boost: 1.5``). A title match
counts a thousand times a match in the text (Material's search), so a boost decides between pages
whose headings name the term. Without Masking's boost "causal" finds another page first; with
1.5 it outranked the first article for "softmax"."""

from __future__ import annotations

import gzip
import json
import urllib.parse

import pytest
from playwright.sync_api import expect

# term -> the page (its path under the site) that should come first
FIRST = {
    "causal": "masking/",
    "padding": "masking/",
    "√d": "scaling/",
    "positional encoding": "positional-encoding/",
    "multi-head": "multi-head/",
    "RNN": "rnn-comparison/",
    "softmax": "real-numbers/",  # the page that introduces it, not Masking (a term on nearly every page)
}


@pytest.fixture(scope="module")
def search_box(module_context, site):
    """One page of the site with its search open, for every term: the results of a term are read
    once they have replaced the last term's (the box emptied, Material empties the list)."""
    page = module_context().new_page()
    page.goto(site.base_url)
    page.keyboard.press("/")
    return page


def _first_results(site, page, term: str) -> list[str]:
    field = page.locator("input.md-search__input")
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    # Material reads the box on keyup: the whole term at once, so that the results read are the
    # term's, not those of its first letters (once the index is in, each keystroke searches).
    field.fill("")
    field.press("End")
    expect(links).to_have_count(0)  # the last term's results are gone
    field.fill(term)
    field.press("End")
    links.first.wait_for()
    hrefs = links.evaluate_all("els => els.slice(0, 3).map(e => e.href)")
    base = urllib.parse.urlsplit(site.base_url).path
    return [urllib.parse.urlsplit(h).path.removeprefix(base) for h in hrefs]


@pytest.mark.browser
@pytest.mark.parametrize("term", sorted(FIRST))
def test_search_finds_the_explaining_page_first(site, search_box, term):
    results = _first_results(site, search_box, term)
    assert results[0] == FIRST[term], f"searching {term!r}: first results {results}, expected {FIRST[term]}"


@pytest.mark.browser
def test_the_index_leaves_out_outputs_tables_figures_and_exercises(site):
    index = json.loads((site.dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    text = " ".join(d["text"] for d in index["docs"])
    assert "Worked solution" not in text and "Show a hint" not in text  # the exercises
    assert "query ↓ key →" not in text and "<svg" not in text  # weights tables, heatmaps
    assert "The         0    -inf    -inf" not in text  # an output (masking/causal_numpy.out)
    assert "causal_mask" in text  # the code above it stays
    api = [d for d in index["docs"] if d["location"].startswith("api/")]
    assert api and all(d.get("boost") == 0.2 for d in api)
    # What a reader downloads when they first search (search-on-demand.js asks for the index then,
    # never on a page's load), gzipped as a server sends JSON: 273 kB raw before outputs, tables and
    # exercises left it, then under 240 kB; 289 kB once the transformer block, learning and
    # attention-that-learns pages (about 13 kB of prose each) came in; 336 kB raw, 92 kB gzipped,
    # with the money sentence, the output projection, the language model's modules on the API page
    # (which is a third of the index, 106 kB: each module's docstrings, searchable by name): each
    # page's prose, not its data. The budget is on the bytes sent, with room for the pages to come:
    # 137 kB gzipped with the language model's two pages and the six of Attention at scale (21 pages
    # of prose and 51 in all), so 160 kB.
    raw = json.dumps(index, ensure_ascii=False).encode()
    assert len(gzip.compress(raw, 9)) < 160_000, len(gzip.compress(raw, 9))


INDEX = "search/search_index.json"
WORKER = "assets/javascripts/workers/search."
# Records what Material asks for as it starts, beneath search-on-demand.js, which holds both back:
# the index's request (opened at once, its send held) and the search worker (Material's new Worker,
# the stand-in that search-on-demand.js puts in window.Worker).
ASKED_JS = """(() => {
  const asked = (window.__asked = []);
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    asked.push(new URL(String(url), location.href).href);
    return open.apply(this, arguments);
  };
  let worker = window.Worker;
  Object.defineProperty(window, "Worker", { configurable: true, get: () => worker, set(value) {
    worker = new Proxy(value, { construct(target, args) {
      asked.push(new URL(String(args[0]), location.href).href);
      return Reflect.construct(target, args);
    } });
  } });
})()"""


@pytest.mark.browser
@pytest.mark.parametrize("how", ["slash", "click"])
def test_the_index_loads_when_the_search_opens(site, new_context, how):
    """A page load asks for neither the search index (220 kB) nor the search worker
    (assets/javascripts/search-on-demand.js holds them back); opening the search, by its keyboard
    shortcut or a click in the box, asks for both, and the search then finds pages."""
    context = new_context()
    context.add_init_script(ASKED_JS)
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.goto(site.base_url + "masking/")
    # Material has asked for both (held back beneath it); then one request of the page's own, whose
    # answer comes after any request sent before it: the index's or the worker's, had either gone out.
    page.wait_for_function(
        "([index, worker]) => window.__asked.some((u) => u.endsWith(index))"
        " && window.__asked.some((u) => u.includes(worker))",
        arg=[INDEX, WORKER],
    )
    page.evaluate("() => fetch(location.href, {cache: 'no-store'}).then((r) => r.status)")
    asked = [u for u in requests if INDEX in u or WORKER in u]
    assert asked == [], f"the page load asked for {asked} before the search was opened"
    assert page.evaluate("() => document.querySelector('.md-search-result__meta').textContent.trim()") == (
        "Initializing search"
    )
    if how == "slash":
        page.keyboard.press("/")
    else:
        page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").press_sequentially("causal")
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    links.first.wait_for()
    assert [u for u in requests if u == site.base_url + INDEX] == [site.base_url + INDEX]
    assert [u for u in requests if WORKER in u], f"no request for the search worker: {requests}"
    base = urllib.parse.urlsplit(site.base_url).path
    first = urllib.parse.urlsplit(links.first.evaluate("a => a.href")).path.removeprefix(base)
    assert first == FIRST["causal"], f"searching 'causal' after opening the search: first result {first}"


@pytest.mark.browser
def test_a_page_opened_from_a_result_highlights_the_terms(site, new_context):
    """search.highlight: a result's link carries the terms (?h=); the page it opens needs the index's
    settings to mark them, so there the index loads at once."""
    page = new_context().new_page()
    page.goto(site.base_url + "masking/?h=causal")
    marks = page.locator("article mark")
    marks.first.wait_for()
    texts = marks.all_inner_texts()  # a mark in a hidden element has no inner text
    assert {t.lower() for t in texts if t} == {"causal"}, texts
