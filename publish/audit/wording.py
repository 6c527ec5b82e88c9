"""Checks on the words of the pages, beside the numbers audit (:mod:`publish.audit`).

- **One notation.** :func:`notation_problems` reads a page and names every line that uses a
  variant the site retired. The list is data, in ``publish/audit/retired.toml`` (each rule: the variant,
  what to write instead, a regular expression, where on a line it applies, the pages that may use
  it, and an example line that it must catch); CONTRIBUTING.md links it as a table
  (``docs/generated/contributing/retired.md``). A rule ``in = "code"`` is checked by
  :func:`code_notation_problems` on the code a page shows instead: the snippet files it includes and
  their recorded output (:func:`shown_code`). A rule with ``everywhere = true`` is read, besides the
  pages, in every other text a reader meets (:data:`READER_FILES`: the exercises, the worked
  examples' spec files, the playground's scripts, the notebooks and the generated files the pages
  include) by :func:`reader_text_problems`: "learned weights" names one thing everywhere, for one,
  and a worked line writes a negative operand in parentheses.
- **Links that say where they go.** :func:`link_problems` checks every link to a page: a link whose
  text is "next page" or "previous page" lands on the page after or before this one in the
  navigation's reading order; a link whose text is the title of a page lands on that page; a link
  after "see", "the page" or "the page on" is the title of the page it lands on; and a numbered list
  of pages (the home page's "read the pages in this order") follows the navigation's order.

Each problem names the page and the line. Fenced code, ``--8<--`` includes, HTML comments and front
matter are not read: code is checked by running it, includes by the tests of what generates them.
"""

from __future__ import annotations

import html
import posixpath
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .. import DOCS, ROOT
from ..source import includes
from ..source.mkdocs_yml import nav
from ..source.pages import CODE_SPAN, COMMENT, INLINE_MATH, body_lines, heading
from .claims import CLAIM

RETIRED_FILE = Path(__file__).with_name("retired.toml")
WHERE = ("math", "text", "code")


@dataclass(frozen=True)
class Finding:
    page: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Retired:
    variant: str
    use: str
    where: str
    pattern: re.Pattern
    allowed_on: tuple[str, ...]
    example: str
    everywhere: bool = False  # also read in READER_FILES, not only in the pages


