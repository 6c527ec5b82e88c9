"""Snippets of docs/batched-heads.md, causal_self_attention_numpy.py and causal_self_attention_torch.py:
the padded batch "The cat sat" and "The cat" + [PAD] with two heads, held equal to
selfattn_ref.batched (through selfattn_ref.topics.batched_heads), to the package's torch module and to
PyTorch's own scaled_dot_product_attention and MultiheadAttention; the table of lines, which the
scripts write line for line; and the facts the page states, the masks' conventions among them."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import selfattn_ref
from publish import DOCS, SNIPPETS
from publish.generate.topics import batched_heads as page
from selfattn_ref import batched, examples, kv_cache
from selfattn_ref.topics import batched_heads as source
from selfattn_ref.topics import multi_head
from selfattn_ref.torch import batched as tbatched

from snippet_checks import as_numpy, close, torch_namespace

FOLDER = SNIPPETS / "batched_heads"
NUMPY = FOLDER / "causal_self_attention_numpy.py"
TORCH = FOLDER / "causal_self_attention_torch.py"
SNIPPET_PATHS = [NUMPY, TORCH]  # the fixture ns (tests/snippets/conftest.py) runs each


@pytest.fixture(scope="module")
def b():
    return source.batch()


def test_numpy_ends_on_its_check():
    """(The PyTorch tab prints these lines and its two checks: test_recordings.py's TWINS_DIFFER.)"""
    numpy_out = NUMPY.with_suffix(".out").read_text(encoding="utf-8")
    assert numpy_out.endswith("real tokens the same as each sentence alone: True\n")


# --- the scripts against the package ----------------------------------------------------------


def test_the_batch_and_the_weights_are_the_pages(ns, b):
    assert [tuple(s) for s in ns["batch"]] == list(b.sentences)
    np.testing.assert_array_equal(as_numpy(ns["lengths"]), b.lengths)
    close(ns["X"], b.steps.X)
    for name in ("W_Q", "W_K", "W_V"):
        close(ns[name], b.W)
    close(ns["W_O"], b.W_O)
    assert ns["h"] == source.NUM_HEADS == 2


def test_every_weight_and_output_equals_the_package(ns, b):
    close(ns["weights"], b.steps.weights)
    close(ns["output"], b.steps.output)
    for alone, (k, ref) in zip(ns["alone"], zip(b.lengths, b.alone, strict=True), strict=True):
        close(as_numpy(alone)[0], ref.output[0])
        assert as_numpy(alone).shape[1] == k


def test_the_torch_module_keeps_the_causal_mask_as_a_buffer(b):
    ns = torch_namespace(TORCH)
    layer = ns["layer"]
    n_ctx = kv_cache.GPT2_SMALL.n_ctx  # "GPT-2 reads at most 1,024 tokens"
    assert dict(layer.named_buffers()).keys() == {"causal"} and tuple(layer.causal.shape) == (n_ctx, n_ctx)
    assert "causal" in layer.state_dict() and "causal" not in dict(layer.named_parameters())
    np.testing.assert_array_equal(layer.causal[:3, :3].numpy(), selfattn_ref.causal_mask(3))
    # the package's module, with the same weights, gives the same
    ref = tbatched.CausalSelfAttention.from_weights(*(torch.from_numpy(M) for M in (b.W, b.W, b.W, b.W_O)), 2, n_ctx)
    close(layer.qkv.weight.detach(), ref.qkv.weight.detach())
    close(ns["output"], ref(torch.from_numpy(b.steps.X), list(b.lengths)).detach())
    assert "1,024" in (DOCS / "batched-heads.md").read_text(encoding="utf-8")


def test_the_torch_script_matches_pytorchs_own_functions(b):
    """Built here again, apart from the script: scaled_dot_product_attention with the site's mask
    (True = may attend), MultiheadAttention with it turned over (True = leave out)."""
    ns = torch_namespace(TORCH)
    st = b.steps
    heads = F.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (st.Q_heads, st.K_heads, st.V_heads)), attn_mask=torch.from_numpy(st.mask)
    )
    close(heads, st.heads)
    close(ns["builtin"], st.output)
    mha = torch.nn.MultiheadAttention(4, 2, bias=False, batch_first=True, dtype=torch.float64)
    W = torch.from_numpy(b.W)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W.T, W.T, W.T]))
        mha.out_proj.weight.copy_(torch.from_numpy(b.W_O).T)
    real = torch.from_numpy(selfattn_ref.padding_mask(list(b.lengths), 3)[:, 0])  # (B, T)
    causal = torch.from_numpy(selfattn_ref.causal_mask(3))
    out, w = mha(*(torch.from_numpy(st.X),) * 3, key_padding_mask=~real, attn_mask=~causal, average_attn_weights=False)
    close(out, st.output)
    close(w, st.weights)
    close(ns["mha_output"], out.detach())
    close(ns["mha_weights"], w.detach())


# --- the table of lines -------------------------------------------------------------------------


def _code_lines(path) -> set[str]:
    return {line.split("  #")[0].strip() for line in path.read_text(encoding="utf-8").splitlines()}


def test_the_numpy_script_writes_every_line_of_the_table():
    assert {code for code, _, _ in page.lines("numpy")} <= _code_lines(NUMPY)


