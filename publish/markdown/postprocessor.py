"""A Python-Markdown extension made of one postprocessor: a function from the page's HTML to its
HTML, run once the raw HTML and the fenced blocks are back in it (Python-Markdown's ``raw_html``
postprocessor has priority 30; a lower priority runs later). publish/markdown/code_markup.py and
publish/markdown/html_comments.py are two."""

from __future__ import annotations

from collections.abc import Callable

from markdown import Extension
from markdown.postprocessors import Postprocessor


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
