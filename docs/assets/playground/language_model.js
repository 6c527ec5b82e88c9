// The site's small language model in plain JavaScript: its words, its forward pass, and from the
// logits to a word. No DOM here.
//
// The twin of selfattn_ref/language_model.py and selfattn_ref/corpus.py, for the playground's
// language-model mode (model_app.js). Every rule is the package's, as the docstring of
// selfattn_ref.language_model lists them for a port: the words (split on ASCII white space, a
// final "." a word of its own, A to Z lower-cased), the nearest words to an unknown one (the
// optimal string alignment distance), the forward pass in float64 (the block's attention is
// attention.js's, the one the rest of the playground computes with), temperature and top-k with
// their ties, greedy decoding, sampling with a running total, and mulberry32. The weights are the
// package's file, read as its float32 numbers. tests/browser/test_playground_model.py holds every
// step equal to NumPy's and PyTorch's on seeded sentences, and the top-k order, the seeded numbers
// and the generated words exactly equal to the package's.
//
// A matrix is an array of rows; ids count from 0 (their places in the vocabulary), as in Python.

import { attention, matmul, softmax } from "./attention.js";

export const EPS = 1e-5; // layer normalization's ε, PyTorch's default
export const NEAREST = 3; // the nearest words an unknown word's message names (corpus.words)
const PROBE_LENGTH = 40; // the characters of an unknown word that nearest() reads (corpus.nearest)
const SHOWN_LENGTH = 24; // the characters of an unknown word that its message quotes (corpus._shown)

const BLOCK_FIELDS = ["W_Q", "W_K", "W_V", "W_O", "W_1", "b_1", "W_2", "b_2", "gamma_1", "beta_1", "gamma_2", "beta_2"];
const TOP_FIELDS = ["token_embedding", "position_embedding", "gamma", "beta", "W_out", "b_out"];

/** A problem with the model's input that the reader can fix; the message says what, as the package's does. */
export class ModelError extends Error {}

// --- the weights ------------------------------------------------------------------------------

