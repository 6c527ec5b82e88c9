"""The suite runs torch's and NumPy's thread pools at the size tests/conftest.py sets (one thread
per process unless OMP_NUM_THREADS is given): set before either library was imported, so that the
workers xdist runs one per core do not each start a pool of one thread per core. And a worker ends
within execnet's grace (tests/conftest.py, pytest_sessionfinish)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import torch

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"


def test_torch_runs_the_pool_conftest_sets():
    assert "OMP_NUM_THREADS" in os.environ, "tests/conftest.py sets OMP_NUM_THREADS before the tests import torch"
    assert torch.get_num_threads() == int(os.environ["OMP_NUM_THREADS"]), (torch.get_num_threads(), os.cpu_count())


def test_what_the_tests_start_inherits_it():
    """Kernels, builds and snippet runs are processes the tests start: they get the same pool."""
    code = "import torch; print(torch.get_num_threads())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout
    assert int(out) == int(os.environ["OMP_NUM_THREADS"])


def test_a_worker_leaves_pytests_last_collections_little_to_walk(pytestconfig):
    """Issue 51: passing runs ended with a PytestUnraisableExceptionWarning about a KeyboardInterrupt
    in a garbage collector's callback. pytest's five full collections at a worker's end walked every
    object the tests made (6 s on a busy 2-core machine), and execnet sends SIGINT to a worker still
    running 5 s after the run's process ends it. tests/conftest.py collects once, and freezes what
    is left, before a worker says it has finished: those collections then walk next to nothing."""
    import gc
    from types import SimpleNamespace

    plugins = pytestconfig.pluginmanager.get_plugins()  # (sys.modules' "conftest" may be another folder's)
    [conftest] = [m for m in plugins if getattr(m, "__file__", None) and Path(m.__file__).resolve() == CONFTEST]
    made = [[i] for i in range(100_000)]  # what the tests made and keep to the end
    assert len(gc.get_objects()) > len(made)
    conftest.pytest_sessionfinish(SimpleNamespace(config=SimpleNamespace()), 0)  # the run's own process: nothing
    assert len(gc.get_objects()) > len(made)
    conftest.pytest_sessionfinish(SimpleNamespace(config=SimpleNamespace(workerinput={"workerid": "gw0"})), 0)
    assert len(gc.get_objects()) < 10_000, len(gc.get_objects())
    del made
