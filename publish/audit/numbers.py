"""Number tokens: where a line states a number, and what it states.

A token is a number as written, with its sign and its percent sign: "66.5%", "-0.3313",
"0.090" (three decimals shown: "0.090" is not "0.09"), "12".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from decimal import Decimal

from selfattn_ref.examples.rules import NUMBER as _NUMBER  # stated there: spec text is checked with it too

from ..fmt import num
from .quantities import Quantity


@dataclass(frozen=True)
class Token:
    text: str  # as written, sign and % included
    start: int
    end: int
    value: Decimal
    decimals: int
    percent: bool


@functools.lru_cache(maxsize=8192)
def number_tokens(line: str) -> tuple[Token, ...]:
    """The number tokens of ``line``, left to right. Cached (tokens are frozen): one check of a line
    reads them three or more times, and the mutation tests check each line hundreds of times."""
    toks = []
    for m in _NUMBER.finditer(line):
        sign, digits, pct = m.group(1), m.group(2), m.group(3)
        # A minus touching the digits is a sign ("is -0.3313", "[-1, 2]"), unless it also
        # touches what comes before it ("x-1", "2-1"): then it is a subtraction.
        if sign and m.start() > 0 and re.search(r"[\w)\]]$", line[: m.start()]):
            sign = ""
        start = m.start(2) - len(sign)
        value = Decimal(digits) * (-1 if sign else 1)
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        text = line[start : m.end()]
        toks.append(Token(text, start, m.end(), value, decimals, bool(pct)))
    return tuple(toks)


def shown(tok: Token) -> str:
    """The number as written (sign as "-", no "%"), to compare with the code's formatting
    character for character: "0.090" is not "0.09", "000" is not "0"."""
    return tok.text.replace("−", "-").rstrip("%").strip()


def as_shown(q: Quantity, tok: Token) -> str:
    """The quantity as the token would show it: a percentage, a decimal or an integer at the
    token's number of places."""
    return num(q.value * 100, tok.decimals) + "%" if tok.percent else num(q.value, tok.decimals)


def is_integral(q: Quantity) -> bool:
    return abs(q.value - round(q.value)) < 1e-9


def states(tok: Token, q: Quantity) -> bool:
    """Whether the token, as written, is the quantity at the rounding shown. A percentage must be
    of a proportion, an integer of a quantity that is an integer."""
    if tok.percent:
        return q.proportion and num(q.value * 100, tok.decimals) == shown(tok)
    if tok.decimals == 0 and not is_integral(q):
        return False
    return num(q.value, tok.decimals) == shown(tok)
