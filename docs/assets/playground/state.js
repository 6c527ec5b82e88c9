// The playground's state: what the reader may type, and the state as a link. No DOM here.
//
// A state is {words, X, positions, scale, causal, projections, W_Q, W_K, W_V, heads, decimals, selected}:
//   words        1 to 16 names, each one word (1 to 24 characters in NFC, no spaces, no control,
//                invisible, unassigned or private-use characters, not starting with a combining
//                mark, none of | ` < > * [ ] \): a worked example's token rules
//                (selfattn_ref/examples/rules.py, which generated/playground/limits.js states). Unlike
//                a spec's tokens, a word may come back ("the cat sat on the mat"): words are told
//                apart by position, see wordLabels(); but two names that differ only in how they
//                are typed (the same in NFC) are refused, as a spec's tokens are: namesProblems()
//   X            one vector per word, 1 to 16 numbers each, all the same length
//   positions    null, or "sinusoidal": the sinusoidal positional encoding added to X before the
//                steps (attention.js, positional.js), as docs/positional-encoding.md adds it
//   projections  "none" (softmax(X·Xᵀ)·X), "identity", "learned" (the learned example's
//                matrices, which need as many dimensions as that example has) or "custom"
//                (W_Q, W_K, W_V: matrices the reader edits, one row per dimension; W_Q and W_K
//                have d_k columns, W_V d_v, each from 1 to 16)
//   heads        1 to 4, dividing d_k and d_v: the heads of multi-head attention (attention.js)
//   decimals     0 to 10; selected: the word whose step 3 is written out
//
// In a link the state is the hash (or the query string: the pages link with ?preset=... since
// MkDocs checks every #anchor of a link between pages):
//   #preset=<slug>   a worked example as it is (with &word=<1..n> for the word whose step 3 is
//                    written out, &decimals=<0..10> when they are not the example's own, and
//                    &positions=sinusoidal with the positional encoding added)
//   #s=<base64url>   the whole state, as UTF-8 JSON ("heads" only when it is not 1, "positions"
//                    only when it is added)
//   #model=<text>    the language model's mode (model_app.js) on the text, as typed (with
//                    &temperature=<T>, &decimals=<0..10>, &seed=<0..2^32 - 1> or &pick=greedy, and
//                    &generate=1 when the generated words are shown, each only when it is not the
//                    default: MODEL_DEFAULTS)
// decodeLink() reads any of them and says, in a sentence, why a link cannot be used.

// The limits of a worked example, written by `make update` from selfattn_ref/examples/rules.py.
import { MARKS, NUMBER_SYNTAX, SPEC_LIMITS, TOKEN_FORBIDDEN, TOKEN_REFUSED } from "../../generated/playground/limits.js";
import { headsProblem } from "./attention.js";

export const LIMITS = Object.freeze({
  words: SPEC_LIMITS.words,
  dims: SPEC_LIMITS.dims,
  columns: SPEC_LIMITS.dims, // of W_Q, W_K (d_k) and of W_V (d_v), as a spec's (rules.py)
  heads: SPEC_LIMITS.heads,
  nameLength: SPEC_LIMITS.tokenLength,
  magnitude: SPEC_LIMITS.magnitude, // every score stays a finite float (16 · (16 · 1e6 · 1e6)² < 1.8e308)
  decimals: SPEC_LIMITS.decimals,
  linkLength: 20000,
});

// How a number is typed, here as on the command line and in a spec file (rules.NUMBER_SYNTAX).
const NUMBER = new RegExp(`^(?:${NUMBER_SYNTAX})$`);
const MAGNITUDE = "1,000,000";

/**
 * What a typed number means: {value} or {error} (and tooLarge, for a number beyond the limit).
 * Accepts 2, -0.5, .5, 1e-3 and the minus sign the site prints (−), as the command line and a spec
 * do. The message never repeats what was typed.
 */
export function parseNumber(text) {
  const t = String(text).trim();
  if (t === "") return { error: "Empty: type a number, such as 0.5 or -2." };
  if (!NUMBER.test(t)) return { error: "Not a number: use digits, a point and a minus sign, such as 0.5 or -2." };
  const value = Number(t.replace(/\u2212/gu, "-"));
  if (!Number.isFinite(value) || Math.abs(value) > LIMITS.magnitude) {
    return { error: `Too large: use a number between -${MAGNITUDE} and ${MAGNITUDE}.`, tooLarge: true };
  }
  return { value: value === 0 ? 0 : value }; // no -0
}

