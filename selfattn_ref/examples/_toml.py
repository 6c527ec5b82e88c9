"""Where things are in a spec file's text, for messages: the line of each top-level key and of each
element of its arrays (a row of ``embeddings``, a number in it), and, for a file that is not valid
TOML, a sentence on what is likely wrong. :mod:`tomllib` reads the values; it gives no positions.

Its numbers are read as a number is typed on the command line and in the playground
(:data:`.rules.NUMBER_SYNTAX`), not as TOML alone would read them (:func:`as_read`): "−0.5" (the
minus sign the site prints), ".5" and "5." are numbers, and "1_0", "0x1F", "0o17" and "0b1", which
TOML reads, are refused with the line they are on.

:func:`layout` reads text that :mod:`tomllib` accepted; on anything it does not follow it gives
up quietly (an empty layout: the messages then name the file without a line).
"""

from __future__ import annotations

import bisect
import json
import re
import tomllib
from dataclasses import dataclass, field

from .._validate import excerpt
from .rules import number_advice, read_number


@dataclass
class Node:
    """A value in the text: the line it starts on, the line it ends on, and, for an array, its elements."""

    line: int
    end: int = 0
    items: list[Node] = field(default_factory=list)


@dataclass
class Entry:
    """A top-level key: the line of ``key =`` (or of a ``[table]`` header) and its value."""

    line: int
    value: Node


_BARE = re.compile(r"[A-Za-z0-9_-]+")


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.breaks = [i for i, c in enumerate(text) if c == "\n"]

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.breaks, pos - 1) + 1

    def skip(self, pos: int, newlines: bool) -> int:
        """Past spaces and tabs; with ``newlines``, past line breaks and comments too."""
        text = self.text
        while pos < len(text):
            c = text[pos]
            if c in " \t":
                pos += 1
            elif newlines and c in "\r\n":
                pos += 1
            elif newlines and c == "#":
                end = text.find("\n", pos)
                pos = len(text) if end < 0 else end
            else:
                break
        return pos

    def string(self, pos: int) -> int:
        """The position after the string that starts at ``pos``."""
        text = self.text
        for quote in ('"""', "'''"):
            if text.startswith(quote, pos):
                at = pos + 3
                while True:
                    end = text.index(quote, at)
                    if quote == '"""' and _escaped(text, end):
                        at = end + 1
                        continue
                    end += 3
                    for _ in range(2):  # up to two quotes more belong to the string: """a""""
                        if end < len(text) and text[end] == quote[0]:
                            end += 1
                    return end
        if text[pos] == "'":
            return text.index("'", pos + 1) + 1
        at = pos + 1
        while text[at] != '"':
            at += 2 if text[at] == "\\" else 1
        return at + 1

    def key(self, pos: int) -> tuple[str, int]:
        """(the key, dotted parts joined by '.', and the position after it)."""
        parts = []
        while True:
            pos = self.skip(pos, False)
            if self.text[pos] in "\"'":
                end = self.string(pos)
                parts.append(_unquoted(self.text[pos:end]))
            else:
                m = _BARE.match(self.text, pos)
                if not m:
                    raise ValueError("not a key")
                parts.append(m.group(0))
                end = m.end()
            pos = self.skip(end, False)
            if pos < len(self.text) and self.text[pos] == ".":
                pos += 1
                continue
            return ".".join(parts), pos

    def value(self, pos: int) -> tuple[Node, int]:
        text = self.text
        node = Node(self.line(pos))
        c = text[pos]
        if c == "[":
            pos += 1
            while True:
                pos = self.skip(pos, True)
                if text[pos] == "]":
                    pos += 1
                    break
                item, pos = self.value(pos)
                node.items.append(item)
                pos = self.skip(pos, True)
                if text[pos] == ",":
                    pos += 1
        elif c == "{":
            pos += 1
            while True:
                pos = self.skip(pos, False)
                if text[pos] == "}":
                    pos += 1
                    break
                _, pos = self.key(pos)
                pos = self.skip(pos + 1, False)  # past "="
                _, pos = self.value(pos)
                pos = self.skip(pos, False)
                if text[pos] == ",":
                    pos += 1
        elif c in "\"'":
            pos = self.string(pos)
        else:
            m = re.compile(r"[^\s,\]}#]+").match(text, pos)
            if not m:
                raise ValueError("not a value")
            pos = m.end()
            # a date-time may hold one space: 1979-05-27 07:32:00
            if re.match(r" \d\d:", text[pos : pos + 4]) and re.fullmatch(r"\d{4}-\d\d-\d\d", m.group(0)):
                pos = re.compile(r"[^\s,\]}#]+").match(text, pos + 1).end()
        node.end = self.line(max(pos - 1, 0))
        return node, pos


