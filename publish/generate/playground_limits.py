"""docs/generated/playground/limits.js: the limits of a worked example, for the playground.

The playground (docs/assets/playground/state.js) imports this file, so the words, dimensions,
decimals, number sizes and the definition of a word's name it accepts are those of
:mod:`selfattn_ref.examples.rules`, stated once there. The characters a name may not hold are
listed as code points computed here from Python's Unicode (:data:`~selfattn_ref.examples.rules.UNICODE_VERSION`),
not left to the browser's (Chromium's ICU is newer, and assigns code points Python does not):
the browser refuses exactly what the spec check refuses. ``make update`` writes it; a test
runs state.js's checks beside the Python ones on the same names, in Node and in Chromium.
"""

from __future__ import annotations

import itertools
import json
import sys
import unicodedata
from collections.abc import Callable
from functools import cache

from selfattn_ref.examples.digits import DIGITS
from selfattn_ref.examples.rules import (
    LIMITS,
    NUMBER_SYNTAX,
    TOKEN_FORBIDDEN,
    TOKEN_RULED_ONE_BY_ONE,
    UNICODE_VERSION,
    is_combining_mark,
    token_char_refused,
)

from .registry import generated

RELPATH = "playground/limits.js"


@cache
def _category_runs() -> tuple[tuple[int, int], ...]:
    """(first, one past the last) of each run of code points of one general category, in order."""
    runs, start = [], 0
    for _, run in itertools.groupby(map(unicodedata.category, map(chr, range(sys.maxunicode + 1)))):
        end = start + sum(1 for _ in run)
        runs.append((start, end))
        start = end
    return tuple(runs)


@cache
def code_point_ranges(
    refused: Callable[[str], bool], one_by_one: frozenset[int] = frozenset()
) -> list[tuple[int, int]]:
    """(first, last) of each run of code points ``c`` for which ``refused(chr(c))`` holds.

    ``refused`` must give one answer for every code point of one general category but those of
    ``one_by_one``: it is asked once for each run of code points of one category (about 4,000
    runs) and once for each of ``one_by_one``, not 1,114,112 times (a second of every build). A
    test asks it for every code point and compares."""
    verdicts: list[tuple[int, int, bool]] = []  # (first, last, refused) of runs that share one answer
    for start, end in _category_runs():
        single = sorted(c for c in one_by_one if start <= c < end) if one_by_one else []
        for first, last in itertools.pairwise([start - 1, *single, end]):
            if first >= start:
                verdicts.append((first, first, refused(chr(first))))
            if first + 1 < last:
                verdicts.append((first + 1, last - 1, refused(chr(first + 1))))
    out: list[tuple[int, int]] = []
    for first, last, no in verdicts:
        if not no:
            continue
        if out and out[-1][1] == first - 1:
            out[-1] = (out[-1][0], last)
        else:
            out.append((first, last))
    return out


def encode_ranges(ranges: list[tuple[int, int]]) -> str:
    """Ranges as state.js reads them: per range, in hexadecimal, its distance from the end of the
    one before (from 0 for the first) and its length less one, all separated by commas."""
    parts, end = [], 0
    for first, last in ranges:
        parts += [f"{first - end:x}", f"{last - first:x}"]
        end = last
    return ",".join(parts)


@generated(RELPATH)
def limits_module() -> str:
    """An ES module exporting the limits (``SPEC_LIMITS``), the characters a token may not hold
    (``TOKEN_FORBIDDEN``, and every code point in ``TOKEN_REFUSED``), and the combining marks a
    token may not start with (``MARKS``), the most digits a printed number has (``DIGITS``, for format.js)
    and how a number is typed (``NUMBER_SYNTAX``, a regular expression that JavaScript reads as Python does)."""
    refused = code_point_ranges(token_char_refused, TOKEN_RULED_ONE_BY_ONE)
    return (
        f"export const SPEC_LIMITS = Object.freeze({json.dumps(LIMITS, indent=2)});\n"
        f"export const TOKEN_FORBIDDEN = {json.dumps(TOKEN_FORBIDDEN)};\n"
        f"export const DIGITS = {DIGITS};  // the most digits a printed number has (selfattn_ref.examples.digits)\n"
        "// A number as it is typed, in the playground as on the command line and in a spec (rules.NUMBER_SYNTAX):\n"
        f"export const NUMBER_SYNTAX = {json.dumps(NUMBER_SYNTAX)};\n"
        f"// Code point ranges from Python's Unicode {UNICODE_VERSION} (selfattn_ref.examples.rules; the\n"
        "// format: publish/generate/playground_limits.py, encode_ranges):\n"
        "// what a token may not hold anywhere (control, format, private-use, unassigned and blank\n"
        "// characters, spaces, lone surrogates), and the combining marks, which cannot start a token.\n"
        f'export const TOKEN_REFUSED = "{encode_ranges(refused)}";\n'
        f'export const MARKS = "{encode_ranges(code_point_ranges(is_combining_mark))}";\n'
    )
