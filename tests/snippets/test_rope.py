"""Snippets of docs/rotary.md, rope_numpy.py and rope_torch.py: "dog bites man" and "man bites dog"
with their queries and keys turned for their positions, held equal to selfattn_ref.topics.rotary
(selfattn_ref.rotary); the PyTorch script's check against the paper's complex form, made again here
apart from the script; and the facts the page states: a word's own score kept, the score of two words
a function of their distance only, the averages no longer the same for both orders."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from publish import SNIPPETS
from selfattn_ref import examples, rotary
from selfattn_ref.topics import positional_encoding as pe
from selfattn_ref.topics import rotary as source

from snippet_checks import as_numpy, close, torch_namespace

FOLDER = SNIPPETS / "rotary"
NUMPY = FOLDER / "rope_numpy.py"
TORCH = FOLDER / "rope_torch.py"


SNIPPET_PATHS = [NUMPY, TORCH]  # the fixture ns (tests/snippets/conftest.py) runs each


def test_torch_prints_numpys_lines_and_its_check():
    numpy_out = NUMPY.with_suffix(".out").read_text(encoding="utf-8")
    torch_out = TORCH.with_suffix(".out").read_text(encoding="utf-8")
    assert numpy_out.endswith("each column the same for all 64 starts, to 1e-12: True\n")
    assert torch_out == numpy_out + "same as the paper's complex form: True\n"


def test_the_vectors_are_the_examples(ns):
    for slug in source.SENTENCES:
        ex = examples.load(slug)
        close(np.array([ns["vectors"][w] for w in ex.tokens], dtype=np.float64), ex.E)


@pytest.mark.parametrize("slug", source.SENTENCES)
def test_every_number_equals_the_package(ns, slug):
    t, st = source.turned(slug), source.sentence(slug)
    R, S, weights, output = ns["attention_with_rope"](list(t.tokens))
    close(R, t.interleaved)
    close(S, st.scores)
    close(weights, st.weights)
    close(output, st.output)
    close(as_numpy(output).mean(axis=0), st.mean)


def test_the_distance_grid_equals_the_package(ns):
    dc = source.distance_check()
    assert tuple(as_numpy(ns["starts"]).tolist()) == dc.starts
    cols = [dc.offsets.index(r) for r in as_numpy(ns["distances"]).tolist()]
    close(ns["grid"], dc.interleaved[:, cols])


def test_the_torch_turn_is_the_papers_complex_form():
    """Eq. 34 of the RoFormer paper written here again: x1 + i x2 times e^(i pos θ_p), on random
    vectors at positions far along, against the script's rope and the package's."""
    ns = torch_namespace(TORCH)
    gen = torch.Generator().manual_seed(0)
    X = torch.randn(5, 8, dtype=torch.float64, generator=gen)
    positions = torch.tensor([0, 3, 17, 250, 4000])
    theta = positions[:, None] * 10000.0 ** (-torch.arange(0, 8, 2, dtype=torch.float64) / 8)
    z = torch.complex(X[:, 0::2], X[:, 1::2]) * torch.exp(1j * theta)
    paper = torch.stack([z.real, z.imag], dim=-1).reshape(5, 8)
    close(ns["rope"](X, positions), paper)
    close(ns["rope_complex"](X, positions), paper)
    close(rotary.rotary_embedding(X.numpy(), positions.numpy()), paper)


def test_a_words_own_score_is_kept_and_dog_and_man_depend_on_their_order():
    for slug in source.SENTENCES:
        st = source.sentence(slug)
        close(np.diag(st.scores), np.diag(st.scores_without))
    first, second = (source.sentence(s) for s in source.SENTENCES)
    assert first.scores_without[0, 2] == second.scores_without[0, 2] == 2  # dog · man, without positions
    assert round(first.scores[0, 2], 4) == 1.4930 and round(second.scores[0, 2], 4) == -0.3256
    # With the added encoding of the page on positional encoding: 3.097 and 4.513.
    assert round(pe.with_positions("dog_bites_man")["scores"][0, 2], 3) == 3.097
    assert not np.allclose(first.mean, second.mean)  # the averages differ now


def test_bites_reads_its_neighbours_by_distance():
    """Its first pair is zeros and dog and man share their second pair, so its row is the same in
    both sentences, by position: 0.2098 before it, 0.2141 after it."""
    first, second = (source.sentence(s) for s in source.SENTENCES)
    close(first.weights[1], second.weights[1])
    assert round(first.weights[1, 0], 4) == 0.2098 and round(first.weights[1, 2], 4) == 0.2141
    E = examples.load("dog_bites_man").E
    assert not E[1, :2].any() and (E[0, 2:] == E[2, 2:]).all()


def test_the_distance_check_holds_in_both_pairings():
    dc = source.distance_check()
    assert dc.largest_spread < 1e-12 and dc.smallest_range > 1  # each column one number; a row is not
    for r, want in ((2, 1.4930), (-2, -0.3256)):
        assert round(dc.interleaved[0, dc.offsets.index(r)], 4) == want


def test_the_halves_turn_man_as_the_page_says():
    """As halves, man's [1, 0, 1, 0] pairs x1 with x3, [1, 1], and x2 with x4, zeros: the first
    turns by 2 radians, [cos 2 - sin 2, sin 2 + cos 2], into x1 and x3."""
    t = source.turned("dog_bites_man")
    c, s = np.cos(2.0), np.sin(2.0)
    close(t.halves[2], [c - s, 0, s + c, 0])
