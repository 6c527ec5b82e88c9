"""Suite-wide rules.

With CI set (as .ci/run does), a test that would be skipped fails instead: a tool that is
missing in CI is a broken set-up, not a reason to pass.

`make test` runs the suite on every core with pytest-xdist (``-n auto --dist loadgroup``). The
site is built once per run however many workers share it: the strict build (which the tests of
the built site read and the browser tests serve) and the offline build are started in the
background as soon as a worker has collected a test that needs one (the first worker to get
there starts it; see SharedBuild), while the workers run the other tests, which come first; the
tests of the built site come last and spread over every worker. One HTTP server serves the
strict build to all of them, from the process that started the run (pytest_configure), so that
its port, which site_url names, is known before the build. The snippet tests (which share one
run of each snippet) stay on one worker, the xdist group "snippets", with the package tests that
share a trained run with them (WITH_SNIPPETS).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

# The shared helpers are modules of tests/support/ (on the path: pyproject.toml, pythonpath); the
# fixtures of more than one layer are here, or in a plugin of that folder: the copy of the project
# that tests of content/ and tools/ build once (copy_build.py).
pytest_plugins = ["copy_build"]

IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")

# Every build the suite runs (the shared strict build, the copies of the project) leaves the numbers
# audit out (mkdocs.yml: publish.markdown.numbers_audit's `audit`): the suite audits every page itself, in
# tests/content/test_docs_numbers.py, so that a wrong number is reported once, not again by every test
# of a built site. That test file also builds a page with the audit on, as mkdocs.yml sets it.
os.environ["NUMBERS_AUDIT"] = "false"

# One thread per process for torch's and NumPy's thread pools (OpenMP, OpenBLAS), in the workers
# and in every kernel, build and snippet they start: xdist already runs one worker per core, and a
# pool of one thread per core in each worker oversubscribes the cores, its threads spinning while
# they wait for one another. Measured on 2 cores: `make test-fast` 73 s with the default pools,
# 45 s with one thread (user time 125 s -> 78 s), the same 3,611 tests passing. The site's numbers
# do not depend on it (the training runs set one thread themselves; the rest is too small for a
# pool to split). Set before either library is imported; a value given in the environment wins.
if not os.environ.get("OMP_NUM_THREADS", "").strip():
    os.environ["OMP_NUM_THREADS"] = "1"


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
STRICT_FIXTURES = {"strict_build", "site"}


def _needs(item) -> set[str]:
    """The builds a test needs: "strict" (the browser layer serves it), "offline"."""
    names = set(getattr(item, "fixturenames", ()))
    path = Path(str(item.path)).relative_to(REPO / "tests").as_posix()
    needs = set()
    if names & STRICT_FIXTURES or (path.startswith("browser/") and "offline_site" not in names):
        needs.add("strict")
    if "offline_site" in names:
        needs.add("offline")
    return needs


# Tests of the package that use the trained run a snippet's tests also use (the reversal task's
# experiment(), cached per process, some 4 s of training): on the snippets' worker too, so that a
# run trains it once, not once on each worker.
WITH_SNIPPETS = {"package/test_reversal.py"}


# A test that reads a build of the site (the strict build, the offline build: SharedBuild) waits for
# it, some 35 s of a core however quick the test itself: it is slow, and is marked so as it is
# collected (pytest_itemcollected). So `-m "not slow"` (make test-fast) selects none of them, and
# such a run builds nothing (it built the site for some 660 tests of the built site, which make test
# runs). Whether the test's own file marks it slow still orders the tests (pytest_collection_modifyitems).
SLOW_OF_ITS_OWN = pytest.StashKey[bool]()


@functools.cache
def _every_example() -> tuple[frozenset[str], tuple[str, ...]]:
    """(the tests that check every worked example at once, tests/support/quick_checks.py; every example's name)."""
    from selfattn_ref import examples

    from quick_checks import EVERY_EXAMPLE

    return frozenset(EVERY_EXAMPLE), tuple(examples.available())


def pytest_itemcollected(item):
    """The xdist group of each test, set as it is collected (pytest-xdist reads the groups in its
    own pytest_collection_modifyitems, which would run before a conftest's); and a test that checks
    every worked example at once answers to each one's name, so that `pytest -k <slug>`, the quick
    check of a worked example (CONTRIBUTING.md), runs it with the tests parametrized by that example."""
    every, slugs = _every_example()
    if item.nodeid.split("[")[0] in every:
        item.extra_keyword_matches.update(slugs)
    path = Path(str(item.path)).relative_to(REPO / "tests").as_posix()
    needs = _needs(item)
    if needs:
        item.stash[SLOW_OF_ITS_OWN] = item.get_closest_marker("slow") is not None
        item.add_marker(pytest.mark.slow)
    shares = path.startswith("snippets/") or path in WITH_SNIPPETS
    if shares and not needs and item.config.pluginmanager.hasplugin("xdist"):
        item.add_marker(pytest.mark.xdist_group("snippets"))


def _slow_of_its_own(item) -> bool:
    """Marked slow in its file (a test that reads a build is marked slow as it is collected)."""
    return item.stash.get(SLOW_OF_ITS_OWN, item.get_closest_marker("slow") is not None)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """The tests of a built site last, and in each part the slow ones first, so that no worker is
    left with a long test at the end (a stable sort: every worker collects the same order); the
    builds they need started now, in the background, while the other tests run."""
    items.sort(key=lambda item: (bool(_needs(item)), not _slow_of_its_own(item)))
    if config.option.collectonly:
        return
    for name in sorted(set().union(*map(_needs, items))):
        SharedBuild.of(config, name).start()


def pytest_collection_finish(session):
    """What exists once the tests are collected (the modules, torch's and hypothesis' among them,
    and the tests) lives to the end of the run: moved out of the garbage collector's sight
    (gc.freeze), so that its full collections, and the five at the end of the run with which
    pytest looks for unraisable exceptions, walk only what the tests make (make test-fast on 2
    cores: 11 CPU-s of collecting down to 7, 44.9 s down to 43.4 s, three runs each)."""
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """A process that builds a site for the run (SharedBuild) waits for the build to end (the others
    wait on it), or stops it if the run was interrupted.

    In a worker, before it tells the run's process that it has finished (pytest-xdist sends that
    after every other pytest_sessionfinish): the garbage collected once, and what is left frozen
    (gc.freeze). pytest then looks for unraisable exceptions with five full collections, which
    walked every object the tests made (some 260,000 a worker: 6 s after the end on a busy 2-core
    machine), and execnet interrupts a worker still running 5 s after the run's process ends it:
    it sends the worker SIGINT, whose KeyboardInterrupt landed in a garbage collector's callback and
    ended passing runs with a PytestUnraisableExceptionWarning naming nothing of the project."""
    for folder, thread in list(_BUILDING.items()):
        if exitstatus == pytest.ExitCode.INTERRUPTED:
            SharedBuild(folder, {}).stop()
        thread.join()
    if hasattr(session.config, "workerinput"):
        gc.collect()  # what the tests left as garbage, with pytest's unraisable-exception hook still on
        gc.freeze()


def _shared_root(config) -> Path:
    """A folder of this run that every worker sees: the run's basetemp (a worker's is a
    subfolder of it, named after the worker)."""
    base = config._tmp_path_factory.getbasetemp()
    return base.parent if hasattr(config, "workerinput") else base


_server = contextlib.ExitStack()  # the strict build's server, in the process that starts the run


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    """In the process that starts the run (the only one without xdist): the HTTP server of the
    strict build, on a free port of 127.0.0.1, serving from now on (a 404 until the site is built)."""
    if hasattr(config, "workerinput"):
        return
    from publish.harness.server import start, static_server  # the bench's too

    root = _shared_root(config)
    httpd, _ = _server.enter_context(static_server(root / "strict" / "site"))
    start(httpd)
    (root / "site-server.json").write_text(json.dumps({"port": httpd.server_address[1]}), encoding="utf-8")


def pytest_unconfigure(config):
    """In the process that started the run, once every worker is done: a build still running
    (the run was interrupted) is stopped, and the server closed."""
    if hasattr(config, "workerinput"):
        return
    for name in SharedBuild.NAMES:
        SharedBuild.of(config, name).stop()
    _server.close()


@dataclass(frozen=True)
class SharedBuild:
    """One `mkdocs build --strict` of the repository for the whole run, whichever worker asks, as
    pytest-xdist's documentation shares a session's data between workers: under a file lock
    (filelock), "if the result is there, read it, else make it". The first process to call
    start() takes the lock without waiting and builds in a thread of its own, in the background,
    holding the lock until the result (``result.json``: the exit code and the output) is written;
    result() waits for that thread, or in another process for the lock, then reads the result (and,
    given the lock with no result, the holder having died, builds itself). The build runs in its own
    process group (``pid``), which the run's process stops if the run is interrupted."""

    NAMES = ("strict", "offline")
    folder: Path  # <run's basetemp>/<name>/: site/, build.lock, pid, result.json
    env: dict

    @classmethod
    def of(cls, config, name: str) -> SharedBuild:
        root = _shared_root(config)
        if name == "strict":
            port = json.loads((root / "site-server.json").read_text(encoding="utf-8"))["port"]
            env = {"SITE_URL": f"http://127.0.0.1:{port}/"}  # the site as published
        else:  # `make offline`: meant to be opened from disk
            env = {"OFFLINE": "true"}
        return cls(root / name, env)

    @property
    def site(self) -> Path:
        return self.folder / "site"

    @property
    def cmd(self) -> list[str]:
        return [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(self.site)]

    def _lock(self) -> FileLock:
        self.folder.mkdir(parents=True, exist_ok=True)
        return FileLock(self.folder / "build.lock", thread_local=False)

    def start(self) -> None:
        if self.folder in _BUILDING:
            return
        lock = self._lock()
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return  # another process builds it
        if (self.folder / "result.json").is_file():
            lock.release()
            return

        def build() -> None:
            try:
                self._build()
            finally:
                lock.release()

        _BUILDING[self.folder] = threading.Thread(target=build, name=f"{self.folder.name}-build", daemon=True)
        _BUILDING[self.folder].start()

    def _build(self, timeout: float = 600) -> None:
        """Run the build and write its result.json (whole, then renamed)."""
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **self.env}
        proc = subprocess.Popen(
            self.cmd, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, start_new_session=True,
        )  # fmt: skip
        (self.folder / "pid").write_text(str(proc.pid), encoding="utf-8")
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
            result = {"returncode": proc.returncode, "stdout": stdout, "stderr": stderr}
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            result = {"returncode": None, "stdout": stdout, "stderr": f"timed out after {timeout:.0f} s\n{stderr}"}
        path = self.folder / "result.json"
        path.with_suffix(".tmp").write_text(json.dumps(result), encoding="utf-8")
        path.with_suffix(".tmp").replace(path)

    def result(self, timeout: float = 900) -> subprocess.CompletedProcess:
        """The build's outcome, once it has finished (started here if no one has)."""
        self.start()
        path = self.folder / "result.json"
        if (thread := _BUILDING.get(self.folder)) is not None:
            thread.join(timeout)
        else:
            try:
                with self._lock().acquire(timeout=timeout):
                    if not path.is_file():  # the process that held the lock ended without a result
                        self._build()
            except Timeout:
                pass
        if not path.is_file():
            raise TimeoutError(f"{' '.join(self.cmd)} (env {self.env}) gave no result in {timeout:.0f} s")
        result = json.loads(path.read_text(encoding="utf-8"))
        return subprocess.CompletedProcess(self.cmd, result["returncode"], result["stdout"], result["stderr"])

    def stop(self) -> None:
        pid = self.folder / "pid"
        if pid.is_file() and not (self.folder / "result.json").is_file():
            try:
                os.killpg(int(pid.read_text(encoding="utf-8")), signal.SIGTERM)
            except ProcessLookupError:
                pass


