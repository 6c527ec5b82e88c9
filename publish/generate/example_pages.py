"""A page, two scripts and a notebook for every worked example, generated from its spec file.

A contributor adds one file, ``selfattn_ref/examples/<slug>.toml`` (``make example NAME=<slug>``,
that is ``python -m publish new-example <slug>``, writes a valid one), and ``make update`` writes
from it:

- ``snippets/examples/<slug>_numpy.py`` and ``<slug>_torch.py``: standalone scripts with the
  example's numbers typed in, which compute every step and print it (they print the very same
  text, a test holds them to it); ``make update`` then records what they print (``.out``);
- ``docs/examples/<slug>.md``: the page, with the step tables and heatmap of
  ``docs/generated/<slug>/`` (:func:`.tables.example_files`), the two scripts and their
  recorded output, a sentence per token on where its attention goes, and links to the
  playground (``playground.md?preset=<slug>``) and to the notebook;
- ``docs/notebooks/examples/<slug>.ipynb``: the NumPy script as a notebook, with the recorded
  output as the cell's output (mkdocs.yml leaves these notebooks unexecuted at build time: the
  output is the script's recorded run, which the tests compare with a fresh run);
- ``docs/examples/index.md``: the gallery, whose table (one row per example) the build puts in
  (:mod:`publish.markdown.gallery`): the page is the same whichever examples there are.

The site hook (:mod:`publish.mkdocs.worked_examples`) lists the pages under "Worked examples" in the
navigation, and the tests are parametrized over :func:`selfattn_ref.examples.available`, so a new example
needs no wiring. Nothing here is written by hand: the tests hold every file equal to what this
module gives now.
"""

from __future__ import annotations

import numpy as np

from selfattn_ref import examples
from selfattn_ref.examples.digits import DIGITS, FEWER, decimals_shown, shortens
from selfattn_ref.examples.rules import description_parts

from .. import DOCS, ROOT, SNIPPETS
from ..escape import md_description, md_text, nb_text, py_string
from ..fmt import num
from ..source.mkdocs_yml import repository
from .notebooks import _code, _markdown, _ran, dumps, new_notebook
from .registry import banner, current, generated_set, name_of
from .snippets import SCRIPT_SECTION, shown_whole
from .tables import printed

FOLDER = "examples"  # docs/examples/, snippets/examples/, docs/notebooks/examples/
PAGES_DIR = DOCS / FOLDER
SNIPPETS_DIR = SNIPPETS / FOLDER
NOTEBOOKS_DIR = DOCS / "notebooks" / FOLDER
LIBRARIES = ("numpy", "torch")


def page_path(slug: str):
    return PAGES_DIR / f"{slug}.md"


def snippet_path(slug: str, library: str):
    return SNIPPETS_DIR / f"{slug}_{library}.py"


def notebook_path(slug: str):
    return NOTEBOOKS_DIR / f"{slug}.ipynb"


def check_links(every: list[examples.Example]) -> None:
    """SpecError for a link of a description that leads to no page of the site: the link checks
    of the rules (selfattn_ref.examples.rules) see only its form, and the build then failed naming
    the generated page. A page is one of the navigation's (mkdocs.yml), or an example's of ``every``;
    the message names the spec, the key and the line."""
    from ..source.mkdocs_yml import nav  # noqa: PLC0415 - mkdocs.yml read only for a description that links

    pages = None
    for ex in every:
        for part in (part for parts in description_parts(ex.description or "") for part in parts):
            if part.kind != "link":
                continue
            if pages is None:
                pages = {(DOCS / p).resolve() for _, p in nav()} | {page_path(e.slug).resolve() for e in every}
            target = (PAGES_DIR / part.target.split("#")[0]).resolve()
            if target not in pages:
                shown = target.relative_to(ROOT).as_posix() if target.is_relative_to(ROOT) else str(target)
                raise examples.SpecError(
                    f"{examples.spec_location(ex.path, 'description', part.target)}: 'description' links to "
                    f"{part.target!r}, and {shown} is no page of the site: link a page of docs/ by its path from "
                    "docs/examples/, as ../masking.md, or another example's page, as the_cat_sat.md"
                )


def spec_relpath(ex: examples.Example) -> str:
    return ex.path.relative_to(ROOT).as_posix()


# --- the scripts ----------------------------------------------------------------------------


def _rows(M, labels, indent: str) -> list[str]:
    """The rows of a matrix literal, one per line, each with its label as a comment."""
    rows = [f"[{', '.join(examples.number_literal(x) for x in row)}]" for row in np.asarray(M)]
    width = max(len(r) for r in rows) + 1
    out = []
    for i, r in enumerate(rows):
        text = f"{r}," if i < len(rows) - 1 else f"{r}"
        out.append(f"{indent}{text:<{width}}  # {py_string(labels[i])}" if labels else f"{indent}{text}")
    return out


