"""The computations of docs/transformer-block.md: one transformer block on "bank of river".

The data, defined once here, as the worked examples' data is in their spec files:

- the input X: the embeddings of the example bank_of_river (3 tokens, d_model = 4);
- the attention: one head (:data:`NUM_HEADS`) whose weights make it exactly the first page's
  softmax(X·Xᵀ)·X: W_K = W_V = W_O = I and W_Q = √d_head · I = 2 · I, which cancels the division
  by √d_head that multi-head attention (and ``torch.nn.TransformerEncoderLayer``) always does;
- the feed-forward network: inner width :data:`D_FF`, W_1 (4, 8), b_1 (8,), W_2 (8, 4) and b_2 (4,)
  drawn in that order from ``numpy.random.default_rng(SEED).normal(0, STD, shape)``, standing in for
  trained weights as on the page on learned weights;
- both layer normalizations: γ all 1 and β all 0 (what ``torch.nn.LayerNorm`` starts with) and
  ε = :data:`EPS`, PyTorch's default.

Everything is computed by :func:`selfattn_ref.transformer_block`, post-norm as in the original
Transformer; :func:`pre_norm` is the same block with ``norm_first=True``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import examples
from ..block import EPS, BlockSteps, transformer_block

SLUG = "bank_of_river"
NUM_HEADS = 1
D_FF = 8  # the feed-forward network's inner width: 2 × d_model here (the original Transformer: 4 × 512 = 2048)
SEED = 42
STD = 0.5  # of the feed-forward network's seeded weights and biases

__all__ = ["Block", "BlockWeights", "block", "feed_forward_weights", "pre_norm", "weights"]


@dataclass(frozen=True)
class BlockWeights:
    """The weights of the page's block, in the order :func:`selfattn_ref.transformer_block` takes them."""

    W_Q: np.ndarray  # (d_model, d_model): √d_head · I
    W_K: np.ndarray  # (d_model, d_model): I
    W_V: np.ndarray  # (d_model, d_model): I
    W_O: np.ndarray  # (d_model, d_model): I
    num_heads: int
    W_1: np.ndarray  # (d_model, d_ff)
    b_1: np.ndarray  # (d_ff,)
    W_2: np.ndarray  # (d_ff, d_model)
    b_2: np.ndarray  # (d_model,)
    gamma_1: np.ndarray  # (d_model,): all 1
    beta_1: np.ndarray  # (d_model,): all 0
    gamma_2: np.ndarray  # (d_model,): all 1
    beta_2: np.ndarray  # (d_model,): all 0
    eps: float

    def arguments(self) -> tuple:
        """The weights as :func:`selfattn_ref.transformer_block` takes them after X, eps included:
        W_Q, W_K, W_V, W_O (d_model, d_model), num_heads, W_1 (d_model, d_ff), b_1 (d_ff,),
        W_2 (d_ff, d_model), b_2 (d_model,), gamma_1, beta_1, gamma_2, beta_2 (d_model,), eps."""
        return (
            self.W_Q, self.W_K, self.W_V, self.W_O, self.num_heads, self.W_1, self.b_1, self.W_2, self.b_2,
            self.gamma_1, self.beta_1, self.gamma_2, self.beta_2, self.eps,
        )  # fmt: skip


@dataclass(frozen=True)
class Block:
    """The page's block on bank of river, every step, and the rows' statistics of both normalizations."""

    tokens: tuple[str, ...]
    X: np.ndarray  # (n, d_model): the embeddings of bank_of_river
    weights: BlockWeights
    steps: BlockSteps  # post-norm, as in the original Transformer
    mean_1: np.ndarray  # (n,): μ of each row of X + attention
    variance_1: np.ndarray  # (n,): σ² of each row of X + attention (divided by d_model)
    root_1: np.ndarray  # (n,): √(σ² + ε) of each row of X + attention
    mean_2: np.ndarray  # (n,): μ of each row of Z + FFN(Z)
    variance_2: np.ndarray  # (n,): σ² of each row of Z + FFN(Z)
    root_2: np.ndarray  # (n,): √(σ² + ε) of each row of Z + FFN(Z)
    decimals: int  # the example's


def feed_forward_weights(seed: int, d_model: int, d_ff: int, std: float) -> tuple[np.ndarray, ...]:
    """W_1 (d_model, d_ff), b_1 (d_ff,), W_2 (d_ff, d_model) and b_2 (d_model,), drawn in that
    order from ``numpy.random.default_rng(seed).normal(0, std, shape)``."""
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(0, std, s) for s in ((d_model, d_ff), (d_ff,), (d_ff, d_model), (d_model,)))


@cache
def weights() -> BlockWeights:
    """The weights of the page's block (see the module's docstring); d_model = 4 from the example."""
    d = examples.load(SLUG).E.shape[1]
    d_head = d // NUM_HEADS
    eye = np.eye(d)
    ones, zeros = np.ones(d), np.zeros(d)
    W_1, b_1, W_2, b_2 = feed_forward_weights(SEED, d, D_FF, STD)
    W_Q = np.sqrt(d_head) * eye  # 2 · I: cancels the division of the scores by √d_head = 2
    return BlockWeights(W_Q, eye, eye, eye, NUM_HEADS, W_1, b_1, W_2, b_2, ones, zeros, ones, zeros, EPS)


def _stats(M: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """μ, σ² and √(σ² + ε) of each row of M (n, d) -> three (n,)."""
    mean = M.mean(axis=-1)
    variance = ((M - mean[:, None]) ** 2).mean(axis=-1)
    return mean, variance, np.sqrt(variance + eps)


@cache
def block() -> Block:
    """bank of river through :func:`selfattn_ref.transformer_block` (post-norm) with :func:`weights`."""
    ex = examples.load(SLUG)
    W = weights()
    steps = transformer_block(ex.E, *W.arguments(), norm_first=False)
    first, second = _stats(steps.sum_1, W.eps), _stats(steps.sum_2, W.eps)
    return Block(ex.tokens, ex.E, W, steps, *first, *second, ex.decimals)


@cache
def pre_norm() -> BlockSteps:
    """The same block with the normalizations first (``norm_first=True``, as in GPT-2): every step."""
    return transformer_block(examples.load(SLUG).E, *weights().arguments(), norm_first=True)
