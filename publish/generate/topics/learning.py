"""docs/learning.md: one step of training on "The cat sat", what the page may quote and its tables.

The numbers are :func:`selfattn_ref.topics.learning.toy`'s (NumPy: the gradient by backpropagation
written out, which the tests hold equal to PyTorch's autograd and to finite differences, so that the
build never imports PyTorch). This module only formats and registers.
"""

from __future__ import annotations

import math

from selfattn_ref.topics.learning import ANSWER, DELTA, LR, QUERY, toy, two_class

from ...audit.quantities import Quantity, grid, source
from ...fmt import num
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table, weights_table

DECIMALS = 4  # as the example "learned"
LOSS_DECIMALS = 3
DIMS = ["x1", "x2", "x3", "x4"]  # the rows of W_Q: one per entry of an embedding
COLS = ["c1", "c2", "c3", "c4"]  # its columns: one per entry of a query


def entry_name() -> str:
    """The entry of W_Q that the page nudges by hand, as the tables name it: "x1, c3"."""
    r, c = toy().entry
    return f"{DIMS[r]}, {COLS[c]}"


@source("learning")
def _quantities() -> list[Quantity]:
    t = toy()
    tok = list(t.tokens)
    e = entry_name()
    r, c = t.entry
    q = grid("weights", t.weights, tok, tok, proportion=True)
    q += grid("weights after the step", t.weights_after, tok, tok, proportion=True)
    q += grid("W_Q", t.W_Q, DIMS, COLS)
    q += grid("gradient", t.gradient, DIMS, COLS)
    q += grid("W_Q after the step", t.W_Q_after, DIMS, COLS)
    two = two_class()
    for k, name in enumerate(two.classes):  # (not c: that is the entry's column)
        q += [
            Quantity(f"two classes: logit of {name}", two.logits[k]),
            Quantity(f"two classes: probability of {name}", two.probabilities[k], proportion=True),
            Quantity(f"two classes: loss if {name} is right", two.loss[k]),
        ]
    q += [
        Quantity("two classes: number of answers", len(two.classes)),
        Quantity("two classes: loss of a 50/50 answer, ln 2", two.loss_even),
        Quantity("loss", t.loss),
        Quantity("loss after the step", t.loss_after),
        Quantity("δ", DELTA),
        Quantity("2δ", 2 * DELTA),
        Quantity(f"W_Q[{e}] + δ", t.W_Q[r, c] + DELTA),
        Quantity(f"W_Q[{e}] - δ", t.W_Q[r, c] - DELTA),
        Quantity(f"loss with W_Q[{e}] + δ", t.loss_up),
        Quantity(f"loss with W_Q[{e}] - δ", t.loss_down),
        Quantity("difference of the two losses", t.loss_up - t.loss_down),
        Quantity("finite difference", t.finite_difference),
        Quantity("learning rate η", LR),
        Quantity(f"η × gradient[{e}]", LR * t.gradient[r, c]),
        Quantity("number of words", len(tok)),
        Quantity("loss of three equal weights, ln 3", math.log(len(tok))),
        Quantity("one third", 1 / 3, proportion=True),
        Quantity("one half", 1 / 2, proportion=True),
    ]
    return q


@generated("learning/two_class.md")
def _two_class() -> str:
    """The two-class toy: each answer's logit, probability, and the loss if it is the right one."""
    two = two_class()
    lines = ["| answer | logit | probability (softmax) | loss if it is the right answer |", "|---|---:|---:|---:|"]
    for c, name in enumerate(two.classes):
        cells = f"{num(two.logits[c], 1)} | {num(two.probabilities[c], DECIMALS)} | {num(two.loss[c], LOSS_DECIMALS)}"
        lines.append(f"| “{name}” | {cells} |")
    return "\n".join(lines) + "\n"


@generated("learning/weights.md")
def _weights() -> str:
    t = toy()
    tok = list(t.tokens)
    return weights_table(t.weights, tok, tok, DECIMALS, "attention weights of “The cat sat” before the step")


@generated("learning/weights_after.md")
def _weights_after() -> str:
    t = toy()
    tok = list(t.tokens)
    title = f"attention weights of “The cat sat” after one step on W_Q (η = {LR:g})"
    return weights_table(t.weights_after, tok, tok, DECIMALS, title)


@generated("learning/gradient.md")
def _gradient() -> str:
    return matrix_table(toy().gradient, DIMS, COLS, DECIMALS, "∂L/∂W_Q")


@generated("learning/W_Q_after.md")
def _W_Q_after() -> str:
    return matrix_table(toy().W_Q_after, DIMS, COLS, DECIMALS, "W_Q after")


@generated("learning/answer.md")
def _answer() -> str:
    """sat's row before and after the step, side by side: the answer, and the loss."""
    t = toy()
    i = t.query
    lines = [f"| {QUERY}'s attention weight on | before the step | after the step |", "|---|---:|---:|"]
    for j, token in enumerate(t.tokens):
        label = f"**{token}** (the right answer)" if token == ANSWER else f"**{token}**"
        lines.append(f"| {label} | {num(t.weights[i, j], DECIMALS)} | {num(t.weights_after[i, j], DECIMALS)} |")
    losses = f"{num(t.loss, LOSS_DECIMALS)} | {num(t.loss_after, LOSS_DECIMALS)}"
    lines.append(f"| **loss**, -ln of the weight on {ANSWER} | {losses} |")
    return "\n".join(lines) + "\n"


@topic_values("learning")
def _exercise_values() -> dict:
    """What the page's exercises ask for (docs/exercises/learning.toml), and known mistakes."""
    t = toy()
    r, c = t.entry
    i, j = t.query, t.answer
    return {
        "weight": t.weights[i, j],
        "weight_on_itself": t.weights[i, i],
        "loss": t.loss,
        "loss_of_itself": -math.log(t.weights[i, i]),
        "log10_loss": -math.log10(t.weights[i, j]),
        "delta": DELTA,
        "loss_up": t.loss_up,
        "loss_down": t.loss_down,
        "finite_difference": t.finite_difference,
        "over_delta": (t.loss_up - t.loss_down) / DELTA,
        "entry": t.W_Q[r, c],
        "gradient": t.gradient[r, c],
        "lr": LR,
        "entry_after": t.W_Q_after[r, c],
        "entry_uphill": t.W_Q[r, c] + LR * t.gradient[r, c],
        "thirds": math.log(3),
        "one_third": 1 / 3,
    }