/** One tensor of the weights' file: {shape, float32} (base64, little-endian) -> nested arrays of numbers. */
function decode(entry, name) {
  const shape = entry?.shape;
  if (!Array.isArray(shape) || shape.length < 1 || shape.length > 2 || !shape.every((k) => Number.isInteger(k) && k > 0)) {
    throw new Error(`the language model's weights: ${name} has no shape of 1 or 2 positive sizes`);
  }
  let binary;
  try {
    binary = atob(String(entry.float32));
  } catch {
    throw new Error(`the language model's weights: ${name} is not base64`);
  }
  const size = shape.reduce((a, b) => a * b, 1);
  if (binary.length !== 4 * size) {
    throw new Error(`the language model's weights: ${name} holds ${binary.length / 4} numbers, its shape ${size}`);
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  const flat = Array.from({ length: size }, (_, k) => view.getFloat32(4 * k, true));
  if (!flat.every(Number.isFinite)) throw new Error(`the language model's weights: ${name} holds a number that is not finite`);
  if (shape.length === 1) return flat;
  return Array.from({ length: shape[0] }, (_, i) => flat.slice(i * shape[1], (i + 1) * shape[1]));
}

const rows = (M) => M.length;
const cols = (M) => M[0].length;

/**
 * The model of the package's weights file (selfattn_ref/language_model.json, as JSON.parse gives
 * it): {vocabulary, numHeads, dModel, context, blocks, tokenEmbedding, positionEmbedding, gamma,
 * beta, W_out, b_out, index}, every number the file's float32 number (as a float64). An Error says
 * what does not fit.
 */
export function readWeights(data) {
  const vocabulary = data?.vocabulary;
  if (!Array.isArray(vocabulary) || vocabulary.length < 1 || !vocabulary.every((w) => typeof w === "string")) {
    throw new Error("the language model's weights have no vocabulary");
  }
  const numHeads = data.num_heads;
  const t = Object.fromEntries(TOP_FIELDS.map((name) => [name, decode(data.tensors?.[name], name)]));
  if (!Array.isArray(data.blocks) || data.blocks.length < 1) throw new Error("the language model's weights have no block");
  const blocks = data.blocks.map((b, k) => Object.fromEntries(BLOCK_FIELDS.map((name) => [name, decode(b?.[name], `block ${k + 1} ${name}`)])));
  const V = vocabulary.length;
  const d = cols(t.token_embedding);
  const fits =
    rows(t.token_embedding) === V &&
    cols(t.position_embedding) === d &&
    t.gamma.length === d &&
    t.beta.length === d &&
    rows(t.W_out) === d &&
    cols(t.W_out) === V &&
    t.b_out.length === V &&
    Number.isInteger(numHeads) &&
    numHeads >= 1 &&
    d % numHeads === 0 &&
    blocks.every((b) => {
      const square = ["W_Q", "W_K", "W_V", "W_O"].every((k) => rows(b[k]) === d && cols(b[k]) === d);
      const vectors = ["b_2", "gamma_1", "beta_1", "gamma_2", "beta_2"].every((k) => b[k].length === d);
      const dFF = cols(b.W_1);
      return square && vectors && rows(b.W_1) === d && b.b_1.length === dFF && rows(b.W_2) === dFF && cols(b.W_2) === d;
    });
  if (!fits) throw new Error("the language model's weights do not fit together");
  return {
    vocabulary: vocabulary.slice(),
    index: new Map(vocabulary.map((w, i) => [w, i])),
    numHeads,
    dModel: d,
    context: rows(t.position_embedding),
    tokenEmbedding: t.token_embedding,
    positionEmbedding: t.position_embedding,
    blocks,
    gamma: t.gamma,
    beta: t.beta,
    W_out: t.W_out,
    b_out: t.b_out,
  };
}

// --- words ------------------------------------------------------------------------------------

const SPACE = /[ \t\n\v\f\r]+/; // ASCII white space, as corpus._SPACE
const lower = (w) => w.replace(/[A-Z]/g, (c) => c.toLowerCase()); // A to Z, nothing else

/**
 * The optimal string alignment distance of a and b (arrays of characters): the fewest characters
 * inserted, deleted or replaced, or pairs of neighbours swapped, no character edited twice
 * (corpus._distance).
 */
export function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i * j === 0 ? i + j : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The k words of the vocabulary nearest to `word` (its letters A to Z lower-cased, its first 40
 * characters) by distance(), the nearest first, ties in the vocabulary's order (corpus.nearest).
 * Characters are code points, as Python counts them.
 */
export function nearest(word, vocabulary, k = NEAREST) {
  const probe = [...lower(String(word))].slice(0, PROBE_LENGTH);
  const scored = vocabulary.map((w, id) => ({ w, id, d: distance(probe, [...w]) }));
  scored.sort((x, y) => x.d - y.d || x.id - y.id);
  return scored.slice(0, k).map((s) => s.w);
}

/** A word as Python's repr() quotes it (corpus._shown): in ' unless it holds ' and no ". */
export function quoted(word) {
  const quote = word.includes("'") && !word.includes('"') ? '"' : "'";
  return quote + word.replace(/\\/g, "\\\\").replaceAll(quote, `\\${quote}`) + quote;
}

/** An unknown word as its message names it: quoted, its first 24 characters only when it is longer. */
function shown(word) {
  const chars = [...word];
  if (chars.length <= SHOWN_LENGTH) return quoted(word);
  return `${quoted(chars.slice(0, SHOWN_LENGTH).join(""))}... (${chars.length} characters)`;
}

/**
 * The words of `text` as the model reads them (corpus.words): split on runs of ASCII white space, a
 * word longer than one character that ends in "." made the word and "." ("river." is "river", "."),
 * A to Z lower-cased. {typed, words}: the words as typed and as read. Throws ModelError, with the
 * package's message, for no word, more than `limit`, or a word not in the vocabulary (naming it,
 * its place and the nearest words: .word, .position, .nearest).
 */
export function words(text, vocabulary, limit) {
  const typed = [];
  for (const w of String(text).split(SPACE)) {
    if (w === "") continue;
    if (w.length > 1 && w.endsWith(".")) typed.push(w.slice(0, -1), ".");
    else typed.push(w);
  }
  if (typed.length === 0) throw new ModelError(`text holds no word; give at least one of the model's ${vocabulary.length} words`);
  if (typed.length > limit) throw new ModelError(`text has ${typed.length} words; the model reads at most ${limit}`);
  const read = typed.map(lower);
  const known = new Set(vocabulary);
  const k = read.findIndex((w) => !known.has(w));
  if (k >= 0) {
    const near = nearest(read[k], vocabulary);
    const error = new ModelError(
      `word ${k + 1}, ${shown(typed[k])}, is not in the model's vocabulary; the nearest words are ${near.map(quoted).join(", ")}`,
    );
    Object.assign(error, { word: typed[k], position: k, nearest: near });
    throw error;
  }
  return { typed, words: read };
}

// --- the forward pass -------------------------------------------------------------------------

const add = (A, B) => A.map((row, i) => row.map((x, k) => x + B[i][k]));
const plus = (A, b) => A.map((row) => row.map((x, k) => x + b[k]));

/** Layer normalization of each row: (x − μ) / √(σ² + ε) · γ + β, the variance divided by d (block.layer_norm). */
export function layerNorm(X, gamma, beta, eps = EPS) {
  return X.map((row) => {
    const d = row.length;
    let total = 0;
    for (const x of row) total += x;
    const mean = total / d;
    const centred = row.map((x) => x - mean);
    let squares = 0;
    for (const c of centred) squares += c * c;
    const root = Math.sqrt(squares / d + eps);
    return centred.map((c, k) => (c / root) * gamma[k] + beta[k]);
  });
}

/**
 * The model on `words` (1 to context words of the vocabulary, as words() reads them), every step
 * kept, as language_model.forward keeps them: {words, ids, embeddings, positions, X, blocks, final,
 * logits, probabilities}, each (n, ·). blocks[b]: {norm_1 (LN_1 of the block's input), heads (the
 * attention of attention.js on norm_1, W_Q, W_K, W_V, scaled and causal: .heads[h].weights is head
 * h's (n, n), and .heads[h].Q, .K, .V, .scores, .scaled, .logits its steps), attention (the heads
 * side by side times W_O), sum_1, norm_2, hidden, relu, ffn, output}. Row i of probabilities is the
 * next word after words 0 to i.
 */
export function forward(model, words) {
  const ids = words.map((w) => {
    const id = model.index.get(w);
    if (id === undefined) throw new ModelError(`${quoted(String(w))} is not in the model's vocabulary`);
    return id;
  });
  const n = ids.length;
  if (n < 1 || n > model.context) throw new ModelError(`the model reads 1 to ${model.context} words, got ${n}`);
  const embeddings = ids.map((id) => model.tokenEmbedding[id].slice()); // (n, d_model)
  const positions = model.positionEmbedding.slice(0, n).map((row) => row.slice()); // (n, d_model)
  const X = add(embeddings, positions);
  const blocks = [];
  let H = X;
  for (const b of model.blocks) {
    // Pre-norm, as GPT-2: Z = X + MultiHead(LN_1(X)), then Z + FFN(LN_2(Z)).
    const norm_1 = layerNorm(H, b.gamma_1, b.beta_1);
    const heads = attention({ X: norm_1, projections: "matrices", W_Q: b.W_Q, W_K: b.W_K, W_V: b.W_V, scale: true, causal: true, heads: model.numHeads });
    const attended = matmul(heads.output, b.W_O); // (n, d_model)
    const sum_1 = add(H, attended);
    const norm_2 = layerNorm(sum_1, b.gamma_2, b.beta_2);
    const hidden = plus(matmul(norm_2, b.W_1), b.b_1); // (n, d_ff)
    const relu = hidden.map((row) => row.map((x) => (x > 0 ? x : 0)));
    const ffn = plus(matmul(relu, b.W_2), b.b_2); // (n, d_model)
    const output = add(sum_1, ffn);
    blocks.push({ norm_1, heads, attention: attended, sum_1, norm_2, hidden, relu, ffn, output });
    H = output;
  }
  const final = layerNorm(H, model.gamma, model.beta);
  const logits = plus(matmul(final, model.W_out), model.b_out); // (n, d_vocab)
  return { words: words.slice(), ids, embeddings, positions, X, blocks, final, logits, probabilities: softmax(logits) };
}

// --- from logits to a word --------------------------------------------------------------------

/** The ids 0 to n − 1 ordered by `values`, largest first, a tie going to the smaller id. */
function byValue(values) {
  return values.map((_, id) => id).sort((a, b) => values[b] - values[a] || a - b);
}

/** The temperature as the package checks it: a positive finite number, else a ModelError. */
function checkedTemperature(temperature) {
  if (typeof temperature !== "number" || !Number.isFinite(temperature) || !(temperature > 0)) {
    throw new ModelError(`temperature must be a positive finite number, got ${String(temperature)}`);
  }
  return temperature;
}

function checkedTopK(topK, size) {
  if (topK === null || topK === undefined) return null;
  if (!Number.isInteger(topK) || topK < 1 || topK > size) throw new ModelError(`top_k must be None or an integer from 1 to ${size}, got ${String(topK)}`);
  return topK;
}

/**
 * The probabilities of the next word from one row of logits (d_vocab): softmax(logits / temperature),
 * over the `topK` largest logits only (the others 0; ties to the smaller id) when topK is given
 * (language_model.next_word_probabilities). A quotient that is not finite is a ModelError, with the
 * package's message.
 */
export function nextWordProbabilities(logits, temperature = 1, topK = null) {
  const T = checkedTemperature(temperature);
  const k = checkedTopK(topK, logits.length);
  const scaled = logits.map((x) => x / T);
  if (!scaled.every(Number.isFinite)) {
    throw new ModelError(`logits / temperature overflows: temperature ${pythonFloat(T)} is too small for these logits`);
  }
  if (k === null) return softmax([scaled])[0];
  const kept = new Set(byValue(logits).slice(0, k));
  return softmax([scaled.map((x, id) => (kept.has(id) ? x : -Infinity))])[0];
}

/**
 * A float as Python's repr() writes it, for the messages the package writes with {x!r}: the same
 * shortest digits as JavaScript's, fixed from 1e-4 to 1e16 ("1.0", "0.0001"), else in exponent
 * notation with at least two digits ("1e-05", "2.5e+20").
 */
export function pythonFloat(x) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const [mantissa, e] = x.toExponential().split("e");
  const exp = Number(e);
  if (exp < -4 || exp >= 16) return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  const fixed = String(x); // JavaScript writes 1e-7 <= |x| < 1e21 without an exponent
  return fixed.includes(".") ? fixed : `${fixed}.0`;
}

