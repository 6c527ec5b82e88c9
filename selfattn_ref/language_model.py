"""The site's small language model in NumPy: a decoder-only transformer that reads words of the corpus
(:mod:`selfattn_ref.corpus`) and gives a probability to each word of the vocabulary as the next word.

The model, as GPT-2 arranges it, at the sizes of the trained weights (:func:`load`):

1. Each word becomes its id, its place in the vocabulary (d_vocab = 43 words), and the id picks a
   row of the token embedding (d_vocab, d_model); the row of its position, from a learned position
   embedding (n_ctx, d_model), is added: X = embeddings + positions.
2. Two transformer blocks (:func:`selfattn_ref.transformer_block`, pre-norm, with a causal mask so
   that each word reads only itself and the words before it), each with 2 heads.
3. A final layer normalization, then one logit per word of the vocabulary: final · W_out + b_out.
4. Softmax turns the logits of the last word into the probabilities of the next word.

:func:`forward` returns every intermediate of that path, for one sentence; :func:`next_word_probabilities`
applies a temperature and top-k to logits; :func:`greedy` and :func:`sample` pick a word;
:func:`generate` runs the loop word by word; :func:`without_heads` removes heads; :func:`evaluate`
scores the model on sentences (what each head does is measured in
:mod:`selfattn_ref.topics.language_model`). The weights were trained here, in PyTorch
(:mod:`selfattn_ref.training.language_model`), and are kept as package data,
``selfattn_ref/language_model.json``: every tensor as its float32 numbers, so NumPy, PyTorch and
JavaScript read exactly the same values. The PyTorch twin, :mod:`selfattn_ref.torch.language_model`,
is made of ``torch.nn`` modules; a test holds the two equal on these weights.

**The rules a port must follow** (the playground's JavaScript; every rule is this package's, and
these are all of them):

- *The weights*: the file's ``vocabulary`` (the ids are its places: "." is 0, the others in
  alphabetical order), ``num_heads``, and each tensor as :data:`FORMAT` says; n_ctx is the rows of
  ``position_embedding``. Row vectors: a projection is ``x · W``.
- *Words* (:func:`selfattn_ref.corpus.words`): split the text on runs of the six ASCII white-space
  characters (space, tab, line feed, vertical tab, form feed, carriage return; JavaScript
  ``/[ \t\n\v\f\r]+/``) and drop empty pieces; a piece longer than one character that ends in "."
  is the piece without it, then "."; lower-case the letters A to Z and nothing else. 1 to n_ctx
  words, each in the vocabulary. An unknown word's message names the 3 nearest words
  (:func:`selfattn_ref.corpus.nearest`): its first 40 characters, A to Z lower-cased, against each
  word by the optimal string alignment distance (insert, delete, replace, or swap two neighbours,
  each 1), the nearest first, ties in the vocabulary's order.
- *The forward pass* (:func:`forward`), in float64: X = token rows + position rows 0 to n - 1; per
  block, N = the layer norm of X (:func:`selfattn_ref.block.layer_norm`: the mean and the
  variance divided by d_model, ε = 1e-5, then · γ + β), and each head h of width d_head = d_model /
  num_heads takes columns h·d_head to (h + 1)·d_head - 1 of N·W_Q, N·W_K and N·W_V, scores Q·Kᵀ /
  √d_head with -∞ above the diagonal, softmax by rows (the row's largest score subtracted first),
  weights · V; the heads side by side times W_O, added to X, give Z; then Z + (ReLU(layer norm of
  Z · W_1 + b_1) · W_2 + b_2) is the block's output. Then the final layer norm, and final · W_out +
  b_out, the logits.
- *Temperature and top-k* (:func:`next_word_probabilities`): the logits divided by the temperature
  (an error if a quotient is not finite); with top-k, the k ids with the largest logits are kept, a
  tie going to the smaller id (order the ids by logit, largest first, then by id), and the others
  get probability 0; softmax of what is kept.
- *Greedy* (:func:`greedy`): the id of the largest probability, a tie going to the smaller id.
- *Sampling* (:func:`sample`): with a number u in [0, 1), the first id, counting from 0, whose
  running total of probability (float64 additions, in id order) exceeds u; if rounding leaves u at
  or above the last total, the last id whose probability is above 0.
- *The seeded numbers* (:class:`selfattn_ref.corpus.SeededRandom`): mulberry32, 32-bit integer
  arithmetic (JavaScript's ``Math.imul`` and ``>>>``), each number the 32-bit result / 2^32.
- *The loop* (:func:`generate`): read the words so far, take the last row's logits, apply the
  temperature and top-k, choose (greedy, or :func:`sample` with the next number of
  ``SeededRandom(seed)``, one number a word), append the word; stop after "." or after
  ``max_words`` words (by default, until n_ctx words are read).

Sums in another order change a probability's last bits (about 1e-16), not these rules: a seeded
word can differ only if u falls that close to a running total.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path

import numpy as np

from . import corpus
from ._validate import as_float_array, positive_float, positive_integer, value_text
from .attention import softmax
from .block import BlockSteps, layer_norm, transformer_block
from .masks import causal_mask

__all__ = [
    "BlockWeights",
    "GenerationStep",
    "Steps",
    "Weights",
    "evaluate",
    "forward",
    "from_record",
    "generate",
    "greedy",
    "load",
    "next_word_probabilities",
    "ranked",
    "record",
    "rounded",
    "sample",
    "without_heads",
]

DATA = Path(__file__).with_name("language_model.json")
EPS = 1e-5  # layer normalization's ε, PyTorch's default


@dataclass(frozen=True)
class BlockWeights:
    """The weights of one transformer block, named as :func:`selfattn_ref.transformer_block`
    takes them (row vectors: a projection is ``X @ W``)."""

    W_Q: np.ndarray  # (d_model, d_model): every head's query weights, head h in its d_head columns
    W_K: np.ndarray  # (d_model, d_model): the key weights
    W_V: np.ndarray  # (d_model, d_model): the value weights
    W_O: np.ndarray  # (d_model, d_model): the output projection; rows h·d_head to (h+1)·d_head - 1 read head h
    W_1: np.ndarray  # (d_model, d_ff): the feed-forward network's first layer
    b_1: np.ndarray  # (d_ff,)
    W_2: np.ndarray  # (d_ff, d_model): its second layer
    b_2: np.ndarray  # (d_model,)
    gamma_1: np.ndarray  # (d_model,): the normalization before attention
    beta_1: np.ndarray  # (d_model,)
    gamma_2: np.ndarray  # (d_model,): the normalization before the feed-forward network
    beta_2: np.ndarray  # (d_model,)


@dataclass(frozen=True)
class Weights:
    """Every number of the language model. ``vocabulary`` is :data:`selfattn_ref.corpus.VOCABULARY`."""

    vocabulary: tuple[str, ...]  # the words, in the order of their ids
    num_heads: int  # heads of each block's attention
    token_embedding: np.ndarray  # (d_vocab, d_model): row i is the embedding of word i
    position_embedding: np.ndarray  # (n_ctx, d_model): row p is added at position p (from 0)
    blocks: tuple[BlockWeights, ...]  # the transformer blocks, first to last
    gamma: np.ndarray  # (d_model,): the final layer normalization's scale
    beta: np.ndarray  # (d_model,): and its shift
    W_out: np.ndarray  # (d_model, d_vocab): from the final vector to one logit per word
    b_out: np.ndarray  # (d_vocab,)

    @property
    def d_model(self) -> int:
        return self.token_embedding.shape[1]

    @property
    def context(self) -> int:
        """n_ctx, the most words the model reads: the rows of the position embedding."""
        return self.position_embedding.shape[0]

    @property
    def parameters(self) -> int:
        """How many numbers the model has."""
        arrays = [getattr(self, f.name) for f in fields(self) if isinstance(getattr(self, f.name), np.ndarray)]
        arrays += [getattr(b, f.name) for b in self.blocks for f in fields(b)]
        return sum(a.size for a in arrays)


# --- the weights' file ---------------------------------------------------------------------------

_BLOCK_FIELDS = tuple(f.name for f in fields(BlockWeights))
_TOP_FIELDS = ("token_embedding", "position_embedding", "gamma", "beta", "W_out", "b_out")
FORMAT = "each tensor is its shape and its float32 numbers in row-major order, little-endian, in base64"


def _map(weights: Weights, fn) -> Weights:
    """``weights`` with ``fn`` applied to every array."""
    blocks = tuple(replace(b, **{f.name: fn(getattr(b, f.name)) for f in fields(b)}) for b in weights.blocks)
    arrays = {name: fn(getattr(weights, name)) for name in _TOP_FIELDS}
    return replace(weights, blocks=blocks, **arrays)


def rounded(weights) -> Weights:
    """``weights`` with every number rounded to the nearest float32 (held in float64 arrays): the
    numbers the package's file keeps."""
    return _map(_weights(weights), lambda a: a.astype(np.float32).astype(np.float64))


