"""The exercises at the end of the pages: every article and topic page has some, every expected
answer is the reference's (computed here a second way, from selfattn_ref's attention function), and a
bad spec is refused with the file, the key and the line."""

from __future__ import annotations

import html
import json
import re
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np
import pytest

from publish import DOCS, GENERATED
from publish.generate import exercises as exr

from exercise_cases import cases, cut_off, negated, off_by, other_values, second_way, specs, typed
from pages import expand

# The pages that teach: the four articles and the topics beyond them.
TEACHING_PAGES = [
    "real-numbers", "queries-keys-values", "learned-weights", "learning", "where-used",
    "scaling", "masking", "positional-encoding", "attention-that-learns", "multi-head", "transformer-block",
    "rnn-comparison", "next-word", "trained-model", "batched-heads", "cross-attention", "kv-cache", "online-softmax",
    "rotary",
]  # fmt: skip
ALL = [(page, ex) for page, exs in exr.load_all().items() for ex in exs]


def test_every_teaching_page_has_two_to_four_exercises_and_includes_them():
    specs = exr.load_all()
    for page in TEACHING_PAGES:
        assert 2 <= len(specs.get(page, ())) <= 4, page
        text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
        assert f'--8<-- "docs/generated/exercises/{page}.md"' in text, page
    assert set(specs) <= set(TEACHING_PAGES) | {"mistakes"}


SPECS = specs()
SPEC_IDS = [f"{page}:{spec['id']}" for page, spec in SPECS]


@pytest.mark.parametrize(("page", "spec"), SPECS, ids=SPEC_IDS)
def test_expected_answer_is_the_references(page, spec):
    ex = next(e for p, e in ALL if p == page and e.id == spec["id"])
    np.testing.assert_allclose(ex.answer.values, second_way(spec), rtol=0, atol=1e-12)
    data = exr.grader_data(ex)
    want = [exr.shown(v, ex.decimals, ex.percent) for v in second_way(spec)]
    assert data["answer"] == want


def test_every_built_page_carries_each_exercises_grader_data(strict_build):
    """What the page's script grades with (data-exercise, read as the browser reads an attribute) is
    grader_data's, exercise by exercise, on every page with exercises (the browser tests type into one
    page's and grade every page's data with the page's script: tests/browser/test_exercises_graded.py).
    (A regular expression and html.unescape, as test_the_page_carries_the_grader_data_escaped reads
    the attribute: parsing the twelve built pages took 3-8 s.)"""
    assert strict_build.proc.returncode == 0, strict_build.proc.stdout + strict_build.proc.stderr
    for page, exercises in exr.load_all().items():
        built = (strict_build.dir / page / "index.html").read_text(encoding="utf-8")
        carried = [
            json.loads(html.unescape(a))
            for a in re.findall(r'<div class="exercise"[^>]*\bdata-exercise="([^"]*)"', built)
        ]
        assert carried == [exr.grader_data(ex) for ex in exercises], page


def test_the_page_carries_the_grader_data_escaped():
    text = (GENERATED / "exercises" / "real-numbers.md").read_text(encoding="utf-8")
    attrs = re.findall(r'data-exercise="([^"]*)"', text)
    assert len(attrs) == len(exr.load_all()["real-numbers"])
    for attr in attrs:
        data = json.loads(html.unescape(attr))
        keys = {"id", "decimals", "percent", "answer", "rounded", "cut", "signs", "labels", "rowSumsToOne", "mistakes"}
        assert set(data) == keys
        assert "'" not in attr or "&#x27;" in text  # quotes inside the JSON are escaped for the attribute


def test_no_number_in_an_exercise_is_typed_by_hand():
    for path in exr.SPEC_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        prose = re.findall(r'^(?:question|solution) = "(.*)"$|^  "(.*)",$|message = "([^"]*)"', text, re.M)
        for parts in prose:
            line = exr._PLACEHOLDER.sub("", "".join(parts))
            assert not exr._TYPED_NUMBER.search(line), (path.name, line)


# --- a bad spec is refused, naming the file, the key and the line -------------------------------


