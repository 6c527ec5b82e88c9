"""The corpus the site's small language model learns from: short English sentences that the package
writes itself, from a seed, with no download.

Three kinds of sentence, over a vocabulary of :data:`VOCABULARY` (43 words, "." among them):

- **bank** sentences: "she took the money to the bank on friday ." and "we carried the wet net back
  to the bank of the river .". The word after "bank" is "of" when the thing carried is a river
  thing, a boat, fish or net, and "on" when it is a money thing, money, cash or a cheque: the
  previous word, "bank", cannot tell which; the thing carried can. It stands 3 words before "bank",
  or 4 (with "back"), at position 3, or 4 (after an adjective, "cold" or "wet"), so that neither
  its position nor its distance from "bank" finds it: :attr:`Sentence.form` says which distance.
- **it** sentences, in two forms (:attr:`Sentence.form`): "the dog near the field was cold so it
  shivered ." (``"referent first"``) and "near the field the dog was cold so it shivered ."
  (``"referent second"``). "it" refers to the noun before "was" that no "near" governs, its
  *referent*; the other noun, "near the ...", is the *distractor*. What "it" did depends on what
  the referent is (an animal: shivered when cold, shook when wet; a place: froze, flooded) and on
  the adjective, so the word after "it" shows which noun the model took it to be. The distractor
  is an animal or a place with even odds, whatever the referent is, so that it says nothing about
  the word after "it"; when it is of the other kind ("the street near the animal was cold so it
  froze .") reading the wrong noun gives the wrong word. The referent stands at position 1 in the
  first form and 4 in the second, the distractor at 4 and 2, and "it" at 8: no one position, and
  no one distance from "it", holds the referent in both forms. (A rule that reads words as well as
  positions still can: "the noun at position 1, else the one at 4". The forms rule out position
  alone, not every rule.)
- **sat** sentences: "the cat sat ." or "the cat sat near the river .", where no word is decided
  by a word further back.

Every choice is drawn from :class:`SeededRandom`, a 32-bit generator written out in integers
(mulberry32), so the same seed gives the same text on any machine and in any language (the
playground's JavaScript can draw the same numbers). The generator's odds are known exactly,
given by :func:`every_sentence` and :func:`next_word_odds`, so the best any model can do is known too.

The sentences the model is tested on (:func:`held_out`) are whole sentences that the training
corpus (:func:`training`) never contains: a quarter of the distinct sentences of each kind, sense
and form, drawn from the seed, and always the sentences the pages show (:data:`SHOWN`).

Words are lower case; :func:`words` splits a text on runs of ASCII white space, lower-cases the
letters A to Z (only those: every word of the vocabulary is ASCII) and makes a final "." a word of
its own; a word outside the vocabulary is a ValueError naming the nearest words that are in it.
These rules, and the generator's, are written for a port to JavaScript: see
:mod:`selfattn_ref.language_model`.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from ._validate import as_float_array, integer_array, positive_float, positive_integer, value_text

__all__ = [
    "Score",
    "SeededRandom",
    "Sentence",
    "best_possible",
    "bigram_counts",
    "bigram_probabilities",
    "bigram_scores",
    "decode",
    "encode",
    "every_sentence",
    "generate",
    "groups_of",
    "held_out",
    "nearest",
    "next_word_odds",
    "score",
    "training",
    "words",
]

# --- the grammar ---------------------------------------------------------------------------------

SUBJECTS = ("i", "she", "he", "we", "they")
CARRIED = ("took", "carried", "brought")
RIVER_THINGS = ("boat", "fish", "net")
MONEY_THINGS = ("money", "cash", "cheque")
DAYS = ("monday", "friday")
ANIMALS = ("cat", "dog", "bird", "animal")
PLACES = ("street", "road", "field", "garden")
# The forms of an it sentence: the referent before the distractor, or after it.
IT_FORMS = ("referent first", "referent second")
ADJECTIVES = ("cold", "wet")  # how the referent of "it" was; in a bank sentence, how the thing carried was
# What "it" did, by what "it" is and how it was.
DID = {
    ("animal", "cold"): "shivered",
    ("animal", "wet"): "shook",
    ("place", "cold"): "froze",
    ("place", "wet"): "flooded",
}
SAT_NEAR = ("river", "road", "street", "field", "garden")

# The kinds of sentence and how often the generator writes each: (kind, sense) -> share.
KINDS = {
    ("bank", "river"): 0.2,
    ("bank", "money"): 0.2,
    ("it", "animal"): 0.2,
    ("it", "place"): 0.2,
    ("sat", None): 0.2,
}

VOCABULARY: tuple[str, ...] = tuple(
    sorted(
        {".", "the", "to", "back", "bank", "of", "river", "on", "near", "was", "so", "it", "sat"}
        | {*SUBJECTS, *CARRIED, *RIVER_THINGS, *MONEY_THINGS, *DAYS, *ANIMALS, *PLACES, *ADJECTIVES, *DID.values()}
    )
)
_ID = {w: i for i, w in enumerate(VOCABULARY)}
_SPACE = re.compile("[ \t\n\v\f\r]+")  # ASCII white space: JavaScript's /[ \t\n\v\f\r]+/
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)  # A-Z to a-z, nothing else
CONTEXT = 13  # the most words the model reads at once (its learned positions): the longest sentence's

# The published corpus: these settings and nothing else.
SEED = 53
TRAIN_SIZE = 4000  # sentences in the training corpus, drawn with repeats as a text has them
HELD_OUT_SHARE = 0.25  # of each kind's distinct sentences
# The sentences the pages show: always held out, so what a page shows is what the model never saw.
SHOWN = (
    "she took the money to the bank on friday .",
    "she took the boat to the bank of the river .",
    "she took the wet money back to the bank on friday .",
    "she took the wet boat back to the bank of the river .",
    "the animal near the street was cold so it shivered .",
    "the street near the animal was cold so it froze .",
    "near the street the animal was cold so it shivered .",
    "near the animal the street was cold so it froze .",
    "the cat sat near the river .",
)


@dataclass(frozen=True)
class Sentence:
    """One sentence of the corpus, its words and what decides its hardest word.

    ``query`` is the position (counting from 0) of the word whose next word the context decides,
    "bank" or "it", and ``cue`` the position of the word that decides it: the thing carried, or the
    noun "it" refers to, its referent (None in a "sat" sentence). ``distractor`` is the position
    of the other noun of an it sentence, the one "it" does not refer to (None in the others).
    """

    words: tuple[str, ...]
    kind: str  # "bank", "it" or "sat"
    sense: str | None  # "river" or "money" (bank), "animal" or "place" (it), None (sat)
    query: int | None  # the position of "bank" or "it"
    cue: int | None  # the position of the thing carried, or of the noun "it" refers to
    distractor: int | None = None  # the position of the other noun of an it sentence

    @property
    def text(self) -> str:
        return " ".join(self.words)

    @property
    def form(self) -> str | None:
        """How the sentence places its cue: in a bank sentence ``"3 back"`` or ``"4 back"`` (the
        thing carried, counted back from "bank"); in an it sentence one of :data:`IT_FORMS`; None
        in a sat sentence."""
        if self.kind == "bank":
            return f"{self.query - self.cue} back"
        if self.kind == "it":
            return IT_FORMS[0] if self.cue < self.distractor else IT_FORMS[1]
        return None


def _bank(subject: str, verb: str, adjective: str | None, thing: str, back: bool, day: str | None) -> Sentence:
    sense = "river" if thing in RIVER_THINGS else "money"
    tail = ("of", "the", "river") if sense == "river" else ("on", day)
    carried = (*((adjective,) if adjective else ()), thing, *(("back",) if back else ()))
    words = (subject, verb, "the", *carried, "to", "the", "bank", *tail, ".")
    return Sentence(words, "bank", sense, words.index("bank"), words.index(thing))


def _it(noun: str, other: str, form: str, adjective: str) -> Sentence:
    sense = "animal" if noun in ANIMALS else "place"
    head = ("the", noun, "near", "the", other) if form == IT_FORMS[0] else ("near", "the", other, "the", noun)
    words = (*head, "was", adjective, "so", "it", DID[sense, adjective], ".")
    return Sentence(words, "it", sense, words.index("it"), words.index(noun), words.index(other))


def _distractors(noun: str, same: bool) -> tuple[str, ...]:
    """The nouns that may stand "near the ..." in an it sentence whose referent is ``noun``: the
    other nouns of its kind (``same``) or the nouns of the other kind."""
    mine, theirs = (ANIMALS, PLACES) if noun in ANIMALS else (PLACES, ANIMALS)
    return tuple(n for n in mine if n != noun) if same else theirs


def _sat(animal: str, place: str | None) -> Sentence:
    words = ("the", animal, "sat", *(("near", "the", place) if place else ()), ".")
    return Sentence(words, "sat", None, None, None)


# --- the seeded generator ------------------------------------------------------------------------

_MASK = 0xFFFFFFFF


class SeededRandom:
    """A seeded stream of numbers in [0, 1): mulberry32, a 32-bit generator written in integer
    arithmetic, so that Python, NumPy and JavaScript draw exactly the same numbers from a seed.

    ``seed`` is an integer from 0 to 2**32 - 1. Each :meth:`uniform` is a multiple of 2**-32.
    """

    def __init__(self, seed: int):
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= _MASK:
            raise ValueError(f"seed must be an integer from 0 to {_MASK:,}, got {value_text(seed)}")
        self.state = int(seed)

    def uniform(self) -> float:
        """The next number of the stream, in [0, 1)."""
        self.state = (self.state + 0x6D2B79F5) & _MASK
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & _MASK
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & _MASK)) & _MASK
        return ((t ^ (t >> 14)) & _MASK) / 2**32

    def below(self, k: int) -> int:
        """An integer from 0 to k - 1, each as likely (floor(k · uniform)); k a positive integer."""
        return int(positive_integer(k, "k") * self.uniform())

    def choice(self, options: Sequence):
        """One of ``options``, each as likely."""
        return options[self.below(len(options))]


def _draw(rng: SeededRandom) -> Sentence:
    """One sentence: a kind by its share in :data:`KINDS`, then each word of its template."""
    u, total = rng.uniform(), 0.0
    for (kind, sense), share in KINDS.items():  # noqa: B007 - the loop stops at the kind drawn
        total += share
        if u < total:
            break
    if kind == "bank":
        subject, verb = rng.choice(SUBJECTS), rng.choice(CARRIED)
        adjective = rng.choice(ADJECTIVES) if rng.below(2) else None
        thing = rng.choice(RIVER_THINGS if sense == "river" else MONEY_THINGS)
        back = bool(rng.below(2))
        return _bank(subject, verb, adjective, thing, back, rng.choice(DAYS) if sense == "money" else None)
    if kind == "it":
        noun = rng.choice(ANIMALS if sense == "animal" else PLACES)
        form = rng.choice(IT_FORMS)
        other = rng.choice(_distractors(noun, same=bool(rng.below(2))))  # its kind first, even odds
        return _it(noun, other, form, rng.choice(ADJECTIVES))
    place = rng.choice(SAT_NEAR) if rng.below(2) else None
    return _sat(rng.choice(ANIMALS), place)


def _count(count, name: str) -> int:
    if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ValueError(f"{name} must be a positive integer, got {value_text(count)}")
    if count > 10**6:
        raise ValueError(f"{name} must be at most 1,000,000, got {value_text(count)}")
    return int(count)


def generate(count: int, seed: int = SEED) -> list[Sentence]:
    """``count`` sentences drawn from the generator with ``seed`` (repeats and held-out sentences
    included: :func:`training` leaves those out)."""
    count = _count(count, "count")
    rng = SeededRandom(seed)
    return [_draw(rng) for _ in range(count)]


@cache
def every_sentence() -> tuple[tuple[Sentence, float], ...]:
    """Every sentence the generator can write, once, with the probability that it writes it; the
    probabilities add up to 1. In the order of the kinds, then of the words' lists."""
    out = []
    for (kind, sense), share in KINDS.items():
        if kind == "bank":
            things = RIVER_THINGS if sense == "river" else MONEY_THINGS
            days = (None,) if sense == "river" else DAYS
            p = share / (len(SUBJECTS) * len(CARRIED) * len(things) * len(days)) / 2  # back or not: 1/2
            for adjective in (None, *ADJECTIVES):
                q = p / 2 if adjective is None else p / 2 / len(ADJECTIVES)
                out += [
                    (_bank(s, v, adjective, t, back, d), q)
                    for s in SUBJECTS for v in CARRIED for t in things for back in (False, True) for d in days
                ]  # fmt: skip
        elif kind == "it":
            nouns = ANIMALS if sense == "animal" else PLACES
            for noun in nouns:
                for form in IT_FORMS:
                    for same in (True, False):
                        others = _distractors(noun, same)
                        p = share / len(nouns) / len(IT_FORMS) / 2 / len(others) / len(ADJECTIVES)
                        out += [(_it(noun, other, form, a), p) for other in others for a in ADJECTIVES]
        else:
            for animal in ANIMALS:
                for place in (None, *SAT_NEAR):
                    p = share / len(ANIMALS) / 2 / (1 if place is None else len(SAT_NEAR))
                    out.append((_sat(animal, place), p))
    return tuple(out)


