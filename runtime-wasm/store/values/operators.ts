// The upsert operators on canonical values: which operator applies to which attribute type,
// and the value it produces from the stored one and the given one.
import type { AttrType, AttrValue } from "../../schema/types.js";
import type { UpsertOp } from "../api.js";
import { valueKey } from "./coerce.js";

/** Operators 3-7: they need the item to exist. */
export function needsExistingItem(op: UpsertOp): boolean {
  return op !== "=" && op !== "~";
}

/** Whether `op` is defined on values of `type`. */
export function operatorApplies(op: UpsertOp, type: AttrType): boolean {
  if (op === "=" || op === "~") return true;
  if (type.kind === "tuple") return false;
  if (type.kind !== "scalar") return op === "+";
  const name = type.name;
  switch (op) {
    case "+":
      return name !== "FIXED_BINARY";
    case "&":
    case "|":
      return name === "BOOL" || name === "INT" || name === "UINT";
    case ">":
    case "<":
      return name !== "FIXED_BINARY";
  }
}

/** The new stored value. `op` must apply to `type`; `~` is resolved by the caller. */
export function applyOperator(op: UpsertOp, type: AttrType, stored: AttrValue, given: AttrValue): AttrValue {
  switch (op) {
    case "=":
    case "~":
      return given;
    case "+":
      return add(type, stored, given);
    case "&":
      if (typeof stored === "boolean") return stored && (given as boolean);
      return wrap(type, (stored as bigint) & (given as bigint));
    case "|":
      if (typeof stored === "boolean") return stored || (given as boolean);
      return wrap(type, (stored as bigint) | (given as bigint));
    case ">":
      return compare(stored, given) >= 0 ? stored : given;
    case "<":
      return compare(stored, given) <= 0 ? stored : given;
  }
}

function add(type: AttrType, stored: AttrValue, given: AttrValue): AttrValue {
  if (type.kind === "list") return [...(stored as AttrValue[]), ...(given as AttrValue[])];
  if (type.kind === "set") {
    const out = [...(stored as AttrValue[])];
    const seen = new Set(out.map(valueKey));
    for (const v of given as AttrValue[]) {
      const k = valueKey(v);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(v);
      }
    }
    return out;
  }
  if (type.kind === "map") {
    const byKey = new Map<string, [AttrValue, AttrValue]>();
    for (const pair of [...(stored as [AttrValue, AttrValue][]), ...(given as [AttrValue, AttrValue][])]) byKey.set(valueKey(pair[0]), pair);
    return [...byKey.values()];
  }
  if (typeof stored === "bigint") return wrap(type, stored + (given as bigint));
  if (typeof stored === "boolean") return stored || (given as boolean);
  if (typeof stored === "string") return stored + (given as string);
  const sum = (stored as number) + (given as number);
  return type.kind === "scalar" && type.name === "FLOAT" ? Math.fround(sum) : sum;
}

/** INT results wrap to signed 64 bits, UINT to unsigned. */
function wrap(type: AttrType, v: bigint): bigint {
  return type.kind === "scalar" && type.name === "UINT" ? BigInt.asUintN(64, v) : BigInt.asIntN(64, v);
}

function compare(a: AttrValue, b: AttrValue): number {
  if (typeof a === "boolean") return Number(a) - Number(b as boolean);
  if (typeof a === "string") return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  if (typeof a === "bigint") return a < (b as bigint) ? -1 : a > (b as bigint) ? 1 : 0;
  return (a as number) - (b as number);
}