def _encode(a: np.ndarray) -> dict:
    as32 = a.astype("<f4")
    if not np.array_equal(as32.astype(np.float64), a):
        raise ValueError("a weight is not a float32 number: round the weights to float32 before recording them")
    return {"shape": list(a.shape), "float32": base64.b64encode(as32.tobytes()).decode("ascii")}


def _decode(entry, name: str) -> np.ndarray:
    try:
        shape = tuple(int(k) for k in entry["shape"])
        raw = base64.b64decode(entry["float32"], validate=True)
        a = np.frombuffer(raw, dtype="<f4").astype(np.float64).reshape(shape)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"the language model's weights: {name} cannot be read ({exc})") from None
    if not np.all(np.isfinite(a)):
        raise ValueError(f"the language model's weights: {name} holds a number that is not finite")
    a.flags.writeable = False  # load() hands out the same arrays to every caller: none may change them
    return a


def record(weights: Weights) -> dict:
    """``weights`` as the package's file keeps them (a dict JSON can write): the vocabulary, the
    sizes, and each tensor as its shape and float32 numbers in base64 (:data:`FORMAT`). Every
    number must be a float32 number already; the rest of the file (its key) is the caller's."""
    return {
        "format": FORMAT,
        "vocabulary": list(weights.vocabulary),
        "num_heads": weights.num_heads,
        "tensors": {name: _encode(getattr(weights, name)) for name in _TOP_FIELDS},
        "blocks": [{name: _encode(getattr(b, name)) for name in _BLOCK_FIELDS} for b in weights.blocks],
    }


