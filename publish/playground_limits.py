"""docs/generated/playground/limits.js: the limits of a worked example, for the playground.

The playground (docs/assets/playground/state.js) imports this file, so the words, dimensions,
decimals, number sizes and the definition of a word's name it accepts are those of
:mod:`selfattn_ref.examples.rules`, stated once there. ``make update`` writes it; a test runs
state.js's checks beside the Python ones on the same names.
"""

from __future__ import annotations

import json

from selfattn_ref.examples.digits import DIGITS
from selfattn_ref.examples.rules import LIMITS, TOKEN_FORBIDDEN

from .registry import generated

RELPATH = "playground/limits.js"


@generated(RELPATH)
def limits_module() -> str:
    """An ES module exporting the limits (``SPEC_LIMITS``), the characters a token may not hold and
    the most digits a printed number has (``DIGITS``, for format.js)."""
    return (
        f"export const SPEC_LIMITS = Object.freeze({json.dumps(LIMITS, indent=2)});\n"
        f"export const TOKEN_FORBIDDEN = {json.dumps(TOKEN_FORBIDDEN)};\n"
        f"export const DIGITS = {DIGITS};  // the most digits a printed number has (selfattn_ref.examples.digits)\n"
    )
