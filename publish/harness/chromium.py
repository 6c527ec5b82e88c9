"""The browser that the browser tests (tests/browser/) and `make bench` drive: Debian's Chromium
headless shell (the package chromium-headless-shell: Chromium's own headless build, the same
version and engine as the chromium package, without the browser around it; the build Playwright
runs for headless tests of its own), with the flags this machine needs. Written once here, read by
both. On this 2-core machine the browser layer took 228 s under the full browser (/usr/bin/chromium,
headless) and 155 s under the shell, with the same 173 tests passing. CHROMIUM= picks another."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell"))
# No sandbox (root in a container), no GPU, nothing in the background that would call out of the
# machine (component updates, sync, field trials): a page's requests are its own.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
