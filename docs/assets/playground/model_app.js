// The playground's language-model mode (docs/playground.md): the site's small language model,
// trained here, on the sentence the reader types. Every layer's and head's attention, the next
// word's probabilities at a temperature, and the words it writes after, from a seed.
//
// app.js asks for this module only when the reader opens the mode (import("./model_app.js")),
// and this module fetches the weights only then: no reader of another page, and no reader who
// never opens the mode, loads a byte of either. The math is language_model.js (and attention.js
// for each block's attention, as in the rest of the playground); the weights are the package's
// file, generated/playground/language_model.json (publish/generate/playground.py), the very
// float32 numbers that NumPy, PyTorch and `python -m selfattn_ref next` read. From disk its bundle,
// model_app.bundle.js, has them inlined.
//
// Like app.js, it builds the page with createElement and textContent: what the reader types (and
// what a link carries) shows as typed, and never goes through innerHTML.

import { dotLine, explainCell, explanationText, fitted, headColumns } from "./explain.js";
import { matrixCells, num, vector } from "./format.js";
import { ModelError, forward, generate, nextWordProbabilities, ranked, readWeights, words as readWords } from "./language_model.js";
import { LIMITS, MAX_SEED, MODEL_DEFAULTS, parseNumber, parseSeed, temperatureProblem, wordLabels } from "./state.js";
import { CellExplainer, Legend, Marks, MatrixView, h, setText } from "./views.js";

const WEIGHTS_URL = new URL("../../generated/playground/language_model.json", import.meta.url);
const TOP = 5; // the next words shown, as `python -m selfattn_ref next` prints them by default
const MAX_WRITTEN = 1e15; // e^(logit ÷ T) is written out while it is at most this (explain.js's rule)

let weightsPromise = null;

