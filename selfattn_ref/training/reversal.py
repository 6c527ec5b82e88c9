"""Attention that learns: a one-layer attention model trained to reverse a sequence of letters.

PyTorch only: a training run needs autograd and an optimizer, so this module has no NumPy twin
(and is not one of the twins in :mod:`selfattn_ref.torch`); it imports ``torch``.

Each sequence holds :data:`LENGTH` different letters out of :data:`LETTERS`; the model must give
them back in the opposite order, so the answer at position i (counting from 1) is the letter at
position n + 1 - i, its *partner*. The right attention pattern is known before training: every
query puts all of its weight on its partner's key, the anti-diagonal of the weights.

The model: each letter's learned embedding plus the sinusoidal positional encoding of its place,
one attention layer with learned W_Q and W_K (scaled scores), and as values the letters
themselves, one-hot, so that the output of a position is a probability for each letter. With
different letters in a sequence, the probability of the right letter is the attention weight on
the partner, and the cross-entropy loss is -ln of that weight, averaged over the positions.
Training is full-batch AdamW, seeded, on one CPU thread with deterministic kernels, float64, so
that every run gives the same numbers. ``snippets/attention_that_learns/train_torch.py`` restates
this module for readers, and a test holds the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import torch

from ..torch.positional import sinusoidal_positional_encoding

LETTERS = "abcdefgh"
LENGTH = 6  # letters per sequence, all different

# The published run: these settings and nothing else.
SEED = 0
D_MODEL = 16
STEPS = 200
LR = 0.02
WEIGHT_DECAY = 0.01  # PyTorch's default for AdamW
TRAIN_SIZE = 512
HELD_OUT_SIZE = 256
SNAPSHOTS = (0, 25, STEPS)  # the steps the page shows: the start, a middle step, the end


def partner(i: int, n: int = LENGTH) -> int:
    """The position (counting from 1) whose letter is the answer at position ``i`` of ``n``: n + 1 - i."""
    for name, value in (("n", n), ("i", i)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if i > n:
        raise ValueError(f"i must be a position from 1 to n = {n}, got {i}")
    return n + 1 - i


def sequences(seed: int = SEED) -> tuple[torch.Tensor, torch.Tensor]:
    """(training, held-out) letter ids, (N, n) each, with N = TRAIN_SIZE and HELD_OUT_SIZE and
    n = LENGTH: distinct sequences of different letters, drawn from ``torch.Generator().manual_seed(seed)`` one
    ``randperm`` at a time (a sequence drawn again is skipped); the first TRAIN_SIZE are for
    training, the rest are held out, so no held-out sequence appears in training."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    generator = torch.Generator().manual_seed(seed)
    seen, rows = set(), []
    while len(rows) < TRAIN_SIZE + HELD_OUT_SIZE:
        row = tuple(torch.randperm(len(LETTERS), generator=generator)[:LENGTH].tolist())
        if row not in seen:
            seen.add(row)
            rows.append(row)
    ids = torch.tensor(rows)  # (TRAIN_SIZE + HELD_OUT_SIZE, LENGTH)
    return ids[:TRAIN_SIZE], ids[TRAIN_SIZE:]


def letters(ids) -> str:
    """A sequence of letter ids (n,) as its letters, separated by spaces: [2, 7, 0] -> "c h a"."""
    values = ids.tolist() if isinstance(ids, torch.Tensor) else list(ids)
    if not values or not all(isinstance(v, int) and 0 <= v < len(LETTERS) for v in values):
        raise ValueError(f"ids must be a non-empty sequence of letter ids from 0 to {len(LETTERS) - 1}, got {ids!r}")
    return " ".join(LETTERS[v] for v in values)


def targets(ids: torch.Tensor) -> torch.Tensor:
    """The right answers: each sequence of ids (B, n) reversed, (B, n)."""
    return ids.flip(-1)


def _check(ids) -> None:
    """ValueError unless ``ids`` is an int64 tensor of sequences (B, LENGTH) of letter ids."""
    if not isinstance(ids, torch.Tensor) or ids.ndim != 2 or ids.dtype != torch.int64:
        got = f"shape {tuple(ids.shape)}, dtype {ids.dtype}" if isinstance(ids, torch.Tensor) else repr(ids)
        raise ValueError(f"ids must be an int64 tensor of shape (batch, {LENGTH}), got {got}")
    if ids.shape[1] != LENGTH or bool(((ids < 0) | (ids >= len(LETTERS))).any()):
        raise ValueError(
            f"ids must hold sequences of {LENGTH} letter ids from 0 to {len(LETTERS) - 1}, got shape {tuple(ids.shape)}"
        )


