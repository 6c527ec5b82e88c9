"""Layer 1: the language model's corpus (selfattn_ref/corpus.py): a seeded generator of sentences
that gives the same text on any machine (its numbers are mulberry32's, as JavaScript computes them),
whose odds are known exactly, built so that the word after "bank" and after "it" depends on a word
further back, which no one position or distance finds, with held-out sentences of every form that
the training corpus never holds; and the bigram baseline and the best possible score, measured on
those sentences."""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest

from selfattn_ref import corpus as c

TRAIN = c.training()
HELD_OUT = c.held_out()


# --- the seeded numbers and the text they write ------------------------------------------------


def test_the_numbers_are_mulberry32s():
    """The values JavaScript's mulberry32 gives (node, with Math.imul) for these seeds."""
    js = {
        0: [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197, 0.1462021479383111],
        53: [0.0643134347628802, 0.8209296453278512, 0.06143891182728112, 0.9658414956647903],
        4294967295: [0.8964226141106337, 0.189478256739676, 0.7156526781618595, 0.9440599093213677],
    }
    for seed, values in js.items():
        rng = c.SeededRandom(seed)
        assert [rng.uniform() for _ in values] == values
    draws = [c.SeededRandom(7).uniform() for _ in range(3)]
    assert draws == [draws[0]] * 3  # a new generator starts the stream again


@pytest.mark.parametrize("seed", [-1, 2**32, 1.0, True, "1", None])
def test_a_seed_is_an_integer_of_32_bits(seed):
    with pytest.raises(ValueError, match=r"^seed must be an integer from 0 to 4,294,967,295, got "):
        c.SeededRandom(seed)
    with pytest.raises(ValueError, match=r"^seed must be an integer"):
        c.training(seed)


def test_the_same_seed_writes_the_same_text():
    assert [s.text for s in TRAIN[:5]] == [
        "near the garden the field was wet so it flooded .",
        "the cat sat near the street .",
        "the animal sat .",
        "the animal sat .",
        "the cat sat .",
    ]
    assert c.generate(50, seed=1) == c.generate(50, seed=1) != c.generate(50, seed=2)
    assert len(TRAIN) == c.TRAIN_SIZE == 4000


def test_the_generator_writes_the_sentences_with_the_odds_every_sentence_gives():
    every = dict((s.words, p) for s, p in c.every_sentence())
    assert len(every) == len(c.every_sentence()) == 1058  # each once
    assert math.isclose(sum(every.values()), 1.0, rel_tol=1e-12)
    drawn = Counter(s.words for s in c.generate(40_000, seed=3))
    assert set(drawn) <= set(every)
    for words, k in drawn.items():  # each within 5 standard deviations of its expected count
        expected = 40_000 * every[words]
        assert abs(k - expected) < 5 * math.sqrt(expected) + 1, " ".join(words)


# --- the vocabulary and the sentences ----------------------------------------------------------


def test_the_vocabulary_is_a_few_dozen_words_with_the_articles_words():
    assert len(c.VOCABULARY) == 43 and len(set(c.VOCABULARY)) == 43
    assert {"bank", "of", "river", "the", "cat", "sat", "it", "animal", "street", "money", "."} <= set(c.VOCABULARY)
    every_word = {w for s, _ in c.every_sentence() for w in s.words}
    assert every_word == set(c.VOCABULARY)  # every word is written, and no other
    assert max(len(s.words) for s, _ in c.every_sentence()) == c.CONTEXT == 13


def test_query_and_cue_name_bank_or_it_and_the_word_that_decides():
    for s, _ in c.every_sentence():
        assert s.words[-1] == "." and "." not in s.words[:-1]
        if s.kind == "bank":
            assert s.words[s.query] == "bank" and s.words[s.cue] in c.RIVER_THINGS + c.MONEY_THINGS
            assert s.words[s.query + 1] == ("of" if s.sense == "river" else "on")
            assert s.distractor is None and s.form == f"{s.query - s.cue} back"
        elif s.kind == "it":
            assert s.words[s.query] == "it" and s.words[s.cue] in c.ANIMALS + c.PLACES
            assert s.words[s.query + 1] == c.DID[s.sense, s.words[s.query - 2]]
            assert s.words[s.distractor] in c.ANIMALS + c.PLACES and s.words[s.distractor - 2] == "near"
            assert s.words[s.query - 3] == "was" and s.words[s.cue - 1] == "the" and s.cue != s.distractor
        else:
            assert s.kind == "sat" and s.query is None and s.cue is None and s.form is None


