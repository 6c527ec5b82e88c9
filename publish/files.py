"""Writing and removing the files the tools own, safely: the one place that decides.

- :func:`unsafe` says why a path may not be written or removed: it is outside the tree the tool
  owns (the repository, or the folder it was given), its real location is, or it is reached
  through a symbolic link (a folder on the way, or the file itself), or it is not a regular file.
  Every writer and remover of ``publish/`` asks it (:func:`atomic_write`, :func:`remove`), and
  ``make update`` asks it for its whole plan before it writes anything; what it refuses is reported,
  never followed.
- :func:`atomic_write` writes so that a reader never sees half a file: the whole content under a
  temporary name in the same folder, then renamed into place (on failure the temporary file is
  removed). The file keeps the mode of the one it replaces; a new one gets the umask's (0644 under
  the usual 022), not the 0600 of a private temporary file.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from . import ROOT


class UnsafePath(ValueError):
    """A path that a tool may not write or remove; the message says which and why."""


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return str(path)


def _checked(path: Path | str, root: Path | str) -> tuple[Path, str | None]:
    """(``path`` made absolute, ``..`` resolved, and why it is not safe, or None)."""
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
        return target, f"{target} is the folder {base} itself, not a file in it"
    step = Path(given.anchor)
    for part in given.parts[1:]:
        step = step / part
        inside = Path(os.path.normpath(step))
        if inside != base and inside.is_relative_to(base) and part != ".." and step.is_symlink():
            what = "the file" if inside == target else "a folder on the way"
            return target, f"{_shown(inside, base)} is a symbolic link (to {os.readlink(step)}), {what}: not followed"
    if not Path(os.path.realpath(target)).is_relative_to(real_root):
        return target, f"{_shown(target, base)} is really {os.path.realpath(target)}, outside {real_root}"
    if target.exists() and not target.is_file():
        return target, f"{_shown(target, base)} is not a regular file"
    return target, None


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
        raise UnsafePath(f"not writing or removing {_shown(target, Path(os.path.abspath(root)))}: {problem}")
    return target


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
