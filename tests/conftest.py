"""Suite-wide rules.

With CI set (as .ci/run does), a test that would be skipped fails instead: a tool that is
missing in CI is a broken set-up, not a reason to pass.
"""

import os
import subprocess
import sys
from dataclasses import dataclass
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


@pytest.fixture(scope="session")
def strict_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """`mkdocs build --strict` of the repository, once per session: every notebook is executed
    in it, which is most of its time. The tests that read the built site share it."""
    site = tmp_path_factory.mktemp("strict-build") / "site"
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("NOTEBOOKS_EXECUTE", None)  # the site as published: notebooks executed
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    return Build(proc, site)
