// Exercises graded in the page (the blocks that publish/generate/exercises.py generates from
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
  // Spaces are the ASCII ones and the no-break space, digits 0-9 only (publish/generate/exercises.py reads
  // the same: the two graders agree on any text).
  const NUMBER = /^([+\-\u2212]?)([0-9]*)(?:\.([0-9]*))?[ \t\n\r\f\v\u00a0]*(%?)$/;

  function trim(text) {
    return String(text).replace(/^[ \t\n\r\f\v\u00a0]+|[ \t\n\r\f\v\u00a0]+$/g, "");
  }

  function parseNumber(text) {
    const t = trim(text);
    if (t === "") return { error: "empty" };
    const m = NUMBER.exec(t);
    if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) return { error: "not-a-number" };
    return {
      negative: m[1] === "-" || m[1] === "\u2212",
      whole: m[2].replace(/^0+/, "") || "0",
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

  // A shown number ("-0.1554") as a count of its last place (BigInt).
  function units(s) {
    return BigInt(s.replace(".", ""));
  }

  // The typed number times 100, digit for digit (a share typed where a percentage is asked).
  function times100(n) {
    const fraction = n.fraction.padEnd(2, "0");
    return Object.assign({}, n, { whole: (n.whole + fraction.slice(0, 2)).replace(/^0+/, "") || "0", fraction: fraction.slice(2) });
  }

  // The message for numbers cut off after some decimals instead of rounded ("66" for 66.52, "-0.22"
  // for -0.2253), where cutting and rounding differ (`cut[p]`: cut off after p decimals), every other
  // number typed right; else null.
  function cutOff(parsed, decimals, spec) {
    const cut = [];
    const shownAt = spec.rounded.concat([spec.answer]);
    for (let i = 0; i < parsed.length; i++) {
      const places = parsed[i].fraction.length;
      if (places > decimals) return null;
      const typed = toFixedDigits(parsed[i], places);
      const rounded = normalizeShown(shownAt[places][i]);
      if (typed !== rounded && typed !== spec.cut[places][i]) return null; // neither rounded nor cut off
      if (typed !== rounded) cut.push(i);
    }
    if (cut.length === 0) return null;
    const how = decimals === 0 ? "as a whole number" : `to ${decimals} decimal${decimals === 1 ? "" : "s"}`;
    const rule = "To round, look at the first digit you drop: when it is 5 or more, the last digit you keep goes up by one.";
    if (parsed.length === 1) {
      const places = parsed[0].fraction.length;
      const where = places === 0 ? "at the decimal point" : `after ${places} decimal${places === 1 ? "" : "s"}`;
      return `Not quite: that is the answer cut off ${where}, not rounded. ${rule} Give it ${how}.`;
    }
    const names = cut.map((i) => spec.labels[i] || String(i + 1));
    let which;
    if (spec.labels.every((label) => /^[0-9]+$/.test(label))) {
      which = names.length === 1 ? `entry ${names[0]} (counting from 1) is` : `entries ${names.join(", ")} (counting from 1) are`;
    } else {
      which = names.length === 1 ? `the number for ${names[0]} is` : `the numbers for ${names.join(", ")} are`;
    }
    return `Not quite: ${which} cut off, not rounded. ${rule} Give each ${how}.`;
  }

  function same(a, b) {
    return a.length === b.length && a.every((s, i) => s === b[i]);
  }

  // null unless every typed number is `answer`, some typed with fewer decimals than asked (none, only
  // where the answer rounds to a whole number of two digits or more) and equal to the answer rounded to those (`rounded[p]`).
  // Then: the index of the first number that is the *shown* answer rounded again (0.2447 shows as
  // 0.245, which rounds to 0.25, where 0.2447 itself rounds to 0.24), or -1.
  function short(parsed, decimals, answer, rounded) {
    let found = false;
    let twice = -1;
    for (let i = 0; i < parsed.length; i++) {
      const n = parsed[i];
      const places = n.fraction.length;
      if (toFixedDigits(n, decimals) === normalizeShown(answer[i])) continue;
      // A whole number counts too ("67" for 66.5%), where the answer rounds to a whole number of two
      // digits or more: one digit says too little ("1" for a ratio of 1.28 reads as "as probable").
      const whole = places > 0 || (decimals > 0 && normalizeShown(rounded[0][i]).replace(/^-|%$/gu, "").length >= 2);
      if (!whole || places >= decimals) return null;
      const mine = toFixedDigits(n, places);
      if (mine === normalizeShown(rounded[places][i])) {
        found = true;
      } else if (mine === roundedAgain(answer[i], places)) {
        found = true;
        if (twice < 0) twice = i;
      } else {
        return null;
      }
    }
    return found ? twice : null;
  }

  function roundedShort(parsed, decimals, answer, rounded) {
    return short(parsed, decimals, answer, rounded) !== null;
  }

  // A shown number ("0.245") rounded again, to fewer places ("0.25").
  function roundedAgain(number, places) {
    return toFixedDigits(parseNumber(normalizeShown(number)), places);
  }

  // The sign of a number written at some decimals ("-0.0120"): -1, 0 or 1.
  function signOf(s) {
    return /^-?[0.]*$/.test(s) ? 0 : s.startsWith("-") ? -1 : 1;
  }

  // Whether a typed number can be the answer of `sign` up to rounding (publish/generate/exercises.py:_sign):
  // never with the other sign, and only 0 where the answer is exactly 0.
  function signFits(mine, sign) {
    const m = signOf(mine);
    return sign === null || m === sign || (m === 0 && sign !== 0);
  }

  // A typed number with the sign the answer has not: the other sign, or negative where the answer
  // is exactly 0 (a ReLU's output, a masked key's weight).
  function flipped(mine, sign) {
    const m = signOf(mine);
    return sign !== null && m !== 0 && (sign !== 0 ? m === -sign : m < 0);
  }

  // The text with its decimal commas read as points ("66,5" -> "66.5"), if that makes it the `count`
  // numbers asked for; else null. The page reads a comma as the separator between numbers.
  function withDecimalPoints(body, count) {
    const fixed = body.replace(/(?<=[0-9]),(?=[0-9])/g, ".");
    if (fixed === body) return null;
    const parts = count === 1 ? [fixed] : fixed.split(SPLIT).filter((x) => x !== "");
    return parts.length === count && parts.every((x) => !parseNumber(x).error) ? fixed : null;
  }

  // [whether the typed row adds up to 1 within the rounding it was typed at, its total at `decimals`
  // places], in exact decimal arithmetic.
  function rowTotal(parsed, decimals) {
    const top = Math.max(...parsed.map((n) => n.fraction.length));
    let total = 0n;
    let slack = 0n; // twice the rounding
    for (const n of parsed) {
      const digits = BigInt(n.whole + n.fraction.padEnd(top, "0"));
      total += n.negative ? -digits : digits;
      slack += 10n ** BigInt(top - Math.min(n.fraction.length, decimals));
    }
    const diff = total - 10n ** BigInt(top);
    const digits = (total < 0n ? -total : total).toString().padStart(top + 1, "0");
    const cut = digits.length - top;
    const asTyped = { negative: total < 0n, whole: digits.slice(0, cut), fraction: digits.slice(cut), percent: false };
    return [2n * (diff < 0n ? -diff : diff) <= slack, toFixedDigits(asTyped, decimals)];
  }

  // --- grading ---------------------------------------------------------------------------------
  // publish/generate/exercises.py:grade is the same function in Python; tests/browser/test_exercises_graded.py
  // holds the two equal on every exercise's right answer, its mistakes and their near misses.

  const SPLIT = /[ \t\n\r\f\v\u00a0]*[,;][ \t\n\r\f\v\u00a0]*|[ \t\n\r\f\v\u00a0]+/;

  // The text without brackets around it.
  function answerBody(text) {
    return trim(text).replace(/^[[(][ \t\n\r\f\v\u00a0]*|[ \t\n\r\f\v\u00a0]*[\])]$/g, "");
  }

  // A whole number with its thousands set off by commas, as the pages print them ("18,432"): one
  // number where the answer is one whole number (elsewhere a comma separates numbers, or is a decimal comma).
  const GROUPED = /^[+\-\u2212]?[0-9]{1,3}(?:,[0-9]{3})+%?$/u;

  function splitAnswer(text, count, decimals) {
    const t = answerBody(text);
    if (count === 1 && decimals === 0 && GROUPED.test(t)) return [t.replace(/,/g, "")];
    if (count === 1) return [t];
    return t.split(SPLIT).filter((x) => x !== "");
  }

  function result(ok, kind, detail) {
    return { ok, kind, message: detail };
  }

  // grade(spec, text) -> {ok, kind, message}. kind: "right", "close" (right up to rounding: one off
  // in the last of at least two decimals), "wrong", "input" (nothing was graded: the text is not an
  // answer of the asked form, or the right numbers with fewer decimals than asked).
  function grade(spec, text) {
    const raw = String(text);
    if (raw.length > MAX_LENGTH) return result(false, "input", "That answer is too long: type only the number.");
    const count = spec.answer.length;
    const parts = splitAnswer(raw, count, spec.decimals);
    if (trim(raw) === "") return result(false, "input", count === 1 ? "Type your answer first." : `Type ${count} numbers first.`);
    // A vector's entries are labelled 1, 2, ...; a row of weights by its tokens.
    const positions = spec.labels.length > 0 && spec.labels.every((label) => /^[0-9]+$/.test(label));
    const parsed = parts.map(parseNumber);
    const bad = parsed.findIndex((p) => p.error);
    if (parts.length !== count || bad >= 0) {
      const fixed = withDecimalPoints(answerBody(raw), count);
      if (fixed !== null) return result(false, "input", `Write the decimals after a point, not a comma: ${fixed}.`);
    }
    if (parts.length !== count) {
      const each = positions ? "one for each entry of the vector" : `one for each of ${spec.labels.join(", ")}`;
      return result(false, "input", `Give ${count} numbers, ${each}, separated by commas (you gave ${parts.length}).`);
    }
    if (bad >= 0) {
      const which = count === 1 ? "That" : `Entry ${bad + 1}`;
      const like = spec.decimals === 0 ? "in digits, like 3" : `in decimals, like 0.25${spec.percent ? " or 25%" : ""}`;
      return result(false, "input", `${which} is not a number this page can check: write it ${like}.`);
    }
    if (!spec.percent && parsed.some((p) => p.percent)) {
      return result(false, "input", "Give it as a decimal, not as a percentage: 25% is 0.25.");
    }
    const decimals = spec.decimals;
    const mine = parsed.map((p) => toFixedDigits(p, decimals));
    const expected = spec.answer.map(normalizeShown);
    if (same(mine, expected)) return result(true, "right", "Right.");
    for (const mistake of spec.mistakes) {
      if (same(mine, mistake.answer.map(normalizeShown))) return result(false, "wrong", mistake.message);
    }
    const places = `${decimals} decimal${decimals === 1 ? "" : "s"}`;
    const twice = short(parsed, decimals, spec.answer, spec.rounded);
    if (twice !== null) {
      const them = count === 1 ? "that is the answer" : "those are the right numbers";
      let message = `Right so far: ${them}, rounded to fewer decimals. Give ${count === 1 ? "it" : "each"} to ${places}.`;
      if (twice >= 0) {
        const p = parsed[twice].fraction.length;
        message +=
          ` Round once, from the unrounded number: ${spec.answer[twice]} rounded again gives ` +
          `${roundedAgain(spec.answer[twice], p)}, but the unrounded number rounds to ${normalizeShown(spec.rounded[p][twice])}.`;
      }
      return result(false, "input", message);
    }
    for (const mistake of spec.mistakes) {
      if (roundedShort(parsed, decimals, mistake.answer, mistake.rounded)) return result(false, "wrong", mistake.message);
    }
    if (spec.percent && count === 1 && toFixedDigits(times100(parsed[0]), decimals) === expected[0]) {
      // The share is right, only written as a decimal: not an attempt, so the solution stays hidden.
      return result(false, "input", "Right share, but give it as a percentage: multiply it by 100.");
    }
    // Within one in the last decimal, with a sign the answer can have: rounded along the way (the
    // right answer first, then a known mistake). No rounding turns a number's sign, or makes a
    // number that is exactly 0 (a ReLU's output, a masked key's weight) anything else.
    const near = (theirs, signs) =>
      decimals >= 2 &&
      mine.every((s, i) => {
        const d = units(s) - units(theirs[i]);
        return d >= -1n && d <= 1n && signFits(s, signs[i]);
      });
    if (near(expected, spec.signs)) {
      return result(
        true,
        "close",
        `Right, up to rounding: the answer is ${expected.join(", ")}, computed from unrounded values and rounded ` +
          "once, at the end. Numbers rounded along the way can move the last decimal by one.",
      );
    }
    const cut = cutOff(parsed, decimals, spec);
    if (cut !== null) return result(false, "wrong", cut);
    for (const mistake of spec.mistakes) {
      if (near(mistake.answer.map(normalizeShown), mistake.signs)) return result(false, "wrong", mistake.message);
    }
    const turned = mine.map((s, i) => (flipped(s, spec.signs[i]) ? i : -1)).filter((i) => i >= 0);
    // the size right, the sign not: the answer's digits, or one off in the last decimal (not where
    // the answer is exactly 0, which has no sign to turn)
    const abs = (n) => (n < 0n ? -n : n);
    const slack = decimals >= 2 ? 1n : 0n;
    const sizeRight = turned.every((i) => spec.signs[i] !== 0 && abs(abs(units(mine[i])) - abs(units(expected[i]))) <= slack);
    if (turned.length > 0 && count === 1) {
      if (sizeRight) {
        return result(
          false,
          "wrong",
          "Check the sign: the size is right, but the sign is not. Look again at each minus sign " +
            "(a negative times a negative is positive).",
        );
      }
      const which = mine[0].startsWith("-") ? "negative" : "positive";
      return result(false, "wrong", `Check the sign: ${trim(parts[0])} is ${which}, and the answer is not.`);
    }
    if (turned.length > 0) {
      const names = turned.map((i) => spec.labels[i] || String(i + 1));
      let which;
      if (positions) {
        which = (names.length === 1 ? `entry ${names[0]}` : `entries ${names.join(", ")}`) + " (counting from 1)";
      } else {
        which = `the number${names.length > 1 ? "s" : ""} for ${names.join(", ")}`;
      }
      if (sizeRight) {
        return result(false, "wrong", `Not quite: ${which} ${names.length === 1 ? "has" : "have"} the right size but the wrong sign.`);
      }
      return result(false, "wrong", `Not quite: check the sign of ${which}.`);
    }
    if (spec.rowSumsToOne) {
      const [addsUp, total] = rowTotal(parsed, decimals);
      if (!addsUp) return result(false, "wrong", `Your row adds up to ${total}, but the weights of a row always add up to 1.`);
    }
    if (count > 1) {
      // An entry typed with fewer decimals is off only if it is not the right one rounded to those.
      const right = (i) =>
        mine[i] === expected[i] ||
        roundedShort([parsed[i]], decimals, spec.answer.slice(i, i + 1), spec.rounded.map((r) => r.slice(i, i + 1)));
      const off = mine.map((s, i) => (right(i) ? null : spec.labels[i] || String(i + 1))).filter((x) => x !== null);
      if (positions) {
        const which = off.length === 1 ? `entry ${off[0]} is` : `entries ${off.join(", ")} are`;
        return result(false, "wrong", `Not quite: ${which} off (counting from 1).`);
      }
      return result(false, "wrong", `Not quite: the ${off.length === 1 ? "number" : "numbers"} for ${off.join(", ")} ${off.length === 1 ? "is" : "are"} off.`);
    }
    const how = decimals === 0 ? "as a whole number" : `to ${places}`;
    return result(false, "wrong", `Not quite. Check your arithmetic, and round ${how}.`);
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
      input.setAttribute("aria-invalid", result.ok ? "false" : "true");
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
