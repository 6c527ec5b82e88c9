// Render the math that pymdownx.arithmatex (generic: true) leaves in the page:
//   inline  <span class="arithmatex">\(...\)</span>
//   display <div class="arithmatex">\[...\]</div>
// with the KaTeX copy vendored in assets/vendor/katex/ (no CDN).
//
// Material's `document$` emits once for the first page and again after every instant
// navigation, which swaps the page content without reloading this script; subscribing
// renders each new page. Only .arithmatex elements are searched, and only with the two
// delimiters arithmatex writes, so a dollar sign in prose or code is never taken for math.
// Navigation text is searched too: a heading with math ("Why $-\infty$ ...") reaches the
// table of contents, the header and the footer as plain text with its \( \) delimiters.
// A formula that KaTeX cannot parse is reported with console.error (which the browser
// tests treat as a failure) and left as source text.
//
// KaTeX itself (katex.min.js and auto-render, 280 kB) is loaded only by a page that has math,
// once: most worked-example pages have none, and they stay under the 1 MB first-load budget
// (bench/run.py). Its CSS is small and stays in mkdocs.yml's extra_css; the fonts load only
// when a formula uses them.
(function () {
  "use strict";

  const vendor = new URL("../vendor/katex/", document.currentScript.src);
  let loading = null;

  function script(src) {
    return new Promise(function (resolve, reject) {
      const element = document.createElement("script");
      element.src = src;
      element.onload = resolve;
      element.onerror = function () {
        reject(new Error("could not load " + src));
      };
      document.head.appendChild(element);
    });
  }

  // katex.min.js first: auto-render uses it.
  function loadKatex() {
    loading ??= script(new URL("katex.min.js", vendor).href).then(function () {
      return script(new URL("contrib/auto-render.min.js", vendor).href);
    });
    return loading;
  }

  const options = {
    delimiters: [
      { left: "\\(", right: "\\)", display: false },
      { left: "\\[", right: "\\]", display: true },
    ],
    throwOnError: true,
    errorCallback: function (message, error) {
      console.error("KaTeX could not render a formula: " + message, error);
    },
  };

  const navigationText = ".md-nav__link, .md-header__topic, .md-footer__title";

  function render(root) {
    const pending = [...root.querySelectorAll(".arithmatex")].filter((e) => e.querySelector(".katex") === null);
    for (const element of root.querySelectorAll(navigationText)) {
      if (element.textContent.includes("\\(") && element.querySelector(".katex") === null) {
        pending.push(element);
      }
    }
    if (pending.length === 0) {
      return;
    }
    loadKatex().then(
      function () {
        for (const element of pending) {
          if (element.isConnected && element.querySelector(".katex") === null) {
            renderMathInElement(element, options);
          }
        }
        // The math changed width: scrollable.js checks again which blocks overflow.
        document.dispatchEvent(new CustomEvent("katex:rendered"));
      },
      function (error) {
        console.error("KaTeX could not be loaded: " + error.message);
      },
    );
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(function ({ body }) {
      render(body);
    });
  } else {
    // Without Material's bundle (should not happen), render once.
    document.addEventListener("DOMContentLoaded", function () {
      render(document.body);
    });
  }
})();
