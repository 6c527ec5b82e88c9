"""Byte-pair encoding: how real language models split words into subword tokens, on a handful of words.

The site's small language model reads whole words (:mod:`selfattn_ref.corpus`); GPT-2 and the models
after it read *tokens*, pieces of words that a byte-pair encoding learned from text. The learning is
a loop: start with each word as its letters; count every pair of tokens that stand side by side,
each word counted as often as it occurs; merge the most frequent pair into one token, everywhere;
repeat. A new word is then split by making the learned merges, in their order. (GPT-2 works on bytes
rather than letters and marks the space before a word; the loop is the same.)

:func:`learn` returns each merge with its count and what every word looks like after it, so that a
page can show the loop step by step; :func:`split` applies the merges to any word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._validate import value_text

__all__ = ["Merge", "learn", "split"]

MAX_MERGES = 1000


@dataclass(frozen=True)
class Merge:
    """One step of :func:`learn`."""

    pair: tuple[str, str]  # the two tokens merged, left and right
    count: int  # how often they stood side by side, each word counted as often as it occurs
    words: dict[str, tuple[str, ...]]  # every word's tokens after this merge


def _words(words) -> dict[str, int]:
    """``words`` (a list of words, a word that occurs twice listed twice, or a dict word -> count)
    as {word: count} in the order first met; a ValueError names what is wrong."""
    if isinstance(words, dict):
        items = list(words.items())
    elif isinstance(words, Sequence) and not isinstance(words, str):
        items = [(w, 1) for w in words]
    else:
        raise ValueError(f"words must be a list of words or a dict of word counts, got {value_text(words)}")
    counts: dict[str, int] = {}
    for w, k in items:
        if not isinstance(w, str) or not w or any(c.isspace() for c in w):
            raise ValueError(f"words must hold words (text without spaces, not empty), got {value_text(w)}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"a word's count must be a positive integer, got {value_text(k)} for {w!r}")
        counts[w] = counts.get(w, 0) + k
    if not counts:
        raise ValueError("words must hold at least one word")
    return counts


def _merged(tokens: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    """``tokens`` with every occurrence of ``pair`` made one token, from left to right."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            out.append(tokens[i] + tokens[i + 1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return tuple(out)


def learn(words, merges: int) -> list[Merge]:
    """Learn up to ``merges`` byte-pair merges from ``words`` (a list of words, each occurrence
    listed, or a dict word -> count). Each step merges the pair of neighbouring tokens that occurs
    most often; a tie goes to the pair met first, reading the words in order and each from left to
    right. Stops early when every word is one token."""
    counts = _words(words)
    if isinstance(merges, bool) or not isinstance(merges, int) or not 1 <= merges <= MAX_MERGES:
        raise ValueError(f"merges must be an integer from 1 to {MAX_MERGES}, got {value_text(merges)}")
    tokens = {w: tuple(w) for w in counts}
    out: list[Merge] = []
    for _ in range(merges):
        pairs: dict[tuple[str, str], int] = {}  # in the order first met
        for w, k in counts.items():
            for pair in zip(tokens[w], tokens[w][1:], strict=False):
                pairs[pair] = pairs.get(pair, 0) + k
        if not pairs:
            break
        best = max(pairs.values())
        pair = next(p for p, k in pairs.items() if k == best)
        tokens = {w: _merged(t, pair) for w, t in tokens.items()}
        out.append(Merge(pair, best, dict(tokens)))
    return out


def split(word: str, merges) -> tuple[str, ...]:
    """``word`` as the tokens that ``merges`` (from :func:`learn`) make of it: its letters, then each
    merge in the order learned. A word never seen in learning is split all the same."""
    if not isinstance(word, str) or not word or any(c.isspace() for c in word):
        raise ValueError(f"word must be a word (text without spaces, not empty), got {value_text(word)}")
    if not isinstance(merges, (list, tuple)) or not all(isinstance(m, Merge) for m in merges):
        raise ValueError(f"merges must be the list that learn() returns, got {value_text(merges)}")
    tokens = tuple(word)
    for m in merges:
        tokens = _merged(tokens, m.pair)
    return tokens
