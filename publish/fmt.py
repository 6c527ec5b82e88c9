"""Number formatting shared by tables, the audit and the command line.

The rule is the package's, stated once in :mod:`selfattn_ref.examples.digits`: the decimals
asked for, with at most 15 digits in all (a float64 holds no more), at most those its error
leaves (the bound :func:`selfattn_ref.examples.errors` gives each number), and no "-0.000".
"""

from __future__ import annotations

import re

import numpy as np

from selfattn_ref.examples.digits import integer_text, number_text


def num(x: float, decimals: int, error: float = 0.0) -> str:
    """``x`` at ``decimals`` places (fewer for a number of more than 15 digits, or whose ``error``
    leaves fewer), with no "-0.000"."""
    return number_text(x, decimals, error)


def grouped(x: float, decimals: int = 0, error: float = 0.0) -> str:
    """``x`` as :func:`num` writes it, its whole part in groups of three digits with commas: "1,048,576",
    "265,216", "12,345.68", "512". How the tables write a count or a size, and how the numbers audit
    expects one a page types with commas (a number in exponent notation stays as :func:`num` writes it)."""
    text = num(x, decimals, error)
    m = re.fullmatch(r"(-?)(\d+)(\.\d+)?", text)
    return f"{m.group(1)}{int(m.group(2)):,}{m.group(3) or ''}" if m else text


def is_integral(a) -> bool:
    a = np.asarray(a, dtype=float)
    return bool(np.all(a == np.round(a)))


def cell(x: float, decimals: int, integral: bool, error: float = 0.0) -> str:
    return integer_text(x, error) if integral else num(x, decimals, error)


def vector(v, decimals: int, errors=None) -> str:
    """``[0.910, 0.335, 0.665, 0.090]`` (integers stay integers); ``errors``: each entry's bound, or None."""
    integral = is_integral(v)
    errs = np.zeros(np.shape(v)) if errors is None else np.asarray(errors)
    return "[" + ", ".join(cell(x, decimals, integral, e) for x, e in zip(np.asarray(v), errs, strict=True)) + "]"