def _matrix(name: str, M, labels, library: str, comment: str) -> list[str]:
    opener = f"{name} = np.array([" if library == "numpy" else f"{name} = torch.tensor(["
    closer = "], dtype=np.float64)" if library == "numpy" else "], dtype=torch.float64)"
    lines = [opener, *_rows(M, labels, "    "), closer + f"  # {comment}"]
    return lines


# pymdownx.snippets' section markers: the page includes "<script>.py:math", the lines between them,
# and "<script>.py:script", the whole script without the banner above it (publish.generate.snippets.shown_whole).
MATH_START, MATH_END = "# --8<-- [start:math]", "# --8<-- [end:math]"
SCRIPT_START, SCRIPT_END = f"# --8<-- [start:{SCRIPT_SECTION}]", f"# --8<-- [end:{SCRIPT_SECTION}]"


# Printing is the same code in both scripts, so that both print exactly the same text.
def _printing(decimals: int, fewer: bool, held: dict[str, list] | None = None) -> list[str]:
    """The scripts' printing helpers. With ``fewer`` (a number the script prints is long) fmt
    follows the pages' rule (:mod:`selfattn_ref.examples.digits`) in two more lines. ``held``: for
    the matrices some of whose numbers hold fewer decimals than that (their float64 error, bounded
    by :func:`selfattn_ref.examples.errors`: large terms that cancel), by title, each number's
    decimals; the script types them in (HELD), as the tables print them."""
    held = held or {}
    if fewer or held:
        fmt = [
            f'    """x at {decimals} decimals, fewer where that would be more than {DIGITS} digits (a float64',
            '    holds no more) or than the float64 arithmetic that made it holds (held); "-inf" for a masked',
            '    score, never "-0"."""' if held else '    holds no more); "-inf" for a masked score, never "-0"."""',
            '    if x == float("-inf"):',
            '        return "-inf"',
            f"    places = max(0, min({decimals}, {DIGITS} - len(str(int(abs(x))))))",
            f'    if places and len(f"{{abs(x):.{{places}}f}}") > {DIGITS + 1}:  # rounding added a digit',
            "        places -= 1",
            *(["    places = places if held is None else min(places, held)"] if held else []),
            '    text = f"{x:.{places}f}"',
        ]
        if not held:
            fmt[1:3] = ['    holds no more); "-inf" for a masked score, never "-0"."""']
    else:
        fmt = [
            f'    """x at {decimals} decimals ("-inf" for a masked score), never "-0"."""',
            f'    text = f"{{x:.{decimals}f}}"',
        ]
    table = []
    if held:
        table = [
            "",
            "",
            "# The decimals each number of these holds: its float64 error, bounded by the size of the terms",
            "# that made it (selfattn_ref.examples.errors), leaves no more. Large terms that cancel leave few.",
            "HELD = {",
            *(f"    {py_string(title)}: {places!r}," for title, places in held.items()),
            "}",
        ]
    cells = (
        "    cells = [[fmt(x, HELD[title][i][j] if title in HELD else None) for j, x in enumerate(row)]"
        " for i, row in enumerate(M.tolist())]"
        if held
        else "    cells = [[fmt(x) for x in row] for row in M.tolist()]"
    )
    return [
        *table,
        "",
        "",
        "def fmt(x, held=None):" if held else "def fmt(x):",
        *fmt,
        '    return text[1:] if text.startswith("-") and float(text) == 0 else text',
        "",
        "",
        "def show(title, M, rows, columns):",
        '    """Print M with a label on every row and column."""',
        cells,
        "    width = 2 + max(len(c) for c in [*columns, *(c for row in cells for c in row)])",
        "    left = max(len(r) for r in rows)",
        "    print(title)",
        '    print(" " * left + "".join(f"{c:>{width}}" for c in columns))',
        "    for label, row in zip(rows, cells, strict=True):",
        '        print(f"{label:<{left}}" + "".join(f"{c:>{width}}" for c in row))',
        "    print()",
        "",
        "",
    ]


def _held(shown: dict[str, tuple], decimals: int) -> dict[str, list]:
    """For each matrix a script prints (title -> (values, their errors)) some of whose numbers
    hold fewer decimals than the 15-digit rule alone leaves them, the decimals of each."""
    out = {}
    for title, (M, err) in shown.items():
        places = [
            [decimals_shown(x, decimals, e) for x, e in zip(row, erow, strict=True)]
            for row, erow in zip(M, err, strict=True)
        ]
        plain = [[decimals_shown(x, decimals) for x in row] for row in M]
        if places != plain:
            out[title] = places
    return out


