"""Layer 3: every number typed on a page is the code's output, at the precision shown."""

from __future__ import annotations

import logging
import os
from decimal import Decimal
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from number_mutations import auditable_tokens, put_right, single_digit_changes, swaps

from publish import audit, fmt
from publish.audit.arithmetic import arithmetic_problems
from publish.audit.numbers import number_tokens
from publish.generate.update import described, stale_generated
from publish.source.includes import include
from publish.source.pages import split_front_matter

from pages import PAGES, ROOT, page_id


def test_there_are_pages():
    assert len(PAGES) >= 5, [page_id(p) for p in PAGES]


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_numbers_are_the_codes(page):
    problems = audit.audit_page(page, ROOT)
    assert not problems, "numbers audit:\n" + "\n".join(map(str, problems))


def _caught(lineno, new, problems) -> bool:
    return any(p.line == lineno and (new in p.number or new.rstrip("%") in p.number) for p in problems)


def survivors(changes) -> tuple[list[str], int]:
    """(the changes the audit let pass, as "line N: old -> new"; how many were tried)."""
    passed, checked = [], 0
    for lineno, old, new, problems in changes:
        checked += 1
        if not _caught(lineno, new, problems):
            passed.append(f"line {lineno}: {old} -> {new}")
    return passed, checked


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_single_digit_change_is_caught(page):
    """Change any one digit of any audited number on the page: the audit must object, on
    that line, naming the changed number. (On the page with its numbers put right: a wrong
    number is test_page_numbers_are_the_codes' to report, see number_mutations.put_right.)"""
    passed, checked = survivors(single_digit_changes(page.read_text(encoding="utf-8"), page_id(page)))
    assert not passed, f"{len(passed)} of {checked} digit changes pass the audit:\n" + "\n".join(passed[:40])


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_swap_for_another_value_of_the_page_is_caught(page):
    """Replace any bound number with any other value the page's sources give at the same
    precision (another cell, another row, another example on the page): the audit must object,
    on that line, naming the new number."""
    passed, checked = survivors(swaps(page.read_text(encoding="utf-8"), page_id(page)))
    assert not passed, f"{len(passed)} of {checked} swaps pass the audit:\n" + "\n".join(passed[:40])
    assert checked or page not in QUOTING, "a page that quotes numbers binds none of them"


def test_a_wrong_number_is_reported_once_by_the_audit():
    """76.5% where the code gives 66.5%: the direct audit reports it, with the page, the line, the
    number, the claim and the code's value; the mutation and swap tests, which change the page
    as the code would have it, still pass (they report only an audit that stopped catching)."""
    old = "66.5%{{weights[bank, bank]}}"
    wrong = PAGE.replace(old, "76.5%{{weights[bank, bank]}}", 1)
    assert problems_of(wrong) == [
        "page.md:9: 76.5%: the sentence claims bank_of_river weights[bank, bank], and the code gives 66.5% for it "
        "(0.665241), not 76.5%"
    ]
    for changes in (single_digit_changes, swaps):
        passed, checked = survivors(changes(wrong, "page.md"))
        assert checked >= 20 and not passed, (changes.__name__, passed[:5])
    # A claim that cannot bind: its line is the direct test's to report, the other lines are changed.
    broken = PAGE.replace(old, "66.5%{{weight[bank, bank]}}", 1)
    assert len(problems_of(broken)) == 1
    changes = list(single_digit_changes(broken, "page.md"))
    assert not survivors(changes)[0]
    every_line = {line.number for line, _ in auditable_tokens(audit.read_page(PAGE, "page.md"))}
    assert {lineno for lineno, *_ in changes} == every_line - {9}, sorted(every_line)


def _read(p):
    """The page as the audit reads it, with its numbers put right (number_mutations.put_right):
    the tests below report an audit that stopped catching, not a wrong number of the page."""
    return put_right(p.read_text("utf-8"), page_id(p))


QUOTING = [p for p in PAGES if any(t.quoted for _, t in auditable_tokens(_read(p)))]


def test_pages_quote_numbers():
    assert len(QUOTING) >= 4, [page_id(p) for p in QUOTING]


def test_the_pages_bind_their_numbers():
    """Counts that keep the mutation tests honest: the pages bind numbers, and swaps are tried."""
    pages = [_read(p) for p in QUOTING]
    bound = sum(len(audit.bindings(page, line)[0]) for page in pages for line in page.lines)
    assert bound >= 200, bound


def a_digit_changed(text: str, name: str) -> tuple[int, str, str]:
    """(line, a decimal, percentage or number grouped in thousands as written there, it with its last
    digit changed): the first number as written on a line whose numbers are right, or else on one whose
    only problem is a wrong number (test_page_numbers_are_the_codes reports it; changed again, it is
    still reported)."""
    right = {line.number: line.text for line in put_right(text, name).lines}  # the lines put right
    tokens = sorted(
        (
            (line.text != right[line.number], line.number, t)
            for line, t in auditable_tokens(audit.read_page(text, name))
            if t.quoted and line.number in right
        ),
        key=lambda found: (found[0], found[1], found[2].start),
    )
    _, lineno, tok = tokens[0]
    digits = tok.text.rstrip("%").strip()
    changed = next(digits[:-1] + d for d in "123" if d != digits[-1] and digits[:-1] + d not in right[lineno])
    return lineno, digits, changed


