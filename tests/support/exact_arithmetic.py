"""Self-attention in exact arithmetic (Decimal, 60 digits), from numbers as typed: the reference the
tests hold printed numbers to (issue 51, item 5: no printed digit beyond what float64 holds).

A printed number is right when it is within one unit of its last digit of the exact value
(:func:`off_by_less_than_a_unit`): the rounding of the printed number takes half a unit, and the
float64 error at most the other half (selfattn_ref.examples.digits).
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext

PREC = 60


def _matmul(A, B):
    return [
        [sum((a * b for a, b in zip(row, col, strict=True)), Decimal(0)) for col in zip(*B, strict=True)] for row in A
    ]


def _sin_cos(x: Decimal) -> tuple[Decimal, Decimal]:
    """sin x and cos x by their Taylor series, to the context's precision (for |x| up to a few tens)."""
    sin, cos, term, k = Decimal(0), Decimal(0), Decimal(1), 0  # term = x^k / k!
    while True:
        if k % 2 == 0:
            cos += term if k % 4 == 0 else -term
        else:
            sin += term if k % 4 == 1 else -term
        k += 1
        term = term * x / k
        if k > 8 and abs(term) < Decimal(10) ** -(PREC + 5):
            return sin, cos


def positional_encoding(n: int, d: int) -> list[list[Decimal]]:
    """The sinusoidal positional encoding (n, d) in exact arithmetic (to 60 digits): entry 2p of
    position pos is sin(pos / 10000^(2p/d)), entry 2p + 1 its cosine."""
    with localcontext() as ctx:
        ctx.prec = PREC
        out = []
        for pos in range(n):
            row = []
            for k in range(d):
                sin, cos = _sin_cos(Decimal(pos) / Decimal(10000) ** (Decimal(2 * (k // 2)) / Decimal(d)))
                row.append(sin if k % 2 == 0 else cos)
            out.append(row)
        return out


def exact_steps(
    E: list[list[str]], W: tuple | None = None, scale: bool = False, causal: bool = False, positions: bool = False
) -> dict:
    """Every step of single-head self-attention on the typed numbers ``E`` (rows of decimal strings)
    and, if given, ``W`` = (W_Q, W_K, W_V) (rows of decimal strings), with ``positions`` the
    positional encoding added to E first: PE (or None), X (E, or E + PE), Q, K, V, scores, scaled
    (or None), weights, output, terms (e^ of what the softmax reads, 0 where masked) and totals."""
    with localcontext() as ctx:
        ctx.prec = PREC
        X = [[Decimal(x) for x in row] for row in E]
        PE = positional_encoding(len(X), len(X[0])) if positions else None
        if PE is not None:
            X = [[x + p for x, p in zip(row, prow, strict=True)] for row, prow in zip(X, PE, strict=True)]
        if W is None:
            Q = K = V = X
        else:
            Q, K, V = (_matmul(X, [[Decimal(x) for x in row] for row in M]) for M in W)
        n = len(X)
        S = _matmul(Q, [list(c) for c in zip(*K, strict=True)])
        L = [[s / Decimal(len(Q[0])).sqrt() for s in row] for row in S] if scale else S
        allowed = [[not causal or j <= i for j in range(n)] for i in range(n)]
        top = [max(L[i][j] for j in range(n) if allowed[i][j]) for i in range(n)]
        shifted = [[(L[i][j] - top[i]).exp() if allowed[i][j] else Decimal(0) for j in range(n)] for i in range(n)]
        weights = [[t / sum(row, Decimal(0)) for t in row] for row in shifted]
        try:  # e^score as the pages write it, where it is not too large for Decimal
            terms = [[L[i][j].exp() if allowed[i][j] else Decimal(0) for j in range(n)] for i in range(n)]
            totals = [sum(row, Decimal(0)) for row in terms]
        except ArithmeticError:
            terms = totals = None
        output = _matmul(weights, V)
    return {"PE": PE, "X": X, "Q": Q, "K": K, "V": V, "scores": S, "scaled": L if scale else None, "weights": weights,
            "output": output, "terms": terms, "totals": totals}  # fmt: skip


def off_by_less_than_a_unit(text: str, exact: Decimal) -> bool:
    """Whether the printed ``text`` ("0.10000000", "-3.2e+05", "12") is within less than one unit of
    its last digit of ``exact``."""
    m = re.fullmatch(r"(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?", text.replace("\u2212", "-"))
    assert m, f"not a printed number: {text!r}"
    places = len(m.group(3) or "") - int(m.group(4) or 0)  # the decimal place of the last digit
    with localcontext() as ctx:
        ctx.prec = PREC
        return abs(Decimal(text.replace("\u2212", "-")) - exact) < Decimal(10) ** -places
