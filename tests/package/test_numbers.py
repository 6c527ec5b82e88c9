"""The articles' published numbers, exactly at the rounding the pages print.

Values are compared as formatted strings ("0.090", not 0.09), so a change of rounding,
of an example's data or of the math fails here. The same numbers are checked through
the NumPy functions, ``selfattn_ref.examples.run`` and ``selfattn_ref.torch``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref import examples


def fmt(M, decimals: int) -> list[list[str]]:
    """A matrix as rows of strings at ``decimals`` places (negative zero printed as 0)."""
    M = M.detach().numpy() if isinstance(M, torch.Tensor) else np.asarray(M, dtype=np.float64)
    out = []
    for row in np.atleast_2d(M):
        cells = []
        for x in row:
            s = f"{float(x):.{decimals}f}"
            cells.append(s[1:] if s.startswith("-") and float(s) == 0 else s)
        out.append(cells)
    return out


def published(rows, decimals: int) -> list[list[str]]:
    """The published values, written as numbers in this file, at the page's rounding."""
    return fmt(np.array(rows, dtype=np.float64), decimals)


BANK_SCORES = [[2, 0, 1], [0, 2, 1], [1, 1, 2]]
BANK_WEIGHTS = [[0.665, 0.090, 0.245], [0.090, 0.665, 0.245], [0.212, 0.212, 0.576]]
BANK_OUTPUT = [[0.910, 0.335, 0.665, 0.090], [0.335, 0.910, 0.090, 0.665], [0.788, 0.788, 0.212, 0.212]]

CAT_SCORES = [[2, 0, 2], [0, 2, 2], [2, 2, 4]]
CAT_SCALED = [[1, 0, 1], [0, 1, 1], [1, 1, 2]]
CAT_WEIGHTS = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
CAT_OUTPUT = [[0.8446, 0.5777, 0.8446, 0.5777], [0.5777, 0.8446, 0.5777, 0.8446], [0.7881, 0.7881, 0.7881, 0.7881]]

LEARNED_WEIGHTS = [[0.2596, 0.2517, 0.4886], [0.2833, 0.3402, 0.3765], [0.2143, 0.2496, 0.5361]]
LEARNED_OUTPUT = [
    [0.0874, -0.3313, -0.0012, 0.8329],
    [0.0772, -0.312, 0.0005, 0.7623],
    [0.0878, -0.3457, -0.0001, 0.8541],
]


def test_fmt_is_strict_about_rounding():
    # The comparison itself must be able to fail: 0.0899 and 0.09 differ at 4 places.
    assert fmt([[0.0899]], 4) != published([[0.09]], 4)
    assert fmt([[0.0904]], 3) == [["0.090"]]
    assert fmt([[-0.00004]], 4) == [["0.0000"]]


def test_available_examples():
    slugs = examples.available()
    assert {"bank_of_river", "learned", "the_cat_sat"} <= set(slugs)
    assert slugs == sorted(slugs)


# --- bank of river: softmax(X Xᵀ) X, 3 decimals ------------------------------------------


def test_bank_of_river_spec():
    ex = examples.load("bank_of_river")
    assert ex.tokens == ("bank", "of", "river")
    assert ex.decimals == 3
    assert (ex.projections, ex.scale, ex.causal) == ("none", False, False)


def test_bank_of_river_steps():
    steps = examples.run(examples.load("bank_of_river"))
    assert fmt(steps.scores, 3) == published(BANK_SCORES, 3)
    assert steps.scaled is None
    assert fmt(steps.weights[0], 3) == [["0.665", "0.090", "0.245"]]  # "bank puts 66.5% of its focus on itself"
    assert fmt(steps.weights, 3) == published(BANK_WEIGHTS, 3)
    assert fmt(steps.output, 3) == published(BANK_OUTPUT, 3)


