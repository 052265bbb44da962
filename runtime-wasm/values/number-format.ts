// How numbers appear in JSON output. One place decides, so the older 5-decimal form of the
// established server can be offered as an option without touching any caller.
//
// Our default is the 3.9.2+ form (gsql-semantics §1.5): FLOAT with at most 7 significant
// digits, DOUBLE with at most 16, written like C's "%.<P>g" (trailing zeros dropped, whole
// values without a decimal point, exponent form only for very large or very small values).
// Non-finite values have no JSON number form; they are written as null.

export type FloatStyle = "significant" | "fixed5";

const FLOAT_DIGITS = 7;
const DOUBLE_DIGITS = 16;

/** Text of a 32-bit FLOAT value (x is the float widened to a double, e.g. from a Float32Array). */
export function formatFloat(x: number, style: FloatStyle = "significant"): string {
  return style === "fixed5" ? formatFixed5(x) : formatSignificant(x, FLOAT_DIGITS);
}

/** Text of a 64-bit DOUBLE value. */
export function formatDouble(x: number, style: FloatStyle = "significant"): string {
  return style === "fixed5" ? formatFixed5(x) : formatSignificant(x, DOUBLE_DIGITS);
}

/** C's "%.<digits>g": shortest of fixed or exponent form by the C rule, trailing zeros removed. */
export function formatSignificant(x: number, digits: number): string {
  if (!Number.isFinite(x)) return "null";
  if (x === 0) return "0";
  // A whole number of at most `digits` digits, exact as a double: "%g" writes its digits,
  // which is what String gives (the common case: distances, counts, ids held in DOUBLEs)
  if (Number.isInteger(x) && Math.abs(x) < Math.min(10 ** digits, 2 ** 53)) return String(x);
  const exp = x.toExponential(digits - 1); // rounding decides the exponent, as in C
  const e = exp.indexOf("e");
  const exponent = Number(exp.slice(e + 1));
  if (exponent < -4 || exponent >= digits) {
    const mantissa = stripZeros(exp.slice(0, e));
    const sign = exponent < 0 ? "-" : "+";
    const magnitude = String(Math.abs(exponent)).padStart(2, "0");
    return `${mantissa}e${sign}${magnitude}`;
  }
  return stripZeros(x.toFixed(digits - 1 - exponent));
}

/** The form of servers up to 3.9.1: at most 5 digits after the point. */
function formatFixed5(x: number): string {
  if (!Number.isFinite(x)) return "null";
  const text = stripZeros(x.toFixed(5));
  return text === "-0" ? "0" : text;
}

function stripZeros(text: string): string {
  if (!text.includes(".")) return text;
  return text.replace(/0+$/, "").replace(/\.$/, "");
}