def test_the_word_after_bank_or_it_is_decided_by_a_word_further_back_not_by_the_word_before():
    """The point of the corpus: after "bank" and after "it", the previous word leaves the next word
    open, and the cue decides it, exactly (the generator's own odds)."""
    assert c.next_word_odds("she took the money to the bank") == {"on": 1.0}
    assert c.next_word_odds("she took the boat to the bank") == {"of": 1.0}
    assert c.next_word_odds("the animal near the street was cold so it") == {"shivered": 1.0}
    assert c.next_word_odds("the street near the animal was cold so it") == {"froze": 1.0}
    assert c.next_word_odds("near the street the animal was cold so it") == {"shivered": 1.0}
    assert c.next_word_odds("near the animal the street was cold so it") == {"froze": 1.0}
    assert c.next_word_odds("she took the wet boat back to the bank") == {"of": 1.0}
    assert c.next_word_odds("she took the boat to the bank of the") == {"river": 1.0}
    counts = c.bigram_counts(TRAIN)
    after = {w: counts[c.VOCABULARY.index(w)] for w in ("bank", "it")}
    assert {c.VOCABULARY[i] for i in np.flatnonzero(after["bank"])} == {"of", "on"}
    assert {c.VOCABULARY[i] for i in np.flatnonzero(after["it"])} == {"shivered", "shook", "froze", "flooded"}
    assert c.next_word_odds("she took the money to the bank on") == {"monday": 0.5, "friday": 0.5}
    assert c.next_word_odds("the dog") == pytest.approx({"near": 1 / 3, "sat": 2 / 3})
    assert c.next_word_odds("she took the money to the bank on monday .") == {}  # nothing after the end
    assert c.next_word_odds("the") and set(c.next_word_odds("the")) == {*c.ANIMALS, *c.PLACES}


def test_no_one_position_or_distance_finds_the_word_that_decides():
    """The referent of "it" stands at position 1 or 4 and the distractor at 4 or 2, so a position
    that holds the referent in one form holds the distractor, or no noun, in the other; the same
    with distances from "it". The thing carried stands 3 or 4 words before "bank", at 3 or 4."""
    it = [s for s, _ in c.every_sentence() if s.kind == "it"]
    where = {form: {(s.query, s.cue, s.distractor) for s in it if s.form == form} for form in c.IT_FORMS}
    assert where == {"referent first": {(8, 1, 4)}, "referent second": {(8, 4, 2)}}
    for s in it:  # the same words in the other form swap the nouns' places
        first = s.form == "referent first"
        noun, other = s.words[s.cue], s.words[s.distractor]
        assert s.words[:5] == (("the", noun, "near", "the", other) if first else ("near", "the", other, "the", noun))
    bank = [s for s, _ in c.every_sentence() if s.kind == "bank"]
    places = Counter((s.cue, s.query - s.cue) for s in bank)
    assert set(places) == {(3, 3), (3, 4), (4, 3), (4, 4)}  # position and distance, each of two, every pair
    assert {s.form for s in bank} == {"3 back", "4 back"}


def test_the_distractor_says_nothing_about_the_word_after_it():
    """An animal or a place stands near the referent with even odds, whatever the referent is; the
    word after "it" depends on the referent alone (and the adjective)."""
    kind = {**dict.fromkeys(c.ANIMALS, "animal"), **dict.fromkeys(c.PLACES, "place")}
    odds: Counter = Counter()
    for s, p in c.every_sentence():
        if s.kind == "it":
            odds[s.sense, kind[s.words[s.distractor]]] += p
    assert odds == pytest.approx({(a, b): 0.1 for a in ("animal", "place") for b in ("animal", "place")})
    assert c.next_word_odds("the street near the animal was cold so it") == {"froze": 1.0}
    assert c.next_word_odds("the street near the road was cold so it") == {"froze": 1.0}


def test_held_out_sentences_are_whole_sentences_training_never_holds():
    held = {s.words for s in HELD_OUT}
    assert len(held) == len(HELD_OUT) == 266
    assert not held & {s.words for s in TRAIN}
    assert {tuple(t.split()) for t in c.SHOWN} <= held
    strata = {(s.kind, s.sense, s.form) for s, _ in c.every_sentence()}
    assert len(strata) == 9
    for stratum in strata:  # a quarter of the distinct sentences of each kind and form, rounded up
        group = [s for s, _ in c.every_sentence() if (s.kind, s.sense, s.form) == stratum]
        assert sum((s.kind, s.sense, s.form) == stratum for s in HELD_OUT) == math.ceil(len(group) / 4)
    assert Counter(s.form for s in HELD_OUT if s.kind == "it") == {"referent first": 28, "referent second": 28}
    trained, every = {s.words for s in TRAIN}, {s.words for s, _ in c.every_sentence()}
    assert trained <= every - held and (len(trained), len(every - held)) == (712, 792)  # 4,000 draws miss some
    assert c.held_out(c.SEED) is c.held_out() and c.held_out(1) != HELD_OUT


# --- words, ids and their errors ---------------------------------------------------------------


