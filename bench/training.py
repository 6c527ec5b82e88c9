"""The small language model's training run (issue 53): how long it takes, and whether the record is
what it gives.

Run:  .venv/bin/python bench/training.py

Trains the model as ``make update`` does when the record's key changes
(:func:`publish.generate.topics.language_model.trained`: the run of
:mod:`selfattn_ref.training.language_model` and the figures scored from its weights), in this fresh
process, and prints one JSON line: the wall time of that call (PyTorch imported before the clock
starts), whether the weights and the figures are those recorded (the package's
``selfattn_ref/language_model.json`` and ``docs/generated/language_model/run.json``), where they
differ, and the weights file's size, raw and gzip-compressed (level 9). Budget: 2 minutes on the
2-core machine. The test suite only checks that the record's key is the code's
(tests/package/test_language_model_record.py); this retraining, some 20 seconds or more, is the
bench's.

bench/run.py (`make bench`) runs this script for its table. This is a benchmark, not a test:
nothing fails.
"""

from __future__ import annotations

import gzip
import json
import math
import sys
import time

from common import REPO

sys.path.insert(0, str(REPO))

BUDGET_SECONDS = 120.0


def differences(recorded, trained, where: str = "", rel: float = 1e-9) -> list[str]:
    """Where two JSON values differ: numbers beyond ``rel`` (relative), anything else at all."""
    if isinstance(recorded, dict) and isinstance(trained, dict):
        if recorded.keys() != trained.keys():
            return [f"{where or 'the top'}: keys {sorted(recorded)} != {sorted(trained)}"]
        return [d for k in recorded for d in differences(recorded[k], trained[k], f"{where}.{k}", rel)]
    if isinstance(recorded, list) and isinstance(trained, list):
        if len(recorded) != len(trained):
            return [f"{where}: {len(recorded)} items != {len(trained)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(recorded, trained, strict=True))
            for d in differences(a, b, f"{where}[{i}]", rel)
        ]
    numbers = (int, float)
    if isinstance(recorded, numbers) and isinstance(trained, numbers) and not isinstance(recorded, bool):
        return (
            []
            if math.isclose(recorded, trained, rel_tol=rel, abs_tol=1e-15)
            else [f"{where}: {recorded!r} != {trained!r}"]
        )
    return [] if recorded == trained else [f"{where}: differs"]


def measure() -> dict:
    import torch  # noqa: F401 - imported before the clock starts

    from publish.generate.topics import language_model as source

    start = time.perf_counter()
    trained = source.trained()
    seconds = time.perf_counter() - start
    record, weights = source.recorded() or {}, source.recorded_weights() or {}
    figures = {k: v for k, v in trained.items() if k != "weights"}
    kept = {k: v for k, v in weights.items() if k not in ("_generated_by", "key")}
    raw = source.WEIGHTS.read_bytes()
    return {
        "seconds": seconds,
        "key_current": record.get("key") == weights.get("key") == source.record_key(),
        "figures": differences(record.get("run"), figures)[:5],
        "weights": differences(kept, trained["weights"], rel=0)[:5],
        "bytes": len(raw),
        "gzipped": len(gzip.compress(raw, compresslevel=9, mtime=0)),
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
