"""Layer 1: the small language model (selfattn_ref/language_model.py, built from the package's own
functions, and its twin of torch.nn modules, selfattn_ref/torch/language_model.py), on the trained
weights: the two are held equal step by step in float64; the steps are what their names say; the
model is causal; temperature, top-k, greedy decoding, seeded sampling and the generation loop follow
their stated rules in both; a removed head adds nothing; and bad input is one clear message."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch

from selfattn_ref import corpus
from selfattn_ref import language_model as lm
from selfattn_ref.block import layer_norm, transformer_block
from selfattn_ref.masks import causal_mask
from selfattn_ref.torch import language_model as tlm

W = lm.load()
SENTENCES = [
    "she took the money to the bank",
    "she took the boat to the bank",
    "she took the wet boat back to the bank of the",
    "the animal near the street was cold so it",
    "near the animal the street was cold so it",
    "the",
    "the dog near the garden was wet so it shook . the",  # 11 words, and "." inside
    "the cat sat near the river . . . . . . .",  # the whole context, 13 words
]
TIGHT = {"rtol": 0, "atol": 1e-12}


def assert_close(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), **TIGHT)


# --- the weights ---------------------------------------------------------------------------------


def test_the_trained_weights_have_the_models_sizes_and_are_float32_numbers():
    assert W.vocabulary == corpus.VOCABULARY
    assert (W.d_model, W.num_heads, len(W.blocks), W.context) == (16, 2, 2, 13)
    assert W.blocks[0].W_1.shape == (16, 64) and W.W_out.shape == (16, 43)
    assert W.parameters == 8091
    for a in [W.token_embedding, W.position_embedding, W.W_out, *(b.W_Q for b in W.blocks)]:
        assert a.dtype == np.float64 and np.array_equal(a.astype(np.float32).astype(np.float64), a)
    assert lm.rounded(W).W_out is not W.W_out and np.array_equal(lm.rounded(W).W_out, W.W_out)
    with pytest.raises(ValueError, match="read-only"):
        W.blocks[0].W_Q[0, 0] = 1.0  # the weights every caller shares cannot be changed in place


def test_a_record_of_the_weights_reads_back_exactly():
    again = lm.from_record(lm.record(W))
    for name in ("token_embedding", "position_embedding", "gamma", "beta", "W_out", "b_out"):
        assert np.array_equal(getattr(again, name), getattr(W, name))
    for b, b2 in zip(W.blocks, again.blocks, strict=True):
        assert all(np.array_equal(getattr(b, k), getattr(b2, k)) for k in ("W_Q", "W_O", "W_1", "b_2", "gamma_2"))
    unrounded = lm._map(W, lambda a: a + 1e-12)
    with pytest.raises(ValueError, match="round the weights to float32"):
        lm.record(unrounded)
    broken = lm.record(W)
    broken["blocks"][1]["W_K"]["float32"] = broken["blocks"][1]["W_K"]["float32"][:-8]
    with pytest.raises(ValueError, match=r"^the language model's weights: block 2 W_K cannot be read"):
        lm.from_record(broken)
    other = {**lm.record(W), "vocabulary": ["a", *W.vocabulary[1:]]}
    with pytest.raises(ValueError, match="made for another vocabulary"):
        lm.from_record(other)


# --- NumPy == torch.nn twin ------------------------------------------------------------------------


@pytest.mark.parametrize("text", SENTENCES)
def test_numpy_and_the_torch_nn_twin_agree_step_by_step(text):
    a, b = lm.forward(text), tlm.forward(text)
    assert a.words == b.words and np.array_equal(a.ids, b.ids.numpy())
    for name in ("embeddings", "positions", "X", "final", "logits", "probabilities"):
        assert_close(getattr(a, name), getattr(b, name))
    for block_a, block_b in zip(a.blocks, b.blocks, strict=True):
        for name in ("attention", "weights", "sum_1", "norm_1", "hidden", "relu", "ffn", "sum_2", "norm_2", "output"):
            assert_close(getattr(block_a, name), getattr(block_b, name))


def test_the_twin_holds_the_weights_as_torch_nn_modules_and_gives_them_back():
    m = tlm.model()
    assert isinstance(m.token_embedding, torch.nn.Embedding) and isinstance(m.out, torch.nn.Linear)
    attention = m.blocks[0].attention
    assert isinstance(attention, torch.nn.MultiheadAttention) and attention.in_proj_bias is None
    back = tlm.weights_of(m)
    assert np.array_equal(back.blocks[1].W_V, W.blocks[1].W_V) and np.array_equal(back.W_out, W.W_out)


def test_the_steps_are_what_their_names_say():
    s = lm.forward("she took the money to the bank")
    n = len(s.words)
    assert s.words == ("she", "took", "the", "money", "to", "the", "bank")
    assert np.array_equal(s.embeddings, W.token_embedding[s.ids])
    assert np.array_equal(s.positions, W.position_embedding[:n])
    assert np.array_equal(s.X, s.embeddings + s.positions)
    H = s.X
    for b, steps in zip(W.blocks, s.blocks, strict=True):
        again = transformer_block(
            H, b.W_Q, b.W_K, b.W_V, b.W_O, 2, b.W_1, b.b_1, b.W_2, b.b_2, b.gamma_1, b.beta_1, b.gamma_2, b.beta_2,
            norm_first=True, mask=causal_mask(n),
        )  # fmt: skip
        assert np.array_equal(again.output, steps.output) and steps.weights.shape == (2, n, n)
        H = steps.output
    assert np.array_equal(s.final, layer_norm(H, W.gamma, W.beta))
    assert np.array_equal(s.logits, s.final @ W.W_out + W.b_out)
    assert_close(s.probabilities.sum(axis=1), 1.0)
    assert lm.ranked(s.probabilities[-1], 1)[0][0] == "on"  # money, so "on"


def test_the_model_is_causal():
    """A word's row depends on itself and the words before it only: the rows of a prefix are the
    prefix's rows, whatever follows; every weight on a later word is 0."""
    whole = lm.forward("the street near the animal was cold so it froze .")
    for k in (1, 4, 9):
        part = lm.forward(list(whole.words[:k]))
        np.testing.assert_allclose(part.logits, whole.logits[:k], rtol=0, atol=1e-12)
    for block in whole.blocks:
        assert not np.triu(block.weights, 1).any()


