"""Text from a spec file, escaped for the place it lands: Markdown (pages, tables, notebooks),
TOML (the scaffold) and Python or JSON (generated scripts, notebooks, presets: written by
``json.dumps``, a serializer, never pasted).

Markdown: every character that the site's Markdown extensions read as markup (mkdocs.yml:
emphasis, code, links, attribute lists, tables, arithmatex's ``$``, headings, raw HTML and
entities) becomes a named HTML character reference, so the text shows as typed and is never
markup. Named, not numeric: the numbers audit reads a page's digits, and ``&#42;`` has some.
"""

from __future__ import annotations

import json
import re
import unicodedata

from selfattn_ref.examples.rules import Part, description_parts

_MD = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "*": "&ast;",
    "_": "&lowbar;",
    "`": "&grave;",
    "[": "&lsqb;",
    "]": "&rsqb;",
    "{": "&lcub;",
    "}": "&rcub;",
    "\\": "&bsol;",
    "|": "&vert;",
    "$": "&dollar;",
    "#": "&num;",
}
# At the start of a line these begin a block (list, admonition, details, tabs, ordered list).
_LINE_START = {"-": "\\-", "+": "\\+", "!": "&excl;", "?": "&quest;", "=": "&equals;", ":": "&colon;"}


def md_text(text: str) -> str:
    """``text`` as Markdown that shows exactly ``text`` and is no markup, inline (mid-line)."""
    return "".join(_MD.get(ch, ch) for ch in str(text))


def md_line(text: str) -> str:
    """As :func:`md_text`, for text that starts a line (a paragraph)."""
    out = md_text(text.lstrip())
    if out[:1] in _LINE_START:
        out = _LINE_START[out[0]] + out[1:]
    digits = len(out) - len(out.lstrip("0123456789"))
    if digits and out[digits : digits + 1] in (".", ")"):
        out = out[:digits] + "\\" + out[digits:]
    return out


def _part(part: Part) -> str:
    if part.kind == "text":
        return md_text(part.text)
    if part.kind == "code":  # raw <code> with escaped content: Markdown's code spans have edge cases
        return f"<code>{md_text(part.text)}</code>"
    # Emphasis as raw HTML too: two parts side by side as asterisks, *x* and *x*, would read back
    # as one, *x**x* (emphasis around "x**x").
    if part.kind == "em":
        return f"<em>{md_text(part.text)}</em>"
    if part.kind == "strong":
        return f"<strong>{md_text(part.text)}</strong>"
    if part.kind == "link":  # the target is checked: a relative path to a page (rules.LINK_TARGET)
        return f"[{md_text(part.text)}]({part.target})"
    raise ValueError(f"unknown part {part.kind!r}")


def md_description(text: str) -> str:
    """A spec's description as Markdown: its paragraphs, with only the inline Markdown the rules
    allow (:mod:`selfattn_ref.examples.rules`); DescriptionError for anything else."""
    paragraphs = []
    for parts in description_parts(text):
        first = md_line(parts[0].text) if parts[0].kind == "text" else _part(parts[0])
        paragraphs.append(first + "".join(_part(p) for p in parts[1:]))
    return "\n\n".join(paragraphs)


# --- notebooks ---------------------------------------------------------------------------------
# A notebook's Markdown cells are read by other renderers than the site's pages: Jupyter's (marked,
# GitHub's flavour: bare http:// and www. addresses and e-mail addresses become links, ~~x~~ and
# ~x~ strike through; then MathJax reads the rendered text: $...$, $$...$$ and \(...\) are math, and
# \$ and \\ are a dollar and a backslash, its processEscapes), and the site's notebook pages
# (nbconvert's mistune, with its url and strikethrough plugins; then the site's KaTeX pass,
# publish/mkdocs/notebook_pages.py, which reads the same escapes as MathJax). A character reference is
# decoded to its character before either math pass reads the text, so a dollar or a backslash of
# the text reaches it escaped: ``&bsol;&dollar;`` and ``&bsol;&bsol;``.

_NB = {**_MD, "$": "&bsol;&dollar;", "\\": "&bsol;&bsol;", "~": "\\~", ":": "&colon;", "@": "&commat;"}
_WWW = re.compile(r"(?i)(?<=www)\.")  # www.example.com: an address GitHub's flavour links


def nb_text(text: str) -> str:
    """``text`` as notebook Markdown that Jupyter and the site's notebook pages show exactly as
    ``text``, and no markup (mid-line), no link, no strikethrough and no math."""
    return _WWW.sub("&period;", "".join(_NB.get(ch, ch) for ch in str(text)))


# In the site's Markdown, what stays as it is in a notebook: fenced code, code spans, math, a link's
# target, an HTML tag or autolink, a character reference (converted apart).
_OPAQUE = re.compile(
    r"^(?P<fence>[ \t]*(?:```|~~~))[^\n]*\n.*?^(?P=fence)[ \t]*$"
    r"|(?P<ticks>`+).+?(?P=ticks)"
    r"|\$\$.+?\$\$"
    r"|(?<![\\$])\$(?![\s$]).*?(?<![\s\\])\$"
    r"|\]\([^)\s]*\)"
    r"|<[^>\n]+>"
    r"|(?P<ref>&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);)",
    re.M | re.S,
)
_IN_TEXT = re.compile(r"\\\$|(?<!\\)~|(?i:(?<=www))\.|:(?=//)|@")
_IN_TEXT_AS = {"\\$": "&bsol;&dollar;", "~": "\\~", ".": "&period;", ":": "&colon;", "@": "&commat;"}
_REF_AS = {"&dollar;": "&bsol;&dollar;", "&bsol;": "&bsol;&bsol;", "&#36;": "&bsol;&dollar;", "&#92;": "&bsol;&bsol;"}


def nb_markdown(text: str) -> str:
    """The site's Markdown ``text`` (a page's, a generated table's) as notebook Markdown that shows
    the same: its markup kept, and what the site shows as text (an escaped dollar or backslash, a
    tilde, a bare address) made text for Jupyter and the notebook pages too (see :func:`nb_text`)."""
    out, at = [], 0
    for m in _OPAQUE.finditer(text):
        out.append(_IN_TEXT.sub(lambda t: _IN_TEXT_AS[t.group(0)], text[at : m.start()]))
        out.append(_REF_AS.get(m.group(0), m.group(0)) if m.group("ref") else m.group(0))
        at = m.end()
    out.append(_IN_TEXT.sub(lambda t: _IN_TEXT_AS[t.group(0)], text[at:]))
    return "".join(out)


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes, which TOML shares, and every control character
    escaped (JSON leaves DEL and C1 controls as they are, TOML does not allow them)."""
    body = json.dumps(str(text), ensure_ascii=False)
    return "".join(f"\\u{ord(ch):04X}" if unicodedata.category(ch) == "Cc" else ch for ch in body)


def py_string(text: str) -> str:
    """A Python string literal of ``text``: the same escapes (JSON's, valid in Python too)."""
    return toml_string(text)