/** Code point ranges as limits.js writes them (hexadecimal gap, length less one, ...): [starts, ends]. */
function decodeRanges(text) {
  const n = text.split(",").map((x) => parseInt(x, 16));
  const starts = [];
  const ends = [];
  for (let i = 0, end = 0; i < n.length; i += 2) {
    starts.push(end + n[i]);
    end += n[i] + n[i + 1];
    ends.push(end);
  }
  return [starts, ends];
}

function inRanges([starts, ends], code) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (code < starts[mid]) hi = mid - 1;
    else if (code > ends[mid]) lo = mid + 1;
    else return true;
  }
  return false;
}

// What rules.py refuses, from Python's Unicode (not the browser's, which assigns more code points).
const REFUSED = decodeRanges(TOKEN_REFUSED);
const COMBINING = decodeRanges(MARKS);

/**
 * Why a word's name cannot be used (null if it can): a worked example's token rule (rules.py),
 * on the name in NFC. Two words may have the same name.
 */
export function nameError(name) {
  const raw = String(name);
  if (raw.trim() === "") return "Empty: give the word a name.";
  const t = raw.normalize("NFC");
  const length = [...t].length;
  if (length > LIMITS.nameLength) {
    return `Too long: a name has at most ${LIMITS.nameLength} characters, this one has ${length.toLocaleString("en")}.`;
  }
  // The name as typed too: a code point that Python's Unicode has not assigned stays so in NFC there.
  const refused = [...raw, ...t].find((c) => inRanges(REFUSED, c.codePointAt(0)) && !TOKEN_FORBIDDEN.includes(c));
  if (refused !== undefined) {
    if (/[\p{Z}\p{Cc}]/u.test(refused)) return "A name is one word: no spaces or control characters.";
    const point = refused.codePointAt(0);
    const code = point.toString(16).toUpperCase().padStart(4, "0");
    // As rules.py says what each is (_WHY): a surrogate code unit is no character at all.
    if (point >= 0xd800 && point <= 0xdfff) return `A name may not hold U+${code}: a lone surrogate, half of a character and not text.`;
    if (/\p{Co}/u.test(refused)) return `A name may not hold U+${code}: a private-use character, which has no agreed glyph.`;
    return `A name may not hold U+${code}: it shows as nothing, or Unicode keeps it unassigned.`;
  }
  if (inRanges(COMBINING, t.codePointAt(0))) return "A name may not start with a combining mark (an accent with no letter before it).";
  const forbidden = [...t].find((c) => TOKEN_FORBIDDEN.includes(c));
  if (forbidden !== undefined) return `A name may not hold any of ${[...TOKEN_FORBIDDEN].join(" ")}.`;
  return null;
}

/** "U+0065 U+0301": the code points of a text, as rules.py names them. */
function codePoints(text) {
  return [...text].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`).join(" ");
}

/**
 * Names that are one word typed two ways (the same in NFC, as "é" typed as one character and as
 * e with a combining accent): the spec refuses such tokens (rules.check_tokens), and the tables
 * would label both alike. [{index, message}] for each such name after the first of its kind, the
 * message naming both. The same name typed the same way twice is a word that comes back, which
 * wordLabels() tells apart by position.
 */
export function namesProblems(names) {
  const first = new Map(); // NFC -> index of the first name that gives it
  const out = [];
  names.forEach((name, i) => {
    const raw = String(name).trim();
    if (raw === "" || nameError(raw) !== null) return;
    const key = raw.normalize("NFC");
    if (!first.has(key)) {
      first.set(key, i);
      return;
    }
    const k = first.get(key);
    const other = String(names[k]).trim();
    if (other === raw) return;
    out.push({
      index: i,
      message:
        `Word ${k + 1} and word ${i + 1} are one word typed two ways (as ${codePoints(other)} and as ${codePoints(raw)}, ` +
        `which Unicode's NFC makes one): type it the same way both times, or make it another word.`,
    });
  });
  return out;
}

const SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉";

/**
 * The labels the tables show: each name as typed (trimmed), and a name that comes more than once
 * followed by its position as a subscript, counted from 1: "the cat sat on the mat" is labelled
 * the₁, cat, sat, on, the₅, mat.
 */
