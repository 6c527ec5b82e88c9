"""Layer 3: every number typed on a page is the code's output, at the precision shown."""

from __future__ import annotations

import re

import pytest

from publish import audit
from publish.update import stale_generated

from pages import PAGES, ROOT, page_id


def test_there_are_pages():
    assert len(PAGES) >= 5, [page_id(p) for p in PAGES]


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_numbers_are_the_codes(page):
    problems = audit.audit_page(page, ROOT)
    assert not problems, "numbers audit:\n" + "\n".join(map(str, problems))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_single_digit_change_is_caught(page):
    """Change any one digit of any audited number on the page: the audit must object, on
    that line, naming the changed number."""
    text = page.read_text(encoding="utf-8")
    survivors, checked = [], 0
    for lineno, old, new, problems in audit.single_digit_changes(text, page_id(page)):
        checked += 1
        if not any(p.line == lineno and (new in p.number or new.rstrip("%") in p.number) for p in problems):
            survivors.append(f"line {lineno}: {old} -> {new}")
    assert not survivors, f"{len(survivors)} of {checked} digit changes pass the audit:\n" + "\n".join(survivors[:40])


QUOTING = [p for p in PAGES if any(t.decimals or t.percent for _, t in audit.auditable_tokens(p.read_text("utf-8")))]


def test_pages_quote_numbers():
    assert len(QUOTING) >= 4, [page_id(p) for p in QUOTING]


@pytest.mark.parametrize("page", QUOTING, ids=page_id)
def test_a_changed_digit_in_the_page_file_is_reported(page, tmp_path):
    """End to end on the file itself: change the last digit of the first audited decimal
    or percentage and the report names the page, the line, the number and the code's value."""
    text = page.read_text(encoding="utf-8")
    tokens = [(ln, t) for ln, t in audit.auditable_tokens(text) if t.decimals or t.percent]
    lineno, tok = tokens[0]
    lines = text.split("\n")
    raw = lines[lineno - 1]
    digits = tok.text.rstrip("%").strip()
    last = digits[-1]
    changed = digits[:-1] + ("1" if last != "1" else "2")
    assert digits in raw, (digits, raw)
    lines[lineno - 1] = raw.replace(digits, changed, 1)
    copy = tmp_path / page.name
    copy.write_text("\n".join(lines), encoding="utf-8")
    problems = audit.audit_text(copy.read_text(encoding="utf-8"), page_id(page))
    report = "\n".join(map(str, problems))
    assert f"{page_id(page)}:{lineno}:" in report, report
    assert changed in report and "the code gives" in report, report


def test_generated_tables_are_up_to_date():
    changed, orphans = stale_generated()
    names = [str(p.relative_to(ROOT)) for p in [*changed, *orphans]]
    assert not names, "generated tables differ from what the code gives now; run `make update`:\n" + "\n".join(names)


def test_every_generated_table_the_pages_include_exists():
    pattern = re.compile(r'--8<--\s+"(docs/generated/[^"]+)"')
    missing = [
        f"{page_id(p)}: {m}"
        for p in PAGES
        for m in pattern.findall(p.read_text(encoding="utf-8"))
        if not (ROOT / m).is_file()
    ]
    assert not missing, missing


# --- the audit itself -------------------------------------------------------------------

PAGE = """---
audit:
  sources: [bank_of_river]
  constants:
    - value: "2.718"
      reason: "e, rounded as the article does"
---
"bank" puts 66.5% of its focus on itself and 9% on "of"; e is about 2.718.
Plain division would give 0.67, 0 and 0.33.

- bank · river = 1×1 + 0×1 + 1×0 + 0×0 = 1
- $0.665 \\times 1 + 0.090 \\times 0 + 0.245 \\times 1 = 0.910$

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
        ("66.5%", "66.6%", "page.md:8: 66.6%: not a number the code gives"),
        ("66.5%", "66.6%", "the code gives 66.5% for the nearest quantity, bank_of_river weights[bank, bank]"),
        ("0.67,", "0.68,", "page.md:9: 0.68"),
        ("0×1 + 1×0", "0×1 + 1×1", "the factors are not bank's and river's vectors"),
        ("= 0.910$", "= 0.920$", "does not round to '0.920'"),
        ("= 0.910$", "= 0.911$", "page.md:12: 0.911: not a number the code gives"),
        ("about 2.718", "about 2.719", "page.md:8: 2.719"),
    ],
)
def test_audit_names_page_line_number_and_the_codes_value(old, new, expected):
    assert old in PAGE
    found = problems_of(PAGE.replace(old, new, 1))
    assert any(expected in p for p in found), found


def test_a_constant_needs_a_reason_and_must_be_used():
    with pytest.raises(audit.AuditConfigError, match="non-empty 'reason'"):
        audit.audit_text(PAGE.replace('reason: "e, rounded as the article does"', 'reason: ""'), "page.md")
    found = problems_of(PAGE.replace("e is about 2.718.", "e is a constant."))
    assert any("listed as a constant but not used" in p for p in found), found


def test_an_unknown_source_is_named():
    with pytest.raises(ValueError, match="unknown audit source 'bank_of_rivers'"):
        audit.audit_text(PAGE.replace("[bank_of_river]", "[bank_of_rivers]"), "page.md")


def test_a_page_without_sources_cannot_quote_decimals():
    found = problems_of("---\ntitle: x\n---\nThe weight is 0.665.\n")
    assert found and "page.md:4: 0.665" in found[0], found


def test_vector_sums_are_checked():
    page = "---\naudit: {sources: [bank_of_river]}\n---\nSo $[1, 0, 1] + [0, 1, 1] = [1, 1, 2]$.\n"
    assert problems_of(page) == []
    found = problems_of(page.replace("= [1, 1, 2]", "= [1, 1, 3]"))
    assert found and "does not round to '[1, 1, 3]'" in found[0], found


def test_integers_count_only_inside_arithmetic():
    assert problems_of("---\naudit: {sources: [bank_of_river]}\n---\nThree words, 4 numbers each, 512 × 64.\n") == []
    found = problems_of("---\naudit: {sources: [bank_of_river]}\n---\nSo 2 × 3 = 7.\n")
    assert found and "'2 × 3' gives 6" in found[0], found
