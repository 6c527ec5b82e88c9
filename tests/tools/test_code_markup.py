"""publish/markdown/code_markup.py takes out of highlighted code the spans that look like the code around them
(names, constant keywords, whitespace, string prefixes, magic names), keeps every other span, the
text, and everything outside code; a browser test checks the look (tests/browser/test_code_spans_look.py)."""

from __future__ import annotations

import html
import re

import markdown

from publish.markdown.code_markup import PLAIN_KINDS, unwrap_plain_spans

EXTENSIONS = ["pymdownx.highlight", "pymdownx.inlinehilite", "pymdownx.superfences", "publish.markdown.code_markup"]
CODE = 'import numpy as np\n\nx = np.array([1.0, -2.5])  # a < b & c\nprint(f"{x!r}", True, None)\n'
MARKDOWN = f"Text with `#!python x = None` inline.\n\n```python\n{CODE}```\n"


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _spans(fragment: str) -> list[str]:
    return re.findall(r'<span class="([^"]*)">', fragment)


def test_plain_spans_go_and_the_code_reads_the_same():
    before = markdown.markdown(MARKDOWN, extensions=EXTENSIONS[:-1])
    after = markdown.markdown(MARKDOWN, extensions=EXTENSIONS)
    # Pygments did write each plain kind here: the test sees them go.
    assert {"n", "kc", "w", "sa"} <= set(_spans(before)), _spans(before)
    assert not set(_spans(after)) & set(PLAIN_KINDS), _spans(after)
    # Every other span stays, in order, and the text (what a reader sees and copies) is the same.
    assert _spans(after) == [s for s in _spans(before) if s not in PLAIN_KINDS]
    assert _text(after) == _text(before)
    assert CODE.rstrip("\n") in _text(after)
    assert len(after) < len(before) * 0.85, (len(before), len(after))
    # The escaped characters stay escaped.
    assert "&lt; b &amp; c" in after


def test_only_highlighted_code_is_touched():
    page = (
        '<p><span class="n">a note</span></p>\n'
        '<div class="highlight"><pre><span></span><code><span class="n">x</span><span class="w"> </span>'
        '<span class="o">=</span> <span class="hll"><span class="n">y</span></span></code></pre></div>\n'
        '<code class="highlight"><span class="kc">None</span></code> <code><span class="n">z</span></code>'
    )
    assert unwrap_plain_spans(page) == (
        '<p><span class="n">a note</span></p>\n'
        '<div class="highlight"><pre><span></span><code>x <span class="o">=</span> <span class="hll">y</span>'
        "</code></pre></div>\n"
        '<code class="highlight">None</code> <code><span class="n">z</span></code>'
    )
