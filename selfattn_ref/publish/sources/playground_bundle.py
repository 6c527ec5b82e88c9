"""docs/playground.md from disk: the playground's modules as one classic script, for `make update`.

The bundle, docs/assets/playground/app.bundle.js, is written by publish/playground_bundle.py (a
publishing tool beside the package); this module only registers it, so that `make update` writes it
and the tests that hold generated files up to date check it. It inlines the presets as this run of
`make update` generates them, not as the file on disk was before.
"""

from __future__ import annotations

import importlib
import sys

from .. import DOCS, GENERATED, ROOT
from ..tables import generated_file
from .playground import RELPATH, _presets_json


def _bundler():
    try:
        return importlib.import_module("publish.playground_bundle")
    except ModuleNotFoundError:  # run from outside the repository's root (the selfattn-ref script)
        sys.path.insert(0, str(ROOT))
        return importlib.import_module("publish.playground_bundle")


@generated_file((DOCS / "assets" / "playground" / "app.bundle.js").relative_to(DOCS).as_posix())
def _playground_bundle() -> str:
    return _bundler().playground_bundle({GENERATED / RELPATH: _presets_json()})
