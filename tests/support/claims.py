"""The arithmetic a playground's explanation states, checked as the site's numbers audit reads it
(publish.audit.arithmetic), with the one form the audit does not read: e to the power of a number."""

from __future__ import annotations

import numpy as np

from publish.audit.arithmetic import _evaluate, arithmetic_problems


def exp_holds(text: str) -> bool:
    """'e^2 = 7.389' or 'e^(1 − 2) = 0.368' at the rounding shown, as the audit reads numbers: an
    exponent and a result written with k decimals stand for anything within half a unit of the last."""
    left, right = text.split(" = ")
    assert left.startswith("e^"), text
    (x, dx), (y, dy) = _evaluate(left[2:]), _evaluate(right)
    lo, hi = np.exp(float(x - dx)), np.exp(float(x + dx))
    return lo - 1e-12 * hi <= float(y + dy) and float(y - dy) <= hi + 1e-12 * hi


def claim_problems(text: str) -> list:
    """What is wrong with a claim's arithmetic at the rounding it shows (nothing: [])."""
    if text.startswith("e^"):
        return [] if exp_holds(text) else [(text, "e to that power is not the number shown")]
    return arithmetic_problems(text)
