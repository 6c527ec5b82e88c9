"""Python-Markdown extension (mkdocs.yml, ``markdown_extensions: - publish.markdown.katex_math``): the math
that pymdownx.arithmatex (``generic: true``) marks up, rendered to HTML when the site is built.

arithmatex leaves ``<span class="arithmatex">\\(...\\)</span>`` and ``<div class="arithmatex">\\[...\\]</div>``
for a script to render in the reader's browser. This extension renders them with the vendored KaTeX
itself (docs/assets/vendor/katex/katex.min.js, the file the browser ran before), executed in-process
by V8 through the ``mini-racer`` package: the HTML is byte for byte what ``katex.renderToString``
gives in Chromium (tests/browser/test_katex_look.py), so the formulas look as before, in light and
dark, with only ``katex.min.css`` and its fonts on the page. The output is KaTeX's default
``htmlAndMathml``: the HTML for the eye (``aria-hidden``) and MathML for screen readers; the MathML
is kept out of the search index (:func:`in_page`), which then holds each formula once, as shown.

- Each element keeps its ``arithmatex`` wrapper (Material's styles and assets/javascripts/scrollable.js
  find display math by it); its TeX is replaced by KaTeX's HTML.
- A heading that holds math gets a ``data-toc-label`` in plain Unicode text (``Why −∞ before ...``):
  the table of contents, the page title and the navigation hold text, not markup. Its ``id`` is
  still made by the ``toc`` extension from the heading, as before.
- A formula that KaTeX rejects (a parse error, or LaTeX-incompatible input: ``strict: "error"``)
  raises :class:`KatexError` naming the formula and the text around it; MkDocs names the page
  ("Error reading page 'masking.md': ...") and the build stops.
- The JavaScript engine starts once per process and KaTeX loads into it once (``_engine``); each
  distinct ``(tex, display)`` is rendered once (``render`` is cached).

:func:`render` and :func:`plain_text` are also called by the notebook pages' hook for the math of
the Markdown cells, which mkdocs-jupyter renders without Python-Markdown.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import functools
import html
import json
import queue
import re
import threading
import xml.etree.ElementTree as etree
from pathlib import Path

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

KATEX_JS = Path(__file__).resolve().parents[2] / "docs" / "assets" / "vendor" / "katex" / "katex.min.js"

# The options of every render, here and in the browser test that compares against Chromium.
OPTIONS = {"output": "htmlAndMathml", "throwOnError": True, "strict": "error"}

# A function in the engine that returns JSON: {"html": ...} or {"error": KaTeX's message}. An
# exception thrown out of the engine would carry the whole minified source line in its text.
_RENDER_JS = """
function __katexMath(tex, display, options) {
  try {
    return JSON.stringify({ html: katex.renderToString(tex, Object.assign({ displayMode: display }, options)) });
  } catch (error) {
    return JSON.stringify({ error: String(error && error.message ? error.message : error) });
  }
}
"""


class KatexError(ValueError):
    """KaTeX rejected a formula; the message names it (and, from the extension, the text around it)."""


class _Engine:
    """A V8 isolate with KaTeX loaded, owned by one thread of its own, which makes it, runs every
    call and closes it at exit: V8 crashes the process (exit -11) when an isolate made in one thread
    is freed from another after that thread has ended, which is what happens when a build renders
    pages in worker threads (Zensical does) and the interpreter closes the engine at exit. The
    thread is a daemon (it never holds up the interpreter's exit); an ``atexit`` handler asks it to
    close the engine first: left to the garbage collector, mini-racer (0.14) waits forever at
    interpreter shutdown for its event-loop thread, which is gone by then."""

    def __init__(self) -> None:
        self._calls: queue.Queue = queue.Queue()
        self._closed = False
        ready = self._submit(self._start)
        threading.Thread(target=self._serve, name="katex-v8", daemon=True).start()
        ready.result()  # KatexError (KaTeX missing) raised here, in the caller's thread
        atexit.register(self.close)

    @staticmethod
    def _start():
        from py_mini_racer import MiniRacer  # imported here: a site without math never starts V8

        if not KATEX_JS.is_file():
            raise KatexError(f"KaTeX is missing: {KATEX_JS} (scripts/vendor_katex.sh vendors it)")
        engine = MiniRacer()
        engine.eval(KATEX_JS.read_text(encoding="utf-8"))
        engine.eval(_RENDER_JS)
        return engine

    def _submit(self, fn) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._calls.put((fn, future))
        return future

    def _serve(self) -> None:
        engine = None
        while True:
            fn, future = self._calls.get()
            try:
                result = fn() if engine is None else fn(engine)
            except BaseException as exc:  # handed to the caller, who raises it
                future.set_exception(exc)
                continue
            if engine is None:
                engine = result
            future.set_result(result)

    def call(self, name: str, *args):
        """``engine.call(name, *args)`` in the engine's thread; its result."""
        if self._closed:
            raise RuntimeError("the KaTeX engine is closed (the interpreter is exiting)")
        return self._submit(lambda engine: engine.call(name, *args)).result()

    def eval(self, js: str):
        """``engine.eval(js)`` in the engine's thread; its result."""
        if self._closed:
            raise RuntimeError("the KaTeX engine is closed (the interpreter is exiting)")
        return self._submit(lambda engine: engine.eval(js)).result()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._submit(lambda engine: engine.close()).result(timeout=30)


@functools.cache
def _engine() -> _Engine:
    """The engine: made on first use, once per process."""
    return _Engine()


def evaluate(js: str):
    """The value of the JavaScript ``js``, evaluated in the engine (KaTeX loaded): the one V8 isolate
    of the process, for other checks too, since a second isolate in another thread can crash V8."""
    return _engine().eval(js)


def _delimited(tex: str, display: bool) -> str:
    return f"\\[{tex}\\]" if display else f"\\({tex}\\)"


@functools.cache
def render(tex: str, display: bool = False) -> str:
    """KaTeX's HTML for the formula ``tex`` (display math if ``display``), as
    ``katex.renderToString(tex, {displayMode: display, ...OPTIONS})``. Raises :class:`KatexError`
    with KaTeX's message and the formula if KaTeX rejects it."""
    if not isinstance(tex, str):
        raise TypeError(f"tex must be a str, got {type(tex).__name__}")
    result = json.loads(_engine().call("__katexMath", tex, display, OPTIONS))
    if "error" in result:
        raise KatexError(f"KaTeX cannot render the formula {_delimited(tex, display)}: {result['error']}")
    return result["html"]


_XMLNS = ' xmlns="http://www.w3.org/1998/Math/MathML"'
_STYLE = re.compile(r'style="([^"]*)"')
_LEADING_ZERO = re.compile(r"(?<![\w.])0\.(?=\d)")


def _short_style(match: re.Match) -> str:
    return 'style="' + _LEADING_ZERO.sub(".", match.group(1)).removesuffix(";") + '"'


def in_page(tex: str, display: bool = False) -> str:
    """:func:`render`'s HTML as it goes into a page: its ``<math>`` (the MathML for screen readers and
    the TeX in its ``<annotation>``) marked ``data-search-exclude``, so that Material's search index
    holds the formula once, as the reader sees it (KaTeX's HTML), and not three times over
    (``dk\\sqrt{d_k}dk`` for ``\\sqrt{d_k}``). Material ends an exclusion at the first closing tag
    of the same name, and a ``<math>`` holds no other ``<math>``. The look does not change.

    Shorter by what a page does not need (about 50 bytes a formula): the ``<math>`` without its
    ``xmlns`` (an HTML parser puts ``<math>`` in the MathML namespace without it; nothing reads the
    attribute, and :func:`plain_text` reads :func:`render`'s MathML, which keeps it), and KaTeX's
    inline styles without a number's leading zero and the last ``;`` (``height:0.5em;`` →
    ``height:.5em``, the same values). tests/browser/test_katex_markup_look.py shows each formula
    of the site lays out the same both ways."""
    rendered = render(tex, display).replace("<math" + _XMLNS, "<math", 1)
    rendered = re.sub(r"<math\b", '<math data-search-exclude=""', rendered, count=1)
    return _STYLE.sub(_short_style, rendered)


# Plain text of a formula, for places that hold text only (the table of contents, the page's
# title): the text of KaTeX's MathML, with the structure that flat text would lose written out.
_MATHML = re.compile(r"<math\b.*?</math>", re.S)
_NS = "{http://www.w3.org/1998/Math/MathML}"
_JOINED_SUPERSCRIPTS = {"⊤", "′", "″", "∗", "*", "+", "−", "T"}


def _grouped(text: str) -> str:
    return text if len(text) <= 1 or text.isalnum() else f"({text})"


def _text(el: etree.Element) -> str:
    tag = el.tag.removeprefix(_NS)
    parts = [_text(child) for child in el]
    if tag == "annotation":
        return ""
    if tag == "msqrt":
        return "√" + _grouped("".join(parts))
    if tag == "mfrac" and len(parts) == 2:
        return f"{_grouped(parts[0])}/{_grouped(parts[1])}"
    if tag == "msub" and len(parts) == 2:
        return f"{parts[0]}_{_grouped(parts[1])}"
    if tag == "msup" and len(parts) == 2:
        return parts[0] + (parts[1] if parts[1] in _JOINED_SUPERSCRIPTS else f"^{_grouped(parts[1])}")
    if tag == "mspace":
        return " "
    return (el.text or "") + "".join(parts)


@functools.cache
def plain_text(tex: str) -> str:
    """The formula as plain Unicode text, as a reader would type it: ``-\\infty`` → ``−∞``,
    ``\\sqrt{d_k}`` → ``√(d_k)``, ``QK^\\top`` → ``QK⊤``. Raises :class:`KatexError` as :func:`render`."""
    mathml = _MATHML.search(render(tex))
    if mathml is None:  # not with OPTIONS' output, which always has MathML
        raise KatexError(f"KaTeX gave no MathML for {_delimited(tex, False)}")
    text = _text(etree.fromstring(mathml.group(0)))
    return re.sub(r"\s+", " ", text).strip()


_WRAPPED = re.compile(r"\A\s*\\\((?P<inline>.*)\\\)\s*\Z|\A\s*\\\[(?P<display>.*)\\\]\s*\Z", re.S)
_HEADING = re.compile(r"h[1-6]")
_PHRASING = {"span", "em", "strong", "a", "code", "sub", "sup", "small", "mark", "abbr"}


def _math_of(el: etree.Element) -> tuple[str, bool] | None:
    """``(tex, display)`` of an element that arithmatex made, else None."""
    if "arithmatex" not in (el.get("class") or "").split() or len(el) or el.text is None:
        return None
    match = _WRAPPED.match(el.text)
    if match is None:
        return None
    if match.group("display") is not None:
        return html.unescape(match.group("display")), True  # arithmatex escapes a block's TeX (&lt;)
    return match.group("inline"), False  # but not an inline formula's


def _context(el: etree.Element, parents: dict) -> str:
    """The text of the block around ``el`` (its paragraph, list item or heading), for a message."""
    while el in parents and el.tag in _PHRASING:
        el = parents[el]
    text = " ".join("".join(el.itertext()).split())
    return text if len(text) <= 160 else text[:157] + "..."


def _label(heading: etree.Element) -> str:
    """A heading's text with each formula as :func:`plain_text`."""
    parts = [heading.text or ""]
    for child in heading:
        math = _math_of(child)
        parts.append(plain_text(math[0]) if math else _label(child))
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


class HeadingLabels(Treeprocessor):
    """Before ``toc``: a heading that holds math gets a ``data-toc-label`` in plain text, which
    ``toc`` takes as the heading's name. Its ``id`` is still made by ``toc`` from the heading's
    text with the TeX in it, as before this extension (``why-infty-before-...``)."""

    def run(self, root: etree.Element) -> None:
        for heading in root.iter():
            if not (isinstance(heading.tag, str) and _HEADING.fullmatch(heading.tag)):
                continue
            if "data-toc-label" in heading.attrib or not any(_math_of(el) for el in heading.iter()):
                continue
            try:
                label = _label(heading)
            except KatexError as error:
                raise KatexError(f"{error}\n  in the heading: {_context(heading, {})}") from None
            # escaped: toc reads a label as HTML (it strips the tags from it)
            heading.set("data-toc-label", html.escape(label, quote=False))


# Punctuation that may not start a line: after an inline formula, the browser would still break
# there (KaTeX's boxes are inline-blocks, and a word joiner does not hold one to the next word).
_CLOSING = re.compile(r"\A[.,;:!?)\]’”]+")
_BOX = re.compile(r'class="katex-base"')  # one box of KaTeX's HTML (0.19: "katex-base")
SHORT = 16  # characters of a formula's plain text that may stay on one line whatever it holds


def closing_punctuation(text: str) -> str:
    """The punctuation at the start of ``text`` that may not start a line ("" if none)."""
    found = _CLOSING.match(text or "")
    return found.group(0) if found else ""


def keeps_to_its_punctuation(tex: str, rendered: str) -> bool:
    """Whether an inline formula is held on one line with the punctuation right after it (in a
    ``<span class="nowrap">``, extra.css): one of one box, which KaTeX never breaks (it breaks a
    formula only between its boxes, at its top relations and operators), or a short one ("2 × 256
    = 512", at most SHORT characters as text), which a line has room for. On a phone, the colon of
    "of width $d$:" was left alone at the start of a line, and the full stop after "√64 = 8"."""
    return len(_BOX.findall(rendered)) == 1 or len(plain_text(tex)) <= SHORT


def held_whole(tex: str, rendered: str) -> bool:
    """Whether an inline formula with no punctuation after it is kept whole on its line (its own
    element gets the class ``nowrap``): a short one (at most SHORT characters as text) of several
    boxes, which KaTeX would let a phone break after its "=" or its "+" ("K =" at the end of one line
    and "X W_K" at the start of the next, "d =" and "512"). A formula of one box never breaks, and a
    long one may, between its boxes."""
    return len(plain_text(tex)) <= SHORT and len(_BOX.findall(rendered)) > 1


def _keep_with_punctuation(el: etree.Element, parents: dict) -> None:
    """The formula ``el`` and the punctuation in its tail, in a ``<span class="nowrap">``."""
    punctuation = closing_punctuation(el.tail)
    parent = parents.get(el)
    if not punctuation or parent is None:
        return
    wrapper = etree.Element("span", {"class": "nowrap"})
    wrapper.tail = el.tail[len(punctuation) :]
    el.tail = punctuation
    parent.insert(list(parent).index(el), wrapper)
    parent.remove(el)
    wrapper.append(el)


# A display formula's line, in its own em (KaTeX's font size): the union of each box's strut (KaTeX
# gives each box of its HTML one, as tall above the baseline as the box and as deep below it) and of
# the line that KaTeX_Main at line-height 1.2 makes, .909em above the baseline and .3473em below
# (measured in Chromium at 17.6 and 19.36 px: every display formula of the site within half a pixel).
_STRUT = re.compile(r'class="katex-strut" style="height:([\d.]+)em(?:;vertical-align:(-?[\d.]+)em)?"')
LINE_ABOVE, LINE_BELOW = 0.909, 0.3473


def display_height(rendered: str) -> float:
    """The height of a display formula's line in em of KaTeX's font (without the formula's margins),
    from the struts of :func:`in_page`'s HTML: what extra.css makes the placeholder of a formula that
    the browser has not laid out yet (off screen), so that the page does not move when it is."""
    struts = [(float(h), -float(v or 0)) for h, v in _STRUT.findall(rendered)]
    if not struts:
        raise ValueError("a display formula's HTML without KaTeX's struts (class katex-strut)")
    above = max(LINE_ABOVE, *(height - depth for height, depth in struts))
    below = max(LINE_BELOW, *(depth for _, depth in struts))
    return round(above + below, 4)


def height_style(rendered: str) -> str:
    """The ``style`` of a display formula's wrapper: its line's height (--math-height, extra.css)."""
    return f"--math-height:{display_height(rendered):g}"


class KatexTreeprocessor(Treeprocessor):
    """After ``toc``: each arithmatex element's TeX becomes KaTeX's HTML, stashed raw so that it
    reaches the page unchanged; an inline formula of one box, or a short one, is kept on a line
    with the punctuation after it, and a short one is kept whole."""

    def run(self, root: etree.Element) -> None:
        parents = {child: parent for parent in root.iter() for child in parent}
        found = [(el, math) for el in root.iter() if (math := _math_of(el)) is not None]
        for el, (tex, display) in found:
            try:
                rendered = in_page(tex, display)
            except KatexError as error:
                raise KatexError(f"{error}\n  in: {_context(el, parents)}") from None
            el.text = self.md.htmlStash.store(rendered)
            if display:
                el.set("style", height_style(rendered))
                continue
            if closing_punctuation(el.tail) and keeps_to_its_punctuation(tex, rendered):
                _keep_with_punctuation(el, parents)
            elif held_whole(tex, rendered):
                el.set("class", f"{el.get('class', '')} nowrap".strip())


class KatexExtension(Extension):
    def extendMarkdown(self, md) -> None:
        md.registerExtension(self)
        # After the inline patterns (20; arithmatex's is one) and attr_list (8; an author's own
        # {data-toc-label=...}), on each side of toc (5).
        md.treeprocessors.register(HeadingLabels(md), "katex_math_labels", 6)
        md.treeprocessors.register(KatexTreeprocessor(md), "katex_math", 4)


def makeExtension(**kwargs) -> KatexExtension:
    return KatexExtension(**kwargs)
