"""The site's small language model in PyTorch, made of ``torch.nn`` modules: the twin of
:mod:`selfattn_ref.language_model`, which computes the same with the package's NumPy functions.

:class:`LanguageModel` is ``torch.nn.Embedding`` for the words and for the positions, :class:`Block`
twice (``torch.nn.LayerNorm``, ``torch.nn.MultiheadAttention`` without biases and with a causal mask,
``torch.nn.LayerNorm``, ``torch.nn.Linear``, ``torch.nn.ReLU``, ``torch.nn.Linear``, in GPT-2's
pre-norm order), a final ``torch.nn.LayerNorm`` and a ``torch.nn.Linear`` to one logit per word.
It is the model that :mod:`selfattn_ref.training.language_model` trains. :func:`model` builds it
from the NumPy package's :class:`~selfattn_ref.language_model.Weights` (``torch.nn.Linear``
multiplies by ``weight.T``, so every matrix goes in transposed) and :func:`weights_of` reads them
back; the functions below have the NumPy module's names and arguments and return tensors, computed
by the modules in float64.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from .. import corpus
from .. import language_model as _np
from .._validate import positive_float, tensor_numpy, value_text
from ..language_model import (
    EPS,
    BlockWeights,
    Weights,
    _top_k,
    _weights,
    from_record,
    load,
    record,
    rounded,
    without_heads,
)
from ._validate import as_float_tensor
from .block import BlockSteps
from .masks import causal_mask

__all__ = [
    "Block",
    "BlockWeights",
    "GenerationStep",
    "LanguageModel",
    "Steps",
    "Weights",
    "evaluate",
    "forward",
    "from_record",
    "generate",
    "greedy",
    "load",
    "model",
    "next_word_probabilities",
    "ranked",
    "record",
    "rounded",
    "sample",
    "weights_of",
    "without_heads",
]


class Block(nn.Module):
    """A pre-norm transformer block of ``torch.nn`` modules: X + attention(LN_1(X)) = Z, then
    Z + FFN(LN_2(Z)). The attention has no biases, as :func:`selfattn_ref.multi_head_attention`."""

    def __init__(self, d_model: int, num_heads: int, d_ff: int, dtype=torch.float64):
        super().__init__()
        self.norm_1 = nn.LayerNorm(d_model, eps=EPS, dtype=dtype)
        self.attention = nn.MultiheadAttention(d_model, num_heads, bias=False, batch_first=True, dtype=dtype)
        self.norm_2 = nn.LayerNorm(d_model, eps=EPS, dtype=dtype)
        self.linear_1 = nn.Linear(d_model, d_ff, dtype=dtype)
        self.relu = nn.ReLU()
        self.linear_2 = nn.Linear(d_ff, d_model, dtype=dtype)

    def forward(self, X: torch.Tensor, masked: torch.Tensor, need_weights: bool = False) -> BlockSteps | torch.Tensor:
        """X: (..., n, d_model); ``masked``: the boolean mask (n, n) of the keys a query may NOT
        read (``torch.nn.MultiheadAttention``'s convention). Returns the output (..., n, d_model), or
        with ``need_weights`` every step as :class:`selfattn_ref.torch.block.BlockSteps`."""
        norm_1 = self.norm_1(X)
        attention, weights = self.attention(
            norm_1, norm_1, norm_1, attn_mask=masked, need_weights=need_weights, average_attn_weights=False
        )  # (..., n, d_model), (..., num_heads, n, n)
        sum_1 = X + attention
        norm_2 = self.norm_2(sum_1)
        hidden = self.linear_1(norm_2)  # (..., n, d_ff)
        relu = self.relu(hidden)
        ffn = self.linear_2(relu)  # (..., n, d_model)
        sum_2 = sum_1 + ffn
        if not need_weights:
            return sum_2
        return BlockSteps(attention, weights, sum_1, norm_1, hidden, relu, ffn, sum_2, norm_2, sum_2)


class LanguageModel(nn.Module):
    """Embeddings of words and positions, the blocks, a final layer normalization and the logits.

    ``model(ids)`` maps word ids (..., n) to logits (..., n, d_vocab); :meth:`steps` keeps every
    intermediate. d_vocab words, n_ctx positions.
    """

    def __init__(
        self, d_vocab: int, n_ctx: int, d_model: int, num_heads: int, num_layers: int, d_ff: int, dtype=torch.float64
    ):
        super().__init__()
        self.token_embedding = nn.Embedding(d_vocab, d_model, dtype=dtype)
        self.position_embedding = nn.Embedding(n_ctx, d_model, dtype=dtype)
        self.blocks = nn.ModuleList(Block(d_model, num_heads, d_ff, dtype) for _ in range(num_layers))
        self.norm = nn.LayerNorm(d_model, eps=EPS, dtype=dtype)
        self.out = nn.Linear(d_model, d_vocab, dtype=dtype)

    def steps(self, ids: torch.Tensor, need_weights: bool = True) -> tuple:
        """(embeddings, positions, X, each block's steps, final, logits) for ids (..., n)."""
        n = ids.shape[-1]
        embeddings = self.token_embedding(ids)  # (..., n, d_model)
        positions = self.position_embedding(torch.arange(n)).expand_as(embeddings)  # (..., n, d_model)
        X = embeddings + positions
        masked = ~causal_mask(n)  # (n, n): True where a query may not read the key (the keys after it)
        blocks, H = [], X
        for block in self.blocks:
            step = block(H, masked, need_weights)
            blocks.append(step)
            H = step.output if need_weights else step
        final = self.norm(H)
        return embeddings, positions, X, tuple(blocks), final, self.out(final)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        """Logits (..., n, d_vocab) for word ids (..., n)."""
        return self.steps(ids, need_weights=False)[-1]


def model(weights=None) -> LanguageModel:
    """A :class:`LanguageModel` in float64 holding ``weights`` (the trained :func:`load` for None),
    in evaluation mode."""
    w = _weights(weights)
    d_ff = w.blocks[0].W_1.shape[1]
    m = LanguageModel(len(w.vocabulary), w.context, w.d_model, w.num_heads, len(w.blocks), d_ff)

    def t(a: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.array(a, dtype=np.float64))

    with torch.no_grad():
        m.token_embedding.weight.copy_(t(w.token_embedding))
        m.position_embedding.weight.copy_(t(w.position_embedding))
        for block, b in zip(m.blocks, w.blocks, strict=True):
            block.norm_1.weight.copy_(t(b.gamma_1))
            block.norm_1.bias.copy_(t(b.beta_1))
            block.attention.in_proj_weight.copy_(torch.cat([t(b.W_Q).T, t(b.W_K).T, t(b.W_V).T]))
            block.attention.out_proj.weight.copy_(t(b.W_O).T)
            block.norm_2.weight.copy_(t(b.gamma_2))
            block.norm_2.bias.copy_(t(b.beta_2))
            block.linear_1.weight.copy_(t(b.W_1).T)
            block.linear_1.bias.copy_(t(b.b_1))
            block.linear_2.weight.copy_(t(b.W_2).T)
            block.linear_2.bias.copy_(t(b.b_2))
        m.norm.weight.copy_(t(w.gamma))
        m.norm.bias.copy_(t(w.beta))
        m.out.weight.copy_(t(w.W_out).T)
        m.out.bias.copy_(t(w.b_out))
    return m.eval()


def weights_of(language_model: LanguageModel) -> Weights:
    """The NumPy package's :class:`~selfattn_ref.language_model.Weights` of a :class:`LanguageModel`
    (float64 arrays, row vectors: each ``torch.nn.Linear`` weight transposed)."""
    if not isinstance(language_model, LanguageModel):
        raise ValueError(f"language_model must be a LanguageModel, got {value_text(language_model)}")

    def a(t: torch.Tensor) -> np.ndarray:
        return t.detach().to(torch.float64).numpy().copy()

    m, d = language_model, language_model.token_embedding.weight.shape[1]
    blocks = []
    for block in m.blocks:
        W_in = a(block.attention.in_proj_weight)  # (3 d_model, d_model): W_Q.T, W_K.T, W_V.T stacked
        blocks.append(
            BlockWeights(
                W_Q=W_in[:d].T.copy(), W_K=W_in[d : 2 * d].T.copy(), W_V=W_in[2 * d :].T.copy(),
                W_O=a(block.attention.out_proj.weight).T.copy(),
                W_1=a(block.linear_1.weight).T.copy(), b_1=a(block.linear_1.bias),
                W_2=a(block.linear_2.weight).T.copy(), b_2=a(block.linear_2.bias),
                gamma_1=a(block.norm_1.weight), beta_1=a(block.norm_1.bias),
                gamma_2=a(block.norm_2.weight), beta_2=a(block.norm_2.bias),
            )
        )  # fmt: skip
    return Weights(
        vocabulary=corpus.VOCABULARY,
        num_heads=m.blocks[0].attention.num_heads,
        token_embedding=a(m.token_embedding.weight),
        position_embedding=a(m.position_embedding.weight),
        blocks=tuple(blocks),
        gamma=a(m.norm.weight),
        beta=a(m.norm.bias),
        W_out=a(m.out.weight).T.copy(),
        b_out=a(m.out.bias),
    )


@dataclass(frozen=True)
class Steps:
    """Every step of the model on one sentence of n words, as :func:`forward` computes it."""

    words: tuple[str, ...]  # the n words read
    ids: torch.Tensor  # (n,): their ids, their places in the vocabulary
    embeddings: torch.Tensor  # (n, d_model): row ids[i] of the token embedding for word i
    positions: torch.Tensor  # (n, d_model): rows 0 to n - 1 of the position embedding
    X: torch.Tensor  # (n, d_model): embeddings + positions, the first block's input
    blocks: tuple[BlockSteps, ...]  # each block's steps; blocks[b].weights (num_heads, n, n) are its heads'
    final: torch.Tensor  # (n, d_model): the final layer normalization of the last block's output
    logits: torch.Tensor  # (n, d_vocab): one logit per word of the vocabulary
    probabilities: torch.Tensor  # (n, d_vocab): softmax of each row: row i, the next word after word i


def forward(text, weights=None) -> Steps:
    """The model on ``text`` (a string of words, or a list of words: see
    :func:`selfattn_ref.corpus.words`), every step kept, as :class:`Steps` of tensors."""
    w = _weights(weights)
    words = corpus.words(text, limit=w.context)
    ids = torch.from_numpy(corpus.encode(words))
    with torch.no_grad():
        embeddings, positions, X, blocks, final, logits = model(w).steps(ids)
    return Steps(words, ids, embeddings, positions, X, blocks, final, logits, torch.softmax(logits, dim=-1))


def next_word_probabilities(logits, temperature=1.0, top_k=None) -> torch.Tensor:
    """The probabilities of the next word from ``logits`` (..., d_vocab): softmax(logits / temperature),
    over the ``top_k`` largest logits only (the others get 0; ties go to the word with the smaller id)
    when ``top_k`` is given. -> (..., d_vocab), each row summing to 1."""
    logits = as_float_tensor(logits, "logits", min_ndim=1)
    temperature = positive_float(temperature, "temperature")
    k = _top_k(top_k, logits.shape[-1])
    scaled = logits / temperature
    if not bool(torch.isfinite(scaled).all()):
        raise ValueError(f"logits / temperature overflows: temperature {temperature!r} is too small for these logits")
    if k is not None:
        order = torch.argsort(-logits, dim=-1, stable=True)  # largest first, ties by id
        kept = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, order[..., :k], True)
        scaled = torch.where(kept, scaled, torch.tensor(-torch.inf, dtype=scaled.dtype))
    return torch.softmax(scaled, dim=-1)


def _numpy(probabilities) -> np.ndarray:
    """``probabilities`` for the NumPy module's functions: a tensor checked and read as the numbers it
    holds (a negative view resolved; one inside vmap a ValueError naming it), anything else as it is."""
    if isinstance(probabilities, torch.Tensor):
        return tensor_numpy(as_float_tensor(probabilities, "probabilities", ndim=1), "probabilities")
    return probabilities


def greedy(probabilities) -> int:
    """The id of the most probable word of ``probabilities`` (d_vocab,) (a tie goes to the smaller id)."""
    return _np.greedy(_numpy(probabilities))


def sample(probabilities, u) -> int:
    """The id of the word that ``u``, from 0 to 1, draws from ``probabilities`` (d_vocab,): the first
    word whose running total of probability exceeds ``u`` (the NumPy module's rule)."""
    return _np.sample(_numpy(probabilities), u)


def ranked(probabilities, k=5) -> list[tuple[str, float]]:
    """The ``k`` most probable words of ``probabilities`` (d_vocab,), most probable first (ties by id)."""
    return _np.ranked(_numpy(probabilities), k)


@dataclass(frozen=True)
class GenerationStep:
    """One word of :func:`generate`: what the model read, the distribution it drew from, and the word."""

    words: tuple[str, ...]  # the words read: the text, then the words generated before this one
    probabilities: torch.Tensor  # (d_vocab,): the next word's probabilities, after temperature and top-k
    u: float | None  # the seeded number drawn from [0, 1), or None for greedy decoding
    word: str  # the word chosen


def generate(text, max_words=None, temperature=1.0, top_k=None, seed=None, weights=None) -> list[GenerationStep]:
    """Write the words that follow ``text``, one at a time, as the NumPy module's :func:`generate`
    does (the same rule, the same seeded numbers), with the modules of :class:`LanguageModel`. One
    :class:`GenerationStep` a word, with its distribution (d_vocab,)."""
    w = _weights(weights)
    m = model(w)

    def last_logits(ids: np.ndarray) -> torch.Tensor:  # (d_vocab,): after the last word
        with torch.no_grad():
            return m(torch.from_numpy(ids))[-1]

    return _np._generate(
        text, max_words, temperature, top_k, seed, w, last_logits, next_word_probabilities, GenerationStep
    )


def evaluate(sentences, weights=None) -> dict[str, corpus.Score]:
    """The model's :func:`selfattn_ref.corpus.score` on ``sentences`` (corpus Sentences), by group,
    computed by the modules of :class:`LanguageModel`."""
    w = _weights(weights)
    sentences, ids = _np._padded(sentences, w)
    with torch.no_grad():
        P = torch.softmax(model(w)(torch.from_numpy(ids)), dim=-1)  # (B, n, d_vocab)
    return _np._scored(sentences, P.numpy())
