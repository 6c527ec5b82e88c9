"""Scaffolding a new worked example: ``python -m publish new-example SLUG`` writes
``selfattn_ref/examples/SLUG.toml``, a valid spec with every key explained, holding the numbers
of an existing example under a new title. A contributor's tool, not part of the library."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from selfattn_ref import examples
from selfattn_ref.examples import MAX_DECIMALS, MAX_TOKENS, MAX_WIDTH, Example, number_literal
from selfattn_ref.examples.rules import LIMITS, title_problem

from ..escape import toml_string as _toml_string


def _toml_rows(M, labels=None) -> str:
    rows = [", ".join(number_literal(x) for x in row) for row in np.asarray(M)]
    width = max(len(r) for r in rows) + 3
    lines = []
    for i, r in enumerate(rows):
        cell = f"  [{r}],"
        lines.append(f"{cell:<{width + 2}}  # {labels[i]}" if labels else cell)
    return "[\n" + "\n".join(lines) + "\n]"


def template(slug: str, title: str, base: Example) -> str:
    """The text of a new spec file: ``base``'s data under a new title, every key explained."""
    tokens = ", ".join(_toml_string(t) for t in base.tokens)
    lines = [
        f"# The worked example '{slug}'. Its page (docs/examples/{slug}.md), tables, NumPy and",
        "# PyTorch scripts, recorded outputs and notebook are all generated from this file:",
        "# edit the values below, then run `make update`, `make serve` (the page is under",
        "# 'Worked examples') and `make test`. See the site's page 'Add a worked example'.",
        "",
        f"title = {_toml_string(title)}  # the page's title; no other example may have it",
        "# Markdown that opens the page: what the example shows and what to look for.",
        'description = """',
        "Say in a sentence or two what this example shows and what to look for in its tables.",
        '"""',
        "",
        f"tokens = [{tokens}]  # one word each, at most {MAX_TOKENS}",
        f"# One row of numbers per token, every row the same length (at most {MAX_WIDTH}): the embeddings.",
        f"embeddings = {_toml_rows(base.E, base.tokens)}",
        "",
        '# "none": softmax(X·Xᵀ)·X, the embeddings compared and mixed as they are;',
        '# "identity": W_Q = W_K = W_V = I; "random": drawn from numpy.random.default_rng(seed)',
        '# .normal(0, std), needs seed and std; "given": needs W_Q, W_K and W_V (d rows each).',
        f"projections = {_toml_string(base.projections)}",
    ]
    # Every key is here: those that the projections above do not use, commented out, to show how.
    random = [f"seed = {base.seed if base.seed is not None else 42}", f"std = {number_literal(base.std or 0.5)}"]
    lines.append(f'# With "random": the seed (a whole number from 0 to {LIMITS["seed"]}) and the std of the draw.')
    lines += random if base.projections == "random" else [f"# {line}" for line in random]
    lines.append(f'# With "given": the matrices, one row per embedding column (d), at most {MAX_WIDTH} columns each;')
    lines.append("# W_Q and W_K have as many columns as each other (d_k), W_V any number (d_v).")
    d = base.E.shape[1]
    two = ", ".join(f"[{int(i == 0)}, {int(i == 1)}]" for i in range(d))  # d rows, 2 columns: an example
    for name in ("W_Q", "W_K", "W_V"):
        lines.append(
            f"{name} = {_toml_rows(getattr(base, name))}" if base.projections == "given" else f"# {name} = [{two}]"
        )
    lines += [
        f"scale = {str(base.scale).lower()}  # divide the scores by √d_k",
        f"causal = {str(base.causal).lower()}  # true: each token attends only to itself and the tokens before it",
        f"decimals = {base.decimals}  # how many decimals the page prints (0 to {MAX_DECIMALS})",
        "# Its place in the gallery's and the navigation's reading order, a whole number from 1; examples",
        "# without one come after those with one, by name.",
        "# order = 10",
    ]
    lines += [
        f"# Heads of multi-head attention, 1 to {LIMITS['heads']}, each on its share of the columns; more than one",
        "# needs d × d projection matrices, a width d that the heads divide, and scale = true.",
        f"heads = {base.heads}",
    ]
    return "\n".join(lines) + "\n"


def prepare(slug: str, title: str | None = None, base: str = "the_cat_sat") -> tuple[Path, str, Example]:
    """The path, text and example of a new spec, checked, with nothing written. ValueError when the
    slug is invalid, reserved or taken, the title invalid or taken, or ``base`` is not an example."""
    from . import producers, registry  # noqa: PLC0415 - the registry knows the reserved names

    if problem := examples.slug_problem(slug):
        raise ValueError(problem)
    producers.load()
    reserved = registry.reserved_slugs()
    if slug.lower() in reserved:
        raise ValueError(f"the name {slug!r} is reserved ({reserved[slug.lower()]}); choose another name")
    path = examples.EXAMPLES_DIR / f"{slug}.toml"
    taken = {p.stem.lower() for p in examples.EXAMPLES_DIR.glob("*.toml")}
    if slug.lower() in taken or path.exists():
        raise ValueError(f"an example named {slug!r} already exists: {path}; choose another name")
    source = examples.load(base)
    title = title if title is not None else slug.replace("_", " ").capitalize()
    if problem := title_problem(title):
        raise ValueError(f"--title: {problem.replace(chr(39) + 'title' + chr(39), 'the title')}")
    if lone := [c for c in title if "\ud800" <= c <= "\udfff"]:  # no file can hold it
        raise ValueError(
            f"--title: the title holds U+{ord(lone[0]):04X}, a lone surrogate, half of a character and not text"
        )
    titles = {" ".join(ex.title.casefold().split()): ex.slug for ex in examples.load_all()}
    if " ".join(title.casefold().split()) in titles:
        raise ValueError(f"the title {title!r} is taken by the example {titles[' '.join(title.casefold().split())]!r}")
    text = template(slug, title, source)
    return path, text, examples.load_text(text, path)  # the scaffold must be valid as written


def new_example(slug: str, title: str | None = None, base: str = "the_cat_sat") -> Path:
    """Write ``<slug>.toml`` from :func:`template` (nothing else) and return its path. ValueError
    when the slug is invalid, reserved or taken, or ``base`` is not an example."""
    from .update import _atomic_write  # noqa: PLC0415

    path, text, _ = prepare(slug, title, base)
    _atomic_write(path, text)
    return path
