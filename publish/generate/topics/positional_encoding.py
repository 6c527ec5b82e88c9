"""docs/positional-encoding.md: what the page may quote and the tables it includes.

The sinusoidal encoding at d = 4 (and a longer one), "dog bites man" and "man bites dog" with
each word's position encoding added to its embedding (:func:`selfattn_ref.topics.positional_encoding.with_positions`),
and the word-order experiment of :mod:`selfattn_ref.training.word_order` (PyTorch). This module
only formats and registers, and keeps the experiment's figures in a record (see :func:`word_order`).
"""

from __future__ import annotations

import math

from selfattn_ref import examples
from selfattn_ref.positional import sinusoidal_positional_encoding
from selfattn_ref.topics.positional_encoding import SENTENCES, with_positions

from ... import GENERATED, ROOT
from ...audit.quantities import Quantity, grid, source
from .. import training_record
from ..figures import SIGNED, bars, heatmap
from ..registry import generated
from ..snippets import versions
from ..tables import matrix_table, weights_table

DECIMALS = 3  # as the two examples
SHORT = (4, 4)  # positions 0-3 at d = 4
LONG = (10, 8)  # positions 0-9 at d = 8


def _dims(d: int) -> list[str]:
    return [f"x{k + 1}" for k in range(d)]


@source("positional_encoding")
def _quantities() -> list[Quantity]:
    n, d = SHORT
    q = grid("PE", sinusoidal_positional_encoding(n, d), [f"pos {p}" for p in range(n)], _dims(d))
    # Only what the page quotes: the encoded vectors and the scores. The weights and outputs
    # are in tables and recorded outputs; registered too, their 3-decimal values would let a
    # changed digit elsewhere on the page pass as one of them.
    for slug in SENTENCES:
        tok = list(examples.load(slug).tokens)
        st = with_positions(slug)
        q += grid(f"{slug} with positions: E + PE", st["X"], tok, _dims(d))
        q += grid(f"{slug} with positions: scores", st["scores"], tok, tok)
    without, with_pe = word_order()["runs"]
    for run, name in ((without, "without"), (with_pe, "with")):
        q += [
            Quantity(f"word order, {name} positional encoding: training accuracy", run["train_accuracy"], True),
            Quantity(f"word order, {name} positional encoding: held-out accuracy", run["held_out_accuracy"], True),
            Quantity(f"word order, {name} positional encoding: training loss", run["train_loss"]),
        ]
        for sentence, p in run["person_bites"].items():
            q.append(Quantity(f"word order, {name} positional encoding: P(the person bites | {sentence})", p, True))
    q.append(Quantity("ln 2, the loss of answering 50/50", math.log(2)))
    return q


# --- the word-order experiment, trained or recorded --------------------------------------------

RECORD = GENERATED / "positional_encoding" / "word_order.json"
# What the experiment's figures depend on: the training module and the one function of the package
# whose numbers it uses (the positional encoding), the sentences it is asked about, and PyTorch's
# version. Not the folders whole: another run's module there (the language model's) is not its code.
_KEYED = ("selfattn_ref/training/word_order.py", "selfattn_ref/torch/positional.py")


def _sentences() -> list[str]:
    return [examples.load(slug).title for slug in SENTENCES]


def record_key() -> str:
    """What the recorded figures were made from, as a hash: the code that trains (the files of
    ``_KEYED``), the sentences asked about and PyTorch's version. The run is seeded and deterministic,
    so the same key gives the same figures."""
    return training_record.content_key(ROOT, _KEYED, [_sentences(), versions()["torch"]])


def trained() -> list[dict]:
    """The experiment's figures, from training it (once per process): (without, with) positional
    encoding, each its accuracies, training loss and P(the person bites) for each sentence."""
    from selfattn_ref.training.word_order import experiment, person_bites_probability  # PyTorch, imported on use

    return [
        {
            "train_accuracy": run.train_accuracy,
            "held_out_accuracy": run.held_out_accuracy,
            "train_loss": run.train_loss,
            "person_bites": {s: person_bites_probability(run.model, s) for s in _sentences()},
        }
        for run in experiment()
    ]


def recorded() -> dict | None:
    """The record as ``make update`` wrote it (or is about to), or None if there is none."""
    return training_record.recorded(RECORD)


def word_order() -> dict:
    """``{"key": ..., "runs": [without, with]}``: the record, if it was made from the code as it is
    (:func:`record_key`), else the figures of a new training run. Training imports PyTorch and
    takes seconds, in every process that builds, updates or checks the site; the record takes none.
    A test trains and holds the record equal to what it gives (tests/package/test_word_order.py)."""
    return training_record.figures(record_key(), recorded(), "runs", trained)


@generated("positional_encoding/word_order.json")
def _record() -> str:
    return training_record.text(word_order())


@generated("positional_encoding/encoding.md")
def _encoding() -> str:
    n, d = SHORT
    cols = ["x1 = sin(pos)", "x2 = cos(pos)", "x3 = sin(pos/100)", "x4 = cos(pos/100)"]
    return matrix_table(sinusoidal_positional_encoding(n, d), [str(p) for p in range(n)], cols, DECIMALS, "pos")


@generated("positional_encoding/encoding_long.md")
def _encoding_long() -> str:
    n, d = LONG
    return matrix_table(sinusoidal_positional_encoding(n, d), [str(p) for p in range(n)], _dims(d), DECIMALS, "pos")


def _sentence_tables(slug: str) -> dict[str, str]:
    tok = list(examples.load(slug).tokens)
    st = with_positions(slug)
    rows = [f"{t} (pos {p})" for p, t in enumerate(tok)]
    return {
        "embeddings": matrix_table(st["X"], rows, _dims(st["X"].shape[1]), DECIMALS, "X + PE"),
        "scores": matrix_table(st["scores"], tok, tok, DECIMALS, "query ↓ key →"),
        "weights": weights_table(
            st["weights"], tok, tok, DECIMALS, f"attention weights of “{' '.join(tok)}” with positions"
        ),
    }


def _register(slug: str, name: str) -> None:
    generated(f"positional_encoding/{slug}_{name}.md")(lambda: _sentence_tables(slug)[name])


for _slug in SENTENCES:
    for _name in ("embeddings", "scores", "weights"):
        _register(_slug, _name)


# --- figures ---------------------------------------------------------------------------------


@generated("positional_encoding/encoding_heatmap.md")
def _encoding_heatmap() -> str:
    """The encoding of the collapsed table (positions 0-9 at d = 8) as a heatmap."""
    n, d = LONG
    title = f"sinusoidal positional encoding, positions 0 to {n - 1} at d = {d}"
    P = sinusoidal_positional_encoding(n, d)
    rows = [str(p) for p in range(n)]
    figure = heatmap(P, rows, _dims(d), DECIMALS, title=title, row_title="position", col_title="entry", scale=SIGNED)
    # Wider than a phone's column: it keeps its size (and its text stays readable) and scrolls
    # sideways in Material's scrolling box, which scrollable.js marks with the edge shadow.
    return f'<div class="md-typeset__scrollwrap figure-scroll">\n{figure}\n</div>\n'


@generated("positional_encoding/accuracy.md")
def _accuracy() -> str:
    """The experiment's accuracies, as the page quotes them (one decimal of a percent)."""
    names = ("Without positional encoding", "With positional encoding")
    runs = zip(names, word_order()["runs"], strict=True)
    groups = [(name, [("training", r["train_accuracy"]), ("held-out", r["held_out_accuracy"])]) for name, r in runs]
    return bars(groups, title="accuracy of the word-order classifier, without and with positional encoding") + "\n"
