"""publish/markdown/katex_math.py puts KaTeX's HTML in a page a little shorter than KaTeX writes it: the
<math> without its xmlns, the inline styles without leading zeros and last ';'. Chromium shows that
formulas look the same (tests/browser/test_katex_markup_look.py)."""

from __future__ import annotations

import re

from publish.markdown.katex_math import in_page, plain_text, render

XMLNS = 'xmlns="http://www.w3.org/1998/Math/MathML"'


def test_the_math_element_loses_only_its_namespace_attribute():
    for tex, display in [(r"\sqrt{d_k}", False), (r"\frac{QK^\top}{\sqrt{d_k}}", True)]:
        written, shown = render(tex, display), in_page(tex, display)
        assert XMLNS in written and XMLNS not in shown
        assert shown.count("<math") == 1 and '<math data-search-exclude=""' in shown
        assert ('<math data-search-exclude="" display="block">' in shown) is display
        # the same markup once the styles are read back at full length
        longer = re.sub(r'style="([^"]*)"', lambda m: f'style="{m.group(1)};"', shown)
        longer = re.sub(r"(?<![\w.])\.(?=\d)", "0.", longer)
        assert longer.replace('<math data-search-exclude=""', f"<math {XMLNS}") == written


def test_inline_styles_are_shorter_and_say_the_same():
    shown = in_page(r"\frac{QK^\top}{\sqrt{d_k}}", True)
    styles = re.findall(r'style="([^"]*)"', shown)
    assert styles and not any(s.endswith(";") or re.search(r"(?<![\w.])0\.\d", s) for s in styles)
    assert re.search(r":-\.\d", shown)  # a negative value shortened too (-0.686em -> -.686em)
    assert plain_text(r"\sqrt{d_k}") == "√(d_k)"  # reads render()'s MathML, namespace and all
