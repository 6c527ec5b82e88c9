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
from .._validate import value_text

__all__ = ["HeadShares", "attention", "attention_overall", "removal", "sentences_of"]

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