def script(ex: examples.Example, library: str) -> str:
    """The standalone script of ``ex`` for ``library`` ("numpy" or "torch")."""
    if library not in LIBRARIES:
        raise ValueError(f"library must be one of {LIBRARIES}, got {library!r}")
    st = examples.run(ex)
    npy = library == "numpy"
    n, d = ex.E.shape
    d_k = st.Q.shape[1]
    tokens = list(ex.tokens)
    lines = [  # spec text only as literals written by a serializer (py_string), never pasted
        banner(script, "py"),  # for the build, above the script section that the page shows whole
        SCRIPT_START,
        f"# {ex.slug}: self-attention step by step, in {'NumPy' if npy else 'PyTorch'}.",
        f"# From {spec_relpath(ex)}.",
    ]
    lines.append(MATH_START)  # the page shows the math, from here to MATH_END; the printing is folded
    if npy:
        lines.append("import numpy as np")
    else:
        if ex.projections == "random":
            lines.append("import numpy as np  # only for NumPy's seeded generator, so both versions draw the same W")
        lines.append("import torch")
    lines += ["", f"tokens = [{', '.join(py_string(t) for t in tokens)}]"]
    lines += _matrix("X", ex.E, tokens, library, f"({n}, {d}): one embedding per token")
    lines.append("")
    if ex.projections == "none":
        lines.append("Q = K = V = X  # no projections: each embedding is its own query, key and value")
    else:
        if ex.projections == "identity":
            eye = f"np.eye({d})" if npy else f"torch.eye({d}, dtype=torch.float64)"
            lines.append(f"W_Q = W_K = W_V = {eye}  # identity projections")
        elif ex.projections == "random":
            lines.append(f"rng = np.random.default_rng({ex.seed})  # W_Q, W_K, W_V drawn in this order")
            for name in ("W_Q", "W_K", "W_V"):
                draw = f"rng.normal(0, {examples.number_literal(ex.std)}, ({d}, {d}))"
                lines.append(f"{name} = {draw}" if npy else f"{name} = torch.from_numpy({draw})")
        else:  # given
            for name in ("W_Q", "W_K", "W_V"):
                W = getattr(ex, name)
                lines += _matrix(name, W, None, library, f"({W.shape[0]}, {W.shape[1]})")
        lines.append(
            f"Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # ({n}, {d_k}) queries and keys, ({n}, {st.V.shape[1]}) values"
        )
    if ex.heads > 1:
        return _script_heads(ex, st, library, lines)
    lines.append(f"scores = Q @ K.T  # ({n}, {n}): row i holds query i against every key")
    logits = "scores"
    if ex.scale:
        sqrt = "np.sqrt(K.shape[1])" if npy else "K.shape[1] ** 0.5"
        lines.append(f"scaled = scores / {sqrt}  # divided by √d_k, d_k = {d_k}")
        logits = "scaled"
    if ex.causal:
        if npy:
            lines.append(f"mask = np.tril(np.ones(({n}, {n}), dtype=bool))  # token i may attend to tokens 0..i")
            lines.append(f"{logits} = np.where(mask, {logits}, -np.inf)  # e^-inf = 0: no weight on later tokens")
        else:
            lines.append(
                f"mask = torch.tril(torch.ones({n}, {n}, dtype=torch.bool))  # token i may attend to tokens 0..i"
            )
            lines.append(
                f'{logits} = {logits}.masked_fill(~mask, float("-inf"))  # e^-inf = 0: no weight on later tokens'
            )
    if npy:
        lines.append(f"weights = np.exp({logits} - {logits}.max(axis=1, keepdims=True))  # the row max subtracted")
        lines.append("weights = weights / weights.sum(axis=1, keepdims=True)  # softmax: each row sums to 1")
    else:
        lines.append(f"weights = torch.softmax({logits}, dim=1)  # each row sums to 1")
    lines.append(f"output = weights @ V  # ({n}, {st.V.shape[1]}): row i mixes the values with row i's weights")
    lines.append(MATH_END)
    err = examples.errors(ex, st)
    masked = ", then masked" if ex.causal else ""  # the mask is applied to the last of the two
    shown = {"Q = X W_Q": (st.Q, err.Q), "K = X W_K": (st.K, err.K), "V = X W_V": (st.V, err.V)}
    if ex.projections == "none":
        shown = {}
    shown[f"scores Q K^T{'' if ex.scale else masked}"] = (st.scores, err.scores)
    if ex.scale:
        shown[f"scaled by sqrt(d_k){masked}"] = (st.scaled, err.scaled)
    shown |= {"weights (softmax of each row)": (st.weights, err.weights), "output": (st.output, err.output)}
    lines += _printing(ex.decimals, shortens(printed(ex, st), ex.decimals), _held(shown, ex.decimals))
    qk_cols = f'[f"c{{j + 1}}" for j in range({d_k})]'
    out_cols = (
        f'[f"x{{j + 1}}" for j in range({st.output.shape[1]})]'
        if ex.projections == "none"
        else (f'[f"c{{j + 1}}" for j in range({st.V.shape[1]})]')
    )
    if ex.projections != "none":
        lines += [
            f'show("Q = X W_Q", Q, tokens, {qk_cols})',
            f'show("K = X W_K", K, tokens, {qk_cols})',
            f'show("V = X W_V", V, tokens, {out_cols})',
        ]
    lines.append(f'show("scores Q K^T{"" if ex.scale else masked}", scores, tokens, tokens)')
    if ex.scale:
        lines.append(f'show("scaled by sqrt(d_k){masked}", scaled, tokens, tokens)')
    lines += [
        'show("weights (softmax of each row)", weights, tokens, tokens)',
        f'show("output", output, tokens, {out_cols})',
        SCRIPT_END,
    ]
    return "\n".join(lines) + "\n"