GOOD = """[[exercise]]
id = "one"
question = "Compute it."
example = "bank_of_river"
answer = "weights[bank, river]"
decimals = 3
hints = ["A hint."]
solution = "It is {{weights[bank, river]}}."
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("decimals = 3", 'decimals = 3\ncolour = "red"'), "key 'colour', line 7: unknown key"),
        (('"weights[bank, river]"\n', '"weights[bank, sea]"\n'), "key 'answer', line 5: column 'sea' is not one of"),
        (('"weights[bank, river]"\n', '"heights[bank, river]"\n'), "key 'answer', line 5: 'heights' is not a matrix"),
        (('"weights[bank, river]"\n', '"weights(bank)"\n'), "is not an answer expression"),
        (
            ("It is {{weights[bank, river]}}.", "It is 0.245."),
            "key 'solution', line 8: 'solution' types the number '0.245'",
        ),
        (("It is {{weights[bank, river]}}.", "It is 24.5%."), "types the number '24.5%'"),
        (("It is {{weights[bank, river]}}.", "It is 1,024."), "types the number '1,024'"),
        (("Compute it.", "Compute <b>it</b>."), "key 'question', line 3: 'question' must be plain Markdown"),
        (("Compute it.", 'Compute it.{: onclick=\\"x\\" }'), "must be plain Markdown"),
        (("Compute it.", '--8<-- \\".git/config\\"'), "must be plain Markdown"),
        (("decimals = 3", "decimals = 9"), "key 'decimals', line 6: a whole number from 0 to 6"),
        (('example = "bank_of_river"', 'example = "sea"'), "'example' is 'sea', not a worked example"),
        (('example = "bank_of_river"', 'topic = "sea"'), "key 'topic', line 4: 'sea' is not one of"),
        (
            ('example = "bank_of_river"', 'example = "bank_of_river"\ntopic = "transformer_block"'),
            "exercise 1: give one of 'example', 'compare' and 'topic'",
        ),
        (('id = "one"', 'id = "One two"'), "key 'id', line 2: lower-case letters"),
        (('hints = ["A hint."]', "hints = []"), "key 'hints', line 7: a list of 1 to 4 hints"),
        (
            (
                'hints = ["A hint."]',
                'hints = ["A hint."]\nmistakes = [{answer = "weights[bank, river]", message = "No."}]',
            ),
            "shows as the right answer",
        ),
        (
            (
                'hints = ["A hint."]',
                'hints = ["A hint."]\nmistakes = [{answer = "weights[bank, of]", message = "Not $\\\\sigma^2$."}]',
            ),
            "key 'mistakes', line 8: a 'message' is shown as plain text, so its '$' would show as typed",
        ),
        (
            (
                'hints = ["A hint."]',
                'hints = ["A hint."]\nmistakes = [{answer = "weights[bank, of]", message = "Use `np.log`."}]',
            ),
            "its '`' would show as typed",
        ),
        # TOML that does not parse: the line to look at and what is likely wrong, as for example specs
        (('hints = ["A hint."]', 'hints = ["A hint." "Another."]'), "line 7: not valid TOML ("),
        (('hints = ["A hint."]', 'hints = ["A hint." "Another."]'), "A comma is probably missing"),
        (("decimals = 3", "decimals = 3\nhints = [[[[" + "[" * 2000), "its lists are nested hundreds deep"),
    ],
)
def test_a_bad_spec_is_refused(tmp_path, monkeypatch, change, message):
    (tmp_path / "real-numbers.toml").write_text(GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(exr.ExerciseSpecError) as info:
        exr.load_file(tmp_path / "real-numbers.toml")
    assert str(info.value).startswith(str(tmp_path / "real-numbers.toml"))
    assert message in str(info.value)


def test_a_spec_for_a_page_that_does_not_exist_is_refused(tmp_path):
    (tmp_path / "no-such-page.toml").write_text(GOOD, encoding="utf-8")
    with pytest.raises(exr.ExerciseSpecError, match="there is no page docs/no-such-page.md"):
        exr.load_file(tmp_path / "no-such-page.toml")


# --- the feedback is right for what a reader may reasonably type ----------------------------------


def _exercise(page: str, id: str):
    return next(e for p, e in ALL if p == page and e.id == id)


GENERIC = ("Not quite", "Your row adds up")  # feedback that says nothing about what the reader did


@pytest.mark.parametrize(("page", "spec"), SPECS, ids=SPEC_IDS)
def test_every_other_value_the_page_shows_gets_feedback_that_names_it(page, spec):
    """The answer computed from every other example on the page, and from the exercise's own
    example with a setting the other way (computed a second way, exercise_cases.other_values), at
    the question's rounding and one decimal less: either it is the right answer too, or the
    feedback is a message about that mistake, naming the other example where it is one."""
    ex = _exercise(page, spec["id"])
    data = exr.grader_data(ex)
    d, pct = ex.decimals, ex.percent
    messages = {m["message"] for m in data["mistakes"]}
    for other in other_values(page, spec):
        for places in dict.fromkeys((d, max(d - 1, 0))):
            text = typed(other.values, places, pct)
            got = exr.grade(data, text)
            if typed(other.values, d, pct) == ", ".join(data["answer"]) or text == typed(ex.answer.values, places, pct):
                assert got["ok"] or got["kind"] == "input", (other.what, text, got)  # the right answer, too
                continue
            assert got["kind"] == "wrong" and got["message"] in messages, (other.what, text, got)
            assert not got["message"].startswith(GENERIC), (other.what, text, got)
            named = [m for w, m in ex.mistakes if typed(w.values, d, pct) == typed(other.values, d, pct)]
            if other.names and named and "another example" in named[0]:
                assert f'"{other.names}"' in got["message"], (other.what, got)


def test_other_values_are_found_where_the_issue_found_them():
    """positional-encoding's exercise 2 once told 4.513, the score of man bites dog, to check its
    arithmetic; every page with two examples gives the other's answer a message."""
    data = exr.grader_data(_exercise("positional-encoding", "pe-score-dog-man"))
    got = exr.grade(data, "4.513")
    assert got["kind"] == "wrong" and '"man bites dog"' in got["message"], got
    assert "dog bites man" in _exercise("positional-encoding", "pe-score-dog-man").question
    got = exr.grade(data, "2")
    assert got["kind"] == "wrong" and "without the positions" in got["message"], got
    found = {(page, spec["id"]) for page, spec in SPECS if other_values(page, spec)}
    assert len(found) >= 15, sorted(found)


