"""``python -m publish update``: rewrite generated files and recorded outputs, all or nothing.

A run computes everything before it writes anything (:func:`plan`): every generated file (from
the registry, :mod:`.registry`), the output of every snippet that changed (a changed generated
script runs from a temporary copy), the notebooks that show those outputs, what each recording was
made from (its fingerprint file beside it, :func:`.snippets.fingerprint_path`), and the files
gathered from every worked example (:func:`.registry.gathered`, which git ignores). Only then does
:func:`apply` write, each file to a temporary name first and then renamed over the old one,
generated files first, recordings next, their fingerprints after them and the gathered files last;
if a write fails, every file already written is put back.

It never deletes or overwrites a file it did not write: a file in a generated folder without the
banner of ``make update`` (:func:`.registry.made_by_us`) is left alone and reported, and a
generated file whose place is taken by such a file stops the run before anything is written.
Nor does it write, remove or read anything through a symbolic link or outside the repository
(:func:`publish.files.unsafe` decides): a file to remove there is left alone and reported, a file to
write there stops the run before anything is written.
"""

from __future__ import annotations

import fnmatch
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from selfattn_ref import examples
from selfattn_ref.cli import shown

from .. import ROOT, SNIPPETS
from ..files import UnsafeRead, atomic_write, check_sources, remove, unsafe
from . import producers, registry, snippets


class UpdateError(Exception):
    """``make update`` cannot run; nothing was written. The message says why, in one line."""


@dataclass
class Plan:
    writes: dict[Path, str] = field(default_factory=dict)  # in the order they are written
    removals: list[Path] = field(default_factory=list)  # generated files no longer produced
    foreign: list[Path] = field(default_factory=list)  # files of generated folders that we did not write
    refused: dict[Path, str] = field(default_factory=dict)  # files found there that are not safe to touch, and why
    recorded: list[Path] = field(default_factory=list)  # recordings among the writes
    gathered: list[Path] = field(default_factory=list)  # gathered files among the writes (git ignores them)
    ran: int = 0


def check_specs(every: list[examples.Example]) -> None:
    """What the publishing tools check of the specs beyond the loader, each a SpecError: a slug that
    is reserved (a page, a folder, a topic's tables), a description's link to no page of the site."""
    from .example_pages import check_links  # noqa: PLC0415 - a producer: imported with the others

    producers.load()  # the topics' folders are known from their registrations
    check_links(every)
    reserved = registry.reserved_slugs()
    for ex in every:
        if ex.slug.lower() in reserved:
            raise examples.SpecError(
                f"{ex.path}: the slug {ex.slug!r} is reserved ({reserved[ex.slug.lower()]}); rename the file"
            )


def _generated_paths() -> Callable[[Path], bool]:
    """Whether a path is a file of the generated folders (:func:`.registry.owned`), or a folder on
    the way to them, which :func:`_scan` reports (a link there is left alone, never read). The
    folders are looked up by each of the path's parents (a few), not each tried against the path
    (some 200 of them for each of the 900 entries of a tree: a second of every ``make update``)."""
    globs: dict[Path, list[list[str]]] = {}
    for folder, pattern in registry.owned():
        globs.setdefault(folder, []).append(pattern.split("/"))

    def generated(path: Path) -> bool:
        for depth, folder in enumerate(path.parents, 1):
            parts = path.parts[-depth:]
            for pattern in globs.get(folder, ()):
                if len(parts) <= len(pattern) and all(map(fnmatch.fnmatchcase, parts, pattern)):
                    return True
        return False

    return generated


def _differs(path: Path, text: str) -> bool:
    return not path.is_file() or path.read_text(encoding="utf-8") != text


def first_difference(path: Path, text: str) -> str | None:
    """Where the file ``path`` first departs from ``text``, what `make update` writes there ("line 22
    is '...', where `make update` writes '...'", each excerpt short and escaped); None when it does
    not, or cannot be read as text."""
    try:
        old = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    new = text.split("\n")
    for i, (a, b) in enumerate(zip(old, new, strict=False), 1):  # the shorter one: its end is said below
        if a != b:
            return f"line {i} is {shown(a)}, where `make update` writes {shown(b)}"
    if len(old) == len(new):
        return None
    if len(old) > len(new):
        return f"line {len(new) + 1} is {shown(old[len(new)])}, past the end of what `make update` writes"
    return f"it ends at line {len(old)}, where `make update` writes {shown(new[len(old)])} next"


def described(path: Path, text: str) -> str:
    """A generated file that differs from ``text``, for a message: its name, and for a text a reader
    can open (a page, a script), the line where it departs from ``text``."""
    where = first_difference(path, text) if path.suffix in (".md", ".py") else None
    return f"{registry.relative(path)} ({where})" if where else registry.relative(path)


