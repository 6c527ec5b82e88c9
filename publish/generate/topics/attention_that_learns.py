"""docs/attention-that-learns.md: the reversal task's training run, what the page may quote and its
tables and heatmaps.

The run is :func:`selfattn_ref.training.reversal.experiment` (PyTorch). Its figures are kept in a
record, ``docs/generated/attention_that_learns/run.json``, under a hash of the code that trains and
PyTorch's version (:mod:`publish.generate.training_record`), so that a build reads them and never trains or
imports PyTorch; a test trains and holds the record equal to what it gives
(tests/package/test_reversal.py). This module only formats and registers.
"""

from __future__ import annotations

import math

from ... import GENERATED, ROOT
from ...audit.quantities import Quantity, grid, source
from ...fmt import num
from .. import training_record
from ..exercises import topic_values
from ..figures import heatmap
from ..registry import generated
from ..snippets import versions
from ..tables import matrix_table, notebook_only

RECORD = GENERATED / "attention_that_learns" / "run.json"
# What the figures depend on: the training module and the one function of the package it calls
# (the positional encoding), and PyTorch's version. The record holds them under a hash of those.
_KEYED = ("selfattn_ref/training/reversal.py", "selfattn_ref/torch/positional.py")
DECIMALS = 2  # the heatmaps' cells: six columns fit a phone's width
# As in selfattn_ref.training.reversal, which the build does not import (a test holds them equal):
LENGTH = 6  # letters per sequence
SNAPSHOTS = (0, 25, 200)  # the steps the page shows, each with its table and heatmap


def record_key() -> str:
    """What the recorded figures were made from, as a hash (see ``_KEYED``)."""
    return training_record.content_key(ROOT, _KEYED, versions()["torch"])


def trained() -> dict:
    """The run's figures, from training it (once per process): the example sequence and a snapshot
    of each step the page shows."""
    from dataclasses import asdict

    from selfattn_ref.training import reversal  # PyTorch, imported on use

    run = reversal.experiment()
    train_ids, held_out = reversal.sequences()
    return {
        "learning_rate": reversal.LR,
        "weight_decay": reversal.WEIGHT_DECAY,
        "training_sequences": len(train_ids),
        "held_out_sequences": len(held_out),
        "example": run.example,
        "snapshots": [asdict(s) for s in run.snapshots],
    }


def recorded() -> dict | None:
    """The record as ``make update`` wrote it (or is about to), or None if there is none."""
    return training_record.recorded(RECORD)


def run() -> dict:
    """``{"key": ..., "run": {...}}``: the record, if it was made from the code as it is
    (:func:`record_key`), else the figures of a new training run (:func:`trained`)."""
    return training_record.figures(record_key(), recorded(), "run", trained)


@generated("attention_that_learns/run.json")
def _record() -> str:
    return training_record.text(run())


def snapshots() -> list[dict]:
    return run()["run"]["snapshots"]


def example_letters() -> list[str]:
    return run()["run"]["example"].split()


@source("attention_that_learns")
def _quantities() -> list[Quantity]:
    q = []
    tokens = example_letters()
    for s in snapshots():
        at = f"step {s['step']}"
        q += [
            Quantity(f"{at}: loss", s["loss"]),
            Quantity(f"{at}: accuracy", s["accuracy"], proportion=True),
            Quantity(f"{at}: mean weight on the partner", s["partner_weight"], proportion=True),
            Quantity(f"{at}: mean weight next to the partner", s["neighbour_weight"], proportion=True),
            Quantity(f"{at}: least weight on a partner", s["least_partner_weight"], proportion=True),
        ]
        q += [
            Quantity(f"{at}: mean weight on the partner, query {i + 1}", w, proportion=True)
            for i, w in enumerate(s["partner_weight_by_query"])
        ]
        q += grid(f"{at}: weights", s["example"], tokens, tokens, proportion=True)
    settings = run()["run"]
    q += [
        Quantity("learning rate", settings["learning_rate"]),
        Quantity("weight decay", settings["weight_decay"]),
        Quantity("letters per sequence", LENGTH),
        Quantity("one weight of six equal ones", 1 / LENGTH, proportion=True),
        Quantity("loss of six equal weights, ln 6", math.log(LENGTH)),
    ]
    return q


@generated("attention_that_learns/progress.md")
def _progress() -> str:
    lines = [
        "| after step | loss | accuracy | mean weight on the partner | least weight on a partner |",
        "|---:|---:|---:|---:|---:|",
    ]
    for s in snapshots():
        cells = [
            str(s["step"]),
            num(s["loss"], 3),
            f"{num(100 * s['accuracy'], 1)}%",
            f"{num(100 * s['partner_weight'], 1)}%",
            f"{num(100 * s['least_partner_weight'], 1)}%",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    held_out = run()["run"]["held_out_sequences"]
    note = f"Each figure is over the {held_out} held-out sequences, all {LENGTH} positions of each."
    return "\n".join(lines) + "\n\n" + note + "\n"


def _heatmap(step: int) -> str:
    """The example's attention weights after ``step`` steps, as a heatmap whose cells print them (no
    table beside it: the three heatmaps are what the page compares); the notebook, which names the
    figure only, shows their table instead (tables.notebook_only)."""
    tokens = example_letters()
    (s,) = [s for s in snapshots() if s["step"] == step]
    title = f"attention weights of “{' '.join(tokens)}” after {step} training steps"
    table = matrix_table(s["example"], tokens, tokens, DECIMALS, "query ↓ key →")
    return heatmap(s["example"], tokens, tokens, DECIMALS, title=title) + "\n" + notebook_only(table)


def _register(step: int) -> None:
    generated(f"attention_that_learns/step_{step}_heatmap.md")(lambda: _heatmap(step))


for _step in SNAPSHOTS:
    _register(_step)


@topic_values("attention_that_learns")
def _exercise_values() -> dict:
    """What the page's exercises ask for (docs/exercises/attention-that-learns.toml), and known mistakes."""
    tokens = example_letters()
    out = {
        "n": LENGTH,
        "partner_of_2": LENGTH + 1 - 2,
        "n_minus_2": LENGTH - 2,
        "equal_weight": 1 / LENGTH,
        "equal_loss": math.log(LENGTH),
        "guess": 1 / LENGTH,
        "guess_of_all_letters": 1 / 8,
    }
    for s in snapshots():
        weights = {a: dict(zip(tokens, row, strict=True)) for a, row in zip(tokens, s["example"], strict=True)}
        out[f"step{s['step']}"] = {"weights": weights, "loss": s["loss"], "accuracy": s["accuracy"]}
        first = s["example"][0][LENGTH - 1]
        out[f"step{s['step']}"]["first_loss"] = -math.log(first)
        out[f"step{s['step']}"]["first_log10_loss"] = -math.log10(first)
    return out
