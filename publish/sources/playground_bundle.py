"""docs/playground.md from disk: the playground's modules as one classic script, gathered.

The bundle, docs/assets/playground/app.bundle.js, is written by :mod:`publish.playground_bundle`;
this module only registers it as a gathered file (:func:`publish.registry.gathered`, ignored by git):
every build, `make update` and `make example` write it, with the presets gathered from every example
(generated/playground/presets.json) and the limits (``limits.js``, which state.js and format.js
import) inlined as this run gives them, not as the files on disk were before.
"""

from __future__ import annotations

from .. import GENERATED, playground_limits
from ..playground_bundle import ENTRY, bundle_path, playground_bundle
from ..registry import current, gathered, name_of, with_banner
from .playground import RELPATH


@gathered(bundle_path(ENTRY), writer=playground_bundle)
def _playground_bundle(every) -> str:
    presets, limits = GENERATED / RELPATH, GENERATED / playground_limits.RELPATH
    return playground_bundle(
        {
            presets: current(presets),  # gathered just before, in this run
            limits: with_banner(playground_limits.limits_module(), limits, name_of(playground_limits.limits_module)),
        }
    )
