"""How a number is printed (selfattn_ref.examples.digits): the decimals asked for, never more than
15 digits in all, so that no printed digit is one a float64 does not hold (issue 27, item 7).

The pages (publish/fmt.py), the playground (format.js, held to this by a browser test) and the
command line print through these functions; tests/tools/test_printed_digits.py checks the pages'
files and scripts, tests/package/test_cli.py the command line.
"""

from __future__ import annotations

import re
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from selfattn_ref.examples.digits import (
    DIGITS,
    NONE_HELD,
    decimals_shown,
    gamma,
    integer_text,
    last_place,
    number_text,
)
from selfattn_ref.examples.rules import LIMITS, MAX_PRINTED

MANY = settings(max_examples=400, deadline=None)
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
decimals = st.integers(0, LIMITS["decimals"])


def digits_of(text: str) -> int:
    """How many digits ``text`` shows, before and after the point (the exponent not counted)."""
    return len(re.sub(r"\D", "", text.split("e")[0]))


def test_the_issues_numbers():
    # W_V 999999.123456789 at decimals = 10 printed 999999.1234567889: the float64's 16th digit
    assert number_text(999999.123456789, 10) == "999999.123456789"
    assert f"{999999.123456789:.10f}" == "999999.1234567889"  # what the pages printed before
    # explain --vectors "1e7 0; 0 1" --decimals 10: its score 1e14 printed with 25 digits
    assert number_text(1e14, 10) == "100000000000000"
    assert number_text(1e7, 10) == "10000000.0000000"


def test_short_numbers_keep_every_decimal_asked_for():
    assert number_text(2 / 3, 3) == "0.667"
    assert number_text(0.09003057317038046, 10) == "0.0900305732"
    assert number_text(-0.00004, 4) == "0.0000"  # never "-0.0000"
    assert number_text(-0.0, 0) == "0"
    assert number_text(2.5, 0) == "2"  # Python's rounding: a tie goes to the even digit
    assert number_text(12345.6789, 10) == "12345.6789000000"
    assert number_text(99999.5, 10) == "99999.5000000000"  # 15 digits: room for all ten
    assert number_text(99999.99999999999, 10) == "100000.000000000"  # rounding adds a digit: one fewer
    assert number_text(float("-inf"), 3) == "-inf" and number_text(float("nan"), 3) == "nan"


def test_more_than_15_digits_before_the_point_are_in_exponent_notation():
    assert number_text(1e15, 3) == "1.000e+15"
    assert number_text(999999999999999.5, 2) == "1.00e+15"  # rounded up to 16 digits: exponent notation
    assert number_text(999999999999999.4, 2) == "999999999999999"
    assert number_text(-4.5e27, 10) == "-4.5000000000e+27"
    assert number_text(4.5e27, 0) == "4e+27"  # the tie to even, as Python rounds it
    assert number_text(1000000000000005.0, 14) == "1.00000000000000e+15"  # 15 digits: a tie, to even
    assert number_text(1000000000000015.0, 14) == "1.00000000000002e+15"
    assert integer_text(12.0) == "12" and integer_text(-3.0) == "-3"
    assert integer_text(1e22) == "1e+22" and integer_text(4.5e27) == "4.5e+27"
    assert integer_text(2.0**53 + 2) == "9.00719925474099e+15"


def test_the_pages_limit_is_the_digits_limit():
    # a spec is refused when a page would print a number of MAX_PRINTED or more: at most 15 digits
    # before the point, so a spec's numbers never need exponent notation
    assert MAX_PRINTED == 10.0**DIGITS


@MANY
@given(x=finite, decimals=decimals)
def test_no_number_prints_more_than_15_digits(x, decimals):
    text = number_text(x, decimals)
    assert digits_of(text) <= DIGITS, text
    if "e" in text:  # more than 15 digits before the point; the mantissa correctly rounded
        assert abs(x) >= 10**DIGITS - 0.5
        places = min(decimals, DIGITS - 1)
        assert abs(Decimal(text) - Decimal(x)) <= Decimal(5) * Decimal(10) ** (int(text.split("e")[1]) - places - 1)
        return
    places = decimals_shown(x, decimals)
    assert (len(text.split(".")[1]) if "." in text else 0) == places
    # correctly rounded at the places shown, from the float's exact value
    assert abs(Decimal(text) - Decimal(x)) <= Decimal(5) * Decimal(10) ** (-places - 1)
    if digits_of(f"{x:.{decimals}f}") <= DIGITS:
        assert places == decimals  # a number with room gets every decimal asked for
    else:
        assert digits_of(f"{x:.{places + 1}f}") > DIGITS  # and one with less gets all there is room for