/** The trained weights, fetched and read once per page load. */
function loadModel() {
  weightsPromise ??= fetch(WEIGHTS_URL)
    .then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status} for ${WEIGHTS_URL}`);
      return r.json();
    })
    .then(readWeights)
    .catch((e) => {
      weightsPromise = null; // try again when the mode is opened again
      throw e;
    });
  return weightsPromise;
}

/**
 * The mode, built in `panel` once the weights are loaded. hooks: {state (as state.js's
 * MODEL_DEFAULTS), changed() (the state changed: the address follows), announce(text),
 * copyLink() -> a promise of the sentence that says whether the link was copied}.
 */
export async function mountModel(panel, hooks) {
  return new ModelMode(panel, await loadModel(), hooks);
}

/** A sentence of a message: its first letter upper case, a full stop at its end. */
function sentence(text) {
  const t = String(text);
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

/** "1st", "2nd", "3rd", "4th", "11th", "21st". */
function ordinal(k) {
  const tens = k % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[k % 10] ?? "th");
  return `${k}${suffix}`;
}

/**
 * The command line that prints the same next words (selfattn_ref.cli, `next`) and, with `seed` (a
 * seed, or null for greedy), the same generated words.
 */
function command(words, temperature, decimals, seed = undefined) {
  const T = temperature === 1 ? "" : ` --temperature ${temperature}`;
  const d = decimals === 4 ? "" : ` --decimals ${decimals}`;
  const g = seed === undefined ? "" : seed === null ? " --generate" : ` --generate --seed ${seed}`;
  return `python -m selfattn_ref next "${words.join(" ")}"${g}${T}${d}`;
}

class ModelMode {
  constructor(panel, model, hooks) {
    this.panel = panel;
    this.model = model;
    this.hooks = hooks;
    this.s = { ...MODEL_DEFAULTS, ...hooks.state };
    this.last = null; // {words, labels, steps, probabilities, top, generated}: the last sentence that could be read
    this.marks = new Marks();
    this.build();
    this.setState(this.s);
  }

  // ---- the static frame ----------------------------------------------------------------------

  build() {
    const m = this.model;
    const B = m.blocks.length;
    const H = m.numHeads;
    const field = (label, control, ...rest) => h("div", { class: "pg-field" }, label, control, ...rest);
    this.textInput = h("input", {
      type: "text",
      id: "pg-model-text",
      class: "pg-model-text",
      "aria-describedby": "pg-model-text-help pg-model-text-message",
      autocomplete: "off",
      spellcheck: "false",
      autocapitalize: "off",
      enterkeyhint: "done",
    });
    this.textMessage = h("p", { class: "pg-message", id: "pg-model-text-message", role: "alert" });
    this.temperatureInput = h("input", {
      type: "text",
      id: "pg-model-temperature",
      class: "pg-number",
      inputmode: "decimal",
      "aria-describedby": "pg-model-temperature-help pg-model-temperature-message",
      autocomplete: "off",
      spellcheck: "false",
    });
    this.temperatureMessage = h("p", { class: "pg-message", id: "pg-model-temperature-message", role: "alert" });
    this.decimalsSelect = h(
      "select",
      { id: "pg-model-decimals" },
      ...Array.from({ length: LIMITS.decimals + 1 }, (_, i) => h("option", { value: String(i), text: String(i) })),
    );
    this.copyButton = h("button", { type: "button", class: "pg-button", id: "pg-model-copy", text: "Copy a link to this" });
    this.copyStatus = h("span", { class: "pg-help", role: "status", id: "pg-model-copy-status" });
    const controls = h(
      "div",
      { class: "pg-controls", role: "group", "aria-label": "The sentence and the settings" },
      field(
        h("label", { for: "pg-model-text", text: "Sentence" }),
        this.textInput,
        h("span", {
          class: "pg-help",
          id: "pg-model-text-help",
          text: `1 to ${m.context} of the model's ${m.vocabulary.length} words (listed below), in lower or upper case.`,
        }),
      ),
      field(
        h("label", { for: "pg-model-temperature", text: "Temperature" }),
        this.temperatureInput,
        h("span", { class: "pg-help", id: "pg-model-temperature-help", text: "T: below 1 sharper, above 1 flatter." }),
      ),
      field(h("label", { for: "pg-model-decimals", text: "Decimals shown" }), this.decimalsSelect),
      h("div", { class: "pg-field pg-share" }, this.copyButton, this.copyStatus),
    );
    const vocabulary = h(
      "details",
      { class: "pg-details", id: "pg-model-vocabulary" },
      h("summary", { text: `The model's ${m.vocabulary.length} words` }),
      h("p", { class: "pg-model-words", text: m.vocabulary.join(" ") }),
    );

    // The next word.
    this.stale = h("p", { class: "pg-stale", id: "pg-model-stale", role: "status" });
    this.nextHelp = h("p", { class: "pg-help", id: "pg-model-next-help" });
    this.views = {
      next: new MatrixView({ id: "pg-model-next", caption: `The ${TOP} most probable next words`, corner: "next word", explain: "next" }),
      generated: new MatrixView({ id: "pg-model-generated", caption: "The words written, one at a time", corner: "word", explain: "generated" }),
    };
    this.command = h("code", { id: "pg-model-command" });
    const next = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-model-next-heading" },
      h("h2", { id: "pg-model-next-heading", text: "The next word" }),
      this.nextHelp,
      this.views.next.wrap,
      h("p", { class: "pg-help" }, "The same numbers in a terminal: ", this.command),
    );

    // Every block's heads.
    this.headViews = [];
    const blocks = [];
    for (let b = 0; b < B; b++) {
      const views = [];
      for (let k = 0; k < H; k++) {
        const name = `b${b + 1}h${k + 1}`;
        const view = new MatrixView({ id: `pg-model-${name}`, caption: `Block ${b + 1}, head ${k + 1}`, corner: "query ↓ key →", heat: true, explain: name });
        this.views[name] = view;
        views.push(view);
      }
      this.headViews.push(views);
      blocks.push(
        h("h3", { text: `Block ${b + 1}` }),
        h("p", {
          class: "pg-help",
          text:
            b === 0
              ? "Reads X, each word's embedding plus its position's: Q = LN(X)·W_Q, K = LN(X)·W_K, V = LN(X)·W_V, each head its own columns."
              : `Reads the output of block ${b} (its X plus MultiHead(LN(X)) is Z, and its output Z + FFN(LN(Z)), the ` +
                "transformer block page's pre-norm block) the same way, with weights of its own.",
        }),
        h("div", { class: "pg-matrices" }, ...views.map((v) => v.wrap)),
      );
    }
    this.scale = new Legend("pg-model-legend");
    this.legend = this.scale.element;
    const dHead = m.dModel / H;
    const heads = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-model-heads-heading" },
      h("h2", { id: "pg-model-heads-heading", text: "Every head's attention" }),
      h("p", {
        class: "pg-help",
        text:
          `${B} blocks of ${H} heads, each head of width d_head = ${m.dModel} / ${H} = ${dHead}. Each row is a word reading the ` +
          "words up to it (the causal mask hides the words after it); its weights add up to 1. Click a weight, or move to it " +
          "with Tab and the arrow keys, to see how it was made.",
      }),
      ...blocks,
      this.legend,
    );

    // Generate, word by word.
    this.pickSelect = h(
      "select",
      { id: "pg-model-pick", "aria-describedby": "pg-model-pick-help" },
      h("option", { value: "seeded", text: "Drawn at random, from a seed" }),
      h("option", { value: "greedy", text: "The most probable (greedy)" }),
    );
    this.seedInput = h("input", {
      type: "text",
      id: "pg-model-seed",
      class: "pg-number",
      inputmode: "numeric",
      "aria-describedby": "pg-model-seed-message",
      autocomplete: "off",
      spellcheck: "false",
    });
    this.seedField = field(h("label", { for: "pg-model-seed", text: "Seed" }), this.seedInput);
    this.seedMessage = h("p", { class: "pg-message", id: "pg-model-seed-message", role: "alert" });
    this.generateButton = h("button", { type: "button", class: "pg-button pg-button--primary", id: "pg-model-generate", text: "Generate" });
    this.generateMessage = h("p", { class: "pg-message", id: "pg-model-generate-message", role: "alert" });
    this.generatedText = h("p", { class: "pg-model-written", id: "pg-model-written" });
    this.generatedHelp = h("p", { class: "pg-help", id: "pg-model-generated-help" });
    this.generatedCommand = h("code", { id: "pg-model-generated-command" });
    this.generatedBox = h(
      "div",
      { id: "pg-model-generated-box", hidden: true },
      this.generatedText,
      this.generatedHelp,
      this.views.generated.wrap,
      h("p", { class: "pg-help" }, "The same words in a terminal: ", this.generatedCommand),
    );
    const gen = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-model-generate-heading" },
      h("h2", { id: "pg-model-generate-heading", text: "Generate, word by word" }),
      h("p", {
        class: "pg-help",
        id: "pg-model-pick-help",
        text:
          "The model reads the sentence, picks a next word from its probabilities at the temperature above, adds it, and reads " +
          `again, until it writes “.” or has read ${m.context} words. Drawn at random, each word takes the next number u of ` +
          "a seeded generator (mulberry32): the first word, in the vocabulary's order, whose running total of probability " +
          "exceeds u. The same seed gives the same words, here and in selfattn_ref.language_model.generate.",
      }),
      h(
        "div",
        { class: "pg-buttons" },
        field(h("label", { for: "pg-model-pick", text: "Each word" }), this.pickSelect),
        this.seedField,
        this.generateButton,
      ),
      this.seedMessage,
      this.generateMessage,
      this.generatedBox,
    );

    this.explainer = new CellExplainer({
      id: "pg-model-explain",
      views: this.views,
      explanationOf: (at) => this.explanationOf(at),
      announce: (text) => this.hooks.announce(text),
      marks: this.marks,
    });

    this.panel.replaceChildren(
      h("p", {
        class: "pg-help",
        text:
          `The site's small language model, trained here: ${B} transformer blocks of ${H} heads, d_model = ${m.dModel}, ` +
          `${m.vocabulary.length} words. Type a sentence in its words: your browser computes every number below from its ` +
          "trained weights, the same numbers as the site's reference code.",
      }),
      controls,
      this.textMessage,
      this.temperatureMessage,
      vocabulary,
      this.stale,
      next,
      heads,
      gen,
    );

    const on = (el, type, fn) => el.addEventListener(type, fn);
    on(this.textInput, "input", () => {
      this.s.text = this.textInput.value;
      this.changed();
    });
    on(this.temperatureInput, "input", () => {
      const parsed = parseNumber(this.temperatureInput.value);
      const out = parsed.tooLarge || (!parsed.error && temperatureProblem(parsed.value)); // a number, but not a temperature
      const problem = out ? `The temperature must be ${temperatureProblem(NaN)}.` : (parsed.error ?? null);
      this.setFieldError(this.temperatureInput, this.temperatureMessage, problem);
      if (problem) {
        this.recompute();
        return;
      }
      this.s.temperature = parsed.value;
      this.changed();
    });
    on(this.decimalsSelect, "change", () => {
      this.s.decimals = Number(this.decimalsSelect.value);
      this.changed();
    });
    on(this.pickSelect, "change", () => {
      this.s.greedy = this.pickSelect.value === "greedy";
      this.seedField.hidden = this.s.greedy;
      this.changed();
    });
    on(this.seedInput, "input", () => {
      const parsed = parseSeed(this.seedInput.value);
      this.setFieldError(this.seedInput, this.seedMessage, parsed.error ? `The seed must be a whole number from 0 to ${MAX_SEED.toLocaleString("en")}.` : null);
      if (parsed.error) {
        this.recompute();
        return;
      }
      this.s.seed = parsed.value;
      this.changed();
    });
    on(this.generateButton, "click", () => {
      this.s.generate = true;
      this.changed();
      if (this.last?.generated) this.hooks.announce(`The model wrote: ${this.last.generated.map((g) => g.word).join(" ")}`);
    });
    on(this.copyButton, "click", async () => setText(this.copyStatus, await this.hooks.copyLink()));
    on(this.panel, "focusin", (e) => this.explainer.onFocus(e));
    on(this.panel, "click", (e) => this.explainer.onFocus(e)); // a number that has the focus already
    on(this.panel, "keydown", (e) => this.explainer.onKeydown(e));
  }

  setFieldError(input, message, problem) {
    setText(message, problem ?? "");
    if (problem) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  // ---- state ---------------------------------------------------------------------------------

  /** The state shown: what the address holds (the temperature and seed as last accepted). */
  state() {
    return { ...this.s };
  }

  /** Show a whole state (from a link, or the defaults). */
  setState(state) {
    this.s = { ...MODEL_DEFAULTS, ...state };
    this.textInput.value = this.s.text;
    this.temperatureInput.value = String(this.s.temperature);
    this.decimalsSelect.value = String(this.s.decimals);
    this.pickSelect.value = this.s.greedy ? "greedy" : "seeded";
    this.seedField.hidden = this.s.greedy;
    this.seedInput.value = String(this.s.seed);
    for (const [input, message] of [
      [this.temperatureInput, this.temperatureMessage],
      [this.seedInput, this.seedMessage],
    ]) {
      this.setFieldError(input, message, null);
    }
    setText(this.copyStatus, "");
    this.explainer.close(false);
    this.recompute();
  }

  changed() {
    this.recompute();
    this.hooks.changed();
  }

  destroy() {}

  // ---- the results ---------------------------------------------------------------------------

  recompute() {
    const fieldsBad = this.temperatureInput.hasAttribute("aria-invalid") || this.seedInput.hasAttribute("aria-invalid");
    let last;
    try {
      last = reading(this.model, this.s);
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      const [input, message] = e.field === "temperature" ? [this.temperatureInput, this.temperatureMessage] : [this.textInput, this.textMessage];
      this.setFieldError(input, message, sentence(e.message));
      this.showStale();
      return;
    }
    this.setFieldError(this.textInput, this.textMessage, null);
    if (!fieldsBad) this.setFieldError(this.temperatureInput, this.temperatureMessage, null);
    setText(this.generateMessage, last.generateProblem ?? "");
    this.last = last;
    this.render();
    this.showStale(fieldsBad);
  }

  /** The note that the results are for the last sentence and settings that could be computed. */
  showStale(stale = true) {
    setText(
      this.stale,
      stale && this.last ? "These results are for the last sentence and settings the model could read: fix the field marked above to update them." : "",
    );
    this.stale.hidden = !(stale && this.last);
  }

  render() {
    const m = this.model;
    const { words, labels, steps, top, temperature, decimals: dec, generated } = this.last;
    const after = words.join(" ");
    setText(
      this.nextHelp,
      `After “${after}”, the model's probability for each of its ${m.vocabulary.length} words as the next word: the logits of ` +
        `the last word, each divided by the temperature T = ${temperature}, then softmax. The ${TOP} most probable, the most ` +
        "probable first. Click a number to see how it was made.",
    );
    const n = words.length - 1;
    const logits = steps.logits[n];
    this.views.next.update(
      top.map((t) => [num(logits[t.id], dec), num(logits[t.id] / temperature, dec), num(t.p, dec)]),
      top.map((t) => t.word),
      ["logit", "logit ÷ T", "probability"],
    );
    setText(this.command, command(words, temperature, dec));
    this.headViews.forEach((views, b) => {
      views.forEach((view, k) => {
        const W = steps.blocks[b].heads.heads[k].weights;
        view.update(matrixCells(W, dec), labels, labels, W);
      });
    });
    this.scale.paint();
    this.generatedBox.hidden = !generated;
    if (generated) {
      const seeded = this.last.seed !== null;
      const written = generated.map((g) => g.word);
      setText(this.generatedText, `${after} → ${written.join(" ")}`);
      setText(
        this.generatedHelp,
        seeded
          ? `Seed ${this.last.seed}, T = ${temperature}: u is the generator's number for each word, and each word's probability is the one it was drawn with.`
          : `Greedy, T = ${temperature}: each word is the most probable after the words before it.`,
      );
      setText(this.generatedCommand, command(words, temperature, dec, this.last.seed));
      this.views.generated.update(
        generated.map((g) => [seeded ? num(g.u, dec) : "—", g.word, num(g.probabilities[g.id], dec)]),
        generated.map((_, k) => String(k + 1)),
        ["u", "chosen", "probability"],
      );
    }
    this.explainer.render(false);
  }

  repaint() {
    if (!this.last) return;
    this.headViews.forEach((views, b) => views.forEach((view, k) => view.paint(this.last.steps.blocks[b].heads.heads[k].weights)));
    this.scale.paint();
  }

  // ---- how a number was made -----------------------------------------------------------------

  /** {title, lines, anchor, cell} of a number of the tables, or null when it is not shown. */
  explanationOf(at) {
    const view = this.views[at.table];
    if (!this.last || view.wrap.closest("[hidden]") || at.i >= view.cells.length || at.j >= view.cells[0].length) return null;
    const box = view.wrap.parentElement.classList.contains("pg-matrices") ? view.wrap.parentElement : view.wrap;
    const anchor = /^b\d+h\d+$/.test(at.table) ? this.legend : box; // a weight's, under the colour scale
    return { ...explanation(this.model, this.last, at.table, at.i, at.j), anchor, cell: view.cells[at.i][at.j] };
  }
}

