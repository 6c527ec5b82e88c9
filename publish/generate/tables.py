"""Markdown tables and worked lines generated from the worked examples.

:func:`example_files` gives the files of ``docs/generated/<slug>/`` for each worked example
(registered with :mod:`.registry`); the topics' tables (``publish/generate/topics/``) use
:func:`matrix_table` and :func:`weights_table` too. Pages include them with
``--8<-- "docs/generated/<slug>/<name>.md"``; ``make update`` writes them and a test holds
them equal to what the reference gives now. Labels (a spec's tokens) are escaped for Markdown.
"""

from __future__ import annotations

import json

import numpy as np

from selfattn_ref import examples
from selfattn_ref.attention import softmax_terms

from .. import GENERATED
from ..escape import md_line, md_text
from ..fmt import cell, is_integral, num, vector
from .registry import banner, generated_set


def matrix_table(M, row_labels, col_labels, decimals: int, corner: str = "", errors=None) -> str:
    """A Markdown table with bold row labels and right-aligned numbers; ``errors``: the bound on each
    number's float64 error (:func:`selfattn_ref.examples.errors`), or None for exact numbers."""
    M = np.asarray(M)
    errs = np.zeros(M.shape) if errors is None else np.asarray(errors)
    integral = is_integral(M)
    lines = [
        "| " + " | ".join([md_text(corner), *map(md_text, col_labels)]) + " |",
        "|" + "---|" + "---:|" * len(col_labels),
    ]
    for label, row, erow in zip(row_labels, M, errs, strict=True):
        texts = (cell(x, decimals, integral, e) for x, e in zip(row, erow, strict=True))
        lines.append("| " + " | ".join([f"**{md_text(label)}**", *texts]) + " |")
    return "\n".join(lines) + "\n"


def beside(table: str, figure: str) -> str:
    """A table and its figure side by side (extra.css, ``.weights-figure``; the pair wraps on a
    narrow screen). md_in_html parses the table inside the ``<div>``; the figure is one line
    of SVG (:mod:`.figures`), which Markdown leaves alone, even indented in a tab."""
    return f'<div class="weights-figure" markdown>\n\n{table}\n{figure}\n\n</div>\n'


NOTEBOOK_ONLY = "<!-- notebook only: "


def notebook_only(markdown: str) -> str:
    """``markdown`` (a table) for the page's notebook alone, on one line: an HTML comment, which the
    page leaves out (pymdownx.striphtml, mkdocs.yml) and publish/generate/notebooks.py reads back. For a figure
    whose numbers the page prints only inside it: the notebook shows a figure as a line naming it.
    The text is a JSON string with every non-ASCII character and every "-" escaped, so that no
    "--" (nor "-->") is in the comment."""
    text = json.dumps(markdown, ensure_ascii=True).replace("-", "\\u002d")
    return f"{NOTEBOOK_ONLY}{text} -->\n"


def weights_table(
    M, row_labels, col_labels, decimals: int, title: str, axes: tuple[str, str] = ("query", "key"), errors=None
) -> str:
    """A matrix of attention weights: its table and, beside it, its heatmap (same rounding). ``axes``
    names what the rows and the columns are, in the table's corner and on the heatmap's axes alike."""
    from .figures import heatmap

    rows, cols = axes
    return beside(
        matrix_table(M, row_labels, col_labels, decimals, f"{rows} ↓ {cols} →", errors),
        heatmap(M, row_labels, col_labels, decimals, title=title, row_title=rows, col_title=cols, errors=errors),
    )


def _dims(d: int) -> list[str]:
    return [f"x{i + 1}" for i in range(d)]


def _out_dims(ex: examples.Example, d: int) -> list[str]:
    return _dims(d) if ex.projections == "none" else [f"c{j + 1}" for j in range(d)]


def operand(number: str) -> str:
    """A number as an operand of written-out arithmetic: a negative one in parentheses, so that no
    sign follows another, "0.144×(-0.030) + (-0.947)×0.656", not "0.144×-0.030 + -0.947×0.656".
    Every worked line of the site writes its operands so (publish/audit/retired.toml holds it)."""
    return f"({number})" if number.startswith(("-", "\u2212")) else number


def _dot_line(a: str, b: str, u, v, decimals: int, du, dv, d_total: float) -> str:
    """ "a · b = u1×v1 + ... = total", each number with its error's digits (du, dv, d_total)."""
    integral = is_integral(u) and is_integral(v)
    pairs = zip(u, v, du, dv, strict=True)
    terms = " + ".join(
        f"{operand(cell(x, decimals, integral, ex))}×{operand(cell(y, decimals, integral, ey))}"
        for x, y, ex, ey in pairs
    )
    total = float(np.dot(u, v))
    # The first token starts a list item: md_line, so that "9." or "-" stays text, not a list.
    return f"{md_line(a)} · {md_text(b)} = {terms} = {cell(total, decimals, integral, d_total)}"