def test_the_bank_and_it_contrasts():
    """What the corpus is built for, on sentences the model never trained on: the thing carried
    decides the word after bank, 3 or 4 words back, and the noun that "it" refers to decides what
    it did, first or second of the two nouns."""

    def top(text):
        return lm.ranked(lm.forward(text).probabilities[-1], 1)[0]

    assert top("she took the money to the bank")[0] == "on" and top("she took the boat to the bank")[0] == "of"
    assert top("she took the wet money back to the bank")[0] == "on"
    assert top("she took the wet boat back to the bank")[0] == "of"
    assert top("the animal near the street was cold so it")[0] == "shivered"
    assert top("the street near the animal was cold so it")[0] == "froze"
    assert top("near the street the animal was cold so it")[0] == "shivered"
    assert top("near the animal the street was cold so it")[0] == "froze"
    assert top("she took the boat to the bank of the") == ("river", pytest.approx(0.9970, abs=1e-4))


# --- from logits to words ----------------------------------------------------------------------


@pytest.mark.parametrize("pkg", [lm, tlm], ids=["numpy", "torch"])
def test_temperature_and_top_k(pkg):
    logits = lm.forward("she took the money to the bank on").logits[-1]
    p1 = np.asarray(pkg.next_word_probabilities(logits))
    assert_close(p1, np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum())
    cold, hot = (np.asarray(pkg.next_word_probabilities(logits, t)) for t in (0.5, 2.0))
    order = np.argsort(-logits)
    assert cold[order[0]] > p1[order[0]] > hot[order[0]]  # sharper below 1, flatter above
    assert_close(cold, p1**2 / (p1**2).sum())  # T = 1/2 squares the probabilities, renormalized
    top2 = np.asarray(pkg.next_word_probabilities(logits, 1.0, top_k=2))
    assert np.count_nonzero(top2) == 2 and set(np.flatnonzero(top2)) == set(order[:2])
    assert_close(top2[order[:2]], p1[order[:2]] / p1[order[:2]].sum())
    ties = np.zeros(len(corpus.VOCABULARY))
    assert list(np.flatnonzero(np.asarray(pkg.next_word_probabilities(ties, top_k=3)))) == [0, 1, 2]  # ties by id
    batch = np.asarray(pkg.next_word_probabilities(np.stack([logits, ties]), 0.7, 5))
    assert_close(batch[0], np.asarray(pkg.next_word_probabilities(logits, 0.7, 5)))


