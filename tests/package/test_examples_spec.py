"""The worked-example spec files: bad files fail loudly, naming the file, the key and its line."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from selfattn_ref import examples
from selfattn_ref.examples import SpecError

GOOD = """\
# a comment line
title = "tiny"
tokens = ["a", "b"]
embeddings = [
  [1, 0],
  [0, 1],
]
projections = "none"
scale = false
causal = false
decimals = 3
"""


def write(tmp_path: Path, text: str, name: str = "spec.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(text: str, key: str) -> int:
    """1-based line where ``key = ...`` starts in ``text``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if re.match(rf"{key}\s*=", line))


def set_key(text: str, key: str, value: str) -> str:
    """Replace the (one-line) value of ``key``, or add ``key = value`` after the title."""
    if re.search(rf"^{key}\s*=", text, flags=re.M):
        return re.sub(rf"^{key}\s*=.*$", f"{key} = {value}", text, count=1, flags=re.M)
    return text.replace('title = "tiny"\n', f'title = "tiny"\n{key} = {value}\n')


def test_good_spec_loads(tmp_path):
    ex = examples.load_file(write(tmp_path, GOOD, "tiny.toml"))
    assert ex.slug == "tiny" and ex.tokens == ("a", "b") and ex.decimals == 3
    np.testing.assert_array_equal(ex.E, np.eye(2))
    steps = examples.run(ex)
    assert f"{steps.weights[0, 0]:.3f}" == "0.731"  # softmax([1, 0])


BAD = [
    # (id, the bad text, the key the message must name, its message)
    ("unknown-key", set_key(GOOD, "colour", '"blue"'), "colour", r"unknown key 'colour'"),
    ("misspelt-key", GOOD.replace("decimals = 3", "decimal = 3"), "decimal", r"unknown key 'decimal'"),
    (
        "ragged-embeddings",
        GOOD.replace("  [0, 1],\n", "  [0, 1, 2],\n"),
        "embeddings",
        r"'embeddings' is ragged: its rows have lengths \[2, 3\]",
    ),
    (
        "token-count",
        set_key(GOOD, "tokens", '["a", "b", "c"]'),
        "embeddings",
        r"'embeddings' has 2 vectors but 'tokens' has 3 tokens",
    ),
    ("non-number-embedding", GOOD.replace("[0, 1],", '[0, "x"],'), "embeddings", r"'embeddings' holds 'x'"),
    (
        "nan-embedding",
        GOOD.replace("[0, 1],", "[0, nan],"),
        "embeddings",
        r"'embeddings' holds a value that is not finite",
    ),
    (
        "seed-float",
        set_key(set_key(GOOD, "projections", '"random"'), "seed", "4.5"),
        "seed",
        r"'seed' must be an integer, got 4.5",
    ),
    (
        "seed-string",
        set_key(set_key(GOOD, "projections", '"random"'), "seed", '"42"'),
        "seed",
        r"'seed' must be an integer, got '42'",
    ),
    (
        "projections-kind",
        set_key(GOOD, "projections", '"learned"'),
        "projections",
        r"'projections' must be one of \['none', 'identity', 'random', 'given'\], got 'learned'",
    ),
    ("scale-not-bool", set_key(GOOD, "scale", '"yes"'), "scale", r"'scale' must be true or false, got 'yes'"),
    ("decimals-range", set_key(GOOD, "decimals", "11"), "decimals", r"'decimals' must be an integer from 0 to 10"),
    ("empty-tokens", set_key(GOOD, "tokens", "[]"), "tokens", r"'tokens' must be a non-empty list"),
    ("seed-without-random", set_key(GOOD, "seed", "1"), "seed", r"'seed' has no effect with projections = 'none'"),
    ("heads-zero", set_key(GOOD, "heads", "0"), "heads", r"'heads' must be a whole number from 1 to 4, got 0"),
    ("heads-bool", set_key(GOOD, "heads", "true"), "heads", r"'heads' must be a whole number from 1 to 4, got True"),
    ("heads-text", set_key(GOOD, "heads", '"2"'), "heads", r"'heads' must be a whole number from 1 to 4, got '2'"),
    ("heads-five", set_key(GOOD, "heads", "5"), "heads", r"'heads' must be a whole number from 1 to 4, got 5"),
    (
        "heads-unscaled",
        set_key(GOOD, "heads", "2"),
        "scale",
        r"with 'heads' = 2, 'scale' must be true: each head divides its scores by √d_head",
    ),
    (
        "heads-do-not-divide",
        set_key(set_key(GOOD, "heads", "3"), "scale", "true"),
        "heads",
        r"'heads' = 3 must divide the width of the embeddings, 2",
    ),
    (
        "heads-need-square-matrices",
        set_key(
            set_key(
                set_key(set_key(set_key(GOOD, "heads", "2"), "scale", "true"), "projections", '"given"'),
                "W_Q",
                "[[1], [0]]",
            ),
            "W_K",
            "[[1], [0]]",
        ).replace('title = "tiny"\n', 'title = "tiny"\nW_V = [[1, 0], [0, 1]]\n'),
        "W_Q",
        r"with 'heads' = 2, 'W_Q' must be 2 × 2 \(multi-head attention splits d × d projections\), got 2 × 1",
    ),  # fmt: skip
]