/** The id of the most probable word, a tie going to the smaller id (language_model.greedy). */
export function greedy(p) {
  let best = 0;
  for (let id = 1; id < p.length; id++) if (p[id] > p[best]) best = id;
  return best;
}

/**
 * The id that the number u, in [0, 1), draws from p: the first id whose running total of
 * probability (float64 additions, id 0 first) exceeds u; if rounding leaves u at or above the last
 * total, the last id whose probability is above 0 (language_model.sample).
 */
export function sample(p, u) {
  let total = 0;
  for (let id = 0; id < p.length; id++) {
    total += p[id];
    if (total > u) return id;
  }
  for (let id = p.length - 1; id >= 0; id--) if (p[id] > 0) return id;
  throw new ModelError("the probabilities are all 0");
}

/** The k most probable words of p, most probable first (ties by id): [{word, id, p}] (language_model.ranked). */
export function ranked(p, vocabulary, k = 5) {
  return byValue(p)
    .slice(0, k)
    .map((id) => ({ word: vocabulary[id], id, p: p[id] }));
}

/**
 * mulberry32: a seeded stream of numbers in [0, 1), in 32-bit integer arithmetic, the numbers of
 * selfattn_ref.corpus.SeededRandom. seed: an integer from 0 to 2^32 − 1.
 */
