"""docs/mistakes.md and docs/mistakes-at-scale.md: what the pages "Common mistakes" and "Common mistakes at scale" may
quote, from selfattn_ref.topics.mistakes."""

from __future__ import annotations

import numpy as np

from publish.audit.quantities import Quantity, source
from selfattn_ref.topics import mistakes as m

TOKENS = ("The", "cat", "sat")


def _grid(prefix: str, M, rows, cols, proportion: bool = False) -> list[Quantity]:
    return [
        Quantity(f"{prefix}[{r}, {c}]", float(M[i, j]), proportion)
        for i, r in enumerate(rows)
        for j, c in enumerate(cols)
    ]


@source("mistakes")
def _quantities() -> list[Quantity]:
    q: list[Quantity] = []
    h = m.head_scale()
    q += _grid("mistakes head 1 weights, / √d_k", h.right[0], TOKENS, TOKENS, True)
    q += _grid("mistakes head 1 weights, / √d_model", h.wrong[0], TOKENS, TOKENS, True)
    for name, pair in (
        ("transposed mask", m.transposed_mask()),
        ("zeroed after the softmax", m.zeroed_not_renormalized()),
        ("softmax down the columns", m.wrong_axis()),
        ("0/1 mask added", m.mask_added()),
    ):
        q += _grid(f"mistakes {name}: right weights", pair.right, TOKENS, TOKENS, True)
        q += _grid(f"mistakes {name}: wrong weights", pair.wrong, TOKENS, TOKENS, True)
        q += [
            Quantity(f"mistakes {name}: row sum of the wrong weights[{t}]", float(s), True)
            for t, s in zip(TOKENS, pair.wrong.sum(axis=1), strict=True)
        ]
    q += [
        Quantity("largest x for which e^x is a finite float64", m.EXP_LIMIT_FLOAT64),
        Quantity("largest x for which e^x is a finite float32", m.EXP_LIMIT_FLOAT32),
    ]
    q += _grid("mistakes overflow: right weights", m.no_max_subtraction().right, TOKENS, TOKENS, True)
    q += _grid("mistakes overflow: scaled scores", m.big_scores(), TOKENS, TOKENS)
    s = m.shared_qk()
    q += _grid("mistakes shared W_Q: right scaled scores", s.right, TOKENS, TOKENS)
    q += _grid("mistakes shared W_Q: wrong scaled scores", s.wrong, TOKENS, TOKENS)
    p = m.padded_rows()
    dims = [f"x{k + 1}" for k in range(p.output.shape[1])]
    q += _grid("mistakes padded output", p.output, p.tokens, dims)
    q += [Quantity(f"mistakes pooled, real rows[{c}]", float(x)) for c, x in zip(dims, p.pooled_right, strict=True)]
    q += [Quantity(f"mistakes pooled, every row[{c}]", float(x)) for c, x in zip(dims, p.pooled_wrong, strict=True)]
    q += _padding_quantities()
    t = m.shared_heads_tiled()
    for h in range(t.right.shape[0]):
        q += _grid(f"mistakes shared heads: right weights, head {h + 1}", t.right[h], TOKENS, TOKENS, True)
        q += _grid(f"mistakes shared heads: wrong weights, head {h + 1}", t.wrong[h], TOKENS, TOKENS, True)
    u = m.online_not_rescaled()
    words = ("bank", "of", "river")
    q += _grid("mistakes unrescaled: right output", u.right, words, dims)
    q += _grid("mistakes unrescaled: wrong output", u.wrong, words, dims)
    r = m.rope_pairing()
    words = ("dog", "bites", "man")
    q += _grid("mistakes rotary pairing: right scores", r.right, words, words)
    q += _grid("mistakes rotary pairing: wrong scores", r.wrong, words, words)
    c = m.rope_cache_position()
    for side, w in (("position 2", c.right), ("position 3", c.off_by_one)):
        q += [
            Quantity(f"mistakes rotary in the cache: sat's weights, {side}[{t}]", float(x), True)
            for t, x in zip(TOKENS, w, strict=True)
        ]
    return q


def _padding_quantities() -> list[Quantity]:
    """The padded batch's weights with the padding mask on the wrong axis and read the wrong way round,
    sentence by sentence; a row that is NaN (no key left to read) is not a number to quote."""
    sentences = (("The", "cat", "sat"), ("The", "cat", "[PAD]"))
    q: list[Quantity] = []
    for name, pair in (
        ("padding mask on the queries' axis", m.padding_axis()),
        ("key_padding_mask", m.inverted_padding()),
    ):
        for side in ("right", "wrong"):
            for b, tokens in enumerate(sentences):
                W = getattr(pair, side)[b]
                finite = [i for i in range(len(tokens)) if np.isfinite(W[i]).all()]
                q += _grid(
                    f"mistakes {name}: {side} weights of '{' '.join(tokens)}'",
                    W[finite],
                    [tokens[i] for i in finite],
                    tokens,
                    True,
                )
    return q
