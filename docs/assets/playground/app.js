// The playground page (docs/playground.md): an editor for words, vectors and projections, and
// every step of self-attention recomputed on each keystroke.
//
// The math is attention.js, the formatting format.js and the state (what may be typed, links)
// state.js; this module only draws, with views.js. The page is built with createElement and
// textContent: no text a reader typed, and nothing from a link, ever goes through innerHTML.
//
// The presets are the worked examples as selfattn_ref defines them, from
// generated/playground/presets.json (gathered from every example by every build and `make update`).
//
// Material's instant navigation swaps page content without reloading modules: this module runs
// once, and mounts the playground whenever Material's document$ shows a page that has
// #playground (and unmounts it when the page goes).

import { attention, headsProblem, identity } from "./attention.js";
import {
  STEPS,
  TASKS,
  columnName,
  explainCell,
  explanationText,
  headColumns,
  mixText,
  originText,
  rowSteps,
  stepText,
  tasksAchieved,
  usedCells,
} from "./explain.js";
import { withErrors } from "./bounds.js";
import { cell, isIntegral, matrixCells, num } from "./format.js";
import {
  LIMITS,
  LINK_KEYS,
  MODEL_DEFAULTS,
  decodeLink,
  encodeLink,
  encodeModelLink,
  learnedDims,
  nameError,
  namesProblems,
  parseNumber,
  presetOf,
  projectionsOf,
  stateFromPreset,
  wordLabels,
} from "./state.js";
import { CellExplainer, Legend, Marks, MatrixView, h, setLines, setText } from "./views.js";

const PRESETS_URL = new URL("../../generated/playground/presets.json", import.meta.url);
const GENERATED_HEADER = /^<!--[^\n]*-->\s*/; // tolerated: older generated files began with a comment line
const URL_DELAY = 300; // ms after the last change before the address bar follows
const W_NAMES = ["W_Q", "W_K", "W_V"];

let presetsPromise = null;
let modelModePromise = null;

/** The language model's mode (model_app.js), asked for once, when the reader first opens it. */
function loadModelMode() {
  modelModePromise ??= import("./model_app.js").catch((e) => {
    modelModePromise = null; // try again when the mode is opened again
    throw e;
  });
  return modelModePromise;
}
let carriedNotice = null; // {text, href}: see applyLink()