export function wordLabels(names) {
  const trimmed = names.map((n) => String(n).trim());
  const count = new Map();
  for (const t of trimmed) count.set(t, (count.get(t) ?? 0) + 1);
  return trimmed.map((t, i) =>
    count.get(t) > 1 ? t + String(i + 1).replace(/\d/g, (c) => SUBSCRIPTS[+c]) : t,
  );
}

// --- links ------------------------------------------------------------------------------------

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new LinkError("the state is not base64url text");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  let binary;
  try {
    binary = atob(b64);
  } catch {
    throw new LinkError("the state is not base64url text");
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new LinkError("the state is not UTF-8 text");
  }
}

/** A link that cannot be used; the message says why, in words a reader can act on. */
export class LinkError extends Error {}

function presetBySlug(presets, slug) {
  return presets.presets.find((p) => p.slug === slug);
}

/** The state of a worked example, as the presets file has it. */
export function stateFromPreset(presets, slug) {
  const p = presetBySlug(presets, slug);
  if (!p) throw new LinkError(`there is no example named "${String(slug).slice(0, 60)}"`);
  const copy = (M) => M.map((row) => row.slice());
  const state = {
    words: p.tokens.slice(),
    X: copy(p.embeddings),
    positions: null,
    scale: p.scale,
    causal: p.causal,
    projections: p.projections,
    W_Q: null,
    W_K: null,
    W_V: null,
    heads: p.heads ?? 1,
    decimals: p.decimals,
    selected: 0,
  };
  if (p.projections === "matrices") {
    if (slug === presets.learned) {
      state.projections = "learned";
    } else {
      state.projections = "custom";
      state.W_Q = copy(p.W_Q);
      state.W_K = copy(p.W_K);
      state.W_V = copy(p.W_V);
    }
  }
  return state;
}

/** The matrices the state projects with: {projections, W_Q, W_K, W_V} as attention() takes them. */
export function projectionsOf(state, presets) {
  if (state.projections === "learned") {
    const p = presetBySlug(presets, presets.learned);
    return { projections: "matrices", W_Q: p.W_Q, W_K: p.W_K, W_V: p.W_V };
  }
  if (state.projections === "custom") {
    return { projections: "matrices", W_Q: state.W_Q, W_K: state.W_K, W_V: state.W_V };
  }
  return { projections: state.projections };
}

/** The number of dimensions the learned weights need. */
export function learnedDims(presets) {
  return presetBySlug(presets, presets.learned).W_Q.length;
}

/**
 * Whether two states hold the same example: the same words, numbers and settings. The decimals
 * shown, the word written out and the positions may differ: they are a link's options on an
 * example ("preset=dog_bites_man&positions=sinusoidal" is dog bites man with its positions).
 */
