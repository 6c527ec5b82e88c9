"""What a worked example may hold: the one definition of a valid token, title and description,
and the limits, shared by the spec check (:func:`selfattn_ref.examples.load_text`), the command
line (``python -m selfattn_ref explain``) and the playground (the publishing tools write
:data:`LIMITS` and the characters a token may not hold to ``docs/generated/playground/limits.js``,
which the playground's JavaScript imports, so that the browser refuses what Python refuses
whatever its own version of Unicode).

Text is read in Unicode's composed form (NFC) first: "é" typed as e and a combining accent is
the one character "é", so two such tokens are the same token, and a length counts characters as
NFC has them. Then these characters are refused anywhere (:func:`char_problem`), with the key
and the line: control and format characters (categories Cc and Cf), line and paragraph
separators (Zl, Zp), spaces other than U+0020 (Zs), private-use characters (Co), lone
surrogates (Cs), code points that Python's Unicode (:data:`UNICODE_VERSION`) has not assigned
(Cn), and characters that show as a blank: the default-ignorable code points (variation
selectors, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, ...) and U+2800 and U+1D159;
and a combining mark (M*) with no character before it to combine with (at the start of a
text, a line or an emphasised part, or after a space).

- A **token** is one word: 1 to ``LIMITS["tokenLength"]`` characters, none of them a space nor
  one of :data:`TOKEN_FORBIDDEN` (:func:`token_problem`: the playground's rule for a word's
  name too); the tokens of one example differ from each other, also in Unicode's compatibility
  form (NFKC): "ﬁ" (one ligature) and "fi", or a fullwidth "ａ" and "a", look alike and are one.
- A **title** is one line of 1 to ``LIMITS["titleLength"]`` characters, without spaces at
  either end, and without ``<``, ``>`` or ``&`` (the site's theme puts a title into HTML as it
  is, in several places).
- A **description** is plain prose, in paragraphs separated by blank lines, of at most
  ``LIMITS["descriptionLength"]`` characters, with three kinds of inline Markdown:
  ``*emphasis*`` / ``**strong**``, ```code``` and links to a page of this site
  (``[Masking](../masking.md)``, a relative ``.md`` path with an optional ``#anchor``).
  Everything else is shown as typed (the publishing tools escape it); refused outright, since
  they would mean something else than typed: HTML tags and comments, includes (``--8<--``),
  braces (``{ ... }``, attribute lists), images, links with any other target (``http:``,
  ``javascript:``, ...), and control characters other than line breaks and tabs.
- **Numbers in text**: the numbers audit checks every decimal, percentage, number grouped in
  thousands and worked arithmetic line that a page prints against the code (``publish/audit/``,
  which reads :data:`NUMBER`, :data:`GROUPED`, :data:`CHAIN` and :func:`chain_spans` from here),
  and spec text cannot say which quantity a number is. So a title, a description and the tokens
  (alone, and side by side as the gallery lists them) hold no decimal ("0.5"), no percentage
  ("66%", "66 %"), no number grouped in thousands ("1,000", a figure the audit asks a claim for)
  and no equation with an operator ("1 + 1 = 2"), as the audit reads them on the page: the
  characters the page writes as HTML character references (:data:`ESCAPED`) read as spaces there.
  Nor any other way of writing a number that is not whole, which a reader reads as one though the
  audit does not (:data:`FRACTIONAL`): ".5", a decimal comma ("1,5"), a fraction ("3/4", "½"), a
  per mille ("5‰") or another percent sign, "1e-3". Whole numbers written plainly, which the audit
  does not check, are allowed ("3 tokens", "1000"). The numbers belong in the tables, which the
  publishing tools generate from the spec's numbers. A message quotes the number as
  it was typed ("1\\.5", not the "1.5" the page would show).
- **A number typed** on the command line or in the playground, and a number of a spec file, is
  written one way, :data:`NUMBER_SYNTAX` (read by :func:`read_number`): the digits 0 to 9, a point with
  a digit on at least one side of it, an exponent, and a sign, "-", "+" or the minus sign U+2212
  that the site prints ("−0.5"). Not "1_0", "0x1F", other scripts' digits ("٣", "３") nor
  "1,5" (a comma separates two numbers).
- Numbers: every number of the spec is at most ``LIMITS["magnitude"]`` in size, and every
  number the example's page prints is finite and under :data:`MAX_PRINTED` (checked by the
  loader on the computed steps), so that it prints in full, at the spec's decimals or, where
  that would make more than 15 digits, fewer (:mod:`selfattn_ref.examples.digits`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

LIMITS = {
    "words": 16,  # tokens per example (the playground's words)
    "dims": 16,  # numbers per embedding, and columns of every matrix (d, d_k, d_v; an RNN's d_h, d_a)
    "tokenLength": 24,  # characters per token (the playground's word names), counted after NFC
    "titleLength": 80,
    "descriptionLength": 2000,
    "decimals": 10,
    "magnitude": 1e6,  # every number of a spec (and every number typed in the playground)
    "seed": 2**32 - 1,  # the largest seed
    "heads": 4,  # heads of multi-head attention (a spec's `heads`, the playground's setting)
}
# Characters a token may not hold: Markdown tables and HTML read them as markup.
TOKEN_FORBIDDEN = "|`<>*[]\\"
TITLE_FORBIDDEN = "<>&"
# Every number a generated page prints is finite and under this in size: 15 significant
# digits, as many as a float64 holds, so that no printed digit is noise.
MAX_PRINTED = 1e15
# The Unicode of Python's unicodedata (14.0.0 in Python 3.11): a code point it has not assigned
# is refused, so that the spec check and the playground (which reads the refused code points
# from here, not from the browser's own Unicode) agree.
UNICODE_VERSION = unicodedata.unidata_version

# Default_Ignorable_Code_Point (DerivedCoreProperties.txt, the same in Unicode 14.0 to 17.0)
# beyond categories Cf and Cn, which are refused anyway: code points that show as nothing.
_IGNORABLE = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180D),  # Mongolian free variation selectors 1-3
    (0x180F, 0x180F),  # Mongolian free variation selector 4
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xE0100, 0xE01EF),  # variation selectors 17-256
)
# Graphic characters whose glyph has no ink: they show as a blank too.
_BLANK = ((0x2800, 0x2800), (0x1D159, 0x1D159))  # Braille pattern blank, musical symbol null notehead
_WHY = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Zs": "a space other than the plain space U+0020",
    "Co": "a private-use character, which has no agreed glyph",
    "Cs": "a lone surrogate, half of a character and not text",
    "Cn": f"a code point that Unicode {UNICODE_VERSION} (Python's) has not assigned",
}


_SHOWS_BLANK = frozenset(c for a, b in _IGNORABLE + _BLANK for c in range(a, b + 1))


def char_problem(ch: str) -> str | None:
    """Why the character ``ch`` cannot be in any spec text (title, token or description), or
    None: what it is, for a message ("a private-use character, which has no agreed glyph").
    U+0020 passes here (a token refuses it on its own), and so do line breaks and tabs (a
    description allows them)."""
    category = unicodedata.category(ch)
    if ch in "\n\t ":
        return None
    if category in _WHY:
        return _WHY[category]
    if ord(ch) in _SHOWS_BLANK:
        return "a character that shows as a blank"
    return None


def is_combining_mark(ch: str) -> bool:
    """Whether ``ch`` is a combining mark (categories Mn, Mc, Me): it needs a character before it."""
    return unicodedata.category(ch).startswith("M")


def _bare_mark(text: str) -> int | None:
    """The index of the first combining mark in ``text`` that has no character to combine with
    (at the start, or after a space, a tab or a line break), or None."""
    for i, ch in enumerate(text):
        if is_combining_mark(ch) and (i == 0 or text[i - 1] in " \t\n" or unicodedata.category(text[i - 1]) == "Zs"):
            return i
    return None


def token_char_refused(ch: str) -> bool:
    """Whether a token may not hold ``ch`` anywhere: what :func:`char_problem` refuses, a space,
    and :data:`TOKEN_FORBIDDEN`. (The playground's limits file lists these code points.)"""
    return ch in TOKEN_FORBIDDEN or ch in "\n\t " or char_problem(ch) is not None


# The code points for which token_char_refused is not decided by the general category alone
# (the playground's limits file asks it once per run of one category and once for each of these).
TOKEN_RULED_ONE_BY_ONE = frozenset(map(ord, TOKEN_FORBIDDEN + "\n\t ")) | _SHOWS_BLANK


def shown(ch: str) -> str:
    """A character as a message names it: ``'<'``, or ``U+000D`` for one that does not print or
    that the rules refuse, with its name where Unicode gives one (``U+3164 HANGUL FILLER``)."""
    if ch in "'\"" or ch.isspace() or char_problem(ch) or is_combining_mark(ch):
        name = "" if unicodedata.category(ch) == "Cc" else unicodedata.name(ch, "")
        return f"U+{ord(ch):04X}" + (f" {name}" if name else "")
    return repr(ch)


def quoted(text: str) -> str:
    """``text`` in quotes as a message shows it: as Python's repr, with every character that
    does not print, or that :func:`char_problem` refuses, as an escape (``'a\\ufe0f'``)."""

    def one(ch: str) -> str:
        if ch in "'\\":
            return "\\" + ch
        if not ch.isprintable() or (ch != " " and char_problem(ch)):
            return ch.encode("unicode_escape", "backslashreplace").decode("ascii")
        return ch

    return "'" + "".join(one(ch) for ch in text) + "'"


class TextError(ValueError):
    """What is wrong with a title, a token or a description; ``found`` is the text at fault
    (for the loader to find its line in the spec file), or ""."""

    def __init__(self, message: str, found: str = ""):
        super().__init__(message)
        self.found = found


def normalized(text):
    """``text`` in Unicode's composed form (NFC), as every check reads it; anything else as it is."""
    return unicodedata.normalize("NFC", text) if isinstance(text, str) else text


def _char_error(text: str, what: str) -> TextError | None:
    """The first character of ``text`` that no spec text may hold, or a bare combining mark."""
    for ch in text:
        if why := char_problem(ch):
            return TextError(f"{what} holds {shown(ch)}, {why}", ch)
    if (i := _bare_mark(text)) is not None:
        return TextError(
            f"{what} holds {shown(text[i])}, a combining mark with no character before it to combine with", text[i]
        )
    return None


# --- numbers as typed --------------------------------------------------------------------------------

# A number as a reader types one, on the command line (selfattn_ref.cli) and in the playground (which
# reads this from docs/generated/playground/limits.js), and as a spec file writes one (its values are
# read as written before TOML reads them, selfattn_ref/examples/_toml.py): the digits 0 to 9, a point
# with a digit on at least one side of it, an exponent, and a sign: "-", "+" or the minus sign U+2212
# that the site prints. ASCII digits only ([0-9], not \d, which is any script's digits in Python).
NUMBER_SYNTAX = r"[-+\u2212]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+\u2212]?[0-9]+)?"
_NUMBER_SYNTAX = re.compile(NUMBER_SYNTAX)


def read_number(text: str) -> float | None:
    """The value of ``text`` if it is a number as :data:`NUMBER_SYNTAX` writes one ("−0.5", ".5",
    "1e-3"), else None ("1_0", "٣", "0x1F", "nan"); may be infinite ("1e999")."""
    if not isinstance(text, str) or not _NUMBER_SYNTAX.fullmatch(text):
        return None
    return float(text.replace("\u2212", "-"))


_HOW_NUMBERS = (
    "a number is written with the digits 0 to 9, a point, an exponent and a sign, such as 0.5, -2, −2 or 1e-3"
)
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\ufe63\uff0d"  # dashes that look like a minus sign


def number_advice(text: str) -> str | None:
    """How to write ``text`` as a number (:data:`NUMBER_SYNTAX`), for a message that has said it is
    not one: "a number is written with the digits 0 to 9, ...; without underscores"; None if it is one."""
    if read_number(text) is not None:
        return None
    if "_" in text and read_number(text.replace("_", "")) is not None:
        return f"{_HOW_NUMBERS}; write it without underscores"
    if re.match(r"[-+\u2212]?0[xXoObB]", text):
        return f"{_HOW_NUMBERS}; write it in decimal digits"
    if any(c.isdigit() and not c.isascii() for c in text):
        return f"{_HOW_NUMBERS}; write it with the digits 0 to 9, not another script's"
    if text[:1] in _DASHES:
        return f"{_HOW_NUMBERS}; write its minus sign as - or −"
    return _HOW_NUMBERS


# --- numbers, as the numbers audit reads them (publish/audit/ imports these) -----------------------

# A whole part in groups of three digits after a first group of one to three, as the tables write
# a large number ("1,048,576", "265,216.5"): one number, only if the commas make a proper grouping,
# neither touching another comma and digit ("1,2", "[1,000,2]", "3,1,024" are lists of numbers)
# nor followed by more digits ("1,0245"). "(1,024, 64)" holds 1024 and 64.
GROUPED = r"(?<!\d,)\d{1,3}(?:,\d{3})+(?!,?\d)(?:\.\d+)?"
# A number as a page writes it, with its sign and its percent sign: "66.5%", "-0.3313", "0.090",
# "12", "1,048,576". Not a digit of a word or a name ("x1", "W_2", "3.2.1", "e^2").
NUMBER = re.compile(rf"(?<![\w.^_\\])([-−]?)({GROUPED}|\d+(?:\.\d+)?)(?![\w.]*\d)(\s?%)?(?![\w])")
# The arithmetic part of a line: numbers, vectors and operators between two = signs.
CHAIN = re.compile(r"[\d\[(√−-][\d\s.,×·*/÷+\-−√()\[\]]*(?:\s*(?:=|≈)\s*[\d\[(√−-][\d\s.,×·*/÷+\-−√()\[\]]*)+")
EQ_SPLIT = re.compile(r"\s*(?:=|≈)\s*")
# An operator after a number, a vector or a bracket: "2 × 3", "[1, 0] + [0, 1]", "(1 + 2) / 3".
OPERATOR = re.compile(r"[\d\])]\s*[×·*/÷+]|[√]|\d\s+[-−]\s*\d")
# The characters the publishing tools write as named HTML character references wherever spec text
# lands on a page (publish/escape.py: a test holds the two equal); the audit reads each as a space.
ESCAPED = '&<>"*_`[]{}\\|$#'
_AS_AUDITED = str.maketrans(ESCAPED, " " * len(ESCAPED))


def chains(line: str) -> Iterator[re.Match]:
    """CHAIN's matches in ``line``, left to right: none without an = or a ≈, which every chain
    holds. Looked for first: CHAIN tried from every digit of a long line without either backtracks
    over the whole run of digits and spaces each time (the numbers audit's lines, claims blanked,
    have long ones)."""
    return CHAIN.finditer(line) if "=" in line or "≈" in line else iter(())


def chain_spans(line: str) -> list[tuple[int, int]]:
    """(start, end) of each equation on the line that has an operator: worked arithmetic, whose
    every number the audit checks."""
    return [(m.start(), m.end()) for m in chains(line) if any(OPERATOR.search(p) for p in EQ_SPLIT.split(m.group(0)))]


# Numbers that are not whole, written in ways NUMBER does not read but a reader does (spec text may
# not hold them either): ".5", a decimal comma "1,5" (sorted out below: "1,000" is NUMBER's, grouped), a
# fraction "3/4" or "3 ÷ 4", a per mille or another percent sign, "1e-3", the Arabic decimal separator.
FRACTIONAL = re.compile(
    r"(?<![\w.^_\\])[-−+]?\.\d+"
    r"|\d+(?:,\d+)+"
    r"|\d+\s*[/\u2044\u2215÷]\s*\d+"
    r"|\d+(?:\.\d+)?\s?[‰‱٪％﹪]"
    r"|\d+(?:\.\d+)?[eE][-−]\d+"
    r"|\d+\u066b\d+"
)
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")


def _fractional_spans(line: str) -> list[tuple[int, int]]:
    """(start, end) of each number of ``line`` that FRACTIONAL finds, and of each character that is a
    fraction of its own ("½", "⅞"), with the digits before it ("1½")."""
    spans = [(m.start(), m.end()) for m in FRACTIONAL.finditer(line) if not _THOUSANDS.fullmatch(m.group(0))]
    for i, ch in enumerate(line):
        value = unicodedata.numeric(ch, None)
        if value is not None and value != int(value):
            start = i
            while start and line[start - 1].isdigit():
                start -= 1
            spans.append((start, i + 1))
    return spans


def _as_audited(text: str) -> tuple[str, list[int]]:
    """``text`` as the audit reads it on the page (a character the page escapes is a space there, and a
    backslash in "1\\.5", which prints as itself, is not read), and for each of its characters the index
    of the character of ``text`` it comes from."""
    # A backslash in "1\.5" prints as itself (escaped), and a reader still reads the number 1.5
    skipped = {i for m in re.finditer(r"(?<=\d)\\+(?=\.\d)", text) for i in range(m.start(), m.end())}
    src = [i for i in range(len(text)) if i not in skipped]
    return "".join(text[i] for i in src).translate(_AS_AUDITED), src


def _first_number(line: str) -> tuple[int, int] | None:
    """(start, end) in ``line`` of its first decimal, percentage, number grouped in thousands, worked
    arithmetic (what the audit checks) or other number that is not whole (:data:`FRACTIONAL`), without
    spaces around it or a comma, point, semicolon or colon after it."""
    numbers = [(m.start(), m.end()) for m in NUMBER.finditer(line) if set(m.group(2)) & set(".,") or m.group(3)]
    first = min(numbers + chain_spans(line) + _fractional_spans(line), default=None)
    if first is None:
        return None
    start, end = first
    while start < end and line[start].isspace():
        start += 1
    while end > start and line[end - 1].isspace():
        end -= 1
    while end > start and line[end - 1] in ",.;:":
        end -= 1
    return start, end


def audited_number(text: str, typed: tuple[str, list[int]] | None = None) -> str | None:
    """The first decimal, percentage, number grouped in thousands or worked arithmetic of ``text`` that
    the numbers audit would check if a page printed ``text`` (escaped, as the publishing tools print
    spec text), or any other number that is not whole (:data:`FRACTIONAL`), as it is typed in ``text``;
    or None. ``typed``: the text as typed, and where in it each character of ``text`` comes from, when
    ``text`` is made from it (a description without its markup): the number is quoted from there."""
    line, kept = _as_audited(text)
    span = _first_number(line)
    if span is None:
        return None
    source, at = typed if typed is not None else (text, range(len(text)))
    return source[at[kept[span[0]]] : at[kept[span[1] - 1]] + 1]


_WHY_NUMBERS = (
    "the numbers audit checks every decimal, percentage, number grouped in thousands and equation a page "
    "prints against the code, and spec text cannot say which quantity a number is: put numbers in the tables "
    "(embeddings, matrices) or write them in words; whole numbers without commas are fine"
)


def _number_error(text: str, what: str, verb: str = "holds", typed=None) -> TextError | None:
    """The error for the first number of ``text`` that spec text may not hold (quoted as typed: see
    :func:`audited_number`), or None."""
    if (found := audited_number(text, typed)) is not None:
        kind = "an equation" if "=" in found or "≈" in found else "the number"
        return TextError(f"{what} {verb} {kind} {found!r}: {_WHY_NUMBERS}", found)
    return None


# --- tokens and titles ---------------------------------------------------------------------------


def token_problem(token) -> str | None:
    """Why ``token`` is not a valid token (nor a playground word's name), or None. Checks one
    token's characters; :func:`tokens_problem` checks a spec's list (and its numbers)."""
    err = _token_error(token)
    return None if err is None else str(err)


def _token_error(token) -> TextError | None:
    if not isinstance(token, str) or not token:
        return TextError("a token must be a non-empty string")
    token = normalized(token)
    n = LIMITS["tokenLength"]
    if len(token) > n:
        return TextError(f"token {quoted(token[:n])}... has {len(token)} characters; at most {n}", token[:n])
    for ch in token:
        if ch == " " or unicodedata.category(ch) in ("Zs", "Zl", "Zp", "Cc"):
            why = "a token is one word, without spaces or control characters"
            return TextError(f"token {quoted(token)} holds {shown(ch)}: {why}", token)
        if ch in TOKEN_FORBIDDEN:
            why = f"a token may not hold any of {' '.join(TOKEN_FORBIDDEN)}"
            return TextError(f"token {quoted(token)} holds {ch!r}: {why}", token)
    if err := _char_error(token, f"token {quoted(token)}"):
        return TextError(str(err), token)
    return None


def check_tokens(tokens) -> tuple[str, ...]:
    """A spec's tokens in NFC; TextError (``found``: the token at fault) if one is not a valid
    token, two are the same after NFC, or a token, or the tokens side by side as the gallery
    lists them, hold a number the numbers audit would check."""
    if not isinstance(tokens, list) or not tokens:
        raise TextError("'tokens' must be a non-empty list of strings")
    if len(tokens) > LIMITS["words"]:
        raise TextError(f"'tokens' has {len(tokens)} tokens; at most {LIMITS['words']}")
    for t in tokens:
        if err := _token_error(t):
            raise err
    out = tuple(normalized(t) for t in tokens)
    if err := _same_tokens(tokens):
        raise err
    for t in out:
        if err := _number_error(t, f"token {quoted(t)}"):
            raise TextError(str(err), t)
    if err := _number_error(" ".join(out), "the tokens, side by side as the gallery lists them,", "hold"):
        raise err
    return out


def _same_tokens(tokens: list[str]) -> TextError | None:
    """The error for two of ``tokens`` (valid tokens) that are one: the same after NFC, or alike after
    NFKC; ``found`` is the second as typed. None if every token has a name of its own."""
    seen: dict[str, str] = {}
    alike: dict[str, str] = {}  # NFKC -> the token (NFC) that has it
    for raw in tokens:
        t = normalized(raw)
        if t in seen:
            same = f" (typed as {_code_points(seen[t])} and as {_code_points(raw)}, which NFC makes one)"
            return TextError(
                f"token {quoted(t)} appears twice{same if seen[t] != raw else ''}; every token needs a name of its "
                f"own (for example {quoted(t + '2')})",
                raw,
            )
        key = unicodedata.normalize("NFKC", t)
        if key in alike:
            return TextError(
                f"tokens {quoted(alike[key])} and {quoted(t)} look alike ({_code_points(alike[key])} and "
                f"{_code_points(t)}, which Unicode's compatibility form NFKC makes one); every token needs a name "
                f"of its own (for example {quoted(key + '2')})",
                raw,
            )
        seen[t] = raw
        alike[key] = t
    return None


def same_tokens_problem(tokens: list[str]) -> str | None:
    """Why two of ``tokens`` (each a valid token) are one token, or None: the rule of a spec's tokens,
    which the command line keeps too (its tokens are labels, so numbers in them are allowed there)."""
    err = _same_tokens(tokens)
    return None if err is None else str(err)


def _code_points(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text)


def tokens_problem(tokens) -> str | None:
    """Why ``tokens`` is not a valid list of tokens for a spec (:func:`check_tokens`), or None."""
    try:
        check_tokens(tokens)
    except TextError as exc:
        return str(exc)
    return None


def check_title(title) -> str:
    """``title`` in NFC; TextError if it is not a valid title (see the module's text), or holds a
    number the numbers audit would check."""
    n = LIMITS["titleLength"]
    if not isinstance(title, str) or not title.strip():
        raise TextError("'title' must be a non-empty string")
    title = normalized(title)
    for ch in title:
        if ch in "\n\r" or unicodedata.category(ch) in ("Zl", "Zp"):
            raise TextError("'title' must be one line", ch)
        if ch == "\t":
            raise TextError(f"'title' holds {shown(ch)}, a control character", ch)
        if ch in TITLE_FORBIDDEN:
            raise TextError(f"'title' holds {ch!r}: a title may not hold any of {' '.join(TITLE_FORBIDDEN)}", ch)
    if err := _char_error(title, "'title'"):
        raise err
    if title != title.strip():
        raise TextError("'title' must not begin or end with a space")
    if len(title) > n:
        raise TextError(f"'title' has {len(title)} characters; at most {n}")
    if err := _number_error(title, "'title'"):
        raise err
    return title


def title_problem(title) -> str | None:
    """Why ``title`` is not a valid title (:func:`check_title`), or None."""
    try:
        check_title(title)
    except TextError as exc:
        return str(exc)
    return None


# --- descriptions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """A piece of a description's paragraph: kind "text", "em", "strong", "code" or "link"
    (``text`` is what it shows, ``target`` a link's target)."""

    kind: str
    text: str
    target: str = ""


# A page of this site: a relative path to a .md file, optionally with an #anchor.
LINK_TARGET = re.compile(r"(?:\.\./)*(?:[A-Za-z0-9_-]+/)*[A-Za-z0-9_-]+\.md(?:#[A-Za-z0-9_-]+)?")
_INLINE = re.compile(
    r"(?P<code>(?P<ticks>`+)(?P<code_text>.+?)(?P=ticks))"
    r"|\*\*(?P<strong>[^*\s](?:[^*]*[^*\s])?)\*\*"
    r"|\*(?P<em>[^*\s](?:[^*]*[^*\s])?)\*"
    r"|\[(?P<link_text>[^\[\]]+)\]\((?P<target>[^()\s]*)\)"
)
_REFUSED = (
    (re.compile(r"<[A-Za-z/!?]"), "holds HTML ({found}); write plain text"),
    (re.compile(r"-+8<"), "holds an include ({found}); a description cannot include files"),
    (
        re.compile(r"\{\{"),  # what the audit asks a page to write after a number, 0.5{{weights[a, b]}}
        "holds a claim of the numbers audit ({found}): a spec's text cannot say which quantity a number is, so "
        "write the number in words, or leave it to the tables the page shows",
    ),
    (re.compile(r"[{}]"), "holds a brace ({found}), which would make an attribute list: write ( ) instead"),
    (re.compile(r"!\["), "holds an image ({found}); images are not allowed"),
)


class DescriptionError(TextError):
    """What is wrong with a description; ``found`` is the text at fault (to find its line)."""


def _clip(s: str) -> str:
    return repr(s if len(s) <= 40 else s[:40] + "...")


def description_parts(text: str) -> list[list[Part]]:
    """The paragraphs of a description, each a list of parts; DescriptionError if it holds
    anything but plain prose and the inline Markdown allowed (see the module's docstring)."""
    if not isinstance(text, str):
        raise DescriptionError("'description' must be a string", "")
    text = normalized(text.replace("\r\n", "\n"))
    if len(text) > LIMITS["descriptionLength"]:
        raise DescriptionError(f"'description' has {len(text)} characters; at most {LIMITS['descriptionLength']}", "")
    if err := _char_error(text, "'description'"):
        raise DescriptionError(str(err), err.found)
    for pattern, message in _REFUSED:
        if m := pattern.search(text):
            found = text[m.start() : m.start() + 30].split("\n")[0]
            raise DescriptionError("'description' " + message.format(found=_clip(found)), m.group(0))
    paragraphs = []
    for line, at in _paragraphs(text):
        parts: list[Part] = []
        shows: list[int] = []  # where in line each part's text starts
        pos = 0
        for m in _INLINE.finditer(line):
            if m.start() > pos:
                parts.append(Part("text", line[pos : m.start()]))
                shows.append(pos)
            kind = next(k for k in ("code_text", "strong", "em", "link_text") if m.group(k) is not None)
            shows.append(m.start(kind))
            if kind == "code_text":
                parts.append(Part("code", m.group("code_text")))
            elif kind == "strong":
                parts.append(Part("strong", m.group("strong")))
            elif kind == "em":
                parts.append(Part("em", m.group("em")))
            else:
                target = m.group("target")
                if not LINK_TARGET.fullmatch(target):
                    raise DescriptionError(
                        f"'description' links to {_clip(target)}; a link may only lead to a page of this "
                        "site, as a relative path such as ../masking.md or the_cat_sat.md#step-1",
                        m.group(0),
                    )
                parts.append(Part("link", m.group("link_text"), target))
            pos = m.end()
        if pos < len(line):
            parts.append(Part("text", line[pos:]))
            shows.append(pos)
        for part in parts:
            if part.kind == "text" and (m := re.search(r"\]\(", part.text)):
                raise DescriptionError(
                    "'description' holds a link that is not of the form [text](page.md)", part.text[m.start() :]
                )
            if part.text and is_combining_mark(part.text[0]):
                raise DescriptionError(
                    f"'description' holds {shown(part.text[0])} at the start of {_clip(part.text)}, a combining "
                    "mark with no character of its own before it to combine with",
                    part.text,
                )
        # As the audit reads the paragraph on the page: markup gone, each part apart; and for each of
        # its characters, the one of the description it comes from (to quote the number as typed)
        audited, src = "", []
        for part, start in zip(parts, shows, strict=True):
            pad = part.kind != "text"
            audited += f" {part.text} " if pad else part.text
            src += ([start] if pad else []) + list(range(start, start + len(part.text)))
            src += [start + len(part.text) - 1] if pad else []
        if err := _number_error(audited, "'description'", typed=(text, [at[i] for i in src])):
            raise DescriptionError(str(err), err.found)
        paragraphs.append(parts)
    return paragraphs


def _paragraphs(text: str) -> Iterator[tuple[str, list[int]]]:
    """The paragraphs of a description (separated by blank lines), each on one line (its lines joined
    by a space, each stripped), with the index in ``text`` of each of its characters (a joining space:
    the line break it stands for)."""
    for block in re.finditer(r"(?:[^\n]|\n(?![ \t]*\n))+", text):
        line, at = "", []
        for row in re.finditer(r"[^\n]+", block.group(0)):
            stripped = row.group(0).strip()
            if not stripped:
                continue
            start = block.start() + row.start() + (len(row.group(0)) - len(row.group(0).lstrip()))
            if line:
                line += " "
                at.append(block.start() + row.start() - 1)  # the line break
            line += stripped
            at += list(range(start, start + len(stripped)))
        if line:
            yield line, at


def description_problem(text) -> DescriptionError | None:
    """The DescriptionError of ``text``, or None if it is a valid description."""
    try:
        description_parts(text)
    except DescriptionError as exc:
        return exc
    return None