def from_record(data: dict) -> Weights:
    """The :class:`Weights` of a dict written by :func:`record` (float64 arrays holding the float32
    numbers exactly); a ValueError names what is missing or does not fit."""
    try:
        vocabulary = tuple(data["vocabulary"])
        num_heads = data["num_heads"]
        top = {name: _decode(data["tensors"][name], name) for name in _TOP_FIELDS}
        blocks = tuple(
            BlockWeights(**{name: _decode(b[name], f"block {k} {name}") for name in _BLOCK_FIELDS})
            for k, b in enumerate(data["blocks"], 1)
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"the language model's weights lack {exc}") from None
    if vocabulary != corpus.VOCABULARY:
        raise ValueError("the language model's weights were made for another vocabulary than the corpus's")
    weights = Weights(vocabulary, positive_integer(num_heads, "num_heads"), blocks=blocks, **top)
    _check_shapes(weights)
    return weights


def _check_shapes(w: Weights) -> None:
    V, d = len(w.vocabulary), w.token_embedding.shape[-1]
    d_ff = w.blocks[0].W_1.shape[-1] if w.blocks else 0
    want = {"token_embedding": (V, d), "gamma": (d,), "beta": (d,), "W_out": (d, V), "b_out": (V,)}
    want_block = {
        **{k: (d, d) for k in ("W_Q", "W_K", "W_V", "W_O")},
        **{k: (d,) for k in ("b_2", "gamma_1", "beta_1", "gamma_2", "beta_2")},
        "W_1": (d, d_ff),
        "b_1": (d_ff,),
        "W_2": (d_ff, d),
    }
    problems = [f"{k} {getattr(w, k).shape}, not {s}" for k, s in want.items() if getattr(w, k).shape != s]
    if w.position_embedding.ndim != 2 or w.position_embedding.shape[1] != d:
        problems.append(f"position_embedding {w.position_embedding.shape}, not (n_ctx, {d})")
    for i, b in enumerate(w.blocks, 1):
        problems += [f"block {i} {k} {getattr(b, k).shape}, not {s}" for k, s in want_block.items()
                     if getattr(b, k).shape != s]  # fmt: skip
    if not w.blocks or d % w.num_heads:
        problems.append(f"{len(w.blocks)} blocks of {w.num_heads} heads for d_model = {d}")
    if problems:
        raise ValueError(f"the language model's weights do not fit together: {'; '.join(problems)}")