// --- what the mode shows, without the page ----------------------------------------------------

/**
 * What the mode shows for a state (MODEL_DEFAULTS' keys): {words, labels, steps, probabilities,
 * top, temperature, decimals, generated, seed, generateProblem}: the words read, their labels in the
 * tables (a word that comes twice with its place), forward()'s steps, the next word's probabilities
 * at the temperature and the TOP most probable, the generated words when the state asks for them
 * (with the seed, null for greedy, or the sentence that says why there can be none). A ModelError
 * says what cannot be read, with .field "text" or "temperature".
 */
export function reading(model, state) {
  const fail = (e, field) => {
    if (e instanceof ModelError) e.field = field;
    throw e;
  };
  let read;
  try {
    read = readWords(state.text, model.vocabulary, model.context);
  } catch (e) {
    fail(e, "text");
  }
  const steps = forward(model, read.words);
  let probabilities;
  try {
    probabilities = nextWordProbabilities(steps.logits[steps.logits.length - 1], state.temperature);
  } catch (e) {
    fail(e, "temperature");
  }
  const seed = state.greedy ? null : state.seed;
  let generated = null;
  let generateProblem = null;
  if (state.generate && read.words.length >= model.context) {
    generateProblem = `The sentence has ${read.words.length} words, as many as the model reads: there is no room for another.`;
  } else if (state.generate) {
    generated = generate(model, read.words, { temperature: state.temperature, seed }); // the temperature passed above
  }
  return {
    words: read.words,
    labels: wordLabels(read.words),
    steps,
    probabilities,
    top: ranked(probabilities, model.vocabulary, TOP),
    temperature: state.temperature,
    decimals: state.decimals,
    generated,
    seed,
    generateProblem,
  };
}

