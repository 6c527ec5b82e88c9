// Numbers as the pages print them: the twin of publish/fmt.py (which prints through
// selfattn_ref/examples/digits.py) and of the tables and worked lines in publish/generate/tables.py. No DOM here.
//
// Python formats f"{x:.3f}" from the exact binary value and rounds a tie (a value that lies
// exactly halfway, such as 0.125 or 2.5) to the even digit; JavaScript's toFixed rounds a tie
// away from zero. fixed() does what Python does. The browser tests compare the two on many
// values, ties included.
//
// The rule of digits.py: at most DIGITS (15) digits in a number, those before the point
// included, as many as every float64 holds; a number of more than 15 digits before the point
// prints in exponent notation (1.000e+20), never with digits a float64 does not have. And a
// computed number keeps only the digits its float64 error leaves: given a bound on that error
// (bounds.js computes it from the size of the terms that made the number), it keeps the decimals
// whose last one the error cannot move by more than half a unit (lastPlace), in exponent
// notation when not even its units digit is held, and prints "?" when no digit is. The browser
// tests hold num() and cell() to digits.number_text and integer_text on many values and errors.

import { DIGITS } from "../../generated/playground/limits.js";

export const NONE_HELD = "?"; // a number none of whose digits its error leaves (digits.NONE_HELD)

/**
 * The power of ten p of the last digit a number with this error may print: the least p with the
 * error at most half a unit of it (digits.last_place), compared with the float64 nearest 5·10^(p−1),
 * which JavaScript reads from its text as Python does. null for an error of 0.
 */
export function lastPlace(error) {
  if (!(error > 0)) return null;
  if (!Number.isFinite(error)) return 400;
  let p = -400;
  while (error > Number(`5e${p - 1}`)) p += 1;
  return p;
}

const TIE_DIGITS = 25; // enough to tell an exact tie from its nearest float (see fixed())

/** |x| at `decimals` places, rounded half to even like Python, without a sign. */
function fixedAbs(a, decimals) {
  if (a >= 1e21) {
    // toFixed switches to exponent notation here; floats this large are integers.
    return BigInt(a).toString() + (decimals > 0 ? "." + "0".repeat(decimals) : "");
  }
  const rounded = a.toFixed(decimals); // correctly rounded, ties away from zero
  // A tie times 10^decimals is exactly k + 0.5 (both are floats, and the product is exact):
  // anything else is not a tie, which spares the long expansion below in nearly every call.
  const scaled = a * 10 ** decimals;
  if (scaled < 2 ** 52 && scaled - Math.floor(scaled) !== 0.5) return rounded;
  // A tie at `decimals` places has exactly decimals + 1 digits after the point, the last a 5.
  // The float nearest to a tie but not equal to it differs within TIE_DIGITS places, so a
  // longer expansion that reads "...5000..." is the tie itself.
  const long = a.toFixed(decimals + TIE_DIGITS);
  const point = long.indexOf(".");
  const tail = long.slice(point + 1 + decimals);
  if (tail[0] !== "5" || !/^0*$/.test(tail.slice(1))) return rounded;
  const truncated = decimals > 0 ? long.slice(0, point + 1 + decimals) : long.slice(0, point);
  const lastDigit = Number(truncated[truncated.length - 1]);
  return lastDigit % 2 === 0 ? truncated : rounded; // down to the even digit, or up to it
}

/**
 * |x| in exponent notation with `places` decimals, as Python's f"{x:.{places}e}" (ties to even,
 * from the exact value). The exact decimal digits of a whole number are BigInt's, and those of
 * any other number of at least 1 are toFixed(60)'s (a float64 of at least 1 has at most 52 binary
 * digits after the point, so as many decimal ones); smaller numbers have no tie at the places
 * asked here, and toExponential rounds them correctly.
 */
function exponentAbs(a, places) {
  let digits;
  let exponent;
  if (Number.isInteger(a)) {
    digits = BigInt(a).toString();
    exponent = digits.length - 1;
  } else if (a >= 1 && a < 1e21) {
    const [whole, fraction] = a.toFixed(60).split(".");
    digits = whole + fraction.replace(/0+$/, "");
    exponent = whole.length - 1;
  } else {
    const text = a.toExponential(places);
    const [mantissa, e] = text.split("e");
    return `${mantissa}e${e[0]}${e.slice(1).padStart(2, "0")}`;
  }
  let kept = digits.slice(0, places + 1).padEnd(places + 1, "0");
  const rest = digits.slice(places + 1);
  const half = rest[0] === "5" && /^0*$/.test(rest.slice(1));
  if (rest[0] > "5" || (rest[0] === "5" && !half) || (half && Number(kept[kept.length - 1]) % 2 === 1)) {
    kept = (BigInt(kept) + 1n).toString();
    if (kept.length > places + 1) {
      kept = kept.slice(0, places + 1); // 9.99...e+k rounded up is 1.00...e+(k+1)
      exponent += 1;
    }
  }
  const sign = exponent < 0 ? "-" : "+";
  return kept[0] + (places > 0 ? "." + kept.slice(1) : "") + "e" + sign + String(Math.abs(exponent)).padStart(2, "0");
}

