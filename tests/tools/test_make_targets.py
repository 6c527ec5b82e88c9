"""Every `make` target the README names works on a clean checkout, run as a contributor runs it.

`make test-targets` runs this file (`make test` leaves it out; CI, .ci/run, runs both); each other
target is run here, for real, and a failure names the target. The ones that write into the tree
(update, example, offline, serve, zensical) run in one copy of the repository as a fresh clone holds
it (no .venv, no build, no caches), with this venv (VENV=) and the copy's own package first on the
path (PYTHONPATH=); lint, test-fast and bench only read, and run in the repository. Each is cut to
what proves that the target works, not to what it would take to redo other tests' work:

- test-fast: collected (--collect-only): the layers package, snippets and content, without the
  tests marked slow (the other tests of a file with slow ones are selected);
- serve: started on a free port (PORT=), and stopped once it logs "Serving on" (the first build is
  done);
- zensical: compared with the strict build the suite has made (ZENSICAL_ARGS="--mkdocs-site");
- bench --quick: one figure, one page, of that same build (--only pages --pages --site).

They run after the strict build (the notebooks it executed are then in the repository's
.cache/notebooks/, which the copy's builds use) on one xdist worker, one after another.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from publish.harness.repo_copy import repo_copy

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from common import stop_group  # noqa: E402  (bench/common.py)

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent
TIMEOUT = 600  # s for one target

pytestmark = [pytest.mark.slow, pytest.mark.targets, pytest.mark.xdist_group("make-targets")]


def make(target: str, cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """``make <target> VENV=<this venv> *args`` in ``cwd``; its output. Fails naming the target."""
    cmd = ["make", "--no-print-directory", target, f"VENV={VENV}", *args]
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    proc = subprocess.run(cmd, cwd=cwd, env=environ, capture_output=True, text=True, timeout=TIMEOUT)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"`make {target}` failed (exit {proc.returncode}) in {cwd}:\n{output[-3000:]}"
    return output


@pytest.fixture(scope="module", autouse=True)
def venv_is_set_up():
    """Each target depends on `venv`: with this venv up to date, make runs none of its install
    steps. If it is not (requirements.lock changed since), refuse rather than reinstall the
    environment the tests run in."""
    proc = subprocess.run(["make", "-q", f"VENV={VENV}", str(VENV / ".installed")], cwd=ROOT, capture_output=True)
    if proc.returncode != 0:
        pytest.fail(f"{VENV} is out of date with requirements.lock or pyproject.toml: run `make venv` first")


@pytest.fixture(scope="module")
def clone(tmp_path_factory, strict_build) -> tuple[Path, dict[str, str]]:
    """A copy of the repository as a fresh clone holds it, and the environment to run make in it:
    its own package first on the path."""
    copy = repo_copy(tmp_path_factory.mktemp("make-targets"), compiled=False)
    env = {"PYTHONPATH": str(copy)}
    return copy, env


def test_make_lint():
    out = make("lint", ROOT)
    assert "All checks passed!" in out and "already formatted" in out


def test_make_test_fast_leaves_out_the_browser_layer_and_the_slow_tests():
    """Its command line, collecting: the folders tests/package, tests/snippets and tests/content,
    not tests/browser nor tests/tools, and of those not the tests marked slow (the rest of a file
    with slow tests is selected)."""
    addopts = " ".join(["--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"])
    out = make("test-fast", ROOT, env={"PYTEST_ADDOPTS": addopts})
    ids = [line for line in out.splitlines() if "::" in line]
    layers = {"/".join(i.split("/")[:2]) for i in ids}
    assert layers == {"tests/package", "tests/snippets", "tests/content"}, out[-2000:]
    assert not [i for i in ids if "test_the_walkthrough_adds_a_checked_page" in i], out[-2000:]
    assert [i for i in ids if "test_the_pages_claim_sample_is_the_line_it_says_it_is" in i], out[-2000:]


def test_make_test_leaves_out_only_these_targets():
    """`make test` collects every layer, browser included, but not this file (make test-targets)."""
    files = ["tests/package/test_cli.py", "tests/browser/test_search.py", "tests/tools/test_make_targets.py"]
    addopts = " ".join(["--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *files])
    out = make("test", ROOT, env={"PYTEST_ADDOPTS": addopts})
    ids = [line for line in out.splitlines() if "::" in line]
    assert {i.split("::")[0] for i in ids} == set(files[:2]), out[-2000:]


def test_make_update(clone):
    copy, env = clone
    out = make("update", copy, env=env)
    assert "error" not in out.lower(), out


def test_make_example(clone):
    copy, env = clone
    make("example", copy, "NAME=make_target_check", "TITLE=Made by make", env=env)
    assert (copy / "selfattn_ref" / "examples" / "make_target_check.toml").is_file()
    assert (copy / "docs" / "examples" / "make_target_check.md").is_file()


def test_make_offline(clone):
    copy, env = clone
    out = make("offline", copy, env=env)
    assert "Open site-offline/index.html" in out
    # From disk, pages are files (the offline plugin turns off directory URLs).
    assert (copy / "site-offline" / "index.html").is_file() and (copy / "site-offline" / "playground.html").is_file()


def test_make_build_and_offline_refuse_a_linked_output_folder(clone, tmp_path):
    """A symlinked site/ or site-offline/ had `make build` / `make offline` empty the link's target
    and write there (issue 51, severe 2): refused with one message, before anything is deleted."""
    copy, env = clone
    for target, folder in (("build", "site"), ("offline", "site-offline")):
        elsewhere = tmp_path / folder
        elsewhere.mkdir()
        (elsewhere / "keep.txt").write_text("theirs\n", encoding="utf-8")
        kept = copy / f"{folder}.kept"
        if (copy / folder).exists():
            (copy / folder).rename(kept)
        (copy / folder).symlink_to(elsewhere)
        try:
            cmd = ["make", "--no-print-directory", target, f"VENV={VENV}"]
            environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
            proc = subprocess.run(cmd, cwd=copy, env=environ, capture_output=True, text=True, timeout=TIMEOUT)
        finally:
            (copy / folder).unlink()
            if kept.exists():
                kept.rename(copy / folder)
        out = proc.stdout + proc.stderr
        assert proc.returncode != 0 and "Traceback" not in out, out
        assert f"{folder} is a symbolic link (to " in out and "the folder: not followed" in out, out
        assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt"], target


def test_make_zensical_prints_its_gap_report(clone, strict_build):
    copy, env = clone
    out = make("zensical", copy, f"ZENSICAL_ARGS=--mkdocs-site {strict_build.dir}", env=env)
    assert "# MkDocs " in out and " vs Zensical " in out
    assert "- pages in both: " in out and "- search index entries: MkDocs " in out
    assert (copy / "site-zensical" / "sitemap.xml").read_text(encoding="utf-8").count("<loc>") > 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_make_serve_serves_after_its_first_build(clone):
    copy, env = clone
    port = _free_port()  # PORT= (8000 is make serve's own, and may be taken)
    cmd = ["make", "--no-print-directory", "serve", f"VENV={VENV}", f"PORT={port}"]
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
    proc = subprocess.Popen(cmd, cwd=copy, env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)  # fmt: skip
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line.rstrip())
            if f"Serving on http://127.0.0.1:{port}/" in line:
                break
    finally:
        stop_group(proc)
    log = "\n".join(lines)
    assert any(f"Serving on http://127.0.0.1:{port}/" in line for line in lines), f"`make serve` did not serve:\n{log}"
    assert not [line for line in lines if "ERROR" in line or "WARNING" in line], log


@pytest.mark.browser
def test_make_bench_quick_measures_a_page(strict_build):
    out = make(
        "bench",
        ROOT,
        f"BENCH_ARGS=--quick --only pages --pages transformer-block/ --site {strict_build.dir}",
    )
    assert "page /transformer-block/: bytes · gzip · load event · ÷ the same <article> in bare Material" in out
    assert "floor page (bare Material, first article)" in out and "ERROR" not in out, out[-3000:]
