"""The small language model's training run (issue 53), recorded so that no build trains it.

The run is :func:`selfattn_ref.training.language_model.experiment` (PyTorch). What it gives is kept in
two files, both under one key, a hash of the code that made it and PyTorch's version
(:mod:`publish.generate.training_record`):

- the trained weights, in the package, ``selfattn_ref/language_model.json``: the library reads them
  (its NumPy model, its PyTorch twin and its command line), so they are package data, in the wheel;
  each tensor as float32 numbers in base64 (:func:`selfattn_ref.language_model.record`);
- the run's figures, ``docs/generated/language_model/run.json``: the loss curve, and the held-out
  figures of the model beside the bigram baseline and the best any model can do, by group.

``make update`` writes both: from the files as they are when their key is the key of the code as it
is (so nothing is trained and nothing changes), from a new training run (some 20 seconds) when it is
not. A cheap test holds both keys to the code (tests/package/test_language_model_record.py); the
bench trains again and holds the record to what training gives (bench/run.py, ``[training]``).
It also registers what docs/trained-model.md may quote and its tables and figures: the record's
figures, and what each head does, measured by :mod:`selfattn_ref.topics.language_model` on the
trained weights (NumPy: no build imports PyTorch). This module only records, formats and registers.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from functools import cache

import numpy as np

from selfattn_ref import corpus
from selfattn_ref import language_model as lm
from selfattn_ref.attention import softmax
from selfattn_ref.topics import language_model as heads

from ... import GENERATED, ROOT
from ...audit.quantities import Quantity, grid, source
from ...fmt import num
from .. import training_record
from ..exercises import topic_values
from ..figures import Series, heatmap, lines, scatter
from ..registry import current, generated, generated_file, name_of, with_banner, writer_of
from ..snippets import versions
from ..tables import matrix_table, notebook_only
from .next_word import HEADS, labels, playground_link
from .transformer_block import compact

RECORD = GENERATED / "language_model" / "run.json"
WEIGHTS = ROOT / "selfattn_ref" / "language_model.json"
# What the weights and figures depend on: the corpus, the model (its NumPy module, whose weights'
# format and loader the twin uses, and its PyTorch twin with the block's and masks' modules it
# imports), the training module, and PyTorch's version.
_KEYED = (
    "selfattn_ref/corpus.py",
    "selfattn_ref/language_model.py",
    "selfattn_ref/torch/language_model.py",
    "selfattn_ref/torch/block.py",
    "selfattn_ref/torch/masks.py",
    "selfattn_ref/training/language_model.py",
)


def record_key() -> str:
    """What the recorded weights and figures were made from, as a hash (see ``_KEYED``)."""
    return training_record.content_key(ROOT, _KEYED, versions()["torch"])


@cache
def _removal_of(kind: str, sense: str | None) -> dict:
    """The trained model's scores on the held-out sentences of ``kind`` and ``sense`` with each head
    removed (selfattn_ref.topics.language_model.removal: 13 evaluations of the group), once per
    process, as the trained weights are read once (selfattn_ref.language_model.load): the page's
    quantities, its removal table and its exercises read the same groups. Read only."""
    return heads.removal(heads.sentences_of(kind, sense))


def _scores(scores: dict) -> dict:
    return {group: asdict(s) for group, s in scores.items()}


@cache
def trained() -> dict:
    """The run's figures and weights, from training it (once per process)."""
    from selfattn_ref import corpus
    from selfattn_ref import language_model as lm
    from selfattn_ref.training import language_model as tl  # PyTorch, imported on use

    run = tl.experiment()
    training, held_out = corpus.training(), corpus.held_out()
    return {
        "settings": {
            "d_model": tl.D_MODEL,
            "num_heads": tl.NUM_HEADS,
            "num_layers": tl.NUM_LAYERS,
            "d_ff": tl.D_FF,
            "n_ctx": corpus.CONTEXT,
            "d_vocab": len(corpus.VOCABULARY),
            "parameters": run.weights.parameters,
            "steps": tl.STEPS,
            "batch": tl.BATCH,
            "learning_rate": tl.LR,
            "weight_decay": tl.WEIGHT_DECAY,
            "seed": tl.SEED,
            "bigram_smoothing": tl.SMOOTHING,
        },
        "corpus": {
            "seed": corpus.SEED,
            "training_sentences": len(training),
            "distinct_training_sentences": len({s.words for s in training}),
            "held_out_sentences": len(held_out),
            "distinct_sentences": len(corpus.every_sentence()),
        },
        "curve": [asdict(p) for p in run.curve],
        "held_out": {"model": _scores(run.model), "bigram": _scores(run.bigram), "best": _scores(run.best)},
        "train": _scores(run.train),
        "weights": lm.record(run.weights),
    }


