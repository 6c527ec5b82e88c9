"""Number formatting shared by tables, the audit and the command line."""

from __future__ import annotations

import numpy as np


def num(x: float, decimals: int) -> str:
    """``x`` at ``decimals`` places, with no "-0.000"."""
    s = f"{float(x):.{decimals}f}"
    if s.lstrip("-").strip("0.") == "":
        s = s.lstrip("-")
    return s


def is_integral(a) -> bool:
    a = np.asarray(a, dtype=float)
    return bool(np.all(a == np.round(a)))


def cell(x: float, decimals: int, integral: bool) -> str:
    return str(int(round(float(x)))) if integral else num(x, decimals)


def vector(v, decimals: int) -> str:
    """``[0.910, 0.335, 0.665, 0.090]`` (integers stay integers)."""
    integral = is_integral(v)
    return "[" + ", ".join(cell(x, decimals, integral) for x in np.asarray(v)) + "]"
