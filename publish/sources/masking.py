"""docs/masking.md: what the page quotes beyond the steps of the_cat_sat_causal, and its tables.

Three computations, each made of the package's functions:

- the causal mask as the matrix M that is added to the scaled scores (0 or -inf);
- the alternative the page rules out: softmax first, then set the weights of later keys to 0
  (and, or not, divide each row by its new sum);
- padding: "The cat sat" and "The cat" in one batch, the second padded with a pad token whose
  embedding is all zeros, with and without the padding mask, and "The cat" on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from selfattn_ref import examples
from selfattn_ref.attention import mix, scaled_dot_product_attention, softmax
from selfattn_ref.masks import causal_mask, padding_mask

from ..figures import heatmap
from ..fmt import cell, is_integral, num
from ..quantities import Quantity, source
from ..registry import generated
from ..tables import beside, matrix_table, weights_table

SLUG = "the_cat_sat_causal"
PAD = "[PAD]"  # BERT's name for it
PAD_VECTOR = np.zeros(4)  # the pad token's embedding (nn.Embedding starts its padding_idx row at 0)


def _cells(M, decimals: int) -> list[list[str]]:
    """Table cells, "−∞" for minus infinity, integers as integers."""
    M = np.asarray(M, dtype=float)
    finite = M[np.isfinite(M)]
    integral = is_integral(finite)
    return [["−∞" if np.isneginf(x) else cell(x, decimals, integral) for x in row] for row in M]


def _table(M, rows, cols, decimals: int, corner: str) -> str:
    lines = ["| " + " | ".join([corner, *cols]) + " |", "|" + "---|" + "---:|" * len(cols)]
    for label, row in zip(rows, _cells(M, decimals), strict=True):
        lines.append("| " + " | ".join([f"**{label}**", *row]) + " |")
    return "\n".join(lines) + "\n"


# --- the causal mask as a matrix to add -------------------------------------------------------


@dataclass(frozen=True)
class Causal:
    tokens: tuple[str, ...]
    M: np.ndarray  # (n, n): 0 where query i may attend to key j, -inf where it may not
    masked: np.ndarray  # (n, n): scaled scores + M
    weights: np.ndarray  # (n, n)
    output: np.ndarray  # (n, d_v)
    decimals: int


@cache
def causal() -> Causal:
    ex = examples.load(SLUG)
    st = examples.run(ex)
    M = np.where(causal_mask(len(ex.tokens)), 0.0, -np.inf)
    return Causal(ex.tokens, M, st.scaled + M, st.weights, st.output, ex.decimals)


# --- zeroing the weights after the softmax ---------------------------------------------------


@dataclass(frozen=True)
class Zeroing:
    tokens: tuple[str, ...]
    unmasked: np.ndarray  # (n, n) softmax of the scaled scores, no mask
    zeroed: np.ndarray  # (n, n) the same with the weights of later keys set to 0
    row_sums: np.ndarray  # (n,) what each zeroed row adds up to
    renormalized: np.ndarray  # (n, n) each zeroed row divided by its sum
    zeroed_output: np.ndarray  # (n, d_v) the zeroed weights times the values


@cache
def zeroing() -> Zeroing:
    ex = examples.load(SLUG)
    st = examples.run(ex)
    unmasked = softmax(st.scaled)
    zeroed = np.where(st.mask, unmasked, 0.0)
    row_sums = zeroed.sum(axis=1)
    return Zeroing(ex.tokens, unmasked, zeroed, row_sums, zeroed / row_sums[:, None], mix(zeroed, st.V))


# --- padding -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Padding:
    sentences: tuple[tuple[str, ...], ...]  # each padded to the same length with PAD
    lengths: tuple[int, ...]  # real tokens per sentence
    X: np.ndarray  # (batch, n, d) the padded batch; identity projections, so Q = K = V = X
    mask: np.ndarray  # (batch, 1, n) True where the key is a real token
    output: np.ndarray  # (batch, n, d) with the padding mask
    weights: np.ndarray  # (batch, n, n)
    output_unmasked: np.ndarray  # (batch, n, d) without it
    weights_unmasked: np.ndarray  # (batch, n, n)
    alone_output: np.ndarray  # (length, d) the short sentence on its own, no padding
    alone_weights: np.ndarray  # (length, length)
    difference: float  # largest |output - alone| over the short sentence's real tokens, with the mask
    difference_unmasked: float  # the same without the mask


@cache
def padding() -> Padding:
    ex = examples.load("the_cat_sat")
    vec = dict(zip(ex.tokens, ex.E, strict=True)) | {PAD: PAD_VECTOR}
    short = ex.tokens[:2]  # "The cat"
    n = len(ex.tokens)
    sentences = (ex.tokens, (*short, *[PAD] * (n - len(short))))
    lengths = (n, len(short))
    X = np.array([[vec[t] for t in s] for s in sentences])  # (2, 3, 4)
    mask = padding_mask(list(lengths), n)  # (2, 1, 3)
    output, weights = scaled_dot_product_attention(X, X, X, mask=mask)
    output_u, weights_u = scaled_dot_product_attention(X, X, X)
    Xs = X[1, : len(short)]
    alone_output, alone_weights = scaled_dot_product_attention(Xs, Xs, Xs)
    k = len(short)
    return Padding(
        sentences,
        lengths,
        X,
        mask,
        output,
        weights,
        output_u,
        weights_u,
        alone_output,
        alone_weights,
        float(np.abs(output[1, :k] - alone_output).max()),
        float(np.abs(output_u[1, :k] - alone_output).max()),
    )


# --- what the page may quote ---------------------------------------------------------------


def _grid(prefix: str, M, rows, cols, proportion: bool = False) -> list[Quantity]:
    M = np.asarray(M)
    return [
        Quantity(f"{prefix}[{r}, {c}]", float(M[i, j]), proportion)
        for i, r in enumerate(rows)
        for j, c in enumerate(cols)
    ]


@source("masking")
def _quantities():
    z = zeroing()
    tok = list(z.tokens)
    dims = [f"x{k + 1}" for k in range(z.zeroed_output.shape[1])]
    q = _grid("masking weights without a mask", z.unmasked, tok, tok, True)
    q += _grid("masking zeroed weights", z.zeroed, tok, tok, True)
    q += [
        Quantity(f"masking row sum of zeroed weights[{t}]", float(s), True)
        for t, s in zip(tok, z.row_sums, strict=True)
    ]
    q += _grid("masking zeroed weights divided by the row sum", z.renormalized, tok, tok, True)
    q += _grid("masking output of the zeroed weights", z.zeroed_output, tok, dims)
    p = padding()
    for b, s in enumerate(p.sentences):
        label = " ".join(s)
        q += _grid(f"masking padded '{label}' weights with the mask", p.weights[b], s, s, True)
        q += _grid(f"masking padded '{label}' weights without the mask", p.weights_unmasked[b], s, s, True)
        q += _grid(f"masking padded '{label}' output with the mask", p.output[b], s, dims)
        q += _grid(f"masking padded '{label}' output without the mask", p.output_unmasked[b], s, dims)
    short = p.sentences[1][: p.lengths[1]]
    q += _grid("masking 'The cat' alone weights", p.alone_weights, short, short, True)
    q += _grid("masking 'The cat' alone output", p.alone_output, short, dims)
    q += [
        Quantity("masking largest difference from 'The cat' alone, with the mask", p.difference),
        Quantity("masking largest difference from 'The cat' alone, without the mask", p.difference_unmasked),
    ]
    return q


# --- tables --------------------------------------------------------------------------------


@generated("masking/M.md")
def _m_table():
    c = causal()
    return _table(c.M, c.tokens, c.tokens, c.decimals, "query ↓ key →")


@generated("masking/masked_scores.md")
def _masked_table():
    c = causal()
    return _table(c.masked, c.tokens, c.tokens, c.decimals, "query ↓ key →")


@generated("masking/zeroed.md")
def _zeroed_table():
    z = zeroing()
    dec = examples.load(SLUG).decimals
    cols = [*z.tokens, "row sum"]
    M = np.column_stack([z.zeroed, z.row_sums])
    lines = ["| " + " | ".join(["query ↓ key →", *cols]) + " |", "|" + "---|" + "---:|" * len(cols)]
    for t, row in zip(z.tokens, M, strict=True):
        lines.append("| " + " | ".join([f"**{t}**", *(num(x, dec) for x in row)]) + " |")
    figure = heatmap(
        z.zeroed, z.tokens, z.tokens, dec, title="weights of “The cat sat” with later keys set to 0 after the softmax"
    )
    return beside("\n".join(lines) + "\n", figure)


@generated("masking/padding_mask.md")
def _padding_mask_table():
    p = padding()
    rows = [" ".join(s) for s in p.sentences]
    return matrix_table(
        p.mask[:, 0, :].astype(float), rows, [f"key {j + 1}" for j in range(p.X.shape[1])], 0, "sentence"
    )


@generated("masking/padded_weights.md")
def _padded_weights_table():
    p = padding()
    s = p.sentences[1]
    title = f"attention weights of “{' '.join(s)}”, with the padding mask"
    return weights_table(p.weights[1], s, s, examples.load(SLUG).decimals, title)


@generated("masking/padded_weights_unmasked.md")
def _padded_weights_unmasked_table():
    p = padding()
    s = p.sentences[1]
    title = f"attention weights of “{' '.join(s)}”, without the padding mask"
    return weights_table(p.weights_unmasked[1], s, s, examples.load(SLUG).decimals, title)
