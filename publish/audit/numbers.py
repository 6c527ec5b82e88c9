"""Number tokens: where a line states a number, and what it states.

A token is a number as written, with its sign and its percent sign: "66.5%", "-0.3313",
"0.090" (three decimals shown: "0.090" is not "0.09"), "12", and a number grouped in thousands
as the tables write it, "1,048,576" (one number, compared with the quantity grouped the same way:
:func:`publish.fmt.grouped`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from decimal import Decimal

from selfattn_ref.examples.rules import NUMBER as _NUMBER  # stated there: spec text is checked with it too

from ..fmt import grouped, num
from .quantities import Quantity


@dataclass(frozen=True)
class Token:
    text: str  # as written, sign and % included
    start: int
    end: int
    value: Decimal
    decimals: int
    percent: bool
    grouped: bool = False  # its whole part in groups of three digits, with commas: "1,048,576"

    @property
    def quoted(self) -> bool:
        """Whether the audit holds the number to account with no claim on it: a decimal, a percentage
        or a number grouped in thousands (a figure, as the tables write it), which a claim or a constant
        must name. A whole number written plainly ("3 tokens") is a count, read only by arithmetic."""
        return bool(self.decimals or self.percent or self.grouped)


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
        value = Decimal(digits.replace(",", "")) * (-1 if sign else 1)
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        text = line[start : m.end()]
        toks.append(Token(text, start, m.end(), value, decimals, bool(pct), "," in digits))
    return tuple(toks)


def shown(tok: Token) -> str:
    """The number as written (sign as "-", no "%"), to compare with the code's formatting
    character for character: "0.090" is not "0.09", "000" is not "0", "1,048,576" is not "1,048576"."""
    return tok.text.replace("−", "-").rstrip("%").strip()


def _written(x: float, tok: Token) -> str:
    """``x`` at the token's places, grouped in thousands if the token is."""
    return grouped(x, tok.decimals) if tok.grouped else num(x, tok.decimals)


def as_shown(q: Quantity, tok: Token) -> str:
    """The quantity as the token would show it: a percentage, a decimal or an integer at the
    token's number of places, grouped in thousands if the token is."""
    return _written(q.value * 100, tok) + "%" if tok.percent else _written(q.value, tok)


def is_integral(q: Quantity) -> bool:
    return abs(q.value - round(q.value)) < 1e-9


def states(tok: Token, q: Quantity) -> bool:
    """Whether the token, as written, is the quantity at the rounding shown. A percentage must be
    of a proportion, an integer of a quantity that is an integer."""
    if tok.percent:
        return q.proportion and _written(q.value * 100, tok) == shown(tok)
    if tok.decimals == 0 and not is_integral(q):
        return False
    return _written(q.value, tok) == shown(tok)
