// A link to a place on this page is followed by the browser, and so is a step Back or Forward
// between two places of it, until Material's instant navigation has shown another page.
//
// Material (9.8) takes every click on a link of the site, and every step through the history
// (popstate, which Chromium also fires when the browser follows a link to a place on the page), and
// fetches the page it names unless it is the one it fetched last. On the first link to a place on
// the page after a load it had fetched none: it fetched the page again and put the copy in place of
// the page. The reader lost what they had done on it (an answer typed into an exercise, a block
// opened), every formula and table was laid out again from its placeholder, so that the page moved
// after landing (23 to 210 px on a phone), and the page was downloaded twice. Until Material has
// shown another page, neither reaches it: the browser follows the link (and scrolls back on Back,
// which Material turns off once it navigates). Afterwards Material has an address to compare with:
// it follows such a link without fetching, and restores the scroll itself. Material keeps its own
// jumps to a place from its navigation the same way, by stopping the click.
//
// This file runs before Material's bundle (overrides/main.html): a popstate listener on the window
// cannot be put before one registered earlier (the browser calls them in the order they came), so
// it must come first.
(function () {
  "use strict";

  var loaded = location.pathname + location.search;
  var shown = 0; // pages shown in this document: the one loaded, then one per instant navigation

  function onThisPage(url) {
    return url.origin === location.origin && url.pathname + url.search === loaded;
  }

  document.addEventListener(
    "click",
    function (event) {
      var link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || !link.hash || !onThisPage(link) || shown > 1) return;
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (link.target || link.hasAttribute("download")) return;
      event.stopPropagation(); // the browser follows it; Material, listening on the body, does not see it
    },
    true,
  );

  window.addEventListener("popstate", function (event) {
    if (shown <= 1 && location.pathname + location.search === loaded) event.stopImmediatePropagation();
  });

  // Material's document$ gives the page once loaded and again after each instant navigation (from
  // disk, modules.js's stand-in gives it once). It exists once the bundle has run.
  document.addEventListener("DOMContentLoaded", function () {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(function () {
        shown += 1;
      });
    }
  });
})();
