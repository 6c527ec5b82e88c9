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
