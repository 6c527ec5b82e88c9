"""selfattn_ref.torch is the PyTorch twin of the NumPy package: the module at the same path under
``selfattn_ref.torch`` has the same public names, each with the same parameters, so that a test can
run both on one input. A module or a name with no twin is declared below, with the reason.

The public names of a module are its ``__all__`` where it has one, else the functions and classes
it defines under a name without ``_`` (the rule of the API page, tests/content/test_api_page.py).
"""

from __future__ import annotations

import importlib
import inspect

import pytest

pytest.importorskip("torch")

import selfattn_ref  # noqa: E402

from public_api import NUMPY, PAIRS, TORCH, public, twin_of  # noqa: E402

# NumPy modules with no PyTorch twin, and why.
NUMPY_ONLY = {
    "selfattn_ref.cli": "the reader's command line, `python -m selfattn_ref explain`, which prints NumPy's numbers",
    "selfattn_ref.examples": "the worked examples' data and loader: TOML in, NumPy arrays out; PyTorch code reads "
    "the same arrays (torch.from_numpy)",
    "selfattn_ref.topics.masking": "the numbers docs/masking.md quotes, computed once with the math above; the "
    "page's PyTorch snippets are held equal to them",
    "selfattn_ref.topics.learning": "the numbers docs/learning.md quotes, computed once with selfattn_ref.learning "
    "(which has a twin)",
    "selfattn_ref.topics.multi_head": "the numbers docs/multi-head.md quotes, computed once with "
    "multi_head_attention (which has a twin)",
    "selfattn_ref.topics.positional_encoding": "the numbers docs/positional-encoding.md quotes, computed once with "
    "sinusoidal_positional_encoding (which has a twin)",
    "selfattn_ref.topics.rnn_comparison": "the worked RNN's steps, computed once with selfattn_ref.rnn (whose twin "
    "is selfattn_ref.torch.rnn), and compare, which counts with integers",
    "selfattn_ref.examples.rules": "what a spec's title, tokens and description may hold: text rules, no arrays",
    "selfattn_ref.topics.transformer_block": "the block docs/transformer-block.md quotes, computed once with "
    "transformer_block (which has a twin); the page's PyTorch snippet is held equal to it",
    "selfattn_ref.examples.digits": "how a number is printed (at most 15 digits): text from numbers, the same for both",
    "selfattn_ref.topics.mistakes": "the numbers docs/mistakes.md quotes, right and deliberately wrong, computed "
    "once in NumPy; the page's PyTorch snippets are held equal to them",
    "selfattn_ref.topics.real_numbers": "the money sentence docs/real-numbers.md quotes, computed once with the "
    "steps of the worked examples (examples.run); tests/package/test_topics.py holds it equal to the twin's "
    "self_attention",
    "selfattn_ref.corpus": "the language model's corpus: text, ids and counts, with seeded integer arithmetic; the "
    "PyTorch model reads the same ids (torch.from_numpy)",
    "selfattn_ref.bpe": "byte-pair encoding: words in, tokens (text) out, no arrays",
    "selfattn_ref.topics.language_model": "what the language model's heads do, measured once in NumPy from forward's "
    "weights and evaluate's scores (both have twins, held equal)",
    "selfattn_ref.topics.next_word": "the sentence, the choices of the next word and the loop docs/next-word.md "
    "quotes, computed once with the language model's functions (which have twins, held equal); the page's "
    "PyTorch snippets are held equal to them",
    "selfattn_ref.topics.batched_heads": "the site's padded batch, computed once with causal_self_attention "
    "(which has a twin)",
    "selfattn_ref.topics.kv_cache": "the site's example and published models' cache sizes, computed once with "
    "kv_cache_steps and kv_cache_bytes (which have twins)",
    "selfattn_ref.topics.flash_attention": "bank of river in tiles, computed once with online_softmax_attention "
    "(which has a twin)",
    "selfattn_ref.topics.grouped_query": "the site's example with shared heads, computed once with "
    "grouped_query_attention (which has a twin)",
    "selfattn_ref.topics.rotary": "the site's sentences turned, computed once with rotary_embedding (which has a twin)",
    "selfattn_ref.topics.cross_attention": "the site's encoder-decoder batch, computed once with cross_attention "
    "(which has a twin)",
    "selfattn_ref.topics.sliding_window": "the site's example and Mistral 7B's window, computed once with "
    "sliding_window_mask (which has a twin), and counts with integers",
}
# PyTorch modules with no NumPy twin, and why (training runs live apart, in selfattn_ref.training).
TORCH_ONLY: dict[str, str] = {}
# Names in one module of a twin pair and not in the other, and why: {module: {name: reason}}.
NUMPY_ONLY_NAMES: dict[str, dict[str, str]] = {}
TORCH_ONLY_NAMES: dict[str, dict[str, str]] = {
    "selfattn_ref.torch.batched": {
        "CausalSelfAttention": "a torch.nn.Module, the form the layer takes in a model's code (NumPy has no modules): "
        "causal_self_attention runs the same lines in both packages",
    },
    "selfattn_ref.torch.language_model": {
        "LanguageModel": "the model as torch.nn modules; the NumPy module writes it out with the package's functions",
        "Block": "one of its blocks, as torch.nn modules",
        "model": "builds a LanguageModel from the NumPy package's Weights",
        "weights_of": "reads a LanguageModel's Weights back (training ends with it)",
    },
}