def _script_heads(ex: examples.Example, st: examples.Steps, library: str, lines: list[str]) -> str:
    """The rest of the script of an example with several heads: each head on its own columns of
    Q, K and V, as selfattn_ref.multi_head_attention computes them, then the heads side by side
    times W_O (the identity)."""
    npy = library == "numpy"
    n, d = ex.E.shape
    h = ex.heads
    d_head = d // h
    eye = f"np.eye({d})" if npy else f"torch.eye({d}, dtype=torch.float64)"
    lines += [
        f"W_O = {eye}  # the output projection: the identity, so the output shows each head's part",
        f"heads = {h}",
        f"d_head = Q.shape[1] // heads  # {d_head}: each head takes {d_head} of the {d} columns",
        "head_scores, head_scaled, head_weights, head_outputs = [], [], [], []",
        "for head in range(heads):",
        "    cols = slice(head * d_head, (head + 1) * d_head)  # this head's columns of Q, K and V",
        f"    scores = Q[:, cols] @ K[:, cols].T  # ({n}, {n}): this head's queries against its keys",
        f"    scaled = scores / {'np.sqrt(d_head)' if npy else 'd_head ** 0.5'}  # divided by √d_head",
    ]
    if ex.causal:
        if npy:
            lines += [
                f"    mask = np.tril(np.ones(({n}, {n}), dtype=bool))  # token i may attend to tokens 0..i",
                "    scaled = np.where(mask, scaled, -np.inf)  # e^-inf = 0: no weight on later tokens",
            ]
        else:
            lines += [
                f"    mask = torch.tril(torch.ones({n}, {n}, dtype=torch.bool))  # token i may attend to tokens 0..i",
                '    scaled = scaled.masked_fill(~mask, float("-inf"))  # e^-inf = 0: no weight on later tokens',
            ]
    if npy:
        lines += [
            "    weights = np.exp(scaled - scaled.max(axis=1, keepdims=True))  # the row max subtracted",
            "    weights = weights / weights.sum(axis=1, keepdims=True)  # softmax: each row sums to 1",
        ]
    else:
        lines.append("    weights = torch.softmax(scaled, dim=1)  # each row sums to 1")
    cat = "np.concatenate(head_outputs, axis=1)" if npy else "torch.cat(head_outputs, dim=1)"
    lines += [
        "    head_scores.append(scores)",
        "    head_scaled.append(scaled)",
        "    head_weights.append(weights)",
        f"    head_outputs.append(weights @ V[:, cols])  # ({n}, {d_head}): this head's output",
        f"output = {cat} @ W_O  # ({n}, {d}): the heads side by side, times W_O",
        MATH_END,
    ]
    err = examples.errors(ex, st)
    masked = ", then masked" if ex.causal else ""
    shown = {"Q = X W_Q": (st.Q, err.Q), "K = X W_K": (st.K, err.K), "V = X W_V": (st.V, err.V)}
    for k, (head, e) in enumerate(zip(st.heads, err.heads, strict=True), 1):
        shown |= {
            f"head {k}: scores": (head.scores, e.scores),
            f"head {k}: scaled by sqrt(d_head){masked}": (head.scaled, e.scaled),
            f"head {k}: weights (softmax of each row)": (head.weights, e.weights),
            f"head {k}: output": (head.output, e.output),
        }
    shown["output (the heads side by side, times W_O)"] = (st.output, err.output)
    lines += _printing(ex.decimals, shortens(printed(ex, st), ex.decimals), _held(shown, ex.decimals))
    cols = f'[f"c{{j + 1}}" for j in range({d})]'
    lines += [
        f'show("Q = X W_Q", Q, tokens, {cols})',
        f'show("K = X W_K", K, tokens, {cols})',
        f'show("V = X W_V", V, tokens, {cols})',
        "for head in range(heads):",
        '    head_cols = [f"c{head * d_head + j + 1}" for j in range(d_head)]',
        '    show(f"head {head + 1}: scores", head_scores[head], tokens, tokens)',
        f'    show(f"head {{head + 1}}: scaled by sqrt(d_head){masked}", head_scaled[head], tokens, tokens)',
        '    show(f"head {head + 1}: weights (softmax of each row)", head_weights[head], tokens, tokens)',
        '    show(f"head {head + 1}: output", head_outputs[head], tokens, head_cols)',
        f'show("output (the heads side by side, times W_O)", output, tokens, {cols})',
        SCRIPT_END,
    ]
    return "\n".join(lines) + "\n"


