"""What the site skips off screen (content-visibility: auto, extra.css), for the browser tests:
the blocks (test_offscreen.py holds the stylesheet and scrollable.js to these lists), and a script
that conftest.py runs before every page's own, which lays them out wherever they are."""

# The blocks that may scroll sideways, which scrollable.js watches (a tab stop for each that does).
SCROLLING = (".md-typeset div.arithmatex", ".md-typeset .md-typeset__scrollwrap")
# Those of them skipped off screen: display math, and the tables of numbers of one word a cell
# (data-one-line, publish/markdown/number_tables.py) but those beside a heatmap; a table of words, or one whose
# headings or labels have words, is laid out with the page.
OFFSCREEN = (
    ".md-typeset div.arithmatex",
    ".md-typeset .md-typeset__scrollwrap:has(table[data-one-line]):not(.weights-figure *)",
)
LAY_OUT_ALL = f"""(() => {{
  const sheet = new CSSStyleSheet();
  sheet.replaceSync("{", ".join(OFFSCREEN)} {{ content-visibility: visible !important; }}");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}})()"""
