"""CONTRIBUTING.md's quick check of a worked example, `pytest -k <slug>`, runs every test the full
suite would fail for that example's spec (tests/support/quick_checks.py; issue 51: the quick checks passed
and `make test` failed in the playground's tests)."""

from __future__ import annotations

import subprocess
import sys

from publish import ROOT

from quick_checks import EVERY_EXAMPLE, every_example_tests

COMMAND = "`.venv/bin/python -m pytest -n auto -k <slug>`"


def test_every_test_that_checks_every_example_at_once_is_declared():
    found, declared = set(every_example_tests()), set(EVERY_EXAMPLE)
    assert not found - declared, (
        "these tests check every worked example at once: add them to EVERY_EXAMPLE in tests/support/quick_checks.py, "
        f"so that the quick check of an example (-k <slug>) runs them: {sorted(found - declared)}"
    )
    assert not declared - found, f"no longer tests of every example: remove them from EVERY_EXAMPLE: {declared - found}"


def test_k_and_an_examples_name_select_them():
    """Through pytest itself, on a file of the package layer: the tests of every example it declares
    answer to each example's name, as tests/conftest.py makes them (some 0.5 s of collecting)."""
    declared = [t for t in EVERY_EXAMPLE if t.startswith("tests/package/test_examples_spec.py::")]
    args = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", "-p", "no:xdist"]
    proc = subprocess.run([*args, "-k", "dog_bites_man", "tests/package/test_examples_spec.py"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    selected = {line.split("[")[0] for line in proc.stdout.splitlines() if "::" in line}
    assert len(declared) >= 2 and set(declared) <= selected, proc.stdout + proc.stderr


def test_contributing_gives_the_quick_check():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert COMMAND in text and "tests/support/quick_checks.py" in text
