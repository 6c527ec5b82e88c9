"""docs/scaling.md: why the scores are divided by √d, measured on seeded random vectors.

The experiments are :func:`selfattn_ref.topics.scaling.variance_experiment` and
:func:`selfattn_ref.topics.scaling.largest_weight_experiment` with their defaults (d = 4, 64, 512;
10,000 pairs; 1,000 queries over 8 keys; seed 0); the tie-back to "The cat sat" is that
example's scores with and without the division. This module only formats and registers.
"""

from __future__ import annotations

import math
from functools import cache

from selfattn_ref import examples
from selfattn_ref.attention import softmax
from selfattn_ref.topics.scaling import KEYS, SAMPLES, TRIALS, largest_weight_experiment, variance_experiment

from ...audit.quantities import Quantity, source
from ...fmt import grouped, num
from ..registry import generated
from ..tables import weights_table

SLUG = "the_cat_sat"
VARIANCE_DECIMALS = 2
WEIGHT_DECIMALS = 3


@cache
def _variance():
    return variance_experiment()


@cache
def _largest():
    return largest_weight_experiment()


@cache
def _the_cat_sat():
    """(example, its steps, the weights it would get without the division by √d_k)."""
    ex = examples.load(SLUG)
    st = examples.run(ex)
    return ex, st, softmax(st.scores, axis=-1)


@generated("scaling/variance.md")
def _variance_table():
    lines = [f"| d_k | variance of q · k ({grouped(SAMPLES)} pairs) | variance ÷ d_k |", "|---:|---:|---:|"]
    for r in _variance():
        lines.append(
            f"| {r['d']} | {num(r['variance'], VARIANCE_DECIMALS)} | {num(r['variance_scaled'], VARIANCE_DECIMALS)} |"
        )
    return "\n".join(lines) + "\n"


@generated("scaling/largest_weight.md")
def _largest_table():
    lines = ["| d_k | largest weight, q · k | largest weight, q · k / √d_k |", "|---:|---:|---:|"]
    for r in _largest():
        lines.append(f"| {r['d']} | {num(r['unscaled'], WEIGHT_DECIMALS)} | {num(r['scaled'], WEIGHT_DECIMALS)} |")
    note = f"Each figure is the mean over {grouped(TRIALS)} random queries, each against {KEYS} random keys."
    return "\n".join(lines) + "\n\n" + note + "\n"


@generated("scaling/the_cat_sat_unscaled.md")
def _unscaled_table():
    ex, _, unscaled = _the_cat_sat()
    title = f"attention weights of “{ex.title}” without the division by √d_k"
    return weights_table(unscaled, list(ex.tokens), list(ex.tokens), ex.decimals, title)


@source("scaling")
def _quantities():
    q = []
    for r in _variance():
        d = r["d"]
        q += [
            Quantity(f"variance of q · k, d = {d}", r["variance"]),
            Quantity(f"variance of q · k / √d, d = {d}", r["variance_scaled"]),
            Quantity(f"√d, d = {d}", math.sqrt(d)),
        ]
    q += [
        Quantity("pairs per width", SAMPLES),  # of the variance experiment
        Quantity("keys per query", KEYS),  # of the largest-weight experiment
        Quantity("queries per width", TRIALS),
        Quantity(f"the weight of each of {KEYS} keys when all are equal", 1 / KEYS, proportion=True),
    ]
    for r in _largest():
        q += [
            Quantity(f"largest weight, d = {r['d']}, unscaled", r["unscaled"], proportion=True),
            Quantity(f"largest weight, d = {r['d']}, scaled", r["scaled"], proportion=True),
        ]
    ex, st, unscaled = _the_cat_sat()
    tok, i = ex.tokens, len(ex.tokens) - 1  # the row of the last token, "sat", which the page works through
    for j in range(len(tok)):
        q += [
            Quantity(f"{SLUG} weights without √d_k[{tok[i]}, {tok[j]}]", float(unscaled[i, j]), proportion=True),
            Quantity(f"{SLUG} weights[{tok[i]}, {tok[j]}]", float(st.weights[i, j]), proportion=True),
        ]
    return q
