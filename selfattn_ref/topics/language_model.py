"""What each head of the small language model does, measured: the numbers a page on the trained model
(issue 53, "Inside the trained model") may quote about its heads, on the held-out sentences
(:func:`selfattn_ref.corpus.held_out`), in NumPy, from the model's own forward pass
(:mod:`selfattn_ref.language_model`).

- :func:`sentences_of` picks a group: the bank or it sentences, of one sense (river or money, animal
  or place), one form (:attr:`selfattn_ref.corpus.Sentence.form`) and, for it sentences, one kind
  of distractor (an animal or a place), or of all of them.
- :func:`attention` measures where each head puts the weight of the group's decisive word, "bank" or
  "it", over the group: on the words :data:`MEASURES` names (for "it": its referent, the other noun,
  the adjective, the previous word, the first word; for "bank": the thing carried, its article, the
  previous word, the first word), as a mean weight and as the share of sentences in which that word
  gets the head's largest weight.
- :func:`attention_overall` measures, over every word of any sentences, each head's mean weight on
  the previous word, on the word itself and on the first word of the sentence.
- :func:`removal` measures what removing one head (:func:`selfattn_ref.language_model.without_heads`)
  does to the word after "bank" or "it": its loss and accuracy over the group, with every head and
  with each head removed in turn.
- :func:`head_scores` gives one head's queries, keys, scaled scores and weights on a sentence, from
  the trained W_Q and W_K themselves.
- :func:`principal_components` projects rows onto the two directions along which they spread the
  most (PCA), for a figure in two dimensions: :func:`embedding_map` the 43 words' embeddings,
  :func:`decisive_rows` the rows of "bank" or "it" as the model carries them from block to block;
  :func:`nearest_words` measures which words' embeddings point the same way, in all d_model
  dimensions.

Heads are counted from 1, as pages name them: (2, 1) is block 2's head 1.

Read the numbers by group, sense by sense: a mean over a whole kind can hide that a head does two
different things, as a head that reads the thing carried when it is money and rests elsewhere when it
is not. The corpus places the referent of "it" at position 1 in one form and 4 in the other (the
other noun at 4 and 2), so a head that puts most of its weight on the referent in both forms, and
little on the other noun, is not reading a position. What a mean weight cannot say is what the model
does with what the head reads; the removal says what the prediction loses without it, which is the
stronger evidence that a head matters. Neither says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import corpus
from .. import language_model as lm
from .._validate import as_float_array, value_text
from ..attention import softmax
from ..block import layer_norm
from ..masks import causal_mask

__all__ = [
    "HeadScores",
    "HeadShares",
    "Projection",
    "attention",
    "attention_overall",
    "decisive_rows",
    "embedding_map",
    "head_scores",
    "nearest_words",
    "principal_components",
    "removal",
    "sentences_of",
]

# The words each kind's decisive word ("bank", "it") is measured attending to.
MEASURES = {
    "bank": ("thing", "article", "previous", "first"),
    "it": ("referent", "distractor", "article", "adjective", "previous", "first"),
}
SENSES = {"bank": ("river", "money"), "it": ("animal", "place")}
FORMS = {"bank": ("3 back", "4 back"), "it": corpus.IT_FORMS}


@dataclass(frozen=True)
class HeadShares:
    """How much of the decisive word's weight each head puts on one word, over a group of sentences."""

    mean: np.ndarray  # (num_blocks, num_heads): the mean weight on the word
    most: np.ndarray  # (num_blocks, num_heads): the share of sentences in which no word gets more weight
    sentences: int  # how many sentences


def _positions(s: corpus.Sentence) -> dict[str, int]:
    """The position of each measured word of ``s``, by the name :data:`MEASURES` gives it. The
    article is the "the" that opens the cue's noun phrase ("took the [wet] money", "the dog")."""
    if s.kind == "bank":
        return {"thing": s.cue, "article": 2, "previous": s.query - 1, "first": 0}
    return {
        "referent": s.cue, "distractor": s.distractor, "article": s.cue - 1,
        "adjective": s.query - 2, "previous": s.query - 1, "first": 0,
    }  # fmt: skip


