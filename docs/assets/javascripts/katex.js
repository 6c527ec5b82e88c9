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
(function () {
  "use strict";

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
    for (const element of root.querySelectorAll(".arithmatex")) {
      if (element.querySelector(".katex") === null) {
        renderMathInElement(element, options);
      }
    }
    for (const element of root.querySelectorAll(navigationText)) {
      if (element.textContent.includes("\\(") && element.querySelector(".katex") === null) {
        renderMathInElement(element, options);
      }
    }
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
