// How each number of the playground was made, and one word's row step by step. No DOM here.
//
// Every function reads a result of attention() (attention.js) and recomputes nothing the result
// does not already hold, except the terms a reader needs to see: the products of a dot product,
// e to the power of each score and their total, the products of a weighted sum. These are
// computed as attention.js computes them (same order), so that the terms add up to the number in
// the table. tests/browser/test_playground_teaching.py holds every term equal to NumPy's, and
// every line of arithmetic equal to the worked line the example's page shows for the same cell
// (docs/generated/<example>/dot_products.md, softmax_<i>.md, columns_<i>.md, mix_<i>.md).
//
// The arithmetic is the pages': weight = e^score ÷ the row's total of e^score (bank of river:
// 2.718 ÷ 11.107 = 0.245). The code subtracts the row's largest score first, which changes no
// weight; the explanation shows that too, in one line, and shows only that form where e^score
// would be too large (or too small) to write.
//
// Every explanation is true at the rounding it shows, as the site's numbers audit reads worked
// arithmetic (arith.js): written at the decimals the reader chose, or, when a line would not
// add up there ("1 ÷ 2 = 1" at 0 decimals), with as many more as it needs, saying so. And no
// number shows a digit beyond what its float64 arithmetic holds: where the result carries the
// bounds of bounds.js (r.errors, head.errors), each number keeps the digits its error leaves
// (format.js), whatever the decimals chosen; without them every number is taken as exact.
//
// Before the steps, the numbers they start from explain themselves too: a cell of Q, K or V is the
// word's row of X times a column of W_Q, W_K or W_V, written out as the pages write a dot product;
// a cell of W_Q, W_K or W_V says where it comes from (originText: NumPy's seeded draw, the spec
// file, the identity, or the reader); with the positions added, a cell of PE is its sine or cosine
// (positional.js) and a cell of X + PE the sum, as docs/positional-encoding.md writes them.
//
// r: a result of attention(); a head h: r.heads[h], which has {Q, K, V, scores, scaled, logits,
// weights, output, mask, factor} (with one head, r.heads[0] is r); i a query (row), j a key
// (column), c a column of the output. Counting is from 0 here; the labels shown count from 1.

import { addsUpAsShown, holds } from "./arith.js";
import { cell, isIntegral, num, vector } from "./format.js";
import { typedError } from "./bounds.js";
import { divisor } from "./positional.js";

const MORE_DECIMALS = 3; // at most this many more than the reader chose, to make a line hold
const MAX_DECIMALS = 10; // never more than the playground offers
// e^score is written out, as the pages write it, while it is at most this large (the pages print
// no number of 10^15 or more: selfattn_ref.examples.rules.MAX_PRINTED).
const MAX_WRITTEN = 1e15;

/** The head that output column c belongs to, and c's place among that head's columns. */
export function headOfColumn(r, c) {
  const width = r.heads[0].V[0].length;
  return { h: Math.floor(c / width), c: c % width };
}

/** The bound on the float64 error of head a's numbers (bounds.js), or null: all taken as exact. */
function errorsOf(a) {
  return a.errors ?? null;
}

/** Step 1, one cell: the dot product of query i with key j, term by term (in head h). */
export function explainScore(r, i, j, h = 0) {
  const a = r.heads[h];
  const q = a.Q[i];
  const k = a.K[j];
  const products = q.map((x, t) => x * k[t]);
  const E = errorsOf(a);
  const err = E ? { q: E.Q[i], k: E.K[j], value: E.scores[i][j] } : null;
  return { kind: "score", h, i, j, q, k, products, value: a.scores[i][j], err };
}

/** The scaled (and masked) score: the score divided by √d_k, or −∞ where the mask hides key j. */
export function explainScaled(r, i, j, h = 0) {
  const a = r.heads[h];
  const masked = a.mask !== null && !a.mask[i][j];
  return {
    kind: "scaled",
    h,
    i,
    j,
    score: a.scores[i][j],
    scale: a.scaled !== null,
    factor: a.factor,
    dk: a.Q[0].length,
    masked,
    value: a.logits[i][j],
    err: errorsOf(a) ? { score: a.errors.scores[i][j], value: a.errors.logits[i][j] } : null,
  };
}

/**
 * The terms of the softmax of row i of a head: e^s for each score s the softmax reads (0 where
 * masked) and their total, as the pages write them; and e^(s − max(s)), max(s) the row's largest, and their
 * total, as the code computes them.
 */
function softmaxTerms(a, i) {
  const row = a.logits[i];
  let top = -Infinity;
  for (const x of row) if (x > top) top = x;
  const exps = row.map((x) => Math.exp(x - top)); // e^(−∞) = 0 for a masked score
  let total = 0;
  for (const x of exps) total += x;
  const powers = row.map((x) => Math.exp(x)); // may overflow to Infinity or underflow to 0
  let powersTotal = 0;
  for (const x of powers) powersTotal += x;
  const E = errorsOf(a);
  const none = row.map(() => 0);
  const err = E
    ? { logits: E.logits[i], exps: E.shifted[i], total: E.shiftedTotals[i], powers: E.terms[i], powersTotal: E.totals[i], weights: E.weights[i] }
    : { logits: none, exps: none, total: 0, powers: none, powersTotal: 0, weights: none };
  return { logits: row, top, exps, total, powers, powersTotal, err };
}

/** Step 2, one cell: weight (i, j) = e^(s_j) / Σ e^s over row i (= e^(s_j − max(s)) / Σ e^(s − max(s))). */
export function explainWeight(r, i, j, h = 0) {
  const a = r.heads[h];
  return { kind: "weight", h, i, j, ...softmaxTerms(a, i), value: a.weights[i][j] };
}

