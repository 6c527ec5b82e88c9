"""docs/multi-head.md: "The cat sat" with two heads of width 2, and its tables.

The embeddings and W_Q = W_K = W_V come from the example the_cat_sat_two_heads (a matrix
that regroups the features: head 1 gets x1 and x3, head 2 gets x2 and x4). The output
projection W_O is the identity, so the output is the two heads' outputs side by side.
Everything is computed by selfattn_ref.multi_head_attention and the package's functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from selfattn_ref import examples
from selfattn_ref.attention import mix, project, scores
from selfattn_ref.multihead import multi_head_attention

from ..fmt import cell, is_integral, num
from ..quantities import Quantity, source
from ..tables import generated, matrix_table, weights_table

SLUG = "the_cat_sat_two_heads"
NUM_HEADS = 2
W_O = np.eye(4)  # the output projection: the identity, so that the output shows each head's part


@dataclass(frozen=True)
class Heads:
    tokens: tuple[str, ...]
    d_head: int
    Q: tuple[np.ndarray, ...]  # per head, (n, d_head): columns h·d_head .. (h+1)·d_head - 1 of E·W_Q
    K: tuple[np.ndarray, ...]
    V: tuple[np.ndarray, ...]
    scaled: np.ndarray  # (h, n, n): Q_h·K_hᵀ / √d_head
    weights: np.ndarray  # (h, n, n), from multi_head_attention
    head_outputs: tuple[np.ndarray, ...]  # per head, (n, d_head): weights_h · V_h
    output: np.ndarray  # (n, d_model), from multi_head_attention
    decimals: int


@cache
def heads() -> Heads:
    ex = examples.load(SLUG)
    output, weights = multi_head_attention(ex.E, ex.W_Q, ex.W_K, ex.W_V, W_O, NUM_HEADS)
    Q, K, V = project(ex.E, ex.W_Q, ex.W_K, ex.W_V)
    d_head = Q.shape[1] // NUM_HEADS
    cols = [slice(h * d_head, (h + 1) * d_head) for h in range(NUM_HEADS)]
    Qs, Ks, Vs = (tuple(M[:, c] for c in cols) for M in (Q, K, V))
    scaled = np.stack([scores(q, k) / np.sqrt(d_head) for q, k in zip(Qs, Ks, strict=True)])
    head_outputs = tuple(mix(w, v) for w, v in zip(weights, Vs, strict=True))
    return Heads(ex.tokens, d_head, Qs, Ks, Vs, scaled, weights, head_outputs, output, ex.decimals)


@cache
def identity_heads() -> np.ndarray:
    """(h, n, n) the weights of the two heads with W_Q = W_K = W_V = W_O = identity."""
    E = examples.load(SLUG).E
    eye = np.eye(E.shape[1])
    return multi_head_attention(E, eye, eye, eye, eye, NUM_HEADS)[1]


def _grid(prefix: str, M, rows, cols, proportion: bool = False) -> list[Quantity]:
    M = np.asarray(M)
    return [
        Quantity(f"{prefix}[{r}, {c}]", float(M[i, j]), proportion)
        for i, r in enumerate(rows)
        for j, c in enumerate(cols)
    ]


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
        q += _grid(f"{name} scaled scores", H.scaled[h], tok, tok)
        e = np.exp(H.scaled[h])
        q += _grid(f"{name} e^score", e, tok, tok)
        q += [Quantity(f"{name} row total of e^score[{t}]", float(s)) for t, s in zip(tok, e.sum(axis=1), strict=True)]
        q += _grid(f"{name} weights", H.weights[h], tok, tok, True)
        q += _grid(f"{name} output", H.head_outputs[h], tok, [f"c{k + 1}" for k in range(H.d_head)])
    q += _grid("multi_head output", H.output, tok, [f"x{k + 1}" for k in range(H.output.shape[1])])
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
    e = np.exp(row)
    lines = [
        "| " + " | ".join(["", *tok]) + " |",
        "|---|" + "---:|" * len(tok),
        "| " + " | ".join(["scaled score", *(cell(x, dec, is_integral(row)) for x in row)]) + " |",
        "| " + " | ".join(["e^scaled score", *(num(x, dec) for x in e)]) + " |",
        "| " + " | ".join([f"÷ total {num(e.sum(), dec)}", *(num(x, dec) for x in H.weights[0, 0])]) + " |",
    ]
    return "\n".join(lines) + "\n"


@generated("multi_head/output.md")
def _output():
    # Concat(heads)·W_O: its columns are c1..c4, head 1's c1, c2 then head 2's c3, c4 (with W_O = I).
    H = heads()
    return matrix_table(H.output, H.tokens, [f"c{k + 1}" for k in range(H.output.shape[1])], H.decimals, "output")
