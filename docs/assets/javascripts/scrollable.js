// Wide display math and wide tables scroll sideways inside their block (Material sets
// overflow: auto on div.arithmatex and .md-typeset__scrollwrap). A keyboard user can scroll
// such a block only if it can take focus, so each one that overflows gets tabindex="0"
// (axe-core rule scrollable-region-focusable, serious). Blocks that fit get no tab stop.
// Runs on every page Material shows, again once the fonts (KaTeX's among them) have loaded, and
// when the window is resized.
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

  // The math is rendered when the site is built, but KaTeX's fonts arrive after the page (and
  // after an instant navigation, a new page's formulas may need more): they change its width.
  function updateNowAndWithFonts() {
    update();
    document.fonts.ready.then(update);
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(updateNowAndWithFonts);
  } else {
    updateNowAndWithFonts();
  }
  let pending = 0;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(update, 200);
  });
})();
