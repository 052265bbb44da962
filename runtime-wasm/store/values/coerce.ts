// Turning caller values (AttrValue or plain JSON) into the canonical AttrValue of an attribute
// type, and the built-in defaults. Canonical forms: INT/UINT bigint within 64 bits, FLOAT a
// float32-rounded number, DOUBLE number, BOOL boolean, STRING/FIXED_BINARY string, DATETIME
// epoch seconds, LIST array, SET array without duplicates (first occurrence kept), MAP array
// of [key, value] pairs with unique keys (last write wins), tuple object with every field.
import type { AttrType, AttrValue, AttributeDef, TupleType } from "../../schema/types.js";
import { inRange, parseDatetime } from "./datetime.js";

export const INT_MIN = -(1n << 63n);
export const INT_MAX = (1n << 63n) - 1n;
export const UINT_MAX = (1n << 64n) - 1n;

/** Tuple definitions by name, for coercing and encoding tuple values. */
export type TupleTable = ReadonlyMap<string, TupleType>;

export function tupleTable(tuples: TupleType[]): TupleTable {
  return new Map(tuples.map((t) => [t.name, t]));
}

/** The canonical value, or undefined when `raw` does not fit the type. */
export function coerceValue(type: AttrType, raw: unknown, tuples: TupleTable): AttrValue | undefined {
  switch (type.kind) {
    case "scalar":
      return coerceScalar(type.name, raw);
    case "list": {
      const items = asArray(raw);
      if (!items) return undefined;
      const out: AttrValue[] = [];
      for (const item of items) {
        const v = coerceValue(type.element, item, tuples);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    case "set": {
      const items = asArray(raw);
      if (!items) return undefined;
      const out: AttrValue[] = [];
      const seen = new Set<string>();
      for (const item of items) {
        const v = coerceValue(type.element, item, tuples);
        if (v === undefined) return undefined;
        const key = valueKey(v);
        if (!seen.has(key)) {
          seen.add(key);
          out.push(v);
        }
      }
      return out;
    }
    case "map":
      return coerceMap(type, raw, tuples);
    case "tuple":
      return coerceTuple(type.name, raw, tuples);
  }
}

function coerceScalar(name: string, raw: unknown): AttrValue | undefined {
  switch (name) {
    case "INT":
      return integer(raw, INT_MIN, INT_MAX);
    case "UINT":
      return integer(raw, 0n, UINT_MAX);
    case "FLOAT": {
      const n = real(raw);
      return n === undefined ? undefined : Math.fround(n);
    }
    case "DOUBLE":
      return real(raw);
    case "BOOL":
      return boolean(raw);
    case "STRING":
    case "FIXED_BINARY":
      if (typeof raw === "string") return raw;
      if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
      if (typeof raw === "bigint" || typeof raw === "boolean") return String(raw);
      return undefined;
    case "DATETIME":
      if (typeof raw === "number") return inRange(raw);
      if (typeof raw === "bigint") return raw >= -(1n << 52n) && raw <= 1n << 52n ? inRange(Number(raw)) : undefined;
      if (typeof raw === "string") return parseDatetime(raw);
      return undefined;
  }
  return undefined;
}

function integer(raw: unknown, min: bigint, max: bigint): bigint | undefined {
  let v: bigint;
  if (typeof raw === "bigint") v = raw;
  else if (typeof raw === "number") {
    if (!Number.isInteger(raw)) return undefined;
    v = BigInt(raw);
  } else if (typeof raw === "string") {
    const t = raw.trim();
    if (!/^[+-]?\d{1,40}$/.test(t)) return undefined;
    v = BigInt(t);
  } else return undefined;
  return v >= min && v <= max ? v : undefined;
}

function real(raw: unknown): number | undefined {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === "bigint") return Number(raw);
  if (typeof raw === "string") {
    const t = raw.trim();
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
    const n = Number(t);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function boolean(raw: unknown): boolean | undefined {
  if (typeof raw === "boolean") return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === "string") {
    const t = raw.trim().toLowerCase();
    if (t === "true" || t === "1") return true;
    if (t === "false" || t === "0") return false;
  }
  return undefined;
}

function asArray(raw: unknown): unknown[] | undefined {
  return Array.isArray(raw) ? raw : undefined;
}

function coerceMap(type: Extract<AttrType, { kind: "map" }>, raw: unknown, tuples: TupleTable): AttrValue | undefined {
  let pairs: [unknown, unknown][];
  if (Array.isArray(raw)) {
    if (!raw.every((p) => Array.isArray(p) && p.length === 2)) return undefined;
    pairs = raw as [unknown, unknown][];
  } else if (raw !== null && typeof raw === "object") {
    const o = raw as Record<string, unknown>;
    if (Array.isArray(o.keylist) || Array.isArray(o.valuelist)) {
      const keys = o.keylist;
      const values = o.valuelist;
      if (!Array.isArray(keys) || !Array.isArray(values) || keys.length !== values.length) return undefined;
      pairs = keys.map((k, i) => [k, values[i]]);
    } else pairs = Object.entries(o);
  } else return undefined;
  const byKey = new Map<string, [AttrValue, AttrValue]>();
  for (const [k, v] of pairs) {
    const key = coerceValue(type.key, k, tuples);
    const value = coerceValue(type.value, v, tuples);
    if (key === undefined || value === undefined) return undefined;
    const id = valueKey(key);
    byKey.delete(id);
    byKey.set(id, [key, value]);
  }
  return [...byKey.values()];
}

function coerceTuple(name: string, raw: unknown, tuples: TupleTable): AttrValue | undefined {
  const def = tuples.get(name);
  if (!def) return undefined;
  const out: { [field: string]: AttrValue } = {};
  if (Array.isArray(raw)) {
    if (raw.length !== def.fields.length) return undefined;
    for (let i = 0; i < def.fields.length; i++) {
      const v = coerceValue(def.fields[i].type, raw[i], tuples);
      if (v === undefined) return undefined;
      out[def.fields[i].name] = v;
    }
    return out;
  }
  if (raw === null || typeof raw !== "object") return undefined;
  const o = raw as Record<string, unknown>;
  for (const field of def.fields) {
    const given = o[field.name];
    const v = given === undefined ? builtinDefault(field.type, tuples) : coerceValue(field.type, given, tuples);
    if (v === undefined) return undefined;
    out[field.name] = v;
  }
  return out;
}

/** The value a new item gets: the declared DEFAULT, else 0 / 0.0 / false / "" / 1970 / empty. */
export function defaultOf(attr: AttributeDef, tuples: TupleTable): AttrValue {
  if (attr.default !== undefined) {
    const v = coerceValue(attr.type, attr.default, tuples);
    if (v !== undefined) return v;
  }
  return builtinDefault(attr.type, tuples);
}

export function builtinDefault(type: AttrType, tuples: TupleTable): AttrValue {
  switch (type.kind) {
    case "scalar":
      switch (type.name) {
        case "INT":
        case "UINT":
          return 0n;
        case "FLOAT":
        case "DOUBLE":
        case "DATETIME":
          return 0;
        case "BOOL":
          return false;
        default:
          return "";
      }
    case "list":
    case "set":
    case "map":
      return [];
    case "tuple": {
      const def = tuples.get(type.name);
      const out: { [field: string]: AttrValue } = {};
      for (const f of def?.fields ?? []) out[f.name] = builtinDefault(f.type, tuples);
      return out;
    }
  }
}

/** A text key equal for equal values (bigint 1 and number 1 differ: types never mix in one place). */
export function valueKey(v: AttrValue): string {
  if (typeof v === "bigint") return `n${v}`;
  if (typeof v === "number") return `d${v}`;
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "string") return `s${v}`;
  return `j${JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `n${x}` : x))}`;
}

/** Structural equality of attribute types (STRING COMPRESS counts as STRING). */
export function sameType(a: AttrType, b: AttrType): boolean {
  switch (a.kind) {
    case "scalar":
      return b.kind === "scalar" && a.name === b.name && (a.size ?? 0) === (b.size ?? 0);
    case "list":
    case "set":
      return b.kind === a.kind && sameType(a.element, b.element);
    case "map":
      return b.kind === "map" && sameType(a.key, b.key) && sameType(a.value, b.value);
    case "tuple":
      return b.kind === "tuple" && a.name === b.name;
  }
}