def _check_seed(seed) -> int:
    return SeededRandom(seed).state


@cache
def _held_out(seed: int) -> tuple[Sentence, ...]:
    rng = SeededRandom(seed ^ 0x5EED)  # a stream of its own, not the training corpus's
    chosen: list[Sentence] = []
    strata = dict.fromkeys((s.kind, s.sense, s.form) for s, _ in every_sentence())
    for stratum in strata:
        group = [s for s, _ in every_sentence() if (s.kind, s.sense, s.form) == stratum]
        order = list(range(len(group)))
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates, from the seed
            j = rng.below(i + 1)
            order[i], order[j] = order[j], order[i]
        take = math.ceil(HELD_OUT_SHARE * len(group))
        shown = [k for k in order if group[k].text in SHOWN]
        picked = shown + [k for k in order if k not in shown][: take - len(shown)]
        chosen += [group[k] for k in sorted(picked)]
    return tuple(chosen)


def held_out(seed: int = SEED) -> tuple[Sentence, ...]:
    """The held-out sentences: for each kind of :data:`KINDS` and each of its forms
    (:attr:`Sentence.form`), a share :data:`HELD_OUT_SHARE` of its distinct sentences (rounded up),
    drawn with ``seed``, the sentences of :data:`SHOWN` among them; each once, in the order of
    :func:`every_sentence`. The training corpus never holds one."""
    return _held_out(_check_seed(seed))