export function sameExample(a, b) {
  const strip = (s) => ({ ...canonical(s), decimals: null, selected: null, positions: null });
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

function canonical(s) {
  const custom = s.projections === "custom";
  return {
    words: s.words,
    X: s.X,
    positions: s.positions ?? null,
    scale: s.scale,
    causal: s.causal,
    projections: s.projections,
    W_Q: custom ? s.W_Q : null,
    W_K: custom ? s.W_K : null,
    W_V: custom ? s.W_V : null,
    heads: s.heads ?? 1,
    decimals: s.decimals,
    selected: s.selected,
  };
}

/**
 * The worked example a state holds (sameExample), or null: the one named `prefer` if it does (two
 * examples may hold the same numbers, as a new one that `make example` copies from The cat sat),
 * else the first in the presets' order.
 */
export function presetOf(state, presets, prefer = null) {
  const slugs = presets.presets.map((p) => p.slug);
  const order = slugs.includes(prefer) ? [prefer, ...slugs.filter((s) => s !== prefer)] : slugs;
  return order.find((slug) => sameExample(state, stateFromPreset(presets, slug))) ?? null;
}

/**
 * The hash for a state: "preset=<slug>" when it is a worked example as it is (with its options),
 * else "s=...". prefer: the example the state came from, named when it holds the same numbers as another.
 */
export function encodeLink(state, presets, prefer = null) {
  const slug = presetOf(state, presets, prefer);
  if (slug !== null) {
    const example = stateFromPreset(presets, slug);
    let link = `preset=${slug}`;
    if (state.selected) link += `&word=${state.selected + 1}`;
    if (state.decimals !== example.decimals) link += `&decimals=${state.decimals}`;
    if (state.positions) link += `&positions=${state.positions}`;
    return link;
  }
  const c = canonical(state);
  const out = { v: 1, words: c.words, X: c.X, scale: c.scale, causal: c.causal, projections: c.projections };
  if (c.positions) out.positions = c.positions;
  if (state.projections === "custom") Object.assign(out, { W_Q: c.W_Q, W_K: c.W_K, W_V: c.W_V });
  if (c.heads !== 1) out.heads = c.heads;
  out.decimals = c.decimals;
  if (c.selected) out.selected = c.selected;
  return `s=${toBase64Url(JSON.stringify(out))}`;
}

const isPlainObject = (o) => o !== null && typeof o === "object" && !Array.isArray(o);

function checkNumbers(M, name, rows, cols) {
  if (!Array.isArray(M) || M.length !== rows) {
    throw new LinkError(`${name} must have ${rows} rows`);
  }
  M.forEach((row, i) => {
    if (!Array.isArray(row)) throw new LinkError(`row ${i + 1} of ${name} is not a list of numbers`);
    if (row.length !== cols) {
      throw new LinkError(`row ${i + 1} of ${name} has ${row.length} numbers where row 1 has ${cols} (a ragged table)`);
    }
    for (const x of row) {
      if (typeof x !== "number" || !Number.isFinite(x) || Math.abs(x) > LIMITS.magnitude) {
        throw new LinkError(`${name} holds an entry that is not a number between -${MAGNITUDE} and ${MAGNITUDE}`);
      }
    }
  });
  return M.map((row) => row.map((x) => (x === 0 ? 0 : x)));
}

/** A full state from the JSON of an "s=" link; throws LinkError saying what is wrong. */
export function validateState(obj, presets) {
  if (!isPlainObject(obj)) throw new LinkError("the state is not a JSON object");
  if (obj.v !== 1) throw new LinkError("the state has an unknown version");
  const known = new Set(["v", "words", "X", "positions", "scale", "causal", "projections", "W_Q", "W_K", "W_V", "heads", "decimals", "selected"]);
  const unknown = Object.keys(obj).find((k) => !known.has(k));
  if (unknown !== undefined) throw new LinkError("the state holds a key the playground does not know");
  const { words } = obj;
  if (!Array.isArray(words) || words.length < 1 || words.length > LIMITS.words) {
    const got = Array.isArray(words) ? ` (it has ${words.length})` : "";
    throw new LinkError(`a sentence has 1 to ${LIMITS.words} words${got}`);
  }
  words.forEach((w, i) => {
    if (typeof w !== "string") throw new LinkError(`word ${i + 1} is not text`);
    const problem = nameError(w);
    if (problem) throw new LinkError(`word ${i + 1}: ${problem.charAt(0).toLowerCase()}${problem.slice(1).replace(/\.$/, "")}`);
  });
  if (!Array.isArray(obj.X) || obj.X.length !== words.length) {
    throw new LinkError("there must be one vector per word");
  }
  const d = Array.isArray(obj.X[0]) ? obj.X[0].length : 0;
  if (d < 1 || d > LIMITS.dims) throw new LinkError(`a vector has 1 to ${LIMITS.dims} numbers`);
  const X = checkNumbers(obj.X, "the vectors", words.length, d);
  const positions = positionsOf(obj.positions ?? null);
  for (const key of ["scale", "causal"]) {
    if (typeof obj[key] !== "boolean") throw new LinkError(`"${key}" must be true or false`);
  }
  const projections = obj.projections;
  if (!["none", "identity", "learned", "custom"].includes(projections)) {
    throw new LinkError("the projections must be none, identity, learned or custom");
  }
  let W_Q = null;
  let W_K = null;
  let W_V = null;
  if (projections === "custom") {
    // d rows each; W_Q and W_K the same number of columns (d_k), W_V its own (d_v).
    const width = (k) => {
      const first = Array.isArray(obj[k]) && Array.isArray(obj[k][0]) ? obj[k][0].length : 0;
      if (first < 1 || first > LIMITS.columns) throw new LinkError(`${k} must have 1 to ${LIMITS.columns} columns`);
      return first;
    };
    [W_Q, W_K, W_V] = ["W_Q", "W_K", "W_V"].map((k) => checkNumbers(obj[k], k, d, width(k)));
    if (W_Q[0].length !== W_K[0].length) {
      throw new LinkError(`W_Q and W_K must have the same number of columns, got ${W_Q[0].length} and ${W_K[0].length}`);
    }
  } else if (["W_Q", "W_K", "W_V"].some((k) => k in obj)) {
    throw new LinkError("matrices are given but the projections are not custom");
  }
  if (projections === "learned" && d !== learnedDims(presets)) {
    throw new LinkError(`the learned weights need vectors of ${learnedDims(presets)} numbers`);
  }
  const heads = obj.heads ?? 1;
  if (!Number.isInteger(heads) || heads < 1 || heads > LIMITS.heads) {
    throw new LinkError(`"heads" must be a whole number from 1 to ${LIMITS.heads}`);
  }
  const dk = projections === "custom" ? W_Q[0].length : d;
  const dv = projections === "custom" ? W_V[0].length : d;
  const problem = headsProblem(heads, dk, dv);
  if (problem) throw new LinkError(problem);
  const decimals = obj.decimals;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > LIMITS.decimals) {
    throw new LinkError(`"decimals" must be a whole number from 0 to ${LIMITS.decimals}`);
  }
  const selected = obj.selected ?? 0;
  if (!Number.isInteger(selected) || selected < 0 || selected >= words.length) {
    throw new LinkError("the selected word is not one of the words");
  }
  const twice = namesProblems(words)[0];
  if (twice) throw new LinkError(twice.message.charAt(0).toLowerCase() + twice.message.slice(1).replace(/\.$/, ""));
  return { words: words.slice(), X, positions, scale: obj.scale, causal: obj.causal, projections, W_Q, W_K, W_V, heads, decimals, selected };
}

