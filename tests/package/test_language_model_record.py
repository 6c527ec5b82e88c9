"""Layer 1: the language model's record, which no build trains (publish/generate/topics/language_model.py):
the weights in the package (selfattn_ref/language_model.json) and the run's figures
(docs/generated/language_model/run.json) are under the key of the code as it is, and agree with what
the library computes from those weights; the model beats the bigram baseline on the held-out
sentences. Cheap: nothing is trained here. The bench trains again and holds the record to what
training gives (bench/run.py, [training])."""

from __future__ import annotations

import base64
import json
import struct

import numpy as np
import pytest

from publish.generate.topics import language_model as source
from selfattn_ref import corpus
from selfattn_ref import language_model as lm

KEY = source.record_key()
RECORD = source.recorded()
WEIGHTS = source.recorded_weights()


def test_the_record_and_the_weights_are_made_from_the_code_as_it_is():
    assert RECORD is not None and WEIGHTS is not None
    for path, data in ((source.RECORD, RECORD), (source.WEIGHTS, WEIGHTS)):
        assert data["key"] == KEY, f"{path} was made from other code: run `make update` (it trains, some 20 s)"
    assert WEIGHTS["_generated_by"] == "publish.generate.topics.language_model:weights_text"
    assert source.run() == {"key": KEY, "run": RECORD["run"]}  # used as it is: nothing trains


def test_a_kept_weights_file_names_its_writer_where_it_is_now(monkeypatch):
    """make update keeps the weights file when its key is the code's (nothing trains), and still
    writes its banner as the writer is named now: a file whose banner names the writer's old place
    (publish.sources.language_model, before issue 52's move) comes back with the new name and the
    same bytes otherwise."""
    from publish.generate import registry

    text = source.WEIGHTS.read_text(encoding="utf-8")
    writer = registry.name_of(source.weights_text)
    old = text.replace(json.dumps(writer), json.dumps("publish.sources.language_model:weights_text"), 1)
    assert old != text
    monkeypatch.setattr(source, "trained", lambda: pytest.fail("the key is the code's: nothing trains"))
    with registry.pending({source.WEIGHTS: old}):
        assert source.weights_text() == text
        assert registry.writer_of(source.WEIGHTS, source.weights_text()) == writer


def test_the_key_follows_the_code(monkeypatch, tmp_path):
    import shutil

    for rel in source._KEYED:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source.ROOT / rel, tmp_path / rel)
    monkeypatch.setattr(source, "ROOT", tmp_path)
    assert source.record_key() == KEY
    module = tmp_path / "selfattn_ref" / "corpus.py"
    module.write_text(module.read_text(encoding="utf-8").replace("SEED = 53\n", "SEED = 54\n"), encoding="utf-8")
    assert source.record_key() != KEY


def test_the_weights_file_is_float32_in_base64_as_its_format_says():
    """Read without the library, as the playground's JavaScript will: each tensor's base64 is its
    float32 numbers, little-endian, row by row."""
    assert WEIGHTS["format"] == lm.FORMAT
    entry = WEIGHTS["tensors"]["W_out"]
    raw = base64.b64decode(entry["float32"])
    values = struct.unpack(f"<{len(raw) // 4}f", raw)
    assert entry["shape"] == [16, 43] and len(values) == 16 * 43
    assert np.array_equal(np.array(values).reshape(16, 43), lm.load().W_out)
    assert WEIGHTS["vocabulary"] == list(corpus.VOCABULARY) and WEIGHTS["num_heads"] == 2
    assert [sorted(b) for b in WEIGHTS["blocks"]] == [sorted(f for f in lm.BlockWeights.__dataclass_fields__)] * 2


def test_the_recorded_figures_are_what_the_library_computes_from_the_weights():
    held_out, training = corpus.held_out(), corpus.training()
    recorded = RECORD["run"]["held_out"]
    computed = {
        "model": lm.evaluate(held_out),
        "bigram": corpus.bigram_scores(held_out, corpus.bigram_counts(training), recorded_smoothing()),
        "best": corpus.best_possible(held_out),
    }
    for who, scores in computed.items():
        assert set(recorded[who]) == set(scores) == set(corpus.GROUPS)
        for group, s in scores.items():
            r = recorded[who][group]
            assert r["positions"] == s.positions and r["accuracy"] == s.accuracy, (who, group)
            assert r["loss"] == pytest.approx(s.loss, rel=1e-12), (who, group)
    settings = RECORD["run"]["settings"]
    assert settings["parameters"] == lm.load().parameters == 8091
    assert RECORD["run"]["corpus"]["held_out_sentences"] == len(held_out)


def recorded_smoothing() -> float:
    return RECORD["run"]["settings"]["bigram_smoothing"]


def test_the_model_beats_the_bigram_baseline_on_held_out_sentences():
    held = RECORD["run"]["held_out"]
    model, bigram, best = held["model"], held["bigram"], held["best"]
    assert model["all"]["loss"] < bigram["all"]["loss"] - 0.3
    assert model["all"]["accuracy"] > bigram["all"]["accuracy"] + 0.1
    for group in ("after bank", "after it"):  # where the previous word cannot tell and the context can
        assert model[group]["accuracy"] == 1.0 and bigram[group]["accuracy"] <= 2 / 3
        assert model[group]["loss"] < 0.01 < 0.68 < bigram[group]["loss"]
    for group in ("bank", "it", "sat"):  # and on every kind of sentence, by a clear margin
        assert model[group]["loss"] < bigram[group]["loss"] - 0.3
    for group in corpus.GROUPS:  # no model beats the generator's own odds
        assert model[group]["loss"] >= best[group]["loss"]


def test_the_loss_curve_falls_from_chance():
    curve = RECORD["run"]["curve"]
    steps = [p["step"] for p in curve]
    assert steps[0] == 0 and steps[-1] == RECORD["run"]["settings"]["steps"] and steps == sorted(steps)
    assert 3.5 < curve[0]["train_loss"] < 4.5  # about ln 43 = 3.76 before training: each word about as likely
    assert curve[-1]["train_loss"] < 0.55 and curve[-1]["held_out_loss"] < 0.55
    assert json.loads(json.dumps(curve)) == curve


def test_the_held_out_curve_flattens_without_turning_up():
    """What the page may say of the curve: the held-out loss falls with the training loss and ends
    within 0.01 of its lowest point and of the training loss (no held-out loss rising as the
    training loss falls, the mark of sentences learnt by heart)."""
    curve = RECORD["run"]["curve"]
    lowest = min(p["held_out_loss"] for p in curve)
    last = curve[-1]
    assert last["held_out_loss"] - lowest < 0.01
    assert abs(last["held_out_loss"] - last["train_loss"]) < 0.01
    assert all(p["held_out_loss"] < 0.6 for p in curve if p["step"] >= 100)