@pytest.mark.parametrize(("page", "spec"), SPECS, ids=SPEC_IDS)
def test_another_example_on_this_page_is_a_value_this_page_shows(page, spec):
    """Feedback that says "the answer for <example>, another example on this page" quotes numbers the
    page shows (its text with the generated tables it includes): multi-head's once named 0.4011, a
    head of "The cat sat" split in two, which only the mistakes page computes."""
    ex = _exercise(page, spec["id"])
    source = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    text = expand(source.replace(f'--8<-- "docs/generated/exercises/{page}.md"', ""))  # not the answers' own data
    for wrong, message in ex.mistakes:
        if "another example on this page" not in message:
            continue
        for number in typed(wrong.values, ex.decimals, ex.percent).split(", "):
            assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text), (message, number)


@pytest.mark.parametrize(("page", "spec"), SPECS, ids=SPEC_IDS)
def test_a_correctly_rounded_answer_is_right_or_told_it_is_rounding(page, spec):
    ex = _exercise(page, spec["id"])
    data = exr.grader_data(ex)
    d, pct = ex.decimals, ex.percent
    right = ex.answer.values
    for places in (d, max(d, 6)):
        assert exr.grade(data, typed(right, places, pct))["kind"] == "right", places
    # more decimals, themselves rounded: right, or (when rounding twice moves the last one) close
    for places in (d + 1, d + 2):
        assert exr.grade(data, typed(right, places, pct))["ok"], places
    shown = data["answer"]
    for p in range(0, d):  # the right numbers at fewer decimals than asked: told so, not graded
        if p == 0 and any(len(exr._normalize_shown(r).strip("-%")) < 2 for r in data["rounded"][0]):
            continue  # "0" for 0.245 or "1" for 1.28 says too little: graded as typed (below)
        got = exr.grade(data, typed(right, p, pct))
        if p == 0 and got["kind"] == "wrong" and got["message"] in {m["message"] for m in data["mistakes"]}:
            continue  # "1" for 1.4142 is exactly a known mistake's 1.0000: that one is told
        if p == 0 and got["kind"] == "right":
            continue  # "2" for 2.0000 is the answer itself
        if typed(right, p, pct).replace("0", "") != ", ".join(shown).replace("0", ""):
            assert got["kind"] == "input" and got["message"].startswith("Right so far"), (p, got)
    for units in (-1, 1):  # one off in the last decimal: rounding, from two decimals on, unless it turns the sign
        text = ", ".join([off_by(shown[0], units), *shown[1:]])
        got = exr.grade(data, text)
        mine = exr._normalize_shown(off_by(shown[0], units))
        if d >= 2 and not exr._sign_fits(mine, data["signs"][0]):  # an exact 0, or a sign turned
            assert got["kind"] == "wrong", (text, got)
            assert "sign" in got["message"] or not exr._flipped(mine, data["signs"][0]), (text, got)
        elif d >= 2:
            assert got["kind"] == "close" and got["ok"] and "rounding" in got["message"], (text, got)
            assert ", ".join(shown) in got["message"]
        else:
            assert got["kind"] == "wrong", (text, got)
    got = exr.grade(data, ", ".join([off_by(shown[0], 2), *shown[1:]]))
    assert got["kind"] == "wrong" and not got["ok"], got


