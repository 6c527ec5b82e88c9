"""publish.markdown.path_breaks: a file path in a table cell, and a long name elsewhere, get line-break
opportunities between their parts, and nothing else changes (tests/browser/test_phone.py checks
how they break on a phone)."""

from __future__ import annotations

import markdown

from publish.markdown.path_breaks import break_paths


def test_a_path_in_a_cell_breaks_after_slashes_and_underscores():
    html = "<td><code>snippets/examples/river_bank_numpy.py</code>, <code>_torch.py</code></td>"
    assert break_paths(html) == (
        "<td><code>snippets/<wbr>examples/<wbr>river_<wbr>bank_<wbr>numpy.py</code>, <code>_torch.py</code></td>"
    )


def test_only_table_cells_and_only_paths_change():
    html = (
        "<p><code>docs/examples/x.md</code></p><th><code>a_b</code> <code>a &lt;b&gt;/c</code></th>"
        "<pre><code>x/y</code></pre><td>docs/a_b</td>"
    )
    assert break_paths(html) == (
        "<p><code>docs/examples/x.md</code></p><th><code>a_b</code> <code>a &lt;b&gt;/<wbr>c</code></th>"
        "<pre><code>x/y</code></pre><td>docs/a_b</td>"
    )


def test_the_extension_runs_in_markdown_and_leaves_the_text_as_typed():
    source = "| File | What |\n|---|---|\n| `docs/a_b/<i>.md` | x |\n"
    html = markdown.markdown(source, extensions=["tables", "publish.markdown.path_breaks"])
    assert "<code>docs/<wbr>a_<wbr>b/<wbr>&lt;i&gt;.md</code>" in html


def test_a_long_name_in_the_text_breaks_after_dots_and_underscores():
    html = (
        "<p><code>torch.nn.functional.scaled_dot_product_attention</code>, <code>np.float64</code>, "
        "<code>selfattn_ref/examples/rnn/x.toml</code>, <code>a long phrase of code words</code></p>"
    )
    assert break_paths(html) == (
        "<p><code>torch.<wbr>nn.<wbr>functional.<wbr>scaled_<wbr>dot_<wbr>product_<wbr>attention</code>, "
        "<code>np.float64</code>, <code>selfattn_<wbr>ref/<wbr>examples/<wbr>rnn/<wbr>x.toml</code>, "
        "<code>a long phrase of code words</code></p>"
    )


def test_code_blocks_and_highlighted_code_are_left_alone():
    html = (
        '<div class="highlight"><pre><span></span><code>torch.nn.functional.scaled_dot_product_attention'
        '</code></pre></div><p><code class="highlight">torch.nn.functional.scaled_dot_product</code></p>'
    )
    assert break_paths(html) == html
