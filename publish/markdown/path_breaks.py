"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.markdown.path_breaks]``): a long
name in inline code (a file path, a dotted name) breaks between its parts on a narrow screen, not
in the middle of a word.

Material lets inline code break anywhere (``word-break: break-word``) so that it never overflows:
on a phone, ``torch.nn.functional.scaled_dot_product_attention`` broke as ``..._at`` + ``tention``,
and in a table column ``snippets/examples/river_bank_numpy.py`` as ``snippets/examp`` +
``les/river_bank`` (extra.css also keeps code in a table cell from breaking anywhere, so that its
column is as wide as its longest part). This extension gives the browser better places: a ``<wbr>``
(a line-break opportunity that adds no character, so copied and searched text is unchanged)

- in a file path (inline code that holds a ``/``): after each ``/`` and ``_``, in a table cell
  whatever its length, elsewhere when it is long;
- in other long code: after each ``_``, and after each ``.`` that a letter or ``_`` follows (a
  name's dot, not a number's: ``numpy.random.default_rng(seed).normal(0, std)``).

Long is ``LONG`` characters or more: a shorter name fits a phone's line. A part still wider than
its line breaks where Material's rule lets it. A postprocessor, on the page's HTML; code blocks
(``<pre>``, and the other verbatim elements: postprocessor.VERBATIM) and highlighted inline code are
left alone."""

from __future__ import annotations

import re

from publish.markdown.postprocessor import PostprocessorExtension, outside_verbatim

LONG = 20  # characters

_CELL = re.compile(r"(<t[dh]\b[^>]*>)(.*?)(</t[dh]>)", re.S)
# Inline code as Python-Markdown writes it (backticks): text only, HTML-escaped (an entity holds
# no "/", "." or "_", so a <wbr> never lands inside one).
_CODE = re.compile(r"<code>([^<]*)</code>")
_AFTER_PATH = re.compile(r"([/_])(?=.)")
_AFTER_NAME = re.compile(r"(_(?=.)|\.(?=[A-Za-z_]))")


def _code(m: re.Match, in_cell: bool) -> str:
    text = m.group(1)
    if "/" in text and (in_cell or len(text) >= LONG):
        text = _AFTER_PATH.sub(r"\1<wbr>", text)
    elif len(text) >= LONG:
        text = _AFTER_NAME.sub(r"\1<wbr>", text)
    return f"<code>{text}</code>"


def _outside_pre(html: str) -> str:
    def cell(m: re.Match) -> str:
        return m.group(1) + _CODE.sub(lambda c: _code(c, True), m.group(2)) + m.group(3)

    # Table cells first (their code marked as in a cell), then the rest; a cell's code, once
    # marked, holds a "<" and no longer matches _CODE.
    return _CODE.sub(lambda c: _code(c, False), _CELL.sub(cell, html))


def break_paths(html: str) -> str:
    """``html`` with the ``<wbr>`` of the module's docstring in its inline code."""
    return outside_verbatim(html, _outside_pre)


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return PostprocessorExtension(break_paths, "path_breaks", 4, **kwargs)
