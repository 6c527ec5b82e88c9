"""docs/rnn-comparison.md: the tiny RNN encoder-decoder on "The cat sat", and the cost table.

Everything here is computed by :mod:`selfattn_ref.topics.rnn_comparison` (the worked RNN, whose
weights are data in ``selfattn_ref/examples/rnn/the_cat_sat.toml``, read by
:func:`selfattn_ref.examples.load_rnn`, and :func:`~selfattn_ref.topics.rnn_comparison.compare`);
this module only formats and registers.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from selfattn_ref.examples import load_rnn
from selfattn_ref.topics.rnn_comparison import CASES, compare, rnn_steps, without_first

from ...audit.quantities import Quantity, source
from ...fmt import grouped, num, vector
from ..registry import generated
from ..tables import matrix_table, operand, weights_table

SLUG = "the_cat_sat"
WEIGHT_DECIMALS = 1  # the weights are data written with one decimal


@cache
def _example():
    ex = load_rnn(SLUG)
    return ex, rnn_steps(ex)


@cache
def _without_first():
    """The encoder's states when it reads the sentence without its first token."""
    return without_first(_example()[0])


def _states(ex) -> list[str]:
    return [f"h{t + 1} ({tok})" for t, tok in enumerate(ex.tokens)]


def _units(k: int, prefix: str = "u") -> list[str]:
    return [f"{prefix}{i + 1}" for i in range(k)]


def _signed(x: float, dec: int) -> str:
    """A factor in a written-out product: negative numbers in parentheses."""
    return operand(num(x, dec))


# --- tables ---------------------------------------------------------------------------------


@generated("rnn_comparison/W_xh.md")
def _w_xh():
    ex, _ = _example()
    return matrix_table(
        ex.W_xh, [f"x{i + 1}" for i in range(ex.W_xh.shape[0])], _units(ex.W_xh.shape[1]), WEIGHT_DECIMALS, "W_xh"
    )


@generated("rnn_comparison/W_hh.md")
def _w_hh():
    ex, _ = _example()
    return matrix_table(ex.W_hh, _units(ex.W_hh.shape[0]), _units(ex.W_hh.shape[1]), WEIGHT_DECIMALS, "W_hh")


@generated("rnn_comparison/attention_weights.md")
def _attention_parameters():
    """s, W_s, W_h and v in one table: rows are the four entries of a state."""
    ex, _ = _example()
    d_a = ex.W_s.shape[1]
    M = np.hstack([ex.s[:, None], ex.W_s, ex.W_h])
    cols = ["s", *(f"W_s {a}" for a in _units(d_a, "a")), *(f"W_h {a}" for a in _units(d_a, "a"))]
    table = matrix_table(M, _units(len(ex.s)), cols, WEIGHT_DECIMALS)
    v = vector(ex.v, WEIGHT_DECIMALS)
    return table + "\n" + f"and $v = {v}$, one entry per unit of the additive score (a1, a2).\n"


@generated("rnn_comparison/steps.md")
def _steps():
    """The recurrence written out, one state after another."""
    ex, st = _example()
    dec = ex.decimals
    blocks = []
    for t, tok in enumerate(ex.tokens):
        rows = [
            (f"x_{tok} W_xh", st.from_input[t]),
            (f"h{t} W_hh", st.from_previous[t]),
            ("sum", st.before_tanh[t]),
            (f"h{t + 1} = tanh(sum)", st.H[t]),
        ]
        width = max(len(label) for label, _ in rows)
        head = f"h{t + 1} = tanh(x_{tok} W_xh + h{t} W_hh)" + ("    (h0 = 0: nothing read yet)" if t == 0 else "")
        blocks.append("\n".join([head, *(f"   {label:<{width}} = {vector(x, dec)}" for label, x in rows)]))
    return "```text\n" + "\n\n".join(blocks) + "\n```\n"


@generated("rnn_comparison/states.md")
def _states_table():
    ex, st = _example()
    return matrix_table(st.H, _states(ex), _units(st.H.shape[1]), ex.decimals, "state")


@generated("rnn_comparison/without_first.md")
def _without_first_table():
    ex, st = _example()
    H2 = _without_first()
    rows = [f"h{len(ex.tokens)} ({' '.join(ex.tokens)})", f"h{len(ex.tokens) - 1} ({' '.join(ex.tokens[1:])})"]
    return matrix_table(np.vstack([st.H[-1], H2[-1]]), rows, _units(st.H.shape[1]), ex.decimals, "last state")


