"""docs/add-an-example.md: the messages a bad spec file gets, produced by the checks themselves.

Each case takes a real spec (``the_cat_sat.toml``), breaks it the way a contributor might, saved
as ``selfattn_ref/examples/river_bank.toml``, and records the message that
:func:`selfattn_ref.examples.load_all` raises, which is what ``make update``, ``mkdocs build``
and the tests print. Nothing in the page's list of messages is typed by hand.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from selfattn_ref import examples

from .registry import generated

NAME = "river_bank.toml"
SHOWN = f"selfattn_ref/examples/{NAME}"
BASE = "the_cat_sat"


def _break(text: str, old: str, new: str) -> str:
    if old not in text:
        raise ValueError(f"{BASE}.toml no longer contains {old!r}; update publish/generate/spec_messages.py")
    return text.replace(old, new, 1)


def cases() -> list[tuple[str, str, str]]:
    """(what is wrong, the line as the contributor wrote it, the message), one per kind of mistake."""
    base = (examples.EXAMPLES_DIR / f"{BASE}.toml").read_text(encoding="utf-8")
    title = 'title = "The river bank"'
    own = _break(base, re.search(r"^title = .*$", base, re.M).group(0), title)
    random = _break(own, 'projections = "identity"', 'projections = "random"\nseed = "42"\nstd = 0.5')
    broken = [
        ("A misspelt key", "decimal = 4", _break(own, "decimals = 4", "decimal = 4")),
        ("Ragged embeddings", "[0, 1, 0],  # cat", _break(own, "[0, 1, 0, 1],  # cat", "[0, 1, 0],  # cat")),
        ("A missing comma", "[1, 0, 1, 0]  # The", _break(own, "[1, 0, 1, 0],  # The", "[1, 0, 1, 0]  # The")),
        (
            "More tokens than vectors",
            'tokens = ["The", "cat", "sat", "down"]',
            _break(own, 'tokens = ["The", "cat", "sat"]', 'tokens = ["The", "cat", "sat", "down"]'),
        ),
        ("A seed that is not an integer", 'seed = "42"', random),
        ("A title that another example has", 'title = "The cat sat"', base),
    ]
    out = []
    for what, line, text in broken:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / NAME).write_text(text, encoding="utf-8")
            (folder / f"{BASE}.toml").write_text(base, encoding="utf-8")
            try:
                examples.load_all(folder)
            except examples.SpecError as exc:
                message = str(exc).replace(str(folder / NAME), SHOWN).replace(str(folder), "selfattn_ref/examples")
            else:
                raise ValueError(f"the broken spec {what!r} loads without an error")
        out.append((what, line, message))
    return out


@generated("contributing/spec_errors.md")
def _spec_errors() -> str:
    parts = []
    for what, line, message in cases():
        parts.append(f"**{what}** (`{line}`):\n\n```text\n{message}\n```\n")
    return "\n".join(parts)
