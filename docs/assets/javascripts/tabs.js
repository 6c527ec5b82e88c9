// Linked content tabs inside collapsed blocks.
//
// Material's content.tabs.link switches every tab set of the page to the label the reader
// clicked (NumPy / PyTorch), but it finds the other labels by their innerText, which is empty
// for a tab set inside a closed <details>: such a set keeps its old tab, and shows the other
// framework when the reader opens it. So when a <details> opens, each tab set inside it is
// switched to the reader's latest choice, which Material keeps (most recent first) under
// "__tabs" in its scoped local storage.
//
// The `toggle` event does not bubble, hence the capturing listener; it is set once on the
// document, which survives instant navigation.
(function () {
  "use strict";

  function latestChoices() {
    try {
      return typeof __md_get === "function" ? __md_get("__tabs") || [] : [];
    } catch (error) {
      return [];
    }
  }

  function syncTabSets(root) {
    const choices = latestChoices();
    if (choices.length === 0) return;
    for (const set of root.querySelectorAll(".tabbed-set")) {
      const labels = [...set.querySelectorAll(":scope > .tabbed-labels > label")];
      for (const choice of choices) {
        const label = labels.find((l) => l.textContent.trim() === choice);
        if (label === undefined) continue;
        const input = set.querySelector(`:scope > input[id="${label.htmlFor}"]`);
        if (input && !input.checked) {
          // Tells Material this switch is not the reader's: it must not re-link the page.
          label.setAttribute("data-md-switching", "");
          input.click();
        }
        break;
      }
    }
  }

  document.addEventListener(
    "toggle",
    function (event) {
      const details = event.target;
      if (details instanceof HTMLDetailsElement && details.open) syncTabSets(details);
    },
    true,
  );
})();