@generated("rnn_comparison/additive_steps.md")
def _additive_steps():
    ex, st = _example()
    dec = ex.decimals
    lines = [f"s W_s = {vector(st.s_part, dec)}", ""]
    for j, tok in enumerate(ex.tokens):
        h = f"h{j + 1}"
        lines += [
            f"{h} ({tok})",
            f"   {h} W_h                = {vector(st.h_parts[j], dec)}",
            f"   tanh(s W_s + {h} W_h)  = {vector(st.additive_hidden[j], dec)}",
            f"   score = v · tanh(...)  = {num(st.additive_scores[j], dec)}",
            "",
        ]
    return "```text\n" + "\n".join(lines[:-1]) + "\n```\n"


@generated("rnn_comparison/dot_products.md")
def _dot_products():
    ex, st = _example()
    dec = ex.decimals
    out = []
    for j in range(len(ex.tokens)):
        pairs = zip(ex.s, st.H[j], strict=True)
        terms = " + ".join(f"{_signed(a, WEIGHT_DECIMALS)}×{_signed(b, dec)}" for a, b in pairs)
        out.append(f"- s · h{j + 1} = {terms} = {num(st.dot_scores[j], dec)}")
    return "\n".join(out) + "\n"


@generated("rnn_comparison/attention.md")
def _attention():
    ex, st = _example()
    M = np.column_stack([st.additive_scores, st.additive_weights, st.dot_scores, st.dot_weights])
    cols = ["additive score", "additive weight", "dot score", "dot weight"]
    return matrix_table(M, _states(ex), cols, ex.decimals, "encoder state")


def attention_weights():
    """(weights (2, n): additive row then dot-product row, row labels, column labels, decimals)."""
    ex, st = _example()
    return np.vstack([st.additive_weights, st.dot_weights]), ["additive", "dot product"], _states(ex), ex.decimals


@generated("rnn_comparison/weights.md")
def _weights():
    W, rows, cols, dec = attention_weights()
    title = "attention weights of the decoder state s"
    return weights_table(W, rows, cols, dec, title=title, axes=("scoring", "state"))


@generated("rnn_comparison/contexts.md")
def _contexts():
    ex, st = _example()
    M = np.vstack([st.additive_context, st.dot_context])
    return matrix_table(M, ["additive", "dot product"], _units(M.shape[1]), ex.decimals, "context")


@generated("rnn_comparison/costs.md")
def _costs():
    results = [compare(n, d) for n, d in CASES]
    lines = [
        # No-break spaces: on a phone the column is narrow, and "n =" was left on a line of its own.
        "| measure | layer | "
        + " | ".join(f"n\u00a0=\u00a0{c['n']}<br>d\u00a0=\u00a0{c['d']}" for c in results)
        + " |",
        "|---|---|" + "---:|" * len(results),
    ]
    measures = (
        ("sequential_steps", "steps one after another", None),
        ("longest_path", "longest path", None),
        ("multiply_adds_within_tokens", "multiply-adds within tokens", None),
        ("multiply_adds_between_tokens", "multiply-adds between tokens", "between_tokens_ratio"),
        ("multiply_adds", "multiply-adds in all", "ratio"),
    )
    for key, label, ratio in measures:
        lines.append(f"| {label} | RNN | " + " | ".join(grouped(c["rnn"][key]) for c in results) + " |")
        lines.append("| | self-attention | " + " | ".join(grouped(c["self_attention"][key]) for c in results) + " |")
        if ratio:
            lines.append("| | self-attention ÷ RNN | " + " | ".join(f"{c[ratio]:g}" for c in results) + " |")
    return "\n".join(lines) + "\n"


# --- what the page may quote ------------------------------------------------------------------


@source("rnn_comparison")
def _quantities():
    ex, st = _example()
    states, units = _states(ex), _units(st.H.shape[1])
    q = [
        Quantity(f"rnn H[{states[t]}, {units[k]}]", float(st.H[t, k]))
        for t in range(st.H.shape[0])
        for k in range(st.H.shape[1])
    ]
    H2 = _without_first()
    q += [Quantity(f"rnn last state without {ex.tokens[0]}[{units[k]}]", float(H2[-1, k])) for k in range(H2.shape[1])]
    for kind in ("additive", "dot"):
        scores, weights = getattr(st, f"{kind}_scores"), getattr(st, f"{kind}_weights")
        context = getattr(st, f"{kind}_context")
        q += [Quantity(f"rnn {kind} score[{states[j]}]", float(scores[j])) for j in range(len(scores))]
        q += [
            Quantity(f"rnn {kind} weight[{states[j]}]", float(weights[j]), proportion=True) for j in range(len(weights))
        ]
        q += [Quantity(f"rnn {kind} context[{units[k]}]", float(context[k])) for k in range(len(context))]
    for n, d in CASES:
        c = compare(n, d)
        q += [
            Quantity(f"cost ratio, self-attention ÷ RNN, n = {n}, d = {d}", c["ratio"]),
            Quantity(f"cost ratio between tokens, self-attention ÷ RNN, n = {n}, d = {d}", c["between_tokens_ratio"]),
        ]
    return q