def test_the_modules_are_found():
    assert {"selfattn_ref.attention", "selfattn_ref.rnn", "selfattn_ref.topics.scaling"} <= set(NUMPY)
    assert {"selfattn_ref.torch.attention", "selfattn_ref.torch.rnn", "selfattn_ref.torch.topics.scaling"} <= set(TORCH)
    assert not any(m.startswith("selfattn_ref.training") for m in NUMPY + TORCH)


@pytest.mark.parametrize("name", NUMPY)
def test_every_numpy_module_has_a_twin_or_a_reason(name):
    has_twin = twin_of(name) in TORCH
    assert has_twin != (name in NUMPY_ONLY), (
        f"{name} has a twin and is declared NumPy-only"
        if has_twin
        else f"{name} has no twin {twin_of(name)}: write it, or declare the module in NUMPY_ONLY with the reason"
    )


@pytest.mark.parametrize("name", TORCH)
def test_every_torch_module_has_a_twin_or_a_reason(name):
    numpy_name = name.replace("selfattn_ref.torch.", "selfattn_ref.", 1)
    assert (numpy_name in NUMPY) != (name in TORCH_ONLY), (
        f"{name} has no NumPy twin {numpy_name}: a training run belongs in selfattn_ref.training; "
        "anything else needs its twin or a line in TORCH_ONLY with the reason"
    )


@pytest.mark.parametrize(("numpy_name", "torch_name"), PAIRS, ids=[p[0] for p in PAIRS])
def test_twins_have_the_same_public_names_and_parameters(numpy_name, torch_name):
    np_public = public(importlib.import_module(numpy_name))
    torch_public = public(importlib.import_module(torch_name))
    numpy_only = set(np_public) - set(torch_public) - set(NUMPY_ONLY_NAMES.get(numpy_name, {}))
    torch_only = set(torch_public) - set(np_public) - set(TORCH_ONLY_NAMES.get(torch_name, {}))
    assert not numpy_only, f"{torch_name} lacks {sorted(numpy_only)}: add the twin, or declare it with a reason"
    assert not torch_only, f"{numpy_name} lacks {sorted(torch_only)}: add the twin, or declare it with a reason"
    assert np_public, f"{numpy_name} has no public names"
    for name in set(np_public) & set(torch_public):
        a, b = inspect.signature(np_public[name]), inspect.signature(torch_public[name])
        assert [(p.name, p.kind, p.default) for p in a.parameters.values()] == [
            (p.name, p.kind, p.default) for p in b.parameters.values()
        ], f"{numpy_name}.{name}{a} and {torch_name}.{name}{b} take different arguments"


def test_the_declarations_name_real_modules_and_names():
    """A declaration outlives nothing: each names a module (and a name) that exists and has no twin."""
    assert set(NUMPY_ONLY) <= set(NUMPY) and set(TORCH_ONLY) <= set(TORCH)
    for declared, modules_ in ((NUMPY_ONLY_NAMES, NUMPY), (TORCH_ONLY_NAMES, TORCH)):
        for module_name, names in declared.items():
            assert module_name in modules_
            assert set(names) <= set(public(importlib.import_module(module_name)))
    assert all(reason.strip() for reason in (*NUMPY_ONLY.values(), *TORCH_ONLY.values()))


def test_a_missing_twin_is_found():
    """The comparison can fail: a NumPy module with one name more than its twin."""
    import types

    fake = types.ModuleType("fake")
    fake.__all__ = ["softmax", "extra"]
    fake.softmax, fake.extra = selfattn_ref.softmax, selfattn_ref.softmax
    assert set(public(fake)) - set(public(importlib.import_module("selfattn_ref.torch.attention"))) == {"extra"}
