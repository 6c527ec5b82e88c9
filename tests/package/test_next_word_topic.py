"""Layer 1: the computations of docs/next-word.md (selfattn_ref/topics/next_word.py): one held-out
sentence through the language model, the next word after its first three words at each temperature
and with top-k, the generation loop greedy and seeded, and the byte-pair merges of the page's box.
Each is what the package's own functions give, and what the page says of it holds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from selfattn_ref import bpe, corpus
from selfattn_ref import language_model as lm
from selfattn_ref.topics import next_word as nw

V = corpus.VOCABULARY


def test_the_sentence_is_held_out_and_the_walk_is_the_forward_pass():
    """The page: the whole sentence, "... bank on friday .", is held out; the training corpus has the
    same words followed by "on monday ." 3 times, and no other sentence that starts with them."""
    whole = nw.SENTENCE + " on friday ."
    assert whole in {s.text for s in corpus.held_out()} and whole in corpus.SHOWN
    seen = [s.text for s in corpus.training() if s.text.startswith(nw.SENTENCE + " ")]
    assert seen == [nw.SENTENCE + " on monday ."] * 3
    s = nw.walk()
    assert s.words == ("she", "took", "the", "money", "to", "the", "bank")
    np.testing.assert_array_equal(s.logits, lm.forward(nw.SENTENCE).logits)
    # the two "the" share a token row and differ by their position rows
    np.testing.assert_array_equal(s.embeddings[2], s.embeddings[5])
    assert not np.allclose(s.X[2], s.X[5])
    assert lm.ranked(s.probabilities[-1], 1)[0][0] == "on"


def test_the_choices_after_she_took_the():
    c = nw.choices()
    s = nw.walk()
    assert c.words == ("she", "took", "the")
    np.testing.assert_array_equal(c.logits, s.logits[nw.PREFIX - 1])
    # the causal mask: the row of the third word is the model's row on the first three words alone
    np.testing.assert_allclose(c.logits, lm.forward("she took the").logits[-1], rtol=0, atol=1e-12)
    for T in nw.TEMPERATURES:
        e = np.exp((c.logits - c.logits.max()) / T)
        np.testing.assert_allclose(c.temperature[T], e / e.sum(), rtol=0, atol=1e-15)
    # a lower temperature sharpens: the most probable word gains, the least probable lose
    top = int(np.argmax(c.logits))
    assert c.temperature[0.5][top] > c.temperature[1.0][top] > c.temperature[2.0][top]
    kept = np.argsort(-c.logits)[: nw.TOP_K]
    assert (c.top_k > 0).sum() == nw.TOP_K and set(np.flatnonzero(c.top_k)) == set(kept)
    np.testing.assert_allclose(c.top_k[kept], c.temperature[1.0][kept] / c.temperature[1.0][kept].sum())
    # the corpus writes cold and wet a quarter of the time each, each of the six things a twelfth
    odds = dict(zip(V, c.odds, strict=True))
    assert odds["cold"] == pytest.approx(0.25) and odds["wet"] == pytest.approx(0.25)
    for thing in (*corpus.RIVER_THINGS, *corpus.MONEY_THINGS):
        assert odds[thing] == pytest.approx(1 / 12)
    assert sum(odds.values()) == pytest.approx(1)


def test_the_generation_loop_greedy_and_seeded():
    g = nw.generation()
    greedy = [st.word for st in g.greedy]
    sampled = [st.word for st in g.sampled]
    assert greedy == "cold net back to the bank of the river .".split()
    assert sampled == "money back to the bank on monday .".split()
    assert all(st.u is None for st in g.greedy)
    rng = corpus.SeededRandom(nw.SEED)
    assert [st.u for st in g.sampled] == [rng.uniform() for _ in g.sampled]
    for st in g.sampled:  # each word is the first whose running total exceeds u
        total = np.cumsum(st.probabilities)
        assert V[int(np.flatnonzero(total > st.u)[0])] == st.word
    # the first word sampled is not the most probable one: sampling can pick any word
    assert g.sampled[0].word != V[int(np.argmax(g.sampled[0].probabilities))]


def test_the_byte_pair_merges():
    merges = nw.byte_pairs()
    assert [m.pair for m in merges] == [("b", "a"), ("ba", "n"), ("ban", "k"), ("e", "r"), ("r", "i"),
                                        ("ri", "v"), ("riv", "er")]  # fmt: skip
    assert merges[0].count == 5 + 3 + 2  # bank, banks and banker each hold "b a" once
    assert merges[-1].words == {"bank": ("bank",), "banks": ("bank", "s"), "banker": ("bank", "er"),
                                "river": ("river",), "rivers": ("river", "s")}  # fmt: skip
    assert not set(nw.BPE_NEW) & set(nw.BPE_WORDS)
    assert [bpe.split(w, merges) for w in nw.BPE_NEW] == [("river", "bank", "s"), ("bank", "er", "s")]


def test_the_loss_of_each_row_is_minus_the_log_of_the_word_that_comes():
    s = nw.walk()
    losses = [-math.log(s.probabilities[i, s.ids[i + 1]]) for i in range(len(s.words) - 1)]
    assert max(losses) == losses[nw.PREFIX - 1]  # "money" after "she took the" is the hardest word


def test_what_the_page_says_of_the_cue_the_unknown_word_and_the_last_draw():
    """The word "money", which decides what follows "bank", stands three words back and gets head 2.1's
    largest weight; the command line's example of a word the model does not know, "bonk", names
    "bank", "back" and "boat"; after "on", "monday" was drawn although "friday" was more probable."""
    s = nw.walk()
    assert s.words.index("bank") - s.words.index("money") == 3
    A = lm.forward(nw.SENTENCE).blocks[1].weights[0]  # block 2, head 1: (n, n)
    assert s.words[int(np.argmax(A[-1]))] == "money"
    with pytest.raises(ValueError, match="'bank', 'back', 'boat'"):
        corpus.encode("she took the money to the bonk")
    last = nw.generation().sampled[6]
    assert last.word == "monday" and lm.ranked(last.probabilities, 1)[0][0] == "friday"