def test_a_row_rounded_as_asked_is_not_told_it_must_add_up_to_one():
    """queries-keys-values' row of cat, 0.1554, 0.4223, 0.4223 at 4 decimals, once told at 3
    decimals that a row of weights adds up to 1."""
    data = exr.grader_data(_exercise("queries-keys-values", "weights-cat"))
    got = exr.grade(data, "0.155, 0.422, 0.422")
    assert got["kind"] == "input" and "rounded to fewer decimals" in got["message"] and "4 decimals" in got["message"]
    got = exr.grade(data, "0.16, 0.42, 0.42")
    assert got["kind"] == "input", got
    got = exr.grade(data, "0.2, 0.7, 0.3")
    assert got["kind"] == "wrong" and "adds up to 1.2000" in got["message"], got
    # a row that is wrong, but adds up to 1 within the rounding it was typed at, says which entries are off
    got = exr.grade(data, "0.156, 0.422, 0.422")
    assert got == {"ok": False, "kind": "wrong", "message": "Not quite: the number for The is off."}, got
    for page, ex in ALL:
        data = exr.grader_data(ex)
        if data["rowSumsToOne"]:
            for p in range(1, ex.decimals):
                got = exr.grade(data, typed(ex.answer.values, p, ex.percent))
                assert "adds up" not in got["message"], (page, ex.id, p, got)


def test_the_grader_reads_numbers_as_the_pages_script_does():
    data = exr.grader_data(_exercise("real-numbers", "share-bank-bank"))
    assert exr.grade(data, "66.5%")["kind"] == "right"
    assert exr.grade(data, " 66.5 % ")["kind"] == "right"
    assert exr.grade(data, "0.665")["message"].startswith("Right share, but give it as a percentage")
    assert exr.grade(data, "24.5")["message"].startswith("That is the share bank gives to river")
    assert exr.grade(data, "٣")["kind"] == "input"  # digits 0 to 9 only, as in the page's script
    assert exr.grade(data, "1e999")["kind"] == "input"
    assert exr.to_fixed_digits(exr.parse_number("0.44445"), 4) == "0.4445"
    assert exr.to_fixed_digits(exr.parse_number("-0.00004"), 4) == "0.0000"
    assert exr.to_fixed_digits(exr.parse_number("−2.5"), 0) == "-3"


def test_a_known_mistake_made_with_rounded_numbers_gets_its_message():
    """One off in the last decimal of a known mistake (its steps done with the page's rounded
    numbers) gets that mistake's message, unless it is as near the right answer (then: "close")."""
    data = exr.grader_data(_exercise("transformer-block", "normalize-bank"))
    assert exr.grade(data, "1.433")["message"].startswith("You divided by σ²")  # 0.910 / 0.635
    data = exr.grader_data(_exercise("learning", "one-step"))
    assert exr.grade(data, "0.5440")["message"] == exr.grade(data, "0.5441")["message"] != "Right."
    checked = 0
    for page, ex in ALL:
        data = exr.grader_data(ex)
        for mistake in data["mistakes"] if ex.decimals >= 2 else ():
            for u in (-1, 1):
                text = ", ".join(off_by(s, u) for s in mistake["answer"])
                typed_signs = zip(text.split(", "), mistake["signs"], strict=True)
                if not all(exr._sign_fits(exr._normalize_shown(t), sign) for t, sign in typed_signs):
                    continue  # no rounding turns a sign, or moves an exact 0 (a masked key's weight)
                got = exr.grade(data, text)
                if got["kind"] != "close":
                    assert got == {"ok": False, "kind": "wrong", "message": mistake["message"]}, (page, ex.id, text)
                    checked += 1
    assert checked > 40, checked