def test_the_torch_script_writes_the_tables_lines_but_the_two_projections():
    """The module gets Q, K, V from its one nn.Linear and projects with another, as the page says;
    every other line of the PyTorch table is a line of the script."""
    lines = [code for code, _, _ in page.lines("torch")]
    missing = [code for code in lines if code not in _code_lines(TORCH)]
    assert missing == ["Q, K, V = X @ W_Q, X @ W_K, X @ W_V", "output = y @ W_O"]
    assert "Q, K, V = self.qkv(X).split(C, dim=2)" in _code_lines(TORCH)
    assert "`self.qkv(X).split(C, dim=2)`" in (DOCS / "batched-heads.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("library", ["numpy", "torch"])
def test_each_named_shape_is_the_shape_measured(library):
    """The names in the table's middle column, with other sizes than the page's (so that no two are
    equal), give the shape each line measured."""
    rng = np.random.default_rng(0)
    B, T, C, h = 2, 5, 12, 3
    X, *W = (rng.standard_normal(s) for s in [(B, T, C)] + [(C, C)] * 4)
    run = batched.causal_self_attention if library == "numpy" else tbatched.causal_self_attention
    sizes = {"B": B, "T": T, "C": C, "h": h, "d_head": C // h, "1": 1}
    for code, shape in run(X, *W, h, lengths=[5, 3]).lines:
        named = page.named_shape(page.library_function(library), code)
        assert tuple(sizes[s.strip()] for s in named.strip("()").split(",")) == shape, (code, named)
    with pytest.raises(ValueError, match="no shape named for 'y = 1'"):
        page.named_shape(page.library_function(library), "y = 1")


# --- what the page says ---------------------------------------------------------------------


def test_the_padding_mask_changes_only_the_pads_row(b):
    real = np.array([[True] * 3, [True, True, False]])
    np.testing.assert_array_equal(b.steps.output[real], b.causal_only.output[real])
    assert not np.allclose(b.steps.output[1, 2], b.causal_only.output[1, 2])
    for h in range(2):
        close(b.causal_only.weights[1, h, 2], np.full(3, 1 / 3))
        close(b.steps.weights[1, h, 2], [0.5, 0.5, 0])
    assert b.largest_difference == 0  # "exactly those of each sentence run on its own"


def test_the_mask_is_one_table_per_sentence_shared_by_the_heads(b):
    assert b.steps.mask.shape == (2, 1, 3, 3)
    np.testing.assert_array_equal(b.steps.mask[0, 0], selfattn_ref.causal_mask(3))
    np.testing.assert_array_equal(b.steps.mask[1, 0], [[1, 0, 0], [1, 1, 0], [1, 1, 0]])


def test_sat_has_the_multi_head_pages_rows_and_cat_its_two_ways(b):
    mh = multi_head.heads()
    close(b.steps.weights[0, :, 2], mh.weights[:, 2])  # sat sees everything: the unmasked rows
    close(b.steps.weights[:, 0, 1], np.full((2, 3), [0.5, 0.5, 0]))  # a query of zeros, two keys
    close(b.steps.scaled[0, 1, 1, :2], [0, np.sqrt(2)])
    close(b.steps.weights[0, 1, 1, :2], selfattn_ref.softmax(np.array([0, np.sqrt(2)])))
    np.testing.assert_array_equal(b.steps.weights[0, :, :2], b.steps.weights[1, :, :2])
    assert (b.steps.weights[:, :, 0, 0] == 1).all()
    close(b.steps.output[0, 1], [0.5, 0.5, b.steps.weights[0, 1, 1, 1], b.steps.weights[0, 1, 1, 1]])


def test_the_heads_split_as_on_the_multi_head_page(b):
    ex = examples.load(source.SLUG)
    Q = ex.E @ ex.W_Q
    close(b.steps.Q_heads[0, 0], Q[:, :2])  # head 1: columns 1 and 2
    close(b.steps.Q_heads[0, 1], Q[:, 2:])  # head 2: columns 3 and 4
    assert b.steps.scaled.shape[:2] == (2, 2)  # B × h = 4 tables


def test_view_needs_contiguous_after_transpose():
    y = torch.zeros(2, 2, 3, 2).transpose(1, 2)
    assert not y.is_contiguous()
    with pytest.raises(RuntimeError, match="view"):
        y.view(2, 3, 4)
    assert y.contiguous().view(2, 3, 4).shape == (2, 3, 4) == y.reshape(2, 3, 4).shape


def test_the_conventions_table(b):
    """Each row of "Which way round a mask reads": True = may attend for scaled_dot_product_attention,
    True = leave out for both of MultiheadAttention's masks (attn_mask also (B·h, T, T)), a float mask
    added to the scores by both, and is_causal=True the causal mask."""
    st = b.steps
    q, k, v = (torch.from_numpy(a) for a in (st.Q_heads, st.K_heads, st.V_heads))
    mask = torch.from_numpy(st.mask)
    M = torch.zeros(mask.shape, dtype=torch.float64).masked_fill(~mask, -torch.inf)  # the page on masking's M
    close(F.scaled_dot_product_attention(q, k, v, attn_mask=M), st.heads)
    causal_only = batched.causal_self_attention(st.X, b.W, b.W, b.W, b.W_O, 2)
    close(F.scaled_dot_product_attention(q, k, v, is_causal=True), causal_only.heads)
    mha = torch.nn.MultiheadAttention(4, 2, bias=False, batch_first=True, dtype=torch.float64)
    W = torch.from_numpy(b.W)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W.T, W.T, W.T]))
        mha.out_proj.weight.copy_(torch.eye(4, dtype=torch.float64))
    X = torch.from_numpy(st.X)
    per_head = ~mask.expand(2, 2, 3, 3).reshape(4, 3, 3)  # (B·h, T, T), True = leave out
    close(mha(X, X, X, attn_mask=per_head)[0], st.output)
    close(mha(X, X, X, attn_mask=M.expand(2, 2, 3, 3).reshape(4, 3, 3))[0], st.output)
    # the site's mask as MultiheadAttention's attn_mask, not turned over, leaves out the allowed keys
    with torch.no_grad():
        wrong = mha(X, X, X, attn_mask=~per_head)[0]
    assert not np.allclose(np.nan_to_num(wrong.numpy()), st.output)