def test_a_spec_with_two_heads_computes_them_as_multi_head_attention(tmp_path):
    import selfattn_ref

    text = set_key(set_key(set_key(GOOD, "heads", "2"), "scale", "true"), "causal", "true")
    ex = examples.load_file(write(tmp_path, text, "two.toml"))
    st = examples.run(ex)
    output, weights = selfattn_ref.multi_head_attention(ex.E, *(np.eye(2),) * 4, 2, mask=np.tril(np.ones((2, 2), bool)))
    np.testing.assert_array_equal(st.output, output)
    np.testing.assert_array_equal(st.weights, weights)  # (heads, n, n)
    assert len(st.heads) == 2 and st.heads[1].Q.shape == (2, 1)
    for k, head in enumerate(st.heads):
        np.testing.assert_array_equal(head.Q, ex.E[:, [k]])
        np.testing.assert_allclose(head.scaled, head.scores / np.sqrt(1))
        np.testing.assert_array_equal(head.weights, weights[k])
        np.testing.assert_allclose(head.output, weights[k] @ ex.E[:, [k]])
    np.testing.assert_allclose(st.output, np.concatenate([h.output for h in st.heads], axis=1))


@pytest.mark.parametrize(("text", "key", "message"), [pytest.param(t, k, m, id=i) for i, t, k, m in BAD])
def test_bad_spec_names_file_key_and_line(tmp_path, text, key, message):
    path = write(tmp_path, text)
    with pytest.raises(SpecError) as info:
        examples.load_file(path)
    msg = str(info.value)
    assert re.search(message, msg), msg
    assert f"'{key}'" in msg
    # "<file>, line N: ..." with N the line where the key is written
    assert msg.startswith(f"{path}, line {line_of(text, key)}: "), msg


def test_missing_key_names_file_and_key(tmp_path):
    text = GOOD.replace("causal = false\n", "")
    path = write(tmp_path, text)
    with pytest.raises(SpecError, match=rf"^{re.escape(str(path))}: missing key 'causal'$"):
        examples.load_file(path)


def test_invalid_toml_names_the_file(tmp_path):
    path = write(tmp_path, GOOD.replace('title = "tiny"', "title = tiny"))
    with pytest.raises(SpecError, match=rf"^{re.escape(str(path))}: not valid TOML"):
        examples.load_file(path)


def test_spec_error_is_a_value_error():
    assert issubclass(SpecError, ValueError)


def test_available_lists_the_three_articles_examples():
    slugs = examples.available()
    assert {"bank_of_river", "the_cat_sat", "learned"} <= set(slugs)
    assert slugs == sorted(slugs)
    for slug in slugs:  # every file in the folder is a valid spec
        ex = examples.load(slug)
        assert ex.slug == slug and len(ex.tokens) == ex.E.shape[0]


@pytest.mark.parametrize("slug", ["nope", "../learned", "bank_of_river.toml", ""])
def test_load_unknown_slug(slug):
    with pytest.raises(ValueError, match=r"unknown example .*; available: .*bank_of_river"):
        examples.load(slug)
