"""Cross-attention (selfattn_ref.cross_attention and its twin): equal to torch.nn.MultiheadAttention
called with a query other than its key, the masks of the three layers of an encoder-decoder on the
site's batch (which mask applies where), and the RNN decoder's attention beside it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import selfattn_ref as ref
import selfattn_ref.torch as tref
from selfattn_ref import examples
from selfattn_ref.topics import cross_attention as topic
from selfattn_ref.topics import rnn_comparison

from snippet_checks import close

RNG = np.random.default_rng(6)
TARGET = RNG.standard_normal((2, 5, 6))  # (batch, n, d_model)
SOURCE = RNG.standard_normal((2, 3, 6))  # (batch, m, d_model)
W = [RNG.standard_normal((6, 6)) for _ in range(4)]
SOURCE_LENGTHS = [3, 2]


@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_equal_to_torch_multihead_attention_with_a_query_other_than_its_key(pkg):
    mha = torch.nn.MultiheadAttention(6, 2, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([torch.from_numpy(w).T for w in W[:3]]))  # W_Q.T, W_K.T, W_V.T stacked
        mha.out_proj.weight.copy_(torch.from_numpy(W[3]).T)
    pad = ref.padding_mask(SOURCE_LENGTHS, 3)  # (batch, 1, m), True = may read
    memory = torch.from_numpy(SOURCE)
    output, weights = mha(
        torch.from_numpy(TARGET),
        memory,
        memory,
        key_padding_mask=torch.from_numpy(~pad[:, 0]),  # (batch, m), True = leave out: the opposite convention
        average_attn_weights=False,
    )
    got_output, got_weights = pkg.cross_attention(TARGET, SOURCE, *W, 2, mask=pad)
    assert tuple(got_weights.shape) == (2, 2, 5, 3)  # (batch, num_heads, n, m): a row per target token
    close(got_output, output)
    close(got_weights, weights)
    assert np.asarray(got_weights)[1, :, :, 2].max() == 0  # no target token reads the pad


def test_with_memory_the_rows_themselves_it_is_multi_head_attention():
    for pkg in (ref, tref):
        close(pkg.cross_attention(TARGET, TARGET, *W, 3)[0], pkg.multi_head_attention(TARGET, *W, 3)[0])


def test_which_mask_applies_where():
    L = topic.layers()
    assert L.source == (("The", "cat", "sat"), ("The", "cat", "[PAD]"))
    assert L.target == (("Le", "chat", "est", "assis"), ("Le", "chat", "[PAD]", "[PAD]"))
    # the encoder: every source row may read the source's real tokens
    assert L.encoder_mask.shape == (2, 3, 3) and L.encoder_mask[1].tolist() == [[True, True, False]] * 3
    # the decoder's self-attention: causal, and the target's padding
    assert L.decoder_mask.shape == (2, 4, 4)
    assert np.array_equal(L.decoder_mask[0], np.tril(np.ones((4, 4), bool)))
    assert L.decoder_mask[1, 3].tolist() == [True, True, False, False]
    # cross-attention: no causal mask, every target row reads every real source token
    assert L.cross_mask.shape == (2, 4, 3) and L.cross_mask[0].all()
    assert L.cross_mask[1].tolist() == [[True, True, False]] * 4
    for weights, mask in (
        (L.encoder_weights, L.encoder_mask),
        (L.decoder_weights, L.decoder_mask),
        (L.weights, L.cross_mask),
    ):
        assert np.all(weights[:, 0][~mask] == 0) and np.all(weights[:, 0][mask] > 0)
    close(L.weights.sum(axis=-1), np.ones((2, 1, 4)))


def test_target_words_read_the_source_words_that_share_their_features():
    w = topic.layers().direct_weights[0, 0]  # (n, m): Le, chat, est, assis over The, cat, sat
    assert int(np.argmax(w[3])) == 2  # assis reads sat most
    # chat reads cat and sat alike (sat's vector holds cat's features), The least
    assert [f"{x:.4f}" for x in w[1]] == ["0.1554", "0.4223", "0.4223"]


def test_the_rnn_decoder_side_by_side():
    """The RNN page's decoder state reads the encoder's states with the same three steps; cross-attention
    divides the scores by √d, and with W_Q = √d · I it gives the RNN's dot-product attention exactly."""
    s = topic.rnn_side_by_side()
    steps = rnn_comparison.rnn_steps(examples.load_rnn())
    close(s.rnn_weights, steps.dot_weights)
    close(s.H, steps.H)
    close(s.cross_weights, ref.softmax(s.H @ s.s / 2))
    eye = np.eye(4)
    output, weights = ref.cross_attention(s.s[None], s.H, 2 * eye, eye, eye, eye, 1)
    close(weights[0, 0], steps.dot_weights)
    close(output[0], steps.dot_context)


@pytest.mark.parametrize("pkg", [ref, tref], ids=["numpy", "torch"])
def test_bad_input(pkg):
    with pytest.raises(
        ValueError, match=r"X and memory must have the same width, got X \(2, 5, 6\) and memory \(2, 3, 4\)"
    ):
        pkg.cross_attention(TARGET, SOURCE[..., :4], *W, 2)
    with pytest.raises(ValueError, match=r"mask has shape \(5, 5\), which does not fit the scores' shape \(2, 5, 3\)"):
        pkg.cross_attention(TARGET, SOURCE, *W, 2, mask=np.ones((5, 5), bool))
    with pytest.raises(ValueError, match="X and memory must have batch dimensions that broadcast together"):
        pkg.cross_attention(TARGET, np.ones((3, 3, 6)), *W, 2)
    with pytest.raises(
        ValueError,
        match=r"^X \(2, 5, 6\), memory \(2, 3, 6\), W_Q \(6, 6\) and W_K \(6, 6\) are too large: in the heads",
    ):
        pkg.cross_attention(TARGET, SOURCE * 1e307, *W, 2)
