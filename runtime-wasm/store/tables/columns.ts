// Attribute columns: one array per attribute, indexed by local slot (vertices) or eid (edges),
// element layout by ColumnKind (layout.ts). Reading and writing a cell goes through here so
// the snapshot reader and the writers agree on every encoding.
import type { AttrType, AttrValue, AttributeDef } from "../../schema/types.js";
import { ColumnKind, COLUMN_BYTES } from "../layout.js";
import type { Arena } from "../memory/arena.js";
import type { Heap } from "../memory/heap.js";
import type { Region } from "../memory/space.js";
import { BlobWriter, readBlobValue } from "../values/blob.js";
import { builtinDefault, type TupleTable } from "../values/coerce.js";

export interface Column {
  name: string;
  def: AttributeDef;
  ordinal: number;
  kind: ColumnKind;
  /** Null for a dropped attribute's ordinal. */
  region: Region | null;
  /** What a new item gets (defaultOf), and whether a zeroed cell already holds it. */
  defaultValue: AttrValue;
  zeroDefault: boolean;
}

export function columnKindOf(type: AttrType): ColumnKind {
  if (type.kind !== "scalar") return ColumnKind.BLOB;
  switch (type.name) {
    case "INT":
      return ColumnKind.I64;
    case "UINT":
      return ColumnKind.U64;
    case "FLOAT":
      return ColumnKind.F32;
    case "DOUBLE":
      return ColumnKind.F64;
    case "BOOL":
      return ColumnKind.BOOL;
    case "DATETIME":
      return ColumnKind.DATETIME;
    default:
      return ColumnKind.STRING;
  }
}

/** Column bytes for `slots` elements, rounded so every column stays 8-aligned. */
export function columnBytes(kind: ColumnKind, slots: number): number {
  return Math.max(8, Math.ceil((COLUMN_BYTES[kind] * slots) / 8) * 8);
}

/** What reading and writing cells needs besides the column. */
export interface CellContext {
  arena: Arena;
  heap: Heap;
  tuples: TupleTable;
  blob: BlobWriter;
}

export function readCell(ctx: CellContext, kind: ColumnKind, addr: number, slot: number, type: AttrType): AttrValue {
  const a = ctx.arena;
  switch (kind) {
    case ColumnKind.I64:
      return a.i64[(addr >>> 3) + slot];
    case ColumnKind.U64:
      return a.u64[(addr >>> 3) + slot];
    case ColumnKind.F32:
      return a.f32[(addr >>> 2) + slot];
    case ColumnKind.F64:
      return a.f64[(addr >>> 3) + slot];
    case ColumnKind.BOOL:
      return a.u8[addr + slot] !== 0;
    case ColumnKind.DATETIME: {
      const i = (addr >>> 2) + slot * 2;
      return a.i32[i + 1] * 4294967296 + (a.i32[i] >>> 0);
    }
    case ColumnKind.STRING:
      return ctx.heap.getString(a.u32[(addr >>> 2) + slot]);
    case ColumnKind.BLOB: {
      const record = a.u32[(addr >>> 2) + slot];
      if (record === 0) return builtinDefault(type, ctx.tuples);
      const length = a.u32[record >>> 2];
      return readBlobValue(type, a.u8.subarray(record + 4, record + 4 + length), 0, ctx.tuples)[0];
    }
    default:
      throw new Error(`column kind ${kind} has no cells`);
  }
}

/** Write a canonical value; the column region must be writable and cover `slot`. */
export function writeCell(ctx: CellContext, kind: ColumnKind, addr: number, slot: number, type: AttrType, value: AttrValue): void {
  const a = ctx.arena;
  switch (kind) {
    case ColumnKind.I64:
      a.i64[(addr >>> 3) + slot] = value as bigint;
      return;
    case ColumnKind.U64:
      a.u64[(addr >>> 3) + slot] = value as bigint;
      return;
    case ColumnKind.F32:
      a.f32[(addr >>> 2) + slot] = value as number;
      return;
    case ColumnKind.F64:
      a.f64[(addr >>> 3) + slot] = value as number;
      return;
    case ColumnKind.BOOL:
      a.u8[addr + slot] = value ? 1 : 0;
      return;
    case ColumnKind.DATETIME: {
      const n = value as number;
      const i = (addr >>> 2) + slot * 2;
      a.i32[i] = n | 0;
      a.i32[i + 1] = Math.floor(n / 4294967296) | 0;
      return;
    }
    case ColumnKind.STRING:
      a.u32[(addr >>> 2) + slot] = ctx.heap.putString(value as string);
      return;
    case ColumnKind.BLOB:
      a.u32[(addr >>> 2) + slot] = putBlob(ctx, type, value);
      return;
  }
}

/** Heap record of a collection or tuple value (0 for an empty collection). */
export function putBlob(ctx: CellContext, type: AttrType, value: AttrValue): number {
  if (type.kind !== "tuple" && (value as AttrValue[]).length === 0) return 0;
  ctx.blob.reset();
  ctx.blob.write(type, value, ctx.tuples);
  return ctx.heap.putBytes(ctx.blob.bytes, ctx.blob.length);
}

/** Whether a freshly zeroed cell already holds the value (so writing it can be skipped). */
export function isZeroCell(kind: ColumnKind, value: AttrValue): boolean {
  switch (kind) {
    case ColumnKind.I64:
    case ColumnKind.U64:
      return value === 0n;
    case ColumnKind.F32:
    case ColumnKind.F64:
    case ColumnKind.DATETIME:
      return value === 0 && !Object.is(value, -0);
    case ColumnKind.BOOL:
      return value === false;
    case ColumnKind.STRING:
      return value === "";
    case ColumnKind.BLOB:
      return Array.isArray(value) && value.length === 0;
    default:
      return true;
  }
}