def test_a_page_whose_one_number_is_wrong_still_has_a_digit_to_change():
    """Issue 51: a wrong number typed into a page that quoted none (a worked example's) left no
    number as written on a line put right, and the test below failed with an IndexError."""
    text = EXAMPLE_PAGE.read_text(encoding="utf-8").replace(
        "3 tokens, each an embedding of 4 numbers:", TYPED.format(number="0.4221{{weights[cat, cat]}}"), 1
    )
    lineno, digits, changed = a_digit_changed(text, "docs/examples/the_cat_sat.md")
    assert text.split("\n")[lineno - 1] == TYPED.format(number="0.4221{{weights[cat, cat]}}")
    assert (digits, changed) == ("0.4221", "0.4222")


@pytest.mark.parametrize("page", QUOTING, ids=page_id)
def test_a_changed_digit_in_the_page_file_is_reported(page, tmp_path):
    """End to end on the file itself: change the last digit of the first audited decimal, percentage
    or number grouped in thousands and the report names the page, the line, the number and the code's value."""
    text = page.read_text(encoding="utf-8")
    lineno, digits, changed = a_digit_changed(text, page_id(page))
    lines = text.split("\n")
    raw = lines[lineno - 1]
    assert digits in raw, (digits, raw)
    lines[lineno - 1] = raw.replace(digits, changed, 1)
    copy = tmp_path / page.name
    copy.write_text("\n".join(lines), encoding="utf-8")
    problems = audit.audit_text(copy.read_text(encoding="utf-8"), page_id(page))
    report = "\n".join(map(str, problems))
    assert f"{page_id(page)}:{lineno}:" in report, report
    assert changed in report and "the code gives" in report, report


# --- issue 18: the edits that passed the audit when any value of the page's sources would do ---

REAL = ROOT / "docs" / "real-numbers.md"


def _edit(old: str, new: str) -> tuple[int, str]:
    """(line number, report) of real-numbers.md with ``old`` replaced by ``new`` once."""
    text = REAL.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    lineno = text[: text.index(old)].count("\n") + 1
    return lineno, "\n".join(map(str, audit.audit_text(text.replace(old, new), "docs/real-numbers.md")))


def test_another_cell_of_the_same_example_is_caught():
    """ "bank puts 66.5% of its focus on itself, 21.2% on river": 21.2% is river's share of bank."""
    lineno, report = _edit(
        'itself, 24.5%{{weights[bank, river]}} on "river"', 'itself, 21.2%{{weights[bank, river]}} on "river"'
    )
    assert (
        f"docs/real-numbers.md:{lineno}: 21.2%: the sentence claims bank_of_river weights[bank, river], "
        "and the code gives 24.5% for it (0.244728), not 21.2%" in report
    ), report


def test_two_numbers_swapped_are_caught():
    lineno, report = _edit(
        '24.5%{{weights[bank, river]}} on "river" and 9%{{weights[bank, of]}} on "of"',
        '9%{{weights[bank, river]}} on "river" and 24.5%{{weights[bank, of]}} on "of"',
    )
    assert f"docs/real-numbers.md:{lineno}: 9%: the sentence claims bank_of_river weights[bank, river]" in report
    assert f"docs/real-numbers.md:{lineno}: 24.5%: the sentence claims bank_of_river weights[bank, of]" in report
    assert "the code gives 24% for it" in report and "the code gives 9.0% for it" in report, report


def test_a_value_of_another_example_is_caught():
    """42.2% is a weight of "The cat sat", 66.5% one of "dog bites man", the page's third source."""
    for value in ("42.2%", "66.5%"):
        lineno, report = _edit(
            '(24.5%{{weights[bank, river]}}) than from "of"', f'({value}{{{{weights[bank, river]}}}}) than from "of"'
        )
        assert f"docs/real-numbers.md:{lineno}: {value}: the sentence claims bank_of_river weights[bank, river]" in (
            report
        ), report


def test_a_labelled_line_must_use_its_own_row():
    """ "of: 1 / 11.107 = 0.090" written with river's numbers adds up, and is still caught."""
    lineno, report = _edit("- of: $1 / 11.107 = 0.090$", "- of: $2.718 / 11.107 = 0.245$")
    assert f"docs/real-numbers.md:{lineno}: 2.718: the sentence claims bank_of_river e^score[bank, of]" in report
    assert f"docs/real-numbers.md:{lineno}: 0.245: the sentence claims bank_of_river weights[bank, of]" in report


def test_a_bare_number_is_an_error_that_names_what_it_could_be():
    lineno, report = _edit('9%{{weights[bank, of]}} of "of"', '9% of "of"')
    assert f"docs/real-numbers.md:{lineno}: 9%: no claim says which quantity this is" in report, report
    assert "it could be 9%{{weights[bank, of]}} or 9%{{weights[of, bank]}}" in report, report


def test_generated_tables_are_up_to_date():
    changed, orphans = stale_generated()
    names = [described(p, text) for p, text in changed.items()] + [str(p.relative_to(ROOT)) for p in orphans]
    assert not names, (
        "generated files differ from what the code and the specs give now: run `make update` (an edit made by hand "
        "in a generated file is lost: make it in the spec or the code its first line names):\n" + "\n".join(names)
    )