/**
 * How a number of the mode's tables was made, {title, lines, claims, decimals} (as explain.js's
 * explanationText gives them: claims, the arithmetic each line states, which holds at the rounding
 * shown): cell (i, j) of "next" (the next words: a logit, the logit ÷ T, a probability), of
 * "generated" (u, the word chosen, its probability) or of "b<block>h<head>" (a weight, from 1).
 * last: a reading().
 */
export function explanation(model, last, table, i, j) {
  if (table === "next") return nextExplanation(model, last, i, j);
  if (table === "generated") return generatedExplanation(model, last, i, j);
  const [b, k] = table.match(/\d+/g).map((x) => Number(x) - 1);
  return weightExplanation(last, b, k, i, j);
}

/** A weight of block b's head k: the softmax of its row, the scaled score, the score, as the attention mode writes them. */
function weightExplanation(last, b, k, i, j) {
  const { labels, decimals: dec, steps } = last;
  const r = steps.blocks[b].heads;
  const name = (hd) => `block ${b + 1}, head ${hd + 1}`;
  const part = (table) => explanationText(explainCell(r, table, i, j, k), r, labels, dec, true, name);
  const lines = [];
  const claims = [];
  const add = (e, title) => {
    if (title) lines.push("", e.title);
    claims.push(...e.claims.map((c) => ({ ...c, line: c.line + lines.length })));
    lines.push(...e.lines);
  };
  const weight = part("weights");
  add(weight, false);
  add(part("scaled"), true);
  add(part("scores"), true);
  const X = b === 0 ? "each word's embedding plus its position's" : `the output of block ${b}`;
  lines.push(
    "",
    `The queries and keys: Q = LN(X)·W_Q and K = LN(X)·W_K, with X ${X} and LN the layer normalization of each row ` +
      `(block ${b + 1}'s own γ and β), W_Q and W_K block ${b + 1}'s trained weights; head ${k + 1} takes their columns ` +
      `${headColumns(r, k, "Q", true)}.`,
  );
  return { title: weight.title, lines, claims, decimals: dec };
}

