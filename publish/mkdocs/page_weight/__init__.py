"""MkDocs hook (publish/mkdocs/hooks/page_weight.py): each built page without what it carries for nothing.

- The indentation of the theme's templates: a run of white space that holds a line break becomes
  one line break (``\\s*\\n\\s*`` → ``\\n``), which a browser renders as the run itself (one space,
  or nothing between blocks), outside the elements where white space is content (``<pre>``,
  ``<code>``, ``<textarea>``, ``<script>``, ``<style>``, MathML's ``<math>``). The navigation alone,
  every page, is a third indentation: 10 kB a page.
- mkdocstrings' stylesheet (``assets/_mkdocstrings.css``, 7 kB), which its plugin links from every
  page, on the pages with no mkdocstrings output (``class="doc doc-...``): all but the API page.
  Instant navigation adds it to the head when the reader goes to the API page (Material brings the
  new page's ``<link>`` elements into the head).

A hook and not a Markdown extension: both are in the theme's part of the page (and the stylesheet is
an MkDocs plugin's); a build without the hook (Zensical) is heavier, not different.
"""

from __future__ import annotations

import re

# Elements whose white space is content, each kept whole (the non-greedy match ends at its first
# closing tag: none of them nests in itself).
_KEEP = re.compile(r"<(pre|code|textarea|script|style|math)\b.*?</\1\s*>", re.S | re.I)
_INDENT = re.compile(r"[ \t\r\f]*\n\s*")
_MKDOCSTRINGS_CSS = re.compile(r'[ \t]*<link rel="stylesheet" href="[^"]*assets/_mkdocstrings\.css">\n?')


def collapse_indentation(html: str) -> str:
    """``html`` with each run of white space that holds a line break, outside ``_KEEP``'s elements,
    made one line break."""
    out, last = [], 0
    for m in _KEEP.finditer(html):
        out.append(_INDENT.sub("\n", html[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(_INDENT.sub("\n", html[last:]))
    return "".join(out)


def without_unused_mkdocstrings_css(html: str) -> str:
    """``html`` without the link to mkdocstrings' stylesheet when it has no mkdocstrings output."""
    if 'class="doc doc-' in html:
        return html
    return _MKDOCSTRINGS_CSS.sub("", html)


def lighter(html: str) -> str:
    return collapse_indentation(without_unused_mkdocstrings_css(html))


def on_post_page(output: str, page, config) -> str:
    return lighter(output)
