"""docs/next-word.md: what the page may quote of one sentence through the small language model, and
its tables.

The computation is :mod:`selfattn_ref.topics.next_word` (the sentence, the choices of the next word
after its first words, the generation loop, byte-pair merges), made of the functions of
:mod:`selfattn_ref.language_model` with the trained weights; this module only formats and registers.
"""

from __future__ import annotations

import math
from urllib.parse import urlencode

import numpy as np

from selfattn_ref import bpe, corpus, examples
from selfattn_ref import language_model as lm
from selfattn_ref.topics import next_word as nw

from ...audit.quantities import Quantity, grid, source
from ...fmt import grouped, num
from ..exercises import topic_values
from ..registry import generated
from ..tables import matrix_table
from .transformer_block import compact

SOURCE = "next_word"
DECIMALS = 2  # the 16-column tables of rows: two decimals keep them within a laptop's column
SHOWN = 10  # the most probable words that the table of logits lists, one row each
LEAST = 0.001  # the sampling table lists the words with at least this probability


def dims(d: int) -> list[str]:
    """x1, x2, ...: the entries of a row of width d_model (Notation, "Counting")."""
    return [f"x{k + 1}" for k in range(d)]


def labels(words) -> list[str]:
    """The words as the tables' rows name them: a word that occurs twice gets its position,
    counted from 1 ("the (3)", "the (6)")."""
    return [f"{w} ({i + 1})" if list(words).count(w) > 1 else w for i, w in enumerate(words)]


HEADS = ("block 1, head 1", "block 1, head 2", "block 2, head 1", "block 2, head 2")


def _bank_rows() -> tuple[np.ndarray, list[str]]:
    """The last word's row as the model carries it: X, after each block, after the final norm."""
    s = nw.walk()
    M = np.array([s.X[-1], *(b.output[-1] for b in s.blocks), s.final[-1]])  # (num_blocks + 2, d_model)
    return M, ["X", *(f"after block {k + 1}" for k in range(len(s.blocks))), "final norm"]


def _ranked(p: np.ndarray) -> list[int]:
    """Word ids, most probable first (ties by id)."""
    return [int(i) for i in np.argsort(-p, kind="stable")]


def _loss(p: float) -> float:
    return -math.log(p)


