"""docs/transformer-block.md: what the page may quote of one transformer block on "bank of river", and its tables.

The computation is :mod:`selfattn_ref.topics.transformer_block` (the example bank_of_river through
:func:`selfattn_ref.transformer_block`, post-norm, and the same block pre-norm); this module only
formats and registers.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref.topics.transformer_block import D_FF, NUM_HEADS, SEED, STD, block, pre_norm

from ...audit.quantities import Quantity, grid, source
from ..registry import generated
from ..tables import matrix_table

SOURCE = "transformer_block"
# The names the page's claims use for the two residual sums, and what the tables' corners say.
SUM_1, SUM_2 = "X + Y", "Z + FFN(Z)"
STATS = ("μ", "σ²")  # the columns the residual sums' tables add to each row


def dims(d: int) -> list[str]:
    """x1, x2, ...: the entries of a row of width d_model (Notation, "Counting")."""
    return [f"x{k + 1}" for k in range(d)]


def units(d_ff: int) -> list[str]:
    """f1, f2, ...: the entries of the feed-forward network's inner layer."""
    return [f"f{k + 1}" for k in range(d_ff)]


def _row_stats(prefix: str, tokens, mean, variance, root) -> list[Quantity]:
    out = []
    for i, t in enumerate(tokens):
        out += [
            Quantity(f"μ of {prefix}[{t}]", float(mean[i])),
            Quantity(f"σ² of {prefix}[{t}]", float(variance[i])),
            Quantity(f"σ² + ε of {prefix}[{t}]", float(variance[i] + block().weights.eps)),
            Quantity(f"√(σ² + ε) of {prefix}[{t}]", float(root[i])),
        ]
    return out


@source(SOURCE)
def _quantities():
    B = block()
    s, W = B.steps, B.weights
    tok = list(B.tokens)
    n, d = B.X.shape
    x, f = dims(d), units(D_FF)
    q = [
        Quantity("number of tokens", n),
        Quantity("d_model", d),
        Quantity("d_ff", D_FF),
        Quantity("number of heads", NUM_HEADS),
        Quantity("d_head", d // NUM_HEADS),
        Quantity("√d_head", float(np.sqrt(d // NUM_HEADS))),
        Quantity("ε", W.eps),
        Quantity("seed", SEED),
        Quantity("std of the random weights", STD),
        Quantity("negative entries of Z W_1 + b_1", int((s.hidden < 0).sum())),
    ]
    q += grid("X", B.X, tok, x)
    q += grid("weights", s.weights[0], tok, tok, proportion=True)
    q += grid("Y", s.attention, tok, x)
    q += grid(SUM_1, s.sum_1, tok, x)
    q += _row_stats(SUM_1, tok, B.mean_1, B.variance_1, B.root_1)
    deviation = s.sum_1 - B.mean_1[:, None]
    q += grid(f"deviation of {SUM_1}", deviation, tok, x)
    q += grid("Z", s.norm_1, tok, x)
    q += grid("W_1", W.W_1, x, f)
    q += [Quantity(f"b_1[{u}]", float(v)) for u, v in zip(f, W.b_1, strict=True)]
    q += grid("Z W_1 + b_1", s.hidden, tok, f)
    q += grid("max(0, Z W_1 + b_1)", s.relu, tok, f)
    q += grid("W_2", W.W_2, f, x)
    q += [Quantity(f"b_2[{u}]", float(v)) for u, v in zip(x, W.b_2, strict=True)]
    q += grid("FFN(Z)", s.ffn, tok, x)
    q += grid(SUM_2, s.sum_2, tok, x)
    q += _row_stats(SUM_2, tok, B.mean_2, B.variance_2, B.root_2)
    q += grid("out", s.output, tok, x)
    q += [Quantity(f"μ of out[{t}]", float(s.output[i].mean())) for i, t in enumerate(tok)]
    q += [Quantity(f"σ² of out[{t}]", float(s.output[i].var())) for i, t in enumerate(tok)]
    P = pre_norm()
    q += grid("pre-norm out", P.output, tok, x)
    q += [Quantity(f"μ of pre-norm out[{t}]", float(P.output[i].mean())) for i, t in enumerate(tok)]
    q += [Quantity(f"σ² of pre-norm out[{t}]", float(P.output[i].var())) for i, t in enumerate(tok)]
    return q


# --- tables --------------------------------------------------------------------------------


def _with_stats(M, mean, variance) -> np.ndarray:
    return np.column_stack([M, mean, variance])  # (n, d_model + 2)


def compact(table: str) -> str:
    """A table of six or more columns of numbers, with cells as wide as their content (extra.css,
    ``.compact-table``), so that it fits a laptop's text column instead of scrolling."""
    return f'<div class="compact-table" markdown>\n\n{table}\n</div>\n'


@generated("transformer_block/attention.md")
def _attention():
    B = block()
    return matrix_table(B.steps.attention, B.tokens, dims(B.X.shape[1]), B.decimals, "Y")


@generated("transformer_block/sum_1.md")
def _sum_1():
    B = block()
    M = _with_stats(B.steps.sum_1, B.mean_1, B.variance_1)
    return compact(matrix_table(M, B.tokens, [*dims(B.X.shape[1]), *STATS], B.decimals, SUM_1))


@generated("transformer_block/norm_1.md")
def _norm_1():
    B = block()
    return matrix_table(B.steps.norm_1, B.tokens, dims(B.X.shape[1]), B.decimals, "Z")


@generated("transformer_block/W_1.md")
def _W_1():
    B = block()
    W = B.weights
    M = np.vstack([W.W_1, W.b_1])  # (d_model + 1, d_ff): b_1 as a last row
    return compact(matrix_table(M, [*dims(W.W_1.shape[0]), "b_1"], units(D_FF), B.decimals, "W_1"))


@generated("transformer_block/hidden.md")
def _hidden():
    B = block()
    return compact(matrix_table(B.steps.hidden, B.tokens, units(D_FF), B.decimals, "Z·W_1 + b_1"))


@generated("transformer_block/relu.md")
def _relu():
    B = block()
    return compact(matrix_table(B.steps.relu, B.tokens, units(D_FF), B.decimals, "max(0, ·)"))


@generated("transformer_block/W_2.md")
def _W_2():
    B = block()
    W = B.weights
    M = np.vstack([W.W_2, W.b_2])  # (d_ff + 1, d_model): b_2 as a last row
    return matrix_table(M, [*units(D_FF), "b_2"], dims(W.W_2.shape[1]), B.decimals, "W_2")


@generated("transformer_block/ffn.md")
def _ffn():
    B = block()
    return matrix_table(B.steps.ffn, B.tokens, dims(B.X.shape[1]), B.decimals, "FFN(Z)")


@generated("transformer_block/sum_2.md")
def _sum_2():
    B = block()
    M = _with_stats(B.steps.sum_2, B.mean_2, B.variance_2)
    return compact(matrix_table(M, B.tokens, [*dims(B.X.shape[1]), *STATS], B.decimals, SUM_2))


def _out_table(M, tokens, decimals: int, corner: str) -> str:
    stats = np.column_stack([M, M.mean(axis=1), M.var(axis=1)])  # (n, d_model + 2)
    return matrix_table(stats, tokens, [*dims(M.shape[1]), "μ", "σ²"], decimals, corner)


@generated("transformer_block/output.md")
def _output():
    B = block()
    return compact(_out_table(B.steps.output, B.tokens, B.decimals, "out"))


@generated("transformer_block/pre_norm.md")
def _pre_norm():
    B = block()
    return compact(_out_table(pre_norm().output, B.tokens, B.decimals, "pre-norm out"))