export class SeededRandom {
  constructor(seed) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new ModelError(`seed must be an integer from 0 to 4,294,967,295, got ${String(seed)}`);
    }
    this.state = seed;
  }

  /** The next number of the stream, a multiple of 2^−32 in [0, 1). */
  uniform() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/**
 * The words that follow `words`, one at a time (language_model.generate): read the words so far,
 * take the last row's logits, apply the temperature and top-k, choose (greedy with seed null, else
 * sample() with the next number of SeededRandom(seed), one a word), append, read again; stop after
 * "." or maxWords words (null: until the model's context is full). [{words, probabilities, u, id,
 * word, steps}] a word: the words read, the distribution drawn from, the number drawn (null for
 * greedy), the word chosen and the forward pass it was read from.
 */
export function generate(model, words, { maxWords = null, temperature = 1, topK = null, seed = null } = {}) {
  const read = words.slice();
  const room = model.context - read.length;
  const limit = maxWords ?? room;
  if (!Number.isInteger(limit) || limit < 1) throw new ModelError(`max_words must be a positive integer, got ${String(maxWords)}`);
  if (limit > room || room === 0) {
    const plural = read.length === 1 ? "" : "s";
    throw new ModelError(`max_words: the text has ${read.length} word${plural} and the model reads at most ${model.context}, so at most ${room} more`);
  }
  checkedTemperature(temperature);
  checkedTopK(topK, model.vocabulary.length);
  const rng = seed === null ? null : new SeededRandom(seed);
  const out = [];
  while (out.length < limit) {
    const steps = forward(model, read);
    const p = nextWordProbabilities(steps.logits[steps.logits.length - 1], temperature, topK);
    const u = rng === null ? null : rng.uniform();
    const id = u === null ? greedy(p) : sample(p, u);
    const word = model.vocabulary[id];
    out.push({ words: read.slice(), probabilities: p, u, id, word, steps });
    read.push(word);
    if (word === ".") break;
  }
  return out;
}