/**
 * The claims written in plain decimals. A number in exponent notation (a temperature of 1e-300, a
 * logit ÷ T beyond 15 digits, 1.0675e+16) is not arithmetic the audit reads: its line is the
 * code's arithmetic, written out, and not checked.
 */
function readable(claims) {
  return claims.filter((c) => !/\de[+-]?\d/u.test(c.text));
}

/**
 * A temperature as a plain decimal, exactly the float it is (1e-7 is "0.0000001", as a reader may
 * have typed it; JavaScript writes numbers under 10^-6 in exponent notation); in exponent
 * notation still if that decimal would be longer than a line can carry (1e-300).
 */
function decimalText(x) {
  const text = String(x);
  const m = /^(\d)(?:\.(\d+))?e-(\d+)$/u.exec(text);
  if (!m) return text;
  const plain = `0.${"0".repeat(Number(m[3]) - 1)}${m[1]}${m[2] ?? ""}`;
  return plain.length <= 24 ? plain : text;
}

/** A number of the next words' table, for top[row]: its logit (j 0), the logit ÷ T (j 1) or its probability (j 2). */
function nextExplanation(model, last, row, j) {
  const { words, labels, steps, top, temperature: T, decimals: dec } = last;
  const t = top[row];
  const n = words.length - 1;
  const after = labels[n];
  const logits = steps.logits[n];
  const word = `“${t.word}”`;
  if (j === 0) {
    const final = steps.final[n];
    const column = model.W_out.map((r) => r[t.id]);
    let dot = 0;
    for (let q = 0; q < final.length; q++) dot += final[q] * column[q]; // as matmul adds them
    const build = (p) => {
      const line = dotLine(`final(${after})`, `W_out(${t.word})`, final, column, dot, p);
      const bias = `${num(dot, p)} + ${num(model.b_out[t.id], p)} = ${num(logits[t.id], p)}`;
      const lines = [
        `final(${after}) = ${vector(final, p)}`,
        `W_out(${t.word}), its column of W_out = ${vector(column, p)}`,
        line.text,
        `logit = final(${after}) · W_out(${t.word}) + b_out(${t.word}) = ${bias}`,
      ];
      return { lines, claims: [{ line: 2, text: line.arithmetic }, { line: 3, text: bias }] };
    };
    return {
      title:
        `The logit of ${word} after ${after}: the final vector of ${after} (its row of the final layer normalization of the ` +
        `last block's output) times the column of W_out for ${word}, plus the entry of b_out for it.`,
      ...fitted(build, dec),
    };
  }
  if (j === 1) {
    const build = (p) => {
      const text = `${num(logits[t.id], p)} ÷ ${decimalText(T)} = ${num(logits[t.id] / T, p)}`;
      return { lines: [`logit ÷ T = ${text}`], claims: readable([{ line: 0, text }]) };
    };
    const effect = T < 1 ? "larger logits, further apart" : T > 1 ? "smaller logits, closer together" : "T = 1 leaves the logits as they are";
    return { title: `The logit of ${word} divided by the temperature T = ${T}: ${effect}.`, ...fitted(build, dec) };
  }
  return {
    title:
      `The probability that ${word} comes next: e^(logit ÷ T) divided by the total of e^(logit ÷ T) over the ` +
      `${model.vocabulary.length} words (the softmax).`,
    ...softmaxExplanation(model, last, row),
  };
}

