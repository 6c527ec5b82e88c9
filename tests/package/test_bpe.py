"""Layer 1: byte-pair encoding (selfattn_ref/bpe.py): the merges of the classic example (Sennrich et
al., 2016, without the end-of-word mark), the rule for ties, splitting a new word, and bad input."""

from __future__ import annotations

import pytest

from selfattn_ref import bpe

WORDS = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def test_the_classic_example():
    merges = bpe.learn(WORDS, 6)
    assert [(m.pair, m.count) for m in merges] == [
        (("e", "s"), 9),  # newest 6 + widest 3
        (("es", "t"), 9),
        (("l", "o"), 7),  # low 5 + lower 2
        (("lo", "w"), 7),
        (("n", "e"), 6),
        (("ne", "w"), 6),
    ]
    assert merges[-1].words == {"low": ("low",), "lower": ("low", "e", "r"), "newest": ("new", "est"),
                                "widest": ("w", "i", "d", "est")}  # fmt: skip
    assert bpe.split("lowest", merges) == ("low", "est")
    assert bpe.split("bank", merges) == ("b", "a", "n", "k")  # no merge applies: its letters


def test_a_list_counts_each_occurrence_and_a_tie_goes_to_the_pair_met_first():
    as_list = bpe.learn(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3, 6)
    assert [m.pair for m in as_list] == [m.pair for m in bpe.learn(WORDS, 6)]
    tie = bpe.learn(["ab", "cd"], 1)  # both pairs once: "ab" is met first
    assert tie[0].pair == ("a", "b") and tie[0].words == {"ab": ("ab",), "cd": ("c", "d")}
    assert bpe.learn(["aaa"], 1)[0].words == {"aaa": ("aa", "a")}  # merged left to right, not overlapping


def test_learning_stops_when_every_word_is_one_token():
    merges = bpe.learn(["bank", "of", "river"], 100)
    assert len(merges) == 3 + 1 + 4  # each word's letters, merged until it is whole
    assert merges[-1].words == {"bank": ("bank",), "of": ("of",), "river": ("river",)}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: bpe.learn("low lower", 3), "words must be a list of words or a dict of word counts"),
        (lambda: bpe.learn([], 3), "words must hold at least one word"),
        (lambda: bpe.learn(["low", "a b"], 3), "words must hold words (text without spaces, not empty), got 'a b'"),
        (lambda: bpe.learn(["low", ""], 3), "words must hold words (text without spaces, not empty), got ''"),
        (lambda: bpe.learn({"low": 0}, 3), "a word's count must be a positive integer, got 0 for 'low'"),
        (lambda: bpe.learn(["low"], 0), "merges must be an integer from 1 to 1000, got 0"),
        (lambda: bpe.learn(["low"], 2.0), "merges must be an integer from 1 to 1000, got 2.0"),
        (lambda: bpe.split("", []), "word must be a word (text without spaces, not empty), got ''"),
        (lambda: bpe.split("low", [("l", "o")]), "merges must be the list that learn() returns"),
    ],
)
def test_bad_input_is_one_clear_message(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(message)
