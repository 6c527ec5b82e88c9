"""Rotary position embeddings (RoPE; Su et al. 2021, "RoFormer") in PyTorch, the twin of
:mod:`selfattn_ref.rotary`.

Instead of adding a vector for each position to the embeddings (:mod:`selfattn_ref.torch.positional`),
RoPE turns each pair of entries of a query and of a key by an angle that grows with the token's
position: pair p of the token at position ``pos`` (both numbered from 0) turns by
``pos · base^(-2p/d)``, where d is the width and ``base`` is 10,000 as in the paper. A turned pair
keeps its length, and the dot product of a query turned for position a with a key turned for
position b depends on b - a only, not on a and b (:func:`rotary_embedding`'s docstring says why).
The values are not turned.

Which entries make a pair is a convention, ``pairing``:

- ``"interleaved"``: entries 0 and 1, 2 and 3, ... as in the paper (its eq. 34) and in Meta's Llama
  code, which reads each pair as one complex number;
- ``"halves"``: entries p and p + d/2, the first half against the second, as in GPT-NeoX and the
  Llama code of Hugging Face's transformers (``rotate_half``).

Both turn pair p by the same angle, and both give scores that depend on the distance only, but they
pair different entries, so the same vector gets different numbers. A model trained with one pairing
needs the columns of its W_Q and W_K reordered to run with the other.
"""

from __future__ import annotations

import torch

from .._validate import as_choice, as_positions, check_size, positive_float, positive_integer, value_text
from ._validate import as_float_tensor, finite, shape

__all__ = ["pairing_permutation", "rotary_angles", "rotary_embedding"]

PAIRINGS = ("interleaved", "halves")  # the two conventions for which entries make a pair
BASE = 10000.0  # the paper's base, and Llama 2's


def rotary_angles(positions, d, base=BASE) -> torch.Tensor:
    """The angle by which each pair of entries turns at each position, in radians.

    positions: (n,) integers from 0; d: the (even) width of the vectors, which have d/2 pairs.
    Returns (n, d/2), a column for each pair: entry [i, p] is positions[i] · base^(-2p/d), so pair 0
    turns by the position itself (one radian per step) and each later pair more slowly, the last
    almost base times more slowly. At d = 4 the two pairs turn by pos and pos / 100, the angles of
    the sinusoidal encoding at d = 4.
    """
    d = positive_integer(d, "d")
    if d % 2:
        raise ValueError(f"d must be even (the entries go in pairs), got {value_text(d)}")
    positions = as_positions(positions, None)
    base = positive_float(base, "base")
    check_size((len(positions), d // 2), f"with {len(positions)} positions and d = {value_text(d)}, the angles")
    inv_freq = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)  # (d/2,): base^(-2p/d)
    return torch.from_numpy(positions).to(torch.float64)[:, None] * inv_freq[None, :]  # (n, d/2)


# --8<-- [start:rotary_embedding]
def rotary_embedding(X, positions=None, base=BASE, pairing="interleaved") -> torch.Tensor:
    """Each row of X turned, pair of entries by pair, by the angles of its position.

    X: (..., n, d) queries or keys, d even; positions: (n,) integers from 0, the position of each
    row (0, 1, ..., n - 1 when None; a KV cache passes the positions of the new tokens). Returns
    (..., n, d). With ``pairing="interleaved"`` the pair p is entries 2p and 2p + 1, with
    ``"halves"`` it is entries p and p + d/2; either way a pair of entries a and b at angle θ
    becomes a·cos θ - b·sin θ and a·sin θ + b·cos θ.

    Why a score depends on the distance only: turning a pair by θ is multiplying it by a rotation
    matrix R(θ), and R(α)ᵀ R(β) = R(β - α), so (q R(α)ᵀ) · (k R(β)ᵀ) = q · (k R(β - α)ᵀ), one
    turn by the difference of the angles, which is the distance times the pair's frequency.
    """
    X = as_float_tensor(X, "X", min_ndim=2)
    pairing = as_choice(pairing, "pairing", PAIRINGS)
    n, d = X.shape[-2], X.shape[-1]
    if d % 2:
        raise ValueError(f"X must have an even width (its entries go in pairs), got X {shape(X)}")
    positions = list(range(n)) if positions is None else as_positions(positions, n)
    angles = rotary_angles(positions, d, base)  # (n, d/2)
    cos, sin = torch.cos(angles).to(X.dtype), torch.sin(angles).to(X.dtype)  # (n, d/2) each
    if pairing == "interleaved":
        a, b = X[..., 0::2], X[..., 1::2]  # (..., n, d/2): entries 0, 2, 4, ... and 1, 3, 5, ...
    else:
        a, b = X[..., : d // 2], X[..., d // 2 :]  # (..., n, d/2): the first half and the second
    turned_a = finite(a * cos - b * sin, "the turned pairs overflow", X=X)  # (..., n, d/2)
    turned_b = finite(a * sin + b * cos, "the turned pairs overflow", X=X)  # (..., n, d/2)
    if pairing == "interleaved":
        return torch.stack([turned_a, turned_b], dim=-1).flatten(-2)  # (..., n, d): a0, b0, a1, b1, ...
    return torch.cat([turned_a, turned_b], dim=-1)  # (..., n, d): the first half, then the second


# --8<-- [end:rotary_embedding]


def pairing_permutation(d) -> torch.Tensor:
    """The order of entries that takes the interleaved pairing to the halves pairing.

    d: the (even) width. Returns (d,) indices ``perm``, the even entries then the odd ones
    (0, 2, 4, ..., 1, 3, 5, ...), such that for any X (..., n, d)
    ``rotary_embedding(X[..., perm], pairing="halves")`` equals
    ``rotary_embedding(X, pairing="interleaved")[..., perm]``: pair p, entries 2p and 2p + 1, lands
    on entries p and p + d/2. Reordering the columns of W_Q and W_K so is how a model's weights move
    from one convention to the other.
    """
    d = positive_integer(d, "d")
    if d % 2:
        raise ValueError(f"d must be even (the entries go in pairs), got {value_text(d)}")
    check_size((d,), f"with d = {value_text(d)}, the order of entries")
    return torch.cat([torch.arange(0, d, 2), torch.arange(1, d, 2)])  # (d,)