def _scan(want: dict[Path, str], refused: dict[Path, str] | None = None) -> tuple[list[Path], list[Path]]:
    """(generated files no longer produced, files of the generated folders that we did not write).
    A file reached through a symbolic link, or outside the repository, is neither: it goes into
    ``refused`` with the reason, unread."""
    removals, foreign = [], []
    refused = {} if refused is None else refused
    for folder, pattern in registry.owned():
        for path in sorted(folder.glob(pattern)) if folder.is_dir() else []:
            if path in want:
                continue
            if problem := unsafe(path):
                refused[path] = problem
                continue
            if path.is_file():
                (removals if registry.made_by_us(path) else foreign).append(path)
    # A recording and its fingerprint go with their script: removed with it, or when the fingerprint
    # file (which we write) says we made them. A fingerprint whose script is gone is ours to remove.
    for folder in sorted({p.parent for p in want if p.suffix == ".py" and SNIPPETS in p.parents}):
        for out in sorted(folder.glob("*.out")):
            script = out.with_suffix(".py")
            if script in want:
                continue
            if problem := unsafe(out):
                refused[out] = problem
                continue
            if script in removals or (not script.exists() and snippets.read_fingerprint(script) is not None):
                removals.append(out)
            elif not script.exists():
                foreign.append(out)
    for fp in snippets.all_fingerprints():
        script = snippets.script_of(fp)
        if script in want or (script.exists() and script not in removals):
            continue
        if problem := unsafe(fp):
            refused[fp] = problem
        elif registry.made_by_us(fp):
            removals.append(fp)
        else:
            foreign.append(fp)
    return sorted(set(removals)), sorted(set(foreign))


def _checked(every: list[examples.Example] | None) -> list[examples.Example]:
    """The worked examples (``every``, or those on disk), checked, once no source is a link (to
    /proc/self/environ) or a FIFO: nothing is read before this. UpdateError or SpecError otherwise."""
    producers.load()  # (what the generated folders are)
    try:
        check_sources(reported=_generated_paths())
    except UnsafeRead as exc:
        raise UpdateError(str(exc)) from None
    every = examples.load_all() if every is None else every
    check_specs(every)
    return every


def stale_generated(every: list[examples.Example] | None = None) -> tuple[dict[Path, str], list[Path]]:
    """(files whose text differs from what the code gives now, generated files no longer produced
    and paths of the generated folders that update refuses to touch, such as a symbolic link)."""
    every = _checked(every)
    want = producers.generate(every)
    changed = {p: t for p, t in want.items() if unsafe(p) or _differs(p, t)}  # unsafe: update says why
    refused: dict[Path, str] = {}
    removals, _ = _scan(want, refused)
    return changed, sorted({*removals, *refused})


def stale_examples(every: list[examples.Example]) -> list[str]:
    """What the build hook checks: the worked examples' generated files that are missing or
    differ, and the recordings of their scripts that were not made from the script as it is
    (their fingerprint files), e.g. after an interrupted ``make update``."""
    producers.load()
    want = registry.generate(every, per_example_only=True)
    out = [f"{registry.relative(p)} ({problem})" for p in want if (problem := unsafe(p))]
    out += [described(p, text) for p, text in want.items() if not unsafe(p) and _differs(p, text)]
    scripts = sorted(p for p in want if p.suffix == ".py" and SNIPPETS in p.parents)
    recorded = snippets.recorded_fingerprints(scripts)
    for path in scripts:
        if path.is_file() and recorded.get(path) != snippets.fingerprint(path):
            out.append(f"{registry.relative(path.with_suffix('.out'))} (not recorded from the script as it is)")
    return out


