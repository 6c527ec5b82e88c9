"""Search finds the page that explains a term first, in Chromium, with Material's own search:
type into the search box of the built site and read the first result.

The index leaves out what nobody searches for: code outputs and tables of numbers
(publish/search_exclude.py), heatmaps (publish/figures.py), the exercises, whose hidden solutions
would show in results (publish/exercises.py). The API reference ranks below the pages that explain
(docs/api.md, ``search: boost: 0.2``); Masking ranks above the pages that mention "causal" and
"padding" in passing (docs/masking.md, ``boost: 1.2``), and the first article, which introduces
the softmax in its heading "Step 2: normalize with softmax, row by row", above Masking and the
other pages with the softmax in a heading (docs/real-numbers.md, ``boost: 1.5``). A title match
counts a thousand times a match in the text (Material's search), so a boost decides between pages
whose headings name the term. Without Masking's boost "causal" finds another page first; with
1.5 it outranked the first article for "softmax"."""

from __future__ import annotations

import json
import urllib.parse

import pytest

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


def _first_results(site, new_context, term: str) -> list[str]:
    page = new_context().new_page()
    page.goto(site.base_url)
    page.keyboard.press("/")
    page.locator("input.md-search__input").press_sequentially(term)
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    links.first.wait_for()
    hrefs = links.evaluate_all("els => els.slice(0, 3).map(e => e.href)")
    base = urllib.parse.urlsplit(site.base_url).path
    return [urllib.parse.urlsplit(h).path.removeprefix(base) for h in hrefs]


@pytest.mark.browser
@pytest.mark.parametrize("term", sorted(FIRST))
def test_search_finds_the_explaining_page_first(site, new_context, term):
    results = _first_results(site, new_context, term)
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
    # What every page downloads (was 273 kB before outputs, tables and exercises left it)
    assert len(json.dumps(index, ensure_ascii=False).encode()) < 240_000
