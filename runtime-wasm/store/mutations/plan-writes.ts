// Validation shared by the upsert phases: resolving an item's attribute writes against its
// columns (unknown names ignored, values coerced, operators checked) and its primary id.
import type { AttrValue } from "../../schema/types.js";
import type { AttrWrite, ExternalId, UpsertOp } from "../api.js";
import { shown, StoreError } from "../errors.js";
import type { Column } from "../tables/columns.js";
import type { VertexTable } from "../tables/vertex-table.js";
import { coerceValue, type TupleTable } from "../values/coerce.js";
import { compositeValues, idValueOfKey, normalizeId, type IdKey } from "../values/ids.js";
import { IdKind } from "../layout.js";
import { operatorApplies } from "../values/operators.js";

export interface PlannedWrite {
  column: Column;
  value: AttrValue;
  op: UpsertOp;
}

const OPS = new Set<string>(["=", "~", "+", "&", "|", ">", "<"]);
export const NO_WRITES: PlannedWrite[] = [];

/** Where the item being validated sits in the batch ("edges[3].from"), computed only when an error names it. */
export interface ItemPath {
  path(suffix?: string): string;
}

/** The writes of an item, in the given order. Writes to `exclude` columns are dropped (ids, discriminators handled apart). */
export function planWrites(
  byName: ReadonlyMap<string, Column>,
  exclude: readonly Column[],
  writes: AttrWrite[] | undefined,
  tuples: TupleTable,
  owner: string,
  where: ItemPath,
): PlannedWrite[] {
  if (writes === undefined || (Array.isArray(writes) && writes.length === 0)) return NO_WRITES;
  if (!Array.isArray(writes)) throw new StoreError("INVALID_VALUE", `${where.path()}: attributes must be a list`, { path: where.path() });
  const out: PlannedWrite[] = [];
  for (let i = 0; i < writes.length; i++) {
    const w = writes[i];
    const column = w !== null && typeof w === "object" ? byName.get(w.name) : undefined;
    if (!column || exclude.includes(column)) continue;
    const op = w.op ?? "=";
    if (!OPS.has(op)) throw writeError("INVALID_OPERATOR", `unknown operator "${shown(op)}"`, where, i, owner, w.name);
    if (!operatorApplies(op, column.def.type)) throw writeError("INVALID_OPERATOR", `operator "${op}" does not apply to attribute ${w.name} of type ${typeText(column)}`, where, i, owner, w.name);
    const value = coerceValue(column.def.type, w.value, tuples);
    if (value === undefined) throw writeError("INVALID_VALUE", `invalid value for attribute ${w.name} of type ${typeText(column)} in ${owner}`, where, i, owner, w.name);
    out.push({ column, value, op });
  }
  return out;
}

function writeError(code: "INVALID_OPERATOR" | "INVALID_VALUE", what: string, where: ItemPath, index: number, owner: string, attribute: string): StoreError {
  const path = where.path(`.attributes[${index}]`);
  return new StoreError(code, `${path}: ${what}`, { path, type: owner, attribute });
}

export function typeText(column: Column): string {
  const t = column.def.type;
  switch (t.kind) {
    case "scalar":
      return t.name;
    case "tuple":
      return t.name;
    case "map":
      return "MAP";
    default:
      return t.kind.toUpperCase();
  }
}

/** The normalized key of an id, or INVALID_ID naming where it was. */
export function planId(table: VertexTable, raw: ExternalId, where: ItemPath, suffix: string): IdKey {
  const key = normalizeId(table.def, table.idKind, raw, table.ctx.tuples);
  if (key === undefined) {
    const path = where.path(suffix);
    throw new StoreError("INVALID_ID", `${path}: '${printable(raw)}' is not a valid id for vertex type ${table.def.name}`, { path, type: table.def.name });
  }
  return key;
}

/** Values of the attributes that hold the id (composite parts, PRIMARY KEY), for a new vertex. */
export function keyValues(table: VertexTable, raw: ExternalId, key: IdKey): AttrValue[] | undefined {
  if (table.keyColumns.length === 0) return undefined;
  if (table.idKind === IdKind.COMPOSITE) return compositeValues(table.def, raw, table.ctx.tuples);
  const value = coerceValue(table.keyColumns[0].def.type, idValueOfKey(table.idKind, key), table.ctx.tuples);
  return value === undefined ? undefined : [value];
}

function printable(raw: unknown): string {
  try {
    return typeof raw === "string" ? raw : (JSON.stringify(raw, (_k, v) => (typeof v === "bigint" ? String(v) : v)) ?? shown(raw));
  } catch {
    return shown(raw);
  }
}
