// How each number of the playground was made, and one word's row step by step. No DOM here.
//
// Every function reads a result of attention() (attention.js) and recomputes nothing the result
// does not already hold, except the terms a reader needs to see: the products of a dot product,
// the exponentials of a softmax row and their total, the products of a weighted sum. These are
// computed as attention.js computes them (same order), so that the terms add up to the number in
// the table. tests/browser/test_playground_teaching.py holds every term equal to NumPy's.
//
// r: {Q, K, V, scores, scaled, logits, weights, output, mask, factor}; i a query (row), j a key
// (column), c a column of V. Counting is from 0 here; the labels shown count from 1.

import { cell, isIntegral, mixLines, num, vector } from "./format.js";

/** Step 1, one cell: the dot product of query i with key j, term by term. */
export function explainScore(r, i, j) {
  const q = r.Q[i];
  const k = r.K[j];
  const products = q.map((x, t) => x * k[t]);
  return { kind: "score", i, j, q, k, products, value: r.scores[i][j] };
}

/** The scaled (and masked) score: the score times 1/√d_k, or −∞ where the mask hides key j. */
export function explainScaled(r, i, j) {
  const masked = r.mask !== null && !r.mask[i][j];
  return {
    kind: "scaled",
    i,
    j,
    score: r.scores[i][j],
    scale: r.scaled !== null,
    factor: r.factor,
    dk: r.Q[0].length,
    masked,
    value: r.logits[i][j],
  };
}

/** The exponentials of row i as the softmax computes them: e^(s − m), m the row's largest. */
function softmaxTerms(r, i) {
  const row = r.logits[i];
  let top = -Infinity;
  for (const x of row) if (x > top) top = x;
  const exps = row.map((x) => Math.exp(x - top)); // e^(−∞) = 0 for a masked score
  let total = 0;
  for (const x of exps) total += x;
  return { logits: row, top, exps, total };
}

/** Step 2, one cell: weight (i, j) = e^(s_j − m) / Σ e^(s − m) over row i. */
export function explainWeight(r, i, j) {
  return { kind: "weight", i, j, ...softmaxTerms(r, i), value: r.weights[i][j] };
}

/** Step 3, one cell: output (i, c) = Σ_j weight (i, j) · V (j, c). */
export function explainOutput(r, i, c) {
  const weights = r.weights[i];
  const values = r.V.map((row) => row[c]);
  const products = weights.map((w, j) => w * values[j]);
  return { kind: "output", i, c, weights, values, products, value: r.output[i][c] };
}

const EXPLAIN = { scores: explainScore, scaled: explainScaled, weights: explainWeight, output: explainOutput };

/** The explanation of a cell of one of the tables "scores", "scaled", "weights", "output". */
export function explainCell(r, table, i, j) {
  return EXPLAIN[table](r, i, j);
}

/**
 * The cells an explanation reads, as {table, i, j} (j null: the whole row i; i null: the whole
 * column j). Table names: "Q", "K", "V" (or "X", the words' vectors, when there are no
 * projections), "scores", "logits" (the scores the softmax reads), "weights".
 */
export function usedCells(e, projecting) {
  const src = (name) => (projecting ? name : "X");
  switch (e.kind) {
    case "score":
      return [
        { table: src("Q"), i: e.i, j: null },
        { table: src("K"), i: e.j, j: null },
      ];
    case "scaled":
      return [{ table: "scores", i: e.i, j: e.j }];
    case "weight":
      return [{ table: "logits", i: e.i, j: null }];
    case "output":
      return [
        { table: "weights", i: e.i, j: null },
        { table: src("V"), i: null, j: e.c },
      ];
    default:
      return [];
  }
}

// --- as text ----------------------------------------------------------------------------------

/** A factor in a product: negative numbers in brackets, "2 × (−0.5)". */
function factor(text) {
  return text.startsWith("-") ? `(${text})` : text;
}

/** Numbers as the tables show them: integers as integers when the whole matrix is integral. */
function formatter(M, decimals) {
  const integral = isIntegral(M);
  return (x) => cell(x, decimals, integral);
}

/**
 * An explanation as {title, lines}: a sentence naming the cell, then the arithmetic, one step a
 * line, with the numbers rounded as the tables round them. labels: the words' labels.
 */
