"""The browser that the browser tests (tests/browser/) and `make bench` drive: Debian's Chromium,
with the flags this machine needs. Written once here, read by both."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
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