@pytest.mark.parametrize("pkg", [lm, tlm], ids=["numpy", "torch"])
def test_greedy_sample_and_ranked(pkg):
    p = np.array([0.1, 0.0, 0.6, 0.3] + [0.0] * (len(corpus.VOCABULARY) - 4))
    assert pkg.greedy(p) == 2
    assert [pkg.sample(p, u) for u in (0.0, 0.0999, 0.1, 0.6999, 0.7, 0.9999)] == [0, 0, 2, 2, 3, 3]
    assert pkg.ranked(p, 3) == [("back", 0.6), ("bank", 0.3), (".", 0.1)]
    with pytest.raises(ValueError, match=r"^u must be a number from 0 to 1 \(1 excluded\), got 1"):
        pkg.sample(p, 1)
    with pytest.raises(
        ValueError, match=r"^probabilities must be one row \(d_vocab,\) of numbers from 0 to 1 that sum"
    ):
        pkg.greedy(p * 2)


def test_generation_is_greedy_or_seeded_and_the_same_in_both_packages():
    greedy = lm.generate("she took the")
    assert [g.word for g in greedy][-1] == "." and all(g.u is None for g in greedy)
    for g in greedy:  # each word is the most probable after the words before it
        assert g.word == corpus.VOCABULARY[int(np.argmax(lm.forward(list(g.words)).probabilities[-1]))]
    assert greedy[1].words == (*greedy[0].words, greedy[0].word)
    for kwargs in ({}, {"seed": 53, "temperature": 1.5}, {"seed": 7, "top_k": 3, "max_words": 4}):
        a, b = lm.generate("the", **kwargs), tlm.generate("the", **kwargs)
        assert [(g.words, g.u, g.word) for g in a] == [(g.words, g.u, g.word) for g in b]
        for x, y in zip(a, b, strict=True):
            assert_close(x.probabilities, y.probabilities)
    sampled = lm.generate("the", seed=53, temperature=1.5)
    rng = corpus.SeededRandom(53)
    for g in sampled:  # each word is what the seed's next number draws from its distribution
        assert g.u == rng.uniform() and g.word == corpus.VOCABULARY[lm.sample(g.probabilities, g.u)]
    again = lm.generate("the", seed=53, temperature=1.5)
    assert [g.word for g in again] == [g.word for g in sampled]
    assert len(lm.generate("the", max_words=2)) <= 2
    full = lm.generate("the cat sat near the river . . . . . .", seed=1)
    assert len(full) <= 1  # one word fits in the context of 13


# --- removing a head -----------------------------------------------------------------------------


