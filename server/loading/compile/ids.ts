// Vertex ids from tokens, by the vertex type's PRIMARY_ID type. An empty or absent token is
// "no id found"; one that does not parse (or a STRING id over 16384 bytes) is invalid. A
// composite PRIMARY KEY id is the array of its key attributes' values, from a tuple of
// tokens `($"a", $"b")`.
import type { AttrValue, PrimaryIdType, VertexType } from "../../../runtime-wasm/schema/types.js";
import type { ValueExpr } from "../plan.js";
import { LoadError } from "../errors.js";
import { INVALID, WRONG_LENGTH, parseDatetimeToken, parseIntToken, parseUintToken, scalarConverter } from "../functions/convert.js";
import type { VertexId } from "../sink.js";
import { compileToken } from "./tokens.js";
import type { ColumnResolver, Row } from "./row.js";

export const NO_ID: unique symbol = Symbol("no id");
export type IdResult = VertexId | typeof NO_ID | typeof INVALID;

const MAX_KEY_BYTES = 16384;

/** One token, or the tokens of a composite id. */
export type IdToken = string | undefined | (string | undefined)[];
export type IdConverter = (token: IdToken) => IdResult;

/** The id getter of an id expression: a token, or a tuple of tokens for a composite key. */
export function compileIdToken(expr: ValueExpr, columns: ColumnResolver): (row: Row) => IdToken {
  if (expr.kind !== "composite") return compileToken(expr, columns);
  const parts = expr.parts.map((p) => compileToken(p, columns));
  return (row) => parts.map((p) => p(row));
}

export function idConverter(vt: VertexType): IdConverter {
  if (vt.compositeKey && vt.compositeKey.length > 0) return compositeIdConverter(vt);
  const single = primitiveIdConverter(vt.primaryId.type);
  return (t) => (Array.isArray(t) ? (t.length === 1 ? single(t[0]) : INVALID) : single(t));
}

function compositeIdConverter(vt: VertexType): IdConverter {
  const converters = vt.compositeKey!.map((name) => {
    const attr = vt.attributes.find((a) => a.name === name);
    if (!attr || attr.type.kind !== "scalar") throw new LoadError(`The key attribute ${name} of ${vt.name} is not a scalar attribute.`);
    return scalarConverter(attr.type.name, attr.type.size);
  });
  return (t) => {
    const tokens = Array.isArray(t) ? t : [t];
    if (tokens.length !== converters.length) return INVALID;
    const values: AttrValue[] = [];
    for (let i = 0; i < converters.length; i++) {
      const token = tokens[i];
      if (token === undefined || token === "") return NO_ID;
      const v = converters[i]!(token);
      if (v === INVALID || v === WRONG_LENGTH) return INVALID;
      values.push(v);
    }
    return values;
  };
}

function primitiveIdConverter(type: PrimaryIdType): (token: string | undefined) => IdResult {
  switch (type) {
    case "STRING":
      return (t) => {
        if (t === undefined || t === "") return NO_ID;
        if (t.length * 3 > MAX_KEY_BYTES && Buffer.byteLength(t, "utf8") > MAX_KEY_BYTES) return INVALID;
        return t;
      };
    case "INT":
      return (t) => (t === undefined || t === "" ? NO_ID : (scanSmallInteger(t, true) ?? parseIntToken(t)));
    case "UINT":
      return (t) => (t === undefined || t === "" ? NO_ID : (scanSmallInteger(t, false) ?? parseUintToken(t)));
    case "DATETIME":
      return (t) => (t === undefined || t === "" ? NO_ID : parseDatetimeToken(t));
  }
}

/**
 * The common case of integer ids, without a regular expression or a BigInt: plain digits
 * (with a '-' when signed), at most 15 of them, as a number. Anything else (spaces, '+',
 * long values, non-digits) returns undefined and takes the general path.
 */
function scanSmallInteger(t: string, signed: boolean): number | undefined {
  const n = t.length;
  let i = 0;
  let negative = false;
  if (signed && t.charCodeAt(0) === 45) {
    negative = true;
    i = 1;
  }
  if (i >= n || n - i > 15) return undefined;
  let v = 0;
  for (; i < n; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    v = v * 10 + d;
  }
  return negative ? 0 - v : v;
}
