"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.search_exclude]``): the
recorded output under a code block (a fence titled "Output") and the tables of numbers (those
publish/tables.py generates: every cell but the row's label a number) stay out of the search index.

They are columns of numbers, which nobody types into a search box; outputs alone were a tenth of
the index that every page downloads. The code above each output stays searchable (function names),
but for a PyTorch script whose NumPy twin is on the same page, in the tab beside it.
Material's search skips an element carrying ``data-search-exclude`` and its content, and removes
the attribute from the page afterwards. The mark goes on the ``<pre>``: Material (9.8) ends an
exclusion at the first closing tag of the same name, and an output's ``<pre>`` holds no other.
A postprocessor, after the stash of fenced blocks is put back, so that it sees their HTML."""

from __future__ import annotations

import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

OUTPUT = re.compile(r'(<span class="filename">Output</span>\s*<pre)(?=[\s>])')


TABLE = re.compile(r"<table>(.*?)</table>", re.S)
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)
TAG = re.compile(r"<[^>]+>")
NUMBER = re.compile(r"[−+-]?(\d+(\.\d*)?|\.\d+)%?|[−-]?∞|-?inf|")


def is_number_table(body: str) -> bool:
    """Every body cell but the first of its row is a number (or empty)."""
    rows = [CELL.findall(r) for r in ROW.findall(body)]
    rows = [r for r in rows if r]
    return bool(rows) and all(NUMBER.fullmatch(TAG.sub("", c).strip()) for r in rows for c in r[1:])


def _mark_table(m: re.Match) -> str:
    return f'<table data-search-exclude="numbers">{m.group(1)}</table>' if is_number_table(m.group(1)) else m.group(0)


# A PyTorch script whose NumPy twin is on the same page: the same names and steps, in the tab beside
# it. The NumPy version stays in the index; a script with no twin (a training run) stays too.
TWIN = re.compile(r'(<span class="filename">([\w.-]+)_torch\.py</span>\s*<pre)(?=[\s>])')


def _mark_twins(text: str) -> str:
    numpy = set(re.findall(r'<span class="filename">([\w.-]+)_numpy\.py</span>', text))
    return TWIN.sub(lambda m: m.group(1) + ' data-search-exclude="twin"' if m.group(2) in numpy else m.group(0), text)


class _OutputPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return _mark_twins(TABLE.sub(_mark_table, OUTPUT.sub(r'\1 data-search-exclude="output"', text)))


class SearchExcludeExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 - Python-Markdown's name
        md.postprocessors.register(_OutputPostprocessor(md), "search_exclude_output", 5)


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return SearchExcludeExtension(**kwargs)