/** The presets file, fetched once per page load. */
function loadPresets() {
  presetsPromise ??= fetch(PRESETS_URL)
    .then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status} for ${PRESETS_URL}`);
      return r.text();
    })
    .then((text) => JSON.parse(text.replace(GENERATED_HEADER, "")))
    .catch((e) => {
      presetsPromise = null; // try again on the next visit
      throw e;
    });
  return presetsPromise;
}

/** "1, 2 or 4" (heads). */
function orList(items) {
  return items.length === 1 ? String(items[0]) : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** A grid of fields that nobody typed in yet: each shows its value (fieldText). */
function untyped(M) {
  return M.map((row) => row.map(() => null));
}

/**
 * What a number field shows for a value it was given rather than typed: the value as it is when it
 * has at most `decimals` decimals ("0.5", "-2"), else rounded to them as the tables round it (the
 * learned weights: "0.152", not "0.15235477536311405"). The playground computes with the value.
 */
export function fieldText(x, decimals) {
  return Number(num(x, decimals)) === x ? String(x) : num(x, decimals);
}

// --- the playground ---------------------------------------------------------------------------

class Playground {
  constructor(root, presets) {
    this.root = root;
    this.presets = presets;
    this.cleanups = [];
    this.urlTimer = 0;
    this.last = null; // the last result that could be computed
    this.errors = new Map(); // field key -> message
    this.build();
    // A page's link (?preset=... or ?model=..., the form the other pages link with) was followed to
    // use the playground: the page opens on it, not on its introduction (read before it, above).
    // The language model's mode is not shown yet (its module and weights load first), and the page
    // may be too short to scroll that far: it scrolls again once the mode is shown, unless the
    // reader has scrolled since (revealedAt: where the first scroll left the page).
    const linked = LINK_KEYS.some((key) => new URLSearchParams(location.search).has(key));
    this.applyLink(true);
    this.revealedAt = linked ? this.reveal() : null;
    if (this.mode !== "model") this.revealedAt = null;
    const onHash = () => this.applyLink(false);
    window.addEventListener("hashchange", onHash);
    this.cleanups.push(() => window.removeEventListener("hashchange", onHash));
    // The address follows the edits a moment later; leaving the page (a reload, or a link that
    // Material's instant navigation follows) writes it at once, so that Back returns to it.
    const flush = () => {
      if (this.urlTimer) this.writeUrl();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("click", flush, true);
    this.cleanups.push(() => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("click", flush, true);
    });
    const observer = new MutationObserver(() => this.repaint());
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
    this.cleanups.push(() => observer.disconnect());
    // A box that scrolls sideways shows it as the site's wide tables do (extra.css: a shadow at
    // each edge that has more to show, on an element marked data-scrollable). scrollable.js marks
    // the pages' tables when a page is shown, before the playground has drawn its own: these are
    // marked here, whenever a box or what it holds changes size.
    this.scrollObserver = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const box = entry.target.closest(".pg-scroll");
        if (box) box.toggleAttribute("data-scrollable", box.scrollWidth > box.clientWidth + 1);
      }
    });
    this.observed = new WeakSet();
    this.watchScrolling();
    this.cleanups.push(() => this.scrollObserver.disconnect());
  }

  /** Every box that may scroll sideways, and what it holds, observed (once each). */
  watchScrolling() {
    if (!this.scrollObserver) return; // not yet: the constructor observes every box once it is made
    for (const box of this.root.querySelectorAll(".pg-scroll")) {
      for (const el of [box, box.firstElementChild]) {
        if (el && !this.observed.has(el)) {
          this.observed.add(el);
          this.scrollObserver.observe(el);
        }
      }
    }
  }

  destroy() {
    this.writeUrl();
    for (const fn of this.cleanups) fn();
    this.cleanups = [];
    this.model?.destroy();
  }

  // ---- the static frame ----------------------------------------------------------------------

  build() {
    const presetOptions = this.presets.presets.map((p) => h("option", { value: p.slug, text: p.title }));
    this.presetSelect = h(
      "select",
      { id: "pg-preset" },
      ...presetOptions,
      h("option", { value: "", text: "Your own", disabled: true }),
    );
    this.projSelect = h(
      "select",
      { id: "pg-projections", "aria-describedby": "pg-projections-help pg-projections-message" },
      h("option", { value: "none", text: "None: softmax(X·Xᵀ)·X" }),
      h("option", { value: "identity", text: "Identity: Q = K = V = X·I" }),
      h("option", { value: "learned", text: "Learned weights: seeded random stand-ins" }),
      h("option", { value: "custom", text: "Your own matrices" }),
    );
    this.projHelp = h("span", { id: "pg-projections-help", class: "pg-help" });
    this.projMessage = h("p", { id: "pg-projections-message", class: "pg-message", role: "alert" });
    this.headsSelect = h(
      "select",
      { id: "pg-heads", "aria-describedby": "pg-heads-help pg-heads-message" },
      ...Array.from({ length: LIMITS.heads }, (_, k) => h("option", { value: String(k + 1), text: String(k + 1) })),
    );
    this.headsHelp = h("span", { id: "pg-heads-help", class: "pg-help" });
    this.headsMessage = h("p", { id: "pg-heads-message", class: "pg-message", role: "alert" });
    this.scaleBox = h("input", { type: "checkbox", id: "pg-scale" });
    this.causalBox = h("input", { type: "checkbox", id: "pg-causal" });
    this.positionsBox = h("input", { type: "checkbox", id: "pg-positions" });
    this.decimalsSelect = h(
      "select",
      { id: "pg-decimals" },
      ...Array.from({ length: LIMITS.decimals + 1 }, (_, i) => h("option", { value: String(i), text: String(i) })),
    );
    this.copyButton = h("button", { type: "button", class: "pg-button", id: "pg-copy", text: "Copy a link to this" });
    this.copyStatus = h("span", { class: "pg-help", role: "status", id: "pg-copy-status" });
    this.resetButton = h("button", {
      type: "button",
      class: "pg-button",
      id: "pg-reset",
      text: "Reset",
      "aria-describedby": "pg-reset-help",
    });
    this.resetHelp = h("span", { class: "pg-sr", id: "pg-reset-help" });
    this.notice = h("div", { class: "pg-notice", id: "pg-notice", role: "alert" });

    const field = (label, control, ...rest) => h("div", { class: "pg-field" }, label, control, ...rest);
    const controls = h(
      "div",
      { class: "pg-controls", role: "group", "aria-label": "Example and settings" },
      field(h("label", { for: "pg-preset", text: "Example" }), this.presetSelect),
      field(h("label", { for: "pg-projections", text: "Projections" }), this.projSelect, this.projHelp),
      field(h("label", { for: "pg-heads", text: "Heads" }), this.headsSelect, this.headsHelp),
      h(
        "div",
        { class: "pg-field pg-checks" },
        h(
          "label",
          { class: "pg-check" },
          this.scaleBox,
          h("span", {}, "Divide the scores by √d_k", (this.scaleHeads = h("span", {}))),
        ),
        h("label", { class: "pg-check" }, this.causalBox, " Causal mask: each word sees only itself and the words before it"),
        h(
          "label",
          { class: "pg-check" },
          this.positionsBox,
          " Positional encoding: add each position's sinusoidal vector to the word in that place, before the steps",
        ),
      ),
      field(h("label", { for: "pg-decimals", text: "Decimals shown" }), this.decimalsSelect),
      h("div", { class: "pg-field pg-share" }, this.resetButton, this.resetHelp, this.copyButton, this.copyStatus),
    );

    // Where the number of a field comes from, once the field has had the focus: a box at the end of
    // its grid's section, of its own, so that an explanation of the results follows the edits made
    // there, and so that nothing above a button moves when the focus leaves a field.
    this.fieldBoxes = { x: this.fieldBox("pg-words-explain"), W: this.fieldBox("pg-matrices-explain") };

    // The words and their vectors.
    this.wordsTable = h("table", { class: "pg-table pg-input", id: "pg-words" });
    // Each list sits in an alert region (a list with role=alert would no longer be a list).
    this.wordsErrors = h("ul", { class: "pg-errors", id: "pg-words-errors" });
    this.structureMessage = h("p", { class: "pg-message", id: "pg-structure-message", role: "alert" });
    this.addWordButton = h("button", { type: "button", class: "pg-button", id: "pg-add-word", text: "Add a word" });
    this.addDimButton = h("button", { type: "button", class: "pg-button", id: "pg-add-dim", text: "Add a dimension" });
    this.removeDimButton = h("button", {
      type: "button",
      class: "pg-button",
      id: "pg-remove-dim",
      text: "Remove the last dimension",
    });
    const words = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-words-heading" },
      h("h2", { id: "pg-words-heading", text: "Words and their vectors" }),
      h("p", {
        class: "pg-help",
        text:
          "One row per word. Type any number (negative, decimal); the arrow keys and Enter move between " +
          `cells. From 1 to ${LIMITS.words} words and 1 to ${LIMITS.dims} dimensions.`,
      }),
      h("div", { class: "pg-scroll pg-scroll--input" }, this.wordsTable),
      h("div", { role: "alert" }, this.wordsErrors),
      h("div", { class: "pg-buttons" }, this.addWordButton, this.addDimButton, this.removeDimButton),
      this.structureMessage,
      this.fieldBoxes.x.box,
    );

    // "Try this": small tasks beside the editor, each ticked when the reader achieves it.
    this.taskItems = new Map();
    const taskList = h(
      "ul",
      { class: "pg-tasks", id: "pg-tasks" },
      ...TASKS.map((t) => {
        const state = h("strong", { class: "pg-task-state", text: "Not yet" });
        const note = h("span", { class: "pg-task-note" });
        const li = h(
          "li",
          { id: `pg-task-${t.id}`, "data-done": "false" },
          h("span", { class: "pg-task-mark", "aria-hidden": "true" }),
          h("span", { class: "pg-task-body" }, h("span", { text: t.text }), " ", state, " ", note),
        );
        this.taskItems.set(t.id, { li, state, note, task: t });
        return li;
      }),
    );
    this.tasksDone = new Set();
    const tasks = h(
      "aside",
      { class: "pg-section pg-try", "aria-labelledby": "pg-try-heading" },
      h("h2", { id: "pg-try-heading", text: "Try this" }),
      taskList,
    );

    // The reader's own matrices, and the learned ones (read only).
    this.matrixErrors = h("ul", { class: "pg-errors", id: "pg-matrices-errors" });
    this.matricesBox = h("div", { class: "pg-matrices" });
    const widthSelect = (id) =>
      h("select", { id }, ...Array.from({ length: LIMITS.columns }, (_, k) => h("option", { value: String(k + 1), text: String(k + 1) })));
    this.dkSelect = widthSelect("pg-dk");
    this.dvSelect = widthSelect("pg-dv");
    this.roundedNote = h("p", { class: "pg-help", id: "pg-rounded-note" });
    this.customSection = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-custom-heading", hidden: true },
      h("h2", { id: "pg-custom-heading", text: "Your projection matrices" }),
      h("p", {
        class: "pg-help",
        text:
          "Q = X·W_Q, K = X·W_K and V = X·W_V: one row per dimension of the vectors, one column per dimension of " +
          "Q and K (d_k, the same for both) and of V (d_v).",
      }),
      h(
        "div",
        { class: "pg-buttons" },
        h("div", { class: "pg-field" }, h("label", { for: "pg-dk", text: "Columns of W_Q and W_K (d_k)" }), this.dkSelect),
        h("div", { class: "pg-field" }, h("label", { for: "pg-dv", text: "Columns of W_V (d_v)" }), this.dvSelect),
      ),
      this.roundedNote,
      this.matricesBox,
      h("div", { role: "alert" }, this.matrixErrors),
      this.fieldBoxes.W.box,
    );
    this.learnedViews = W_NAMES.map((name) => new MatrixView({ id: `pg-learned-${name}`, caption: name, corner: "", explain: name }));
    this.learnedNote = h("p", { class: "pg-help" });
    this.learnedSection = h(
      "section",
      { class: "pg-section", "aria-labelledby": "pg-learned-heading", hidden: true },
      h("h2", { id: "pg-learned-heading", text: "The learned weights" }),
      this.learnedNote,
      h("div", { class: "pg-matrices" }, ...this.learnedViews.map((v) => v.wrap)),
    );

    // The results.
    this.stale = h("p", {
      class: "pg-stale",
      id: "pg-stale",
      role: "status",
    });
    this.views = {
      PE: new MatrixView({ id: "pg-PE", caption: "PE", corner: "pos", explain: "PE" }),
      XPE: new MatrixView({ id: "pg-XPE", caption: "X + PE", corner: "X + PE", explain: "XPE" }),
      Q: new MatrixView({ id: "pg-Q", caption: "Q", corner: "Q", explain: "Q" }),
      K: new MatrixView({ id: "pg-K", caption: "K", corner: "K", explain: "K" }),
      V: new MatrixView({ id: "pg-V", caption: "V", corner: "V", explain: "V" }),
      scores: new MatrixView({ id: "pg-scores", caption: "Scores", corner: "query ↓ key →", explain: "scores" }),
      scaled: new MatrixView({
        id: "pg-scaled",
        corner: "query ↓ key →",
        labelledBy: "pg-scaled-heading",
        explain: "scaled",
      }),
      weights: new MatrixView({
        id: "pg-weights",
        caption: "Weights",
        corner: "query ↓ key →",
        heat: true,
        explain: "weights",
      }),
      output: new MatrixView({ id: "pg-output", caption: "Outputs", corner: "output", explain: "output" }),
    };
    this.learnedViews.forEach((view, t) => (this.views[W_NAMES[t]] = view));
    // The positions, added to the words' vectors before the steps (docs/positional-encoding.md).
    this.positionsHelp = h("p", { class: "pg-help", id: "pg-positions-help" });
    this.positionsSection = h(
      "div",
      { class: "pg-positions", id: "pg-positions-box", hidden: true },
      h("h3", { text: "Positions added: X + PE" }),
      this.positionsHelp,
      h("div", { class: "pg-matrices" }, this.views.PE.wrap, this.views.XPE.wrap),
    );
    this.qkvSection = h(
      "details",
      { class: "pg-details" },
      h("summary", { text: "Q, K and V" }),
      h("div", { class: "pg-matrices" }, this.views.Q.wrap, this.views.K.wrap, this.views.V.wrap),
    );
    this.scoresFormula = h("p", { class: "pg-help" });
    this.scaledHeading = h("h3", { id: "pg-scaled-heading" });
    this.scaledFormula = h("p", { class: "pg-help" });
    this.scaledBox = h("div", {}, this.scaledHeading, this.scaledFormula, this.views.scaled.wrap);
    this.selectedSelect = h("select", { id: "pg-selected" });
    this.mixPre = h("pre", {
      class: "pg-mix pg-scroll",
      id: "pg-mix",
      tabindex: "0",
      role: "region",
      "aria-label": "Step 3 for the chosen word, written out",
    });
    this.mixCode = h("code", {});
    this.mixPre.append(this.mixCode);

    // How a number was made: shown under its table when the reader clicks or focuses it.
    this.marks = new Marks();
    this.explainer = new CellExplainer({
      id: "pg-explain",
      views: this.views,
      explanationOf: (at) => this.explanationOf(at),
      announce: (text) => this.announce(text),
      marks: this.marks,
      placed: () => this.watchScrolling(),
    });
    // What the reader asked for, read out by screen readers (explanations, steps, tasks done).
    this.live = h("div", { class: "pg-sr", id: "pg-live", role: "status", "aria-live": "polite" });

    // One word, step by step.
    this.stepWord = h("select", { id: "pg-step-word" });
    this.stepPrev = h("button", { type: "button", class: "pg-button", id: "pg-step-prev", text: "Previous step" });
    this.stepNext = h("button", { type: "button", class: "pg-button pg-button--primary", id: "pg-step-next", text: "Next step" });
    this.stepItems = STEPS.map((id) => h("li", { "data-step": id, text: id }));
    this.stepTitle = h("p", { class: "pg-step-title", id: "pg-step-title" });
    this.stepCode = h("code", {});
    this.stepBox = h(
      "div",
      { class: "pg-step", id: "pg-step", hidden: true },
      this.stepTitle,
      h("pre", { class: "pg-scroll", tabindex: "0", "aria-labelledby": "pg-step-title", role: "region" }, this.stepCode),
    );
    this.step = -1; // the step shown, -1 before the first
    const stepper = h(
      "div",
      { class: "pg-stepper", role: "group", "aria-labelledby": "pg-stepper-heading" },
      h("h3", { id: "pg-stepper-heading", text: "Follow one word through the steps" }),
      h(
        "div",
        { class: "pg-buttons" },
        h("div", { class: "pg-field" }, h("label", { for: "pg-step-word", text: "Word to follow" }), this.stepWord),
        this.stepPrev,
        this.stepNext,
      ),
      h("ol", { class: "pg-step-list", id: "pg-step-list", "aria-label": "The steps" }, ...this.stepItems),
      this.stepBox,
    );

    // The colour scale of the weights: the same colours as the cells, in either scheme.
    this.scale = new Legend("pg-legend");
    this.legend = this.scale.element;
    // Several heads: which head's scores and weights the tables show.
    this.headSelect = h("select", { id: "pg-head", "aria-describedby": "pg-head-help" });
    this.headHelp = h("p", { class: "pg-help", id: "pg-head-help" });
    this.headBox = h(
      "div",
      { class: "pg-head", id: "pg-head-box", hidden: true },
      h("div", { class: "pg-field" }, h("label", { for: "pg-head", text: "Head shown" }), this.headSelect),
      this.headHelp,
    );
    this.shownHead = 0;
    this.outputHelp = h("p", { class: "pg-help", id: "pg-output-help" });
    const results = h(
      "section",
      { class: "pg-section pg-results", "aria-labelledby": "pg-results-heading" },
      h("h2", { id: "pg-results-heading", text: "Every step" }),
      this.stale,
      h("p", {
        class: "pg-help",
        text:
          "Click a number of the tables below, or move to it with Tab and the arrow keys, to see how it was made; " +
          "the numbers it was made from are outlined. A number you can edit says where it comes from when it has the focus.",
      }),
      this.headBox,
      stepper,
      this.positionsSection,
      this.qkvSection,
      h("h3", { text: "Score every pair" }),
      this.scoresFormula,
      this.views.scores.wrap,
      this.scaledBox,
      h("h3", { text: "Normalize each row (softmax)" }),
      h("p", {
        class: "pg-help",
        text:
          "Each row adds up to 1. The nearer a cell's colour is to the 1 end of the colour scale under the table, " +
          "the more that word (row) attends to that word (column).",
      }),
      this.views.weights.wrap,
      this.legend,
      h("h3", { text: "Mix the values" }),
      this.outputHelp,
      this.views.output.wrap,
      (this.mixHeading = h("h3", { text: "Mix for one word, written out" })),
      h("div", { class: "pg-field" }, h("label", { for: "pg-selected", text: "Word" }), this.selectedSelect),
      this.mixPre,
    );

    // The two modes, as tabs: self-attention step by step (this module), and the trained language
    // model (model_app.js, asked for when the reader first opens its tab).
    this.tabs = {
      attention: h("button", {
        type: "button",
        role: "tab",
        id: "pg-tab-attention",
        class: "pg-tab",
        "aria-controls": "pg-panel-attention",
        text: "Self-attention, step by step",
      }),
      model: h("button", {
        type: "button",
        role: "tab",
        id: "pg-tab-model",
        class: "pg-tab",
        "aria-controls": "pg-panel-model",
        text: "The trained language model",
      }),
    };
    this.attentionPanel = h(
      "div",
      { role: "tabpanel", id: "pg-panel-attention", "aria-labelledby": "pg-tab-attention" },
      controls,
      this.projMessage,
      this.headsMessage,
      h("div", { class: "pg-workbench" }, words, tasks),
      this.learnedSection,
      this.customSection,
      results,
    );
    this.modelPanel = h("div", { role: "tabpanel", id: "pg-panel-model", "aria-labelledby": "pg-tab-model", hidden: true });
    this.root.replaceChildren(
      this.notice,
      h("div", { class: "pg-tabs", role: "tablist", "aria-label": "What the playground computes" }, this.tabs.attention, this.tabs.model),
      this.attentionPanel,
      this.modelPanel,
      this.live,
    );
    this.notice.hidden = true;
    this.model = null; // the language model's mode, once loaded (model_app.js)
    this.modelState = { ...MODEL_DEFAULTS }; // what it shows (or will, once loaded)
    this.selectMode("attention", false); // until a link asks for the other

    // Events, delegated to the attention's panel: one listener for every field of the grids.
    const on = (el, type, fn) => {
      el.addEventListener(type, fn);
    };
    for (const [mode, tab] of Object.entries(this.tabs)) on(tab, "click", () => this.selectMode(mode, true));
    on(this.tabs.attention.parentElement, "keydown", (e) => this.onTabKeydown(e));
    on(this.attentionPanel, "input", (e) => this.onInput(e));
    on(this.attentionPanel, "keydown", (e) => this.onKeydown(e));
    on(this.presetSelect, "change", () => {
      const slug = this.presetSelect.value;
      this.loadState(stateFromPreset(this.presets, slug), true, slug);
    });
    on(this.projSelect, "change", () => this.onProjections());
    on(this.headsSelect, "change", () => this.onHeads());
    for (const select of [this.dkSelect, this.dvSelect]) {
      on(select, "change", () => {
        this.resizeCustom(this.m.x[0].length, { dk: Number(this.dkSelect.value), dv: Number(this.dvSelect.value) });
        this.rebuilt();
        select.focus();
      });
    }
    on(this.headSelect, "change", () => {
      this.shownHead = Number(this.headSelect.value);
      if (this.last) this.render();
    });
    on(this.scaleBox, "change", () => this.changed());
    on(this.causalBox, "change", () => this.changed());
    on(this.positionsBox, "change", () => this.changed());
    on(this.decimalsSelect, "change", () => this.changed());
    on(this.selectedSelect, "change", () => this.changed());
    on(this.addWordButton, "click", () => this.addWord());
    on(this.addDimButton, "click", () => this.addDim());
    on(this.removeDimButton, "click", () => this.removeDim());
    on(this.copyButton, "click", () => this.copyLink());
    on(this.resetButton, "click", () => this.reset());
    on(this.attentionPanel, "focusin", (e) => this.onCellFocus(e));
    on(this.attentionPanel, "click", (e) => this.onCellFocus(e)); // a number that has the focus already
    on(this.attentionPanel, "keydown", (e) => this.onCellKeydown(e));
    on(this.stepNext, "click", () => this.moveStep(1));
    on(this.stepPrev, "click", () => this.moveStep(-1));
    on(this.stepWord, "change", () => {
      if (this.step < 0) this.step = 0;
      this.renderStep(true);
    });
    on(this.qkvSection, "toggle", () => {
      if (this.qkvSection.open && this.last) this.render();
    });
  }

  // ---- state in, state out -------------------------------------------------------------------

  /** Read the link (on load and when the hash changes). */
  applyLink(first) {
    // A state is "#preset=..." or "#s=...": a #part without "=" is an anchor (the skip link, a
    // heading's permalink, or the anchor that Material's navigation.tracking carries over from
    // the page before during instant navigation), never an error to report.
    let hash = location.hash;
    if (!hash.includes("=")) {
      if (!first && hash.length > 1) this.writeUrl(); // once scrolled to it, the address holds the state again
      hash = "";
      if (!first) return;
    }
    const { state, error, preset, model } = decodeLink(hash, first ? location.search : "", this.presets);
    if (model) {
      carriedNotice = null;
      this.hideNotice();
      if (first) this.loadState(stateFromPreset(this.presets, this.presets.default), false, this.presets.default);
      this.modelState = model;
      this.selectMode("model", false);
      return;
    }
    if (error) {
      this.loadState(stateFromPreset(this.presets, this.presets.default), true, this.presets.default);
      const text = `This link could not be opened: ${error}. The playground shows the ${this.defaultTitle()} example instead.`;
      this.showNotice(text);
      // The first change of the #part of a page that was loaded in full makes Material fetch
      // the page again and swap its content in (instant navigation): the playground that
      // replaces this one shows the notice too, as long as the address is the one written here.
      carriedNotice = { text, href: location.href };
      return;
    }
    if (first && carriedNotice?.href === location.href) {
      this.loadState(stateFromPreset(this.presets, this.presets.default), false, this.presets.default);
      this.showNotice(carriedNotice.text);
      return;
    }
    carriedNotice = null;
    if (state) {
      this.hideNotice();
      this.loadState(state, false, preset ?? null);
      this.selectMode("attention", false);
    } else if (first) {
      this.loadState(stateFromPreset(this.presets, this.presets.default), false, this.presets.default);
    }
  }

  // ---- the two modes -------------------------------------------------------------------------

  /** Show a mode ("attention" or "model"); byReader: a click or a key on its tab (the address follows). */
  selectMode(mode, byReader) {
    const before = this.mode;
    this.mode = mode;
    for (const [name, tab] of Object.entries(this.tabs)) {
      tab.setAttribute("aria-selected", String(name === mode));
      tab.tabIndex = name === mode ? 0 : -1;
    }
    this.attentionPanel.hidden = mode !== "attention";
    this.modelPanel.hidden = mode !== "model";
    if (mode === "model") this.openModel();
    if (byReader && mode !== before) this.writeUrl();
  }

  /** The arrow keys, Home and End move between the tabs (and open the mode, as a click does). */
  onTabKeydown(e) {
    const order = Object.keys(this.tabs);
    const k = order.indexOf(this.mode);
    const to = { ArrowLeft: k - 1, ArrowRight: k + 1, Home: 0, End: order.length - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const mode = order[(to + order.length) % order.length];
    this.selectMode(mode, true);
    this.tabs[mode].focus();
  }

  /** The language model's mode with this.modelState: its module and weights loaded the first time. */
  openModel() {
    if (this.model) {
      this.model.setState(this.modelState);
      return;
    }
    if (this.modelLoading) return; // it will show this.modelState when it is loaded
    this.modelLoading = true;
    this.modelPanel.setAttribute("aria-busy", "true");
    this.modelPanel.replaceChildren(h("p", { class: "pg-loading", text: "Loading the trained language model…" }));
    loadModelMode()
      .then((module) =>
        module.mountModel(this.modelPanel, {
          state: this.modelState,
          changed: () => {
            this.modelState = this.model.state();
            this.scheduleUrl();
          },
          announce: (text) => this.announce(text),
          copyLink: () => this.copyLink(),
        }),
      )
      .then((mode) => {
        if (!this.root.isConnected) return;
        this.model = mode;
        this.model.setState(this.modelState); // a link may have come while it loaded
        if (this.revealedAt !== null && window.scrollY === this.revealedAt) this.reveal();
        this.revealedAt = null;
        this.modelPanel.dataset.state = "ready";
      })
      .catch((e) => {
        this.modelPanel.dataset.state = "failed";
        this.modelPanel.replaceChildren(
          h("p", { class: "pg-message", role: "alert", text: `The language model could not load: ${e.message}` }),
        );
      })
      .finally(() => {
        this.modelLoading = false;
        this.modelPanel.setAttribute("aria-busy", "false");
      });
  }

  /** Scroll the page to the playground's top, just under the header; returns where the page is then. */
  reveal() {
    this.root.scrollIntoView({ block: "start" });
    return window.scrollY;
  }

  defaultTitle() {
    return this.presetTitle(this.presets.default);
  }

  presetTitle(slug) {
    return this.presets.presets.find((p) => p.slug === slug).title;
  }

  /** Back to the example last chosen (or opened by a link), as it was. */
  reset() {
    const slug = this.resetSlug;
    this.hideNotice();
    this.loadState(stateFromPreset(this.presets, slug), true, slug);
    this.step = -1;
    this.renderStep(false);
    setText(this.copyStatus, "");
    this.announce(`Reset to the example “${this.presetTitle(slug)}”.`);
  }

  /** Read out by screen readers (a polite live region): only what the reader asked for. */
  announce(text) {
    // The same text twice is read twice only if the region changes in between.
    if (this.live.textContent === text) this.live.textContent = "";
    requestAnimationFrame(() => setText(this.live, text));
  }

  showNotice(text) {
    const dismiss = h("button", { type: "button", class: "pg-button", text: "Dismiss" });
    dismiss.addEventListener("click", () => this.hideNotice());
    this.notice.replaceChildren(h("p", { text }), dismiss);
    this.notice.hidden = false;
  }

  hideNotice() {
    carriedNotice = null;
    this.notice.hidden = true;
    this.notice.replaceChildren();
  }

  /**
   * Show a whole state: every field is rebuilt. writeLink: the address bar follows now. slug: the
   * example the state was opened as (a preset link, the list, Reset), which the list shows, and
   * the link names, when another example holds the same numbers.
   */
  loadState(state, writeLink, slug = null) {
    const preset = presetOf(state, this.presets, slug);
    const example = preset && this.presets.presets.find((p) => p.slug === preset);
    // x and w: the text the reader typed in each field, or null where the field shows its value
    // (from an example, a link or the learned weights: see fieldText); xv and wv: the values;
    // xFrom and wFrom: where each value comes from, while nobody typed over it (originText).
    this.m = {
      preset,
      names: state.words.slice(),
      x: untyped(state.X),
      xv: state.X.map((row) => row.slice()),
      xFrom: state.X.map((row) => row.map(() => (example ? { from: "example", title: example.title, slug: example.slug } : { from: "link" }))),
      w: null,
      wv: null,
      wFrom: null,
      positions: state.positions ?? null,
      scale: state.scale,
      causal: state.causal,
      projections: state.projections,
      heads: state.heads ?? 1,
      decimals: state.decimals,
      selected: state.selected,
    };
    this.shownHead = 0;
    if (state.projections === "custom") this.setCustom(state.W_Q, state.W_K, state.W_V, example ? this.originOf(example) : { from: "link" });
    if (preset) this.resetSlug = preset;
    this.resetSlug ??= this.presets.default;
    setText(this.resetHelp, `Back to the example “${this.presetTitle(this.resetSlug)}” as it was.`);
    this.explainer.close(false);
    for (const fb of Object.values(this.fieldBoxes)) this.hideField(fb);
    this.errors.clear();
    this.scaleBox.checked = state.scale;
    this.causalBox.checked = state.causal;
    this.positionsBox.checked = Boolean(this.m.positions);
    this.projSelect.value = state.projections;
    this.headsSelect.value = String(this.m.heads);
    this.decimalsSelect.value = String(state.decimals);
    setText(this.projMessage, "");
    setText(this.headsMessage, "");
    setText(this.structureMessage, "");
    this.buildGrids();
    this.recompute();
    if (writeLink) this.writeUrl();
  }

  /** The reader's matrices, each entry from `origin` (originText) until typed over. */
  setCustom(W_Q, W_K, W_V, origin) {
    const Ws = [W_Q, W_K, W_V];
    this.m.w = Object.fromEntries(W_NAMES.map((n, t) => [n, untyped(Ws[t])]));
    this.m.wv = Object.fromEntries(W_NAMES.map((n, t) => [n, Ws[t].map((row) => row.slice())]));
    this.m.wFrom = Object.fromEntries(W_NAMES.map((n, t) => [n, Ws[t].map((row) => row.map(() => origin))]));
  }

  /** Where the matrices of an example come from: NumPy's seeded draw, or its spec file. */
  originOf(example) {
    const o = example.origin ?? {};
    if ("seed" in o) return { from: "seeded", seed: o.seed, std: o.std, d: example.W_Q.length, title: example.title };
    return { from: "given", title: example.title, slug: example.slug };
  }

  learnedOrigin() {
    return this.originOf(this.presets.presets.find((p) => p.slug === this.presets.learned));
  }

  /** The state shown now, or null while a field holds something that is not allowed. */
  state() {
    if (this.errors.size > 0) return null;
    const custom = this.m.projections === "custom";
    return {
      words: this.m.names.slice(),
      X: this.m.xv.map((row) => row.slice()),
      positions: this.m.positions,
      scale: this.m.scale,
      causal: this.m.causal,
      projections: this.m.projections,
      W_Q: custom ? this.m.wv.W_Q.map((row) => row.slice()) : null,
      W_K: custom ? this.m.wv.W_K.map((row) => row.slice()) : null,
      W_V: custom ? this.m.wv.W_V.map((row) => row.slice()) : null,
      heads: this.m.heads,
      decimals: this.m.decimals,
      selected: this.m.selected,
    };
  }

  /** The widths of Q and K (d_k) and of V (d_v) that the projections give. */
  widths() {
    const d = this.m.x[0].length;
    if (this.m.projections === "custom") return { dk: this.m.wv.W_Q[0].length, dv: this.m.wv.W_V[0].length };
    return { dk: d, dv: d };
  }

  scheduleUrl() {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => this.writeUrl(), URL_DELAY);
  }

  writeUrl() {
    clearTimeout(this.urlTimer);
    this.urlTimer = 0;
    const state = this.mode === "model" ? this.modelState : this.state();
    if (!state || !this.root.isConnected) return;
    const url = new URL(location.href);
    for (const key of LINK_KEYS) url.searchParams.delete(key); // a page's ?preset=... link, now in the #part
    url.hash = this.mode === "model" ? encodeModelLink(state) : encodeLink(state, this.presets, this.m.preset);
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  }

  /** Copy the address (the mode's state), and say so; the sentence is also returned, for the model's mode. */
  async copyLink() {
    this.writeUrl();
    let status;
    if (this.mode === "attention" && !this.state()) {
      status = "Fix the marked fields first: a link holds only a state that can be computed.";
    } else {
      try {
        await navigator.clipboard.writeText(location.href);
        status = "Link copied.";
      } catch {
        status = "Copy the address from the address bar: it holds everything shown here.";
      }
    }
    if (this.mode === "attention") setText(this.copyStatus, status);
    return status;
  }

  // ---- the editable grids --------------------------------------------------------------------

  /** A word's label in the tables: its name, with its position when the name comes twice. */
  rowLabel(i) {
    const name = this.m.names[i];
    return this.errors.has(`name-${i}`) || name.trim() === "" ? `word ${i + 1}` : wordLabels(this.m.names)[i];
  }

  /** A number field: `text` as typed, or null to show `value` (fieldText). */
  numberInput(key, text, value, label) {
    const shown = text ?? fieldText(value, this.m.decimals);
    const rounded = text === null && Number(shown) !== value;
    return h("input", {
      type: "text",
      id: `pg-${key}`,
      class: rounded ? "pg-number pg-rounded" : "pg-number",
      value: shown,
      title: rounded ? `Rounded to ${this.m.decimals} decimals; the playground computes with ${String(value)}` : null,
      "data-key": key,
      "aria-label": label,
      autocomplete: "off",
      spellcheck: "false",
      autocapitalize: "off",
      enterkeyhint: "next",
    });
  }

  buildGrids() {
    const { names, x } = this.m;
    const d = x[0].length;
    const n = names.length;
    const head = h("tr", {}, h("th", { scope: "col", text: "word" }));
    for (let k = 0; k < d; k++) head.append(h("th", { scope: "col", text: `x${k + 1}` }));
    head.append(h("th", { scope: "col", class: "pg-sr", text: "remove" }));
    const body = h("tbody");
    for (let i = 0; i < n; i++) {
      const tr = h("tr", { "data-row": i });
      tr.append(
        h(
          "td",
          {},
          h("input", {
            type: "text",
            id: `pg-name-${i}`,
            class: "pg-name",
            value: names[i],
            "data-key": `name-${i}`,
            "aria-label": `Name of word ${i + 1}`,
            autocomplete: "off",
            spellcheck: "false",
            enterkeyhint: "next",
          }),
        ),
      );
      for (let k = 0; k < d; k++) {
        tr.append(h("td", {}, this.numberInput(`x-${i}-${k}`, x[i][k], this.m.xv[i][k], `${this.rowLabel(i)}, x${k + 1}`)));
      }
      const remove = h("button", {
        type: "button",
        class: "pg-remove",
        "data-remove": i,
        "aria-label": `Remove ${this.rowLabel(i)}`,
        title: "Remove this word",
        text: "×",
      });
      remove.addEventListener("click", () => this.removeWord(i));
      tr.append(h("td", {}, remove));
      body.append(tr);
    }
    this.wordsTable.replaceChildren(
      h("caption", { class: "pg-sr", text: "Words and their vectors" }),
      h("thead", {}, head),
      body,
    );

    // The reader's matrices, when the projections are theirs.
    const custom = this.m.projections === "custom";
    this.customSection.hidden = !custom;
    if (custom) {
      const tables = W_NAMES.map((name) => {
        const W = this.m.w[name];
        const thead = h("tr", {}, h("th", { scope: "col", class: "pg-corner", text: name }));
        W[0].forEach((_, j) => thead.append(h("th", { scope: "col", text: `c${j + 1}` })));
        const tbody = h("tbody");
        W.forEach((row, i) => {
          const tr = h("tr", {}, h("th", { scope: "row", text: `x${i + 1}` }));
          row.forEach((v, j) => {
            const label = `${name}, row x${i + 1}, column c${j + 1}`;
            tr.append(h("td", {}, this.numberInput(`${name}-${i}-${j}`, v, this.m.wv[name][i][j], label)));
          });
          tbody.append(tr);
        });
        const table = h(
          "table",
          { class: "pg-table pg-input", id: `pg-${name}` },
          h("caption", { text: name }),
          h("thead", {}, thead),
          tbody,
        );
        return h("div", { class: "pg-scroll pg-scroll--input" }, table);
      });
      this.matricesBox.replaceChildren(...tables);
      const { dk, dv } = this.widths();
      this.dkSelect.value = String(dk);
      this.dvSelect.value = String(dv);
    } else {
      this.matricesBox.replaceChildren();
    }
    const rounded = this.root.querySelectorAll(".pg-rounded").length > 0;
    setText(
      this.roundedNote,
      rounded
        ? `Numbers with more digits than ${this.m.decimals} decimals (the learned weights, or a link's) are shown ` +
            "rounded to them, as the tables are; the playground computes with every digit until you type over one."
        : "",
    );
    this.roundedNote.hidden = !rounded;
    this.validateAll();
    this.watchScrolling();
    this.m.names.forEach((_, i) => this.relabelRow(i)); // labels follow the names' checks
    this.syncStructureButtons();
    this.syncSelected(true);
    this.renderFields(); // a field of the same key is the same number; a field gone takes its box with it
  }

  /** Every field checked again (after a rebuild). */
  validateAll() {
    this.errors.clear();
    // Only what the reader typed: a field that shows its value holds a number already.
    this.m.x.forEach((row, i) => row.forEach((t, k) => t !== null && this.checkNumber(`x-${i}-${k}`, t)));
    if (this.m.w && this.m.projections === "custom") {
      for (const name of W_NAMES) {
        this.m.w[name].forEach((row, i) => row.forEach((t, j) => t !== null && this.checkNumber(`${name}-${i}-${j}`, t)));
      }
    }
    this.checkNames();
    this.renderErrors();
  }

  checkNumber(key, text) {
    const [kind, i, k] = key.split("-");
    const parsed = parseNumber(text);
    const values = kind === "x" ? this.m.xv : this.m.wv?.[kind];
    if (values) values[+i][+k] = parsed.error ? NaN : parsed.value;
    this.setError(key, parsed.error ?? null);
  }

  checkNames() {
    const { names } = this.m;
    names.forEach((name, i) => {
      this.setError(`name-${i}`, nameError(name));
    });
    // One word typed two ways (the same in NFC): refused as a spec refuses such tokens.
    for (const { index, message } of namesProblems(names)) this.setError(`name-${index}`, message);
  }

  setError(key, message) {
    const input = this.root.querySelector(`#pg-${CSS.escape(key)}`);
    if (message) {
      this.errors.set(key, message);
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", `pg-${key}-error`);
      }
    } else {
      this.errors.delete(key);
      if (input && input.hasAttribute("aria-invalid")) {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }
  }

  fieldName(key) {
    const [kind, i, k] = key.split("-");
    if (kind === "name") return `Name of word ${+i + 1}`;
    if (kind === "x") return `${this.rowLabel(+i)}, x${+k + 1}`;
    return `${kind}, row x${+i + 1}, column c${+k + 1}`;
  }

  /** The messages under each grid, one per field that holds something not allowed. */
  renderErrors() {
    const lists = { words: [], matrices: [] };
    for (const [key, message] of this.errors) {
      const li = h(
        "li",
        { id: `pg-${key}-error` },
        h("button", { type: "button", class: "pg-goto", "data-goto": key, text: this.fieldName(key) }),
        `: ${message}`,
      );
      (key.startsWith("W_") ? lists.matrices : lists.words).push([key, li]);
    }
    const order = (a, b) => this.fieldOrder(a[0]) - this.fieldOrder(b[0]);
    for (const [list, items] of [
      [this.wordsErrors, lists.words],
      [this.matrixErrors, lists.matrices],
    ]) {
      items.sort(order);
      const signature = items.map(([k]) => `${k}:${this.errors.get(k)}:${this.fieldName(k)}`).join("|");
      if (list.dataset.signature === signature) continue;
      list.dataset.signature = signature;
      list.replaceChildren(...items.map(([, li]) => li));
    }
    const stale = this.errors.size > 0;
    setText(
      this.stale,
      stale && this.last
        ? "These results are for the last numbers that could be computed: fix the fields marked above to update them."
        : "",
    );
    this.stale.hidden = !stale;
  }

  fieldOrder(key) {
    const [kind, i, k] = key.split("-");
    const d = 32;
    const base = { name: 0, x: 0, W_Q: 1, W_K: 2, W_V: 3 }[kind] * d * d * 2;
    return base + +i * (d + 1) + (kind === "name" ? 0 : +k + 1);
  }

  syncStructureButtons() {
    const n = this.m.names.length;
    const d = this.m.x[0].length;
    const flag = (button, off) => button.setAttribute("aria-disabled", off ? "true" : "false");
    flag(this.addWordButton, n >= LIMITS.words);
    flag(this.addDimButton, d >= LIMITS.dims);
    flag(this.removeDimButton, d <= 1);
    for (const b of this.wordsTable.querySelectorAll(".pg-remove")) flag(b, n <= 1);
  }

  structureRefused(message, button) {
    setText(this.structureMessage, message);
    button.setAttribute("aria-describedby", "pg-structure-message");
  }

  structureDone() {
    setText(this.structureMessage, "");
    for (const b of this.root.querySelectorAll("[aria-describedby='pg-structure-message']")) b.removeAttribute("aria-describedby");
  }

  freshName() {
    for (let k = this.m.names.length + 1; ; k++) {
      const name = `word${k}`;
      if (!this.m.names.some((n) => n.trim() === name)) return name;
    }
  }

  addWord() {
    const n = this.m.names.length;
    if (n >= LIMITS.words) {
      this.structureRefused(`A sentence here has at most ${LIMITS.words} words: remove one before adding another.`, this.addWordButton);
      return;
    }
    const d = this.m.x[0].length;
    this.m.names.push(this.freshName());
    this.m.x.push(Array(d).fill(null));
    this.m.xv.push(Array(d).fill(0));
    this.m.xFrom.push(Array(d).fill({ from: "new", what: "word" }));
    this.structureDone();
    this.rebuilt();
    const input = this.root.querySelector(`#pg-name-${n}`);
    input.focus();
    input.select();
  }

  removeWord(i) {
    const n = this.m.names.length;
    const button = this.wordsTable.querySelector(`[data-remove="${i}"]`);
    if (n <= 1) {
      this.structureRefused("A sentence needs at least one word: this is the last one.", button);
      return;
    }
    this.m.names.splice(i, 1);
    this.m.x.splice(i, 1);
    this.m.xv.splice(i, 1);
    this.m.xFrom.splice(i, 1);
    this.hideField(this.fieldBoxes.x); // the rows after it move up: its keys name other words now
    if (this.m.selected >= i && this.m.selected > 0) this.m.selected -= 1;
    this.structureDone();
    this.rebuilt();
    const next = this.wordsTable.querySelector(`[data-remove="${Math.min(i, n - 2)}"]`);
    (next ?? this.addWordButton).focus();
  }

  /**
   * The reader's matrices resized to d rows, W_Q and W_K to dk columns and W_V to dv (by default:
   * as many as before, or d for a square matrix, which stays square). New entries are those of the
   * identity matrix; the others keep their values.
   */
  resizeCustom(d, { dk, dv } = {}) {
    for (const name of W_NAMES) {
      const before = this.m.wv[name];
      const square = before[0].length === before.length;
      const cols = (name === "W_V" ? dv : dk) ?? (square ? d : before[0].length);
      for (const key of ["w", "wv", "wFrom"]) {
        const W = this.m[key][name];
        const entry = (i, j) => ({ w: null, wv: i === j ? 1 : 0, wFrom: { from: "identity" } })[key];
        W.length = Math.min(W.length, d);
        W.forEach((row, i) => {
          row.length = Math.min(row.length, cols);
          while (row.length < cols) row.push(entry(i, row.length));
        });
        while (W.length < d) {
          const i = W.length;
          W.push(Array.from({ length: cols }, (_, j) => entry(i, j)));
        }
      }
    }
  }

  /** The dimensions change under the learned weights: they become the reader's own. */
  leaveLearned(d) {
    if (this.m.projections !== "learned") return;
    const learned = projectionsOf({ projections: "learned" }, this.presets);
    this.setCustom(learned.W_Q, learned.W_K, learned.W_V, this.learnedOrigin());
    this.m.projections = "custom";
    this.projSelect.value = "custom";
    this.resizeCustom(d);
    setText(
      this.projMessage,
      `The learned weights need vectors of ${learnedDims(this.presets)} numbers, so the projections are now your own ` +
        "matrices, starting from the learned ones.",
    );
  }

  addDim() {
    const d = this.m.x[0].length;
    if (d >= LIMITS.dims) {
      this.structureRefused(`A vector here has at most ${LIMITS.dims} numbers.`, this.addDimButton);
      return;
    }
    this.m.x.forEach((row) => row.push(null));
    this.m.xv.forEach((row) => row.push(0));
    this.m.xFrom.forEach((row) => row.push({ from: "new", what: "dimension" }));
    this.leaveLearned(d + 1);
    if (this.m.projections === "custom") this.resizeCustom(d + 1);
    this.structureDone();
    this.rebuilt();
    this.addDimButton.focus();
  }

  removeDim() {
    const d = this.m.x[0].length;
    if (d <= 1) {
      this.structureRefused("A vector needs at least one number.", this.removeDimButton);
      return;
    }
    this.m.x.forEach((row) => row.pop());
    this.m.xv.forEach((row) => row.pop());
    this.m.xFrom.forEach((row) => row.pop());
    this.leaveLearned(d - 1);
    if (this.m.projections === "custom") this.resizeCustom(d - 1);
    this.structureDone();
    this.rebuilt();
    this.removeDimButton.focus();
  }

  rebuilt() {
    setText(this.headsMessage, "");
    this.fitHeads();
    this.buildGrids();
    this.recompute();
    this.scheduleUrl();
  }

  /** The numbers of heads, from 1 up, that split the widths of Q, K and V now. */
  allowedHeads() {
    const { dk, dv } = this.widths();
    return Array.from({ length: LIMITS.heads }, (_, k) => k + 1).filter((k) => !headsProblem(k, dk, dv));
  }

  onHeads() {
    const k = Number(this.headsSelect.value);
    const { dk, dv } = this.widths();
    const problem = headsProblem(k, dk, dv);
    setText(this.headsMessage, "");
    if (problem) {
      this.headsSelect.value = String(this.m.heads);
      const what = this.m.projections === "custom" ? "the dimensions or the columns of your matrices" : "the dimensions";
      setText(
        this.headsMessage,
        `${problem}. Here ${orList(this.allowedHeads())} can split them; change ${what} first to have ${k}.`,
      );
      return;
    }
    this.m.heads = k;
    this.shownHead = 0;
    this.rebuilt();
  }

  /** After the widths change: back to one head if the heads no longer split them, saying so. */
  fitHeads() {
    const { dk, dv } = this.widths();
    const problem = headsProblem(this.m.heads, dk, dv);
    if (!problem) return;
    this.m.heads = 1;
    this.shownHead = 0;
    this.headsSelect.value = "1";
    setText(this.headsMessage, `${problem}, so the playground is back to 1 head.`);
  }

  onProjections() {
    const value = this.projSelect.value;
    const d = this.m.x[0].length;
    setText(this.projMessage, "");
    if (value === "learned" && d !== learnedDims(this.presets)) {
      this.projSelect.value = this.m.projections;
      const k = learnedDims(this.presets);
      setText(
        this.projMessage,
        `The learned weights are ${k} × ${k}: they need vectors of ${k} numbers, and these have ${d}. ` +
          `Add or remove dimensions first, or choose your own matrices.`,
      );
      return;
    }
    if (value === "custom" && this.m.projections !== "custom") {
      // The reader's matrices start from the projections in effect until now.
      if (this.m.projections === "learned") {
        const learned = projectionsOf({ projections: "learned" }, this.presets);
        this.setCustom(learned.W_Q, learned.W_K, learned.W_V, this.learnedOrigin());
      } else {
        this.setCustom(identity(d), identity(d), identity(d), { from: "identity" });
      }
    }
    this.m.projections = value;
    this.rebuilt();
  }

  onInput(e) {
    const target = e.target;
    const key = target.dataset?.key;
    if (!key) return;
    const [kind, i, k] = key.split("-");
    if (kind === "name") {
      this.m.names[+i] = target.value;
      this.checkNames();
      this.m.names.forEach((_, r) => this.relabelRow(r));
      this.syncSelected(false);
    } else if (kind === "x") {
      this.m.x[+i][+k] = target.value;
      this.checkNumber(key, target.value);
    } else {
      this.m.w[kind][+i][+k] = target.value;
      this.checkNumber(key, target.value);
    }
    this.renderErrors();
    this.recompute();
    this.renderFields(); // "the number you typed"
    this.scheduleUrl();
  }

  relabelRow(i) {
    const label = this.rowLabel(i);
    const row = this.wordsTable.tBodies[0].rows[i];
    row.querySelectorAll(".pg-number").forEach((input, k) => input.setAttribute("aria-label", `${label}, x${k + 1}`));
    row.querySelector(".pg-remove").setAttribute("aria-label", `Remove ${label}`);
  }

  /** Arrow keys and Enter move between the cells of a grid, as in a spreadsheet. */
  onKeydown(e) {
    const input = e.target;
    if (!(input instanceof HTMLInputElement) || !input.dataset.key || e.altKey || e.ctrlKey || e.metaKey) return;
    const cell = input.closest("td");
    const tr = cell?.parentElement;
    const table = tr?.closest("table");
    if (!table) return;
    const col = cell.cellIndex;
    const rows = [...table.tBodies[0].rows];
    const r = rows.indexOf(tr);
    let target = null;
    const inputAt = (row, c) => row?.cells[c]?.querySelector("input") ?? null;
    if (e.key === "ArrowUp") target = inputAt(rows[r - 1], col);
    else if (e.key === "ArrowDown" || (e.key === "Enter" && !e.shiftKey)) target = inputAt(rows[r + 1], col);
    else if (e.key === "Enter" && e.shiftKey) target = inputAt(rows[r - 1], col);
    else if (e.key === "ArrowLeft" && input.selectionStart === 0 && input.selectionEnd === 0) target = inputAt(tr, col - 1);
    else if (e.key === "ArrowRight" && input.selectionStart === input.value.length && input.selectionEnd === input.value.length) {
      target = inputAt(tr, col + 1);
    } else return;
    if (e.key === "Enter") e.preventDefault();
    if (!target) return;
    e.preventDefault();
    target.focus();
    target.select();
  }

  /** The step-3 word choice follows the words. */
  syncSelected(rebuild) {
    const n = this.m.names.length;
    if (this.m.selected >= n) this.m.selected = n - 1;
    const options = this.selectedSelect.options;
    if (rebuild || options.length !== n) {
      this.selectedSelect.replaceChildren(...this.m.names.map((_, i) => h("option", { value: String(i), text: this.rowLabel(i) })));
    } else {
      for (let i = 0; i < n; i++) setText(options[i], this.rowLabel(i));
    }
    this.selectedSelect.value = String(this.m.selected);
    // The word followed step by step: the same words, its own choice.
    const chosen = Math.min(Number(this.stepWord.value) || 0, n - 1);
    if (rebuild || this.stepWord.options.length !== n) {
      this.stepWord.replaceChildren(...this.m.names.map((_, i) => h("option", { value: String(i), text: this.rowLabel(i) })));
    } else {
      for (let i = 0; i < n; i++) setText(this.stepWord.options[i], this.rowLabel(i));
    }
    this.stepWord.value = String(chosen);
  }

  changed() {
    this.m.scale = this.scaleBox.checked;
    this.m.causal = this.causalBox.checked;
    this.m.positions = this.positionsBox.checked ? "sinusoidal" : null;
    const decimals = Number(this.decimalsSelect.value);
    const rounding = decimals !== this.m.decimals;
    this.m.decimals = decimals;
    this.m.selected = Number(this.selectedSelect.value);
    if (rounding) this.buildGrids(); // the fields that show a value rounded show it at the new rounding
    this.recompute();
    this.scheduleUrl();
  }

  // ---- the results ---------------------------------------------------------------------------

  recompute() {
    const state = this.state();
    if (!state) {
      this.renderErrors();
      return;
    }
    let result;
    try {
      const args = {
        X: state.X,
        positions: state.positions,
        ...projectionsOf(state, this.presets),
        scale: state.scale,
        causal: state.causal,
        heads: state.heads,
      };
      // every number with the bound on its float64 error, so that it shows only the digits it holds
      result = withErrors(attention(args), args, state.projections === "custom");
    } catch (e) {
      // The limits of state.js keep every result finite; shown rather than thrown, just in case.
      this.stale.hidden = false;
      setText(this.stale, `These numbers cannot be computed (${e.message}); the results shown are the last that could be.`);
      return;
    }
    this.last = { state, result, labels: wordLabels(state.words) };
    this.render();
    this.renderErrors();
    this.syncPreset(state);
  }

  /** The list shows the example the state holds: the one it was opened as, if another holds the same numbers. */
  syncPreset(state) {
    const n = state.words.length;
    const d = state.X[0].length;
    const fits = this.presets.presets.some((p) => p.tokens.length === n && p.embeddings[0].length === d);
    const value = (fits && presetOf(state, this.presets, this.m.preset)) || "";
    if (this.presetSelect.value !== value) this.presetSelect.value = value;
  }

  render() {
    const { state, result: r, labels } = this.last;
    const dec = state.decimals;
    const dims = (M, prefix) => M[0].map((_, j) => `${prefix}${j + 1}`);
    const projecting = state.projections !== "none";
    const many = r.heads.length > 1;
    if (this.shownHead >= r.heads.length) this.shownHead = 0;
    const h0 = this.shownHead;
    const a = r.heads[h0]; // the head the tables show

    // The projections.
    const learned = state.projections === "learned";
    this.learnedSection.hidden = !learned;
    if (learned) {
      const p = this.presets.presets.find((q) => q.slug === this.presets.learned);
      const origin = p.origin ?? {};
      const d = p.W_Q.length;
      // In the words of the learned-weights page (CONTRIBUTING: one name, one sentence).
      setText(
        this.learnedNote,
        `Seeded random stand-ins for the weights training would learn, drawn by NumPy, not typed: ` +
          `np.random.default_rng(${origin.seed}), then rng.normal(0, ${origin.std}, (${d}, ${d})) three times, in the order ` +
          "W_Q, W_K, W_V (the Learned weights page). Rounded here; the playground computes with every digit. " +
          "Click a number to see which draw it is.",
      );
      W_NAMES.forEach((name, t) => {
        const W = p[name];
        this.learnedViews[t].update(matrixCells(W, dec), W.map((_, i) => `x${i + 1}`), dims(W, "c"));
      });
    }
    const projHelp = {
      none: "Q = K = V = X: each word's own vector",
      identity: "Q = X·I, K = X·I, V = X·I: the same as X",
      learned: "Q = X·W_Q, K = X·W_K, V = X·W_V with the learned weights",
      custom: "Q = X·W_Q, K = X·W_K, V = X·W_V with your matrices",
    }[state.projections];
    setText(this.projHelp, projHelp);

    // The heads: each takes its share of the columns of Q, K and V.
    const dk = r.Q[0].length;
    const dHead = a.Q[0].length;
    setText(
      this.headsHelp,
      many ? `${r.heads.length} heads of width d_head = ${dk} / ${r.heads.length} = ${dHead}` : "one head, as on the other pages",
    );
    setText(this.scaleHeads, many ? " (each head by √d_head, the width of its own keys)" : "");
    this.headBox.hidden = !many;
    if (many) {
      if (this.headSelect.options.length !== r.heads.length) {
        this.headSelect.replaceChildren(...r.heads.map((_, k) => h("option", { value: String(k), text: `Head ${k + 1}` })));
      }
      this.headSelect.value = String(h0);
      const parts = r.heads.map((_, k) => `head ${k + 1} columns ${headColumns(r, k, "Q", projecting)}`);
      const X = projecting ? "Q, K and V" : "X (Q = K = V = X)";
      setText(
        this.headHelp,
        `Each head scores, scales, normalizes and mixes its own columns of ${X}: ${parts.join(", ")}. ` +
          "Steps 1 and 2 below show the head chosen here; step 3 puts the heads' outputs side by side.",
      );
    }

    // The positions, added to the words' vectors before the steps.
    this.positionsSection.hidden = !r.PE;
    if (r.PE) {
      const d = r.PE[0].length;
      setText(
        this.positionsHelp,
        `The sinusoidal positional encoding: PE(pos) for pos = 0 to ${r.PE.length - 1} (the first word sits at pos = 0), ` +
          `pair p of its columns a sine and a cosine of pos / 10000^(2p/d), d = ${d}. Each word's vector plus its ` +
          `position's, X + PE, is what every step below reads.`,
      );
      this.views.PE.update(matrixCells(r.PE, dec, r.errors.PE), r.PE.map((_, i) => String(i)), dims(r.PE, "x"));
      this.views.XPE.update(matrixCells(r.X, dec, r.errors.X), labels.map((l, i) => `${l} (pos ${i})`), dims(r.X, "x"));
    }

    this.qkvSection.hidden = !projecting;
    if (projecting && this.qkvSection.open) {
      // Only while shown: at 16 × 16 that is 768 numbers less per keystroke (see "toggle").
      for (const name of ["Q", "K", "V"]) {
        const M = r[name];
        this.views[name].update(matrixCells(M, dec, r.errors[name]), labels, dims(M, "c"));
      }
    }

    // Step 1.
    const inHead = many ? ` In head ${h0 + 1}: columns ${headColumns(r, h0, "Q", projecting)} only.` : "";
    setText(
      this.scoresFormula,
      (projecting ? "S = Q·Kᵀ: query i against key j." : "S = X·Xᵀ: each word's vector against every other's.") + inHead,
    );
    this.views.scores.update(matrixCells(a.scores, dec, a.errors.scores), labels, labels);

    // The scores the softmax reads, when they differ from S.
    const shown = state.scale || state.causal;
    this.scaledBox.hidden = !shown;
    if (shown) {
      setText(
        this.scaledHeading,
        state.scale && state.causal ? "Scaled and masked scores" : state.scale ? "Scaled scores" : "Masked scores",
      );
      const parts = [];
      // The pages' names (docs/notation.md): S / √d_k are the scaled scores.
      if (state.scale) parts.push(many ? `the scaled scores S / √d_head, with d_head = ${dHead}` : `the scaled scores S / √d_k, with d_k = ${dHead}`);
      if (state.causal) parts.push("−∞ where a word would look at a later word (its weight becomes 0)");
      const formula = parts.join("; ") + ".";
      setText(this.scaledFormula, formula.charAt(0).toUpperCase() + formula.slice(1));
      const finite = a.logits.map((row) => row.filter((x) => x !== -Infinity));
      const integral = isIntegral(finite);
      const texts = a.logits.map((row, i) => row.map((x, j) => cell(x, dec, integral, a.errors.logits[i][j])));
      this.views.scaled.update(texts, labels, labels);
    }

    // Step 2 and step 3. The output's columns are V's: c1, c2, ... as V's table, or x1, x2, ... as
    // the words' vectors when there are no projections (V = X), as the pages and Notation name them.
    this.views.weights.update(matrixCells(a.weights, dec, a.errors.weights), labels, labels, a.weights);
    const outCols = r.output[0].map((_, c) => columnName(c, projecting));
    this.views.output.update(matrixCells(r.output, dec, r.errors.output), labels, outCols);
    const V = projecting ? "V" : "V (here V = X)";
    setText(
      this.outputHelp,
      many
        ? `Each head mixes its own columns of ${V} with its own weights; side by side, times W_O = I (the identity, ` +
            `as on the multi-head page), they are the output: columns ${headColumns(r, 0, "V", projecting)} from head 1, and so on.`
        : `Each output row is the weights of that row times the rows of ${V}, added up: column ${outCols[0]} of the ` +
            `output mixes column ${outCols[0]} of V, and so on.`,
    );
    const i = Math.min(state.selected, labels.length - 1);
    const errors = { weights: a.errors.weights[i], V: a.errors.V, output: a.errors.output[i] };
    const mix = mixText(labels, a.weights[i], a.V, a.output[i], dec, false, errors);
    setText(this.mixHeading, many ? `Mix for one word in head ${h0 + 1}, written out` : "Mix for one word, written out");
    setText(this.mixCode, mix.lines.join("\n"));
    this.scale.paint();

    this.explainer.render(false);
    this.renderStep(false);
    this.renderTasks();
  }

  repaint() {
    if (this.last) this.views.weights.paint(this.last.result.heads[this.shownHead].weights);
    this.scale.paint();
    this.model?.repaint();
  }


  // ---- how a number was made -----------------------------------------------------------------

  onCellFocus(e) {
    const target = e.target;
    // A field of the grids says where its number comes from (originText).
    if (target instanceof HTMLInputElement && target.classList.contains("pg-number")) {
      if (e.type === "focusin") this.explainField(target.dataset.key);
      return;
    }
    this.explainer.onFocus(e); // a number of a table: how it was made ("scores", "W_Q", "PE", ...)
  }

  /** Escape in a field closes its box; in a table, the explainer's keys (CellExplainer.onKeydown). */
  onCellKeydown(e) {
    const td = e.target;
    if (e.key === "Escape" && td instanceof HTMLInputElement && td.dataset.key) {
      const fb = this.fieldBoxOf(td.dataset.key);
      if (fb.key === td.dataset.key) this.hideField(fb);
      return;
    }
    this.explainer.onKeydown(e);
  }

  /** A box that says where the number of a field comes from: {box, title, code, key}. */
  fieldBox(id) {
    const title = h("p", { class: "pg-explain-title", id: `${id}-title` });
    const code = h("code", {});
    const close = h("button", { type: "button", class: "pg-button", id: `${id}-close`, text: "Close" });
    const box = h(
      "div",
      { class: "pg-explain pg-field-explain", id, role: "region", "aria-labelledby": `${id}-title`, hidden: true },
      title,
      h("pre", { "aria-label": "Where the number comes from" }, code),
      close,
    );
    const fb = { box, title, code, key: null };
    close.addEventListener("click", () => this.hideField(fb));
    return fb;
  }

  /** The box of the grid a field belongs to: the words' vectors ("x-0-1") or the matrices ("W_Q-2-0"). */
  fieldBoxOf(key) {
    return key.startsWith("x-") ? this.fieldBoxes.x : this.fieldBoxes.W;
  }

  /** Say where the number of a field comes from ("x-0-1", "W_Q-2-0"), and say so. */
  explainField(key) {
    const fb = this.fieldBoxOf(key);
    fb.key = key;
    this.renderField(fb, true);
  }

  hideField(fb) {
    fb.key = null;
    fb.box.hidden = true;
  }

  /** Each box under a grid again (after an edit, or a grid built anew), or hidden if its field is gone. */
  renderFields() {
    for (const fb of Object.values(this.fieldBoxes)) this.renderField(fb, false);
  }

  /** Where the number of a field comes from (originText), in its grid's box. */
  renderField(fb, announce) {
    const key = fb.key;
    if (key === null) return;
    const input = this.root.querySelector(`#pg-${CSS.escape(key)}`);
    if (!input || input.closest("[hidden]")) {
      this.hideField(fb);
      return;
    }
    const [kind, si, sj] = key.split("-");
    const [i, j] = [+si, +sj];
    const typed = kind === "x" ? this.m.x[i][j] : this.m.w[kind][i][j];
    const value = kind === "x" ? this.m.xv[i][j] : this.m.wv[kind][i][j];
    const origin = typed !== null ? { from: "typed", text: typed } : kind === "x" ? this.m.xFrom[i][j] : this.m.wFrom[kind][i][j];
    const label = kind === "x" ? this.rowLabel(i) : "";
    const { title, lines } = originText(origin, kind === "x" ? "X" : kind, i, j, value, this.m.decimals, label);
    setText(fb.title, title);
    setLines(fb.code, lines);
    fb.box.dataset.field = key;
    fb.box.hidden = false;
    if (announce) this.announce(`${title} ${lines.join(" ")}`);
  }

  /**
   * {title, lines, anchor, cell, used} of the explanation asked for ({table, i, j}: a cell of
   * "scores", "scaled", "weights", "output", "Q", "W_Q", "PE", ...), or null when what it explains
   * is not shown.
   */
  explanationOf(at) {
    const { state, result: r, labels } = this.last;
    const projecting = state.projections !== "none";
    const dec = state.decimals;
    const view = this.views[at.table];
    if (view.wrap.closest("[hidden]") || at.i >= view.cells.length || at.j >= view.cells[0].length) return null;
    let title;
    let lines;
    let used = [];
    if (W_NAMES.includes(at.table)) {
      // The learned weights: NumPy's seeded draw.
      const W = projectionsOf({ projections: "learned" }, this.presets)[at.table];
      ({ title, lines } = originText(this.learnedOrigin(), at.table, at.i, at.j, W[at.i][at.j], dec));
    } else {
      const e = explainCell(r, at.table, at.i, at.j, this.shownHead);
      ({ title, lines } = explanationText(e, r, labels, dec, projecting));
      // A head's scores and weights are outlined only while the tables show that head.
      used = usedCells(e, projecting)
        .filter((u) => u.h === undefined || u.h === this.shownHead)
        .flatMap((u) => this.cellsOf(u));
    }
    const box = view.wrap.parentElement.classList.contains("pg-matrices") ? view.wrap.parentElement : view.wrap;
    const anchor = view === this.views.weights ? this.legend : box; // under the colour scale
    return { title, lines, anchor, cell: view.cells[at.i][at.j], used };
  }

  /** The number fields of the words' grid (each row's first cell is the name, its last the remove button). */
  gridCells() {
    return [...this.wordsTable.tBodies[0].rows].map((tr) => [...tr.cells].slice(1, -1));
  }

  /** The elements of a {table, i, j} of usedCells(): j null for a row, i null for a column. */
  cellsOf({ table, i, j }) {
    let grid;
    if (table === "E" || (table === "X" && this.positionsSection.hidden)) {
      grid = this.gridCells(); // the words' vectors, as typed
    } else if (table === "X") {
      grid = this.views.XPE.cells; // what the steps read: the vectors plus their positions
    } else if (table === "logits") {
      grid = (this.scaledBox.hidden ? this.views.scores : this.views.scaled).cells;
    } else if (W_NAMES.includes(table)) {
      // The column of W a cell of Q, K or V reads: the learned weights' table, or the reader's fields.
      const custom = this.matricesBox.querySelector(`#pg-${table}`);
      if (this.m.projections === "learned") grid = this.views[table].cells;
      else if (custom) grid = [...custom.tBodies[0].rows].map((tr) => [...tr.cells].slice(1));
      else return [];
    } else {
      grid = this.views[table].cells;
    }
    if (i !== null && j !== null) return grid[i]?.[j] ? [grid[i][j]] : [];
    if (i !== null) return grid[i] ?? [];
    return grid.map((row) => row[j]).filter(Boolean);
  }


  // ---- one word, step by step ----------------------------------------------------------------

  moveStep(delta) {
    if (delta < 0 && this.step <= 0) {
      this.announce("This is the first step.");
      return;
    }
    // "Next step" after the last one starts again at the first.
    this.step = this.step < 0 ? 0 : (this.step + delta) % STEPS.length;
    this.renderStep(true);
  }

  renderStep(announce) {
    const k = this.step;
    // A step that the settings turn off (projections, scaling, the causal mask) says so in the list too.
    const off = {
      project: this.last && this.last.state.projections === "none",
      scale: this.last && !this.last.state.scale,
      mask: this.last && !this.last.state.causal,
    };
    this.stepItems.forEach((li, t) => {
      if (t === k) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
      const id = STEPS[t];
      setText(li, off[id] ? `${id} (off)` : id);
      li.classList.toggle("pg-step-off", Boolean(off[id]));
    });
    this.stepPrev.setAttribute("aria-disabled", k <= 0 ? "true" : "false");
    if (k < 0 || !this.last) {
      this.stepBox.hidden = true;
      this.marks.set("pg-step-row", []);
      return;
    }
    const { state, result: r, labels } = this.last;
    const i = Math.min(Number(this.stepWord.value) || 0, labels.length - 1);
    const projecting = state.projections !== "none";
    const step = rowSteps(r, i, state, this.shownHead)[k];
    const { title, lines, rows } = stepText(step, r, i, labels, state.decimals, projecting, this.shownHead);
    setText(this.stepTitle, title);
    setLines(this.stepCode, lines, rows);
    this.stepBox.dataset.step = step.id;
    this.stepBox.hidden = false;
    const shown = !this.scaledBox.hidden;
    const table = {
      project: projecting ? this.views.Q : null,
      score: this.views.scores,
      scale: state.scale ? this.views.scaled : this.views.scores,
      mask: shown ? this.views.scaled : this.views.scores,
      normalize: this.views.weights,
      mix: this.views.output,
    }[step.id];
    this.marks.set("pg-step-row", table?.cells[i] ?? []);
    if (announce) this.announce(`${title} ${lines.join(" ")}`);
  }

  // ---- try this ------------------------------------------------------------------------------

  /** A task once achieved stays ticked (until the page is left). */
  renderTasks() {
    const { state, result } = this.last;
    for (const id of tasksAchieved(state, result)) {
      if (this.tasksDone.has(id)) continue;
      this.tasksDone.add(id);
      const item = this.taskItems.get(id);
      item.li.dataset.done = "true";
      setText(item.state, "Done.");
      setText(item.note, item.task.done);
      this.announce(`Task done: ${item.task.done}`);
    }
  }
}

