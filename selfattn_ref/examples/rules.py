"""What a worked example may hold: the one definition of a valid token, title and description,
and the limits, shared by the spec check (:func:`selfattn_ref.examples.load_text`), the command
line (``python -m selfattn_ref explain``) and the playground (the publishing tools write
:data:`LIMITS` to ``docs/generated/playground/limits.js``, which the playground's JavaScript imports).

- A **token** is one word: 1 to ``LIMITS["tokenLength"]`` characters, none of them a space, a
  control or format character (Unicode categories Cc, Cf, Zs, Zl, Zp), nor one of
  :data:`TOKEN_FORBIDDEN`; the tokens of one example differ from each other.
- A **title** is one line of 1 to ``LIMITS["titleLength"]`` characters, without control or
  format characters, without spaces at either end, and without ``<``, ``>`` or ``&`` (the
  site's theme puts a title into HTML as it is, in several places).
- A **description** is plain prose, in paragraphs separated by blank lines, of at most
  ``LIMITS["descriptionLength"]`` characters, with three kinds of inline Markdown:
  ``*emphasis*`` / ``**strong**``, ```code``` and links to a page of this site
  (``[Masking](../masking.md)``, a relative ``.md`` path with an optional ``#anchor``).
  Everything else is shown as typed (the publishing tools escape it); refused outright, since
  they would mean something else than typed: HTML tags and comments, includes (``--8<--``),
  braces (``{ ... }``, attribute lists), images, links with any other target (``http:``,
  ``javascript:``, ...), and control characters other than line breaks and tabs.
- Numbers: every number of the spec is at most ``LIMITS["magnitude"]`` in size, and every
  number the example's page prints is finite and under :data:`MAX_PRINTED` (checked by the
  loader on the computed steps), so that it prints in full at the spec's decimals.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

LIMITS = {
    "words": 16,  # tokens per example (the playground's words)
    "dims": 16,  # numbers per embedding
    "tokenLength": 24,  # characters per token (the playground's word names)
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
_INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp"}


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in _INVISIBLE


def shown(ch: str) -> str:
    """A character as a message names it: ``'<'``, or ``U+000D`` for one that does not print."""
    return f"U+{ord(ch):04X}" if _invisible(ch) or ch in "'\"" else repr(ch)


def token_problem(token) -> str | None:
    """Why ``token`` is not a valid token, or None."""
    if not isinstance(token, str) or not token:
        return "a token must be a non-empty string"
    n = LIMITS["tokenLength"]
    if len(token) > n:
        return f"token {token[:n]!r}... has {len(token)} characters; at most {n}"
    for ch in token:
        if _invisible(ch):
            return f"token {token!r} holds {shown(ch)}: a token is one word, without spaces or control characters"
        if ch in TOKEN_FORBIDDEN:
            return f"token {token!r} holds {ch!r}: a token may not hold any of {' '.join(TOKEN_FORBIDDEN)}"
    return None


def tokens_problem(tokens) -> str | None:
    """Why ``tokens`` is not a valid list of tokens, or None."""
    if not isinstance(tokens, list) or not tokens:
        return "'tokens' must be a non-empty list of strings"
    if len(tokens) > LIMITS["words"]:
        return f"'tokens' has {len(tokens)} tokens; at most {LIMITS['words']}"
    for t in tokens:
        if problem := token_problem(t):
            return problem
    seen: set[str] = set()
    for t in tokens:
        if t in seen:
            return f"token {t!r} appears twice; every token needs a name of its own (for example {t + '2'!r})"
        seen.add(t)
    return None


def title_problem(title) -> str | None:
    """Why ``title`` is not a valid title, or None."""
    n = LIMITS["titleLength"]
    if not isinstance(title, str) or not title.strip():
        return "'title' must be a non-empty string"
    for ch in title:
        if ch in "\n\r":
            return "'title' must be one line"
        if _invisible(ch) and ch != " ":
            return f"'title' holds {shown(ch)}, a control character"
        if ch in TITLE_FORBIDDEN:
            return f"'title' holds {ch!r}: a title may not hold any of {' '.join(TITLE_FORBIDDEN)}"
    if title != title.strip():
        return "'title' must not begin or end with a space"
    if len(title) > n:
        return f"'title' has {len(title)} characters; at most {n}"
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
    (re.compile(r"[{}]"), "holds a brace ({found}); braces would make an attribute list"),
    (re.compile(r"!\["), "holds an image ({found}); images are not allowed"),
)


class DescriptionError(ValueError):
    """What is wrong with a description; ``found`` is the text at fault (to find its line)."""

    def __init__(self, message: str, found: str):
        super().__init__(message)
        self.found = found


def _clip(s: str) -> str:
    return repr(s if len(s) <= 40 else s[:40] + "...")


def description_parts(text: str) -> list[list[Part]]:
    """The paragraphs of a description, each a list of parts; DescriptionError if it holds
    anything but plain prose and the inline Markdown allowed (see the module's docstring)."""
    if not isinstance(text, str):
        raise DescriptionError("'description' must be a string", "")
    text = text.replace("\r\n", "\n")
    if len(text) > LIMITS["descriptionLength"]:
        raise DescriptionError(f"'description' has {len(text)} characters; at most {LIMITS['descriptionLength']}", "")
    for ch in text:
        if _invisible(ch) and ch not in "\n\t ":
            raise DescriptionError(f"'description' holds {shown(ch)}, a control character", ch)
    for pattern, message in _REFUSED:
        if m := pattern.search(text):
            found = text[m.start() : m.start() + 30].split("\n")[0]
            raise DescriptionError("'description' " + message.format(found=_clip(found)), m.group(0))
    paragraphs = []
    for block in re.split(r"\n[ \t]*\n", text.strip()):
        line = " ".join(part.strip() for part in block.split("\n") if part.strip())
        if not line:
            continue
        parts: list[Part] = []
        pos = 0
        for m in _INLINE.finditer(line):
            if m.start() > pos:
                parts.append(Part("text", line[pos : m.start()]))
            if m.group("code"):
                parts.append(Part("code", m.group("code_text")))
            elif m.group("strong") is not None:
                parts.append(Part("strong", m.group("strong")))
            elif m.group("em") is not None:
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
        for part in parts:
            if part.kind == "text" and (m := re.search(r"\]\(", part.text)):
                raise DescriptionError(
                    "'description' holds a link that is not of the form [text](page.md)", part.text[m.start() :]
                )
        paragraphs.append(parts)
    return paragraphs


def description_problem(text) -> DescriptionError | None:
    """The DescriptionError of ``text``, or None if it is a valid description."""
    try:
        description_parts(text)
    except DescriptionError as exc:
        return exc
    return None
