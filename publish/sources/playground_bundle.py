"""docs/playground.md from disk: the playground's modules as one classic script, for `make update`.

The bundle, docs/assets/playground/app.bundle.js, is written by :mod:`publish.playground_bundle`;
this module only registers it, so that `make update` writes it and the tests that hold generated
files up to date check it. It inlines the presets as this run of `make update` generates them, not
as the file on disk was before.
"""

from __future__ import annotations

from .. import GENERATED
from ..playground_bundle import ENTRY, bundle_path, playground_bundle
from ..registry import generated_file, name_of, with_banner
from .playground import RELPATH, _presets_json


@generated_file(bundle_path(ENTRY), writer=playground_bundle)
def _playground_bundle() -> str:
    presets = GENERATED / RELPATH
    return playground_bundle({presets: with_banner(_presets_json(), presets, name_of(_presets_json))})
