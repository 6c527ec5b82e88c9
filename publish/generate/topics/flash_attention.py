"""docs/online-softmax.md: what the page may quote of FlashAttention's online softmax on "bank of
river" (tiles of one key and of two), and its tables.

The computation is :mod:`selfattn_ref.topics.flash_attention` (the example bank_of_river through
:func:`selfattn_ref.online_softmax.online_softmax_attention`, beside the plain softmax, and one head of
GPT-2 small's size for the memory count); this module only formats and registers.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref.topics.flash_attention import TILES, memory, tiled

from ...audit.quantities import Quantity, grid, source
from ...escape import md_text
from ...fmt import grouped, num
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table, weights_table

DECIMALS = 4  # the page's rounding: e^-2 = 0.1353 and e^-1 = 0.3679 as the step-by-step tables show them
DIMS = ["x1", "x2", "x3", "x4"]


def _steps(tile: int) -> str:
    return "one key" if tile == 1 else f"{tile} keys"


# --- what the page may quote ---------------------------------------------------------------


@source("flash_attention")
def _quantities():
    q: list[Quantity] = []
    for size in TILES:
        t = tiled(size)
        tok = list(t.tokens)
        for k, step in enumerate(t.online.tiles):
            name = f"flash_attention tiles of {size}, step {k + 1}"
            keys = tok[step.start : step.stop]
            q += grid(f"{name} scores", step.scores, tok, keys)
            q += grid(f"{name} terms", step.terms, tok, keys)
            for i, word in enumerate(tok):
                q += [
                    Quantity(f"{name} tile max[{word}]", float(step.tile_max[i])),
                    Quantity(f"{name} running max[{word}]", float(step.running_max[i])),
                    Quantity(f"{name} rescale[{word}]", float(step.rescale[i])),
                    Quantity(f"{name} running total[{word}]", float(step.running_total[i])),
                ]
                if k:
                    q.append(Quantity(f"{name} max before[{word}]", float(step.max_before[i])))
                    q.append(Quantity(f"{name} total before[{word}]", float(step.total_before[i])))
            q += grid(f"{name} running output", step.running_output, tok, DIMS)
            q.append(Quantity(f"{name} entries held", step.held))
        name = f"flash_attention tiles of {size}"
        q += grid(f"{name} weights", t.online.weights, tok, tok, True)
        q += grid(f"{name} output", t.online.output, tok, DIMS)
        q += [Quantity(f"{name} logsumexp[{w}]", float(x)) for w, x in zip(tok, t.online.logsumexp, strict=True)]
        q.append(Quantity(f"{name} largest entries held", t.online.largest_held))
    t = tiled(TILES[0])
    tok = list(t.tokens)
    q += grid("flash_attention plain weights", t.weights, tok, tok, True)
    q += grid("flash_attention plain output", t.output, tok, DIMS)
    q.append(Quantity("flash_attention scores entries", t.online.scores_entries))
    m = memory()
    q += [
        Quantity("flash_attention GPT-2 small n", m.n),
        Quantity("flash_attention GPT-2 small d_head", m.d_head),
        Quantity("flash_attention GPT-2 small tile", m.tile),
        Quantity("flash_attention GPT-2 small scores entries", m.scores_entries),
        Quantity("flash_attention GPT-2 small largest entries held", m.largest_held),
    ]
    return q


# --- tables --------------------------------------------------------------------------------


def _cell(x: float) -> str:
    if np.isneginf(x):
        return "−∞"
    return num(float(x), DECIMALS) if float(x) != round(float(x)) else str(int(round(float(x))))


def _vector(v) -> str:
    return "[" + ", ".join(_cell(x) for x in v) + "]"


def step_table(size: int, k: int) -> str:
    """Step ``k`` (from 0) of the tiles of ``size`` keys, in two tables of five columns (one of nine
    hid the last columns, which the page's text follows, at the page's width): each query's scores
    with the tile's keys, the running maximum before and after and the rescale; then the terms, the
    running total before and after, and the running output."""
    t = tiled(size)
    step = t.online.tiles[k]
    keys = ", ".join(t.tokens[step.start : step.stop])

    def per_key(M) -> list[str]:  # a tile of one key gives each query a number, of several a vector
        return [_vector(row) if M.shape[1] > 1 else _cell(row[0]) for row in M]

    def table(head: list[str], columns: list[list[str]]) -> str:
        lines = ["| " + " | ".join(md_text(h) for h in head) + " |", "|---|" + "---:|" * (len(head) - 1)]
        words = [f"**{md_text(word)}**" for word in t.tokens]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in zip(words, *columns, strict=True)]) + "\n"

    maximum = table(
        ["query", f"scores ({keys})", "m before", "m", "rescale e^(m before − m)"],
        [per_key(step.scores), *([_cell(x) for x in v] for v in (step.max_before, step.running_max, step.rescale))],
    )
    total = table(
        ["query", "terms e^(score − m)", "l before", "l", "O (not yet divided by l)"],
        [
            per_key(step.terms),
            *([_cell(x) for x in v] for v in (step.total_before, step.running_total)),
            [_vector(row) for row in step.running_output],
        ],
    )
    return maximum + "\n" + total


for _size in TILES:
    for _k in range(len(tiled(_size).online.tiles)):

        @generated(f"flash_attention/tiles_of_{_size}_step_{_k + 1}.md")
        def _step(size=_size, k=_k):
            return step_table(size, k)

    @generated(f"flash_attention/weights_tiles_of_{_size}.md")
    def _weights(size=_size):
        t = tiled(size)
        title = f"attention weights of “bank of river”, online softmax in tiles of {_steps(size)}"
        return weights_table(t.online.weights, t.tokens, t.tokens, DECIMALS, title)

    @generated(f"flash_attention/output_tiles_of_{_size}.md")
    def _output(size=_size):
        t = tiled(size)
        return matrix_table(t.online.output, t.tokens, DIMS, DECIMALS, "query ↓")


@generated("flash_attention/weights_plain.md")
def _weights_plain():
    t = tiled(TILES[0])
    return weights_table(t.weights, t.tokens, t.tokens, DECIMALS, "attention weights of “bank of river”, plain softmax")


@generated("flash_attention/output_plain.md")
def _output_plain():
    t = tiled(TILES[0])
    return matrix_table(t.output, t.tokens, DIMS, DECIMALS, "query ↓")


@generated("flash_attention/memory.md")
def _memory():
    """The entries one head's attention holds besides its inputs and output, plain and in tiles."""
    m = memory()
    rows = [("“bank of river”", 3, 3, TILES[0], tiled(TILES[0]).online), ("GPT-2 small, one head", m.n, m.n, m.tile, m)]
    lines = [
        "| | queries n | keys | keys per tile | scores, n × keys (plain) | the most held at once (tiles) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, n, keys, tile, run in rows:
        lines.append(
            "| " + " | ".join([label, *map(grouped, (n, keys, tile, run.scores_entries, run.largest_held))]) + " |"
        )
    return "\n".join(lines) + "\n"


# --- the exercises' numbers (docs/exercises/online-softmax.toml) ------------------------------


@topic_values("flash_attention")
def _exercise_values() -> dict:
    one, two = tiled(1), tiled(2)
    tok = one.tokens
    river = tok.index("river")
    last = one.online.tiles[-1]
    m = memory()
    return {
        "river_rescale": float(last.rescale[river]),  # e^(1 - 2), when river's own score raises its maximum
        "river_rescale_inverted": float(np.exp(last.running_max[river] - last.max_before[river])),  # e^(2 - 1)
        "river_total": float(last.running_total[river]),
        "river_total_not_rescaled": float(last.total_before[river] + last.terms[river].sum()),  # 2 + 1
        "of_total_after_two": float(one.online.tiles[1].running_total[tok.index("of")]),
        "of_weight_river": float(one.online.weights[tok.index("of"), river]),
        "scores_entries": m.scores_entries,
        "largest_held": m.largest_held,
        "tile_scores": m.n * m.tile,  # one tile's scores alone, without its terms, m, l and rescale
        "n": m.n,
        "tile": m.tile,
        "two_step_1_held": two.online.tiles[0].held,
    }
