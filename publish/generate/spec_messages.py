"""docs/add-an-example.md: the messages a bad spec file gets, produced by the checks themselves.

Each case takes a valid spec, :data:`SPEC` (The cat sat's numbers under the title "The river
bank", as ``make example`` would start it), breaks it the way a contributor might, saved as
``selfattn_ref/examples/river_bank.toml``, and records the message that
:func:`selfattn_ref.examples.load_all` raises, which is what ``make update``, ``mkdocs build``
and the tests print. Nothing in the page's list of messages is typed by hand.

The spec broken is this module's own text, not an example's file: contributors edit those (their
decimals, their comments' spacing), and no such edit may change the page's cases or stop a tool.
The one case that needs another example, a title that it has, takes an example as it is on disk
(The cat sat's, or the first there is), so that its message names that file and line as they are.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from selfattn_ref import examples

from .registry import generated

NAME = "river_bank.toml"
SHOWN = f"selfattn_ref/examples/{NAME}"
OTHER = "the_cat_sat"  # the example whose title the last case takes, when there is one

SPEC = """\
# The worked example 'river_bank', from The cat sat's numbers.
title = "The river bank"
description = \"\"\"
Say in a sentence or two what this example shows and what to look for in its tables.
\"\"\"
tokens = ["The", "cat", "sat"]
embeddings = [
  [1, 0, 1, 0],  # The
  [0, 1, 0, 1],  # cat
  [1, 1, 1, 1],  # sat
]
projections = "identity"
scale = true
causal = false
decimals = 4
"""


def _break(text: str, old: str, new: str) -> str:
    if old not in text:  # SPEC is this module's: only an edit of this module can get here
        raise ValueError(f"publish/generate/spec_messages.py: its SPEC no longer contains {old!r}")
    return text.replace(old, new, 1)


def broken() -> list[tuple[str, str, dict[str, str]]]:
    """(what is wrong, the line as the contributor wrote it, the files of the examples' folder by
    name: the broken ``river_bank.toml`` and what else the case needs), one per kind of mistake."""
    random = _break(SPEC, 'projections = "identity"', 'projections = "random"\nseed = "42"\nstd = 0.5')
    out = [
        ("A misspelt key", "decimal = 4", {NAME: _break(SPEC, "decimals = 4", "decimal = 4")}),
        ("Ragged embeddings", "[0, 1, 0],  # cat", {NAME: _break(SPEC, "[0, 1, 0, 1],  # cat", "[0, 1, 0],  # cat")}),
        ("A missing comma", "[1, 0, 1, 0]  # The", {NAME: _break(SPEC, "[1, 0, 1, 0],  # The", "[1, 0, 1, 0]  # The")}),
        (
            "More tokens than vectors",
            'tokens = ["The", "cat", "sat", "down"]',
            {NAME: _break(SPEC, 'tokens = ["The", "cat", "sat"]', 'tokens = ["The", "cat", "sat", "down"]')},
        ),
        ("A seed that is not an integer", 'seed = "42"', {NAME: random}),
    ]
    every = {ex.slug: ex for ex in examples.load_all()}  # a bad spec stops here, with its own message
    other = every.get(OTHER) or next(iter(every.values()), None)
    if other is not None and other.path.name != NAME:
        title = f"title = {json.dumps(other.title, ensure_ascii=False)}"
        files = {NAME: _break(SPEC, 'title = "The river bank"', title), other.path.name: other.path.read_text("utf-8")}
        out.append(("A title that another example has", title, files))
    return out


def cases() -> list[tuple[str, str, str]]:
    """(what is wrong, the line as the contributor wrote it, the message), one per kind of mistake."""
    out = []
    for what, line, files in broken():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for name, text in files.items():
                (folder / name).write_text(text, encoding="utf-8")
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