def _unquoted(key: str) -> str:
    """A quoted key as tomllib reads it: a basic string's escapes (JSON's, and \\UXXXXXXXX) decoded."""
    if key.startswith("'"):
        return key[1:-1]
    body = re.sub(r"\\U([0-9A-Fa-f]{8})", lambda m: chr(int(m.group(1), 16)), key[1:-1])
    try:
        return json.loads(f'"{body}"')
    except ValueError:
        return body


def _escaped(text: str, pos: int) -> bool:
    """Whether the character at ``pos`` follows an odd number of backslashes."""
    n = 0
    while pos - n - 1 >= 0 and text[pos - n - 1] == "\\":
        n += 1
    return n % 2 == 1


_WORD = re.compile(r"[0-9A-Za-z_.:+\-\u2212]+")  # a bare value: a number, a date, true, false, inf, nan


def _string_end(text: str, pos: int) -> int:
    """The position after the string that starts at ``pos`` (the end of the text if it is not closed)."""
    for quote in ('"""', "'''", '"', "'"):
        if text.startswith(quote, pos):
            at = pos + len(quote)
            while True:
                end = text.find(quote, at)
                if end < 0 or (len(quote) == 1 and "\n" in text[at:end]):
                    return len(text) if end < 0 else text.index("\n", at)
                if quote[0] == '"' and _escaped(text, end):
                    at = end + 1
                    continue
                end += len(quote)
                while len(quote) == 3 and text.startswith(quote[0], end) and end - pos < len(text):
                    end += 1  # up to two quotes more belong to the string: """a""""
                return end
    return pos + 1


def _toml_number(word: str) -> str | None:
    """A number as typed (rules.NUMBER_SYNTAX), written as TOML writes it ("−.5e−2" is "-0.5e-2",
    "007" is "7"); None if it is not one."""
    if read_number(word) is None:
        return None
    sign, whole, point, fraction, exponent = re.fullmatch(
        r"([-+]?)([0-9]*)(\.?)([0-9]*)(.*)", word.replace("\u2212", "-")
    ).groups()
    whole = whole.lstrip("0") or "0"
    return f"{sign}{whole}{'.' + (fraction or '0') if point else ''}{exponent}"


def as_read(text: str) -> tuple[str, tuple[int, str] | None]:
    """``text`` with its numbers written as TOML reads them (the same lines, so that every position
    TOML or :func:`layout` gives is on the line it was typed on), and (line, the word) of the first
    value that TOML would read as a number but that is not one as typed ("1_0", "0x1F"), or None.

    Only values are read (after "=", and in lists): not keys, strings or comments."""
    out, last, problem = [], 0, None
    stack: list[str] = []  # "[" a list, "{" an inline table
    value = False  # whether the next word is a value
    i = 0
    while i < len(text):
        c = text[i]
        if c == "#":
            i = len(text) if (end := text.find("\n", i)) < 0 else end
        elif c in "\"'":
            i, value = _string_end(text, i), False
        elif c == "\n":
            value = value and bool(stack)
            i += 1
        elif c == "=":
            value, i = True, i + 1
        elif c == "[" and not value and not stack:  # a [table] header: not a value
            i = len(text) if (end := text.find("\n", i)) < 0 else end
        elif c in "[{":
            stack.append(c)
            value, i = c == "[", i + 1
        elif c == ",":
            value, i = bool(stack) and stack[-1] == "[", i + 1
        elif c in "]}":
            stack = stack[:-1]
            value, i = False, i + 1
        elif (m := _WORD.match(text, i)) is None:
            i += 1
        else:
            word = m.group(0)
            if value and word[0] in "0123456789+-.\u2212" and word.lstrip("+-\u2212").lower() not in ("inf", "nan"):
                written = _toml_number(word)
                if written is None:
                    problem = problem or (text.count("\n", 0, i) + 1, word)
                elif written != word:
                    out += [text[last:i], written]
                    last = m.end()
            elif value and word.startswith("\u2212"):  # −inf: refused as any infinity is, later
                out += [text[last:i], "-" + word[1:]]
                last = m.end()
            value, i = False, m.end()
    return "".join(out) + text[last:], problem