def test_a_removed_head_adds_nothing():
    """Removing head (b, h) zeroes the rows of block b's W_O that read it: the block's attention
    output is then the other head's alone, as if head h's output were 0; the weights are unchanged."""
    text = "the animal near the street was cold so it"
    full, cut = lm.forward(text), lm.forward(text, lm.without_heads(W, [(1, 1)]))
    assert np.array_equal(cut.blocks[0].weights, full.blocks[0].weights)
    b = W.blocks[0]
    Q, K, V = (full.blocks[0].norm_1 @ M for M in (b.W_Q, b.W_K, b.W_V))
    head_2 = full.blocks[0].weights[1] @ V[:, 8:]  # (n, d_head): head 2's output
    assert_close(cut.blocks[0].attention, head_2 @ b.W_O[8:])
    assert not np.allclose(cut.logits, full.logits)
    assert_close(tlm.forward(text, lm.without_heads(W, [(1, 1)])).logits, cut.logits)
    both = lm.without_heads(W, [(2, 1), (2, 2)])
    assert not both.blocks[1].W_O.any() and np.array_equal(both.blocks[0].W_O, W.blocks[0].W_O)
    assert np.array_equal(W.blocks[0].W_O, lm.load().blocks[0].W_O) and W.blocks[0].W_O.any()  # W untouched


@pytest.mark.parametrize("heads", [[(3, 1)], [(1, 0)], [(1,)], (1, 1), [(True, 1)], "1,1", [[1, 1]]])
def test_a_head_that_is_not_there_is_refused(heads):
    with pytest.raises(ValueError, match=r"^heads must be a list of \(block, head\) pairs, blocks 1 to 2 and heads"):
        lm.without_heads(W, heads)


# --- what the model does, measured -----------------------------------------------------------------


def test_numpy_and_torch_score_the_held_out_sentences_alike():
    held = corpus.held_out()
    a, b = lm.evaluate(held), tlm.evaluate(held)
    assert set(a) == set(corpus.GROUPS)
    for g in a:
        assert a[g].positions == b[g].positions and a[g].accuracy == b[g].accuracy
        assert a[g].loss == pytest.approx(b[g].loss, rel=1e-12)
    one = held[0]  # a sentence scored in a batch is scored as on its own (the padding is masked)
    P = lm.forward(list(one.words)).probabilities[:-1]
    assert lm.evaluate([one])["all"] == corpus.score([one], [P])["all"]


# --- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("pkg", [lm, tlm], ids=["numpy", "torch"])
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: m.forward("the bnak"), "word 2, 'bnak', is not in the model's vocabulary; the nearest words are"),
        (lambda m: m.forward("the " * 14), "text has 14 words; the model reads at most 13"),
        (lambda m: m.forward("the", weights="W"), "weights must be the language model's Weights"),
        (lambda m: m.next_word_probabilities(np.zeros(43), 0), "temperature must be a positive finite number, got 0"),
        (lambda m: m.next_word_probabilities(np.zeros(43), top_k=44), "top_k must be None or an integer from 1 to 43"),
        (lambda m: m.next_word_probabilities([1e308, 0.0], 0.5), "logits / temperature overflows"),
        (lambda m: m.generate("the", max_words=13), "max_words: the text has 1 word and the model reads at most 13"),
        (lambda m: m.generate("the", max_words=0), "max_words must be a positive integer, got 0"),
        (lambda m: m.generate("the", seed=-1), "seed must be an integer from 0 to 4,294,967,295, got -1"),
        (lambda m: m.generate("the", top_k=0), "top_k must be None or an integer from 1 to 43, got 0"),
        (lambda m: m.evaluate(["the cat"]), "sentences must be a non-empty list of corpus Sentences"),
        (lambda m: m.ranked(np.full(43, 1 / 43), 0), "k must be an integer from 1 to 43, got 0"),
    ],
)
def test_bad_input_is_one_clear_message_the_same_in_both(pkg, call, message):
    with pytest.raises(ValueError) as info:
        call(pkg)
    assert str(info.value).startswith(message), str(info.value)
    assert not re.search(r"Traceback|nan", str(info.value))
