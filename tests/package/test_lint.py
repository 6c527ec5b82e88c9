"""The code is linted and formatted with ruff (settings in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUFF = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=["check", "format"])
def test_ruff(command):
    if RUFF is None:
        pytest.skip("ruff is not installed (it is in requirements.lock)")
    proc = subprocess.run([RUFF, *command, "."], cwd=ROOT, capture_output=True, text=True)
    report = f"{proc.stdout}{proc.stderr}"
    assert proc.returncode == 0, f"ruff {' '.join(command)} found problems (fix with `make format`):\n{report}"


def test_ruff_skips_what_git_ignores_without_git(tmp_path):
    """Issue 51: ruff leaves out what .gitignore lists only in a git repository; in a copy without
    .git (make bench's, a tarball's) it checked the notebooks' kernel cache (.cache/) and a built
    site's notebooks, and failed where `make lint` passes. pyproject.toml excludes them itself:
    a file that fails both checks, put under each folder .gitignore names, is not checked."""
    if RUFF is None:
        pytest.skip("ruff is not installed (it is in requirements.lock)")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bad = "import os, sys\nx=1\n"  # unused imports (F401), and not formatted
    planted = []
    for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines():
        if not line.endswith("/") or line.startswith("#"):
            continue  # a comment, or files (*.pyc, the gathered JSON and JavaScript: ruff reads none of them)
        folder = tmp_path / line.strip("/").replace("*", "x")
        (folder / "sub").mkdir(parents=True, exist_ok=True)
        for path in (folder / "bad.py", folder / "sub" / "bad.py"):
            path.write_text(bad, encoding="utf-8")
            planted.append(path.relative_to(tmp_path).as_posix())
    assert len(planted) >= 2 * 12, planted
    (tmp_path / "checked.py").write_text(bad, encoding="utf-8")  # the control: this one is checked
    for command in (["check"], ["format", "--check"]):
        proc = subprocess.run([RUFF, *command, "--no-cache", "."], cwd=tmp_path, capture_output=True, text=True)
        report = proc.stdout + proc.stderr
        assert "checked.py" in report, report
        assert not [p for p in planted if p in report], report
