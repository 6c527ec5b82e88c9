"""docs/cross-attention.md: what the page may quote of the three attention layers of an
encoder-decoder on the padded batches "The cat sat" / "The cat" + [PAD] (the source) and "Le chat
est assis" / "Le chat" + [PAD] [PAD] (the target), and of the RNN decoder's attention beside
cross-attention; and its tables.

The computations are :mod:`selfattn_ref.topics.cross_attention`; this module only formats and
registers.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref.attention import softmax_terms
from selfattn_ref.topics.cross_attention import layers, rnn_side_by_side

from ...audit.quantities import Quantity, grid, source
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table, weights_table

DECIMALS = 4  # as the examples "The cat sat" show their numbers


def _label(sentence) -> str:
    return " ".join(sentence)


def _dims(d: int) -> list[str]:
    return [f"x{k + 1}" for k in range(d)]


def _states(tokens) -> list[str]:
    """The RNN page's names of the encoder's states: h1 (The), h2 (cat), ..."""
    return [f"h{j + 1} ({t})" for j, t in enumerate(tokens)]


# --- what the page may quote ---------------------------------------------------------------


@source("cross_attention")
def _quantities():
    L = layers()
    n_k, n = L.X_source.shape[1], L.X_target.shape[1]
    d = L.X_source.shape[2]
    q = [
        Quantity("cross_attention n", n),
        Quantity("cross_attention n_k", n_k),
        Quantity("cross_attention d_k", d),
        Quantity("cross_attention √d_k", float(np.sqrt(d))),
    ]
    for b, (src, tgt) in enumerate(zip(L.source, L.target, strict=True)):
        s, t, dims = list(src), list(tgt), _dims(d)
        name = f"cross_attention '{_label(tgt)}'"
        e, totals = softmax_terms(L.direct_scaled[b], L.cross_mask[b])
        q += grid(f"{name} scaled scores, word by word", L.direct_scaled[b], t, s)
        q += grid(f"{name} e^score, word by word", e, t, s)
        q += [
            Quantity(f"{name} row total of e^score, word by word[{w}]", float(x))
            for w, x in zip(t, totals, strict=True)
        ]
        q += grid(f"{name} weights, word by word", L.direct_weights[b, 0], t, s, True)
        q += grid(f"{name} weights", L.weights[b, 0], t, s, True)
        q += grid(f"{name} output", L.output[b], t, dims)
        q += grid(f"{name} decoder's weights", L.decoder_weights[b, 0], t, t, True)
        q += grid(f"{name} decoder's output", L.decoder[b], t, dims)
        q += grid(f"cross_attention '{_label(src)}' encoder's weights", L.encoder_weights[b, 0], s, s, True)
        q += grid(f"cross_attention '{_label(src)}' encoder's output", L.memory[b], s, dims)
    R = rnn_side_by_side()
    h = _states(R.tokens)
    q += [Quantity(f"cross_attention rnn s · h[{k}]", float(x)) for k, x in zip(h, R.scores, strict=True)]
    q += [Quantity(f"cross_attention rnn s · h / √d_k[{k}]", float(x)) for k, x in zip(h, R.scaled, strict=True)]
    q += [
        Quantity(f"cross_attention rnn dot weight[{k}]", float(x), True) for k, x in zip(h, R.rnn_weights, strict=True)
    ]
    q += [
        Quantity(f"cross_attention rnn cross-attention weight[{k}]", float(x), True)
        for k, x in zip(h, R.cross_weights, strict=True)
    ]
    return q


# --- tables --------------------------------------------------------------------------------


def _batch_table(sentences, X) -> str:
    rows = [f"{b + 1}: {t}" for b, s in enumerate(sentences) for t in s]
    M = np.asarray(X).reshape(-1, X.shape[-1])
    return matrix_table(M, rows, _dims(M.shape[1]), 0, "sentence: token")


@generated("cross_attention/source.md")
def _source():
    L = layers()
    return _batch_table(L.source, L.X_source)


@generated("cross_attention/target.md")
def _target():
    L = layers()
    return _batch_table(L.target, L.X_target)


@generated("cross_attention/encoder_mask.md")
def _encoder_mask():
    L = layers()
    s = L.source[1]
    return matrix_table(L.encoder_mask[1].astype(float), s, s, 0, "source ↓ source →")


@generated("cross_attention/decoder_mask.md")
def _decoder_mask():
    L = layers()
    t = L.target[1]
    return matrix_table(L.decoder_mask[1].astype(float), t, t, 0, "target ↓ target →")


@generated("cross_attention/cross_mask.md")
def _cross_mask():
    L = layers()
    return matrix_table(L.cross_mask[1].astype(float), L.target[1], L.source[1], 0, "target ↓ source →")


for _b in range(2):

    @generated(f"cross_attention/word_by_word_{_b + 1}.md")
    def _direct(b=_b):
        L = layers()
        t, s = L.target[b], L.source[b]
        title = f"cross-attention weights of “{_label(t)}” over “{_label(s)}”, word by word"
        return weights_table(L.direct_weights[b, 0], t, s, DECIMALS, title, axes=("target", "source"))


@generated("cross_attention/memory.md")
def _memory():
    L = layers()
    return matrix_table(L.memory[0], L.source[0], _dims(L.memory.shape[2]), DECIMALS, "encoder's output")


@generated("cross_attention/decoder.md")
def _decoder():
    L = layers()
    return matrix_table(L.decoder[0], L.target[0], _dims(L.decoder.shape[2]), DECIMALS, "decoder's output")


@generated("cross_attention/weights.md")
def _weights():
    L = layers()
    t, s = L.target[0], L.source[0]
    title = f"cross-attention weights of the decoder's “{_label(t)}” over the encoder's “{_label(s)}”"
    return weights_table(L.weights[0, 0], t, s, DECIMALS, title, axes=("target", "source"))


@generated("cross_attention/rnn_side_by_side.md")
def _rnn():
    R = rnn_side_by_side()
    M = np.column_stack([R.scores, R.rnn_weights, R.scaled, R.cross_weights])
    cols = ["s · h_j", "RNN's weight", "s · h_j / √d_k", "cross-attention's weight"]
    return matrix_table(M, _states(R.tokens), cols, DECIMALS, "encoder state")


# --- the exercises' numbers (docs/exercises/cross-attention.toml) --------------------------


@topic_values("cross_attention")
def _exercise_values() -> dict:
    L = layers()
    R = rnn_side_by_side()
    keys = ("The", "cat", "sat")

    def rows(M, targets, sources) -> dict:
        return {t: {s: float(x) for s, x in zip(sources, row, strict=True)} for t, row in zip(targets, M, strict=True)}

    return {
        "n": L.X_target.shape[1],
        "n_k": L.X_source.shape[1],
        "scores": L.cross_mask[0].size,  # one score per target token and source token
        "scores_square_target": L.decoder_mask[0].size,  # a known mistake: n × n
        "scores_square_source": L.encoder_mask[0].size,  # a known mistake: n_k × n_k
        "cross_true": int(L.cross_mask[1].sum()),  # the short pair: real source keys, every target row
        "cross_all": L.cross_mask[1].size,  # a known mistake: the source's pad not hidden
        # known mistakes: a causal mask added to cross-attention (target row i reads source keys up to i);
        # the target's pad rows hidden too (they are queries, and are not)
        "cross_causal": int((L.cross_mask[1] & np.tril(np.ones(L.cross_mask[1].shape, dtype=bool))).sum()),
        "cross_real_rows": int(L.cross_mask[1][[w != "[PAD]" for w in L.target[1]]].sum()),
        "word_by_word": rows(L.direct_weights[0, 0], ("Le", "chat", "est", "assis"), keys),
        "scaled": rows(L.direct_scaled[0], ("Le", "chat", "est", "assis"), keys),
        "rnn": {
            "dot": dict(zip(("h1", "h2", "h3"), map(float, R.scores), strict=True)),
            "weights": dict(zip(("h1", "h2", "h3"), map(float, R.rnn_weights), strict=True)),
            "cross_weights": dict(zip(("h1", "h2", "h3"), map(float, R.cross_weights), strict=True)),
        },
    }
