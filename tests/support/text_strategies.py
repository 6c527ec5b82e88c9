"""Hypothesis strategies for spec text (titles, tokens, descriptions) and playground words: each
Unicode class that selfattn_ref/examples/rules.py refuses, drawn on purpose, mixed with text it
accepts. The package tests (tests/package/test_spec_rules.py), the rendering tests
(tests/tools/test_hostile_specs.py) and the playground's parity test in Chromium
(tests/browser/test_playground_text.py) draw from the same pools.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from selfattn_ref.examples.rules import audited_number

# What a spec may not hold anywhere, class by class (a few members of each, the among them).
REFUSED = {
    "control": "\x00\x07\x1b\x7f\x85\x9f\r",
    "format": "\u00ad\u061c\u200b\u200c\u200d\u200e\u202e\u2060\u2066\ufeff\U000e0001\U000e0041",
    "separator": "\u2028\u2029",
    "space": "\u00a0\u2003\u202f\u205f\u3000",
    "private use": "\ue000\ue001\uf8ff\U000f0000\U0010fffd",
    "surrogate": "\ud800\udbff\udc00\udcff\udfff",
    # unassigned in Python's Unicode 14.0: some never, some assigned since (Chromium's ICU has them)
    "unassigned": "\u0378\u2fff\ufdd0\uffff\U0001fffe\U000e0080\U0010ffff"
    "\u0cf3\u2ffc\U0001f6dc\U0001fa75\U00011f00\U0001e4d0\U00031350\U0001cc00\U00010d40",
    "blank": "\u115f\u1160\u3164\uffa0\u2800\U0001d159\u034f\u17b4\u180b\u180f\ufe00\ufe0f\U000e0100\U000e01ef",
}
MARKS = "\u0301\u0308\u0327\u0903\u20dd\u1ab0\U0001d165"  # Mn, Mc, Me: a combining mark needs a base
# Accepted in a word: letters of several scripts, digits, symbols, a base with its marks (composed
# by NFC or not), compatibility characters NFC leaves alone.
LETTERS = [
    "a",
    "Z",
    "é",
    "e\u0301",
    "A\u030a",
    "\u212b",
    "ß",
    "ж",
    "日",
    "本",
    "ق",
    "ก",
    "\u0915\u093f",
    "🙂",
    "ﬁ",
    "Ⅻ",
]
SYMBOLS = list("_$#{}&;!()~^:'\"/@?,-") + ["9", "12"]
# Numbers the audit reads, and the characters that make them.
NUMBERISH = ["0.5", "66.5%", "66 %", "1.", ".5", "%", ".", "1 + 1 = 2", "=", "+", "2"]


def no_number(text: str) -> bool:
    """Whether ``text`` holds no number that spec text may not hold (a decimal, a fraction, ...)."""
    return audited_number(text) is None


def refused_char() -> st.SearchStrategy[tuple[str, str]]:
    """(class, character) of a character that no spec text may hold."""
    return st.sampled_from([(name, ch) for name, chars in REFUSED.items() for ch in chars])


# A token (without a number that is not whole: "9/12" and "9,9" are fractions, rules.FRACTIONAL).
valid_word = st.lists(st.sampled_from(LETTERS + SYMBOLS), min_size=1, max_size=6).map("".join).filter(no_number)
# A title or a description (no braces, no "&": a description or a title refuses them).
valid_prose = (
    st.lists(
        st.sampled_from([*LETTERS, *(s for s in SYMBOLS if s not in "{}&"), " ", " ", " "]), min_size=1, max_size=20
    )
    .map(lambda parts: "x" + "".join(parts) + "x")
    .filter(no_number)
)
# Anything: every class, with marks, number-ish pieces and markup, and arbitrary code points.
any_char = st.one_of(
    refused_char().map(lambda c: c[1]),
    st.sampled_from(list(MARKS)),
    st.integers(0, 0x10FFFF).map(chr),
)
any_text = st.lists(
    st.one_of(any_char, st.sampled_from(LETTERS + SYMBOLS + NUMBERISH + list("<>*[]`|\\ "))), min_size=1, max_size=10
).map("".join)


def sample_names(names: list[str]) -> list[str]:
    """``names``, then each character of each refused class alone and inside a word, each combining
    mark alone, first and after a letter, and a seeded sample of anything (some 900 names)."""
    out = list(names)
    for chars in REFUSED.values():
        out += [*chars] + [f"a{c}b" for c in chars]
    out += [*MARKS] + [m + "a" for m in MARKS] + ["a" + m for m in MARKS]
    pool = [*"".join(REFUSED.values()), *MARKS, *LETTERS, *SYMBOLS, *"|<>*[]`\\ "]
    rng = random.Random(27)
    out += ["".join(rng.choice(pool) for _ in range(rng.randint(1, 5))) for _ in range(400)]
    out += [chr(rng.randint(0, 0x10FFFF)) for _ in range(300)]
    return out