/** The decimals `x` prints with when `decimals` are asked for and its error is `error` (digits.decimals_shown). */
function decimalsShown(x, decimals, error = 0) {
  const a = Math.abs(x);
  if (!Number.isFinite(a)) return decimals;
  let places = Math.max(0, Math.min(decimals, DIGITS - BigInt(Math.trunc(a)).toString().length));
  if (places > 0 && fixedAbs(a, places).length - 1 > DIGITS) places -= 1; // rounding carried into one more digit
  const p = lastPlace(error);
  return p === null ? places : Math.max(0, Math.min(places, -p));
}

/** The decimals of |x|'s mantissa in exponent notation: `most`, fewer where its error leaves fewer; null if none (digits._exponent_places). */
function exponentPlaces(a, most, error) {
  const p = lastPlace(error);
  if (p === null) return most;
  const exponent = Number(exponentAbs(a, 6).split("e")[1]); // as Python's f"{x:e}": of the leading digit, rounded
  return exponent < p ? null : Math.min(most, exponent - p);
}

/** Python's sign for a text of |x|: "-" unless every digit is 0 (no "-0.000", no "-0e+00"). */
function signed(x, text) {
  return (x < 0 && /[1-9]/.test(text.split("e")[0]) ? "-" : "") + text;
}

/**
 * `x` at `decimals` places, at most DIGITS digits and at most those its float64 `error` leaves,
 * with no "-0.000" (publish.fmt.num, digits.number_text).
 */
export function num(x, decimals, error = 0) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const a = Math.abs(x);
  const p = lastPlace(error);
  if (p !== null && p > 0) {
    // not even the units digit is held
    const places = exponentPlaces(a, Math.min(decimals, DIGITS - 1), error);
    return places === null ? NONE_HELD : signed(x, exponentAbs(a, places));
  }
  let text = fixedAbs(a, decimalsShown(x, decimals, error));
  if (text.split(".")[0].length > DIGITS) {
    const places = exponentPlaces(a, Math.min(decimals, DIGITS - 1), error);
    if (places === null) return NONE_HELD;
    text = exponentAbs(a, places);
  }
  return signed(x, text);
}

/** A whole number of an integral table (digits.integer_text): "12", or beyond DIGITS digits (or its error's) "4.5e+27". */
function integerText(x, error = 0) {
  const p = lastPlace(error);
  if (fixedAbs(Math.abs(x), 0).length <= DIGITS && (p === null || p <= 0)) return BigInt(x).toString();
  const places = exponentPlaces(Math.abs(x), DIGITS - 1, error);
  if (places === null) return NONE_HELD;
  const [mantissa, exponent] = signed(x, exponentAbs(Math.abs(x), places)).split("e");
  return (mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa) + "e" + exponent;
}

/** Whether every finite entry is a whole number (publish.fmt.is_integral). */
export function isIntegral(values) {
  for (const x of values) {
    if (Array.isArray(x)) {
      if (!isIntegral(x)) return false;
    } else if (Number.isFinite(x) && x !== Math.round(x)) {
      return false;
    }
  }
  return true;
}

/** A table cell: integers as integers in an integral table, else `decimals` places; `error`: its float64 error's bound. */
export function cell(x, decimals, integral, error = 0) {
  if (x === -Infinity) return "−∞";
  return integral ? integerText(x, error) : num(x, decimals, error);
}

/** "[0.910, 0.335, 0.665, 0.090]", integers staying integers (publish.fmt.vector); `errors`: each entry's bound, or null. */
export function vector(v, decimals, errors = null) {
  const integral = isIntegral(v);
  return "[" + v.map((x, k) => cell(x, decimals, integral, errors ? errors[k] : 0)).join(", ") + "]";
}

/** Every cell of a matrix as text, integrality judged on the whole matrix (tables.matrix_table); `errors`: their bounds, or null. */
export function matrixCells(M, decimals, errors = null) {
  const integral = isIntegral(M);
  return M.map((row, i) => row.map((x, j) => cell(x, decimals, integral, errors ? errors[i][j] : 0)));
}
