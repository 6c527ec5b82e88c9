"""Number formatting shared by tables, the audit and the command line.

The rule is the package's, stated once in :mod:`selfattn_ref.examples.digits`: the decimals
asked for, with at most 15 digits in all (a float64 holds no more), and no "-0.000".
"""

from __future__ import annotations

import numpy as np

from selfattn_ref.examples.digits import integer_text, number_text


def num(x: float, decimals: int) -> str:
    """``x`` at ``decimals`` places (fewer for a number of more than 15 digits), with no "-0.000"."""
    return number_text(x, decimals)


def is_integral(a) -> bool:
    a = np.asarray(a, dtype=float)
    return bool(np.all(a == np.round(a)))


def cell(x: float, decimals: int, integral: bool) -> str:
    return integer_text(x) if integral else num(x, decimals)


def vector(v, decimals: int) -> str:
    """``[0.910, 0.335, 0.665, 0.090]`` (integers stay integers)."""
    integral = is_integral(v)
    return "[" + ", ".join(cell(x, decimals, integral) for x in np.asarray(v)) + "]"
