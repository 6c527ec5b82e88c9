"""Rotary position embeddings (selfattn_ref.rotary and its twin): equal to references written here from
the RoFormer paper (Su et al. 2021: its complex form, eqs. 12 and 33, and its element-wise form,
eq. 34) and from GPT-NeoX's rotate_half; a score depends only on the distance between the two
positions, over many distances and starting positions, in both pairings, which give different
numbers; "dog bites man" against "man bites dog"; and the bug of mixing the pairings."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref import rotary
from selfattn_ref.topics import mistakes
from selfattn_ref.topics import rotary as topic
from selfattn_ref.torch import rotary as trotary

from snippet_checks import close

RNG = np.random.default_rng(5)
X = RNG.standard_normal((2, 7, 8))  # (batch, n, d)
POSITIONS = [0, 3, 4, 10, 11, 250, 4096]


def thetas(d: int, base: float = 10000.0) -> torch.Tensor:
    """The paper's Θ: θ_j = base^(-2(j - 1)/d), j = 1..d/2."""
    j = torch.arange(1, d // 2 + 1, dtype=torch.float64)
    return base ** (-2 * (j - 1) / d)


def complex_form(x: torch.Tensor, positions) -> torch.Tensor:
    """Eqs. 12 and 33: each pair (x_2j-1, x_2j) as the complex number x_2j-1 + i x_2j, times e^(i m θ_j)."""
    m = torch.tensor(positions, dtype=torch.float64)[:, None]  # (n, 1)
    z = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2).contiguous())  # (..., n, d/2)
    turned = z * torch.polar(torch.ones_like(m * thetas(x.shape[-1])), m * thetas(x.shape[-1]))
    return torch.view_as_real(turned).reshape(x.shape)


def elementwise_form(x: torch.Tensor, positions) -> torch.Tensor:
    """Eq. 34: x ⊗ (cos mθ1, cos mθ1, cos mθ2, ...) + (-x2, x1, -x4, x3, ...) ⊗ (sin mθ1, sin mθ1, ...)."""
    angle = torch.tensor(positions, dtype=torch.float64)[:, None] * thetas(x.shape[-1]).repeat_interleave(2)
    swapped = torch.stack([-x[..., 1::2], x[..., 0::2]], dim=-1).reshape(x.shape)
    return x * torch.cos(angle) + swapped * torch.sin(angle)


def rotate_half_form(x: torch.Tensor, positions) -> torch.Tensor:
    """GPT-NeoX's and Hugging Face Llama's: x·cos + rotate_half(x)·sin, the angles repeated over both halves."""
    angle = torch.tensor(positions, dtype=torch.float64)[:, None] * thetas(x.shape[-1])
    angle = torch.cat([angle, angle], dim=-1)
    half = x.shape[-1] // 2
    return x * torch.cos(angle) + torch.cat([-x[..., half:], x[..., :half]], dim=-1) * torch.sin(angle)


@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_equal_to_the_papers_formulas(pkg):
    x = torch.from_numpy(X)
    got = pkg.rotary_embedding(X, POSITIONS)
    close(got, complex_form(x, POSITIONS))
    close(got, elementwise_form(x, POSITIONS))
    close(pkg.rotary_embedding(X, POSITIONS, pairing="halves"), rotate_half_form(x, POSITIONS))
    close(pkg.rotary_embedding(X), complex_form(x, list(range(7))))  # positions 0..n-1 when None


def test_the_angles_are_the_sinusoidal_encodings():
    angles = rotary.rotary_angles(list(range(5)), 4)
    close(angles[:, 0], np.arange(5.0))
    close(angles[:, 1], np.arange(5.0) / 100)
    close(np.sin(angles), ref.sinusoidal_positional_encoding(5, 4)[:, 0::2])
    close(trotary.rotary_angles(list(range(5)), 4), angles)


@pytest.mark.parametrize("pairing", ["interleaved", "halves"])
@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_a_score_depends_only_on_the_distance(pkg, pairing):
    """q turned for a, k for a + r: for 101 distances r and 40 starts a, each distance one score."""
    q, k = RNG.standard_normal((2, 8))
    starts = np.arange(100, 140)
    for r in range(-50, 51):
        Q = np.asarray(pkg.rotary_embedding(np.tile(q, (40, 1)), starts, pairing=pairing))
        K = np.asarray(pkg.rotary_embedding(np.tile(k, (40, 1)), starts + r, pairing=pairing))
        s = (Q * K).sum(axis=1)  # (40,)
        assert s.max() - s.min() < 1e-12, r
    # and the length of a vector does not change
    close(np.linalg.norm(np.asarray(pkg.rotary_embedding(X, POSITIONS)), axis=-1), np.linalg.norm(X, axis=-1))


def test_the_sites_distance_check():
    c = topic.distance_check()
    assert c.interleaved.shape == c.halves.shape == (len(topic.STARTS), len(topic.OFFSETS)) == (64, 65)
    assert c.largest_spread < 1e-12  # the same score for every start, at each distance
    assert c.smallest_range > 1  # but not the same at every distance
    assert c.largest_pairing_difference > 1  # and the two pairings give different numbers
    close(c.interleaved[:, topic.OFFSETS.index(0)], np.full(64, 2.0))  # distance 0: dog · man, unturned


