"""What a reader may type into the exercises, shared by the docs-layer tests (which grade it with
publish.generate.exercises.grade) and the browser test (which holds the page's script equal to that).

The answers are computed here a second way, without publish.generate.exercises: each worked example run
again with selfattn_ref's attention function (:func:`second_way`), over every other value the page
shows that a reader could compute instead (:func:`other_values`).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

import numpy as np

from publish import DOCS, GENERATED
from publish.generate import exercises as exr
from publish.source.pages import split_front_matter
from selfattn_ref import examples, scaled_dot_product_attention
from selfattn_ref.masks import causal_mask
from selfattn_ref.positional import sinusoidal_positional_encoding
from selfattn_ref.topics.rnn_comparison import compare


def specs() -> list[tuple[str, dict]]:
    """(page, the exercise's table as written) for every exercise."""
    out = []
    for path in sorted(exr.SPEC_DIR.glob("*.toml")):
        for spec in tomllib.loads(path.read_text(encoding="utf-8"))["exercise"]:
            out.append((path.stem, spec))
    return out


def _learning_second_way(name: str) -> float:
    """docs/learning.md's numbers, again: the softmax of "The cat sat"'s scaled scores (example
    learned), the finite difference from two losses, and the step with PyTorch's autograd."""
    import torch

    from selfattn_ref.topics.learning import DELTA, ENTRY, LR

    ex = examples.load("learned")

    def loss(W_Q):
        _, weights = scaled_dot_product_attention(ex.E @ W_Q, ex.E @ ex.W_K, ex.E)
        return -np.log(weights[2, 1])  # sat's weight on cat

    up, down = ex.W_Q.copy(), ex.W_Q.copy()
    up[ENTRY] += DELTA
    down[ENTRY] -= DELTA
    W = torch.tensor(ex.W_Q, requires_grad=True)
    X, W_K = torch.tensor(ex.E), torch.tensor(ex.W_K)
    (-torch.log_softmax((X @ W) @ (X @ W_K).T / 2, dim=-1)[2, 1]).backward()
    values = {
        "loss": loss(ex.W_Q),
        "finite_difference": (loss(up) - loss(down)) / (2 * DELTA),
        "entry_after": ex.W_Q[ENTRY] - LR * W.grad[ENTRY].item(),
        "thirds": np.log(3),
    }
    return values[name]


def _reversal_second_way(name: str) -> float:
    """docs/attention-that-learns.md's numbers, again: from the training module's constants and the
    run's record as the file holds it."""
    from selfattn_ref.training import reversal

    record = json.loads((GENERATED / "attention_that_learns" / "run.json").read_text(encoding="utf-8"))
    (last,) = [s for s in record["run"]["snapshots"] if s["step"] == reversal.STEPS]
    values = {
        "partner_of_2": reversal.partner(2),
        "equal_loss": np.log(reversal.LENGTH),
        "step200.first_loss": -np.log(last["example"][0][reversal.LENGTH - 1]),
        "guess": 1 / reversal.LENGTH,
    }
    return values[name]


def _flash_second_way(name: str) -> float:
    """docs/online-softmax.md's numbers, again: "bank of river"'s scores and the plain softmax (no
    tiles), the rescale and totals from them by the page's rule, and the memory from the sizes."""
    from selfattn_ref.kv_cache import GPT2_SMALL
    from selfattn_ref.topics.flash_attention import MEMORY_TILE

    E = examples.load("bank_of_river").E
    S = E @ E.T  # (3, 3): row river is [1, 1, 2], row of [0, 2, 1]
    _, weights = scaled_dot_product_attention(E, E, E, scale=1.0)
    n, tile = GPT2_SMALL.n_ctx, MEMORY_TILE
    values = {
        "river_rescale": np.exp(S[2, :2].max() - S[2].max()),
        "river_total": np.exp(S[2] - S[2].max()).sum(),
        "of_weight_river": weights[1, 2],
        "largest_held": 2 * n * tile + 3 * n,
    }
    return values[name]


def _next_word_second_way(name: str) -> float:
    """docs/next-word.md's numbers, again: from the PyTorch twin of the language model
    (torch.nn modules), not the NumPy functions the page's tables use."""
    import torch

    from selfattn_ref import corpus
    from selfattn_ref.torch import language_model as tlm

    vocab = corpus.VOCABULARY
    s = tlm.forward("she took the money to the bank")
    logits = s.logits[2]  # after "she took the", the third word
    diff = float(logits[vocab.index("cold")] - logits[vocab.index("wet")])
    p = torch.softmax(logits, dim=-1)
    totals = torch.cumsum(p, dim=0)
    values = {
        "ratio_T05": np.exp(diff / 0.5),
        "top_k_cold": float(tlm.next_word_probabilities(logits, 1.0, 3)[vocab.index("cold")]),
        "comes.loss": -float(torch.log(p[vocab.index("money")])),
        "total.money": float(totals[vocab.index("money")]),
    }
    return values[name]


def _cache_second_way(name: str) -> float:
    """docs/kv-cache.md's numbers, again: the multiply-adds from the shapes of the products (not the
    package's tally), the caches from the published sizes, the window's scores from its mask."""
    from selfattn_ref.kv_cache import GPT2_SMALL, MISTRAL_7B
    from selfattn_ref.masks import sliding_window_mask

    d = examples.load("the_cat_sat_two_heads").E.shape[1]  # d_model = 4, two heads of 2
    products = [(1, d, d)] * 4 + [(2, 1, d // 2, 3)] * 2  # q, k, v, W_O of one row; scores and mix over 3 keys
    g = GPT2_SMALL
    m = MISTRAL_7B
    mib = 2 * m.num_blocks * m.n_ctx * (m.d_model // m.num_heads) * 2 / 2**20  # per key-value head, float16
    values = {
        "step_3_cache": sum(int(np.prod(p)) for p in products),
        "gpt2_per_token": 2 * g.num_blocks * g.num_heads * (g.d_model // g.num_heads),
        "mistral_mib_multi_query": mib,
        "entries": int(sliding_window_mask(8, 2).sum()),
    }
    return values[name]


def _mha(queries, keys, num_heads: int, W=None, **masks):
    """torch.nn.MultiheadAttention's weights (batch, num_heads, rows, keys) for queries over keys,
    with W_Q = W_K = W_V = W (the identity if None) and W_O the identity; ``masks`` as it takes them."""
    import torch

    d = queries.shape[-1]
    W = torch.eye(d, dtype=torch.float64) if W is None else torch.as_tensor(W)
    mha = torch.nn.MultiheadAttention(d, num_heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([W.T] * 3))
        mha.out_proj.weight.copy_(torch.eye(d, dtype=torch.float64))
        q, k = torch.as_tensor(queries), torch.as_tensor(keys)
        return mha(q, k, k, average_attn_weights=False, **masks)[1], mha


def _batched_second_way(name: str) -> float:
    """docs/batched-heads.md's numbers, again: "The cat sat" and "The cat" + [PAD] through
    torch.nn.MultiheadAttention with the two heads' weights, its masks made here."""
    import torch

    ex = examples.load("the_cat_sat_two_heads")
    X = torch.from_numpy(np.stack([ex.E, np.vstack([ex.E[:2], np.zeros(4)])]))  # (2, 3, 4)
    lengths = torch.tensor([3, 2])
    real = torch.arange(3)[None, :] < lengths[:, None]  # (B, T)
    later = torch.ones(3, 3, dtype=torch.bool).triu(1)  # True = left out, as MultiheadAttention reads it
    both, mha = _mha(X, X, 2, ex.W_Q, key_padding_mask=~real, attn_mask=later)
    causal_alone, _ = _mha(X, X, 2, ex.W_Q, attn_mask=later)
    values = {
        "scores": both.numel(),
        "pad_row_causal_alone.The": causal_alone[1, 0, 2, 0].item(),
        "key_padding_true": int((~real).sum()),
    }
    return values[name]


def _language_model_second_way(name: str) -> float:
    """docs/trained-model.md's numbers, again: the PyTorch twin with a head removed, and head 2.1's
    scaled score from the twin's own torch.nn.MultiheadAttention weights."""
    import torch

    from selfattn_ref import corpus
    from selfattn_ref import language_model as lm
    from selfattn_ref.torch import language_model as tlm

    if name == "without_2_1":
        held = [s for s in corpus.held_out() if s.kind == "bank"]
        return tlm.evaluate(held, lm.without_heads(lm.load(), [(2, 1)]))["after bank"].accuracy
    if name == "four":
        return float(np.log(4))
    if name == "scaled":
        words = "the street near the animal was cold so it froze .".split()
        m = tlm.model()
        with torch.no_grad():
            H = tlm.forward(words).blocks[0].output  # block 2's input
            N = m.blocks[1].norm_1(H)
            W = m.blocks[1].attention.in_proj_weight  # (3 d_model, d_model): W_Q, W_K, W_V, transposed
            q = N[words.index("it")] @ W[:16].T[:, :8]
            k = N[words.index("street")] @ W[16:32].T[:, :8]
        return float(q @ k / np.sqrt(8))
    if name == "weight":  # head 2.1's weight of "it" on "street", from nn.MultiheadAttention's own weights
        words = "the street near the animal was cold so it froze .".split()
        with torch.no_grad():
            A = tlm.forward(words).blocks[1].weights[0]  # (n, n)
        return float(A[words.index("it"), words.index("street")])
    raise KeyError(name)


def _cross_second_way(name: str) -> float:
    """docs/cross-attention.md's numbers, again: torch.nn.MultiheadAttention with a query other than
    its key (identity weights, one head) on the vectors the page gives, and the RNN page's state."""
    import torch

    from selfattn_ref.rnn import rnn_encoder

    E = examples.load("the_cat_sat").E  # The, cat, sat
    pad = np.zeros(4)
    source = np.stack([E, np.vstack([E[:2], pad])])  # (2, 3, 4)
    target = np.stack([np.vstack([E[0], E[1], [0, 0, 1, 1], E[2]]), np.vstack([E[:2], pad, pad])])  # (2, 4, 4)
    real = torch.tensor([[True, True, True], [True, True, False]])
    weights, _ = _mha(target, source, 1, key_padding_mask=~real)  # (2, 1, 4, 3)
    rnn = examples.load_rnn()
    H = rnn_encoder(rnn.E, rnn.W_xh, rnn.W_hh)  # (n, d)
    state, _ = _mha(rnn.s[None, None], H[None], 1)  # (1, 1, 1, n)
    values = {
        "scores": weights[0, 0].numel(),
        "word_by_word.assis.sat": weights[0, 0, 3, 2].item(),
        "cross_true": int((weights[1, 0] > 0).sum()),
        "rnn.cross_weights.h1": state[0, 0, 0, 0].item(),
    }
    return values[name]


def _rotary_second_way(name: str) -> float:
    """docs/rotary.md's numbers, again: the RoFormer paper's complex form in PyTorch (each pair x1 + i x2
    times e^(i pos θ_p)) on "dog bites man" and "man bites dog", apart from selfattn_ref.rotary."""
    import torch

    def turn(E, positions):
        E = torch.as_tensor(E, dtype=torch.float64)
        theta = torch.as_tensor(positions, dtype=torch.float64)[:, None] * 10000.0 ** (
            -torch.arange(0, 4, 2, dtype=torch.float64) / 4
        )
        z = torch.complex(E[:, 0::2], E[:, 1::2]) * torch.exp(1j * theta)
        return torch.stack([z.real, z.imag], dim=-1).reshape(E.shape)

    first, second = (turn(examples.load(s).E, [0, 1, 2]) for s in ("dog_bites_man", "man_bites_dog"))
    dog, man = (torch.as_tensor(v, dtype=torch.float64)[None] for v in examples.load("dog_bites_man").E[[0, 2]])
    values = {
        "man_turned.x1": first[2, 0].item(),
        "dog_man_score": (first[0] @ first[2]).item(),
        "self_score_second": (second[2] @ second[2]).item(),
        "distance_1": (turn(dog, [40])[0] @ turn(man, [41])[0]).item(),
    }
    return values[name]


def second_way(spec: dict):
    """The value of an exercise's answer expression computed without publish.generate.exercises: the example
    run again with selfattn_ref's scaled_dot_product_attention, the cost model, the transformer
    block from torch's own layers, or a topic's numbers computed another way."""
    others = {
        "learning": _learning_second_way,
        "attention_that_learns": _reversal_second_way,
        "next_word": _next_word_second_way,
        "language_model": _language_model_second_way,
        "kv_cache": _cache_second_way,
        "grouped_query": _cache_second_way,
        "sliding_window": _cache_second_way,
        "flash_attention": _flash_second_way,
    }
    if spec.get("topic") in others:
        second = others[spec["topic"]]
        return np.array([float(second(spec["answer"]))])
    if "compare" in spec:
        value = compare(**spec["compare"])
        for part in spec["answer"].split("."):
            value = value[part]
        return np.array([float(value)])
    if spec.get("topic") in ("batched_heads", "cross_attention", "rotary"):
        second = {
            "batched_heads": _batched_second_way,
            "cross_attention": _cross_second_way,
            "rotary": _rotary_second_way,
        }[spec["topic"]]
        return np.array([float(second(spec["answer"]))])
    if "topic" in spec:
        return _block_second_way(spec)
    ex = examples.load(spec["example"])
    E = ex.E.copy()
    if "embedding" in spec:
        E[ex.tokens.index(spec["embedding"]["token"])] = spec["embedding"]["vector"]
    PE = sinusoidal_positional_encoding(*E.shape)
    if spec.get("positions"):
        E = E + PE
    if ex.projections == "none":
        Q = K = V = E
    else:
        W_Q, W_K, W_V = (np.eye(E.shape[1]),) * 3 if ex.projections == "identity" else (ex.W_Q, ex.W_K, ex.W_V)
        Q, K, V = E @ W_Q, E @ W_K, E @ W_V
    if "heads" in spec:
        w = Q.shape[1] // spec["heads"]
        cols = slice((spec["head"] - 1) * w, spec["head"] * w)
        Q, K, V = Q[:, cols], K[:, cols], V[:, cols]
    scale_on = spec.get("scale", True) if "heads" in spec else spec.get("scale", ex.scale)
    scale = 1 / np.sqrt(Q.shape[1]) if scale_on else 1.0
    causal = spec.get("causal", ex.causal)
    mask = causal_mask(len(ex.tokens)) if causal else None
    output, weights = scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    S = Q @ K.T * scale
    e = np.where(mask if mask is not None else True, np.exp(S), 0.0)
    names = {"E": E, "Q": Q, "K": K, "V": V, "weights": weights, "output": output, "exp": e, "scaled": S, "PE": PE}
    names["scores"] = Q @ K.T
    # plain division, a known slip: each score over its row's total, the keys the mask hides left out
    kept = np.where(mask if mask is not None else True, Q @ K.T, 0.0)
    totals = kept.sum(axis=1, keepdims=True)
    names["plain"] = np.divide(kept, totals, out=np.full_like(kept, np.nan), where=totals != 0)
    m = re.fullmatch(r"(\w+)\[([^,\]]+)(?:, ([^\]]+))?\]", spec["answer"])
    name, row, col = m.groups()
    if row not in ex.tokens and not row.isdigit():
        raise KeyError(row)
    i = ex.tokens.index(row) if row in ex.tokens else int(row) - 1
    if name == "total":
        return np.array([e[i].sum()])
    M = names[name]
    if col is None:
        return M[i]
    if M.shape[1] == len(ex.tokens) and name != "PE" and col not in ex.tokens:
        raise KeyError(col)
    j = ex.tokens.index(col) if col in ex.tokens and M.shape[1] == len(ex.tokens) else int(col) - 1
    return np.array([M[i, j]])


def _block_second_way(spec: dict):
    """A transformer-block exercise's answer from torch.nn.TransformerEncoderLayer's own parts (its
    LayerNorm and Linear modules), with the block's weights, on the first page's attention."""
    import torch

    from selfattn_ref.topics.transformer_block import block

    assert spec["topic"] == "transformer_block"
    B = block()
    W = B.weights
    t = torch.from_numpy
    X = t(B.X)
    Y = t(examples.run(examples.load("bank_of_river")).output)
    norm = torch.nn.LayerNorm(X.shape[1], eps=W.eps, dtype=torch.float64)  # weight 1, bias 0
    with torch.no_grad():
        s1 = X + Y
        Z = norm(s1)
        hidden = Z @ t(W.W_1) + t(W.b_1)
        ffn = torch.relu(hidden) @ t(W.W_2) + t(W.b_2)
        s2 = Z + ffn
    names = {
        "var_1": s1.var(dim=1, correction=0)[:, None], "Z": Z, "relu": torch.relu(hidden),
        "mean_2": s2.mean(dim=1)[:, None],
    }  # fmt: skip
    m = re.fullmatch(r"(\w+)\[(\w+), (\d+)\]", spec["answer"])
    name, row, col = m.groups()
    return np.array([float(names[name][B.tokens.index(row), int(col) - 1])])


def _page_examples(page: str) -> list[str]:
    text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    meta = split_front_matter(text)[0]
    return [s for s in (meta.get("audit") or {}).get("sources", []) if s in examples.available()]


@dataclass(frozen=True)
class Other:
    what: str  # what the reader computed instead, in words
    names: str | None  # a word the feedback must name (the other example's title), if any
    values: tuple[float, ...]


def other_values(page: str, spec: dict) -> list[Other]:
    """The exercise's expression over every other value its page shows that a reader could compute
    instead: another worked example the page quotes, and its own example without the positions,
    with the division by √d_k the other way, without the causal mask, over one head of full width
    or over another head."""
    if "example" not in spec:
        return []
    ex = examples.load(spec["example"])
    variants = []
    if spec.get("positions"):
        variants.append(("without the positions", None, {**spec, "positions": False}))
    if "heads" in spec:
        variants.append(("one head of full width", None, {k: v for k, v in spec.items() if k not in ("heads", "head")}))
        variants += [(f"head {h}", None, {**spec, "head": h}) for h in range(1, spec["heads"] + 1) if h != spec["head"]]
        variants.append(("the head without the division by √d_head", None, {**spec, "scale": False}))
    elif "scale" in spec or ex.scale:
        variants.append(
            ("the division by √d_k the other way", None, {**spec, "scale": not spec.get("scale", ex.scale)})
        )
    if spec.get("causal", ex.causal):
        variants.append(("without the causal mask", None, {**spec, "causal": False}))
    if spec["answer"].startswith("weights["):
        variants.append(("plain division", None, {**spec, "answer": "plain" + spec["answer"][len("weights") :]}))
    for other in _page_examples(page):
        if other != spec["example"]:
            shown = examples.load(other)
            changed = {**spec, "example": other}
            if shown.heads == 1:  # as the page shows that example: one head of full width
                changed = {k: v for k, v in changed.items() if k not in ("heads", "head")}
            variants.append((f"the example {other}", shown.title, changed))
    out = []
    for what, names, changed in variants:
        try:
            values = tuple(float(x) for x in second_way(changed))
        except (KeyError, ValueError, IndexError):
            continue
        if all(np.isfinite(values)):  # (plain division of a row whose scores add up to 0: no such answer)
            out.append(Other(what, names, values))
    return out


def typed(values, decimals: int, percent: bool) -> str:
    """The numbers as a reader types them, at ``decimals`` places."""
    return ", ".join(exr.shown(v, decimals, percent) for v in values)


def off_by(shown: str, units: int) -> str:
    """A shown number moved by ``units`` of its last place."""
    places = len(shown.split(".")[1]) if "." in shown else 0
    n = int(shown.replace(".", "")) + units
    s = str(abs(n)).rjust(places + 1, "0")
    s = s[:-places] + "." + s[-places:] if places else s
    return ("-" if n < 0 else "") + s


def cut_off(values, places: int, percent: bool) -> str:
    """The numbers as a reader types them who cuts each off after ``places`` decimals instead of
    rounding (66.52 -> "66"), from the float's own digits."""
    out = []
    for v in values:
        exact = Decimal(repr(float(v))) * (100 if percent else 1)
        text = f"{exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN):f}"
        out.append(text[1:] if text.startswith("-") and not text[1:].strip("0.") else text)
    return ", ".join(out)


def negated(s: str) -> str:
    return s[1:] if s.startswith("-") else "-" + s


def slips(shown: list[str], decimals: int) -> list[str]:
    """Slips of a reader who has the answer ``shown`` (as the page shows it, at ``decimals``):
    every sign turned, one at a time and all at once; a number that is 0 typed as one unit below 0;
    the decimal point written as a comma; the shown numbers rounded again to one decimal less."""
    out = [", ".join(negated(x) for x in shown)]
    out += [", ".join(negated(x) if k == i else x for k, x in enumerate(shown)) for i in range(len(shown))]
    out += [", ".join(off_by(x, -1) if k == i else x for k, x in enumerate(shown)) for i in range(len(shown))]
    out.append(", ".join(x.replace(".", ",") for x in shown))
    if decimals >= 1:
        again = [exr.to_fixed_digits(exr.parse_number(x), decimals - 1) for x in shown]
        out.append(", ".join(again))
    return out


HOSTILE = ["", "   ", "1e999", "NaN", "0x1A", "<b>1</b>", "٣", "1,5", "0.5\u00a0", "\u00a0(0.5)", "9" * 300, "−0.2"]


def cases() -> list[tuple[str, str, str]]:
    """(page, exercise id, text) for every exercise: the right answer in many forms and roundings,
    one and two off in the last place, each known mistake (also one off in the last place) and each
    other value the page shows (at the question's rounding and one decimal less), and hostile input."""
    out = []
    for page, spec in specs():
        ex = next(e for e in exr.load_all()[page] if e.id == spec["id"])
        d, pct = ex.decimals, ex.percent
        right = ex.answer.values
        texts = [typed(right, d, pct), typed(right, d + 2, pct), typed(right, 6, pct), typed(right, 0, pct)]
        texts += [typed(right, p, pct) for p in range(0, d)]  # fewer decimals, a whole number too
        texts += [cut_off(right, p, pct) for p in range(0, d + 1)]  # cut off instead of rounded
        shown = [exr.shown(v, d, pct) for v in right]
        texts += [", ".join([off_by(shown[0], u), *shown[1:]]) for u in (-2, -1, 1, 2)]
        texts.append(", ".join(off_by(s, 1) for s in shown))
        if pct:
            texts += [typed(right, d + 2, False), typed(right, d, pct) + "%"]
        for wrong, _ in ex.mistakes:
            texts += [typed(wrong.values, d, pct), typed(wrong.values, max(d - 1, 0), pct)]
            theirs = [exr.shown(v, d, pct) for v in wrong.values]  # the mistake made with rounded numbers
            texts += [", ".join(off_by(s, u) for s in theirs) for u in (-1, 1)]
        for other in other_values(page, spec):
            texts += [typed(other.values, d, pct), typed(other.values, max(d - 1, 0), pct)]
        texts += HOSTILE + [", ".join(["0.1"] * (len(right) + 1)), "[" + ", ".join(shown) + "]"]
        texts += slips(shown, d)
        if d == 0 and len(right) == 1 and abs(int(typed(right, 0, False).rstrip("%"))) >= 1000:
            grouped = f"{int(typed(right, 0, False)):,}"  # as the pages print it: 18,432
            texts += [grouped, grouped[:-1], grouped.replace(",", ", "), grouped + ",000"]
        out += [(page, spec["id"], t) for t in dict.fromkeys(texts)]
    return out
