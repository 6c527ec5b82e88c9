"""The spans that publish/markdown/code_markup.py takes out of highlighted code look, under Material's
stylesheets, exactly like the code around them, in both colour schemes; a span of a kind it keeps
does not (so the check can fail). And no page of the built site has one left in its code."""

from __future__ import annotations

import re

import pytest

from publish.markdown.code_markup import PLAIN_KINDS

pytestmark = pytest.mark.browser

PROPERTIES = ("color", "background-color", "font-family", "font-size", "font-style", "font-weight",
              "text-decoration-line", "letter-spacing", "padding", "margin", "border", "display")  # fmt: skip

LOOKS_JS = """([kinds, properties]) => {
  const code = document.querySelector('.highlight pre > code');
  const look = (cls) => {
    const span = document.createElement('span');
    if (cls) span.className = cls;
    span.textContent = 'x';
    code.appendChild(span);
    const style = getComputedStyle(span);
    const out = Object.fromEntries(properties.map((p) => [p, style.getPropertyValue(p)]));
    span.remove();
    return out;
  };
  return { plain: look(''), kinds: Object.fromEntries(kinds.map((k) => [k, look(k)])) };
}"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_the_spans_taken_out_look_like_the_code_around_them(site, page, scheme):
    page.goto(site.base_url + "masking/")
    page.evaluate("(s) => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    page.add_style_tag(content="* { transition: none !important; }")
    control = ("s2", "p", "k")  # a string, punctuation, a keyword: coloured by Material
    looks = page.evaluate(LOOKS_JS, [[*PLAIN_KINDS, *control], list(PROPERTIES)])
    for kind in PLAIN_KINDS:
        assert looks["kinds"][kind] == looks["plain"], f"[{scheme}] a span of class {kind!r} looks different"
    for kind in control:
        assert looks["kinds"][kind]["color"] != looks["plain"]["color"], f"[{scheme}] {kind!r} is not coloured"


def test_no_page_keeps_a_plain_span_in_its_code(site):
    plain = re.compile(r'<span class="(?:' + "|".join(PLAIN_KINDS) + r')">')
    code = re.compile(r"<pre\b[^>]*>.*?</pre>", re.S)
    left, pages_with_code = {}, 0
    for html in site.html_files():
        blocks = code.findall(html.read_text(encoding="utf-8"))
        pages_with_code += any('class="highlight"' in b or "<span class=" in b for b in blocks)
        found = sum(len(plain.findall(b)) for b in blocks)
        if found:
            left[html.relative_to(site.dir).as_posix()] = found
    assert pages_with_code > 10, pages_with_code
    assert not left, f"plain spans left in code blocks: {left}"
