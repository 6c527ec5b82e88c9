"""The worked examples' rules (selfattn_ref/examples/rules.py), as the loader applies them: a title,
a token or a description that would be markup or code, and a number that a page could not print,
are refused with the file, the key and the line (issue 16). The publishing tools' side (escaping,
rendering, the files they write) is tests/tools/test_hostile_specs.py."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
import text_strategies
from hypothesis import given, settings
from hypothesis import strategies as st

from selfattn_ref import examples
from selfattn_ref.examples import SpecError
from selfattn_ref.examples.rules import (
    LIMITS,
    Part,
    char_problem,
    description_parts,
    is_combining_mark,
    normalized,
    title_problem,
    tokens_problem,
)

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
    ("bidi override", "Zz\u202eevil", ["a"], None, "'title' holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible format"),
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
    ("attr list", "T", ["a"], "Para\n{: .x }", "'description' holds a brace ('{: .x }'), which would make an "
     "attribute list: write ( ) instead"),
    ("a claim of the audit", "T", ["a"], "About 0.7{{weights[a, a]}}.", "'description' holds a claim of the numbers "
     "audit ('{{weights[a, a]}}.'): a spec's text cannot say which quantity a number is, so write the number in "
     "words, or leave it to the tables the page shows"),
    ("javascript link", "T", ["a"], "[x](javascript:alert(1))", "'description' holds a link that is not of the form"),
    ("http link", "T", ["a"], "[x](https://example.com)", "'description' links to 'https://example.com'"),
    ("image", "T", ["a"], "![x](../x.png)", "'description' holds an image"),
    ("control in description", "T", ["a"], "a\x1bb", "'description' holds U+001B, a control character"),
]  # fmt: skip


# --- Unicode: what renders blank, is not text, or looks like another token (issue 27, item 4) -------

UNICODE_REFUSED = [
    # (what, title, tokens, description, the message's key and text)
    ("private use in a token", "T", ["a\ue000"], None,
     "token 'a\\ue000' holds U+E000, a private-use character, which has no agreed glyph"),
    ("unassigned in a token", "T", ["a\u0378"], None,
     "token 'a\\u0378' holds U+0378, a code point that Unicode 14.0.0 (Python's) has not assigned"),
    ("assigned only after Python's Unicode", "T", ["\U0001fa75"], None,
     "token '\\U0001fa75' holds U+1FA75, a code point that Unicode 14.0.0 (Python's) has not assigned"),
    ("Hangul filler", "T", ["\u3164"], None,
     "token '\\u3164' holds U+3164 HANGUL FILLER, a character that shows as a blank"),
    ("halfwidth Hangul filler", "T", ["x\uffa0"], None, "token 'x\\uffa0' holds U+FFA0 HALFWIDTH HANGUL FILLER"),
    ("choseong filler", "T", ["\u115f"], None, "token '\\u115f' holds U+115F HANGUL CHOSEONG FILLER, a character"),
    ("jungseong filler", "T", ["\u1160"], None, "token '\\u1160' holds U+1160 HANGUL JUNGSEONG FILLER"),
    ("Braille blank in a title", "Zz\u2800", ["a"], None,
     "'title' holds U+2800 BRAILLE PATTERN BLANK, a character that shows as a blank"),
    ("variation selector", "T", ["a\ufe0f"], None, "token 'a\\ufe0f' holds U+FE0F VARIATION SELECTOR-16, a character"),
    ("tag character", "T", ["a\U000e0041"], None, "token 'a\\U000e0041' holds U+E0041 TAG LATIN CAPITAL LETTER A"),
    ("zero-width space in a title", "Zz\u200bx", ["a"], None,
     "'title' holds U+200B ZERO WIDTH SPACE, an invisible format character"),
    ("no-break space in a title", "Zz\u00a0x", ["a"], None,
     "'title' holds U+00A0 NO-BREAK SPACE, a space other than the plain space U+0020"),
    ("a lone combining mark", "T", ["\u0301"], None,
     "token '\u0301' holds U+0301 COMBINING ACUTE ACCENT, a combining mark with no character before it"),
    ("a token that starts with a mark", "T", ["\u0308ab"], None, "token '\u0308ab' holds U+0308 COMBINING DIAERESIS"),
    ("a mark after a space", "Zz \u20ddx", ["a"], None, "'title' holds U+20DD COMBINING ENCLOSING CIRCLE, a combining"),
    ("private use in a description", "T", ["a"], "Plain \ue000 text.", "'description' holds U+E000, a private-use"),
    ("a mark that starts a line", "T", ["a"], "One\n\u0301two", "'description' holds U+0301 COMBINING ACUTE ACCENT, a"),
    ("a mark that starts emphasis", "T", ["a"], "One *\u0301two*", "'description' holds U+0301 COMBINING ACUTE"),
    ("blank in a description", "T", ["a"], "One \u3164 two", "'description' holds U+3164 HANGUL FILLER, a character"),
]  # fmt: skip


# --- numbers in spec text: refused where the numbers audit would refuse them on the page ------------

WHY = (
    "the numbers audit checks every decimal, percentage, number grouped in thousands and equation a page prints "
    "against the code"
)
NUMBERS_IN_TEXT = [
    # (what, title, tokens, description, the message's key and text)
    ("a percentage in a description", "T", ["a"], "It puts about 66.5% of its focus on itself.",
     f"'description' holds the number '66.5%': {WHY}"),
    ("a decimal in a title", "Version 2.5 of it", ["a"], None, f"'title' holds the number '2.5': {WHY}"),
    ("a percentage token", "T", ["66.5%", "b"], None, f"token '66.5%' holds the number '66.5%': {WHY}"),
    ("a percent sign after a space", "T", ["a"], "About 66 % of it.", "'description' holds the number '66 %'"),
    ("tokens side by side", "T", ["5", "%"], None,
     f"the tokens, side by side as the gallery lists them, hold the number '5 %': {WHY}"),
    ("an underscore the page escapes", "T", ["x_1.5"], None, "token 'x_1.5' holds the number '1.5'"),
    # a message quotes the number as typed (issue 51): not "5 %", "66 %" and "1.5", which the page would show
    ("emphasis, then a percent sign", "T", ["a"], "It is *5*% of it.", "'description' holds the number '5*%'"),
    ("a number split over two lines", "T", ["a"], "About 66\n% of it.", "'description' holds the number '66\\n%'"),
    ("a decimal in code", "T", ["a"], "See `0.25` here.", "'description' holds the number '0.25'"),
    ("a decimal point escaped", "T", ["a"], "1\\.5 times as much.", "'description' holds the number '1\\\\.5'"),
    ("a decimal point escaped in a title", "Pay 1\\.5 more", ["a"], None, "'title' holds the number '1\\\\.5'"),
    # numbers that are not whole, in the notations the audit does not read (issue 51)
    ("a number grouped in thousands", "T", ["a"], "Its 1,024 tokens.",
     f"'description' holds the number '1,024': {WHY}"),
    ("a grouped number in a title", "All 1,000,000 of them", ["a"], None, "'title' holds the number '1,000,000'"),
    ("a grouped number token", "T", ["8,192", "b"], None, "token '8,192' holds the number '8,192'"),
    ("a decimal without its 0", "About .5 of it", ["a"], None, f"'title' holds the number '.5': {WHY}"),
    ("a decimal comma", "T", ["a"], "About 1,5 times.", "'description' holds the number '1,5'"),
    ("a decimal comma token", "T", ["1,5", "b"], None, "token '1,5' holds the number '1,5'"),
    ("a fraction character", "Half ½ of it", ["a"], None, "'title' holds the number '½'"),
    ("a whole and a fraction", "T", ["a"], "It is 1½ times.", "'description' holds the number '1½'"),
    ("a fraction with a slash", "Three 3/4 of it", ["a"], None, "'title' holds the number '3/4'"),
    ("a fraction with the fraction slash", "T", ["3\u20444"], None, "token '3\u20444' holds the number '3\u20444'"),
    ("a division", "T", ["a"], "It is 3 ÷ 4.", "'description' holds the number '3 ÷ 4'"),
    ("a per mille", "About 5‰ of it", ["a"], None, "'title' holds the number '5‰'"),
    ("a fullwidth percent sign", "T", ["a"], "About 5％ of it.", "'description' holds the number '5％'"),
    ("a negative exponent", "T", ["1e-3"], None, "token '1e-3' holds the number '1e-3'"),
    ("the Arabic decimal separator", "T", ["a"], "It is 1\u066b5.", "'description' holds the number '1\u066b5'"),
    ("a decimal in a link", "T", ["a"], "See [0.5 of it](../masking.md).", "'description' holds the number '0.5'"),
    ("worked arithmetic", "T", ["a"], "Here 1 + 1 = 3.", f"'description' holds an equation '1 + 1 = 3': {WHY}"),
    ("arithmetic in a title", "Why 2 × 3 = 6", ["a"], None, "'title' holds an equation '2 × 3 = 6'"),
    ("arithmetic across tokens", "T", ["1", "+", "2", "=", "3"], None,
     "the tokens, side by side as the gallery lists them, hold an equation '1 + 2 = 3'"),
]  # fmt: skip


ALL_REFUSED = REFUSED + UNICODE_REFUSED + NUMBERS_IN_TEXT


@pytest.mark.parametrize(
    ("what", "title", "tokens", "description", "message"), ALL_REFUSED, ids=[r[0] for r in ALL_REFUSED]
)
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


def test_numbers_whose_float64_error_reaches_their_units_digit_are_refused():
    """Four terms of 9.92e14 (each under 1e15, so printable) that cancel to 0: float64 holds no digit
    of the score (issue 51, item 5). (Whole numbers would be exact: float64 adds them exactly.)"""
    given = {
        "W_Q": "[[31.5, 31.5, 31.5, 31.5], [1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]",
        "W_K": "[[31.5, -31.5, 31.5, -31.5], [1, -1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]",
        "W_V": "[[1, 0], [0, 1], [0, 0], [0, 0]]",
    }
    text = spec_text("N", ["a", "b"]).replace(
        'projections = "identity"', 'projections = "given"\n' + "\n".join(f"{k} = {v}" for k, v in given.items())
    )
    text = re.sub(r"embeddings = \[\n(?:.*\n)*?\]", "embeddings = [[1000000, 0, 0, 0], [0, 1, 0, 0]]", text)
    with pytest.raises(SpecError) as info:
        examples.load_text(text, SPEC)
    assert str(info.value) == (
        f"{SPEC}, line 5: the page would print the scores with float64 rounding errors of up to 4.4: the numbers "
        "that make them are large and cancel, so that not even their units digit is held "
        "(selfattn_ref.examples.errors); use smaller numbers"
    )


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


def test_a_lone_surrogate_is_refused():
    """Lone surrogates reach spec text from JSON or from bytes decoded with surrogateescape (TOML
    files cannot hold them): refused as not text."""
    assert (
        tokens_problem(["a\ud800"])
        == "token 'a\\ud800' holds U+D800, a lone surrogate, half of a character and not text"
    )
    assert title_problem("T\udcff") == "'title' holds U+DCFF, a lone surrogate, half of a character and not text"
    text = spec_text("T", ["a", "b"]).replace('"b"', '"b\udfff"')
    with pytest.raises(SpecError, match=r"zz_spec.toml, line 2: token 'b\\udfff' holds U\+DFFF, a lone surrogate"):
        examples.load_text(text, SPEC)


def test_nfc_makes_two_spellings_of_one_token_a_duplicate():
    text = spec_text("T", ["caf\u00e9", "cafe\u0301"])
    with pytest.raises(SpecError) as info:
        examples.load_text(text, SPEC)
    assert str(info.value) == (
        f"{SPEC}, line 2: token 'café' appears twice (typed as U+0063 U+0061 U+0066 U+00E9 and as U+0063 U+0061 "
        "U+0066 U+0065 U+0301, which NFC makes one); every token needs a name of its own (for example 'café2')"
    )


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        (
            ["\ufb01sh", "fish"],
            "tokens '\ufb01sh' and 'fish' look alike (U+FB01 U+0073 U+0068 and U+0066 U+0069 U+0073 U+0068, which "
            "Unicode's compatibility form NFKC makes one); every token needs a name of its own (for example 'fish2')",
        ),
        (
            ["cat", "\uff43\uff41\uff54"],
            "tokens 'cat' and 'ｃａｔ' look alike (U+0063 U+0061 U+0074 and U+FF43 U+FF41 "
            "U+FF54, which Unicode's compatibility form NFKC makes one); every token needs a name of its own (for "
            "example 'cat2')",
        ),
    ],
    ids=["ligature", "fullwidth"],
)
def test_tokens_that_nfkc_makes_one_are_refused(tokens, message):
    """Same-script look-alikes (issue 51): a ligature and its letters, fullwidth and plain letters."""
    with pytest.raises(SpecError) as info:
        examples.load_text(spec_text("T", tokens), SPEC)
    assert str(info.value) == f"{SPEC}, line 2: {message}"


def test_an_example_holds_its_text_in_nfc():
    ex = examples.load_text(spec_text("Cafe\u0301 \u212b", ["e\u0301", "A\u030a" * 24], "Cafe\u0301 au lait."), SPEC)
    assert (ex.title, ex.tokens, ex.description) == ("Café Å", ("é", "Å" * 24), "Café au lait.")


def test_titles_that_differ_only_before_nfc_are_the_same_title(tmp_path):
    for slug, title in (("a_one", "Caf\u00e9"), ("b_two", "Cafe\u0301")):
        (tmp_path / f"{slug}.toml").write_text(spec_text(title, ["a"]), encoding="utf-8")
    with pytest.raises(
        SpecError, match=r"b_two.toml, line 1: 'title' 'Café' is also the title of .*a_one.toml, line 1"
    ):
        examples.load_all(tmp_path)


def test_titles_that_nfkc_makes_one_are_the_same_title(tmp_path):
    for slug, title in (("a_one", "Big \ufb01sh"), ("b_two", "big fish")):
        (tmp_path / f"{slug}.toml").write_text(spec_text(title, ["a"]), encoding="utf-8")
    with pytest.raises(SpecError, match=r"b_two.toml, line 1: 'title' 'big fish' is also the title of .*a_one.toml"):
        examples.load_all(tmp_path)


def test_the_command_line_checks_tokens_with_the_same_rule(capsys):
    from selfattn_ref.cli import EXIT_USAGE, main

    assert main(["explain", "--tokens", "a", "\u3164", "--vectors", "1 0; 0 1"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "error: --tokens: token 2 is not a token as the worked examples define it: token '\\u3164' holds "
        "U+3164 HANGUL FILLER, a character that shows as a blank\n"
    )


def test_a_number_in_a_description_is_named_on_its_own_line():
    text = spec_text("T", ["a"]).replace(
        'title = "T"\n', 'title = "T"\ndescription = """\nOne line.\nThen a second, about 0.5 of it.\n"""\n'
    )
    with pytest.raises(SpecError) as info:
        examples.load_text(text, SPEC)
    assert str(info.value).startswith(f"{SPEC}, line 4: 'description' holds the number '0.5': {WHY}")


def test_whole_numbers_and_numbers_in_names_stay_allowed():
    """The audit checks no integer written plainly outside arithmetic, and no digit inside a word: neither
    does the spec: "1000" is a count, where "1,000" is a figure to claim."""
    ex = examples.load_text(
        spec_text("Step 2 of 3, 16 tokens", ["1", "2", "x3", "W_2", "v1.2.3", "e^0.5", "3.2.1"],
                  "Its 3 tokens and 2 heads; step 1 of 2, version 3.2.1, e^0.5 and x1.5; 1000 of them."),
        SPEC,
    )  # fmt: skip
    assert ex.tokens == ("1", "2", "x3", "W_2", "v1.2.3", "e^0.5", "3.2.1")


# --- properties: the Unicode classes, drawn (tests/support/text_strategies.py) ---------------------------------

PROPERTY = settings(max_examples=60, deadline=None)


@PROPERTY
@given(
    words=st.lists(
        text_strategies.valid_word, min_size=1, max_size=4, unique_by=lambda w: unicodedata.normalize("NFKC", w)
    ).filter(lambda words: text_strategies.no_number(" ".join(words))),
    title=text_strategies.valid_prose,
    description=text_strategies.valid_prose,
)
def test_property_valid_text_is_accepted_and_kept_in_nfc(words, title, description):
    ex = examples.load_text(spec_text(title, words, description), SPEC)
    assert (ex.title, ex.tokens, ex.description) == (
        normalized(title),
        tuple(map(normalized, words)),
        normalized(description),
    )


@PROPERTY
@given(
    key=st.sampled_from(["title", "tokens", "description"]),
    word=text_strategies.valid_word,
    prose=text_strategies.valid_prose,
    bad=text_strategies.refused_char(),
    at=st.integers(0, 40),
)
def test_property_a_refused_character_anywhere_is_refused_naming_key_and_line(key, word, prose, bad, at):
    kind, ch = bad
    base = word if key == "tokens" else prose
    at %= len(base) + 1
    spoiled = base[:at] + ch + base[at:]
    values = {"title": "T", "tokens": ["a"], "description": "Plain."} | {key: [spoiled] if key == "tokens" else spoiled}
    text = spec_text(values["title"], values["tokens"], values["description"])
    with pytest.raises(SpecError) as info:
        examples.load_text(text, SPEC)
    msg = str(info.value)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key} = "))
    assert msg.startswith(f"{SPEC}, line {line}: "), (kind, msg)
    assert f"U+{ord(ch):04X}" in msg or (key == "title" and "must be one line" in msg), (kind, msg)


@PROPERTY
@given(title=text_strategies.any_text, words=st.lists(text_strategies.any_text, min_size=1, max_size=3),
       description=text_strategies.any_text)  # fmt: skip
def test_property_any_text_is_accepted_in_nfc_or_refused_naming_key_and_line(title, words, description):
    text = spec_text(title, words, description)
    try:
        ex = examples.load_text(text, SPEC)
    except SpecError as exc:
        assert re.match(
            rf"{re.escape(str(SPEC))}, line [1-3]: ('title'|'description'|'tokens'|token|the tokens)", str(exc)
        )
        assert str(exc).isprintable(), str(exc)
        return
    for t in (ex.title, *ex.tokens, ex.description):
        assert t == normalized(t) and not any(char_problem(c) for c in t.replace(" ", "").replace("\n", ""))
    assert not any(is_combining_mark(t[0]) for t in ex.tokens)


# --- every matrix's columns are bounded (issue 27, item 6) ------------------------------------------------


def _given(W_Q: list, W_K: list, W_V: list) -> str:
    text = spec_text("Given", ["a", "b"]).replace("[1, 1, 1, 1]", "[1, 0]").replace('"identity"', '"given"')
    return text + "".join(f"{k} = {json.dumps(M)}\n" for k, M in (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V)))


def test_projection_matrices_have_at_most_dims_columns():
    wide = [[0.5] * 300, [0.5] * 300]  # 2 x 300: once an 820 kB page
    for key in ("W_Q", "W_K", "W_V"):
        mats = {"W_Q": [[1, 0], [0, 1]], "W_K": [[1, 0], [0, 1]], "W_V": [[1, 0], [0, 1]]} | {key: wide}
        if key == "W_Q":
            mats["W_K"] = wide  # W_Q and W_K have the same width
        text = _given(**mats)
        line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key} = "))
        with pytest.raises(SpecError) as info:
            examples.load_text(text, SPEC)
        assert str(info.value) == f"{SPEC}, line {line}: '{key}' has 300 columns; a matrix of an example has at most 16"


def test_w_v_may_be_narrower_or_wider_than_w_q_within_the_limit():
    d_k2 = [[1, 0], [0, 1]]
    ex = examples.load_text(_given(d_k2, d_k2, [[1] * 16, [0] * 16]), SPEC)
    assert (ex.W_Q.shape, ex.W_V.shape, examples.run(ex).output.shape) == ((2, 2), (2, 16), (2, 16))
    ex = examples.load_text(_given([[1] * 16] * 2, [[1] * 16] * 2, [[1], [0]]), SPEC)
    assert (ex.W_Q.shape, ex.W_V.shape) == ((2, 16), (2, 1))
    with pytest.raises(SpecError, match="'W_V' has 17 columns; a matrix of an example has at most 16"):
        examples.load_text(_given(d_k2, d_k2, [[1] * 17, [0] * 17]), SPEC)


RNN = (examples.RNN_DIR / "the_cat_sat.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("key", ["W_xh", "W_s", "W_h"])
def test_the_rnn_specs_matrices_have_at_most_dims_columns(tmp_path, key):
    text = re.sub(rf"^{key} = \[\n(?:.*\n)*?\]", lambda m: f"{key} = {json.dumps([[0.5] * 17] * 4)}", RNN, flags=re.M)
    path = tmp_path / "wide.toml"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"{key} = "))
    with pytest.raises(SpecError) as info:
        examples.load_rnn_file(path)
    assert str(info.value) == f"{path}, line {line}: '{key}' has 17 columns; a matrix of an example has at most 16"