/** Step 3, one cell: output (i, c) = Σ_j weight (i, j) · V (j, c), with the weights of c's head. */
export function explainOutput(r, i, c) {
  const { h, c: own } = headOfColumn(r, c);
  const a = r.heads[h];
  const weights = a.weights[i];
  const values = a.V.map((row) => row[own]);
  const products = weights.map((w, j) => w * values[j]);
  const E = errorsOf(a);
  const err = E ? { weights: E.weights[i], values: E.V.map((row) => row[own]), V: E.V, value: r.errors.output[i][c] } : null;
  return { kind: "output", h, i, c, weights, values, products, value: r.output[i][c], err };
}

/** The errors of row i's numbers before the steps (x, its parts e and pe, and its q, k, v), or null. */
function projectErrors(E, i) {
  return { x: E.X[i], e: E.E[i], pe: E.PE ? E.PE[i] : null, q: E.Q[i], k: E.K[i], v: E.V[i] };
}

/** A cell of Q, K or V (`name`): row i of X (with the positions, if added) times column c of W. */
export function explainProjected(r, name, i, c) {
  const W = r[`W_${name}`];
  const column = W.map((row) => row[c]);
  const E = r.errors ?? null;
  const err = E ? { q: E.X[i], k: E[`W_${name}`].map((row) => row[c]), value: E[name][i][c] } : null;
  return { kind: "projected", name, i, c, x: r.X[i], column, W, value: r[name][i][c], err };
}

/** A cell of PE: entry k of the encoding of position pos (both from 0), sin or cos of pos / 10000^(2p/d). */
export function explainPosition(r, pos, k) {
  const d = r.PE[0].length;
  const p = Math.floor(k / 2);
  const div = divisor(p, d);
  const E = r.errors ?? null;
  const err = E ? { divisor: E.divisor[p], angle: E.angle[pos][p], value: E.PE[pos][k] } : null;
  return { kind: "position", i: pos, k, p, d, divisor: div, angle: pos / div, value: r.PE[pos][k], err };
}

/** A cell of X + PE: entry k of word i's vector plus entry k of its position's encoding. */
export function explainPositioned(r, i, k) {
  const E = r.errors ?? null;
  const err = E ? { e: E.E[i], pe: E.PE[i], x: E.X[i] } : null;
  return { kind: "positioned", i, k, e: r.embeddings[i], pe: r.PE[i], x: r.X[i], value: r.X[i][k], err };
}

const EXPLAIN = { scores: explainScore, scaled: explainScaled, weights: explainWeight };

/**
 * The explanation of a cell of one of the tables "scores", "scaled", "weights" (of head h),
 * "output", "Q", "K", "V", "PE" and "XPE" (X + PE).
 */
export function explainCell(r, table, i, j, h = 0) {
  if (table === "output") return explainOutput(r, i, j);
  if (table === "Q" || table === "K" || table === "V") return explainProjected(r, table, i, j);
  if (table === "PE") return explainPosition(r, i, j);
  if (table === "XPE") return explainPositioned(r, i, j);
  return EXPLAIN[table](r, i, j, h);
}

/**
 * The cells an explanation reads, as {table, i, j} (j null: the whole row i; i null: the whole
 * column j). Table names: "Q", "K", "V" (or "X", the vectors the steps read, when there are no
 * projections), "scores", "logits" (the scores the softmax reads), "weights", "X" (a cell of Q, K
 * or V reads its word's row of X, or of X + PE, and a column of "W_Q", "W_K" or "W_V"), "E" (the
 * words' vectors as typed), "PE"; the columns of Q,
 * K and V are those of the whole matrices (a head's columns are a part of them); "scores",
 * "logits" and "weights" are those of head e.h.
 */
export function usedCells(e, projecting) {
  const src = (name) => (projecting ? name : "X");
  switch (e.kind) {
    case "score": {
      const width = e.q.length;
      const cols = Array.from({ length: width }, (_, t) => e.h * width + t);
      return [
        ...cols.map((j) => ({ table: src("Q"), i: e.i, j })),
        ...cols.map((j) => ({ table: src("K"), i: e.j, j })),
      ];
    }
    case "scaled":
      return [{ table: "scores", h: e.h, i: e.i, j: e.j }];
    case "weight":
      return [{ table: "logits", h: e.h, i: e.i, j: null }];
    case "output":
      return [
        { table: "weights", h: e.h, i: e.i, j: null },
        { table: src("V"), i: null, j: e.c },
      ];
    case "projected":
      return [
        { table: "X", i: e.i, j: null },
        { table: `W_${e.name}`, i: null, j: e.c },
      ];
    case "positioned":
      return [
        { table: "E", i: e.i, j: e.k },
        { table: "PE", i: e.i, j: e.k },
      ];
    default:
      return [];
  }
}

// --- as text ----------------------------------------------------------------------------------

/** The name of column c (from 0) of V and of the output: x1, x2, ... without projections, else c1, c2, ... */
export function columnName(c, projecting) {
  return `${projecting ? "c" : "x"}${c + 1}`;
}

/** "c3–c4": the columns of Q, K (and V) that head h takes, or "" with one head. */
export function headColumns(r, h, which, projecting) {
  if (r.heads.length === 1) return "";
  const width = (which === "V" ? r.heads[h].V : r.heads[h].Q)[0].length;
  const first = columnName(h * width, projecting);
  return width === 1 ? first : `${first}–${columnName(h * width + width - 1, projecting)}`;
}

/** Numbers as the tables show them: integers as integers when the whole matrix is integral; each with its error's digits. */
function formatter(M, decimals) {
  const integral = isIntegral(M);
  return (x, error = 0) => (x === -Infinity ? "−∞" : cell(x, decimals, integral, error));
}

/**
 * Build an explanation at the decimals the reader chose, or at the fewest more (up to
 * MORE_DECIMALS more) at which every claim holds. build(p) gives {lines, claims}: claims are
 * {line, text}, the arithmetic of line `line` in the audit's syntax (as the line writes it, unless
 * `implied`: what a sentence says in words). Returns {lines, claims,
 * decimals}, or null if no rounding up to the limit makes every claim hold.
 */
