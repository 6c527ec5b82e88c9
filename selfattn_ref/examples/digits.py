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

That is the rounding of one float64. A number computed from others carries the roundings of every
step that made it, and a step of large terms that cancel keeps the error of the large terms:
999999.1 × 999999.7 + 999999.3 × (-999999.1) is 399999.64, and float64 gives 399999.6398741...,
wrong from the third decimal on. So every printed number comes with a bound on its error (the
``error`` argument), which :func:`selfattn_ref.examples.errors` computes for each step of a worked
example from the size of the terms that made it: a sum or a dot product of n terms is off by at
most :func:`gamma` (n) times the sum of the terms' sizes, plus what the errors of its terms carry
(Higham, "Accuracy and Stability of Numerical Algorithms", 2002, section 3.1), and the softmax
and e^score are bounded by evaluating them at the ends of their scores' intervals. A number prints
with at most the decimals whose last one its error cannot change by more than one unit
(:func:`last_place`: the error at most half a unit of the last decimal printed, so that the
printed number is within one unit of its last digit of the exact one), fewer than asked where the
bound says so, and in exponent notation when not even its units digit is held (``3.9999964e+05``);
a number none of whose digits is held prints as ``?``. The numbers of the site's examples are small
and their bounds far below their last decimal: they print as the 15-digit rule alone prints them.

