"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.path_breaks]``): a file
path in a table breaks between its parts on a narrow screen, not in the middle of a name.

Material lets inline code break anywhere (``word-break: break-word``) so that it never overflows;
in a table column as narrow as a phone leaves, ``snippets/examples/river_bank_numpy.py`` then
breaks as ``snippets/examp`` + ``les/river_bank`` + ``_numpy.py``. This extension gives the
browser better places: a ``<wbr>`` (a line-break opportunity that adds no character, so copied
text is unchanged) after each ``/`` and ``_`` of inline code that holds a ``/``, in table cells.
Material's rule still breaks a part that is wider than the column by itself.

A postprocessor, on the page's HTML (the tables are HTML by then)."""

from __future__ import annotations

import re

from publish.markdown_post import PostprocessorExtension

_CELL = re.compile(r"(<t[dh]\b[^>]*>)(.*?)(</t[dh]>)", re.S)
# Inline code as Python-Markdown writes it (backticks): text only, HTML-escaped (an entity holds
# no "/" or "_", so a <wbr> never lands inside one).
_CODE = re.compile(r"<code>([^<]*/[^<]*)</code>")
_AFTER = re.compile(r"([/_])(?=.)")


def break_paths(html: str) -> str:
    """``html`` with a ``<wbr>`` after each ``/`` and ``_`` (but a last one) of the inline code in
    its table cells whose text holds a ``/``."""

    def cell(m: re.Match) -> str:
        body = _CODE.sub(lambda c: "<code>" + _AFTER.sub(r"\1<wbr>", c.group(1)) + "</code>", m.group(2))
        return m.group(1) + body + m.group(3)

    return _CELL.sub(cell, html)


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return PostprocessorExtension(break_paths, "path_breaks", 4, **kwargs)
