"""What turns the reference into the site: generated tables, recorded snippet outputs
and the numbers audit. ``python -m selfattn_ref update`` rewrites what is recorded;
the tests only compare.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
GENERATED = DOCS / "generated"