@source(SOURCE)
def _quantities():
    s = nw.walk()
    W = lm.load()
    vocab = corpus.VOCABULARY
    tok = labels(s.words)
    x = dims(W.d_model)
    n = len(s.words)
    q = [
        Quantity("d_model", W.d_model),
        Quantity("d_head", W.d_model // W.num_heads),
        Quantity("√d_head", math.sqrt(W.d_model // W.num_heads)),
        Quantity("ε", lm.EPS),
    ]
    q += grid("token rows", s.embeddings, tok, x)
    q += grid("position rows", s.positions, tok, x)
    q += grid("X", s.X, tok, x)
    for b, block in enumerate(s.blocks, 1):
        for h in range(W.num_heads):
            q += grid(f"block {b} head {h + 1} weights", block.weights[h], tok, tok, proportion=True)
    M, rows = _bank_rows()
    q += grid("bank row", M, rows, x)
    last = s.blocks[-1].output[-1]
    q += [
        Quantity("mean of the last block's bank row", float(last.mean())),
        Quantity("variance of the last block's bank row", float(last.var())),
    ]
    logits, p = s.logits[-1], s.probabilities[-1]
    top = float(logits.max())
    e = np.exp(logits - top)
    q += [Quantity(f"logit[{w}]", float(v)) for w, v in zip(vocab, logits, strict=True)]
    q += [Quantity(f"logit − largest[{w}]", float(v - top)) for w, v in zip(vocab, logits, strict=True)]
    q += [Quantity(f"e^(logit − largest)[{w}]", float(v)) for w, v in zip(vocab, e, strict=True)]
    q += [Quantity(f"probability[{w}]", float(v), proportion=True) for w, v in zip(vocab, p, strict=True)]
    q.append(Quantity("total of e^(logit − largest)", float(e.sum())))
    rest = _ranked(p)[SHOWN:]
    q.append(Quantity("probability of the other words", float(p[rest].sum()), proportion=True))
    # Every row's prediction: the next word after words 1 to i.
    for i in range(n):
        row = s.probabilities[i]
        best = _ranked(row)[0]
        q.append(Quantity(f"after {tok[i]}: most probable", float(row[best]), proportion=True))
        if i + 1 < n:
            comes = s.ids[i + 1]
            q.append(Quantity(f"after {tok[i]}: the word that comes", float(row[comes]), proportion=True))
            q.append(Quantity(f"after {tok[i]}: loss", _loss(row[comes])))
    # Temperature and top-k after "she took the".
    c = nw.choices()
    for T, P in c.temperature.items():
        q += [
            Quantity(f"T = {T:g}: probability[{w}]", float(v), proportion=True) for w, v in zip(vocab, P, strict=True)
        ]
    q += [Quantity(f"top-{nw.TOP_K}: probability[{w}]", float(v), proportion=True)
          for w, v in zip(vocab, c.top_k, strict=True)]  # fmt: skip
    q += [Quantity(f"odds[{w}]", float(v), proportion=True) for w, v in zip(vocab, c.odds, strict=True)]
    never = c.odds == 0  # the words the corpus never writes after these words
    q += [Quantity(f"T = {T:g}: the words the corpus never writes", float(P[never].sum()), proportion=True)
          for T, P in c.temperature.items()]  # fmt: skip
    q += [Quantity(f"prefix logit[{w}]", float(v)) for w, v in zip(vocab, c.logits, strict=True)]
    kept = _ranked(c.temperature[1.0])[: nw.TOP_K]
    q.append(Quantity(f"top-{nw.TOP_K}: total kept", float(c.temperature[1.0][kept].sum()), proportion=True))
    q.append(Quantity("temperature", 1.0))
    q += [Quantity(f"T = {T:g}", T) for T in nw.TEMPERATURES]
    q.append(Quantity("the smallest temperature", lm.MIN_TEMPERATURE))  # of `next` and the playground
    q.append(Quantity("the largest temperature", examples.MAGNITUDE))  # theirs too: a number's largest size
    # Sampling: the seeded numbers and the running totals of the first draw.
    g = nw.generation()
    for k, step in enumerate(g.sampled, 1):
        q.append(Quantity(f"sampled u[{k}]", step.u))
        q.append(Quantity(f"sampled probability[{k}]", float(step.probabilities[vocab.index(step.word)]), True))
        q += [Quantity(f"sampled step {k}: probability[{w}]", float(v), proportion=True)
              for w, v in zip(vocab, step.probabilities, strict=True) if v >= 0.001]  # fmt: skip
    for k, step in enumerate(g.greedy, 1):
        q.append(Quantity(f"greedy probability[{k}]", float(step.probabilities[vocab.index(step.word)]), True))
    total = np.cumsum(g.sampled[0].probabilities)
    q += [Quantity(f"running total[{w}]", float(v), proportion=True) for w, v in zip(vocab, total, strict=True)]
    return q


# --- tables --------------------------------------------------------------------------------


@generated("next_word/model.md")
def _model():
    """The model's sizes, read from its trained weights."""
    W = lm.load()
    rows = [
        ("$d_\\text{vocab}$", "words of the vocabulary", str(len(W.vocabulary))),
        ("$n_\\text{ctx}$", "the most words it reads at once", str(W.context)),
        ("$d_\\text{model}$", "entries of each word's vector", str(W.d_model)),
        ("", "blocks", str(len(W.blocks))),
        ("$h$", "heads in each block", str(W.num_heads)),
        ("$d_\\text{head}$", "entries of a head's queries, keys and values", str(W.d_model // W.num_heads)),
        ("$d_\\text{ff}$", "the inner width of each feed-forward network", str(W.blocks[0].W_1.shape[1])),
        ("", "numbers in all (its parameters)", grouped(W.parameters)),
    ]
    lines = ["| symbol | what it counts | size |", "|---|---|---:|"]
    lines += [f"| {s} | {what} | {v} |" for s, what, v in rows]
    return "\n".join(lines) + "\n"


@generated("next_word/vocabulary.md")
def _vocabulary():
    """The 43 words with their ids, in four pairs of columns, the ids running down each pair."""
    vocab = corpus.VOCABULARY
    rows = math.ceil(len(vocab) / 4)
    lines = ["| id | word | id | word | id | word | id | word |", "|---:|---|---:|---|---:|---|---:|---|"]
    for r in range(rows):
        cells = []
        for c in range(4):
            i = c * rows + r
            cells += [str(i), f"`{vocab[i]}`"] if i < len(vocab) else ["", ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


@generated("next_word/ids.md")
def _ids():
    s = nw.walk()
    lines = ["| position | " + " | ".join(str(i + 1) for i in range(len(s.words))) + " |",
             "|---|" + "---:|" * len(s.words),
             "| **word** | " + " | ".join(s.words) + " |",
             "| **id** | " + " | ".join(str(int(i)) for i in s.ids) + " |"]  # fmt: skip
    return "\n".join(lines) + "\n"


def _rows_table(M, corner: str) -> str:
    s = nw.walk()
    return compact(matrix_table(M, labels(s.words), dims(M.shape[1]), DECIMALS, corner))


@generated("next_word/token_rows.md")
def _token_rows():
    return _rows_table(nw.walk().embeddings, "token row")


@generated("next_word/position_rows.md")
def _position_rows():
    return _rows_table(nw.walk().positions, "position row")


@generated("next_word/X.md")
def _X():
    return _rows_table(nw.walk().X, "X")


@generated("next_word/bank_weights.md")
def _bank_weights():
    """The last word's attention weights in each head: one row a head, one column a word it reads."""
    s = nw.walk()
    M = np.array([b.weights[h, -1] for b in s.blocks for h in range(b.weights.shape[0])])  # (4, n)
    return matrix_table(M, HEADS, labels(s.words), 3, f"{s.words[-1]} reads →")


@generated("next_word/bank_rows.md")
def _bank_rows_table():
    M, rows = _bank_rows()
    return compact(matrix_table(M, rows, dims(M.shape[1]), DECIMALS, nw.walk().words[-1]))


@generated("next_word/logits.md")
def _logits():
    s = nw.walk()
    logits, p = s.logits[-1], s.probabilities[-1]
    top = logits.max()
    order = _ranked(p)
    lines = ["| next word | logit | logit − largest | e^(logit − largest) | probability |", "|---|---:|---:|---:|---:|"]
    for i in order[:SHOWN]:
        e = math.exp(logits[i] - top)
        lines.append(f"| `{corpus.VOCABULARY[i]}` | {num(logits[i], 3)} | {num(logits[i] - top, 3)} | "
                     f"{num(e, 5)} | {num(p[i], 5)} |")  # fmt: skip
    rest = order[SHOWN:]
    e_rest = float(np.exp(logits[rest] - top).sum())
    lines.append(f"| the other {len(rest)} words | | | {num(e_rest, 5)} | {num(float(p[rest].sum()), 5)} |")
    e_all = float(np.exp(logits - top).sum())
    lines.append(f"| **total** | | | **{num(e_all, 5)}** | **{num(float(p.sum()), 5)}** |")
    return "\n".join(lines) + "\n"


@generated("next_word/every_row.md")
def _every_row():
    """What each row of the model predicts: the next word after words 1 to i."""
    s = nw.walk()
    head = "| words read | most probable next word | its probability | the word that comes | its probability | loss |"
    lines = [head, "|---|---|---:|---|---:|---:|"]
    for i in range(len(s.words)):
        row = s.probabilities[i]
        best = _ranked(row)[0]
        read = " ".join(s.words[: i + 1])
        cells = [read, f"`{corpus.VOCABULARY[best]}`", num(row[best], 4)]
        if i + 1 < len(s.words):
            comes = s.ids[i + 1]
            cells += [f"`{s.words[i + 1]}`", num(row[comes], 4), num(_loss(row[comes]), 3)]
        else:
            cells += ["", "", ""]  # the sentence stops here: this row is the page's question
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _choice_words() -> list[int]:
    """The ids of the words the corpus writes after "she took the", most probable first for the model."""
    c = nw.choices()
    return [i for i in _ranked(c.temperature[1.0]) if c.odds[i] > 0]


@generated("next_word/temperature.md")
def _temperature():
    c = nw.choices()
    shown = _choice_words()
    heads = [f"T = {T:g}" for T in nw.TEMPERATURES] + [f"top-{nw.TOP_K}, T = 1"]
    lines = ["| next word | the corpus's odds | " + " | ".join(heads) + " |", "|---|" + "---:|" * (len(heads) + 1)]
    columns = [c.odds, *c.temperature.values(), c.top_k]
    for i in shown:
        lines.append(
            f"| `{corpus.VOCABULARY[i]}` | " + " | ".join(num(100 * col[i], 1) + "%" for col in columns) + " |"
        )
    rest = [i for i in range(len(corpus.VOCABULARY)) if i not in shown]
    lines.append(
        f"| the other {len(rest)} words | " + " | ".join(num(100 * col[rest].sum(), 1) + "%" for col in columns) + " |"
    )
    return "\n".join(lines) + "\n"


@generated("next_word/sampling.md")
def _sampling():
    """The first draw of the sampled loop: the words in id order with their running total, up to
    the word drawn, those with less than LEAST left out (the running total counts them)."""
    g = nw.generation()
    step = g.sampled[0]
    p = step.probabilities
    total = np.cumsum(p)
    drawn = corpus.VOCABULARY.index(step.word)
    lines = ["| id | word | probability | running total |", "|---:|---|---:|---:|"]
    for i in range(drawn + 1):
        if p[i] >= LEAST or i == drawn:
            mark = "**" if i == drawn else ""
            lines.append(
                f"| {i} | {mark}`{corpus.VOCABULARY[i]}`{mark} | {num(p[i], 4)} | {mark}{num(total[i], 4)}{mark} |"
            )
    left = sum(1 for i in range(drawn) if p[i] < LEAST)
    note = (
        f"The {left} words of ids 0 to {drawn - 1} with less than {num(100 * LEAST, 1)}% each are left out of the "
        "table; the running total counts them."
    )
    return "\n".join(lines) + "\n\n" + note + "\n"


def _loop_table(steps, sampled: bool) -> str:
    head = "| step | the words read | " + ("u | " if sampled else "") + "the word chosen | its probability |"
    lines = [head, "|---:|---|" + ("---:|" if sampled else "") + "---|---:|"]
    for k, st in enumerate(steps, 1):
        p = st.probabilities[corpus.VOCABULARY.index(st.word)]
        u = f"{num(st.u, 4)} | " if sampled else ""
        lines.append(f"| {k} | {' '.join(st.words)} | {u}`{st.word}` | {num(p, 4)} |")
    return "\n".join(lines) + "\n"


@generated("next_word/greedy.md")
def _greedy():
    return _loop_table(nw.generation().greedy, sampled=False)


@generated("next_word/sampled.md")
def _sampled():
    return _loop_table(nw.generation().sampled, sampled=True)


def playground_link(text: str, what: str) -> str:
    """A paragraph that opens the playground's language-model mode on ``text`` (the pages set it in a
    tip, "Try it in the playground", as the other pages' links to the playground): its address holds the
    mode's state as docs/assets/playground/state.js reads it, "model=<text>" (encodeModelLink's key,
    spaces as "+", as URLSearchParams writes them), in the query string as the pages' ?preset= links
    do (MkDocs checks every #anchor of a link between pages). ``what`` says what the reader will see.
    tests/content/test_playground_node.py opens each page's link with state.js."""
    return (
        "The playground's language-model mode runs this model in your browser: "
        f"[open it on \u201c{text}\u201d](playground.md?{urlencode({'model': text})}). {what}\n"
    )


@generated("next_word/playground.md")
def _playground():
    return playground_link(
        nw.SENTENCE,
        "It shows every head's weights and the probabilities of the next word; change a word, the "
        "temperature or the seed, and generate the rest of the sentence.",
    )


@generated("next_word/byte_pairs.md")
def _byte_pairs():
    """Each merge learned, with its count and every word's tokens after it (tokens between bars)."""
    merges = nw.byte_pairs()
    words = list(nw.BPE_WORDS)
    head = "| merge | pair | times | " + " | ".join(f"{w} (×{nw.BPE_WORDS[w]})" for w in words) + " |"
    lines = [head, "|---:|---|---:|" + "---|" * len(words)]
    lines.append("| | | | " + " | ".join(" ".join(w) for w in words) + " |")
    for k, m in enumerate(merges, 1):
        cells = [str(k), f"{m.pair[0]} + {m.pair[1]}", str(m.count)] + [" ".join(m.words[w]) for w in words]
        lines.append("| " + " | ".join(cells) + " |")
    splits = "; ".join(f"**{w}** becomes {' · '.join(bpe.split(w, merges))}" for w in nw.BPE_NEW)
    return compact("\n".join(lines) + "\n") + f"\nWith these merges, two words that are not in the list: {splits}.\n"


@topic_values(SOURCE)
def _exercise_values() -> dict:
    """What the page's exercises ask for (docs/exercises/next-word.toml), and known mistakes."""
    s, c, g = nw.walk(), nw.choices(), nw.generation()
    vocab = corpus.VOCABULARY
    ids = {w: vocab.index(w) for w in vocab}
    prefix = {w: float(c.logits[i]) for w, i in ids.items()}
    p1 = c.temperature[1.0]
    kept = _ranked(p1)[: nw.TOP_K]
    cold, wet = ids["cold"], ids["wet"]
    comes = s.ids[nw.PREFIX]  # the word after "she took the" in the sentence
    first = g.sampled[0]
    return {
        "logit": prefix,
        "p": {w: float(p1[i]) for w, i in ids.items()},
        "T_low": min(nw.TEMPERATURES),
        "ratio_T1": math.exp(c.logits[cold] - c.logits[wet]),
        "ratio_T05": math.exp((c.logits[cold] - c.logits[wet]) / min(nw.TEMPERATURES)),
        "ratio_times_T05": math.exp((c.logits[cold] - c.logits[wet]) * min(nw.TEMPERATURES)),
        "ratio_of_logits": float(c.logits[cold] / c.logits[wet]),  # the logits divided, not exponentiated
        "ratio_inverse": math.exp((c.logits[wet] - c.logits[cold]) / min(nw.TEMPERATURES)),  # wet over cold
        "top_k_cold": float(c.top_k[cold]),
        "top_k_of_all": float(p1[cold] / p1.sum()),
        "kept_total": float(p1[kept].sum()),
        "comes": {
            "p": float(s.probabilities[nw.PREFIX - 1][comes]),
            "loss": _loss(s.probabilities[nw.PREFIX - 1][comes]),
        },
        "comes_log10": -math.log10(s.probabilities[nw.PREFIX - 1][comes]),
        "u": first.u,
        "drawn_id": ids[first.word],
        "greedy_id": int(np.argmax(first.probabilities)),
        "total": {w: float(v) for w, v in zip(vocab, np.cumsum(first.probabilities), strict=True)},
        "between": float(first.probabilities[ids["fish"] + 1 : ids["money"]].sum()),  # ids 15 to 22
        "fish_and_money": float(np.cumsum(first.probabilities)[ids["fish"]] + first.probabilities[ids["money"]]),
    }