def test_every_generated_table_the_pages_include_exists():
    missing = [
        f"{page_id(p)}: {inc[1]}"
        for p in PAGES
        for inc in map(include, p.read_text(encoding="utf-8").split("\n"))
        if inc and inc[1].startswith("docs/generated/") and not (ROOT / inc[1]).is_file()
    ]
    assert not missing, missing


# --- the audit itself -------------------------------------------------------------------

PAGE = """---
audit:
  sources: [bank_of_river, dog_bites_man]
  constants:
    - value: "2.718"
      reason: "e, rounded as the article does"
---
<!-- audit source: bank_of_river -->
"bank" puts 66.5%{{weights[bank, bank]}} of its focus on itself and 9%{{weights[bank, of]}} on "of"; e is about 2.718.
Plain division would give 0.67{{score share[bank, bank]}}, 0 and 0.33{{score share[bank, river]}}.

- bank · river = 1×1 + 0×1 + 1×0 + 0×0 = 1
- $0.090 + 0.245 = 0.335${{weights[bank, of]; weights[bank, river]; output[bank, x2]}}
- $0.665 \\times 1 + 0.090 \\times 0 + 0.245 \\times 1 = 0.910${{weights[bank, bank]; _; weights[bank, of]; _; \
weights[bank, river]; _; output[bank, x1]}}
- "dog" keeps 66.5%{{dog_bites_man: weights[dog, dog]}} for itself.

```python
print(0.123)  # code is tested by running it, not by the audit
```
"""


def problems_of(text):
    return [str(p) for p in audit.audit_text(text, "page.md")]


def test_audit_accepts_a_correct_page():
    assert problems_of(PAGE) == []


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("66.5%{{weights[bank, bank]}}", "66.6%{{weights[bank, bank]}}", "page.md:9: 66.6%: the sentence claims"),
        (
            "66.5%{{weights[bank, bank]}}",
            "66.6%{{weights[bank, bank]}}",
            "the sentence claims bank_of_river weights[bank, bank], and the code gives 66.5% for it (0.665241)",
        ),
        ("66.5%{{weights[bank, bank]}}", "24.5%{{weights[bank, bank]}}", "page.md:9: 24.5%: the sentence claims"),
        ("0.67{{", "0.68{{", "page.md:10: 0.68"),
        ("0×1 + 1×0", "0×1 + 1×1", "the factors are not bank's and river's vectors in bank_of_river"),
        ("= 0.910$", "= 0.920$", "does not round to '0.920'"),
        ("= 0.910${{weights[bank, bank]", "= 0.911${{weights[bank, bank]", "page.md:14: 0.911: the sentence claims"),
        ("= 0.335$", "= 0.336$", "page.md:13: 0.336: the sentence claims bank_of_river output[bank, x2]"),
        ("about 2.718", "about 2.719", "page.md:9: 2.719: no claim says which quantity this is"),
        (
            "keeps 66.5%{{dog",
            "keeps 9.0%{{dog",
            "page.md:15: 9.0%: the sentence claims dog_bites_man weights[dog, dog]",
        ),
    ],
)
def test_audit_names_page_line_number_the_claim_and_the_codes_value(old, new, expected):
    assert old in PAGE
    found = problems_of(PAGE.replace(old, new, 1))
    assert any(expected in p for p in found), found


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "{{weights[bank, bank]}}",
            "{{weight[bank, bank]}}",
            "bank_of_river has no quantity 'weight[bank, bank]'; did you mean",
        ),
        ("{{weights[bank, bank]}}", "{{weights[bank]}}", "names 3 quantities for the 1 numbers it binds (66.5%)"),
        ("{{weights[bank, of]; weights", "{{_; weights[bank, of]; weights", "names 4 quantities for the 3 numbers"),
        (
            "{{dog_bites_man: weights",
            "{{man_bites_dog: weights",
            "names the source 'man_bites_dog', which is not one of audit.sources",
        ),
        ("<!-- audit source: bank_of_river -->\n", "", "names no source"),
        (
            "66.5%{{weights[bank, bank]}}",
            "66.5% {{weights[bank, bank]}}",
            "{{weights[bank, bank]}}: a claim follows the number it binds with nothing between them: "
            "write 66.5%{{weights[bank, bank]}}",
        ),
        (
            "66.5%{{weights[bank, bank]}} of its focus",
            "most of its focus {{weights[bank, bank]}}",
            "{{weights[bank, bank]}}: a claim follows the number it binds with nothing between them: write the "
            "number right before it (NUMBER{{weights[bank, bank]}}), or put the claim right after the $math$, "
            "`code` or [list] whose numbers it binds",
        ),
        (
            "; _; weights[bank, of]",
            "; _; weights[bank, river]",
            "0.090: the sentence claims bank_of_river weights[bank, river]",
        ),
        ("= 0.910${{weights[bank, bank]; _;", "= 0.910${{_; _;", "0.665: '_' stands only for an integer"),
        ("= 0.910${{weights[bank, bank]; _;", "= 0.910${{weights[bank, bank]; weights[bank, bank];", "not an integer"),
    ],
)
def test_a_claim_that_cannot_bind_is_reported(old, new, expected):
    assert old in PAGE, old
    found = problems_of(PAGE.replace(old, new, 1))
    assert any(expected in p for p in found), found


def test_a_source_declaration_must_name_a_source_of_the_page():
    with pytest.raises(audit.AuditConfigError, match="'audit source: man_bites_dog' is not one of the page's"):
        audit.audit_text(PAGE.replace("source: bank_of_river -->", "source: man_bites_dog -->"), "page.md")


