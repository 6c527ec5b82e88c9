"""The worked examples' rules (selfattn_ref/examples/rules.py), as the loader applies them: a title,
a token or a description that would be markup or code, and a number that a page could not print,
are refused with the file, the key and the line (issue 16). The publishing tools' side (escaping,
rendering, the files they write) is tests/docs/test_hostile_specs.py."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from selfattn_ref import examples
from selfattn_ref.examples import SpecError
from selfattn_ref.examples.rules import LIMITS, Part, description_parts, tokens_problem

SPEC = Path("/nowhere/zz_spec.toml")  # the loader checks text as this file; nothing is written


def toml_str(text: str) -> str:
    """A TOML basic string (JSON's escapes, control characters as \\uXXXX)."""
    body = json.dumps(text, ensure_ascii=False)
    return "".join(f"\\u{ord(c):04X}" if unicodedata.category(c) == "Cc" else c for c in body)


def spec_text(title: str, tokens: list[str], description: str | None = None) -> str:
    """A valid spec (identity projections, scaled, four numbers a token) with these values."""
    lines = [f"title = {toml_str(title)}"]
    if description is not None:
        lines.append(f"description = {toml_str(description)}")
    rows = "".join("  [1, 1, 1, 1],\n" for _ in tokens)
    lines += [
        f"tokens = [{', '.join(toml_str(t) for t in tokens)}]",
        f"embeddings = [\n{rows}]",
        'projections = "identity"',
        "scale = true",
        "causal = false",
        "decimals = 4",
    ]
    return "\n".join(lines) + "\n"


def test_the_spec_text_helper_gives_a_valid_spec():
    ex = examples.load_text(spec_text("T é { } *x*", ["_a_", "$b$", "日"], "Plain *em* and `c`."), SPEC)
    assert (ex.title, ex.tokens, ex.description) == ("T é { } *x*", ("_a_", "$b$", "日"), "Plain *em* and `c`.")


REFUSED = [
    # (what, title, tokens, description, the message's key and text)
    ("html title", 'Zz <img src=x onerror="window.__p=1">', ["a"], None, "'title' holds '<'"),
    ("entity title", "Zz &lt;/title&gt;", ["a"], None, "'title' holds '&'"),
    ("carriage return", "Zz\rimport os; os.system('touch PWNED') #", ["a"], None, "'title' must be one line"),
    ("NUL in title", "Zz\x00x", ["a"], None, "'title' holds U+0000, a control character"),
    ("bidi override", "Zz\u202eevil", ["a"], None, "'title' holds U+202E, a control character"),
    ("title too long", "x" * 81, ["a"], None, "'title' has 81 characters; at most 80"),
    ("NUL in token", "T", ["a\x00b"], None, "token 'a\\x00b' holds U+0000"),
    ("space in token", "T", ["a b"], None, "token 'a b' holds U+0020"),
    ("markup in token", "T", ["<b>"], None, "token '<b>' holds '<'"),
    ("duplicate tokens", "T", ["a", "a"], None, "token 'a' appears twice"),
    ("too many tokens", "T", [f"t{i}" for i in range(17)], None, "'tokens' has 17 tokens; at most 16"),
    ("script", "T", ["a"], "Hi <script>alert(1)</script>", "'description' holds HTML ('<script>alert(1)</script>')"),
    ("comment", "T", ["a"], "Hi <!-- x -->", "'description' holds HTML"),
    ("autolink", "T", ["a"], "See <https://example.com>", "'description' holds HTML"),
    ("include", "T", ["a"], 'Intro\n\n--8<-- ".git/config"', "'description' holds an include"),
    ("attr list", "T", ["a"], 'Para\n{: onclick="x" }', "'description' holds a brace"),
    ("javascript link", "T", ["a"], "[x](javascript:alert(1))", "'description' holds a link that is not of the form"),
    ("http link", "T", ["a"], "[x](https://example.com)", "'description' links to 'https://example.com'"),
    ("image", "T", ["a"], "![x](../x.png)", "'description' holds an image"),
    ("control in description", "T", ["a"], "a\x1bb", "'description' holds U+001B, a control character"),
]


@pytest.mark.parametrize(("what", "title", "tokens", "description", "message"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_with_file_key_and_line(what, title, tokens, description, message):
    text = spec_text(title, tokens, description)
    with pytest.raises(SpecError) as info:
        examples.load_text(text, SPEC)
    msg = str(info.value)
    key = "description" if description is not None and "description" in message else (
        "title" if "title" in message else "tokens")  # fmt: skip
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key} = "))
    assert msg.startswith(f"{SPEC}, line {line}: {message}"), msg
    assert "\r" not in msg and "\x00" not in msg and "\x1b" not in msg


# --- numbers the page could not print ------------------------------------------------------------

NUMBERS = [
    # (what, key, value, the message, after "<file>, line N: ")
    ("1e150 embedding", "embeddings", "[[1e150, 0, 0, 0], [0, 1, 0, 1], [1, 1, 1, 1]]",
     "'embeddings' holds 1e+150 (row 1, token 'a'); every number of a spec is at most 1,000,000 in size"),
    ("2**64", "embeddings", "[[18446744073709551616, 0, 0, 0], [0, 1, 0, 1], [1, 1, 1, 1]]",
     "'embeddings' holds 18446744073709551616 (row 1, token 'a'); every number of a spec is at most 1,000,000 in "
     "size"),
    ("huge integer", "embeddings", "[[" + "9" * 400 + ", 0, 0, 0], [0, 1, 0, 1], [1, 1, 1, 1]]",
     "'embeddings' holds an integer of 400 digits"),
    ("scores that overflow e^x", "embeddings", "[[30, 0, 0, 0], [0, 1, 0, 1], [1, 1, 1, 1]]",
     "the page would print e to the power of a score (the softmax step) as 2.71e+195; every number a page "
     "prints is finite and under 1e+15 in size"),
    ("inf powers", "embeddings", "[[1000, 0, 0, 0], [0, 1, 0, 1], [1, 1, 1, 1]]",
     "the page would print e to the power of a score (the softmax step) as not finite"),
]  # fmt: skip
RANDOM = [
    ("std 1e300", "std = 1e300", "std", "'std' must be a positive number at most 1,000,000, got 1e+300"),
    ("std 0", "std = 0", "std", "'std' must be a positive number at most 1,000,000, got 0"),
    ("seed -1", "seed = -1", "seed", "'seed' must be an integer, got -1; a seed is from 0 to 4294967295"),
    ("seed 2**64", "seed = 18446744073709551616", "seed",
     "'seed' must be an integer, got 18446744073709551616; a seed is from 0 to 4294967295"),
    ("seed 10**400", "seed = 1" + "0" * 400, "seed", "'seed' must be an integer, got an integer of 401 digits"),
    ("std that draws big", "std = 900000", "std",
     "'std' = 900000 draws W_Q with a value of 1.17e+06; every number of an example is at most 1,000,000"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "key", "value", "message"), NUMBERS, ids=[n[0] for n in NUMBERS])
def test_numbers_the_page_cannot_print_are_refused(what, key, value, message):
    text = re.sub(r"^embeddings = \[\n(?:.*\n)*?\]", lambda m: f"embeddings = {value}", spec_text("N", ["a", "b", "c"]),
                  flags=re.M)  # fmt: skip
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key} = "))
    with pytest.raises(SpecError) as info:
        examples.load_text(text, SPEC)
    assert str(info.value).startswith(f"{SPEC}, line {line}: {message}"), str(info.value)


@pytest.mark.parametrize(("what", "line_text", "key", "message"), RANDOM, ids=[r[0] for r in RANDOM])
def test_random_projections_that_cannot_print_are_refused(what, line_text, key, message):
    text = spec_text("Numbers", ["a", "b"]).replace(
        'projections = "identity"', 'projections = "random"\nseed = 1\nstd = 0.5'
    )
    text = re.sub(rf"^{key} = .*$", lambda m: line_text, text, flags=re.M)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key} = "))
    with pytest.raises(SpecError) as info:
        examples.load_text(text, SPEC)
    assert str(info.value).startswith(f"{SPEC}, line {line}: {message}"), str(info.value)