/** The softmax over the vocabulary for the probability of top[row], written as the attention mode writes a row's. */
function softmaxExplanation(model, last, row) {
  const { words, top, steps, temperature: T, decimals: dec } = last;
  const z = steps.logits[words.length - 1].map((x) => x / T); // logit ÷ T, by id
  const largest = Math.max(...z);
  let pagesTotal = 0;
  for (const x of z) pagesTotal += Math.exp(x);
  const pages = largest <= Math.log(MAX_WRITTEN) && Number.isFinite(pagesTotal) && pagesTotal > 0;
  const shift = pages ? 0 : largest; // the code's way: every term and the total divided by e^max
  const terms = z.map((x) => Math.exp(x - shift));
  let total = 0;
  for (const x of terms) total += x;
  const shownIds = top.map((t) => t.id);
  let rest = 0;
  terms.forEach((x, id) => {
    if (!shownIds.includes(id)) rest += x;
  });
  const others = model.vocabulary.length - shownIds.length;
  const width = Math.max(...top.map((t) => [...t.word].length));
  const pad = (w) => w + " ".repeat(width - [...w].length);
  const build = (p) => {
    const power = (id) => (pages ? `e^${num(z[id], p)}` : `e^(${num(z[id], p)} − ${num(largest, p)})`);
    const lines = [
      pages
        ? `e to the power of each logit ÷ T, the ${top.length} largest, and the other ${others} added up:`
        : `e^(logit ÷ T) would be too large to write here, so, as the code does, each loses the largest, ${num(largest, p)}, ` +
          "which changes no probability (every term and the total are divided by the same number):",
    ];
    const claims = [];
    for (const [q, t] of top.entries()) {
      const text = `${power(t.id)} = ${num(terms[t.id], p)}`;
      lines.push(`  ${pad(t.word)}  ${text}${q === row ? "   ← this word" : ""}`);
      claims.push({ line: lines.length - 1, text });
    }
    lines.push(`  the other ${others} words, added up: ${num(rest, p)}`);
    const sum = `${[...shownIds.map((id) => num(terms[id], p)), num(rest, p)].join(" + ")} = ${num(total, p)}`;
    lines.push(`total = ${sum}`);
    claims.push({ line: lines.length - 1, text: sum });
    const share = `${num(terms[top[row].id], p)} ÷ ${num(total, p)} = ${num(top[row].p, p)}`;
    lines.push(`probability = ${share}`);
    claims.push({ line: lines.length - 1, text: share });
    return { lines, claims: readable(claims) };
  };
  return fitted(build, dec);
}

