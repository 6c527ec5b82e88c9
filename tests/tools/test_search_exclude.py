"""publish/markdown/search_exclude.py marks code outputs and tables of numbers for Material's search to skip,
and nothing else."""

import re

import markdown

from publish.markdown.number_tables import is_number_table

EXTENSIONS = ["tables", "pymdownx.superfences", "publish.markdown.search_exclude"]


def _html(text: str) -> str:
    return markdown.markdown(text, extensions=EXTENSIONS)


def test_an_output_block_is_marked_and_the_code_above_it_is_not():
    html = _html('```python\nprint(1)\n```\n\n```text title="Output"\n1\n```\n')
    assert html.count("data-search-exclude") == 1
    assert '<span class="filename">Output</span><pre data-search-exclude="output">' in html


def test_a_table_of_numbers_is_marked_and_a_table_of_words_is_not():
    numbers = _html("| | a | b |\n|---|---:|---:|\n| **x** | 0.25 | -1 |\n| **y** | −0.5 | 12% |\n")
    assert '<table data-search-exclude="numbers">' in numbers
    words = _html("| file | what |\n|---|---|\n| `a.md` | its tables |\n")
    assert "data-search-exclude" not in words
    assert not is_number_table("<tr><td>x</td><td>0.5</td><td>big</td></tr>")
    assert is_number_table("<tr><td>x</td><td>-inf</td><td></td></tr>")


def test_code_shown_twice_is_indexed_once():
    """The NumPy math section is indexed; its folded whole script, and both PyTorch blocks (the NumPy
    twin is on the page), are not. A script without a twin or a math section stays."""
    block = '```python title="{}"\nx = 1\n```\n\n'
    html = _html(
        "".join(
            block.format(t)
            for t in (
                "a_numpy.py: the math",
                "a_numpy.py",
                "a_torch.py: the math",
                "a_torch.py",
                "train_torch.py",
            )
        )
    )
    marks = re.findall(r'<span class="filename">([^<]*)</span><pre(?: data-search-exclude="([^"]*)")?', html)
    assert marks == [
        ("a_numpy.py: the math", ""),
        ("a_numpy.py", "whole script"),
        ("a_torch.py: the math", "twin"),
        ("a_torch.py", "twin"),
        ("train_torch.py", ""),
    ]
