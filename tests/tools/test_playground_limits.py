"""The playground's limits file lists the code points a token may not hold and the combining marks
as ranges (publish/generate/playground_limits.py). They are computed by asking the rule once per run of
code points of one general category, and once for each code point it decides on its own
(selfattn_ref.examples.rules.TOKEN_RULED_ONE_BY_ONE): here every code point is asked, and the
ranges must be the same."""

from __future__ import annotations

import sys

import pytest

from publish.generate.playground_limits import code_point_ranges
from selfattn_ref.examples.rules import TOKEN_RULED_ONE_BY_ONE, is_combining_mark, token_char_refused


def every_code_point(refused) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        if refused(chr(code)):
            if out and out[-1][1] == code - 1:
                out[-1] = (out[-1][0], code)
            else:
                out.append((code, code))
    return out


@pytest.mark.parametrize(
    ("rule", "one_by_one"), [(token_char_refused, TOKEN_RULED_ONE_BY_ONE), (is_combining_mark, frozenset())]
)
def test_the_ranges_are_those_of_asking_every_code_point(rule, one_by_one):
    ranges = code_point_ranges(rule, one_by_one)
    assert ranges == every_code_point(rule)
    assert len(ranges) > 200  # (714 and 299 in Unicode 15.1)


def test_a_code_point_ruled_on_its_own_is_asked_on_its_own():
    def only_a(ch: str) -> bool:
        return ch == "a"

    assert code_point_ranges(only_a, frozenset({ord("a")})) == [(0x61, 0x61)]
    # Not named: "a" answers for its whole run of lower-case letters, "a" to "z".
    assert code_point_ranges(only_a) == [(0x61, 0x7A)]
