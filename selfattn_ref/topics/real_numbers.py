"""The computation of docs/real-numbers.md beyond its worked examples: "bank" in a sentence about money.

The page works "bank of river" (the example bank_of_river) and promises that in a sentence about
money the same three steps pull "bank" towards its other meaning. This module computes that
sentence, "bank of money", with the data defined once here: the tokens and embeddings of
bank_of_river with "river" replaced by "money", whose vector :data:`MONEY` has the feature x3
(which "bank" has and "river" lacks) instead of x1 (which "bank" shares with "river"), and x2,
which it shares with "of" as "river" does. Both sentences go through
:func:`selfattn_ref.examples.run`, the steps of every worked example: softmax(X·Xᵀ)·X, no
projections and no scaling.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples

SLUG = "bank_of_river"  # the sentence about the river, a worked example
RIVER = "river"  # its word that is replaced
MONEY_WORD = "money"
MONEY = np.array([0.0, 1.0, 1.0, 0.0])  # (d_model,): x2 as "river" has it, x3 where "river" has x1

__all__ = ["Sentence", "sentences"]


@dataclass(frozen=True)
class Sentence:
    """One sentence through the three steps."""

    tokens: tuple[str, ...]
    E: np.ndarray  # (n, d_model): the embeddings
    scores: np.ndarray  # (n, n): E·Eᵀ
    weights: np.ndarray  # (n, n): softmax of each row of the scores
    output: np.ndarray  # (n, d_model): weights·E
    decimals: int


def _sentence(ex: examples.Example) -> Sentence:
    st = examples.run(ex)
    return Sentence(ex.tokens, ex.E, st.scores, st.weights, st.output, ex.decimals)


@cache
def sentences() -> tuple[Sentence, Sentence]:
    """("bank of river", "bank of money"): the example bank_of_river, and the same example with
    :data:`MONEY_WORD` and its vector :data:`MONEY` (d_model,) in place of "river"."""
    river = examples.load(SLUG)
    if RIVER not in river.tokens or MONEY.shape != river.E.shape[1:]:
        raise ValueError(f"{SLUG} must have the token {RIVER!r} and vectors of {MONEY.size} features")
    k = river.tokens.index(RIVER)
    E = river.E.copy()  # (n, d_model)
    E[k] = MONEY
    tokens = tuple(MONEY_WORD if t == RIVER else t for t in river.tokens)
    money = dataclasses.replace(river, tokens=tokens, E=E, title=" ".join(tokens))
    return _sentence(river), _sentence(money)