def mix_lines(weights, V, output, tokens, decimals: int, errors=None) -> str:
    """One token's mix written out, a code block of lines ``+ 0.245 × [1, 1, 0, 0]   (river)``:
    its weights (n,) times the value vectors V (n, d_v), added, ``= output`` (d_v,). ``errors``: the
    bounds on the three's float64 errors, (weights, V, output) of the same shapes, or None for exact
    numbers."""
    dw, dV, dout = (np.zeros(np.shape(a)) for a in (weights, V, output)) if errors is None else errors
    ws = [num(w, decimals, e) for w, e in zip(weights, dw, strict=True)]
    width = max(len(w) for w in ws)
    body = [
        f"{'  ' if j == 0 else '+ '}{w:>{width}} × {vector(V[j], decimals, dV[j])}   ({tokens[j]})"
        for j, w in enumerate(ws)
    ]
    body.append(f"= {vector(output, decimals, dout)}")
    return "```text\n" + "\n".join(body) + "\n```\n"


def printed(ex: examples.Example, st: examples.Steps, err: examples.Errors | None = None) -> list[np.ndarray]:
    """Every array whose numbers the example's generated files print: its tables, worked lines and
    scripts (to say, with :data:`selfattn_ref.examples.digits.FEWER`, where a number prints with
    fewer decimals). With ``err`` (:func:`selfattn_ref.examples.errors`), their bounds instead, in
    the same order."""
    src = st if err is None else err
    weights = (
        ([ex.W_Q, ex.W_K, ex.W_V] if err is None else [err.W_Q, err.W_K, err.W_V])
        if ex.projections in ("random", "given")
        else []
    )
    heads = src.heads or (src,)
    attention = [a for head in heads for a in _attention(head)]
    if src.heads:  # each head's output has its own table, then the joined output
        attention += [head.output for head in heads]
    return [ex.E if err is None else err.E, *weights, src.Q, src.K, src.V, *attention, src.output]


def _attention(st) -> list[np.ndarray]:
    """The arrays of one head's attention that the files print (of its Steps, or of their Errors)."""
    if isinstance(st, examples.Steps):
        logits = st.scaled if st.scaled is not None else st.scores
        terms, totals = softmax_terms(logits, st.mask)
    else:
        terms, totals = st.terms, st.totals
    return [st.scores, *([] if st.scaled is None else [st.scaled]), st.weights, terms, totals]


def example_files(ex: examples.Example) -> dict[str, str]:
    """The generated files of one example, by file name. With several heads, the steps of each
    head are ``head_<k>_<name>.md`` (k from 1): its Q, K and V, dot products, scores, scaled
    scores, weights and output, and its softmax, mix and columns written out for each token.
    Every number has the digits its float64 error leaves (:func:`selfattn_ref.examples.errors`)."""
    st = examples.run(ex)
    err = examples.errors(ex, st)
    tok = list(ex.tokens)
    dec = ex.decimals
    d = ex.E.shape[1]
    files = {
        "embeddings.md": matrix_table(ex.E, tok, _dims(d), dec, "token", err.E),
        # The output is weights · V: its columns are V's (c1, c2, ...), which are the embedding's
        # features (x1, x2, ...) only when nothing projects them. With several heads it is the
        # heads' outputs side by side (times W_O = I), so the columns are V's too.
        "output.md": matrix_table(st.output, tok, _out_dims(ex, st.output.shape[1]), dec, "output", err.output),
    }
    if ex.projections in ("random", "given"):
        for name in ("W_Q", "W_K", "W_V"):
            W = getattr(ex, name)
            cols = [f"c{j + 1}" for j in range(W.shape[1])]
            files[f"{name}.md"] = matrix_table(W, _dims(W.shape[0]), cols, dec, errors=getattr(err, name))
    if ex.projections != "none":
        for name in ("Q", "K", "V"):
            M = getattr(st, name)
            cols = [f"c{j + 1}" for j in range(M.shape[1])]
            files[f"{name}.md"] = matrix_table(M, tok, cols, dec, name, getattr(err, name))
    if not st.heads:
        files |= _attention_files(ex, st, err, _out_dims(ex, st.V.shape[1]), "")
        return {name: banner(example_files, "md") + "\n\n" + text for name, text in files.items()}
    out_dims = _out_dims(ex, st.V.shape[1])
    for k, (head, head_err) in enumerate(zip(st.heads, err.heads, strict=True)):
        w = head.V.shape[1]
        cols = out_dims[k * w : (k + 1) * w]  # the columns of Q, K and V that head k takes
        prefix = f"head_{k + 1}_"
        for name in ("Q", "K", "V"):
            M, E = getattr(head, name), getattr(head_err, name)
            files[f"{prefix}{name}.md"] = matrix_table(M, tok, cols, dec, name, E)
        files |= _attention_files(ex, head, head_err, cols, prefix, f" in head {k + 1}", k + 1)
        files[f"{prefix}output.md"] = matrix_table(head.output, tok, cols, dec, f"head {k + 1}", head_err.output)
    return {name: banner(example_files, "md") + "\n\n" + text for name, text in files.items()}