def test_a_constant_needs_a_reason_and_must_be_used():
    with pytest.raises(audit.AuditConfigError, match="non-empty 'reason'"):
        audit.audit_text(PAGE.replace('reason: "e, rounded as the article does"', 'reason: ""'), "page.md")
    found = problems_of(PAGE.replace("e is about 2.718.", "e is a constant."))
    assert any("listed as a constant but not used" in p for p in found), found


def test_an_unknown_source_is_named():
    with pytest.raises(ValueError, match="unknown audit source 'bank_of_rivers'"):
        audit.audit_text(PAGE.replace("[bank_of_river, dog", "[bank_of_rivers, dog"), "page.md")


def test_a_page_without_sources_cannot_quote_decimals():
    found = problems_of("---\ntitle: x\n---\nThe weight is 0.665.\n")
    assert found and "page.md:4: 0.665: no claim says which quantity" in found[0], found


def test_vector_sums_are_checked():
    page = "---\naudit: {sources: [bank_of_river]}\n---\nSo $[1, 0, 1] + [0, 1, 1] = [1, 1, 2]$.\n"
    assert problems_of(page) == []
    found = problems_of(page.replace("= [1, 1, 2]", "= [1, 1, 3]"))
    assert found and "does not round to '[1, 1, 3]'" in found[0], found


def test_integers_count_only_inside_arithmetic_or_a_claim():
    assert problems_of("---\naudit: {sources: [bank_of_river]}\n---\nThree words, 4 numbers each, 512 × 64.\n") == []
    found = problems_of("---\naudit: {sources: [bank_of_river]}\n---\nSo 2 × 3 = 7.\n")
    assert found and "'2 × 3' gives 6" in found[0], found
    found = problems_of("---\naudit: {sources: [bank_of_river]}\n---\nThe score is 2{{scores[bank, river]}}.\n")
    assert found and "the sentence claims bank_of_river scores[bank, river], and the code gives 1" in found[0], found


# --- numbers grouped in thousands: "1,048,576" is one number, as the tables write it ---------------

FLASH = "---\naudit: {sources: [flash_attention]}\n---\n"


@pytest.mark.parametrize(
    ("line", "numbers"),
    [
        ("1,048,576 scores and 265,216 entries", [("1,048,576", 1048576), ("265,216", 265216)]),
        ("at 1,000,000.", [("1,000,000", 1000000)]),
        ("(1,024, 64)", [("1,024", 1024), ("64", 64)]),  # a shape: n = 1,024 and 64
        ("−1,024 and 12,345.5%", [("−1,024", -1024), ("12,345.5%", 12345.5)]),
        # lists, not groupings: each number on its own, as before
        ("[1, 2]", [("1", 1), ("2", 2)]),
        ("1,2", [("1", 1), ("2", 2)]),
        ("[1,000,2]", [("1", 1), ("000", 0), ("2", 2)]),
        ("3,1,024", [("3", 3), ("1", 1), ("024", 24)]),
        ("1,0245", [("1", 1), ("0245", 245)]),
        ("1,000,00", [("1", 1), ("000", 0), ("00", 0)]),
        ("12,345,6789", [("12", 12), ("345", 345), ("6789", 6789)]),
    ],
)
def test_a_number_grouped_in_thousands_is_one_number(line, numbers):
    """Only a proper grouping (1 to 3 digits, then groups of 3, touching no other comma and digit) is
    one number; the old reading made "1,048,576" three integers, "1", "048" and "576", which no check
    read, so a wrong figure passed."""
    toks = number_tokens(line)
    assert [(t.text, t.value) for t in toks] == [(text, Decimal(str(v))) for text, v in numbers]
    assert [t.grouped for t in toks] == ["," in text for text, _ in numbers]


def test_grouped_writes_num_with_its_thousands_set_off():
    assert [fmt.grouped(x) for x in (1048576, 265216.0, 512, 0, -1024, 1e6)] == [
        "1,048,576",
        "265,216",
        "512",
        "0",
        "-1,024",
        "1,000,000",
    ]
    assert fmt.grouped(12345.678, 2) == "12,345.68" and fmt.grouped(1e20) == fmt.num(1e20, 0)  # exponent notation


def test_a_grouped_number_is_compared_with_the_quantity_grouped_the_same_way():
    page = FLASH + "At 1,024{{GPT-2 small n}} tokens, 1,048,576{{GPT-2 small scores entries}} scores.\n"
    assert problems_of(page) == []
    assert problems_of(page.replace("1,048,576{{", "1048576{{")) == []  # written plainly: num's text
    assert problems_of(page.replace("1,048,576{{", "1,048,577{{")) == [
        "page.md:4: 1,048,577: the sentence claims flash_attention GPT-2 small scores entries, and the code gives "
        "1,048,576 for it (1.04858e+06), not 1,048,577"
    ]
    found = problems_of(page.replace("1,048,576{{", "265,216{{"))
    assert found and "page.md:4: 265,216: the sentence claims flash_attention GPT-2 small scores entries" in found[0]