def _sense(noun: str) -> str:
    return "animal" if noun in corpus.ANIMALS else "place"


def sentences_of(kind, sense=None, form=None, distractor=None, sentences=None) -> tuple[corpus.Sentence, ...]:
    """The sentences of ``sentences`` (corpus Sentences; None: the held-out ones) of ``kind``
    ("bank" or "it") and, when given, of ``sense`` ("river" or "money"; "animal" or "place"),
    ``form`` ("3 back" or "4 back"; "referent first" or "referent second") and, for it sentences,
    ``distractor``, the kind of the other noun ("animal" or "place"), in their order."""
    if kind not in MEASURES:
        raise ValueError(f"kind must be 'bank' or 'it', got {value_text(kind)}")
    checks = [("sense", sense, SENSES[kind]), ("form", form, FORMS[kind]), ("distractor", distractor, SENSES["it"])]
    for name, value, allowed in checks[: 3 if kind == "it" else 2]:
        if value is not None and value not in allowed:
            raise ValueError(f"{name} of {kind} sentences must be None, {allowed[0]!r} or {allowed[1]!r}, "
                             f"got {value_text(value)}")  # fmt: skip
    if kind == "bank" and distractor is not None:
        raise ValueError(f"distractor: bank sentences have none, got {value_text(distractor)}")
    chosen = corpus.held_out() if sentences is None else corpus._sentences(sentences)
    return tuple(
        s for s in chosen
        if s.kind == kind and sense in (None, s.sense) and form in (None, s.form)
        and (distractor is None or _sense(s.words[s.distractor]) == distractor)
    )  # fmt: skip


def _group(sentences) -> tuple[str, list[corpus.Sentence]]:
    """``sentences`` checked: a non-empty list of sentences of one kind, bank or it."""
    sentences = corpus._sentences(sentences)
    kinds = {s.kind for s in sentences}
    if len(kinds) != 1 or not kinds <= set(MEASURES):
        raise ValueError(f"sentences must all be bank sentences or all it sentences, got kinds {sorted(kinds)}")
    return kinds.pop(), sentences


def _weights_of(sentences, weights) -> tuple[list[corpus.Sentence], np.ndarray]:
    """The sentences and every head's weights on them, (B, num_blocks, num_heads, n, n), padded
    to the longest (the causal mask keeps the padding, last, out of every real word)."""
    w = lm._weights(weights)
    sentences, ids = lm._padded(sentences, w)
    return sentences, np.stack([b.weights for b in lm._forward(ids, w)[3]], axis=1)


def attention_overall(sentences=None, weights=None) -> dict[str, np.ndarray]:
    """Each head's mean weight over every word of ``sentences`` (corpus Sentences; None: the held-out
    ones) from the second on, for ``weights`` (None: the trained ones): ``"previous"``, on the word
    just before it; ``"itself"``, on itself; ``"first"``, on the first word of its sentence. Each
    array (num_blocks, num_heads)."""
    sentences, A = _weights_of(corpus.held_out() if sentences is None else sentences, weights)
    rows = [(i, q) for i, s in enumerate(sentences) for q in range(1, len(s.words))]
    if not rows:
        raise ValueError("sentences: every sentence has one word; no word has a word before it")
    b, q = np.array(rows).T  # the sentence and the position of every word measured
    return {
        "previous": A[b, :, :, q, q - 1].mean(axis=0),
        "itself": A[b, :, :, q, q].mean(axis=0),
        "first": A[b, :, :, q, 0].mean(axis=0),
    }


