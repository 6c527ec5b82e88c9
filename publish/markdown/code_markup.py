"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.markdown.code_markup]``): highlighted
code without the markup that changes nothing a reader sees, so that pages are lighter.

Pygments wraps every token of a code block in ``<span class="KIND">``: an article's code is five
times heavier as HTML than as text. Material colours most kinds, but gives a name (``n``, the most
frequent token after punctuation) and a constant keyword (``kc``: True, None) the code's own
colour, and does not style whitespace (``w``), a string's prefix (``sa``: the f of f"...") or a
magic method's name (``fm``: __init__) at all. Such a span looks exactly like the text around it;
this extension leaves its text in place of it (in ``<pre>`` and in inline code alike). What is
copied is the same: Material's copy button copies the block's text, which is unchanged.

A browser test (tests/browser/test_code_spans_look.py) checks against Material's stylesheets, in both
colour schemes, that a span of each of these kinds looks like the code around it, so that a theme
update that starts colouring one of them fails the tests instead of changing the look.
:func:`unwrap_plain_spans` also serves the notebook pages (publish/mkdocs/notebook_pages.py).

A postprocessor, after the stash of fenced blocks is put back, so that it sees their HTML."""

from __future__ import annotations

import re

from publish.markdown.postprocessor import PostprocessorExtension

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


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return PostprocessorExtension(unwrap_plain_spans, "code_markup", 4, **kwargs)
