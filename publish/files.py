"""Writing and removing the files the tools own, safely: the one place that decides.

- :func:`unsafe` says why a path may not be written or removed: it is outside the tree the tool
  owns (the repository, or the folder it was given), its real location is, or it is reached
  through a symbolic link (a folder on the way, or the file itself), or it is not a regular file.
  Every writer and remover of ``publish/`` asks it (:func:`atomic_write`, :func:`remove`), and
  ``make update`` asks it for its whole plan before it writes anything; what it refuses is reported,
  never followed.
- :func:`read_text` reads a source (a spec, an exercise, a page) only if it is a regular file of the
  repository reached through no link, and :func:`unsafe_folder` / :func:`check_folder` say whether a
  folder may be written into and emptied (a build's output, a cache: the build's hooks ask it before
  MkDocs cleans its output folder). The decision itself is the library's
  (:mod:`selfattn_ref._files`), whose loader of worked examples keeps it without importing this.
- :func:`atomic_write` writes so that a reader never sees half a file: the whole content under a
  temporary name in the same folder, then renamed into place (on failure the temporary file is
  removed). The file keeps the mode of the one it replaces; a new one gets the umask's (0644 under
  the usual 022), not the 0600 of a private temporary file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from selfattn_ref._files import UnsafeRead, named, path_problem, read_bytes, shown
from selfattn_ref._files import read_text as _read_text
from selfattn_ref._validate import excerpt

from . import ROOT

__all__ = [
    "SOURCES", "UnsafePath", "UnsafeRead", "atomic_write", "check", "check_folder", "check_sources", "named",
    "read_bytes", "read_text", "remove", "repository_entries", "unsafe", "unsafe_folder", "unsafe_sources",
    "unsafe_to_empty",
]  # fmt: skip


class UnsafePath(ValueError):
    """A path that a tool may not write or remove; the message says which and why."""


def _checked(path: Path | str, root: Path | str, folder: bool = False) -> tuple[Path, str | None]:
    """(``path`` made absolute, ``..`` resolved, and why it is not safe, or None): the library's
    decision (:func:`selfattn_ref._files.path_problem`), which its loader of worked examples keeps too."""
    return path_problem(path, root, folder=folder)


def unsafe(path: Path | str, root: Path | str = ROOT) -> str | None:
    """Why ``path`` may not be written or removed by a tool that owns ``root``, or None if it may.

    Refused: a path outside ``root`` (after ``..`` is resolved), one whose real location is outside
    it, one reached through a symbolic link below ``root`` (a folder on the way, or the path itself,
    even a link that leads back inside), and anything there that is not a regular file."""
    return _checked(path, root)[1]


def check(path: Path | str, root: Path | str = ROOT) -> Path:
    """The absolute path to write or remove for ``path``; UnsafePath naming it and the reason when
    :func:`unsafe` refuses it."""
    target, problem = _checked(path, root)
    if problem:
        raise UnsafePath(f"not writing or removing {shown(target, Path(os.path.abspath(root)))}: {problem}")
    return target


def read_text(path: Path | str, root: Path | str = ROOT) -> str:
    """The text of a source file (a spec, an exercise, a page) of ``root``, read only if it is a
    regular file reached through no symbolic link (:func:`selfattn_ref._files.read_text`);
    UnsafeRead (a ValueError) naming it and the reason otherwise."""
    return _read_text(path, root)


TEMP = Path(tempfile.gettempdir())  # the system's temporary folder


def unsafe_folder(path: Path | str, root: Path | str = ROOT, temp: Path | str | None = TEMP) -> str | None:
    """Why the folder ``path`` may not be written into (and emptied) by a tool of ``root``, or None:
    as :func:`unsafe`, for a folder (a build's output, a cache). A folder of the system's temporary
    folder is allowed too, but not that folder itself, and through no link below it: where
    ``mkdocs serve`` builds (a folder it makes there) and where the tests and the bench build
    (``temp``: that folder, None for none)."""
    target, problem = _checked(path, root, folder=True)
    if problem is None:
        return _holds_the_project(target, Path(os.path.abspath(root)))
    if temp is None:
        return problem
    temp = Path(temp)
    if any(target.is_relative_to(t) for t in (temp, Path(os.path.realpath(temp)))):
        return _checked(path, temp, folder=True)[1]  # (None, or why not even there)
    return problem


# The repository's own folders and files: what a build or a cache must never empty or write into
# (MkDocs empties its output folder first: `mkdocs build -d selfattn_ref` would delete the library).
# Output and caches go to folders of their own (site/, site-offline/, site-zensical/, .cache/, ...).
PROJECT = (
    ".ci", ".git", ".github", "CONTRIBUTING.md", "Makefile", "README.md", "bench", "docs", "mkdocs.yml",
    "overrides", "publish", "pyproject.toml", "requirements.lock", "scripts", "selfattn_ref", "snippets", "tests",
)  # fmt: skip


def _holds_the_project(target: Path, root: Path) -> str | None:
    """Why the folder ``target`` of ``root`` may not be emptied or written into as a whole because
    it is, or lies in, or holds, the project's own files (:data:`PROJECT`), or None."""
    if target == root:
        return f"{target} is the repository itself"
    top = target.relative_to(root).parts[0]
    if top in PROJECT:
        return f"{shown(target, root)} is a folder of the project's own files ({top}/), which a build would empty"
    return None


# What a build writes first into its output folder (MkDocs' and Material's static templates, right
# after the pages are read): a folder holding either was a build's output, which a build may empty.
BUILT = ("404.html", "sitemap.xml")
# But MkDocs copies the static files (assets/) between emptying the folder and writing those two: a
# build stopped in between (Ctrl-C) left a folder that the next build refused as someone's files.
# So a build under way marks its folder (:func:`mark_building`, once the folder passed its checks)
# and a finished one removes the mark (:func:`unmark_building`); a dot entry, which MkDocs never empties.
BUILDING = ".build-under-way"


def mark_building(folder: Path | str) -> None:
    """Mark ``folder`` (a build's output folder, already checked) as a build's, until the build ends:
    created if need be, the mark written through no link (O_NOFOLLOW)."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    os.close(os.open(Path(folder) / BUILDING, flags, 0o644))


def _regular(path: Path) -> bool:
    """Whether ``path`` is a regular file itself (a link to one is not)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def unmark_building(folder: Path | str) -> None:
    """Remove the mark of :func:`mark_building` (unlinking follows no link)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(Path(folder) / BUILDING)


def unsafe_to_empty(path: Path | str) -> str | None:
    """Why the folder ``path`` may not be emptied by a build (MkDocs removes every entry of its output
    folder whose name does not start with a dot), or None: it may if it does not exist, holds only
    such dot entries, holds what a build writes first (:data:`BUILT`), or the mark of a build that
    did not end (:data:`BUILDING`: stopped before it wrote those). Any other folder holds
    someone's files (`mkdocs build -d .venv`, or `-d notes`, would delete them), wherever it is."""
    target = Path(path)
    if not target.is_dir():
        return None
    with os.scandir(target) as entries:
        names = sorted(e.name for e in entries if not e.name.startswith("."))
    if not names or any(name in names for name in BUILT) or _regular(target / BUILDING):
        return None
    return (
        f"{excerpt(str(target))} holds files no build made (such as {excerpt(names[0])}), which a build would "
        f"delete: it is not empty and has no {' or '.join(BUILT)} of an earlier build"
    )


def check_folder(path: Path | str, what: str, root: Path | str = ROOT, emptied: bool = False) -> Path:
    """The absolute path of the folder ``path`` (``what`` names it in the message); UnsafePath when
    :func:`unsafe_folder` refuses it, or, if the build will empty it (``emptied``: its output
    folder), :func:`unsafe_to_empty`, before anything in it is written or removed."""
    problem = unsafe_folder(path, root)
    if problem is None and emptied:
        problem = unsafe_to_empty(_checked(path, root, folder=True)[0])
    if problem:
        raise UnsafePath(
            f"{what} {excerpt(str(path))} is refused: {problem}. A build and its caches write only into folders of "
            f"the repository ({Path(os.path.abspath(root))}) or of the system's temporary folder, reached through no "
            "symbolic link: remove the link, or give another folder"
        )
    return _checked(path, root, folder=True)[0]


# The folders whose files the tools and the build read as sources: pages and what they include,
# snippets, the worked examples' specs, the exercises (under docs/), the theme's overrides.
SOURCES = ("docs", "snippets", "selfattn_ref/examples", "overrides")
# But a page's `--8<-- "path"` (pymdownx.snippets, base_path ".") reads any file of the repository:
# the build checks all of it (:func:`repository_entries`), but for what no pull request can add and
# only the tools write (gitignored, holding links of their own: a virtual environment, npm's
# node_modules/.bin, the tools' caches) and git's own folder.
NOT_SOURCES = (".git", ".cache", "node_modules", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache")


def repository_entries(root: Path | str = ROOT) -> tuple[str, ...]:
    """The top-level entries of ``root`` that a page may include, for :func:`unsafe_sources`: all
    but :data:`NOT_SOURCES` and a virtual environment (a folder, or a link to one, with pyvenv.cfg)."""
    root = Path(root)
    with os.scandir(root) as entries:
        names = [e.name for e in entries if e.name not in NOT_SOURCES]
    return tuple(sorted(n for n in names if not (root / n / "pyvenv.cfg").is_file()))


def unsafe_sources(
    root: Path | str = ROOT, folders: tuple[str, ...] = SOURCES, reported: Callable[[Path], bool] | None = None
) -> list[str]:
    """Every entry of the source ``folders`` of ``root`` that no tool may read, with the reason: a
    symbolic link (MkDocs, the audit and the notebooks' generator would read the file it leads to,
    /proc/self/environ as a page) or anything but a folder or a regular file (a FIFO would hang
    the reader). Read with lstat, following no link: a few milliseconds for the whole tree.
    ``reported``: the entries a caller reports itself and reads not (``make update``'s generated
    files, which it leaves alone)."""
    root = Path(root)
    found = []
    todo = [root / f for f in folders if os.path.lexists(root / f)]
    while todo:
        folder = todo.pop()
        if not folder.is_symlink() and not folder.is_dir():
            if not folder.is_file():
                found.append(f"{shown(folder, root)} is not a regular file: not read")
            continue
        if folder.is_symlink():
            found.append(f"{shown(folder, root)} is a symbolic link (to {excerpt(os.readlink(folder))}): not read")
            continue
        with os.scandir(folder) as entries:
            for entry in entries:
                if reported is not None and reported(Path(entry.path)):
                    continue
                if entry.name in NOT_SOURCES[2:] and entry.is_dir(follow_symlinks=False):
                    continue  # (Python's and the tests' caches, anywhere)
                if entry.is_symlink():
                    target = excerpt(os.readlink(entry.path))
                    found.append(f"{shown(Path(entry.path), root)} is a symbolic link (to {target}): not read")
                elif entry.is_dir(follow_symlinks=False):
                    todo.append(Path(entry.path))
                elif not entry.is_file(follow_symlinks=False):
                    found.append(f"{shown(Path(entry.path), root)} is not a regular file: not read")
    return sorted(found)


def check_sources(root: Path | str = ROOT, reported: Callable[[Path], bool] | None = None) -> None:
    """UnsafeRead naming the first source no tool may read (:func:`unsafe_sources`) and how many
    there are; nothing is read before this passes (``make update``, every build)."""
    found = unsafe_sources(root, repository_entries(root), reported=reported)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise UnsafeRead(f"{found[0]}{more}: the sources hold only regular files; replace it with the file itself")


def atomic_write(path: Path, data: str | bytes, root: Path | str = ROOT) -> None:
    """``data`` (text, written as UTF-8 with its line ends as they are, or bytes) into ``path``,
    which must be safe to write in ``root`` (:func:`check`). The file keeps its mode, or gets the
    umask's if it is new."""
    path = check(path, root)
    keep = stat.S_IMODE(path.stat().st_mode) if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:  # a new file: 0666 less the umask, as open() gives it
            fd = os.open(tmp, flags, 0o666 if keep is None else 0o600)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))
            if keep is not None:
                os.fchmod(f.fileno(), keep)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def remove(path: Path, root: Path | str = ROOT) -> None:
    """Remove the file ``path``, which must be safe to remove in ``root`` (:func:`check`)."""
    check(path, root).unlink()
