"""The one reader of a page as it is written (publish.source.pages, publish.source.includes): which
lines are fenced code, which include a file, as MkDocs and pymdownx read them; and the tools that
read pages through it (the numbers audit, the words checks) reading a line as a reader sees it."""

from __future__ import annotations

import pytest

from publish.audit.page import read_page
from publish.audit.wording import prose, shown_code
from publish.source.includes import include, split_target
from publish.source.pages import body_lines

PAGE = """---
title: T
---

# Title

````markdown
```python
## not a heading: inside the four-backtick fence
```
````

~~~
code
~~~
after
"""


def test_body_lines_number_lines_in_the_file_and_close_a_fence_as_commonmark_does():
    lines = body_lines(PAGE)
    assert (lines[0].number, lines[0].text) == (5, "# Title")  # the blank line after the front matter goes with it
    fenced = {ln.text: ln.fenced for ln in lines}
    # the ``` lines inside a ```` fence neither close it nor open another
    assert fenced["## not a heading: inside the four-backtick fence"] is True
    assert [ln.fenced for ln in lines if ln.text in ("````markdown", "````")] == [True, True]
    assert fenced["code"] is True
    assert fenced["after"] is False


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('--8<-- "snippets/a.py"', ("", "snippets/a.py")),
        ('    --8<-- "snippets/a.py:math"', ("    ", "snippets/a.py:math")),
        (';--8<-- "snippets/a.py"', None),  # escaped: shown as typed
        ("--8<--", None),  # a block marker, not an include line
        ("the `--8<--` line includes a file", None),
    ],
)
def test_an_include_line_is_read_as_pymdownx_snippets_reads_it(line, expected):
    assert include(line) == expected


def test_an_include_target_is_split_as_pymdownx_snippets_splits_it():
    assert split_target("snippets/a.py:math") == ("snippets/a.py", "math")
    assert split_target("snippets/a.py") == ("snippets/a.py", None)
    with pytest.raises(ValueError, match="no file"):
        split_target(":math")


def test_the_audit_reads_a_prose_line_that_names_an_include():
    """A line of prose that shows ``--8<--`` in a code span is prose: only an include line is not."""
    page = '# T\n\nIncludes (`--8<--`) cost 3 lines.\n\n--8<-- "docs/generated/x.md"\n'
    assert [ln.number for ln in read_page(page, "t.md").lines] == [1, 2, 3, 4, 6]


def test_the_words_checks_take_a_code_span_of_two_backticks_out_whole():
    """A code span of two backticks, which can show one, is code: none of it is prose."""
    (line,) = [text for _, text, _ in prose("No word holds `` | ` `` or a space.") if text.strip()]
    assert line == "No word holds  or a space."


def test_the_scripts_a_page_shows_are_its_include_lines_only():
    page = 'See `--8<-- "snippets/b.py"`.\n\n```python\n--8<-- "snippets/a.py:script"\n```\n;--8<-- "snippets/c.py"\n'
    assert shown_code(page) == ["snippets/a.py"]
