"""The notebooks' kernels (publish/harness/notebook_cache.py): a notebook's run is kept under a key
of its bytes and the kernel's environment and used only for the same cells, a kernel that dies at
start is started again (and a run fails with each reason when it keeps dying), an error in the
notebook's code is not run again, a changed notebook is. Tests of the harness (moved from
tests/content/test_notebooks.py, where they were marked tooling); tests/content/test_notebooks.py runs
every notebook with it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from publish import ROOT
from publish.harness import notebook_cache


def test_a_cache_entry_for_other_cells_is_not_used(tmp_path):
    """An entry whose cells are not the notebook's (a damaged or forged file under the right
    name) is not served: the notebook runs again."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print(1)", id="a")]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    cache = notebook_cache.Cache(tmp_path / "cache", "python3")
    assert cache.lookup(path) is None
    other = nbformat.v4.new_notebook()
    other.cells = [nbformat.v4.new_code_cell("print(2)", id="a")]
    cache.path(path).parent.mkdir(parents=True)
    nbformat.write(other, cache.path(path))
    assert cache.lookup(path) is None
    nbformat.write(nb, cache.path(path))
    assert cache.lookup(path) == cache.path(path)


def _one_cell(tmp_path: Path, code: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(code, id="a")]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    return path


def _failing_first(monkeypatch, times: int, error: Exception) -> list[int]:
    """NotebookClient.async_execute raising ``error`` the first ``times`` calls (a kernel that died
    at start), then running; returns the list of calls."""
    from nbclient import NotebookClient

    calls = []
    execute = NotebookClient.async_execute

    async def flaky(self, *args, **kwargs):
        calls.append(1)
        if len(calls) <= times:
            raise error
        return await execute(self, *args, **kwargs)

    monkeypatch.setattr(NotebookClient, "async_execute", flaky)
    return calls


def test_a_kernel_that_dies_at_start_is_started_again_from_a_caller_that_runs_an_event_loop(tmp_path, monkeypatch):
    """A kernel that dies before it answers (its port taken by another process as it started: seen
    in a fresh clone's run) is started again, and the notebook runs. The caller runs an event loop
    already (a test after a Playwright one on its worker: its synchronous API keeps a loop running),
    and the kernel still runs: asyncio.run alone refused to. (One test, one real kernel, for both.)"""
    import asyncio
    import concurrent.futures

    path = _one_cell(tmp_path, "print(6 * 7)")
    calls = _failing_first(monkeypatch, 2, RuntimeError("Kernel died before replying to kernel_info"))
    cache = notebook_cache.Cache(tmp_path / "cache", "python3")

    async def caller():
        asyncio.get_running_loop()  # a loop runs in the caller's thread
        return cache.ensure([path])[path]

    # The caller's loop in a thread of its own: this worker's thread may run Playwright's already.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        executed = pool.submit(asyncio.run, caller()).result()
    assert len(calls) == 3 and cache.runs == 1
    assert "42" in executed.read_text(encoding="utf-8")
    assert nbformat.read(executed, as_version=4).cells[0].outputs[0].text.strip() == "42"


def test_a_kernel_that_keeps_dying_fails_the_run_with_each_reason(tmp_path, monkeypatch):
    path = _one_cell(tmp_path, "print(1)")
    calls = _failing_first(monkeypatch, 99, RuntimeError("Kernel died before replying to kernel_info"))
    with pytest.raises(RuntimeError, match=r"n\.ipynb: its kernel failed 3 times: RuntimeError: Kernel died"):
        notebook_cache.Cache(tmp_path / "cache", "python3").ensure([path])
    assert len(calls) == notebook_cache.KERNEL_ATTEMPTS


def test_a_real_kernel_that_dies_at_start_fails_quietly_after_its_tries(tmp_path):
    """A kernelspec whose process exits at once: a kernel started for each try, then one error
    naming the notebook, and no traceback from nbclient's clean-up at the interpreter's exit."""
    spec = tmp_path / "jupyter" / "kernels" / "dying"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-c", "import sys; sys.exit(3)", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "dying", "language": "python"}))
    path = _one_cell(tmp_path, "print(1)")
    script = (
        "import sys; from pathlib import Path; from publish.harness import notebook_cache as c\n"
        "c.KERNEL_ATTEMPTS = 2  # two are enough to see a second kernel started, and quicker\n"
        "try:\n"
        f"    c.Cache(Path({str(tmp_path / 'cache')!r}), 'dying').ensure([Path({str(path)!r})])\n"
        "except RuntimeError as exc:\n"
        "    print(exc); sys.exit(1)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JUPYTER_PATH": str(tmp_path / "jupyter")}
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "n.ipynb: its kernel failed 2 times" in proc.stdout, proc.stdout
    assert "Exception ignored" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_an_error_in_the_notebooks_code_is_not_run_again(tmp_path, monkeypatch):
    path = _one_cell(tmp_path, "raise ValueError('in the notebook')")
    calls = _failing_first(monkeypatch, 0, RuntimeError("unused"))
    with pytest.raises(RuntimeError, match="in the notebook"):
        notebook_cache.Cache(tmp_path / "cache", "python3").ensure([path])
    assert len(calls) == 1


def test_a_changed_notebook_is_run_again_and_the_same_one_is_not(tmp_path):
    """The cell prints a word and a clock reading. The same bytes run twice show the same reading
    (the second time from the cache); changed bytes show the new word and a new reading (it ran
    again); the first bytes again, the first reading."""
    cache = notebook_cache.Cache(tmp_path / "executed", "python3")

    def run(word: str) -> str:
        path = _one_cell(tmp_path, f"import time\nprint({word!r}, time.time_ns())")
        return nbformat.read(cache.ensure([path])[path], as_version=4).cells[0].outputs[0].text.strip()

    first = run("first")
    assert first.startswith("first ") and run("first") == first and cache.runs == 1
    second = run("second")
    assert second.startswith("second ") and second.split()[1] != first.split()[1]
    assert run("first") == first and cache.runs == 2
    assert len(list((tmp_path / "executed").glob("*/n.ipynb"))) == 2
