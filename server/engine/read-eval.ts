// Turns parsed filter conditions and sort keys into functions over stored items (vertices or
// edges of one type), typed by the attributes' schema types: literals are converted once to
// the attribute's type, so each comparison is a plain compare.
import type { AttrType, AttrValue } from "../../runtime-wasm/schema/types.js";
import { parseDatetime } from "../../runtime-wasm/values/index.js";
import { invalidRequest } from "./engine-error.js";
import type { FilterCondition, FilterLiteral, SortKey } from "./read-spec.js";

/** Attributes of one vertex or edge type as readers see them. */
export interface AttributeSource<T> {
  /** Schema type of an attribute, undefined when the type has no such attribute. */
  typeOf(name: string): AttrType | undefined;
  reader(name: string): (item: T) => AttrValue | undefined;
}

type Comparable = bigint | number | string | boolean;

/**
 * A predicate for all conditions (AND). `otherTypesHave` tells whether an attribute missing
 * here exists on another type the read covers: then the condition is simply false for this
 * type; otherwise the name is unknown and the request is refused.
 */
export function compileFilter<T>(
  conditions: readonly FilterCondition[],
  source: AttributeSource<T>,
  what: string,
  otherTypesHave: (name: string) => boolean = () => false,
): ((item: T) => boolean) | undefined {
  if (conditions.length === 0) return undefined;
  const tests: ((item: T) => boolean)[] = [];
  for (const c of conditions) {
    const type = source.typeOf(c.attribute);
    if (!type) {
      if (otherTypesHave(c.attribute)) return () => false;
      throw invalidRequest(`Invalid filter parameter: '${c.attribute}' is not an attribute of ${what}.`);
    }
    const literal = literalFor(c.literal, type, c.attribute);
    const read = source.reader(c.attribute);
    const holds = opTest(c.op);
    tests.push((item) => {
      const v = read(item);
      return v !== undefined && holds(compare(comparable(v, type), literal));
    });
  }
  return tests.length === 1 ? tests[0] : (item) => tests.every((t) => t(item));
}

/** A comparator for the sort keys (undefined when there are none); ties are left to the caller's stable sort. */
export function compileSort<T>(keys: readonly SortKey[], source: AttributeSource<T>, what: string, otherTypesHave: (name: string) => boolean = () => false) {
  if (keys.length === 0) return undefined;
  const parts = keys.map((k) => {
    const type = source.typeOf(k.attribute);
    if (!type && !otherTypesHave(k.attribute)) throw invalidRequest(`Invalid sort parameter: '${k.attribute}' is not an attribute of ${what}.`);
    if (type && type.kind !== "scalar") throw invalidRequest(`Invalid sort parameter: attribute '${k.attribute}' of ${what} is a collection and cannot be sorted on.`);
    const read = type ? source.reader(k.attribute) : () => undefined;
    return { read, type, sign: k.descending ? -1 : 1 };
  });
  return (a: T, b: T): number => {
    for (const p of parts) {
      const va = p.read(a);
      const vb = p.read(b);
      if (va === undefined || vb === undefined) {
        if (va !== vb) return (va === undefined ? 1 : -1) * p.sign;
        continue;
      }
      const c = compare(comparable(va, p.type!), comparable(vb, p.type!));
      if (c !== 0) return c * p.sign;
    }
    return 0;
  };
}

function comparable(v: AttrValue, type: AttrType): Comparable {
  if (type.kind !== "scalar") return "";
  return v as Comparable;
}

function compare(a: Comparable, b: Comparable): number {
  if (typeof a === "bigint" && typeof b === "number") return Number(a) < b ? -1 : Number(a) > b ? 1 : 0;
  return a < b ? -1 : a > b ? 1 : 0;
}

function opTest(op: FilterCondition["op"]): (c: number) => boolean {
  switch (op) {
    case "=":
      return (c) => c === 0;
    case "!=":
      return (c) => c !== 0;
    case ">":
      return (c) => c > 0;
    case ">=":
      return (c) => c >= 0;
    case "<":
      return (c) => c < 0;
    case "<=":
      return (c) => c <= 0;
  }
}

/** The literal converted to the attribute's type, so it compares directly with stored values. */
function literalFor(literal: FilterLiteral, type: AttrType, attribute: string): Comparable {
  const bad = (typeName: string): never => {
    const shown = literal.text.length > 60 ? literal.text.slice(0, 60) + "..." : literal.text;
    throw invalidRequest(`Invalid filter parameter: '${shown}' is not a valid ${typeName} value for attribute '${attribute}'.`);
  };
  if (type.kind !== "scalar") throw invalidRequest(`Invalid filter parameter: attribute '${attribute}' is a collection and cannot be compared.`);
  const text = literal.text;
  switch (type.name) {
    case "INT":
    case "UINT": {
      if (/^[-+]?\d{1,20}$/.test(text)) return BigInt(text);
      const x = Number(text);
      return text.trim() !== "" && Number.isFinite(x) ? x : bad(type.name);
    }
    case "FLOAT":
    case "DOUBLE": {
      const x = Number(text);
      if (text.trim() === "" || !Number.isFinite(x)) return bad(type.name);
      return type.name === "FLOAT" ? Math.fround(x) : x;
    }
    case "BOOL": {
      const lower = text.toLowerCase();
      if (lower === "true" || lower === "1") return true;
      if (lower === "false" || lower === "0") return false;
      return bad("BOOL");
    }
    case "DATETIME": {
      const t = parseDatetime(text);
      return t === undefined ? bad("DATETIME") : t;
    }
    default:
      return text;
  }
}
