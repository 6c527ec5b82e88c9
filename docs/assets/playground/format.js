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
// prints in exponent notation (1.000e+20), never with digits a float64 does not have.

import { DIGITS } from "../../generated/playground/limits.js";

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
 * |x| >= 1e15 in exponent notation with `places` decimals, as Python's f"{x:.{places}e}" (ties to
 * even, from the exact value). Here a tie is a whole number (its last kept digit stands for 10 or
 * more), whose digits BigInt gives exactly; any other value toExponential rounds correctly.
 */
function exponentAbs(a, places) {
  if (!Number.isInteger(a)) return a.toExponential(places).replace(/e\+(\d)$/, "e+0$1");
  const digits = BigInt(a).toString();
  let kept = digits.slice(0, places + 1);
  const rest = digits.slice(places + 1);
  let exponent = digits.length - 1;
  const half = rest[0] === "5" && /^0*$/.test(rest.slice(1));
  if (rest[0] > "5" || (rest[0] === "5" && !half) || (half && Number(kept[kept.length - 1]) % 2 === 1)) {
    kept = (BigInt(kept) + 1n).toString();
    if (kept.length > places + 1) {
      kept = kept.slice(0, places + 1); // 9.99...e+k rounded up is 1.00...e+(k+1)
      exponent += 1;
    }
  }
  return kept[0] + (places > 0 ? "." + kept.slice(1) : "") + "e+" + String(exponent).padStart(2, "0");
}

/** The decimals `x` prints with when `decimals` are asked for (digits.decimals_shown). */
function decimalsShown(x, decimals) {
  const a = Math.abs(x);
  if (!Number.isFinite(a)) return decimals;
  let places = Math.max(0, Math.min(decimals, DIGITS - BigInt(Math.trunc(a)).toString().length));
  if (places > 0 && fixedAbs(a, places).length - 1 > DIGITS) places -= 1; // rounding carried into one more digit
  return places;
}

/** `x` at `decimals` places, at most DIGITS digits, with no "-0.000" (publish.fmt.num, digits.number_text). */
export function num(x, decimals) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const a = Math.abs(x);
  let text = fixedAbs(a, decimalsShown(x, decimals));
  if (text.split(".")[0].length > DIGITS) text = exponentAbs(a, Math.min(decimals, DIGITS - 1));
  const zero = !/[1-9]/.test(text.split("e")[0]);
  return (x < 0 && !zero ? "-" : "") + text;
}

/** A whole number of an integral table (digits.integer_text): "12", or beyond DIGITS digits "4.5e+27". */
function integerText(x) {
  if (fixedAbs(Math.abs(x), 0).length <= DIGITS) return BigInt(x).toString();
  const [mantissa, exponent] = ((x < 0 ? "-" : "") + exponentAbs(Math.abs(x), DIGITS - 1)).split("e");
  return mantissa.replace(/\.?0+$/, "") + "e" + exponent;
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

/** A table cell: integers as integers in an integral table, else `decimals` places. */
export function cell(x, decimals, integral) {
  if (x === -Infinity) return "−∞";
  return integral ? integerText(x) : num(x, decimals);
}

/** "[0.910, 0.335, 0.665, 0.090]", integers staying integers (publish.fmt.vector). */
export function vector(v, decimals) {
  const integral = isIntegral(v);
  return "[" + v.map((x) => cell(x, decimals, integral)).join(", ") + "]";
}

/** Every cell of a matrix as text, integrality judged on the whole matrix (tables.matrix_table). */
export function matrixCells(M, decimals) {
  const integral = isIntegral(M);
  return M.map((row) => row.map((x) => cell(x, decimals, integral)));
}
