// Wide display math and wide tables scroll sideways inside their block (Material sets
// overflow: auto on div.arithmatex and .md-typeset__scrollwrap). A keyboard user can scroll
// such a block only if it can take focus, so each one that overflows gets tabindex="0"
// (axe-core rule scrollable-region-focusable, serious). Blocks that fit get no tab stop.
// Runs on every page Material shows, again once katex.js has rendered the math and its fonts
// have loaded, and when the window is resized.
(function () {
  "use strict";

  const scrollable = ".md-typeset div.arithmatex, .md-typeset .md-typeset__scrollwrap";

  function update() {
    for (const element of document.querySelectorAll(scrollable)) {
      const overflows = element.scrollWidth > element.clientWidth + 1;
      if (overflows && !element.hasAttribute("tabindex")) {
        element.setAttribute("tabindex", "0");
        element.setAttribute("data-scrollable", "");
      } else if (!overflows && element.hasAttribute("data-scrollable")) {
        element.removeAttribute("tabindex");
        element.removeAttribute("data-scrollable");
      }
    }
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(update);
  }
  // KaTeX loads and renders after this runs (katex.js), and its fonts arrive later still:
  // both change the width of the math.
  document.addEventListener("katex:rendered", function () {
    update();
    document.fonts.ready.then(update);
  });
  document.fonts.ready.then(update);
  let pending = 0;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(update, 200);
  });
})();