def test_words_are_split_on_white_space_lower_cased_with_a_final_full_stop_a_word():
    assert c.words("The Bank  of the\triver.") == ("the", "bank", "of", "the", "river", ".")
    assert c.words(" \r\n\x0b\x0cthe\ncat.\t") == ("the", "cat", ".")  # ASCII white space, as JavaScript reads it
    assert c.words(["the", "cat"]) == ("the", "cat")
    ids = c.encode("the cat sat .")
    assert ids.dtype == np.int64 and c.decode(ids) == ("the", "cat", "sat", ".")
    assert c.VOCABULARY[0] == "." and list(c.VOCABULARY[1:]) == sorted(c.VOCABULARY[1:])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "the bnak of",
            "word 2, 'bnak', is not in the model's vocabulary; the nearest words are 'bank', 'back', 'boat'",
        ),
        # only ASCII white space splits and only A to Z are lower-cased, as the playground reads them
        ("the\xa0cat", "word 1, 'the\\xa0cat', is not in the model's vocabulary; the nearest words are 'cat', 'the'"),
        ("ban\u212a", "word 1, 'ban\u212a', is not in the model's vocabulary; the nearest words are 'bank', 'back'"),
        ("the Cats", "word 2, 'Cats', is not in the model's vocabulary; the nearest words are 'cat', 'cash', 'sat'"),
        (
            "the \x1b[2J",
            "word 2, '\\x1b[2J', is not in the model's vocabulary; the nearest words are '.', 'back', 'bank'",
        ),
        ("the " + "x" * 500, f"word 2, {'x' * 24!r}... (500 characters), is not in the model's vocabulary"),
        ("", "text holds no word; give at least one of the model's 43 words"),
        ("the " * 14, "text has 14 words; the model reads at most 13"),
        (["the", 3], "text must be a string of words or a list of words, got ['the', 3]"),
        (None, "text must be a string of words or a list of words, got None"),
    ],
)
def test_a_word_outside_the_vocabulary_is_named_with_the_nearest_words(text, message):
    with pytest.raises(ValueError) as info:
        c.words(text)
    assert str(info.value).startswith(message)
    assert len(str(info.value)) < 200


def test_nearest_and_decode_check_their_input():
    assert c.nearest("rivr") == ["river", "bird", "fish"] and c.nearest("bank", 1) == ["bank"]
    assert c.nearest("BNAK", 1) == ["bank"]  # a swap of neighbours is one edit
    pairs = [("", "abc"), ("ca", "abc"), ("kitten", "sitting"), ("ab", "ba")]
    assert [c._distance(a, b) for a, b in pairs] == [3, 3, 3, 1]
    for bad in (0, 44, True, 2.0):
        with pytest.raises(ValueError, match=r"^k must be an integer from 1 to 43"):
            c.nearest("x", bad)
    for bad in ([], [43], [-1], [True], "ab", None):
        with pytest.raises(ValueError, match=r"^ids"):
            c.decode(bad)


# --- the baseline and the best possible --------------------------------------------------------


def test_the_bigram_model_is_counted_from_the_training_corpus():
    counts = c.bigram_counts(TRAIN)
    assert counts.sum() == sum(len(s.words) - 1 for s in TRAIN)
    P = c.bigram_probabilities(counts, 0.01)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    i, j = c.VOCABULARY.index("to"), c.VOCABULARY.index("the")
    assert math.isclose(P[i, j], (counts[i, j] + 0.01) / (counts[i].sum() + 0.01 * 43))
    for bad in (0, -1, math.inf, "0.1", True):
        with pytest.raises(ValueError, match=r"^smoothing must be a positive finite number"):
            c.bigram_probabilities(counts, bad)
    with pytest.raises(ValueError, match=r"^counts must be"):
        c.bigram_probabilities(counts[:3], 0.1)


def test_the_bigram_baseline_is_clearly_worse_than_the_best_possible_where_context_decides():
    bigram = c.bigram_scores(HELD_OUT, c.bigram_counts(TRAIN))
    best = c.best_possible(HELD_OUT)
    assert set(bigram) == set(best) == set(c.GROUPS)
    for group in ("after bank", "after it"):
        assert best[group].accuracy == 1.0 and best[group].loss == 0.0
        assert bigram[group].loss > 0.68  # about ln 2 or more: "of" or "on", and 1 of 4 verbs after "it"
    # the bigram guesses one word after bank, and money sentences are 2 in 3 held out (2 days)
    assert bigram["after bank"].accuracy == pytest.approx(2 / 3) and bigram["after it"].accuracy == 0.25
    assert bigram["after bank"].positions == 204 and bigram["after it"].positions == 56
    assert best["all"].positions == bigram["all"].positions == sum(len(s.words) - 1 for s in HELD_OUT)
    assert best["all"].loss < bigram["all"].loss - 0.4


def test_score_counts_the_right_word_and_its_loss():
    s = c.held_out()[0]
    n = len(s.words) - 1
    P = np.full((n, 43), 1 / 43)
    P[:, 0] = 1 / 43 + 1e-9  # "." a hair above the rest: the answer everywhere
    P[:, 1] = 1 / 43 - 1e-9
    scores = c.score([s], [P])
    assert scores["all"].positions == n and scores["all"].accuracy == pytest.approx(1 / n)  # only the last is "."
    assert scores["all"].loss == pytest.approx(math.log(43), rel=1e-6)
    with pytest.raises(ValueError, match=re.escape(f"probabilities[0] must be ({n}, 43)")):
        c.score([s], [P[:-1]])
    with pytest.raises(ValueError, match=r"^sentences must be a non-empty list of corpus Sentences"):
        c.score(["the cat"], [P])
