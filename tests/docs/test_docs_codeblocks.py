"""Layer 3: every Python block of every page, as the reader sees it, runs and prints the
output shown under it.

pytest-codeblocks reads raw Markdown and does not expand ``--8<--`` includes, so the
blocks are found with its extractor and each block's includes are expanded the way the
site build expands them (pymdownx.snippets) before it runs.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
from pathlib import Path

import pytest
from pytest_codeblocks.main import extract_from_buffer

from pages import PAGES, expand, page_id


def blocks():
    out = []
    for page in PAGES:
        found = extract_from_buffer(io.StringIO(page.read_text(encoding="utf-8")))
        for b in found:
            lang = (b.syntax or "").split()[0] if b.syntax else ""
            if lang in ("python", "py"):
                out.append(pytest.param(page, b, id=f"{page_id(page)}:{b.lineno}"))
    return out


BLOCKS = blocks()


@contextlib.contextmanager
def _torch_state_restored():
    """A block may set torch's global state (threads, determinism, the seed); undo it so
    that blocks and the tests after them do not depend on the order they run in."""
    import torch

    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    rng = torch.random.get_rng_state()
    try:
        yield
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)
        torch.random.set_rng_state(rng)


INCLUDE = re.compile(r'^\s*--8<--\s+"([^"]+)"\s*$')


def test_pages_have_python_blocks():
    assert len(BLOCKS) >= 8, len(BLOCKS)


@pytest.mark.parametrize(("page", "block"), BLOCKS)
def test_block_runs_and_prints_what_the_page_shows(page, block):
    lines = [ln for ln in block.code.splitlines() if ln.strip()]
    includes = [INCLUDE.match(ln) for ln in lines]
    assert lines and all(includes), (
        f"{page_id(page)}:{block.lineno}: a code block must be an include of a tested file "
        f'(--8<-- "snippets/..."), not code typed into the page:\n{block.code}'
    )
    target = includes[0].group(1)
    code = expand(block.code)
    if target.startswith("selfattn_ref/"):
        # A function shown from the package: define it where it lives, as the reader reads it.
        module = importlib.import_module(Path(target.split(":")[0]).with_suffix("").as_posix().replace("/", "."))
        namespace = dict(vars(module))
    else:
        namespace = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out), _torch_state_restored():
        exec(compile(code, f"{page_id(page)}:{block.lineno}", "exec"), namespace)
    if block.expected_output is not None:
        expected = expand(block.expected_output)
        assert out.getvalue().rstrip("\n") == expected.rstrip("\n"), (
            f"{page_id(page)}:{block.lineno}: the output shown under the block is not what it prints"
        )
    else:
        assert target.startswith("selfattn_ref/") or not out.getvalue(), (
            f"{page_id(page)}:{block.lineno}: the block prints output but the page shows none "
            "(add <!--pytest-codeblocks:expected-output--> and the .out include under it)"
        )
