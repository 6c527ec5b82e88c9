"""publish/mkdocs/page_weight/__init__.py (a hook on every built page): the templates' indentation goes, white space
that is content stays, and mkdocstrings' stylesheet stays only where its output is."""

from __future__ import annotations

from publish.mkdocs.page_weight import collapse_indentation, lighter, without_unused_mkdocstrings_css

CSS = '    <link rel="stylesheet" href="../assets/_mkdocstrings.css">\n'


def test_indentation_becomes_one_line_break_and_content_white_space_stays():
    page = (
        "<nav>\n      <ul>\n        <li>\n          <a href='x'>\n            <span>Home</span>\n"
        "          </a>\n        </li>\n      </ul>\n    </nav>\n"
        "<p>one\n   two  three</p>\n"
        "<pre><code>def f():\n    return 1\n\n\n</code></pre>\n"
        "<p>see <code>a\n   b</code></p><textarea>\n  kept\n</textarea>\n"
        "<script>\n  var s = '\\n    ';\n</script><style>\n  .a {}\n</style>\n"
        '<math><annotation encoding="application/x-tex">\n  x \\\\\n  y\n</annotation></math>\n'
    )
    assert collapse_indentation(page) == (
        "<nav>\n<ul>\n<li>\n<a href='x'>\n<span>Home</span>\n</a>\n</li>\n</ul>\n</nav>\n"
        "<p>one\ntwo  three</p>\n"
        "<pre><code>def f():\n    return 1\n\n\n</code></pre>\n"
        "<p>see <code>a\n   b</code></p><textarea>\n  kept\n</textarea>\n"
        "<script>\n  var s = '\\n    ';\n</script><style>\n  .a {}\n</style>\n"
        '<math><annotation encoding="application/x-tex">\n  x \\\\\n  y\n</annotation></math>\n'
    )
    assert collapse_indentation(collapse_indentation(page)) == collapse_indentation(page)


def test_mkdocstrings_css_only_on_a_page_with_its_output():
    plain = f"<head>\n{CSS}</head><body><p>x</p></body>"
    api = f'<head>\n{CSS}</head><body><div class="doc doc-object doc-function">f</div></body>'
    assert without_unused_mkdocstrings_css(plain) == "<head>\n</head><body><p>x</p></body>"
    assert without_unused_mkdocstrings_css(api) == api
    assert "_mkdocstrings.css" in lighter(api) and "_mkdocstrings.css" not in lighter(plain)
