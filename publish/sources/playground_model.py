"""docs/playground.md's language-model mode: the trained weights for the browser, and the mode's bundle.

The mode (docs/assets/playground/model_app.js, with its forward pass in language_model.js) runs the
site's small language model in the reader's browser, on the weights the package keeps,
``selfattn_ref/language_model.json``. Two files are gathered for it, as the playground's presets and
bundle are (:func:`publish.registry.gathered`: git ignores them; every build, ``make update`` and
``make example`` write them), so that the weights are not kept in git twice:

- ``docs/generated/playground/language_model.json``: the package's file, every key but its banner
  as it is (the tensors the same base64 text, so the same float32 numbers), one key a line;
- ``docs/assets/playground/model_app.bundle.js``: the mode's modules as a classic script, with those
  weights inlined, which the playground's bundle loads from disk when the reader opens the mode
  (app.js asks for the mode with ``import("./model_app.js")``: :mod:`publish.playground_bundle`).

Nothing here is loaded by a reader who does not open the mode.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import GENERATED
from ..playground_bundle import ENTRY, bundle, bundle_path
from ..registry import current, gathered, name_of
from .language_model import WEIGHTS
from .playground_bundle import as_this_run_writes

RELPATH = "playground/language_model.json"
MODEL_ENTRY = ENTRY.with_name("model_app.js")


def weights_json(every=None) -> str:
    """The package's weights file as the playground fetches it (the registry adds the banner)."""
    text = current(WEIGHTS)
    if text is None:
        raise ValueError(f"{WEIGHTS.name} is missing: run `make update`")
    data = json.loads(text)
    data.pop("_generated_by", None)
    return (
        "{\n"
        + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in data.items())
        + "\n}\n"
    )


gathered(GENERATED / RELPATH)(weights_json)


def model_app_bundle(overrides: dict[Path, str] | None = None) -> str:
    """The mode's bundle, docs/assets/playground/model_app.bundle.js; ``overrides`` gives the text of
    files by path (the weights and the limits as this run writes them)."""
    given = {Path(p).resolve(): t for p, t in (overrides or {}).items()}
    return bundle(
        MODEL_ENTRY, name_of(model_app_bundle), read=lambda p: given[p] if p in given else p.read_text(encoding="utf-8")
    )


@gathered(bundle_path(MODEL_ENTRY), writer=model_app_bundle)
def _model_app_bundle(every) -> str:
    return model_app_bundle(as_this_run_writes(GENERATED / RELPATH))
