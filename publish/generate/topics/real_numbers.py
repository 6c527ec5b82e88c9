"""docs/real-numbers.md: what the page may quote of "bank" in a sentence about money, and its tables.

The computation is :mod:`selfattn_ref.topics.real_numbers` ("bank of river", the example
bank_of_river, and "bank of money"); this module only formats and registers. The page's other
numbers are its worked examples' (sources bank_of_river, dog_bites_man, man_bites_dog).
"""

from __future__ import annotations

import numpy as np

from selfattn_ref.topics.real_numbers import sentences

from ...audit.quantities import grid, source
from ..registry import generated
from ..tables import matrix_table, mix_lines


def _dims(d: int) -> list[str]:
    return [f"x{k + 1}" for k in range(d)]


@source("real_numbers")
def _quantities():
    q = []
    for s in sentences():
        name, tok = f"real_numbers {' '.join(s.tokens)}", list(s.tokens)
        q += grid(f"{name} E", s.E, tok, _dims(s.E.shape[1]))
        q += grid(f"{name} scores", s.scores, tok, tok)
        q += grid(f"{name} weights", s.weights, tok, tok, True)
        q += grid(f"{name} output", s.output, tok, _dims(s.output.shape[1]))
    return q


@generated("real_numbers/money_embeddings.md")
def _money_embeddings():
    _, money = sentences()
    return matrix_table(money.E, money.tokens, _dims(money.E.shape[1]), money.decimals, "token")


@generated("real_numbers/money_mix_0.md")
def _money_mix():
    """Step 3 for "bank" in "bank of money", written out as the example pages write it."""
    _, money = sentences()
    return mix_lines(money.weights[0], money.E, money.output[0], money.tokens, money.decimals)


@generated("real_numbers/bank_two_meanings.md")
def _bank_two_meanings():
    """The weights and the output of "bank" (the first token) in the two sentences, one column a sentence."""
    both = sentences()
    river, money = both
    bank = river.tokens[0]
    words = [f"on {a}" if a == b else f"on {a} / {b}" for a, b in zip(river.tokens, money.tokens, strict=True)]
    rows = [f"weight {w}" for w in words] + [f"Output({bank}), {x}" for x in _dims(river.output.shape[1])]
    M = np.array([[*s.weights[0], *s.output[0]] for s in both]).T  # (n + d_model, 2)
    return matrix_table(M, rows, [" ".join(s.tokens) for s in both], river.decimals, bank)