@MANY
@given(mantissa=st.integers(0, 10**DIGITS - 1), places=decimals, negative=st.booleans())
def test_a_number_written_with_15_digits_prints_back_as_written(mantissa, places, negative):
    """What makes 15 the limit: a decimal of up to 15 digits, read into a float64 and printed at
    its places, gives back exactly the digits written; the 16th and 17th would be noise."""
    digits = str(mantissa).rjust(places + 1, "0")
    written = ("-" if negative and mantissa else "") + (f"{digits[:-places]}.{digits[-places:]}" if places else digits)
    if digits_of(written) > DIGITS:  # leading zeros padded in: the whole number has no room for them
        return
    assert number_text(float(written), places) == written


@MANY
@given(x=finite)
def test_whole_numbers_print_as_whole_numbers_or_in_exponent_notation(x):
    x = float(round(x)) if abs(x) < 1e300 else x
    text = integer_text(x)
    assert digits_of(text) <= DIGITS
    if abs(x) < 10**DIGITS - 0.5:
        assert text == str(int(x))
    else:
        assert re.fullmatch(r"-?\d(\.\d*[1-9])?e\+\d{2,3}", text), text
        assert abs(Decimal(text) - Decimal(x)) <= abs(Decimal(x)) * Decimal("1e-14")


# --- the float64 error of a computed number (issue 51, item 5) -------------------------------------


def test_a_number_keeps_the_decimals_its_error_leaves():
    """At most half a unit of the last decimal printed may be error: 0.0009 leaves 2 decimals (the
    issue's 399999.6398741780, exact 399999.64), 0.5 leaves the units digit, 0.5000001 not even it."""
    assert number_text(399999.639874178, 10, 0.0009) == "399999.64"
    assert number_text(399999.639874178, 10, 0.0005) == "399999.640"  # exactly half a unit of the third
    assert number_text(399999.639874178, 10, 0.00050000001) == "399999.64"
    assert number_text(0.10000000009313226, 10, 5.5e-10) == "0.10000000"
    assert number_text(2 / 3, 3, 1e-15) == "0.667"  # the site's examples: errors far below their last decimal
    assert number_text(399999.639874178, 10, 0.5) == "400000"  # the units digit, no point
    assert number_text(399999.639874178, 10, 30) == "4.000e+05"  # to hundreds: exponent notation
    assert number_text(-399999.639874178, 2, 30) == "-4.00e+05"  # never more decimals than asked
    assert number_text(4.096e27, 10, 1e13) == "4.0960000000e+27"
    assert number_text(4.096e27, 14, 1e13) == "4.0960000000000e+27"  # 13: the error's place
    assert number_text(0.5, 4, 0.6) == NONE_HELD == "?"  # no digit is held
    assert decimals_shown(399999.639874178, 10, 0.0009) == 2 and decimals_shown(1.0, 3, 0.0) == 3


def test_last_place_is_where_half_a_unit_covers_the_error():
    assert [last_place(e) for e in (0.0, 5e-11, 5.1e-11, 0.003, 0.5, 0.50001, 3, 50, 51)] == [
        None, -10, -9, -2, 0, 1, 1, 2, 3,
    ]  # fmt: skip
    assert last_place(float("inf")) == 400
    assert gamma(1) == 2.0**-53 / (1 - 2.0**-53) and gamma(16) > 16 * 2.0**-53


def test_a_whole_number_keeps_the_digits_its_error_leaves():
    assert integer_text(17179869184.0, 0.4) == "17179869184"
    assert integer_text(17179869184.0, 3e4) == "1.71799e+10"  # to the hundred thousands
    assert integer_text(17179869184.0, 3e11) == NONE_HELD