class ReversalAttention(torch.nn.Module):
    """Embedding plus positional encoding, one attention layer, the letters as one-hot values.

    Float64 throughout. :meth:`attention` gives the weights; calling the model gives, for each
    position, a probability for each letter (the weights of the keys that hold it).
    """

    def __init__(self, d: int = D_MODEL):
        super().__init__()
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise ValueError(f"d must be a positive integer, got {d!r}")
        self.embed = torch.nn.Embedding(len(LETTERS), d, dtype=torch.float64)
        self.W_Q = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.W_K = torch.nn.Linear(d, d, bias=False, dtype=torch.float64)
        self.register_buffer("PE", sinusoidal_positional_encoding(LENGTH, d))  # (n, d)

    def attention(self, ids: torch.Tensor) -> torch.Tensor:
        """The attention weights (B, n, n) for letter ids (B, n)."""
        _check(ids)
        X = self.embed(ids) + self.PE  # (B, n, d) + (n, d)
        Q, K = self.W_Q(X), self.W_K(X)  # (B, n, d) each
        return torch.softmax(Q @ K.transpose(1, 2) / Q.shape[-1] ** 0.5, dim=-1)  # (B, n, n)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        """For each position, a probability for each letter: ids (B, n) -> (B, n, 8), one column a letter."""
        _check(ids)
        V = torch.nn.functional.one_hot(ids, len(LETTERS)).to(torch.float64)  # (B, n, 8): the values
        return self.attention(ids) @ V  # (B, n, n) @ (B, n, 8)


def loss_of(model: ReversalAttention, ids: torch.Tensor) -> torch.Tensor:
    """The cross-entropy of the model's answers on ids (B, n): -ln of the probability it gives the
    right letter, averaged over every position of every sequence."""
    p = model(ids).gather(-1, targets(ids)[..., None])  # (B, n, 1)
    return -torch.log(p).mean()


@dataclass(frozen=True)
class Snapshot:
    """How the model does on the held-out sequences after ``step`` training steps."""

    step: int
    loss: float  # the cross-entropy on the held-out sequences
    accuracy: float  # the share of held-out positions whose most probable letter is the right one
    partner_weight: float  # the mean attention weight of a query on its partner, held out
    neighbour_weight: float  # the mean weight of a query on the keys next to its partner, together
    least_partner_weight: float  # the smallest weight on a partner, over every query of every held-out sequence
    partner_weight_by_query: tuple[float, ...]  # the mean for each query position
    example: tuple[tuple[float, ...], ...]  # the attention weights (n, n) of EXAMPLE, the first held-out sequence


def snapshot(model: ReversalAttention, step: int, ids: torch.Tensor) -> Snapshot:
    """The model's :class:`Snapshot` on the sequences ``ids`` (B, n); the example is ``ids[0]``."""
    n = ids.shape[1]
    partners = torch.arange(n - 1, -1, -1)  # query i's partner, counting from 0: n - 1 - i
    beside = (torch.arange(n)[None, :] - partners[:, None]).abs() == 1  # (n, n): the keys next to each partner
    with torch.no_grad():
        A = model.attention(ids)  # (B, n, n)
        w = A[:, torch.arange(n), partners]  # (B, n): each query's weight on its partner
        right = model(ids).argmax(dim=-1) == targets(ids)  # (B, n)
        return Snapshot(
            step=step,
            loss=loss_of(model, ids).item(),
            accuracy=right.double().mean().item(),
            partner_weight=w.mean().item(),
            neighbour_weight=(A * beside).sum(dim=-1).mean().item(),
            least_partner_weight=w.min().item(),
            partner_weight_by_query=tuple(w.mean(dim=0).tolist()),
            example=tuple(tuple(row) for row in A[0].tolist()),
        )


@dataclass(frozen=True)
class Run:
    """The trained model and its snapshots at :data:`SNAPSHOTS`."""

    model: ReversalAttention
    snapshots: tuple[Snapshot, ...]
    example: str  # the letters of the sequence whose weights the snapshots keep


def train(*, seed: int = SEED, d: int = D_MODEL, steps: int = STEPS, snapshots=SNAPSHOTS) -> Run:
    """Train the model on the training sequences, keeping a :class:`Snapshot` (on the held-out
    ones) at each step of ``snapshots`` (0 is before the first step).

    Deterministic: the seed fixes the starting weights, and training runs on one thread with
    deterministic kernels. The caller's RNG state, thread count and determinism setting are
    restored afterwards.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    snapshots = tuple(snapshots)
    if not snapshots or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= steps for s in snapshots):
        raise ValueError(f"snapshots must be steps from 0 to steps = {steps}, got {snapshots!r}")
    train_ids, held_out = sequences(seed)
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    kept = []
    try:
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            model = ReversalAttention(d)
            optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=WEIGHT_DECAY)
            for step in range(steps + 1):
                if step in snapshots:
                    kept.append(snapshot(model, step, held_out))
                if step == steps:
                    break
                loss = loss_of(model, train_ids)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
    model.eval()
    return Run(model, tuple(kept), letters(held_out[0]))


@cache
def experiment() -> Run:
    """The published run, trained once per process."""
    return train()
