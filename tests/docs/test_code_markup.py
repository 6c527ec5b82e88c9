"""publish/code_markup.py takes out of highlighted code the spans that look like the code around them
(names, constant keywords, whitespace, string prefixes, magic names), keeps every other span, the
text, and everything outside code; in a page's code blocks, spans of kinds that look alike with only white
space between them become one; a browser test checks the looks (tests/browser/test_code_spans_look.py)."""

from __future__ import annotations

import html
import re

import markdown

from publish.code_markup import LOOK_ALIKE, PLAIN_KINDS, merge_look_alike_spans, unwrap_plain_spans

EXTENSIONS = ["pymdownx.highlight", "pymdownx.inlinehilite", "pymdownx.superfences", "publish.code_markup"]
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
    # Every other span stays, in order (look-alike neighbours joined into the first), and the text
    # (what a reader sees and copies) is the same.
    kept = [s for s in _spans(before) if s not in PLAIN_KINDS]
    assert _spans(after) == _spans(merge_look_alike_spans(unwrap_plain_spans(before)))
    assert len(_spans(after)) < len(kept) and set(_spans(after)) <= set(kept)
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


def _pre(code: str) -> str:
    return f'<div class="highlight"><pre><span></span><code>{code}</code></pre></div>'


def test_look_alike_spans_with_only_white_space_between_them_become_one():
    code = (
        'x <span class="o">=</span> f<span class="p">([</span><span class="mf">1.0</span><span class="p">,</span> '
        '<span class="o">-</span><span class="mf">2.5</span><span class="p">])</span>  '
        '<span class="c1"># a &lt; b</span>\n'
        '<span class="sd">"""one</span>\n<span class="sd">two"""</span> <span class="s2">"a"</span> '
        '<span class="s2">"b"</span><span class="k">in</span> <span class="nb">len</span>'
    )
    merged = merge_look_alike_spans(_pre(code) + '<p><span class="p">,</span> <span class="p">.</span></p>')
    # punctuation, operator, comment and docstring are one colour: one span, across the line break
    expected = _pre(
        'x <span class="o">=</span> f<span class="p">([</span><span class="mf">1.0</span><span class="p">, -</span>'
        '<span class="mf">2.5</span><span class="p">])  # a &lt; b\n"""one\ntwo"""</span> '
        '<span class="s2">"a" "b"</span><span class="k">in</span> <span class="nb">len</span>'
    ).replace("<pre><span></span>", "<pre>")
    assert merged == expected + '<p><span class="p">,</span> <span class="p">.</span></p>'
    assert _text(merged) == _text(_pre(code)) + ", ."


def test_a_run_of_many_look_alike_spans_becomes_one_and_other_kinds_stay_apart():
    run = " ".join(f'<span class="{k}">{k}</span>' for k in LOOK_ALIKE[0])
    assert merge_look_alike_spans(_pre(run)) == _pre(f'<span class="o">{" ".join(LOOK_ALIKE[0])}</span>').replace(
        "<pre><span></span>", "<pre>"
    )
    # One kind of each group side by side: no two of them are joined.
    apart = " ".join(f'<span class="{group[0]}">{group[0]}</span>' for group in LOOK_ALIKE)
    assert merge_look_alike_spans(_pre(apart)) == _pre(apart).replace("<pre><span></span>", "<pre>")
    # A span with markup inside (a highlighted line) is not a token span: nothing joins across it.
    hll = '<span class="p">(</span><span class="hll"><span class="p">)</span></span>'
    assert merge_look_alike_spans(_pre(hll)) == _pre(hll).replace("<pre><span></span>", "<pre>")


def test_the_groups_do_not_overlap_and_hold_no_plain_kind():
    kinds = [k for group in LOOK_ALIKE for k in group]
    assert len(kinds) == len(set(kinds))
    assert not set(kinds) & set(PLAIN_KINDS)
