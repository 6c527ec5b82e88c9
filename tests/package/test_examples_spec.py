"""The worked-example spec files: bad files fail loudly, naming the file, the key and its line."""

from __future__ import annotations

import json
import os
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
        "token-count",
        set_key(GOOD, "tokens", '["a", "b", "c"]'),
        "embeddings",
        r"'embeddings' has 2 vectors but 'tokens' has 3 tokens",
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


# --- issue 30: a message names the line to edit; issue 27: no value echoed whole ----------------


def error_of(text: str, path: Path = Path("/nowhere/spec.toml")) -> str:
    with pytest.raises(SpecError) as info:
        examples.load_text(text, path)
    return str(info.value)


ROWS = """\
title = "tiny"
tokens = ["a", "b", "c"]
embeddings = [
  [1, 0],
  [0, 1],
  [1, 1],
]
projections = "none"
scale = false
causal = false
decimals = 3
"""


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("  [1, 1],", "  [1, 1, 1],", 6,
         "'embeddings' is ragged: row 3 (token 'c') has 3 numbers but row 1 (token 'a') has 2; every row needs as "
         "many"),
        ("  [1, 0],", "  [1],", 4,
         "'embeddings' is ragged: row 1 (token 'a') has 1 numbers but row 2 (token 'b') has 2"),
        ("  [0, 1],", '  [0, "x"],', 5, "'embeddings' holds 'x' (row 2, token 'b'), which is not a number"),
        ("  [0, 1],", "  [0,\n   nan],", 6, "'embeddings' holds a value that is not finite (nan, row 2, token 'b')"),
        ("  [1, 1],", "  [1, 1e7],", 6, "'embeddings' holds 10000000.0 (row 3, token 'c'); every number of a spec"),
        ("  [1, 1],", "  [1, " + "9" * 500 + "],", 6, "'embeddings' holds an integer of 500 digits (row 3, token 'c')"),
        ("  [1, 1],", '  [1, "' + "x" * 1000 + '"],', 6, "'embeddings' holds "
         "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (1000 characters) (row 3, token 'c'), which is not a number"),
    ],
)  # fmt: skip
def test_a_bad_row_names_its_token_and_its_own_line(old, new, line, message):
    text = ROWS.replace(old, new)
    assert error_of(text).startswith(f"/nowhere/spec.toml, line {line}: {message}"), error_of(text)


def test_a_ragged_matrix_on_one_line_names_that_line():
    text = ROWS.replace("embeddings = [\n  [1, 0],\n  [0, 1],\n  [1, 1],\n]", "embeddings = [[1, 0], [0, 1], [1]]")
    assert error_of(text).startswith("/nowhere/spec.toml, line 3: 'embeddings' is ragged: row 3 (token 'c')")


def test_a_ragged_weight_matrix_names_its_row_line():
    text = ROWS.replace('projections = "none"', 'projections = "given"\nW_Q = [\n  [1, 0],\n  [0],\n]\n'
                        "W_K = [[1, 0], [0, 1]]\nW_V = [[1, 0], [0, 1]]")  # fmt: skip
    assert error_of(text).startswith(
        "/nowhere/spec.toml, line 11: 'W_Q' is ragged: row 2 has 1 numbers but row 1 has 2"
    ), error_of(text)


def test_the_rnn_specs_rows_and_vectors_name_their_lines(tmp_path):
    good = (examples.RNN_DIR / "the_cat_sat.toml").read_text(encoding="utf-8")
    first_row = re.search(r"^W_hh = \[\n(  \[.*\],)", good, re.M).group(1)
    bad = good.replace(first_row, first_row.replace("[", "[1, ", 1), 1)
    path = write(tmp_path, bad, "the_cat_sat.toml")
    with pytest.raises(SpecError) as info:
        examples.load_rnn_file(path)
    line = bad.splitlines().index(first_row.replace("[", "[1, ", 1)) + 1
    assert str(info.value).startswith(f"{path}, line {line}: 'W_hh' is ragged: row 1 has "), str(info.value)
    s_line = next(ln for ln in good.splitlines() if ln.startswith("s = "))
    bad = good.replace(s_line, s_line.replace("[", '[\n  "x",\n', 1))
    path = write(tmp_path, bad, "the_cat_sat.toml")
    with pytest.raises(SpecError) as info:
        examples.load_rnn_file(path)
    line = bad.splitlines().index('  "x",') + 1
    assert str(info.value).startswith(f"{path}, line {line}: 's' holds 'x' (number 1), which is not a number")


