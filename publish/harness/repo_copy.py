"""Copies of the repository, for the tests and ``make bench`` to run the project's commands in (a
build, ``make update``, ``make example``, the Makefile's targets) without touching the repository.

Three ways, side by side (issue 52 has them made one, item 2):

- :func:`repo_copy`: the tests' copy, as a contributor's clone holds it, compiled modules
  included, and :func:`run_in` to run a command in it with its own package first on the path;
- :func:`fresh_clone`: the copy the make-targets tests run ``make`` in (tests/tools/
  test_make_targets.py), without compiled modules;
- :func:`copy_repo`: the bench's copy, of the files git tracks or does not ignore
  (:func:`project_files`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from publish import ROOT
from publish.mkdocs.page_weight import katex_fonts

# --- the tests' copy (the walk-through's, the bad specs', the safe files' and the hostile specs' tests) -------------

IGNORED = shutil.ignore_patterns(
    ".git", ".venv", "site", "site-offline", "site-zensical", ".pytest_cache", ".cache", ".ruff_cache", ".hypothesis",
    "*-pytest-*.pyc",
)  # fmt: skip


def repo_copy(tmp_path: Path) -> Path:
    """A copy of the repository as a contributor's clone would hold it (no .git, no venv, no build).

    With Python's compiled modules (__pycache__/), where the repository has them: each is used only
    while its source has the time and size it was compiled from (which copytree keeps), and names
    the file it is loaded from. Not pytest's rewritten test modules (IGNORED), which would name the
    repository's files in the tracebacks of the tests run in the copy."""
    copy = tmp_path / "clone"
    shutil.copytree(ROOT, copy, ignore=IGNORED, symlinks=True)
    return copy


def run_in(copy: Path, *args: str, timeout: float = 900, **env: str) -> subprocess.CompletedProcess:
    """Run a command in the copy with this interpreter's environment, importing the copy's package.

    Python writes its compiled modules in the copy even where PYTHONDONTWRITEBYTECODE is set (as
    `make test` lets it, Makefile), so that the commands after the first do not compile the project
    again; a build takes its subset KaTeX fonts from the repository's cache, whose key is the font
    and the characters (publish/mkdocs/page_weight/katex_fonts.py), not subsetting the 20 fonts again."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environ.update({"PYTHONPATH": str(copy), "NO_MKDOCS_2_WARNING": "1"})
    environ.update({katex_fonts.CACHE_DIR_ENV: str(ROOT / katex_fonts.CACHE_DIR), **env})
    return subprocess.run(list(args), cwd=copy, env=environ, capture_output=True, text=True, timeout=timeout)


# --- the make-targets tests' copy (tests/tools/test_make_targets.py) --------------------------------------

CLONE_IGNORED = shutil.ignore_patterns(
    ".git", ".venv", "site", "site-offline", "site-zensical", "__pycache__", ".pytest_cache", ".cache", ".ruff_cache",
    ".hypothesis", "node_modules",
)  # fmt: skip


def fresh_clone(dest: Path) -> Path:
    """A copy of the repository as a fresh clone holds it, in ``dest``/clone (no .git, no venv, no
    build, no compiled module)."""
    copy = dest / "clone"
    shutil.copytree(ROOT, copy, ignore=CLONE_IGNORED, symlinks=True)
    return copy


# --- the bench's copy (bench/common.py's temporary_copy) ----------------------------------------------


def project_files(repo: Path = ROOT) -> list[str]:
    """The files a fresh clone would have plus work in progress: tracked files that still exist
    and untracked files git does not ignore (`git ls-files --cached --others --exclude-standard`)."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted({f for f in out.split("\0") if f and (repo / f).is_file()})


def copy_repo(dest: Path, repo: Path = ROOT) -> Path:
    """Copy the project's files (see project_files) into ``dest``/repo and return that folder.
    The copy has no .venv: run this repository's Python in it with bench/common.py's
    mkdocs_env(root=copy), and check where the package comes from with its package_location()."""
    root = dest / "repo"
    for name in project_files(repo):
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, target)
    return root