@cache
def _training(seed: int, size: int) -> tuple[Sentence, ...]:
    excluded = {s.words for s in _held_out(seed)}
    rng = SeededRandom(seed)
    out: list[Sentence] = []
    while len(out) < size:
        s = _draw(rng)
        if s.words not in excluded:
            out.append(s)
    return tuple(out)


def training(seed: int = SEED, size: int = TRAIN_SIZE) -> tuple[Sentence, ...]:
    """The training corpus: ``size`` sentences from the generator with ``seed``, in the order drawn,
    a sentence drawn again kept again, and every held-out sentence (:func:`held_out`) skipped."""
    return _training(_check_seed(seed), _count(size, "size"))


# --- words and ids -------------------------------------------------------------------------------


def _distance(a: str, b: str) -> int:
    """The edit distance of ``a`` and ``b``: the fewest characters to insert, delete or replace,
    or pairs of neighbours to swap ("bnak" is 1 from "bank"), no character edited twice (the
    "optimal string alignment" distance)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)  # a swap of neighbours
    return d[-1][-1]


def nearest(word: str, k: int = 3) -> list[str]:
    """The ``k`` words of the vocabulary nearest to ``word`` (its letters A to Z lower-cased, its
    first 40 characters) by edit distance (the fewest characters inserted, deleted or replaced, or
    neighbours swapped), the nearest first, ties in the vocabulary's order."""
    if not isinstance(word, str):
        raise ValueError(f"word must be text, got {value_text(word)}")
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or not 1 <= k <= len(VOCABULARY):
        raise ValueError(f"k must be an integer from 1 to {len(VOCABULARY)}, got {value_text(k)}")
    probe = word.translate(_LOWER)[:40]
    return sorted(VOCABULARY, key=lambda w: (_distance(probe, w), _ID[w]))[: int(k)]