def _attention_files(ex, st, err, out_cols, prefix: str, where: str = "", head: int | None = None) -> dict[str, str]:
    """The files of one head's attention (the only head, or head ``head``): its scores (scaled),
    weights, dot products, and the softmax, mix and columns of each token written out; ``err``:
    the bounds of its numbers' errors."""
    tok = list(ex.tokens)
    dec = ex.decimals
    title = f"attention weights of “{ex.title}”" if head is None else f"attention weights of head {head}"
    files = {
        "scores.md": matrix_table(st.scores, tok, tok, dec, "query ↓ key →", err.scores),
        "weights.md": weights_table(st.weights, tok, tok, dec, title, errors=err.weights),
    }
    if st.scaled is not None:
        files["scaled.md"] = matrix_table(st.scaled, tok, tok, dec, "query ↓ key →", err.scaled)
    # The scores written out: every dot product of a query with a key.
    dots = [
        _dot_line(tok[i], tok[j], st.Q[i], st.K[j], dec, err.Q[i], err.K[j], err.scores[i, j])
        for i in range(len(tok))
        for j in range(len(tok))
    ]
    files["dot_products.md"] = "".join(f"- {line}\n" for line in dots)
    # The softmax written out per row: e^score, the total, the division.
    logits = st.scaled if st.scaled is not None else st.scores
    d_logits = err.scaled if st.scaled is not None else err.scores
    terms, totals = softmax_terms(logits, st.mask)  # e^score (0 where masked) and each row's total
    for i in range(len(tok)):
        row = logits[i]
        allowed = np.ones(len(tok), bool) if st.mask is None else st.mask[i]
        ex_row, total = terms[i], totals[i]
        label = "scaled score" if st.scaled is not None else "score"
        shown = [
            cell(x, dec, is_integral(row), e) if a else "−∞" for x, e, a in zip(row, d_logits[i], allowed, strict=True)
        ]
        powers = (num(x, dec, e) for x, e in zip(ex_row, err.terms[i], strict=True))
        shares = (num(x, dec, e) for x, e in zip(st.weights[i], err.weights[i], strict=True))
        lines = [
            "| " + " | ".join(["", *map(md_text, tok)]) + " |",
            "|---|" + "---:|" * len(tok),
            "| " + " | ".join([label, *shown]) + " |",
            "| " + " | ".join([f"e^{label}", *powers]) + " |",
            "| " + " | ".join([f"÷ total {num(total, dec, err.totals[i])}", *shares]) + " |",
        ]
        files[f"softmax_{i}.md"] = "\n".join(lines) + "\n"
    # The mix written out per row: weights times value vectors, added column by column.
    for i in range(len(tok)):
        files[f"mix_{i}.md"] = mix_lines(
            st.weights[i], st.V, st.output[i], tok, dec, (err.weights[i], err.V, err.output[i])
        )
        ws = [num(w, dec, e) for w, e in zip(st.weights[i], err.weights[i], strict=True)]
        cols = []
        integral = is_integral(st.V)
        for k in range(st.V.shape[1]):
            terms_ = " + ".join(
                f"{w} × {operand(cell(st.V[j, k], dec, integral, err.V[j, k]))}" for j, w in enumerate(ws)
            )
            cols.append(f"- {out_cols[k]}: {terms_} = {num(st.output[i, k], dec, err.output[i, k])}")
        files[f"columns_{i}.md"] = "\n".join(cols) + "\n"
    return {prefix + name: text for name, text in files.items()}


@generated_set(owns=[(GENERATED, "*/*.md")], writers=[example_files])
def _example_tables(every: list[examples.Example]) -> dict:
    """The tables of every worked example, under ``docs/generated/<slug>/``."""
    return {GENERATED / ex.slug / name: text for ex in every for name, text in example_files(ex).items()}
