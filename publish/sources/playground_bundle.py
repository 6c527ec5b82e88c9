"""docs/playground.md from disk: the playground's modules as one classic script, for `make update`.

The bundle, docs/assets/playground/app.bundle.js, is written by :mod:`publish.playground_bundle`;
this module only registers it, so that `make update` writes it and the tests that hold generated
files up to date check it. It inlines the presets and the limits (``limits.js``, which state.js and
format.js import) as this run of `make update` generates them, not as the files on disk were before.
"""

from __future__ import annotations

from .. import GENERATED, playground_limits
from ..playground_bundle import ENTRY, bundle_path, playground_bundle
from ..registry import generated_file, name_of, with_banner
from .playground import RELPATH, _presets_json


@generated_file(bundle_path(ENTRY), writer=playground_bundle)
def _playground_bundle() -> str:
    presets, limits = GENERATED / RELPATH, GENERATED / playground_limits.RELPATH
    return playground_bundle(
        {
            presets: with_banner(_presets_json(), presets, name_of(_presets_json)),
            limits: with_banner(playground_limits.limits_module(), limits, name_of(playground_limits.limits_module)),
        }
    )
