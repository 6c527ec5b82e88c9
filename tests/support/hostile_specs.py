"""Hostile worked-example specs, written as a contributor would write them: the spec text of a title,
tokens and a description (tests/tools/test_hostile_specs.py), the one the shared copy's build holds
(copy_build.py), and a copy's files by hash, to see what a command left alone."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from publish.escape import toml_string
from publish.generate import scaffold
from selfattn_ref import examples

BASE = examples.load("the_cat_sat")


def spec_text(title: str, tokens: list[str], description: str | None = None, **values: str) -> str:
    """The scaffold of new-example (from the_cat_sat) with the given title, tokens and description
    written into it the way a contributor would (TOML strings), and other keys' values replaced."""
    text = scaffold.template("zz_hostile", title, BASE)
    n = len(tokens)
    rows = "[\n" + "".join(f"  [{', '.join(['1'] * 4)}],\n" for _ in range(n)) + "]"
    text = re.sub(
        r"^tokens = .*$", lambda m: f"tokens = [{', '.join(toml_string(t) for t in tokens)}]", text, flags=re.M
    )
    text = re.sub(r"^embeddings = \[\n(?:.*\n)*?\]", lambda m: f"embeddings = {rows}", text, flags=re.M)
    if description is not None:
        text = re.sub(r'^description = """\n.*?\n"""', lambda m: f"description = {toml_string(description)}", text,
                      flags=re.M | re.S)  # fmt: skip
    for key, value in values.items():
        text = re.sub(rf"^{key} = .*$", lambda m, k=key, v=value: f"{k} = {v}", text, flags=re.M)
    return text


def tree(copy: Path) -> dict[str, str]:
    """Every file of the copy (but caches) by path, with a hash of its bytes: a link to a file is
    read through, a link to a folder is not entered (as Path.rglob did, with a fifth to a half more
    time: the tests of the copies take it some 30 times)."""
    found = {}
    for folder, dirs, files in os.walk(copy):
        dirs[:] = [d for d in dirs if d not in _CACHES]
        for name in files:
            path = os.path.join(folder, name)
            if name not in _CACHES and os.path.isfile(path):
                with open(path, "rb") as f:
                    found[Path(os.path.relpath(path, copy)).as_posix()] = hashlib.sha256(f.read()).hexdigest()
    return dict(sorted(found.items()))


_CACHES = ("__pycache__", ".pytest_cache")


# The spec the shared copy's build holds (test_a_hostile_spec_builds_a_site_that_shows_it_as_typed).
BUILD_TITLE = 'Hdr { onclick="window.__p=1" } *x* _y_ $z$ #h ~~s~~ http://e.co'
BUILD_TOKENS = ["_x_", "$y$", "#h", "{:x}", "&lt;b&gt;", "日本", "🙂", "\u0642\u064e", "\u00e9"]
BUILD_DESCRIPTION = "Prose with a < b, &amp; and $x$ and _u_; *em*, `<code>`-free `code` and [a page](../masking.md)."


def hostile_spec_text() -> str:
    """The spec of the strict build below (copy_build.py writes it)."""
    return spec_text(BUILD_TITLE, BUILD_TOKENS, BUILD_DESCRIPTION.replace("`<code>`-free ", ""))