/** The positions of a link: null (none added) or "sinusoidal"; LinkError for anything else. */
function positionsOf(value) {
  if (value === null || value === "sinusoidal") return value;
  throw new LinkError(`"positions" must be "sinusoidal" (the positional encoding added), or left out`);
}

// --- the language model's mode --------------------------------------------------------------

/**
 * The mode's state when a link does not say: {text, temperature, decimals, seed, greedy, generate}.
 * text: the words the model reads, as typed (model_app.js checks them against its vocabulary);
 * temperature: a positive number, at most LIMITS.magnitude (the command line's limit); seed: the
 * seed of the generator that picks each generated word, an integer from 0 to 2^32 − 1 (mulberry32),
 * unless greedy: the most probable word each time; generate: the generated words are shown.
 */
export const MODEL_DEFAULTS = Object.freeze({
  text: "she took the money to the bank",
  temperature: 1,
  decimals: 4,
  seed: 1,
  greedy: false,
  generate: false,
});
export const MAX_SEED = 4294967295;

/** Why a temperature (a number) cannot be used, or null: the command line's rule (selfattn_ref.cli). */
export function temperatureProblem(value) {
  if (!Number.isFinite(value) || value <= 0 || value > LIMITS.magnitude) return `a positive number, at most ${MAGNITUDE}`;
  return null;
}

/** A seed as typed: {value} or {error}. */
export function parseSeed(text) {
  const t = String(text).trim();
  if (!/^\d{1,10}$/.test(t) || Number(t) > MAX_SEED) {
    return { error: `A whole number from 0 to ${MAX_SEED.toLocaleString("en")}, such as 1 or 53.` };
  }
  return { value: Number(t) };
}

function modelFromParams(params) {
  const state = { ...MODEL_DEFAULTS, text: params.get("model") };
  if (params.has("temperature")) {
    const parsed = parseNumber(params.get("temperature"));
    if (parsed.error || temperatureProblem(parsed.value)) {
      throw new LinkError(`"temperature" must be ${temperatureProblem(NaN)}`);
    }
    state.temperature = parsed.value;
  }
  if (params.has("decimals")) {
    const decimals = wholeNumber(params.get("decimals"));
    if (decimals === null || decimals > LIMITS.decimals) {
      throw new LinkError(`"decimals" must be a whole number from 0 to ${LIMITS.decimals}`);
    }
    state.decimals = decimals;
  }
  if (params.has("seed") && params.has("pick")) throw new LinkError(`a link gives "seed" or "pick=greedy", not both`);
  if (params.has("seed")) {
    const seed = parseSeed(params.get("seed"));
    if (seed.error) throw new LinkError(`"seed" must be a whole number from 0 to ${MAX_SEED.toLocaleString("en")}`);
    state.seed = seed.value;
  }
  if (params.has("pick")) {
    if (params.get("pick") !== "greedy") throw new LinkError(`"pick" must be "greedy" (the most probable word), or left out`);
    state.greedy = true;
  }
  if (params.has("generate")) {
    if (params.get("generate") !== "1") throw new LinkError(`"generate" must be 1 (the generated words shown), or left out`);
    state.generate = true;
  }
  return state;
}

