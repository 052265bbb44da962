// Vertex ids from tokens, by the vertex type's PRIMARY_ID type. An empty or absent token is
// "no id found"; one that does not parse (or a STRING id over 16384 bytes) is invalid.
import type { PrimaryIdType } from "../../../runtime-wasm/schema/types.js";
import { INVALID, parseDatetimeToken, parseIntToken, parseUintToken } from "../functions/convert.js";
import type { VertexId } from "../sink.js";

export const NO_ID: unique symbol = Symbol("no id");
export type IdResult = VertexId | typeof NO_ID | typeof INVALID;

const MAX_KEY_BYTES = 16384;

export type IdConverter = (token: string | undefined) => IdResult;

export function idConverter(type: PrimaryIdType): IdConverter {
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