def test_no_rounding_turns_a_sign_or_moves_an_exact_zero():
    """transformer-block's exercise 3 once graded -0.01, for a ReLU's output of exactly 0, "Right, up
    to rounding": no rounding makes a negative number of a ReLU's output, or turns a sign. A sign
    turned (every exercise's answer, negated) is never right and is told so."""
    data = exr.grader_data(_exercise("transformer-block", "relu-river"))
    got = exr.grade(data, "-0.01")
    assert got == {"ok": False, "kind": "wrong", "message": "Check the sign: -0.01 is negative, and the answer is not."}
    assert not exr.grade(data, "0.01")["ok"]
    data = exr.grader_data(_exercise("where-used", "causal-cat"))  # sat's weight, hidden by the mask: exactly 0
    assert not exr.grade(data, ", ".join([*data["answer"][:2], "0.0001"]))["ok"]
    turned = 0
    for page, ex in ALL:
        data = exr.grader_data(ex)
        for i, sign in enumerate(data["signs"]):
            if not sign:
                continue
            text = ", ".join(negated(s) if k == i else s for k, s in enumerate(data["answer"]))
            away = [off_by(s, -1 if s.startswith("-") else 1) if k == i else s for k, s in enumerate(text.split(", "))]
            for typed_ in (text, ", ".join(away)):  # and one more in its last decimal, away from 0
                got = exr.grade(data, typed_)
                if got["kind"] == "wrong" and got["message"] in {m["message"] for m in data["mistakes"]}:
                    continue  # the sign turned is a known mistake of its own (a step uphill)
                assert not got["ok"] and "sign" in got["message"], (page, ex.id, typed_, got)
                turned += 1
    assert turned > 80, turned


def test_a_one_digit_whole_number_is_not_right_so_far():
    """ "1" for the temperature ratio 1.28 ("how many times more probable") was told "Right so far",
    where a reader who types 1 means "as probable": a one-digit whole number is graded as typed, and
    "67" for 66.7% (two digits) is still told it is the answer rounded."""
    data = exr.grader_data(_exercise("next-word", "temperature-ratio"))
    assert data["answer"] == ["1.28"], data["answer"]
    got = exr.grade(data, "1")
    assert got["kind"] == "wrong" and not got["message"].startswith("Right so far"), got
    assert exr.grade(data, "1.3")["message"].startswith("Right so far"), exr.grade(data, "1.3")
    data = exr.grader_data(_exercise("real-numbers", "share-bank-bank"))
    assert exr.grade(data, "67")["message"].startswith("Right so far"), exr.grade(data, "67")


def test_a_whole_number_may_set_off_its_thousands_with_commas():
    """The pages print 18,432 and 265,216, and "18,432" typed into the exercise that asks for it was
    told "Write the decimals after a point, not a comma: 18.432." Where the answer is one whole
    number, a comma before each three digits sets off thousands; anywhere else it does not."""
    data = exr.grader_data(_exercise("kv-cache", "gpt2-per-token"))
    assert data["answer"] == ["18432"], data["answer"]
    for text in ("18,432", "18432", " 18,432 "):
        assert exr.grade(data, text)["kind"] == "right", text
    for text in ("18,43", "1,8432", "18, 432", "18,432,000"):
        assert exr.grade(data, text)["kind"] != "right", text
    assert exr.grade(data, "18,43")["message"] == "Write the decimals after a point, not a comma: 18.43."
    data = exr.grader_data(_exercise("real-numbers", "share-bank-bank"))  # decimals: a comma is no grouping
    assert exr.grade(data, "66,500")["kind"] != "right"


def test_a_decimal_comma_is_told_to_be_a_point():
    """ "66,5" was "not a number this page can check", with no word of the comma."""
    data = exr.grader_data(_exercise("real-numbers", "share-bank-bank"))
    assert exr.grade(data, "66,5") == {
        "ok": False,
        "kind": "input",
        "message": "Write the decimals after a point, not a comma: 66.5.",
    }
    data = exr.grader_data(_exercise("real-numbers", "softmax-of"))
    got = exr.grade(data, "0,090; 0,665; 0,245")
    assert got["kind"] == "input" and got["message"].endswith("not a comma: 0.090; 0.665; 0.245."), got
    assert exr.grade(data, "0.090,0.665,0.245")["kind"] == "right"  # commas between numbers, as before


