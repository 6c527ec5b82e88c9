"""Markdown tables and worked lines generated from the worked examples.

``generate()`` maps each file under ``docs/generated/`` to its text. Pages include
them with ``--8<-- "docs/generated/<slug>/<name>.md"``; ``make update`` writes them and
a test holds them equal to what the reference gives now.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from selfattn_ref import examples

from . import DOCS, GENERATED
from .fmt import cell, is_integral, num, vector

HEADER = "<!-- Generated from selfattn_ref by make update; do not edit. -->\n"


def matrix_table(M, row_labels, col_labels, decimals: int, corner: str = "") -> str:
    """A Markdown table with bold row labels and right-aligned numbers."""
    M = np.asarray(M)
    integral = is_integral(M)
    lines = [
        "| " + " | ".join([corner, *col_labels]) + " |",
        "|" + "---|" + "---:|" * len(col_labels),
    ]
    for label, row in zip(row_labels, M, strict=True):
        lines.append("| " + " | ".join([f"**{label}**", *(cell(x, decimals, integral) for x in row)]) + " |")
    return "\n".join(lines) + "\n"


def beside(table: str, figure: str) -> str:
    """A table and its figure side by side (extra.css, ``.weights-figure``; the pair wraps on a
    narrow screen). md_in_html parses the table inside the ``<div>``; the figure is one line
    of SVG (:mod:`.figures`), which Markdown leaves alone, even indented in a tab."""
    return f'<div class="weights-figure" markdown>\n\n{table}\n{figure}\n\n</div>\n'


def weights_table(M, row_labels, col_labels, decimals: int, title: str, corner: str = "query ↓ key →") -> str:
    """A matrix of attention weights: its table and, beside it, its heatmap (same rounding)."""
    from .figures import heatmap

    return beside(
        matrix_table(M, row_labels, col_labels, decimals, corner),
        heatmap(M, row_labels, col_labels, decimals, title=title),
    )


def _dims(d: int) -> list[str]:
    return [f"x{i + 1}" for i in range(d)]


def _out_dims(ex: examples.Example, d: int) -> list[str]:
    return _dims(d) if ex.projections == "none" else [f"c{j + 1}" for j in range(d)]


def _dot_line(a: str, b: str, u, v, decimals: int) -> str:
    integral = is_integral(u) and is_integral(v)
    pairs = zip(u, v, strict=True)
    terms = " + ".join(f"{cell(x, decimals, integral)}×{cell(y, decimals, integral)}" for x, y in pairs)
    total = float(np.dot(u, v))
    return f"{a} · {b} = {terms} = {cell(total, decimals, integral)}"


def example_files(ex: examples.Example) -> dict[str, str]:
    """The generated files of one example, by file name."""
    st = examples.run(ex)
    tok = list(ex.tokens)
    dec = ex.decimals
    d = ex.E.shape[1]
    files = {
        "embeddings.md": matrix_table(ex.E, tok, _dims(d), dec, "token"),
        "scores.md": matrix_table(st.scores, tok, tok, dec, "query ↓ key →"),
        "weights.md": weights_table(st.weights, tok, tok, dec, f"attention weights of “{ex.title}”"),
        # The output is weights · V: its columns are V's (c1, c2, ...), which are the embedding's
        # features (x1, x2, ...) only when nothing projects them.
        "output.md": matrix_table(st.output, tok, _out_dims(ex, st.output.shape[1]), dec, "output"),
    }
    if st.scaled is not None:
        files["scaled.md"] = matrix_table(st.scaled, tok, tok, dec, "query ↓ key →")
    if ex.projections in ("random", "given"):
        for name in ("W_Q", "W_K", "W_V"):
            W = getattr(ex, name)
            files[f"{name}.md"] = matrix_table(W, _dims(W.shape[0]), [f"c{j + 1}" for j in range(W.shape[1])], dec)
    if ex.projections != "none":
        for name in ("Q", "K", "V"):
            M = getattr(st, name)
            files[f"{name}.md"] = matrix_table(M, tok, [f"c{j + 1}" for j in range(M.shape[1])], dec, name)
    # The scores written out: every dot product of a query with a key.
    dots = [_dot_line(tok[i], tok[j], st.Q[i], st.K[j], dec) for i in range(len(tok)) for j in range(len(tok))]
    files["dot_products.md"] = "".join(f"- {line}\n" for line in dots)
    # The softmax written out per row: e^score, the total, the division.
    logits = st.scaled if st.scaled is not None else st.scores
    for i in range(len(tok)):
        row = logits[i]
        allowed = np.ones(len(tok), bool) if st.mask is None else st.mask[i]
        ex_row = np.where(allowed, np.exp(np.where(allowed, row, 0)), 0.0)
        total = ex_row.sum()
        label = "scaled score" if st.scaled is not None else "score"
        shown = [cell(x, dec, is_integral(row)) if a else "−∞" for x, a in zip(row, allowed, strict=True)]
        lines = [
            "| " + " | ".join(["", *tok]) + " |",
            "|---|" + "---:|" * len(tok),
            "| " + " | ".join([label, *shown]) + " |",
            "| " + " | ".join([f"e^{label}", *(num(x, dec) for x in ex_row)]) + " |",
            "| " + " | ".join([f"÷ total {num(total, dec)}", *(num(x, dec) for x in st.weights[i])]) + " |",
        ]
        files[f"softmax_{i}.md"] = "\n".join(lines) + "\n"
    # The mix written out per row: weights times value vectors, added column by column.
    for i in range(len(tok)):
        width = max(len(num(w, dec)) for w in st.weights[i])
        body = [
            f"{'  ' if j == 0 else '+ '}{num(w, dec):>{width}} × {vector(st.V[j], dec)}   ({tok[j]})"
            for j, w in enumerate(st.weights[i])
        ]
        body.append(f"= {vector(st.output[i], dec)}")
        files[f"mix_{i}.md"] = "```text\n" + "\n".join(body) + "\n```\n"
        cols = []
        labels = _out_dims(ex, st.V.shape[1])
        for k in range(st.V.shape[1]):
            terms = " + ".join(
                f"{num(w, dec)} × {cell(st.V[j, k], dec, is_integral(st.V))}" for j, w in enumerate(st.weights[i])
            )
            cols.append(f"- {labels[k]}: {terms} = {num(st.output[i, k], dec)}")
        files[f"columns_{i}.md"] = "\n".join(cols) + "\n"
    return {name: HEADER + "\n" + text for name, text in files.items()}


_GENERATED: dict[str, Callable[[], str]] = {}


def generated(relpath: str):
    """Register a function returning the text of ``docs/generated/<relpath>`` (a topic's
    table that is not one of an example's). The header comment is added for you."""

    def register(fn):
        _GENERATED[relpath] = fn
        return fn

    return register


# Generated files that are not includes under docs/generated/ (for example the notebooks,
# docs/notebooks/<page>.ipynb): written as the function returns them, with no header, since
# their format (JSON) has no comments. They are checked up to date like every generated file.
_GENERATED_FILES: dict[str, Callable[[], str]] = {}


def generated_file(docs_relpath: str):
    """Register a function returning the whole text of ``docs/<docs_relpath>``."""

    def register(fn):
        _GENERATED_FILES[docs_relpath] = fn
        return fn

    return register


# Generated files anywhere in the repository, by a function of the current examples (each
# worked example's page, scripts and notebook: publish/example_pages.py).
_GENERATED_SETS: list[Callable[[list[examples.Example]], dict[Path, str]]] = []


def generated_set(fn):
    """Register ``fn(examples) -> {path: text}``, called with every worked example."""
    _GENERATED_SETS.append(fn)
    return fn


def generate() -> dict[Path, str]:
    """Every generated file, by path: each worked example's, then each registered one.
    SpecError when an example's spec is bad (:func:`selfattn_ref.examples.load_all`)."""
    from . import diagrams, example_pages, notebooks  # noqa: F401 - they register their files
    from .sources import load_all

    load_all()
    every = examples.load_all()
    topics = {relpath.split("/")[0] for relpath in _GENERATED}
    for ex in every:
        if ex.slug in topics:
            raise examples.SpecError(
                f"{ex.path}: the slug {ex.slug!r} is taken by the generated tables of a page "
                f"(docs/generated/{ex.slug}/); rename the file"
            )
    out: dict[Path, str] = {}
    for ex in every:
        for name, text in example_files(ex).items():
            out[GENERATED / ex.slug / name] = text
    for fn in _GENERATED_SETS:
        out.update(fn(every))
    for relpath, fn in sorted(_GENERATED.items()):
        text = fn()
        out[GENERATED / relpath] = HEADER + "\n" + text if relpath.endswith(".md") else text  # JSON has no comments
    for relpath, fn in sorted(_GENERATED_FILES.items()):
        out[DOCS / relpath] = fn()
    return out
