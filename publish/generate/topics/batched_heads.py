"""docs/batched-heads.md: what the page may quote of batched multi-head causal self-attention on the
padded batch "The cat sat" and "The cat" + [PAD], and its tables.

The computation is :mod:`selfattn_ref.topics.batched_heads` (the batch through
:func:`selfattn_ref.batched.causal_self_attention`, and through its PyTorch twin for the lines
PyTorch writes); this module only formats and registers. The table of lines shows each line the
function ran, the shape its comment names and the shape measured as it ran.
"""

from __future__ import annotations

import inspect
import re

import numpy as np

from selfattn_ref import batched, examples
from selfattn_ref.attention import softmax_terms
from selfattn_ref.kv_cache import GPT2_SMALL
from selfattn_ref.masks import padding_mask
from selfattn_ref.topics.batched_heads import NUM_HEADS, SLUG, batch

from ...audit.quantities import Quantity, grid, source
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table, weights_table


def _torch_batched():
    """selfattn_ref.torch.batched, imported when a table of PyTorch's lines is made: a build, which only
    reads what the page may quote, and a run of ``make update`` or ``new-example`` stopped by a bad
    spec, import no PyTorch (some 1.5 s)."""
    from selfattn_ref.torch import batched as tbatched  # noqa: PLC0415

    return tbatched


def library_function(library: str):
    """The function whose lines run, for ``library`` ("numpy" or "torch")."""
    return batched.causal_self_attention if library == "numpy" else _torch_batched()._steps


def _label(sentence) -> str:
    return " ".join(sentence)


def _cols(d: int) -> list[str]:
    return [f"c{k + 1}" for k in range(d)]


def named_shape(function, line: str) -> str:
    """The shape that the comment after ``line`` names in the function's source: ``(B, h, T, d_head)``."""
    for text in inspect.getsource(function).splitlines():
        code, _, comment = text.partition("  #")
        found = re.match(r"\s*(\([^)]*\))", comment)
        if code.strip() == line and found:
            return found.group(1)
    raise ValueError(f"no shape named for {line!r} in {function.__qualname__}")


def lines(library: str) -> list[tuple[str, str, tuple[int, ...]]]:
    """(a line of the code, the shape its comment names, the shape measured) for ``library``."""
    b = batch()
    if library == "numpy":
        measured = b.steps.lines
    else:
        tbatched = _torch_batched()
        measured = tbatched.causal_self_attention(b.steps.X, b.W, b.W, b.W, b.W_O, NUM_HEADS, list(b.lengths)).lines
    return [(code, named_shape(library_function(library), code), shape) for code, shape in measured]


# --- what the page may quote ---------------------------------------------------------------


@source("batched_heads")
def _quantities():
    b = batch()
    st = b.steps
    B, T, C = st.X.shape
    d_head = C // NUM_HEADS
    q = [
        Quantity("batched_heads B", B),
        Quantity("batched_heads T", T),
        Quantity("batched_heads C", C),
        Quantity("batched_heads h", NUM_HEADS),
        Quantity("batched_heads d_head", d_head),
        Quantity("batched_heads √d_head", float(np.sqrt(d_head))),
        Quantity("batched_heads largest difference from each sentence alone", b.largest_difference),
        # GPT-2's context, the size of the causal buffer of the page's PyTorch layer (its test holds the two equal)
        Quantity("batched_heads GPT-2 context", GPT2_SMALL.n_ctx),
    ]
    for s, sentence in enumerate(b.sentences):
        tok, name = list(sentence), f"batched_heads '{_label(sentence)}'"
        for h in range(NUM_HEADS):
            head = f"{name} head {h + 1}"
            q += grid(f"{head} scaled scores", st.scaled[s, h], tok, tok)
            e, totals = softmax_terms(st.scaled[s, h], st.mask[s, 0])
            q += grid(f"{head} e^score", e, tok, tok)
            q += [Quantity(f"{head} row total of e^score[{t}]", float(x)) for t, x in zip(tok, totals, strict=True)]
            q += grid(f"{head} weights", st.weights[s, h], tok, tok, True)
            q += grid(f"{head} weights, causal mask alone", b.causal_only.weights[s, h], tok, tok, True)
        q += grid(f"{name} output", st.output[s], tok, _cols(C))
    return q


