"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.code_markup]``): highlighted
code without the markup that changes nothing a reader sees, so that pages are lighter.

Pygments wraps every token of a code block in ``<span class="KIND">``: an article's code is five
times heavier as HTML than as text. Material colours most kinds, but gives a name (``n``, the most
frequent token after punctuation) and a constant keyword (``kc``: True, None) the code's own
colour, and does not style whitespace (``w``), a string's prefix (``sa``: the f of f"...") or a
magic method's name (``fm``: __init__) at all. Such a span looks exactly like the text around it;
this extension leaves its text in place of it (in ``<pre>`` and in inline code alike). What is
copied is the same: Material's copy button copies the block's text, which is unchanged.

Then, in the pages (not the notebooks, which :func:`unwrap_plain_spans` alone serves), two spans
that look alike with only white space between them become one (:func:`merge_look_alike_spans`):
Material gives punctuation, operators, comments, docstrings and a few more kinds one colour
(``LOOK_ALIKE``), so ``<span class="p">,</span> <span class="o">-</span>`` reads exactly as
``<span class="p">, -</span>``; a space or a line break shows no colour. Each span is an element
that the browser styles and lays out again each time Material's bundle forces a layout as the
page loads: this takes a sixth of the spans out of a page's code (760 of 4,810 on Common
mistakes), and the empty ``<span></span>`` that Pygments puts at the start of every block.

A browser test (tests/browser/test_code_spans_look.py) checks against Material's stylesheets, in both
colour schemes, that a span of each of these kinds looks like the code around it, and that the kinds
of each group of ``LOOK_ALIKE`` look the same, so that a theme update that colours one of them
apart fails the tests instead of changing the look.
:func:`unwrap_plain_spans` also serves the notebook pages (publish/notebook_hooks.py).

A postprocessor, after the stash of fenced blocks is put back, so that it sees their HTML."""

from __future__ import annotations

import re

from publish.markdown_post import PostprocessorExtension

# Pygments' short class names of the token kinds that Material does not set apart from the code.
PLAIN_KINDS = ("n", "kc", "w", "sa", "fm")

# A span of one of these kinds (a token's span holds only its text).
_PLAIN_SPAN = re.compile(r'<span class="(?:' + "|".join(PLAIN_KINDS) + r')">([^<]*)</span>')
# A block of highlighted code: Material's <div class="highlight"> (pymdownx.highlight, notebook
# cells) or inline code highlighted by pymdownx.inlinehilite (<code class="highlight">).
_CODE = re.compile(r"<pre\b[^>]*>.*?</pre>|<code class=\"highlight\">.*?</code>", re.S)


def unwrap_plain_spans(html: str) -> str:
    """``html`` with every span of a plain kind (``PLAIN_KINDS``) inside highlighted code replaced by
    its text; markup outside ``<pre>`` and highlighted inline code is left as it is."""
    return _CODE.sub(lambda m: _PLAIN_SPAN.sub(r"\1", m.group(0)), html)


# Kinds that Material colours alike in both schemes (one rule, or rules whose colours are the same
# custom property's value), from its stylesheet's ``.highlight`` rules; extra.css sets the first
# group's five colours to one value on the light scheme.
LOOK_ALIKE = (
    # --md-default-fg-color--light: operators, punctuation, comments, generic output, variables
    ("o", "ow", "p", "c", "c1", "ch", "cm", "cs", "sd", "ge", "gh", "go", "gp", "gr", "gs", "gt", "gu",
     "na", "nv", "vc", "vg", "vi"),
    ("cpf", "l", "s", "s1", "s2", "sb", "sc", "si", "ss"),  # strings
    ("il", "m", "mb", "mf", "mh", "mi", "mo"),  # numbers
    ("k", "kd", "kn", "kp", "kr", "kt", "nd", "ni", "nl", "nt"),  # keywords
    ("bp", "nb", "no"),  # built-in constants
    ("nc", "ne", "nf", "nn"),  # functions, classes, modules
    ("cp", "se", "sh", "sr", "sx"),  # special
)  # fmt: skip
_GROUP = {kind: n for n, group in enumerate(LOOK_ALIKE) for kind in group}
# Two token spans (each holds only its text) with nothing but white space between them.
_PAIR = re.compile(r'<span class="([a-z0-9]+)">([^<]*)</span>([ \t\n]*)<span class="([a-z0-9]+)">([^<]*)</span>')
_PRE = re.compile(r"<pre\b[^>]*>.*?</pre>", re.S)


def _merge_pair(m: re.Match) -> str:
    first, text, space, second, more = m.groups()
    if _GROUP.get(first, -1) != _GROUP.get(second, -2):
        return m.group(0)
    return f'<span class="{first}">{text}{space}{more}</span>'


def merge_look_alike_spans(html: str) -> str:
    """``html`` with, in each ``<pre>``, runs of token spans of one group of ``LOOK_ALIKE`` separated
    only by white space joined into one span (the first one's class), and Pygments' empty leading
    ``<span></span>`` left out; the text is unchanged, and so is everything outside ``<pre>``."""

    def block(m: re.Match) -> str:
        code = m.group(0).replace("<span></span>", "")
        while True:  # a match consumes two spans: join again until no pair is left
            joined = _PAIR.sub(_merge_pair, code)
            if joined == code:
                return code
            code = joined

    return _PRE.sub(block, html)


def lighter_code(html: str) -> str:
    """What the extension does to a page: :func:`unwrap_plain_spans`, then :func:`merge_look_alike_spans`."""
    return merge_look_alike_spans(unwrap_plain_spans(html))


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return PostprocessorExtension(lighter_code, "code_markup", 4, **kwargs)
