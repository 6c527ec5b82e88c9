"""The generated scripts of every worked example (snippets/examples/<slug>_{numpy,torch}.py),
held equal to the reference package: parametrized over the spec files, so a new example is
covered with no further wiring. tests/snippets/test_recordings.py runs each script on its own and compares
it with its recording; here the recording's numbers and the scripts' arrays are checked."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
import re

import numpy as np
import pytest

from publish.fmt import num
from publish.generate import example_pages as ep
from publish.generate.snippets import namespace
from selfattn_ref import examples

from snippet_checks import as_numpy

SLUGS = examples.available()


def parse_output(text: str) -> dict[str, tuple[list[str], list[str], list[list[str]]]]:
    """The blocks a script prints, by title: (column labels, row labels, cells as printed)."""
    blocks = {}
    for chunk in text.strip("\n").split("\n\n"):
        title, header, *rows = chunk.splitlines()
        cols = header.split()
        labels, cells = [], []
        for row in rows:
            label, *values = row.split()
            assert len(values) == len(cols), f"{title}: row {row!r} has {len(values)} numbers for {len(cols)} columns"
            labels.append(label)
            cells.append(values)
        blocks[title] = (cols, labels, cells)
    return blocks


def expected_blocks(ex: examples.Example) -> dict[str, np.ndarray]:
    st = examples.run(ex)
    out = {}
    if ex.projections != "none":
        out |= {"Q = X W_Q": st.Q, "K = X W_K": st.K, "V = X W_V": st.V}
    # The mask is applied to the last of the two, and its title says so.
    masked = (lambda M: M) if st.mask is None else (lambda M: np.where(st.mask, M, -np.inf))
    then = "" if st.mask is None else ", then masked"
    if st.heads:  # each head's steps, then the heads side by side
        for k, head in enumerate(st.heads, 1):
            out[f"head {k}: scores"] = head.scores
            out[f"head {k}: scaled by sqrt(d_head){then}"] = masked(head.scaled)
            out[f"head {k}: weights (softmax of each row)"] = head.weights
            out[f"head {k}: output"] = head.output
        out["output (the heads side by side, times W_O)"] = st.output
        return out
    if st.scaled is None:
        out[f"scores Q K^T{then}"] = masked(st.scores)
    else:
        out["scores Q K^T"] = st.scores
        out[f"scaled by sqrt(d_k){then}"] = masked(st.scaled)
    out["weights (softmax of each row)"] = st.weights
    out["output"] = st.output
    return out


def shown(x: float, decimals: int) -> str:
    return "-inf" if x == -np.inf else num(x, decimals)


@pytest.mark.parametrize("slug", SLUGS)
def test_recorded_numbers_are_the_references(slug):
    ex = examples.load(slug)
    recording = ep.snippet_path(slug, "numpy").with_suffix(".out")
    assert recording.is_file(), f"{recording} is missing; run `make update`"
    blocks = parse_output(recording.read_text(encoding="utf-8"))
    want = expected_blocks(ex)
    assert list(blocks) == list(want), f"{recording.name} prints {list(blocks)}, expected {list(want)}"
    problems = []
    for title, M in want.items():
        cols, labels, cells = blocks[title]
        assert labels == list(ex.tokens), f"{title}: rows {labels}"
        for i, row in enumerate(cells):
            for j, text in enumerate(row):
                if text != shown(M[i, j], ex.decimals):
                    problems.append(f"{title}[{labels[i]}, {cols[j]}]: printed {text}, the reference gives {M[i, j]!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("library", ep.LIBRARIES)
@pytest.mark.parametrize("slug", SLUGS)
def test_script_arrays_equal_the_reference_to_float_precision(slug, library):
    ex = examples.load(slug)
    st = examples.run(ex)
    ns = namespace(ep.snippet_path(slug, library))
    names = {"scores": "scores", "weights": "weights", "output": "output"}
    if st.heads:  # the per-head lists, stacked: (heads, n, n) as Steps has them
        names = {"head_scores": "scores", "head_weights": "weights", "output": "output"}
        heads = np.stack([as_numpy(x) for x in ns["head_outputs"]])
        np.testing.assert_allclose(heads, [h.output for h in st.heads], rtol=0, atol=1e-12, err_msg="head_outputs")
    for name, field_ in names.items():
        got = np.stack([as_numpy(x) for x in ns[name]]) if name.startswith("head_") else as_numpy(ns[name])
        np.testing.assert_allclose(got, getattr(st, field_), rtol=0, atol=1e-12, err_msg=name)
    assert ns["tokens"] == list(ex.tokens)


@pytest.mark.parametrize("library", ep.LIBRARIES)
@pytest.mark.parametrize("slug", SLUGS)
def test_script_imports_only_its_library(slug, library):
    ex = examples.load(slug)
    tree = ast.parse(ep.snippet_path(slug, library).read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    # The PyTorch script uses NumPy's seeded generator only to draw random projections.
    want = {"numpy"} if library == "numpy" else ({"torch", "numpy"} if ex.projections == "random" else {"torch"})
    assert imported == want


def test_parse_output_reads_a_block():
    blocks = parse_output("weights\n      a     b\na  0.5  0.5\nb -inf  1.0\n")
    assert blocks == {"weights": (["a", "b"], ["a", "b"], [["0.5", "0.5"], ["-inf", "1.0"]])}


def test_a_wrong_recorded_number_would_be_reported():
    ex = examples.load(SLUGS[0])
    text = ep.snippet_path(ex.slug, "numpy").with_suffix(".out").read_text(encoding="utf-8")
    value = re.search(r"\d\.\d+", text.split("weights (softmax of each row)")[1]).group(0)
    wrong = value[:-1] + str((int(value[-1]) + 1) % 10)
    broken = text.split("weights (softmax of each row)")
    broken[1] = broken[1].replace(value, wrong, 1)
    blocks = parse_output("weights (softmax of each row)".join(broken))
    cells = blocks["weights (softmax of each row)"][2]
    want = expected_blocks(ex)["weights (softmax of each row)"]
    assert any(t != shown(want[i, j], ex.decimals) for i, r in enumerate(cells) for j, t in enumerate(r))


@pytest.mark.parametrize("scale", [True, False], ids=["scaled", "unscaled"])
def test_a_causal_scripts_titles_say_which_block_is_masked(scale):
    """Whichever block the mask is applied to (the scaled scores, or the scores when there is no
    scaling) is printed as masked, with -inf above the diagonal, and is titled so."""
    ex = dataclasses.replace(examples.load("the_cat_sat_causal"), scale=scale)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(ep.script(ex, "numpy"), f"<{ex.slug} scale={scale}>", "exec"), {"__name__": "__main__"})
    blocks = parse_output(out.getvalue())
    want = expected_blocks(ex)
    assert list(blocks) == list(want)
    title = "scaled by sqrt(d_k), then masked" if scale else "scores Q K^T, then masked"
    cols, labels, cells = blocks[title]
    assert cells[0][1:] == ["-inf", "-inf"] and cells[1][2] == "-inf", cells
    for i, row in enumerate(cells):
        assert row == [shown(x, ex.decimals) for x in want[title][i]]
