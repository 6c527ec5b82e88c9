"""Which files and folders a tool may read, write or remove: those of its own tree, reached through
no symbolic link, and (for a file) regular ones. The one decision, made here in the library (its
loader of worked examples reads only such files, :func:`read_text`) and asked by the publishing
tools for everything they read, write, remove or build into (``publish/files.py`` calls these).

- :func:`path_problem` says why a path may not be used: it is outside the tree (after ``..`` is
  resolved), its real location is, it is reached through a symbolic link below the tree's root (a
  folder on the way, or the path itself, even a link that leads back inside), or it is not what it
  should be (a file that is not a regular one: a folder, a FIFO, a device; a folder that is a file).
- :func:`read_text` reads a file that :func:`path_problem` allows, opened so that nothing can
  change that in between: never through a final link (``O_NOFOLLOW``), never waiting on a FIFO
  (``O_NONBLOCK``), and checked to be a regular file once open.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ._validate import excerpt


class UnsafeRead(ValueError):
    """A file a tool may not read; the message says which and why."""


def shown(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` where it is below it, else whole."""
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return str(path)


def path_problem(path: Path | str, root: Path | str, *, folder: bool = False) -> tuple[Path, str | None]:
    """(``path`` made absolute with ``..`` resolved, and why it may not be used in ``root``, or None).

    ``folder``: ``path`` is a folder to write into (a build's output, a cache), which may be missing
    or be a folder, but not ``root`` itself; else a file, which may be missing or be a regular file."""
    root = Path(os.path.abspath(root))
    real_root = Path(os.path.realpath(root))
    given = Path(os.getcwd(), path)  # ".." kept: the links before it are checked as the system follows them
    target = Path(os.path.normpath(given))
    for base in (root, real_root):
        if target.is_relative_to(base):
            break
    else:
        return target, f"{target} is outside {root}"
    if target == base:
        return target, f"{target} is the folder {base} itself, not {'a folder' if folder else 'a file'} in it"
    step = Path(given.anchor)
    for part in given.parts[1:]:
        step = step / part
        inside = Path(os.path.normpath(step))
        if inside != base and inside.is_relative_to(base) and part != ".." and step.is_symlink():
            what = ("the folder" if folder else "the file") if inside == target else "a folder on the way"
            return (
                target,
                f"{shown(inside, base)} is a symbolic link (to {excerpt(os.readlink(step))}), {what}: not followed",
            )
    if not Path(os.path.realpath(target)).is_relative_to(real_root):
        return target, f"{shown(target, base)} is really {excerpt(os.path.realpath(target))}, outside {real_root}"
    if folder and target.exists() and not target.is_dir():
        return target, f"{shown(target, base)} is not a folder"
    if not folder and target.exists() and not target.is_file():
        return target, f"{shown(target, base)} is not a regular file"
    return target, None


def read_bytes(path: Path | str, root: Path | str) -> bytes:
    """The bytes of the file ``path`` of ``root``; UnsafeRead naming it and the reason when
    :func:`path_problem` refuses it or it is not a regular file once open; OSError when it cannot be
    read (missing, no permission)."""
    target, problem = path_problem(path, root)
    if problem is None and not os.path.lexists(target):
        raise FileNotFoundError(2, "No such file or directory", str(path))
    if problem:
        raise UnsafeRead(f"not read: {problem}")
    fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise UnsafeRead(f"not read: {shown(target, Path(os.path.abspath(root)))} is not a regular file")
        return f.read()


def read_text(path: Path | str, root: Path | str) -> str:
    """As :func:`read_bytes`, decoded as UTF-8 (UnicodeDecodeError if it is not)."""
    return read_bytes(path, root).decode("utf-8")


def named(folder: Path, suffix: str) -> list[Path]:
    """The entries of ``folder`` whose names end in ``suffix`` (".toml"), sorted; UnsafeRead for
    one whose name ends in it in another case (``x.TOML``), which a tool would otherwise leave out
    without a word."""
    found = []
    for path in sorted(folder.iterdir()):
        if path.name.endswith(suffix) and len(path.name) > len(suffix):
            found.append(path)
        elif path.name.lower().endswith(suffix) and len(path.name) > len(suffix):
            stem = path.name[: -len(suffix)]
            raise UnsafeRead(f"{path}: the file's name ends in '{suffix}', in lower case: rename it {stem}{suffix}")
    return found