/** The hash for a state of the language model's mode: "model=<text>", with each option that is not the default. */
export function encodeModelLink(state) {
  const params = new URLSearchParams({ model: state.text });
  if (state.temperature !== MODEL_DEFAULTS.temperature) params.set("temperature", String(state.temperature));
  if (state.decimals !== MODEL_DEFAULTS.decimals) params.set("decimals", String(state.decimals));
  if (state.greedy) params.set("pick", "greedy");
  else if (state.seed !== MODEL_DEFAULTS.seed) params.set("seed", String(state.seed));
  if (state.generate) params.set("generate", "1");
  return params.toString();
}

/** A whole number from a link's text, or null. */
function wholeNumber(text) {
  return /^\d{1,3}$/.test(text) ? Number(text) : null;
}

function presetWithOptions(presets, params) {
  const state = stateFromPreset(presets, params.get("preset"));
  if (params.has("word")) {
    const word = wholeNumber(params.get("word"));
    if (word === null || word < 1 || word > state.words.length) {
      throw new LinkError(`"word" must be a whole number from 1 to ${state.words.length}`);
    }
    state.selected = word - 1;
  }
  if (params.has("decimals")) {
    const decimals = wholeNumber(params.get("decimals"));
    if (decimals === null || decimals > LIMITS.decimals) {
      throw new LinkError(`"decimals" must be a whole number from 0 to ${LIMITS.decimals}`);
    }
    state.decimals = decimals;
  }
  if (params.has("positions")) state.positions = positionsOf(params.get("positions"));
  return state;
}

// The keys of a link's states, and the options each may carry.
const LINK_OPTIONS = { s: [], preset: ["word", "decimals", "positions"], model: ["temperature", "decimals", "seed", "pick", "generate"] };
/** Every key a link of the playground may hold (in a page's query string, ?preset=...). */
export const LINK_KEYS = Object.freeze([...new Set(Object.entries(LINK_OPTIONS).flat(2))]);

/**
 * The state a link asks for: {state, error, preset, model}. `hash` and `search` as location has them
 * ("#s=..." / "?preset=..."); the hash wins. state is null when the link names no state;
 * error (a sentence) when it names one that cannot be used; preset, the example a "preset="
 * link names (the one to show when another example holds the same numbers); model, the state of
 * the language model's mode that a "model=" link names (state is then null).
 */
export function decodeLink(hash, search, presets) {
  for (const part of [hash, search]) {
    const text = String(part || "").replace(/^[#?]/, "");
    if (text === "") continue;
    if (text.length > LIMITS.linkLength) return { state: null, error: "the link is too long" };
    const params = new URLSearchParams(text);
    const keys = [...params.keys()];
    const ours = keys.filter((k) => Object.hasOwn(LINK_OPTIONS, k));
    if (ours.length === 0) {
      if (part === hash) return { state: null, error: "the link's #part names no playground state" };
      continue; // another query string: not ours
    }
    if (ours.length > 1) return { state: null, error: "the link names more than one state" };
    // The #part is the playground's alone; a query string may carry others' keys too (Material's
    // search adds ?h=<the words searched for>), which are left alone.
    const extra = LINK_OPTIONS[ours[0]];
    const mine = part === hash ? keys : keys.filter((k) => k === ours[0] || extra.includes(k));
    if (mine.some((k) => k !== ours[0] && !extra.includes(k)) || new Set(mine).size !== mine.length) {
      return { state: null, error: "the link holds a part the playground does not know" };
    }
    try {
      if (ours[0] === "preset") return { state: presetWithOptions(presets, params), error: null, preset: params.get("preset") };
      if (ours[0] === "model") return { state: null, error: null, model: modelFromParams(params) };
      let obj;
      const json = fromBase64Url(params.get("s"));
      try {
        obj = JSON.parse(json);
      } catch {
        throw new LinkError("the state is not valid JSON");
      }
      return { state: validateState(obj, presets), error: null };
    } catch (e) {
      if (e instanceof LinkError) return { state: null, error: e.message };
      throw e;
    }
  }
  return { state: null, error: null };
}