TOML_ERRORS = [
    # (what, the change to GOOD, the line the message names, what it says is likely wrong)
    ("missing comma between rows", ("  [1, 0],\n", "  [1, 0]\n"), 5,
     "A comma is probably missing after '[1, 0]' on line 5: the values of a list, and its rows, are separated"),
    ("missing comma in a row", ("  [0, 1],", "  [0 1],"), 6, "A comma is probably missing after '0' on line 6"),
    ("missing ]", ("  [0, 1],\n]\n", "  [0, 1],\n"), 6,
     "A ']' is probably missing: the list that opens on line 4 is not closed."),
    ("missing ] of a row", ("  [0, 1],\n]", "  [0, 1,\n]"), 7,
     "A ']' is probably missing at the end of line 7: a list is not closed (the list that opens on line 4)."),
    ("missing quote", ('title = "tiny"', 'title = "tiny'), 2, "A string is not closed: the closing quote is missing"),
    ("no quotes", ('title = "tiny"', "title = tiny"), 2, "'tiny' is not a value: text goes in double quotes"),
    ("duplicate key", ("decimals = 3", "decimals = 3\ndecimals = 4"), 12,
     "The key 'decimals' is given twice (on line 11 and on line 12): keep one of them."),
    ("duplicate multi-line key",
     ('title = "tiny"', 'title = "tiny"\ndescription = "One."\ndescription = """\nTwo.\n"""'), 4,
     "The key 'description' is given twice (on line 3 and on line 4): keep one of them."),
    ("True", ("scale = false", "scale = False"), 9, "Write false in lower case"),
    ("smart quotes", ('title = "tiny"', "title = “tiny”"), 2, "Use straight quotes"),
    ("two values", ("decimals = 3", "decimals = 3 4"), 11, "Line 11 holds something after its value ('4')"),
    ("comma at the end", ('projections = "none"', 'projections = "none",'), 8, "Line 8 ends its value with a comma"),
    ("one ] too many", ("  [0, 1],\n]", "  [0, 1],\n]]"), 7, "A list is closed once too often on line 7"),
    ("no =", ("causal = false", "causal false"), 10, "Line 10 is not 'key = value': the '=' is missing"),
    ("unclosed description", ('title = "tiny"', 'title = "tiny"\ndescription = """\nText'), 3,
     "A string is not closed: the multi-line string that opens on line 3 is never closed."),
    ("backslash", ('title = "tiny"', 'title = "C:\\path"'), 2, "A backslash in a \"...\" string starts an escape"),
    ("semicolons", ("  [0, 1],", "  [0; 1],"), 6, "';' cannot follow a value in a list on line 6"),
    ("another script's digit", ("[0, 1],", "[0, \u0663],"), 6,
     "'\u0663' is not a number: a number is written with the digits 0 to 9, a point, an exponent and a sign"),
    ("a fullwidth minus", ("[0, 1],", "[0, \uff0d1],"), 6,
     "'\uff0d1' is not a number: a number is written with the digits 0 to 9, a point, an exponent and a sign, "
     "such as 0.5, -2, −2 or 1e-3; write its minus sign as - or −."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("typed", "value"), [(".5", 0.5), ("5.", 5.0), ("\u22120.5", -0.5), ("\u2212.5e\u22121", -0.05), ("001", 1.0)]
)
def test_a_spec_reads_a_number_as_the_command_line_and_the_playground_do(tmp_path, typed, value):
    """A number typed as the site prints it (the minus sign U+2212) or as a reader types it (".5"), in
    any value of the file, and on the line it was typed on (issue 51)."""
    ex = examples.load_file(write(tmp_path, GOOD.replace("[0, 1],", f"[0, {typed}],", 1)))
    assert ex.E[1, 1] == value


@pytest.mark.parametrize(
    ("typed", "advice"), [("1_0", "without underscores"), ("0x1F", "in decimal digits"), ("0b1", "in decimal digits")]
)
def test_numbers_toml_reads_but_the_site_does_not_are_refused_on_their_line(tmp_path, typed, advice):
    path = write(tmp_path, GOOD.replace("[0, 1],", f"[0, {typed}],", 1))
    with pytest.raises(SpecError) as info:
        examples.load_file(path)
    assert str(info.value).startswith(f"{path}, line 6: '{typed}' is not a number: a number is written with the")
    assert str(info.value).endswith(f"; write it {advice}")


@pytest.mark.parametrize(("what", "change", "line", "hint"), TOML_ERRORS, ids=[e[0] for e in TOML_ERRORS])
def test_a_toml_syntax_error_says_what_is_likely_wrong_and_where(tmp_path, what, change, line, hint):
    old, new = change
    assert old in GOOD, old
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(SpecError) as info:
        examples.load_file(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}, line {line}: not valid TOML ("), msg
    assert f"). {hint}" in msg, msg
    assert "\n" not in msg


ECHOED = [
    ("decimals", "1" + "0" * 400, "'decimals' must be an integer from 0 to 10, got an integer of 401 digits"),
    ("decimals", "[" + ", ".join(["1"] * 100) + "]", "'decimals' must be an integer from 0 to 10, got a list of 100 "
     "values"),
    ("order", "-" + "9" * 300, "'order' must be a whole number from 1 up, got an integer of 300 digits"),
    ("scale", '"' + "y" * 5000 + '"', "'scale' must be true or false, got "
     "'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'... (5000 characters)"),
    ("projections", '"' + "r" * 300 + '"', "'projections' must be one of ['none', 'identity', 'random', 'given'], "
     "got 'rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr'... (300 characters)"),
    ("decimals", "{ a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11 }",
     "'decimals' must be an integer from 0 to 10, got a table of 11 keys"),
]  # fmt: skip


@pytest.mark.parametrize(("key", "value", "message"), ECHOED, ids=[f"{k}-{len(v)}" for k, v, _ in ECHOED])
def test_a_huge_value_is_not_echoed_whole(key, value, message):
    text = set_key(GOOD, key, value)
    msg = error_of(text)
    assert msg.startswith(f"/nowhere/spec.toml, line {line_of(text, key)}: {message}"), msg[:300]
    assert len(msg) < 400


def test_a_number_past_pythons_digit_limit_is_refused_with_its_line():
    msg = error_of(GOOD.replace("[0, 1],", "[0, " + "9" * 5000 + "],"))
    assert (
        msg
        == "/nowhere/spec.toml, line 6: a number of 5000 digits; every number of a spec is at most 1,000,000 in size"
    )


@pytest.mark.parametrize(
    ("projections", "missing", "message"),
    [
        ("random", "seed", "projections = 'random' needs 'seed' (an integer from 0 to 4294967295, the seed of the "
         "random weights), and the file does not have it"),
        ("given", "W_Q", "projections = 'given' needs 'W_Q' (a matrix of 2 rows, one a feature of the embeddings), "
         "and the file does not have it"),
    ],
)  # fmt: skip
def test_a_key_that_projections_needs_is_named_missing_at_the_projections_line(projections, missing, message):
    text = set_key(GOOD, "projections", f'"{projections}"')
    if projections == "given":
        text += "W_K = [[1, 0], [0, 1]]\nW_V = [[1, 0], [0, 1]]\n"
    msg = error_of(text)
    assert msg == f"/nowhere/spec.toml, line {line_of(text, 'projections')}: {message}", msg


@pytest.mark.parametrize("slug", ["con", "prn", "aux", "nul", "com0", "com1", "com9", "lpt1", "lpt9"])
def test_windows_device_names_are_not_slugs(slug, tmp_path):
    problem = examples.slug_problem(slug)
    assert problem == (
        f"'{slug}' is not a valid example name: {slug.upper()} is a device name on Windows (as are CON, PRN, AUX, NUL, "
        "COM0 to COM9 and LPT0 to LPT9), so no file there can be called so; choose another name"
    )
    write(tmp_path, GOOD, f"{slug}.toml")
    with pytest.raises(SpecError, match=rf"{slug}\.toml: the file name gives the example's slug, and '{slug}' is not"):
        examples.load_all(tmp_path)


@pytest.mark.parametrize("slug", ["con_x", "console", "com10", "nul1", "lpt", "auxiliary", "comma"])
def test_names_that_only_start_like_a_device_are_slugs(slug):
    assert examples.slug_problem(slug) is None


def test_a_spec_that_cannot_be_read_is_a_spec_error(tmp_path):
    (tmp_path / "gone.toml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "gone.toml").chmod(0)
    if os.access(tmp_path / "gone.toml", os.R_OK):  # root reads it anyway
        (tmp_path / "gone.toml").unlink()
    else:
        with pytest.raises(SpecError, match=r"gone\.toml: cannot be read \(Permission denied\)$"):
            examples.load_all(tmp_path)
        (tmp_path / "gone.toml").unlink()
    (tmp_path / "latin.toml").write_bytes(GOOD.replace("tiny", "caf\xe9").encode("latin-1"))
    with pytest.raises(SpecError, match=r"latin\.toml: not UTF-8 text \(byte 30 is 0xe9\)$"):
        examples.load_all(tmp_path)


# --- the positions the messages give: where each key, row and number is written -----------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from selfattn_ref.examples._toml import layout  # noqa: E402

tricky_text = st.text(alphabet=list("ab ,[]{}#=\"'\\\n\t") + ["é", "\u2028"], max_size=8)
scalar = st.one_of(st.integers(-(10**6), 10**6), st.floats(-1e6, 1e6), tricky_text)
GAPS = ["", " ", "\n", "  # a comment, with ] and [\n", "\n\n  "]


def _toml_value(value, gap) -> str:
    if isinstance(value, list):
        return "[" + gap + ("," + gap).join(_toml_value(v, gap) for v in value) + gap + "]"
    if isinstance(value, str):
        return json.dumps(value)  # JSON's escapes are TOML's basic string's
    return repr(value)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.lists(scalar, min_size=1, max_size=3), min_size=1, max_size=4),
    gap=st.sampled_from(GAPS),
    before=st.sampled_from(['title = "a ] [ , #"', 'description = """\nx = [\n1, 2]\n"""', "n = 1979-05-27 07:32:00"]),
)
def test_the_layout_finds_every_key_row_and_number_where_tomllib_reads_them(rows, gap, before):
    import tomllib

    text = f"{before}\nm = {_toml_value(rows, gap)}\nlast = 'x'\n"
    data = tomllib.loads(text)
    found = layout(text)
    assert set(found) == set(data)
    m = found["m"]
    assert m.line == before.count("\n") + 2 and [len(r.items) for r in m.value.items] == [len(r) for r in data["m"]]
    lines = text.split("\n")
    for row, node in zip(data["m"], m.value.items, strict=True):  # each row starts on its line
        assert lines[node.line - 1].lstrip(" ,").startswith("[") or lines[node.line - 1].startswith("m = ")
        for value, cell in zip(row, node.items, strict=True):
            assert cell.line >= node.line
            if not isinstance(value, str):
                assert _toml_value(value, gap) in lines[cell.line - 1]
    assert found["last"].line == text[: text.index("last =")].count("\n") + 1


def test_the_layout_of_every_spec_file_agrees_with_tomllib():
    import tomllib

    for path in sorted(examples.EXAMPLES_DIR.rglob("*.toml")):
        text = path.read_text(encoding="utf-8")
        data, found = tomllib.loads(text), layout(text)
        assert set(found) == set(data), path
        for key, value in data.items():
            if isinstance(value, list):
                assert len(found[key].value.items) == len(value), (path, key)
            assert re.match(rf"\s*{key}\s*=", text.splitlines()[found[key].line - 1]), (path, key)


def test_lists_nested_hundreds_deep_are_a_spec_error():
    msg = error_of(set_key(GOOD, "decimals", "[" * 2000 + "]" * 2000))
    assert msg == "/nowhere/spec.toml: not valid TOML for a spec: its lists are nested hundreds deep"


def test_an_unknown_key_is_shown_escaped_and_short():
    msg = error_of(GOOD + '"a\\nb' + "c" * 500 + '" = 1\n')
    shown = repr("a\nb" + "c" * 37)
    assert msg.startswith(f"/nowhere/spec.toml, line 12: unknown key {shown}... (503 characters) (known keys: ["), msg


def test_a_byte_order_mark_is_named():
    msg = error_of("\ufeff" + GOOD)
    assert msg.endswith("The file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one."), msg


EDIT_CHARS = list(",[]{}=\"'#\\\n .0123456789aeTtf-+_") + [
    "“",
    "\x00",
    "\t",
    '"""',
    "'''",
    "nan",
    "1e999",
    '"\\n\n" = 1\n',
]


@settings(max_examples=300, deadline=None)
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(ROWS)), st.integers(0, 3), st.sampled_from(EDIT_CHARS)), min_size=1, max_size=3
    )
)
def test_any_edit_of_a_spec_loads_or_is_a_one_line_spec_error(edits):
    """A contributor's typo anywhere (a character deleted, added or replaced) gives a valid example
    or one SpecError naming the file (and a line where there is one), never another exception."""
    text = ROWS
    for at, cut, new in edits:
        at = min(at, len(text))
        text = text[:at] + new + text[at + cut :]
    try:
        examples.load_text(text, Path("/nowhere/spec.toml"))
    except SpecError as exc:
        msg = str(exc)
        assert msg.startswith("/nowhere/spec.toml") and "\n" not in msg and len(msg) < 600, msg


