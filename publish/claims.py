"""A Python-Markdown extension that removes claims from the rendered page.

In the Markdown a number says which quantity it is: ``66.5%{{weights[bank, bank]}}``. The
numbers audit (:mod:`publish.audit`) reads the claim; the reader sees ``66.5%``. A line that
declares the source of the claims below it (``<!-- audit source: bank_of_river -->``) is
removed too, so the page's HTML is what it would be without the audit's markup. Registered in
mkdocs.yml under ``markdown_extensions`` as ``publish.claims``.

The pattern runs after inline code and math are set aside (priority below the backtick's 190
and pymdownx.arithmatex's 189.9), so a claim written inside code or math is shown as written,
and before links, attribute lists and emphasis see the text.
"""

from __future__ import annotations

from markdown import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.preprocessors import Preprocessor

from .audit.claims import CLAIM
from .audit.page import SOURCE_DECLARATION


class _Claim(InlineProcessor):
    def handleMatch(self, m, data):  # noqa: N802 (Python-Markdown's name)
        return "", m.start(0), m.end(0)


class _Declarations(Preprocessor):
    def run(self, lines):
        return [line for line in lines if not SOURCE_DECLARATION.match(line)]


class ClaimsExtension(Extension):
    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        md.inlinePatterns.register(_Claim(CLAIM.pattern, md), "publish-claims", 185)
        # After fenced code is set aside (25), so a declaration shown in a code block stays;
        # before raw HTML blocks are (20).
        md.preprocessors.register(_Declarations(md), "publish-claims-sources", 22)


def makeExtension(**kwargs):  # noqa: N802 (Python-Markdown's name)
    return ClaimsExtension(**kwargs)