def test_a_grouped_number_without_a_claim_is_an_error_that_names_what_it_could_be():
    """A figure written with commas is held to account as a decimal is: a claim, or a constant with a reason."""
    found = problems_of(FLASH + "At 1,024 tokens that is 1,048,576 scores.\n")
    assert len(found) == 2, found
    assert found[0].startswith("page.md:4: 1,024: no claim says which quantity this is"), found
    assert "it could be 1,024{{GPT-2 small n}}" in found[0], found
    assert "it could be 1,048,576{{GPT-2 small scores entries}}" in found[1], found
    constant = (
        '---\naudit:\n  sources: [flash_attention]\n  constants:\n    - {value: "1,024", reason: "a paper"}\n---\n'
    )
    assert problems_of(constant + "At 1,024 tokens.\n") == []
    # a count written plainly is not a figure: as before, not read
    assert problems_of(FLASH + "At 1024 tokens, 12 heads.\n") == []


def test_a_claim_of_any_integer_does_not_cover_a_grouped_number():
    found = problems_of(FLASH + "It holds 265,216{{_}} entries.\n")
    assert found and "page.md:4: 265,216: '_' stands only for an integer written plainly" in found[0], found


def test_worked_arithmetic_reads_grouped_numbers():
    """It read "1,024" as "1", a comma, "024": the line was not arithmetic, and no sum was checked."""
    assert arithmetic_problems("2 × 1,024 × 128 + 3 × 1,024 = 265,216") == []
    assert arithmetic_problems("2 × 1,024 × 128 + 3 × 1,024 = 265,215") == [
        (
            "2 × 1,024 × 128 + 3 × 1,024 = 265,215",
            "'2 × 1,024 × 128 + 3 × 1,024' gives 265216, which does not round to '265,215'",
        )
    ]
    assert arithmetic_problems("[1,000, 2] + [1, 1] = [1,001, 3]") == []  # a vector of 1000 and 2
    line = (
        "2 × 1,024{{GPT-2 small n}} × 128{{GPT-2 small tile}} + 3 × 1,024{{GPT-2 small n}} "
        "= 265,216{{GPT-2 small largest entries held}} entries.\n"
    )
    assert problems_of(FLASH + line) == []
    found = problems_of(FLASH + line.replace("+ 3 ×", "+ 4 ×"))
    assert len(found) == 1 and "which does not round to '265,216'" in found[0], found


ONLINE = ROOT / "docs" / "online-softmax.md"


def test_a_wrong_figure_typed_with_commas_on_a_page_is_caught():
    """online-softmax.md types the figures of the generated table (docs/generated/flash_attention/memory.md):
    one changed, or its claim dropped, is reported on its line."""
    text = ONLINE.read_text(encoding="utf-8")
    claimed = "1,048,576{{GPT-2 small scores entries}}"
    assert text.count(claimed) == 1
    lineno = text[: text.index(claimed)].count("\n") + 1
    report = "\n".join(
        map(str, audit.audit_text(text.replace(claimed, "1,048,586{{GPT-2 small scores entries}}"), "x.md"))
    )
    assert f"x.md:{lineno}: 1,048,586: the sentence claims flash_attention GPT-2 small scores entries, " in report
    assert "the code gives 1,048,576" in report, report
    report = "\n".join(map(str, audit.audit_text(text.replace(claimed, "1,048,576"), "x.md")))
    assert f"x.md:{lineno}: 1,048,576: no claim says which quantity this is" in report, report


# --- the page as the reader sees it: the claims are gone ----------------------------------


