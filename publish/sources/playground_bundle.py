"""docs/playground.md from disk: the playground's modules as one classic script, gathered.

The bundle, docs/assets/playground/app.bundle.js, is written by :mod:`publish.playground_bundle`;
this module only registers it as a gathered file (:func:`publish.registry.gathered`, ignored by git):
every build, `make update` and `make example` write it, with the presets gathered from every example
(generated/playground/presets.json) and the limits (``limits.js``, which state.js and format.js
import) inlined as this run gives them, not as the files on disk were before.
"""

from __future__ import annotations

from pathlib import Path

from .. import GENERATED, playground_limits
from ..playground_bundle import ENTRY, bundle_path, playground_bundle
from ..registry import current, gathered, name_of, with_banner
from .playground import RELPATH


def as_this_run_writes(*gathered_before: Path) -> dict[Path, str]:
    """The files a bundle inlines or imports that this run writes, as it writes them: the files
    ``gathered_before`` (by producers registered before the bundle's) and the limits."""
    limits = GENERATED / playground_limits.RELPATH
    return {
        **{path: current(path) for path in gathered_before},
        limits: with_banner(playground_limits.limits_module(), limits, name_of(playground_limits.limits_module)),
    }


@gathered(bundle_path(ENTRY), writer=playground_bundle)
def _playground_bundle(every) -> str:
    return playground_bundle(as_this_run_writes(GENERATED / RELPATH))
