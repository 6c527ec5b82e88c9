"""The snippet runner's fork server (publish/generate/snippets.py) gives each snippet what a fresh
interpreter would: the same output as a run in a new process, nothing left by the snippet before,
the blocked modules blocked, and the exit status and traceback of a failure."""

from __future__ import annotations

import pytest

from publish.generate import snippets as sn

PROBE = """\
import os, sys
import numpy as np
{torch}
print(__name__, os.path.basename(sys.argv[0]), os.getcwd() == os.path.dirname(os.path.abspath(__file__)))
print(hasattr(np, "left_behind"), "x" in globals())
print(sorted(m for m in sys.modules if m.startswith("selfattn_ref")), sys.modules.get("selfattn_ref", "absent"))
print(np.random.default_rng(0).random(2))
np.left_behind = True
x = 1
"""
TORCH = "import torch\nprint(torch.get_num_threads() > 0)\ntorch.manual_seed(123)"


def _both(path, monkeypatch):
    forked = sn._run(path, timeout=120)
    monkeypatch.setenv("SNIPPETS_FORK", "0")
    fresh = sn._run(path, timeout=120)
    monkeypatch.delenv("SNIPPETS_FORK")
    return forked, fresh


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_a_forked_run_is_a_fresh_interpreters_run(tmp_path, monkeypatch, kind):
    path = tmp_path / f"probe_{kind}.py"
    path.write_text(PROBE.format(torch=TORCH if kind == "torch" else ""), encoding="utf-8")
    first, fresh = _both(path, monkeypatch)
    assert first.returncode == fresh.returncode == 0, first.stderr + fresh.stderr
    assert first.stdout == fresh.stdout
    assert "False False" in first.stdout and "['selfattn_ref'] None" in first.stdout
    # Again, on the same server, after the first run set a module attribute, a global and a seed.
    again = sn._run(path, timeout=120)
    assert again.stdout == fresh.stdout


def test_unseeded_generators_differ_from_run_to_run_as_in_new_interpreters(tmp_path):
    """A snippet that forgot to seed prints other numbers on each run, as it would for a reader, so
    that its recording cannot match: a fork of one server does not freeze the server's state."""
    path = tmp_path / "unseeded_torch.py"
    path.write_text(
        "import random\nimport numpy as np\nimport torch\n"
        "print(random.random(), np.random.rand(), torch.rand(1).item())\n",
        encoding="utf-8",
    )
    runs = [sn._run(path, timeout=120).stdout.split() for _ in range(3)]
    for i in range(3):  # Python's, NumPy's and PyTorch's generator
        assert len({run[i] for run in runs}) == 3, runs


def test_failures_keep_their_status_and_traceback(tmp_path):
    raises = tmp_path / "raises_numpy.py"
    raises.write_text("print('before')\nraise ValueError('named')\n", encoding="utf-8")
    r = sn._run(raises, timeout=60)
    assert r.returncode == 1 and r.stdout == "before\n"
    assert "Traceback" in r.stderr and "ValueError: named" in r.stderr
    exits = tmp_path / "exits_numpy.py"
    exits.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    assert sn._run(exits, timeout=60).returncode == 3
    blocked = tmp_path / "blocked_numpy.py"
    blocked.write_text("import torch\n", encoding="utf-8")
    r = sn._run(blocked, timeout=60)
    assert r.returncode == 1 and "torch" in r.stderr
