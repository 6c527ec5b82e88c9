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
This module only records and registers.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import cache

from ... import GENERATED, ROOT
from .. import training_record
from ..registry import current, generated, generated_file, name_of, with_banner, writer_of
from ..snippets import versions

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