# --- tables --------------------------------------------------------------------------------


def _lines_table(library: str) -> str:
    rows = ["| line of the code | shape, named | shape here |", "|---|---|---|"]
    for code, named, shape in lines(library):
        rows.append(f"| `{code}` | `{named}` | `{shape}` |")
    return "\n".join(rows) + "\n"


@generated("batched_heads/lines_numpy.md")
def _lines_numpy():
    return _lines_table("numpy")


@generated("batched_heads/lines_torch.md")
def _lines_torch():
    return _lines_table("torch")


@generated("batched_heads/X.md")
def _x_table():
    """The batch X (B, T, C) as one row per sentence and token."""
    b = batch()
    rows = [f"{s + 1}: {t}" for s, sentence in enumerate(b.sentences) for t in sentence]
    X = b.steps.X.reshape(-1, b.steps.X.shape[-1])
    return matrix_table(X, rows, [f"x{k + 1}" for k in range(X.shape[1])], 0, "sentence: token")


for _s in range(2):

    @generated(f"batched_heads/mask_{_s + 1}.md")
    def _mask(s=_s):
        b = batch()
        tok = b.sentences[s]
        return matrix_table(b.steps.mask[s, 0].astype(float), tok, tok, 0, "query ↓ key →")

    for _h in range(NUM_HEADS):

        @generated(f"batched_heads/weights_{_s + 1}_{_h + 1}.md")
        def _weights(s=_s, h=_h):
            b = batch()
            tok = b.sentences[s]
            title = f"attention weights of “{_label(tok)}”, head {h + 1}, causal and padding masks"
            return weights_table(b.steps.weights[s, h], tok, tok, examples.load(SLUG).decimals, title)


@generated("batched_heads/pad_row.md")
def _pad_row():
    """The pad's row of weights in each head, with the causal mask alone and with both masks."""
    b = batch()
    s = 1
    tok = b.sentences[s]
    M, rows = [], []
    for h in range(NUM_HEADS):
        M += [b.causal_only.weights[s, h, -1], b.steps.weights[s, h, -1]]
        rows += [f"head {h + 1}, causal mask alone", f"head {h + 1}, causal and padding masks"]
    return matrix_table(np.array(M), rows, tok, examples.load(SLUG).decimals, f"{tok[-1]} ↓ key →")


@generated("batched_heads/output.md")
def _output():
    b = batch()
    st = b.steps
    rows = [f"{s + 1}: {t}" for s, sentence in enumerate(b.sentences) for t in sentence]
    out = st.output.reshape(-1, st.output.shape[-1])
    return matrix_table(out, rows, _cols(out.shape[1]), examples.load(SLUG).decimals, "sentence: token")


# --- the exercises' numbers (docs/exercises/batched-heads.toml) ------------------------------


@topic_values("batched_heads")
def _exercise_values() -> dict:
    b = batch()
    st = b.steps
    B, T, C = st.X.shape
    real = padding_mask(list(b.lengths), T)[:, 0]  # (B, T): True where a token is real
    pad_row = {k: st.weights[1, 0, -1, j] for j, k in enumerate(("The", "cat", "pad"))}
    alone_row = {k: b.causal_only.weights[1, 0, -1, j] for j, k in enumerate(("The", "cat", "pad"))}
    return {
        "B": B,
        "T": T,
        "C": C,
        "h": NUM_HEADS,
        "d_head": st.Q_heads.shape[-1],
        "scores": st.scaled.size,  # the entries of att, (B, h, T, T)
        "scores_one_head": st.scaled[:, 0].size,  # a known mistake: the heads forgotten
        "scores_one_sentence": st.scaled[0].size,  # a known mistake: the batch forgotten
        "key_padding_true": int((~real).sum()),  # MultiheadAttention's key_padding_mask is ~real
        "key_padding_true_wrong": int(real.sum()),  # a known mistake: the site's mask as it is
        "pad_row": pad_row,
        "pad_row_causal_alone": alone_row,
    }