function fit(build, decimals, extra = MORE_DECIMALS) {
  const last = Math.max(decimals, Math.min(MAX_DECIMALS, decimals + extra));
  for (let p = decimals; p <= last; p++) {
    const out = build(p);
    if (out.claims.every((c) => holds(c.text))) return { ...out, decimals: p };
  }
  return null;
}

/**
 * The lines of build(p) at the fitted rounding, with a line saying so when it is not the one the
 * reader chose. If none fits (numbers beyond what a float holds exactly), the reader's rounding,
 * with "≈" for "=" on each line that does not hold, and a line saying why.
 */
export function fitted(build, decimals, unrounded = true) {
  const out = fit(build, decimals);
  if (out) return withNote(out, decimals, unrounded);
  const plain = build(decimals);
  const lines = plain.lines.slice();
  for (const c of plain.claims) {
    if (!holds(c.text)) lines[c.line] = lines[c.line].replace(/ = /gu, " ≈ ");
  }
  lines.push(`(≈: rounded to ${decimals} decimal${decimals === 1 ? "" : "s"}, these numbers do not add up exactly.)`);
  return { lines, claims: plain.claims, decimals };
}

function withNote(out, decimals, unrounded = true) {
  const k = out.decimals;
  const notes = [];
  if (k !== decimals) {
    notes.push(`(Written with ${k} decimal${k === 1 ? "" : "s"} here: at the ${decimals} chosen, this arithmetic would not add up.)`);
  }
  if (unrounded && out.claims.some((c) => !c.implied && !addsUpAsShown(c.text))) {
    // As the pages say it (queries-keys-values): the results come from the unrounded numbers.
    notes.push(
      "(Each result comes from the unrounded numbers: redoing a line with the rounded ones shown can come out " +
        "one off in the last decimal.)",
    );
  }
  return notes.length ? { ...out, lines: [...out.lines, ...notes] } : out;
}

/** A claim for line `line`: the arithmetic part of it (what follows `prefix`). */
function claim(lines, text) {
  return { line: lines.length - 1, text };
}

/** A number as an operand of written-out arithmetic: a negative one in parentheses (publish/generate/tables.py, operand). */
function operand(text) {
  return /^[-\u2212]/u.test(text) ? `(${text})` : text;
}

/**
 * The dot product written out as the example pages write it (docs/generated/<slug>/dot_products.md):
 * "bank · river = 1×1 + 0×1 + 1×0 + 0×0 = 1", integers as integers when both vectors are, a negative
 * factor in parentheses: "0.144×(-0.030)". err: the errors of u, v and the total ({q, k, value}), or null.
 */
export function dotLine(a, b, u, v, total, decimals, err = null) {
  const integral = isIntegral(u) && isIntegral(v);
  const f = (x, e) => cell(x, decimals, integral, e);
  const terms = u.map((x, t) => `${operand(f(x, err ? err.q[t] : 0))}×${operand(f(v[t], err ? err.k[t] : 0))}`).join(" + ");
  const result = f(total, err ? err.value : 0);
  return { text: `${a} · ${b} = ${terms} = ${result}`, arithmetic: `${terms} = ${result}` };
}

/**
 * One column of step 3 written out as the example pages write it (docs/generated/<slug>/columns_<i>.md):
 * "x1: 0.665 × 1 + 0.090 × 0 + 0.245 × 1 = 0.910", the values as V's table shows them. err: the
 * errors of the weights, the values and the result ({weights, values, value}), or null.
 */
export function columnLine(name, weights, values, V, value, decimals, err = null) {
  const fv = formatter(V, decimals);
  const terms = weights
    .map((w, j) => `${num(w, decimals, err ? err.weights[j] : 0)} × ${operand(fv(values[j], err ? err.values[j] : 0))}`)
    .join(" + ");
  const result = num(value, decimals, err ? err.value : 0);
  return { text: `${name}: ${terms} = ${result}`, arithmetic: `${terms} = ${result}` };
}

/**
 * Step 3 for query i written out, as docs/generated/<slug>/mix_<i>.md has it, at the reader's
 * rounding or more (see fit()): {text, decimals, note}.
 *
 *       0.665 × [1, 0, 1, 0]   (bank)
 *     + 0.090 × [0, 1, 0, 1]   (of)
 *     + 0.245 × [1, 1, 0, 0]   (river)
 *     = [0.910, 0.335, 0.665, 0.090]
 */
export function mixText(tokens, weightsRow, V, outputRow, decimals, unrounded = false, err = null) {
  // err: the errors of the weights, of V and of the output row ({weights, V, output}), or null
  const build = (p) => {
    const ws = weightsRow.map((w, j) => num(w, p, err ? err.weights[j] : 0));
    const width = Math.max(...ws.map((w) => w.length));
    const vs = V.map((row, j) => vector(row, p, err ? err.V[j] : null));
    const lines = ws.map((w, j) => `${j === 0 ? "  " : "+ "}${w.padStart(width)} × ${vs[j]}   (${tokens[j]})`);
    const out = vector(outputRow, p, err ? err.output : null);
    lines.push(`= ${out}`);
    const text = ws.map((w, j) => `${w} × ${vs[j]}`).join(" + ") + ` = ${out}`;
    return { lines, claims: [{ line: lines.length - 1, text }] };
  };
  // As the page's mix_<i>.md writes it (which says no more), unless it explains a step.
  return fitted(build, decimals, unrounded);
}

/** The words of a step's scores: "score", or "scaled score" once divided by √d_k (the pages' names). */
function scoreWord(a) {
  return a.scaled !== null ? "scaled score" : "score";
}

/** "e^2.5 has 2 digits" style: how large (or small) e^m is, for the sentence that says why e^score is not written. */
function size(m) {
  const digits = Math.floor(m * Math.LOG10E);
  if (m > 0) return `e^${num(m, 0)} has ${(digits + 1).toLocaleString("en")} digits before the point`;
  return `e^${num(m, 0)} is about 10^${digits}`;
}

