"""What the numbers audit may quote: every quantity the code computes for a source.

A source is a worked example's slug (its embeddings, projections, scores, weights,
outputs and the arithmetic in between) or a name registered with :func:`source` for a
computation that is not an example. Each quantity carries a name, so that a number
that fails the audit can be told what the code gives instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np

from selfattn_ref import examples
from selfattn_ref.attention import softmax_terms


@dataclass(frozen=True)
class Quantity:
    name: str  # e.g. "bank_of_river weights[bank, river]"
    value: float
    proportion: bool = False  # a share of 1 that prose may also quote as a percentage


_SOURCES: dict[str, Callable[[], Iterable[Quantity]]] = {}


def source(name: str):
    """Register a function returning the quantities of a non-example source."""

    def register(fn):
        _SOURCES[name] = fn
        return fn

    return register


def _load_sources() -> None:
    from ..generate.topics import load_all

    load_all()


def known_sources() -> list[str]:
    _load_sources()
    return sorted(set(examples.available()) | set(_SOURCES))


def grid(prefix: str, M, rows, cols, proportion: bool = False) -> list[Quantity]:
    """One quantity per entry of the matrix M (len(rows), len(cols)), named ``prefix[row, col]``."""
    M = np.asarray(M)
    if M.shape != (len(rows), len(cols)):
        raise ValueError(f"{prefix}: M has shape {M.shape} but there are {len(rows)} row and {len(cols)} column labels")
    return [
        Quantity(f"{prefix}[{r}, {c}]", float(M[i, j]), proportion)
        for i, r in enumerate(rows)
        for j, c in enumerate(cols)
    ]


def example_quantities(slug: str) -> list[Quantity]:
    ex = examples.load(slug)
    st = examples.run(ex)
    tok = list(ex.tokens)
    n, d = ex.E.shape
    dims = [f"x{k + 1}" for k in range(d)]
    q: list[Quantity] = [Quantity(f"{slug} number of tokens", n), Quantity(f"{slug} embedding width", d)]
    q += grid(f"{slug} E", ex.E, tok, dims)
    if ex.projections != "none":
        for name in ("W_Q", "W_K", "W_V"):
            W = getattr(ex, name)
            q += grid(f"{slug} {name}", W, dims, [f"c{k + 1}" for k in range(W.shape[1])])
        for name in ("Q", "K", "V"):
            M = getattr(st, name)
            q += grid(f"{slug} {name}", M, tok, [f"c{k + 1}" for k in range(M.shape[1])])
    if ex.projections == "random":
        q.append(Quantity(f"{slug} std of the random weights", ex.std))
    d_k = st.Q.shape[1]
    q += [
        Quantity(f"{slug} d_k", d_k),
        Quantity(f"{slug} √d_k", float(np.sqrt(d_k))),
        Quantity(f"{slug} 1/√d_k", float(1 / np.sqrt(d_k))),
    ]
    if st.heads:  # several heads: each head's steps, named "head 1 weights[The, cat]" and so on
        d_head = st.heads[0].Q.shape[1]
        q += [
            Quantity(f"{slug} number of heads", len(st.heads)),
            Quantity(f"{slug} d_head", d_head),
            Quantity(f"{slug} √d_head", float(np.sqrt(d_head))),
            Quantity(f"{slug} 1/√d_head", float(1 / np.sqrt(d_head))),
        ]
        for k, head in enumerate(st.heads):
            cols = [f"c{k * head.V.shape[1] + c + 1}" for c in range(head.V.shape[1])]
            q += _attention_quantities(f"{slug} head {k + 1}", head, tok, cols)
    else:
        q += _attention_quantities(slug, st, tok, None)
    q += grid(f"{slug} output", st.output, tok, [f"x{k + 1}" for k in range(st.output.shape[1])])
    return q


def _attention_quantities(prefix: str, st: examples.Steps, tok: list[str], output_cols: list[str] | None):
    """The scores, the softmax's terms, the weights (and, for a head, its output) of one head."""
    n = len(tok)
    q = grid(f"{prefix} scores", st.scores, tok, tok)
    logits = st.scores
    if st.scaled is not None:
        q += grid(f"{prefix} scaled scores", st.scaled, tok, tok)
        logits = st.scaled
    e, totals = softmax_terms(logits, st.mask)
    q += grid(f"{prefix} e^score", e, tok, tok)
    q += [Quantity(f"{prefix} row total of e^score[{tok[i]}]", float(totals[i])) for i in range(n)]
    q += grid(f"{prefix} weights", st.weights, tok, tok, proportion=True)
    q += [Quantity(f"{prefix} row sum of weights[{tok[i]}]", float(st.weights[i].sum()), True) for i in range(n)]
    # Plain division, the alternative to softmax that the first article rules out.
    for i in range(n):
        total = st.scores[i].sum()
        if total > 0 and (st.scores[i] >= 0).all():
            q += [
                Quantity(f"{prefix} score share[{tok[i]}, {tok[j]}]", float(st.scores[i, j] / total)) for j in range(n)
            ]
    if output_cols is not None:
        q += grid(f"{prefix} output", st.output, tok, output_cols)
    return q


@cache
def quantities(name: str) -> tuple[Quantity, ...]:
    """The quantities of one source; ValueError for an unknown source."""
    _load_sources()
    if name in _SOURCES:
        return tuple(_SOURCES[name]())
    if name in examples.available():
        return tuple(example_quantities(name))
    raise ValueError(f"unknown audit source {name!r}; known sources: {', '.join(known_sources())}")