def test_an_answer_rounded_twice_is_told_why_its_last_decimal_moved():
    """real-numbers' exercise 3 at 2 decimals: 0.245 (the answer shown, from 0.2447) rounded again is
    0.25, where 0.2447 rounds to 0.24: it was "Not quite: the number for river is off"."""
    data = exr.grader_data(_exercise("real-numbers", "softmax-of"))
    got = exr.grade(data, "0.09, 0.67, 0.25")
    assert got["kind"] == "input" and got["message"].startswith("Right so far"), got
    assert "0.245 rounded again gives 0.25, but the unrounded number rounds to 0.24" in got["message"], got
    assert exr.grade(data, "0.09, 0.67, 0.24")["message"].endswith("Give each to 3 decimals.")


@pytest.mark.parametrize(
    ("page", "id", "text", "says"),
    [
        ("real-numbers", "share-bank-bank", "66.7", "plain division"),  # 2 / 3: no e^ before dividing
        ("queries-keys-values", "weights-cat", "0, 0.5, 0.5", "plain division"),
        ("learning", "loss-before", "0.2496", "the weight itself"),  # the weight where the loss is asked
        ("learning", "equal-thirds", "0.333", "the weight on cat"),
        ("attention-that-learns", "equal-loss", "0.167", "the weight on the partner"),
        ("attention-that-learns", "loss-after-200", "0.9942", "the weight itself"),
        # the head's row without the division by √d_head, as queries-keys-values names its own
        ("multi-head", "head1-weights-the", "0.4683, 0.0634, 0.4683", "without the division by √d_head"),
        ("queries-keys-values", "weights-cat", "0.0634, 0.4683, 0.4683", "without the division by √d_k"),
        # cut off instead of rounded: 66.52% typed as 66, -0.2253 as -0.22
        ("real-numbers", "share-bank-bank", "66", "cut off at the decimal point, not rounded"),
        ("transformer-block", "second-mean-of", "-0.22", "cut off after 2 decimals, not rounded"),
        ("transformer-block", "second-mean-of", "-0.901", "divided by the number of entries, 4"),  # not / 4
        ("rnn-comparison", "between-tokens-small", "36", "Q·Kᵀ alone"),
        ("rnn-comparison", "between-tokens-small", "216", "the projections"),
        ("rnn-comparison", "ratio-long", "0.1", "the wrong way round"),
        ("rnn-comparison", "ratio-long", "16", "only the multiply-adds between tokens"),
    ],
)
def test_a_common_slip_is_named(page, id, text, says):
    """A learner's likely slips got "Not quite. Check your arithmetic": each now gets a message that
    says what was computed."""
    got = exr.grade(exr.grader_data(_exercise(page, id)), text)
    assert got["kind"] == "wrong" and says in got["message"], got


@pytest.mark.parametrize(("page", "ex"), ALL, ids=[f"{page}:{ex.id}" for page, ex in ALL])
def test_an_answer_cut_off_instead_of_rounded_is_told_how_to_round(page, ex):
    """One rule of the grader, for every exercise: the answer (each number of a row) cut off after p
    decimals (p up to the question's), where that differs from the answer rounded to p, gets a
    message that names the slip and says how to round; unless it is a known mistake's answer, or
    one off in the last of at least two decimals (right, up to rounding)."""
    data = exr.grader_data(ex)
    for places in range(ex.decimals + 1):
        text = cut_off(ex.answer.values, places, ex.percent)
        if text == typed(ex.answer.values, places, ex.percent).replace("\u2212", "-"):
            continue  # cutting and rounding agree here
        got = exr.grade(data, text)
        if places == ex.decimals >= 2 and got["kind"] == "close":
            continue
        if got["message"] not in {m["message"] for m in data["mistakes"]}:  # a known mistake comes first
            assert got["kind"] == "wrong" and "not rounded" in got["message"], (text, got)
            assert "the last digit you keep goes up by one" in got["message"], got


def test_a_row_cut_off_names_the_numbers_cut():
    got = exr.grade(exr.grader_data(_exercise("real-numbers", "softmax-of")), "0.09, 0.66, 0.24")
    assert got["kind"] == "wrong", got
    assert got["message"].startswith("Not quite: the number for of is cut off, not rounded."), got