def _shown(word: str) -> str:
    return repr(word) if len(word) <= 24 else f"{word[:24]!r}... ({len(word)} characters)"


def words(text, limit: int = CONTEXT) -> tuple[str, ...]:
    """The words of ``text`` as the model reads them: ``text`` is a string, split on runs of ASCII
    white space (space, tab, line feed, vertical tab, form feed, carriage return) with the letters A
    to Z lower-cased, and a "." at the end of a word made a word of its own ("river." is "river",
    "."), or a sequence of words taken as they are. At least one word and at most ``limit``
    (:data:`CONTEXT`, the positions the model has), each in :data:`VOCABULARY`; a word that is not
    is a ValueError naming it, its position and the nearest words that are."""
    if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, (int, np.integer)) or limit < 1:
        raise ValueError(f"limit must be a positive integer, got {value_text(limit)}")
    if isinstance(text, str):
        typed: list[str] = []  # as typed, for the messages; the model reads them lower-cased
        for w in (w for w in _SPACE.split(text) if w):
            typed += [w[:-1], "."] if len(w) > 1 and w.endswith(".") else [w]
    elif isinstance(text, (list, tuple)) and all(isinstance(w, str) for w in text):
        typed = list(text)
    else:
        raise ValueError(f"text must be a string of words or a list of words, got {value_text(text)}")
    if not typed:
        raise ValueError(f"text holds no word; give at least one of the model's {len(VOCABULARY)} words")
    if len(typed) > limit:
        raise ValueError(f"text has {len(typed)} words; the model reads at most {limit}")
    found = [w.translate(_LOWER) if isinstance(text, str) else w for w in typed]
    for i, (w, lower) in enumerate(zip(typed, found, strict=True), 1):
        if lower not in _ID:
            near = ", ".join(repr(n) for n in nearest(lower))
            raise ValueError(f"word {i}, {_shown(w)}, is not in the model's vocabulary; the nearest words are {near}")
    return tuple(found)