def _render(text: str) -> str:
    import markdown

    md = markdown.Markdown(
        extensions=[
            "attr_list",
            "md_in_html",
            "pymdownx.arithmatex",
            "pymdownx.superfences",
            "publish.markdown.numbers_audit",
        ],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    return md.convert(text)


def test_the_extension_removes_claims_and_declarations_and_nothing_else():
    html = _render(split_front_matter(PAGE)[2])
    assert "{{" not in html.split("<pre")[0] and "audit source" not in html, html
    assert '"bank" puts 66.5% of its focus on itself and 9% on "of"' in html, html
    assert "0.910\\)</span></li>" in html, html


def test_claims_in_code_and_math_are_shown_as_written():
    html = _render("`66.5%{{weights[bank, bank]}}` and $x^{{2}}$ and [a](b.md){ .md-button }\n")
    assert "<code>66.5%{{weights[bank, bank]}}</code>" in html and "x^{{2}}" in html, html
    assert 'class="md-button"' in html, html


def test_a_claim_in_inline_code_is_code_not_a_claim():
    """The page shows `66.5%{{...}}` in code as written, so the audit reads it as written: its
    number has no claim."""
    page = "---\naudit: {sources: [bank_of_river]}\n---\nWrite `66.5%{{weights[bank, bank]}}` so.\n"
    found = problems_of(page)
    assert found and "page.md:4: 66.5%: no claim says which quantity this is" in found[0], found
    assert problems_of(page.replace("`66.5%{{weights[bank, bank]}}`", "66.5%{{weights[bank, bank]}}")) == []


def test_a_claim_after_inline_code_binds_its_numbers():
    """CONTRIBUTING: after `code` a claim binds every number in it, in order. The audit's line lost
    each span's closing backtick, so such a claim never found its code."""
    page = "---\naudit: {sources: [bank_of_river]}\n---\nSee `f(0.665, 2)`{{weights[bank, bank]; _}} and `x`.\n"
    assert problems_of(page) == []
    found = problems_of(page.replace("0.665", "0.666"))
    assert any("page.md:4: 0.666: the sentence claims bank_of_river weights[bank, bank]" in p for p in found), found
    found = problems_of(page.replace("; _}}", "}}"))
    assert any("names 1 quantities for the 2 numbers" in p for p in found), found


# --- issue 30: messages that point at what to edit -------------------------------------------------


def test_did_you_mean_searches_every_source_the_page_lists():
    """The line's source is bank_of_river; weights[dog, dog] is dog_bites_man's, which the front
    matter lists: the message says so, instead of suggesting bank_of_river's quantities."""
    found = problems_of(PAGE.replace("66.5%{{weights[bank, bank]}}", "66.5%{{weights[dog, dog]}}", 1))
    assert (
        "page.md:9: {{weights[dog, dog]}}: bank_of_river has no quantity 'weights[dog, dog]'; dog_bites_man has it: "
        "write 'dog_bites_man: weights[dog, dog]', or declare the source above the line "
        "(<!-- audit source: dog_bites_man -->)"
    ) in found, found
    found = problems_of(PAGE.replace("66.5%{{weights[bank, bank]}}", "66.5%{{weights[dog, bite]}}", 1))
    assert any("did you mean 'dog_bites_man: weights[dog, bites]'" in p for p in found), found
    found = problems_of(PAGE.replace("66.5%{{weights[bank, bank]}}", "66.5%{{weight[bank, bank]}}", 1))
    assert any("did you mean 'weights[bank, bank]' or" in p for p in found), found  # its own source first


def test_a_bare_number_of_another_listed_source_is_named_with_it():
    page = PAGE.replace("e is about 2.718.", "e is about 2.718, and 42.2% is a weight.")
    found = problems_of(page)
    assert any(
        "page.md:9: 42.2%: no claim says which quantity this is" in p
        and "it could be 42.2%{{dog_bites_man: weights[man, dog]}} or 42.2%{{dog_bites_man: weights[man, man]}}" in p
        for p in found
    ), found


SPEC_PAGE = """---
audit:
  sources: [the_cat_sat]
---

<!-- Generated from selfattn_ref/examples/zz_numbers.toml by publish.generate.example_pages:page (make update); \
do not edit. -->

# Numbers

A description that says about 0.707 of something.

The generator wrote 0.577 here.
"""
SPEC = """\
title = "Numbers"
description = \"\"\"
A description
that says about 0.707 of something.
\"\"\"
tokens = ["a"]
embeddings = [[0.707, 1]]
"""


def test_a_number_on_a_generated_page_points_at_the_spec_line_that_holds_it(tmp_path):
    (tmp_path / "selfattn_ref/examples").mkdir(parents=True)
    (tmp_path / "selfattn_ref/examples/zz_numbers.toml").write_text(SPEC, encoding="utf-8")
    found = [str(p) for p in audit.audit_text(SPEC_PAGE, "docs/examples/zz_numbers.md", tmp_path)]
    assert found[0] == (
        "selfattn_ref/examples/zz_numbers.toml:4: 0.707: the spec's 'description' holds a number that no claim can "
        "bind (a spec's text holds no claims, so the audit cannot tell which quantity it is): write it in words, or "
        "leave the numbers to the tables the page shows (on docs/examples/zz_numbers.md:10, which `make update` "
        "writes from that file: edit it there, not the page)"
    ), found
    assert "{{QUANTITY}}" not in found[0]
    assert found[1].startswith("publish/generate/example_pages.py: 0.577: no claim says which quantity this is"), found
    assert "(the generator publish.generate.example_pages:page wrote this number, not a spec's text)" in found[1], found
    problems = audit.audit_text(SPEC_PAGE, "docs/examples/zz_numbers.md", tmp_path)
    assert [(p.page, p.line) for p in problems] == [("docs/examples/zz_numbers.md", 10)] * 1 + [
        ("docs/examples/zz_numbers.md", 12)
    ]  # the page's own line stays known (the mutation tests read it)


EXAMPLE_PAGE = ROOT / "docs/examples/the_cat_sat.md"
TYPED = '3 tokens, each an embedding of 4 numbers; "cat" keeps {number} for itself:'


@pytest.mark.parametrize("number", ["0.4221{{weights[cat, cat]}}", "0.4221"], ids=["with a claim", "bare"])
def test_a_number_typed_into_a_generated_page_points_at_its_spec(number):
    """Issue 51: a number a contributor types into a worked example's page was blamed on the
    generator (publish/generate/example_pages.py). A line that `make update` does not write (from the spec
    as it is now) is the page's own: the message names the page and the line, and says to make the
    change in the spec, since `make update` rewrites the page from it."""
    text = EXAMPLE_PAGE.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("3 tokens, each an embedding of 4 numbers:"))
    edited = text.replace(line, TYPED.format(number=number), 1)
    lineno = edited.splitlines().index(TYPED.format(number=number)) + 1
    found = [str(p) for p in audit.audit_text(edited, "docs/examples/the_cat_sat.md")]
    assert len(found) == 1, found
    assert found[0].startswith(f"docs/examples/the_cat_sat.md:{lineno}: 0.4221: this line is not one that "), found
    assert (
        "`make update` writes from selfattn_ref/examples/the_cat_sat.toml: the page is generated from that file, and "
        "`make update` rewrites it, so an edit of the page is lost. Make the change in "
        "selfattn_ref/examples/the_cat_sat.toml (its title, description, tokens or numbers), then run `make update`"
    ) in found[0], found
    assert "publish/generate/example_pages.py" not in found[0] and "generator" not in found[0], found
    assert "the code gives 0.4223" in found[0] or "no claim says which quantity" in found[0], found