def test_every_row_of_weights_asked_for_knows_plain_division():
    for page, ex in ALL:
        spec = next(s for p, s in SPECS if p == page and s["id"] == ex.id)
        if spec["answer"].startswith("weights[") and "example" in spec:
            assert any(m.startswith("That is plain division") for _, m in ex.mistakes), (page, ex.id)


def test_a_whole_number_is_asked_for_in_digits():
    data = exr.grader_data(_exercise("attention-that-learns", "partner-of-2"))
    assert exr.grade(data, "five")["message"] == "That is not a number this page can check: write it in digits, like 3."
    data = exr.grader_data(_exercise("real-numbers", "share-bank-bank"))
    assert exr.grade(data, "half")["message"].endswith("write it in decimals, like 0.25 or 25%.")


def test_every_case_is_graded():
    """The cases the browser test hands the page's script: each gets a message, and every exercise
    has its right answer, a near miss and hostile input among them."""
    found = cases()
    assert len(found) > 400, len(found)
    kinds = {}
    for page, id, text in found:
        got = exr.grade(exr.grader_data(_exercise(page, id)), text)
        assert got["message"] and got["kind"] in ("right", "close", "wrong", "input"), (page, id, text, got)
        kinds.setdefault((page, id), set()).add(got["kind"])
    for key, seen in kinds.items():
        assert {"right", "wrong", "input"} <= seen, (key, seen)


# --- hints say what they compute from ---------------------------------------------------------------


def _numbers(s: str) -> list[Decimal]:
    return [Decimal(x) for x in re.findall(r"-?\d+(?:\.\d+)?", s.replace(",", ""))]


def _places(s: str) -> int:
    return len(s.split(".")[1]) if "." in s else 0


def _round(x: Decimal, places: int) -> Decimal:
    return x.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


@pytest.mark.parametrize(("page", "spec"), SPECS, ids=SPEC_IDS)
def test_hints_compute_from_what_they_show_or_say_they_do_not(page, spec):
    """learned-weights once showed The's query and cat's key and called their dot product 1.2646;
    from the vectors as shown it is 1.2645. Each step a hint or solution shows (a dot product of two
    rows it shows, e raised to scores it shows, a total of terms it shows, a division of numbers it
    shows, a weighted sum of values it shows) either follows from the shown numbers at the shown
    rounding, or the text that shows its result says it comes from unrounded values."""
    if "example" in spec:
        problems = _steps_not_from_what_is_shown(spec, _exercise(page, spec["id"]))
        assert not problems, f"{page}:{spec['id']}: " + "; ".join(problems)


def _steps_not_from_what_is_shown(spec: dict, ex) -> list[str]:
    texts = [*spec["hints"], spec["solution"]]
    placeholders = {m.group(1).strip() for text in texts for m in exr._PLACEHOLDER.finditer(text)}

    def value(expr: str) -> str | None:
        name, _, fmt = expr.partition("|")
        if expr not in placeholders and name not in placeholders:
            return None
        return exr._fill("{{" + expr + "}}", ex.context, ex.decimals, "test")

    def says_unrounded(result: str) -> bool:
        return any("unrounded" in text and result in text for text in (*ex.hints, ex.solution))

    tokens = ex.context.tokens
    logits = "scaled" if "scaled" in ex.context.matrices and (spec.get("scale", True) or "heads" in spec) else "scores"
    problems = []
    for row in tokens:
        exp = next((e for e in (f"exp[{row}]", f"exp[{row}]|4") if e in placeholders), None)
        total = next((e for e in (f"total[{row}]", f"total[{row}]|4") if e in placeholders), None)
        if exp and total:
            shown_total = value(total)
            terms = _numbers(value(exp))
            if _round(sum(terms), _places(shown_total)) != Decimal(shown_total) and not says_unrounded(shown_total):
                problems.append(f"{exp} adds up to {sum(terms)}, not {shown_total}")
        scores = next((e for e in (f"{logits}[{row}]", f"{logits}[{row}]|4") if e in placeholders), None)
        if exp and scores:
            shown_exp = _numbers(value(exp))
            for s, e in zip(_numbers(value(scores)), shown_exp, strict=True):
                if (
                    e != 0
                    and _round(Decimal(np.exp(float(s))), _places(str(e))) != e
                    and not says_unrounded(value(exp))
                ):
                    problems.append(f"e^{s} is not {e}")
        for col in tokens:
            score = f"scores[{row}, {col}]"
            if f"Q[{row}]" in placeholders and f"K[{col}]" in placeholders and score in placeholders:
                dot = sum(
                    a * b for a, b in zip(_numbers(value(f"Q[{row}]")), _numbers(value(f"K[{col}]")), strict=True)
                )
                if _round(dot, _places(value(score))) != Decimal(value(score)) and not says_unrounded(value(score)):
                    problems.append(f"Q[{row}] · K[{col}] from the shown rows is {dot}, not {value(score)}")
            weight = f"weights[{row}, {col}]"
            for e_expr in (f"exp[{row}, {col}]", f"exp[{row}, {col}]|4"):
                w_expr = next((w for w in (weight, weight + "|4") if w in placeholders), None)
                if e_expr in placeholders and total and w_expr:
                    q = Decimal(value(e_expr)) / Decimal(value(total))
                    if _round(q, _places(value(w_expr))) != Decimal(value(w_expr)) and not says_unrounded(
                        value(w_expr)
                    ):
                        problems.append(f"{e_expr} / {total} is {q}, not {value(w_expr)}")
    return problems