# --- files the loader does not read (issue 51, severe 3 and the minor FIFO and case items) ----------


def test_a_spec_that_is_a_link_or_not_a_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    """A link to /proc/self/environ was read and its content printed in the error, a FIFO hung the
    loader, and x.TOML was left out without a word: each is refused with the file and the reason,
    and nothing of what it holds (or leads to) is read."""
    monkeypatch.setenv("SECRET_FOR_THE_TEST", "s3cr3t-value")
    folder = tmp_path / "examples"
    folder.mkdir()
    write(folder, GOOD, "tiny.toml")
    cases = {
        "environ.toml": (lambda p: p.symlink_to("/proc/self/environ"),
                         "environ.toml is a symbolic link (to '/proc/self/environ'), the file: not followed"),
        "inside.toml": (lambda p: p.symlink_to(folder / "tiny.toml"), "inside.toml is a symbolic link"),
        "gone.toml": (lambda p: p.symlink_to(tmp_path / "nowhere.toml"), "gone.toml is a symbolic link"),
        "fifo.toml": (os.mkfifo, "fifo.toml is not a regular file"),
        "folder.toml": (lambda p: p.mkdir(), "folder.toml is not a regular file"),
        "upper.TOML": (lambda p: p.write_text(GOOD, encoding="utf-8"),
                       "the file's name ends in '.toml', in lower case: rename it upper.toml"),
    }  # fmt: skip
    for name, (make, reason) in cases.items():
        make(folder / name)
        with pytest.raises(SpecError) as info:
            examples.load_all(folder)
        message = str(info.value)
        assert message.startswith(f"{folder / name}: ") and reason in message, message
        assert "s3cr3t" not in message and "\n" not in message and len(message) < 300, message
        entry = folder / name
        entry.rmdir() if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    assert [ex.slug for ex in examples.load_all(folder)] == ["tiny"]
    sub = tmp_path / "linked"
    sub.symlink_to(folder)
    with pytest.raises(SpecError, match="linked is a symbolic link .*a folder on the way"):
        examples.load_file(sub / "tiny.toml", tmp_path)


