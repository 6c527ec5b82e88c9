// Wide display math and wide tables scroll sideways inside their block (Material sets
// overflow: auto on div.arithmatex and .md-typeset__scrollwrap). A keyboard user can scroll
// such a block only if it can take focus, so each one that overflows gets tabindex="0"
// (axe-core rule scrollable-region-focusable, serious). Blocks that fit get no tab stop.
//
// Off screen, the browser does not lay these blocks out (content-visibility: auto, extra.css),
// so whether one overflows is not known until the reader scrolls near it. Such a block gets a
// tab stop until then (data-unmeasured): tabbing to it brings it on screen, where it is measured
// and keeps the tab stop only if it overflows (one that fits loses it once focus has left it).
// A block is measured again when the browser shows it, on every page Material shows, once the
// fonts (KaTeX's among them) have loaded, and when the window is resized. A code block that
// scrolls is marked data-scrollable for the edge cue, with no tab stop (Material's; see below). A jump to a heading
// stays at the heading while the blocks near it are laid out (see "A jump to a heading").
(function () {
  "use strict";

  const scrollable = ".md-typeset div.arithmatex, .md-typeset .md-typeset__scrollwrap";
  let fits = new WeakSet(); // measured at this window's width: no overflow
  const waiting = new WeakSet(); // focused blocks that lose their tab stop once focus leaves

  // True when the browser skips the block's contents (off screen); false where it lays them out,
  // and in browsers without content-visibility (there every block is measured).
  function skipped(element) {
    const inside = element.firstElementChild;
    if (!inside || typeof inside.checkVisibility !== "function") return false;
    // Hidden for another reason (a closed <details>, a tab not selected): not focusable anyway.
    if (!element.checkVisibility()) return false;
    return !inside.checkVisibility({ contentVisibilityAuto: true });
  }

  function give(element, state) {
    element.setAttribute("tabindex", "0");
    element.toggleAttribute("data-scrollable", state === "scrollable");
    element.toggleAttribute("data-unmeasured", state === "unmeasured");
  }

  function take(element) {
    if (!element.hasAttribute("data-scrollable") && !element.hasAttribute("data-unmeasured")) return;
    if (element === document.activeElement) {
      // Not while the reader is on it: focus would drop to the page's top.
      if (!waiting.has(element)) {
        waiting.add(element);
        element.addEventListener("blur", () => (waiting.delete(element), measure(element)), { once: true });
      }
      return;
    }
    element.removeAttribute("tabindex");
    element.removeAttribute("data-scrollable");
    element.removeAttribute("data-unmeasured");
  }

  // What measure() does to an element, decided by reading it alone ("take", "unmeasured",
  // "scrollable", "fits", or null: nothing), so that a page's elements are all read before any is
  // written: a write between two reads makes the browser lay the page out again for the second
  // (on the API reference, hundreds of layouts for one load).
  function decide(element) {
    if (skipped(element)) {
      // Off screen: what it was when last shown at this width (a block that fits loses the tab
      // stop it kept while focused, once focus has left it), or a tab stop until it is shown.
      if (fits.has(element)) return "take";
      return element.hasAttribute("data-scrollable") ? null : "unmeasured";
    }
    return element.scrollWidth > element.clientWidth + 1 ? "scrollable" : "fits";
  }

  function apply(element, what) {
    if (what === "take") {
      take(element);
    } else if (what === "unmeasured") {
      give(element, "unmeasured");
    } else if (what === "scrollable") {
      fits.delete(element);
      give(element, "scrollable");
    } else if (what === "fits") {
      fits.add(element);
      take(element);
    }
  }

  function measure(element) {
    apply(element, decide(element));
  }

  function update() {
    const elements = Array.from(document.querySelectorAll(scrollable));
    const decided = elements.map(decide);
    elements.forEach((element, i) => apply(element, decided[i]));
  }

  // A jump to a heading (a link to #id, from this page or another) lands where the heading is
  // while blocks near it may still be placeholders, which are then laid out at their real height:
  // a browser without scroll anchoring (Safari) lets those above push the heading down, and none
  // scrolls on to a heading near the page's end when the blocks below it grow. Until the reader
  // scrolls, or for 5 s, the heading is put back at the top after blocks are laid out.
  let jump = null;
  function jumped(hash) {
    let id = "";
    try {
      id = decodeURIComponent((typeof hash === "string" ? hash : location.hash).slice(1));
    } catch (error) {
      return; // not a valid percent-encoding: no heading has that id
    }
    const target = id && document.getElementById(id);
    jump = target ? { target: target, until: performance.now() + 5000, frame: 0 } : null;
  }
  function settle() {
    if (!jump || jump.frame || performance.now() > jump.until) return;
    const now = jump;
    now.frame = requestAnimationFrame(function () {
      now.frame = 0;
      if (now === jump && performance.now() < now.until) now.target.scrollIntoView();
    });
  }
  function reset() {
    if (jump) jump.until = 0; // the reader moved: leave the page where they put it
  }
  for (const type of ["wheel", "touchstart", "keydown", "mousedown"]) {
    window.addEventListener(type, reset, { passive: true, capture: true });
  }
  window.addEventListener("hashchange", jumped);
  // A link to a heading of this page: known as it is followed, before the browser scrolls (the
  // hashchange event comes after the browser may already have laid out what is near the heading).
  document.addEventListener(
    "click",
    function (event) {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (link && link.hash && link.origin === location.origin && link.pathname === location.pathname) {
        jumped(link.hash);
      }
    },
    true,
  );

  // The browser starts or stops laying out a block's contents (it came near the screen or left it).
  document.addEventListener(
    "contentvisibilityautostatechange",
    function (event) {
      if (!(event.target instanceof Element && event.target.matches(scrollable))) return;
      measure(event.target);
      if (!event.skipped) settle();
    },
    true,
  );

  // A provisional tab stop taking focus: the browser lays the block out as it is focused, and it is
  // measured now, not when the browser's state-change event comes, which may be after focus has
  // left it again (Tab held down) or never (skipped again by then).
  document.addEventListener(
    "focusin",
    function (event) {
      const element = event.target;
      if (element instanceof Element && element.hasAttribute("data-unmeasured") && element.matches(scrollable)) {
        measure(element);
      }
    },
    true,
  );

  // The math is rendered when the site is built, but KaTeX's fonts arrive after the page (and
  // after an instant navigation, a new page's formulas may need more): they change its width.
  function updateNowAndWithFonts() {
    jumped();
    update();
    document.fonts.ready.then(update);
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(updateNowAndWithFonts);
  } else {
    updateNowAndWithFonts();
  }

  // A code block that scrolls sideways is marked data-scrollable too, for the edge cue (extra.css).
  // Its tab stop is Material's, which it gives only where the pointer can hover: on a phone no code
  // block has one, so the cue cannot follow it. Measured whenever the block's size changes (shown,
  // a <details> or a tab opened, the window resized) and once the fonts have loaded.
  const code = ".md-typeset pre > code";
  // Every block read, then every mark written (see decide()).
  function measureCode(elements) {
    const wide = elements.map((e) => e.isConnected && e.checkVisibility() && e.scrollWidth > e.clientWidth + 1);
    elements.forEach(function (element, i) {
      if (wide[i] !== element.hasAttribute("data-scrollable")) element.toggleAttribute("data-scrollable", wide[i]);
    });
  }
  const sized = new ResizeObserver(function (entries) {
    measureCode(entries.map((entry) => entry.target));
  });
  function watchCode() {
    sized.disconnect(); // the blocks of the page shown before, after an instant navigation
    const blocks = document.querySelectorAll(code);
    for (const element of blocks) sized.observe(element);
    document.fonts.ready.then(function () {
      measureCode(Array.from(blocks));
    });
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(watchCode);
  } else {
    watchCode();
  }
  let pending = 0;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      fits = new WeakSet(); // a new width: what fitted may not
      update();
    }, 200);
  });
})();
