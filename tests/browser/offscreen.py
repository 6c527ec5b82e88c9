"""What the site skips off screen (content-visibility: auto, extra.css), for the browser tests:
the blocks (test_offscreen.py holds the stylesheet and scrollable.js to this list), and a script
that conftest.py runs before every page's own, which lays them out wherever they are."""

OFFSCREEN = (".md-typeset div.arithmatex", ".md-typeset .md-typeset__scrollwrap")
LAY_OUT_ALL = f"""(() => {{
  const sheet = new CSSStyleSheet();
  sheet.replaceSync("{", ".join(OFFSCREEN)} {{ content-visibility: visible !important; }}");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}})()"""