def recorded() -> dict | None:
    """The record as ``make update`` wrote it (or is about to), or None if there is none."""
    return training_record.recorded(RECORD)


def recorded_weights() -> dict | None:
    """The package's weights file as ``make update`` wrote it (or is about to), or None."""
    return training_record.recorded(WEIGHTS)


def run() -> dict:
    """``{"key": ..., "run": {...}}``: the record's figures if it was made from the code as it is
    (:func:`record_key`), else those of a new training run (the weights apart: they are the
    package's file, :func:`weights_text`)."""
    return training_record.figures(
        record_key(), recorded(), "run", lambda: {k: v for k, v in trained().items() if k != "weights"}
    )


@generated("language_model/run.json")
def _record() -> str:
    return training_record.text(run())


def weights_text() -> str:
    """The package's weights file: as it is if it was made from the code as it is (its banner naming
    this function, wherever the function has moved since), else the weights of a new training run
    under the key of the code."""
    key = record_key()
    text, data = current(WEIGHTS), recorded_weights()
    if text is not None and data is not None and data.get("key") == key:
        if writer_of(WEIGHTS, text) == name_of(weights_text):
            return text
        kept = {k: v for k, v in json.loads(text).items() if k != "_generated_by"}
        return with_banner(json.dumps(kept, indent=2) + "\n", WEIGHTS, name_of(weights_text))
    body = json.dumps({"key": key, **trained()["weights"]}, indent=2) + "\n"
    return with_banner(body, WEIGHTS, name_of(weights_text))


generated_file(WEIGHTS, writer=weights_text)(weights_text)


# --- docs/trained-model.md ---------------------------------------------------------------------

SOURCE = "language_model"
HEATMAP = "the street near the animal was cold so it froze ."  # the sentence whose four heads the page draws
BANK = ("she took the money to the bank", "she took the boat to the bank")  # money against river
ITS = tuple(s for s in corpus.SHOWN if " it " in s)  # the four it sentences the page sets side by side
HEAD = (2, 1)  # the head whose W_Q and W_K the page shows: block 2's head 1
GROUPS = {  # the groups of the record's scores, as the page's table names them
    "all": "every word",
    "bank": "bank sentences",
    "it": "it sentences",
    "sat": "sat sentences",
    "after bank": "the word after bank",
    "after it": "the word after it",
    "rest": "every other word",
}
PAIRS = [(b, h) for b in (1, 2) for h in (1, 2)]  # every head, block then head, counted from 1
Y_MAX = 1.2  # the loss curve's y axis: the losses after step 0 are all under it


def head_name(pair) -> str:
    return f"head {pair[0]}.{pair[1]}"


def _figures() -> dict:
    """The run's figures (the record's "run"); _record, above, writes the record itself."""
    return run()["run"]


def _it_groups() -> list[tuple[str, str]]:
    return [(sense, form) for sense in heads.SENSES["it"] for form in heads.FORMS["it"]]


def _bank_groups() -> list[tuple[str, str]]:
    return [(sense, form) for sense in heads.SENSES["bank"] for form in heads.FORMS["bank"]]


def _upto(text: str, word: str) -> list[str]:
    """The words of ``text`` up to its word ``word``, included: what the model reads to say the next."""
    words = text.split()
    return words[: words.index(word) + 1]