def attention(sentences, weights=None) -> dict[str, HeadShares]:
    """Where each head puts the weight of the decisive word ("bank" or "it") of ``sentences`` (a
    group, all bank or all it sentences: see :func:`sentences_of`), for ``weights`` (None: the
    trained ones): ``{word: HeadShares}`` for each word of :data:`MEASURES`, each array
    (num_blocks, num_heads)."""
    kind, sentences = _group(sentences)
    sentences, A = _weights_of(sentences, weights)  # (B, num_blocks, num_heads, n, n)
    found: dict[str, list] = {word: [] for word in MEASURES[kind]}
    for i, s in enumerate(sentences):
        row = A[i, :, :, s.query, : s.query + 1]  # (num_blocks, num_heads, query + 1): what the word reads
        top = row.max(axis=-1)
        for word, k in _positions(s).items():
            found[word].append((row[..., k], row[..., k] >= top))
    return {
        word: HeadShares(np.mean([m for m, _ in f], axis=0), np.mean([t for _, t in f], axis=0), len(f))
        for word, f in found.items()
    }


def removal(sentences, weights=None) -> dict[tuple[int, int] | None, corpus.Score]:
    """The loss and accuracy of the word after the decisive word ("bank" or "it") of ``sentences``
    (a group, all bank or all it sentences: see :func:`sentences_of`), for ``weights`` (None: the
    trained ones): a dict whose key None gives the score with every head, and each head's pair of
    numbers, block then head (``(2, 1)``), the score with that head removed; each a
    :class:`selfattn_ref.corpus.Score` (the "after bank" or "after it" group of
    :func:`selfattn_ref.language_model.evaluate`)."""
    kind, sentences = _group(sentences)
    w = lm._weights(weights)
    heads = [(b, h) for b in range(1, len(w.blocks) + 1) for h in range(1, w.num_heads + 1)]
    out = {None: lm.evaluate(sentences, w)[f"after {kind}"]}
    for head in heads:
        out[head] = lm.evaluate(sentences, lm.without_heads(w, [head]))[f"after {kind}"]
    return out


# --- one head's scores, from its trained W_Q and W_K -----------------------------------------------


@dataclass(frozen=True)
class HeadScores:
    """One head of one block on one sentence of n words, from the block's input: what the head's
    columns of W_Q and W_K make of it."""

    words: tuple[str, ...]  # the n words
    N: np.ndarray  # (n, d_model): the block's first layer normalization of its input, what attention reads
    W_Q: np.ndarray  # (d_model, d_head): the head's columns of the block's W_Q
    W_K: np.ndarray  # (d_model, d_head): and of W_K
    Q: np.ndarray  # (n, d_head): N · W_Q
    K: np.ndarray  # (n, d_head): N · W_K
    scaled: np.ndarray  # (n, n): Q · Kᵀ / √d_head, -inf above the diagonal (the causal mask)
    weights: np.ndarray  # (n, n): softmax of each row, the head's attention weights


