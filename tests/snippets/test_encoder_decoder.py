"""Snippets of docs/cross-attention.md, encoder_decoder_numpy.py and encoder_decoder_torch.py: the three
attention layers of an encoder-decoder on the padded source "The cat sat" / "The cat" + [PAD] and
target "Le chat est assis" / "Le chat" + [PAD] [PAD], held equal to selfattn_ref.topics.cross_attention
(selfattn_ref.cross_attention and the package's masks), to torch.nn.MultiheadAttention called with a
query other than its key and to scaled_dot_product_attention; and the facts the page states: which
mask goes in which layer, the words read word by word, the RNN decoder beside it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import selfattn_ref
from publish import DOCS, SNIPPETS
from selfattn_ref import examples
from selfattn_ref.topics import cross_attention as source
from selfattn_ref.topics import masking, rnn_comparison

from snippet_checks import as_numpy, close, torch_namespace

FOLDER = SNIPPETS / "cross_attention"
NUMPY = FOLDER / "encoder_decoder_numpy.py"
TORCH = FOLDER / "encoder_decoder_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]  # the fixture ns (tests/snippets/conftest.py) runs each


@pytest.fixture(scope="module")
def L():
    return source.layers()


def test_numpy_ends_on_its_check():
    """(The PyTorch tab prints these lines and its two checks: test_recordings.py's TWINS_DIFFER.)"""
    numpy_out = NUMPY.with_suffix(".out").read_text(encoding="utf-8")
    assert numpy_out.endswith("the source's pad gets weight 0 from every target row: True\n")


# --- the scripts against the package ----------------------------------------------------------


def test_the_batches_are_the_pages(ns, L):
    assert [tuple(s) for s in ns["source"]] == list(L.source)
    assert [tuple(s) for s in ns["target"]] == list(L.target)
    close(ns["X_source"], L.X_source)
    close(ns["X_target"], L.X_target)
    close(L.X_source, masking.padding().X)  # the padded batch of the page on masking
    np.testing.assert_array_equal(as_numpy(ns["source_lengths"]), source.SOURCE_LENGTHS)
    np.testing.assert_array_equal(as_numpy(ns["target_lengths"]), source.TARGET_LENGTHS)


def test_each_layer_has_the_packages_mask(ns, L):
    src = as_numpy(ns["source_pad"])[:, None, :]
    tgt = as_numpy(ns["target_pad"])[:, None, :]
    np.testing.assert_array_equal(np.broadcast_to(src, L.encoder_mask.shape), L.encoder_mask)
    np.testing.assert_array_equal(as_numpy(ns["causal"]) & tgt, L.decoder_mask)
    np.testing.assert_array_equal(np.broadcast_to(src, L.cross_mask.shape), L.cross_mask)
    np.testing.assert_array_equal(src, selfattn_ref.padding_mask(list(source.SOURCE_LENGTHS), 3))


def test_every_layer_equals_the_package(ns, L):
    close(ns["memory"], L.memory)
    close(ns["encoder_weights"], L.encoder_weights[:, 0])
    close(ns["decoded"], L.decoder)
    close(ns["decoder_weights"], L.decoder_weights[:, 0])
    close(ns["output"], L.output)
    close(ns["weights"], L.weights[:, 0])
    close(ns["word_by_word"], L.direct_output)
    close(ns["direct_weights"], L.direct_weights[:, 0])


def test_the_torch_script_matches_multihead_attention_with_a_query_other_than_its_key(L):
    """Built here again, apart from the script: the decoder's rows as the query, the encoder's as the
    key and the value, key_padding_mask the source's padding turned over; and the package's
    multi-head cross_attention in PyTorch."""
    ns = torch_namespace(TORCH)
    mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(4, dtype=torch.float64).repeat(3, 1))
        mha.out_proj.weight.copy_(torch.eye(4, dtype=torch.float64))
    real = torch.from_numpy(selfattn_ref.padding_mask(list(source.SOURCE_LENGTHS), 3)[:, 0])
    decoded, memory = torch.from_numpy(L.decoder), torch.from_numpy(L.memory)
    out, w = mha(decoded, memory, memory, key_padding_mask=~real)
    close(out, L.output)
    close(w, L.weights[:, 0])
    close(ns["mha_output"], L.output)
    close(ns["mha_weights"], L.weights[:, 0])
    close(ns["builtin"], L.output)
    import selfattn_ref.torch as tref

    eye = torch.eye(4, dtype=torch.float64)
    t_out, t_w = tref.cross_attention(decoded, memory, eye, eye, eye, eye, 1, mask=real[:, None, :])
    close(t_out, L.output)
    close(t_w, L.weights)