export function explanationText(e, r, labels, decimals, projecting) {
  const L = labels;
  const n = (x) => num(x, decimals);
  if (e.kind === "score") {
    const fq = formatter(r.Q, decimals);
    const fk = formatter(r.K, decimals);
    const fs = formatter(r.scores, decimals);
    const [q, k] = projecting ? ["query", "key"] : ["vector", "vector"];
    const terms = e.q.map((x, t) => `${factor(fq(x))} × ${factor(fk(e.k[t]))}`);
    const qName = projecting ? `q(${L[e.i]})` : `x(${L[e.i]})`;
    const kName = projecting ? `k(${L[e.j]})` : `x(${L[e.j]})`;
    return {
      title: `Score of ${L[e.i]} against ${L[e.j]}: the dot product of ${L[e.i]}'s ${q} with ${L[e.j]}'s ${k}.`,
      lines: [
        `${qName} = ${vector(e.q, decimals)}`,
        `${kName} = ${vector(e.k, decimals)}`,
        `${qName} · ${kName} = ${terms.join(" + ")}`,
        `${" ".repeat(qName.length + kName.length + 3)}= ${e.products.map((x) => fs(x)).join(" + ")}`,
        `${" ".repeat(qName.length + kName.length + 3)}= ${fs(e.value)}`,
      ],
    };
  }
  if (e.kind === "scaled") {
    const fs = formatter(r.scores, decimals);
    const title = `The score of ${L[e.i]} against ${L[e.j]} as the softmax reads it.`;
    const lines = [];
    if (e.scale) {
      lines.push(`score = ${fs(e.score)}`, `score × 1/√d_k = ${factor(fs(e.score))} × 1/√${e.dk} = ${factor(fs(e.score))} × ${n(e.factor)} = ${n(e.score * e.factor)}`);
    } else {
      lines.push(`score = ${fs(e.score)} (not divided: "Divide the scores by √d_k" is off)`);
    }
    if (e.masked) {
      lines.push(`${L[e.j]} comes after ${L[e.i]}: the causal mask replaces this score by −∞, so its weight will be 0.`);
    } else if (r.mask !== null) {
      lines.push(`${L[e.j]} is not after ${L[e.i]}: the causal mask leaves this score as it is.`);
    }
    return { title, lines };
  }
  if (e.kind === "weight") {
    const s = formatter(r.logits, decimals); // −∞ for a masked score
    const lines = [
      `Row ${L[e.i]}: e^(s − m) for each score s the softmax reads, with m = ${s(e.top)}, the row's largest`,
      "(taking m away first changes no weight and keeps e^s from overflowing).",
    ];
    const width = Math.max(...L.map((l) => [...l].length));
    e.logits.forEach((x, j) => {
      const label = L[j] + " ".repeat(width - [...L[j]].length);
      const mark = j === e.j ? "   ← this cell" : "";
      lines.push(x === -Infinity ? `  ${label}  e^(−∞) = 0${mark}` : `  ${label}  e^(${s(x)} − ${factor(s(e.top))}) = ${n(e.exps[j])}${mark}`);
    });
    lines.push(`total = ${e.exps.map((x) => n(x)).join(" + ")} = ${n(e.total)}`);
    lines.push(`weight = ${n(e.exps[e.j])} ÷ ${n(e.total)} = ${n(e.value)}`);
    return { title: `The weight ${L[e.i]} gives ${L[e.j]}: its share of row ${L[e.i]} after the softmax.`, lines };
  }
  // output
  const fv = formatter(r.V, decimals);
  const width = Math.max(...e.weights.map((w) => n(w).length));
  const lines = e.weights.map(
    (w, j) => `${j === 0 ? "  " : "+ "}${n(w).padStart(width)} × ${factor(fv(e.values[j]))}   (${L[j]})`,
  );
  lines.push(`= ${n(e.value)}`);
  const V = projecting ? "V" : "X (here V = X)";
  return {
    title: `Output of ${L[e.i]}, column c${e.c + 1}: row ${L[e.i]} of the weights times column c${e.c + 1} of ${V}, added up.`,
    lines,
  };
}

// --- one row, step by step --------------------------------------------------------------------

export const STEPS = Object.freeze(["score", "scale", "mask", "softmax", "mix"]);

/**
 * Row i through the five steps, in order: score, scale, mask, softmax, mix. Each step:
 * {id, on, values} (values: the row after the step), with the terms the step needs.
 */
export function rowSteps(r, i, { scale, causal }) {
  const scores = r.scores[i];
  const scaled = r.scaled ? r.scaled[i] : scores;
  const { top, exps, total } = softmaxTerms(r, i);
  return [
    { id: "score", on: true, values: scores },
    { id: "scale", on: scale, before: scores, values: scaled, factor: r.factor, dk: r.Q[0].length },
    { id: "mask", on: causal, before: scaled, values: r.logits[i] },
    { id: "softmax", on: true, before: r.logits[i], top, exps, total, values: r.weights[i] },
    { id: "mix", on: true, weights: r.weights[i], values: r.output[i] },
  ];
}

/** Rows of numbers under the words' labels, aligned: [[name, texts], ...] -> lines. */
export function alignedRows(labels, rows) {
  const len = (t) => [...t].length;
  const pad = (t, w) => " ".repeat(Math.max(0, w - len(t))) + t;
  const first = Math.max(...rows.map(([name]) => len(name)));
  const widths = labels.map((l, j) => Math.max(len(l), ...rows.map(([, texts]) => len(texts[j]))));
  const line = (name, texts) => (name + " ".repeat(first - len(name)) + "  " + texts.map((t, j) => pad(t, widths[j])).join("  ")).trimEnd();
  return [line("", labels), ...rows.map(([name, texts]) => line(name, texts))];
}