# The builds this process runs, in threads (SharedBuild.start), by folder.
_BUILDING: dict[Path, threading.Thread] = {}


# The folders a run writes into besides the temporary folder (pytest's cache, Hypothesis' examples,
# the notebooks' runs): a symbolic link there would have it write elsewhere (publish/files.py).
RUN_CACHES = {".pytest_cache": "pytest's cache", ".hypothesis": "Hypothesis' examples", ".cache": "the caches"}


def pytest_sessionstart(session):
    """A bad worked-example spec stops the whole run at once, with the message naming the file,
    the key and the line (the tests parametrized over the examples could not be collected), and so
    does a description's link to no page (as make update and the build); so does a cache folder
    that is a symbolic link, or a source that is one."""
    from publish.files import UnsafePath, UnsafeRead, check_folder, check_sources
    from publish.generate.example_pages import check_links  # the tests import it anyway: no cost of its own
    from selfattn_ref import examples

    try:
        for folder, what in RUN_CACHES.items():
            check_folder(REPO / folder, what, REPO)
        check_sources(REPO)
        check_links(examples.load_all())
    except examples.SpecError as exc:
        raise pytest.UsageError(f"bad worked-example spec: {exc}") from None
    except (UnsafePath, UnsafeRead) as exc:
        raise pytest.UsageError(str(exc)) from None


@dataclass(frozen=True)
class Build:
    proc: subprocess.CompletedProcess
    dir: Path  # the built site
    base_url: str  # its site_url: http://127.0.0.1:PORT/, where the browser tests serve it


@pytest.fixture(scope="session")
def strict_build(pytestconfig) -> Build:
    """`mkdocs build --strict` of the repository, once per run (SharedBuild; no build runs a
    notebook). The tests that read the built site share it, and the browser tests serve it (the
    run's server, pytest_configure), so site_url is the address it is served at."""
    build = SharedBuild.of(pytestconfig, "strict")
    return Build(build.result(), build.site, build.env["SITE_URL"])


@pytest.fixture(scope="session")
def offline_build(pytestconfig) -> tuple[SharedBuild, subprocess.CompletedProcess]:
    """`OFFLINE=true mkdocs build --strict` of the repository, once per run (SharedBuild), and how
    it ended; tests/browser/conftest.py's offline_site checks that it succeeded."""
    build = SharedBuild.of(pytestconfig, "offline")
    return build, build.result()
