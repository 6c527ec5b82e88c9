"""Fixtures for the browser layer: the built site, served on 127.0.0.1, and Debian's Chromium
headless shell.

One build per run and one browser per worker: the build is the run's strict build
(tests/conftest.py), served by a threaded http.server on a free port. The port is taken before
the build so that site_url (SITE_URL) matches the server, which Material's instant navigation
needs (it follows only links found in sitemap.xml, whose entries come from site_url).
Playwright's own browser downloads cannot run here, so pytest-playwright's `browser` fixture is
pointed at Chromium's headless shell (publish/harness/chromium.py); without it the tests skip (and under
CI=true the suite's conftest turns that skip into a failure).

Off screen, the site does not lay out display math and tables (content-visibility: auto in
extra.css) until the reader scrolls near them. The browser contexts made here lay them out
anyway (LAY_OUT_ALL), so that a test that measures every formula and table on a page measures
what the reader sees once there, not a skipped box; test_offscreen.py checks the skipping itself
in contexts made with ``skip_offscreen=True``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from offscreen import LAY_OUT_ALL
from playground_checks import Watch
from playground_page import SharedPage

from publish.harness.chromium import CHROMIUM, CHROMIUM_ARGS  # the browser and flags make bench uses too

REPO = Path(__file__).resolve().parents[2]


def _context_options(kwargs: dict) -> tuple[dict, bool]:
    kwargs = dict(kwargs)
    return kwargs, bool(kwargs.pop("skip_offscreen", False))


@dataclass(frozen=True)
class Site:
    dir: Path  # the built site
    base_url: str  # http://127.0.0.1:PORT/

    def url(self, html: Path | str) -> str:
        """The URL under which the server shows a built file (foo/index.html -> BASE/foo/)."""
        rel = Path(html).relative_to(self.dir).as_posix() if Path(html).is_absolute() else str(html)
        if rel == "index.html" or rel.endswith("/index.html"):
            rel = rel[: -len("index.html")]
        return self.base_url + rel

    def html_files(self) -> list[Path]:
        """Every page of the built site (404.html included: it is served too)."""
        return sorted(p for p in self.dir.rglob("*.html") if "assets" not in p.relative_to(self.dir).parts)


@pytest.fixture(scope="session")
def site(strict_build) -> Site:
    """The run's strict build (tests/conftest.py), served on 127.0.0.1 at its site_url by the run's
    server (the same for every worker)."""
    proc = strict_build.proc
    assert proc.returncode == 0, (
        f"mkdocs build --strict failed with exit code {proc.returncode}:\n{proc.stdout}{proc.stderr}"
    )
    return Site(dir=strict_build.dir, base_url=strict_build.base_url)


@pytest.fixture(scope="session")
def offline_site(offline_build) -> Path:
    """The OFFLINE=true build (`make offline`), meant to be opened from disk, once per run
    (tests/conftest.py)."""
    build, proc = offline_build
    assert proc.returncode == 0, (
        f"{' '.join(build.cmd)} (env {build.env}) failed with exit code {proc.returncode}:\n{proc.stdout}{proc.stderr}"
    )
    return build.site


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options, pointed at Debian's Chromium headless shell (publish/harness/chromium.py)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium-headless-shell (`make chromium`)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    # Wide enough for Material's left navigation sidebar (>= 76.25em). The colour preference is
    # Playwright's default, light, unless a test asks for color_scheme="dark".
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


@pytest.fixture
def new_context(new_context):
    """pytest-playwright's context factory, with a 10 s default timeout instead of 30 s, laying out
    what is off screen (LAY_OUT_ALL) unless ``skip_offscreen=True``."""

    def make(**kwargs):
        kwargs, skip_offscreen = _context_options(kwargs)
        context = new_context(**kwargs)
        context.set_default_timeout(10_000)
        if not skip_offscreen:
            context.add_init_script(LAY_OUT_ALL)
        return context

    return make


@pytest.fixture(scope="module")
def module_context(browser, browser_context_args):
    """Browser contexts for a module's shared pages (pytest-playwright's and ``new_context`` are one
    per test): each with the session's options, updated by the keyword arguments given, and the same
    10 s default timeout as ``new_context`` and, unless ``skip_offscreen=True``, LAY_OUT_ALL; all
    closed when the module ends."""
    made = []

    def make(**kwargs):
        kwargs, skip_offscreen = _context_options(kwargs)
        context = browser.new_context(**{**browser_context_args, **kwargs})
        context.set_default_timeout(10_000)
        if not skip_offscreen:
            context.add_init_script(LAY_OUT_ALL)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


# --- the playground's page, one per module (tests/browser/test_playground*.py) ---------------------


@pytest.fixture(scope="module")
def playground_context(module_context):
    """One browser context for the module's playground page (pytest-playwright's is one per test)."""
    return module_context()


@pytest.fixture(scope="module")
def shared_page(playground_context, site) -> SharedPage:
    """One page on the playground for the module (on each xdist worker), loaded in full once and
    put back to that state before each test (tests/support/playground_page.py)."""
    page = playground_context.new_page()
    page.set_default_timeout(10_000)
    shared = SharedPage(page, site.base_url)
    yield shared
    page.close()


@pytest.fixture
def pg(shared_page):
    """The module's page as a fresh load of playground/ shows it, watched for problems."""
    page = shared_page.page
    watch = Watch().attach(page)
    shared_page.reset()
    yield page, watch
    watch.detach(page)