/** A step as {title, lines}. */
export function stepText(step, r, i, labels, decimals, projecting) {
  const L = labels;
  const w = L[i];
  const n = (x) => (x === -Infinity ? "−∞" : num(x, decimals));
  const fs = formatter(r.scores, decimals);
  const s = (x) => (x === -Infinity ? "−∞" : fs(x));
  const k = STEPS.indexOf(step.id) + 1;
  const head = `Step ${k} of ${STEPS.length}, ${step.id}: `;
  if (step.id === "score") {
    const what = projecting ? `${w}'s query against each word's key` : `${w}'s vector against each word's vector`;
    return { title: `${head}${what}, a dot product each.`, lines: alignedRows(L, [["score", step.values.map(s)]]) };
  }
  if (step.id === "scale") {
    if (!step.on) {
      return {
        title: `${head}off ("Divide the scores by √d_k" is not checked): the scores go on as they are.`,
        lines: alignedRows(L, [["score", step.values.map(s)]]),
      };
    }
    return {
      title: `${head}each score times 1/√d_k = 1/√${step.dk} = ${n(step.factor)}.`,
      lines: alignedRows(L, [
        ["score", step.before.map(s)],
        ["scaled", step.values.map(n)],
      ]),
    };
  }
  const f = r.scaled ? n : s;
  if (step.id === "mask") {
    if (!step.on) {
      return { title: `${head}off (no causal mask): ${w} sees every word, itself included.`, lines: alignedRows(L, [["score", step.values.map(f)]]) };
    }
    const hidden = step.values.filter((x) => x === -Infinity).length;
    const which =
      hidden === 0
        ? `no word comes after ${w}, so nothing is hidden`
        : hidden === 1
          ? `the word after ${w} gets −∞`
          : `the ${hidden} words after ${w} get −∞`;
    return {
      title: `${head}${which} (the causal mask).`,
      lines: alignedRows(L, [
        ["before", step.before.map(f)],
        ["masked", step.values.map(f)],
      ]),
    };
  }
  if (step.id === "softmax") {
    return {
      title: `${head}e^(s − m) for each score (m = ${n(step.top)}, the row's largest), each divided by their total ${n(step.total)}: the weights add up to 1.`,
      lines: alignedRows(L, [
        ["s", step.before.map(f)],
        ["e^(s − m)", step.exps.map(n)],
        ["weight", step.values.map(n)],
      ]),
    };
  }
  const V = projecting ? "V" : "V (= X)";
  return {
    title: `${head}the weights times the rows of ${V}, added up: ${w}'s output.`,
    lines: mixLines(L, step.weights, r.V, step.values, decimals).split("\n"),
  };
}

// --- try this -------------------------------------------------------------------------------

/** The first word whose name is `name` (trimmed), or -1. */
function find(words, name) {
  return words.findIndex((w) => w.trim() === name);
}

const sameRow = (a, b) => a.length === b.length && a.every((x, t) => x === b[t]);

/**
 * The "try this" tasks. Each check reads a state (state.js) and its result, and says whether the
 * reader has achieved it.
 */
export const TASKS = Object.freeze([
  {
    id: "bank-river",
    text: "Make “bank” attend to “river” more than to itself (start from the bank of river example and change a number of bank or of river).",
    done: "bank now gives river a larger weight than itself.",
    check(state, r) {
      const b = find(state.words, "bank");
      const v = find(state.words, "river");
      return b >= 0 && v >= 0 && r.weights[b][v] > r.weights[b][b];
    },
  },
  {
    id: "causal-first",
    text: "Switch the causal mask on and look at the first word's row of weights: what may it attend to?",
    done: "Only to itself: the first word has no word before it, so its own weight is 1.",
    check(state, r) {
      return state.causal && state.words.length >= 2 && r.weights[0][0] === 1;
    },
  },
  {
    id: "sharp",
    text: "Make a word that may look at two or more words put more than 99% of its weight on just one of them (hint: large numbers make large scores).",
    done: "Large scores make the softmax choose one word almost alone.",
    check(state, r) {
      return r.weights.some((row, i) => {
        const open = r.mask ? r.mask[i].filter(Boolean).length : row.length;
        return open >= 2 && Math.max(...row) > 0.99;
      });
    },
  },
  {
    id: "twins",
    text: "Write a sentence with a word twice, as in “the cat sat on the mat”, give both the same numbers, and compare their outputs (without the causal mask).",
    done: "Same vector, same output: attention alone cannot tell where a word stands.",
    check(state) {
      if (state.causal) return false;
      const names = state.words.map((w) => w.trim());
      return names.some((a, i) => names.some((b, j) => j > i && a === b && sameRow(state.X[i], state.X[j])));
    },
  },
]);

/** The ids of the tasks a state and its result achieve. */
export function tasksAchieved(state, r) {
  return TASKS.filter((t) => t.check(state, r)).map((t) => t.id);
}
