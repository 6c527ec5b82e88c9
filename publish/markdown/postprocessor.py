"""A Python-Markdown extension made of one postprocessor: a function from the page's HTML to its
HTML, run once the raw HTML and the fenced blocks are back in it (Python-Markdown's ``raw_html``
postprocessor has priority 30; a lower priority runs later). publish/markdown/code_markup.py and
publish/markdown/path_breaks.py are two.

And :func:`outside_verbatim`, the one way a pass over a page's HTML leaves alone the elements whose
text is not markup to it (``VERBATIM``): path_breaks here, and the pages' indentation collapsed
after the build (publish/mkdocs/page_weight/__init__.py)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from markdown import Extension
from markdown.postprocessors import Postprocessor

# Elements whose text a pass over the HTML leaves as it is: white space and "<" there are content
# (a code block, a form's text, a script or a stylesheet, MathML, whose spaces KaTeX placed). None of
# them nests in itself, so each ends at its first closing tag.
VERBATIM = ("pre", "textarea", "script", "style", "math")


@functools.cache
def _verbatim(tags: tuple[str, ...]) -> re.Pattern:
    return re.compile(rf"<({'|'.join(tags)})\b.*?</\1\s*>", re.S | re.I)


def outside_verbatim(html: str, fn: Callable[[str], str], tags: tuple[str, ...] = VERBATIM) -> str:
    """``html`` with ``fn`` applied to each stretch outside the elements ``tags`` names (each kept
    whole, from its opening tag to its first closing tag)."""
    out, last = [], 0
    for m in _verbatim(tags).finditer(html):
        out += [fn(html[last : m.start()]), m.group(0)]
        last = m.end()
    out.append(fn(html[last:]))
    return "".join(out)


class _Postprocessor(Postprocessor):
    def __init__(self, md, fn: Callable[[str], str]):
        super().__init__(md)
        self.fn = fn

    def run(self, text: str) -> str:
        return self.fn(text)


class PostprocessorExtension(Extension):
    def __init__(self, fn: Callable[[str], str], name: str, priority: float, **kwargs):
        self.fn, self.name, self.priority = fn, name, priority
        super().__init__(**kwargs)

    def extendMarkdown(self, md):  # noqa: N802 - Python-Markdown's name
        md.postprocessors.register(_Postprocessor(md, self.fn), self.name, self.priority)