@cache
def load() -> Weights:
    """The trained weights, from the package's ``language_model.json`` (read once)."""
    try:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the language model's weights, {DATA.name}: {exc}") from None
    return from_record(data)


def _weights(weights) -> Weights:
    if weights is None:
        return load()
    if not isinstance(weights, Weights):
        raise ValueError(
            f"weights must be the language model's Weights (or None for the trained ones), got {value_text(weights)}"
        )
    return weights


def without_heads(weights, heads) -> Weights:
    """``weights`` with the heads ``heads`` removed: a list of [block, head] pairs, each counting from
    1. A head is removed by setting to 0 the rows of its block's W_O that read it, so that its output
    adds nothing; its attention weights are still computed. d_head = d_model / num_heads rows each."""
    w = _weights(weights)
    pairs = list(heads) if isinstance(heads, (list, tuple)) else None
    d_head = w.d_model // w.num_heads
    blocks = list(w.blocks)
    for pair in pairs if pairs is not None else [heads]:
        ok = isinstance(pair, tuple) and len(pair) == 2 and all(type(v) is int for v in pair)
        if pairs is None or not ok or not (1 <= pair[0] <= len(blocks) and 1 <= pair[1] <= w.num_heads):
            raise ValueError(
                f"heads must be a list of (block, head) pairs, blocks 1 to {len(blocks)} and heads 1 to "
                f"{w.num_heads}, got {value_text(heads)}"
            )
        b, h = pair
        W_O = blocks[b - 1].W_O.copy()
        W_O[(h - 1) * d_head : h * d_head] = 0.0  # the rows that read head h
        blocks[b - 1] = replace(blocks[b - 1], W_O=W_O)
    return replace(w, blocks=tuple(blocks))


# --- the forward pass ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Steps:
    """Every step of the model on one sentence of n words, as :func:`forward` computes it."""

    words: tuple[str, ...]  # the n words read
    ids: np.ndarray  # (n,): their ids, their places in the vocabulary
    embeddings: np.ndarray  # (n, d_model): row ids[i] of the token embedding for word i
    positions: np.ndarray  # (n, d_model): rows 0 to n - 1 of the position embedding
    X: np.ndarray  # (n, d_model): embeddings + positions, the first block's input
    blocks: tuple[BlockSteps, ...]  # each block's steps; blocks[b].weights (num_heads, n, n) are its heads'
    final: np.ndarray  # (n, d_model): the final layer normalization of the last block's output
    logits: np.ndarray  # (n, d_vocab): final · W_out + b_out, one logit per word of the vocabulary
    probabilities: np.ndarray  # (n, d_vocab): softmax of each row: row i, the next word after word i


def _forward(ids: np.ndarray, w: Weights) -> tuple:
    """The forward pass on ids (..., n) of checked length: (embeddings, positions, X, block steps,
    final, logits), each (..., n, ·)."""
    n = ids.shape[-1]
    embeddings = w.token_embedding[ids]  # (..., n, d_model)
    positions = w.position_embedding[:n]  # (n, d_model)
    X = embeddings + positions
    mask = causal_mask(n)  # (n, n): word i reads words 0 to i
    steps, H = [], X
    for b in w.blocks:
        s = transformer_block(
            H, b.W_Q, b.W_K, b.W_V, b.W_O, w.num_heads, b.W_1, b.b_1, b.W_2, b.b_2,
            b.gamma_1, b.beta_1, b.gamma_2, b.beta_2, eps=EPS, norm_first=True, mask=mask,
        )  # fmt: skip
        steps.append(s)
        H = s.output
    final = layer_norm(H, w.gamma, w.beta, eps=EPS)  # (..., n, d_model)
    logits = final @ w.W_out + w.b_out  # (..., n, d_vocab)
    return embeddings, np.broadcast_to(positions, embeddings.shape).copy(), X, tuple(steps), final, logits


