"""docs/multi-head.md: what the page may quote of "The cat sat" with two heads of width 2, and its tables.

The computation is :mod:`selfattn_ref.topics.multi_head` (the example the_cat_sat_two_heads
through :func:`selfattn_ref.multi_head_attention`, head by head); this module only formats and
registers.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref.attention import softmax_terms
from selfattn_ref.topics.multi_head import MEAN, NUM_HEADS, SEED, STD, heads, mixed

from ...audit.quantities import Quantity, grid, source
from ...fmt import cell, is_integral, num
from ..registry import generated
from ..tables import matrix_table, weights_table


@source("multi_head")
def _quantities():
    H = heads()
    tok = list(H.tokens)
    q = [
        Quantity("multi_head number of heads", NUM_HEADS),
        Quantity("multi_head d_head", H.d_head),
        Quantity("multi_head √d_head", float(np.sqrt(H.d_head))),
        Quantity("multi_head 1/√d_head", float(1 / np.sqrt(H.d_head))),
    ]
    for h in range(NUM_HEADS):
        name = f"multi_head head {h + 1}"
        q += grid(f"{name} scaled scores", H.scaled[h], tok, tok)
        e, totals = softmax_terms(H.scaled[h])
        q += grid(f"{name} e^score", e, tok, tok)
        q += [Quantity(f"{name} row total of e^score[{t}]", float(s)) for t, s in zip(tok, totals, strict=True)]
        q += grid(f"{name} weights", H.weights[h], tok, tok, True)
        q += grid(f"{name} output", H.head_outputs[h], tok, [f"c{k + 1}" for k in range(H.d_head)])
    q += grid("multi_head output", H.output, tok, [f"x{k + 1}" for k in range(H.output.shape[1])])
    # The output projection that mixes the heads (the seeded W_O): rows and columns c1, c2, ...
    M = mixed()
    cols = [f"c{k + 1}" for k in range(M.output.shape[1])]
    q += [
        Quantity("multi_head d_model", M.W_O.shape[0]),
        Quantity("multi_head seed of the seeded W_O", SEED),
        Quantity("multi_head mean of the seeded W_O", MEAN),
        Quantity("multi_head std of the seeded W_O", STD),
    ]
    q += grid("multi_head seeded W_O", M.W_O, cols, cols)
    q += grid("multi_head heads side by side", M.concat, tok, cols)
    for h in range(NUM_HEADS):
        q += grid(f"multi_head head {h + 1}'s part of the output with the seeded W_O", M.parts[h], tok, cols)
    q += grid("multi_head output with the seeded W_O", M.output, tok, cols)
    return q


# --- tables --------------------------------------------------------------------------------


def _head_cols(h: int, d_head: int) -> list[str]:
    return [f"c{h * d_head + k + 1}" for k in range(d_head)]


for _h in range(NUM_HEADS):

    @generated(f"multi_head/head_{_h + 1}_qkv.md")
    def _qkv(h=_h):
        H = heads()
        return matrix_table(H.Q[h], H.tokens, _head_cols(h, H.d_head), H.decimals, f"head {h + 1}")

    @generated(f"multi_head/head_{_h + 1}_scaled.md")
    def _scaled(h=_h):
        H = heads()
        return matrix_table(H.scaled[h], H.tokens, H.tokens, H.decimals, "query ↓ key →")

    @generated(f"multi_head/head_{_h + 1}_weights.md")
    def _weights(h=_h):
        H = heads()
        return weights_table(H.weights[h], H.tokens, H.tokens, H.decimals, f"attention weights of head {h + 1}")

    @generated(f"multi_head/head_{_h + 1}_output.md")
    def _head_output(h=_h):
        H = heads()
        return matrix_table(H.head_outputs[h], H.tokens, _head_cols(h, H.d_head), H.decimals, f"head {h + 1}")


@generated("multi_head/head_1_softmax_0.md")
def _softmax_row():
    """Head 1, the row of the first token, written out as the example pages do."""
    H = heads()
    tok, dec = list(H.tokens), H.decimals
    row = H.scaled[0, 0]
    e, total = softmax_terms(row)
    lines = [
        "| " + " | ".join(["", *tok]) + " |",
        "|---|" + "---:|" * len(tok),
        "| " + " | ".join(["scaled score", *(cell(x, dec, is_integral(row)) for x in row)]) + " |",
        "| " + " | ".join(["e^scaled score", *(num(x, dec) for x in e)]) + " |",
        "| " + " | ".join([f"÷ total {num(total, dec)}", *(num(x, dec) for x in H.weights[0, 0])]) + " |",
    ]
    return "\n".join(lines) + "\n"


@generated("multi_head/output.md")
def _output():
    # Concat(heads)·W_O: its columns are c1..c4, head 1's c1, c2 then head 2's c3, c4 (with W_O = I).
    H = heads()
    return matrix_table(H.output, H.tokens, [f"c{k + 1}" for k in range(H.output.shape[1])], H.decimals, "output")


@generated("multi_head/seeded_W_O.md")
def _seeded_w_o():
    """The seeded W_O, its rows named by the head whose column of the heads side by side they multiply."""
    M, dec = mixed(), heads().decimals
    d = M.W_O.shape[0]
    d_head = d // NUM_HEADS
    rows = [f"c{k + 1} (head {k // d_head + 1})" for k in range(d)]
    return matrix_table(M.W_O, rows, [f"c{k + 1}" for k in range(d)], dec)


@generated("multi_head/output_seeded_W_O.md")
def _output_seeded_w_o():
    M, H = mixed(), heads()
    return matrix_table(M.output, H.tokens, [f"c{k + 1}" for k in range(M.output.shape[1])], H.decimals, "output")
