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
      return (t) => (t === undefined || t === "" ? NO_ID : parseIntToken(t));
    case "UINT":
      return (t) => (t === undefined || t === "" ? NO_ID : parseUintToken(t));
    case "DATETIME":
      return (t) => (t === undefined || t === "" ? NO_ID : parseDatetimeToken(t));
  }
}
