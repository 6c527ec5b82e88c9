"""MkDocs hook (publish/mkdocs/hooks/page_weight.py): each built page without what it carries for nothing.

- The indentation of the theme's templates: a run of white space that holds a line break becomes
  one line break (``\\s*\\n\\s*`` → ``\\n``), which a browser renders as the run itself (one space,
  or nothing between blocks), outside the elements where white space is content (``KEEP``:
  ``<pre>``, ``<code>``, ``<textarea>``, ``<script>``, ``<style>``, MathML's ``<math>``). The navigation alone,
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

from mkdocs.exceptions import PluginError

from publish.markdown.postprocessor import VERBATIM, outside_verbatim


class ThemeChanged(PluginError):
    """What a cut assumes of Material's or KaTeX's files or markup no longer holds (a new release):
    the build stops with an error naming the assumption and where it is written, instead of
    shipping a site the cut silently left heavier or broke. tests/tools/test_theme_assumptions.py
    checks each assumption against the installed Material and the vendored KaTeX."""

    def __init__(self, what: str, where: str):
        super().__init__(f"{what} (the assumption is in {where}; see tests/tools/test_theme_assumptions.py)")


# Where white space is content: the verbatim elements, and inline code (its spaces are the code's).
KEEP = (*VERBATIM, "code")

_INDENT = re.compile(r"[ \t\r\f]*\n\s*")
_MKDOCSTRINGS_CSS = re.compile(r'[ \t]*<link rel="stylesheet" href="[^"]*assets/_mkdocstrings\.css">\n?')


def collapse_indentation(html: str) -> str:
    """``html`` with each run of white space that holds a line break, outside the verbatim elements
    (:data:`publish.markdown.postprocessor.VERBATIM`) and inline ``<code>``, made one line break."""
    return outside_verbatim(html, lambda part: _INDENT.sub("\n", part), KEEP)


def without_unused_mkdocstrings_css(html: str) -> str:
    """``html`` without the link to mkdocstrings' stylesheet when it has no mkdocstrings output."""
    if 'class="doc doc-' in html:
        return html
    return _MKDOCSTRINGS_CSS.sub("", html)


def lighter(html: str) -> str:
    return collapse_indentation(without_unused_mkdocstrings_css(html))


def on_post_page(output: str, page, config) -> str:
    return lighter(output)
