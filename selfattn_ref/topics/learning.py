"""The numbers of docs/learning.md: one gradient step on "The cat sat", in plain numbers.

First, :func:`two_class`: the cross-entropy of a classifier with two answers (those of the
word-order experiment of the page on positional encoding), for two logits chosen by hand.

Then the toy: the worked example ``learned`` ("The cat sat" with the seeded stand-in weights of the
page on learned weights) asks its last word, "sat", which word did the sitting, and reads the
answer from sat's row of attention weights: a probability for each of the three words. The right
answer is "cat". :func:`toy` computes, with :mod:`selfattn_ref.learning`,

- the loss: the cross-entropy of that row for "cat", -ln of the weight sat gives cat;
- the gradient of the loss for W_Q, by backpropagation, and for one entry of W_Q by a finite
  difference, with the two losses it is made of;
- one step of gradient descent on W_Q with learning rate :data:`LR`, and the attention weights and
  the loss after it.

W_K (and W_V, which the toy does not use) stay as they are. NumPy, float64; computed once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..attention import scaled_dot_product_attention, softmax
from ..learning import attention_gradients, attention_loss, cross_entropy, finite_difference, gradient_step

CLASSES = ("the animal bites", "the person bites")  # the two answers of the two-class toy
LOGITS = (2.0, 0.0)  # the classifier's logits for them, chosen by hand; the first answer is the right one

SLUG = "learned"
QUERY = "sat"  # the word whose attention row is the answer
ANSWER = "cat"  # the right answer: the word that sat
ENTRY = (0, 2)  # the entry of W_Q whose gradient the page measures by hand: row x1, column c3
DELTA = 0.01  # how far that entry is nudged each way
LR = 2.0  # the learning rate of the one step, large enough for one step to change the answer


@dataclass(frozen=True)
class TwoClass:
    """The two-class toy: a classifier's logits for :data:`CLASSES`, their softmax, and the
    cross-entropy for each answer being the right one, and for a 50/50 answer."""

    classes: tuple[str, str]
    logits: np.ndarray  # (2,)
    probabilities: np.ndarray  # (2,): the softmax of the logits
    loss: np.ndarray  # (2,): loss[c] is the cross-entropy if class c is the right answer, -ln probabilities[c]
    loss_even: float  # the cross-entropy of equal logits, whichever is right: ln 2


@cache
def two_class() -> TwoClass:
    """The two-class toy (see :class:`TwoClass`), with :func:`selfattn_ref.learning.cross_entropy`."""
    logits = np.array(LOGITS)
    return TwoClass(
        classes=CLASSES,
        logits=logits,
        probabilities=softmax(logits),
        loss=np.array([cross_entropy(logits, c) for c in range(len(CLASSES))]),
        loss_even=cross_entropy(np.zeros(len(CLASSES)), 0),
    )


@dataclass(frozen=True)
class Toy:
    """Everything the page quotes, before and after one step on W_Q."""

    tokens: tuple[str, ...]
    query: int  # index of QUERY (from 0)
    answer: int  # index of ANSWER (from 0)
    W_Q: np.ndarray  # (d_model, d_k), before the step
    weights: np.ndarray  # (n, n), before the step
    loss: float  # -ln weights[query, answer]
    gradient: np.ndarray  # (d_model, d_k): the gradient of the loss for W_Q, by backpropagation
    entry: tuple[int, int]  # ENTRY
    loss_up: float  # the loss with W_Q[entry] + DELTA
    loss_down: float  # the loss with W_Q[entry] - DELTA
    finite_difference: float  # (loss_up - loss_down) / (2 DELTA)
    W_Q_after: np.ndarray  # (d_model, d_k): W_Q - LR · gradient
    weights_after: np.ndarray  # (n, n)
    loss_after: float


def nudged(W_Q: np.ndarray, entry: tuple[int, int], by: float) -> np.ndarray:
    """A copy of W_Q (d_model, d_k) with ``W_Q[entry]`` changed by ``by``."""
    W = np.array(W_Q, dtype=np.float64)
    W[entry] += by
    return W


@cache
def toy() -> Toy:
    """The page's toy, computed once (see the module's docstring)."""
    ex = examples.load(SLUG)
    X, W_K = ex.E, ex.W_K
    i, j = ex.tokens.index(QUERY), ex.tokens.index(ANSWER)

    def loss(W_Q) -> float:
        return attention_loss(X, W_Q, W_K, i, j)

    def weights(W_Q) -> np.ndarray:
        return scaled_dot_product_attention(X @ W_Q, X @ W_K, X)[1]  # (n, n); the values do not matter

    gradient = attention_gradients(X, ex.W_Q, W_K, i, j)["W_Q"]
    up, down = loss(nudged(ex.W_Q, ENTRY, DELTA)), loss(nudged(ex.W_Q, ENTRY, -DELTA))
    after = gradient_step(ex.W_Q, gradient, LR)
    return Toy(
        tokens=ex.tokens,
        query=i,
        answer=j,
        W_Q=ex.W_Q,
        weights=weights(ex.W_Q),
        loss=loss(ex.W_Q),
        gradient=gradient,
        entry=ENTRY,
        loss_up=up,
        loss_down=down,
        finite_difference=(up - down) / (2 * DELTA),
        W_Q_after=after,
        weights_after=weights(after),
        loss_after=loss(after),
    )


def finite_difference_gradient() -> np.ndarray:
    """The gradient of the toy's loss for every entry of W_Q (d_model, d_k) by finite differences
    (:func:`selfattn_ref.learning.finite_difference`, δ = DELTA): 32 losses, no backpropagation."""
    ex = examples.load(SLUG)
    i, j = ex.tokens.index(QUERY), ex.tokens.index(ANSWER)
    return finite_difference(lambda W: attention_loss(ex.E, W, ex.W_K, i, j), ex.W_Q, DELTA)