``publish/fmt.py`` (the tables, worked lines and sentences of the pages), the playground's
``format.js`` (its twin, which a browser test holds to this one on many values and errors) and the
command line (``python -m selfattn_ref explain``) all print through :func:`number_text` and
:func:`integer_text`.
"""

from __future__ import annotations

import math

import numpy as np

DIGITS = 15  # the most digits a printed number has (before and after the point together)
# What a page or the command line adds to "rounded to N decimals" when a number it prints is shortened.
FEWER = (
    f"fewer where a number would have more than {DIGITS} digits, or more than the float64 arithmetic that "
    "made it holds (its error, bounded by the size of its terms)"
)
U = 2.0**-53  # float64's unit roundoff: one rounding moves a number by at most U times its size
NONE_HELD = "?"  # a number none of whose digits its error leaves: no digit is printed


def gamma(n: int) -> float:
    """The bound on the relative error of a sum or a dot product of ``n`` terms computed in float64,
    as a share of the sum of the terms' sizes: n·U / (1 - n·U) (Higham's γ_n)."""
    return n * U / (1 - n * U)


def last_place(error: float) -> int | None:
    """The power of ten p of the last digit a number with this ``error`` may print: the least p
    with ``error`` at most half a unit of it (0.5·10^p: the printed number is then within one unit
    of its last digit of the exact one); -2 for an error of 0.003, 0 for 0.5, 1 for 3. None for an
    error of 0 (every digit is held). The comparison is with the float64 nearest 5·10^(p-1), which
    Python and JavaScript read alike from its text."""
    error = float(error)
    if error <= 0:
        return None
    if not math.isfinite(error):
        return 400  # beyond every float64: no digit is held
    # From an estimate by the logarithm, stepped to the least such p (the logarithm's rounding may be
    # off by one either way); -400 at the least, below every float64.
    p = max(-400, math.ceil(math.log10(error) - math.log10(5)) + 1)
    while p > -400 and error <= float(f"5e{p - 2}"):
        p -= 1
    while error > float(f"5e{p - 1}"):
        p += 1
    return p


def _unsigned_zero(text: str) -> str:
    """``text`` without its minus sign if every digit of it is 0: "-0.000" is "0.000"."""
    mantissa = text.split("e")[0]
    return text[1:] if text.startswith("-") and not any(c in "123456789" for c in mantissa) else text


def decimals_shown(x: float, decimals: int, error: float = 0.0) -> int:
    """How many decimals ``x`` prints with when ``decimals`` are asked for: ``decimals``, fewer if
    the number would have more than :data:`DIGITS` digits (99999.99999999999 at 10 decimals rounds
    to 100000.0000000000, one digit too many, so it gets 9), or if its ``error`` leaves fewer
    (:func:`last_place`; 0 when not even its units digit is held)."""
    a = abs(float(x))
    if not math.isfinite(a):
        return decimals
    places = max(0, min(decimals, DIGITS - len(str(int(a)))))
    if places > 0 and len(f"{a:.{places}f}") - 1 > DIGITS:  # rounding carried into one more digit
        places -= 1
    p = last_place(error)
    return places if p is None else max(0, min(places, -p))


def shortens(values, decimals: int, errors=None) -> bool:
    """Whether a finite number of ``values`` (numbers, or arrays of them) prints with fewer than
    ``decimals`` decimals, long or with an error (``errors``: the values' bounds, in the same
    arrangement, or None): then the text that says the rounding adds :data:`FEWER`."""
    largest, worst = 0.0, 0.0
    for k, v in enumerate(values):
        xs = np.ravel(v).tolist()
        es = [0.0] * len(xs) if errors is None else np.ravel(errors[k]).tolist()
        for x, e in zip(xs, es, strict=True):
            if math.isfinite(x):
                largest, worst = max(largest, abs(x)), max(worst, e)
    p = last_place(worst)
    noisy = p is not None and (p > 0 or -p < decimals)  # fewer decimals, or exponent notation
    return decimals_shown(largest, decimals) < decimals or "e" in number_text(largest, decimals) or noisy


def _exponent_places(x: float, most: int, error: float) -> int | None:
    """The decimals of the mantissa of ``x`` in exponent notation: ``most``, fewer where its
    ``error`` leaves fewer digits; None if it leaves none."""
    p = last_place(error)
    if p is None:
        return most
    exponent = int(f"{abs(x):e}".split("e")[1])  # of the leading digit: 3.99999e+05 is 5
    return None if exponent < p else min(most, exponent - p)


def number_text(x: float, decimals: int, error: float = 0.0) -> str:
    """``x`` at ``decimals`` places, with at most :data:`DIGITS` digits and at most those its
    ``error`` leaves (see the module), and never "-0.000": ``number_text(2 / 3, 3)`` is "0.667",
    ``number_text(999999.123456789, 10)`` is "999999.123456789", ``number_text(1e20, 3)`` is
    "1.000e+20", ``number_text(399999.6398741, 10, error=0.0009)`` is "399999.64" and
    ``number_text(399999.6398741, 10, error=30)`` is "4.000e+05". NaN prints "nan" and infinity "inf"."""
    x = float(x)
    if not math.isfinite(x):
        return "nan" if math.isnan(x) else "inf" if x > 0 else "-inf"
    p = last_place(error)
    if p is not None and p > 0:  # not even the units digit is held
        places = _exponent_places(x, min(decimals, DIGITS - 1), error)
        return NONE_HELD if places is None else _unsigned_zero(f"{x:.{places}e}")
    text = f"{x:.{decimals_shown(x, decimals, error)}f}"
    if len(text.lstrip("-").split(".")[0]) > DIGITS:  # more than 15 digits before the point
        places = _exponent_places(x, min(decimals, DIGITS - 1), error)
        text = NONE_HELD if places is None else f"{x:.{places}e}"
    return _unsigned_zero(text)


def integer_text(x: float, error: float = 0.0) -> str:
    """A whole number as a table of whole numbers prints it: "12", and one of more than
    :data:`DIGITS` digits, or whose ``error`` reaches its units digit, in exponent notation, to 15
    digits (or those its error leaves) without trailing zeros ("1e+20", "4.5e+27")."""
    x = float(x)
    if not math.isfinite(x):
        return number_text(x, 0)
    p = last_place(error)
    if len(f"{abs(x):.0f}") <= DIGITS and (p is None or p <= 0):
        return str(int(round(x)))
    places = _exponent_places(x, DIGITS - 1, error)
    if places is None:
        return NONE_HELD
    mantissa, exponent = f"{x:.{places}e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.') if '.' in mantissa else mantissa}e{exponent}"


# --- the bounds: how far float64 arithmetic may be from the exact arithmetic -------------------
# (NumPy, float64; the playground's twin is docs/assets/playground/bounds.js.) Each function takes
# the values as computed and the bounds on their errors, and gives the bound on the error of the
# result: the result's own rounding, and what the errors of its terms carry, to first order and
# a little more (the rounding of the bounds themselves is far below them).


def input_error(x) -> np.ndarray:
    """The error of numbers typed as decimals and read into float64: U times their size, rounded
    once; 0 for whole numbers, which float64 holds exactly (up to 2^53). x: any shape -> the same shape."""
    x = np.asarray(x, dtype=np.float64)
    exact = (x == np.round(x)) & (np.abs(x) <= 2.0**53)
    return np.where(exact, 0.0, U * np.abs(x))


def _whole(M, axis: int) -> np.ndarray:
    """Whether each row (axis -1) or column (axis -2) of ``M`` holds whole numbers only."""
    return np.all(M == np.round(M), axis=axis)


def product_error(A, B, dA, dB) -> np.ndarray:
    """The error of A @ B computed in float64, A and B carrying errors dA and dB: each entry is a
    dot product of k terms, off by at most γ_k times the sum of their sizes, plus dA|B| + |A|dB +
    dA dB; 0 for a row and a column of whole numbers whose terms' sizes add up to at most 2^53,
    which float64 multiplies and adds exactly. A: (..., n, d), B: (..., d, d_v) -> (..., n, d_v), for any
    product (X W, Q Kᵀ, A V: d is the length of the dot products)."""
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        size = np.abs(A) @ np.abs(B)
        exact = _whole(A, -1)[..., :, None] & _whole(B, -2)[..., None, :] & (size <= 2.0**53)
        rounding = np.where(exact, 0.0, gamma(A.shape[-1]) * size)
        return rounding + dA @ np.abs(B) + np.abs(A) @ dB + dA @ dB


def softmax_error(L, dL, W) -> np.ndarray:
    """The error of the softmax W of each row of the logits L (-inf where masked), the logits
    carrying errors dL. Weight j is 1 / (1 + A) with A the sum over the other keys k of
    e^(L_k - L_j); it falls as each L_k - L_j grows, so the exact weight lies between its values
    with every L_k - L_j moved by dL_k + dL_j one way and the other, which differ from it by
    sums of e^(L_k - L_j)·expm1(±(dL_k + dL_j)) (computed so, without subtracting nearly equal
    numbers). Add the softmax's own rounding (e^ of L - max(L), each rounded, their sum, the
    division). L, dL, W: (..., n_k) -> (..., n_k); 0 where masked."""
    L, dL, W = (np.asarray(a, dtype=np.float64) for a in (L, dL, W))
    allowed = np.isfinite(L)
    Lz, dLz = np.where(allowed, L, 0.0), np.where(allowed, dL, 0.0)
    n_k = L.shape[-1]
    others = allowed[..., None, :] & ~np.eye(n_k, dtype=bool)  # (..., j, k): key k counts, and is not j
    with np.errstate(over="ignore", invalid="ignore"):
        a = np.where(others, np.exp(Lz[..., None, :] - Lz[..., :, None]), 0.0)  # e^(L_k - L_j)
        s = dLz[..., None, :] + dLz[..., :, None]  # dL_k + dL_j
        A = a.sum(axis=-1)  # (..., n_k): the weight is 1 / (1 + A)
        up = (a * np.expm1(s)).sum(axis=-1)  # how much A can grow: the weight falls
        down = -(a * np.expm1(-s)).sum(axis=-1)  # and shrink: the weight rises
        falls = np.where(np.isfinite(up), up / (1 + A + up), 1.0) / (1 + A)  # 1/(1+A) - 1/(1+A+up)
        rises = down / (1 + A - down) / (1 + A)  # 1/(1+A-down) - 1/(1+A)
        spread = np.where(np.isfinite(A), np.maximum(falls, rises), 0.0)  # A infinite: the weight is 0
    top = np.where(allowed, L, -np.inf).max(axis=-1, keepdims=True)
    gap = np.where(allowed, top - Lz, 0.0)  # L - max(L), rounded once before its e^
    count = allowed.sum(axis=-1, keepdims=True)
    rounding = (U * (gap + (W * gap).sum(axis=-1, keepdims=True)) + (count + 5) * U) * W
    return np.where(allowed, spread + 2 * rounding + (count + 5) * U * W, 0.0)


def power_error(x, dx, t) -> np.ndarray:
    """The error of t = e^x (e^-inf = 0 where masked), x carrying errors dx: the exact e^x lies
    between e^x·e^(-dx) and e^x·e^dx, at most t·expm1(dx) from e^x, and t is within a unit of its last
    place of e^x. x, dx, t: any shape -> the same shape."""
    x, dx, t = (np.asarray(a, dtype=np.float64) for a in (x, dx, t))
    allowed = np.isfinite(x)
    with np.errstate(over="ignore", invalid="ignore"):
        err = t * np.expm1(np.where(allowed, dx, 0.0)) * (1 + 2 * U) + 2 * U * t
    return np.where(allowed, err, 0.0)


def sum_error(terms, d_terms) -> np.ndarray:
    """The error of the sum of the last axis of ``terms``, each carrying the errors ``d_terms``:
    γ of their count times the sum of their sizes, plus the sum of their errors. (..., n_k) -> (...)."""
    terms = np.abs(np.asarray(terms, dtype=np.float64))
    return gamma(terms.shape[-1]) * terms.sum(axis=-1) + np.asarray(d_terms).sum(axis=-1)
