"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.markdown.html_comments]``): the HTML
comments of the Markdown sources stay out of the built pages.

They are notes for whoever edits the Markdown: the banner of each generated fragment (``<!-- Generated
by publish.generate.tables:example_files (make update); do not edit. -->``), pytest-codeblocks' markers
(``<!--pytest-codeblocks:expected-output-->``), the numbers audit's ``<!-- audit source: ... -->``.
A reader never sees them, yet every page carried them (1.2 kB on the first article).

Python-Markdown keeps a comment as raw HTML and puts it back after the fenced blocks (its
``raw_html`` postprocessor, priority 30); this postprocessor runs after that and removes each comment,
with the line break after it when the comment stood on its own line. Code is not touched: a ``<!--``
that a code block or inline code shows was escaped (``&lt;!--``) long before."""

from __future__ import annotations

import re

from publish.markdown.postprocessor import PostprocessorExtension

_COMMENT = re.compile(r"<!--.*?-->(?:\n(?=\n|<))?", re.S)
# What a comment may not be found in: a <pre> block or a <script>, <style> or <textarea> element,
# whose text is not markup (a "<!--" there is their text).
_VERBATIM = re.compile(r"<(pre|script|style|textarea)\b.*?</\1>", re.S | re.I)


def strip_comments(html: str) -> str:
    """``html`` without its comments, outside <pre>, <script>, <style> and <textarea>."""
    out, last = [], 0
    for m in _VERBATIM.finditer(html):
        out += [_COMMENT.sub("", html[last : m.start()]), m.group(0)]
        last = m.end()
    out.append(_COMMENT.sub("", html[last:]))
    return "".join(out)


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return PostprocessorExtension(strip_comments, "html_comments", 3, **kwargs)