def forward(text, weights=None) -> Steps:
    """The model on ``text`` (a string of words, or a list of words: see
    :func:`selfattn_ref.corpus.words`), every step kept, as :class:`Steps`. ``weights``: the trained
    :func:`load` (None) or any :class:`Weights`. Row i of ``probabilities`` is the model's next word
    after words 0 to i: the last row, after the whole text."""
    w = _weights(weights)
    words = corpus.words(text, limit=w.context)
    ids = corpus.encode(words)
    embeddings, positions, X, blocks, final, logits = _forward(ids, w)
    return Steps(words, ids, embeddings, positions, X, blocks, final, logits, softmax(logits))


# --- from logits to a word -----------------------------------------------------------------------


def _top_k(top_k, size: int, name: str = "top_k") -> int | None:
    """``top_k`` as an int from 1 to ``size``, or None (for ``name`` "top_k" only)."""
    if top_k is None and name == "top_k":
        return None
    if isinstance(top_k, (bool, np.bool_)) or not isinstance(top_k, (int, np.integer)) or not 1 <= top_k <= size:
        what = "None or an integer" if name == "top_k" else "an integer"
        raise ValueError(f"{name} must be {what} from 1 to {size}, got {value_text(top_k)}")
    return int(top_k)


def next_word_probabilities(logits, temperature=1.0, top_k=None) -> np.ndarray:
    """The probabilities of the next word from ``logits`` (..., d_vocab): softmax(logits / temperature),
    over the ``top_k`` largest logits only (the others get 0; ties go to the word with the smaller id)
    when ``top_k`` is given. A temperature below 1 sharpens the distribution, above 1 flattens it;
    -> (..., d_vocab), each row summing to 1."""
    logits = as_float_array(logits, "logits", min_ndim=1)
    temperature = positive_float(temperature, "temperature")
    k = _top_k(top_k, logits.shape[-1])
    with np.errstate(over="ignore"):
        scaled = logits / temperature
    if not np.all(np.isfinite(scaled)):
        raise ValueError(f"logits / temperature overflows: temperature {temperature!r} is too small for these logits")
    if k is not None:
        order = np.argsort(-logits, axis=-1, kind="stable")  # largest first, ties by id
        kept = np.zeros(logits.shape, dtype=bool)
        np.put_along_axis(kept, order[..., :k], True, axis=-1)
        scaled = np.where(kept, scaled, -np.inf)
    return softmax(scaled)


def _distribution(probabilities) -> np.ndarray:
    p = as_float_array(probabilities, "probabilities", ndim=1)
    total = float(np.clip(p, 0, 1).sum(dtype=np.float64))  # (each number at most 1: no sum overflows)
    room = max(1e-9, 2 * p.size * float(np.finfo(p.dtype).eps))  # float32's rounding of each number, or 1e-9
    if (p < 0).any() or (p > 1).any() or not abs(total - 1) < room:
        what = f"a number of {float(p.max())!r}" if (p > 1).any() else f"sum {total!r}"
        raise ValueError(f"probabilities must be one row (d_vocab,) of numbers from 0 to 1 that sum to 1, got {what}")
    return p


def greedy(probabilities) -> int:
    """The id of the most probable word of ``probabilities`` (d_vocab,): greedy decoding (a tie goes to
    the smaller id)."""
    return int(np.argmax(_distribution(probabilities)))


def sample(probabilities, u) -> int:
    """The id of the word that the number ``u``, from 0 to 1, draws from ``probabilities``
    (d_vocab,): the first word whose running total of probability (id 0 first) exceeds ``u``.
    Each word is drawn with its probability when ``u`` is uniform; :class:`selfattn_ref.corpus.SeededRandom`
    gives the seeded ``u`` of :func:`generate`."""
    p = _distribution(probabilities)
    if isinstance(u, (bool, np.bool_)) or not isinstance(u, (int, float, np.floating, np.integer)) or not 0 <= u < 1:
        raise ValueError(f"u must be a number from 0 to 1 (1 excluded), got {value_text(u)}")
    total = np.cumsum(p)  # (d_vocab,)
    above = np.flatnonzero(total > u)
    return int(above[0]) if above.size else int(np.flatnonzero(p)[-1])  # rounding: the last word with p > 0