// --- mounting ---------------------------------------------------------------------------------

let current = null;

const STYLESHEET = new URL("playground.css", import.meta.url).href;

/** The playground's stylesheet, in the head (instant navigation drops what no page's head has). */
function ensureStylesheet() {
  let link = [...document.querySelectorAll("link[rel=stylesheet]")].find((l) => l.href === STYLESHEET);
  if (!link) {
    link = h("link", { rel: "stylesheet", href: STYLESHEET });
    link.dataset.loaded = "false";
    link.addEventListener("load", () => (link.dataset.loaded = "true"), { once: true });
    document.head.append(link);
  }
  if (link.dataset.loaded === "false") {
    return new Promise((resolve) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", resolve, { once: true }); // unstyled beats nothing
    });
  }
  return Promise.resolve();
}

function mount() {
  const root = document.getElementById("playground");
  if (current && current.root !== root) {
    current.destroy();
    current = null;
  }
  if (!root || current) return;
  if (root.dataset.state === "loading") return;
  root.dataset.state = "loading";
  Promise.all([loadPresets(), ensureStylesheet()])
    .then(([presets]) => {
      if (!root.isConnected || current) return;
      current = new Playground(root, presets);
      root.dataset.state = "ready";
      root.setAttribute("aria-busy", "false");
    })
    .catch((e) => {
      root.dataset.state = "failed";
      root.replaceChildren(
        h("p", { class: "pg-message", role: "alert", text: `The playground could not load its examples: ${e.message}` }),
      );
    });
}

if (globalThis.document$ && typeof globalThis.document$.subscribe === "function") {
  globalThis.document$.subscribe(() => mount());
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", mount, { once: true });
} else {
  mount();
}
