"""The figures of a training run, kept in a record so that no build trains.

A page that quotes a training run (PyTorch, seconds of CPU) reads its figures from a JSON file under
``docs/generated/``, written by ``make update`` with a *key*: a hash of what the figures were made
from (the code that trains, given as files and folders of the repository, plus anything else the
figures depend on, such as PyTorch's version). The run is seeded and deterministic, so the same key
gives the same figures. :func:`figures` returns the record's figures when its key is the key of the
code as it is, and trains otherwise (imports PyTorch, takes seconds). Each run has a test that
trains and holds the record equal to what training gives.

Used by :mod:`publish.generate.topics.positional_encoding` (the word-order experiment) and
:mod:`publish.generate.topics.attention_that_learns` (the reversal task).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path

from .registry import current


@functools.lru_cache(maxsize=256)  # (a run of `make update` keys some 30 records on the same 20 modules)
def code_of(source: str) -> str:
    """What a module's source computes, without what only a reader reads: its syntax tree with the
    docstrings taken out (comments, blank lines and layout are not in the tree), as text. A
    docstring or a comment edited changes no record's key, so it trains nothing. Cached on the
    source's text: a process asks for the records' keys again and again (each page's quantities,
    tables and exercises of a run), and parsing the keyed modules was most of it."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def content_key(root: Path, keyed: Iterable[str], extra) -> str:
    """A hash of the code of every ``.py`` file of ``keyed`` (paths under ``root``: a file, or a
    folder taken whole, its files in sorted order; each file as :func:`code_of` reads it) and of
    ``extra`` (anything JSON can write)."""
    digest = hashlib.sha256()
    for rel in keyed:
        base = root / rel
        if not base.exists():
            raise ValueError(f"{rel}: the record's key names a file or folder that does not exist under {root}")
        paths = sorted(base.rglob("*.py")) if base.is_dir() else [base]
        for path in paths:
            code = code_of(path.read_text(encoding="utf-8"))
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + code.encode() + b"\0")
    digest.update(json.dumps(extra).encode())
    return digest.hexdigest()


def recorded(path: Path) -> dict | None:
    """The record at ``path`` as ``make update`` wrote it (or is about to), or None if there is none
    or it is not a JSON object."""
    text = current(path)
    try:
        data = json.loads(text) if text is not None else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def figures(key: str, record: dict | None, field: str, train: Callable[[], object]) -> dict:
    """``{"key": key, field: ...}``: the record's ``field`` (a list or an object) if the record was
    made under ``key``, else what ``train()`` gives."""
    if record is not None and record.get("key") == key and isinstance(record.get(field), (list, dict)):
        return {"key": key, field: record[field]}
    return {"key": key, field: train()}


def text(data: dict) -> str:
    """A record as ``make update`` writes it."""
    return json.dumps(data, indent=2) + "\n"