/**
 * The softmax of one row as lines: e^score for each key and their total, as the pages write them
 * (softmax_<i>.md), then the weight of key j; and in one line the code's way, e^(s − max(s)), which
 * gives the same weights. pagesForm false: the code's way only (where e^score is too large or too
 * small to write). j null (a step): every key's weight, in the layout of the pages' table.
 */
function softmaxLines(t, a, labels, j, p, pagesForm) {
  const L = labels;
  const f = formatter(t.logits, p);
  const s = (k) => f(t.logits[k], t.err.logits[k]); // score k as its table shows it
  const word = scoreWord(a);
  const m = t.top;
  const at = t.logits.indexOf(m);
  const terms = pagesForm ? t.powers : t.exps;
  const dTerms = pagesForm ? t.err.powers : t.err.exps;
  const total = num(pagesForm ? t.powersTotal : t.total, p, pagesForm ? t.err.powersTotal : t.err.total);
  const minus = (x) => (x.startsWith("-") ? `(${x})` : x);
  const power = (k) => (pagesForm ? `e^${s(k)}` : `e^(${s(k)} − ${minus(s(at))})`);
  const shown = t.logits.map((_, k) => num(terms[k], p, dTerms[k])); // e^−∞ = 0 where masked, as the pages show it
  const weights = a.weights[t.row].map((x, k) => num(x, p, t.err.weights[k]));
  const lines = [];
  const claims = [];
  // Claims hold the lines' arithmetic; a row of the step's table holds several.
  const claimAll = (texts) => texts.forEach((text) => claims.push(claim(lines, text)));
  const powers = t.logits.map((x, k) => (x === -Infinity ? null : `${power(k)} = ${shown[k]}`));
  const sum = `${shown.join(" + ")} = ${total}`;
  const share = (k) => `${shown[k]} ÷ ${total} = ${weights[k]}`;
  if (j === null) {
    const e = pagesForm ? `e^${word}` : `e^(${word} − max)`;
    const rows = alignedRows(L, [
      [word, t.logits.map((_, k) => s(k))],
      [e, shown],
      [`÷ total ${total}`, weights],
    ]);
    lines.push(rows[0], rows[1]);
    lines.push(rows[2]);
    claimAll(powers.filter(Boolean));
    lines.push(rows[3]);
    claimAll(t.logits.map((_, k) => share(k)));
    lines.push(`total = ${sum}`);
    claimAll([sum]);
  } else {
    const width = Math.max(...L.map((l) => [...l].length));
    const pad = (l) => l + " ".repeat(width - [...l].length);
    t.logits.forEach((x, k) => {
      const mark = k === j ? "   ← this cell" : "";
      lines.push(x === -Infinity ? `  ${pad(L[k])}  e^−∞ = 0 (masked)${mark}` : `  ${pad(L[k])}  ${powers[k]}${mark}`);
      if (x !== -Infinity) claimAll([powers[k]]);
    });
    lines.push(`total = ${sum}`);
    claimAll([sum]);
    lines.push(`weight = ${share(j)}`);
    claimAll([share(j)]);
  }
  if (pagesForm && m !== 0) {
    // The code's way, in one line: every term and the total divided by e^m, so no weight changes.
    const shifted = t.exps.map((x, q) => num(x, p, t.err.exps[q]));
    const shiftedTotal = num(t.total, p, t.err.total);
    const k = j ?? at;
    const quotient = `${shifted[k]} ÷ ${shiftedTotal} = ${weights[k]}`;
    lines.push(
      `The code first subtracts the row's largest ${word}, max(s) = ${s(at)}: e^(s − max(s)) gives ${listed(shifted)}, ` +
        `total ${shiftedTotal}, and ${j === null ? `for ${L[k]} ` : ""}${quotient}: the same weight${j === null ? "s" : ""} ` +
        "(every term and the total are divided by the same e^max(s)).",
    );
    claimAll([quotient]);
    // What the line says in words ("gives 1.000, 0.135 and 0.368, total 1.503") holds too.
    const implied = [`${shifted.join(" + ")} = ${shiftedTotal}`];
    implied.push(...t.logits.flatMap((x, q) => (x === -Infinity ? [] : [`e^(${s(q)} − ${minus(s(at))}) = ${shifted[q]}`])));
    for (const text of implied) claims.push({ ...claim(lines, text), implied: true });
  }
  return { lines, claims };
}

