"""The Python a reader needs to run a copied script, as the home page states it where it says "Copy a
whole script": the oldest version whose grammar reads every snippet, and no older than what their
code calls for (``zip(..., strict=True)``, ``X | Y`` in annotations evaluated when a function is
defined, ``match``: Python 3.10). The scripts import numpy or torch only
(test_recordings.test_snippet_imports_only_its_library), so nothing of a newer standard library is
reached. (Checked by hand too: every NumPy script prints its recording on Python 3.10 with NumPy 2.2,
and most fail on 3.9.)"""

from __future__ import annotations

import ast
import re

import pytest

from publish import DOCS, ROOT
from publish.generate import snippets as sn

NEEDED = (3, 10)
ALL = sn.all_snippets()


def needs_3_10(tree: ast.AST) -> list[str]:
    """What in ``tree`` Python 3.9 cannot run: zip's strict argument, a union written X | Y in an
    annotation, a match statement, with its line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zip":
            found += [f"line {node.lineno}: zip(strict=...)" for k in node.keywords if k.arg == "strict"]
        elif isinstance(node, ast.Match):
            found.append(f"line {node.lineno}: match")
        elif isinstance(node, (ast.arg, ast.AnnAssign, ast.FunctionDef)):
            annotation = node.returns if isinstance(node, ast.FunctionDef) else node.annotation
            if annotation is not None and any(
                isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr) for n in ast.walk(annotation)
            ):
                found.append(f"line {node.lineno}: X | Y annotation")
    return found


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_grammar_of_the_version_the_site_names_reads_every_script(path):
    ast.parse(path.read_text(encoding="utf-8"), filename=str(path), feature_version=NEEDED)


def test_the_scripts_need_that_version_and_not_an_older_one():
    uses = {p: needs_3_10(ast.parse(p.read_text(encoding="utf-8"))) for p in ALL}
    assert sum(bool(u) for u in uses.values()) >= 20, "no script needs 3.10 any more: lower NEEDED and the sentence"


def test_the_home_page_says_which_python_runs_a_copied_script():
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    [sentence] = re.findall(r"Copy a whole\s+script, run it with .*?\.(?=\s)", text, re.S)
    want = f"Python {NEEDED[0]}.{NEEDED[1]} or later"
    assert want in " ".join(sentence.split()), f"docs/index.md: {sentence!r} does not say {want!r}"


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("for a, b in zip(x, y, strict=True): pass", ["line 1: zip(strict=...)"]),
        ("def f(n: int | None = None) -> int: return 1", ["line 1: X | Y annotation"]),
        ("def f(n) -> int | None: return 1", ["line 1: X | Y annotation"]),
        ("x: int | str = 1", ["line 1: X | Y annotation"]),
        ("match x:\n    case 1: pass", ["line 1: match"]),
        ("for a, b in zip(x, y): pass\ny = a | b", []),
    ],
)
def test_what_needs_python_3_10_is_found(code, found):
    assert needs_3_10(ast.parse(code)) == found
