"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.markdown.number_tables]``): a table of
numbers (every body cell but the row's label a number, as publish/generate/tables.py writes them) gets the
attribute ``data-numbers``, and a table of entries the attribute ``data-entries`` (attributes, not
classes: Material styles only tables without one, table:not([class])).

A table of numbers whose every cell is one word (its headings and row labels too: no space but a
no-break one, or the corner that names the axes, "query ↓ key →", which extra.css holds on one line)
also gets ``data-one-line``: each of its rows is one line at any width (0.8rem and
2.28rem a row), so its height is known before it is laid out, and only such a table is left unlaid
out while off screen (content-visibility: auto in extra.css; not one beside a heatmap, whose width
places it), with a placeholder of its rows' height. A table whose headings or labels have words
("mean weight on the partner", "h3 (The cat sat)", "pre-norm out"), like a table of words (the
notation, the comparison with an RNN), wraps its rows onto more lines when a phone's column
squeezes it, by as much as no stylesheet can know (the placeholder was 20 to 82 px short for 11
tables at 375 px, and the page moved when they were shown): such a table is laid out with the page,
so the page is as long at load as it is, and a jump or the End key lands where it should.

A table of entries is a table of words whose rows are entries named by their first cell, with two or
more things said of each (the notation's symbols, the cheat sheet's pages, the gallery's examples):
three or more columns, a first column with a heading (a grid of words, whose corner is empty, is not
one), and fewer numbers than words among its cells (the RNN page's costs are numbers, with two columns
of labels). On a phone such a table is too wide to show its columns side by side, so extra.css lists
its rows there, one under another, each cell under the name of its column: every cell gets that
name, ``data-label``.
A postprocessor, after the stash of blocks is put back, so that it sees the included tables too."""

from __future__ import annotations

import html
import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

TABLE = re.compile(r"<table((?:\s[^>]*)?)>(.*?)</table>", re.S)  # its attributes, its rows
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
TAG = re.compile(r"<[^>]+>")
NUMBER = re.compile(r"[−+-]?(\d+(\.\d*)?|\.\d+)%?|[−-]?∞|-?inf|")
HEAD = re.compile(r"<th[^>]*>(.*?)</th>", re.S)
OPEN_CELL = re.compile(r"<td(?=[\s>])")
# KaTeX's MathML copy of a formula (its TeX in an annotation), read by screen readers and not shown.
MATHML = re.compile(r'<span class="katex-mathml">.*?</math></span>', re.S)
# A number as a table of words may write one: with thousands separators, a ratio.
AMOUNT = re.compile(r"[−+-]?\d{1,3}(,\d{3})*(\.\d+)?%?|[−+-]?\d+(\.\d+)?%?")
# Where a line may break: a space of any kind but the no-break ones.
BREAK = re.compile(r"[^\S\u00a0\u2007\u202f]")


def is_number_table(body: str) -> bool:
    """Every body cell but the first of its row is a number (or empty)."""
    rows = [CELL.findall(r) for r in ROW.findall(body)]
    rows = [r for r in rows if r]
    return bool(rows) and all(NUMBER.fullmatch(TAG.sub("", c).strip()) for r in rows for c in r[1:])


def _text(cell: str) -> str:
    """A cell's text as a reader sees it (a formula's shown text, not its MathML copy)."""
    return html.unescape(TAG.sub("", MATHML.sub("", cell))).strip()


def headings(body: str) -> list[str]:
    """The text of each heading cell of a table's first row."""
    rows = ROW.findall(body)
    return [_text(c) for c in HEAD.findall(rows[0])] if rows else []


def is_entries_table(body: str) -> bool:
    """A table of words with three or more columns whose first column has a heading, and fewer
    numbers than words among its body cells."""
    heads = headings(body)
    if len(heads) < 3 or not heads[0] or is_number_table(body):
        return False
    cells = [_text(c) for r in ROW.findall(body) for c in CELL.findall(r)]
    return 2 * sum(bool(AMOUNT.fullmatch(c)) for c in cells) < len(cells)


# The corner of a grid that names its two axes ("query ↓ key →", publish/generate/tables.py): held on one
# line in a table of one line a row (extra.css), so it counts as one word.
AXES = re.compile(r"\S+ ↓ \S+ →")


def is_one_line(body: str) -> bool:
    """Every cell of the table, headings and labels too, is one word (or the corner that names the
    axes): a row cannot wrap."""
    cells = [_text(c) for r in ROW.findall(body) for c in HEAD.findall(r) + CELL.findall(r)]
    if cells and AXES.fullmatch(cells[0]):
        cells = cells[1:]
    return not any(BREAK.search(c) for c in cells)


def _label(body: str) -> str:
    """Each body cell with its column's heading, data-label."""
    names = [html.escape(name, quote=True) for name in headings(body)]

    def row(m: re.Match) -> str:
        cells = iter(names)
        return OPEN_CELL.sub(lambda _: f'<td data-label="{next(cells, "")}"', m.group(0))

    return ROW.sub(row, body)


def _mark(m: re.Match) -> str:
    attributes, body = m.groups()
    if is_number_table(body):
        one_line = " data-one-line" if is_one_line(body) else ""
        return f"<table data-numbers{one_line}{attributes}>{body}</table>"
    if is_entries_table(body):
        return f"<table data-entries{attributes}>{_label(body)}</table>"
    return m.group(0)


class _NumberTablesPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return TABLE.sub(_mark, text)


class NumberTablesExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 - Python-Markdown's name
        # After publish.markdown.search_exclude (priority 5), which marks the same tables for the search.
        md.postprocessors.register(_NumberTablesPostprocessor(md), "number_tables", 4)


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return NumberTablesExtension(**kwargs)
