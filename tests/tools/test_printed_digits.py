"""No page prints a digit that a float64 does not hold (issue 27, item 7).

A worked example of long numbers (W_V holds 999999.123456789, at decimals = 10) is generated as
``make update`` would generate it, without writing anything: its tables and worked lines, its page
and both its scripts, run here. Every number they print has at most 15 digits, the rule of
:mod:`selfattn_ref.examples.digits`; the scripts print exactly what the tables print; and the page
says where a number has fewer decimals than the spec asks for. An example of short numbers (every
example of the site today) keeps every decimal and the plain sentence.
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from publish.fmt import num
from publish.generate import example_pages as ep
from publish.generate.tables import example_files
from selfattn_ref import examples
from selfattn_ref.examples.digits import DIGITS, FEWER

LONG = """\
title = "Long numbers"
tokens = ["a", "b"]
embeddings = [[1, 0], [0, 1]]
projections = "given"
W_Q = [[1, 0], [0, 1]]
W_K = [[1, 0], [0, 1]]
W_V = [[999999.123456789, 0], [0.5, 1]]
scale = false
causal = true
decimals = 10
"""
# A number is a run of digits not glued to a letter (not the 1 of "x1" or "c1").
NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?(?:e[+-]\d+)?(?![\w.])")


@pytest.fixture(scope="module")
def long_example() -> examples.Example:
    return examples.load_text(LONG, examples.EXAMPLES_DIR / "zz_long_numbers.toml")  # checked, never written


def digit_count(number: str) -> int:
    return len(re.sub(r"\D", "", number.split("e")[0]))


def too_long(text: str) -> list[str]:
    return [m for m in NUMBER.findall(text) if digit_count(m) > DIGITS]


def printed(script: str) -> str:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(script, "<generated script>", "exec"), {"__name__": "__main__"})  # noqa: S102 - our own script
    return out.getvalue()


def test_the_tables_and_worked_lines_print_at_most_15_digits(long_example):
    files = example_files(long_example)
    for name, text in files.items():
        assert too_long(text) == [], name
    assert "999999.123456789" in files["W_V.md"]  # not 999999.1234567889, the float's 16th digit
    assert "0.5000000000" in files["W_V.md"]  # a short number keeps every decimal
    assert "999999.1234567889" not in "".join(files.values())


def test_the_page_says_where_a_number_has_fewer_decimals(long_example):
    page = ep.page(long_example)
    assert f"- Numbers are rounded to 10 decimals, {FEWER}." in page
    assert too_long(page) == []
    short = examples.load("the_cat_sat")
    assert f"- Numbers are rounded to {short.decimals} decimals.\n" in ep.page(short)


@pytest.mark.parametrize("library", ep.LIBRARIES)
def test_the_scripts_print_what_the_tables_print(long_example, library):
    script = ep.script(long_example, library)
    assert "rounding added a digit" in script  # the longer fmt, which the pages' rule needs here
    out = printed(script)
    assert too_long(out) == []
    st = examples.run(long_example)
    rows = {line.split()[0]: line.split()[1:] for line in out.split("V = X W_V\n")[1].splitlines()[1:3]}
    assert rows == {tok: [num(x, 10) for x in st.V[i]] for i, tok in enumerate(long_example.tokens)}
    assert rows["a"][0] == "999999.123456789"
    scaled_rows = out.split("scores Q K^T, then masked\n")[1].splitlines()
    assert scaled_rows[1].split()[1:] == ["1.0000000000", "-inf"]  # the masked score, as before


def test_a_script_of_short_numbers_keeps_the_short_fmt():
    script = ep.script(examples.load("the_cat_sat"), "numpy")
    assert "rounding added a digit" not in script
    assert 'text = f"{x:.4f}"' in script
