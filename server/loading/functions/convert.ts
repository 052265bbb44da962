// Token text → attribute value, by attribute type, with the rejection rules of
// gsql-ddl-loading-shell §7.8 and §2.1: UINT takes digits only, INT digits and a sign
// (64-bit, overflow wraps rather than rejects), FLOAT/DOUBLE well-formed numbers within the
// type's range (1e400 would become Infinity, which no attribute holds), BOOL
// true/True/TRUE/1 and false/False/FALSE/0, DATETIME the §9 forms with range checks.
// STRING never rejects. Outer spaces around numbers, booleans and datetimes are ignored.
// Values use the store's representation (runtime-wasm/schema/types.ts AttrValue).
import type { AttrType, AttrValue, ScalarTypeName, TupleType } from "../../../runtime-wasm/schema/types.js";
import { parseDatetime } from "../../../runtime-wasm/values/datetime.js";

/** The token cannot be read as the type: the object is rejected (invalidAttribute). */
export const INVALID: unique symbol = Symbol("invalid");
/** A FIXED_BINARY token of the wrong length (incorrectFixedBinaryLength). */
export const WRONG_LENGTH: unique symbol = Symbol("wrong length");

export type Converted = AttrValue | typeof INVALID | typeof WRONG_LENGTH;
export type ScalarConverter = (token: string) => Converted;

const UINT = /^\s*\+?\d+\s*$/;
const INT = /^\s*[+-]?\d+\s*$/;
const FLOAT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const TRUE_TEXT = new Set(["true", "True", "TRUE", "1"]);
const FALSE_TEXT = new Set(["false", "False", "FALSE", "0"]);

export function parseIntToken(t: string): bigint | typeof INVALID {
  if (!INT.test(t)) return INVALID;
  const s = t.trim();
  // Small values are the common case; BigInt(Number) is much cheaper than BigInt(string).
  if (s.length < 16) return BigInt(Number(s));
  return BigInt.asIntN(64, BigInt(s.startsWith("+") ? s.slice(1) : s));
}

export function parseUintToken(t: string): bigint | typeof INVALID {
  if (!UINT.test(t)) return INVALID;
  const s = t.trim();
  if (s.length < 16) return BigInt(Number(s));
  return BigInt.asUintN(64, BigInt(s.startsWith("+") ? s.slice(1) : s));
}

export function parseFloatToken(t: string): number | typeof INVALID {
  if (!FLOAT.test(t)) return INVALID;
  const v = Number(t.trim());
  return Number.isFinite(v) ? v : INVALID;
}

export function parseBoolToken(t: string): boolean | typeof INVALID {
  const s = t.trim();
  if (TRUE_TEXT.has(s)) return true;
  if (FALSE_TEXT.has(s)) return false;
  return INVALID;
}

export function parseDatetimeToken(t: string): number | typeof INVALID {
  return parseDatetime(t) ?? INVALID;
}

/** The converter of one scalar type. */
export function scalarConverter(name: ScalarTypeName, size?: number): ScalarConverter {
  switch (name) {
    case "INT":
      return parseIntToken;
    case "UINT":
      return parseUintToken;
    case "FLOAT":
      return (t) => {
        const v = parseFloatToken(t);
        if (v === INVALID) return v;
        const single = Math.fround(v);
        return Number.isFinite(single) ? single : INVALID;
      };
    case "DOUBLE":
      return parseFloatToken;
    case "BOOL":
      return parseBoolToken;
    case "DATETIME":
      return parseDatetimeToken;
    case "STRING":
      return (t) => t;
    case "FIXED_BINARY":
      return (t) => (size === undefined || Buffer.byteLength(t, "utf8") === size ? t : WRONG_LENGTH);
  }
}

/**
 * Converts a TYPEDEF TUPLE's field tokens: INT/UINT fields of byte size n wrap to n bytes,
 * STRING(n) keeps the first n characters.
 */
export function tupleConverter(tuple: TupleType): (tokens: string[]) => Converted {
  const fields = tuple.fields.map((f) => {
    if (f.type.kind !== "scalar") throw new Error(`tuple field ${f.name} has a non-scalar type`);
    const base = scalarConverter(f.type.name, f.type.size);
    const bits = f.size !== undefined ? f.size * 8 : 64;
    if (f.type.name === "INT") return (t: string) => wrapBits(base(t), bits, true);
    if (f.type.name === "UINT") return (t: string) => wrapBits(base(t), bits, false);
    if (f.type.name === "STRING" && f.size !== undefined) return (t: string) => [...t].slice(0, f.size).join("");
    return base;
  });
  return (tokens) => {
    if (tokens.length !== fields.length) return INVALID;
    const out: { [field: string]: AttrValue } = {};
    for (let i = 0; i < fields.length; i++) {
      const v = fields[i]!(tokens[i]!);
      if (v === INVALID || v === WRONG_LENGTH) return INVALID;
      out[tuple.fields[i]!.name] = v;
    }
    return out;
  };
}

function wrapBits(v: Converted, bits: number, signed: boolean): Converted {
  if (typeof v !== "bigint") return v;
  return signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
}

/** True for types whose empty token means "missing" (keep stored value / default). */
export function emptyMeansMissing(type: AttrType): boolean {
  return !(type.kind === "scalar" && (type.name === "STRING" || type.name === "FIXED_BINARY"));
}
