"""The suite runs torch's and NumPy's thread pools at the size tests/conftest.py sets (one thread
per process unless OMP_NUM_THREADS is given): set before either library was imported, so that the
workers xdist runs one per core do not each start a pool of one thread per core."""

from __future__ import annotations

import os
import subprocess
import sys

import torch


def test_torch_runs_the_pool_conftest_sets():
    assert "OMP_NUM_THREADS" in os.environ, "tests/conftest.py sets OMP_NUM_THREADS before the tests import torch"
    assert torch.get_num_threads() == int(os.environ["OMP_NUM_THREADS"]), (torch.get_num_threads(), os.cpu_count())


def test_what_the_tests_start_inherits_it():
    """Kernels, builds and snippet runs are processes the tests start: they get the same pool."""
    code = "import torch; print(torch.get_num_threads())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout
    assert int(out) == int(os.environ["OMP_NUM_THREADS"])
