"""A copy of the repository, for the tests and ``make bench`` to run the project's commands in (a
build, ``make update``, ``make example``, the Makefile's targets) without touching the repository:
:func:`repo_copy`, the files a fresh clone would have plus work in progress (what git tracks and
what it does not ignore, :func:`project_files`), and :func:`run_in` to run a command in it with its
own package first on the path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from publish import ROOT
from publish.mkdocs.page_weight import katex_fonts


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


def repo_copy(dest: Path, *, compiled: bool = True, repo: Path = ROOT) -> Path:
    """A copy of the project's files (:func:`project_files`) in ``dest``/clone, each with its time
    (no .git, no venv, no build, nothing git ignores). Returns that folder.

    ``compiled``: with Python's compiled modules (__pycache__/) of the modules copied, where the
    repository has them: each is used only while its source has the time and size it was compiled
    from (which the copy keeps), and names the file it is loaded from. Not pytest's rewritten test
    modules, which would name the repository's files in the tracebacks of the tests run in the
    copy. Without them (``make test-targets``' copy, the bench's), the copy is what a fresh clone
    holds. Run the repository's Python in it with :func:`run_in` (or bench/common.py's mkdocs_env)."""
    copy = dest / "clone"
    for name in project_files(repo):
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, target)
        if compiled and name.endswith(".py"):
            source = repo / name
            for pyc in (source.parent / "__pycache__").glob(f"{source.stem}.*.pyc"):
                if "-pytest-" not in pyc.name:
                    (target.parent / "__pycache__").mkdir(exist_ok=True)
                    shutil.copy2(pyc, target.parent / "__pycache__" / pyc.name)
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