def _head(weights, block, head) -> tuple[lm.Weights, int, int]:
    w = lm._weights(weights)
    for name, value, top in (("block", block, len(w.blocks)), ("head", head, w.num_heads)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= top:
            raise ValueError(f"{name} must be an integer from 1 to {top}, got {value_text(value)}")
    return w, int(block), int(head)


def head_scores(text, block, head, weights=None) -> HeadScores:
    """Head ``head`` of block ``block`` (each counted from 1) on ``text`` (words of the corpus, see
    :func:`selfattn_ref.corpus.words`), for ``weights`` (None: the trained ones): its queries, keys,
    scaled scores and weights, computed from its columns of the block's W_Q and W_K (d_head of
    them: head h has columns (h - 1)·d_head to h·d_head - 1). The weights are those of
    :func:`selfattn_ref.language_model.forward`, held equal by the tests."""
    w, block, head = _head(weights, block, head)
    steps = lm.forward(text, w)
    n, d_head = len(steps.words), w.d_model // w.num_heads
    B = w.blocks[block - 1]
    H = steps.X if block == 1 else steps.blocks[block - 2].output  # (n, d_model): the block's input
    N = layer_norm(H, B.gamma_1, B.beta_1, eps=lm.EPS)
    cols = slice((head - 1) * d_head, head * d_head)
    Q, K = N @ B.W_Q[:, cols], N @ B.W_K[:, cols]  # (n, d_head) each
    scaled = np.where(causal_mask(n), Q @ K.T / np.sqrt(d_head), -np.inf)  # (n, n)
    return HeadScores(steps.words, N, B.W_Q[:, cols], B.W_K[:, cols], Q, K, scaled, softmax(scaled))


# --- points in two dimensions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Projection:
    """Rows projected onto their first two principal components."""

    points: np.ndarray  # (rows, 2): each row's coordinates along the two directions
    shares: np.ndarray  # (2,): the share of the rows' variance along each direction
    directions: np.ndarray  # (2, d): the two directions, unit vectors, each with its largest entry positive


def principal_components(M) -> Projection:
    """``M`` (rows, d), at least 2 rows and 2 columns, projected onto its first two principal
    components (PCA): the rows less their mean, along the two orthogonal directions in which they
    spread the most. A direction's sign is arbitrary; each is chosen so that its entry of largest
    size is positive, so that the same rows always give the same picture."""
    M = as_float_array(M, "M", ndim=2)
    if M.shape[0] < 2 or M.shape[1] < 2:
        raise ValueError(f"M must have at least 2 rows and 2 columns to be projected on 2 directions, got {M.shape}")
    centred = M - M.mean(axis=0)  # (rows, d)
    _, sizes, directions = np.linalg.svd(centred, full_matrices=False)
    directions = directions[:2] * np.sign(directions[:2][np.arange(2), np.abs(directions[:2]).argmax(axis=1)])[:, None]
    total = float((sizes**2).sum())
    if total == 0:
        raise ValueError("M: every row is the same; there is no direction to project on")
    return Projection(centred @ directions.T, sizes[:2] ** 2 / total, directions)


def embedding_map(weights=None) -> Projection:
    """The token embedding of ``weights`` (None: the trained ones), one row a word of the
    vocabulary (d_vocab, d_model), projected by :func:`principal_components`: points (d_vocab, 2)."""
    return principal_components(lm._weights(weights).token_embedding)


def decisive_rows(sentences, block, weights=None) -> np.ndarray:
    """The row of the decisive word ("bank" or "it") of each of ``sentences`` (a group, all bank or
    all it sentences: see :func:`sentences_of`) as the model carries it: ``block`` 0 is the input
    X (embedding plus position), ``block`` b from 1 the output of block b; for ``weights`` (None:
    the trained ones). -> (B, d_model), one row a sentence."""
    _, sentences = _group(sentences)
    w = lm._weights(weights)
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or not 0 <= block <= len(w.blocks):
        raise ValueError(f"block must be an integer from 0 (the input) to {len(w.blocks)}, got {value_text(block)}")
    sentences, ids = lm._padded(sentences, w)
    _, _, X, steps, _, _ = lm._forward(ids, w)
    H = X if block == 0 else steps[block - 1].output  # (B, n, d_model)
    return H[np.arange(len(sentences)), [s.query for s in sentences]]


def nearest_words(word, k=3, weights=None) -> list[tuple[str, float]]:
    """The ``k`` words whose embeddings point most nearly the way ``word``'s does (the largest
    cosine similarity, the dot product of the two rows divided by their lengths, over all d_model
    entries), for ``weights`` (None: the trained ones), each with its cosine; ties in the
    vocabulary's order."""
    w = lm._weights(weights)
    if not isinstance(word, str) or word not in corpus.VOCABULARY:
        raise ValueError(f"word must be a word of the model's vocabulary, got {value_text(word)}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k < len(corpus.VOCABULARY):
        raise ValueError(f"k must be an integer from 1 to {len(corpus.VOCABULARY) - 1}, got {value_text(k)}")
    E = w.token_embedding
    unit = E / np.linalg.norm(E, axis=1, keepdims=True)  # (d_vocab, d_model)
    i = corpus.VOCABULARY.index(word)
    cosine = unit @ unit[i]  # (d_vocab,)
    order = [j for j in np.argsort(-cosine, kind="stable") if j != i][: int(k)]
    return [(corpus.VOCABULARY[j], float(cosine[j])) for j in order]
