"""docs/rotary.md: what the page may quote of rotary position embeddings (RoPE) on "dog bites man" and
"man bites dog", and its tables.

The computations are :mod:`selfattn_ref.topics.rotary` (the vectors turned for positions 0, 1, 2, each
sentence's self-attention with its queries and keys turned, the score of a query and a key at many
starting positions and distances); this module only formats and registers.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref.topics.rotary import SENTENCES, distance_check, sentence, turned

from ...audit.quantities import Quantity, grid, source
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table, weights_table

DECIMALS = 4  # the turned entries (cos 2 = -0.4161) need four
SHOWN_STARTS = (32, 33, 64, 95)  # the starting positions the table of distances shows, of the 64 checked
SHOWN_OFFSETS = range(-2, 3)  # its distances: the words of a three-word sentence are at most 2 apart


def _dims(d: int) -> list[str]:
    return [f"x{k + 1}" for k in range(d)]


def _pairs(d: int) -> list[str]:
    return [f"pair {p} (x{2 * p + 1}, x{2 * p + 2})" for p in range(d // 2)]


def _label(slug: str) -> str:
    return slug.replace("_", " ")


# --- what the page may quote ---------------------------------------------------------------


@source("rotary")
def _quantities() -> list[Quantity]:
    t = turned(SENTENCES[0])
    pos = [f"pos {p}" for p in t.positions]
    pairs = [f"pair {p}" for p in range(t.angles.shape[1])]
    q = grid("angle", t.angles, pos, pairs)
    q += grid("cos", t.cos, pos, pairs)
    q += grid("sin", t.sin, pos, pairs)
    # Only what the page quotes: the turned vectors, the scores, the mean outputs and one weight
    # per sentence. The other weights are in tables; registered too, a changed digit elsewhere on
    # the page could pass as one of them.
    for slug in SENTENCES:
        tt, st = turned(slug), sentence(slug)
        tok = list(tt.tokens)
        q += grid(f"{slug} turned", tt.interleaved, tok, _dims(tt.E.shape[1]))
        q += grid(f"{slug} turned, halves", tt.halves, tok, _dims(tt.E.shape[1]))
        q += grid(f"{slug} scores", st.scores, tok, tok)
        q += [Quantity(f"{slug} mean output[x{k + 1}]", float(x)) for k, x in enumerate(st.mean)]
        q += [Quantity(f"{slug} weights[bites, {w}]", float(st.weights[1, j]), True) for j, w in enumerate(tok)]
    dc = distance_check()
    for r in SHOWN_OFFSETS:
        q.append(Quantity(f"score of dog and man at distance {r}", float(dc.interleaved[0, dc.offsets.index(r)])))
    return q


# --- tables --------------------------------------------------------------------------------


@generated("rotary/angles.md")
def _angles():
    """The angle of each pair at positions 0, 1, 2 (d = 4), in radians."""
    t = turned(SENTENCES[0])
    return matrix_table(t.angles, [f"pos {p}" for p in t.positions], _pairs(t.E.shape[1]), DECIMALS, "angle θ")


for _slug in SENTENCES:

    @generated(f"rotary/turned_{_slug}.md")
    def _turned(slug=_slug):
        """Each word's vector, then turned for its position."""
        t = turned(slug)
        rows = [f"{w} (pos {p})" for w, p in zip(t.tokens, t.positions, strict=True)]
        return matrix_table(t.interleaved, rows, _dims(t.E.shape[1]), DECIMALS, "turned")

    @generated(f"rotary/scores_{_slug}.md")
    def _scores(slug=_slug):
        st = sentence(slug)
        return matrix_table(st.scores, st.tokens, st.tokens, DECIMALS, "query ↓ key →")

    @generated(f"rotary/weights_{_slug}.md")
    def _weights(slug=_slug):
        st = sentence(slug)
        title = f"attention weights of “{_label(slug)}” with rotary position embeddings"
        return weights_table(st.weights, st.tokens, st.tokens, DECIMALS, title)


@generated("rotary/means.md")
def _means():
    """The average of each sentence's outputs: no longer the same for both orders."""
    rows = [f"“{_label(slug)}”" for slug in SENTENCES]
    M = np.array([sentence(slug).mean for slug in SENTENCES])
    return matrix_table(M, rows, _dims(M.shape[1]), DECIMALS, "average output")


@generated("rotary/distance.md")
def _distance():
    """dog's query at position a, man's key at a + r: a few of the 64 starts, and every start's spread."""
    dc = distance_check()
    cols = [dc.offsets.index(r) for r in SHOWN_OFFSETS]
    G = dc.interleaved[:, cols]  # (64, 5)
    rows = [G[dc.starts.index(a)] for a in SHOWN_STARTS]
    spread = G.max(axis=0) - G.min(axis=0)
    labels = [f"a = {a}" for a in SHOWN_STARTS] + [f"largest − smallest, a = {dc.starts[0]} to {dc.starts[-1]}"]
    return matrix_table(
        np.vstack([*rows, spread]), labels, [f"r = {r}" for r in SHOWN_OFFSETS], DECIMALS, "dog at a, man at a + r"
    )


# --- the exercises' numbers (docs/exercises/rotary.toml) -------------------------------------


@topic_values("rotary")
def _exercise_values() -> dict:
    first, second = (turned(s) for s in SENTENCES)
    dc = distance_check()
    dog_man = {slug: sentence(slug) for slug in SENTENCES}
    return {
        "man_turned": dict(zip(_dims(4), first.interleaved[2].tolist(), strict=True)),  # man at pos 2
        "man_not_turned_x1": float(first.E[2, 0]),  # a known mistake: the position forgotten
        "man_turned_degrees_x1": float(np.cos(np.deg2rad(2.0))),  # a known mistake: 2 read as degrees
        "dog_man_score": float(dog_man[SENTENCES[0]].scores[0, 2]),  # dog at 0, man at 2
        "man_dog_score": float(dog_man[SENTENCES[1]].scores[0, 2]),  # man at 0, dog at 2
        "dog_man_score_without": float(dog_man[SENTENCES[0]].scores_without[0, 2]),  # a known mistake
        "dog_man_score_halves": float(first.halves[0] @ first.halves[2]),  # a known mistake: x1 paired with x3
        "self_score": float(dog_man[SENTENCES[0]].scores[0, 0]),  # dog with itself, at any position
        "self_score_second": float(second.interleaved[2] @ second.interleaved[2]),  # dog at pos 2
        "angle_1_1": float(first.angles[1, 1]),  # the second pair's angle at position 1
        "distance_1": float(dc.interleaved[0, dc.offsets.index(1)]),
        "distance_minus_1": float(dc.interleaved[0, dc.offsets.index(-1)]),
    }
