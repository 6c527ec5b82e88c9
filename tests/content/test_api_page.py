"""The API reference (docs/api.md, generated from the docstrings by mkdocstrings) documents the
whole public API, each function with its signature, and the shapes of the arrays are stated.

The public API is read from the package, not from the page: the names of ``__all__`` where a
module has one, else the functions and classes a module defines under a name without ``_``, in
every module of ``selfattn_ref`` and its subpackages (``torch``, ``topics``, ``training``) but those
left out below with a reason.
A new module or function that the page does not show fails here, and so does a function that
takes or returns arrays and does not say their shapes.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re

import pytest
from bs4 import BeautifulSoup, Tag

import selfattn_ref
import selfattn_ref.torch
import selfattn_ref.training

# Modules of the package that are not its API, with the reason.
NOT_API = {
    "selfattn_ref.cli": "the command line, documented by its --help",
}
# The worked-example loader: the names the page shows (docs/api.md lists them as `members`).
EXAMPLES_API = [
    "available", "load", "load_file", "load_all", "run", "errors", "random_projections",
    "Example", "Steps", "Errors", "SpecError", "load_rnn", "load_rnn_file", "available_rnn", "RNNExample",
]  # fmt: skip

# Functions that neither take nor return arrays, so have no shapes to state.
NO_ARRAYS = {
    "selfattn_ref.topics.rnn_comparison.compare": "integers in, a dict of counts out",
    "selfattn_ref.examples.available": "the slugs of the example files",
    "selfattn_ref.examples.available_rnn": "the slugs of the RNN example files",
    "selfattn_ref.examples.load_all": "the spec files in, Examples (whose fields give the shapes) out",
    "selfattn_ref.training.word_order.is_held_out": "two indices in, a bool out",
    "selfattn_ref.training.word_order.sentences": "(sentence, label) pairs",
    "selfattn_ref.training.word_order.reverse": "a sentence in, a sentence out",
    "selfattn_ref.training.word_order.person_bites_probability": "a sentence in, a probability out",
    "selfattn_ref.training.word_order.train": "settings in, a Run (a model and its scores) out",
    "selfattn_ref.training.word_order.experiment": "the two published Runs",
    "selfattn_ref.training.reversal.partner": "two positions in, a position out",
    "selfattn_ref.training.reversal.train": "settings in, a Run (a model and its Snapshots) out",
    "selfattn_ref.training.reversal.experiment": "the published Run",
    "selfattn_ref.topics.next_word.byte_pairs": "the page's words in, byte-pair merges (text) out",
    "selfattn_ref.topics.language_model.nearest_words": "a word in, words and their cosines out",
    "selfattn_ref.examples.rules.shown": "a character in, how a message shows it out",
    "selfattn_ref.examples.rules.token_problem": "a token (text) in, what is wrong with it (text) or None out",
    "selfattn_ref.examples.rules.tokens_problem": "a list of tokens in, what is wrong (text) or None out",
    "selfattn_ref.examples.rules.title_problem": "a title (text) in, what is wrong (text) or None out",
    "selfattn_ref.examples.rules.description_parts": "a description (text) in, its paragraphs as Parts out",
    "selfattn_ref.examples.rules.description_problem": "a description in, a DescriptionError or None out",
    "selfattn_ref.examples.rules.char_problem": "a character in, what is wrong with it (text) or None out",
    "selfattn_ref.examples.rules.is_combining_mark": "a character in, a bool out",
    "selfattn_ref.examples.rules.token_char_refused": "a character in, a bool out",
    "selfattn_ref.examples.rules.quoted": "text in, text out",
    "selfattn_ref.examples.rules.normalized": "text in, text (NFC) out",
    "selfattn_ref.examples.rules.check_title": "a title (text) in, the title in NFC out",
    "selfattn_ref.examples.rules.check_tokens": "a list of tokens in, the tokens in NFC out",
    "selfattn_ref.examples.rules.chain_spans": "a line (text) in, (start, end) pairs out",
    "selfattn_ref.examples.rules.chains": "a line (text) in, regex matches out",
    "selfattn_ref.examples.rules.audited_number": "text in, the first number the audit checks (text) or None out",
    "selfattn_ref.examples.rules.read_number": "text in, its number (a float) or None out",
    "selfattn_ref.examples.rules.number_advice": "text in, how to write it as a number (text) or None out",
    "selfattn_ref.examples.rules.same_tokens_problem": "a list of tokens in, what is wrong (text) or None out",
    "selfattn_ref.examples.digits.decimals_shown": "a number and the decimals asked for in, the decimals shown out",
    "selfattn_ref.examples.digits.number_text": "a number in, its text out",
    "selfattn_ref.examples.digits.integer_text": "a whole number in, its text out",
    "selfattn_ref.examples.digits.shortens": "the numbers a text prints in (any arrays), a bool out",
    "selfattn_ref.examples.digits.gamma": "a number of terms in, a relative error bound out",
    "selfattn_ref.examples.digits.last_place": "an error bound in, the power of ten of the last digit held out",
    "selfattn_ref.kv_cache.kv_cache_shape": "a model's sizes (integers) in, a shape (integers) out",
    "selfattn_ref.kv_cache.kv_cache_bytes": "a model's sizes (integers) in, a number of bytes out",
    "selfattn_ref.topics.kv_cache.size": "a model's sizes in, its cache's counts (integers) out",
    "selfattn_ref.topics.kv_cache.gpt2_small": "GPT-2 small's cache: counts (integers)",
    "selfattn_ref.topics.kv_cache.mistral_7b": "Mistral 7B's cache: counts (integers)",
    "selfattn_ref.topics.grouped_query.mistral_7b": "Mistral 7B's cache, three ways: bytes (integers)",
    "selfattn_ref.topics.flash_attention.memory": "entries counted at GPT-2 small's size (integers)",
    "selfattn_ref.topics.sliding_window.entries": "two sizes in, a count out",
    "selfattn_ref.topics.sliding_window.reach": "three sizes in, a count of tokens out",
    "selfattn_ref.topics.sliding_window.mistral_7b": "Mistral 7B's window: counts (integers)",
    "selfattn_ref.corpus.generate": "a count and a seed in, Sentences out",
    "selfattn_ref.corpus.every_sentence": "(Sentence, probability) pairs",
    "selfattn_ref.corpus.held_out": "a seed in, Sentences out",
    "selfattn_ref.corpus.training": "a seed and a size in, Sentences out",
    "selfattn_ref.corpus.nearest": "a word in, words out",
    "selfattn_ref.corpus.words": "text in, words out",
    "selfattn_ref.corpus.decode": "ids in, words out",
    "selfattn_ref.corpus.next_word_odds": "words in, a dict of probabilities out",
    "selfattn_ref.corpus.groups_of": "a Sentence and a position in, group names out",
    "selfattn_ref.corpus.bigram_scores": "Sentences and counts in, Scores by group out",
    "selfattn_ref.corpus.best_possible": "Sentences in, Scores by group out",
    "selfattn_ref.corpus.SeededRandom.uniform": "a number in [0, 1) out",
    "selfattn_ref.corpus.SeededRandom.below": "an integer in, an integer out",
    "selfattn_ref.corpus.SeededRandom.choice": "a sequence in, one of its items out",
    "selfattn_ref.bpe.learn": "words in, Merges (text) out",
    "selfattn_ref.language_model.load": "the package's file in, Weights (whose fields give the shapes) out",
    "selfattn_ref.language_model.record": "Weights in, a dict for JSON out",
    "selfattn_ref.language_model.from_record": "a dict from JSON in, Weights out",
    "selfattn_ref.language_model.rounded": "Weights in, Weights out",
    "selfattn_ref.language_model.without_heads": "Weights and (block, head) pairs in, Weights out",
    "selfattn_ref.language_model.evaluate": "Sentences in, Scores by group out",
    "selfattn_ref.torch.language_model.model": "Weights in, a LanguageModel out",
    "selfattn_ref.torch.language_model.weights_of": "a LanguageModel in, Weights out",
    "selfattn_ref.torch.language_model.evaluate": "Sentences in, Scores by group out",
    "selfattn_ref.training.language_model.train": "settings in, a Run (Weights, a curve, Scores) out",
    "selfattn_ref.training.language_model.experiment": "the published Run",
    "selfattn_ref.training.language_model.parameters": "a count",
    "selfattn_ref.bpe.split": "a word in, its tokens (text) out",
    "selfattn_ref.topics.language_model.sentences_of": "a kind, sense, form and Sentences in, Sentences out",
    "selfattn_ref.topics.language_model.removal": "Sentences and Weights in, Scores by head removed out",
}

# A shape as the docstrings write it, (n, d), (..., n, n_k), (d_a,), (...), (batch, 1, n), (n - 1, d_in),
# in the dimension names they use (docs/notation.md, "Sizes" and "Shapes in code"; tests/content/test_symbols.py
# holds them to it); or "any shape". Not a tuple of values: "(output, weights)".
DIM = (
    r"(?:\.\.\.|\d+|n(?: - 1)?|n_k|[dBNCT]|d_\w+|batch|length|samples|trials|n_ctx|num_blocks|num_heads"
    r"|num_kv_heads|tile)"
)
SHAPE = re.compile(rf"\({DIM}(?:, {DIM})+\)|\({DIM},\)|\(\.\.\.\)|\bany shape\b")


def _modules() -> list[str]:
    """Every module of the package, in every subpackage, but private ones, NOT_API and the
    packages that only gather modules (``selfattn_ref.torch``'s names are its modules')."""
    found = []
    for info in pkgutil.walk_packages(selfattn_ref.__path__, "selfattn_ref."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts) or info.name in NOT_API:
            continue
        if info.ispkg and info.name != "selfattn_ref.examples":
            continue
        found.append(info.name)
    return sorted(found)


def _public(module) -> list[str]:
    if module.__name__ == "selfattn_ref.examples":
        return EXAMPLES_API
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_")
        and (inspect.isfunction(obj) or inspect.isclass(obj) or callable(getattr(obj, "__wrapped__", None)))
        and getattr(obj, "__module__", None) == module.__name__
    ]


def _path(obj) -> str:
    """Where an object is defined, as mkdocstrings names its anchor: module.Class.function."""
    return f"{obj.__module__}.{obj.__qualname__}"


def _api() -> dict[str, object]:
    """Every public function, class and method, by the path of its anchor on the page."""
    api = {}
    for name in _modules():
        module = importlib.import_module(name)
        for attr in _public(module):
            obj = getattr(module, attr)
            api[_path(obj)] = obj
            if inspect.isclass(obj):
                for method_name, method in vars(obj).items():
                    if inspect.isfunction(method) and not method_name.startswith("_"):
                        api[_path(method)] = method
    # What the two packages export: in the API, where it is defined.
    for package in (selfattn_ref, selfattn_ref.torch):
        for attr in package.__all__:
            obj = getattr(package, attr)
            api[_path(obj)] = obj
    return dict(sorted(api.items()))


API = _api()
FUNCTIONS = {path: obj for path, obj in API.items() if not inspect.isclass(obj)}


def _has_signature(obj) -> bool:
    """Functions, and classes that define their own __init__ (dataclasses do): the page shows
    the signature of these (merge_init_into_class), not of SpecError, which inherits one."""
    return not inspect.isclass(obj) or "__init__" in vars(obj)


def _parameters(obj) -> list[str]:
    params = list(inspect.signature(obj).parameters)
    return params[1:] if params[:1] == ["self"] else params


def rendered_parameters(signature: str, name: str) -> list[str]:
    """The parameter names of a signature as the page prints it: ``name(a, b: int = 1) -> T``."""
    text = " ".join(signature.split())
    while re.search(r"\[[^\[\]]*\]", text):  # annotations' brackets hold commas: drop them
        text = re.sub(r"\[[^\[\]]*\]", "", text)
    match = re.match(rf"{re.escape(name)}\((.*?)\)(?: -> .*)?$", text)
    assert match, f"not a signature of {name}: {signature!r}"
    pieces = [p.strip() for p in match[1].split(",") if p.strip() not in ("", "*", "/")]
    return [re.match(r"\**(\w+)", p)[1] for p in pieces]


@pytest.fixture(scope="module")
def api_page(strict_build) -> dict[str, Tag]:
    """The built API page's elements by id (the first of each id, as the browser's getElementById;
    the page is some 75,000 px long, and searching the whole tree for each of ~300 ids took
    seconds)."""
    proc = strict_build.proc
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}{proc.stderr}"
    page = strict_build.dir / "api" / "index.html"
    assert page.is_file(), "the build has no api/index.html: is docs/api.md in the nav?"
    by_id: dict[str, Tag] = {}
    for element in BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find_all(id=True):
        by_id.setdefault(element["id"], element)
    return by_id


def _section(by_id: dict[str, Tag], path: str):
    """The heading with id ``path`` and the block mkdocstrings renders it in (doc doc-object)."""
    heading = by_id.get(path)
    return heading, heading.find_parent("div", class_="doc-object") if heading else None


def test_the_api_is_found():
    """The checks below see the package: the names of both __all__, the loader, the experiments."""
    assert "selfattn_ref.attention.scaled_dot_product_attention" in API
    assert "selfattn_ref.torch.attention.scaled_dot_product_attention" in API
    assert "selfattn_ref.examples.Steps" in API and "selfattn_ref.topics.scaling.largest_weights" in API
    assert "selfattn_ref.torch.topics.scaling.largest_weights" in API and "selfattn_ref.topics.masking.padding" in API
    assert "selfattn_ref.training.word_order.train" in API and "selfattn_ref.examples.load_rnn" in API
    assert len(API) >= 2 * len(selfattn_ref.__all__) + len(EXAMPLES_API)


@pytest.mark.parametrize("path", API)
def test_documented_with_signature(api_page, path):
    obj = API[path]
    heading, section = _section(api_page, path)
    assert heading is not None, f"docs/api.md does not document {path} (no heading with that id)"
    contents = section.find("div", class_="doc-contents")
    assert contents is not None and contents.get_text(strip=True), f"{path} is shown without its docstring"
    if _has_signature(obj):
        signature = section.find("div", class_="doc-signature")
        assert signature is not None, f"{path} is shown without its signature"
        name = path.rsplit(".", 1)[1]
        assert rendered_parameters(signature.get_text(), name) == _parameters(obj), (
            f"the signature shown for {path} is not the code's: {signature.get_text()!r}"
        )


def _returned_dataclass(func):
    """The dataclass of the package that ``func`` returns, if its annotation names one."""
    annotation = inspect.signature(func).return_annotation
    returned = getattr(inspect.getmodule(func), annotation, None) if isinstance(annotation, str) else annotation
    return returned if dataclasses.is_dataclass(returned) else None


@pytest.mark.parametrize("path", FUNCTIONS)
def test_shapes_are_stated(path, api_page):
    """Every function that takes or returns arrays says their shapes in its docstring, or returns
    a dataclass whose fields the page lists with their shapes (``run`` -> ``Steps``)."""
    func = FUNCTIONS[path]
    if path in NO_ARRAYS:
        return
    doc = inspect.getdoc(func) or ""
    if SHAPE.search(doc):
        return
    returned = _returned_dataclass(func)
    assert returned is not None, (
        f"the docstring of {path} gives no shapes, as in 'X: (..., n, d) -> (..., n, d)':\n{doc}"
    )
    _, section = _section(api_page, _path(returned))
    shown = section.find("div", class_="doc-contents").get_text(" ") if section else ""
    assert SHAPE.search(shown), (
        f"{path} returns {returned.__name__}, and neither its docstring nor the page's {returned.__name__} "
        f"gives the shapes of the arrays:\n{doc}"
    )


def test_shape_and_signature_checks_can_fail():
    assert SHAPE.search("Q: (..., n, d_k), K: (..., n_k, d_k) -> (..., n, n_k)")
    assert SHAPE.search("v: (d_a,)") and SHAPE.search("Token ids (N, 3)") and SHAPE.search("S: any shape")
    assert not SHAPE.search("Dot product of every query with every key (the scores).")
    assert not SHAPE.search("softmax(Q·Kᵀ · scale, masked) · V, returning ``(output, weights)``.")
    assert not SHAPE.search("Both read n vectors of width d_in (default d).")
    shown = "f(\n    a: tuple[int, int], *b, c: int = 1\n) -> dict[str, int]"
    assert rendered_parameters(shown, "f") == ["a", "b", "c"]
    assert rendered_parameters("f(a, *, b=1)", "f") == ["a", "b"]