def test_bank_of_river_self_attention_numpy():
    X = examples.load("bank_of_river").E
    assert fmt(ref.scores(X, X), 3) == published(BANK_SCORES, 3)
    assert fmt(ref.softmax(ref.scores(X, X)), 3) == published(BANK_WEIGHTS, 3)
    assert fmt(ref.self_attention(X), 3) == published(BANK_OUTPUT, 3)
    out, w = ref.scaled_dot_product_attention(X, X, X, scale=1.0)
    assert fmt(w, 3) == published(BANK_WEIGHTS, 3)
    assert fmt(out, 3) == published(BANK_OUTPUT, 3)


def test_bank_of_river_torch():
    X = torch.tensor(examples.load("bank_of_river").E)
    assert fmt(tref.scores(X, X), 3) == published(BANK_SCORES, 3)
    assert fmt(tref.softmax(tref.scores(X, X)), 3) == published(BANK_WEIGHTS, 3)
    assert fmt(tref.self_attention(X), 3) == published(BANK_OUTPUT, 3)
    out, w = tref.scaled_dot_product_attention(X, X, X, scale=1.0)
    assert fmt(w, 3) == published(BANK_WEIGHTS, 3)
    assert fmt(out, 3) == published(BANK_OUTPUT, 3)


# --- the cat sat: identity projections, scaled by √4 = 2, 4 decimals ----------------------


def test_the_cat_sat_steps():
    ex = examples.load("the_cat_sat")
    assert ex.tokens == ("The", "cat", "sat")
    assert ex.decimals == 4
    steps = examples.run(ex)
    assert fmt(steps.scores, 4) == published(CAT_SCORES, 4)
    assert fmt(steps.scaled, 4) == published(CAT_SCALED, 4)
    assert fmt(steps.weights, 4) == published(CAT_WEIGHTS, 4)
    assert fmt(steps.output, 4) == published(CAT_OUTPUT, 4)


@pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])
def test_the_cat_sat_functions(mod):
    E = examples.load("the_cat_sat").E
    Q, K, V = mod.project(E, np.eye(4), np.eye(4), np.eye(4))
    assert fmt(mod.scores(Q, K), 4) == published(CAT_SCORES, 4)
    assert fmt(mod.scores(Q, K) / 2, 4) == published(CAT_SCALED, 4)
    out, w = mod.scaled_dot_product_attention(Q, K, V)  # scale None = 1/√d_k = 1/2
    assert fmt(w, 4) == published(CAT_WEIGHTS, 4)
    assert fmt(out, 4) == published(CAT_OUTPUT, 4)


# --- learned weights: W from default_rng(42).normal(0, 0.5), scaled, 4 decimals -----------


def test_learned_steps():
    ex = examples.load("learned")
    assert ex.decimals == 4 and ex.scale and ex.projections == "random"
    steps = examples.run(ex)
    assert fmt(steps.weights, 4) == published(LEARNED_WEIGHTS, 4)
    assert np.argmax(steps.weights, axis=1).tolist() == [2, 2, 2]  # every token looks most at "sat"
    assert fmt(steps.output, 4) == published(LEARNED_OUTPUT, 4)


def test_learned_weights_come_from_the_seed():
    ex = examples.load("learned")
    rng = np.random.default_rng(42)
    for W in (ex.W_Q, ex.W_K, ex.W_V):
        np.testing.assert_array_equal(W, rng.normal(0, 0.5, (4, 4)))


@pytest.mark.parametrize("mod", [ref, tref], ids=["numpy", "torch"])
def test_learned_functions(mod):
    ex = examples.load("learned")
    Q, K, V = mod.project(ex.E, ex.W_Q, ex.W_K, ex.W_V)
    out, w = mod.scaled_dot_product_attention(Q, K, V)
    assert fmt(w, 4) == published(LEARNED_WEIGHTS, 4)
    assert np.argmax(np.asarray(w), axis=1).tolist() == [2, 2, 2]
    assert fmt(out, 4) == published(LEARNED_OUTPUT, 4)
