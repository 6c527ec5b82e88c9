"""Suite-wide rules.

With CI set (as .ci/run does), a test that would be skipped fails instead: a tool that is
missing in CI is a broken set-up, not a reason to pass.

`make test` runs the suite on every core with pytest-xdist (``-n auto --dist loadgroup``). Tests
that share an expensive session fixture go to one worker together, so that it is made once: the
tests of the built site (the strict build, which the browser tests serve) form the group "site",
and the snippet tests (which share one run of each snippet) the group "snippets".
"""

import functools
import os
import subprocess
import sys
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which must run every test: {reason}"


REPO = Path(__file__).resolve().parents[1]
SITE_FIXTURES = {"strict_build", "site", "offline_site"}


def pytest_itemcollected(item):
    """The xdist group of each test, set as it is collected (pytest-xdist reads the groups in its
    own pytest_collection_modifyitems, which would run before a conftest's)."""
    path = Path(str(item.path)).relative_to(REPO / "tests").as_posix()
    if SITE_FIXTURES & set(getattr(item, "fixturenames", ())) or path.startswith("browser/"):
        item.add_marker(pytest.mark.xdist_group("site"))
    elif path.startswith("snippets/"):
        item.add_marker(pytest.mark.xdist_group("snippets"))


def pytest_sessionstart(session):
    """A bad worked-example spec stops the whole run at once, with the message naming the file,
    the key and the line (the tests parametrized over the examples could not be collected)."""
    from selfattn_ref import examples

    try:
        examples.load_all()
    except examples.SpecError as exc:
        raise pytest.UsageError(f"bad worked-example spec: {exc}") from None


@dataclass(frozen=True)
class Build:
    proc: subprocess.CompletedProcess
    dir: Path  # the built site
    base_url: str  # its site_url: http://127.0.0.1:PORT/, where the browser tests serve it


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature is http.server's
        pass


@pytest.fixture(scope="session")
def site_server(tmp_path_factory: pytest.TempPathFactory):
    """(the folder the site is built into, an HTTP server for it bound to a free port on 127.0.0.1,
    not serving yet): the port is known before the build, so that site_url can name it."""
    site = tmp_path_factory.mktemp("site") / "site"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    yield site, httpd
    httpd.server_close()


@pytest.fixture(scope="session")
def strict_build(site_server) -> Build:
    """`mkdocs build --strict` of the repository, once per session: every notebook is executed
    in it, which is most of its time. The tests that read the built site share it, and the browser
    tests serve it (tests/browser/conftest.py), so site_url is the address it is served at."""
    site, httpd = site_server
    base_url = f"http://127.0.0.1:{httpd.server_address[1]}/"
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": base_url}
    env.pop("NOTEBOOKS_EXECUTE", None)  # the site as published: notebooks executed
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    return Build(proc, site, base_url)