def test_every_number_of_the_examples_pages_is_printable():
    for ex in examples.load_all():
        assert examples.printable_problem(ex) is None, ex.slug


def test_the_limits_are_stated_once():
    assert (examples.MAX_TOKENS, examples.MAX_WIDTH, examples.MAX_DECIMALS) == (
        LIMITS["words"], LIMITS["dims"], LIMITS["decimals"])  # fmt: skip
    assert tokens_problem(["x" * LIMITS["tokenLength"]]) is None
    assert (
        tokens_problem(["x" * (LIMITS["tokenLength"] + 1)])
        == "token 'xxxxxxxxxxxxxxxxxxxxxxxx'... has 25 characters; at most 24"
    )


def test_a_description_allows_emphasis_code_and_links_to_pages():
    text = "See *this*, **that**, `x[0]` and [Masking](../masking.md#the-mask).\n\nA < b & c, $x$ and _u_ stay text."
    assert description_parts(text) == [
        [Part("text", "See "), Part("em", "this"), Part("text", ", "), Part("strong", "that"), Part("text", ", "),
         Part("code", "x[0]"), Part("text", " and "), Part("link", "Masking", "../masking.md#the-mask"),
         Part("text", ".")],
        [Part("text", "A < b & c, $x$ and _u_ stay text.")],
    ]  # fmt: skip
