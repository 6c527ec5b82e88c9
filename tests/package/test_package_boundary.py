"""selfattn_ref is the library and nothing else: it imports nothing of the project outside itself
(never the publishing tools, ``publish``), nothing but the standard library, NumPy and, in
``selfattn_ref.torch`` and ``selfattn_ref.training`` only, PyTorch; and the wheel built from the
repository holds the library and its data (the examples, the language model's weights), nothing else."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "selfattn_ref"
SOURCES = sorted(PACKAGE.rglob("*.py"))
TORCH_FOLDERS = ("selfattn_ref/torch/", "selfattn_ref/training/")


def imported_modules(path: Path) -> set[str]:
    """The top-level names a module imports (absolute imports; relative ones stay inside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
    return names


def test_every_module_is_read():
    rel = {p.relative_to(REPO).as_posix() for p in SOURCES}
    assert {"selfattn_ref/attention.py", "selfattn_ref/topics/masking.py", "selfattn_ref/training/word_order.py"} <= rel


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_imports_only_the_standard_library_numpy_and_torch(path):
    rel = path.relative_to(REPO).as_posix()
    allowed = set(sys.stdlib_module_names) | {"numpy", "selfattn_ref"}
    if rel.startswith(TORCH_FOLDERS):
        allowed.add("torch")
    outside = imported_modules(path) - allowed
    assert not outside, f"{rel} imports {sorted(outside)}: the library imports nothing of the project outside itself"


def test_the_check_finds_an_import_of_the_publishing_tools(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nfrom publish.generate.tables import generated\nfrom . import attention\n")
    assert imported_modules(bad) == {"numpy", "publish"}


def test_importing_every_module_loads_neither_publish_nor_any_project_folder():
    """In a fresh interpreter whose path holds only the repository root: import every module of the
    package (the NumPy ones first, which must not load torch either)."""
    code = """
import importlib, pkgutil, sys
import selfattn_ref

def walk(package, skip=()):  # pkgutil.walk_packages would import the skipped packages to look inside
    for m in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if m.name in skip:
            continue
        module = importlib.import_module(m.name)
        if m.ispkg:
            walk(module, skip)

walk(selfattn_ref, skip=("selfattn_ref.torch", "selfattn_ref.training"))
print("torch" in sys.modules)
walk(selfattn_ref)
project = {"publish", "tests", "snippets", "overrides", "bench", "pages", "snippet_checks"}
print(sorted(project & {name.split(".")[0] for name in sys.modules}))
print(len([n for n in sys.modules if n.startswith("selfattn_ref.")]))
"""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    torch_loaded, project, count = out.stdout.split("\n")[:3]
    assert torch_loaded == "False", "importing the NumPy modules loads torch"
    assert project == "[]", f"importing selfattn_ref loads {project}"
    assert int(count) >= 20  # every module was imported


@pytest.mark.slow
def test_the_wheel_holds_only_the_library_and_its_data(tmp_path):
    """Built from a copy of what the wheel is made of (pyproject.toml, README.md, selfattn_ref/), so
    that the build writes nothing into the checkout."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(PACKAGE, src / "selfattn_ref", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), "."]
    proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    outside = [n for n in names if not n.startswith("selfattn_ref/") and ".dist-info/" not in n]
    assert not outside, f"the wheel holds files outside the library: {outside}"
    assert all(n.split("/")[0].startswith("selfattn_ref") for n in names)
    expected = {p.relative_to(REPO).as_posix() for p in SOURCES}
    expected |= {p.relative_to(REPO).as_posix() for p in (*PACKAGE.rglob("*.toml"), *PACKAGE.rglob("*.json"))}
    assert expected <= set(names), f"missing from the wheel: {sorted(expected - set(names))}"
    assert {"selfattn_ref/examples/the_cat_sat.toml", "selfattn_ref/examples/rnn/the_cat_sat.toml"} <= set(names)
    assert "selfattn_ref/language_model.json" in names  # the trained weights, which the library loads
    assert {n for n in names if n.startswith("selfattn_ref/")} == expected, "the wheel holds files the package lacks"