# --- what the page says ---------------------------------------------------------------------


def test_which_mask_applies_where(L):
    assert L.encoder_mask.shape[1:] == (3, 3) and L.decoder_mask.shape[1:] == (4, 4)
    assert L.cross_mask.shape[1:] == (4, 3)  # n × n_k: not square
    assert L.cross_mask[0].all()  # no causal mask in cross-attention
    np.testing.assert_array_equal(L.cross_mask[1], [[True, True, False]] * 4)  # only the source's pad
    np.testing.assert_array_equal(L.decoder_mask[0], selfattn_ref.causal_mask(4))
    assert not L.decoder_mask[1][:, 2:].any()  # the target's pads, never read


def test_the_words_read_word_by_word(L):
    w = L.direct_weights[0, 0]  # Le, chat, est, assis over The, cat, sat
    assert [int(np.argmax(row)) for row in w[[2, 3]]] == [2, 2]  # est and assis lean to sat
    close(L.direct_scaled[0, 3], [1, 1, 2])  # assis: 2, 2 and 4, divided by 2
    close(w[3], selfattn_ref.softmax(np.array([1.0, 1.0, 2.0])))
    assert w[1, 1] == w[1, 2] > w[1, 0]  # chat: cat and sat alike
    assert w[2, 0] == w[2, 1] < w[2, 2]
    short = L.direct_weights[1, 0]
    assert (short[:, 2] == 0).all()
    close(short[0, :2], masking.padding().alone_weights[0])  # as "The" in "The cat" alone
    close(short[2:], np.full((2, 3), [0.5, 0.5, 0]))  # the target's pads read The and cat evenly


def test_the_layers_together_are_flatter(L):
    assert L.weights[0, 0, 3, 2] < L.direct_weights[0, 0, 3, 2]
    spread = lambda W: (W.max(axis=-1) - W.min(axis=-1)).max()  # noqa: E731
    assert spread(L.weights[0, 0]) < spread(L.direct_weights[0, 0])
    close(L.decoder[0, 0], L.X_target[0, 0])  # Le reads only itself and keeps its vector


def test_the_rnn_decoder_side_by_side():
    R = source.rnn_side_by_side()
    st = rnn_comparison.rnn_steps(examples.load_rnn())
    close(R.scores, st.dot_scores)
    close(R.rnn_weights, st.dot_weights)  # the RNN page's numbers
    close(R.scaled, st.dot_scores / 2)
    close(R.cross_weights, selfattn_ref.softmax(R.scaled))
    eye = np.eye(4)  # "with W_Q twice the identity ... the two agree exactly"
    _, weights = selfattn_ref.cross_attention(R.s[None], R.H, 2 * eye, eye, eye, eye, 1)
    close(weights[0, 0], st.dot_weights)


def test_torch_transformer_names_its_masks_as_the_page_does():
    import inspect

    params = inspect.signature(torch.nn.Transformer.forward).parameters
    text = (DOCS / "cross-attention.md").read_text(encoding="utf-8")
    for name in ("src_key_padding_mask", "tgt_mask", "tgt_key_padding_mask", "memory_key_padding_mask"):
        assert name in params and f"`{name}`" in text
    assert "memory" in inspect.signature(torch.nn.TransformerDecoder.forward).parameters
