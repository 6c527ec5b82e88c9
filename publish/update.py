"""``python -m publish update``: rewrite generated tables and recorded outputs."""

from __future__ import annotations

from pathlib import Path

from . import GENERATED, ROOT


def stale_generated() -> tuple[dict[Path, str], list[Path]]:
    """(files whose text differs from what the code gives now, generated files no longer produced)."""
    from .tables import generate

    want = generate()
    changed = {p: t for p, t in want.items() if not p.is_file() or p.read_text(encoding="utf-8") != t}
    # Files a generator once wrote and no longer produces: generated includes, notebooks, and
    # each worked example's page, scripts (and their recordings) and notebook.
    from . import example_pages as ep
    from .notebooks import NOTEBOOKS_DIR

    made = [
        *(GENERATED.rglob("*.md") if GENERATED.is_dir() else []),
        *NOTEBOOKS_DIR.rglob("*.ipynb"),
        *ep.PAGES_DIR.glob("*.md"),
        *ep.SNIPPETS_DIR.glob("*.py"),
    ]
    orphans = sorted(p for p in made if p not in want)
    orphans += sorted(p for p in ep.SNIPPETS_DIR.glob("*.out") if p.with_suffix(".py") not in want)
    return changed, orphans


def _write(verbose: bool) -> int:
    # A page's notebook shows the page's generated tables as they are on disk, so a table written
    # in one pass changes a notebook in the next: write until nothing changes (two passes at most
    # in practice; a third would be a generator that never settles).
    total = 0
    for _ in range(3):
        changed, orphans = stale_generated()
        if not changed and not orphans:
            return total
        for path, text in changed.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if verbose:
                print(f"wrote {path.relative_to(ROOT)}")
        for path in orphans:
            path.unlink()
            if verbose:
                print(f"removed {path.relative_to(ROOT)}")
        total += len(changed) + len(orphans)
    raise RuntimeError("the generated files did not settle after three passes of `make update`")


def update(verbose: bool = True, only: list[Path] | None = None, force: bool = False) -> int:
    """Write every generated file and recorded output; return how many files changed.

    Generated files come first (a worked example's scripts among them), then every snippet runs
    (or only the snippets of ``only``: a new example's, when nothing else changed) and its
    recording is rewritten, then the generated files that show recordings (the worked examples'
    notebooks) are written again. A snippet runs only if it or its recording changed since it was
    last recorded (snippets/recordings.json), or ``force`` is set."""
    from .snippets import record_all

    written = _write(verbose)
    recorded = record_all(verbose=verbose, only=only, force=force)
    if recorded:
        written += _write(verbose)
    return written + recorded