def test_the_pairings_are_the_same_turn_of_reordered_entries():
    perm = rotary.pairing_permutation(8)
    assert perm.tolist() == [0, 2, 4, 6, 1, 3, 5, 7]
    for pkg in (ref, tref):
        close(
            pkg.rotary_embedding(X[..., perm], POSITIONS, pairing="halves"),
            pkg.rotary_embedding(X, POSITIONS)[..., perm],
        )
        halves, interleaved = pkg.rotary_embedding(X, POSITIONS, pairing="halves"), pkg.rotary_embedding(X, POSITIONS)
        assert np.abs(np.asarray(halves) - np.asarray(interleaved)).max() > 0.1
    assert trotary.pairing_permutation(8).tolist() == perm.tolist()


def test_dog_bites_man_against_man_bites_dog():
    t = topic.turned("dog_bites_man")
    close(t.angles, [[0, 0], [1, 0.01], [2, 0.02]])
    a, b = t.E[2, 0], t.E[2, 1]  # "man", pair 1, at position 2: turned by 2 radians
    close(t.interleaved[2, :2], [a * math.cos(2) - b * math.sin(2), a * math.sin(2) + b * math.cos(2)])
    dbm, mbd = topic.sentence("dog_bites_man"), topic.sentence("man_bites_dog")
    # turning keeps each word's score with itself: the first page's
    close(np.diag(dbm.scores), np.diag(dbm.scores_without))
    close(np.diag(mbd.scores), np.diag(mbd.scores_without))
    # "dog" reading "man" two places ahead, and two places back: two scores where the first page had one
    dog, man = 0, 2
    assert f"{dbm.scores[dog, man]:.3f}" == "1.493" and f"{mbd.scores[man, dog]:.3f}" == "-0.326"
    assert dbm.scores_without[dog, man] == mbd.scores_without[man, dog] == 2
    assert np.abs(dbm.mean - mbd.mean).max() > 0.01  # the averages differ: word order is seen
    close(topic.sentence("dog_bites_man", "halves").scores, mistakes.rope_pairing().wrong)


def test_mixing_the_pairings_is_a_bug():
    m = mistakes.rope_pairing()
    close(m.right, topic.sentence("dog_bites_man").scores)
    close(m.reordered, m.right)
    assert np.abs(m.wrong - m.right).max() > 1
    close(np.diag(m.wrong), np.diag(m.right))  # each word's score with itself survives any pairing


@pytest.mark.parametrize("pkg", [rotary, trotary], ids=["numpy", "torch"])
def test_bad_input(pkg):
    with pytest.raises(ValueError, match=r"X must have an even width \(its entries go in pairs\), got X \(2, 3\)"):
        pkg.rotary_embedding(np.ones((2, 3)))
    with pytest.raises(ValueError, match="positions must hold 7 integers, one per row, got 2"):
        pkg.rotary_embedding(X, [0, 1])
    with pytest.raises(
        ValueError, match=r"positions must lie between 0 and 2\*\*53, got \[0, an integer of 16 digits\]"
    ):
        pkg.rotary_angles([0, 2**53 + 1], 4)
    with pytest.raises(ValueError, match="pairing must be 'interleaved' or 'halves', got 'neox'"):
        pkg.rotary_embedding(X, pairing="neox")
    with pytest.raises(ValueError, match=r"d must be even \(the entries go in pairs\), got 5"):
        pkg.pairing_permutation(5)
    with pytest.raises(ValueError, match=r"X \(1, 2\) is too large: the turned pairs overflow"):
        pkg.rotary_embedding([[1.5e308, 1.5e308]], [1])


def test_the_topics_bad_input():
    with pytest.raises(ValueError, match=r"^slug must be 'dog_bites_man' or 'man_bites_dog', got \['x'\]$"):
        topic.turned(["x"])
    with pytest.raises(ValueError, match=r"^pairing must be 'interleaved' or 'halves', got 'neox'$"):
        topic.sentence("dog_bites_man", "neox")
    with pytest.raises(ValueError, match=r"q and k must have the same width, got q \(2,\) and k \(3,\)"):
        topic.relative_scores([1.0, 0.0], [1.0, 0.0, 0.0], [0], [0])
    with pytest.raises(ValueError, match="offsets must be a list of integers, got 0.5"):
        topic.relative_scores([1.0, 0.0], [1.0, 0.0], [0], 0.5)
    with pytest.raises(ValueError, match=r"starts and offsets must give no negative position \(a \+ r >= 0\)"):
        topic.relative_scores([1.0, 0.0], [1.0, 0.0], [0], [-1])
    with pytest.raises(ValueError, match="^starts must be a list of one or more integers"):
        topic.relative_scores([1.0, 0.0], [1.0, 0.0], [0.5], [0])
    # offsets are read as every integer argument is (selfattn_ref._validate.integer_array): exactly
    with pytest.raises(ValueError, match=r"no position beyond 2\*\*53 \(a \+ r <= 2\*\*53\)$"):
        topic.relative_scores([1.0, 0.0], [1.0, 0.0], [0], np.array([0, 2**64 - 1], dtype=np.uint64))  # not -1
    with pytest.raises(ValueError, match="^offsets is a masked array"):
        topic.relative_scores([1.0, 0.0], [1.0, 0.0], [0], np.ma.masked_array([0, 1], mask=[False, True]))
