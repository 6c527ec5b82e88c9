"""The computations of docs/next-word.md: one held-out sentence through the small language model
(:mod:`selfattn_ref.language_model`, its trained weights), from its words to the next word, and
what happens to the next word's probabilities after that.

The data, defined once here:

- :data:`SENTENCE`, a sentence of the held-out set (:data:`selfattn_ref.corpus.SHOWN`): the page
  follows it through every step of the model (:func:`walk`);
- :data:`PREFIX`, its first words, "she took the": the model's row for the third word predicts the
  fourth, and there many words are likely, so the page shows temperature and top-k on it
  (:func:`choices`) and generates the rest of the sentence from it (:func:`generation`), greedily
  and by sampling with :data:`SEED`;
- :data:`BPE_WORDS` and :data:`BPE_MERGES`: a handful of words with how often each occurs, and how
  many byte-pair merges to learn from them (:func:`byte_pairs`), for the page's box on how real
  models split words into subword tokens (:mod:`selfattn_ref.bpe`); :data:`BPE_NEW` are words the
  merges then split.

Everything is computed by the package's functions, in NumPy and float64, once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import bpe, corpus
from .. import language_model as lm

__all__ = ["Choices", "Generation", "byte_pairs", "choices", "generation", "walk"]

SENTENCE = "she took the money to the bank"
PREFIX = 3  # its first 3 words, "she took the": the row whose next word is spread over many words
TEMPERATURES = (0.5, 1.0, 2.0)
TOP_K = 3
SEED = 1  # of the seeded numbers that sampling draws (selfattn_ref.corpus.SeededRandom)
BPE_WORDS = {"bank": 5, "banks": 3, "banker": 2, "river": 4, "rivers": 2}  # word -> how often it occurs
BPE_MERGES = 7
BPE_NEW = ("riverbanks", "bankers")  # words the merges split, none of them among BPE_WORDS


@cache
def walk() -> lm.Steps:
    """Every step of the model on :data:`SENTENCE` (n = 7 words): :func:`selfattn_ref.language_model.forward`
    with the trained weights; its arrays (n, d_model), (n, d_vocab) and each block's weights
    (num_heads, n, n)."""
    return lm.forward(SENTENCE)


@dataclass(frozen=True)
class Choices:
    """The next word after :data:`PREFIX`'s words, every way the page chooses it."""

    words: tuple[str, ...]  # the words read, "she took the"
    logits: np.ndarray  # (d_vocab,): the model's logits after them
    temperature: dict[float, np.ndarray]  # T -> (d_vocab,): softmax(logits / T), for each of TEMPERATURES
    top_k: np.ndarray  # (d_vocab,): softmax over the TOP_K largest logits (T = 1), 0 for the others
    odds: np.ndarray  # (d_vocab,): the corpus generator's own probabilities after these words (corpus.next_word_odds)


@cache
def choices() -> Choices:
    """The logits after :data:`PREFIX` words of :func:`walk`, turned into probabilities at each
    temperature of :data:`TEMPERATURES` and with top-k (:data:`TOP_K`), beside the corpus's own odds."""
    s = walk()
    logits = s.logits[PREFIX - 1]  # row PREFIX - 1 reads words 1 to PREFIX: the causal mask
    odds = corpus.next_word_odds(list(s.words[:PREFIX]))
    return Choices(
        words=s.words[:PREFIX],
        logits=logits,
        temperature={T: lm.next_word_probabilities(logits, T) for T in TEMPERATURES},
        top_k=lm.next_word_probabilities(logits, 1.0, TOP_K),
        odds=np.array([odds.get(w, 0.0) for w in corpus.VOCABULARY]),
    )


@dataclass(frozen=True)
class Generation:
    """The words written after :data:`PREFIX`'s words, one
    :class:`selfattn_ref.language_model.GenerationStep` a word."""

    greedy: tuple[lm.GenerationStep, ...]  # the most probable word each time
    sampled: tuple[lm.GenerationStep, ...]  # drawn with the numbers of SeededRandom(SEED), one a word


@cache
def generation() -> Generation:
    """The loop of :func:`selfattn_ref.language_model.generate` from "she took the", at
    temperature 1 without top-k, until ".": greedy decoding, and sampling with :data:`SEED`; each
    step's probabilities (d_vocab,)."""
    prefix = list(walk().words[:PREFIX])
    return Generation(tuple(lm.generate(prefix)), tuple(lm.generate(prefix, seed=SEED)))


@cache
def byte_pairs() -> tuple[bpe.Merge, ...]:
    """The :data:`BPE_MERGES` merges that :func:`selfattn_ref.bpe.learn` learns from :data:`BPE_WORDS`
    (words and tokens are text: no arrays)."""
    return tuple(bpe.learn(BPE_WORDS, BPE_MERGES))