def test_the_hint_check_catches_the_issues_case(tmp_path):
    """Without its note, learned-weights' hint calls the dot product of the shown rows 1.2646."""
    path = exr.SPEC_DIR / "learned-weights.toml"
    text = path.read_text(encoding="utf-8")
    note = ", from the unrounded vectors: from the rounded ones shown, the last decimal comes out one off."
    assert note in text
    (tmp_path / path.name).write_text(text.replace(note, "."), encoding="utf-8")
    ex = next(e for e in exr.load_file(tmp_path / path.name) if e.id == "scaled-the-cat")
    spec = next(s for p, s in SPECS if p == "learned-weights" and s["id"] == "scaled-the-cat")
    bare = {**spec, "hints": [h.replace(note, ".") for h in spec["hints"]]}
    problems = _steps_not_from_what_is_shown(bare, ex)
    assert problems == ["Q[The] · K[cat] from the shown rows is 1.26454644, not 1.2646"], problems
    assert not _steps_not_from_what_is_shown(spec, _exercise("learned-weights", "scaled-the-cat"))


# --- feedback uses the page's letters ---------------------------------------------------------------

_SYMBOL = re.compile(r"\bd_(?:\\text\{)?([a-z]+)")


@pytest.mark.parametrize(("page", "spec"), SPECS, ids=SPEC_IDS)
def test_an_exercise_writes_the_widths_as_its_page_does(page, spec):
    """multi-head's feedback once said √d_k where the page says √d_head: every width an exercise
    names (in its question, hints, solution and feedback) is one its page writes."""
    on_page = set(_SYMBOL.findall((DOCS / f"{page}.md").read_text(encoding="utf-8")))
    ex = _exercise(page, spec["id"])
    texts = [ex.question, *ex.hints, ex.solution, *(m for _, m in ex.mistakes)]
    used = {s for text in texts for s in _SYMBOL.findall(text)}
    assert used <= on_page, (sorted(used - on_page), sorted(on_page))


_STATED_WIDTH = re.compile(r"(?<![√{])\bd_(?:\\text\{)?(model|head|k)\}?\s*=\s*(\d[\d,]*)")


@pytest.mark.parametrize(("page", "spec"), SPECS, ids=SPEC_IDS)
def test_a_width_an_exercise_states_is_one_its_page_states(page, spec):
    """kv-cache's Ex. 1 once asked for the multiply-adds of the page's layer "(d_model = 768, two
    heads)": its topic named GPT-2 small's width d_model, and the answer, 88, is the layer's at
    d_model = 4. Every "d_model = N" (d_head, d_k) an exercise states is one its page states."""
    page_text = (DOCS / f"{page}.md").read_text(encoding="utf-8")
    on_page = {(w, n.replace(",", "")) for w, n in _STATED_WIDTH.findall(page_text)}
    ex = _exercise(page, spec["id"])
    texts = [ex.question, *ex.hints, ex.solution, *(m for _, m in ex.mistakes)]
    stated = {(w, n.replace(",", "")) for text in texts for w, n in _STATED_WIDTH.findall(text)}
    assert stated <= on_page, (sorted(stated - on_page), sorted(on_page))


def test_a_good_spec_loads():
    path = exr.SPEC_DIR / "real-numbers.toml"
    assert [e.id for e in exr.load_file(path)][:2] == ["dot-bank-river", "share-bank-bank"]