/** A number of the generated words' table, for word row + 1: u (j 0), the word chosen (j 1) or its probability (j 2). */
function generatedExplanation(model, last, row, j) {
  const { generated, seed, temperature: T, decimals: dec } = last;
  const g = generated[row];
  const read = `“${g.words.join(" ")}”`;
  const word = `“${g.word}”`;
  const p = g.probabilities;
  const plain = (title, lines) => ({ title, lines, claims: [], decimals: dec });
  if (j === 0) {
    if (seed === null) return plain("Greedy decoding draws no number: each word is the most probable.", []);
    return plain(
      `u for word ${row + 1}: the ${ordinal(row + 1)} number of mulberry32 from seed ${seed}, a 32-bit generator, each number a ` +
        "multiple of 1 / 2^32 from 0 to 1.",
      [`u = ${num(g.u, dec)}`, `(The same numbers as selfattn_ref.corpus.SeededRandom(${seed}).uniform(), one a word.)`],
    );
  }
  if (j === 2) {
    return plain(
      `The probability of ${word} after ${read}, at T = ${T}: the softmax of the last word's logits ÷ T, as in the next word's table.`,
      [`probability = ${num(p[g.id], dec)}`],
    );
  }
  if (seed === null) {
    const best = ranked(p, model.vocabulary, 2);
    return plain(
      `Word ${row + 1}, ${word}: after ${read}, the most probable word (greedy; a tie would go to the word first in the vocabulary).`,
      best.map((t, q) => `${q === 0 ? "most probable" : "next after it"}: ${t.word} ${num(t.p, dec)}`),
    );
  }
  // The first word, in the vocabulary's order, whose running total of probability exceeds u.
  let before = 0;
  for (let id = 0; id < g.id; id++) before += p[id];
  const through = before + p[g.id];
  if (!(through > g.u)) {
    // sample(): rounding left u at or above the last running total (some 1e-16 from 1).
    return plain(`Word ${row + 1}, ${word}: u is at or above the last running total, which rounding leaves just under 1: the last word with a probability above 0 is drawn.`, [`u = ${num(g.u, dec)}`]);
  }
  const build = (q) => {
    const sum = `${num(before, q)} + ${num(p[g.id], q)} = ${num(through, q)}`;
    const first = `“${model.vocabulary[0]}”`;
    const lines = [
      `u = ${num(g.u, q)}`,
      g.id === 0
        ? `${word} is the first word of the vocabulary: its probability alone is its running total.`
        : `running total of the words before ${word} in the vocabulary's order (from ${first} to “${model.vocabulary[g.id - 1]}”) = ` +
          `${num(before, q)}, not above u`,
      `running total through ${word} = ${sum}, above u: ${word} is drawn`,
    ];
    return { lines, claims: [{ line: 2, text: sum }] };
  };
  return {
    title:
      `Word ${row + 1}, ${word}: after ${read}, the number u falls in ${word}'s share of the running total of probability, ` +
      "in the vocabulary's order.",
    ...fitted(build, dec),
  };
}
