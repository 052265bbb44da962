// Attribute values across the REST boundary: JSON values sent in upserts converted to the
// store's AttrValue for an attribute's type (or a reason why not), and stored values turned
// into output JSON with the shared number and DATETIME text (runtime-wasm/values).
import type { AttrType, AttrValue, TupleType } from "../../runtime-wasm/schema/types.js";
import { RawJson, formatDatetime, formatDouble, formatFloat, parseDatetime, type JsonOut } from "../../runtime-wasm/values/index.js";
import { isJsonObject, type JsonValue } from "../http/json-body.js";
import { clip } from "./clip-text.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Why a JSON value does not fit an attribute type. */
export class ConversionFailure {
  constructor(readonly reason: string) {}
}

/** A converted value, or why not (no wrapper object on success: upserts convert millions). */
export type Converted = AttrValue | ConversionFailure;

const fail = (reason: string): Converted => new ConversionFailure(reason);
const ok = (value: AttrValue): Converted => value;

/** Converts a JSON value to an attribute value of `type`. */
export function attrValueFromJson(value: JsonValue, type: AttrType, tuples: readonly TupleType[]): Converted {
  switch (type.kind) {
    case "scalar":
      return scalarFromJson(value, type.name);
    case "list":
    case "set": {
      if (!Array.isArray(value)) return fail(`a JSON array was expected for ${type.kind.toUpperCase()}`);
      const items: AttrValue[] = [];
      for (const item of value) {
        const c = attrValueFromJson(item, type.element, tuples);
        if (c instanceof ConversionFailure) return c;
        items.push(c);
      }
      return ok(type.kind === "set" ? dedupe(items) : items);
    }
    case "map":
      return mapFromJson(value, type.key, type.value, tuples);
    case "tuple": {
      const tuple = tuples.find((t) => t.name === type.name);
      if (!tuple) return fail(`unknown tuple type ${type.name}`);
      if (!isJsonObject(value)) return fail(`a JSON object was expected for tuple ${type.name}`);
      const out: { [field: string]: AttrValue } = {};
      for (const field of tuple.fields) {
        const entry = value.entries.findLast(([k]) => k === field.name);
        if (!entry) return fail(`field ${field.name} of tuple ${type.name} is missing`);
        const c = attrValueFromJson(entry[1], field.type, tuples);
        if (c instanceof ConversionFailure) return c;
        out[field.name] = c;
      }
      return ok(out);
    }
  }
}

function scalarFromJson(value: JsonValue, name: string): Converted {
  switch (name) {
    case "INT":
    case "UINT": {
      const n = toBigInt(value);
      if (n === undefined) return fail(`an integer was expected for ${name}`);
      if (name === "INT" ? n < INT64_MIN || n > INT64_MAX : n < 0n || n > UINT64_MAX) return fail(`${n} is out of range for ${name}`);
      return ok(n);
    }
    case "FLOAT":
    case "DOUBLE": {
      if (typeof value !== "number" && typeof value !== "bigint") return fail(`a number was expected for ${name}`);
      const x = Number(value);
      return ok(name === "FLOAT" ? Math.fround(x) : x);
    }
    case "BOOL":
      return typeof value === "boolean" ? ok(value) : fail("true or false was expected for BOOL");
    case "DATETIME": {
      if (typeof value === "string") {
        const t = parseDatetime(value);
        return t === undefined ? fail(`'${clip(value, 60)}' is not a valid DATETIME`) : ok(t);
      }
      const n = toBigInt(value);
      if (n === undefined || n < 0n) return fail("a datetime text or epoch seconds were expected for DATETIME");
      const t = parseDatetime(n.toString());
      return t === undefined ? fail(`${n} is out of range for DATETIME`) : ok(t);
    }
    default:
      // STRING, STRING COMPRESS, FIXED_BINARY
      return typeof value === "string" ? ok(value) : fail(`a string was expected for ${name}`);
  }
}

function mapFromJson(value: JsonValue, keyType: AttrType, valueType: AttrType, tuples: readonly TupleType[]): Converted {
  if (!isJsonObject(value)) return fail('a JSON object {"keylist": [...], "valuelist": [...]} was expected for MAP');
  const keylist = value.entries.findLast(([k]) => k === "keylist")?.[1];
  const valuelist = value.entries.findLast(([k]) => k === "valuelist")?.[1];
  if (!Array.isArray(keylist) || !Array.isArray(valuelist)) return fail('a JSON object {"keylist": [...], "valuelist": [...]} was expected for MAP');
  if (keylist.length !== valuelist.length) return fail("keylist and valuelist of a MAP must have the same length");
  const byKey = new Map<string, [AttrValue, AttrValue]>();
  for (let i = 0; i < keylist.length; i++) {
    const k = attrValueFromJson(keylist[i]!, keyType, tuples);
    if (k instanceof ConversionFailure) return k;
    const v = attrValueFromJson(valuelist[i]!, valueType, tuples);
    if (v instanceof ConversionFailure) return v;
    byKey.set(keyOf(k), [k, v]); // a later pair wins, as a map update would
  }
  return ok([...byKey.values()]);
}

function toBigInt(value: JsonValue): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

function dedupe(items: AttrValue[]): AttrValue[] {
  const seen = new Set<string>();
  return items.filter((v) => {
    const k = keyOf(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A text identity for set membership and map keys (bigint and number kept apart from strings). */
export function keyOf(v: AttrValue): string {
  return typeof v === "string" ? "s" + v : typeof v === "bigint" ? "i" + v : "o" + JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));
}

/** Output JSON of a stored value of `type`. */
export function attrValueToJson(value: AttrValue, type: AttrType): JsonOut {
  switch (type.kind) {
    case "scalar":
      switch (type.name) {
        case "FLOAT":
          return new RawJson(formatFloat(value as number));
        case "DOUBLE":
          return new RawJson(formatDouble(value as number));
        case "DATETIME":
          return formatDatetime(value as number);
        default:
          return value as bigint | boolean | string;
      }
    case "list":
    case "set":
      return (value as AttrValue[]).map((v) => attrValueToJson(v, type.element));
    case "map": {
      const out: { [key: string]: JsonOut } = {};
      for (const [k, v] of value as [AttrValue, AttrValue][]) out[mapKeyText(k, type.key)] = attrValueToJson(v, type.value);
      return out;
    }
    case "tuple": {
      const out: { [key: string]: JsonOut } = {};
      for (const [k, v] of Object.entries(value as { [field: string]: AttrValue })) out[k] = tupleFieldToJson(v);
      return out;
    }
  }
}

function mapKeyText(k: AttrValue, type: AttrType): string {
  const j = attrValueToJson(k, type);
  return j instanceof RawJson ? j.text : String(j);
}

/** Tuple fields carry no type here; numbers print as DOUBLE, integers exactly. */
function tupleFieldToJson(v: AttrValue): JsonOut {
  if (Array.isArray(v)) return v.map((x) => tupleFieldToJson(x as AttrValue));
  if (typeof v === "number") return new RawJson(formatDouble(v));
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tupleFieldToJson(x)]));
  return v;
}
