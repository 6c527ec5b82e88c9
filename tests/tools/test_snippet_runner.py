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


# --- a snippet that reads a file of the repository -------------------------------------------------


def test_a_recordings_fingerprint_covers_the_files_its_script_names(tmp_path):
    """The language model's scripts read its weights from the repository's file: a recording is
    made again when that file changes, as when the script does, and only the files the script names
    count (a path that is no file of the repository, or outside it, names nothing)."""
    from publish import ROOT, SNIPPETS
    from selfattn_ref import language_model as lm

    script = SNIPPETS / "next_word" / "next_word_numpy.py"
    assert sn.data_files(script.read_text(encoding="utf-8")) == [lm.DATA]
    assert sn.fingerprint(script, data={lm.DATA: "{}"}) != sn.fingerprint(script)
    assert sn.fingerprint(script, data={lm.DATA: lm.DATA.read_text(encoding="utf-8")}) == sn.fingerprint(script)
    other = SNIPPETS / "real_numbers" / "self_attention_numpy.py"
    assert sn.data_files(other.read_text(encoding="utf-8")) == []
    assert sn.fingerprint(other, data={lm.DATA: "{}"}) == sn.fingerprint(other)
    named = 'A = "selfattn_ref/language_model.json"\nB = "../../etc/passwd"\nC = "selfattn_ref/none.json"\n'
    assert sn.data_files(named) == [ROOT / "selfattn_ref" / "language_model.json"]


def test_make_update_runs_a_script_on_the_file_it_is_about_to_write():
    """When `make update` trains the language model again, the scripts that read its weights are
    recorded from the new weights, in the same run: a copy of the script runs beside the file as it
    is about to be written. Here the vocabulary of that file is reversed, and the ids printed follow."""
    import json

    from publish import SNIPPETS
    from publish.generate import update
    from selfattn_ref import language_model as lm

    data = json.loads(lm.DATA.read_text(encoding="utf-8"))
    data["vocabulary"] = data["vocabulary"][::-1]
    script = SNIPPETS / "next_word" / "next_word_numpy.py"
    (result,) = update._run_pending([(script, None)], {lm.DATA: json.dumps(data)})
    assert result.returncode == 0, result.stderr
    assert result.path == script and result.stdout.startswith("ids: she 11, took 3, the 6, money 19,"), result.stdout
