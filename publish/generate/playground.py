"""docs/playground.md: the files gathered for the playground, its presets from every worked example
and (for pages opened from disk) its bundle, and for its language-model mode the trained weights and
that mode's bundle (below).

The playground (docs/assets/playground/) computes in the reader's browser, but it starts from the
worked examples exactly as :mod:`selfattn_ref.examples` defines them: the tokens, the embeddings and
the projection matrices, including the learned ones that NumPy draws from a seed (never typed).
They are gathered into ``docs/generated/playground/presets.json`` from every example as it is, by
every build, ``make update`` and ``make example`` (:func:`publish.generate.registry.gathered`): git ignores the
file, so that a new example rewrites no shared file. The site copies it as it is and the playground
fetches it.

The file is JSON after the generated-file header (an HTML comment line, which the playground strips
before parsing). Floats are written by ``json`` with Python's shortest round-trip repr, so
``JSON.parse`` gives back the very same float64 values.
"""

from __future__ import annotations

import json
from pathlib import Path

from selfattn_ref import examples

from .. import GENERATED
from . import playground_limits
from .playground_bundle import ENTRY, bundle, bundle_path, playground_bundle
from .registry import current, gathered, name_of, with_banner
from .topics.language_model import WEIGHTS

RELPATH = "playground/presets.json"
VERSION = 1
# The three examples the playground offers first, in this order; every other example follows,
# sorted, so that each worked-example page can link to its own.
PRIMARY = ("bank_of_river", "the_cat_sat", "learned")
# The example whose matrices the playground calls "the article's learned weights".
LEARNED = "learned"


def _number(x: float) -> int | float:
    """Integral floats as ints (1, not 1.0): shorter, and what a reader would type."""
    x = float(x)
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


def _matrix(M) -> list[list[int | float]]:
    return [[_number(x) for x in row] for row in M]


def preset(ex: examples.Example) -> dict:
    """One example as the playground reads it.

    ``projections`` is "none" (softmax(X·Xᵀ)·X), "identity", or "matrices" with ``W_Q``, ``W_K``
    (d, d_k) and ``W_V`` (d, d_v); ``origin`` says where matrices come from; ``heads`` is the
    number of heads (1 but for a multi-head example).
    """
    out = {
        "slug": ex.slug,
        "title": ex.title,
        "tokens": list(ex.tokens),
        "embeddings": _matrix(ex.E),
        "projections": "matrices" if ex.projections in ("random", "given") else ex.projections,
        "scale": ex.scale,
        "causal": ex.causal,
        "heads": ex.heads,
        "decimals": ex.decimals,
    }
    if ex.projections in ("random", "given"):
        for name in ("W_Q", "W_K", "W_V"):
            out[name] = _matrix(getattr(ex, name))
    if ex.projections == "random":
        out["origin"] = {"generator": "numpy.random.default_rng", "seed": ex.seed, "std": ex.std}
    elif ex.projections == "given":
        out["origin"] = {"given": True}
    return out


def presets(every: list[examples.Example] | None = None) -> dict:
    """Every worked example (default: those of selfattn_ref/examples/), the three of PRIMARY first."""
    by_slug = {ex.slug: ex for ex in (examples.load_all() if every is None else every)}
    slugs = [*(s for s in PRIMARY if s in by_slug), *sorted(set(by_slug) - set(PRIMARY))]
    return {
        "version": VERSION,
        "default": PRIMARY[0],
        "learned": LEARNED,
        "presets": [preset(by_slug[slug]) for slug in slugs],
    }


def parse(text: str) -> dict:
    """The presets from the text of the generated file, as the page reads it (plain JSON)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{RELPATH} is not valid JSON: {exc}") from None


def dumps(obj, indent: str = "") -> str:
    """JSON with one line per list of scalars (a token list, a matrix row), so diffs stay readable."""
    inner = indent + "  "
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(obj, list) and any(isinstance(v, (dict, list)) for v in obj):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in obj) + f"\n{indent}]"
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)


@gathered(GENERATED / RELPATH)
def _presets_json(every: list[examples.Example] | None = None) -> str:
    return dumps(presets(every)) + "\n"


# --- the bundle ---------------------------------------------------------------------------------
# docs/playground.md from disk: the playground's modules as one classic script,
# docs/assets/playground/app.bundle.js, written by :mod:`publish.generate.playground_bundle` and
# registered here as a gathered file (ignored by git): every build, `make update` and `make example`
# write it, with the presets gathered from every example (above, registered first so that they are
# made first) and the limits (``limits.js``, which state.js and format.js import) inlined as this run
# gives them, not as the files on disk were before.


def as_this_run_writes(*gathered_before: Path) -> dict[Path, str]:
    """The files a bundle inlines or imports that this run writes, as it writes them: the files
    ``gathered_before`` (by producers registered before the bundle's) and the limits."""
    limits = GENERATED / playground_limits.RELPATH
    return {
        **{path: current(path) for path in gathered_before},
        limits: with_banner(playground_limits.limits_module(), limits, name_of(playground_limits.limits_module)),
    }


@gathered(bundle_path(ENTRY), writer=playground_bundle)
def _playground_bundle(every) -> str:
    return playground_bundle(as_this_run_writes(GENERATED / RELPATH))


# --- the language model's mode ------------------------------------------------------------------
# The mode (docs/assets/playground/model_app.js, with its forward pass in language_model.js) runs the
# site's small language model in the reader's browser, on the weights the package keeps,
# selfattn_ref/language_model.json. app.js asks for it with import("./model_app.js") only when the
# reader opens it, and it fetches the weights then. Two files are gathered for it, as the presets
# and the bundle are (git ignores them), so that the weights are not kept in git twice:
# - docs/generated/playground/language_model.json: the package's file, every key but its banner and
#   its content key as it is (the tensors the same base64 text, so the same float32 numbers), one key
#   a line: the weights the reader's browser needs, not the record of the run that made them (a file
#   under docs/generated/ with a "key" is a record, which the build keeps out of the site);
# - docs/assets/playground/model_app.bundle.js: the mode's modules as a classic script, with those
#   weights inlined, which the playground's bundle loads from disk when the reader opens the mode
#   (publish.generate.playground_bundle.lazy_entries names it).

WEIGHTS_RELPATH = "playground/language_model.json"
MODEL_ENTRY = ENTRY.with_name("model_app.js")


def weights_json(every=None) -> str:
    """The package's weights file as the playground fetches it (the registry adds the banner)."""
    text = current(WEIGHTS)
    if text is None:
        raise ValueError(f"{WEIGHTS.name} is missing: run `make update`")
    data = json.loads(text)
    for name in ("_generated_by", "key"):  # the banner, and the hash of the code that trained them
        data.pop(name, None)
    return (
        "{\n"
        + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in data.items())
        + "\n}\n"
    )


gathered(GENERATED / WEIGHTS_RELPATH)(weights_json)


def model_app_bundle(overrides: dict[Path, str] | None = None) -> str:
    """The mode's bundle, docs/assets/playground/model_app.bundle.js; ``overrides`` gives the text of
    files by path (the weights and the limits as this run writes them)."""
    given = {Path(p).resolve(): t for p, t in (overrides or {}).items()}
    return bundle(
        MODEL_ENTRY, name_of(model_app_bundle), read=lambda p: given[p] if p in given else p.read_text(encoding="utf-8")
    )


@gathered(bundle_path(MODEL_ENTRY), writer=model_app_bundle)
def _model_app_bundle(every) -> str:
    return model_app_bundle(as_this_run_writes(GENERATED / WEIGHTS_RELPATH))
