"""docs/masking.md: what the page quotes beyond the steps of the_cat_sat_causal, and its tables.

The computations (the causal mask as a matrix to add, zeroing the weights after the softmax, a
padded batch) are :mod:`selfattn_ref.topics.masking`; this module only formats and registers.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref import examples
from selfattn_ref.topics.masking import SLUG, causal, padding, zeroing

from ...audit.quantities import Quantity, grid, source
from ...fmt import cell, is_integral, num
from ..figures import heatmap
from ..registry import generated
from ..tables import beside, matrix_table, weights_table


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


# --- what the page may quote ---------------------------------------------------------------


@source("masking")
def _quantities():
    z = zeroing()
    tok = list(z.tokens)
    dims = [f"x{k + 1}" for k in range(z.zeroed_output.shape[1])]
    q = grid("masking weights without a mask", z.unmasked, tok, tok, True)
    q += grid("masking zeroed weights", z.zeroed, tok, tok, True)
    q += [
        Quantity(f"masking row sum of zeroed weights[{t}]", float(s), True)
        for t, s in zip(tok, z.row_sums, strict=True)
    ]
    q += grid("masking zeroed weights divided by the row sum", z.renormalized, tok, tok, True)
    q += grid("masking output of the zeroed weights", z.zeroed_output, tok, dims)
    p = padding()
    for b, s in enumerate(p.sentences):
        label = " ".join(s)
        q += grid(f"masking padded '{label}' weights with the mask", p.weights[b], s, s, True)
        q += grid(f"masking padded '{label}' weights without the mask", p.weights_unmasked[b], s, s, True)
        q += grid(f"masking padded '{label}' output with the mask", p.output[b], s, dims)
        q += grid(f"masking padded '{label}' output without the mask", p.output_unmasked[b], s, dims)
    short = p.sentences[1][: p.lengths[1]]
    q += grid("masking 'The cat' alone weights", p.alone_weights, short, short, True)
    q += grid("masking 'The cat' alone output", p.alone_output, short, dims)
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