def encode(text) -> np.ndarray:
    """The ids of the words of ``text`` (see :func:`words`): their places in :data:`VOCABULARY`,
    an int64 array (n,)."""
    return np.array([_ID[w] for w in words(text)], dtype=np.int64)


def decode(ids) -> tuple[str, ...]:
    """The words of ``ids`` (n,), integers from 0 to len(VOCABULARY) - 1."""
    bad = ValueError(f"ids must be a non-empty list of word ids, got {value_text(ids)}")
    values = integer_array(ids, "ids", bad)  # the one reader of integers (selfattn_ref._validate)
    if values.ndim != 1 or values.size == 0:
        raise bad
    for i, v in enumerate(values.tolist()):
        if not 0 <= v < len(VOCABULARY):
            raise ValueError(f"ids[{i}] must be a word id from 0 to {len(VOCABULARY) - 1}, got {value_text(v)}")
    return tuple(VOCABULARY[v] for v in values.tolist())


# --- what the corpus itself says about the next word ---------------------------------------------


def _sentences(sentences, name: str = "sentences") -> list[Sentence]:
    out = list(sentences) if isinstance(sentences, Iterable) and not isinstance(sentences, str) else None
    if not out or not all(isinstance(s, Sentence) for s in out):
        raise ValueError(f"{name} must be a non-empty list of corpus Sentences, got {value_text(sentences)}")
    return out


def bigram_counts(sentences) -> np.ndarray:
    """How often each word follows each word in ``sentences`` (a list of :class:`Sentence`): an
    int64 array (d_vocab, d_vocab), row the word, column the word after it (d_vocab = 43 words)."""
    counts = np.zeros((len(VOCABULARY), len(VOCABULARY)), dtype=np.int64)
    for s in _sentences(sentences):
        for a, b in zip(s.words, s.words[1:], strict=False):
            counts[_ID[a], _ID[b]] += 1
    return counts


def bigram_probabilities(counts, smoothing: float = 0.01) -> np.ndarray:
    """The bigram model of ``counts`` (d_vocab, d_vocab): P(next word | previous word), each row the counts plus
    ``smoothing`` in every cell, divided by its total, so that no word has probability 0 (a word
    never seen before another would give a held-out loss of infinity). -> (d_vocab, d_vocab), rows sum to 1."""
    V = len(VOCABULARY)
    bad = ValueError(f"counts must be integers from 0 to 2**53 of shape ({V}, {V}), got {value_text(counts)}")
    counts = integer_array(counts, "counts", bad)  # the one reader of integers (selfattn_ref._validate)
    if counts.shape != (V, V) or not all(0 <= v <= 2**53 for v in counts.ravel().tolist()):
        raise bad  # (float64 holds every count up to 2**53 exactly)
    smoothed = counts.astype(np.float64) + positive_float(smoothing, "smoothing")
    return smoothed / smoothed.sum(axis=1, keepdims=True)


def next_word_odds(prefix) -> dict[str, float]:
    """The generator's own probability of each next word after the words ``prefix`` (a sentence's
    first words), from :func:`every_sentence`: the best any model of this corpus can know. Words it
    never writes there are left out; an empty dict if no sentence starts with ``prefix``."""
    prefix = words(prefix, limit=CONTEXT)
    odds: dict[str, float] = {}
    total = 0.0
    n = len(prefix)
    for s, p in every_sentence():
        if len(s.words) > n and s.words[:n] == prefix:
            odds[s.words[n]] = odds.get(s.words[n], 0.0) + p
            total += p
    return {w: p / total for w, p in odds.items()}


# --- scoring next-word predictions ---------------------------------------------------------------