@source(SOURCE)
def _trained_quantities():
    r = _figures()
    q = [Quantity(k, v) for k, v in r["settings"].items() if isinstance(v, (int, float))]
    q += [Quantity(f"corpus {k}", v) for k, v in r["corpus"].items()]
    for who in ("model", "bigram", "best"):
        for group, s in r["held_out"][who].items():
            q += [
                Quantity(f"{who} loss, {group}", s["loss"]),
                Quantity(f"{who} accuracy, {group}", s["accuracy"], True),
            ]
    for group, s in r["train"].items():
        q += [
            Quantity(f"training loss, {group}", s["loss"]),
            Quantity(f"training accuracy, {group}", s["accuracy"], True),
        ]
    for group in GROUPS:  # the model's lead over the bigram baseline
        model, bigram = r["held_out"]["model"][group], r["held_out"]["bigram"][group]
        q.append(Quantity(f"bigram − model loss, {group}", bigram["loss"] - model["loss"]))
        q.append(Quantity(f"model − bigram accuracy, {group}", model["accuracy"] - bigram["accuracy"], True))
    curve = r["curve"]
    lowest = min(curve, key=lambda c: c["held_out_loss"])
    q += [
        Quantity("curve: first training loss", curve[0]["train_loss"]),
        Quantity("curve: first held-out loss", curve[0]["held_out_loss"]),
        Quantity("curve: last training loss", curve[-1]["train_loss"]),
        Quantity("curve: last held-out loss", curve[-1]["held_out_loss"]),
        Quantity("curve: lowest held-out loss", lowest["held_out_loss"]),
        Quantity("curve: step of the lowest held-out loss", lowest["step"]),
        Quantity("ln d_vocab", math.log(len(corpus.VOCABULARY))),
        Quantity("ln 4", math.log(4)),
        Quantity("words that may follow it", len(set(corpus.DID.values()))),
    ]
    q += [Quantity(f"curve: held-out loss at step {c['step']}", c["held_out_loss"]) for c in curve]
    # What each head does, by group.
    for kind, groups in (("it", _it_groups()), ("bank", _bank_groups())):
        wider = [*((s, None) for s in heads.SENSES[kind]), *((None, f) for f in heads.FORMS[kind]), (None, None)]
        for sense, form in [*groups, *wider]:
            shares = heads.attention(heads.sentences_of(kind, sense, form))
            at = ", ".join(x for x in (kind, sense, form) if x)
            for word, s in shares.items():
                for b, h in PAIRS:
                    q.append(Quantity(f"{at}: {head_name((b, h))} on the {word}", float(s.mean[b - 1, h - 1]), True))
                    q.append(
                        Quantity(f"{at}: {head_name((b, h))} most on the {word}", float(s.most[b - 1, h - 1]), True)
                    )
    for what, M in heads.attention_overall().items():
        q += [Quantity(f"every word: {head_name(pair)} on {what}", float(M[pair[0] - 1, pair[1] - 1]), True)
              for pair in PAIRS]  # fmt: skip
    for kind in ("bank", "it"):
        for sense in (*heads.SENSES[kind], None):
            at = ", ".join(x for x in (kind, sense) if x)
            for key, s in _removal_of(kind, sense).items():
                who = "every head" if key is None else f"without {head_name(key)}"
                q += [Quantity(f"{at}: {who}, accuracy", s.accuracy, True), Quantity(f"{at}: {who}, loss", s.loss)]
    # The contrasts: the sentences side by side.
    for text in (*BANK, *(" ".join(_upto(t, "it")) for t in ITS)):
        st = lm.forward(text)
        tok = labels(st.words)
        for b, block in enumerate(st.blocks, 1):
            for h in range(block.weights.shape[0]):
                q += [Quantity(f"{text}: {head_name((b, h + 1))} on {w}", float(v), True)
                      for w, v in zip(tok, block.weights[h, -1], strict=True)]  # fmt: skip
        q += [
            Quantity(f"{text}: next {w}", float(v), True)
            for w, v in zip(corpus.VOCABULARY, st.probabilities[-1], strict=True)
        ]
    # The trained W_Q and W_K of one head, and its scores on the heatmap's sentence.
    h = heads.head_scores(HEATMAP, *HEAD)
    tok = labels(h.words)
    c = [f"c{k + 1}" for k in range(h.Q.shape[1])]
    q += grid("W_Q", h.W_Q, _dims(h.W_Q.shape[0]), c) + grid("W_K", h.W_K, _dims(h.W_K.shape[0]), c)
    q += grid("Q", h.Q, tok, c) + grid("K", h.K, tok, c)
    q += grid("scaled scores", np.where(np.isfinite(h.scaled), h.scaled, np.nan), tok, tok)
    q += grid("head weights", h.weights, tok, tok, proportion=True)
    q.append(Quantity("√d_head", math.sqrt(h.Q.shape[1])))
    st = lm.forward(HEATMAP)
    for b, block in enumerate(st.blocks, 1):
        for k in range(block.weights.shape[0]):
            q += grid(f"heatmap {head_name((b, k + 1))}", block.weights[k], tok, tok, proportion=True)
    # Points in two dimensions.
    m = heads.embedding_map()
    q += [Quantity("embedding map: share of direction 1", float(m.shares[0]), True),
          Quantity("embedding map: share of direction 2", float(m.shares[1]), True),
          Quantity("embedding map: share of both", float(m.shares.sum()), True)]  # fmt: skip
    for block in range(3):
        p = heads.principal_components(heads.decisive_rows(heads.sentences_of("bank"), block))
        q += [Quantity(f"bank rows {block}: share of direction 1", float(p.shares[0]), True),
              Quantity(f"bank rows {block}: share of direction 2", float(p.shares[1]), True)]  # fmt: skip
        money = np.array([s.sense == "money" for s in heads.sentences_of("bank")])
        for name, sel in (("money", money), ("river", ~money)):
            q += [Quantity(f"bank rows {block}: {name} direction 1 {end}", float(f(p.points[sel, 0])))
                  for end, f in (("least", np.min), ("most", np.max))]  # fmt: skip
    for word in corpus.VOCABULARY:
        for other, cosine in heads.nearest_words(word, k=3):
            q.append(Quantity(f"cosine[{word}, {other}]", cosine))
    return [x for x in q if not (isinstance(x.value, float) and math.isnan(x.value))]