# --- the page -------------------------------------------------------------------------------

_PROJECTIONS = {
    "none": "No projections: each embedding serves as its own query, key and value, so the page computes "
    "softmax(X·Xᵀ)·X, as in [Self-attention with real numbers](../real-numbers.md).",
    "identity": "Identity projections: W_Q = W_K = W_V = I, so the queries, keys and values equal the "
    "embeddings (see [Queries, keys and values](../queries-keys-values.md)).",
    "random": "Projections that are seeded random stand-ins for the weights [training](../glossary.md#training) "
    "would learn: W_Q, W_K "
    "and W_V are drawn, in this order, "
    "from NumPy's generator with the seed and the standard deviation of the spec file (the script below "
    "shows the call; see [Learned weights](../learned-weights.md)).",
    "given": "Projection matrices given in the spec file: W_Q, W_K and W_V below.",
}


def _include(path: str, indent: str = "") -> str:
    return f'{indent}--8<-- "{path}"\n'


def _tables(slug: str, name: str, indent: str = "") -> str:
    return _include(f"docs/generated/{slug}/{name}.md", indent)


def _other_rows(ex: examples.Example, name: str, indent: str = "") -> list[str]:
    """The rows after the first of a step written out (``softmax_<i>``, ``mix_<i>``), folded away."""
    if len(ex.tokens) == 1:
        return []
    parts = [f'{indent}??? note "The other rows"', ""]
    for i in range(1, len(ex.tokens)):
        parts += [f"{indent}    “{md_text(ex.tokens[i])}”:", "", _tables(ex.slug, f"{name}_{i}", indent + "    ")]
    return parts


def _focus(ex: examples.Example, st: examples.Steps, errors, indent: str = "") -> list[str]:
    """One line per token: the token(s) it gives its largest weight to, at the page's rounding, or
    that it spreads its attention evenly where every key it may look at gets the same weight. The
    weights themselves are in the table just above, so the sentences repeat no number."""
    lines = []
    for i, token in enumerate(ex.tokens):
        shown = [num(w, ex.decimals, e) for w, e in zip(st.weights[i], errors[i], strict=True)]  # as the table
        top = max(range(len(shown)), key=lambda j: st.weights[i, j])
        ties = [
            ("itself" if j == i else f"“{md_text(ex.tokens[j])}”") for j in range(len(shown)) if shown[j] == shown[top]
        ]
        who = ", ".join(ties[:-1]) + (" and " if len(ties) > 1 else "") + ties[-1]
        visible = i + 1 if ex.causal else len(shown)  # the keys the row may look at
        if ex.causal and i == 0:
            lines.append(f"{indent}- **{md_text(token)}** comes first and can only attend to itself.")
        elif len(ties) == visible:  # an even spread: no key comes first
            lines.append(f"{indent}- **{md_text(token)}** spreads its attention evenly, the same weight on {who}.")
        elif len(ties) > 1:
            lines.append(f"{indent}- **{md_text(token)}** attends most to {who}, as much to each.")
        else:
            lines.append(f"{indent}- **{md_text(token)}** attends most to {who}.")
    return lines