def ranked(probabilities, k=5) -> list[tuple[str, float]]:
    """The ``k`` most probable words of ``probabilities`` (d_vocab,), most probable first (ties by id),
    each with its probability."""
    p = _distribution(probabilities)
    k = _top_k(k, p.size, "k")
    order = np.argsort(-p, kind="stable")[:k]
    return [(corpus.VOCABULARY[i], float(p[i])) for i in order]


@dataclass(frozen=True)
class GenerationStep:
    """One word of :func:`generate`: what the model read, the distribution it drew from, and the word."""

    words: tuple[str, ...]  # the words read: the text, then the words generated before this one
    probabilities: np.ndarray  # (d_vocab,): the next word's probabilities, after temperature and top-k
    u: float | None  # the seeded number drawn from [0, 1), or None for greedy decoding
    word: str  # the word chosen


def generate(text, max_words=None, temperature=1.0, top_k=None, seed=None, weights=None) -> list[GenerationStep]:
    """Write the words that follow ``text``, one at a time: read the words so far, take the last row
    of :func:`forward`'s logits, apply ``temperature`` and ``top_k`` (:func:`next_word_probabilities`),
    choose a word (the most probable with ``seed`` None, else :func:`sample` with the numbers of
    ``SeededRandom(seed)``, one a word), append it, and read again. Stops after "." or
    ``max_words`` words (None: until the context, n_ctx words, is full). One :class:`GenerationStep`
    a word, with its distribution (d_vocab,)."""
    w = _weights(weights)
    return _generate(
        text, max_words, temperature, top_k, seed, w,
        lambda ids: _forward(ids, w)[-1][-1], next_word_probabilities, GenerationStep,
    )  # fmt: skip


def _generate(text, max_words, temperature, top_k, seed, w: Weights, last_logits, probabilities, step) -> list:
    """The loop of :func:`generate`, for both packages: ``last_logits(ids)`` gives the logits after
    the last of the word ids (n,), ``probabilities`` is the package's :func:`next_word_probabilities`
    and ``step`` its GenerationStep."""
    words = list(corpus.words(text, limit=w.context))
    room = w.context - len(words)
    limit = room if max_words is None else positive_integer(max_words, "max_words")
    if limit > room or room == 0:
        raise ValueError(
            f"max_words: the text has {len(words)} word{'s' * (len(words) != 1)} and the model reads at most "
            f"{w.context}, so at most {room} more"
        )
    temperature = positive_float(temperature, "temperature")
    _top_k(top_k, len(w.vocabulary))
    rng = None if seed is None else corpus.SeededRandom(seed)
    out: list = []
    while len(out) < limit:
        p = probabilities(last_logits(corpus.encode(words)), temperature, top_k)  # (d_vocab,)
        u = None if rng is None else rng.uniform()
        word = w.vocabulary[greedy(p) if u is None else sample(p, u)]
        out.append(step(tuple(words), p, u, word))
        words.append(word)
        if word == ".":
            break
    return out


# --- what the model does, measured ---------------------------------------------------------------


def _padded(sentences, w: Weights) -> tuple[list, np.ndarray]:
    """The sentences, and their ids padded with "." (id 0) to the longest, (B, n). The causal mask
    keeps the padding, which comes last, out of every real position."""
    sentences = corpus._sentences(sentences)
    n = max(len(s.words) for s in sentences)
    if n > w.context:
        raise ValueError(f"sentences: a sentence has {n} words; the model reads at most {w.context}")
    ids = np.zeros((len(sentences), n), dtype=np.int64)
    for i, s in enumerate(sentences):
        ids[i, : len(s.words)] = corpus.encode(list(s.words))
    return sentences, ids


def _scored(sentences: list, P: np.ndarray) -> dict[str, corpus.Score]:
    """:func:`selfattn_ref.corpus.score` of the probabilities P (B, n, d_vocab) of padded sentences."""
    return corpus.score(sentences, [P[i, : len(s.words) - 1] for i, s in enumerate(sentences)])


def evaluate(sentences, weights=None) -> dict[str, corpus.Score]:
    """The model's :func:`selfattn_ref.corpus.score` on ``sentences`` (corpus Sentences): its loss
    and accuracy at predicting each next word, by group."""
    w = _weights(weights)
    sentences, ids = _padded(sentences, w)
    return _scored(sentences, softmax(_forward(ids, w)[-1]))