/** "a, b and c". */
function listed(items) {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * The softmax of row i of head a, fitted: the pages' form (e^score) where it can be written,
 * else the code's form (e^(s − max(s))) with a sentence saying why. {lines, decimals}.
 */
function softmaxFitted(a, i, labels, j, decimals, intro) {
  const t = { ...softmaxTerms(a, i), row: i };
  const writable = t.top <= Math.log(MAX_WRITTEN) && Number.isFinite(t.powersTotal) && t.powersTotal > 0;
  const word = scoreWord(a);
  const pages = (p) => {
    const body = softmaxLines(t, a, labels, j, p, true);
    return { lines: [intro(`e to the power of each ${word}, then each divided by the row's total:`), ...body.lines], claims: shift(body.claims, 1) };
  };
  if (writable) {
    const out = fit(pages, decimals);
    if (out) return withNote(out, decimals);
  }
  const why = t.top > 0 ? "too large" : "too small";
  const code = (p) => {
    const body = softmaxLines(t, a, labels, j, p, false);
    const m = formatter(t.logits, p)(t.top, t.err.logits[t.logits.indexOf(t.top)]);
    const head = intro(
      `e^${word} would be ${why} to write here (${size(t.top)}), so, as the code does, each ${word} first loses the ` +
        `row's largest, max(s) = ${m}, which changes no weight (every term and the total are divided by the same e^max(s)):`,
    );
    return { lines: [head, ...body.lines], claims: shift(body.claims, 1) };
  };
  return fitted(code, decimals);
}

function shift(claims, by) {
  return claims.map((c) => ({ ...c, line: c.line + by }));
}

/**
 * An explanation as {title, lines, claims, decimals}: a sentence naming the cell, then the
 * arithmetic, one step a line, with the numbers rounded as the tables round them (or with more
 * decimals, said in a last line, where the arithmetic would not add up at the reader's rounding);
 * claims, the arithmetic each line states ({line, text}), which holds at that rounding. labels:
 * the words' labels; headName(h): what head h is called ("head 2"; the language model's mode says
 * "block 1, head 2").
 */
export function explanationText(e, r, labels, decimals, projecting, headName = (h) => `head ${h + 1}`) {
  const L = labels;
  if (e.kind === "projected") return projectedText(e, r, L, decimals);
  if (e.kind === "position") return positionText(e, L, decimals);
  if (e.kind === "positioned") return positionedText(e, L, decimals);
  const many = r.heads.length > 1;
  const inHead = many ? `In ${headName(e.h)}, the` : "The";
  const a = r.heads[e.h];
  if (e.kind === "score") {
    const [q, k] = projecting ? ["query", "key"] : ["vector", "vector"];
    const cols = (M) => (many ? ` in ${headName(e.h)} (columns ${headColumns(r, e.h, "Q", projecting)} of ${projecting ? M : "X"})` : "");
    const build = (p) => {
      const line = dotLine(L[e.i], L[e.j], e.q, e.k, e.value, p, e.err);
      const lines = [
        `${L[e.i]}'s ${q}${cols("Q")} = ${vector(e.q, p, e.err ? e.err.q : null)}`,
        `${L[e.j]}'s ${k}${cols("K")} = ${vector(e.k, p, e.err ? e.err.k : null)}`,
        line.text,
      ];
      return { lines, claims: [{ line: 2, text: line.arithmetic }] };
    };
    return {
      title: `${many ? `In ${headName(e.h)}, the score` : "Score"} of ${L[e.i]} against ${L[e.j]}: the dot product of ${L[e.i]}'s ${q} with ${L[e.j]}'s ${k}.`,
      ...fitted(build, decimals),
    };
  }
  if (e.kind === "scaled") {
    // The pages' names (docs/notation.md): S are the scores, S / √d_k the scaled scores.
    const d = many ? "d_head" : "d_k";
    const word = scoreWord(a);
    const what = e.scale ? `${word} of ${L[e.i]} against ${L[e.j]}, S / √${d}` : `${word} of ${L[e.i]} against ${L[e.j]}`;
    const title = `${inHead} ${what}${a.mask !== null ? ", with the causal mask" : ""}.`;
    const build = (p) => {
      const fs = formatter(a.scores, p);
      const finite = a.logits.map((row) => row.filter((x) => x !== -Infinity));
      const fl = formatter(finite, p);
      const lines = [];
      const claims = [];
      const [dScore, dValue] = e.err ? [e.err.score, e.err.value] : [0, 0];
      if (e.scale) {
        const scaled = e.score * e.factor;
        lines.push(`score = ${fs(e.score, dScore)}`);
        lines.push(`scaled score = score ÷ √${d} = ${fs(e.score, dScore)} ÷ √${e.dk} = ${fl(scaled, dValue)}`);
        claims.push(claim(lines, `${fs(e.score, dScore)} ÷ √${e.dk} = ${fl(scaled, dValue)}`));
      } else {
        lines.push(`score = ${fs(e.score, dScore)} (not divided: "Divide the scores by √d_k" is off)`);
      }
      if (e.masked) {
        lines.push(`${L[e.j]} comes after ${L[e.i]}: the causal mask replaces this ${word} by −∞, so its weight will be 0.`);
      } else if (a.mask !== null) {
        lines.push(`${L[e.j]} is not after ${L[e.i]}: the causal mask leaves this ${word} as it is.`);
      }
      return { lines, claims };
    };
    return { title, ...fitted(build, decimals) };
  }
  if (e.kind === "weight") {
    const title = `${inHead} weight ${L[e.i]} gives ${L[e.j]}: its share of row ${L[e.i]} after the softmax.`;
    return { title, ...softmaxFitted(a, e.i, L, e.j, decimals, (text) => `Row ${L[e.i]}: ${text}`) };
  }
  // output
  const name = columnName(e.c, projecting);
  const V = projecting ? "V" : "V (here V = X)";
  const head = many
    ? `${headName(e.h)} mixes columns ${headColumns(r, e.h, "V", projecting)} of ${V} with its own weights: row ${L[e.i]} of ${headName(e.h)}'s weights`
    : `row ${L[e.i]} of the weights`;
  const build = (p) => {
    const line = columnLine(name, e.weights, e.values, a.V, e.value, p, e.err);
    const lines = [line.text];
    if (many) lines.push("The heads' outputs side by side, times W_O = I (the identity), are the output: this is its column " + name + ".");
    return { lines, claims: [{ line: 0, text: line.arithmetic }] };
  };
  return {
    title: `Output of ${L[e.i]}, column ${name}: ${head} times column ${name} of ${V}, added up.`,
    ...fitted(build, decimals),
  };
}

// --- before the steps: Q, K and V, the matrices, the positions --------------------------------

/** The matrix Q, K or V is made with, as the pages write it: W_Q, W_K, W_V, or I (the identity). */
function matrixName(r, name) {
  return r.projections === "identity" ? "I" : `W_${name}`;
}

/** "The's vector", or "The's vector plus its position's encoding": what row i of X holds. */
function vectorOf(r, word) {
  return r.PE ? `${word}'s vector plus its position's encoding` : `${word}'s vector`;
}

/**
 * A cell of Q, K or V: the word's row of X times a column of W, written out as the pages write a
 * dot product (dotLine): "The · c1 of W_Q = 1.0000×0.1524 + ... = 0.1440".
 */
function projectedText(e, r, L, decimals) {
  const w = L[e.i];
  const W = matrixName(r, e.name);
  const col = columnName(e.c, true);
  const X = r.PE ? "X + PE" : "X";
  const role = { Q: "query", K: "key", V: "value" }[e.name];
  const same = r.projections === "identity" ? ` I is the identity: this is entry x${e.c + 1} of the vector itself.` : "";
  const title =
    `${e.name} of ${w}, column ${col}: entry ${col} of ${w}'s ${role}, ${vectorOf(r, w)} times column ${col} of ${W}, ` +
    `a dot product (${e.name} = X·${W}).${same}`;
  const build = (p) => {
    const line = dotLine(w, `${col} of ${W}`, e.x, e.column, e.value, p, e.err);
    const [dx, dw] = e.err ? [e.err.q, e.err.k] : [null, null];
    const lines = [`${w}'s vector, its row of ${X} = ${vector(e.x, p, dx)}`, `column ${col} of ${W} = ${vector(e.column, p, dw)}`, line.text];
    return { lines, claims: [{ line: 2, text: line.arithmetic }] };
  };
  return { title, ...fitted(build, decimals) };
}

/** A number as a table of integers prints it when it is whole, else at p decimals (or the fewer its error leaves). */
function exact(x, p, error = 0) {
  return cell(x, p, Number.isInteger(x), error);
}

/**
 * A cell of PE, as docs/positional-encoding.md writes the formula: PE_(pos, 2p) = sin(pos /
 * 10000^(2p/d)) and PE_(pos, 2p + 1) = cos(...), positions, pairs and entries counted from 0.
 */
function positionText(e, L, decimals) {
  const sine = e.k % 2 === 0;
  const fn = sine ? "sin" : "cos";
  const title =
    `PE(${e.i}), entry x${e.k + 1}, the formula's entry ${sine ? "2p" : "2p + 1"} = ${e.k}: the ${sine ? "sine" : "cosine"} ` +
    `of pair p = ${e.p} at the position of ${L[e.i]}, pos = ${e.i} (the formula counts positions, pairs and entries ` +
    `from 0, as the paper does; the tables count x1, x2, ... from 1).`;
  const d = e.err ?? { divisor: 0, angle: 0, value: 0 };
  const build = (p) => {
    const angle = exact(e.angle, p, d.angle);
    const div = exact(e.divisor, p, d.divisor);
    const value = num(e.value, p, d.value);
    const lines = [
      `PE_(pos, ${sine ? "2p" : "2p + 1"}) = ${fn}(pos / 10000^(2p/d)), with pos = ${e.i}, p = ${e.p} and d = ${e.d}`,
      `10000^(${2 * e.p}/${e.d}) = ${div}`,
      `${e.i} ÷ ${div} = ${angle}`,
      `${fn}(${angle}) = ${value}`,
    ];
    // The power and the sine or cosine hold at any rounding with a point (the value shown is the one
    // rounded, and the angle's rounding moves a sine by no more than its own), not at none, where
    // "cos(1) = 1" would claim an exact 1: then, said as arithmetic the audit reads, the value shown
    // is the value to more places, which fails and takes more decimals.
    const claims = [{ line: 2, text: lines[2] }];
    for (const [line, x, shown, dx] of [[1, e.divisor, div, d.divisor], [3, e.value, value, d.value]]) {
      if (!shown.includes(".") && !Number.isInteger(x)) claims.push({ line, text: `${shown} = ${num(x, p + 3, dx)}`, implied: true });
    }
    return { lines, claims };
  };
  return { title, ...fitted(build, decimals) };
}

/** A cell of X + PE: the word's vector plus its position's, as docs/positional-encoding.md adds them. */
function positionedText(e, L, decimals) {
  const w = L[e.i];
  const x = `x${e.k + 1}`;
  const title = `X + PE of ${w}, entry ${x}: ${w}'s vector plus the encoding of its position, PE(${e.i}) (pos = ${e.i}, counted from 0).`;
  const d = e.err ?? { e: null, pe: null, x: null };
  const build = (p) => {
    const at = (v, dv) => cell(v[e.k], p, isIntegral(v), dv ? dv[e.k] : 0); // entry k as the vector shows it
    const sum = `${vector(e.e, p, d.e)} + ${vector(e.pe, p, d.pe)} = ${vector(e.x, p, d.x)}`;
    const one = `${at(e.e, d.e)} + ${at(e.pe, d.pe)} = ${at(e.x, d.x)}`;
    const lines = [`${w}'s vector + PE(${e.i}) = ${sum}`, `${x}: ${one}`];
    return { lines, claims: [{ line: 0, text: sum }, { line: 1, text: one }] };
  };
  return { title, ...fitted(build, decimals) };
}

/**
 * Where entry (i, j) of W_Q, W_K or W_V (`name`), or of X (`name` "X", the words' vectors: row i
 * is the word labelled `label`), comes from, as {title, lines}. origin:
 *   {from: "seeded", seed, std, d, title}: NumPy's draw, in the words of the learned-weights page
 *     (CONTRIBUTING, "One name, one sentence, for the seeded weights"), of the example `title`;
 *   {from: "given", title, slug}: the spec file of an example; {from: "identity"}: an entry of I;
 *   {from: "example", title, slug}: a word's vector, from the spec file of an example;
 *   {from: "new", what}: a new "word" or "dimension", which starts at 0;
 *   {from: "link"}: a link's state; {from: "typed", text}: what the reader typed.
 */
export function originText(origin, name, i, j, value, decimals, label = "") {
  const where = name === "X" ? `${label}, x${j + 1}` : `${name}, row x${i + 1}, column c${j + 1}`;
  // A number typed as a decimal (in a spec, a link) is float64's nearest: it holds the digits typedError leaves.
  const shown = Number.isFinite(value) ? exact(value, decimals, origin.from === "seeded" ? 0 : typedError(value)) : "";
  const rounded = shown !== "" && Number(shown) !== value ? `, rounded to ${decimals} decimal${decimals === 1 ? "" : "s"} here (the playground computes with every digit)` : "";
  if (origin.from === "seeded") {
    const t = ["W_Q", "W_K", "W_V"].indexOf(name);
    const { d, seed, std } = origin;
    return {
      title: `${where}: one of the seeded random stand-ins for the weights training would learn, drawn by NumPy, not typed.`,
      lines: [
        `rng = np.random.default_rng(${seed}), then rng.normal(0, ${std}, (${d}, ${d})) three times, in the order W_Q, W_K, W_V`,
        `Each entry comes from a normal distribution with mean 0 and standard deviation ${std}.`,
        `${name} is draw ${t + 1} of 3; NumPy fills it row by row, so this is its entry ${i * d + j + 1} of ${d * d}.`,
        `${where} = ${shown}${rounded}`,
        `(The seed, ${seed}, and the standard deviation are those of the spec file of “${origin.title}”.)`,
      ],
    };
  }
  if (origin.from === "given") {
    return {
      title: `${where}: given in the spec file of the example “${origin.title}”, not computed.`,
      lines: [`${where} = ${shown}`, `(projections = "given": selfattn_ref/examples/${origin.slug}.toml writes W_Q, W_K and W_V out in full.)`],
    };
  }
  if (origin.from === "identity") {
    return {
      title: `${where}: an entry of the identity matrix I, not computed (your matrices start from I, or grew by a row or a column of it).`,
      lines: [
        "I has 1 where the row and the column have the same number, and 0 elsewhere, so that x·I = x.",
        `Row x${i + 1}, column c${j + 1}: ${i === j ? "the same number, so 1" : "not the same number, so 0"}.`,
      ],
    };
  }
  if (origin.from === "example") {
    return {
      title: `${where}: given in the spec file of the example “${origin.title}”, not computed.`,
      lines: [`${where} = ${shown}`, `(selfattn_ref/examples/${origin.slug}.toml writes one vector per word, under embeddings.)`],
    };
  }
  if (origin.from === "new") {
    return { title: `${where}: a new ${origin.what} starts at 0; type over it.`, lines: [`${where} = ${shown}`] };
  }
  if (origin.from === "typed") {
    // What was typed is echoed only when it is a number (a field refuses anything else, and says why).
    const line = shown === "" ? "Not a number the playground can use yet: the message under the grid says why." : `${where} = ${String(origin.text).trim()}`;
    return { title: `${where}: the number you typed.`, lines: [line] };
  }
  return { title: `${where}: as the link that opened the playground gives it.`, lines: [`${where} = ${shown}${rounded}`] };
}

// --- one row, step by step --------------------------------------------------------------------

// The steps by the names every page gives them, in their order (docs/notation.md, "The steps,
// by name"): without projections, as on the first page, "project" is off.
export const STEPS = Object.freeze(["project", "score", "scale", "mask", "normalize", "mix"]);

/**
 * Row i of head h through the six steps, in order: project, score, scale, mask, normalize (the
 * softmax), mix. Each step: {id, on, values} (values: the row after the step), with the terms the
 * step needs.
 */
export function rowSteps(r, i, { scale, causal }, h = 0) {
  const a = r.heads[h];
  const scores = a.scores[i];
  const scaled = a.scaled ? a.scaled[i] : scores;
  const t = softmaxTerms(a, i);
  return [
    {
      id: "project",
      on: r.projected,
      x: r.X[i],
      e: r.embeddings[i],
      pe: r.PE ? r.PE[i] : null,
      q: r.Q[i],
      k: r.K[i],
      v: r.V[i],
      values: r.Q[i],
      err: r.errors ? projectErrors(r.errors, i) : null,
    },
    { id: "score", on: true, values: scores },
    { id: "scale", on: scale, before: scores, values: scaled, factor: a.factor, dk: a.Q[0].length },
    { id: "mask", on: causal, before: scaled, values: a.logits[i] },
    { id: "normalize", on: true, before: a.logits[i], top: t.top, exps: t.exps, total: t.total, powers: t.powers, powersTotal: t.powersTotal, values: a.weights[i] },
    { id: "mix", on: true, weights: a.weights[i], values: a.output[i] },
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

/** The first line of the project step: row i of X, and with the positions "vector + PE(i) = ...". */
function projectInput(step, w, i, p) {
  const d = step.err ?? { x: null, e: null, pe: null };
  if (step.pe === null) return { lines: [`x = ${vector(step.x, p, d.x)}   (${w}'s vector)`], claims: [] };
  const sum = `${vector(step.e, p, d.e)} + ${vector(step.pe, p, d.pe)} = ${vector(step.x, p, d.x)}`;
  return { lines: [`x = ${w}'s vector + PE(${i}) = ${sum}`], claims: [{ line: 0, text: sum }] };
}

/**
 * A step as {title, lines, decimals, rows}, of head h: rows, the indices of the lines that are the
 * rows of a table (aligned under the words' labels: kept whole, where other lines may wrap).
 */
export function stepText(step, r, i, labels, decimals, projecting, h = 0) {
  const L = labels;
  const w = L[i];
  const a = r.heads[h];
  const many = r.heads.length > 1;
  const k = STEPS.indexOf(step.id) + 1;
  const head = `Step ${k} of ${STEPS.length}, ${step.id}${many ? ` (head ${h + 1})` : ""}: `;
  const all = (lines) => lines.map((_, q) => q);
  const plain = (title, lines) => ({ title, lines, decimals, rows: all(lines) });
  const E = errorsOf(a);
  const dS = E ? E.scores[i] : a.scores[i].map(() => 0); // the errors of row i's scores
  const dL = E ? E.logits[i] : dS; // and of the scores the softmax reads (scaled or not)
  const fs0 = formatter(a.scores, decimals);
  const fs = (x, q) => fs0(x, dS[q]);
  const finite = a.logits.map((row) => row.filter((x) => x !== -Infinity));
  const f = (x, q) => (x === -Infinity ? "−∞" : (a.scaled ? formatter(finite, decimals) : fs0)(x, dL[q]));
  const word = scoreWord(a); // what the softmax reads: "score", or "scaled score" (docs/notation.md)
  if (step.id === "project") {
    if (!step.on) {
      const title = `${head}off (no projections): Q = K = V = X, so ${w}'s query, key and value are its vector${step.pe ? " plus its position's encoding" : ""}.`;
      return { title, ...fitted((p) => projectInput(step, w, i, p), decimals), rows: [] };
    }
    const W = (name) => matrixName(r, name);
    const d = step.err ?? { q: null, k: null, v: null };
    const build = (p) => {
      const first = projectInput(step, w, i, p);
      const lines = [
        ...first.lines,
        `query: x·${W("Q")} = ${vector(step.q, p, d.q)}`,
        `key:   x·${W("K")} = ${vector(step.k, p, d.k)}`,
        `value: x·${W("V")} = ${vector(step.v, p, d.v)}`,
      ];
      return { lines, claims: first.claims };
    };
    const vec = `${w}'s vector${step.pe ? ", plus its position's encoding," : ""}`;
    const formulas = `Q = X·${W("Q")}, K = X·${W("K")} and V = X·${W("V")}`;
    const title =
      r.projections === "identity"
        ? `${head}${vec} times the identity I: its query, key and value, its rows of ${formulas}, are the vector itself.`
        : `${head}${vec} times ${W("Q")}, ${W("K")} and ${W("V")}: its query, key and value, its rows of ${formulas} ` +
          "(a number of Q, K or V shows its dot product).";
    return { title, ...fitted(build, decimals), rows: [] };
  }
  if (step.id === "score") {
    const what = projecting ? `${w}'s query against each word's key` : `${w}'s vector against each word's vector`;
    const cols = many ? ` on columns ${headColumns(r, h, "Q", projecting)}` : "";
    return plain(`${head}${what}${cols}, a dot product each.`, alignedRows(L, [["score", step.values.map(fs)]]));
  }
  const d = many ? "d_head" : "d_k";
  if (step.id === "scale") {
    if (!step.on) {
      return plain(`${head}off ("Divide the scores by √d_k" is not checked): the scores go on as they are.`, alignedRows(L, [["score", step.values.map(fs)]]));
    }
    const build = (p) => {
      const s = formatter(a.scores, p);
      const t = formatter(finite, p);
      const lines = alignedRows(L, [
        ["score", step.before.map((x, q) => s(x, dS[q]))],
        ["scaled score", step.values.map((x, q) => t(x, dL[q]))],
      ]);
      const claims = step.values.map((x, q) => ({ line: 2, text: `${s(step.before[q], dS[q])} ÷ √${step.dk} = ${t(x, dL[q])}` }));
      return { lines, claims };
    };
    const out = fitted(build, decimals);
    return { title: `${head}each score divided by √${d} = √${step.dk}: the scaled scores, S / √${d}.`, ...out, rows: [0, 1, 2] };
  }
  if (step.id === "mask") {
    if (!step.on) {
      return plain(`${head}off (no causal mask): ${w} sees every word, itself included.`, alignedRows(L, [[word, step.values.map(f)]]));
    }
    const hidden = step.values.filter((x) => x === -Infinity).length;
    const which =
      hidden === 0
        ? `no word comes after ${w}, so nothing is hidden`
        : hidden === 1
          ? `the word after ${w} gets −∞`
          : `the ${hidden} words after ${w} get −∞`;
    return plain(
      `${head}${which} (the causal mask).`,
      alignedRows(L, [
        [word, step.before.map(f)],
        ["masked score", step.values.map(f)],
      ]),
    );
  }
  if (step.id === "normalize") {
    const out = softmaxFitted(a, i, L, null, decimals, (text) => `Row ${w}: ${text}`);
    return {
      title: `${head}the softmax: e to the power of each ${word}, each divided by their total, so the weights add up to 1.`,
      ...out,
      rows: [1, 2, 3, 4], // softmaxLines' table, after the line that introduces it
    };
  }
  const V = many ? `head ${h + 1}'s V (columns ${headColumns(r, h, "V", projecting)} of V)` : projecting ? "V" : "V (= X)";
  const err = E ? { weights: E.weights[i], V: E.V, output: E.output[i] } : null;
  const out = mixText(L, step.weights, a.V, step.values, decimals, true, err);
  const rows = Array.from({ length: L.length + 1 }, (_, q) => q); // a line per word, and their sum
  return { title: `${head}the weights times the rows of ${V}, added up: ${w}'s output${many ? ` in head ${h + 1}` : ""}.`, ...out, rows };
}

// --- try this -------------------------------------------------------------------------------

/** The first word whose name is `name` (trimmed), or -1. */
function find(words, name) {
  return words.findIndex((w) => w.trim() === name);
}

const sameRow = (a, b) => a.length === b.length && a.every((x, t) => x === b[t]);

/**
 * The "try this" tasks. Each check reads a state (state.js) and its result, and says whether the
 * reader has achieved it (in any head, when there are several).
 */
export const TASKS = Object.freeze([
  {
    id: "bank-river",
    text: "Make “bank” attend to “river” more than to itself (start from the bank of river example and change a number of bank or of river).",
    done: "bank now gives river a larger weight than itself.",
    check(state, r) {
      const b = find(state.words, "bank");
      const v = find(state.words, "river");
      return b >= 0 && v >= 0 && r.heads.some((a) => a.weights[b][v] > a.weights[b][b]);
    },
  },
  {
    id: "causal-first",
    text: "Switch the causal mask on and look at the first word's row of weights: what may it attend to?",
    done: "Only to itself: the first word has no word before it, so its own weight is 1.",
    check(state, r) {
      return state.causal && state.words.length >= 2 && r.heads[0].weights[0][0] === 1;
    },
  },
  {
    id: "sharp",
    text: "Make a word that may look at two or more words put more than 99% of its weight on just one of them (hint: large numbers make large scores).",
    done: "Scores far apart make the softmax choose one word almost alone.",
    check(state, r) {
      return r.heads.some((a) =>
        a.weights.some((row, i) => {
          const open = a.mask ? a.mask[i].filter(Boolean).length : row.length;
          return open >= 2 && Math.max(...row) > 0.99;
        }),
      );
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
