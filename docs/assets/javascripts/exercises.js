// Exercises graded in the page (the blocks that publish/exercises.py generates from
// docs/exercises/<page>.toml). Each .exercise carries, in data-exercise, the expected answer as the
// page shows it (a list of numbers, already rounded by the reference code), the rounding asked for,
// and the answers of known mistakes with what to say about them. Nothing is sent anywhere: the
// answer is graded here, and progress is kept in this browser's localStorage only.
//
// A plain script, not a module, so that it runs from the offline copy (file://) too. It runs once
// per page, and again after each instant navigation (Material's document$).
(function () {
  "use strict";

  const STORE = "selfattn-exercises/v1";
  const MAX_LENGTH = 200;

  // --- reading a number as a reader types it -----------------------------------------------------

  // "0.25", ".25", "-1", "−1" (a typographic minus), "66.5%", "66.5 %", "+2". Nothing else: no
  // exponents (1e999), no NaN or Infinity, no thousands separators.
  const NUMBER = /^([+\-\u2212]?)(\d*)(?:\.(\d*))?\s*(%?)$/;

  function parseNumber(text) {
    const t = String(text).trim();
    if (t === "") return { error: "empty" };
    const m = NUMBER.exec(t);
    if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) return { error: "not-a-number" };
    return {
      negative: m[1] === "-" || m[1] === "\u2212",
      whole: m[2].replace(/^0+(?=\d)/, "") || "0",
      fraction: m[3] || "",
      percent: m[4] === "%",
    };
  }

  // A parsed number as a decimal string with exactly `decimals` places, rounded half away from
  // zero from the digits typed (exact: BigInt arithmetic, no binary floating point).
  function toFixedDigits(n, decimals) {
    let places = Math.max(decimals, n.fraction.length);
    let digits = BigInt(n.whole + n.fraction.padEnd(places, "0"));
    if (places > decimals) {
      const drop = 10n ** BigInt(places - decimals);
      const rest = digits % drop;
      digits = digits / drop + (rest * 2n >= drop ? 1n : 0n);
      places = decimals;
    }
    let s = digits.toString().padStart(decimals + 1, "0");
    if (decimals > 0) s = s.slice(0, -decimals) + "." + s.slice(-decimals);
    const isZero = /^[0.]*$/.test(s);
    return (n.negative && !isZero ? "-" : "") + s;
  }

  function normalizeShown(s) {
    return s.replace("\u2212", "-").replace(/^-(?=[0.]*$)/, "");
  }

  function value(n) {
    return (n.negative ? -1 : 1) * Number(n.whole + "." + (n.fraction || "0"));
  }

  // A sum of the reader's numbers at `decimals` places, with at most 15 digits in all, as every
  // number on the site prints (selfattn_ref/examples/digits.py): a float64 holds no more.
  function shownSum(x, decimals) {
    const whole = BigInt(Math.trunc(Math.abs(x))).toString().length;
    if (whole > 15) return x.toPrecision(15);
    return x.toFixed(Math.max(0, Math.min(decimals, 15 - whole)));
  }

  // --- grading ---------------------------------------------------------------------------------

  function splitAnswer(text, count) {
    const t = String(text).trim().replace(/^[[(]\s*|\s*[\])]$/g, "");
    if (count === 1) return [t];
    return t.split(/\s*[,;]\s*|\s+/).filter((x) => x !== "");
  }

  function message(kind, detail) {
    return { ok: false, kind, message: detail };
  }

  // grade(spec, text) -> {ok, kind, message}. kind: "right", "wrong", "input" (nothing was graded:
  // the text is not an answer of the asked form; nothing about the exercise changes).
  function grade(spec, text) {
    const raw = String(text);
    if (raw.length > MAX_LENGTH) return message("input", "That answer is too long: type only the number.");
    const count = spec.answer.length;
    const parts = splitAnswer(raw, count);
    if (raw.trim() === "") return message("input", count === 1 ? "Type your answer first." : `Type ${count} numbers first.`);
    // A vector's entries are labelled 1, 2, ...; a row of weights by its tokens.
    const positions = spec.labels.length > 0 && spec.labels.every((label) => /^\d+$/.test(label));
    if (parts.length !== count) {
      const each = positions ? "one for each entry of the vector" : `one for each of ${spec.labels.join(", ")}`;
      return message("input", `Give ${count} numbers, ${each}, separated by commas (you gave ${parts.length}).`);
    }
    const parsed = parts.map(parseNumber);
    const bad = parsed.findIndex((p) => p.error);
    if (bad >= 0) {
      const which = count === 1 ? "That" : `Entry ${bad + 1}`;
      return message("input", `${which} is not a number this page can check: write it in decimals, like 0.25${spec.percent ? " or 25%" : ""}.`);
    }
    if (!spec.percent && parsed.some((p) => p.percent)) {
      return message("input", "Give it as a decimal, not as a percentage: 25% is 0.25.");
    }
    const mine = parsed.map((p) => toFixedDigits(p, spec.decimals));
    const expected = spec.answer.map(normalizeShown);
    if (mine.every((s, i) => s === expected[i])) return { ok: true, kind: "right", message: "Right." };
    for (const mistake of spec.mistakes) {
      if (mine.every((s, i) => s === normalizeShown(mistake.answer[i]))) return message("wrong", mistake.message);
    }
    if (spec.percent && count === 1) {
      const hundredfold = parseNumber(String(value(parsed[0]) * 100)); // an error for 1e+27, which String writes so
      // The share is right, only written as a decimal: not an attempt, so the solution stays hidden.
      if (!hundredfold.error && toFixedDigits(hundredfold, spec.decimals) === expected[0]) {
        return message("input", "Right share, but give it as a percentage: multiply it by 100.");
      }
    }
    if (spec.rowSumsToOne) {
      const total = parsed.reduce((sum, p) => sum + value(p), 0);
      const slack = count * 0.5 * 10 ** -spec.decimals + 1e-9;
      if (Math.abs(total - 1) > slack) {
        return message("wrong", `Your row adds up to ${shownSum(total, spec.decimals)}, but the weights of a row always add up to 1.`);
      }
    }
    if (count > 1) {
      const off = mine.map((s, i) => (s === expected[i] ? null : spec.labels[i] || String(i + 1))).filter((x) => x !== null);
      if (positions) {
        const which = off.length === 1 ? `entry ${off[0]} is` : `entries ${off.join(", ")} are`;
        return message("wrong", `Not quite: ${which} off (counting from 1).`);
      }
      return message("wrong", `Not quite: the ${off.length === 1 ? "number" : "numbers"} for ${off.join(", ")} ${off.length === 1 ? "is" : "are"} off.`);
    }
    const places = spec.decimals === 0 ? "as a whole number" : `to ${spec.decimals} decimal${spec.decimals === 1 ? "" : "s"}`;
    return message("wrong", `Not quite. Check your arithmetic, and round ${places}.`);
  }

  // --- progress, kept in this browser ----------------------------------------------------------------

  function loadProgress() {
    try {
      const data = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      return data && typeof data === "object" && !Array.isArray(data) ? data : {};
    } catch (error) {
      return {};
    }
  }

  function saveProgress(progress) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(progress));
    } catch (error) {
      // Storage may be off (private mode, file://): the page works without it.
    }
  }

  function markSolved(exercise, solved) {
    exercise.classList.toggle("exercise--solved", solved);
    let badge = exercise.querySelector(".exercise-badge");
    if (solved && !badge) {
      badge = document.createElement("span");
      badge.className = "exercise-badge";
      badge.textContent = "Solved";
      const first = exercise.querySelector("p");
      if (first) first.appendChild(badge);
    } else if (!solved && badge) {
      badge.remove();
    }
  }

  // --- the controls -------------------------------------------------------------------------------

  function setUp(exercise, page) {
    if (exercise.dataset.ready === "true") return;
    let spec;
    try {
      spec = JSON.parse(exercise.dataset.exercise);
    } catch (error) {
      console.error("exercise data is not valid JSON", exercise.id);
      return;
    }
    exercise.dataset.ready = "true";
    const form = exercise.querySelector(".exercise-form");
    const input = exercise.querySelector(".exercise-input");
    const feedback = exercise.querySelector(".exercise-feedback");
    const hintButton = exercise.querySelector(".exercise-hint-button");
    const hints = [...exercise.querySelectorAll(".exercise-hint")];
    const solution = exercise.querySelector(".exercise-solution");
    const progress = loadProgress();
    const solved = Boolean(progress[page] && progress[page][spec.id]);
    markSolved(exercise, solved);
    if (solved) solution.hidden = false;

    function updateHintButton() {
      const shown = hints.filter((h) => !h.hidden).length;
      hintButton.disabled = shown === hints.length;
      hintButton.textContent = shown === hints.length ? "No more hints" : `Show hint ${shown + 1} of ${hints.length}`;
    }
    updateHintButton();

    hintButton.addEventListener("click", function () {
      const next = hints.find((h) => h.hidden);
      if (next) {
        next.hidden = false;
        next.setAttribute("tabindex", "-1");
        next.focus();
      }
      updateHintButton();
    });

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const result = grade(spec, input.value);
      feedback.textContent = result.message; // text, never markup
      feedback.dataset.kind = result.kind;
      input.setAttribute("aria-invalid", result.kind === "right" ? "false" : "true");
      if (result.kind === "input") return; // not an attempt: nothing else changes
      solution.hidden = false; // the worked solution, after an attempt
      if (result.ok) {
        const all = loadProgress();
        all[page] = Object.assign({}, all[page], { [spec.id]: true });
        saveProgress(all);
        markSolved(exercise, true);
      }
    });
  }

  function init() {
    for (const block of document.querySelectorAll(".exercises[data-page]")) {
      const page = block.dataset.page;
      for (const exercise of block.querySelectorAll(".exercise[data-exercise]")) setUp(exercise, page);
      const reset = block.querySelector(".exercise-reset");
      if (reset && reset.dataset.ready !== "true") {
        reset.dataset.ready = "true";
        reset.addEventListener("click", function () {
          const all = loadProgress();
          delete all[page];
          saveProgress(all);
          for (const exercise of block.querySelectorAll(".exercise")) {
            markSolved(exercise, false);
            exercise.querySelector(".exercise-solution").hidden = true;
            for (const hint of exercise.querySelectorAll(".exercise-hint")) hint.hidden = true;
            const feedback = exercise.querySelector(".exercise-feedback");
            feedback.textContent = "";
            delete feedback.dataset.kind;
            const input = exercise.querySelector(".exercise-input");
            input.value = "";
            input.removeAttribute("aria-invalid");
            const button = exercise.querySelector(".exercise-hint-button");
            button.disabled = false;
            button.textContent = `Show hint 1 of ${exercise.querySelectorAll(".exercise-hint").length}`;
          }
          reset.blur();
        });
      }
    }
  }

  window.SelfAttnExercises = { grade, parseNumber, toFixedDigits };

  if (typeof window.document$ !== "undefined" && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
