"""What turns the reference into the site: generated tables, recorded snippet outputs
and the numbers audit. ``python -m publish update`` rewrites what is recorded;
the tests only compare.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
GENERATED = DOCS / "generated"