# The groups of positions a score is given for: every position, the positions of each kind of
# sentence, the word after "bank" (bank sentences) and after "it" (it sentences), and the rest.
GROUPS = ("all", "bank", "it", "sat", "after bank", "after it", "rest")


def groups_of(sentence: Sentence, j: int) -> tuple[str, ...]:
    """The groups of :data:`GROUPS` that the prediction of word j + 1 of ``sentence`` from its
    words 0 to j belongs to."""
    if not isinstance(sentence, Sentence):
        raise ValueError(f"sentence must be a corpus Sentence, got {value_text(sentence)}")
    last = len(sentence.words) - 2  # the last word that has a next word
    if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) or not 0 <= j <= last:
        raise ValueError(f"j must be the position of a word that has a next one, from 0 to {last}, got {value_text(j)}")
    decisive = j == sentence.query
    return ("all", sentence.kind, f"after {sentence.words[j]}" if decisive else "rest")


@dataclass(frozen=True)
class Score:
    """How well next words were predicted over some positions."""

    loss: float  # the mean cross-entropy: -ln of the probability given to the word that comes, in nats
    accuracy: float  # the share of positions whose most probable word is the word that comes
    positions: int  # how many predictions were scored


def _table(sentences, probabilities) -> list[tuple[Sentence, int, np.ndarray]]:
    """(sentence, j, the probabilities of word j + 1) for every position of every sentence."""
    sentences = _sentences(sentences)
    if not isinstance(probabilities, (list, tuple)) or len(probabilities) != len(sentences):
        raise ValueError(
            f"probabilities must be a list of one array per sentence ({len(sentences)}), "
            f"got {value_text(probabilities)}"
        )
    rows = []
    for i, (s, P) in enumerate(zip(sentences, probabilities, strict=True)):
        P = as_float_array(P, f"probabilities[{i}]")  # the package's reader of arrays: finite numbers
        shape = (len(s.words) - 1, len(VOCABULARY))
        if P.shape != shape or (P < 0).any():
            raise ValueError(f"probabilities[{i}] must be {shape}, finite and not negative, got shape {P.shape}")
        rows += [(s, j, P[j]) for j in range(shape[0])]
    return rows


def _by_group(rows) -> dict[str, Score]:
    """Scores by group from ``rows`` of (sentence, j, loss, right): the means of each group of
    :data:`GROUPS` that has a position."""
    sums: dict[str, list[float]] = {}
    for s, j, loss, right in rows:
        for g in groups_of(s, j):
            total = sums.setdefault(g, [0.0, 0.0, 0])
            total[0] += loss
            total[1] += right
            total[2] += 1
    return {g: Score(sums[g][0] / sums[g][2], sums[g][1] / sums[g][2], int(sums[g][2])) for g in GROUPS if g in sums}


def score(sentences, probabilities) -> dict[str, Score]:
    """Score predictions of the next word, by group (:data:`GROUPS`; a group with no position is
    left out). ``probabilities`` holds, for each sentence of n words, an array of n - 1 rows, each
    (d_vocab,): row j the probability of each word of the vocabulary as word j + 1, given words 0 to j. A
    position counts as right when the word that comes has the highest probability (ties go to the
    word first in :data:`VOCABULARY`)."""

    def rows():
        for s, j, p in _table(sentences, probabilities):
            target = _ID[s.words[j + 1]]
            loss = -math.log(p[target]) if p[target] > 0 else math.inf
            yield s, j, loss, float(int(np.argmax(p)) == target)

    return _by_group(rows())


def bigram_scores(sentences, counts, smoothing: float = 0.01) -> dict[str, Score]:
    """The bigram baseline's :func:`score` on ``sentences``: each next word predicted from the word
    before it alone, with :func:`bigram_probabilities` of ``counts`` (d_vocab, d_vocab) and ``smoothing``."""
    P = bigram_probabilities(counts, smoothing)
    sentences = _sentences(sentences)
    return score(sentences, [P[[_ID[w] for w in s.words[:-1]]] for s in sentences])


def best_possible(sentences) -> dict[str, Score]:
    """The best any model of this corpus can do on ``sentences``, by group: the loss of the
    generator's own odds (:func:`next_word_odds`), and as accuracy the share of positions it
    would get right on average when it guesses its most probable word (where two words are
    equally likely, as monday and friday are, half of a position)."""

    def rows():
        for s in _sentences(sentences):
            for j in range(len(s.words) - 1):
                odds = next_word_odds(list(s.words[: j + 1]))
                yield s, j, -math.log(odds[s.words[j + 1]]), max(odds.values())

    return _by_group(rows())