def _dims(d: int) -> list[str]:
    return [f"x{k + 1}" for k in range(d)]


def _pct(x: float, decimals: int = 1) -> str:
    return f"{num(100 * x, decimals)}%"


@generated("language_model/playground.md")
def _playground():
    """The heatmaps' sentence up to "it": its heads' rows are the heatmaps' first rows (the mask), and
    the next word is the one "it" calls for."""
    text = HEATMAP[: HEATMAP.index(" it ") + len(" it")]
    return playground_link(
        text,
        "Each head's weights there are the rows of its heatmap above, up to \u201cit\u201d (the mask "
        "keeps the later words out), with the next word's probabilities; swap \u201cstreet\u201d and "
        "\u201canimal\u201d, or change \u201ccold\u201d to \u201cwet\u201d, and watch head 2.1 and "
        "the next word follow.",
    )


@generated("language_model/held_out.md")
def _held_out():
    r = _figures()["held_out"]
    lines_ = ["| where | positions | loss: model | bigram | best | accuracy: model | bigram | best |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for group, name in GROUPS.items():
        m, b, best = r["model"][group], r["bigram"][group], r["best"][group]
        cells = [name, str(m["positions"]), num(m["loss"], 3), num(b["loss"], 3), num(best["loss"], 3),
                 _pct(m["accuracy"]), _pct(b["accuracy"]), _pct(best["accuracy"])]  # fmt: skip
        lines_.append("| " + " | ".join(cells) + " |")
    return compact("\n".join(lines_) + "\n")


@generated("language_model/loss_curve.md")
def _loss_curve():
    r = _figures()
    curve = r["curve"]
    series = [
        Series("training", tuple((c["step"], c["train_loss"]) for c in curve)),
        Series("held-out", tuple((c["step"], c["held_out_loss"]) for c in curve)),
        Series("bigram, held-out", level=r["held_out"]["bigram"]["all"]["loss"]),
        Series("best possible", level=r["held_out"]["best"]["all"]["loss"]),
    ]
    figure = lines(series, title="language model's loss during training", x_title="training step",
                   y_title="loss", y_max=Y_MAX, x_name="step")  # fmt: skip
    table = matrix_table(np.array([[c["train_loss"], c["held_out_loss"]] for c in curve]),
                         [str(c["step"]) for c in curve], ["training", "held-out"], 3, "step")  # fmt: skip
    return f'<div class="diagram-figure" markdown>\n\n{figure}\n\n</div>\n' + notebook_only(table)


def _heatmap(pair) -> str:
    st = lm.forward(HEATMAP)
    tok = labels(st.words)
    A = st.blocks[pair[0] - 1].weights[pair[1] - 1]
    title = f"attention weights of {head_name(pair)} on “{HEATMAP}”"
    table = matrix_table(A, tok, tok, 2, "query ↓ key →")
    figure = heatmap(A, tok, tok, 2, title=title)
    return f'<div class="md-typeset__scrollwrap figure-scroll">\n{figure}\n</div>\n' + notebook_only(table)


def _register_heatmap(pair) -> None:
    generated(f"language_model/head_{pair[0]}_{pair[1]}_heatmap.md")(lambda: _heatmap(pair))


for _pair in PAIRS:
    _register_heatmap(_pair)


@generated("language_model/overall.md")
def _overall():
    o = heads.attention_overall()
    names = {"previous": "the word before it", "itself": "itself", "first": "the first word"}
    lines_ = ["| head | " + " | ".join(names.values()) + " |", "|---|" + "---:|" * len(names)]
    for b, h in PAIRS:
        lines_.append(f"| {head_name((b, h))} | " + " | ".join(_pct(o[k][b - 1, h - 1]) for k in names) + " |")
    return "\n".join(lines_) + "\n"


def _group_table(kind: str, columns: list[tuple[tuple[int, int], str, str]]) -> str:
    """Mean weights of the decisive word by group: each column a head and a word, its mean weight
    and, in brackets, the share of sentences in which that word gets the head's largest weight."""
    groups = _it_groups() if kind == "it" else _bank_groups()
    head = "| sentences | count | " + " | ".join(title for _, _, title in columns) + " |"
    lines_ = [head, "|---|---:|" + "---:|" * len(columns)]
    for sense, form in groups:
        group = heads.sentences_of(kind, sense, form)
        shares = heads.attention(group)
        cells = [f"{sense}, {form}", str(len(group))]
        for (b, h), word, _ in columns:
            s = shares[word]
            cells.append(f"{_pct(s.mean[b - 1, h - 1])} ({_pct(s.most[b - 1, h - 1], 0)})")
        lines_.append("| " + " | ".join(cells) + " |")
    return compact("\n".join(lines_) + "\n")


@generated("language_model/it_heads.md")
def _it_heads():
    columns = [
        ((2, 1), "referent", "2.1 on the referent"),
        ((2, 1), "distractor", "2.1 on the other noun"),
        ((2, 1), "adjective", "2.1 on the adjective"),
        ((2, 2), "adjective", "2.2 on the adjective"),
        ((1, 1), "referent", "1.1 on the referent"),
        ((1, 2), "referent", "1.2 on the referent"),
    ]
    return _group_table("it", columns)


@generated("language_model/bank_heads.md")
def _bank_heads():
    columns = [
        ((2, 1), "thing", "2.1 on the thing carried"),
        ((2, 1), "article", "2.1 on its “the”"),
        ((2, 1), "previous", "2.1 on the word before"),
        ((2, 2), "thing", "2.2 on the thing carried"),
        ((1, 1), "thing", "1.1 on the thing carried"),
        ((1, 2), "thing", "1.2 on the thing carried"),
    ]
    return _group_table("bank", columns)


@generated("language_model/bank_contrast.md")
def _bank_contrast():
    """The weights of "bank" in each head, money sentence above river sentence, one column a position."""
    rows, M = [], []
    runs = [lm.forward(t) for t in BANK]
    for (b, h), name in zip(PAIRS, HEADS, strict=True):
        for t, st in zip(BANK, runs, strict=True):
            rows.append(f"{name}, {t.split()[3]}")
            M.append(st.blocks[b - 1].weights[h - 1, -1])
    cols = [" / ".join(dict.fromkeys(ws)) for ws in zip(*(labels(st.words) for st in runs), strict=True)]
    return compact(matrix_table(np.array(M), rows, cols, 3, "bank reads →"))


@generated("language_model/bank_next.md")
def _bank_next():
    runs = [lm.forward(t) for t in BANK]
    ids = sorted({i for st in runs for i in np.argsort(-st.probabilities[-1])[:3]},
                 key=lambda i: -runs[0].probabilities[-1][i])  # fmt: skip
    lines_ = ["| next word | " + " | ".join(f"after “{t}”" for t in BANK) + " |", "|---|" + "---:|" * len(BANK)]
    for i in ids:
        lines_.append(
            f"| `{corpus.VOCABULARY[i]}` | " + " | ".join(num(st.probabilities[-1][i], 4) for st in runs) + " |"
        )
    return "\n".join(lines_) + "\n"


@generated("language_model/it_contrast.md")
def _it_contrast():
    lines_ = ["| sentence, up to it | referent | 2.1 on the referent | 2.1 on the other noun | 2.2 on the adjective | "
              "next word | its probability |", "|---|---|---:|---:|---:|---|---:|"]  # fmt: skip
    for text in ITS:
        (s,) = [s for s in corpus.held_out() if s.text == text]
        st = lm.forward(list(s.words[: s.query + 1]))
        A = st.blocks[1].weights[:, -1]  # (2, query + 1): block 2's heads, from "it"
        best = int(np.argmax(st.probabilities[-1]))
        cells = [" ".join(s.words[: s.query + 1]), s.words[s.cue]]
        cells += [num(A[0, s.cue], 3), num(A[0, s.distractor], 3), num(A[1, s.query - 2], 3)]
        cells += [f"`{corpus.VOCABULARY[best]}`", num(st.probabilities[-1][best], 4)]
        lines_.append("| " + " | ".join(cells) + " |")
    return compact("\n".join(lines_) + "\n")


@generated("language_model/W_Q.md")
def _W_Q():
    h = heads.head_scores(HEATMAP, *HEAD)
    return compact(matrix_table(h.W_Q, _dims(h.W_Q.shape[0]), [f"c{k + 1}" for k in range(h.W_Q.shape[1])], 3, "W_Q"))


@generated("language_model/W_K.md")
def _W_K():
    h = heads.head_scores(HEATMAP, *HEAD)
    return compact(matrix_table(h.W_K, _dims(h.W_K.shape[0]), [f"c{k + 1}" for k in range(h.W_K.shape[1])], 3, "W_K"))


@generated("language_model/it_scores.md")
def _it_scores():
    """The query of "it" and every key, in head 2.1: their products and weights."""
    h = heads.head_scores(HEATMAP, *HEAD)
    tok = labels(h.words)
    i = h.words.index("it")
    rows = [f"query: {tok[i]}", *(f"key: {t}" for t in tok[: i + 1])]
    M = np.vstack([h.Q[i], h.K[: i + 1]])  # (i + 2, d_head)
    extra = np.concatenate([[np.nan], h.scaled[i, : i + 1]]), np.concatenate([[np.nan], h.weights[i, : i + 1]])
    cols = [f"c{k + 1}" for k in range(h.Q.shape[1])]
    table = matrix_table(M, rows, cols, 2, "head 2.1")
    # the two last columns: q·k / √d_head and the weight, for each key
    out = []
    for line, (s, w) in zip(table.splitlines(), [(None, None), (None, None), *zip(*extra, strict=True)], strict=True):
        if s is None:
            out.append(line + (" q·k / √d_head | weight |" if line.startswith("| head") else "---:|---:|"))
        elif math.isnan(s):
            out.append(line + "  |  |")
        else:
            out.append(line + f" {num(s, 2)} | {num(w, 3)} |")
    return compact("\n".join(out) + "\n")


# The axes of the two PCA figures: the projection is named on the figure itself, not only in its label.
PCA_AXES = ("PCA direction 1", "PCA direction 2")


@generated("language_model/embedding_map.md")
def _embedding_map():
    m = heads.embedding_map()
    title = (f"43 words' embeddings projected on their first two principal components (PCA), which hold "
             f"{_pct(m.shares[0])} and {_pct(m.shares[1])} of their variance")  # fmt: skip
    words = [f"“{w}”" if w == "." else w for w in corpus.VOCABULARY]  # a full stop alone would be a speck
    figure = scatter(m.points, words, title=title, x_title=PCA_AXES[0], y_title=PCA_AXES[1], size=(520.0, 360.0))
    table = matrix_table(m.points, corpus.VOCABULARY, list(PCA_AXES), 2, "word")
    return f'<div class="md-typeset__scrollwrap figure-scroll">\n{figure}\n</div>\n' + notebook_only(table)


@generated("language_model/bank_map.md")
def _bank_map():
    group = heads.sentences_of("bank")
    p = heads.principal_components(heads.decisive_rows(group, 2))
    senses = [f"{s.sense} sentences" for s in group]
    title = (
        f"rows of “bank” after block 2 in the {len(group)} held-out bank sentences, projected on their first two "
        f"principal components (PCA), which hold {_pct(p.shares[0])} and {_pct(p.shares[1])} of their variance"
    )
    figure = scatter(p.points, [s.text for s in group], title=title, x_title=PCA_AXES[0], y_title=PCA_AXES[1],
                     groups=senses, words=False)  # fmt: skip
    return f'<div class="diagram-figure" markdown>\n\n{figure}\n\n</div>\n'


@generated("language_model/removal.md")
def _removal():
    cols = [(kind, sense) for kind in ("bank", "it") for sense in heads.SENSES[kind]]
    found = {c: _removal_of(*c) for c in cols}
    head = "| | " + " | ".join(f"after {k}: {s} ({found[(k, s)][None].positions})" for k, s in cols) + " |"
    lines_ = [head, "|---|" + "---:|" * len(cols)]
    for key in [None, *PAIRS]:
        name = "every head" if key is None else f"without {head_name(key)}"
        cells = [f"{_pct(found[c][key].accuracy, 0)}, {num(found[c][key].loss, 3)}" for c in cols]
        lines_.append(f"| {name} | " + " | ".join(cells) + " |")
    return compact("\n".join(lines_) + "\n")


@topic_values(SOURCE)
def _exercise_values() -> dict:
    """What docs/trained-model.md's exercises ask for (docs/exercises/trained-model.toml), and known
    mistakes."""
    r = _figures()["held_out"]
    money, river = (_removal_of("bank", sense) for sense in ("money", "river"))
    h = heads.head_scores(HEATMAP, *HEAD)
    i, j = h.words.index("it"), h.words.index("street")
    cols = [f"c{k + 1}" for k in range(h.Q.shape[1])]
    dot = float(h.Q[i] @ h.K[j])
    return {
        "money": money[None].positions,
        "river": river[None].positions,
        "without_2_1": _removal_of("bank", None)[(2, 1)].accuracy,
        "mean_of_the_two": (money[(2, 1)].accuracy + river[(2, 1)].accuracy) / 2,
        "four": math.log(4),
        "four_log10": math.log10(4),
        "quarter": 0.25,
        "bigram_after_it": r["bigram"]["after it"]["loss"],
        "q": dict(zip(cols, map(float, h.Q[i]), strict=True)),
        "k": dict(zip(cols, map(float, h.K[j]), strict=True)),
        "d_head": h.Q.shape[1],
        "dot": dot,
        "scaled": float(h.scaled[i, j]),
        "over_d_head": dot / h.Q.shape[1],
        # the row of "it": its scaled score against each word it may read, w1 to w9, and street's weight
        "row": {f"w{k + 1}": float(v) for k, v in enumerate(h.scaled[i, : i + 1])},
        "weight": float(h.weights[i, j]),
        "e_street": math.exp(float(h.scaled[i, j])),
        "e_total": float(np.exp(h.scaled[i, : i + 1]).sum()),
        "street_and_animal": float(softmax(h.scaled[i, [j, h.words.index("animal")]])[0]),
    }