def load_retired(path: Path = RETIRED_FILE) -> list[Retired]:
    """The retired variants, checked: ValueError naming the rule and the key that is wrong."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    rules = []
    for k, r in enumerate(data.get("retired", []), 1):
        name = f"{path.name}, rule {k}"
        missing = [key for key in ("variant", "use", "in", "pattern", "example") if not str(r.get(key, "")).strip()]
        if missing:
            raise ValueError(f"{name}: missing '{missing[0]}'")
        if r["in"] not in WHERE:
            raise ValueError(f"{name}: 'in' must be one of {list(WHERE)}, got {r['in']!r}")
        try:
            pattern = re.compile(r["pattern"])
        except re.error as exc:
            raise ValueError(f"{name}: 'pattern' is not a regular expression: {exc}") from None
        everywhere = r.get("everywhere", False)
        if not isinstance(everywhere, bool) or (everywhere and r["in"] != "text"):
            raise ValueError(f"{name}: 'everywhere' is true or false, and only for a rule in = \"text\"")
        allowed = tuple(r.get("allowed_on", []))
        rules.append(Retired(r["variant"], r["use"], r["in"], pattern, allowed, r["example"], everywhere))
    if not rules:
        raise ValueError(f"{path.name}: no [[retired]] rules")
    return rules


# --- reading a page ---------------------------------------------------------------------------

# A tag's data-* attribute: data for the page's script (an exercise's JSON, in which a formula's
# backslashes are doubled), not text a reader reads; the exercises' files are read on their own.
_DATA_ATTRIBUTE = re.compile(r'\sdata-[\w-]+="[^"]*"')


def prose(text: str) -> list[tuple[int, str, list[str]]]:
    """(line number, line without code spans and comments, its math) for each line a reader reads
    as prose or math: no front matter, fenced code, includes or HTML comments."""
    out = []
    display = False
    in_comment = False
    for numbered in body_lines(text):
        if numbered.fenced:
            continue
        i, line = numbered.number - 1, numbered.text
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        if "<!--" in line and "-->" not in line.split("<!--", 1)[1]:
            in_comment = True
            line = line.split("<!--", 1)[0]
        if includes.include(line):
            continue
        # what the reader sees: no code spans or comments, no numbers' claims ({{...}}, which the
        # claims extension removes), character references as the characters they stand for
        line = _DATA_ATTRIBUTE.sub("", line)
        line = html.unescape(CLAIM.sub("", CODE_SPAN.sub("", COMMENT.sub("", line))))
        if line.strip() == "$$":
            display = not display
            continue
        if display:
            out.append((i + 1, line, [line]))
            continue
        if line.strip().startswith("$$") and line.strip().endswith("$$") and len(line.strip()) > 4:
            out.append((i + 1, line, [line.strip()[2:-2]]))
            continue
        out.append((i + 1, line, [m.group(1) for m in INLINE_MATH.finditer(line)]))
    return out


def notation_problems(text: str, page: str, rules: list[Retired] | None = None) -> list[Finding]:
    """Every line of ``text`` (the page ``page``, as docs/...) that uses a retired variant."""
    rules = load_retired() if rules is None else rules
    found = []
    for lineno, line, math in prose(text):
        for r in rules:
            if page in r.allowed_on or r.where == "code":
                continue
            parts = math if r.where == "math" else [line]
            for part in parts:
                m = r.pattern.search(part)
                if m:
                    found.append(
                        Finding(page, lineno, f"{m.group(0).strip()!r} is a retired variant ({r.variant}); use {r.use}")
                    )
                    break
    return found


def shown_code(text: str) -> list[str]:
    """The snippet files (scripts and recorded outputs) that the page ``text`` includes, as
    snippets/..., each once, in the order the page first includes them."""
    targets = [includes.split_target(inc[1])[0] for inc in map(includes.include, text.split("\n")) if inc]
    return list(dict.fromkeys(t for t in targets if t.startswith("snippets/")))


def code_notation_problems(text: str, path: str, rules: list[Retired] | None = None) -> list[Finding]:
    """Every line of ``text`` (the snippet file ``path``, a script or its recorded output, as a page
    shows it) that uses a variant retired in code (rules ``in = "code"``)."""
    rules = load_retired() if rules is None else rules
    return _line_problems(text, path, [r for r in rules if r.where == "code"])


def _line_problems(text: str, path: str, rules: list[Retired]) -> list[Finding]:
    """Every line of ``text`` (the file ``path``) that one of ``rules`` matches, read as it is."""
    found = []
    for lineno, line in enumerate(text.split("\n"), 1):
        for r in rules:
            if path in r.allowed_on:
                continue
            m = r.pattern.search(line)
            if m:
                found.append(
                    Finding(path, lineno, f"{m.group(0).strip()!r} is a retired variant ({r.variant}); use {r.use}")
                )
    return found


# Besides the pages: the other texts a reader meets, as globs under the repository's root: the
# sources of the exercises and the worked examples, the playground, the notebooks, and what the
# pages include and the worked examples' pages, as generated (tables, worked lines, exercises).
READER_FILES = (
    "docs/exercises/*.toml",
    "selfattn_ref/examples/*.toml",
    "docs/assets/playground/*.js",
    "docs/notebooks/*.ipynb",
    "docs/notebooks/examples/*.ipynb",
    "docs/generated/**/*.md",
    "docs/examples/*.md",
)
# Generated files that quote the retired variants themselves (the table of them CONTRIBUTING links).
NOT_READER_FILES = ("docs/generated/contributing/",)


def reader_files(root: Path = ROOT) -> list[Path]:
    """The files of :data:`READER_FILES` (the playground's bundle, generated from its modules, is
    left out, and so are :data:`NOT_READER_FILES`), in a fixed order."""
    found = {p for pattern in READER_FILES for p in root.glob(pattern)}
    return sorted(
        p
        for p in found
        if not p.name.endswith(".bundle.js") and not p.relative_to(root).as_posix().startswith(NOT_READER_FILES)
    )


def reader_text_problems(text: str, path: str, rules: list[Retired] | None = None) -> list[Finding]:
    """Every line of ``text`` (one of :func:`reader_files`, as a path under the root) that uses a
    variant retired everywhere (rules ``everywhere = true``), read as it is: a notebook's JSON, a
    script's strings, a spec file's values."""
    rules = load_retired() if rules is None else rules
    return _line_problems(text, path, [r for r in rules if r.everywhere])


# --- links ----------------------------------------------------------------------------------------


def _norm(s: str) -> str:
    s = re.sub(r"[*_`\"“”]", "", s.casefold())
    s = re.sub(r"^(the|a|an) ", "", s.strip())
    return re.sub(r"\s+", " ", s).strip(" .,:;")


_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
_NAMING_BEFORE = re.compile(r"(?i)(?:\bsee|\bthe page(?: on)?|\bpage on)\s*\**\s*$")
_ORDINAL = {"next page": +1, "previous page": -1}


@cache
def _titles() -> dict[str, set[str]]:
    """Page (under docs/) -> its normalized titles: the first heading and the nav title."""
    out: dict[str, set[str]] = {}
    for p in DOCS.rglob("*.md"):
        rel = p.relative_to(DOCS).as_posix()
        if rel.split("/")[0] in ("generated", "assets"):
            continue
        h = heading(p.read_text(encoding="utf-8"))
        out[rel] = {_norm(h)} if h else set()
    for title, rel in nav():
        out.setdefault(rel, set()).add(_norm(title))
    return out


def _resolve(page: str, target: str) -> str | None:
    """The page under docs/ that a link from ``page`` lands on, or None for other targets."""
    path = target.split("#", 1)[0].split("?", 1)[0]
    if not path.endswith(".md") or "://" in path:
        return None
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path))


def link_problems(text: str, page: str, order: list[tuple[str, str]] | None = None, titles=None) -> list[Finding]:
    """Every link of ``text`` (the page ``page``, under docs/) that does not land where it says."""
    order = nav() if order is None else order
    titles = _titles() if titles is None else titles
    pages = [rel for _, rel in order]
    found = []
    listed: list[tuple[int, str]] = []
    for lineno, line, _ in prose(text):
        item = re.match(r"^\s*\d+\.\s+\[[^\]]+\]\(([^)\s]+)\)", line)
        if item and (target := _resolve(page, item.group(1))):
            listed.append((lineno, target))
        for m in _LINK.finditer(line):
            words, target = m.group(1), _resolve(page, m.group(2))
            if target is None:
                continue
            said = _norm(words)
            for ordinal, step in _ORDINAL.items():
                if said.endswith(ordinal):
                    if page not in pages:
                        message = f"[{words}] links to {target}, but this page is not in the nav"
                        found.append(Finding(page, lineno, message))
                    else:
                        k = pages.index(page) + step
                        want = pages[k] if 0 <= k < len(pages) else None
                        if target != want:
                            found.append(
                                Finding(
                                    page,
                                    lineno,
                                    f"[{words}] links to {target}, but the {ordinal} in the nav's "
                                    f"reading order is {want}",
                                )
                            )
                    break
            else:
                if said.endswith("first page"):
                    want = pages[1] if len(pages) > 1 else None
                    if target != want:
                        found.append(
                            Finding(page, lineno, f"[{words}] links to {target}, but the first page is {want}")
                        )
                    continue
                named = [rel for rel, ts in titles.items() if said in ts]
                if named and target not in named:
                    found.append(Finding(page, lineno, f"[{words}] is the title of {named[0]}, but links to {target}"))
                elif not named and _NAMING_BEFORE.search(line[: m.start()]) and said not in titles.get(target, set()):
                    title = sorted(titles.get(target, {"?"}))[0]
                    found.append(
                        Finding(page, lineno, f"[{words}] names a page, but links to {target}, titled {title!r}")
                    )
    # A numbered list of pages promises a reading order: it must be the nav's.
    for (_, a), (lineno, b) in zip(listed, listed[1:], strict=False):
        if a in pages and b in pages and pages.index(b) != pages.index(a) + 1:
            found.append(
                Finding(
                    page,
                    lineno,
                    f"the numbered list puts {b} after {a}, but the nav's reading order has "
                    f"{pages[pages.index(a) + 1] if pages.index(a) + 1 < len(pages) else 'nothing'} after {a}",
                )
            )
    return found
