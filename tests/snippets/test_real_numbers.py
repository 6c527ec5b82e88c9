"""Snippets of docs/real-numbers.md, held equal to the reference package.

- ``self_attention_*``: softmax(X·Xᵀ)·X on "bank of river", step by step.
- ``word_order_*``: "dog bites man" against "man bites dog": the same scores and outputs, permuted.
- ``stable_softmax_*``: softmax that subtracts the row's largest score, and e^score overflowing
  without that shift.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from publish.fmt import num
from selfattn_ref import examples

from snippet_checks import as_numpy, close, snippet_namespace

FOLDER = SNIPPETS / "real_numbers"
NAMES = ("self_attention", "word_order", "stable_softmax")
LIBS = ("numpy", "torch")
SNIPPET_PATHS = [
    FOLDER / "self_attention_numpy.py",
    FOLDER / "self_attention_torch.py",
    FOLDER / "word_order_numpy.py",
    FOLDER / "word_order_torch.py",
    FOLDER / "stable_softmax_numpy.py",
    FOLDER / "stable_softmax_torch.py",
]
assert SNIPPET_PATHS == [FOLDER / f"{name}_{lib}.py" for name in NAMES for lib in LIBS]


def snippet(name: str, lib: str):
    return snippet_namespace(FOLDER / f"{name}_{lib}.py")


def recording(name: str, lib: str) -> str:
    return (FOLDER / f"{name}_{lib}.out").read_text(encoding="utf-8")


def printed_rows(text: str, title: str, labels) -> dict[str, list[str]]:
    """The numbers printed on each labelled row of the table under ``title``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    rows = {}
    for line in lines[start + 2 : start + 2 + len(labels)]:  # title, column header, rows
        label, *numbers = line.split()
        rows[label] = numbers
    assert list(rows) == list(labels), (title, rows)
    return rows


def formatted(values, decimals: int) -> list[str]:
    return [num(x, decimals) for x in values]


@pytest.fixture(scope="module")
def bank():
    ex = examples.load("bank_of_river")
    return ex, examples.run(ex)


@pytest.fixture(scope="module")
def dog_man():
    a, b = examples.load("dog_bites_man"), examples.load("man_bites_dog")
    return a, examples.run(a), b, examples.run(b)


# --- every snippet --------------------------------------------------------------------


# --- self_attention: the whole calculation ----------------------------------------------


@pytest.mark.parametrize("lib", LIBS)
def test_self_attention_steps_are_the_reference(lib, bank):
    ex, st = bank
    ns = snippet("self_attention", lib)
    assert ns["words"] == list(ex.tokens)
    close(ns["X"], ex.E)
    close(ns["S"], st.scores)
    close(ns["A"], st.weights)
    close(ns["Y"], st.output)
    # and the package's own functions, one step at a time and all at once
    close(ns["S"], selfattn_ref.scores(ex.E, ex.E))
    close(ns["A"], selfattn_ref.softmax(st.scores))
    close(ns["Y"], selfattn_ref.mix(st.weights, ex.E))
    close(ns["Y"], selfattn_ref.self_attention(ex.E))


def test_self_attention_prints_the_reference_at_its_rounding(bank):
    ex, st = bank
    out = recording("self_attention", "numpy")
    tok = ex.tokens
    scores = printed_rows(out, "Scores", tok)
    weights = printed_rows(out, "Weights", tok)
    outputs = printed_rows(out, "Outputs", tok)
    for i, t in enumerate(tok):
        assert scores[t] == [str(int(x)) for x in st.scores[i]]
        assert weights[t] == formatted(st.weights[i], ex.decimals)
        assert outputs[t] == formatted(st.output[i], ex.decimals)
    assert "row totals: 1.000, 1.000, 1.000" in out
    # the numbers the page quotes from this output
    assert weights["bank"] == ["0.665", "0.090", "0.245"]
    assert outputs["bank"] == ["0.910", "0.335", "0.665", "0.090"]


# --- word_order: "dog bites man" and "man bites dog" ---------------------------------------


@pytest.mark.parametrize("lib", LIBS)
def test_word_order_vectors_are_the_examples(lib, dog_man):
    a, _, b, _ = dog_man
    ns = snippet("word_order", lib)
    for ex in (a, b):
        for t, row in zip(ex.tokens, ex.E, strict=True):
            np.testing.assert_array_equal(ns["vectors"][t], row)


@pytest.mark.parametrize("lib", LIBS)
def test_word_order_results_are_the_reference(lib, dog_man):
    a, st_a, b, st_b = dog_man
    ns = snippet("word_order", lib)
    close(ns["S1"], st_a.scores)
    close(ns["Y1"], st_a.output)
    close(ns["S2"], st_b.scores)
    close(ns["Y2"], st_b.output)
    close(ns["Y1"], selfattn_ref.self_attention(a.E))
    close(ns["Y2"], selfattn_ref.self_attention(b.E))


