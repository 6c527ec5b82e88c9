"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: [publish.markdown.search_exclude]``): the
recorded output under a code block (a fence titled "Output") and the tables of numbers (those
publish/generate/tables.py generates: every cell but the row's label a number) stay out of the search index.

They are columns of numbers, which nobody types into a search box; outputs alone were a tenth of
the index that every page downloads. The code above each output stays searchable (function names),
once: not a PyTorch script whose NumPy twin is on the same page, in the tab beside it, nor a whole
script folded under its own math section.
Material's search skips an element carrying ``data-search-exclude`` and its content, and removes
the attribute from the page afterwards. The mark goes on the ``<pre>``: Material (9.8) ends an
exclusion at the first closing tag of the same name, and an output's ``<pre>`` holds no other.
A postprocessor, after the stash of fenced blocks is put back, so that it sees their HTML."""

from __future__ import annotations

import re

from markdown import Extension
from markdown.postprocessors import Postprocessor

from publish.markdown.number_tables import TABLE, is_number_table

OUTPUT = re.compile(r'(<span class="filename">Output</span>\s*<pre)(?=[\s>])')


def _mark_table(m: re.Match) -> str:
    attributes, body = m.groups()
    if not is_number_table(body):
        return m.group(0)
    return f'<table data-search-exclude="numbers"{attributes}>{body}</table>'


# A code block's title, and the <pre> after it (where the mark goes).
CODE = re.compile(r'(<span class="filename">([^<]*)</span>\s*<pre)(?=[\s>])')
MATH = ": the math"  # the title of a script's math section, shown above the whole script (folded)


def _script(title: str) -> tuple[str, bool]:
    """(the file a code block shows, whether it is only the file's math section)."""
    return (title[: -len(MATH)], True) if title.endswith(MATH) else (title, False)


def _mark_code(text: str) -> str:
    """Code that the page shows twice stays in the index once:
    - a PyTorch script whose NumPy twin is on the same page (the same names and steps, in the tab
      beside it): the NumPy version stays; a script with no twin (a training run) stays too;
    - a whole script whose math section is shown above it: the math stays, the folded whole script
      (the same lines and the printing) is left out."""
    shown = [_script(title) for _, title in CODE.findall(text)]
    numpy = {name for name, _ in shown if name.endswith("_numpy.py")}
    with_math = {name for name, math in shown if math}

    def mark(m: re.Match) -> str:
        name, math = _script(m.group(2))
        if name.endswith("_torch.py") and name.removesuffix("_torch.py") + "_numpy.py" in numpy:
            return m.group(1) + ' data-search-exclude="twin"'
        if not math and name in with_math:
            return m.group(1) + ' data-search-exclude="whole script"'
        return m.group(0)

    return CODE.sub(mark, text)


class _OutputPostprocessor(Postprocessor):
    def run(self, text: str) -> str:
        return _mark_code(TABLE.sub(_mark_table, OUTPUT.sub(r'\1 data-search-exclude="output"', text)))


class SearchExcludeExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 - Python-Markdown's name
        md.postprocessors.register(_OutputPostprocessor(md), "search_exclude_output", 5)


def makeExtension(**kwargs):  # noqa: N802 - Python-Markdown's entry point
    return SearchExcludeExtension(**kwargs)