def page(ex: examples.Example) -> str:
    """The Markdown of the example's page."""
    st = examples.run(ex)
    err = examples.errors(ex, st)
    slug = ex.slug
    n, d = ex.E.shape
    d_k = st.Q.shape[1]
    parts: list[str] = [
        "---",
        "audit:",
        f"  sources: [{slug}]",
        # Tables of numbers, as many as there are examples: kept out of the search index, which
        # every page downloads (the gallery lists each example's title and tokens for search).
        "search:",
        "  exclude: true",
        "---",
        "",
        banner(page, "md", spec_relpath(ex)),
        "",
        f"# {md_text(ex.title)}",
        "",
    ]
    if ex.description:  # plain prose with the inline Markdown the rules allow, the rest escaped
        parts += [md_description(ex.description), ""]
    parts += [
        '!!! info "Generated from one file"',
        f"    This page, its tables, its code and its notebook are generated from `{spec_relpath(ex)}` "
        "by the project's reference code; every number on it is what that code computes, at the rounding "
        "shown. [Add a worked example](../add-an-example.md) of your own the same way.",
        "",
        f"[Open in the playground](../playground.md?preset={slug}){{ .md-button .md-button--primary }}",
        f"[Open as a notebook](../notebooks/examples/{slug}.ipynb){{ .md-button }}",
        "",
        "## The input",
        "",
        f"{n} tokens, each an embedding of {d} numbers:",
        "",
        _tables(slug, "embeddings"),
        "- " + _PROJECTIONS[ex.projections],
        *(_heads_input(ex, st) if st.heads else []),
        "- "
        + (
            (
                "Each head divides its scores by √d_head before the softmax."
                if st.heads
                else "The scores are divided by √d_k before the softmax."
            )
            if ex.scale
            else "The scores are not scaled."
        ),
        "- "
        + (
            "A causal mask: each token attends only to itself and the tokens before it."
            if ex.causal
            else "No mask: every token attends to every token."
        ),
        f"- Numbers are rounded to {ex.decimals} decimals"
        + (f", {FEWER}." if shortens(printed(ex, st), ex.decimals, printed(ex, st, err)) else "."),
        "",
    ]
    # The steps by their names, as every page names them (docs/notation.md, "The steps, by name").
    if ex.projections != "none":
        parts += ["## Project: queries, keys and values", ""]
        if ex.projections in ("random", "given"):
            parts += ["The three projection matrices, one row per embedding feature:", ""]
            for name in ("W_Q", "W_K", "W_V"):
                parts += [f'=== "{name}"', "", _tables(slug, name, "    ")]
        parts += ["Each token's query, key and value are its embedding times W_Q, W_K and W_V:", ""]
        for name in ("Q", "K", "V"):
            parts += [f'=== "{name}"', "", _tables(slug, name, "    ")]
    if st.heads:
        parts += _heads_sections(ex, st)
        parts += _code_sections(ex)
        return "\n".join(parts)
    parts += [
        "## Score",
        "",
        "Every query is compared with every key by a dot product: row *i*, column *j* is how much "
        "token *i*'s query matches token *j*'s key.",
        "",
        f'??? note "All {n * n} dot products"',
        "",
        _tables(slug, "dot_products", "    "),
        _tables(slug, "scores"),
    ]
    if ex.scale:
        parts += [
            "## Scale",
            "",
            f"Divided by √d_k, the square root of the width of a key (d_k = {d_k}), the scores stay in a "
            "range where the softmax does not pick a single token (see [Why divide by √d_k](../scaling.md)):",
            "",
            _tables(slug, "scaled"),
        ]
    label = "scaled score" if ex.scale else "score"
    parts += ["## Normalize: softmax", ""]
    if ex.causal:
        parts += [
            "The causal mask sets the scores of later tokens to −∞ before the softmax, so they get a weight "
            "of exactly 0 (see [Masking](../masking.md)).",
            "",
        ]
    parts += [
        f"Each row becomes weights that add up to 1: e to the power of each {label}, divided by the "
        f"row's total. For “{md_text(ex.tokens[0])}”:",
        "",
        _tables(slug, "softmax_0"),
    ]
    parts += _other_rows(ex, "softmax")
    parts += ["All the weights, and the same as a heatmap:", "", _tables(slug, "weights")]
    parts += _focus(ex, st, err.weights)
    parts += [
        "",
        "## Mix",
        "",
        "Each token's output is the sum of the value vectors, each times the weight in that token's row. "
        f"For “{md_text(ex.tokens[0])}”:",
        "",
        _tables(slug, "mix_0"),
    ]
    parts += _other_rows(ex, "mix")
    parts += ["The output, one row per token:", "", _tables(slug, "output")]
    parts += _code_sections(ex)
    return "\n".join(parts)


def _code_sections(ex: examples.Example) -> list[str]:
    """The page's end: the scripts with their output, and where to try the example."""
    slug = ex.slug
    parts = [
        "## In code",
        "",
        "The whole calculation as a script you can copy and run; both versions print the same. The block "
        "shows the math; the whole script, printing included, is folded under it.",
        "",
    ]
    for library, name in (("numpy", "NumPy"), ("torch", "PyTorch")):
        rel = snippet_path(slug, library).relative_to(ROOT).as_posix()
        parts += [
            f'=== "{name}"',
            "",
            f'    ```python title="{slug}_{library}.py: the math"',
            f'    --8<-- "{rel}:math"',
            "    ```",
            "",
            '    ??? example "The whole script, with the printing"',
            "",
            f'        ```python title="{slug}_{library}.py"',
            f'        --8<-- "{rel}:{SCRIPT_SECTION}"',
            "        ```",
            "",
            "    <!--pytest-codeblocks:expected-output-->",
            '    ```text title="Output"',
            f'    --8<-- "{rel[: -len(".py")]}.out"',
            "    ```",
            "",
        ]
    parts += [
        "## Try it yourself",
        "",
        f"- [Open the playground on this example](../playground.md?preset={slug}) and change any number.",
        f"- [Run it as a notebook](../notebooks/examples/{slug}.ipynb) (the page offers the `.ipynb` file).",
        f"- In a clone of [the repository]({repository()}), `python -m selfattn_ref explain {slug}` prints every step.",
        "",
    ]
    return parts


