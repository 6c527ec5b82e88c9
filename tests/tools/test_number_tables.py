"""publish/markdown/number_tables.py marks the tables of numbers (data-numbers), which extra.css lets wait off
screen, and no table of words, which a phone wraps by as much as its text; and the tables of entries
(data-entries, each cell named by its column), which a phone lists row by row."""

import markdown

NUMBERS = "| | a | b |\n|---|---:|---:|\n| **x** | 0.25 | -1 |\n| **y** | −0.5 | 12% |\n"
WORDS = "| symbol | what it counts |\n|---|---|\n| $n$ | tokens in the sentence |\n"


def _html(text: str, *extensions: str) -> str:
    return markdown.markdown(text, extensions=["tables", *extensions])


def test_a_table_of_numbers_is_marked_and_a_table_of_words_is_not():
    assert _html(NUMBERS, "publish.markdown.number_tables").startswith("<table data-numbers data-one-line>")
    assert "data-numbers" not in _html(WORDS, "publish.markdown.number_tables")


def test_the_mark_goes_beside_the_search_exclusion_and_no_class_is_added():
    """With publish.markdown.search_exclude as mkdocs.yml orders them: both marks on the same table, and no
    class (Material styles only tables without one)."""
    both = _html(NUMBERS + "\n" + WORDS, "publish.markdown.search_exclude", "publish.markdown.number_tables")
    assert both.count('<table data-numbers data-one-line data-search-exclude="numbers">') == 1
    assert both.count("<table>") == 1 and "class=" not in both


ENTRIES = '| symbol | name | "shape" |\n|---|---|---|\n| $X$ | the embeddings | n × d |\n| | | |\n'


def test_a_table_of_entries_is_marked_and_each_cell_named_by_its_column():
    """Three or more columns, the first with a heading: each body cell gets its column's heading
    (escaped), which extra.css shows before it when a phone lists the rows."""
    html = _html(ENTRIES, "publish.markdown.number_tables")
    assert html.startswith("<table data-entries>"), html
    assert '<td data-label="symbol">$X$</td>' in html and '<td data-label="name">the embeddings</td>' in html
    assert html.count('data-label="&quot;shape&quot;"') == 2, html
    assert "<th>symbol</th>" in html  # the headings themselves are left as they are


def test_grids_tables_of_numbers_and_narrow_tables_are_not_entries():
    """A grid of words (its corner empty), the RNN page's costs (numbers, some with thousands
    separators, beside two columns of labels) and a table of two columns keep their columns."""
    grid = "| | position 1 | position 2 |\n|---|---|---|\n| sentence 1 | The | cat |\n"
    costs = (
        "| measure | layer | n = 3 | n = 64 |\n|---|---|---:|---:|\n| steps | RNN | 3 | 4,096 |\n"
        "| | self-attention | 1 | 1.5 |\n"
    )
    for text in (grid, costs, WORDS, NUMBERS):
        assert "data-entries" not in _html(text, "publish.markdown.number_tables"), text


def test_a_table_of_numbers_of_one_word_a_cell_is_one_line_and_one_with_words_is_not():
    """Only a table whose rows cannot wrap waits off screen with a placeholder of one line a row:
    every cell one word (a no-break space holds two), or the corner that names the axes, which
    extra.css holds on one line. A heading or a label of several words wraps on a phone."""
    one_line = "| query ↓ key → | The | cat |\n|---|---:|---:|\n| The | 1 | 0.5 |\n| n\u00a0=\u00a03 | 2 | 3 |\n"
    assert _html(one_line, "publish.markdown.number_tables").startswith("<table data-numbers data-one-line>")
    heading = "| after step | mean weight on the partner |\n|---|---:|\n| 0 | 0.25 |\n"
    label = "| state | u1 |\n|---|---:|\n| h3 (The cat sat) | 0.39 |\n"
    corner = "| pre-norm out | x1 |\n|---|---:|\n| bank | 1.5 |\n"
    for text in (heading, label, corner):
        html = _html(text, "publish.markdown.number_tables")
        assert html.startswith("<table data-numbers>"), html
