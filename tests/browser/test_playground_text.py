"""The playground refuses, in Chromium, exactly the words the spec check refuses as tokens.

Chromium's Unicode (its ICU) is newer than Python's 14.0: it assigns code points that Python
does not, so a check written with the browser's own \\p{...} classes would accept what a spec
refuses. state.js checks against the code points the publishing tools list in limits.js from
Python's Unicode (publish/generate/playground_limits.py); these tests compare its verdicts with
rules.token_problem on every class of tests/support/text_strategies.py, for a typed word (nameError) and
for a word from a link (decodeLink of a #s= state), many strings per page.evaluate on one page.
"""

from __future__ import annotations

import base64
import json

import pytest
import text_strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import expect

from selfattn_ref.examples.rules import token_problem

pytestmark = pytest.mark.browser

# In the page: the verdict of nameError and of a link, for names given as lists of code points
# (Playwright's JSON cannot carry a lone surrogate; String.fromCodePoint makes one).
VERDICTS_JS = """async ({names, links}) => {
  const m = await import(new URL("../assets/playground/state.js", location.href).href);
  const words = names.map((cps) => String.fromCodePoint(...cps));
  return {
    typed: words.map((w) => m.nameError(w) === null),
    linked: links.map((hash) => m.decodeLink(hash, "", {presets: []}).error),
  };
}"""


def state_link(word: str) -> str:
    """The #s= link of a one-word state named ``word``, its JSON in ASCII (a lone surrogate as \\\\uXXXX)."""
    state = {"v": 1, "words": [word], "X": [[1, 0]], "scale": False, "causal": False, "projections": "none",
             "decimals": 3}  # fmt: skip
    raw = json.dumps(state, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return "#s=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.fixture(scope="module")
def playground(module_context, site):
    """One page on the playground, for the whole module."""
    page = module_context().new_page()
    page.goto(site.base_url + "playground/")
    page.wait_for_selector("#playground[data-state=ready]")
    return page


def as_browser_holds(name: str) -> str:
    """A Python string as a browser's string holds it: JavaScript's strings are UTF-16, so a high
    surrogate followed by a low one is one character there ("\\ud800\\udc00" is U+10000), where Python
    keeps two lone surrogates; a lone one stays lone."""
    return name.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def verdicts(page, names: list[str]) -> tuple[list[bool], list[bool], list[bool]]:
    """(Python's verdict, the typed word's, the link's) for each name: True where it is accepted."""
    names = [as_browser_holds(n) for n in names]
    got = page.evaluate(
        VERDICTS_JS, {"names": [[ord(c) for c in n] for n in names], "links": [state_link(n) for n in names]}
    )
    python = [token_problem(n) is None for n in names]
    return python, got["typed"], [error is None for error in got["linked"]]


def assert_same(names, python, typed, linked):
    names = [as_browser_holds(n) for n in names]
    differ = [(ascii(n), p, t, k) for n, p, t, k in zip(names, python, typed, linked, strict=True) if not p == t == k]
    assert not differ, differ[:10]


def test_the_playground_refuses_the_words_the_spec_check_refuses(playground):
    # "a\ud800\udc00": two lone surrogates to Python, one character (U+10000) in a browser's UTF-16.
    names = text_strategies.sample_names(
        ["bank", "river", "e\u0301" * 24, "e\u0301" * 25, "66.5%", "", "a\ud800\udc00"]
    )
    python, typed, linked = verdicts(playground, names)
    assert_same(names, python, typed, linked)
    assert 50 < sum(python) < len(names) - 300  # both verdicts, in numbers


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(text_strategies.any_text, min_size=40, max_size=40))
def test_property_typed_and_linked_words_get_the_spec_checks_verdict(playground, names):
    assert_same(names, *verdicts(playground, names))


def test_a_refused_word_is_named_where_it_is_typed_and_in_a_link(playground, site):
    page = playground
    page.fill("#pg-name-1", "of\u3164")  # a Hangul filler, which shows as nothing
    expect(page.locator("#pg-name-1")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#pg-name-1-error")).to_contain_text("A name may not hold U+3164: it shows as nothing")
    # One word typed two ways (é as one character, and as e and an accent): the same in NFC, so the
    # tables would label both alike. Refused as the spec refuses such tokens, naming both.
    page.fill("#pg-name-1", "of")
    page.fill("#pg-name-0", "b\u00e9")
    page.fill("#pg-name-2", "be\u0301")
    expect(page.locator("#pg-name-2")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#pg-name-2-error")).to_contain_text(
        "Word 1 and word 3 are one word typed two ways (as U+0062 U+00E9 and as U+0062 U+0065 U+0301, which "
        "Unicode's NFC makes one): type it the same way both times, or make it another word."
    )
    expect(page.locator("#pg-name-0")).not_to_have_attribute("aria-invalid", "true")
    page.fill("#pg-name-2", "b\u00e9")  # typed the same way: a word that comes back, told apart by position
    expect(page.locator("#pg-words-errors li")).to_have_count(0)
    expect(page.locator("#pg-weights thead th")).to_have_text(["query ↓ key →", "bé₁", "of", "bé₃"])
    page.goto("about:blank")
    page.goto(site.base_url + "playground/" + state_link("a\ud800"))  # a lone surrogate, from a link
    page.wait_for_selector("#playground[data-state=ready]")
    notice = page.locator("#pg-notice")
    # What it is, as rules.py says it: not "it shows as nothing" nor "unassigned".
    expect(notice).to_contain_text(
        "This link could not be opened: word 1: a name may not hold U+D800: a lone surrogate, half of a character "
        "and not text"
    )