def _heads_input(ex: examples.Example, st: examples.Steps) -> list[str]:
    """The input's line on the heads, for an example with several."""
    h, d = ex.heads, ex.E.shape[1]
    return [
        f"- {h} heads, as in [Multi-head attention](../multi-head.md): each head takes d_head = {d} / {h} = "
        f"{d // h} of the columns of Q, K and V, computes attention on them alone, and the heads' outputs side "
        "by side, times W_O, are the output. Here W_O is the identity, so the output shows each head's part."
    ]


def _heads_sections(ex: examples.Example, st: examples.Steps) -> list[str]:
    """Split, score, scale, normalize and mix head by head (one tab per head), then concatenate."""
    err = examples.errors(ex, st)
    slug = ex.slug
    n = len(ex.tokens)
    h = ex.heads
    d_head = st.heads[0].Q.shape[1]
    names = [f"Head {k + 1}" for k in range(h)]

    def tabs(body) -> list[str]:
        out = []
        for k, name in enumerate(names):
            out += [f'=== "{name}"', "", *body(k, f"head_{k + 1}_", "    ")]
        return out

    def cols(k: int) -> str:
        first = k * d_head + 1
        return f"c{first}" if d_head == 1 else f"c{first}–c{first + d_head - 1}"

    parts = [
        "## Split: one share of the columns per head",
        "",
        f"Each head takes {d_head} of the columns of Q, K and V: "
        + ", ".join(f"head {k + 1} columns {cols(k)}" for k in range(h))
        + ". Every step below is computed by each head on its own columns.",
        "",
    ]
    parts += tabs(lambda k, p, i: [_tables(slug, f"{p}Q", i), _tables(slug, f"{p}K", i), _tables(slug, f"{p}V", i)])
    parts += [
        "## Score",
        "",
        "In each head, every query is compared with every key by a dot product of the head's columns: row "
        "*i*, column *j* is how much token *i*'s query matches token *j*'s key.",
        "",
    ]
    parts += tabs(
        lambda k, p, i: [
            f'{i}??? note "All {n * n} dot products of head {k + 1}"',
            "",
            _tables(slug, f"{p}dot_products", i + "    "),
            _tables(slug, f"{p}scores", i),
        ]
    )
    if ex.scale:
        parts += [
            "## Scale",
            "",
            f"Each head divides its scores by √d_head, the square root of the width of its keys (d_head = {d_head}), "
            "see [Why divide by √d_k](../scaling.md):",
            "",
        ]
        parts += tabs(lambda k, p, i: [_tables(slug, f"{p}scaled", i)])
    label = "scaled score" if ex.scale else "score"
    parts += ["## Normalize: softmax", ""]
    if ex.causal:
        parts += [
            "The causal mask sets the scores of later tokens to −∞ before the softmax, in every head, so they get "
            "a weight of exactly 0 (see [Masking](../masking.md)).",
            "",
        ]
    parts += [
        f"In each head, each row becomes weights that add up to 1: e to the power of each {label}, divided by "
        f"the row's total. For “{md_text(ex.tokens[0])}”, then all the weights and their heatmap:",
        "",
    ]
    parts += tabs(
        lambda k, p, i: [
            _tables(slug, f"{p}softmax_0", i),
            *_other_rows(ex, f"{p}softmax", i),
            _tables(slug, f"{p}weights", i),
            *_focus(ex, st.heads[k], err.heads[k].weights, i),
            "",
        ]
    )
    parts += [
        "## Mix",
        "",
        "In each head, each token's output is the sum of the head's value vectors, each times the weight in that "
        f"token's row. For “{md_text(ex.tokens[0])}”, then the head's output:",
        "",
    ]
    parts += tabs(
        lambda k, p, i: [
            _tables(slug, f"{p}mix_0", i),
            *_other_rows(ex, f"{p}mix", i),
            _tables(slug, f"{p}output", i),
        ]
    )
    parts += [
        "## Concatenate and project",
        "",
        "The heads' outputs side by side make one row of "
        f"{st.output.shape[1]} numbers per token, head 1's columns first; times W_O, the identity here, that is "
        "the output:",
        "",
        _tables(slug, "output"),
    ]
    return parts


def in_reading_order(every: list[examples.Example]) -> list[examples.Example]:
    """The examples as the gallery and the nav list them: by each spec's ``order``, then the
    examples without one, by slug."""
    return sorted(every, key=lambda ex: (ex.order is None, ex.order or 0, ex.slug))


# The gallery's words for a spec's ``projections``: what a newcomer needs to tell them apart.
_PROJECTIONS_SHOWN = {
    "none": "none: Q = K = V = X",
    "identity": "identity matrices",
    "random": "random (seeded) matrices",
    "given": "matrices in the spec",
}


