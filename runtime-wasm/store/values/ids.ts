// Primary ids: from what callers give (ExternalId) to the normalized key the store hashes and
// compares, and back. A normalized key is a number (INT/UINT/DATETIME within 2^53), a bigint
// (larger INT/UINT), or a string (STRING ids and the canonical text of composite keys). Equal
// ids give equal keys, so keys serve directly as Map keys.
import type { AttrValue, VertexType } from "../../schema/types.js";
import type { ExternalId } from "../api.js";
import { IdKind } from "../layout.js";
import { coerceValue, INT_MAX, INT_MIN, UINT_MAX, type TupleTable } from "./coerce.js";
import { formatDatetime, inRange, parseDatetime } from "./datetime.js";

export type IdKey = number | bigint | string;

export function idKindOf(type: VertexType): IdKind {
  if (type.compositeKey && type.compositeKey.length > 0) return IdKind.COMPOSITE;
  switch (type.primaryId.type) {
    case "INT":
      return IdKind.INT;
    case "UINT":
      return IdKind.UINT;
    case "DATETIME":
      return IdKind.DATETIME;
    default:
      return IdKind.STRING;
  }
}

/** Bytes per id-column element. */
export function idColumnBytes(kind: IdKind): number {
  return kind === IdKind.STRING || kind === IdKind.COMPOSITE ? 4 : 8;
}

const SAFE_DIGITS = /^[+-]?\d{1,15}$/;
const DIGITS = /^[+-]?\d{1,40}$/;

/** The normalized key of `raw` for a type, or undefined when it is not a valid id of it. */
export function normalizeId(type: VertexType, kind: IdKind, raw: ExternalId, tuples: TupleTable): IdKey | undefined {
  switch (kind) {
    case IdKind.INT:
      return integerKey(raw, INT_MIN, INT_MAX);
    case IdKind.UINT:
      return integerKey(raw, 0n, UINT_MAX);
    case IdKind.DATETIME:
      if (typeof raw === "number") return inRange(raw);
      if (typeof raw === "bigint") return raw >= -(1n << 52n) && raw <= 1n << 52n ? inRange(Number(raw)) : undefined;
      if (typeof raw === "string") return parseDatetime(raw);
      return undefined;
    case IdKind.STRING:
      if (typeof raw === "string") return raw.length > 0 ? raw : undefined;
      if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
      if (typeof raw === "bigint") return String(raw);
      return undefined;
    case IdKind.COMPOSITE:
      return compositeKey(type, raw, tuples);
  }
}

function integerKey(raw: ExternalId, min: bigint, max: bigint): IdKey | undefined {
  const lowest = min === 0n ? 0 : -Infinity;
  let big: bigint;
  if (typeof raw === "number") {
    if (Number.isSafeInteger(raw)) return raw >= lowest ? raw : undefined;
    if (!Number.isInteger(raw)) return undefined;
    big = BigInt(raw);
  } else if (typeof raw === "string") {
    const t = raw.trim();
    if (SAFE_DIGITS.test(t)) {
      const n = Number(t);
      return n >= lowest ? n : undefined;
    }
    if (!DIGITS.test(t)) return undefined;
    big = BigInt(t);
  } else if (typeof raw === "bigint") big = raw;
  else return undefined;
  if (big < min || big > max) return undefined;
  return big >= -(1n << 53n) && big <= 1n << 53n ? Number(big) : big;
}

/** Canonical text of a composite key: the JSON array of its values' texts, in key order. */
function compositeKey(type: VertexType, raw: ExternalId, tuples: TupleTable): string | undefined {
  const names = type.compositeKey ?? [];
  const values = Array.isArray(raw) ? raw : names.length === 1 ? [raw] : undefined;
  if (!values || values.length !== names.length) return undefined;
  const texts: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const attr = type.attributes.find((a) => a.name === names[i]);
    if (!attr) return undefined;
    const v = coerceValue(attr.type, values[i], tuples);
    if (v === undefined || typeof v === "object") return undefined;
    texts.push(String(v));
  }
  return JSON.stringify(texts);
}

/** The key attributes' values of a composite key (in key order). */
export function compositeValues(type: VertexType, raw: ExternalId, tuples: TupleTable): AttrValue[] {
  const names = type.compositeKey ?? [];
  const values = Array.isArray(raw) ? raw : [raw];
  return names.map((name, i) => coerceValue(type.attributes.find((a) => a.name === name)!.type, values[i], tuples)!);
}

/** Low and high 32-bit halves (as int32) of a numeric key. */
export function keyLow(key: number | bigint): number {
  if (typeof key === "number") return key | 0;
  return Number(BigInt.asIntN(32, key));
}

export function keyHigh(key: number | bigint): number {
  if (typeof key === "number") return Math.floor(key / 4294967296) | 0;
  return Number(BigInt.asIntN(32, key >> 32n));
}

/** The id as the store gives it back. */
export function idValueOfKey(kind: IdKind, key: IdKey): bigint | number | string {
  if (kind === IdKind.INT || kind === IdKind.UINT) return BigInt(key);
  return key;
}

export function idText(kind: IdKind, value: bigint | number | string | AttrValue[]): string {
  if (kind === IdKind.DATETIME) return formatDatetime(value as number);
  if (Array.isArray(value)) return value.map((v) => String(v)).join(",");
  return String(value);
}