def test_a_number_the_generator_writes_is_still_its_own(tmp_path, monkeypatch):
    """A line that `make update` does write (here, as if the generator wrote SPEC_PAGE) and whose
    number no spec text holds is the generator's: the message names it."""
    from publish.audit import check

    (tmp_path / "selfattn_ref/examples").mkdir(parents=True)
    (tmp_path / "selfattn_ref/examples/zz_numbers.toml").write_text(SPEC.replace("0.707 of ", "most of "), "utf-8")
    monkeypatch.setattr(check, "_generated_lines", lambda *args: frozenset(SPEC_PAGE.splitlines()))
    found = [str(p) for p in audit.audit_text(SPEC_PAGE, "docs/examples/zz_numbers.md", tmp_path)]
    assert found[-1].startswith("publish/generate/example_pages.py: 0.577: no claim says which quantity this is"), found
    assert "(the generator publish.generate.example_pages:page wrote this number, not a spec's text)" in found[-1], (
        found
    )


def test_the_gallery_points_at_the_spec_of_the_number(tmp_path):
    (tmp_path / "selfattn_ref/examples").mkdir(parents=True)
    (tmp_path / "selfattn_ref/examples/aa.toml").write_text('title = "A"\n', encoding="utf-8")
    (tmp_path / "selfattn_ref/examples/zz_numbers.toml").write_text(SPEC, encoding="utf-8")
    page = SPEC_PAGE.replace("from selfattn_ref/examples/zz_numbers.toml by publish.generate.example_pages:page",
                             "from selfattn_ref/examples/*.toml by publish.generate.example_pages:index")  # fmt: skip
    found = [str(p) for p in audit.audit_text(page, "docs/examples/index.md", tmp_path)]
    assert found[0].startswith("selfattn_ref/examples/zz_numbers.toml:4: 0.707: the spec's 'description'"), found


# --- issue 30: the audit in every build ---------------------------------------------------------


AUDIT_HOOK = (
    "publish/mkdocs/hooks/strict_audit.py"  # stops a strict build on a wrong number (publish/mkdocs/strict_audit.py)
)


def claims_entry() -> str:
    """The publish.markdown.numbers_audit entry of mkdocs.yml as written, its !ENV settings and all."""
    lines = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("  - publish.markdown.numbers_audit:")
    entry = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("      "):
            break
        entry.append(line)
    return "\n".join(entry)


def one_page_site(tmp_path: Path, text: str, monkeypatch, config: str = "", **env: str) -> Path:
    """The mkdocs.yml of a site of one page, ``text``, with the extension and its hook as mkdocs.yml
    configures them, ``config`` added, and ``env`` set."""
    for name in ("NUMBERS_AUDIT", "NUMBERS_AUDIT_ON_PAGE"):
        monkeypatch.delenv(name, raising=False)  # the suite's own setting (conftest.py) left out
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "page.md").write_text(text, encoding="utf-8")
    site = tmp_path / "mkdocs.yml"
    head = f"site_name: audit\nplugins: []\nhooks: [{ROOT / AUDIT_HOOK}]\n"
    site.write_text(f"{head}markdown_extensions:\n{claims_entry()}\n{config}", encoding="utf-8")
    return site


