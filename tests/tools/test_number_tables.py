"""publish/markdown/number_tables.py marks the tables of numbers (data-numbers), which extra.css lets wait off
screen, and no table of words, which a phone wraps by as much as its text."""

import markdown

NUMBERS = "| | a | b |\n|---|---:|---:|\n| **x** | 0.25 | -1 |\n| **y** | −0.5 | 12% |\n"
WORDS = "| symbol | what it counts |\n|---|---|\n| $n$ | tokens in the sentence |\n"


def _html(text: str, *extensions: str) -> str:
    return markdown.markdown(text, extensions=["tables", *extensions])


def test_a_table_of_numbers_is_marked_and_a_table_of_words_is_not():
    assert _html(NUMBERS, "publish.markdown.number_tables").startswith("<table data-numbers>")
    assert "data-numbers" not in _html(WORDS, "publish.markdown.number_tables")


def test_the_mark_goes_beside_the_search_exclusion_and_no_class_is_added():
    """With publish.markdown.search_exclude as mkdocs.yml orders them: both marks on the same table, and no
    class (Material styles only tables without one)."""
    both = _html(NUMBERS + "\n" + WORDS, "publish.markdown.search_exclude", "publish.markdown.number_tables")
    assert both.count('<table data-numbers data-search-exclude="numbers">') == 1
    assert both.count("<table>") == 1 and "class=" not in both
