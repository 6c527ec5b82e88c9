"""A Jupyter notebook for each worked-example page, built from the page's own snippet files.

The notebooks are not written by hand and hold no code of their own. For each page in
:data:`NOTEBOOKS`, :func:`cells` reads the page (``docs/<page>.md``) and takes, in the page's
order, every snippet it includes with ``--8<-- "snippets/..."``: the ``*_numpy.py`` ones, and a
``*_torch.py`` one only where it has no NumPy twin (training a model), so that a kernel never
pays for importing PyTorch without a reason. Each code cell is the snippet file, byte for byte,
under a Markdown cell with the page's headings above that block. ``make update`` writes the
result to ``docs/notebooks/<page>.ipynb`` (registered with :func:`~.registry.generated_file`), and
the suite's staleness test fails when a page or a snippet changed and the notebook did not.

The files are deterministic: cell ids are the cell's place and the snippet's name, there are
no outputs or execution counts (mkdocs-jupyter executes every notebook on every build, see
mkdocs.yml), and the JSON is written the way nbformat writes it (one-space indent, sorted keys).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from . import DOCS, ROOT
from .registry import generated_file, name_of

FOLDER = "notebooks"  # under docs/
NOTEBOOKS_DIR = DOCS / FOLDER


@dataclass(frozen=True)
class Notebook:
    page: str  # docs/<page>.md; the notebook is docs/notebooks/<page>.ipynb
    note: str = ""  # a sentence added to the introduction, if the page needs one


# The worked examples' pages, in the order of the site's navigation.
NOTEBOOKS = (
    Notebook("real-numbers"),
    Notebook("queries-keys-values"),
    Notebook("learned-weights"),
    Notebook("where-used"),
    Notebook("scaling"),
    Notebook("masking"),
    Notebook("positional-encoding", "The training run has no NumPy version: that cell needs PyTorch."),
    Notebook("multi-head"),
    Notebook("rnn-comparison"),
    Notebook("mistakes"),
)

_INCLUDE = re.compile(r'^\s*--8<--\s+"(snippets/[^"]+\.py)"\s*$')
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Block:
    snippet: str  # "snippets/real_numbers/stable_softmax_numpy.py"
    headings: tuple[str, ...]  # the page's headings it sits under, as written: ("## Masking", "### In code")


def page_path(page: str) -> Path:
    return DOCS / f"{page}.md"


def title(page: str) -> str:
    """The page's first level-1 heading."""
    for line in page_path(page).read_text(encoding="utf-8").splitlines():
        if m := _HEADING.match(line):
            if len(m.group(1)) == 1:
                return m.group(2)
    raise ValueError(f"docs/{page}.md has no level-1 heading")


def page_snippets(page: str) -> list[Block]:
    """Every snippet file the page includes, in order, with the headings (level 2 and below) it sits under."""
    path: list[str] = []  # the current heading of each level, from level 2 down
    out, fenced = [], False
    for line in page_path(page).read_text(encoding="utf-8").splitlines():
        if m := _INCLUDE.match(line):
            out.append(Block(m.group(1), tuple(path)))
        elif _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)) and len(m.group(1)) > 1:
            level = len(m.group(1))
            path = [*path[: level - 2], line.strip()]
    return out


def notebook_snippets(page: str) -> list[Block]:
    """The snippets a page's notebook runs: NumPy ones, and PyTorch ones that have no NumPy twin."""
    chosen = []
    for block in page_snippets(page):
        path = ROOT / block.snippet
        if path.stem.endswith("_numpy"):
            chosen.append(block)
        elif path.stem.endswith("_torch") and not path.with_name(path.stem[: -len("_torch")] + "_numpy.py").is_file():
            chosen.append(block)
    return chosen


def _lines(text: str) -> list[str]:
    """A cell's source as nbformat stores it: lines, each but the last ending in a newline."""
    return text.rstrip("\n").splitlines(keepends=True)


def _markdown(cell_id: str, text: str) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": _lines(text)}


def _code(cell_id: str, text: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cell_id,
        "metadata": {},
        "outputs": [],
        "source": _lines(text),
    }


def cells(nb: Notebook) -> list[dict]:
    blocks = notebook_snippets(nb.page)
    if not blocks:
        raise ValueError(f"docs/{nb.page}.md includes no snippet the notebook could run")
    libraries = "NumPy and PyTorch" if any(b.snippet.endswith("_torch.py") for b in blocks) else "NumPy"
    intro = (
        f"# Notebook: {title(nb.page)}\n\n"
        f"The code of the page *{title(nb.page)}*, in the page's order: each cell is one of its "
        f"code blocks, a standalone script that prints what the page shows under it. "
        f"Run the cells from the top; they need only {libraries}."
    )
    if nb.note:
        intro += f" {nb.note}"
    out = [_markdown("intro", intro)]
    shown: tuple[str, ...] = ()  # the headings already in the notebook, as a path
    for i, block in enumerate(blocks, start=1):
        name = Path(block.snippet).stem
        common = 0
        while common < min(len(shown), len(block.headings)) and shown[common] == block.headings[common]:
            common += 1
        new = block.headings[common:]  # the headings this cell enters, outermost first
        shown = block.headings
        out.append(_markdown(f"{i:02d}-{name}-text", "\n\n".join([*new, f"`{Path(block.snippet).name}`"])))
        out.append(_code(f"{i:02d}-{name}", (ROOT / block.snippet).read_text(encoding="utf-8")))
    return out


def notebook(nb: Notebook) -> dict:
    return {
        "cells": cells(nb),
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "selfattn_ref": {
                "generated_by": name_of(notebook),
                "generated_from": f"docs/{nb.page}.md and the snippets it includes",
                "note": "Written by `make update`; do not edit.",
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def dumps(nb: dict) -> str:
    """As nbformat.writes writes it, so that opening and saving in Jupyter changes nothing."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def relpath(nb: Notebook) -> str:
    """The notebook's path under docs/."""
    return f"{FOLDER}/{nb.page}.ipynb"


def _register(nb: Notebook) -> None:
    generated_file(DOCS / relpath(nb), writer=notebook, owns=(NOTEBOOKS_DIR, "*.ipynb"))(lambda: dumps(notebook(nb)))


for _nb in NOTEBOOKS:
    _register(_nb)
