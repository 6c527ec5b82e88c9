"""``python -m selfattn_ref update``: rewrite generated tables and recorded outputs."""

from __future__ import annotations

from pathlib import Path

from . import GENERATED, ROOT


def stale_generated() -> tuple[dict[Path, str], list[Path]]:
    """(files whose text differs from what the code gives now, generated files no longer produced)."""
    from .tables import generate

    want = generate()
    changed = {p: t for p, t in want.items() if not p.is_file() or p.read_text(encoding="utf-8") != t}
    # Files a generator once wrote and no longer produces: generated includes, and notebooks.
    from .notebooks import NOTEBOOKS_DIR

    made = [*(GENERATED.rglob("*.md") if GENERATED.is_dir() else []), *NOTEBOOKS_DIR.glob("*.ipynb")]
    orphans = sorted(p for p in made if p not in want)
    return changed, orphans


def update(verbose: bool = True) -> int:
    """Write every generated file and recorded output; return how many files changed."""
    from .snippets import record_all

    changed, orphans = stale_generated()
    for path, text in changed.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if verbose:
            print(f"wrote {path.relative_to(ROOT)}")
    for path in orphans:
        path.unlink()
        if verbose:
            print(f"removed {path.relative_to(ROOT)}")
    recorded = record_all(verbose=verbose)
    return len(changed) + len(orphans) + recorded