# Where the gallery's table goes: publish.markdown.gallery (a Markdown extension) puts it there when the site is
# built, one row per example as the specs are then, so that a new example rewrites no shared file.
GALLERY_MARKER = (
    "<!-- The table of the worked examples, from their specs when the site is built (publish.markdown.gallery) -->"
)


def gallery_table(every: list[examples.Example]) -> str:
    """The gallery's table: one row per example, in reading order."""
    rows = [
        "| Example | Tokens | Size | Projections | Scaled | Mask |",
        "|---|---|---|---|---|---|",
    ]
    for ex in in_reading_order(every):
        n, d = ex.E.shape
        projections = _PROJECTIONS_SHOWN[ex.projections]
        rows.append(
            f"| [{md_text(ex.title)}]({ex.slug}.md) | {md_text(' '.join(ex.tokens))} | {n} × {d} | {projections} | "
            f"{'yes' if ex.scale else 'no'} | {'causal' if ex.causal else 'none'} |"
        )
    return "\n".join(rows)


def with_gallery(text: str, every: list[examples.Example]) -> str:
    """``text`` (the gallery page) with its table of ``every`` where the marker line is."""
    return "\n".join(gallery_table(every) if line == GALLERY_MARKER else line for line in text.split("\n"))


def index() -> str:
    """The gallery page, its table left to the build (:data:`GALLERY_MARKER`): it is the same
    whichever examples there are."""
    P = _PROJECTIONS_SHOWN  # the legend names them as the table shows them
    return "\n".join(
        [
            banner(index, "md", "selfattn_ref/examples/*.toml"),
            "",
            "# Worked examples",
            "",
            "Every example here is one spec file in `selfattn_ref/examples/`: a few tokens, their "
            "embeddings and the options (projections, scaling, a causal mask). From that file alone the "
            "site generates a page with every step as a table, the weights as a heatmap, a NumPy and a "
            "PyTorch script with the output they print, a notebook, and a link that opens the playground "
            "on the same numbers.",
            "",
            GALLERY_MARKER,
            "",
            "The examples are listed in the order the pages use them. What the columns say "
            "(the symbols are those of the [notation](../notation.md) page):",
            "",
            "- **Tokens**: the words, in order.",
            "- **Size**: n × d_model, the number of tokens × the width of an embedding.",
            "- **Projections**: where the queries, keys and values come from, with the spec file's word "
            "for it in code type. *none*: the embeddings themselves, Q = K = V = X, so softmax(X·Xᵀ)·X, "
            f"as on the first page (`none`); *{P['identity']}*: Q = X·W_Q with identity matrices, which "
            f"changes nothing (`identity`); *{P['random']}*: seeded random stand-ins for the weights "
            f"[training](../glossary.md#training) would learn (`random`); *{P['given']}*: W_Q, W_K and W_V "
            "written in the spec file (`given`).",
            "- **Scaled**: whether the scores are divided by √d_k before the softmax.",
            "- **Mask**: *causal* when each token may look only at itself and the tokens before it; "
            "*none* when every token sees every token.",
            "",
            "Want to add one? [Add a worked example](../add-an-example.md) takes one command and one file.",
            "",
        ]
    )


# --- the notebook ---------------------------------------------------------------------------


def notebook(ex: examples.Example) -> str:
    """The NumPy script as a notebook, with its recorded output (if recorded yet) as the cell's output."""
    path = snippet_path(ex.slug, "numpy")
    code = _code("01-script", shown_whole(script(ex, "numpy")))  # as the page shows it whole
    _ran(code, 1, current(path.with_suffix(".out")))  # the recording about to be written, if any
    intro = (
        f"# Notebook: {nb_text(ex.title)}\n\n"  # as Jupyter and the notebook pages read it (publish/escape.py)
        f"The worked example *{nb_text(ex.title)}* as one script, generated from `{spec_relpath(ex)}`: it computes "
        "every step of self-attention with NumPy and prints it. The output under the cell is the script's "
        "recorded run; run the cell to compute it again."
    )
    cells = [_markdown("intro", intro), _markdown("01-script-text", f"`{path.name}`"), code]
    nb = new_notebook(cells, name_of(notebook), spec_relpath(ex))
    return dumps(nb)


@generated_set(
    owns=[(PAGES_DIR, "*.md"), (SNIPPETS_DIR, "*.py"), (NOTEBOOKS_DIR, "*.ipynb")],
    writers=[index, page, script, notebook],
)
def files(every: list[examples.Example]) -> dict:
    """Every file this module generates, by path."""
    out = {PAGES_DIR / "index.md": index()}
    for ex in every:
        out[page_path(ex.slug)] = page(ex)
        for library in LIBRARIES:
            out[snippet_path(ex.slug, library)] = script(ex, library)
        out[notebook_path(ex.slug)] = notebook(ex)
    return out