@pytest.mark.parametrize("lib", LIBS)
def test_word_order_is_a_permutation(lib, dog_man):
    """The claim of the page: the second sentence's scores are the first's with rows and
    columns permuted, its outputs the first's with rows permuted."""
    a, st_a, b, st_b = dog_man
    ns = snippet("word_order", lib)
    order = ns["order"]
    assert [a.tokens[i] for i in order] == list(b.tokens)
    assert sorted(order) == list(range(len(a.tokens))) and order != sorted(order)
    S1, S2, Y1, Y2 = (as_numpy(ns[k]) for k in ("S1", "S2", "Y1", "Y2"))
    np.testing.assert_array_equal(S2, S1[order][:, order])
    np.testing.assert_allclose(Y2, Y1[order], rtol=0, atol=1e-12)
    assert ns["same_scores"] is True and ns["same_outputs"] is True  # the math section's checks, printed
    # the same relation in the reference, weights included
    np.testing.assert_array_equal(st_b.scores, st_a.scores[order][:, order])
    np.testing.assert_allclose(st_b.weights, st_a.weights[order][:, order], rtol=0, atol=1e-12)
    np.testing.assert_allclose(st_b.output, st_a.output[order], rtol=0, atol=1e-12)
    # and the demonstration is not empty: the two sentences' score grids differ
    assert not np.array_equal(S1, S2)


def test_word_order_prints_the_relation_and_dogs_vector(dog_man):
    a, st_a, b, st_b = dog_man
    out = recording("word_order", "numpy")
    assert "Same scores, rows and columns reordered: True" in out
    assert "Same outputs, rows reordered: True" in out
    dog = ", ".join(formatted(st_a.output[a.tokens.index("dog")], a.decimals))
    assert f'Output for dog in "dog bites man": {dog}' in out
    dog = ", ".join(formatted(st_b.output[b.tokens.index("dog")], b.decimals))
    assert f'Output for dog in "man bites dog": {dog}' in out
    assert printed_rows(out, 'Scores for "dog bites man"', a.tokens) == {
        t: [str(int(x)) for x in row] for t, row in zip(a.tokens, st_a.scores, strict=True)
    }
    assert printed_rows(out, 'Scores for "man bites dog"', b.tokens) == {
        t: [str(int(x)) for x in row] for t, row in zip(b.tokens, st_b.scores, strict=True)
    }


def test_dog_row_is_bank_row_plus_one(bank, dog_man):
    """The page's tip: dog's scores are bank's plus one, so its shares are bank's."""
    _, st_bank = bank
    _, st_a, _, _ = dog_man
    np.testing.assert_array_equal(st_a.scores[0], st_bank.scores[0] + 1)
    np.testing.assert_allclose(st_a.weights[0], st_bank.weights[0], rtol=0, atol=1e-12)


# --- stable_softmax: subtract the largest score first -------------------------------------


@pytest.mark.parametrize("lib", LIBS)
def test_stable_softmax_is_the_packages(lib, bank):
    _, st = bank
    ns = snippet("stable_softmax", lib)
    close(ns["scores"], st.scores[0])
    rng = np.random.default_rng(0)
    inputs = [
        st.scores,
        st.scores + 1000,
        rng.normal(0, 30, (4, 5)),
        np.array([[-1000.0, 0.0, 1000.0]]),
        rng.normal(0, 3, (2, 3, 4)),
    ]
    for S in inputs:
        arg = S
        if lib == "torch":
            import torch

            arg = torch.from_numpy(S)
        close(ns["softmax"](arg), selfattn_ref.softmax(S))


@pytest.mark.parametrize("lib", LIBS)
def test_e_to_the_score_overflows_where_the_stable_softmax_does_not(lib, bank):
    _, st = bank
    ns = snippet("stable_softmax", lib)
    assert np.isposinf(as_numpy(ns["unshifted"])).all()
    close(ns["softmax"](ns["big"]), st.weights[0])
    close(ns["stable"], st.weights[0])


def test_stable_softmax_prints_bank_shares_for_every_shift(bank):
    ex, st = bank
    out = recording("stable_softmax", "numpy").splitlines()
    shares = ", ".join(formatted(st.weights[0], ex.decimals))
    shifted = [line for line in out if line.startswith("softmax(scores + ")]
    assert [re.search(r"\+ (\d+)\)", line).group(1) for line in shifted] == ["0", "1", "1000"]
    assert all(line.endswith(shares) for line in shifted)
    assert out[-1].startswith("e^(scores + 1000), no shift:") and out[-1].endswith("inf, inf, inf")
