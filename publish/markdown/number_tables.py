"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.markdown.number_tables]``): a table of
numbers (every body cell but the row's label a number, as publish/generate/tables.py writes them) gets the
attribute ``data-numbers`` (not a class: Material styles only tables without one, table:not([class])).

Only such tables are left unlaid out while off screen (content-visibility: auto in extra.css; not
those beside a heatmap, whose width places it), with a placeholder of their rows' height: their
rows hold short labels and numbers, one line each at any width (0.8rem and 2.28rem a row). A table of
words (the notation, the cheat sheet, the comparison with an RNN) wraps its rows onto several
lines on a phone, by as much as its text, which no stylesheet can know: such a table is laid out
with the page, so the page is as long at load as it is, and a jump or the End key lands where it
should.
A postprocessor, after the stash of blocks is put back, so that it sees the included tables too."""

from __future__ import annotations

import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

TABLE = re.compile(r"<table((?:\s[^>]*)?)>(.*?)</table>", re.S)  # its attributes, its rows
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
TAG = re.compile(r"<[^>]+>")
NUMBER = re.compile(r"[−+-]?(\d+(\.\d*)?|\.\d+)%?|[−-]?∞|-?inf|")


def is_number_table(body: str) -> bool:
    """Every body cell but the first of its row is a number (or empty)."""
    rows = [CELL.findall(r) for r in ROW.findall(body)]
    rows = [r for r in rows if r]
    return bool(rows) and all(NUMBER.fullmatch(TAG.sub("", c).strip()) for r in rows for c in r[1:])


def _mark(m: re.Match) -> str:
    attributes, body = m.groups()
    return f"<table data-numbers{attributes}>{body}</table>" if is_number_table(body) else m.group(0)


class _NumberTablesPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return TABLE.sub(_mark, text)


class NumberTablesExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 - Python-Markdown's name
        # After publish.markdown.search_exclude (priority 5), which marks the same tables for the search.
        md.postprocessors.register(_NumberTablesPostprocessor(md), "number_tables", 4)


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return NumberTablesExtension(**kwargs)