def test_a_syntax_error_quotes_a_short_clean_excerpt(tmp_path):
    """What the TOML reader could not parse is quoted in one line of at most 80 characters, control
    characters escaped: never the rest of the file."""
    text = "title = " + "\x00".join(f"KEY{i}=value{i}" for i in range(300)) + "\n"
    with pytest.raises(SpecError) as info:
        examples.load_file(write(tmp_path, text, "env.toml"))
    message = str(info.value)
    assert "\n" not in message and "\x00" not in message and "KEY50" not in message, message
    quoted = re.findall(r"'[^']*'", message)
    assert quoted and all(len(q) <= 83 for q in quoted), quoted
    assert "\\x00" in message and "…" in message, message


def test_a_spec_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    """A spec file of any size was read whole into memory; the largest spec the limits allow (16
    words of 24 two-byte letters, four 16 x 16 matrices of 19-character numbers, the longest title
    and description) loads and is well under the limit, and a file over it is refused by its size."""
    n, w = examples.MAX_TOKENS, examples.MAX_WIDTH
    tokens = ["é" * 22 + chr(0x3B1 + i) + "é" for i in range(n)]
    number = "-0.1234567890123456"  # as wide as the largest numbers, small enough for every result
    matrix = "[\n" + "".join(f"  [{', '.join([number] * w)}],\n" for _ in range(n)) + "]"
    square = "[\n" + "".join(f"  [{', '.join([number] * w)}],\n" for _ in range(w)) + "]"
    description = ("éééé " * 400)[: examples.LIMITS["descriptionLength"]].strip()
    text = (
        f'title = "{"é" * examples.LIMITS["titleLength"]}"\ndescription = """\n{description}\n"""\n'
        f"tokens = {json.dumps(tokens, ensure_ascii=False)}\nembeddings = {matrix}\n"
        f'projections = "given"\nW_Q = {square}\nW_K = {square}\nW_V = {square}\n'
        "scale = true\ncausal = false\ndecimals = 3\n"
    )
    path = write(tmp_path, text, "largest.toml")
    ex = examples.load_file(path)
    assert len(ex.tokens) == n and ex.E.shape == (n, w)
    size = path.stat().st_size
    assert size == 26_505, size  # the figure examples.MAX_SPEC_BYTES's comment gives
    path.write_text(text + "#" * (examples.MAX_SPEC_BYTES - size + 1), encoding="utf-8")
    with pytest.raises(SpecError, match=r"largest\.toml: 100,001 bytes; a spec file is at most 100,000 bytes$"):
        examples.load_file(path)