def layout(text: str) -> dict[str, Entry]:
    """Every top-level key of a valid TOML text, with its line and the lines of its value's elements."""
    text = as_read(text)[0]
    reader = _Reader(text)
    out: dict[str, Entry] = {}
    pos = 0
    try:
        while True:
            pos = reader.skip(pos, True)
            if pos >= len(text):
                return out
            line = reader.line(pos)
            if text[pos] == "[":  # a [table] or [[array of tables]]: the rest belongs to it
                name, _ = reader.key(pos + (2 if text.startswith("[[", pos) else 1))
                out.setdefault(name.split(".")[0], Entry(line, Node(line, line)))
                return out
            name, pos = reader.key(pos)
            pos = reader.skip(pos + 1, False)  # past "="
            node, pos = reader.value(pos)
            out.setdefault(name.split(".")[0], Entry(line, node))
    except (IndexError, ValueError, RecursionError):
        return out


# --- what a syntax error likely is ------------------------------------------------------------

_AT = re.compile(r"\(at (?:line (\d+), column (\d+)|end of document)\)$")


def read(text: str, path, error: type[Exception], numbers: str) -> dict:
    """``text`` read as TOML, its numbers as typed (:func:`as_read`); otherwise ``error`` naming ``path``,
    the line and what is likely wrong (:func:`syntax_hint`). ``numbers`` is the sentence that says how
    large a number may be."""
    text, problem = as_read(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, hint = syntax_hint(text, str(exc))
        raise error(f"{path}, line {line}: not valid TOML ({exc}). {hint}") from None
    except RecursionError:  # lists in lists, hundreds deep
        raise error(f"{path}: not valid TOML for a spec: its lists are nested hundreds deep") from None
    except ValueError:  # an integer past Python's limit on digits (tomllib converts it with int())
        long = re.search(r"\d{4000,}", text)
        line = text.count("\n", 0, long.start()) + 1 if long else 1
        raise error(
            f"{path}, line {line}: a number of {len(long.group(0)) if long else 'thousands of'} digits; {numbers}"
        ) from None
    if problem is not None:
        line, word = problem
        raise error(f"{path}, line {line}: {excerpt(word)} is not a number: {number_advice(word)}")
    return data


def error_position(text: str, message: str) -> tuple[int, int]:
    """(line, column) of a tomllib error message; the end of the text for "end of document"."""
    m = _AT.search(message)
    if m and m.group(1):
        return int(m.group(1)), int(m.group(2))
    lines = text.split("\n")
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    return len(lines), len(lines[-1]) + 1


def _open_array(lines: list[str], upto: int) -> int | None:
    """The line (1-based) of the last ``key = [`` at or above line ``upto``."""
    for i in range(upto - 1, -1, -1):
        if re.match(r"\s*[A-Za-z0-9_\"'.-]+\s*=\s*\[", lines[i]):
            return i + 1
    return None


def _key_of(line: str) -> str | None:
    m = re.match(r"\s*([A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')\s*=", line)
    return m.group(1).strip("\"'") if m else None


def syntax_hint(text: str, message: str) -> tuple[int, str]:
    """(the line to look at, a sentence on what is likely wrong) for a tomllib error ``message``."""
    line, column = error_position(text, message)
    lines = text.split("\n")
    here = lines[line - 1] if line <= len(lines) else ""
    ahead = here[column - 1 :].lstrip()
    before = "\n".join([*map(_without_comment, lines[: line - 1]), here[: column - 1]]).rstrip()
    prev_line = before.count("\n") + 1 if before else line
    prev = before.split("\n")[-1].strip()
    kind = message[: _AT.search(message).start()].strip() if _AT.search(message) else message
    if text.startswith("\ufeff"):
        return 1, "The file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one."
    at_key = _key_of(here) is not None and here[: column - 1].strip() == ""  # the error is at the next key
    if kind == "Unclosed array":
        if at_key:
            start = _open_array(lines, line - 1)
            opened = f" (the list that opens on line {start})" if start else ""
            return prev_line, f"A ']' is probably missing at the end of line {prev_line}: a list is not closed{opened}."
        if ahead[:1] and not re.match(r"[\[\]{\w\"'+.-]", ahead[:1]):
            return (
                line,
                f"{excerpt(ahead[0])} cannot follow a value in a list on line {line}: separate values with commas.",
            )
        return prev_line, (
            f"A comma is probably missing after {excerpt(_last_value(prev))} on line {prev_line}: the values of a "
            "list, and its rows, are separated by commas."
        )
    if kind == "Invalid value":
        if not ahead or at_key:
            start = _open_array(lines, line - 1)
            if start:
                return prev_line, f"A ']' is probably missing: the list that opens on line {start} is not closed."
            return line, f"Line {line} has a key and '=' but no value after it."
        word = re.match(r"[^\s,\]}#]*", ahead).group(0)
        if word in ("True", "False", "TRUE", "FALSE"):
            return line, f"Write {word.lower()} in lower case: TOML's booleans are true and false."
        if word.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            return line, f"{excerpt(word)} is not a number a spec may hold: every number is finite."
        if any(c.isdigit() for c in word) and read_number(word) is None:  # "٣", "３", "－1": not "nan"
            return line, f"{excerpt(word)} is not a number: {number_advice(word)}."
        if ahead[:1] in "“”‘’«»„":
            return line, "Use straight quotes (\" or ') around text, not typographic ones (“ ” ‘ ’)."
        return line, f'{excerpt(word)} is not a value: text goes in double quotes ("..."), numbers as digits.'
    if kind.startswith("Illegal character") or kind in ("Unterminated string", "Expected '\"'", 'Expected "\'"'):
        if kind.startswith("Illegal character") and "\\n" not in kind:
            return line, (
                "A string holds a character that TOML does not allow as typed (a control character): "
                "write it as an escape such as \\u0009."
            )
        if kind == "Unterminated string":
            opened = max((i + 1 for i, s in enumerate(lines) if '"""' in s or "'''" in s), default=line)
            return opened, f"A string is not closed: the multi-line string that opens on line {opened} is never closed."
        start = _string_start(lines, line)
        return start, f"A string is not closed: the closing quote is missing on line {start}."
    if kind.startswith(("Cannot declare", "Cannot redefine", "Cannot mutate")):
        return line, f"Line {line} declares a table again ({excerpt(here.strip(), 40)}); a spec holds no tables."
    if kind == "Cannot overwrite a value" or kind.startswith("Duplicate inline table key"):
        # tomllib names the end of the second value: a multi-line one's key is lines above it
        at = next((i for i in range(line, 0, -1) if _key_of(lines[i - 1]) is not None), None)
        if at is None:
            return line, "A key is given twice: keep one of them."
        key = _key_of(lines[at - 1])
        first = next((i + 1 for i, text_line in enumerate(lines[: at - 1]) if _key_of(text_line) == key), None)
        also = f" (on line {first} and on line {at})" if first else ""
        return at, f"The key {excerpt(key)} is given twice{also}: keep one of them."
    if kind == "Expected '=' after a key in a key/value pair":
        return line, (
            f"Line {line} is not 'key = value': the '=' is missing, or the key holds a space "
            "(keys are letters, digits, _ and -)."
        )
    if kind == "Expected newline or end of document after a statement":
        if ahead.startswith("]"):
            start = _open_array(lines, line)
            opened = f" (the list that opens on line {start})" if start else ""
            return line, f"A list is closed once too often on line {line}: there is one ']' too many{opened}."
        if ahead.startswith(".") and re.search(r"\d$", prev):
            return line, f"Write a number with a digit after its point: {excerpt(_last_value(prev) + '.0')}."
        if ahead.startswith(","):
            return (
                line,
                f"Line {line} ends its value with a comma: only the values inside a list are separated by commas.",
            )
        return line, (
            f"Line {line} holds something after its value ({excerpt(ahead, 20)}): one key = value a line, and a "
            "comment starts with #."
        )
    if kind in ("Invalid initial character for a key part", "Invalid statement"):
        if prev.endswith(",") and ahead.startswith("}"):
            return line, "An inline table ({...}) may not end with a comma."
        return line, (
            f"Line {line} does not start with a key (key = value): a list closed too early, or a line of values "
            "outside its list?"
        )
    if kind in ("Unescaped '\\' in a string", "Invalid hex value", "Escaped character is not a Unicode scalar value"):
        return line, (
            'A backslash in a "..." string starts an escape: write \\\\ for a backslash, or put the text in '
            "single quotes ('...'), which keep it as typed."
        )
    if kind == "Invalid date or datetime":
        return line, "A value that starts like a date is not one: put text in double quotes."
    return line, "TOML's rules: key = value, one a line; text in double quotes; lists in [ ] with commas."


def _without_comment(line: str) -> str:
    """A line without its comment (a # outside strings)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote and not _escaped(line, i) else quote
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i]
    return line


def _last_value(text: str) -> str:
    """The value that ends ``text``: a row ``[1, 0]`` whole, else the last word."""
    if text.endswith("]"):
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += {"]": 1, "[": -1}.get(text[i], 0)
            if depth == 0:
                return text[i:]
    return re.split(r"[\s,\[=]", text)[-1] or text[-20:]


def _string_start(lines: list[str], line: int) -> int:
    """The line where the string that runs to ``line`` opens: the last line at or above it with an odd count of
    unescaped double quotes."""
    for i in range(min(line, len(lines)) - 1, -1, -1):
        quotes = len(re.findall(r'(?<!\\)"', lines[i]))
        if quotes % 2 == 1:
            return i + 1
    return line