def build_page(tmp_path: Path, text: str, monkeypatch, strict: bool = True, **env: str):
    """`mkdocs build` (in this process) of a site of one page, ``text``, with the extension and its
    hook as mkdocs.yml configures them and ``env`` set: (the warnings logged, then mkdocs' refusal if it
    aborted; the page's HTML or None)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    config = one_page_site(tmp_path, text, monkeypatch, **env)
    records = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build(load_config(str(config), strict=strict, site_dir=str(tmp_path / "site")))
    except Abort as exc:
        records.append(logging.makeLogRecord({"msg": f"Abort: {exc}"}))
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
    html = tmp_path / "site" / "page" / "index.html"
    return [r.getMessage() for r in records], html.read_text(encoding="utf-8") if html.is_file() else None


def test_a_wrong_number_fails_the_strict_build_with_one_message(tmp_path, monkeypatch):
    wrong = PAGE.replace("66.5%{{weights[bank, bank]}}", "76.5%{{weights[bank, bank]}}", 1)
    warnings, html = build_page(tmp_path, wrong, monkeypatch)
    page = (tmp_path / "docs" / "page.md").resolve()
    assert warnings == [
        "numbers audit: 1 problem, on which a strict build stops (each names the file to edit and its line):\n"
        f"  {page}:9: 76.5%: the sentence claims bank_of_river weights[bank, bank], and the code "
        "gives 66.5% for it (0.665241), not 76.5%",
        "Abort: Aborted with a BuildError!",
    ], warnings
    warnings, html = build_page(tmp_path, PAGE, monkeypatch)  # the page put right: no warning
    assert warnings == [] and "numbers-audit" not in html
    warnings, html = build_page(tmp_path, wrong, monkeypatch, strict=False)
    assert len(warnings) == 1 and "76.5%" in html and "numbers-audit" not in html  # no box outside `make serve`


def cli_build(tmp_path: Path, text: str, monkeypatch, *args: str, config: str = "") -> tuple[int, str]:
    """``mkdocs build *args`` as typed on the command line (in this process: MkDocs' own command, its
    flags and logging) of :func:`one_page_site`: (exit status, output)."""
    from click.testing import CliRunner
    from mkdocs.__main__ import cli
    from mkdocs.commands import build

    site = one_page_site(tmp_path, text, monkeypatch, config)
    logger = logging.getLogger("mkdocs")  # what the command sets for the process, put back after it
    kept = logger.level, logger.propagate, list(logger.handlers), list(build.log.filters)
    try:
        result = CliRunner().invoke(cli, ["build", "-f", str(site), "-d", str(tmp_path / "site"), *args])
    finally:
        logger.setLevel(kept[0])
        logger.propagate = kept[1]
        logger.handlers[:], build.log.filters[:] = kept[2], kept[3]
    return result.exit_code, result.output


@pytest.mark.parametrize(
    "args, config",
    [(["--strict", "-q"], ""), (["--strict", "-v"], ""), (["-q"], "strict: true\n"), ([], "strict: true\n")],
    ids=["--strict -q", "--strict -v", "strict: true, -q", "strict: true"],
)
def test_a_wrong_number_stops_a_strict_build_at_any_log_level(tmp_path, monkeypatch, args, config):
    """MkDocs' --quiet drops warnings before strict mode counts them (mkdocs/mkdocs#4126): the audit
    stops a strict build itself, with an error that no log level hides, naming the page and line."""
    wrong = PAGE.replace("66.5%{{weights[bank, bank]}}", "76.5%{{weights[bank, bank]}}", 1)
    status, output = cli_build(tmp_path, wrong, monkeypatch, *args, config=config)
    assert status == 1, output
    assert "page.md:9: 76.5%: the sentence claims bank_of_river weights[bank, bank]" in output, output
    assert "Aborted with a BuildError!" in output, output
    assert not (tmp_path / "site" / "page" / "index.html").exists()  # stopped before a page was written
    status, output = cli_build(tmp_path, PAGE, monkeypatch, *args, config=config)
    assert status == 0 and "numbers audit" not in output, output


def test_make_serve_shows_the_problems_at_the_top_of_the_page(tmp_path, monkeypatch):
    wrong = PAGE.replace("66.5%{{weights[bank, bank]}}", "76.5%{{weights[bank, bank]}}", 1)
    declaration = "<!-- audit source: bank_of_river -->\n"
    wrong = wrong.replace(declaration, declaration + "# A page\n\n")
    wrong = wrong.replace("{{weights[bank, of]}} on", "{{weights[a & b, of]}} on", 1)  # a message with & in it
    warnings, html = build_page(tmp_path, wrong, monkeypatch, strict=False, NUMBERS_AUDIT_ON_PAGE="true")
    assert len(warnings) == 2 and any("{{weights[a & b, of]}}" in w for w in warnings), warnings
    assert "{{weights[a &amp; b, of]}}" in html
    soup = BeautifulSoup(html, "html.parser")
    article = soup.select_one('[role="main"]')
    first, box = [el for el in article.children if getattr(el, "name", None)][:2]
    assert first.name == "h1" and box["class"] == ["admonition", "warning", "numbers-audit"], article
    assert box.select_one(".admonition-title").get_text() == "The numbers audit finds 2 problems on this page"
    assert [li.get_text() for li in box.select("li")] == [w.removeprefix("numbers audit: ") for w in warnings]
    assert "76.5% of its focus" in article.get_text()  # the page itself as it is


def test_the_suite_leaves_the_audit_out_of_its_builds(tmp_path, monkeypatch):
    """It audits every page itself (test_page_numbers_are_the_codes): its builds do not fail on a
    wrong number a second time. mkdocs.yml's NUMBERS_AUDIT turns it off."""
    assert os.environ.get("NUMBERS_AUDIT") == "false"
    wrong = PAGE.replace("66.5%{{weights[bank, bank]}}", "76.5%{{weights[bank, bank]}}", 1)
    warnings, html = build_page(tmp_path, wrong, monkeypatch, NUMBERS_AUDIT="false")
    assert warnings == [] and "76.5%" in html


def test_the_extension_audits_the_page_its_build_tells_it_of_once(tmp_path):
    """Under MkDocs the extension learns the page from its hook (publish.mkdocs.strict_audit's
    on_page_markdown, through a BuiltPage), not from an object of MkDocs' own on the Markdown
    instance; a page converted in pieces (mkdocstrings' docstrings) is audited once."""
    import markdown

    from publish.markdown.numbers_audit import BuiltPage

    wrong = PAGE.replace("66.5%{{weights[bank, bank]}}", "76.5%{{weights[bank, bank]}}", 1)
    (tmp_path / "page.md").write_text(wrong, encoding="utf-8")
    built, reported = BuiltPage(), []
    config = {"publish.markdown.numbers_audit": {"page": built, "report": reported.append}}

    def convert(text: str) -> str:
        return markdown.Markdown(extensions=list(config), extension_configs=config).convert(text)

    convert("no page yet")
    assert reported == []
    built.start(tmp_path / "page.md")
    convert("a docstring inside the page")
    convert("the page")
    assert len(reported) == 1 and len(reported[0]) == 1, reported
    assert "page.md:9: 76.5%: the sentence claims bank_of_river weights[bank, bank]" in reported[0][0], reported
