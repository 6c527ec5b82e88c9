"""How a number is printed, everywhere: the one rule of the pages, the playground and the command line.

A number prints at the decimals asked for, with at most :data:`DIGITS` (15) digits in all, those
before the point included: a float64 holds 15 to 17 significant decimal digits, and 15 is the most
that every float64 holds. Any decimal number of 15 digits read into a float64 and printed again to
15 digits comes back as it was written (C's ``DBL_DIG``); at 16 or 17 digits it need not:
999999.123456789 is stored as 999999.12345678894780..., so at 10 decimals it would print as
999999.1234567889, and the last digit, which nobody wrote, would be noise. So a long number gets
fewer decimals (999999.123456789 at 10 decimals prints 999999.123456789), and one of more than 15
digits before the point prints in exponent notation (``1.000e+20``), never with digits a float64
does not have.

``publish/fmt.py`` (the tables, worked lines and sentences of the pages), the playground's
``format.js`` (its twin, which a browser test holds to this one on many values) and the command line
(``python -m selfattn_ref explain``) all print through :func:`number_text` and :func:`integer_text`.
"""

from __future__ import annotations

import math

DIGITS = 15  # the most digits a printed number has (before and after the point together)
# What a page or the command line adds to "rounded to N decimals" when a number it prints is shortened.
FEWER = f"fewer where a number would have more than {DIGITS} digits (a float64 holds no more)"


def _unsigned_zero(text: str) -> str:
    """``text`` without its minus sign if every digit of it is 0: "-0.000" is "0.000"."""
    mantissa = text.split("e")[0]
    return text[1:] if text.startswith("-") and not any(c in "123456789" for c in mantissa) else text


def decimals_shown(x: float, decimals: int) -> int:
    """How many decimals ``x`` prints with when ``decimals`` are asked for: ``decimals``, fewer if
    the number would have more than :data:`DIGITS` digits (99999.99999999999 at 10 decimals rounds
    to 100000.0000000000, one digit too many, so it gets 9)."""
    a = abs(float(x))
    if not math.isfinite(a):
        return decimals
    places = max(0, min(decimals, DIGITS - len(str(int(a)))))
    if places > 0 and len(f"{a:.{places}f}") - 1 > DIGITS:  # rounding carried into one more digit
        places -= 1
    return places


def shortens(values, decimals: int) -> bool:
    """Whether a finite number of ``values`` (numbers, or arrays of them) prints with fewer than
    ``decimals`` decimals: then the text that says the rounding adds :data:`FEWER`."""
    largest = 0.0
    for v in values:
        for x in v.ravel().tolist() if hasattr(v, "ravel") else [v]:
            if math.isfinite(x):
                largest = max(largest, abs(x))
    return decimals_shown(largest, decimals) < decimals


def number_text(x: float, decimals: int) -> str:
    """``x`` at ``decimals`` places, with at most :data:`DIGITS` digits (see the module), and never
    "-0.000": ``number_text(2 / 3, 3)`` is "0.667", ``number_text(999999.123456789, 10)`` is
    "999999.123456789", ``number_text(1e20, 3)`` is "1.000e+20". NaN prints "nan" and infinity "inf"."""
    x = float(x)
    if not math.isfinite(x):
        return "nan" if math.isnan(x) else "inf" if x > 0 else "-inf"
    text = f"{x:.{decimals_shown(x, decimals)}f}"
    if len(text.lstrip("-").split(".")[0]) > DIGITS:  # more than 15 digits before the point
        text = f"{x:.{min(decimals, DIGITS - 1)}e}"
    return _unsigned_zero(text)


def integer_text(x: float) -> str:
    """A whole number as a table of whole numbers prints it: "12", and one of more than
    :data:`DIGITS` digits in exponent notation, to 15 digits without trailing zeros ("1e+20",
    "4.5e+27")."""
    x = float(x)
    if not math.isfinite(x):
        return number_text(x, 0)
    if len(f"{abs(x):.0f}") <= DIGITS:
        return str(int(round(x)))
    mantissa, exponent = f"{x:.{DIGITS - 1}e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{exponent}"
