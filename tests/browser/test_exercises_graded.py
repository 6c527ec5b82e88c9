"""The exercises at the end of the pages, graded in Chromium: the page's script grades every case
of tests/support/exercise_cases.py exactly as publish.generate.exercises.grade does (which the docs layer tests in
depth); every right answer is accepted in every form a reader may type it, one off in the last of
two or more decimals is right up to rounding and two off is wrong, hostile input gets a message
and changes nothing, hints come one at a time, the solution after an attempt, progress stays in the
browser and can be cleared, and it all works at 375 px and from the offline copy on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from publish.generate import exercises as exr

from exercise_cases import cases, off_by

STORE = "selfattn-exercises/v1"


def accepted_forms(data: dict) -> list[str]:
    """Ways a reader may type the right answer: as shown, without trailing zeros, without the
    leading 0, with or without a percent sign, a row with brackets, spaces or semicolons."""
    shown = data["answer"]

    def variants(s: str) -> list[str]:
        out = [s]
        if "." in s:
            short = s.rstrip("0").rstrip(".")
            out.append(short)
            if short.startswith("0."):
                out.append(short[1:])
            out.append(s + "4")  # more digits than asked, rounding to the same
        if data["percent"]:
            out += [v + "%" for v in list(out)] + [s + " %"]
        if s.startswith("-"):
            out.append("\u2212" + s[1:])
        return out

    if len(shown) == 1:
        return variants(shown[0])
    forms = [", ".join(shown), "[" + ", ".join(shown) + "]", " ".join(shown), "; ".join(shown)]
    forms.append(", ".join(variants(x)[-1 if "." not in x else 1] for x in shown))  # trailing zeros dropped
    return forms


def off(data: dict, units: int) -> str:
    """The right answer with its first number moved by ``units`` of its last place."""
    return ", ".join([off_by(data["answer"][0], units), *data["answer"][1:]])


def exercises_of(page: Page) -> list[tuple[str, dict]]:
    return page.locator(".exercise[data-exercise]").evaluate_all(
        "(els) => els.map((e) => [e.id, JSON.parse(e.dataset.exercise)])"
    )


# An exercise's feedback once it shows text (the form's submit writes it at once; polled each frame,
# for up to 10 s): its kind, and the feedback emptied again, so that what the next answer's check
# reads is that answer's. One call, where waiting with expect(), reading the attribute and
# emptying the feedback before the next answer took three or more.
FEEDBACK_KIND_JS = """(id) => new Promise((done, fail) => {
  const f = document.getElementById(id), start = performance.now();
  const take = () => {
    const kind = f.getAttribute("data-kind");
    f.textContent = "";
    delete f.dataset.kind;
    return kind;
  };
  const look = () => f.textContent !== "" ? done(take())
    : performance.now() - start > 10000 ? fail(new Error(`#${id} shows no feedback after 10 s`))
    : requestAnimationFrame(look);
  look();
})"""


def check(page: Page, anchor: str, text: str) -> str:
    """Type ``text`` into the exercise's field and press Enter, as a reader does: the kind of
    feedback it gets (right, close, wrong, input). The feedback is emptied once read."""
    field = page.locator(f"#{anchor}-input")
    field.fill(text)  # which focuses the field, where Enter submits its form
    page.keyboard.press("Enter")
    return page.evaluate(FEEDBACK_KIND_JS, f"{anchor}-feedback")


def expected_kinds(data: dict) -> list[tuple[str, str]]:
    """(text, the kind of feedback it gets) for an exercise: two off in the last place, wrong; one off,
    close, up to rounding, from 2 decimals on, but never for an answer of exactly 0 (a ReLU's output);
    the right answer in every form a reader may type it, right."""
    rounding = data["decimals"] >= 2 and data["signs"][0] != 0
    return [(off(data, 2), "wrong"), (off(data, 1), "close" if rounding else "wrong")] + [
        (form, "right") for form in accepted_forms(data)
    ]


# The page whose exercises are answered by typing, one of each kind of answer: a number, a
# percentage, a row of weights, a vector. The exercises of every page are graded so by the page's
# script (test_every_page_grades_every_form_of_the_right_answer), from the data each page carries,
# which is Python's (tests/content/test_exercises.py).
TYPED = "real-numbers"


@pytest.mark.browser
def test_right_answers_in_every_form_and_one_digit_off(new_context, site):
    name = TYPED
    context = new_context()
    errors = []
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(site.url(f"{name}/"))
    found = exercises_of(page)
    assert len(found) == len(exr.load_all()[name]) >= 2
    for anchor, data in found:
        solution = page.locator(f"#{anchor} .exercise-solution")
        expect(solution).to_be_hidden()
        for k, (text, kind) in enumerate(expected_kinds(data)):
            assert check(page, anchor, text) == kind, (anchor, text)
            if k == 0:
                expect(solution).to_be_visible()  # after an attempt
        expect(page.locator(f"#{anchor} .exercise-badge")).to_have_text("Solved")
    stored = json.loads(page.evaluate(f"() => localStorage.getItem('{STORE}')"))
    assert set(stored[name]) == {data["id"] for _, data in found}
    assert not errors, errors


@pytest.fixture(scope="module")
def grader(module_context, site):
    """A page with the exercises' script, for the tests that call its pure functions
    (window.SelfAttnExercises.grade and its helpers), which change nothing in the page: one load."""
    page = module_context().new_page()
    page.goto(site.url("real-numbers/"))
    return page


@pytest.mark.browser
def test_the_pages_script_grades_as_python_does(grader: Page):
    """Every case (the right answer in many forms and roundings, near misses, every known mistake
    and every other value the pages show, hostile input) on every exercise: the same result."""
    page = grader
    data = {(p, e.id): exr.grader_data(e) for p, exs in exr.load_all().items() for e in exs}
    found = cases()
    got = page.evaluate(
        "(cases) => cases.map(([spec, text]) => window.SelfAttnExercises.grade(spec, text))",
        [[data[(p, id)], text] for p, id, text in found],
    )
    differ = [
        (p, id, text, js, py)
        for (p, id, text), js in zip(found, got, strict=True)
        if js != (py := exr.grade(data[(p, id)], text))
    ]
    assert not differ, f"{len(differ)} of {len(found)} differ, first: {differ[:3]}"


@pytest.mark.browser
def test_every_page_grades_every_form_of_the_right_answer(grader: Page):
    """Every exercise of every page, in the page's script: each form of the right answer is right,
    one off in the last place close (or wrong), two off wrong, as on the page that is typed into."""
    found = [(p, e.id, text, kind) for p, exs in exr.load_all().items() for e in exs
             for text, kind in expected_kinds(exr.grader_data(e))]  # fmt: skip
    data = {(p, e.id): exr.grader_data(e) for p, exs in exr.load_all().items() for e in exs}
    assert len(data) >= 30 and len(found) >= 5 * len(data), (len(data), len(found))
    got = grader.evaluate(
        "(cases) => cases.map(([spec, text]) => window.SelfAttnExercises.grade(spec, text).kind)",
        [[data[(p, id)], text] for p, id, text, _ in found],
    )
    differ = [(p, id, text, kind, js) for (p, id, text, kind), js in zip(found, got, strict=True) if js != kind]
    assert not differ, f"{len(differ)} of {len(found)} graded otherwise, first: {differ[:3]}"


@pytest.mark.browser
def test_the_grader_says_what_is_off(grader: Page):
    page = grader
    grade = "([spec, text]) => window.SelfAttnExercises.grade(spec, text)"
    row = {"answer": ["0.090", "0.665", "0.245"], "decimals": 3, "percent": False, "labels": ["bank", "of", "river"],
           "rowSumsToOne": True, "mistakes": [], "signs": [1, 1, 1],
           "rounded": [["0", "1", "0"], ["0.1", "0.7", "0.2"], ["0.09", "0.67", "0.24"]],
           "cut": [["0", "0", "0"], ["0.0", "0.6", "0.2"], ["0.09", "0.66", "0.24"],
                   ["0.090", "0.665", "0.244"]]}  # fmt: skip
    share = {"answer": ["66.5"], "decimals": 1, "percent": True, "labels": [], "rowSumsToOne": False, "signs": [1],
             "mistakes": [{"answer": ["24.5"], "message": "That is river.", "rounded": [["25"]], "signs": [1]}],
             "rounded": [["67"]], "cut": [["66"], ["66.5"]]}  # fmt: skip
    scaled = {"answer": ["2.0000"], "decimals": 4, "percent": False, "labels": [], "rowSumsToOne": False,
              "mistakes": [{"answer": ["4.0000"], "message": "Divide by the square root of d_k.",
                            "rounded": [["4"], ["4.0"], ["4.00"], ["4.000"]], "signs": [1]}],
              "rounded": [["2"], ["2.0"], ["2.00"], ["2.000"]], "signs": [1],
              "cut": [["2"], ["2.0"], ["2.00"], ["2.000"], ["2.0000"]]}  # fmt: skip
    vector = {"answer": ["1.0000", "0.0000", "1.0000", "0.0000"], "decimals": 4, "percent": False,
              "labels": ["1", "2", "3", "4"], "rowSumsToOne": False, "mistakes": [], "signs": [1, 0, 1, 0],
              "rounded": [[s[: len(s) - 4 + p].rstrip(".") for s in ["1.0000", "0.0000", "1.0000", "0.0000"]]
                          for p in range(4)],
              "cut": [[s[: len(s) - 4 + p].rstrip(".") for s in ["1.0000", "0.0000", "1.0000", "0.0000"]]
                      for p in range(5)]}  # fmt: skip
    relu = {"answer": ["0.00"], "decimals": 2, "percent": False, "labels": [], "rowSumsToOne": False,
            "mistakes": [], "signs": [0], "rounded": [["0"], ["0.0"]], "cut": [["0"], ["0.0"], ["0.00"]]}  # fmt: skip
    ratio = {"answer": ["1.28"], "decimals": 2, "percent": False, "labels": [], "rowSumsToOne": False,
             "mistakes": [], "signs": [1], "rounded": [["1"], ["1.3"]], "cut": [["1"], ["1.2"], ["1.28"]]}  # fmt: skip
    cases = [
        (ratio, "1", "wrong", "Not quite. Check your arithmetic"),  # one digit says too little: not "right so far"
        (ratio, "1.3", "input", "Right so far: that is the answer, rounded to fewer decimals."),
        (vector, "1, 0, 1", "input", "Give 4 numbers, one for each entry of the vector, separated by commas"),
        (vector, "1, 1, 1, 0", "wrong", "Not quite: entry 2 is off (counting from 1)."),
        (vector, "0, 0, 0, 0", "wrong", "Not quite: entries 1, 3 are off (counting from 1)."),
        (row, "0.2, 0.7, 0.3", "wrong", "Your row adds up to 1.200, but the weights of a row always add up to 1."),
        (row, "0.1, 0.7, 0.2", "input", "Right so far: those are the right numbers, rounded to fewer decimals."),
        (row, "0.090, 0.663, 0.247", "wrong", "Not quite: the numbers for of, river are off."),
        (row, "0.088, 0.665, 0.247", "wrong", "Not quite: the numbers for bank, river are off."),
        (row, "0.090, 0.665, 0.247", "wrong", "Your row adds up to 1.002, but the weights of a row always add up"),
        (row, "0.090, 0.664, 0.246", "close", "Right, up to rounding: the answer is 0.090, 0.665, 0.245"),
        (row, "0.090, 0.665", "input", "Give 3 numbers, one for each of bank, of, river"),
        (row, "0.09, 0.66, 0.24", "wrong", "Not quite: the number for of is cut off, not rounded."),
        (share, "0.665", "input", "Right share, but give it as a percentage: multiply it by 100."),
        (share, "24.5%", "wrong", "That is river."),
        (share, "66", "wrong", "Not quite: that is the answer cut off at the decimal point, not rounded."),
        (share, "1" + "0" * 25, "wrong", "Not quite."),  # 100 times it is 1e+27 as String writes it: no error
        (scaled, "4", "wrong", "Divide by the square root of d_k."),
        (scaled, "4.0", "wrong", "Divide by the square root of d_k."),
        (scaled, "2.0001", "close", "Right, up to rounding"),
        (scaled, "2%", "input", "Give it as a decimal, not as a percentage"),
        (scaled, "-0.0000", "wrong", "Not quite."),
        (scaled, "-2.0000", "wrong", "Check the sign: the size is right, but the sign is not."),
        (scaled, "-1.5", "wrong", "Check the sign: -1.5 is negative, and the answer is not."),
        (relu, "-0.01", "wrong", "Check the sign: -0.01 is negative, and the answer is not."),  # never rounding
        (relu, "0.01", "wrong", "Not quite. Check your arithmetic"),
        (vector, "1, 0, -1, 0", "wrong", "Not quite: entry 3 (counting from 1) has the right size but the wrong sign."),
        (vector, "1, -0.0001, 1, 0", "wrong", "Not quite: check the sign of entry 2 (counting from 1)."),
        (share, "66,5", "input", "Write the decimals after a point, not a comma: 66.5."),
        (row, "0,090, 0,665, 0,245", "input", "Write the decimals after a point, not a comma: 0.090, 0.665, 0.245."),
        (
            row,
            "0.09, 0.67, 0.25",
            "input",
            "Right so far: those are the right numbers, rounded to fewer decimals. "
            "Give each to 3 decimals. Round once, from the unrounded number: 0.245 rounded again gives 0.25, but the "
            "unrounded number rounds to 0.24.",
        ),
    ]
    for spec, text, kind, message in cases:
        result = page.evaluate(grade, [spec, text])
        assert result["kind"] == kind and result["message"].startswith(message), (text, result)
    assert (
        page.evaluate(
            "() => window.SelfAttnExercises.toFixedDigits(window.SelfAttnExercises.parseNumber('0.44445'), 4)"
        )
        == "0.4445"
    )  # noqa: E501
    assert (
        page.evaluate(
            "() => window.SelfAttnExercises.toFixedDigits(window.SelfAttnExercises.parseNumber('-0.00004'), 4)"
        )
        == "0.0000"
    )  # noqa: E501


HOSTILE = [
    "<script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 1">',
    "1e999",
    "NaN",
    "Infinity",
    "",
    "   ",
    "0x1A",
    "1,5",
    "9" * 300,
]


@pytest.mark.browser
def test_hostile_input_gets_a_message_and_changes_nothing(page: Page, site):
    page.goto(site.url("real-numbers/"))
    anchor, _ = exercises_of(page)[0]
    before = page.evaluate(f"() => localStorage.getItem('{STORE}')")
    for text in HOSTILE:
        field = page.locator(f"#{anchor}-input")
        field.evaluate("(el, v) => { el.value = v; }", text)  # past maxlength too, as a script could
        field.press("Enter")
        feedback = page.locator(f"#{anchor}-feedback")
        expect(feedback).to_have_attribute("data-kind", "input")
        assert feedback.evaluate("(el) => el.children.length") == 0, text  # text, not markup
        assert feedback.inner_text().strip(), text
        expect(page.locator(f"#{anchor} .exercise-solution")).to_be_hidden()
    assert page.evaluate("() => window.__pwned") is None
    assert page.evaluate(f"() => localStorage.getItem('{STORE}')") == before


@pytest.mark.browser
def test_hints_one_at_a_time_and_progress_kept_then_cleared(page: Page, site):
    page.goto(site.url("queries-keys-values/"))
    anchor, data = exercises_of(page)[1]
    hints = page.locator(f"#{anchor} .exercise-hint")
    button = page.locator(f"#{anchor} .exercise-hint-button")
    total = hints.count()
    assert total >= 2
    for shown in range(total):
        assert hints.evaluate_all("(hs) => hs.filter((h) => !h.hidden).length") == shown
        expect(button).to_have_text(f"Show hint {shown + 1} of {total}")
        button.press("Enter")  # a real button: the keyboard works
    expect(button).to_be_disabled()
    assert check(page, anchor, ", ".join(data["answer"])) == "right"
    page.reload()
    expect(page.locator(f"#{anchor} .exercise-badge")).to_have_text("Solved")
    expect(page.locator(f"#{anchor} .exercise-solution")).to_be_visible()
    page.locator(".exercise-reset").click()
    expect(page.locator(f"#{anchor} .exercise-badge")).to_have_count(0)
    expect(page.locator(f"#{anchor} .exercise-solution")).to_be_hidden()
    stored = json.loads(page.evaluate(f"() => localStorage.getItem('{STORE}')") or "{}")
    assert "queries-keys-values" not in stored


@pytest.mark.browser
def test_controls_fit_a_phone(new_context, site):
    page = new_context().new_page()  # the session's context args already name a viewport
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(site.url("real-numbers/"))
    for anchor, _ in exercises_of(page):
        for selector in (f"#{anchor}-input", f"#{anchor} .exercise-check", f"#{anchor} .exercise-hint-button"):
            box = page.locator(selector).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375, (selector, box)


@pytest.mark.browser
def test_exercises_work_from_the_offline_copy(new_context, offline_site: Path):
    page = new_context().new_page()
    page.goto((offline_site / "real-numbers.html").as_uri())  # the offline copy has no directory URLs
    anchor, data = exercises_of(page)[0]
    assert check(page, anchor, data["answer"][0]) == "right"