def _run_pending(todo: list[tuple[Path, str | None]], want: dict[Path, str] | None = None) -> list[snippets.Result]:
    """Run each snippet: in place when its text on disk is the one given (None) and so are the
    files of the repository it names (:func:`.snippets.data_files`), else a copy of the text about
    to be written, from a temporary folder laid out as the repository (same file name, same blocked
    modules), beside the files it names as they are about to be written (``want``) or are."""
    results = []
    want = want or {}
    with tempfile.TemporaryDirectory(prefix="publish-update-") as tmp:
        paths = []
        for path, text in todo:
            code = text if text is not None else path.read_text(encoding="utf-8")
            data = snippets.data_files(code)
            pending = {f: want[f] for f in data if f in want and _differs(f, want[f])}
            if text is None and not pending:
                paths.append(path)
                continue
            copy = Path(tmp) / path.relative_to(ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(code, encoding="utf-8")
            for f in data:
                (Path(tmp) / f.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / f.relative_to(ROOT)).write_text(
                    pending.get(f) or f.read_text(encoding="utf-8"), encoding="utf-8"
                )
            paths.append(copy)
        for (path, _), result in zip(todo, snippets.run_many(paths), strict=True):
            results.append(snippets.Result(path, result.stdout, result.stderr, result.returncode))
    return results


def _check_safe(paths) -> None:
    """UpdateError if a file to write is reached through a symbolic link or lies outside the
    repository (:func:`publish.files.unsafe`): checked before anything is read or written."""
    for path in paths:
        if problem := unsafe(path):
            raise UpdateError(f"cannot write {registry.relative(path)}: {problem}. Nothing was written.")


def _check_taken(want: dict[Path, str], extra: dict[Path, str]) -> None:
    """UpdateError if a file to write is in the place of a file we did not write (a worked
    example's page named like a hand-written page), or is not safe to write (:func:`_check_safe`):
    checked before anything is written."""
    _check_safe([*extra, *want])
    fixed = {p.path for p in registry.producers() if p.path is not None}  # registered paths are ours
    for path, text in [*extra.items(), *want.items()]:
        if path in fixed or not path.exists() or not _differs(path, text):
            continue
        if path in extra or not registry.made_by_us(path):
            raise UpdateError(
                f"{registry.relative(path)} exists and was not written by `make update` (its first lines name no "
                "generator); move it away or rename the example. Nothing was written."
            )


def _check_ours(want: dict[Path, str]) -> None:
    """UpdateError if a file to write exists, differs and was not written by us (no banner), even at
    a registered path: for what git does not keep (the gathered files) or what sits beside a
    contributor's own files (a recording's fingerprint), a file there may be anyone's."""
    _check_safe(want)
    for path, text in want.items():
        if path.exists() and _differs(path, text) and not registry.made_by_us(path):
            raise UpdateError(
                f"{registry.relative(path)} exists and was not written by `make update` (its first lines name no "
                "generator), so it is left alone: move it away, and the build or `make update` writes it. "
                "Nothing was written."
            )


def plan(
    every: list[examples.Example] | None = None,
    *,
    only: list[Path] | None = None,
    force: bool = False,
    extra: dict[Path, str] | None = None,
) -> Plan:
    """Everything a run would write, computed without writing. ``only``: run these snippets only
    (a new example's); ``extra``: more files to write first (a new example's spec)."""
    every = _checked(every)
    producers.load()
    _check_taken(registry.generate(every, per_example_only=True), extra or {})  # quick: before the slow ones
    reads: dict = {}  # what each producer read, for the second pass below
    want = producers.generate(every, reads=reads)
    _check_safe(want)
    refused: dict[Path, str] = {}
    removals, foreign = _scan(want, refused)
    # Snippets to run: those whose script or recording changed since their fingerprint was written.
    scripts = sorted(
        {
            *(p for p in snippets.all_snippets() if p not in removals),
            *(p for p in want if p.suffix == ".py" and SNIPPETS in p.parents),
        }
    )
    recorded = snippets.current_fingerprints(scripts)
    candidates = scripts if only is None else [p for p in scripts if p in set(only)]
    todo = []
    for path in candidates:
        text = want.get(path)
        pending = text if text is not None and _differs(path, text) else None
        if force or recorded.get(path) != snippets.fingerprint(path, script=pending, data=want):
            todo.append((path, pending))
    results = _run_pending(todo, want)
    failures = [f"{registry.relative(r.path)} failed:\n{r.stderr}" for r in results if r.returncode != 0]
    if failures:
        raise UpdateError("a snippet failed, so nothing was written:\n\n" + "\n\n".join(failures))
    recordings = {r.recording: r.stdout for r in results if _differs(r.recording, r.stdout)}
    if recordings:  # the notebooks show recordings: generate again with the new ones (what reads them)
        want = registry.regenerate(every, want, reads, recordings)
    prints = {}
    for r in results:
        made = snippets.fingerprint(r.path, script=want.get(r.path), recording=r.stdout, data=want)
        path = snippets.fingerprint_path(r.path)
        if _differs(path, text := snippets.fingerprint_text(made)):
            prints[path] = text
    with registry.pending({**want, **recordings}):
        gathered = registry.gather(every)
    _check_safe(recordings)
    _check_ours({**prints, **gathered})
    out = Plan(removals=removals, foreign=foreign, refused=refused, recorded=sorted(recordings), ran=len(todo))
    out.writes.update({p: t for p, t in (extra or {}).items()})
    out.writes.update({p: t for p, t in want.items() if _differs(p, t)})
    out.writes.update(recordings)
    out.writes.update(prints)
    out.gathered = [p for p, t in gathered.items() if _differs(p, t)]
    out.writes.update({p: gathered[p] for p in out.gathered})
    return out


def write_gathered(every: list[examples.Example] | None = None) -> list[Path]:
    """Write the files gathered from every worked example (:func:`.registry.gathered`) that differ
    from what the examples give now, and return them: what every build does before MkDocs reads
    docs/ (:mod:`publish.mkdocs.worked_examples`), so that a build never needs ``make update``. UpdateError if one
    is not safe to write, or is a file that we did not write."""
    every = examples.load_all() if every is None else every
    producers.load()
    gathered = registry.gather(every)
    _check_ours(gathered)
    changed = [p for p, t in gathered.items() if _differs(p, t)]
    for path in changed:
        atomic_write(path, gathered[path])
    return changed


_atomic_write = atomic_write  # the name the commands and tests use


def _saved(path: Path) -> tuple[bytes, int] | None:
    """A file's bytes and mode, to put it back if the run fails; None if it does not exist."""
    return (path.read_bytes(), path.stat().st_mode & 0o7777) if path.is_file() else None


def _replaced(p: Plan) -> dict[str, list[str]]:
    """The files of the plan generated from a spec file (their banners name it) that it rewrites,
    by spec, each as "<file>: <where it departs from what is written>", a worked example's page
    first: what a run discards, should a contributor have typed into one of them."""
    out: dict[str, list[str]] = {}
    for path, text in sorted(p.writes.items(), key=lambda item: item[0].suffix != ".md"):
        if path in p.gathered or not path.is_file() or path.suffix not in (".md", ".py"):
            continue
        made = registry.generated_by(path.read_text(encoding="utf-8", errors="replace"))
        if made and made[0] and "*" not in made[0] and (where := first_difference(path, text)):
            out.setdefault(made[0], []).append(f"{registry.relative(path)}: {where}")
    return out


def apply(p: Plan, verbose: bool = True) -> int:
    """Write a plan: every file renamed into place from a temporary file; if anything fails, the
    files already written are put back as they were (and new ones removed)."""
    replaced = _replaced(p) if verbose else {}
    before: dict[Path, tuple[bytes, int] | None] = {}
    try:
        for path, text in p.writes.items():
            before[path] = _saved(path)
            _atomic_write(path, text)
        for path in p.removals:
            before[path] = _saved(path)
            remove(path)
    except BaseException:
        for path, saved in before.items():
            if saved is None:
                if path.is_file() and not unsafe(path):
                    remove(path)
            else:
                atomic_write(path, saved[0])
                path.chmod(saved[1])
        raise
    if verbose:
        for path in p.writes:
            fingerprint = path.name.endswith(snippets.FINGERPRINT_SUFFIX)
            if fingerprint and snippets.script_of(path).with_suffix(".out") in p.recorded:
                continue  # said with its recording
            verb = "recorded" if path in p.recorded else "wrote"
            note = " (gathered from every example; git ignores it)" if path in p.gathered else ""
            print(f"{verb} {registry.relative(path)}{note}")
        for source, found in replaced.items():
            print(
                f"replaced what {len(found)} file(s) generated from {source} held ({found[0]}): an edit made "
                f"by hand in a generated file is lost; make it in {source}"
            )
        for path in p.removals:
            print(f"removed {registry.relative(path)}")
        for path in p.foreign:
            print(f"left alone {registry.relative(path)} (not written by `make update`)")
        for path, problem in p.refused.items():
            print(f"left alone {registry.relative(path)} ({problem})")
        if p.ran:
            print(f"ran {p.ran} snippet(s) (the others are unchanged since their recording)")
    kept = [w for w in p.writes if w not in p.gathered and not w.name.endswith(snippets.FINGERPRINT_SUFFIX)]
    return len(kept) + len(p.removals)  # the files to commit: a recording's fingerprint goes with it


def update(verbose: bool = True, only: list[Path] | None = None, force: bool = False) -> int:
    """Write every generated file and recorded output; return how many files changed. A snippet
    runs only if it or its recording changed since it was last recorded (its fingerprint file),
    or ``force`` is set; ``only`` limits the runs to those snippets."""
    return apply(plan(only=only, force=force), verbose)


__all__ = [
    "ROOT",
    "Plan",
    "UpdateError",
    "apply",
    "check_specs",
    "described",
    "first_difference",
    "plan",
    "stale_examples",
    "stale_generated",
    "update",
    "write_gathered",
]
